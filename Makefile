# Entry points for building, testing and demonstrating Playhead. `make demo` and `make test`
# work on a fresh Debian machine with the Swift toolchain: they install what they need first.

SWIFT ?= swift
FORMAT_PATHS := Sources Tests Package.swift

.PHONY: deps build demo test format lint fixtures bench

deps:
	scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release

demo: deps
	$(SWIFT) build -c release
	mkdir -p build
	.build/release/playhead play Fixtures/sample-h264-aac.mp4 --snapshot build/demo-snapshot.png --at 5
	@echo "Snapshot written to build/demo-snapshot.png"
	@echo "On a desktop (DISPLAY or WAYLAND_DISPLAY set) the sample played in a window with sound;"
	@echo "without one it played headless. To watch it: .build/release/playhead play Fixtures/sample-h264-aac.mp4"

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

format:
	$(SWIFT) format --in-place --recursive $(FORMAT_PATHS)

lint:
	$(SWIFT) format lint --recursive $(FORMAT_PATHS)

fixtures: deps
	scripts/make-fixtures.sh

bench: deps
	Benchmarks/decode-throughput.sh
	Benchmarks/m3u8-parse.sh
	Benchmarks/abr.sh
	Benchmarks/thumbnails.sh
	Benchmarks/list-player.sh
