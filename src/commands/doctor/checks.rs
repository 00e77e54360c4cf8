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

    /// `may release`, in the user's language.
    fn may(self) -> String {
        match self {
            Act::Read => crate::t!("doctor-may-read"),
            Act::Stop => crate::t!("doctor-may-stop"),
            Act::Release => crate::t!("doctor-may-release"),
            Act::Delete => crate::t!("doctor-may-delete"),
        }
        .into_owned()
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
            crate::t!(
                "doctor-found-from",
                value = show(&f.value),
                from = from_shown(&f.from)
            ),
            false,
        ),
        None => check(
            key,
            what,
            Mark::Fail,
            crate::t!("doctor-not-detected", fix = fix),
            false,
        ),
    }
}

/// Where a detected value came from, in the user's language: the flag and the config are
/// gpumeter's words; a probe's name (`IMDSv2`) stays as it is.
fn from_shown(from: &str) -> String {
    match from {
        "flag" => crate::t!("doctor-from-flag").into_owned(),
        "config" => crate::t!("doctor-from-config").into_owned(),
        other => other.to_string(),
    }
}

/// The report, in the order it is printed.
pub fn checks(detected: &Detected, facts: &Facts) -> Vec<Check> {
    let acts = facts.policy.acts().is_some();
    let mut out = vec![policy_line(facts), nvml_line(facts)];
    let provider = detected.provider.as_ref().map(|p| p.value);
    let mut provider_line = found(
        "provider",
        &crate::t!("doctor-provider"),
        detected.provider.as_ref(),
        |p| p.id().to_string(),
        &crate::t!("doctor-provider-fix"),
    );
    provider_line.blocking = acts && provider.is_none();
    out.push(provider_line);
    out.push(found(
        "instance",
        &crate::t!("doctor-instance"),
        detected.instance.as_ref(),
        Clone::clone,
        &crate::t!("doctor-instance-fix"),
    ));
    out.push(found(
        "region",
        &crate::t!("doctor-region"),
        detected.region.as_ref(),
        Clone::clone,
        &crate::t!("doctor-region-fix"),
    ));
    out.push(found(
        "sku",
        &crate::t!("doctor-sku"),
        detected.instance_type.as_ref(),
        Clone::clone,
        &crate::t!("doctor-sku-fix"),
    ));
    out.extend(detected.problems.iter().map(|p| {
        check(
            "detect",
            &crate::t!("doctor-detection"),
            Mark::Fail,
            p.clone(),
            false,
        )
    }));
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

fn policy_name(p: OnExpiry) -> std::borrow::Cow<'static, str> {
    match p {
        OnExpiry::Alert => crate::t!("doctor-policy-alert"),
        OnExpiry::Stop => crate::t!("doctor-policy-stop"),
        OnExpiry::Release => crate::t!("doctor-policy-release"),
    }
}

fn policy_line(facts: &Facts) -> Check {
    let p = &facts.policy;
    let deadline = p
        .deadline
        .clone()
        .unwrap_or_else(|| crate::t!("doctor-deadline-none").into_owned());
    let config = facts.config.as_deref().map_or_else(
        || crate::t!("doctor-no-config").into_owned(),
        |c| crate::t!("doctor-config", path = c),
    );
    let needs = match p.acts() {
        None => crate::t!("doctor-alerts-only"),
        Some(OnExpiry::Stop) => crate::t!("doctor-acts-stop"),
        Some(_) => crate::t!("doctor-acts-release"),
    };
    check(
        "policy",
        &crate::t!("doctor-policy"),
        Mark::Pass,
        crate::t!(
            "doctor-policy-detail",
            deadline = deadline,
            at_zero = policy_name(p.at_zero),
            on_idle = policy_name(p.on_idle),
            needs = needs,
            config = config
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
            crate::t!("doctor-nvml-fix", why = why.as_str()),
            blocking,
        ),
    }
}

fn credentials_line(provider: Option<ProviderKind>, facts: &Facts, acts: bool) -> Check {
    let line = |mark, detail: String, blocking| {
        check(
            "credentials",
            &crate::t!("doctor-credentials"),
            mark,
            detail,
            blocking,
        )
    };
    let Some(kind) = provider else {
        return line(Mark::Skip, crate::t!("doctor-no-provider").into(), false);
    };
    match kind {
        ProviderKind::Demo => line(
            Mark::Pass,
            crate::t!("doctor-demo-needs-none").into(),
            false,
        ),
        ProviderKind::Command => line(Mark::Skip, crate::t!("doctor-command-keys").into(), false),
        ProviderKind::Aws
        | ProviderKind::Alibaba
        | ProviderKind::Tencent
        | ProviderKind::Lambda
        | ProviderKind::Runpod
        | ProviderKind::Vast
        | ProviderKind::Autodl => match &facts.credentials {
            None => line(Mark::Skip, crate::t!("doctor-not-looked-for").into(), false),
            Some(Probe::Found(from)) => line(
                Mark::Pass,
                crate::t!("doctor-credentials-found", from = from.as_str()),
                false,
            ),
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
            let what = act.may();
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
    let what = &*crate::t!("doctor-watchdog-service");
    match (&facts.service, facts.service_installable) {
        (Some(path), _) => check(
            "watchdog_service",
            what,
            Mark::Pass,
            crate::t!("doctor-service-installed", path = path.as_str()),
            false,
        ),
        (None, true) => check(
            "watchdog_service",
            what,
            Mark::Fail,
            crate::t!("doctor-service-missing"),
            false,
        ),
        (None, false) => check(
            "watchdog_service",
            what,
            Mark::Fail,
            crate::t!("doctor-service-no-systemd"),
            acts,
        ),
    }
}

fn sheet_line(facts: &Facts) -> Check {
    let stale = crate::pricing::sheet::STALE_AFTER_DAYS;
    match &facts.sheet {
        None => check(
            "sheet",
            &crate::t!("doctor-sheet"),
            Mark::Skip,
            crate::t!("doctor-sheet-none"),
            false,
        ),
        Some((id, as_of, age)) if *age > stale => check(
            "sheet",
            &crate::t!("doctor-sheet"),
            Mark::Fail,
            crate::t!(
                "doctor-sheet-stale",
                id = id.as_str(),
                as_of = as_of.as_str(),
                age = age.to_string(),
                limit = stale.to_string()
            ),
            false,
        ),
        Some((id, as_of, age)) => check(
            "sheet",
            &crate::t!("doctor-sheet"),
            Mark::Pass,
            crate::t!(
                "doctor-sheet-ok",
                id = id.as_str(),
                as_of = as_of.as_str(),
                age = age.to_string()
            ),
            false,
        ),
    }
}

fn clock_line(facts: &Facts, acts: bool) -> Check {
    match &facts.clock {
        Clock::Synchronised { from } => check(
            "clock",
            &crate::t!("doctor-clock"),
            Mark::Pass,
            crate::t!("doctor-clock-synchronised", from = from.as_str()),
            false,
        ),
        Clock::NotSynchronised { from } => check(
            "clock",
            &crate::t!("doctor-clock"),
            Mark::Fail,
            crate::t!("doctor-clock-not-synchronised", from = from.as_str()),
            acts,
        ),
        Clock::Unknown => check(
            "clock",
            &crate::t!("doctor-clock"),
            Mark::Skip,
            crate::t!("doctor-clock-unknown"),
            false,
        ),
    }
}

fn zone_line(facts: &Facts) -> Check {
    match &facts.zone {
        Probe::Found(zone) => check(
            "timezone",
            &crate::t!("doctor-zone"),
            Mark::Pass,
            zone.clone(),
            false,
        ),
        Probe::Failed(why) => check(
            "timezone",
            &crate::t!("doctor-zone"),
            Mark::Fail,
            crate::t!("doctor-zone-fix", why = why.as_str()),
            false,
        ),
    }
}

#[cfg(test)]
#[path = "checks_tests.rs"]
mod tests;
