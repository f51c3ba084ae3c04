/* The common case of emission on a Saturn, in SH-2 assembly: sorted polygons of one plain
 * material (no gouraud table, no light, no mipmaps, never in parts) wholly in front of the
 * near plane, each a copy of the material's command with its corners. It stops at a polygon
 * of another material or one crossing the near plane (for the general loop to go on) and
 * when the list is full. The Rust version (`Frame::emit_plain_reference`,
 * render/emit/mod.rs) is the reference: `asm_tests` compares the two in every SH-2 build.
 *
 * void jom_emit_plain(EmitJob *job), and jom_emit_plain_in_front(EmitJob *job) without
 * the near plane's test: the job (`EmitJob` in sh2.rs) is laid out in emit_job.inc; the
 * polygons, view points and command tables in rt/layout.inc. The form without the test
 * reads the corners' screen positions from the transform's compact copy (the job's
 * POINTS then). Written back: the polygons emitted.
 * r8-r14, MACH and MACL are saved (rt/abi.inc). */
#include "abi.inc"
#include "layout.inc"
#include "emit_job.inc"

/* The loop finds a polygon (20 bytes) by shifts and adds, and writes a command as eight
 * words: the job's three, the corners' screen positions, the job's last. */
    .if     POLYGON_B <> POLYGON_A + 2 || POLYGON_C <> POLYGON_B + 2 || POLYGON_D <> POLYGON_C + 2
    .error  "emit.S reads the corners A, B, C, D one after the other"
    .endif
    .if     POLYGON_SIZEOF <> 20
    .error  "emit.S multiplies by the size of Polygon as 20"
    .endif
    .if     COMMAND_TABLE_SIZEOF <> 8 * 4 || POINT_SIZEOF <> 4
    .error  "emit.S writes a CommandTable as 8 words, a Point as one"
    .endif

/* The registers both forms of the routine start with: r14 the job, r13 the next key, r12
 * the keys left (the fewer of keys and free tables), r11 the next command table, r10 the
 * polygons' materials, r9 the polygons' corners, r8 the view points (the form without
 * the test: their screen positions), r7 the material as mov.w loads it; to \stop when
 * there is no key. */
    .macro  plain_start stop
    save_callee_saved
    mov     r4, r14
    mov.l   @(EMIT_JOB_KEYS,r14), r13
    mov.l   @(EMIT_JOB_KEY_COUNT,r14), r12
    mov.l   @(EMIT_JOB_TABLE_COUNT,r14), r0
    cmp/hs  r0, r12
    bf      1f
    mov     r0, r12
1:  mov.l   @(EMIT_JOB_MATERIALS,r14), r10
    mov.l   @(EMIT_JOB_POLYGONS,r14), r9
    add     #POLYGON_CORNERS, r9
    mov.l   @(EMIT_JOB_POINTS,r14), r8
    mov.l   @(EMIT_JOB_TABLES,r14), r11
    mov.l   @(EMIT_JOB_MATERIAL,r14), r7
    exts.w  r7, r7
    tst     r12, r12
    bt      \stop
    .endm

/* emitted: the tables written from the job's first, 32 bytes each. */
    .macro  plain_stop
    mov.l   @(EMIT_JOB_TABLES,r14), r0
    sub     r0, r11
    shlr2   r11
    shlr2   r11
    shlr    r11
    mov.l   r11, @(EMIT_JOB_EMITTED,r14)
    restore_callee_saved_and_return
    .endm

/* The corners of the polygon at \at (its view point indexes, A to D: moved on past
 * them; A's already in \a) into table r11: each corner's screen position (r8: the view
 * points) written as soon as it is found, in \a, \b, \c, \d, to \stop when a corner is
 * behind the near plane r6 (clobbers r0); `dt r12` in a free slot (after the tests: T is
 * the loop's). The order keeps the stores apart and each loaded register an instruction
 * from its use (see plain_loop). */
    .macro  tested_corners at, a, b, c, d, stop
    mov.w   @\at+, \b
    extu.w  \a, \a
    mov.w   @\at+, \c
    shll2   \a
    mov.w   @\at+, \d
    shll2   \a
    extu.w  \b, \b
    tested_corner \a, \b, \c, COMMAND_TABLE_A, \stop
    tested_corner \b, \c, \d, COMMAND_TABLE_B, \stop
    add     r8, \c
    near_test \c, r6, \stop
    mov.l   @(VIEW_POINT_SCREEN,\c), \c
    shll2   \d
    shll2   \d
    add     r8, \d
    near_test \d, r6, \stop
    mov.l   \c, @(COMMAND_TABLE_C,r11)
    dt      r12
    mov.l   @(VIEW_POINT_SCREEN,\d), \d
    nop
    mov.l   \d, @(COMMAND_TABLE_D,r11)
    .endm

/* Corner \this of tested_corners (its view point's offset in it) into field \at of table
 * r11, to \stop when it is behind the near plane r6; between its load and its store the
 * offset of the \next corner worked out and the index after it (\after) widened. */
    .macro  tested_corner this, next, after, at, stop
    add     r8, \this
    near_test \this, r6, \stop
    mov.l   @(VIEW_POINT_SCREEN,\this), \this
    shll2   \next
    extu.w  \after, \after
    shll2   \next
    mov.l   \this, @(\at,r11)
    .endm

/* The same without the near plane's test, r8 the screen positions (4 bytes a point: four
 * a cache line, where a view point takes one; with \loaded, A's index already in \a). The
 * order, from a 4-aligned mov.w of B: every load and store after it 4-aligned, each loaded
 * register used two instructions later at the soonest, the stores 4 instructions apart or
 * more. */
    .macro  compact_corners at, a, b, c, d, loaded
    .if     \loaded == 0
    mov.w   @\at+, \a
    .endif
    mov.w   @\at+, \b
    extu.w  \a, \a
    mov.w   @\at+, \c
    shll2   \a
    mov.w   @\at+, \d
    add     r8, \a
    mov.l   @\a, \a
    extu.w  \b, \b
    shll2   \b
    add     r8, \b
    mov.l   \a, @(COMMAND_TABLE_A,r11)
    extu.w  \c, \c
    mov.l   @\b, \b
    shll2   \c
    add     r8, \c
    extu.w  \d, \d
    mov.l   \b, @(COMMAND_TABLE_B,r11)
    shll2   \d
    mov.l   @\c, \c
    add     r8, \d
    mov.l   \c, @(COMMAND_TABLE_C,r11)
    nop                         /* (the store before is still on the bus) */
    mov.l   @\d, \d
    nop
    mov.l   \d, @(COMMAND_TABLE_D,r11)
    .endm

/* To \stop when the view point at \point is behind the near plane \near; clobbers r0. */
    .macro  near_test point, near, stop
    mov.l   @(VIEW_POINT_Z,\point), r0
    cmp/ge  \near, r0
    bf      \stop
    .endm

/* The loop of both forms: each table's words written as soon as they are known (the
 * job's four first, before the polygon's material is checked), the stores far apart:
 * Mednafen holds a store to high work RAM until 3 cycles after the one before ended (its
 * SDRAM busy for 4 cycles a store, sh7095.inc), so the eight stores of a command one after
 * the other cost some 14 cycles of waiting. A polygon it stops at leaves some words in the
 * next free table, which is not counted (the general loop writes it again). Loads and
 * stores at 4-aligned addresses where they can be (Mednafen charges one a cycle more when
 * the next instruction's fetch is 4-aligned), a loaded register used an instruction
 * later. With \tested, each corner's depth against the near plane (r6) as soon as its
 * view point is found. */
    .macro  plain_loop tested, stop
    .align  2
1:  mov.l   @r13+, r0           /* r5 = the polygon's index */
    mov.l   @(EMIT_JOB_HEAD,r14), r1
    extu.w  r0, r5
    mov     r5, r0              /* the same material */
    mov.l   r1, @(COMMAND_TABLE_CTRL,r11)   /* CMDCTRL, CMDLINK */
    add     r0, r0
    mov.w   @(r0,r10), r0
    shll2   r5                  /* r5 = its corners: polygons + 20 * index + 12 */
    mov.l   @(EMIT_JOB_HEAD+4,r14), r1
    mov     r5, r2
    mov.l   r1, @(COMMAND_TABLE_PMOD,r11)   /* CMDPMOD, CMDCOLR */
    cmp/eq  r7, r0
    mov.l   @(EMIT_JOB_HEAD+2*4,r14), r1
    shll2   r2
    mov.l   r1, @(COMMAND_TABLE_SRCA,r11)   /* CMDSRCA, CMDSIZE */
    bf      \stop
    mov.l   @(EMIT_JOB_LAST,r14), r1
    add     r2, r5
    mov.l   r1, @(COMMAND_TABLE_GRDA,r11)   /* CMDGRDA, the reserved field */
    add     r9, r5
    mov.w   @r5+, r2            /* (an instruction after it keeps the loads 4-aligned) */
    .if     \tested
    nop
    tested_corners r5, r2, r3, r4, r1, \stop
    .else
    dt      r12
    compact_corners r5, r2, r3, r4, r1, 1
    .endif
    bf/s    1b
    add     #COMMAND_TABLE_SIZEOF, r11      /* delay slot */
    .endm

    .text
    .align  2
    .global _jom_emit_plain
_jom_emit_plain:
    plain_start .Lstop
    mov.l   @(EMIT_JOB_NEAR,r14), r6        /* r6 = the near plane */
    plain_loop 1, .Lstop
.Lstop:
    plain_stop

/* jom_emit_plain without the near plane's test, for a draw none of whose kept polygons
 * crosses it (as the culling counts them: the binding's near of i32::MIN). */
    .text
    .align  2
    .global _jom_emit_plain_in_front
_jom_emit_plain_in_front:
    plain_start .Lstop_in_front
    plain_loop 0, .Lstop_in_front
.Lstop_in_front:
    plain_stop

/* The lit cases share what follows: a polygon's run of one matrix found from its group's
 * first run, the command from its material's template, and its gouraud table from the
 * light table (one colour a normal in each run's light, made once a frame by
 * `jom_light_colors` when the model has few normals: a corner is one load) or corner by
 * corner (a dot product of its normal with the run's light, one multiply by the direct
 * part, one load from the ramp of the 17 gouraud colours by level >> 12).
 * `ModelLight` (light.rs) makes the groups, the run after the last and the table. */
    .if     LIT_TEMPLATE_SIZEOF <> 16 || RUN_LIGHT_SIZEOF <> 16 || VECTOR_SIZEOF <> 12
    .error  "emit.S multiplies by the sizes of LitTemplate and RunLight as 16, of Vector as 12"
    .endif
    .if     GOURAUD_TABLE_SIZEOF <> 8
    .error  "emit.S writes a GouraudTable as 4 colours of 16 bits"
    .endif
    .if     FRAME_TEMPLATE_SIZEOF <> 16 || LIT_TEMPLATE_HEAD <> FRAME_TEMPLATE_HEAD || LIT_TEMPLATE_RESERVED <> FRAME_TEMPLATE_LAST
    .error  "emit.S reads a LitTemplate as a FrameTemplate (16 bytes, the same fields)"
    .endif
    .equ    RUN_GROUPS, 64          /* light.rs's, checked there; a group is 32 polygons */

/* \run = the run of polygon \index: from its group's first run (\groups: a byte a group,
 * the last group's for the polygons beyond), the first whose end is past it (\ends: each
 * run's end, ~0 after the last; moved on to past the run's). Clobbers r0. */
    .macro  run_of index, groups, ends, run
    mov     \index, r0          /* its group: index / 32 */
    shlr2   r0
    shlr2   r0
    shlr    r0
    mov     #RUN_GROUPS-1, \run
    cmp/hi  \run, r0
    bf      1f
    mov     \run, r0
1:  mov.b   @(r0,\groups), r0
    extu.b  r0, \run
    shll2   r0
    add     r0, \ends
    add     #-1, \run
2:  mov.l   @\ends+, r0
    cmp/hi  \index, r0          /* its end past the polygon: its run */
    bf/s    2b
    add     #1, \run            /* delay slot */
    .endm

/* r0 = the ramp's colour (\ramp) at the light level >> 12 of a normal whose dot product
 * with the light is r3:r2 (64 bits): the ambient part plus the direct part times the
 * facing (-dot >> 16, clamped to 0 to 1), the parts at \ambient_at and \direct_at of \job
 * (ambient 0 to 1, so that the level needs no clamp). Clobbers r1-r3, MACH, MACL. */
    .macro  dot_color job, ambient_at, direct_at, ramp
    xtrct   r3, r2              /* r2 = the facing */
    neg     r2, r2
    cmp/pz  r2
    bt      1f
    mov     #0, r2
1:  mov     #1, r1
    shll16  r1
    cmp/gt  r1, r2
    bf      2f
    mov     r1, r2
2:  mov.l   @(\direct_at,\job), r1  /* r2 = the level: ambient + direct * facing */
    dmuls.l r1, r2
    mov.l   @(\ambient_at,\job), r1
    sts     macl, r2
    sts     mach, r3
    xtrct   r3, r2
    add     r1, r2
    shlr8   r2                  /* the ramp's colour at level >> 12 (0 to 16) */
    shlr2   r2
    shlr2   r2
    add     r2, r2
    mov     r2, r0
    mov.w   @(r0,\ramp), r0
    .endm

/* r0 = the colour of normal r0 (its index, zero-extended) in its light: \normals the
 * model's, \light the run's RunLight, the rest as for dot_color. Clobbers r1-r4, MACH,
 * MACL. */
    .macro  normal_color normals, light, job, ambient_at, direct_at, ramp
    mov     r0, r1              /* r1 = the normal: normals + 12 * index */
    add     r1, r1
    add     r0, r1
    shll2   r1
    add     \normals, r1
    mov.l   @(VECTOR_X,r1), r0  /* r3:r2 = the dot product with the light, 64 bits */
    mov.l   @(RUN_LIGHT_DIRECTION,\light), r2
    dmuls.l r0, r2
    mov.l   @(VECTOR_Y,r1), r0
    mov.l   @(RUN_LIGHT_DIRECTION+4,\light), r4
    sts     macl, r2
    sts     mach, r3
    dmuls.l r0, r4
    mov.l   @(VECTOR_Z,r1), r0
    mov.l   @(RUN_LIGHT_DIRECTION+8,\light), r1
    sts     macl, r4
    clrt
    addc    r4, r2
    sts     mach, r4
    addc    r4, r3
    dmuls.l r0, r1
    sts     macl, r4
    clrt
    addc    r4, r2
    sts     mach, r4
    addc    r4, r3
    dot_color \job, \ambient_at, \direct_at, \ramp
    .endm

/* Corner \k's colour into gouraud table \out by its normal's light: \corners the polygon's
 * corner normals, the rest as for normal_color. Clobbers r0-r4, MACH, MACL. */
    .macro  corner_color k, corners, normals, light, out, job, ambient_at, direct_at, ramp
    mov.w   @(2*\k,\corners), r0
    extu.w  r0, r0
    normal_color \normals, \light, \job, \ambient_at, \direct_at, \ramp
    mov.w   r0, @(2*\k,\out)
    .endm

/* r7 = the light of run r1 (the draw's fields as for lit_run), or to \stretched when the
 * run's matrix stretches (clobbers r0). */
    .macro  run_light d, draw, stretched
    mov     r1, r7
    shll2   r7
    shll2   r7
    mov.l   @(\d\()RUN_LIGHTS,\draw), r0
    add     r0, r7
    mov.l   @(RUN_LIGHT_USABLE,r7), r0
    tst     r0, r0
    bt      \stretched
    .endm

/* The gouraud table \out of lit polygon r6 (its index): its run found (lit_run), then
 * each corner's colour (lit_colors). Clobbers r0-r8, MACH, MACL. */
    .macro  lit_gouraud d, draw, j, job, out, stop
    lit_run \d, \draw
    lit_colors \d, \draw, \j, \job, \out, \stop
    .endm

/* r1 = the run of lit polygon r6 (its index; run_of), r6 = its corner normals. The draw's
 * fields are \draw's at the \d names (\d\()RUN_GROUPS, ...). Clobbers r0, r2, r3. */
    .macro  lit_run d, draw
    mov.l   @(\d\()RUN_GROUPS,\draw), r2
    mov.l   @(\d\()RUN_ENDS,\draw), r3
    run_of  r6, r2, r3, r1
    shll2   r6                  /* r6 = the polygon's corner normals: + 8 * index */
    shll    r6
    mov.l   @(\d\()CORNER_NORMALS,\draw), r0
    add     r0, r6
    .endm

/* The gouraud table \out of a lit polygon of run r1 and corner normals r6 (lit_run): each
 * corner's colour from the run's row of the light table, or, without a table, by its
 * normal (corner_color); to \stop when the run's matrix stretches. The draw's fields as
 * for lit_run, the light's parts and the ramp \job's at the \j names. Clobbers r0-r8,
 * MACH, MACL. */
    .macro  lit_colors d, draw, j, job, out, stop
    mov.l   @(\d\()COLORS,\draw), r8
    tst     r8, r8
    bt      5f
    mov     r1, r0              /* r8 = the run's row of the table, if it has one */
    add     r0, r0
    mov.l   @(\d\()RUN_ROWS,\draw), r2
    mov.w   @(r0,r2), r0
    cmp/pz  r0
    bf      7f
    add     r0, r8
    .irp    k, 0, 1, 2, 3       /* a table's normals are below 32768: mov.w's sign is 0 */
    mov.w   @(2*\k,r6), r0
    add     r0, r0
    mov.w   @(r0,r8), r0
    mov.w   r0, @(2*\k,\out)
    .endr
    bra     6f
    nop
7:  bra     \stop
    nop
5:  run_light \d, \draw, 7b
    mov.l   @(\d\()NORMALS,\draw), r5
    mov.l   @(\j\()RAMP,\job), r8
    .irp    k, 0, 1, 2, 3
    corner_color \k, r6, r5, r7, \out, \job, \j\()AMBIENT, \j\()DIRECT, r8
    .endr
6:
    .endm

/* The screen positions of view points r1-r4 into table r11's corners A, B, C, D
 * (clobbers r0, r5). */
    .macro  corner_screens
    mov.l   @(VIEW_POINT_SCREEN,r1), r0
    mov.l   @(VIEW_POINT_SCREEN,r2), r5
    mov.l   r0, @(COMMAND_TABLE_A,r11)
    mov.l   @(VIEW_POINT_SCREEN,r3), r0
    mov.l   r5, @(COMMAND_TABLE_B,r11)
    mov.l   @(VIEW_POINT_SCREEN,r4), r5
    mov.l   r0, @(COMMAND_TABLE_C,r11)
    mov.l   r5, @(COMMAND_TABLE_D,r11)
    .endm

/* The first seven words of the command into table r11: template r7's three (a
 * FrameTemplate or a LitTemplate), the screen positions of view points r1-r4 (clobbers r0,
 * r5). */
    .macro  template_command
    mov.l   @(FRAME_TEMPLATE_HEAD,r7), r0
    mov.l   @(FRAME_TEMPLATE_HEAD+4,r7), r5
    mov.l   r0, @(COMMAND_TABLE_CTRL,r11)   /* CMDCTRL, CMDLINK */
    mov.l   @(FRAME_TEMPLATE_HEAD+2*4,r7), r0
    mov.l   r5, @(COMMAND_TABLE_PMOD,r11)   /* CMDPMOD, CMDCOLR */
    mov.l   r0, @(COMMAND_TABLE_SRCA,r11)   /* CMDSRCA, CMDSIZE */
    corner_screens
    .endm

/* A lit command's last word into table r11: CMDGRDA, the next gouraud table's (\j\()GOURAUD_INDEX
 * of the job r14), and the template's reserved field: \last's, or template r7's (clobbers
 * r0, r1). What both lit cases write (jom_emit_lit, jom_emit_frame). */
    .macro  lit_grda j, last
    mov.l   @(\j\()GOURAUD_INDEX,r14), r0
    .ifb    \last
    mov.l   @(FRAME_TEMPLATE_LAST,r7), r1
    shll16  r0
    or      r1, r0
    .else
    shll16  r0
    or      \last, r0
    .endif
    mov.l   r0, @(COMMAND_TABLE_GRDA,r11)
    .endm

/* The next gouraud table's index (\j\()GOURAUD_INDEX of the job r14) moved on by one, a
 * lit polygon's table written (clobbers r0). */
    .macro  next_gouraud_index j
    mov.l   @(\j\()GOURAUD_INDEX,r14), r0
    add     #1, r0
    mov.l   r0, @(\j\()GOURAUD_INDEX,r14)
    .endm

/* The lit case of one draw on a Saturn: sorted polygons of materials lit by their corner
 * normals (each material's `LitTemplate`, by its index, its command with a gouraud table),
 * wholly in front of the near plane, their matrix not stretching: each the template with
 * its corners and a gouraud table of this frame, each corner's colour its light level
 * (the ambient part plus the rest times the cosine between the corner's normal and the
 * light coming at it, the light brought into the run's model space once a frame). It stops
 * at a polygon of a material without a template, one crossing the near plane, one of a
 * stretching matrix, and when the count is done. The Rust version
 * (`Frame::emit_lit_reference`, render/emit/mod.rs) is the reference: `asm_tests` compares
 * the two in every SH-2 build.
 *
 * void jom_emit_lit(EmitLitJob *job): laid out in emit_job.inc; `ambient` 0 to 1, so that
 * the level needs no clamp. Written back: the polygons emitted.
 * r8-r14, MACH and MACL are saved (rt/abi.inc). */
    .text
    .align  2
    .global _jom_emit_lit
_jom_emit_lit:
    save_callee_saved
    mov     r4, r14             /* r14 = the job */
    mov     #EMIT_LIT_JOB_KEYS, r0
    mov.l   @(r0,r14), r13      /* r13 = the next key */
    mov     #EMIT_LIT_JOB_COUNT, r0
    mov.l   @(r0,r14), r12      /* r12 = polygons left at most */
    mov     #EMIT_LIT_JOB_MATERIALS, r0
    mov.l   @(r0,r14), r10      /* r10 = polygon materials */
    mov     #EMIT_LIT_JOB_TABLES, r0
    mov.l   @(r0,r14), r11      /* r11 = the next command table */
    mov     #EMIT_LIT_JOB_GOURAUD, r0
    bra     .Llit_next
    mov.l   @(r0,r14), r9       /* r9 = the next gouraud table (delay slot) */
.Llit_stop:
    mov     #EMIT_LIT_JOB_TABLES, r0    /* emitted: the tables written, 32 bytes each */
    mov.l   @(r0,r14), r0
    sub     r0, r11
    shlr2   r11
    shlr2   r11
    shlr    r11
    mov     #EMIT_LIT_JOB_EMITTED, r0
    mov.l   r11, @(r0,r14)
    restore_callee_saved_and_return
.Llit_next:
    tst     r12, r12
    bt      .Llit_stop
    mov.l   @r13, r0            /* r6 = the polygon's index */
    extu.w  r0, r6
    mov     r6, r0              /* r7 = its material's template, if it has one */
    add     r0, r0
    mov.w   @(r0,r10), r0
    mov.l   @(EMIT_LIT_JOB_TEMPLATE_COUNT,r14), r1
    extu.w  r0, r0
    cmp/hs  r1, r0
    bt      .Llit_stop
    shll2   r0
    shll2   r0
    mov.l   @(EMIT_LIT_JOB_TEMPLATES,r14), r7
    add     r0, r7
    mov.l   @(LIT_TEMPLATE_HEAD,r7), r0
    tst     r0, r0
    bt      .Llit_stop
    mov     r6, r5              /* r5 = the polygon: polygons + 20 * index */
    shll2   r5
    mov     r5, r0
    shll2   r0
    add     r0, r5
    mov.l   @(EMIT_LIT_JOB_POLYGONS,r14), r0
    mov.l   @(EMIT_LIT_JOB_POINTS,r14), r8  /* r8 = view points */
    add     r0, r5
    view_point POLYGON_A, r5, r8, r1    /* r1-r4 = the view points of A, B, C, D */
    view_point POLYGON_B, r5, r8, r2
    view_point POLYGON_C, r5, r8, r3
    view_point POLYGON_D, r5, r8, r4
    mov.l   @(EMIT_LIT_JOB_NEAR,r14), r5    /* every corner in front of the near plane */
    each_z  cmp/ge, r5, .Llit_stop, r1, r2, r3, r4
    template_command
    lit_grda EMIT_LIT_JOB_
    lit_gouraud EMIT_LIT_JOB_, r14, EMIT_LIT_JOB_, r14, r9, .Llit_stop
    next_gouraud_index EMIT_LIT_JOB_
    add     #GOURAUD_TABLE_SIZEOF, r9
    add     #COMMAND_TABLE_SIZEOF, r11
    add     #SORT_KEY_SIZEOF, r13
    bra     .Llit_next
    add     #-1, r12            /* delay slot */

/* The light table's row of one run on a Saturn: the gouraud colour of each of the model's
 * normals in the run's light, what corner_color makes of a corner of that normal. The Rust
 * version (`light_colors_reference`, render/emit/light.rs) is the reference: `asm_tests`
 * compares the two in every SH-2 build.
 *
 * void jom_light_colors(const LightColorsJob *job): laid out in emit_job.inc; `ambient` 0
 * to 1. r8-r14, MACH and MACL are saved (rt/abi.inc). */
    .text
    .align  2
    .global _jom_light_colors
_jom_light_colors:
    save_callee_saved
    mov     r4, r14             /* r14 = the job */
    mov.l   @(LIGHT_COLORS_JOB_NORMALS,r14), r5     /* r5 = the next normal */
    mov.l   @(LIGHT_COLORS_JOB_COUNT,r14), r6       /* r6 = normals left */
    mov.l   @(LIGHT_COLORS_JOB_DIRECTION,r14), r8   /* r8-r10 = the light's direction */
    mov.l   @(LIGHT_COLORS_JOB_DIRECTION+4,r14), r9
    mov.l   @(LIGHT_COLORS_JOB_DIRECTION+8,r14), r10
    mov.l   @(LIGHT_COLORS_JOB_RAMP,r14), r13       /* r13 = the ramp */
    mov.l   @(LIGHT_COLORS_JOB_COLORS,r14), r7      /* r7 = the next colour */
    tst     r6, r6
    bt      .Lcolors_done
.Lcolors_next:
    mov.l   @r5+, r0            /* r3:r2 = the dot product with the light, 64 bits */
    dmuls.l r0, r8
    mov.l   @r5+, r0
    sts     macl, r2
    sts     mach, r3
    dmuls.l r0, r9
    mov.l   @r5+, r0
    sts     macl, r4
    clrt
    addc    r4, r2
    sts     mach, r4
    addc    r4, r3
    dmuls.l r0, r10
    sts     macl, r4
    clrt
    addc    r4, r2
    sts     mach, r4
    addc    r4, r3
    dot_color r14, LIGHT_COLORS_JOB_AMBIENT, LIGHT_COLORS_JOB_DIRECT, r13
    mov.w   r0, @r7
    dt      r6
    bf/s    .Lcolors_next
    add     #2, r7              /* delay slot */
.Lcolors_done:
    restore_callee_saved_and_return

/* Emission frame-wide on a Saturn: the sorted polygons of every draw of the frame (each
 * key's low 16 bits the polygon's frame number: the draw's first plus its index in the
 * model), each its draw's material's template (`FrameTemplate` by the material's index,
 * its kind by the `kinds` byte): plain, the template with the corners; lit, the template
 * with the corners and a gouraud table of this frame as `jom_emit_lit` makes it
 * (lit_gouraud), or, for a flat face (one normal at its four corners) when the frame's
 * tables start with the ramp's (`FLAT_INDEX` not 0), the ramp's table of its colour. A change of draw or material costs a look-up. It stops at a polygon of no
 * draw given, of a material without a template, crossing its near plane, lit by a
 * stretching matrix or without a gouraud table left, and when the count is done. The Rust
 * version (`emit_templates_reference`, render/emit/frame.rs) is the reference: `asm_tests`
 * compares the two in every SH-2 build.
 *
 * void jom_emit_frame(FrameEmitJob *job), and jom_emit_frame_in_front without the near
 * plane's test (each draw's POINTS then the transform's compact copy of their screen
 * positions): laid out in emit_job.inc; `ambient` 0 to 1, so that the level needs no
 * clamp. Written back: the polygons emitted, the next gouraud table and its index (the lit
 * ones' count is what it moved on by).
 * r8-r14, MACH and MACL are saved (rt/abi.inc).
 *
 * A plain polygon of the material of the plain polygon before it (of the same draw) takes
 * no look-up of its kind and template: r10 keeps that material and r7 its template while
 * only plain polygons of the draw come (the common case: a ground's cells one after the
 * other in depth). */
    .equ    FRAME_KIND_PLAIN, 1     /* TemplateKind (frame.rs), checked there */
    .equ    FRAME_KIND_LIT, 2
    .equ    FRAME_TEMPLATES, 32     /* CACHED_STYLES, checked in frame.rs */

/* The first seven words of the command of polygon r6 of draw r9 into table r11: template
 * r7's three and the screen positions of its corners' view points (r8: the draw's view
 * points, or untested their screen positions, loaded before), or to \otherwise (\tested
 * 1) when a corner is behind the draw's near plane. Clobbers r0-r5. Untested, the corners
 * go by compact_corners; tested, all four are found first (no register is left for the
 * plane). The template's words are written
 * first: a polygon it stops at leaves them in the table, which is not counted. */
    .macro  frame_command otherwise, tested
    mov.l   @(FRAME_TEMPLATE_HEAD,r7), r1
    mov     r6, r5              /* r5 = its corners: polygons + 20 * index + POLYGON_A */
    shll2   r5
    mov.l   r1, @(COMMAND_TABLE_CTRL,r11)   /* CMDCTRL, CMDLINK */
    mov     r5, r0
    shll2   r0
    mov.l   @(FRAME_TEMPLATE_HEAD+4,r7), r1
    add     r0, r5
    mov.l   @(DRAW_EMIT_JOB_POLYGONS,r9), r0
    mov.l   r1, @(COMMAND_TABLE_PMOD,r11)   /* CMDPMOD, CMDCOLR */
    add     r0, r5
    mov.l   @(FRAME_TEMPLATE_HEAD+2*4,r7), r1
    add     #POLYGON_A, r5
    mov.l   r1, @(COMMAND_TABLE_SRCA,r11)   /* CMDSRCA, CMDSIZE */
    .if     \tested
    .irp    point, r1, r2, r3, r4
    mov.w   @r5+, \point        /* r1-r4 = the view points of A, B, C, D */
    .endr
    .irp    point, r1, r2, r3, r4
    extu.w  \point, \point
    .endr
    .irp    point, r1, r2, r3, r4
    shll2   \point
    .endr
    .irp    point, r1, r2, r3, r4
    shll2   \point
    .endr
    .irp    point, r1, r2, r3, r4
    add     r8, \point
    .endr
    mov.l   @(DRAW_EMIT_JOB_NEAR,r9), r5    /* every corner in front of the near plane */
    .irp    point, r1, r2, r3, r4
    near_test \point, r5, \otherwise
    .endr
    corner_screens
    .else
    compact_corners r5, r1, r2, r3, r4, 0
    .endif
    .endm

/* r10 = no material (65536: mov.w loads none such), at the start, at a change of draw and
 * after a lit polygon (whose gouraud table r10 points to). */
    .macro  no_plain_material
    mov     #1, r10
    shll16  r10
    .endm

/* Two forms of the routine (frame_routine), as of jom_emit_plain: with each corner
 * tested against its draw's near plane, and without (\tested 0: jom_emit_frame_in_front,
 * when no draw's kept polygons cross their camera's). */
    .macro  frame_routine name, tested, s
    .text
    .align  2
    .global \name
\name:
    save_callee_saved
    mov     r4, r14             /* r14 = the job */
    mov.l   @(FRAME_EMIT_JOB_KEYS,r14), r13     /* r13 = the next key */
    mov.l   @(FRAME_EMIT_JOB_COUNT,r14), r12    /* r12 = polygons left at most */
    mov.l   @(FRAME_EMIT_JOB_TABLES,r14), r11   /* r11 = the next command table */
    mov.l   @(FRAME_EMIT_JOB_DRAWS,r14), r9     /* r9 = the draw of the last polygon */
    no_plain_material
    mov.l   @(FRAME_EMIT_JOB_DRAW_COUNT,r14), r0
    tst     r0, r0
    bt      .Lframe_stop\s
    tst     r12, r12
    bt      .Lframe_stop\s
.Lframe_next\s:
    mov.l   @r13+, r0           /* r6 = the polygon's frame number */
    mov.l   @(DRAW_EMIT_JOB_FIRST,r9), r1   /* of the last polygon's draw, or another */
    extu.w  r0, r6
    mov.l   @(DRAW_EMIT_JOB_COUNT,r9), r0
    sub     r1, r6              /* r6 = its index in the model (r1: the draw's first) */
    cmp/hs  r0, r6
    bt      .Lframe_find\s
.Lframe_found\s:
    mov.l   @(DRAW_EMIT_JOB_MATERIALS,r9), r1   /* r0 = its material */
    mov     r6, r0
    add     r0, r0
    mov.w   @(r0,r1), r0
    mov.l   @(DRAW_EMIT_JOB_POINTS,r9), r8  /* r8 = the draw's view points (or screens) */
    cmp/eq  r0, r10
    bf      .Lframe_material\s
.Lframe_plain\s:
    mov.l   @(FRAME_TEMPLATE_LAST,r7), r0   /* CMDGRDA, the reserved field */
    mov.l   r0, @(COMMAND_TABLE_GRDA,r11)
    frame_command .Lframe_stop\s, \tested
.Lframe_advance\s:
    dt      r12
    bf/s    .Lframe_next\s
    add     #COMMAND_TABLE_SIZEOF, r11      /* delay slot */
.Lframe_stop\s:
    mov.l   @(FRAME_EMIT_JOB_TABLES,r14), r0    /* emitted: the tables written, 32 bytes each */
    sub     r0, r11
    shlr2   r11
    shlr2   r11
    shlr    r11
    mov.l   r11, @(FRAME_EMIT_JOB_EMITTED,r14)
    restore_callee_saved_and_return
/* The draw of frame number r6 + r1: the first of the job's whose end is past it, if it
 * starts at or before it; r6 = its index in the draw's model, r1 = the draw's first. */
.Lframe_find\s:
    add     r1, r6              /* r6 = the frame number again */
    no_plain_material
    mov.l   @(FRAME_EMIT_JOB_DRAWS,r14), r9
    mov.l   @(FRAME_EMIT_JOB_DRAW_COUNT,r14), r2
.Lframe_find_next\s:
    mov.l   @(DRAW_EMIT_JOB_END,r9), r0
    cmp/hi  r6, r0
    bt      .Lframe_find_first\s
    dt      r2
    bf/s    .Lframe_find_next\s
    add     #DRAW_EMIT_JOB_SIZEOF, r9       /* delay slot */
    bra     .Lframe_stop\s
    add     #-DRAW_EMIT_JOB_SIZEOF, r9      /* delay slot: back on a draw */
.Lframe_find_first\s:
    mov.l   @(DRAW_EMIT_JOB_FIRST,r9), r1
    cmp/hs  r1, r6
    bf      .Lframe_stop\s
    bra     .Lframe_found\s
    sub     r1, r6              /* delay slot */
/* Material r0 (as mov.w loads it) not the last plain polygon's: r7 = its template, to the
 * plain case with r10 = the material, or to the lit one. */
.Lframe_material\s:
    mov     #FRAME_TEMPLATES, r1
    cmp/hs  r1, r0
    bt      .Lframe_stop\s
    mov.l   @(DRAW_EMIT_JOB_TEMPLATES,r9), r7
    mov     r0, r2              /* r2 = the material */
    shll2   r0
    shll2   r0
    add     r0, r7
    mov.l   @(DRAW_EMIT_JOB_KINDS,r9), r1   /* r0 = its kind */
    mov     r2, r0
    mov.b   @(r0,r1), r0
    cmp/eq  #FRAME_KIND_PLAIN, r0
    bf      .Lframe_not_plain\s
    bra     .Lframe_plain\s
    mov     r2, r10             /* delay slot */
.Lframe_not_plain\s:
    cmp/eq  #FRAME_KIND_LIT, r0
    bf      .Lframe_stop\s
    mov.l   @(FRAME_EMIT_JOB_GOURAUD_LEFT,r14), r0
    tst     r0, r0
    bt      .Lframe_stop\s
    frame_command .Lframe_stop\s, \tested
    mov.l   @(FRAME_TEMPLATE_LAST,r7), r10  /* r10 = the template's last word */
    lit_run DRAW_EMIT_JOB_, r9      /* r1 = its run, r6 = its corner normals */
    mov.l   @(FRAME_EMIT_JOB_FLAT_INDEX,r14), r0
    tst     r0, r0
    bt      .Lframe_cornered\s
    mov.l   @r6, r2             /* one normal at every corner (a flat face): r2; */
    mov.l   @(4,r6), r0         /* corners A, B in one word, C, D in the next (a */
    cmp/eq  r0, r2              /* validated model's CNRM rows are 4-aligned) */
    bf      .Lframe_cornered\s
    swap.w  r2, r0
    cmp/eq  r0, r2
    bf      .Lframe_cornered\s
    bra     .Lframe_flat\s
    extu.w  r2, r2              /* delay slot: the normal */
.Lframe_cornered\s:
    lit_grda FRAME_EMIT_JOB_, r10   /* CMDGRDA: the next gouraud table's */
    mov.l   @(FRAME_EMIT_JOB_GOURAUD,r14), r10  /* r10 = the next gouraud table */
    lit_colors DRAW_EMIT_JOB_, r9, FRAME_EMIT_JOB_, r14, r10, .Lframe_stop\s
    add     #GOURAUD_TABLE_SIZEOF, r10
    mov.l   r10, @(FRAME_EMIT_JOB_GOURAUD,r14)
    next_gouraud_index FRAME_EMIT_JOB_
    mov.l   @(FRAME_EMIT_JOB_GOURAUD_LEFT,r14), r0
    no_plain_material
    add     #-1, r0
    bra     .Lframe_advance\s
    mov.l   r0, @(FRAME_EMIT_JOB_GOURAUD_LEFT,r14)  /* delay slot */
/* A lit polygon of one normal (r2, zero-extended; r1 its run, r10 the template's last
 * word): its command names the ramp's gouraud table of its colour (FLAT_INDEX + its
 * channel, 0 to 16), its colour from the run's row of the light table or by the normal's
 * light; no table of its own. To the stop when the run's matrix stretches. */
.Lframe_flat\s:
    mov.l   @(DRAW_EMIT_JOB_COLORS,r9), r8
    tst     r8, r8
    bt      .Lflat_by_light\s
    mov     r1, r0              /* r8 = the run's row of the table */
    add     r0, r0
    mov.l   @(DRAW_EMIT_JOB_RUN_ROWS,r9), r3
    mov.w   @(r0,r3), r0
    cmp/pz  r0
    bf      .Lflat_stop\s
    add     r0, r8
    mov     r2, r0
    add     r0, r0
    mov.w   @(r0,r8), r0        /* r0 = its colour */
.Lflat_grda\s:
    and     #0x1F, r0           /* CMDGRDA: the ramp's table of its channel */
    mov.l   @(FRAME_EMIT_JOB_FLAT_INDEX,r14), r1
    add     r1, r0
    shll16  r0
    or      r10, r0
    mov.l   r0, @(COMMAND_TABLE_GRDA,r11)
    no_plain_material
    bra     .Lframe_advance\s
    nop
.Lflat_by_light\s:
    run_light DRAW_EMIT_JOB_, r9, .Lflat_stop\s
    mov.l   @(DRAW_EMIT_JOB_NORMALS,r9), r5
    mov.l   @(FRAME_EMIT_JOB_RAMP,r14), r8
    mov     r2, r0
    normal_color r5, r7, r14, FRAME_EMIT_JOB_AMBIENT, FRAME_EMIT_JOB_DIRECT, r8
    bra     .Lflat_grda\s
    nop
.Lflat_stop\s:
    bra     .Lframe_stop\s
    nop
    .endm

    frame_routine _jom_emit_frame, 1, _tested
    frame_routine _jom_emit_frame_in_front, 0, _in_front
