//! Many items written in their order, made on two threads: a report of a million findings is
//! mostly the making of its lines, and the reading thread is idle by then. The items are
//! taken a block at a time, every other block made by a second thread into bytes that this
//! one writes when their turn comes.

use std::io::{self, Write};
use std::sync::mpsc::sync_channel;

/// Items to a block: a few hundred KiB of text.
const BLOCK: usize = 4096;

/// Each of `items` made into `out` by `make`, in order, as [`each_in_order_by`] with blocks
/// of [`BLOCK`].
pub fn each_in_order<T: Sync>(
    items: &[T],
    make: impl Fn(&T, &mut Vec<u8>) -> io::Result<()> + Sync,
    out: &mut impl Write,
) -> io::Result<()> {
    each_in_order_by(items, BLOCK, make, out)
}

/// Each of `items` made by `make` and written to `out` in order, blocks of `block` items
/// made on two threads. What `out` refuses ends it, the second thread too.
pub fn each_in_order_by<T: Sync>(
    items: &[T],
    block: usize,
    make: impl Fn(&T, &mut Vec<u8>) -> io::Result<()> + Sync,
    out: &mut impl Write,
) -> io::Result<()> {
    let block = block.max(1);
    let block_of = |items: &[T], mut buf: Vec<u8>| -> io::Result<Vec<u8>> {
        buf.clear();
        for item in items {
            make(item, &mut buf)?;
        }
        Ok(buf)
    };
    if items.len() <= block {
        return out.write_all(&block_of(items, Vec::new())?);
    }
    std::thread::scope(|scope| {
        let (send, theirs) = sync_channel::<io::Result<Vec<u8>>>(2);
        let (give_back, spent) = sync_channel::<Vec<u8>>(4);
        let block_of = &block_of;
        scope.spawn(move || {
            for odd in items.chunks(block).skip(1).step_by(2) {
                let buf = spent.try_recv().unwrap_or_default();
                // A closed channel: this thread stopped writing.
                if send.send(block_of(odd, buf)).is_err() {
                    break;
                }
            }
        });
        let mut mine = Vec::new();
        for (n, chunk) in items.chunks(block).enumerate() {
            if n % 2 == 0 {
                mine = block_of(chunk, mine)?;
                out.write_all(&mine)?;
            } else {
                let buf = theirs
                    .recv()
                    .map_err(|_| io::Error::other("the second thread stopped"))??;
                out.write_all(&buf)?;
                let _ = give_back.try_send(buf);
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each item's line.
    fn line(n: &String, out: &mut Vec<u8>) -> io::Result<()> {
        writeln!(out, "item {n}")
    }

    fn items(len: usize) -> Vec<String> {
        (0..len).map(|n| n.to_string()).collect()
    }

    #[test]
    fn items_come_out_in_order_whatever_the_blocks() {
        for len in [0, 1, 2, 7, 8, 9, 31, 100] {
            let items = items(len);
            let mut expected = Vec::new();
            for n in &items {
                line(n, &mut expected).unwrap();
            }
            let expected = String::from_utf8(expected).unwrap();
            for block in [0, 1, 2, 3, 8, 200] {
                let mut out = Vec::new();
                each_in_order_by(&items, block, line, &mut out).unwrap();
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    expected,
                    "{len} by {block}"
                );
            }
        }
    }

    /// A writer that takes `room` bytes, then refuses.
    struct Full {
        room: usize,
    }

    impl Write for Full {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room < buf.len() {
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "full"));
            }
            self.room -= buf.len();
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_refused_write_or_item_ends_it_with_that_error() {
        let items = items(10_000);
        let mut full = Full { room: 100 };
        let e = each_in_order_by(&items, 16, line, &mut full).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::BrokenPipe);

        let refuse_some = |n: &String, out: &mut Vec<u8>| {
            if n == "5000" {
                return Err(io::Error::other("item 5000"));
            }
            line(n, out)
        };
        let mut out = Vec::new();
        let e = each_in_order_by(&items, 16, refuse_some, &mut out).unwrap_err();
        assert_eq!(e.to_string(), "item 5000");
        assert!(out.len() < 5_000 * 10, "{}", out.len());
    }
}
