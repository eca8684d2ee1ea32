#!/usr/bin/env python3
"""Measured rows for the validation table: a few training steps of Llama-shaped
models on one GPU, with PyTorch's own counters.

What runs: Hugging Face transformers' LlamaForCausalLM built from its shape
(random weights, random tokens: memory and time do not depend on the values),
SDPA attention, the model's own loss (labels = the inputs), torch.optim.AdamW
with fused=True (no foreach temporaries), and zero_grad(set_to_none=False), so
that the gradients stay allocated between steps as a framework's gradient
buffer does. Two precisions:

- bf16: the weights, gradients and AdamW's moments all bf16 (pure bf16, as
  torchtune trains; no fp32 master copy);
- mixed: fp32 weights, gradients and moments, the forward and backward under
  torch.autocast(bfloat16), which keeps a bf16 copy of each weight while the
  step's graph lives.

Full recomputation is transformers' gradient checkpointing of every decoder
layer (use_reentrant=False): each layer keeps its input.

Each run is its own process. After the first step (which creates AdamW's
moments) the peak counters are reset, and the next steps are measured:
torch.cuda.max_memory_allocated, max_memory_reserved, and the device's used
memory as nvidia-smi reads it (cudaMemGetInfo). Steps are timed with
torch.cuda.synchronize around them.

Usage: python3 tests/gpu/measure.py OUT_DIR  (writes OUT_DIR/runs.jsonl)
       python3 tests/gpu/measure.py --one NAME (one run, JSON on stdout)
"""

import json
import os
import subprocess
import sys
import time

SHAPES = {
    # meta-llama/Llama-3.2-1B config.json
    "llama-3.2-1b": dict(hidden_size=2048, intermediate_size=8192, num_hidden_layers=16,
                         num_attention_heads=32, num_key_value_heads=8, vocab_size=128256,
                         tie_word_embeddings=True),
    # meta-llama/Llama-3.2-3B config.json
    "llama-3.2-3b": dict(hidden_size=3072, intermediate_size=8192, num_hidden_layers=28,
                         num_attention_heads=24, num_key_value_heads=8, vocab_size=128256,
                         tie_word_embeddings=True),
    # meta-llama/Meta-Llama-3-8B config.json
    "llama-3-8b": dict(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32,
                       num_attention_heads=32, num_key_value_heads=8, vocab_size=128256,
                       tie_word_embeddings=False),
}

# Mixtures of experts, cut to a few layers so that one GPU holds them: transformers' own
# MixtralForCausalLM and DeepseekV2ForCausalLM (latent attention, a dense first layer).
MOE_SHAPES = {
    # mistralai/Mixtral-8x7B-v0.1 config.json, 4 of its 32 layers
    "mixtral-8x7b-4l": ("mixtral", dict(hidden_size=4096, intermediate_size=14336, num_hidden_layers=4,
                                        num_attention_heads=32, num_key_value_heads=8, num_local_experts=8,
                                        num_experts_per_tok=2, vocab_size=32000, tie_word_embeddings=False)),
    # deepseek-ai/DeepSeek-V2-Lite config.json, 8 of its 27 layers (the first dense)
    "deepseek-v2-lite-8l": ("deepseek_v2", dict(hidden_size=2048, intermediate_size=10944, moe_intermediate_size=1408,
                                                num_hidden_layers=8, num_attention_heads=16, num_key_value_heads=16,
                                                n_routed_experts=64, n_shared_experts=2, num_experts_per_tok=6,
                                                first_k_dense_replace=1, kv_lora_rank=512, q_lora_rank=None,
                                                qk_nope_head_dim=128, qk_rope_head_dim=64, v_head_dim=128,
                                                vocab_size=102400, tie_word_embeddings=False)),
}

# name: (shape, precision, seq_len, micro_batch, recompute)
RUNS = {
    "1b-bf16-s4096-b2": ("llama-3.2-1b", "bf16", 4096, 2, "none"),
    "1b-bf16-s4096-b2-full": ("llama-3.2-1b", "bf16", 4096, 2, "full"),
    "1b-mixed-s4096-b2": ("llama-3.2-1b", "mixed", 4096, 2, "none"),
    "1b-bf16-s8192-b4-full": ("llama-3.2-1b", "bf16", 8192, 4, "full"),
    "3b-bf16-s4096-b2": ("llama-3.2-3b", "bf16", 4096, 2, "none"),
    "3b-bf16-s8192-b1-full": ("llama-3.2-3b", "bf16", 8192, 1, "full"),
    "8b-bf16-s4096-b1": ("llama-3-8b", "bf16", 4096, 1, "none"),
    "8b-bf16-s8192-b1-full": ("llama-3-8b", "bf16", 8192, 1, "full"),
    "8b-bf16-s2048-b4-full": ("llama-3-8b", "bf16", 2048, 4, "full"),
    "mixtral-4l-bf16-s4096-b1": ("mixtral-8x7b-4l", "bf16", 4096, 1, "none"),
    "mixtral-4l-bf16-s4096-b1-full": ("mixtral-8x7b-4l", "bf16", 4096, 1, "full"),
    "dsv2lite-8l-bf16-s4096-b1": ("deepseek-v2-lite-8l", "bf16", 4096, 1, "none"),
    "dsv2lite-8l-bf16-s4096-b1-full": ("deepseek-v2-lite-8l", "bf16", 4096, 1, "full"),
}

WARM_STEPS = 1
MEASURED_STEPS = 3


def one(name):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    shape, precision, seq, batch, recompute = RUNS[name]
    torch.cuda.init()
    torch.zeros(1, device="cuda")
    free, total = torch.cuda.mem_get_info()
    context_used = total - free

    dtype = torch.bfloat16 if precision == "bf16" else torch.float32
    if shape in SHAPES:
        config = LlamaConfig(**SHAPES[shape], max_position_embeddings=max(seq, 8192), use_cache=False)
        config._attn_implementation = "sdpa"
        with torch.device("cuda"):
            model = LlamaForCausalLM(config)
    else:
        from transformers import AutoConfig, AutoModelForCausalLM

        kind, kw = MOE_SHAPES[shape]
        config = AutoConfig.for_model(kind, **kw, max_position_embeddings=max(seq, 8192), use_cache=False)
        with torch.device("cuda"):
            try:
                model = AutoModelForCausalLM.from_config(config, attn_implementation="sdpa")
            except (ValueError, ImportError):
                model = AutoModelForCausalLM.from_config(config, attn_implementation="eager")
    model.to(dtype)
    model.train()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    if recompute == "full":
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    params = sum(p.numel() for p in model.parameters())
    weights_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-5, fused=True)
    gen = torch.Generator(device="cuda").manual_seed(0)
    ids = torch.randint(0, config.vocab_size, (batch, seq), device="cuda", generator=gen)

    def step():
        if precision == "mixed":
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = model(input_ids=ids, labels=ids).loss
        else:
            loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=False)
        return loss

    for _ in range(WARM_STEPS):
        step()
    torch.cuda.synchronize()
    first_peak = torch.cuda.max_memory_allocated()
    states_after_first = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    times = []
    for _ in range(MEASURED_STEPS):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        loss = step()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    free, total = torch.cuda.mem_get_info()
    return {
        "name": name,
        "shape": shape,
        "precision": precision,
        "seq_len": seq,
        "micro_batch": batch,
        "recompute": recompute,
        "params": params,
        "weights_bytes": weights_bytes,
        "allocated_after_first_step": states_after_first,
        "max_allocated_first_step": first_peak,
        "max_allocated": torch.cuda.max_memory_allocated(),
        "max_reserved": torch.cuda.max_memory_reserved(),
        "device_used": total - free,
        "context_used_before_allocations": context_used,
        "step_seconds": times,
        "tokens_per_second": batch * seq / min(times),
        "loss": float(loss),
        "gpu": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "transformers": __import__("transformers").__version__,
        "sdpa_flash_enabled": torch.backends.cuda.flash_sdp_enabled(),
        "attn_implementation": getattr(model.config, "_attn_implementation", None),
        "model_class": type(model).__name__,
    }


def main():
    if sys.argv[1] == "--one":
        print(json.dumps(one(sys.argv[2])))
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    names = sys.argv[2:] or list(RUNS)
    start = time.time()
    budget = float(os.environ.get("MEASURE_BUDGET_S", "420"))
    with open(os.path.join(out, "runs.jsonl"), "a") as f:
        for name in names:
            if time.time() - start > budget:
                print(json.dumps({"name": name, "error": "skipped: out of time"}), flush=True)
                continue
            t0 = time.time()
            try:
                p = subprocess.run([sys.executable, __file__, "--one", name], capture_output=True,
                                   text=True, timeout=150)
                line = p.stdout.strip().splitlines()[-1] if p.returncode == 0 else None
                row = json.loads(line) if line else {"name": name, "error": p.stderr[-3000:]}
            except subprocess.TimeoutExpired:
                row = {"name": name, "error": "timeout"}
            row["wall_seconds"] = round(time.time() - t0, 1)
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(json.dumps({k: row.get(k) for k in ("name", "max_allocated", "max_reserved",
                                                      "tokens_per_second", "wall_seconds", "error")}),
                  flush=True)


if __name__ == "__main__":
    main()
