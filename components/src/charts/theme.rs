//! Colours and pixel helpers shared by every chart: the segment palette, the
//! light and dark themes (following the system, as the CSS does), and rounding
//! to device pixels.

use plotters::style::RGBColor;

/// Segment colours by part: weights, gradients, optimizer, activations, the
/// loss's logits, the framework's buffers, live params, reserve and
/// fragmentation, inference overhead, the KV cache. Distinguishable for the
/// common colour-vision deficiencies (Okabe–Ito, and Tol's wine for the logits
/// beside the activations' pink, Tol's olive for the buffers); charts also
/// hatch them, so colour is never the only signal.
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(136, 34, 85),
    RGBColor(153, 153, 51),
    RGBColor(86, 180, 233),
    RGBColor(153, 153, 153),
    RGBColor(240, 228, 66),
    RGBColor(213, 94, 0),
];

/// The palette index of the serving bar's overhead (after the parts of [`tmath::memory::Part`]).
pub const OVERHEAD: usize = tmath::memory::Part::COUNT;
/// The palette index of the serving bar's KV cache, once a context or a batch is given.
pub const KV_CACHE: usize = OVERHEAD + 1;

/// The palette colour of a part (the last colour for anything beyond).
pub fn color(part: usize) -> RGBColor {
    PALETTE[part.min(PALETTE.len() - 1)]
}

/// CSS colour of a part, for legends drawn in HTML.
pub fn css_color(part: usize) -> String {
    let RGBColor(r, g, b) = color(part);
    format!("rgb({r},{g},{b})")
}

/// Colours of one theme: plotters colours for shapes, CSS strings for text.
pub struct Theme {
    pub bg: RGBColor,
    pub fg: RGBColor,
    pub grid: RGBColor,
    pub fg_css: &'static str,
    pub bg_css: &'static str,
    pub line_css: &'static str,
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

pub fn theme() -> Theme {
    if prefers_dark() {
        Theme {
            bg: RGBColor(18, 20, 23),
            fg: RGBColor(230, 230, 230),
            grid: RGBColor(70, 70, 70),
            fg_css: "rgb(230,230,230)",
            bg_css: "rgb(18,20,23)",
            line_css: "rgb(255,99,99)",
        }
    } else {
        Theme {
            bg: RGBColor(255, 255, 255),
            fg: RGBColor(30, 30, 30),
            grid: RGBColor(225, 225, 225),
            fg_css: "rgb(30,30,30)",
            bg_css: "rgb(255,255,255)",
            line_css: "rgb(200,0,0)",
        }
    }
}

/// A device-pixel coordinate, rounded.
pub fn px(x: f64) -> i32 {
    x.round() as i32
}
