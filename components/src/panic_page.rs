//! A panic must not leave a frozen page: the hook logs it and replaces the app
//! with a short message and a link back to the defaults.

use crate::i18n::{tr, Lang};

pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
        let lang = doc
            .document_element()
            .and_then(|e| e.get_attribute("lang"))
            .and_then(|l| Lang::parse(&l))
            .unwrap_or(Lang::En);
        if let Some(body) = doc.body() {
            body.set_inner_html(&format!(
                "<div class=\"panic\" role=\"alert\"><p>{}</p><p><a href=\"?\">{}</a></p></div>",
                tr(lang, "panic"),
                tr(lang, "reset")
            ));
        }
    }));
}
