//! Charts: plain geometry (tested natively), the SVG markup and its view,
//! the theme, and the two chart kinds the views draw.

pub mod geometry;
pub mod line_chart;
pub mod stacked_bars;
pub mod svg;
pub mod theme;
