//! How close is the step time to reality (issues 26 and 39): every measured
//! run of `tmath::throughput` within 25 % of its tokens per second per GPU;
//! Megatron-LM's at the calculator's default rate (the shape's, nothing from
//! any row), with a median within 8 %; eager stacks at the rate their anchor
//! (the same software on the same GPU) achieved. The table is printed for the
//! closing note.

use tmath::step::step_time;
use tmath::throughput::{check, median_error, table, Checked, Rate, Stack, MEDIAN_LIMIT, ROWS, ROW_LIMIT};

#[test]
fn the_throughput_table_meets_its_threshold() {
    let rows = table();
    assert_eq!(rows.len(), ROWS.len(), "every row's query and anchor load");
    for r in &rows {
        println!(
            "{:<30} {:<26} {:>5} GPUs  tau {:>5.0} TFLOP/s ({:>4.1} % of peak)  measured {:>8.1}  model {:>8.1} tokens/s/GPU  error {:>+6.1} %{}",
            r.row.name,
            r.row.stack.name(),
            r.layout.gpus(),
            r.tau / 1e12,
            100.0 * r.peak_share,
            r.row.measured,
            r.predicted,
            100.0 * r.error(),
            match r.row.rate {
                Rate::Anchor => "  (anchor)",
                Rate::Default => "  (default rate)",
                Rate::Of(_) => "",
            },
        );
    }
    let counted = rows.iter().filter(|r| r.counts()).count();
    let median = median_error(&rows);
    println!("median |error| {:.1} % over {counted} runs (anchors not counted)", 100.0 * median);
    let default: Vec<Checked> = rows.iter().copied().filter(|r| r.row.rate == Rate::Default).collect();
    println!("at the default rate: median |error| {:.1} % over {} runs", 100.0 * median_error(&default), default.len());
    assert!(counted >= 12, "{counted} counted runs");
    // Issue 39: at least 15 runs from two further sources at the GPU's default rate.
    let further = [Stack::MegatronLm2021, Stack::MegatronLm2022];
    assert!(further.iter().all(|s| default.iter().any(|r| r.row.stack == *s)));
    assert!(default.iter().filter(|r| further.contains(&r.row.stack)).count() >= 15);
    assert!(median <= MEDIAN_LIMIT && median_error(&default) <= MEDIAN_LIMIT, "{median}");
    for r in &rows {
        assert!(r.within(), "{}: {:+.1} %", r.row.name, 100.0 * r.error());
    }
    assert_eq!((ROW_LIMIT, MEDIAN_LIMIT), (0.25, 0.08), "the issue's thresholds, pinned");
}

/// Each anchor runs at its own measured rate: the model's figure for it differs
/// only by what the model adds to its compute, and a row's anchor is one of its
/// own stack. A row at the default rate takes τ from no row: the shape's.
#[test]
fn anchors_are_anchors() {
    for row in ROWS {
        let c = check(row).expect(row.name);
        match row.rate {
            Rate::Of(name) => {
                let anchor = ROWS.iter().find(|r| r.name == name).expect(name);
                assert_eq!(anchor.rate, Rate::Anchor, "{}: its anchor is not an anchor", row.name);
                assert_eq!(anchor.stack, row.stack, "{}: an anchor of other software", row.name);
            }
            Rate::Anchor => {
                // Compute at τ is the measured rate; the model only adds (bubble, communication).
                assert!(c.predicted <= row.measured * (1.0 + 1e-9), "{}", row.name);
                assert!(c.error() > -0.1, "{}: the anchor itself is {:+.1} % off", row.name, 100.0 * c.error());
            }
            Rate::Default => {
                let config = tmath::link::config(row.query).unwrap();
                assert!(config.system.tau_from_shape, "{}", row.name);
                assert_eq!(c.tau, tmath::shape::shape_rate(&config), "{}", row.name);
            }
        }
        assert!(row.source.starts_with("https://") || row.source == tmath::validation::H200_RUNS, "{}", row.name);
    }
}

/// Narayanan et al. 2021's Table 1 prints each run's achieved TFLOP/s; the
/// table holds tokens per second, through the paper's FLOPs per token
/// (§5.1, eq. 3). By hand for the 1T row: 163 TFLOP/s over
/// 96·128·25600²·(1 + 2048/153600 + 51200/(16·128·25600)) = 8.15e15 FLOPs a
/// token is 20.0 tokens/s per GPU; Korthikanti's 1T iteration, 512 sequences
/// of 2,048 tokens in 94.42 s on 512 GPUs, 21.7.
#[test]
fn the_papers_figures_as_tokens() {
    let row = |name: &str| ROWS.iter().find(|r| r.name == name).unwrap().measured;
    let per_token =
        96.0 * 128.0 * 25600.0f64.powi(2) * (1.0 + 2048.0 / 153_600.0 + 51_200.0 / (16.0 * 128.0 * 25600.0));
    assert!((row("megatron-2021-1008b") - 163e12 / per_token).abs() < 1e-9);
    assert!((row("megatron-2021-1008b") - 20.0).abs() < 0.05);
    assert!((row("megatron-2022-1t-full") - 512.0 * 2048.0 / (94.42 * 512.0)).abs() < 1e-9);
}

/// Issue 39, time that follows the shape (`tmath::shape`): at one τ (the
/// A100's default, the article's 150 TFLOP/s) the error of Narayanan et al.
/// 2021's Table 1 follows the width: the small models read fast, the large
/// slow, a spread of 30 points. At the rate the shape gives (each product's
/// tile and wave quantization at the rate the GPU sustains, the scores' memory
/// traffic, the collectives at their measured bandwidth) the spread closes to
/// within 15 points, every row fast by 5–19 %: the 2021 code reduced the
/// gradients of 39B–1T after the pipeline's flush (`DDP_impl` local; torch DDP
/// overlapped only the last micro-batch's backward) and its kernels ran up to
/// 11 % slower three months earlier on the same machine
/// (`docs/research/shape-sources.md`), while the 2022 code's iterations land
/// within 5 % at the median.
#[test]
fn time_that_follows_the_shape() {
    let (mut fixed, mut shaped) = (Vec::new(), Vec::new());
    for row in ROWS.iter().filter(|r| r.stack == Stack::MegatronLm2021) {
        let mut c = tmath::link::config(row.query).expect(row.name);
        let at_shape = check(row).unwrap().error();
        c.system.tau_from_shape = false;
        let at_one = tmath::step::tokens_per_second_per_gpu(&c, &step_time(&c)) / row.measured - 1.0;
        println!("{:<22} one tau {:+6.1} %  shape {:+6.1} %", row.name, 100.0 * at_one, 100.0 * at_shape);
        fixed.push(at_one);
        shaped.push(at_shape);
    }
    let spread = |e: &[f64]| e.iter().cloned().fold(f64::MIN, f64::max) - e.iter().cloned().fold(f64::MAX, f64::min);
    println!("spread: one tau {:.1} points, the shape's {:.1}", 100.0 * spread(&fixed), 100.0 * spread(&shaped));
    assert_eq!(fixed.len(), 10);
    assert!(spread(&fixed) > 0.25, "one τ's error follows the width");
    assert!(spread(&shaped) < 0.15, "the shape's rate follows it");
    // Nowhere slower than measured: what is left is the level, not the trend.
    assert!(shaped.iter().all(|&e| (0.0..0.25).contains(&e)), "{shaped:?}");

    // Korthikanti et al. 2022, Table 5 (full recomputation; selective with sequence
    // parallelism) and NVIDIA's NeMo on H100s, at the shape's rate: within 5 % at the median.
    for stack in [Stack::MegatronLm2022, Stack::Nemo] {
        let rows: Vec<Checked> = ROWS.iter().filter(|r| r.stack == stack).map(|r| check(r).unwrap()).collect();
        assert!(rows.len() >= 6);
        assert!(median_error(&rows) < 0.05, "{}: {}", stack.name(), median_error(&rows));
    }
}

/// Time that follows the shape, one layer at a time: Korthikanti et al. 2022
/// (arXiv:2205.05198), Table 4, one transformer layer of their 22B GPT (64
/// heads, h 6144, s 2048, micro-batch 4, t 8 on A100s, mixed precision, no
/// recomputation, the softmax before FlashAttention) takes 7.7 ms forward and
/// 11.9 ms backward, 19.6 ms. The shape's layer (its products, its attention,
/// its memory-bound kernels) and the step model's tensor-parallel all-reduces
/// of that layer, at the bandwidth an all-reduce of that size measures, land
/// within 10 % of it.
#[test]
fn a_22b_layer_as_measured() {
    let q = "convention=megatron&gpu=a100-80gb&precision=mixed&attention=standard&recompute=none&mlp=gelu&tie-embeddings=1&vocab=51200&seq-len=2048&layers=48&hidden=6144&heads=64&ffn=24576&tp=8&micro-batch=4&global-batch=4";
    let c = tmath::link::config(q).unwrap();
    let layers = c.arch.layers as f64;
    let layer = tmath::shape::layer_pass(&c, 0).total() + tmath::shape::attention_pass(&c).total() / layers;
    let tp = step_time(&c).tp_comm / layers;
    let seconds = layer + tp;
    println!(
        "22B layer: {:.2} ms ({:.2} ms of kernels, {:.2} ms of all-reduces) against 19.6 ms",
        seconds * 1e3,
        layer * 1e3,
        tp * 1e3
    );
    assert!((seconds / 19.6e-3 - 1.0).abs() < 0.10, "{seconds}");
}
