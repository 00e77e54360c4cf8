//! Simulator scenarios: plain TOML files, ten bundled (compiled in) and any number from disk.
//! The format is documented in the telemetry README; every key has a default.

mod broken;
mod card;

use serde::Deserialize;

pub use card::{BenchReach, CardBehaviour};

use super::sample::CudaVersion;
pub use broken::Broken;

/// The bundled scenarios by name, in the order `--help` lists them: five workloads, then five
/// cards that are not what was paid for.
const BUNDLED: [(&str, &str); 10] = [
    ("training", include_str!("scenarios/training.toml")),
    ("idle", include_str!("scenarios/idle.toml")),
    ("cpu-bound", include_str!("scenarios/cpu-bound.toml")),
    ("memory-leak", include_str!("scenarios/memory-leak.toml")),
    ("egress-burst", include_str!("scenarios/egress-burst.toml")),
    ("shared", include_str!("scenarios/shared.toml")),
    ("mig-slice", include_str!("scenarios/mig-slice.toml")),
    ("power-capped", include_str!("scenarios/power-capped.toml")),
    ("throttled", include_str!("scenarios/throttled.toml")),
    (
        "pcie-degraded",
        include_str!("scenarios/pcie-degraded.toml"),
    ),
];

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub gpu: GpuBehaviour,
    #[serde(default)]
    pub host: HostBehaviour,
    #[serde(default)]
    pub driver: DriverBehaviour,
    /// The state the card was handed over in; healthy and dedicated by default.
    #[serde(default)]
    pub card: CardBehaviour,
    /// How far the benchmark gets on the card; a healthy card's figures by default.
    #[serde(default)]
    pub bench: BenchReach,
}

/// How every simulated GPU behaves. Percentages are 0–100, times in seconds.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GpuBehaviour {
    pub util_pct: f64,
    /// Uniform noise of ± this many points around `util_pct`.
    pub util_jitter_pct: f64,
    /// Every `dip_every_s` seconds utilisation falls to `dip_util_pct` for `dip_length_s`
    /// (0 = never).
    pub dip_every_s: u32,
    pub dip_length_s: u32,
    pub dip_util_pct: f64,
    /// Share of the card's memory in use at t = 0.
    pub mem_used_fraction: f64,
    /// Growth of used memory, until the card is full.
    pub mem_leak_mib_per_min: f64,
    /// Processes per GPU (0 or more).
    pub processes: u32,
    pub process_cmdline: String,
    pub process_user: String,
}

impl Default for GpuBehaviour {
    fn default() -> Self {
        GpuBehaviour {
            util_pct: 0.0,
            util_jitter_pct: 0.0,
            dip_every_s: 0,
            dip_length_s: 0,
            dip_util_pct: 0.0,
            mem_used_fraction: 0.0,
            mem_leak_mib_per_min: 0.0,
            processes: 0,
            process_cmdline: "python main.py".to_owned(),
            process_user: "ubuntu".to_owned(),
        }
    }
}

/// The simulated host: CPU, memory, one metered interface `eth0` and one disk `/`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HostBehaviour {
    pub cores: u32,
    pub cpu_pct: f64,
    pub cpu_jitter_pct: f64,
    pub mem_total_gib: f64,
    pub mem_used_gib: f64,
    pub egress_mib_per_s: f64,
    pub ingress_mib_per_s: f64,
    /// Every `burst_every_s` seconds egress rises by `burst_egress_mib_per_s` for
    /// `burst_length_s` (0 = never).
    pub burst_every_s: u32,
    pub burst_length_s: u32,
    pub burst_egress_mib_per_s: f64,
    pub disk_total_gib: f64,
    pub disk_used_gib: f64,
}

impl Default for HostBehaviour {
    fn default() -> Self {
        HostBehaviour {
            cores: 32,
            cpu_pct: 0.0,
            cpu_jitter_pct: 0.0,
            mem_total_gib: 256.0,
            mem_used_gib: 24.0,
            egress_mib_per_s: 0.0,
            ingress_mib_per_s: 0.0,
            burst_every_s: 0,
            burst_length_s: 0,
            burst_egress_mib_per_s: 0.0,
            disk_total_gib: 500.0,
            disk_used_gib: 120.0,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DriverBehaviour {
    pub version: String,
    /// The CUDA version the simulated driver supports, such as "12.4".
    pub cuda: String,
}

impl Default for DriverBehaviour {
    fn default() -> Self {
        DriverBehaviour {
            version: "550.54.15".to_owned(),
            cuda: "12.4".to_owned(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error("no bundled scenario `{0}`; the bundled ones are {list}", list = Scenario::names().join(", "))]
    Unknown(String),
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{origin}:{line}:{column}: {message}")]
    Parse {
        origin: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{origin}: {message}")]
    Invalid { origin: String, message: Broken },
}

impl Scenario {
    pub fn names() -> Vec<&'static str> {
        BUNDLED.iter().map(|(name, _)| *name).collect()
    }

    pub fn bundled(name: &str) -> Result<Scenario, ScenarioError> {
        let (_, text) = BUNDLED
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| ScenarioError::Unknown(name.to_owned()))?;
        Scenario::from_toml(text, name)
    }

    /// Parses and checks a scenario; `origin` names it in errors (a path or a bundled name).
    pub fn from_toml(text: &str, origin: &str) -> Result<Scenario, ScenarioError> {
        let scenario: Scenario = toml::from_str(text).map_err(|e| {
            let (line, column) = e.span().map_or((0, 0), |span| line_col(text, span.start));
            ScenarioError::Parse {
                origin: origin.to_owned(),
                line,
                column,
                message: e.message().to_owned(),
            }
        })?;
        scenario.check().map_err(|message| ScenarioError::Invalid {
            origin: origin.to_owned(),
            message,
        })?;
        Ok(scenario)
    }

    pub fn driver_cuda(&self) -> Option<CudaVersion> {
        self.driver.cuda.parse().ok()
    }

    fn check(&self) -> Result<(), Broken> {
        let pct = [
            ("gpu.util_pct", self.gpu.util_pct),
            ("gpu.dip_util_pct", self.gpu.dip_util_pct),
            ("host.cpu_pct", self.host.cpu_pct),
        ];
        for (key, v) in pct {
            if !(0.0..=100.0).contains(&v) {
                return Err(Broken::NotPercent { key, value: v });
            }
        }
        let non_negative = [
            ("gpu.util_jitter_pct", self.gpu.util_jitter_pct),
            ("gpu.mem_leak_mib_per_min", self.gpu.mem_leak_mib_per_min),
            ("host.cpu_jitter_pct", self.host.cpu_jitter_pct),
            ("host.mem_used_gib", self.host.mem_used_gib),
            ("host.egress_mib_per_s", self.host.egress_mib_per_s),
            ("host.ingress_mib_per_s", self.host.ingress_mib_per_s),
            (
                "host.burst_egress_mib_per_s",
                self.host.burst_egress_mib_per_s,
            ),
            ("host.disk_used_gib", self.host.disk_used_gib),
        ];
        for (key, v) in non_negative {
            if !v.is_finite() || v < 0.0 {
                return Err(Broken::Negative { key, value: v });
            }
        }
        if !(0.0..=1.0).contains(&self.gpu.mem_used_fraction) {
            return Err(Broken::Rule(crate::t!(
                "scenario-between",
                key = "gpu.mem_used_fraction",
                low = "0",
                high = "1"
            )));
        }
        if self.host.cores == 0 || self.host.cores > 1024 {
            return Err(Broken::Rule(crate::t!(
                "scenario-between",
                key = "host.cores",
                low = "1",
                high = "1024"
            )));
        }
        if self.host.mem_used_gib > self.host.mem_total_gib {
            return Err(Broken::Rule(crate::t!(
                "scenario-more-than",
                key = "host.mem_used_gib",
                limit = "host.mem_total_gib"
            )));
        }
        if self.host.disk_used_gib > self.host.disk_total_gib {
            return Err(Broken::Rule(crate::t!(
                "scenario-more-than",
                key = "host.disk_used_gib",
                limit = "host.disk_total_gib"
            )));
        }
        if self.gpu.processes > 64 {
            return Err(Broken::Rule(crate::t!(
                "scenario-at-most",
                key = "gpu.processes",
                high = "64"
            )));
        }
        self.driver
            .cuda
            .parse::<CudaVersion>()
            .map_err(Broken::Cuda)?;
        self.card.check()?;
        self.bench.check()
    }
}

/// 1-based line and column of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_scenario_parses_under_its_own_name() {
        for name in Scenario::names() {
            let s = Scenario::bundled(name).unwrap();
            assert_eq!(s.name, name);
            assert!(!s.description.is_empty(), "{name} has no description");
        }
    }

    #[test]
    fn unknown_keys_are_errors_with_a_position() {
        let err = Scenario::from_toml("name = \"x\"\n[gpu]\nutil = 3\n", "x.toml").unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("x.toml:3:1:"), "{text}");
    }

    #[test]
    fn out_of_range_values_are_refused() {
        let err = Scenario::from_toml("name = \"x\"\n[host]\ncpu_pct = 140\n", "x").unwrap_err();
        assert!(err.to_string().contains("host.cpu_pct"), "{err}");
        let chinese = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || {
            let text = "name = \"x\"\n[host]\ncores = 0\n";
            Scenario::from_toml(text, "x").unwrap_err().to_string()
        });
        assert!(
            chinese.contains("host.cores 必须在 1 到 1024 之间"),
            "{chinese}"
        );
    }

    #[test]
    fn unknown_names_list_the_bundled_ones() {
        let err = Scenario::bundled("nope").unwrap_err().to_string();
        assert!(
            err.contains("training") && err.contains("egress-burst"),
            "{err}"
        );
    }

    #[test]
    fn files_without_card_or_bench_describe_a_healthy_dedicated_card() {
        let old = "name = \"old\"\n[gpu]\nutil_pct = 50\nprocesses = 1\n[host]\ncpu_pct = 5\n";
        let s = Scenario::from_toml(old, "old.toml").unwrap();
        assert_eq!(s.card, CardBehaviour::default());
        assert_eq!(s.bench, BenchReach::default());
        assert_eq!(s.card.mig_slice_mib, 0);
        assert_eq!(s.card.clock_event_reasons, 0);
    }

    #[test]
    fn typos_in_card_and_bench_are_errors_with_a_position() {
        for text in [
            "name = \"x\"\n[card]\nforeign_mem = 3\n",
            "name = \"x\"\n[bench]\nbf61 = 0.5\n",
        ] {
            let err = Scenario::from_toml(text, "x.toml").unwrap_err().to_string();
            assert!(err.starts_with("x.toml:3:1:"), "{err}");
        }
    }

    #[test]
    fn impossible_cards_are_refused_by_key() {
        let cases = [
            (
                "[card]\npower_limit_fraction = 0",
                "card.power_limit_fraction",
            ),
            ("[card]\nsm_clock_fraction = 1.2", "card.sm_clock_fraction"),
            ("[card]\nforeign_util_pct = 101", "card.foreign_util_pct"),
            ("[card]\nforeign_mem_gib = -1", "card.foreign_mem_gib"),
            ("[card]\npcie_width_max = 7", "card.pcie_width_max"),
            ("[card]\npcie_gen = 4\npcie_gen_max = 3", "card.pcie_gen"),
            ("[bench]\ngemm = -0.1", "bench.gemm"),
        ];
        for (body, key) in cases {
            let err = Scenario::from_toml(&format!("name = \"x\"\n{body}\n"), "x").unwrap_err();
            assert!(err.to_string().contains(key), "{body}: {err}");
        }
    }
}
