//! Links never break: every key and every choice value that exists, each in a
//! link with its result as recorded when it was written, and the links the
//! README and the presets give. A renamed key keeps its old spelling as an
//! alias (`tmath::keys::Key::aliases`), so these keep loading.

use tmath::keys::{Kind, KEYS};
use tmath::link::load;

/// (link, per-GPU total bytes, training FLOPs), recorded 2026-12-01. Two
/// re-recorded 2026-12-05 by design (issue 41): a pipeline link without
/// `grad-accum` takes m from the global batch (2,048 sequences), no longer m = 1,
/// so its first stage holds p micro-batches in flight instead of one.
#[rustfmt::skip]
const GOLDEN: &[(&str, f64, f64)] = &[
    ("model=custom", 142601641984.0, 1.26e22),
    ("model=gpt-3-175b", 3075414777856.0, 3.15e23),
    ("model=gpt-neox-20b", 406679836672.0, 3.6989999999999996e22),
    ("model=pythia-6.9b", 140318474240.0, 1.23431436288e22),
    ("model=llama-2-7b", 211967606784.0, 1.21291481088e22),
    ("model=llama-2-13b", 370992824320.0, 2.3428555776e22),
    ("model=llama-2-70b", 1624391155712.0, 1.241579667456e23),
    ("model=llama-3-8b", 508588785664.0, 1.44544702464e22),
    ("model=llama-3-70b", 3029382332416.0, 1.269966716928e23),
    ("model=llama-3-405b", 12480301760512.0, 7.3053609984e23),
    ("model=mistral-7b", 495972319232.0, 1.30351177728e22),
    ("model=deepseek-v3", 11452297887744.0, 6.75941087232e22),
    ("model=megatron-22b", 436959821824.0, 3.96e22),
    ("model=megatron-175b", 3075414777856.0, 3.15e23),
    ("model=megatron-530b", 8911593881600.0, 9.54e23),
    ("model=megatron-1t", 16657666867200.0, 1.8000000000000002e24),
    ("precision=fp32", 142601641984.0, 1.26e22),
    ("precision=fp16", 114601641984.0, 1.26e22),
    ("precision=bf16", 114601641984.0, 1.26e22),
    ("precision=mixed", 142601641984.0, 1.26e22),
    ("grad-dtype=auto", 142601641984.0, 1.26e22),
    ("grad-dtype=fp32", 156601641984.0, 1.26e22),
    ("grad-dtype=fp16", 142601641984.0, 1.26e22),
    ("optimizer=adamw", 142601641984.0, 1.26e22),
    ("optimizer=adam-8bit", 100601641984.0, 1.26e22),
    ("optimizer=sgd-momentum", 114601641984.0, 1.26e22),
    ("optimizer=sgd", 86601641984.0, 1.26e22),
    ("recompute=none", 142601641984.0, 1.26e22),
    ("recompute=selective", 121126805504.0, 1.29221225472e22),
    ("recompute=full", 112536870912.0, 1.68e22),
    ("offload=none", 142601641984.0, 1.26e22),
    ("offload=optimizer", 58601641984.0, 1.26e22),
    ("gpu=a100-80gb", 142601641984.0, 1.26e22),
    ("gpu=a100-40gb", 142601641984.0, 1.26e22),
    ("gpu=h100-80gb", 142601641984.0, 1.26e22),
    ("gpu=h100-pcie", 142601641984.0, 1.26e22),
    ("gpu=h200", 142601641984.0, 1.26e22),
    ("gpu=h800", 142601641984.0, 1.26e22),
    ("gpu=b200", 142601641984.0, 1.26e22),
    ("gpu=mi300x", 142601641984.0, 1.26e22),
    ("gpu=mi325x", 142601641984.0, 1.26e22),
    ("gpu=l40s", 142601641984.0, 1.26e22),
    ("gpu=rtx-4090", 142601641984.0, 1.26e22),
    ("gpu=v100-32gb", 142601641984.0, 1.26e22),
    ("inference-dtype=fp32", 142601641984.0, 1.26e22),
    ("inference-dtype=fp16", 142601641984.0, 1.26e22),
    ("inference-dtype=bf16", 142601641984.0, 1.26e22),
    ("inference-dtype=int8", 142601641984.0, 1.26e22),
    ("inference-dtype=int4", 142601641984.0, 1.26e22),
    // Issue 36: serving's keys leave training as it is.
    ("inference-dtype=fp8", 142601641984.0, 1.26e22),
    // Issue 37: quantized files' formats leave training as it is.
    ("inference-dtype=gptq-int4", 142601641984.0, 1.26e22),
    ("inference-dtype=awq-int4", 142601641984.0, 1.26e22),
    ("inference-dtype=nvfp4", 142601641984.0, 1.26e22),
    ("inference-dtype=mxfp4", 142601641984.0, 1.26e22),
    ("inference-dtype=q8_0", 142601641984.0, 1.26e22),
    ("inference-dtype=q6_k", 142601641984.0, 1.26e22),
    ("inference-dtype=q5_k_m", 142601641984.0, 1.26e22),
    ("inference-dtype=q4_k_m", 142601641984.0, 1.26e22),
    ("inference-dtype=q4_0", 142601641984.0, 1.26e22),
    ("inference-dtype=q3_k_m", 142601641984.0, 1.26e22),
    // Sliding windows change serving's cache, not training's memory here.
    ("sliding-window=4096", 142601641984.0, 1.26e22),
    ("sliding-window=1024&global-every=6", 142601641984.0, 1.26e22),
    // Hybrid linear layers (issue 37) change serving's cache and state, not training's memory here.
    ("attention-every=4&linear-state=786432&linear-conv=30720&state-dtype=fp32", 142601641984.0, 1.26e22),
    ("state-dtype=bf16", 142601641984.0, 1.26e22),
    // Issue 38: fine-tuning. LoRA's model states are the adapters' (41.9M here at r 16 on
    // every linear layer), the frozen base in its storage; C = 4PD + 6TD.
    // Issue 38: post-training's phases; the verdict (per_gpu) is the heaviest phase's. DPO doubles
    // the batch (each pair's two answers) beside a 16-bit reference; PPO trains a value model of P too.
    ("post-training=none", 142601641984.0, 1.26e22),
    ("post-training=dpo", 187203283968.0, 1.26e22),
    ("post-training=ppo", 299203283968.0, 1.26e22),
    ("post-training=grpo", 156601641984.0, 1.26e22),
    ("post-training=grpo&rollouts=4", 156601641984.0, 1.26e22),
    ("post-training=grpo&response-tokens=512", 151769803776.0, 1.26e22),
    ("post-training=grpo&reward-params=1e9", 158601641984.0, 1.26e22),
    ("post-training=ppo&critic-params=3e9", 217716631406.0, 1.26e22),
    ("post-training=grpo&rollout=colocated", 156601641984.0, 1.26e22),
    ("post-training=grpo&rollout=separate", 156601641984.0, 1.26e22),
    ("post-training=grpo&rollout=trainer", 156601641984.0, 1.26e22),
    ("post-training=grpo&rollout-mem-util=0.5", 168949672960.0, 1.26e22),
    ("finetune=lora&post-training=grpo", 45218204672.0, 8.4679477248e21),
    ("kernels=fused", 142601641984.0, 1.26e22),
    // PyTorch's eager SwiGLU and RMSNorms keep more: 4 bytes per s·b·h and layer for the norms here (GeLU).
    ("kernels=eager", 143675383808.0, 1.26e22),
    ("finetune=full", 142601641984.0, 1.26e22),
    ("finetune=lora", 45218204672.0, 8.4679477248e21),
    ("finetune=qlora", 35171067337.0, 8.4679477248e21),
    ("finetune=lora&lora-rank=64", 47067892736.0, 8.6717908992e21),
    ("finetune=lora&lora-targets=qv", 41518828544.0, 8.4150994944e21),
    ("finetune=lora&lora-targets=attention", 42194111488.0, 8.4301989888e21),
    ("finetune=lora&lora-targets=all-linear", 45218204672.0, 8.4679477248e21),
    ("finetune=lora&lora-dropout=0.05", 48707865600.0, 8.4679477248e21),
    ("finetune=lora&base-dtype=fp32", 59218204672.0, 8.4679477248e21),
    ("finetune=lora&base-dtype=bf16", 45218204672.0, 8.4679477248e21),
    ("finetune=lora&base-dtype=fp16", 45218204672.0, 8.4679477248e21),
    ("finetune=lora&base-dtype=int8", 38492275939.0, 8.4679477248e21),
    ("finetune=qlora&base-dtype=nf4", 35171067337.0, 8.4679477248e21),
    ("finetune=lora&train-embeddings=1", 47053212672.0, 8.5465909248e21),

    ("state-dtype=fp16", 142601641984.0, 1.26e22),
    ("serve-tp=2&serve-pp=2", 142601641984.0, 1.26e22),
    ("prompt-tokens=4096&output-tokens=512", 142601641984.0, 1.26e22),
    ("mem-util=0.95&hbm-gbs=2000&serve-tflops=500", 142601641984.0, 1.26e22),
    ("host-ms=1", 142601641984.0, 1.26e22),
    ("convention=article", 142601641984.0, 1.26e22),
    // Flash attention by default under megatron since issue 16: 156601641984 before, kept with attention=standard.
    ("convention=megatron", 143849025638.0, 1.35663676416e22),
    ("attention=standard&convention=megatron", 166397603942.0, 1.35663676416e22),
    ("attention=flash", 121126805504.0, 1.26e22),
    ("lang=ko", 142601641984.0, 1.26e22),
    ("lang=en", 142601641984.0, 1.26e22),
    ("units=gb", 142601641984.0, 1.26e22),
    ("units=gib", 142601641984.0, 1.26e22),
    ("view=compute", 142601641984.0, 1.26e22),
    ("view=chinchilla", 142601641984.0, 1.26e22),
    ("view=inference", 142601641984.0, 1.26e22),
    ("view=model-states", 142601641984.0, 1.26e22),
    ("view=activations", 142601641984.0, 1.26e22),
    ("view=memory", 142601641984.0, 1.26e22),
    ("view=zero", 142601641984.0, 1.26e22),
    ("view=finetune", 142601641984.0, 1.26e22),
    ("view=3d", 142601641984.0, 1.26e22),
    ("view=planner", 142601641984.0, 1.26e22),
    ("view=sweeps", 142601641984.0, 1.26e22),
    ("view=fp", 142601641984.0, 1.26e22),
    ("deck=7b", 142601641984.0, 1.26e22),
    ("deck=activations-7b", 142601641984.0, 1.26e22),
    ("deck=zero-paper", 142601641984.0, 1.26e22),
    ("deck=gpt-3", 142601641984.0, 1.26e22),
    ("deck=70b-fsdp", 142601641984.0, 1.26e22),
    ("deck=70b-8", 142601641984.0, 1.26e22),
    ("deck=70b-16", 142601641984.0, 1.26e22),
    ("deck=405b", 142601641984.0, 1.26e22),
    ("deck=chinchilla-70b", 142601641984.0, 1.26e22),
    ("deck=inference-7b", 142601641984.0, 1.26e22),
    ("view=serving", 142601641984.0, 1.26e22),
    ("deck=serving-70b", 142601641984.0, 1.26e22),
    ("deck=finetune-8b-4090", 142601641984.0, 1.26e22),
    ("deck=finetune", 142601641984.0, 1.26e22),
    ("deck=grpo-7b", 142601641984.0, 1.26e22),
    ("deck=serving", 142601641984.0, 1.26e22),
    ("deck=megatron-22b", 142601641984.0, 1.26e22),
    ("deck=megatron-175b", 142601641984.0, 1.26e22),
    ("deck=megatron-530b", 142601641984.0, 1.26e22),
    ("deck=megatron-1t", 142601641984.0, 1.26e22),
    ("deck=compute", 142601641984.0, 1.26e22),
    ("deck=chinchilla", 142601641984.0, 1.26e22),
    ("deck=inference", 142601641984.0, 1.26e22),
    ("deck=model-states", 142601641984.0, 1.26e22),
    ("deck=activations", 142601641984.0, 1.26e22),
    ("deck=memory", 142601641984.0, 1.26e22),
    ("deck=zero", 142601641984.0, 1.26e22),
    ("deck=lesson-a100", 142601641984.0, 1.26e22),
    ("deck=lesson-h100", 142601641984.0, 1.26e22),
    ("deck=3d", 142601641984.0, 1.26e22),
    ("deck=planner", 142601641984.0, 1.26e22),
    ("deck=sweeps", 142601641984.0, 1.26e22),
    ("deck=fp", 142601641984.0, 1.26e22),
    ("params=13B", 255815065600.0, 2.34e22),
    ("active-params=3B", 142601641984.0, 5.4e21),
    ("tokens=1.4T", 142601641984.0, 5.88e22),
    ("seq-len=4096", 216152956928.0, 1.26e22),
    ("micro-batch=4", 234406567936.0, 1.26e22),
    ("grad-accum=8&pp=4", 58601641984.0, 1.26e22),
    // Issue 41: m from the global batch, 256/(1·1) = 256 ≥ p: four micro-batches in flight, as m = 8.
    ("global-batch=256&pp=4", 58601641984.0, 1.26e22),
    ("hidden=5120", 196566056960.0, 1.841430528e22),
    ("layers=40", 169198223360.0, 1.4731444224e22),
    // heads=40 (with h = 4096) is refused since the shape keys came: h must be a whole number of heads.
    ("heads=64", 164076478464.0, 1.26e22),
    ("model=mixtral-8x7b", 6390831710208.0, 2.31838654464e22),
    ("model=mixtral-8x22b", 60740942266368.0, 7.04906440704e22),
    ("model=qwen3-30b-a3b", 631053189120.0, 6.0354367488e21),
    ("model=gemma-3-27b", 11455004413952.0, 4.86155948544e22),
    ("model=gpt-oss-20b", 473001784320.0, 7.535550528000001e21),
    ("model=gpt-oss-120b", 2076337198080.0, 1.0278798912000002e22),
    ("model=qwen3-next-80b-a3b", 1352904978432.0, 6.9748729344e21),
    ("model=bloom-176b", 3054250164224.0, 3.172450885632e23),
    ("head-dim=128&layers=48&hidden=2048&heads=32&kv-heads=4&convention=megatron", 58148404378.0, 6.0977221632e21),
    ("fp8=none&model=llama-3-8b&convention=megatron", 200663794637.0, 1.83199408128e22),
    ("fp8=tensorwise&model=llama-3-8b&convention=megatron&dp=8&zero=1&gpu=h100-80gb", 120612718234.0, 1.83199408128e22),
    ("fp8=blockwise&model=llama-3-8b&convention=megatron&seq-len=4096", 188629502650.0, 1.63872055296e22),
    ("fp8=mxfp8&gpu=b200&model=llama-3-70b&convention=megatron&tp=4&dp=2", 450339461683.0, 1.463240245248e23),
    ("fp8=tensorwise&fp8-param-gather=1&gpu=b200&model=llama-3-8b&convention=megatron", 187134372403.0, 1.83199408128e22),
    // Transformer Engine's tensor-parallel overlap: two more 32 MiB workspaces on an H100, the collectives hidden.
    ("model=llama-3-70b&convention=megatron&tp=8&pp=4&dp=2&sequence-parallel=1&tp-comm-overlap=1&gpu=h100-80gb", 69708606413.0, 1.463240245248e23),
    ("model=deepseek-v2-lite&convention=megatron&dp=8&zero=1", 143317777114.0, 5.605443072e21),
    ("model=qwen2.5-7b", 4442721181696.0, 1.37081097216e22),
    ("model=qwen2.5-72b", 29381234393088.0, 1.308711665664e23),
    ("layers=32&hidden=4096&kv-heads=8", 122897367040.0, 1.03832690688e22),
    ("layers=32&hidden=4096&ffn=11008&mlp=swiglu", 136319139840.0, 1.18932185088e22),
    ("mlp=gelu&layers=24", 102361006080.0, 8.9335996416e21),
    ("layers=32&hidden=4096&tie-embeddings=0", 137879420928.0, 1.20687501312e22),
    ("layers=32&hidden=4096&experts=8&top-k=2&moe-ffn=14336&mlp=swiglu", 788634075136.0, 2.43974873088e22),
    ("layers=32&hidden=4096&experts=64&top-k=6&shared-experts=2&moe-ffn=1408", 456965292032.0, 9.4320009216e21),
    // Serving keys: the training result does not move.
    ("batch=8&context=32768", 142601641984.0, 1.26e22),
    ("max-position-embeddings=4096&context=8192", 142601641984.0, 1.26e22),
    ("kv-dtype=fp32", 142601641984.0, 1.26e22),
    ("kv-dtype=fp16", 142601641984.0, 1.26e22),
    ("kv-dtype=bf16", 142601641984.0, 1.26e22),
    ("kv-dtype=fp8", 142601641984.0, 1.26e22),
    ("kv-dtype=int8", 142601641984.0, 1.26e22),
    ("kv-dtype=int4", 142601641984.0, 1.26e22),
    ("vocab=50257", 142601641984.0, 1.26e22),
    ("tp=8", 32424015488.0, 1.26e22),
    ("pp=2", 86601641984.0, 1.26e22),
    ("dp=64", 142601641984.0, 1.26e22),
    // Each rank holds s/4 of every sequence: activations 30.6 GB ÷ 4; N = 4.
    ("cp=4", 119650410496.0, 1.26e22),
    // Mixtral's 45.1B of routed experts ÷ 8 on each GPU, the other 1.6B whole.
    ("ep=8&model=mixtral-8x7b&dp=8", 5759471517696.0, 2.31838654464e22),
    ("gpus=64&zero=3", 34351641984.0, 1.26e22),
    ("sequence-parallel=1&tp=4", 46150410496.0, 1.26e22),
    ("partition-activations=1&tp=4", 40915919104.0, 1.26e22),
    ("tsp=1&tp=8", 17825205248.0, 1.26e22),
    ("zero=1&dp=8", 69101641984.0, 1.26e22),
    ("zero=2&dp=8", 56851641984.0, 1.26e22),
    ("zero=3&dp=8", 46601641984.0, 1.26e22),
    ("max-live-params=2e8&zero=3&dp=8", 45001641984.0, 1.26e22),
    ("gpu-mem=40", 142601641984.0, 1.26e22),
    ("tflops=200", 142601641984.0, 1.26e22),
    ("usd-per-gpu-hour=2.5", 142601641984.0, 1.26e22),
    ("max-gpus=1024", 142601641984.0, 1.26e22),
    ("global-batch=512", 142601641984.0, 1.26e22),
    // The reserve and fragmentation are the calculator's since issue 16: a segment of their own.
    ("reserve-gb=2", 144601641984.0, 1.26e22),
    ("fragmentation-pct=10", 156861806182.0, 1.26e22),
    // The optimizer's 10.5 GB per GPU leaves the GPU for CPU memory or NVMe.
    ("offload=optimizer-nvme&zero=1&dp=8", 58601641984.0, 1.26e22),
    // Issue 38: the weights' shards and their gradients offloaded too (ZeRO-3): the GPU keeps the
    // gathered layers (1e9 live parameters) and the activations.
    ("offload=params&zero=3&gpus=8", 32601641984.0, 1.26e22),
    ("offload=params", 58601641984.0, 1.26e22),
    // GPipe holds all 8 micro-batches of its 8 layers; 1F1B min(8, 4) = 4.
    ("schedule=gpipe&grad-accum=8&pp=4", 89203283968.0, 1.26e22),
    ("schedule=1f1b", 142601641984.0, 1.26e22),
    // Issue 39: ZB-H1 keeps 1F1B's memory; DualPipe holds two stages and p + 1 micro-batches.
    ("schedule=zb1p&pp=4&grad-accum=8", 58601641984.0, 1.26e22),
    ("schedule=dualpipe&pp=4&grad-accum=8", 94252052480.0, 1.26e22),
    // MLA and dense-first MoE on the default 7B shape (L 32, h 4096, a 32).
    ("kv-lora-rank=512&q-lora-rank=1536&qk-head-dim=128&qk-rope-head-dim=64&v-head-dim=128", 121422020608.0, 1.02172925952e22),
    // One MTP module of a MoE model: a MoE layer, its projection and norms, on the (only) stage, and a second loss.
    ("experts=8&top-k=2&mtp-layers=1&convention=megatron", 737334082099.0, 2.11964903424e22),
    // Each expert whole on its rank (etp 1 under t 2): the experts' weights and gradients per GPU double.
    ("experts=8&top-k=2&tp=2&ep=2&dp=2&etp=1&convention=megatron", 362104038144.0, 2.05320167424e22),
    ("experts=8&top-k=2&dense-layers=2", 586769563648.0, 1.90823473152e22),
    // Interleaved: the first of 4 stages keeps 2·3 + 4 + 1 = 11 forwards of 4 layers, 44 layer-micro-batches for 1F1B's 32.
    ("vpp=2&grad-accum=8&pp=4", 70077257728.0, 1.26e22),
    // Megatron-LM's layout string: 4, 10, 10 and 8 layers; the second stage, 10 layers × 3 in flight, is the heaviest.
    ("pp-layout=Et*4|t*10|t*10|t*8L&pp=4&grad-accum=8", 56689039360.0, 1.26e22),
    // 4 layers on each end, 12 on each of the two between: the heaviest holds 12.
    ("pp-first-layers=4&pp-last-layers=4&pp=4", 62426847232.0, 1.26e22),
    // bf16 moments: AdamW's 8 bytes/param become 4 (7e9 × 4 = 28 GB less); fp8, 2; fp32, the article's.
    ("exp-avg-dtype=bf16", 114601641984.0, 1.26e22),
    ("exp-avg-dtype=fp8", 100601641984.0, 1.26e22),
    ("exp-avg-dtype=fp32", 142601641984.0, 1.26e22),
    // Muon: one moment for the matrices, AdamW's two for the embeddings and norms (2 % of the 7B): 8.08 + 4 bytes.
    ("optimizer=muon", 115161056139.0, 1.26e22),
    // The master copy: fp32's 4 bytes, fp16's 2 (14 GB less), none (28 GB less).
    ("main-params=fp32", 142601641984.0, 1.26e22),
    ("main-params=fp16", 128601641984.0, 1.26e22),
    ("main-params=none", 114601641984.0, 1.26e22),
    // Half the layers' activations (30.6 GB) move to CPU memory: 15.3 GB on the GPU, 15.3 GB in the node's CPU memory.
    ("offload-activations=0.5", 127300820992.0, 1.26e22),
    // The loss's logits under megatron (s 2048, b 1, V 32000): fused 6, standard 12, chunked in 8 max(2.5, 1) + 4 bytes per logit.
    ("loss=standard&convention=megatron", 144261902438.0, 1.35663676416e22),
    ("loss=fused&convention=megatron", 143849025638.0, 1.35663676416e22),
    ("loss=chunked&loss-chunks=8&convention=megatron", 143883432038.0, 1.35663676416e22),
    // 32/4 checkpoints at 2·sbh and the segment's other 3 layers at 114·sbh.
    ("recompute-every=4&recompute=full", 115003121664.0, 1.68e22),
    ("cpu-mem=64&offload=optimizer&zero=1&dp=8", 58601641984.0, 1.26e22),
    ("gpus-per-node=4", 142601641984.0, 1.26e22),
    ("intra-node-gbs=450", 142601641984.0, 1.26e22),
    ("inter-node-gbs=25", 142601641984.0, 1.26e22),
    ("tp-cross-node=1", 142601641984.0, 1.26e22),
    ("keep-cp=1&cp=2&gpus=2", 127300820992.0, 1.26e22),
    ("serve=1&max-tpot-ms=30&max-ttft-ms=2000", 142601641984.0, 1.26e22),
    ("embed=1&view=memory", 142601641984.0, 1.26e22),
    ("present=1&slide=3", 142601641984.0, 1.26e22),
    ("fp=65504", 142601641984.0, 1.26e22),
];

/// A link as a person (or the page) writes it.
fn evaluate(link: &str) -> (f64, f64) {
    let (state, errors) = load(link);
    assert!(errors.is_empty(), "{link}: {errors:?}");
    let config = state.settings.resolve().unwrap_or_else(|e| panic!("{link}: {e}"));
    let r = tmath::evaluate(&config);
    (r.per_gpu.total().get(), r.flops().get())
}

#[test]
fn golden_links_load_cleanly_and_give_their_recorded_result() {
    let wrong: Vec<String> = GOLDEN
        .iter()
        .filter(|&&(link, bytes, flops)| evaluate(link) != (bytes, flops))
        .map(|&(link, ..)| format!("{link}: {:?}", evaluate(link)))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A new key or a new choice needs its golden link: this fails until it has one.
#[test]
fn the_golden_list_covers_every_key_and_every_choice() {
    let pairs: Vec<(String, String)> = GOLDEN.iter().flat_map(|(l, ..)| tmath::link::parse_query(l)).collect();
    for k in KEYS {
        assert!(pairs.iter().any(|(key, _)| key == k.name), "no golden link sets {}", k.name);
        if let Kind::Choice(_) | Kind::List(_) = k.kind {
            for c in k.choices() {
                assert!(pairs.iter().any(|(key, v)| key == k.name && v == c), "no golden link for {}={c}", k.name);
            }
        }
    }
}

/// Every `?…` link of the README and every preset's query loads without a bad-key notice.
#[test]
fn readme_and_preset_links_load_cleanly() {
    let readme = include_str!("../README.md");
    let mut links: Vec<String> = readme
        .split("(?")
        .skip(1)
        .chain(readme.split("`?").skip(1))
        .map(|rest| rest.chars().take_while(|c| !matches!(c, ')' | '`' | ' ' | '"')).collect::<String>())
        // `?lang=ko|en` names the choices and `?view=V` a placeholder: neither is a link.
        .filter(|l| {
            !l.contains('|')
                && !tmath::link::parse_query(l)
                    .iter()
                    .any(|(_, v)| v.len() == 1 && v.chars().all(|c| c.is_ascii_uppercase()))
        })
        .collect();
    links.extend(tmath::presets::PRESETS.iter().map(|p| p.query.to_string()));
    assert!(links.len() > 15, "{} links found", links.len());
    for link in links {
        let (state, errors) = load(&link);
        assert!(errors.is_empty(), "{link}: {errors:?}");
        assert!(state.settings.resolve().is_ok(), "{link}");
    }
}
