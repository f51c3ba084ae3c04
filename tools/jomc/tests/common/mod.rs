//! What the `jomc` tests share: a directory of input files and the conversions run in it.

#![allow(dead_code, reason = "each test file uses its own part")]

use jom::Model;
use jom_write::AlignedBytes;
use std::path::PathBuf;
use std::process::{Command, Output};

pub const ONE: i32 = 0x10000;

/// Convert options that keep texels exactly as given: textures embedded, no 16-colour
/// form, no sharing of near-identical textures.
pub const EXACT_TEXELS: [&str; 5] = [
    "--embed-textures",
    "--palette",
    "never",
    "--texture-error",
    "0",
];

/// A directory of input files and the conversions run in it.
pub struct Case {
    pub dir: tempfile::TempDir,
}

impl Case {
    pub fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("temporary directory"),
        }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub fn file(&self, name: &str, text: &str) -> &Self {
        std::fs::write(self.path(name), text).expect("write input");
        self
    }

    /// A PNG of `width` x `height` RGBA pixels given by `pixel(x, y)`.
    pub fn png(&self, name: &str, width: u32, height: u32, pixel: impl Fn(u32, u32) -> [u8; 4]) {
        let file = std::fs::File::create(self.path(name)).expect("create PNG");
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let data: Vec<u8> = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .flat_map(|(x, y)| pixel(x, y))
            .collect();
        let mut writer = encoder.write_header().expect("PNG header");
        writer.write_image_data(&data).expect("PNG data");
    }

    /// `jomc convert model.obj -o model.jom ARGS` in the case's directory.
    pub fn convert(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_jomc"))
            .current_dir(self.dir.path())
            .args(["convert", "model.obj", "-o", "model.jom"])
            .args(args)
            .output()
            .expect("jomc runs")
    }

    /// Converts and returns the file's bytes, failing the test on an error.
    pub fn converted(&self, args: &[&str]) -> AlignedBytes {
        let output = self.convert(args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        AlignedBytes::new(&std::fs::read(self.path("model.jom")).expect("output"))
    }

    /// Converts and expects an error: exit 1, one line on stderr, no output file.
    pub fn error(&self, args: &[&str]) -> String {
        let output = self.convert(args);
        assert_eq!(output.status.code(), Some(1), "expected a failure");
        assert!(!self.path("model.jom").exists(), "an output file was left");
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        stderr.trim_end().to_string()
    }
}

pub fn model(bytes: &AlignedBytes) -> Model<'_> {
    Model::from_bytes(bytes.bytes()).expect("the engine reads the converted file")
}
