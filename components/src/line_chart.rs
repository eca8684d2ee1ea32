//! Line charts on log axes (the sweeps), drawn with plotters primitives in
//! pixel coordinates from [`crate::geometry`], text through the 2D context:
//! a dashed capacity line, a marker at the current configuration.

use crate::bind::text;
use crate::geometry::{log_pos, log_ticks, Area};
use crate::painter::{Align, Baseline};
use crate::stacked_bars::{css_color, drawn_canvas, prefers_dark, Surface, PALETTE};
use leptos::prelude::*;
use plotters::prelude::*;
use tmath::units::{format_count, format_sig, ByteUnit};

/// One line.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    /// Index into the bar palette.
    pub color: usize,
}

/// What the y axis counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum YAxis {
    Bytes(ByteUnit),
    Days,
}

impl YAxis {
    fn label(self, y: f64) -> String {
        match self {
            YAxis::Bytes(u) => format!("{} {}", format_sig(y / u.bytes()), u.symbol()),
            YAxis::Days => format!("{} d", format_sig(y)),
        }
    }
}

/// Everything one drawing needs (both axes logarithmic).
#[derive(Clone, Debug, PartialEq)]
pub struct LineScene {
    pub series: Vec<Series>,
    pub y: YAxis,
    /// A dashed horizontal line (the GPU's memory).
    pub capacity: Option<f64>,
    /// The current configuration's x.
    pub marker: Option<f64>,
}

fn bounds(points: impl Iterator<Item = (f64, f64)>) -> Option<(f64, f64, f64, f64)> {
    points.filter(|(x, y)| x.is_finite() && y.is_finite() && *x > 0.0 && *y > 0.0).fold(None, |acc, (x, y)| {
        Some(match acc {
            None => (x, x, y, y),
            Some((x0, x1, y0, y1)) => (x0.min(x), x1.max(x), y0.min(y), y1.max(y)),
        })
    })
}

fn px(x: f64) -> i32 {
    x.round() as i32
}

fn draw(surface: &Surface, s: &LineScene) -> Option<()> {
    let Surface { root, text, width: w, height: h, dpr } = surface;
    let (w, h, dpr) = (*w, *h, *dpr);
    let (x0, x1, mut y0, mut y1) = bounds(s.series.iter().flat_map(|l| l.points.iter().copied()))?;
    if let Some(c) = s.capacity {
        y0 = y0.min(c);
        y1 = y1.max(c);
    }
    let (y0, y1) = (y0 / 1.3, y1 * 1.3);
    let x1 = if x1 > x0 { x1 } else { x0 * 10.0 };
    let dark = prefers_dark();
    let (fg, grid, line_css) = if dark {
        (RGBColor(230, 230, 230), RGBColor(70, 70, 70), "rgb(255,99,99)")
    } else {
        (RGBColor(30, 30, 30), RGBColor(225, 225, 225), "rgb(200,0,0)")
    };
    let fg_css = if dark { "rgb(230,230,230)" } else { "rgb(30,30,30)" };
    root.fill(&if dark { RGBColor(18, 20, 23) } else { WHITE }).ok()?;
    let a = Area { left: 64.0 * dpr, top: 10.0 * dpr, right: w - 10.0 * dpr, bottom: h - 24.0 * dpr };
    let x = |v: f64| log_pos(v, x0, x1, a.left, a.right);
    let y = |v: f64| log_pos(v, y0, y1, a.bottom, a.top);
    for t in log_ticks(y0, y1, 5) {
        root.draw(&PathElement::new(vec![(px(a.left), px(y(t))), (px(a.right), px(y(t)))], grid.stroke_width(1)))
            .ok()?;
    }
    for t in log_ticks(x0, x1, 7) {
        root.draw(&PathElement::new(vec![(px(x(t)), px(a.top)), (px(x(t)), px(a.bottom))], grid.stroke_width(1)))
            .ok()?;
    }
    root.draw(&PathElement::new(
        vec![(px(a.left), px(a.top)), (px(a.left), px(a.bottom)), (px(a.right), px(a.bottom))],
        fg.stroke_width(1),
    ))
    .ok()?;
    if let Some(c) = s.capacity {
        let yc = px(y(c)) as f64;
        text.capacity_line(a.left.round(), a.right.round(), yc, line_css);
    }
    if let Some(m) = s.marker.filter(|m| *m >= x0 && *m <= x1) {
        root.draw(&PathElement::new(
            vec![(px(x(m)), px(a.top)), (px(x(m)), px(a.bottom))],
            fg.mix(0.5).stroke_width(dpr as u32),
        ))
        .ok()?;
    }
    for l in &s.series {
        let color = PALETTE[l.color.min(PALETTE.len() - 1)];
        let points: Vec<(i32, i32)> =
            l.points.iter().filter(|(_, v)| *v > 0.0).map(|&(px_, py)| (px(x(px_)), px(y(py)))).collect();
        root.draw(&PathElement::new(points, color.stroke_width((2.5 * dpr) as u32))).ok()?;
    }
    root.present().ok()?;
    for t in log_ticks(y0, y1, 5) {
        text.text(&s.y.label(t), a.left - 5.0 * dpr, y(t), Align::Right, Baseline::Middle, false, fg_css);
    }
    for t in log_ticks(x0, x1, 7) {
        text.text(&format_count(t), x(t), a.bottom + 4.0 * dpr, Align::Center, Baseline::Top, false, fg_css);
    }
    Some(())
}

#[component]
pub fn LineChart(
    /// What to draw.
    scene: Signal<LineScene>,
    /// A text summary for screen readers.
    label: Signal<String>,
    /// `data-testid` of the canvas.
    testid: &'static str,
    /// CSS height in pixels.
    #[prop(default = 220.0)]
    height: f64,
) -> impl IntoView {
    let canvas = drawn_canvas(height, 10.5, move |surface| {
        draw(surface, &scene.get());
    });
    // The legend in HTML: readable text, not colour alone.
    let legend = move || {
        let s = scene.get();
        (s.series.len() > 1).then(|| {
            s.series
                .into_iter()
                .map(|l| {
                    view! {
                        <li>
                            <span class="swatch" style=format!("background:{}", css_color(l.color)) aria-hidden="true"></span>
                            {l.label}
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <div class="chart">
            <canvas node_ref=canvas data-testid=testid role="img" aria-label=text(move || label.get())></canvas>
        </div>
        <ul class="chart-legend">{legend}</ul>
    }
}
