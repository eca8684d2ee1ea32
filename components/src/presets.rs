//! Lecture presets: each a link to a state whose numbers a published source gives.

/// One preset: its label key (i18n), its query, and what it shows.
pub struct Preset {
    pub key: &'static str,
    pub query: &'static str,
}

pub const PRESETS: &[Preset] = &[
    // Transformer Math 101: 7B mixed AdamW = 112 GB of model states; one A100 is not enough.
    Preset { key: "preset-7b", query: "params=7B" },
    // 70B under FSDP/ZeRO-3 on 8 A100s: 16 B/param ÷ 8 ≈ 140 GB per GPU, no fit.
    Preset { key: "preset-70b-8", query: "model=llama-2-70b&seq-len=4096&dp=8&zero=3" },
    // On 16 it fits only with full recomputation.
    Preset { key: "preset-70b-16", query: "model=llama-2-70b&seq-len=4096&dp=16&zero=3&recompute=full" },
    // Llama 3 405B: t = 8 in a node, p = 16, d = 128 on 16 384 H100s (Dubey et al. 2024, Table 4).
    Preset {
        key: "preset-405b",
        query: "model=llama-3-405b&tp=8&pp=16&dp=128&zero=1&recompute=full&sequence-parallel=1&gpu=h100-80gb&grad-accum=16&tokens=15.6T&convention=megatron",
    },
    // GPT-3 175B on 300B tokens: 3.14e23 FLOPs (Brown et al. 2020), on 1024 A100s as Megatron lays it out.
    Preset { key: "preset-gpt3", query: "model=gpt-3-175b&tokens=300B&tp=8&pp=8&dp=16&grad-accum=64&convention=megatron&recompute=selective&sequence-parallel=1" },
    // ZeRO paper: 7.5B on 64 GPUs, ZeRO-1 = 31.4 GB of model states.
    Preset { key: "preset-zero", query: "params=7.5B&dp=64&zero=1" },
    // Korthikanti et al. 2022, Table 3 with sequence parallelism + selective recomputation.
    Preset { key: "preset-megatron-22b", query: "model=megatron-22b&convention=megatron&tp=8&micro-batch=4&recompute=selective&sequence-parallel=1" },
    Preset { key: "preset-megatron-175b", query: "model=megatron-175b&convention=megatron&tp=8&pp=8&grad-accum=64&recompute=selective&sequence-parallel=1" },
    Preset { key: "preset-megatron-530b", query: "model=megatron-530b&convention=megatron&tp=8&pp=35&grad-accum=280&recompute=selective&sequence-parallel=1" },
    Preset { key: "preset-megatron-1t", query: "model=megatron-1t&convention=megatron&tp=8&pp=64&grad-accum=512&recompute=selective&sequence-parallel=1" },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_loads_cleanly() {
        for p in PRESETS {
            let l = crate::state::load(p.query);
            assert!(l.errors.is_empty(), "{}: {:?}", p.key, l.errors);
            assert!(l.settings.resolve().is_ok(), "{}", p.key);
            assert_ne!(crate::i18n::tr(crate::i18n::Lang::Ko, p.key), "?", "{}", p.key);
        }
    }
}
