//! Exports: the core's export document (the link, every key, the result) as
//! JSON or CSV, written by the core's own writer (`tmath::json`), and the chart
//! as a PNG or an SVG that stands on its own.

use crate::charts::svg::{escape, text_width, wrap};
use crate::ctx::Ctx;
use crate::i18n;
use leptos::prelude::*;
use std::fmt::Write;
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

/// What the chart's export is written as.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The SVG document rasterised by the browser at twice its size.
    Png,
    Svg,
}

/// The memory chart as a PNG or an SVG that stands on its own in a slide or an
/// article: a title, the model and its layout, the chart, its legend, the
/// verdict and the source, framed around the chart's own SVG.
pub fn download_chart(ctx: Ctx, format: Format) {
    let doc = web_sys::window().and_then(|w| w.document());
    let chart = doc.as_ref().and_then(|d| d.query_selector("[data-testid=memory-chart]").ok().flatten());
    let Some(chart) = chart else { return };
    // A panel off the screen is not laid out (content-visibility: auto), so its chart has no
    // size yet (a phone's memory panel is below the controls): lay it out, and compose once the
    // chart has drawn at its size, a few frames later.
    let panel = chart.closest(".panel").ok().flatten().and_then(|p| p.dyn_into::<web_sys::HtmlElement>().ok());
    let hidden = panel
        .as_ref()
        .is_some_and(|p| p.style().get_property_value("content-visibility").unwrap_or_default() != "visible");
    if let (true, Some(p)) = (hidden, &panel) {
        let _ = p.style().set_property("content-visibility", "visible");
    }
    let finish = move || {
        let Some((svg, w, h)) = compose(&chart, ctx) else { return };
        match format {
            Format::Svg => download("transformer-math-memory.svg", "image/svg+xml", &svg),
            Format::Png => rasterise(&svg, w, h, "transformer-math-memory.png"),
        }
    };
    if hidden {
        gloo_timers::callback::Timeout::new(150, finish).forget();
    } else {
        finish();
    }
}

/// Draws the SVG document `svg` (`w`×`h` CSS pixels) at twice its size and offers it as a PNG.
fn rasterise(svg: &str, w: f64, h: f64, name: &'static str) {
    let Ok(img) = web_sys::HtmlImageElement::new() else { return };
    let loaded = img.clone();
    let onload = wasm_bindgen::closure::Closure::once_into_js(move || {
        let canvas = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.create_element("canvas").ok())
            .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok());
        let Some(canvas) = canvas else { return };
        canvas.set_width((2.0 * w).ceil() as u32);
        canvas.set_height((2.0 * h).ceil() as u32);
        let c = canvas.get_context("2d").ok().flatten().and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok());
        let Some(c) = c else { return };
        if c.draw_image_with_html_image_element_and_dw_and_dh(&loaded, 0.0, 0.0, 2.0 * w, 2.0 * h).is_ok() {
            if let Ok(png) = canvas.to_data_url() {
                click_link(name, &png);
            }
        }
    });
    img.set_onload(Some(onload.unchecked_ref()));
    img.set_src(&format!("data:image/svg+xml;charset=utf-8,{}", js_sys::encode_uri_component(svg)));
}

/// The document: (markup, width, height) in CSS pixels.
fn compose(chart: &web_sys::Element, ctx: Ctx) -> Option<(String, f64, f64)> {
    let lang = ctx.lang.get_untracked();
    // Its box rather than its width and height attributes: the same CSS pixels, and no text to
    // parse (a float parser alone is 11 KiB of wasm).
    let rect = chart.get_bounding_client_rect();
    let (w, h) = (rect.width().round(), rect.height().round());
    if !(w > 0.0 && h > 0.0) {
        return None;
    }
    let em = (w / 55.0).clamp(12.0, 24.0);
    let pad = em;
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
    let wrapped: Vec<Vec<String>> = texts.iter().map(|(t, size, _)| wrap(t, w, size * em)).collect();
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
        let width = swatch + text_width(&name, em);
        if x > 0.0 && x + width > w {
            legend.push(Vec::new());
            x = 0.0;
        }
        legend.last_mut()?.push((color, name, x));
        x += width + 1.2 * em;
    }
    let line_h = |size: f64| 1.35 * size * em;
    let dark = crate::charts::theme::prefers_dark();
    let (bg, fg) = if dark { ("rgb(18,20,23)", "rgb(230,230,230)") } else { ("#fff", "rgb(30,30,30)") };
    let ok = if dark { "rgb(90,208,138)" } else { "rgb(10,125,56)" };
    let bad = if dark { "rgb(255,138,128)" } else { "rgb(179,38,30)" };
    let colors = [fg, fg, if r.fits() { ok } else { bad }, fg];
    let mut body = String::new();
    let mut y = pad;
    let text_block = |i: usize, y: &mut f64, body: &mut String| {
        let (size, bold) = (texts[i].1 * em, texts[i].2);
        for l in &wrapped[i] {
            let _ = write!(
                body,
                r#"<text x="{pad:.1}" y="{:.1}" font-size="{size:.1}" fill="{}"{}>{}</text>"#,
                *y + 0.85 * size,
                colors[i],
                if bold { r#" font-weight="700""# } else { "" },
                escape(l)
            );
            *y += line_h(texts[i].1);
        }
        *y += 0.3 * em;
    };
    text_block(0, &mut y, &mut body);
    text_block(1, &mut y, &mut body);
    // The chart's own markup, as the page draws it (the HTML serialiser's one entity XML lacks, written as a number).
    let inner = chart.inner_html().replace("&nbsp;", "&#160;");
    let font = chart.get_attribute("font-size").unwrap_or_else(|| "12".into());
    let _ = write!(
        body,
        r#"<svg x="{pad:.1}" y="{y:.1}" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-size="{font}">{inner}</svg>"#
    );
    y += h + 0.4 * em;
    for row in &legend {
        for (color, name, x) in row {
            let _ = write!(
                body,
                r#"<rect x="{:.1}" y="{:.1}" width="{s:.1}" height="{s:.1}" fill="{color}"/><text x="{:.1}" y="{:.1}" font-size="{em:.1}" fill="{fg}">{}</text>"#,
                pad + x,
                y + 0.15 * em,
                pad + x + swatch,
                y + 0.85 * em,
                escape(name),
                s = 0.8 * em
            );
        }
        y += 1.6 * em;
    }
    text_block(2, &mut y, &mut body);
    text_block(3, &mut y, &mut body);
    let (total_w, total_h) = (w + 2.0 * pad, (y + pad).ceil());
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" height="{total_h}" viewBox="0 0 {total_w} {total_h}" font-family="system-ui, sans-serif"><rect width="100%" height="100%" fill="{bg}"/>{body}</svg>"#
    );
    Some((svg, total_w, total_h))
}
