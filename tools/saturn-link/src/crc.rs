//! The CRC-8 that guards uploads and downloads: polynomial 0x07, initial value 0, not
//! reflected, no final xor (the catalogue's CRC-8/SMBUS). The cart's firmware computes it
//! over the bytes of a transfer; so do [`crate::protocol`] and [`crate::sim`].

/// The generator polynomial, x^8 + x^2 + x + 1 without its x^8 term.
pub const POLYNOMIAL: u8 = 0x07;

/// The CRC of one byte value fed to a CRC of 0, for every value: one lookup a byte.
const TABLE: [u8; 256] = table();

const fn table() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut value = 0;
    while value < 256 {
        table[value] = crc_of_byte(value as u8);
        value += 1;
    }
    table
}

/// One byte through the shift register, a bit at a time, most significant bit first.
const fn crc_of_byte(byte: u8) -> u8 {
    let mut crc = byte;
    let mut bit = 0;
    while bit < 8 {
        crc = if crc & 0x80 != 0 {
            (crc << 1) ^ POLYNOMIAL
        } else {
            crc << 1
        };
        bit += 1;
    }
    crc
}

/// The CRC of `data`.
pub fn crc8(data: &[u8]) -> u8 {
    update(0, data)
}

/// Goes on from `crc`, the CRC of the bytes before `data`: `update(crc8(a), b)` is the CRC
/// of `a` followed by `b`.
pub fn update(crc: u8, data: &[u8]) -> u8 {
    data.iter()
        .fold(crc, |crc, &byte| TABLE[usize::from(crc ^ byte)])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition itself, a bit at a time over the whole message.
    fn bitwise(data: &[u8]) -> u8 {
        let mut crc = 0u8;
        for &byte in data {
            crc ^= byte;
            for _ in 0..8 {
                crc = if crc & 0x80 != 0 {
                    (crc << 1) ^ 0x07
                } else {
                    crc << 1
                };
            }
        }
        crc
    }

    #[test]
    fn known_vectors() {
        // CRC-8/SMBUS's check value.
        assert_eq!(crc8(b"123456789"), 0xF4);
        assert_eq!(crc8(b""), 0x00);
        assert_eq!(crc8(&[0x00]), 0x00);
        assert_eq!(crc8(&[0x01]), 0x07);
        assert_eq!(crc8(&[0x80]), 0x89);
        assert_eq!(crc8(&[0xFF]), 0xF3);
    }

    #[test]
    fn table_matches_the_bitwise_definition() {
        for value in 0..=255u8 {
            assert_eq!(crc8(&[value]), bitwise(&[value]), "byte {value:#04x}");
        }
        let message: Vec<u8> = (0..1000u32).map(|i| (i * 31 + i / 7) as u8).collect();
        assert_eq!(crc8(&message), bitwise(&message));
    }

    #[test]
    fn update_continues_a_crc() {
        let message = b"the quick brown fox";
        for split in 0..=message.len() {
            let (a, b) = message.split_at(split);
            assert_eq!(update(crc8(a), b), crc8(message), "split at {split}");
        }
    }

    #[test]
    fn a_flipped_bit_changes_the_crc() {
        let message = b"123456789".to_vec();
        for byte in 0..message.len() {
            for bit in 0..8 {
                let mut changed = message.clone();
                changed[byte] ^= 1 << bit;
                assert_ne!(crc8(&changed), 0xF4, "byte {byte} bit {bit}");
            }
        }
    }
}
