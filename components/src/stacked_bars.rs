//! Stacked bars against a capacity line, drawn with plotters on a canvas sized
//! to its container × devicePixelRatio (crisp on HiDPI; no ctx.scale, which
//! clips plotters-canvas). Geometry comes from [`crate::geometry`].

use crate::bind::text;
use crate::geometry::{axis_max, bar_x, line_label_spot, stacked_rects, ticks, y_of, Area, Bar};
use crate::painter::{Align, Baseline, Painter};
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use tmath::units::{format_sig, ByteUnit, Bytes};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// Segment colours by part: weights, gradients, optimizer, activations, live params, inference overhead.
/// Chosen to stay distinguishable for the common colour-vision deficiencies (Okabe–Ito).
pub const PALETTE: [RGBColor; 6] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(153, 153, 153),
];

/// CSS colour of a part, for legends drawn in HTML.
pub fn css_color(part: usize) -> String {
    let RGBColor(r, g, b) = PALETTE[part.min(PALETTE.len() - 1)];
    format!("rgb({r},{g},{b})")
}

/// Colours of one theme: plotters colours for shapes, CSS strings for text.
struct Theme {
    bg: RGBColor,
    grid: RGBColor,
    fg_css: &'static str,
    line_css: &'static str,
}

/// Whether the system asks for the dark theme (the canvas follows the CSS).
pub fn prefers_dark() -> bool {
    thread_local! {
        // One query for the page's life: it stays live, and asking anew on every draw costs a parse.
        static QUERY: Option<web_sys::MediaQueryList> =
            web_sys::window().and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten());
    }
    QUERY.with(|q| q.as_ref().is_some_and(|m| m.matches()))
}

fn theme() -> Theme {
    if prefers_dark() {
        Theme {
            bg: RGBColor(18, 20, 23),
            grid: RGBColor(70, 70, 70),
            fg_css: "rgb(230,230,230)",
            line_css: "rgb(255,99,99)",
        }
    } else {
        Theme {
            bg: RGBColor(255, 255, 255),
            grid: RGBColor(225, 225, 225),
            fg_css: "rgb(30,30,30)",
            line_css: "rgb(200,0,0)",
        }
    }
}

/// What one drawing needs.
struct Scene<'a> {
    bars: &'a [Bar],
    capacity: f64,
    capacity_label: &'a str,
    units: ByteUnit,
}

fn px(x: f64) -> i32 {
    x.round() as i32
}

/// Sizes the canvas to its container × devicePixelRatio, only when that changed
/// (resizing clears and reallocates the backing store). Returns (ratio, resized).
fn fit_canvas(el: &web_sys::HtmlCanvasElement, css_w: f64, css_h: f64) -> (f64, bool) {
    let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
    let (w, h) = ((css_w * dpr) as u32, (css_h * dpr) as u32);
    let resized = el.width() != w || el.height() != h;
    if resized {
        el.set_width(w);
        el.set_height(h);
        let _ = el.set_attribute("style", &format!("width:{css_w}px;height:{css_h}px"));
    }
    (dpr, resized)
}

/// What a chart draws on, kept between draws: creating the plotters backend
/// and the text painter each asks the canvas for its 2D context again.
pub struct Surface {
    pub root: DrawingArea<CanvasBackend, Shift>,
    pub text: Painter,
    /// Device pixels.
    pub width: f64,
    pub height: f64,
    pub dpr: f64,
}

impl Surface {
    fn new(canvas: web_sys::HtmlCanvasElement, dpr: f64, font_px: f64) -> Option<Surface> {
        let (width, height) = (canvas.width() as f64, canvas.height() as f64);
        let text = Painter::new(&canvas, dpr, font_px)?;
        let root = CanvasBackend::with_canvas_object(canvas)?.into_drawing_area();
        Some(Surface { root, text, width, height, dpr })
    }
}

fn draw(surface: &Surface, scene: &Scene) -> Option<()> {
    let Surface { root, text, width: w, height: h, dpr } = surface;
    let (w, h, dpr) = (*w, *h, *dpr);
    let th = theme();
    root.fill(&th.bg).ok()?;
    let area = Area { left: 58.0 * dpr, top: 22.0 * dpr, right: w - 8.0 * dpr, bottom: h - 40.0 * dpr };
    let max = axis_max(scene.bars, scene.capacity);
    let unit = scene.units;
    for t in ticks(max, 5) {
        let y = y_of(t, max, area);
        root.draw(&PathElement::new(vec![(px(area.left), px(y)), (px(area.right), px(y))], th.grid.stroke_width(1)))
            .ok()?;
        let label = format!("{} {}", format_sig(t / unit.bytes()), unit.symbol());
        text.text(&label, area.left - 6.0 * dpr, y, Align::Right, Baseline::Middle, false, th.fg_css);
    }
    let rects = stacked_rects(scene.bars, max, area);
    for r in &rects {
        let color = PALETTE[r.part.min(PALETTE.len() - 1)];
        root.draw(&Rectangle::new([(px(r.x0), px(r.y0)), (px(r.x1), px(r.y1))], color.filled())).ok()?;
        // Hatching and the value inside: colour is never the only signal.
        text.hatch(r.x0, r.y0, r.x1, r.y1, r.part);
        // A thin gap between segments keeps them apart.
        root.draw(&PathElement::new(vec![(px(r.x0), px(r.y0)), (px(r.x1), px(r.y0))], th.bg.stroke_width(1))).ok()?;
    }
    root.present().ok()?;
    let y = px(y_of(scene.capacity, max, area)) as f64;
    text.capacity_line(area.left.round(), area.right.round(), y, th.line_css);
    // Text last, on top of the shapes.
    for r in &rects {
        let value = scene.bars[r.bar].segments[r.part];
        let label = unit.format(Bytes(value));
        if r.y1 - r.y0 > 16.0 * dpr && r.x1 - r.x0 > 56.0 * dpr {
            let (cx, cy) = ((r.x0 + r.x1) / 2.0, (r.y0 + r.y1) / 2.0);
            let half = text.width(&label) / 2.0 + 3.0 * dpr;
            text.rect(cx - half, cy - 8.0 * dpr, cx + half, cy + 8.0 * dpr, &css_color(r.part));
            text.text(&label, cx, cy, Align::Center, Baseline::Middle, false, "#fff");
        }
    }
    for (i, bar) in scene.bars.iter().enumerate() {
        let (x0, x1) = bar_x(i, scene.bars.len(), area, 0.62);
        let cx = (x0 + x1) / 2.0;
        let top = y_of(bar.total(), max, area);
        let total = unit.format(Bytes(bar.total()));
        text.text(&total, cx, top - 3.0 * dpr, Align::Center, Baseline::Bottom, bar.current, th.fg_css);
        text.text(&bar.label, cx, area.bottom + 6.0 * dpr, Align::Center, Baseline::Top, false, th.fg_css);
    }
    // The capacity label goes beside the line where no bar is; where bars cross
    // the line at both ends, above the plot with a dash of the line as its key.
    let (label_w, label_h, gap) = (text.width(scene.capacity_label), 14.0 * dpr, 3.0 * dpr);
    let (x0, top) = line_label_spot(scene.bars, max, area, y, label_w, label_h, gap).unwrap_or_else(|| {
        let key = 22.0 * dpr;
        let (x0, mid) = (area.right - label_w, area.top - gap - label_h / 2.0);
        text.capacity_line(x0 - key - gap, x0 - gap, mid, th.line_css);
        (x0, area.top - gap - label_h)
    });
    text.text(scene.capacity_label, x0, top + label_h, Align::Left, Baseline::Bottom, false, th.line_css);
    Some(())
}

#[component]
pub fn StackedBars(
    /// The bars, bottom segment first (bytes).
    bars: Signal<Vec<Bar>>,
    /// The GPU's memory in bytes: the dashed line.
    capacity: Signal<f64>,
    /// The line's label, e.g. "A100 80 GB = 80 GiB".
    capacity_label: Signal<String>,
    /// Units of the axis and labels.
    units: Signal<ByteUnit>,
    /// A text summary for screen readers (the numbers are also in a table).
    label: Signal<String>,
    /// `data-testid` of the canvas.
    testid: &'static str,
    /// CSS height in pixels.
    #[prop(default = 300.0)]
    height: f64,
) -> impl IntoView {
    let canvas = drawn_canvas(height, 11.5, move |surface| {
        let bars = bars.get();
        let (capacity, capacity_label, units) = (capacity.get(), capacity_label.get(), units.get());
        draw(surface, &Scene { bars: &bars, capacity, capacity_label: &capacity_label, units });
    });
    view! {
        <div class="chart">
            <canvas node_ref=canvas data-testid=testid role="img" aria-label=text(move || label.get())></canvas>
        </div>
    }
}

/// A canvas that redraws with `draw(surface)` whenever a
/// signal `draw` reads changes or its container is resized; sized to the
/// container's width × `height` CSS pixels, times the ratio; its text is
/// `font_px` CSS pixels.
pub fn drawn_canvas(height: f64, font_px: f64, draw: impl Fn(&Surface) + 'static) -> NodeRef<leptos::html::Canvas> {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let width = container_width(canvas);
    let surface = StoredValue::new_local(None::<Surface>);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let el: web_sys::HtmlCanvasElement = el.unchecked_into();
        let css_w = width.get();
        if css_w <= 0.0 {
            return;
        }
        let (dpr, resized) = fit_canvas(&el, css_w, height);
        if resized || surface.with_value(|s| s.is_none()) {
            surface.set_value(Surface::new(el, dpr, font_px));
        }
        surface.with_value(|s| {
            if let Some(s) = s {
                draw(s);
            }
        });
    });
    canvas
}

/// The CSS width of the canvas's container, kept by a ResizeObserver: it
/// reports after layout, so no slider step ever forces a reflow to read it.
fn container_width(canvas: NodeRef<leptos::html::Canvas>) -> RwSignal<f64> {
    let width = RwSignal::new(0.0);
    let observer = StoredValue::new_local(None::<(web_sys::ResizeObserver, Closure<dyn FnMut(js_sys::Array)>)>);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let el: web_sys::HtmlCanvasElement = el.unchecked_into();
        let Some(parent) = el.parent_element() else { return };
        if observer.with_value(|o| o.is_some()) {
            return;
        }
        let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            if let Ok(entry) = entries.get(0).dyn_into::<web_sys::ResizeObserverEntry>() {
                let w = entry.content_rect().width().max(200.0).floor();
                if w != width.get_untracked() {
                    width.set(w);
                }
            }
        });
        if let Ok(ro) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
            ro.observe(&parent);
            observer.set_value(Some((ro, callback)));
        }
    });
    on_cleanup(move || {
        if let Some((ro, _)) = observer.try_update_value(|o| o.take()).flatten() {
            ro.disconnect();
        }
    });
    width
}
