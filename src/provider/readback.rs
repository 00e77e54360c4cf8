//! Reading an instance back after an action, until the provider shows the action's effect.
//!
//! The adapters report what the provider says, not what they asked for, so every action ends in
//! the same loop: read, and if the effect is not there yet, wait and read again, a bounded number
//! of times. A refused key stops the loop at once: waiting will not make it valid.

use std::time::Duration;

/// How many reads in a row must not list a resource before it counts as gone: eventually
/// consistent listings answer one empty page now and then, and one proves nothing.
pub const EMPTY_READS: u32 = 3;

/// How long an action waits for the provider to show its effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Readback {
    pub attempts: u32,
    pub interval: Duration,
}

/// Overrides the wait between read-backs, in milliseconds: a loopback peer answers at once, so
/// its tests need not wait the seconds a real cloud does. The bounds on attempts stay.
pub const INTERVAL_ENV: &str = "GPUMETER_READBACK_INTERVAL_MS";

impl Default for Readback {
    fn default() -> Self {
        let interval = std::env::var(INTERVAL_ENV)
            .ok()
            .and_then(|ms| ms.parse().ok())
            .map_or(Duration::from_secs(3), Duration::from_millis);
        Readback {
            attempts: 40,
            interval,
        }
    }
}

impl Readback {
    /// Reads through `read` until `done` holds, at most `attempts` times (at least once),
    /// `interval` apart. An error `stops` flags ends the loop early; the last answer comes back.
    pub async fn poll<T, E, F>(
        &self,
        attempts: u32,
        mut read: impl FnMut() -> F,
        done: impl Fn(&T) -> bool,
        stops: impl Fn(&E) -> bool,
    ) -> Result<T, E>
    where
        F: Future<Output = Result<T, E>>,
    {
        let mut attempt = 1;
        loop {
            let last = read().await;
            let settled = match &last {
                Ok(found) => done(found),
                Err(e) => stops(e),
            };
            if settled || attempt >= attempts {
                return last;
            }
            attempt += 1;
            tokio::time::sleep(self.interval).await;
        }
    }

    /// [`Readback::poll`] of a read by id that answers `None` when the provider does not list
    /// it: `None` ends the loop only once [`EMPTY_READS`] reads in a row agree (a run under way
    /// may finish past `attempts`), and a listing between them starts the count again.
    pub async fn poll_listed<T, E, F>(
        &self,
        attempts: u32,
        mut read: impl FnMut() -> F,
        done: impl Fn(Option<&T>) -> bool,
        stops: impl Fn(&E) -> bool,
    ) -> Result<Option<T>, E>
    where
        F: Future<Output = Result<Option<T>, E>>,
    {
        let (mut attempt, mut empty) = (1, 0);
        loop {
            let last = read().await;
            let (settled, running) = match &last {
                Ok(None) if done(None) => {
                    empty += 1;
                    (empty >= EMPTY_READS, empty < EMPTY_READS)
                }
                Ok(found) => {
                    empty = 0;
                    (done(found.as_ref()), false)
                }
                Err(e) => {
                    empty = 0;
                    (stops(e), false)
                }
            };
            if settled || (attempt >= attempts && !running) {
                return last;
            }
            attempt += 1;
            tokio::time::sleep(self.interval).await;
        }
    }

    /// Reads patiently after an accepted call, once after a failed one.
    pub fn attempts_after<T, E>(&self, call: &Result<T, E>) -> u32 {
        if call.is_ok() { self.attempts } else { 1 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn quick(attempts: u32) -> Readback {
        Readback {
            attempts,
            interval: Duration::ZERO,
        }
    }

    #[tokio::test]
    async fn polls_until_done_and_reads_at_least_once() {
        let reads = Cell::new(0);
        let read = || {
            reads.set(reads.get() + 1);
            std::future::ready(Ok::<u32, ()>(reads.get()))
        };
        assert_eq!(
            quick(10).poll(10, read, |n| *n == 3, |()| false).await,
            Ok(3)
        );
        reads.set(0);
        assert_eq!(
            quick(10).poll(2, read, |n| *n == 3, |()| false).await,
            Ok(2)
        );
        reads.set(0);
        assert_eq!(quick(10).poll(0, read, |_| false, |()| false).await, Ok(1));
    }

    #[tokio::test]
    async fn not_listed_counts_only_when_enough_reads_in_a_row_agree() {
        let answers = std::cell::RefCell::new(vec![None, Some(1), None, None, None, Some(2)]);
        let reads = Cell::new(0);
        let read = || {
            reads.set(reads.get() + 1);
            let next = answers.borrow_mut().remove(0);
            std::future::ready(Ok::<Option<u32>, ()>(next))
        };
        let gone = quick(10)
            .poll_listed(10, read, |n: Option<&u32>| n.is_none(), |()| false)
            .await;
        assert_eq!((gone, reads.get()), (Ok(None), 5));
        // After one attempt, a run of empty reads under way still finishes; a listing ends it.
        let answers = std::cell::RefCell::new(vec![None, Some(7)]);
        let read = || std::future::ready(Ok::<_, ()>(answers.borrow_mut().remove(0)));
        let once = quick(1)
            .poll_listed(1, read, |n: Option<&u32>| n.is_none(), |()| false)
            .await;
        assert_eq!(once, Ok(Some(7)));
    }

    #[tokio::test]
    async fn a_stopping_error_ends_the_loop_and_others_do_not() {
        let reads = Cell::new(0);
        let read = || {
            reads.set(reads.get() + 1);
            std::future::ready(Err::<(), u32>(reads.get()))
        };
        assert_eq!(quick(5).poll(5, read, |()| true, |e| *e == 2).await, Err(2));
        reads.set(0);
        assert_eq!(quick(5).poll(4, read, |()| true, |_| false).await, Err(4));
        assert_eq!(quick(7).attempts_after(&Ok::<(), ()>(())), 7);
        assert_eq!(quick(7).attempts_after(&Err::<(), ()>(())), 1);
    }
}
