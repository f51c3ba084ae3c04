//! The binding of a draw's matrix work in SH-2 assembly (`view.S`, beside this file): a
//! product (a bone's after the draw's model-view matrix, or a rigid model's placement after
//! the camera's view), a factor's or the product's distance from a rotation and the
//! product's eye by its transpose, in one call (the Rust versions, about five times as many
//! cycles in 64-bit steps, are [`view_product_reference`](super::view_product_reference)
//! and [`rigid_view_reference`](super::rigid_view_reference), which stay the reference:
//! `asm_tests` compares them on the emulated Saturns; the routines write SR, which qemu's
//! user mode forbids).

use super::eye::Eye;
use crate::math::Matrix;

/// What `jom_view_product` and `jom_rigid_view` write (its layout: `view_product.inc`).
#[repr(C)]
struct ViewProduct {
    error: u32,
    eye: [i32; 3],
    found: u32,
    mirrored: u32,
}

// Its layout, checked against `view_product.inc` (which `view.S` includes): build.rs writes it.
include!(concat!(env!("OUT_DIR"), "/view_product.rs"));

/// The routines' signature: `a`, `b` by columns, `out`, what they found.
type Routine =
    unsafe extern "C" fn(*const Matrix, *const [[i32; 3]; 4], *mut Matrix, *mut ViewProduct);

extern "C" {
    fn jom_view_product(
        a: *const Matrix,
        b_columns: *const [[i32; 3]; 4],
        out: *mut Matrix,
        result: *mut ViewProduct,
    );
    fn jom_rigid_view(
        a: *const Matrix,
        b_columns: *const [[i32; 3]; 4],
        out: *mut Matrix,
        result: *mut ViewProduct,
    );
}

/// [`view_product_reference`](super::view_product_reference) in assembly.
pub(crate) fn view_product(a: &Matrix, b: &Matrix, out: &mut Matrix, eye: &mut Option<Eye>) -> u32 {
    call(jom_view_product, a, b, out, eye)
}

/// [`rigid_view_reference`](super::rigid_view_reference) in assembly.
pub(crate) fn rigid_view(a: &Matrix, b: &Matrix, out: &mut Matrix, eye: &mut Option<Eye>) -> u32 {
    call(jom_rigid_view, a, b, out, eye)
}

/// `routine` on `a` and `b`'s columns into `out`: the error it found, its eye in `eye`.
#[inline(always)]
fn call(routine: Routine, a: &Matrix, b: &Matrix, out: &mut Matrix, eye: &mut Option<Eye>) -> u32 {
    let m = &b.0;
    let columns = [
        [m[0][0], m[1][0], m[2][0]],
        [m[0][1], m[1][1], m[2][1]],
        [m[0][2], m[1][2], m[2][2]],
        [m[0][3], m[1][3], m[2][3]],
    ];
    let mut result = ViewProduct {
        error: 0,
        eye: [0; 3],
        found: 0,
        mirrored: 0,
    };
    // SAFETY: each routine reads the 12 words of `a` and of `columns`, writes the 12 words of
    // `out` (then reads them back) and the 6 of `result`, all borrowed here (`Matrix` is 48
    // bytes of rows: rt/layout.inc, checked by `asm_layout`; `ViewProduct`: view_product.inc);
    // it saves the registers the ABI asks.
    unsafe { routine(a, &columns, out, &mut result) };
    *eye = (result.found != 0).then_some(Eye {
        position: result.eye,
        mirrored: result.mirrored != 0,
    });
    result.error
}
