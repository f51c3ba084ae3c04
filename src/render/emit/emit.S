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
    mov.l   @(EMIT_JOB_POLYGONS,r14), r9    /* r9 = polygons */
    mov.l   @(EMIT_JOB_POINTS,r14), r8      /* r8 = view points */
    mov.l   @(EMIT_JOB_TABLES,r14), r11     /* r11 = the next command table */
    mov     #0, r7              /* r7 = emitted */
.Lnext:
    tst     r12, r12
    bt      .Lstop
    mov.l   @r13, r0            /* r6 = the polygon's index */
    extu.w  r0, r6
    mov     r6, r0              /* the same material */
    add     r0, r0
    mov.w   @(r0,r10), r0
    mov.l   @(EMIT_JOB_MATERIAL,r14), r1
    extu.w  r0, r0
    cmp/eq  r1, r0
    bf      .Lstop
    mov     r6, r5              /* r5 = the polygon: polygons + 20 * index */
    shll2   r5
    mov     r5, r0
    shll2   r0
    add     r0, r5
    add     r9, r5
    view_point POLYGON_A, r5, r8, r1    /* r1-r4 = the view points of A, B, C, D */
    view_point POLYGON_B, r5, r8, r2
    view_point POLYGON_C, r5, r8, r3
    view_point POLYGON_D, r5, r8, r4
    mov.l   @(EMIT_JOB_NEAR,r14), r5    /* every corner in front of the near plane */
    each_z  cmp/ge, r5, .Lstop, r1, r2, r3, r4
    mov.l   @(EMIT_JOB_HEAD,r14), r0    /* the command: the material's words, the corners */
    mov.l   r0, @(COMMAND_TABLE_CTRL,r11)   /* CMDCTRL, CMDLINK */
    mov.l   @(EMIT_JOB_HEAD+4,r14), r0
    mov.l   r0, @(COMMAND_TABLE_PMOD,r11)   /* CMDPMOD, CMDCOLR */
    mov.l   @(EMIT_JOB_HEAD+2*4,r14), r0
    mov.l   r0, @(COMMAND_TABLE_SRCA,r11)   /* CMDSRCA, CMDSIZE */
    mov.l   @(VIEW_POINT_SCREEN,r1), r0
    mov.l   r0, @(COMMAND_TABLE_A,r11)
    mov.l   @(VIEW_POINT_SCREEN,r2), r0
    mov.l   r0, @(COMMAND_TABLE_B,r11)
    mov.l   @(VIEW_POINT_SCREEN,r3), r0
    mov.l   r0, @(COMMAND_TABLE_C,r11)
    mov.l   @(VIEW_POINT_SCREEN,r4), r0
    mov.l   r0, @(COMMAND_TABLE_D,r11)
    mov.l   @(EMIT_JOB_LAST,r14), r0
    mov.l   r0, @(COMMAND_TABLE_GRDA,r11)   /* CMDGRDA, the reserved field */
    add     #COMMAND_TABLE_SIZEOF, r11
    add     #SORT_KEY_SIZEOF, r13
    add     #1, r7
    bra     .Lnext
    add     #-1, r12            /* delay slot */
.Lstop:
    mov.l   r7, @(EMIT_JOB_EMITTED,r14)
    restore_callee_saved_and_return
