//! Compiles `src/qemu.S`, the Linux system calls this runner makes under qemu-sh4eb (not
//! needed by the `saturn` build).

fn main() {
    println!("cargo::rerun-if-changed=src/qemu.S");
    println!("cargo::rerun-if-env-changed=JOM_SH2_CC");
    println!("cargo::rerun-if-env-changed=JOM_SH2_AR");
    if std::env::var_os("CARGO_FEATURE_SATURN").is_some() {
        return;
    }
    let gcc = std::env::var("JOM_SH2_CC").unwrap_or_else(|_| "sh-elf-gcc".into());
    cc::Build::new()
        .compiler(&gcc)
        .archiver(std::env::var("JOM_SH2_AR").unwrap_or_else(|_| "sh-elf-ar".into()))
        .no_default_flags(true)
        .flags(["-m2", "-mb"])
        .file("src/qemu.S")
        .compile("qemu_syscalls");
}
