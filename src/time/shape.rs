//! Time that follows the shape (issue 39): one micro-batch's pass through the
//! model, kernel by kernel, at rates the GPU's datasheet and published
//! measurements give, with nothing taken from a validation row.
//!
//! - Every matrix product of a layer (and the output layer) runs at the GPU's
//!   maximum achievable matmul rate ([`crate::catalog::Gpu::matmul`], the best
//!   shape's) as a training step's continuous load sustains it
//!   ([`crate::catalog::Gpu::sustained`]) times its tile and wave quantization: the output is cut into
//!   256 × 128 tiles, one per SM at a time, and the last wave and the last
//!   tile of each row and column are paid whole (NVIDIA, "Matrix
//!   Multiplication Background User's Guide", § Tile Quantization, § Wave
//!   Quantization). A product whose operands take longer to read than its
//!   arithmetic takes runs at the memory's rate (the roofline). The forward
//!   computes Y = XW, the backward the input's gradient and the weights'
//!   gradient: three products of the same FLOPs and their own output shapes.
//! - The attention scores and their use over V run at FlashAttention's
//!   measured forward-and-backward rate on that GPU ([`attention_rate`]).
//! - What no matrix product does (norms, rotary, the residual adds, the
//!   gated activation, the loss's softmax) moves its tensors through the
//!   memory once each way at the achieved bandwidth ([`crate::catalog::Gpu::achieved_hbm_gbs`]).
//!
//! The result is the rate τ a run achieves on its own shape and layout
//! ([`shape_rate`]): the step-time model divides the same hardware FLOPs by it.

use crate::config::{Config, Recompute};
use crate::serving::formats::{layer_tensors, Role};

/// The output tile of one thread block: 256 rows by 128 columns, the tile of
/// the guide's examples on the A100; a product of fewer rows takes the
/// smallest of 64, 128 or 256 rows that holds them (CUTLASS's and cuBLAS's
/// BF16 kernels carry all three).
pub const TILE: (f64, f64) = (256.0, 128.0);

/// The tile's rows for a product of `rows` rows ([`TILE`]).
fn tile_rows(rows: f64) -> f64 {
    [64.0, 128.0].into_iter().find(|&t| rows <= t).unwrap_or(TILE.0)
}

/// One matrix product: its output's rows and columns and the inner dimension.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gemm {
    pub rows: f64,
    pub cols: f64,
    pub inner: f64,
}

impl Gemm {
    /// 2·rows·cols·inner.
    pub fn flops(self) -> f64 {
        2.0 * self.rows * self.cols * self.inner
    }

    /// The share of the SMs' tile slots that compute this product's output:
    /// the tiles' own cells over the padded ones (tile quantization), and the
    /// tiles over whole waves of `sms` (wave quantization).
    pub fn efficiency(self, sms: f64) -> f64 {
        self.batched_efficiency(1.0, sms)
    }

    /// [`Gemm::efficiency`] of `batch` such products run as one grid (a batched product).
    pub fn batched_efficiency(self, batch: f64, sms: f64) -> f64 {
        let (tr, tc) = (tile_rows(self.rows), TILE.1);
        let (r, c) = ((self.rows / tr).ceil(), (self.cols / tc).ceil());
        let tiles = r * c * batch;
        if tiles <= 0.0 || sms <= 0.0 {
            return 1.0;
        }
        let waves = (tiles / sms).ceil();
        let tile = self.rows * self.cols / (r * c * tr * tc);
        tile * tiles / (waves * sms)
    }

    /// Seconds on a GPU of `sms` SMs at `rate` FLOP/s (the best shape's) and
    /// `bandwidth` bytes/s, operands and output in 2 bytes: the longer of the
    /// arithmetic at the quantized rate and the bytes at the bandwidth.
    pub fn seconds(self, sms: f64, rate: f64, bandwidth: f64) -> f64 {
        self.batched_seconds(1.0, sms, rate, bandwidth)
    }

    /// [`Gemm::seconds`] of `batch` such products run as one grid.
    pub fn batched_seconds(self, batch: f64, sms: f64, rate: f64, bandwidth: f64) -> f64 {
        let bytes = 2.0 * (self.rows * self.inner + self.inner * self.cols + self.rows * self.cols);
        (batch * self.flops() / (rate * self.batched_efficiency(batch, sms))).max(batch * bytes / bandwidth)
    }

    /// The forward product and the backward's two: the input's gradient
    /// (rows × inner, over cols) and the weights' (inner × cols, over rows).
    pub fn passes(self) -> [Gemm; 3] {
        let Gemm { rows, cols, inner } = self;
        [self, Gemm { rows, cols: inner, inner: cols }, Gemm { rows: inner, cols, inner: rows }]
    }
}

/// One micro-batch through one layer (or the output layer), seconds by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pass {
    pub gemm: f64,
    pub attention: f64,
    pub memory: f64,
}

impl Pass {
    pub fn total(&self) -> f64 {
        self.gemm + self.attention + self.memory
    }
}

/// The products of layer `layer` of `c` for one micro-batch on one rank:
/// `tokens` rows; a column-parallel matrix (the query, key and value, the
/// gate and up projections, latent attention's up-projections) split by its
/// columns over t, a row-parallel one (the attention's output, the down
/// projection) by its rows; the routed experts over etp·ep, each expert's
/// rows the tokens routed to it from the ep ranks (top-k of E on average).
fn layer_gemms(c: &Config, layer: u64, tokens: f64) -> Vec<(Gemm, f64)> {
    let a = c.arch;
    let t = c.layout.tp as f64;
    let (ep, etp) = (c.layout.ep as f64, c.layout.expert_tp() as f64);
    let mut out = Vec::new();
    for x in layer_tensors(&a, layer) {
        let (k, n) = (x.row as f64, x.out as f64);
        let count = x.params / (k * n).max(1.0);
        let column = Gemm { rows: tokens, cols: n / t, inner: k };
        let row = Gemm { rows: tokens, cols: n, inner: k / t };
        match x.role {
            Role::Query | Role::Key | Role::Value | Role::Gate | Role::Up => out.push((column, count)),
            Role::AttnOut | Role::Down => out.push((row, count)),
            // Latent attention: the down-projections (h wide in) whole on every rank, the up-projections split.
            Role::Linear if x.row == a.hidden => out.push((Gemm { rows: tokens, cols: n, inner: k }, count)),
            Role::Linear => out.push((column, count)),
            Role::Router => out.push((Gemm { rows: tokens, cols: n, inner: k }, 1.0)),
            Role::ExpertGate | Role::ExpertUp | Role::ExpertDown => {
                // E/ep experts on this rank, each with ep·tokens·k/E rows.
                let rows = ep * tokens * a.top_k as f64 / a.experts.max(1) as f64;
                let g = if x.role == Role::ExpertDown {
                    Gemm { rows, cols: n, inner: k / etp }
                } else {
                    Gemm { rows, cols: n / etp, inner: k }
                };
                out.push((g, count / ep));
            }
            Role::Embedding | Role::Output | Role::Norm => {}
        }
    }
    out
}

/// The bytes a layer's kernels other than its products move for one
/// micro-batch's forward on one rank, 2 bytes a value: the two norms (read
/// and write h), the two residual adds (read 2h, write h), rotary on the
/// queries and keys (read and write), the gated activation (read 2f, write f;
/// GELU read f, write f). With sequence parallelism the norms and adds see
/// 1/t of the tokens.
fn layer_memory_bytes(c: &Config, layer: u64, tokens: f64) -> f64 {
    let a = c.arch;
    let t = c.layout.tp as f64;
    let h = a.hidden as f64;
    let outside = if c.splits_sequence() { t } else { 1.0 };
    let norms_and_adds = (2.0 * 2.0 + 2.0 * 3.0) * h / outside;
    let rotary = 2.0 * (a.heads + a.kv_heads) as f64 * a.d_head() / t;
    let f = if a.is_moe_layer(layer) {
        // Each token's k routed experts and the shared ones, on this rank's share of the expert ranks.
        a.moe_ffn as f64 * (a.top_k + a.shared_experts) as f64 / c.layout.expert_tp() as f64
    } else {
        a.ffn as f64 / t
    };
    let activation = if a.mlp_width_factor() > 1.0 { 3.0 * f } else { 2.0 * f };
    2.0 * tokens * (norms_and_adds + rotary + activation)
}

/// The backward's memory traffic over the forward's: a unary kernel's
/// backward reads the saved input and the incoming gradient and writes one
/// (3 tensors against 2), an add's passes its gradient on (3 against 3).
const BACKWARD_MEMORY: f64 = 1.5;

/// One micro-batch through layer `layer` of `c` on one rank, its products and
/// its other kernels (the attention core apart, [`attention_pass`]): forward,
/// backward, and the recomputed forward where the run recomputes.
pub fn layer_pass(c: &Config, layer: u64) -> Pass {
    let (sms, rate, bw) = rates(c);
    let rate = rate * fp8_speedup(c);
    let tokens = tokens(c);
    let full = c.recompute == Recompute::Full;
    let mut gemm = 0.0;
    for (x, count) in layer_gemms(c, layer, tokens) {
        let [f, d, w] = x.passes().map(|p| p.seconds(sms, rate, bw));
        gemm += count * (f * if full { 2.0 } else { 1.0 } + d + w);
    }
    let bytes = layer_memory_bytes(c, layer, tokens);
    let memory = bytes * (1.0 + BACKWARD_MEMORY + if full { 1.0 } else { 0.0 }) / bw;
    Pass { gemm, attention: 0.0, memory }
}

/// The attention scores and their use over V in every attending layer, for
/// one micro-batch on one rank, this rank's heads and share of the sequence.
///
/// - FlashAttention: its own count, 4·a·d per query–key pair forward (causal:
///   the pairs of [`crate::arch::Architecture::causal_pairs`]), 2.5× that
///   backward, once more forward under full or selective recomputation, at its measured
///   rate ([`attention_rate`]).
/// - Standard attention (Megatron-LM before FlashAttention): QKᵀ and the
///   scores times V as batched products over every pair (the mask skips
///   none), s × s and s × d per head, their input's and weights' gradients
///   backward; and the s × s scores through the memory: the fused scaled,
///   masked softmax reads and writes them (2 + 2 bytes), the dropout reads
///   them and writes them and its 1-byte mask (2 + 2 + 1) forward; backward
///   the dropout's gradient (2 + 1 + 2) and the softmax's (2 + 2 + 2)
///   (Megatron-LM `fused_softmax`, Korthikanti et al. 2022's 5·a·s² bytes).
pub fn attention_pass(c: &Config) -> Pass {
    let a = c.arch;
    // Full recomputation re-runs the whole forward, selective the attention core alone
    // (Korthikanti et al. 2022, §5): either way the core's forward runs twice.
    let rerun = c.recompute != Recompute::None;
    let layers = a.attention_layers() as f64;
    let heads = a.heads as f64 / c.layout.tp as f64;
    let b = c.micro_batch as f64;
    if c.attention == crate::config::Attention::Flash {
        let s = c.seq_len as f64;
        let forward = 4.0 * b * a.causal_pairs(s) * a.attention_width() / (c.layout.tp * c.layout.cp) as f64;
        let passes = if rerun { 4.5 } else { 3.5 };
        return Pass { attention: layers * passes * forward / attention_rate(c), ..Pass::default() };
    }
    let (sms, rate, bw) = rates(c);
    let s = tokens(c) / b;
    let d = a.d_head();
    let scores = Gemm { rows: s, cols: s, inner: d };
    let values = Gemm { rows: s, cols: d, inner: s };
    // The batched product runs every head of every sequence as one grid of tiles.
    let batched = |g: Gemm| g.batched_seconds(b * heads, sms, rate, bw);
    let per_pass = |g: Gemm| g.passes().map(batched);
    let [qf, qd, qw] = per_pass(scores);
    let [vf, vd, vw] = per_pass(values);
    let forward = qf + vf;
    let gemm = forward * if rerun { 2.0 } else { 1.0 } + qd + qw + vd + vw;
    let elements = b * heads * s * s;
    let bytes = elements * (9.0 * if rerun { 2.0 } else { 1.0 } + 11.0);
    Pass { gemm: 0.0, attention: layers * gemm, memory: layers * bytes / bw }
}

/// The GPU's SMs, the matmul rate it sustains under a training step's load
/// (FLOP/s: the best shape's, as the clock settles under the power limit) and
/// its achieved bandwidth (bytes/s).
fn rates(c: &Config) -> (f64, f64, f64) {
    let g = c.system.gpu;
    (g.sms as f64, g.sustained_tflops() * 1e12, g.achieved_hbm_gbs() * 1e9)
}

/// How much faster a layer's products run in FP8 training: all three of a
/// linear layer's products (forward, the input's gradient, the weights')
/// take FP8 inputs (DeepSeek-V3 §3.3.1; Transformer Engine's recipes) at the
/// measured FP8 matmul ceiling over the BF16 one
/// ([`crate::catalog::FP8_MATMUL_OVER_BF16`], 1.92), on a GPU with FP8 tensor
/// cores (compute capability 8.9 and up); the attention and the output layer
/// stay in BF16.
fn fp8_speedup(c: &Config) -> f64 {
    if c.dtypes.fp8 != crate::config::Fp8Recipe::None && c.system.gpu.sm >= 89 {
        crate::catalog::FP8_MATMUL_OVER_BF16
    } else {
        1.0
    }
}

/// A micro-batch's tokens on one rank: b·s/cp.
fn tokens(c: &Config) -> f64 {
    (c.micro_batch * c.seq_len) as f64 / c.layout.cp as f64
}

/// The output layer and the loss for one micro-batch on one rank: the
/// V/t-wide product, forward and backward, and the fp32 logits' softmax read
/// and written forward and backward.
pub fn head_pass(c: &Config) -> Pass {
    let (sms, rate, bw) = rates(c);
    let tokens = tokens(c);
    let v = c.arch.vocab as f64 / c.layout.tp as f64;
    let x = Gemm { rows: tokens, cols: v, inner: c.arch.hidden as f64 };
    let gemm = x.passes().map(|p| p.seconds(sms, rate, bw)).iter().sum();
    let memory = 4.0 * 4.0 * tokens * v / bw;
    Pass { gemm, attention: 0.0, memory }
}

/// One micro-batch through the whole model on one t·cp group (every layer, the
/// attention, the output layer and the loss), seconds.
pub fn model_pass(c: &Config) -> f64 {
    let a = c.arch;
    let moe = a.moe_layers();
    let dense = a.layers as f64 - moe;
    let of = |kind: bool| (0..a.layers).find(|&l| a.is_moe_layer(l) == kind).map_or(0.0, |l| layer_pass(c, l).total());
    head_pass(c).total() + attention_pass(c).total() + dense * of(false) + moe * of(true)
}

/// The rate a run achieves on its shape: its hardware FLOPs per token
/// ([`crate::step::hardware_flops_per_token`]) over the time [`model_pass`]
/// takes per token on one GPU of the t·cp group.
pub fn shape_rate(c: &Config) -> f64 {
    let tokens = (c.micro_batch * c.seq_len) as f64;
    let gpus = (c.layout.tp * c.layout.cp) as f64;
    crate::step::hardware_flops_per_token(c) * tokens / (model_pass(c) * gpus)
}

/// FlashAttention-2's forward-and-backward rate, causal, head dimension 128,
/// at sequence lengths 512 to 16k, TFLOP/s (its benchmark's count: causal
/// scores halved, the backward 2.5× the forward), with the GPU's best matmul
/// rate it is a share of: on an A100 80GB SXM4 99, 133, 155, 173, 182 and 189
/// against 267.9; on an H100 SXM5 163, 221, 265, 294, 308 and 328 against
/// 792.1 (Dao-AILab/flash-attention `assets/flash2_a100_fwd_bwd_benchmark.png`
/// and `flash2_h100_fwd_bwd_benchmark.png` @4f285b35, the bars' labels).
const FA2_A100: ([(f64, f64); 6], f64) =
    ([(512.0, 99.0), (1024.0, 133.0), (2048.0, 155.0), (4096.0, 173.0), (8192.0, 182.0), (16384.0, 189.0)], 267.9);
const FA2_H100: ([(f64, f64); 6], f64) =
    ([(512.0, 163.0), (1024.0, 221.0), (2048.0, 265.0), (4096.0, 294.0), (8192.0, 308.0), (16384.0, 328.0)], 792.1);

/// FlashAttention's forward-and-backward rate on `c`'s GPU at its sequence
/// length, FLOP/s: the measured share of the best matmul rate at that length
/// (interpolated in log s, held at the ends), on Hopper the H100's, elsewhere
/// the A100's (an assumption beyond those two GPUs), times the GPU's own best
/// matmul rate as it sustains it (the clock that slows the products slows the
/// attention's kernels alike).
pub fn attention_rate(c: &Config) -> f64 {
    let g = c.system.gpu;
    let (points, best) = if (90..100).contains(&g.sm) { FA2_H100 } else { FA2_A100 };
    let s = (c.seq_len as f64 / c.layout.cp as f64).max(1.0);
    let shares = points.map(|(length, rate)| (length.log2(), rate / best));
    crate::catalog::interpolate(&shares, s.log2()) * g.sustained_tflops() * 1e12
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NVIDIA's guide: on an A100 (108 SMs) with 256 × 128 tiles, a 1792 × 1792
    /// output is 7 × 14 = 98 tiles, one wave at 98/108 of the SMs; one tile
    /// more starts a second wave, nearly empty; a row of 257 pays two tiles.
    #[test]
    fn tile_and_wave_quantization() {
        let g = Gemm { rows: 1792.0, cols: 1792.0, inner: 4096.0 };
        assert!((g.efficiency(108.0) - 98.0 / 108.0).abs() < 1e-12);
        let wider = Gemm { cols: 1792.0 + 128.0, ..g };
        assert!((wider.efficiency(108.0) - 105.0 / 108.0).abs() < 1e-12);
        let two_waves = Gemm { rows: 256.0, cols: 128.0 * 109.0, inner: 4096.0 };
        assert!((two_waves.efficiency(108.0) - 109.0 / 216.0).abs() < 1e-12);
        let ragged = Gemm { rows: 257.0, cols: 128.0, inner: 4096.0 };
        let short = Gemm { rows: 100.0, cols: 128.0, inner: 4096.0 };
        assert!((short.efficiency(108.0) - 100.0 / 128.0 / 108.0).abs() < 1e-12);
        assert!((ragged.efficiency(108.0) - 257.0 / 512.0 * 2.0 / 108.0).abs() < 1e-12);
        // 98 heads of a batched product of one tile each: the same grid.
        let one = Gemm { rows: 256.0, cols: 128.0, inner: 64.0 };
        assert!((one.batched_efficiency(98.0, 108.0) - 98.0 / 108.0).abs() < 1e-12);
    }

    /// The backward's products: the input's gradient (rows × inner over cols)
    /// and the weights' (inner × cols over rows), each the forward's FLOPs.
    #[test]
    fn three_products_a_matrix() {
        let g = Gemm { rows: 8192.0, cols: 6144.0, inner: 4096.0 };
        let [f, d, w] = g.passes();
        assert_eq!((d.rows, d.cols, d.inner), (8192.0, 4096.0, 6144.0));
        assert_eq!((w.rows, w.cols, w.inner), (4096.0, 6144.0, 8192.0));
        assert!(f.flops() == d.flops() && d.flops() == w.flops());
        // A matrix-vector product is read, not computed: the roofline's memory side.
        let v = Gemm { rows: 1.0, cols: 4096.0, inner: 4096.0 };
        let t = v.seconds(132.0, 792e12, 3e12);
        assert_eq!(t, 2.0 * (4096.0 + 4096.0 * 4096.0 + 4096.0) / 3e12);
    }

    /// Llama 3 8B at s 8192 on an H100: the matrix products at the GPU's best
    /// rate give a pass close to 6·P·tokens/792 TFLOP/s; the shape's rate lies
    /// below the best matmul rate and above FlashAttention's.
    #[test]
    fn the_shape_rate_lies_between_its_kernels() {
        let c = crate::link::config("model=llama-3-8b&gpu=h100-80gb&convention=megatron&seq-len=8192").unwrap();
        let rate = shape_rate(&c);
        let best = c.system.gpu.sustained_tflops() * 1e12;
        assert!(rate < best && rate > attention_rate(&c), "{rate}");
        // FlashAttention-2 on an H100 at 8k: 308 TFLOP/s in a burst, 730/792.1 of it sustained.
        assert!((attention_rate(&c) / 1e12 - 308.0 * 730.0 / 792.1 / 792.1 * 792.1).abs() < 1e-9);
    }
}
