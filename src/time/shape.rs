//! Time that follows the shape (issue 39): one micro-batch's pass through the
//! model, kernel by kernel, at rates the GPU's datasheet and published
//! measurements give, with nothing taken from a validation row.
//!
//! - Every matrix product of a layer (and the output layer) runs at the GPU's
//!   maximum achievable matmul rate ([`crate::catalog::Gpu::matmul`], the best
//!   shape's) times its tile and wave quantization: the output is cut into
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
use crate::serving::formats::{tensors, Role};

/// The output tile of one thread block: 256 rows by 128 columns, the tile of
/// the guide's examples on the A100 (and cuBLAS's largest for BF16).
pub const TILE: (f64, f64) = (256.0, 128.0);

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
        let (tr, tc) = TILE;
        let (r, c) = ((self.rows / tr).ceil(), (self.cols / tc).ceil());
        let tiles = r * c;
        if tiles <= 0.0 || sms <= 0.0 {
            return 1.0;
        }
        let waves = (tiles / sms).ceil();
        let tile = self.rows * self.cols / (tiles * tr * tc);
        tile * tiles / (waves * sms)
    }

    /// Seconds on a GPU of `sms` SMs at `rate` FLOP/s (the best shape's) and
    /// `bandwidth` bytes/s, operands and output in 2 bytes: the longer of the
    /// arithmetic at the quantized rate and the bytes at the bandwidth.
    pub fn seconds(self, sms: f64, rate: f64, bandwidth: f64) -> f64 {
        let bytes = 2.0 * (self.rows * self.inner + self.inner * self.cols + self.rows * self.cols);
        (self.flops() / (rate * self.efficiency(sms))).max(bytes / bandwidth)
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
    for x in tensors(&a).into_iter().filter(|x| x.layer == layer) {
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
/// one micro-batch on one rank: FlashAttention's own count, 4·a·d per
/// query–key pair forward (causal: the pairs of [`crate::arch::Architecture::causal_pairs`]),
/// 2.5× that backward, once more forward under full recomputation; this
/// rank's heads and share of the sequence.
pub fn attention_pass(c: &Config) -> Pass {
    let a = c.arch;
    let s = c.seq_len as f64;
    let forward = 4.0 * c.micro_batch as f64 * a.causal_pairs(s) * a.attention_width() / (c.layout.tp * c.layout.cp) as f64;
    let passes = if c.recompute == Recompute::Full { 4.5 } else { 3.5 };
    Pass { attention: a.attention_layers() as f64 * passes * forward / attention_rate(c), ..Pass::default() }
}

/// The GPU's SMs, its best matmul rate (FLOP/s) and its achieved bandwidth (bytes/s).
fn rates(c: &Config) -> (f64, f64, f64) {
    let g = c.system.gpu;
    (g.sms as f64, g.matmul_tflops() * 1e12, g.achieved_hbm_gbs() * 1e9)
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

/// FlashAttention's forward-and-backward rate on `c`'s GPU, FLOP/s, counted as
/// its benchmark counts them (causal: half the scores).
pub fn attention_rate(c: &Config) -> f64 {
    c.system.gpu.attention_tflops * 1e12
}
