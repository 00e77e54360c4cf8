//! The refund case's CSV files (RFC 4180): the actions, the meter's minutes and the bill
//! lines behind the findings.

use super::super::bill::BillLine;
use super::super::report::AuditReport;
use super::{EvidenceAction, EvidenceMinute};

/// `actions.csv`: one row an action.
pub fn actions_csv(actions: &[EvidenceAction]) -> String {
    let mut out = String::from("at,instance,intent,outcome,answer,request\n");
    for a in actions {
        row(
            &mut out,
            &[
                &a.at.to_string(),
                a.instance.as_deref().unwrap_or(""),
                &a.intent,
                a.outcome.as_deref().unwrap_or(""),
                a.answer.as_deref().unwrap_or(""),
                a.request.as_deref().unwrap_or(""),
            ],
        );
    }
    out
}

/// `minutes.csv`: one row a minute the meter recorded.
pub fn minutes_csv(minutes: &[EvidenceMinute]) -> String {
    let mut out = String::from(
        "instance,start,currency,compute,bandwidth,storage,extras,idle,gpu_util_mean_pct\n",
    );
    for m in minutes {
        let [c, b, s, x] = m.cost;
        row(
            &mut out,
            &[
                &m.instance,
                &m.start.to_string(),
                c.currency.as_str(),
                &c.amount.to_string(),
                &b.amount.to_string(),
                &s.amount.to_string(),
                &x.amount.to_string(),
                if m.idle { "true" } else { "false" },
                &m.gpu_util_mean_pct
                    .map_or_else(String::new, |u| format!("{u:.1}")),
            ],
        );
    }
    out
}

/// `bill-lines.csv`: the lines behind the findings, each once, with its file and line.
pub fn bill_lines_csv(report: &AuditReport, lines: &[BillLine]) -> String {
    let mut picked: Vec<(usize, &str)> = Vec::new();
    for f in &report.findings {
        for &i in f.lines() {
            if !picked.iter().any(|(n, _)| *n == i) {
                picked.push((i, f.kind().name()));
            }
        }
    }
    picked.sort_unstable();
    let mut out = String::from(
        "file,line,finding,resource_id,service,usage,region,to_region,start,end,quantity,unit,billed,currency\n",
    );
    for (i, finding) in picked {
        let Some(l) = lines.get(i) else { continue };
        row(
            &mut out,
            &[
                &l.source.file,
                &l.source.line.to_string(),
                finding,
                l.resource_id.as_deref().unwrap_or(""),
                &l.service,
                &l.usage,
                l.region.as_deref().unwrap_or(""),
                l.to_region.as_deref().unwrap_or(""),
                &l.start.to_string(),
                &l.end.to_string(),
                &l.quantity.map_or_else(String::new, |q| q.to_string()),
                l.unit.as_deref().unwrap_or(""),
                &l.billed.amount.to_string(),
                l.billed.currency.as_str(),
            ],
        );
    }
    out
}

/// Appends one CSV row (RFC 4180): a field with a comma, a quote or a line break is quoted;
/// text a spreadsheet would run as a formula gets a leading `'`.
fn row(out: &mut String, fields: &[&str]) {
    for (n, f) in fields.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        let formula =
            f.starts_with(['=', '+', '@']) || (f.starts_with('-') && f.parse::<f64>().is_err());
        let f = if formula {
            format!("'{f}")
        } else {
            (*f).to_string()
        };
        if f.contains([',', '"', '\n', '\r']) {
            out.push('"');
            out.push_str(&f.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(&f);
        }
    }
    out.push('\n');
}
