//! Output too large to build as one string (an audit of a million lines), written as it is
//! made: the bytes are made printable on their way out (`text::printable`, as [`super::emit`]
//! makes a string), a character that one write splits from the next held until its rest
//! comes, and stdout is written in blocks, not a line at a time.

use std::borrow::Cow;
use std::io::{self, BufWriter, Write};

use gpumeter_core::text::printable;

/// Bytes made printable as they pass to `inner`.
pub struct Printable<W: Write> {
    inner: W,
    /// The first bytes of a character whose rest has not come yet.
    held: Vec<u8>,
}

impl<W: Write> Printable<W> {
    pub fn new(inner: W) -> Printable<W> {
        Printable {
            inner,
            held: Vec::new(),
        }
    }
}

impl<W: Write> Write for Printable<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.held.extend_from_slice(buf);
        let (text, whole) = match std::str::from_utf8(&self.held) {
            Ok(text) => (Cow::Borrowed(text), self.held.len()),
            Err(e) => {
                // The end of a character to come is held for the next write; bytes that are
                // no UTF-8 at all (never from a `&str`) pass as U+FFFD.
                let whole = match e.error_len() {
                    None => e.valid_up_to(),
                    Some(_) => self.held.len(),
                };
                (String::from_utf8_lossy(&self.held[..whole]), whole)
            }
        };
        self.inner.write_all(printable(&text).as_bytes())?;
        drop(text);
        self.held.drain(..whole);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.held.is_empty() {
            let text = String::from_utf8_lossy(&self.held).into_owned();
            self.held.clear();
            self.inner.write_all(printable(&text).as_bytes())?;
        }
        self.inner.flush()
    }
}

/// Stdout, made printable and written in blocks; flush it when done.
pub fn stdout() -> BufWriter<Printable<io::StdoutLock<'static>>> {
    BufWriter::with_capacity(64 << 10, Printable::new(io::stdout().lock()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `text` becomes written `step` bytes at a time.
    fn through(text: &str, step: usize) -> String {
        let mut out = Printable::new(Vec::new());
        for chunk in text.as_bytes().chunks(step) {
            out.write_all(chunk).unwrap();
        }
        out.flush().unwrap();
        String::from_utf8(out.inner).unwrap()
    }

    #[test]
    fn bytes_written_in_pieces_come_out_as_the_whole_string_made_printable() {
        let text = "id \u{202E}kcab\u{1b}[2J, 合计 é\u{7f}\u{85}\n{\"a\": \"\u{2066}x\"}\ttab\r\n";
        let whole = printable(text).into_owned();
        assert!(!whole.contains(['\u{202E}', '\u{1b}', '\u{2066}', '\t', '\r', '\u{85}']));
        for step in 1..=text.len() {
            assert_eq!(through(text, step), whole, "{step} bytes a write");
        }
    }
}
