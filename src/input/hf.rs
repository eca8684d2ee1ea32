//! A Hugging Face `config.json`, read offline into the calculator's shape
//! keys: each known field mapped to its key, the rest named as not used.
//! The parser reads JSON's full grammar and keeps objects' fields; arrays are
//! named, not read. A multimodal model (Gemma 3, Llama 4, the vision-language
//! models) keeps its language model's shape under `text_config`: read from there.

use crate::config::Mlp;
use crate::settings::Settings;

/// A JSON value, as far as a config needs it.
#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    /// An object's fields, in order.
    Object(Vec<(String, Json)>),
    /// An array's strings (`layer_types`); its other items are not kept.
    Strings(Vec<String>),
}

/// Why a text is not a config.
#[derive(Clone, Debug, PartialEq)]
pub enum HfError {
    /// Not JSON (with the byte offset where reading stopped).
    NotJson { at: usize },
    /// JSON, but not an object.
    NotObject,
    /// An object with none of the fields a shape needs.
    NoShape,
}

impl std::fmt::Display for HfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HfError::NotJson { at } => write!(f, "not JSON (stopped at character {at})"),
            HfError::NotObject => write!(f, "a config.json is one object {{ … }}"),
            HfError::NoShape => write!(f, "no field of a model's shape (num_hidden_layers, hidden_size, …)"),
        }
    }
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

impl Reader<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn err<T>(&self) -> Result<T, HfError> {
        Err(HfError::NotJson { at: self.i })
    }
    fn eat(&mut self, c: u8) -> Result<(), HfError> {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            Ok(())
        } else {
            self.err()
        }
    }
    fn literal(&mut self, word: &str, v: Json) -> Result<Json, HfError> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            self.err()
        }
    }
    fn string(&mut self) -> Result<String, HfError> {
        self.eat(b'"')?;
        let mut out = Vec::new();
        while let Some(&c) = self.s.get(self.i) {
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(out).or_else(|_| self.err()),
                b'\\' => {
                    let e = *self.s.get(self.i).ok_or(HfError::NotJson { at: self.i })?;
                    self.i += 1;
                    match e {
                        b'u' => {
                            // Kept as a placeholder: keys and values of interest are ASCII.
                            self.i += 4;
                            out.push(b'?');
                        }
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        other => out.push(other),
                    }
                }
                c => out.push(c),
            }
        }
        self.err()
    }
    fn number(&mut self) -> Result<Json, HfError> {
        let start = self.i;
        while self.i < self.s.len() && matches!(self.s[self.i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i])
            .ok()
            .and_then(crate::decimal::parse)
            .map(Json::Num)
            .ok_or(HfError::NotJson { at: start })
    }
    fn value(&mut self) -> Result<Json, HfError> {
        self.ws();
        match self.s.get(self.i) {
            Some(b'{') => self.object().map(Json::Object),
            Some(b'[') => {
                self.depth += 1;
                if self.depth > 64 {
                    return self.err();
                }
                self.i += 1;
                self.ws();
                let mut items = Vec::new();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                } else {
                    loop {
                        if let Json::Str(item) = self.value()? {
                            items.push(item);
                        }
                        self.ws();
                        match self.s.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b']') => {
                                self.i += 1;
                                break;
                            }
                            _ => return self.err(),
                        }
                    }
                }
                self.depth -= 1;
                Ok(Json::Strings(items))
            }
            Some(b'"') => self.string().map(Json::Str),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(_) => self.number(),
            None => self.err(),
        }
    }
    /// An object's fields, in order.
    fn object(&mut self) -> Result<Vec<(String, Json)>, HfError> {
        let mut out = Vec::new();
        self.depth += 1;
        if self.depth > 64 {
            return self.err();
        }
        self.eat(b'{')?;
        self.ws();
        if self.s.get(self.i) == Some(&b'}') {
            self.i += 1;
            self.depth -= 1;
            return Ok(out);
        }
        loop {
            self.ws();
            let key = self.string()?;
            self.eat(b':')?;
            let v = self.value()?;
            out.push((key, v));
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    self.depth -= 1;
                    return Ok(out);
                }
                _ => return self.err(),
            }
        }
    }
}

/// The top-level fields of a JSON object, in order.
fn fields(text: &str) -> Result<Vec<(String, Json)>, HfError> {
    let mut r = Reader { s: text.as_bytes(), i: 0, depth: 0 };
    r.ws();
    if r.s.get(r.i) != Some(&b'{') {
        return if r.value().is_ok() { Err(HfError::NotObject) } else { r.err() };
    }
    let out = r.object()?;
    r.ws();
    if r.i != r.s.len() {
        return r.err();
    }
    Ok(out)
}

/// Fields per key, first match wins (Llama/Mistral/Qwen/Mixtral/DeepSeek, GPT-2, GPT-NeoX, OPT, Falcon, T5-style).
const FIELDS: &[(&str, &[&str])] = &[
    ("layers", &["num_hidden_layers", "n_layer", "num_layers", "n_layers"]),
    ("hidden", &["hidden_size", "n_embd", "d_model", "dim"]),
    ("heads", &["num_attention_heads", "n_head", "num_heads", "n_heads"]),
    ("kv-heads", &["num_key_value_heads", "num_kv_heads", "n_kv_heads", "multi_query_group_num"]),
    ("ffn", &["intermediate_size", "n_inner", "ffn_dim", "ffn_hidden_size", "d_ff"]),
    ("vocab", &["vocab_size", "padded_vocab_size"]),
    ("tie-embeddings", &["tie_word_embeddings"]),
    ("experts", &["num_local_experts", "n_routed_experts", "num_experts"]),
    ("top-k", &["num_experts_per_tok", "moe_top_k"]),
    ("shared-experts", &["n_shared_experts"]),
    ("moe-ffn", &["moe_intermediate_size"]),
    ("dense-layers", &["first_k_dense_replace"]),
    ("kv-lora-rank", &["kv_lora_rank"]),
    ("q-lora-rank", &["q_lora_rank"]),
    ("head-dim", &["head_dim"]),
    ("qk-head-dim", &["qk_nope_head_dim"]),
    ("qk-rope-head-dim", &["qk_rope_head_dim"]),
    ("v-head-dim", &["v_head_dim"]),
    ("max-position-embeddings", &["max_position_embeddings", "n_positions", "max_sequence_length", "seq_length"]),
];

/// Fields read to decide something, not a key of their own.
const READ: &[&str] =
    &["hidden_act", "hidden_activation", "activation_function", "model_type", "torch_dtype", "architectures"];

/// Fields without effect on memory, compute or time: token ids, initialisation,
/// norms' epsilon, positions' frequencies, dropout, the library's bookkeeping
/// (separated by spaces).
const NO_EFFECT: &str = "\
    bos_token_id eos_token_id pad_token_id sep_token_id decoder_start_token_id initializer_range \
    initializer_factor rms_norm_eps layer_norm_eps layer_norm_epsilon norm_eps rope_theta \
    rope_local_base_freq rope_scaling use_cache transformers_version _name_or_path attention_dropout \
    hidden_dropout embd_pdrop resid_pdrop attn_pdrop summary_first_dropout tokenizer_class \
    output_router_logits router_aux_loss_coef router_z_loss_coef router_jitter_noise pretraining_tp \
    id2label label2id final_logit_softcapping attn_logit_softcapping query_pre_attn_scalar \
    boi_token_index eoi_token_index image_token_index image_token_id video_token_id";

/// Fields a config may leave to its class's default, by `model_type`
/// (transformers' configuration classes): Gemma 3's `text_config` gives no
/// vocabulary, `Gemma3TextConfig`'s is 262,208 (configuration_gemma3.py).
const CLASS_DEFAULTS: &[(&str, &str, &str)] = &[("gemma3_text", "vocab", "262208")];

/// Where a multimodal config keeps its language model.
const NESTED: &[&str] = &["text_config", "llm_config", "language_config"];

/// Whether fields hold a shape (layers or the hidden size under one of their names).
fn has_shape(fields: &[(String, Json)]) -> bool {
    FIELDS[..2].iter().flat_map(|(_, names)| names.iter()).any(|n| fields.iter().any(|(k, _)| k == n))
}

/// What a config gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Mapped {
    /// Key, value, and the field it came from ("" when derived), in the table's order.
    pub pairs: Vec<(&'static str, String, String)>,
    /// The fields that were not read: what they change, if anything, is not modelled.
    pub unused: Vec<String>,
    /// The fields read as without effect on memory, compute or time (token ids, the learning rate, logging).
    pub no_effect: Vec<String>,
}

/// P from the keys' shape, the calculator's exact count and its active part,
/// for a model that is no catalogue entry (`model=custom` first). P counts the
/// main model, as DeepSeek-V3's 671B does: MTP modules add theirs
/// (`Settings::resolved_params`). Shared by the config.json and the Megatron-LM readers.
pub(crate) fn add_counts(pairs: &mut Vec<(&'static str, String, String)>) {
    let mut s = Settings::default();
    for (k, v, _) in pairs.iter() {
        let _ = s.set(k, v);
    }
    let a = crate::config::Architecture { mtp_layers: 0, ..s.architecture() };
    pairs.insert(0, ("model", "custom".into(), String::new()));
    pairs.push(("params", format!("{}", a.exact_params().get()), String::new()));
    pairs.push(("active-params", format!("{}", a.exact_active_params().get()), String::new()));
}

/// The weight format a `quantization_config` names, where the calculator has it:
/// `quant_method` gptq or awq at 4 bits in groups of 128, mxfp4, fp8 (and
/// fbgemm_fp8), and ModelOpt's NVFP4 or FP8 (`quant_algo`).
fn quantization_format(q: &[(String, Json)]) -> Option<&'static str> {
    let text = |name: &str| match q.iter().find(|(k, _)| k == name).map(|(_, v)| v) {
        Some(Json::Str(s)) => s.to_ascii_lowercase(),
        _ => String::new(),
    };
    let num = |name: &str| match q.iter().find(|(k, _)| k == name).map(|(_, v)| v) {
        Some(Json::Num(x)) => Some(*x),
        _ => None,
    };
    let int4_g128 = num("bits") == Some(4.0) && num("group_size") == Some(128.0);
    match text("quant_method").as_str() {
        "gptq" if int4_g128 => Some("gptq-int4"),
        "awq" if int4_g128 => Some("awq-int4"),
        "mxfp4" => Some("mxfp4"),
        "fp8" | "fbgemm_fp8" => Some("fp8"),
        "modelopt" => match text("quant_algo").as_str() {
            "nvfp4" => Some("nvfp4"),
            "fp8" => Some("fp8"),
            _ => None,
        },
        _ => None,
    }
}

/// Reads a config: the shape keys, the MLP's form (gated SiLU is SwiGLU), the
/// weights' dtype for serving, and P counted exactly from the shape (its
/// active part for a mixture of experts), so the calculator sizes this model.
pub fn read(text: &str) -> Result<Mapped, HfError> {
    let top = fields(text)?;
    // A shape at the top level is the model's; else a nested language model's, with the
    // top level's other fields (torch_dtype, tie_word_embeddings) where it does not say.
    let nested = (!has_shape(&top))
        .then(|| {
            top.iter().find_map(|(k, v)| match v {
                Json::Object(inner) if NESTED.contains(&k.as_str()) && has_shape(inner) => {
                    Some((k.clone(), inner.clone()))
                }
                _ => None,
            })
        })
        .flatten();
    let fields: Vec<(String, Json)> = match &nested {
        Some((name, inner)) => inner
            .iter()
            .map(|(k, v)| (format!("{name}.{k}"), v.clone()))
            .chain(top.iter().filter(|(k, _)| k != name && !inner.iter().any(|(i, _)| i == k)).cloned())
            .collect(),
        None => top,
    };
    // A field by its name, nested or not.
    let bare = |k: &str| -> String {
        match &nested {
            Some((name, _)) => k.strip_prefix(name.as_str()).and_then(|r| r.strip_prefix('.')).unwrap_or(k).to_string(),
            None => k.to_string(),
        }
    };
    let get = |name: &str| fields.iter().find(|(k, _)| bare(k) == name).map(|(_, v)| v);
    // A field's name as the config writes it (`text_config.hidden_size` when nested).
    let field_name =
        |name: &str| fields.iter().find(|(k, _)| bare(k) == name).map_or(name.to_string(), |(k, _)| k.clone());
    let mut pairs: Vec<(&'static str, String, String)> = Vec::new();
    let mut used: Vec<&str> = READ.to_vec();
    for (key, names) in FIELDS {
        if let Some((name, v)) = names.iter().find_map(|n| get(n).map(|v| (*n, v))) {
            let value = match v {
                Json::Num(x) if *x >= 0.0 => format!("{x}"),
                Json::Bool(b) => (if *b { "1" } else { "0" }).to_string(),
                _ => continue,
            };
            used.push(name);
            pairs.push((key, value, field_name(name)));
        }
    }
    if !pairs.iter().any(|(k, ..)| *k == "layers" || *k == "hidden") {
        return Err(HfError::NoShape);
    }
    let text_of = |name: &str| match get(name) {
        Some(Json::Str(s)) => s.to_ascii_lowercase(),
        _ => String::new(),
    };
    for &(model_type, key, value) in CLASS_DEFAULTS {
        if text_of("model_type") == model_type && !pairs.iter().any(|(k, ..)| *k == key) {
            pairs.push((key, value.into(), String::new()));
        }
    }
    // Gated SiLU (Llama, Mistral, Qwen, DeepSeek): three matrices. Gemma's MLP is gated too, with
    // GELU (transformers' GemmaMLP: gate_proj, up_proj, down_proj): three matrices, counted so.
    // Ungated GELU MLPs (GPT-2, GPT-NeoX, OPT, Falcon): two.
    let act = [text_of("hidden_act"), text_of("hidden_activation"), text_of("activation_function")].concat();
    let gated = act.contains("silu") || act.contains("swiglu") || text_of("model_type").starts_with("gemma");
    let mlp = if gated { Mlp::Swiglu } else { Mlp::Gelu };
    pairs.push(("mlp", mlp.as_str().into(), String::new()));
    // GPT-2's n_inner: null means 4h; Hugging Face's default ties the embeddings.
    if !pairs.iter().any(|(k, ..)| *k == "tie-embeddings") {
        pairs.push(("tie-embeddings", "1".into(), String::new()));
    }
    // Mixtral's experts are intermediate_size wide.
    let moe = pairs.iter().any(|(k, v, _)| *k == "experts" && v != "1");
    if moe && !pairs.iter().any(|(k, ..)| *k == "moe-ffn") {
        if let Some((_, v, _)) = pairs.iter().find(|(k, ..)| *k == "ffn").cloned() {
            pairs.push(("moe-ffn", v, String::new()));
        }
    }
    let dtype = match text_of("torch_dtype").as_str() {
        "bfloat16" => Some("bf16"),
        "float16" => Some("fp16"),
        "float32" => Some("fp32"),
        _ => None,
    };
    // Sliding-window attention: the window where the config turns it on (Qwen2's
    // use_sliding_window false leaves it off), and which layers attend globally: from
    // `layer_types` (gpt-oss, Gemma 3 in transformers 4.53+), `sliding_window_pattern`,
    // the class's rule (Gemma 2 alternates, Gemma 3 has one global layer in six), else
    // every layer slides (Mistral 7B v0.1).
    let window = match (get("sliding_window"), get("use_sliding_window")) {
        (_, Some(Json::Bool(false))) => None,
        (Some(Json::Num(w)), _) if *w > 0.0 => Some(*w),
        _ => None,
    };
    if let Some(w) = window {
        used.push("sliding_window");
        pairs.push(("sliding-window", format!("{w}"), field_name("sliding_window")));
        let model_type = text_of("model_type");
        let (every, from) = match (get("layer_types"), get("sliding_window_pattern")) {
            (Some(Json::Strings(types)), _) => {
                used.push("layer_types");
                let every = types.iter().position(|t| t == "full_attention").map_or(0, |i| i + 1);
                (every as u64, field_name("layer_types"))
            }
            (_, Some(Json::Num(k))) if *k >= 1.0 => {
                used.push("sliding_window_pattern");
                (*k as u64, field_name("sliding_window_pattern"))
            }
            _ if model_type == "gemma2" => (2, String::new()),
            _ if model_type.starts_with("gemma3") => (6, String::new()),
            _ => (0, String::new()),
        };
        pairs.push(("global-every", every.to_string(), from));
    }
    // Hybrid models: which layers attend, and a linear layer's state. Qwen3-Next and
    // Qwen3.5 (transformers' Qwen3NextConfig): `full_attention_interval` or `layer_types`
    // of "linear_attention" and "full_attention", Gated DeltaNet heads of
    // `linear_*_head_dim`, its convolution over q, k and v of `linear_conv_kernel_dim`,
    // the recurrent state in `mamba_ssm_dtype` (Qwen3.5: float32) else 16 bits.
    // Jamba (JambaConfig): one attention layer in `attn_layer_period`, Mamba layers of
    // d_inner = `mamba_expand`·h with `mamba_d_state` and `mamba_d_conv`.
    let num = |name: &str| match get(name) {
        Some(Json::Num(x)) if *x >= 0.0 => Some(*x as u64),
        _ => None,
    };
    let linear_types = match get("layer_types") {
        Some(Json::Strings(types)) if types.iter().any(|t| t == "linear_attention") => {
            types.iter().position(|t| t == "full_attention").map(|i| (i as u64 + 1, "layer_types"))
        }
        _ => None,
    };
    let every = linear_types
        .or_else(|| num("full_attention_interval").map(|k| (k, "full_attention_interval")))
        .or_else(|| num("attn_layer_period").map(|k| (k, "attn_layer_period")));
    let hidden = num("hidden_size");
    let state = match (num("linear_num_value_heads"), num("linear_key_head_dim"), num("linear_value_head_dim")) {
        (Some(hv), Some(dk), Some(dv)) => {
            let conv_width = 2 * num("linear_num_key_heads").unwrap_or(hv) * dk + hv * dv;
            let kernel = num("linear_conv_kernel_dim").unwrap_or(4);
            used.extend([
                "linear_num_value_heads",
                "linear_num_key_heads",
                "linear_key_head_dim",
                "linear_value_head_dim",
                "linear_conv_kernel_dim",
            ]);
            Some((hv * dk * dv, kernel.saturating_sub(1) * conv_width, "linear_num_value_heads"))
        }
        _ => match (num("mamba_d_state"), num("mamba_expand"), hidden) {
            (Some(d_state), Some(expand), Some(h)) => {
                used.extend(["mamba_d_state", "mamba_expand", "mamba_d_conv"]);
                let d_inner = expand * h;
                Some((d_inner * d_state, num("mamba_d_conv").unwrap_or(4).saturating_sub(1) * d_inner, "mamba_d_state"))
            }
            _ => None,
        },
    };
    if let (Some((k, from)), Some((values, conv, state_from))) = (every, state) {
        used.extend([from, "attn_layer_offset"]);
        pairs.push(("attention-every", k.to_string(), field_name(from)));
        pairs.push(("linear-state", values.to_string(), field_name(state_from)));
        pairs.push(("linear-conv", conv.to_string(), String::new()));
        let fp32 = text_of("mamba_ssm_dtype") == "float32";
        let from = if get("mamba_ssm_dtype").is_some() {
            used.push("mamba_ssm_dtype");
            field_name("mamba_ssm_dtype")
        } else {
            String::new()
        };
        pairs.push(("state-dtype", (if fp32 { "fp32" } else { "bf16" }).into(), from));
    }
    // A quantized checkpoint says its format in `quantization_config` (transformers'
    // quantizers: GPTQ and AWQ with bits and group size, gpt-oss's MXFP4, FP8,
    // ModelOpt's NVFP4): that, not torch_dtype (the unquantized tensors'), is the weights'.
    let quantized = match get("quantization_config") {
        Some(Json::Object(q)) => quantization_format(q),
        _ => None,
    };
    if let Some(f) = quantized {
        used.push("quantization_config");
        pairs.push(("inference-dtype", f.into(), "quantization_config".into()));
    } else if let Some(d) = dtype {
        pairs.push(("inference-dtype", d.into(), "torch_dtype".into()));
    }
    add_counts(&mut pairs);
    let (no_effect, unused) = fields
        .iter()
        .map(|(k, _)| k)
        .filter(|k| !used.contains(&bare(k).as_str()))
        .cloned()
        .partition(|k| NO_EFFECT.split_whitespace().any(|f| f == bare(k)));
    Ok(Mapped { pairs, unused, no_effect })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_texts_are_errors() {
        assert!(matches!(read("nope"), Err(HfError::NotJson { .. })));
        assert_eq!(read("[1, 2]"), Err(HfError::NotObject));
        assert_eq!(read("{\"a\": 1}"), Err(HfError::NoShape));
        assert!(matches!(read("{\"hidden_size\": 4096,"), Err(HfError::NotJson { .. })));
        assert!(read(&"[".repeat(10_000)).is_err());
        assert!(read(&"{\"a\":".repeat(10_000)).is_err());
    }
}
