//! Text that came from outside (a provider's error message, an instance name) made safe to show
//! on one line: no control character can reach a terminal, and nothing runs on for pages.

/// `text` with every control character (C0, DEL, C1) and every other whitespace turned into a
/// space, runs of spaces collapsed, trimmed, and cut to `max_chars` characters with an ellipsis.
pub fn one_line(text: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max_chars.saturating_mul(4)));
    let mut count = 0;
    let mut space = false;
    for c in text.trim().chars() {
        let c = if c.is_control() || c.is_whitespace() {
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
            return out;
        }
        out.push(c);
        count += 1;
    }
    out.truncate(out.trim_end().len());
    out
}

/// `text` as it may reach a terminal on the command line: line breaks stay, every other control
/// character (C0, DEL, C1; a lone carriage return too) becomes a space, so no escape sequence,
/// cursor move or line erase in a provider's, a sheet's or a config's string can act on the
/// terminal. Values interpolated into a line should be [`one_line`]d first, or a line break in
/// a name could still start a line of its own.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n';
    if !text.contains(unsafe_char) {
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

    #[test]
    fn long_text_is_cut_with_an_ellipsis() {
        assert_eq!(one_line("abcdef", 3), "abc…");
        assert_eq!(one_line("ab  cdef", 3), "ab…");
        assert_eq!(one_line("abc", 3), "abc");
    }
}
