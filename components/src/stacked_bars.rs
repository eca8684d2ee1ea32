//! Stacked bars against a capacity line, drawn with plotters on a canvas sized
//! to its container × devicePixelRatio (crisp on HiDPI; no ctx.scale, which
//! clips plotters-canvas). Geometry comes from [`crate::geometry`].

use crate::geometry::{axis_max, bar_x, stacked_rects, ticks, y_of, Area, Bar};
use leptos::prelude::*;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_canvas::CanvasBackend;
use tmath::units::{format_sig, ByteUnit, Bytes};
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

struct Theme {
    bg: RGBColor,
    fg: RGBColor,
    grid: RGBColor,
    line: RGBColor,
}

/// Whether the system asks for the dark theme (the canvas follows the CSS).
pub fn prefers_dark() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches())
}

fn theme() -> Theme {
    if prefers_dark() {
        Theme {
            bg: RGBColor(18, 20, 23),
            fg: RGBColor(230, 230, 230),
            grid: RGBColor(70, 70, 70),
            line: RGBColor(255, 99, 99),
        }
    } else {
        Theme {
            bg: RGBColor(255, 255, 255),
            fg: RGBColor(30, 30, 30),
            grid: RGBColor(225, 225, 225),
            line: RGBColor(200, 0, 0),
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

fn draw(canvas: web_sys::HtmlCanvasElement, scene: &Scene, dpr: f64) -> Option<()> {
    let (w, h) = (canvas.width() as f64, canvas.height() as f64);
    let backend = CanvasBackend::with_canvas_object(canvas)?;
    let root = backend.into_drawing_area();
    let th = theme();
    root.fill(&TRANSPARENT).ok()?;
    let font = |size: f64| ("system-ui, sans-serif", size * dpr).into_font();
    let area = Area { left: 58.0 * dpr, top: 22.0 * dpr, right: w - 8.0 * dpr, bottom: h - 40.0 * dpr };
    let max = axis_max(scene.bars, scene.capacity);
    let unit = scene.units;
    for t in ticks(max, 5) {
        let y = y_of(t, max, area);
        root.draw(&PathElement::new(vec![(px(area.left), px(y)), (px(area.right), px(y))], th.grid.stroke_width(1)))
            .ok()?;
        let label = format!("{} {}", format_sig(t / unit.bytes()), unit.symbol());
        let style = font(11.0).color(&th.fg).pos(Pos::new(HPos::Right, VPos::Center));
        root.draw(&Text::new(label, (px(area.left - 6.0 * dpr), px(y)), style)).ok()?;
    }
    for r in stacked_rects(scene.bars, max, area) {
        let color = PALETTE[r.part.min(PALETTE.len() - 1)];
        root.draw(&Rectangle::new([(px(r.x0), px(r.y0)), (px(r.x1), px(r.y1))], color.filled())).ok()?;
        // A thin gap between segments keeps them apart without relying on colour.
        root.draw(&PathElement::new(vec![(px(r.x0), px(r.y0)), (px(r.x1), px(r.y0))], th.bg.stroke_width(1))).ok()?;
    }
    for (i, bar) in scene.bars.iter().enumerate() {
        let (x0, x1) = bar_x(i, scene.bars.len(), area, 0.62);
        let cx = px((x0 + x1) / 2.0);
        let top = y_of(bar.total(), max, area);
        let total = unit.format(Bytes(bar.total()));
        let style = font(if bar.current { 12.5 } else { 11.0 }).color(&th.fg).pos(Pos::new(HPos::Center, VPos::Bottom));
        root.draw(&Text::new(total, (cx, px(top - 3.0 * dpr)), style)).ok()?;
        let style = font(11.5).color(&th.fg).pos(Pos::new(HPos::Center, VPos::Top));
        root.draw(&Text::new(bar.label.clone(), (cx, px(area.bottom + 6.0 * dpr)), style)).ok()?;
    }
    let y = y_of(scene.capacity, max, area);
    root.draw(&DashedPathElement::new(
        vec![(px(area.left), px(y)), (px(area.right), px(y))],
        px(6.0 * dpr),
        px(4.0 * dpr),
        th.line.stroke_width(px(2.0 * dpr).max(1) as u32),
    ))
    .ok()?;
    // The label sits on a patch of background so bars behind it cannot garble it.
    let style = font(11.5).color(&th.line).pos(Pos::new(HPos::Right, VPos::Bottom));
    let (tw, tht) = root.estimate_text_size(scene.capacity_label, &style).unwrap_or((0, 0));
    let (x1, y1) = (px(area.right), px(y - 3.0 * dpr));
    let pad = px(3.0 * dpr);
    root.draw(&Rectangle::new([(x1 - tw as i32 - pad, y1 - tht as i32 - pad), (x1 + pad, y1 + 1)], th.bg.filled()))
        .ok()?;
    root.draw(&Text::new(scene.capacity_label.to_string(), (x1, y1), style)).ok()?;
    root.present().ok()
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
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let resized = RwSignal::new(0u32);
    let handle = window_event_listener(leptos::ev::resize, move |_| resized.update(|n| *n = n.wrapping_add(1)));
    on_cleanup(move || handle.remove());
    Effect::new(move |_| {
        resized.track();
        let bars = bars.get();
        let (capacity, capacity_label, units) = (capacity.get(), capacity_label.get(), units.get());
        let Some(el) = canvas.get() else { return };
        let el: web_sys::HtmlCanvasElement = el.unchecked_into();
        let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
        let css_w = el.parent_element().map_or(480.0, |p| p.client_width() as f64).max(200.0);
        el.set_width((css_w * dpr) as u32);
        el.set_height((height * dpr) as u32);
        let _ = el.set_attribute("style", &format!("width:{css_w}px;height:{height}px"));
        draw(el, &Scene { bars: &bars, capacity, capacity_label: &capacity_label, units }, dpr);
    });
    view! {
        <div class="chart">
            <canvas node_ref=canvas data-testid=testid role="img" aria-label=move || label.get()></canvas>
        </div>
    }
}
