//! Names, command lines and users of the processes that hold a GPU.
//!
//! Only the PIDs NVML reports are looked up (never a scan of /proc), each once while it keeps
//! appearing; /etc/passwd is read once, on first need.

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;

/// What /proc says about one process; `None` where it could not be read (another PID
/// namespace, a process that just exited).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct ProcDetails {
    pub name: Option<String>,
    pub cmdline: Option<String>,
    pub user: Option<String>,
}

/// Longest command line kept; the rest is cut with an ellipsis.
const MAX_CMDLINE: usize = 512;

pub(crate) struct ProcTable {
    proc_root: PathBuf,
    passwd: PathBuf,
    users: Option<HashMap<u32, String>>,
    cache: HashMap<u32, ProcDetails>,
}

impl ProcTable {
    pub fn new(proc_root: PathBuf, passwd: PathBuf) -> Self {
        ProcTable {
            proc_root,
            passwd,
            users: None,
            cache: HashMap::new(),
        }
    }

    pub fn system() -> Self {
        ProcTable::new(PathBuf::from("/proc"), PathBuf::from("/etc/passwd"))
    }

    pub fn describe(&mut self, pid: u32) -> ProcDetails {
        if let Some(d) = self.cache.get(&pid) {
            return d.clone();
        }
        let dir = self.proc_root.join(pid.to_string());
        let name = std::fs::read_to_string(dir.join("comm"))
            .ok()
            .map(|s| s.trim_end().to_owned());
        let cmdline = std::fs::read(dir.join("cmdline"))
            .ok()
            .and_then(|raw| join_cmdline(&raw));
        let uid = std::fs::metadata(&dir).ok().map(|m| m.uid());
        let user = uid.map(|uid| self.user_name(uid));
        let details = ProcDetails {
            name,
            cmdline,
            user,
        };
        self.cache.insert(pid, details.clone());
        details
    }

    /// Drops cached processes not in `alive`, so a reused PID is looked up afresh and the
    /// cache stays as small as the set of GPU processes.
    pub fn retain(&mut self, alive: &[u32]) {
        self.cache.retain(|pid, _| alive.contains(pid));
    }

    fn user_name(&mut self, uid: u32) -> String {
        let passwd = &self.passwd;
        let users = self.users.get_or_insert_with(|| {
            std::fs::read_to_string(passwd)
                .map(|text| parse_passwd(&text))
                .unwrap_or_default()
        });
        users.get(&uid).cloned().unwrap_or_else(|| uid.to_string())
    }
}

fn parse_passwd(text: &str) -> HashMap<u32, String> {
    text.lines()
        .filter_map(|line| {
            let mut f = line.split(':');
            let name = f.next()?;
            let uid = f.nth(1)?.parse().ok()?;
            Some((uid, name.to_owned()))
        })
        .collect()
}

/// NUL-separated arguments joined by spaces; `None` for kernel threads (empty cmdline).
fn join_cmdline(raw: &[u8]) -> Option<String> {
    let args: Vec<_> = raw
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(String::from_utf8_lossy)
        .collect();
    if args.is_empty() {
        return None;
    }
    let mut line = args.join(" ");
    if line.len() > MAX_CMDLINE {
        let mut cut = MAX_CMDLINE;
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        line.truncate(cut);
        line.push('…');
    }
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwd_maps_uid_to_name() {
        let users = parse_passwd(
            "root:x:0:0:root:/root:/bin/bash\nubuntu:x:1000:1000::/home/ubuntu:/bin/sh\nbad\n",
        );
        assert_eq!(users.get(&1000).map(String::as_str), Some("ubuntu"));
        assert_eq!(users.len(), 2);
    }

    #[test]
    fn cmdline_joins_arguments_and_caps_length() {
        assert_eq!(
            join_cmdline(b"python\0train.py\0--lr\x000.1\0").as_deref(),
            Some("python train.py --lr 0.1")
        );
        assert_eq!(join_cmdline(b""), None);
        let long = vec![b'a'; 2000];
        assert!(join_cmdline(&long).unwrap().len() <= MAX_CMDLINE + '…'.len_utf8());
    }

    #[test]
    fn describes_this_very_process() {
        let mut table = ProcTable::system();
        let me = table.describe(std::process::id());
        assert!(
            me.name.is_some() && me.cmdline.is_some() && me.user.is_some(),
            "{me:?}"
        );
        table.retain(&[]);
        assert!(table.cache.is_empty());
        let gone = table.describe(u32::MAX);
        assert_eq!(gone, ProcDetails::default());
    }
}
