//! The parts of a GPU's memory, as an array indexed by [`Part`]: every
//! output (the JSON, the table, the legend, the bars, the receipt) iterates
//! [`Part::ALL`].

use crate::units::Bytes;
use serde::Serialize;

/// One part of a GPU's memory: a bar segment, a table row, a JSON field. A
/// new part is a row here and its labels: the breakdown, the JSON, the table,
/// the legend, the bars and the command line's receipt iterate [`Part::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    Model,
    Gradients,
    Optimizer,
    Activations,
    /// The loss's logits on the last stage ([`logit_terms`]).
    Logits,
    /// The framework's buffers ([`buffer_terms`]).
    Buffers,
    LiveParams,
    /// Post-training's frozen models: the reference policy and the reward model's weights.
    Frozen,
    /// Post-training's rollout engine: its share of the GPU, or the generation's KV cache.
    Rollout,
    /// What the formulas leave out: the reserve (CUDA context, NCCL, framework) and fragmentation.
    Reserve,
}

impl Part {
    /// How many parts there are.
    pub const COUNT: usize = 10;
    /// Stacking order, bottom first.
    pub const ALL: [Part; Part::COUNT] = [
        Part::Model,
        Part::Gradients,
        Part::Optimizer,
        Part::Activations,
        Part::Logits,
        Part::Buffers,
        Part::LiveParams,
        Part::Frozen,
        Part::Rollout,
        Part::Reserve,
    ];

    /// The field's name in the JSON's `per_gpu_bytes`.
    pub fn json_name(self) -> &'static str {
        match self {
            Part::Model => "model",
            Part::Gradients => "gradients",
            Part::Optimizer => "optimizer",
            Part::Activations => "activations",
            Part::Logits => "logits",
            Part::Buffers => "buffers",
            Part::LiveParams => "zero3_live_params",
            Part::Frozen => "frozen_models",
            Part::Rollout => "rollout",
            Part::Reserve => "reserve",
        }
    }

    /// Its name on the page: the text key of its label and the browser
    /// contract's `data-testid` ("part-model", …, "part-zero3-live-params").
    pub fn key(self) -> &'static str {
        match self {
            Part::Model => "part-model",
            Part::Gradients => "part-gradients",
            Part::Optimizer => "part-optimizer",
            Part::Activations => "part-activations",
            Part::Logits => "part-logits",
            Part::Buffers => "part-buffers",
            Part::LiveParams => "part-zero3-live-params",
            Part::Frozen => "part-frozen-models",
            Part::Rollout => "part-rollout",
            Part::Reserve => "part-reserve",
        }
    }

    /// Its name in English (the command line's receipt; the page's labels are its own).
    pub fn english(self) -> &'static str {
        match self {
            Part::Model => "weights",
            Part::Gradients => "gradients",
            Part::Optimizer => "optimizer states",
            Part::Activations => "activations",
            Part::Logits => "logits (loss)",
            Part::Buffers => "framework buffers",
            Part::LiveParams => "ZeRO-3 live params",
            Part::Frozen => "frozen models (reference, reward)",
            Part::Rollout => "rollout engine",
            Part::Reserve => "reserve, fragmentation",
        }
    }

    /// Whether the part is a model state (the ZeRO paper's weights, gradients and optimizer states).
    pub fn is_model_state(self) -> bool {
        matches!(self, Part::Model | Part::Gradients | Part::Optimizer)
    }
}

/// The bars of one GPU's memory, one amount per [`Part`]: parts map one-to-one
/// to the chart's segments; the total is derived, never stored.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MemoryBreakdown([Bytes; Part::COUNT]);

impl std::ops::Index<Part> for MemoryBreakdown {
    type Output = Bytes;
    fn index(&self, part: Part) -> &Bytes {
        &self.0[part as usize]
    }
}

impl std::ops::IndexMut<Part> for MemoryBreakdown {
    fn index_mut(&mut self, part: Part) -> &mut Bytes {
        &mut self.0[part as usize]
    }
}

impl MemoryBreakdown {
    pub fn total(&self) -> Bytes {
        self.0.iter().copied().sum()
    }
    /// Weights, gradients and optimizer states (the ZeRO paper's "model states").
    pub fn model_states(&self) -> Bytes {
        Part::ALL.iter().filter(|p| p.is_model_state()).map(|&p| self[p]).sum()
    }
    /// One part.
    pub fn get(&self, part: Part) -> Bytes {
        self[part]
    }
    /// Segments in stacking order, with their parts.
    pub fn parts(&self) -> [(Part, Bytes); Part::COUNT] {
        Part::ALL.map(|p| (p, self[p]))
    }
}

/// The JSON's `per_gpu_bytes`: every part by its name, then the total.
impl Serialize for MemoryBreakdown {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(Part::COUNT + 1))?;
        for (part, bytes) in self.parts() {
            map.serialize_entry(part.json_name(), &bytes.get())?;
        }
        map.serialize_entry("total", &self.total().get())?;
        map.end()
    }
}
