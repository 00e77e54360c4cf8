//! A region-wide listing (disks, addresses) grouped by the instance each item is attached to,
//! so an account listing reads each listing once rather than once per instance.

use std::collections::HashMap;

/// `items` by the instance `of` names; those attached to none (`None` or empty) are dropped.
pub fn by_instance<T>(items: Vec<T>, of: impl Fn(&T) -> Option<&str>) -> HashMap<String, Vec<T>> {
    let mut out: HashMap<String, Vec<T>> = HashMap::new();
    for item in items {
        if let Some(id) = of(&item).filter(|id| !id.is_empty()) {
            out.entry(id.to_string()).or_default().push(item);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_grouped_and_the_unattached_dropped() {
        let items = vec![("d-1", "i-1"), ("d-2", ""), ("d-3", "i-1"), ("d-4", "i-2")];
        let grouped = by_instance(items, |(_, on)| Some(*on));
        assert_eq!(grouped["i-1"], [("d-1", "i-1"), ("d-3", "i-1")]);
        assert_eq!(grouped["i-2"], [("d-4", "i-2")]);
        assert_eq!(grouped.len(), 2);
    }
}
