//! Properties over the whole input domain (proptest): 1 to 1e15 parameters,
//! 1 to 1e6 GPUs, every enum value.

mod common;
use proptest::prelude::*;
use tmath::config::{
    Attention, Convention, GradDtype, Mlp, Offload, Optimizer, Precision, Recompute, Schedule, ZeroStage,
};
use tmath::memory::Part;
use tmath::{evaluate, Settings};

fn log_uniform(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo.log10()..=hi.log10()).prop_map(|e| 10f64.powf(e).round().max(1.0))
}

prop_compose! {
    fn any_settings()(
        params in log_uniform(1.0, 1e15),
        tokens in log_uniform(1.0, 1e15),
        seq_len in 1u64..=131_072,
        micro_batch in 1u64..=64,
        grad_accum in 1u64..=512,
        hidden in 1u64..=65_536,
        layers in 1u64..=512,
        tp_exp in 0u32..=6,
        heads_mult in 1u64..=32,
        pp in 1u64..=128,
        dp in 1u64..=1_000_000,
        precision in prop::sample::select(Precision::ALL),
        grad in prop::option::of(prop::sample::select(GradDtype::ALL)),
        optimizer in prop::sample::select(Optimizer::ALL),
        recompute in prop::sample::select(Recompute::ALL),
        flags in (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
        zero in 0u64..=3,
        convention in prop::sample::select(Convention::ALL),
        gpu in prop::sample::select(tmath::catalog::GPUS.iter().map(|g| g.name).collect::<Vec<_>>()),
        shape in (prop::sample::select(Mlp::ALL), 1u64..=64, 1u64..=8, 0u64..=2),
        // The practice keys: cp, ep, schedule, checkpoint interval, overheads, offload tier, attention.
        practice in (
            0u32..=3,
            any::<bool>(),
            prop::sample::select(Schedule::ALL),
            1u64..=8,
            0.0f64..=4.0,
            0.0f64..=20.0,
            prop::sample::select(Offload::ALL),
            prop::option::of(prop::sample::select(Attention::ALL)),
        ),
    ) -> Settings {
        let tp = 2u64.pow(tp_exp);
        let heads = tp * heads_mult;
        // h is a whole number of heads; k divides a and t divides k (here t or a).
        let hidden = (hidden / heads).max(1) * heads;
        let (mlp, experts, top_k, shared) = shape;
        let (cp_exp, ep_two, schedule, every, reserve, fragmentation, offload, attention) = practice;
        let cp = 2u64.pow(cp_exp);
        // Every stage holds a layer (more stages are refused); an even split interleaves in two.
        let pp = pp.min(layers);
        let vpp = if ep_two && pp > 1 && layers % (2 * pp) == 0 { 2 } else { 1 };
        // Keep N within 1e6 GPUs.
        let dp = (dp / (tp * pp * cp)).max(1);
        // ep divides the experts and d·cp.
        let ep = if ep_two && experts % 2 == 0 && (dp * cp) % 2 == 0 { 2 } else { 1 };
        Settings {
            params: Some(params),
            tokens,
            seq_len: Some(seq_len),
            micro_batch,
            grad_accum: Some(grad_accum),
            hidden: Some(hidden),
            layers: Some(layers),
            heads: Some(heads),
            kv_heads: Some(if experts % 2 == 0 { heads } else { tp }),
            mlp: Some(mlp),
            experts: Some(experts),
            top_k: Some(top_k.min(experts)),
            shared_experts: Some(shared),
            tp,
            pp,
            dp: Some(dp),
            precision,
            grad_dtype: grad,
            optimizer,
            recompute,
            sequence_parallel: flags.0,
            partition_activations: flags.1,
            tsp: flags.2,
            offload: if flags.3 { offload } else { Offload::None },
            cp,
            ep,
            // DualPipe pairs stage i with p − 1 − i: an odd p is refused (tested in published.rs).
            schedule: if schedule == Schedule::DualPipe && pp % 2 == 1 { Schedule::OneFOneB } else { schedule },
            recompute_every: every,
            vpp,
            loss: tmath::config::Loss::ALL[every as usize % 3],
            loss_chunks: every,
            reserve_gb: Some(reserve),
            fragmentation_pct: Some(fragmentation),
            attention,
            zero: ZeroStage::new(zero).unwrap(),
            convention,
            gpu: tmath::catalog::gpu(gpu).unwrap(),
            ..Settings::default()
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn every_output_is_finite_and_non_negative(s in any_settings()) {
        let r = evaluate(&s.resolve().unwrap());
        let json = serde_json::to_value(&r).unwrap();
        for (key, value) in json.as_object().unwrap() {
            if let Some(x) = value.as_f64() {
                prop_assert!(x.is_finite() && x >= 0.0, "{key} = {x}");
            }
        }
        for (key, value) in json["per_gpu_bytes"].as_object().unwrap() {
            let x = value.as_f64().unwrap();
            prop_assert!(x.is_finite() && x >= 0.0 && x.fract() == 0.0, "{key} = {x}");
        }
    }

    #[test]
    fn parts_sum_to_the_total(s in any_settings()) {
        let r = evaluate(&s.resolve().unwrap());
        let json = serde_json::to_value(&r).unwrap();
        let b = &json["per_gpu_bytes"];
        let sum: f64 = tmath::memory::Part::ALL.iter().map(|p| b[p.json_name()].as_f64().unwrap()).sum();
        prop_assert_eq!(sum, b["total"].as_f64().unwrap());
        prop_assert_eq!(json["fits"].as_bool().unwrap(), sum <= json["gpu_mem_bytes"].as_f64().unwrap());
    }

    #[test]
    fn a_higher_zero_stage_never_raises_model_states(s in any_settings()) {
        let r = evaluate(&s.resolve().unwrap());
        let states: Vec<f64> = ZeroStage::ALL.iter().map(|&z| r.with_zero(z).per_gpu.model_states().get()).collect();
        for pair in states.windows(2) {
            prop_assert!(pair[1] <= pair[0], "{states:?}");
        }
    }

    #[test]
    fn more_data_parallelism_never_raises_model_states(s in any_settings(), extra in 2u64..=64) {
        let less = evaluate(&s.resolve().unwrap());
        let more = Settings { dp: Some(s.dp.unwrap() * extra), ..s };
        let more = evaluate(&more.resolve().unwrap());
        prop_assert!(more.per_gpu.model_states() <= less.per_gpu.model_states());
        // Stage by stage: with fewer model states per GPU the heaviest stage may become another one
        // (the last, with the output layer and the loss), but no stage's activations change.
        let acts = |r: &tmath::Report| r.stages().iter().map(|(_, m)| m[Part::Activations]).collect::<Vec<_>>();
        prop_assert_eq!(acts(&more), acts(&less));
    }

    #[test]
    fn conventions_agree_without_model_parallelism(s in any_settings(), grad in prop::sample::select(GradDtype::ALL)) {
        // The same attention under both: megatron's default is flash. (With p > 1
        // megatron sizes the first stage, embedding included.)
        let base = Settings { tp: 1, pp: 1, grad_dtype: Some(grad), attention: Some(Attention::Standard), ..s };
        let article = evaluate(&Settings { convention: Convention::Article, ..base.clone() }.resolve().unwrap());
        let megatron = evaluate(&Settings { convention: Convention::Megatron, ..base }.resolve().unwrap());
        let (a, m) = (article.per_gpu, megatron.per_gpu);
        // ZeRO-3's gathered parameters are each convention's framework's: DeepSpeed's
        // max_live_params under article, FSDP's units under megatron.
        prop_assert_eq!((a[Part::Model], a[Part::Gradients], a[Part::Optimizer]), (m[Part::Model], m[Part::Gradients], m[Part::Optimizer]));
        // Activations agree where the generalised count is the article's (k = a,
        // f = 4h, GeLU: SwiGLU keeps its 2f-wide input, 6·f/h; no experts), but for the
        // embedding and output terms megatron adds (its loss's s·b·V logits are a part
        // of their own, Part::Logits).
        let arch = article.config.arch;
        let gelu = arch.mlp == tmath::config::Mlp::Gelu;
        if arch.kv_heads == arch.heads && arch.ffn == 4 * arch.hidden && gelu && !arch.is_moe() {
            let c = &megatron.config;
            let (s, b, h) = (c.seq_len as f64, c.micro_batch as f64, arch.hidden as f64);
            let ends = (s * b * (8.0 + h) + 4.0 * s * b * h) / c.layout.cp as f64;
            prop_assert!((m[Part::Activations].get() - a[Part::Activations].get() - ends).abs() <= 1.0);
        }
    }

    /// The verdict's stage is the heaviest of all p, though only three are sized to find it;
    /// every stage holds its own layers, and they add up to L.
    #[test]
    fn the_peak_stage_is_the_heaviest_of_all(s in any_settings()) {
        let Ok(c) = s.resolve() else { return Ok(()) };
        let r = evaluate(&c);
        let stages = r.stages();
        let heaviest = stages.iter().map(|(_, m)| m.total()).fold(tmath::Bytes(0.0), |a, b| if b > a { b } else { a });
        prop_assert_eq!(r.per_gpu.total(), heaviest);
        // A DualPipe rank holds two stages: every layer twice over the ranks.
        let copies = if c.schedule == Schedule::DualPipe && c.layout.pp > 1 { 2 } else { 1 };
        prop_assert_eq!(stages.iter().map(|(s, _)| s.layers).sum::<u64>(), copies * c.arch.layers);
        prop_assert!(stages.first().is_some_and(|(s, _)| s.first) && stages.last().is_some_and(|(s, _)| s.last));
    }

    #[test]
    fn recomputation_trades_memory_for_compute(s in any_settings()) {
        // Checkpointing every k > 1 layers can hold more than selective recomputation: k = 1 here.
        let at = |recompute| evaluate(&Settings { recompute, recompute_every: 1, ..s.clone() }.resolve().unwrap());
        let (none, selective, full) = (at(Recompute::None), at(Recompute::Selective), at(Recompute::Full));
        // Stage by stage: the heaviest stage need not be the same one under each.
        let acts = |r: &tmath::Report| r.stages().iter().map(|(_, m)| m[Part::Activations]).collect::<Vec<_>>();
        let (n, sel, f) = (acts(&none), acts(&selective), acts(&full));
        for i in 0..n.len() {
            prop_assert!(f[i] <= sel[i] && sel[i] <= n[i], "stage {}: {:?} {:?} {:?}", i, f[i], sel[i], n[i]);
        }
        prop_assert!(none.hardware_flops() <= selective.hardware_flops() && selective.hardware_flops() <= full.hardware_flops());
    }

    #[test]
    fn settings_round_trip_through_pairs(s in any_settings()) {
        let (back, errors) = Settings::from_pairs(s.to_pairs());
        prop_assert!(errors.is_empty(), "{errors:?}");
        prop_assert_eq!(back, s);
    }

    /// Any text in any key: an error or a value, never a panic.
    #[test]
    fn arbitrary_pairs_never_panic(pairs in prop::collection::vec(("[a-z-]{1,20}|params|tp|zero|model|gpus|heads", ".{0,30}"), 0..12)) {
        let (settings, _errors) = Settings::from_pairs(pairs);
        if let Ok(config) = settings.resolve() {
            let r = evaluate(&config);
            prop_assert!(r.per_gpu.total().get().is_finite());
        }
    }

    #[test]
    fn fp_rounding_is_idempotent_and_monotone(x in -1e40f64..1e40, y in -1e40f64..1e40) {
        for f in tmath::fp::FORMATS {
            let ex = f.encode(x).value;
            if ex.is_finite() {
                prop_assert_eq!(f.encode(ex).value, ex);
            }
            let ey = f.encode(y).value;
            if x <= y && !ex.is_nan() && !ey.is_nan() {
                prop_assert!(ex <= ey, "{} {x} {y}", f.name);
            }
        }
    }
}

#[test]
fn extremes_evaluate() {
    for pairs in [
        vec![("params", "1"), ("tokens", "1"), ("layers", "1"), ("hidden", "1"), ("heads", "1")],
        vec![
            ("params", "1e16"),
            ("tokens", "1e18"),
            ("gpus", "1000000000"),
            ("seq-len", "10000000"),
            ("micro-batch", "1000000"),
            ("hidden", "10000000"),
            ("layers", "100000"),
            ("heads", "1000000"),
        ],
    ] {
        let r = common::eval(&pairs);
        assert!(r.per_gpu.total().get().is_finite(), "{pairs:?}");
        assert!(r.cost_usd().is_finite() && r.days().is_finite());
    }
}
