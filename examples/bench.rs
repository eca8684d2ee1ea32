//! Native speed of one full evaluation (every formula, warnings included).
//! `cargo run --profile bench-native --example bench` prints the figures.

use std::hint::black_box;
use std::time::Instant;
use tmath::{evaluate, Settings};

fn main() {
    let configs: Vec<_> = [
        vec![],
        vec![
            ("model", "llama-3-405b"),
            ("tp", "8"),
            ("pp", "16"),
            ("dp", "128"),
            ("zero", "1"),
            ("recompute", "selective"),
        ],
        vec![("model", "llama-2-70b"), ("gpus", "16"), ("zero", "3"), ("recompute", "full"), ("seq-len", "4096")],
        vec![("params", "7.5B"), ("gpus", "64"), ("zero", "2"), ("tokens", "10B")],
    ]
    .into_iter()
    .map(|pairs| Settings::from_pairs(pairs).0.resolve().expect("valid"))
    .collect();

    // Warm up, then time one million evaluations over the four configurations.
    for c in &configs {
        black_box(evaluate(black_box(c)));
    }
    let n = 1_000_000;
    let start = Instant::now();
    let mut sink = 0.0;
    for i in 0..n {
        sink += evaluate(black_box(&configs[i % configs.len()])).per_gpu.total().get();
    }
    let elapsed = start.elapsed();
    black_box(sink);
    println!("evaluate: {:.0} ns per full evaluation", elapsed.as_nanos() as f64 / n as f64);
    println!("evaluate: {:.3} s for {n} evaluations", elapsed.as_secs_f64());

    // Serving alone (issue 36), within the evaluation above: the replica's memory, its roofline and the crossover.
    let start = Instant::now();
    for i in 0..n {
        sink += tmath::serving::evaluate(black_box(&configs[i % configs.len()])).tpot_seconds;
    }
    black_box(sink);
    println!(
        "serving: {:.0} ns per serving evaluation (part of the above)",
        start.elapsed().as_nanos() as f64 / n as f64
    );

    let start = Instant::now();
    for _ in 0..100_000 {
        black_box(Settings::from_pairs(black_box([("model", "llama-2-70b"), ("gpus", "16"), ("zero", "3")])));
    }
    println!("parse: {:.0} ns per 3-key query", start.elapsed().as_nanos() as f64 / 100_000.0);

    // The planner on Llama 3 405B: the minimum-GPU search up to 16384 and every layout on 16384.
    let base = Settings::from_pairs([("model", "llama-3-405b"), ("gpu", "h100-80gb")]).0.resolve().expect("valid");
    let options = tmath::planner::PlanOptions::default();
    let runs = 20;
    let start = Instant::now();
    let mut count = 0;
    for _ in 0..runs {
        let report = tmath::planner::plan(black_box(&base), &options, Some(16384));
        count = report.layouts.len();
        black_box(report);
    }
    println!(
        "planner: {:.2} ms for min_gpus (N ≤ 16384) + {count} layouts on 16384 GPUs",
        start.elapsed().as_secs_f64() * 1e3 / runs as f64
    );
}
