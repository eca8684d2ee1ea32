//! Charts as SVG drawn by the view (issue 40). A chart's drawing is a plain
//! function from its scene and its size to SVG markup ([`Svg`]): tested
//! natively, no canvas, no backing store to upload at every commit, sharp at any
//! zoom and on a projector, and the same markup is what the PNG and SVG exports
//! frame. [`chart_view`] sizes it to its container (a ResizeObserver, which
//! reports after layout, so a slider step never forces a reflow to read it);
//! a new drawing of the same elements sets only the attributes and texts that
//! moved ([`Drawing`]), and only another set of elements is written anew.
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
    /// Its `stroke-dasharray` (none for a solid line).
    fn array(self) -> Option<&'static str> {
        match self {
            Dash::Solid => None,
            Dash::Dashed => Some("6 4"),
            Dash::Dotted => Some("2 3"),
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

/// One element a chart draws: its tag, its attributes in order, and its
/// text (a `<text>`'s content, or the `<title>` a shape holds as its tooltip;
/// empty: none). The page patches what changed between two drawings, element
/// by element; the markup ([`Drawing::markup`]) is for the exports and the tests.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    tag: &'static str,
    attrs: Vec<(&'static str, String)>,
    text: String,
}

impl Node {
    fn write(&self, out: &mut String) {
        let _ = write!(out, "<{}", self.tag);
        for (k, v) in &self.attrs {
            let _ = write!(out, r#" {k}="{}""#, escape(v));
        }
        match (self.tag, self.text.is_empty()) {
            ("text", _) => {
                let _ = write!(out, ">{}</text>", escape(&self.text));
            }
            (_, true) => out.push_str("/>"),
            (tag, false) => {
                let _ = write!(out, "><title>{}</title></{tag}>", escape(&self.text));
            }
        }
    }

    /// The same element with other values: the same tag, the same attributes in
    /// the same order, a title where the other has one. Only then is it patched.
    fn same_shape(&self, other: &Node) -> bool {
        self.tag == other.tag
            && self.attrs.len() == other.attrs.len()
            && self.attrs.iter().zip(&other.attrs).all(|(a, b)| a.0 == b.0)
            && (self.tag == "text" || self.text.is_empty() == other.text.is_empty())
    }
}

/// What a chart drew: its pattern definitions' markup and its elements.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawing {
    defs: String,
    nodes: Vec<Node>,
}

impl Drawing {
    /// The SVG's inner markup: the patterns, then the elements.
    pub fn markup(&self) -> String {
        let mut out = self.defs.clone();
        for n in &self.nodes {
            n.write(&mut out);
        }
        out
    }

    /// Whether `next` only moves what this drew (see [`Node::same_shape`]).
    fn patches_to(&self, next: &Drawing) -> bool {
        self.defs == next.defs
            && self.nodes.len() == next.nodes.len()
            && self.nodes.iter().zip(&next.nodes).all(|(a, b)| a.same_shape(b))
    }
}

/// One chart's drawing, in CSS pixels: the shapes and texts a chart's drawing
/// function adds, the hatch patterns it used, and its size.
pub struct Svg {
    pub width: f64,
    pub height: f64,
    /// One em of the chart's text, in CSS pixels: every margin is a multiple of it.
    pub em: f64,
    /// Names the chart's patterns (several charts share a page).
    id: &'static str,
    nodes: Vec<Node>,
    hatches: [bool; 5],
}

/// A coordinate as the markup writes it (0.1 px).
fn px(v: f64) -> String {
    format!("{v:.1}")
}

impl Svg {
    pub fn new(id: &'static str, width: f64, height: f64, em: f64) -> Svg {
        Svg { width, height, em, id, nodes: Vec::new(), hatches: [false; 5] }
    }

    fn push(&mut self, tag: &'static str, attrs: Vec<(&'static str, String)>, text: &str) {
        self.nodes.push(Node { tag, attrs, text: text.to_string() });
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
        let y = match baseline {
            Baseline::Top => y + 0.82 * self.em,
            Baseline::Middle => y + 0.36 * self.em,
            Baseline::Bottom => y - 0.22 * self.em,
        };
        let mut attrs = vec![("x", px(x)), ("y", px(y)), ("fill", color.to_string())];
        match align {
            Align::Left => {}
            Align::Center => attrs.push(("text-anchor", "middle".into())),
            Align::Right => attrs.push(("text-anchor", "end".into())),
        }
        if bold {
            attrs.push(("font-weight", "700".into()));
        }
        self.push("text", attrs, text);
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
        self.rect_with(x0, y0, x1, y1, color, Vec::new(), "");
    }

    /// A filled rectangle with extra attributes (`data-bytes`, …) and a title (a tooltip; empty: none).
    #[allow(clippy::too_many_arguments)]
    pub fn rect_with(
        &mut self,
        x0: f64,
        y0: f64,
        x1: f64,
        y1: f64,
        color: &str,
        extra: Vec<(&'static str, String)>,
        title: &str,
    ) {
        let (w, h) = ((x1 - x0).max(0.0), (y1 - y0).max(0.0));
        let mut attrs =
            vec![("x", px(x0)), ("y", px(y0)), ("width", px(w)), ("height", px(h)), ("fill", color.to_string())];
        attrs.extend(extra);
        self.push("rect", attrs, title);
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
        let mut attrs = vec![
            ("x1", px(x0)),
            ("y1", px(y0)),
            ("x2", px(x1)),
            ("y2", px(y1)),
            ("stroke", color.to_string()),
            ("stroke-width", width.to_string()),
        ];
        attrs.extend(dash.array().map(|a| ("stroke-dasharray", a.to_string())));
        self.push("line", attrs, "");
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
        let mut attrs = vec![
            ("points", points_attr(points)),
            ("fill", "none".into()),
            ("stroke", color.to_string()),
            ("stroke-width", width.to_string()),
            ("stroke-linejoin", "round".into()),
        ];
        attrs.extend(dash.array().map(|a| ("stroke-dasharray", a.to_string())));
        self.push("polyline", attrs, "");
    }

    /// A filled polygon (a band).
    pub fn polygon(&mut self, points: &[(f64, f64)], color: &str) {
        self.push("polygon", vec![("points", points_attr(points)), ("fill", color.to_string())], "");
    }

    /// A filled dot of radius `r`, with a title (empty: none).
    pub fn dot(&mut self, x: f64, y: f64, r: f64, color: &str, title: &str) {
        self.push("circle", vec![("cx", px(x)), ("cy", px(y)), ("r", px(r)), ("fill", color.to_string())], title);
    }

    /// A ring of radius `r` (a hollow marker), with a title (empty: none).
    pub fn ring(&mut self, x: f64, y: f64, r: f64, color: &str, title: &str) {
        let w = (0.3 * r).max(1.0);
        let attrs = vec![
            ("cx", px(x)),
            ("cy", px(y)),
            ("r", px(r)),
            ("fill", "none".into()),
            ("stroke", color.to_string()),
            ("stroke-width", px(w)),
        ];
        self.push("circle", attrs, title);
    }

    /// What it drew: the patterns it used, then its elements.
    pub fn drawing(self) -> Drawing {
        let mut defs = String::new();
        if self.hatches.iter().any(|&h| h) {
            defs.push_str("<defs>");
            for (n, _) in self.hatches.iter().enumerate().filter(|(_, &h)| h) {
                let path = hatch_path(n).unwrap_or_default();
                let _ = write!(
                    defs,
                    r#"<pattern id="{}-h{n}" width="7" height="7" patternUnits="userSpaceOnUse"><path d="{path}" stroke="rgba(255,255,255,0.45)" stroke-width="1"/></pattern>"#,
                    self.id
                );
            }
            defs.push_str("</defs>");
        }
        Drawing { defs, nodes: self.nodes }
    }
}

/// A `points` attribute's value: "x,y x,y …".
fn points_attr(points: &[(f64, f64)]) -> String {
    let mut out = String::new();
    for (i, (x, y)) in points.iter().enumerate() {
        let _ = write!(out, "{}{x:.1},{y:.1}", if i == 0 { "" } else { " " });
    }
    out
}

/// Brings the SVG `svg`, which shows `shown` (its elements `els`, in order),
/// to `next`: where `next` only moves what is there (a slider step: the same
/// bars, ticks and labels at other places and values), it sets the attributes
/// and texts that changed and nothing else, so the browser keeps its elements,
/// their style and most of their layout; otherwise it writes the markup anew.
fn show(svg: &web_sys::Element, shown: &mut Drawing, els: &mut Vec<web_sys::Element>, next: &Drawing) {
    if shown.patches_to(next) && els.len() == next.nodes.len() {
        for ((el, was), now) in els.iter().zip(&shown.nodes).zip(&next.nodes) {
            for ((name, a), (_, b)) in was.attrs.iter().zip(&now.attrs) {
                if a != b {
                    let _ = el.set_attribute(name, b);
                }
            }
            if was.text != now.text {
                let holder = if now.tag == "text" { Some(el.clone()) } else { el.first_element_child() };
                if let Some(h) = holder {
                    h.set_text_content(Some(&now.text));
                }
            }
        }
    } else {
        svg.set_inner_html(&next.markup());
        let children = svg.children();
        let skip = u32::from(!next.defs.is_empty());
        *els = (skip..children.length()).filter_map(|i| children.item(i)).collect();
    }
    *shown = next.clone();
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
    let plot = NodeRef::<leptos::svg::Svg>::new();
    let dims = observed_size(holder);
    let draw = StoredValue::new_local(draw);
    // (width, height, em, drawing): the SVG changes only where the drawing did.
    let drawn = Memo::new(move |_| {
        let (w, box_h) = dims.get();
        let h = match size {
            ChartSize::Fixed(h) => h,
            ChartSize::Fill => box_h,
        };
        if w <= 0.0 || h <= 0.0 {
            return (0.0, 0.0, 0.0, Drawing::default());
        }
        let em = font.px().round();
        let mut svg = Svg::new(testid, w, h, em);
        draw.with_value(|draw| draw(&mut svg));
        (w, h, em, svg.drawing())
    });
    // What the SVG shows now, and its elements: the next drawing patches them.
    let shown = StoredValue::new_local((Drawing::default(), Vec::<web_sys::Element>::new()));
    Effect::new(move |_| {
        let Some(svg) = plot.get() else { return };
        drawn.with(|d| shown.update_value(|(was, els)| show(&svg, was, els, &d.3)));
    });
    // A fixed chart holds its height before the first draw, so the layout never moves when it comes.
    let (class, style) = match size {
        ChartSize::Fill => ("chart fill", None),
        ChartSize::Fixed(h) => ("chart", Some(format!("height:{h}px"))),
    };
    view! {
        <div class=class style=style node_ref=holder>
            <svg
                node_ref=plot
                class="plot"
                data-testid=testid
                role="img"
                aria-label=label
                width=move || drawn.with(|d| d.0)
                height=move || drawn.with(|d| d.1)
                viewBox=move || drawn.with(|d| format!("0 0 {} {}", d.0, d.1))
                font-size=move || drawn.with(|d| d.2)
                font-family="system-ui, sans-serif"
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
        let plain = s.drawing().markup();
        assert!(plain.contains("a &lt; b &amp; &quot;c&quot;"));
        assert!(!plain.contains("<defs>"), "no pattern drawn, none defined");
        let mut s = Svg::new("c", 100.0, 50.0, 10.0);
        s.hatch(0.0, 0.0, 5.0, 5.0, 1);
        s.hatch(5.0, 0.0, 9.0, 5.0, 1);
        s.hatch(5.0, 0.0, 9.0, 5.0, 0);
        let m = s.drawing().markup();
        assert_eq!(m.matches("<pattern").count(), 1);
        assert_eq!(m.matches("url(#c-h1)").count(), 2);
    }

    /// A slider step moves the same elements: patched, attribute by attribute.
    /// Another element, another attribute or a tooltip that comes or goes is a new drawing.
    #[test]
    fn a_step_patches_and_a_new_shape_redraws() {
        let draw = |h: f64, title: &str, extra: bool| {
            let mut s = Svg::new("c", 100.0, 50.0, 10.0);
            s.rect_with(0.0, 0.0, 10.0, h, "red", vec![("data-bytes", format!("{h}"))], title);
            s.text(&format!("{h} GB"), 1.0, 2.0, Align::Left, Baseline::Top, false, "#000");
            if extra {
                s.line((0.0, 0.0), (1.0, 1.0), 1.0, "#000");
            }
            s.drawing()
        };
        let a = draw(10.0, "a", false);
        assert!(a.patches_to(&draw(20.0, "b", false)), "values and texts move");
        assert!(!a.patches_to(&draw(20.0, "", false)), "the tooltip goes");
        assert!(!a.patches_to(&draw(20.0, "a", true)), "an element more");
        let mut hatched = Svg::new("c", 100.0, 50.0, 10.0);
        hatched.hatch(0.0, 0.0, 10.0, 10.0, 1);
        let mut plain = Svg::new("c", 100.0, 50.0, 10.0);
        plain.rect(0.0, 0.0, 10.0, 10.0, "url(#c-h1)");
        assert!(!plain.drawing().patches_to(&hatched.drawing()), "a pattern defined");
        // The markup writes what the patch would set.
        assert!(draw(20.0, "b", false).markup().contains(concat!(
            r##"<rect x="0.0" y="0.0" width="10.0" height="20.0" fill="red" data-bytes="20"><title>b</title></rect>"##,
            r##"<text x="1.0" y="10.2" fill="#000">20 GB</text>"##
        )));
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
