//! Everything `verify` decides on, read from the machine (NVML and the benchmark, on a thread of
//! their own) or, with `--demo`, from the simulator, at once.

use std::time::{Duration, Instant};

use super::bench;
use crate::commands::Failure;
use crate::telemetry::nvml_facts::{self, LoadSample};
use crate::telemetry::{
    GpuReading, GpuSource as _, NvmlConfig, NvmlSource, SimConfig, Simulator, scenario_file,
};
use gpumeter_core::verify::{
    BenchError, BenchErrorKind, GpuFacts, Measured, NetworkInput, TorchProbe,
};

/// How many rounds are read before the benchmark, and how far apart: a card another tenant
/// uses is busy in more than one of them.
const IDLE_ROUNDS: u32 = 3;
const IDLE_GAP: Duration = Duration::from_secs(1);
/// How often NVML is read while the benchmark runs.
const LOAD_GAP: Duration = Duration::from_millis(250);
/// How long past `--seconds` the benchmark may take to load the driver and set up each card
/// before it is given up on.
const BENCH_GRACE: Duration = Duration::from_secs(30);
/// The simulated instant the demo is read at, seconds since its start (as `status --demo`).
const DEMO_AT: Duration = Duration::from_secs(600);

/// What was read.
#[derive(Debug, Clone)]
pub struct Gathered {
    /// `nvml` or `demo`.
    pub source: &'static str,
    pub reading: GpuReading,
    pub idle: Vec<GpuReading>,
    pub facts: Vec<GpuFacts>,
    pub measured: Vec<Measured>,
    pub bench_error: Option<BenchError>,
    /// What the interpreter's torch said (`--python`).
    pub torch: Option<TorchProbe>,
    /// The download and the promise it is judged against (`--bandwidth`).
    pub network: Option<NetworkInput>,
}

/// What reading the machine came to.
#[derive(Debug)]
pub enum Gather {
    Read(Box<Gathered>),
    /// No GPU could be read: why, as NVML says it.
    NoGpu(String),
}

/// The simulator's view of `gpus` cards in `scenario` (a bundled name or a file).
pub fn demo(scenario: &str, gpus: Option<u32>, seconds: u32) -> Result<Gather, Failure> {
    let scenario =
        scenario_file::resolve(scenario).map_err(|e| Failure::bad_input(e.to_string()))?;
    let mut config = SimConfig::new(scenario);
    config.gpu_count = gpus.unwrap_or(config.gpu_count);
    let sim = Simulator::new(config).map_err(|e| Failure::bad_input(e.to_string()))?;
    let idle = (0..IDLE_ROUNDS)
        .rev()
        .map(|k| sim.gpus_at(DEMO_AT.saturating_sub(IDLE_GAP * k)))
        .collect();
    Ok(Gather::Read(Box::new(Gathered {
        source: "demo",
        reading: sim.gpus_at(DEMO_AT),
        idle,
        facts: sim.facts_at(DEMO_AT),
        measured: sim.bench_at(DEMO_AT, f64::from(seconds)),
        bench_error: None,
        torch: None,
        network: None,
    })))
}

/// The real GPUs: one NVML round, a few more before the benchmark, the facts, and the
/// benchmark with NVML sampled while it runs. All of it on a thread of its own.
pub fn live(budget: Duration) -> Gather {
    std::thread::spawn(move || live_here(budget))
        .join()
        .unwrap_or_else(|_| Gather::NoGpu(crate::t!("verify-nvml-thread-stopped").into_owned()))
}

fn live_here(budget: Duration) -> Gather {
    let started = Instant::now();
    // PCIe throughput costs 40 ms a card and no check reads it.
    let mut source = NvmlSource::new(NvmlConfig { read_pcie: false });
    let reading = match source.read(started.elapsed()) {
        Ok(r) if r.gpus.is_empty() => {
            return Gather::NoGpu(crate::t!("status-gpu-none-listed").into_owned());
        }
        Ok(r) => r,
        Err(why) => return Gather::NoGpu(crate::ui::words::gpu_unavailable_said(&why)),
    };
    let mut idle = vec![reading.clone()];
    for _ in 1..IDLE_ROUNDS {
        std::thread::sleep(IDLE_GAP);
        if let Ok(r) = source.read(started.elapsed()) {
            idle.push(r);
        }
    }
    let Some(nvml) = source.nvml() else {
        return Gather::NoGpu(crate::t!("verify-nvml-stopped-answering").into_owned());
    };
    let mut facts = nvml_facts::read_all(nvml);
    let devices: Vec<_> = facts
        .iter()
        .filter_map(|f| nvml.device_by_index(f.index).ok().map(|d| (f.index, d)))
        .collect();
    let mut samples: Vec<Vec<LoadSample>> = vec![Vec::new(); devices.len()];
    let result = bench_sampled(
        budget + BENCH_GRACE,
        move || bench::run_benchmark(budget),
        || {
            for ((_, dev), seen) in devices.iter().zip(&mut samples) {
                seen.push(nvml_facts::read_load(dev));
            }
        },
    );
    let (mut measured, bench_error) = match result {
        Ok(m) => (m, None),
        Err(e) => (Vec::new(), Some(e)),
    };
    bench::match_by_bus(&mut measured, &reading.gpus);
    for ((index, _), seen) in devices.iter().zip(&samples) {
        if let Some(f) = facts.iter_mut().find(|f| f.index == *index) {
            nvml_facts::fold_load(f, seen);
        }
        if let Some(m) = measured.iter_mut().find(|m| m.index == *index) {
            m.sm_clock_mhz = m.sm_clock_mhz.or_else(|| nvml_facts::mean_sm_clock(seen));
        }
    }
    Gather::Read(Box::new(Gathered {
        source: "nvml",
        reading,
        idle,
        facts,
        measured,
        bench_error,
        torch: None,
        network: None,
    }))
}

type BenchResult = Result<Vec<Measured>, BenchError>;

/// Runs `bench` on a thread of its own, calling `sample` every [`LOAD_GAP`] until it answers or
/// `limit` has passed. Not a scoped thread: a driver call that never returns must not hold the
/// verdict up; it ends with the process, once the verdict is printed.
fn bench_sampled(
    limit: Duration,
    bench: impl FnOnce() -> BenchResult + Send + 'static,
    mut sample: impl FnMut(),
) -> BenchResult {
    let job = std::thread::spawn(bench);
    let give_up = Instant::now() + limit;
    while !job.is_finished() && Instant::now() < give_up {
        sample();
        std::thread::sleep(LOAD_GAP);
    }
    if !job.is_finished() {
        return Err(BenchError {
            kind: BenchErrorKind::Timeout,
            detail: crate::t!(
                "verify-bench-no-answer",
                seconds = limit.as_secs().to_string()
            ),
        });
    }
    job.join().unwrap_or_else(|_| {
        Err(BenchError {
            kind: BenchErrorKind::Cuda,
            detail: crate::t!("verify-bench-stopped").into_owned(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_benchmark_that_never_answers_is_given_up_on() {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let mut sampled = 0;
        // It waits on a channel nobody sends on until the test ends.
        let r = bench_sampled(
            Duration::ZERO,
            move || {
                let _ = rx.recv();
                Ok(Vec::new())
            },
            || sampled += 1,
        );
        drop(tx);
        assert_eq!(r.unwrap_err().kind, BenchErrorKind::Timeout);
        assert_eq!(sampled, 0, "no time to sample in");
    }

    #[test]
    fn a_benchmark_that_answers_gives_its_answer_and_one_that_panics_an_error() {
        let r = bench_sampled(Duration::from_secs(600), || Ok(Vec::new()), || {});
        assert_eq!(r, Ok(Vec::new()));
        let r = bench_sampled(Duration::from_secs(600), || panic!("a driver bug"), || {});
        assert_eq!(r.unwrap_err().kind, BenchErrorKind::Cuda);
    }

    #[test]
    fn the_demo_refuses_a_scenario_it_does_not_know_and_too_many_gpus() {
        let e = demo("no-such-scenario", None, 5).unwrap_err();
        assert_eq!(e.code, crate::commands::EXIT_BAD_INPUT);
        let e = demo("training", Some(99), 5).unwrap_err();
        assert!(e.message.contains("99"), "{}", e.message);
    }
}
