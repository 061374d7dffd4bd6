//! `aeslab bench gcm`: AES-GCM sealing and opening, aeslab (FACE-CTR + carry-less GHASH)
//! against OpenSSL, aws-lc-rs, ring and RustCrypto `aes-gcm` in the same process, interleaved,
//! and Go's crypto/cipher GCM from `peers/go` in a child process; the sealing records have
//! `bench ctr`'s shape, the opening records the same and `"op": "open"`.

use std::fmt::Write as _;

use aeslab_measure::{Calibration, Plan, Timing, calibrate, interleaved_each};
use clap::Args;

use crate::CliResult;
use crate::cpu::{gcm_face_from, kib};
use crate::markdown::table;
use crate::progress::Progress;
use crate::peers::gcm::{AD, GcmOpen, GcmPeer, Implementation, NONCE, implementations, key_and_seals, key_setups, message_nonce};
use crate::records::{KeyPerMessage, KeySetup, Opened, Record, Throughput, figure, noise_footnote, print_bench};

#[derive(Args, Clone)]
pub struct BenchGcmArgs {
    /// Message sizes in bytes.
    #[arg(long, value_delimiter = ',', default_value = crate::args::MESSAGE_SIZES, value_parser = crate::args::bench_bytes)]
    pub sizes: Vec<usize>,
    /// Key sizes in bits.
    #[arg(long, value_delimiter = ',', default_value = "128,256")]
    pub keys: Vec<u32>,
    /// Also time a key made for every message: set-up, one message sealed, the key dropped,
    /// aeslab through the traits against the current peers, at every size.
    #[arg(long)]
    pub key_per_message: bool,
    #[command(flatten)]
    pub out: crate::args::Output,
}

pub struct GcmBench {
    /// Sealing throughput.
    pub records: Vec<Throughput>,
    /// Opening throughput, in the same shape.
    pub opened: Vec<Throughput>,
    /// Key set-up (round keys, H and its powers) per implementation.
    pub setup: Vec<KeySetup>,
    /// A key per message (`--key-per-message`): set-up, seal and drop, per implementation and size.
    pub per_message: Vec<KeyPerMessage>,
    pub cal: Calibration,
    /// Peers that could not be measured, and why.
    pub notes: Vec<String>,
}

pub fn measure(args: &BenchGcmArgs, progress: &Progress) -> Result<GcmBench, String> {
    if args.sizes.is_empty() || args.sizes.contains(&0) {
        return Err("--sizes must list positive byte counts".into());
    }
    if args.keys.is_empty() || args.keys.iter().any(|k| ![128, 256].contains(k)) {
        return Err("--keys must list 128 and/or 256 (the key sizes every peer offers)".into());
    }
    let plan = if args.out.quick { Plan::QUICK } else { Plan::FULL };
    let mut records = Vec::new();
    let mut opened = Vec::new();
    let mut setup = Vec::new();
    let mut per_message = Vec::new();
    let mut notes = Vec::new();
    let mut cal = calibrate();
    for &bits in &args.keys {
        let key: Vec<u8> = (0..bits / 8).map(|i| (i as u8).wrapping_mul(0x9d).wrapping_add(0x2b)).collect();
        let mut impls = implementations(&key)?;
        for &size in &args.sizes {
            progress.step(&format!("bench gcm: AES-{bits}, {size} bytes"));
            cal.refresh();
            let mut peers: Vec<&mut dyn GcmPeer> = impls.iter_mut().map(|i| i.peer.as_mut() as &mut dyn GcmPeer).collect();
            let timings = match checked_seal_timings(&cal, plan, size, &mut peers) {
                Ok(t) => t,
                Err(i) => {
                    return Err(format!("{} {} produced a different AES-{bits}-GCM output for {size} bytes", impls[i].name, impls[i].backend));
                }
            };
            records.extend(impls.iter().zip(timings).map(|(i, t)| throughput(i, bits, size, &t)));
            let mut openers: Vec<&mut dyn GcmOpen> = impls.iter_mut().map(|i| i.peer.as_mut() as &mut dyn GcmOpen).collect();
            let timings = match checked_open_timings(&cal, plan, size, &mut openers) {
                Ok(t) => t,
                Err(i) => {
                    return Err(format!(
                        "{} {} did not open AES-{bits}-GCM messages of {size} bytes as the others sealed them, or accepted a wrong tag",
                        impls[i].name, impls[i].backend
                    ));
                }
            };
            opened.extend(impls.iter().zip(timings).map(|(i, t)| throughput(i, bits, size, &t)));
        }
        progress.step(&format!("bench gcm: AES-{bits} key set-up"));
        let mut makers = key_setups(&key);
        let timings = interleaved_each(&cal, plan, &mut makers, |(_, _, make)| make());
        for ((name, backend, _), t) in makers.iter().zip(timings) {
            setup.push(KeySetup {
                implementation: name.to_string(),
                backend: backend.to_string(),
                face: "none".into(),
                key_bits: bits,
                op: "key_setup",
                cycles: t.cycles,
                us: t.nanos / 1000.0,
                spread: t.spread,
            });
        }
        if args.key_per_message {
            per_message.extend(key_per_message(&cal, plan, &key, bits, &args.sizes, progress)?);
        }
        progress.step(&format!("bench gcm: AES-{bits}, Go peer"));
        match crate::peers::go::gcm(&key, AD, &args.sizes, args.out.quick, &cal) {
            Ok(mut go) => {
                records.append(&mut go);
                // Opening only once sealing agreed with aeslab's.
                match crate::peers::go::gcm_open(&key, &args.sizes, args.out.quick, &cal) {
                    Ok(mut go) => opened.append(&mut go),
                    Err(e) => notes.push(format!("Go's crypto/cipher GCM (AES-{bits}) opening was not measured: {e}")),
                }
            }
            Err(e) => notes.push(format!("Go's crypto/cipher GCM (AES-{bits}) was not measured: {e}")),
        }
    }
    Ok(GcmBench { records, opened, setup, per_message, cal, notes })
}

/// The record of implementation `i` taking `t` per `size`-byte message.
fn throughput(i: &Implementation, bits: u32, size: usize, t: &Timing) -> Throughput {
    Throughput {
        implementation: i.name.to_string(),
        backend: i.backend.clone(),
        face: i.face.name().to_string(),
        key_bits: bits,
        bytes: size,
        threads: 1,
        cycles_per_byte: t.cycles / size as f64,
        gbytes_per_s: size as f64 / t.nanos,
        spread: t.spread,
    }
}

/// Seals one `size`-byte message with every peer under [`NONCE`] and checks each ciphertext
/// and tag against the first's, then times the peers interleaved, each sealing its own copy of
/// the message, every seal under the next nonce ([`message_nonce`]) written just before it.
/// `Err` holds the index of the first peer whose output differed.
fn checked_seal_timings(cal: &Calibration, plan: Plan, size: usize, peers: &mut [&mut dyn GcmPeer]) -> Result<Vec<Timing>, usize> {
    let message = crate::peers::bench_message(size);
    let mut expect = message.clone();
    let expect_tag = peers[0].seal(&NONCE, &mut expect);
    for (i, peer) in peers.iter_mut().enumerate() {
        let mut out = message.clone();
        if peer.seal(&NONCE, &mut out) != expect_tag || out != expect {
            return Err(i);
        }
    }
    // Per peer: its buffer and the sequence number of its next message (1: 0 was the check's).
    let mut jobs: Vec<(&mut dyn GcmPeer, Vec<u8>, u64)> = peers.iter_mut().map(|peer| (&mut **peer, message.clone(), 1)).collect();
    Ok(interleaved_each(cal, plan, &mut jobs, |(peer, buf, seq)| {
        let nonce = message_nonce(*seq);
        *seq += 1;
        std::hint::black_box(peer.seal(&nonce, buf));
    }))
}

/// Times every peer opening one `size`-byte message in place, interleaved, each in its own
/// buffer, after checking them all.
///
/// Every timed open verifies, and nothing is copied back between them: the message M sealed
/// by the first peer is C under tag T_C, and C sealed again is M under T_M (sealing XORs the
/// same keystream). So opening C with T_C leaves M in the buffer, and opening M with T_M leaves
/// C; each job alternates the two. Before timing, each peer must open both to the right bytes
/// and refuse C under a wrong tag. `Err` holds the index of the first peer that did not (or of
/// one whose timed open failed).
fn checked_open_timings(cal: &Calibration, plan: Plan, size: usize, peers: &mut [&mut dyn GcmOpen]) -> Result<Vec<Timing>, usize> {
    let message = crate::peers::bench_message(size);
    let mut sealed = message.clone();
    let sealed_tag = peers[0].seal(&NONCE, &mut sealed);
    let mut resealed = sealed.clone();
    let message_tag = peers[0].seal(&NONCE, &mut resealed);
    if resealed != message {
        return Err(0);
    }
    let tags = [sealed_tag, message_tag];
    let mut forged = sealed_tag;
    forged[15] ^= 0x80;
    for (i, peer) in peers.iter_mut().enumerate() {
        let mut buf = sealed.clone();
        let refused = !peer.open(&NONCE, &mut sealed.clone(), &forged);
        let opened = peer.open(&NONCE, &mut buf, &tags[0]) && buf == message;
        let reopened = peer.open(&NONCE, &mut buf, &tags[1]) && buf == sealed;
        if !(refused && opened && reopened) {
            return Err(i);
        }
    }
    // Per peer: its buffer, which tag it holds next (0: C's, 1: M's), and whether an open failed.
    let mut jobs: Vec<(&mut dyn GcmOpen, Vec<u8>, usize, bool)> = peers.iter_mut().map(|peer| (&mut **peer, sealed.clone(), 0, false)).collect();
    let tags = &tags;
    let timings = interleaved_each(cal, plan, &mut jobs, |(peer, buf, next, failed)| {
        // The message's nonce, copied out of it as a receiver does (`black_box`: made at run
        // time into this call's own array, not read from the constant).
        let nonce = message_nonce(std::hint::black_box(0));
        *failed |= !std::hint::black_box(peer.open(&nonce, buf, &tags[*next]));
        *next ^= 1;
    });
    match jobs.iter().position(|(_, _, _, failed)| *failed) {
        Some(i) => Err(i),
        None => Ok(timings),
    }
}

/// The `--key-per-message` rows for one key size: each implementation's job makes a key,
/// seals one message and drops the key, interleaved per size, after every job's output is
/// checked against aeslab's.
fn key_per_message(cal: &Calibration, plan: Plan, key: &[u8], bits: u32, sizes: &[usize], progress: &Progress) -> Result<Vec<KeyPerMessage>, String> {
    let mut jobs = key_and_seals(key);
    let mut out = Vec::new();
    for &size in sizes {
        progress.step(&format!("bench gcm: AES-{bits}, {size} bytes, a key per message"));
        let mut peers: Vec<&mut dyn GcmPeer> = jobs.iter_mut().map(|(_, _, job)| job as &mut dyn GcmPeer).collect();
        let timings = match checked_seal_timings(cal, plan, size, &mut peers) {
            Ok(t) => t,
            Err(i) => {
                let (name, backend, _) = &jobs[i];
                return Err(format!("{name} {backend} (a key per message) produced a different AES-{bits}-GCM output for {size} bytes"));
            }
        };
        for ((name, backend, _), t) in jobs.iter().zip(timings) {
            out.push(KeyPerMessage {
                implementation: name.to_string(),
                backend: backend.to_string(),
                key_bits: bits,
                bytes: size,
                op: "key_per_message",
                cycles: t.cycles,
                us: t.nanos / 1000.0,
                spread: t.spread,
            });
        }
    }
    Ok(out)
}

/// Tables per key size, sealing then opening: cycles/byte per implementation and size, and
/// each peer's time relative to aeslab's best; then the key set-up and the key-per-message
/// tables.
pub fn markdown(b: &GcmBench) -> String {
    let mut s = cycles_tables(&b.records, "seal", true);
    s += &cycles_tables(&b.opened, "open", false);
    if !b.setup.is_empty() {
        let _ = writeln!(s, "Key set-up (round keys, H and the powers of H each keeps), cycles and µs:\n");
        let keys = distinct(b.setup.iter().map(|r| r.key_bits));
        let mut header = vec!["impl".to_string(), "backend".to_string()];
        header.extend(keys.iter().map(|k| format!("cycles AES-{k}")));
        header.extend(keys.iter().map(|k| format!("µs AES-{k}")));
        let names = distinct(b.setup.iter().map(|r| (r.implementation.as_str(), r.backend.as_str())));
        let find = |i: &str, bk: &str, k: u32| b.setup.iter().find(|r| r.implementation == i && r.backend == bk && r.key_bits == k);
        let rows: Vec<Vec<String>> = names
            .iter()
            .map(|(i, bk)| {
                let mut row = vec![i.to_string(), bk.to_string()];
                row.extend(keys.iter().map(|&k| find(i, bk, k).map_or("—".into(), |r| figure(r.cycles, 0, r.spread))));
                row.extend(keys.iter().map(|&k| find(i, bk, k).map_or("—".into(), |r| figure(r.us, 3, r.spread))));
                row
            })
            .collect();
        s += &table(&header, &rows);
        s += &noise_footnote(&b.setup);
        s += "\n";
    }
    if !b.per_message.is_empty() {
        s += &per_message_markdown(&b.per_message);
    }
    for n in &b.notes {
        let _ = writeln!(s, "Note: {n}");
    }
    s
}

/// A table per key size of `records` (sealing or opening, named by `op`): cycles/byte per
/// implementation and size, and each peer's time relative to aeslab's best; with `face`, the
/// FACE line of the default backend too.
fn cycles_tables(records: &[Throughput], op: &str, face: bool) -> String {
    let mut s = String::new();
    let sizes = sorted_sizes(records.iter().map(|r| r.bytes));
    for bits in distinct(records.iter().map(|r| r.key_bits)) {
        let _ = writeln!(s, "AES-{bits}-GCM {op}, cycles/byte (fastest samples of interleaved runs):\n");
        let header = size_header(&sizes);
        let mut rows: Vec<Vec<String>> = Vec::new();
        let names: Vec<(String, String)> =
            distinct(records.iter().filter(|r| r.key_bits == bits).map(|r| (r.implementation.clone(), r.backend.clone())));
        let record = |imp: &str, backend: &str, n: usize| {
            records.iter().find(|r| r.key_bits == bits && r.implementation == imp && r.backend == backend && r.bytes == n)
        };
        let cpb = |imp: &str, backend: &str, n: usize| record(imp, backend, n).map(|r| r.cycles_per_byte);
        for (imp, backend) in &names {
            let mut row = vec![imp.clone(), backend.clone()];
            row.extend(sizes.iter().map(|&n| record(imp, backend, n).map_or("—".into(), |r| figure(r.cycles_per_byte, 3, r.spread))));
            rows.push(row);
        }
        s += &table(&header, &rows);
        s += &noise_footnote(records);
        for &n in &sizes {
            let best = names.iter().filter(|(i, _)| i == "aeslab").filter_map(|(i, bk)| cpb(i, bk, n)).fold(f64::INFINITY, f64::min);
            let peers: Vec<String> = ["openssl", "aws-lc-rs", "ring", "rustcrypto", "go"]
                .iter()
                .filter_map(|p| names.iter().find(|(i, _)| i == p).and_then(|(i, bk)| cpb(i, bk, n)).map(|c| format!("{p} {:.2}×", c / best)))
                .collect();
            let _ = writeln!(s, "- {n} B: aeslab's best {best:.3} cycles/byte; peers' time relative to it: {}", peers.join(", "));
        }
        if face {
            s += &face_line(bits, &sizes, &cpb);
        }
        s += "\n";
    }
    s
}

/// The distinct values of `items`, in the order they first come.
fn distinct<T: PartialEq>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for x in items {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// The message sizes of `sizes`, ascending, each once.
fn sorted_sizes(sizes: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut v: Vec<usize> = sizes.collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// A table's header: the implementation, its backend, then a column per message size.
fn size_header(sizes: &[usize]) -> Vec<String> {
    let mut header = vec!["impl".to_string(), "backend".to_string()];
    header.extend(sizes.iter().map(|n| format!("{n} B")));
    header
}

/// The `--key-per-message` table per key size (cycles per message: set-up, seal, drop) and,
/// per size, each peer's time relative to aeslab's.
fn per_message_markdown(rows: &[KeyPerMessage]) -> String {
    let mut s = String::new();
    let sizes = sorted_sizes(rows.iter().map(|r| r.bytes));
    for bits in distinct(rows.iter().map(|r| r.key_bits)) {
        let _ = writeln!(s, "A key per message, AES-{bits}-GCM: key set-up, one message sealed, the key dropped; cycles per message:\n");
        let header = size_header(&sizes);
        let names = distinct(rows.iter().filter(|r| r.key_bits == bits).map(|r| (r.implementation.as_str(), r.backend.as_str())));
        let find = |i: &str, bk: &str, n: usize| rows.iter().find(|r| r.key_bits == bits && r.implementation == i && r.backend == bk && r.bytes == n);
        let table_rows: Vec<Vec<String>> = names
            .iter()
            .map(|(i, bk)| {
                let mut row = vec![i.to_string(), bk.to_string()];
                row.extend(sizes.iter().map(|&n| find(i, bk, n).map_or("—".into(), |r| figure(r.cycles, 0, r.spread))));
                row
            })
            .collect();
        s += &table(&header, &table_rows);
        s += &noise_footnote(rows);
        for &n in &sizes {
            let Some(ours) = names.iter().find(|(i, _)| *i == "aeslab").and_then(|(i, bk)| find(i, bk, n)) else { continue };
            let peers: Vec<String> = names
                .iter()
                .filter(|(i, _)| *i != "aeslab")
                .filter_map(|(i, bk)| find(i, bk, n).map(|r| format!("{i} ({bk}) {:.2}×", r.cycles / ours.cycles)))
                .collect();
            let _ = writeln!(s, "- {n} B: aeslab {:.0} cycles; peers' time relative to it: {}", ours.cycles, peers.join(", "));
        }
        s += "\n";
    }
    s
}

/// FACE in AES-GCM on the default backend: its rd2p row over its plain row per size, and the
/// lengths from which the library runs FACE (a level asked for: CTR's threshold; the defaults:
/// GCM's own, which the `aead traits` row follows).
fn face_line(bits: u32, sizes: &[usize], cpb: &dyn Fn(&str, &str, usize) -> Option<f64>) -> String {
    let kind = aeslab::aes::default_backend();
    let ghash = aeslab::gcm::GhashImpl::fastest().name();
    let row = |face: &str| format!("{kind}+{ghash}/{face}");
    let (plain, face) = (row("none"), row("rd2p"));
    let ratios: Vec<String> = sizes
        .iter()
        .filter_map(|&n| Some(format!("{n} B {:.3}", cpb("aeslab", &face, n)? / cpb("aeslab", &plain, n)?)))
        .collect();
    if ratios.is_empty() {
        return String::new();
    }
    format!(
        "- FACE on {kind}, AES-{bits}: rd2p ÷ plain {} (rd2p asked for runs FACE from {}, plain below); the defaults build the table from: {}\n",
        ratios.join(", "),
        kib(aeslab::ctr::face_pays_from_blocks(kind)),
        gcm_face_from(kind, bits),
    )
}

pub fn run(args: &BenchGcmArgs) -> CliResult {
    let progress = Progress::new(!args.out.json);
    let b = measure(args, &progress)?;
    progress.finish();
    let records: Vec<Record> =
        b.records
            .iter()
            .cloned()
            .map(Record::Throughput)
            .chain(b.opened.iter().cloned().map(|t| Record::Opened(Opened::new(t))))
            .chain(b.setup.iter().cloned().map(Record::KeySetup))
            .chain(b.per_message.iter().cloned().map(Record::KeyPerMessage))
            .collect();
    print_bench(args.out.json, "gcm", &b.cal, &records, || markdown(&b))
}

#[cfg(test)]
mod tests {
    use aeslab::gcm::Gcm;
    use aeslab_measure::{Plan, calibrate};

    use super::checked_open_timings;
    use crate::peers::gcm::{GcmOpen, GcmPeer};

    /// A broken peer: its open decrypts (sealing XORs the same keystream) and never checks
    /// the tag.
    struct AcceptsAnyTag(Gcm);

    impl GcmPeer for AcceptsAnyTag {
        fn seal(&mut self, nonce: &[u8; 12], buf: &mut [u8]) -> [u8; 16] {
            GcmPeer::seal(&mut self.0, nonce, buf)
        }
    }

    impl GcmOpen for AcceptsAnyTag {
        fn open(&mut self, nonce: &[u8; 12], buf: &mut [u8], _tag: &[u8; 16]) -> bool {
            GcmPeer::seal(&mut self.0, nonce, buf);
            true
        }
    }

    #[test]
    fn open_timings_check_every_peer_first_and_refuse_one_that_accepts_a_wrong_tag() {
        let key = [0x5au8; 16];
        let cal = calibrate();
        let (mut good, mut other) = (Gcm::new(&key).unwrap(), Gcm::new(&key).unwrap());
        let mut broken = AcceptsAnyTag(Gcm::new(&key).unwrap());
        let mut peers: Vec<&mut dyn GcmOpen> = vec![&mut good, &mut broken, &mut other];
        assert_eq!(checked_open_timings(&cal, Plan::QUICK, 64, &mut peers).err(), Some(1));
        let mut peers: Vec<&mut dyn GcmOpen> = vec![&mut good, &mut other];
        let timings = checked_open_timings(&cal, Plan::QUICK, 100, &mut peers).expect("both open what they sealed");
        assert_eq!(timings.len(), 2);
        assert!(timings.iter().all(|t| t.cycles > 0.0));
    }
}
