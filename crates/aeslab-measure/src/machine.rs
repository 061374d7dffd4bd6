//! A description of the machine a measurement ran on.

/// The CPU model from `/proc/cpuinfo`: the brand string plus vendor, family and model numbers
/// (a VM's brand string can be as vague as "Intel(R) Xeon(R) Processor").
pub fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |key: &str| {
        info.lines()
            .find(|l| l.split(':').next().map(str::trim) == Some(key))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    };
    let name = field("model name").or_else(|| field("Model")).unwrap_or_else(|| "unknown CPU".into());
    match (field("vendor_id"), field("cpu family"), field("model")) {
        (Some(v), Some(f), Some(m)) => format!("{name} ({v} family {f} model {m})"),
        _ => match (field("CPU implementer"), field("CPU part")) {
            (Some(i), Some(p)) => format!("{name} (implementer {i} part {p})"),
            _ => name,
        },
    }
}

/// Whether this process runs under user-mode emulation of another architecture (qemu-user):
/// the kernel's `/proc/cpuinfo` then describes the host, not the architecture compiled for.
/// Timings taken under emulation describe the emulator, not any CPU.
pub fn emulated() -> bool {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let has = |key: &str| info.lines().any(|l| l.split(':').next().map(str::trim) == Some(key));
    if cfg!(target_arch = "aarch64") {
        has("vendor_id") || has("cpu family")
    } else if cfg!(target_arch = "x86_64") {
        has("CPU implementer")
    } else {
        false
    }
}

/// Today's UTC date as YYYY-MM-DD (civil-from-days, Howard Hinnant's algorithm).
pub fn utc_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn date_has_iso_shape_and_a_plausible_year() {
        let d = super::utc_date();
        assert_eq!(d.len(), 10);
        let year: i32 = d[..4].parse().unwrap();
        assert!(year >= 2024, "{d}");
        assert_eq!(&d[4..5], "-");
    }
}
