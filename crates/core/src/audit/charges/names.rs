//! Each string of a bill kept once: a resource id named on a thousand lines is one string and
//! a thousand numbers. The strings lie end to end in one buffer, so a bill of a million
//! distinct ids holds a million strings' bytes and their ends, not a million allocations.

use std::hash::BuildHasher;
use std::num::NonZeroU32;

use hashbrown::{DefaultHashBuilder, HashTable};

/// A string's number among the [`Names`]: 1 is the first.
pub(super) type Sym = NonZeroU32;

/// Slots of strings seen last, by length.
const RECENT: usize = 16;

#[derive(Debug, Default)]
pub(super) struct Names {
    /// Every string, one after another.
    text: String,
    /// Where each string ends in `text`, by number less one.
    ends: Vec<usize>,
    /// The numbers, found by their strings' hashes (kept beside them, so that growing the
    /// table never reads the strings again); let go once reading is done.
    numbers: HashTable<(Sym, u32)>,
    hasher: DefaultHashBuilder,
    recent: [Option<Sym>; RECENT],
}

impl Names {
    /// The number of `text`, given it the first time it is seen.
    pub fn intern(&mut self, text: &str) -> Sym {
        // Most fields repeat the line before's (the service, the region, the unit): a string
        // compare spares hashing them.
        let slot = text.len() % RECENT;
        if let Some(&Some(n)) = self.recent.get(slot)
            && self.get(n) == text
        {
            return n;
        }
        let n = self.number(text);
        if let Some(r) = self.recent.get_mut(slot) {
            *r = Some(n);
        }
        n
    }

    fn number(&mut self, text: &str) -> Sym {
        let Names {
            text: all,
            ends,
            numbers,
            hasher,
            ..
        } = self;
        // 32 bits of the hash are kept and spread back over 64 for the table.
        let short = u32::try_from(hasher.hash_one(text) >> 32).unwrap_or_default();
        let spread = |short: u32| u64::from(short).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        if let Some(&(n, _)) = numbers.find(spread(short), |&(n, h)| {
            h == short && slice(all, ends, n) == text
        }) {
            return n;
        }
        let n = u32::try_from(ends.len() + 1)
            .ok()
            .and_then(NonZeroU32::new)
            .unwrap_or(NonZeroU32::MAX);
        all.push_str(text);
        ends.push(all.len());
        numbers.insert_unique(spread(short), (n, short), |&(_, h)| spread(h));
        n
    }

    /// The string of number `n`.
    pub fn get(&self, n: Sym) -> &str {
        slice(&self.text, &self.ends, n)
    }

    /// No more strings to number: the lookup is let go, the strings kept.
    pub fn finish(&mut self) {
        self.numbers = HashTable::new();
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }
}

/// String `n` of `text`, whose strings end at `ends`.
fn slice<'a>(text: &'a str, ends: &[usize], n: Sym) -> &'a str {
    let at = n.get() as usize - 1;
    let start = at.checked_sub(1).and_then(|p| ends.get(p)).copied();
    ends.get(at)
        .and_then(|&end| text.get(start.unwrap_or(0)..end))
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_string_is_numbered_once_and_read_back_whole() {
        let mut names = Names::default();
        let words = [
            "i-0abc",
            "",
            "AmazonEC2",
            "i-0abc",
            "vol-1",
            "",
            "é字",
            "vol-1",
        ];
        let numbers: Vec<Sym> = words.iter().map(|w| names.intern(w)).collect();
        for (w, &n) in words.iter().zip(&numbers) {
            assert_eq!(names.get(n), *w);
        }
        assert_eq!(numbers[0], numbers[3]);
        assert_eq!(numbers[1], numbers[5]);
        assert_eq!(numbers[4], numbers[7]);
        assert_eq!(names.len(), 5);
        names.finish();
        assert_eq!(names.get(numbers[6]), "é字");
    }

    #[test]
    fn many_strings_of_one_length_are_told_apart() {
        let mut names = Names::default();
        let ids: Vec<String> = (0..5000).map(|i| format!("i-{i:08x}")).collect();
        let numbers: Vec<Sym> = ids.iter().map(|id| names.intern(id)).collect();
        let again: Vec<Sym> = ids.iter().rev().map(|id| names.intern(id)).collect();
        assert!(numbers.iter().eq(again.iter().rev()));
        assert_eq!(names.len(), ids.len());
        assert!(ids.iter().zip(&numbers).all(|(id, &n)| names.get(n) == id));
    }
}
