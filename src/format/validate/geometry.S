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
 * The common case, a model of at most 0x8000 points, goes through the loops without
 * branches (`jom_quads_pass`, `jom_indexes_below`): each record's tests are OR-ed into a
 * few registers, looked at once at the end. u16 indexes are read two to a word; with a
 * limit L of at most 0x8000, an index c is below it exactly when bit 15 of c and of
 * c + (0x8000 - L) are both clear (c < 0x8000 keeps the sum within its 16 bits, so both
 * halves of a word are tested by one 32-bit addition).
 *
 * uint32_t jom_quads_pass(const Polygon *polygons, uint32_t count, uint32_t points);
 *   1 when every polygon's corners are below `points` (at most 0x8000) and its normal's
 *   square length is within [UNIT_SHORTEST_SQUARED, UNIT_SHORTEST_SQUARED +
 *   UNIT_SQUARED_SPAN) (the tolerance but its last value, which the Rust check accepts);
 *   else 0.
 * uint32_t jom_check_quads(const Polygon *polygons, uint32_t count, uint32_t points);
 * uint32_t jom_check_normals(const Vector *normals, uint32_t count);
 *   The number of records from the first that pass (`count` when all do): a polygon's
 *   corners are below `points` (at most 0xFFFF) and its normal, like an NTAB normal, has a
 *   square length within [UNIT_SHORTEST_SQUARED, UNIT_SHORTEST_SQUARED + UNIT_SQUARED_SPAN].
 * void jom_farthest(const Vector *points, uint32_t count, uint64_t *squared);
 *   *squared = the largest x^2 + y^2 + z^2 of the points (0 for none), raw Q32.32.
 * uint32_t jom_indexes_below(const uint16_t *indexes, uint32_t count, uint32_t limit);
 *   1 when every index is below `limit` (at most 0x8000), else 0; `indexes` on a 4-byte
 *   boundary.
 * The layouts are in rt/layout.inc. r8-r14, MACH, MACL and SR are kept. Loads are placed
 * at 4-aligned addresses where the loops allow (Mednafen charges a load one cycle more when
 * the next instruction's fetch is 4-aligned). */
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
    full_multiply_accumulate r2
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

/* The fast pass over QUAD: a polygon in 19 instructions, its loads first at 4-aligned
 * addresses (`fast_quad` starts at one), no branch. r10 gathers the corner words and the
 * words plus the bias (r12; bits 15 and 31 say a corner is not below the limit), r11 and
 * r13 the high and low words of each normal's square length minus SHORTEST (MAC preloaded
 * with r8:r9), which pass when r11 ends 0 and r13 below the span. r4 and r7 on the
 * polygon's normal, both moved on to the next. */
    .macro  fast_quad
    mov.l   @(POLYGON_A,r4), r0
    lds     r8, mach
    mov.l   @(POLYGON_C,r4), r1
    lds     r9, macl
    mac.l   @r4+, @r7+
    or      r0, r10
    mac.l   @r4+, @r7+
    add     r12, r0
    mac.l   @r4+, @r7+
    or      r1, r10
    add     r12, r1
    or      r0, r10
    or      r1, r10
    add     #POLYGON_SIZEOF - VECTOR_SIZEOF, r4
    add     #POLYGON_SIZEOF - VECTOR_SIZEOF, r7
    sts     mach, r0
    or      r0, r11
    sts     macl, r0
    or      r0, r13
    .endm

/* r\to = the bias (0x8000 - r\limit) in both halves of a word (clobbers r0). */
    .macro  lanes_bias limit, to
    mov.l   .Lhalf, r0
    sub     \limit, r0
    mov     r0, \to
    shll16  \to
    or      r0, \to
    .endm

    .global _jom_quads_pass
_jom_quads_pass:
    mov.l   r8, @-r15
    mov.l   r9, @-r15
    mov.l   r10, @-r15
    mov.l   r11, @-r15
    mov.l   r12, @-r15
    mov.l   r13, @-r15
    sts.l   mach, @-r15
    sts.l   macl, @-r15
    full_multiply_accumulate r2
    mov     #-1, r8             /* MAC's preload: -SHORTEST */
    mov.l   .Lminus_shortest, r9
    lanes_bias r6, r12
    mov     #0, r10
    mov     #0, r11
    mov     #0, r13
    mov     r4, r7              /* r4 and r7 move on together */
    shlr    r5                  /* r5 = pairs, T = an odd one first */
    bf      .Lfast_pairs
    fast_quad
.Lfast_pairs:
    tst     r5, r5
    bt      .Lfast_done
    .align  2
.Lfast_pair:
    fast_quad
    dt      r5                  /* (keeps the second polygon's loads 4-aligned) */
    fast_quad
    bf      .Lfast_pair
.Lfast_done:
    mov.l   .Lguard, r1
    mov     #0, r0
    tst     r1, r10             /* every corner below the limit */
    bf      .Lfast_return
    tst     r11, r11            /* every high word 0 */
    bf      .Lfast_return
    mov.l   .Lspan, r1
    cmp/hs  r1, r13             /* every low word below the span */
    movt    r0
    xor     #1, r0
.Lfast_return:
    ldc     r2, sr
    lds.l   @r15+, macl
    lds.l   @r15+, mach
    mov.l   @r15+, r13
    mov.l   @r15+, r12
    mov.l   @r15+, r11
    mov.l   @r15+, r10
    mov.l   @r15+, r9
    rts
    mov.l   @r15+, r8           /* delay slot */

/* The farthest point so far is kept complemented (r8:r9 = ~farthest): a square length v
 * plus it carries out of 64 bits exactly when v > farthest, so one addc chain compares
 * (T = 0 before it). A point's comparison is made while the next one is multiplied (its
 * mac.l 4-aligned, the comparison between them), so a point is 8 instructions: \first
 * point's block (r4 and r7 on it) reads MAC into r1 (low) and r0 (high) and clears it,
 * the next block compares them; to \farther (which goes on at \back) when farther. */
    .macro  farthest_block farther, back
    mac.l   @r4+, @r7+
    addc    r9, r1              /* the point before, past ~farthest */
    mac.l   @r4+, @r7+
    addc    r8, r0              /* T = the point before is farther */
    mac.l   @r4+, @r7+
    bt      \farther
\back:
    sts     macl, r1
    sts     mach, r0
    .endm

/* The point before is the farthest so far: r1:r0 (its square length plus the old
 * ~farthest) less that gives its square length, whose complement is the new one; on at
 * \back with T = 0. */
    .macro  farther back
    clrt
    subc    r9, r1
    subc    r8, r0
    not     r1, r9
    not     r0, r8
    bra     \back
    clrt                        /* delay slot */
    .endm

    .global _jom_farthest
_jom_farthest:
    mov.l   r8, @-r15
    mov.l   r9, @-r15
    sts.l   mach, @-r15
    sts.l   macl, @-r15
    full_multiply_accumulate r2
    mov     #-1, r8             /* ~0 */
    mov     #-1, r9
    mov     #0, r0              /* a point "before" the first of square length 0 */
    mov     #0, r1
    mov     r4, r7              /* r4 and r7 move on together */
    clrmac
    mov     #3, r3
    and     r5, r3              /* r3 = 0 to 3 first, one at a time */
    shlr2   r5                  /* r5 = groups of four */
    tst     r3, r3
    bt      .Lpoint_fours
.Lpoint_one:
    farthest_block .Lfarther_one, .Lone_back
    dt      r3
    bf/s    .Lpoint_one
    clrmac                      /* delay slot */
.Lpoint_fours:
    tst     r5, r5              /* T = 0 when there are fours */
    bt      .Lpoint_last
    .align  2
.Lpoint_four:
    farthest_block .Lfarther_a, .La_back
    clrmac
    farthest_block .Lfarther_b, .Lb_back
    clrmac
    farthest_block .Lfarther_c, .Lc_back
    clrmac
    farthest_block .Lfarther_d, .Ld_back
    dt      r5                  /* T = 0 when the loop goes on */
    bf/s    .Lpoint_four
    clrmac                      /* delay slot */
.Lpoint_last:
    clrt
    addc    r9, r1              /* the last point */
    addc    r8, r0
    bt      .Lfarther_last
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
.Lfarther_one:
    farther .Lone_back
.Lfarther_a:
    farther .La_back
.Lfarther_b:
    farther .Lb_back
.Lfarther_c:
    farther .Lc_back
.Lfarther_d:
    farther .Ld_back
.Lfarther_last:
    farther .Lfarthest_done

/* Every u16 index below a limit (at most 0x8000), read as words of two, OR-ed with the
 * words plus the bias into r1 (see the top): eight at a time, then pairs, then the odd
 * one. */
    .global _jom_indexes_below
_jom_indexes_below:
    lanes_bias r6, r3
    mov     #0, r1
    mov     r5, r7              /* r7 = groups of eight */
    shlr2   r7
    shlr    r7
    tst     r7, r7
    bt      .Lindex_pairs
    .align  2
.Lindex_eight:
    mov.l   @r4+, r0
    mov.l   @r4+, r2
    or      r0, r1
    add     r3, r0
    or      r2, r1
    add     r3, r2
    or      r0, r1
    mov.l   @r4+, r0
    or      r2, r1
    mov.l   @r4+, r2
    or      r0, r1
    add     r3, r0
    or      r2, r1
    add     r3, r2
    or      r0, r1
    dt      r7
    bf/s    .Lindex_eight
    or      r2, r1              /* delay slot */
.Lindex_pairs:
    mov     #7, r7
    and     r5, r7
    shlr    r7                  /* r7 = 0 to 3 pairs, T = an odd one last */
    movt    r6
    tst     r7, r7
    bt      .Lindex_odd
.Lindex_pair:
    mov.l   @r4+, r0
    dt      r7
    or      r0, r1
    add     r3, r0
    bf/s    .Lindex_pair
    or      r0, r1              /* delay slot */
.Lindex_odd:
    tst     r6, r6
    bt      .Lindexes_tested
    mov.w   @r4, r0
    extu.w  r0, r0              /* in the low half; the high half of 0 plus the bias stays clear */
    or      r0, r1
    add     r3, r0
    or      r0, r1
.Lindexes_tested:
    mov.l   .Lguard, r2
    tst     r2, r1              /* T = no bit 15 or 31: every index below */
    rts
    movt    r0                  /* delay slot */

    .align  2
.Lminus_shortest:
    .long   -UNIT_SHORTEST_SQUARED & 0xFFFFFFFF
.Lspan:
    .long   UNIT_SQUARED_SPAN
.Lhalf:
    .long   0x8000
.Lguard:
    .long   0x80008000
