//! Line charts on a log x axis with plotters (the sweeps): a dashed capacity
//! line, a marker at the current configuration, crisp at any devicePixelRatio.

use crate::stacked_bars::PALETTE;
use leptos::prelude::*;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use tmath::units::{format_count, format_sig, ByteUnit};
use wasm_bindgen::JsCast;

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

/// Everything one drawing needs.
#[derive(Clone, Debug, PartialEq)]
pub struct LineScene {
    pub series: Vec<Series>,
    pub y: YAxis,
    /// A dashed horizontal line (the GPU's memory).
    pub capacity: Option<f64>,
    /// The current configuration's x.
    pub marker: Option<f64>,
    /// Log y axis (days span orders of magnitude).
    pub log_y: bool,
}

fn bounds(points: impl Iterator<Item = (f64, f64)>) -> Option<(f64, f64, f64, f64)> {
    points.filter(|(x, y)| x.is_finite() && y.is_finite() && *x > 0.0).fold(None, |acc, (x, y)| {
        Some(match acc {
            None => (x, x, y, y),
            Some((x0, x1, y0, y1)) => (x0.min(x), x1.max(x), y0.min(y), y1.max(y)),
        })
    })
}

fn draw(
    canvas: web_sys::HtmlCanvasElement,
    s: &LineScene,
    dpr: f64,
    fg: RGBColor,
    grid: RGBColor,
    line: RGBColor,
) -> Option<()> {
    let (x0, x1, y0, y1) = bounds(s.series.iter().flat_map(|l| l.points.iter().copied()))?;
    let y1 = s.capacity.map_or(y1, |c| y1.max(c)) * 1.1;
    let y0 = if s.log_y { (y0 * 0.8).max(1e-9) } else { 0.0 };
    let backend = CanvasBackend::with_canvas_object(canvas)?;
    let root = backend.into_drawing_area();
    root.fill(&TRANSPARENT).ok()?;
    let font = |size: f64| ("system-ui, sans-serif", size * dpr).into_font().color(&fg);
    let y_axis = s.y;
    let x_fmt = |x: &f64| format_count(*x);
    let y_fmt = move |y: &f64| y_axis.label(*y);
    let mut builder = ChartBuilder::on(&root);
    builder.margin((8.0 * dpr) as u32).x_label_area_size((24.0 * dpr) as u32).y_label_area_size((62.0 * dpr) as u32);
    macro_rules! finish {
        ($chart:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .x_labels(6)
                .y_labels(5)
                .x_label_formatter(&x_fmt)
                .y_label_formatter(&y_fmt)
                .label_style(font(10.5))
                .axis_style(fg.stroke_width(1))
                .bold_line_style(grid.stroke_width(1))
                .light_line_style(TRANSPARENT)
                .draw()
                .ok()?;
            if let Some(c) = s.capacity {
                chart
                    .draw_series(std::iter::once(DashedPathElement::new(
                        vec![(x0, c), (x1, c)],
                        (6.0 * dpr) as i32,
                        (4.0 * dpr) as i32,
                        line.stroke_width((2.0 * dpr) as u32),
                    )))
                    .ok()?;
            }
            if let Some(m) = s.marker {
                let y_top = if s.log_y { y1 } else { y1 };
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(m, y0), (m, y_top)],
                        fg.mix(0.5).stroke_width(dpr as u32),
                    )))
                    .ok()?;
            }
            for l in &s.series {
                let color = PALETTE[l.color.min(PALETTE.len() - 1)];
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        l.points.clone(),
                        color.stroke_width((2.5 * dpr) as u32),
                    )))
                    .ok()?
                    .label(l.label.clone())
                    .legend(move |(x, y)| Rectangle::new([(x, y - 4), (x + 14, y + 4)], color.filled()));
            }
            if s.series.len() > 1 {
                chart
                    .configure_series_labels()
                    .label_font(font(10.5))
                    .background_style(WHITE.mix(0.0))
                    .border_style(TRANSPARENT)
                    .position(SeriesLabelPosition::UpperRight)
                    .draw()
                    .ok()?;
            }
        }};
    }
    if s.log_y {
        finish!(builder.build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale()).ok()?);
    } else {
        finish!(builder.build_cartesian_2d((x0..x1).log_scale(), y0..y1).ok()?);
    }
    root.present().ok()
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
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let resized = RwSignal::new(0u32);
    let handle = window_event_listener(leptos::ev::resize, move |_| resized.update(|n| *n = n.wrapping_add(1)));
    on_cleanup(move || handle.remove());
    Effect::new(move |_| {
        resized.track();
        let scene = scene.get();
        let Some(el) = canvas.get() else { return };
        let el: web_sys::HtmlCanvasElement = el.unchecked_into();
        let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
        let css_w = el.parent_element().map_or(360.0, |p| p.client_width() as f64).max(200.0);
        el.set_width((css_w * dpr) as u32);
        el.set_height((height * dpr) as u32);
        let _ = el.set_attribute("style", &format!("width:{css_w}px;height:{height}px"));
        let dark = crate::stacked_bars::prefers_dark();
        let (fg, grid, line) = if dark {
            (RGBColor(230, 230, 230), RGBColor(70, 70, 70), RGBColor(255, 99, 99))
        } else {
            (RGBColor(30, 30, 30), RGBColor(225, 225, 225), RGBColor(200, 0, 0))
        };
        draw(el, &scene, dpr, fg, grid, line);
    });
    view! {
        <div class="chart">
            <canvas node_ref=canvas data-testid=testid role="img" aria-label=move || label.get()></canvas>
        </div>
    }
}
