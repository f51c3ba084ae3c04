//! The bench's link: a master stack of 64 KiB, not link.x's default 128 KiB, for high work
//! RAM to hold the renderer's memory of 4,000 quads, 1,000 billboards' and the models read
//! from CD. The bench checks at its end that the stack kept 8 KiB untouched (`STACK_MARGIN`).

fn main() {
    println!("cargo::rustc-link-arg=--defsym=STACK_SIZE=0x10000");
}
