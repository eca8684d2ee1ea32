//! How close is the step time to reality (issue 26): every measured run of
//! `tmath::throughput` within 25 % of its tokens per second per GPU, at the
//! rate its anchor (the same software on the same GPU) achieved; the table
//! printed for the closing note.

use tmath::throughput::{check, median_error, table, ROWS, ROW_LIMIT};

#[test]
fn the_throughput_table_meets_its_threshold() {
    let rows = table();
    assert_eq!(rows.len(), ROWS.len(), "every row's query and anchor load");
    for r in &rows {
        println!(
            "{:<28} {:<28} {:>5} GPUs  tau {:>5.0} TFLOP/s ({:>4.1} % of peak)  measured {:>8.0}  model {:>8.0} tokens/s/GPU  error {:>+6.1} %{}",
            r.row.name,
            r.row.stack.name(),
            r.layout.gpus(),
            r.tau / 1e12,
            100.0 * r.peak_share,
            r.row.measured,
            r.predicted,
            100.0 * r.error(),
            if r.row.anchor.is_none() { "  (anchor)" } else { "" },
        );
    }
    let counted = rows.iter().filter(|r| r.counts()).count();
    println!("median |error| {:.1} % over {counted} runs (anchors not counted)", 100.0 * median_error(&rows));
    assert!(counted >= 12, "{counted} counted runs");
    for r in &rows {
        assert!(r.within(), "{}: {:+.1} %", r.row.name, 100.0 * r.error());
    }
    assert_eq!(ROW_LIMIT, 0.25, "the issue's threshold, pinned");
}

/// Each anchor runs at its own measured rate: the model's figure for it differs
/// only by what the model adds to its compute, and a row's anchor is one.
#[test]
fn anchors_are_anchors() {
    for row in ROWS {
        let c = check(row).expect(row.name);
        if let Some(name) = row.anchor {
            let anchor = ROWS.iter().find(|r| r.name == name).expect(name);
            assert!(anchor.anchor.is_none(), "{}: its anchor has an anchor", row.name);
            assert_eq!(anchor.stack, row.stack, "{}: an anchor of other software", row.name);
        } else {
            // Compute at τ is the measured rate; the model only adds (bubble, communication).
            assert!(c.predicted <= row.measured * (1.0 + 1e-9), "{}", row.name);
            assert!(c.error() > -0.1, "{}: the anchor itself is {:+.1} % off", row.name, 100.0 * c.error());
        }
        assert!(row.source.starts_with("https://") || row.source == tmath::validation::H200_RUNS, "{}", row.name);
    }
}

/// Issue 39, time that follows the shape (`tmath::shape`): Narayanan et al.
/// 2021 (arXiv:2104.04473), Table 1, weak scaling of GPT models from 1.7B to
/// 1T on A100s, fp16, s 2048, V 51,200, full recomputation, attention before
/// FlashAttention (the authors' `examples/sc21/run_table_1.sh` and `CONFIG.sh`
/// @6985e58 give heads, t, p, the batch, the micro-batch and the interleaving;
/// the README's `images/cases_april2021.png` @50a4b5f the achieved rate).
/// Each row's step is the paper's FLOPs, 96·B·s·l·h²(1 + s/6h + V/16lh), over
/// its GPUs at its rate.
///
/// At one τ (the A100's default) the error follows the width: the small
/// models read fast, the large slow, a spread of 30 points. At the rate the
/// shape gives (each product's tile and wave quantization at the best matmul
/// rate, the scores' memory traffic, FlashAttention where it runs) the spread
/// closes to within 15 points (on Selene's network, one 200 Gb/s HDR link a
/// GPU: Narayanan et al. §5); the level is still fast, by 5–19 %: the 2021
/// code reduced the gradients of 39B–1T after the pipeline's flush (`DDP_impl`
/// local; torch DDP overlapped only the last micro-batch's backward) and its
/// kernels ran up to 11 % slower three months earlier on the same machine
/// (`docs/research/shape-sources.md`), while one 22B layer lands within 10 %
/// of its measured time ([`a_22b_layer_as_measured`]) and the 2022 code's
/// iterations within 8 % at the median ([`korthikanti_end_to_end`]). NVIDIA's
/// NeMo runs on H100s (this table's anchors' rows) land within 3 % at the
/// shape's rate (the products at the rate an H100 sustains, 730 TFLOP/s),
/// where one τ for all of them needs an anchor.
#[test]
fn time_that_follows_the_shape() {
    use tmath::step::step_time;
    // (params, heads, hidden, layers, t, p, GPUs, batch, micro-batch, v, TFLOP/s per GPU)
    type Run = (&'static str, u64, u64, u64, u64, u64, u64, u64, u64, u64, f64);
    let table: &[Run] = &[
        ("1.7B", 24, 2304, 24, 1, 1, 32, 512, 16, 1, 137.0),
        ("3.6B", 32, 3072, 30, 2, 1, 64, 512, 16, 1, 138.0),
        ("7.5B", 32, 4096, 36, 4, 1, 128, 512, 16, 1, 142.0),
        ("18.4B", 48, 6144, 40, 8, 1, 256, 1024, 8, 1, 135.0),
        ("39.1B", 64, 8192, 48, 8, 2, 512, 1536, 4, 1, 138.0),
        ("76.1B", 80, 10240, 60, 8, 4, 1024, 1792, 2, 3, 140.0),
        ("145.6B", 96, 12288, 80, 8, 8, 1536, 2304, 2, 2, 148.0),
        ("310.1B", 128, 16384, 96, 8, 16, 1920, 2160, 1, 2, 155.0),
        ("529.6B", 128, 20480, 105, 8, 35, 2520, 2520, 1, 3, 163.0),
        ("1008B", 160, 25600, 128, 8, 64, 3072, 3072, 1, 1, 163.0),
    ];
    let (mut fixed, mut shaped) = (Vec::new(), Vec::new());
    for &(name, a, h, l, t, p, n, g, b, v, tflops) in table {
        let q = format!(
            "convention=megatron&gpu=a100-80gb&inter-node-gbs=25&precision=mixed&attention=standard&recompute=full&zero=0&mlp=gelu&tie-embeddings=1&vocab=51200&seq-len=2048&layers={l}&hidden={h}&heads={a}&ffn={}&tp={t}&pp={p}&dp={}&vpp={v}&micro-batch={b}&global-batch={g}",
            4 * h,
            n / (t * p)
        );
        let mut c = tmath::link::config(&q).expect(name);
        let (s, lf, hf) = (2048.0, l as f64, h as f64);
        let flops = 96.0 * g as f64 * s * lf * hf * hf * (1.0 + s / (6.0 * hf) + 51_200.0 / (16.0 * lf * hf));
        let measured = flops / (tflops * 1e12 * n as f64);
        let at_default = step_time(&c).total;
        c.system.flops_per_gpu = tmath::shape::shape_rate(&c);
        let at_shape = step_time(&c).total;
        let (e_fixed, e_shape) = (measured / at_default - 1.0, measured / at_shape - 1.0);
        println!(
            "{name:<7} measured {measured:>7.2} s  one tau {at_default:>7.2} s ({:+6.1} % fast)  shape tau {:>4.0} TFLOP/s {at_shape:>7.2} s ({:+6.1} % fast)",
            100.0 * e_fixed,
            c.system.flops_per_gpu / 1e12,
            100.0 * e_shape
        );
        fixed.push(e_fixed);
        shaped.push(e_shape);
    }
    let spread = |e: &[f64]| e.iter().cloned().fold(f64::MIN, f64::max) - e.iter().cloned().fold(f64::MAX, f64::min);
    println!("spread: one tau {:.1} points, the shape's {:.1}", 100.0 * spread(&fixed), 100.0 * spread(&shaped));
    assert!(spread(&fixed) > 0.25, "one τ's error follows the width");
    assert!(spread(&shaped) < 0.15, "the shape's rate follows it");
    // Nowhere slower than measured: what is left is the level, not the trend.
    assert!(shaped.iter().all(|&e| (0.0..0.35).contains(&e)), "{shaped:?}");

    // NVIDIA's NeMo on H100s at the shape's rate, no anchor.
    for row in tmath::throughput::ROWS.iter().filter(|r| r.stack == tmath::throughput::Stack::Nemo) {
        let mut c = tmath::link::config(row.query).unwrap();
        c.system.flops_per_gpu = tmath::shape::shape_rate(&c);
        let predicted = tmath::step::tokens_per_second_per_gpu(&c, &step_time(&c));
        let e = predicted / row.measured - 1.0;
        println!(
            "{:<16} shape tau {:>4.0} TFLOP/s  {predicted:>7.0} against {:>7.0} tokens/s/GPU ({:+.1} %)",
            row.name,
            c.system.flops_per_gpu / 1e12,
            row.measured,
            100.0 * e
        );
        assert!(e.abs() < 0.10, "{}: {e}", row.name);
    }
}

/// Time that follows the shape, end to end on a second source: Korthikanti et
/// al. 2022 (arXiv:2205.05198), Table 5, one iteration of four GPT models on
/// Selene's A100s (8 per node, one 200 Gb/s HDR link each) with no data
/// parallelism (Table 3: t 8; p 1, 8, 35 and 64; global batches 4, 64, 280
/// and 512; three virtual stages for 175B and 530B), s 2048, V 51,200,
/// mixed precision, the softmax before FlashAttention: full recomputation
/// 1.42, 18.13, 49.05 and 94.42 s; selective recomputation with sequence
/// parallelism 1.10, 13.75, 37.83 and 71.49 s. At the shape's rate, nothing
/// from these rows, the median |error| is within 8 % and none beyond 20 %.
/// What the model leaves out reads fast: the 2022 code's scatter-gather of
/// pipeline sends without sequence parallelism (the model sends Megatron-Core's
/// whole activation, 5.6 s of 530B's 49.6) would speed the full rows, while
/// sequence parallelism's all-gather and reduce-scatter "combined is slower
/// than an all-reduce alone" (§6.2), which the model counts as one all-reduce's
/// bytes; the article's τ (150 TFLOP/s) reads 11–31 % slow on all eight.
#[test]
fn korthikanti_end_to_end() {
    use tmath::step::step_time;
    // (model, heads, hidden, layers, p, global batch, micro-batch, v, full, selective with sequence parallelism)
    type Run = (&'static str, u64, u64, u64, u64, u64, u64, u64, f64, f64);
    let table: &[Run] = &[
        ("22B", 64, 6144, 48, 1, 4, 4, 1, 1.42, 1.10),
        ("175B", 96, 12288, 96, 8, 64, 1, 3, 18.13, 13.75),
        ("530B", 128, 20480, 105, 35, 280, 1, 3, 49.05, 37.83),
        ("1T", 160, 25600, 128, 64, 512, 1, 1, 94.42, 71.49),
    ];
    let mut errors = Vec::new();
    for &(name, a, h, l, p, g, b, v, full, selective) in table {
        for (recompute, measured) in [("recompute=full", full), ("recompute=selective&sequence-parallel=1", selective)]
        {
            let q = format!(
                "convention=megatron&gpu=a100-80gb&inter-node-gbs=25&precision=mixed&attention=standard&{recompute}&zero=0&mlp=gelu&tie-embeddings=1&vocab=51200&seq-len=2048&layers={l}&hidden={h}&heads={a}&ffn={}&tp=8&pp={p}&dp=1&vpp={v}&micro-batch={b}&global-batch={g}",
                4 * h
            );
            let mut c = tmath::link::config(&q).expect(name);
            c.system.flops_per_gpu = tmath::shape::shape_rate(&c);
            let st = step_time(&c);
            let e = measured / st.total - 1.0;
            println!(
                "{name:<5} {recompute:<40} measured {measured:>6.2} s  shape tau {:>4.0} TFLOP/s {:>6.2} s ({:+5.1} % fast)",
                c.system.flops_per_gpu / 1e12,
                st.total,
                100.0 * e
            );
            errors.push(e.abs());
        }
    }
    errors.sort_by(f64::total_cmp);
    let median = (errors[3] + errors[4]) / 2.0;
    println!("median |error| {:.1} % over 8 runs", 100.0 * median);
    assert!(median < 0.08, "{median}");
    assert!(errors[7] < 0.20, "{errors:?}");
}

/// Time that follows the shape, one layer at a time: Korthikanti et al. 2022
/// (arXiv:2205.05198), Table 4, one transformer layer of their 22B GPT (64
/// heads, h 6144, s 2048, micro-batch 4, t 8 on A100s, mixed precision, no
/// recomputation, the softmax before FlashAttention) takes 7.7 ms forward and
/// 11.9 ms backward, 19.6 ms. The shape's layer (its products, its attention,
/// its memory-bound kernels) and the step model's tensor-parallel all-reduces
/// of that layer, blocking as they were then, land within 10 % of it.
#[test]
fn a_22b_layer_as_measured() {
    let q = "convention=megatron&gpu=a100-80gb&precision=mixed&attention=standard&recompute=none&mlp=gelu&tie-embeddings=1&vocab=51200&seq-len=2048&layers=48&hidden=6144&heads=64&ffn=24576&tp=8&micro-batch=4&global-batch=4";
    let c = tmath::link::config(q).unwrap();
    let layers = c.arch.layers as f64;
    let layer = tmath::shape::layer_pass(&c, 0).total() + tmath::shape::attention_pass(&c).total() / layers;
    let tp = tmath::step::step_time(&c).tp_comm / layers;
    let seconds = layer + tp;
    println!(
        "22B layer: {:.2} ms ({:.2} ms of kernels, {:.2} ms of all-reduces) against 19.6 ms",
        seconds * 1e3,
        layer * 1e3,
        tp * 1e3
    );
    assert!((seconds / 19.6e-3 - 1.0).abs() < 0.10, "{seconds}");
}
