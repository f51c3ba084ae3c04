//! The FITS chunk's reader (`jomc info`) on any bytes: the steps or one error, never a
//! panic; what it reads is what `encode` writes back.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(steps) = jomc::fits::decode(data) {
        assert_eq!(jomc::fits::encode(&steps), data);
    }
});
