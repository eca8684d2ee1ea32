//! Fine-tuning a released model: LoRA (Hu et al. 2021, "LoRA: Low-Rank
//! Adaptation of Large Language Models") and QLoRA (Dettmers et al. 2023,
//! "QLoRA: Efficient Finetuning of Quantized LLMs"), as Hugging Face PEFT,
//! torchtune and LitGPT run them.
//!
//! The frozen base keeps its weights in `base-dtype` and nothing else: no
//! gradients, no optimizer states. The adapters (two matrices of rank r per
//! adapted matrix) are the only trained parameters. What the backward pass
//! still needs through the frozen base is where LoRA's activations differ from
//! full fine-tuning's ([`activation_delta`]).

use crate::arch::{Architecture, Mlp};
use crate::config::Config;
use crate::units::Params;

choice!(
    /// What a run trains (`finetune`).
    Finetune {
        /// Every parameter, with its gradient and optimizer states (the article's training).
        Full = "full",
        /// Low-rank adapters on a frozen 16-bit (or 8-bit) base.
        Lora = "lora",
        /// Low-rank adapters on a base quantized to NF4 with double quantization.
        Qlora = "qlora",
    }
);

choice!(
    /// Which matrices carry adapters (`lora-targets`).
    LoraTargets {
        /// The query and value projections: PEFT's default for Llama-like models
        /// (`TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING`), LitGPT's and torchtune's
        /// single-device defaults, the LoRA paper's choice (Hu et al. 2021, §7.1).
        QueryValue = "qv",
        /// The attention's projections: query, key, value and output (latent attention's all five).
        Attention = "attention",
        /// Every linear layer of the blocks: the attention's and the MLP's (PEFT's
        /// `target_modules="all-linear"`, which leaves the output layer out).
        AllLinear = "all-linear",
    }
);

choice!(
    /// The frozen base's storage (`base-dtype`).
    BaseDtype {
        Fp32 = "fp32",
        Bf16 = "bf16",
        Fp16 = "fp16",
        /// LLM.int8 (Dettmers et al. 2022): the linear layers in int8, the rest in 16 bits.
        Int8 = "int8",
        /// QLoRA's 4-bit NormalFloat with double quantization: the linear layers, the rest in 16 bits.
        Nf4 = "nf4",
    }
);

/// NF4 with double quantization, bits per weight (Dettmers et al. 2023, §3:
/// 4 bits, an 8-bit absmax per 64 weights, and a 32-bit constant per 256 of
/// those): 4 + 8/64 + 32/(64·256) ≈ 4.127.
pub const NF4_BITS: f64 = 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0);

impl BaseDtype {
    /// Bytes per weight of the base's linear layers.
    pub fn linear_bytes(self) -> f64 {
        match self {
            BaseDtype::Fp32 => 4.0,
            BaseDtype::Bf16 | BaseDtype::Fp16 => 2.0,
            BaseDtype::Int8 => 1.0,
            BaseDtype::Nf4 => NF4_BITS / 8.0,
        }
    }

    /// Bytes per parameter of what is not quantized: the embeddings, the output
    /// layer and the norms (bitsandbytes quantizes `nn.Linear` layers only and
    /// keeps the output layer, transformers' `get_keys_to_not_convert`), kept in
    /// the 16-bit compute type; an fp32 base stays fp32.
    pub fn rest_bytes(self) -> f64 {
        match self {
            BaseDtype::Fp32 => 4.0,
            _ => 2.0,
        }
    }
}

/// A fine-tuning run's choices.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct FinetuneConfig {
    pub method: Finetune,
    /// The adapters' rank r.
    pub rank: u64,
    pub targets: LoraTargets,
    /// PEFT's `lora_dropout` on the adapters' input (0: none).
    pub dropout: f64,
    pub base_dtype: BaseDtype,
    /// The input embedding and the output layer trained whole beside the adapters
    /// (PEFT's `modules_to_save=["embed_tokens", "lm_head"]`).
    pub train_embeddings: bool,
}

impl FinetuneConfig {
    /// Whether the base is frozen (LoRA or QLoRA).
    pub fn is_adapter(&self) -> bool {
        self.method != Finetune::Full
    }

    /// The same choices under another method, as the settings resolve an
    /// unset base ([`crate::Settings::resolved_finetune`]): QLoRA's base is NF4;
    /// leaving QLoRA, an NF4 base becomes bf16; any other base stays.
    pub fn with_method(self, method: Finetune) -> FinetuneConfig {
        let base_dtype = match method {
            Finetune::Qlora => BaseDtype::Nf4,
            _ if self.base_dtype == BaseDtype::Nf4 => BaseDtype::Bf16,
            _ => self.base_dtype,
        };
        FinetuneConfig { method, base_dtype, ..self }
    }
}

/// The input a linear layer reads, which the backward pass may keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// The attention's normed input (query, key, value; latent attention's down-projections).
    Attention,
    /// A latent (latent attention's up-projections).
    Latent,
    /// The attention's output (the output projection).
    Output,
    /// The MLP's normed input (up and gate; the router).
    Mlp,
    /// The MLP's inner activation (down).
    Down,
}

/// One kind of adapted matrix: its input and output widths, how many a token
/// passes through per layer (`per_token`) and how many the model holds
/// (`count`: a mixture of experts holds every expert's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Matrix {
    pub d_in: f64,
    pub d_out: f64,
    pub input: Input,
    pub count: f64,
    pub per_token: f64,
}

/// The matrices `targets` adapts, as the model's layers hold them. The
/// attention: query and value (`qv`), or query, key, value, output (k KV heads of d_head with GQA); latent
/// attention's query (or its two low-rank halves), the KV down- and
/// up-projections and the output. The MLP: gate and up (GeLU: one) and down,
/// each routed expert's and each shared expert's, and the router.
pub fn adapted_matrices(a: &Architecture, targets: LoraTargets) -> Vec<Matrix> {
    let (h, l) = (a.hidden as f64, a.layers as f64);
    let heads = a.heads as f64;
    let mut m = Vec::new();
    let mut push = |d_in: f64, d_out: f64, input: Input, count: f64, per_token: f64| {
        m.push(Matrix { d_in, d_out, input, count, per_token });
    };
    let all = targets != LoraTargets::QueryValue;
    if a.mla.is_on() {
        // qv: the query's projections and the KV up-projection, which makes the values.
        let x = a.mla;
        let (rq, rkv) = (x.q_lora_rank as f64, x.kv_lora_rank as f64);
        let (d, dr, dv) = (x.qk_head_dim as f64, x.qk_rope_head_dim as f64, x.v_head_dim as f64);
        if rq > 0.0 {
            push(h, rq, Input::Attention, l, l);
            push(rq, heads * (d + dr), Input::Latent, l, l);
        } else {
            push(h, heads * (d + dr), Input::Attention, l, l);
        }
        if all {
            push(h, rkv + dr, Input::Attention, l, l);
        }
        push(rkv, heads * (d + dv), Input::Latent, l, l);
        if all {
            push(heads * dv, h, Input::Output, l, l);
        }
    } else {
        let (q, kv) = (a.attention_width(), a.kv_heads as f64 * a.d_head());
        push(h, q, Input::Attention, l, l);
        let kv_matrices = if all { 2.0 } else { 1.0 };
        push(h, kv, Input::Attention, kv_matrices * l, kv_matrices * l);
        if all {
            push(q, h, Input::Output, l, l);
        }
    }
    if targets == LoraTargets::AllLinear {
        let ups = if a.mlp == Mlp::Swiglu { 2.0 } else { 1.0 };
        let moe = a.moe_layers();
        let dense = l - moe;
        let f = a.ffn as f64;
        push(h, f, Input::Mlp, ups * dense, ups * dense);
        push(f, h, Input::Down, dense, dense);
        if moe > 0.0 {
            let (e, k, shared) = (a.experts as f64, a.top_k as f64, a.shared_experts as f64);
            let fe = a.moe_ffn as f64;
            push(h, fe, Input::Mlp, ups * moe * (e + shared), ups * moe * (k + shared));
            push(fe, h, Input::Down, moe * (e + shared), moe * (k + shared));
            push(h, e, Input::Mlp, moe, moe);
        }
    }
    m
}

/// The adapters' parameters: r·(d_in + d_out) for each adapted matrix (Hu et
/// al. 2021, §4.1: A is r × d_in, B is d_out × r). Llama 3 8B at r = 16:
/// 41,943,040 with `all-linear`, 13,631,488 on the attention (what PEFT's
/// `print_trainable_parameters` prints).
pub fn lora_params(a: &Architecture, rank: u64, targets: LoraTargets) -> f64 {
    adapted_matrices(a, targets).iter().map(|m| rank as f64 * (m.d_in + m.d_out) * m.count).sum()
}

/// The adapters' parameters a token passes through (a mixture of experts' used ones).
pub fn lora_params_per_token(a: &Architecture, rank: u64, targets: LoraTargets) -> f64 {
    adapted_matrices(a, targets).iter().map(|m| rank as f64 * (m.d_in + m.d_out) * m.per_token).sum()
}

/// The parameters a run trains: P under full fine-tuning; else the adapters,
/// and the input embedding and output layer when they are trained whole.
pub fn trainable_params(c: &Config) -> Params {
    let f = c.finetune;
    if !f.is_adapter() {
        return c.params;
    }
    let embeddings = if f.train_embeddings { c.arch.embedding_params().get() } else { 0.0 };
    Params(lora_params(&c.arch, f.rank, f.targets) + embeddings)
}

/// The share of P in the blocks' linear layers: what a quantized base
/// quantizes (the shape's count less its embeddings, output layer and norms).
fn linear_share(a: &Architecture) -> f64 {
    let exact = a.exact_params().get().max(1.0);
    ((exact - a.non_matrix_params().get()) / exact).clamp(0.0, 1.0)
}

/// The frozen base's weights, bytes (before any sharding): its linear layers
/// in `base-dtype`, the rest in 16 bits (fp32 for an fp32 base); a trained
/// embedding and output layer are the adapters' part, not the base's.
pub fn base_weight_bytes(c: &Config) -> f64 {
    let f = c.finetune;
    let p = c.params.get();
    let linear = linear_share(&c.arch) * p;
    let trained = if f.train_embeddings { c.arch.embedding_params().get() } else { 0.0 };
    let rest = (p - linear - trained).max(0.0);
    linear * f.base_dtype.linear_bytes() + rest * f.base_dtype.rest_bytes()
}

/// The largest of the blocks' linear weights, values: a quantized base
/// dequantizes one at a time to the compute type for its matrix product
/// (bitsandbytes' `MatMul4Bit`: `dequantize_4bit(B)` inside each layer's forward
/// and backward), and frees it after.
pub fn largest_linear(a: &Architecture) -> f64 {
    adapted_matrices(a, LoraTargets::AllLinear).iter().map(|m| m.d_in * m.d_out).fold(0.0, f64::max)
}

/// The dequantized weight a quantized base holds at once, bytes per GPU: the
/// largest linear in 16 bits, split over the tensor ranks (0 without quantization).
pub fn dequantized_bytes(c: &Config) -> f64 {
    match c.finetune.base_dtype {
        BaseDtype::Int8 | BaseDtype::Nf4 if c.finetune.is_adapter() => {
            2.0 * largest_linear(&c.arch) / c.layout.tp as f64
        }
        _ => 0.0,
    }
}

/// LoRA's change to one layer's stored activations, in units of s·b·h:
/// (outside the tensor-parallel region, inside it, before ÷ t).
///
/// A frozen linear layer keeps no input: autograd saves a matrix product's
/// input only for its weight's gradient (PyTorch's derivatives.yaml, `mm`:
/// `self` is saved for `mat2`'s gradient), and the gradient that flows on to
/// earlier layers needs the weight alone. An adapter keeps its input (A's
/// gradient) and its r-wide product (B's). So without dropout, the inputs of
/// the matrices that carry adapters stay, and those of the others go: with
/// `attention` the MLP's normed input (2) and its down-projection's (2·f/h);
/// with dropout the adapter reads a dropped copy, kept with its 1-byte mask
/// (3 bytes a value, per adapter), and the input itself goes. The norms, the
/// attention core and the activation function keep theirs: the gradient passes
/// through them to the adapters below.
pub fn activation_delta(c: &Config) -> (f64, f64) {
    let f = c.finetune;
    if !f.is_adapter() {
        return (0.0, 0.0);
    }
    let a = c.arch;
    let (h, l) = (a.hidden as f64, a.layers.max(1) as f64);
    let adapted = adapted_matrices(&a, f.targets);
    // Per layer, on average (a token's experts).
    let per_layer = |input: Input| -> (f64, f64) {
        let ms = adapted.iter().filter(|m| m.input == input);
        ms.fold((0.0, 0.0), |(n, w), m| (n + m.per_token / l, w.max(m.d_in)))
    };
    let dropout = f.dropout > 0.0;
    // The base count's input of each kind, s·b·h units, and whether it sits inside the tensor-parallel region.
    let moe_share = a.moe_layers() / l;
    let f_avg = moe_share * (a.moe_ffn * (a.top_k + a.shared_experts)) as f64 + (1.0 - moe_share) * a.ffn as f64;
    let kinds: [(Input, f64, bool); 4] = [
        (Input::Attention, 2.0, false),
        (Input::Output, 2.0 * a.attention_width() / h, true),
        (Input::Mlp, 2.0, false),
        (Input::Down, 2.0 * f_avg / h, true),
    ];
    let (mut outside, mut inside) = (0.0, 0.0);
    for (input, base, is_inside) in kinds {
        let (n, width) = per_layer(input);
        let kept = n > 0.0 && !dropout;
        let mut delta = if kept { 0.0 } else { -base };
        if dropout {
            delta += 3.0 * n * width / h;
        }
        if is_inside {
            inside += delta;
        } else {
            outside += delta;
        }
    }
    // Latent attention's up-projections read latents the attention core does not keep.
    let (n_latent, latent) = per_layer(Input::Latent);
    outside += if dropout { 3.0 } else { 2.0 } * n_latent * latent / h;
    // Every adapter's r-wide product, B's input, in 16 bits.
    let products: f64 = adapted.iter().map(|m| m.per_token / l).sum();
    outside += 2.0 * f.rank as f64 * products / h;
    (outside, inside)
}

pub mod post;

#[cfg(test)]
mod tests {
    use super::*;

    /// The figure's three runs and the LoRA/QLoRA remedies move a run between
    /// methods as the settings resolve an unset base: a base loaded in fp32
    /// stays fp32 under LoRA (the issue: "a base loaded in fp32 stays fp32"),
    /// QLoRA's is NF4, and leaving QLoRA gives a 16-bit base.
    #[test]
    fn a_method_change_keeps_the_base_where_it_can() {
        let full = crate::Settings::default().resolved_finetune();
        assert_eq!(full.base_dtype, BaseDtype::Bf16);
        let fp32 = FinetuneConfig { base_dtype: BaseDtype::Fp32, ..full };
        assert_eq!(fp32.with_method(Finetune::Lora).base_dtype, BaseDtype::Fp32);
        let q = fp32.with_method(Finetune::Qlora);
        assert_eq!((q.method, q.base_dtype), (Finetune::Qlora, BaseDtype::Nf4));
        assert_eq!(q.with_method(Finetune::Lora).base_dtype, BaseDtype::Bf16);
        assert_eq!(q.with_method(Finetune::Full).rank, full.rank);
    }
}
