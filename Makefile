# The project's commands. `make test` runs every test (what .ci/run runs).
.PHONY: test host-test lint sh2-toolchain sh2-test fuzz fixtures preview

test:
	ci/test.sh

host-test:
	cargo test --workspace

lint:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings

# Rewrites tests/fixtures/*.jom from tools/jom-write/src/fixtures.rs.
fixtures:
	cargo run -p jom-write --bin jom-fixtures

# Fuzzes Model::from_bytes (needs `cargo install cargo-fuzz` and the nightly toolchain).
FUZZ_SECONDS ?= 300
fuzz:
	cd fuzz && cargo +nightly fuzz run from_bytes -- -max_total_time=$(FUZZ_SECONDS) -max_len=4096

# The SH-2 toolchain (apt packages, sh-elf GCC 12 with libgccjit, rustc_codegen_gcc),
# cached under ~/.cache/jom-sh2.
sh2-toolchain:
	ci/sh2-toolchain.sh

# The crate's tests as SH-2 code under qemu-sh4eb (builds the SH-2 test ELF and its raw
# binary, sh2-test/target/sh2-target/release/jom-sh2-test{,.bin}).
sh2-test:
	ci/sh2-test.sh

# The main job until the Saturn demo exists: convert the example model (OBJ + MTL +
# skeleton JSON) and draw it through the engine and the software VDP1.
preview:
	mkdir -p build
	cargo run --release -q -p jomc -- convert tools/jomc/tests/fixtures/robot.obj -o build/ROBOT.JOM --skeleton tools/jomc/tests/fixtures/robot.json
	cargo run --release -q -p jomc -- info build/ROBOT.JOM
	cargo run --release -q -p jomc -- render build/ROBOT.JOM -o build/robot.png --rotate -20,30,0 --light -1,2,3
