# The project's commands. `make test` runs every test (what .ci/run runs).
.PHONY: test host-test lint sh2-toolchain sh2-test fuzz fixtures

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
