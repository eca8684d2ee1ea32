//! The weights as quantized files hold them (issue 37): each format's bits per
//! weight from its block layout, and which tensors it keeps wider, counted
//! tensor by tensor from the shape. The article's formats (fp32, fp16, bf16,
//! int8, int4) and fp8 stay nominal, every parameter at 4, 2, 1 or ½ byte, so
//! the article's 1.2 × weights is its own equation verbatim.
//!
//! - GPTQ and AWQ int4 (AutoGPTQ's and AutoAWQ's packed `QuantLinear`): every
//!   linear layer of the blocks as 4-bit weights, one fp16 scale and one 4-bit
//!   zero per group of 128 inputs (4 + 16/128 + 4/128 = 4.156 bits), GPTQ with
//!   its int32 `g_idx` per input beside; the embeddings, the output layer, the
//!   norms and a router stay 16-bit.
//! - NVFP4 (NVIDIA, "Pretraining Large Language Models with NVFP4", 2025;
//!   TensorRT Model Optimizer's checkpoints): 4-bit E2M1 weights with one FP8
//!   E4M3 scale per 16 (4 + 8/16 = 4.5 bits) on the blocks' linear layers.
//! - MXFP4 (OCP Microscaling Formats v1.0): E2M1 with one E8M0 scale per 32
//!   (4 + 8/32 = 4.25 bits); gpt-oss is released with its experts alone in
//!   MXFP4 (its model card), so a mixture of experts keeps the rest 16-bit.
//! - GGUF (llama.cpp `ggml/src/ggml-common.h`: block sizes and bytes;
//!   `src/llama-quant.cpp`: the type each tensor gets under each file type,
//!   the `_M` mixes' wider `attn_v` and `ffn_down` layers, the output layer in
//!   Q6_K, norms and the router never quantized, a row not a multiple of the
//!   block falling back to another type). The file's own metadata (the
//!   tokenizer, 0.7–8 MB) is not counted.

use crate::arch::Architecture;
use crate::config::{Config, InferenceDtype};

/// What a tensor is, as the formats' rules tell tensors apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The input embedding (tied: also the output layer).
    Embedding,
    /// The output layer, when untied.
    Output,
    Query,
    Key,
    Value,
    AttnOut,
    Gate,
    Up,
    Down,
    /// A routed expert's matrices (one tensor of E experts per layer in GGUF).
    ExpertGate,
    ExpertUp,
    ExpertDown,
    /// The router's h × E matrix.
    Router,
    /// A norm's (or any 1-D) weights.
    Norm,
    /// Another linear layer of a block (latent attention's projections, an MTP module's).
    Linear,
}

impl Role {
    fn is_block_linear(self) -> bool {
        !matches!(self, Role::Embedding | Role::Output | Role::Router | Role::Norm)
    }

    fn is_expert(self) -> bool {
        matches!(self, Role::ExpertGate | Role::ExpertUp | Role::ExpertDown)
    }
}

/// One weight tensor of the shape: its role, its layer, its parameters, and
/// its rows' length (the input width, ggml's `ne[0]`) and count (the output width).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tensor {
    pub role: Role,
    pub layer: u64,
    pub params: f64,
    pub row: u64,
    pub out: u64,
}

/// Every weight tensor of `a`, layer by layer; their parameters add up to
/// [`Architecture::exact_params`].
pub fn tensors(a: &Architecture) -> Vec<Tensor> {
    let (h, v) = (a.hidden, a.vocab);
    let mut out = Vec::new();
    let mut push = |role, layer, row: u64, outw: u64, count: u64| {
        out.push(Tensor { role, layer, params: (row * outw * count) as f64, row, out: outw });
    };
    push(Role::Embedding, 0, h, v, 1);
    if !a.tie_embeddings {
        push(Role::Output, a.layers, h, v, 1);
    }
    push(Role::Norm, a.layers, h, 1, 1);
    for i in 0..a.layers + a.mtp_layers {
        push_layer(a, i, &mut push);
    }
    out
}

/// The tensors of layer `i` alone (an MTP module's past the last layer), as
/// [`tensors`] lists them: what the time that follows the shape reads per layer.
pub fn layer_tensors(a: &Architecture, i: u64) -> Vec<Tensor> {
    let mut out = Vec::new();
    push_layer(a, i, &mut |role, layer, row: u64, outw: u64, count: u64| {
        out.push(Tensor { role, layer, params: (row * outw * count) as f64, row, out: outw });
    });
    out
}

/// Layer `i`'s tensors; an MTP module (i ≥ L) is a layer of the last kind, its
/// 2h → h projection and three norms.
fn push_layer(a: &Architecture, i: u64, push: &mut dyn FnMut(Role, u64, u64, u64, u64)) {
    let h = a.hidden;
    push(Role::Norm, i, h, 1, 2);
    let m = a.mla;
    if m.is_on() {
        let (rq, rkv, heads) = (m.q_lora_rank, m.kv_lora_rank, a.heads);
        if rq > 0 {
            push(Role::Linear, i, h, rq, 1);
            push(Role::Norm, i, rq, 1, 1);
            push(Role::Linear, i, rq, heads * (m.qk_head_dim + m.qk_rope_head_dim), 1);
        } else {
            push(Role::Query, i, h, heads * (m.qk_head_dim + m.qk_rope_head_dim), 1);
        }
        push(Role::Linear, i, h, rkv + m.qk_rope_head_dim, 1);
        push(Role::Norm, i, rkv, 1, 1);
        push(Role::Linear, i, rkv, heads * (m.qk_head_dim + m.v_head_dim), 1);
        push(Role::AttnOut, i, heads * m.v_head_dim, h, 1);
    } else {
        let d = a.d_head() as u64;
        push(Role::Query, i, h, a.heads * d, 1);
        push(Role::Key, i, h, a.kv_heads * d, 1);
        push(Role::Value, i, h, a.kv_heads * d, 1);
        push(Role::AttnOut, i, a.heads * d, h, 1);
    }
    let gated = a.mlp_width_factor() > 1.0;
    if a.is_moe_layer(i.min(a.layers.saturating_sub(1))) {
        let (f, e, s) = (a.moe_ffn, a.experts, a.shared_experts);
        push(Role::Router, i, h, e, 1);
        if gated {
            push(Role::ExpertGate, i, h, f, e);
        }
        push(Role::ExpertUp, i, h, f, e);
        push(Role::ExpertDown, i, f, h, e);
        if s > 0 {
            if gated {
                push(Role::Gate, i, h, f, s);
            }
            push(Role::Up, i, h, f, s);
            push(Role::Down, i, f, h, s);
        }
    } else {
        if gated {
            push(Role::Gate, i, h, a.ffn, 1);
        }
        push(Role::Up, i, h, a.ffn, 1);
        push(Role::Down, i, a.ffn, h, 1);
    }
    if i >= a.layers {
        push(Role::Linear, i, 2 * h, h, 1);
        push(Role::Norm, i, h, 1, 3);
    }
}

/// A ggml tensor type: (weights per block, bytes per block), `ggml-common.h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ggml {
    F32,
    F16,
    Q4_0,
    Q5_0,
    Q5_1,
    Q8_0,
    Q3K,
    Q4K,
    Q5K,
    Q6K,
}

impl Ggml {
    /// (weights per block, bytes per block): `block_q4_0` 18 bytes for 32, `block_q4_K` 144 for 256, …
    fn block(self) -> (u64, u64) {
        match self {
            Ggml::F32 => (1, 4),
            Ggml::F16 => (1, 2),
            Ggml::Q4_0 => (32, 18),
            Ggml::Q5_0 => (32, 22),
            Ggml::Q5_1 => (32, 24),
            Ggml::Q8_0 => (32, 34),
            Ggml::Q3K => (256, 110),
            Ggml::Q4K => (256, 144),
            Ggml::Q5K => (256, 176),
            Ggml::Q6K => (256, 210),
        }
    }

    fn bits(self) -> f64 {
        let (n, bytes) = self.block();
        8.0 * bytes as f64 / n as f64
    }

    /// The type a row of `row` weights takes: a k-quant whose 256 does not
    /// divide the row falls back (`tensor_type_fallback`: Q3_K → Q4_0, Q4_K →
    /// Q5_0, Q5_K → Q5_1, Q6_K → Q8_0), and a row 32 does not divide to F16.
    fn for_row(self, row: u64) -> Ggml {
        let t = if row.is_multiple_of(self.block().0) {
            self
        } else {
            match self {
                Ggml::Q3K => Ggml::Q4_0,
                Ggml::Q4K => Ggml::Q5_0,
                Ggml::Q5K => Ggml::Q5_1,
                Ggml::Q6K => Ggml::Q8_0,
                t => t,
            }
        };
        if row.is_multiple_of(t.block().0) {
            t
        } else {
            Ggml::F16
        }
    }
}

/// A GGUF file type's default type and its output layer's
/// (`llama_ftype_get_default_type`; the output in Q6_K but under Q8_0).
fn gguf_defaults(f: InferenceDtype) -> (Ggml, Ggml) {
    use InferenceDtype as D;
    match f {
        D::GgufQ8 => (Ggml::Q8_0, Ggml::Q8_0),
        D::GgufQ6K => (Ggml::Q6K, Ggml::Q6K),
        D::GgufQ5KM => (Ggml::Q5K, Ggml::Q6K),
        D::GgufQ4KM => (Ggml::Q4K, Ggml::Q6K),
        D::GgufQ4 => (Ggml::Q4_0, Ggml::Q6K),
        _ => (Ggml::Q3K, Ggml::Q6K),
    }
}

/// `use_more_bits` of llama-quant.cpp: the first and last eighth of the
/// layers and every third layer between get the wider type in the `_M` mixes.
fn use_more_bits(i: u64, n: u64) -> bool {
    i < n / 8 || i >= 7 * n / 8 || (i as i64 - (n / 8) as i64).rem_euclid(3) == 2
}

/// The ggml type llama.cpp's quantizer gives tensor `t` of `a` under file type
/// `f` (`llama_tensor_get_type`, the rules for dense and MoE Llama-like models).
fn gguf_type(f: InferenceDtype, a: &Architecture, t: &Tensor) -> Ggml {
    use InferenceDtype as D;
    let (base, output) = gguf_defaults(f);
    let n = a.layers;
    let eight_experts = a.experts == 8;
    // Llama's 80-layer GQA models (LLM_TYPE_70B): attn_v "8x smaller", raised at a negligible cost.
    let seventy_b = n == 80 && a.kv_heads < a.heads;
    let t_type = match t.role {
        Role::Norm | Role::Router => return Ggml::F32,
        // The output layer (and a tied embedding, which is it): Q6_K, or Q8_0 for a row 256 does not divide.
        Role::Output => return if t.row.is_multiple_of(256) { output } else { Ggml::Q8_0 },
        Role::Embedding if a.tie_embeddings => return if t.row.is_multiple_of(256) { output } else { Ggml::Q8_0 },
        Role::Embedding => base,
        Role::Key if eight_experts => Ggml::Q8_0,
        Role::Value => {
            let v = if eight_experts {
                Ggml::Q8_0
            } else {
                match f {
                    D::GgufQ5KM | D::GgufQ4KM if use_more_bits(t.layer, n) => Ggml::Q6K,
                    D::GgufQ3KM if t.layer < 2 => Ggml::Q5K,
                    D::GgufQ3KM => Ggml::Q4K,
                    _ => base,
                }
            };
            if seventy_b && matches!(v, Ggml::Q3K | Ggml::Q4K) {
                Ggml::Q5K
            } else {
                v
            }
        }
        Role::Down | Role::ExpertDown => match f {
            D::GgufQ5KM | D::GgufQ4KM if use_more_bits(t.layer, n) => Ggml::Q6K,
            D::GgufQ3KM if t.layer < n / 16 => Ggml::Q5K,
            D::GgufQ3KM => Ggml::Q4K,
            _ => base,
        },
        Role::AttnOut => match f {
            D::GgufQ3KM | D::GgufQ4KM if eight_experts => Ggml::Q5K,
            D::GgufQ3KM => Ggml::Q4K,
            _ => base,
        },
        _ => base,
    };
    t_type.for_row(t.row)
}

/// Bits per weight of a format's quantized matrices, from its block layout
/// alone (what it keeps wider aside): the nominal formats' bytes × 8; GPTQ and
/// AWQ int4 4 + (16 + 4)/128 (an fp16 scale and a packed 4-bit zero per group
/// of 128 inputs); NVFP4 4 + 8/16; MXFP4 4 + 8/32; a GGUF file type's default type.
pub fn matrix_bits(f: InferenceDtype) -> f64 {
    use InferenceDtype as D;
    match f {
        D::Fp32 => 32.0,
        D::Fp16 | D::Bf16 => 16.0,
        D::Fp8 | D::Int8 => 8.0,
        D::Int4 => 4.0,
        D::GptqInt4 | D::AwqInt4 => 4.0 + 20.0 / 128.0,
        D::Nvfp4 => 4.0 + 8.0 / 16.0,
        D::Mxfp4 => 4.0 + 8.0 / 32.0,
        D::GgufQ8 | D::GgufQ6K | D::GgufQ5KM | D::GgufQ4KM | D::GgufQ4 | D::GgufQ3KM => gguf_defaults(f).0.bits(),
    }
}

/// Bits per weight of tensor `t` of `a` in format `f`.
pub fn tensor_bits(f: InferenceDtype, a: &Architecture, t: &Tensor) -> f64 {
    use InferenceDtype as D;
    let linear = t.role.is_block_linear();
    match f {
        // GPTQ's g_idx beside: an int32 per input row.
        D::GptqInt4 if linear => matrix_bits(f) + 32.0 / t.out as f64,
        D::AwqInt4 | D::Nvfp4 if linear => matrix_bits(f),
        D::Mxfp4 if t.role.is_expert() || (linear && !a.is_moe()) => matrix_bits(f),
        D::GptqInt4 | D::AwqInt4 | D::Nvfp4 | D::Mxfp4 => 16.0,
        D::GgufQ8 | D::GgufQ6K | D::GgufQ5KM | D::GgufQ4KM | D::GgufQ4 | D::GgufQ3KM => gguf_type(f, a, t).bits(),
        _ => matrix_bits(f),
    }
}

/// Bytes per parameter of the article's formats (fp32 4, fp16 and bf16 2,
/// int8 1, int4 ½) and fp8 (1); `None` for a format counted tensor by tensor.
pub fn nominal_bytes(f: InferenceDtype) -> Option<f64> {
    use InferenceDtype as D;
    matches!(f, D::Fp32 | D::Fp16 | D::Bf16 | D::Fp8 | D::Int8 | D::Int4).then(|| matrix_bits(f) / 8.0)
}

/// The bytes of the tensors of `a` that `keep` selects, in format `f`.
fn shape_bytes(f: InferenceDtype, a: &Architecture, keep: impl Fn(Role) -> bool) -> f64 {
    tensors(a).iter().filter(|t| keep(t.role)).map(|t| t.params * tensor_bits(f, a, t) / 8.0).sum()
}

/// The whole model's weights in the serving format, bytes: P · bytes for the
/// nominal formats; otherwise counted tensor by tensor on the shape, times
/// P over the shape's own count (a P set beside a catalogue shape).
pub fn weight_bytes(c: &Config) -> f64 {
    let f = c.serving.inference_dtype;
    let p = c.params.get();
    match nominal_bytes(f) {
        Some(b) => p * b,
        None => shape_bytes(f, &c.arch, |_| true) * p / c.arch.exact_params().get().max(1.0),
    }
}

/// Average bytes per parameter of the weights in the serving format.
pub fn bytes_per_param(c: &Config) -> f64 {
    weight_bytes(c) / c.params.get().max(1.0)
}

/// The share of the memory bandwidth that 16-bit weights reach which a
/// format's decode kernels reach, at a small batch: what the kernel's own
/// dequantization and scaling cost beside the bytes it saves. Taken at the
/// kernel level where one was published, since the per-kernel floor
/// ([`crate::serving::time::KERNEL_FLOOR_S`]) is counted apart (an end-to-end
/// ratio holds that floor once more). `docs/research/quantized-bandwidth.md`
/// holds every figure found.
pub fn read_share(f: InferenceDtype) -> f64 {
    use InferenceDtype as D;
    match f {
        D::Fp32 | D::Fp16 | D::Bf16 => 1.0,
        D::Fp8 => 0.75,
        D::Int8 => 0.69,
        D::Int4 | D::GptqInt4 | D::AwqInt4 => 0.80,
        D::Nvfp4 => 0.56,
        D::Mxfp4 => 1.0,
        D::GgufQ8 | D::GgufQ6K | D::GgufQ5KM | D::GgufQ4KM | D::GgufQ4 | D::GgufQ3KM => 1.0,
    }
}

/// The source of each [`read_share`].
pub fn read_share_source(f: InferenceDtype) -> &'static str {
    use InferenceDtype as D;
    match f {
        D::Fp32 | D::Fp16 | D::Bf16 => "the GPU's achieved share, measured with 16-bit weights",
        D::Fp8 => "vLLM PR #20071 (B200, CUTLASS scaled_mm, M = 1, N = 28672, K = 4096): FP8 weights with per-token activation scales 8.76 TFLOP/s against torch's BF16 5.81 at half the bytes, 0.75; TensorRT-LLM's quantization blog measures 0.77 end to end on an H100 at batch 1 (1.51× at 0.51 of the bytes)",
        D::Int8 => "vLLM PR #23197 (H100, Llama 3.1 8B, batch 1, 256 tokens in and 32 out, Marlin's W8A16 kernel): 0.186 s against BF16's 0.236 s at 0.54 of the bytes, 0.69, end to end (its prefill and floor in both: a lower bound)",
        D::Int4 | D::GptqInt4 | D::AwqInt4 => "Marlin's bench.py in vLLM PR #2497 (batch 1, group 128): 3.12× torch's FP16 at 0.258 of its bytes, 0.80, on a GPU of 1.16 TB/s or more (an A100's class); Marlin's README reports the ideal 3.87× (1.0) on an A10 of 0.6 TB/s",
        D::Nvfp4 => "vLLM PR #38338 (RTX 5090, Triton NVFP4 GEMM, M = 1): large N and K \"all hit ~2x\" BF16 at 0.28 of the bytes, 0.56; CUTLASS's untuned W4A4 on SM100 reached 0.18–0.21 (vLLM PR #20646)",
        D::Mxfp4 => "assumption: no measurement of an MXFP4 kernel's bandwidth was found; the 16-bit share",
        D::GgufQ8 | D::GgufQ6K | D::GgufQ5KM | D::GgufQ4KM | D::GgufQ4 | D::GgufQ3KM => "llama.cpp PR #4766 (RTX 4090, llama-bench tg128, Llama 7B): F16 61.03 and Q8_0 98.13 tokens/s solve to one bandwidth, 1.02 TB/s (the datasheet's), and one per-token floor of 3.2 ms; F16 and Q4_0 on the same card give 0.97 TB/s (XiongjieDai/GPU-Benchmarks-on-LLM-Inference)",
    }
}

/// How long `c`'s weights take to read against 16-bit weights of the same
/// bytes: 1/[`read_share`] for the tensors in the format's own type, 1 for
/// those it keeps in 16 or 32 bits (the norms, a GPTQ file's embeddings and
/// output layer, MXFP4's attention), weighed by their bytes; the input
/// embedding, looked up and not read, left out.
pub fn read_time_factor(c: &Config) -> f64 {
    let f = c.serving.inference_dtype;
    let share = read_share(f);
    if share >= 1.0 || nominal_bytes(f).is_some() {
        return 1.0 / share;
    }
    let a = &c.arch;
    let (mut narrow, mut all) = (0.0, 0.0);
    for t in tensors(a).iter().filter(|t| t.role != Role::Embedding || a.tie_embeddings) {
        let bits = tensor_bits(f, a, t);
        let bytes = t.params * bits / 8.0;
        all += bytes;
        if bits < 16.0 {
            narrow += bytes;
        }
    }
    if all <= 0.0 {
        return 1.0;
    }
    (narrow / share + (all - narrow)) / all
}

/// What a decode step can leave unread, in the format's bytes per parameter,
/// from one pass over the shape: the input embedding's (a GGUF or GPTQ file
/// keeps it wider than the matrices) and the routed experts'.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unread {
    pub embedding: f64,
    pub experts: f64,
}

/// [`Unread`] of `c`'s format: the nominal formats' one figure for both.
pub fn unread_bytes_per_param(c: &Config) -> Unread {
    let f = c.serving.inference_dtype;
    if let Some(b) = nominal_bytes(f) {
        return Unread { embedding: b, experts: b };
    }
    let a = &c.arch;
    // (params, bytes) of the embedding and of the experts.
    let (mut emb, mut exp) = ((0.0, 0.0), (0.0, 0.0));
    for t in tensors(a) {
        let sum = match t.role {
            Role::Embedding => &mut emb,
            r if r.is_expert() => &mut exp,
            _ => continue,
        };
        sum.0 += t.params;
        sum.1 += t.params * tensor_bits(f, a, &t) / 8.0;
    }
    let per = |(params, bytes): (f64, f64)| if params > 0.0 { bytes / params } else { bytes_per_param(c) };
    Unread { embedding: per(emb), experts: per(exp) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    fn shape(name: &str) -> Architecture {
        catalog::model(name).unwrap().arch
    }

    #[test]
    fn the_tensors_add_up_to_the_shape() {
        for m in catalog::MODELS {
            let sum: f64 = tensors(&m.arch).iter().map(|t| t.params).sum();
            let exact = m.arch.exact_params().get();
            assert!((sum - exact).abs() <= 1e-9 * exact, "{}: {sum} vs {exact}", m.name);
        }
    }

    /// Each format's share is its source's arithmetic: vLLM #20071's FP8 8.764737
    /// against BF16 5.807663 TFLOP/s at half the bytes; #23197's int8 0.236 s
    /// against 0.186 s at 0.54 of the bytes; #2497's Marlin 3.12× at 0.258 of
    /// them; #38338's NVFP4 2× at 4.5/16 of them.
    #[test]
    fn read_shares_are_their_sources_ratios() {
        let share = read_share;
        assert!((share(InferenceDtype::Fp8) - 8.764737 / 5.807663 * 0.5).abs() < 0.005);
        assert!((share(InferenceDtype::Int8) - 0.236 / 0.186 * 0.54).abs() < 0.005);
        assert!((share(InferenceDtype::GptqInt4) - 3.12 * 0.258).abs() < 0.005);
        assert!((share(InferenceDtype::Nvfp4) - 2.0 * 4.5 / 16.0).abs() < 0.005);
        for f in [InferenceDtype::Bf16, InferenceDtype::Fp16, InferenceDtype::Fp32, InferenceDtype::GgufQ4KM] {
            assert_eq!(share(f), 1.0);
        }
        // Every share names its source; the one without a measurement says it is an assumption.
        for f in InferenceDtype::ALL {
            assert!(read_share_source(*f).len() > 40, "{f:?}");
        }
        assert!(read_share_source(InferenceDtype::Mxfp4).starts_with("assumption"));
    }

    /// A GPTQ file keeps its output layer and norms in 16 bits, read at the
    /// 16-bit share: Llama 3 8B's blocks hold 4.1565 + 32/out bits a weight,
    /// its 525M-parameter output layer 16; the factor lies between 1 and 1/0.8.
    #[test]
    fn read_time_weighs_the_wide_tensors() {
        let c = crate::link::config("model=llama-3-8b&inference-dtype=gptq-int4").unwrap();
        let a = &c.arch;
        let f = InferenceDtype::GptqInt4;
        let (mut narrow, mut wide) = (0.0, 0.0);
        for t in tensors(a).iter().filter(|t| t.role != Role::Embedding) {
            let b = t.params * tensor_bits(f, a, t) / 8.0;
            if t.role.is_block_linear() {
                narrow += b
            } else {
                wide += b
            }
        }
        let by_hand = (narrow / 0.8 + wide) / (narrow + wide);
        assert!((read_time_factor(&c) - by_hand).abs() < 1e-12);
        assert!(by_hand > 1.0 && by_hand < 1.25, "{by_hand}");
        let int4 = crate::link::config("model=llama-3-8b&inference-dtype=int4").unwrap();
        assert_eq!(read_time_factor(&int4), 1.0 / 0.8);
    }

    /// ggml-common.h's blocks: q4_0 18 bytes per 32 (4.5 bits), q8_0 34 (8.5),
    /// q6_K 210 per 256 (6.5625), q4_K 144 (4.5), q3_K 110 (3.4375).
    #[test]
    fn ggml_blocks() {
        assert_eq!(Ggml::Q4_0.bits(), 4.5);
        assert_eq!(Ggml::Q8_0.bits(), 8.5);
        assert_eq!(Ggml::Q6K.bits(), 6.5625);
        assert_eq!(Ggml::Q4K.bits(), 4.5);
        assert_eq!(Ggml::Q3K.bits(), 3.4375);
        // gpt-oss's 2,880-wide rows: no 256-blocks, Q4_K falls back to Q5_0.
        assert_eq!(Ggml::Q4K.for_row(2880), Ggml::Q5_0);
        assert_eq!(Ggml::Q4K.for_row(4096), Ggml::Q4K);
    }

    /// llama-quant.cpp's `use_more_bits` over 32 layers: 0–3, 6, 9, …, 27 and 28–31, 16 layers.
    #[test]
    fn more_bits_layers() {
        let more: Vec<u64> = (0..32).filter(|&i| use_more_bits(i, 32)).collect();
        assert_eq!(more, vec![0, 1, 2, 3, 6, 9, 12, 15, 18, 21, 24, 27, 28, 29, 30, 31]);
    }

    /// The tensor counts llama.cpp logs loading Llama 3 8B and Llama 2 7B:
    /// Q4_K_M 193 q4_K and 33 q6_K; Q3_K_M 129 q3_K, 92 q4_K, 4 q5_K, 1 q6_K.
    #[test]
    fn gguf_mixes_count_as_llama_cpp_logs() {
        for name in ["llama-3-8b", "llama-2-7b"] {
            let a = shape(name);
            let count = |f: InferenceDtype, g: Ggml| {
                tensors(&a).iter().filter(|t| t.role != Role::Norm && gguf_type(f, &a, t) == g).count()
            };
            assert_eq!(
                (count(InferenceDtype::GgufQ4KM, Ggml::Q4K), count(InferenceDtype::GgufQ4KM, Ggml::Q6K)),
                (193, 33)
            );
            let q3 = InferenceDtype::GgufQ3KM;
            assert_eq!(
                (count(q3, Ggml::Q3K), count(q3, Ggml::Q4K), count(q3, Ggml::Q5K), count(q3, Ggml::Q6K)),
                (129, 92, 4, 1),
                "{name}"
            );
        }
    }
}
