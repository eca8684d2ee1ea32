//! Line charts on log axes (the sweeps, days against GPUs, Chinchilla, time
//! per token against the batch), drawn as SVG (see [`super::svg`]) in pixel
//! coordinates from [`super::geometry`]: dashed reference lines with their
//! labels, vertical marks, a marker at the current configuration, labelled points.

use super::geometry::{log_pos, log_ticks, rule_label_spot, tick_number, Area};
use super::svg::{chart_view, Align, Baseline, ChartSize, Dash, FontSize, Svg};
use super::theme::{css_color, theme};
use crate::i18n::count;
use leptos::prelude::*;
use tmath::page::Lang;
use tmath::units::{format_sig, ByteUnit};

/// One line.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    /// Index into the palette (past its end: the text's colour).
    pub color: usize,
    pub dash: Dash,
}

impl Series {
    /// A solid line in a palette colour.
    pub fn new(label: String, points: Vec<(f64, f64)>, color: usize) -> Series {
        Series { label, points, color, dash: Dash::Solid }
    }
}

/// A dashed horizontal line with its label (the GPU's memory, the 200B floor).
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    pub y: f64,
    pub label: String,
}

/// A dashed vertical line with its label at the top (the roofline's crossover),
/// or, `beyond`, the start of a shaded range that runs to the right edge (the
/// batches whose cache the pool cannot hold).
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub x: f64,
    pub label: String,
    pub beyond: bool,
}

/// A labelled dot (the current configuration).
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
    pub label: String,
}

/// What the y axis counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum YAxis {
    Bytes(ByteUnit),
    Days,
    Count,
    Seconds,
}

impl YAxis {
    /// A tick's label: round, grouped, no trailing zeros.
    fn tick(self, y: f64, lang: Lang) -> String {
        match (self, lang) {
            (YAxis::Bytes(u), _) => format!("{} {}", tick_number(y / u.bytes()), u.symbol()),
            (YAxis::Days, Lang::En) => format!("{} d", tick_number(y)),
            (YAxis::Days, Lang::Ko) => format!("{}일", tick_number(y)),
            (YAxis::Count, _) => count(lang, y),
            (YAxis::Seconds, _) => format!("{}\u{a0}ms", tick_number(y * 1e3)),
        }
    }
    /// A value's label (the data table's cells): three significant digits.
    fn label(self, y: f64, lang: Lang) -> String {
        match (self, lang) {
            (YAxis::Bytes(u), _) => format!("{} {}", format_sig(y / u.bytes()), u.symbol()),
            (YAxis::Days, Lang::En) => format!("{} d", format_sig(y)),
            (YAxis::Days, Lang::Ko) => format!("{}일", format_sig(y)),
            (YAxis::Count, _) => count(lang, y),
            (YAxis::Seconds, _) => format!("{}\u{a0}ms", format_sig(y * 1e3)),
        }
    }
}

/// Everything one drawing needs (both axes logarithmic).
#[derive(Clone, Debug, PartialEq)]
pub struct LineScene {
    pub series: Vec<Series>,
    pub y: YAxis,
    pub rules: Vec<Rule>,
    /// Vertical dashed lines, each labelled at its top.
    pub marks: Vec<Mark>,
    /// The current configuration's x: a vertical line.
    pub marker: Option<f64>,
    pub points: Vec<Point>,
    /// The x axis's name, drawn at its right end (empty: none).
    pub x_name: String,
    /// The y axis's name, drawn at its top (empty: none).
    pub y_name: String,
    /// The language of the tick labels (counts: 7B or 70억).
    pub lang: Lang,
}

fn bounds(points: impl Iterator<Item = (f64, f64)>) -> Option<(f64, f64, f64, f64)> {
    points.filter(|(x, y)| x.is_finite() && y.is_finite() && *x > 0.0 && *y > 0.0).fold(None, |acc, (x, y)| {
        Some(match acc {
            None => (x, x, y, y),
            Some((x0, x1, y0, y1)) => (x0.min(x), x1.max(x), y0.min(y), y1.max(y)),
        })
    })
}

fn draw(text: &mut Svg, s: &LineScene) {
    let (w, h, em) = (text.width, text.height, text.em);
    let all = s.series.iter().flat_map(|l| l.points.iter().copied()).chain(s.points.iter().map(|p| (p.x, p.y)));
    let Some((x0, x1, mut y0, mut y1)) = bounds(all) else { return };
    for r in &s.rules {
        y0 = y0.min(r.y);
        y1 = y1.max(r.y);
    }
    let (y0, y1) = (y0 / 1.3, y1 * 1.3);
    let x1 = if x1 > x0 { x1 } else { x0 * 10.0 };
    let th = theme();
    let names = if s.x_name.is_empty() { 0.0 } else { 1.3 };
    // As many y ticks as the plot's height spaces 2 lines apart (a short slide chart takes fewer).
    let top = if s.marks.is_empty() { 0.9 } else { 1.6 };
    let plot_h = h - (top + 2.1 + names) * em;
    let y_room = ((plot_h / (2.0 * em)).floor() as usize).clamp(2, 5);
    let (yt, xt) = (log_ticks(y0, y1, y_room), log_ticks(x0, x1, 7));
    let y_labels: Vec<String> = yt.iter().map(|&t| s.y.tick(t, s.lang)).collect();
    // The axis is as wide as its widest label; a mark's label needs a line above the plot.
    let axis_w = y_labels.iter().map(|l| text.width(l)).fold(0.0, f64::max);
    // A point's dot (0.42 em) on the y axis stays clear of the tick labels beside it.
    let a = Area { left: axis_w + 1.1 * em, top: top * em, right: w - 0.9 * em, bottom: h - (2.1 + names) * em };
    let x = |v: f64| log_pos(v, x0, x1, a.left, a.right);
    let y = |v: f64| log_pos(v, y0, y1, a.bottom, a.top);
    for &t in &yt {
        text.line((a.left, y(t).round()), (a.right, y(t).round()), 1.0, th.grid_css);
    }
    for &t in &xt {
        text.line((x(t).round(), a.top), (x(t).round(), a.bottom), 1.0, th.grid_css);
    }
    text.polyline(&[(a.left, a.top), (a.left, a.bottom), (a.right, a.bottom)], 1.0, th.fg_css, Dash::Solid);
    if let Some(m) = s.marker.filter(|m| *m >= x0 && *m <= x1) {
        text.line((x(m), a.top), (x(m), a.bottom), 1.0, "rgba(128,128,128,0.6)");
    }
    // A shaded range under the lines.
    for m in s.marks.iter().filter(|m| m.beyond && m.x <= x1) {
        text.rect(x(m.x.max(x0)).round(), a.top, a.right, a.bottom, "rgba(128,128,128,0.14)");
    }
    let colour = |c: usize| if c < super::theme::PALETTE.len() { css_color(c) } else { th.fg_css.to_string() };
    for l in &s.series {
        let points: Vec<(f64, f64)> = l.points.iter().filter(|(_, v)| *v > 0.0).map(|&(u, v)| (x(u), y(v))).collect();
        text.polyline(&points, 2.5, &colour(l.color), l.dash);
    }
    // A rule's label at its left end, above the line (the lines here rise to the right).
    for r in &s.rules {
        text.capacity_line(a.left.round(), a.right.round(), y(r.y).round(), th.line_css);
    }
    // A mark's label at its top, on the side with room and clear of the labels placed before it
    // (a label with room on neither side is left to the chart's text alternative and the verdict).
    let mut placed: Vec<(f64, f64)> = Vec::new();
    for m in s.marks.iter().filter(|m| m.x >= x0 && m.x <= x1) {
        let xm = x(m.x).round();
        let ink = if m.beyond { th.fg_css } else { th.line_css };
        if m.beyond {
            text.line((xm, a.top), (xm, a.bottom), 1.2, ink);
        } else {
            text.line_dashed((xm, a.top), (xm, a.bottom), 1.2, th.line_css, Dash::Dashed);
        }
        let lw = text.width(&m.label);
        let right = (xm + 0.3 * em, xm + 0.3 * em + lw);
        let left = (xm - 0.3 * em - lw, xm - 0.3 * em);
        let free = |(l, r): (f64, f64)| l >= 0.0 && r <= w && placed.iter().all(|&(pl, pr)| r < pl || l > pr);
        let spot = if free(right) { Some((right, Align::Left)) } else { free(left).then_some((left, Align::Right)) };
        if let Some(((l, r), align)) = spot {
            let lx = if align == Align::Left { l } else { r };
            text.text(&m.label, lx, a.top - 0.2 * em, align, Baseline::Bottom, false, ink);
            placed.push((l - 0.5 * em, r + 0.5 * em));
        }
    }
    // Labels last, each on a patch: no curve strikes one through, and none
    // covers a curve or a marked point (see `rule_label_spot`).
    let curves: Vec<Vec<(f64, f64)>> = s
        .series
        .iter()
        .map(|l| l.points.iter().filter(|(_, v)| *v > 0.0).map(|&(u, v)| (x(u), y(v))).collect())
        .collect();
    let mut taken: Vec<(f64, f64, f64, f64)> =
        s.points.iter().map(|p| (x(p.x) - 0.5 * em, x(p.x) + 0.5 * em, y(p.y) - 0.5 * em, y(p.y) + 0.5 * em)).collect();
    for r in &s.rules {
        let yr = y(r.y).round();
        let size = (text.width(&r.label), 1.2 * em, 0.3 * em);
        match rule_label_spot(a, yr, size, &curves, &taken) {
            Some((lx, top)) => {
                text.patched_text(&r.label, (lx, top), Align::Left, Baseline::Top, false, (th.line_css, th.bg_css));
                taken.push((lx, lx + size.0, top, top + size.1));
            }
            // Every place covers data: the words without their patch, the curve seen through.
            None => {
                text.text(&r.label, a.left + size.2, yr - size.2, Align::Left, Baseline::Bottom, false, th.line_css)
            }
        }
    }
    // A point's label above it, on the side with more room; below it where a
    // rule's label or the top edge is in the way.
    for p in &s.points {
        let (cx, cy) = (x(p.x), y(p.y));
        text.dot(cx, cy, 0.42 * em, th.fg_css, &p.label);
        if p.label.is_empty() {
            continue;
        }
        let left = cx > (a.left + a.right) / 2.0;
        let (lx, align) = if left { (cx + 0.3 * em, Align::Right) } else { (cx - 0.3 * em, Align::Left) };
        let pw = text.width(&p.label);
        let (px0, px1) = if left { (lx - pw, lx) } else { (lx, lx + pw) };
        let free = |y0: f64, y1: f64| !taken.iter().any(|&(a0, a1, b0, b1)| px0 < a1 && a0 < px1 && y0 < b1 && b0 < y1);
        let above = cy - 0.7 * em;
        let below = cy + 0.7 * em;
        let (ly, base) = if cy - 1.6 * em > a.top && free(above - 1.2 * em, above) {
            (above, Baseline::Bottom)
        } else if free(below, below + 1.2 * em) || cy - 1.6 * em <= a.top {
            (below, Baseline::Top)
        } else {
            (above, Baseline::Bottom)
        };
        text.patched_text(&p.label, (lx, ly), align, base, true, (th.fg_css, th.bg_css));
    }
    for (&t, label) in yt.iter().zip(&y_labels) {
        text.text(label, a.left - 0.65 * em, y(t), Align::Right, Baseline::Middle, false, th.fg_css);
    }
    for &t in &xt {
        // A label at the right edge ends there rather than past it.
        let label = count(s.lang, t);
        let (lx, align) =
            if x(t) + text.width(&label) / 2.0 > w { (w - 0.2 * em, Align::Right) } else { (x(t), Align::Center) };
        text.text(&label, lx, a.bottom + 0.35 * em, align, Baseline::Top, false, th.fg_css);
    }
    if !s.x_name.is_empty() {
        text.text(
            &s.x_name,
            (a.left + a.right) / 2.0,
            h - 0.15 * em,
            Align::Center,
            Baseline::Bottom,
            false,
            th.fg_css,
        );
    }
    if !s.y_name.is_empty() {
        text.text(&s.y_name, a.left + 0.4 * em, a.top, Align::Left, Baseline::Top, false, th.fg_css);
    }
}

#[component]
pub fn LineChart(
    /// What to draw.
    scene: Signal<LineScene>,
    /// A text summary for screen readers.
    label: Signal<String>,
    /// `data-testid` of the chart.
    testid: &'static str,
    /// How tall the chart is.
    #[prop(default = ChartSize::Fixed(220.0))]
    size: ChartSize,
    /// Text size.
    #[prop(default = FontSize::Px(10.5))]
    font: FontSize,
) -> impl IntoView {
    let chart = chart_view(size, font, testid, label, move |svg| scene.with(|s| draw(svg, s)));
    // The legend in HTML: readable text, not colour alone.
    let legend = move || {
        scene.with(|s| {
            (s.series.len() > 1).then(|| {
                s.series
                    .iter()
                    .map(|l| {
                        let colour = if l.color < super::theme::PALETTE.len() { css_color(l.color) } else { "currentColor".into() };
                        let stroke = match l.dash {
                            Dash::Solid => "solid",
                            Dash::Dashed => "dashed",
                            Dash::Dotted => "dotted",
                        };
                        view! {
                            <li>
                                <span class="swatch line" style=format!("border-top-style:{stroke};border-top-color:{colour}") aria-hidden="true"></span>
                                {l.label.clone()}
                            </li>
                        }
                    })
                    .collect_view()
            })
        })
    };
    // The same numbers as a table, for a screen reader: one row per x, one column per line.
    let table = move || {
        scene.with(|s| {
            let xs: Vec<f64> = s.series.first().map(|l| l.points.iter().map(|p| p.0).collect()).unwrap_or_default();
            let head = s.series.iter().map(|l| view! { <th scope="col">{l.label.clone()}</th> }).collect_view();
            let rows = xs
                .iter()
                .enumerate()
                .map(|(i, &x)| {
                    let cells = s
                        .series
                        .iter()
                        .map(|l| view! { <td>{l.points.get(i).map(|p| s.y.label(p.1, s.lang)).unwrap_or_default()}</td> })
                        .collect_view();
                    view! { <tr><th scope="row">{count(s.lang, x)}</th>{cells}</tr> }
                })
                .collect_view();
            view! {
                <table class="sr-only" data-testid=format!("{testid}-table")>
                    <caption>{label.get()}</caption>
                    <thead><tr><th scope="col">{s.x_name.clone()}</th>{head}</tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            }
        })
    };
    view! {
        {chart}
        <ul class="chart-legend">{legend}</ul>
        <div class="sr-only">{table}</div>
    }
}
