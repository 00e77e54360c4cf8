//! AWS Signature Version 4, as the EC2 Query API needs it: canonical request, string to sign,
//! the derived signing key and the `Authorization` header. Checked against the AWS test suite's
//! `get-vanilla` vector.

use super::credentials::Credentials;
pub use crate::provider::signing::percent_encode as uri_encode;
use crate::provider::signing::{self, sha256_hex};

const ALGORITHM: &str = "AWS4-HMAC-SHA256";

/// One request to sign. Header names may be in any case; values are trimmed.
pub struct Request<'a> {
    pub method: &'a str,
    /// The URI path, already encoded (`/` for the Query API).
    pub path: &'a str,
    /// The canonical query string (empty for a form POST).
    pub query: &'a str,
    pub headers: &'a [(&'a str, &'a str)],
    pub body: &'a [u8],
}

/// Where and when the request is signed.
pub struct Scope<'a> {
    /// `YYYYMMDD'T'HHMMSS'Z'`, the value of `x-amz-date`.
    pub amz_date: &'a str,
    pub region: &'a str,
    pub service: &'a str,
}

/// Sorted `name:value` lines and the `;`-joined names, each value's runs of spaces made one.
fn canonical_headers(headers: &[(&str, &str)]) -> (String, String) {
    signing::canonical_headers(
        headers
            .iter()
            .map(|(k, v)| (*k, v.split_whitespace().collect::<Vec<_>>().join(" "))),
    )
}

pub fn canonical_request(req: &Request<'_>) -> (String, String) {
    let (headers, signed) = canonical_headers(req.headers);
    let text = format!(
        "{}\n{}\n{}\n{headers}\n{signed}\n{}",
        req.method,
        req.path,
        req.query,
        sha256_hex(req.body)
    );
    (text, signed)
}

/// The hex signature and the signed-header list.
pub fn signature(req: &Request<'_>, scope: &Scope<'_>, secret: &str) -> (String, String) {
    let (canonical, signed) = canonical_request(req);
    let date = scope.amz_date.get(..8).unwrap_or(scope.amz_date);
    let credential_scope = format!("{date}/{}/{}/aws4_request", scope.region, scope.service);
    let string_to_sign = format!(
        "{ALGORITHM}\n{}\n{credential_scope}\n{}",
        scope.amz_date,
        sha256_hex(canonical.as_bytes())
    );
    let k_date = signing::hmac_sha256(format!("AWS4{secret}").as_bytes(), date.as_bytes());
    let k_region = signing::hmac_sha256(&k_date, scope.region.as_bytes());
    let k_service = signing::hmac_sha256(&k_region, scope.service.as_bytes());
    let k_signing = signing::hmac_sha256(&k_service, b"aws4_request");
    (
        hex::encode(signing::hmac_sha256(&k_signing, string_to_sign.as_bytes())),
        signed,
    )
}

/// The `Authorization` header value for `req`.
pub fn authorization(req: &Request<'_>, scope: &Scope<'_>, creds: &Credentials) -> String {
    let (sig, signed) = signature(req, scope, &creds.secret_access_key);
    let date = scope.amz_date.get(..8).unwrap_or(scope.amz_date);
    format!(
        "{ALGORITHM} Credential={}/{date}/{}/{}/aws4_request, SignedHeaders={signed}, Signature={sig}",
        creds.access_key_id, scope.region, scope.service
    )
}

/// `x-amz-date` for `at`.
pub fn amz_date(at: jiff::Timestamp) -> String {
    at.strftime("%Y%m%dT%H%M%SZ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

    #[test]
    fn get_vanilla_from_the_aws_test_suite() {
        let req = Request {
            method: "GET",
            path: "/",
            query: "",
            headers: &[
                ("Host", "example.amazonaws.com"),
                ("X-Amz-Date", "20150830T123600Z"),
            ],
            body: b"",
        };
        let scope = Scope {
            amz_date: "20150830T123600Z",
            region: "us-east-1",
            service: "service",
        };
        let (canonical, _) = canonical_request(&req);
        assert_eq!(
            canonical,
            "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n\
             e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        let creds = Credentials {
            access_key_id: "AKIDEXAMPLE".into(),
            secret_access_key: SECRET.into(),
            session_token: None,
            expiration: None,
        };
        assert_eq!(
            authorization(&req, &scope, &creds),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, \
             SignedHeaders=host;x-amz-date, \
             Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
        );
    }

    #[test]
    fn header_values_are_trimmed_and_names_sorted() {
        let (text, signed) = canonical_headers(&[("X-B", "  a   b "), ("Host", "h")]);
        assert_eq!(text, "host:h\nx-b:a b\n");
        assert_eq!(signed, "host;x-b");
    }

    #[test]
    fn encoding_keeps_only_unreserved_characters() {
        assert_eq!(uri_encode("a b/c=d~e.f_g-h"), "a%20b%2Fc%3Dd~e.f_g-h");
        assert_eq!(uri_encode("é"), "%C3%A9");
    }

    #[test]
    fn date_format() {
        let at: jiff::Timestamp = "2015-08-30T12:36:00Z".parse().unwrap();
        assert_eq!(amz_date(at), "20150830T123600Z");
    }
}
