//! The one vocabulary of the command line, the URL query and the JSON output.
//!
//! [`Settings`] holds what a person asked for (some fields unset, to be derived);
//! [`Settings::resolve`] checks it and builds the [`Config`] the formulas take.

use crate::catalog::{self, Gpu, Model};
use crate::config::*;
use crate::units::{parse_number, NumberError, Params, Tokens};
use std::fmt;

/// What a person asked for, before validation.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub model: Option<&'static Model>,
    /// Unset: from the model, else from `layers`/`hidden` if given, else 7B.
    pub params: Option<f64>,
    /// Unset: the model's, else `params`.
    pub active_params: Option<f64>,
    pub tokens: f64,
    pub seq_len: Option<u64>,
    pub micro_batch: u64,
    pub grad_accum: u64,
    pub hidden: Option<u64>,
    pub layers: Option<u64>,
    pub heads: Option<u64>,
    pub vocab: Option<u64>,
    pub tp: u64,
    pub pp: u64,
    /// Unset: N/(t·p), or 1.
    pub dp: Option<u64>,
    /// Unset: t·p·d.
    pub gpus: Option<u64>,
    pub precision: Precision,
    /// Unset: the model dtype (article), fp32 under the megatron convention.
    pub grad_dtype: Option<GradDtype>,
    pub optimizer: Optimizer,
    pub recompute: Recompute,
    pub sequence_parallel: bool,
    pub partition_activations: bool,
    pub tsp: bool,
    pub zero: ZeroStage,
    pub offload: Offload,
    pub max_live_params: f64,
    pub gpu: &'static Gpu,
    /// Unset: the GPU's. In the vendor's GB, held as GiB (an "80 GB" card).
    pub gpu_mem: Option<f64>,
    /// Unset: the GPU's default achieved TFLOP/s.
    pub tflops: Option<f64>,
    pub usd_per_gpu_hour: Option<f64>,
    pub inference_dtype: InferenceDtype,
    pub convention: Convention,
}

/// The default shape when neither a model nor `layers`/`hidden` is given:
/// a 7B decoder (L = 32, h = 4096, a = 32, as Llama 2 7B and Pythia-6.9B).
pub const DEFAULT_ARCH: Architecture = Architecture { layers: 32, hidden: 4096, heads: 32, vocab: 32000 };
pub const DEFAULT_PARAMS: f64 = 7e9;
pub const DEFAULT_SEQ_LEN: u64 = 2048;

impl Default for Settings {
    /// 7B, mixed precision, AdamW, one A100 80 GB (the article's running example), on 300B tokens (GPT-3's count, above the article's 200B floor).
    fn default() -> Self {
        Settings {
            model: None,
            params: None,
            active_params: None,
            tokens: 300e9,
            seq_len: None,
            micro_batch: 1,
            grad_accum: 1,
            hidden: None,
            layers: None,
            heads: None,
            vocab: None,
            tp: 1,
            pp: 1,
            dp: None,
            gpus: None,
            precision: Precision::Mixed,
            grad_dtype: None,
            optimizer: Optimizer::AdamW,
            recompute: Recompute::None,
            sequence_parallel: false,
            partition_activations: false,
            tsp: false,
            zero: ZeroStage::ALL[0],
            offload: Offload::None,
            max_live_params: 1e9,
            gpu: catalog::default_gpu(),
            gpu_mem: None,
            tflops: None,
            usd_per_gpu_hour: None,
            inference_dtype: InferenceDtype::Fp16,
            convention: Convention::Article,
        }
    }
}

impl Default for Config {
    /// The configuration of [`Settings::default`], built without a fallible step
    /// (the page shows it when a link opens on an impossible combination).
    fn default() -> Self {
        let gpu = catalog::default_gpu();
        Config {
            model: None,
            params: Params(DEFAULT_PARAMS),
            active_params: Params(DEFAULT_PARAMS),
            tokens: Tokens(300e9),
            arch: DEFAULT_ARCH,
            seq_len: DEFAULT_SEQ_LEN,
            micro_batch: 1,
            grad_accum: 1,
            layout: Layout { tp: 1, pp: 1, dp: 1 },
            precision: Precision::Mixed,
            grad_dtype: GradDtype::Fp16,
            optimizer: Optimizer::AdamW,
            recompute: Recompute::None,
            sequence_parallel: false,
            partition_activations: false,
            tsp: false,
            zero: ZeroStage::ALL[0],
            offload: Offload::None,
            max_live_params: Params(1e9),
            gpu,
            gpu_mem_bytes: gpu.mem_bytes(),
            flops_per_gpu: gpu.achieved_tflops * 1e12,
            usd_per_gpu_hour: gpu.usd_per_hour,
            inference_dtype: InferenceDtype::Fp16,
            convention: Convention::Article,
        }
    }
}

/// The kind of value a key takes: drives parsing, `--help` and the UI.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A non-negative real number, suffixes allowed, within [min, max].
    Real { min: f64, max: f64 },
    /// A whole number within [min, max].
    Whole { min: u64, max: u64 },
    /// A switch: `1/0`, `true/false`, `on/off`, `yes/no`; bare `--flag` on the command line.
    Switch,
    /// One of a fixed list.
    Choice,
}

/// One key of the vocabulary.
#[derive(Debug)]
pub struct Key {
    pub name: &'static str,
    pub kind: Kind,
    pub help: &'static str,
}

const fn real(min: f64, max: f64) -> Kind {
    Kind::Real { min, max }
}
const fn whole(min: u64, max: u64) -> Kind {
    Kind::Whole { min, max }
}

/// Every key, in `--help` order. Bounds keep all outputs finite.
pub static KEYS: &[Key] = &[
    Key { name: "model", kind: Kind::Choice, help: "catalogue model; explicit flags override its fields" },
    Key { name: "params", kind: real(1.0, 1e16), help: "parameters P (7e9, 7B, 1.4T)" },
    Key { name: "active-params", kind: real(1.0, 1e16), help: "parameters active per token (MoE); default P" },
    Key { name: "tokens", kind: real(1.0, 1e18), help: "training tokens D" },
    Key { name: "seq-len", kind: whole(1, 10_000_000), help: "sequence length s" },
    Key { name: "micro-batch", kind: whole(1, 1_000_000), help: "micro-batch per GPU b" },
    Key { name: "grad-accum", kind: whole(1, 10_000_000), help: "micro-batches per step per pipeline m" },
    Key { name: "hidden", kind: whole(1, 10_000_000), help: "hidden size h" },
    Key { name: "layers", kind: whole(1, 100_000), help: "layers L" },
    Key { name: "heads", kind: whole(1, 1_000_000), help: "attention heads a" },
    Key { name: "vocab", kind: whole(1, 100_000_000), help: "vocabulary V" },
    Key { name: "tp", kind: whole(1, 1_000_000), help: "tensor-parallel degree t" },
    Key { name: "pp", kind: whole(1, 1_000_000), help: "pipeline-parallel degree p" },
    Key { name: "dp", kind: whole(1, 1_000_000_000), help: "data-parallel degree d" },
    Key { name: "gpus", kind: whole(1, 1_000_000_000), help: "GPUs N = t·p·d" },
    Key { name: "precision", kind: Kind::Choice, help: "training precision" },
    Key {
        name: "grad-dtype",
        kind: Kind::Choice,
        help: "gradient storage; default the model dtype (fp32 under megatron)",
    },
    Key { name: "optimizer", kind: Kind::Choice, help: "optimizer" },
    Key { name: "recompute", kind: Kind::Choice, help: "activation recomputation" },
    Key { name: "sequence-parallel", kind: Kind::Switch, help: "Megatron sequence parallelism (the 10 becomes 10/t)" },
    Key {
        name: "partition-activations", kind: Kind::Switch, help: "ZeRO-R activation partitioning (activations ÷ t)"
    },
    Key {
        name: "tsp",
        kind: Kind::Switch,
        help: "folded tensor+sequence parallelism: model states and activations ÷ t",
    },
    Key { name: "zero", kind: whole(0, 3), help: "ZeRO stage 0–3" },
    Key { name: "offload", kind: Kind::Choice, help: "ZeRO-Offload of the optimizer to CPU memory" },
    Key { name: "max-live-params", kind: real(0.0, 1e16), help: "ZeRO-3 stage3_max_live_parameters" },
    Key { name: "gpu", kind: Kind::Choice, help: "catalogue GPU" },
    Key {
        name: "gpu-mem",
        kind: real(0.001, 1e6),
        help: "memory per GPU, GB as the vendor labels it (80 for an 80 GB card = 80 GiB)",
    },
    Key { name: "tflops", kind: real(0.001, 1e9), help: "achieved TFLOP/s per GPU (not the datasheet peak)" },
    Key { name: "usd-per-gpu-hour", kind: real(0.0, 1e9), help: "price per GPU-hour, US dollars" },
    Key { name: "inference-dtype", kind: Kind::Choice, help: "weights dtype when serving" },
    Key {
        name: "convention",
        kind: Kind::Choice,
        help: "article (Transformer Math 101 verbatim) or megatron (per-rank accounting)",
    },
];

/// Looks a key up.
pub fn key(name: &str) -> Option<&'static Key> {
    KEYS.iter().find(|k| k.name == name)
}

/// The choices a `Choice` key accepts.
pub fn choices(name: &str) -> Vec<&'static str> {
    match name {
        "model" => catalog::MODELS.iter().map(|m| m.name).collect(),
        "gpu" => catalog::GPUS.iter().map(|g| g.name).collect(),
        "precision" => Precision::ALL.iter().map(|v| v.as_str()).collect(),
        "grad-dtype" => GradDtype::ALL.iter().map(|v| v.as_str()).collect(),
        "optimizer" => Optimizer::ALL.iter().map(|v| v.as_str()).collect(),
        "recompute" => Recompute::ALL.iter().map(|v| v.as_str()).collect(),
        "offload" => Offload::ALL.iter().map(|v| v.as_str()).collect(),
        "inference-dtype" => InferenceDtype::ALL.iter().map(|v| v.as_str()).collect(),
        "convention" => Convention::ALL.iter().map(|v| v.as_str()).collect(),
        _ => Vec::new(),
    }
}

/// A key or value that could not be taken.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingError {
    UnknownKey(String),
    BadNumber { key: &'static str, value: String, why: NumberError },
    NotWhole { key: &'static str, value: String },
    OutOfRange { key: &'static str, value: String, min: f64, max: f64 },
    UnknownChoice { key: &'static str, value: String, choices: Vec<&'static str> },
    BadSwitch { key: &'static str, value: String },
}

impl SettingError {
    /// The key the error is about (for marking the control in the UI).
    pub fn key(&self) -> &str {
        match self {
            SettingError::UnknownKey(k) => k,
            SettingError::BadNumber { key, .. }
            | SettingError::NotWhole { key, .. }
            | SettingError::OutOfRange { key, .. }
            | SettingError::UnknownChoice { key, .. }
            | SettingError::BadSwitch { key, .. } => key,
        }
    }
}

/// Cuts a user-supplied value for an error line: a 10 000-character value must not flood it.
fn shown(value: &str) -> String {
    let mut s: String = value.chars().take(40).collect();
    if value.chars().count() > 40 {
        s.push('…');
    }
    s
}

/// A range bound as a person writes it: `3`, `0.001`, `1e16`.
fn bound(x: f64) -> String {
    if x >= 1e6 {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::UnknownKey(k) => write!(f, "unknown key '{}' (see --help)", shown(k)),
            SettingError::BadNumber { key, value, why } => write!(f, "{key}: '{}' {why}", shown(value)),
            SettingError::NotWhole { key, value } => write!(f, "{key}: '{}' must be a whole number", shown(value)),
            SettingError::OutOfRange { key, value, min, max } => {
                write!(f, "{key}: '{}' is outside {} to {}", shown(value), bound(*min), bound(*max))
            }
            SettingError::UnknownChoice { key, value, choices } => {
                write!(f, "{key}: '{}' is not one of {}", shown(value), choices.join(" | "))
            }
            SettingError::BadSwitch { key, value } => {
                write!(f, "{key}: '{}' is not a switch value (1/0, true/false, on/off)", shown(value))
            }
        }
    }
}

/// A combination that no GPU cluster can have.
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigError {
    /// N ≠ t·p·d.
    GpuMismatch { gpus: u64, tp: u64, pp: u64, dp: u64 },
    /// N is not a multiple of t·p, so d = N/(t·p) is not whole.
    GpusNotDivisible { gpus: u64, tp: u64, pp: u64 },
    /// t must divide the heads (article, "3D parallelism"; Megatron splits heads).
    TpNotDividingHeads { tp: u64, heads: u64 },
    /// t·p·d beyond 10⁹ GPUs.
    TooManyGpus,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::GpuMismatch { gpus, tp, pp, dp } => {
                write!(f, "gpus {gpus} ≠ tp·pp·dp = {tp}·{pp}·{dp} = {}", tp * pp * dp)
            }
            ConfigError::GpusNotDivisible { gpus, tp, pp } => {
                write!(f, "gpus {gpus} is not a multiple of tp·pp = {}", tp * pp)
            }
            ConfigError::TpNotDividingHeads { tp, heads } => {
                write!(f, "tp {tp} does not divide the {heads} attention heads")
            }
            ConfigError::TooManyGpus => write!(f, "tp·pp·dp exceeds 10⁹ GPUs"),
        }
    }
}

impl std::error::Error for ConfigError {}
impl std::error::Error for SettingError {}

fn parse_switch(key: &'static str, value: &str) -> Result<bool, SettingError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "" | "1" | "true" | "on" | "yes" => Ok(true),
        "0" | "false" | "off" | "no" => Ok(false),
        _ => Err(SettingError::BadSwitch { key, value: value.to_string() }),
    }
}

fn parse_real(key: &'static Key, value: &str) -> Result<f64, SettingError> {
    let Kind::Real { min, max } = key.kind else { unreachable!("parse_real on a non-real key") };
    let x =
        parse_number(value).map_err(|why| SettingError::BadNumber { key: key.name, value: value.to_string(), why })?;
    if x < min || x > max {
        return Err(SettingError::OutOfRange { key: key.name, value: value.to_string(), min, max });
    }
    Ok(x)
}

fn parse_whole(key: &'static Key, value: &str) -> Result<u64, SettingError> {
    let Kind::Whole { min, max } = key.kind else { unreachable!("parse_whole on a non-whole key") };
    let x =
        parse_number(value).map_err(|why| SettingError::BadNumber { key: key.name, value: value.to_string(), why })?;
    if x.fract() != 0.0 {
        return Err(SettingError::NotWhole { key: key.name, value: value.to_string() });
    }
    if x < min as f64 || x > max as f64 {
        return Err(SettingError::OutOfRange {
            key: key.name,
            value: value.to_string(),
            min: min as f64,
            max: max as f64,
        });
    }
    Ok(x as u64)
}

fn parse_choice<T>(key: &'static Key, value: &str, parse: impl Fn(&str) -> Option<T>) -> Result<T, SettingError> {
    parse(value).ok_or_else(|| SettingError::UnknownChoice {
        key: key.name,
        value: value.to_string(),
        choices: choices(key.name),
    })
}

impl Settings {
    /// Applies a catalogue model: its fields become explicit values that later keys override.
    pub fn with_model(mut self, model: &'static Model) -> Self {
        self.model = Some(model);
        self.params = Some(model.params);
        self.active_params = Some(model.active_params);
        self.layers = Some(model.layers);
        self.hidden = Some(model.hidden);
        self.heads = Some(model.heads);
        self.vocab = Some(model.vocab);
        self.seq_len = Some(model.seq_len);
        self
    }

    /// Sets one key. Keys the page alone uses (`lang`, `embed`, …) are unknown here.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), SettingError> {
        let key = key(name).ok_or_else(|| SettingError::UnknownKey(name.to_string()))?;
        match key.name {
            "model" => *self = std::mem::take(self).with_model(parse_choice(key, value, catalog::model)?),
            "params" => self.params = Some(parse_real(key, value)?),
            "active-params" => self.active_params = Some(parse_real(key, value)?),
            "tokens" => self.tokens = parse_real(key, value)?,
            "seq-len" => self.seq_len = Some(parse_whole(key, value)?),
            "micro-batch" => self.micro_batch = parse_whole(key, value)?,
            "grad-accum" => self.grad_accum = parse_whole(key, value)?,
            "hidden" => self.hidden = Some(parse_whole(key, value)?),
            "layers" => self.layers = Some(parse_whole(key, value)?),
            "heads" => self.heads = Some(parse_whole(key, value)?),
            "vocab" => self.vocab = Some(parse_whole(key, value)?),
            "tp" => self.tp = parse_whole(key, value)?,
            "pp" => self.pp = parse_whole(key, value)?,
            "dp" => self.dp = Some(parse_whole(key, value)?),
            "gpus" => self.gpus = Some(parse_whole(key, value)?),
            "precision" => self.precision = parse_choice(key, value, Precision::parse)?,
            "grad-dtype" => self.grad_dtype = Some(parse_choice(key, value, GradDtype::parse)?),
            "optimizer" => self.optimizer = parse_choice(key, value, Optimizer::parse)?,
            "recompute" => self.recompute = parse_choice(key, value, Recompute::parse)?,
            "sequence-parallel" => self.sequence_parallel = parse_switch(key.name, value)?,
            "partition-activations" => self.partition_activations = parse_switch(key.name, value)?,
            "tsp" => self.tsp = parse_switch(key.name, value)?,
            "zero" => self.zero = ZeroStage::new(parse_whole(key, value)?).unwrap_or(self.zero),
            "offload" => self.offload = parse_choice(key, value, Offload::parse)?,
            "max-live-params" => self.max_live_params = parse_real(key, value)?,
            "gpu" => self.gpu = parse_choice(key, value, catalog::gpu)?,
            "gpu-mem" => self.gpu_mem = Some(parse_real(key, value)?),
            "tflops" => self.tflops = Some(parse_real(key, value)?),
            "usd-per-gpu-hour" => self.usd_per_gpu_hour = Some(parse_real(key, value)?),
            "inference-dtype" => self.inference_dtype = parse_choice(key, value, InferenceDtype::parse)?,
            "convention" => self.convention = parse_choice(key, value, Convention::parse)?,
            other => return Err(SettingError::UnknownKey(other.to_string())),
        }
        Ok(())
    }

    /// Builds settings from key/value pairs, leniently: a bad pair keeps the
    /// default and is reported; the rest still apply. `model` applies first so
    /// explicit keys override its fields, whatever their order; a repeated key's
    /// last value wins.
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> (Settings, Vec<SettingError>) {
        let pairs: Vec<(K, V)> = pairs.into_iter().collect();
        let mut settings = Settings::default();
        let mut errors = Vec::new();
        let (models, rest): (Vec<_>, Vec<_>) = pairs.iter().partition(|(k, _)| k.as_ref() == "model");
        for (k, v) in models.into_iter().chain(rest) {
            if let Err(e) = settings.set(k.as_ref(), v.as_ref()) {
                errors.push(e);
            }
        }
        (settings, errors)
    }

    /// The pairs that restore these settings through [`Settings::from_pairs`]:
    /// `model` first, then every key that differs from what the model (or the
    /// default) gives. The default settings give no pairs.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let base = match self.model {
            Some(m) => Settings::default().with_model(m),
            None => Settings::default(),
        };
        let mut out = Vec::new();
        if let Some(m) = self.model {
            out.push(("model", m.name.to_string()));
        }
        fn num(x: f64) -> String {
            // Shortest form that reads back to the same f64.
            format!("{x}")
        }
        macro_rules! diff {
            ($key:literal, $field:ident, $fmt:expr) => {
                if self.$field != base.$field {
                    if let Some(text) = ($fmt)(&self.$field) {
                        out.push(($key, text));
                    }
                }
            };
        }
        let opt_f = |x: &Option<f64>| x.map(num);
        let opt_u = |x: &Option<u64>| x.map(|v| v.to_string());
        let u = |x: &u64| Some(x.to_string());
        let b = |x: &bool| Some(if *x { "1" } else { "0" }.to_string());
        diff!("params", params, opt_f);
        diff!("active-params", active_params, opt_f);
        diff!("tokens", tokens, |x: &f64| Some(num(*x)));
        diff!("seq-len", seq_len, opt_u);
        diff!("micro-batch", micro_batch, u);
        diff!("grad-accum", grad_accum, u);
        diff!("hidden", hidden, opt_u);
        diff!("layers", layers, opt_u);
        diff!("heads", heads, opt_u);
        diff!("vocab", vocab, opt_u);
        diff!("tp", tp, u);
        diff!("pp", pp, u);
        diff!("dp", dp, opt_u);
        diff!("gpus", gpus, opt_u);
        diff!("precision", precision, |x: &Precision| Some(x.as_str().to_string()));
        diff!("grad-dtype", grad_dtype, |x: &Option<GradDtype>| x.map(|v| v.as_str().to_string()));
        diff!("optimizer", optimizer, |x: &Optimizer| Some(x.as_str().to_string()));
        diff!("recompute", recompute, |x: &Recompute| Some(x.as_str().to_string()));
        diff!("sequence-parallel", sequence_parallel, b);
        diff!("partition-activations", partition_activations, b);
        diff!("tsp", tsp, b);
        diff!("zero", zero, |x: &ZeroStage| Some(x.get().to_string()));
        diff!("offload", offload, |x: &Offload| Some(x.as_str().to_string()));
        diff!("max-live-params", max_live_params, |x: &f64| Some(num(*x)));
        diff!("gpu", gpu, |x: &&Gpu| Some(x.name.to_string()));
        diff!("gpu-mem", gpu_mem, opt_f);
        diff!("tflops", tflops, opt_f);
        diff!("usd-per-gpu-hour", usd_per_gpu_hour, opt_f);
        diff!("inference-dtype", inference_dtype, |x: &InferenceDtype| Some(x.as_str().to_string()));
        diff!("convention", convention, |x: &Convention| Some(x.as_str().to_string()));
        out
    }

    /// The value a control shows for `key`, after defaults (the GPU's memory,
    /// derived P, d = N/(t·p), …), in the vocabulary's spelling. `None` for an unknown key.
    pub fn value(&self, key: &str) -> Option<String> {
        let arch = self.architecture();
        let num = |x: f64| format!("{x}");
        Some(match key {
            "model" => self.model.map_or(String::new(), |m| m.name.to_string()),
            "params" => num(self.resolved_params().get()),
            "active-params" => num(self.active_params.unwrap_or(self.resolved_params().get())),
            "tokens" => num(self.tokens),
            "seq-len" => self.seq_len.unwrap_or(DEFAULT_SEQ_LEN).to_string(),
            "micro-batch" => self.micro_batch.to_string(),
            "grad-accum" => self.grad_accum.to_string(),
            "hidden" => arch.hidden.to_string(),
            "layers" => arch.layers.to_string(),
            "heads" => arch.heads.to_string(),
            "vocab" => arch.vocab.to_string(),
            "tp" => self.tp.to_string(),
            "pp" => self.pp.to_string(),
            "dp" => self.dp.or(self.gpus.map(|n| (n / (self.tp * self.pp)).max(1))).unwrap_or(1).to_string(),
            "gpus" => self.gpus.unwrap_or(self.tp * self.pp * self.dp.unwrap_or(1)).to_string(),
            "precision" => self.precision.as_str().into(),
            "grad-dtype" => self.grad_dtype.map_or("", |g| g.as_str()).into(),
            "optimizer" => self.optimizer.as_str().into(),
            "recompute" => self.recompute.as_str().into(),
            "sequence-parallel" => (self.sequence_parallel as u8).to_string(),
            "partition-activations" => (self.partition_activations as u8).to_string(),
            "tsp" => (self.tsp as u8).to_string(),
            "zero" => self.zero.get().to_string(),
            "offload" => self.offload.as_str().into(),
            "max-live-params" => num(self.max_live_params),
            "gpu" => self.gpu.name.into(),
            "gpu-mem" => num(self.gpu_mem.unwrap_or(self.gpu.mem_gb)),
            "tflops" => num(self.tflops.unwrap_or(self.gpu.achieved_tflops)),
            "usd-per-gpu-hour" => num(self.usd_per_gpu_hour.unwrap_or(self.gpu.usd_per_hour)),
            "inference-dtype" => self.inference_dtype.as_str().into(),
            "convention" => self.convention.as_str().into(),
            _ => return None,
        })
    }

    /// The architecture after defaults: the model's or the given fields, else the 7B shape.
    pub fn architecture(&self) -> Architecture {
        Architecture {
            layers: self.layers.unwrap_or(DEFAULT_ARCH.layers),
            hidden: self.hidden.unwrap_or(DEFAULT_ARCH.hidden),
            heads: self.heads.unwrap_or(DEFAULT_ARCH.heads),
            vocab: self.vocab.unwrap_or(DEFAULT_ARCH.vocab),
        }
    }

    /// P after defaults: given, else 12·L·h² + V·h when `layers` or `hidden` is given, else 7B.
    pub fn resolved_params(&self) -> Params {
        match self.params {
            Some(p) => Params(p),
            None if self.layers.is_some() || self.hidden.is_some() => self.architecture().approx_params(),
            None => Params(DEFAULT_PARAMS),
        }
    }

    /// Checks the combination and builds the [`Config`].
    pub fn resolve(&self) -> Result<Config, ConfigError> {
        let arch = self.architecture();
        let (tp, pp) = (self.tp, self.pp);
        let mp = tp.checked_mul(pp).filter(|&x| x <= 1_000_000_000).ok_or(ConfigError::TooManyGpus)?;
        let dp = match (self.gpus, self.dp) {
            (None, None) => 1,
            (None, Some(dp)) => dp,
            (Some(gpus), None) => {
                if !gpus.is_multiple_of(mp) {
                    return Err(ConfigError::GpusNotDivisible { gpus, tp, pp });
                }
                gpus / mp
            }
            (Some(gpus), Some(dp)) => {
                if mp.checked_mul(dp) != Some(gpus) {
                    return Err(ConfigError::GpuMismatch { gpus, tp, pp, dp });
                }
                dp
            }
        };
        if mp.checked_mul(dp).is_none_or(|n| n > 1_000_000_000) {
            return Err(ConfigError::TooManyGpus);
        }
        if !arch.heads.is_multiple_of(tp) {
            return Err(ConfigError::TpNotDividingHeads { tp, heads: arch.heads });
        }
        let params = self.resolved_params();
        let active = self.active_params.map(Params).unwrap_or(params);
        let grad_dtype = self.grad_dtype.unwrap_or(match (self.convention, self.precision) {
            (_, Precision::Fp32) => GradDtype::Fp32,
            // Megatron-LM accumulates gradients in fp32 main_grad buffers.
            (Convention::Megatron, _) => GradDtype::Fp32,
            (Convention::Article, _) => GradDtype::Fp16,
        });
        Ok(Config {
            model: self.model,
            params,
            active_params: active,
            tokens: Tokens(self.tokens),
            arch,
            seq_len: self.seq_len.unwrap_or(DEFAULT_SEQ_LEN),
            micro_batch: self.micro_batch,
            grad_accum: self.grad_accum,
            layout: Layout { tp, pp, dp },
            precision: self.precision,
            grad_dtype,
            optimizer: self.optimizer,
            recompute: self.recompute,
            sequence_parallel: self.sequence_parallel,
            partition_activations: self.partition_activations,
            tsp: self.tsp,
            zero: self.zero,
            offload: self.offload,
            max_live_params: Params(self.max_live_params),
            gpu: self.gpu,
            gpu_mem_bytes: self.gpu_mem.map_or(self.gpu.mem_bytes(), |gb| gb * crate::units::Bytes::GIB),
            flops_per_gpu: self.tflops.unwrap_or(self.gpu.achieved_tflops) * 1e12,
            usd_per_gpu_hour: self.usd_per_gpu_hour.unwrap_or(self.gpu.usd_per_hour),
            inference_dtype: self.inference_dtype,
            convention: self.convention,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(pairs: &[(&str, &str)]) -> Settings {
        let (s, errors) = Settings::from_pairs(pairs.iter().copied());
        assert!(errors.is_empty(), "{errors:?}");
        s
    }

    #[test]
    fn default_is_the_articles_7b_on_one_a100() {
        let c = Settings::default().resolve().unwrap();
        assert_eq!(c.params, Params(7e9));
        assert_eq!(c.layout.gpus(), 1);
        assert_eq!(c.gpu.name, "a100-80gb");
        assert_eq!(c.precision, Precision::Mixed);
        assert_eq!(c.optimizer, Optimizer::AdamW);
        assert!(Settings::default().to_pairs().is_empty());
        assert_eq!(Settings::default().resolve(), Ok(Config::default()));
    }

    #[test]
    fn model_applies_first_and_explicit_keys_override_it() {
        let s = settings(&[("layers", "40"), ("model", "llama-2-7b")]);
        assert_eq!(s.layers, Some(40));
        assert_eq!(s.hidden, Some(4096));
        assert_eq!(s.params, Some(6_738_415_616.0));
    }

    #[test]
    fn params_derived_from_shape_when_absent() {
        let c = settings(&[("layers", "32"), ("hidden", "4096"), ("vocab", "50000")]).resolve().unwrap();
        assert_eq!(c.params.get(), 12.0 * 32.0 * 4096.0 * 4096.0 + 50000.0 * 4096.0);
    }

    #[test]
    fn gpus_and_degrees() {
        let c = settings(&[("gpus", "64"), ("tp", "8")]).resolve().unwrap();
        assert_eq!(c.layout, Layout { tp: 8, pp: 1, dp: 8 });
        let e = settings(&[("gpus", "64"), ("tp", "8"), ("dp", "4")]).resolve().unwrap_err();
        assert_eq!(e, ConfigError::GpuMismatch { gpus: 64, tp: 8, pp: 1, dp: 4 });
        let e = settings(&[("gpus", "12"), ("tp", "8")]).resolve().unwrap_err();
        assert_eq!(e, ConfigError::GpusNotDivisible { gpus: 12, tp: 8, pp: 1 });
        let e = settings(&[("tp", "3")]).resolve().unwrap_err();
        assert_eq!(e, ConfigError::TpNotDividingHeads { tp: 3, heads: 32 });
    }

    #[test]
    fn bad_pairs_are_reported_and_the_rest_applies() {
        let (s, errors) =
            Settings::from_pairs([("params", "-1"), ("zero", "7"), ("bogus", "1"), ("tp", "2.5"), ("tokens", "2T")]);
        assert_eq!(errors.len(), 4, "{errors:?}");
        assert_eq!(s.tokens, 2e12);
        assert_eq!(s.params, None);
        assert_eq!(errors.iter().map(|e| e.key().to_string()).collect::<Vec<_>>(), ["params", "zero", "bogus", "tp"]);
    }

    #[test]
    fn pairs_round_trip() {
        let s = settings(&[
            ("model", "llama-3-405b"),
            ("tp", "8"),
            ("pp", "16"),
            ("dp", "128"),
            ("zero", "1"),
            ("recompute", "selective"),
            ("sequence-parallel", "1"),
            ("gpu", "h100-80gb"),
            ("tokens", "15.6T"),
            ("layers", "120"),
        ]);
        let (back, errors) = Settings::from_pairs(s.to_pairs());
        assert!(errors.is_empty());
        assert_eq!(back, s);
    }

    #[test]
    fn every_key_has_a_value_that_reads_back() {
        let s = settings(&[("model", "llama-2-70b"), ("gpus", "16"), ("zero", "3")]);
        for k in KEYS {
            let v = s.value(k.name).unwrap();
            if v.is_empty() {
                continue;
            }
            let mut back = s.clone();
            back.set(k.name, &v).unwrap();
            assert_eq!(back.resolve(), s.resolve(), "{}", k.name);
        }
        assert_eq!(s.value("dp").as_deref(), Some("16"));
        assert_eq!(s.value("gpu-mem").as_deref(), Some("80"));
        assert_eq!(s.value("nope"), None);
    }

    #[test]
    fn long_values_are_cut_in_messages() {
        let long = "9".repeat(10_000);
        let (_, errors) = Settings::from_pairs([("params", long.as_str())]);
        assert!(errors[0].to_string().len() < 200);
    }
}
