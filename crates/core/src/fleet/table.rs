//! The fleet as a plain-text table: one line per instance, its leftovers indented below it,
//! and the totals.

use std::fmt::Write as _;

use rust_decimal::Decimal;

use super::FleetRow;
use crate::meter::InstanceState;

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

pub fn state_label(row: &FleetRow) -> &'static str {
    match (row.state, &row.error) {
        (_, Some(_)) => "unreadable",
        (None, None) if row.origin.instance_id.is_empty() => "no instance",
        (Some(InstanceState::Running), _) => "running",
        (Some(InstanceState::Stopped), _) => "stopped",
        (Some(InstanceState::Released) | None, _) => "released",
    }
}

fn money(amount: Option<Decimal>, currency: Option<&str>) -> String {
    match (amount, currency) {
        (Some(a), Some(c)) => format!("{} {c}", a.round_dp(2)),
        _ => "—".to_string(),
    }
}

pub fn render(rows: &[FleetRow]) -> String {
    let mut out = String::new();
    let header = [
        "ACCOUNT",
        "PROVIDER",
        "INSTANCE",
        "NAME",
        "STATE",
        "BURN/H",
        "UPTIME",
        "DEADLINE",
        "AFTER RELEASE/MO",
        "FLAGS",
    ];
    let mut lines: Vec<[String; 10]> = vec![header.map(str::to_string)];
    for row in rows {
        let cur = row.currency.as_deref();
        let flags: Vec<&str> = row.flags.iter().map(|f| f.label()).collect();
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
            state_label(row).to_string(),
            if row.running() {
                money(row.burn_per_hour, cur)
            } else {
                "—".into()
            },
            row.uptime_s.map_or_else(|| "—".into(), span),
            row.deadline_remaining_s
                .map_or_else(|| "—".into(), |s| format!("in {}", span(s))),
            money(row.leftover_monthly, cur),
            flags.join(", "),
        ]);
    }
    let widths: Vec<usize> = (0..10)
        .map(|c| {
            lines
                .iter()
                .map(|l| l[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for (i, line) in lines.iter().enumerate() {
        let mut text = String::new();
        for (c, cell) in line.iter().enumerate() {
            let pad = widths[c].saturating_sub(cell.chars().count());
            let _ = write!(text, "{cell}{}  ", " ".repeat(pad));
        }
        out.push_str(text.trim_end());
        out.push('\n');
        if i == 0 {
            continue;
        }
        let row = &rows[i - 1];
        if let Some(why) = &row.error {
            let _ = writeln!(out, "    ! {why}");
        }
        for l in row.leftovers.iter().take(LEFTOVER_LINES) {
            let size = if l.size_gib.is_zero() {
                String::new()
            } else {
                format!(" {} GiB", l.size_gib)
            };
            let _ = writeln!(
                out,
                "    └ {} {}{size}  {}/mo",
                l.kind.label(),
                l.id,
                money(l.monthly, row.currency.as_deref())
            );
        }
        if row.leftovers.len() > LEFTOVER_LINES {
            let more = row.leftovers.len() - LEFTOVER_LINES;
            let _ = writeln!(out, "    └ … {more} more (fleet --json lists every one)");
        }
    }
    out.push_str(&totals(rows));
    out
}

/// Per currency: what the running instances burn and what the leftovers cost a month.
fn totals(rows: &[FleetRow]) -> String {
    // Per currency: burn per hour, a month of it (each row by its own sheet's month),
    // leftovers a month, running instances.
    let mut per: Vec<(String, Decimal, Decimal, Decimal, usize)> = Vec::new();
    for row in rows {
        let Some(cur) = &row.currency else { continue };
        let i = per.iter().position(|p| &p.0 == cur).unwrap_or_else(|| {
            per.push((cur.clone(), Decimal::ZERO, Decimal::ZERO, Decimal::ZERO, 0));
            per.len() - 1
        });
        if row.running() {
            let burn = row.burn_per_hour.unwrap_or_default();
            per[i].1 += burn;
            per[i].2 += burn * Decimal::from(row.month_hours);
            per[i].4 += 1;
        }
        per[i].3 += row.leftover_monthly.unwrap_or_default();
    }
    let mut out = String::new();
    for (cur, burn, month, left, n) in per {
        let _ = writeln!(
            out,
            "{n} running: {} {cur}/h ({} {cur} a month at this rate); leftovers after release: {} {cur}/month",
            burn.round_dp(2),
            month.round_dp(0),
            left.round_dp(2)
        );
    }
    let flagged = rows.iter().filter(|r| !r.flags.is_empty()).count();
    if flagged > 0 {
        let _ = writeln!(out, "{flagged} flagged: look at these first");
    }
    out
}
