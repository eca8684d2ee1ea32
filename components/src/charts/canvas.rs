//! A canvas that a chart draws on: sized to its container × devicePixelRatio
//! (crisp on HiDPI; no ctx.scale, which clips plotters-canvas), redrawn when a
//! signal the drawing reads changes or the container is resized.

use super::painter::Painter;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// How tall a chart is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ChartSize {
    /// A fixed height in CSS pixels (the full page).
    Fixed(f64),
    /// The height its container is given by the layout (a figure, a slide):
    /// the canvas sits absolutely inside it, so it never sizes the layout itself.
    Fill,
}

/// A chart's text size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FontSize {
    /// CSS pixels (the full page, a figure).
    Px(f64),
    /// CSS pixels at 1280×720, growing with the screen as a slide's text does
    /// (the stylesheet's `--u`: 1.5× at 1920×1080).
    Screen(f64),
}

impl FontSize {
    /// The size in CSS pixels now.
    fn px(self) -> f64 {
        match self {
            FontSize::Px(px) => px,
            FontSize::Screen(px) => px * screen_scale(),
        }
    }
}

/// A slide's scale: max(1, min(height/720, width/1280)), as `--u` in styles/app.css.
fn screen_scale() -> f64 {
    let Some(w) = web_sys::window() else { return 1.0 };
    let size = |v: Result<wasm_bindgen::JsValue, _>| v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    let (width, height) = (size(w.inner_width()), size(w.inner_height()));
    (height / 720.0).min(width / 1280.0).max(1.0)
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
    /// One em of the chart's text, in device pixels: every margin is a multiple of it.
    pub em: f64,
}

impl Surface {
    /// Made again whenever the canvas is resized, so a slide's text follows the screen.
    fn new(canvas: web_sys::HtmlCanvasElement, dpr: f64, font: FontSize) -> Option<Surface> {
        let (width, height) = (canvas.width() as f64, canvas.height() as f64);
        let font_px = font.px();
        let text = Painter::new(&canvas, dpr, font_px)?;
        let root = CanvasBackend::with_canvas_object(canvas)?.into_drawing_area();
        Some(Surface { root, text, width, height, dpr, em: font_px * dpr })
    }
}

/// Sizes the canvas to `css_w`×`css_h` × devicePixelRatio, only when that
/// changed (resizing clears and reallocates the backing store). Returns (ratio, resized).
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

/// A canvas that redraws with `draw(surface)` whenever a signal `draw` reads
/// changes or its container is resized; its text is `font`.
pub fn drawn_canvas(
    size: ChartSize,
    font: FontSize,
    draw: impl Fn(&Surface) + 'static,
) -> NodeRef<leptos::html::Canvas> {
    drawn_canvas_dyn(size, font, Box::new(draw))
}

/// The body of [`drawn_canvas`], compiled once for every kind of chart (a
/// generic body was one copy of the effect per chart type in the wasm).
fn drawn_canvas_dyn(size: ChartSize, font: FontSize, draw: Box<dyn Fn(&Surface)>) -> NodeRef<leptos::html::Canvas> {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let container = container_size(canvas);
    let surface = StoredValue::new_local(None::<Surface>);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let el: web_sys::HtmlCanvasElement = el.unchecked_into();
        let (css_w, box_h) = container.get();
        let css_h = match size {
            ChartSize::Fixed(h) => h,
            ChartSize::Fill => box_h,
        };
        if css_w <= 0.0 || css_h <= 0.0 {
            return;
        }
        let (dpr, resized) = fit_canvas(&el, css_w, css_h);
        if resized || surface.with_value(|s| s.is_none()) {
            surface.set_value(Surface::new(el, dpr, font));
        }
        surface.with_value(|s| {
            if let Some(s) = s {
                draw(s);
            }
        });
    });
    canvas
}

/// The CSS size (width, height) of the canvas's container, kept by a
/// ResizeObserver: it reports after layout, so no slider step ever forces a
/// reflow to read it.
fn container_size(canvas: NodeRef<leptos::html::Canvas>) -> RwSignal<(f64, f64)> {
    let size = RwSignal::new((0.0, 0.0));
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
                let rect = entry.content_rect();
                let next = (rect.width().max(200.0).floor(), rect.height().floor());
                if next != size.get_untracked() {
                    size.set(next);
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
    size
}

/// The chart's wrapper and canvas: `class="chart"` (`chart fill` when it fills its box).
pub fn canvas_view(
    canvas: NodeRef<leptos::html::Canvas>,
    size: ChartSize,
    testid: &'static str,
    label: Signal<String>,
) -> impl IntoView {
    // A fixed chart holds its height before the first draw, so the layout never moves when it comes.
    let (class, style) = match size {
        ChartSize::Fill => ("chart fill", None),
        ChartSize::Fixed(h) => ("chart", Some(format!("height:{h}px"))),
    };
    view! {
        <div class=class style=style>
            <canvas node_ref=canvas data-testid=testid role="img" aria-label=label></canvas>
        </div>
    }
}
