//! Back to front: a stable radix sort of the sort keys by their 16 bits of depth, a byte a
//! pass (the loops in SH-2 assembly on an SH-2: `sort.S`, bound by `sh2`); with a second
//! CPU each pass is shared ([`radix_sort_shared`]).

#[cfg(jom_asm)]
pub(crate) mod sh2;

use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ops::Range;

use crate::render::shared::SortKey;
use crate::worker::Worker;

/// Fewer keys than this are sorted by one CPU: a shared sort's three joins (each wakes the
/// other CPU and empties both caches) cost about what the other CPU's half of a few
/// hundred keys saves.
pub(crate) const MIN_SHARED_KEYS: usize = 256;

/// Sorts sort keys by their high 16 bits (the depth), keeping the order of equal ones:
/// a least-significant-digit radix sort, a byte a pass, between `keys` and `scratch` (as
/// long). Gives the sorted keys: in `keys` or in `scratch`, wherever the last pass left
/// them (a copy back costs as much as a pass).
#[cfg(any(test, feature = "selftest"))]
pub(crate) fn radix_sort<'k>(keys: &'k mut [SortKey], scratch: &'k mut [SortKey]) -> &'k [SortKey] {
    radix_sort_in(keys, scratch, &mut [[0; 256]; 2])
}

/// [`radix_sort`] counting in the first of `counts` (a shared sort's, free once it is
/// done: written over): the billboards' sort at a frame's end, without 2 KiB more on the
/// stack.
pub(crate) fn radix_sort_lent<'k>(
    keys: &'k mut [SortKey],
    scratch: &'k mut [SortKey],
    counts: &mut PassCounts,
) -> &'k [SortKey] {
    // Sorted already, without the counts' 2 KiB cleared and read (a frame of no billboards
    // sorts theirs: 5,376 cycles a frame, Mednafen).
    if keys.len() < 2 {
        return keys;
    }
    radix_sort_in(keys, scratch, zeroed(&mut counts[0]))
}

/// [`radix_sort`] counting in `counts`, all zero: a caller that has such a table at hand
/// lends it, rather than a second 2 KiB on the stack.
fn radix_sort_in<'k>(
    keys: &'k mut [SortKey],
    scratch: &'k mut [SortKey],
    counts: &mut [[u32; 256]; 2],
) -> &'k [SortKey] {
    count_bytes(keys, counts);
    // A byte all keys share would not move them: its pass is left out.
    let moves = |counts: &[u32; 256]| !counts.iter().any(|&n| n as usize == keys.len());
    let (low, high) = (moves(&counts[0]), moves(&counts[1]));
    // (In place: a copy of the counts is 2 KiB.)
    let [low_counts, high_counts] = counts;
    match (low, high) {
        (true, true) => {
            scatter(keys, scratch, low_counts, 16);
            scatter(scratch, keys, high_counts, 24);
            keys
        }
        (true, false) => {
            scatter(keys, scratch, low_counts, 16);
            scratch
        }
        (false, true) => {
            scatter(keys, scratch, high_counts, 24);
            scratch
        }
        (false, false) => keys,
    }
}

/// [`radix_sort`] from `low`, the counts of the keys' byte 2, and `differing`, the bits of
/// depth not all keys share ([`KeyCounts::differing_with`]): the counting left out.
fn radix_sort_counted<'k>(
    keys: &'k mut [SortKey],
    scratch: &'k mut [SortKey],
    low: &mut [u32; 256],
    differing: u32,
) -> &'k [SortKey] {
    // One table of byte 3's counts for the two paths that count it (2 KiB: on the stack
    // once, zeroed only where it is used).
    let mut high = MaybeUninit::<[[u32; 256]; 2]>::uninit();
    match (differing & 0xFF != 0, differing >> 8 != 0) {
        (true, true) => {
            // The first pass counts byte 3 for the second as it places each key (all in
            // `high[0]`: no slot reaches the split, the end).
            let high = zeroed(&mut high);
            slots_of(low);
            let end = keys.len() as u32;
            SharedKeys::of(scratch).scatter_counting(keys, low, high, end);
            scatter(scratch, keys, &mut high[0], 24);
            keys
        }
        (true, false) => {
            scatter(keys, scratch, low, 16);
            scratch
        }
        // Byte 2 all the same (rare: every depth the same modulo 256) says nothing of
        // byte 3's counts: counted as `radix_sort` counts.
        (false, true) => radix_sort_in(keys, scratch, zeroed(&mut high)),
        (false, false) => keys,
    }
}

/// `counts` zeroed in place (a zero array written as a value went through the stack, many
/// times over on the SH-2).
fn zeroed(counts: &mut MaybeUninit<[[u32; 256]; 2]>) -> &mut [[u32; 256]; 2] {
    // SAFETY: all zero is a valid array of numbers.
    unsafe {
        counts.as_mut_ptr().write_bytes(0, 1);
        counts.assume_init_mut()
    }
}

/// What the culling counts of the keys it writes (`render::cull`), so that the sort starts
/// at its first scatter: the keys of each value of byte 2, and which bits of depth (a
/// key's high 16 bits) they all share. Laid out for the culling's assembly (`cull.S`,
/// `cull_job.inc`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KeyCounts {
    /// Keys of each value of byte 2.
    pub(crate) low: [u32; 256],
    /// The OR over the keys of `depth << 16 | !depth & 0xFFFF`, `depth` a key's high 16
    /// bits: the OR of the depths in the high half, the complement of their AND in the low
    /// half (one OR a key for both).
    pub(crate) depth_bits: u32,
}

impl KeyCounts {
    /// No keys counted.
    pub(crate) const ZERO: Self = Self {
        low: [0; 256],
        depth_bits: 0,
    };

    /// Back to no keys counted, in place (a new `ZERO` is made on the stack and copied
    /// by the SH-2 code: twice the stores).
    pub(crate) fn clear(&mut self) {
        self.low.fill(0);
        self.depth_bits = 0;
    }

    /// Counts `key`.
    #[inline(always)]
    pub(crate) fn count(&mut self, key: SortKey) {
        self.low[(key >> 16 & 0xFF) as usize] += 1;
        self.depth_bits |= (key & 0xFFFF_0000) | (!key >> 16);
    }

    /// Counts `keys` (on an SH-2 by the assembly of [`count_low`]).
    #[cfg(any(test, feature = "selftest"))]
    pub(crate) fn count_all(&mut self, keys: &[SortKey]) {
        let [and, or] = count_low(keys, &mut self.low);
        self.depth_bits |= (or & 0xFFFF_0000) | (!and >> 16);
    }

    /// The bits of depth not all the keys of both share (all of them for no keys).
    pub(crate) fn differing_with(&self, other: &Self) -> u32 {
        let bits = self.depth_bits | other.depth_bits;
        (bits >> 16) ^ (!bits & 0xFFFF)
    }

    /// The values bytes 2 and 3 of the keys of both may take: from that byte of their AND
    /// to that byte of their OR (a byte of any key is within both), so that a pass's slots
    /// are worked out for those values only (none for no keys).
    pub(crate) fn byte_values_with(&self, other: &Self) -> [Range<usize>; 2] {
        let bits = self.depth_bits | other.depth_bits;
        let (and, or) = (!bits as usize & 0xFFFF, (bits >> 16) as usize);
        [(and & 0xFF)..(or & 0xFF) + 1, (and >> 8)..(or >> 8) + 1]
    }

    /// Counts the keys `other` counted too.
    pub(crate) fn add(&mut self, other: &Self) {
        for (here, there) in self.low.iter_mut().zip(&other.low) {
            *here += there;
        }
        self.depth_bits |= other.depth_bits;
    }
}

/// [`radix_sort`] with `worker` (the other CPU) doing half of each pass: each CPU counts
/// byte 2 of one half of the keys (and which bits they share), then scatters that half by byte 2 to where the joint
/// counts put it (the first half's keys of a byte before the second half's: the order of
/// one CPU's sort), then scatters one half of that order by byte 3 in turn.
/// The same order as `radix_sort` gives, in the same place but when only byte 3 varies
/// (then two passes, the order in `keys`). Three joins: the counts of byte 2, the first
/// pass (which also counts byte 3 for the second), the second.
/// Without a worker, or for fewer than [`MIN_SHARED_KEYS`], it is `radix_sort`. For the
/// tests: a frame sorts from the culling's counts ([`sort_counted`]).
#[cfg(any(test, feature = "selftest"))]
pub(crate) fn radix_sort_shared<'k>(
    keys: &'k mut [SortKey],
    scratch: &'k mut [SortKey],
    worker: Option<&mut (dyn Worker + '_)>,
) -> &'k [SortKey] {
    let count = keys.len();
    let half = count / 2;
    radix_sort_parts(keys, half, half..count, scratch, worker)
}

/// [`radix_sort_shared`] of `keys[..first]` followed by `keys[second]` (`first <=
/// second.start`: the two CPUs' culling, each where it wrote, no copy to bring them
/// together), each CPU counting one of the two parts and doing its first pass; the sorted
/// keys are in `keys` or `scratch` from their start.
#[cfg(any(test, feature = "selftest"))]
pub(crate) fn radix_sort_parts<'k>(
    keys: &'k mut [SortKey],
    first: usize,
    second: Range<usize>,
    scratch: &'k mut [SortKey],
    worker: Option<&mut (dyn Worker + '_)>,
) -> &'k [SortKey] {
    let count = first + second.len();
    let worker = match worker {
        Some(worker) if count >= MIN_SHARED_KEYS && scratch.len() >= count => worker,
        _ => {
            keys.copy_within(second, first);
            return radix_sort(&mut keys[..count], &mut scratch[..count]);
        }
    };
    let mut counts = [KeyCounts::ZERO; 2];
    {
        let parts = [&keys[..first], &keys[second.clone()]];
        let [here, there] = &mut counts;
        // Counted from zero at each run: the master runs the second CPU's share again
        // after a time-out, over counts it may have added to.
        worker.join(&mut || here.count_all(parts[0]), &mut || {
            there.clear();
            there.count_all(parts[1])
        });
    }
    let values = counts[0].byte_values_with(&counts[1]);
    let [here, there] = &counts;
    shared_passes(
        worker,
        keys,
        (first, second),
        scratch,
        ([&here.low, &there.low], None),
        values,
        &mut [const { MaybeUninit::uninit() }; 2],
    )
}

/// What the culling's second counts are of (see [`sort_counted`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SecondCounts {
    /// The keys of the second part alone.
    OfItsPart,
    /// Those and more, now in the first part: a frame's earlier draws' keys culled by the
    /// second CPU, moved after their draw's first part when the next draw began (their
    /// counts left where they were: adding 256 counts into the first's and zeroing them
    /// cost the master about 6,000 cycles a draw).
    WithMoved,
}

/// [`radix_sort_parts`] from the counts the culling made as it wrote the keys
/// (`counts[0]` of `keys[..first]`, `counts[1]` of `keys[second]` as `second_counts`
/// says): no counting pass, but for the second CPU's part when its counts hold more
/// (`WithMoved`: it counts that part again as the first CPU scatters). With `worker`, when
/// the two parts are far from halves (the other CPU's keys of the last draw only, or none),
/// the two parts are brought together and cut in halves: the keys between go from one
/// CPU's part to the other's, and the second CPU, whose slots of the first pass need its
/// own part's counts, counts them (the first CPU's slots need only the joint counts).
pub(crate) fn sort_counted<'k>(
    keys: &'k mut [SortKey],
    (first, second, second_counts): (usize, Range<usize>, SecondCounts),
    scratch: &'k mut [SortKey],
    (counts, counted): (&mut [KeyCounts; 2], &mut PassCounts),
    worker: Option<&mut (dyn Worker + '_)>,
) -> &'k [SortKey] {
    let count = first + second.len();
    let [here, there] = counts;
    let values = here.byte_values_with(there);
    let worker = match worker {
        Some(worker) if count >= MIN_SHARED_KEYS && scratch.len() >= count => worker,
        _ => {
            let differing = here.differing_with(there);
            keys.copy_within(second, first);
            here.add(there);
            let (keys, scratch) = (&mut keys[..count], &mut scratch[..count]);
            return radix_sort_counted(keys, scratch, &mut here.low, differing);
        }
    };
    // Parts near halves are scattered as they are; else the second CPU counts the keys
    // moved (or its part) and the first scatters a few more.
    let near_halves = first.abs_diff(count / 2) <= MAX_UNEVEN_KEYS;
    let cut = (count / 2 + MOVED_HEAD_START).min(count);
    let (parts, moved) = match (near_halves, second_counts) {
        (true, SecondCounts::OfItsPart) => ((first, second), None),
        _ => {
            keys.copy_within(second, first);
            let moved = match (second_counts, cut < first) {
                (SecondCounts::WithMoved, _) => (cut..count, Recount::Whole),
                (SecondCounts::OfItsPart, true) => (cut..first, Recount::Gained),
                (SecondCounts::OfItsPart, false) => (first..cut, Recount::Lost),
            };
            ((cut, cut..count), Some(moved))
        }
    };
    shared_passes(
        worker,
        keys,
        parts,
        scratch,
        ([&here.low, &there.low], moved),
        values,
        counted,
    )
}

/// How far from halves the two parts of [`sort_counted`] may be before the keys between
/// move from one CPU's part to the other's: a key scattered by the busier CPU while the
/// other waits costs the SH-2 about 38 cycles, one moved about 17 (the second CPU counts
/// it), a move's set-up about 2,000.
const MAX_UNEVEN_KEYS: usize = 128;

/// Keys more than half that the first CPU scatters when keys move between the parts: the
/// second counts the moved ones (or its whole part) first. Measured on the showcase
/// (Mednafen, its master's cull + depth + sort a frame, the second CPU counting its whole
/// part: the ground's keys of that CPU are moved into the first part when the character's
/// draw begins): 96 226,145, 160 223,046, 224 224,789.
const MOVED_HEAD_START: usize = 160;

/// Keys of one counted part that [`sort_counted`] gives the other CPU to scatter (their
/// place in the keys, brought together), or the second part counted again whole, and what
/// they are to the second part.
type Moved = (Range<usize>, Recount);

/// The passes of a shared sort of `keys[..parts.0]` followed by `keys[parts.1]`, whose
/// byte 2 is counted in `low.0` (of each part, before the keys `low.1` moved from one part
/// to the other; their sum, whatever moved) and whose bytes 2 and 3 are within `values`
/// ([`KeyCounts::byte_values_with`]: a byte takes more than one value when not all keys
/// share it): each CPU scatters its part by byte 2 to where the joint counts put it,
/// counting byte 3 when it varies for a second pass over the halves of that order.
fn shared_passes<'k>(
    worker: &mut (dyn Worker + '_),
    keys: &'k mut [SortKey],
    parts: (usize, Range<usize>),
    scratch: &'k mut [SortKey],
    low: ([&[u32; 256]; 2], Option<Moved>),
    [low_values, high_values]: [Range<usize>; 2],
    counted: &mut PassCounts,
) -> &'k [SortKey] {
    let (first, second) = parts;
    let count = first + second.len();
    let scratch = &mut scratch[..count];
    let ([here, there], moved) = low;
    let low_counts = [[here, &NONE], [there, &NONE]];
    // The keys the second CPU gained or lost since its part was counted, or its part.
    let moved = moved.map(|(range, recount)| (&keys[range], recount));
    // The second pass's halves: of the first pass's order.
    let half = count / 2;
    // A byte all keys share would not move them: its pass is left out (as `radix_sort`
    // does).
    match (low_values.len() > 1, high_values.len() > 1) {
        (_, true) => {
            // [CPU][half of the first pass's order][value]: byte 3's counts, as the first
            // pass puts each key in one half or the other (the second pass's halves). With
            // byte 2 all the same, the first pass keeps the order: it is there to count.
            // Each CPU zeroes its own (2 KiB) as it starts.
            let parts = [&keys[..first], &keys[second]];
            let counting = Some((&mut *counted, half as u32));
            let low_counts = (low_counts, moved, low_values);
            scatter_parts(worker, parts, scratch, low_counts, 16, counting);
            // SAFETY: each CPU's scatter zeroed its counts before counting into them.
            let [here, there] = &*counted;
            let [[here_first, here_second], [there_first, there_second]] =
                unsafe { [here.assume_init_ref(), there.assume_init_ref()] };
            let high_counts = [[here_first, there_first], [here_second, there_second]];
            let (into, halves) = (&mut keys[..count], scratch.split_at(half));
            let high_counts = (high_counts, None, high_values);
            scatter_parts(worker, halves.into(), into, high_counts, 24, None);
            &keys[..count]
        }
        (true, false) => {
            let parts = [&keys[..first], &keys[second]];
            let low_counts = (low_counts, moved, low_values);
            scatter_parts(worker, parts, scratch, low_counts, 16, None);
            scratch
        }
        (false, false) => {
            keys.copy_within(second, first);
            &keys[..count]
        }
    }
}

/// Counts of a byte's values over two halves of some keys (the first pass's count of byte
/// 3, by where each key went).
type ByteCounts = [[u32; 256]; 2];

/// Each CPU's [`ByteCounts`] of a shared sort's first pass: kept in the frame's tables
/// (`FrameMemory`), not on the stack (4 KiB). Each CPU zeroes its own before counting.
pub(crate) type PassCounts = [MaybeUninit<ByteCounts>; 2];

/// No keys of any value: the second part of a half's counts made of one part.
static NONE: [u32; 256] = [0; 256];

/// The frame's sort as the renderer does it ([`radix_sort_shared`]): for the SH-2 test
/// of the slave's share, which sees only the public API.
#[doc(hidden)]
#[cfg(any(test, feature = "selftest"))]
pub fn sort_keys<'k>(
    keys: &'k mut [SortKey],
    scratch: &'k mut [SortKey],
    worker: Option<&mut dyn Worker>,
) -> &'k [SortKey] {
    radix_sort_shared(keys, scratch, worker)
}

/// Keys the second CPU counts for its slots of a pass, and what they are to its part.
type RecountedKeys<'k> = (&'k [SortKey], Recount);

/// What keys the second CPU counts are to its part (see [`sort_counted`]).
#[derive(Clone, Copy, Debug)]
enum Recount {
    /// Moved to it from the first part after the parts were counted.
    Gained,
    /// Moved from it to the first part.
    Lost,
    /// The part itself: its counts held keys now in the first part.
    Whole,
}

/// The counts of a byte's values over each half of some keys, each the sum of two parts.
type HalfCounts<'c> = [[&'c [u32; 256]; 2]; 2];

/// One pass of [`radix_sort_shared`]: this CPU scatters `parts[0]` into `to` (as long as
/// both) by the byte at `shift`, the worker `parts[1]`. `counts.0` are the counts of that
/// byte over each part: a value's keys of the first part go before those of the second,
/// so the order is the one pass of one CPU gives. With `counts.1`, the second CPU counts
/// some keys ([`RecountedKeys`]) and works its slots out from its own part's counts; the
/// slots are worked out for the byte's values `counts.2` only (those the keys take). With
/// `counting` (a pass by byte 2, and a place in `to`), each CPU also counts byte 3 of its
/// keys into `counting[CPU][h]`, `h` 1 for those that went at or after that place.
fn scatter_parts(
    worker: &mut (dyn Worker + '_),
    parts: [&[SortKey]; 2],
    to: &mut [SortKey],
    counts: (HalfCounts<'_>, Option<RecountedKeys<'_>>, Range<usize>),
    shift: u32,
    counting: Option<(&mut [MaybeUninit<ByteCounts>; 2], u32)>,
) {
    let [first, second] = parts;
    let (counts, moved, values) = counts;
    let to = SharedKeys::of(to);
    let to = &to;
    // Each CPU's slots made where it scatters from them (on the SH-2 an array returned by
    // value is copied through the stack, 1 KiB a copy).
    let scatter = |half: usize, from: &[SortKey], counting: Option<(&mut _, u32)>| {
        let mut slots = [0; 256];
        match moved.filter(|_| half == 1) {
            Some(recounted) => moved_slots(counts, recounted, &mut slots, values.clone()),
            None => shared_slots(counts, half, &mut slots, values.clone()),
        }
        match counting {
            Some((counted, split)) => {
                let counted: &mut MaybeUninit<ByteCounts> = counted;
                // SAFETY: all zero is a `ByteCounts` (counts of no keys).
                let counted = unsafe {
                    counted.as_mut_ptr().write_bytes(0, 1);
                    counted.assume_init_mut()
                };
                to.scatter_counting(from, &mut slots, counted, split)
            }
            None => to.scatter(from, &mut slots, shift),
        }
    };
    match counting {
        Some(([here, there], split)) => worker.join(
            &mut || scatter(0, first, Some((&mut *here, split))),
            &mut || scatter(1, second, Some((&mut *there, split))),
        ),
        None => worker.join(&mut || scatter(0, first, None), &mut || {
            scatter(1, second, None)
        }),
    }
}

/// Writes to `slots` where the keys of each byte value of `values` (those the keys take)
/// of half `half` (0 or 1) of the keys go (byte offsets, see [`slots_of`]): after every key
/// of a lower value, and for the second half after the first half's keys of the same
/// value.
fn shared_slots(counts: HalfCounts<'_>, half: usize, slots: &mut [u32; 256], values: Range<usize>) {
    let [[a, b], [c, d]] = counts;
    // All of the first half's keys of a value before the second half's, or none.
    let after_first = match half {
        0 => 0,
        _ => u32::MAX,
    };
    let mut next = 0;
    // (A byte's values: no bounds checks in the loop.)
    for value in values.start..values.end.min(256) {
        let first = a[value] + b[value];
        slots[value] = KEY_BYTES * (next + (first & after_first));
        next += first + c[value] + d[value];
    }
}

/// [`shared_slots`] of the second half from `recounted` keys (byte 2 of each): the slots
/// from the second half's own counts, each value's keys of it placed last among that
/// value's. Written out for the second CPU, which does it beside the first's scatter.
fn moved_slots(
    counts: HalfCounts<'_>,
    (moved, recount): RecountedKeys<'_>,
    slots: &mut [u32; 256],
    values: Range<usize>,
) {
    let [[a, b], [c, d]] = counts;
    // The moved keys' counts, then the half's own: c + d plus or minus them, or them.
    let mut moved_counts = [0; 256];
    count_low(moved, &mut moved_counts);
    let mut end = 0;
    for value in values.start..values.end.min(256) {
        let counted = c[value] + d[value];
        let own = match recount {
            Recount::Gained => counted + moved_counts[value],
            Recount::Lost => counted - moved_counts[value],
            Recount::Whole => moved_counts[value],
        };
        end += a[value] + b[value] + counted;
        slots[value] = KEY_BYTES * (end - own);
    }
}

/// Keys two CPUs write at once, each at slots of its own (a pass of [`radix_sort_shared`]):
/// written through a pointer, since neither holds the whole slice.
pub(crate) struct SharedKeys<'k> {
    start: *mut SortKey,
    /// (The Rust loops check each slot against it; the assembly relies on the slots.)
    len: usize,
    _keys: PhantomData<&'k mut [SortKey]>,
}

// SAFETY: the CPUs write through it at distinct slots only (`scatter`'s slots are the
// distinct ranges `shared_slots` gives each half) and nothing reads it meanwhile.
unsafe impl Sync for SharedKeys<'_> {}

impl<'k> SharedKeys<'k> {
    pub(crate) fn of(keys: &'k mut [SortKey]) -> Self {
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
        self.scatter_reference(from, slots, shift, None);
    }

    /// [`scatter`](Self::scatter) by byte 2, adding 1 to `counts[h][byte 3]` of each key,
    /// `h` 1 when it went at or after key `split`; on an SH-2 by its assembly (`sort.S`).
    fn scatter_counting(
        &self,
        from: &[SortKey],
        slots: &mut [u32; 256],
        counts: &mut [[u32; 256]; 2],
        split: u32,
    ) {
        #[cfg(jom_asm)]
        // SAFETY: as in `scatter`.
        unsafe {
            sh2::scatter_counting_shared(from, self.start, slots, counts, split)
        };
        #[cfg(not(jom_asm))]
        self.scatter_reference(from, slots, 16, Some((counts, split)));
    }

    /// The Rust version of [`scatter`](Self::scatter) and, with `counting`, of
    /// [`scatter_counting`](Self::scatter_counting).
    #[cfg_attr(all(jom_asm, not(feature = "selftest")), allow(dead_code))]
    pub(crate) fn scatter_reference(
        &self,
        from: &[SortKey],
        slots: &mut [u32; 256],
        shift: u32,
        mut counting: Option<(&mut [[u32; 256]; 2], u32)>,
    ) {
        for &key in from {
            let slot = &mut slots[(key >> shift & 0xFF) as usize];
            let at = (*slot / KEY_BYTES) as usize;
            if at < self.len {
                // SAFETY: within the keys, at a slot of this half only (see above).
                unsafe { self.start.add(at).write(key) };
            }
            if let Some((counts, split)) = counting.as_mut() {
                counts[usize::from(at >= *split as usize)][(key >> 24) as usize] += 1;
            }
            *slot += KEY_BYTES;
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

/// Counts byte 2 of the keys; gives the AND and the OR of the keys (which bits they all
/// share): on an SH-2 by its assembly (`sort.S`).
pub(crate) fn count_low(keys: &[SortKey], counts: &mut [u32; 256]) -> [u32; 2] {
    #[cfg(jom_asm)]
    return sh2::count_low(keys, counts);
    #[cfg(not(jom_asm))]
    count_low_reference(keys, counts)
}

/// The Rust version of [`count_low`].
#[cfg_attr(all(jom_asm, not(feature = "selftest")), allow(dead_code))]
pub(crate) fn count_low_reference(keys: &[SortKey], counts: &mut [u32; 256]) -> [u32; 2] {
    let mut and_or = [!0, 0];
    for &key in keys {
        counts[(key >> 16 & 0xFF) as usize] += 1;
        and_or = [and_or[0] & key, and_or[1] | key];
    }
    and_or
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
    slots_of(counts);
    #[cfg(jom_asm)]
    sh2::scatter(from, to, counts, shift);
    #[cfg(not(jom_asm))]
    scatter_reference(from, to, counts, shift);
}

/// Counts made their prefix sums, in bytes: where the keys of each value go, as byte
/// offsets (the SH-2 stores a key at an offset without working it out from an index).
fn slots_of(counts: &mut [u32; 256]) {
    let mut next = 0;
    for count in counts.iter_mut() {
        let here = *count;
        *count = next;
        next += KEY_BYTES * here;
    }
}

/// The bytes of a sort key: what a slot moves on by.
const KEY_BYTES: u32 = core::mem::size_of::<SortKey>() as u32;

/// The Rust version of the loop of [`scatter`], from the slots (the counts' prefix sums,
/// in bytes: [`slots_of`]).
#[cfg_attr(all(jom_asm, not(feature = "selftest")), allow(dead_code))]
pub(crate) fn scatter_reference(
    from: &[SortKey],
    to: &mut [SortKey],
    slots: &mut [u32; 256],
    shift: u32,
) {
    for &key in from {
        let slot = &mut slots[(key >> shift & 0xFF) as usize];
        to[(*slot / KEY_BYTES) as usize] = key;
        *slot += KEY_BYTES;
    }
}
