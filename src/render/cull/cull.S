/* The common case of culling on a Saturn, in SH-2 assembly: the polygons of plain
 * materials (each sorts by its centre, is single sided and never drawn in parts), seen
 * through one matrix, from a start while they stay so. Each is culled by its normal
 * against the eye in model space, by the far plane and by the screen's sides, and the
 * visible ones get their sort key; one facing the eye but crossing the near plane is culled
 * as the general loop culls it (wholly behind, or beyond one side plane), out of the
 * straight line. It stops (for the general loop to go on) at a polygon of a material that
 * is not plain (the run goes on through the model's other plain materials: the job's
 * PlainMaterials) and at one whose first corner another matrix moves. The Rust version
 * (`Frame::cull_plain_run_reference`, render/cull/mod.rs) is the reference: the render
 * tests compare this path with the general one, and `asm_tests` the two, on the emulated
 * Saturns (qemu's user mode traps the write of SR that mac.l needs).
 *
 * void jom_cull_plain(CullJob *job), and jom_cull_plain_runs(CullJob *job) for a job with
 * the model's plane runs (render/cull/planes.rs): a polygon's facing test holds for the
 * rest of its run of coplanar polygons, so a back face takes them with it, and after a face
 * towards the eye they are not tested; each also as jom_cull_plain_all and
 * jom_cull_plain_runs_all for a matrix that moves every point of the model (corner A's not
 * looked up in its range). Forms of one routine (cull_routine), so that a model without
 * runs or of one matrix pays nothing for them. The job (`CullJob` in sh2.rs) is laid out in
 * cull_job.inc; the polygons, view points and model points in rt/layout.inc. Written back:
 * where the next key goes, the polygons done and the keys of polygons crossing the near
 * plane (the binding works out the rest). Each key is counted for the sort as it is
 * written (the job's KeyCounts: its byte 2, and the OR of its depth and the depth's
 * complement), so that the sort starts at its first scatter.
 * r8-r14, MACH and MACL are saved (rt/abi.inc).
 *
 * The straight line is the visible polygon; what is rare (a back face, a polygon past a
 * side of the screen or the far plane, a depth past 16 bits; with runs, one in the plane
 * of a face towards the eye, and the run of a face towards it) branches out of it, since a
 * taken branch costs more than one that falls through. Registers in the loop: r14 the job,
 * r13 the polygon's frame number (its index plus the draw's first), r12 the polygon, r11
 * where the next key goes, r10 the OR of the keys' depth bits (KEY_COUNTS_DEPTH_BITS), r9
 * the view points' depths, r8 the model points (with runs: the polygons after this one
 * known to face the eye), r7 the polygon's material, r6 the polygons left, r5 corner A's
 * depth (its view point + VIEW_POINT_Z), r1-r4 the corners' depths. */
#include "abi.inc"
#include "layout.inc"
#include "cull_job.inc"

/* The loop finds a view point (16 bytes) and a model point (12) by shifts and adds, and
 * reads a polygon's normal by mac.l from its start: */
    .if     POLYGON_SIZEOF <> 20 || VIEW_POINT_SIZEOF <> 16 || VECTOR_SIZEOF <> 12
    .error  "cull.S multiplies by the sizes of Polygon, ViewPoint and Vector as 20, 16, 12"
    .endif
    .if     POLYGON_NORMAL <> 0 || VECTOR_X <> 0 || VECTOR_Y <> 4 || VECTOR_Z <> 8
    .error  "cull.S reads a polygon's normal and a point as x, y, z words from their start"
    .endif
/* A corner's screen position, from the address of its depth */
    .equ    DEPTH_TO_X, VIEW_POINT_SCREEN_X - VIEW_POINT_Z
    .equ    DEPTH_TO_Y, VIEW_POINT_SCREEN_Y - VIEW_POINT_Z

/* \dst = the depth of the corner at \at of the polygon (clobbers r0). */
    .macro  corner_depth at, dst
    mov.w   @(\at,r12), r0
    extu.w  r0, r0
    shll2   r0
    shll2   r0
    mov.l   @(r0,r9), \dst
    .endm

/* Out of line: corner A is past a side (\half = half the screen's size on the axis of the
 * screen coordinate \field); back to \back unless B, C and D are all past the same side,
 * else culled. Past -half is ~c > half - 1: one test for both sides, the coordinates
 * complemented for the negative one (clobbers r0, r3 and \half). */
    .macro  all_past field, half, back, culled
    mov.w   @(\field,r5), r0
    mov     #0, r3
    cmp/gt  \half, r0
    bt      .Lpositive\@
    mov     #-1, r3
    add     #-1, \half
.Lpositive\@:
    .irp    at, POLYGON_B, POLYGON_C, POLYGON_D
    corner_depth_address \at
    mov.w   @(\field,r0), r0
    xor     r3, r0
    cmp/gt  \half, r0
    bf      \back
    .endr
    bra     \culled
    nop
    .endm

/* r0 = KEY_COUNTS_DEPTH_BITS, by two instructions instead of a literal (which the loads
 * must reach, 510 bytes at most: the out-of-line cases between them go further). */
    .if     KEY_COUNTS_DEPTH_BITS & 0xFF || KEY_COUNTS_DEPTH_BITS >> 8 > 127
    .error  "cull.S makes KEY_COUNTS_DEPTH_BITS as a byte shifted left by 8"
    .endif
    .macro  depth_bits_offset
    mov     #KEY_COUNTS_DEPTH_BITS >> 8, r0
    shll8   r0
    .endm

/* r0 = the address of the depth of the corner at \at. */
    .macro  corner_depth_address at
    mov.w   @(\at,r12), r0
    extu.w  r0, r0
    shll2   r0
    shll2   r0
    add     r9, r0
    .endm

/* r6 |= (P > Q) << \bit | (-P > Q) << (\bit + 1), P in MACH:MACL and Q in r10:r11 (64
 * bits each: no sum of two of them overflows), as the bits of `SidePlanes::all_beside`
 * (clobbers r1, r2). */
    .macro  side_bits bit
    sts     macl, r1
    sts     mach, r2
    sett                        /* P - Q - 1 >= 0: P > Q */
    subc    r11, r1
    subc    r10, r2
    cmp/pz  r2
    movt    r1
    .if     \bit
    shll2   r1
    .endif
    or      r1, r6
    sts     macl, r1
    sts     mach, r2
    clrt                        /* P + Q < 0: -P > Q */
    addc    r11, r1
    addc    r10, r2
    shll    r2                  /* T = the sign */
    movt    r1
    add     r1, r1
    .if     \bit
    shll2   r1
    .endif
    or      r1, r6
    .endm

/* The sides the corner at \at is beyond (r3 the focal length, r4 and r5 the half width
 * and height with the margin: beyond the right side when focal x > half_width z, and so
 * on) ANDed into r7; on to .Lnot_beside when none is left (clobbers r0-r2, r6, r10, r11,
 * MACH and MACL). */
    .macro  corner_sides at, not_beside
    corner_depth_address \at
    add     #-VIEW_POINT_Z, r0  /* r0 = its view point */
    mov.l   @(VIEW_POINT_Z,r0), r1
    mov.l   @(VIEW_POINT_X,r0), r2
    dmuls.l r4, r1
    mov     #0, r6
    sts     mach, r10
    sts     macl, r11           /* Q = half_width z */
    dmuls.l r3, r2              /* P = focal x */
    side_bits 0
    mov.l   @(VIEW_POINT_Z,r0), r1
    mov.l   @(VIEW_POINT_Y,r0), r2
    dmuls.l r5, r1
    sts     mach, r10
    sts     macl, r11           /* Q = half_height z */
    dmuls.l r3, r2              /* P = focal y */
    side_bits 1
    and     r6, r7
    tst     r7, r7
    bf      .Lbeside\@
    bra     \not_beside
    nop
.Lbeside\@:
    .endm

/* \dst = the polygons after polygon r13 in its plane (the job's plane runs from the
 * range's start; clobbers r0 and \tmp). */
    .macro  plane_run dst, tmp
    mov     #CULL_JOB_PLANE_RUNS, r0
    mov.l   @(r0,r14), \dst
    mov     #CULL_JOB_START, r0
    mov.l   @(r0,r14), \tmp
    mov     r13, r0
    sub     \tmp, r0            /* r0 = its index from the range's start */
    mov.b   @(r0,\dst), \dst
    extu.b  \dst, \dst
    .endm

/* The facing test of the polygon r12 with corner A r0 (its index), the model points in
 * \points: towards = n . A + n . (-eye), 64 bits, summed from the mirror mask r3 (0, or -1
 * for a mirroring matrix: the sum is then towards - 1, whose complement is -towards); the
 * polygon faces the eye when (the sum's high word ^ the mask) < 0. r2 and r4 are the
 * polygon and the job (its normal and minus the eye, for mac.l). Leaves T set for a back
 * face, r5 = A's depth and r1 its value (the addresses of A's model point and depth worked
 * out between the products; clobbers r0, r2-r4, MACH and MACL). */
    .macro  facing_test points
    lds     r3, mach
    lds     r3, macl
    mac.l   @r2+, @r4+
    shll2   r0
    mac.l   @r2+, @r4+
    mov     r0, r1
    mac.l   @r2+, @r4+
    add     r0, r1
    add     r0, r1
    add     \points, r1        /* r1 = the model point A: model points + 12 A */
    mov     r12, r2
    shll2   r0
    mac.l   @r2+, @r1+
    add     r9, r0
    mac.l   @r2+, @r1+
    mov     r0, r5              /* r5 = A's depth */
    mac.l   @r2+, @r1+
    sts     mach, r4
    mov.l   @r5, r1             /* r1-r4 = the depths of A, B, C, D, those of B, C */
    xor     r3, r4              /* and D after the test of towards: a back face reads */
    cmp/pz  r4                  /* none of their view points */
    .endm

    .text
/* The routine, in four forms: `jom_cull_plain` (\runs 0: each polygon's facing tested, r8
 * the model points) and `jom_cull_plain_runs` (\runs 1: the job has plane runs; a back
 * face takes the rest of its run with it, and after a face towards the eye the rest of its
 * run is not tested: r8 counts them down), each also as `..._all` (\owned 0: the matrix
 * moves every point of the model, so corner A's is not looked up in its range: 6
 * instructions less a polygon). Its labels end in \s, one suffix a form. */
    .macro  cull_routine name, runs, owned, s
    .align  2
/* Out of line, before the routine (within reach of the loop's branches to it): a back
 * face. With plane runs, the polygons after it in its plane face away too, by the same
 * test: passed over with it, as many as the run has left. */
.Lback\s:
    .if     \runs
    plane_run r1, r2            /* r1 = the polygons after it in its plane */
    mov     r6, r2
    add     #-1, r2             /* r2 = the polygons left after it */
    cmp/hs  r2, r1
    bf      .Lback_within\s
    mov     r2, r1
.Lback_within\s:
    sub     r1, r6
    add     r1, r13
    add     r1, r1              /* 2 bytes a material */
    add     r1, r7
    mov     r1, r2
    shll2   r2
    shll    r2
    add     r1, r2
    add     r1, r2              /* 20 bytes a polygon */
    bra     .Lculled\s
    add     r2, r12             /* delay slot */

/* Out of line: the facing test of a polygon not known to face the eye (r0 = corner A);
 * a face towards it takes with it the rest of its plane run (r8 = the polygons after it in
 * its plane), which face it by the same test. */
.Lfacing_test\s:
    mov.l   @(CULL_JOB_MODEL_POINTS,r14), r5
    facing_test r5
    bt      .Lback\s            /* back facing */
    plane_run r8, r2
    bra     .Lfacing\s
    nop
    .else
    bra     .Lculled\s
    nop
    .endif

/* Out of line: a polygon of another material than the run's. On through it when that
 * material is plain too (its byte of PlainMaterials; those from PLAIN_MATERIALS_SIZEOF on
 * never), the run's material from then on; else the stop. r3 = its material,
 * sign-extended (one past 0x7FFF is taken as past the table); clobbers r1, and r0 is
 * corner A again on the way back. Before the routine: the loop's own branches back to its
 * top stay within reach of a conditional branch. */
.Lother_material\s:
    mov     #PLAIN_MATERIALS_SIZEOF, r1
    cmp/hs  r1, r3
    bt      .Lother_stop\s
    mov     #CULL_JOB_PLAIN_MATERIALS, r0
    mov.l   @(r0,r14), r1
    mov     r3, r0
    mov.b   @(r0,r1), r0
    tst     r0, r0
    bt      .Lother_stop\s
    mov.l   r3, @(CULL_JOB_MATERIAL,r14)
    mov.w   @(POLYGON_A,r12), r0
    bra     .Lsame_material\s
    nop
.Lother_stop\s:
    bra     .Lstop\s
    nop

    .align  2
    .global \name
\name:
    save_callee_saved
    full_multiply_accumulate
    mov     r4, r14             /* r14 = the job */
    mov     #CULL_JOB_POLYGONS, r0
    mov.l   @(r0,r14), r12
    mov     #CULL_JOB_START, r0
    mov.l   @(r0,r14), r13
    add     #-1, r13            /* (the index moves on at the top of the loop) */
    mov     #CULL_JOB_KEYS, r0
    mov.l   @(r0,r14), r11
    mov.l   @(CULL_JOB_COUNTS,r14), r1
    depth_bits_offset
    mov.l   @(r0,r1), r10
    mov     #CULL_JOB_DEPTHS, r0
    mov.l   @(r0,r14), r9
    .if     \runs
    mov     #0, r8              /* r8 = no polygon known to face the eye */
    .else
    mov.l   @(CULL_JOB_MODEL_POINTS,r14), r8    /* r8 = the model points */
    .endif
    mov     #CULL_JOB_MATERIALS, r0
    mov.l   @(r0,r14), r7
    mov     #CULL_JOB_COUNT, r0
    mov.l   @(r0,r14), r6
    .align  2
.Lpolygon\s:
    /* (The order: every load and store at an address 4-aligned, since Mednafen charges one
     * a cycle more when the next instruction's fetch is 4-aligned; a loaded register not
     * used by the next instruction.) */
    mov.w   @r7+, r3            /* the same material */
    mov     r12, r2             /* r2 = the normal, for mac.l */
    mov.l   @(CULL_JOB_MATERIAL,r14), r1
    mov     r14, r4             /* r4 = minus the eye, for mac.l */
    mov.w   @(POLYGON_A,r12), r0
    cmp/eq  r1, r3
    bf      .Lother_material\s
.Lsame_material\s:
    extu.w  r0, r0              /* r0 = corner A, moved by the matrix */
    .if     \owned
    mov.l   @(CULL_JOB_OWNED_START,r14), r3
    mov     r0, r1
    mov.l   @(CULL_JOB_OWNED_COUNT,r14), r5
    sub     r3, r1
    mov.l   @(CULL_JOB_MIRROR,r14), r3  /* r3 = the mirror mask */
    cmp/hs  r5, r1
    bt      .Lstop_near\s
    .else
    mov.l   @(CULL_JOB_MIRROR,r14), r3  /* r3 = the mirror mask */
    .endif
    add     #1, r13             /* r13 = the polygon's frame number */
    .if     \runs
    tst     r8, r8
    bt      .Lfacing_test\s     /* not known to face the eye: tested */
    add     #-1, r8             /* in the plane of one that faces it */
    shll2   r0
    shll2   r0
    add     r9, r0
    mov     r0, r5              /* r5 = A's depth */
    mov.l   @r5, r1
    .else
    facing_test r8
    bt      .Lback\s            /* back facing */
    .endif
.Lfacing\s:                     /* r1 = the depth of A, r5 its address */
    corner_depth POLYGON_B, r2
    corner_depth POLYGON_C, r3
    corner_depth POLYGON_D, r4
    mov.l   @(CULL_JOB_NEAR,r14), r0    /* facing and crossing the near plane: aside */
    cmp/ge  r0, r1
    bf      .Lcrossing\s
    cmp/ge  r0, r2
    bf      .Lcrossing\s
    cmp/ge  r0, r3
    bf      .Lcrossing\s
    cmp/ge  r0, r4
    bf      .Lcrossing\s
    mov.l   @(CULL_JOB_FAR,r14), r0     /* every corner past the far plane: culled */
    cmp/gt  r0, r1
    bt      .Lfar_rest\s
.Lfar_ok\s:
    /* r1 = the depth, the sum of the corners' z / 4, worked out between the tests of the
     * screen's sides: every corner past one, culled. A is within -half..half when A +
     * half, unsigned, is at most 2 half. */
    shar    r1
    shar    r1
    shar    r2
    shar    r2
    add     r2, r1
    mov.l   @(CULL_JOB_HALF_WIDTH,r14), r2
    shar    r3
    mov.w   @(DEPTH_TO_X,r5), r0
    shar    r3
    shar    r4
    add     r3, r1
    mov.l   @(CULL_JOB_FULL_WIDTH,r14), r3
    add     r2, r0
    cmp/hi  r3, r0
    bt      .Lx_rest\s
.Lx_ok\s:
    mov.l   @(CULL_JOB_HALF_HEIGHT,r14), r2
    shar    r4
    mov.w   @(DEPTH_TO_Y,r5), r0
    add     r4, r1
    mov.l   @(CULL_JOB_FULL_HEIGHT,r14), r3
    add     r2, r0
    mov.l   @(CULL_JOB_DEPTH_FACTOR,r14), r4
    cmp/hi  r3, r0
    bt      .Ly_rest\s
.Ly_ok\s:
    /* visible: the key (0xFFFF - depth in 16 bits) << 16 | index. The depth is at least
     * 0: every corner is in front of the near plane, at least 1 (the binding checks). */
    dmulu.l r4, r1
    mov.l   @(CULL_JOB_COUNTS,r14), r5  /* r5 = the counts of byte 2 */
    sts     mach, r0
    mov     r0, r2
    shlr16  r2
    tst     r2, r2
    bf      .Lfarthest\s
.Lquantized\s:                    /* r0 = the depth in 16 bits */
    not     r0, r3              /* 0xFFFF - depth, in the low 16 bits: the key's high half */
    extu.b  r3, r2              /* byte 2 of the key */
    shll16  r3
    shll2   r2
    add     r5, r2              /* r2 = its count */
    or      r3, r0              /* the key's depth << 16 | its complement */
    mov.l   @r2, r1
    or      r13, r3             /* r3 = the key */
    mov.l   r3, @r11
    add     #1, r1
    or      r0, r10
    add     #SORT_KEY_SIZEOF, r11
    mov.l   r1, @r2
    dt      r6
    bf/s    .Lpolygon\s
    add     #POLYGON_SIZEOF, r12    /* delay slot */
.Lstop_near\s:                    /* within reach of the conditional branches above */
    bra     .Lstop\s
    nop
.Lcrossing\s:
    bra     .Lcrossing_sides\s
    nop

/* The rare cases, out of the loop's straight line (placed within reach of the
 * conditional branches to them). */
.Lculled\s:
    dt      r6
    bf/s    .Lpolygon\s
    add     #POLYGON_SIZEOF, r12    /* delay slot */
    bra     .Lstop\s
    nop
.Lfar_rest\s:                     /* A past the far plane: B, C, D too? */
    cmp/gt  r0, r2
    bf      .Lfar_ok\s
    cmp/gt  r0, r3
    bf      .Lfar_ok\s
    cmp/gt  r0, r4
    bf      .Lfar_ok\s
    bra     .Lculled\s
    nop
.Lx_rest\s:
    all_past DEPTH_TO_X, r2, .Lx_ok\s, .Lculled\s
.Ly_rest\s:
    all_past DEPTH_TO_Y, r2, .Ly_ok\s, .Lculled\s
.Lfarthest\s:                     /* past 16 bits: the farthest */
    mov     #-1, r0
    bra     .Lquantized\s
    extu.w  r0, r0              /* delay slot: 0xFFFF */
.Lstop\s:
    mov.l   @(CULL_JOB_COUNTS,r14), r1
    depth_bits_offset
    mov.l   r10, @(r0,r1)
    mov     #CULL_JOB_KEYS, r0
    mov.l   r11, @(r0,r14)
    mov     #CULL_JOB_START, r0
    mov.l   @(r0,r14), r1
    add     #1, r13             /* r13 = the frame number of the polygon stopped at */
    sub     r1, r13
    mov     #CULL_JOB_DONE, r0
    mov.l   r13, @(r0,r14)      /* done */
    restore_callee_saved_and_return

/* Out of line: a polygon facing the
 * eye with a corner behind the near plane (r0 = the near plane, r1-r4 the corners'
 * depths). Culled when wholly behind it or when its corners are all beyond one side plane
 * (visibility::SidePlanes: through the eye, moved out by the margin), else visible, its
 * key from its centre's depth (0 at or behind the eye), as `cull_range` does. */
    .align  2
.Lcrossing_sides\s:
    cmp/ge  r0, r1
    bt      .Lin_front\s
    cmp/ge  r0, r2
    bt      .Lin_front\s
    cmp/ge  r0, r3
    bt      .Lin_front\s
    cmp/ge  r0, r4
    bt      .Lin_front\s
    bra     .Lculled\s            /* wholly behind */
    nop
.Lin_front\s:
    mov     #CULL_JOB_SIDE_HALF_WIDTH, r0
    mov.l   @(r0,r14), r4       /* r4 = half the width and the margin */
    tst     r4, r4
    bf      .Lsides_used\s
    bra     .Lcrossing_shown\s    /* the sides not used */
    nop
.Lsides_used\s:
    mov     #CULL_JOB_SIDE_HALF_HEIGHT, r0
    mov.l   @(r0,r14), r5       /* r5 = the same down */
    mov     #CULL_JOB_SIDE_FOCAL, r0
    mov.l   @(r0,r14), r3       /* r3 = the focal length */
    mov.l   r6, @-r15           /* (four more registers for the products) */
    mov.l   r7, @-r15
    mov.l   r10, @-r15
    mov.l   r11, @-r15
    mov     #-1, r7             /* r7 = the sides every corner so far is beyond */
    corner_sides POLYGON_A, .Lnot_beside\s
    corner_sides POLYGON_B, .Lnot_beside\s
    corner_sides POLYGON_C, .Lnot_beside\s
    corner_sides POLYGON_D, .Lnot_beside\s
    mov.l   @r15+, r11          /* all beyond one: culled */
    mov.l   @r15+, r10
    mov.l   @r15+, r7
    mov.l   @r15+, r6
    bra     .Lculled\s
    nop
.Lnot_beside\s:
    mov.l   @r15+, r11
    mov.l   @r15+, r10
    mov.l   @r15+, r7
    mov.l   @r15+, r6
.Lcrossing_shown\s:
    mov     #CULL_JOB_CROSSING, r0  /* counted, so that emission knows of it */
    mov.l   @(r0,r14), r1
    add     #1, r1
    mov.l   r1, @(r0,r14)
    corner_depth POLYGON_A, r1
    corner_depth POLYGON_B, r2
    corner_depth POLYGON_C, r3
    corner_depth POLYGON_D, r4
    shar    r1                  /* the sum of the corners' z / 4 */
    shar    r1
    shar    r2
    shar    r2
    add     r2, r1
    shar    r3
    shar    r3
    add     r3, r1
    shar    r4
    shar    r4
    add     r4, r1
    mov.l   @(CULL_JOB_DEPTH_FACTOR,r14), r4
    cmp/pl  r1
    bf      .Lat_the_eye\s
    bra     .Ly_ok\s              /* quantized as any other */
    nop
.Lat_the_eye\s:
    mov.l   @(CULL_JOB_COUNTS,r14), r5
    bra     .Lquantized\s
    mov     #0, r0              /* delay slot: the nearest */
    .endm

    cull_routine _jom_cull_plain, 0, 1, _plain
    cull_routine _jom_cull_plain_runs, 1, 1, _runs
    cull_routine _jom_cull_plain_all, 0, 0, _plain_all
    cull_routine _jom_cull_plain_runs_all, 1, 0, _runs_all
