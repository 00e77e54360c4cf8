//! ACS3-HMAC-SHA256 ("V3") signing for Alibaba Cloud's RPC-style APIs.
//!
//! The canonical request is the method, `/`, the canonical query string, the canonical headers
//! (every signed header, lower-case name, sorted, `name:trimmed-value`), the signed header names
//! joined by `;`, and the hex SHA-256 of the body. The signature is the hex HMAC-SHA256 of
//! `ACS3-HMAC-SHA256\n` + hex SHA-256 of that canonical request, keyed by the raw secret.

use crate::provider::signing;

pub const ALGORITHM: &str = "ACS3-HMAC-SHA256";

pub use crate::provider::signing::{percent_encode, sha256_hex};

/// `k=v` pairs, each side percent-encoded, sorted, joined by `&` (an empty value gives `k=`).
pub fn canonical_query(params: &[(String, String)]) -> String {
    let mut pairs: Vec<(String, String)> = params
        .iter()
        .map(|(k, v)| (percent_encode(k), percent_encode(v)))
        .collect();
    pairs.sort();
    pairs
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&")
}

/// What the signature covers.
#[derive(Debug, Clone, Copy)]
pub struct Signable<'a> {
    pub method: &'a str,
    pub query: &'a [(String, String)],
    /// The headers to sign (`host`, `content-type` when there is a body, every `x-acs-*`).
    pub headers: &'a [(String, String)],
    /// The hex SHA-256 of the body.
    pub payload_hash: &'a str,
}

/// The canonical request and the signed header names (`host;x-acs-action;...`).
pub fn canonical_request(request: &Signable<'_>) -> (String, String) {
    let (canonical_headers, signed) = signing::canonical_headers(
        request
            .headers
            .iter()
            .map(|(name, value)| (name.as_str(), value.trim().to_string())),
    );
    let canonical = format!(
        "{}\n/\n{}\n{canonical_headers}\n{signed}\n{}",
        request.method,
        canonical_query(request.query),
        request.payload_hash
    );
    (canonical, signed)
}

/// `ACS3-HMAC-SHA256\n` + the hex SHA-256 of the canonical request.
pub fn string_to_sign(canonical: &str) -> String {
    format!("{ALGORITHM}\n{}", sha256_hex(canonical.as_bytes()))
}

/// The hex HMAC-SHA256 of `string_to_sign`, keyed by the raw secret (no `&` suffix).
pub fn signature(secret: &str, string_to_sign: &str) -> String {
    hex::encode(signing::hmac_sha256(
        secret.as_bytes(),
        string_to_sign.as_bytes(),
    ))
}

/// The `Authorization` header value.
pub fn authorization(access_key_id: &str, signed_headers: &str, signature: &str) -> String {
    format!(
        "{ALGORITHM} Credential={access_key_id},SignedHeaders={signed_headers},Signature={signature}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
        items
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect()
    }

    /// The official V3 example (RunInstances on ecs.cn-shanghai), recomputed exactly.
    #[test]
    fn official_v3_example_vector() {
        let query = pairs(&[
            ("RegionId", "cn-shanghai"),
            (
                "ImageId",
                "win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd",
            ),
        ]);
        let empty = sha256_hex(b"");
        assert_eq!(
            empty,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        let headers = pairs(&[
            ("host", "ecs.cn-shanghai.aliyuncs.com"),
            ("x-acs-action", "RunInstances"),
            ("x-acs-version", "2014-05-26"),
            ("x-acs-date", "2023-10-26T10:22:32Z"),
            ("x-acs-signature-nonce", "3156853299f313e23d1673dc12e1703d"),
            ("x-acs-content-sha256", &empty),
        ]);
        let (canonical, signed) = canonical_request(&Signable {
            method: "POST",
            query: &query,
            headers: &headers,
            payload_hash: &empty,
        });
        let expected = "POST\n/\n\
            ImageId=win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd&RegionId=cn-shanghai\n\
            host:ecs.cn-shanghai.aliyuncs.com\n\
            x-acs-action:RunInstances\n\
            x-acs-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n\
            x-acs-date:2023-10-26T10:22:32Z\n\
            x-acs-signature-nonce:3156853299f313e23d1673dc12e1703d\n\
            x-acs-version:2014-05-26\n\n\
            host;x-acs-action;x-acs-content-sha256;x-acs-date;x-acs-signature-nonce;x-acs-version\n\
            e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        assert_eq!(canonical, expected);
        let to_sign = string_to_sign(&canonical);
        assert_eq!(
            to_sign,
            "ACS3-HMAC-SHA256\n7ea06492da5221eba5297e897ce16e55f964061054b7695beedaac1145b1e259"
        );
        let sig = signature("YourAccessKeySecret", &to_sign);
        assert_eq!(
            sig,
            "06563a9e1b43f5dfe96b81484da74bceab24a1d853912eee15083a6f0f3283c0"
        );
        assert_eq!(
            authorization("YourAccessKeyId", &signed, &sig),
            "ACS3-HMAC-SHA256 Credential=YourAccessKeyId,SignedHeaders=host;x-acs-action;\
             x-acs-content-sha256;x-acs-date;x-acs-signature-nonce;x-acs-version,\
             Signature=06563a9e1b43f5dfe96b81484da74bceab24a1d853912eee15083a6f0f3283c0"
        );
    }

    #[test]
    fn percent_encoding_follows_rfc_3986() {
        assert_eq!(percent_encode("a-b_c.d~e"), "a-b_c.d~e");
        assert_eq!(percent_encode("a b*c/+"), "a%20b%2Ac%2F%2B");
        assert_eq!(percent_encode("[\"i-1\"]"), "%5B%22i-1%22%5D");
        assert_eq!(percent_encode("12:00"), "12%3A00");
        assert_eq!(percent_encode("é"), "%C3%A9");
    }

    #[test]
    fn canonical_query_sorts_and_keeps_empty_values() {
        let q = pairs(&[("b", "2"), ("a", ""), ("Z", "x y")]);
        assert_eq!(canonical_query(&q), "Z=x%20y&a=&b=2");
    }
}
