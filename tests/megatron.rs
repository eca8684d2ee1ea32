//! Issue 25: a Megatron-LM launch read into the calculator's keys, on five
//! real argument lists of Megatron-LM's functional tests (`tests/fixtures/`):
//! a GPT with an interleaved pipeline, Mixtral 8x7B, a GPT with latent
//! attention, the DeepSeek-V3 proxy, and an FP8 run as a launch script.

use tmath::megatron::{read, ArgsError};
use tmath::settings::Settings;

/// The settings a launch gives, and the flags it did not use.
fn load(text: &str) -> (Settings, Vec<(&'static str, String)>, Vec<String>) {
    let m = read(text).expect("a launch");
    let mut s = Settings::default();
    for (k, v, _) in &m.pairs {
        s.set(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    (s, m.pairs.iter().map(|(k, v, _)| (*k, v.clone())).collect(), m.unused)
}

fn value(pairs: &[(&'static str, String)], key: &str) -> String {
    pairs.iter().rev().find(|(k, _)| *k == key).map(|(_, v)| v.clone()).unwrap_or_else(|| panic!("no {key}"))
}

#[test]
fn an_interleaved_gpt() {
    let (s, pairs, unused) = load(include_str!("fixtures/megatron-gpt-pp4-vp1.yaml"));
    let c = s.resolve().unwrap();
    assert_eq!((c.arch.layers, c.arch.hidden, c.arch.heads, c.arch.kv_heads, c.arch.ffn), (12, 512, 8, 8, 2048));
    // One layer per virtual stage on 4 stages: 3 virtual stages per rank.
    assert_eq!((c.layout.pp, c.layout.vpp), (4, 3));
    assert_eq!((c.seq_len, c.micro_batch), (1024, 4));
    assert_eq!(value(&pairs, "attention"), "standard");
    assert_eq!(value(&pairs, "convention"), "megatron");
    assert!(c.arch.tie_embeddings);
    for flag in ["--lr", "--train-iters", "--deterministic-mode", "--log-memory-to-tensorboard"] {
        assert!(unused.contains(&flag.to_string()), "{flag} in {unused:?}");
    }
    // ENV_VARS are not flags; the world size is not in a model_config.yaml, so neither is the step's m.
    assert!(!unused.iter().any(|u| u.contains("CUBLAS")));
    assert!(unused.contains(&"--global-batch-size".to_string()));
}

#[test]
fn mixtral_8x7b() {
    let (s, _, unused) = load(include_str!("fixtures/megatron-mixtral-8x7b.yaml"));
    let c = s.resolve().unwrap();
    let a = c.arch;
    assert_eq!((a.experts, a.top_k, a.kv_heads, a.moe_ffn, a.ffn), (8, 2, 8, 14336, 14336));
    assert!(!a.tie_embeddings && a.mlp == tmath::config::Mlp::Swiglu);
    assert_eq!((c.layout.tp, c.layout.pp, c.layout.ep, c.layout.vpp), (2, 4, 8, 8));
    assert!(c.sequence_parallel && c.zero.shards_optimizer());
    assert_eq!(c.attention, tmath::config::Attention::Flash);
    assert_eq!(c.layout.expert_tp(), 1);
    assert!(unused.contains(&"--tokenizer-type".to_string()));
}

#[test]
fn latent_attention() {
    let (s, _, _) = load(include_str!("fixtures/megatron-gpt-mla.yaml"));
    let c = s.resolve().unwrap();
    let m = c.arch.mla;
    assert_eq!((m.q_lora_rank, m.kv_lora_rank, m.qk_head_dim, m.qk_rope_head_dim, m.v_head_dim), (192, 64, 16, 8, 16));
    // The KV cache holds the latent and the rotary key: 4·(64 + 8) values per token.
    assert_eq!(tmath::memory::kv_bytes_per_token(&c), 4.0 * 72.0 * 2.0);
    assert!(!c.arch.tie_embeddings && c.sequence_parallel);
}

#[test]
fn the_deepseek_v3_proxy() {
    let (s, pairs, unused) = load(include_str!("fixtures/megatron-deepseek-v3-proxy.yaml"));
    let c = s.resolve().unwrap();
    let a = c.arch;
    // 14 layers, the first 3 dense; 64 routed experts and one shared of 2048, top-8.
    assert_eq!((a.layers, a.dense_layers, a.experts, a.shared_experts, a.top_k, a.moe_ffn), (14, 3, 64, 1, 8, 2048));
    assert_eq!((a.mla.kv_lora_rank, a.mla.q_lora_rank, a.mla.qk_rope_head_dim), (512, 1536, 64));
    assert_eq!((c.layout.tp, c.layout.pp, c.layout.ep), (2, 4, 16));
    assert_eq!(value(&pairs, "loss"), "fused");
    // P is the shape's count, 11 MoE layers of 65 experts' MLPs and 3 dense ones.
    assert_eq!(c.params.get(), a.exact_params().get());
    assert_eq!(a.mtp_layers, 1);
    // The layout `Et*2|(tt|)*5t|tmL`: 8 virtual stages on 4 ranks, so 2 chunks each; rank k holds
    // virtual stages k and k + 4, the last the MTP module and the loss.
    assert_eq!(value(&pairs, "pp-layout"), "Et*2|(tt|)*5t|tmL");
    assert_eq!(c.layout.vpp, 2);
    let stages: Vec<_> = tmath::memory::stages(&c).map(|s| (s.layers, s.first, s.mtp, s.last)).collect();
    assert_eq!(stages, [(4, true, 0, false), (4, false, 0, false), (3, false, 0, false), (3, false, 1, true)]);
    // kv-channels means nothing with MLA: it is named.
    assert!(unused.contains(&"--kv-channels".to_string()));
    assert!(!unused.contains(&"--pipeline-model-parallel-layout".to_string()));
    // A YAML switch whose value is on the next line is a switch, not a value.
    assert!(unused.contains(&"--auto-detect-ckpt-format".to_string()));
}

#[test]
fn an_fp8_launch_script() {
    let (s, _, unused) = load(include_str!("fixtures/megatron-gpt-fp8.sh"));
    let c = s.resolve().unwrap();
    // 8 GPUs, t·p = 2·2: d = 2; 128 sequences of 2 per rank: 32 micro-batches per step.
    assert_eq!((c.layout.gpus(), c.layout.dp, c.grad_accum), (8, 2, 32));
    // The vocabulary padded to 128·t = 256: 50257 → 50432.
    assert_eq!(c.arch.vocab, 50432);
    assert_eq!((c.recompute, c.recompute_every), (tmath::config::Recompute::Full, 2));
    assert_eq!(c.arch.ffn, 2048);
    // FP8: the recipe and the weights kept in FP8 alone; what has no effect here is named.
    assert_eq!((c.dtypes.fp8, c.dtypes.fp8_param_gather), (tmath::config::Fp8Recipe::Tensorwise, true));
    for flag in ["--fp8-format", "--fp8-recipe", "--fp8-param-gather"] {
        assert!(!unused.contains(&flag.to_string()), "{flag}");
    }
    for flag in ["--tp-comm-overlap", "--normalization"] {
        assert!(unused.contains(&flag.to_string()), "{flag}");
    }
    // Megatron-LM's default recipe is delayed scaling: one scale per tensor.
    let (s, _, _) = load("--num-layers 2 --hidden-size 512 --num-attention-heads 8 --fp8-format e4m3");
    assert_eq!(s.resolve().unwrap().dtypes.fp8, tmath::config::Fp8Recipe::Tensorwise);
}

#[test]
fn swiglu_width_and_bad_texts() {
    // arguments.py: SwiGLU without --ffn-hidden-size is ⌊(4h·2/3)/64⌋·64: 1344 for h 512.
    let (s, _, _) = load("--num-layers 2 --hidden-size 512 --num-attention-heads 8 --swiglu");
    assert_eq!(s.resolve().unwrap().arch.ffn, 1344);
    // --kv-channels is the heads' dimension: Qwen3's 128 at h/a = 64.
    let (s, _, unused) = load("--num-layers 2 --hidden-size 2048 --num-attention-heads 32 --kv-channels 128");
    assert_eq!(s.resolve().unwrap().arch.d_head(), 128.0);
    assert!(!unused.contains(&"--kv-channels".to_string()));
    assert_eq!(read("just words"), Err(ArgsError::NoFlags));
    assert_eq!(read("--lr 0.1 --bf16"), Err(ArgsError::NoShape));
}
