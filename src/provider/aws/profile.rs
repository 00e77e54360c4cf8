//! The shared AWS files, `~/.aws/credentials` and `~/.aws/config`: INI text. Only the small subset
//! the AWS tools write is read, so it is parsed here by hand rather than with a crate: `[section]`
//! headers, `key = value` lines, whole-line comments starting with `#` or `;`, and indented lines
//! (nested settings such as `s3 =` blocks), which belong to the key above and are skipped. A value
//! is kept whole: no inline comments are stripped.
//!
//! An error names the file and the line, never the line's text (it may hold a secret).

use std::path::{Path, PathBuf};

use crate::provider::ProviderError;
pub use crate::provider::ini::Ini;

/// The two shared files for one profile, read once.
#[derive(Clone)]
pub struct SharedFiles {
    pub profile: String,
    pub credentials_path: Option<PathBuf>,
    pub config_path: Option<PathBuf>,
    credentials: Ini,
    config: Ini,
}

impl SharedFiles {
    /// Reads both files (a missing one is empty); a file that cannot be parsed is an error.
    pub fn load(
        profile: &str,
        credentials_path: Option<PathBuf>,
        config_path: Option<PathBuf>,
    ) -> Result<Self, ProviderError> {
        let read = |path: &Option<PathBuf>| -> Result<Ini, ProviderError> {
            match path.as_deref().map(std::fs::read_to_string) {
                Some(Ok(text)) => Ini::parse(&text, path.as_deref().unwrap_or(Path::new(""))),
                Some(Err(e)) if e.kind() != std::io::ErrorKind::NotFound => {
                    Err(ProviderError::state(
                        super::ID,
                        crate::t!(
                            "aws-file-unreadable",
                            path = path.as_deref().unwrap().display().to_string(),
                            error = e.to_string()
                        ),
                    ))
                }
                _ => Ok(Ini::default()),
            }
        };
        Ok(SharedFiles {
            profile: profile.to_string(),
            credentials: read(&credentials_path)?,
            config: read(&config_path)?,
            credentials_path,
            config_path,
        })
    }

    /// The profile's section name in the config file: `[default]`, else `[profile NAME]`.
    pub fn config_section(&self) -> String {
        if self.profile == "default" && !self.config.has("profile default") {
            "default".into()
        } else {
            format!("profile {}", self.profile)
        }
    }

    /// `key` from the credentials file's `[PROFILE]`.
    pub fn credentials_file(&self, key: &str) -> Option<&str> {
        self.credentials.get(&self.profile, key)
    }

    /// `key` from the config file's profile section.
    pub fn config_file(&self, key: &str) -> Option<&str> {
        self.config.get(&self.config_section(), key)
    }

    /// The same files for another profile (a role's `source_profile`).
    #[must_use]
    pub fn with_profile(&self, profile: &str) -> SharedFiles {
        SharedFiles {
            profile: profile.to_string(),
            ..self.clone()
        }
    }

    /// Whether either file has a section for the profile.
    pub fn exists(&self) -> bool {
        self.credentials.has(&self.profile) || self.config.has(&self.config_section())
    }

    /// `key` from the profile as botocore merges it: the credentials file over the config file.
    pub fn value(&self, key: &str) -> Option<&str> {
        self.credentials_file(key).or_else(|| self.config_file(key))
    }

    /// Where the credentials file's profile is, for the list of places tried.
    pub fn credentials_place(&self) -> String {
        place(
            self.credentials_path.as_deref(),
            "~/.aws/credentials",
            &self.profile,
        )
    }

    pub fn config_place(&self) -> String {
        place(
            self.config_path.as_deref(),
            "~/.aws/config",
            &self.config_section(),
        )
    }
}

fn place(path: Option<&Path>, default: &str, section: &str) -> String {
    let file = path.map_or_else(|| default.to_string(), |p| p.display().to_string());
    format!("{file} [{section}]")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ini(text: &str) -> Result<Ini, ProviderError> {
        Ini::parse(text, Path::new("creds"))
    }

    #[test]
    fn the_subset_the_aws_tools_write() {
        let i = ini("# top\n; also\n[default]\naws_access_key_id = AKID\n\
                     AWS_Secret_Access_Key=s#cret;x\n\n[profile train]\nregion = eu-west-1\n\
                     s3 =\n  max_concurrent_requests = 4\nregion = us-west-2\n")
        .unwrap();
        assert_eq!(i.get("default", "aws_access_key_id"), Some("AKID"));
        assert_eq!(
            i.get("default", "aws_secret_access_key"),
            Some("s#cret;x"),
            "no inline comments"
        );
        assert_eq!(i.get("profile train", "region"), Some("us-west-2"));
        assert_eq!(i.get("profile train", "max_concurrent_requests"), None);
        assert_eq!(i.get("nope", "region"), None);
    }

    #[test]
    fn errors_name_the_file_and_line_but_not_the_text() {
        let e = ini("[default]\naws_secret_access_key\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("creds:2"), "{e}");
        assert!(!e.contains("aws_secret_access_key"), "{e}");
        let e = ini("key = v\n").unwrap_err().to_string();
        assert!(e.contains("creds:1"), "{e}");
        let e = ini("[default\n").unwrap_err().to_string();
        assert!(e.contains("creds:1"), "{e}");
    }

    #[test]
    fn a_named_profile_is_prefixed_in_the_config_file_only() {
        let dir = std::env::temp_dir().join(format!("gpumeter-ini-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (c, f) = (dir.join("credentials"), dir.join("config"));
        std::fs::write(&c, "[train]\naws_access_key_id = A\n").unwrap();
        std::fs::write(&f, "[train]\nregion = wrong\n[profile train]\nregion = r\n").unwrap();
        let s = SharedFiles::load("train", Some(c.clone()), Some(f.clone())).unwrap();
        assert_eq!(s.credentials_file("aws_access_key_id"), Some("A"));
        assert_eq!(s.config_file("region"), Some("r"));
        std::fs::write(&f, "[default]\nregion = d\n").unwrap();
        let s = SharedFiles::load("default", Some(c), Some(f)).unwrap();
        assert_eq!(s.config_file("region"), Some("d"));
        let missing = SharedFiles::load("default", Some(dir.join("none")), None).unwrap();
        assert_eq!(missing.credentials_file("aws_access_key_id"), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
