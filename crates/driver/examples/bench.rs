//! Run the benchmark on this machine's GPUs and print what it measured:
//! `cargo run --release -p gpumeter-driver --example bench -- [SECONDS]`.

use std::time::Duration;

fn main() {
    let seconds = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let plan = gpumeter_driver::Plan {
        budget: Duration::from_secs(seconds),
        ordinals: None,
    };
    match gpumeter_driver::run(&plan) {
        Ok(measured) => {
            for m in measured {
                println!("{m:#?}");
            }
        }
        Err(err) => {
            println!("{err}");
            std::process::exit(4);
        }
    }
}
