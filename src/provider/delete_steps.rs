//! What a free-then-delete sequence came to, from each call's answer and the read-back after
//! it: the Alibaba and Tencent adapters detach a disk (or unbind an address), wait for it to be
//! free, delete it, and wait for it to be gone, with the same rule for what counts as done.

use std::fmt::Display;

use super::ProviderError;
use super::readback::Readback;

/// A read-back: the resource's state while it is listed, `None` once it is not.
pub type Read<R> = Result<Option<String>, R>;

/// Which call of the sequence is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Detach the disk or unbind the address.
    Free,
    Delete,
}

/// What a read-back waits for.
#[derive(Debug, Clone, Copy)]
pub enum Until {
    /// The resource in this state (detached, unbound), or gone.
    Freed(&'static str),
    /// The resource no longer listed.
    Gone,
}

impl Until {
    /// Whether a read of `state` (`None`: not listed) ends the wait.
    pub fn reached(self, state: Option<&str>) -> bool {
        match self {
            Until::Freed(freed) => state.is_none_or(|s| s == freed),
            Until::Gone => state.is_none(),
        }
    }
}

/// The whole sequence for `what`: when `free` names an action, that call and the read-back
/// until `freed`; then the `delete` action and the read-back until it is gone. `call` makes the
/// call of a step (its outer error is a refusal, returned as it is); `read` reads the resource
/// back, at most the given number of times ([`Readback::attempts_after`] the call), until it
/// reaches what is waited for. Returns `(confirmed, summary)`.
pub async fn run<E, R, Sent, Reading>(
    what: &str,
    free: Option<&str>,
    freed: &'static str,
    delete: &str,
    readback: &Readback,
    call: impl Fn(Step) -> Sent,
    read: impl Fn(u32, Until) -> Reading,
) -> Result<(bool, String), ProviderError>
where
    Sent: Future<Output = Result<Result<(), E>, ProviderError>>,
    Reading: Future<Output = Read<R>>,
    E: Display + Clone,
    ProviderError: From<E>,
    R: Display,
{
    if let Some(free) = free {
        let sent = call(Step::Free).await?;
        let seen = read(readback.attempts_after(&sent), Until::Freed(freed)).await;
        if let Some(done) = after_free(what, free, freed, &sent, &seen) {
            return Ok(done);
        }
    }
    let sent = call(Step::Delete).await?;
    let seen = read(readback.attempts_after(&sent), Until::Gone).await;
    after_delete(what, delete, &sent, &seen).map_err(ProviderError::from)
}

/// What the provider says now, in words for a summary.
fn said<R: Display>(read: &Read<R>) -> String {
    match read {
        Ok(Some(state)) => format!("still lists it ({state})"),
        Ok(None) => "no longer lists it".into(),
        Err(e) => format!("could not be read ({e})"),
    }
}

/// After `action` freed `what` and the read-back waited for `freed`: `Some((confirmed,
/// summary))` when the delete ends there (gone already, or not freed), `None` to go on.
fn after_free<E: Display, R: Display>(
    what: &str,
    action: &str,
    freed: &str,
    sent: &Result<(), E>,
    read: &Read<R>,
) -> Option<(bool, String)> {
    match read {
        Ok(Some(state)) if state == freed => None,
        Ok(None) => Some((
            true,
            format!("{what} is no longer listed: the provider shows it deleted"),
        )),
        _ => {
            let outcome = match sent {
                Ok(()) => format!("{action} was accepted"),
                Err(e) => format!("{action} failed ({e})"),
            };
            Some((
                false,
                format!(
                    "{outcome}, but the provider {}: {what} not deleted",
                    said(read)
                ),
            ))
        }
    }
}

/// After the delete `action` and its read-back: `(confirmed, summary)`, or the call's own
/// error when the read-back could not say either.
fn after_delete<E: Display + Clone, R: Display>(
    what: &str,
    action: &str,
    sent: &Result<(), E>,
    read: &Read<R>,
) -> Result<(bool, String), E> {
    Ok(match (sent, read) {
        (Ok(()), Ok(None)) => (
            true,
            format!("{what} deleted: the provider no longer lists it"),
        ),
        (Err(_), Ok(None)) => (
            true,
            format!("{what} was already gone: the provider no longer lists it"),
        ),
        (Err(e), Err(_)) => return Err(e.clone()),
        (Ok(()), _) => (
            false,
            format!("{action} was accepted, but the provider {}", said(read)),
        ),
        (Err(e), _) => (
            false,
            format!("{action} failed ({e}); the provider {}", said(read)),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    type Sent = Result<(), String>;

    #[test]
    fn gone_is_done_and_anything_else_says_what_the_provider_shows() {
        let gone: Read<String> = Ok(None);
        let kept: Read<String> = Ok(Some("In_use".into()));
        let unread: Read<String> = Err("timeout".into());
        let ok: Sent = Ok(());
        let refused: Sent = Err("IncorrectDiskStatus".into());
        assert!(
            after_delete("disk d-1", "DeleteDisk", &ok, &gone)
                .unwrap()
                .0
        );
        let (done, summary) = after_delete("disk d-1", "DeleteDisk", &refused, &gone).unwrap();
        assert!(done && summary.contains("already gone"), "{summary}");
        let (done, summary) = after_delete("disk d-1", "DeleteDisk", &ok, &kept).unwrap();
        assert!(
            !done && summary.contains("still lists it (In_use)"),
            "{summary}"
        );
        assert_eq!(
            after_delete("disk d-1", "DeleteDisk", &refused, &unread).unwrap_err(),
            "IncorrectDiskStatus"
        );
        let free: Read<String> = Ok(Some("Available".into()));
        assert_eq!(
            after_free("disk d-1", "DetachDisk", "Available", &ok, &free),
            None
        );
        let (done, summary) =
            after_free("disk d-1", "DetachDisk", "Available", &ok, &kept).unwrap();
        assert!(
            !done && summary.ends_with("disk d-1 not deleted"),
            "{summary}"
        );
    }

    #[test]
    fn a_disk_not_freed_is_not_deleted_and_a_freed_one_is_read_back_gone() {
        use std::cell::RefCell;
        use std::future::ready;
        let readback = Readback {
            attempts: 5,
            interval: std::time::Duration::ZERO,
        };
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        for (after_detach, want) in [("Detaching", false), ("Available", true)] {
            let steps = RefCell::new(Vec::new());
            let reads = RefCell::new(vec![Some(after_detach.to_string()), None]);
            let outcome = rt.block_on(run(
                "disk d-1",
                Some("DetachDisk"),
                "Available",
                "DeleteDisk",
                &readback,
                |step| {
                    steps.borrow_mut().push(step);
                    ready(Ok(Ok::<(), ProviderError>(())))
                },
                |attempts, _until| {
                    assert_eq!(attempts, 5, "an accepted call is read patiently");
                    let state = reads.borrow_mut().remove(0);
                    ready(Ok::<_, String>(state))
                },
            ));
            let (confirmed, summary) = outcome.unwrap();
            assert_eq!(confirmed, want, "{summary}");
            let sent = steps.borrow().clone();
            if want {
                assert_eq!(sent, [Step::Free, Step::Delete]);
            } else {
                assert_eq!(
                    sent,
                    [Step::Free],
                    "nothing is deleted while still attached"
                );
                assert!(summary.ends_with("disk d-1 not deleted"), "{summary}");
            }
        }
    }
}
