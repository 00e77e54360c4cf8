//! Each string of a bill kept once: a resource id named on a thousand lines is one string and
//! a thousand numbers.

use std::collections::HashMap;
use std::rc::Rc;

/// A string's number among the [`Names`].
pub(super) type Sym = u32;

/// Slots of strings seen last, by length.
const RECENT: usize = 16;

#[derive(Debug, Default)]
pub(super) struct Names {
    numbers: HashMap<Rc<str>, Sym>,
    texts: Vec<Rc<str>>,
    recent: [Sym; RECENT],
}

impl Names {
    /// The number of `text`, given it the first time it is seen.
    pub fn intern(&mut self, text: &str) -> Sym {
        // Most fields repeat the line before's (the service, the region, the unit): a string
        // compare spares hashing them.
        let slot = text.len() % RECENT;
        if let Some(&n) = self.recent.get(slot)
            && self.texts.get(n as usize).is_some_and(|t| **t == *text)
        {
            return n;
        }
        let n = self.number(text);
        if let Some(r) = self.recent.get_mut(slot) {
            *r = n;
        }
        n
    }

    fn number(&mut self, text: &str) -> Sym {
        if let Some(&n) = self.numbers.get(text) {
            return n;
        }
        let n = Sym::try_from(self.texts.len()).unwrap_or(Sym::MAX);
        let text: Rc<str> = Rc::from(text);
        self.texts.push(Rc::clone(&text));
        self.numbers.insert(text, n);
        n
    }

    /// The string of number `n`.
    pub fn get(&self, n: Sym) -> &str {
        self.texts.get(n as usize).map_or("", |t| t)
    }

    /// No more strings to number: the lookup is let go, the strings kept.
    pub fn finish(&mut self) {
        self.numbers = HashMap::new();
    }

    pub fn len(&self) -> usize {
        self.texts.len()
    }
}
