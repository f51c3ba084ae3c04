//! `Model::from_bytes` on any input: it must return, never panic or read out of bounds, and
//! a model it accepts must be readable through every view and posable (BMOT included; the
//! corpus is seeded from tests/fixtures, `motion.jom` has the chunk).
#![no_main]

use jom::format::TexturePixels;
use jom::Model;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // libFuzzer's buffer is only byte aligned; the engine needs 4 (and reports Misaligned
    // otherwise, which this also exercises when the copy is skipped).
    let mut storage = vec![0u32; data.len().div_ceil(4)];
    let aligned: &mut [u8] = words_as_bytes(&mut storage);
    aligned[..data.len()].copy_from_slice(data);
    let _ = Model::from_bytes(data);
    if let Ok(model) = Model::from_bytes(&aligned[..data.len()]) {
        let mut sum = 0usize;
        sum += model.chunks().count() + model.points().len() + model.polygons().len();
        for texture in model.textures().into_iter().flatten() {
            if let TexturePixels::Lut4 { pixels, .. } = texture.pixels {
                sum += pixels.len();
            }
        }
        let animations = model.animations();
        for (i, animation) in animations.iter().enumerate() {
            sum += usize::from(animations.is_duplicate(i));
            sum += animation.keys().map(|k| k.rotations.len()).sum::<usize>();
            // BMOT: every track's keys, and a pose with its matrices.
            for (bone, keys) in animation.motion.iter() {
                sum +=
                    usize::from(bone) + keys.iter().map(|k| k.scale()[0] as usize).sum::<usize>();
            }
            let pose = jom::anim::pose_at(&animation, model.bones().len(), 7);
            let mut matrices = [jom::math::Matrix::IDENTITY; jom::format::MAX_BONES];
            jom::anim::bone_matrices(&model, &pose, &mut matrices);
            std::hint::black_box(&matrices);
        }
        sum += model.bone_motion().tracks().len();
        std::hint::black_box(sum);
    }
});

/// The bytes of a `u32` buffer (4-byte aligned by construction).
fn words_as_bytes(words: &mut [u32]) -> &mut [u8] {
    let len = words.len() * 4;
    // SAFETY: u8 has no alignment or validity requirement; the length covers exactly the
    // words' bytes and the borrow is carried over.
    unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), len) }
}
