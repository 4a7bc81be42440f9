# reclaimscope: eBPF observability for Linux memory reclaim.
#
#   make run        install what is missing, build, then `probe` and a
#                   10-second `record` on the running kernel (root)
#   make demo       the writeback reproducer on the series kernel in qemu:
#                   top's frames live, then the report (build/demo)
#   make test       install what is missing, then unit, host and VM tests
#                   (what .ci/run runs)
#   make            build build/reclaimscope
#   make deps       install build and test dependencies (Debian 12, root)
#   make unit       unit tests only
#   make hosttest   host test on the running kernel
#   make vmtest     VM test on the kernel with the MGLRU series
#   make vmlinux    regenerate vmlinux/ARCH/vmlinux.h (x86 and arm64)
#   make ARCH=arm64 the arm64 build (build/arm64/reclaimscope)
#   make arm64build the arm64 package and its program checked, each build
#                   on the other's kernel refused (in make test)
#   make vmtest-arm64 the core scenario in an arm64 guest (not in test)
#   make format     clang-format the sources
#   make install    binary, man page and systemd unit (PREFIX, DESTDIR)
#   make fuzz       the recording reader under libFuzzer (FUZZ_SECONDS=60)
#   make reporttest report/diff/HTML on the VM recordings (after vmtest)
#   make labtest    scripts/lab and tests/vm/boot without a guest (seconds)
#   make viewtest   report and diff on generated hostile recordings: exact
#                   verdicts, escapes, overwrites, 10^5 memcgs under 1 GiB
#   make labsmoke   the reclaim lab at its smallest, its table checked
#   make labkernel  seed 011 judged from its patch, kernels built here
#                   (labkernel-arm64: on arm64, in arm64 guests)
#   make promtest   the Prometheus rules: promtool check and unit tests
#   make deb        the Debian package (build/deb), lintian-clean
#   make debtest    the package installed, run and removed in a bookworm
#                   chroot (debootstrap)
#   make sanitize   unit and host tests built with ASan+UBSan (build/san)
#   make soak       an hour in the VM: nothing dropped, flat RSS (not in test)
#   make lint       clang-format check, cppcheck and clang-tidy on src/
#   make bench      the benchmark suite on this host; writes BENCHMARKS.md
#                   (installs bpftrace and perf, the peers it compares)

CC ?= cc
CLANG ?= clang
BPFTOOL ?= bpftool
OUT := build
# ARCH: the architecture built for, this machine's by default (an ARCH in
# the environment, a kernel developer's, is not taken).  ARCH=arm64 on x86
# cross-builds, with Debian's aarch64 compiler and the :arm64 libraries
# (scripts/install-deps.sh --cross), in build/arm64; the BPF objects are
# compiled against vmlinux/ARCH/vmlinux.h for that target, which the
# program names (RS_BPF_ARCH_*, src/collect/kernel.c) to refuse a kernel
# of another architecture.
HOST_ARCH := $(if $(filter aarch64 arm64,$(shell uname -m)),arm64,x86)
ARCH := $(HOST_ARCH)
ifeq ($(filter x86 arm64,$(ARCH)),)
$(error ARCH is x86 or arm64, not '$(ARCH)')
endif
ifneq ($(ARCH),$(HOST_ARCH))
ifeq ($(ARCH),arm64)
CC := aarch64-linux-gnu-gcc
endif
OUT := build/$(ARCH)
endif

CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Werror
# src/ by layer: collect (BPF loader and kernel files), model (pure C:
# aggregation, the catalogue, recordings), view (what people and programs
# read), cmd (the commands); util.c is shared by all.
# A layer's files see only its own headers and those of the layers below
# it (the include path says so): the model none of the others, a view the
# model's, the collector the model's, a command everything.
SRC_DIRS := src src/collect src/model src/view src/cmd
vpath %.c $(SRC_DIRS)
SRC_HEADERS := $(wildcard $(addsuffix /*.h,$(SRC_DIRS)))
CPPFLAGS += -Iinclude -I$(OUT) -D_GNU_SOURCE -DRS_BPF_ARCH_$(ARCH)
ALL_INC := $(addprefix -I,$(SRC_DIRS))
layer_objs = $(addprefix $(OUT)/,$(notdir $(patsubst %.c,%.o,$(wildcard src/$(1)/*.c))))
$(OUT)/util.o: LAYER_INC := -Isrc
$(call layer_objs,model): LAYER_INC := -Isrc -Isrc/model
$(call layer_objs,view): LAYER_INC := -Isrc -Isrc/model -Isrc/view
$(call layer_objs,collect): LAYER_INC := -Isrc -Isrc/model -Isrc/collect
$(call layer_objs,cmd): LAYER_INC := $(ALL_INC)
ALL_CFLAGS := -std=gnu11 $(WARN) $(CFLAGS)
LIBS := -lbpf -lelf -lz -ljansson -lmicrohttpd -lncursesw -lcap -lpthread -lm

# vmlinux.h from bpftool 7.1 carries 8 empty declarations that clang 14
# warns about; they are harmless, so only that warning is turned off.
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -std=gnu11 \
	-Wall -Werror -Wno-missing-declarations \
	-Ivmlinux/$(ARCH) -Iinclude

BPF_SRCS := $(wildcard bpf/*.bpf.c) $(wildcard bpf/*.h) $(wildcard include/*.h)
# The probes' object, and the preemption probe run before it is loaded.
SKELS := $(OUT)/reclaimscope.skel.h $(OUT)/preempt.skel.h $(OUT)/tiers.skel.h

# The model (pure C, no BPF) and the views are kept apart from the
# collector so the unit tests link without libbpf.
# (top's terminal UI is a view too, but needs ncurses: the program's only)
TUI_SRCS := src/view/top_tui.c
MODEL_SRCS := $(filter-out $(TUI_SRCS),$(wildcard src/model/*.c src/view/*.c)) \
	src/util.c
APP_SRCS := $(MODEL_SRCS) $(TUI_SRCS) $(wildcard src/collect/*.c) \
	$(wildcard src/cmd/*.c)
APP_OBJS := $(addprefix $(OUT)/,$(notdir $(APP_SRCS:.c=.o)))
MODEL_OBJS := $(addprefix $(OUT)/,$(notdir $(MODEL_SRCS:.c=.o)))
UNIT_TESTS := test_model test_shrink test_fields test_recording test_util test_stats test_catalogue \
	test_stalls
UNIT_BINS := $(patsubst %,$(OUT)/tests/%,$(UNIT_TESTS))

.PHONY: labkernel-arm64 arm64build vmtest-arm64 deps-cross docs rules viewtest demo labtest kerneltest labkernel labsmoke promtest deb debtest bench benchsmoke soak sanitize lint install installtest fuzz reporttest all deps run test tests unit hosttest vmtest vmlinux format clean
all: $(OUT)/reclaimscope

$(OUT) $(OUT)/tests:
	mkdir -p $@

# BPF objects and their skeletons (struct NAME_bpf): bpf/reclaimscope.bpf.c
# includes every probe; preempt and bench stand alone.
$(OUT)/%.bpf.o: bpf/%.bpf.c $(BPF_SRCS) vmlinux/$(ARCH)/vmlinux.h | $(OUT)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUT)/%.skel.h: $(OUT)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $*_bpf > $@
.PRECIOUS: $(OUT)/%.bpf.o

$(OUT)/%.o: %.c $(SRC_HEADERS) $(wildcard include/*.h) $(SKELS) | $(OUT)
	$(CC) $(CPPFLAGS) $(LAYER_INC) $(ALL_CFLAGS) -c $< -o $@

# The model and the views include no skeleton: their objects (and the unit
# tests' library) build without the BPF toolchain.
$(MODEL_OBJS): $(OUT)/%.o: %.c $(SRC_HEADERS) $(wildcard include/*.h) | $(OUT)
	$(CC) $(CPPFLAGS) $(LAYER_INC) $(ALL_CFLAGS) -c $< -o $@

$(OUT)/reclaimscope: $(APP_OBJS)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ $(LIBS) -o $@

# The benchmark programs and their driver (tests/bench): never installed.
$(OUT)/rs-bench: tests/bench/rs-bench.c $(OUT)/bench.skel.h $(OUT)/librsmodel.a $(SRC_HEADERS) $(wildcard include/*.h)
	$(CC) $(CPPFLAGS) $(ALL_INC) $(ALL_CFLAGS) tests/bench/rs-bench.c $(OUT)/librsmodel.a $(LIBS) -o $@

# docs/metrics.md from the catalogue (scripts/rs-docs.c), and the lists
# other documents restate between "generated" markers (scripts/docs-splice);
# lint checks both.
$(OUT)/rs-docs: scripts/rs-docs.c $(OUT)/librsmodel.a $(SRC_HEADERS) $(wildcard include/*.h)
	$(CC) $(CPPFLAGS) $(ALL_INC) $(ALL_CFLAGS) $< $(OUT)/librsmodel.a -ljansson -lm -o $@

SPLICED_DOCS := README.md docs/reclaimscope.8 docs/recording-format.md

docs: $(OUT)/rs-docs
	$(OUT)/rs-docs > docs/metrics.md.new || { rm -f docs/metrics.md.new; exit 1; }
	mv docs/metrics.md.new docs/metrics.md
	for f in $(SPLICED_DOCS); do \
		scripts/docs-splice $(OUT)/rs-docs $$f > $$f.new || \
			{ rm -f $$f.new; exit 1; }; mv $$f.new $$f; done

# Workload generator for the VM scenarios, static: the guest has no libc
# but what tests/vm/run copies for the dynamic tools.
$(OUT)/rs-workload: tests/vm/workload.c tests/vm/load.h | $(OUT)
	$(CC) -static -D_GNU_SOURCE $(ALL_CFLAGS) $< -pthread -o $@

# The reclaim lab's workloads (tests/vm/workloads/), static as well.
$(OUT)/rs-labload: tests/vm/labload.c tests/vm/load.h | $(OUT)
	$(CC) -static -D_GNU_SOURCE $(ALL_CFLAGS) $< -pthread -lm -o $@

# A BTF of one architecture's struct pt_regs (tests/host/arch.sh).
$(OUT)/btf-arch: tests/host/btf-arch.c | $(OUT)
	$(CC) $(ALL_CFLAGS) $< -lbpf -lelf -lz -o $@

# A kernel's BTF with one struct member left out (tests/host/fields.sh).
$(OUT)/btf-without: tests/host/btf-without.c | $(OUT)
	$(CC) $(ALL_CFLAGS) $< -lbpf -lelf -lz -o $@

# --- tests -------------------------------------------------------------------

# The unit tests link the model and the views as the program's own objects
# (one library), not each a compilation of its own of every source.
$(OUT)/librsmodel.a: $(MODEL_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(OUT)/tests/%: tests/unit/%.c $(OUT)/librsmodel.a $(SRC_HEADERS) $(wildcard include/*.h) | $(OUT)/tests
	$(CC) $(CPPFLAGS) $(ALL_INC) $(ALL_CFLAGS) $< $(OUT)/librsmodel.a -lcmocka -ljansson -lm -o $@

# "Adding a metric" proven: the catalogue with one row more
# (tests/unit/new_row.h), and test_catalogue, which checks every row in
# every output, built against it.
$(OUT)/newrow/catalogue.o: src/model/catalogue.c tests/unit/new_row.h $(SRC_HEADERS) $(wildcard include/*.h)
	mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isrc -Isrc/model $(ALL_CFLAGS) \
		-DRS_EXTRA_ROWS='"../../tests/unit/new_row.h"' -c $< -o $@

$(OUT)/librsmodel-newrow.a: $(filter-out $(OUT)/catalogue.o,$(MODEL_OBJS)) $(OUT)/newrow/catalogue.o
	rm -f $@
	$(AR) rcs $@ $^

$(OUT)/tests/test_catalogue_newrow: tests/unit/test_catalogue.c $(OUT)/librsmodel-newrow.a $(SRC_HEADERS) $(wildcard include/*.h) | $(OUT)/tests
	$(CC) $(CPPFLAGS) $(ALL_INC) $(ALL_CFLAGS) -DRS_NEW_ROW_TEST $< \
		$(OUT)/librsmodel-newrow.a -lcmocka -ljansson -lm -o $@

UNIT_BINS += $(OUT)/tests/test_catalogue_newrow

unit: $(UNIT_BINS) $(OUT)/rs-docs
	@set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t; done
	tests/unit/test_docs_splice.py $(OUT)/rs-docs

hosttest: $(OUT)/reclaimscope $(OUT)/rs-workload $(OUT)/btf-without $(OUT)/reclaimscope.bpf.o
	tests/host/run.sh

vmtest: $(OUT)/reclaimscope $(OUT)/rs-workload
	tests/vm/run all

# The core scenario in an arm64 guest (qemu-system-aarch64, TCG; sid's
# arm64 cloud kernel, the arm64 build): about 5 minutes, outside make test
# (whose 40 minutes it would pass); it cross-builds build/arm64 itself
# (tests/vm/run), which make arm64build, in make test, compiles inside
# the arm64 package.
vmtest-arm64: deps-cross
	tests/vm/run core-arm64 core-arm64-16k

# The unit and host tests again, built with AddressSanitizer (leaks
# included) and UndefinedBehaviorSanitizer, in build/san; any report fails.
# A real SIGSEGV is reported with its stack (the host test turns that off
# only for the lifecycle test, whose SIGSEGV must kill).
SAN_CFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
sanitize: $(OUT)/rs-workload $(OUT)/btf-without $(OUT)/reclaimscope.bpf.o
	$(MAKE) OUT=$(OUT)/san CFLAGS="$(SAN_CFLAGS)" $(OUT)/san/reclaimscope unit
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		python3 tests/report/hostile.py $(OUT)/san/reclaimscope
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		python3 tests/report/trace.py $(OUT)/san/reclaimscope
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		RS_BIN=$(OUT)/san/reclaimscope RS_WORK=$(OUT)/san/hosttest tests/host/run.sh

# The layout (clang-format), then static analysis of src/: cppcheck, then
# clang-tidy with the checks in .clang-tidy (two files at a time); any
# finding fails.  The skeletons are
# included as system headers, and the files that include them skip the
# leak check: the analyzer assumes a function declared in a system header
# (bpf_object__destroy_skeleton) frees nothing, and so reports the
# skeleton's own error path.  make sanitize checks leaks at run time.
LINT_CPPFLAGS := -Iinclude $(addprefix -I,$(SRC_DIRS)) -D_GNU_SOURCE
SKEL_USERS := src/collect/collector.c src/collect/collector_maps.c \
	src/collect/kernel.c \
	src/collect/tier_iter.c
lint: $(SKELS) $(OUT)/rs-docs
	clang-format --dry-run -Werror $(FORMATTED)
	$(OUT)/rs-docs | diff -u docs/metrics.md - || { \
		echo "lint: docs/metrics.md is stale: run make docs"; exit 1; }
	set -e; for f in $(SPLICED_DOCS); do \
		scripts/docs-splice $(OUT)/rs-docs $$f | diff -u $$f - || { \
			echo "lint: $$f is stale: run make docs"; exit 1; }; done
	cppcheck --enable=warning,performance,portability --std=c11 \
		--inline-suppr --error-exitcode=1 -q --max-configs=1 -j2 \
		--suppress=missingIncludeSystem --suppress=missingInclude \
		"-DLIBBPF_OPTS(TYPE,NAME,...)=struct TYPE NAME = {.sz = sizeof(struct TYPE), __VA_ARGS__}" \
		$(LINT_CPPFLAGS) src/
	printf '%s\n' $(filter-out $(SKEL_USERS),$(APP_SRCS)) | \
		xargs -P2 -I{} clang-tidy --quiet {} -- -std=gnu11 \
		$(LINT_CPPFLAGS) -isystem $(OUT)
	clang-tidy --quiet --checks=-clang-analyzer-unix.Malloc $(SKEL_USERS) \
		-- -std=gnu11 $(LINT_CPPFLAGS) -isystem $(OUT)
	@echo "lint: cppcheck and clang-tidy clean on src/"

# On a fresh machine the tools come first, so the rest runs in a new make.
# Each part in turn, with its time, and the times together at the end (the
# suite must stay within CI's budget: the README says how long it takes).
# The host test runs once, in sanitize (with the sanitized build).
TEST_PARTS := unit fuzz sanitize lint arm64build viewtest installtest debtest promtest \
	benchsmoke vmtest reporttest labtest kerneltest labsmoke
test: deps-cross
	$(MAKE) tests
tests:
	@set -e; start=$$(date +%s); times=""; \
	for part in $(TEST_PARTS); do \
		t=$$(date +%s); echo "== make $$part"; \
		$(MAKE) --no-print-directory $$part || { \
			printf "== make $$part failed; the parts before it:\n$$times"; \
			exit 1; }; \
		times="$$times$$(printf '%-12s %4d s' $$part $$(($$(date +%s) - t)))\n"; \
	done; \
	printf "== the suite's parts:\n$$times== all of them: %d s\n" $$(($$(date +%s) - start))

# The benchmark suite: the host part (tests/bench/bench.sh), the VM part on
# the series kernel (the bench scenario, tests/vm/scenarios/bench.sh), the
# copy-count experiment (the copies scenario), then the table and
# BENCHMARKS.md (report.py).  The figures are never pass/fail;
# the VM part's checks (complete figures, the hook cost metrics equal to the
# kernel's timing) are.  benchsmoke runs the same scripts at tiny sizes (in
# `make test`) so that they keep working.
BENCH_BINS := $(OUT)/reclaimscope $(OUT)/rs-bench $(OUT)/rs-workload
# The VM part on qemu's counted clock (TCG, -icount): the guest's time is
# the instructions it ran, whatever else the host does, so that its ratios
# hold from run to run.  Both parts run twice (the first kept in bench.1
# and vm/bench.1), and BENCHMARKS.md shows whether the two agree.
BENCH_VM_ENV = RS_VM_ACCEL=tcg RS_VM_CLOCK=icount RS_VM_TIMEOUT=5400
bench: $(BENCH_BINS)
	scripts/install-deps.sh --bench
	RS_BENCH_OUT=build/bench.1 tests/bench/bench.sh
	tests/bench/bench.sh
	$(BENCH_VM_ENV) tests/vm/run bench
	rm -rf build/vm/bench.1 && mv build/vm/bench build/vm/bench.1
	$(BENCH_VM_ENV) tests/vm/run bench copies dispatch
	python3 tests/bench/report.py $(OUT)/bench/host.jsonl BENCHMARKS.md \
		build/vm/bench/results build/vm/copies/results \
		--repeat build/vm/bench.1/results --dispatch build/vm/dispatch/results \
		--host-repeat build/bench.1/host.jsonl

benchsmoke: $(BENCH_BINS)
	BENCH_SMOKE=1 RS_BENCH_OUT=$(OUT)/bench-smoke tests/bench/bench.sh
	RS_VM_APPEND=rs.bench_smoke=1 tests/vm/run bench dispatch
	python3 tests/bench/report.py $(OUT)/bench-smoke/host.jsonl $(OUT)/bench-smoke/BENCHMARKS.md \
		build/vm/bench/results --repeat build/vm/bench/results \
		--dispatch build/vm/dispatch/results \
		--host-repeat $(OUT)/bench-smoke/host.jsonl >/dev/null

# An hour (SOAK_SECONDS) of rounds in the VM at the default ring size: no
# record dropped, exact totals, flat RSS (tests/vm/scenarios/soak.sh).
SOAK_SECONDS ?= 3600
soak: $(OUT)/reclaimscope $(OUT)/rs-workload
	RS_VM_TIMEOUT=$$(($(SOAK_SECONDS) + 900)) RS_VM_APPEND=rs.soak=$(SOAK_SECONDS) \
		tests/vm/run soak

# scripts/lab and tests/vm/boot without a guest (seconds): fake kernels, a
# fake boot and qemu, the real diff on tiny recordings.
# report and diff on recordings the test writes (no BPF, no guest): the
# second hostile round's items, and 10^5 memcgs within 1 GiB with the
# group diff linear in them (instructions counted by callgrind).
viewtest: $(OUT)/reclaimscope
	python3 tests/report/hostile.py $(OUT)/reclaimscope --big
	python3 tests/report/trace.py $(OUT)/reclaimscope

labtest: $(OUT)/reclaimscope
	python3 tests/lab/test_lab.py $(OUT)/reclaimscope
	python3 tests/lab/test_check.py

# Kernels from source up to the compiler (scripts/build-kernel): bad
# patches refused, sid's source fetched, seed 011's patches applied, the
# guest config generated.  About a minute with the source cached.
kerneltest: deps-cross
	python3 tests/lab/test_build_kernel.py

# Seed 011 judged from its own patch (not in make test: two kernel builds,
# 20-30 minutes for the first on 2 cores, minutes for the second, which
# shares the first's objects through ccache): sid's
# source with x86's old prefaulted PTEs and 011's base, against the same
# plus the seed's patch, under the stride workload (seed 011's fio job), 3 smoke runs each
# (N=, SIZE=; LAB_ARGS= passes more to scripts/lab, e.g. "--clock real -o
# DIR" or --redo-mismatched).
LAB_011_BASE = src:sid+scripts/patches/x86-old-prefaulted-ptes.patch+scripts/patches/011-base-7.2-activate-in-fault.patch
LAB_011 = -k before=$(1) -k 011=$(1)+scripts/patches/011-mm-mglru-use-folio-mark-accessed.patch \
	-w stride -l mglru -n $(or $(N),3) -s $(or $(SIZE),smoke)
labkernel: $(OUT)/reclaimscope $(OUT)/rs-workload $(OUT)/rs-labload
	scripts/lab $(call LAB_011,$(LAB_011_BASE)) -o $(OUT)/lab-011 $(LAB_ARGS)

# The same on arm64, where 011 needs no hack: arm64 makes fault-around's
# PTEs old itself (with the hardware access flag, which qemu's -cpu max
# has).  Both kernels cross-built for arm64 (scripts/build-kernel --arch
# arm64: the first about an hour on 2 cores), the runs in arm64 guests.
labkernel-arm64: deps-cross $(OUT)/reclaimscope
	scripts/lab --arch arm64 \
		$(call LAB_011,src:sid+scripts/patches/011-base-7.2-activate-in-fault.patch) \
		-o $(OUT)/lab-011-arm64 $(LAB_ARGS)

# The reclaim lab at its smallest (two kernels x the writeback workload x
# two runs, smoke sizes): the report's cells recomputed from its recordings.
# 7.2 goes in as a local build would (an image and a modules folder named
# by its version), so that path is proven too.  On the counted clock (two
# guests at once, as the suite's other parts): the smoke proves the path
# and the table, not writeback's verdict, which the real clock gives.
labsmoke: $(OUT)/reclaimscope $(OUT)/rs-workload $(OUT)/rs-labload
	rm -rf $(OUT)/lab-smoke $(OUT)/lab-local
	set -e; kdir=$$(scripts/fetch-kernel.sh sid | tail -n1); \
	mkdir -p $(OUT)/lab-local/lib/modules; \
	ln -s "$$kdir/modules" $(OUT)/lab-local/lib/modules/$$(cat "$$kdir/version"); \
	scripts/lab -k 6.18=trixie-backports:6.18 \
		-k "7.2=$$kdir/vmlinuz:$(CURDIR)/$(OUT)/lab-local/lib/modules/$$(cat "$$kdir/version")" \
		-w writeback -l mglru -n 2 -s smoke --clock icount -o $(OUT)/lab-smoke >/dev/null
	python3 tests/lab/check.py $(OUT)/lab-smoke

# The smallest lab run: the writeback reproducer on the series kernel in
# qemu, top's frames live, the report and its HTML at the end.
demo: deps
	scripts/demo

RUN_SECONDS ?= 10
run: deps
	$(MAKE) all
	$(OUT)/reclaimscope probe
	$(OUT)/reclaimscope record -d $(RUN_SECONDS) -o $(OUT)/run.ndjson
	@echo "recorded $(RUN_SECONDS) s to $(OUT)/run.ndjson; its last line is the summary"

deps:
	scripts/install-deps.sh

# and the arm64 build's (the aarch64 compiler, arm64's libraries, qemu for
# arm64 guests): make test's and make vmtest-arm64's
deps-cross:
	scripts/install-deps.sh --cross

vmlinux:
	scripts/gen-vmlinux-h.sh sid x86
	scripts/gen-vmlinux-h.sh sid arm64

# The arm64 build, cross-compiled, as the arm64 package builds it (make
# ARCH=arm64 inside dpkg-buildpackage -a arm64, one compile): the package is lintian-clean and arm64's, its program arm64's,
# its BPF objects built for arm64 against arm64's BTF; each build on the
# other's kernel says what it is (tests/host/arch.sh, the package's arm64
# program under qemu-user).
# (x86 hosts only: on arm64 the native build is arm64's)
ARM64_DEB = $(OUT)/arm64/deb/reclaimscope_$(DEB_VERSION)_arm64.deb
ifneq ($(HOST_ARCH),x86)
arm64build:
	@echo "arm64build: for x86 hosts (this one builds arm64 natively: make, make deb)"
else
arm64build: $(OUT)/reclaimscope $(OUT)/btf-arch
	grep -q "BTF of Linux .*-arm64" vmlinux/arm64/vmlinux.h
	$(MAKE) --no-print-directory ARCH=arm64 OUT=$(OUT)/arm64 deb
	dpkg-deb -f $(ARM64_DEB) Architecture | grep -qx arm64
	dpkg-deb --fsys-tarfile $(ARM64_DEB) | tar -xOf - ./usr/sbin/reclaimscope \
		>$(OUT)/arm64/deb/reclaimscope.bin
	chmod +x $(OUT)/arm64/deb/reclaimscope.bin
	file -b $(OUT)/arm64/deb/reclaimscope.bin | grep -q "ARM aarch64" || { \
		echo "arm64build: $(ARM64_DEB)'s program is not arm64's:"; \
		file -b $(OUT)/arm64/deb/reclaimscope.bin; exit 1; }
	tests/host/arch.sh $(OUT)/reclaimscope $(OUT)/arm64/deb/reclaimscope.bin \
		$(OUT)/btf-arch $(OUT)/archtest
	@echo "arm64build: $(ARM64_DEB): lintian-clean, $$(file -b $(OUT)/arm64/deb/reclaimscope.bin | cut -d, -f1-2)"
endif

PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
UNITDIR ?= $(PREFIX)/lib/systemd/system
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
install: $(OUT)/reclaimscope
	install -D -m 0755 $(OUT)/reclaimscope $(DESTDIR)$(SBINDIR)/reclaimscope
	install -D -m 0644 docs/reclaimscope.8 $(DESTDIR)$(MANDIR)/man8/reclaimscope.8
	mkdir -p $(DESTDIR)$(UNITDIR)
	sed 's|@SBINDIR@|$(SBINDIR)|g' packaging/reclaimscope.service.in \
		>$(DESTDIR)$(UNITDIR)/reclaimscope.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/reclaimscope.service
	install -D -m 0644 packaging/bash-completion/reclaimscope \
		$(DESTDIR)$(COMPLETIONDIR)/reclaimscope
	install -D -m 0644 $(RULES) \
		$(DESTDIR)$(PREFIX)/share/reclaimscope/prometheus/reclaimscope-rules.yml

# The shipped Prometheus rules: promtool's checks and unit tests (alerts
# that must fire and must not); after vmtest, also that every series they
# read is one the daemon serves.
RULES := packaging/prometheus/reclaimscope-rules.yml
# The rules file's group of the report's derived metrics, from the catalogue
# (scripts/rules-splice); promtest fails while it is stale.
rules: $(OUT)/reclaimscope
	scripts/rules-splice $(OUT)/reclaimscope $(RULES) > $(RULES).new
	mv $(RULES).new $(RULES)

promtest: $(OUT)/reclaimscope
	scripts/rules-splice $(OUT)/reclaimscope $(RULES) > $(OUT)/rules.spliced
	diff -u $(RULES) $(OUT)/rules.spliced || { \
		echo "promtest: $(RULES) is stale: run make rules"; exit 1; }
	promtool check rules $(RULES)
	cd tests/prometheus && promtool test rules rules_test.yml
	if ls $(OUT)/vm/*/results/metrics.*.txt >/dev/null 2>&1; then \
		tests/prometheus/names.sh $(RULES) $(OUT)/vm/*/results/metrics.*.txt; fi

# The Debian package, built the Debian way (packaging/debian, debhelper)
# from a copy of this tree, then lintian: no error or warning.
DEB_VERSION := $(shell sed -n '1s/.*(\(.*\)).*/\1/p' packaging/debian/changelog)
DEB_TREE := $(OUT)/deb/reclaimscope-$(DEB_VERSION)
# ARCH=arm64: cross-built (dpkg-buildpackage -a arm64), in build/arm64/deb
DEB_HOST_FLAG := $(if $(filter arm64,$(ARCH)),-a arm64)
deb:
	rm -rf $(OUT)/deb
	mkdir -p $(DEB_TREE)
	tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C $(DEB_TREE)
	cp -r packaging/debian $(DEB_TREE)/debian
	cd $(DEB_TREE) && dpkg-buildpackage -Jauto $(DEB_HOST_FLAG) -us -uc -b >../build.log 2>&1 || \
		{ tail -n 40 ../build.log; exit 1; }
	lintian --fail-on error,warning --info $(OUT)/deb/*.changes
	@echo "deb: $$(ls $(OUT)/deb/*.deb)"

debtest: deb
	tests/host/deb.sh $(OUT)/deb/reclaimscope_$(DEB_VERSION)_amd64.deb

# report and diff on the VM scenarios' recordings (after vmtest)
reporttest: $(OUT)/reclaimscope
	python3 tests/report/check.py $(OUT)/reclaimscope $(OUT)/vm $(OUT)/reporttest
	tests/prometheus/names.sh $(RULES) $(OUT)/vm/*/results/metrics.*.txt

installtest: $(OUT)/reclaimscope
	tests/host/install.sh

FORMATTED := $(wildcard $(addsuffix /*.[ch],$(SRC_DIRS))) include/*.h bpf/*.c bpf/*.h tests/unit/*.c \
	tests/vm/workload.c tests/vm/labload.c tests/vm/load.h tests/bench/rs-bench.c tests/host/btf-without.c \
	tests/host/btf-arch.c scripts/rs-docs.c
format:
	clang-format -i $(FORMATTED)

clean:
	rm -rf $(OUT)

# --- fuzzing -----------------------------------------------------------------
# The recording reader (and report/diff on what it accepts) under libFuzzer
# with ASan and UBSan, for FUZZ_SECONDS, seeded from tests/fuzz/corpus (new
# inputs go to build/fuzz-corpus, not into the repository).
FUZZ_SECONDS ?= 60
$(OUT)/fuzz_recording: tests/fuzz/fuzz_recording.c $(MODEL_SRCS) $(SRC_HEADERS) $(wildcard include/*.h) | $(OUT)
	$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all $(CPPFLAGS) $(ALL_INC) -std=gnu11 $(WARN) \
		$< $(MODEL_SRCS) -ljansson -lm -o $@

fuzz: $(OUT)/fuzz_recording
	rm -rf $(OUT)/fuzz-corpus
	mkdir -p $(OUT)/fuzz-corpus
	$(OUT)/fuzz_recording -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
		-dict=tests/fuzz/recording.dict -print_final_stats=1 \
		$(OUT)/fuzz-corpus tests/fuzz/corpus
