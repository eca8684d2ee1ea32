//! Text on a chart canvas through the 2D context itself. plotters' web font
//! backend measures every anchored label by inserting a span into the page and
//! reading offsetHeight, which forces a layout of the whole page per label
//! (measured: most of a slider step's time). The 2D context measures without layout.

use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::JsCast;
use web_sys::{CanvasPattern, CanvasRenderingContext2d, HtmlCanvasElement};

thread_local! {
    /// Hatch tiles by (pattern, tile size): built once, reused by every draw.
    static PATTERNS: RefCell<HashMap<(usize, u32), CanvasPattern>> = RefCell::new(HashMap::new());
}

/// Parts drawn with a hatch: 1 "/", 2 horizontal, 3 "\", 4 vertical.
fn hatched(pattern: usize) -> bool {
    (1..=4).contains(&pattern)
}

/// A tile of `size` device pixels with the hatch of `pattern` (see [`hatched`]),
/// drawn so tiles join seamlessly.
fn make_pattern(ctx: &CanvasRenderingContext2d, pattern: usize, size: u32) -> Option<CanvasPattern> {
    let doc = web_sys::window()?.document()?;
    let tile = doc.create_element("canvas").ok()?.dyn_into::<HtmlCanvasElement>().ok()?;
    tile.set_width(size);
    tile.set_height(size);
    let t = tile.get_context("2d").ok().flatten()?.dyn_into::<CanvasRenderingContext2d>().ok()?;
    let s = size as f64;
    t.set_stroke_style_str("rgba(255,255,255,0.45)");
    t.set_line_width((s / 7.0).max(1.0));
    t.begin_path();
    match pattern {
        1 => {
            for k in [-1.0, 0.0, 1.0] {
                t.move_to(k * s, s);
                t.line_to(k * s + s, 0.0);
            }
        }
        2 => {
            t.move_to(0.0, s / 2.0);
            t.line_to(s, s / 2.0);
        }
        3 => {
            for k in [-1.0, 0.0, 1.0] {
                t.move_to(k * s, 0.0);
                t.line_to(k * s + s, s);
            }
        }
        4 => {
            t.move_to(s / 2.0, 0.0);
            t.line_to(s / 2.0, s);
        }
        _ => return None,
    }
    t.stroke();
    ctx.create_pattern_with_html_canvas_element(&tile, "repeat").ok().flatten()
}

/// Horizontal anchor of a label.
#[derive(Clone, Copy)]
pub enum Align {
    Left,
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

/// Draws text in device pixels, in one font per canvas: setting a canvas's
/// font makes the browser resolve it against the page's style, which after a
/// DOM change forces a style recalculation in the middle of a slider step
/// (measured: 0.4–0.6 ms a step). The font and the direction are set once,
/// when the context is made; emphasis is a stroke over the fill, not a bold face.
pub struct Painter {
    ctx: CanvasRenderingContext2d,
    dpr: f64,
    widths: Widths,
}

/// Text widths a painter has measured, by text: one font per painter, and a
/// step redraws mostly the same labels (part names, ticks, the capacity), so
/// most measurements are answered here instead of by `measureText`, which was
/// the largest self time of a desktop slider step (0.9 ms of about 4 ms of
/// script, profiled; 0.2 ms with this). A chart has a few dozen labels: a
/// list searched in order does, and a `HashMap` cost 1.0 KiB more of the
/// gzipped page (measured). Bounded: past `Widths::MAX` texts it starts over.
#[derive(Default)]
struct Widths(RefCell<Vec<(String, f64)>>);

impl Widths {
    const MAX: usize = 128;

    fn get(&self, text: &str, measure: impl FnOnce() -> f64) -> f64 {
        if let Some((_, w)) = self.0.borrow().iter().find(|(t, _)| t == text) {
            return *w;
        }
        let w = measure();
        let mut list = self.0.borrow_mut();
        if list.len() >= Self::MAX {
            list.clear();
        }
        list.push((text.to_string(), w));
        w
    }
}

impl Painter {
    /// `font_px`: the text size in CSS pixels.
    pub fn new(canvas: &HtmlCanvasElement, dpr: f64, font_px: f64) -> Option<Painter> {
        let ctx = canvas.get_context("2d").ok().flatten()?.dyn_into::<CanvasRenderingContext2d>().ok()?;
        ctx.set_font(&format!("{}px system-ui, sans-serif", (font_px * dpr).round()));
        // "inherit" (the default) makes every fillText read the canvas element's
        // computed direction: another forced style recalculation per step.
        // (web-sys has no binding for `direction`.)
        let _ = js_sys::Reflect::set(&ctx, &"direction".into(), &"ltr".into());
        Some(Painter { ctx, dpr, widths: Widths::default() })
    }

    /// Width of `text` in device pixels.
    pub fn width(&self, text: &str) -> f64 {
        self.widths.get(text, || self.ctx.measure_text(text).map_or(0.0, |m| m.width()))
    }

    /// `text`, cut with an ellipsis to fit `max` device pixels (whole characters).
    pub fn fit(&self, text: &str, max: f64) -> String {
        if self.width(text) <= max {
            return text.to_string();
        }
        let mut chars: Vec<char> = text.chars().collect();
        while !chars.is_empty() {
            chars.pop();
            let cut: String = chars.iter().collect::<String>() + "…";
            if self.width(&cut) <= max {
                return cut;
            }
        }
        String::new()
    }

    #[allow(clippy::too_many_arguments)]
    pub fn text(&self, text: &str, x: f64, y: f64, align: Align, baseline: Baseline, bold: bool, color: &str) {
        self.ctx.set_text_align(match align {
            Align::Left => "left",
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
        if bold {
            self.ctx.set_stroke_style_str(color);
            self.ctx.set_line_width(0.6 * self.dpr);
            let _ = self.ctx.stroke_text(text, x, y);
        }
    }

    /// `text` on a patch of `patch` colour a little larger than it, so no line
    /// drawn before strikes it through (`em`: the font size in device pixels).
    #[allow(clippy::too_many_arguments)]
    pub fn patched_text(
        &self,
        text: &str,
        (x, y): (f64, f64),
        align: Align,
        baseline: Baseline,
        bold: bool,
        (color, patch): (&str, &str),
        em: f64,
    ) {
        let (w, pad) = (self.width(text), 0.2 * em);
        let x0 = match align {
            Align::Left => x,
            Align::Center => x - w / 2.0,
            Align::Right => x - w,
        };
        let y0 = match baseline {
            Baseline::Top => y,
            Baseline::Middle => y - 0.6 * em,
            Baseline::Bottom => y - 1.2 * em,
        };
        self.rect(x0 - pad, y0 - 0.1 * em, x0 + w + pad, y0 + 1.25 * em, patch);
        self.text(text, x, y, align, baseline, bold, color);
    }

    /// Hatches a rectangle so a part reads without its colour (pattern 0: none).
    pub fn hatch(&self, x0: f64, y0: f64, x1: f64, y1: f64, pattern: usize) {
        if !hatched(pattern) {
            return;
        }
        let size = (7.0 * self.dpr).round() as u32;
        let tile = PATTERNS.with(|p| {
            let mut p = p.borrow_mut();
            if let Some(t) = p.get(&(pattern, size)) {
                return Some(t.clone());
            }
            let t = make_pattern(&self.ctx, pattern, size)?;
            p.insert((pattern, size), t.clone());
            Some(t)
        });
        if let Some(tile) = tile {
            self.ctx.set_fill_style_canvas_pattern(&tile);
            self.ctx.fill_rect(x0, y0, x1 - x0, y1 - y0);
        }
    }

    /// The capacity line's dash, horizontal from `x0` to `x1` at `y`, in one
    /// stroke: 6 px dashes, 4 px gaps, 2 px wide (device pixels at a ratio of
    /// 1). Both charts and the bar chart's legend key draw it. (plotters' dashed
    /// path draws every dash as a path of its own, each setting the stroke style
    /// again: across the bar chart, 87 strokes a slider step.)
    pub fn capacity_line(&self, x0: f64, x1: f64, y: f64, color: &str) {
        let d = self.dpr;
        let pattern = js_sys::Array::of2(&(6.0 * d).into(), &(4.0 * d).into());
        let _ = self.ctx.set_line_dash(&pattern);
        self.ctx.set_stroke_style_str(color);
        self.ctx.set_line_width((2.0 * d).round().max(1.0));
        self.ctx.begin_path();
        self.ctx.move_to(x0, y);
        self.ctx.line_to(x1, y);
        self.ctx.stroke();
        let _ = self.ctx.set_line_dash(&js_sys::Array::new());
    }

    /// A filled dot of radius `r` device pixels.
    pub fn dot(&self, x: f64, y: f64, r: f64, color: &str) {
        self.ctx.set_fill_style_str(color);
        self.ctx.begin_path();
        let _ = self.ctx.arc(x, y, r, 0.0, std::f64::consts::TAU);
        self.ctx.fill();
    }

    /// A ring of radius `r` device pixels (a hollow marker).
    pub fn ring(&self, x: f64, y: f64, r: f64, color: &str) {
        self.ctx.set_stroke_style_str(color);
        self.ctx.set_line_width((0.3 * r).max(self.dpr));
        self.ctx.begin_path();
        let _ = self.ctx.arc(x, y, r, 0.0, std::f64::consts::TAU);
        self.ctx.stroke();
    }

    /// A filled polygon (a band).
    pub fn polygon(&self, points: &[(f64, f64)], color: &str) {
        let Some(&(x, y)) = points.first() else { return };
        self.ctx.set_fill_style_str(color);
        self.ctx.begin_path();
        self.ctx.move_to(x, y);
        for &(x, y) in &points[1..] {
            self.ctx.line_to(x, y);
        }
        self.ctx.close_path();
        self.ctx.fill();
    }

    /// A straight line `width` CSS pixels wide.
    pub fn line(&self, (x0, y0): (f64, f64), (x1, y1): (f64, f64), width: f64, color: &str) {
        self.ctx.set_stroke_style_str(color);
        self.ctx.set_line_width(width * self.dpr);
        self.ctx.begin_path();
        self.ctx.move_to(x0, y0);
        self.ctx.line_to(x1, y1);
        self.ctx.stroke();
    }

    /// A filled rectangle (a label's background patch).
    pub fn rect(&self, x0: f64, y0: f64, x1: f64, y1: f64, color: &str) {
        self.ctx.set_fill_style_str(color);
        self.ctx.fill_rect(x0, y0, x1 - x0, y1 - y0);
    }
}

#[cfg(test)]
mod tests {
    use super::Widths;
    use std::cell::Cell;

    #[test]
    fn a_text_is_measured_once_and_the_memory_is_bounded() {
        let widths = Widths::default();
        let calls = Cell::new(0);
        let measure = |w: f64| {
            calls.set(calls.get() + 1);
            w
        };
        assert_eq!(widths.get("weights", || measure(42.0)), 42.0);
        assert_eq!(widths.get("weights", || measure(99.0)), 42.0);
        assert_eq!(calls.get(), 1);
        for i in 0..Widths::MAX + 10 {
            widths.get(&i.to_string(), || measure(i as f64));
        }
        assert!(widths.0.borrow().len() <= Widths::MAX);
        // Starting over forgets, then measures again.
        widths.get("weights", || measure(7.0));
        assert_eq!(widths.get("weights", || measure(8.0)), 7.0);
    }
}
