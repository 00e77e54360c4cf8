//! The samplers: sources run on their own thread, never on the async runtime; time is the
//! runtime's (paused here), and the readers stop when nobody listens.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use gpumeter::telemetry::{
    GpuReading, GpuRound, GpuSource, SamplerConfig, Scenario, SimConfig, Simulator, Telemetry,
    spawn_gpu_sampler, spawn_host_sampler,
};
use tokio::sync::mpsc;

/// Where a read happened: inside a runtime's context or not, and on which thread.
#[derive(Debug, Clone)]
struct Call {
    in_runtime: bool,
    thread: String,
}

#[derive(Default, Clone)]
struct Recorder {
    calls: Arc<Mutex<Vec<Call>>>,
    retries: Arc<Mutex<Vec<usize>>>,
}

/// A fake GPU source that records where and when it is called.
struct FakeGpu(Recorder);

impl GpuSource for FakeGpu {
    fn read(&mut self, at: Duration) -> GpuRound {
        let call = Call {
            in_runtime: tokio::runtime::Handle::try_current().is_ok(),
            thread: std::thread::current().name().unwrap_or("").to_owned(),
        };
        self.0.calls.lock().unwrap().push(call);
        let sim = Simulator::new(SimConfig::new(Scenario::bundled("idle").unwrap())).unwrap();
        Ok(sim.gpus_at(at))
    }

    fn retry(&mut self) {
        let done = self.0.calls.lock().unwrap().len();
        self.0.retries.lock().unwrap().push(done);
    }
}

/// How an app might wrap telemetry in its own event type.
#[derive(Debug)]
enum AppEvent {
    Telemetry(Box<Telemetry>),
}

impl From<Telemetry> for AppEvent {
    fn from(t: Telemetry) -> Self {
        AppEvent::Telemetry(Box::new(t))
    }
}

fn gpu_reading(event: AppEvent) -> (Duration, GpuReading) {
    let AppEvent::Telemetry(t) = event;
    match *t {
        Telemetry::Gpu(s) => (s.at, s.value.expect("the fake never fails")),
        Telemetry::Host(_) => panic!("a GPU sampler sent a host sample"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gpu_reads_never_run_on_a_runtime_thread() {
    let rec = Recorder::default();
    let (tx, mut rx) = mpsc::channel::<AppEvent>(4);
    let config = SamplerConfig {
        interval: Duration::from_millis(10),
    };
    let handle = spawn_gpu_sampler(FakeGpu(rec.clone()), config, tx).unwrap();
    for _ in 0..5 {
        gpu_reading(rx.recv().await.unwrap());
    }
    drop(rx);
    handle.shutdown().await;
    let calls = rec.calls.lock().unwrap().clone();
    assert!(calls.len() >= 5);
    for c in &calls {
        assert!(!c.in_runtime, "a read ran inside the runtime: {c:?}");
        assert_eq!(c.thread, "gpumeter-gpu");
    }
    // Control: the same fake called from a runtime thread does notice.
    let control = Recorder::default();
    let _ = FakeGpu(control.clone()).read(Duration::ZERO);
    let inside = tokio::task::spawn_blocking(move || {
        let _ = FakeGpu(Recorder::default()).read(Duration::ZERO);
        tokio::runtime::Handle::try_current().is_ok()
    });
    assert!(control.calls.lock().unwrap()[0].in_runtime);
    assert!(
        inside.await.unwrap(),
        "spawn_blocking threads are inside the runtime too"
    );
}

#[tokio::test(start_paused = true)]
async fn readings_come_at_the_interval_in_order() {
    let rec = Recorder::default();
    let (tx, mut rx) = mpsc::channel::<AppEvent>(4);
    let _handle = spawn_gpu_sampler(FakeGpu(rec.clone()), SamplerConfig::default(), tx).unwrap();
    let mut last = None;
    for _ in 0..10 {
        let (at, reading) = gpu_reading(rx.recv().await.unwrap());
        assert_eq!(at.subsec_nanos(), 0, "{at:?} is not on a 1 s tick");
        assert!(last.is_none_or(|l| at > l), "{at:?} after {last:?}");
        assert_eq!(reading.gpus.len(), 1);
        last = Some(at);
    }
    assert!(rec.calls.lock().unwrap().iter().all(|c| !c.in_runtime));
}

#[tokio::test(start_paused = true)]
async fn a_retry_request_reaches_the_source_before_its_next_read() {
    let rec = Recorder::default();
    let (tx, mut rx) = mpsc::channel::<AppEvent>(1);
    let handle = spawn_gpu_sampler(FakeGpu(rec.clone()), SamplerConfig::default(), tx).unwrap();
    gpu_reading(rx.recv().await.unwrap());
    assert!(rec.retries.lock().unwrap().is_empty());
    handle.request_retry();
    // At most one read can already be under way; the one after it follows the retry.
    for _ in 0..3 {
        gpu_reading(rx.recv().await.unwrap());
    }
    let retries = rec.retries.lock().unwrap().clone();
    assert_eq!(retries.len(), 1, "{retries:?}");
    assert!(retries[0] >= 1);
}

#[tokio::test(start_paused = true)]
async fn the_host_sampler_passes_its_clock_to_the_simulator() {
    let sim = Simulator::new(SimConfig::new(Scenario::bundled("egress-burst").unwrap())).unwrap();
    let (tx, mut rx) = mpsc::channel::<Telemetry>(2);
    let config = SamplerConfig {
        interval: Duration::from_secs(5),
    };
    let _handle = spawn_host_sampler(sim.clone(), config, tx).unwrap();
    for _ in 0..5 {
        let Some(Telemetry::Host(s)) = rx.recv().await else {
            panic!("expected a host sample");
        };
        assert_eq!(s.at.as_secs() % 5, 0);
        assert_eq!(
            s.value,
            sim.host_at(s.at),
            "the sample is the simulator's at {:?}",
            s.at
        );
    }
}

#[tokio::test(start_paused = true)]
async fn the_reader_thread_ends_when_the_receiver_is_dropped() {
    let rec = Recorder::default();
    let (tx, mut rx) = mpsc::channel::<AppEvent>(1);
    let handle = spawn_gpu_sampler(FakeGpu(rec.clone()), SamplerConfig::default(), tx).unwrap();
    gpu_reading(rx.recv().await.unwrap());
    assert_eq!(
        Arc::strong_count(&rec.calls),
        2,
        "the reader thread holds the source while it runs"
    );
    drop(rx);
    // Returns only once the thread has joined.
    handle.shutdown().await;
    assert_eq!(
        Arc::strong_count(&rec.calls),
        1,
        "the reader thread ended and dropped its source"
    );
    let reads = rec.calls.lock().unwrap().len();
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(
        rec.calls.lock().unwrap().len(),
        reads,
        "no read after shutdown"
    );
}

#[test]
fn starting_outside_a_runtime_is_an_error_not_a_panic() {
    let (tx, _rx) = mpsc::channel::<Telemetry>(1);
    let err =
        spawn_gpu_sampler(FakeGpu(Recorder::default()), SamplerConfig::default(), tx).unwrap_err();
    assert!(err.to_string().contains("tokio runtime"), "{err}");
}
