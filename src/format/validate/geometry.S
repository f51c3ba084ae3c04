/* The geometry's checks of validation on a Saturn, in SH-2 assembly: every polygon's corners
 * index a point and its normal is of unit length (one pass over QUAD), every NTAB normal
 * too, the square of the distance of the farthest point from the origin, and every u16
 * index of a chunk (QMAT, CNRM) below a limit. Each vector's square length is three
 * multiply-accumulates (mac.l) of the vector with itself, read through two pointers. The
 * loops say only whether (or up to where) the records pass: the Rust checks
 * (format/validate/mod.rs) are the reference and give the error when one fails;
 * `asm_tests` compares the two on the emulated Saturns (the routines but the last write
 * SR.S, which qemu's user mode forbids).
 *
 * uint32_t jom_check_quads(const Polygon *polygons, uint32_t count, uint32_t points);
 * uint32_t jom_check_normals(const Vector *normals, uint32_t count);
 *   The number of records from the first that pass (`count` when all do): a polygon's
 *   corners are below `points` (at most 0xFFFF) and its normal, like an NTAB normal, has a
 *   square length within [UNIT_SHORTEST_SQUARED, UNIT_SHORTEST_SQUARED + UNIT_SQUARED_SPAN].
 * void jom_farthest(const Vector *points, uint32_t count, uint64_t *squared);
 *   *squared = the largest x^2 + y^2 + z^2 of the points (0 for none), raw Q32.32.
 * uint32_t jom_indexes_below(const uint16_t *indexes, uint32_t count, uint32_t limit);
 *   1 when every index is below `limit` (at most 0xFFFF), else 0; `indexes` on a 4-byte
 *   boundary.
 * The layouts are in rt/layout.inc. r8-r14, MACH, MACL and SR are kept. */
#include "abi.inc"
#include "layout.inc"

/* (1 - 1/64)^2 and (1 + 1/64)^2 - (1 - 1/64)^2 in raw Q32.32 (NORMAL_TOLERANCE in
 * validate/mod.rs; sh2.rs asserts both): SHORTEST is below 2^32 and the span 2^28, so
 * that a square length minus SHORTEST passes when its high word is 0 and its low word at
 * most the span. */
    .equ    UNIT_SHORTEST_SQUARED, 0xF8100000
    .equ    UNIT_SQUARED_SPAN, 0x10000000

    .if     POLYGON_NORMAL <> 0 || POLYGON_CORNERS <> VECTOR_SIZEOF || POLYGON_SIZEOF <> POLYGON_CORNERS + 4 * 2 || POLYGON_C <> POLYGON_A + 4
    .error  "geometry.S reads a polygon as its normal, then its 4 corners as 2 words, then the next one"
    .endif

/* Saves r8-r10, MACH, MACL and SR (into r2), clears SR.S (mac.l then sums all 64 bits)
 * and sets MAC's preload (r8:r9 = -UNIT_SHORTEST_SQUARED) and the span (r10). */
    .macro  unit_prologue
    mov.l   r8, @-r15
    mov.l   r9, @-r15
    mov.l   r10, @-r15
    sts.l   mach, @-r15
    sts.l   macl, @-r15
    stc     sr, r2
    mov     #-3, r1             /* all but S (bit 1) */
    and     r2, r1
    ldc     r1, sr
    mov     #-1, r8
    mov.l   .Lminus_shortest, r9
    mov.l   .Lspan, r10
    .endm

/* MAC = -SHORTEST + the square length of the vector at \a (also at \b); both move on by
 * 12 bytes. */
    .macro  square_length_past_shortest a, b
    lds     r8, mach
    lds     r9, macl
    mac.l   @\a+, @\b+
    mac.l   @\a+, @\b+
    mac.l   @\a+, @\b+
    .endm

/* To \fail unless MAC (a square length minus SHORTEST) is within [0, span] (clobbers r1). */
    .macro  unless_unit fail
    sts     mach, r1
    tst     r1, r1
    bf      \fail
    sts     macl, r1
    cmp/hi  r10, r1
    bt      \fail
    .endm

/* To \fail unless the polygon at r4 (also r5) has its corners below the limit (r6 = limit
 * << 16) and a unit normal; r4 and r5 move on to the next. The corners are read as two
 * words of two, AB and CD: AB is below limit << 16 when A is below the limit, and shifted
 * left by 16 when B is. The words are loaded between the mac.l (the multiplier works
 * meanwhile), at offsets from r4, which each mac.l moves on by 4, and tested an instruction
 * later or more (a load used at once stalls). */
    .macro  quad fail
    lds     r8, mach            /* MAC = -SHORTEST */
    lds     r9, macl
    mac.l   @r4+, @r5+
    mov.l   @(POLYGON_A - 4,r4), r0
    mac.l   @r4+, @r5+
    cmp/hs  r6, r0
    bt      \fail
    mov.l   @(POLYGON_C - 8,r4), r1
    shll16  r0
    mac.l   @r4+, @r5+
    cmp/hs  r6, r0
    bt      \fail
    cmp/hs  r6, r1
    bt      \fail
    shll16  r1
    add     #POLYGON_SIZEOF - VECTOR_SIZEOF, r4     /* the next polygon */
    cmp/hs  r6, r1
    bt      \fail
    add     #POLYGON_SIZEOF - VECTOR_SIZEOF, r5
    unless_unit \fail
    .endm


/* The farthest point so far is kept complemented (r8:r9 = ~farthest): a square length v
 * plus it carries out of 64 bits exactly when v > farthest, so one addc chain compares
 * (T = 0 on entry, and after it when v is not farther). The vector at r4 (also r7), both
 * moving on by 12; MAC cleared before. To \farther (which goes on at \back) when it is
 * farther. */
    .macro  point farther, back
    mac.l   @r4+, @r7+
    mac.l   @r4+, @r7+
    mac.l   @r4+, @r7+
    sts     macl, r1
    sts     mach, r0
    addc    r9, r1
    addc    r8, r0              /* T = this one is farther */
    bt      \farther
\back:
    .endm

/* The farthest so far = MAC, and on at \back with T = 0. */
    .macro  farther back
    sts     mach, r8
    not     r8, r8
    sts     macl, r9
    not     r9, r9
    bra     \back
    clrt                        /* delay slot */
    .endm

    .text
    .align  2
    .global _jom_check_quads
_jom_check_quads:
    unit_prologue
    mov     r5, r3              /* r3 = count, r7 = polygons left */
    mov     r5, r7
    tst     r7, r7
    bt      .Lunit_done
    mov     r4, r5              /* r4 and r5: the normal, both moving on by mac.l */
    shll16  r6                  /* r6 = points << 16 */
    mov     #1, r0
    tst     r0, r7              /* an odd one first, then two a loop */
    bt      .Lquad_pair
    quad    .Lunit_done
    dt      r7
    bt      .Lunit_done
.Lquad_pair:
    quad    .Lunit_done
    dt      r7
    quad    .Lunit_done
    dt      r7
    bf      .Lquad_pair
/* r0 = those that passed, and back. */
.Lunit_done:
    mov     r3, r0
    sub     r7, r0
    ldc     r2, sr
    lds.l   @r15+, macl
    lds.l   @r15+, mach
    mov.l   @r15+, r10
    mov.l   @r15+, r9
    rts
    mov.l   @r15+, r8           /* delay slot */

    .global _jom_check_normals
_jom_check_normals:
    unit_prologue
    mov     r5, r3              /* r3 = count, r7 = normals left */
    mov     r5, r7
    tst     r7, r7
    bt      .Lunit_done
    mov     r4, r5              /* r4 and r5 move on together */
.Lnormal:
    square_length_past_shortest r4, r5
    unless_unit .Lunit_done
    dt      r7
    bf      .Lnormal
    bra     .Lunit_done
    nop

    .global _jom_farthest
_jom_farthest:
    mov.l   r8, @-r15
    mov.l   r9, @-r15
    sts.l   mach, @-r15
    sts.l   macl, @-r15
    stc     sr, r2
    mov     #-3, r1             /* all but S (bit 1) */
    and     r2, r1
    ldc     r1, sr
    mov     #-1, r8             /* ~0 */
    mov     #-1, r9
    mov     r4, r7              /* r4 and r7 move on together */
    clrmac
    shlr    r5                  /* r5 = pairs, T = an odd one first */
    bf      .Lpoint_pairs
    clrt
    point   .Lfarther_odd, .Lodd_back
    clrmac
.Lpoint_pairs:
    tst     r5, r5              /* T = 0 when there are pairs */
    bt      .Lfarthest_done
.Lpoint_pair:
    point   .Lfarther_first, .Lfirst_back
    clrmac
    point   .Lfarther_second, .Lsecond_back
    dt      r5                  /* T = 0 when the loop goes on */
    bf/s    .Lpoint_pair
    clrmac                      /* delay slot */
.Lfarthest_done:
    not     r8, r8
    not     r9, r9
    mov.l   r8, @r6
    mov.l   r9, @(4,r6)
    ldc     r2, sr
    lds.l   @r15+, macl
    lds.l   @r15+, mach
    mov.l   @r15+, r9
    rts
    mov.l   @r15+, r8           /* delay slot */
.Lfarther_odd:
    farther .Lodd_back
.Lfarther_first:
    farther .Lfirst_back
.Lfarther_second:
    farther .Lsecond_back

/* Every u16 index below a limit, read as words of two: a word is below limit << 16 when its
 * first index is below the limit, and shifted left by 16 when its second is. Four at a
 * time, then a pair, then the odd one. */
    .global _jom_indexes_below
_jom_indexes_below:
    shll16  r6                  /* r6 = limit << 16 */
    mov     r5, r7              /* r7 = groups of four */
    shlr2   r7
    tst     r7, r7
    bt      .Lindex_rest
.Lindex_four:
    mov.l   @r4+, r0
    mov.l   @r4+, r1
    cmp/hs  r6, r0
    bt      .Lindex_beyond
    shll16  r0
    cmp/hs  r6, r0
    bt      .Lindex_beyond
    cmp/hs  r6, r1
    bt      .Lindex_beyond
    shll16  r1
    cmp/hs  r6, r1
    bt      .Lindex_beyond
    dt      r7
    bf      .Lindex_four
.Lindex_rest:
    mov     #3, r7
    and     r5, r7              /* r7 = 0 to 3 left */
    tst     r7, r7
    bt      .Lindexes_below
.Lindex_one:
    mov.w   @r4+, r0
    shll16  r0
    cmp/hs  r6, r0
    bt      .Lindex_beyond
    dt      r7
    bf      .Lindex_one
.Lindexes_below:
    rts
    mov     #1, r0              /* delay slot */
.Lindex_beyond:
    rts
    mov     #0, r0              /* delay slot */

    .align  2
.Lminus_shortest:
    .long   -UNIT_SHORTEST_SQUARED & 0xFFFFFFFF
.Lspan:
    .long   UNIT_SQUARED_SPAN

