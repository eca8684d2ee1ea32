//! Post-training: DPO (Rafailov et al. 2023), PPO (Ouyang et al. 2022, as TRL
//! and OpenRLHF run it for language models) and GRPO (Shao et al. 2024,
//! DeepSeekMath §4.1), in the phases the frameworks run one after the other,
//! never at once: generating rollouts, then training on them. Each phase has
//! its own memory per GPU; the verdict is the heaviest's.
//!
//! - Generation (PPO, GRPO): `micro-batch` prompts, each with `rollouts`
//!   completions of `response-tokens` after `prompt-tokens`. The rollout engine
//!   is the training model's own `generate` (`trainer`: TRL without vLLM, its KV
//!   cache in the training process), a vLLM engine colocated on the training
//!   GPUs (`colocated`: TRL's `vllm_mode="colocate"`, verl's hybrid engine; it
//!   takes `rollout-mem-util` of each GPU whatever its KV cache needs, and
//!   sleeps while the policy trains: vLLM's sleep mode, verl's
//!   `free_cache_engine`), or vLLM on GPUs of its own (`separate`: OpenRLHF's
//!   default, TRL's server mode), sized as a serving replica.
//! - Training: the policy with its gradients and optimizer states on sequences
//!   of prompt + response tokens (DPO: each pair's chosen and rejected answers
//!   in one batch, TRL's `concatenated_forward`); the frozen reference (DPO, PPO,
//!   GRPO's KL term; under LoRA the base with the adapters switched off, which
//!   costs nothing) and the reward model's weights; PPO's value model trained
//!   beside the policy, in the same backward (TRL's `PolicyAndValueWrapper`).

use crate::config::Config;
use crate::memory::{MemoryBreakdown, Part};
use crate::units::Bytes;

choice!(
    /// The post-training algorithm (`post-training`).
    PostTraining {
        None = "none",
        /// Direct preference optimization: pairs, a frozen reference, no generation.
        Dpo = "dpo",
        /// PPO: generation, a reward model, a value model trained beside the policy, a reference.
        Ppo = "ppo",
        /// GRPO: groups of rollouts per prompt, no value model, a reference for the KL term.
        Grpo = "grpo",
    }
);

choice!(
    /// Where the rollouts are generated (`rollout`).
    RolloutEngine {
        /// A vLLM engine on the training GPUs, taking `rollout-mem-util` of each.
        Colocated = "colocated",
        /// vLLM on GPUs of its own, a serving replica of `serve-tp` × `serve-pp`.
        Separate = "separate",
        /// The training model's own `generate`, its KV cache in the training process.
        Trainer = "trainer",
    }
);

/// A post-training run's choices.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct PostConfig {
    pub method: PostTraining,
    /// Completions per prompt (GRPO's group, PPO's samples).
    pub rollouts: u64,
    /// Tokens each completion generates.
    pub response_tokens: u64,
    /// The reward model's parameters (0: a rule, no model).
    pub reward_params: f64,
    /// PPO's value model's parameters.
    pub critic_params: f64,
    pub engine: RolloutEngine,
    /// The colocated engine's share of each GPU (vLLM's `gpu_memory_utilization`).
    pub engine_mem_util: f64,
}

impl PostConfig {
    pub fn is_on(&self) -> bool {
        self.method != PostTraining::None
    }
    /// Whether a rollout phase comes before training.
    pub fn generates(&self) -> bool {
        matches!(self.method, PostTraining::Ppo | PostTraining::Grpo)
    }
}

/// One phase and its memory per GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Phase {
    pub name: &'static str,
    pub per_gpu: MemoryBreakdown,
}

/// The training phase's configuration: PPO and GRPO train on prompt + response
/// tokens; DPO's batch holds each pair's two answers.
pub fn training_config(c: &Config) -> std::borrow::Cow<'_, Config> {
    let p = c.post;
    match p.method {
        PostTraining::None => std::borrow::Cow::Borrowed(c),
        PostTraining::Dpo => std::borrow::Cow::Owned(Config { micro_batch: 2 * c.micro_batch, ..c.clone() }),
        PostTraining::Ppo | PostTraining::Grpo => {
            let seq_len = c.serving.prompt_tokens + p.response_tokens;
            std::borrow::Cow::Owned(Config { seq_len, ..c.clone() })
        }
    }
}

/// The frozen models' weights before any sharding, bytes: the reference policy
/// in 16 bits (DPO, PPO, GRPO; none under LoRA: the adapters switched off) and
/// the reward model's (PPO, GRPO with one).
pub fn frozen_bytes(c: &Config) -> f64 {
    let p = c.post;
    if !p.is_on() {
        return 0.0;
    }
    let reference = if c.finetune.is_adapter() { 0.0 } else { 2.0 * c.params.get() };
    let reward = if p.method == PostTraining::Dpo { 0.0 } else { 2.0 * p.reward_params };
    reference + reward
}

/// PPO's value model relative to the policy: it trains the same way beside it
/// (its states and activations scale with its parameters). 0 otherwise.
pub fn critic_share(c: &Config) -> f64 {
    if c.post.method == PostTraining::Ppo {
        c.post.critic_params / c.params.get().max(1.0)
    } else {
        0.0
    }
}

/// The sequences a generation phase holds at once on one GPU: `micro-batch`
/// prompts × `rollouts` completions.
pub fn generated_sequences(c: &Config) -> f64 {
    (c.micro_batch * c.post.rollouts) as f64
}

/// The phases of `c` given its training phase's memory per GPU (none without post-training).
pub fn phases(c: &Config, training: MemoryBreakdown) -> Vec<Phase> {
    let p = c.post;
    if !p.is_on() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if p.generates() {
        let tokens = (c.serving.prompt_tokens + p.response_tokens) as f64;
        let mut g = MemoryBreakdown::default();
        let resident = [Part::Model, Part::Gradients, Part::Optimizer, Part::Frozen, Part::Buffers];
        let rollout = match p.engine {
            RolloutEngine::Colocated => {
                for part in resident {
                    g[part] = training[part];
                }
                p.engine_mem_util * crate::serving::memory::engine_total_bytes(c)
            }
            RolloutEngine::Trainer => {
                for part in resident {
                    g[part] = training[part];
                }
                // The policy's own cache in 16 bits, every layer on this GPU's share (÷ t).
                let per_token = crate::memory::kv_bytes_per_token(c) / c.layout.tp as f64;
                generated_sequences(c) * tokens * per_token
            }
            RolloutEngine::Separate => {
                // A GPU of the engine: the policy's weights split over its replica, and the cache.
                let s = crate::serving::memory::weight_bytes_per_gpu(c);
                g[Part::Model] = Bytes(s).whole();
                generated_sequences(c) * crate::serving::memory::kv_bytes_per_request_per_gpu(c, tokens)
            }
        };
        g[Part::Rollout] = Bytes(rollout).whole();
        g[Part::Reserve] = Bytes(c.system.reserve_bytes).whole();
        out.push(Phase { name: "generation", per_gpu: g });
    }
    out.push(Phase { name: "training", per_gpu: training });
    out
}
