//! `tmath`: the calculator on the command line. `tmath --help` lists the flags.

use std::process::ExitCode;
use tmath::json;
use tmath::keys::{self as settings, Kind, SettingError, State, Target, K, KEYS};
use tmath::memory::Part;
use tmath::units::{format_count, format_short, format_sig};
use tmath::{evaluate, Report, Settings};

/// One line of `--help` per key of the given targets, derived from the key
/// table; the default is the default state's own value.
fn key_help(targets: &[Target]) -> String {
    let mut s = String::new();
    let defaults = State::default();
    for k in KEYS.iter().filter(|k| targets.contains(&k.target())) {
        let what = match k.kind {
            Kind::Real { min, max } => format!("number {min}–{max:e}"),
            Kind::Whole { min, max } => format!("whole {min}–{max}"),
            Kind::Switch => "switch".to_string(),
            Kind::Choice(_) | Kind::List(_) => k.choices().join(" | "),
            Kind::Text { max_chars } => format!("text, up to {max_chars} characters"),
        };
        let default =
            defaults.value(k.name).filter(|v| !v.is_empty()).map(|v| format!("; default {v}")).unwrap_or_default();
        s.push_str(&format!("    --{:<22} {}\n    {:<24} [{what}{default}]\n", k.name, k.help, ""));
    }
    s
}

fn help() -> String {
    let mut s = String::from(
        "tmath — memory per GPU and compute of training a transformer (Transformer Math 101)\n\n\
         USAGE:\n    tmath [--KEY VALUE | --KEY=VALUE]... [--json]\n\n\
         Numbers take 7e9, 7000000000, 7,000,000,000, 7B, 70b, 1.4T, 175M, 2k (k=1e3, M=1e6, B/G=1e9, T=1e12),\n\
         and 70억, 1.4조 (억=1e8, 조=1e12); full-width digits and spaces are read too.\n\
         Switches take no value (or 1/0, true/false, on/off).\n\nKEYS (the same names as the page's URL):\n",
    );
    s.push_str(&key_help(&[Target::Calc]));
    s.push_str(
        "\nOUTPUT:\n    --json                   one JSON object (bytes as plain numbers)\n    \
         --megatron-args FILE     a Megatron-LM launch (its flags, or a model_config.yaml): its shape, layout and training keys; later flags override them\n    \
         --help                   this text\n\nSUBCOMMANDS:\n    plan                     the smallest cluster and the fastest layouts (tmath plan --help)\n\nEXAMPLE:\n    \
         tmath --model llama-2-70b --gpus 16 --zero 3 --recompute full --seq-len 4096\n",
    );
    s
}

/// What the command line asked for besides the keys.
#[derive(Default)]
struct Options {
    json: bool,
    /// `tmath plan --top K`: print only the K fastest layouts.
    top: Option<usize>,
}

/// Reads `--key value`, `--key=value` and bare switches of the given targets
/// into pairs, every key through its row of the table.
fn parse_args(args: &[String], targets: &[Target]) -> Result<(Vec<(String, String)>, Options), String> {
    let mut pairs = Vec::new();
    let mut options = Options::default();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        let Some(flag) = arg.strip_prefix("--") else {
            return Err(format!("unexpected argument '{arg}' (flags start with --; see --help)"));
        };
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (flag, None),
        };
        if name == "json" {
            options.json = true;
            continue;
        }
        let next_value = |i: &mut usize| match args.get(*i) {
            Some(next) if !next.starts_with("--") => {
                *i += 1;
                Some(next.clone())
            }
            _ => None,
        };
        // A Megatron-LM launch (its flags, or a model_config.yaml): its keys first, so that the flags after it override them.
        if name == "megatron-args" {
            let path = inline.or_else(|| next_value(&mut i)).ok_or("megatron-args needs a file")?;
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("megatron-args: cannot read '{path}': {e}"))?;
            let m = tmath::megatron::read(&text).map_err(|e| format!("megatron-args: {path}: {e}"))?;
            for (k, v, _) in m.pairs {
                pairs.push((k.to_string(), v));
            }
            if !m.no_effect.is_empty() {
                eprintln!("megatron-args: no effect on memory, compute or time: {}", m.no_effect.join(" "));
            }
            if !m.unused.is_empty() {
                eprintln!("megatron-args: not read (what they change is not modelled): {}", m.unused.join(" "));
            }
            continue;
        }
        if name == "top" && targets.contains(&Target::Plan) {
            let value = inline.or_else(|| next_value(&mut i)).ok_or("top needs a value")?;
            options.top = Some(value.parse().map_err(|_| format!("top: '{value}' must be a whole number"))?);
            continue;
        }
        let key = settings::key(name).ok_or_else(|| format!("unknown flag '--{name}' (see --help)"))?;
        if !targets.contains(&key.target()) {
            return Err(SettingError::Elsewhere { key: key.name, target: key.target() }.to_string());
        }
        let value = match inline.or_else(|| next_value(&mut i)) {
            Some(v) => v,
            None if key.is_switch() => "1".to_string(),
            None => return Err(format!("{} needs a value", key.name)),
        };
        pairs.push((key.name.to_string(), value));
    }
    Ok((pairs, options))
}

fn gb(x: tmath::Bytes) -> String {
    format!("{:>10}", format_sig(x.get() / 1e9))
}

fn receipt(r: &Report) -> String {
    let c = &r.config;
    let m = &r.per_gpu;
    let l = c.layout;
    let mut s = String::new();
    let name = c.model.map_or_else(|| format!("{} parameters", format_count(c.params.get())), |m| m.label.to_string());
    s += &format!(
        "{name}, {} precision, {}, ZeRO-{}, {} {} = t {} × p {}{} × d {}{}, {} ({} convention)\n\n",
        c.dtypes.precision,
        c.optimizer,
        c.zero.get(),
        l.gpus(),
        if l.gpus() == 1 { "GPU" } else { "GPUs" },
        l.tp,
        l.pp,
        if l.cp > 1 { format!(" × cp {}", l.cp) } else { String::new() },
        l.dp,
        if c.layout.ep > 1 { format!(", ep {}", c.layout.ep) } else { String::new() },
        c.system.gpu.label,
        c.convention
    );
    s += "MEMORY PER GPU                       GB (10⁹ bytes)\n";
    for part in Part::ALL {
        // What each number is made of, after its amount.
        let detail = match part {
            Part::Model => {
                let fp8 = tmath::memory::fp8_weight_bytes(c);
                format!(
                    "{} bytes/param ÷ {}{}",
                    tmath::memory::model_bytes(c.dtypes.precision).0,
                    format_short(r.divisors.model),
                    if fp8 != 0.0 { format!(", FP8 {} per GEMM weight", format_short(fp8)) } else { String::new() }
                )
            }
            Part::Gradients => format!(
                "{} bytes/param ÷ {}",
                tmath::memory::gradient_bytes(c.dtypes.grad_dtype).0,
                format_short(r.divisors.gradients)
            ),
            Part::Optimizer => format!(
                "{} bytes/param ÷ {}{}",
                tmath::memory::optimizer_bytes(c).0,
                format_short(r.divisors.optimizer),
                match c.offload {
                    tmath::config::Offload::None => "",
                    tmath::config::Offload::Optimizer => " (offloaded to CPU)",
                    tmath::config::Offload::OptimizerNvme => " (offloaded to NVMe)",
                    tmath::config::Offload::Params => " (offloaded to CPU with the weights)",
                }
            ),
            Part::Activations => format!(
                "recompute {}{}, s {} b {}{}",
                c.recompute,
                if c.recompute == tmath::config::Recompute::Full && c.recompute_every > 1 {
                    format!(" every {} layers", c.recompute_every)
                } else {
                    String::new()
                },
                c.seq_len,
                c.micro_batch,
                if l.pp > 1 { format!(", {} schedule", c.schedule) } else { String::new() }
            ),
            Part::Logits if m[part].get() > 0.0 => match c.loss {
                tmath::config::Loss::Chunked => format!("loss chunked in {}, last stage", c.loss_chunks),
                loss => format!("loss {loss}, last stage"),
            },
            Part::Buffers if m[part].get() > 0.0 => if c.sequence_parallel && c.layout.tp > 1 {
                "SP all-gather, cuBLAS workspace"
            } else {
                "cuBLAS workspace"
            }
            .to_string(),
            Part::Frozen if m[part].get() > 0.0 => format!("{} reference and reward", c.post.method),
            Part::Rollout if m[part].get() > 0.0 => format!("{} rollout engine, generation phase", c.post.engine),
            Part::Logits | Part::Buffers | Part::LiveParams | Part::Frozen | Part::Rollout => String::new(),
            Part::Reserve => {
                format!(
                    "{} GB + {} %",
                    format_short(c.system.reserve_bytes / 1e9),
                    format_short(c.system.fragmentation * 100.0)
                )
            }
        };
        s += format!("  {:<26} {}   {detail}", part.english(), gb(m[part])).trim_end();
        s += "\n";
    }
    s += "  ───────────────────────────────────\n";
    s += &format!("  total                      {}\n", gb(m.total()));
    s += &format!(
        "  GPU memory                 {}   ({} GiB)\n",
        gb(r.gpu_mem()),
        format_sig(c.system.gpu_mem_bytes / tmath::Bytes::GIB)
    );
    let verdict = if r.fits() {
        format!("fits, {} GB headroom", format_sig(r.headroom().get() / 1e9))
    } else {
        format!("DOES NOT FIT: {} GB over", format_sig(-r.headroom().get() / 1e9))
    };
    s += &format!("  → {verdict}\n");
    if l.pp > 1 {
        // What the pipeline's memory assumed: the micro-batches per step decide how many are in flight.
        let why = if r.m_follows_global_batch() {
            format!("from the global batch G = {} sequences", c.global_batch)
        } else {
            format!("given: global batch b·m·d = {} sequences", format_count(r.global_batch()))
        };
        s += &format!(
            "    m = {} micro-batches of b = {} on d = {} per step ({why})\n",
            c.grad_accum, c.micro_batch, l.dp
        );
    }
    if r.cpu_per_node.get() > 0.0 {
        s += &format!(
            "  CPU memory per node        {}   of {} GB: {}\n",
            gb(r.cpu_per_node),
            format_sig(c.system.cpu_mem_bytes / 1e9),
            if r.cpu_fits() { "fits" } else { "DOES NOT FIT" }
        );
    }
    if r.nvme_per_node.get() > 0.0 {
        s += &format!("  NVMe per node              {}   (the optimizer states)\n", gb(r.nvme_per_node));
    }
    s += &format!(
        "\nINFERENCE ({}, ×1.2)           {} GB\n",
        c.serving.inference_dtype,
        format_sig(r.inference.get() / 1e9)
    );
    let v = &r.serving;
    let sv = &c.serving;
    s += &format!(
        "\nSERVING  one replica of serve-tp {} × serve-pp {} = {} {}; {} {} of {} + {} tokens\n",
        sv.serve_tp,
        sv.serve_pp,
        v.gpus,
        if v.gpus == 1 { "GPU" } else { "GPUs" },
        sv.batch,
        if sv.batch == 1 { "sequence" } else { "sequences" },
        sv.prompt_tokens,
        sv.output_tokens
    );
    s += &format!(
        "  weights per GPU            {} GB   KV cache {} bytes per token per GPU\n",
        gb(tmath::Bytes(v.weights_bytes)),
        format_sig(v.kv_bytes_per_token)
    );
    s += &format!(
        "  KV pool per GPU            {} GB   = {} × {} GB − weights − engine reserve {} GB: {} tokens, max concurrency {}{}\n",
        gb(tmath::Bytes(v.kv_pool_bytes)),
        sv.mem_util,
        format_sig(tmath::serving::memory::engine_total_bytes(c) / 1e9),
        format_sig(v.engine_reserve_bytes / 1e9),
        format_count(v.kv_pool_tokens),
        format_sig(v.max_concurrency),
        if v.fits { "" } else { " — the batch's cache DOES NOT FIT" }
    );
    s += &format!(
        "  time to first token        {:>10} ms   prefill {} ms at {} TFLOP/s\n",
        format_sig(v.ttft_seconds * 1e3),
        format_sig(v.prefill_seconds * 1e3),
        format_sig(sv.flops_per_gpu / 1e12)
    );
    s += &format!(
        "  time per output token      {:>10} ms   {}-bound at {} GB/s{} (memory {} ms, compute {} ms, {} kernels {} ms, TP {} ms, PP {} ms, host {} ms); compute-bound from batch {} at a short context; at this context {}\n",
        format_sig(v.tpot_seconds * 1e3),
        if v.decode_bound == tmath::serving::Bound::Memory { "memory" } else { "compute" },
        format_sig(sv.hbm_bytes_per_s / 1e9),
        if v.weight_read_share < 1.0 {
            format!(", the weights at {} of it ({}'s kernels)", format_sig(v.weight_read_share), sv.inference_dtype.as_str())
        } else {
            String::new()
        },
        format_sig(v.decode.memory * 1e3),
        format_sig(v.decode.compute * 1e3),
        format_count(tmath::serving::time::kernels_per_step(c) * sv.serve_pp as f64),
        format_sig(v.decode.kernels * 1e3),
        format_sig(v.decode.tp_comm * 1e3),
        format_sig(v.decode.pp_comm * 1e3),
        format_sig(v.decode.host * 1e3),
        format_sig(v.crossover_batch),
        if v.crossover_batch_at_context.is_finite() {
            format!("from batch {}", format_sig(v.crossover_batch_at_context))
        } else {
            "never (each sequence's cache takes longer to read than to compute)".to_string()
        }
    );
    s += &format!(
        "  tokens/s                   {:>10}   per user; {} per GPU; a request {} s; ${} per million output tokens\n",
        format_sig(v.tokens_per_second_per_user),
        format_sig(v.output_tokens_per_second_per_gpu),
        format_sig(v.request_seconds),
        format_sig(v.usd_per_million_output_tokens)
    );
    s += "\nCOMPUTE\n";
    s += &format!(
        "  FLOPs                      {:>10}   forward {} + backward {}{} recompute {}{}\n",
        format_sig(r.flops().get()),
        format_sig(r.compute.forward.get()),
        format_sig(r.compute.backward.get()),
        if r.hardware_flops() != r.flops() { ";" } else { " +" },
        format_sig(r.compute.recompute.get()),
        if r.hardware_flops() != r.flops() { " (hardware work: in the time, not the FLOPs)" } else { "" }
    );
    s += &format!("  PetaFLOP-days              {:>10}\n", format_sig(r.petaflop_days()));
    s += &format!(
        "  GPU-hours                  {:>10}   at {} TFLOP/s achieved per GPU{}\n",
        format_sig(r.gpu_hours()),
        format_sig(r.step.tau / 1e12),
        if c.system.tau_from_shape { " (from the shape)" } else { "" }
    );
    if c.system.tau_from_shape {
        // Where the rate comes from (issue 39): the shape and layout of this run, not one τ.
        s += &format!(
            "  rate from the shape        {:>10}   TFLOP/s: each matrix product at its tiles' and waves' share of {} TFLOP/s (the rate it sustains), attention at FlashAttention's, the rest at {} GB/s; tflops=N overrides it\n",
            format_sig(r.step.tau / 1e12),
            format_sig(c.system.gpu.sustained_tflops()),
            format_sig(c.system.gpu.achieved_hbm_gbs())
        );
    }
    s += &format!("  days on {:<6} GPUs        {:>10}\n", l.gpus(), format_sig(r.days()));
    s += &format!(
        "  cost (USD)                 {:>10}   at ${}/GPU-hour\n",
        format_sig(r.cost_usd()),
        c.system.usd_per_gpu_hour
    );
    s += &format!(
        "\nCHINCHILLA  D/P = {} (compute-optimal 20): D = 20P = {} tokens; the article advises ≥ 200B\n",
        format_sig(r.tokens_per_param()),
        format_count(r.chinchilla_tokens().get())
    );
    s += &format!(
        "PARALLELISM  global batch {} sequences ({} tokens), pipeline bubble {}% of the step (b/(1+b)); {}% of the ideal step time, b = {} ({} schedule), DP traffic {} GB/GPU/step\n",
        format_count(r.global_batch()),
        format_count(r.tokens_per_step()),
        format_sig(100.0 * r.bubble_fraction()),
        format_sig(100.0 * r.bubble()),
        tmath::step::bubble_formula(&r.config),
        r.config.schedule.as_str(),
        format_sig(r.dp_comm().get() / 1e9)
    );
    for w in &r.warnings {
        s += &format!("warning: {w}\n");
    }
    s
}

fn plan_help() -> String {
    let mut s = String::from(
        "tmath plan — every layout of the model on N GPUs (--gpus), or on the fewest that fit,\n\
         fastest first, with the minimum GPU count.\n\nUSAGE:\n    tmath plan [calculator flags] [planner flags] [--top K] [--json]\n\n\
         PLANNER FLAGS:\n",
    );
    s.push_str(&key_help(&[Target::Plan]));
    s.push_str("    --top K                  print only the K fastest layouts\n");
    s.push_str("\nEXAMPLE:\n    tmath plan --model llama-2-70b --seq-len 4096 --gpu a100-80gb --json\n");
    s
}

fn plan(args: &[String]) -> Result<String, String> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Ok(plan_help());
    }
    let (pairs, cli) = parse_args(args, &[Target::Calc, Target::Plan])?;
    let (state, errors) = State::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    if let Some(e) = errors.first() {
        return Err(e.to_string());
    }
    let config = state.settings.resolve().map_err(|e| e.to_string())?;
    // Planned on the GPUs the command names, else on the fewest that fit.
    let layout_keys = [K::Gpus, K::Dp, K::Tp, K::Pp].map(K::name);
    let n = pairs.iter().any(|(k, _)| layout_keys.contains(&k.as_str())).then(|| config.layout.gpus());
    let options = state.plan;
    if options.serve {
        return Ok(serve_plan(&state.settings, &options, cli));
    }
    let mut report = tmath::planner::plan(&config, &options, n);
    if let Some(k) = cli.top {
        report.layouts.truncate(k);
    }
    if cli.json {
        return json::to_tree(&report).map(|t| json::to_json(&t)).map_err(|e| e.to_string());
    }
    let mut s = match report.min_gpus {
        Some(m) => format!(
            "minimum GPUs: {m} (with {} GB reserve and {}% fragmentation)\n",
            format_short(config.system.reserve_bytes / 1e9),
            format_short(config.system.fragmentation * 100.0)
        ),
        None => format!("no layout fits on up to {} GPUs\n", options.max_gpus),
    };
    s += &format!("layouts on {} GPUs, fastest first (global batch {} sequences):\n", report.gpus, config.global_batch);
    s += "   tp   pp  vpp   cp     dp  zero  recompute  sp     b     m   GB/GPU   s/step  fits\n";
    for l in &report.layouts {
        s += &format!(
            "{:>5}{:>5}{:>5}{:>5}{:>7}{:>6}  {:<9}  {:<3}{:>6}{:>6}{:>9}{:>9}  {}\n",
            l.tp,
            l.pp,
            l.vpp,
            l.cp,
            l.dp,
            l.zero.get(),
            l.recompute.as_str(),
            if l.sequence_parallel { "on" } else { "off" },
            l.micro_batch,
            l.grad_accum,
            format_sig(l.needed_bytes / 1e9),
            format_sig(l.step_seconds),
            if l.fits { "yes" } else { "no" }
        );
    }
    if let Some(why) = report.none {
        s += &format!("no layout fits on {} GPUs: {why}\n", report.gpus);
    }
    Ok(s)
}

/// `tmath plan --serve`: the replicas that serve `batch` users within the targets, cheapest first.
fn serve_plan(settings: &Settings, options: &tmath::planner::PlanOptions, cli: Options) -> String {
    let mut report = tmath::serve_plan::plan(settings, options);
    if let Some(k) = cli.top {
        report.replicas.truncate(k);
    }
    if cli.json {
        return json::to_tree(&report).map(|t| json::to_json(&t)).unwrap_or_else(|e| e.to_string());
    }
    let target =
        |t: Option<f64>, what: &str| t.map(|x| format!(", {what} ≤ {} ms", format_sig(x * 1e3))).unwrap_or_default();
    let mut s = format!(
        "serving {} users of {} + {} tokens on {}{}{}; replicas that meet it, cheapest first:\n",
        report.users,
        settings.prompt_tokens,
        settings.output_tokens,
        settings.gpu.name,
        target(report.max_tpot_seconds, "time per output token"),
        target(report.max_ttft_seconds, "time to first token"),
    );
    s += "   tp   pp  format  users/replica  replicas   GPUs  GB weights/GPU  TTFT ms  TPOT ms  tok/s/user     $/M tokens  meets\n";
    for r in &report.replicas {
        let v = &r.serving;
        s += &format!(
            "{:>5}{:>5}  {:<6}{:>15}{:>10}{:>7}{:>16}{:>9}{:>9}{:>12}{:>15}  {}\n",
            r.serve_tp,
            r.serve_pp,
            r.format.as_str(),
            r.users_per_replica,
            r.replicas,
            r.gpus,
            format_sig(v.weights_bytes / 1e9),
            format_sig(v.ttft_seconds * 1e3),
            format_sig(v.tpot_seconds * 1e3),
            format_sig(v.tokens_per_second_per_user),
            if r.miss.is_none() { format_sig(v.usd_per_million_output_tokens) } else { "—".into() },
            match r.miss {
                None => "yes",
                Some(tmath::serve_plan::Miss::Memory) => "no: one request's KV cache does not fit",
                Some(tmath::serve_plan::Miss::Tpot) => "no: time per output token above target at one user",
                Some(tmath::serve_plan::Miss::Ttft) => "no: time to first token above target at one user",
            }
        );
    }
    s
}

fn run(args: &[String]) -> Result<String, String> {
    if args.first().is_some_and(|a| a == "plan") {
        return plan(&args[1..]);
    }
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Ok(help());
    }
    let (pairs, cli) = parse_args(args, &[Target::Calc])?;
    let (settings, errors) = Settings::from_pairs(pairs);
    if let Some(e) = errors.first() {
        return Err(e.to_string());
    }
    let config = settings.resolve().map_err(|e| e.to_string())?;
    let report = evaluate(&config);
    if cli.json {
        json::to_tree(&report).map(|t| json::to_json(&t)).map_err(|e| e.to_string())
    } else {
        Ok(receipt(&report))
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(out) => {
            // A reader that stops early (`tmath … | head`) is not an error worth a panic.
            use std::io::Write;
            let _ = writeln!(std::io::stdout(), "{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tmath: error: {e}");
            ExitCode::from(2)
        }
    }
}
