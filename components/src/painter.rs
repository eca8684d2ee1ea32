//! Text on a chart canvas through the 2D context itself. plotters' web font
//! backend measures every anchored label by inserting a span into the page and
//! reading offsetHeight, which forces a layout of the whole page per label
//! (measured: most of a slider step's time). The 2D context measures without layout.

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// Horizontal anchor of a label.
#[derive(Clone, Copy)]
pub enum Align {
    Center,
    Right,
}

/// Vertical anchor of a label.
#[derive(Clone, Copy)]
pub enum Baseline {
    Top,
    Middle,
    Bottom,
}

/// Draws text in device pixels; sizes are CSS pixels scaled by the ratio.
pub struct Painter {
    ctx: CanvasRenderingContext2d,
    dpr: f64,
}

impl Painter {
    pub fn new(canvas: &HtmlCanvasElement, dpr: f64) -> Option<Painter> {
        let ctx = canvas.get_context("2d").ok().flatten()?.dyn_into::<CanvasRenderingContext2d>().ok()?;
        Some(Painter { ctx, dpr })
    }

    fn font(&self, size: f64, bold: bool) {
        let weight = if bold { "600 " } else { "" };
        self.ctx.set_font(&format!("{weight}{}px system-ui, sans-serif", (size * self.dpr).round()));
    }

    /// Width of `text` in device pixels.
    pub fn width(&self, text: &str, size: f64, bold: bool) -> f64 {
        self.font(size, bold);
        self.ctx.measure_text(text).map_or(0.0, |m| m.width())
    }

    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &self,
        text: &str,
        x: f64,
        y: f64,
        align: Align,
        baseline: Baseline,
        size: f64,
        bold: bool,
        color: &str,
    ) {
        self.font(size, bold);
        self.ctx.set_text_align(match align {
            Align::Center => "center",
            Align::Right => "right",
        });
        self.ctx.set_text_baseline(match baseline {
            Baseline::Top => "top",
            Baseline::Middle => "middle",
            Baseline::Bottom => "bottom",
        });
        self.ctx.set_fill_style_str(color);
        let _ = self.ctx.fill_text(text, x, y);
    }

    /// A filled rectangle (a label's background patch).
    pub fn rect(&self, x0: f64, y0: f64, x1: f64, y1: f64, color: &str) {
        self.ctx.set_fill_style_str(color);
        self.ctx.fill_rect(x0, y0, x1 - x0, y1 - y0);
    }
}
