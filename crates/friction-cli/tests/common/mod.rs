//! What the CLI's test binaries share: running the `friction-lab` binary.

use std::process::Command;

/// Runs `friction-lab` with `args`: its exit code (-1 when killed by a signal), stdout, stderr.
pub fn run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_friction-lab"))
        .args(args)
        .output()
        .expect("friction-lab runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}
