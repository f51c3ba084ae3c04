//! Tests of the CD block's commands, answers and errors.

use super::*;
use crate::{check, check_eq, check_message};

crate::test_suite! {
    fn commands_are_encoded_as_documented() {
        check_eq!(Command::play_sectors(0, 1).0, [0x1080, 150, 0x0080, 1]);
        // LBA 0x12345 is frame address 0x123DB.
        check_eq!(
            Command::play_sectors(0x12345, 0x10003).0,
            [0x1081, 0x23DB, 0x0081, 0x0003]
        );
        check_eq!(Command::get_then_delete(0, 2, 3).0, [0x6300, 0, 0x0200, 3]);
        check_eq!(Command::get_sector_number(0).0, [0x5100, 0, 0, 0]);
        check_eq!(Command::reset_selector(0xFC, 0).0, [0x48FC, 0, 0, 0]);
        check_eq!(Command::set_device_connection(1).0, [0x3000, 0, 0x0100, 0]);
        check_eq!(Command::set_sector_length_2048().0, [0x6000, 0, 0, 0]);
        check_eq!(Command::initialize(1).0, [0x0401, 0xFFFF, 0, 0x040F]);
        check_eq!(Command::end_transfer().code(), code::END_TRANSFER);
        check_eq!(Command::abort_file().code(), code::ABORT_FILE);
        check_eq!(Command::get_status().0, [0; 4]);
    }

    fn responses_are_checked() {
        let paused = Response([0x2100, 0x4101, 0x0100, 0x0096]);
        check_eq!(paused.state(), state::PAUSE);
        check_eq!(paused.fad(), 150);
        check_eq!(check_response(0, paused), Ok(paused));
        let rejected = Response([0xFF00, 0, 0, 0]);
        check_eq!(
            check_response(0x63, rejected),
            Err(CdError::Rejected {
                command: 0x63,
                status: 0xFF
            })
        );
        let busy = Response([0x8300, 0, 0, 0]);
        check_eq!(
            check_response(0x51, busy),
            Err(CdError::Rejected {
                command: 0x51,
                status: 0x83
            })
        );
        for state in [state::OPEN, state::NO_DISC, state::ERROR, state::FATAL] {
            let response = Response([(0x20 | state as u16) << 8, 0, 0, 0]);
            check_eq!(
                check_response(0, response),
                Err(CdError::Drive {
                    status: 0x20 | state
                })
            );
        }
        let playing = Response([(0x40 | state::PLAY as u16) << 8, 0, 0, 0]);
        check!(check_response(0x51, playing).is_ok());
    }

    fn errors_say_what_the_drive_reported() {
        let timeout = Timeout { waiting_for: "a sector from the drive" };
        check_message!(
            CdError::from(timeout),
            "CD block: timed out waiting for a sector from the drive"
        );
        check_message!(
            CdError::Rejected { command: 0x63, status: 0xFF },
            "CD block: command 0x63 refused (status 0xff)"
        );
        check_message!(
            CdError::Drive { status: 0x26 },
            "CD drive: the tray is open (status 0x26)"
        );
        check_message!(CdError::Drive { status: 0x27 }, "CD drive: no disc (status 0x27)");
        check_message!(
            CdError::BadLength { len: 100 },
            "a sector read of 100 bytes: expected a multiple of 2048"
        );
        check_message!(CdError::Unreadable { lba: 17 }, "sector 17 could not be read");
    }
}
