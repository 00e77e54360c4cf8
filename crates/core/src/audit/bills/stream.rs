//! The bytes under the CSV reader, watched as they pass: a byte-order mark dropped, no row
//! allowed to grow past [`MAX_RECORD_BYTES`] (a stream of zeros with no line break would
//! otherwise become one field as large as the stream), and the quoting followed the way the
//! CSV reader follows it, so that a file that ends inside a quoted field is told apart from
//! one whose last field is whole (the CSV reader accepts both alike).

use std::io::{self, Read};

/// The most one row of a bill may hold: a FOCUS row with its tags is a few KiB; a row past
/// this is not a bill's.
pub const MAX_RECORD_BYTES: u64 = 1 << 20;

/// The UTF-8 byte-order mark the Chinese consoles write first.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Where the last byte read leaves the quoting, as RFC 4180 and the `csv` crate's defaults
/// (`"` quotes, `""` escapes a quote inside quotes) read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quoting {
    /// At the start of a field: a `"` here opens a quoted field.
    FieldStart,
    /// Inside a field that did not start with a quote: a `"` is a plain character.
    Unquoted,
    /// Inside a quoted field.
    Quoted,
    /// A `"` inside a quoted field: closing it, unless another `"` follows.
    QuoteInQuoted,
}

impl Quoting {
    /// Where `bytes` leave the quoting: only a `"` and the byte before it change more than
    /// "inside quotes or not", so the bytes are walked from quote to quote.
    fn over(mut self, bytes: &[u8]) -> Quoting {
        let mut from = 0;
        for at in memchr::memchr_iter(b'"', bytes) {
            self = self.over_plain(&bytes[from..at]).next(b'"');
            from = at + 1;
        }
        self.over_plain(&bytes[from..])
    }

    /// Where `bytes`, none of them a `"`, leave the quoting: inside quotes stays inside;
    /// anywhere else the last byte says.
    fn over_plain(self, bytes: &[u8]) -> Quoting {
        match bytes.last() {
            Some(&last) if self != Quoting::Quoted => Quoting::FieldStart.next(last),
            _ => self,
        }
    }

    fn next(self, byte: u8) -> Quoting {
        let ends_field = matches!(byte, b',' | b'\n' | b'\r');
        match (self, byte) {
            (Quoting::Quoted, b'"') => Quoting::QuoteInQuoted,
            (Quoting::FieldStart | Quoting::QuoteInQuoted, b'"') | (Quoting::Quoted, _) => {
                Quoting::Quoted
            }
            (_, _) if ends_field => Quoting::FieldStart,
            _ => Quoting::Unquoted,
        }
    }
}

/// A bill's bytes on their way to the CSV reader.
pub(super) struct Watched<R> {
    inner: R,
    /// The first bytes, read ahead to drop a byte-order mark; handed on before `inner`'s.
    head: Vec<u8>,
    /// Bytes read since the reader last finished a row.
    since_row: u64,
    quoting: Quoting,
    max_record: u64,
}

impl<R: Read> Watched<R> {
    pub fn new(inner: R, max_record: u64) -> Watched<R> {
        Watched {
            inner,
            head: Vec::new(),
            since_row: 0,
            quoting: Quoting::FieldStart,
            max_record,
        }
    }

    /// Reads the first bytes and drops a byte-order mark there.
    pub fn skip_bom(&mut self) -> io::Result<()> {
        let mut head = [0u8; 3];
        let mut filled = 0;
        while filled < head.len() {
            match self.inner.read(&mut head[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        let head = &head[..filled];
        self.head = head.strip_prefix(BOM).unwrap_or(head).to_vec();
        Ok(())
    }

    /// The reader finished a row: the next may be as long as the last.
    pub fn row_done(&mut self) {
        self.since_row = 0;
    }

    /// Whether the bytes so far end inside a quoted field.
    pub fn ends_inside_quotes(&self) -> bool {
        self.quoting == Quoting::Quoted
    }
}

impl<R: Read> Read for Watched<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.since_row > self.max_record {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                crate::t!("bill-no-row-end", size = size(self.max_record)),
            ));
        }
        let n = if self.head.is_empty() {
            self.inner.read(buf)?
        } else {
            let n = self.head.len().min(buf.len());
            buf[..n].copy_from_slice(&self.head[..n]);
            self.head.drain(..n);
            n
        };
        self.quoting = self.quoting.over(&buf[..n]);
        self.since_row += n as u64;
        Ok(n)
    }
}

/// `1 MiB`, `16 KiB`.
fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn watched(bytes: &[u8]) -> (Vec<u8>, Watched<&[u8]>) {
        let mut w = Watched::new(bytes, MAX_RECORD_BYTES);
        w.skip_bom().unwrap();
        let mut out = Vec::new();
        w.read_to_end(&mut out).unwrap();
        (out, w)
    }

    #[test]
    fn a_byte_order_mark_is_dropped_and_the_rest_passes_whole() {
        assert_eq!(watched(b"\xEF\xBB\xBFa,b\n").0, b"a,b\n");
        assert_eq!(watched(b"a,b\n").0, b"a,b\n");
        assert_eq!(watched(b"a").0, b"a");
        assert_eq!(watched(b"").0, b"");
    }

    #[test]
    fn quoting_is_followed_as_the_csv_reader_follows_it() {
        let open = |text: &str| watched(text.as_bytes()).1.ends_inside_quotes();
        assert!(open("a,\"20.4"));
        assert!(open("a,\"x\"\"y"));
        assert!(open("a,\"x\ny"));
        assert!(!open("a,\"x\""));
        assert!(!open("a,\"x\"\"y\""));
        assert!(!open("a,b\"c"));
        assert!(!open("a,\"x\"\n\"y\",z\n"));
        assert!(open("a,\"x\"\n\"y,z\n"));
    }

    #[test]
    fn quoting_walked_from_quote_to_quote_is_quoting_walked_byte_by_byte() {
        let texts: [&[u8]; 6] = [
            b"a,\"x\"\"y\",b\n\"c\nd\",e",
            b"\"\"\"\",\"\"x,\"",
            b"a\"b,\"c\r\n",
            b"\"x\"y,z",
            b",,\"",
            b"",
        ];
        for text in texts {
            for start in [
                Quoting::FieldStart,
                Quoting::Unquoted,
                Quoting::Quoted,
                Quoting::QuoteInQuoted,
            ] {
                let mut bytewise = start;
                for (i, &b) in text.iter().enumerate() {
                    bytewise = bytewise.next(b);
                    let walked = start.over(&text[..=i]);
                    assert_eq!(walked, bytewise, "{:?} from {start:?}", &text[..=i]);
                }
            }
        }
    }

    #[test]
    fn a_row_past_the_bound_is_an_error_and_a_finished_row_resets_it() {
        let zeros = vec![b'0'; 64 << 10];
        let mut w = Watched::new(&zeros[..], 16 << 10);
        let mut buf = [0u8; 8 << 10];
        let mut read = 0;
        let e = loop {
            match w.read(&mut buf) {
                Ok(n) => read += n,
                Err(e) => break e,
            }
        };
        assert!(read <= (16 << 10) + buf.len(), "{read}");
        assert!(
            e.to_string().contains("16 KiB read with no row ending"),
            "{e}"
        );

        let mut w = Watched::new(&zeros[..], 16 << 10);
        for _ in 0..8 {
            w.read_exact(&mut buf).unwrap();
            w.row_done();
        }
    }
}
