//! Catalogues of GPUs and models, each figure with its source.

use serde::Serialize;

/// One accelerator.
#[derive(Debug, PartialEq, Serialize)]
pub struct Gpu {
    /// Catalogue key (`gpu=`).
    pub name: &'static str,
    pub label: &'static str,
    /// Memory as the vendor labels it; the card holds this many GiB (2³⁰ bytes).
    pub mem_gb: f64,
    /// Datasheet dense bf16/fp16 tensor TFLOP/s (no sparsity).
    pub peak_tflops: f64,
    /// Default achieved TFLOP/s per GPU (τ); editable.
    pub achieved_tflops: f64,
    /// Default price per GPU-hour in US dollars; an editable assumption.
    pub usd_per_hour: f64,
}

impl Gpu {
    /// Usable bytes: the vendor's "80 GB" A100 reports 81 920 MiB = 80 GiB.
    pub fn mem_bytes(&self) -> f64 {
        self.mem_gb * crate::units::Bytes::GIB
    }
}

// Peak figures: vendor datasheets (NVIDIA V100, A100, H100, H200, B200, L40S,
// GeForce RTX 4090 Ada whitepaper; AMD Instinct MI300X), dense bf16 or fp16
// tensor throughput without sparsity.
// Achieved figures: A100, the article ("GPT-NeoX achieves 150 TFLOP/s per
// A100"); H100, Llama 3 paper (Dubey et al. 2024, Table 4: 380–430 TFLOP/s
// per GPU at 8K–16K GPUs, 400 taken); the others an assumption of ~40% of peak.
// Prices: an assumption, typical 2025 on-demand cloud prices; always editable.
pub static GPUS: &[Gpu] = &[
    Gpu {
        name: "a100-80gb",
        label: "NVIDIA A100 80 GB",
        mem_gb: 80.0,
        peak_tflops: 312.0,
        achieved_tflops: 150.0,
        usd_per_hour: 1.79,
    },
    Gpu {
        name: "a100-40gb",
        label: "NVIDIA A100 40 GB",
        mem_gb: 40.0,
        peak_tflops: 312.0,
        achieved_tflops: 150.0,
        usd_per_hour: 1.29,
    },
    Gpu {
        name: "h100-80gb",
        label: "NVIDIA H100 80 GB (SXM)",
        mem_gb: 80.0,
        peak_tflops: 989.0,
        achieved_tflops: 400.0,
        usd_per_hour: 2.99,
    },
    Gpu {
        name: "h200",
        label: "NVIDIA H200 141 GB",
        mem_gb: 141.0,
        peak_tflops: 989.0,
        achieved_tflops: 400.0,
        usd_per_hour: 3.79,
    },
    Gpu {
        name: "b200",
        label: "NVIDIA B200 192 GB",
        mem_gb: 192.0,
        peak_tflops: 2250.0,
        achieved_tflops: 900.0,
        usd_per_hour: 5.99,
    },
    Gpu {
        name: "mi300x",
        label: "AMD Instinct MI300X 192 GB",
        mem_gb: 192.0,
        peak_tflops: 1307.0,
        achieved_tflops: 520.0,
        usd_per_hour: 2.49,
    },
    Gpu {
        name: "v100-32gb",
        label: "NVIDIA V100 32 GB",
        mem_gb: 32.0,
        peak_tflops: 125.0,
        achieved_tflops: 50.0,
        usd_per_hour: 0.79,
    },
    Gpu {
        name: "l40s",
        label: "NVIDIA L40S 48 GB",
        mem_gb: 48.0,
        peak_tflops: 362.0,
        achieved_tflops: 145.0,
        usd_per_hour: 0.99,
    },
    Gpu {
        name: "rtx-4090",
        label: "NVIDIA GeForce RTX 4090 24 GB",
        mem_gb: 24.0,
        peak_tflops: 165.0,
        achieved_tflops: 66.0,
        usd_per_hour: 0.39,
    },
];

/// The default GPU: one A100 80 GB, as in the article's examples.
pub fn default_gpu() -> &'static Gpu {
    &GPUS[0]
}

/// Looks a GPU up by its key (case-insensitive).
pub fn gpu(name: &str) -> Option<&'static Gpu> {
    GPUS.iter().find(|g| g.name.eq_ignore_ascii_case(name.trim()))
}

/// One published model's shape.
#[derive(Debug, PartialEq, Serialize)]
pub struct Model {
    /// Catalogue key (`model=`).
    pub name: &'static str,
    pub label: &'static str,
    /// Total parameters as published.
    pub params: f64,
    /// Parameters active per token (differs for mixture-of-experts).
    pub active_params: f64,
    pub layers: u64,
    pub hidden: u64,
    pub heads: u64,
    pub kv_heads: u64,
    /// Feed-forward width (per expert for MoE layers).
    pub ffn: u64,
    pub vocab: u64,
    /// Training context length.
    pub seq_len: u64,
    pub source: &'static str,
}

pub static MODELS: &[Model] = &[
    Model {
        name: "gpt-3-175b",
        label: "GPT-3 175B",
        params: 175.0e9,
        active_params: 175.0e9,
        layers: 96,
        hidden: 12288,
        heads: 96,
        kv_heads: 96,
        ffn: 49152,
        vocab: 50257,
        seq_len: 2048,
        source: "Brown et al. 2020, Table 2.1",
    },
    Model {
        name: "gpt-neox-20b",
        label: "GPT-NeoX-20B",
        params: 20.55e9,
        active_params: 20.55e9,
        layers: 44,
        hidden: 6144,
        heads: 64,
        kv_heads: 64,
        ffn: 24576,
        vocab: 50432,
        seq_len: 2048,
        source: "Black et al. 2022, Table 1",
    },
    Model {
        name: "pythia-6.9b",
        label: "Pythia-6.9B",
        params: 6_857_302_016.0,
        active_params: 6_857_302_016.0,
        layers: 32,
        hidden: 4096,
        heads: 32,
        kv_heads: 32,
        ffn: 16384,
        vocab: 50432,
        seq_len: 2048,
        source: "Biderman et al. 2023, Table 1",
    },
    Model {
        name: "llama-2-7b",
        label: "Llama 2 7B",
        params: 6_738_415_616.0,
        active_params: 6_738_415_616.0,
        layers: 32,
        hidden: 4096,
        heads: 32,
        kv_heads: 32,
        ffn: 11008,
        vocab: 32000,
        seq_len: 4096,
        source: "Touvron et al. 2023 (Llama 2), Table 1; parameter count of the released weights",
    },
    Model {
        name: "llama-2-13b",
        label: "Llama 2 13B",
        params: 13_015_864_320.0,
        active_params: 13_015_864_320.0,
        layers: 40,
        hidden: 5120,
        heads: 40,
        kv_heads: 40,
        ffn: 13824,
        vocab: 32000,
        seq_len: 4096,
        source: "Touvron et al. 2023 (Llama 2), Table 1",
    },
    Model {
        name: "llama-2-70b",
        label: "Llama 2 70B",
        params: 68_976_648_192.0,
        active_params: 68_976_648_192.0,
        layers: 80,
        hidden: 8192,
        heads: 64,
        kv_heads: 8,
        ffn: 28672,
        vocab: 32000,
        seq_len: 4096,
        source: "Touvron et al. 2023 (Llama 2), Table 1",
    },
    Model {
        name: "llama-3-8b",
        label: "Llama 3 8B",
        params: 8_030_261_248.0,
        active_params: 8_030_261_248.0,
        layers: 32,
        hidden: 4096,
        heads: 32,
        kv_heads: 8,
        ffn: 14336,
        vocab: 128256,
        seq_len: 8192,
        source: "Dubey et al. 2024 (Llama 3), Table 3",
    },
    Model {
        name: "llama-3-70b",
        label: "Llama 3 70B",
        params: 70_553_706_496.0,
        active_params: 70_553_706_496.0,
        layers: 80,
        hidden: 8192,
        heads: 64,
        kv_heads: 8,
        ffn: 28672,
        vocab: 128256,
        seq_len: 8192,
        source: "Dubey et al. 2024 (Llama 3), Table 3",
    },
    Model {
        name: "llama-3-405b",
        label: "Llama 3 405B",
        params: 405_853_388_800.0,
        active_params: 405_853_388_800.0,
        layers: 126,
        hidden: 16384,
        heads: 128,
        kv_heads: 8,
        ffn: 53248,
        vocab: 128256,
        seq_len: 8192,
        source: "Dubey et al. 2024 (Llama 3), Table 3",
    },
    Model {
        name: "mistral-7b",
        label: "Mistral 7B",
        params: 7_241_732_096.0,
        active_params: 7_241_732_096.0,
        layers: 32,
        hidden: 4096,
        heads: 32,
        kv_heads: 8,
        ffn: 14336,
        vocab: 32000,
        seq_len: 8192,
        source: "Jiang et al. 2023, Table 1",
    },
    Model {
        name: "deepseek-v3",
        label: "DeepSeek-V3 671B (37B active)",
        params: 671e9,
        active_params: 37e9,
        layers: 61,
        hidden: 7168,
        heads: 128,
        kv_heads: 128,
        ffn: 2048,
        vocab: 129280,
        seq_len: 4096,
        source: "DeepSeek-AI 2024, DeepSeek-V3 technical report, §4.2",
    },
    // The four models of Korthikanti et al. 2022, Table 3 (Figure 1).
    Model {
        name: "megatron-22b",
        label: "Megatron 22B",
        params: 22e9,
        active_params: 22e9,
        layers: 48,
        hidden: 6144,
        heads: 64,
        kv_heads: 64,
        ffn: 24576,
        vocab: 51200,
        seq_len: 2048,
        source: "Korthikanti et al. 2022, Table 3",
    },
    Model {
        name: "megatron-175b",
        label: "Megatron 175B (GPT-3)",
        params: 175e9,
        active_params: 175e9,
        layers: 96,
        hidden: 12288,
        heads: 96,
        kv_heads: 96,
        ffn: 49152,
        vocab: 51200,
        seq_len: 2048,
        source: "Korthikanti et al. 2022, Table 3",
    },
    Model {
        name: "megatron-530b",
        label: "Megatron 530B (MT-NLG)",
        params: 530e9,
        active_params: 530e9,
        layers: 105,
        hidden: 20480,
        heads: 128,
        kv_heads: 128,
        ffn: 81920,
        vocab: 51200,
        seq_len: 2048,
        source: "Korthikanti et al. 2022, Table 3",
    },
    Model {
        name: "megatron-1t",
        label: "Megatron 1T",
        params: 1e12,
        active_params: 1e12,
        layers: 128,
        hidden: 25600,
        heads: 160,
        kv_heads: 160,
        ffn: 102400,
        vocab: 51200,
        seq_len: 2048,
        source: "Korthikanti et al. 2022, Table 3",
    },
];

/// Looks a model up by its key (case-insensitive).
pub fn model(name: &str) -> Option<&'static Model> {
    MODELS.iter().find(|m| m.name.eq_ignore_ascii_case(name.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Architecture;

    #[test]
    fn keys_are_unique_and_found() {
        for g in GPUS {
            assert_eq!(gpu(g.name).map(|x| x.name), Some(g.name));
        }
        for m in MODELS {
            assert_eq!(model(m.name).map(|x| x.name), Some(m.name));
            assert_eq!(m.hidden % m.heads, 0, "{}", m.name);
            assert!(m.active_params <= m.params);
        }
    }

    /// 12·L·h² + V·h lands within 15% of every dense model's published count
    /// (SwiGLU models use 3 matrices of ffn ≈ 8h/3, which keeps 8h² per layer).
    #[test]
    fn article_param_estimate_is_close_for_dense_models() {
        for m in MODELS.iter().filter(|m| m.params == m.active_params) {
            let est = Architecture { layers: m.layers, hidden: m.hidden, heads: m.heads, vocab: m.vocab }
                .approx_params()
                .get();
            let ratio = est / m.params;
            // Llama 2 70B and Llama 3 use GQA and a wider MLP: 12Lh² misses by up to 15%.
            assert!((0.85..1.15).contains(&ratio), "{}: {ratio}", m.name);
        }
    }
}
