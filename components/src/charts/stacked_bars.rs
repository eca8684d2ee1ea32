//! Stacked bars against a capacity line, drawn as SVG (see [`super::svg`]).
//! Geometry comes from [`super::geometry`].

use super::geometry::{axis_max, bar_x, is_cut, line_label_spot, stacked_rects, tick_number, ticks, y_of, Area, Bar};
use super::svg::{chart_view, wrap, Align, Baseline, ChartSize, FontSize, Svg};
use super::theme::{css_color, text_on, theme};
use leptos::prelude::*;
use tmath::units::{ByteUnit, Bytes};

/// What one drawing needs.
struct Scene<'a> {
    bars: &'a [Bar],
    capacity: f64,
    capacity_label: &'a str,
    units: ByteUnit,
    /// The parts' names by palette index (a segment's tooltip), where the chart has a legend.
    names: &'a [(usize, String)],
}

fn draw(text: &mut Svg, scene: &Scene) {
    let (w, h, em) = (text.width, text.height, text.em);
    let th = theme();
    let unit = scene.units;
    let max = axis_max(scene.bars, scene.capacity, unit.bytes());
    let tick_labels: Vec<(f64, String)> = ticks(max, 5, unit.bytes())
        .into_iter()
        .map(|t| (t, format!("{} {}", tick_number(t / unit.bytes()), unit.symbol())))
        .collect();
    // The axis is as wide as its widest label.
    let axis_w = tick_labels.iter().map(|(_, l)| text.width(l)).fold(0.0, f64::max);
    // A label that does not fit its bar's slot takes a second line (see below).
    let slot = (w - axis_w - 1.6 * em) / scene.bars.len().max(1) as f64 - 0.6 * em;
    let label_lines = scene
        .bars
        .iter()
        .map(|b| (wrap(&b.label, slot, em).len() + wrap(&b.sub, slot, em).len()) as f64)
        .fold(1.0, f64::max);
    let area = Area {
        left: axis_w + 0.9 * em,
        top: 1.9 * em,
        right: w - 0.7 * em,
        bottom: h - (1.0 + 1.45 * label_lines) * em,
    };
    for (t, label) in &tick_labels {
        let y = y_of(*t, max, area).round();
        text.line((area.left, y), (area.right, y), 1.0, th.grid_css);
        text.text(label, area.left - 0.5 * em, y, Align::Right, Baseline::Middle, false, th.fg_css);
    }
    let rects = stacked_rects(scene.bars, max, area);
    for r in &rects {
        // Each segment carries its bytes and its part's name: a tooltip, and what the tests read.
        let value = scene.bars[r.bar].segments[r.part];
        let name = scene.names.iter().find(|(p, _)| *p == r.part).map_or("", |(_, n)| n.as_str());
        let title =
            if name.is_empty() { unit.format(Bytes(value)) } else { format!("{name}: {}", unit.format(Bytes(value))) };
        let attrs = vec![("data-bytes", value.to_string()), ("data-part", r.part.to_string())];
        text.rect_with(r.x0, r.y0, r.x1, r.y1, &css_color(r.part), attrs, &title);
        // Hatching and the value inside: colour is never the only signal.
        text.hatch(r.x0, r.y0, r.x1, r.y1, r.part);
        // A thin gap between segments keeps them apart.
        text.line((r.x0, r.y0), (r.x1, r.y0), 1.0, th.bg_css);
    }
    // A cut bar is broken near the top: two strokes of the background across it.
    for (i, _) in scene.bars.iter().enumerate().filter(|(_, b)| is_cut(b, max)) {
        let (x0, x1) = bar_x(i, scene.bars.len(), area, 0.62);
        for k in [0.0, 0.45] {
            let (y0, y1) = (area.top + (0.9 + k) * em, area.top + (0.3 + k) * em);
            text.line((x0 - 2.0, y0), (x1 + 2.0, y1), 3.0, th.bg_css);
        }
    }
    let y = y_of(scene.capacity, max, area).round();
    text.capacity_line(area.left.round(), area.right.round(), y, th.line_css);
    // Text last, on top of the shapes.
    for r in &rects {
        let value = scene.bars[r.bar].segments[r.part];
        let label = unit.format(Bytes(value));
        let half = text.width(&label) / 2.0 + 0.25 * em;
        // A cut bar writes its total inside, below the break: its top segment's value gives way.
        let under_total = is_cut(&scene.bars[r.bar], max) && (r.y0 + r.y1) / 2.0 < area.top + 3.6 * em;
        if r.y1 - r.y0 > 1.4 * em && r.x1 - r.x0 > 2.0 * half && !under_total {
            let (cx, cy) = ((r.x0 + r.x1) / 2.0, (r.y0 + r.y1) / 2.0);
            text.rect(cx - half, cy - 0.7 * em, cx + half, cy + 0.7 * em, &css_color(r.part));
            text.text(&label, cx, cy, Align::Center, Baseline::Middle, false, text_on(r.part));
        }
    }
    // Labels share the bar's slot, less a gap: a long one wraps at its spaces.
    let slot = area.width() / scene.bars.len().max(1) as f64 - 0.6 * em;
    for (i, bar) in scene.bars.iter().enumerate() {
        let (x0, x1) = bar_x(i, scene.bars.len(), area, 0.62);
        let cx = (x0 + x1) / 2.0;
        let total = unit.format(Bytes(bar.total()));
        // On a patch of the background: the capacity line never strikes a total through.
        // Above the bar; a cut bar's inside it, under the break, so the margin stays the line label's.
        let (at, baseline) = if is_cut(bar, max) {
            ((cx, area.top + 1.7 * em), Baseline::Top)
        } else {
            // A bar that ends just under the capacity line would write its total on the line,
            // as if it were the line's value: the total goes above the line instead.
            let bottom = y_of(bar.total(), max, area) - 0.25 * em;
            let on_line = y > bottom - 1.4 * em && y < bottom + 0.2 * em;
            ((cx, if on_line { y - 0.3 * em } else { bottom }), Baseline::Bottom)
        };
        text.patched_text(&total, at, Align::Center, baseline, bar.current, (th.fg_css, th.bg_css));
        let label = wrap(&bar.label, slot, em).into_iter().map(|l| (l, bar.current));
        let sub = wrap(&bar.sub, slot, em).into_iter().map(|l| (l, false));
        for (n, (line, bold)) in label.chain(sub).collect::<Vec<_>>().into_iter().enumerate() {
            let y = area.bottom + (0.5 + 1.45 * n as f64) * em;
            text.text(&line, cx, y, Align::Center, Baseline::Top, bold, th.fg_css);
        }
    }
    // The capacity label goes beside the line where no bar is; where bars cross
    // the line at both ends, above the plot with a dash of the line as its key.
    let (label_w, label_h, gap) = (text.width(scene.capacity_label), 1.2 * em, 0.25 * em);
    let spot = line_label_spot(scene.bars, max, area, y, label_w, label_h, gap);
    let (x0, top) = spot.unwrap_or_else(|| {
        let key = 2.0 * em;
        let (x0, mid) = (area.right - label_w, area.top - gap - label_h / 2.0);
        text.capacity_line(x0 - key - gap, x0 - gap, mid, th.line_css);
        (x0, area.top - gap - label_h)
    });
    text.text(scene.capacity_label, x0, top + label_h, Align::Left, Baseline::Bottom, false, th.line_css);
}

#[component]
pub fn StackedBars(
    /// The bars, bottom segment first (bytes).
    bars: Signal<Vec<Bar>>,
    /// The GPU's memory in bytes: the dashed line.
    capacity: Signal<f64>,
    /// The line's label, e.g. "GPU memory 80 GiB".
    capacity_label: Signal<String>,
    /// Units of the axis and labels.
    units: Signal<ByteUnit>,
    /// A text summary for screen readers (the numbers are also in a table).
    label: Signal<String>,
    /// `data-testid` of the chart.
    testid: &'static str,
    /// How tall the chart is.
    #[prop(default = ChartSize::Fixed(300.0))]
    size: ChartSize,
    /// Text size.
    #[prop(default = FontSize::Px(11.5))]
    font: FontSize,
    /// The parts the bars show, by palette index, in the page's language: a legend under the chart.
    #[prop(optional)]
    legend: Option<Signal<Vec<(usize, String)>>>,
) -> impl IntoView {
    let chart = chart_view(size, font, testid, label, move |svg| {
        let bars = bars.get();
        let (capacity, capacity_label, units) = (capacity.get(), capacity_label.get(), units.get());
        let names = legend.map(|l| l.get()).unwrap_or_default();
        draw(svg, &Scene { bars: &bars, capacity, capacity_label: &capacity_label, units, names: &names });
    });
    let legend = legend.map(|legend| {
        view! {
            <ul class="chart-legend">
                {move || {
                    legend
                        .get()
                        .into_iter()
                        .map(|(part, name)| {
                            view! {
                                <li>
                                    <span class="swatch" style=format!("background:{}", css_color(part)) aria-hidden="true"></span>
                                    {name}
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
        }
    });
    view! {
        {chart}
        {legend}
    }
}
