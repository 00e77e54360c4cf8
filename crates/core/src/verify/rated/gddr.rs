//! Rated figures of NVIDIA's GDDR cards: datacenter PCIe parts, workstation and GeForce cards.
//!
//! Tensor figures are dense with FP32 accumulate. GeForce Ampere and Ada cards run that at half
//! their FP16-accumulate rate, and so does the L40 (half the L40S at the same SMs and FP32);
//! datacenter and pro cards run both at the same rate. Where NVIDIA prints only the
//! with-sparsity figure, half of it is used. A figure from a third-party page is `sec`, one
//! computed here `der` (the arithmetic is beside it), one without any source `unv`.
//!
// Sources:
// [MULLET-L40] Mullet, NVIDIA L40/L40S product page (reproduces the datasheet table),
//   https://www.mullet.se/product.html?product_id=355414 (secondary)
// [ITC-L40S] IT Creations, "NVIDIA L40S GPU Accelerator",
//   https://www.itcreations.com/nvidia-gpu/nvidia-l40s-gpu-accelerator (secondary)
// [STAS-ACC] stas00/ml-engineering, compute/accelerator/README.md @ b9e29720eebd4aa946fa9678975385efbc90a777
//   https://github.com/stas00/ml-engineering/blob/master/compute/accelerator/README.md
// [SRC-L4] Source Code store comparison (L4 vs L40S), https://store.sourcecode.com/en-us/bg-bucket-compare/125/9820 (secondary)
// [GROK-L4] "NVIDIA L4 vs L40S", https://grokipedia.com/page/NVIDIA_L4_vs_L40S (secondary)
// [FPS-L4] FPSBench, "NVIDIA L4 vs Tesla M40", https://fpsbench.com/compare/gpu/nvidia-l4-vs-nvidia-tesla-m40 (secondary)
// [BASETEN] Baseten, "NVIDIA A10 vs A10G for ML model inference",
//   https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-inference/ (secondary; NVIDIA
//   publishes no A10G datasheet)
// [NOTE-GPUTABLE] a table of cloud GPUs with datasheet links (no public address; secondary)
// [SYSRQ-A10] https://sysrqmts.com/ru/gpus/compare/nvidia-a10-pcie-vs-nvidia-quadro-rtx-4000 (secondary)
// [GIST-KIMBO] https://gist.github.com/kimbochen (A100/H100/A10 FP16, bandwidth, TDP table; secondary)
// [NOTE-A30] notes comparing the T4/A10/A30/V100 datasheet figures (no public address; secondary)
// [SYSRQ-T4] https://sysrqmts.com/en/gpus/nvidia/tesla/t4 (secondary)
// [GEEKTOPIA-T4] https://geektopia.es/es/technology/2018/09/13/noticias/nvidia-presenta-la-nueva-tesla-t4-basada-en-turing-orientada-a-inteligencia-artificial.html (secondary)
// [GK-6000] grafikkarten.com, "NVIDIA RTX 6000 Grafikkarte der Ada-Generation",
//   https://www.grafikkarten.com/de/news/nvidia-rtx-6000-grafikkarte-der-ada-generation (secondary)
// [LLMC] karpathy/llm.c, llmc/mfu.h @ 0e69e3ae466694915e9f7e5742b3c55edacc20fd (figures "from the
//   nvidia whitepapers"), https://github.com/karpathy/llm.c/blob/master/llmc/mfu.h
// [MODULA-PR1] https://github.com/modula-systems/modula/pull/1 (a 16-bit FLOPS table)
// [STH-A6000] ServeTheHome, "NVIDIA RTX A6000 48GB GPU drops Quadro designation",
//   https://servethehome.com/nvidia-rtx-a6000-48gb-gpu-drops-quadro-designation (secondary)
// [SYSRQ-A6000] https://sysrqmts.com/es/gpus/compare/nvidia-rtx-a6000-vs-nvidia-tesla-p40 (secondary)
// [NV-A40-DS] NVIDIA A40 datasheet figures as reproduced at
//   https://www.ecer.com/corp/details-uuuedqa-p1bsay9-multi-display-setups-supported-by-48gb-gddr6-ecc-memory-nvidia-a40-gpu-and-vga-outputs.html (secondary mirror)
// [HEISE-6000] heise, "Nvidia RTX 6000: Die schnellere GeForce RTX 4090 mit doppelt Speicher",
//   https://www.heise.de/news/Nvidia-RTX-6000-Die-schnellere-GeForce-RTX-4090-mit-doppelt-Speicher-7363725.html (secondary)
// [HWLUXX-6000] Hardwareluxx, "L40 und RTX 6000 Ada Generation ...",
//   https://www.hardwareluxx.de/index.php/news/hardware/grafikkarten/59532-l40-und-rtx-6000-ada-generation-sind-die-ersten-profi-karten-der-neuen-generation.html (secondary)
// [CPUTRONIC-6000] https://cputronic.com/de/gpu/nvidia-rtx-6000-ada-generation (secondary)
// [BENSYZ] "NVIDIA GPU components version selection",
//   https://www.bensyz.com/blogs/NVIDIA_GPU_components_version_selection (secondary)

use super::{Form, Quality, RatedGpu, der, link, nv, sec, unv};

/// The fields most GDDR PCIe rows share.
const CARD: RatedGpu = RatedGpu {
    model: "L40S",
    tokens: &["L40S"],
    form: Form::Pcie,
    memory_gb: 48,
    memory_bandwidth_gbs: sec(864.0),
    board_power_w: Some(sec(350.0)),
    pcie: Some(link(4, 16, Quality::Secondary)),
    compute_capability: (8, 9),
    sms: Some(142),
    fp32_tflops: sec(91.6),
    bf16_tflops: Some(sec(362.0)),
    fp16_tflops: Some(sec(362.0)),
    ecc_expected: false,
    sources: &["MULLET-L40", "ITC-L40S", "STAS-ACC"],
};

pub(super) const ROWS: [RatedGpu; 10] = [
    CARD,
    RatedGpu {
        model: "L40",
        tokens: &["L40"],
        board_power_w: Some(sec(300.0)),
        sms: None,
        fp32_tflops: sec(90.5),
        bf16_tflops: Some(sec(181.05)),
        fp16_tflops: Some(sec(181.05)),
        sources: &["MULLET-L40"],
        ..CARD
    },
    RatedGpu {
        model: "L4",
        tokens: &["L4"],
        memory_gb: 24,
        memory_bandwidth_gbs: sec(300.0),
        board_power_w: Some(sec(72.0)),
        sms: Some(60),
        fp32_tflops: sec(30.3),
        bf16_tflops: Some(sec(121.0)),
        fp16_tflops: Some(sec(121.0)),
        sources: &["SRC-L4", "GROK-L4", "FPS-L4"],
        ..CARD
    },
    RatedGpu {
        model: "A10G",
        tokens: &["A10G"],
        memory_gb: 24,
        memory_bandwidth_gbs: sec(600.0),
        board_power_w: None,
        compute_capability: (8, 6),
        sms: None,
        // ~80 SMs at ~1.71 GHz with half-rate FP32-accumulate tensor cores: an estimate.
        fp32_tflops: unv(35.0),
        bf16_tflops: Some(unv(70.0)),
        fp16_tflops: Some(unv(70.0)),
        sources: &["BASETEN", "NOTE-GPUTABLE"],
        ..CARD
    },
    RatedGpu {
        model: "A10",
        tokens: &["A10"],
        memory_gb: 24,
        memory_bandwidth_gbs: sec(600.0),
        board_power_w: Some(sec(150.0)),
        compute_capability: (8, 6),
        sms: Some(72),
        fp32_tflops: sec(31.2),
        bf16_tflops: Some(sec(125.0)),
        fp16_tflops: Some(sec(125.0)),
        sources: &["SYSRQ-A10", "GIST-KIMBO", "NOTE-A30"],
        ..CARD
    },
    RatedGpu {
        model: "T4",
        tokens: &["T4"],
        memory_gb: 16,
        memory_bandwidth_gbs: sec(320.0),
        board_power_w: Some(sec(70.0)),
        pcie: Some(link(3, 16, Quality::Secondary)),
        compute_capability: (7, 5),
        sms: Some(40),
        fp32_tflops: sec(8.1),
        bf16_tflops: None,
        // "Mixed precision": 40 SMs × 1.59 GHz × 1,024 FLOP per clock.
        fp16_tflops: Some(sec(65.0)),
        sources: &["SYSRQ-T4", "GEEKTOPIA-T4"],
        ..CARD
    },
    RatedGpu {
        model: "GeForce RTX 4090",
        tokens: &["RTX", "4090"],
        memory_gb: 24,
        memory_bandwidth_gbs: sec(1008.0),
        board_power_w: Some(sec(450.0)),
        pcie: Some(link(4, 16, Quality::Unverified)),
        sms: Some(128),
        fp32_tflops: nv(82.6),
        // 330.3 with FP16 accumulate.
        bf16_tflops: Some(nv(165.2)),
        fp16_tflops: Some(nv(165.2)),
        sources: &["GK-6000", "LLMC", "MODULA-PR1"],
        ..CARD
    },
    RatedGpu {
        model: "GeForce RTX 3090",
        tokens: &["RTX", "3090"],
        memory_gb: 24,
        memory_bandwidth_gbs: unv(936.0),
        board_power_w: Some(unv(350.0)),
        pcie: Some(link(4, 16, Quality::Unverified)),
        compute_capability: (8, 6),
        sms: Some(82),
        // The 3090 Ti's 40/80/160 (336 tensor cores at 1,860 MHz) scaled to 328 at 1,695 MHz.
        fp32_tflops: der(35.6),
        bf16_tflops: Some(der(71.0)),
        fp16_tflops: Some(der(71.0)),
        sources: &["LLMC", "MODULA-PR1"],
        ..CARD
    },
    RatedGpu {
        model: "RTX A6000",
        tokens: &["RTX", "A6000"],
        memory_bandwidth_gbs: sec(768.0),
        board_power_w: Some(sec(300.0)),
        compute_capability: (8, 6),
        sms: Some(84),
        fp32_tflops: sec(38.7),
        // The A40 (same die, 84 SMs, 1,740 MHz, full-rate FP32 accumulate) lists 149.7 dense:
        // × 1800/1740. llm.c files it under the consumer rate (77.4) instead.
        bf16_tflops: Some(der(154.8)),
        fp16_tflops: Some(der(154.8)),
        sources: &["STH-A6000", "SYSRQ-A6000", "LLMC", "NV-A40-DS"],
        ..CARD
    },
    RatedGpu {
        model: "RTX 6000 Ada",
        tokens: &["RTX", "6000", "ADA"],
        memory_bandwidth_gbs: sec(960.0),
        board_power_w: Some(sec(300.0)),
        sms: Some(142),
        fp32_tflops: sec(91.1),
        // NVIDIA's "over 1.45 PetaFLOPS" is FP8 with sparsity: halved for dense, halved again
        // for BF16.
        bf16_tflops: Some(der(364.0)),
        fp16_tflops: Some(der(364.0)),
        sources: &[
            "HEISE-6000",
            "HWLUXX-6000",
            "CPUTRONIC-6000",
            "LLMC",
            "BENSYZ",
        ],
        ..CARD
    },
];
