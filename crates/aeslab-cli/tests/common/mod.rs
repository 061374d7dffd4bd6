//! Helpers shared by the CLI tests.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `aeslab ARGS` with `stdin` as its input.
#[allow(dead_code)]
pub fn aeslab(args: &[&str], stdin: &[u8]) -> Output {
    aeslab_with_env(args, stdin, &[])
}

/// Runs `aeslab ARGS` with `stdin` as its input and `env` added to its environment.
pub fn aeslab_with_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    // Cross-built tests (scripts/test-aarch64.sh) run the binary through the same emulator as
    // themselves: AESLAB_TEST_RUNNER is that command line, e.g. `qemu-aarch64 -L /usr/…`.
    let runner = std::env::var("AESLAB_TEST_RUNNER").unwrap_or_default();
    let mut command = runner.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    command.push(env!("CARGO_BIN_EXE_aeslab").to_string());
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that rejects its arguments exits without reading stdin: a broken pipe here is
    // expected, not an error.
    match child.stdin.take().unwrap().write_all(stdin) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => panic!("writing to aeslab: {e}"),
    }
    child.wait_with_output().unwrap()
}

/// `shared/testvectors/DIR/FILE`, found by walking up from this crate (the repository sits
/// beside `shared/`, in a work tree and in CI's fresh clone alike).
#[allow(dead_code)]
pub fn vector_file(dir: &str, file: &str) -> String {
    let mut at = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    loop {
        let p = at.join("shared/testvectors").join(dir).join(file);
        if p.exists() {
            return p.to_string_lossy().into_owned();
        }
        assert!(at.pop(), "shared/testvectors/{dir}/{file} not found");
    }
}
