//! Issue 25: a Megatron-LM launch read into the calculator's keys, on five
//! real argument lists of Megatron-LM's functional tests (`tests/fixtures/`):
//! a GPT with an interleaved pipeline, Mixtral 8x7B, a GPT with latent
//! attention, the DeepSeek-V3 proxy, and an FP8 run as a launch script.

use tmath::evaluate;
use tmath::megatron::{read, ArgsError};
use tmath::memory::Part;
use tmath::settings::Settings;

/// Settings with more keys set (a test's shorthand).
trait With {
    fn with(self, pairs: &[(&str, &str)]) -> Self;
}

impl With for Settings {
    fn with(mut self, pairs: &[(&str, &str)]) -> Self {
        for (k, v) in pairs {
            self.set(k, v).unwrap();
        }
        self
    }
}

/// The settings a launch gives, and the flags it did not read or read as without effect.
fn load(text: &str) -> (Settings, Vec<(&'static str, String)>, Vec<String>) {
    let (s, pairs, unused, _) = load_all(text);
    (s, pairs, unused)
}

#[allow(clippy::type_complexity)]
fn load_all(text: &str) -> (Settings, Vec<(&'static str, String)>, Vec<String>, Vec<String>) {
    let m = read(text).expect("a launch");
    let mut s = Settings::default();
    for (k, v, _) in &m.pairs {
        s.set(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    (s, m.pairs.iter().map(|(k, v, _)| (*k, v.clone())).collect(), m.unused, m.no_effect)
}

fn value(pairs: &[(&'static str, String)], key: &str) -> String {
    pairs.iter().rev().find(|(k, _)| *k == key).map(|(_, v)| v.clone()).unwrap_or_else(|| panic!("no {key}"))
}

#[test]
fn an_interleaved_gpt() {
    let (s, pairs, unused, no_effect) = load_all(include_str!("fixtures/megatron-gpt-pp4-vp1.yaml"));
    let c = s.resolve().unwrap();
    assert_eq!((c.arch.layers, c.arch.hidden, c.arch.heads, c.arch.kv_heads, c.arch.ffn), (12, 512, 8, 8, 2048));
    // One layer per virtual stage on 4 stages: 3 virtual stages per rank.
    assert_eq!((c.layout.pp, c.layout.vpp), (4, 3));
    assert_eq!((c.seq_len, c.micro_batch), (1024, 4));
    assert_eq!(value(&pairs, "attention"), "standard");
    assert_eq!(value(&pairs, "convention"), "megatron");
    assert!(c.arch.tie_embeddings);
    for flag in ["--lr", "--deterministic-mode", "--log-memory-to-tensorboard", "--vocab-file"] {
        assert!(no_effect.contains(&flag.to_string()), "{flag} in {no_effect:?}");
    }
    // ENV_VARS are not flags. The global batch is the step's: 32 sequences of 4, on one
    // data-parallel rank (a model_config.yaml names no cluster) m = 8; 50 iterations of
    // 32 sequences of 1024 tokens are the tokens.
    assert!(!unused.iter().chain(&no_effect).any(|u| u.contains("CUBLAS")));
    assert!(!unused.contains(&"--global-batch-size".to_string()) && !unused.contains(&"--train-iters".to_string()));
    assert_eq!((c.global_batch, c.grad_accum), (32, 8));
    assert_eq!(c.tokens.get(), 50.0 * 32.0 * 1024.0);
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
    assert!(!unused.contains(&"--tokenizer-type".to_string()), "no effect, not 'not read'");
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
    let (_, _, _, no_effect) = load_all(include_str!("fixtures/megatron-deepseek-v3-proxy.yaml"));
    assert!(no_effect.contains(&"--auto-detect-ckpt-format".to_string()));
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
    // Transformer Engine's tensor-parallel overlap is read too (its workspaces, its hidden collectives).
    assert!(c.tp_comm_overlap);
    for flag in ["--fp8-format", "--fp8-recipe", "--fp8-param-gather", "--tp-comm-overlap"] {
        assert!(!unused.contains(&flag.to_string()), "{flag}");
    }
    assert!(unused.contains(&"--normalization".to_string()));
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

/// Issue 41: "a launch script with `torchrun --nproc_per_node 8 --nnodes 8` (or
/// `GPUS_PER_NODE`/`NNODES` variables, `srun`/`mpirun` counts) imports as N =
/// t·p = 16, d = 1", and the global batch, `--recompute-activations` and
/// `--train-iters` were called "not used". Megatron-LM's own example launch
/// (examples/gpt3/train_gpt3_175b_distributed.sh) writes the cluster so.
#[test]
fn the_cluster_batch_recomputation_and_tokens_of_a_launch_script() {
    let script = r#"#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
GPUS_PER_NODE=8
NUM_NODES=${NUM_NODES:-8}
WORLD_SIZE=$(($GPUS_PER_NODE*$NUM_NODES))
DISTRIBUTED_ARGS=(
    --nproc_per_node $GPUS_PER_NODE
    --nnodes $NUM_NODES
    --master_addr $MASTER_ADDR
)
GPT_MODEL_ARGS=(
    --num-layers 80 --hidden-size 8192 --num-attention-heads 64
    --group-query-attention --num-query-groups 8 --ffn-hidden-size 28672 --swiglu
    --seq-length 8192 --max-position-embeddings 8192
)
TRAINING_ARGS=(
    --micro-batch-size 1
    --global-batch-size 512
    --train-iters 1000
    --recompute-activations
    --lr 1.5e-4 --bf16 --use-distributed-optimizer
)
MODEL_PARALLEL_ARGS=(
    --tensor-model-parallel-size 4
    --pipeline-model-parallel-size 4
)
torchrun ${DISTRIBUTED_ARGS[@]} pretrain_gpt.py ${GPT_MODEL_ARGS[@]} ${TRAINING_ARGS[@]} ${MODEL_PARALLEL_ARGS[@]}
"#;
    let (s, pairs, unused, no_effect) = load_all(script);
    let c = s.resolve().unwrap();
    // 8 × 8 = 64 GPUs, t·p = 16: d = 4; m = 512/(1·4) = 128.
    assert_eq!((c.layout.gpus(), c.layout.tp, c.layout.pp, c.layout.dp), (64, 4, 4, 4));
    assert_eq!((c.global_batch, c.grad_accum), (512, 128));
    assert_eq!(value(&pairs, "gpus"), "64");
    // arguments.py: --recompute-activations is selective recomputation.
    assert_eq!(c.recompute, tmath::config::Recompute::Selective);
    // 1000 iterations × 512 sequences × 8192 tokens.
    assert_eq!(c.tokens.get(), 1000.0 * 512.0 * 8192.0);
    for flag in ["--global-batch-size", "--recompute-activations", "--train-iters", "--nproc_per_node", "--nnodes"] {
        assert!(!unused.contains(&flag.to_string()) && !no_effect.contains(&flag.to_string()), "{flag}");
    }
    assert!(no_effect.contains(&"--lr".to_string()) && no_effect.contains(&"--master_addr".to_string()));
    // The global batch moves the activations: the first stage holds p = 4 micro-batches, not one.
    let one = evaluate(&s.clone().with(&[("grad-accum", "1")]).resolve().unwrap());
    let real = evaluate(&c);
    assert!(real.per_gpu[Part::Activations].get() > 3.9 * one.per_gpu[Part::Activations].get());
}

/// The other launchers' counts, and Megatron-LM's default global batch (b·d: m = 1).
#[test]
fn slurm_mpi_and_world_size_counts() {
    let shape = "--num-layers 32 --hidden-size 4096 --num-attention-heads 32 --tensor-model-parallel-size 8";
    let gpus = |launch: &str| {
        let (s, ..) = load_all(&format!("{launch}\n{shape}"));
        (s.resolve().unwrap().layout.gpus(), s.resolve().unwrap().grad_accum)
    };
    // Slurm: #SBATCH's nodes × tasks per node, srun's own counts, and the variables Slurm sets.
    assert_eq!(gpus("#SBATCH --nodes=4\n#SBATCH --ntasks-per-node=8\nsrun python pretrain_gpt.py"), (32, 1));
    assert_eq!(gpus("srun -N 2 --gpus-per-node 8 python pretrain_gpt.py"), (16, 1));
    assert_eq!(gpus("srun --ntasks=128 python pretrain_gpt.py"), (128, 1));
    assert_eq!(gpus("#SBATCH -N 16\ntorchrun --nproc-per-node=8 --nnodes=$SLURM_NNODES pretrain_gpt.py"), (128, 1));
    // MPI and a bare WORLD_SIZE.
    assert_eq!(gpus("mpirun -np 64 python pretrain_gpt.py"), (64, 1));
    assert_eq!(gpus("NODES=3\nexport WORLD_SIZE=$(( NODES * 8 ))"), (24, 1));
    // An elastic torchrun range takes its largest count.
    assert_eq!(gpus("torchrun --nproc_per_node 8 --nnodes 1:2 pretrain_gpt.py"), (16, 1));
    // Nothing says the cluster: t·p GPUs, as before.
    assert_eq!(gpus("python pretrain_gpt.py"), (8, 1));
}

/// Flags are named as what they are: an effect not modelled is "not read", never "no effect".
#[test]
fn flags_with_an_effect_are_never_called_without_one() {
    let (_, _, unused, no_effect) = load_all(
        "--num-layers 2 --hidden-size 512 --num-attention-heads 8 --position-embedding-type learned_absolute \
         --hidden-dropout 0.1 --overlap-grad-reduce --lr 1e-4 --seed 1234 --log-interval 10",
    );
    for flag in ["--position-embedding-type", "--hidden-dropout", "--overlap-grad-reduce"] {
        assert!(unused.contains(&flag.to_string()) && !no_effect.contains(&flag.to_string()), "{flag}");
    }
    for flag in ["--lr", "--seed", "--log-interval"] {
        assert!(no_effect.contains(&flag.to_string()), "{flag}");
    }
    // Megatron-LM's optimizers and the distributed optimizer's CPU offload are keys.
    let (s, ..) = load_all("--num-layers 2 --hidden-size 512 --num-attention-heads 8 --optimizer sgd");
    assert_eq!(s.optimizer, tmath::config::Optimizer::SgdMomentum);
    let (s, ..) = load_all("--num-layers 2 --hidden-size 512 --num-attention-heads 8 --optimizer-cpu-offload");
    assert_eq!(s.offload, tmath::config::Offload::Optimizer);
    // --train-samples: samples × s tokens.
    let (s, ..) =
        load_all("--num-layers 2 --hidden-size 512 --num-attention-heads 8 --seq-length 4096 --train-samples 1000");
    assert_eq!(s.tokens, 4096.0 * 1000.0);
}
