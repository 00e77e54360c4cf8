//! Each string of a bill kept once: a resource id named on a thousand lines is one string and
//! a thousand numbers.

use std::collections::HashMap;
use std::rc::Rc;

/// A string's number among the [`Names`].
pub(super) type Sym = u32;

#[derive(Debug, Default)]
pub(super) struct Names {
    numbers: HashMap<Rc<str>, Sym>,
    texts: Vec<Rc<str>>,
}

impl Names {
    /// The number of `text`, given it the first time it is seen.
    pub fn intern(&mut self, text: &str) -> Sym {
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

    pub fn len(&self) -> usize {
        self.texts.len()
    }
}
