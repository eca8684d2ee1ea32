//! The model's shape: the article's L, h, a, V and today's refinements (GQA,
//! the MLP's form, experts, latent attention, MTP), and the exact parameter
//! counts every formula and the catalogue read. It depends on nothing but the
//! units: the catalogue's models are built from it, and the configuration
//! holds one.

use crate::units::Params;
use serde::Serialize;

choice!(
    /// The MLP block's form (practice beyond the article).
    Mlp {
        /// Two h×f matrices (GPT, the article's 8h² with f = 4h).
        Gelu = "gelu",
        /// Three h×f matrices: gate, up and down (Llama, Mistral, Qwen).
        Swiglu = "swiglu",
    }
);

choice!(
    /// The type a linear-attention or state-space layer keeps its recurrent
    /// state in (vLLM's `--mamba-ssm-cache-dtype`; Qwen3.5's config.json
    /// `mamba_ssm_dtype`: float32; Qwen3-Next and Jamba: the model's 16 bits).
    StateDtype {
        Fp32 = "fp32",
        Bf16 = "bf16",
        Fp16 = "fp16",
    }
);

impl StateDtype {
    /// Bytes per value of the state.
    pub fn bytes(self) -> f64 {
        match self {
            StateDtype::Fp32 => 4.0,
            StateDtype::Bf16 | StateDtype::Fp16 => 2.0,
        }
    }
}

/// Transformer shape: the article's L, h, a, V, and the refinements of today's
/// models (GQA, the MLP's width and form, untied embeddings, experts). The
/// article's formulas read only L, h, a, V; the exact parameter count reads all.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Architecture {
    pub layers: u64,
    pub hidden: u64,
    pub heads: u64,
    pub vocab: u64,
    /// Key/value heads (GQA, MQA); = heads in the article's shape.
    pub kv_heads: u64,
    /// The attention heads' dimension d_head (0: h/a, the article's; Qwen3: 128 at h/a = 64).
    pub head_dim: u64,
    /// The MLP's inner size f (4h in the article's shape).
    pub ffn: u64,
    pub mlp: Mlp,
    /// One V×h matrix for input and output.
    pub tie_embeddings: bool,
    /// Experts per MoE layer (1: dense), experts per token, always-on experts.
    pub experts: u64,
    pub top_k: u64,
    pub shared_experts: u64,
    /// Inner size of one expert.
    pub moe_ffn: u64,
    /// MoE models whose first k layers are dense (DeepSeek: 3), with the MLP of `ffn`.
    pub dense_layers: u64,
    /// Multi-token prediction modules (DeepSeek-V3 §2.2: 1), each a projection
    /// of 2h to h, three norms and one transformer layer of the model's last
    /// kind, sharing the embedding and the output head.
    pub mtp_layers: u64,
    /// Multi-head latent attention (DeepSeek-V2/V3): the compressed KV's rank
    /// (0: none), the query's (0: a full query projection), and the head
    /// dimensions of the query/key's plain and rotary parts and of the value.
    pub mla: Mla,
    /// Sliding-window attention: a sliding layer attends to (and caches) at most
    /// the last W tokens (0: every layer attends to the whole context).
    pub sliding_window: u64,
    /// With a window, every k-th layer attends globally (Gemma 3: 6, five sliding
    /// layers then one global; gpt-oss: 2, alternating); 0: every layer slides (Mistral 7B v0.1).
    pub global_every: u64,
    /// Hybrid models: every k-th layer attends and keeps a KV cache, the others
    /// are linear-attention or state-space layers that keep a fixed state per
    /// sequence instead (Qwen3-Next and Qwen3.5: 4, three Gated DeltaNet layers
    /// to one of attention; Jamba: 8, Mamba layers); 0: every layer attends.
    pub attention_every: u64,
    /// A linear layer's recurrent state per sequence, in values: Gated DeltaNet's
    /// value heads × key dim × value dim (Yang et al. 2024, "Gated Delta
    /// Networks", §3: one d_k × d_v matrix per head; vLLM's
    /// `gated_delta_net_state_shape`), Mamba's d_inner × d_state (Gu & Dao 2023, §3.2).
    pub linear_state: u64,
    /// Its short causal convolution's state per sequence, in values: (kernel − 1)
    /// × the convolved width (Gated DeltaNet: 2·H_k·d_k + H_v·d_v, q, k and v;
    /// Mamba: d_inner), kept in the activations' 16 bits.
    pub linear_conv: u64,
    /// The type of the recurrent state.
    pub state_dtype: StateDtype,
}

/// Multi-head latent attention's shape (DeepSeek-AI 2024, DeepSeek-V2 §2.1):
/// keys and values come from one latent of `kv_lora_rank` plus a shared
/// rotary key of `qk_rope_head_dim`, which is all the KV cache keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Mla {
    pub kv_lora_rank: u64,
    pub q_lora_rank: u64,
    pub qk_head_dim: u64,
    pub qk_rope_head_dim: u64,
    pub v_head_dim: u64,
}

impl Mla {
    pub fn is_on(self) -> bool {
        self.kv_lora_rank > 0
    }
}

impl Architecture {
    /// The article's shape for L, h, a, V: multi-head attention, a GELU MLP of
    /// 4h, tied embeddings, no experts.
    pub const fn gpt(layers: u64, hidden: u64, heads: u64, vocab: u64) -> Architecture {
        Architecture {
            layers,
            hidden,
            heads,
            vocab,
            kv_heads: heads,
            head_dim: 0,
            ffn: 4 * hidden,
            mlp: Mlp::Gelu,
            tie_embeddings: true,
            experts: 1,
            top_k: 1,
            shared_experts: 0,
            moe_ffn: 4 * hidden,
            dense_layers: 0,
            mtp_layers: 0,
            mla: Mla { kv_lora_rank: 0, q_lora_rank: 0, qk_head_dim: 0, qk_rope_head_dim: 0, v_head_dim: 0 },
            sliding_window: 0,
            global_every: 0,
            attention_every: 0,
            linear_state: 0,
            linear_conv: 0,
            state_dtype: StateDtype::Bf16,
        }
    }

    /// A dense shape as model cards give it: L, h, (a, k), f, V, and the MLP's
    /// form with whether the embeddings are tied.
    pub const fn dense(
        layers: u64,
        hidden: u64,
        (heads, kv_heads): (u64, u64),
        ffn: u64,
        vocab: u64,
        (mlp, tie_embeddings): (Mlp, bool),
    ) -> Architecture {
        Architecture {
            kv_heads,
            ffn,
            mlp,
            tie_embeddings,
            moe_ffn: ffn,
            ..Architecture::gpt(layers, hidden, heads, vocab)
        }
    }

    /// Whether this is the article's shape for its L, h, a, V.
    pub fn is_gpt(self) -> bool {
        self == Architecture::gpt(self.layers, self.hidden, self.heads, self.vocab)
    }

    /// What every tensor-parallel degree must divide: the attention heads,
    /// and the key/value heads too (Megatron-LM splits both over the ranks:
    /// `num_query_groups % tensor_model_parallel_size == 0`, arguments.py);
    /// with latent attention every head has its keys, so the heads alone.
    pub fn tp_divides(self) -> u64 {
        if self.mla.is_on() {
            return self.heads;
        }
        let (mut a, mut b) = (self.heads, self.kv_heads.max(1));
        while b > 0 {
            (a, b) = (b, a % b);
        }
        a
    }

    /// Whether the MLP is a mixture of experts.
    pub fn is_moe(self) -> bool {
        self.experts > 1 || self.shared_experts > 0
    }

    /// P ≈ 12·L·h² + V·h (article convention: attention 4h², MLP 8h², embeddings).
    pub fn approx_params(self) -> Params {
        let (l, h, v) = (self.layers as f64, self.hidden as f64, self.vocab as f64);
        Params(12.0 * l * h * h + v * h)
    }

    /// The exact parameter count of this shape (no biases): per layer, attention
    /// 2h² + 2·h·k·(h/a), the MLP g·h·f (g = 3 for SwiGLU, else 2) or, with
    /// experts, g·h·f_e·(E + S) + h·E with the router, and 2h of norms; plus
    /// V·h of embeddings (2·V·h untied) and h for the final norm.
    pub fn exact_params(self) -> Params {
        self.count(self.experts)
    }

    /// Parameters a token passes through: the same with top-k experts of E.
    pub fn exact_active_params(self) -> Params {
        self.count(self.top_k.min(self.experts))
    }

    /// Parameters of the routed experts (their MLPs, not the router or shared experts).
    pub fn expert_params(self) -> Params {
        if !self.is_moe() {
            return Params(0.0);
        }
        Params(self.moe_layers() * self.mlp_matrices() * (self.hidden * self.moe_ffn) as f64 * self.experts as f64)
    }

    /// Layers with experts: all but the first `dense-layers` of a MoE model.
    pub fn moe_layers(self) -> f64 {
        if self.is_moe() {
            self.layers.saturating_sub(self.dense_layers) as f64
        } else {
            0.0
        }
    }

    /// One layer's attention weights. Standard and GQA: 2h² + 2·h·k·(h/a).
    /// MLA (DeepSeek-V2 §2.1; the `q_a_proj`, `q_b_proj`, `kv_a_proj_with_mqa`,
    /// `kv_b_proj` and `o_proj` of its released weights): the query h·r_q +
    /// r_q + r_q·a·(d + d_R) (h·a·(d + d_R) without a query latent), the keys
    /// and values h·(r_kv + d_R) + r_kv + r_kv·a·(d + d_v), the output a·d_v·h,
    /// with the latents' norms.
    pub fn attention_params(self) -> f64 {
        let (h, a) = (self.hidden as f64, self.heads as f64);
        if !self.mla.is_on() {
            // The query and output projections a·d_head wide, the keys and values k·d_head.
            let d = self.d_head();
            return 2.0 * h * a * d + 2.0 * h * self.kv_heads as f64 * d;
        }
        let m = self.mla;
        let (rq, rkv) = (m.q_lora_rank as f64, m.kv_lora_rank as f64);
        let (d, dr, dv) = (m.qk_head_dim as f64, m.qk_rope_head_dim as f64, m.v_head_dim as f64);
        let query = if rq > 0.0 { h * rq + rq + rq * a * (d + dr) } else { h * a * (d + dr) };
        query + h * (rkv + dr) + rkv + rkv * a * (d + dv) + a * dv * h
    }

    /// The attention heads' dimension: the given one, else h/a.
    pub fn d_head(self) -> f64 {
        if self.head_dim > 0 {
            self.head_dim as f64
        } else {
            self.hidden as f64 / self.heads.max(1) as f64
        }
    }

    /// The width the attention scores are computed over, a·d_head (h in the article's shape).
    pub fn attention_width(self) -> f64 {
        self.heads as f64 * self.d_head()
    }

    /// The embedding matrices: V·h, twice when untied.
    pub fn embedding_params(self) -> Params {
        let vh = (self.vocab * self.hidden) as f64;
        Params(if self.tie_embeddings { vh } else { 2.0 * vh })
    }

    /// The MLP's up-projection width over f: 2 for a gated MLP (gate and up), 1 otherwise.
    pub fn mlp_width_factor(self) -> f64 {
        self.mlp_matrices() - 1.0
    }

    fn mlp_matrices(self) -> f64 {
        match self.mlp {
            Mlp::Gelu => 2.0,
            Mlp::Swiglu => 3.0,
        }
    }

    fn count(self, experts_used: u64) -> Params {
        let (l, h, v) = (self.layers as f64, self.hidden as f64, self.vocab as f64);
        let g = self.mlp_matrices();
        let dense = g * h * self.ffn as f64;
        // MoE layers: the experts used and the shared ones, and the router; the first dense-layers are dense.
        let moe = g * h * self.moe_ffn as f64 * (experts_used + self.shared_experts) as f64 + h * self.experts as f64;
        let moe_layers = self.moe_layers();
        let mlp = moe_layers * moe + (l - moe_layers) * dense;
        let embeddings = if self.tie_embeddings { v * h } else { 2.0 * v * h };
        // An MTP module: its layer (of the last layer's kind), the 2h×h projection and three norms.
        let last_mlp = if moe_layers > 0.0 { moe } else { dense };
        let mtp = self.mtp_layers as f64 * (self.attention_params() + 2.0 * h + last_mlp + 2.0 * h * h + 3.0 * h);
        Params(l * (self.attention_params() + 2.0 * h) + mlp + embeddings + h + mtp)
    }

    /// One layer's parameters by kind: a dense layer, a MoE layer, and the
    /// routed experts within a MoE layer (0 without experts).
    pub fn layer_params(self) -> (f64, f64, f64) {
        let h = self.hidden as f64;
        let g = self.mlp_matrices();
        let common = self.attention_params() + 2.0 * h;
        let routed = if self.is_moe() { g * h * self.moe_ffn as f64 * self.experts as f64 } else { 0.0 };
        let shared = g * h * self.moe_ffn as f64 * self.shared_experts as f64 + h * self.experts as f64;
        (common + g * h * self.ffn as f64, common + routed + shared, routed)
    }

    /// Whether layer `index` (from 0) has experts: every layer of a MoE model after its `dense-layers`.
    pub fn is_moe_layer(self, index: u64) -> bool {
        self.is_moe() && index >= self.dense_layers
    }

    /// Parameters that are not hidden weight matrices: the embeddings (and
    /// the output layer) and the norms: 2h per layer, h final, and 5h per MTP
    /// module (its layer's two and its own three). Muon leaves them to AdamW.
    pub fn non_matrix_params(self) -> Params {
        let h = self.hidden as f64;
        Params(self.embedding_params().get() + h * (2.0 * self.layers as f64 + 1.0 + 5.0 * self.mtp_layers as f64))
    }

    /// The layers that attend and keep a KV cache: every layer, or in a hybrid
    /// model every `attention_every`-th (Qwen3-Next's `full_attention_interval`,
    /// layers k−1, 2k−1, …).
    pub fn attention_layers(self) -> u64 {
        self.layers.checked_div(self.attention_every).unwrap_or(self.layers)
    }

    /// The linear-attention or state-space layers of a hybrid model (0 otherwise).
    pub fn linear_layers(self) -> u64 {
        self.layers - self.attention_layers()
    }

    /// Bytes of one linear layer's state for one sequence: the recurrent state
    /// in its type, the convolution's in the activations' `conv_bytes`.
    pub fn linear_state_bytes(self, conv_bytes: f64) -> f64 {
        self.linear_state as f64 * self.state_dtype.bytes() + self.linear_conv as f64 * conv_bytes
    }

    /// The layers that attend to the whole context: every attending layer
    /// without a window; with one, every `global_every`-th (layers k−1, 2k−1,
    /// …, as Gemma 3's and gpt-oss's layer types place them), none when it is 0.
    pub fn global_layers(self) -> u64 {
        if self.sliding_window == 0 {
            self.attention_layers()
        } else {
            self.attention_layers().checked_div(self.global_every).unwrap_or(0)
        }
    }

    /// Tokens an attending layer holds and attends to, on average over those
    /// layers, when a sequence is `n` tokens long: n on a global layer, min(n,
    /// W) on a sliding one.
    pub fn attended_tokens(self, n: f64) -> f64 {
        let l = self.attention_layers().max(1) as f64;
        let g = self.global_layers() as f64;
        let w = self.sliding_window as f64;
        (g * n + (l - g) * n.min(w)) / l
    }

    /// Query–key pairs an attending layer computes over a prompt of `n` tokens,
    /// on average over those layers: n²/2 on a global layer, and on a sliding
    /// one n²/2 up to the window, then W per token (W·n − W²/2).
    pub fn causal_pairs(self, n: f64) -> f64 {
        let l = self.attention_layers().max(1) as f64;
        let g = self.global_layers() as f64;
        let w = self.sliding_window as f64;
        let sliding = if n <= w { n * n / 2.0 } else { w * n - w * w / 2.0 };
        (g * n * n / 2.0 + (l - g) * sliding) / l
    }

    /// Parameters of the MTP modules (0 without).
    pub fn mtp_params(self) -> Params {
        Params(self.exact_params().get() - Architecture { mtp_layers: 0, ..self }.exact_params().get())
    }
}
