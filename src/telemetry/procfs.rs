//! Parsers for the few /proc files the host reader needs. Pure functions over text, so they are
//! tested on fixed strings; anything malformed gives `None` or is skipped, never a panic.

use super::sample::{LoadAvg, Memory};

/// Jiffies of one CPU line of /proc/stat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct CpuTicks {
    pub busy: u64,
    pub total: u64,
}

impl CpuTicks {
    /// Busy share between two readings in percent; `None` if no time passed or counters reset.
    pub fn pct_since(self, earlier: CpuTicks) -> Option<f64> {
        let total = self.total.checked_sub(earlier.total)?;
        let busy = self.busy.checked_sub(earlier.busy)?;
        if total == 0 || busy > total {
            return None;
        }
        Some(super::metric::u64_to_f64(busy) * 100.0 / super::metric::u64_to_f64(total))
    }
}

/// /proc/stat: the aggregate `cpu` line and one line per online core, in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct CpuStat {
    pub all: CpuTicks,
    pub cores: Vec<CpuTicks>,
}

pub(crate) fn parse_stat(text: &str, out: &mut CpuStat) -> bool {
    out.cores.clear();
    let mut found_all = false;
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("cpu") else {
            // The cpu lines come first; stop at the first other line.
            if found_all {
                break;
            }
            continue;
        };
        let (label, fields) = rest.split_once(' ').unwrap_or((rest, ""));
        let Some(ticks) = parse_ticks(fields) else {
            return false;
        };
        if label.is_empty() {
            out.all = ticks;
            found_all = true;
        } else if label.bytes().all(|b| b.is_ascii_digit()) {
            out.cores.push(ticks);
        }
    }
    found_all
}

/// user nice system idle iowait irq softirq steal (guest time is already inside user).
fn parse_ticks(fields: &str) -> Option<CpuTicks> {
    let mut v = [0_u64; 8];
    let mut n = 0;
    for (slot, field) in v.iter_mut().zip(fields.split_ascii_whitespace()) {
        *slot = field.parse().ok()?;
        n += 1;
    }
    if n < 4 {
        return None;
    }
    let total = v.iter().try_fold(0_u64, |a, x| a.checked_add(*x))?;
    let idle = v[3].checked_add(v[4])?;
    Some(CpuTicks {
        busy: total.checked_sub(idle)?,
        total,
    })
}

pub(crate) fn parse_loadavg(text: &str) -> Option<LoadAvg> {
    let mut it = text.split_ascii_whitespace().map(str::parse::<f64>);
    Some(LoadAvg {
        one: it.next()?.ok()?,
        five: it.next()?.ok()?,
        fifteen: it.next()?.ok()?,
    })
}

pub(crate) fn parse_meminfo(text: &str) -> Option<Memory> {
    let (mut total, mut available, mut free) = (None, None, None);
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let kib = || {
            value
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        };
        match key {
            "MemTotal" => total = kib(),
            "MemAvailable" => available = kib(),
            "MemFree" => free = kib(),
            _ => {}
        }
        if total.is_some() && available.is_some() {
            break;
        }
    }
    Some(Memory {
        total_mib: total? / 1024,
        // Kernels before 3.14 have no MemAvailable; free memory is the closest lower bound.
        available_mib: available.or(free)? / 1024,
    })
}

/// Counters of one interface from /proc/net/dev.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NetCounters<'a> {
    pub name: &'a str,
    pub rx_bytes: u64,
    pub tx_bytes: u64,
}

pub(crate) fn parse_net_dev(text: &str) -> impl Iterator<Item = NetCounters<'_>> {
    text.lines().skip(2).filter_map(|line| {
        let (name, rest) = line.split_once(':')?;
        let mut fields = rest.split_ascii_whitespace();
        let rx_bytes = fields.next()?.parse().ok()?;
        let tx_bytes = fields.nth(7)?.parse().ok()?;
        Some(NetCounters {
            name: name.trim(),
            rx_bytes,
            tx_bytes,
        })
    })
}

/// One line of /proc/self/mounts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MountEntry {
    pub device: String,
    pub mount: String,
    pub fs_type: String,
}

pub(crate) fn parse_mounts(text: &str) -> impl Iterator<Item = MountEntry> + '_ {
    text.lines().filter_map(|line| {
        let mut f = line.split_ascii_whitespace();
        Some(MountEntry {
            device: unescape(f.next()?),
            mount: unescape(f.next()?),
            fs_type: f.next()?.to_owned(),
        })
    })
}

/// The kernel writes space, tab, newline and backslash in mount fields as `\ooo` octal.
fn unescape(field: &str) -> String {
    if !field.contains('\\') {
        return field.to_owned();
    }
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes
            .get(i + 1..i + 4)
            .filter(|_| bytes[i] == b'\\')
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| u8::from_str_radix(d, 8).ok());
        if let Some(b) = octal {
            out.push(b);
            i += 4;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAT: &str = "cpu  100 0 50 800 50 0 0 0 0 0\n\
                        cpu0 60 0 20 400 20 0 0 0 0 0\n\
                        cpu1 40 0 30 400 30 0 0 0 0 0\n\
                        intr 12345 0 0\nctxt 999\n";

    #[test]
    fn stat_gives_busy_and_total_per_core() {
        let mut s = CpuStat::default();
        assert!(parse_stat(STAT, &mut s));
        assert_eq!(
            s.all,
            CpuTicks {
                busy: 150,
                total: 1000
            }
        );
        assert_eq!(s.cores.len(), 2);
        assert_eq!(
            s.cores[1],
            CpuTicks {
                busy: 70,
                total: 500
            }
        );
        let later = CpuTicks {
            busy: 250,
            total: 1200,
        };
        assert_eq!(later.pct_since(s.all), Some(50.0));
        assert_eq!(
            s.all.pct_since(later),
            None,
            "counters going back are a reset"
        );
        assert!(!parse_stat("garbage", &mut s));
        assert!(!parse_stat("cpu  x y z\n", &mut s));
    }

    #[test]
    fn loadavg_and_meminfo() {
        let l = parse_loadavg("0.18 0.29 0.15 1/84 8034\n").unwrap();
        assert!((l.five - 0.29).abs() < 1e-9);
        assert_eq!(parse_loadavg("0.1"), None);
        let m =
            parse_meminfo("MemTotal:  2048000 kB\nMemFree: 1024 kB\nMemAvailable: 1024000 kB\n");
        assert_eq!(
            m,
            Some(Memory {
                total_mib: 2000,
                available_mib: 1000
            })
        );
        let old = parse_meminfo("MemTotal: 2048 kB\nMemFree: 1024 kB\n").unwrap();
        assert_eq!(old.available_mib, 1);
        assert_eq!(parse_meminfo("nothing"), None);
    }

    #[test]
    fn net_dev_reads_rx_and_tx_bytes() {
        let text = "Inter-|   Receive |  Transmit\n face |bytes packets|bytes\n\
                    \x20   lo:    3193 29 0 0 0 0 0 0     3193 29 0 0 0 0 0 0\n\
                    \x20 eth0:56634182 3415 0 0 0 0 0 0   310463 2584 0 0 0 0 0 0\n\
                    broken line\n";
        let all: Vec<_> = parse_net_dev(text).collect();
        assert_eq!(all.len(), 2);
        assert_eq!(
            all[1],
            NetCounters {
                name: "eth0",
                rx_bytes: 56_634_182,
                tx_bytes: 310_463
            }
        );
    }

    #[test]
    fn mounts_unescape_octal() {
        let text = "/dev/vda / ext4 rw 0 0\n/dev/sdb1 /mnt/my\\040data xfs rw 0 0\nshort\n";
        let m: Vec<_> = parse_mounts(text).collect();
        assert_eq!(m.len(), 2);
        assert_eq!(m[1].mount, "/mnt/my data");
        assert_eq!(unescape("a\\134b\\"), "a\\b\\");
    }
}
