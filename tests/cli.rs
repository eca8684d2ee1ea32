//! The `tmath` command line: JSON, receipt, help and one-line errors with exit code 2.

use std::process::Command;

fn tmath(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tmath")).args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn json_has_every_spec_key() {
    let (code, out, err) = tmath(&["--params", "7B", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in [
        "params",
        "active_params",
        "tokens",
        "gpus",
        "tp",
        "pp",
        "dp",
        "per_gpu_bytes",
        "gpu_mem_bytes",
        "fits",
        "inference_bytes",
        "flops",
        "gpu_hours",
        "days",
        "petaflop_days",
        "cost_usd",
        "chinchilla_tokens",
        "warnings",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    for key in ["model", "gradients", "optimizer", "activations", "logits", "buffers", "zero3_live_params", "total"] {
        assert!(v["per_gpu_bytes"].get(key).is_some(), "missing per_gpu_bytes.{key}");
    }
    assert_eq!(v["per_gpu_bytes"]["optimizer"], 84e9);
    // The article's formulas have no loss and no framework buffers.
    assert_eq!((v["per_gpu_bytes"]["logits"].as_f64(), v["per_gpu_bytes"]["buffers"].as_f64()), (Some(0.0), Some(0.0)));
    // The practice keys' fields (SPEC "Added with the practice keys").
    for key in [
        "flops_with_attention",
        "bubble_fraction",
        "kv_cache_bytes",
        "inference_total_bytes",
        "max_context_tokens",
        "cpu_bytes_per_node",
        "cpu_fits",
        "notes",
        "step_time",
        "tokens_per_second_per_gpu",
        "mfu",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert!(v["per_gpu_bytes"].get("reserve").is_some());
    // Issue 26's step time, part by part (seconds).
    for key in ["compute", "bubble", "tp_comm", "dp_comm", "cp_comm", "ep_comm", "exposed_comm", "total"] {
        assert!(v["step_time"][key].as_f64().is_some(), "missing step_time.{key}");
    }
    // Every calculation key is echoed: as its name with '_', or in bytes.
    for k in tmath::keys::KEYS.iter().filter(|k| k.target() == tmath::keys::Target::Calc) {
        let name = k.name.replace('-', "_");
        assert!(v.get(&name).is_some() || v.get(format!("{name}_bytes")).is_some(), "no echo of {}", k.name);
    }
}

/// The SPEC's check values, through the binary.
#[test]
fn json_reproduces_spec_check_values() {
    let json = |args: &[&str]| -> serde_json::Value {
        let mut a = args.to_vec();
        a.push("--json");
        let (code, out, err) = tmath(&a);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).unwrap()
    };
    let v = json(&["--params", "7B"]);
    assert_eq!(v["model_states_bytes"], 112e9);
    assert_eq!(v["inference_bytes"], 16.8e9);
    for (zero, gb) in [("0", 120.0), ("1", 31.40625), ("2", 16.640625), ("3", 1.875)] {
        let v = json(&["--params", "7.5B", "--gpus", "64", "--zero", zero]);
        assert_eq!(v["model_states_bytes"].as_f64().unwrap(), gb * 1e9, "ZeRO-{zero}");
    }
    let v = json(&["--params=70B", "--tokens=1.4T"]);
    assert_eq!(v["flops"].as_f64().unwrap(), 6.0 * 70e9 * 1.4e12);
    assert_eq!(v["chinchilla_tokens"].as_f64().unwrap(), 1.4e12);
    let v = json(&["--pp", "4", "--grad-accum", "16"]);
    assert_eq!(v["pipeline_bubble"], 0.1875);
}

#[test]
fn switches_take_an_optional_value() {
    let (_, a, _) = tmath(&["--tp", "8", "--sequence-parallel", "--json"]);
    let (_, b, _) = tmath(&["--tp", "8", "--sequence-parallel", "1", "--json"]);
    let (_, c, _) = tmath(&["--tp", "8", "--json"]);
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn receipt_and_help() {
    let (code, out, _) =
        tmath(&["--model", "llama-2-70b", "--gpus", "16", "--zero", "3", "--recompute", "full", "--seq-len", "4096"]);
    assert_eq!(code, 0);
    assert!(out.contains("fits"), "{out}");
    assert!(out.contains("GB"));
    let (code, out, _) = tmath(&["--help"]);
    assert_eq!(code, 0);
    use tmath::keys::{Target, KEYS};
    for k in KEYS.iter().filter(|k| k.target() == Target::Calc) {
        assert!(out.contains(&format!("--{}", k.name)), "--help lacks --{}", k.name);
    }
    let (_, plan_help, _) = tmath(&["plan", "--help"]);
    for k in KEYS.iter().filter(|k| k.target() == Target::Plan) {
        assert!(plan_help.contains(&format!("--{}", k.name)), "plan --help lacks --{}", k.name);
    }
}

/// `tmath plan --serve` answers the engineer's question of issue 36 with numbers:
/// Llama 3 70B for 32 users at 8k context, two H100s named among the replicas.
#[test]
fn plan_serve_answers_with_replicas() {
    let args = [
        "plan",
        "--serve",
        "--model",
        "llama-3-70b",
        "--gpu",
        "h100-80gb",
        "--batch",
        "32",
        "--prompt-tokens",
        "8192",
        "--output-tokens",
        "512",
        "--max-tpot-ms",
        "30",
    ];
    let (code, out, err) = tmath(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("serving 32 users of 8192 + 512 tokens on h100-80gb, time per output token ≤ 30"), "{out}");
    let first = out.lines().nth(2).unwrap();
    assert!(first.trim_end().ends_with("yes"), "{out}");
    assert!(out.lines().any(|l| l.contains("fp16") && l.ends_with("no: one request's KV cache does not fit")), "{out}");
    let mut json_args = args.to_vec();
    json_args.extend(["--top", "3", "--json"]);
    let (code, out, _) = tmath(&json_args);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["users"], 32);
    assert_eq!(v["replicas"].as_array().unwrap().len(), 3);
    assert!(v["replicas"][0]["serving"]["tpot_seconds"].as_f64().unwrap() <= 0.030);
    assert!(v["replicas"][0]["miss"].is_null());
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for (args, needle) in [
        (&["--bogus", "1"][..], "unknown flag"),
        (&["--params", "seven"], "not a number"),
        (&["--params", "-7B"], "outside 1 to"),
        (&["--params", "--json"], "params needs a value"),
        (&["--lang", "ko"], "page"),
        (&["--max-gpus", "8"], "tmath plan"),
        (&["--gpus", "0"], "gpus"),
        (&["--gpus", "16", "--tp", "2", "--dp", "4"], "≠"),
        (&["--tp", "3"], "does not divide"),
        // Megatron-LM splits the key/value heads too: Qwen2.5 7B has 4, Llama 3 8B 8.
        (&["--model", "qwen2.5-7b", "--tp", "7"], "tp 7 does not divide the 4 key/value heads"),
        (&["--model", "llama-3-8b", "--tp", "16"], "tp 16 does not divide the 8 key/value heads"),
        (&["--zero", "4"], "zero"),
        (&["--zero", "1.5"], "whole"),
        (&["--params"], "needs a value"),
        (&["--precision", "fp8"], "not one of"),
        (&["stray"], "unexpected argument"),
        (&["--params", "1e400"], "too large"),
        (&["--params", "1,5"], "not a number"),
        // SPEC "Bad input", the shape keys.
        (&["--params", "7B", "--active-params", "70B"], "active-params 70B is above params 7B"),
        (&["--hidden", "4100", "--heads", "32"], "hidden 4100 is not a multiple of heads 32"),
        (&["--heads", "32", "--kv-heads", "5"], "kv-heads 5 does not divide heads 32"),
        (&["--experts", "8", "--top-k", "9"], "top-k 9 is above experts 8"),
        (&["--mlp", "relu"], "not one of"),
        (&["--pp", "4", "--pp-layout", "Et*8|t*8|t*8|t*9L"], "pp-layout: it places 33 layers, the model has 32"),
        (&["--pp", "4", "--pp-layout", "Et*8|t*8|(t*8|t*8L"], "pp-layout: a parenthesis"),
        (&["--pp", "3", "--pp-layout", "Et*8|t*8|t*8|t*8L"], "pp-layout: its 4 stages are not a multiple of pp 3"),
        // Issue 36: a serving replica that cannot exist.
        (&["--serve-tp", "0"], "serve-tp"),
        (&["--serve-tp", "3"], "serve-tp 3 does not divide the 32 attention heads"),
        (&["--serve-pp", "64"], "serve-pp 64 is above the 32 layers"),
        (&["--inference-dtype", "q4_k_s"], "not one of"),
        (&["--mem-util", "1.5"], "mem-util"),
        (&["plan", "--serve", "--max-tpot-ms", "0"], "max-tpot-ms"),
        (&["plan", "--serve", "--serve-tp", "3"], "serve-tp 3 does not divide"),
    ] {
        let (code, out, err) = tmath(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}

/// Numbers as people type them (issue 18): the same forms as the page and the URL.
#[test]
fn numbers_in_the_forms_people_type() {
    for (text, value) in [("７Ｂ", 7e9), ("7 B", 7e9), ("7,000,000,000", 7e9), ("70억", 7e9), ("1.4조", 1.4e12)] {
        let (code, out, err) = tmath(&["--params", text, "--json"]);
        assert_eq!(code, 0, "{text}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["params"], value, "{text}");
    }
}

/// A reader that stops early (`tmath … | head`) gets no panic: here the reading
/// end of the pipe is closed before tmath writes.
#[test]
fn a_closed_pipe_is_not_a_panic() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tmath"))
        .args(["--help"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("ends");
    assert!(out.status.success(), "{:?}: {}", out.status, String::from_utf8_lossy(&out.stderr));
}

/// Issue 25: `--megatron-args FILE` reads a launch; flags after it override
/// its keys; what it did not use goes to stderr; a missing file is exit 2.
#[test]
fn megatron_args() {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/megatron-mixtral-8x7b.yaml");
    let (code, out, err) = tmath(&["--megatron-args", fixture, "--json"]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((j["tp"].as_u64(), j["pp"].as_u64(), j["vpp"].as_u64()), (Some(2), Some(4), Some(8)));
    assert_eq!(j["experts"].as_u64(), Some(8));
    assert!(err.contains("--tokenizer-type"), "{err}");
    // The fewest GPUs for etp·ep = 1·8 of t·d·cp = 2·d (32), overridden by a later flag.
    assert_eq!((j["gpus"].as_u64(), j["etp"].as_u64()), (Some(32), Some(1)));
    let (code, out, _) = tmath(&["--megatron-args", fixture, "--gpus", "128", "--json"]);
    assert_eq!(code, 0);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((j["gpus"].as_u64(), j["dp"].as_u64()), (Some(128), Some(16)));
    let (code, _, err) = tmath(&["--megatron-args", "/no/such/file"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
}
