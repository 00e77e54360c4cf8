//! `verify --bandwidth URL`: a bounded download (at most [`MAX_TIME`] and [`MAX_BYTES`]) from
//! an address the user names, with when each piece arrived, for the core to find its best
//! second. Through the program's own HTTP client (rustls).

use std::time::{Duration, Instant};

use crate::commands::Failure;
use crate::provider::http::{Http, HttpPolicy};
use gpumeter_core::verify::Download;

/// The longest the download runs, answer included.
pub const MAX_TIME: Duration = Duration::from_secs(10);
/// The most it downloads: a second of 8 Gbit/s, so a fast link is not cut short.
pub const MAX_BYTES: u64 = 1 << 30;

/// The address, checked: http or https. What is kept of it (JSON, the ledger) leaves out the
/// query, fragment and credentials, where a signed URL keeps its key.
pub fn parse(url: &str) -> Result<(reqwest::Url, String), Failure> {
    let parsed = reqwest::Url::parse(url.trim())
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
        .ok_or_else(|| {
            Failure::bad_input(crate::t!(
                "verify-bandwidth-bad-url",
                url = gpumeter_core::text::one_line(url, 200)
            ))
        })?;
    let mut kept = parsed.clone();
    kept.set_query(None);
    kept.set_fragment(None);
    let _ = kept.set_username("");
    let _ = kept.set_password(None);
    Ok((parsed, kept.to_string()))
}

/// Downloads from `url` until its end or a cap; a failure is kept in the download, never
/// returned, as a check that could not be read.
pub fn measure(url: &reqwest::Url, kept: &str) -> Download {
    let mut samples = Vec::new();
    let error = match crate::commands::block_on(fetch(url, &mut samples)) {
        Ok(Ok(())) => None,
        Ok(Err(e)) => Some(e),
        Err(f) => Some(f.message),
    };
    Download::from_samples(kept, &samples, error)
}

async fn fetch(url: &reqwest::Url, samples: &mut Vec<(f64, u64)>) -> Result<(), String> {
    let http = Http::new(HttpPolicy {
        timeout: MAX_TIME + Duration::from_secs(5),
        connect_timeout: Duration::from_secs(5),
        ..HttpPolicy::default()
    })
    .map_err(|e| e.to_string())?;
    let started = Instant::now();
    let deadline = tokio::time::Instant::now() + MAX_TIME;
    let send = http.client().get(url.clone()).send();
    let mut response = match tokio::time::timeout_at(deadline, send).await {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => return Err(gpumeter_core::text::one_line(&e.to_string(), 200)),
        Err(_) => return Err(format!("no answer within {} s", MAX_TIME.as_secs())),
    };
    if !response.status().is_success() {
        return Err(format!("the server answered {}", response.status()));
    }
    let answered = started.elapsed();
    let mut bytes = 0_u64;
    while bytes < MAX_BYTES {
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            // The time cap: what arrived is the measure.
            Err(_) | Ok(Ok(None)) => break,
            Ok(Ok(Some(piece))) => {
                bytes = bytes.saturating_add(u64::try_from(piece.len()).unwrap_or(u64::MAX));
                let at = started.elapsed().saturating_sub(answered);
                samples.push((at.as_secs_f64(), bytes));
            }
            Ok(Err(e)) => return Err(gpumeter_core::text::one_line(&e.to_string(), 200)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_addresses_are_taken_and_their_secrets_are_not_kept() {
        let (_, kept) = parse("https://user:pw@example.com/f.bin?X-Amz-Signature=abc#x").unwrap();
        assert_eq!(kept, "https://example.com/f.bin");
        for bad in [
            "ftp://example.com/f",
            "example.com/f",
            "file:///etc/passwd",
            "",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
