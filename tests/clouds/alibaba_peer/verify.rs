//! The service's side of ACS3-HMAC-SHA256, written apart from the adapter's signer: decode the
//! received query, canonicalise it again, rebuild the canonical headers from what arrived, and
//! compare signatures. Also the checks around it: the key, the body hash, the date window, a
//! fresh nonce, and the API version of each product.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use hmac::{Hmac, Mac as _};
use sha2::{Digest as _, Sha256};

use super::{KEY_ID, ROLE_KEY_ID, ROLE_SECRET, ROLE_TOKEN, Request, SECRET};

type Rejection = (u16, String);

fn reject(status: u16, code: &str) -> Rejection {
    (status, code.to_string())
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Some(b) = std::str::from_utf8(&bytes[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(if bytes[i] == b'+' { b' ' } else { bytes[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn hex_sha256(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

fn version_of(action: &str) -> &'static str {
    match action {
        "DescribeEipAddresses" | "ReleaseEipAddress" | "UnassociateEipAddress" => "2016-04-28",
        "DescribeLoadBalancers" | "DescribeHealthStatus" | "DeleteLoadBalancer" => "2014-05-15",
        _ => "2014-05-26",
    }
}

/// The action and its parameters, or the status and code the service would answer.
pub fn check(
    request: &Request,
    nonces: &mut HashSet<String>,
) -> Result<(String, BTreeMap<String, String>), Rejection> {
    let header = |name: &str| request.header(name);
    let auth = header("authorization").ok_or_else(|| reject(400, "MissingAuthorization"))?;
    let rest = auth
        .strip_prefix("ACS3-HMAC-SHA256 ")
        .ok_or_else(|| reject(400, "InvalidAuthorization"))?;
    let mut fields = BTreeMap::new();
    for part in rest.split(',') {
        let (k, v) = part
            .trim()
            .split_once('=')
            .ok_or_else(|| reject(400, "InvalidAuthorization"))?;
        fields.insert(k.to_string(), v.to_string());
    }
    let field = |k: &str| fields.get(k).cloned().unwrap_or_default();
    // The long-term key, or the RAM role's temporary one, which needs its (signed) token.
    let secret = match field("Credential").as_str() {
        KEY_ID => SECRET,
        ROLE_KEY_ID
            if header("x-acs-security-token") == Some(ROLE_TOKEN)
                && field("SignedHeaders")
                    .split(';')
                    .any(|h| h == "x-acs-security-token") =>
        {
            ROLE_SECRET
        }
        ROLE_KEY_ID => return Err(reject(400, "InvalidSecurityToken.Mismatch")),
        _ => return Err(reject(404, "InvalidAccessKeyId.NotFound")),
    };
    let action = header("x-acs-action")
        .ok_or_else(|| reject(400, "MissingAction"))?
        .to_string();
    if header("x-acs-version") != Some(version_of(&action)) {
        return Err(reject(400, "InvalidVersion"));
    }
    let body_hash = hex_sha256(&request.body);
    if header("x-acs-content-sha256") != Some(body_hash.as_str()) {
        return Err(reject(400, "ContentSHA256NotMatched"));
    }
    let date: jiff::Timestamp = header("x-acs-date")
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| reject(400, "InvalidTimeStamp.Format"))?;
    if jiff::Timestamp::now().duration_since(date).as_secs().abs() > 15 * 60 {
        return Err(reject(400, "InvalidTimeStamp.Expired"));
    }
    let signed = field("SignedHeaders");
    let names: Vec<&str> = signed.split(';').collect();
    let required = [
        "host",
        "x-acs-action",
        "x-acs-version",
        "x-acs-date",
        "x-acs-signature-nonce",
        "x-acs-content-sha256",
    ];
    if required.iter().any(|r| !names.contains(r)) {
        return Err(reject(400, "IncompleteSignature"));
    }
    let mut canonical_headers = String::new();
    for name in &names {
        let value = header(name).ok_or_else(|| reject(400, "IncompleteSignature"))?;
        let _ = writeln!(canonical_headers, "{name}:{}", value.trim());
    }
    let mut params = BTreeMap::new();
    let mut encoded: Vec<(String, String)> = Vec::new();
    for pair in request.query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (k, v) = (decode(k), decode(v));
        encoded.push((encode(&k), encode(&v)));
        params.insert(k, v);
    }
    encoded.sort();
    let query: Vec<String> = encoded.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let canonical = format!(
        "{}\n{}\n{}\n{canonical_headers}\n{signed}\n{body_hash}",
        request.method,
        request.path,
        query.join("&")
    );
    let to_sign = format!("ACS3-HMAC-SHA256\n{}", hex_sha256(canonical.as_bytes()));
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("hmac key");
    mac.update(to_sign.as_bytes());
    if hex::encode(mac.finalize().into_bytes()) != field("Signature") {
        return Err(reject(400, "SignatureDoesNotMatch"));
    }
    let nonce = header("x-acs-signature-nonce")
        .unwrap_or_default()
        .to_string();
    if !nonces.insert(nonce) {
        return Err(reject(400, "SignatureNonceUsed"));
    }
    Ok((action, params))
}

/// The key id a request was signed with, as its `Authorization` names it.
pub fn key_id(request: &Request) -> Option<String> {
    let auth = request.header("authorization")?;
    let credential = auth.split("Credential=").nth(1)?;
    Some(credential.split(',').next()?.trim().to_string())
}
