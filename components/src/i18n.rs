//! Korean and English: a hand-written table (a few hundred strings cost
//! nothing in size, unlike an ICU-backed i18n crate).
//!
//! Glossary of the Korean page (terms a Korean ML reader knows; the English
//! term in parentheses where a term first appears on a screen):
//!
//! | English | 한국어 |
//! |---|---|
//! | activations | 활성값 |
//! | weights | 가중치 (모델 가중치) |
//! | gradients | 그래디언트 |
//! | optimizer states | 옵티마이저 상태 |
//! | mixed precision | 혼합 정밀도 |
//! | (activation) recomputation | (활성값) 재계산 |
//! | batch, micro-batch | 배치, 마이크로배치 (only for batches) |
//! | a parallel layout (t, p, d) | 병렬 구성 (never 배치) |
//! | active parameters (MoE) | 토큰당 쓰는 파라미터 (not 활성: that is activations) |
//! | ZeRO-3 live parameters | ZeRO-3 라이브 파라미터 (the translated article's term) |
//! | GPU-hours | GPU‑시간 (the translated article's, with a no-break hyphen) |
//! | tensor / pipeline / data parallelism | 텐서 / 파이프라인 / 데이터 병렬화 |
//! | sequence parallelism | 시퀀스 병렬화 |
//! | pipeline bubble | 파이프라인 버블 |
//! | headroom | 여유 |
//! | fits / does not fit | 메모리 충분 / 메모리 부족 (one wording everywhere) |
//! | reserve (CUDA, NCCL, framework) | 고정 오버헤드 |
//! | fragmentation | 단편화 |
//! | inference | 추론 |
//! | embed (a figure) | 퍼가기 |
//! | slide | 슬라이드 |
//!
//! Counts: English writes 7B and 1.4T as the article does; Korean writes
//! 70억 and 1.4조 (see [`count`]).

use tmath::catalog::Model;
use tmath::keys::{SettingError, K};
use tmath::page::{Lang, View};
use tmath::units::{format_count, format_sig, NumberError};
use tmath::{ConfigError, Warning};

/// The label of a key's control: every key has one in both languages (the match is exhaustive).
pub fn label(lang: Lang, k: K) -> &'static str {
    let (en, ko) = match k {
        K::Model => ("Preset", "모델 프리셋"),
        K::Params => ("Parameters P", "파라미터 수 P"),
        K::ActiveParams => ("Active parameters per token (MoE)", "토큰당 쓰는 파라미터 (MoE)"),
        K::Tokens => ("Training tokens D", "학습 토큰 수 D"),
        K::SeqLen => ("Sequence length s", "시퀀스 길이 s"),
        K::MicroBatch => ("Micro-batch per GPU b", "GPU당 마이크로배치 b"),
        K::GradAccum => ("Micro-batches per step m", "스텝당 마이크로배치 수 m"),
        K::Hidden => ("Hidden size h", "은닉 차원 h"),
        K::Layers => ("Layers L", "층 수 L"),
        K::Heads => ("Attention heads a", "어텐션 헤드 수 a"),
        K::Vocab => ("Vocabulary V", "어휘 크기 V"),
        K::Attention => ("Attention scores", "어텐션 점수 저장"),
        K::Batch => ("Sequences served at once", "동시에 처리하는 시퀀스 수"),
        K::Context => ("Context per sequence (tokens)", "시퀀스당 컨텍스트 (토큰)"),
        K::KvDtype => ("KV cache data type", "KV 캐시 데이터 타입"),
        K::MaxPositions => ("Model's position limit (max_position_embeddings)", "모델이 읽는 최대 컨텍스트 (토큰)"),
        K::KvHeads => ("Key/value heads k (GQA)", "KV 헤드 수 k (GQA)"),
        K::HeadDim => ("Head dimension d_head (default h/a)", "어텐션 헤드 하나의 차원 (기본 h/a)"),
        K::Ffn => ("MLP inner size f", "MLP 내부 차원 f"),
        K::Mlp => ("MLP form", "MLP 형태"),
        K::TieEmbeddings => ("Input and output embeddings shared", "입력·출력 임베딩 공유"),
        K::Experts => ("Experts per layer E (MoE)", "층당 전문가 수 E (MoE)"),
        K::TopK => ("Experts per token (top-k)", "토큰당 전문가 수 (top-k)"),
        K::SharedExperts => ("Shared experts", "공유 전문가 수"),
        K::MoeFfn => ("Inner size of one expert", "전문가 하나의 내부 차원"),
        K::DenseLayers => ("Dense layers first (MoE)", "앞쪽 밀집 층 수 (MoE)"),
        K::MtpLayers => ("Multi-token prediction modules", "다중 토큰 예측(MTP) 모듈 수"),
        K::KvLoraRank => ("MLA: KV latent rank", "MLA: KV 잠재 벡터 차원"),
        K::QLoraRank => ("MLA: query latent rank", "MLA: 쿼리 잠재 벡터 차원"),
        K::QkHeadDim => ("MLA: query/key head dim", "MLA: 쿼리·키 헤드 차원"),
        K::QkRopeHeadDim => ("MLA: rotary head dim", "MLA: RoPE 헤드 차원"),
        K::VHeadDim => ("MLA: value head dim", "MLA: 값 헤드 차원"),
        K::SlidingWindow => ("Sliding window W (0: none)", "슬라이딩 윈도우 W (0: 없음)"),
        K::GlobalEvery => ("Every k-th layer global (0: none)", "k번째 층마다 전체 어텐션 (0: 없음)"),
        K::Kernels => ("Elementwise kernels", "원소별 연산 커널"),
        K::Finetune => ("What is trained", "학습 대상"),
        K::PostTraining => ("Post-training", "사후 학습"),
        K::Rollouts => ("Rollouts per prompt", "프롬프트당 롤아웃 수"),
        K::ResponseTokens => ("Response tokens", "응답 토큰 수"),
        K::RewardParams => ("Reward model's parameters (0: a rule)", "보상 모델 파라미터 (0: 규칙)"),
        K::CriticParams => ("Value model's parameters (PPO)", "가치 모델 파라미터 (PPO)"),
        K::Rollout => ("Rollout engine", "롤아웃 엔진"),
        K::RolloutMemUtil => ("Colocated engine's share of the GPU", "함께 올린 엔진이 쓰는 GPU 비율"),
        K::LoraRank => ("LoRA rank r", "LoRA 랭크 r"),
        K::LoraTargets => ("Matrices with adapters", "어댑터를 붙일 행렬"),
        K::LoraDropout => ("Dropout on the adapters' input", "어댑터 입력의 드롭아웃"),
        K::BaseDtype => ("Frozen base's storage", "고정된 기반 모델의 저장 타입"),
        K::TrainEmbeddings => ("Train embeddings and output layer whole", "임베딩과 출력층도 통째로 학습"),
        K::AttentionEvery => (
            "Every k-th layer attends, the rest linear (0: all attend)",
            "k번째 층마다 어텐션, 나머지는 선형 층 (0: 모두 어텐션)",
        ),
        K::LinearState => {
            ("Linear layer's recurrent state per sequence (values)", "선형 층의 시퀀스당 순환 상태 (값 개수)")
        }
        K::LinearConv => {
            ("Linear layer's convolution state per sequence (values)", "선형 층의 시퀀스당 합성곱 상태 (값 개수)")
        }
        K::StateDtype => ("Recurrent state's type", "순환 상태의 데이터 타입"),
        K::Tp => ("Tensor parallel t", "텐서 병렬 t"),
        K::Pp => ("Pipeline parallel p", "파이프라인 병렬 p"),
        K::Dp => ("Data parallel d", "데이터 병렬 d"),
        K::Gpus => ("GPUs N = t·p·d", "GPU 수 N = t·p·d"),
        K::Precision => ("Precision", "정밀도"),
        K::GradDtype => ("Gradient dtype", "그래디언트 데이터 타입"),
        K::Optimizer => ("Optimizer", "옵티마이저"),
        K::Recompute => ("Activation recomputation", "활성값 재계산"),
        K::SequenceParallel => ("Sequence parallelism", "시퀀스 병렬화"),
        K::PartitionActivations => ("Partition activations (ZeRO-R)", "활성값 분할 (ZeRO-R)"),
        K::TpCommOverlap => {
            ("Tensor-parallel communication overlapped with the GEMMs", "텐서 병렬 통신을 행렬 곱과 겹침")
        }
        K::Tsp => ("Folded tensor+sequence parallelism", "텐서·시퀀스 결합 병렬화 (TSP)"),
        K::Zero => ("ZeRO stage", "ZeRO 단계"),
        K::Offload => ("Optimizer offload to CPU", "옵티마이저 CPU 오프로드"),
        K::MaxLiveParams => ("ZeRO-3 max live parameters", "ZeRO-3 최대 라이브 파라미터"),
        K::Gpu => ("GPU", "GPU"),
        K::GpuMem => ("GPU memory as the driver reports it", "GPU 메모리 (드라이버 기준)"),
        K::Tflops => ("Achieved TFLOP/s per GPU", "GPU당 실제 TFLOP/s"),
        K::UsdPerGpuHour => ("Price per GPU-hour", "GPU\u{2011}시간당 가격"),
        K::InferenceDtype => ("Inference dtype", "추론 데이터 타입"),
        K::Convention => ("Convention", "계산 방식"),
        K::ServeTp => ("Serving: tensor parallel per replica", "서빙: 복제본당 텐서 병렬"),
        K::ServePp => ("Serving: pipeline stages per replica", "서빙: 복제본당 파이프라인 스테이지"),
        K::PromptTokens => ("Prompt tokens per request", "요청당 프롬프트 토큰 수"),
        K::OutputTokens => ("Output tokens per request", "요청당 출력 토큰 수"),
        K::MemUtil => ("Share of GPU memory the engine takes", "엔진이 쓰는 GPU 메모리 비율"),
        K::HbmGbs => ("Achieved memory bandwidth per GPU, GB/s", "GPU당 실제 메모리 대역폭, GB/s"),
        K::ServeTflops => ("Achieved prefill TFLOP/s per GPU", "GPU당 실제 프리필 TFLOP/s"),
        K::HostMs => {
            ("Engine's host time per step the GPU waits for, ms", "GPU가 기다리는 엔진의 스텝당 호스트 시간, ms")
        }
        K::MaxGpus => ("Largest N searched", "탐색할 최대 N"),
        K::GlobalBatch => ("Global batch G (sequences)", "전역 배치 G (시퀀스)"),
        K::ReserveGb => {
            ("Reserve per GPU (CUDA, NCCL, framework), GB", "GPU당 고정 오버헤드 (CUDA, NCCL, 프레임워크), GB")
        }
        K::FragmentationPct => ("Allocator fragmentation, %", "메모리 단편화, %"),
        K::Cp => ("Context parallel cp", "컨텍스트 병렬 cp"),
        K::Ep => ("Expert parallel ep (MoE)", "전문가 병렬 ep (MoE)"),
        K::Etp => ("Expert tensor parallel etp (MoE)", "전문가 텐서 병렬 etp (MoE)"),
        K::Schedule => ("Pipeline schedule", "파이프라인 스케줄"),
        K::ExpAvgDtype => ("Optimizer moments' type", "옵티마이저 모멘트 타입"),
        K::Fp8 => ("FP8 training (scaling recipe)", "FP8 학습 (스케일링 방식)"),
        K::Fp8ParamGather => ("Weights kept in FP8 alone (no bf16 copy)", "가중치를 FP8로만 보관 (bf16 사본 없음)"),
        K::MainParams => ("Master weights (mixed precision)", "마스터 가중치 (혼합 정밀도)"),
        K::OffloadActivations => ("Activations offloaded to CPU (share)", "CPU로 옮기는 활성값 비율"),
        K::Vpp => ("Virtual stages per rank v (interleaved)", "랭크당 가상 스테이지 v (인터리브)"),
        K::PpFirstLayers => ("Layers of the first stage", "첫 스테이지의 층 수"),
        K::PpLayout => ("Pipeline layout (Megatron-LM's string)", "파이프라인 레이아웃 (Megatron-LM 문자열)"),
        K::PpLastLayers => ("Layers of the last stage", "마지막 스테이지의 층 수"),
        K::Loss => ("Loss (cross-entropy of the logits)", "손실 함수 (로짓의 교차 엔트로피)"),
        K::LossChunks => ("Logit chunks (chunked loss)", "로짓 조각 수 (청크 손실)"),
        K::RecomputeEvery => ("Checkpoint every k layers (full recomputation)", "k개 층마다 체크포인트 (전체 재계산)"),
        K::CpuMem => ("CPU memory per node, GB", "노드당 CPU 메모리, GB"),
        K::GpusPerNode => ("GPUs per node", "노드당 GPU 수"),
        K::IntraNodeGbs => ("NVLink per GPU", "노드 안 대역폭 (NVLink)"),
        K::InterNodeGbs => ("InfiniBand per GPU", "노드 사이 대역폭 (InfiniBand)"),
        K::TpCrossNode => ("Allow TP across nodes", "노드를 넘는 텐서 병렬 허용"),
        K::KeepCp => ("Keep the cp given", "주어진 컨텍스트 병렬 cp 유지"),
        K::Serve => ("Plan serving replicas", "서빙 복제본 계획"),
        K::MaxTpotMs => ("Longest time per output token, ms", "출력 토큰당 최대 시간, ms"),
        K::MaxTtftMs => ("Longest time to first token, ms", "첫 토큰까지 최대 시간, ms"),
        K::Lang => ("Language", "언어"),
        K::Units => ("Units", "단위"),
        K::Embed => ("Figure for another page", "다른 페이지에 넣는 그림"),
        K::View => ("View", "그림"),
        K::Present => ("Presentation mode", "발표 모드"),
        K::Deck => ("Slides", "슬라이드"),
        K::Slide => ("Slide", "슬라이드 번호"),
        K::Fp => ("A value to store", "저장해 볼 값"),
    };
    pick(lang, en, ko)
}

fn pick(lang: Lang, en: &'static str, ko: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Ko => ko,
    }
}

/// A view's title: what a figure or a slide shows.
pub fn view_title(lang: Lang, v: View) -> &'static str {
    let (en, ko) = match v {
        View::Compute => ("Training compute: C ≈ 6PD", "학습 계산량: C ≈ 6PD"),
        View::Chinchilla => ("Chinchilla: tokens per parameter", "친칠라: 파라미터당 토큰 수"),
        View::Inference => ("Inference memory: 1.2 × weights", "추론 메모리: 1.2 × 가중치"),
        View::ModelStates => ("Model states: bytes per parameter", "모델 상태: 파라미터당 바이트"),
        View::Activations => ("Activations, and why we recompute them", "활성값 메모리와 재계산이 필요한 까닭"),
        View::Memory => ("Memory per GPU", "GPU당 메모리"),
        View::Zero => ("The same run under ZeRO 0–3", "ZeRO 0–3 단계별 비교"),
        View::Finetune => ("Fine-tuning: full, LoRA and QLoRA", "파인튜닝: 전체, LoRA, QLoRA"),
        View::ThreeD => ("3D parallelism: t × p × d", "3D 병렬화: t × p × d"),
        View::Planner => ("Planner: how many GPUs, which layout", "플래너: GPU 몇 장에 어떤 병렬 구성으로"),
        View::Sweeps => ("Sweeps", "변화 그래프"),
        View::Fp => ("Floating-point formats", "부동소수점 형식"),
        View::Serving => ("Serving: time per token, users and cost", "서빙: 토큰당 시간, 사용자 수, 비용"),
    };
    pick(lang, en, ko)
}

/// The label of one choice of a key, in the page's language where it differs from the spelling.
pub fn choice(lang: Lang, k: K, value: &'static str) -> &'static str {
    if k == K::View {
        if let Some(v) = View::parse(value) {
            return view_title(lang, v);
        }
    }
    if k == K::Loss {
        return tr(lang, &format!("loss-{value}"));
    }
    if k == K::MainParams {
        return tr(lang, &format!("main-{value}"));
    }
    if k == K::Kernels {
        return tr(lang, &format!("kernels-{value}"));
    }
    if k == K::PostTraining {
        return tr(lang, &format!("post-{value}"));
    }
    if k == K::Rollout {
        return tr(lang, &format!("rollout-{value}"));
    }
    if k == K::Offload && value == "params" {
        return tr(lang, "offload-params");
    }
    if k == K::Finetune {
        return tr(lang, &format!("finetune-{value}"));
    }
    if k == K::LoraTargets {
        return tr(lang, &format!("lora-targets-{value}"));
    }
    if k == K::BaseDtype {
        return tr(lang, &format!("base-{value}"));
    }
    if k == K::GradDtype && value == "auto" {
        return tr(lang, "grad-dtype-auto");
    }
    if k == K::Lang {
        // A menu names each language in its own script.
        return match value {
            "ko" => "한국어",
            _ => "English",
        };
    }
    if k == K::Units {
        return match value {
            "gib" => "GiB (2³⁰)",
            _ => "GB (10⁹)",
        };
    }
    match tr(lang, value) {
        "?" => value,
        t => t,
    }
}

/// A catalogue model's name; a mixture of experts says how many parameters a token uses.
pub fn model_label(lang: Lang, m: &Model) -> String {
    if m.active_params < m.params {
        match lang {
            Lang::En => format!("{} ({} active)", m.label, format_count(m.active_params)),
            Lang::Ko => format!("{} (토큰당 {} 사용)", m.label, count(lang, m.active_params)),
        }
    } else {
        m.label.to_string()
    }
}

/// A count as a reader of the page writes it: 7B and 1.4T in English (the
/// article's way); 70억 and 1.4조 in Korean.
pub fn count(lang: Lang, x: f64) -> String {
    if lang == Lang::En || !x.is_finite() {
        return format_count(x);
    }
    let a = x.abs();
    let (scaled, unit) = if a >= 1e12 {
        (x / 1e12, "조")
    } else if a >= 1e8 {
        (x / 1e8, "억")
    } else if a >= 1e4 {
        (x / 1e4, "만")
    } else {
        (x, "")
    };
    format!("{}{unit}", grouped_sig(scaled))
}

/// A count in Korean units with up to four significant digits, as an entry
/// shows it (the parser reads it back): 67.38억, 1.4조, 3,000억.
pub fn count4(x: f64) -> String {
    let (scaled, unit) = if x >= 1e12 {
        (x / 1e12, "조")
    } else if x >= 1e8 {
        (x / 1e8, "억")
    } else if x >= 1e4 {
        (x / 1e4, "만")
    } else {
        (x, "")
    };
    let digits = (3 - scaled.abs().log10().floor() as i32).max(0) as usize;
    let s = format!("{scaled:.digits$}");
    let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    format!("{}{unit}", tmath::units::group_thousands(&s))
}

/// A token count, whole and grouped, with its unit: "32,768 tokens", "32,768토큰".
pub fn tokens(lang: Lang, n: u64) -> String {
    let n = tmath::units::group_thousands(&n.to_string());
    match lang {
        Lang::En => format!("{n}\u{a0}tokens"),
        Lang::Ko => format!("{n}토큰"),
    }
}

/// How a word ends when read aloud in Korean, which decides its particle.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Ending {
    Vowel,
    /// ㄹ: takes 으로's short form 로, like a vowel.
    Rieul,
    Consonant,
}

/// The sound `text` ends on as a Korean reader says it: a Hangul syllable by
/// its final consonant; a number by its last spoken word (5 오, 8 팔, 10 십,
/// 10¹² 조); a Latin letter by its name (B 비, L 엘, M 엠). Quotes, brackets,
/// spaces and units of one sign that follow are not read (`'-5'`, `8)`).
fn ending(text: &str) -> Ending {
    let t =
        text.trim_end_matches(|c: char| matches!(c, '\'' | '"' | ')' | ']' | '’' | '”' | '》') || c.is_whitespace());
    let Some(last) = t.chars().last() else { return Ending::Vowel };
    match last {
        '가'..='힣' => match (last as u32 - 0xAC00) % 28 {
            0 => Ending::Vowel,
            8 => Ending::Rieul,
            _ => Ending::Consonant,
        },
        '0'..='9' => {
            let digits: Vec<char> = t.chars().rev().take_while(|c| c.is_ascii_digit()).collect();
            let zeros = digits.iter().take_while(|&&c| c == '0').count();
            let fraction = t.trim_end_matches(|c: char| c.is_ascii_digit()).ends_with('.');
            match last {
                // 영 alone or after a point; else 십, 백, 천, 만, 억 … but 조 (10¹²).
                '0' if zeros == digits.len() || fraction => Ending::Consonant,
                '0' if zeros == 12 => Ending::Vowel,
                '0' => Ending::Consonant,
                '1' | '7' | '8' => Ending::Rieul,
                '3' | '6' => Ending::Consonant,
                _ => Ending::Vowel,
            }
        }
        'l' | 'L' | 'r' | 'R' => Ending::Rieul,
        'm' | 'M' | 'n' | 'N' => Ending::Consonant,
        _ => Ending::Vowel,
    }
}

/// `word` with the particle its last sound takes: `after_consonant` (은, 이,
/// 을, 과, 으로) or `after_vowel` (는, 가, 를, 와, 로); 으로 takes 로 after ㄹ.
/// "'-5'는", "t = 8이", "ZeRO-3은", "70억이".
pub fn josa(word: &str, after_consonant: &str, after_vowel: &str) -> String {
    let consonant = match ending(word) {
        Ending::Consonant => true,
        Ending::Rieul => after_consonant != "으로",
        Ending::Vowel => false,
    };
    format!("{word}{}", if consonant { after_consonant } else { after_vowel })
}

/// Three significant digits, thousands grouped, trailing zeros of a fraction dropped: 3,000 · 67.4 · 1.4.
pub fn grouped_sig(x: f64) -> String {
    let s = format_sig(x);
    let s =
        if s.contains('.') && !s.contains('e') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    tmath::units::group_thousands(&s)
}

/// A number in words and units, for a screen reader: "7 billion parameters", "파라미터 70억 개".
pub fn spoken(lang: Lang, k: K, x: f64) -> String {
    let (noun_en, noun_ko) = match k {
        K::Params | K::ActiveParams | K::MaxLiveParams => ("parameters", "파라미터"),
        K::Tokens | K::SeqLen => ("tokens", "토큰"),
        K::MicroBatch | K::GlobalBatch => ("sequences", "시퀀스"),
        K::GradAccum => ("micro-batches", "마이크로배치"),
        K::Dp | K::Gpus | K::MaxGpus => ("GPUs", "GPU"),
        K::Tflops => ("TFLOP/s", "TFLOP/s"),
        _ => ("", ""),
    };
    match lang {
        Lang::En => {
            let words = if x >= 1e12 {
                format!("{} trillion", format_sig(x / 1e12).trim_end_matches(".00"))
            } else if x >= 1e9 {
                format!("{} billion", trim(x / 1e9))
            } else if x >= 1e6 {
                format!("{} million", trim(x / 1e6))
            } else {
                grouped_sig(x)
            };
            format!("{words} {noun_en}").trim_end().to_string()
        }
        Lang::Ko => format!("{noun_ko} {}", count(lang, x)).trim().to_string(),
    }
}

fn trim(x: f64) -> String {
    let s = format_sig(x);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The run in one line: the model, the layout, ZeRO, precision, optimizer and GPU.
pub fn describe(lang: Lang, r: &tmath::Report) -> String {
    let c = &r.config;
    let model =
        c.model.map_or_else(|| format!("P\u{a0}=\u{a0}{}", count(lang, c.params.get())), |m| model_label(lang, m));
    let l = c.layout;
    format!(
        "{model} · N\u{a0}=\u{a0}{} = {}·{}·{} · ZeRO-{} · {} · {} · {}",
        l.gpus(),
        l.tp,
        l.pp,
        l.dp,
        c.zero.get(),
        choice(lang, K::Precision, c.dtypes.precision.as_str()),
        choice(lang, K::Optimizer, c.optimizer.as_str()),
        c.system.gpu.label
    )
}

/// A formula's word (see `tmath::explain::WORDS`) in the page's language.
pub fn formula_word(lang: Lang, w: &str) -> &'static str {
    if lang == Lang::En {
        return tmath::explain::english(w);
    }
    match w {
        "bytes" => "파라미터당 바이트",
        "states" => "상태",
        "fp32-copy" => "fp32 사본",
        "gpu-hours" => "GPU\u{2011}시간",
        "price" => "가격",
        "max-live" => "최대 라이브 파라미터",
        "cpu" => "CPU",
        "fragmentation" => "단편화 비율",
        "reserve" => "고정 오버헤드",
        _ => "?",
    }
}

/// Where a formula comes from, in the page's language: the article's sections
/// by the Korean translation's titles, papers by their names.
pub fn sources(lang: Lang, cites: &[tmath::explain::Cite]) -> String {
    use tmath::explain::{Cite, Section};
    let section = |s: Section| match lang {
        Lang::En => s.title(),
        Lang::Ko => match s {
            Section::ComputeRequirements => "계산 요구량",
            Section::ParameterVsDataset => "파라미터 수와 데이터셋 크기의 맞바꿈",
            Section::ModelWeights => "모델 가중치",
            Section::TotalInferenceMemory => "추론에 드는 전체 메모리",
            Section::ModelParameters => "모델 파라미터",
            Section::OptimizerStates => "옵티마이저 상태",
            Section::Gradients => "그래디언트",
            Section::ActivationsAndBatchSize => "활성값과 배치 크기",
            Section::ShardedOptimizers => "샤딩 옵티마이저",
            Section::ThreeD => "3D 병렬화",
        },
    };
    let article: Vec<&str> =
        cites.iter().filter_map(|c| if let Cite::Article(s) = c { Some(section(*s)) } else { None }).collect();
    let papers = cites.iter().filter_map(|c| if let Cite::Paper(p) = c { Some(*p) } else { None });
    let mut parts = Vec::new();
    if !article.is_empty() {
        parts.push(format!("{}: {}", tr(lang, "article-name"), article.join(", ")));
    }
    parts.extend(papers.map(String::from));
    parts.join("; ")
}

/// The verdict: "✓ fits — 9.55 GB headroom", "✓ 메모리 충분 — 여유 9.55 GB";
/// "✗ does not fit — over by 80.8 GB", "✗ 메모리 부족 — 80.8 GB 초과".
/// `amount` is the headroom or the shortfall, written in the page's unit.
pub fn verdict(lang: Lang, fits: bool, amount: &str) -> String {
    // A number and its unit never part at a line's end.
    let amount = amount.replace(' ', "\u{a0}");
    match (lang, fits) {
        (Lang::En, true) => format!("✓\u{a0}fits — {amount} headroom"),
        (Lang::En, false) => format!("✗\u{a0}does not fit — over by {amount}"),
        (Lang::Ko, true) => format!("✓\u{a0}메모리\u{a0}충분 — 여유 {amount}"),
        (Lang::Ko, false) => format!("✗\u{a0}메모리\u{a0}부족 — {amount} 초과"),
    }
}

/// What a pipeline's verdict assumed: the micro-batches per step (m decides
/// how many the first stage holds at once), and where m came from.
pub fn batch_assumed(lang: Lang, r: &tmath::Report) -> String {
    let c = &r.config;
    let (g, m, b, d) =
        (grouped_sig(c.global_batch as f64), grouped_sig(c.grad_accum as f64), c.micro_batch, c.layout.dp);
    let total = grouped_sig(r.global_batch());
    match (lang, r.m_follows_global_batch()) {
        (Lang::En, true) => format!(
            "Assumed: a global batch of G\u{a0}=\u{a0}{g} sequences per step, so m\u{a0}=\u{a0}{m} micro-batches of b\u{a0}=\u{a0}{b} on d\u{a0}=\u{a0}{d}"
        ),
        (Lang::En, false) => format!(
            "m\u{a0}=\u{a0}{m} micro-batches of b\u{a0}=\u{a0}{b} on d\u{a0}=\u{a0}{d} as given: a global batch of {total} sequences per step"
        ),
        (Lang::Ko, true) => format!(
            "가정: 스텝당 전역 배치 G\u{a0}=\u{a0}{g}개 시퀀스, 따라서 d\u{a0}=\u{a0}{d}에서 b\u{a0}=\u{a0}{b}인 마이크로배치 m\u{a0}=\u{a0}{m}개"
        ),
        (Lang::Ko, false) => format!(
            "입력한 대로 d\u{a0}=\u{a0}{d}에서 b\u{a0}=\u{a0}{b}인 마이크로배치 m\u{a0}=\u{a0}{m}개: 스텝당 전역 배치 {total}개 시퀀스"
        ),
    }
}

/// Under a preset's slide whose state was changed live: which preset, and the keys that differ.
pub fn slide_changed(lang: Lang, preset: &str, keys: &str) -> String {
    match lang {
        Lang::En => format!("Changed live from “{preset}”: {keys}"),
        Lang::Ko => format!("“{preset}”에서 바꾼 설정: {keys}"),
    }
}

/// A formula's counts in the reader's units: in Korean each `70B`, `1.4T`,
/// `300B`, `175M` (a number with the article's suffix, standing alone) becomes
/// 700억, 1.4조, 3,000억, 1.75억; English keeps them.
pub fn formula_counts(lang: Lang, text: &str) -> String {
    if lang == Lang::En {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let starts =
            chars[i].is_ascii_digit() && (i == 0 || !(chars[i - 1].is_ascii_alphanumeric() || chars[i - 1] == '.'));
        if starts {
            let mut j = i;
            while j < chars.len() && (chars[j].is_ascii_digit() || chars[j] == '.') {
                j += 1;
            }
            let scale = match chars.get(j) {
                Some('k') => 1e3,
                Some('M') => 1e6,
                Some('B') => 1e9,
                Some('T') => 1e12,
                _ => 0.0,
            };
            let alone = chars.get(j + 1).is_none_or(|c| !c.is_ascii_alphanumeric());
            let number: String = chars[i..j].iter().collect();
            if let (true, true, Some(x)) = (scale > 0.0, alone, tmath::decimal::parse(&number)) {
                out.push_str(&count(lang, x * scale));
                i = j + 1;
                continue;
            }
            out.push_str(&number);
            i = j;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// A count of sequences: "1 sequence", "2,048 sequences"; "시퀀스 2,048개".
pub fn sequences(lang: Lang, n: f64) -> String {
    match lang {
        Lang::En if n == 1.0 => "1 sequence".into(),
        Lang::En => format!("{} sequences", grouped_sig(n)),
        Lang::Ko => format!("시퀀스 {}개", grouped_sig(n)),
    }
}

/// Which shape a bare P took.
pub fn derived_shape(lang: Lang, shape: &tmath::catalog::Shape) -> String {
    let a = shape.arch;
    match lang {
        Lang::En => format!(
            "Shape from P: the published shape nearest in size, {}'s: L\u{a0}=\u{a0}{}, h\u{a0}=\u{a0}{}, a\u{a0}=\u{a0}{}",
            shape.model, a.layers, a.hidden, a.heads
        ),
        Lang::Ko => format!(
            "모델 구조는 크기가 P에 가장 가까운 공개 모델 {}의 것입니다: L\u{a0}=\u{a0}{}, h\u{a0}=\u{a0}{}, a\u{a0}=\u{a0}{}",
            shape.model, a.layers, a.hidden, a.heads
        ),
    }
}

/// A number of days as the page writes it, thousands grouped: "972 days", "1,000 days", "972일".
pub fn days(lang: Lang, x: f64) -> String {
    match lang {
        Lang::En => format!("{}\u{a0}days", grouped_sig(x)),
        Lang::Ko => format!("{}일", grouped_sig(x)),
    }
}

/// For a length of k thousand tokens where k is a power of two (`128k`, typed
/// as a context people call 128K): that it is k·1,000, and how to write k·1,024.
pub fn thousands_not_kibi(lang: Lang, n: u64) -> Option<String> {
    let k = n / 1000;
    if n == 0 || !n.is_multiple_of(1000) || k < 2 || !k.is_power_of_two() {
        return None;
    }
    let (n, kibi) =
        (tmath::units::group_thousands(&n.to_string()), tmath::units::group_thousands(&(k * 1024).to_string()));
    Some(match lang {
        Lang::En => format!("{k}k reads as {n} tokens; for {kibi}, write {k}Ki"),
        Lang::Ko => format!("{k}k는 {n}토큰으로 읽습니다. {kibi}토큰이라면 {k}Ki로 쓰세요"),
    })
}

/// The stage chart's caption: "Memory per GPU on each of the 16 pipeline stages; the verdict is stage 1's".
pub fn stages_caption(lang: Lang, p: u64, peak: u64) -> String {
    match lang {
        Lang::En => {
            format!("Memory per GPU on each of the {p} pipeline stages: the heaviest, stage {peak}, is the verdict's")
        }
        Lang::Ko => {
            format!("파이프라인 스테이지 {p}개 각각의 GPU당 메모리: 판정은 가장 무거운 스테이지 {peak}의 값입니다")
        }
    }
}

/// "8 GPUs", "GPU 8장", with the right plural.
pub fn gpus(lang: Lang, n: u64) -> String {
    match (lang, n) {
        (Lang::En, 1) => "1 GPU".into(),
        (Lang::En, n) => format!("{n} GPUs"),
        (Lang::Ko, n) => format!("GPU {n}장"),
    }
}

/// "1 warning", "2 warnings", "경고 2개".
pub fn warnings_count(lang: Lang, n: usize) -> String {
    match (lang, n) {
        (Lang::En, 1) => "1 warning".into(),
        (Lang::En, n) => format!("{n} warnings"),
        (Lang::Ko, n) => format!("경고 {n}개"),
    }
}

/// The validation table's verdict: "31 measured runs; median |error| 4.7 % over the 23 whose setup is fully published (accepted: 10 %)".
/// Which τ the page uses when none is given: the GPU's default and its share of the dense peak (its source follows).
pub fn tau_default(lang: Lang, gpu: &str, share: f64) -> String {
    let share = format_sig(100.0 * share);
    match lang {
        Lang::En => format!("the {gpu}'s default, {share}% of its dense peak: "),
        Lang::Ko => format!("{gpu} 기본값(밀집 연산 최대치의 {share}%): "),
    }
}

/// Which τ the page uses under `megatron` when none is given: the shape's, and how it is found.
pub fn tau_from_shape(lang: Lang, gpu: &str, sustained: f64) -> String {
    let rate = format_sig(sustained);
    // "(80 GB)" stays on one line.
    let gpu = gpu.replace(" GB)", "\u{a0}GB)");
    match lang {
        Lang::En => format!(
            "computed from this run's shape: each matrix product at the {rate}\u{a0}TFLOP/s the {gpu} sustains times its tile- and wave-quantization efficiency, attention at FlashAttention's measured rate, the rest at memory bandwidth. Enter a τ to override it."
        ),
        Lang::Ko => format!(
            "이 학습 설정의 행렬 크기로 계산한 값: 행렬곱마다 {gpu}의 지속 처리량 {rate}\u{a0}TFLOP/s에 타일·웨이브 양자화 효율을 곱하고, 어텐션은 FlashAttention 실측 속도, 나머지는 메모리 대역폭으로 계산합니다. τ를 입력하면 그 값을 씁니다."
        ),
    }
}

pub fn throughput_summary(lang: Lang, counted: usize, default: usize, median: f64) -> String {
    let pct = |x: f64| format!("{:.0}", 100.0 * x);
    let (m, mm, l) =
        (format!("{:.1}", 100.0 * median), pct(tmath::throughput::MEDIAN_LIMIT), pct(tmath::throughput::ROW_LIMIT));
    match lang {
        Lang::En => format!(
            "{counted} measured runs, anchors aside, {default} of them at the default τ with nothing taken from any run: median |error| {m}\u{a0}% (accepted: a median of {mm}\u{a0}%, {l}\u{a0}% for any run)."
        ),
        Lang::Ko => format!(
            "기준 실행을 뺀 실측 {counted}건(그중 {default}건은 실측값을 쓰지 않은 기본 τ로 계산)의 오차 절댓값 중앙값은 {m}%입니다 (허용: 중앙값 {mm}%, 각 건 {l}%)."
        ),
    }
}

/// A whole published run at the GPU's default rate: its GPU-hours against the published ones.
pub fn whole_run_summary(lang: Lang, model: &str, hours: f64, published: f64, limit: f64) -> String {
    // A true minus sign, and the figure kept with its ending ("−8.1%입니다" on one line).
    let (e, l) =
        (format!("{:+.1}", 100.0 * (hours / published - 1.0)).replace('-', "−"), format!("{:.0}", 100.0 * limit));
    match lang {
        Lang::En => {
            let (h, p) = (format!("{:.2}", hours / 1e6), format!("{:.3}", published / 1e6));
            format!(
                "{model}'s pre-training at the default τ: {h}M GPU-hours against the published {p}M GPU-hours ({e}\u{a0}%; accepted: {l}\u{a0}%)."
            )
        }
        Lang::Ko => format!(
            "{model}의 사전 학습을 기본 τ로 계산하면 {}\u{a0}GPU\u{2011}시간이고, 공개값 {}\u{a0}GPU\u{2011}시간 대비 오차는 {e}%\u{2060}입니다 (허용: {l}%).",
            count4(hours),
            count4(published)
        ),
    }
}

/// The serving figure's verdict: the replica and which side of the roofline bounds its decode.
pub fn serving_verdict(lang: Lang, c: &tmath::Config, s: &tmath::serving::ServingReport) -> String {
    let v = &c.serving;
    let memory = s.decode_bound == tmath::serving::Bound::Memory;
    let fits = if s.fits { "" } else { "✗ " };
    match lang {
        Lang::En => format!(
            "{fits}{} (t {} × p {}), {} of {} + {} tokens: decode is {}-bound at this batch.{}",
            gpus(lang, s.gpus),
            v.serve_tp,
            v.serve_pp,
            count_noun(v.batch, "user", "users"),
            v.prompt_tokens,
            v.output_tokens,
            if memory { "memory" } else { "compute" },
            if s.fits { "" } else { " The batch's KV cache does not fit the engine's share." },
        ),
        Lang::Ko => {
            format!(
            "{fits}GPU {}장(t {} × p {}), 사용자 {}명, 요청당 {} + {} 토큰: 이 배치에서 디코딩의 병목은 {}입니다.{}",
            s.gpus,
            v.serve_tp,
            v.serve_pp,
            v.batch,
            v.prompt_tokens,
            v.output_tokens,
            if memory { "메모리 대역폭" } else { "연산" },
            if s.fits { "" } else { " 배치의 KV 캐시가 엔진에 할당된 메모리에 들어가지 않습니다." },
        )
        }
    }
}

/// Where decode turns compute-bound: at the requests' context and (Kipply's figure) at a short one.
/// A hybrid model's linear layers read and write each sequence's state at any context: there
/// even a short context may never turn compute-bound.
pub fn serving_turn(lang: Lang, s: &tmath::serving::ServingReport) -> String {
    let at = s.crossover_batch_at_context;
    let short = match (lang, s.crossover_batch.is_finite()) {
        (Lang::En, true) => {
            format!("at a short context, from batch {}, Kipply's crossover", grouped_sig(s.crossover_batch))
        }
        (Lang::En, false) => {
            "at a short context too: each sequence's fixed state takes longer to read and write than its arithmetic"
                .into()
        }
        (Lang::Ko, true) => format!("짧은 컨텍스트에서는 배치 {}, Kipply의 교차점", grouped_sig(s.crossover_batch)),
        (Lang::Ko, false) => {
            "짧은 컨텍스트에서도 마찬가지입니다: 시퀀스마다 고정된 상태를 읽고 쓰는 시간이 연산보다 깁니다".into()
        }
    };
    match (lang, at.is_finite()) {
        (Lang::En, true) => format!("At this context it turns compute-bound from batch {} ({short}).", grouped_sig(at)),
        (Lang::En, false) => format!(
            "At this context no batch turns it compute-bound: each sequence's cache takes longer to read than its arithmetic ({short})."
        ),
        (Lang::Ko, true) => format!("이 컨텍스트에서는 배치 {}부터 연산이 병목이 됩니다({short}).", grouped_sig(at)),
        (Lang::Ko, false) => format!(
            "이 컨텍스트에서는 배치를 늘려도 연산이 병목이 되지 않습니다: 시퀀스마다 KV 캐시를 읽는 시간이 연산보다 깁니다({short})."
        ),
    }
}

/// A fine-tuning bar's label.
pub fn finetune_bar(lang: Lang, method: tmath::finetune::Finetune) -> String {
    use tmath::finetune::Finetune;
    match (lang, method) {
        (Lang::En, Finetune::Full) => "Full".into(),
        (Lang::Ko, Finetune::Full) => "전체".into(),
        (_, Finetune::Lora) => "LoRA".into(),
        (_, Finetune::Qlora) => "QLoRA".into(),
    }
}

/// One run under the fine-tuning chart: its total and what it trains.
pub fn finetune_item(lang: Lang, method: tmath::finetune::Finetune, total: String, trained: f64) -> String {
    let bar = finetune_bar(lang, method);
    match lang {
        Lang::En => format!("{bar}: {total}, {} trained", format_count(trained)),
        Lang::Ko => format!("{bar}: {total}, 학습 파라미터 {}", count(lang, trained)),
    }
}

/// The fine-tuning chart's text alternative: each run's total per GPU and what it trains.
pub fn finetune_summary(lang: Lang, runs: &[tmath::Report; 3], units: tmath::units::ByteUnit) -> String {
    let items: Vec<String> = runs
        .iter()
        .map(|r| {
            let trained = tmath::finetune::trainable_params(&r.config).get();
            finetune_item(lang, r.config.finetune.method, units.format(r.per_gpu.total()), trained)
        })
        .collect();
    match lang {
        Lang::En => format!("Memory per GPU, fine-tuned three ways: {}", items.join("; ")),
        Lang::Ko => format!("세 가지 파인튜닝의 GPU당 메모리: {}", items.join("; ")),
    }
}

/// "1 user", "32 users".
fn count_noun(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", tmath::units::group_thousands(&n.to_string()), if n == 1 { one } else { many })
}

/// The serving chart's mark where the KV pool is full: the users it holds.
pub fn serving_pool_mark(lang: Lang, users: f64) -> String {
    let n = users.max(0.0).floor() as u64;
    match lang {
        Lang::En => format!("KV pool: {}", count_noun(n, "user", "users")),
        Lang::Ko => format!("KV 풀: {}명", tmath::units::group_thousands(&n.to_string())),
    }
}

/// The serving chart's text alternative.
pub fn serving_chart_label(lang: Lang, s: &tmath::serving::ServingReport) -> String {
    let t = grouped_sig(s.tpot_seconds * 1e3);
    let users = s.max_concurrency.max(0.0).floor() as u64;
    let at = s.crossover_batch_at_context;
    match lang {
        Lang::En => {
            let cross = if at.is_finite() {
                format!("reading memory and computing cross at batch {}", grouped_sig(at))
            } else {
                "reading memory stays above computing at every batch".to_string()
            };
            let users = count_noun(users, "user", "users");
            format!("Time per output token against the batch, log axes: {t} ms at this batch; {cross}; the KV pool holds {users}.")
        }
        Lang::Ko => {
            let cross = if at.is_finite() {
                format!("메모리 읽기와 연산은 배치 {}에서 만납니다", grouped_sig(at))
            } else {
                "메모리 읽기가 모든 배치에서 연산보다 깁니다".to_string()
            };
            let users = tmath::units::group_thousands(&users.to_string());
            format!("배치에 따른 출력 토큰당 시간(로그 축): 이 배치에서 {t}ms, {cross}. KV 풀에는 사용자 {users}명이 들어갑니다.")
        }
    }
}

/// The quantized files' summary: how many, their median |error| and the thresholds.
pub fn file_validation_summary(lang: Lang, n: usize, median: f64, median_limit: f64, limit: f64) -> String {
    let pct = |x: f64| format!("{:.1}", 100.0 * x);
    let (m, ml, l) = (pct(median), format!("{:.0}", 100.0 * median_limit), format!("{:.0}", 100.0 * limit));
    match lang {
        Lang::En => {
            format!("{n} quantized files: median |error| {m}\u{a0}% (accepted: {ml}\u{a0}% median, {l}\u{a0}% each).")
        }
        Lang::Ko => format!("양자화 파일 {n}개의 오차 절댓값 중앙값은 {m}%입니다 (허용: 중앙값 {ml}%, 건마다 {l}%)."),
    }
}

/// The serving planner's verdict: users, the replicas that meet the targets, the targets.
pub fn serve_plan_summary(lang: Lang, users: u64, met: usize, tpot_ms: Option<f64>, ttft_ms: Option<f64>) -> String {
    let target = |t: Option<f64>, en: &str, ko: &str| {
        t.map(|x| match lang {
            Lang::En => format!(", {en} ≤ {}\u{a0}ms", grouped_sig(x)),
            Lang::Ko => format!(", {ko} ≤ {}ms", grouped_sig(x)),
        })
        .unwrap_or_default()
    };
    let t = target(tpot_ms, "time per output token", "출력 토큰당 시간");
    let f = target(ttft_ms, "time to first token", "첫 토큰까지 시간");
    match lang {
        Lang::En => format!(
            "Serving {} at once{t}{f}: {} {}, cheapest per million output tokens first.",
            count_noun(users, "user", "users"),
            met,
            if met == 1 { "replica meets it" } else { "replicas meet it" }
        ),
        Lang::Ko => format!(
            "동시 사용자 {users}명{t}{f}: 조건을 만족하는 복제본 {met}개, 출력 토큰 100만 개당 비용이 낮은 순입니다."
        ),
    }
}

/// The serving table's verdict: its counted rows, the two medians and their limits.
pub fn serving_validation_summary(
    lang: Lang,
    rows: usize,
    counted: usize,
    median: f64,
    ones: usize,
    one: f64,
) -> String {
    let (m, o) = (format!("{:.1}", 100.0 * median), format!("{:.1}", 100.0 * one));
    match lang {
        Lang::En => format!(
            "{rows} measured runs; median |error| {m}\u{a0}% over the {counted} whose setup is fully published (accepted: 15\u{a0}%), {o}\u{a0}% over the {ones} of decode at batch 1 (accepted: 10\u{a0}%)."
        ),
        Lang::Ko => format!(
            "실측 {rows}건. 설정이 모두 공개된 {counted}건의 오차 절댓값 중앙값은 {m}%(허용: 15%), 배치 1 디코드 {ones}건은 {o}%입니다(허용: 10%)."
        ),
    }
}

pub fn validation_summary(lang: Lang, measured: usize, counted: usize, median: f64, limit: f64) -> String {
    let (m, l) = (format!("{:.1}", 100.0 * median), format!("{:.0}", 100.0 * limit));
    match lang {
        Lang::En => format!(
            "{measured} measured runs; median |error| {m}\u{a0}% over the {counted} whose setup is fully published (accepted: {l}\u{a0}%)."
        ),
        Lang::Ko => format!(
            "실측 {measured}건. 설정이 모두 공개된 {counted}건의 오차 절댓값 중앙값은 {m}%입니다 (허용: {l}%)."
        ),
    }
}

/// The fine-tuning table's summary: rows, the median over those that count, the thresholds.
pub fn finetune_validation_summary(lang: Lang, n: usize, counted: usize, median: f64, limit: f64, row: f64) -> String {
    let (m, l, r) = (format!("{:.1}", 100.0 * median), format!("{:.0}", 100.0 * limit), format!("{:.0}", 100.0 * row));
    match lang {
        Lang::En => format!(
            "{n} measured runs; median |error| {m}\u{a0}% over the {counted} whose setup is fully published and whose counter is allocated or active memory (accepted: {l}\u{a0}%, each within {r}\u{a0}% or its gap named)."
        ),
        Lang::Ko => format!(
            "실측 {n}건. 설정이 모두 공개되고 카운터가 할당량이나 활성 메모리인 {counted}건의 오차 절댓값 중앙값은 {m}%입니다 (허용: {l}%, 건마다 {r}% 이내이거나 빠진 항목을 밝힘)."
        ),
    }
}

/// What a fine-tuning row trains, as a person says it: "LoRA r 8 (q, v)", "QLoRA r 64 (every linear layer)".
pub fn finetune_words(lang: Lang, query: &str) -> String {
    let pairs = tmath::link::parse_query(query);
    let value = |k: K| pairs.iter().find(|(key, _)| key == k.row().name).map(|(_, v)| v.clone());
    let method = value(K::Finetune).unwrap_or_else(|| "full".into());
    if method == "full" {
        return tr(lang, "finetune-full").to_string();
    }
    let rank = value(K::LoraRank).unwrap_or_else(|| "16".into());
    let targets = value(K::LoraTargets).unwrap_or_else(|| "all-linear".into());
    let targets = match targets.as_str() {
        "qv" => "q, v".to_string(),
        "attention" => "q, k, v, o".to_string(),
        _ => match lang {
            Lang::En => "every linear layer".to_string(),
            Lang::Ko => "모든 선형 층".to_string(),
        },
    };
    let name = if method == "qlora" { "QLoRA" } else { "LoRA" };
    format!("{name} r\u{a0}{rank} ({targets})")
}

/// One change of a key, as a person says it: "full recomputation", "ZeRO‑3", "Data parallel d 16".
pub fn change_text(lang: Lang, k: K, value: &str) -> String {
    match k {
        K::Recompute => tr(lang, &format!("recompute-{value}")).to_string(),
        K::Zero => zero_stage(value),
        _ if k.row().is_switch() => {
            let on = value == "1";
            format!("{} {}", label(lang, k), tr(lang, if on { "on" } else { "off" }))
        }
        _ => format!("{} {}", label(lang, k), choice_text(lang, k, value)),
    }
}

/// A key's value as a control would show it: a choice's label, else the value.
pub fn choice_text(lang: Lang, k: K, value: &str) -> String {
    let row = k.row();
    match row.choices().into_iter().find(|c| *c == value) {
        Some(c) => choice(lang, k, c).to_string(),
        None if k == K::Zero => zero_stage(value),
        None => value.to_string(),
    }
}

/// A ZeRO stage in running text, "ZeRO‑3": a non-breaking hyphen keeps it on one line.
fn zero_stage(value: &str) -> String {
    format!("ZeRO\u{2011}{value}")
}

/// Bytes per parameter: "16 B/param", "파라미터당 16바이트".
pub fn bytes_per_param(lang: Lang, b: f64) -> String {
    match lang {
        Lang::En => format!("{}\u{a0}B/param", trim(b)),
        Lang::Ko => format!("파라미터당 {}바이트", trim(b)),
    }
}

/// Bytes of one cached value: "2 bytes", "2바이트".
pub fn bytes_per_value(lang: Lang, b: f64) -> String {
    match lang {
        Lang::En => format!("{}\u{a0}bytes", trim(b)),
        Lang::Ko => format!("{}바이트", trim(b)),
    }
}

/// The same, short, for a bar's second line under a title that says "per parameter": "16 B", "16바이트".
pub fn bytes_per_param_short(lang: Lang, b: f64) -> String {
    match lang {
        Lang::En => format!("{}\u{a0}B", trim(b)),
        Lang::Ko => format!("{}바이트", trim(b)),
    }
}

/// The text for `key` in `lang`; "?" if missing (a test scans the sources for keys that miss).
pub fn tr(lang: Lang, key: &str) -> &'static str {
    let (en, ko) = match key {
        "title" => ("Transformer Math calculator", "트랜스포머 수학 계산기"),
        "doc-title" => (
            "Transformer Math calculator · GPU memory and training compute",
            "트랜스포머 수학 계산기 · GPU 메모리와 학습 계산량",
        ),
        "subtitle" => (
            "Memory per GPU and compute of training a transformer, from EleutherAI's Transformer Math 101",
            "EleutherAI의 《트랜스포머 수학 101》 식으로 계산한 GPU당 메모리와 학습 계산량",
        ),
        "loading" => ("Loading the calculator…", "계산기를 불러오는 중…"),
        "skip-to-results" => ("Skip to the results", "결과로 건너뛰기"),
        "section-model" => ("Model", "모델"),
        "section-data" => ("Data", "데이터"),
        "finetune-validation-title" => ("Fine-tuning: full, LoRA and QLoRA against measured runs", "파인튜닝: 전체, LoRA, QLoRA와 실측 비교"),
        "finetune-validation-intro" => (
            "Peaks that torchtune, LitGPT, Answer.AI's fsdp_qlora and ms-swift (DPO, PPO, GRPO) published with their setups, each with its counter, beside this calculator's: the frozen base in its storage, the adapters with their gradients and optimizer states, the activations the backward still needs (a frozen layer keeps no input), PyTorch's eager operations where the framework runs them. The calculator predicts allocated memory; reserved figures are shown and not counted.",
            "torchtune, LitGPT, Answer.AI의 fsdp_qlora, ms-swift(DPO, PPO, GRPO)가 설정과 함께 공개한 최대 메모리와 카운터를 이 계산기의 값과 나란히 보여 줍니다. 계산에는 저장 타입대로의 고정된 기반 모델, 그래디언트와 옵티마이저 상태를 가진 어댑터, 역전파에 여전히 필요한 활성값(고정된 층은 입력을 두지 않음), 프레임워크가 쓰는 PyTorch 즉시 실행 연산이 들어갑니다. 이 계산기는 할당 메모리를 예측하므로 예약 메모리 값은 보여 주기만 하고 세지 않습니다.",
        ),
        "remedy-lora" => (
            "LoRA instead of full fine-tuning (close to it on most tasks, learns less on new domains: Biderman et al. 2024)",
            "전체 파인튜닝 대신 LoRA (대부분의 작업에서 비슷하지만 새로운 분야에서는 덜 배움: Biderman 외 2024)",
        ),
        "remedy-qlora" => (
            "QLoRA: LoRA on a 4-bit base (matches 16-bit LoRA in Dettmers et al. 2023, §4)",
            "QLoRA: 4비트 기반 모델에 LoRA (Dettmers 외 2023, 4절에서 16비트 LoRA와 비슷)",
        ),
        "finetune-note-summary" => (
            "What LoRA and QLoRA keep, and what they cost in quality",
            "LoRA와 QLoRA가 메모리에 두는 것, 그리고 품질 손실",
        ),
        "finetune-note" => (
            "LoRA trains two rank-r matrices beside each adapted weight and freezes the rest: no gradients or optimizer states for the base, whose weights stay; QLoRA keeps that base in 4-bit NF4. The literature reports them matching full fine-tuning on most tasks (Hu et al. 2021, §5; Dettmers et al. 2023, §4), and learning less than it on new domains such as code and mathematics (Biderman et al. 2024, \"LoRA Learns Less and Forgets Less\").",
            "LoRA는 어댑터를 붙인 가중치마다 랭크 r 행렬 두 개만 학습하고 나머지는 고정합니다: 기반 모델의 가중치는 그대로 남지만 그래디언트와 옵티마이저 상태는 없습니다. QLoRA는 그 기반 모델을 4비트 NF4로 둡니다. 문헌은 대부분의 작업에서 전체 파인튜닝과 비슷한 성능을 보고하지만(Hu 외 2021, 5절; Dettmers 외 2023, 4절), 코드와 수학처럼 새로운 분야에서는 덜 배운다고 보고합니다(Biderman 외 2024).",
        ),
        "section-finetune" => ("Fine-tuning: LoRA and QLoRA", "파인튜닝: LoRA와 QLoRA"),
        "section-training" => ("Training", "학습 설정"),
        "section-parallel" => ("Parallelism", "병렬화"),
        "section-hardware" => ("Hardware and cost", "하드웨어와 비용"),
        "section-serving" => ("Serving", "서빙"),
        "section-shape" => ("Model shape", "모델 구조"),
        "custom" => ("custom", "직접 입력"),
        "grad-dtype-auto" => ("auto (article: as the model; megatron: fp32)", "자동 (원문: 모델과 동일, Megatron: fp32)"),
        "position-limit" => ("the model's position limit", "모델이 읽는 최대 길이"),
        "memory-would-hold" => ("while the memory would hold", "메모리만 따지면"),
        "weights-alone-too-big" => ("the weights alone exceed one GPU", "가중치만으로 GPU 한 장을 넘습니다"),
        "bytes-per-param-unit" => ("B/param", "바이트/파라미터"),
        "note-fp32-gradients" => (
            "Megatron-LM accumulates gradients in fp32 (4 bytes), and the optimizer keeps a 4-byte fp32 copy of the weights: 2 + 4 + 12 = 18 bytes/param, against the article's 2 + 2 + 12 = 16.",
            "Megatron-LM은 그래디언트를 fp32(4바이트)로 누적하고, 옵티마이저가 가중치의 4바이트 fp32 사본을 둡니다: 파라미터당 2 + 4 + 12 = 18바이트로, 원문의 2 + 2 + 12 = 16바이트보다 많습니다.",
        ),
        "part-model" => ("weights", "모델 가중치"),
        "part-gradients" => ("gradients", "그래디언트"),
        "part-optimizer" => ("optimizer states", "옵티마이저 상태"),
        "part-activations" => ("activations", "활성값"),
        "part-zero3-live-params" => ("ZeRO-3 live params", "ZeRO-3 라이브 파라미터"),
        "part-frozen-models" => ("frozen models (reference, reward)", "고정된 모델 (참조, 보상)"),
        "part-rollout" => ("rollout engine", "롤아웃 엔진"),
        "part-reserve" => ("overhead and fragmentation", "오버헤드와 단편화"),
        "part-overhead" => ("inference overhead (0.2 × weights)", "추론 부가 메모리 (0.2 × 가중치)"),
        "total" => ("total per GPU", "GPU당 합계"),
        "summary" => ("Result at a glance", "결과 요약"),
        "capacity" => ("GPU memory", "GPU 메모리 용량"),
        "usable" => ("as the driver reports it:", "드라이버 기준"),
        "training" => ("training", "학습"),
        "inference" => ("inference", "추론"),
        "fits" => ("fits", "메모리 충분"),
        "does-not-fit" => ("does not fit", "메모리 부족"),
        "flops" => ("Training compute C", "학습 계산량 C"),
        "forward" => ("forward 2PD", "순전파 2PD"),
        "backward" => ("backward 4PD", "역전파 4PD"),
        "recompute-extra" => ("recomputation", "재계산"),
        "with-recompute" => ("with recomputation", "재계산 포함"),
        "forward-attention" => ("forward (with attention)", "순전파(어텐션 포함)"),
        "backward-attention" => ("backward", "역전파"),
        "recompute-hardware" => ("recomputation, in the time only", "재계산(시간에만 반영)"),
        "petaflop-days" => ("PetaFLOP-days", "페타플롭-일"),
        "gpu-hours" => ("GPU-hours", "GPU\u{2011}시간"),
        "gpu-hour" => ("GPU-hour", "GPU\u{2011}시간"),
        "days" => ("Wall-clock days", "학습 기간(일)"),
        "cost" => ("Cost", "비용"),
        "chinchilla-ratio" => ("tokens per parameter D/P", "파라미터당 토큰 수 D/P"),
        "chinchilla-optimal" => ("compute-optimal D\u{a0}=\u{a0}20P", "계산 최적 D\u{a0}=\u{a0}20P"),
        "chinchilla-floor" => (
            "The article advises against training an LLM on fewer than 200B tokens.",
            "원문은 LLM을 2,000억(200B) 토큰보다 적게 학습하는 것을 권하지 않습니다.",
        ),
        "floor" => ("floor", "하한"),
        "kv-cache" => ("KV cache", "KV 캐시"),
        "weights-plus-kv" => ("weights + KV cache", "가중치 + KV 캐시"),
        "longest-context" => ("longest context on one GPU", "GPU 한 장에 들어가는 최대 컨텍스트"),
        "longest-context-each" => ("longest context per sequence on one GPU", "GPU 한 장에 들어가는 시퀀스당 최대 컨텍스트"),
        "serving-vs-context" => ("Serving memory against the context", "컨텍스트 길이에 따른 추론 메모리"),
        "context-axis" => ("context (tokens)", "컨텍스트 (토큰)"),
        "standard" => ("stored (s × s)", "저장 (s × s)"),
        "flash" => ("not stored (FlashAttention)", "저장 안 함 (FlashAttention)"),
        "loss-standard" => ("PyTorch cross_entropy on an fp32 copy", "PyTorch 기본 교차 엔트로피 (fp32 사본)"),
        "loss-fused" => ("Megatron-LM, in place (fused or not)", "Megatron-LM 방식 (제자리 계산)"),
        "loss-chunked" => ("chunked (torchtune)", "조각별 계산 (torchtune)"),
        "part-logits" => ("logits (loss)", "로짓 (손실)"),
        "part-buffers" => ("framework buffers", "프레임워크 버퍼"),
        "gelu" => ("GELU (2 matrices)", "GELU (행렬 2개)"),
        "swiglu" => ("SwiGLU (3 matrices)", "SwiGLU (행렬 3개)"),
        "chinchilla-floor-short" => ("200B-token floor", "2,000억 토큰 하한"),
        "chinchilla-line" => ("D\u{a0}=\u{a0}20P (compute-optimal)", "D\u{a0}=\u{a0}20P (계산 최적)"),
        "this-run" => ("this run", "현재 설정"),
        "tokens-word" => ("tokens", "토큰"),
        "params-axis" => ("parameters P", "파라미터 수 P"),
        "gpus-axis" => ("GPUs N", "GPU 수 N"),
        "seq-axis" => ("sequence length s", "시퀀스 길이 s"),
        "tokens-axis" => ("tokens D", "토큰 수 D"),
        "bubble" => ("pipeline bubble b/(1+b)", "파이프라인 버블 b/(1+b)"),
        "of-the-step" => ("of the step", "(스텝 대비)"),
        "global-batch-label" => ("global batch", "전역 배치"),
        "cpu-per-node" => ("CPU memory per node (offload)", "노드당 CPU 메모리 (오프로드)"),
        "hf-title" => ("Paste or drop a Hugging Face config.json", "Hugging Face config.json 붙여넣기 또는 끌어다 놓기"),
        "hf-placeholder" => ("{ \"hidden_size\": 4096, … } — read here, nothing is sent", "{ \"hidden_size\": 4096, … } — 이 브라우저 안에서만 읽습니다"),
        "megatron-title" => (
            "Paste or drop a Megatron-LM launch (its flags, or a model_config.yaml)",
            "Megatron-LM 실행 인자 붙여넣기 또는 끌어다 놓기 (실행 스크립트나 테스트 설정 YAML)",
        ),
        "megatron-placeholder" => ("--num-layers 32 --hidden-size 4096 … — read here, nothing is sent", "--num-layers 32 --hidden-size 4096 … — 이 브라우저 안에서만 읽습니다"),
        "hf-used" => ("Used", "반영한 항목"),
        "attention-flops-term" => ("attention", "어텐션"),
        "attention-flops-source" => ("(PaLM, Appendix B)", "(PaLM 부록 B)"),
        "hf-unused" => ("Not read (what they change is not modelled here)", "읽지 않은 항목 (바꾸는 것이 있어도 여기서는 계산하지 않음)"),
        "hf-no-effect" => ("No effect on memory, compute or time", "메모리·연산량·시간에 영향 없음"),
        "validation-title" => ("How close is this to reality?", "이 계산은 실제와 얼마나 가까운가"),
        "validation-intro" => (
            "Published runs with a public setup, and what this calculator gives for them. The bar predicts what nvidia-smi shows; without its grey overhead segment, what PyTorch allocates (max allocated); with fragmentation but not the fixed reserve, what PyTorch reserves. Each row's link opens its inputs.",
            "아래 표는 설정이 공개된 학습의 메모리 값과, 같은 설정을 넣었을 때 이 계산기가 내는 값을 나란히 보여 줍니다. 막대 전체는 nvidia-smi에 보이는 양, 회색(고정 오버헤드와 단편화)을 뺀 부분은 PyTorch가 할당한 메모리(max allocated), 여기에 단편화만 더한 값은 PyTorch가 예약한 메모리(max reserved)에 해당합니다. 각 행의 링크를 누르면 그 입력으로 열립니다.",
        ),
        "validation-run" => ("run", "학습 사례"),
        "validation-metric" => ("compared against", "비교 기준"),
        "validation-published" => ("published", "공개된 값"),
        "validation-predicted" => ("this calculator", "이 계산기"),
        "validation-error" => ("error", "오차"),
        "validation-inferred" => ("(setup partly inferred)", "(설정 일부 추정)"),
        "validation-metric-estimator" => ("Megatron\u{2011}LM's estimator (a formula, not a measurement)", "Megatron\u{2011}LM 추정식 (실측 아님)"),
        "validation-metric-allocated" => ("measured: PyTorch max allocated", "실측: PyTorch 최대 할당 메모리"),
        "validation-metric-active" => ("measured: PyTorch peak active", "실측: PyTorch 최대 활성 메모리"),
        "validation-rank" => ("rank", "랭크"),
        "validation-rank-max" => ("the heaviest rank", "가장 무거운 랭크"),
        "validation-rank-any" => ("every rank alike", "모든 랭크 같음"),
        "validation-rank-one" => ("a single GPU", "단일 GPU"),
        "throughput-title" => ("Step time: tokens per second per GPU", "스텝 시간: GPU당 초당 토큰 수"),
        "throughput-intro" => (
            "Measured training throughput beside the step-time model's. Megatron-LM's runs (its 2021 and 2022 papers, NVIDIA's NeMo recipes) run at the default τ under megatron: the rate each run's own shape and layout reach, every matrix product at the rate its GPU sustains with its tiles' and waves' share, attention at FlashAttention's measured rate, nothing taken from any run. Megatron-LM's 2021 runs read fast: that code reduced the gradients after the pipeline's flush and its kernels were slower than today's. Eager PyTorch stacks (torchtitan, transformers) run kernels the shape does not model, so each of their runs takes τ from an anchor: a run of the same software on the same GPU, its measured tokens per second times this calculator's FLOPs per token. Anchors are shown, not counted.",
            "실측 학습 처리량과 스텝 시간 모델의 값을 나란히 보여 줍니다. Megatron-LM의 실행(2021·2022년 논문, NVIDIA NeMo 레시피)은 Megatron 방식의 기본 τ로 계산합니다: 실행마다 그 행렬 크기와 병렬 구성에서 나오는 속도로, 행렬곱은 GPU가 지속해서 내는 속도에 타일·웨이브 양자화 몫을 곱하고 어텐션은 FlashAttention 실측 속도를 쓰며, 어떤 실행에서도 값을 가져오지 않습니다. Megatron-LM의 2021년 실행은 실측보다 빠르게 나옵니다: 당시 코드는 파이프라인을 비운 뒤에야 그래디언트를 모았고, 커널도 지금보다 느렸습니다. 즉시 실행 방식의 PyTorch 스택(torchtitan, transformers)은 이 계산기가 모델링하지 않는 커널을 쓰므로, 각 실행은 같은 소프트웨어·같은 GPU의 기준 실행에서 τ를 가져옵니다: 기준 실행의 실측 초당 토큰 수에 이 계산기의 토큰당 FLOP을 곱한 값입니다. 기준 실행은 보여 주되 오차 집계에는 넣지 않습니다.",
        ),
        "throughput-gpus" => ("GPUs", "GPU 수"),
        "throughput-tau" => ("τ, TFLOP/s (of peak)", "τ, TFLOP/s (최대치 대비)"),
        "throughput-measured" => ("measured tokens/s", "실측 토큰/s"),
        "throughput-anchor" => ("(anchor: its τ)", "(기준 실행: 이 τ의 출처)"),
        "throughput-default" => ("(τ computed from the shape)", "(기본 τ: 행렬 크기로 계산)"),
        "validation-gap-fp16-grads" => (
            "(fp16 gradients and their fp32 copy: 20 bytes/param, 18 here)",
            "(fp16 그래디언트와 그 fp32 사본: 파라미터당 20바이트, 여기서는 18바이트)",
        ),
        "validation-gap-op-level-checkpointing" => (
            "(op-level checkpointing saves every other matmul's output, less than selective recomputation here)",
            "(연산 단위 체크포인팅은 행렬곱 출력을 하나 걸러 저장해, 여기의 선택적 재계산보다 적게 남깁니다)",
        ),
        "serving-ttft" => ("time to first token", "첫 토큰까지 시간"),
        "serving-tpot" => ("time per output token", "출력 토큰당 시간"),
        "serving-user-tps" => ("tokens/s per user", "사용자당 초당 토큰"),
        "serving-gpu-tps" => ("tokens/s per GPU", "GPU당 초당 토큰"),
        "serving-users" => ("users the KV pool holds", "KV 풀에 들어가는 사용자"),
        "serving-usd" => ("per million output tokens", "출력 토큰 100만 개당"),
        "serving-reserve" => ("engine's profiled peak", "엔진 프로파일링 최대 사용량"),
        "serving-pool" => ("KV cache pool", "KV 캐시 풀"),
        "serving-left" => ("outside the engine's share", "엔진에 할당되지 않은 메모리"),
        "serving-bar" => ("One GPU's memory as the engine budgets it", "엔진이 나누는 GPU 한 장의 메모리"),
        "serving-crossover" => ("crossover", "교차점"),
        "serving-axis-batch" => ("batch (concurrent users)", "배치(동시 사용자 수)"),
        "serving-line-memory" => ("reading weights and cache", "가중치·캐시 읽기"),
        "serving-line-compute" => ("arithmetic", "연산"),
        "serving-line-step" => ("time per output token", "출력 토큰당 시간"),
        "serve-plan-format" => ("weights", "가중치 형식"),
        "serve-plan-users" => ("users per replica", "복제본당 사용자"),
        "serve-plan-gpus" => ("GPUs in all", "전체 GPU"),
        "serve-plan-ttft" => ("first token, ms", "첫 토큰, ms"),
        "serve-plan-tpot" => ("per output token, ms", "출력 토큰당, ms"),
        "serve-plan-usd" => ("$ per million output tokens", "출력 토큰 100만 개당 $"),
        "serving-validation-title" => ("Serving: time per token and to the first token", "서빙: 토큰당 시간과 첫 토큰까지의 시간"),
        "serving-validation-intro" => (
            "Measured decode and first-token times beside this calculator's, at each GPU's defaults (its measured bandwidth share and matmul ceiling, 4.2 µs per kernel): nothing is taken from the rows. Each row keeps its engine and version, since an engine's kernels are part of the figure.",
            "실측 디코드 시간·첫 토큰 시간과 이 계산기의 값을 나란히 보여 줍니다. 값은 GPU마다 정해진 기본값(실측 대역폭 비율, 행렬곱 최대 속도, 커널당 4.2µs)으로 계산하며, 표의 실측값에서 가져온 것은 없습니다. 엔진의 커널도 결과의 일부이므로 각 행에 엔진과 버전을 함께 적습니다.",
        ),
        "serving-validation-run" => ("serving run", "서빙 사례"),
        "serving-validation-measure" => ("measured", "측정 항목"),
        "serving-measure-tpot" => ("time per output token", "출력 토큰당 시간"),
        "serving-measure-ttft" => ("time to first token", "첫 토큰까지 시간"),
        "serving-measure-per-token" => ("request time per output token", "출력 토큰당 요청 시간"),
        "serving-measure-static-step" => ("mean step of a static batch", "정적 배치의 평균 스텝"),
        "serving-gap-fp8-prefill" => (
            "(FP8 prefill measured at 1.2× the BF16 matmul ceiling, not the tensor cores' 2×)",
            "(FP8 프리필 실측은 BF16 행렬곱 최대 속도의 1.2배로, 텐서 코어의 2배에 못 미칩니다)",
        ),
        "serving-gap-short-prompt" => (
            "(a 128-token prompt's GEMMs reach neither ceiling)",
            "(128토큰 프롬프트의 GEMM은 대역폭·연산 어느 한계에도 닿지 않습니다)",
        ),
        "serving-gap-llama-cpp-f16" => (
            "(llama.cpp's F16 kernel of May 2024, not the memory, bounds it)",
            "(메모리가 아니라 2024년 5월 llama.cpp의 F16 커널이 속도를 정합니다)",
        ),
        "serving-gap-near-crossover" => (
            "(near the crossover batch, arithmetic does not hide the memory traffic whole)",
            "(교차 배치 부근에서는 연산이 메모리 읽기 시간을 다 가리지 못합니다)",
        ),
        "serving-gap-non-torch" => (
            "(the collectives' buffers outside PyTorch, 2.1 GiB at t ≥ 2, not modelled)",
            "(PyTorch 밖의 통신 버퍼, t ≥ 2에서 2.1GiB는 아직 계산에 넣지 않았습니다)",
        ),
        "serving-pool-title" => ("Serving: the KV cache's pool against vLLM's logs", "서빙: KV 캐시 풀과 vLLM 로그 비교"),
        "serving-pool-intro" => (
            "The tokens vLLM 0.19 prints at start (\"GPU KV cache size\") and the requests of 8,192 tokens it holds at once (\"Maximum concurrency\") beside this calculator's: the pool is mem-util × the memory CUDA reports − the weights − the profiled forward pass or sampler run, in blocks of 16 tokens of every layer in a group; a model with sliding layers groups them as vLLM does (padding included), and a sliding layer budgets its window less one plus a step's 8,192 batched tokens. Accepted: 5 % each.",
            "vLLM 0.19가 시작할 때 로그에 출력하는 KV 캐시 토큰 수와 8,192토큰 요청을 동시에 몇 개 담는지를 이 계산기의 값과 나란히 보여 줍니다. 풀은 엔진이 쓰는 메모리 비율 × CUDA가 보고하는 메모리 − 가중치 − 프로파일링한 순전파와 샘플러 실행 중 큰 쪽이고, 그룹에 속한 모든 레이어의 16토큰을 한 블록으로 셉니다. 슬라이딩 레이어가 있는 모델은 vLLM처럼 레이어를 묶고(빈 레이어로 채우는 것까지), 슬라이딩 레이어는 윈도우보다 하나 적은 토큰에 한 스텝에 묶어 처리하는 8,192토큰을 더해 잡습니다. 허용: 건마다 5%.",
        ),
        "serving-pool-log" => ("tokens in the log", "로그의 토큰 수"),
        "kernels-fused" => ("Fused (Megatron-Core)", "퓨즈드 (Megatron-Core)"),
        "kernels-eager" => ("PyTorch eager (transformers, LitGPT)", "PyTorch 즉시 실행 (transformers, LitGPT)"),
        "post-none" => ("None", "없음"),
        "post-dpo" => ("DPO (preference pairs, a frozen reference)", "DPO (선호 쌍, 고정된 참조 모델)"),
        "post-ppo" => ("PPO (reward, value and reference models)", "PPO (보상·가치·참조 모델)"),
        "post-grpo" => ("GRPO (groups of rollouts, a reference)", "GRPO (롤아웃 묶음, 참조 모델)"),
        "rollout-colocated" => ("vLLM on the training GPUs", "학습 GPU에 함께 올린 vLLM"),
        "rollout-separate" => ("vLLM on GPUs of its own", "별도 GPU의 vLLM"),
        "rollout-trainer" => ("the training model's own generate", "학습 모델 자체의 생성"),
        "phase-generation" => ("generation", "생성"),
        "phase-training" => ("training", "학습"),
        "finetune-phases-note" => (
            "Post-training's phases run one after the other: generating rollouts, then training on them (PPO and GRPO on prompt + response tokens); the verdict is the heavier.",
            "사후 학습의 단계는 차례로 돕니다: 롤아웃을 생성한 다음 그것으로 학습합니다(PPO와 GRPO는 프롬프트 + 응답 토큰으로). 판정은 더 무거운 단계를 따릅니다.",
        ),
        "finetune-full" => ("Full fine-tuning (every parameter)", "전체 파인튜닝 (모든 파라미터)"),
        "finetune-lora" => ("LoRA (adapters on a frozen base)", "LoRA (고정된 기반 모델에 어댑터)"),
        "finetune-qlora" => ("QLoRA (adapters on a 4-bit base)", "QLoRA (4비트 기반 모델에 어댑터)"),
        "lora-targets-qv" => ("Query and value (q, v)", "쿼리와 값 (q, v)"),
        "lora-targets-attention" => ("Attention (q, k, v, o)", "어텐션 (q, k, v, o)"),
        "lora-targets-all-linear" => ("All linear layers", "모든 선형 층 (어텐션과 MLP)"),
        "base-fp32" => ("fp32 (4 bytes)", "fp32 (4바이트)"),
        "base-bf16" => ("bf16 (2 bytes)", "bf16 (2바이트)"),
        "base-fp16" => ("fp16 (2 bytes)", "fp16 (2바이트)"),
        "base-int8" => ("int8 (LLM.int8, linear layers)", "int8 (LLM.int8, 선형 층)"),
        "base-nf4" => ("NF4 + double quantization (4.127 bits)", "NF4 + 이중 양자화 (4.127비트)"),
        "serving-pool-users-log" => ("requests of 8,192 tokens, log", "8,192토큰 요청 수, 로그"),
        "serving-pool-users" => ("requests, calculated", "요청 수, 계산"),
        "serving-gap-vision" => (
            "(a vision-language checkpoint: vLLM loads and profiles its vision encoder, the shape here is the text model's)",
            "(비전-언어 체크포인트: vLLM은 비전 인코더도 올리고 프로파일링하지만 여기 구조는 텍스트 모델만 셉니다)",
        ),
        "serving-file-title" => (
            "Serving: quantized files' sizes against their formats",
            "서빙: 양자화 파일 크기와 형식별 계산 비교",
        ),
        "serving-file-intro" => (
            "Each checkpoint's size as the Hugging Face Hub lists it (exact bytes) or its model card gives it (GB, three digits), beside this calculator's weights in its format, counted tensor by tensor: GGUF as llama.cpp quantizes each tensor (the output layer and some attention and MLP layers wider, norms kept), GPTQ and AWQ with their scales and zeros per 128 weights and the embeddings in 16 bits, MXFP4 on gpt-oss's experts. A GGUF's tokenizer (under 8 MB) is not counted. Accepted: 2 % median, 4 % each.",
            "허깅페이스 허브에 올라온 체크포인트 크기(바이트 단위의 정확한 값)나 모델 카드에 적힌 크기(GB, 세 자리)와, 이 계산기가 형식에 따라 텐서마다 센 가중치를 나란히 보여 줍니다. GGUF는 llama.cpp가 텐서마다 고르는 타입대로(출력층과 일부 어텐션·MLP 층은 더 넓게, 정규화는 그대로), GPTQ와 AWQ는 가중치 128개마다 스케일과 영점을 더하고 임베딩은 16비트로, MXFP4는 gpt-oss의 전문가 가중치에만 적용합니다. GGUF에 담긴 토크나이저(8 MB 미만)는 세지 않습니다. 허용: 중앙값 2%, 건마다 4%.",
        ),
        "serving-file-file" => ("file", "파일"),
        "serving-file-format" => ("model and format", "모델과 형식"),
        "validation-gap-data-length" => (
            "(the sequence length is the data's, not published: 512 is a guess)",
            "(시퀀스 길이는 데이터에 따라 달라 공개되지 않았습니다: 512는 추정입니다)",
        ),
        "validation-gap-load-peak" => (
            "(the counter's peak includes loading: a 4-bit base is made on the GPU from the 16-bit checkpoint)",
            "(이 카운터의 최대치에는 모델을 올리는 과정이 들어 있습니다: 4비트 기반 모델은 GPU에서 16비트 체크포인트로부터 만들어집니다)",
        ),
        "validation-gap-fsdp-cache" => (
            "(reserved under FSDP: the allocator's cache, 1.1–2.0 GiB over allocated in the same setup, not modelled)",
            "(FSDP에서의 예약 메모리: 할당기 캐시가 같은 설정에서 할당량보다 1.1–2.0GiB 많으며, 계산에 넣지 않았습니다)",
        ),
        "validation-gap-compiled" => (
            "(torch.compile fuses the loss: it keeps the 16-bit logits, not each piece's fp32 log-probabilities; not modelled)",
            "(torch.compile이 손실 계산을 합칩니다: 조각마다 fp32 로그 확률을 두지 않고 16비트 로짓만 둡니다. 계산에 넣지 않았습니다)",
        ),
        "validation-gap-zero3-generate" => (
            "(generation under ZeRO-3 with the trainer's own generate gathers the whole policy; not modelled)",
            "(ZeRO-3에서 학습 모델 자체로 생성하면 정책 모델 전체를 모읍니다. 계산에 넣지 않았습니다)",
        ),
        "validation-gap-sequential-experts" => (
            "(the experts run one after another, without grouped GEMMs: their four workspaces, counted here, are not allocated)",
            "(전문가를 하나씩 차례로 계산하고 그룹 GEMM을 쓰지 않습니다: 여기서 센 작업 공간 네 개를 잡지 않습니다)",
        ),
        "validation-scores-stored" => ("s × s scores stored", "s × s 점수 저장"),
        "validation-axis-measured" => ("measured", "실측"),
        "validation-axis-predicted" => ("this calculator", "이 계산기"),
        "validation-chart" => (
            "Predicted against measured peak memory, log–log, with the y = x line and a ±10 % band",
            "실측 최대 메모리와 이 계산기의 값 (로그–로그, y = x 선과 ±10% 범위)",
        ),
        "validation-legend-hollow" => ("○ setup partly inferred", "○ 설정 일부 추정"),
        "validation-legend-band" => ("grey band: within ±10 %", "회색 띠: ±10% 이내"),
        "validation-metric-reserved" => ("measured: PyTorch max reserved", "실측: PyTorch 최대 예약 메모리"),
        "validation-metric-nvidia-smi" => ("nvidia-smi", "nvidia-smi"),
        "cpu-capacity" => ("the node has", "노드 용량"),
        "cpu-fits" => ("CPU memory fits", "CPU 메모리 충분"),
        "cpu-does-not-fit" => ("CPU memory does not fit", "CPU 메모리 부족"),
        "cpu-what" => ("optimizer + fp32 gradients", "옵티마이저 + fp32 그래디언트"),
        "cpu-what-nvme" => ("fp32 gradients", "fp32 그래디언트"),
        "offloaded-cpu" => ("moved to CPU memory", "CPU 메모리로 옮김"),
        "offloaded-nvme" => ("moved to NVMe", "NVMe로 옮김"),
        "nvme-per-node" => ("NVMe per node (optimizer states)", "노드당 NVMe (옵티마이저 상태)"),
        "inference-note" => ("inference, whole model ≈ 1.2 × weights", "추론, 모델 전체 ≈ 1.2 × 가중치"),
        "stale" => (
            "This combination is impossible; the numbers below are from the last valid one.",
            "이 조합은 불가능합니다. 아래 숫자는 바로 앞의 가능한 조합으로 계산한 결과입니다.",
        ),
        "stale-short" => ("⚠ last valid numbers", "⚠ 이전 결과 표시 중"),
        "on" => ("on", "켬"),
        "off" => ("off", "끔"),
        "remedies" => ("What would make it fit:", "메모리에 맞추려면:"),
        "remedy-recompute" => ("Full recomputation", "전체 재계산"),
        "remedy-offload" => ("Optimizer offload to CPU", "옵티마이저 CPU 오프로드"),
        "remedy-seq" => ("A shorter sequence,", "더 짧은 시퀀스,"),
        "bad-keys" => ("Ignored in the link, defaults used:", "링크에서 무시하고 기본값을 쓴 항목:"),
        "copy-link" => ("Copy link", "링크 복사"),
        "copied" => ("Copied", "복사됨"),
        "copy" => ("Copy", "복사"),
        "source" => (
            "Source: Transformer Math 101 (EleutherAI, CC BY 4.0)",
            "출처: 트랜스포머 수학 101 (EleutherAI, CC BY 4.0)",
        ),
        "article-name" => ("Transformer Math 101", "트랜스포머 수학 101"),
        "source-short" => ("Transformer Math 101 (EleutherAI, CC BY 4.0)", "트랜스포머 수학 101 (EleutherAI, CC BY 4.0)"),
        "unit-note-gb" => ("GB\u{a0}=\u{a0}10⁹ bytes", "GB\u{a0}=\u{a0}10⁹ 바이트"),
        "unit-note-gib" => ("GiB\u{a0}=\u{a0}2³⁰ bytes", "GiB\u{a0}=\u{a0}2³⁰ 바이트"),
        "article" => ("article (verbatim)", "원문 그대로"),
        "megatron" => ("Megatron (per rank)", "Megatron (랭크별)"),
        "none" => ("none", "없음"),
        "tensorwise" => ("per tensor (one scale per tensor)", "텐서 단위 (텐서마다 스케일 하나)"),
        "blockwise" => ("per block (1×128 and 128×128, DeepSeek-V3)", "블록 단위 (1×128·128×128, DeepSeek-V3)"),
        "mxfp8" => ("MXFP8 (a scale per 32 values, Blackwell)", "MXFP8 (값 32개마다 스케일, 블랙웰)"),
        // Quantized files' formats (issue 37): named as their tools and files name them.
        "gptq-int4" => ("GPTQ int4 (group 128)", "GPTQ int4 (그룹 128)"),
        "awq-int4" => ("AWQ int4 (group 128)", "AWQ int4 (그룹 128)"),
        "nvfp4" => ("NVFP4 (a scale per 16 values)", "NVFP4 (값 16개마다 스케일)"),
        "mxfp4" => ("MXFP4 (a scale per 32 values)", "MXFP4 (값 32개마다 스케일)"),
        "q8_0" => ("GGUF Q8_0", "GGUF Q8_0"),
        "q6_k" => ("GGUF Q6_K", "GGUF Q6_K"),
        "q5_k_m" => ("GGUF Q5_K_M", "GGUF Q5_K_M"),
        "q4_k_m" => ("GGUF Q4_K_M", "GGUF Q4_K_M"),
        "q4_0" => ("GGUF Q4_0", "GGUF Q4_0"),
        "q3_k_m" => ("GGUF Q3_K_M", "GGUF Q3_K_M"),
        "selective" => ("selective", "선택적"),
        "full" => ("full", "전체"),
        "optimizer" => ("CPU", "CPU로"),
        "optimizer-nvme" => ("NVMe", "NVMe로"),
        "offload-params" => ("CPU, with the weights (ZeRO-3)", "CPU로, 가중치까지 (ZeRO-3)"),
        "1f1b" => ("1F1B (holds min(m, p) micro-batches)", "1F1B (마이크로배치 min(m, p)개 보관)"),
        "gpipe" => ("GPipe (holds all m)", "GPipe (m개 모두 보관)"),
        "zb1p" => ("Zero bubble ZB-H1 (1F1B's memory, a third of its bubble)", "제로 버블 ZB-H1 (1F1B의 메모리, 버블은 3분의 1)"),
        "dualpipe" => ("DualPipe (both directions: 2× parameters, p + 1 micro-batches)", "DualPipe (양방향: 파라미터 2배, 마이크로배치 p + 1개)"),
        "mixed" => ("mixed (16-bit + fp32)", "혼합 정밀도 (16비트 + fp32)"),
        "adamw" => ("AdamW", "AdamW"),
        "adam-8bit" => ("8-bit Adam", "8비트 Adam"),
        "sgd-momentum" => ("SGD with momentum", "모멘텀 SGD"),
        "sgd" => ("SGD", "SGD"),
        "muon" => ("Muon (one momentum; AdamW for embeddings and norms)", "Muon (모멘텀 하나, 임베딩·정규화는 AdamW)"),
        "main-fp32" => ("fp32 (the article's 4 bytes)", "fp32 (원문의 4바이트)"),
        "main-fp16" => ("fp16 (2 bytes)", "fp16 (2바이트)"),
        "main-none" => ("none (16-bit weights updated in place)", "없음 (16비트 가중치를 그대로 갱신)"),
        "compute-short" => ("compute", "계산량"),
        "recompute-none" => ("no recomputation", "재계산 없음"),
        "recompute-selective" => ("selective recomputation", "선택적 재계산"),
        "recompute-full" => ("full recomputation", "전체 재계산"),
        "min-gpus" => ("Fewest GPUs that fit", "필요한 최소 GPU 수"),
        "use-min" => ("Use it", "이 구성 적용"),
        "reserve" => ("overhead", "고정 오버헤드"),
        "fastest-on" => ("Fastest layouts that fit on", "메모리에 맞는 가장 빠른 병렬 구성,"),
        "apply" => ("Apply", "적용"),
        "s-per-step" => ("s/step", "초/스텝"),
        "recompute-short" => ("recompute", "재계산"),
        "sp-short" => ("SP", "시퀀스 병렬화"),
        "mem-per-gpu" => ("memory/GPU", "GPU당 메모리"),
        "fp-bad-value" => ("Not a number (try 0.1, 65504, 1e-8)", "숫자가 아닙니다 (예: 0.1, 65504, 1e-8)"),
        "fp-format" => ("format", "형식"),
        "fp-bits" => ("sign · exponent · mantissa", "부호 · 지수 · 가수"),
        "fp-stored" => ("stored value", "저장되는 값"),
        "fp-ranges" => ("Ranges", "표현 범위"),
        "fp-sign" => ("sign", "부호"),
        "fp-exponent" => ("exponent", "지수"),
        "fp-mantissa" => ("mantissa", "가수"),
        "fp-exp-man" => ("exp·man", "지수·가수"),
        "fp-max" => ("max", "최댓값"),
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
        "fp-underflow" => ("underflow", "언더플로"),
        "fp-nan" => ("NaN", "NaN"),
        "fp-inf" => ("infinite", "무한대"),
        "fp-scaled" => ("× 1024 (loss scale)", "× 1024 (손실 스케일)"),
        "explain" => ("Show the formula", "식 보기"),
        "note-article-gradients" => (tmath::explain::note_english("note-article-gradients"), "원문의 3D 식은 그래디언트를 p로만 나눕니다. Megatron 방식은 t·p로 나눕니다."),
        "note-master-copy" => (tmath::explain::note_english("note-master-copy"), "혼합 정밀도는 가중치의 4바이트 fp32 사본을 따로 두고, 원문처럼 옵티마이저 상태에 포함합니다: 2 + 2 + 12 = 파라미터당 16바이트. 파라미터당 12바이트로 세는 일부 강의 자료(70B를 GPU 8장에 나누면 GPU당 105\u{a0}GB)는 이 사본을 빠뜨린 것이고, 16바이트로 세면 140\u{a0}GB입니다."),
        "note-pipeline-activations" => (tmath::explain::note_english("note-pipeline-activations"), "파이프라인 병렬화는 활성값을 줄이지 않습니다: 첫 단계가 L/p개 층의 마이크로배치를 m과 p 중 작은 수만큼 들고 있습니다."),
        "note-step-days" => (
            tmath::explain::note_english("note-step-days"),
            "Megatron 방식에서 시간은 스텝 시간 모델로 계산합니다: 최적화 스텝 D ÷ (B·s)번(스텝마다 길이 s인 시퀀스 B개), 한 스텝은 τ(순수 연산 속도)로 계산한 연산 시간에 파이프라인 버블과 연산에 가려지지 않는 통신 시간을 더한 값입니다(아래 스텝 막대). 실측과 얼마나 가까운지는 '이 계산은 실제와 얼마나 가까운가'에 있습니다.",
        ),
        "note-hardware-flops" => (
            tmath::explain::note_english("note-hardware-flops"),
            "공개된 학습 기록처럼 모델 FLOPs로 셉니다: 재계산은 여기서 빼고, 대신 학습 시간을 늘립니다(같은 실측 FLOP/s로 하드웨어가 하는 일).",
        ),
        "note-reserve" => (tmath::explain::note_english("note-reserve"), "식에 없는 메모리입니다: CUDA 컨텍스트, NCCL·프레임워크 버퍼(GPU당 1–2\u{a0}GB)와 할당기의 단편화. nvidia-smi에는 보이지만 원문의 식에는 없으므로, 원문 방식에서는 0입니다."),
        "note-logits" => (tmath::explain::note_english("note-logits"), "마지막 스테이지의 손실입니다. 처리 중인 마이크로배치마다 역전파 전까지 fp32 로그 확률(로짓당 4바이트)을 보관하고, 그중 하나가 일시 메모리(bf16 로짓이나 fp32 그래디언트)를 더합니다. 어느 구현의 교차 엔트로피인지는 손실 함수 설정이 정합니다."),
        "note-buffers" => (tmath::explain::note_english("note-buffers"), "프레임워크가 모델 상태 옆에 따로 잡는 메모리입니다. 시퀀스 병렬화에서는 층의 행렬 곱 직전에 모아 오는 입력(마이크로배치 하나의 s/cp·b·h 값), 그리고 PyTorch의 cuBLAS 작업 공간(Hopper 32 MiB, 그 밖의 NVIDIA GPU 8.1 MiB)입니다. 전문가 혼합(MoE)은 그룹 GEMM용으로 Transformer Engine의 작업 공간 네 개를 더 잡습니다(Hopper부터 4 × 32 MiB, 그 이전 4 × 4 MiB). 텐서 병렬 통신을 행렬 곱과 겹치면 작업 공간이 두 개 더 듭니다(2 × 32 MiB). 분산 옵티마이저의 버킷 패딩은 1 MB가 안 되어 뺐습니다."),
        "note-buffers-article" => (tmath::explain::note_english("note-buffers-article"), "원문의 식에는 프레임워크 자체 버퍼 항이 없습니다. Megatron 방식에서는 시퀀스 병렬화가 층 입력을 모아 두는 버퍼와 행렬 곱 작업 공간입니다."),
        "note-logits-article" => (tmath::explain::note_english("note-logits-article"), "원문의 식에는 손실 항이 없습니다. Megatron 방식에서는 마지막 스테이지의 가장 큰 일시 메모리입니다."),
        "note-live-zero3-only" => (tmath::explain::note_english("note-live-zero3-only"), "파라미터를 그때그때 모으는 것은 ZeRO-3뿐입니다."),
        "note-achieved-flops" => (tmath::explain::note_english("note-achieved-flops"), "τ는 데이터시트 최대치가 아니라 실제로 낸 FLOP/s입니다: 원문은 A100 한 장당 150(GPT-NeoX), 180(FlashAttention)을 들고, 115보다 낮으면 어딘가 문제가 있다고 합니다."),
        "note-200b" => (tmath::explain::note_english("note-200b"), "친칠라 최적점이 어디든, 원문은 2,000억 토큰보다 적게 학습하지 말라고 권합니다."),
        "presets" => ("Lecture presets", "강의용 예시"),
        "exports" => ("Export", "내보내기"),
        "present" => ("Presentation mode", "발표 모드"),
        "slides-help" => ("← → slides · F full screen · Esc leave", "← → 슬라이드 넘기기 · F 전체 화면 · Esc 나가기"),
        "slide-counter" => ("slide", "슬라이드"),
        "slides-nav" => ("Slides", "슬라이드"),
        "prev-slide" => ("Previous slide", "이전 슬라이드"),
        "next-slide" => ("Next slide", "다음 슬라이드"),
        "leave-slides" => ("Leave the slides", "발표 끝내기"),
        "preset-7b" => ("7B on one A100 80 GB (the article's example)", "A100 80\u{a0}GB 한 장에 70억 파라미터 모델 (원문 예시)"),
        "preset-activations-7b" => ("A 7B model at 4,096 tokens", "시퀀스 길이 4,096의 70억 파라미터 모델"),
        "preset-zero-paper" => ("ZeRO paper: 7.5B on 64 GPUs", "ZeRO 논문: GPU 64장에 75억 파라미터"),
        "preset-gpt-3" => ("GPT-3 175B on 1,024 A100s (t·p·d = 8·8·16)", "A100 1,024장(t·p·d = 8·8·16)에 GPT-3 175B"),
        "preset-70b-fsdp" => ("70B with FSDP (ZeRO-3): 8 vs 16 GPUs", "FSDP(ZeRO-3)로 700억 모델: GPU 8장과 16장"),
        "preset-70b-8" => (
            "70B with FSDP (ZeRO-3) on 8 GPUs: does not fit",
            "FSDP(ZeRO-3)로 GPU 8장에 700억 모델: 메모리 부족",
        ),
        "preset-70b-16" => ("70B with FSDP on 16 GPUs and full recomputation", "FSDP로 GPU 16장에 700억 모델, 전체 재계산"),
        "preset-405b" => ("Llama 3 405B on 16,384 H100s (t·p·d = 8·16·128)", "H100 16,384장(t·p·d = 8·16·128)에 Llama 3 405B"),
        "preset-lesson-a100" => ("Training cost: 70B on 1,024 A100s at $2 per GPU-hour", "학습 비용: A100 1,024장에 700억 모델, GPU‑시간당 $2"),
        "preset-lesson-h100" => ("Training cost: 70B on 1,024 H100s at $3.50 per GPU-hour", "학습 비용: H100 1,024장에 700억 모델, GPU‑시간당 $3.50"),
        "invalid-variant" => ("not a valid layout here", "여기서는 불가능한 구성"),
        "deck-article" => ("The article's story as slides (its own presets)", "원문 흐름대로 보는 슬라이드 (미리 정한 예시)"),
        "preset-inference-7b" => ("Serving 7B in fp16: 1.2 × the weights", "70억 모델을 fp16으로 서빙: 가중치의 1.2배"),
        "preset-serving-70b" => (
            "Serving Llama 3 70B in FP8 on two H100s: 32 users of 8k",
            "Llama 3 70B를 FP8로 H100 2장에서 서빙: 8k 토큰 사용자 32명",
        ),
        "preset-finetune-8b-4090" => (
            "Fine-tuning Llama 3 8B on one RTX 4090: full, LoRA, QLoRA",
            "RTX 4090 한 장에서 Llama 3 8B 파인튜닝: 전체, LoRA, QLoRA",
        ),
        "preset-grpo-7b" => (
            "GRPO of Qwen2.5 7B with LoRA on one H100: generation, then training",
            "H100 한 장에서 LoRA로 Qwen2.5 7B GRPO: 생성 다음 학습",
        ),
        "preset-chinchilla-70b" => ("Chinchilla: 70B on 1.4T tokens", "1.4조 토큰으로 학습한 700억 모델"),
        "preset-megatron-22b" => ("Megatron paper: 22B", "Megatron 논문: 22B"),
        "preset-megatron-175b" => ("Megatron paper: 175B", "Megatron 논문: 175B"),
        "preset-megatron-530b" => ("Megatron paper: 530B", "Megatron 논문: 530B"),
        "preset-megatron-1t" => ("Megatron paper: 1T", "Megatron 논문: 1T"),
        "zero-everything" => (
            "Activations, ZeRO-3 live parameters and overhead as well",
            "활성값, ZeRO-3 라이브 파라미터, 오버헤드도 표시",
        ),
        "model-states" => ("model states", "모델 상태"),
        "every-state" => ("weights, gradients and optimizer states", "가중치·그래디언트·옵티마이저 상태 모두"),
        "other-convention-article" => ("The article's equations", "원문의 식으로는"),
        "other-convention-megatron" => ("Megatron-LM's accounting would", "Megatron-LM 방식으로는"),
        "stage" => ("stage", "스테이지"),
        "step-time" => ("Time per optimizer step", "옵티마이저 스텝당 시간"),
        "step-compute" => ("compute at τ", "τ로 계산한 연산"),
        "step-bubble" => ("pipeline bubble", "파이프라인 버블"),
        "step-tp" => ("tensor-parallel communication", "텐서 병렬 통신"),
        "step-pp" => ("pipeline sends", "파이프라인 스테이지 간 전송"),
        "step-dp" => ("data-parallel communication not hidden", "데이터 병렬 통신 중 가려지지 않은 몫"),
        "step-cp" => ("context-parallel ring not hidden", "컨텍스트 병렬 링 통신 중 가려지지 않은 몫"),
        "step-ep" => ("expert-parallel exchange", "전문가 병렬 토큰 교환"),
        "step-optimizer" => ("optimizer update", "옵티마이저 업데이트"),
        "step-throughput" => ("tokens per second per GPU", "GPU당 초당 토큰 수"),
        "step-note-megatron" => (
            "The same step model as the planner's; the days above are this step repeated D ÷ (B·s) times. τ is the rate of compute alone; how close this comes to measured runs: \"How close is this to reality\".",
            "플래너와 같은 계산 방식이며, 위의 학습 기간은 이 스텝을 D ÷ (B·s)번 반복한 값입니다. τ는 순수 연산 속도입니다. 실측과 얼마나 가까운지는 '이 계산은 실제와 얼마나 가까운가'에 있습니다.",
        ),
        "step-note-article" => (
            "One model with the planner. Under the article's convention the days stay C/(N·τ); under megatron they are this step's.",
            "플래너와 같은 모델입니다. 원문 방식에서 학습 기간은 C/(N·τ) 그대로이고, Megatron 방식에서는 이 스텝으로 계산합니다.",
        ),
        "stages-key" => (
            "Under each stage: its layers × the forwards it holds in flight (micro-batches; with v virtual stages, chunks of L/(p·v) layers; with a pipeline layout, the rank's layers × micro-batches' worth of them); E the input embedding, L the output layer and the loss, M the MTP modules. A framework's peak is one rank's: Megatron-LM's TensorBoard figures are the last rank's, the last stage, while its log prints every stage of the first data-parallel replica.",
            "스테이지마다 아래 숫자는 층 수 × 동시에 처리 중인 순전파 수입니다(마이크로배치 수, 가상 스테이지 v를 쓰면 L/(p·v)개 층 묶음의 수, 파이프라인 레이아웃을 주면 그 랭크의 층 수 × 마이크로배치 몇 개 분량인지). E는 입력 임베딩, L은 출력층과 손실, M은 MTP 모듈입니다. 프레임워크가 남기는 최대 메모리는 랭크 하나의 값입니다. Megatron-LM의 TensorBoard 값은 마지막 랭크, 곧 마지막 스테이지의 값이고, 로그에는 첫 데이터 병렬 복제본의 모든 스테이지가 찍힙니다.",
        ),
        "axis-d" => ("d only", "데이터 병렬만"),
        "axis-none" => ("No parallelism (1\u{a0}GPU)", "병렬화 없음 (GPU\u{a0}1장)"),
        "axis-td" => ("t × d", "t × d"),
        "axis-pd" => ("p × d", "p × d"),
        "axis-tpd" => ("t × p × d", "t × p × d"),
        "sweep-params" => (
            "Memory per GPU against model size (shape scaled with P)",
            "모델 크기에 따른 GPU당 메모리 (층 수·은닉 차원을 P에 맞춰 조정)",
        ),
        "sweep-seq" => ("Memory per GPU against sequence length", "시퀀스 길이에 따른 GPU당 메모리"),
        "sweep-gpus" => ("Memory per GPU against GPU count, by ZeRO stage", "GPU 수에 따른 GPU당 메모리, ZeRO 단계별"),
        "sweep-days" => ("Training days against GPU count", "GPU 수에 따른 학습 기간(일)"),
        "plan-assumptions" => ("Assumptions", "가정"),
        "open-full" => ("Open the full calculator", "전체 계산기에서 열기"),
        "embed" => ("Embed", "퍼가기"),
        "embed-title" => ("Embed this figure", "이 그림 퍼가기"),
        "embed-view" => ("Figure", "그림"),
        "embed-code-label" => ("For any page: a frame (iframe)", "어느 페이지에나: 틀(iframe)"),
        "embed-preview" => ("Preview at 720 px wide", "너비 720px 미리 보기"),
        "embed-preview-scaled" => ("Preview at 720 px wide, drawn smaller to fit", "너비 720px 미리 보기 (화면에 맞게 축소)"),
        "embed-note" => (
            "The frame's height holds the whole figure at every width from 360 to 720 px, so a page that runs no script shows it whole on a phone too: the chart grows or shrinks to keep that height. A page that runs scripts can also follow the figure's own height messages (tmath:resize).",
            "틀의 높이는 너비 360px부터 720px까지 어디서나 그림 전체가 들어가는 높이입니다. 그래서 스크립트를 실행하지 않는 페이지에서도, 휴대전화에서도 그림이 다 보입니다. 그래프가 늘거나 줄어 그 높이를 지킵니다. 스크립트를 실행하는 페이지라면 그림이 보내는 높이 메시지(tmath:resize)를 따를 수도 있습니다.",
        ),
        "embed-module-label" => (
            "For a page that runs scripts: one module for every figure",
            "스크립트를 실행하는 페이지에: 모든 그림에 모듈 하나",
        ),
        "embed-module-note" => (
            "Paste the <script> line once per page, however many figures it holds: the calculator then loads once for all of them, whereas each frame loads its own copy, and each figure appears as it comes near the screen. Each figure keeps its own state; the page's styles do not reach it, nor its styles the page.",
            "<script> 줄은 그림이 몇 개든 페이지에 한 번만 붙이면 됩니다. 틀은 그림마다 계산기를 따로 불러오지만 모듈은 모든 그림에 한 번만 불러오고, 그림은 화면 가까이 왔을 때 나타납니다. 그림마다 상태가 따로 유지되고, 페이지의 스타일과 그림의 스타일은 서로 섞이지 않습니다.",
        ),
        "close" => ("Close", "닫기"),
        "frame-title" => ("Transformer Math calculator", "트랜스포머 수학 계산기"),
        "panic" => ("Something went wrong inside the calculator.", "계산기 안에서 문제가 생겼습니다."),
        "reset" => ("Start over with the defaults", "기본값으로 다시 시작"),
        _ => return "?",
    };
    pick(lang, en, ko)
}

/// Why a pasted config.json was not read, in the page's language.
pub fn hf_error(lang: Lang, e: &tmath::hf::HfError) -> String {
    use tmath::hf::HfError;
    if lang == Lang::En {
        return format!("config.json: {e}");
    }
    match e {
        HfError::NotJson { at } => format!("config.json: JSON이 아닙니다 ({at}번째 글자에서 멈춤)"),
        HfError::NotObject => "config.json은 { … } 객체 하나여야 합니다".into(),
        HfError::NoShape => "config.json에 모델 구조 항목(num_hidden_layers, hidden_size 등)이 없습니다".into(),
    }
}

pub fn megatron_error(lang: Lang, e: &tmath::megatron::ArgsError) -> String {
    use tmath::megatron::ArgsError;
    match (lang, e) {
        (Lang::En, e) => format!("Megatron-LM: {e}"),
        (Lang::Ko, ArgsError::NoFlags) => "Megatron-LM: --로 시작하는 실행 인자가 없습니다".into(),
        (Lang::Ko, ArgsError::NoShape) => {
            "Megatron-LM: 모델 구조 인자(--num-layers, --hidden-size 등)가 없습니다".into()
        }
    }
}

/// A warning in the page's language.
pub fn warning(lang: Lang, w: &Warning) -> String {
    if lang == Lang::En {
        return w.to_string();
    }
    match w {
        Warning::TpAcrossNodes { tp, node } => {
            format!("텐서 병렬 {tp} > 노드당 GPU {node}장: 노드 사이의 느린 연결을 건넙니다")
        }
        Warning::PipelineWithZero23 { zero } => {
            format!(
                "파이프라인 병렬화와 {} DeepSpeed에서 함께 쓸 수 없습니다 (그래디언트 샤딩과 그래디언트 누적이 충돌)",
                josa(&format!("ZeRO-{zero}"), "은", "는")
            )
        }
        Warning::PipelineUneven { layers, pp } => format!(
            "층 {layers}개가 파이프라인 스테이지 {pp}개로 고르게 나뉘지 않습니다: 가장 많은 스테이지가 층 {}개를 맡습니다",
            layers.div_ceil(*pp)
        ),
        Warning::FewMicroBatches { grad_accum, pp } => format!(
            "파이프라인 단계 {pp}개에 마이크로배치 {grad_accum}개: 파이프라인이 다 차지 않아 스텝의 {:.0}% 동안 쉽니다",
            100.0 * tmath::parallel::bubble_fraction(*pp, *grad_accum)
        ),
        Warning::TokensBelowFloor { tokens } => {
            format!("{} 토큰: 원문은 LLM을 2,000억 토큰보다 적게 학습하는 것을 권하지 않습니다", count(lang, *tokens))
        }
        Warning::ShapeMismatch { params, shape_params } => format!(
            "P\u{a0}=\u{a0}{}인데 모델 구조(L, h, a, V, KV 헤드, FFN, 전문가)로 세면 {}: 활성값은 구조를 따릅니다",
            count(lang, *params),
            count(lang, *shape_params)
        ),
        Warning::SequenceParallelWithoutTp => "시퀀스 병렬화는 t > 1일 때만 효과가 있습니다".into(),
        Warning::PartitionWithSequenceParallel => {
            "활성값 분할과 시퀀스 병렬화는 둘 다 활성값을 t로 나눕니다: 한 번만 셉니다".into()
        }
        Warning::TflopsAbovePeak { tflops, peak } => {
            format!("실제 {}\u{a0}TFLOP/s가 데이터시트 최대치 {peak}보다 큽니다", format_sig(*tflops))
        }
        Warning::A100BelowExpected { tflops } => format!(
            "A100 한 장당 {}\u{a0}TFLOP/s: 원문은 약 120은 늘 낼 수 있어야 하고 115보다 낮으면 어딘가 문제가 있다고 합니다",
            format_sig(*tflops)
        ),
        Warning::OffloadWithoutZero => "ZeRO-Offload는 오프로드한 옵티마이저를 샤딩합니다: ZeRO 1–3을 쓰세요(가중치까지 오프로드하려면 ZeRO-3)".into(),
        Warning::LiveParamsLarge => {
            "ZeRO-3 라이브 파라미터가 샤딩된 가중치보다 큽니다: ZeRO-3 최대 라이브 파라미터를 줄이세요".into()
        }
        Warning::ScoresStored { with_flash } => format!(
            "원문의 식은 s×s 어텐션 점수를 저장합니다: FlashAttention을 쓰면 활성값은 {}\u{a0}GB입니다",
            format_sig(with_flash / 1e9)
        ),
        Warning::TpGradients { gradients, total } => format!(
            "원문은 그래디언트를 p로만 나눕니다: Megatron-LM처럼 t·p로 나누면(계산 방식 Megatron) 그래디언트는 {}\u{a0}GB, 합계는 {}\u{a0}GB입니다",
            format_sig(gradients / 1e9),
            format_sig(total / 1e9)
        ),
        Warning::CpuMemory { needed, capacity } => format!(
            "오프로드에 노드당 CPU 메모리 {}\u{a0}GB가 필요한데, 노드에는 {}\u{a0}GB뿐입니다",
            grouped_sig(needed / 1e9),
            grouped_sig(capacity / 1e9)
        ),
        Warning::OffloadSlower => {
            "오프로드하면 스텝이 느려집니다: 강의 자료는 30–50%로 잡습니다. 여기 나온 시간과 비용에는 빠져 있습니다".into()
        }
        Warning::NotModelled { model, parts } => {
            let parts: Vec<&str> = parts
                .iter()
                .map(|p| match p {
                    tmath::catalog::Unmodelled::Mtp => "다중 토큰 예측(MTP) 모듈(MTP 모듈 수를 1로 하면 들어감)",
                    tmath::catalog::Unmodelled::Fp8 => "FP8 학습(FP8 학습을 블록 단위로 하면 들어감)",
                })
                .collect();
            format!("{model}의 {}은 이 계산에 들어 있지 않습니다", parts.join("과 "))
        }
        Warning::PagedOptimizer { states } => format!(
            "페이지드 옵티마이저(bitsandbytes의 paged_adamw_8bit, QLoRA의 방식)를 쓰면 옵티마이저 상태 {}\u{a0}GB는 CUDA 통합 메모리에 놓입니다. torch.cuda.memory_allocated와 memory_reserved에는 잡히지 않고, GPU에 올라 있는 동안 nvidia-smi에는 잡히며, 메모리가 모자라면 실패하는 대신 CPU 메모리로 옮겨집니다. 여기 합계는 이 상태를 GPU에 둔 값입니다",
            format_sig(states / 1e9)
        ),
        Warning::LinearLayersTraining { linear } => format!(
            "선형 층 {linear}개: 서빙은 고정된 상태를 세지만, 학습은 이 층들을 어텐션 층으로 셉니다(활성값과 FLOPs는 아직 모델링하지 않았습니다)"
        ),
        Warning::ContextBeyondPositions { context, limit } => format!(
            "컨텍스트 {}토큰은 이 모델이 읽는 최대 컨텍스트 {}토큰을 넘습니다",
            tmath::units::group_thousands(&context.to_string()),
            tmath::units::group_thousands(&limit.to_string())
        ),
        Warning::AttentionFlops { share, with_attention } => format!(
            "6PD에는 어텐션 연산이 빠져 있습니다. 이 시퀀스 길이에서 넣으면 {:.0}% 많은 {}\u{a0}FLOPs입니다 (PaLM 부록 B)",
            100.0 * share,
            format_sig(*with_attention)
        ),
        Warning::StepOverhead { bubble, comm } => format!(
            "C/(N·τ)에는 파이프라인 버블(스텝 연산의 +{:.0}%)과 연산 뒤에 숨지 못한 통신(+{:.0}%)이 빠져 있습니다",
            100.0 * bubble,
            100.0 * comm
        ),
    }
}

/// The label of the key an error is about, or the text as given for an unknown key.
fn named(lang: Lang, key: &str) -> String {
    K::of(key).map_or_else(|| format!("'{}'", tmath::keys::shown(key)), |k| label(lang, k).to_string())
}

/// A rejected value beside its control, naming the field by its label.
pub fn setting_error(lang: Lang, e: &SettingError) -> String {
    error_text(lang, e, named(lang, e.key()))
}

/// A rejected key or value of a link: the field's label and, since the link is what
/// has to change, its key there ("Parameters P (params)").
pub fn link_error(lang: Lang, e: &SettingError) -> String {
    let field = match K::of(e.key()) {
        Some(k) => format!("{} ({})", label(lang, k), k.name()),
        None => named(lang, e.key()),
    };
    error_text(lang, e, field)
}

fn error_text(lang: Lang, e: &SettingError, field: String) -> String {
    let cut = tmath::keys::shown;
    // The value as the topic: '-5'는, 'abc'는, '10'은.
    let topic = |value: &str| josa(&format!("'{}'", cut(value)), "은", "는");
    match (lang, e) {
        (Lang::En, SettingError::UnknownKey(k)) => format!("unknown key '{}'", cut(k)),
        (Lang::Ko, SettingError::UnknownKey(k)) => format!("알 수 없는 항목 '{}'", cut(k)),
        (Lang::En, SettingError::BadNumber { value, why, .. }) => match why {
            NumberError::TooLarge => format!("{field}: '{}' is too large", cut(value)),
            NumberError::NotFinite => format!("{field}: '{}' is not a finite number", cut(value)),
            NumberError::Empty => format!("{field}: empty"),
            _ => format!("{field}: '{}' is not a number (try 7e9, 7B, 1.4T)", cut(value)),
        },
        (Lang::Ko, SettingError::BadNumber { value, why, .. }) => match why {
            NumberError::TooLarge => format!("{field}: {} 너무 큽니다", topic(value)),
            NumberError::NotFinite => format!("{field}: {} 유한한 수가 아닙니다", topic(value)),
            NumberError::Empty => format!("{field}: 비어 있습니다"),
            _ => format!("{field}: {} 숫자가 아닙니다 (예: 7e9, 7B, 70억)", topic(value)),
        },
        (Lang::En, SettingError::NotWhole { value, .. }) => format!("{field}: '{}' must be a whole number", cut(value)),
        (Lang::Ko, SettingError::NotWhole { value, .. }) => format!("{field}: {} 정수여야 합니다", topic(value)),
        (Lang::En, SettingError::OutOfRange { value, min, max, .. }) => format!(
            "{field}: '{}' is out of range ({} to {})",
            cut(value),
            tmath::keys::bound(*min),
            tmath::keys::bound(*max)
        ),
        (Lang::Ko, SettingError::OutOfRange { value, min, max, .. }) => format!(
            "{field}: {} 범위를 벗어납니다 ({}부터 {}까지)",
            topic(value),
            tmath::keys::bound(*min),
            tmath::keys::bound(*max)
        ),
        (Lang::En, SettingError::UnknownChoice { value, choices, .. }) => {
            format!("{field}: '{}' is not one of {}", cut(value), choices.join(", "))
        }
        (Lang::Ko, SettingError::UnknownChoice { value, choices, .. }) => {
            format!("{field}: {} 다음 중 하나가 아닙니다: {}", topic(value), choices.join(", "))
        }
        (Lang::En, SettingError::BadSwitch { value, .. }) => {
            format!("{field}: '{}' is not on or off (1/0)", cut(value))
        }
        (Lang::Ko, SettingError::BadSwitch { value, .. }) => {
            format!("{field}: {} 켜기/끄기 값(1/0)이 아닙니다", topic(value))
        }
        (Lang::En, SettingError::Elsewhere { .. }) => format!("{field}: not a key of this page"),
        (Lang::Ko, SettingError::Elsewhere { .. }) => format!("{field}: 이 페이지의 항목이 아닙니다"),
        (Lang::En, SettingError::Refused { value, why, .. }) => {
            format!("{field}: '{}' was not applied, since {}", cut(value), config_error(lang, why))
        }
        (Lang::Ko, SettingError::Refused { value, why, .. }) => format!(
            "{field}: {} 적용하지 않았습니다. {}.",
            josa(&format!("'{}'", cut(value)), "을", "를"),
            config_error(lang, why)
        ),
    }
}

/// An impossible combination in the page's language.
/// Why the planner lists no layout that fits on the GPUs ([`tmath::planner::why_none`]).
pub fn no_layout(lang: Lang, why: tmath::planner::NoLayout, u: tmath::units::ByteUnit) -> String {
    use tmath::planner::NoLayout as N;
    let b = |x: f64| u.format(tmath::Bytes(x));
    match (lang, why) {
        (Lang::En, N::Memory { least_bytes, gpu_bytes }) => format!(
            "No layout fits on this many GPUs: the leanest needs {} per GPU, over the GPU's {}.",
            b(least_bytes),
            b(gpu_bytes)
        ),
        (Lang::En, why) => format!("No layout on this many GPUs: {why}."),
        (Lang::Ko, N::Memory { least_bytes, gpu_bytes }) => format!(
            "이 GPU 수로는 메모리에 맞는 병렬 구성이 없습니다. 가장 적게 쓰는 구성도 GPU당 {}가 필요해 GPU 메모리 {}를 넘습니다.",
            b(least_bytes),
            b(gpu_bytes)
        ),
        (Lang::Ko, N::ContextParallel { cp }) => {
            format!("이 GPU 수로는 병렬 구성이 없습니다. GPU 수가 cp\u{a0}=\u{a0}{cp}의 배수가 아닙니다.")
        }
        (Lang::Ko, N::Batch { global_batch, ep }) => format!(
            "이 GPU 수로는 병렬 구성이 없습니다. 전역 배치 G\u{a0}=\u{a0}{} 나누어떨어지게 하면서 파이프라인을 채울 마이크로배치를 p개 이상 남기는 데이터 병렬 차수 d\u{a0}=\u{a0}N/(cp·t·p){}가 없습니다.",
            josa(&global_batch.to_string(), "을", "를"),
            if ep > 1 { format!("(d·cp는 ep\u{a0}=\u{a0}{ep}의 배수)") } else { String::new() }
        ),
    }
}

pub fn config_error(lang: Lang, e: &ConfigError) -> String {
    if lang == Lang::En {
        return e.to_string();
    }
    match e {
        ConfigError::GpuMismatch { gpus, tp, pp, cp: 1, dp } => {
            format!("GPU {gpus}장 ≠ t·p·d\u{a0}=\u{a0}{tp}·{pp}·{dp} = {}", tp * pp * dp)
        }
        ConfigError::GpuMismatch { gpus, tp, pp, cp, dp } => {
            format!("GPU {gpus}장 ≠ t·p·cp·d\u{a0}=\u{a0}{tp}·{pp}·{cp}·{dp} = {}", tp * pp * cp * dp)
        }
        ConfigError::GpusNotDivisible { gpus, tp, pp, cp: 1 } => {
            format!("GPU {gpus}장이 t·p\u{a0}=\u{a0}{}의 배수가 아닙니다", tp * pp)
        }
        ConfigError::GpusNotDivisible { gpus, tp, pp, cp } => {
            format!("GPU {gpus}장이 t·p·cp\u{a0}=\u{a0}{}의 배수가 아닙니다", tp * pp * cp)
        }
        ConfigError::EpNotDividingExperts { ep, experts } => {
            format!("층당 전문가 {experts}개를 전문가 병렬 크기(ep\u{a0}=\u{a0}{ep})로 나눌 수 없습니다")
        }
        ConfigError::QloraNeedsNf4 { base } => {
            format!("QLoRA는 기반 모델을 NF4로 양자화합니다: 기반 모델 저장 타입이 {base}이면 LoRA입니다(학습 대상을 LoRA로 고르세요)")
        }
        ConfigError::Mxfp8NeedsBlackwell { gpu } => {
            format!("MXFP8은 블랙웰 GPU(B200)에서만 돌아갑니다: {gpu}에서는 텐서 단위나 블록 단위 스케일링을 쓰세요")
        }
        ConfigError::ExpertGroups { etp, ep, ranks } => format!(
            "t·d·cp\u{a0}=\u{a0}{} etp·ep\u{a0}=\u{a0}{etp}·{ep}로 나눌 수 없습니다",
            josa(&ranks.to_string(), "을", "를")
        ),
        ConfigError::EpNotDividingDataParallel { ep, ranks } => {
            format!(
                "d·cp\u{a0}=\u{a0}{} 전문가 병렬 크기(ep\u{a0}=\u{a0}{ep})로 나눌 수 없습니다",
                josa(&ranks.to_string(), "을", "를")
            )
        }
        ConfigError::TpNotDividingHeads { tp, heads } => {
            format!(
                "t\u{a0}=\u{a0}{}는 어텐션 헤드 {heads}개를 똑같이 나눌 수 없습니다",
                josa(&tp.to_string(), "으로", "로")
            )
        }
        ConfigError::TpNotDividingKvHeads { tp, kv_heads } => {
            format!(
                "t\u{a0}=\u{a0}{}는 KV 헤드 {kv_heads}개를 똑같이 나눌 수 없습니다",
                josa(&tp.to_string(), "으로", "로")
            )
        }
        ConfigError::TooManyGpus => "t·p·d가 10⁹ GPU를 넘습니다".into(),
        ConfigError::HeadsNotDividingHidden { hidden, heads } => {
            format!("은닉 차원 {} 어텐션 헤드 수 {heads}의 배수가 아닙니다", josa(&hidden.to_string(), "이", "가"))
        }
        ConfigError::KvHeadsNotDividingHeads { kv_heads, heads } => {
            format!("KV 헤드 {kv_heads}개가 어텐션 헤드 {heads}개를 나누지 못합니다")
        }
        ConfigError::TopKAboveExperts { top_k, experts } => {
            format!("토큰당 전문가 {top_k}개가 층당 전문가 {experts}개보다 많습니다")
        }
        ConfigError::StageLayers { layers, pp, vpp: 1 } => {
            format!("층 {layers}개를 첫·마지막 스테이지 층 수에 맞춰 스테이지 {pp}개에 나눌 수 없습니다")
        }
        ConfigError::DualPipeOdd { pp } => {
            format!("DualPipe는 한 랭크에 스테이지 i와 p − 1 − i를 함께 둡니다: 스테이지 {pp}개는 짝수가 아닙니다")
        }
        ConfigError::StageLayers { layers, pp, vpp } => {
            format!("층 {layers}개를 스테이지 {pp}개 × 가상 스테이지 {vpp}개로 똑같이 나눌 수 없습니다")
        }
        ConfigError::PpLayout(why) => layout_error(why),
        ConfigError::ServeTpNotDividingHeads { tp, heads } => {
            format!(
                "서빙 텐서 병렬 {}는 어텐션 헤드 {heads}개를 똑같이 나눌 수 없습니다",
                josa(&tp.to_string(), "으로", "로")
            )
        }
        ConfigError::ServePpAboveLayers { pp, layers } => {
            format!("서빙 파이프라인 스테이지 {pp}개가 층 {layers}개보다 많습니다")
        }
        ConfigError::ActiveAboveParams { active, params } => {
            format!(
                "토큰당 쓰는 파라미터 {} 전체 파라미터 {}보다 많습니다",
                josa(&count(lang, *active), "이", "가"),
                count(lang, *params)
            )
        }
    }
}

/// Why a pipeline layout string is refused, in Korean.
fn layout_error(why: &tmath::pp_layout::LayoutError) -> String {
    use tmath::pp_layout::LayoutError as E;
    match why {
        E::Symbol(c) => format!("파이프라인 레이아웃: '{c}' 기호는 E, t, m, L, |, (, ), * 가운데 하나가 아닙니다"),
        E::Count => "파이프라인 레이아웃: '*' 뒤에는 1 이상의 반복 횟수가 와야 합니다".into(),
        E::Parenthesis => "파이프라인 레이아웃: 괄호의 짝이 맞지 않습니다".into(),
        E::TooLong => "파이프라인 레이아웃: 반복을 펼치면 기호가 100,000개를 넘습니다".into(),
        E::EmptyStage => "파이프라인 레이아웃: '|' 사이에 빈 스테이지가 있습니다".into(),
        E::Stages { stages, pp, vpp: 1 } => {
            format!("파이프라인 레이아웃의 스테이지 {stages}개가 p\u{a0}=\u{a0}{pp}의 배수가 아닙니다")
        }
        E::Stages { stages, pp, vpp } => format!(
            "파이프라인 레이아웃의 스테이지 {stages}개가 p·v\u{a0}=\u{a0}{pp}·{vpp}\u{a0}=\u{a0}{}개와 다릅니다",
            pp * vpp
        ),
        E::Layers { given, model } => {
            format!("파이프라인 레이아웃은 층 {given}개를 배치하지만 모델의 층은 {model}개입니다")
        }
        E::Mtp { given, model } => {
            format!("파이프라인 레이아웃은 MTP 모듈 {given}개를 배치하지만 모델의 MTP 모듈은 {model}개입니다")
        }
        E::Ends => "파이프라인 레이아웃에서 E는 첫 스테이지에, L은 마지막 스테이지에 한 번씩만 와야 합니다".into(),
        E::WithFirstLast => "파이프라인 레이아웃은 첫·마지막 스테이지의 층 수를 대신합니다. 둘 중 하나만 주세요".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A preset's title that names its GPU count names the count its link gives.
    #[test]
    fn preset_titles_count_their_gpus() {
        for p in tmath::presets::PRESETS {
            let (state, _) = tmath::link::load(p.query);
            let n = state.settings.resolve().map(|c| c.layout.gpus()).unwrap();
            for lang in [Lang::En, Lang::Ko] {
                let title = tr(lang, &format!("preset-{}", p.name));
                if title.contains("t·p·d") {
                    assert!(title.contains(&tmath::units::group_thousands(&n.to_string())), "{title}: {n}");
                }
            }
        }
    }

    /// Every text key the views use exists in both languages: a typo fails here,
    /// not as "?" on the page. Keys are string literals passed to `Tr`, `t(…)`
    /// or `tr(…, …)`, and the layout table's legends, anywhere in the crate's sources.
    #[test]
    fn every_text_key_used_in_the_sources_exists() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let mut files = vec![std::path::PathBuf::from(dir)];
        let mut used = Vec::new();
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            let src = std::fs::read_to_string(&path).unwrap();
            for pattern in ["<Tr key=\"", ".t(\"", "tr(lang, \"", "tr(ctx.lang.get(), \"", "legend: \""] {
                for part in src.split(pattern).skip(1) {
                    let key: String = part.chars().take_while(|c| *c != '"').collect();
                    used.push((path.display().to_string(), key));
                }
            }
        }
        assert!(used.len() > 60, "found only {} keys: the scan is broken", used.len());
        for (file, key) in used {
            for lang in [Lang::Ko, Lang::En] {
                assert_ne!(tr(lang, &key), "?", "{file}: text key {key:?} has no {lang:?} text");
            }
        }
    }

    #[test]
    fn every_validation_gap_has_a_label() {
        for gap in tmath::validation::ROWS.iter().filter_map(|r| r.gap) {
            for lang in [Lang::Ko, Lang::En] {
                assert_ne!(tr(lang, &format!("validation-gap-{}", gap.as_str())), "?", "{gap:?}");
            }
        }
    }

    #[test]
    fn every_preset_has_a_label() {
        for p in tmath::presets::PRESETS {
            for lang in [Lang::Ko, Lang::En] {
                assert_ne!(tr(lang, &format!("preset-{}", p.name)), "?", "{}", p.name);
            }
        }
    }

    /// Issue 41: Korean formula popups wrote 70B, 1.4T and 300B.
    #[test]
    fn formula_counts_in_korean_units() {
        assert_eq!(formula_counts(Lang::Ko, "6 · 70B · 1.4T = 5.88e23 FLOPs"), "6 · 700억 · 1.4조 = 5.88e23 FLOPs");
        assert_eq!(formula_counts(Lang::Ko, "20 · 300B = 6T"), "20 · 3,000억 = 6조");
        // Model names, exponents and words are left alone.
        assert_eq!(formula_counts(Lang::Ko, "A100 fp8 1e22 B·s 4096·1"), "A100 fp8 1e22 B·s 4096·1");
        assert_eq!(formula_counts(Lang::En, "6 · 70B"), "6 · 70B");
    }

    /// A particle follows the sound its word ends on, as a Korean reader says it.
    #[test]
    fn particles_follow_the_final_sound() {
        for (word, topic) in [
            ("'-5'", "'-5'는"),
            ("'abc'", "'abc'는"),
            ("'10'", "'10'은"),
            ("'12'", "'12'는"),
            ("'7B'", "'7B'는"),
            ("'70억'", "'70억'은"),
            ("'1.4조'", "'1.4조'는"),
            ("'0'", "'0'은"),
            ("'2.0'", "'2.0'은"),
            ("'1e12'", "'1e12'는"),
            ("ZeRO-3", "ZeRO-3은"),
            ("ZeRO-2", "ZeRO-2는"),
            ("GPU", "GPU는"),
            ("HTML", "HTML은"),
            ("1000000000000", "1000000000000는"),
        ] {
            assert_eq!(josa(word, "은", "는"), topic, "{word}");
        }
        assert_eq!(josa("8", "이", "가"), "8이");
        assert_eq!(josa("4", "이", "가"), "4가");
        assert_eq!(josa("4096", "이", "가"), "4096이");
        assert_eq!(josa("4095", "이", "가"), "4095가");
        assert_eq!(josa("16", "을", "를"), "16을");
        assert_eq!(josa("서울", "으로", "로"), "서울로");
        assert_eq!(josa("7", "으로", "로"), "7로");
        assert_eq!(josa("3", "으로", "로"), "3으로");
        assert_eq!(josa("(8)", "이", "가"), "(8)이");
    }

    #[test]
    fn a_thousand_is_not_a_kibi() {
        assert_eq!(
            thousands_not_kibi(Lang::En, 128_000).as_deref(),
            Some("128k reads as 128,000 tokens; for 131,072, write 128Ki")
        );
        for n in [131_072, 2048, 100_000, 1000, 0, 3000] {
            assert_eq!(thousands_not_kibi(Lang::Ko, n), None, "{n}");
        }
    }

    #[test]
    fn korean_counts() {
        for (x, text) in [(7e9, "70억"), (1.4e12, "1.4조"), (300e9, "3,000억"), (6.74e9, "67.4억"), (4096.0, "4,096")]
        {
            assert_eq!(count(Lang::Ko, x), text);
        }
        assert_eq!(count(Lang::En, 7e9), "7B");
        for (x, text) in [(6_738_415_616.0, "67.38억"), (1.4e12, "1.4조"), (3e11, "3,000억"), (7e9, "70억")] {
            assert_eq!(count4(x), text);
            assert_eq!(tmath::units::parse_number(text).unwrap(), super::super::fields::scale::round_sig(x, 4));
        }
        assert_eq!(spoken(Lang::En, K::Params, 7e9), "7 billion parameters");
        assert_eq!(spoken(Lang::En, K::Tokens, 4096.0), "4,096 tokens");
        assert_eq!(spoken(Lang::Ko, K::Params, 7e9), "파라미터 70억");
    }
}
