//! Where a conversion's importers read their files from (the disk, or bytes in memory for
//! the fuzz targets), which files they read (a build script reruns when one changes), and
//! the warnings they give (the command line prints them, a build script passes them to
//! cargo).

use std::cell::RefCell;
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

/// The files one conversion reads and the warnings it gives.
#[derive(Default)]
pub struct Sources {
    /// `None`: the disk. Else the only files there are, by path.
    memory: Option<HashMap<PathBuf, Vec<u8>>>,
    read: RefCell<Vec<PathBuf>>,
    warnings: RefCell<Vec<String>>,
}

impl Sources {
    /// Files read from the disk.
    pub fn disk() -> Self {
        Self::default()
    }

    /// Files read from `files` only (path and content); any other path is "not found".
    pub fn memory(files: impl IntoIterator<Item = (PathBuf, Vec<u8>)>) -> Self {
        Self {
            memory: Some(files.into_iter().collect()),
            ..Self::default()
        }
    }

    /// The bytes of `path`, which is recorded as read (even when it cannot be: a build
    /// script must rerun once a missing file appears).
    pub fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        {
            let mut read = self.read.borrow_mut();
            if !read.iter().any(|p| p == path) {
                read.push(path.to_path_buf());
            }
        }
        match &self.memory {
            None => std::fs::read(path),
            Some(files) => files
                .get(path)
                .cloned()
                .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no such file in memory")),
        }
    }

    /// The text of `path` (UTF-8), recorded as [`Sources::read`] does.
    pub fn read_to_string(&self, path: &Path) -> io::Result<String> {
        String::from_utf8(self.read(path)?).map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                "stream did not contain valid UTF-8",
            )
        })
    }

    /// Keeps a warning for the user.
    pub fn warn(&self, message: impl Into<String>) {
        self.warnings.borrow_mut().push(message.into());
    }

    /// The files read so far, in the order first read.
    pub fn files_read(&self) -> Vec<PathBuf> {
        self.read.borrow().clone()
    }

    /// The warnings given so far, in order.
    pub fn warnings(&self) -> Vec<String> {
        self.warnings.borrow().clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_files_are_the_only_ones_and_every_read_is_recorded_once() {
        let sources = Sources::memory([(PathBuf::from("a.obj"), b"v 0 0 0\n".to_vec())]);
        assert_eq!(
            sources.read_to_string(Path::new("a.obj")).unwrap(),
            "v 0 0 0\n"
        );
        let missing = sources.read(Path::new("a.mtl")).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        sources.read(Path::new("a.obj")).unwrap();
        assert_eq!(
            sources.files_read(),
            [PathBuf::from("a.obj"), PathBuf::from("a.mtl")]
        );
    }
}
