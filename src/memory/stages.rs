//! Pipeline stages: each rank's layers, model chunks and micro-batches in
//! flight under GPipe, 1F1B and interleaved 1F1B, from an even split, the
//! given first and last stages, or Megatron-LM's layout string; and the
//! heaviest of them.

use super::{stage_memory, MemoryBreakdown};
use crate::config::{Config, Schedule};

/// One pipeline stage: its place, its layers, which ends of the model it
/// holds, and how many micro-batches' activations it keeps at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    /// From 0.
    pub index: u64,
    /// The rank's layers (all its virtual stages).
    pub layers: u64,
    /// Holds the input embedding.
    pub first: bool,
    /// Holds the output layer and the loss.
    pub last: bool,
    /// Multi-token prediction modules on this rank (the last stage's, unless `pp-layout` places them).
    pub mtp: u64,
    /// Forwards in flight: 1F1B's stage i keeps min(m, p − i) micro-batches,
    /// GPipe all m (Narayanan et al. 2021, §2.2); one without pipelining.
    /// Interleaved (`chunks` v > 1): the model chunks' forwards in flight
    /// (see [`interleaved_in_flight`]).
    pub in_flight: u64,
    /// Virtual stages (model chunks) on this rank: `vpp`, 1 without interleaving.
    pub chunks: u64,
    /// Layers' activations held: over the rank's chunks, each chunk's forwards
    /// in flight × its layers (`in_flight` × `layers` without interleaving).
    pub layer_forwards: u64,
    /// Forwards in flight at the chunk that holds the embedding, the loss and
    /// the MTP modules (`in_flight` without interleaving).
    pub embedding_in_flight: u64,
    pub loss_in_flight: u64,
    pub mtp_in_flight: u64,
}

/// Interleaved 1F1B (Narayanan et al. 2021, §2.2; Megatron-LM's
/// `forward_backward_pipelining_with_interleaving`): rank i runs
/// (p − i − 1)·2 + (v − 1)·p warm-up forwards of its v model chunks and one
/// more before its first backward, at most m·v; after that each forward
/// follows a backward. Forward k runs chunk ⌊k/p⌋ mod v of micro-batch
/// ⌊k/(p·v)⌋·p + k mod p. Returns the forwards in flight, and those of `chunk`.
/// On the first stage this is (1 + (p − 1)/(p·v)) times 1F1B's p micro-batches
/// of L/p layers (Korthikanti et al. 2022, §4.2.3).
///
/// Counted by rounds, not forward by forward: round g runs `chunk` for the
/// forwards k = (g·v + chunk)·p + r, r < p, of micro-batches g·p + r, so it
/// counts the r below p, below what is left of the warm-up, and below m − g·p.
/// (The planner asks this for every rank of every layout it weighs; the loop
/// over every forward was 84 % of Llama 3 70B's search.)
pub fn interleaved_in_flight(p: u64, v: u64, m: u64, rank: u64, chunk: u64) -> (u64, u64) {
    let warm = ((p - rank - 1) * 2 + (v - 1) * p + 1).min(m * v);
    let mut of_chunk = 0;
    let mut g = 0;
    while (g * v + chunk) * p < warm {
        of_chunk += p.min(warm - (g * v + chunk) * p).min(m.saturating_sub(g * p));
        g += 1;
    }
    (warm, of_chunk)
}

/// The layers of stage `i` of `p`: `pp-layout`'s where given; else
/// `pp-first-layers` and `pp-last-layers` where given, the rest spread evenly
/// over the other stages, one more to each of the first where they do not
/// divide (126 layers on 16 stages: 14 of 8, then 2 of 7).
fn stage_layers(c: &Config, i: u64) -> u64 {
    let (l, p) = (c.arch.layers, c.layout.pp.max(1));
    if p == 1 {
        return l;
    }
    if let Some(layout) = &c.pp_layout {
        return layout.of_rank(p, i).map(|s| s.layers).sum();
    }
    let (first, last) = (c.pp_first_layers, c.pp_last_layers);
    match (i, first, last) {
        (0, Some(f), _) => return f,
        (i, _, Some(z)) if i == p - 1 => return z,
        _ => {}
    }
    // The stages between (and the ends not given) share what is left evenly.
    let rest = l.saturating_sub(first.unwrap_or(0) + last.unwrap_or(0));
    let start = u64::from(first.is_some());
    let shared = p - start - u64::from(last.is_some());
    if shared == 0 {
        return 0;
    }
    let j = i - start;
    rest / shared + u64::from(j < rest % shared)
}

/// The layers of the stages before stage `i` (< p): Σ [`stage_layers`] over
/// r < i, in closed form without a `pp-layout` (the even split's first j
/// shared stages hold j·⌊n/s⌋ + min(j, n mod s)), so a stage's chunks cost the
/// same on 2 stages as on 128.
fn layers_before(c: &Config, i: u64) -> u64 {
    let (l, p) = (c.arch.layers, c.layout.pp.max(1));
    if p == 1 || c.pp_layout.is_some() {
        return (0..i.min(p)).map(|r| stage_layers(c, r)).sum();
    }
    let (first, last) = (c.pp_first_layers, c.pp_last_layers);
    let start = u64::from(first.is_some());
    let shared = p - start - u64::from(last.is_some());
    let rest = l.saturating_sub(first.unwrap_or(0) + last.unwrap_or(0));
    let head = if i > 0 { first.unwrap_or(0) } else { 0 };
    // The shared stages among the first i: ranks start .. start + shared.
    let j = i.min(start + shared).saturating_sub(start);
    let even = rest.checked_div(shared).map_or(0, |each| j * each + j.min(rest % shared));
    head + even
}

/// Whether `c`'s layers lay out on its stages: every stage at least one layer,
/// the given first and last stages' within the model, and with `vpp` v > 1 each
/// stage's layers a multiple of v (Megatron-LM's checks). A `pp-layout` is
/// checked when it is read ([`crate::pp_layout::PpLayout::fits`]).
pub fn stages_lay_out(c: &Config) -> bool {
    let (l, p, v) = (c.arch.layers, c.layout.pp.max(1), c.layout.vpp.max(1));
    if p == 1 || c.pp_layout.is_some() {
        return true;
    }
    let given = c.pp_first_layers.unwrap_or(0) + c.pp_last_layers.unwrap_or(0);
    let shared = p - u64::from(c.pp_first_layers.is_some()) - u64::from(c.pp_last_layers.is_some());
    // With both ends given on two stages they are the whole model; otherwise they leave each other stage a layer.
    let room = if shared == 0 { given == l } else { given + shared <= l };
    room && (0..p).map(|i| stage_layers(c, i)).all(|n| n >= 1 && n.is_multiple_of(v))
}

/// One model chunk of a rank: what it builds and its forwards in flight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chunk {
    /// Its first layer's index in the model (from 0) and its layers.
    pub first_layer: u64,
    pub layers: u64,
    pub embedding: bool,
    pub mtp: u64,
    pub loss: bool,
    pub forwards: u64,
}

/// The model chunks of stage `i`, in order: `pp-layout`'s virtual stages, or
/// the stage's layers split evenly into `vpp` chunks with the embedding in the
/// first stage's first chunk and the loss and the MTP modules in the last
/// stage's last. Each with its forwards in flight under the schedule.
pub fn chunks(c: &Config, i: u64) -> Vec<Chunk> {
    let (m, p) = (c.grad_accum, c.layout.pp.max(1));
    let i = i.min(p - 1);
    let interleaved = p > 1 && c.schedule == Schedule::OneFOneB;
    let forwards = |v: u64, chunk: u64| match c.schedule {
        _ if p == 1 => 1,
        Schedule::OneFOneB if v > 1 => interleaved_in_flight(p, v, m, i, chunk).1,
        // ZB-H1 keeps 1F1B's forwards in flight (Qi et al. 2024, §3: the same peak memory).
        Schedule::OneFOneB | Schedule::Zb1p | Schedule::DualPipe => m.min(p - i),
        Schedule::Gpipe => m,
    };
    match &c.pp_layout {
        // DualPipe: rank i holds stage i of the forward direction and stage p − 1 − i of the
        // reverse one, p + 1 micro-batches' activations over the two (its README's table).
        None if p > 1 && c.schedule == Schedule::DualPipe => {
            let held = (p + 1).min(m);
            [i, p - 1 - i]
                .into_iter()
                .enumerate()
                .map(|(k, s)| Chunk {
                    first_layer: layers_before(c, s),
                    layers: stage_layers(c, s),
                    embedding: s == 0,
                    mtp: if s == p - 1 { c.arch.mtp_layers } else { 0 },
                    loss: s == p - 1,
                    forwards: if k == 0 { held.div_ceil(2) } else { held / 2 },
                })
                .collect()
        }
        Some(layout) if p > 1 => {
            let v = layout.stages.len() as u64 / p;
            let v = if interleaved { v } else { 1 };
            // Virtual stages build consecutive layers: each starts where the ones before it end.
            let starts: Vec<u64> = layout
                .stages
                .iter()
                .scan(0, |next, s| {
                    let start = *next;
                    *next += s.layers;
                    Some(start)
                })
                .collect();
            layout
                .of_rank(p, i)
                .enumerate()
                .map(|(k, s)| Chunk {
                    first_layer: starts[k * p as usize + i as usize],
                    layers: s.layers,
                    embedding: s.embedding,
                    mtp: s.mtp,
                    loss: s.loss,
                    forwards: forwards(v, k as u64),
                })
                .collect()
        }
        _ => {
            let v = if interleaved { c.layout.vpp.max(1) } else { 1 };
            let layers = stage_layers(c, i);
            // Virtual stage j = k·p + r is chunk k of rank r, of stage_layers(r)/v layers:
            // it starts after k rounds of every rank's chunk and this round's earlier ranks.
            // With one chunk per rank (k = 0) only the earlier ranks place it.
            let (before, earlier_ranks) = if v == 1 {
                (0, layers_before(c, i))
            } else {
                let of = |r: u64| stage_layers(c, r) / v;
                ((0..p).map(of).sum(), (0..i).map(of).sum())
            };
            (0..v)
                .map(|k| {
                    let loss = i == p - 1 && k == v - 1;
                    Chunk {
                        first_layer: k * before + earlier_ranks,
                        layers: layers / v,
                        embedding: i == 0 && k == 0,
                        mtp: if loss { c.arch.mtp_layers } else { 0 },
                        loss,
                        forwards: forwards(v, k),
                    }
                })
                .collect()
        }
    }
}

/// Stage `i` of `c`'s pipeline ([`stage_layers`], its micro-batches in flight).
pub fn stage(c: &Config, i: u64) -> Stage {
    let (m, p) = (c.grad_accum, c.layout.pp.max(1));
    let i = i.min(p - 1);
    let chunks = chunks(c, i);
    let v = chunks.len() as u64;
    let in_flight = match c.schedule {
        _ if p == 1 => 1,
        Schedule::OneFOneB if v > 1 => interleaved_in_flight(p, v, m, i, 0).0,
        Schedule::OneFOneB | Schedule::Zb1p => m.min(p - i),
        Schedule::DualPipe => (p + 1).min(m),
        Schedule::Gpipe => m * v,
    };
    let at = |holds: fn(&Chunk) -> bool| chunks.iter().find(|k| holds(k)).map_or(0, |k| k.forwards);
    Stage {
        index: i,
        layers: chunks.iter().map(|k| k.layers).sum(),
        first: chunks.iter().any(|k| k.embedding),
        last: chunks.iter().any(|k| k.loss),
        mtp: chunks.iter().map(|k| k.mtp).sum(),
        in_flight,
        chunks: v,
        layer_forwards: chunks.iter().map(|k| k.forwards * k.layers).sum(),
        embedding_in_flight: at(|k| k.embedding),
        loss_in_flight: at(|k| k.loss),
        mtp_in_flight: at(|k| k.mtp > 0),
    }
}

/// Every stage of the pipeline, first to last (the page and the JSON; the
/// verdict needs only [`peak_stage`]).
pub fn stages(c: &Config) -> impl Iterator<Item = Stage> + '_ {
    (0..c.layout.pp.max(1)).map(move |i| stage(c, i))
}

/// The heaviest stage and its memory. Only three can be: the first (the most
/// layers and micro-batches in flight, and the embedding), the second (the
/// heaviest of the middle ones, which hold no end), and the last (the output
/// layer and the loss); a stage between never holds more than the second.
/// With a `pp-layout`, every stage is weighed.
pub fn peak_stage(c: &Config) -> (Stage, MemoryBreakdown) {
    let p = c.layout.pp.max(1);
    let first = stage(c, 0);
    let mut best = (first, stage_memory(c, &first));
    // A `pp-layout` may load any stage most, and so may DualPipe's pairs of stages.
    let any = c.pp_layout.is_some() || c.schedule == Schedule::DualPipe;
    let candidates: Vec<u64> = if any { (1..p).collect() } else { vec![1, p - 1] };
    for i in candidates.into_iter().filter(|&i| i > 0 && i < p) {
        let s = stage(c, i);
        let m = stage_memory(c, &s);
        if m.total() > best.1.total() {
            best = (s, m);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The count by rounds is the count forward by forward (Megatron-LM's
    /// schedule: forward k is chunk ⌊k/p⌋ mod v of micro-batch ⌊k/(p·v)⌋·p + k mod p).
    #[test]
    fn interleaved_counts_by_rounds_as_by_forwards() {
        for p in 1..=9u64 {
            for v in 1..=5u64 {
                for m in 1..=3 * p + 2 {
                    for rank in 0..p {
                        let warm = ((p - rank - 1) * 2 + (v - 1) * p + 1).min(m * v);
                        for chunk in 0..v {
                            let by_forwards = (0..warm)
                                .filter(|k| (k / p) % v == chunk && (k / (p * v)) * p + k % p < m)
                                .count() as u64;
                            assert_eq!(
                                interleaved_in_flight(p, v, m, rank, chunk),
                                (warm, by_forwards),
                                "p {p} v {v} m {m} rank {rank} chunk {chunk}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// The closed form of the layers before a stage is the sum of the stages' layers,
    /// for every split the keys allow: even, with either end given, with both.
    #[test]
    fn layers_before_sums_the_stages_layers() {
        let mut c = Config::default();
        for l in [1, 2, 7, 32, 61, 80, 126, 128] {
            for p in [1, 2, 3, 4, 7, 8, 16] {
                for (first, last) in
                    [(None, None), (Some(1), None), (None, Some(2)), (Some(3), Some(1)), (Some(l / 2), Some(l - l / 2))]
                {
                    c.arch.layers = l;
                    c.layout.pp = p;
                    c.pp_first_layers = first;
                    c.pp_last_layers = last;
                    for i in 0..p {
                        let sum: u64 = (0..i).map(|r| stage_layers(&c, r)).sum();
                        assert_eq!(layers_before(&c, i), sum, "L {l} p {p} first {first:?} last {last:?} i {i}");
                    }
                }
            }
        }
    }
}
