//! A bill read on two threads: the CSV records split from the bytes on one, each made a
//! [`BillLine`] on the other. Splitting the records is a third of the reading, and with the
//! lines folded on a third thread the reading spreads over two cores instead of filling one.

use std::io::Read;
use std::mem;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use super::rows::{CsvRows, Rows};
use super::{BillError, each_line_of};
use crate::audit::BillLine;

/// Records handed over at a time.
const BATCH: usize = 512;

/// Records read ahead, and after the last of them how the reading ended.
struct Batch {
    records: Vec<csv::StringRecord>,
    filled: usize,
    /// After the records: the end of the file (whether it ends inside a quoted field), or
    /// the error that stopped the reading.
    end: Option<Result<bool, BillError>>,
}

/// [`super::each_line`], its records split on a thread of its own: the same lines in the same
/// order, and the same error where the reading stops.
pub fn each_line_read_ahead(
    file: &str,
    source: impl Read + Send,
    take: impl FnMut(BillLine),
) -> Result<(), BillError> {
    std::thread::scope(|scope| {
        let (send, batches) = sync_channel::<Batch>(4);
        let (give_back, spent) = sync_channel::<Vec<csv::StringRecord>>(8);
        scope.spawn(move || split(file, source, &send, &spent));
        let ahead = Ahead {
            batches,
            give_back,
            batch: None,
            at: 0,
            inside_quotes: false,
        };
        each_line_of(file, ahead, take)
    })
}

/// The records of `source` sent a batch at a time until the end, an error, or no one takes
/// them.
fn split(
    file: &str,
    source: impl Read,
    send: &SyncSender<Batch>,
    spent: &Receiver<Vec<csv::StringRecord>>,
) {
    let mut rows = match CsvRows::new(file, source) {
        Ok(rows) => rows,
        Err(e) => {
            let _ = send.send(Batch {
                records: Vec::new(),
                filled: 0,
                end: Some(Err(e)),
            });
            return;
        }
    };
    loop {
        let mut records = spent.try_recv().unwrap_or_default();
        records.resize_with(BATCH, csv::StringRecord::new);
        let mut filled = 0;
        let mut end = None;
        for record in &mut records {
            match rows.next(record) {
                Ok(true) => filled += 1,
                Ok(false) => end = Some(Ok(rows.ends_inside_quotes())),
                Err(e) => end = Some(Err(e)),
            }
            if end.is_some() {
                break;
            }
        }
        let done = end.is_some();
        if send
            .send(Batch {
                records,
                filled,
                end,
            })
            .is_err()
            || done
        {
            return;
        }
    }
}

/// The records as they come from the splitting thread.
struct Ahead {
    batches: Receiver<Batch>,
    give_back: SyncSender<Vec<csv::StringRecord>>,
    batch: Option<Batch>,
    /// The next record of `batch` to hand out.
    at: usize,
    inside_quotes: bool,
}

impl Rows for Ahead {
    fn next(&mut self, record: &mut csv::StringRecord) -> Result<bool, BillError> {
        loop {
            if let Some(batch) = &mut self.batch {
                if self.at < batch.filled
                    && let Some(next) = batch.records.get_mut(self.at)
                {
                    // The record taken, the one it replaces left to be read into again.
                    mem::swap(record, next);
                    self.at += 1;
                    return Ok(true);
                }
                match batch.end.take() {
                    Some(Ok(inside_quotes)) => {
                        self.inside_quotes = inside_quotes;
                        return Ok(false);
                    }
                    Some(Err(e)) => return Err(e),
                    None => {}
                }
            }
            if let Some(done) = self.batch.take() {
                let _ = self.give_back.try_send(done.records);
            }
            // Every batch but an ended one is followed by another: none means the splitting
            // thread stopped short.
            let batch = self.batches.recv().map_err(|_| BillError {
                file: String::new(),
                line: 0,
                column: "1".into(),
                message: crate::t!("bill-stopped-short").into_owned(),
            })?;
            self.batch = Some(batch);
            self.at = 0;
        }
    }

    fn ends_inside_quotes(&self) -> bool {
        self.inside_quotes
    }
}

#[cfg(test)]
mod tests {
    use std::io::{self, Read};

    use super::each_line_read_ahead;
    use crate::audit::BillLine;
    use crate::audit::bills::each_line;

    const FIXTURES: [&[u8]; 4] = [
        include_bytes!("../../../../../tests/fixtures/bills/focus-aws.csv"),
        include_bytes!("../../../../../tests/fixtures/bills/aws-cur.csv"),
        include_bytes!("../../../../../tests/fixtures/bills/alibaba-bill-details.csv"),
        include_bytes!("../../../../../tests/fixtures/bills/tencent-bill-details.csv"),
    ];

    fn both(bytes: &[u8]) {
        let mut one = Vec::new();
        let plain = each_line("bill.csv", bytes, |l| one.push(l)).map(|()| one);
        let mut two: Vec<BillLine> = Vec::new();
        let ahead = each_line_read_ahead("bill.csv", bytes, |l| two.push(l)).map(|()| two);
        assert_eq!(ahead, plain, "{:?}", String::from_utf8_lossy(bytes));
    }

    /// Every format's fixture cut at every byte of its head and its last lines (the empty
    /// file, the header cut, the last row cut, quotes left open), and at every 31st between.
    #[test]
    fn every_cut_of_every_format_reads_as_on_one_thread() {
        for fixture in FIXTURES {
            let len = fixture.len();
            for end in (0..=len).filter(|&e| e < 250 || e + 250 > len || e % 31 == 0) {
                both(&fixture[..end]);
            }
        }
    }

    /// A bill of many batches, with a bad row far in, and one that stops in bad UTF-8.
    #[test]
    fn a_long_bill_and_its_late_errors_read_as_on_one_thread() {
        let fixture = std::str::from_utf8(FIXTURES[0]).unwrap();
        let (header, rows) = fixture.split_once('\n').unwrap();
        let mut long = format!("\u{feff}{header}\n");
        for _ in 0..=3000 / rows.lines().count() {
            long.push_str(rows);
        }
        both(long.as_bytes());
        let bad_number = long.replacen("USD,", "USD,x", 1);
        let mut late = long.clone();
        late.push_str(&bad_number[header.len()..]);
        both(late.as_bytes());
        let mut bytes = long.into_bytes();
        bytes.extend_from_slice(b"\xff\xfe,1\n");
        both(&bytes);
    }

    /// A source that fails after `left` bytes.
    struct Failing<'a> {
        bytes: &'a [u8],
        left: usize,
    }

    impl Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.left == 0 {
                return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "cut"));
            }
            let n = buf.len().min(self.left).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            (self.bytes, self.left) = (&self.bytes[n..], self.left - n);
            Ok(n)
        }
    }

    #[test]
    fn a_source_that_fails_fails_the_same() {
        let fixture = FIXTURES[0];
        for left in [0, 2, 5, 100, fixture.len() / 2, fixture.len() - 1] {
            let mut one = Vec::new();
            let source = Failing {
                bytes: fixture,
                left,
            };
            let plain = each_line("b.csv", source, |l| one.push(l)).map(|()| one);
            let mut two = Vec::new();
            let source = Failing {
                bytes: fixture,
                left,
            };
            let ahead = each_line_read_ahead("b.csv", source, |l| two.push(l)).map(|()| two);
            assert!(plain.is_err(), "{left}");
            assert_eq!(ahead, plain, "{left}");
        }
    }
}
