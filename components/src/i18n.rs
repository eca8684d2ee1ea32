//! Korean and English: a hand-written table (about a hundred strings cost
//! nothing in size, unlike an ICU-backed i18n crate). Terms follow the Korean
//! translation of the article: 활성값, 옵티마이저 상태, 그래디언트, 혼합 정밀도.

use tmath::settings::SettingError;
use tmath::units::{format_count, format_sig};
use tmath::{ConfigError, Warning};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    Ko,
    En,
}

impl Lang {
    pub fn parse(s: &str) -> Option<Lang> {
        let s = s.trim().to_ascii_lowercase();
        if s.starts_with("ko") {
            Some(Lang::Ko)
        } else if s.starts_with("en") {
            Some(Lang::En)
        } else {
            None
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Lang::Ko => "ko",
            Lang::En => "en",
        }
    }
}

/// The text for `key` in `lang`; the key itself if missing (a test looks for that).
pub fn tr(lang: Lang, key: &str) -> &'static str {
    let (en, ko) = match key {
        "title" => ("Transformer Math calculator", "트랜스포머 수학 계산기"),
        "subtitle" => (
            "Memory per GPU and compute of training a transformer, from EleutherAI's Transformer Math 101",
            "EleutherAI의 「트랜스포머 수학 101」 식으로 계산한 GPU당 메모리와 학습 계산량",
        ),
        "section-model" => ("Model", "모델"),
        "section-data" => ("Data", "데이터"),
        "section-training" => ("Training", "학습 설정"),
        "section-parallel" => ("Parallelism", "병렬화"),
        "section-hardware" => ("Hardware and cost", "하드웨어와 비용"),
        "section-memory" => ("Memory per GPU", "GPU당 메모리"),
        "section-zero" => ("The same run under ZeRO 0–3", "ZeRO 0–3 단계별 비교"),
        "section-compute" => ("Compute", "계산량"),
        "section-chinchilla" => ("Chinchilla", "친칠라"),
        "model" => ("Preset", "모델 프리셋"),
        "custom" => ("custom", "직접 입력"),
        "params" => ("Parameters P", "파라미터 수 P"),
        "active-params" => ("Active parameters (MoE)", "토큰당 활성 파라미터 (MoE)"),
        "tokens" => ("Training tokens D", "학습 토큰 수 D"),
        "seq-len" => ("Sequence length s", "시퀀스 길이 s"),
        "micro-batch" => ("Micro-batch per GPU b", "GPU당 마이크로배치 b"),
        "grad-accum" => ("Micro-batches per step m", "스텝당 마이크로배치 수 m"),
        "hidden" => ("Hidden size h", "은닉 차원 h"),
        "layers" => ("Layers L", "층 수 L"),
        "heads" => ("Attention heads a", "어텐션 헤드 수 a"),
        "vocab" => ("Vocabulary V", "어휘 크기 V"),
        "precision" => ("Precision", "정밀도"),
        "grad-dtype" => ("Gradient dtype", "그래디언트 타입"),
        "grad-dtype-auto" => ("as the model", "모델과 같게"),
        "optimizer" => ("Optimizer", "옵티마이저"),
        "recompute" => ("Activation recomputation", "활성값 재계산"),
        "sequence-parallel" => ("Sequence parallelism", "시퀀스 병렬화"),
        "partition-activations" => ("Partition activations (ZeRO-R)", "활성값 분할 (ZeRO-R)"),
        "tsp" => ("Folded tensor+sequence parallelism", "텐서+시퀀스 접힘 병렬화 (TSP)"),
        "offload" => ("Optimizer offload to CPU", "옵티마이저 CPU 오프로드"),
        "zero" => ("ZeRO stage", "ZeRO 단계"),
        "tp" => ("Tensor parallel t", "텐서 병렬 t"),
        "pp" => ("Pipeline parallel p", "파이프라인 병렬 p"),
        "dp" => ("Data parallel d", "데이터 병렬 d"),
        "gpus" => ("GPUs N = t·p·d", "GPU 수 N = t·p·d"),
        "gpu" => ("GPU", "GPU"),
        "max-live-params" => ("ZeRO-3 max live parameters", "ZeRO-3 최대 라이브 파라미터"),
        "gpu-mem" => ("Memory per GPU", "GPU 메모리"),
        "tflops" => ("Achieved TFLOP/s per GPU", "GPU당 실측 TFLOP/s"),
        "usd-per-gpu-hour" => ("Price per GPU-hour", "GPU-시간당 가격"),
        "inference-dtype" => ("Inference dtype", "추론 데이터 타입"),
        "convention" => ("Convention", "계산 방식"),
        "units" => ("Units", "단위"),
        "lang" => ("Language", "언어"),
        "part-model" => ("weights", "모델 가중치"),
        "part-gradients" => ("gradients", "그래디언트"),
        "part-optimizer" => ("optimizer states", "옵티마이저 상태"),
        "part-activations" => ("activations", "활성값"),
        "part-zero3-live-params" => ("ZeRO-3 live params", "ZeRO-3 라이브 파라미터"),
        "total" => ("total per GPU", "GPU당 합계"),
        "summary" => ("Result at a glance", "결과 요약"),
        "capacity" => ("GPU memory", "GPU 메모리 용량"),
        "training" => ("training", "학습"),
        "inference" => ("inference", "추론"),
        "fits" => ("fits", "들어감"),
        "headroom" => ("headroom", "여유"),
        "does-not-fit" => ("does not fit", "들어가지 않음"),
        "over-by" => ("over by", "초과"),
        "flops" => ("Training compute C", "학습 계산량 C"),
        "forward" => ("forward 2PD", "순전파 2PD"),
        "backward" => ("backward 4PD", "역전파 4PD"),
        "recompute-extra" => ("recomputation", "재계산"),
        "petaflop-days" => ("PetaFLOP-days", "페타플롭-일"),
        "gpu-hours" => ("GPU-hours", "GPU-시간"),
        "days" => ("Wall-clock days", "학습 기간(일)"),
        "cost" => ("Cost", "비용"),
        "chinchilla-ratio" => ("tokens per parameter D/P", "파라미터당 토큰 수 D/P"),
        "chinchilla-optimal" => ("compute-optimal D = 20P", "계산 최적 D = 20P"),
        "chinchilla-floor" => (
            "The article advises against training an LLM on fewer than 200B tokens.",
            "원문은 LLM을 2,000억(200B) 토큰보다 적게 학습하는 것을 권하지 않습니다.",
        ),
        "bubble" => ("pipeline bubble (p−1)/m", "파이프라인 버블 (p−1)/m"),
        "global-batch-label" => ("global batch", "전역 배치"),
        "sequences" => ("sequences", "시퀀스"),
        "cpu-per-node" => ("CPU memory per node (offload)", "노드당 CPU 메모리 (오프로드)"),
        "inference-note" => ("inference, whole model ≈ 1.2 × weights", "추론, 모델 전체 ≈ 1.2 × 가중치"),
        "stale" => (
            "This combination is impossible; the numbers below are from the last valid one.",
            "이 조합은 불가능합니다. 아래 숫자는 마지막으로 올바른 조합의 결과입니다.",
        ),
        "bad-keys" => ("Ignored in the link, defaults used:", "링크에서 무시하고 기본값을 쓴 항목:"),
        "copy-link" => ("Copy link", "링크 복사"),
        "copied" => ("Copied", "복사됨"),
        "source" => (
            "Source: Transformer Math 101 (EleutherAI, CC BY 4.0)",
            "출처: 트랜스포머 수학 101 (EleutherAI, CC BY 4.0)",
        ),
        "unit-note-gb" => ("GB = 10⁹ bytes", "GB = 10⁹ 바이트"),
        "unit-note-gib" => ("GiB = 2³⁰ bytes", "GiB = 2³⁰ 바이트"),
        "article" => ("article (verbatim)", "원문 그대로"),
        "megatron" => ("Megatron (per rank)", "Megatron (랭크별)"),
        "none" => ("none", "없음"),
        "selective" => ("selective", "선택적"),
        "full" => ("full", "전체"),
        "mixed" => ("mixed (16-bit + fp32)", "혼합 정밀도 (16비트 + fp32)"),
        "adamw" => ("AdamW", "AdamW"),
        "adam-8bit" => ("8-bit Adam", "8비트 Adam"),
        "sgd-momentum" => ("SGD with momentum", "모멘텀 SGD"),
        "sgd" => ("SGD", "SGD"),
        "section-planner" => ("Planner: how many GPUs, which layout", "플래너: GPU 몇 장에 어떤 배치로"),
        "min-gpus" => ("Fewest GPUs that fit", "들어가는 최소 GPU 수"),
        "use-min" => ("Use it", "이 구성 적용"),
        "reserve" => ("reserve", "예비"),
        "fastest-on" => ("Fastest layouts that fit on", "들어가는 가장 빠른 배치,"),
        "apply" => ("Apply", "적용"),
        "s-per-step" => ("s/step", "초/스텝"),
        "section-fp" => ("Floating-point formats", "부동소수점 형식"),
        "fp-value" => ("A value to store", "저장해 볼 값"),
        "fp-bad-value" => ("Not a number (try 0.1, 65504, 1e-8)", "숫자가 아닙니다 (예: 0.1, 65504, 1e-8)"),
        "fp-format" => ("format", "형식"),
        "fp-bits" => ("sign · exponent · mantissa", "부호 · 지수 · 가수"),
        "fp-stored" => ("stored value", "저장되는 값"),
        "fp-ranges" => ("Ranges", "표현 범위"),
        "fp-min-normal" => ("min normal", "최소 정규수"),
        "fp-min-subnormal" => ("min subnormal", "최소 비정규수"),
        "fp-loss-scaling" => ("Why fp16 needs loss scaling", "fp16에 손실 스케일링이 필요한 까닭"),
        "fp-loss-scaling-note" => (
            "A gradient of 1e-8 is below fp16's smallest subnormal (6e-8) and becomes 0; multiplied by a loss scale it survives and is divided back in fp32. bf16 keeps fp32's exponent range, so it needs no scaling.",
            "1e-8 크기의 그래디언트는 fp16의 최소 비정규수(6e-8)보다 작아 0이 됩니다. 손실 스케일을 곱하면 살아남고, fp32에서 다시 나눕니다. bf16은 fp32와 같은 지수 범위라 스케일링이 필요 없습니다.",
        ),
        "fp-zero" => ("zero", "0"),
        "fp-normal" => ("normal", "정규수"),
        "fp-subnormal" => ("subnormal", "비정규수"),
        "fp-overflow" => ("overflow", "오버플로"),
        "fp-underflow" => ("underflow → 0", "언더플로 → 0"),
        "fp-nan" => ("NaN", "NaN"),
        "fp-inf" => ("infinite", "무한대"),
        "explain" => ("Show the formula", "식 보기"),
        "note-article-gradients" => (
            "The article's 3D formula divides gradients by p only; the megatron convention divides them by t·p.",
            "원문의 3D 식은 그래디언트를 p로만 나눕니다. Megatron 방식은 t·p로 나눕니다.",
        ),
        "note-master-copy" => (
            "Mixed precision keeps a 4-byte fp32 copy of the weights, counted here as the article does: 2 + 2 + 12 = 16 bytes/param. Lessons quoting 12 bytes/param (105 GB per GPU for 70B on 8 GPUs) forget this copy; 16 gives 140 GB.",
            "혼합 정밀도는 가중치의 4바이트 fp32 사본을 따로 두고, 원문처럼 여기에 셉니다: 2 + 2 + 12 = 파라미터당 16바이트. 파라미터당 12바이트로 세는 강의(70B를 GPU 8장에: GPU당 105GB)는 이 사본을 빠뜨린 것이고, 16바이트면 140GB입니다.",
        ),
        "note-pipeline-activations" => (
            "Pipeline parallelism does not shrink activations: the first stage keeps min(m, p) micro-batches of L/p layers.",
            "파이프라인 병렬화는 활성값을 줄이지 않습니다: 첫 단계가 L/p개 층의 마이크로배치 min(m, p)개를 들고 있습니다.",
        ),
        "note-live-zero3-only" => ("Only ZeRO-3 gathers parameters on the fly.", "파라미터를 그때그때 모으는 것은 ZeRO-3뿐입니다."),
        "note-achieved-flops" => (
            "τ is the achieved FLOP/s, not the datasheet peak: the article cites 150 (GPT-NeoX) and 180 (Flash Attention) per A100; below 115 something is wrong.",
            "τ는 데이터시트 최대치가 아니라 실제로 낸 FLOP/s입니다: 원문은 A100 한 장당 150(GPT-NeoX), 180(Flash Attention)을 들고, 115보다 낮으면 어딘가 문제가 있다고 합니다.",
        ),
        "note-200b" => (
            "Whatever the Chinchilla point, the article advises against fewer than 200B tokens.",
            "친칠라 최적점이 어디든, 원문은 200B 토큰보다 적게 학습하지 말라고 권합니다.",
        ),
        "presets" => ("Lecture presets", "강의용 예시"),
        "present" => ("Presentation mode", "발표 모드"),
        "present-help" => {
            ("Keys: ← → presets · F full screen · Esc leave", "키: ← → 예시 넘기기 · F 전체 화면 · Esc 나가기")
        }
        "preset-7b" => ("7B on one A100 80 GB (the article's example)", "A100 80GB 한 장에 7B (원문 예시)"),
        "preset-70b-8" => ("70B with FSDP (ZeRO-3) on 8 GPUs: does not fit", "FSDP(ZeRO-3)로 GPU 8장에 70B: 안 들어감"),
        "preset-70b-16" => ("70B with FSDP on 16 GPUs and full recomputation", "FSDP로 GPU 16장에 70B, 전체 재계산"),
        "preset-405b" => ("Llama 3 405B on 8×16×128 H100s", "H100 8×16×128장에 Llama 3 405B"),
        "preset-gpt3" => ("GPT-3 175B on 300B tokens", "300B 토큰으로 학습한 GPT-3 175B"),
        "preset-zero" => ("ZeRO paper: 7.5B on 64 GPUs", "ZeRO 논문: GPU 64장에 7.5B"),
        "preset-megatron-22b" => ("Megatron paper: 22B", "Megatron 논문: 22B"),
        "preset-megatron-175b" => ("Megatron paper: 175B", "Megatron 논문: 175B"),
        "preset-megatron-530b" => ("Megatron paper: 530B", "Megatron 논문: 530B"),
        "preset-megatron-1t" => ("Megatron paper: 1T", "Megatron 논문: 1T"),
        "section-sweeps" => ("Sweeps", "변화 그래프"),
        "sweep-params" => (
            "Memory per GPU against model size (shape scaled with P)",
            "모델 크기에 따른 GPU당 메모리 (모양은 P에 맞춰 키움)",
        ),
        "sweep-seq" => ("Memory per GPU against sequence length", "시퀀스 길이에 따른 GPU당 메모리"),
        "sweep-gpus" => ("Memory per GPU against GPU count, by ZeRO stage", "GPU 수에 따른 GPU당 메모리, ZeRO 단계별"),
        "sweep-days" => ("Training days against GPU count", "GPU 수에 따른 학습 기간(일)"),
        "plan-assumptions" => ("Assumptions", "가정"),
        "no-layout" => ("No layout fits on this many GPUs.", "이 GPU 수로는 들어가는 배치가 없습니다."),
        "max-gpus" => ("Largest N searched", "탐색할 최대 N"),
        "global-batch" => ("Global batch G (sequences)", "전역 배치 G (시퀀스)"),
        "reserve-gb" => ("Reserve per GPU (CUDA, framework)", "GPU당 예비 메모리 (CUDA, 프레임워크)"),
        "fragmentation-pct" => ("Fragmentation", "단편화"),
        "intra-node-gbs" => ("NVLink per GPU", "노드 안 대역폭 (NVLink)"),
        "inter-node-gbs" => ("InfiniBand per GPU", "노드 사이 대역폭 (InfiniBand)"),
        "tp-cross-node" => ("Allow TP across nodes", "노드를 넘는 텐서 병렬 허용"),
        "panic" => ("Something went wrong inside the calculator.", "계산기 안에서 문제가 생겼습니다."),
        "reset" => ("Start over with the defaults", "기본값으로 다시 시작"),
        _ => return leak_key(key),
    };
    match lang {
        Lang::En => en,
        Lang::Ko => ko,
    }
}

/// A missing key shows as itself, so a forgotten translation is visible, not blank.
fn leak_key(key: &str) -> &'static str {
    match tmath::settings::key(key) {
        Some(k) => k.name,
        None => "?",
    }
}

/// A warning in the page's language.
pub fn warning(lang: Lang, w: &Warning) -> String {
    if lang == Lang::En {
        return w.to_string();
    }
    match w {
        Warning::TpAcrossNodes { tp } => format!("텐서 병렬 {tp} > 8: 노드 사이의 느린 연결을 건넙니다"),
        Warning::PipelineWithZero23 { zero } => {
            format!(
                "파이프라인 병렬화와 ZeRO-{zero}는 DeepSpeed에서 막혀 있습니다 (그래디언트 샤딩 vs 그래디언트 누적)"
            )
        }
        Warning::PipelineUneven { layers, pp } => format!(
            "p = {pp}가 층 수 {layers}를 나누지 못합니다: 가장 바쁜 단계가 {}개 층을 맡습니다",
            layers.div_ceil(*pp)
        ),
        Warning::FewMicroBatches { grad_accum, pp } => format!(
            "파이프라인 단계 {pp}개에 마이크로배치 {grad_accum}개: 파이프라인이 다 차지 않습니다 (버블 {:.0}%)",
            100.0 * tmath::parallel::bubble_fraction(*pp, *grad_accum)
        ),
        Warning::TokensBelowFloor { tokens } => {
            format!("{} 토큰: 원문은 LLM을 200B 토큰보다 적게 학습하는 것을 권하지 않습니다", format_count(*tokens))
        }
        Warning::ShapeMismatch { params, shape_params } => format!(
            "P = {}인데 모델 모양(12·L·h² + V·h)으로는 {}: 활성값은 모양을 따릅니다",
            format_count(*params),
            format_count(*shape_params)
        ),
        Warning::SequenceParallelWithoutTp => "시퀀스 병렬화는 t > 1일 때만 효과가 있습니다".into(),
        Warning::PartitionWithSequenceParallel => {
            "활성값 분할과 시퀀스 병렬화는 둘 다 활성값을 t로 나눕니다: 한 번만 셉니다".into()
        }
        Warning::TflopsAbovePeak { tflops, peak } => {
            format!("실측 {} TFLOP/s가 데이터시트 최대치 {peak}보다 큽니다", format_sig(*tflops))
        }
        Warning::A100BelowExpected { tflops } => format!(
            "A100 한 장당 {} TFLOP/s: 원문은 약 120은 늘 낼 수 있어야 하고 115보다 낮으면 어딘가 문제가 있다고 합니다",
            format_sig(*tflops)
        ),
        Warning::OffloadWithoutZero => "ZeRO-Offload는 오프로드한 옵티마이저를 샤딩합니다: ZeRO 1–3을 쓰세요".into(),
        Warning::LiveParamsLarge => {
            "ZeRO-3 라이브 파라미터가 샤딩된 가중치보다 큽니다: max-live-params를 줄이세요".into()
        }
    }
}

/// A rejected key or value in the page's language.
pub fn setting_error(lang: Lang, e: &SettingError) -> String {
    if lang == Lang::En {
        return e.to_string();
    }
    let cut = |v: &str| -> String { v.chars().take(40).collect() };
    match e {
        SettingError::UnknownKey(k) => format!("알 수 없는 항목 '{}'", cut(k)),
        SettingError::BadNumber { key, value, .. } => {
            format!("{key}: '{}'은(는) 숫자가 아닙니다 (예: 7e9, 7B, 1.4T)", cut(value))
        }
        SettingError::NotWhole { key, value } => format!("{key}: '{}'은(는) 정수여야 합니다", cut(value)),
        SettingError::OutOfRange { key, value, min, max } => {
            format!("{key}: '{}'은(는) {min}부터 {max:e}까지여야 합니다", cut(value))
        }
        SettingError::UnknownChoice { key, value, choices } => {
            format!("{key}: '{}'은(는) 다음 중 하나가 아닙니다: {}", cut(value), choices.join(", "))
        }
        SettingError::BadSwitch { key, value } => format!("{key}: '{}'은(는) 켜기/끄기 값(1/0)이 아닙니다", cut(value)),
    }
}

/// An impossible combination in the page's language.
pub fn config_error(lang: Lang, e: &ConfigError) -> String {
    if lang == Lang::En {
        return e.to_string();
    }
    match e {
        ConfigError::GpuMismatch { gpus, tp, pp, dp } => {
            format!("GPU {gpus}개 ≠ t·p·d = {tp}·{pp}·{dp} = {}", tp * pp * dp)
        }
        ConfigError::GpusNotDivisible { gpus, tp, pp } => format!("GPU {gpus}개가 t·p = {}의 배수가 아닙니다", tp * pp),
        ConfigError::TpNotDividingHeads { tp, heads } => format!("t = {tp}가 어텐션 헤드 {heads}개를 나누지 못합니다"),
        ConfigError::TooManyGpus => "t·p·d가 10⁹ GPU를 넘습니다".into(),
    }
}

/// The key of the control an impossible combination is shown next to.
pub fn config_error_key(e: &ConfigError) -> &'static str {
    match e {
        ConfigError::GpuMismatch { .. } | ConfigError::GpusNotDivisible { .. } | ConfigError::TooManyGpus => "dp",
        ConfigError::TpNotDividingHeads { .. } => "tp",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_key_is_translated() {
        for k in tmath::settings::KEYS {
            assert_ne!(tr(Lang::Ko, k.name), k.name, "{} lacks Korean", k.name);
        }
    }
}
