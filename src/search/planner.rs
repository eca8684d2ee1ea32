//! The planner: every valid layout of a model on N GPUs, which fit, how fast
//! they run, and the fewest GPUs that can train the model at all.
//!
//! Step time is the calculator's ([`crate::step`]): compute at the achieved τ,
//! the pipeline bubble, and the communication compute does not hide.

use crate::config::{Config, Layout, Recompute, ZeroStage};
use crate::keys::K;
use crate::memory;
use serde::Serialize;

/// What the search may vary and what it assumes about the cluster.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlanOptions {
    /// Largest N the minimum-GPU search tries.
    pub max_gpus: u64,
    /// Allow tensor parallelism beyond one node (8 GPUs).
    pub tp_cross_node: bool,
    /// Keep the context-parallel degree given instead of trying each ([`cp_choices`]).
    pub keep_cp: bool,
    /// Plan serving replicas (`tmath plan --serve`) instead of training layouts.
    pub serve: bool,
    /// The serving planner's targets: time per output token and time to first token, ms.
    pub max_tpot_ms: Option<f64>,
    pub max_ttft_ms: Option<f64>,
}

impl Default for PlanOptions {
    fn default() -> Self {
        PlanOptions {
            max_gpus: 16384,
            tp_cross_node: false,
            keep_cp: false,
            serve: false,
            max_tpot_ms: None,
            max_ttft_ms: None,
        }
    }
}

/// One candidate layout and its evaluation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    pub tp: u64,
    pub pp: u64,
    pub dp: u64,
    /// Context parallelism: each rank holds s/cp of every sequence.
    pub cp: u64,
    /// Virtual stages per pipeline rank (interleaved 1F1B); 1: none.
    pub vpp: u64,
    pub zero: ZeroStage,
    pub recompute: Recompute,
    pub sequence_parallel: bool,
    pub micro_batch: u64,
    pub grad_accum: u64,
    /// What must fit per GPU (bytes): the calculator's total, its reserve and fragmentation included.
    pub needed_bytes: f64,
    pub step_seconds: f64,
    pub fits: bool,
}

impl Plan {
    /// b·m·d sequences per step.
    pub fn global_batch(&self) -> u64 {
        self.micro_batch * self.grad_accum * self.dp
    }
    /// The calculator keys that set this layout (the page applies them; tests re-evaluate them).
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        // The names are the key table's (one spelling for the link, the CLI and the JSON).
        [
            (K::Tp, self.tp.to_string()),
            (K::Pp, self.pp.to_string()),
            (K::Dp, self.dp.to_string()),
            (K::Cp, self.cp.to_string()),
            (K::Vpp, self.vpp.to_string()),
            (K::Zero, self.zero.get().to_string()),
            (K::Recompute, self.recompute.as_str().to_string()),
            (K::SequenceParallel, (self.sequence_parallel as u8).to_string()),
            (K::MicroBatch, self.micro_batch.to_string()),
            (K::GradAccum, self.grad_accum.to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.name(), v))
        .collect()
    }
    pub fn seconds_per_sequence(&self) -> f64 {
        self.step_seconds / self.global_batch() as f64
    }

    /// The calculator's configuration for this layout.
    pub fn config(&self, base: &Config) -> Config {
        Config {
            zero: self.zero,
            recompute: self.recompute,
            sequence_parallel: self.sequence_parallel,
            micro_batch: self.micro_batch,
            grad_accum: self.grad_accum,
            ..base.on_layout(Layout {
                tp: self.tp,
                pp: self.pp,
                dp: self.dp,
                cp: self.cp,
                vpp: self.vpp,
                ..base.layout
            })
        }
    }
}

/// Divisors of n in increasing order.
fn divisors(n: u64) -> Vec<u64> {
    let mut small = Vec::new();
    let mut large = Vec::new();
    let mut k = 1;
    while k * k <= n {
        if n.is_multiple_of(k) {
            small.push(k);
            if k * k != n {
                large.push(n / k);
            }
        }
        k += 1;
    }
    small.extend(large.into_iter().rev());
    small
}

/// Seconds per optimizer step: the one step-time model the calculator's days
/// come from too ([`crate::step::step_time`]).
pub fn step_seconds(c: &Config) -> f64 {
    crate::step::step_time(c).total
}

/// The (ZeRO, recomputation, sequence parallelism) choices for a t and p:
/// no ZeRO-2/3 with pipeline parallelism (DeepSpeed blocks it, article), no
/// sequence parallelism without tensor parallelism (it would change nothing),
/// and no selective recomputation over FlashAttention, which already keeps no
/// s×s scores: it would hold what no recomputation holds and compute more.
fn strategies(base: &Config, t: u64, p: u64) -> impl Iterator<Item = (ZeroStage, Recompute, bool)> {
    let flash = base.attention == crate::config::Attention::Flash;
    ZeroStage::ALL
        .into_iter()
        .filter(move |z| !(p > 1 && z.shards_gradients()))
        .flat_map(|z| Recompute::ALL.iter().flat_map(move |&r| [(z, r, false), (z, r, true)]))
        .filter(move |&(_, r, sp)| !(sp && t == 1 || flash && r == Recompute::Selective))
}

/// Tensor-parallel degrees to try: divisors of the heads and the key/value
/// heads ([`crate::arch::Architecture::tp_divides`]), within a node unless allowed.
fn tp_choices(base: &Config, o: &PlanOptions, n: u64) -> Vec<u64> {
    let limit = if o.tp_cross_node { n } else { base.system.gpus_per_node.min(n) };
    divisors(base.arch.tp_divides()).into_iter().filter(|&t| t <= limit && n.is_multiple_of(t)).collect()
}

/// Whether `n` GPUs are whole nodes of `node` GPUs (or part of one).
pub fn whole_nodes(n: u64, node: u64) -> bool {
    n <= node || n.is_multiple_of(node)
}

/// Pipeline degrees the minimum-GPU search tries: for each busiest stage of k
/// layers the fewest stages that hold it, ⌈L/k⌉ (the divisors of L among them;
/// BLOOM's 70 layers on 12 stages of 5 or 6), and the powers of two up to L,
/// which fill whole nodes (Llama 3 405B ran its 126 layers on 16 stages). An
/// uneven pipeline is sized by its busiest stage; more stages for the same
/// busiest one need more GPUs and hold more micro-batches in flight.
pub fn pp_choices(layers: u64) -> Vec<u64> {
    // Marked, not sorted: a sort of u64 costs the page's wasm 2.8 KB.
    let mut tried = vec![false; layers as usize + 1];
    for k in 1..=layers {
        tried[layers.div_ceil(k) as usize] = true;
    }
    for p in (0..).map(|k| 1u64 << k).take_while(|&p| p <= layers) {
        tried[p as usize] = true;
    }
    (1..=layers).filter(|&p| tried[p as usize]).collect()
}

/// Virtual stages per rank to try with p stages and m micro-batches: the
/// divisors v > 1 of L/p (Megatron-LM splits each stage's layers evenly into
/// its chunks), only under 1F1B with m a multiple of p, which Megatron-Core's
/// interleaved schedule requires (`forward_backward_pipelining_with_interleaving`,
/// pipeline_parallel/schedules.py: "number of microbatches is not divisible by
/// pipeline-model-parallel-size when using interleaved schedule").
fn vpp_choices(base: &Config, p: u64, m: u64) -> Vec<u64> {
    let l = base.arch.layers;
    let interleavable = p > 1
        && base.schedule == crate::config::Schedule::OneFOneB
        && base.pp_layout.is_none()
        && l.is_multiple_of(p)
        && m.is_multiple_of(p);
    if !interleavable {
        return Vec::new();
    }
    divisors(l / p).into_iter().skip(1).collect()
}

/// Context-parallel degrees to try: the one given when `o.keep_cp`; else
/// every power of two whose ranks each keep two chunks of s/(2·cp) tokens
/// (Megatron-Core and Transformer Engine split each sequence into 2·cp chunks
/// and give rank i chunks i and 2·cp − 1 − i, balancing the causal mask: s
/// must be a multiple of 2·cp) of at least 128 tokens, FlashAttention's tile
/// of rows, and that divides `n` (0: any count, the minimum-GPU search).
pub fn cp_choices(base: &Config, o: &PlanOptions, n: u64) -> Vec<u64> {
    let s = base.seq_len;
    let tried: Vec<u64> = if o.keep_cp {
        vec![base.layout.cp]
    } else {
        (0..)
            .map(|k| 1u64 << k)
            .take_while(|&cp| cp == 1 || (s.is_multiple_of(2 * cp) && s / (2 * cp) >= 128))
            .collect()
    };
    tried.into_iter().filter(|&cp| n == 0 || n.is_multiple_of(cp)).collect()
}

/// Every layout on exactly `n` GPUs, evaluated; fastest fitting first, then the rest.
/// Each keeps the calculator's global batch G exactly: b·m·d = G. Every cp of
/// [`cp_choices`] and every p up to L that divides N/(cp·t) is tried, uneven
/// stages included; each row carries its best interleaving (the fastest v
/// that fits, v = 1 when none helps).
pub fn layouts(base: &Config, o: &PlanOptions, n: u64) -> Vec<Plan> {
    let mut out = Vec::new();
    for cp in cp_choices(base, o, n) {
        layouts_at_cp(base, o, n / cp, cp, &mut out);
    }
    sort(&mut out, Order::Best);
    out
}

/// The layouts of [`layouts`] with context-parallel degree `cp`: t·p·d = `m` = N/cp.
fn layouts_at_cp(base: &Config, o: &PlanOptions, m: u64, cp: u64, out: &mut Vec<Plan>) {
    let g = base.global_batch;
    for t in tp_choices(base, o, m) {
        for p in (1..=base.arch.layers.min(m / t)).filter(|&p| (m / t).is_multiple_of(p) && base.schedule.runs_on(p)) {
            let d = m / (t * p);
            if !g.is_multiple_of(d) || !(d * cp).is_multiple_of(base.layout.ep) {
                continue;
            }
            // With one rank in the shard group (d·cp = 1) every ZeRO stage is ZeRO-0: listed once.
            for (zero, recompute, sp) in strategies(base, t, p).filter(|(z, ..)| d * cp > 1 || z.get() == 0) {
                // Micro-batches: powers of two with b·d dividing G; m = G/(b·d), and
                // m ≥ p (an unfilled pipeline is never the answer).
                let bs = (0..).map(|k| 1u64 << k).take_while(|b| b * d <= g);
                let bs = bs.filter(|b| g.is_multiple_of(b * d));
                for (b, m) in bs.map(|b| (b, g / (b * d))).filter(|&(_, m)| m >= p) {
                    let evaluate = |v: u64| {
                        let mut plan = Plan {
                            tp: t,
                            pp: p,
                            dp: d,
                            cp,
                            vpp: v,
                            zero,
                            recompute,
                            sequence_parallel: sp,
                            micro_batch: b,
                            grad_accum: m,
                            needed_bytes: 0.0,
                            step_seconds: 0.0,
                            fits: false,
                        };
                        let c = plan.config(base);
                        plan.needed_bytes = memory::training_memory(&c).total().get();
                        plan.fits = plan.needed_bytes <= c.system.gpu_mem_bytes;
                        plan.step_seconds = step_seconds(&c);
                        plan
                    };
                    let mut best = evaluate(1);
                    for v in vpp_choices(base, p, m) {
                        let plan = evaluate(v);
                        if better(&plan, &best) {
                            best = plan;
                        }
                    }
                    out.push(best);
                }
            }
        }
    }
}

/// Whether `a` comes before `b` in the planner's order: fitting first, then faster.
fn better(a: &Plan, b: &Plan) -> bool {
    (a.fits, -a.step_seconds) > (b.fits, -b.step_seconds)
}

/// Orders of a layout list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Those that fit first, then the fastest per sequence.
    Best,
    /// Fastest per sequence.
    Speed,
    /// Least memory needed per GPU.
    Memory,
    Tp,
    Pp,
    Dp,
    Zero,
}

/// Sorts layouts, stably. One comparator for every order: the sort is compiled
/// once (each comparator type instantiates its own copy, ~2.5 KB of wasm).
pub fn sort(rows: &mut [Plan], order: Order) {
    rows.sort_by(|a, b| match order {
        Order::Best => b.fits.cmp(&a.fits).then(a.seconds_per_sequence().total_cmp(&b.seconds_per_sequence())),
        Order::Speed => a.seconds_per_sequence().total_cmp(&b.seconds_per_sequence()),
        Order::Memory => a.needed_bytes.total_cmp(&b.needed_bytes),
        Order::Tp => a.tp.cmp(&b.tp),
        Order::Pp => a.pp.cmp(&b.pp),
        Order::Dp => a.dp.cmp(&b.dp),
        Order::Zero => a.zero.cmp(&b.zero),
    });
}

/// The layout that needs least memory for given (t, p, ZeRO, recomputation, SP)
/// at data-parallel degree d: micro-batch 1, and m ≥ p so the pipeline fills.
fn leanest(
    base: &Config,
    (t, p, cp, d): (u64, u64, u64, u64),
    zero: ZeroStage,
    recompute: Recompute,
    sp: bool,
) -> Config {
    Config {
        zero,
        recompute,
        sequence_parallel: sp,
        micro_batch: 1,
        grad_accum: p,
        ..base.on_layout(Layout { tp: t, pp: p, dp: d, cp, ..base.layout })
    }
}

/// The fewest GPUs on which some layout fits, up to `o.max_gpus`; `None` if
/// none does. Only whole nodes, and only data-parallel degrees that divide the
/// global batch (so a layout keeps it).
///
/// Per-GPU memory only falls as d grows (a property test checks it), so for
/// each (t, p, ZeRO, recomputation, SP) a binary search finds the smallest d.
/// Once a count fits, only fewer GPUs can improve it: the degrees d that give
/// as many or more are not tried (the answer is the same; the default model's
/// search tried every layout of every (t, p) before).
pub fn min_gpus(base: &Config, o: &PlanOptions) -> Option<u64> {
    let mut best: Option<u64> = None;
    let g = base.global_batch;
    let tp_limit = if o.tp_cross_node { o.max_gpus } else { base.system.gpus_per_node.min(o.max_gpus) };
    let batch_divisors = divisors(g);
    let cps = cp_choices(base, o, 0);
    for (t, cp) in divisors(base.arch.tp_divides())
        .into_iter()
        .filter(|&t| t <= tp_limit)
        .flat_map(|t| cps.iter().map(move |&cp| (t, cp)))
    {
        for p in
            pp_choices(base.arch.layers).into_iter().filter(|&p| t * p * cp <= o.max_gpus && base.schedule.runs_on(p))
        {
            // m = G/d ≥ p: the pipeline fills.
            let ds: Vec<u64> = batch_divisors
                .iter()
                .copied()
                .filter(|&d| {
                    let n = t * p * cp * d;
                    n <= o.max_gpus
                        && g / d >= p
                        && whole_nodes(n, base.system.gpus_per_node)
                        && (d * cp).is_multiple_of(base.layout.ep)
                })
                .collect();
            for (zero, recompute, sp) in strategies(base, t, p) {
                // The degrees that would still use fewer GPUs than the best found (ds ascends).
                let ds = &ds[..ds.partition_point(|&d| best.is_none_or(|b| t * p * cp * d < b))];
                if ds.is_empty() {
                    break;
                }
                let fits = |d: u64| {
                    let c = leanest(base, (t, p, cp, d), zero, recompute, sp);
                    memory::training_memory(&c).total().get() <= c.system.gpu_mem_bytes
                };
                if !ds.last().is_some_and(|&d| fits(d)) {
                    continue;
                }
                let n = t * p * cp * ds[ds.partition_point(|&d| !fits(d))];
                if best.is_none_or(|b| n < b) {
                    best = Some(n);
                }
            }
        }
    }
    best
}

/// Why no layout fits on N GPUs, in the order a reader would check it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum NoLayout {
    /// N is not a multiple of the context-parallel degree, which the planner keeps (`keep-cp`).
    ContextParallel { cp: u64 },
    /// No data-parallel degree d = N/(cp·t·p) divides the global batch G (with
    /// the expert-parallel degree dividing d·cp), or every one that does leaves
    /// fewer than p micro-batches to fill the pipeline.
    Batch { global_batch: u64, ep: u64 },
    /// Layouts exist and none fits: the leanest needs this much per GPU.
    Memory { least_bytes: f64, gpu_bytes: f64 },
}

impl std::fmt::Display for NoLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::units::format_sig;
        match *self {
            NoLayout::ContextParallel { cp } => write!(f, "the GPUs are not a multiple of cp = {cp}, which every layout keeps"),
            NoLayout::Batch { global_batch, ep: 1 } => write!(
                f,
                "no data-parallel degree d = N/(cp·t·p) divides the global batch G = {global_batch} with at least p micro-batches left to fill the pipeline"
            ),
            NoLayout::Batch { global_batch, ep } => write!(
                f,
                "no data-parallel degree d = N/(cp·t·p) divides the global batch G = {global_batch} with ep = {ep} dividing d·cp and at least p micro-batches left to fill the pipeline"
            ),
            NoLayout::Memory { least_bytes, gpu_bytes } => write!(
                f,
                "the leanest layout needs {} GB per GPU, over the GPU's {} GB",
                format_sig(least_bytes / 1e9),
                format_sig(gpu_bytes / 1e9)
            ),
        }
    }
}

/// Why `layouts` (the planner's list on `n` GPUs) holds no layout that fits; `None` when one does.
pub fn why_none(base: &Config, o: &PlanOptions, n: u64, layouts: &[Plan]) -> Option<NoLayout> {
    if layouts.iter().any(|l| l.fits) {
        return None;
    }
    let least = layouts.iter().map(|l| l.needed_bytes).fold(f64::INFINITY, f64::min);
    // No cp to try on n GPUs: only a kept one that does not divide them (1 always does).
    Some(if cp_choices(base, o, n).is_empty() {
        NoLayout::ContextParallel { cp: base.layout.cp }
    } else if layouts.is_empty() {
        NoLayout::Batch { global_batch: base.global_batch, ep: base.layout.ep }
    } else {
        NoLayout::Memory { least_bytes: least, gpu_bytes: base.system.gpu_mem_bytes }
    })
}

/// `tmath plan`'s answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlanReport {
    pub min_gpus: Option<u64>,
    pub gpus: u64,
    pub layouts: Vec<Plan>,
    /// Why nothing fits on `gpus`, when nothing does.
    pub none: Option<NoLayout>,
}

/// The minimum GPU count and the layouts on `n` GPUs (or on the minimum when `n` is `None`).
pub fn plan(base: &Config, o: &PlanOptions, n: Option<u64>) -> PlanReport {
    let min = min_gpus(base, o);
    let gpus = n.or(min).unwrap_or(base.layout.gpus());
    let layouts = layouts(base, o, gpus);
    PlanReport { min_gpus: min, gpus, none: why_none(base, o, gpus, &layouts), layouts }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipeline_degrees_in_order() {
        // 126 layers: 13 stages hold 10 at most, 16 hold 8 (Llama 3 405B's); 64 is a power of two.
        assert_eq!(
            pp_choices(126),
            vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 18, 21, 26, 32, 42, 63, 64, 126]
        );
        assert_eq!(pp_choices(32), vec![1, 2, 3, 4, 5, 6, 7, 8, 11, 16, 32]);
        assert_eq!(pp_choices(1), vec![1]);
        assert_eq!(pp_choices(12), vec![1, 2, 3, 4, 6, 8, 12]);
    }

    #[test]
    fn divisors_in_order() {
        assert_eq!(divisors(12), vec![1, 2, 3, 4, 6, 12]);
        assert_eq!(divisors(16), vec![1, 2, 4, 8, 16]);
        assert_eq!(divisors(1), vec![1]);
    }
}
