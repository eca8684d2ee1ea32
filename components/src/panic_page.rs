//! A panic must not leave a frozen page: the app is replaced with a short
//! message and a link back to the defaults.
//!
//! The size-optimised build aborts on a panic without running any hook (the
//! wasm traps; a `WebAssembly.RuntimeError` reaches JavaScript), so the
//! message is shown by a few lines of JavaScript that listen for that error
//! (in each figure, where another page's embed.js mounted them).
//! The stable build also runs the Rust hook first, which logs the panic.

use crate::i18n::tr;
use tmath::page::Lang;
use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(inline_js = r#"
export function guard(messages) {
  const show = (event) => {
    const error = event.error ?? event.reason;
    if (!(error instanceof WebAssembly.RuntimeError)) return;
    const message = (lang, href) => {
      const m = messages[lang === "ko" ? "ko" : "en"];
      const box = document.createElement("div");
      box.className = "panic";
      box.setAttribute("role", "alert");
      const text = document.createElement("p");
      text.textContent = m.panic;
      const back = document.createElement("p");
      const link = document.createElement("a");
      link.href = href;
      link.textContent = m.reset;
      back.append(link);
      box.append(text, back);
      return box;
    };
    // Figures another page's embed.js mounted: each says it in its own root, the host stays.
    const base = globalThis.__tmath_embed;
    if (typeof base !== "string") return document.body.replaceChildren(message(document.documentElement.lang, "?"));
    for (const host of document.querySelectorAll("[data-tmath]")) {
      const root = host.shadowRoot?.querySelector(".tmath-root");
      if (root) root.replaceChildren(message(root.lang, base));
    }
  };
  addEventListener("error", show);
  addEventListener("unhandledrejection", show);
}
"#)]
extern "C" {
    fn guard(messages: &wasm_bindgen::JsValue);
}

fn messages() -> wasm_bindgen::JsValue {
    let all = js_sys::Object::new();
    for lang in [Lang::Ko, Lang::En] {
        let m = js_sys::Object::new();
        for key in ["panic", "reset"] {
            let _ = js_sys::Reflect::set(&m, &key.into(), &tr(lang, key).into());
        }
        let _ = js_sys::Reflect::set(&all, &lang.as_str().into(), &m);
    }
    all.into()
}

pub fn install() {
    guard(&messages());
    // Only where a panic runs the hook (not immediate-abort). It logs the panic;
    // the abort that follows traps, and the guard shows the page.
    #[cfg(any(panic = "abort", panic = "unwind"))]
    std::panic::set_hook(Box::new(console_error_panic_hook::hook));
}
