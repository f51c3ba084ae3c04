//! The bench's link: a master stack of 80 KiB instead of link.x's 128 (its meshes, disc
//! buffer and two renderers' memory, with each draw slot's emission templates, fill high
//! work RAM; its deepest call, a frame's finish, needs a few KiB).

fn main() {
    println!("cargo::rustc-link-arg=--defsym=STACK_SIZE=0x14000");
}
