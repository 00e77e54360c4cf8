//! The Prometheus text exposition (format 0.0.4) of a [`Snapshot`], written by the `prometheus`
//! crate's encoder. GPU series use DCGM exporter's names and labels where they mean the same
//! thing, so existing dashboards work; the rest are `gpumeter_*`. A metric that cannot be read
//! is left out, never written as 0.

use prometheus::Encoder as _;
use prometheus::proto::{Counter, Gauge, LabelPair, Metric, MetricFamily, MetricType};

use super::snapshot::{COMPONENTS, CostFacts, Snapshot};
use crate::meter::InstanceState;
use crate::telemetry::{GpuSample, HostSample, Metric as Reading};

/// The Content-Type of the exposition.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Families in the order they were first written.
#[derive(Default)]
struct Families {
    list: Vec<MetricFamily>,
}

impl Families {
    fn push(
        &mut self,
        name: &str,
        help: &str,
        kind: MetricType,
        labels: &[(&str, &str)],
        value: f64,
    ) {
        if !value.is_finite() {
            return;
        }
        let index = if let Some(i) = self.list.iter().position(|f| f.name() == name) {
            i
        } else {
            let mut family = MetricFamily::default();
            family.set_name(name.to_string());
            family.set_help(help.to_string());
            family.set_field_type(kind);
            self.list.push(family);
            self.list.len() - 1
        };
        let mut metric = Metric::default();
        metric.set_label(
            labels
                .iter()
                .map(|(k, v)| {
                    let mut pair = LabelPair::default();
                    pair.set_name((*k).to_string());
                    pair.set_value((*v).to_string());
                    pair
                })
                .collect(),
        );
        if kind == MetricType::COUNTER {
            let mut counter = Counter::default();
            counter.set_value(value);
            metric.set_counter(counter);
        } else {
            let mut gauge = Gauge::default();
            gauge.set_value(value);
            metric.set_gauge(gauge);
        }
        self.list[index].mut_metric().push(metric);
    }

    fn gauge(&mut self, name: &str, help: &str, labels: &[(&str, &str)], value: f64) {
        self.push(name, help, MetricType::GAUGE, labels, value);
    }

    fn counter(&mut self, name: &str, help: &str, labels: &[(&str, &str)], value: f64) {
        self.push(name, help, MetricType::COUNTER, labels, value);
    }
}

/// The text exposition of `snapshot`.
pub fn render(snapshot: &Snapshot) -> String {
    let mut families = Families::default();
    let base = [
        ("instance_id", snapshot.target.instance_id.as_str()),
        ("provider", snapshot.target.provider.as_str()),
    ];
    for gpu in &snapshot.gpus {
        gpu_series(&mut families, &base, gpu);
        memory_full_series(&mut families, &base, gpu, snapshot);
    }
    if let Some(host) = &snapshot.host {
        host_series(&mut families, &base, host);
    }
    cloud_series(&mut families, &base, snapshot);
    guard_series(&mut families, &base, snapshot);
    freshness(&mut families, &base, snapshot);
    let mut out = Vec::new();
    // The encoder fails only on a family without samples, and no family here is empty.
    if prometheus::TextEncoder::new()
        .encode(&families.list, &mut out)
        .is_err()
    {
        return String::new();
    }
    String::from_utf8(out).unwrap_or_default()
}

fn with<'a>(base: &[(&'a str, &'a str)], more: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    base.iter().chain(more).copied().collect()
}

fn gpu_series(f: &mut Families, base: &[(&str, &str)], gpu: &GpuSample) {
    let index = gpu.index.to_string();
    let mut extra = vec![("gpu", index.as_str())];
    if let Some(uuid) = gpu.uuid.value() {
        extra.push(("UUID", uuid.as_str()));
    }
    if let Some(model) = gpu.name.value() {
        extra.push(("modelName", model.as_str()));
    }
    if let Some(bus) = gpu.pci_bus_id.value() {
        extra.push(("pci_bus_id", bus.as_str()));
    }
    let labels = with(base, &extra);
    let l = labels.as_slice();
    let u32v = |m: &Reading<u32>| m.value().map(|v| f64::from(*v));
    #[expect(clippy::cast_precision_loss, reason = "MiB counts are far below 2^52")]
    let u64v = |m: &Reading<u64>| m.value().map(|v| *v as f64);
    let f64v = |m: &Reading<f64>| m.value().copied();
    let gauges = [
        (
            "DCGM_FI_DEV_GPU_UTIL",
            "GPU utilization (in %).",
            u32v(&gpu.util_pct),
        ),
        (
            "DCGM_FI_DEV_MEM_COPY_UTIL",
            "Memory utilization (in %).",
            u32v(&gpu.mem_util_pct),
        ),
        (
            "DCGM_FI_DEV_FB_USED",
            "Framebuffer memory used (in MiB).",
            u64v(&gpu.mem_used_mib),
        ),
        (
            "DCGM_FI_DEV_FB_FREE",
            "Framebuffer memory free (in MiB).",
            match (gpu.mem_total_mib.value(), gpu.mem_used_mib.value()) {
                #[expect(clippy::cast_precision_loss, reason = "MiB counts are far below 2^52")]
                (Some(total), Some(used)) => Some(total.saturating_sub(*used) as f64),
                _ => None,
            },
        ),
        (
            "DCGM_FI_DEV_POWER_USAGE",
            "Power draw (in W).",
            f64v(&gpu.power_w),
        ),
        (
            "DCGM_FI_DEV_POWER_MGMT_LIMIT",
            "Power management limit (in W).",
            f64v(&gpu.power_limit_w),
        ),
        (
            "DCGM_FI_DEV_GPU_TEMP",
            "GPU temperature (in C).",
            u32v(&gpu.temp_c),
        ),
        (
            "DCGM_FI_DEV_SM_CLOCK",
            "SM clock frequency (in MHz).",
            u32v(&gpu.sm_clock_mhz),
        ),
        (
            "DCGM_FI_DEV_MEM_CLOCK",
            "Memory clock frequency (in MHz).",
            u32v(&gpu.mem_clock_mhz),
        ),
        (
            "DCGM_FI_DEV_FAN_SPEED",
            "Fan speed (in %).",
            u32v(&gpu.fan_pct),
        ),
        (
            "gpumeter_gpu_power_weighted_load_percent",
            "Utilization times power draw over the power limit (in %): a stalled loop shows busy at idle power.",
            f64v(&gpu.power_weighted_load_pct),
        ),
    ];
    for (name, help, value) in gauges {
        if let Some(v) = value {
            f.gauge(name, help, l, v);
        }
    }
    if let Some(joules) = gpu.energy_j.value() {
        f.counter(
            "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
            "Total energy consumption since the driver loaded (in mJ).",
            l,
            joules * 1000.0,
        );
    }
}

/// 1 while the GPU's memory is full, or has stayed nearly full and climbing (the next
/// allocation may fail with out-of-memory), as the cockpit's and `status`'s finding says.
fn memory_full_series(f: &mut Families, base: &[(&str, &str)], gpu: &GpuSample, s: &Snapshot) {
    let index = gpu.index.to_string();
    f.gauge(
        "gpumeter_gpu_memory_full",
        "1 while the GPU's memory is full, or has stayed above 95 % and climbing for 2 minutes.",
        &with(base, &[("gpu", index.as_str())]),
        if s.memory_full.contains(&gpu.index) {
            1.0
        } else {
            0.0
        },
    );
}

#[expect(
    clippy::cast_precision_loss,
    reason = "byte counts shown as floats, as Prometheus does"
)]
fn host_series(f: &mut Families, base: &[(&str, &str)], host: &HostSample) {
    if let Some(cpu) = host.cpu_pct.value() {
        f.gauge(
            "gpumeter_host_cpu_percent",
            "Host CPU use, all cores together (0-100).",
            base,
            *cpu,
        );
    }
    if let Some(mem) = host.mem.value() {
        let mib = 1024.0 * 1024.0;
        f.gauge(
            "gpumeter_host_memory_total_bytes",
            "Host memory.",
            base,
            mem.total_mib as f64 * mib,
        );
        f.gauge(
            "gpumeter_host_memory_available_bytes",
            "Host memory new work could still get without swapping.",
            base,
            mem.available_mib as f64 * mib,
        );
    }
    for net in &host.net {
        let labels = with(base, &[("interface", net.name.as_str())]);
        f.counter(
            "gpumeter_host_network_transmit_bytes_total",
            "Bytes sent on a metered interface (billed as egress).",
            &labels,
            net.tx_bytes as f64,
        );
        f.counter(
            "gpumeter_host_network_receive_bytes_total",
            "Bytes received on a metered interface.",
            &labels,
            net.rx_bytes as f64,
        );
    }
}

fn cloud_series(f: &mut Families, base: &[(&str, &str)], s: &Snapshot) {
    if let Some(ok) = s.cloud_ok {
        f.gauge(
            "gpumeter_cloud_up",
            "1 when the last read of the provider's API succeeded.",
            base,
            if ok { 1.0 } else { 0.0 },
        );
    }
    if let Some(instance) = &s.instance {
        let state = match instance.state {
            InstanceState::Running => "running",
            InstanceState::Stopped => "stopped",
            InstanceState::Released => "released",
            InstanceState::NoGpu => "no_gpu",
        };
        let region = instance.region.as_deref().unwrap_or("");
        let labels = with(
            base,
            &[
                ("sku", instance.sku.as_str()),
                ("region", region),
                ("state", state),
            ],
        );
        f.gauge(
            "gpumeter_instance_info",
            "The instance as the provider describes it.",
            &labels,
            1.0,
        );
        f.gauge(
            "gpumeter_instance_running",
            "1 while the provider reports the instance running.",
            base,
            if instance.state.is_up() { 1.0 } else { 0.0 },
        );
    }
    if let Some(cost) = &s.cost {
        let cur = cost.currency.as_str();
        for (component, amount) in &cost.accrued {
            let labels = with(base, &[("component", component), ("currency", cur)]);
            f.counter(
                "gpumeter_cost_total",
                "Cost so far by component (compute, bandwidth, storage, extras), at the sheet's prices.",
                &labels,
                *amount,
            );
        }
        for (class, bytes, amount) in &cost.egress {
            #[expect(clippy::cast_precision_loss, reason = "bytes below 2^52, 4 PiB")]
            let bytes = *bytes as f64;
            f.counter(
                "gpumeter_egress_bytes_total",
                "Bytes the instance sent by destination (internet, intranet: its VPC and the provider's services in its region, cross_region), as the meter prices them.",
                &with(base, &[("class", class)]),
                bytes,
            );
            f.counter(
                "gpumeter_egress_cost_total",
                "What the egress to each class of destination has cost, at the sheet's per-class prices; its sum is the bandwidth line less ingress and fixed bandwidth.",
                &with(base, &[("class", class), ("currency", cur)]),
                *amount,
            );
        }
        f.counter(
            "gpumeter_cost_billed_total",
            "What the provider bills so far, after its billing step and minimum.",
            &with(base, &[("currency", cur)]),
            cost.billed,
        );
        for (component, rate) in &cost.burn_per_hour {
            debug_assert!(COMPONENTS.contains(component) || *component == "total");
            let labels = with(base, &[("component", component), ("currency", cur)]);
            f.gauge(
                "gpumeter_burn_rate_per_hour",
                "How fast each cost line grows now, per hour.",
                &labels,
                *rate,
            );
        }
        f.gauge(
            "gpumeter_leftover_monthly_cost",
            "What the resources that outlive a release would cost per month; a lower bound while gpumeter_cost_unknown_lines{total=\"leftover_monthly\"} is above 0.",
            &with(base, &[("currency", cur)]),
            cost.leftover_monthly,
        );
        #[expect(clippy::cast_precision_loss, reason = "a handful of resources")]
        f.gauge(
            "gpumeter_leftover_resources",
            "Resources that would keep billing after a release.",
            base,
            cost.leftover_resources as f64,
        );
        unknown_lines(f, base, cost);
    }
    deadline_series(f, base, s);
    balance_series(f, base, s);
}

/// A prepaid balance and how long it lasts at the burn.
fn balance_series(f: &mut Families, base: &[(&str, &str)], s: &Snapshot) {
    let Some(b) = &s.balance else {
        return;
    };
    f.gauge(
        "gpumeter_balance",
        "The prepaid account's cash, as the provider last reported it (read with each full inventory).",
        &with(base, &[("currency", b.currency.as_str())]),
        b.available,
    );
    if let Some(left) = b.seconds_left {
        f.gauge(
            "gpumeter_balance_seconds_left",
            "Seconds until the balance's cash reaches zero at the burn; burn=\"this_instance\" counts this instance alone, so the account's may be shorter.",
            &with(base, &[("burn", b.scope)]),
            left,
        );
    }
}

/// The deadline, and whether anything live holds it.
fn deadline_series(f: &mut Families, base: &[(&str, &str)], s: &Snapshot) {
    if let (Some(at), Some(now)) = (s.deadline, s.now) {
        #[expect(clippy::cast_precision_loss, reason = "seconds since 1970 fit in 2^52")]
        let at_s = at.as_second() as f64;
        #[expect(clippy::cast_precision_loss, reason = "seconds fit in 2^52")]
        let left = at.duration_since(now).as_secs() as f64;
        f.gauge(
            "gpumeter_deadline_timestamp_seconds",
            "The release deadline, in seconds since 1970.",
            base,
            at_s,
        );
        f.gauge(
            "gpumeter_deadline_remaining_seconds",
            "Seconds until the release deadline; negative once it has passed.",
            base,
            left,
        );
    }
    if let Some(enforced) = s.deadline_enforced {
        f.gauge(
            "gpumeter_deadline_enforced",
            "1 while a live watchdog or the provider (read back) holds the deadline, else 0.",
            base,
            if enforced { 1.0 } else { 0.0 },
        );
    }
}

/// How many lines each total leaves out because nothing prices them, written even at 0 so a
/// dashboard can tell a whole total from a lower bound.
fn unknown_lines(f: &mut Families, base: &[(&str, &str)], cost: &CostFacts) {
    for (total, count) in [
        ("accrued", cost.accrued_unknown),
        ("leftover_monthly", cost.leftover_unknown),
    ] {
        #[expect(clippy::cast_precision_loss, reason = "a handful of lines")]
        f.gauge(
            "gpumeter_cost_unknown_lines",
            "Lines left out of a total because no sheet prices them (total: accrued covers gpumeter_cost_total, gpumeter_cost_billed_total and gpumeter_burn_rate_per_hour; leftover_monthly covers gpumeter_leftover_monthly_cost). Above 0 that total is a lower bound, not the whole.",
            &with(base, &[("total", total)]),
            count as f64,
        );
    }
}

fn guard_series(f: &mut Families, base: &[(&str, &str)], s: &Snapshot) {
    if let Some(idle) = s.idle_s {
        f.gauge(
            "gpumeter_idle_seconds",
            "Seconds every GPU and the CPU have been idle without a break (0 while busy).",
            base,
            idle,
        );
    }
    let Some(guard) = &s.guard else { return };
    if let Some(alive) = guard.watchdog_alive {
        f.gauge(
            "gpumeter_watchdog_alive",
            "1 while the instance's watchdog beats its heart.",
            base,
            if alive { 1.0 } else { 0.0 },
        );
    }
    if let Some(age) = guard.heartbeat_age_s {
        f.gauge(
            "gpumeter_watchdog_heartbeat_age_seconds",
            "Seconds since the watchdog's last heartbeat.",
            base,
            age,
        );
    }
}

fn freshness(f: &mut Families, base: &[(&str, &str)], s: &Snapshot) {
    for (source, at) in [
        ("gpu", s.gpu_time),
        ("host", s.host_time),
        ("cloud", s.cloud_time),
    ] {
        if let Some(at) = at {
            #[expect(
                clippy::cast_precision_loss,
                reason = "milliseconds since 1970 fit in 2^52"
            )]
            let secs = at.as_millisecond() as f64 / 1000.0;
            f.gauge(
                "gpumeter_sample_timestamp_seconds",
                "When each source was last read, in seconds since 1970.",
                &with(base, &[("source", source)]),
                secs,
            );
        }
    }
}
