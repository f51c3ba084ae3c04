//! Back to front: a stable radix sort of the sort keys by their 16 bits of depth, a byte a
//! pass (the loops in SH-2 assembly on an SH-2: `sort.S`, bound by `sh2`).

#[cfg(jom_asm)]
pub(crate) mod sh2;

use super::SortKey;

/// Sorts sort keys by their high 16 bits (the depth), keeping the order of equal ones:
/// a least-significant-digit radix sort, a byte a pass, between `keys` and `scratch` (as
/// long). Gives the sorted keys: in `keys` or in `scratch`, wherever the last pass left
/// them (a copy back costs as much as a pass).
pub(crate) fn radix_sort<'k>(keys: &'k mut [SortKey], scratch: &'k mut [SortKey]) -> &'k [SortKey] {
    let mut counts = [[0u32; 256]; 2];
    count_bytes(keys, &mut counts);
    // A byte all keys share would not move them: its pass is left out.
    let [low, high] = counts.map(|c| !c.iter().any(|&n| n as usize == keys.len()));
    let [mut low_counts, mut high_counts] = counts;
    match (low, high) {
        (true, true) => {
            scatter(keys, scratch, &mut low_counts, 16);
            scatter(scratch, keys, &mut high_counts, 24);
            keys
        }
        (true, false) => {
            scatter(keys, scratch, &mut low_counts, 16);
            scratch
        }
        (false, true) => {
            scatter(keys, scratch, &mut high_counts, 24);
            scratch
        }
        (false, false) => keys,
    }
}

/// Counts byte 2 (`counts[0]`) and byte 3 (`counts[1]`) of the keys: on an SH-2 by its
/// assembly (`sort.S`).
pub(crate) fn count_bytes(keys: &[SortKey], counts: &mut [[u32; 256]; 2]) {
    #[cfg(jom_asm)]
    sh2::count_bytes(keys, counts);
    #[cfg(not(jom_asm))]
    count_bytes_reference(keys, counts);
}

/// The Rust version of [`count_bytes`].
#[cfg_attr(all(jom_asm, not(feature = "selftest")), allow(dead_code))]
pub(crate) fn count_bytes_reference(keys: &[SortKey], counts: &mut [[u32; 256]; 2]) {
    for &key in keys {
        counts[0][(key >> 16 & 0xFF) as usize] += 1;
        counts[1][(key >> 24) as usize] += 1;
    }
}

/// One pass of [`radix_sort`]: `from` into `to` in the order of the byte at `shift`, whose
/// values are counted in `counts`.
pub(crate) fn scatter(from: &[SortKey], to: &mut [SortKey], counts: &mut [u32; 256], shift: u32) {
    let mut next = 0;
    for count in counts.iter_mut() {
        let here = *count;
        *count = next;
        next += here;
    }
    #[cfg(jom_asm)]
    sh2::scatter(from, to, counts, shift);
    #[cfg(not(jom_asm))]
    scatter_reference(from, to, counts, shift);
}

/// The Rust version of the loop of [`scatter`], from the slots (the counts' prefix sums).
#[cfg_attr(all(jom_asm, not(feature = "selftest")), allow(dead_code))]
pub(crate) fn scatter_reference(
    from: &[SortKey],
    to: &mut [SortKey],
    slots: &mut [u32; 256],
    shift: u32,
) {
    for &key in from {
        let slot = &mut slots[(key >> shift & 0xFF) as usize];
        to[*slot as usize] = key;
        *slot += 1;
    }
}
