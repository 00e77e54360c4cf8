//! Lays out the release binary's code for a small resident set: the functions the cockpit, the
//! watchdog and `gpumeter serve` run (link/hot-symbols.txt, written by scripts/hot-symbols) go
//! side by side, so the 64 KiB the kernel maps per fault hold code that runs, not code that
//! waits for a command nobody gave. Without the list, or with a stale one, the binary is the
//! same program with the compiler's order.

use std::env;

fn main() {
    println!("cargo:rerun-if-changed=link/hot-symbols.txt");
    println!("cargo:rerun-if-env-changed=GPUMETER_LINK_ORDER");
    if env::var("PROFILE").as_deref() != Ok("release")
        || env::var("GPUMETER_LINK_ORDER").as_deref() == Ok("0")
        || !rustc_links_with_lld()
    {
        return;
    }
    let list = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("link/hot-symbols.txt");
    if list.exists() {
        println!(
            "cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={},--no-warn-symbol-ordering",
            list.display()
        );
    }
}

/// rustc links with its own lld on x86_64 Linux (since 1.90), unless told to use another
/// linker; the GNU linker does not know the ordering flag.
fn rustc_links_with_lld() -> bool {
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    env::var("TARGET").as_deref() == Ok("x86_64-unknown-linux-gnu")
        && env::var_os("RUSTC_LINKER").is_none()
        && !flags.contains("linker")
        && !flags.contains("fuse-ld")
}
