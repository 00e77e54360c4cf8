//! Request signatures for the chat bots that take a shared secret, and the base64 they need.

use hmac::{Hmac, Mac};
use sha2::Sha256;

fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    // HMAC takes a key of any length, so this never fails; an empty tag would only be refused.
    match Hmac::<Sha256>::new_from_slice(key) {
        Ok(mut mac) => {
            mac.update(message);
            mac.finalize().into_bytes().into()
        }
        Err(_) => [0; 32],
    }
}

/// Standard base64 with padding (RFC 4648 §4).
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// DingTalk's `sign` query parameter: base64 of HMAC-SHA256 keyed by the secret over
/// `"{timestamp_ms}\n{secret}"`. The timestamp is in milliseconds and must be within an hour
/// of DingTalk's clock.
pub fn dingtalk(secret: &str, timestamp_ms: i64) -> String {
    let message = format!("{timestamp_ms}\n{secret}");
    base64(&hmac_sha256(secret.as_bytes(), message.as_bytes()))
}

/// Feishu/Lark's `sign` body field: base64 of HMAC-SHA256 keyed by `"{timestamp_s}\n{secret}"`
/// over nothing. The timestamp is in seconds.
pub fn feishu(secret: &str, timestamp_s: i64) -> String {
    let key = format!("{timestamp_s}\n{secret}");
    base64(&hmac_sha256(key.as_bytes(), b""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(base64(plain.as_bytes()), encoded, "{plain}");
        }
        assert_eq!(base64(&[0xfb, 0xff]), "+/8=");
    }

    // Both computed independently with Python's hmac, hashlib and base64 modules, following
    // each service's published sample code.
    #[test]
    fn dingtalk_signs_timestamp_and_secret_with_the_secret() {
        assert_eq!(
            dingtalk("SECtestsecret", 1_700_000_000_000),
            "7LVwF0dAF3/+MRRulbpE4y72Ogzykc6bS2nG4I99T4s="
        );
    }

    #[test]
    fn feishu_signs_nothing_with_timestamp_and_secret() {
        assert_eq!(
            feishu("feishusecret", 1_700_000_000),
            "5Wc8F8b2vZlNjoVFpK6BAaovMobglP4Rm1FzmEq/rCU="
        );
    }
}
