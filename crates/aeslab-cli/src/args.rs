//! What the commands share in reading their arguments and their input: hex strings, backend
//! and FACE-level names, the output flags, stdin and stdout.

use std::io::{Read, Write};

use aeslab::aes::{BackendKind, default_backend};
use aeslab::ctr::FaceLevel;

use crate::CliResult;

/// Decodes a hex argument, naming it in the error.
pub fn parse_hex(what: &str, s: &str) -> Result<Vec<u8>, String> {
    hex::decode(s.trim()).map_err(|e| format!("--{what} is not valid hex ({e})"))
}

/// The AES backend a `--backend` argument names, or the default (the fastest constant-time one).
pub fn backend_or_default(name: Option<&str>) -> Result<BackendKind, String> {
    name.map_or(Ok(default_backend()), |n| BackendKind::from_name(n).map_err(|e| e.to_string()))
}

/// The FACE level a `--face` argument names, or `default`.
pub fn face_or(name: Option<&str>, default: FaceLevel) -> Result<FaceLevel, String> {
    name.map_or(Ok(default), |n| FaceLevel::from_name(n).map_err(|e| e.to_string()))
}

/// All of stdin, refused as soon as it passes `limit` bytes (the algorithm's limit) rather
/// than after reading the rest. Fails if stdin is closed.
pub fn read_stdin(limit: u64, what: &str) -> Result<Vec<u8>, String> {
    require_open(Stream::Stdin)?;
    read_limited(std::io::stdin().lock(), limit, what)
}

/// `reader` to its end, or an error once more than `limit` bytes have come (reading at most one
/// byte past the limit).
pub fn read_limited(reader: impl Read, limit: u64, what: &str) -> Result<Vec<u8>, String> {
    let mut input = Vec::new();
    reader.take(limit.saturating_add(1)).read_to_end(&mut input).map_err(|e| format!("reading stdin: {e}"))?;
    if input.len() as u64 > limit {
        return Err(format!("input of more than {limit} bytes is over {what}'s limit"));
    }
    Ok(input)
}

/// A standard stream a command needs.
#[derive(Clone, Copy)]
pub enum Stream {
    Stdin,
    Stdout,
}

/// Fails unless the stream was open when the program started.
///
/// Rust's runtime reopens a standard stream that is closed at start-up (`<&-`, `>&-`) on
/// `/dev/null`, read-write, before `main`: a closed stdin would then read as an empty message
/// and a closed stdout would swallow the output, both exiting 0. Such a stream is recognised by
/// what the runtime leaves: `/dev/null` open read-write (`O_RDWR`), where a shell's redirection
/// opens it read-only (`<`) or write-only (`>`). Linux only (it reads `/proc/self`); elsewhere
/// nothing is checked.
pub fn require_open(stream: Stream) -> CliResult {
    let (name, fd) = match stream {
        Stream::Stdin => ("stdin", 0),
        Stream::Stdout => ("stdout", 1),
    };
    if reopened_on_dev_null(fd) {
        return Err(format!("{name} is closed"));
    }
    Ok(())
}

/// Whether descriptor `fd` is `/dev/null` opened read-write: what the runtime puts in place of a
/// closed standard stream.
#[cfg(target_os = "linux")]
fn reopened_on_dev_null(fd: u32) -> bool {
    use std::os::unix::fs::MetadataExt;
    let (Ok(this), Ok(null)) = (std::fs::metadata(format!("/proc/self/fd/{fd}")), std::fs::metadata("/dev/null")) else {
        return false;
    };
    if this.rdev() != null.rdev() || !this.file_type().is_char_device_like() {
        return false;
    }
    // `flags:` in fdinfo is octal; the low two bits are the access mode (2: O_RDWR).
    let info = std::fs::read_to_string(format!("/proc/self/fdinfo/{fd}")).unwrap_or_default();
    let flags = info.lines().find_map(|l| l.strip_prefix("flags:")).and_then(|f| u32::from_str_radix(f.trim(), 8).ok());
    flags.is_some_and(|f| f & 3 == 2)
}

#[cfg(not(target_os = "linux"))]
fn reopened_on_dev_null(_fd: u32) -> bool {
    false
}

/// Character devices, on the platforms that have them.
trait CharDevice {
    fn is_char_device_like(&self) -> bool;
}

impl CharDevice for std::fs::FileType {
    #[cfg(unix)]
    fn is_char_device_like(&self) -> bool {
        std::os::unix::fs::FileTypeExt::is_char_device(self)
    }
    #[cfg(not(unix))]
    fn is_char_device_like(&self) -> bool {
        false
    }
}

/// Writes `bytes` to stdout and flushes it; an error if stdout is closed.
pub fn write_stdout(bytes: &[u8]) -> CliResult {
    require_open(Stream::Stdout)?;
    let mut out = std::io::stdout().lock();
    out.write_all(bytes).and_then(|_| out.flush()).map_err(|e| format!("writing stdout: {e}"))
}

/// The output flags every measuring command shares.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct Output {
    /// Print JSON instead of markdown tables.
    #[arg(long)]
    pub json: bool,
    /// Fewer samples and runs (what `aeslab report --quick` uses).
    #[arg(long)]
    pub quick: bool,
}

/// The longest message a benchmark takes (`--sizes`, `--bytes`): 1 GiB. A bench holds each
/// size several times over (the message, its output, the peers' copies), and a size past
/// what the machine can allocate would abort the process (Rust's out-of-memory handler)
/// instead of failing with an error.
pub const MAX_BENCH_BYTES: usize = 1 << 30;

/// A message size on a bench's command line: a byte count up to [`MAX_BENCH_BYTES`] (clap's
/// value parser, so a bad one fails with clap's usage error).
pub fn bench_bytes(s: &str) -> Result<usize, String> {
    let n: usize = s.parse().map_err(|e: std::num::ParseIntError| e.to_string())?;
    if n > MAX_BENCH_BYTES {
        return Err(format!("at most {MAX_BENCH_BYTES} bytes (1 GiB) per message"));
    }
    Ok(n)
}

/// The message sizes the benches default to: a TLS/QUIC record's range from 16 B up, a
/// 1420-byte packet, a 4 KiB sector, 16 KiB records and 64 KiB.
pub const MESSAGE_SIZES: &str = "16,64,256,1420,4096,16384,65536";

#[cfg(test)]
mod tests {
    use super::{MAX_BENCH_BYTES, bench_bytes, read_limited};

    #[test]
    fn bench_sizes_stop_at_a_gibibyte() {
        assert_eq!(bench_bytes("1420"), Ok(1420));
        assert_eq!(bench_bytes("1073741824"), Ok(MAX_BENCH_BYTES));
        assert_eq!(bench_bytes("1073741825").unwrap_err(), "at most 1073741824 bytes (1 GiB) per message");
        assert!(bench_bytes("-5").is_err());
        assert!(bench_bytes("99999999999999999999").is_err());
    }

    #[test]
    fn reading_stops_one_byte_past_the_limit() {
        // An endless input: without the limit this would never return.
        let err = read_limited(std::io::repeat(7), 1000, "test").unwrap_err();
        assert_eq!(err, "input of more than 1000 bytes is over test's limit");
        assert_eq!(read_limited(&[1u8; 1000][..], 1000, "test").unwrap().len(), 1000);
        assert_eq!(read_limited(&[][..], 0, "test").unwrap(), Vec::<u8>::new());
    }
}
