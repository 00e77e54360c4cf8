//! The simulator's verify scenarios: each card state shows in the ordinary readings
//! (`gpus_at`), in NVML's verify facts (`facts_at`) and in the benchmark (`bench_at`), as
//! relations computed from the scenario, and the same seed always gives the same figures.

use std::time::Duration;

use gpumeter_core::telemetry::metric::u64_to_f64;
use gpumeter_core::telemetry::{GpuSample, Metric, Scenario, SimConfig, Simulator};
use gpumeter_core::verify::{Figure, GpuFacts, Measured};

const A100: &str = "NVIDIA A100-SXM4-80GB";
const AT: Duration = Duration::from_secs(90);
const BENCH_S: f64 = 20.0;

fn sim_of(scenario: Scenario, model: &str, gpus: u32, seed: u64) -> Simulator {
    let mut c = SimConfig::new(scenario);
    c.gpu_model = model.into();
    c.gpu_count = gpus;
    c.seed = seed;
    Simulator::new(c).unwrap()
}

fn sim(name: &str) -> Simulator {
    sim_of(Scenario::bundled(name).unwrap(), A100, 2, 42)
}

fn gpus(s: &Simulator) -> Vec<GpuSample> {
    s.gpus_at(AT).gpus
}

fn value<T: Copy>(m: &Metric<T>) -> T {
    *m.value().expect("a value")
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

fn fig(f: &Figure) -> f64 {
    f.value().expect("a measured figure")
}

/// Every figure of `m` as a share of the same figure of `base`.
fn ratios(m: &Measured, base: &Measured) -> [f64; 5] {
    [
        fig(&m.mem_bandwidth_gbs) / fig(&base.mem_bandwidth_gbs),
        fig(&m.fp32_tflops) / fig(&base.fp32_tflops),
        fig(&m.bf16_tflops) / fig(&base.bf16_tflops),
        fig(&m.fp16_tflops) / fig(&base.fp16_tflops),
        fig(&m.gemm_bf16_tflops) / fig(&base.gemm_bf16_tflops),
    ]
}

/// Memory of the processes that are ours: NVML lists another tenant's without a name.
fn own_mem(g: &GpuSample) -> u64 {
    value(&g.processes.as_ref().map(|ps| {
        ps.iter()
            .filter(|p| p.name.is_some())
            .filter_map(|p| p.used_mem_mib.value().copied())
            .sum::<u64>()
    }))
}

fn facts(s: &Simulator) -> Vec<GpuFacts> {
    s.facts_at(AT)
}

fn bench(s: &Simulator) -> Vec<Measured> {
    s.bench_at(AT, BENCH_S)
}

#[test]
fn the_verify_scenarios_are_bundled_after_the_workloads() {
    let names = Scenario::names();
    let new = [
        "shared",
        "mig-slice",
        "power-capped",
        "throttled",
        "pcie-degraded",
    ];
    assert_eq!(names[names.len() - new.len()..], new);
    for name in new {
        assert_eq!(Scenario::bundled(name).unwrap().name, name);
    }
}

#[test]
fn training_is_a_healthy_dedicated_card_near_85_percent_of_rated() {
    let s = sim("training");
    for f in facts(&s) {
        assert!(same(
            value(&f.power_limit_w),
            value(&f.power_default_limit_w)
        ));
        assert_eq!(value(&f.clock_event_reasons), 0);
        assert_eq!(value(&f.pcie_gen), value(&f.pcie_gen_max));
        assert_eq!(value(&f.pcie_width), value(&f.pcie_width_max));
        assert_eq!(value(&f.ecc_uncorrected_volatile), 0);
        assert!(value(&f.ecc_enabled));
        assert_eq!(value(&f.remapped_rows).uncorrected, 0);
    }
    // NVIDIA's A100 80GB SXM: 312 TFLOPS dense BF16, 2,039 GB/s.
    for m in bench(&s) {
        let bf16 = fig(&m.bf16_tflops) / 312.0;
        let bw = fig(&m.mem_bandwidth_gbs) / 2039.0;
        assert!((0.8..0.9).contains(&bf16), "BF16 at {bf16} of rated");
        assert!((0.75..0.85).contains(&bw), "bandwidth at {bw} of rated");
    }
    for g in gpus(&s) {
        assert!(!value(&g.mig.as_ref().map(|m| m.enabled)));
    }
}

#[test]
fn a_shared_card_holds_memory_and_load_that_no_process_of_ours_explains() {
    let s = sim("shared");
    let card = &s.config().scenario.card;
    let foreign_mib = card.foreign_mem_gib * 1024.0;
    for g in gpus(&s) {
        let used = value(&g.mem_used_mib);
        assert_eq!(own_mem(&g), 0, "our own process list is empty");
        assert!(u64_to_f64(used.saturating_sub(own_mem(&g))) >= foreign_mib);
        assert!(f64::from(value(&g.util_pct)) >= card.foreign_util_pct);
    }
    let base = bench(&sim("training"));
    for (m, b) in bench(&s).iter().zip(&base) {
        let r = ratios(m, b);
        assert!(r.iter().all(|r| (0.4..0.6).contains(r)), "{r:?}");
    }
}

#[test]
fn a_shared_cards_tenant_may_show_as_nameless_host_pids() {
    let mut scenario = Scenario::bundled("shared").unwrap();
    scenario.card.foreign_processes = 2;
    let foreign_mib = scenario.card.foreign_mem_gib * 1024.0;
    let s = sim_of(scenario, A100, 2, 42);
    for g in gpus(&s) {
        let ps = g.processes.value().unwrap();
        assert_eq!(ps.len(), 2);
        assert!(ps.iter().all(|p| p.name.is_none() && p.cmdline.is_none()));
        let listed: u64 = ps.iter().map(|p| value(&p.used_mem_mib)).sum();
        assert!((u64_to_f64(listed) - foreign_mib).abs() <= 2.0, "{listed}");
        assert!(value(&g.mem_used_mib) - own_mem(&g) >= listed);
    }
}

#[test]
fn a_mig_slice_reports_the_slice_as_the_card_and_measures_a_fraction() {
    let s = sim("mig-slice");
    let whole = value(&gpus(&sim("training"))[0].mem_total_mib);
    for g in gpus(&s) {
        let mig = g.mig.value().unwrap();
        let total = value(&g.mem_total_mib);
        assert!(mig.enabled);
        assert_eq!(mig.instance_mem_total_mib, vec![total]);
        assert_eq!(total, s.config().scenario.card.mig_slice_mib);
        assert!(total < whole);
    }
    for f in facts(&s) {
        assert!(
            f.remapped_rows.value().is_none(),
            "NVML has no remaps under MIG"
        );
    }
    let base = bench(&sim("training"));
    for (m, b) in bench(&s).iter().zip(&base) {
        let r = ratios(m, b);
        assert!(
            r.iter().all(|r| (1.0 / 7.0..1.0 / 3.0).contains(r)),
            "{r:?}"
        );
    }
}

#[test]
fn a_power_capped_card_shows_the_cap_everywhere_and_measures_less() {
    let s = sim("power-capped");
    let readings = gpus(&s);
    for (f, g) in facts(&s).iter().zip(&readings) {
        let limit = value(&f.power_limit_w);
        assert!(limit < value(&f.power_default_limit_w));
        assert!(same(value(&g.power_limit_w), limit));
        assert!(value(&g.power_w) <= limit);
        assert_ne!(value(&f.clock_event_reasons) & 0x4, 0, "SW power cap");
    }
    let base = bench(&sim("training"));
    for (m, b) in bench(&s).iter().zip(&base) {
        assert!(ratios(m, b).iter().all(|r| *r < 0.95));
        assert!(m.sm_clock_mhz < b.sm_clock_mhz);
    }
}

#[test]
fn a_throttled_card_is_hot_slowed_by_hardware_and_measures_less() {
    let s = sim("throttled");
    let mut cool = Scenario::bundled("throttled").unwrap();
    cool.card.temp_extra_c = 0.0;
    let cool = sim_of(cool, A100, 2, 42);
    let extra = s.config().scenario.card.temp_extra_c;
    for (hot, cool) in gpus(&s).iter().zip(gpus(&cool)) {
        let rise = f64::from(value(&hot.temp_c)) - f64::from(value(&cool.temp_c));
        assert!((rise - extra).abs() <= 1.0, "{rise}");
    }
    for f in facts(&s) {
        let bits = value(&f.clock_event_reasons);
        assert_ne!(bits & 0x8, 0, "HW slowdown");
        assert_ne!(bits & 0x40, 0, "HW thermal slowdown");
    }
    let base = bench(&sim("training"));
    for ((m, b), f) in bench(&s).iter().zip(&base).zip(facts(&s)) {
        assert!(ratios(m, b).iter().all(|r| *r < 1.0), "below training's");
        assert!(m.sm_clock_mhz.unwrap() < value(&f.sm_clock_max_mhz));
    }
}

#[test]
fn a_degraded_pcie_link_is_below_the_cards_maximum_and_costs_no_throughput() {
    let s = sim("pcie-degraded");
    let healthy = facts(&sim("training"));
    for (f, h) in facts(&s).iter().zip(&healthy) {
        assert!(value(&f.pcie_gen_max) < value(&h.pcie_gen_max));
        assert!(value(&f.pcie_width_max) < value(&h.pcie_width_max));
        assert!(value(&f.pcie_gen) <= value(&f.pcie_gen_max));
        assert!(value(&f.pcie_width) <= value(&f.pcie_width_max));
    }
    let base = bench(&sim("training"));
    for (m, b) in bench(&s).iter().zip(&base) {
        let r = ratios(m, b);
        assert!(r.iter().all(|r| (0.97..1.03).contains(r)), "{r:?}");
    }
}

#[test]
fn figures_and_facts_match_the_readings_gpu_by_gpu() {
    let s = sim_of(Scenario::bundled("training").unwrap(), A100, 4, 7);
    let readings = gpus(&s);
    let measured = s.bench_at(AT, 12.5);
    assert_eq!(measured.len(), readings.len());
    assert_eq!(facts(&s).len(), readings.len());
    for ((m, f), g) in measured.iter().zip(facts(&s)).zip(&readings) {
        assert_eq!((m.index, f.index), (g.index, g.index));
        let nvml = g.pci_bus_id.value().unwrap();
        let cuda = m.pci_bus_id.as_deref().unwrap();
        // CUDA writes a four-digit domain, NVML an eight-digit one.
        assert_eq!(
            nvml.split_once(':').unwrap().1,
            cuda.split_once(':').unwrap().1
        );
        assert!(same(m.seconds, 12.5));
        assert!(m.sm_clock_mhz.is_some());
    }
}

#[test]
fn the_same_seed_gives_the_same_figures_and_another_seed_others() {
    let make = |seed| sim_of(Scenario::bundled("shared").unwrap(), A100, 3, seed);
    assert_eq!(make(9).bench_at(AT, BENCH_S), make(9).bench_at(AT, BENCH_S));
    assert_eq!(make(9).facts_at(AT), make(9).facts_at(AT));
    assert_ne!(
        make(9).bench_at(AT, BENCH_S),
        make(10).bench_at(AT, BENCH_S)
    );
    let gpus = make(9).bench_at(AT, BENCH_S);
    assert_ne!(
        gpus[0].bf16_tflops, gpus[1].bf16_tflops,
        "each GPU its own noise"
    );
}

#[test]
fn a_card_without_bf16_says_why_and_still_measures_fp16() {
    let s = sim_of(Scenario::bundled("training").unwrap(), "Tesla T4", 1, 42);
    let m = &bench(&s)[0];
    for f in [&m.bf16_tflops, &m.gemm_bf16_tflops] {
        match f {
            Figure::NotRun { reason } => assert!(reason.contains("sm_75"), "{reason}"),
            other => panic!("expected not run, got {other:?}"),
        }
    }
    assert!(fig(&m.fp16_tflops) > fig(&m.fp32_tflops));
    let f = &facts(&s)[0];
    assert_eq!(value(&f.retired_pages), 0, "pages retire before Ampere");
    assert!(f.remapped_rows.value().is_none());
}

#[test]
fn a_card_without_ecc_reports_no_ecc_rather_than_zero_errors() {
    let s = sim_of(
        Scenario::bundled("training").unwrap(),
        "NVIDIA GeForce RTX 4090",
        1,
        42,
    );
    let f = &facts(&s)[0];
    assert!(f.ecc_enabled.value().is_none());
    assert!(f.ecc_uncorrected_volatile.value().is_none());
    assert!(f.remapped_rows.value().is_none());
}

#[test]
fn each_figure_is_a_healthy_cards_times_its_own_reach() {
    let mut scenario = Scenario::bundled("training").unwrap();
    let reach = [0.3, 0.5, 0.7, 0.9, 1.2];
    let b = &mut scenario.bench;
    [b.mem_bandwidth, b.fp32, b.bf16, b.fp16, b.gemm] = reach;
    let s = sim_of(scenario, A100, 2, 42);
    for (m, h) in bench(&s).iter().zip(&bench(&sim("training"))) {
        for (r, want) in ratios(m, h).iter().zip(reach) {
            // Each side carries ±1 % noise.
            assert!((r / want - 1.0).abs() < 0.021, "{r} for {want}");
        }
    }
}

#[test]
fn memory_errors_and_the_link_show_as_the_model_reports_them() {
    let mut scenario = Scenario::bundled("training").unwrap();
    let c = &mut scenario.card;
    (
        c.ecc_corrected,
        c.ecc_uncorrected,
        c.bad_rows,
        c.bad_rows_pending,
    ) = (12, 3, 2, true);
    // A Gen5 slot cannot lift a Gen4 card, nor a Gen4 slot a Gen3 one.
    (c.pcie_gen_max, c.pcie_width_max, c.pcie_gen) = (5, 16, 0);
    let a100 = &sim_of(scenario.clone(), A100, 1, 42).facts_at(AT)[0];
    assert_eq!(value(&a100.ecc_corrected_volatile), 12);
    assert_eq!(value(&a100.ecc_uncorrected_volatile), 3);
    let rows = value(&a100.remapped_rows);
    assert_eq!((rows.uncorrected, rows.pending), (2, true));
    let base = &facts(&sim("training"))[0];
    assert_eq!(value(&a100.pcie_gen_max), value(&base.pcie_gen_max));
    assert_eq!(value(&a100.pcie_gen), value(&a100.pcie_gen_max));
    let t4 = &sim_of(scenario, "Tesla T4", 1, 42).facts_at(AT)[0];
    assert_eq!(value(&t4.retired_pages), 2);
    assert!(value(&t4.retired_pages_pending));
    assert!(value(&t4.pcie_gen_max) < value(&a100.pcie_gen_max));
}
