//! What both binaries do with their command line: clap reads it; its help and version go to
//! stdout with status 0, its errors to stderr with status 1 (the tools' one failure status,
//! where clap's own would be 2).

use std::process::ExitCode;

/// The arguments, or the status to exit with once clap has printed why not.
pub fn parse<C: clap::Parser>() -> Result<C, ExitCode> {
    C::try_parse().map_err(|e| {
        let _ = e.print();
        if e.use_stderr() {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    })
}
