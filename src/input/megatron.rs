//! A Megatron-LM launch, read offline into the calculator's keys: a launch
//! script's flags (`--num-layers 32 \`, `--num-layers=32`) or a test's
//! `model_config.yaml` (`  --num-layers: 32` under `MODEL_ARGS:`). Each flag
//! it knows becomes its key, with Megatron-LM's own defaults where a flag is
//! absent (`megatron/training/arguments.py`); every other flag is named as
//! not used, as the `config.json` reader does.

use crate::hf::Mapped;
use crate::keys::K;

/// Why a text is not a Megatron-LM launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgsError {
    /// No `--flag` at all.
    NoFlags,
    /// Flags, but none of a model's shape (`--num-layers`, `--hidden-size`).
    NoShape,
}

impl std::fmt::Display for ArgsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgsError::NoFlags => write!(f, "no --flag of a Megatron-LM launch"),
            ArgsError::NoShape => write!(f, "no flag of a model's shape (--num-layers, --hidden-size, …)"),
        }
    }
}

/// The flags of `text`, in order: `--name value`, `--name=value`, `--name: value`
/// (YAML), a bare `--name` as "true". Comments (`#` after a space) and line
/// continuations are dropped, quotes and YAML's escaping backslashes taken off.
fn flags(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let line = match line.find(" #").or_else(|| line.trim_start().starts_with('#').then_some(0)) {
            Some(at) => &line[..at],
            None => line,
        };
        let words: Vec<&str> = line.split_whitespace().filter(|w| *w != "\\").collect();
        let mut i = 0;
        while i < words.len() {
            let word = words[i];
            i += 1;
            let Some(flag) = word.strip_prefix("--") else { continue };
            let (name, value) = if let Some((n, v)) = flag.split_once('=') {
                (n.to_string(), Some(v.to_string()))
            } else if let Some(n) = flag.strip_suffix(':') {
                // YAML: the rest of the line is the value (none: a switch set on the next line).
                let rest = words[i..].join(" ");
                i = words.len();
                (n.to_string(), (!rest.is_empty()).then_some(rest))
            } else {
                match words.get(i) {
                    Some(next) if !next.starts_with("--") => {
                        i += 1;
                        (flag.to_string(), Some(next.to_string()))
                    }
                    _ => (flag.to_string(), None),
                }
            };
            let value = value.unwrap_or_else(|| "true".into());
            let value = value.trim_matches(|c| c == '"' || c == '\'').replace('\\', "");
            out.push((name, value));
        }
    }
    out
}

/// Flags mapped one to one: Megatron-LM's name, the calculator's key.
const SAME: &[(&str, K)] = &[
    ("num-layers", K::Layers),
    ("hidden-size", K::Hidden),
    ("num-attention-heads", K::Heads),
    ("ffn-hidden-size", K::Ffn),
    ("seq-length", K::SeqLen),
    ("max-position-embeddings", K::MaxPositions),
    ("micro-batch-size", K::MicroBatch),
    ("tensor-model-parallel-size", K::Tp),
    ("pipeline-model-parallel-size", K::Pp),
    ("context-parallel-size", K::Cp),
    ("expert-model-parallel-size", K::Ep),
    ("expert-tensor-parallel-size", K::Etp),
    ("num-virtual-stages-per-pipeline-rank", K::Vpp),
    ("decoder-first-pipeline-num-layers", K::PpFirstLayers),
    ("pipeline-model-parallel-layout", K::PpLayout),
    ("decoder-last-pipeline-num-layers", K::PpLastLayers),
    ("num-experts", K::Experts),
    ("moe-router-topk", K::TopK),
    ("moe-ffn-hidden-size", K::MoeFfn),
    ("kv-lora-rank", K::KvLoraRank),
    ("q-lora-rank", K::QLoraRank),
    ("qk-head-dim", K::QkHeadDim),
    ("qk-pos-emb-head-dim", K::QkRopeHeadDim),
    ("v-head-dim", K::VHeadDim),
    ("exp-avg-dtype", K::ExpAvgDtype),
    ("main-params-dtype", K::MainParams),
    ("mtp-num-layers", K::MtpLayers),
];

/// Switches mapped to a key's value when on.
const SWITCHES: &[(&str, K, &str)] = &[
    ("swiglu", K::Mlp, "swiglu"),
    ("untie-embeddings-and-output-weights", K::TieEmbeddings, "0"),
    ("sequence-parallel", K::SequenceParallel, "1"),
    ("use-distributed-optimizer", K::Zero, "1"),
    ("bf16", K::Precision, "mixed"),
    ("fp16", K::Precision, "mixed"),
    ("cross-entropy-loss-fusion", K::Loss, "fused"),
    ("fp8-param-gather", K::Fp8ParamGather, "1"),
];

/// Latent attention's keys: they count only with `--multi-latent-attention`.
const MLA: [K; 5] = [K::KvLoraRank, K::QLoraRank, K::QkHeadDim, K::QkRopeHeadDim, K::VHeadDim];

/// A key's value and the flag it came from ("" when it is a default).
type Pairs = Vec<(&'static str, String, String)>;

fn push(pairs: &mut Pairs, key: K, value: impl ToString, from: &str) {
    pairs.push((key.row().name, value.to_string(), from.to_string()));
}

/// Flags read to decide another key, not mapped on their own.
const READ: &[&str] = &[
    "group-query-attention",
    "num-query-groups",
    "multi-latent-attention",
    "vocab-size",
    "make-vocab-size-divisible-by",
    "num-layers-per-virtual-pipeline-stage",
    "moe-layer-freq",
    "moe-shared-expert-intermediate-size",
    "recompute-granularity",
    "recompute-method",
    "recompute-num-layers",
    "attention-backend",
    "transformer-impl",
    "use-flash-attn",
    "nproc_per_node",
    "nproc-per-node",
    "nnodes",
];

/// A whole number, as a flag writes it.
fn whole(v: &str) -> Option<u64> {
    v.trim().parse().ok()
}

/// `--moe-layer-freq`: 1 (every layer) or a pattern `([0]*k+[1]*n)`, whose
/// leading dense layers are `dense-layers`. Other frequencies (every k-th layer
/// a MoE layer) are not a shape this calculator takes: `None`.
fn dense_first(freq: &str) -> Option<u64> {
    let f: String = freq.chars().filter(|c| !c.is_whitespace()).collect();
    if f == "1" {
        return Some(0);
    }
    let inner = f.trim_start_matches('(').trim_end_matches(')');
    let mut dense = 0;
    let mut seen_moe = false;
    for part in inner.split('+') {
        let (bit, n) = part.trim_start_matches('[').split_once("]*")?;
        let n = whole(n)?;
        match (bit, seen_moe) {
            ("0", false) => dense += n,
            ("1", _) => seen_moe = true,
            _ => return None,
        }
    }
    seen_moe.then_some(dense)
}

/// Reads a launch: the shape, the layout and the training keys, with
/// Megatron-LM's defaults (f = 4h, or ⌊(4h·2/3)/64⌋·64 with SwiGLU; a GQA
/// group count only with `--group-query-attention`; the vocabulary padded to
/// a multiple of `--make-vocab-size-divisible-by` (128) × t; tied embeddings;
/// flash attention unless `--attention-backend unfused` or the local
/// implementation without `--use-flash-attn`), and P counted from the shape.
/// Always the `megatron` convention.
pub fn read(text: &str) -> Result<Mapped, ArgsError> {
    let flags = flags(text);
    if flags.is_empty() {
        return Err(ArgsError::NoFlags);
    }
    let get = |name: &str| flags.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    let on = |name: &str| get(name).is_some_and(|v| v != "false");
    let mut pairs: Pairs = Vec::new();
    push(&mut pairs, K::Convention, "megatron", "");
    let mut used: Vec<&str> = READ.to_vec();
    for &(flag, key) in SAME {
        if let Some(v) = get(flag) {
            push(&mut pairs, key, v, &format!("--{flag}"));
            used.push(flag);
        }
    }
    for &(flag, key, value) in SWITCHES {
        if on(flag) {
            push(&mut pairs, key, value, &format!("--{flag}"));
            used.push(flag);
        }
    }
    if get("num-layers").is_none() && get("hidden-size").is_none() {
        return Err(ArgsError::NoShape);
    }
    let num = |name: &str| get(name).and_then(whole);
    let (hidden, heads, layers) = (num("hidden-size"), num("num-attention-heads"), num("num-layers"));
    let tp = num("tensor-model-parallel-size").unwrap_or(1);
    let pp = num("pipeline-model-parallel-size").unwrap_or(1);
    let cp = num("context-parallel-size").unwrap_or(1).max(1);
    let p = &mut pairs;
    // arguments.py: without --ffn-hidden-size, 4h, or for SwiGLU ⌊(4h·2/3)/64⌋·64.
    if get("ffn-hidden-size").is_none() {
        if let Some(h) = hidden {
            push(p, K::Ffn, if on("swiglu") { (4 * h * 2 / 3) / 64 * 64 } else { 4 * h }, "");
        }
    }
    if !on("swiglu") {
        push(p, K::Mlp, "gelu", "");
    }
    if !on("untie-embeddings-and-output-weights") {
        push(p, K::TieEmbeddings, "1", "");
    }
    // Query groups count only with --group-query-attention (else a = k).
    match (on("group-query-attention"), num("num-query-groups"), heads) {
        (true, Some(k), _) => push(p, K::KvHeads, k, "--num-query-groups"),
        (_, _, Some(a)) => push(p, K::KvHeads, a, ""),
        _ => {}
    }
    if let Some(v) = num("vocab-size") {
        let m = (num("make-vocab-size-divisible-by").unwrap_or(128) * tp).max(1);
        push(p, K::Vocab, v.div_ceil(m) * m, "--vocab-size");
    }
    // --num-layers-per-virtual-pipeline-stage n: v = L/(p·n) virtual stages per rank.
    if let (Some(n), Some(l)) = (num("num-layers-per-virtual-pipeline-stage"), layers) {
        if n > 0 && pp > 0 && l % (pp * n) == 0 {
            push(p, K::Vpp, l / (pp * n), "--num-layers-per-virtual-pipeline-stage");
        }
    }
    if let Some(k) = get("moe-layer-freq").and_then(dense_first) {
        push(p, K::DenseLayers, k, "--moe-layer-freq");
    }
    // Shared experts: their total width over one expert's.
    if let Some(k) =
        num("moe-shared-expert-intermediate-size").zip(num("moe-ffn-hidden-size")).and_then(|(s, f)| s.checked_div(f))
    {
        push(p, K::SharedExperts, k, "--moe-shared-expert-intermediate-size");
    }
    if !on("multi-latent-attention") {
        p.retain(|(k, ..)| !MLA.iter().any(|m| m.row().name == *k));
        // --kv-channels is the heads' dimension (arguments.py: h/a unless given); with latent
        // attention it means nothing and is named.
        if let Some(d) = num("kv-channels") {
            push(p, K::HeadDim, d, "--kv-channels");
            used.push("kv-channels");
        }
    }
    match get("recompute-granularity") {
        Some("full") => {
            push(p, K::Recompute, "full", "--recompute-granularity");
            if let (Some("uniform"), Some(k)) = (get("recompute-method"), num("recompute-num-layers")) {
                push(p, K::RecomputeEvery, k, "--recompute-num-layers");
            }
        }
        Some("selective") => push(p, K::Recompute, "selective", "--recompute-granularity"),
        _ => {}
    }
    // FP8 is on with --fp8-format (e4m3 or hybrid); --fp8-recipe's default, delayed scaling, keeps
    // one scale per tensor: tensorwise here, as current scaling (arguments.py).
    if get("fp8-format").is_some() {
        let recipe = match get("fp8-recipe") {
            Some("blockwise") => "blockwise",
            Some("mxfp8") => "mxfp8",
            _ => "tensorwise",
        };
        push(p, K::Fp8, recipe, "--fp8-format");
        used.push("fp8-format");
        if get("fp8-recipe").is_some() {
            used.push("fp8-recipe");
        }
    }
    // The s×s scores are stored by the unfused backend and by the local implementation without flash.
    let local = get("transformer-impl") == Some("local") && !on("use-flash-attn");
    let unfused = get("attention-backend") == Some("unfused");
    push(p, K::Attention, if local || unfused { "standard" } else { "flash" }, "");
    // A torchrun line gives the GPU count: then the micro-batches per step.
    let world = num("nproc_per_node").or(num("nproc-per-node")).map(|g| g * num("nnodes").unwrap_or(1));
    if let (Some(n), Some(g), Some(b)) = (world, num("global-batch-size"), num("micro-batch-size")) {
        push(p, K::Gpus, n, "--nproc_per_node");
        let d = n / (tp * pp * cp).max(1);
        if d > 0 && b > 0 && g % (b * d) == 0 {
            push(p, K::GradAccum, g / (b * d), "--global-batch-size");
            used.push("global-batch-size");
        }
    }
    // Without the GPU count, the fewest GPUs whose ranks hold the expert groups (a later N overrides it):
    // they take etp·ep of each stage's t·d·cp ranks (etp is t unless given).
    let ep = num("expert-model-parallel-size").unwrap_or(1);
    if world.is_none() && ep > 1 {
        let etp = num("expert-tensor-parallel-size").unwrap_or(tp);
        let d = (1..=ep * etp).find(|d| (tp * d * cp) % (etp * ep) == 0).unwrap_or(ep);
        push(p, K::Gpus, tp * pp * cp * d, "--expert-model-parallel-size");
    }
    crate::hf::add_counts(&mut pairs);
    let mut unused: Vec<String> = Vec::new();
    for (name, _) in &flags {
        if !used.contains(&name.as_str()) && !unused.iter().any(|u| u == &format!("--{name}")) {
            unused.push(format!("--{name}"));
        }
    }
    Ok(Mapped { pairs, unused })
}
