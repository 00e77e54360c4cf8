//! The refund case's CSV files (RFC 4180): the actions, the meter's minutes and the bill
//! lines behind the findings.

use std::collections::BTreeMap;

use super::super::bill::BillLine;
use super::super::report::AuditReport;
use super::{EvidenceAction, EvidenceMinute};

/// `actions.csv`: one row an action.
pub fn actions_csv(actions: &[EvidenceAction]) -> String {
    let mut out = Table::new("at,instance,intent,outcome,answer,request");
    for a in actions {
        out.row(&[
            &a.at.to_string(),
            a.instance.as_deref().unwrap_or(""),
            &a.intent,
            a.outcome.as_deref().unwrap_or(""),
            a.answer.as_deref().unwrap_or(""),
            a.request.as_deref().unwrap_or(""),
        ]);
    }
    out.finish()
}

/// `minutes.csv`: one row a minute the meter recorded.
pub fn minutes_csv(minutes: &[EvidenceMinute]) -> String {
    let mut out = Table::new(
        "instance,start,currency,compute,bandwidth,storage,extras,idle,gpu_util_mean_pct",
    );
    for m in minutes {
        let [c, b, s, x] = m.cost;
        out.row(&[
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
        ]);
    }
    out.finish()
}

/// `bill-lines.csv`: the lines behind the findings, each once, with its file and line.
pub fn bill_lines_csv(report: &AuditReport, lines: &[BillLine]) -> String {
    bill_lines_csv_of(report, |i| lines.get(i))
}

/// [`bill_lines_csv`] with the bill's `index`-th line from `line`: the edge reads back only
/// the lines behind the findings.
pub fn bill_lines_csv_of<'a>(
    report: &AuditReport,
    line: impl Fn(usize) -> Option<&'a BillLine>,
) -> String {
    let mut picked: BTreeMap<usize, &str> = BTreeMap::new();
    for f in &report.findings {
        for &i in f.lines() {
            picked.entry(i).or_insert(f.kind().name());
        }
    }
    let mut out = Table::new(
        "file,line,finding,resource_id,service,usage,region,to_region,start,end,quantity,unit,billed,currency",
    );
    for (i, finding) in picked {
        let Some(l) = line(i) else { continue };
        out.row(&[
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
        ]);
    }
    out.finish()
}

/// A CSV file built row by row: RFC 4180 quoting by the csv crate, `\n` line ends, and text a
/// spreadsheet would run as a formula given a leading `'`.
struct Table(csv::Writer<Vec<u8>>);

impl Table {
    fn new(header: &str) -> Self {
        let mut w = csv::WriterBuilder::new()
            .terminator(csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        // Writing to memory cannot fail on its own; every row has the header's width.
        let _ = w.write_record(header.split(','));
        Table(w)
    }

    fn row(&mut self, fields: &[&str]) {
        let defused = fields.iter().map(|f| {
            let formula =
                f.starts_with(['=', '+', '@']) || (f.starts_with('-') && f.parse::<f64>().is_err());
            if formula {
                format!("'{f}")
            } else {
                (*f).to_string()
            }
        });
        let _ = self.0.write_record(defused);
    }

    fn finish(self) -> String {
        let bytes = self.0.into_inner().unwrap_or_default();
        String::from_utf8(bytes).unwrap_or_default()
    }
}
