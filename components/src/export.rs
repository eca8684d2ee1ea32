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
    // A panel off the screen is not laid out (content-visibility: auto), so its chart is not
    // drawn (a phone's memory panel is below the controls): lay it out, and compose once the
    // chart has drawn at its size, a few frames later.
    let panel = chart.closest(".panel").ok().flatten().and_then(|p| p.dyn_into::<web_sys::HtmlElement>().ok());
    let hidden = panel
        .as_ref()
        .is_some_and(|p| p.style().get_property_value("content-visibility").unwrap_or_default() != "visible");
    if let (true, Some(p)) = (hidden, &panel) {
        let _ = p.style().set_property("content-visibility", "visible");
    }
    let finish = move || {
        if let Some(png) = compose(&doc, &chart, ctx) {
            click_link("transformer-math-memory.png", &png);
        }
    };
    if hidden {
        gloo_timers::callback::Timeout::new(150, finish).forget();
    } else {
        finish();
    }
}

/// `text` in lines no wider than `width` at the context's font, broken at spaces
/// (a word wider than the line stands alone on its own line).
fn wrap(c: &CanvasRenderingContext2d, text: &str, width: f64) -> Vec<String> {
    let measure = |t: &str| c.measure_text(t).map_or(0.0, |m| m.width());
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if !line.is_empty() && measure(&candidate) > width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = candidate;
        }
    }
    lines.push(line);
    lines
}

fn compose(doc: &web_sys::Document, chart: &HtmlCanvasElement, ctx: Ctx) -> Option<String> {
    let lang = ctx.lang.get_untracked();
    let (w, h) = (chart.width() as f64, chart.height() as f64);
    // The chart's own scale: its canvas is CSS size × devicePixelRatio.
    let em = (w / 60.0).clamp(12.0, 40.0);
    let pad = em;
    let out = doc.create_element("canvas").ok()?.dyn_into::<HtmlCanvasElement>().ok()?;
    let c = out.get_context("2d").ok()??.dyn_into::<CanvasRenderingContext2d>().ok()?;
    let font = |size: f64, bold: bool| {
        format!("{}{}px system-ui, sans-serif", if bold { "bold " } else { "" }, (size * em).round())
    };
    let r = ctx.shown.get_untracked();
    // Laid out first, drawn after: every line wrapped to the chart's width, the
    // legend's entries (the parts the bar shows) flowing onto as many rows as they need.
    let title = format!("{} · {}", i18n::view_title(lang, View::Memory), i18n::tr(lang, "title"));
    let source = format!(
        "{} · {}",
        i18n::tr(lang, "source"),
        i18n::tr(
            lang,
            if ctx.units.get_untracked() == tmath::units::ByteUnit::Gib { "unit-note-gib" } else { "unit-note-gb" }
        )
    );
    let verdict = crate::panels::memory::verdict(ctx);
    let texts: [(String, f64, bool); 4] =
        [(title, 1.25, true), (i18n::describe(lang, &r), 1.0, false), (verdict, 1.1, true), (source, 0.85, false)];
    let wrapped: Vec<Vec<String>> = texts
        .iter()
        .map(|(t, size, bold)| {
            c.set_font(&font(*size, *bold));
            wrap(&c, t, w)
        })
        .collect();
    c.set_font(&font(1.0, false));
    let swatch = 1.1 * em;
    // The legend the page shows under the chart (its parts, the serving bar's overhead or KV cache).
    let entries: Vec<(String, String)> = chart
        .parent_element()
        .and_then(|wrap| wrap.next_element_sibling())
        .filter(|ul| ul.class_list().contains("chart-legend"))
        .map(|ul| {
            let items = ul.children();
            (0..items.length())
                .filter_map(|i| items.item(i))
                .map(|li| {
                    let color = li
                        .first_element_child()
                        .and_then(|s| s.get_attribute("style"))
                        .and_then(|st| st.strip_prefix("background:").map(str::to_string))
                        .unwrap_or_default();
                    (color, li.text_content().unwrap_or_default().trim().to_string())
                })
                .collect()
        })
        .unwrap_or_default();
    let mut legend: Vec<Vec<(String, String, f64)>> = vec![Vec::new()];
    let mut x = 0.0;
    for (color, name) in entries {
        let width = swatch + c.measure_text(&name).map_or(0.0, |m| m.width());
        if x > 0.0 && x + width > w {
            legend.push(Vec::new());
            x = 0.0;
        }
        legend.last_mut()?.push((color, name, x));
        x += width + 1.2 * em;
    }
    let line_h = |size: f64| 1.35 * size * em;
    let block = |i: usize| wrapped[i].len() as f64 * line_h(texts[i].1);
    let total_h = pad
        + block(0)
        + 0.3 * em
        + block(1)
        + 0.3 * em
        + h
        + 0.4 * em
        + legend.len() as f64 * 1.6 * em
        + block(2)
        + 0.3 * em
        + block(3)
        + pad;
    out.set_width((w + 2.0 * pad) as u32);
    out.set_height(total_h.ceil() as u32);
    // Resizing the canvas reset its state: the font and the baseline are set again.
    let dark = crate::charts::theme::prefers_dark();
    let (bg, fg) = if dark { ("rgb(18,20,23)", "rgb(230,230,230)") } else { ("#fff", "rgb(30,30,30)") };
    c.set_fill_style_str(bg);
    c.fill_rect(0.0, 0.0, w + 2.0 * pad, total_h.ceil());
    c.set_text_baseline("top");
    let ok = if dark { "rgb(90,208,138)" } else { "rgb(10,125,56)" };
    let bad = if dark { "rgb(255,138,128)" } else { "rgb(179,38,30)" };
    let colors = [fg, fg, if r.fits() { ok } else { bad }, fg];
    let mut y = pad;
    let text_block = |i: usize, y: &mut f64| {
        c.set_font(&font(texts[i].1, texts[i].2));
        c.set_fill_style_str(colors[i]);
        for l in &wrapped[i] {
            let _ = c.fill_text(l, pad, *y);
            *y += line_h(texts[i].1);
        }
        *y += 0.3 * em;
    };
    text_block(0, &mut y);
    text_block(1, &mut y);
    c.draw_image_with_html_canvas_element(chart, pad, y).ok()?;
    y += h + 0.4 * em;
    c.set_font(&font(1.0, false));
    for row in &legend {
        for (color, name, x) in row {
            c.set_fill_style_str(color);
            c.fill_rect(pad + x, y + 0.15 * em, 0.8 * em, 0.8 * em);
            c.set_fill_style_str(fg);
            let _ = c.fill_text(name, pad + x + swatch, y);
        }
        y += 1.6 * em;
    }
    text_block(2, &mut y);
    text_block(3, &mut y);
    out.to_data_url().ok()
}
