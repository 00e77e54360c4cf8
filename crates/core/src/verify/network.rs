//! The network a plan promises (`verify --bandwidth URL`): a bounded download from an address
//! the user names, its best one-second window, against the Mbps the price sheet (or the
//! config) states for a fixed-bandwidth plan.

use rust_decimal::Decimal;
use serde::Serialize;

/// The window the peak rate is measured over, seconds.
pub const WINDOW_S: f64 = 1.0;

/// A finished (or given up) download: when each piece arrived and how much had by then.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Download {
    /// The address, without its query, fragment or credentials (a signed URL's key stays out of
    /// the ledger).
    pub url: String,
    /// Bytes received.
    pub bytes: u64,
    /// Seconds from the first piece to the last.
    pub seconds: f64,
    /// The best one-second window, Mbit/s; `None` when it lasted less than a second or failed.
    pub peak_mbps: Option<f64>,
    /// Why it stopped early or never started; `None` when it ran to its end or its caps.
    pub error: Option<String>,
}

impl Download {
    /// The download of `url` from its pieces: seconds since the request was answered and
    /// bytes received so far, in order.
    pub fn from_samples(url: &str, samples: &[(f64, u64)], error: Option<String>) -> Self {
        let first = samples.first().copied().unwrap_or((0.0, 0));
        let last = samples.last().copied().unwrap_or((0.0, 0));
        Download {
            url: crate::text::one_line(url, 200),
            bytes: last.1,
            seconds: last.0 - first.0,
            peak_mbps: peak_mbps(samples, WINDOW_S),
            error: error.map(|e| crate::text::one_line(&e, 200)),
        }
    }
}

/// The most bits that arrived within any `window` seconds, as Mbit/s. A window starts at a
/// piece's arrival and counts the pieces after it: the first piece may hold what queued while
/// the request was answered, which is no measure of the link. `None` when the pieces span
/// less than one window.
pub fn peak_mbps(samples: &[(f64, u64)], window: f64) -> Option<f64> {
    let (first, last) = (samples.first()?, samples.last()?);
    if last.0 - first.0 < window {
        return None;
    }
    let mut end = 0;
    let mut best = 0_u64;
    for (start, &(t0, b0)) in samples.iter().enumerate() {
        end = end.max(start);
        while end + 1 < samples.len() && samples[end + 1].0 <= t0 + window {
            end += 1;
        }
        best = best.max(samples[end].1.saturating_sub(b0));
    }
    #[expect(
        clippy::cast_precision_loss,
        reason = "bytes in a second are far below 2^52"
    )]
    let bits = best as f64 * 8.0;
    Some(bits / window / 1e6)
}

/// What the bandwidth check judges: the download, and the Mbps the plan promises.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NetworkInput {
    pub download: Download,
    /// `None` where neither the sheet nor the config states it.
    pub promised_mbps: Option<Decimal>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pieces of `size` bytes every `gap` seconds for `seconds`.
    fn steady(size: u64, gap: f64, seconds: f64) -> Vec<(f64, u64)> {
        let mut out = Vec::new();
        let mut t = 0.0;
        let mut bytes = 0;
        while t <= seconds + 1e-9 {
            bytes += size;
            out.push((t, bytes));
            t += gap;
        }
        out
    }

    #[test]
    fn a_steady_download_peaks_at_its_rate() {
        // 125 000 bytes every 0.1 s: 10 Mbit/s.
        let peak = peak_mbps(&steady(125_000, 0.1, 3.0), 1.0).unwrap();
        assert!((peak - 10.0).abs() < 0.01, "{peak}");
    }

    #[test]
    fn the_best_second_counts_not_the_average() {
        let mut samples = steady(12_500, 0.1, 2.0);
        let (t, b) = *samples.last().unwrap();
        // Then one fast second: 1 250 000 bytes over 1 s, in ten pieces.
        for k in 1..=10 {
            samples.push((
                t + f64::from(k) * 0.1,
                b + u64::try_from(k).unwrap() * 125_000,
            ));
        }
        let peak = peak_mbps(&samples, 1.0).unwrap();
        assert!((peak - 10.0).abs() < 0.01, "{peak}");
    }

    #[test]
    fn less_than_a_second_is_no_measure_and_the_first_piece_is_not_counted() {
        assert_eq!(peak_mbps(&steady(1_000_000, 0.1, 0.5), 1.0), None);
        assert_eq!(peak_mbps(&[], 1.0), None);
        // A big first piece (queued while the answer came) and a slow trickle after it.
        let samples = [(0.0, 5_000_000), (0.5, 5_012_500), (1.0, 5_025_000)];
        let peak = peak_mbps(&samples, 1.0).unwrap();
        assert!((peak - 0.2).abs() < 1e-9, "{peak}");
    }

    #[test]
    fn a_download_is_one_line_and_sums_its_pieces() {
        let d = Download::from_samples("http://h/x\n", &steady(125_000, 0.1, 2.0), None);
        assert_eq!(d.url, "http://h/x");
        assert_eq!(d.bytes, 21 * 125_000);
        assert!((d.seconds - 2.0).abs() < 1e-9);
    }
}
