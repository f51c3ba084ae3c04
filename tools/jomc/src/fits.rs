//! The FITS chunk: what `jomc convert`'s fitting steps did to a model's textures (each
//! step's textures changed, VDP1 VRAM before and after, picture error), kept in the file so
//! that `jomc info` can say it. The engine skips it as any chunk it does not know
//! (docs/format.md, "FITS").
//!
//! Big endian: u32 count, then count records of 20 bytes: u16 step (1: near-identical
//! textures shared, 2: 16 colours with a lookup table, 3: largest textures halved), u16 0,
//! u32 textures changed (halvings for step 3), u32 bytes before, u32 bytes after, u32 the
//! picture error in thousandths (of 255).

/// The chunk's tag.
pub const TAG: [u8; 4] = *b"FITS";
const RECORD_BYTES: usize = 20;

/// One step as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FitStep {
    /// 1, 2 or 3 (see the module's documentation).
    pub step: u16,
    pub changed: u32,
    pub bytes_before: u32,
    pub bytes_after: u32,
    /// Thousandths of 255.
    pub picture_error_milli: u32,
}

impl FitStep {
    /// What the step does, for people.
    pub fn describe(&self) -> &'static str {
        match self.step {
            1 => "near-identical textures shared",
            2 => "16 colours with a lookup table",
            _ => "largest textures halved to fit the budget",
        }
    }
}

/// The chunk's data.
pub fn encode(steps: &[FitStep]) -> Vec<u8> {
    let mut out = (steps.len() as u32).to_be_bytes().to_vec();
    for s in steps {
        out.extend_from_slice(&s.step.to_be_bytes());
        out.extend_from_slice(&0u16.to_be_bytes());
        for v in [
            s.changed,
            s.bytes_before,
            s.bytes_after,
            s.picture_error_milli,
        ] {
            out.extend_from_slice(&v.to_be_bytes());
        }
    }
    out
}

/// The steps in `data` (the chunk's data), or what is wrong and at which byte of it.
pub fn decode(data: &[u8]) -> Result<Vec<FitStep>, String> {
    let word = |at: usize| -> u32 {
        u32::from_be_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]])
    };
    if data.len() < 4 {
        return Err(format!(
            "{} bytes of data, expected at least 4 (the count)",
            data.len()
        ));
    }
    let count = word(0) as usize;
    let expected = count
        .checked_mul(RECORD_BYTES)
        .and_then(|n| n.checked_add(4));
    if expected != Some(data.len()) {
        return Err(format!(
            "{} bytes of data, expected 4 + 20 x {count} (the count at byte 0 of the data)",
            data.len()
        ));
    }
    (0..count)
        .map(|i| {
            let at = 4 + i * RECORD_BYTES;
            let step = u16::from_be_bytes([data[at], data[at + 1]]);
            if !(1..=3).contains(&step) || data[at + 2..at + 4] != [0, 0] {
                return Err(format!(
                    "byte {at} of the data: step {step}, reserved {}, expected a step 1 to 3 and 0",
                    u16::from_be_bytes([data[at + 2], data[at + 3]])
                ));
            }
            Ok(FitStep {
                step,
                changed: word(at + 4),
                bytes_before: word(at + 8),
                bytes_after: word(at + 12),
                picture_error_milli: word(at + 16),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_go_through_the_chunk_and_bad_data_is_one_error() {
        let steps = [FitStep {
            step: 2,
            changed: 456,
            bytes_before: 124_576,
            bytes_after: 56_416,
            picture_error_milli: 330,
        }];
        let data = encode(&steps);
        assert_eq!(data.len(), 24);
        assert_eq!(decode(&data), Ok(steps.to_vec()));
        assert!(decode(&data[..23]).unwrap_err().contains("23 bytes"));
        assert!(decode(&[0, 0]).unwrap_err().contains("at least 4"));
        let mut bad = data.clone();
        bad[5] = 9;
        assert!(decode(&bad).unwrap_err().contains("step 9"));
        let mut huge = data;
        huge[0] = 0xFF;
        assert!(decode(&huge).is_err());
    }
}
