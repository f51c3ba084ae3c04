/* The radix sort of the sort keys on an SH-2, in assembly: the counting pass and one
 * scatter pass, in loops with nothing else in them. The Rust loops (`count_bytes_reference`,
 * `scatter_reference`, render/sort/mod.rs) are the reference: `asm_tests` compares them in
 * every SH-2 build.
 *
 * void jom_count_bytes(const uint32_t *keys, uint32_t count, uint32_t counts[2][256]);
 *   adds 1 to counts[0][byte 2 of the key] and counts[1][byte 3] for each key (count > 0).
 * void jom_scatter(const uint32_t *from, uint32_t count, uint32_t *to,
 *                  uint32_t slots[256], uint32_t shift_is_24);
 *   the key stored at `to` + slots[b] and slots[b] += 4 for each key of `from` in order, b
 *   its byte 2 (shift_is_24 = 0) or 3 (1): the slots are byte offsets, from the prefix sums
 *   of the counts times 4 (count > 0).
 * void jom_count_low(const uint32_t *keys, uint32_t count, uint32_t counts[256],
 *                    uint32_t and_or[2]);
 *   adds 1 to counts[byte 2 of the key] for each key, and_or = the AND and the OR of
 *   the keys (which bytes they all share): the first count of a shared sort (count > 0).
 * void jom_scatter_counting(const uint32_t *from, uint32_t count, uint32_t *to,
 *                           uint32_t slots[256], uint32_t counts[2][256], uint32_t split);
 *   jom_scatter by byte 2, and adds 1 to counts[slot >= split][byte 3] for each key, slot
 *   (bytes, as split) where it went: the second pass's counts of each half of the first
 *   pass's order, when the two CPUs share the sort (count > 0).
 * The keys (SortKey, a word) are laid out in rt/layout.inc. */
#include "layout.inc"

    .if     SORT_KEY_SIZEOF <> 4
    .error  "sort.S reads and writes a SortKey as a word"
    .endif
/* counts[1]: after the 256 words of counts[0] */
    .equ    HIGH_COUNTS, 256 * 4

/* (The loops' order: loads and stores at addresses 4-aligned where they can be, since
 * Mednafen charges one a cycle more when the next instruction's fetch is 4-aligned, and a
 * loaded register not used by the next instruction; `dt` early, as nothing after it in
 * the loops changes T.) */
    .text
    .align  2
    .global _jom_count_bytes
_jom_count_bytes:
    mov.w   .Lhigh_counts, r3
    add     r6, r3              /* r3 = counts[1] */
    .align  2
.Lcount:
    mov.l   @r4+, r0
    dt      r5
    shlr16  r0
    extu.b  r0, r1              /* byte 2 */
    shlr8   r0                  /* byte 3 */
    shll2   r0
    add     r3, r0
    shll2   r1
    mov.l   @r0, r7
    add     r6, r1
    mov.l   @r1, r2
    add     #1, r7
    mov.l   r7, @r0
    add     #1, r2
    bf/s    .Lcount
    mov.l   r2, @r1             /* delay slot */
    rts
    nop

    .align  2
    .global _jom_scatter
_jom_scatter:
    mov.l   @r15, r0            /* the fifth argument: shift by 24 rather than 16 */
    tst     r0, r0
    bf      .Lscatter_high
    .align  2
.Lscatter_low:
    mov.l   @r4+, r1
    dt      r5
    swap.w  r1, r3
    extu.b  r3, r3              /* byte 2 */
    shll2   r3
    add     r7, r3              /* r3 = its slot */
    mov.l   @r3, r0             /* r0 = where the key goes, from `to` */
    nop                         /* (r0 not used at once; the store 4-aligned) */
    mov.l   r1, @(r0,r6)
    add     #SORT_KEY_SIZEOF, r0
    bf/s    .Lscatter_low
    mov.l   r0, @r3             /* delay slot: the slot moves on */
    rts
    nop
    .align  2
.Lscatter_high:
    mov.l   @r4+, r1
    dt      r5
    swap.w  r1, r3
    shlr8   r3
    extu.b  r3, r3              /* byte 3 */
    shll2   r3
    add     r7, r3
    nop                         /* (the loads and the store 4-aligned) */
    mov.l   @r3, r0
    nop
    mov.l   r1, @(r0,r6)
    add     #SORT_KEY_SIZEOF, r0
    bf/s    .Lscatter_high
    mov.l   r0, @r3             /* delay slot */
    rts
    nop

    .align  2
    .global _jom_count_low
_jom_count_low:
    mov     #-1, r1             /* the AND of the keys */
    mov     #0, r2              /* the OR */
.Lcount_low:                    /* (4-aligned: the entry is) */
    mov.l   @r4+, r3
    dt      r5
    and     r3, r1
    or      r3, r2
    swap.w  r3, r0
    extu.b  r0, r0              /* byte 2 */
    shll2   r0
    mov.l   @(r0, r6), r3
    add     #1, r3
    bf/s    .Lcount_low
    mov.l   r3, @(r0, r6)       /* delay slot */
    mov.l   r1, @r7
    rts
    mov.l   r2, @(4, r7)        /* delay slot */

    .align  2
    .global _jom_scatter_counting
_jom_scatter_counting:
    mov.l   r8, @-r15
    mov.l   r9, @-r15
    mov.l   @(8, r15), r9       /* the fifth argument: counts[2][256] */
    mov.l   @(12, r15), r8      /* the sixth: split */
    .align  2
.Lscatter_counting:
    mov.l   @r4+, r1            /* the key */
    swap.w  r1, r3
    extu.b  r3, r3              /* byte 2 */
    shll2   r3
    add     r7, r3              /* r3 = its slot */
    mov     r1, r2
    mov.l   @r3, r0             /* r0 = where the key goes, from `to` */
    shlr16  r2
    mov.l   r1, @(r0,r6)
    cmp/hs  r8, r0              /* T: the key goes to the second half */
    add     #SORT_KEY_SIZEOF, r0
    shlr8   r2                  /* byte 3 */
    mov.l   r0, @r3             /* the slot moves on */
    movt    r0
    shll8   r0
    shll2   r0                  /* 0, or 1,024: counts[1] */
    shll2   r2                  /* byte 3, as an offset */
    add     r2, r0
    mov.l   @(r0, r9), r2
    dt      r5                  /* (T for the branch: nothing after changes it) */
    add     #1, r2
    bf/s    .Lscatter_counting
    mov.l   r2, @(r0, r9)       /* delay slot */
    mov.l   @r15+, r9
    rts
    mov.l   @r15+, r8           /* delay slot */

.Lhigh_counts: .word HIGH_COUNTS
