//! The host in one line under the GPUs: CPU, load, memory and network.

use ratatui::text::{Line, Span};

use super::text::metric;
use super::theme::{Role, Theme};
use crate::t;
use crate::telemetry::metric::u64_to_f64;
use crate::telemetry::{HostSample, Metric, Unavailable};

/// `1.2 MiB/s`: a byte rate in binary units.
fn rate(bytes_per_s: f64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = bytes_per_s.max(0.0);
    let mut unit = 0;
    while v >= 1024.0 && unit < units.len() - 1 {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{v:.0} B/s")
    } else {
        format!("{v:.1} {}/s", units[unit])
    }
}

/// The host in one line: CPU, load, memory and network, as many as fit in `w`.
pub fn host_line(host: &HostSample, w: usize, theme: &Theme) -> Line<'static> {
    let dim = theme.style(Role::TextDim);
    let text = theme.style(Role::Text);
    let rx = host
        .net
        .iter()
        .map(|n| n.rx_bytes_per_s)
        .try_fold(0.0, |acc, r| r.get().map(|v| acc + v));
    let rx: Metric<f64> = rx.map_or(Metric::Unavailable(Unavailable::Pending), Metric::Value);
    let parts: Vec<Vec<Span<'static>>> = vec![
        vec![
            Span::styled(format!("{}  CPU ", t!("host-host")), dim),
            metric(&host.cpu_pct, theme, text, |c| format!("{c:.0}%")),
        ],
        vec![
            Span::styled(format!("  {} ", t!("host-load")), dim),
            metric(&host.load_avg, theme, text, |l| format!("{:.2}", l.one)),
        ],
        vec![
            Span::styled(format!("  {} ", t!("host-ram")), dim),
            metric(&host.mem, theme, text, |m| {
                let used = m.total_mib.saturating_sub(m.available_mib);
                format!(
                    "{:.1}/{:.1} GiB",
                    u64_to_f64(used) / 1024.0,
                    u64_to_f64(m.total_mib) / 1024.0
                )
            }),
        ],
        vec![
            Span::styled(format!("  {} ↑ ", t!("host-net")), dim),
            metric(&host.tx_bytes_per_s(), theme, text, |v| rate(*v)),
            Span::styled(" ↓ ", dim),
            metric(&rx, theme, text, |v| rate(*v)),
        ],
    ];
    let mut spans = Vec::new();
    let mut used = 0;
    for part in parts {
        let pw: usize = part.iter().map(Span::width).sum();
        if used + pw > w {
            break;
        }
        used += pw;
        spans.extend(part);
    }
    Line::from(spans)
}
