//! The binding of the radix sort's two loops in SH-2 assembly (`sort.S`, beside this
//! file): counting the bytes of the sort keys and scattering them by one byte. The Rust
//! loops (`count_bytes_reference`, `scatter_reference`) stay the reference: `asm_tests`
//! compares them in every SH-2 build (qemu too).

use crate::render::shared::SortKey;

extern "C" {
    fn jom_count_bytes(keys: *const SortKey, count: u32, counts: *mut [[u32; 256]; 2]);
    fn jom_scatter(
        from: *const SortKey,
        count: u32,
        to: *mut SortKey,
        slots: *mut [u32; 256],
        shift_is_24: u32,
    );
    fn jom_count_low(
        keys: *const SortKey,
        count: u32,
        counts: *mut [u32; 256],
        and_or: *mut [u32; 2],
    );
    fn jom_scatter_counting(
        from: *const SortKey,
        count: u32,
        to: *mut SortKey,
        slots: *mut [u32; 256],
        counts: *mut [[u32; 256]; 2],
        split: u32,
    );
}

/// Adds 1 to `counts[0][byte 2]` and `counts[1][byte 3]` of each key.
pub(crate) fn count_bytes(keys: &[SortKey], counts: &mut [[u32; 256]; 2]) {
    if keys.is_empty() {
        return;
    }
    // SAFETY: reads the keys, writes within `counts` (a byte indexes 256 entries).
    unsafe { jom_count_bytes(keys.as_ptr(), keys.len() as u32, counts) };
}

/// Adds 1 to `counts[byte 2]` of each key; gives the AND and the OR of the keys (at least
/// one).
pub(crate) fn count_low(keys: &[SortKey], counts: &mut [u32; 256]) -> [u32; 2] {
    let mut and_or = [!0, 0];
    if !keys.is_empty() {
        // SAFETY: reads the keys, writes within `counts` (a byte indexes 256 entries) and
        // the two words of `and_or`.
        unsafe { jom_count_low(keys.as_ptr(), keys.len() as u32, counts, &mut and_or) };
    }
    and_or
}

/// The key stored at `slots[b]` bytes into `to` and `slots[b]` moved on by a key, for each
/// key of `from`, `b` its byte at `shift` (16 or 24). The slots must be the prefix sums of
/// the counts of that byte over `from`, in bytes (so that every slot stays within
/// `from.len()` keys); `to` is as long as `from`.
pub(crate) fn scatter(from: &[SortKey], to: &mut [SortKey], slots: &mut [u32; 256], shift: u32) {
    if from.is_empty() || to.len() < from.len() {
        return;
    }
    // SAFETY: reads `from`, writes `slots` (a byte indexes 256 entries) and `to` at the
    // slots, which the prefix sums keep below `from.len()` keys, at most `to.len()`.
    unsafe {
        jom_scatter(
            from.as_ptr(),
            from.len() as u32,
            to.as_mut_ptr(),
            slots,
            u32::from(shift == 24),
        )
    };
}

/// [`scatter`] into `to`, where another CPU may be writing keys at slots of its own at the
/// same time.
///
/// # Safety
/// `to` is valid for writes at every slot `from`'s keys reach (each slot moves on by one a
/// key of its byte), and no other CPU reads or writes those slots meanwhile.
pub(crate) unsafe fn scatter_shared(
    from: &[SortKey],
    to: *mut SortKey,
    slots: &mut [u32; 256],
    shift: u32,
) {
    if from.is_empty() {
        return;
    }
    // SAFETY: as the caller says.
    unsafe {
        jom_scatter(
            from.as_ptr(),
            from.len() as u32,
            to,
            slots,
            u32::from(shift == 24),
        )
    };
}

/// [`scatter_shared`] by byte 2 that also adds 1 to `counts[slot >= split][byte 3]` of
/// each key, `slot` the key where it went.
///
/// # Safety
/// As [`scatter_shared`].
pub(crate) unsafe fn scatter_counting_shared(
    from: &[SortKey],
    to: *mut SortKey,
    slots: &mut [u32; 256],
    counts: &mut [[u32; 256]; 2],
    split: u32,
) {
    if from.is_empty() {
        return;
    }
    // The loop compares the slots as they are, in bytes.
    let split = split.saturating_mul(core::mem::size_of::<SortKey>() as u32);
    // SAFETY: as the caller says; `counts` is written at a byte's entry of one of its two
    // halves.
    unsafe { jom_scatter_counting(from.as_ptr(), from.len() as u32, to, slots, counts, split) };
}
