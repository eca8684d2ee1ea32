//! Colours and pixel helpers shared by every chart: the segment palette, the
//! light and dark themes (following the system, as the CSS does).

/// Segment colours by part: weights, gradients, optimizer, activations, the
/// loss's logits, the framework's buffers, live params, reserve and
/// post-training's frozen models and rollout engine, fragmentation, inference overhead, the KV cache. Distinguishable for the
/// common colour-vision deficiencies (Okabe–Ito, and Tol's wine for the logits
/// beside the activations' pink, Tol's olive for the buffers); charts also
/// hatch them, so colour is never the only signal.
pub const PALETTE: [(u8, u8, u8); 12] = [
    (0, 114, 178),
    (230, 159, 0),
    (0, 158, 115),
    (204, 121, 167),
    (136, 34, 85),
    (153, 153, 51),
    (86, 180, 233),
    // Post-training's frozen models (Tol's indigo) and rollout engine (Tol's teal).
    (51, 34, 136),
    (68, 170, 153),
    (153, 153, 153),
    (240, 228, 66),
    (213, 94, 0),
];

/// The palette index of the serving bar's overhead (after the parts of [`tmath::memory::Part`]).
pub const OVERHEAD: usize = tmath::memory::Part::COUNT;
/// The palette index of the serving bar's KV cache, once a context or a batch is given.
pub const KV_CACHE: usize = OVERHEAD + 1;

/// CSS colour of a part (the last colour for anything beyond).
pub fn css_color(part: usize) -> String {
    let (r, g, b) = PALETTE[part.min(PALETTE.len() - 1)];
    format!("rgb({r},{g},{b})")
}

/// The text colour for a label on each part's colour: white or near-black,
/// whichever contrasts more by WCAG 2's relative luminance (white on the
/// gradients' orange is 2.25 : 1, near-black 9.3 : 1); a test derives it.
const TEXT_ON: [&str; 12] =
    ["#fff", "#111", "#111", "#111", "#fff", "#111", "#111", "#fff", "#111", "#111", "#111", "#111"];

/// [`TEXT_ON`] of a part (the last colour's for anything beyond).
pub fn text_on(part: usize) -> &'static str {
    TEXT_ON[part.min(TEXT_ON.len() - 1)]
}

/// Colours of one theme, as CSS.
pub struct Theme {
    pub fg_css: &'static str,
    pub bg_css: &'static str,
    pub grid_css: &'static str,
    /// A limit: the capacity line, a crossover.
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
            fg_css: "rgb(230,230,230)",
            bg_css: "rgb(18,20,23)",
            grid_css: "rgb(70,70,70)",
            line_css: "rgb(255,99,99)",
        }
    } else {
        Theme {
            fg_css: "rgb(30,30,30)",
            bg_css: "rgb(255,255,255)",
            grid_css: "rgb(225,225,225)",
            line_css: "rgb(200,0,0)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The weights' blue keeps white text; the gradients', optimizer's and
    /// activations' lighter colours and the overhead's yellow take dark text.
    #[test]
    fn labels_contrast_with_their_segment() {
        let lin = |c: u8| {
            let c = c as f64 / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        for (part, &(r, g, b)) in PALETTE.iter().enumerate() {
            let l = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
            // Against white (luminance 1) and against #111 (0.0056).
            let white = 1.05 / (l + 0.05) >= (l + 0.05) / 0.0556;
            assert_eq!(text_on(part), if white { "#fff" } else { "#111" }, "part {part}");
        }
        assert_eq!(text_on(0), "#fff");
        for part in [1, 2, 3, 10] {
            assert_eq!(text_on(part), "#111", "part {part}");
        }
    }
}
