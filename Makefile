# The project's commands. `make test` runs every test (what .ci/run runs).
.PHONY: floor-iso floor-test billboards-iso billboards-test test host-test lint fmt fmt-check sh2-toolchain sh2-test capi capi-test c-example fuzz fixtures preview iso run emu-test bench FORCE \
	boot-rom console-tests console-test run-demo \
	showcase showcase-test showcase-bench world run-world world-test world-bench

test:
	ci/test.sh

host-test:
	cargo test --workspace

lint: fmt-check
	cargo clippy --workspace --all-targets -- -D warnings

# The crates outside the workspace (built for the SH-2 or with the nightly fuzzer, each its
# own workspace), which `cargo fmt --all` does not reach.
OUTSIDE_CRATES := sh2-test fuzz demo bench showcase world macros/sh2-check tools/saturn-rom/disc-boot

# rustfmt on the workspace and on every crate outside it. fmt-check only checks (CI's step),
# every crate even after one fails, so that one run lists every file to format.
fmt:
	cargo fmt --all
	set -e; for crate in $(OUTSIDE_CRATES); do cargo fmt --manifest-path $$crate/Cargo.toml; done

fmt-check:
	status=0; cargo fmt --all --check || status=1; \
	for crate in $(OUTSIDE_CRATES); do \
		cargo fmt --manifest-path $$crate/Cargo.toml --check || { echo "fmt-check: $$crate/ is not rustfmt'd"; status=1; }; \
	done; exit $$status

# Rewrites tests/fixtures/*.jom from tools/jom-write/src/fixtures.rs.
fixtures:
	cargo run -p jom-write --bin jom-fixtures
	cargo run -p jomc -- plane demo/assets/floor.png -o tests/fixtures/floor.bin

# Fuzzes every target of fuzz/ (the JOM reader, the ISO 9660 reader, the importers'
# readers, saturn-iso's IP template reader) for FUZZ_SECONDS each, from seeds of real inputs (ci/fuzz.sh); needs the nightly
# toolchain and cargo-fuzz, which ci/setup.sh installs.
FUZZ_SECONDS ?= 300
fuzz:
	ci/setup.sh fuzz
	ci/fuzz.sh $(FUZZ_SECONDS)

# The SH-2 toolchain (apt packages, sh-elf GCC 12 with libgccjit, rustc_codegen_gcc),
# cached under ~/.cache/jom-sh2.
sh2-toolchain:
	ci/setup.sh sh2

# The crate's tests as SH-2 code under qemu-sh4eb (builds the SH-2 test ELF and its raw
# binary, sh2-test/target/sh2-target/release/jom-sh2-test{,.bin}).
sh2-test:
	ci/sh2-test.sh

# The C interface (capi/, docs/c.md): build/c/libjom.a for sh-elf-gcc programs, and its
# ABI test as SH-2 code under qemu-sh4eb against the same C built for the host.
capi:
	ci/capi.sh

capi-test:
	ci/capi.sh qemu
	ci/capi-test.sh

# The C example (examples/c/: main.c, a Makefile of plain sh-elf-gcc) and its CD image,
# build/c/c-example.iso, with the demo's robot as DEMO.JOM.
c-example: build/DEMO.JOM
	ci/capi.sh
	ci/c-example.sh build

# The demo's robot, converted from demo/assets (OBJ + MTL + PNG + skeleton JSON) by jomc,
# then drawn on the host through the engine and the software VDP1.
preview: build/DEMO.JOM
	cargo run --release -q -p jomc -- info build/DEMO.JOM
	cargo run --release -q -p jomc -- render build/DEMO.JOM -o build/robot.png --rotate -15,30,0 --light -1,2,3 --anim walk --time 6

# `make run-demo MODEL=FILE` (any model jomc converts; docs/blender.md): the demo shows that
# model instead of the robot (converted every time, since the choice may change).
ifneq ($(MODEL),)
build/DEMO.JOM: $(MODEL) FORCE
	mkdir -p build
	cargo run --release -q -p jomc -- convert $(MODEL) -o $@ --embed-textures
FORCE:
else
build/DEMO.JOM: demo/assets/robot.obj demo/assets/robot.mtl demo/assets/robot.json demo/assets/chest.png demo/assets/face.png
	mkdir -p build
	cargo run --release -q -p jomc -- convert demo/assets/robot.obj -o $@ --embed-textures --skeleton demo/assets/robot.json
endif

# The VDP2 floor's picture of the demo's `floor` feature (jomc plane, docs/vdp2.md).
build/FLOOR.BIN: demo/assets/floor.png
	mkdir -p build
	cargo run --release -q -p jomc -- plane $< -o $@

# The demo's figures on the VDP2 floor: build/floor.iso; `make floor-test` checks its
# fixed frame in both emulators against the host's picture (ci/floor.sh; part of emu-test).
floor-iso:
	ci/floor.sh build

floor-test:
	ci/floor.sh test

# The demo's fixed frame with billboards among its figures, in a fog (demo/src/billboards.rs,
# docs/billboards.md): build/billboards.iso; `make billboards-test` checks it in both
# emulators against the software VDP1's picture (ci/billboards.sh; part of emu-test).
billboards-iso:
	ci/billboards.sh build

billboards-test:
	ci/billboards.sh test

# The demo CD image (build/demo.iso + .cue) and its raw binary for cartridge loaders
# (build/demo.bin, load and run at 0x06004000). `make iso IP_TEMPLATE=FILE`: an image for a
# console, Sega's security code and area codes taken from FILE, your SDK's IP.BIN
# (saturn-iso --ip-template; docs/boot.md, "A disc for a console").
IP_TEMPLATE ?=
iso: build/DEMO.JOM
	ci/setup.sh iso
	IP_TEMPLATE="$(IP_TEMPLATE)" ci/demo.sh build

# The main job: boots the showcase (EMU=yabause, the default, or mednafen; HEADLESS=1: no
# window, build/showcase-screenshot.png; BIOS=FILE, REGION=R with Mednafen: ci/run.sh).
# `make run-demo` boots the robot demo, the smallest example, the same ways.
EMU ?= yabause
REGION ?=
run: showcase
	EMU=$(EMU) BIOS=$(BIOS) REGION=$(REGION) HEADLESS=$(HEADLESS) ci/run.sh showcase 352
run-demo: iso
	EMU=$(EMU) BIOS=$(BIOS) REGION=$(REGION) HEADLESS=$(HEADLESS) ci/run.sh demo 320

# Our boot ROM for Mednafen with the disc boot program (build/saturn-boot.rom): it boots
# any of our CD images as a BIOS does.
boot-rom:
	ci/boot-rom.sh

# The test program for a console, in two programs (all the suites do not fit high work RAM
# in one): build/jom-tests.bin (the renderer's suites) and build/jom-tests-2.bin (the others
# and the hardware tests), each a cartridge loader's upload (run at 0x06004000), and their
# .iso + .cue (a disc, or an optical drive emulator's image).
console-tests:
	ci/setup.sh iso
	ci/sh2-test-image.sh jom-tests render-suites
	ci/sh2-test-image.sh jom-tests-2 other-suites

# Sends the test program to a console through the USB dev cart and prints its report as it
# runs: exits with its result (N passed, N failed). DEVICE: usb (the first FT245 cart, the
# default), a serial device or pseudo-terminal path, or tcp:HOST:PORT (saturn-link).
DEVICE ?= usb
# The programs sent, one after the other (both by default).
PROGRAMS ?= jom-tests jom-tests-2
console-test: console-tests
	set -e; for program in $(PROGRAMS); do \
		cargo run --release -q -p saturn-link -- --device $(DEVICE) run build/$$program.bin; \
	done

# The emulator tests, one emulator at a time: the boot smoke test; the crate's tests (and
# hardware tests) on the emulated Saturn, results through backup RAM; `make console-test`
# against a simulated USB dev cart (ci/console-test-sim.sh); then the demo's fixed
# frame in Yabause compared with the software VDP1's render of the same scene, then the same
# with each converted model of ci/models.sh (the 3DS cow and gel, the PlayStation hand,
# Blender's glTF rig and UV-atlas box) as DEMO.JOM; then a game of `jomc new` built and booted
# (its fixed frame against jomc render's); the crate's tests in Mednafen as an NTSC console
# (jp, what Mednafen picks for our discs) and as a PAL one (eu); then the C example's fixed
# frame in Yabause (compared as the demo's) and its run in Mednafen (ci/c-example.sh test),
# and again with billboards and fog (ci/c-example.sh test billboards).
emu-test: build/DEMO.JOM
	ci/emu/smoke.sh
	ci/sh2-test-saturn.sh
	ci/console-test-sim.sh
	ci/demo.sh test
	$(MAKE) --no-print-directory showcase-test
	ci/models.sh
	ci/newgame.sh
	ci/sh2-test-mednafen.sh --region jp
	ci/sh2-test-mednafen.sh --region eu
	ci/capi.sh
	ci/c-example.sh test
	ci/c-example.sh test billboards
	ci/floor.sh test
	ci/billboards.sh test
	$(MAKE) --no-print-directory world-test

# Cycle counts of the engine's phases on the SH-2 (its free-running timer) in Mednafen
# (our boot ROM) then Yabause; prints them against the budgets and rewrites the table in
# BENCHMARKS.md.
bench:
	ci/bench.sh

# The showcase (showcase/, docs/showcase.md): its scene is built by Blender from
# tools/blender/showcase.py (no art in the repository), exported as glTF and converted by
# jomc; the two models' textures together take 9 KiB of the renderer's 348 KiB.
SHOWCASE_MODELS = build/showcase/HERO.JOM build/showcase/GROUND.JOM
build/showcase/hero.glb build/showcase/ground.glb build/showcase/hero_lod.glb &: tools/blender/showcase.py
	ci/setup.sh blender
	mkdir -p build/showcase
	PATH=/usr/bin:$$PATH blender -b --factory-startup --python tools/blender/showcase.py -- build/showcase > build/showcase/blender.log 2>&1 || { cat build/showcase/blender.log; exit 1; }
	grep '^showcase.py:' build/showcase/blender.log
build/showcase/HERO.JOM: build/showcase/hero.glb
	cargo run --release -q -p jomc -- convert $< -o $@ --embed-textures --vram-budget 65536
build/showcase/GROUND.JOM: build/showcase/ground.glb
	cargo run --release -q -p jomc -- convert $< -o $@ --embed-textures --vram-budget 16384

# The showcase's CD image (build/showcase.iso + .cue) and raw binary (build/showcase.bin);
# IP_TEMPLATE=FILE as for `make iso`.
showcase: $(SHOWCASE_MODELS)
	ci/setup.sh iso
	IP_TEMPLATE="$(IP_TEMPLATE)" ci/showcase.sh build

# The showcase's fixed frame in Yabause against the software VDP1, then the showcase run in
# Mednafen as a PAL console (eu), which must run at its 49.92 fields a second rather than
# stop on its clock-failure screen (part of emu-test).
showcase-test: $(SHOWCASE_MODELS)
	ci/setup.sh iso yabause mednafen
	ci/showcase.sh test
	ci/showcase.sh region eu

# The showcase's frame rate and phase times over 1,080 frames (a whole turn of the camera)
# in Mednafen (BENCHMARKS.md, "Showcase"); REGION=eu measures it on a PAL console.
showcase-bench: $(SHOWCASE_MODELS)
	ci/setup.sh iso mednafen
	ci/showcase.sh bench $(REGION)

# The world, the second showcase (world/, docs/world.md): the showcase's character walking
# in a village built by Blender from tools/blender/world.py (no art in the repository),
# exported as glTF and converted by jomc (the village and the forest), on the VDP2 floor of
# the same script's grass (jomc plane); the character is the showcase's with its lower level
# of detail (tools/blender/showcase.py's hero_lod.glb, docs/levels.md).
WORLD_FILES = build/world/HERO.JOM build/world/LEVEL.JOM build/world/FOREST.JOM build/world/GRASS.BIN
build/world/level.glb build/world/forest.glb build/world/grass.png &: tools/blender/world.py
	ci/setup.sh blender
	mkdir -p build/world
	PATH=/usr/bin:$$PATH blender -b --factory-startup --python tools/blender/world.py -- build/world > build/world/blender.log 2>&1 || { cat build/world/blender.log; exit 1; }
	grep '^world.py:' build/world/blender.log
build/world/LEVEL.JOM: build/world/level.glb
	cargo run --release -q -p jomc -- convert $< -o $@ --embed-textures --vram-budget 8192 --cells 6
build/world/FOREST.JOM: build/world/forest.glb
	cargo run --release -q -p jomc -- convert $< -o $@ --embed-textures --vram-budget 2048
build/world/GRASS.BIN: build/world/grass.png
	cargo run --release -q -p jomc -- plane $< -o $@
build/world/HERO.JOM: build/showcase/hero_lod.glb
	mkdir -p $(@D)
	cargo run --release -q -p jomc -- convert $< -o $@ --embed-textures --vram-budget 65536

# The world's CD image (build/world.iso + .cue) and raw binary (build/world.bin);
# IP_TEMPLATE=FILE as for `make iso`; FOG=1: in its fog (the `fog` feature). `make
# run-world` boots it (EMU, HEADLESS, BIOS, REGION as `make run`).
world: $(WORLD_FILES)
	ci/setup.sh iso
	IP_TEMPLATE="$(IP_TEMPLATE)" ci/world.sh build $(if $(FOG),fog)
run-world: world
	EMU=$(EMU) BIOS=$(BIOS) REGION=$(REGION) HEADLESS=$(HEADLESS) ci/run.sh world 352

# The world's fixed frame in Yabause and Mednafen against the host's picture (the software
# VDP1 over jom::vdp2's floor and sky; part of emu-test).
world-test: $(WORLD_FILES)
	ci/setup.sh iso yabause mednafen
	ci/world.sh test

# The world's frame rate, polygons drawn and phase times over 1,080 frames of its walk in
# Mednafen (BENCHMARKS.md, "World").
world-bench: $(WORLD_FILES)
	ci/setup.sh iso mednafen
	ci/world.sh bench
