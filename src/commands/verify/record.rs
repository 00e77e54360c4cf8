//! Each verdict kept in the ledger: evidence for a refund request (what was measured, against
//! what, when), and the line the cockpit's GPU panel shows.

use jiff::Timestamp;

use super::on_fail::OnFailOutcome;
use super::print;
use crate::commands::context::Context;
use crate::ledger::record::{ActionRecord, EventKind, EventLevel, FROM_VERIFY, Outcome};
use crate::ledger::{EventRecord, Ledger, Verification, path_in};
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
        let said = crate::t!("verify-not-kept", error = e.as_str());
        crate::commands::emit_err(&format!("gpumeter: {said}"));
    }
}

/// Keeps what `--on-fail` did about a failed verdict as an action of verify's: the action, the
/// verdict's headline it answered, what happened and whether it was done. A stop or release is
/// also kept as the action itself, with the provider's read-back. Never fails the command.
pub fn keep_on_fail(ctx: &Context, outcome: &OnFailOutcome, headline: &str, at: Timestamp) {
    let intent = format!("verify on-fail {}", outcome.action);
    let answer = outcome.lines.join("; ");
    let request = serde_json::json!({
        "action": "verify_on_fail",
        "on_fail": outcome.action,
        "verdict": "fail",
        "headline": gpumeter_core::text::one_line(headline, 300),
    });
    let event = EventRecord {
        at,
        session: None,
        instance: ctx.config.instance.id.clone(),
        kind: EventKind::Action,
        level: if outcome.done {
            EventLevel::Info
        } else {
            EventLevel::Error
        },
        text: format!("{intent}: {answer}"),
        action: Some(ActionRecord {
            intent,
            request: request.to_string(),
            answer,
            outcome: if outcome.done {
                Outcome::Confirmed
            } else {
                Outcome::Failed
            },
        }),
        origin: Some(FROM_VERIFY),
    };
    let kept = Ledger::open(path_in(&ctx.data_dir, ctx.demo))
        .and_then(|mut l| l.record_event(event).map(|_| ()));
    if let Err(e) = kept {
        let said = crate::t!("verify-on-fail-not-kept", error = e.to_string());
        crate::commands::emit_err(&format!("gpumeter: {said}"));
    }
}
