/* The common case of culling on a Saturn, in SH-2 assembly: the polygons of one material
 * that sorts by its centre, is single sided and never drawn in parts, seen through one
 * matrix, from a start while they stay so. Each is culled by its normal against the eye in
 * model space, by the far plane and by the screen's sides, and the visible ones get their
 * sort key. It stops (for the general loop to go on) at a polygon of another material, at
 * one whose first corner another matrix moves, at one facing the eye but crossing the near
 * plane, and where the eye is too far for 32 bits. The Rust version
 * (`Frame::cull_plain_run_reference`, render/cull/mod.rs) is the reference: the render
 * tests compare this path with the general one, and `asm_tests` the two, in every SH-2
 * build.
 *
 * void jom_cull_plain(CullJob *job): the job (`CullJob` in sh2.rs) is laid out in
 * cull_job.inc; the polygons, view points and model points in rt/layout.inc. Written back:
 * where the next key goes, the polygons done, those culled and the depth of the last one.
 * r8-r14, MACH and MACL are saved (rt/abi.inc). */
#include "abi.inc"
#include "layout.inc"
#include "cull_job.inc"

/* The loop finds a polygon (20 bytes), a view point (16) and a model point (12) by shifts
 * and adds: */
    .if     POLYGON_SIZEOF <> 20 || VIEW_POINT_SIZEOF <> 16 || VECTOR_SIZEOF <> 12
    .error  "cull.S multiplies by the sizes of Polygon, ViewPoint and Vector as 20, 16, 12"
    .endif

/* The test of the first corner (r7) of "every corner beyond a side": when the 16-bit field
 * at \at, loaded into r0, makes `cmp/gt \greater, \lesser` true, the others are tested out
 * of line at \rest (the usual case, A not beyond, falls through: a taken branch costs more). */
    .macro  first_beyond at, greater, lesser, rest
    mov.w   @(\at,r7), r0
    cmp/gt  \greater, \lesser
    bt      \rest
    .endm

/* The rest of it, out of line: back to \back as soon as a corner (r1, r2, r3) is not
 * beyond; culled when all are. */
    .macro  others_beyond at, greater, lesser, back
    .irp    point, r1, r2, r3
    mov.w   @(\at,\point), r0
    cmp/gt  \greater, \lesser
    bf      \back
    .endr
    bra     .Lculled
    nop
    .endm

    .text
    .align  2
    .global _jom_cull_plain
_jom_cull_plain:
    save_callee_saved
    mov     r4, r14             /* r14 = the job */
    mov     #CULL_JOB_POLYGONS, r0
    mov.l   @(r0,r14), r12      /* r12 = the polygon: polygons + 20 * start */
    mov     #CULL_JOB_START, r0
    mov.l   @(r0,r14), r13      /* r13 = its index */
    mov     r13, r1
    shll2   r1
    mov     r1, r2
    shll2   r2
    add     r2, r1
    add     r1, r12
    mov     #CULL_JOB_KEYS, r0
    mov.l   @(r0,r14), r11      /* r11 = where the next key goes */
    mov.l   @(CULL_JOB_POINTS,r14), r9          /* r9 = view points */
    mov.l   @(CULL_JOB_MODEL_POINTS,r14), r8    /* r8 = model points */
    mov     #0, r10             /* r10 = culled */
    bra     .Lnext
    nop
.Lstop_near:                    /* within reach of the conditional branches above */
    bra     .Lstop
    nop
.Lnext:
    mov.l   @(CULL_JOB_END,r14), r0
    cmp/hs  r0, r13             /* the end */
    bt      .Lstop_near
    mov.l   @(CULL_JOB_MATERIALS,r14), r1       /* the same material */
    mov     r13, r0
    add     r0, r0
    mov.w   @(r0,r1), r0
    mov.l   @(CULL_JOB_MATERIAL,r14), r1
    extu.w  r0, r0
    cmp/eq  r1, r0
    bf      .Lstop_near
    mov.w   @(POLYGON_A,r12), r0    /* r7 = corner A, moved by the matrix */
    extu.w  r0, r7
    mov.l   @(CULL_JOB_OWNED_START,r14), r1
    cmp/hs  r1, r7
    bf      .Lstop_near
    mov.l   @(CULL_JOB_OWNED_END,r14), r1
    cmp/hs  r1, r7
    bt      .Lstop_near
    /* towards (r6:r5) = n . (A - eye), 64 bits */
    mov     r7, r1              /* r1 = the model point A: model points + 12 A */
    shll2   r1
    mov     r1, r2
    add     r2, r2
    add     r2, r1
    add     r8, r1
    mov.l   @(VECTOR_X,r1), r2
    mov.l   @(CULL_JOB_EYE,r14), r3
    subv    r3, r2              /* T: the difference overflows */
    bt      .Lstop_near
    mov.l   @(POLYGON_NORMAL+VECTOR_X,r12), r3
    dmuls.l r3, r2
    mov.l   @(VECTOR_Y,r1), r2
    mov.l   @(CULL_JOB_EYE+4,r14), r3
    subv    r3, r2
    bt      .Lstop_near
    sts     macl, r5
    sts     mach, r6
    mov.l   @(POLYGON_NORMAL+VECTOR_Y,r12), r3
    dmuls.l r3, r2
    mov.l   @(VECTOR_Z,r1), r2
    mov.l   @(CULL_JOB_EYE+2*4,r14), r3
    subv    r3, r2
    bt      .Lstop_near
    sts     macl, r3
    clrt
    addc    r3, r5
    sts     mach, r3
    addc    r3, r6
    mov.l   @(POLYGON_NORMAL+VECTOR_Z,r12), r3
    dmuls.l r3, r2
    sts     macl, r3
    clrt
    addc    r3, r5
    sts     mach, r3
    addc    r3, r6
    /* r4 = facing: towards != 0 and (towards < 0) != mirrored */
    mov     r6, r0
    or      r5, r0
    tst     r0, r0
    bt/s    .Lfaced
    mov     #0, r4              /* delay slot: towards = 0 is not facing */
    cmp/pz  r6
    movt    r4                  /* 1: towards > 0 */
    mov.l   @(CULL_JOB_MIRRORED,r14), r0
    cmp/eq  r0, r4
    movt    r4
.Lfaced:
    /* r7, r1, r2, r3 = the view points of A, B, C, D */
    shll2   r7
    shll2   r7
    add     r9, r7
    view_point POLYGON_B, r12, r9, r1
    view_point POLYGON_C, r12, r9, r2
    view_point POLYGON_D, r12, r9, r3
    /* r5 = the depth: the sum of the corners' z / 4 */
    mov.l   @(VIEW_POINT_Z,r7), r5  /* (loads ahead of their use: one used at once costs more) */
    mov.l   @(VIEW_POINT_Z,r1), r0
    shar    r5
    shar    r5
    shar    r0
    shar    r0
    add     r0, r5
    mov.l   @(VIEW_POINT_Z,r2), r0
    mov.l   @(VIEW_POINT_Z,r3), r6
    shar    r0
    shar    r0
    add     r0, r5
    shar    r6
    shar    r6
    add     r6, r5
    tst     r4, r4
    bt      .Lculled            /* back facing */
    mov.l   @(CULL_JOB_NEAR,r14), r6    /* facing and crossing the near plane: stop */
    each_z  cmp/ge, r6, .Lstop, r7, r1, r2, r3
    mov.l   @(CULL_JOB_FAR,r14), r6     /* every corner past the far plane: culled */
    mov.l   @(VIEW_POINT_Z,r7), r0
    cmp/gt  r6, r0
    bt      .Lfar_rest
.Lfar_ok:
    mov.l   @(CULL_JOB_HALF_WIDTH,r14), r6  /* every corner right of the screen: culled */
    first_beyond VIEW_POINT_SCREEN_X, r6, r0, .Lright_rest
.Lright_ok:
    neg     r6, r6              /* every corner left of it */
    first_beyond VIEW_POINT_SCREEN_X, r0, r6, .Lleft_rest
.Lleft_ok:
    mov.l   @(CULL_JOB_HALF_HEIGHT,r14), r6 /* every corner below it */
    first_beyond VIEW_POINT_SCREEN_Y, r6, r0, .Lbelow_rest
.Lbelow_ok:
    neg     r6, r6              /* every corner above it */
    first_beyond VIEW_POINT_SCREEN_Y, r0, r6, .Labove_rest
.Labove_ok:
    /* visible: the key (0xFFFF - depth in 16 bits) << 16 | index */
    cmp/pl  r5
    bf      .Lbehind
    mov.l   @(CULL_JOB_DEPTH_FACTOR,r14), r0
    dmulu.l r0, r5
    mov.l   .Lffff, r6
    sts     mach, r0
    cmp/hi  r6, r0
    bt      .Lfarthest
.Lquantized:
    mov.l   .Lffff, r6
    sub     r0, r6
    shll16  r6
    or      r13, r6
    mov.l   r6, @r11
    add     #SORT_KEY_SIZEOF, r11
.Ldone_one:
    mov     #CULL_JOB_LAST_DEPTH, r0
    mov.l   r5, @(r0,r14)       /* the last depth */
    add     #1, r13
    bra     .Lnext
    add     #POLYGON_SIZEOF, r12    /* delay slot */

/* The rare cases, out of the loop's straight line. */
.Lculled:
    bra     .Ldone_one
    add     #1, r10             /* delay slot */
.Lfar_rest:                     /* A past the far plane: B, C, D too? */
    .irp    point, r1, r2, r3
    mov.l   @(VIEW_POINT_Z,\point), r0
    cmp/gt  r6, r0
    bf      .Lfar_ok
    .endr
    bra     .Lculled
    nop
.Lright_rest:
    others_beyond VIEW_POINT_SCREEN_X, r6, r0, .Lright_ok
.Lleft_rest:
    others_beyond VIEW_POINT_SCREEN_X, r0, r6, .Lleft_ok
.Lbelow_rest:
    others_beyond VIEW_POINT_SCREEN_Y, r6, r0, .Lbelow_ok
.Labove_rest:
    others_beyond VIEW_POINT_SCREEN_Y, r0, r6, .Labove_ok
.Lbehind:                       /* at or behind the eye: depth 0 */
    bra     .Lquantized
    mov     #0, r0              /* delay slot */
.Lfarthest:                     /* past 16 bits: the farthest */
    bra     .Lquantized
    mov     r6, r0              /* delay slot */
.Lstop:
    mov     #CULL_JOB_KEYS, r0
    mov.l   r11, @(r0,r14)
    mov     #CULL_JOB_START, r0
    mov.l   @(r0,r14), r1
    sub     r1, r13
    mov     #CULL_JOB_DONE, r0
    mov.l   r13, @(r0,r14)      /* done */
    mov     #CULL_JOB_CULLED, r0
    mov.l   r10, @(r0,r14)      /* culled */
    restore_callee_saved_and_return

    .align  2
.Lffff:     .long   0x0000FFFF
