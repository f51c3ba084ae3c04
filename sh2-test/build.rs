//! For the qemu-sh4eb build (not the `saturn` one): compiles `src/qemu.S`, the Linux system
//! calls this runner makes, and links with a master stack of 120 KiB instead of link.x's
//! 128, since with every suite in one program the statics (among them a dozen renderers'
//! memory) left 96 bytes too few for 128.

fn main() {
    println!("cargo::rerun-if-changed=src/qemu.S");
    println!("cargo::rerun-if-env-changed=JOM_SH2_CC");
    println!("cargo::rerun-if-env-changed=JOM_SH2_AR");
    if std::env::var_os("CARGO_FEATURE_SATURN").is_some() {
        return;
    }
    println!("cargo::rustc-link-arg=--defsym=STACK_SIZE=0x1E000");
    let gcc = std::env::var("JOM_SH2_CC").unwrap_or_else(|_| "sh-elf-gcc".into());
    cc::Build::new()
        .compiler(&gcc)
        .archiver(std::env::var("JOM_SH2_AR").unwrap_or_else(|_| "sh-elf-ar".into()))
        .no_default_flags(true)
        .flags(["-m2", "-mb"])
        .file("src/qemu.S")
        .compile("qemu_syscalls");
}
