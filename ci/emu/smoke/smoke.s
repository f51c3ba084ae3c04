! The emulator smoke test's program: a known colour on every line of the VDP2 back screen,
! display on, a mark in backup RAM, then spin.
!
! Assembled with sh-elf-as, linked at 0x06004000 (sh-elf-ld -Ttext=0x06004000), made raw
! with sh-elf-objcopy -O binary -j .text; ci/emu/smoke.sh builds it, puts it on a CD image
! with saturn-iso, boots it in Yabause and checks the screenshot and the backup RAM.
!
! VDP2 registers (base 0x25F80000): TVMD +0x000, BGON +0x020, BKTAU +0x0AC, BKTAL +0x0AE.
! The back screen table is at VDP2 VRAM offset 0x7F000 (0x25E7F000), one colour per line
! (BKTAU bit 15): BKTAU = 0x8000 | (0x7F000 >> 17) = 0x8003,
! BKTAL = (0x7F000 >> 1) & 0xFFFF = 0xF800.
! Line y (0 to 223) gets RGB555 0xFC00 | y: red = y & 31, green = y >> 5, blue = 31, which
! Yabause shows as (8 * (y & 31), 8 * (y >> 5), 248): every row of the 320x224 picture has
! its own colour, so the check also proves the screenshot's crop is exact.

        .text
        .global start
start:
        mov.l   table, r1               ! r1: the line colour table
        mov     #0, r2                  ! r2: y
        mov.w   lines, r3               ! r3: 224
        mov.w   blue, r4                ! r4: 0xFC00
fill:
        mov     r2, r0
        or      r4, r0
        mov.w   r0, @r1                 ! line y: 0xFC00 | y
        add     #2, r1
        add     #1, r2
        cmp/ge  r3, r2
        bf      fill

        mov.l   bgon, r1
        mov     #0, r0
        mov.w   r0, @r1                 ! BGON = 0: no scroll screen over the back screen

        mov.l   bktau, r1
        mov.w   bktau_value, r0
        mov.w   r0, @r1                 ! BKTAU = 0x8003: a colour per line, table bits 18-17
        mov.l   bktal, r1
        mov.w   bktal_value, r0
        mov.w   r0, @r1                 ! BKTAL = 0xF800: table bits 16-1

        mov.l   tvmd, r1
        mov.w   display_on, r0
        mov.w   r0, @r1                 ! TVMD = 0x8000: display on, 320x224, no interlace

        ! A second channel: "JOM!" in the odd bytes of backup RAM from 0x00188001 (the
        ! emulator writes backup RAM to its file on a clean quit).
        mov.l   backup_ram, r1
        mov     #'J', r0
        mov.b   r0, @r1
        add     #2, r1
        mov     #'O', r0
        mov.b   r0, @r1
        add     #2, r1
        mov     #'M', r0
        mov.b   r0, @r1
        add     #2, r1
        mov     #'!', r0
        mov.b   r0, @r1

spin:
        bra     spin
        nop

        .align  2
lines:          .word   224
blue:           .word   0xFC00
bktau_value:    .word   0x8003
bktal_value:    .word   0xF800
display_on:     .word   0x8000
        .align  4
table:          .long   0x25E7F000
bgon:           .long   0x25F80020
bktau:          .long   0x25F800AC
bktal:          .long   0x25F800AE
tvmd:           .long   0x25F80000
backup_ram:     .long   0x00188001
