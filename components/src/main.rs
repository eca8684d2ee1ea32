//! Mounts the calculator. Everything else is in the components.
#![forbid(unsafe_code)]

mod app;
mod breakdown_table;
mod chinchilla_panel;
mod choice_field;
mod compute_panel;
mod controls;
mod ctx;
mod explain;
mod export;
mod field_notes;
mod fp_panel;
mod geometry;
mod header;
mod i18n;
mod line_chart;
mod memory_panel;
mod notices;
mod number_field;
mod panic_page;
mod planner_panel;
mod presets;
mod stacked_bars;
mod state;
mod sweeps_panel;
mod switch_field;
mod teaching_bar;
mod zero_panel;

fn main() {
    panic_page::install();
    leptos::mount::mount_to_body(app::App);
}
