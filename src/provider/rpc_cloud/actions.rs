//! Release, stop and start of one instance, each read back before it is reported. A call that
//! fails leaves the outcome to the read-back: if DescribeInstances shows the effect, it
//! happened; if it does not, the report says so and is not confirmed. A refusal by the
//! provider, or a failed call that cannot be read back, is the error.

use async_trait::async_trait;
use jiff::Timestamp;

use super::{Call, CallError, InstanceApi, Listed, StoppedMode};
use crate::provider::{Action, ActionReport, ProviderError};

/// `(confirmed, summary, calls made)`.
pub type Outcome = (bool, String, Vec<String>);

/// A snapshot-clean as the user confirmed it: how many to keep, whether to take a final one
/// first, and the snapshots the user was shown for deletion.
pub type SnapshotPlan<'a> = (usize, bool, Option<&'a [String]>);

/// The actions a cloud writes itself: its own release deadline, and its snapshot-clean where
/// it has one.
#[async_trait]
pub trait OwnActions: InstanceApi {
    /// Sets (or with `None` cancels) the deadline the provider holds, read back.
    async fn set_deadline(&self, at: Option<Timestamp>) -> Result<Outcome, ProviderError>;
    /// Keeps the newest snapshots as `plan` says. A cloud whose adapter does not call the API
    /// that holds its snapshots says so.
    async fn snapshot_clean(&self, _plan: SnapshotPlan<'_>) -> Result<Outcome, ProviderError> {
        Err(ProviderError::unsupported(
            self.common().kind.id(),
            crate::t!("rpc-no-snapshot-api"),
        ))
    }
}

/// Runs `action`: release, stop and start here, the rest through the cloud's [`OwnActions`].
pub async fn run<C: OwnActions>(c: &C, action: &Action) -> Result<ActionReport, ProviderError> {
    let (confirmed, summary, calls) = match action {
        Action::Release => release(c).await?,
        Action::Stop => stop(c).await?,
        Action::Start => start(c).await?,
        Action::Cleanup { .. } => {
            return Err(crate::provider::cleanup::not_here(c.common().kind.id()));
        }
        Action::SnapshotClean {
            keep,
            final_snapshot,
            delete,
        } => {
            c.snapshot_clean((*keep, *final_snapshot, delete.as_deref()))
                .await?
        }
        Action::SetDeadline { at } => c.set_deadline(*at).await?,
    };
    Ok(ActionReport {
        action: action.clone(),
        confirmed,
        summary,
        calls,
    })
}

type Read<C> = Result<Option<<C as InstanceApi>::Instance>, <C as InstanceApi>::Error>;

fn status_of<C: InstanceApi>(read: &Read<C>) -> String {
    match read {
        Ok(Some(i)) => crate::t!("rpc-status-lists-as", state = i.state()),
        Ok(None) => crate::t!("rpc-status-not-listed").into_owned(),
        Err(e) => crate::t!("rpc-status-unread", error = e.to_string()),
    }
}

/// The read-back `until` each call waits for.
fn until<C: InstanceApi>(call: Call) -> String {
    let w = C::WORDS;
    match call {
        Call::Release => crate::t!("rpc-until-gone").into_owned(),
        Call::Stop => crate::t!(
            "rpc-until-stopped",
            stopped = w.stopped,
            field = w.stopped_mode.field
        ),
        Call::Start => w.running.into(),
    }
}

/// The calls `call` would make on instance `id`, without making them (`--dry-run`).
pub fn plan<C: InstanceApi>(c: &C, call: Call, id: &str) -> Vec<String> {
    let mut calls = Vec::new();
    if call == Call::Start {
        calls.push(c.describe_line(id));
    }
    calls.push(c.call_line(call, id));
    calls.push(c.readback_line(id, &until::<C>(call)));
    calls
}

/// Reads the instance until `done` holds, at most `attempts` times; a refused key ends it.
/// Not listed counts only when several reads in a row agree.
pub async fn poll<C: InstanceApi>(
    c: &C,
    id: &str,
    attempts: u32,
    done: impl Fn(Option<&C::Instance>) -> bool,
) -> Read<C> {
    c.readback()
        .poll_listed(
            attempts,
            || c.describe_instance(id),
            done,
            CallError::is_auth,
        )
        .await
}

/// Sends `call`, then reads the instance back until `done` holds. Returns the call's answer,
/// the read and the calls made.
async fn send_and_read<C: InstanceApi>(
    c: &C,
    call: Call,
    id: &str,
    mut calls: Vec<String>,
    done: impl Fn(Option<&C::Instance>) -> bool,
) -> (Result<(), C::Error>, Read<C>, Vec<String>) {
    calls.push(c.call_line(call, id));
    let sent = c.send(call, id).await;
    if sent.is_ok() && call != Call::Start {
        c.saw(id);
    }
    let attempts = match &sent {
        Err(e) if call == Call::Release && e.is_not_found() => 1,
        _ => c.readback().attempts_after(&sent),
    };
    calls.push(c.readback_line(id, &until::<C>(call)));
    let read = poll(c, id, attempts, done).await;
    (sent, read, calls)
}

/// The summary of a call whose effect the read-back did not show; a refusal, or a failed call
/// that could not be read back either, is the error.
fn not_shown<C: InstanceApi>(
    call: Call,
    sent: &Result<(), C::Error>,
    read: &Read<C>,
) -> Result<String, ProviderError> {
    let name = C::WORDS.call(call);
    match (sent, read) {
        (Err(e), _) if e.is_refusal() => Err(e.clone().into()),
        (Err(e), Err(_)) => Err(e.clone().into()),
        (Ok(()), _) => Ok(crate::t!(
            "rpc-accepted-not-shown",
            call = name,
            status = status_of::<C>(read)
        )),
        (Err(e), _) => Ok(crate::t!(
            "rpc-failed-not-shown",
            call = name,
            error = e.to_string(),
            status = status_of::<C>(read)
        )),
    }
}

/// Releases the instance, read back until the provider no longer lists it (or lists it in its
/// recycle bin).
pub async fn release<C: InstanceApi>(c: &C) -> Result<Outcome, ProviderError> {
    let id = c.instance_id().await?;
    let gone = |i: Option<&C::Instance>| i.is_none_or(|i| c.recycled(i));
    let (sent, read, calls) = send_and_read(c, Call::Release, &id, Vec::new(), gone).await;
    let gone_already = matches!(&sent, Err(e) if e.is_not_found());
    // Not listed after a call that was not accepted: released only if it was ever seen.
    if sent.is_err() && matches!(read, Ok(None)) {
        c.absent(&id)?;
    }
    let summary = match &read {
        Ok(None) if gone_already => crate::t!("rpc-already-released", id = id.as_str()),
        Ok(None) => crate::t!(
            "rpc-released",
            id = id.as_str(),
            note = c.leftover_note(&id).await
        ),
        Ok(Some(i)) if gone(Some(i)) => crate::t!(
            "rpc-recycled",
            id = id.as_str(),
            state = i.state(),
            note = c.leftover_note(&id).await
        ),
        _ => not_shown::<C>(Call::Release, &sent, &read)?,
    };
    let confirmed = matches!(&read, Ok(found) if gone(found.as_ref()));
    Ok((confirmed, summary, calls))
}

/// Stops the instance, read back until it is stopped; the summary says what its stopped mode
/// leaves billing.
pub async fn stop<C: InstanceApi>(c: &C) -> Result<Outcome, ProviderError> {
    let id = c.instance_id().await?;
    let stopped = |i: &C::Instance| i.state() == C::WORDS.stopped;
    let (sent, read, calls) =
        send_and_read(c, Call::Stop, &id, Vec::new(), |i| i.is_none_or(stopped)).await;
    if matches!(read, Ok(None)) {
        c.absent(&id)?;
    }
    let summary = match &read {
        Ok(None) => crate::t!("rpc-stop-released", id = id.as_str()),
        Ok(Some(i)) if stopped(i) => stop_summary(
            &C::WORDS.stopped_mode,
            &id,
            c.asked_mode(),
            i.stopped_mode(),
        ),
        _ => not_shown::<C>(Call::Stop, &sent, &read)?,
    };
    let confirmed = matches!(&read, Ok(Some(i)) if stopped(i));
    Ok((confirmed, summary, calls))
}

/// What a stop of `id` that asked for mode `asked` and read back `mode` means for the bill.
pub fn stop_summary(words: &StoppedMode, id: &str, asked: &str, mode: &str) -> String {
    let StoppedMode {
        field,
        stop_charging: (stop, still_bills),
        keep_charging: keep,
    } = words;
    if mode == *stop {
        crate::t!(
            "rpc-stopped-mode",
            id = id,
            mode = *stop,
            still_bills = still_bills()
        )
    } else if mode == *keep && asked == *stop {
        crate::t!(
            "rpc-stopped-still-charging",
            id = id,
            keep = *keep,
            stop = *stop
        )
    } else if mode == *keep {
        crate::t!("rpc-stopped-charging-as-asked", id = id, keep = *keep)
    } else {
        crate::t!(
            "rpc-stopped-unknown-mode",
            id = id,
            field = *field,
            mode = mode
        )
    }
}

/// Starts a stopped instance, read back until the provider lists it running (it goes through
/// a starting state first). The instance is read before: one already running, or no longer
/// listed, is left alone.
pub async fn start<C: InstanceApi>(c: &C) -> Result<Outcome, ProviderError> {
    let id = c.instance_id().await?;
    let running_word = C::WORDS.running;
    let released = || crate::t!("rpc-start-released", id = id.as_str());
    let calls = vec![c.describe_line(&id)];
    match c.describe_instance(&id).await.map_err(Into::into)? {
        None => {
            c.absent(&id)?;
            return Ok((false, released(), calls));
        }
        Some(i) if i.state() == running_word => {
            return Ok((
                true,
                crate::t!(
                    "rpc-already-running",
                    id = id.as_str(),
                    running = running_word
                ),
                calls,
            ));
        }
        Some(_) => {}
    }
    let running = |i: &C::Instance| i.state() == running_word;
    let (sent, read, calls) =
        send_and_read(c, Call::Start, &id, calls, |i| i.is_none_or(running)).await;
    if matches!(read, Ok(None)) {
        c.absent(&id)?;
    }
    let summary = match &read {
        Ok(None) => released(),
        Ok(Some(i)) if running(i) => {
            crate::t!("rpc-started", id = id.as_str(), running = running_word)
        }
        _ => not_shown::<C>(Call::Start, &sent, &read)?,
    };
    let confirmed = matches!(&read, Ok(Some(i)) if running(i));
    Ok((confirmed, summary, calls))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::alibaba::AlibabaCloud;
    use crate::provider::tencent::TencentCloud;

    #[test]
    fn stop_summaries_read_in_chinese() {
        use crate::i18n::{Lang, scoped};
        let words = TencentCloud::WORDS.stopped_mode;
        let summary = |asked: &str, mode: &str| {
            scoped(Lang::ZhCn, || stop_summary(&words, "ins-1", asked, mode))
        };
        let stopped = summary("STOP_CHARGING", "STOP_CHARGING");
        assert_eq!(
            stopped,
            "ins-1 已停止（STOP_CHARGING）：CPU 和内存不再计费；磁盘、带宽和镜像仍在计费"
        );
        let kept = summary("STOP_CHARGING", "KEEP_CHARGING");
        assert!(
            kept.contains("ins-1 已停止") && kept.contains("KEEP_CHARGING"),
            "{kept}"
        );
    }

    #[test]
    fn stop_summaries_tell_the_billing_truth() {
        let clouds = [
            (AlibabaCloud::WORDS.stopped_mode, "Not-applicable"),
            (TencentCloud::WORDS.stopped_mode, "NOT_APPLICABLE"),
        ];
        for (words, other) in clouds {
            let (stop, keep) = (words.stop_charging.0, words.keep_charging);
            let summary = |asked: &str, mode: &str| stop_summary(&words, "i-1", asked, mode);
            let kept = format!("still charging compute ({keep})");
            assert!(summary(stop, keep).contains(&kept));
            assert!(summary(stop, stop).contains("no longer bill"));
            assert!(summary(stop, other).contains("assume compute still bills"));
            assert!(summary(keep, keep).contains(&format!("({keep}, as asked)")));
        }
        let alibaba = AlibabaCloud::WORDS.stopped_mode;
        let stopped = stop_summary(&alibaba, "i-1", "StopCharging", "StopCharging");
        assert!(stopped.contains("compute no longer bills"));
    }
}
