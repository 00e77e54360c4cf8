//! The service's side of TC3-HMAC-SHA256, written apart from the adapter's signer: parse the
//! `Authorization` header, check the key, the timestamp window, the scope date and the version
//! (CLB's 2018-03-17, every other service's 2017-03-12), rebuild the canonical request from
//! what arrived, and compare signatures. Rejections are the codes the service answers (inside
//! HTTP 200).

use hmac::{Hmac, Mac as _};
use sha2::{Digest as _, Sha256};

use super::{KEY_ID, ROLE_KEY_ID, ROLE_SECRET, ROLE_TOKEN, Request, SECRET};

fn mac(key: &[u8], data: &str) -> Vec<u8> {
    let mut m = Hmac::<Sha256>::new_from_slice(key).expect("hmac key");
    m.update(data.as_bytes());
    m.finalize().into_bytes().to_vec()
}

/// The action, or the error code the service would answer.
pub fn check(request: &Request) -> Result<String, String> {
    let header = |name: &str| request.header(name);
    let reject = |code: &str| code.to_string();
    if request.method != "POST" || request.target != "/" {
        return Err(reject("InvalidParameter"));
    }
    let auth = header("authorization").ok_or_else(|| reject("AuthFailure.SignatureFailure"))?;
    let rest = auth
        .strip_prefix("TC3-HMAC-SHA256 ")
        .ok_or_else(|| reject("AuthFailure.SignatureFailure"))?;
    let field = |name: &str| {
        rest.split(", ")
            .find_map(|part| part.strip_prefix(&format!("{name}=")))
            .unwrap_or_default()
            .to_string()
    };
    let credential = field("Credential");
    let mut parts = credential.split('/');
    let (id, date, service, terminator) = (
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or_default(),
    );
    // The long-term key, or the CVM role's temporary one, which needs its token.
    let secret = match id {
        KEY_ID => SECRET,
        ROLE_KEY_ID if header("x-tc-token") == Some(ROLE_TOKEN) => ROLE_SECRET,
        ROLE_KEY_ID => return Err(reject("AuthFailure.TokenFailure")),
        _ => return Err(reject("AuthFailure.SecretIdNotFound")),
    };
    if !matches!(service, "cvm" | "cbs" | "vpc" | "clb") || terminator != "tc3_request" {
        return Err(reject("AuthFailure.SignatureFailure"));
    }
    let version = if service == "clb" {
        "2018-03-17"
    } else {
        "2017-03-12"
    };
    if header("x-tc-version") != Some(version) {
        return Err(reject("InvalidParameterValue"));
    }
    if header("x-tc-region").is_none_or(str::is_empty) {
        return Err(reject("MissingParameter"));
    }
    let timestamp: i64 = header("x-tc-timestamp")
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| reject("AuthFailure.InvalidAuthorization"))?;
    if (jiff::Timestamp::now().as_second() - timestamp).abs() > 300 {
        return Err(reject("AuthFailure.SignatureExpire"));
    }
    let day = jiff::Timestamp::from_second(timestamp)
        .map(|t| t.strftime("%Y-%m-%d").to_string())
        .unwrap_or_default();
    if date != day {
        return Err(reject("AuthFailure.SignatureFailure"));
    }
    if field("SignedHeaders") != "content-type;host" {
        return Err(reject("AuthFailure.SignatureFailure"));
    }
    let canonical = format!(
        "POST\n/\n\ncontent-type:{}\nhost:{}\n\ncontent-type;host\n{}",
        header("content-type").unwrap_or_default(),
        header("host").unwrap_or_default(),
        hex::encode(Sha256::digest(&request.body))
    );
    let to_sign = format!(
        "TC3-HMAC-SHA256\n{timestamp}\n{date}/{service}/tc3_request\n{}",
        hex::encode(Sha256::digest(canonical.as_bytes()))
    );
    let key = mac(
        &mac(&mac(format!("TC3{secret}").as_bytes(), date), service),
        "tc3_request",
    );
    if hex::encode(mac(&key, &to_sign)) != field("Signature") {
        return Err(reject("AuthFailure.SignatureFailure"));
    }
    let action = header("x-tc-action").ok_or_else(|| reject("MissingParameter"))?;
    // Each action lives in one service: signed for another, the service does not know it.
    let home = match action {
        "DescribeDisks"
        | "DescribeSnapshots"
        | "DescribeSnapshotSharePermission"
        | "DetachDisks"
        | "TerminateDisks"
        | "DeleteSnapshots" => "cbs",
        "DescribeAddresses" | "DisassociateAddress" | "ReleaseAddresses" => "vpc",
        "DescribeLoadBalancers" | "DescribeTargetHealth" | "DeleteLoadBalancer" => "clb",
        _ => "cvm",
    };
    if home != service {
        return Err(reject("InvalidAction"));
    }
    Ok(action.to_string())
}

/// The key id a request was signed with, as its `Authorization` names it.
pub fn key_id(request: &Request) -> Option<String> {
    let auth = request.header("authorization")?;
    let credential = auth.split("Credential=").nth(1)?;
    Some(credential.split('/').next()?.to_string())
}
