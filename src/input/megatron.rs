//! A Megatron-LM launch, read offline into the calculator's keys: a launch
//! script's flags (`--num-layers 32 \`, `--num-layers=32`) or a test's
//! `model_config.yaml` (`  --num-layers: 32` under `MODEL_ARGS:`). Each flag
//! it knows becomes its key, with Megatron-LM's own defaults where a flag is
//! absent (`megatron/training/arguments.py`). The cluster comes from the
//! launcher (`torchrun`'s `--nproc_per_node` × `--nnodes`, Slurm's `srun` and
//! `#SBATCH` counts, `mpirun -np`), with the script's shell variables
//! expanded. Every other flag is named: as without effect on memory, compute
//! and time (the learning rate, data, logging, checkpoints), or as not read.

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

/// The flags of `text` (its shell variables expanded: [`expanded`]), in order:
/// `--name value`, `--name=value`, `--name: value` (YAML), a bare `--name` as
/// "true". Comments (`#` after a space) and line continuations are dropped,
/// quotes and YAML's escaping backslashes taken off.
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

/// The value of a shell variable reference's name in `vars` (the last assignment wins).
fn lookup<'a>(vars: &'a [(String, String)], name: &str) -> Option<&'a str> {
    vars.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

/// A whole-number shell arithmetic expression: + − × ÷ and parentheses over
/// numbers and variable names (`$((GPUS_PER_NODE * NNODES))`). `None` if it
/// does not read or a name has no whole value.
fn arithmetic(expr: &str, vars: &[(String, String)]) -> Option<u64> {
    fn sum(t: &[String], i: &mut usize, vars: &[(String, String)]) -> Option<u64> {
        let mut x = product(t, i, vars)?;
        while let Some(op) = t.get(*i).filter(|o| *o == "+" || *o == "-").cloned() {
            *i += 1;
            let y = product(t, i, vars)?;
            x = if op == "+" { x.checked_add(y)? } else { x.checked_sub(y)? };
        }
        Some(x)
    }
    fn product(t: &[String], i: &mut usize, vars: &[(String, String)]) -> Option<u64> {
        let mut x = atom(t, i, vars)?;
        while let Some(op) = t.get(*i).filter(|o| *o == "*" || *o == "/").cloned() {
            *i += 1;
            let y = atom(t, i, vars)?;
            x = if op == "*" { x.checked_mul(y)? } else { x.checked_div(y)? };
        }
        Some(x)
    }
    fn atom(t: &[String], i: &mut usize, vars: &[(String, String)]) -> Option<u64> {
        let word = t.get(*i)?.clone();
        *i += 1;
        if word == "(" {
            let x = sum(t, i, vars)?;
            (t.get(*i)? == ")").then_some(())?;
            *i += 1;
            return Some(x);
        }
        let name = word.trim_start_matches('$');
        name.parse().ok().or_else(|| lookup(vars, name)?.trim().parse().ok())
    }
    let mut tokens: Vec<String> = Vec::new();
    for c in expr.chars() {
        match c {
            '+' | '-' | '*' | '/' | '(' | ')' => tokens.push(c.to_string()),
            c if c.is_whitespace() => tokens.push(String::new()),
            c => match tokens.last_mut() {
                Some(last) if !last.is_empty() && !"+-*/()".contains(last.as_str()) => last.push(c),
                _ => tokens.push(c.to_string()),
            },
        }
    }
    tokens.retain(|t| !t.is_empty());
    let mut i = 0;
    let x = sum(&tokens, &mut i, vars)?;
    (i == tokens.len()).then_some(x)
}

/// One line with `$NAME`, `${NAME}`, `${NAME:-default}` and `$(( … ))` of the
/// variables so far put in; a reference to an unknown name stays as written.
fn expand_line(line: &str, vars: &[(String, String)]) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (value, used) = if let Some(inner) = after.strip_prefix("((") {
            match inner.find("))") {
                Some(end) => (arithmetic(&inner[..end], vars).map(|x| x.to_string()), end + 4),
                None => (None, 0),
            }
        } else if let Some(inner) = after.strip_prefix('{') {
            match inner.find('}') {
                Some(end) => {
                    let body = &inner[..end];
                    let (name, default) = body.split_once(":-").map_or((body, None), |(n, d)| (n, Some(d)));
                    (lookup(vars, name).or(default).map(str::to_string), end + 2)
                }
                None => (None, 0),
            }
        } else {
            let len = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len());
            (lookup(vars, &after[..len]).map(str::to_string), len)
        };
        match value {
            Some(v) if used > 0 => {
                out.push_str(&v);
                rest = &after[used..];
            }
            _ => {
                out.push('$');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The text with its shell variables expanded, line by line: each
/// `NAME=value` (or `export NAME=value`) defines NAME for the lines after it,
/// and Slurm's `#SBATCH --nodes`, `--ntasks-per-node` and `--gpus-per-node`
/// define what Slurm sets for the job (`SLURM_NNODES`, `SLURM_JOB_NUM_NODES`,
/// `SLURM_NTASKS_PER_NODE`, `SLURM_GPUS_ON_NODE`).
fn expanded(text: &str) -> String {
    let mut vars: Vec<(String, String)> = Vec::new();
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let line = expand_line(line, &vars);
        let trimmed = line.trim_start();
        if let Some(sbatch) = trimmed.strip_prefix("#SBATCH") {
            for (name, value) in short_and_long(sbatch) {
                let slurm: &[&str] = match name.as_str() {
                    "N" | "nodes" => &["SLURM_NNODES", "SLURM_JOB_NUM_NODES"],
                    "ntasks-per-node" => &["SLURM_NTASKS_PER_NODE"],
                    "gpus-per-node" => &["SLURM_GPUS_ON_NODE"],
                    _ => &[],
                };
                vars.extend(slurm.iter().map(|n| (n.to_string(), value.clone())));
            }
        }
        let assignment = trimmed.strip_prefix("export ").unwrap_or(trimmed);
        if let Some((name, value)) = assignment.split_once('=') {
            let value = value.split_whitespace().next().unwrap_or("");
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                vars.push((name.to_string(), value.trim_matches(|c| c == '"' || c == '\'').to_string()));
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// A command's options, short and long: `-N 8`, `-np 64`, `--nodes=8`, `--ntasks-per-node 8`.
fn short_and_long(words: &str) -> Vec<(String, String)> {
    let words: Vec<&str> = words.split_whitespace().filter(|w| *w != "\\").collect();
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let Some(name) = w.strip_prefix("--").or_else(|| w.strip_prefix('-')) else { continue };
        match name.split_once('=') {
            Some((n, v)) => out.push((n.to_string(), v.to_string())),
            None => {
                let v = words.get(i + 1).filter(|v| !v.starts_with('-')).map_or("", |v| v);
                out.push((name.to_string(), v.to_string()));
            }
        }
    }
    out
}

/// The GPUs a launch runs on and what said so: `torchrun`'s (or
/// `torch.distributed`'s) `--nproc_per_node` × `--nnodes` (the largest of an
/// elastic `MIN:MAX`), Slurm's tasks (`srun`/`#SBATCH` `--ntasks`, or
/// `--nodes` × `--ntasks-per-node` or `--gpus-per-node`), `mpirun`'s or
/// `mpiexec`'s `-np`/`-n`, else a `WORLD_SIZE` variable; `text` expanded ([`expanded`]).
fn world_size(text: &str) -> Option<(u64, &'static str)> {
    let count = |v: &str| v.rsplit(':').next().and_then(|x| x.trim().parse::<u64>().ok()).filter(|&x| x > 0);
    let mut torchrun: (Option<u64>, Option<u64>) = (None, None);
    let (mut nodes, mut per_node, mut tasks, mut np): (Option<u64>, Option<u64>, Option<u64>, Option<u64>) =
        (None, None, None, None);
    let mut world_var = None;
    for line in text.lines() {
        let line = line.trim_start();
        let sbatch = line.starts_with("#SBATCH");
        if line.starts_with('#') && !sbatch {
            continue;
        }
        let first = line.split_whitespace().next().unwrap_or("");
        let slurm = sbatch || first == "srun" || first == "salloc";
        let mpi = first == "mpirun" || first == "mpiexec";
        for (name, value) in short_and_long(line) {
            match (name.as_str(), slurm, mpi) {
                ("nproc_per_node" | "nproc-per-node", ..) => torchrun.0 = count(&value).or(torchrun.0),
                ("nnodes", ..) => torchrun.1 = count(&value).or(torchrun.1),
                ("N" | "nodes", true, _) => nodes = count(&value).or(nodes),
                ("ntasks-per-node" | "gpus-per-node", true, _) => per_node = count(&value).or(per_node),
                ("n" | "ntasks", true, _) => tasks = count(&value).or(tasks),
                ("np" | "n", _, true) => np = count(&value).or(np),
                _ => {}
            }
        }
        let assignment = line.strip_prefix("export ").unwrap_or(line);
        if let Some(v) = assignment.strip_prefix("WORLD_SIZE=") {
            world_var = count(v.split_whitespace().next().unwrap_or(""));
        }
    }
    match (torchrun, tasks, nodes.zip(per_node), np, world_var) {
        ((Some(g), n), ..) => Some((g * n.unwrap_or(1), "--nproc_per_node")),
        (_, Some(t), ..) => Some((t, "--ntasks")),
        (_, _, Some((n, g)), ..) => Some((n * g, "--nodes")),
        (.., Some(n), _) => Some((n, "-np")),
        (.., Some(w)) => Some((w, "WORLD_SIZE")),
        _ => None,
    }
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
    ("tp-comm-overlap", K::TpCommOverlap, "1"),
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
    "sgd-momentum",
];

/// Flags without effect on memory, compute or time here: the learning rate
/// and its schedule, the optimizer's coefficients, initialisation, data and
/// tokenizer, logging, evaluation, checkpoints, seeds and the launcher's
/// rendezvous, separated by spaces. Named as such; a flag in neither list is named as not read.
const NO_EFFECT: &str = "\
    lr min-lr lr-decay-style lr-decay-iters lr-decay-samples lr-warmup-iters lr-warmup-fraction \
    lr-warmup-samples lr-warmup-init lr-wsd-decay-style lr-wsd-decay-iters lr-wsd-decay-samples \
    weight-decay start-weight-decay end-weight-decay weight-decay-incr-style clip-grad adam-beta1 \
    adam-beta2 adam-eps init-method-std seed save load save-interval eval-interval eval-iters \
    log-interval tensorboard-dir data-path split tokenizer-type tokenizer-model vocab-file \
    merge-file data-cache-path mock-data distributed-backend distributed-timeout-minutes \
    timing-log-level timing-log-option exit-interval exit-duration-in-mins no-load-optim no-load-rng \
    ckpt-format auto-detect-ckpt-format dist-ckpt-strictness use-checkpoint-args use-mcore-models \
    num-workers deterministic-mode manual-gc manual-gc-interval node_rank node-rank master_addr \
    master-addr master_port master-port rdzv_backend rdzv-backend rdzv_endpoint rdzv-endpoint \
    rdzv_id rdzv-id wandb-project wandb-exp-name wandb-save-dir ckpt-assume-constant-structure \
    ckpt-fully-parallel-save ckpt-fully-parallel-load async-save no-save-optim no-save-rng finetune \
    pretrained-checkpoint save-retain-interval non-persistent-save-interval non-persistent-ckpt-type \
    eod-mask-loss reset-position-ids reset-attention-mask data-args-path train-data-path \
    valid-data-path test-data-path dataloader-type no-mmap-bin-files object-storage-cache-path \
    tokenizer-prompt-format test-mode check-weight-hash-across-dp-replicas-interval rerun-mode";

/// Logging flags (`--log-…`, `--tensorboard-…`, `--wandb-…`) have no effect either.
fn no_effect(flag: &str) -> bool {
    NO_EFFECT.split_whitespace().any(|f| f == flag)
        || ["log-", "tensorboard-", "wandb-"].iter().any(|p| flag.starts_with(p))
}

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
    // Shell variables expanded once, for the flags and the launcher's counts alike.
    let text = &expanded(text);
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
    // --recompute-activations is selective recomputation (arguments.py sets the granularity so).
    let granularity = get("recompute-granularity").or(on("recompute-activations").then_some("selective"));
    if on("recompute-activations") {
        used.push("recompute-activations");
    }
    match granularity {
        Some("full") => {
            push(p, K::Recompute, "full", "--recompute-granularity");
            if let (Some("uniform"), Some(k)) = (get("recompute-method"), num("recompute-num-layers")) {
                push(p, K::RecomputeEvery, k, "--recompute-num-layers");
            }
        }
        Some("selective") if get("recompute-granularity").is_none() => {
            push(p, K::Recompute, "selective", "--recompute-activations")
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
    // The launcher's GPU count; the step's sequences (arguments.py: G = b·d unless given, so m = 1).
    let world = world_size(text);
    if let Some((n, from)) = world {
        push(p, K::Gpus, n, from);
    }
    let global = num("global-batch-size");
    match global {
        Some(g) => {
            push(p, K::GlobalBatch, g, "--global-batch-size");
            used.push("global-batch-size");
        }
        None => push(p, K::GradAccum, 1, ""),
    }
    // Tokens: iterations × G × s, or samples × s (--train-samples).
    let s_len = num("seq-length");
    let tokens = match (num("train-iters"), num("train-samples"), s_len) {
        (Some(i), _, Some(s)) => {
            let g = global.or(world.map(|(n, _)| n / (tp * pp * cp).max(1) * num("micro-batch-size").unwrap_or(1)));
            g.map(|g| (i as f64 * g as f64 * s as f64, "--train-iters"))
        }
        (None, Some(n), Some(s)) => Some((n as f64 * s as f64, "--train-samples")),
        _ => None,
    };
    if let Some((t, from)) = tokens {
        push(p, K::Tokens, t, from);
        used.push(&from[2..]);
    }
    // Megatron-LM's optimizers: adam (AdamW: decoupled weight decay) and sgd with momentum 0.9 unless given.
    match get("optimizer") {
        Some("adam") => push(p, K::Optimizer, "adamw", "--optimizer"),
        Some("sgd") if get("sgd-momentum").and_then(crate::decimal::parse) == Some(0.0) => {
            push(p, K::Optimizer, "sgd", "--optimizer")
        }
        Some("sgd") => push(p, K::Optimizer, "sgd-momentum", "--optimizer"),
        _ => {}
    }
    if get("optimizer").is_some_and(|o| o == "adam" || o == "sgd") {
        used.push("optimizer");
    }
    // The distributed optimizer's states on the CPU, whole (a fraction below 1 is not modelled: named).
    let fraction = get("optimizer-offload-fraction").and_then(crate::decimal::parse).unwrap_or(1.0);
    if on("optimizer-cpu-offload") && fraction >= 1.0 {
        push(p, K::Offload, "optimizer", "--optimizer-cpu-offload");
        used.extend(["optimizer-cpu-offload", "optimizer-offload-fraction"]);
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
    let (mut unused, mut without_effect): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    for (name, _) in &flags {
        let list = if no_effect(name) { &mut without_effect } else { &mut unused };
        if !used.contains(&name.as_str()) && !list.iter().any(|u| u == &format!("--{name}")) {
            list.push(format!("--{name}"));
        }
    }
    Ok(Mapped { pairs, unused, no_effect: without_effect })
}
