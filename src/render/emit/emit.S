/* The common case of emission on a Saturn, in SH-2 assembly: sorted polygons of one plain
 * material (no gouraud table, no light, no mipmaps, never in parts) wholly in front of the
 * near plane, each a copy of the material's command with its corners. It stops at a polygon
 * of another material or one crossing the near plane (for the general loop to go on) and
 * when the list is full. The Rust version (`Frame::emit_plain_reference`,
 * render/emit/mod.rs) is the reference: `asm_tests` compares the two in every SH-2 build.
 *
 * void jom_emit_plain(EmitJob *job): the job (`EmitJob` in sh2.rs) is laid out in
 * emit_job.inc; the polygons, view points and command tables in rt/layout.inc. Written
 * back: the polygons emitted.
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

    .text
    .align  2
    .global _jom_emit_plain
_jom_emit_plain:
    save_callee_saved
    mov     r4, r14             /* r14 = the job */
    mov.l   @(EMIT_JOB_KEYS,r14), r13       /* r13 = the next key */
    mov.l   @(EMIT_JOB_KEY_COUNT,r14), r12  /* r12 = keys left: the fewer of keys and */
    mov.l   @(EMIT_JOB_TABLE_COUNT,r14), r0 /* free tables */
    cmp/hs  r0, r12
    bf      1f
    mov     r0, r12
1:  mov.l   @(EMIT_JOB_MATERIALS,r14), r10  /* r10 = polygon materials */
    mov.l   @(EMIT_JOB_POLYGONS,r14), r9    /* r9 = the polygons' corners */
    add     #POLYGON_CORNERS, r9
    mov.l   @(EMIT_JOB_POINTS,r14), r8      /* r8 = view points */
    mov.l   @(EMIT_JOB_TABLES,r14), r11     /* r11 = the next command table */
    mov.l   @(EMIT_JOB_MATERIAL,r14), r7    /* r7 = the material, as mov.w loads it */
    exts.w  r7, r7
    mov.l   @(EMIT_JOB_NEAR,r14), r6        /* r6 = the near plane */
/* Each load's register is used one instruction later where it can be (Mednafen charges a
 * cycle otherwise), and the polygon's index is not kept: the count of tables written is
 * what the routine gives back. */
.Lnext:
    tst     r12, r12
    bt      .Lstop
    mov.l   @r13+, r0           /* r5 = the polygon's index */
    extu.w  r0, r5
    mov     r5, r0              /* the same material */
    add     r0, r0
    mov.w   @(r0,r10), r0
    shll2   r5                  /* r5 = its corners: polygons + 20 * index + 12 */
    cmp/eq  r7, r0
    bf      .Lstop
    mov     r5, r0
    shll2   r0
    add     r0, r5
    add     r9, r5
    mov.w   @r5+, r1            /* r1-r4 = the view points of A, B, C, D */
    mov.w   @r5+, r2
    mov.w   @r5+, r3
    mov.w   @r5+, r4
    extu.w  r1, r1
    extu.w  r2, r2
    extu.w  r3, r3
    extu.w  r4, r4
    shll2   r1
    shll2   r2
    shll2   r3
    shll2   r4
    shll2   r1
    shll2   r2
    shll2   r3
    shll2   r4
    add     r8, r1
    add     r8, r2
    add     r8, r3
    add     r8, r4
    mov.l   @(VIEW_POINT_Z,r1), r0      /* every corner in front of the near plane */
    mov.l   @(VIEW_POINT_Z,r2), r5
    cmp/ge  r6, r0
    bf      .Lstop
    cmp/ge  r6, r5
    bf      .Lstop
    mov.l   @(VIEW_POINT_Z,r3), r0
    mov.l   @(VIEW_POINT_Z,r4), r5
    cmp/ge  r6, r0
    bf      .Lstop
    cmp/ge  r6, r5
    bf      .Lstop
    mov.l   @(EMIT_JOB_HEAD,r14), r0    /* the command: the material's words, the corners */
    mov.l   @(EMIT_JOB_HEAD+4,r14), r5
    mov.l   r0, @(COMMAND_TABLE_CTRL,r11)   /* CMDCTRL, CMDLINK */
    mov.l   @(EMIT_JOB_HEAD+2*4,r14), r0
    mov.l   r5, @(COMMAND_TABLE_PMOD,r11)   /* CMDPMOD, CMDCOLR */
    mov.l   @(VIEW_POINT_SCREEN,r1), r5
    mov.l   r0, @(COMMAND_TABLE_SRCA,r11)   /* CMDSRCA, CMDSIZE */
    mov.l   @(VIEW_POINT_SCREEN,r2), r0
    mov.l   r5, @(COMMAND_TABLE_A,r11)
    mov.l   @(VIEW_POINT_SCREEN,r3), r5
    mov.l   r0, @(COMMAND_TABLE_B,r11)
    mov.l   @(VIEW_POINT_SCREEN,r4), r0
    mov.l   r5, @(COMMAND_TABLE_C,r11)
    mov.l   @(EMIT_JOB_LAST,r14), r5
    mov.l   r0, @(COMMAND_TABLE_D,r11)
    mov.l   r5, @(COMMAND_TABLE_GRDA,r11)   /* CMDGRDA, the reserved field */
    add     #COMMAND_TABLE_SIZEOF, r11
    bra     .Lnext
    add     #-1, r12            /* delay slot */
.Lstop:
    mov.l   @(EMIT_JOB_TABLES,r14), r0  /* emitted: the tables written, 32 bytes each */
    sub     r0, r11
    shlr2   r11
    shlr2   r11
    shlr    r11
    mov.l   r11, @(EMIT_JOB_EMITTED,r14)
    restore_callee_saved_and_return

/* The lit case on a Saturn: sorted polygons of materials lit by their corner normals (each
 * material's `LitTemplate`, by its index, its command with a gouraud table), wholly in
 * front of the near plane, their matrix not stretching: each the template with its corners
 * and a gouraud table of this frame, each corner's colour channel 16 times its light level
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
    .if     LIT_TEMPLATE_SIZEOF <> 16 || RUN_LIGHT_SIZEOF <> 16 || VECTOR_SIZEOF <> 12
    .error  "emit.S multiplies by the sizes of LitTemplate and RunLight as 16, of Vector as 12"
    .endif
    .if     GOURAUD_TABLE_SIZEOF <> 8
    .error  "emit.S writes a GouraudTable as 4 colours of 16 bits"
    .endif

/* Corner \k: the colour of its light into gouraud table r9 (r5: the normals, r6: the
 * polygon's corner normals, r7: the run's light; clobbers r0-r4, MACH, MACL). */
    .macro  lit_corner k
    mov.w   @(2*\k,r6), r0      /* r1 = its normal: normals + 12 * index */
    extu.w  r0, r0
    mov     r0, r1
    add     r1, r1
    add     r0, r1
    shll2   r1
    add     r5, r1
    mov.l   @(VECTOR_X,r1), r0  /* r3:r2 = the dot product with the light, 64 bits */
    mov.l   @(RUN_LIGHT_DIRECTION,r7), r2
    dmuls.l r0, r2
    mov.l   @(VECTOR_Y,r1), r0
    mov.l   @(RUN_LIGHT_DIRECTION+4,r7), r4
    sts     macl, r2
    sts     mach, r3
    dmuls.l r0, r4
    mov.l   @(VECTOR_Z,r1), r0
    mov.l   @(RUN_LIGHT_DIRECTION+8,r7), r1
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
    xtrct   r3, r2              /* r2 = the facing: -(dot >> 16), 0 to 1 */
    neg     r2, r2
    cmp/pz  r2
    bt      1f
    mov     #0, r2
1:  mov     #1, r0
    shll16  r0
    cmp/gt  r0, r2
    bf      2f
    mov     r0, r2
2:  mov.l   @(EMIT_LIT_JOB_DIRECT,r14), r0  /* r2 = the level: ambient + direct * facing */
    dmuls.l r0, r2
    mov.l   @(EMIT_LIT_JOB_AMBIENT,r14), r0
    sts     macl, r2
    sts     mach, r3
    xtrct   r3, r2
    add     r0, r2
    shlr8   r2                  /* r2 = the channel: level >> 12, 0 to 16 */
    shlr2   r2
    shlr2   r2
    mov     r2, r0              /* the colour: 0x8000 | c << 10 | c << 5 | c */
    shll2   r0
    shll2   r0
    shll    r0
    or      r0, r2
    shll2   r0
    shll2   r0
    shll    r0
    or      r0, r2
    mov     #-128, r0
    shll8   r0
    or      r2, r0
    mov.w   r0, @(2*\k,r9)
    .endm

    .text
    .align  2
    .global _jom_emit_lit
_jom_emit_lit:
    save_callee_saved
    mov     r4, r14             /* r14 = the job */
    mov.l   @(EMIT_LIT_JOB_KEYS,r14), r13   /* r13 = the next key */
    mov.l   @(EMIT_LIT_JOB_COUNT,r14), r12  /* r12 = polygons left at most */
    mov.l   @(EMIT_LIT_JOB_MATERIALS,r14), r10  /* r10 = polygon materials */
    mov.l   @(EMIT_LIT_JOB_POINTS,r14), r8  /* r8 = view points */
    mov     r14, r0
    add     #EMIT_LIT_JOB_TABLES, r0
    mov.l   @r0, r11            /* r11 = the next command table */
    mov     r14, r0
    add     #EMIT_LIT_JOB_GOURAUD, r0
    bra     .Llit_next
    mov.l   @r0, r9             /* r9 = the next gouraud table (delay slot) */
.Llit_stop:
    mov     r14, r0             /* emitted: the tables written, 32 bytes each */
    add     #EMIT_LIT_JOB_TABLES, r0
    mov.l   @r0, r0
    sub     r0, r11
    shlr2   r11
    shlr2   r11
    shlr    r11
    mov     r14, r0
    add     #EMIT_LIT_JOB_EMITTED, r0
    mov.l   r11, @r0
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
    add     r0, r5
    view_point POLYGON_A, r5, r8, r1    /* r1-r4 = the view points of A, B, C, D */
    view_point POLYGON_B, r5, r8, r2
    view_point POLYGON_C, r5, r8, r3
    view_point POLYGON_D, r5, r8, r4
    mov.l   @(EMIT_LIT_JOB_NEAR,r14), r5    /* every corner in front of the near plane */
    each_z  cmp/ge, r5, .Llit_stop, r1, r2, r3, r4
    mov.l   @(LIT_TEMPLATE_HEAD,r7), r0 /* the command: the template's words, the corners */
    mov.l   r0, @(COMMAND_TABLE_CTRL,r11)
    mov.l   @(LIT_TEMPLATE_HEAD+4,r7), r0
    mov.l   r0, @(COMMAND_TABLE_PMOD,r11)
    mov.l   @(LIT_TEMPLATE_HEAD+2*4,r7), r0
    mov.l   r0, @(COMMAND_TABLE_SRCA,r11)
    mov.l   @(VIEW_POINT_SCREEN,r1), r0
    mov.l   r0, @(COMMAND_TABLE_A,r11)
    mov.l   @(VIEW_POINT_SCREEN,r2), r0
    mov.l   r0, @(COMMAND_TABLE_B,r11)
    mov.l   @(VIEW_POINT_SCREEN,r3), r0
    mov.l   r0, @(COMMAND_TABLE_C,r11)
    mov.l   @(VIEW_POINT_SCREEN,r4), r0
    mov.l   r0, @(COMMAND_TABLE_D,r11)
    mov.l   @(EMIT_LIT_JOB_GOURAUD_INDEX,r14), r0   /* CMDGRDA, the reserved field */
    mov.l   @(LIT_TEMPLATE_RESERVED,r7), r1
    shll16  r0
    or      r1, r0
    mov.l   r0, @(COMMAND_TABLE_GRDA,r11)
    mov.l   @(EMIT_LIT_JOB_RUN_ENDS,r14), r3    /* r1 = the run: the first whose end is */
    mov.l   @(EMIT_LIT_JOB_RUNS,r14), r2        /* past the index (r2: runs left to look at) */
    mov     #0, r1
.Llit_search:
    tst     r2, r2
    bt      .Llit_found
    mov     r2, r4              /* r4 = half of them, r5 = the one in the middle */
    shlr    r4
    mov     r4, r5
    add     r1, r5
    mov     r5, r0
    shll2   r0
    mov.l   @(r0,r3), r0
    cmp/hi  r6, r0
    bt      .Llit_below
    add     #1, r5              /* ends there or before: after the middle */
    mov     r5, r1
    sub     r4, r2
    bra     .Llit_search
    add     #-1, r2             /* delay slot */
.Llit_below:
    bra     .Llit_search
    mov     r4, r2              /* delay slot */
.Llit_out:
    bra     .Llit_stop
    nop
.Llit_found:
    mov.l   @(EMIT_LIT_JOB_RUNS,r14), r0
    cmp/hs  r0, r1
    bt      .Llit_out
    mov     r1, r7              /* r7 = the run's light, if its matrix does not stretch */
    shll2   r7
    shll2   r7
    mov.l   @(EMIT_LIT_JOB_RUN_LIGHTS,r14), r0
    add     r0, r7
    mov.l   @(RUN_LIGHT_USABLE,r7), r0
    tst     r0, r0
    bt      .Llit_out
    shll2   r6                  /* r6 = the polygon's corner normals: + 8 * index */
    shll    r6
    mov.l   @(EMIT_LIT_JOB_CORNER_NORMALS,r14), r0
    add     r0, r6
    mov.l   @(EMIT_LIT_JOB_NORMALS,r14), r5
    lit_corner 0
    lit_corner 1
    lit_corner 2
    lit_corner 3
    mov.l   @(EMIT_LIT_JOB_GOURAUD_INDEX,r14), r0
    add     #1, r0
    mov.l   r0, @(EMIT_LIT_JOB_GOURAUD_INDEX,r14)
    add     #GOURAUD_TABLE_SIZEOF, r9
    add     #COMMAND_TABLE_SIZEOF, r11
    add     #SORT_KEY_SIZEOF, r13
    bra     .Llit_next
    add     #-1, r12            /* delay slot */

/* Emission frame-wide on a Saturn: the sorted polygons of every draw of the frame (each
 * key's low 16 bits the polygon's frame number: the draw's first plus its index in the
 * model), each its draw's material's template (`FrameTemplate` by the material's index,
 * its kind by the `kinds` byte): plain, the template with the corners; lit, the template
 * with the corners and a gouraud table of this frame, each corner's colour the ramp's at
 * its light level >> 12 (the ambient part plus the rest times the cosine between the
 * corner's normal and the light coming at it, the light brought into the run's model space
 * once a frame). A change of draw or material costs a look-up. It stops at a polygon of no
 * draw given, of a material without a template, crossing its near plane, lit by a
 * stretching matrix or without a gouraud table left, and when the count is done. The Rust
 * version (`emit_templates_reference`, render/emit/frame.rs) is the reference: `asm_tests`
 * compares the two in every SH-2 build.
 *
 * void jom_emit_frame(FrameEmitJob *job): laid out in emit_job.inc; `ambient` 0 to 1, so
 * that the level needs no clamp. Written back: the polygons emitted and the next gouraud
 * table's index (the lit ones' count is what it moved on by).
 * r8-r14, MACH and MACL are saved (rt/abi.inc). */
    .equ    FRAME_KIND_PLAIN, 1     /* TemplateKind (frame.rs), checked there */
    .equ    FRAME_KIND_LIT, 2
    .equ    FRAME_TEMPLATES, 32     /* CACHED_STYLES, checked in frame.rs */
    .if     FRAME_TEMPLATE_SIZEOF <> 16
    .error  "emit.S multiplies by the size of FrameTemplate as 16"
    .endif

/* r1-r4 = the view points of the corners of polygon r6 of draw r9, or to \otherwise when
 * one is behind the draw's near plane (clobbers r0, r5, r8). */
    .macro  frame_corners otherwise
    mov     r6, r5              /* r5 = the polygon: polygons + 20 * index */
    shll2   r5
    mov     r5, r0
    shll2   r0
    add     r0, r5
    mov.l   @(DRAW_EMIT_JOB_POLYGONS,r9), r0
    mov.l   @(DRAW_EMIT_JOB_POINTS,r9), r8
    add     r0, r5
    view_point POLYGON_A, r5, r8, r1
    view_point POLYGON_B, r5, r8, r2
    view_point POLYGON_C, r5, r8, r3
    view_point POLYGON_D, r5, r8, r4
    mov.l   @(DRAW_EMIT_JOB_NEAR,r9), r5
    each_z  cmp/ge, r5, \otherwise, r1, r2, r3, r4
    .endm

/* The first seven words of the command into table r11: template r7's three, the screen
 * positions of view points r1-r4 (clobbers r0, r5). */
    .macro  frame_command
    mov.l   @(FRAME_TEMPLATE_HEAD,r7), r0
    mov.l   @(FRAME_TEMPLATE_HEAD+4,r7), r5
    mov.l   r0, @(COMMAND_TABLE_CTRL,r11)   /* CMDCTRL, CMDLINK */
    mov.l   @(FRAME_TEMPLATE_HEAD+2*4,r7), r0
    mov.l   r5, @(COMMAND_TABLE_PMOD,r11)   /* CMDPMOD, CMDCOLR */
    mov.l   @(VIEW_POINT_SCREEN,r1), r5
    mov.l   r0, @(COMMAND_TABLE_SRCA,r11)   /* CMDSRCA, CMDSIZE */
    mov.l   @(VIEW_POINT_SCREEN,r2), r0
    mov.l   r5, @(COMMAND_TABLE_A,r11)
    mov.l   @(VIEW_POINT_SCREEN,r3), r5
    mov.l   r0, @(COMMAND_TABLE_B,r11)
    mov.l   @(VIEW_POINT_SCREEN,r4), r0
    mov.l   r5, @(COMMAND_TABLE_C,r11)
    mov.l   r0, @(COMMAND_TABLE_D,r11)
    .endm

/* Corner \k: the ramp's colour of its light into gouraud table r10 (r5: the normals, r6:
 * the polygon's corner normals, r7: the run's light, r4: 1.0, r8: the ramp; clobbers
 * r0-r3, MACH, MACL). */
    .macro  ramp_corner k
    mov.w   @(2*\k,r6), r0      /* r1 = its normal: normals + 12 * index */
    extu.w  r0, r0
    mov     r0, r1
    add     r1, r1
    add     r0, r1
    shll2   r1
    add     r5, r1
    mov     r7, r2
    dot3    r1, r2, r3          /* r3 = the facing: -dot, clamped to 0 to 1 */
    neg     r3, r3
    cmp/pz  r3
    bt      1f
    mov     #0, r3
1:  cmp/gt  r4, r3
    bf      2f
    mov     r4, r3
2:  mov.l   @(FRAME_EMIT_JOB_DIRECT,r14), r0    /* r3 = the level: ambient + direct * facing */
    dmuls.l r0, r3
    mov.l   @(FRAME_EMIT_JOB_AMBIENT,r14), r1
    sts     macl, r3
    sts     mach, r0
    xtrct   r0, r3
    add     r1, r3
    shlr8   r3                  /* the ramp's colour at level >> 12 (0 to 16) */
    shlr2   r3
    shlr2   r3
    add     r3, r3
    mov     r3, r0
    mov.w   @(r0,r8), r0
    mov.w   r0, @(2*\k,r10)
    .endm

    .text
    .align  2
    .global _jom_emit_frame
_jom_emit_frame:
    save_callee_saved
    full_multiply_accumulate
    mov     r4, r14             /* r14 = the job */
    mov.l   @(FRAME_EMIT_JOB_KEYS,r14), r13     /* r13 = the next key */
    mov.l   @(FRAME_EMIT_JOB_COUNT,r14), r12    /* r12 = polygons left at most */
    mov.l   @(FRAME_EMIT_JOB_TABLES,r14), r11   /* r11 = the next command table */
    mov.l   @(FRAME_EMIT_JOB_GOURAUD,r14), r10  /* r10 = the next gouraud table */
    mov.l   @(FRAME_EMIT_JOB_DRAWS,r14), r9     /* r9 = the draw of the last polygon */
    mov.l   @(FRAME_EMIT_JOB_DRAW_COUNT,r14), r0
    tst     r0, r0
    bt      .Lframe_stop
.Lframe_next:
    tst     r12, r12
    bt      .Lframe_stop
    mov.l   @r13, r0            /* r6 = the polygon's frame number */
    extu.w  r0, r6
    mov.l   @(DRAW_EMIT_JOB_FIRST,r9), r1   /* of the last polygon's draw, or another */
    mov.l   @(DRAW_EMIT_JOB_END,r9), r0
    cmp/hs  r1, r6
    bf      .Lframe_find
    cmp/hi  r6, r0
    bf      .Lframe_find
.Lframe_found:
    sub     r1, r6              /* r6 = its index in the model (r1: the draw's first) */
    mov.l   @(DRAW_EMIT_JOB_MATERIALS,r9), r1   /* r0 = its material */
    mov     r6, r0
    add     r0, r0
    mov.w   @(r0,r1), r0
    mov     #FRAME_TEMPLATES, r1
    extu.w  r0, r0
    cmp/hs  r1, r0
    bt      .Lframe_stop
    mov.l   @(DRAW_EMIT_JOB_KINDS,r9), r1   /* r7 = its template, r0 = its kind */
    mov     r0, r7
    mov.b   @(r0,r1), r0
    shll2   r7
    mov.l   @(DRAW_EMIT_JOB_TEMPLATES,r9), r1
    shll2   r7
    cmp/eq  #FRAME_KIND_PLAIN, r0
    bf/s    .Lframe_not_plain
    add     r1, r7              /* delay slot */
    frame_corners .Lframe_stop
    frame_command
    mov.l   @(FRAME_TEMPLATE_LAST,r7), r0   /* CMDGRDA, the reserved field */
    mov.l   r0, @(COMMAND_TABLE_GRDA,r11)
.Lframe_advance:
    add     #COMMAND_TABLE_SIZEOF, r11
    add     #SORT_KEY_SIZEOF, r13
    bra     .Lframe_next
    add     #-1, r12            /* delay slot */
.Lframe_stop:
    mov.l   @(FRAME_EMIT_JOB_TABLES,r14), r0    /* emitted: the tables written, 32 bytes each */
    sub     r0, r11
    shlr2   r11
    shlr2   r11
    shlr    r11
    mov.l   r11, @(FRAME_EMIT_JOB_EMITTED,r14)
    restore_callee_saved_and_return
/* The draw of frame number r6: the first of the job's whose end is past it, if it starts
 * at or before it; r1 = its first. */
.Lframe_find:
    mov.l   @(FRAME_EMIT_JOB_DRAWS,r14), r9
    mov.l   @(FRAME_EMIT_JOB_DRAW_COUNT,r14), r2
.Lframe_find_next:
    mov.l   @(DRAW_EMIT_JOB_END,r9), r0
    cmp/hi  r6, r0
    bt      .Lframe_find_first
    dt      r2
    bf/s    .Lframe_find_next
    add     #DRAW_EMIT_JOB_SIZEOF, r9       /* delay slot */
    bra     .Lframe_stop
    add     #-DRAW_EMIT_JOB_SIZEOF, r9      /* delay slot: back on a draw */
.Lframe_find_first:
    mov.l   @(DRAW_EMIT_JOB_FIRST,r9), r1
    cmp/hs  r1, r6
    bt      .Lframe_found
    bra     .Lframe_stop
    nop
.Lframe_not_plain:
    cmp/eq  #FRAME_KIND_LIT, r0
    bf      .Lframe_stop
    mov.l   @(FRAME_EMIT_JOB_GOURAUD_LEFT,r14), r0
    tst     r0, r0
    bt      .Lframe_stop
    frame_corners .Lframe_lit_stop
    frame_command
    mov.l   @(FRAME_EMIT_JOB_GOURAUD_INDEX,r14), r0 /* CMDGRDA, the reserved field */
    mov.l   @(FRAME_TEMPLATE_LAST,r7), r1
    shll16  r0
    or      r1, r0
    mov.l   r0, @(COMMAND_TABLE_GRDA,r11)
    mov.l   @(DRAW_EMIT_JOB_RUN_ENDS,r9), r3    /* r1 = the run: the first whose end is */
    mov.l   @(DRAW_EMIT_JOB_RUNS,r9), r2        /* past the index (r2: runs left to look at) */
    mov     #0, r1
.Lframe_search:
    tst     r2, r2
    bt      .Lframe_run
    mov     r2, r4              /* r4 = half of them, r5 = the one in the middle */
    shlr    r4
    mov     r4, r5
    add     r1, r5
    mov     r5, r0
    shll2   r0
    mov.l   @(r0,r3), r0
    cmp/hi  r6, r0
    bt      .Lframe_below
    add     #1, r5              /* ends there or before: after the middle */
    mov     r5, r1
    sub     r4, r2
    bra     .Lframe_search
    add     #-1, r2             /* delay slot */
.Lframe_below:
    bra     .Lframe_search
    mov     r4, r2              /* delay slot */
.Lframe_lit_stop:
    bra     .Lframe_stop
    nop
.Lframe_run:
    mov.l   @(DRAW_EMIT_JOB_RUNS,r9), r0
    cmp/hs  r0, r1
    bt      .Lframe_lit_stop
    mov     r1, r7              /* r7 = the run's light, if its matrix does not stretch */
    shll2   r7
    shll2   r7
    mov.l   @(DRAW_EMIT_JOB_RUN_LIGHTS,r9), r0
    add     r0, r7
    mov.l   @(RUN_LIGHT_USABLE,r7), r0
    tst     r0, r0
    bt      .Lframe_lit_stop
    shll2   r6                  /* r6 = the polygon's corner normals: + 8 * index */
    shll    r6
    mov.l   @(DRAW_EMIT_JOB_CORNER_NORMALS,r9), r0
    add     r0, r6
    mov.l   @(DRAW_EMIT_JOB_NORMALS,r9), r5
    mov.l   @(FRAME_EMIT_JOB_RAMP,r14), r8
    mov     #1, r4
    shll16  r4
    ramp_corner 0
    ramp_corner 1
    ramp_corner 2
    ramp_corner 3
    mov.l   @(FRAME_EMIT_JOB_GOURAUD_INDEX,r14), r0
    add     #1, r0
    mov.l   r0, @(FRAME_EMIT_JOB_GOURAUD_INDEX,r14)
    mov.l   @(FRAME_EMIT_JOB_GOURAUD_LEFT,r14), r0
    add     #-1, r0
    mov.l   r0, @(FRAME_EMIT_JOB_GOURAUD_LEFT,r14)
    bra     .Lframe_advance
    add     #GOURAUD_TABLE_SIZEOF, r10      /* delay slot */
