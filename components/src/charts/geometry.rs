//! Chart geometry as plain numbers: scale, ticks and the rectangles of stacked
//! bars. The SVG components only draw what these functions return.

/// One stacked bar: its label and its segments from the bottom up (bytes).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Bar {
    pub label: String,
    /// A second line under the label ("16 B/param"), or empty.
    pub sub: String,
    pub segments: Vec<f64>,
    /// Drawn emphasised (the current configuration).
    pub current: bool,
}

impl Bar {
    pub fn total(&self) -> f64 {
        self.segments.iter().sum()
    }
}

/// The plot area inside the canvas, in device pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Area {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

impl Area {
    pub fn width(&self) -> f64 {
        self.right - self.left
    }
    pub fn height(&self) -> f64 {
        self.bottom - self.top
    }
}

/// A segment's rectangle, with the index of its part and the bar it belongs to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub bar: usize,
    pub part: usize,
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

/// The smallest "nice" number (1, 2, 2.5, 5 × 10ᵏ) at or above `x`.
pub fn nice_ceil(x: f64) -> f64 {
    if !(x.is_finite() && x > 0.0) {
        return 1.0;
    }
    let pow = 10f64.powi(x.log10().floor() as i32);
    [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * pow).find(|&v| v >= x * (1.0 - 1e-12)).unwrap_or(10.0 * pow)
}

/// The top of the axis: above the tallest bar and the capacity line, with room
/// for a label; a round number of `unit` (bytes per GB or per GiB), so the ticks
/// read 20 GiB, not 18.6. The axis is scaled to the lowest bar or the
/// capacity, whichever is higher (the floor): when another bar is more than
/// [`CUT_ABOVE`] times the floor, the axis stops at [`CUT_AT`] times it, so the
/// bar that fits, or the one that comes closest (3D parallelism's t·p·d beside
/// data parallelism alone), is read against the line, not lost as a sliver
/// beside a bar 20 times taller; the taller bars are cut (see [`is_cut`]).
pub fn axis_max(bars: &[Bar], capacity: f64, unit: f64) -> f64 {
    let tallest = bars.iter().map(Bar::total).fold(capacity, f64::max);
    let lowest = bars.iter().map(Bar::total).filter(|t| *t > 0.0).fold(f64::INFINITY, f64::min);
    let floor = if lowest.is_finite() { lowest.max(capacity) } else { capacity };
    let top = if tallest > CUT_ABOVE * floor { CUT_AT * floor } else { tallest };
    nice_ceil(top * 1.08 / unit) * unit
}

/// A bar this many times the capacity cuts the axis, when another bar fits.
pub const CUT_ABOVE: f64 = 4.0;
/// Where the axis then stops, in capacities.
pub const CUT_AT: f64 = 2.5;

/// Whether `bar` rises above the axis (drawn to its top, broken, its total written).
pub fn is_cut(bar: &Bar, max: f64) -> bool {
    bar.total() > max
}

/// Tick values 0, step, 2·step, … ≤ max, about `count` of them, the step a round number of `unit`.
pub fn ticks(max: f64, count: usize, unit: f64) -> Vec<f64> {
    let step = nice_ceil(max / unit / count.max(1) as f64) * unit;
    (0..).map(|i| i as f64 * step).take_while(|v| *v <= max * (1.0 + 1e-9)).collect()
}

/// A tick's number as an axis writes it: round numbers plainly and grouped
/// (10,000, 50, 2.5), no trailing zeros ("50", not "50.0").
pub fn tick_number(x: f64) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    if x != 0.0 && x.abs() < 1e-3 || x.abs() >= 1e15 {
        return format!("{x:e}");
    }
    if x.fract() == 0.0 {
        let digits = format!("{}", x.abs() as u64);
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        return if x < 0.0 { format!("-{out}") } else { out };
    }
    let s = tmath::units::format_sig(x);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The y pixel of `value` on an axis from 0 to `max`.
pub fn y_of(value: f64, max: f64, area: Area) -> f64 {
    area.bottom - (value / max).clamp(0.0, 1.0) * area.height()
}

/// The x range of bar `i` of `n`: equal slots, the bar taking `fill` of its slot.
pub fn bar_x(i: usize, n: usize, area: Area, fill: f64) -> (f64, f64) {
    let slot = area.width() / n.max(1) as f64;
    let w = slot * fill;
    let x0 = area.left + slot * i as f64 + (slot - w) / 2.0;
    (x0, x0 + w)
}

/// The rectangles of every non-empty segment, stacked from the bottom.
pub fn stacked_rects(bars: &[Bar], max: f64, area: Area) -> Vec<Rect> {
    let mut out = Vec::new();
    for (b, bar) in bars.iter().enumerate() {
        let (x0, x1) = bar_x(b, bars.len(), area, 0.62);
        let mut base = 0.0;
        for (part, &v) in bar.segments.iter().enumerate() {
            if v <= 0.0 || base >= max {
                continue;
            }
            // A cut bar stops at the axis's top.
            let (lo, hi) = (y_of(base, max, area), y_of((base + v).min(max), max, area));
            out.push(Rect { bar: b, part, x0, y0: hi, x1, y1: lo });
            base += v;
        }
    }
    out
}

/// The top-left corner for a `w`×`h` label of the horizontal line at `y`,
/// clear of the bars and of the totals above them (`h` of room): at the right
/// or the left end, above or below the line; else in the margin above the plot,
/// top right (`None`: the caller then marks it as a legend).
pub fn line_label_spot(bars: &[Bar], max: f64, area: Area, y: f64, w: f64, h: f64, gap: f64) -> Option<(f64, f64)> {
    let columns: Vec<(f64, f64, f64)> = (0..bars.len())
        .map(|i| {
            let (x0, x1) = bar_x(i, bars.len(), area, 0.62);
            // A cut bar's total is inside it: only the bar itself is in the way.
            let label = if is_cut(&bars[i], max) { 0.0 } else { h + gap };
            (x0, x1, y_of(bars[i].total(), max, area) - label)
        })
        .collect();
    let (right, left) = (area.right - w - gap, area.left + gap);
    [(right, y - gap - h), (left, y - gap - h), (right, y + gap), (left, y + gap)].into_iter().find(|&(x, top)| {
        top >= area.top
            && top + h <= area.bottom
            && columns.iter().all(|&(x0, x1, bar_top)| x + w <= x0 || x >= x1 || top + h <= bar_top)
    })
}

/// Whether the segment from `p` to `q` crosses the box (x0, x1, y0, y1)
/// (Liang–Barsky clipping of the segment against the box).
fn segment_hits(p: (f64, f64), q: (f64, f64), (x0, x1, y0, y1): (f64, f64, f64, f64)) -> bool {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (den, num) in [(-dx, p.0 - x0), (dx, x1 - p.0), (-dy, p.1 - y0), (dy, y1 - p.1)] {
        if den == 0.0 {
            if num < 0.0 {
                return false;
            }
        } else {
            let t = num / den;
            if den < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// The top-left corner for a `w`×`h` label of the horizontal rule at `y` on a
/// line chart, where no curve passes under it and no box in `taken` (x0, x1,
/// y0, y1) is: above the rule, then below it, from its left end to its right
/// in tenths of the plot (`None`: every place covers data).
pub fn rule_label_spot(
    area: Area,
    y: f64,
    (w, h, gap): (f64, f64, f64),
    curves: &[Vec<(f64, f64)>],
    taken: &[(f64, f64, f64, f64)],
) -> Option<(f64, f64)> {
    let span = (area.width() - w - 2.0 * gap).max(0.0);
    let free = |x: f64, top: f64| {
        let b = (x - gap, x + w + gap, top - gap, top + h + gap);
        top >= area.top
            && top + h <= area.bottom
            && !taken.iter().any(|&(a0, a1, c0, c1)| b.0 < a1 && a0 < b.1 && b.2 < c1 && c0 < b.3)
            && !curves.iter().any(|c| c.windows(2).any(|s| segment_hits(s[0], s[1], b)))
    };
    [y - gap - h, y + gap]
        .into_iter()
        .flat_map(|top| (0..=10).map(move |i| (area.left + gap + span * i as f64 / 10.0, top)))
        .find(|&(x, top)| free(x, top))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The capacity label of a sweep never covers the curve (issue 27: at the
    /// left end it hid the sequence-length curve from s = 128 to 3,000).
    #[test]
    fn a_rule_label_leaves_the_curve_visible() {
        let area = Area { left: 0.0, top: 0.0, right: 400.0, bottom: 200.0 };
        // A curve rising through the rule's left end at y = 100.
        let curve = vec![(0.0, 110.0), (100.0, 95.0), (400.0, 10.0)];
        let (x, top) = rule_label_spot(area, 100.0, (80.0, 14.0, 3.0), std::slice::from_ref(&curve), &[]).unwrap();
        let b = (x, x + 80.0, top, top + 14.0);
        assert!(!curve.windows(2).any(|s| segment_hits(s[0], s[1], b)), "{b:?}");
        // Nothing in the way: the left end, above the rule.
        assert_eq!(rule_label_spot(area, 100.0, (80.0, 14.0, 3.0), &[], &[]), Some((3.0, 83.0)));
        // A curve along the whole rule on both sides: nowhere.
        let wall = vec![(0.0, 90.0), (400.0, 90.0)];
        let floor = vec![(0.0, 110.0), (400.0, 110.0)];
        assert_eq!(rule_label_spot(area, 100.0, (80.0, 14.0, 3.0), &[wall, floor], &[]), None);
        assert!(segment_hits((0.0, 0.0), (10.0, 10.0), (4.0, 6.0, 4.0, 6.0)));
        assert!(!segment_hits((0.0, 0.0), (10.0, 0.0), (4.0, 6.0, 4.0, 6.0)));
    }

    #[test]
    fn a_line_label_avoids_the_bars() {
        let bar = |total: f64| Bar { label: "b".into(), segments: vec![total], ..Bar::default() };
        // Short bars: the label sits above the line at the right end.
        assert_eq!(line_label_spot(&[bar(10.0), bar(10.0)], 100.0, AREA, 200.0, 80.0, 15.0, 3.0), Some((367.0, 182.0)));
        // A tall bar on the right: the left end.
        assert_eq!(line_label_spot(&[bar(10.0), bar(90.0)], 100.0, AREA, 200.0, 80.0, 15.0, 3.0), Some((53.0, 182.0)));
        // Both bars through the line and a label too wide for the gap: the margin.
        assert_eq!(line_label_spot(&[bar(90.0), bar(90.0)], 100.0, AREA, 200.0, 150.0, 15.0, 3.0), None);
    }

    const AREA: Area = Area { left: 50.0, top: 10.0, right: 450.0, bottom: 310.0 };

    #[test]
    fn nice_numbers() {
        for (x, nice) in
            [(142.6, 200.0), (85.9, 100.0), (21.0, 25.0), (0.3, 0.5), (1.0, 1.0), (0.0, 1.0), (f64::NAN, 1.0)]
        {
            assert_eq!(nice_ceil(x), nice, "{x}");
        }
    }

    #[test]
    fn tick_numbers_read_plainly() {
        for (x, text) in [(50.0, "50"), (100000.0, "100,000"), (2.5, "2.5"), (0.1, "0.1"), (0.0, "0"), (1e-8, "1e-8")] {
            assert_eq!(tick_number(x), text);
        }
    }

    #[test]
    fn ticks_cover_the_axis() {
        assert_eq!(ticks(200.0, 4, 1.0), vec![0.0, 50.0, 100.0, 150.0, 200.0]);
        assert_eq!(ticks(100.0, 5, 1.0), vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
    }

    /// In GiB, the axis and its ticks are round numbers of GiB, not of GB.
    #[test]
    fn ticks_are_round_in_the_chosen_unit() {
        const GIB: f64 = 1_073_741_824.0;
        let bars = [Bar { segments: vec![143e9], ..Bar::default() }];
        let max = axis_max(&bars, 141.0 * GIB, GIB);
        assert_eq!(max, 200.0 * GIB);
        assert_eq!(ticks(max, 5, GIB), [0.0, 50.0, 100.0, 150.0, 200.0].map(|g| g * GIB));
    }

    #[test]
    fn axis_leaves_room_for_bar_and_capacity() {
        let bars = [Bar { label: "t".into(), segments: vec![14.0, 14.0, 84.0, 30.6], current: true, ..Bar::default() }];
        assert_eq!(axis_max(&bars, 85.9, 1.0), 200.0);
        assert_eq!(axis_max(&[], 85.9, 1.0), 100.0);
    }

    /// GPT-3's 3D figure: 3.4 TB with data parallelism alone beside 65 GB at
    /// t·p·d, against 85.9 GB: the axis stops at 2.5 capacities (a round 250
    /// GB), so the bar that fits is read against the line; the tall bar is cut.
    #[test]
    fn a_bar_that_fits_is_not_lost_beside_a_tall_one() {
        let bar = |total: f64| Bar { segments: vec![total], ..Bar::default() };
        let bars = [bar(3396.0), bar(426.0), bar(512.0), bar(65.3)];
        let max = axis_max(&bars, 85.9, 1.0);
        assert_eq!(max, 250.0);
        assert!(is_cut(&bars[0], max) && is_cut(&bars[1], max) && !is_cut(&bars[3], max));
        let rects = stacked_rects(&bars, max, AREA);
        assert_eq!(rects[0].y0, AREA.top, "a cut bar reaches the top, not beyond");
        assert!(AREA.bottom - rects[3].y0 > 0.25 * AREA.height(), "the bar that fits is a quarter of the plot");
        // Nothing fits (issue 41: GPT-3 at t·p·d = 8·8·16, 3,075 GB with d alone, 138 GB at
        // t·p·d): the lowest bar is the floor, the tall one is cut, the lowest read against the line.
        let none = [bar(3075.0), bar(712.0), bar(625.0), bar(138.0)];
        let max = axis_max(&none, 85.9, 1.0);
        assert!(max <= 500.0 && is_cut(&none[0], max) && 138.0 / max > 0.25, "{max}");
        // Within four floors of each other: the axis holds the tallest, nothing is cut.
        assert_eq!(axis_max(&[bar(3396.0), bar(1426.0)], 85.9, 1.0), 5000.0);
        // Tall but under four capacities: no cut.
        assert_eq!(axis_max(&[bar(300.0), bar(60.0)], 85.9, 1.0), 500.0);
    }

    #[test]
    fn segments_stack_without_gaps_and_skip_empty_parts() {
        let bars = [
            Bar { label: "a".into(), segments: vec![10.0, 0.0, 30.0], current: true, ..Bar::default() },
            Bar { label: "b".into(), segments: vec![20.0, 20.0], ..Bar::default() },
        ];
        let rects = stacked_rects(&bars, 100.0, AREA);
        assert_eq!(rects.len(), 4);
        assert_eq!(rects[0].y1, AREA.bottom);
        assert_eq!(rects[0].y0, rects[1].y1, "stacked on each other");
        assert_eq!(rects[1].part, 2);
        assert_eq!(rects[1].y0, y_of(40.0, 100.0, AREA));
        assert!(rects[2].x0 > rects[0].x1, "bars do not overlap");
        assert_eq!(y_of(100.0, 100.0, AREA), AREA.top);
    }
}

/// Position of `v` on a log axis from `lo` to `hi` mapped onto pixels `a0`..`a1`.
pub fn log_pos(v: f64, lo: f64, hi: f64, a0: f64, a1: f64) -> f64 {
    if !(v > 0.0 && lo > 0.0 && hi > lo) {
        return a0;
    }
    a0 + (v.ln() - lo.ln()) / (hi.ln() - lo.ln()) * (a1 - a0)
}

/// Tick values of a log axis: the powers of ten inside [lo, hi], thinned to at
/// most `max` of them; with fewer than two, 1-2-5 steps instead, and where
/// those give fewer than three, 1-1.5-2-3-5-7 steps (two ticks evenly apart
/// read as a linear axis), thinned alike.
pub fn log_ticks(lo: f64, hi: f64, max: usize) -> Vec<f64> {
    let steps = log_steps(lo, hi, &[1.0, 2.0, 5.0]);
    if steps.len() >= 3 || !(lo > 0.0 && hi > lo && lo.is_finite() && hi.is_finite()) {
        return decades_or(lo, hi, max, steps);
    }
    let finer = log_steps(lo, hi, &[1.0, 1.5, 2.0, 3.0, 5.0, 7.0]);
    let stride = finer.len().div_ceil(max.max(1));
    decades_or(lo, hi, max, finer.into_iter().step_by(stride).collect())
}

/// The values m·10^e inside [lo, hi] for each multiplier m of `marks`.
fn log_steps(lo: f64, hi: f64, marks: &[f64]) -> Vec<f64> {
    let mut out = Vec::new();
    if !(lo > 0.0 && hi > lo && lo.is_finite() && hi.is_finite()) {
        return out;
    }
    for e in (lo.log10().floor() as i32)..=(hi.log10().ceil() as i32) {
        for m in marks {
            let v = m * 10f64.powi(e);
            if v >= lo && v <= hi {
                out.push(v);
            }
        }
    }
    out
}

/// The powers of ten inside [lo, hi] thinned to `max`, or `steps` when fewer than two are.
fn decades_or(lo: f64, hi: f64, max: usize, steps: Vec<f64>) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo && lo.is_finite() && hi.is_finite()) {
        return Vec::new();
    }
    let (e0, e1) = (lo.log10().ceil() as i32, hi.log10().floor() as i32);
    let decades: Vec<f64> = (e0..=e1).map(|e| 10f64.powi(e)).collect();
    if decades.len() >= 2 {
        let stride = decades.len().div_ceil(max.max(1));
        return decades.into_iter().step_by(stride).collect();
    }
    steps
}

#[cfg(test)]
mod log_tests {
    use super::*;

    #[test]
    fn log_axis() {
        assert_eq!(log_pos(10.0, 1.0, 100.0, 0.0, 200.0), 100.0);
        assert_eq!(log_ticks(1.0, 1e4, 10), vec![1.0, 10.0, 100.0, 1e3, 1e4]);
        assert_eq!(log_ticks(1.0, 1e12, 4), vec![1.0, 1e4, 1e8, 1e12]);
        // One 1-2-5 step in range: the finer steps, so the axis reads as a log one.
        assert_eq!(log_ticks(30.0, 90.0, 5), vec![30.0, 50.0, 70.0]);
        assert_eq!(log_ticks(3e10, 1.5e11, 5), vec![3e10, 5e10, 7e10, 1e11, 1.5e11]);
        assert_eq!(log_ticks(2.0, 60.0, 5), vec![2.0, 5.0, 10.0, 20.0, 50.0]);
        assert!(log_ticks(0.0, 1.0, 5).is_empty());
    }
}
