//! The world's link: a master stack of 64 KiB, not link.x's default 128 KiB, for high work
//! RAM to hold the renderer's memory for the whole level and the models read from CD.
//! `ci/stack-bound.py` puts what the program's code can take at most far below it (its
//! figure in docs/world.md).

fn main() {
    println!("cargo::rustc-link-arg=--defsym=STACK_SIZE=0x10000");
}
