/* The inner loop of the transform on a Saturn: each point of a run through one 3x4 Q16.16
 * matrix into camera space, then projected, with the SH-2's multiply-accumulate (mac.l: the
 * 32 x 32 -> 64-bit products summed in MACH:MACL) and its division unit started as soon as
 * the depth is known, read after x and y are done. The Rust version,
 * `transform_points_reference` (render/project/mod.rs), is the reference: `asm_tests`
 * runs both on the same points and compares every field, on the emulated Saturns (qemu has
 * no division unit, and SR is privileged in its user mode).
 *
 * void jom_transform_points(const Matrix *matrix, const Vector *points, ViewPoint *out,
 *                           uint32_t count, const Projection *projection);
 * void jom_transform_points_screens(..., Point *screens): the same, each screen position
 *   also into `screens` (4 bytes a point: the compact copy emission reads, four points a
 *   cache line where a view point takes one).
 *   count > 0; the layouts in rt/layout.inc.
 * Arguments in r4-r7 and on the stack (the fifth, sixth); r8-r14, MACH and MACL are
 * saved. Two forms of one routine (transform_routine). */
#include "abi.inc"
#include "layout.inc"

/* The matrix's rows are read by dot3 (x, y, z in a row, then the translation), the points
 * by dot3 too (x, y, z one after the other). */
    .if     VECTOR_X <> 0 || VECTOR_Y <> 4 || VECTOR_Z <> 8
    .error  "transform.S reads a Vector as x, y, z words one after the other"
    .endif
/* The division unit's registers (hw::divu). */
    .equ    DIVU_ADDRESS, 0xFFFFFF00

/* The screen coordinate (\view * scale) >> 32 (scale in r8) into r0, kept within +-2047
 * (r12, r1); past either limit out of line to .Lhigh_\tag or .Llow_\tag, which come back
 * with the limit. */
    .macro  screen_axis view, tag
    dmuls.l r8, \view
    sts     mach, r0
    cmp/gt  r12, r0
    bt      .Lhigh_\tag
    cmp/ge  r1, r0
    bf      .Llow_\tag
.Ldone_\tag:
    .endm

/* The out-of-line cases of `screen_axis` \tag (or of the loop's x, in \to). */
    .macro  screen_limits tag, to=r0
.Lhigh_\tag:
    bra     .Ldone_\tag
    mov     r12, \to            /* delay slot */
.Llow_\tag:
    bra     .Ldone_\tag
    mov     r1, \to             /* delay slot */
    .endm

/* Three products of a row (r1) and the point (r2), summed by mac.l. */
    .macro  products
    clrmac
    mac.l   @r2+, @r1+
    mac.l   @r2+, @r1+
    mac.l   @r2+, @r1+
    .endm

/* \dst = the sum of the products >> 16 (clobbers r0). */
    .macro  sum_products dst
    sts     mach, r0
    sts     macl, \dst
    xtrct   r0, \dst
    .endm

/* r3 = the depth of the point at r5, (m20 x + m21 y + m22 z) >> 16 + t2, and r0 the
 * depth divided by: at least the smallest (nearer: out of line, and back with it). */
    .macro  depth_of_point s
    mov.l   @(2*MATRIX_ROW_BYTES+MATRIX_TRANSLATION,r4), r8
    mov     r4, r1
    add     #2*MATRIX_ROW_BYTES, r1
    mov     r5, r2
    products
    sum_products r3
    add     r8, r3
    mov     r3, r0
    cmp/ge  r9, r0
    bf      .Lnearest_first\s
.Lnear_enough_first\s:
    .endm

/* r13, r14 = x, y of the point at r5 in camera space, stored with its depth (r3) at
 * \at(r6). */
    .macro  view_of_point at
    mov.l   @(MATRIX_TRANSLATION,r4), r8
    mov     r4, r1
    mov     r5, r2
    products
    sum_products r13
    add     r8, r13
    mov.l   @(MATRIX_ROW_BYTES+MATRIX_TRANSLATION,r4), r8
    add     #MATRIX_CELL_BYTES, r1  /* past t0, to row 1 */
    mov     r5, r2
    products
    sum_products r14
    add     r8, r14
    mov.l   r13, @(\at+VIEW_POINT_X,r6)
    mov.l   r14, @(\at+VIEW_POINT_Y,r6)
    mov.l   r3, @(\at+VIEW_POINT_Z,r6)
    .endm

/* The division unit's dividend's high word = the focal length: r11, or with \screens (r11
 * the next screen position) the word on top of the stack (clobbers r0); r1 = -2047. */
    .macro  focal_dividend screens
    .if     \screens
    mov.l   @r15, r0
    neg     r12, r1
    mov.l   r0, @(DIVU_REGISTERS_DVDNTH,r10)
    .else
    neg     r12, r1
    mov.l   r11, @(DIVU_REGISTERS_DVDNTH,r10)
    .endif
    .endm

/* The screen position, x in r0 (its y from \y, by screen_axis \tag), into the view point
 * at r6; with \screens also into the screen position after r11 (moved on to it), as one
 * word: x in its high half (clobbers r2). */
    .if     POINT_X <> 0 || POINT_Y <> 2 || POINT_SIZEOF <> 4
    .error  "transform.S writes a Point as one word, x in its high half"
    .endif
    .macro  screen_position screens, y, tag
    .if     \screens
    mov     r0, r2
    screen_axis \y, \tag
    swap.w  r0, r0
    xtrct   r2, r0
    add     #POINT_SIZEOF, r11
    mov.l   r0, @(VIEW_POINT_SCREEN,r6)
    mov.l   r0, @r11
    .else
    mov.w   r0, @(VIEW_POINT_SCREEN_X,r6)
    screen_axis \y, \tag
    mov.w   r0, @(VIEW_POINT_SCREEN_Y,r6)
    .endif
    .endm

/* \x = the screen x of the point before, from the product in MACH (screen_axis, its
 * out-of-line cases those of xloop\s). */
    .macro  screen_x x, s
    sts     mach, \x
    cmp/gt  r12, \x
    bt      .Lhigh_xloop\s
    cmp/ge  r1, \x
    bf      .Llow_xloop\s
.Ldone_xloop\s:
    .endm

/* The end of the loop's turn: this point's y in camera space (row 1 at r1), its view (x in
 * r13, depth in r3) stored, on to the next point (to .Lpoint\s while r7 is not 0). */
    .macro  view_y_and_next s
    mov     r5, r2
    products
    sts     mach, r0
    mov.l   @r1, r8             /* t1 */
    sts     macl, r14
    mov.l   r13, @(VIEW_POINT_SIZEOF+VIEW_POINT_X,r6)
    xtrct   r0, r14
    mov.l   r3, @(VIEW_POINT_SIZEOF+VIEW_POINT_Z,r6)
    add     r8, r14             /* r14 = y */
    mov.l   r14, @(VIEW_POINT_SIZEOF+VIEW_POINT_Y,r6)
    add     #VECTOR_SIZEOF, r5
    bf/s    .Lpoint\s
    add     #VIEW_POINT_SIZEOF, r6  /* delay slot */
    .endm

/* The loop's turn from the screen x of the point before (r0) on, in jom_transform_points:
 * its screen position written as two halves, then this point's x and y in camera space
 * (labels ending in \s). */
    .macro  turn_alone s
    mov.w   r0, @(VIEW_POINT_SCREEN_X,r6)
    screen_axis r14, yloop\s
    mov     r5, r2
    mov.w   r0, @(VIEW_POINT_SCREEN_Y,r6)
    mov     r4, r1
    /* x = (m00 x + m01 y + m02 z) >> 16 + t0, y = (m10 x + m11 y + m12 z) >> 16 + t1 */
    clrmac
    dt      r7                  /* (nothing after it changes T) */
    mac.l   @r2+, @r1+
    mac.l   @r2+, @r1+
    mac.l   @r2+, @r1+
    sts     mach, r0
    mov.l   @r1+, r8            /* t0; r1 = row 1 */
    sts     macl, r13
    xtrct   r0, r13
    add     r8, r13             /* r13 = x */
    view_y_and_next \s
    .endm

/* The same in jom_transform_points_screens, from the screen x in r2: the screen position
 * as one word (r0, kept there while x is worked out: its MACH goes to r2) into the view
 * point and, 10 instructions later (a store to high work RAM keeps the SDRAM busy 4
 * cycles), into its screen position (r11, moved on to it before). */
    .macro  turn_screens s
    screen_axis r14, yloop\s
    swap.w  r0, r0              /* r0 = x << 16 | y */
    xtrct   r2, r0
    mov.l   r0, @(VIEW_POINT_SCREEN,r6)
    mov     r5, r2
    mov     r4, r1
    products                    /* x, row 0 */
    sts     mach, r2
    mov.l   @r1+, r8            /* t0; r1 = row 1 */
    sts     macl, r13
    mov.l   r0, @r11
    dt      r7                  /* (nothing after it changes T) */
    xtrct   r2, r13
    add     r8, r13             /* r13 = x */
    view_y_and_next \s
    .endm

/* The routine \name, its labels ending in \s: with \screens, each screen position also
 * written to the sixth argument (the focal length then kept on the stack: r11 is the next
 * screen position). */
    .macro  transform_routine name, screens, s
    .text
    .align  2
    .global \name
\name:
    mov.l   @r15, r3            /* the fifth argument, before the saves move r15 */
    .if     \screens
    mov.l   @(4,r15), r2        /* the sixth */
    .endif
    save_callee_saved
    full_multiply_accumulate
    mov.l   @(PROJECTION_FOCAL_LENGTH,r3), r11  /* r11 = focal length (the dividend's high word) */
    .if     \screens
    mov.l   r11, @-r15          /* the focal length on the stack, r11 = the screen */
    mov     r2, r11             /* position before the first (moved on to each before */
    add     #-POINT_SIZEOF, r11 /* it is written) */
    .endif
    mov.l   @(PROJECTION_MIN_DEPTH,r3), r9      /* r9 = smallest depth */
    mov.l   .Ldivu\s, r10       /* r10 = the division unit's registers */
    mov.w   .Llimit\s, r12      /* r12 = 2047: screen coordinates stay within +-2047 */
    /* Each point's division runs while the next point is worked out: the first point's
     * depth and view here, then each turn of the loop reads the scale of the point before
     * (r6, its x and y in r13, r14), starts the division of its own, finishes the point
     * before and works out its own view. The division takes 39 cycles, and the division
     * unit's quotient is read at least that long after it starts. */
    depth_of_point \s
    mov.l   r0, @(DIVU_REGISTERS_DVSR,r10)
    mov     #0, r2
    focal_dividend \screens
    mov.l   r2, @(DIVU_REGISTERS_DVDNTL,r10)    /* = 0: the division starts */
    view_of_point 0
    dt      r7
    bt      .Llast\s
    bra     .Lpoint\s
    add     #VECTOR_SIZEOF, r5  /* delay slot: the next point */
.Lnearest_first\s:
    bra     .Lnear_enough_first\s
    mov     r9, r0              /* delay slot */
.Llimit\s:  .word   2047
    .align  2
.Ldivu\s:   .long   DIVU_ADDRESS

    /* (The order: loads and stores at addresses 4-aligned where they can be, since
     * Mednafen charges one a cycle more when the next instruction's fetch is 4-aligned;
     * three mac.l in a row cannot all be.) */
    .align  2
.Lpoint\s:
    /* depth = (m20 x + m21 y + m22 z) >> 16 + t2 (the rows read by mac.l, each translation
     * through the row's pointer after it) */
    mov     r4, r1
    add     #2*MATRIX_ROW_BYTES, r1
    mov     r5, r2
    products
    sts     mach, r0
    mov.l   @r1, r8             /* t2 */
    sts     macl, r3
    xtrct   r0, r3
    add     r8, r3              /* r3 = depth */
    cmp/ge  r9, r3
    bf      .Lnearest_loop\s    /* (divided by the smallest, out of line) */
    /* the scale of the point before read, this one's division started */
    mov.l   @(DIVU_REGISTERS_DVDNTL,r10), r8    /* r8 = the scale of the point before */
    mov     #0, r2
    mov.l   r3, @(DIVU_REGISTERS_DVSR,r10)
    .if     \screens
    neg     r12, r1             /* r1 = -2047 */
    mov.l   @r15, r0            /* = focal */
    dmuls.l r8, r13
    mov.l   r0, @(DIVU_REGISTERS_DVDNTH,r10)
    add     #POINT_SIZEOF, r11  /* (keeps the next store 4-aligned) */
    .else
    neg     r12, r1             /* r1 = -2047 */
    mov.l   r11, @(DIVU_REGISTERS_DVDNTH,r10)   /* = focal */
    dmuls.l r8, r13
    .endif
    mov.l   r2, @(DIVU_REGISTERS_DVDNTL,r10)    /* = 0: the division starts */
.Lstarted_loop\s:
    /* the screen position of the point before (r13, r14: its x, y): x in r0, or with
     * \screens in r2 */
    .if     \screens
    screen_x r2, \s
    turn_screens \s
    .else
    screen_x r0, \s
    turn_alone \s
    .endif
    bra     .Llast\s
    nop
.Lnearest_loop\s:               /* the straight line's division, by the smallest depth */
    mov.l   @(DIVU_REGISTERS_DVDNTL,r10), r8
    mov     #0, r2
    mov.l   r9, @(DIVU_REGISTERS_DVSR,r10)
    focal_dividend \screens
    .if     \screens
    add     #POINT_SIZEOF, r11
    .endif
    dmuls.l r8, r13
    bra     .Lstarted_loop\s
    mov.l   r2, @(DIVU_REGISTERS_DVDNTL,r10)    /* delay slot */
    .if     \screens
    screen_limits xloop\s, r2
    .else
    screen_limits xloop\s
    .endif
    screen_limits yloop\s
.Llast\s:                       /* the screen position of the last point */
    mov.l   @(DIVU_REGISTERS_DVDNTL,r10), r8
    neg     r12, r1
    screen_axis r13, xlast\s
    screen_position \screens, r14, ylast\s
    .if     \screens
    add     #4, r15             /* the focal length off the stack */
    .endif
    restore_callee_saved_and_return
    screen_limits xlast\s
    screen_limits ylast\s
    .endm

    transform_routine _jom_transform_points, 0, _plain
    transform_routine _jom_transform_points_screens, 1, _screens
