//! How each key is edited on the page: the widget, a slider's scale, the unit
//! shown after the entry. The key's kind (in the core's table) decides the
//! rest; this is only what the kind cannot say.

use super::scale::Scale;
use tmath::keys::{Kind, K};

/// Which options a select offers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Options {
    /// The key's own choices, each labelled in the page's language where a label exists.
    Choices,
    /// The catalogue's models, by their published names.
    Models,
    /// The catalogue's GPUs, by their published names.
    Gpus,
    /// Divisors of the heads and the key/value heads (tensor parallelism), up to a limit.
    HeadDivisors,
    /// Pipeline degrees: divisors of the layers and powers of two, up to a limit.
    LayerDivisors,
    /// ZeRO stages 0–3.
    ZeroStages,
}

/// The control of a key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Widget {
    /// A text entry taking the core's number forms, a slider beside it when `scale` is given.
    Number {
        scale: Option<Scale>,
        unit: &'static str,
        marks: bool,
    },
    Select(Options),
    Checkbox,
    /// Plain text (the floating-point explorer's value).
    Text,
}

/// The widget of `k`.
pub fn widget(k: K) -> Widget {
    let number = |scale, unit| Widget::Number { scale, unit, marks: false };
    match k {
        K::Params => number(Some(Scale::Log { min: 1e7, max: 2e12 }), ""),
        K::Tokens => Widget::Number { scale: Some(Scale::Log { min: 1e9, max: 1e14 }), unit: "", marks: true },
        K::SeqLen => number(Some(Scale::Pow2 { min: 7, max: 17 }), ""),
        K::MicroBatch => number(Some(Scale::Pow2 { min: 0, max: 6 }), ""),
        K::Dp | K::Gpus => number(Some(Scale::Pow2 { min: 0, max: 14 }), ""),
        K::GradAccum => number(Some(Scale::Pow2 { min: 0, max: 9 }), ""),
        // The driver's total, in the unit it is read in (an "80 GB" A100 reports 80 GiB).
        K::GpuMem => number(None, "GiB"),
        K::ReserveGb => number(None, "GB"),
        K::Tflops => number(Some(Scale::Log { min: 10.0, max: 3000.0 }), "TFLOP/s"),
        K::UsdPerGpuHour => number(None, "USD"),
        K::FragmentationPct => number(None, "%"),
        K::IntraNodeGbs | K::InterNodeGbs | K::HbmGbs => number(None, "GB/s"),
        K::ServeTflops => number(None, "TFLOP/s"),
        K::ServeTp | K::ServePp => number(Some(Scale::Pow2 { min: 0, max: 4 }), ""),
        K::PromptTokens => number(Some(Scale::Pow2 { min: 4, max: 17 }), ""),
        K::OutputTokens => number(Some(Scale::Pow2 { min: 0, max: 15 }), ""),
        K::Model => Widget::Select(Options::Models),
        K::Gpu => Widget::Select(Options::Gpus),
        K::Tp => Widget::Select(Options::HeadDivisors),
        K::Pp => Widget::Select(Options::LayerDivisors),
        K::Zero => Widget::Select(Options::ZeroStages),
        _ => match k.row().kind {
            Kind::Switch => Widget::Checkbox,
            Kind::Choice(_) | Kind::List(_) => Widget::Select(Options::Choices),
            Kind::Text { .. } => Widget::Text,
            Kind::Real { .. } | Kind::Whole { .. } => number(None, ""),
        },
    }
}

/// Whether the entry writes a count with a suffix (7B, 1.4T) rather than plainly.
pub fn counted(k: K) -> bool {
    matches!(k, K::Params | K::ActiveParams | K::Tokens | K::MaxLiveParams)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slider's scale fits inside the key's bounds, so no slider position is rejected.
    #[test]
    fn sliders_stay_inside_the_keys_bounds() {
        for &k in K::ALL {
            if let Widget::Number { scale: Some(scale), .. } = widget(k) {
                let (lo, hi) = scale.positions();
                for v in [scale.value(lo), scale.value(hi)] {
                    assert!(k.row().parse(&format!("{v}")).is_ok(), "{}: {v}", k.name());
                }
            }
        }
    }
}
