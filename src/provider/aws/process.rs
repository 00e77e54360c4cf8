//! `credential_process`: a command of the user's that prints keys as JSON (Version 1).

use jiff::Timestamp;
use serde::Deserialize;

use super::credentials::{Credentials, PROCESS_TIMEOUT};
use crate::provider::ProviderError;

/// `credential_process`'s answer, Version 1.
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct ProcessAnswer {
    version: u32,
    access_key_id: String,
    secret_access_key: String,
    session_token: Option<String>,
    expiration: Option<Timestamp>,
}

/// Runs `command` through the shell, reads its JSON; its output never reaches an error.
pub async fn run(command: &str, from: &str) -> Result<Credentials, ProviderError> {
    let fail = |why: &str| {
        ProviderError::state(
            super::ID,
            crate::t!("aws-process-failed", from = from, why = why),
        )
        .with_fix(&crate::t!("aws-fix-process"))
    };
    let child = tokio::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| fail(&crate::t!("aws-process-no-start", error = e.to_string())))?;
    let out = tokio::time::timeout(PROCESS_TIMEOUT, child.wait_with_output())
        .await
        .map_err(|_| {
            let seconds = PROCESS_TIMEOUT.as_secs().to_string();
            fail(&crate::t!("aws-process-timeout", seconds = seconds))
        })?
        .map_err(|e| fail(&crate::t!("aws-process-error", error = e.to_string())))?;
    if !out.status.success() {
        return Err(fail(&crate::t!(
            "aws-process-exit",
            status = out.status.to_string()
        )));
    }
    let answer: ProcessAnswer =
        serde_json::from_slice(&out.stdout).map_err(|_| fail(&crate::t!("aws-process-no-json")))?;
    if answer.version != 1 {
        return Err(fail(&crate::t!(
            "aws-process-version",
            version = answer.version.to_string()
        )));
    }
    Ok(Credentials {
        access_key_id: answer.access_key_id,
        secret_access_key: answer.secret_access_key,
        session_token: answer.session_token,
        expiration: answer.expiration,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn credential_process_json_and_its_failure() {
        let ok = r#"printf '{"Version": 1, "AccessKeyId": "PROCKEY", "SecretAccessKey": "procsecret", "SessionToken": "proctoken", "Expiration": "2099-01-01T00:00:00Z"}'"#;
        let c = run(ok, "test").await.unwrap();
        assert_eq!(c.access_key_id, "PROCKEY");
        assert_eq!(c.session_token.as_deref(), Some("proctoken"));
        assert!(c.expiration.is_some());
        let e = run("echo leaked-output-9f; exit 3", "test")
            .await
            .unwrap_err()
            .to_string();
        assert!(e.contains("credential_process in test failed"), "{e}");
        assert!(!e.contains("leaked-output-9f"), "{e}");
        let e = run("echo not-json-secret", "test")
            .await
            .unwrap_err()
            .to_string();
        assert!(!e.contains("not-json-secret"), "{e}");
    }
}
