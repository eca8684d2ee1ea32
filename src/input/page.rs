//! What the page shows, beside what it computes: language, byte unit, the view
//! a figure or a slide shows, presentation mode and its deck. Plain data: the
//! command line ignores it, the link carries it (see [`crate::keys`]).

use crate::units::ByteUnit;

choice!(
    /// The page's language.
    Lang {
        Ko = "ko",
        En = "en",
    }
);

impl Lang {
    /// A browser's language tag (`ko-KR`, `en-US`) to a page language.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let tag = tag.trim().to_ascii_lowercase();
        Lang::ALL.iter().copied().find(|l| tag.starts_with(l.as_str()))
    }
}

choice!(
    /// One part of the calculator, shown alone as a figure (`embed=1`) or a
    /// slide (`present=1`). The first eight follow the article's sections.
    View {
        /// "Compute Requirements": 6PD, days, cost.
        Compute = "compute",
        /// "Compute-optimal": D/P against 20 and the 200B floor.
        Chinchilla = "chinchilla",
        /// "Inference": weights × 1.2.
        Inference = "inference",
        /// "Model Parameters", "Optimizer States", "Gradients": bytes per parameter.
        ModelStates = "model-states",
        /// "Activations and Batch Size".
        Activations = "activations",
        /// "Total Training Memory": the total against the GPU's capacity.
        Memory = "memory",
        /// "Sharded Optimizers": ZeRO 0–3 side by side.
        Zero = "zero",
        /// "3D Parallelism".
        ThreeD = "3d",
        /// The project's own: the planner.
        Planner = "planner",
        /// The project's own: sweeps.
        Sweeps = "sweeps",
        /// The project's own: floating-point formats.
        Fp = "fp",
        /// The project's own: serving's time, users and cost (Kipply's inference arithmetic).
        Serving = "serving",
        /// The project's own: full fine-tuning, LoRA and QLoRA side by side.
        Finetune = "finetune",
    }
);

impl View {
    /// The project's own views, beyond the article's sections.
    pub fn is_project(self) -> bool {
        matches!(self, View::Planner | View::Sweeps | View::Fp | View::Serving | View::Finetune)
    }
}

/// Options of the page itself, not of the calculation.
#[derive(Clone, Debug, PartialEq)]
pub struct PageOptions {
    /// `None`: follow the browser's language.
    pub lang: Option<Lang>,
    pub units: ByteUnit,
    /// A figure for another page: one view, no site chrome.
    pub embed: bool,
    /// The view a figure shows, or the section the full page opens on.
    pub view: Option<View>,
    /// Presentation mode: one view per slide.
    pub present: bool,
    /// The slides, by preset or view name; empty: the default deck.
    pub deck: Vec<String>,
    /// The current slide, from 1.
    pub slide: u64,
    /// The value typed into the floating-point explorer (0.1 until one is).
    pub fp: Option<String>,
}

impl Default for PageOptions {
    fn default() -> Self {
        PageOptions {
            lang: None,
            units: ByteUnit::Gb,
            embed: false,
            view: None,
            present: false,
            deck: Vec::new(),
            slide: 1,
            fp: Some("0.1".into()),
        }
    }
}
