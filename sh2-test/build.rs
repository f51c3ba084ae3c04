//! The master stack each test program links with (both builds), and for the qemu-sh4eb
//! build (not the `saturn` one) `src/qemu.S`, the Linux system calls this runner makes.
//! Stacks: the first part's statics (a dozen renderers' memory) leave room for 120 KiB
//! (its tests take about 101 KiB); the others take up to 152 KiB (two renderers and a load
//! from disc in one test) and get 160 KiB. The runner fails a run that reaches the bottom
//! (`jom::hw::stack`).

fn main() {
    println!("cargo::rerun-if-changed=src/qemu.S");
    println!("cargo::rerun-if-env-changed=JOM_SH2_CC");
    println!("cargo::rerun-if-env-changed=JOM_SH2_AR");
    let stack = match std::env::var_os("CARGO_FEATURE_PART1") {
        Some(_) => 0x1E000,
        None => 0x28000,
    };
    println!("cargo::rustc-link-arg=--defsym=STACK_SIZE={stack:#X}");
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
