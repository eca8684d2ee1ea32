//! Charts: plain geometry (tested natively), the canvas plumbing, the theme,
//! and the two chart kinds the views draw.

pub mod canvas;
pub mod geometry;
pub mod line_chart;
pub mod painter;
pub mod stacked_bars;
pub mod theme;
