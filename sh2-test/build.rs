//! The link of the test program (both builds): its master stack, what its deepest test
//! takes under qemu (the runner prints what was never used, and fails a run that reached
//! the bottom: `jom::hw::stack`) and about 10 KiB more; its .bss and stacks in low work RAM
//! (`JOM_RAM_IN_LWRAM`, link.x), so that high work RAM holds the program's code and data,
//! as a cartridge loader or a BIOS loads them. For the qemu-sh4eb build (not the `saturn`
//! one) also `src/qemu.S`, the Linux system calls this runner makes, and a high work RAM
//! larger than the Saturn's.

fn main() {
    println!("cargo::rerun-if-changed=src/qemu.S");
    println!("cargo::rerun-if-env-changed=JOM_SH2_CC");
    println!("cargo::rerun-if-env-changed=JOM_SH2_AR");
    // The deepest suite takes about 100 KiB at -O2 (the run prints what it never used).
    println!("cargo::rustc-link-arg=--defsym=STACK_SIZE=0x1E000");
    println!("cargo::rustc-link-arg=--defsym=JOM_RAM_IN_LWRAM=1");
    if std::env::var_os("CARGO_FEATURE_SATURN").is_some() {
        return;
    }
    // Under qemu, room for the program at -O2 too (`make sh2-test` runs it at -Os, as the
    // Saturns do, and at -O2, as games are built): qemu maps what the program asks for.
    println!("cargo::rustc-link-arg=--defsym=JOM_HWRAM_SIZE=0x3FC000");
    let gcc = std::env::var("JOM_SH2_CC").unwrap_or_else(|_| "sh-elf-gcc".into());
    cc::Build::new()
        .compiler(&gcc)
        .archiver(std::env::var("JOM_SH2_AR").unwrap_or_else(|_| "sh-elf-ar".into()))
        .no_default_flags(true)
        .flags(["-m2", "-mb"])
        .file("src/qemu.S")
        .compile("qemu_syscalls");
}
