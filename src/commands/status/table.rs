//! The short human table `gpumeter status` prints without `--json`. Unavailable readings show as
//! `n/a`, never as zero.

use gpumeter_core::cell::Cell;
use std::fmt::{Display, Write as _};

use super::StatusReport;
use crate::t;
use crate::telemetry::{GpuSample, HostSample, Metric};

pub(super) fn render(report: &StatusReport, tz: &jiff::tz::TimeZone) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "gpumeter status  {}  ({})",
        gpumeter_core::zone::full_label(report.time, tz),
        report.source
    );
    match &report.gpu_error {
        Some(_) if !report.gpus_expected => {
            let _ = writeln!(out, "GPU   {}", t!("status-gpu-none-by-choice"));
        }
        Some(why) => {
            let _ = writeln!(out, "GPU   {}", t!("status-gpu-none", why = why.as_str()));
        }
        None => {}
    }
    if !report.gpus.is_empty() {
        let _ = writeln!(
            out,
            "{:<3} {:<24} {:>5} {:>5} {:>17} {:>11} {:>5} {:>5}",
            Cell("GPU"),
            Cell(t!("status-col-name")),
            Cell(t!("status-col-util")),
            Cell(t!("status-col-load")),
            Cell(t!("status-col-mem")),
            Cell(t!("status-col-power")),
            Cell(t!("status-col-temp")),
            Cell(t!("status-col-procs"))
        );
        for gpu in &report.gpus {
            out.push_str(&gpu_row(gpu));
        }
    }
    if let Some(driver) = &report.driver {
        let line = t!(
            "status-driver",
            driver = na(&driver.driver_version),
            cuda = na(&driver.cuda_version)
        );
        let _ = writeln!(out, "{line}");
    }
    out.push_str(&host_lines(&report.host));
    if !report.findings.is_empty() {
        let _ = writeln!(out, "{}", t!("status-findings"));
        for f in &report.findings {
            let _ = writeln!(out, "  {:<8}  {}", Cell(f.severity.shown()), f.shown());
        }
    }
    if let Some(line) = report
        .cloud
        .price_source
        .as_ref()
        .and_then(crate::spend::PriceOrigin::estimate_line)
    {
        let _ = writeln!(out, "{line}");
    }
    out.push_str(&super::cloud_table::render(&report.cloud, report.time, tz));
    match (&report.cloud.balance, &report.cloud.balance_error) {
        (Some(b), _) => {
            let _ = writeln!(out, "{:<10}{}", Cell(t!("status-balance")), b.line);
        }
        (None, Some(why)) => {
            let why = t!("status-balance-unknown", why = why.as_str());
            let _ = writeln!(out, "{:<10}{why}", Cell(t!("status-balance")));
        }
        (None, None) => {}
    }
    if let Some(sub) = &report.cloud.subscription {
        let _ = writeln!(out, "{:<10}{}", Cell(t!("sub-status-label")), sub.line);
    }
    out
}

fn gpu_row(gpu: &GpuSample) -> String {
    let name = gpu
        .name
        .value()
        .map_or("n/a", |n| n.strip_prefix("NVIDIA ").unwrap_or(n));
    let mem = format!("{} / {}", na(&gpu.mem_used_mib), na(&gpu.mem_total_mib));
    let power = format!(
        "{} / {}",
        na(&gpu.power_w.map(|w| format!("{w:.0}"))),
        na(&gpu.power_limit_w.map(|w| format!("{w:.0}")))
    );
    let procs = gpu.processes.as_ref().map(Vec::len);
    format!(
        "{:<3} {:<24} {:>5} {:>5} {:>17} {:>11} {:>5} {:>5}\n",
        gpu.index,
        Cell(gpumeter_core::cell::truncate(name, 24)),
        Cell(na(&gpu.util_pct.map(|u| format!("{u}%")))),
        Cell(na(&gpu.power_weighted_load_pct.map(|l| format!("{l:.0}%")))),
        Cell(mem),
        Cell(power),
        Cell(na(&gpu.temp_c.map(|t| format!("{t}C")))),
        Cell(na(&procs)),
    )
}

fn host_lines(host: &HostSample) -> String {
    let mut out = String::new();
    let cores = host.cpu_per_core_pct.as_ref().map(Vec::len);
    let load = host.load_avg.map(|l| format!("{:.2}", l.one));
    let mem = host.mem.map(|m| {
        t!(
            "status-mem-used",
            used = format!(
                "{:.1}",
                gib_of_mib(m.total_mib.saturating_sub(m.available_mib))
            ),
            total = format!("{:.1}", gib_of_mib(m.total_mib))
        )
    });
    let line = t!(
        "status-host",
        cpu = na(&host.cpu_pct.map(|c| format!("{c:.0}%"))),
        cores = na(&cores),
        load = na(&load),
        memory = na(&mem)
    );
    let _ = writeln!(out, "{:<6}{line}", Cell(t!("status-host-label")));
    for n in &host.net {
        let line = t!(
            "status-net",
            sent = bytes(n.tx_bytes),
            sent_rate = na(&n.tx_bytes_per_s.map(bytes_f)),
            received = bytes(n.rx_bytes),
            received_rate = na(&n.rx_bytes_per_s.map(bytes_f))
        );
        let _ = writeln!(
            out,
            "{:<6}{:<10} {line}",
            Cell(t!("status-net-label")),
            Cell(&n.name)
        );
    }
    for d in &host.disks {
        let line = t!(
            "status-disk",
            used = bytes(d.used_bytes),
            total = bytes(d.total_bytes),
            free = bytes(d.avail_bytes)
        );
        let _ = writeln!(
            out,
            "{:<6}{:<10} {line}",
            Cell(t!("status-disk-label")),
            Cell(&d.mount)
        );
    }
    out
}

fn na<T: Display>(m: &Metric<T>) -> String {
    m.value()
        .map_or_else(|| "n/a".to_owned(), ToString::to_string)
}

fn gib_of_mib(mib: u64) -> f64 {
    crate::telemetry::metric::u64_to_f64(mib) / 1024.0
}

fn bytes(b: u64) -> String {
    bytes_f(crate::telemetry::metric::u64_to_f64(b))
}

fn bytes_f(b: f64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b;
    let mut unit = 0;
    while v >= 1024.0 && unit < UNITS.len() - 1 {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}
