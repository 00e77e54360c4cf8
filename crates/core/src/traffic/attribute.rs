//! Successive readings of the machine's TCP sockets to the bytes sent per class between them.
//!
//! The kernel counts each socket's acknowledged payload bytes from its opening. A socket already
//! open at the first reading starts from what it had then (its past is not this session's); one
//! first seen later was opened since and counts from zero. Bytes a socket sends after the last
//! reading before it closes are not seen here: the interface counted them, so they are priced
//! as internet, never hidden.

use std::collections::HashMap;
use std::net::IpAddr;

use super::class::EgressSplit;
use super::classify::Classifier;

/// One socket as the kernel reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SocketReading {
    /// The kernel's id for the socket, unique while it lives.
    pub cookie: u64,
    pub remote: IpAddr,
    /// Payload bytes the peer acknowledged since the socket opened.
    pub sent: u64,
}

#[derive(Debug, Clone)]
pub struct Attributor {
    classifier: Classifier,
    /// Bytes sent per live socket at the previous reading.
    last: HashMap<u64, u64>,
    primed: bool,
}

impl Attributor {
    pub fn new(classifier: Classifier) -> Self {
        Attributor {
            classifier,
            last: HashMap::new(),
            primed: false,
        }
    }

    /// The bytes sent to intranet and cross-region destinations since the previous reading.
    pub fn observe(&mut self, sockets: &[SocketReading]) -> EgressSplit {
        let mut split = EgressSplit::default();
        let mut now = HashMap::with_capacity(sockets.len());
        for s in sockets {
            let before = match self.last.get(&s.cookie) {
                Some(&b) => b,
                None if self.primed => 0,
                None => s.sent,
            };
            now.insert(s.cookie, s.sent);
            // A counter below its last reading is another socket under a reused id.
            let since = super::class::counter_since(before, s.sent);
            if let Some(class) = self.classifier.classify(s.remote) {
                split.add(class, since);
            }
        }
        self.last = now;
        self.primed = true;
        split
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(cookie: u64, remote: &str, sent: u64) -> SocketReading {
        SocketReading {
            cookie,
            remote: remote.parse().unwrap(),
            sent,
        }
    }

    #[test]
    fn counts_what_each_socket_sent_since_the_last_reading_by_destination() {
        let mut a = Attributor::new(Classifier::new("alibaba", "cn-hangzhou", &[]));
        // Open before the first reading: their past is not counted.
        let first = a.observe(&[reading(1, "100.118.28.7", 5_000), reading(2, "8.8.8.8", 9)]);
        assert_eq!(first, EgressSplit::default());
        let second = a.observe(&[
            reading(1, "100.118.28.7", 7_000),
            reading(2, "8.8.8.8", 900),
            // Opened since: all it sent counts.
            reading(3, "100.118.58.1", 300),
            reading(4, "127.0.0.1", 1 << 30),
        ]);
        assert_eq!(
            second,
            EgressSplit {
                intranet: 2_000,
                cross_region: 300
            }
        );
        // Socket 1 closed and its id came back for a new socket: counted from zero.
        let third = a.observe(&[reading(1, "10.0.0.2", 50)]);
        assert_eq!(third.intranet, 50);
    }
}
