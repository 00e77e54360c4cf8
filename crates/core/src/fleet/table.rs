//! The fleet as a plain-text table: one line per instance, its leftovers indented below it,
//! and the totals.

use std::borrow::Cow;
use std::fmt::Write as _;

use rust_decimal::Decimal;

use super::FleetRow;
use crate::meter::InstanceState;
use crate::t;

/// `3h20m`, `45m`, `2d4h`.
pub fn span(secs: i64) -> String {
    let s = secs.unsigned_abs();
    let sign = if secs < 0 { "-" } else { "" };
    let (d, h, m) = (s / 86_400, s % 86_400 / 3600, s % 3600 / 60);
    if d > 0 {
        format!("{sign}{d}d{h}h")
    } else if h > 0 {
        format!("{sign}{h}h{m:02}m")
    } else {
        format!("{sign}{m}m")
    }
}

/// The most leftovers listed under one row; `fleet --json` lists them all.
const LEFTOVER_LINES: usize = 20;

/// A row's state in the user's language, in the cockpit's words where they are the same.
pub fn state_label(row: &FleetRow) -> Cow<'static, str> {
    match (row.state, &row.error) {
        (_, Some(_)) => t!("fleet-unreadable"),
        (None, None) if row.origin.instance_id.is_empty() => t!("header-no-instance"),
        (Some(InstanceState::Running), _) => t!("state-running"),
        (Some(InstanceState::NoGpu), _) => t!("fleet-no-gpu"),
        (Some(InstanceState::Stopped), _) => t!("state-stopped"),
        (Some(InstanceState::Released) | None, _) => t!("state-released"),
    }
}

fn money(amount: Option<Decimal>, currency: Option<&str>) -> String {
    match (amount, currency) {
        (Some(a), Some(c)) => format!("{} {c}", a.round_dp(2)),
        _ => "—".to_string(),
    }
}

/// A row's amount: `—` when unknown, a lower bound when it leaves lines out.
fn cell(amount: Option<Decimal>, unknown: usize, currency: Option<&str>) -> String {
    match (amount, currency) {
        (Some(a), Some(c)) => bound(a.round_dp(2), unknown, c, ""),
        _ => "—".to_string(),
    }
}

pub fn render(rows: &[FleetRow]) -> String {
    let mut out = String::new();
    let header = [
        t!("fleet-col-account"),
        t!("fleet-col-provider"),
        t!("fleet-col-instance"),
        t!("fleet-col-name"),
        t!("fleet-col-state"),
        t!("fleet-col-burn"),
        t!("fleet-col-uptime"),
        t!("fleet-col-deadline"),
        t!("fleet-col-after-release"),
        t!("fleet-col-flags"),
    ];
    let mut lines: Vec<[String; 10]> = vec![header.map(Cow::into_owned)];
    for row in rows {
        let cur = row.currency.as_deref();
        let flags: Vec<Cow<str>> = row.flags.iter().map(|f| f.shown()).collect();
        lines.push([
            if row.origin.account.is_empty() {
                "—".into()
            } else {
                row.origin.account.clone()
            },
            row.origin.provider.clone(),
            if row.origin.instance_id.is_empty() {
                "—".into()
            } else {
                row.origin.instance_id.clone()
            },
            row.name.clone().unwrap_or_else(|| "—".into()),
            state_label(row).into_owned(),
            if row.running() {
                cell(row.burn_per_hour, row.burn_unknown.len(), cur)
            } else {
                "—".into()
            },
            row.uptime_s.map_or_else(|| "—".into(), span),
            row.deadline_remaining_s
                .map_or_else(|| "—".into(), |s| t!("fleet-in", span = span(s))),
            cell(row.leftover_monthly, row.leftover_unknown.len(), cur),
            flags.join(", "),
        ]);
    }
    let widths: Vec<usize> = (0..10)
        .map(|c| {
            lines
                .iter()
                .map(|l| crate::cell::width(&l[c]))
                .max()
                .unwrap_or(0)
        })
        .collect();
    for (i, line) in lines.iter().enumerate() {
        let mut text = String::new();
        for (c, cell) in line.iter().enumerate() {
            let pad = widths[c].saturating_sub(crate::cell::width(cell));
            let _ = write!(text, "{cell}{}  ", " ".repeat(pad));
        }
        out.push_str(text.trim_end());
        out.push('\n');
        if i == 0 {
            continue;
        }
        let row = &rows[i - 1];
        if let Some(why) = row.shown_error() {
            let _ = writeln!(out, "    ! {why}");
        }
        for l in row.leftovers.iter().take(LEFTOVER_LINES) {
            let size = if l.size_gib.is_zero() {
                String::new()
            } else {
                format!(" {} GiB", l.size_gib)
            };
            let monthly = t!(
                "fleet-per-month",
                amount = money(l.monthly, row.currency.as_deref())
            );
            let kind = l.kind.shown();
            let _ = writeln!(out, "    └ {kind} {}{size}  {monthly}", l.id);
        }
        if row.leftovers.len() > LEFTOVER_LINES {
            let more = row.leftovers.len() - LEFTOVER_LINES;
            let _ = writeln!(out, "    └ … {}", t!("fleet-more", count = more));
        }
    }
    out.push_str(&totals(rows));
    out
}

/// `12.50 USD/h`, or `≥ 12.50 USD/h + 1 unknown` when `unknown` lines are left out of it.
fn bound(known: Decimal, unknown: usize, currency: &str, unit: &str) -> String {
    match unknown {
        0 => format!("{known} {currency}{unit}"),
        n => t!(
            "fleet-bound",
            amount = format!("{known} {currency}{unit}"),
            count = n
        ),
    }
}

/// One currency's totals: burn per hour, a month of it (each row by its own sheet's month),
/// leftovers a month, each with the lines it leaves out; and the running instances.
#[derive(Default)]
struct Totals {
    burn: Decimal,
    month: Decimal,
    burn_unknown: usize,
    left: Decimal,
    left_unknown: usize,
    running: usize,
}

/// Per currency: what the running instances burn and what the leftovers cost a month, each a
/// lower bound naming how many lines it leaves out; then the rows no sheet prices at all.
fn totals(rows: &[FleetRow]) -> String {
    let mut per: Vec<(String, Totals)> = Vec::new();
    let mut unpriced = 0;
    for row in rows {
        let Some(cur) = &row.currency else {
            unpriced += usize::from(row.error.is_none());
            continue;
        };
        let i = per.iter().position(|p| &p.0 == cur).unwrap_or_else(|| {
            per.push((cur.clone(), Totals::default()));
            per.len() - 1
        });
        let t = &mut per[i].1;
        if row.running() {
            match row.burn_per_hour {
                Some(burn) => {
                    t.burn += burn;
                    t.month += burn * Decimal::from(row.month_hours);
                }
                None => t.burn_unknown += 1,
            }
            t.burn_unknown += row.burn_unknown.len();
            t.running += 1;
        }
        t.left += row.leftover_monthly.unwrap_or_default();
        t.left_unknown += row.leftover_unknown.len();
    }
    let mut out = String::new();
    for (cur, t) in per {
        let line = t!(
            "fleet-totals",
            running = t.running,
            burn = bound(
                t.burn.round_dp(2),
                t.burn_unknown,
                &cur,
                &t!("fleet-unit-hour")
            ),
            month = bound(
                t.month.round_dp(0),
                t.burn_unknown,
                &cur,
                &t!("fleet-unit-a-month")
            ),
            left = bound(
                t.left.round_dp(2),
                t.left_unknown,
                &cur,
                &t!("fleet-unit-month")
            ),
        );
        let _ = writeln!(out, "{line}");
    }
    if unpriced > 0 {
        let _ = writeln!(out, "{}", t!("fleet-unpriced", count = unpriced));
    }
    let flagged = rows.iter().filter(|r| !r.flags.is_empty()).count();
    if flagged > 0 {
        let _ = writeln!(out, "{}", t!("fleet-flagged", count = flagged));
    }
    out
}
