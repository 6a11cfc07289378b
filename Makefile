# ParallaxKit: the two set-up commands are `make run` and `make test`.
# Both install what they need on a fresh Debian machine.

SWIFT ?= swift
# The apps (gallery, demo) are a package of their own beside the library.
APPS := --package-path Apps
# System packages the build and tests need: the codecs (JPEG, PNG with
# ISA-L to inflate photos and screenshots, WebP, HEIF, AVIF), SDL for the gallery,
# SQLite for its library index, libcurl for its HTTP transport, Xvfb for its
# window tests, and for the decoder's conformance corpus curl, Pillow (the
# reference decoder for JPEG and PNG), libjpeg-turbo's cjpeg/jpegtran and the
# codecs' own tools (cwebp/dwebp, heif-enc/heif-convert, avifenc/avifdec),
# which make the WebP, HEIF and AVIF battery and decode its references;
# libvips-tools for the thumbnail benchmark's comparison; exiftool, the
# independent reader the camera and lens names are checked against.
SYSTEM_PACKAGES := python3 git libjpeg62-turbo-dev libpng-dev libisal-dev libwebp-dev libheif-dev libavif-dev pkg-config \
	libsdl2-dev libsdl2-ttf-dev libsqlite3-dev libcurl4-openssl-dev fonts-dejavu-core xvfb xauth xdotool \
	curl python3-pil libjpeg-turbo-progs webp libheif-examples libavif-bin libvips-tools valgrind \
	libimage-exiftool-perl

.PHONY: run demo test test-fetch test-library-build test-apps-build test-library test-apps bench deps build clean media check-apple fuzz docs

deps:
	@scripts/ensure-packages.sh $(SYSTEM_PACKAGES)
	@command -v $(SWIFT) >/dev/null || { echo "Swift 6 toolchain not found on PATH (install it from swift.org)"; exit 1; }

## The main job: the photo gallery (a window, or headless frames and an
## animation when there is no display). By default on real photos from
## Debian packages, served with the simulated server's 0-2 s latency
## (RolfHendriks' demo) so the placeholders and fades can be seen;
## `make run PHOTOS=~/Pictures` shows your own library at disk speed.
PHOTOS ?=
run: deps
	$(if $(PHOTOS),,scripts/fetch-photos.sh)
	$(SWIFT) build $(APPS) -c release --product parallax-gallery
	$$($(SWIFT) build $(APPS) -c release --show-bin-path)/parallax-gallery $(if $(PHOTOS),--photos "$(PHOTOS)",--latency seed)

## The engine's tuning demo: visible items, frames and parallax offsets.
demo: deps
	$(SWIFT) build $(APPS) --product parallax-demo
	$$($(SWIFT) build $(APPS) --show-bin-path)/parallax-demo --layout grid --items 1000 --offset 1200

## Every test, in two lanes that run side by side (each prints its output
## when it ends): the library's (its suite with the real photos and the
## decoder's conformance corpus; the loader's and the disk cache's
## concurrency tests again under the thread sanitizer; the DocC documentation
## of every library module, with warnings as errors; the benchmark report
## writer on sample input; the decoder under libFuzzer for 10 s a side; the
## sanitizer's build holds only what its tests need, PARALLAXKIT_TESTS_ONLY
## and PARALLAXKIT_TEST_SOURCES in Package.swift) and the apps' (their suite,
## then the HTTP transport's against nginx). The apps' build and suite are the
## longer, so the fuzzing runs in the library's lane, and both lanes end
## together. Each suite runs its tests in parallel, and every test waits for
## events, not for the clock, so one lane's load never fails the other's
## tests. The loader's stress test runs 50,000 events in both of its runs
## (200,000 when run alone).
test: deps
	@scripts/step.sh --reset
	@$(MAKE) --no-print-directory -j3 --output-sync=target test-library test-apps
	@echo "make test: every step passed; the time each took:"
	@scripts/step.sh --summary

# The photos and the corpus are fetched while both builds run (a third job,
# mostly waiting on the network); each lane's tests start once its build and
# the fetch are done. The two lanes then take about the same time on two
# cores, so neither runs below the other.
test-fetch:
	scripts/step.sh "photos, conformance corpus" sh -c 'scripts/fetch-photos.sh && scripts/fetch-conformance.sh'

test-library-build:
	scripts/step.sh "library: build" $(SWIFT) build --build-tests

test-apps-build:
	scripts/step.sh "apps: build" $(SWIFT) build $(APPS) --build-tests

# The suites run again under the thread sanitizer (each is the file of its name in
# Tests/ParallaxImagesTests), and the fixtures they use: the sanitizer's build
# compiles these files alone (PARALLAXKIT_TEST_SOURCES in Package.swift).
TSAN_SUITES = LoaderTests LoaderStressTests StageLimiterTests LoadPipelineTests ImageBindingTableTests \
	DiskCacheTests BlockingWorkQueueTests KeptThumbnailCheckTests FolderScanStreamingTests
TSAN_FIXTURES = CacheFixtures ManualClock TestImages FolderTreeTests
comma = ,
empty =
space = $(empty) $(empty)

test-library: test-fetch test-library-build
	scripts/step.sh "library: tests" env PARALLAXKIT_STRESS_EVENTS=50000 $(SWIFT) test --skip-build
	scripts/step.sh "thread sanitizer" env PARALLAXKIT_TESTS_ONLY=ParallaxImagesTests PARALLAXKIT_STRESS_EVENTS=50000 \
		PARALLAXKIT_TEST_SOURCES="$(subst $(space),$(comma),$(addsuffix .swift,$(TSAN_SUITES) $(TSAN_FIXTURES)))" \
		$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter "$(subst $(space),|,$(TSAN_SUITES))"
	scripts/step.sh "documentation" scripts/docs.sh
	scripts/step.sh "benchmark report writer" scripts/test-bench-report.sh
	scripts/step.sh "fuzzing" scripts/fuzz.sh 10

test-apps: test-fetch test-apps-build
	scripts/step.sh "apps: tests" env PARALLAX_BIN_PATH="$$($(SWIFT) build $(APPS) --show-bin-path)" \
		$(SWIFT) test $(APPS) --skip-build --skip ParallaxImagesHTTPTests
	scripts/step.sh "apps: HTTP transport tests" $(SWIFT) test $(APPS) --skip-build --filter ParallaxImagesHTTPTests

## The documentation (DocC archives in .build-docs/archives).
docs: deps
	scripts/docs.sh

## The decoder under libFuzzer with sanitizers, the C layer and the Swift
## entry point, FUZZ_SECONDS (default 300) each; `make test` runs 10 s each.
fuzz: deps
	scripts/fuzz.sh

## Benchmarks (release build of Benchmarks/), written to BENCHMARKS.md:
## the layout suites, thumbnails from real photos against libvips, the
## decoder's memory on hostile files against a baseline, image indexes from
## hostile servers against a baseline, a photo tree's listing against find,
## launches on library trees of 3,000 to 300,000 photos, the HTTP transport
## against nginx, the gallery's sessions and memory, its frames counted in
## instructions under callgrind (valgrind), and its window's CPU under Xvfb.
bench: deps
	scripts/bench.sh
	scripts/bench-thumbnails.sh
	scripts/bench-hostile.sh
	scripts/bench-index.sh
	scripts/bench-library-listing.sh
	scripts/bench-library.sh
	scripts/bench-transport.sh
	scripts/bench-gallery.sh
	scripts/bench-window.sh
	scripts/bench-frame-instructions.sh

## The Apple surfaces (UIKit, SwiftUI, the iOS example, the README's quick
## starts) type-checked for iOS in Swift 6 mode against the iOS 16.5 and
## 17.0 SDKs. Not part of `make test`: it needs SDKs a fresh machine does not
## have; without them it says how to get them and fails.
check-apple:
	@scripts/ensure-packages.sh python3 git
	scripts/check-apple.sh

build: deps
	$(SWIFT) build
	$(SWIFT) build $(APPS)

clean:
	rm -rf .build .build-* .build_* Apps/.build Benchmarks/.build Fuzz/.build
