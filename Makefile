# OpenMaps build entry points. `make demo` and `make test` set up what they need.
SWIFT ?= swift
SWIFT_FORMAT ?= swift format
# Debian packages the build needs: C libraries behind the system-library targets.
DEBIAN_PACKAGES ?= zlib1g-dev libzstd-dev tzdata libbz2-dev libsqlite3-dev pkg-config libcairo2-dev libpango1.0-dev fonts-noto-core fonts-noto-cjk libjpeg-dev libfreetype-dev libmicrohttpd-dev libpq-dev libcurl4-openssl-dev libgdal-dev postgresql-15 postgresql-15-postgis-3 libjs-leaflet chromium chromium-driver python3-selenium python3-pip
# Peers `make bench` measures against, from Debian.
BENCH_PACKAGES ?= osmium-tool osm2pgsql bc time wrk nginx-light tilemaker gdal-bin
# Real OSM extracts for the reading and import benchmarks (not needed by the tests): PBF, and
# the seed places' OSM XML (bzip2) and its plain originals where ../shared has them.
BENCH_PBF ?= $(OPENMAPS_DATA)/osm/Helsinki.osm.pbf $(wildcard ../shared/data/osm/*.osm.pbf)
BENCH_XML ?= $(wildcard data/seed-places/*.osm.bz2 ../shared/data/osm/*.osm)
# The extracts the update benchmark edits, then updates beside osm2pgsql --append (Porto's roads: a city's graphs).
UPDATE_PBF ?= $(OPENMAPS_DATA)/osm/Helsinki.osm.pbf $(wildcard ../shared/data/osm/monaco.osm.pbf ../shared/data/osm/andorra.osm.pbf ../shared/data/osm/porto-roads.osm.pbf)
# The extracts the vector tile benchmark cuts next to tilemaker.
VECTOR_PBF ?= $(wildcard ../shared/data/osm/monaco.osm.pbf ../shared/data/osm/andorra.osm.pbf ../shared/data/osm/liechtenstein-2013-08-03.osm.pbf) $(OPENMAPS_DATA)/osm/Helsinki.osm.pbf
# The extracts the tile benchmark renders next to Mapnik.
TILE_PBF ?= $(OPENMAPS_DATA)/osm/Helsinki.osm.pbf $(wildcard ../shared/data/osm/monaco.osm.pbf ../shared/data/osm/andorra.osm.pbf)
# The field's own readers the vector tile test checks our archives with (PyPI, pinned, with
# their dependencies), installed into .build/python for Debian's python3.
PYTHON_TEST_PACKAGES ?= mapbox-vector-tile==2.2.0 pmtiles==3.8.1 shapely==2.2.0 numpy==2.2.6 protobuf==6.33.6 pyclipper==1.4.0 gtfs-realtime-bindings==1.0.0
PYTHON_TEST_DIR := .build/python
# Seconds `make fuzz` runs the parser fuzzer.
FUZZ_SECONDS ?= 60
FUZZ_DIR := Fuzz
BIN := .build/release/openmaps
# Where `make` installs the open data (downloaded, never committed).
export OPENMAPS_DATA ?= $(CURDIR)/.data

.PHONY: all help deps build data demo test lint format bench fuzz clean pytools

all: build

## help: list the targets and what each does.
help:
	@awk '/^## [a-z]+: / { sub(/^## /, ""); name = $$0; sub(/:.*/, "", name); sub(/^[a-z]+: /, ""); \
	  printf "  %-8s %s\n", name, $$0; next } /^## / { sub(/^## /, ""); printf "  %-8s %s\n", "", $$0 }' $(MAKEFILE_LIST)

## deps: install missing Debian packages (as root), or print the exact command to run.
deps:
	@missing=""; for p in $(DEBIAN_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	  else echo "missing Debian packages; run: sudo apt-get install -y$$missing" >&2; exit 1; fi; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "the Swift toolchain (swift 6) is not on PATH" >&2; exit 1; }

## build: the release openmaps binary.
build: deps
	$(SWIFT) build -c release --product openmaps

## demo: the default store with the world's full detail and the seed places' extracts and feeds
## (data/seed-places), every seed example link parsed, converted and answered on them, a gallery
## of Helsinki in every map type, scheme and layer, and its tiles, into demo/ with demo/index.html.
demo: build
	$(BIN) data install --hires --extracts data/seed-places
	$(BIN) data info
	@BIN=$(BIN) sh scripts/demo.sh Examples/seed-links.txt
	@BIN=$(BIN) sh scripts/demo-maps.sh demo Examples/seed-links.txt
	@BIN=$(BIN) sh scripts/demo-serve.sh Examples/seed-links.txt

## data: install the pinned open data into $(OPENMAPS_DATA).
data: deps
	$(SWIFT) build --product openmaps
	.build/debug/openmaps data install

## test: format lint, the open data, then the whole test suite, the vector tiles read back by
## the `pmtiles` and `mapbox-vector-tile` packages, a GTFS-Realtime feed written by Google's
## `gtfs-realtime-bindings` read and followed, and the web app in headless Chromium.
test: deps lint data pytools
	$(SWIFT) test --parallel
	$(SWIFT) build --product openmaps
	PYTHONPATH=$(PYTHON_TEST_DIR) /usr/bin/python3 Tests/vector/vector_tiles_test.py .build/debug/openmaps
	PYTHONPATH=$(PYTHON_TEST_DIR) /usr/bin/python3 Tests/realtime/realtime_test.py .build/debug/openmaps
	/usr/bin/python3 Tests/browser/webapp_test.py .build/debug/openmaps

## pytools: the pinned Python packages the tests read our files with, into .build/python.
pytools:
	@stamp="$(PYTHON_TEST_DIR)/.installed"; if [ "$$(cat $$stamp 2>/dev/null)" != "$(PYTHON_TEST_PACKAGES)" ]; then \
	  rm -rf $(PYTHON_TEST_DIR) && /usr/bin/python3 -m pip install --quiet --disable-pip-version-check --no-deps \
	    --target $(PYTHON_TEST_DIR) $(PYTHON_TEST_PACKAGES) && echo "$(PYTHON_TEST_PACKAGES)" > $$stamp; fi

## lint: check the formatting of every Swift file (swift format, .swift-format).
lint:
	$(SWIFT_FORMAT) lint --strict --recursive --parallel Package.swift Sources Tests Fuzz/Package.swift Fuzz/Sources

## format: reformat every Swift file in place.
format:
	$(SWIFT_FORMAT) format --in-place --recursive --parallel Package.swift Sources Tests Fuzz/Package.swift Fuzz/Sources

## bench: link parsing vs a URLComponents parser, projection, PBF and OSM XML reading vs osmium,
## import and OSM change files vs osm2pgsql into PostGIS, tiles vs Mapnik, vector tiles vs tilemaker, `openmaps open` per seed link, place search
## and reverse geocoding vs Nominatim, routing and tables vs OSRM, isochrones vs Valhalla, terrain vs gdaldem and gdal_contour,
## the server vs nginx, on one core and two.
bench: deps data
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES="$(BENCH_PACKAGES)" || echo "(peers missing: figures without them)"
	$(SWIFT) build -c release --product openmaps-bench
	$(SWIFT) build -c release --product openmaps
	.build/release/openmaps-bench
	.build/release/openmaps-bench pbf $(BENCH_PBF) $(BENCH_XML)
	bash scripts/bench-import.sh $(BENCH_PBF)
	bash scripts/bench-update.sh $(UPDATE_PBF)
	bash scripts/bench-catchup.sh $(UPDATE_PBF)
	bash scripts/bench-tiles.sh $(TILE_PBF)
	bash scripts/bench-vector-tiles.sh $(VECTOR_PBF)
	bash scripts/bench-open.sh Examples/seed-links.txt
	bash scripts/bench-geocode.sh
	bash scripts/bench-route.sh
	bash scripts/bench-isochrone.sh
	bash scripts/bench-terrain.sh
	bash scripts/bench-transit.sh
	bash scripts/bench-serve.sh
	bash scripts/bench-serve-threads.sh

## fuzz: libFuzzer on the link parser (corpus seeded from Examples/) and on the data readers (OSM PBF,
## XML and change files, GTFS feeds; seeds the fuzzer writes), FUZZ_SECONDS each.
fuzz: deps
	cd $(FUZZ_DIR) && $(SWIFT) build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
	mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/artifacts
	sh scripts/seed-fuzz-corpus.sh Examples/seed-links.txt $(FUZZ_DIR)/corpus seed
	sh scripts/seed-fuzz-corpus.sh Examples/real-world-links.txt $(FUZZ_DIR)/corpus wild
	cd $(FUZZ_DIR) && SWIFT_BACKTRACE=enable=no .build/release/MapsURLFuzzer corpus \
	  -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -artifact_prefix=artifacts/ -print_final_stats=1
	mkdir -p $(FUZZ_DIR)/readers-corpus
	cd $(FUZZ_DIR) && .build/release/ReadersFuzzer --seeds readers-corpus
	cd $(FUZZ_DIR) && SWIFT_BACKTRACE=enable=no .build/release/ReadersFuzzer readers-corpus \
	  -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -rss_limit_mb=4096 -timeout=20 -artifact_prefix=artifacts/readers- \
	  -print_final_stats=1

## clean: remove the build folders.
clean:
	rm -rf .build $(FUZZ_DIR)/.build
