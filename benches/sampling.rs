//! One sampling round: the real host (five /proc files and statvfs per disk) plus eight
//! simulated GPUs, and the history work the cockpit does with each round.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use gpumeter::telemetry::{
    CpuBoundRule, HistoryConfig, HostConfig, HostReader, HostSource, Scenario, SimConfig,
    Simulator, TelemetryHistory, cpu_bound,
};

fn simulator() -> Simulator {
    let mut config = SimConfig::new(Scenario::bundled("training").expect("bundled scenario"));
    config.gpu_count = 8;
    Simulator::new(config).expect("8 GPUs are allowed")
}

fn sampling(c: &mut Criterion) {
    let sim = simulator();
    let mut host = HostReader::new(HostConfig::default());
    let mut t = 0;
    c.bench_function("round: host + 8 simulated GPUs", |b| {
        b.iter(|| {
            t += 1;
            let at = Duration::from_secs(t);
            black_box((sim.gpus_at(at), host.read(at)))
        });
    });

    let mut host = HostReader::new(HostConfig::default());
    c.bench_function("host read", |b| {
        b.iter(|| black_box(host.read(Duration::from_secs(1))));
    });
    c.bench_function("8 simulated GPUs", |b| {
        b.iter(|| black_box(sim.gpus_at(Duration::from_secs(1234))));
    });

    // A full 10-minute history, then one more round recorded and the 5-minute rule evaluated.
    let mut history = TelemetryHistory::new(HistoryConfig::default());
    let rounds: Vec<_> = (0..601)
        .map(|s| {
            let at = Duration::from_secs(s);
            (at, Ok(sim.gpus_at(at)), sim.host_at(at))
        })
        .collect();
    for (at, gpus, host) in &rounds {
        history.record_gpus(*at, gpus);
        history.record_host(*at, host);
    }
    let rule = CpuBoundRule::default();
    let mut i = 0;
    c.bench_function("history: record a round + 5-min window rule", |b| {
        b.iter(|| {
            let (at, gpus, host) = &rounds[i % rounds.len()];
            let now = *at + Duration::from_secs(601);
            history.record_gpus(now, gpus);
            history.record_host(now, host);
            i += 1;
            black_box(cpu_bound(&history, now, &rule))
        });
    });
}

criterion_group!(benches, sampling);
criterion_main!(benches);
