//! `include_jom!`: a JOM model linked into the program and checked when the program is
//! built. A file the engine would refuse is a compile error naming the problem (the
//! [`jom::LoadError`]'s sentence, after the file's path), so a game that builds has models
//! that load.
//!
//! ```
//! use jom_macros::include_jom;
//!
//! // The path is relative to the calling crate's root (its `CARGO_MANIFEST_DIR`).
//! let model: jom::Model<'static> = include_jom!("../tests/fixtures/every_chunk.jom");
//! assert_eq!(model.polygon_materials().len(), model.polygons().len());
//! ```
//!
//! A bad file stops the build:
//!
//! ```text
//! error: ../assets/robot.jom: QUAD chunk, record 1 at offset 290 (0x122): corner D 9 is out of range, expected 0 to 5 (PNTS count 6)
//!  --> src/main.rs:4:35
//!   |
//! 4 |     let robot = jom_macros::include_jom!("../assets/robot.jom");
//!   |                                        ^^^^^^^^^^^^^^^^^^^^^
//! ```
//!
//! # Depending on it
//!
//! A game depends on both `jom` and `jom-macros`: this crate depends on `jom` (it validates
//! with the engine's reader, built for the host), so `jom` cannot depend on it and
//! re-export the macro (that would be a dependency cycle). The expansion names `::jom`, the
//! game's own dependency. It works when the game is built for the SH-2 (`sh2-target.json`,
//! `-Zbuild-std`): cargo builds proc macros and their dependencies for the host, so this
//! crate's `jom` is a host build of the same source; `ci/sh2-test.sh` builds
//! `macros/sh2-check`, a crate for the SH-2 that uses the macro.
//!
//! # What it expands to
//!
//! The bytes, embedded at 4-byte alignment with `include_bytes!` of the absolute path (so
//! cargo rebuilds the game when the file changes), and
//! [`Model::from_build_checked`](jom::Model::from_build_checked) of them: the same
//! validation again at run time (it builds the views the model is read through), whose
//! error path is unreachable by construction: the bytes are those validated here, by the
//! same reader, which the expansion checks when the game is compiled (a `jom` of another
//! version than this crate's is a compile error).

use proc_macro::TokenStream;
use quote::quote;
use std::path::PathBuf;
use syn::{parse_macro_input, LitStr};

/// A JOM model linked into the program, validated when the program is built: gives a
/// `jom::Model<'static>`. See the [crate's documentation](crate).
#[proc_macro]
pub fn include_jom(input: TokenStream) -> TokenStream {
    let literal = parse_macro_input!(input as LitStr);
    match expand(&literal) {
        Ok(tokens) => tokens.into(),
        Err(message) => syn::Error::new(literal.span(), message)
            .to_compile_error()
            .into(),
    }
}

/// The expansion for the file `literal` names, or the compile error's message.
fn expand(literal: &LitStr) -> Result<proc_macro2::TokenStream, String> {
    let relative = literal.value();
    let root = std::env::var_os("CARGO_MANIFEST_DIR")
        .ok_or("include_jom!: CARGO_MANIFEST_DIR is not set (build with cargo)")?;
    let path = PathBuf::from(root).join(&relative);
    let bytes = std::fs::read(&path).map_err(|e| format!("{relative}: cannot read: {e}"))?;
    // Validated from a 4-byte-aligned copy, as the engine reads it.
    let mut storage = vec![0; bytes.len() + 3];
    let start = storage.as_ptr().align_offset(4);
    let aligned = &mut storage[start..start + bytes.len()];
    aligned.copy_from_slice(&bytes);
    jom::Model::from_bytes(aligned).map_err(|error| format!("{relative}: {error}"))?;
    let absolute = path
        .canonicalize()
        .map_err(|e| format!("{relative}: {e}"))?;
    let absolute = absolute
        .to_str()
        .ok_or_else(|| format!("{relative}: the path is not UTF-8 (include_bytes! needs it)"))?;
    let version = jom::VERSION;
    Ok(quote! {{
        const _: () = ::core::assert!(
            ::jom::__same_version(#version),
            "include_jom!: jom-macros validated the model with another version of jom than the game's",
        );
        static BYTES: &::jom::Aligned<[u8]> = &::jom::Aligned(*::core::include_bytes!(#absolute));
        ::jom::Model::from_build_checked(&BYTES.0)
    }})
}
