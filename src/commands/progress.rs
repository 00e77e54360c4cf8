//! A spinner with the time spent, on stderr while a provider call runs, so a command is never
//! silent for seconds after `y`. Only on a terminal: where stderr is a file or a pipe, a line
//! every [`LINE_EVERY`] says it is still waiting instead, and nothing else is written.

use std::future::Future;
use std::io::{IsTerminal as _, Write as _};
use std::time::Duration;

use super::{Failure, emit_err};

const FRAMES: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_EVERY: Duration = Duration::from_millis(120);
/// How often a run without a terminal says it is still waiting.
pub const LINE_EVERY: Duration = Duration::from_secs(10);

/// Runs `work` on a runtime of its own, showing `what` (one clean line) while it runs.
pub fn run<F: Future>(what: &str, work: F) -> Result<F::Output, Failure> {
    let terminal = std::io::stderr().is_terminal();
    super::block_on(async {
        let started = tokio::time::Instant::now();
        tokio::pin!(work);
        let every = if terminal { FRAME_EVERY } else { LINE_EVERY };
        let mut tick = tokio::time::interval_at(started + every, every);
        let mut frame = 0;
        let answer = loop {
            tokio::select! {
                answer = &mut work => break answer,
                _ = tick.tick() => {
                    let secs = started.elapsed().as_secs();
                    if terminal {
                        frame = (frame + 1) % FRAMES.len();
                        let mut err = std::io::stderr().lock();
                        let line = crate::t!("progress-spinning", what = what, seconds = secs.to_string());
                        let _ = write!(err, "\r\x1b[2K{} {line}", FRAMES[frame]);
                        let _ = err.flush();
                    } else {
                        let line = crate::t!("progress-waiting", what = what, seconds = secs.to_string());
                        emit_err(&format!("gpumeter: {line}"));
                    }
                }
            }
        };
        if terminal && started.elapsed() >= FRAME_EVERY {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
        answer
    })
}
