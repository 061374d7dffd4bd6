//! Hostile input: every command that takes it is tried with each kind of bad input. Each must
//! fail with one `aeslab: …` line on stderr, nothing on stdout and a non-zero exit — never a
//! panic. One test per kind of input.

mod common;
use common::{aeslab, aeslab_with_env};

const KEY: &str = "000102030405060708090a0b0c0d0e0f";
const IV: &str = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/// Asserts a clean failure and returns the error line.
fn fails_cleanly(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> String {
    let out = aeslab_with_env(args, stdin, env);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("aeslab: "), "{args:?}: {err}");
    err
}

fn sealed(msg: &[u8]) -> Vec<u8> {
    let out = aeslab(&["aez", "seal", "--key", KEY, "--nonce", IV], msg);
    assert!(out.status.success());
    out.stdout
}

#[test]
fn wrong_key_lengths() {
    for key in ["000102030405060708090a0b0c0d0e", "000102030405060708090a0b0c0d0e0f10", ""] {
        let err = fails_cleanly(&["ctr", "--key", key, "--iv", IV], b"data", &[]);
        assert!(err.contains("invalid AES key length"), "{err}");
        let err = fails_cleanly(&["gcm", "seal", "--key", key, "--nonce", &IV[..24]], b"data", &[]);
        assert!(err.contains("invalid AES key length"), "{err}");
    }
}

#[test]
fn wrong_iv_lengths() {
    for iv in ["f0f1f2f3f4f5f6f7f8f9fafbfcfdfe", "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff00", ""] {
        let err = fails_cleanly(&["ctr", "--key", KEY, "--iv", iv], b"data", &[]);
        assert!(err.contains("invalid IV length"), "{err}");
    }
}

#[test]
fn odd_length_and_non_hex_strings() {
    for (flag, value) in [("--key", "abc"), ("--key", "zz"), ("--iv", "0g")] {
        let mut args = vec!["ctr", "--key", KEY, "--iv", IV];
        let at = args.iter().position(|a| *a == flag).unwrap() + 1;
        args[at] = value;
        let err = fails_cleanly(&args, b"data", &[]);
        assert!(err.contains(flag), "{err}");
    }
    for (flag, value) in [("--key", "0"), ("--nonce", "xyz"), ("--ad", "123")] {
        let mut args = vec!["aez", "seal", "--key", KEY, "--nonce", IV];
        if flag == "--ad" {
            args.extend(["--ad", value]);
        } else {
            let at = args.iter().position(|a| *a == flag).unwrap() + 1;
            args[at] = value;
        }
        let err = fails_cleanly(&args, b"data", &[]);
        assert!(err.contains(flag), "{err}");
    }
}

#[test]
fn empty_input() {
    // Opening nothing is a too-short ciphertext; an empty KAT file holds no vectors.
    let err = fails_cleanly(&["aez", "open", "--key", KEY, "--nonce", IV], b"", &[]);
    assert!(err.contains("shorter than"), "{err}");
    let empty = std::env::temp_dir().join(format!("aeslab-empty-{}", std::process::id()));
    std::fs::write(&empty, "").unwrap();
    for which in ["aez", "ace", "ace-hash"] {
        let err = fails_cleanly(&["kat", which, empty.to_str().unwrap()], b"", &[]);
        assert!(err.contains("no vectors") || err.contains("not a JSON list"), "{which}: {err}");
    }
    std::fs::remove_file(&empty).unwrap();
    // Encrypting nothing is not an error: CTR gives nothing, AEZ gives the 16-byte tag.
    let out = aeslab(&["ctr", "--key", KEY, "--iv", IV], b"");
    assert!(out.status.success() && out.stdout.is_empty());
    assert_eq!(sealed(b"").len(), 16);
}

#[test]
fn truncated_ciphertext() {
    let ct = sealed(b"a message of some length");
    for cut in [1, 10, ct.len() - 1] {
        let err = fails_cleanly(&["aez", "open", "--key", KEY, "--nonce", IV], &ct[..ct.len() - cut], &[]);
        assert!(err.contains("authentication failed") || err.contains("shorter than"), "{err}");
    }
}

#[test]
fn flipped_tag_bit() {
    let mut ct = sealed(b"a message of some length");
    *ct.last_mut().unwrap() ^= 0x80;
    let err = fails_cleanly(&["aez", "open", "--key", KEY, "--nonce", IV], &ct, &[]);
    assert!(err.contains("authentication failed"), "{err}");
    let gcm = ["gcm", "seal", "--key", KEY, "--nonce", &IV[..24]];
    let mut ct = aeslab(&gcm, b"a message of some length").stdout;
    *ct.last_mut().unwrap() ^= 0x80;
    let err = fails_cleanly(&["gcm", "open", "--key", KEY, "--nonce", &IV[..24]], &ct, &[]);
    assert!(err.contains("authentication failed"), "{err}");
    let err = fails_cleanly(&["gcm", "open", "--key", KEY, "--nonce", &IV[..24], "--tag-len", "11"], &ct, &[]);
    assert!(err.contains("invalid tag length 11"), "{err}");
}

#[test]
fn huge_tau() {
    for tau in ["18446744073709551615", "1000000000000"] {
        let err = fails_cleanly(&["aez", "seal", "--key", KEY, "--nonce", IV, "--tau", tau], b"m", &[]);
        assert!(err.contains("too large"), "{err}");
    }
    // A negative tau is not even an argument clap accepts.
    let err = fails_cleanly(&["aez", "seal", "--key", KEY, "--nonce", IV, "--tau", "-1"], b"m", &[]);
    assert!(err.contains("-1"), "{err}");
}

#[test]
fn bench_message_sizes_past_memory() {
    // Each would have aborted in Rust's out-of-memory handler (exit 134) when allocated.
    for args in [
        &["bench", "ctr", "--sizes", "16,100000000000"][..],
        &["bench", "gcm", "--sizes", "100000000000"],
        &["bench", "aez", "--sizes", "100000000000"],
        &["bench", "ace", "--bytes", "100000000000"],
    ] {
        let err = fails_cleanly(args, b"", &[]);
        assert!(err.contains("at most 1073741824 bytes (1 GiB) per message"), "{args:?}: {err}");
    }
}

#[test]
fn unknown_backend_names() {
    let kat = common::vector_file("ace", "ACE.txt");
    let aez_kat = common::vector_file("aez", "prf.json");
    for args in [
        &["ctr", "--key", KEY, "--iv", IV, "--backend", "nope"][..],
        &["aez", "seal", "--key", KEY, "--nonce", IV, "--backend", "nope"],
        &["gcm", "seal", "--key", KEY, "--nonce", IV, "--backend", "nope"],
        &["bench", "ctr", "--backends", "nope"],
        &["bench", "aez", "--backends", "nope"],
        &["bench", "ace", "--backends", "nope"],
        &["kat", "aez", &aez_kat, "--backend", "nope"],
        &["kat", "ace", &kat, "--backend", "nope"],
    ] {
        let err = fails_cleanly(args, b"data", &[]);
        assert!(err.contains("unknown") && err.contains("`nope`"), "{args:?}: {err}");
    }
    let err = fails_cleanly(&["ctr", "--key", KEY, "--iv", IV, "--face", "rd9"], b"data", &[]);
    assert!(err.contains("unknown FACE level"), "{err}");
}

#[test]
fn backend_the_cpu_lacks() {
    // AESLAB_CPU_MASK hides features, as on a CPU without them.
    #[cfg(target_arch = "x86_64")]
    let kat = common::vector_file("ace", "ACE.txt");
    #[cfg(target_arch = "x86_64")]
    let (mask, cases, fallback) = (
        [("AESLAB_CPU_MASK", "vaes,avx512f,avx2")],
        vec![
            vec!["ctr", "--key", KEY, "--iv", IV, "--backend", "vaes512"],
            vec!["aez", "seal", "--key", KEY, "--nonce", IV, "--backend", "vaes256"],
            vec!["gcm", "seal", "--key", KEY, "--nonce", &IV[..24], "--backend", "vaes256"],
            vec!["bench", "ctr", "--backends", "bitslice-avx2"],
            vec!["bench", "aez", "--backends", "bitslice-avx512"],
            vec!["bench", "ace", "--backends", "avx512"],
            vec!["kat", "ace", &kat, "--backend", "avx2"],
        ],
        // What dispatch may fall back to with those hidden: AES-NI where the CPU has it, else
        // the bitsliced SSSE3 or portable code.
        &["aesni", "bitslice-sse", "ct64"][..],
    );
    #[cfg(target_arch = "aarch64")]
    let (mask, cases, fallback) = (
        [("AESLAB_CPU_MASK", "aes")],
        vec![
            vec!["ctr", "--key", KEY, "--iv", IV, "--backend", "armv8"],
            vec!["aez", "seal", "--key", KEY, "--nonce", IV, "--backend", "armv8"],
            vec!["gcm", "seal", "--key", KEY, "--nonce", &IV[..24], "--backend", "armv8"],
            vec!["bench", "ctr", "--backends", "armv8"],
            vec!["bench", "aez", "--backends", "armv8"],
        ],
        &["ct64"][..],
    );
    for args in &cases {
        let err = fails_cleanly(args, b"data", &mask);
        assert!(err.contains("not available on this CPU"), "{args:?}: {err}");
    }
    // The mask really hides them: the default falls back.
    let out = aeslab_with_env(&["cpu"], b"", &mask);
    let text = String::from_utf8_lossy(&out.stdout);
    let default = text.lines().find_map(|l| l.strip_prefix("- Default backend: ")).unwrap_or_else(|| panic!("{text}"));
    assert!(fallback.contains(&default), "{default}");
}

/// `aeslab ARGS` through `sh` with a standard stream closed (`redirect`: `<&-` or `>&-`), so the
/// process starts without it. Returns the exit status and stderr.
#[cfg(target_os = "linux")]
fn with_closed_stream(args: &[&str], redirect: &str) -> (std::process::ExitStatus, String) {
    let command = format!("'{}' {} {redirect}", env!("CARGO_BIN_EXE_aeslab"), args.join(" "));
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("echo hello | {command}"))
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("sh runs");
    (out.status, String::from_utf8_lossy(&out.stderr).to_string())
}

/// A closed stdout or stdin is an error: `ctr` and `gcm seal` exited 0 with `>&-` (writing
/// nothing), and `gcm seal` sealed an empty message with `<&-`.
#[cfg(target_os = "linux")]
#[test]
fn closed_stdin_or_stdout_is_an_error() {
    // Under an emulator (scripts/test-aarch64.sh) the descriptor the shell closed belongs to the
    // emulator, which may open its own files on it before the program starts.
    if std::env::var_os("AESLAB_TEST_RUNNER").is_some() {
        return;
    }
    let nonce = &IV[..24];
    let commands: [&[&str]; 4] = [
        &["ctr", "--key", KEY, "--iv", IV],
        &["gcm", "seal", "--key", KEY, "--nonce", nonce],
        &["gcm", "open", "--key", KEY, "--nonce", nonce],
        &["aez", "seal", "--key", KEY, "--nonce", IV],
    ];
    for args in commands {
        for (redirect, stream) in [(">&-", "stdout"), ("<&-", "stdin")] {
            let (status, err) = with_closed_stream(args, redirect);
            assert!(!status.success(), "{args:?} {redirect}");
            assert!(err.contains(&format!("aeslab: error: {stream} is closed")), "{args:?} {redirect}: {err}");
        }
    }
    // /dev/null itself is a fine stdin and stdout.
    let (status, err) = with_closed_stream(&["ctr", "--key", KEY, "--iv", IV], ">/dev/null");
    assert!(status.success(), "{err}");
}
