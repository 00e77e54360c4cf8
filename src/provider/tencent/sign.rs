//! TC3-HMAC-SHA256 signing for Tencent Cloud's JSON APIs.
//!
//! The canonical request is `POST`, `/`, an empty query, the canonical headers
//! (`content-type:<ct>\nhost:<host>\n`), the signed header names (`content-type;host`) and the hex
//! SHA-256 of the body. The string to sign names the algorithm, the timestamp, the credential
//! scope (`<UTC date>/<service>/tc3_request`) and the hex SHA-256 of the canonical request. The
//! signing key is derived from `TC3` + the secret key through the date, the service and
//! `tc3_request`.

use jiff::Timestamp;

use crate::provider::signing;

pub const ALGORITHM: &str = "TC3-HMAC-SHA256";
pub const SIGNED_HEADERS: &str = "content-type;host";

pub use crate::provider::signing::sha256_hex;

fn hmac(key: &[u8], data: &str) -> Vec<u8> {
    signing::hmac_sha256(key, data.as_bytes())
}

/// The UTC date (`2019-02-25`) of a Unix timestamp: the service checks the scope against it.
pub fn utc_date(timestamp: i64) -> String {
    Timestamp::from_second(timestamp)
        .unwrap_or(Timestamp::UNIX_EPOCH)
        .strftime("%Y-%m-%d")
        .to_string()
}

/// What the signature covers.
#[derive(Debug, Clone, Copy)]
pub struct Signable<'a> {
    pub content_type: &'a str,
    pub host: &'a str,
    pub body: &'a [u8],
    /// Unix seconds, the same value sent as `X-TC-Timestamp`.
    pub timestamp: i64,
    /// `cvm`, `cbs` or `vpc`.
    pub service: &'a str,
}

pub fn canonical_request(request: &Signable<'_>) -> String {
    format!(
        "POST\n/\n\ncontent-type:{}\nhost:{}\n\n{SIGNED_HEADERS}\n{}",
        request.content_type.trim().to_ascii_lowercase(),
        request.host.trim().to_ascii_lowercase(),
        sha256_hex(request.body)
    )
}

pub fn scope(request: &Signable<'_>) -> String {
    format!(
        "{}/{}/tc3_request",
        utc_date(request.timestamp),
        request.service
    )
}

pub fn string_to_sign(request: &Signable<'_>) -> String {
    format!(
        "{ALGORITHM}\n{}\n{}\n{}",
        request.timestamp,
        scope(request),
        sha256_hex(canonical_request(request).as_bytes())
    )
}

/// The hex signature of `request` under `secret_key`.
pub fn signature(secret_key: &str, request: &Signable<'_>) -> String {
    let date = hmac(
        format!("TC3{secret_key}").as_bytes(),
        &utc_date(request.timestamp),
    );
    let service = hmac(&date, request.service);
    let signing = hmac(&service, "tc3_request");
    hex::encode(hmac(&signing, &string_to_sign(request)))
}

/// The `Authorization` header value.
pub fn authorization(secret_id: &str, secret_key: &str, request: &Signable<'_>) -> String {
    format!(
        "{ALGORITHM} Credential={secret_id}/{}, SignedHeaders={SIGNED_HEADERS}, Signature={}",
        scope(request),
        signature(secret_key, request)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The official TC3 example (DescribeInstances on cvm.tencentcloudapi.com).
    #[test]
    fn official_tc3_example_vector() {
        let body = r#"{"Limit": 1, "Filters": [{"Values": ["\u672a\u547d\u540d"], "Name": "instance-name"}]}"#;
        assert_eq!(
            sha256_hex(body.as_bytes()),
            "35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064"
        );
        let request = Signable {
            content_type: "application/json; charset=utf-8",
            host: "cvm.tencentcloudapi.com",
            body: body.as_bytes(),
            timestamp: 1_551_113_065,
            service: "cvm",
        };
        let canonical = canonical_request(&request);
        assert_eq!(
            canonical,
            "POST\n/\n\ncontent-type:application/json; charset=utf-8\n\
             host:cvm.tencentcloudapi.com\n\ncontent-type;host\n\
             35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064"
        );
        assert_eq!(
            sha256_hex(canonical.as_bytes()),
            "5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031"
        );
        assert_eq!(scope(&request), "2019-02-25/cvm/tc3_request");
        assert_eq!(
            string_to_sign(&request),
            "TC3-HMAC-SHA256\n1551113065\n2019-02-25/cvm/tc3_request\n\
             5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031"
        );
        let secret = "Gu5t9xGARNpq86cd98joQYCN3EXAMPLE";
        assert_eq!(
            signature(secret, &request),
            "72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168"
        );
        assert_eq!(
            authorization("AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE", secret, &request),
            "TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, \
             SignedHeaders=content-type;host, \
             Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168"
        );
    }

    #[test]
    fn the_scope_date_is_the_utc_date() {
        // 2019-02-25 23:30 UTC is already the 26th in UTC+8: the scope must say the 25th.
        assert_eq!(utc_date(1_551_137_400), "2019-02-25");
        assert_eq!(utc_date(0), "1970-01-01");
    }
}
