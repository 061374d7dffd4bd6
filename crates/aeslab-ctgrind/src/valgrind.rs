//! Valgrind client requests, issued directly: the "special instruction" sequence valgrind's
//! `valgrind.h` emits on x86-64. Natively it is a no-op that leaves the default result.

/// `VG_USERREQ_TOOL_BASE('M', 'C')`: memcheck's requests.
const MEMCHECK_BASE: u64 = (b'M' as u64) << 24 | (b'C' as u64) << 16;
const MAKE_MEM_UNDEFINED: u64 = MEMCHECK_BASE + 1;
const MAKE_MEM_DEFINED: u64 = MEMCHECK_BASE + 2;
/// Core requests.
const RUNNING_ON_VALGRIND: u64 = 0x1001;
const COUNT_ERRORS: u64 = 0x1201;

#[cfg(target_arch = "x86_64")]
fn client_request(default: u64, request: u64, a1: u64, a2: u64) -> u64 {
    let args: [u64; 6] = [request, a1, a2, 0, 0, 0];
    let mut result = default;
    // SAFETY: on bare hardware these are four rotations of rdi by 3 + 13 + 61 + 51 = 128 bits
    // (rdi ends unchanged) and an exchange of rbx with itself; they only clobber the flags.
    // Under valgrind the sequence is recognised and the request at `args` is served, with the
    // answer in rdx. `args` outlives the asm block, which only reads it.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") args.as_ptr(),
            inout("rdx") result,
            options(nostack),
        );
    }
    result
}

#[cfg(not(target_arch = "x86_64"))]
fn client_request(default: u64, _request: u64, _a1: u64, _a2: u64) -> u64 {
    default
}

/// Marks `bytes` as holding secrets: memcheck will report any branch or address that depends
/// on them.
pub fn mark_secret(bytes: &[u8]) {
    client_request(0, MAKE_MEM_UNDEFINED, bytes.as_ptr() as u64, bytes.len() as u64);
}

/// Declassifies `bytes` (outputs the caller may now look at).
pub fn mark_public(bytes: &[u8]) {
    client_request(0, MAKE_MEM_DEFINED, bytes.as_ptr() as u64, bytes.len() as u64);
}

/// Whether this process runs under valgrind.
pub fn running_on_valgrind() -> bool {
    client_request(0, RUNNING_ON_VALGRIND, 0, 0) > 0
}

/// Errors memcheck has reported so far.
pub fn errors_so_far() -> u64 {
    client_request(0, COUNT_ERRORS, 0, 0)
}
