//! What would make a run fit when it does not: full recomputation, optimizer
//! offload, ZeRO-3 on the same GPUs, a shorter sequence, or more GPUs (whole nodes). Each remedy comes
//! with the keys that apply it and its verdict, for the page to offer in one click.

use crate::config::{Config, Offload, Recompute, ZeroStage};
use crate::keys::K;
use crate::memory;
use crate::planner::{self, PlanOptions};

/// One kind of change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// Activation recomputation of every layer.
    FullRecompute,
    /// The optimizer states in CPU memory (ZeRO-Offload, at least ZeRO-1).
    Offload,
    /// ZeRO-3 on the same GPUs, with full recomputation when sharding alone is not enough.
    Zero3,
    /// The longest power-of-two sequence that fits.
    SeqLen(u64),
    /// The fewest GPUs, in whole nodes, that fit.
    Gpus(u64),
    /// A released model fine-tuned with LoRA's adapters instead of every parameter.
    Lora,
    /// The same on an NF4 base (QLoRA).
    Qlora,
}

/// A change and what it gives.
#[derive(Clone, Debug, PartialEq)]
pub struct Remedy {
    pub kind: Kind,
    /// The keys that apply it, as a control would set them.
    pub changes: Vec<(K, String)>,
    /// Whether it fits with the change.
    pub fits: bool,
    /// Per-GPU bytes with the change (the calculator's total, its reserve included).
    pub bytes: f64,
}

fn per_gpu(c: &Config) -> f64 {
    memory::training_memory(c).total().get()
}

/// Remedies for the calculator's configuration, each applied alone to it
/// (none when it fits). The sequence is halved down to 128; the GPU count grows
/// by whole nodes at the current t and p, with ZeRO-3 when sharding is what is missing.
pub fn for_config(c: &Config) -> Vec<Remedy> {
    if per_gpu(c) <= c.system.gpu_mem_bytes {
        return Vec::new();
    }
    let verdict = |kind, changes, alt: Config| {
        let bytes = per_gpu(&alt);
        Remedy { kind, changes, fits: bytes <= alt.system.gpu_mem_bytes, bytes }
    };
    let mut out = Vec::new();
    if c.recompute != Recompute::Full {
        let alt = Config { recompute: Recompute::Full, ..c.clone() };
        out.push(verdict(Kind::FullRecompute, vec![(K::Recompute, Recompute::Full.as_str().into())], alt));
    }
    if c.offload == Offload::None {
        let zero = c.zero.max(ZeroStage::ALL[1]);
        let alt = Config { offload: Offload::Optimizer, zero, ..c.clone() };
        let mut changes = vec![(K::Offload, Offload::Optimizer.as_str().into())];
        if zero != c.zero {
            changes.push((K::Zero, zero.get().to_string()));
        }
        out.push(verdict(Kind::Offload, changes, alt));
    }
    // Sharding on the GPUs at hand before more of them: ZeRO-3, then ZeRO-3 with
    // full recomputation (each kept only when it fits).
    let fits_here = |zero: ZeroStage, recompute: Recompute| {
        let alt = Config { zero, recompute, ..c.clone() };
        (per_gpu(&alt) <= alt.system.gpu_mem_bytes).then_some(alt)
    };
    let (z3, full) = (ZeroStage::ALL[3].max(c.zero), Recompute::Full);
    // ZeRO shards over the data-parallel ranks: with one, it shards nothing.
    if c.zero != z3 && c.layout.dp > 1 {
        if let Some(alt) = fits_here(z3, c.recompute).or_else(|| fits_here(z3, full)) {
            let mut changes = vec![(K::Zero, z3.get().to_string())];
            if alt.recompute != c.recompute {
                changes.push((K::Recompute, alt.recompute.as_str().into()));
            }
            out.push(verdict(Kind::Zero3, changes, alt));
        }
    }
    // A released model (a catalogue entry) trained fully: adapters instead, on a 16-bit and an NF4 base.
    for (kind, alt) in adapters(c) {
        let method = alt.finetune.method.as_str().to_string();
        out.push(verdict(kind, vec![(K::Finetune, method)], alt));
    }
    let seq = std::iter::successors(Some(c.seq_len / 2), |s| Some(s / 2)).take_while(|&s| s >= 128);
    if let Some(s) = seq.clone().find(|&s| {
        let alt = Config { seq_len: s, ..c.clone() };
        per_gpu(&alt) <= alt.system.gpu_mem_bytes
    }) {
        out.push(verdict(Kind::SeqLen(s), vec![(K::SeqLen, s.to_string())], Config { seq_len: s, ..c.clone() }));
    }
    // More data parallelism, in whole nodes, up to 2¹⁴ GPUs: as configured; else
    // with ZeRO-3 (sharding is what is missing), full recomputation (activations
    // do not shrink with d), or both; a combination that already fits on the
    // GPUs at hand is no reason for more of them.
    let mp = c.layout.replica();
    // Per-GPU memory never grows with d (a property test holds it), so the
    // fewest that fit are found by bisection, not by trying every d.
    let candidates: Vec<u64> = (c.layout.dp + 1..=(16384 / mp).max(c.layout.dp))
        .filter(|&d| {
            planner::whole_nodes(mp * d, c.system.gpus_per_node) && (d * c.layout.cp).is_multiple_of(c.layout.ep)
        })
        .collect();
    let more = |zero: ZeroStage, recompute: Recompute| {
        if fits_here(zero, recompute).is_some() {
            return None;
        }
        let at = |d: u64| Config { zero, recompute, ..c.on_layout(crate::config::Layout { dp: d, ..c.layout }) };
        let fits = |d: u64| {
            let alt = at(d);
            per_gpu(&alt) <= alt.system.gpu_mem_bytes
        };
        if !candidates.last().is_some_and(|&d| fits(d)) {
            return None;
        }
        let first = candidates.partition_point(|&d| !fits(d));
        Some(at(candidates[first]))
    };
    let found = more(c.zero, c.recompute)
        .or_else(|| more(z3, c.recompute))
        .or_else(|| more(c.zero, full))
        .or_else(|| more(z3, full));
    if let Some(alt) = found {
        let mut changes = vec![(K::Dp, alt.layout.dp.to_string())];
        if alt.zero != c.zero {
            changes.push((K::Zero, alt.zero.get().to_string()));
        }
        if alt.recompute != c.recompute {
            changes.push((K::Recompute, alt.recompute.as_str().into()));
        }
        out.push(verdict(Kind::Gpus(alt.layout.gpus()), changes, alt));
    }
    out
}

/// Remedies when no layout fits on `n` GPUs (the planner searches every
/// recomputation already): offload, a shorter sequence, or more GPUs; each with
/// the fastest layout that then fits.
pub fn for_layouts(base: &Config, o: &PlanOptions, n: u64) -> Vec<Remedy> {
    let fastest = |c: &Config, n: u64| planner::layouts(c, o, n).into_iter().find(|l| l.fits);
    let with_layout = |kind, mut extra: Vec<(K, String)>, c: &Config, n: u64| {
        fastest(c, n).map(|l| {
            // The virtual stages and the context-parallel degree are said where the layout
            // changes them (most keep v = 1 and the cp given).
            let kept = |k: K, v: &str| match k {
                K::Vpp => v == base.layout.vpp.to_string(),
                K::Cp => v == base.layout.cp.to_string(),
                _ => false,
            };
            let mut changes: Vec<(K, String)> = l
                .to_pairs()
                .into_iter()
                .filter_map(|(k, v)| K::of(k).map(|k| (k, v)))
                .filter(|(k, v)| !kept(*k, v))
                .collect();
            changes.append(&mut extra);
            Remedy { kind, changes, fits: true, bytes: l.needed_bytes }
        })
    };
    let mut out = Vec::new();
    let offloaded = Config { offload: Offload::Optimizer, ..base.clone() };
    out.extend(with_layout(Kind::Offload, vec![(K::Offload, Offload::Optimizer.as_str().into())], &offloaded, n));
    let seq = std::iter::successors(Some(base.seq_len / 2), |s| Some(s / 2)).take_while(|&s| s >= 128);
    out.extend(seq.into_iter().find_map(|s| {
        let c = Config { seq_len: s, ..base.clone() };
        with_layout(Kind::SeqLen(s), vec![(K::SeqLen, s.to_string())], &c, n)
    }));
    // A released model trained fully: its adapters instead, on the same GPUs.
    for (kind, c) in adapters(base) {
        let method = c.finetune.method.as_str().to_string();
        out.extend(with_layout(kind, vec![(K::Finetune, method)], &c, n));
    }
    if let Some(m) = planner::min_gpus(base, o).filter(|&m| m > n) {
        out.extend(with_layout(Kind::Gpus(m), Vec::new(), base, m));
    }
    out
}

/// LoRA on a 16-bit base and QLoRA for a released model (a catalogue entry)
/// trained fully; none otherwise (pre-training has no base to adapt).
fn adapters(c: &Config) -> Vec<(Kind, Config)> {
    use crate::finetune::Finetune;
    if c.model.is_none() || c.finetune.method != Finetune::Full {
        return Vec::new();
    }
    [(Kind::Lora, Finetune::Lora), (Kind::Qlora, Finetune::Qlora)]
        .into_iter()
        .map(|(kind, method)| {
            let mut alt = c.clone();
            alt.finetune = c.finetune.with_method(method);
            (kind, alt)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Settings;

    /// Issue 38: Llama 3 8B fully fine-tuned does not fit one RTX 4090; the
    /// calculator and the planner offer LoRA and QLoRA, and QLoRA fits; a
    /// pre-training run (no released model) is offered neither.
    #[test]
    fn adapters_for_a_released_model() {
        let c = config(&[("model", "llama-3-8b"), ("gpu", "rtx-4090"), ("seq-len", "2048"), ("recompute", "full")]);
        let r = for_config(&c);
        let qlora = r.iter().find(|x| x.kind == Kind::Qlora).unwrap();
        assert!(qlora.fits && qlora.changes == vec![(K::Finetune, "qlora".to_string())], "{qlora:?}");
        assert!(r.iter().any(|x| x.kind == Kind::Lora));
        let planned = for_layouts(&c, &PlanOptions::default(), 1);
        assert!(planned.iter().any(|x| x.kind == Kind::Qlora && x.changes.contains(&(K::Finetune, "qlora".into()))));
        let scratch = config(&[("params", "8B"), ("gpu", "rtx-4090")]);
        assert!(!for_config(&scratch).iter().any(|x| matches!(x.kind, Kind::Lora | Kind::Qlora)));
    }

    fn config(pairs: &[(&str, &str)]) -> Config {
        Settings::from_pairs(pairs.iter().copied()).0.resolve().unwrap()
    }

    /// The lecture's 70B under ZeRO-3 on 8 A100s: recomputation alone cannot
    /// help (140 GB of states), nor more GPUs alone (521 GB of activations);
    /// 16 GPUs with full recomputation do. Every verdict holds when applied.
    #[test]
    fn the_70b_lecture_case() {
        let c = config(&[("model", "llama-2-70b"), ("seq-len", "4096"), ("dp", "8"), ("zero", "3")]);
        let r = for_config(&c);
        let full = r.iter().find(|x| x.kind == Kind::FullRecompute).unwrap();
        assert!(!full.fits);
        let gpus = r.iter().find(|x| matches!(x.kind, Kind::Gpus(_))).unwrap();
        assert_eq!(gpus.kind, Kind::Gpus(16));
        assert!(gpus.fits && gpus.changes.contains(&(K::Recompute, "full".into())), "{gpus:?}");
        for x in &r {
            let mut s =
                Settings::from_pairs([("model", "llama-2-70b"), ("seq-len", "4096"), ("dp", "8"), ("zero", "3")]).0;
            for (k, v) in &x.changes {
                s.set(k.name(), v).unwrap();
            }
            let applied = s.resolve().unwrap();
            assert_eq!(per_gpu(&applied) <= applied.system.gpu_mem_bytes, x.fits, "{x:?}");
        }
        assert!(for_config(&Config { layout: crate::config::Layout::new(1, 1, 16), recompute: Recompute::Full, ..c })
            .is_empty());
    }

    /// 70B on 64 A100s without ZeRO: ZeRO-3 with full recomputation fits on
    /// the 64 at hand, so no remedy asks for more GPUs with that same change.
    #[test]
    fn sharding_on_the_gpus_at_hand_comes_before_more_gpus() {
        let c = config(&[("model", "llama-2-70b"), ("seq-len", "4096"), ("dp", "64")]);
        let r = for_config(&c);
        let z = r.iter().find(|x| x.kind == Kind::Zero3).expect("ZeRO-3 here");
        assert!(z.fits);
        assert_eq!(z.changes, vec![(K::Zero, "3".into()), (K::Recompute, "full".into())]);
        let applied = Config { zero: ZeroStage::ALL[3], recompute: Recompute::Full, ..c.clone() };
        assert_eq!(per_gpu(&applied), z.bytes);
        assert!(!r.iter().any(|x| matches!(x.kind, Kind::Gpus(_))
            && x.changes.contains(&(K::Zero, "3".into()))
            && x.changes.contains(&(K::Recompute, "full".into()))));
    }

    /// Issue 41: "the remedies offer ZeRO-1 on one GPU". ZeRO shards over the data-parallel
    /// ranks: on one GPU no ZeRO stage alone is offered (offloading, which DeepSpeed runs
    /// under ZeRO, is).
    #[test]
    fn no_sharding_remedy_on_one_gpu() {
        let c = config(&[("model", "llama-2-13b"), ("gpus", "1")]);
        let r = for_config(&c);
        assert!(!r.is_empty());
        assert!(r.iter().all(|x| !matches!(x.kind, Kind::Zero3)), "{r:?}");
    }

    #[test]
    fn planner_remedies_fit_and_keep_whole_nodes() {
        let c = config(&[("model", "llama-3-70b"), ("seq-len", "8192"), ("gpu", "a100-40gb")]);
        let o = PlanOptions::default();
        assert!(planner::layouts(&c, &o, 8).iter().all(|l| !l.fits), "nothing fits on 8");
        let r = for_layouts(&c, &o, 8);
        assert!(r.iter().all(|x| x.fits));
        let more = r.iter().find(|x| matches!(x.kind, Kind::Gpus(_))).expect("more GPUs");
        let Kind::Gpus(n) = more.kind else { unreachable!() };
        assert!(planner::whole_nodes(n, 8) && n > 8);
    }
}
