//! Text that came from outside (a provider's error message, an instance name) made safe to show
//! on one line: no control character can reach a terminal, and nothing runs on for pages.
//! [`is_unsafe`] is the one rule for which characters those are; every sanitiser, in the core
//! and at the edges, asks it.

/// Printable ASCII that `one_line` would give back as it is: no space at either end or two
/// in a row, and short enough. A bill's ids, names and units nearly all are, a million a file.
fn is_plain(text: &str, max_chars: usize) -> bool {
    let bytes = text.as_bytes();
    bytes.len() <= max_chars
        && bytes.first().is_none_or(|&b| b != b' ')
        && bytes.last().is_none_or(|&b| b != b' ')
        && printable_ascii(bytes)
        && !memchr::memchr_iter(b' ', bytes).any(|at| bytes.get(at + 1) == Some(&b' '))
}

/// Whether every byte is printable ASCII, a space to `~`: told eight bytes at a time, since
/// the release build is made for size and does not vectorise the byte loop, and an audit's
/// report runs to hundreds of MB of such text.
fn printable_ascii(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let mut words = bytes.chunks_exact(8);
    let odd = words.by_ref().fold(0, |seen, word| {
        let w = u64::from_ne_bytes(word.try_into().unwrap_or([0; 8]));
        // A byte below 0x20 borrows through its high bit; one of 0x7F or more has it set
        // once 1 is added. Neither test sees a hit that is not there when none is.
        let below = w.wrapping_sub(ONES * 0x20) & !w;
        let above = w.wrapping_add(ONES) | w;
        seen | ((below | above) & HIGH)
    });
    odd == 0 && words.remainder().iter().all(|&b| matches!(b, b' '..=b'~'))
}

/// [`printable_ascii`], line breaks allowed.
fn printable_ascii_lines(bytes: &[u8]) -> bool {
    let mut from = 0;
    for at in memchr::memchr_iter(b'\n', bytes) {
        if !bytes.get(from..at).is_some_and(printable_ascii) {
            return false;
        }
        from = at + 1;
    }
    bytes.get(from..).is_some_and(printable_ascii)
}

/// Whether `c` must never reach a terminal as it is: a control character (C0, DEL, C1), which
/// moves the cursor, erases or starts an escape sequence, or a bidirectional control (the
/// embeddings and overrides U+202A..U+202E, the isolates U+2066..U+2069, the marks U+200E,
/// U+200F and U+061C), which makes a terminal that honours them show what follows reversed:
/// a name could show as something it is not (`gpu-\u{202E}kcab` reads as `gpu-back`).
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}'
        )
}

/// `text` with every [unsafe](is_unsafe) character and every whitespace turned into a space, runs of spaces collapsed, trimmed, and cut to `max_chars` characters with an ellipsis.
pub fn one_line(text: &str, max_chars: usize) -> String {
    one_line_cow(text, max_chars).into_owned()
}

/// [`one_line`], borrowing `text` where it is already one safe line.
pub fn one_line_cow(text: &str, max_chars: usize) -> std::borrow::Cow<'_, str> {
    if is_plain(text, max_chars) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().min(max_chars.saturating_mul(4)));
    let mut count = 0;
    // As if after a space: what becomes a space at the start is dropped, as at the end.
    let mut space = true;
    for c in text.trim().chars() {
        let c = if is_unsafe(c) || c.is_whitespace() {
            ' '
        } else {
            c
        };
        if c == ' ' {
            if space {
                continue;
            }
            space = true;
        } else {
            space = false;
        }
        if count == max_chars {
            out.truncate(out.trim_end().len());
            out.push('…');
            return std::borrow::Cow::Owned(out);
        }
        out.push(c);
        count += 1;
    }
    out.truncate(out.trim_end().len());
    std::borrow::Cow::Owned(out)
}

/// `text` as it may reach a terminal on the command line: line breaks stay, every other
/// [unsafe](is_unsafe) character (a lone carriage return too) becomes a space, so no escape
/// sequence, cursor move, line erase or reordering in a provider's, a sheet's or a config's
/// string can act on the terminal. Values interpolated into a line should be [`one_line`]d first, or a line break in
/// a name could still start a line of its own.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| is_unsafe(c) && c != '\n';
    // Printable ASCII and line breaks, as nearly all output is, told by its bytes alone.
    if printable_ascii_lines(text.as_bytes()) || !text.contains(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| if unsafe_char(c) { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_become_single_spaces() {
        let evil = "done\x07\x1b]0;pwned\x07\x1b[2J\u{9b}31m\r\nrm -rf\u{7f}";
        assert_eq!(one_line(evil, 200), "done ]0;pwned [2J 31m rm -rf");
        assert_eq!(one_line("  a \t\n b  ", 200), "a b");
        assert_eq!(one_line("", 10), "");
        assert_eq!(one_line("a  b c   d e", 200), "a b c d e");
    }

    #[test]
    fn printable_keeps_line_breaks_and_nothing_else_that_moves_the_cursor() {
        let evil = "a\x1b]52;c;cHduZWQ=\x07b\r\x1b[2Kc\u{9b}1Ad\ne\tf";
        assert_eq!(printable(evil), "a ]52;c;cHduZWQ= b  [2Kc 1Ad\ne f");
        assert!(matches!(
            printable("plain\ntext"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    /// Every bidirectional control Unicode lists (UAX #9, table 1), in a name.
    const BIDI: [char; 12] = [
        '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}',
        '\u{2068}', '\u{2069}', '\u{200E}', '\u{200F}', '\u{061C}',
    ];

    #[test]
    fn bidirectional_controls_are_unsafe_and_their_neighbours_are_not() {
        assert!(BIDI.into_iter().all(is_unsafe));
        // Right-to-left letters themselves, and the joiners scripts need, stay.
        for fine in [
            'א', 'ع', '\u{200D}', '\u{200C}', '\u{2029}', '\u{2065}', '\u{202F}',
        ] {
            assert!(!is_unsafe(fine), "{fine:?}");
        }
    }

    #[test]
    fn bidirectional_controls_become_spaces_on_one_line_and_when_printed() {
        for c in BIDI {
            let name = format!("gpu-{c}kcab");
            assert_eq!(one_line(&name, 200), "gpu- kcab", "{c:?}");
            assert_eq!(printable(&format!("{name}\nx")), "gpu- kcab\nx", "{c:?}");
        }
        assert_eq!(one_line("\u{202E}\u{2066}a\u{2069}", 200), "a");
    }

    #[test]
    fn printable_ascii_is_told_right_for_every_byte_in_every_place() {
        for bad in 0..=u8::MAX {
            let expected = matches!(bad, b' '..=b'~');
            for len in 1..=17 {
                for at in 0..len {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = bad;
                    assert_eq!(
                        printable_ascii(&bytes),
                        expected,
                        "{bad:#x} at {at} of {len}"
                    );
                    if len > 2 {
                        bytes[(at + 1) % len] = b'~';
                        bytes[(at + 2) % len] = b' ';
                        assert_eq!(printable_ascii(&bytes), expected, "{bad:#x}, {at} of {len}");
                    }
                }
            }
            let lines = [b'x', b'\n', bad, b'\n', b'y'];
            assert_eq!(printable_ascii_lines(&lines), expected || bad == b'\n');
        }
        assert!(printable_ascii(b"") && printable_ascii_lines(b"\n\n"));
    }

    #[test]
    fn long_text_is_cut_with_an_ellipsis() {
        assert_eq!(one_line("abcdef", 3), "abc…");
        assert_eq!(one_line("ab  cdef", 3), "ab…");
        assert_eq!(one_line("abc", 3), "abc");
    }
}
