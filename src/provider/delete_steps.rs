//! What a free-then-delete sequence came to, from each call's answer and the read-back after
//! it: the Alibaba and Tencent adapters detach a disk (or unbind an address), wait for it to be
//! free, delete it, and wait for it to be gone, with the same rule for what counts as done.

use std::fmt::Display;

/// A read-back: the resource's state while it is listed, `None` once it is not.
pub type Read<R> = Result<Option<String>, R>;

/// What the provider says now, in words for a summary.
pub fn said<R: Display>(read: &Read<R>) -> String {
    match read {
        Ok(Some(state)) => format!("still lists it ({state})"),
        Ok(None) => "no longer lists it".into(),
        Err(e) => format!("could not be read ({e})"),
    }
}

/// After `action` freed `what` and the read-back waited for `freed`: `Some((confirmed,
/// summary))` when the delete ends there (gone already, or not freed), `None` to go on.
pub fn after_free<E: Display, R: Display>(
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
pub fn after_delete<E: Display + Clone, R: Display>(
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
}
