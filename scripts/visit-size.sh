#!/usr/bin/env bash
# What one visit of the page fetches, gzipped (gzip -9): index.html and every
# file it references (stylesheet, glue, wasm, icon). Over CEILING_KIB (today's
# size plus a small margin), a failure: the ceiling moves only in the commit
# that adds a feature, saying what the feature cost. (Issue 17's budget of
# 230 KiB was withdrawn in issue 28.)
set -euo pipefail
cd "$(dirname "$0")/.."
# 283 → 296 (issue 27, 2026-12-02): 281.7 → 294.2 KiB for the lecturer's, reader's and
# engineer's fixes (ZeRO states switch, 3D verdicts and convention note, clicker keys and
# history, serving verdict and position limit, refused link keys, particles, typing).
# 296 → 299 (issue 24): the stage chart, every pipeline stage side by side, 3.1 KiB (295.1 → 298.2).
# 319 → 325 (issues 24 and 25): Megatron-LM's pipeline layout string (its parser, its refusals in both
# languages, unequal chunks) and the framework's buffers as their own segment with their formula, 6.1 KiB (317.9 → 324.0).
# 325 → 327 (issue 26): the step-time model shared with the planner (its parts, the JSON's step_time,
# tokens/s and MFU, the bubble-and-communication note in both languages), 1.8 KiB (324.3 → 326.1).
# 327 → 330 (issue 26): the step-time bar beside the compute figures, its legend, tokens/s per GPU and MFU,
# 3.2 KiB (326.1 → 329.3).
# 330 → 331 (issue 25): Muon's optimizer states and the master copy's type (main-params), 0.8 KiB (329.4 → 330.2).
# 331 → 332 (issue 25): activation offload (its key, its term and its CPU share), 0.7 KiB (330.2 → 330.9).
# 332 → 333 (issues 25 and 26): nine validation rows measured by this project on an H200 with their
# framework and rank text, and two catalogue models (Mixtral 8x22B, DeepSeek-V2-Lite), 0.7 KiB (331.3 → 332.0).
# 333 → 338 (issue 26): the step time against measured throughput on the page (18 runs of three
# stacks with their anchors' rates, its table and texts in both languages), 4.6 KiB, and four more
# measured rows (two mixtures of experts on the H200), 0.3 KiB (332.0 → 337.1).
# 338 → 339 (issue 25): FP8 training (fp8 and fp8-param-gather, their labels in both languages, the
# weights' copies and the activations' saving with their formulas and details, MXFP8's refusal), 1.6 KiB (337.1 → 338.7).
# 339 → 341 (issues 25 and 26): FSDP's gathered units and reduce-scatter buffer under megatron with
# their formulas, and the default τ's share of the peak and its source beside the GPU-hours (the
# catalogue's sources now reach the page), 1.4 KiB (338.7 → 340.1).
# 341 → 339 (issue 25): the configuration in groups (layout, dtypes, system, serving) left the page
# 1.7 KiB lighter (340.1 → 338.4); the ceiling follows.
# 339 → 340 (issue 25): the heads' dimension (head-dim: its key, labels, the attention's widths)
# and Qwen3 30B-A3B in the catalogue, 0.9 KiB (338.4 → 339.3).
# 340 → 341 (issue 25, left from session 5): the activations' explanation under megatron writes
# attention's stored inputs as the shape has them (MLA's widths, a head-dim), 0.3 KiB (339.8 → 340.1).
# 341 → 355 (issue 41): 340.2 → 354.4 KiB. By function in the size-optimised wasm (wasm-opt -Oz
# with names, against the commit before): the Megatron-LM launch reader's shell variables and
# arithmetic, launchers (torchrun, Slurm, MPI), global batch, tokens and flag classes and the
# nested config.json reader, about 10 KB of code; presenting the state on the screen, the deck's
# ends and keys, and a changed preset's title and note, 4.6 KB; the memory view's variant labels
# from their own state, its text alternative with every bar and the pipeline's assumed m, 3.2 KB;
# the PNG's wrapped lines and legend, 0.3 KB; std's string searching these pull in, 3.4 KB.
# (Two first drafts cost 19 KiB more: std's float parser and i128 division, and two sorts.)
# 355 → 356 (issue 41): the PNG takes the page's own legend (the serving bar's parts too) and
# lays out a panel off the screen before drawing it (a phone's PNG had no chart), the compute
# slide's tighter figures, 1.4 KiB (354.4 → 355.8).
# 356 → 362 (issue 36): the serving core in every evaluation (the replica's memory and the engine's
# pool, the roofline's decode and prefill, the collectives, the crossover, the JSON's serving object),
# its seven keys with their labels and controls, fp8 weights, 6.0 KiB (355.8 → 361.8).
# 362 → 372 (issue 36): serving's validation on the page, 51 measured rows of six engines and 11
# vLLM startup logs with their run words, measures, gaps and summary in both languages (8.3 KiB:
# 13 KB of code before gzip, the Serving table's view 8.5 KB of it, the rest the rows' queries and
# sources), and in the core the kernels' floor, the host's time, the static batch's prefill, the
# matmul ceilings and CUDA totals with their sources, the sampler's peak (1.1 KiB) (361.8 → 371.2).
# 372 → 379 (issue 36): the planner's serving tab (serve, max-tpot-ms, max-ttft-ms with their
# labels and controls, the replica search on the ordinary calculation, its table and summary in
# both languages), 6.8 KiB (371.2 → 378.0).
# 379 → 392 (issue 36): the serving figure (view=serving and its slide: six headline figures, one
# GPU's budget as an SVG bar, time per token against the batch as an SVG chart with the roofline's
# sides and the crossover, its verdict and texts in both languages), 12.6 KiB (378.0 → 390.6).
# 392 → 388 (issue 40): every chart drawn as SVG by the view, plotters and plotters-canvas
# removed, the SVG export added, 2.5 KiB less (390.3 → 387.8); reading the chart's size from its
# attributes with str::parse::<f64> had cost 11 KiB (the float parser's tables), its box does not.
# 388 → 395 (issue 37): quantized files' formats counted tensor by tensor (GPTQ, AWQ, NVFP4,
# MXFP4 and six GGUF file types with llama.cpp's rules), their labels, gpt-oss-20b and -120b in
# the catalogue, the config.json's quantization_config, and the serving validation's table of 22
# quantized files with its summary in both languages, 6.7 KiB (387.8 → 394.5).
# 395 → 397 (issue 37): sliding-window attention (sliding-window and global-every with their
# labels and controls, the window in the KV cache, the users a pool holds as vLLM's hybrid cache
# counts them, decode's reads and prefill's pairs), Gemma 3 27B in the catalogue, the config.json's
# sliding_window and layer pattern, 1.7 KiB (394.5 → 396.2).
# 397 → 398 (issue 41): on a phone the floating-point and planner tables take two lines a row (their
# cells labelled), the serving tab's replicas as cards with their format's name, 1.2 KiB (396.2 → 397.4).
# 398 → 396 (review): the quantized files' median through validation::median instead of a
# sort of its own (f64 sorting), and the session's other single sources, 2.0 KiB less (397.6 → 395.6).
# 396 → 401 (issue 37): the KV pool grouped and padded as vLLM groups a model's layers, the
# pool table's users at 8,192 tokens and the Gemma 2 rows, 1.9 KiB (395.6 → 397.5); hybrid
# linear-attention layers (attention-every, linear-state, linear-conv and state-dtype with their
# labels and controls, the state in the cache and in decode's reads, the engine's raised block,
# Qwen3-Next-80B-A3B in the catalogue, the config.json's Gated DeltaNet and Mamba fields, the
# training warning in both languages), 3.1 KiB (397.5 → 400.6).
# 401 → 413 (issue 38): fine-tuning (finetune, lora-rank, lora-targets, lora-dropout, base-dtype,
# train-embeddings and kernels with their labels and controls; LoRA's states, activations and
# FLOPs, QLoRA's NF4 base; the fine-tuning figure with its note; its validation table of 24 runs
# with their sources, gaps and summary in both languages; the LoRA and QLoRA remedies), 12.1 KiB
# (400.6 → 412.7).
# 413 → 420 (issue 38): post-training (post-training, rollouts, response-tokens, reward-params,
# critic-params, rollout and rollout-mem-util with their labels and controls; the phases, their
# JSON, two new parts with their colours and explanations; the phases chart; four ms-swift rows),
# 7.1 KiB (412.7 → 419.8); the validation tables through one section function, 0.8 KiB less (419.0).
# 420 → 423 (issues 38 and 39): the planner's whole space (every p whose stages lay out, each
# layout's best interleaving, the reason in words when nothing fits, both languages, v in its
# table), BLOOM-176B in the catalogue, the paged optimizer's warning in both languages, and the
# control that stands in for a moot one (response-tokens for seq-len under PPO and GRPO),
# 2.4 KiB (419.8 → 422.2).
# 423 → 424 (issue 39): the zero-bubble and DualPipe schedules (their labels, DualPipe's refusal of
# an odd p in both languages, its two stages a rank, the bubble's formula by schedule on the page),
# 1.1 KiB (422.2 → 423.3).
# 424 → 425 (issue 39): what a mixture of experts keeps beyond its experts' MLPs (the experts' own
# inputs, the probabilities, the router's and the dispatcher's indices) and the eleven rows of
# Megatron-Core's MoE functional tests in the validation table, 0.8 KiB (423.4 → 424.2).
# 425 → 428 (issue 40): the module that serves every figure of a host's page (mount_figure, the
# panic message in each figure, the embed dialog's second snippet with its note in both
# languages), 2.9 KiB (425.0 → 427.9).
# 428 → 431 (issue 40): a chart's new drawing of the same elements sets only the attributes and
# texts that moved (charts/svg.rs: each element kept as tag, attributes and text, and the patch),
# 2.3 KiB (427.9 → 430.2).
# 431 → 429: the stylesheet minified whole (an apostrophe in a comment had left most of it as
# written), 1.7 KiB less (430.2 → 428.5).
# 429 → 431 (issues 36 and 39): each weight format's read share and the FP8 matmul ceiling with gpt-fast's
# seven int8 rows in the serving table, 1.2 KiB (428.4 → 429.6); the experts' own data-parallel group and
# DeepSeek-V3's whole run on the page in both languages, 1.2 KiB (→ 430.8); context parallelism in the
# planner (its cp column, keep-cp), 0.1 KiB with the shares' sources left out of the page (→ 430.9).
# 431 → 432 (issue 40): the embed dialog's preview drawn smaller to fit (its measure on opening and on
# resize, the scaled caption in both languages), 0.7 KiB (430.9 → 431.6).
# 432 → 433: each GPU's SMs with their sources (time that follows the shape, issue 39), 0.4 KiB
# (431.6 → 432.0); the screenshot review's fixes (a label's text colour by its segment's contrast, a
# log axis's finer ticks, a total lifted off the capacity line, Korean wording), 0.5 KiB (→ 432.5).
# 433 → 434 (issue 39): the optimizer's update as a step segment with its label in both languages,
# the measured all-reduce bandwidth by message size for three GPUs (their sources left out of the
# page), 0.4 KiB (432.6 → 433.0).
# 434 → 438 (issue 39): τ from the shape as megatron's default on the page (the shape's kernels,
# FlashAttention's curves, the sustained matmul rates, its note in both languages) and Megatron-LM's
# 2021 and 2022 tables, eighteen rows at the default rate, in the throughput table, 4.6 KiB (433.0 → 437.6).
# 438 → 439: a fresh reader's review of the new texts (the τ line and the table's summary reworded in
# both languages, the 2021 rows' reason, a gradient type in the legend where it is not the weights'), 0.4 KiB
# (437.6 → 438.0).
CEILING_KIB=${CEILING_KIB:-439}
# The stable toolchain's fallback build is about 28 KiB larger (scripts/build.sh says so loudly).
if [ "$(cat target/wasm-toolchain.txt 2>/dev/null)" = stable ]; then
  CEILING_KIB=$((CEILING_KIB + 30))
  echo "visit-size: a stable-toolchain build: the ceiling is $CEILING_KIB KiB"
fi
files=(dist/index.html)
for ref in $(grep -o '\(href\|src\)="[^"#?]*"' dist/index.html | sed -E 's/^[a-z]+="(\.\/)?//; s/"$//' | sort -u); do
  case $ref in http*|//*) echo "visit-size: index.html fetches from elsewhere: $ref" >&2; exit 1 ;; esac
  [ -f "dist/$ref" ] || { echo "visit-size: index.html references a missing file: $ref" >&2; exit 1; }
  files+=("dist/$ref")
done
total=0
for f in "${files[@]}"; do
  gz=$(gzip -9 -c "$f" | wc -c)
  total=$((total + gz))
  awk -v gz="$gz" -v name="${f#dist/}" 'BEGIN { printf "%8.1f KiB gz  %s\n", gz / 1024, name }'
done
kib=$(awk -v t="$total" 'BEGIN { printf "%.1f", t / 1024 }')
echo "$kib KiB gz: what one visit fetches (ceiling $CEILING_KIB KiB)"
if awk -v k="$kib" -v c="$CEILING_KIB" 'BEGIN { exit !(k > c) }'; then
  echo "visit-size: FAILED: $kib KiB is over the ceiling of $CEILING_KIB KiB" >&2
  exit 1
fi
