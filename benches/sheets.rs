//! Loading a price sheet with many SKUs: a marketplace's full listing can hold tens of
//! thousands, and loading must grow with the sheet's size, not with its square.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use gpumeter::pricing::load_str;

/// A complete sheet of `skus` distinct SKUs, as a marketplace export would write it.
fn sheet_text(skus: usize) -> String {
    let mut text = String::from(
        "id = \"market\"\nprovider = \"market\"\ncurrency = \"USD\"\nas_of = 2026-01-21\n\
         source = \"benchmark\"\n\n[billing]\nstep_seconds = 1\nminimum_seconds = 60\n\
         stop_policy = \"stop-charging\"\n\n[network]\negress_per_unit = \"0.09\"\n",
    );
    for i in 0..skus {
        let _ = write!(
            text,
            "\n[[sku]]\nname = \"gpu-{i}.xlarge\"\ngpu_model = \"A100\"\ngpu_count = {}\n\
             gpu_memory_gib = 80\non_demand_per_hour = \"{}.{:03}\"\n",
            1 + i % 8,
            1 + i % 40,
            i % 1000
        );
    }
    text
}

fn load(c: &mut Criterion) {
    let mut group = c.benchmark_group("sheet_load");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for skus in [1_000, 8_000, 32_000] {
        let text = sheet_text(skus);
        assert_eq!(load_str("market.toml", &text).unwrap().skus.len(), skus);
        group.bench_with_input(BenchmarkId::from_parameter(skus), &text, |b, text| {
            b.iter(|| load_str("market.toml", black_box(text)).unwrap());
        });
    }
    group.finish();
}

criterion_group!(benches, load);
criterion_main!(benches);
