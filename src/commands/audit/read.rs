//! Reading the bill files: regular files only, gunzipped when they start with the gzip magic
//! (AWS writes its exports as `.csv.gz`), each streamed to the core's reader with the name the
//! user gave it. Never the whole file in memory: the core reads one row at a time and folds it
//! into what matching needs ([`Charges`]), and what comes out of the file is bounded
//! ([`Bounds`]) so a small gzip that expands to gigabytes is refused as it expands, not after.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::sync_channel;

use flate2::bufread::MultiGzDecoder;
use gpumeter_core::audit::{BillLine, Charges, each_line_read_ahead};

use super::super::Failure;

/// The first two bytes of every gzip member (RFC 1952, section 2.3.1).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// How much a bill file may give, decompressed.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// The most one file may hold, decompressed (all its gzip members together).
    pub total: u64,
    /// The most a gzip file may expand, decompressed bytes to compressed ones, once it has
    /// given `ratio_after` bytes.
    pub ratio: u64,
    pub ratio_after: u64,
}

/// A year of hourly lines for a large account is a few GiB; more is taken for a file that is
/// not a bill. Bill text gzips 10 to 30 times smaller; 256 times is only reached by a file
/// made to expand (deflate's own limit is about 1032).
pub const BOUNDS: Bounds = Bounds {
    total: 4 << 30,
    ratio: 256,
    ratio_after: 16 << 20,
};

/// Lines handed from the reading thread to the fold at a time.
const BATCH: usize = 1024;

/// Every line of every file in `paths`, in the order given, folded. Each file is read (and
/// gunzipped) and split into records on one thread, its records made lines on another (see
/// [`each_line_read_ahead`]), while this one folds them: the reading spreads over the cores
/// instead of waiting on one. At most a few batches wait between them, and the folded batches go back to the
/// reading thread to be let go there, where their strings were made (freeing another
/// thread's allocations is slower, and theirs are reused for the next lines).
pub fn bills(paths: &[std::path::PathBuf]) -> Result<Charges, Failure> {
    let mut charges = Charges::default();
    for path in paths {
        let name = path.display().to_string();
        std::thread::scope(|scope| {
            let (send, batches) = sync_channel::<Vec<BillLine>>(4);
            let (give_back, spent) = sync_channel::<Vec<BillLine>>(8);
            let reader = scope.spawn(move || {
                let fresh = || match spent.try_recv() {
                    Ok(mut batch) => {
                        batch.clear();
                        batch
                    }
                    Err(_) => Vec::with_capacity(BATCH),
                };
                let mut batch = fresh();
                each(path, BOUNDS, |line| {
                    batch.push(line);
                    if batch.len() == BATCH {
                        // The fold only stops taking when this thread is done.
                        let _ = send.send(std::mem::replace(&mut batch, fresh()));
                    }
                })?;
                let _ = send.send(batch);
                Ok(())
            });
            for batch in batches {
                charges.take(&name, &batch);
                // Full when the reader is done or behind: then this thread lets it go.
                let _ = give_back.try_send(batch);
            }
            reader
                .join()
                .unwrap_or_else(|_| Err(Failure::failed(format!("{name}: the reader stopped"))))
        })?;
    }
    charges.finish();
    Ok(charges)
}

/// The lines of `paths` at `wanted` (their places among every line of the files, in the
/// order given), read again: the evidence names the lines behind the findings whole, and the
/// fold kept none whole.
pub fn lines_at(
    paths: &[std::path::PathBuf],
    wanted: &BTreeSet<usize>,
) -> Result<BTreeMap<usize, BillLine>, Failure> {
    let mut found = BTreeMap::new();
    let mut index = 0;
    for path in paths {
        each(path, BOUNDS, |line| {
            if wanted.contains(&index) {
                found.insert(index, line);
            }
            index += 1;
        })?;
    }
    Ok(found)
}

/// Each line of the bill at `path`, read within `bounds`, handed to `take`.
pub fn each(path: &Path, bounds: Bounds, take: impl FnMut(BillLine)) -> Result<(), Failure> {
    let name = path.display().to_string();
    let source = open(path, bounds).map_err(|e| Failure::bad_input(format!("{name}: {e}")))?;
    each_line_read_ahead(&name, source, take).map_err(|e| Failure::bad_input(e.to_string()))
}

/// Why a bill file could not be opened.
#[derive(Debug, thiserror::Error)]
enum Unopened {
    #[error("cannot read it: {0}")]
    Io(#[from] std::io::Error),
    #[error("not a regular file")]
    NotAFile,
}

/// The file's bytes as a stream, decompressed when it is gzip, bounded by `bounds`.
fn open(path: &Path, bounds: Bounds) -> Result<Bounded<Box<dyn Read + Send>>, Unopened> {
    if !std::fs::metadata(path)?.is_file() {
        return Err(Unopened::NotAFile);
    }
    let mut raw = BufReader::new(File::open(path)?);
    let head = raw.fill_buf()?;
    if !head.starts_with(&GZIP_MAGIC) {
        return Ok(Bounded::new(Box::new(raw), bounds, None));
    }
    let packed = Arc::new(AtomicU64::new(0));
    let counted = BufReader::new(Counted {
        inner: raw,
        read: Arc::clone(&packed),
    });
    let gunzip = Gunzip(MultiGzDecoder::new(counted));
    Ok(Bounded::new(Box::new(gunzip), bounds, Some(packed)))
}

/// A gzip stream whose errors say the file starts as gzip (a stream cut short reads as
/// "unexpected end of file").
struct Gunzip<R>(MultiGzDecoder<R>);

impl<R: BufRead> Read for Gunzip<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("starts as gzip but cannot be decompressed: {e}"),
            )
        })
    }
}

/// A reader that counts the bytes taken from it.
struct Counted<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// A file's decompressed bytes, refused with an error once they pass the bounds: never more
/// than `total` bytes (plus one read) come out.
pub struct Bounded<R> {
    inner: R,
    bounds: Bounds,
    out: u64,
    /// The compressed bytes read so far, for a gzip file.
    packed: Option<Arc<AtomicU64>>,
}

impl<R: Read> Bounded<R> {
    pub fn new(inner: R, bounds: Bounds, packed: Option<Arc<AtomicU64>>) -> Bounded<R> {
        Bounded {
            inner,
            bounds,
            out: 0,
            packed,
        }
    }

    fn refusal(&self) -> Option<String> {
        if self.out > self.bounds.total {
            return Some(crate::t!(
                "audit-read-too-large",
                size = size(self.bounds.total)
            ));
        }
        let packed = self.packed.as_ref()?.load(Ordering::Relaxed).max(1);
        (self.out > self.bounds.ratio_after && self.out / packed >= self.bounds.ratio).then(|| {
            crate::t!(
                "audit-read-expands",
                ratio = (self.out / packed).to_string(),
                first = size(self.bounds.ratio_after),
                bound = self.bounds.ratio.to_string()
            )
        })
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(why) = self.refusal() {
            return Err(io::Error::new(io::ErrorKind::InvalidData, why));
        }
        let room = usize::try_from(self.bounds.total + 1 - self.out).unwrap_or(usize::MAX);
        let want = buf.len().min(room);
        let n = self.inner.read(&mut buf[..want])?;
        self.out += n as u64;
        if let Some(why) = self.refusal() {
            return Err(io::Error::new(io::ErrorKind::InvalidData, why));
        }
        Ok(n)
    }
}

/// `4 GiB`, `16 MiB`, `512 KiB`.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b.is_multiple_of(1 << 30) => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b.is_multiple_of(1 << 20) => format!("{} MiB", b >> 20),
        b if b.is_multiple_of(1 << 10) => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;
