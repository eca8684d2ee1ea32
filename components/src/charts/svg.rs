//! Charts as SVG drawn by the view (issue 40). A chart's drawing is a plain
//! function from its scene and its size to SVG markup ([`Svg`]): tested
//! natively, no canvas, no backing store to upload at every commit, sharp at any
//! zoom and on a projector, and the same markup is what the PNG and SVG exports
//! frame. [`chart_view`] sizes it to its container (a ResizeObserver, which
//! reports after layout, so a slider step never forces a reflow to read it) and
//! sets the markup only when it changed.
//!
//! Text is placed by an estimate of its width ([`text_width`]) rather than by
//! measuring it in the page: measuring forces a layout (plotters' web backend
//! did, once per label), and an estimate that errs wide only leaves a label a
//! little more room than it needs.

use leptos::prelude::*;
use std::fmt::Write;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// How tall a chart is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ChartSize {
    /// A fixed height in CSS pixels (the full page).
    Fixed(f64),
    /// The height its container is given by the layout (a figure, a slide):
    /// the SVG sits absolutely inside it, so it never sizes the layout itself.
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
    pub fn px(self) -> f64 {
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

/// Horizontal anchor of a label.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Align {
    Left,
    Center,
    Right,
}

/// Vertical anchor of a label.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Baseline {
    Top,
    Middle,
    Bottom,
}

/// A line's stroke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dash {
    Solid,
    /// 6 on, 4 off: the roofline's memory side, a limit.
    Dashed,
    /// 2 on, 3 off: the roofline's compute side.
    Dotted,
}

impl Dash {
    fn attr(self) -> &'static str {
        match self {
            Dash::Solid => "",
            Dash::Dashed => r#" stroke-dasharray="6 4""#,
            Dash::Dotted => r#" stroke-dasharray="2 3""#,
        }
    }
}

/// The advance width of `c` in ems, from a sans-serif UI face's metrics
/// (DejaVu Sans, the widest face `system-ui` resolves to on the machines the
/// tests run on, and Hangul at a full em as Noto Sans CJK sets it): an estimate
/// that errs wide, so a label placed by it never overlaps its neighbour.
fn advance(c: char) -> f64 {
    match c {
        ' ' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | 'i' | 'j' | 'l' | '·' => 0.33,
        'f' | 't' | 'r' | 'I' | '(' | ')' | '[' | ']' | '-' | '/' => 0.43,
        '0'..='9' | '$' | '_' | '±' => 0.64,
        'm' | 'w' | 'M' | 'W' | '%' | '@' => 0.98,
        'a'..='z' => 0.62,
        'A'..='Z' | '×' | '≈' | '≤' | '≥' | '+' | '=' | '<' | '>' => 0.76,
        '–' => 0.5,
        '\u{1100}'..='\u{11ff}' | '\u{3000}'..='\u{9fff}' | '\u{ac00}'..='\u{d7a3}' | '…' | '—' => 1.0,
        _ => 0.7,
    }
}

/// The width of `s` in CSS pixels at a font of `em` pixels (see [`advance`]).
pub fn text_width(s: &str, em: f64) -> f64 {
    s.chars().map(advance).sum::<f64>() * em
}

/// `s` in lines of at most `max` pixels at a font of `em` pixels, broken at
/// spaces. Never cut: a word wider than the line stands whole on its own (a
/// number or a name cut short says something else).
pub fn wrap(s: &str, max: f64, em: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in s.split(' ').filter(|w| !w.is_empty()) {
        match lines.last_mut() {
            Some(line) if text_width(&format!("{line} {word}"), em) <= max => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// `s` with the characters that markup gives a meaning escaped.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// Parts drawn with a hatch: 1 "/", 2 horizontal, 3 "\", 4 vertical (the
/// palette's order: gradients, optimizer states, activations, the logits).
fn hatch_path(pattern: usize) -> Option<&'static str> {
    Some(match pattern {
        1 => "M-7,7L0,0M0,7L7,0M7,7L14,0",
        2 => "M0,3.5H7",
        3 => "M-7,0L0,7M0,0L7,7M7,0L14,7",
        4 => "M3.5,0V7",
        _ => return None,
    })
}

/// One chart's markup, drawn in CSS pixels: the shapes and texts a chart's
/// drawing function writes, the hatch patterns it used, and its size.
pub struct Svg {
    pub width: f64,
    pub height: f64,
    /// One em of the chart's text, in CSS pixels: every margin is a multiple of it.
    pub em: f64,
    /// Names the chart's patterns (several charts share a page).
    id: &'static str,
    body: String,
    hatches: [bool; 5],
}

impl Svg {
    pub fn new(id: &'static str, width: f64, height: f64, em: f64) -> Svg {
        Svg { width, height, em, id, body: String::new(), hatches: [false; 5] }
    }

    /// Width of `text` in CSS pixels (an estimate, see [`text_width`]).
    pub fn width(&self, text: &str) -> f64 {
        text_width(text, self.em)
    }

    /// A text at (x, y), anchored as told: the baseline is placed from the
    /// font's ascent and descent, so the same markup reads the same in every
    /// renderer (no `dominant-baseline`, which image rasterisers differ on).
    #[allow(clippy::too_many_arguments)]
    pub fn text(&mut self, text: &str, x: f64, y: f64, align: Align, baseline: Baseline, bold: bool, color: &str) {
        let anchor = match align {
            Align::Left => "",
            Align::Center => r#" text-anchor="middle""#,
            Align::Right => r#" text-anchor="end""#,
        };
        let y = match baseline {
            Baseline::Top => y + 0.82 * self.em,
            Baseline::Middle => y + 0.36 * self.em,
            Baseline::Bottom => y - 0.22 * self.em,
        };
        let weight = if bold { r#" font-weight="700""# } else { "" };
        let _ =
            write!(self.body, r#"<text x="{x:.1}" y="{y:.1}" fill="{color}"{anchor}{weight}>{}</text>"#, escape(text));
    }

    /// `text` on a patch of `patch` colour a little larger than it, so no line
    /// drawn before strikes it through.
    #[allow(clippy::too_many_arguments)]
    pub fn patched_text(
        &mut self,
        text: &str,
        (x, y): (f64, f64),
        align: Align,
        baseline: Baseline,
        bold: bool,
        (color, patch): (&str, &str),
    ) {
        let em = self.em;
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

    /// A filled rectangle from (x0, y0) to (x1, y1).
    pub fn rect(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, color: &str) {
        self.rect_with(x0, y0, x1, y1, color, "", "");
    }

    /// A filled rectangle with extra attributes (`data-bytes`, …) and a title (a tooltip; empty: none).
    #[allow(clippy::too_many_arguments)]
    pub fn rect_with(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, color: &str, attrs: &str, title: &str) {
        let (w, h) = ((x1 - x0).max(0.0), (y1 - y0).max(0.0));
        let _ =
            write!(self.body, r#"<rect x="{x0:.1}" y="{y0:.1}" width="{w:.1}" height="{h:.1}" fill="{color}"{attrs}"#);
        self.close(title, "rect");
    }

    /// Hatches a rectangle so a part reads without its colour (pattern 0: none).
    pub fn hatch(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, pattern: usize) {
        if hatch_path(pattern).is_none() {
            return;
        }
        self.hatches[pattern] = true;
        let fill = format!("url(#{}-h{pattern})", self.id);
        self.rect(x0, y0, x1, y1, &fill);
    }

    /// A straight line `width` pixels wide.
    pub fn line(&mut self, (x0, y0): (f64, f64), (x1, y1): (f64, f64), width: f64, color: &str) {
        self.line_dashed((x0, y0), (x1, y1), width, color, Dash::Solid);
    }

    /// A straight line in a dash.
    pub fn line_dashed(&mut self, (x0, y0): (f64, f64), (x1, y1): (f64, f64), width: f64, color: &str, dash: Dash) {
        let _ = write!(
            self.body,
            r#"<line x1="{x0:.1}" y1="{y0:.1}" x2="{x1:.1}" y2="{y1:.1}" stroke="{color}" stroke-width="{width}"{}/>"#,
            dash.attr()
        );
    }

    /// The capacity line's dash, horizontal from `x0` to `x1` at `y`: 6 px
    /// dashes, 4 px gaps, 2 px wide. Both charts and the bar chart's legend key draw it.
    pub fn capacity_line(&mut self, x0: f64, x1: f64, y: f64, color: &str) {
        self.line_dashed((x0, y), (x1, y), 2.0, color, Dash::Dashed);
    }

    /// A line through `points`, `width` pixels wide.
    pub fn polyline(&mut self, points: &[(f64, f64)], width: f64, color: &str, dash: Dash) {
        if points.len() < 2 {
            return;
        }
        self.body.push_str(r#"<polyline points=""#);
        self.points(points);
        let _ = write!(
            self.body,
            r#"" fill="none" stroke="{color}" stroke-width="{width}" stroke-linejoin="round"{}/>"#,
            dash.attr()
        );
    }

    /// A filled polygon (a band).
    pub fn polygon(&mut self, points: &[(f64, f64)], color: &str) {
        self.body.push_str(r#"<polygon points=""#);
        self.points(points);
        let _ = write!(self.body, r#"" fill="{color}"/>"#);
    }

    /// A `points` attribute's value: "x,y x,y …".
    fn points(&mut self, points: &[(f64, f64)]) {
        for (i, (x, y)) in points.iter().enumerate() {
            let _ = write!(self.body, "{}{x:.1},{y:.1}", if i == 0 { "" } else { " " });
        }
    }

    /// A filled dot of radius `r`, with a title (empty: none).
    pub fn dot(&mut self, x: f64, y: f64, r: f64, color: &str, title: &str) {
        let _ = write!(self.body, r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{color}""#);
        self.close(title, "circle");
    }

    /// A ring of radius `r` (a hollow marker), with a title (empty: none).
    pub fn ring(&mut self, x: f64, y: f64, r: f64, color: &str, title: &str) {
        let w = (0.3 * r).max(1.0);
        let _ = write!(
            self.body,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="none" stroke="{color}" stroke-width="{w:.1}""#
        );
        self.close(title, "circle");
    }

    /// Ends an element: empty, or holding its title (a tooltip).
    fn close(&mut self, title: &str, tag: &str) {
        if title.is_empty() {
            self.body.push_str("/>");
        } else {
            let _ = write!(self.body, "><title>{}</title></{tag}>", escape(title));
        }
    }

    /// The markup: the patterns the drawing used, then what it drew.
    pub fn finish(self) -> String {
        let mut out = String::new();
        if self.hatches.iter().any(|&h| h) {
            out.push_str("<defs>");
            for (n, _) in self.hatches.iter().enumerate().filter(|(_, &h)| h) {
                let path = hatch_path(n).unwrap_or_default();
                let _ = write!(
                    out,
                    r#"<pattern id="{}-h{n}" width="7" height="7" patternUnits="userSpaceOnUse"><path d="{path}" stroke="rgba(255,255,255,0.45)" stroke-width="1"/></pattern>"#,
                    self.id
                );
            }
            out.push_str("</defs>");
        }
        out + &self.body
    }
}

/// The chart's wrapper and its SVG: `class="chart"` (`chart fill` when it fills
/// its box), the SVG sized to the wrapper and redrawn by `draw` whenever a
/// signal it reads changes or the wrapper is resized.
pub fn chart_view(
    size: ChartSize,
    font: FontSize,
    testid: &'static str,
    label: Signal<String>,
    draw: impl Fn(&mut Svg) + 'static,
) -> impl IntoView {
    chart_view_dyn(size, font, testid, label, Box::new(draw))
}

/// The body of [`chart_view`], compiled once for every kind of chart.
fn chart_view_dyn(
    size: ChartSize,
    font: FontSize,
    testid: &'static str,
    label: Signal<String>,
    draw: Box<dyn Fn(&mut Svg)>,
) -> impl IntoView {
    let holder = NodeRef::<leptos::html::Div>::new();
    let dims = observed_size(holder);
    let draw = StoredValue::new_local(draw);
    // (width, height, em, markup): the markup is set only when it changed.
    let drawn = Memo::new(move |_| {
        let (w, box_h) = dims.get();
        let h = match size {
            ChartSize::Fixed(h) => h,
            ChartSize::Fill => box_h,
        };
        if w <= 0.0 || h <= 0.0 {
            return (0.0, 0.0, 0.0, String::new());
        }
        let em = font.px().round();
        let mut svg = Svg::new(testid, w, h, em);
        draw.with_value(|draw| draw(&mut svg));
        (w, h, em, svg.finish())
    });
    // A fixed chart holds its height before the first draw, so the layout never moves when it comes.
    let (class, style) = match size {
        ChartSize::Fill => ("chart fill", None),
        ChartSize::Fixed(h) => ("chart", Some(format!("height:{h}px"))),
    };
    view! {
        <div class=class style=style node_ref=holder>
            <svg
                class="plot"
                data-testid=testid
                role="img"
                aria-label=label
                width=move || drawn.with(|d| d.0)
                height=move || drawn.with(|d| d.1)
                viewBox=move || drawn.with(|d| format!("0 0 {} {}", d.0, d.1))
                font-size=move || drawn.with(|d| d.2)
                font-family="system-ui, sans-serif"
                inner_html=move || drawn.with(|d| d.3.clone())
            ></svg>
        </div>
    }
}

/// The CSS size (width, height) of `el`, kept by a ResizeObserver.
fn observed_size(el: NodeRef<leptos::html::Div>) -> RwSignal<(f64, f64)> {
    let size = RwSignal::new((0.0, 0.0));
    let observer = StoredValue::new_local(None::<(web_sys::ResizeObserver, Closure<dyn FnMut(js_sys::Array)>)>);
    Effect::new(move |_| {
        let Some(el) = el.get() else { return };
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
            ro.observe(&el);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_err_wide_and_hangul_takes_a_full_em() {
        assert_eq!(text_width("", 10.0), 0.0);
        assert!((text_width("80 GB", 10.0) - (2.0 * 6.4 + 3.3 + 2.0 * 7.6)).abs() < 1e-9);
        assert_eq!(text_width("메모리", 12.0), 36.0);
    }

    #[test]
    fn markup_is_escaped_and_patterns_are_defined_once_when_used() {
        let mut s = Svg::new("c", 100.0, 50.0, 10.0);
        s.text("a < b & \"c\"", 1.0, 2.0, Align::Left, Baseline::Top, false, "#000");
        s.rect(0.0, 0.0, 10.0, 10.0, "red");
        let plain = s.finish();
        assert!(plain.contains("a &lt; b &amp; &quot;c&quot;"));
        assert!(!plain.contains("<defs>"), "no pattern drawn, none defined");
        let mut s = Svg::new("c", 100.0, 50.0, 10.0);
        s.hatch(0.0, 0.0, 5.0, 5.0, 1);
        s.hatch(5.0, 0.0, 9.0, 5.0, 1);
        s.hatch(5.0, 0.0, 9.0, 5.0, 0);
        let m = s.finish();
        assert_eq!(m.matches("<pattern").count(), 1);
        assert_eq!(m.matches("url(#c-h1)").count(), 2);
    }

    /// Issue 41: "a label that does not fit moves or wraps; a number is never cut".
    #[test]
    fn labels_wrap_at_spaces_and_are_never_cut() {
        let lines = wrap("Muon (momentum one, embeddings AdamW)", 60.0, 10.0);
        assert_eq!(lines.join(" "), "Muon (momentum one, embeddings AdamW)");
        assert!(lines.len() >= 3 && lines.iter().all(|l| !l.contains('…')), "{lines:?}");
        // A word wider than the line stands whole.
        assert_eq!(wrap("12.1바이트", 30.0, 10.0), vec!["12.1바이트"]);
        assert!(wrap("", 30.0, 10.0).is_empty());
    }
}
