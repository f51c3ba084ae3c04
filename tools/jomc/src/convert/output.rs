//! Writing a file whole or not at all: into a temporary file beside it, renamed over it at
//! the end, so a failure never leaves a partial file (nor touches an older one).

use super::Error;
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let fail = |e: std::io::Error| Error::file(path, format!("cannot write: {e}"));
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(fail)?;
    // A temporary file is private (0600); the output is an ordinary file.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::Permissions::from_mode(0o644);
        file.as_file().set_permissions(mode).map_err(fail)?;
    }
    file.write_all(bytes).map_err(fail)?;
    file.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}
