//! The signals that end the cockpit: TERM, INT, HUP and QUIT, sent by `kill`, `timeout`,
//! `systemctl stop` or a closed terminal. Left to their default action they would end the
//! process where it stands, with the terminal raw, in the alternate screen and the cursor
//! hidden. Caught, they end the loop like a quit: the terminal is given back, and the process
//! exits with the shell's status for that signal (128 + its number).

use std::future::poll_fn;
use std::task::Poll;

use rustix::process::Signal as Number;
use tokio::signal::unix::{Signal, SignalKind, signal};

/// A signal that ends the cockpit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Hangup,
    Interrupt,
    Quit,
    Terminate,
}

impl Ending {
    pub const ALL: [Self; 4] = [Self::Hangup, Self::Interrupt, Self::Quit, Self::Terminate];

    fn number(self) -> Number {
        match self {
            Self::Hangup => Number::HUP,
            Self::Interrupt => Number::INT,
            Self::Quit => Number::QUIT,
            Self::Terminate => Number::TERM,
        }
    }

    /// The signal's name as `kill -l` spells it, with the `SIG`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Hangup => "SIGHUP",
            Self::Interrupt => "SIGINT",
            Self::Quit => "SIGQUIT",
            Self::Terminate => "SIGTERM",
        }
    }

    /// The status a shell reports for a process this signal ended: 128 + its number.
    pub fn exit_status(self) -> u8 {
        // Every signal here is numbered below 16.
        128 + u8::try_from(self.number().as_raw()).unwrap_or(0)
    }
}

/// The ending signals, caught from the moment [`Endings::catch`] returns until the process
/// ends (the default action is not put back: the cockpit exits on its own once it has
/// restored the terminal).
pub struct Endings {
    caught: Vec<(Ending, Signal)>,
}

impl Endings {
    /// Catches every [`Ending`]; must be called inside a tokio runtime.
    pub fn catch() -> std::io::Result<Self> {
        let caught = Ending::ALL
            .into_iter()
            .map(|ending| {
                let kind = SignalKind::from_raw(ending.number().as_raw());
                signal(kind).map(|stream| (ending, stream))
            })
            .collect::<std::io::Result<_>>()?;
        Ok(Self { caught })
    }

    /// The next ending signal to arrive.
    pub async fn next(&mut self) -> Ending {
        poll_fn(|cx| {
            for (ending, stream) in &mut self.caught {
                if stream.poll_recv(cx).is_ready() {
                    return Poll::Ready(*ending);
                }
            }
            Poll::Pending
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_ending_exits_with_the_shells_status_for_its_signal() {
        let statuses: Vec<_> = Ending::ALL.iter().map(|e| e.exit_status()).collect();
        // HUP 1, INT 2, QUIT 3, TERM 15, as POSIX numbers them.
        assert_eq!(statuses, [129, 130, 131, 143]);
    }

    #[tokio::test]
    async fn a_caught_signal_is_named_and_does_not_end_the_process() {
        let mut endings = Endings::catch().unwrap();
        // SIGHUP: no other test in this binary sends it, so none can take this one.
        let me = rustix::process::getpid();
        rustix::process::kill_process(me, Number::HUP).unwrap();
        let got = tokio::time::timeout(std::time::Duration::from_secs(10), endings.next()).await;
        assert_eq!(got, Ok(Ending::Hangup));
    }
}
