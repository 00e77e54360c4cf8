//! Rated figures of NVIDIA's HBM datacenter parts (Volta to Blackwell).
//!
//! Tensor figures are dense: where NVIDIA prints only the with-sparsity (2:4) figure, half of it
//! is used. A row's figures carry the row's source tags; a figure from a third-party page is
//! `sec`, one computed here `der`, one without any source `unv`.
//!
// Sources:
// [NV-SPEC-T] NVIDIA data-center product-page spec tables: https://www.nvidia.com/en-us/data-center/a100/ ,
//   https://www.nvidia.com/en-us/data-center/h100/ , https://www.nvidia.com/en-us/data-center/h200/ ,
//   https://www.nvidia.com/en-us/data-center/hgx/
// [NV-H100PCIe-PB] "NVIDIA H100 PCIe GPU Product Brief", PB-11133-001_v02, Nov 2022, mirror
//   https://manuals.plus/m/56b0c3ef7d0a1c470c0af8f05a0bd1f29a778007472ba941201fbbb185c9bccd
// [NV-A100-40-PB] "NVIDIA A100 40GB PCIe GPU Accelerator Product Brief", PB-10137-001_v03, mirror
//   https://docslib.org/doc/3015592/a100-40gb-pcie-product-brief
// [NV-H200NVL-T] "NVIDIA H200 NVL Specifications", NVIDIA's H200 page (https://www.nvidia.com/en-us/data-center/h200/)
// [STAS-ACC] stas00/ml-engineering, compute/accelerator/README.md @ b9e29720eebd4aa946fa9678975385efbc90a777
//   https://github.com/stas00/ml-engineering/blob/master/compute/accelerator/README.md
// [LLMC] karpathy/llm.c, llmc/mfu.h @ 0e69e3ae466694915e9f7e5742b3c55edacc20fd
//   https://github.com/karpathy/llm.c/blob/master/llmc/mfu.h
// [GK-A100] Glenn K. Lockwood, "A100", https://glennklockwood.com/garden/processors/A100 (secondary)
// [TC-A100] Thunder Compute, "NVIDIA A100 specs full guide",
//   https://www.thundercompute.com/blog/nvidia-a100-specs-full-guide (secondary)
// [PC2-A100] Paderborn PC2 wiki, "NVIDIA A100 40GB with NVLINK",
//   https://upb-pc2.atlassian.net/wiki/spaces/PC2DOK/pages/1900609/NVIDIA+A100+40GB+with+NVLINK (secondary)
// [GPUBLOG-NVL] https://gpu.blog/gpus/nvidia-h100-nvl (secondary)
// [NOTE-H100NVL] an engineering note citing nvidia-smi on an H100 NVL and the PNY-hosted NVIDIA
//   H100 NVL datasheet (no public address)
// [SAUL-H200] https://www.saulelectric.com/nvidia-h200.html (secondary)
// [TT-H20] TweakTown, "NVIDIA's tweaked H20 AI GPU enters mass production in Q2 2024",
//   https://www.tweaktown.com/news/95224/nvidias-tweaked-h20-ai-gpu-enters-mass-production-in-q2-2024-destined-for-china/index.html (secondary)
// [ZSX-H20] https://zangshuxian.com/new/674733024499207168 (secondary)
// [WIR-H20] https://willitrunai.com/es/gpus/h20-96gb (secondary)
// [NOTE-A30] notes comparing the T4/A10/A30/V100 datasheet figures (no public address; secondary)
// [NEEV-A30] NeevCloud's A30 page (secondary)
// [GIST-SYHW] https://gist.github.com/syhw/b8067966a498b604b4750e9458f36804
// [HWT-V100] Hardware Times, "NVIDIA Launches PCIe Variant of the A100" (V100 column),
//   https://www.hardwaretimes.com/nvidia-launches-pcie-variant-of-the-a100-ampere-gpu-accelerator/ (secondary)
// [SYSRQ-V100] https://sysrqmts.com/it/gpus/compare/nvidia-tesla-t10-processor-vs-nvidia-tesla-v100-pcie-16-gb (secondary)

use super::{Form, Quality, RatedGpu, link, nv, sec, unv};

/// The A100's compute is the same in every form factor [STAS-ACC].
const A100: RatedGpu = RatedGpu {
    model: "A100 80GB SXM4",
    tokens: &["A100"],
    form: Form::Sxm,
    memory_gb: 80,
    memory_bandwidth_gbs: nv(2039.0),
    board_power_w: Some(nv(400.0)),
    pcie: Some(link(4, 16, Quality::Sourced)),
    compute_capability: (8, 0),
    sms: Some(108),
    fp32_tflops: nv(19.5),
    bf16_tflops: Some(nv(312.0)),
    fp16_tflops: Some(nv(312.0)),
    ecc_expected: true,
    sources: &["NV-SPEC-T", "PC2-A100", "STAS-ACC"],
};

/// H100 SXM5; the H200 SXM has the same compute [NV-SPEC-T].
const H100_SXM: RatedGpu = RatedGpu {
    model: "H100 SXM5",
    tokens: &["H100"],
    form: Form::Sxm,
    memory_gb: 80,
    memory_bandwidth_gbs: nv(3350.0),
    board_power_w: Some(nv(700.0)),
    pcie: Some(link(5, 16, Quality::Sourced)),
    compute_capability: (9, 0),
    sms: Some(132),
    fp32_tflops: nv(67.0),
    bf16_tflops: Some(nv(989.5)),
    fp16_tflops: Some(nv(989.5)),
    ecc_expected: true,
    sources: &["NV-SPEC-T", "STAS-ACC"],
};

/// H100 NVL; the H200 NVL has the same compute [NV-SPEC-T] [NV-H200NVL-T].
const H100_NVL: RatedGpu = RatedGpu {
    model: "H100 NVL",
    tokens: &["H100"],
    form: Form::Nvl,
    memory_gb: 94,
    memory_bandwidth_gbs: nv(3900.0),
    // Configurable 350–400 W: the top of the range.
    board_power_w: Some(nv(400.0)),
    pcie: Some(link(5, 16, Quality::Sourced)),
    compute_capability: (9, 0),
    sms: Some(132),
    fp32_tflops: nv(60.0),
    bf16_tflops: Some(nv(835.5)),
    fp16_tflops: Some(nv(835.5)),
    ecc_expected: true,
    sources: &["NV-SPEC-T", "GPUBLOG-NVL", "NOTE-H100NVL"],
};

/// V100 SXM2: SXM2 with NVLink; its host link is not in the sources.
const V100_SXM2: RatedGpu = RatedGpu {
    model: "V100 SXM2 32GB",
    tokens: &["V100"],
    form: Form::Sxm,
    memory_gb: 32,
    memory_bandwidth_gbs: nv(900.0),
    board_power_w: Some(nv(300.0)),
    pcie: None,
    compute_capability: (7, 0),
    sms: Some(80),
    fp32_tflops: nv(15.7),
    bf16_tflops: None,
    fp16_tflops: Some(nv(125.0)),
    ecc_expected: true,
    sources: &["LLMC", "NOTE-A30", "GIST-SYHW"],
};

const V100_PCIE: RatedGpu = RatedGpu {
    model: "V100 PCIe 32GB",
    tokens: &["V100"],
    form: Form::Pcie,
    memory_gb: 32,
    memory_bandwidth_gbs: sec(900.0),
    // The sources disagree (250 or 300 W).
    board_power_w: Some(unv(250.0)),
    pcie: Some(link(3, 16, Quality::Secondary)),
    compute_capability: (7, 0),
    sms: Some(80),
    fp32_tflops: sec(14.0),
    bf16_tflops: None,
    fp16_tflops: Some(sec(112.0)),
    ecc_expected: true,
    sources: &["HWT-V100", "SYSRQ-V100"],
};

pub(super) const ROWS: [RatedGpu; 16] = [
    RatedGpu {
        model: "A100 40GB PCIe",
        form: Form::Pcie,
        memory_gb: 40,
        memory_bandwidth_gbs: sec(1555.0),
        board_power_w: Some(sec(250.0)),
        sources: &[
            "TC-A100",
            "GK-A100",
            "NV-A100-40-PB",
            "PC2-A100",
            "STAS-ACC",
        ],
        ..A100
    },
    RatedGpu {
        model: "A100 80GB PCIe",
        form: Form::Pcie,
        memory_bandwidth_gbs: nv(1935.0),
        board_power_w: Some(nv(300.0)),
        sources: &["NV-SPEC-T", "LLMC", "STAS-ACC"],
        ..A100
    },
    RatedGpu {
        model: "A100 40GB SXM4",
        memory_gb: 40,
        memory_bandwidth_gbs: sec(1555.0),
        board_power_w: Some(sec(400.0)),
        pcie: Some(link(4, 16, Quality::Secondary)),
        sources: &["GK-A100", "PC2-A100", "STAS-ACC"],
        ..A100
    },
    A100,
    RatedGpu {
        model: "H100 PCIe",
        form: Form::Pcie,
        // NVIDIA: "greater than 2,000"; [STAS-ACC]: 2,000.
        memory_bandwidth_gbs: nv(2000.0),
        board_power_w: Some(nv(350.0)),
        sms: Some(114),
        fp32_tflops: nv(51.0),
        bf16_tflops: Some(nv(756.0)),
        fp16_tflops: Some(nv(756.0)),
        sources: &["NV-H100PCIe-PB", "STAS-ACC", "LLMC"],
        ..H100_SXM
    },
    H100_SXM,
    H100_NVL,
    RatedGpu {
        model: "H200 SXM 141GB",
        tokens: &["H200"],
        memory_gb: 141,
        memory_bandwidth_gbs: nv(4800.0),
        sources: &["NV-SPEC-T", "SAUL-H200"],
        ..H100_SXM
    },
    RatedGpu {
        model: "H200 NVL",
        tokens: &["H200"],
        memory_gb: 141,
        memory_bandwidth_gbs: nv(4800.0),
        board_power_w: Some(nv(600.0)),
        sms: None,
        sources: &["NV-SPEC-T", "NV-H200NVL-T"],
        ..H100_NVL
    },
    RatedGpu {
        model: "H20",
        tokens: &["H20"],
        memory_gb: 96,
        memory_bandwidth_gbs: sec(4000.0),
        board_power_w: Some(sec(400.0)),
        pcie: Some(link(5, 16, Quality::Unverified)),
        // Derived from Geekbench results.
        sms: Some(78),
        fp32_tflops: sec(44.0),
        bf16_tflops: Some(sec(148.0)),
        fp16_tflops: Some(sec(148.0)),
        sources: &["TT-H20", "ZSX-H20", "WIR-H20"],
        ..H100_SXM
    },
    RatedGpu {
        model: "A30",
        tokens: &["A30"],
        form: Form::Pcie,
        memory_gb: 24,
        memory_bandwidth_gbs: sec(933.0),
        board_power_w: Some(sec(165.0)),
        pcie: Some(link(4, 16, Quality::Secondary)),
        sms: None,
        fp32_tflops: sec(10.3),
        bf16_tflops: Some(sec(165.0)),
        fp16_tflops: Some(sec(165.0)),
        sources: &["NOTE-A30", "NEEV-A30"],
        ..A100
    },
    RatedGpu {
        model: "V100 SXM2 16GB",
        memory_gb: 16,
        ..V100_SXM2
    },
    V100_SXM2,
    RatedGpu {
        model: "V100 PCIe 16GB",
        memory_gb: 16,
        ..V100_PCIE
    },
    V100_PCIE,
    RatedGpu {
        model: "B200 (HGX)",
        tokens: &["B200"],
        form: Form::Sxm,
        // 192 GB in earlier specifications.
        memory_gb: 180,
        memory_bandwidth_gbs: nv(7700.0),
        board_power_w: Some(nv(1000.0)),
        pcie: Some(link(5, 16, Quality::Unverified)),
        compute_capability: (10, 0),
        sms: None,
        fp32_tflops: nv(75.0),
        bf16_tflops: Some(nv(2250.0)),
        fp16_tflops: Some(nv(2250.0)),
        ecc_expected: true,
        sources: &["NV-SPEC-T", "STAS-ACC"],
    },
];
