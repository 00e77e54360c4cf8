//! Reading an instance back after an action, until the provider shows the action's effect.
//!
//! The adapters report what the provider says, not what they asked for, so every action ends in
//! the same loop: read, and if the effect is not there yet, wait and read again, a bounded number
//! of times. A refused key stops the loop at once: waiting will not make it valid.

use std::time::Duration;

/// How long an action waits for the provider to show its effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Readback {
    pub attempts: u32,
    pub interval: Duration,
}

impl Default for Readback {
    fn default() -> Self {
        Readback {
            attempts: 40,
            interval: Duration::from_secs(3),
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
