//! Every number with its formula, the values substituted, and its source:
//! `s·b·h·L·(10 + 24/t + 5as/(ht)) = 2048·4·6144·48·(10 + 3 + 13.3) = 59.3 GiB`.

use crate::config::{Convention, Loss, Recompute};
use crate::memory::Part;
use crate::memory::{activation_terms, buffer_terms, gradient_bytes, logit_terms, model_bytes, optimizer_bytes};
use crate::report::Report;
use crate::units::{format_count, ByteUnit, Bytes};

/// The English of a formula's teaching note (the page has its Korean; the JSON lists them).
pub fn note_english(key: &str) -> &'static str {
    match key {
        "note-article-gradients" => "The article's 3D formula divides gradients by p only; the megatron convention divides them by t·p.",
        "note-master-copy" => "Mixed precision keeps a 4-byte fp32 copy of the weights, counted here as the article does: 2 + 2 + 12\u{a0}=\u{a0}16 bytes/param. Lessons quoting 12 bytes/param (105\u{a0}GB per GPU for 70B on 8 GPUs) forget this copy; 16 gives 140\u{a0}GB.",
        "note-pipeline-activations" => "Pipeline parallelism does not shrink activations: the first stage keeps min(m, p) micro-batches of L/p layers.",
        "note-live-zero3-only" => "Only ZeRO-3 gathers parameters on the fly.",
        "note-logits" => "The last stage's loss: each micro-batch in flight keeps its fp32 log-probabilities (4 bytes per logit) until its backward, and one adds its transient (the bf16 logits, or the fp32 gradients). The loss key says whose cross-entropy.",
        "note-buffers" => "What the framework allocates beside the model states: with sequence parallelism the all-gathered input of a layer's GEMM (one micro-batch's s/cp·b·h values), and PyTorch's cuBLAS workspace (32 MiB on Hopper, 8.1 MiB on other NVIDIA GPUs); a mixture of experts adds Transformer Engine's four workspaces for its grouped GEMMs (4 × 32 MiB from Hopper on, 4 × 4 MiB before), and its tensor-parallel communication overlap two more of one (2 × 32 MiB). The distributed optimizer's bucket padding is under a megabyte and left out.",
        "note-buffers-article" => "The article's formulas have no term for the framework's own buffers; under the megatron convention they are the sequence-parallel all-gather and the GEMM workspace.",
        "note-logits-article" => "The article's formulas have no term for the loss; under the megatron convention it is the last stage's largest transient.",
        "note-achieved-flops" => "τ is the achieved FLOP/s, not the datasheet peak: the article cites 150 (GPT-NeoX) and 180 (FlashAttention) per A100; below 115 something is wrong.",
        "note-200b" => "Whatever the Chinchilla point, the article advises against fewer than 200B tokens.",
        "note-step-days" => "Under the megatron convention the time is the step-time model's: D ÷ (B·s) optimizer steps (B sequences of s tokens each), each its compute at τ (the rate of compute alone), the pipeline bubble and the communication compute does not hide — the step bar below. How close it comes to measured runs: \"How close is this to reality\".",
        "note-hardware-flops" => "Model FLOPs, as published runs report them: recomputation is left out here and lengthens the time instead (hardware work at the same achieved FLOP/s).",
        "note-reserve" => "What the formulas leave out: the CUDA context, NCCL and framework buffers (1–2\u{a0}GB per GPU), and the allocator's fragmentation. nvidia-smi shows them; the article's formulas do not, so they are 0 under its convention.",
        _ => "",
    }
}

/// A number the page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// One part of a GPU's memory (a bar segment and a table row).
    Part(Part),
    Inference,
    Flops,
    GpuHours,
    Days,
    Cost,
    Chinchilla,
}

impl Item {
    /// Every item, in the page's order.
    pub const ALL: &'static [Item] = &[
        Item::Part(Part::Model),
        Item::Part(Part::Gradients),
        Item::Part(Part::Optimizer),
        Item::Part(Part::Activations),
        Item::Part(Part::Logits),
        Item::Part(Part::Buffers),
        Item::Part(Part::LiveParams),
        Item::Part(Part::Frozen),
        Item::Part(Part::Rollout),
        Item::Part(Part::Reserve),
        Item::Inference,
        Item::Flops,
        Item::GpuHours,
        Item::Days,
        Item::Cost,
        Item::Chinchilla,
    ];

    /// A stable name (the page marks each formula with it).
    pub fn as_str(self) -> &'static str {
        match self {
            Item::Part(part) => part.key(),
            Item::Inference => "inference",
            Item::Flops => "flops",
            Item::GpuHours => "gpu-hours",
            Item::Days => "days",
            Item::Cost => "cost",
            Item::Chinchilla => "chinchilla",
        }
    }
}

/// A section of the article (its English title; the page names it in its language).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    ComputeRequirements,
    ParameterVsDataset,
    ModelWeights,
    TotalInferenceMemory,
    ModelParameters,
    OptimizerStates,
    Gradients,
    ActivationsAndBatchSize,
    ShardedOptimizers,
    ThreeD,
}

impl Section {
    pub fn title(self) -> &'static str {
        match self {
            Section::ComputeRequirements => "Compute Requirements",
            Section::ParameterVsDataset => "Parameter vs Dataset Tradeoffs",
            Section::ModelWeights => "Model Weights",
            Section::TotalInferenceMemory => "Total Inference Memory",
            Section::ModelParameters => "Model Parameters",
            Section::OptimizerStates => "Optimizer States",
            Section::Gradients => "Gradients",
            Section::ActivationsAndBatchSize => "Activations and Batch Size",
            Section::ShardedOptimizers => "Sharded Optimizers",
            Section::ThreeD => "3D Parallelism",
        }
    }
}

/// Where a formula comes from: a section of Transformer Math 101, or a paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cite {
    Article(Section),
    Paper(&'static str),
}

/// The words a formula uses, written `{word}` in it: the page puts its own
/// language's word in their place, [`english`] the English one.
pub const WORDS: &[&str] =
    &["bytes", "states", "fp32-copy", "gpu-hours", "price", "max-live", "cpu", "fragmentation", "reserve"];

/// The English for a formula's word.
pub fn english(word: &str) -> &'static str {
    match word {
        "bytes" => "bytes/param",
        "states" => "states",
        "fp32-copy" => "fp32 copy",
        "gpu-hours" => "GPU-hours",
        "price" => "price",
        "max-live" => "max_live_params",
        "cpu" => "CPU",
        "fragmentation" => "fragmentation",
        "reserve" => "overhead",
        _ => "?",
    }
}

/// `text` with every `{word}` of [`WORDS`] replaced by `word(…)`.
pub fn render(text: &str, word: impl Fn(&str) -> &'static str) -> String {
    WORDS.iter().fold(text.to_string(), |t, w| t.replace(&format!("{{{w}}}"), word(w)))
}

/// How a number was computed.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// The equation in symbols (its words as `{word}`, see [`render`]).
    pub formula: String,
    /// The same with this configuration's values, and the result.
    pub substituted: String,
    /// Article sections and papers.
    pub sources: &'static [Cite],
    /// A teaching note, as a translation key for the page (`None` when there is nothing to add).
    pub note: Option<&'static str>,
}

/// Three significant digits without a fraction's trailing zeros: 8, 13.3, 0.5.
fn n(x: f64) -> String {
    crate::units::format_short(x)
}

/// A rate or a count in exponent form, three significant digits: 4e14, 1.58e22.
fn exponent(x: f64) -> String {
    let s = format!("{x:.2e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    format!("{}e{exp}", mantissa.trim_end_matches('0').trim_end_matches('.'))
}

/// As [`n`], the thousands grouped: 237237 → 237,237; 8.5 stays.
fn grouped(x: f64) -> String {
    crate::units::group_thousands(&crate::units::format_short(x))
}

/// The explanation of `item` for `r`, bytes in `unit`.
pub fn explain(r: &Report, item: Item, unit: ByteUnit) -> Explanation {
    let c = &r.config;
    let (t, p) = (c.layout.tp, c.layout.pp);
    let m = &r.per_gpu;
    let bytes = |b: Bytes| unit.format(b);
    let p_txt = format_count(c.params.get());
    let div = |x: f64| if x == 1.0 { String::new() } else { format!(" ÷ {}", n(x)) };
    let z = c.zero;
    let megatron = c.convention == Convention::Megatron || c.tsp;
    let megatron_compute = c.convention == Convention::Megatron;
    // Time follows what the GPUs execute: under `megatron`, C plus the recomputation.
    let hardware = |f: &str| {
        if megatron_compute && r.compute.recompute.get() > 0.0 {
            f.replacen('C', "(C + C_recompute)", 1)
        } else {
            f.to_string()
        }
    };
    let fp8_weights = crate::memory::fp8_weight_bytes(c);
    match item {
        // LoRA: the frozen base in its storage (a quantized base's linear layers at its bits,
        // the rest in 16 bits) and the trained parameters T in the training precision.
        Item::Part(Part::Model) if c.finetune.is_adapter() => {
            let f = c.finetune;
            let trained = crate::finetune::trainable_params(c).get();
            let base = crate::finetune::base_weight_bytes(c);
            Explanation {
                formula: format!(
                    "(P_base · b_base + T · {{bytes}}) ÷ (t·p{})",
                    if z.shards_params() { "·d" } else { "" }
                ),
                substituted: format!(
                    "({} + {} · {}){} = {}",
                    bytes(Bytes(base)),
                    format_count(trained),
                    model_bytes(c.dtypes.precision).0,
                    div(r.divisors.model),
                    bytes(m[Part::Model])
                ),
                sources: if f.base_dtype == crate::finetune::BaseDtype::Nf4 {
                    &[Cite::Paper("QLoRA (Dettmers et al. 2023), §3: NF4 + double quantization, 4.127 bits")]
                } else {
                    &[Cite::Paper("LoRA (Hu et al. 2021), §4.1")]
                },
                note: None,
            }
        }
        Item::Part(Part::Gradients) if c.finetune.is_adapter() => Explanation {
            formula: format!("{{bytes}} · T ÷ (t·p{})", if z.shards_gradients() { "·d" } else { "" }),
            substituted: format!(
                "{} · {}{} = {}",
                gradient_bytes(c.dtypes.grad_dtype).0,
                format_count(crate::finetune::trainable_params(c).get()),
                div(r.divisors.gradients),
                bytes(m[Part::Gradients])
            ),
            sources: &[Cite::Paper("LoRA (Hu et al. 2021), §4.1: r·(d_in + d_out) per adapted matrix")],
            note: None,
        },
        Item::Part(Part::Optimizer) if c.finetune.is_adapter() => {
            let total = optimizer_bytes(c).0;
            let master = crate::memory::master_bytes(c);
            Explanation {
                formula: format!(
                    "({{states}} + {{fp32-copy}}) · T ÷ (t·p{})",
                    if z.shards_optimizer() { "·d" } else { "" }
                ),
                substituted: format!(
                    "({} + {}) · {}{} = {}",
                    n(total - master),
                    n(master),
                    format_count(crate::finetune::trainable_params(c).get()),
                    div(r.divisors.optimizer),
                    bytes(m[Part::Optimizer])
                ),
                sources: &[Cite::Paper("LoRA (Hu et al. 2021), §4.1: r·(d_in + d_out) per adapted matrix")],
                note: None,
            }
        }
        Item::Part(Part::Model) => Explanation {
            // FP8 training adds its copies of the layers' GEMM weights (P_GEMM; with fp8-param-gather,
            // what they add beyond the bf16 ones they replace), divided as the weights are.
            formula: format!(
                "{{bytes}} · P ÷ (t·p{}){}",
                if z.shards_params() { "·d" } else { "" },
                if fp8_weights != 0.0 { " + FP8 · P_GEMM ÷ (t·p)" } else { "" }
            ),
            substituted: format!(
                "{} · {p_txt}{}{} = {}",
                model_bytes(c.dtypes.precision).0,
                div(r.divisors.model),
                if fp8_weights != 0.0 {
                    let gemm = crate::memory::layer_gemm_params(c, &r.stage);
                    format!(" + {} · {}{}", n(fp8_weights), format_count(gemm), div(r.divisors.model))
                } else {
                    String::new()
                },
                bytes(m[Part::Model])
            ),
            sources: &[
                Cite::Article(Section::ModelParameters),
                Cite::Article(Section::ThreeD),
                Cite::Paper("ZeRO (Rajbhandari et al. 2020)"),
            ],
            note: None,
        },
        Item::Part(Part::Gradients) => Explanation {
            formula: format!(
                "{{bytes}} · P ÷ ({}{})",
                if megatron { "t·p" } else { "p" },
                if z.shards_gradients() { "·d" } else { "" }
            ),
            substituted: format!(
                "{} · {p_txt}{} = {}",
                gradient_bytes(c.dtypes.grad_dtype).0,
                div(r.divisors.gradients),
                bytes(m[Part::Gradients])
            ),
            sources: &[Cite::Article(Section::Gradients), Cite::Article(Section::ThreeD)],
            note: (!megatron && t > 1).then_some("note-article-gradients"),
        },
        Item::Part(Part::Optimizer) => {
            let total = optimizer_bytes(c).0;
            let master = crate::memory::master_bytes(c);
            Explanation {
                formula: format!(
                    "({{states}} + {{fp32-copy}}) · P ÷ (t·p{})",
                    if z.shards_optimizer() { "·d" } else { "" }
                ),
                substituted: format!(
                    "({} + {}) · {p_txt}{} = {}{}",
                    n(total - master),
                    n(master),
                    div(r.divisors.optimizer),
                    bytes(m[Part::Optimizer]),
                    if r.cpu_per_node.get() > 0.0 { " ({cpu})" } else { "" }
                ),
                sources: &[Cite::Article(Section::OptimizerStates), Cite::Paper("ZeRO-Offload (Ren et al. 2021)")],
                note: (master > 0.0).then_some("note-master-copy"),
            }
        }
        Item::Part(Part::Activations) => {
            // The numbers are the stage's terms as memory summed them; only the symbols are chosen here.
            let terms = activation_terms(c, &r.stage);
            let sp = c.splits_sequence();
            let f = terms.factor;
            let scores = f.scores > 0.0;
            let full = c.recompute == Recompute::Full;
            let (formula, factor): (String, String) = match (c.convention, full, sp) {
                (_, true, false) => ("2·s·b·h·L".into(), "2".into()),
                (_, true, true) => ("2·s·b·h·L/t".into(), format!("2/{t}")),
                (Convention::Megatron, false, _) => {
                    let moe = c.arch.is_moe();
                    // SwiGLU keeps its 2f-wide input beside the second matrix's input: 6 where GeLU's is 4.
                    let f_term = match (moe, c.arch.mlp == crate::config::Mlp::Swiglu) {
                        (true, true) => "6·f·(top-k + S)/h",
                        (true, false) => "4·f·(top-k + S)/h",
                        (false, true) => "6f/h",
                        (false, false) => "4f/h",
                    };
                    let tf = t as f64;
                    // The inside term before ÷ t: attention's stored inputs in memory's two
                    // pieces (attention_inside), then the MLP's, 4f/h (6f/h with SwiGLU).
                    let arch = &c.arch;
                    let [first, second] = crate::memory::attention_inside(arch);
                    let symbols = if arch.mla.is_on() {
                        "4a(d + d_R)/h + 4a·d_v/h"
                    } else if arch.attention_width() != arch.hidden as f64 {
                        "4ad/h + 4kd/h"
                    } else {
                        "4 + 4k/a"
                    };
                    // FP8 keeps its GEMMs' inputs in one byte (the QKV and fc1 inputs, fc2's f-wide input).
                    let fp8 = f.fp8_saving > 0.0;
                    // A mixture's router, dispatcher indices and the experts' own inputs (memory::expert_activations).
                    let experts = f.experts > 0.0;
                    (
                        format!(
                            "s·b·h·L·({} + ({symbols} + {f_term})/t{}{}{})",
                            if sp { "10/t" } else { "10" },
                            if scores { " + 5as/(ht)" } else { "" },
                            if fp8 { " − FP8" } else { "" },
                            if experts { " + MoE" } else { "" }
                        ),
                        format!(
                            "({} + ({} + {} + {})/{t}{}{}{})",
                            if sp { format!("10/{t}") } else { "10".into() },
                            n(first),
                            n(second),
                            n(f.inside * tf - first - second),
                            if scores { format!(" + {}", n(f.scores)) } else { String::new() },
                            if fp8 { format!(" − {}", n(f.fp8_saving)) } else { String::new() },
                            if experts { format!(" + {}", n(f.experts)) } else { String::new() }
                        ),
                    )
                }
                (Convention::Article, false, false) if scores => {
                    ("s·b·h·L·(10 + 24/t + 5as/(ht))".into(), format!("(10 + {} + {})", n(f.inside), n(f.scores)))
                }
                (Convention::Article, false, false) => {
                    ("s·b·h·L·(10 + 24/t)".into(), format!("(10 + {})", n(f.inside)))
                }
                (Convention::Article, false, true) if scores => {
                    ("s·b·h·L·(34 + 5as/h)/t".into(), format!("({} + {})/{t}", 34, n(f.scores * t as f64)))
                }
                (Convention::Article, false, true) => ("s·b·h·L·34/t".into(), format!("34/{t}")),
            };

            // LoRA's change to each layer's factor: the frozen layers' inputs that go, the adapters' that stay.
            let (formula, factor) = if f.adapters != 0.0 {
                let sign = if f.adapters < 0.0 { "−" } else { "+" };
                (format!("{formula} {sign} s·b·h·L·Δ_LoRA"), format!("({factor} {sign} {})", n(f.adapters.abs())))
            } else {
                (formula, factor)
            };
            // The stage's layers and micro-batches in flight, as the article writes them for the first stage.
            let st = r.stage;
            let uneven = c.pp_first_layers.is_some() || c.pp_last_layers.is_some() || c.pp_layout.is_some();
            let dual = c.schedule == crate::config::Schedule::DualPipe;
            let layers = match (st.chunks > 1, uneven) {
                (true, _) if dual => "2·L/p".to_string(),
                (true, _) => "L/(p·v)".to_string(),
                (false, true) => terms.layers.to_string(),
                _ if st.layers == c.arch.layers.div_ceil(p) => "⌈L/p⌉".to_string(),
                _ => "⌊L/p⌋".to_string(),
            };
            let held = match (c.schedule, st.index) {
                (crate::config::Schedule::Gpipe, _) => "m".to_string(),
                // DualPipe: p + 1 micro-batches over the rank's two stages.
                (crate::config::Schedule::DualPipe, _) => "min(m, p + 1)".to_string(),
                // Interleaved 1F1B: the warm-up forwards of the v chunks, and one more.
                _ if st.chunks > 1 => format!("min(m·v, {}·2 + (v − 1)·p + 1)", p - 1 - st.index),
                (_, 0) => "min(m, p)".to_string(),
                (_, i) => format!("min(m, p − {i})"),
            };
            let divide = if terms.partition > 1.0 { format!(" ÷ {t}") } else { String::new() };
            let ends = terms.embedding + terms.output + terms.mtp;
            let mtp_formula = if terms.mtp > 0.0 { " + MTP·s·b·h·(F + 4)" } else { "" };
            let ends_formula = match (terms.embedding > 0.0, terms.output > 0.0) {
                (false, false) => String::new(),
                (first, last) => {
                    let per = |x: &str| if p > 1 { format!("{x}·{held}") } else { x.to_string() };
                    let emb = if sp { per("s·b·(8 + h)/t") } else { per("s·b·(8 + h)") };
                    let out = per("4·s·b·h/t");
                    match (first, last) {
                        (true, true) => format!(" + {emb} + {out}"),
                        (true, false) => format!(" + {emb}"),
                        _ => format!(" + {out}"),
                    }
                }
            };
            let ends_value = if ends > 0.0 { format!(" + {}", bytes(Bytes(ends))) } else { String::new() };
            let cp = c.layout.cp;
            let cp_text = if cp > 1 { format!(" ÷ {cp}") } else { String::new() };
            let sbh = format!("{}·{}·{}", c.seq_len, c.micro_batch, c.arch.hidden);
            let total = bytes(m[Part::Activations]);
            let (formula, substituted) = match terms.checkpoints {
                // Inputs of every k-th layer, and one k-layer segment in full while it is recomputed.
                Some((k, kept, segment)) => (
                    format!("{}·(⌈L/k⌉ + (k − 1)·F)", formula.trim_end_matches("·L").trim_end_matches("·L/t")),
                    format!(
                        "{sbh}·({factor}·{} + {}·{}){divide}{ends_value}{cp_text} = {total}",
                        kept,
                        k - 1,
                        n(segment)
                    ),
                ),
                // A layout's chunks of unequal layers: each chunk's layers times its forwards in flight.
                None if p > 1 && terms.layer_forwards != terms.layers * terms.in_flight => (
                    formula.replacen("·L", "·Σ(Lₖ·nₖ)", 1),
                    format!("{sbh}·{}·{factor}{divide}{ends_value}{cp_text} = {total}", terms.layer_forwards),
                ),
                // A stage holds its layers of each micro-batch in flight.
                None if p > 1 => (
                    formula.replacen("·L", &format!("·{layers}·{held}"), 1),
                    format!(
                        "{sbh}·{}·{}·{factor}{divide}{ends_value}{cp_text} = {total}",
                        terms.layers, terms.in_flight
                    ),
                ),
                None => (formula, format!("{sbh}·{}·{factor}{divide}{ends_value}{cp_text} = {total}", terms.layers)),
            };
            // Offloaded activations leave the GPU: the layers' share o, in CPU memory instead.
            let (offload_formula, substituted) = if terms.offloaded > 0.0 {
                let off = bytes(terms.offloaded_bytes());
                (" − o·(layers)", substituted.replacen(&format!(" = {total}"), &format!(" − {off} = {total}"), 1))
            } else {
                ("", substituted)
            };
            Explanation {
                formula: format!(
                    "{formula}{}{ends_formula}{mtp_formula}{}{offload_formula}",
                    if terms.partition > 1.0 { " ÷ t" } else { "" },
                    if cp > 1 { " ÷ cp" } else { "" }
                ),
                substituted,
                sources: &[
                    Cite::Article(Section::ActivationsAndBatchSize),
                    Cite::Paper("Korthikanti et al. 2022, Table 2"),
                ],
                note: (p > 1).then_some("note-pipeline-activations"),
            }
        }
        Item::Part(Part::Logits) => {
            let terms = logit_terms(c, &r.stage);
            // The symbol of the transient; its value is the term's own.
            let (peak, sources): (String, &'static [Cite]) = match c.loss {
                Loss::Standard => (n(terms.peak), &[Cite::Paper("PyTorch cross_entropy: log_softmax + nll_loss")]),
                Loss::Fused => (
                    n(terms.peak),
                    &[
                        Cite::Paper("Megatron-LM, tensor_parallel/cross_entropy.py"),
                        Cite::Paper("Korthikanti et al. 2022, §4.1"),
                    ],
                ),
                Loss::Chunked => ("max(2 + 4/n, 8/n)".into(), &[Cite::Paper("torchtune, CEWithChunkedOutputLoss")]),
            };
            let peak_value = n(terms.peak);
            let parallel = match (t > 1, c.layout.cp > 1) {
                (false, false) => "",
                (true, false) => "/t",
                (false, true) => "/cp",
                (true, true) => "/(t·cp)",
            };
            let held = if p > 1 { "k" } else { "1" };
            let divisor = t * c.layout.cp;
            let divide = if divisor > 1 { format!("/{divisor}") } else { String::new() };
            Explanation {
                // With MTP modules, each micro-batch in flight keeps one loss's log-probabilities per module too.
                formula: format!(
                    "s·b·V{parallel}·(4·{held}{} + {peak})",
                    if terms.losses > 1 { "·(1 + MTP)" } else { "" }
                ),
                substituted: if terms.logits > 0.0 {
                    format!(
                        "{}·{}·{}{divide}·(4·{} + {peak_value}) = {}",
                        c.seq_len,
                        c.micro_batch,
                        c.arch.vocab,
                        if terms.held == terms.in_flight * terms.losses && terms.losses > 1 {
                            format!("{}·{}", terms.in_flight, terms.losses)
                        } else {
                            terms.held.to_string()
                        },
                        bytes(m[Part::Logits])
                    )
                } else {
                    format!("0 = {}", bytes(m[Part::Logits]))
                },
                sources,
                note: Some(if c.convention == Convention::Megatron { "note-logits" } else { "note-logits-article" }),
            }
        }
        Item::Part(Part::Buffers) => {
            let terms = buffer_terms(c);
            let act = model_bytes(c.dtypes.precision).0;
            let cp = c.layout.cp;
            let s = if cp > 1 { format!("{}/{cp}", c.seq_len) } else { c.seq_len.to_string() };
            let gather = if terms.sp_gather > 0.0 {
                format!("{s}·{}·{}·{} + ", c.micro_batch, c.arch.hidden, n(act))
            } else {
                String::new()
            };
            // FSDP's reduce-scatter input: the largest unit's gradients, unsharded.
            let (fsdp_f, fsdp_s) = if terms.fsdp_reduce > 0.0 {
                (
                    " + P_max ÷ t · {bytes}".to_string(),
                    format!(
                        " + {} · {}",
                        format_count(crate::memory::fsdp_units(c).1),
                        gradient_bytes(c.dtypes.grad_dtype).0
                    ),
                )
            } else {
                (String::new(), String::new())
            };
            // A quantized base's largest linear, dequantized to 16 bits for its product.
            let (deq_f, deq_s) = if terms.dequantized > 0.0 {
                (" + 2 · max(d_in·d_out) ÷ t".to_string(), format!(" + {}", bytes(Bytes(terms.dequantized))))
            } else {
                (String::new(), String::new())
            };
            Explanation {
                formula: if terms.sp_gather > 0.0 {
                    format!("s/cp·b·h·{} + W{fsdp_f}{deq_f}", n(act))
                } else {
                    format!("W{fsdp_f}{deq_f}")
                },
                substituted: format!(
                    "{gather}{}{fsdp_s}{deq_s} = {}",
                    bytes(Bytes(terms.workspace)),
                    bytes(m[Part::Buffers])
                ),
                sources: &[
                    Cite::Paper("Megatron-LM, tensor_parallel/layers.py (GlobalMemoryBuffer)"),
                    Cite::Paper("PyTorch, CublasHandlePool.cpp"),
                ],
                note: Some(if c.convention == Convention::Megatron { "note-buffers" } else { "note-buffers-article" }),
            }
        }
        Item::Part(Part::LiveParams) if megatron && z.shards_params() => {
            let (layer, largest) = crate::memory::fsdp_units(c);
            Explanation {
                formula: "(P_ℓ + P_max) ÷ t · {bytes}".into(),
                substituted: format!(
                    "({} + {}) · {} = {}",
                    format_count(layer),
                    format_count(largest),
                    model_bytes(c.dtypes.precision).0,
                    bytes(m[Part::LiveParams])
                ),
                sources: &[
                    Cite::Paper("PyTorch FSDP2 (fully_shard, implicit prefetching)"),
                    Cite::Paper("Megatron-FSDP"),
                ],
                note: None,
            }
        }
        Item::Part(Part::LiveParams) => Explanation {
            formula: "min({max-live}, P ÷ (t·p)) · {bytes}".into(),
            substituted: format!(
                "min({}, {}) · {} = {}",
                format_count(c.max_live_params.get()),
                format_count(c.params.get() / (t * p) as f64),
                model_bytes(c.dtypes.precision).0,
                bytes(m[Part::LiveParams])
            ),
            sources: &[Cite::Article(Section::ShardedOptimizers), Cite::Paper("DeepSpeed stage3_max_live_parameters")],
            note: (!z.shards_params()).then_some("note-live-zero3-only"),
        },
        // Post-training's frozen models: the reference in 16 bits (none under LoRA) and the reward model.
        Item::Part(Part::Frozen) => {
            let post = c.post;
            let reference = if c.finetune.is_adapter() || !post.is_on() { 0.0 } else { c.params.get() };
            Explanation {
                formula: format!("2 · (P_ref + P_reward) ÷ (t·p{})", if z.shards_params() { "·d" } else { "" }),
                substituted: format!(
                    "2 · ({} + {}){} = {}",
                    format_count(reference),
                    format_count(if post.method == crate::finetune::post::PostTraining::Dpo {
                        0.0
                    } else {
                        post.reward_params
                    }),
                    div(r.divisors.model),
                    bytes(m[Part::Frozen])
                ),
                sources: &[Cite::Paper("TRL (DPOTrainer, GRPOTrainer, PPOTrainer: ref_model, reward_model)")],
                note: None,
            }
        }
        // The rollout engine: a colocated vLLM's share, or the generation's KV cache.
        Item::Part(Part::Rollout) => {
            let post = c.post;
            let tokens = c.serving.prompt_tokens + post.response_tokens;
            Explanation {
                formula: match post.engine {
                    crate::finetune::post::RolloutEngine::Colocated => "mem-util_rollout · M_GPU".into(),
                    _ => "b · rollouts · (prompt + response) · KV/token".into(),
                },
                substituted: match post.engine {
                    crate::finetune::post::RolloutEngine::Colocated => {
                        format!(
                            "{} · {} = {}",
                            n(post.engine_mem_util),
                            bytes(Bytes(crate::serving::memory::engine_total_bytes(c))),
                            bytes(m[Part::Rollout])
                        )
                    }
                    _ => format!("{} · {} · {} = {}", c.micro_batch, post.rollouts, tokens, bytes(m[Part::Rollout])),
                },
                sources: &[Cite::Paper("TRL (vllm_mode, vllm_gpu_memory_utilization); verl (hybrid engine); OpenRLHF")],
                note: None,
            }
        }
        Item::Part(Part::Reserve) => {
            let formulas = m.total() - m[Part::Reserve];
            Explanation {
                formula: "{fragmentation} · Σ + {reserve}".into(),
                substituted: format!(
                    "{} · {} + {}\u{a0}GB = {}",
                    n(c.system.fragmentation),
                    bytes(formulas),
                    n(c.system.reserve_bytes / 1e9),
                    bytes(m[Part::Reserve])
                ),
                sources: &[Cite::Paper("PyTorch CUDA caching allocator; Megatron-LM, NCCL buffers")],
                note: Some("note-reserve"),
            }
        }
        Item::Inference => Explanation {
            formula: "1.2 · {bytes} · P".into(),
            substituted: format!(
                "1.2 · {} · {p_txt} = {}",
                n(crate::serving::formats::bytes_per_param(c)),
                bytes(r.inference)
            ),
            sources: &[Cite::Article(Section::ModelWeights), Cite::Article(Section::TotalInferenceMemory)],
            note: None,
        },
        Item::Flops if megatron_compute => Explanation {
            formula: "(6 · P + 12 · L · h · s) · D".into(),
            substituted: format!(
                "(6 · {} + 12 · {} · {} · {}) · {} = {} FLOPs",
                format_count(c.active_params.get()),
                c.arch.layers,
                c.arch.hidden,
                c.seq_len,
                format_count(c.tokens.get()),
                n(r.flops().get())
            ),
            sources: &[Cite::Paper("PaLM (Chowdhery et al. 2022), Appendix B"), Cite::Paper("Megatron-LM")],
            note: Some("note-hardware-flops"),
        },
        Item::Flops => Explanation {
            formula: match c.recompute {
                Recompute::None => "6 · P · D".into(),
                Recompute::Selective => "6 · P · D + 4·s·h·L · D".into(),
                Recompute::Full => "(6 + 2) · P · D".into(),
            },
            substituted: format!(
                "6 · {} · {}{} = {} FLOPs",
                format_count(c.active_params.get()),
                format_count(c.tokens.get()),
                if r.compute.recompute.get() > 0.0 {
                    format!(" + {}", n(r.compute.recompute.get()))
                } else {
                    String::new()
                },
                n(r.flops().get())
            ),
            sources: &[
                Cite::Article(Section::ComputeRequirements),
                Cite::Paper("Kaplan et al. 2020"),
                Cite::Paper("Hoffmann et al. 2022"),
            ],
            note: None,
        },
        Item::GpuHours if megatron_compute => Explanation {
            formula: "days · 24 · N".into(),
            substituted: format!("{} · 24 · {} = {}", n(r.days()), c.layout.gpus(), n(r.gpu_hours())),
            sources: &[Cite::Paper("Narayanan et al. 2021")],
            note: Some("note-step-days"),
        },
        Item::GpuHours => Explanation {
            formula: hardware("C ÷ τ ÷ 3600"),
            substituted: format!(
                "{} ÷ {} ÷ 3600 = {}",
                n(r.hardware_flops().get()),
                exponent(r.step.tau),
                grouped(r.gpu_hours())
            ),
            sources: &[Cite::Article(Section::ComputeRequirements)],
            note: Some("note-achieved-flops"),
        },
        // Under `megatron`: the run's optimizer steps, each the step-time model's total.
        Item::Days if megatron_compute => Explanation {
            formula: "D ÷ (B · s) · t_step ÷ 86 400".into(),
            substituted: format!(
                "{} ÷ {} · {} s ÷ 86400 = {}",
                n(c.tokens.get()),
                n(crate::parallel::tokens_per_step(c)),
                n(r.step.total),
                n(r.days())
            ),
            sources: &[Cite::Paper("Narayanan et al. 2021")],
            note: Some("note-step-days"),
        },
        Item::Days => Explanation {
            formula: hardware("C ÷ (N · τ) ÷ 86 400"),
            substituted: format!(
                "{} ÷ ({} · {}) ÷ 86400 = {}",
                n(r.hardware_flops().get()),
                c.layout.gpus(),
                n(r.step.tau),
                n(r.days())
            ),
            sources: &[Cite::Article(Section::ComputeRequirements)],
            note: None,
        },
        Item::Cost => Explanation {
            formula: "{gpu-hours} × {price}".into(),
            substituted: format!(
                "{} × ${} = ${}",
                grouped(r.gpu_hours()),
                c.system.usd_per_gpu_hour,
                grouped(r.cost_usd())
            ),
            sources: &[Cite::Article(Section::ComputeRequirements)],
            note: None,
        },
        Item::Chinchilla => Explanation {
            formula: "D = 20 · P".into(),
            substituted: format!("20 · {p_txt} = {}", format_count(r.chinchilla_tokens().get())),
            sources: &[Cite::Paper("Hoffmann et al. 2022 (Chinchilla)"), Cite::Article(Section::ParameterVsDataset)],
            note: Some("note-200b"),
        },
    }
}

/// The report's notes come from its explanations: the report itself knows nothing of them.
impl Report {
    /// The teaching notes the page shows beside the formulas, in English, once each.
    pub fn notes(&self) -> Vec<&'static str> {
        let mut notes: Vec<&'static str> = Vec::new();
        for &item in Item::ALL {
            if let Some(key) = explain(self, item, crate::units::ByteUnit::Gb).note {
                let text = note_english(key);
                if !notes.contains(&text) {
                    notes.push(text);
                }
            }
        }
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{evaluate, Settings};

    fn report(pairs: &[(&str, &str)]) -> Report {
        evaluate(&Settings::from_pairs(pairs.iter().copied()).0.resolve().unwrap())
    }

    /// Issue 5's worked example, Korthikanti's 22B at t = 8, b = 4. The exact
    /// value is 2.25 GiB · 26.33… = 59.25 GiB; three digits show it as 59.2.
    #[test]
    fn activation_example() {
        let r = report(&[("model", "megatron-22b"), ("tp", "8"), ("micro-batch", "4")]);
        let e = explain(&r, Item::Part(Part::Activations), ByteUnit::Gib);
        assert_eq!(e.formula, "s·b·h·L·(10 + 24/t + 5as/(ht))");
        assert_eq!(e.substituted, "2048·4·6144·48·(10 + 3 + 13.3) = 59.2\u{a0}GiB");
    }

    /// Every term the activation figure adds is in its explanation: the
    /// checkpoint interval's k − 1 layers, Megatron-LM's embedding, ÷ cp.
    #[test]
    fn activation_explanations_name_every_term() {
        let r = report(&[("params", "7B"), ("recompute", "full"), ("recompute-every", "4")]);
        let e = explain(&r, Item::Part(Part::Activations), ByteUnit::Gb);
        assert_eq!(e.formula, "2·s·b·h·(⌈L/k⌉ + (k − 1)·F)");
        assert_eq!(e.substituted, "2048·1·4096·(2·8 + 3·114) = 3.00\u{a0}GB");
        let r =
            report(&[("model", "llama-3-405b"), ("tp", "8"), ("pp", "16"), ("convention", "megatron"), ("cp", "2")]);
        let e = explain(&r, Item::Part(Part::Activations), ByteUnit::Gb);
        assert!(e.formula.ends_with("+ s·b·(8 + h)·min(m, p) ÷ cp"), "{}", e.formula);
        assert!(e.substituted.contains(" + ") && e.substituted.contains(" ÷ 2 = "), "{}", e.substituted);
    }

    #[test]
    fn optimizer_points_out_the_master_copy() {
        let r = report(&[("params", "70B"), ("gpus", "8"), ("zero", "3")]);
        let e = explain(&r, Item::Part(Part::Optimizer), ByteUnit::Gb);
        assert_eq!(e.substituted, "(8 + 4) · 70B ÷ 8 = 105\u{a0}GB");
        assert_eq!(e.note, Some("note-master-copy"));
        let e = explain(&r, Item::Part(Part::Model), ByteUnit::Gb);
        assert_eq!(e.substituted, "2 · 70B ÷ 8 = 17.5\u{a0}GB");
    }

    #[test]
    fn every_item_explains() {
        let r = report(&[("model", "llama-3-405b"), ("tp", "8"), ("pp", "16"), ("dp", "128"), ("zero", "1")]);
        for &item in Item::ALL {
            let e = explain(&r, item, ByteUnit::Gb);
            assert!(e.substituted.contains('='), "{item:?}: {e:?}");
            assert!(!e.sources.is_empty());
            // Every word a formula names has its English.
            for text in [&e.formula, &e.substituted] {
                assert!(!render(text, english).contains(['{', '}']), "{item:?}: {text}");
            }
        }
    }
}
