//! A bill folded as it is read: what matching needs of each line, and no line kept whole.
//! Lines that repeat the one before them for the same resource (same charge, the next period,
//! the next line of the same stride) extend one [`Run`], so an hourly bill of steady prices
//! is held in one run per resource and charge, however many hours it spans. Strings are kept
//! once each ([`Names`]). Matching reads the runs back as [`Charge`]s, one per line.

mod names;
mod run;

use std::hash::BuildHasher;

use hashbrown::{DefaultHashBuilder, HashMap};
use jiff::Timestamp;

use self::names::{Names, Sym};
use self::run::{Attrs, Run};
use super::bill::BillLine;
use super::bills::{BillError, each_line};

pub use self::run::Charge;

/// Every line of the bills read, folded.
#[derive(Debug, Default)]
pub struct Charges {
    names: Names,
    files: Vec<Sym>,
    runs: Vec<Run>,
    /// The latest run of each set of attributes, by their hash: the only one a new line may
    /// extend. The run's own attributes are compared, so two sets of one hash only share
    /// the slot (each line then starts a run), never a run.
    open: HashMap<u64, u32>,
    hasher: DefaultHashBuilder,
    read: usize,
    first_start: Option<Timestamp>,
    last_end: Option<Timestamp>,
}

impl Charges {
    /// The lines of `lines`, folded (each file named in a line is a file of its own).
    pub fn of(lines: impl IntoIterator<Item = BillLine>) -> Charges {
        let mut charges = Charges::default();
        for line in lines {
            let file = charges.file_of(&line.source.file);
            charges.add(file, &line);
        }
        charges
    }

    /// Reads the bill `file` from `source` as a stream (see [`each_line`]) into the fold.
    pub fn read(&mut self, file: &str, source: impl std::io::Read) -> Result<(), BillError> {
        let at = self.file_of(file);
        each_line(file, source, |line| self.add(at, &line))
    }

    /// Folds `lines` in, the next lines of the bill `file` (each, as [`Charges::read`]
    /// folds them, after every line read before): for lines read elsewhere, such as on a
    /// thread of their own.
    pub fn take(&mut self, file: &str, lines: &[BillLine]) {
        let at = self.file_of(file);
        for line in lines {
            self.add(at, line);
        }
    }

    /// Done reading: what only the reading needed is let go.
    pub fn finish(&mut self) {
        self.open = HashMap::new();
        self.names.finish();
    }

    /// The lines read, in every file.
    pub fn lines_read(&self) -> usize {
        self.read
    }

    /// The earliest start of any line.
    pub fn first_start(&self) -> Option<Timestamp> {
        self.first_start
    }

    /// The latest end of any line.
    pub fn last_end(&self) -> Option<Timestamp> {
        self.last_end
    }

    /// The runs held: what the fold keeps grows with them, not with the lines.
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// The strings held, each once: ids, services, regions, units, file names.
    pub fn names(&self) -> usize {
        self.names.len()
    }

    /// Every line, run by run (not in the bill's order: each carries its index).
    pub fn iter(&self) -> impl Iterator<Item = Charge<'_>> {
        (0..self.runs.len()).flat_map(move |r| self.run(r))
    }

    /// The run numbers and resource ids, for an index of the lines by resource.
    pub(super) fn resources(&self) -> impl Iterator<Item = (usize, &str)> {
        self.runs
            .iter()
            .enumerate()
            .filter_map(|(n, r)| r.attrs.resource.map(|id| (n, self.names.get(id))))
    }

    /// The lines of run `n`.
    pub(super) fn run(&self, n: usize) -> impl Iterator<Item = Charge<'_>> {
        let run = self.runs.get(n);
        (0..run.map_or(0, |r| r.count)).filter_map(move |k| run?.charge(k, &self.names))
    }

    /// Where the lines at `indexes` are: the file's name and the line in it.
    pub fn locate(&self, indexes: &[usize]) -> Places<'_> {
        let mut wanted = indexes.to_vec();
        wanted.sort_unstable();
        wanted.dedup();
        let mut lines = vec![(u32::MAX, 0); wanted.len()];
        // Lines mostly come in the bill's order: the place after the last found is tried
        // before a search.
        let mut next = 0;
        for run in &self.runs {
            for (index, line) in run.places() {
                let at = match wanted.get(next) {
                    Some(&w) if w == index => Ok(next),
                    _ => wanted.binary_search(&index),
                };
                if let Ok(at) = at
                    && let Some(slot) = lines.get_mut(at)
                {
                    *slot = (run.attrs.file, line);
                    next = at + 1;
                }
            }
        }
        Places {
            indexes: wanted,
            lines,
            files: self.files.iter().map(|&f| self.names.get(f)).collect(),
        }
    }

    fn file_of(&mut self, name: &str) -> u32 {
        let sym = self.names.intern(name);
        let at = self
            .files
            .iter()
            .position(|&f| f == sym)
            .unwrap_or_else(|| {
                self.files.push(sym);
                self.files.len() - 1
            });
        u32::try_from(at).unwrap_or(u32::MAX)
    }

    /// Folds one line of file `file` in: the next of its run when it continues it.
    fn add(&mut self, file: u32, line: &BillLine) {
        let index = self.read;
        self.read += 1;
        self.first_start = Some(self.first_start.map_or(line.start, |s| s.min(line.start)));
        self.last_end = Some(self.last_end.map_or(line.end, |e| e.max(line.end)));
        let attrs = Attrs::of(line, file, &mut self.names);
        let key = self.hasher.hash_one(attrs);
        if let Some(&open) = self.open.get(&key)
            && let Some(run) = self.runs.get_mut(open as usize)
            && run.attrs == attrs
            && run.extend(line, index)
        {
            return;
        }
        let n = u32::try_from(self.runs.len()).unwrap_or(u32::MAX);
        self.runs.push(Run::new(attrs, line, index));
        self.open.insert(key, n);
    }
}

/// Lines' files and line numbers, by the lines' indexes (see [`Charges::locate`]).
#[derive(Debug)]
pub struct Places<'a> {
    /// Sorted.
    indexes: Vec<usize>,
    /// The file's place among `files` and the line, for each of `indexes`.
    lines: Vec<(u32, u64)>,
    files: Vec<&'a str>,
}

impl Places<'_> {
    /// The file and line of the bill's `index`-th line, when it was asked for.
    pub fn get(&self, index: usize) -> Option<(&str, u64)> {
        let at = self.indexes.binary_search(&index).ok()?;
        let &(file, line) = self.lines.get(at)?;
        Some((*self.files.get(file as usize)?, line))
    }
}

#[cfg(test)]
#[path = "charges_tests.rs"]
mod tests;
