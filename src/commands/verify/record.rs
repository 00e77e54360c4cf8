//! Each verdict kept in the ledger: evidence for a refund request (what was measured, against
//! what, when), and the line the cockpit's GPU panel shows.

use jiff::Timestamp;

use super::print;
use crate::commands::context::Context;
use crate::ledger::{Ledger, Verification, path_in};
use gpumeter_core::verify::VerifyReport;

/// Keeps `report` (and what it was judged from, `doc`) in the ledger of this data directory.
/// Never fails the command: a ledger that cannot be written is said on stderr.
pub fn keep(ctx: &Context, report: &VerifyReport, doc: &print::Document<'_>, at: Timestamp) {
    let kept = serde_json::to_string(doc)
        .map_err(|e| e.to_string())
        .and_then(|json| {
            let row = Verification {
                instance: ctx.config.instance.id.clone(),
                at,
                verdict: report.verdict.word().to_string(),
                summary: report.summary(),
                headline: report.headline.clone(),
                report: json,
            };
            Ledger::open(path_in(&ctx.data_dir, ctx.demo))
                .and_then(|l| l.record_verification(&row))
                .map_err(|e| e.to_string())
        });
    if let Err(e) = kept {
        crate::commands::emit_err(&format!(
            "gpumeter: verify: the verdict is not kept in the ledger: {e}"
        ));
    }
}
