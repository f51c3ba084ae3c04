//! Back to front: a stable radix sort of the sort keys by their 16 bits of depth, a byte a
//! pass (the loops in SH-2 assembly on an SH-2: `sort.S`, bound by `sh2`); with a second
//! CPU each pass is shared ([`radix_sort_shared`]).

#[cfg(jom_asm)]
pub(crate) mod sh2;

use core::marker::PhantomData;

use super::SortKey;
use crate::worker::Worker;

/// Fewer keys than this are sorted by one CPU: a shared sort's four joins (each wakes the
/// other CPU and empties both caches) cost about what the other CPU's half of a few
/// hundred keys saves.
pub(crate) const MIN_SHARED_KEYS: usize = 256;

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

/// [`radix_sort`] with `worker` (the other CPU) doing half of each pass: each CPU counts
/// the bytes of one half of the keys, then scatters that half by byte 2 to where the joint
/// counts put it (the first half's keys of a byte before the second half's: the order of
/// one CPU's sort), then counts byte 3 of one half of that order and scatters it in turn.
/// The same keys in the same place as `radix_sort` gives (also when it skips a pass).
/// Without a worker, or for fewer than [`MIN_SHARED_KEYS`], it is `radix_sort`.
pub(crate) fn radix_sort_shared<'k>(
    keys: &'k mut [SortKey],
    scratch: &'k mut [SortKey],
    worker: Option<&mut (dyn Worker + '_)>,
) -> &'k [SortKey] {
    let count = keys.len();
    let worker = match worker {
        Some(worker) if count >= MIN_SHARED_KEYS && scratch.len() >= count => worker,
        _ => return radix_sort(keys, scratch),
    };
    let scratch = &mut scratch[..count];
    let half = count / 2;
    // [CPU][byte 2, byte 3][value]
    let mut counts = [[[0u32; 256]; 2]; 2];
    {
        let (first, second) = keys.split_at(half);
        let [here, there] = &mut counts;
        worker.join(&mut || count_bytes(first, here), &mut || {
            count_bytes(second, there)
        });
    }
    // A byte all keys share would not move them: its pass is left out (as `radix_sort`).
    let moves = |byte: usize| {
        !counts[0][byte]
            .iter()
            .zip(&counts[1][byte])
            .any(|(&a, &b)| (a + b) as usize == count)
    };
    let (low, high) = (moves(0), moves(1));
    let mut high_counts = [counts[0][1], counts[1][1]];
    if low {
        scatter_halves(worker, keys, scratch, [&counts[0][0], &counts[1][0]], 16);
        if high {
            // The second pass's halves are halves of the first's order: counted again.
            high_counts = [[0; 256]; 2];
            let (first, second) = scratch.split_at(half);
            let [here, there] = &mut high_counts;
            worker.join(&mut || count_high(first, here), &mut || {
                count_high(second, there)
            });
        }
    }
    let high_counts = [&high_counts[0], &high_counts[1]];
    match (low, high) {
        (true, true) => {
            scatter_halves(worker, scratch, keys, high_counts, 24);
            keys
        }
        (true, false) => scratch,
        (false, true) => {
            scatter_halves(worker, keys, scratch, high_counts, 24);
            scratch
        }
        (false, false) => keys,
    }
}

/// The frame's sort as the renderer does it ([`radix_sort_shared`]): for the SH-2 test
/// of the slave's share, which sees only the public API.
#[doc(hidden)]
pub fn sort_keys<'k>(
    keys: &'k mut [SortKey],
    scratch: &'k mut [SortKey],
    worker: Option<&mut dyn Worker>,
) -> &'k [SortKey] {
    radix_sort_shared(keys, scratch, worker)
}

/// One pass of [`radix_sort_shared`]: this CPU scatters the first half of `from` into `to`
/// (as long) by the byte at `shift`, the worker the second half. `counts` are the counts
/// of that byte over each half: a value's keys of the first half go before those of the
/// second, so the order is the one pass of one CPU gives.
fn scatter_halves(
    worker: &mut (dyn Worker + '_),
    from: &[SortKey],
    to: &mut [SortKey],
    counts: [&[u32; 256]; 2],
    shift: u32,
) {
    let (first, second) = from.split_at(from.len() / 2);
    let to = SharedKeys::of(to);
    let to = &to;
    worker.join(
        &mut || to.scatter(first, &mut shared_slots(counts, 0), shift),
        &mut || to.scatter(second, &mut shared_slots(counts, 1), shift),
    );
}

/// Where the keys of each byte value of half `half` (0 or 1) of the keys go: after every
/// key of a lower value, and for the second half after the first half's keys of the same
/// value.
fn shared_slots(counts: [&[u32; 256]; 2], half: usize) -> [u32; 256] {
    let mut slots = [0; 256];
    let mut next = 0;
    for ((slot, &first), &second) in slots.iter_mut().zip(counts[0]).zip(counts[1]) {
        *slot = if half == 0 { next } else { next + first };
        next += first + second;
    }
    slots
}

/// Keys two CPUs write at once, each at slots of its own (a pass of [`radix_sort_shared`]):
/// written through a pointer, since neither holds the whole slice.
struct SharedKeys<'k> {
    start: *mut SortKey,
    /// (The Rust loop checks each slot against it; the assembly relies on the slots.)
    #[cfg_attr(jom_asm, allow(dead_code))]
    len: usize,
    _keys: PhantomData<&'k mut [SortKey]>,
}

// SAFETY: the CPUs write through it at distinct slots only (`scatter`'s slots are the
// distinct ranges `shared_slots` gives each half) and nothing reads it meanwhile.
unsafe impl Sync for SharedKeys<'_> {}

impl<'k> SharedKeys<'k> {
    fn of(keys: &'k mut [SortKey]) -> Self {
        Self {
            start: keys.as_mut_ptr(),
            len: keys.len(),
            _keys: PhantomData,
        }
    }

    /// [`scatter_reference`] into the shared keys; on an SH-2 by its assembly (`sort.S`).
    /// The slots are those `shared_slots` gives for the counts of `from`'s bytes.
    fn scatter(&self, from: &[SortKey], slots: &mut [u32; 256], shift: u32) {
        #[cfg(jom_asm)]
        // SAFETY: the slots of a half start where `shared_slots` puts them and move on by
        // one a key of their value, over ranges within the keys (the joint counts' prefix
        // sums cover `len` keys) that the other half's slots never reach.
        unsafe {
            sh2::scatter_shared(from, self.start, slots, shift)
        };
        #[cfg(not(jom_asm))]
        for &key in from {
            let slot = &mut slots[(key >> shift & 0xFF) as usize];
            let at = *slot as usize;
            if at < self.len {
                // SAFETY: within the keys, at a slot of this half only (see above).
                unsafe { self.start.add(at).write(key) };
            }
            *slot += 1;
        }
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

/// Counts byte 3 of the keys: on an SH-2 by its assembly (`sort.S`).
pub(crate) fn count_high(keys: &[SortKey], counts: &mut [u32; 256]) {
    #[cfg(jom_asm)]
    sh2::count_high(keys, counts);
    #[cfg(not(jom_asm))]
    count_high_reference(keys, counts);
}

/// The Rust version of [`count_high`].
#[cfg_attr(all(jom_asm, not(feature = "selftest")), allow(dead_code))]
pub(crate) fn count_high_reference(keys: &[SortKey], counts: &mut [u32; 256]) {
    for &key in keys {
        counts[(key >> 24) as usize] += 1;
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
