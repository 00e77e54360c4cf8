//! `doctor`'s verdicts: one line per capability, computed from what was detected and from the
//! facts the edge gathered (NVML, credentials, permissions, the watchdog unit, the sheet, the
//! clock, the zone). Pure: nothing here reads the machine, the network or the clock.

use crate::config::{OnExpiry, ProviderKind};
use crate::detect::{Detected, Found};

/// How one check came out: `✓`, `✗`, or `–` where it does not apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Pass,
    Fail,
    Skip,
}

impl Mark {
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Pass => "✓",
            Mark::Fail => "✗",
            Mark::Skip => "–",
        }
    }

    /// The stable word `--json` prints.
    pub fn key(self) -> &'static str {
        match self {
            Mark::Pass => "pass",
            Mark::Fail => "fail",
            Mark::Skip => "skip",
        }
    }
}

/// One line of the report. `detail` says what was found, or for a failure the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// A stable name for `--json` (`nvml`, `permission.release`).
    pub key: String,
    pub what: String,
    pub mark: Mark,
    pub detail: String,
    /// Whether this failing makes `doctor` exit 1: what the configured policy needs.
    pub blocking: bool,
}

/// What a provider key may do, one action at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    Read,
    Stop,
    Release,
    Delete,
}

impl Act {
    pub const ALL: [Act; 4] = [Act::Read, Act::Stop, Act::Release, Act::Delete];

    pub fn key(self) -> &'static str {
        match self {
            Act::Read => "read",
            Act::Stop => "stop",
            Act::Release => "release",
            Act::Delete => "delete",
        }
    }
}

/// The provider's answer to "may this key do it?", asked without doing it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Permission {
    /// Allowed; how it was asked (`ec2:StopInstances, DryRun`).
    Allowed(String),
    /// Refused; the fix.
    Denied(String),
    /// Not asked, and why.
    NotChecked(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Clock {
    Synchronised { from: String },
    NotSynchronised { from: String },
    Unknown,
}

/// What the deadline and the idle rule do, from the config and flags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    pub at_zero: OnExpiry,
    pub on_idle: OnExpiry,
    /// The deadline as configured (`4h`, `18:30`), if any.
    pub deadline: Option<String>,
}

impl Policy {
    /// The strongest action either guard may take.
    pub fn acts(&self) -> Option<OnExpiry> {
        [self.at_zero, self.on_idle]
            .into_iter()
            .filter(|p| *p != OnExpiry::Alert)
            .max_by_key(|p| matches!(p, OnExpiry::Release))
    }

    fn needs(&self, act: Act) -> bool {
        let wants = |p: OnExpiry| [self.at_zero, self.on_idle].contains(&p);
        match act {
            Act::Read => self.acts().is_some(),
            Act::Stop => wants(OnExpiry::Stop),
            Act::Release => wants(OnExpiry::Release),
            Act::Delete => false,
        }
    }
}

/// What one probe of the edge found: a line to pass, or a line to fail. Both are report text
/// the checks judge, not errors to handle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe {
    Found(String),
    Failed(String),
}

/// Everything the edge found out, as plain data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    /// The config file read, if any.
    pub config: Option<String>,
    pub policy: Policy,
    /// `Found("8 × NVIDIA H100, driver 550.54.15")` or NVML's error.
    pub nvml: Probe,
    /// `None` when no provider needs credentials; `Found(where)` or `Failed(where looked)`.
    pub credentials: Option<Probe>,
    pub permissions: Vec<(Act, Permission)>,
    /// The watchdog's systemd user unit, when installed.
    pub service: Option<String>,
    /// Whether `gpumeter watchdog --install-service` can install it here (systemd present).
    pub service_installable: bool,
    /// The sheet that prices the instance: id, date, age in days.
    pub sheet: Option<(String, String, i64)>,
    pub clock: Clock,
    /// The zone local times are read in, and where it came from.
    pub zone: Probe,
}

fn check(key: &str, what: &str, mark: Mark, detail: impl Into<String>, blocking: bool) -> Check {
    Check {
        key: key.to_string(),
        what: what.to_string(),
        mark,
        detail: detail.into(),
        blocking,
    }
}

fn found<T>(
    key: &str,
    what: &str,
    found: Option<&Found<T>>,
    show: impl Fn(&T) -> String,
    fix: &str,
) -> Check {
    match found {
        Some(f) => check(
            key,
            what,
            Mark::Pass,
            format!("{} (from {})", show(&f.value), f.from),
            false,
        ),
        None => check(key, what, Mark::Fail, format!("not detected: {fix}"), false),
    }
}

/// The report, in the order it is printed.
pub fn checks(detected: &Detected, facts: &Facts) -> Vec<Check> {
    let acts = facts.policy.acts().is_some();
    let mut out = vec![policy_line(facts), nvml_line(facts)];
    let provider = detected.provider.as_ref().map(|p| p.value);
    let mut provider_line = found(
        "provider",
        "provider",
        detected.provider.as_ref(),
        |p| p.id().to_string(),
        "give --provider or set [instance] provider (gpumeter init writes it)",
    );
    provider_line.blocking = acts && provider.is_none();
    out.push(provider_line);
    out.push(found(
        "instance",
        "instance",
        detected.instance.as_ref(),
        Clone::clone,
        "give --instance or set [instance] id; on AWS the metadata service tells it",
    ));
    out.push(found(
        "region",
        "region",
        detected.region.as_ref(),
        Clone::clone,
        "give --region or set [instance] region",
    ));
    out.push(found(
        "sku",
        "SKU",
        detected.instance_type.as_ref(),
        Clone::clone,
        "set [pricing] sku to the instance type",
    ));
    out.extend(
        detected
            .problems
            .iter()
            .map(|p| check("detect", "detection", Mark::Fail, p.clone(), false)),
    );
    out.push(credentials_line(provider, facts, acts));
    out.extend(permission_lines(facts));
    out.push(service_line(facts, acts));
    out.push(sheet_line(facts));
    out.push(clock_line(facts, acts));
    out.push(zone_line(facts));
    out
}

/// Exit 0 when nothing the policy needs failed.
pub fn healthy(checks: &[Check]) -> bool {
    !checks.iter().any(|c| c.blocking && c.mark == Mark::Fail)
}

fn policy_name(p: OnExpiry) -> &'static str {
    match p {
        OnExpiry::Alert => "alert",
        OnExpiry::Stop => "stop",
        OnExpiry::Release => "release",
    }
}

fn policy_line(facts: &Facts) -> Check {
    let p = &facts.policy;
    let deadline = p.deadline.as_deref().unwrap_or("none set");
    let config = facts.config.as_deref().map_or_else(
        || "no config file: gpumeter init writes one".to_string(),
        |c| format!("config {c}"),
    );
    let needs = match p.acts() {
        None => "alerts only: needs no provider key",
        Some(OnExpiry::Stop) => "acts: needs the provider's key, stop permission and a watchdog",
        Some(_) => "acts: needs the provider's key, release permission and a watchdog",
    };
    check(
        "policy",
        "policy",
        Mark::Pass,
        format!(
            "deadline {deadline}, at zero {}, when idle {}; {needs}; {config}",
            policy_name(p.at_zero),
            policy_name(p.on_idle)
        ),
        false,
    )
}

fn nvml_line(facts: &Facts) -> Check {
    // Idle is judged by the GPUs; a reading that failed counts as busy, so idle never acts.
    let blocking = facts.policy.on_idle != OnExpiry::Alert;
    match &facts.nvml {
        Probe::Found(seen) => check("nvml", "NVML", Mark::Pass, seen.clone(), blocking),
        Probe::Failed(why) => check(
            "nvml",
            "NVML",
            Mark::Fail,
            format!("{why}; install the NVIDIA driver (libnvidia-ml.so.1), or try --demo"),
            blocking,
        ),
    }
}

fn credentials_line(provider: Option<ProviderKind>, facts: &Facts, acts: bool) -> Check {
    let line = |mark, detail: String, blocking| {
        check("credentials", "credentials", mark, detail, blocking)
    };
    let Some(kind) = provider else {
        return line(Mark::Skip, "no provider to sign in to".into(), false);
    };
    match kind {
        ProviderKind::Demo => line(Mark::Pass, "the demo cloud needs none".into(), false),
        ProviderKind::Command => line(
            Mark::Skip,
            "the command provider runs your own commands, with their own keys".into(),
            false,
        ),
        ProviderKind::Aws
        | ProviderKind::Alibaba
        | ProviderKind::Tencent
        | ProviderKind::Lambda
        | ProviderKind::Runpod
        | ProviderKind::Vast
        | ProviderKind::Autodl => match &facts.credentials {
            None => line(Mark::Skip, "not looked for".into(), false),
            Some(Probe::Found(from)) => line(Mark::Pass, format!("found: {from}"), false),
            Some(Probe::Failed(looked)) => line(Mark::Fail, looked.clone(), acts),
        },
    }
}

fn permission_lines(facts: &Facts) -> Vec<Check> {
    facts
        .permissions
        .iter()
        .map(|(act, answer)| {
            let key = format!("permission.{}", act.key());
            let what = format!("may {}", act.key());
            let needed = facts.policy.needs(*act);
            match answer {
                Permission::Allowed(how) => check(&key, &what, Mark::Pass, how.clone(), needed),
                Permission::Denied(fix) => check(&key, &what, Mark::Fail, fix.clone(), needed),
                Permission::NotChecked(why) => check(&key, &what, Mark::Skip, why.clone(), false),
            }
        })
        .collect()
}

fn service_line(facts: &Facts, acts: bool) -> Check {
    let what = "watchdog service";
    match (&facts.service, facts.service_installable) {
        (Some(path), _) => check(
            "watchdog_service",
            what,
            Mark::Pass,
            format!("installed: {path}"),
            false,
        ),
        (None, true) => check(
            "watchdog_service",
            what,
            Mark::Fail,
            "not installed (the cockpit starts a watchdog, but not at boot): gpumeter watchdog --install-service",
            false,
        ),
        (None, false) => check(
            "watchdog_service",
            what,
            Mark::Fail,
            "not installed, and no systemd user manager here: run `gpumeter watchdog` under your own supervisor",
            acts,
        ),
    }
}

fn sheet_line(facts: &Facts) -> Check {
    let stale = crate::pricing::sheet::STALE_AFTER_DAYS;
    match &facts.sheet {
        None => check(
            "sheet",
            "price sheet",
            Mark::Skip,
            "none for this instance: set [pricing] sheet and sku",
            false,
        ),
        Some((id, as_of, age)) if *age > stale => check(
            "sheet",
            "price sheet",
            Mark::Fail,
            format!(
                "{id} is dated {as_of}, {age} days ago (over {stale}): check its prices, or update gpumeter"
            ),
            false,
        ),
        Some((id, as_of, age)) => check(
            "sheet",
            "price sheet",
            Mark::Pass,
            format!("{id} as of {as_of} ({age} days old)"),
            false,
        ),
    }
}

fn clock_line(facts: &Facts, acts: bool) -> Check {
    match &facts.clock {
        Clock::Synchronised { from } => check(
            "clock",
            "clock",
            Mark::Pass,
            format!("synchronised ({from})"),
            false,
        ),
        Clock::NotSynchronised { from } => check(
            "clock",
            "clock",
            Mark::Fail,
            format!(
                "not synchronised ({from}): the deadline and signed calls need it; sudo timedatectl set-ntp true"
            ),
            acts,
        ),
        Clock::Unknown => check(
            "clock",
            "clock",
            Mark::Skip,
            "unknown: neither timedatectl nor the kernel said",
            false,
        ),
    }
}

fn zone_line(facts: &Facts) -> Check {
    match &facts.zone {
        Probe::Found(zone) => check("timezone", "time zone", Mark::Pass, zone.clone(), false),
        Probe::Failed(why) => check(
            "timezone",
            "time zone",
            Mark::Fail,
            format!("{why}: a deadline such as 18:30 means 18:30 UTC; set TZ=Area/City"),
            false,
        ),
    }
}

#[cfg(test)]
#[path = "checks_tests.rs"]
mod tests;
