//! Small formatting helpers the panels share: money, "n/a", clock times, widths, truncation.
//! Formatting only: every number shown comes from the state already computed.

use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Span;
use rust_decimal::Decimal;

use super::theme::{Role, Theme};
use crate::t;
use crate::telemetry::Metric;
use crate::telemetry::metric::u64_to_f64;

/// An amount as `1,234.56`: two decimals, thousands separated, no currency (the panel title
/// names it).
pub fn amount(d: Decimal) -> String {
    crate::money::grouped_cents(d)
}

/// An amount with its currency: `1,234.56 USD`.
pub fn money(m: crate::money::Money) -> String {
    m.to_string()
}

/// "n/a" in the theme's style for a reading that is missing.
pub fn na(theme: &Theme) -> Span<'static> {
    Span::styled("n/a", theme.style(Role::NA))
}

/// A metric formatted by `show`, or "n/a" when it has no value: never a silent zero.
pub fn metric<T>(
    m: &Metric<T>,
    theme: &Theme,
    style: Style,
    show: impl FnOnce(&T) -> String,
) -> Span<'static> {
    match m.value() {
        Some(v) => Span::styled(show(v), style),
        None => na(theme),
    }
}

/// A metric right-aligned in `width` columns, or "n/a" right-aligned the same way.
pub fn metric_right<T>(
    m: &Metric<T>,
    width: usize,
    theme: &Theme,
    style: Style,
    show: impl FnOnce(&T) -> String,
) -> Span<'static> {
    match m.value() {
        Some(v) => Span::styled(format!("{:>width$}", show(v)), style),
        None => Span::styled(format!("{:>width$}", "n/a"), theme.style(Role::NA)),
    }
}

/// `14:05:09` in `tz`.
pub fn clock(at: Timestamp, tz: &TimeZone) -> String {
    at.to_zoned_datetime(tz.clone())
        .strftime("%H:%M:%S")
        .to_string()
}

/// `16:15 UTC` on `now`'s day, `Sat 08:00 UTC` within a week of it, else `27 Apr 2038 06:00
/// UTC`; in Chinese `12月5日 周六 08:00 UTC` and `2038年4月27日 06:00 UTC`.
pub fn local_time(at: Timestamp, now: Timestamp, tz: &TimeZone) -> String {
    let abbreviation = at.to_zoned_datetime(tz.clone()).strftime("%Z").to_string();
    format!("{} {abbreviation}", local_clock(at, now, tz))
}

/// [`local_time`] with the zone's name beside an abbreviation that alone is ambiguous:
/// `18:30 CST (Asia/Shanghai)`, `Sat 08:00 UTC`. For the deadline, where the zone matters.
pub fn local_time_named(at: Timestamp, now: Timestamp, tz: &TimeZone) -> String {
    format!(
        "{} {}",
        local_clock(at, now, tz),
        gpumeter_core::zone::zone_label(at, tz)
    )
}

fn local_clock(at: Timestamp, now: Timestamp, tz: &TimeZone) -> String {
    let zoned = at.to_zoned_datetime(tz.clone());
    let today = now.to_zoned_datetime(tz.clone()).date();
    let days = (zoned.date() - today).get_days().abs();
    let time = zoned.strftime("%H:%M").to_string();
    if days == 0 {
        return time;
    }
    // The day's parts go to the catalogue whole: `Sat 08:00` reads `12月5日 周六 08:00`.
    let day = zoned.strftime("%-d").to_string();
    let month = month(zoned.month());
    if days <= 6 {
        let weekday = weekday(zoned.weekday());
        t!(
            "date-this-week",
            weekday = weekday,
            day = day,
            month = month,
            time = time
        )
    } else {
        let year = zoned.strftime("%Y").to_string();
        t!(
            "date-far",
            day = day,
            month = month,
            year = year,
            time = time
        )
    }
}

/// A month, short: `Apr`, `4月`.
fn month(n: i8) -> std::borrow::Cow<'static, str> {
    match n {
        1 => t!("month-1"),
        2 => t!("month-2"),
        3 => t!("month-3"),
        4 => t!("month-4"),
        5 => t!("month-5"),
        6 => t!("month-6"),
        7 => t!("month-7"),
        8 => t!("month-8"),
        9 => t!("month-9"),
        10 => t!("month-10"),
        11 => t!("month-11"),
        _ => t!("month-12"),
    }
}

/// A day of the week, short: `Mon`, `周一`.
fn weekday(day: jiff::civil::Weekday) -> std::borrow::Cow<'static, str> {
    use jiff::civil::Weekday;
    match day {
        Weekday::Monday => t!("weekday-mon"),
        Weekday::Tuesday => t!("weekday-tue"),
        Weekday::Wednesday => t!("weekday-wed"),
        Weekday::Thursday => t!("weekday-thu"),
        Weekday::Friday => t!("weekday-fri"),
        Weekday::Saturday => t!("weekday-sat"),
        Weekday::Sunday => t!("weekday-sun"),
    }
}

/// `3h20m`, `12m`, `45s`, `2d4h`: an elapsed time in at most two units.
pub fn short_duration(d: SignedDuration) -> String {
    let s = d.as_secs().unsigned_abs();
    let (days, hours, minutes) = (s / 86_400, s / 3600 % 24, s / 60 % 60);
    if days > 0 {
        format!("{days}d{hours}h")
    } else if hours > 0 && minutes == 0 {
        format!("{hours}h")
    } else if hours > 0 {
        format!("{hours}h{minutes:02}m")
    } else if minutes > 0 && s.is_multiple_of(60) {
        format!("{minutes}m")
    } else if minutes > 0 {
        format!("{minutes}m{:02}s", s % 60)
    } else {
        format!("{s}s")
    }
}

/// Display width of a string, as the terminal draws it.
pub fn width(s: &str) -> usize {
    Span::raw(s).width()
}

/// `s` cut to `max` columns, ending in "…" when it was cut.
pub fn truncate(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut out = String::new();
    for c in s.chars() {
        if width(&out) + width(c.encode_utf8(&mut [0; 4])) + 1 > max {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// Splits `text` into lines of at most `max` columns, at spaces where it can, and beside a
/// Chinese character (Chinese has no spaces), never before closing punctuation or after
/// opening punctuation.
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut lines = Vec::new();
    let mut current = String::new();
    for (word, spaced) in text.split(' ').flat_map(|piece| {
        pieces(piece)
            .into_iter()
            .enumerate()
            .map(|(i, part)| (part, i == 0))
    }) {
        let mut word = word.to_string();
        loop {
            let sep = usize::from(spaced && !current.is_empty());
            if width(&current) + sep + width(&word) <= max {
                if sep == 1 {
                    current.push(' ');
                }
                current.push_str(&word);
                break;
            }
            if !current.is_empty() {
                lines.push(std::mem::take(&mut current));
                continue;
            }
            // A word longer than the line (or Chinese, which has no spaces): cut it where the
            // columns run out, never inside a wide character.
            let mut used = 0;
            let cut = word
                .char_indices()
                .find(|&(i, c)| {
                    used += width(c.encode_utf8(&mut [0; 4]));
                    i > 0 && used > max
                })
                .map_or(word.len(), |(i, _)| i);
            let rest = word.split_off(cut);
            lines.push(word);
            if rest.is_empty() {
                break;
            }
            word = rest;
        }
    }
    if !current.is_empty() || lines.is_empty() {
        lines.push(current);
    }
    lines
}

/// `piece` (text without spaces) cut where a line may break beside a wide character.
fn pieces(piece: &str) -> Vec<&str> {
    const CLOSING: &str = "，。、：；！？）」』》〉】…";
    const OPENING: &str = "（「『《〈【";
    let wide = |c: char| unicode_width::UnicodeWidthChar::width(c) == Some(2);
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev: Option<char> = None;
    for (i, c) in piece.char_indices() {
        if let Some(p) = prev
            && (wide(p) || wide(c))
            && !CLOSING.contains(c)
            && !OPENING.contains(p)
        {
            out.push(&piece[start..i]);
            start = i;
        }
        prev = Some(c);
    }
    out.push(&piece[start..]);
    out
}

/// A `u16` from a count, saturating.
pub fn to_u16(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

/// Clears `popup` for an overlay, and the wide character (Chinese) left of it whose second
/// half the overlay's border would cover: a terminal draws the character whole, over the
/// border, and shifts the row.
pub fn clear_popup(popup: Rect, buf: &mut ratatui::buffer::Buffer) {
    use ratatui::widgets::Widget as _;
    ratatui::widgets::Clear.render(popup, buf);
    let Some(left) = popup.x.checked_sub(1).filter(|x| *x >= buf.area.x) else {
        return;
    };
    for y in popup.top()..popup.bottom().min(buf.area.bottom()) {
        if width(buf[(left, y)].symbol()) > 1 {
            buf[(left, y)].set_symbol(" ");
        }
    }
}

/// A rectangle of at most `w`×`h` centred in `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// The GPU's model without the vendor prefix NVML puts in front.
pub fn gpu_model(name: &str) -> &str {
    name.strip_prefix("NVIDIA ").unwrap_or(name)
}

/// MiB as GiB with one decimal.
pub fn gib(mib: u64) -> String {
    format!("{:.1}", u64_to_f64(mib) / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_wraps_where_the_columns_run_out() {
        let lines = wrap("看门狗为使用此账本的每个驾驶舱执行共享的截止时间。", 10);
        assert!(lines.len() > 1, "{lines:?}");
        for line in &lines {
            assert!(width(line) <= 10, "{line:?} in {lines:?}");
        }
        assert_eq!(
            lines.concat(),
            "看门狗为使用此账本的每个驾驶舱执行共享的截止时间。"
        );
    }

    #[test]
    fn chinese_breaks_beside_its_characters_and_keeps_an_id_whole() {
        let text = "演示云已就绪：i-0demo4a100f00d（llm-finetune）";
        let lines = wrap(text, 20);
        assert_eq!(
            lines,
            vec!["演示云已就绪：", "i-0demo4a100f00d", "（llm-finetune）"]
        );
        // Closing punctuation stays with what it closes, at any width an id fits.
        for max in 16..30 {
            for line in wrap(text, max) {
                assert!(!line.starts_with(['：', '）']), "{max}: {line:?}");
                assert!(!line.ends_with('（'), "{max}: {line:?}");
            }
        }
    }

    #[test]
    fn an_overlay_takes_the_wide_character_its_border_would_cut() {
        let mut buf = ratatui::buffer::Buffer::empty(Rect::new(0, 0, 8, 2));
        buf.set_string(0, 0, "利用率", ratatui::style::Style::default());
        buf.set_string(0, 1, "abc利", ratatui::style::Style::default());
        clear_popup(Rect::new(3, 0, 4, 2), &mut buf);
        // Row 0: 用 (columns 2-3) would lose its second half under the border: it goes, and
        // 利 beside it stays. Row 1: the narrow c left of the overlay stays.
        assert_eq!(buf[(2, 0)].symbol(), " ");
        assert_eq!(buf[(0, 0)].symbol(), "利");
        assert_eq!(buf[(2, 1)].symbol(), "c");
    }

    #[test]
    fn truncation_and_wrapping_respect_widths() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
        assert_eq!(truncate("abc", 0), "");
        assert_eq!(wrap("one two three", 7), vec!["one two", "three"]);
        assert_eq!(wrap("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4), vec![""]);
    }

    #[test]
    fn amounts_have_two_decimals() {
        assert_eq!(amount(Decimal::new(12345, 3)), "12.35");
        assert_eq!(amount(Decimal::from(3)), "3.00");
        assert_eq!(amount(Decimal::from(278_835)), "278,835.00");
    }

    #[test]
    fn short_durations_use_two_units() {
        assert_eq!(short_duration(SignedDuration::from_secs(12_000)), "3h20m");
        assert_eq!(short_duration(SignedDuration::from_secs(65)), "1m05s");
        assert_eq!(short_duration(SignedDuration::from_secs(200_000)), "2d7h");
        assert_eq!(short_duration(SignedDuration::from_hours(1)), "1h");
    }
}
