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
    let _ = writeln!(
        out,
        "Spend from {} to {} ({})",
        local(report.since),
        local(report.until),
        tz.iana_name().unwrap_or("local time")
    );
    if report.spend.is_empty() {
        let _ = writeln!(out, "\nNothing was recorded in this window.");
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
            Cell(format!("Day ({})", s.currency)),
            Cell("compute"),
            Cell("bandwidth"),
            Cell("storage"),
            Cell("extras"),
            Cell("total"),
            Cell("idle")
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
        row(out, "Total", &s.total.grouped(), idle.grouped());
        row(out, "Billed", &s.billed.grouped(), String::new());
        let share = s.idle_share_pct().map_or(String::new(), |p| {
            format!(" ({}% of the spend)", fixed(p, 1))
        });
        if !s.unknown.is_empty() {
            let _ = writeln!(
                out,
                "The total is at least this: it leaves out {} unknown: {}",
                s.unknown.len(),
                s.unknown.join("; ")
            );
        }
        let _ = writeln!(out, "Idle spend: {idle}{share}");
        out.push_str(&super::bars::chart(s));
    }
}

fn usage(out: &mut String, report: &Report) {
    let util = match (report.gpu_util_mean_pct, report.gpu_util_max_pct) {
        (Some(mean), Some(max)) => format!(
            "GPU utilisation {}% mean, {}% max",
            fixed_f64(mean, 1),
            fixed_f64(max, 0)
        ),
        _ => "GPU utilisation n/a".into(),
    };
    #[expect(
        clippy::cast_precision_loss,
        reason = "bytes shown to one decimal of a GiB"
    )]
    let gib = report.egress_bytes as f64 / f64::from(1 << 30);
    let _ = writeln!(
        out,
        "\nEnergy {} kWh · {util} · egress {} GiB",
        fixed_f64(report.energy_kwh, 3),
        fixed_f64(gib, 1)
    );
}

fn instances(out: &mut String, report: &Report) {
    if report.instances.is_empty() {
        return;
    }
    let _ = writeln!(out, "\nInstances");
    for i in &report.instances {
        let _ = writeln!(
            out,
            "  {:<20} {:<8} {:<16} {:<10} {:>14}{} (idle {}, billed {}), {} session{}",
            Cell(&i.instance),
            Cell(&i.provider),
            Cell(&i.sku),
            Cell(&i.mode),
            Cell(i.cost.total()),
            match i.unknown.len() {
                0 => String::new(),
                n => format!(" + {n} unknown"),
            },
            Money::new(i.idle, i.cost.currency).grouped(),
            i.billed.total().grouped(),
            i.sessions,
            if i.sessions == 1 { "" } else { "s" }
        );
    }
}

/// Each instance's account to date: what `status` says it has cost, not the window's spend.
fn lifetime(out: &mut String, accounts: &[InstanceAccount]) {
    if accounts.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\nTo date, over each instance's life (as status gives it)"
    );
    for a in accounts {
        let _ = writeln!(out, "  {:<20} {}", Cell(&a.instance), account::line(a));
    }
}

fn actions(out: &mut String, report: &Report, local: &dyn Fn(Timestamp) -> String) {
    let _ = writeln!(
        out,
        "\nActions: {} · alerts: {}",
        report.actions.len(),
        report.alerts
    );
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
        let _ = writeln!(out, "\nNothing seen still billing after a release.");
        return;
    }
    let _ = writeln!(out, "\nStill billing after their instance was released");
    for s in &report.still_billing {
        let r = &s.resource;
        let cost = s
            .monthly
            .map_or_else(|| "price unknown".into(), |m| format!("{m}/month"));
        let size = if r.size_gib == "0" {
            String::new()
        } else {
            format!("{} GiB", r.size_gib)
        };
        let _ = writeln!(
            out,
            "  [ ] {:<12} {:<14} {:<14} {:>9}  {:<10} {cost}  ({} released {})",
            Cell(r.kind.replace('_', " ")),
            Cell(&r.id),
            Cell(&r.name),
            Cell(size),
            Cell(&r.state),
            r.instance,
            local(r.released)
        );
    }
}

fn overlaps(out: &mut String, report: &Report, local: &dyn Fn(Timestamp) -> String) {
    for o in &report.overlaps {
        let _ = writeln!(
            out,
            "\nOverlap: {} and {} ran together for {}h{:02}m ({} to {})",
            o.first,
            o.second,
            o.seconds / 3600,
            o.seconds % 3600 / 60,
            local(o.from),
            local(o.until)
        );
    }
}
