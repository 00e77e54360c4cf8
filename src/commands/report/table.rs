//! The report as text for people and as CSV for spreadsheets (one row per day and currency).

use gpumeter_core::cell::Cell;
use std::fmt::Write as _;

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::account::{self, InstanceAccount};
use super::json::{fixed, fixed_f64};
use crate::ledger::report::Report;
use crate::money::Money;

pub fn csv(report: &Report) -> String {
    let mut out = String::from("date,currency,compute,bandwidth,storage,extras,total,idle\n");
    for s in &report.spend {
        for d in &s.days {
            let c = d.cost.cents();
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{}",
                d.date,
                s.currency,
                c.compute,
                c.bandwidth,
                c.storage,
                c.extras,
                c.total,
                Money::new(d.idle, s.currency).cents_string()
            );
        }
    }
    out
}

pub fn text(report: &Report, accounts: &[InstanceAccount], tz: &TimeZone) -> String {
    let mut out = String::new();
    let local = |t: Timestamp| tz.to_datetime(t).strftime("%Y-%m-%d %H:%M").to_string();
    let zone = tz.iana_name().map_or_else(
        || crate::t!("report-local-time").into_owned(),
        str::to_string,
    );
    let heading = crate::t!(
        "report-spend-from",
        since = local(report.since),
        until = local(report.until),
        zone = zone
    );
    let _ = writeln!(out, "{heading}");
    if report.spend.is_empty() {
        let _ = writeln!(out, "\n{}", crate::t!("report-nothing"));
    }
    spend(&mut out, report);
    usage(&mut out, report);
    instances(&mut out, report);
    lifetime(&mut out, accounts);
    actions(&mut out, report, &local);
    leftovers(&mut out, report, &local);
    overlaps(&mut out, report, &local);
    out
}

fn spend(out: &mut String, report: &Report) {
    for s in &report.spend {
        let _ = writeln!(
            out,
            "\n{:<12} {:>11} {:>11} {:>11} {:>11} {:>12} {:>11}",
            Cell(crate::t!(
                "report-col-day",
                currency = s.currency.to_string()
            )),
            Cell(crate::t!("estimate-col-compute")),
            Cell(crate::t!("estimate-col-bandwidth")),
            Cell(crate::t!("estimate-col-storage")),
            Cell(crate::t!("estimate-col-extras")),
            Cell(crate::t!("estimate-col-total")),
            Cell(crate::t!("report-col-idle"))
        );
        let row = |out: &mut String, label: &str, c: &crate::meter::CentsBreakdown, idle| {
            let line = format!(
                "{:<12} {:>11} {:>11} {:>11} {:>11} {:>12} {:>11}",
                Cell(label),
                Cell(&c.compute),
                Cell(&c.bandwidth),
                Cell(&c.storage),
                Cell(&c.extras),
                Cell(&c.total),
                Cell(idle)
            );
            let _ = writeln!(out, "{}", line.trim_end());
        };
        for d in &s.days {
            let idle = Money::new(d.idle, s.currency).grouped();
            row(out, &d.date.to_string(), &d.cost.grouped(), idle);
        }
        let idle = Money::new(s.idle, s.currency);
        row(
            out,
            &crate::t!("report-total"),
            &s.total.grouped(),
            idle.grouped(),
        );
        row(
            out,
            &crate::t!("report-billed"),
            &s.billed.grouped(),
            String::new(),
        );
        let share = s.idle_share_pct().map_or(String::new(), |p| {
            crate::t!("report-idle-share", pct = fixed(p, 1))
        });
        if !s.unknown.is_empty() {
            let note = crate::t!(
                "report-at-least",
                count = s.unknown.len(),
                unknown = crate::meter::unpriced::all_shown(&s.unknown).join("; ")
            );
            let _ = writeln!(out, "{note}");
        }
        let note = crate::t!("report-idle-spend", idle = idle.to_string(), share = share);
        let _ = writeln!(out, "{note}");
        out.push_str(&super::bars::chart(s));
    }
}

fn usage(out: &mut String, report: &Report) {
    let util = match (report.gpu_util_mean_pct, report.gpu_util_max_pct) {
        (Some(mean), Some(max)) => crate::t!(
            "report-util",
            mean = fixed_f64(mean, 1),
            max = fixed_f64(max, 0)
        ),
        _ => crate::t!("report-util-none").into_owned(),
    };
    #[expect(
        clippy::cast_precision_loss,
        reason = "bytes shown to one decimal of a GiB"
    )]
    let gib = report.egress_bytes as f64 / f64::from(1 << 30);
    let line = crate::t!(
        "report-usage",
        kwh = fixed_f64(report.energy_kwh, 3),
        util = util,
        gib = fixed_f64(gib, 1)
    );
    let _ = writeln!(out, "\n{line}");
    let split = report.egress_split;
    if split.intranet > 0 || split.cross_region > 0 {
        use gpumeter_core::spend::egress_shown::gib;
        let line = crate::t!(
            "report-egress-split",
            internet = gib(split.internet_of(report.egress_bytes)),
            intranet = gib(split.intranet),
            cross = gib(split.cross_region)
        );
        let _ = writeln!(out, "{line}");
    }
}

fn instances(out: &mut String, report: &Report) {
    if report.instances.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{}", crate::t!("report-instances"));
    for i in &report.instances {
        let tail = crate::t!(
            "report-instance-tail",
            idle = Money::new(i.idle, i.cost.currency).grouped(),
            billed = i.billed.total().grouped(),
            sessions = i.sessions
        );
        let _ = writeln!(
            out,
            "  {:<20} {:<8} {:<16} {:<10} {:>14}{}{tail}",
            Cell(&i.instance),
            Cell(&i.provider),
            Cell(&i.sku),
            Cell(mode_shown(&i.mode)),
            Cell(i.cost.total()),
            match i.unknown.len() {
                0 => String::new(),
                n => crate::t!("report-instance-unknown", count = n),
            },
        );
    }
}

/// Each instance's account to date: what `status` says it has cost, not the window's spend.
fn lifetime(out: &mut String, accounts: &[InstanceAccount]) {
    if accounts.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{}", crate::t!("report-to-date"));
    for a in accounts {
        let _ = writeln!(out, "  {:<20} {}", Cell(&a.instance), account::line(a));
    }
}

fn actions(out: &mut String, report: &Report, local: &dyn Fn(Timestamp) -> String) {
    let line = crate::t!(
        "report-actions",
        actions = report.actions.len().to_string(),
        alerts = report.alerts.to_string()
    );
    let _ = writeln!(out, "\n{line}");
    for a in &report.actions {
        let _ = writeln!(
            out,
            "  {}  {:<15} {:<12} {}",
            local(a.at),
            Cell(&a.intent),
            Cell(a.outcome.as_deref().unwrap_or("-")),
            a.answer.as_deref().unwrap_or("")
        );
    }
}

fn leftovers(out: &mut String, report: &Report, local: &dyn Fn(Timestamp) -> String) {
    if report.still_billing.is_empty() {
        let _ = writeln!(out, "\n{}", crate::t!("report-nothing-billing"));
        return;
    }
    let _ = writeln!(out, "\n{}", crate::t!("report-still-billing"));
    for s in &report.still_billing {
        let r = &s.resource;
        let cost = s.monthly.map_or_else(
            || crate::t!("report-price-unknown").into_owned(),
            |m| crate::t!("report-per-month", amount = m.to_string()),
        );
        let released = crate::t!(
            "report-released",
            instance = r.instance.as_str(),
            at = local(r.released)
        );
        let size = if r.size_gib == "0" {
            String::new()
        } else {
            format!("{} GiB", r.size_gib)
        };
        let _ = writeln!(
            out,
            "  [ ] {:<12} {:<14} {:<14} {:>9}  {:<10} {cost}  {released}",
            Cell(kind_shown(&r.kind)),
            Cell(&r.id),
            Cell(&r.name),
            Cell(size),
            Cell(&r.state),
        );
    }
}

fn overlaps(out: &mut String, report: &Report, local: &dyn Fn(Timestamp) -> String) {
    for o in &report.overlaps {
        let line = crate::t!(
            "report-overlap",
            first = o.first.as_str(),
            second = o.second.as_str(),
            hours = (o.seconds / 3600).to_string(),
            minutes = format!("{:02}", o.seconds % 3600 / 60),
            from = local(o.from),
            until = local(o.until)
        );
        let _ = writeln!(out, "\n{line}");
    }
}

/// A leftover's kind as the ledger names it (`public_ip`), in the user's language; a kind
/// this build does not know is shown as the ledger wrote it.
fn kind_shown(kind: &str) -> String {
    let word = match kind {
        "system_disk" => crate::t!("report-kind-system-disk"),
        "data_disk" => crate::t!("report-kind-data-disk"),
        "snapshot" => crate::t!("report-kind-snapshot"),
        "image" => crate::t!("report-kind-image"),
        "public_ip" => crate::t!("report-kind-public-ip"),
        "load_balancer" => crate::t!("report-kind-load-balancer"),
        "network_volume" => crate::t!("report-kind-network-volume"),
        "stopped_instance" => crate::t!("report-kind-stopped-instance"),
        other => return other.replace('_', " "),
    };
    word.into_owned()
}

/// An instance's billing mode as the ledger names it (`on_demand`), in the user's language.
fn mode_shown(mode: &str) -> String {
    let word = match mode {
        "on_demand" => crate::t!("report-mode-on-demand"),
        "spot" => crate::t!("report-mode-spot"),
        "monthly" => crate::t!("report-mode-monthly"),
        "compute_units" => crate::t!("report-mode-compute-units"),
        other => return other.to_string(),
    };
    word.into_owned()
}
