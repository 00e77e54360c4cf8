//! The rated table: every NVML name a rented machine reports finds its row, and nothing else does.

use gpumeter_core::verify::rated::{Form, Quality, table};
use gpumeter_core::verify::rated_for;

/// `(NVML name, memory NVML reports in MiB, the row's model)`.
const KNOWN: [(&str, Option<u64>, &str); 27] = [
    ("NVIDIA A100-SXM4-80GB", Some(81_920), "A100 80GB SXM4"),
    ("NVIDIA A100-SXM4-40GB", Some(40_960), "A100 40GB SXM4"),
    ("NVIDIA A100-PCIE-40GB", Some(40_960), "A100 40GB PCIe"),
    ("NVIDIA A100 80GB PCIe", Some(81_920), "A100 80GB PCIe"),
    ("NVIDIA H100 80GB HBM3", Some(81_559), "H100 SXM5"),
    ("NVIDIA H100 PCIe", Some(81_559), "H100 PCIe"),
    ("NVIDIA H100 NVL", Some(95_830), "H100 NVL"),
    ("NVIDIA H200", Some(143_771), "H200 SXM 141GB"),
    ("NVIDIA H200 141GB HBM3e", None, "H200 SXM 141GB"),
    ("NVIDIA H200 NVL", Some(143_771), "H200 NVL"),
    ("NVIDIA H20", Some(97_871), "H20"),
    ("NVIDIA L40S", Some(46_068), "L40S"),
    ("NVIDIA L40", Some(46_068), "L40"),
    ("NVIDIA L4", Some(23_034), "L4"),
    ("NVIDIA A10G", Some(23_028), "A10G"),
    ("NVIDIA A10", Some(23_028), "A10"),
    ("NVIDIA A30", Some(24_576), "A30"),
    ("Tesla T4", Some(15_360), "T4"),
    ("Tesla V100-SXM2-32GB", Some(32_768), "V100 SXM2 32GB"),
    ("Tesla V100-SXM2-16GB", Some(16_384), "V100 SXM2 16GB"),
    ("Tesla V100-PCIE-16GB", Some(3_000), "V100 PCIe 16GB"),
    ("Tesla V100-PCIE-32GB", None, "V100 PCIe 32GB"),
    ("NVIDIA GeForce RTX 4090", Some(24_564), "GeForce RTX 4090"),
    ("NVIDIA GeForce RTX 3090", Some(24_576), "GeForce RTX 3090"),
    ("NVIDIA RTX A6000", Some(49_140), "RTX A6000"),
    (
        "NVIDIA RTX 6000 Ada Generation",
        Some(49_140),
        "RTX 6000 Ada",
    ),
    ("NVIDIA B200", Some(183_359), "B200 (HGX)"),
];

#[test]
fn real_nvml_names_find_their_row() {
    for (name, mib, model) in KNOWN {
        let row = rated_for(name, mib).unwrap_or_else(|| panic!("{name} has no row"));
        assert_eq!(row.model, model, "{name}");
    }
}

#[test]
fn near_names_do_not_borrow_a_neighbour_s_figures() {
    let unknown = [
        "NVIDIA GH200 480GB",
        "Tesla V100S-PCIE-32GB",
        "NVIDIA GeForce RTX 4090 D",
        "NVIDIA GeForce RTX 3090 Ti",
        "Quadro RTX 6000",
        "NVIDIA A800-SXM4-80GB",
        "NVIDIA A40",
        "Tesla P100-PCIE-16GB",
        "",
        "NVIDIA",
    ];
    for name in unknown {
        assert!(
            rated_for(name, Some(81_920)).is_none(),
            "{name} found a row"
        );
    }
}

#[test]
fn the_a10_is_neither_an_a100_nor_an_a10g() {
    let a10 = rated_for("NVIDIA A10", None).unwrap();
    let a10g = rated_for("NVIDIA A10G", None).unwrap();
    let ampere = rated_for("NVIDIA A100-SXM4-80GB", None).unwrap();
    assert!(a10.model != a10g.model && a10.model != ampere.model);
    assert!(a10.bf16_tflops.unwrap().value < ampere.bf16_tflops.unwrap().value);
}

#[test]
fn the_memory_nvml_reports_picks_the_size_the_name_leaves_out() {
    let sxm2 = |mib| rated_for("Tesla V100-SXM2", Some(mib)).map(|r| r.memory_gb);
    assert_eq!(sxm2(16_160), Some(16));
    assert_eq!(sxm2(32_510), Some(32));
    // Neither the name nor a reading says which: no guess.
    assert_eq!(rated_for("Tesla V100-SXM2", None), None);
}

#[test]
fn a_form_word_decides_and_its_absence_means_sxm() {
    assert_eq!(
        rated_for("NVIDIA H100 80GB HBM3", None).unwrap().form,
        Form::Sxm
    );
    assert_eq!(
        rated_for("NVIDIA H100 PCIe", None).unwrap().form,
        Form::Pcie
    );
    assert_eq!(rated_for("NVIDIA H100 NVL", None).unwrap().form, Form::Nvl);
    // 94 GB exists only as the NVL part, so the size alone decides.
    assert_eq!(rated_for("NVIDIA H100 94GB", None).unwrap().form, Form::Nvl);
}

#[test]
fn cards_without_bf16_say_so_and_every_row_is_whole() {
    for name in ["Tesla T4", "Tesla V100-SXM2-32GB", "Tesla V100-PCIE-16GB"] {
        let row = rated_for(name, None).unwrap();
        assert!(row.bf16_tflops.is_none(), "{name}");
        assert!(row.fp16_tflops.is_some(), "{name}");
        assert!(row.compute_capability < (8, 0), "{name}");
    }
    for row in table() {
        assert!(
            row.memory_gb > 0 && row.memory_bandwidth_gbs.value > 0.0,
            "{}",
            row.model
        );
        assert!(row.fp32_tflops.value > 0.0, "{}", row.model);
        assert!(!row.sources.is_empty(), "{}", row.model);
        // Tensor throughput is always above the plain FP32 figure where there is one.
        for t in [row.bf16_tflops, row.fp16_tflops].into_iter().flatten() {
            assert!(t.value > row.fp32_tflops.value, "{}", row.model);
        }
    }
}

#[test]
fn qualifiers_survive_into_the_table() {
    let a10g = rated_for("NVIDIA A10G", None).unwrap();
    assert_eq!(a10g.bf16_tflops.unwrap().quality, Quality::Unverified);
    assert_eq!(a10g.board_power_w, None);
    let a6000 = rated_for("NVIDIA RTX A6000", None).unwrap();
    assert_eq!(a6000.bf16_tflops.unwrap().quality, Quality::Derived);
    let ampere = rated_for("NVIDIA A100-SXM4-80GB", None).unwrap();
    assert_eq!(ampere.memory_bandwidth_gbs.quality, Quality::Sourced);
    assert_eq!(
        Quality::Unverified.caveat().as_deref(),
        Some("rated figure unverified")
    );
    assert_eq!(Quality::Sourced.caveat(), None);
}

#[test]
fn every_source_tag_a_row_names_is_cited() {
    let cited = [
        include_str!("../../src/verify/rated/datacenter.rs"),
        include_str!("../../src/verify/rated/gddr.rs"),
    ]
    .concat();
    for row in table() {
        for tag in row.sources {
            assert!(
                cited.contains(&format!("// [{tag}]")),
                "{} cites [{tag}] with no source line",
                row.model
            );
        }
    }
}

#[test]
fn a_verdicts_kept_word_is_its_json_word_and_reads_back() {
    use gpumeter_core::verify::Verdict;
    for v in [Verdict::Pass, Verdict::Warn, Verdict::Fail] {
        assert_eq!(
            serde_json::to_value(v).unwrap(),
            serde_json::Value::from(v.word())
        );
        assert_eq!(Verdict::from_word(v.word()), Some(v));
    }
    assert_eq!(Verdict::from_word("PASS"), None);
}
