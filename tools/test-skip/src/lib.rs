//! A test that cannot run here (a tool or a sample file missing) calls [`skip`] and returns.
//! cargo counts it as passed, so `skip` also appends it to the file named by `JOM_SKIP_LOG`
//! when that is set: `ci/test.sh` sets it, takes the skipped tests out of the passed ones
//! and prints them, so no test passes without running.

use std::io::Write;

/// Reports the current test as skipped for `reason`, on stderr and in `$JOM_SKIP_LOG`.
pub fn skip(reason: &str) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("unnamed test");
    eprintln!("skipped: {test}: {reason}");
    if let Some(path) = std::env::var_os("JOM_SKIP_LOG") {
        let line = format!("{test}: {reason}\n");
        let logged = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut file| file.write_all(line.as_bytes()));
        if let Err(e) = logged {
            panic!(
                "cannot append to JOM_SKIP_LOG {}: {e}",
                path.to_string_lossy()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn appends_the_test_and_its_reason() {
        let dir = std::env::temp_dir().join(format!("test-skip-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("skipped");
        // The variable is set for this process only; no other test here reads it.
        std::env::set_var("JOM_SKIP_LOG", &log);
        super::skip("no such tool");
        std::env::remove_var("JOM_SKIP_LOG");
        let text = std::fs::read_to_string(&log).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            text,
            "tests::appends_the_test_and_its_reason: no such tool\n"
        );
    }
}
