//! Release, stop and snapshot-clean on EC2, each followed by a read-back: the outcome is
//! `(confirmed, what EC2 says now)`, and `confirmed` comes only from the read-back.
//!
//! TerminateInstances, StopInstances and DeleteSnapshot are idempotent at EC2 (a repeat finds the
//! work done, or answers NotFound, which counts as done), so they are sent as safe to retry.
//! CreateSnapshot has no ClientToken: it is sent once, tagged with a random token, and after a
//! failure that leaves the outcome unknown the tag tells whether it was made.

use std::fmt::Write as _;

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

async fn read_back(
    s: &mut Session<'_>,
    (id, readback): (&str, Readback),
    want: InstanceState,
    done: &str,
) -> Outcome {
    match listed(s, id, readback).await {
        Ok(None) if want == InstanceState::Released => {
            (true, format!("{done}; EC2 no longer lists it"))
        }
        Ok(None) => (false, "EC2 no longer lists the instance".into()),
        Ok(Some(i)) => match state(&i.state) {
            Some(now) if now == want => (true, format!("{done}; EC2 reads back `{}`", i.state)),
            _ => (false, format!("EC2 reads back `{}`", i.state)),
        },
        Err(e) => (false, format!("{done}, but the read-back failed: {e}")),
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
            return Ok((
                true,
                "already released: EC2 no longer lists the instance this data directory saw".into(),
            ));
        }
        Some((name, InstanceState::Released)) => {
            return Ok((true, format!("already released (`{name}`)")));
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
            return Ok((
                true,
                "already released: EC2 no longer knows the instance it listed".into(),
            ));
        }
        Err(e) => return Err(e.into()),
    }
    Ok(read_back(
        s,
        (id, readback),
        InstanceState::Released,
        "TerminateInstances accepted",
    )
    .await)
}

/// `StopInstances` of a running instance, read back until EC2 shows it `stopping` or `stopped`.
pub const STOP: (&str, &str, InstanceState) = ("stop", "StopInstances", InstanceState::Stopped);
/// `StartInstances` of a stopped instance, read back until EC2 shows it `pending` or `running`.
pub const START: (&str, &str, InstanceState) = ("start", "StartInstances", InstanceState::Running);

/// Sends `call` ([`STOP`] or [`START`]) to move the instance into `want` (`verb` for the user),
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
                format!("EC2 no longer lists the instance: it is released; nothing to {verb}"),
            ));
        }
        Some((name, InstanceState::Released)) => {
            return Ok((false, format!("is released (`{name}`); nothing to {verb}")));
        }
        Some((name, now)) if now == want => {
            let already = if want == InstanceState::Stopped {
                "stopped"
            } else {
                "running"
            };
            return Ok((true, format!("already {already} (`{name}`)")));
        }
        Some(_) => {}
    }
    let body = s.call(call, &instance_param(id), Repeat::Safe).await?;
    xml::parse_answer(&body, call).map_err(|m| Ec2Error::malformed(call, &m))?;
    Ok(read_back(s, (id, readback), want, &format!("{call} accepted")).await)
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
        what: "no snapshotId in the answer".into(),
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
    let mut status = String::from("not listed");
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
                    return Err(format!(
                        "of {}, not of {volume}",
                        other.unwrap_or("no volume")
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
            what: "the instance has no root volume to snapshot".into(),
        })?;
        let id = final_snapshot(s, volume).await?;
        if let Err(status) = until_completed(s, &id, volume, readback).await {
            return Ok((
                false,
                format!(
                    "the final snapshot {id} is {status}, not completed, after {} read(s); \
                     no snapshot deleted",
                    readback.attempts.max(1)
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
        return Ok((true, format!("nothing to delete; {kept} snapshot(s) kept")));
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
                format!("deletions sent, but the read-back failed: {e}"),
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
    let mut summary = format!(
        "deleted {} snapshot(s), kept {}",
        doomed.len() - still.len(),
        kept
    );
    if let Some(m) = &made {
        let _ = write!(
            summary,
            "; final snapshot {m}{}",
            if final_ok { "" } else { " NOT found" }
        );
    }
    if !still.is_empty() {
        let _ = write!(summary, "; still listed: {}", still.join(", "));
    }
    if let Some(first) = refused.first() {
        let _ = write!(summary, "; refused: {first}");
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
            (true, format!("{image} deregistered"))
        }
        Ok(_) => (false, format!("{image} is still listed")),
        Err(e) => (
            false,
            format!("DeregisterImage sent, but the read-back failed: {e}"),
        ),
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
        Ok(left) if left.is_empty() => (true, format!("{allocation} released")),
        Ok(_) => (false, format!("{allocation} is still allocated")),
        Err(e) => (
            false,
            format!("ReleaseAddress sent, but the read-back failed: {e}"),
        ),
    })
}
