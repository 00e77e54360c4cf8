//! What the adapter has seen linked to an instance, kept in a small file in the data directory.
//!
//! EC2 forgets the links when an instance terminates: its surviving data volume shows no
//! attachment, its elastic IP no instance. So every id seen linked is remembered. After the
//! release it is one source among the ledger's recorded ids and the links EC2 keeps
//! (`links.rs`): on the instance itself this file lives on the root disk the release deletes,
//! so nothing depends on it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::meter::InstanceState;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Known {
    pub volumes: BTreeSet<String>,
    pub images: BTreeSet<String>,
    pub allocations: BTreeSet<String>,
    /// State changes the adapter saw, oldest first.
    pub transitions: Vec<(Timestamp, InstanceState)>,
    /// The region the instance was listed in; `None` in a file written before regions were
    /// kept, which stands for any.
    pub region: Option<String>,
}

impl Known {
    /// Records `state` at `now` if it differs from the last state seen.
    pub fn saw_state(&mut self, state: InstanceState, now: Timestamp) {
        if self.transitions.last().map(|t| t.1) != Some(state) {
            self.transitions.push((now, state));
        }
    }
}

/// The memory file for `instance` in `dir`; ids are reduced to safe file-name characters.
pub fn path(dir: &Path, instance: &str) -> PathBuf {
    dir.join(format!("aws-{}.json", crate::files::safe_name(instance)))
}

/// The remembered links; nothing (not an error) when there is no file or it cannot be read.
pub fn load(path: &Path) -> Known {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// Writes `known` through a temporary file renamed over the old one. Failing to remember is
/// not worth failing the inventory for; the caller may ignore the error.
pub fn save(path: &Path, known: &Known) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(known).map_err(std::io::Error::other)?;
    crate::files::write_private(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_across_loads_and_survives_a_bad_file() {
        let dir = std::env::temp_dir().join(format!("gpumeter-known-{}", std::process::id()));
        let p = path(&dir, "i-0abc/../x");
        assert!(p.ends_with("aws-i-0abcx.json"));
        let mut k = Known::default();
        k.volumes.insert("vol-1".into());
        let t = Timestamp::UNIX_EPOCH;
        k.saw_state(InstanceState::Running, t);
        k.saw_state(InstanceState::Running, t);
        assert_eq!(k.transitions.len(), 1);
        save(&p, &k).unwrap();
        assert_eq!(load(&p), k);
        std::fs::write(&p, "{ not json").unwrap();
        assert_eq!(load(&p), Known::default());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
