//! Release, stop and snapshot-clean on EC2, each followed by a read-back: the outcome is
//! `(confirmed, what EC2 says now)`, and `confirmed` comes only from the read-back.
//!
//! TerminateInstances, StopInstances and DeleteSnapshot are idempotent at EC2 (a repeat finds the
//! work done, or answers NotFound, which counts as done), so they are sent as safe to retry.
//! CreateSnapshot has no ClientToken: it is sent once, tagged with a random token, and after a
//! failure that leaves the outcome unknown the tag tells whether it was made.

use super::fetch::{Session, filter, instance_param, owned_by_self};
use super::inventory::{Seen, state};
use super::query::Ec2Error;
use super::xml;
use crate::meter::InstanceState;
use crate::provider::http::Repeat;
use crate::provider::readback::{EMPTY_READS, Readback};
use crate::provider::{ProviderError, SnapshotPlan};

pub type Outcome = (bool, String);

/// The tag key that marks a snapshot this adapter asked for.
pub const TOKEN_TAG: &str = "gpumeter-token";

fn state_of(instance: Option<&xml::Instance>) -> Option<(&str, InstanceState)> {
    let i = instance?;
    Some((i.state.as_str(), state(&i.state)?))
}

/// The instance as EC2 lists it: `None` only when EC2 answers not-found for the id, or leaves
/// it out of [`EMPTY_READS`] answers in a row, `readback.interval` apart.
async fn listed(
    s: &mut Session<'_>,
    id: &str,
    readback: Readback,
) -> Result<Option<xml::Instance>, Ec2Error> {
    let mut empty = 0;
    loop {
        match s
            .list("DescribeInstances", &instance_param(id), xml::instances)
            .await
        {
            Ok(found) => match found.into_iter().find(|i| i.id == id) {
                Some(i) => return Ok(Some(i)),
                None => empty += 1,
            },
            Err(e) if e.code() == Some("InvalidInstanceID.NotFound") => return Ok(None),
            Err(e) => return Err(e),
        }
        if empty >= EMPTY_READS {
            return Ok(None);
        }
        tokio::time::sleep(readback.interval).await;
    }
}

/// `done` (what was accepted), and that the read-back after it failed with `e`.
pub fn read_failed(done: &str, e: &impl std::fmt::Display) -> String {
    crate::t!("aws-read-failed", done = done, error = e.to_string())
}

/// `call` accepted, in a read-back's words.
pub fn accepted(call: &str) -> String {
    crate::t!("aws-call-accepted", call = call)
}

async fn read_back(
    s: &mut Session<'_>,
    (id, readback): (&str, Readback),
    want: InstanceState,
    done: &str,
) -> Outcome {
    match listed(s, id, readback).await {
        Ok(None) if want == InstanceState::Released => {
            (true, crate::t!("aws-read-released", done = done))
        }
        Ok(None) => (false, crate::t!("aws-read-not-listed").into_owned()),
        Ok(Some(i)) => match state(&i.state) {
            Some(now) if now == want => (
                true,
                crate::t!("aws-read-done-state", done = done, state = i.state),
            ),
            _ => (false, crate::t!("aws-read-state", state = i.state)),
        },
        Err(e) => (false, read_failed(done, &e)),
    }
}

/// What an instance EC2 does not list means, decided by the core's rule ([`crate::provider::Seen::absent`]):
/// `Ok` when this data directory has seen it, so it is released; else the error to show.
pub type Absent<'a> = &'a (dyn Fn() -> Result<(), ProviderError> + Send + Sync);

pub async fn release(
    s: &mut Session<'_>,
    (id, readback): (&str, Readback),
    absent: Absent<'_>,
) -> Result<Outcome, ProviderError> {
    let before = listed(s, id, readback).await?;
    match state_of(before.as_ref()) {
        None if before.is_none() => {
            absent()?;
            return Ok((true, crate::t!("aws-already-released-seen").into_owned()));
        }
        Some((name, InstanceState::Released)) => {
            return Ok((true, crate::t!("aws-already-released-state", state = name)));
        }
        _ => {}
    }
    match s
        .call("TerminateInstances", &instance_param(id), Repeat::Safe)
        .await
    {
        Ok(body) => xml::parse_answer(&body, "TerminateInstances")
            .map(|_| ())
            .map_err(|m| Ec2Error::malformed("TerminateInstances", &m))?,
        // EC2 listed it a moment ago: it went between the two calls.
        Err(e) if e.code() == Some("InvalidInstanceID.NotFound") => {
            return Ok((true, crate::t!("aws-already-released-gone").into_owned()));
        }
        Err(e) => return Err(e.into()),
    }
    Ok(read_back(
        s,
        (id, readback),
        InstanceState::Released,
        &accepted("TerminateInstances"),
    )
    .await)
}

/// `StopInstances` of a running instance, read back until EC2 shows it `stopping` or `stopped`.
pub const STOP: (&str, &str, InstanceState) = ("stop", "StopInstances", InstanceState::Stopped);
/// `StartInstances` of a stopped instance, read back until EC2 shows it `pending` or `running`.
pub const START: (&str, &str, InstanceState) = ("start", "StartInstances", InstanceState::Running);

/// Sends `call` ([`STOP`] or [`START`]) to move the instance into `want` (`verb` picks the
/// user's word),
/// unless it is already there or released, then reads it back.
pub async fn change_state(
    s: &mut Session<'_>,
    (id, readback): (&str, Readback),
    absent: Absent<'_>,
    (verb, call, want): (&str, &str, InstanceState),
) -> Result<Outcome, ProviderError> {
    let before = listed(s, id, readback).await?;
    match state_of(before.as_ref()) {
        None => {
            absent()?;
            return Ok((
                false,
                crate::t!("aws-released-not-listed-nothing-to", verb = verb),
            ));
        }
        Some((name, InstanceState::Released)) => {
            return Ok((
                false,
                crate::t!("aws-released-nothing-to", state = name, verb = verb),
            ));
        }
        Some((name, now)) if now == want => {
            let already = if want == InstanceState::Stopped {
                crate::t!("aws-already-stopped", state = name)
            } else {
                crate::t!("aws-already-running", state = name)
            };
            return Ok((true, already));
        }
        Some(_) => {}
    }
    let body = s.call(call, &instance_param(id), Repeat::Safe).await?;
    xml::parse_answer(&body, call).map_err(|m| Ec2Error::malformed(call, &m))?;
    Ok(read_back(s, (id, readback), want, &accepted(call)).await)
}

fn token() -> String {
    format!("{:016x}{:016x}", fastrand::u64(..), fastrand::u64(..))
}

/// CreateSnapshot of `volume`, sent once; after an unknown outcome the tag is looked up.
async fn final_snapshot(s: &mut Session<'_>, volume: &str) -> Result<String, Ec2Error> {
    let token = token();
    let params = vec![
        ("VolumeId".to_string(), volume.to_string()),
        ("Description".into(), "gpumeter final snapshot".into()),
        ("TagSpecification.1.ResourceType".into(), "snapshot".into()),
        ("TagSpecification.1.Tag.1.Key".into(), TOKEN_TAG.into()),
        ("TagSpecification.1.Tag.1.Value".into(), token.clone()),
    ];
    let missing = || Ec2Error::Malformed {
        action: "CreateSnapshot".into(),
        what: crate::t!("aws-malformed-no-snapshot-id").into_owned(),
    };
    match s.call("CreateSnapshot", &params, Repeat::Once).await {
        Ok(body) => {
            let doc = xml::parse_answer(&body, "CreateSnapshot")
                .map_err(|m| Ec2Error::malformed("CreateSnapshot", &m))?;
            xml::created_snapshot(&doc).ok_or_else(missing)
        }
        Err(e @ Ec2Error::Http { .. }) => {
            let tag = format!("tag:{TOKEN_TAG}");
            let found = s
                .list(
                    "DescribeSnapshots",
                    &owned_by_self(filter(&tag, &[&token])),
                    xml::snapshots,
                )
                .await?;
            found.into_iter().next().map(|snap| snap.id).ok_or(e)
        }
        Err(e) => Err(e),
    }
}

/// Reads snapshot `id` of `volume` back until EC2 says `completed`, within `readback`'s bound:
/// `Err` with the last status seen (`pending`, `error`, `not listed`, or that it is another
/// volume's) when it does not get there. An id answered for a snapshot that is not of `volume`
/// backs nothing up.
// A `String` error: the last status seen, said in the action's report; nothing matches on it.
async fn until_completed(
    s: &mut Session<'_>,
    id: &str,
    volume: &str,
    readback: Readback,
) -> Result<(), String> {
    let mut status = crate::t!("aws-snapshot-not-listed").into_owned();
    for attempt in 0..readback.attempts.max(1) {
        if attempt > 0 {
            tokio::time::sleep(readback.interval).await;
        }
        if let Ok(found) = s
            .list(
                "DescribeSnapshots",
                &owned_by_self(filter("snapshot-id", &[id])),
                xml::snapshots,
            )
            .await
            && let Some(snap) = found.iter().find(|f| f.id == id)
        {
            match snap.volume_id.as_deref() {
                Some(v) if v == volume => status.clone_from(&snap.status),
                other => {
                    let none = crate::t!("aws-snapshot-no-volume");
                    return Err(crate::t!(
                        "aws-snapshot-other-volume",
                        other = other.unwrap_or(&none),
                        volume = volume
                    ));
                }
            }
        }
        if status == "completed" || status == "error" {
            break;
        }
    }
    if status == "completed" {
        Ok(())
    } else {
        Err(status)
    }
}

/// Deletes exactly the snapshots `plan` lists (the core's [`SnapshotPlan`]: a final one counts
/// toward `keep`, and is always kept) and reads the snapshots back. With a final snapshot
/// nothing is deleted before EC2 reads it back `completed`: if it is not within `readback`'s
/// bound, nothing is.
pub async fn snapshot_clean(
    s: &mut Session<'_>,
    seen: &Seen,
    plan: &SnapshotPlan,
    take_final: bool,
    readback: Readback,
) -> Result<Outcome, Ec2Error> {
    let made = if take_final {
        let volume = seen.root_volume().ok_or_else(|| Ec2Error::Malformed {
            action: "CreateSnapshot".into(),
            what: crate::t!("aws-malformed-no-root-volume").into_owned(),
        })?;
        let id = final_snapshot(s, volume).await?;
        if let Err(status) = until_completed(s, &id, volume, readback).await {
            return Ok((
                false,
                crate::t!(
                    "aws-final-not-completed",
                    id = id.as_str(),
                    status = status,
                    reads = readback.attempts.max(1).to_string()
                ),
            ));
        }
        Some(id)
    } else {
        None
    };
    let kept = plan.kept.len() + usize::from(made.is_some());
    let doomed = &plan.deleted;
    let mut refused = Vec::new();
    for id in doomed {
        let params = vec![("SnapshotId".to_string(), id.clone())];
        match s.call("DeleteSnapshot", &params, Repeat::Safe).await {
            Ok(_) => {}
            Err(e) if e.code() == Some("InvalidSnapshot.NotFound") => {}
            Err(e) => refused.push(e.to_string()),
        }
    }
    let mut check: Vec<&str> = doomed.iter().map(String::as_str).collect();
    check.extend(made.as_deref());
    if check.is_empty() {
        return Ok((
            true,
            crate::t!("aws-clean-nothing", kept = kept.to_string()),
        ));
    }
    let left = match s
        .list(
            "DescribeSnapshots",
            &owned_by_self(filter("snapshot-id", &check)),
            xml::snapshots,
        )
        .await
    {
        Ok(left) => left,
        Err(e) => {
            return Ok((
                false,
                crate::t!("aws-clean-read-failed", error = e.to_string()),
            ));
        }
    };
    let still: Vec<&str> = doomed
        .iter()
        .filter(|d| left.iter().any(|l| &l.id == *d))
        .map(String::as_str)
        .collect();
    let final_ok = made
        .as_ref()
        .is_none_or(|m| left.iter().any(|l| &l.id == m));
    let mut summary = crate::t!(
        "aws-clean-summary",
        deleted = (doomed.len() - still.len()).to_string(),
        kept = kept.to_string()
    );
    if let Some(m) = &made {
        summary.push_str(&if final_ok {
            crate::t!("aws-clean-final", id = m.as_str())
        } else {
            crate::t!("aws-clean-final-missing", id = m.as_str())
        });
    }
    if !still.is_empty() {
        let ids = still.join(&crate::t!("err-list-sep"));
        summary.push_str(&crate::t!("aws-clean-still-listed", ids = ids));
    }
    if let Some(first) = refused.first() {
        summary.push_str(&crate::t!("aws-clean-refused", error = first.as_str()));
    }
    Ok((still.is_empty() && final_ok, summary))
}

/// `DeregisterImage`, then reads the account's images back: done when the image is gone (or
/// `deregistered`). With `delete_snapshots`, EC2 also deletes the snapshots behind it.
pub async fn deregister_image(
    s: &mut Session<'_>,
    image: &str,
    delete_snapshots: bool,
) -> Result<Outcome, Ec2Error> {
    let mut params = vec![("ImageId".to_string(), image.to_string())];
    if delete_snapshots {
        params.push(("DeleteAssociatedSnapshots".into(), "true".into()));
    }
    match s.call("DeregisterImage", &params, Repeat::Safe).await {
        Ok(_) => {}
        Err(e) if e.code().is_some_and(|c| c.starts_with("InvalidAMIID.")) => {}
        Err(e) => return Err(e),
    }
    let left = s
        .list(
            "DescribeImages",
            &owned_by_self(filter("image-id", &[image])),
            xml::images,
        )
        .await;
    Ok(match left {
        Ok(left) if left.iter().all(|i| i.state == "deregistered") => {
            (true, crate::t!("aws-image-deregistered", id = image))
        }
        Ok(_) => (false, crate::t!("aws-image-still-listed", id = image)),
        Err(e) => (false, sent_read_failed("DeregisterImage", &e)),
    })
}

/// `ReleaseAddress` of an elastic IP, then reads the addresses back: done when it is gone.
/// EC2 refuses to release an associated address in a VPC (`InvalidIPAddress.InUse`).
pub async fn release_address(s: &mut Session<'_>, allocation: &str) -> Result<Outcome, Ec2Error> {
    let params = vec![("AllocationId".to_string(), allocation.to_string())];
    match s.call("ReleaseAddress", &params, Repeat::Safe).await {
        Ok(_) => {}
        Err(e) if e.code() == Some("InvalidAllocationID.NotFound") => {}
        Err(e) => return Err(e),
    }
    let left = s
        .list(
            "DescribeAddresses",
            &filter("allocation-id", &[allocation]),
            xml::addresses,
        )
        .await;
    Ok(match left {
        Ok(left) if left.is_empty() => (true, crate::t!("aws-address-released", id = allocation)),
        Ok(_) => (
            false,
            crate::t!("aws-address-still-allocated", id = allocation),
        ),
        Err(e) => (false, sent_read_failed("ReleaseAddress", &e)),
    })
}

fn sent_read_failed(call: &str, e: &Ec2Error) -> String {
    crate::t!(
        "aws-call-sent-read-failed",
        call = call,
        error = e.to_string()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Lang, scoped};

    #[test]
    fn read_back_notes_read_in_chinese_with_their_call_and_state() {
        assert_eq!(
            read_failed(&accepted("StopInstances"), &"timed out"),
            "StopInstances accepted, but the read-back failed: timed out"
        );
        let (failed, nothing) = scoped(Lang::ZhCn, || {
            let verb = STOP.0;
            (
                read_failed(&accepted("StopInstances"), &"timed out"),
                crate::t!("aws-released-nothing-to", state = "terminated", verb = verb),
            )
        });
        assert_eq!(failed, "StopInstances 已被接受，但回读失败：timed out");
        assert_eq!(nothing, "已释放（`terminated`）；无需停止");
    }
}
