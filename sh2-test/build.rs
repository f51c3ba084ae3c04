//! The master stack each test program links with (both builds), and for the qemu-sh4eb
//! build (not the `saturn` one) `src/qemu.S`, the Linux system calls this runner makes.
//! Each part's stack is what its deepest test takes under qemu (the runner prints what was
//! never used, and fails a run that reached the bottom: `jom::hw::stack`) and about 10 KiB
//! more, within what its statics leave of high work RAM: the first part 101 KiB of 112,
//! the second 121 of 144, the third 144 of 160 (on a Saturn: its hardware tests' demo
//! scene), the fourth 152 of 160 (two renderers and a load from disc in one test).

fn main() {
    println!("cargo::rerun-if-changed=src/qemu.S");
    println!("cargo::rerun-if-env-changed=JOM_SH2_CC");
    println!("cargo::rerun-if-env-changed=JOM_SH2_AR");
    let part = |n: u32| std::env::var_os(format!("CARGO_FEATURE_PART{n}")).is_some();
    let stack = match (1..=4).find(|&n| part(n)) {
        Some(1) => 0x1C000,
        Some(2) => 0x24000,
        // The third, the fourth, and all the suites in one program.
        _ => 0x28000,
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
