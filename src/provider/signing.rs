//! The SHA-256 pieces every signed API builds its signature from (AWS SigV4, Alibaba Cloud's
//! ACS3 and Tencent Cloud's TC3 alike): hex digests, HMAC, and the canonical header block.

use std::fmt::Write as _;

use hmac::{Hmac, Mac as _};
use sha2::{Digest as _, Sha256};

/// The lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// RFC 3986 percent-encoding: `A-Z a-z 0-9 - _ . ~` stay, every other byte becomes `%XY`.
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// HMAC-SHA256 of `data` keyed by `key`.
pub fn hmac_sha256(key: &[u8], data: &[u8]) -> Vec<u8> {
    // HMAC takes a key of any length, so `new_from_slice` cannot fail here.
    let mut mac = Hmac::<Sha256>::new_from_slice(key)
        .unwrap_or_else(|_| unreachable!("HMAC accepts keys of any length"));
    mac.update(data);
    mac.finalize().into_bytes().to_vec()
}

/// `name:value` lines sorted by name (the names lower-cased, the values as given), and the
/// names joined by `;`.
pub fn canonical_headers<'a>(
    headers: impl IntoIterator<Item = (&'a str, String)>,
) -> (String, String) {
    let mut lines: Vec<(String, String)> = headers
        .into_iter()
        .map(|(name, value)| (name.to_ascii_lowercase(), value))
        .collect();
    lines.sort();
    let mut canonical = String::new();
    for (name, value) in &lines {
        let _ = writeln!(canonical, "{name}:{value}");
    }
    let signed = lines
        .iter()
        .map(|(name, _)| name.as_str())
        .collect::<Vec<_>>()
        .join(";");
    (canonical, signed)
}
