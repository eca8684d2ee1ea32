//! The one vocabulary of the command line, the URL query, the page's controls
//! and the JSON output: every key is one row of [`KEYS`], with its name,
//! kind and bounds, help, and how it reads and writes its field. Parsing,
//! `--help`, the value a control shows and the canonical link are derived
//! from the rows. Views and labels name a key by its typed handle [`K`].

use crate::catalog;
use crate::config::*;
use crate::page::{Lang, PageOptions, View};
use crate::planner::PlanOptions;
use crate::presets;
use crate::settings::{ConfigError, Settings};
use crate::units::{parse_number, ByteUnit, NumberError};
use std::fmt;

/// A value after parsing: numbers, switches and the canonical spelling of a choice.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Num(f64),
    Bool(bool),
    Text(String),
}

impl Value {
    fn num(&self) -> f64 {
        match self {
            Value::Num(x) => *x,
            Value::Bool(b) => *b as u8 as f64,
            Value::Text(_) => 0.0,
        }
    }
    fn whole(&self) -> u64 {
        self.num() as u64
    }
    fn flag(&self) -> bool {
        matches!(self, Value::Bool(true))
    }
    fn text(&self) -> &str {
        match self {
            Value::Text(t) => t,
            _ => "",
        }
    }
    /// The spelling a link, a control and `--help` use: the shortest that reads back to the same value.
    pub fn to_text(&self) -> String {
        match self {
            Value::Num(x) => format!("{x}"),
            Value::Bool(b) => if *b { "1" } else { "0" }.into(),
            Value::Text(t) => t.clone(),
        }
    }
}

/// The kind of value a key takes: drives parsing, `--help` and the control.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A non-negative real number, suffixes allowed, within [min, max].
    Real { min: f64, max: f64 },
    /// A whole number within [min, max].
    Whole { min: u64, max: u64 },
    /// `1/0`, `true/false`, `on/off`, `yes/no`; a bare `--flag` on the command line.
    Switch,
    /// One of a fixed list (case-insensitive).
    Choice(fn() -> Vec<&'static str>),
    /// A comma-separated list of choices.
    List(fn() -> Vec<&'static str>),
    /// Any text up to a length.
    Text { max_chars: usize },
}

/// Which state a key belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The calculation ([`Settings`]): the command line, the URL, the JSON.
    Calc,
    /// The planner's assumptions ([`PlanOptions`]): `tmath plan` and the page.
    Plan,
    /// The page alone ([`PageOptions`]).
    Page,
}

type Get<T> = fn(&T) -> Option<Value>;
type Shown<T> = fn(&T) -> Value;
type Set<T> = fn(&mut T, &Value);

/// How a key reads and writes its field. `get` is the field as stored (`None`:
/// unset, derived); `shown`, where given, is the value after defaults (what a
/// control shows).
#[derive(Clone, Copy)]
pub enum Access {
    Calc { get: Get<Settings>, shown: Option<Shown<Settings>>, set: Set<Settings> },
    Plan { get: Get<PlanOptions>, set: Set<PlanOptions> },
    Page { get: Get<PageOptions>, set: Set<PageOptions> },
}

/// One row of the vocabulary.
pub struct Key {
    pub name: &'static str,
    /// Earlier spellings that still read (a renamed key keeps its old links working).
    pub aliases: &'static [&'static str],
    pub kind: Kind,
    pub help: &'static str,
    pub access: Access,
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Key").field("name", &self.name).field("kind", &self.kind).finish()
    }
}

impl Key {
    pub fn target(&self) -> Target {
        match self.access {
            Access::Calc { .. } => Target::Calc,
            Access::Plan { .. } => Target::Plan,
            Access::Page { .. } => Target::Page,
        }
    }

    /// The choices of a `Choice` or `List` key (empty otherwise).
    pub fn choices(&self) -> Vec<&'static str> {
        match self.kind {
            Kind::Choice(f) | Kind::List(f) => f(),
            _ => Vec::new(),
        }
    }

    /// Whether `--key` alone means "on".
    pub fn is_switch(&self) -> bool {
        matches!(self.kind, Kind::Switch)
    }

    /// Reads a value of this key's kind.
    pub fn parse(&self, text: &str) -> Result<Value, SettingError> {
        let key = self.name;
        let err_value = || text.to_string();
        match self.kind {
            Kind::Real { min, max } => {
                let x = number(key, text, min, max)?;
                Ok(Value::Num(x))
            }
            Kind::Whole { min, max } => {
                let x = number(key, text, min as f64, max as f64)?;
                if x.fract() != 0.0 {
                    return Err(SettingError::NotWhole { key, value: err_value() });
                }
                Ok(Value::Num(x))
            }
            Kind::Switch => match text.trim().to_ascii_lowercase().as_str() {
                "" | "1" | "true" | "on" | "yes" => Ok(Value::Bool(true)),
                "0" | "false" | "off" | "no" => Ok(Value::Bool(false)),
                _ => Err(SettingError::BadSwitch { key, value: err_value() }),
            },
            Kind::Choice(choices) => {
                let all = choices();
                match all.iter().find(|c| c.eq_ignore_ascii_case(text.trim())) {
                    Some(c) => Ok(Value::Text(c.to_string())),
                    None => Err(SettingError::UnknownChoice { key, value: err_value(), choices: all }),
                }
            }
            Kind::List(choices) => {
                let all = choices();
                let mut out = Vec::new();
                for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                    match all.iter().find(|c| c.eq_ignore_ascii_case(item)) {
                        Some(c) => out.push(*c),
                        None => return Err(SettingError::UnknownChoice { key, value: item.to_string(), choices: all }),
                    }
                }
                Ok(Value::Text(out.join(",")))
            }
            Kind::Text { max_chars } => Ok(Value::Text(text.chars().take(max_chars).collect())),
        }
    }
}

/// A number of a key's kind within [min, max]; a negative one is out of range, not "not a number".
fn number(key: &'static str, text: &str, min: f64, max: f64) -> Result<f64, SettingError> {
    let value = || text.to_string();
    let x = match parse_number(text) {
        Ok(x) => x,
        Err(NumberError::Negative) => return Err(SettingError::OutOfRange { key, value: value(), min, max }),
        Err(why) => return Err(SettingError::BadNumber { key, value: value(), why }),
    };
    if x < min || x > max {
        return Err(SettingError::OutOfRange { key, value: value(), min, max });
    }
    Ok(x)
}

const fn real(min: f64, max: f64) -> Kind {
    Kind::Real { min, max }
}
const fn whole(min: u64, max: u64) -> Kind {
    Kind::Whole { min, max }
}

fn num(x: f64) -> Option<Value> {
    Some(Value::Num(x))
}
fn int(x: u64) -> Option<Value> {
    Some(Value::Num(x as f64))
}
fn flag(b: bool) -> Option<Value> {
    Some(Value::Bool(b))
}
fn word(t: &str) -> Option<Value> {
    Some(Value::Text(t.to_string()))
}

/// A key's help, for `--help`: the page never shows it, so its wasm leaves the text out.
macro_rules! help {
    ($text:literal) => {
        if cfg!(target_arch = "wasm32") {
            ""
        } else {
            $text
        }
    };
}

/// Declares the table and its typed handles together, in one order:
/// `KEYS[K::X as usize]` is the row of `K::X`.
macro_rules! key_table {
    ($( $(#[$doc:meta])* $id:ident => $row:expr ),+ $(,)?) => {
        /// A key by its typed handle: views list keys, labels name them, without their spelling.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum K { $($(#[$doc])* $id),+ }

        impl K {
            /// Every key, in table order.
            pub const ALL: &'static [K] = &[$(K::$id),+];
        }

        /// Every key, in `--help` and canonical-link order. Bounds keep all outputs finite.
        pub static KEYS: &[Key] = &[$($row),+];
    };
}

impl Key {
    /// The value a calculation key's control shows for `settings`, after
    /// defaults, read in place (the page asks for every control on every
    /// input); empty for a key of the planner or the page.
    pub fn shown_in(&self, settings: &Settings) -> String {
        let v = match self.access {
            Access::Calc { shown: Some(shown), .. } => Some(shown(settings)),
            Access::Calc { get, .. } => get(settings),
            _ => None,
        };
        v.map(|v| v.to_text()).unwrap_or_default()
    }
}

impl K {
    /// The key's row.
    pub fn row(self) -> &'static Key {
        &KEYS[self as usize]
    }
    /// The handle of a key by its spelling or an alias.
    pub fn of(name: &str) -> Option<K> {
        KEYS.iter().position(|k| k.name == name || k.aliases.contains(&name)).map(|i| K::ALL[i])
    }
    /// The key's spelling.
    pub fn name(self) -> &'static str {
        self.row().name
    }
}

fn model_names() -> Vec<&'static str> {
    std::iter::once("custom").chain(catalog::MODELS.iter().map(|m| m.name)).collect()
}
fn gpu_names() -> Vec<&'static str> {
    catalog::GPUS.iter().map(|g| g.name).collect()
}

key_table! {
    Model => Key {
        name: "model", aliases: &[], kind: Kind::Choice(model_names),
        help: help!("catalogue model (custom: none); explicit flags override its fields"),
        access: Access::Calc {
            get: |s| s.model.map(|m| Value::Text(m.name.into())),
            shown: Some(|s| Value::Text(s.model.map_or("custom", |m| m.name).into())),
            set: |s, v| *s = match catalog::model(v.text()) {
                Some(m) => std::mem::take(s).with_model(m),
                None => Settings { model: None, ..std::mem::take(s) },
            },
        },
    },
    Params => Key {
        name: "params", aliases: &[], kind: real(1.0, 1e16), help: help!("parameters P (7e9, 7B, 1.4T)"),
        access: Access::Calc {
            get: |s| s.params.map(Value::Num),
            shown: Some(|s| Value::Num(s.resolved_params().get())),
            set: |s, v| s.params = Some(v.num()),
        },
    },
    ActiveParams => Key {
        name: "active-params", aliases: &[], kind: real(1.0, 1e16),
        help: help!("parameters active per token (MoE); default P"),
        access: Access::Calc {
            get: |s| s.active_params.map(Value::Num),
            shown: Some(|s| Value::Num(s.active_params.unwrap_or(s.resolved_params().get()))),
            set: |s, v| s.active_params = Some(v.num()),
        },
    },
    Tokens => Key {
        name: "tokens", aliases: &[], kind: real(1.0, 1e18), help: help!("training tokens D"),
        access: Access::Calc { get: |s| num(s.tokens), shown: None, set: |s, v| s.tokens = v.num() },
    },
    SeqLen => Key {
        name: "seq-len", aliases: &[], kind: whole(1, 10_000_000), help: help!("sequence length s"),
        access: Access::Calc {
            get: |s| s.seq_len.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.seq_len.unwrap_or(crate::settings::DEFAULT_SEQ_LEN) as f64)),
            set: |s, v| s.seq_len = Some(v.whole()),
        },
    },
    MicroBatch => Key {
        name: "micro-batch", aliases: &[], kind: whole(1, 1_000_000), help: help!("micro-batch per GPU b"),
        access: Access::Calc { get: |s| int(s.micro_batch), shown: None, set: |s, v| s.micro_batch = v.whole() },
    },
    GradAccum => Key {
        name: "grad-accum", aliases: &[], kind: whole(1, 10_000_000), help: help!("micro-batches per step per pipeline m (default ⌈G/(b·d)⌉ from global-batch)"),
        access: Access::Calc {
            get: |s| s.grad_accum.and_then(int),
            shown: Some(|s| Value::Num(s.resolved_grad_accum() as f64)),
            set: |s, v| s.grad_accum = Some(v.whole()),
        },
    },
    Hidden => Key {
        name: "hidden", aliases: &[], kind: whole(1, 10_000_000), help: help!("hidden size h"),
        access: Access::Calc {
            get: |s| s.hidden.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.architecture().hidden as f64)),
            set: |s, v| s.hidden = Some(v.whole()),
        },
    },
    Layers => Key {
        name: "layers", aliases: &[], kind: whole(1, 100_000), help: help!("layers L"),
        access: Access::Calc {
            get: |s| s.layers.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.architecture().layers as f64)),
            set: |s, v| s.layers = Some(v.whole()),
        },
    },
    Heads => Key {
        name: "heads", aliases: &[], kind: whole(1, 1_000_000), help: help!("attention heads a"),
        access: Access::Calc {
            get: |s| s.heads.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.architecture().heads as f64)),
            set: |s, v| {
                // Multi-head attention stays so: k follows a when it was a.
                let a = s.architecture();
                s.heads = Some(v.whole());
                if a.kv_heads == a.heads {
                    s.kv_heads = None;
                }
            },
        },
    },
    Vocab => Key {
        name: "vocab", aliases: &[], kind: whole(1, 100_000_000), help: help!("vocabulary V"),
        access: Access::Calc {
            get: |s| s.vocab.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.architecture().vocab as f64)),
            set: |s, v| s.vocab = Some(v.whole()),
        },
    },
    KvHeads => Key {
        name: "kv-heads", aliases: &[], kind: whole(1, 1_000_000),
        help: help!("key/value heads (GQA, MQA); divides heads; default heads"),
        access: Access::Calc {
            get: |s| s.kv_heads.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.architecture().kv_heads as f64)),
            set: |s, v| s.kv_heads = Some(v.whole()),
        },
    },
    HeadDim => Key {
        name: "head-dim", aliases: &[], kind: whole(1, 1_000_000),
        help: help!("attention head dimension d_head; default h/a (Qwen3: 128)"),
        access: Access::Calc {
            get: |s| s.head_dim.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.architecture().d_head())),
            set: |s, v| s.head_dim = Some(v.whole()),
        },
    },
    Ffn => Key {
        name: "ffn", aliases: &[], kind: whole(1, 100_000_000), help: help!("MLP inner size f; default 4h"),
        access: Access::Calc {
            get: |s| s.ffn.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.architecture().ffn as f64)),
            set: |s, v| s.ffn = Some(v.whole()),
        },
    },
    Mlp => Key {
        name: "mlp", aliases: &[], kind: Kind::Choice(Mlp::names),
        help: help!("MLP form: gelu (2 matrices h×f) or swiglu (3)"),
        access: Access::Calc {
            get: |s| s.mlp.map(|m| Value::Text(m.as_str().into())),
            shown: Some(|s| Value::Text(s.architecture().mlp.as_str().into())),
            set: |s, v| s.mlp = Mlp::parse(v.text()).or(s.mlp),
        },
    },
    TieEmbeddings => Key {
        name: "tie-embeddings", aliases: &[], kind: Kind::Switch,
        help: help!("one V×h matrix for input and output (default 1)"),
        access: Access::Calc {
            get: |s| s.tie_embeddings.map(Value::Bool),
            shown: Some(|s| Value::Bool(s.architecture().tie_embeddings)),
            set: |s, v| s.tie_embeddings = Some(v.flag()),
        },
    },
    Experts => Key {
        name: "experts", aliases: &[], kind: whole(1, 100_000), help: help!("MoE: experts per layer (1: dense)"),
        access: Access::Calc {
            get: |s| s.experts.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.architecture().experts as f64)),
            set: |s, v| s.experts = Some(v.whole()),
        },
    },
    TopK => Key {
        name: "top-k", aliases: &[], kind: whole(1, 100_000), help: help!("MoE: experts per token"),
        access: Access::Calc {
            get: |s| s.top_k.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.architecture().top_k as f64)),
            set: |s, v| s.top_k = Some(v.whole()),
        },
    },
    SharedExperts => Key {
        name: "shared-experts", aliases: &[], kind: whole(0, 100_000), help: help!("MoE: always-on experts"),
        access: Access::Calc {
            get: |s| s.shared_experts.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.architecture().shared_experts as f64)),
            set: |s, v| s.shared_experts = Some(v.whole()),
        },
    },
    MoeFfn => Key {
        name: "moe-ffn", aliases: &[], kind: whole(1, 100_000_000), help: help!("MoE: inner size of one expert; default ffn"),
        access: Access::Calc {
            get: |s| s.moe_ffn.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.architecture().moe_ffn as f64)),
            set: |s, v| s.moe_ffn = Some(v.whole()),
        },
    },
    DenseLayers => Key {
        name: "dense-layers", aliases: &[], kind: whole(0, 1_000_000),
        help: help!("MoE: the first k layers are dense, with the MLP of ffn (DeepSeek: 3; default 0)"),
        access: Access::Calc {
            get: |s| s.dense_layers.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.architecture().dense_layers as f64)),
            set: |s, v| s.dense_layers = Some(v.whole()),
        },
    },
    MtpLayers => Key {
        name: "mtp-layers", aliases: &[], kind: whole(0, 64),
        help: help!("multi-token prediction modules on the last stage (DeepSeek-V3: 1; default 0); a given P gains their parameters"),
        access: Access::Calc {
            get: |s| s.mtp_layers.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.architecture().mtp_layers as f64)),
            set: |s, v| s.mtp_layers = Some(v.whole()),
        },
    },
    KvLoraRank => Key {
        name: "kv-lora-rank", aliases: &[], kind: whole(0, 1_000_000),
        help: help!("multi-latent attention: the compressed KV's rank (DeepSeek-V3: 512; 0, the default: none)"),
        access: Access::Calc {
            get: |s| s.kv_lora_rank.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.architecture().mla.kv_lora_rank as f64)),
            set: |s, v| s.kv_lora_rank = Some(v.whole()),
        },
    },
    QLoraRank => Key {
        name: "q-lora-rank", aliases: &[], kind: whole(0, 1_000_000),
        help: help!("MLA: the query's latent rank (DeepSeek-V3: 1536; 0: a full query projection)"),
        access: Access::Calc {
            get: |s| s.q_lora_rank.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.architecture().mla.q_lora_rank as f64)),
            set: |s, v| s.q_lora_rank = Some(v.whole()),
        },
    },
    QkHeadDim => Key {
        name: "qk-head-dim", aliases: &[], kind: whole(1, 1_000_000),
        help: help!("MLA: the query/key head's plain part (default h/a)"),
        access: Access::Calc {
            get: |s| s.qk_head_dim.map(|x| Value::Num(x as f64)),
            shown: None,
            set: |s, v| s.qk_head_dim = Some(v.whole()),
        },
    },
    QkRopeHeadDim => Key {
        name: "qk-rope-head-dim", aliases: &[], kind: whole(1, 1_000_000),
        help: help!("MLA: the query/key head's rotary part (default 64)"),
        access: Access::Calc {
            get: |s| s.qk_rope_head_dim.map(|x| Value::Num(x as f64)),
            shown: None,
            set: |s, v| s.qk_rope_head_dim = Some(v.whole()),
        },
    },
    VHeadDim => Key {
        name: "v-head-dim", aliases: &[], kind: whole(1, 1_000_000),
        help: help!("MLA: the value head's dimension (default h/a)"),
        access: Access::Calc {
            get: |s| s.v_head_dim.map(|x| Value::Num(x as f64)),
            shown: None,
            set: |s, v| s.v_head_dim = Some(v.whole()),
        },
    },
    SlidingWindow => Key {
        name: "sliding-window", aliases: &[], kind: whole(0, 100_000_000),
        help: help!("attention window W of the sliding layers (0: none; Gemma 3: 1024, gpt-oss: 128)"),
        access: Access::Calc {
            get: |s| s.sliding_window.map(|x| Value::Num(x as f64)),
            shown: None,
            set: |s, v| s.sliding_window = Some(v.whole()),
        },
    },
    GlobalEvery => Key {
        name: "global-every", aliases: &[], kind: whole(0, 1_000_000),
        help: help!("with a window, every k-th layer attends to the whole context (0: every layer slides; Gemma 3: 6, gpt-oss: 2)"),
        access: Access::Calc {
            get: |s| s.global_every.map(|x| Value::Num(x as f64)),
            shown: None,
            set: |s, v| s.global_every = Some(v.whole()),
        },
    },
    AttentionEvery => Key {
        name: "attention-every", aliases: &[], kind: whole(0, 1_000_000),
        help: help!("hybrid models: every k-th layer attends with a KV cache, the others are linear layers with a fixed state per sequence (0: every layer attends; Qwen3-Next, Qwen3.5: 4; Jamba: 8)"),
        access: Access::Calc {
            get: |s| s.attention_every.map(|x| Value::Num(x as f64)),
            shown: None,
            set: |s, v| s.attention_every = Some(v.whole()),
        },
    },
    LinearState => Key {
        name: "linear-state", aliases: &[], kind: whole(0, 1_000_000_000_000),
        help: help!("hybrid models: a linear layer's recurrent state per sequence, in values (Gated DeltaNet: value heads × key dim × value dim; Mamba: d_inner × d_state)"),
        access: Access::Calc {
            get: |s| s.linear_state.map(|x| Value::Num(x as f64)),
            shown: None,
            set: |s, v| s.linear_state = Some(v.whole()),
        },
    },
    LinearConv => Key {
        name: "linear-conv", aliases: &[], kind: whole(0, 1_000_000_000_000),
        help: help!("hybrid models: a linear layer's convolution state per sequence, in values ((kernel − 1) × the convolved width)"),
        access: Access::Calc {
            get: |s| s.linear_conv.map(|x| Value::Num(x as f64)),
            shown: None,
            set: |s, v| s.linear_conv = Some(v.whole()),
        },
    },
    StateDtype => Key {
        name: "state-dtype", aliases: &[], kind: Kind::Choice(StateDtype::names),
        help: help!("hybrid models: the recurrent state's type (Qwen3.5: fp32; Qwen3-Next, Jamba: bf16)"),
        access: Access::Calc {
            get: |s| s.state_dtype.and_then(|x| word(x.as_str())),
            shown: None,
            set: |s, v| s.state_dtype = StateDtype::parse(v.text()).or(s.state_dtype),
        },
    },
    Etp => Key {
        name: "etp", aliases: &[], kind: whole(1, 1_000_000),
        help: help!("expert tensor parallelism: each routed expert split over etp ranks (default t)"),
        access: Access::Calc {
            get: |s| s.etp.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.etp.unwrap_or(s.tp) as f64)),
            // etp = t is the default, which follows t: it stays unset (as kv-heads = heads does).
            set: |s, v| s.etp = (s.etp.is_some() || v.whole() != s.tp).then(|| v.whole()),
        },
    },
    Tp => Key {
        name: "tp", aliases: &[], kind: whole(1, 1_000_000), help: help!("tensor-parallel degree t"),
        access: Access::Calc { get: |s| int(s.tp), shown: None, set: |s, v| s.tp = v.whole() },
    },
    Pp => Key {
        name: "pp", aliases: &[], kind: whole(1, 1_000_000), help: help!("pipeline-parallel degree p"),
        access: Access::Calc { get: |s| int(s.pp), shown: None, set: |s, v| s.pp = v.whole() },
    },
    Cp => Key {
        name: "cp", aliases: &[], kind: whole(1, 1_000_000), help: help!("context-parallel degree: each rank holds s/cp of every sequence"),
        access: Access::Calc { get: |s| int(s.cp), shown: None, set: |s, v| s.cp = v.whole() },
    },
    Ep => Key {
        name: "ep", aliases: &[], kind: whole(1, 1_000_000),
        help: help!("expert-parallel degree: divides the experts and dp·cp; N unchanged"),
        access: Access::Calc { get: |s| int(s.ep), shown: None, set: |s, v| s.ep = v.whole() },
    },
    Dp => Key {
        name: "dp", aliases: &[], kind: whole(1, 1_000_000_000), help: help!("data-parallel degree d"),
        access: Access::Calc {
            get: |s| s.dp.map(|x| Value::Num(x as f64)),
            shown: Some(|s| {
                let mp = s.tp.saturating_mul(s.pp).saturating_mul(s.cp).max(1);
                Value::Num(s.dp.or(s.gpus.map(|n| (n / mp).max(1))).unwrap_or(1) as f64)
            }),
            set: |s, v| s.dp = Some(v.whole()),
        },
    },
    Gpus => Key {
        name: "gpus", aliases: &[], kind: whole(1, 1_000_000_000), help: help!("GPUs N = t·p·cp·d"),
        access: Access::Calc {
            get: |s| s.gpus.map(|x| Value::Num(x as f64)),
            shown: Some(|s| {
                let n = s.gpus.unwrap_or(s.tp.saturating_mul(s.pp).saturating_mul(s.cp).saturating_mul(s.dp.unwrap_or(1)));
                Value::Num(n as f64)
            }),
            set: |s, v| s.gpus = Some(v.whole()),
        },
    },
    Precision => Key {
        name: "precision", aliases: &[], kind: Kind::Choice(Precision::names), help: help!("training precision"),
        access: Access::Calc {
            get: |s| word(s.precision.as_str()),
            shown: None,
            set: |s, v| s.precision = Precision::parse(v.text()).unwrap_or(s.precision),
        },
    },
    GradDtype => Key {
        name: "grad-dtype", aliases: &[], kind: Kind::Choice(grad_dtype_names),
        help: help!("gradient storage; auto: the model dtype (fp32 under megatron)"),
        access: Access::Calc {
            get: |s| s.grad_dtype.map(|g| Value::Text(g.as_str().into())),
            shown: Some(|s| Value::Text(s.grad_dtype.map_or(AUTO, |g| g.as_str()).into())),
            set: |s, v| s.grad_dtype = GradDtype::parse(v.text()),
        },
    },
    Optimizer => Key {
        name: "optimizer", aliases: &[], kind: Kind::Choice(Optimizer::names), help: help!("optimizer"),
        access: Access::Calc {
            get: |s| word(s.optimizer.as_str()),
            shown: None,
            set: |s, v| s.optimizer = Optimizer::parse(v.text()).unwrap_or(s.optimizer),
        },
    },
    Recompute => Key {
        name: "recompute", aliases: &[], kind: Kind::Choice(Recompute::names), help: help!("activation recomputation"),
        access: Access::Calc {
            get: |s| word(s.recompute.as_str()),
            shown: None,
            set: |s, v| s.recompute = Recompute::parse(v.text()).unwrap_or(s.recompute),
        },
    },
    SequenceParallel => Key {
        name: "sequence-parallel", aliases: &[], kind: Kind::Switch,
        help: help!("Megatron sequence parallelism (the 10 becomes 10/t)"),
        access: Access::Calc { get: |s| flag(s.sequence_parallel), shown: None, set: |s, v| s.sequence_parallel = v.flag() },
    },
    PartitionActivations => Key {
        name: "partition-activations", aliases: &[], kind: Kind::Switch,
        help: help!("ZeRO-R activation partitioning (activations ÷ t)"),
        access: Access::Calc {
            get: |s| flag(s.partition_activations),
            shown: None,
            set: |s, v| s.partition_activations = v.flag(),
        },
    },
    TpCommOverlap => Key {
        name: "tp-comm-overlap", aliases: &[], kind: Kind::Switch,
        help: help!("megatron, t > 1: Transformer Engine overlaps the tensor-parallel all-gathers and reduce-scatters with the GEMMs (Megatron-LM's --tp-comm-overlap): hidden behind compute, with its workspaces"),
        access: Access::Calc { get: |s| flag(s.tp_comm_overlap), shown: None, set: |s, v| s.tp_comm_overlap = v.flag() },
    },
    Tsp => Key {
        name: "tsp", aliases: &[], kind: Kind::Switch,
        help: help!("folded tensor+sequence parallelism: model states and activations ÷ t"),
        access: Access::Calc { get: |s| flag(s.tsp), shown: None, set: |s, v| s.tsp = v.flag() },
    },
    Zero => Key {
        name: "zero", aliases: &[], kind: whole(0, 3), help: help!("ZeRO stage 0–3"),
        access: Access::Calc {
            get: |s| int(s.zero.get() as u64),
            shown: None,
            set: |s, v| s.zero = ZeroStage::new(v.whole()).unwrap_or(s.zero),
        },
    },
    Offload => Key {
        name: "offload", aliases: &[], kind: Kind::Choice(Offload::names), help: help!("the optimizer off the GPU: to CPU memory (ZeRO-Offload) or NVMe (ZeRO-Infinity)"),
        access: Access::Calc {
            get: |s| word(s.offload.as_str()),
            shown: None,
            set: |s, v| s.offload = Offload::parse(v.text()).unwrap_or(s.offload),
        },
    },
    MaxLiveParams => Key {
        name: "max-live-params", aliases: &[], kind: real(0.0, 1e16), help: help!("ZeRO-3 stage3_max_live_parameters"),
        access: Access::Calc { get: |s| num(s.max_live_params), shown: None, set: |s, v| s.max_live_params = v.num() },
    },
    Gpu => Key {
        name: "gpu", aliases: &[], kind: Kind::Choice(gpu_names), help: help!("catalogue GPU"),
        access: Access::Calc {
            get: |s| word(s.gpu.name),
            shown: None,
            set: |s, v| s.gpu = catalog::gpu(v.text()).unwrap_or(s.gpu),
        },
    },
    GpuMem => Key {
        name: "gpu-mem", aliases: &[], kind: real(0.001, 1e6),
        help: help!("memory per GPU in GiB, as the driver reports it (an \"80 GB\" A100: 81920 MiB = 80 GiB)"),
        access: Access::Calc {
            get: |s| s.gpu_mem.map(Value::Num),
            // The driver's MiB in GiB, to three decimals (79.647 for an H100's 81,559 MiB).
            shown: Some(|s| Value::Num(s.gpu_mem.unwrap_or((s.gpu.mem_gib() * 1000.0).round() / 1000.0))),
            set: |s, v| s.gpu_mem = Some(v.num()),
        },
    },
    Tflops => Key {
        name: "tflops", aliases: &[], kind: real(0.001, 1e9), help: help!("achieved TFLOP/s per GPU (not the datasheet peak)"),
        access: Access::Calc {
            get: |s| s.tflops.map(Value::Num),
            shown: Some(|s| Value::Num(s.tflops.unwrap_or_else(|| s.default_tflops()))),
            set: |s, v| s.tflops = Some(v.num()),
        },
    },
    UsdPerGpuHour => Key {
        name: "usd-per-gpu-hour", aliases: &[], kind: real(0.0, 1e9), help: help!("price per GPU-hour, US dollars"),
        access: Access::Calc {
            get: |s| s.usd_per_gpu_hour.map(Value::Num),
            shown: Some(|s| Value::Num(s.usd_per_gpu_hour.unwrap_or(s.gpu.usd_per_hour))),
            set: |s, v| s.usd_per_gpu_hour = Some(v.num()),
        },
    },
    InferenceDtype => Key {
        name: "inference-dtype", aliases: &[], kind: Kind::Choice(InferenceDtype::names), help: help!("weights dtype when serving"),
        access: Access::Calc {
            get: |s| word(s.inference_dtype.as_str()),
            shown: None,
            set: |s, v| s.inference_dtype = InferenceDtype::parse(v.text()).unwrap_or(s.inference_dtype),
        },
    },
    Batch => Key {
        name: "batch", aliases: &[], kind: whole(1, 1_000_000), help: help!("serving: sequences at once (KV cache)"),
        access: Access::Calc { get: |s| int(s.batch), shown: None, set: |s, v| s.batch = v.whole() },
    },
    Context => Key {
        name: "context", aliases: &[], kind: whole(1, 100_000_000),
        help: help!("serving: tokens per sequence in the KV cache; default seq-len"),
        access: Access::Calc {
            get: |s| s.context.map(|x| Value::Num(x as f64)),
            shown: Some(|s| Value::Num(s.context.unwrap_or(s.seq_len.unwrap_or(crate::settings::DEFAULT_SEQ_LEN)) as f64)),
            set: |s, v| s.context = Some(v.whole()),
        },
    },
    KvDtype => Key {
        name: "kv-dtype", aliases: &[], kind: Kind::Choice(KvDtype::names), help: help!("serving: the KV cache's type"),
        access: Access::Calc {
            get: |s| word(s.kv_dtype.as_str()),
            shown: None,
            set: |s, v| s.kv_dtype = KvDtype::parse(v.text()).unwrap_or(s.kv_dtype),
        },
    },
    ServeTp => Key {
        name: "serve-tp", aliases: &[], kind: whole(1, 1024),
        help: help!("serving: tensor-parallel degree of one replica (it must divide the heads)"),
        access: Access::Calc { get: |s| int(s.serve_tp), shown: None, set: |s, v| s.serve_tp = v.whole() },
    },
    ServePp => Key {
        name: "serve-pp", aliases: &[], kind: whole(1, 1024),
        help: help!("serving: pipeline stages of one replica"),
        access: Access::Calc { get: |s| int(s.serve_pp), shown: None, set: |s, v| s.serve_pp = v.whole() },
    },
    PromptTokens => Key {
        name: "prompt-tokens", aliases: &[], kind: whole(1, 100_000_000),
        help: help!("serving: tokens each request reads (default 1024)"),
        access: Access::Calc { get: |s| int(s.prompt_tokens), shown: None, set: |s, v| s.prompt_tokens = v.whole() },
    },
    OutputTokens => Key {
        name: "output-tokens", aliases: &[], kind: whole(1, 100_000_000),
        help: help!("serving: tokens each request writes (default 256)"),
        access: Access::Calc { get: |s| int(s.output_tokens), shown: None, set: |s, v| s.output_tokens = v.whole() },
    },
    MemUtil => Key {
        name: "mem-util", aliases: &[], kind: real(0.01, 1.0),
        help: help!("serving: share of GPU memory the engine takes (vLLM --gpu-memory-utilization; default 0.9)"),
        access: Access::Calc { get: |s| num(s.mem_util), shown: None, set: |s, v| s.mem_util = v.num() },
    },
    HbmGbs => Key {
        name: "hbm-gbs", aliases: &[], kind: real(1e-3, 1e6),
        help: help!("serving: achieved memory bandwidth per GPU, GB/s (default the GPU's datasheet × its achieved share)"),
        access: Access::Calc {
            get: |s| s.hbm_gbs.and_then(num),
            shown: Some(|s| Value::Num(s.hbm_gbs.unwrap_or(s.gpu.achieved_hbm_gbs()))),
            set: |s, v| s.hbm_gbs = Some(v.num()),
        },
    },
    ServeTflops => Key {
        name: "serve-tflops", aliases: &[], kind: real(1e-3, 1e7),
        help: help!("serving: achieved prefill TFLOP/s per GPU (default the GPU's measured BF16 matmul ceiling; 1.92× it for fp8 weights on FP8 tensor cores, measured on Hopper)"),
        access: Access::Calc {
            get: |s| s.serve_tflops.and_then(num),
            shown: Some(|s| Value::Num(s.resolved_serve_tflops())),
            set: |s, v| s.serve_tflops = Some(v.num()),
        },
    },
    HostMs => Key {
        name: "host-ms", aliases: &[], kind: real(0.0, 1e4),
        help: help!("serving: the engine's host time per decode step that the GPU waits for, ms (default 0: a scheduler that overlaps it, as SGLang 0.4+, TensorRT-LLM and vLLM V1 do)"),
        access: Access::Calc { get: |s| num(s.host_ms), shown: None, set: |s, v| s.host_ms = v.num() },
    },
    MaxPositions => Key {
        name: "max-position-embeddings", aliases: &[], kind: whole(1, 1_000_000_000),
        help: help!("serving: the model's position limit, the longest context it reads; default the model's, none for a custom shape"),
        access: Access::Calc {
            get: |s| s.max_positions.map(|x| Value::Num(x as f64)),
            shown: None,
            set: |s, v| s.max_positions = Some(v.whole()),
        },
    },
    Attention => Key {
        name: "attention", aliases: &[], kind: Kind::Choice(Attention::names),
        help: help!("standard (s×s scores stored) or flash; default standard, flash under megatron"),
        access: Access::Calc {
            get: |s| s.attention.map(|a| Value::Text(a.as_str().into())),
            shown: Some(|s| Value::Text(s.resolved_attention().as_str().into())),
            set: |s, v| s.attention = Attention::parse(v.text()).or(s.attention),
        },
    },
    Kernels => Key {
        name: "kernels", aliases: &[], kind: Kind::Choice(Kernels::names),
        help: help!("fused (Megatron-Core's SwiGLU and norms; default) or eager (PyTorch's unfused operations: SiLU keeps its output too, RMSNorm its fp32 input)"),
        access: Access::Calc {
            get: |s| word(s.kernels.as_str()),
            shown: None,
            set: |s, v| s.kernels = Kernels::parse(v.text()).unwrap_or(s.kernels),
        },
    },
    Schedule => Key {
        name: "schedule", aliases: &[], kind: Kind::Choice(Schedule::names),
        help: help!("pipeline schedule: 1f1b (a stage holds min(m, p) micro-batches), gpipe (all m), zb1p (zero bubble ZB-H1: 1F1B's memory, a third of its bubble) or dualpipe (DeepSeek-V3's: two stages a rank, p + 1 micro-batches, p even)"),
        access: Access::Calc {
            get: |s| word(s.schedule.as_str()),
            shown: None,
            set: |s, v| s.schedule = Schedule::parse(v.text()).unwrap_or(s.schedule),
        },
    },
    Vpp => Key {
        name: "vpp", aliases: &[], kind: whole(1, 1024),
        help: help!("virtual pipeline stages per rank: interleaved 1F1B (default 1)"),
        access: Access::Calc { get: |s| int(s.vpp), shown: None, set: |s, v| s.vpp = v.whole() },
    },
    PpLayout => Key {
        name: "pp-layout", aliases: &[], kind: Kind::Text { max_chars: 4096 },
        help: help!("Megatron-LM's pipeline layout: E embedding, t layer, m MTP, L loss, | a stage, (…)*n repeats"),
        access: Access::Calc {
            get: |s| s.pp_layout.as_deref().map(word).unwrap_or(None),
            shown: None,
            set: |s, v| s.pp_layout = Some(v.text().to_string()).filter(|t| !t.trim().is_empty()),
        },
    },
    PpFirstLayers => Key {
        name: "pp-first-layers", aliases: &[], kind: whole(1, 100_000),
        help: help!("layers of the first pipeline stage (default: spread evenly)"),
        access: Access::Calc {
            get: |s| s.pp_first_layers.map(|x| Value::Num(x as f64)),
            shown: None,
            set: |s, v| s.pp_first_layers = Some(v.whole()),
        },
    },
    PpLastLayers => Key {
        name: "pp-last-layers", aliases: &[], kind: whole(1, 100_000),
        help: help!("layers of the last pipeline stage (default: spread evenly)"),
        access: Access::Calc {
            get: |s| s.pp_last_layers.map(|x| Value::Num(x as f64)),
            shown: None,
            set: |s, v| s.pp_last_layers = Some(v.whole()),
        },
    },
    ExpAvgDtype => Key {
        name: "exp-avg-dtype", aliases: &[], kind: Kind::Choice(ExpAvgDtype::names),
        help: help!("the optimizer's moments: fp32 (default), bf16 (pure-bf16 training, torchtune) or fp8"),
        access: Access::Calc {
            get: |s| word(s.exp_avg_dtype.as_str()),
            shown: None,
            set: |s, v| s.exp_avg_dtype = ExpAvgDtype::parse(v.text()).unwrap_or(s.exp_avg_dtype),
        },
    },
    MainParams => Key {
        name: "main-params", aliases: &[], kind: Kind::Choice(MainParams::names),
        help: help!("the master weights under mixed precision: fp32 (default), fp16 (Megatron-LM's --main-params-dtype) or none"),
        access: Access::Calc {
            get: |s| word(s.main_params.as_str()),
            shown: None,
            set: |s, v| s.main_params = MainParams::parse(v.text()).unwrap_or(s.main_params),
        },
    },
    Fp8 => Key {
        name: "fp8", aliases: &[], kind: Kind::Choice(Fp8Recipe::names),
        help: help!("FP8 training (megatron; Transformer Engine): none (default), tensorwise, blockwise or mxfp8 (Blackwell)"),
        access: Access::Calc {
            get: |s| word(s.fp8.as_str()),
            shown: None,
            set: |s, v| s.fp8 = Fp8Recipe::parse(v.text()).unwrap_or(s.fp8),
        },
    },
    Fp8ParamGather => Key {
        name: "fp8-param-gather", aliases: &[], kind: Kind::Switch,
        help: help!("with fp8: the weights kept in FP8 alone, no bf16 copy (Megatron-LM's --fp8-param-gather)"),
        access: Access::Calc { get: |s| flag(s.fp8_param_gather), shown: None, set: |s, v| s.fp8_param_gather = v.flag() },
    },
    Loss => Key {
        name: "loss", aliases: &[], kind: Kind::Choice(Loss::names),
        help: help!("the loss's logits on the last stage (megatron): standard (PyTorch, fp32 copy), fused (Megatron-LM, in place; default) or chunked"),
        access: Access::Calc {
            get: |s| word(s.loss.as_str()),
            shown: None,
            set: |s, v| s.loss = Loss::parse(v.text()).unwrap_or(s.loss),
        },
    },
    LossChunks => Key {
        name: "loss-chunks", aliases: &[], kind: whole(1, 4096),
        help: help!("with loss=chunked: pieces the logits are cut into (default 8, as torchtune)"),
        access: Access::Calc { get: |s| int(s.loss_chunks), shown: None, set: |s, v| s.loss_chunks = v.whole() },
    },
    RecomputeEvery => Key {
        name: "recompute-every", aliases: &[], kind: whole(1, 100_000),
        help: help!("with recompute=full: a checkpoint every k-th layer (default 1)"),
        access: Access::Calc { get: |s| int(s.recompute_every), shown: None, set: |s, v| s.recompute_every = v.whole() },
    },
    OffloadActivations => Key {
        name: "offload-activations", aliases: &[], kind: real(0.0, 1.0),
        help: help!("share of the layers' stored activations moved to CPU memory, 0–1 (Megatron-Core's --cpu-offloading; default 0)"),
        access: Access::Calc {
            get: |s| num(s.offload_activations),
            shown: None,
            set: |s, v| s.offload_activations = v.num(),
        },
    },
    ReserveGb => Key {
        name: "reserve-gb", aliases: &[], kind: real(0.0, 1e4),
        help: help!("GB per GPU the formulas leave out: CUDA context, NCCL, framework (default 0; 1.5 under megatron)"),
        access: Access::Calc {
            get: |s| s.reserve_gb.map(Value::Num),
            shown: Some(|s| Value::Num(s.resolved_reserve_gb())),
            set: |s, v| s.reserve_gb = Some(v.num()),
        },
    },
    FragmentationPct => Key {
        name: "fragmentation-pct", aliases: &[], kind: real(0.0, 100.0),
        help: help!("allocator fragmentation, % of the formulas' total (default 0; 5 under megatron)"),
        access: Access::Calc {
            get: |s| s.fragmentation_pct.map(Value::Num),
            shown: Some(|s| Value::Num(s.resolved_fragmentation_pct())),
            set: |s, v| s.fragmentation_pct = Some(v.num()),
        },
    },
    CpuMem => Key {
        name: "cpu-mem", aliases: &[], kind: real(0.0, 1e7), help: help!("CPU memory per node, GB (offload; default 512)"),
        access: Access::Calc { get: |s| num(s.cpu_mem), shown: None, set: |s, v| s.cpu_mem = v.num() },
    },
    GpusPerNode => Key {
        name: "gpus-per-node", aliases: &[], kind: whole(1, 1024), help: help!("GPUs per node (offload, node boundaries; default 8)"),
        access: Access::Calc { get: |s| int(s.gpus_per_node), shown: None, set: |s, v| s.gpus_per_node = v.whole() },
    },
    Convention => Key {
        name: "convention", aliases: &[], kind: Kind::Choice(Convention::names),
        help: help!("article (Transformer Math 101 verbatim) or megatron (per-rank accounting)"),
        access: Access::Calc {
            get: |s| word(s.convention.as_str()),
            shown: None,
            set: |s, v| s.convention = Convention::parse(v.text()).unwrap_or(s.convention),
        },
    },
    Finetune => Key {
        name: "finetune", aliases: &[], kind: Kind::Choice(crate::finetune::Finetune::names),
        help: help!("what is trained: full (every parameter), lora (adapters on a frozen base) or qlora (adapters on an NF4 base)"),
        access: Access::Calc {
            get: |s| word(s.finetune.as_str()),
            shown: None,
            set: |s, v| s.finetune = crate::finetune::Finetune::parse(v.text()).unwrap_or(s.finetune),
        },
    },
    LoraRank => Key {
        name: "lora-rank", aliases: &[], kind: whole(1, 1_000_000),
        help: help!("LoRA: the adapters' rank r (default 16)"),
        access: Access::Calc { get: |s| int(s.lora_rank), shown: None, set: |s, v| s.lora_rank = v.whole() },
    },
    LoraTargets => Key {
        name: "lora-targets", aliases: &[], kind: Kind::Choice(crate::finetune::LoraTargets::names),
        help: help!("LoRA: the matrices with adapters, qv (query and value), attention (q, k, v, o) or all-linear (and the MLP's; default)"),
        access: Access::Calc {
            get: |s| word(s.lora_targets.as_str()),
            shown: None,
            set: |s, v| s.lora_targets = crate::finetune::LoraTargets::parse(v.text()).unwrap_or(s.lora_targets),
        },
    },
    LoraDropout => Key {
        name: "lora-dropout", aliases: &[], kind: real(0.0, 0.99),
        help: help!("LoRA: dropout on the adapters' input (PEFT's lora_dropout; default 0); above 0 each adapter keeps a dropped copy of its input"),
        access: Access::Calc { get: |s| num(s.lora_dropout), shown: None, set: |s, v| s.lora_dropout = v.num() },
    },
    BaseDtype => Key {
        name: "base-dtype", aliases: &[], kind: Kind::Choice(crate::finetune::BaseDtype::names),
        help: help!("LoRA: the frozen base's storage, fp32, bf16, fp16, int8 or nf4 (default bf16; nf4 with qlora)"),
        access: Access::Calc {
            get: |s| s.base_dtype.and_then(|d| word(d.as_str())),
            shown: Some(|s| Value::Text(s.resolved_finetune().base_dtype.as_str().into())),
            set: |s, v| s.base_dtype = crate::finetune::BaseDtype::parse(v.text()).or(s.base_dtype),
        },
    },
    TrainEmbeddings => Key {
        name: "train-embeddings", aliases: &[], kind: Kind::Switch,
        help: help!("LoRA: train the input embedding and the output layer whole beside the adapters (PEFT's modules_to_save)"),
        access: Access::Calc {
            get: |s| Some(Value::Bool(s.train_embeddings)),
            shown: None,
            set: |s, v| s.train_embeddings = v.flag(),
        },
    },
    PostTraining => Key {
        name: "post-training", aliases: &[], kind: Kind::Choice(crate::finetune::post::PostTraining::names),
        help: help!("post-training after fine-tuning: none, dpo, ppo or grpo; its phases each with their memory, the verdict the heaviest's"),
        access: Access::Calc {
            get: |s| word(s.post_training.as_str()),
            shown: None,
            set: |s, v| s.post_training = crate::finetune::post::PostTraining::parse(v.text()).unwrap_or(s.post_training),
        },
    },
    Rollouts => Key {
        name: "rollouts", aliases: &[], kind: whole(1, 100_000),
        help: help!("GRPO/PPO: completions per prompt (default 8)"),
        access: Access::Calc { get: |s| int(s.rollouts), shown: None, set: |s, v| s.rollouts = v.whole() },
    },
    ResponseTokens => Key {
        name: "response-tokens", aliases: &[], kind: whole(1, 100_000_000),
        help: help!("GRPO/PPO: tokens each completion generates after prompt-tokens (default 1024)"),
        access: Access::Calc { get: |s| int(s.response_tokens), shown: None, set: |s, v| s.response_tokens = v.whole() },
    },
    RewardParams => Key {
        name: "reward-params", aliases: &[], kind: real(0.0, 1e16),
        help: help!("GRPO/PPO: the reward model's parameters (0: a rule, no model)"),
        access: Access::Calc { get: |s| num(s.reward_params), shown: None, set: |s, v| s.reward_params = v.num() },
    },
    CriticParams => Key {
        name: "critic-params", aliases: &[], kind: real(1.0, 1e16),
        help: help!("PPO: the value model's parameters, trained beside the policy (default P)"),
        access: Access::Calc {
            get: |s| s.critic_params.and_then(num),
            shown: Some(|s| Value::Num(s.critic_params.unwrap_or(s.resolved_params().get()))),
            set: |s, v| s.critic_params = Some(v.num()),
        },
    },
    Rollout => Key {
        name: "rollout", aliases: &[], kind: Kind::Choice(crate::finetune::post::RolloutEngine::names),
        help: help!("GRPO/PPO: the rollout engine, colocated (vLLM on the training GPUs; default), separate (vLLM on GPUs of its own) or trainer (the model's own generate)"),
        access: Access::Calc {
            get: |s| word(s.rollout.as_str()),
            shown: None,
            set: |s, v| s.rollout = crate::finetune::post::RolloutEngine::parse(v.text()).unwrap_or(s.rollout),
        },
    },
    RolloutMemUtil => Key {
        name: "rollout-mem-util", aliases: &[], kind: real(0.01, 1.0),
        help: help!("GRPO/PPO: the colocated engine's share of each GPU (vLLM's gpu_memory_utilization; TRL's default 0.3)"),
        access: Access::Calc { get: |s| num(s.rollout_mem_util), shown: None, set: |s, v| s.rollout_mem_util = v.num() },
    },
    MaxGpus => Key {
        name: "max-gpus", aliases: &[], kind: whole(1, 10_000_000),
        help: help!("largest N the minimum-GPU search tries (default 16384)"),
        access: Access::Plan { get: |o| int(o.max_gpus), set: |o, v| o.max_gpus = v.whole() },
    },
    GlobalBatch => Key {
        name: "global-batch", aliases: &[], kind: whole(1, 10_000_000),
        help: help!("sequences per step G (default 2048), the calculator's and the planner's; m = ⌈G/(b·d)⌉ unless grad-accum is given"),
        access: Access::Calc { get: |s| int(s.global_batch), shown: None, set: |s, v| s.global_batch = v.whole() },
    },
    IntraNodeGbs => Key {
        name: "intra-node-gbs", aliases: &[], kind: real(1e-3, 1e6),
        help: help!("per-GPU bandwidth inside a node, GB/s per direction (NVLink; default the GPU's: A100 300, H100 450)"),
        access: Access::Calc {
            get: |s| s.intra_node_gbs.and_then(num),
            shown: Some(|s| Value::Num(s.intra_node_gbs.unwrap_or(s.gpu.nvlink_gbs))),
            set: |s, v| s.intra_node_gbs = Some(v.num()),
        },
    },
    InterNodeGbs => Key {
        name: "inter-node-gbs", aliases: &[], kind: real(1e-3, 1e6),
        help: help!("per-GPU bandwidth across nodes, GB/s (InfiniBand; default 50)"),
        access: Access::Calc { get: |s| num(s.inter_node_gbs), shown: None, set: |s, v| s.inter_node_gbs = v.num() },
    },
    TpCrossNode => Key {
        name: "tp-cross-node", aliases: &[], kind: Kind::Switch, help: help!("allow tensor parallelism beyond one node (gpus-per-node)"),
        access: Access::Plan { get: |o| flag(o.tp_cross_node), set: |o, v| o.tp_cross_node = v.flag() },
    },
    KeepCp => Key {
        name: "keep-cp", aliases: &[], kind: Kind::Switch,
        help: help!("the planner keeps the context-parallel degree cp given instead of trying every one that splits the sequence"),
        access: Access::Plan { get: |o| flag(o.keep_cp), set: |o, v| o.keep_cp = v.flag() },
    },
    Serve => Key {
        name: "serve", aliases: &[], kind: Kind::Switch,
        help: help!("plan serving replicas (serve-tp, serve-pp, weight format) for batch users instead of training layouts"),
        access: Access::Plan { get: |o| flag(o.serve), set: |o, v| o.serve = v.flag() },
    },
    MaxTpotMs => Key {
        name: "max-tpot-ms", aliases: &[], kind: real(1e-3, 1e7),
        help: help!("serving planner: the longest time per output token a user may wait, ms (default none)"),
        access: Access::Plan { get: |o| o.max_tpot_ms.and_then(num), set: |o, v| o.max_tpot_ms = Some(v.num()) },
    },
    MaxTtftMs => Key {
        name: "max-ttft-ms", aliases: &[], kind: real(1e-3, 1e9),
        help: help!("serving planner: the longest time to the first token, ms (default none)"),
        access: Access::Plan { get: |o| o.max_ttft_ms.and_then(num), set: |o, v| o.max_ttft_ms = Some(v.num()) },
    },
    Lang => Key {
        name: "lang", aliases: &[], kind: Kind::Choice(Lang::names), help: help!("the page's language (default: the browser's)"),
        access: Access::Page {
            get: |p| p.lang.map(|l| Value::Text(l.as_str().into())),
            set: |p, v| p.lang = Lang::parse(v.text()),
        },
    },
    Units => Key {
        name: "units", aliases: &[], kind: Kind::Choice(unit_names), help: help!("byte unit: GB (10⁹, the article's) or GiB (2³⁰)"),
        access: Access::Page {
            get: |p| word(p.units.as_str()),
            set: |p, v| p.units = ByteUnit::parse(v.text()).unwrap_or(p.units),
        },
    },
    Embed => Key {
        name: "embed", aliases: &[], kind: Kind::Switch, help: help!("a figure for another page: one view, no site chrome"),
        access: Access::Page { get: |p| flag(p.embed), set: |p, v| p.embed = v.flag() },
    },
    View => Key {
        name: "view", aliases: &[], kind: Kind::Choice(View::names), help: help!("the view a figure shows, or the part the page opens on"),
        access: Access::Page {
            get: |p| p.view.map(|x| Value::Text(x.as_str().into())),
            set: |p, v| p.view = View::parse(v.text()),
        },
    },
    Present => Key {
        name: "present", aliases: &[], kind: Kind::Switch, help: help!("presentation mode: one view per slide"),
        access: Access::Page { get: |p| flag(p.present), set: |p, v| p.present = v.flag() },
    },
    Deck => Key {
        name: "deck", aliases: &[], kind: Kind::List(presets::deck_entries),
        help: help!("the slides, by preset or view name, comma-separated (default: the article's story)"),
        access: Access::Page {
            get: |p| Some(Value::Text(p.deck.join(","))),
            set: |p, v| p.deck = v.text().split(',').filter(|s| !s.is_empty()).map(String::from).collect(),
        },
    },
    Slide => Key {
        name: "slide", aliases: &[], kind: whole(1, 1000), help: help!("the current slide, from 1"),
        access: Access::Page { get: |p| int(p.slide), set: |p, v| p.slide = v.whole() },
    },
    Fp => Key {
        name: "fp", aliases: &[], kind: Kind::Text { max_chars: 64 }, help: help!("the value in the floating-point explorer"),
        access: Access::Page { get: |p| p.fp.as_deref().and_then(word), set: |p, v| p.fp = Some(v.text().to_string()) },
    },
}

/// `grad-dtype`'s spelling for "unset: follow the model dtype".
const AUTO: &str = "auto";

fn grad_dtype_names() -> Vec<&'static str> {
    std::iter::once(AUTO).chain(GradDtype::names()).collect()
}
fn unit_names() -> Vec<&'static str> {
    vec![ByteUnit::Gb.as_str(), ByteUnit::Gib.as_str()]
}

/// Looks a key up by its spelling or an alias.
pub fn key(name: &str) -> Option<&'static Key> {
    KEYS.iter().find(|k| k.name == name || k.aliases.contains(&name))
}

/// A key or value that could not be taken.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingError {
    UnknownKey(String),
    BadNumber {
        key: &'static str,
        value: String,
        why: NumberError,
    },
    NotWhole {
        key: &'static str,
        value: String,
    },
    OutOfRange {
        key: &'static str,
        value: String,
        min: f64,
        max: f64,
    },
    UnknownChoice {
        key: &'static str,
        value: String,
        choices: Vec<&'static str>,
    },
    BadSwitch {
        key: &'static str,
        value: String,
    },
    /// A key of another tool: the page's on the command line, the planner's outside `tmath plan`.
    Elsewhere {
        key: &'static str,
        target: Target,
    },
    /// A link's key that made its combination impossible: left out, so the
    /// rest of the link still shows its own numbers.
    Refused {
        key: &'static str,
        value: String,
        why: crate::settings::ConfigError,
    },
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
            | SettingError::BadSwitch { key, .. }
            | SettingError::Elsewhere { key, .. }
            | SettingError::Refused { key, .. } => key,
        }
    }
}

/// Cuts a user-supplied value for an error line: a 10 000-character value must not flood it.
pub fn shown(value: &str) -> String {
    let mut s: String = value.chars().take(40).collect();
    if value.chars().count() > 40 {
        s.push('…');
    }
    s
}

/// A range bound as a person writes it: `3`, `0.001`, `1e16`.
pub fn bound(x: f64) -> String {
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
            SettingError::Elsewhere { key, target } => match target {
                Target::Plan => write!(f, "{key} is a planner key: use it with tmath plan"),
                _ => write!(f, "{key} is a key of the page, not of the calculation"),
            },
            SettingError::Refused { key, value, why } => write!(f, "{key}={} left out: {why}", shown(value)),
        }
    }
}

impl std::error::Error for SettingError {}

/// Everything a link can set: the calculation, the planner's assumptions and the page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct State {
    pub settings: Settings,
    pub plan: PlanOptions,
    pub page: PageOptions,
}

/// The state `key` is read against when deciding whether a link must write it:
/// the defaults, with the calculation's model applied.
fn base_settings(s: &Settings) -> Settings {
    match s.model {
        Some(m) => Settings::default().with_model(m),
        None => Settings::default(),
    }
}

impl State {
    /// Sets one key of any target.
    pub fn set(&mut self, name: &str, text: &str) -> Result<(), SettingError> {
        let key = key(name).ok_or_else(|| SettingError::UnknownKey(name.to_string()))?;
        let value = key.parse(text)?;
        match key.access {
            Access::Calc { set, .. } => set(&mut self.settings, &value),
            Access::Plan { set, .. } => set(&mut self.plan, &value),
            Access::Page { set, .. } => set(&mut self.page, &value),
        }
        Ok(())
    }

    /// The field as stored (`None`: unset).
    fn raw(&self, key: &Key) -> Option<Value> {
        match key.access {
            Access::Calc { get, .. } => get(&self.settings),
            Access::Plan { get, .. } => get(&self.plan),
            Access::Page { get, .. } => get(&self.page),
        }
    }

    /// The value a control shows for `name`, after defaults (the GPU's memory,
    /// derived P, d = N/(t·p), …). `None` for an unknown key.
    pub fn value(&self, name: &str) -> Option<String> {
        let key = key(name)?;
        Some(match key.access {
            Access::Calc { .. } => key.shown_in(&self.settings),
            Access::Plan { get, .. } => get(&self.plan).map(|v| v.to_text()).unwrap_or_default(),
            Access::Page { get, .. } => get(&self.page).map(|v| v.to_text()).unwrap_or_default(),
        })
    }

    /// Builds a state from key/value pairs, leniently: a bad pair keeps the
    /// default and is reported; the rest still apply. `model` applies first so
    /// explicit keys override its fields, whatever their order; a repeated
    /// key's last value wins.
    pub fn from_pairs<A: AsRef<str>, B: AsRef<str>>(
        pairs: impl IntoIterator<Item = (A, B)>,
    ) -> (State, Vec<SettingError>) {
        let pairs: Vec<(A, B)> = pairs.into_iter().collect();
        let mut state = State::default();
        let mut errors = Vec::new();
        let is_model = |k: &str| key(k).is_some_and(|k| k.name == K::Model.name());
        let (models, rest): (Vec<_>, Vec<_>) = pairs.iter().partition(|(k, _)| is_model(k.as_ref()));
        for (k, v) in models.into_iter().chain(rest) {
            if let Err(e) = state.set(k.as_ref(), v.as_ref()) {
                errors.push(e);
            }
        }
        (state, errors)
    }

    /// The pairs that restore this state through [`State::from_pairs`]: every
    /// key whose field differs from the defaults (with the model's fields, for
    /// a model), in table order. The default state gives no pairs.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let base = State { settings: base_settings(&self.settings), ..State::default() };
        let mut out = Vec::new();
        for key in KEYS {
            let mine = self.raw(key);
            // The model itself is written whenever there is one (its fields are the base).
            let differs = mine != base.raw(key) || (key.name == K::Model.name() && mine.is_some());
            if let (true, Some(v)) = (differs, mine) {
                out.push((key.name, v.to_text()));
            }
        }
        out
    }
}

/// The settings as the keys read and write them: the calculation's half of
/// the vocabulary (the settings themselves know nothing of keys).
impl Settings {
    /// Sets one key of the calculation (see [`crate::keys`]); a planner's or
    /// the page's key is an error here.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), SettingError> {
        let key = key(name).ok_or_else(|| SettingError::UnknownKey(name.to_string()))?;
        let Access::Calc { set, .. } = key.access else {
            return Err(SettingError::Elsewhere { key: key.name, target: key.target() });
        };
        set(self, &key.parse(value)?);
        Ok(())
    }

    /// Builds settings from key/value pairs, leniently (see [`State::from_pairs`]);
    /// keys of the planner or the page are reported, not taken.
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> (Settings, Vec<SettingError>) {
        let (state, mut errors) = State::from_pairs(pairs);
        for k in state.to_pairs().into_iter().filter_map(|(k, _)| key(k)) {
            if k.target() != Target::Calc {
                errors.push(SettingError::Elsewhere { key: k.name, target: k.target() });
            }
        }
        (state.settings, errors)
    }

    /// The pairs that restore these settings through [`Settings::from_pairs`]:
    /// `model` first, then every key that differs from what the model (or the
    /// default) gives. The default settings give no pairs.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        State { settings: self.clone(), ..State::default() }.to_pairs()
    }

    /// The value a control shows for a calculation key, after defaults. `None` for another key.
    pub fn value(&self, name: &str) -> Option<String> {
        key(name).filter(|k| k.target() == Target::Calc)?;
        State { settings: self.clone(), ..State::default() }.value(name)
    }
}

/// An impossible combination's keys, by their handles.
impl ConfigError {
    /// The keys a link gave that make the combination impossible, the one to
    /// refuse first: a degree before the GPU count (a link's N is its intent),
    /// the derived before the defining (t before the heads that it must divide).
    pub fn culprits(&self) -> &'static [crate::keys::K] {
        use crate::keys::K;
        match self {
            ConfigError::GpuMismatch { .. } => &[K::Dp, K::Tp, K::Pp, K::Cp, K::Gpus],
            ConfigError::GpusNotDivisible { .. } => &[K::Tp, K::Pp, K::Cp, K::Gpus],
            ConfigError::TooManyGpus => &[K::Gpus, K::Dp, K::Tp, K::Pp, K::Cp],
            ConfigError::TpNotDividingHeads { .. } => &[K::Tp, K::Heads],
            ConfigError::TpNotDividingKvHeads { .. } => &[K::Tp, K::KvHeads],
            ConfigError::HeadsNotDividingHidden { .. } => &[K::Heads, K::Hidden],
            ConfigError::KvHeadsNotDividingHeads { .. } => &[K::KvHeads, K::Heads],
            ConfigError::TopKAboveExperts { .. } => &[K::TopK, K::Experts],
            ConfigError::StageLayers { .. } => &[K::PpFirstLayers, K::PpLastLayers, K::Vpp, K::Pp, K::Layers],
            ConfigError::DualPipeOdd { .. } => &[K::Schedule, K::Pp],
            ConfigError::PpLayout(_) => &[K::PpLayout, K::Pp, K::Vpp, K::Layers, K::MtpLayers],
            ConfigError::ActiveAboveParams { .. } => &[K::ActiveParams, K::Params],
            ConfigError::EpNotDividingExperts { .. } => &[K::Ep, K::Experts],
            ConfigError::EpNotDividingDataParallel { .. } => &[K::Ep, K::Dp, K::Gpus],
            ConfigError::ExpertGroups { .. } => &[K::Etp, K::Ep, K::Dp, K::Gpus],
            ConfigError::Mxfp8NeedsBlackwell { .. } => &[K::Fp8, K::Gpu],
            ConfigError::ServeTpNotDividingHeads { .. } => &[K::ServeTp, K::Heads],
            ConfigError::ServePpAboveLayers { .. } => &[K::ServePp, K::Layers],
            ConfigError::QloraNeedsNf4 { .. } => &[K::BaseDtype, K::Finetune],
        }
    }

    /// The control an impossible combination is shown next to.
    pub fn key(&self) -> crate::keys::K {
        use crate::keys::K;
        match self {
            ConfigError::GpuMismatch { .. } | ConfigError::GpusNotDivisible { .. } | ConfigError::TooManyGpus => K::Dp,
            ConfigError::TpNotDividingHeads { .. } | ConfigError::TpNotDividingKvHeads { .. } => K::Tp,
            ConfigError::HeadsNotDividingHidden { .. } => K::Heads,
            ConfigError::KvHeadsNotDividingHeads { .. } => K::KvHeads,
            ConfigError::TopKAboveExperts { .. } => K::TopK,
            ConfigError::StageLayers { .. } | ConfigError::DualPipeOdd { .. } => K::Pp,
            ConfigError::PpLayout(_) => K::PpLayout,
            ConfigError::ActiveAboveParams { .. } => K::ActiveParams,
            ConfigError::EpNotDividingExperts { .. } | ConfigError::EpNotDividingDataParallel { .. } => K::Ep,
            ConfigError::ExpertGroups { .. } => K::Etp,
            ConfigError::Mxfp8NeedsBlackwell { .. } => K::Fp8,
            ConfigError::ServeTpNotDividingHeads { .. } => K::ServeTp,
            ConfigError::ServePpAboveLayers { .. } => K::ServePp,
            ConfigError::QloraNeedsNf4 { .. } => K::BaseDtype,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_and_rows_agree() {
        assert_eq!(K::ALL.len(), KEYS.len());
        for (i, k) in K::ALL.iter().enumerate() {
            assert_eq!(*k as usize, i);
            assert_eq!(key(k.name()).map(|r| r.name), Some(k.name()));
        }
        let mut names: Vec<&str> =
            KEYS.iter().flat_map(|k| std::iter::once(k.name).chain(k.aliases.iter().copied())).collect();
        names.sort();
        names.dedup();
        assert_eq!(
            names.len(),
            KEYS.iter().map(|k| 1 + k.aliases.len()).sum::<usize>(),
            "a name or alias is used twice"
        );
    }

    /// Every key's shown value reads back to the same state, and every choice of every key is taken.
    #[test]
    fn every_value_and_every_choice_reads_back() {
        let (s, errors) = State::from_pairs([("model", "llama-2-70b"), ("gpus", "16"), ("zero", "3"), ("lang", "ko")]);
        assert!(errors.is_empty(), "{errors:?}");
        for k in KEYS {
            let v = s.value(k.name).unwrap_or_default();
            // An unset page option (the view, the language) shows as nothing.
            if !v.is_empty() {
                let mut back = s.clone();
                back.set(k.name, &v).unwrap_or_else(|e| panic!("{}: {e}", k.name));
                if k.target() == Target::Calc {
                    assert_eq!(back.settings.resolve(), s.settings.resolve(), "{}", k.name);
                }
            }
            for c in k.choices() {
                let mut t = State::default();
                t.set(k.name, c).unwrap_or_else(|e| panic!("{}={c}: {e}", k.name));
                assert_eq!(t.value(k.name).as_deref(), Some(c), "{}={c}", k.name);
            }
        }
    }

    #[test]
    fn one_switch_parser_for_every_target() {
        for k in KEYS.iter().filter(|k| k.is_switch()) {
            let mut s = State::default();
            assert!(s.set(k.name, "on").is_ok());
            assert_eq!(s.value(k.name).as_deref(), Some("1"), "{}", k.name);
            assert!(matches!(s.set(k.name, "maybe"), Err(SettingError::BadSwitch { .. })), "{}", k.name);
        }
    }

    #[test]
    fn negative_numbers_are_out_of_range() {
        let e = State::default().set("params", "-5").unwrap_err();
        assert!(matches!(e, SettingError::OutOfRange { key: "params", .. }), "{e:?}");
    }

    #[test]
    fn default_state_gives_no_pairs_and_pairs_round_trip() {
        assert!(State::default().to_pairs().is_empty());
        let (s, errors) = State::from_pairs([
            ("model", "llama-3-405b"),
            ("tp", "8"),
            ("reserve-gb", "2"),
            ("lang", "en"),
            ("deck", "7b,memory"),
            ("slide", "2"),
            ("present", "1"),
            ("grad-dtype", "fp32"),
        ]);
        assert!(errors.is_empty(), "{errors:?}");
        let (back, errors) = State::from_pairs(s.to_pairs());
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(back, s);
    }
}
