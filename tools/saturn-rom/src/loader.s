/* The loader of the saturn-rom boot ROM: SH-2 code at ROM offset 0x420, run by the
 * master SH-2 at power-on (and manual) reset. It copies the program (the payload stored
 * in the ROM) to its load address and jumps there with interrupts masked. The slave SH-2,
 * which starts at the same reset vector when the program turns it on (SMPC SSHON), goes
 * to the program's slave entry instead, as a BIOS does: the address at 0x06000250, the
 * stack at 0x060002AC. The parameters
 * come from the ROM header at 0x400, written by the saturn-rom tool:
 *   0x400  "JOMBOOT1"
 *   0x408  load address (and entry point) of the program
 *   0x40C  ROM offset of the payload
 *   0x410  payload size in bytes, a multiple of 4
 *   0x414  initial stack pointer (also in the reset vectors)
 * Assembled with: sh-elf-as --big -o loader.o loader.s
 *                 sh-elf-objcopy -O binary -j .text loader.o loader.bin
 * The bytes are in src/lib.rs (LOADER); a test assembles this file and compares.
 * Position-independent: only PC-relative loads and branches. */
    .text
    .align  2

/* ROM 0x420: every exception vector but the resets points here (no handler: stop). */
    .global halt
halt:
    bra     halt
    nop

/* ROM 0x424: the reset entry. */
    .global start
start:
    bra     boot
    nop

/* ROM 0x428: enter(destination r4, source r5, size r6), called as a C function by a
 * program that read another (the disc boot program, saturn-rom --disc): copies size
 * bytes (a multiple of 4, with 32-bit moves) from source to destination, purges and
 * enables the cache and jumps to destination, SR as the caller left it. Runs from ROM
 * and uses no stack, so the copy may overwrite its caller. */
    .global enter
enter:
    mov     r4, r1              /* the entry point */
    add     r4, r6              /* the end of the destination */
.Lcopy:
    cmp/hs  r6, r4              /* T = r4 >= end */
    bt      .Lcopied
    mov.l   @r5+, r0
    mov.l   r0, @r4
    bra     .Lcopy
    add     #4, r4              /* delay slot */
.Lcopied:
    /* SH-2 cache: purge (CP) with the cache off, then on (CE), 4-way, as a BIOS leaves
     * it. The program was written through the write-through cache, which may hold what
     * was at its addresses before: the purge makes the fetches that follow read it. */
    mov.l   .Lccr, r2
    mov     #0x10, r0
    mov.b   r0, @r2
    mov     #0x01, r0
    mov.b   r0, @r2
    jmp     @r1
    nop

/* The reset: SR is already 0xF0 after a reset; set it anyway. */
boot:
    mov.l   .Lsr_masked, r0
    ldc     r0, sr              /* interrupts masked (I = 15), M, Q, S, T cleared */
    mov     #0, r0
    ldc     r0, vbr             /* exceptions: the vector table at ROM 0 */

    /* BCR1's bit 15 (MASTER) reads 1 on the slave SH-2. */
    mov.l   .Lbcr1, r1
    mov.l   @r1, r0
    mov.w   .Lslave_bit, r2
    tst     r2, r0
    bt      .Lmaster
    mov.l   .Lccr, r1           /* the slave's cache on, as the master's below */
    mov     #0x10, r0
    mov.b   r0, @r1
    mov     #0x01, r0
    mov.b   r0, @r1
    mov.l   .Lslave_stack, r1
    mov.l   @r1, r15
    mov.l   .Lslave_entry, r1
    mov.l   @r1, r0
    jmp     @r0
    nop
.Lmaster:

    /* SCU: every interrupt masked (IMS), pending ones cleared (IST), as after a BIOS
     * that starts a program with interrupts off. */
    mov.l   .Lscu_ims, r1
    mov.l   .Lims_all, r0
    mov.l   r0, @r1
    mov     #0, r0
    mov.l   r0, @(4,r1)         /* IST = 0x25FE00A4 */

    /* The CD block: wait (bounded) until it takes commands (CMOK, after its own
     * start-up), then authenticate the disc with "Authenticate Device" (0xE0, filter 0)
     * and wait for its end (EFLS), as a BIOS does at boot: emulators such as Mednafen
     * deliver no data sector before it. Any timeout skips the rest: the program finds
     * out for itself. HIRQ is at 0x25890008, CR1-CR4 at +0x10, +0x14, +0x18, +0x1C. */
    mov.l   .Lcd_hirq, r1
    mov     #1, r2              /* CMOK */
    bsr     wait_hirq
    nop
    tst     r3, r3
    bt      .Lcd_done           /* no CD block answer */
    mov.w   .Lclear_cmok_efls, r0
    mov.w   r0, @r1             /* HIRQ: clear CMOK and EFLS (0 clears, 1 keeps) */
    mov.w   .Lauth_device, r0
    mov.w   r0, @(16,r1)        /* CR1: 0xE000 */
    mov     #0, r0
    mov.w   r0, @(20,r1)        /* CR2: 0 */
    mov.w   r0, @(24,r1)        /* CR3: filter 0 */
    mov.w   r0, @(28,r1)        /* CR4: 0, starts the command */
    mov     #1, r2
    bsr     wait_hirq           /* the answer */
    nop
    tst     r3, r3
    bt      .Lcd_done
    mov.w   @(28,r1), r0        /* reading CR4 ends the answer */
    mov     #2, r2
    shll8   r2                  /* EFLS = 0x0200: authentication done */
    bsr     wait_hirq
    nop
.Lcd_done:

    /* The parameters from the header, then enter (which never returns). */
    mov.l   .Lheader, r1
    mov.l   @(8,r1), r4         /* destination: the load address */
    mov.l   @(12,r1), r5        /* source: the payload's ROM offset (ROM is at 0) */
    mov.l   @(16,r1), r6        /* size */
    bra     enter
    mov.l   @(20,r1), r15       /* delay slot: the stack */

/* Waits until HIRQ (at r1) & r2 is not 0, at most .Lpolls reads; r3 = 0 on a
 * timeout. Clobbers r0, r3. */
wait_hirq:
    mov.l   .Lpolls, r3
.Lpoll:
    mov.w   @r1, r0
    tst     r2, r0              /* T = (HIRQ & r2) == 0 */
    bf      .Lpolled
    dt      r3
    bf      .Lpoll
.Lpolled:
    rts
    nop

.Lclear_cmok_efls: .word 0xFDFE
.Lauth_device:  .word   0xE000
.Lslave_bit:    .word   0x8000
    .align  2
.Lsr_masked:    .long   0x000000F0
.Lscu_ims:      .long   0x25FE00A0
.Lims_all:      .long   0x0000BFFF
.Lheader:       .long   0x00000400
.Lccr:          .long   0xFFFFFE92
.Lcd_hirq:      .long   0x25890008
.Lpolls:        .long   0x00800000
.Lbcr1:         .long   0xFFFFFFE0
.Lslave_entry:  .long   0x06000250
.Lslave_stack:  .long   0x060002AC
