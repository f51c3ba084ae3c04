//! The real `saturn-link` binary against a simulated cart, over a pseudo-terminal and TCP:
//! every command, every failure the tool must report (exit status 1, one line), and
//! `saturn-cart-sim`'s own checks.

mod support;

use std::time::Duration;

use saturn_link::address::DEFAULT_LOAD_ADDRESS;
use saturn_link::crc::crc8;
use saturn_link::sim::{Ending, Event, SimCart, SimOptions};
use saturn_link::transport::pty::PtyMaster;
use saturn_link::transport::Link;
use saturn_link::Address;
use support::*;

/// A failure is reported as one line on stderr and status 1.
fn assert_fails_with(ran: &Ran, expected: &str) {
    assert_eq!(ran.status, Some(1), "{ran:?}");
    assert_eq!(ran.stderr.lines().count(), 1, "one line: {ran:?}");
    assert!(
        ran.stderr.starts_with("saturn-link: ") && ran.stderr.contains(expected),
        "expected {expected:?} in {:?}",
        ran.stderr
    );
}

fn sim_cart() -> SimCart {
    SimCart::new(SimOptions::default())
}

#[test]
fn upload_writes_the_file_byte_for_byte_over_a_pseudo_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let (file, data) = program(dir.path(), "prog.bin", 70_000);
    let cart = pty_cart(sim_cart());
    let ran = saturn_link(&["--device", &cart.device, "upload", arg(&file)]);
    assert_eq!(ran.status, Some(0), "{ran:?}");
    assert!(ran.stderr.contains("uploaded"), "{ran:?}");
    let (cart, ending) = cart.finish();
    assert_eq!(ending, Ending::Closed);
    assert_eq!(cart.ram(DEFAULT_LOAD_ADDRESS, 70_000), Some(&data[..]));
    assert_eq!(cart.received(), 70_000 + 10);
    assert_eq!(
        cart.events(),
        [Event::Upload {
            address: DEFAULT_LOAD_ADDRESS,
            len: 70_000,
            crc_matched: true,
            answer: 0,
        }]
    );
}

#[test]
fn upload_writes_low_work_ram_over_tcp() {
    let dir = tempfile::tempdir().unwrap();
    let (file, data) = program(dir.path(), "data.bin", 4097);
    let cart = tcp_cart(sim_cart());
    let ran = saturn_link(&["upload", arg(&file), "2097152", "--device", &cart.device]);
    assert_eq!(ran.status, Some(0), "{ran:?}");
    let (cart, _) = cart.finish();
    assert_eq!(cart.ram(Address(0x0020_0000), 4097), Some(&data[..]));
    assert_eq!(
        cart.ram(Address(0x0020_1001), 1),
        Some(&[0][..]),
        "nothing past it"
    );
}

#[test]
fn download_reads_ram_and_checks_the_crc() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bios-area.bin");
    let mut cart = sim_cart();
    let pattern: Vec<u8> = (0..0x2000u32).map(|i| (i ^ (i >> 8)) as u8).collect();
    assert!(cart.poke(Address(0x0600_0000), &pattern));
    let cart = pty_cart(cart);
    let ran = saturn_link(&[
        "--device",
        &cart.device,
        "download",
        "0x06000000",
        "0x2000",
        "-o",
        arg(&out),
    ]);
    assert_eq!(ran.status, Some(0), "{ran:?}");
    assert_eq!(std::fs::read(&out).unwrap(), pattern);
    let (cart, _) = cart.finish();
    assert_eq!(
        cart.events(),
        [Event::Download {
            address: Address(0x0600_0000),
            len: 0x2000
        }]
    );
}

#[test]
fn download_with_a_wrong_crc_fails_and_writes_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.bin");
    let mut reply = b"12345678".to_vec();
    reply.push(crc8(b"12345678") ^ 0x20);
    let (device, cart) = scripted_pty(9, reply);
    let ran = saturn_link(&[
        "--device",
        &device,
        "download",
        "0x06004000",
        "8",
        "-o",
        arg(&out),
    ]);
    assert_fails_with(&ran, "but the cart sent");
    assert!(!out.exists());
    assert_eq!(
        cart.join().unwrap(),
        [0x01, 0x06, 0x00, 0x40, 0x00, 0, 0, 0, 8]
    );
}

#[test]
fn execute_sends_the_address_and_nothing_else() {
    let cart = pty_cart(SimCart::new(SimOptions {
        relay: b"not read by execute\n".to_vec(),
        ..SimOptions::default()
    }));
    let ran = saturn_link(&["--device", &cart.device, "execute", "0x06004000"]);
    assert_eq!(ran.status, Some(0), "{ran:?}");
    assert_eq!(ran.stdout, "");
    let (cart, _) = cart.finish();
    assert_eq!(
        cart.events(),
        [Event::Execute {
            address: DEFAULT_LOAD_ADDRESS
        }]
    );
    assert_eq!(cart.received(), 5);
}

#[test]
fn console_prints_until_the_result_line() {
    let mut pty = PtyMaster::open().unwrap();
    // What a running program wrote before the PC looked.
    let text = "boot\ntest one: ok\ntest two: ok\n2 passed, 0 failed\nnot shown\n";
    pty.send(text.as_bytes(), Duration::from_secs(1)).unwrap();
    let device = pty.path().display().to_string();
    let ran = saturn_link(&["--device", &device, "console"]);
    assert_eq!(ran.status, Some(0), "{ran:?}");
    assert_eq!(
        ran.stdout,
        "boot\ntest one: ok\ntest two: ok\n2 passed, 0 failed\n"
    );
}

#[test]
fn console_ends_after_the_time_out_with_nothing_received() {
    let pty = PtyMaster::open().unwrap();
    let device = pty.path().display().to_string();
    let ran = saturn_link(&["--device", &device, "--timeout", "0.3", "console"]);
    assert_eq!(ran.status, Some(0), "{ran:?}");
    assert_eq!(ran.stdout, "");
    assert!(
        ran.elapsed >= Duration::from_millis(300) && ran.elapsed < Duration::from_secs(3),
        "{:?}",
        ran.elapsed
    );
}

#[test]
fn run_uploads_executes_and_exits_0_when_none_failed() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = program(dir.path(), "test.bin", 30_000);
    let relay = dir.path().join("relay.txt");
    std::fs::write(
        &relay,
        "jom tests\na ok\nb ok\n2 passed, 0 failed, 1 skipped\n",
    )
    .unwrap();
    let expect = format!("{}@0x06004000", arg(&file));
    let sim = SimProcess::start(&["--relay", arg(&relay), "--expect", &expect]);
    assert!(sim.device.starts_with("/dev/"), "{}", sim.device);
    let ran = saturn_link(&["--device", &sim.device, "run", arg(&file)]);
    assert_eq!(ran.status, Some(0), "{ran:?}");
    assert_eq!(
        ran.stdout,
        "jom tests\na ok\nb ok\n2 passed, 0 failed, 1 skipped\n"
    );
    let (status, stderr) = sim.finish();
    assert_eq!(status, Some(0), "{stderr}");
    assert!(
        stderr.contains("upload of 30000 bytes to 0x06004000: CRC good")
            && stderr.contains("execute at 0x06004000"),
        "{stderr}"
    );
}

#[test]
fn run_exits_1_when_the_program_reports_failures_over_tcp() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = program(dir.path(), "test.bin", 1000);
    let relay = dir.path().join("relay.txt");
    std::fs::write(&relay, "a FAILED\r\n3 passed, 1 failed\r\n").unwrap();
    let expect = format!("{}@0x00200000", arg(&file));
    let sim = SimProcess::start(&["--tcp", "0", "--relay", arg(&relay), "--expect", &expect]);
    assert!(sim.device.starts_with("tcp:127.0.0.1:"), "{}", sim.device);
    let ran = saturn_link(&["--device", &sim.device, "run", arg(&file), "0x00200000"]);
    assert_eq!(ran.status, Some(1), "{ran:?}");
    assert_eq!(ran.stdout, "a FAILED\r\n3 passed, 1 failed\r\n");
    assert!(ran.stderr.contains("reported 1 failed"), "{ran:?}");
    let (status, stderr) = sim.finish();
    assert_eq!(status, Some(0), "{stderr}");
}

#[test]
fn run_exits_1_without_a_result_line_in_bounded_time() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = program(dir.path(), "test.bin", 100);
    let relay = dir.path().join("relay.txt");
    std::fs::write(&relay, "started\n1 passed, 0 failed but not quite\n").unwrap();
    let sim = SimProcess::start(&["--relay", arg(&relay)]);
    let ran = saturn_link(&[
        "--device",
        &sim.device,
        "--timeout",
        "0.4",
        "run",
        arg(&file),
    ]);
    assert_eq!(ran.status, Some(1), "{ran:?}");
    assert_eq!(ran.stdout, "started\n1 passed, 0 failed but not quite\n");
    let last = ran.stderr.lines().last().unwrap();
    assert!(
        last.contains("no result line") && last.contains("nothing received for 0.4 s"),
        "{ran:?}"
    );
    assert!(ran.elapsed < Duration::from_secs(3), "{:?}", ran.elapsed);
    sim.finish();
}

#[test]
fn the_simulated_cart_fails_when_the_expected_program_was_not_uploaded() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = program(dir.path(), "test.bin", 512);
    let other = dir.path().join("other.bin");
    std::fs::write(&other, [0xAA; 512]).unwrap();
    let relay = dir.path().join("relay.txt");
    std::fs::write(&relay, "1 passed, 0 failed\n").unwrap();
    let sim = SimProcess::start(&["--relay", arg(&relay), "--expect", arg(&other)]);
    let ran = saturn_link(&["--device", &sim.device, "run", arg(&file)]);
    assert_eq!(ran.status, Some(0), "{ran:?}");
    let (status, stderr) = sim.finish();
    assert_eq!(status, Some(1), "{stderr}");
    assert!(stderr.contains("differs from"), "{stderr}");

    // Executed elsewhere than where the program is.
    let sim = SimProcess::start(&[
        "--relay",
        arg(&relay),
        "--expect",
        &format!("{}@0x00200000", arg(&file)),
    ]);
    let ran = saturn_link(&["--device", &sim.device, "run", arg(&file)]);
    assert_eq!(ran.status, Some(0), "{ran:?}");
    let (status, stderr) = sim.finish();
    assert_eq!(status, Some(1), "{stderr}");
    assert!(
        stderr.contains("executed 0x06004000, expected 0x00200000"),
        "{stderr}"
    );
}

#[test]
fn the_simulated_cart_can_exit_once_it_has_relayed() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = program(dir.path(), "test.bin", 100);
    let relay = dir.path().join("relay.txt");
    std::fs::write(&relay, "1 passed, 0 failed\n").unwrap();
    for transport in [&[][..], &["--tcp", "0"][..]] {
        let mut args = vec!["--relay", arg(&relay), "--exit-after-relay"];
        args.extend_from_slice(transport);
        let sim = SimProcess::start(&args);
        let ran = saturn_link(&["--device", &sim.device, "run", arg(&file)]);
        assert_eq!(ran.status, Some(0), "{transport:?}: {ran:?}");
        assert_eq!(ran.stdout, "1 passed, 0 failed\n");
        let (status, stderr) = sim.finish();
        assert_eq!(status, Some(0), "{stderr}");
    }
}

#[test]
fn a_cart_that_answers_bad_crc_fails_the_upload() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = program(dir.path(), "prog.bin", 2000);
    let sim = SimProcess::start(&["--bad-crc"]);
    let ran = saturn_link(&["--device", &sim.device, "run", arg(&file)]);
    assert_fails_with(
        &ran,
        "answered 0x01 (bad CRC) to the upload of 2000 bytes to 0x06004000",
    );
    assert_eq!(ran.stdout, "");
    let (_, stderr) = sim.finish();
    assert!(
        !stderr.contains("execute"),
        "no execute after a bad CRC: {stderr}"
    );
}

#[test]
fn a_cart_that_stops_answering_times_out() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = program(dir.path(), "prog.bin", 2000);
    for (silent_after, step) in [
        ("2009", "waiting for the answer to the upload"),
        ("0", "waiting for the answer to the upload"),
    ] {
        let sim = SimProcess::start(&["--silent-after", silent_after]);
        let ran = saturn_link(&[
            "--device",
            &sim.device,
            "--timeout",
            "0.5",
            "upload",
            arg(&file),
        ]);
        assert_fails_with(&ran, "time-out: nothing moved on");
        assert!(ran.stderr.contains(step), "{ran:?}");
        assert!(
            ran.elapsed >= Duration::from_millis(500) && ran.elapsed < Duration::from_secs(3),
            "{:?}",
            ran.elapsed
        );
        sim.finish();
    }
    // A download whose request is cut short.
    let cart = pty_cart(SimCart::new(SimOptions {
        silent_after: Some(8),
        ..SimOptions::default()
    }));
    let out = dir.path().join("out.bin");
    let ran = saturn_link(&[
        "--device",
        &cart.device,
        "--timeout",
        "0.3",
        "download",
        "0x06004000",
        "64",
        "-o",
        arg(&out),
    ]);
    assert_fails_with(
        &ran,
        "receiving the download of 64 bytes from 0x06004000 (0 of them received)",
    );
    assert!(!out.exists());
    cart.finish();
}

#[test]
fn a_missing_device_path_fails() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = program(dir.path(), "prog.bin", 16);
    let missing = dir.path().join("ttyUSB9");
    let ran = saturn_link(&["--device", arg(&missing), "upload", arg(&file)]);
    assert_fails_with(
        &ran,
        &format!("cannot open {}: No such file", missing.display()),
    );
    // A file that is no terminal.
    let ran = saturn_link(&["--device", arg(&file), "upload", arg(&file)]);
    assert_fails_with(&ran, "not a serial device or pseudo-terminal");
}

#[test]
fn a_refused_tcp_connection_fails() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = program(dir.path(), "prog.bin", 16);
    // A port that was free a moment ago.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let device = format!("tcp:127.0.0.1:{port}");
    let ran = saturn_link(&["--device", &device, "run", arg(&file)]);
    assert_fails_with(&ran, &format!("cannot open {device}: "));
}

#[test]
fn a_file_too_big_for_work_ram_is_refused_before_anything_is_sent() {
    let dir = tempfile::tempdir().unwrap();
    let (big, _) = program(dir.path(), "big.bin", 0xFC001);
    let (low, _) = program(dir.path(), "low.bin", 0x1000);
    let (empty, _) = program(dir.path(), "empty.bin", 0);
    let cart = pty_cart(sim_cart());
    for (args, expected) in [
        (
            vec!["upload", arg(&big)],
            "big.bin: 1032193 bytes from 0x06004000 would end at 0x06100001, past the end of \
             high work RAM 0x06004000-0x060fffff (at most 1032192 bytes fit from 0x06004000)",
        ),
        (
            vec!["run", arg(&low), "0x002ff800"],
            "low.bin: 4096 bytes from 0x002ff800 would end at 0x00300800",
        ),
        (vec!["upload", arg(&empty)], "empty.bin: nothing to upload"),
        (
            vec!["download", "0x060ff000", "0x1001", "-o", "unused.bin"],
            "4097 bytes from 0x060ff000 would end at 0x06100001",
        ),
    ] {
        let mut all = vec!["--device", &cart.device];
        all.extend(args);
        assert_fails_with(&saturn_link(&all), expected);
    }
    let (cart, ending) = cart.stop();
    assert_eq!((cart.received(), ending), (0, Ending::Stopped));
}

#[test]
fn an_address_outside_work_ram_is_refused_before_anything_is_sent() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = program(dir.path(), "prog.bin", 16);
    let cart = tcp_cart(sim_cart());
    for (args, expected) in [
        (
            vec!["upload", arg(&file), "0x06000000"],
            "cannot upload to 0x06000000: not in work RAM",
        ),
        (
            vec!["run", arg(&file), "0x06003ff0"],
            "cannot upload to 0x06003ff0: not in work RAM",
        ),
        (
            vec!["execute", "0x06002000"],
            "cannot execute at 0x06002000: not in work RAM",
        ),
        (vec!["execute", "0x06004001"], "odd address"),
        (
            vec!["download", "0x25c00000", "16", "-o", "unused.bin"],
            "cannot download from 0x25c00000: not in work RAM",
        ),
        (vec!["upload", arg(&file), "0x06100000"], "not in work RAM"),
    ] {
        let mut all = vec!["--device", &cart.device];
        all.extend(args);
        assert_fails_with(&saturn_link(&all), expected);
    }
    let (cart, ending) = cart.stop();
    assert_eq!((cart.received(), ending), (0, Ending::Stopped));
}

#[test]
fn bad_arguments_exit_1() {
    for args in [
        &["upload"][..],
        &["upload", "x.bin", "0x12g"],
        &["download", "0x06000000", "16"],
        &["--timeout", "0", "console"],
        &["--device", "tcp:nohost", "console"],
        &["frobnicate"],
    ] {
        let ran = saturn_link(args);
        assert_eq!(ran.status, Some(1), "{args:?}: {ran:?}");
    }
    assert_eq!(saturn_link(&["--help"]).status, Some(0));
}
