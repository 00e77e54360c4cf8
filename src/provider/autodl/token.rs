//! Where the developer token is looked for: `AUTODL_TOKEN`, then a file of the user's own that
//! holds it (`AUTODL_CREDENTIALS_FILE`, else `~/.config/gpumeter/autodl-token`). The token is
//! made at 控制台 → 设置 → 开发者Token (https://www.autodl.com/docs/instance_pro_api/).
//! Never in gpumeter's config file, which refuses secrets.

use std::path::PathBuf;

use crate::provider::ProviderError;
use crate::provider::bearer::{ApiKey, KeyEnv};

pub const TOKEN_VAR: &str = "AUTODL_TOKEN";
/// Names the file that holds the token (its first line that is not blank or a `#` comment).
pub const FILE_VAR: &str = "AUTODL_CREDENTIALS_FILE";
/// Where the file is without `AUTODL_CREDENTIALS_FILE`, under `$XDG_CONFIG_HOME` (or `~/.config`).
const DEFAULT_FILE: &str = "gpumeter/autodl-token";

/// The default file, from `XDG_CONFIG_HOME` or `HOME` in `env`.
fn default_file(env: &KeyEnv) -> Option<PathBuf> {
    let base = env
        .get("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| env.get("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join(DEFAULT_FILE))
}

/// The token from `env`, else from the file; with neither, the error that names every place
/// looked. A file named but unreadable is its own error: the user meant it.
pub fn token(env: &KeyEnv, provider: &str) -> Result<ApiKey, ProviderError> {
    if let Some(token) = env.get(TOKEN_VAR) {
        return Ok(ApiKey::new(token));
    }
    let named = env.get(FILE_VAR).map(PathBuf::from);
    let file = named.clone().or_else(|| default_file(env));
    let shown = file.as_ref().map_or_else(
        || format!("~/.config/{DEFAULT_FILE}"),
        |f| f.display().to_string(),
    );
    if let Some(path) = &file {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                return first_line(&text).map(ApiKey::new).ok_or_else(|| {
                    ProviderError::state(
                        provider,
                        crate::t!("autodl-file-no-token", file = shown.as_str()),
                    )
                    .with_fix(&crate::t!("autodl-fix-put-token", file = shown.as_str()))
                });
            }
            Err(e) if named.is_some() => {
                return Err(ProviderError::state(
                    provider,
                    crate::t!(
                        "autodl-file-unreadable",
                        file = shown.as_str(),
                        var = FILE_VAR,
                        error = e.kind().to_string()
                    ),
                )
                .with_fix(&crate::t!("autodl-fix-point-file", var = FILE_VAR)));
            }
            Err(_) => {}
        }
    }
    Err(ProviderError::missing(
        provider,
        TOKEN_VAR,
        &[TOKEN_VAR, FILE_VAR, &shown],
    ))
}

fn first_line(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::{Auth, ErrorKind};

    #[test]
    fn the_variable_comes_first_then_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("gpumeter/autodl-token");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, "# made in the console\n\n  tok-from-file-123  \n").unwrap();
        let home = dir.path().to_str().unwrap();
        let both = KeyEnv::from_pairs([("AUTODL_TOKEN", "tok-env-456"), ("XDG_CONFIG_HOME", home)]);
        assert_eq!(token(&both, "autodl").unwrap(), ApiKey::new("tok-env-456"));
        let file_only = KeyEnv::from_pairs([("XDG_CONFIG_HOME", home)]);
        assert_eq!(
            token(&file_only, "autodl").unwrap(),
            ApiKey::new("tok-from-file-123")
        );
    }

    #[test]
    fn a_missing_token_names_every_place_looked() {
        let dir = tempfile::tempdir().unwrap();
        let env = KeyEnv::from_pairs([("HOME", dir.path().to_str().unwrap())]);
        let e = token(&env, "autodl").unwrap_err();
        let ErrorKind::Auth(Auth::Missing { tried, .. }) = e.kind() else {
            panic!("{e:?}");
        };
        assert_eq!(tried[..2], ["AUTODL_TOKEN", "AUTODL_CREDENTIALS_FILE"]);
        assert!(
            tried[2].ends_with(".config/gpumeter/autodl-token"),
            "{tried:?}"
        );
        let fix = e.fix();
        assert!(
            fix.contains("AUTODL_CREDENTIALS_FILE") && fix.contains("autodl-token"),
            "{fix}"
        );
    }

    #[test]
    fn an_unreadable_file_reads_in_chinese() {
        use crate::i18n::{Lang, scoped};
        let env = KeyEnv::from_pairs([("AUTODL_CREDENTIALS_FILE", "/nonexistent/autodl")]);
        let e = scoped(Lang::ZhCn, || token(&env, "autodl").unwrap_err());
        let message = e.message();
        assert!(
            message.starts_with("无法读取 /nonexistent/autodl（AUTODL_CREDENTIALS_FILE）："),
            "{message}"
        );
        let fix = scoped(Lang::ZhCn, || e.fix());
        assert!(fix.contains("请让 AUTODL_CREDENTIALS_FILE 指向"), "{fix}");
    }

    #[test]
    fn a_named_file_that_cannot_be_read_says_so_without_a_token_in_it() {
        let env = KeyEnv::from_pairs([("AUTODL_CREDENTIALS_FILE", "/nonexistent/autodl")]);
        let e = token(&env, "autodl").unwrap_err();
        assert!(e.to_string().contains("/nonexistent/autodl"), "{e}");
        assert!(e.fix().contains("AUTODL_CREDENTIALS_FILE"), "{}", e.fix());
    }
}
