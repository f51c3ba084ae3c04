/* The geometry's checks of validation on a Saturn, in SH-2 assembly: every polygon's corners
 * index a point and its normal is of unit length, every NTAB normal too, and the square of
 * the distance of the farthest point from the origin. Each vector's square length is three
 * multiply-accumulates (mac.l) of the vector with itself, read through two pointers. The
 * loops say only where the first polygon or normal that fails is: the Rust checks
 * (format/validate/mod.rs) are the reference and give the error when one fails;
 * `asm_tests` compares the two on the emulated Saturns (the routines write SR.S, which
 * qemu's user mode forbids).
 *
 * uint32_t jom_check_quads(const Polygon *polygons, uint32_t count, uint32_t points);
 * uint32_t jom_check_normals(const Vector *normals, uint32_t count);
 *   The number of records from the first that pass (`count` when all do): a polygon's
 *   corners are below `points` and its normal, like an NTAB normal, has a square length
 *   within [UNIT_SHORTEST_SQUARED, UNIT_SHORTEST_SQUARED + UNIT_SQUARED_SPAN].
 * void jom_farthest(const Vector *points, uint32_t count, uint64_t *squared);
 *   *squared = the largest x^2 + y^2 + z^2 of the points (0 for none), raw Q32.32.
 * The layouts are in rt/layout.inc. r8-r14, MACH, MACL and SR are kept. */
#include "abi.inc"
#include "layout.inc"

/* (1 - 1/64)^2 and (1 + 1/64)^2 - (1 - 1/64)^2 in raw Q32.32 (NORMAL_TOLERANCE in
 * validate/mod.rs; sh2.rs asserts both): SHORTEST is below 2^32 and the span 2^28, so
 * that a square length minus SHORTEST passes when its high word is 0 and its low word at
 * most the span. */
    .equ    UNIT_SHORTEST_SQUARED, 0xF8100000
    .equ    UNIT_SQUARED_SPAN, 0x10000000

    .if     POLYGON_NORMAL <> 0 || POLYGON_CORNERS <> VECTOR_SIZEOF || POLYGON_SIZEOF <> POLYGON_CORNERS + 4 * 2
    .error  "geometry.S reads a polygon as its normal, then its 4 corners, then the next one"
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

    .text
    .align  2
    .global _jom_check_quads
_jom_check_quads:
    unit_prologue
    mov     r5, r3              /* r3 = count, r7 = polygons left */
    mov     r5, r7
    tst     r7, r7
    bt      .Lunit_done
    mov     r4, r5              /* r4: the normal, then the corners; r5: the normal */
.Lquad:
    square_length_past_shortest r4, r5
    .rept   4
    mov.w   @r4+, r0            /* a corner, sign-extended: 0x8000 and above fail too */
    cmp/hs  r6, r0
    bt      .Lunit_done
    .endr
    unless_unit .Lunit_done
    dt      r7
    bf/s    .Lquad
    add     #POLYGON_SIZEOF - VECTOR_SIZEOF, r5     /* delay slot: the next normal */
    bra     .Lunit_done
    nop

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

    .align  2
.Lminus_shortest:
    .long   -UNIT_SHORTEST_SQUARED & 0xFFFFFFFF
.Lspan:
    .long   UNIT_SQUARED_SPAN

/* The farthest so far is kept complemented (r8:r9 = ~farthest): a square length v plus
 * it carries out of 64 bits exactly when v > farthest, so one addc chain compares. */
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
    tst     r5, r5              /* T = 0 when there are points: the carry in */
    bt/s    .Lfarthest_done
    clrmac                      /* delay slot */
.Lpoint:
    mac.l   @r4+, @r7+
    mac.l   @r4+, @r7+
    mac.l   @r4+, @r7+
    sts     macl, r1
    sts     mach, r0
    addc    r9, r1
    addc    r8, r0              /* T = this one is farther */
    bt      .Lfarther
.Lnext_point:
    dt      r5                  /* T = 0 when the loop goes on: the next carry in */
    bf/s    .Lpoint
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
.Lfarther:
    sts     mach, r8
    not     r8, r8
    sts     macl, r9
    bra     .Lnext_point
    not     r9, r9              /* delay slot */
