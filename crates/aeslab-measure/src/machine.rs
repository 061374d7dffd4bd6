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

/// Whether this process runs under user-mode emulation (qemu-user): the kernel's
/// `/proc/cpuinfo` then describes the host, not the CPU the program sees. Timings taken under
/// emulation describe the emulator, not any CPU.
///
/// Another architecture's emulation shows in `/proc/cpuinfo`'s fields. x86-64 emulated on
/// x86-64 (`qemu-x86_64 -cpu …`, which the CI uses to test on CPUs without AES-NI or AVX2)
/// shows in the CPU's own brand string: CPUID answers for the emulated model, while
/// `/proc/cpuinfo` names the host's.
pub fn emulated() -> bool {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let has = |key: &str| info.lines().any(|l| l.split(':').next().map(str::trim) == Some(key));
    if cfg!(target_arch = "aarch64") {
        has("vendor_id") || has("cpu family")
    } else if cfg!(target_arch = "x86_64") {
        has("CPU implementer") || brand_differs_from_kernel(&info)
    } else {
        false
    }
}

/// Whether CPUID's brand string differs from the kernel's "model name" (both present).
fn brand_differs_from_kernel(info: &str) -> bool {
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let kernel = info
        .lines()
        .find(|l| l.split(':').next().map(str::trim) == Some("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| squash(v));
    match (kernel, cpuid_brand()) {
        (Some(k), Some(b)) if !k.is_empty() && !b.is_empty() => k != squash(&b),
        _ => false,
    }
}

/// The processor brand string from CPUID leaves 0x80000002–4.
#[cfg(target_arch = "x86_64")]
fn cpuid_brand() -> Option<String> {
    use core::arch::x86_64::__cpuid;
    // SAFETY (each call): CPUID exists on every x86-64 CPU; leaves above the maximum extended
    // leaf are not queried.
    #[allow(unused_unsafe)]
    let max = unsafe { __cpuid(0x8000_0000) }.eax;
    if max < 0x8000_0004 {
        return None;
    }
    let mut bytes = Vec::with_capacity(48);
    for leaf in 0x8000_0002u32..=0x8000_0004 {
        #[allow(unused_unsafe)]
        let r = unsafe { __cpuid(leaf) };
        for word in [r.eax, r.ebx, r.ecx, r.edx] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
    }
    Some(String::from_utf8_lossy(&bytes).trim_matches(char::from(0)).trim().to_string())
}

#[cfg(not(target_arch = "x86_64"))]
fn cpuid_brand() -> Option<String> {
    None
}

/// Keeps the calling thread on the CPU it is running on now, so that no sample spans a
/// migration to another core (whose clock, caches and load differ), until the returned guard
/// is dropped: the thread then gets back the CPUs it had. Threads inherit the CPU set of the
/// thread that starts them, so a thread started while the guard lives shares the one CPU; one
/// started after it does not. (`bench ctr --threads` once timed rayon's pool on one CPU: the
/// pool was started after an earlier timed run had pinned the thread for good.) Best effort:
/// where the kernel refuses, the thread stays free to move.
#[must_use = "the thread is unpinned when the guard is dropped"]
pub fn pin_to_current_cpu() -> Pinned {
    // SAFETY: sched_getcpu takes no arguments; each cpu_set_t is a plain bit set, zeroed, then
    // filled by the kernel (sched_getaffinity) or by CPU_SET for one CPU number the kernel just
    // returned, and passed by pointer with its size.
    unsafe {
        let mut previous: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut previous) != 0 {
            return Pinned { previous: None, _not_send: std::marker::PhantomData };
        }
        let cpu = libc::sched_getcpu();
        if cpu < 0 {
            return Pinned { previous: None, _not_send: std::marker::PhantomData };
        }
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu as usize, &mut set);
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Pinned { previous: None, _not_send: std::marker::PhantomData };
        }
        Pinned { previous: Some(previous), _not_send: std::marker::PhantomData }
    }
}

/// The calling thread pinned by [`pin_to_current_cpu`]; dropping it gives the thread back the
/// CPU set it had before. Not `Send`: the CPU set is the thread's own, and dropped on another
/// thread the guard would set that thread's.
pub struct Pinned {
    previous: Option<libc::cpu_set_t>,
    _not_send: std::marker::PhantomData<*const ()>,
}

impl Drop for Pinned {
    fn drop(&mut self) {
        if let Some(previous) = &self.previous {
            // SAFETY: a CPU set the kernel filled for this thread, passed by pointer with its size.
            unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), previous) };
        }
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

/// Size in bytes of this CPU's (CPU 0's) data or unified cache at `level` (1, 2, 3), from
/// Linux's sysfs; `None` where that is not available.
pub fn cache_size(level: u32) -> Option<usize> {
    let dir = std::fs::read_dir("/sys/devices/system/cpu/cpu0/cache").ok()?;
    for entry in dir.flatten() {
        let read = |name: &str| std::fs::read_to_string(entry.path().join(name)).ok().map(|s| s.trim().to_string());
        let (Some(this_level), Some(kind), Some(size)) = (read("level"), read("type"), read("size")) else {
            continue;
        };
        if this_level.parse() != Ok(level) || kind == "Instruction" {
            continue;
        }
        let (digits, unit) = size.split_at(size.find(|c: char| !c.is_ascii_digit()).unwrap_or(size.len()));
        let scale = match unit {
            "" => 1,
            "K" => 1 << 10,
            "M" => 1 << 20,
            _ => return None,
        };
        return Some(digits.parse::<usize>().ok()? * scale);
    }
    None
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

    /// The CPUs the calling thread may run on, as the kernel reports them (empty where it does
    /// not).
    fn allowed_cpus() -> Vec<usize> {
        // SAFETY: a zeroed cpu_set_t filled by the kernel, passed by pointer with its size, then
        // read with CPU_ISSET for indices below its capacity.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
                return Vec::new();
            }
            (0..8 * std::mem::size_of::<libc::cpu_set_t>()).filter(|&c| libc::CPU_ISSET(c, &set)).collect()
        }
    }

    /// Pinned while the guard lives, to one CPU the thread was allowed; given back its whole
    /// set when it is dropped.
    #[test]
    fn pinning_lasts_as_long_as_its_guard() {
        let before = allowed_cpus();
        assert!(!before.is_empty());
        let pinned = super::pin_to_current_cpu();
        let during = allowed_cpus();
        if pinned.previous.is_some() {
            assert_eq!(during.len(), 1, "{during:?}");
            assert!(before.contains(&during[0]));
        } else {
            // The kernel refused (a container's seccomp, say): nothing changed.
            assert_eq!(during, before);
        }
        drop(pinned);
        assert_eq!(allowed_cpus(), before);
    }

    #[test]
    fn cache_sizes_grow_with_the_level_where_sysfs_has_them() {
        if let (Some(l1), Some(l2)) = (super::cache_size(1), super::cache_size(2)) {
            assert!(l1 >= 4096 && l2 > l1, "L1 {l1}, L2 {l2}");
        }
    }
}
