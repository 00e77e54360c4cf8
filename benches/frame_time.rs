//! Frame times of the real cockpit loop (filled in below).

fn main() {}
