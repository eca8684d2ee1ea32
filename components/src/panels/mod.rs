//! The views: each is the result and the chart of one section of the article
//! (or one of the project's own tools), drawn for the full page, a figure or
//! a slide. The shell puts a title, controls and an embed button around them.

pub mod activations;
pub mod breakdown_table;
pub mod chinchilla;
pub mod compute;
pub mod finetune;
pub mod fp;
pub mod inference;
pub mod memory;
pub mod model_states;
pub mod planner;
pub mod serving;
pub mod stages;
pub mod sweeps;
pub mod three_d;
pub mod validation;
pub mod zero;

use crate::charts::svg::{ChartSize, FontSize};
use leptos::prelude::*;
use tmath::page::View;
use tmath::presets::Variant;

/// Where a view is drawn: it decides the chart's size and its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A panel of the full page: fixed chart heights.
    Page,
    /// A figure in another page: the chart fills what the figure's height leaves.
    Figure,
    /// A slide: the chart fills the slide, text readable from the back row.
    Slide,
}

impl Mode {
    /// The chart's size: `page` pixels on the full page, else what the layout gives it.
    pub fn chart(self, page: f64) -> ChartSize {
        match self {
            Mode::Page => ChartSize::Fixed(page),
            Mode::Figure | Mode::Slide => ChartSize::Fill,
        }
    }
    /// The chart's text size: a slide's grows with the screen, as its other text does.
    pub fn font(self) -> FontSize {
        match self {
            Mode::Page => FontSize::Px(11.5),
            Mode::Figure => FontSize::Px(12.0),
            Mode::Slide => FontSize::Screen(20.0),
        }
    }
}

/// The body of `view` in `mode`; `variants` are a comparison slide's bars (the memory view).
pub fn body(view: View, mode: Mode, variants: &'static [Variant]) -> AnyView {
    match view {
        View::Memory => view! { <memory::MemoryView mode=mode variants=variants /> }.into_any(),
        View::Zero => view! { <zero::ZeroView mode=mode /> }.into_any(),
        View::Compute => view! { <compute::ComputeView mode=mode /> }.into_any(),
        View::Chinchilla => view! { <chinchilla::ChinchillaView mode=mode /> }.into_any(),
        View::Inference => view! { <inference::InferenceView mode=mode /> }.into_any(),
        View::ModelStates => view! { <model_states::ModelStatesView mode=mode /> }.into_any(),
        View::Activations => view! { <activations::ActivationsView mode=mode /> }.into_any(),
        View::ThreeD => view! { <three_d::ThreeDView mode=mode /> }.into_any(),
        View::Planner => view! { <planner::PlannerView mode=mode /> }.into_any(),
        View::Sweeps => view! { <sweeps::SweepsView mode=mode /> }.into_any(),
        View::Fp => view! { <fp::FpView mode=mode /> }.into_any(),
        View::Serving => view! { <serving::ServingView mode=mode /> }.into_any(),
        View::Finetune => view! { <finetune::FinetuneView mode=mode /> }.into_any(),
    }
}
