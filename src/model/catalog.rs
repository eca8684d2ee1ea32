//! Catalogues of GPUs and models, each figure with its source.

use crate::model::arch::{Architecture, Mla, Mlp};
use serde::Serialize;

/// One accelerator. Every figure carries its source; prices are a dated snapshot.
#[derive(Debug, PartialEq, Serialize)]
pub struct Gpu {
    /// Catalogue key (`gpu=`).
    pub name: &'static str,
    /// Per-GPU bandwidth to the other GPUs of its node, GB/s per direction (half
    /// the datasheet's both-directions figure): the default of `intra-node-gbs`.
    pub nvlink_gbs: f64,
    pub nvlink_source: &'static str,
    /// NVIDIA's compute capability ×10 (90 for Hopper), 0 for an AMD GPU: it
    /// sizes the GEMM library's workspace ([`crate::memory::buffer_terms`]).
    pub sm: u32,
    /// Streaming multiprocessors (an AMD GPU's compute units): how many GEMM tiles run at once
    /// ([`crate::time::shape`]'s wave quantization).
    pub sms: u32,
    pub sms_source: &'static str,
    /// The vendor's name with its marketing capacity: "NVIDIA H200 (141 GB)".
    pub label: &'static str,
    /// Total memory as the driver reports it (nvidia-smi's MiB, rocm-smi's bytes), in bytes.
    pub mem_bytes: f64,
    pub mem_source: &'static str,
    /// The total CUDA reports to a process (`cudaMemGetInfo`, what vLLM sizes
    /// its share from), bytes, where one was published; else nvidia-smi's.
    pub cuda_total: Option<Figure>,
    /// Datasheet dense BF16/FP16 tensor TFLOP/s (no sparsity).
    pub peak_tflops: f64,
    pub peak_source: &'static str,
    /// Default achieved TFLOP/s per GPU (τ); editable. Its share of the peak is the MFU.
    pub achieved_tflops: f64,
    pub achieved_source: &'static str,
    /// Datasheet memory bandwidth, GB/s.
    pub hbm_gbs: f64,
    pub hbm_source: &'static str,
    /// The share of it a decode step reaches (weights and KV cache streamed once per step).
    pub hbm_share: Share,
    /// The share of the dense peak a large BF16 matrix product reaches (the
    /// measured maximum achievable matmul FLOP/s): the rate of prefill, whose
    /// prompt makes every projection a large GEMM.
    pub matmul: Share,
    /// The all-reduce's measured bus bandwidth inside a node, by message size
    /// ([`Collective`]): how near the link's rate a collective of a given size comes.
    pub allreduce: Collective,
    /// The share of [`Gpu::matmul_tflops`] a matrix product sustains under a
    /// training step's continuous load, once the clock settles under the power
    /// limit ([`sustained_source`]).
    pub sustained: f64,
    /// Default price per GPU-hour in US dollars: an editable assumption.
    pub usd_per_hour: f64,
    pub price_source: &'static str,
}

/// A published figure with its source.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Figure {
    pub value: f64,
    pub source: &'static str,
}

/// A measured share of a datasheet figure, with its source.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Share {
    pub share: f64,
    pub source: &'static str,
}

/// A collective's measured bus bandwidth inside one node of 8 GPUs by message
/// size (nccl-tests' `busbw`: for an all-reduce the bytes moved, 2(n − 1)/n
/// of the message, over the time; NVIDIA/nccl-tests `doc/PERFORMANCE.md`),
/// as a share of the link's per-direction rate on the system that measured it.
#[derive(Debug, PartialEq, Serialize)]
pub struct Collective {
    /// (log2 of the message's bytes, bus bandwidth in GB/s), ascending.
    pub points: &'static [(f64, f64)],
    /// The measured system's link rate per direction, GB/s: the shares' denominator.
    pub link_gbs: f64,
}

impl Collective {
    /// The share of the link's rate a collective of `bytes` reaches: the measured
    /// bus bandwidth interpolated in log size, held at the ends, over the link.
    pub fn share(&self, bytes: f64) -> f64 {
        interpolate(self.points, bytes.max(1.0).log2()) / self.link_gbs
    }
}

/// A measured curve's value at `x`: linear between the points (`x`
/// ascending) that hold it, held at the first and the last beyond them.
pub fn interpolate(points: &[(f64, f64)], x: f64) -> f64 {
    match points.iter().position(|q| q.0 >= x) {
        None => points[points.len() - 1].1,
        Some(0) => points[0].1,
        Some(i) => {
            let (a, b) = (points[i - 1], points[i]);
            a.1 + (x - a.0) / (b.0 - a.0) * (b.1 - a.1)
        }
    }
}

/// Azure ND A100 v4 (8 A100-SXM4-80GB, NVLink 3 through NVSwitch, NCCL 2.18.5):
/// nccl-tests all-reduce, in place, 1 MiB to 8 GiB (Azure/AI-benchmarking-guide
/// `Azure_Results/ND_A100_v4_results.md` @8fd0c6e, § NCCL Bandwidth). stas00's
/// single A100 node agrees: 176.9 at 128 MiB, 234.6 at 8 GiB (ml-engineering `network/README.md`).
pub const A100_ALLREDUCE: Collective = Collective {
    points: &[
        (20.0, 36.22),
        (21.0, 53.54),
        (22.0, 71.43),
        (23.0, 89.99),
        (24.0, 109.22),
        (25.0, 132.77),
        (26.0, 166.63),
        (27.0, 174.18),
        (28.0, 213.87),
        (29.0, 221.58),
        (30.0, 228.10),
        (31.0, 230.22),
        (32.0, 230.48),
        (33.0, 231.58),
    ],
    link_gbs: 300.0,
};

/// Azure ND H100 v5 (8 H100 SXM, NVLink 4 through NVSwitch, NCCL 2.18.5, NVLink
/// SHARP): the same test (`Azure_Results/ND_H100_v5_results.md` @8fd0c6e).
/// Above 450 the switch reduces in place (NVLS: "neither the algbw nor busbw
/// correspond to the bandwidth on the wire", nccl-tests#212).
pub const H100_ALLREDUCE: Collective = Collective {
    points: &[
        (20.0, 43.70),
        (21.0, 81.93),
        (22.0, 128.73),
        (23.0, 172.13),
        (24.0, 234.45),
        (25.0, 295.53),
        (26.0, 361.78),
        (27.0, 400.61),
        (28.0, 423.38),
        (29.0, 438.46),
        (30.0, 466.35),
        (31.0, 472.36),
        (32.0, 475.54),
        (33.0, 478.87),
    ],
    link_gbs: 450.0,
};

/// Azure ND H200 v5 (8 H200, NCCL 2.20.5, NVLS): `Azure_Results/ND_H200_v5_results.md` @8fd0c6e.
pub const H200_ALLREDUCE: Collective = Collective {
    points: &[
        (20.0, 52.96),
        (21.0, 88.78),
        (22.0, 138.44),
        (23.0, 181.94),
        (24.0, 240.41),
        (25.0, 300.91),
        (26.0, 368.11),
        (27.0, 412.45),
        (28.0, 432.24),
        (29.0, 442.72),
        (30.0, 467.58),
        (31.0, 472.57),
        (32.0, 477.41),
        (33.0, 479.98),
    ],
    link_gbs: 450.0,
};

/// Where each GPU's all-reduce curve ([`Gpu::allreduce`]) comes from: the
/// measurement, or the assumption where none was found (kept out of the page:
/// only the tests read it).
pub fn allreduce_source(gpu: &str) -> Option<&'static str> {
    Some(match gpu {
        "a100-80gb" => "Azure/AI-benchmarking-guide, ND A100 v4 (NCCL 2.18.5): nccl-tests all-reduce bus bandwidth, 36 GB/s at 1 MiB, 174 at 128 MiB, 232 at 8 GiB, of NVLink 3's 300",
        "a100-40gb" => "Azure/AI-benchmarking-guide, ND A100 v4 (NCCL 2.18.5): nccl-tests all-reduce bus bandwidth, 36 GB/s at 1 MiB, 174 at 128 MiB, 232 at 8 GiB, of NVLink 3's 300",
        "h100-80gb" => "Azure/AI-benchmarking-guide, ND H100 v5 (NCCL 2.18.5, NVLS): nccl-tests all-reduce bus bandwidth, 44 GB/s at 1 MiB, 401 at 128 MiB, 479 at 8 GiB, of NVLink 4's 450",
        "h100-pcie" => "assumption: none measured on PCIe links; the A100 node's shares (no NVLink SHARP)",
        "h200" => "Azure/AI-benchmarking-guide, ND H200 v5 (NCCL 2.20.5, NVLS): nccl-tests all-reduce bus bandwidth, 53 GB/s at 1 MiB, 412 at 128 MiB, 480 at 8 GiB, of NVLink 4's 450",
        "h800" => "assumption: the H100 node's shares of its own link (the same NVSwitch; nccl#1374 reports about 215 GB/s on 8 H800s, of 200)",
        "b200" => "assumption: none measured in the table; the H100 node's shares (NVLink SHARP)",
        "mi300x" => "assumption: none measured; the A100 node's shares (RCCL, no in-switch reduction)",
        "mi325x" => "assumption: none measured; the A100 node's shares (RCCL, no in-switch reduction)",
        "l40s" => "assumption: none measured on PCIe links; the A100 node's shares",
        "rtx-4090" => "assumption: none measured on PCIe links; the A100 node's shares",
        "v100-32gb" => "assumption: none measured; the A100 node's shares",
        _ => return None,
    })
}

/// Where each GPU's sustained matmul share ([`Gpu::sustained`]) comes from
/// (kept out of the page: only the tests read it).
pub fn sustained_source(gpu: &str) -> Option<&'static str> {
    Some(match gpu {
        "a100-80gb" => "Azure/AI-benchmarking-guide, ND A100 v4: cuBLASLt FP16 16384³ after 10,000 warm-up iterations, random data, 256.5 TFLOP/s (8192³ 253.7; Horace He, thonking.ai: 257–258 at 8192³ with randn), of the MAMF's 267.9",
        "a100-40gb" => "assumption: the A100 80GB's (the same chip)",
        "h100-80gb" => "huggingface/gpu-fryer README @2b6fb06a: H100 80GB HBM3 about 730 TFLOP/s BF16 at 8192³ over 60 s (cuBLASLt), of the MAMF's 792.1",
        "h100-pcie" => "assumption: none measured; the median of the measured ratios (0.86–0.96)",
        "h200" => "stas00/ml-engineering branch fast-mamf @082816f, compute/accelerator/README.md: H200 BF16 sustained 708.5 TFLOP/s at 8192×8448×20480 once the SM clock settled at about 1465 MHz and 693 W (the same run's burst 841.9 at 1980 MHz), of the catalogue's 821.0",
        "h800" => "assumption: the H100 SXM's (the same chip and power limit)",
        "b200" => "assumption: none measured; the median of the measured ratios (flashinfer#2899: back-to-back kernels drop a B200's SM clock from 1965 to about 1580 MHz)",
        "mi300x" => "assumption: none measured; the median of the measured NVIDIA ratios",
        "mi325x" => "assumption: none measured; the median of the measured NVIDIA ratios",
        "l40s" => "assumption: none measured; the median of the measured ratios",
        "rtx-4090" => "assumption: none measured; the median of the measured ratios",
        "v100-32gb" => "assumption: none measured; the median of the measured ratios",
        _ => return None,
    })
}

/// Where no sustained rate was measured: the median of the measured ratios
/// (H200 0.863, H100 SXM 0.922, A100 SXM 0.957).
const SUSTAINED_MEDIAN: f64 = 730.0 / 792.1;

impl Gpu {
    /// The memory bandwidth decode reaches by default, GB/s: the datasheet's × the achieved share.
    pub fn achieved_hbm_gbs(&self) -> f64 {
        self.hbm_gbs * self.hbm_share.share
    }
    /// The BF16 matmul rate prefill reaches by default, TFLOP/s: the peak × the measured share.
    pub fn matmul_tflops(&self) -> f64 {
        self.peak_tflops * self.matmul.share
    }
    /// The BF16 matmul rate a training step's products sustain, TFLOP/s ([`Gpu::sustained`]).
    pub fn sustained_tflops(&self) -> f64 {
        self.matmul_tflops() * self.sustained
    }
    /// What the driver keeps of nvidia-smi's total from a CUDA process, bytes
    /// (0 where no CUDA total is published).
    pub fn cuda_reserved_bytes(&self) -> f64 {
        self.cuda_total.map_or(0.0, |t| (self.mem_bytes - t.value).max(0.0))
    }
    /// Usable bytes: what the driver reports (an "80 GB" A100: 81 920 MiB = 80 GiB).
    pub fn mem_bytes(&self) -> f64 {
        self.mem_bytes
    }
    /// The same in GiB, as the `gpu-mem` key takes it.
    pub fn mem_gib(&self) -> f64 {
        self.mem_bytes / crate::units::Bytes::GIB
    }
    /// The label without the vendor's name ("A100 SXM (80 GB)", "MI300X (192 GB)"),
    /// for a menu in a narrow column: the part's name alone is unambiguous.
    pub fn short_label(&self) -> &'static str {
        ["NVIDIA GeForce ", "NVIDIA ", "AMD Instinct "]
            .iter()
            .find_map(|p| self.label.strip_prefix(p))
            .unwrap_or(self.label)
    }
    /// Achieved over peak: the model FLOPs utilisation the default τ assumes.
    pub fn mfu(&self) -> f64 {
        self.achieved_tflops / self.peak_tflops
    }
}

const MIB: f64 = 1_048_576.0;

// Sources, as gathered on 2026-12-01 from stored public pages (numbers in brackets
// refer to the notes in each string): driver printouts in public issues, vendor
// datasheets for the dense peaks (NVIDIA's "with sparsity" figures halved),
// published utilisation where one exists, and on-demand prices from third-party
// price tables of March–May 2026, which disagree by up to ±50 %.
/// Where no measurement was found: the median of the measured shares below
/// (A100 80GB 0.858, A100 40GB 0.871, H800 0.896, GB200 0.92, H200 0.933, H100 SXM 0.949): 0.908.
const MEDIAN_SHARE: f64 = 0.908;

/// Where no matmul ceiling was measured: the median of the measured NVIDIA
/// shares (H100 SXM 0.801, A100 PCIe 0.822, GH200 0.830, A100 SXM 0.859): 0.826.
const MEDIAN_MATMUL_SHARE: f64 = 0.826;

/// The FP8 matmul ceiling over the BF16 one, on a GPU with FP8 tensor cores:
/// tilelang's FP8 GEMM on an H800 SXM, M = N = 8192, K = 16384, 1,523 TFLOP/s
/// (tile-ai/tilelang `benchmark/matmul_fp8/README.md` @128a796), over the same
/// chip's BF16 maximum achievable matmul, 792.1 (the H100 SXM's,
/// stas00/ml-engineering): 1.92, where the datasheets' ratio is 2. Other FP8
/// GPUs (Ada, Blackwell) take Hopper's measured ratio: an assumption.
pub const FP8_MATMUL_OVER_BF16: f64 = 1523.0 / 792.1;

pub static GPUS: &[Gpu] = &[
    Gpu {
        name: "a100-80gb",
        nvlink_gbs: 300.0,
        nvlink_source: "NVIDIA A100 datasheet: third-generation NVLink, 600 GB/s both directions",
        sm: 80,
        sms: 108,
        sms_source: "NVIDIA A100 Tensor Core GPU Architecture whitepaper: 108 SMs on the A100; modular/modular mojo/stdlib/std/gpu/host/info.mojo @b59704a (the device table)",
        label: "NVIDIA A100 SXM (80 GB)",
        mem_bytes: 81920.0 * MIB,
        mem_source: "nvidia-smi 81920 MiB, driver 555 (thamada/nvidia-smi, A100SXMx4_smi)",
        cuda_total: None,
        peak_tflops: 312.0,
        peak_source: "NVIDIA A100 datasheet r4: BF16 312 (624 with sparsity)",
        achieved_tflops: 150.0,
        achieved_source: "Transformer Math 101: GPT-NeoX reaches 150 TFLOP/s per A100",
        hbm_gbs: 2039.0,
        hbm_source: "NVIDIA A100 datasheet: A100 80GB SXM 2,039 GB/s",
        hbm_share: Share { share: 1.75 / 2.039, source: "Azure AI-benchmarking-guide, ND A100 v4: BabelStream Dot (a read) 1.75 TB/s of the datasheet's 2.039" },
        matmul: Share { share: 267.9 / 312.0, source: "stas00/ml-engineering, compute/accelerator/README.md, § Maximum Achievable Matmul FLOPS comparison table (BF16 matmul, the best shape found): A100 SXM 267.9 of 312 TFLOP/s (CUDA 12.1)" },
        allreduce: A100_ALLREDUCE,
        sustained: 256.5 / 267.9,
        usd_per_hour: 1.39,
        price_source: "RunPod A100 SXM, 2026-03-10 (deploybase.ai)",
    },
    Gpu {
        name: "a100-40gb",
        nvlink_gbs: 300.0,
        nvlink_source: "NVIDIA A100 datasheet: third-generation NVLink, 600 GB/s both directions",
        sm: 80,
        sms: 108,
        sms_source: "NVIDIA A100 Tensor Core GPU Architecture whitepaper: 108 SMs on the A100",
        label: "NVIDIA A100 SXM (40 GB)",
        mem_bytes: 40960.0 * MIB,
        mem_source: "nvidia-smi 40960 MiB, driver 580 (bottlerocket-core-kit#834)",
        cuda_total: None,
        peak_tflops: 312.0,
        peak_source: "NVIDIA A100 datasheet r4: BF16 312 (624 with sparsity)",
        achieved_tflops: 150.0,
        achieved_source: "Transformer Math 101: GPT-NeoX reaches 150 TFLOP/s per A100",
        hbm_gbs: 1555.0,
        hbm_source: "NVIDIA A100 datasheet: A100 40GB SXM 1,555 GB/s",
        hbm_share: Share { share: 1355.0 / 1555.0, source: "PTsolvers/gpu-workshop-JuliaCon23#7: memcopy measured 1355 GB/s on an A100 40GB, of 1555" },
        matmul: Share { share: 267.9 / 312.0, source: "stas00/ml-engineering, compute/accelerator/README.md, § Maximum Achievable Matmul FLOPS comparison table (BF16 matmul, the best shape found): A100 SXM 267.9 of 312 TFLOP/s (CUDA 12.1), the same chip with 80 GB" },
        allreduce: A100_ALLREDUCE,
        sustained: 256.5 / 267.9,
        usd_per_hour: 1.48,
        price_source: "Lambda 1× A100 40GB, 2026-05-07 (techbytes.app)",
    },
    Gpu {
        name: "h100-80gb",
        nvlink_gbs: 450.0,
        nvlink_source: "NVIDIA H100 datasheet (SXM): NVLink 900 GB/s both directions",
        sm: 90,
        sms: 132,
        sms_source: "NVIDIA H100 Tensor Core GPU Architecture whitepaper: 132 SMs on the SXM5 H100; modular/modular mojo/stdlib/std/gpu/host/info.mojo @b59704a (the device table)",
        label: "NVIDIA H100 SXM (80 GB)",
        mem_bytes: 81559.0 * MIB,
        mem_source: "nvidia-smi 81559 MiB, driver 550 (NVIDIA/nccl#1264)",
        cuda_total: Some(Figure { value: 79.19 * 1_073_741_824.0, source: "vLLM 0.19.0 startup logs on an H100 80GB: \"worker init memory snapshot: … total_memory=79.19GiB\" (llm-d-incubation/llm-d-planner, accuracy/results/v0.19.0/logs, commit d3121e0)" }),
        peak_tflops: 989.0,
        peak_source: "NVIDIA H100 datasheet: SXM BF16 1979 with sparsity, 989 dense",
        achieved_tflops: 400.0,
        achieved_source: "Llama 3 (Dubey et al. 2024, Table 4): 380–430 TFLOP/s per GPU, 38–43 % MFU",
        hbm_gbs: 3350.0,
        hbm_source: "NVIDIA H100 datasheet: H100 SXM 3.35 TB/s",
        hbm_share: Share { share: 3.18 / 3.35, source: "Azure AI-benchmarking-guide, ND H100 v5: BabelStream Dot (a read) 3.18 TB/s of 3.35" },
        matmul: Share { share: 792.1 / 989.0, source: "stas00/ml-engineering, compute/accelerator/README.md, § Maximum Achievable Matmul FLOPS comparison table (BF16 matmul, the best shape found): H100 SXM 792.1 of 989 TFLOP/s (CUDA 12.1)" },
        allreduce: H100_ALLREDUCE,
        sustained: 730.0 / 792.1,
        usd_per_hour: 2.69,
        price_source: "RunPod H100 SXM, 2026-05-22 (spheron.network)",
    },
    Gpu {
        name: "h100-pcie",
        nvlink_gbs: 64.0,
        nvlink_source: "NVIDIA H100 datasheet (PCIe): PCIe Gen5 128 GB/s both directions (its NVLink bridge joins pairs only)",
        sm: 90,
        sms: 114,
        sms_source: "NVIDIA H100 Tensor Core GPU Architecture whitepaper: \"57 TPCs, 2 SMs/TPC, 114 SMs per GPU\" on the PCIe H100",
        label: "NVIDIA H100 PCIe (80 GB)",
        mem_bytes: 81559.0 * MIB,
        mem_source: "nvidia-smi 81559 MiB in public dumps (the same total as the SXM part)",
        cuda_total: None,
        peak_tflops: 756.0,
        peak_source: "NVIDIA H100 PCIe product brief PB-11133-001 v02: BF16 1513 with sparsity, 756 dense",
        achieved_tflops: 265.0,
        achieved_source: "assumption: 35 % of peak (PCIe links, no NVLink switch)",
        hbm_gbs: 2000.0,
        hbm_source: "NVIDIA H100 PCIe product brief PB-11133-001: 2 TB/s",
        hbm_share: Share { share: 3.18 / 3.35, source: "assumption: the H100 SXM's measured share (BabelStream Dot 3.18 of 3.35 TB/s); none measured on the PCIe card" },
        matmul: Share { share: MEDIAN_MATMUL_SHARE, source: "assumption: none measured on the PCIe card; the median of the measured NVIDIA shares (0.80–0.86)" },
        allreduce: A100_ALLREDUCE,
        sustained: SUSTAINED_MEDIAN,
        usd_per_hour: 2.86,
        price_source: "Lambda 1× H100 PCIe, 2026-05-07 (techbytes.app)",
    },
    Gpu {
        name: "h200",
        nvlink_gbs: 450.0,
        nvlink_source: "NVIDIA H200 datasheet (SXM): NVLink 900 GB/s both directions",
        sm: 90,
        sms: 132,
        sms_source: "assumption: the H100 SXM5's GH100 configuration, 132 SMs (the H200 is the same chip with HBM3e; NVIDIA's datasheet gives no count)",
        label: "NVIDIA H200 SXM (141 GB)",
        mem_bytes: 143771.0 * MIB,
        mem_source: "nvidia-smi 143771 MiB, driver 550 (sgl-project/sglang#3196)",
        cuda_total: None,
        peak_tflops: 989.0,
        peak_source: "NVIDIA H200 product page: BF16 1979 with sparsity, 989 dense (H100's compute)",
        achieved_tflops: 400.0,
        achieved_source: "assumption: H100's 40 % of peak (the same compute)",
        hbm_gbs: 4800.0,
        hbm_source: "NVIDIA H200 product page: 4.8 TB/s",
        hbm_share: Share { share: 4.48 / 4.8, source: "Azure AI-benchmarking-guide, ND H200 v5: BabelStream Dot (a read) 4.48 TB/s of 4.8" },
        matmul: Share { share: 821.0 / 989.0, source: "stas00/ml-engineering, compute/accelerator/README.md, § Maximum Achievable Matmul FLOPS comparison table (BF16 matmul, the best shape found): the GH200's Hopper GPU 821.0 of 989 TFLOP/s (CUDA 12.5), the H200's chip" },
        allreduce: H200_ALLREDUCE,
        sustained: 708.5 / 821.0,
        usd_per_hour: 3.59,
        price_source: "RunPod H200, 2026-03-10 (deploybase.ai)",
    },
    Gpu {
        name: "h800",
        nvlink_gbs: 200.0,
        nvlink_source: "NVIDIA H800 SXM: NVLink 400 GB/s both directions (DeepSeek-V3 report, §3.1)",
        sm: 90,
        sms: 132,
        sms_source: "DeepSeek-V3 Technical Report §3.5.1: \"the 132 SMs available in the H800 GPU\"",
        label: "NVIDIA H800 SXM (80 GB)",
        mem_bytes: 81559.0 * MIB,
        mem_source: "nvidia-smi 81559 MiB, driver 535 (NVIDIA/DCGM#183)",
        cuda_total: None,
        peak_tflops: 989.0,
        peak_source: "assumption: H100 SXM's compute (the H800 cuts NVLink to 400 GB/s and FP64); no datasheet found",
        achieved_tflops: 376.0,
        achieved_source: "assumption: 38 % of peak, below H100 for the slower NVLink",
        hbm_gbs: 3350.0,
        hbm_source: "assumption: H100 SXM's HBM3, 3.35 TB/s (no datasheet found)",
        hbm_share: Share { share: 3000.0 / 3350.0, source: "deepseek-ai/FlashMLA README: up to 3000 GB/s memory-bound on the H800 SXM5, of 3.35 TB/s" },
        matmul: Share { share: 792.1 / 989.0, source: "stas00/ml-engineering, compute/accelerator/README.md, § Maximum Achievable Matmul FLOPS comparison table (BF16 matmul, the best shape found): H100 SXM 792.1 of 989 TFLOP/s, the H800's chip" },
        allreduce: H100_ALLREDUCE,
        sustained: 730.0 / 792.1,
        usd_per_hour: 2.69,
        price_source: "assumption: H100 SXM's price (a China-market part, no public on-demand price)",
    },
    Gpu {
        name: "b200",
        nvlink_gbs: 900.0,
        nvlink_source: "NVIDIA DGX B200 datasheet: fifth-generation NVLink, 1.8 TB/s per GPU both directions",
        sm: 100,
        sms: 148,
        sms_source: "modular/modular mojo/stdlib/std/gpu/host/info.mojo @b59704a (the device table): 148 SMs on the B200",
        label: "NVIDIA B200 (180 GB)",
        mem_bytes: 183359.0 * MIB,
        mem_source: "nvidia-smi 183359 MiB, driver 580 (NVIDIA/TensorRT-LLM#10278)",
        cuda_total: None,
        peak_tflops: 2250.0,
        peak_source: "NVIDIA HGX B200 specifications: BF16 4.5 PFLOPS with sparsity, 2250 dense per GPU",
        achieved_tflops: 788.0,
        achieved_source: "assumption: 35 % of peak (no public dense BF16 training MFU found)",
        hbm_gbs: 8000.0,
        hbm_source: "NVIDIA HGX B200 specifications: 64 TB/s for 8 GPUs, 8 TB/s each",
        hbm_share: Share { share: 0.92, source: "Azure HPC blog (GB200): 7.35 TB/s HBM bandwidth utilization, 92 % efficiency" },
        matmul: Share { share: MEDIAN_MATMUL_SHARE, source: "assumption: none measured in the table; the median of the measured NVIDIA shares (0.80–0.86)" },
        allreduce: H100_ALLREDUCE,
        sustained: SUSTAINED_MEDIAN,
        usd_per_hour: 5.98,
        price_source: "RunPod B200, 2026-03-10 (deploybase.ai); $3.75–6.25 across providers",
    },
    Gpu {
        name: "mi300x",
        nvlink_gbs: 448.0,
        nvlink_source: "AMD Instinct MI300X datasheet: Infinity Fabric 896 GB/s aggregate both directions (7 links)",
        sm: 0,
        sms: 304,
        sms_source: "AMD Instinct MI300 documentation (ROCm): up to 304 CUs on the MI300X; modular/modular mojo/stdlib/std/gpu/host/info.mojo @b59704a (the device table)",
        label: "AMD Instinct MI300X (192 GB)",
        mem_bytes: 206_141_652_992.0,
        mem_source: "rocm-smi VRAM total 206141652992 B (ROCm/legacy-rocm-build#4750)",
        cuda_total: None,
        peak_tflops: 1307.4,
        peak_source: "AMD Instinct MI300X data sheet: BF16 1307.4 dense",
        achieved_tflops: 392.0,
        achieved_source: "assumption: 30 % of peak (a 70B proxy on 8 MI300X reached about 40 %, ROCm/TransformerEngine#78)",
        hbm_gbs: 5300.0,
        hbm_source: "AMD Instinct MI300X data sheet: 5.3 TB/s",
        hbm_share: Share { share: MEDIAN_SHARE, source: "assumption: no measurement found; the median of the measured NVIDIA GPUs' shares (0.86–0.95)" },
        matmul: Share { share: 781.9 / 1300.0, source: "stas00/ml-engineering, compute/accelerator/README.md, § Maximum Achievable Matmul FLOPS comparison table (BF16 matmul, the best shape found): MI300X 781.9 of 1300 TFLOP/s (ROCm 6.2)" },
        allreduce: A100_ALLREDUCE,
        sustained: SUSTAINED_MEDIAN,
        usd_per_hour: 1.99,
        price_source: "median MI300X on-demand price, 2026-05-18 (cliffcenter.com)",
    },
    Gpu {
        name: "mi325x",
        nvlink_gbs: 448.0,
        nvlink_source: "AMD Instinct MI325X datasheet: Infinity Fabric 896 GB/s aggregate both directions (7 links)",
        sm: 0,
        sms: 304,
        sms_source: "assumption: the MI300X's 304 CUs (the same CDNA 3 chip with HBM3e)",
        label: "AMD Instinct MI325X (256 GB)",
        mem_bytes: 274_877_906_944.0,
        mem_source: "256 GiB, the vendor's figure: no driver printout found (MI300X's rocm-smi reports 16 MiB less than its 192 GiB)",
        cuda_total: None,
        peak_tflops: 1307.4,
        peak_source: "AMD Instinct MI325X data sheet: BF16 1307.4 dense",
        achieved_tflops: 431.0,
        achieved_source: "assumption: 33 % of peak (prime-rl reports about 30–40 % on MI325X, PrimeIntellect-ai/prime-rl#1722)",
        hbm_gbs: 6000.0,
        hbm_source: "AMD Instinct MI325X data sheet: 6 TB/s",
        hbm_share: Share { share: MEDIAN_SHARE, source: "assumption: no measurement found; the median of the measured NVIDIA GPUs' shares (0.86–0.95)" },
        matmul: Share { share: 781.9 / 1300.0, source: "assumption: the MI300X's measured share, the same CDNA 3 chip (stas00/ml-engineering, compute/accelerator/README.md, § Maximum Achievable Matmul FLOPS comparison table (BF16 matmul, the best shape found): 781.9 of 1300)" },
        allreduce: A100_ALLREDUCE,
        sustained: SUSTAINED_MEDIAN,
        usd_per_hour: 1.95,
        price_source: "TensorWave MI325X, 2026-05-18 (cliffcenter.com)",
    },
    Gpu {
        name: "l40s",
        nvlink_gbs: 32.0,
        nvlink_source: "NVIDIA L40S datasheet: PCIe Gen4 x16, 64 GB/s both directions, no NVLink",
        sm: 89,
        sms: 142,
        sms_source: "NVIDIA L40S datasheet: 568 Tensor Cores at 4 per SM (Ada), 142 SMs",
        label: "NVIDIA L40S (48 GB)",
        mem_bytes: 46068.0 * MIB,
        mem_source: "nvidia-smi 46068 MiB with ECC on (akash-network/provider-configs#99)",
        cuda_total: None,
        peak_tflops: 362.05,
        peak_source: "NVIDIA L40S datasheet: BF16 733 with sparsity, 362.05 dense",
        achieved_tflops: 109.0,
        achieved_source: "assumption: 30 % of peak (PCIe, no NVLink)",
        hbm_gbs: 864.0,
        hbm_source: "NVIDIA L40S datasheet: 864 GB/s",
        hbm_share: Share { share: MEDIAN_SHARE, source: "assumption: no measurement found; the median of the measured GPUs' shares (0.86–0.95)" },
        matmul: Share { share: MEDIAN_MATMUL_SHARE, source: "assumption: none measured; the median of the measured NVIDIA shares (0.80–0.86)" },
        allreduce: A100_ALLREDUCE,
        sustained: SUSTAINED_MEDIAN,
        usd_per_hour: 0.79,
        price_source: "RunPod L40S, 2026-03-10 (deploybase.ai)",
    },
    Gpu {
        name: "rtx-4090",
        nvlink_gbs: 32.0,
        nvlink_source: "PCIe Gen4 x16: 64 GB/s both directions, no NVLink",
        sm: 89,
        sms: 128,
        sms_source: "NVIDIA Ada Lovelace architecture whitepaper: 128 SMs on the GeForce RTX 4090",
        label: "NVIDIA GeForce RTX 4090 (24 GB)",
        mem_bytes: 24564.0 * MIB,
        mem_source: "nvidia-smi 24564 MiB, driver 550 (RLinf/RLinf#255)",
        cuda_total: None,
        peak_tflops: 165.2,
        peak_source: "NVIDIA Ada Lovelace architecture whitepaper: BF16 with FP32 accumulate 165.2 dense",
        achieved_tflops: 58.0,
        achieved_source: "assumption: 35 % of peak",
        hbm_gbs: 1008.0,
        hbm_source: "NVIDIA Ada Lovelace architecture whitepaper: RTX 4090 1,008 GB/s",
        hbm_share: Share { share: MEDIAN_SHARE, source: "assumption: no measurement found (a copy benchmark reported more than the datasheet: the L2 cache); the median of the measured GPUs' shares" },
        matmul: Share { share: MEDIAN_MATMUL_SHARE, source: "assumption: none measured; the median of the measured NVIDIA shares (0.80–0.86)" },
        allreduce: A100_ALLREDUCE,
        sustained: SUSTAINED_MEDIAN,
        usd_per_hour: 0.34,
        price_source: "RunPod RTX 4090, 2026-03-10 (deploybase.ai)",
    },
    Gpu {
        name: "v100-32gb",
        nvlink_gbs: 150.0,
        nvlink_source: "NVIDIA V100 datasheet (SXM2): NVLink 300 GB/s both directions",
        sm: 70,
        sms: 80,
        sms_source: "NVIDIA Tesla V100 GPU Architecture whitepaper: 80 SMs on the V100",
        label: "NVIDIA V100 SXM2 (32 GB)",
        mem_bytes: 32768.0 * MIB,
        mem_source: "nvidia-smi 32768 MiB, driver 525 (Wan-Video/Wan2.1#5)",
        cuda_total: None,
        peak_tflops: 125.0,
        peak_source: "NVIDIA V100 datasheet: FP16 tensor 125 (no BF16)",
        achieved_tflops: 39.0,
        achieved_source: "Megatron-LM (Shoeybi et al. 2019): one V100 sustains 39 TFLOP/s, 30 % of peak",
        hbm_gbs: 900.0,
        hbm_source: "NVIDIA V100 datasheet: SXM2 900 GB/s",
        hbm_share: Share { share: MEDIAN_SHARE, source: "assumption: no measurement found; the median of the measured GPUs' shares (0.86–0.95)" },
        matmul: Share { share: MEDIAN_MATMUL_SHARE, source: "assumption: none measured; the median of the measured NVIDIA shares (0.80–0.86)" },
        allreduce: A100_ALLREDUCE,
        sustained: SUSTAINED_MEDIAN,
        usd_per_hour: 1.57,
        price_source: "a blended V100 32GB price index, 2026-04-06 (signwl.com)",
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

/// A published shape, for a bare P: L, h, a of a model of about `params`.
#[derive(Debug, PartialEq)]
pub struct Shape {
    pub params: f64,
    pub arch: Architecture,
    /// The model it is the shape of.
    pub model: &'static str,
    pub source: &'static str,
}

const fn shape(params: f64, layers: u64, hidden: u64, heads: u64, model: &'static str, source: &'static str) -> Shape {
    Shape { params, arch: Architecture::gpt(layers, hidden, heads, 32000), model, source }
}

/// Shapes of published models from 125M to 1T parameters (the GPT-3 family,
/// Llama, Megatron): a bare P takes the one nearest in size (on a log scale),
/// with the default vocabulary of 32 000.
pub static SHAPES: &[Shape] = &[
    shape(125e6, 12, 768, 12, "GPT-3 125M", "Brown et al. 2020, Table 2.1"),
    shape(350e6, 24, 1024, 16, "GPT-3 350M", "Brown et al. 2020, Table 2.1"),
    shape(760e6, 24, 1536, 16, "GPT-3 760M", "Brown et al. 2020, Table 2.1"),
    shape(1.3e9, 24, 2048, 16, "GPT-3 1.3B", "Brown et al. 2020, Table 2.1"),
    shape(2.7e9, 32, 2560, 32, "GPT-3 2.7B", "Brown et al. 2020, Table 2.1"),
    shape(6.7e9, 32, 4096, 32, "Llama 2 7B", "Touvron et al. 2023, Table 1 (GPT-3 6.7B has the same L and h)"),
    shape(13e9, 40, 5120, 40, "Llama 2 13B", "Touvron et al. 2023, Table 1"),
    shape(32.5e9, 60, 6656, 52, "LLaMA 33B", "Touvron et al. 2023a, Table 2"),
    shape(65e9, 80, 8192, 64, "Llama 2 70B", "Touvron et al. 2023, Table 1 (without its grouped-query attention)"),
    shape(175e9, 96, 12288, 96, "GPT-3 175B", "Brown et al. 2020, Table 2.1"),
    shape(530e9, 105, 20480, 128, "MT-NLG 530B", "Korthikanti et al. 2022, Table 3"),
    shape(1e12, 128, 25600, 160, "Megatron 1T", "Korthikanti et al. 2022, Table 3"),
];

/// The shape nearest to `params` in size.
pub fn nearest_shape(params: f64) -> &'static Shape {
    let distance = |s: &Shape| (s.params.ln() - params.max(1.0).ln()).abs();
    SHAPES.iter().min_by(|a, b| distance(a).total_cmp(&distance(b))).unwrap_or(&SHAPES[5])
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
    /// The shape, with its GQA, MLP, embeddings and experts.
    pub arch: Architecture,
    /// Training context length.
    pub seq_len: u64,
    /// The position limit (`max_position_embeddings` in its config.json): the longest context it reads.
    pub max_positions: u64,
    /// Where P and the shape are published.
    pub source: &'static str,
    /// What of the model the formulas leave out (the page says so beside the number).
    pub unmodelled: &'static [Unmodelled],
}

/// A part of a published model the calculator does not count yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Unmodelled {
    /// Multi-token prediction modules (DeepSeek-V3 §2.2), left out unless `mtp-layers` is given. Listed first.
    Mtp,
    /// FP8 training (DeepSeek-V3 §3.3): FP8 weight copies and activations.
    Fp8,
}

impl Unmodelled {
    pub fn english(self) -> &'static str {
        match self {
            Unmodelled::Mtp => "its multi-token prediction module (mtp-layers 1 adds it)",
            Unmodelled::Fp8 => "FP8 training (fp8 blockwise adds it)",
        }
    }
}

/// gpt-oss's shape (its config.json): L layers of E experts of 2,880, top-4, 64
/// query heads of 64 over 8 KV heads, every other layer sliding over 128 tokens.
const fn gpt_oss(layers: u64, experts: u64) -> Architecture {
    Architecture {
        experts,
        top_k: 4,
        shared_experts: 0,
        moe_ffn: 2880,
        head_dim: 64,
        sliding_window: 128,
        global_every: 2,
        ..Architecture::dense(layers, 2880, (64, 8), 2880, 201_088, (Mlp::Swiglu, false))
    }
}

/// A dense model's MLP and embeddings: (form, tied).
const GPT_TIED: (Mlp, bool) = (Mlp::Gelu, true);
const GPT_UNTIED: (Mlp, bool) = (Mlp::Gelu, false);
const LLAMA: (Mlp, bool) = (Mlp::Swiglu, false);

// Position limits (max_position_embeddings), as each config.json gives them, read
// from copies that name the model (gathered 2026-12-02): Llama 3 (the herd of
// Dubey et al. 2024, that is Llama 3.1) 131,072 for 8B, 70B and 405B (MaxText's
// hf_model_configs.py; Meta-Llama-3-8B of April 2024 read 8,192); Llama 2 4,096
// (torchtune's llama2 builders; the first uploads said 2,048, fixed in
// transformers#24986); Mistral 7B v0.1 and Mixtral 8x7B 32,768 (torchtune,
// superbenchmark); Qwen2.5 7B and 72B base 131,072 (kithara's verbatim
// qwen2.5-7b_config.json, torchtune's qwen2_5 base builders; the Instruct
// models read 32,768); DeepSeek-V3 163,840 (MaxText, YaRN factor 40 over
// 4,096); GPT-NeoX-20B 2,048 (gpt-neox configs/20B.yml); Pythia 2,048 (LitGPT);
// GPT-3 2,048 (Brown et al. 2020, §2.1: "a context window of nctx = 2048
// tokens"); the Megatron models the 2,048 they were sized at (Korthikanti et al. 2022).
pub static MODELS: &[Model] = &[
    Model {
        name: "gpt-3-175b",
        label: "GPT-3 175B",
        params: 175.0e9,
        active_params: 175.0e9,
        arch: Architecture::dense(96, 12288, (96, 96), 49152, 50257, GPT_TIED),
        seq_len: 2048,
        max_positions: 2048,
        source: "Brown et al. 2020, Table 2.1",
        unmodelled: &[],
    },
    Model {
        name: "gpt-neox-20b",
        label: "GPT-NeoX-20B",
        params: 20.55e9,
        active_params: 20.55e9,
        arch: Architecture::dense(44, 6144, (64, 64), 24576, 50432, GPT_UNTIED),
        seq_len: 2048,
        max_positions: 2048,
        source: "Black et al. 2022, Table 1",
        unmodelled: &[],
    },
    Model {
        name: "pythia-6.9b",
        label: "Pythia-6.9B",
        params: 6_857_302_016.0,
        active_params: 6_857_302_016.0,
        arch: Architecture::dense(32, 4096, (32, 32), 16384, 50432, GPT_UNTIED),
        seq_len: 2048,
        max_positions: 2048,
        source: "Biderman et al. 2023, Table 1",
        unmodelled: &[],
    },
    Model {
        name: "bloom-176b",
        label: "BLOOM 176B",
        params: 176_247_271_424.0,
        active_params: 176_247_271_424.0,
        arch: Architecture::dense(70, 14336, (112, 112), 57344, 250_880, GPT_TIED),
        seq_len: 2048,
        max_positions: 2048,
        source: "BigScience 2022 (Le Scao et al.), BLOOM, Table 3: 70 layers, h 14,336, 112 heads, 2,048 tokens, ALiBi (no position embeddings); the vocabulary of 250,680 padded to 250,880 (its config.json); P: the model card's 176,247,271,424",
        unmodelled: &[],
    },
    Model {
        name: "llama-2-7b",
        label: "Llama 2 7B",
        params: 6_738_415_616.0,
        active_params: 6_738_415_616.0,
        arch: Architecture::dense(32, 4096, (32, 32), 11008, 32000, LLAMA),
        seq_len: 4096,
        max_positions: 4096,
        source: "Touvron et al. 2023 (Llama 2), Table 1; shape and P: meta-llama/Llama-2-7b-hf config.json and its safetensors total",
        unmodelled: &[],
    },
    Model {
        name: "llama-2-13b",
        label: "Llama 2 13B",
        params: 13_015_864_320.0,
        active_params: 13_015_864_320.0,
        arch: Architecture::dense(40, 5120, (40, 40), 13824, 32000, LLAMA),
        seq_len: 4096,
        max_positions: 4096,
        source: "Touvron et al. 2023 (Llama 2), Table 1",
        unmodelled: &[],
    },
    Model {
        name: "llama-2-70b",
        label: "Llama 2 70B",
        params: 68_976_648_192.0,
        active_params: 68_976_648_192.0,
        arch: Architecture::dense(80, 8192, (64, 8), 28672, 32000, LLAMA),
        seq_len: 4096,
        max_positions: 4096,
        source: "Touvron et al. 2023 (Llama 2), Table 1",
        unmodelled: &[],
    },
    Model {
        name: "llama-3-8b",
        label: "Llama 3 8B",
        params: 8_030_261_248.0,
        active_params: 8_030_261_248.0,
        arch: Architecture::dense(32, 4096, (32, 8), 14336, 128256, LLAMA),
        seq_len: 8192,
        max_positions: 131072,
        source: "Dubey et al. 2024 (Llama 3), Table 3; shape and P: the meta-llama config.json and safetensors total",
        unmodelled: &[],
    },
    Model {
        name: "llama-3-70b",
        label: "Llama 3 70B",
        params: 70_553_706_496.0,
        active_params: 70_553_706_496.0,
        arch: Architecture::dense(80, 8192, (64, 8), 28672, 128256, LLAMA),
        seq_len: 8192,
        max_positions: 131072,
        source: "Dubey et al. 2024 (Llama 3), Table 3; shape and P: the meta-llama config.json and safetensors total",
        unmodelled: &[],
    },
    Model {
        name: "llama-3-405b",
        label: "Llama 3 405B",
        params: 405_853_388_800.0,
        active_params: 405_853_388_800.0,
        arch: Architecture::dense(126, 16384, (128, 8), 53248, 128256, LLAMA),
        seq_len: 8192,
        max_positions: 131072,
        source: "Dubey et al. 2024 (Llama 3), Table 3; shape and P: the meta-llama config.json and safetensors total",
        unmodelled: &[],
    },
    Model {
        name: "mistral-7b",
        label: "Mistral 7B",
        params: 7_241_732_096.0,
        active_params: 7_241_732_096.0,
        arch: Architecture::dense(32, 4096, (32, 8), 14336, 32000, LLAMA),
        seq_len: 8192,
        max_positions: 32768,
        source: "Jiang et al. 2023, Table 1; shape and P: mistralai/Mistral-7B-v0.1 config.json and its safetensors total",
        unmodelled: &[],
    },
    Model {
        name: "mixtral-8x7b",
        label: "Mixtral 8x7B",
        params: 46_702_792_704.0,
        active_params: 12_879_925_248.0,
        arch: Architecture {
            experts: 8,
            top_k: 2,
            shared_experts: 0,
            moe_ffn: 14336,
            ..Architecture::dense(32, 4096, (32, 8), 14336, 32000, (Mlp::Swiglu, false))
        },
        seq_len: 32768,
        max_positions: 32768,
        source: "Jiang et al. 2024 (Mixtral of Experts), §2; shape and P: mistralai/Mixtral-8x7B-v0.1 config.json and its safetensors total",
        unmodelled: &[],
    },
    Model {
        name: "mixtral-8x22b",
        label: "Mixtral 8x22B",
        params: 140_620_634_112.0,
        active_params: 39_161_468_928.0,
        arch: Architecture {
            experts: 8,
            top_k: 2,
            shared_experts: 0,
            moe_ffn: 16384,
            ..Architecture::dense(56, 6144, (48, 8), 16384, 32768, (Mlp::Swiglu, false))
        },
        seq_len: 65536,
        max_positions: 65536,
        source: "Mistral AI 2024, \"Cheaper, Better, Faster, Stronger\" (141B total, 39B active); shape: mistralai/Mixtral-8x22B-v0.1 config.json; P: its safetensors total; active: the shape's count",
        unmodelled: &[],
    },
    Model {
        name: "qwen2.5-7b",
        label: "Qwen2.5 7B",
        params: 7_615_616_512.0,
        active_params: 7_615_616_512.0,
        arch: Architecture::dense(28, 3584, (28, 4), 18944, 152064, LLAMA),
        seq_len: 32768,
        max_positions: 131072,
        source: "Qwen Team 2024 (Qwen2.5 technical report), Table 1; shape and P: Qwen/Qwen2.5-7B config.json and model card (7.61B, with the QKV biases not counted here)",
        unmodelled: &[],
    },
    Model {
        name: "qwen2.5-72b",
        label: "Qwen2.5 72B",
        params: 72_706_203_648.0,
        active_params: 72_706_203_648.0,
        arch: Architecture::dense(80, 8192, (64, 8), 29568, 152064, LLAMA),
        seq_len: 32768,
        max_positions: 131072,
        source: "Qwen Team 2024 (Qwen2.5 technical report), Table 1; shape and P: Qwen/Qwen2.5-72B config.json and model card (72.7B)",
        unmodelled: &[],
    },
    Model {
        name: "deepseek-v3",
        label: "DeepSeek-V3 671B",
        // The shape's exact count (SPEC): the report's 671B total and 37B activated.
        params: 671_026_404_352.0,
        active_params: 37_552_282_624.0,
        arch: Architecture {
            experts: 256,
            top_k: 8,
            shared_experts: 1,
            moe_ffn: 2048,
            dense_layers: 3,
            mla: Mla { kv_lora_rank: 512, q_lora_rank: 1536, qk_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128 },
            ..Architecture::dense(61, 7168, (128, 128), 18432, 129280, (Mlp::Swiglu, false))
        },
        seq_len: 4096,
        max_positions: 163840,
        source: "DeepSeek-AI 2024, DeepSeek-V3 technical report, §4.2; shape: deepseek-ai/DeepSeek-V3 config.json (kv_lora_rank 512, q_lora_rank 1536, qk_nope_head_dim 128, qk_rope_head_dim 64, v_head_dim 128, first_k_dense_replace 3); its multi-token prediction module and FP8 training are left out unless mtp-layers and fp8 are given",
        unmodelled: &[Unmodelled::Mtp, Unmodelled::Fp8],
    },
    Model {
        name: "qwen3-30b-a3b",
        label: "Qwen3 30B-A3B",
        params: 30_532_122_624.0,
        active_params: 3_353_020_416.0,
        arch: Architecture {
            experts: 128,
            top_k: 8,
            shared_experts: 0,
            moe_ffn: 768,
            head_dim: 128,
            ..Architecture::dense(48, 2048, (32, 4), 6144, 151936, (Mlp::Swiglu, false))
        },
        seq_len: 4096,
        max_positions: 40960,
        source: "Qwen Team 2025 (Qwen3 technical report), Table 2 (30.5B total, 3.3B activated); shape: Qwen/Qwen3-30B-A3B config.json (head_dim 128 with h/a = 64, 128 experts of 768, top-8, every layer MoE); P: its safetensors total, which the shape gives but for its QK-norm weights (2·128 per layer, 12,288); active: the shape's count",
        unmodelled: &[],
    },
    // Gemma 3 27B's language model (the vision encoder is not counted): five
    // sliding layers of 1,024 tokens to every global one.
    Model {
        name: "gemma-3-27b",
        label: "Gemma 3 27B",
        params: 27_008_663_808.0,
        active_params: 27_008_663_808.0,
        arch: Architecture {
            head_dim: 128,
            sliding_window: 1024,
            global_every: 6,
            ..Architecture::dense(62, 5376, (32, 16), 21504, 262_208, (Mlp::Swiglu, true))
        },
        seq_len: 32768,
        max_positions: 131_072,
        source: "Gemma Team 2025, Gemma 3 Technical Report, Table 1 (27B: 1,416M embedding + 25,600M non-embedding parameters, 417M vision encoder beside) and §2 (5 local layers of a 1,024-token window per global layer; pre-trained at 32K, extended to 128K); shape: google/gemma-3-27b-pt config.json text_config (62 layers, hidden 5376, 32 heads of 128, 16 KV heads, a gated GELU MLP of 21,504, tied, the class's vocabulary 262,208, sliding_window 1024); P: the shape's count, 0.03 % under the report's (its four norms and QK-norms per layer)",
        unmodelled: &[],
    },
    // gpt-oss (OpenAI 2025): every layer a mixture of 2,880-wide experts, top-4,
    // 64 query heads of 64 and 8 KV heads; MXFP4 experts as released.
    Model {
        name: "gpt-oss-20b",
        label: "gpt-oss-20b",
        params: 20_907_927_360.0,
        active_params: 4_186_416_960.0,
        arch: gpt_oss(24, 32),
        seq_len: 4096,
        max_positions: 131_072,
        source: "OpenAI 2025, gpt-oss-120b & gpt-oss-20b model card (20.91B total, 3.61B active per token); shape: openai/gpt-oss-20b config.json (24 layers, hidden 2880, 64 heads of 64, 8 KV heads, 32 experts of 2880, top-4, vocabulary 201,088, untied; layer_types alternating sliding_attention of sliding_window 128 and full_attention); P and active: the shape's count, which leaves out the biases and attention sinks (under 0.1 %); the card's active count leaves out the input embedding (0.58B), the shape's includes it",
        unmodelled: &[],
    },
    Model {
        name: "gpt-oss-120b",
        label: "gpt-oss-120b",
        params: 116_789_048_640.0,
        active_params: 5_710_443_840.0,
        arch: gpt_oss(36, 128),
        seq_len: 4096,
        max_positions: 131_072,
        source: "OpenAI 2025, gpt-oss-120b & gpt-oss-20b model card (116.8B total, 5.13B active per token); shape: openai/gpt-oss-120b config.json (36 layers, hidden 2880, 64 heads of 64, 8 KV heads, 128 experts of 2880, top-4, vocabulary 201,088, untied; layer_types alternating sliding_attention of sliding_window 128 and full_attention); P and active: the shape's count, which leaves out the biases and attention sinks (under 0.1 %); the card's active count leaves out the input embedding (0.58B), the shape's includes it",
        unmodelled: &[],
    },
    // Qwen3-Next-80B-A3B: a hybrid of three Gated DeltaNet layers to one of gated
    // attention, every layer a mixture of 512 experts of 512, top-10 and one shared.
    Model {
        name: "qwen3-next-80b-a3b",
        label: "Qwen3-Next-80B-A3B",
        params: 79_674_391_296.0,
        active_params: 3_874_929_408.0,
        arch: Architecture {
            head_dim: 256,
            experts: 512,
            top_k: 10,
            shared_experts: 1,
            moe_ffn: 512,
            attention_every: 4,
            // 32 value heads × 128 × 128; (4 − 1) × (2·16·128 + 32·128).
            linear_state: 524_288,
            linear_conv: 24_576,
            ..Architecture::dense(48, 2048, (16, 2), 5120, 151_936, (Mlp::Swiglu, false))
        },
        seq_len: 4096,
        max_positions: 262_144,
        source: "Qwen Team 2025, Qwen3-Next-80B-A3B model card (80B total, 3B activated; 48 layers as 12 × (3 Gated DeltaNet + 1 gated attention), each with a mixture of experts); shape: Qwen/Qwen3-Next-80B-A3B-Instruct config.json as transformers' Qwen3NextConfig documents it (hidden 2048, 16 query heads and 2 KV heads of 256, full_attention_interval 4, linear_num_key_heads 16 and linear_num_value_heads 32 of 128, linear_conv_kernel_dim 4, 512 experts of 512, top-10, a shared expert of 512, vocabulary 151,936, untied); P and active: counted tensor by tensor (an attention layer 27,263,488 with its output gate and QK norms; a Gated DeltaNet layer 33,718,464; a MoE block 1,614,809,088), 79.67B, which vLLM 0.10.2 loads as 2 × 74.28 GiB at tensor parallelism 2 (148.56 GiB against 148.41); the recurrent state in bf16 (vLLM's default for Qwen3NextForCausalLM)",
        unmodelled: &[],
    },
    Model {
        name: "deepseek-v2-lite",
        label: "DeepSeek-V2-Lite 16B",
        params: 15_706_484_224.0,
        active_params: 2_661_150_208.0,
        arch: Architecture {
            experts: 64,
            top_k: 6,
            shared_experts: 2,
            moe_ffn: 1408,
            dense_layers: 1,
            mla: Mla { kv_lora_rank: 512, q_lora_rank: 0, qk_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128 },
            ..Architecture::dense(27, 2048, (16, 16), 10944, 102400, (Mlp::Swiglu, false))
        },
        seq_len: 4096,
        max_positions: 163840,
        source: "DeepSeek-AI 2024, DeepSeek-V2 technical report, Appendix B (15.7B total, 2.4B activated); shape: deepseek-ai/DeepSeek-V2-Lite config.json (kv_lora_rank 512, no query compression, qk_nope_head_dim 128, qk_rope_head_dim 64, v_head_dim 128, 64 routed + 2 shared experts of 1408, top-6, first_k_dense_replace 1); P: its safetensors total; active: the shape's count, the embeddings included",
        unmodelled: &[],
    },
    // The four models of Korthikanti et al. 2022, Table 3 (Figure 1).
    Model {
        name: "megatron-22b",
        label: "Megatron 22B",
        params: 22e9,
        active_params: 22e9,
        arch: Architecture::dense(48, 6144, (64, 64), 24576, 51200, GPT_TIED),
        seq_len: 2048,
        max_positions: 2048,
        source: "Korthikanti et al. 2022, Table 3",
        unmodelled: &[],
    },
    Model {
        name: "megatron-175b",
        label: "Megatron 175B (GPT-3)",
        params: 175e9,
        active_params: 175e9,
        arch: Architecture::dense(96, 12288, (96, 96), 49152, 51200, GPT_TIED),
        seq_len: 2048,
        max_positions: 2048,
        source: "Korthikanti et al. 2022, Table 3",
        unmodelled: &[],
    },
    Model {
        name: "megatron-530b",
        label: "Megatron 530B (MT-NLG)",
        params: 530e9,
        active_params: 530e9,
        arch: Architecture::dense(105, 20480, (128, 128), 81920, 51200, GPT_TIED),
        seq_len: 2048,
        max_positions: 2048,
        source: "Korthikanti et al. 2022, Table 3",
        unmodelled: &[],
    },
    Model {
        name: "megatron-1t",
        label: "Megatron 1T",
        params: 1e12,
        active_params: 1e12,
        arch: Architecture::dense(128, 25600, (160, 160), 102400, 51200, GPT_TIED),
        seq_len: 2048,
        max_positions: 2048,
        source: "Korthikanti et al. 2022, Table 3",
        unmodelled: &[],
    },
];

/// Looks a model up by its key (case-insensitive).
pub fn model(name: &str) -> Option<&'static Model> {
    MODELS.iter().find(|m| m.name.eq_ignore_ascii_case(name.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every GPU's all-reduce curve has its source; the measured ones read as
    /// their tables print them, rising with the message and held at the ends.
    #[test]
    fn allreduce_curves() {
        for g in GPUS {
            assert!(allreduce_source(g.name).is_some(), "{}", g.name);
            assert!(sustained_source(g.name).is_some(), "{}", g.name);
            assert!((0.8..=1.0).contains(&g.sustained), "{}", g.name);
            let p = g.allreduce.points;
            assert!(p.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1), "{}", g.name);
        }
        let a100 = &A100_ALLREDUCE;
        assert!((a100.share(128.0 * 1024.0 * 1024.0) - 174.18 / 300.0).abs() < 1e-12);
        assert!(
            (a100.share(96.0 * 1024.0 * 1024.0) - (166.63 + (1.5f64.log2()) * (174.18 - 166.63)) / 300.0).abs() < 1e-12
        );
        assert_eq!(a100.share(1e12), 231.58 / 300.0);
        assert_eq!(a100.share(1.0), 36.22 / 300.0);
        // NVLink SHARP reduces in the switch: the H100's bus bandwidth passes its link's.
        assert!(H100_ALLREDUCE.share(8e9) > 1.0);
    }

    /// A bare P gets a published shape near it: the article's 7B keeps the
    /// 7B shape, 70B takes Llama's, and the shape's own P stays close to the given one.
    #[test]
    fn a_bare_p_takes_the_nearest_published_shape() {
        assert_eq!(nearest_shape(7e9).arch, crate::settings::DEFAULT_ARCH);
        assert_eq!(nearest_shape(70e9).arch.layers, 80);
        assert_eq!(nearest_shape(7.5e9).arch.hidden, 4096);
        for p in [1e8, 3e8, 1e9, 5e9, 2e10, 1e11, 3e11, 2e12] {
            let ratio = nearest_shape(p).arch.approx_params().get() / p;
            assert!((0.5..=2.0).contains(&ratio), "{p}: {ratio}");
        }
        for s in SHAPES {
            assert_eq!(s.arch.hidden % s.arch.heads, 0, "{}", s.source);
        }
    }

    #[test]
    fn short_labels_keep_the_part_and_its_memory() {
        assert_eq!(gpu("a100-80gb").map(Gpu::short_label), Some("A100 SXM (80 GB)"));
        assert_eq!(gpu("mi300x").map(Gpu::short_label), Some("MI300X (192 GB)"));
        assert_eq!(gpu("rtx-4090").map(Gpu::short_label), Some("RTX 4090 (24 GB)"));
        for g in GPUS {
            assert!(g.short_label().len() <= 20 && g.short_label().ends_with("GB)"), "{}", g.short_label());
        }
    }

    #[test]
    fn keys_are_unique_and_found() {
        for g in GPUS {
            assert_eq!(gpu(g.name).map(|x| x.name), Some(g.name));
        }
        for m in MODELS {
            assert_eq!(model(m.name).map(|x| x.name), Some(m.name));
            assert_eq!(m.arch.hidden % m.arch.heads, 0, "{}", m.name);
            assert!(m.active_params <= m.params);
        }
    }

    /// The exact count from each catalogue shape lands within 0.5 % of the
    /// published P (and of the active P for a mixture of experts). One
    /// exception, with its reason: Megatron 1T's "1T" is rounded: Narayanan et
    /// al. 2021, Table 1, count the same shape as 1008B, which the exact count
    /// gives within 0.5 %. A hybrid model's shape counts its linear layers as
    /// attention layers (their projections are not keys; Qwen3-Next's Gated
    /// DeltaNet layer holds 33.7M against the 18.9M of an ungated attention layer of
    /// its shape): its P within 1 %; its active P, of which the layers are a
    /// third, is not the shape's (both are counted tensor by tensor, in `source`).
    #[test]
    fn exact_counts_match_the_published_parameters() {
        for m in MODELS {
            let (published, active) = match m.name {
                "megatron-1t" => (1008e9, 1008e9),
                _ => (m.params, m.active_params),
            };
            let tolerance = if m.arch.linear_layers() > 0 { 0.01 } else { 0.005 };
            let a = m.arch;
            let checks = [(a.exact_params(), published), (a.exact_active_params(), active)];
            let checks = if a.linear_layers() > 0 { &checks[..1] } else { &checks[..] };
            for &(count, published) in checks {
                let err = count.get() / published - 1.0;
                assert!(err.abs() < tolerance, "{}: {} vs {published} ({:+.3} %)", m.name, count.get(), 100.0 * err);
            }
        }
    }
}
