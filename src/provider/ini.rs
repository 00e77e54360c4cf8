//! INI text as the cloud tools write it: `[section]` headers, `key = value` lines, whole-line
//! comments starting with `#` or `;`, and indented lines (nested settings such as AWS's `s3 =`
//! blocks), which belong to the key above and are skipped. A value is kept whole: no inline
//! comments are stripped. An error names the file and the line, never the line's text (it may
//! hold a secret).

use std::path::Path;

use super::ProviderError;

/// One file's sections, in order, each with its `key = value` pairs.
#[derive(Default, Clone)]
pub struct Ini {
    sections: Vec<(String, Vec<(String, String)>)>,
}

/// Section names only: values may be secrets.
impl std::fmt::Debug for Ini {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.sections.iter().map(|(n, _)| n))
            .finish()
    }
}

impl Ini {
    /// Parses an AWS file's `text`; `file` only names the file in errors.
    pub fn parse(text: &str, file: &Path) -> Result<Self, ProviderError> {
        Self::parse_for(super::ProviderKind::Aws.id(), text, file)
    }

    /// Parses `text` for `provider`'s errors; `file` only names the file in them.
    pub fn parse_for(provider: &str, text: &str, file: &Path) -> Result<Self, ProviderError> {
        let bad = |line: usize, why: &str| {
            ProviderError::state(provider, format!("{}:{line}: {why}", file.display()))
        };
        let mut sections: Vec<(String, Vec<(String, String)>)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
                continue;
            }
            if raw.starts_with([' ', '\t']) && sections.last().is_some_and(|s| !s.1.is_empty()) {
                continue;
            }
            if let Some(rest) = line.strip_prefix('[') {
                let name = rest
                    .strip_suffix(']')
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .ok_or_else(|| bad(i + 1, &crate::t!("prov-ini-bad-header")))?;
                sections.push((name.to_string(), Vec::new()));
                continue;
            }
            let (key, value) = line
                .split_once('=')
                .ok_or_else(|| bad(i + 1, &crate::t!("prov-ini-bad-line")))?;
            let key = key.trim();
            if key.is_empty() {
                return Err(bad(i + 1, &crate::t!("prov-ini-no-name")));
            }
            let section = sections
                .last_mut()
                .ok_or_else(|| bad(i + 1, &crate::t!("prov-ini-no-section")))?;
            section
                .1
                .push((key.to_ascii_lowercase(), value.trim().to_string()));
        }
        Ok(Ini { sections })
    }

    /// `key` in section `name`; a later duplicate wins, as in the AWS tools.
    pub fn get(&self, name: &str, key: &str) -> Option<&str> {
        self.sections
            .iter()
            .rev()
            .filter(|(n, _)| n == name)
            .find_map(|(_, kv)| kv.iter().rev().find(|(k, _)| k == key))
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    }

    pub fn has(&self, name: &str) -> bool {
        self.sections.iter().any(|(n, _)| n == name)
    }
}
