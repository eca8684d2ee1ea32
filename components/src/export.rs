//! Exports: the core's export document (the link, every key, the result) as
//! JSON or CSV, written by the core's own writer (`tmath::json`), and the chart
//! as a PNG that stands on its own.

use crate::ctx::Ctx;
use crate::i18n;
use leptos::prelude::*;
use tmath::json::{export, to_csv, to_json};
use tmath::keys::State;
use tmath::page::View;
use tmath::Report;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// `{"query", "state", "result"}`: `result` is `tmath --json`'s object.
pub fn json(report: &Report, state: &State) -> String {
    to_json(&export(state, report))
}

/// `key,value` rows, each key once.
pub fn csv(report: &Report, state: &State) -> String {
    to_csv(&export(state, report))
}

/// Offers `data` as a file download (a blob URL on a temporary link).
pub fn download(name: &str, mime: &str, data: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(data));
    let bag = web_sys::BlobPropertyBag::new();
    bag.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &bag) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    click_link(name, &url);
    let _ = web_sys::Url::revoke_object_url(&url);
}

fn click_link(name: &str, href: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let Ok(a) = doc.create_element("a") else { return };
    let a: web_sys::HtmlAnchorElement = a.unchecked_into();
    a.set_href(href);
    a.set_download(name);
    a.click();
}

/// The memory chart as a PNG that stands on its own in a slide or an article:
/// a title, the model and its layout, the chart, its legend, the verdict and
/// the source, drawn around a copy of the chart's canvas.
pub fn download_chart(ctx: Ctx) {
    let doc = web_sys::window().and_then(|w| w.document());
    let chart = doc
        .as_ref()
        .and_then(|d| d.query_selector("[data-testid=memory-chart]").ok().flatten())
        .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok());
    let (Some(doc), Some(chart)) = (doc, chart) else { return };
    let Some(png) = compose(&doc, &chart, ctx) else { return };
    click_link("transformer-math-memory.png", &png);
}

fn compose(doc: &web_sys::Document, chart: &HtmlCanvasElement, ctx: Ctx) -> Option<String> {
    let lang = ctx.lang.get_untracked();
    let (w, h) = (chart.width() as f64, chart.height() as f64);
    // The chart's own scale: its canvas is CSS size × devicePixelRatio.
    let em = (w / 60.0).clamp(12.0, 40.0);
    let pad = em;
    let lines_above = 2.0;
    let lines_below = 3.0;
    let total_h = pad + lines_above * 1.6 * em + h + lines_below * 1.6 * em + pad;
    let out = doc.create_element("canvas").ok()?.dyn_into::<HtmlCanvasElement>().ok()?;
    out.set_width((w + 2.0 * pad) as u32);
    out.set_height(total_h as u32);
    let c = out.get_context("2d").ok()??.dyn_into::<CanvasRenderingContext2d>().ok()?;
    let dark = crate::charts::theme::prefers_dark();
    let (bg, fg) = if dark { ("rgb(18,20,23)", "rgb(230,230,230)") } else { ("#fff", "rgb(30,30,30)") };
    c.set_fill_style_str(bg);
    c.fill_rect(0.0, 0.0, w + 2.0 * pad, total_h);
    c.set_text_baseline("top");
    let line = |text: &str, y: f64, size: f64, bold: bool, color: &str| {
        c.set_font(&format!("{}{}px system-ui, sans-serif", if bold { "bold " } else { "" }, (size * em).round()));
        c.set_fill_style_str(color);
        let _ = c.fill_text(text, pad, y);
    };
    let r = ctx.shown.get_untracked();
    let mut y = pad;
    line(&format!("{} · {}", i18n::view_title(lang, View::Memory), i18n::tr(lang, "title")), y, 1.25, true, fg);
    y += 1.7 * em;
    line(&i18n::describe(lang, &r), y, 1.0, false, fg);
    y += 1.5 * em;
    c.draw_image_with_html_canvas_element(chart, pad, y).ok()?;
    y += h + 0.4 * em;
    // The legend: a swatch and a name per part, on one line.
    let mut x = pad;
    c.set_font(&format!("{}px system-ui, sans-serif", em.round()));
    for part in tmath::memory::Part::ALL {
        c.set_fill_style_str(&crate::charts::theme::css_color(part as usize));
        c.fill_rect(x, y + 0.15 * em, 0.8 * em, 0.8 * em);
        x += 1.1 * em;
        let name = i18n::tr(lang, part.key());
        c.set_fill_style_str(fg);
        let _ = c.fill_text(name, x, y);
        x += c.measure_text(name).map_or(0.0, |m| m.width()) + 1.2 * em;
    }
    y += 1.6 * em;
    let ok = if dark { "rgb(90,208,138)" } else { "rgb(10,125,56)" };
    let bad = if dark { "rgb(255,138,128)" } else { "rgb(179,38,30)" };
    line(&crate::panels::memory::verdict(ctx), y, 1.1, true, if r.fits() { ok } else { bad });
    y += 1.6 * em;
    line(
        &format!(
            "{} · {}",
            i18n::tr(lang, "source"),
            i18n::tr(
                lang,
                if ctx.units.get_untracked() == tmath::units::ByteUnit::Gib { "unit-note-gib" } else { "unit-note-gb" }
            )
        ),
        y,
        0.85,
        false,
        fg,
    );
    out.to_data_url().ok()
}
