# quench: build, test, benchmark and install.
#
#   make                      optimised build/quench, build/libquench.a and
#                             build/libquench.so (SONAME libquench.so.0)
#   make test [T=PATTERN]     the fast tier: unit and fast CLI tests, < 60 s
#   make check                build and run every test (installs missing deps)
#   make check VARIANT=san    the same under ASan + UBSan
#   make abi-check            libquench.so's ABI against abi/ (make check
#                             runs it; make abi-update records a new one)
#   make format-check         every C file in the house format (make check
#                             runs it; make format applies it)
#   make check-loaders        the game loaders (loaders/) in their runtimes
#   make check-cluster        sharded runs on a real Slurm cluster (root)
#   make bench                benchmarks (figures go to docs/PERFORMANCE.md)
#   make proto                prototypes measured once (bench/proto_*.c)
#   make fuzz [FUZZ_RUNS=N]   libFuzzer campaign over fuzz/ (clang)
#   make torture              malformed-input corpus, kill -9 rounds,
#                             allocation-failure sweep (issue #9),
#                             damaged databases (issue #17)
#   make valgrind VARIANT=debug  every CLI test under valgrind
#   make install PREFIX=...   binary, library, headers, quench.pc, man page,
#                             example rules and docs, bash, zsh and fish
#                             completions

VARIANT ?= release
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share/quench
DOCDIR ?= $(PREFIX)/share/doc/quench
# Where each shell looks for completions (bash-completion, zsh's
# site-functions, fish's vendor directory).
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
PKG_CONFIG ?= pkg-config
CC ?= cc
AR ?= ar

PKGS = sqlite3 yaml-0.1 libsodium jansson libpng
VERSION = 0.3.0

WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
       -Wvla -Wwrite-strings -Wundef
ifeq ($(CI),true)
WARN += -Werror
endif

ifeq ($(VARIANT),release)
OPT = -O2 -g $(ARCH_FLAGS)
SAN =
OUT = build
else ifeq ($(VARIANT),debug)
OPT = -O0 -g -gdwarf-4 # valgrind 3.19 reads DWARF 4
SAN =
OUT = build/debug
else ifeq ($(VARIANT),san)
OPT = -O1 -g -fno-omit-frame-pointer
SAN = -fsanitize=address,undefined -fno-sanitize-recover=all
OUT = build/san
else ifeq ($(VARIANT),fuzz)
# libFuzzer targets (make fuzz): clang instruments the library for
# coverage; only the targets link libFuzzer's main.
CLANG ?= clang
CC = $(CLANG)
OPT = -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link
SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined
OUT = build/fuzz
else
$(error VARIANT must be release, debug, san or fuzz, not '$(VARIANT)')
endif

OBJ_DIR = build/obj/$(VARIANT)
# x86-64-v2 guarantees POPCNT; hot loops add AVX2 paths by runtime dispatch.
ARCH_FLAGS = $(if $(filter x86_64,$(shell uname -m)),-march=x86-64-v2 -mtune=generic)
# Recursively expanded on purpose: evaluated after `deps` has run.
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
             -DQN_VERSION='"$(VERSION)"' $(WARN) $(OPT) $(SAN) -pthread \
             -Iinclude -Isrc -MMD -MP $(PKG_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(SAN) -pthread $(LDFLAGS)
LIBS = $(PKG_LIBS) -lm

LIB_SRC = $(sort $(wildcard src/*/*.c))
CMD_SRC = $(sort $(wildcard cmd/*.c))
TEST_SRC = $(sort $(wildcard tests/unit/test_*.c))
BENCH_SRC = $(sort $(wildcard bench/bench_*.c))

LIB_OBJ = $(LIB_SRC:%.c=$(OBJ_DIR)/%.o)
# The schema migrations, embedded as C strings (never committed).
MIGRATIONS = $(sort $(wildcard db/migrations/[0-9]*.sql))
LIB_OBJ += $(OBJ_DIR)/build/gen/migrations.o
CMD_OBJ = $(CMD_SRC:%.c=$(OBJ_DIR)/%.o)
TEST_BIN = $(TEST_SRC:tests/unit/%.c=$(OUT)/tests/%)
BENCH_BIN = $(BENCH_SRC:bench/%.c=$(OUT)/bench/%)
# Prototypes measured once (docs/PERFORMANCE.md), not run by `make bench`:
# `make proto` builds them with the benchmarks' rule.
PROTO_BIN = $(OUT)/bench/proto_keyruns

LIBQ = $(OUT)/libquench.a
# The shared library: SONAME libquench.so.MAJOR (MAJOR: VERSION's first
# number; bump it on an incompatible ABI change: docs/API.md), built from
# the same objects, which hide every symbol but the public headers' QN_API
# functions (-fvisibility=hidden).
SOVERSION = $(firstword $(subst ., ,$(VERSION)))
SONAME = libquench.so.$(SOVERSION)
LIBSO = $(OUT)/libquench.so
LIB_CFLAGS = -fPIC -fvisibility=hidden
QUENCH = $(OUT)/quench

# M4RI is only a benchmark peer, never a dependency of quench.
M4RI_FLAGS = $(shell $(PKG_CONFIG) --exists m4ri 2>/dev/null && \
               echo -DQN_HAVE_M4RI $$($(PKG_CONFIG) --cflags m4ri))
M4RI_LIBS = $(shell $(PKG_CONFIG) --libs m4ri 2>/dev/null)

.PHONY: FORCE fuzz-build
.PHONY: abi-check abi-update
.PHONY: proto
.PHONY: completions all deps test check-build test-deps loader-deps cluster-deps bench-deps check check-deps check-fuzz check-loaders check-cluster fuzz torture valgrind bench demo install uninstall format format-check clean
.DEFAULT_GOAL := all

all: $(QUENCH) $(LIBQ) $(LIBSO)

# A fresh machine has none of the -dev packages: install them on demand.
# The tests and benchmarks install their own tools the same way (a no-op
# when everything is there), so make demo installs only what it needs.
deps:
	@command -v $(PKG_CONFIG) >/dev/null 2>&1 && \
	  $(PKG_CONFIG) --exists $(PKGS) 2>/dev/null || sh scripts/install-deps
test-deps:
	@sh scripts/install-deps --test
loader-deps:
	@sh scripts/install-deps --loaders
cluster-deps:
	@sh scripts/install-deps --cluster
bench-deps:
	@sh scripts/install-deps --bench

# Every object and program compiled here depends on this stamp of the
# compiler, its flags and the link's (VERSION among them: -DQN_VERSION),
# rewritten, as make reads this file, only when they change: another
# CFLAGS, CI=true (-Werror) or a new VERSION rebuilds everything they
# compile, a build directory never keeps an object of other flags (an
# old version.o), and `make -n` still tells what is out of date. One per
# variant, as the objects are.
FLAGS_STAMP = $(OBJ_DIR)/.flags
FLAGS_TEXT = $(CC) $(ALL_CFLAGS) $(LIB_CFLAGS) $(ALL_LDFLAGS) $(LIBS)
ifeq ($(filter clean,$(MAKECMDGOALS)),)
ifneq ($(file <$(FLAGS_STAMP)),$(FLAGS_TEXT))
$(if $(wildcard $(FLAGS_STAMP)),$(info flags changed: rebuilding $(OBJ_DIR)))
$(shell mkdir -p $(OBJ_DIR))
$(file >$(FLAGS_STAMP),$(FLAGS_TEXT))
endif
endif

$(OBJ_DIR)/%.o: %.c $(FLAGS_STAMP) | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(if $(filter $(OBJ_DIR)/src/%,$@),$(LIB_CFLAGS)) \
	  -c $< -o $@

# db/migrations/NNNN_name.sql -> {NNNN, "NNNN_name", "<sql>"}, one C string
# literal per line of SQL; a changed, added or deleted .sql regenerates it
# (a deleted one changes the list kept in MIGRATIONS_LIST, as a branch
# switch does: a stale migration must never be compiled in).
MIGRATIONS_LIST = build/gen/migrations.list
ifeq ($(filter clean,$(MAKECMDGOALS)),)
ifneq ($(file <$(MIGRATIONS_LIST)),$(MIGRATIONS))
$(shell mkdir -p build/gen)
$(file >$(MIGRATIONS_LIST),$(MIGRATIONS))
endif
endif
build/gen/migrations.c: $(MIGRATIONS) $(MIGRATIONS_LIST) Makefile
	@mkdir -p $(@D)
	@{ echo '/* generated from db/migrations by the Makefile: do not edit */'; \
	  echo '#include "../../src/store/store_internal.h"'; \
	  echo 'const struct qn_migration qn_migrations[] = {'; \
	  for f in $(MIGRATIONS); do \
	    b=$$(basename $$f .sql); \
	    printf '    {%d, "%s",\n' "$$(echo $$b | sed 's/_.*//; s/^0*//')" "$$b"; \
	    sed 's/\\/\\\\/g; s/"/\\"/g; s/^/     "/; s/$$/\\n"/' $$f; \
	    echo '    },'; \
	  done; \
	  echo '    {0, "", ""}};'; \
	  echo 'const size_t qn_nmigrations = $(words $(MIGRATIONS));'; \
	} > $@.tmp && mv $@.tmp $@

$(OBJ_DIR)/build/gen/migrations.o: build/gen/migrations.c $(FLAGS_STAMP) | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LIB_CFLAGS) -c $< -o $@

$(LIBQ): $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(LIBSO).$(VERSION): $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--no-undefined $(ALL_LDFLAGS) \
	  -o $@ $^ $(LIBS)
$(LIBSO): $(LIBSO).$(VERSION)
	ln -sf libquench.so.$(VERSION) $(OUT)/$(SONAME)
	ln -sf $(SONAME) $@

$(QUENCH): $(CMD_OBJ) $(LIBQ)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $(CMD_OBJ) $(LIBQ) $(LIBS)

$(OUT)/tests/%: tests/unit/%.c $(LIBQ) tests/unit/t.h tests/unit/tfail.h \
               $(FLAGS_STAMP) | deps
	@mkdir -p $(@D) $(OBJ_DIR)/tests
	$(CC) $(ALL_CFLAGS) -MF $(OBJ_DIR)/tests/$*.d -o $@ $< $(LIBQ) \
	  $(ALL_LDFLAGS) $(LIBS)

$(OUT)/bench/%: bench/%.c bench/bench.h $(LIBQ) $(FLAGS_STAMP) | deps bench-deps
	@mkdir -p $(@D) $(OBJ_DIR)/bench
	$(CC) $(ALL_CFLAGS) $(M4RI_FLAGS) -MF $(OBJ_DIR)/bench/$*.d -o $@ $< \
	  $(LIBQ) $(ALL_LDFLAGS) $(M4RI_LIBS) $(LIBS)

# The determinism matrix (release only) counts in the suite's total.
DET_RES = $(abspath $(OUT))/determinism.res
# The ABI record is of the release build: a sanitizer build's library
# exports the instrumentation's own symbols (__odr_asan.*) beside it.
check: test-deps $(QUENCH) $(TEST_BIN) check-deps check-fuzz format-check \
       $(if $(filter release,$(VARIANT)),abi-check)
	@rm -f $(DET_RES)
	@[ "$(VARIANT)" != release ] || sh tests/determinism.sh --res $(DET_RES)
	@QUENCH=$(abspath $(QUENCH)) OUT=$(abspath $(OUT)) \
	  VARIANT=$(VARIANT) sh tests/run.sh \
	  $(if $(filter release,$(VARIANT)),--res $(DET_RES)) $(TEST_BIN)

# The inner loop: the unit tests and the fast CLI tests (those without a
# "tier: full" line) of this build, installing nothing; T=PATTERN runs
# only the tests whose name contains PATTERN, of every tier (make test
# T=t545). Needs the tools make check installs (python3, sqlite3, ...)
# where a test uses them.
test: $(QUENCH) $(TEST_BIN)
	@QUENCH=$(abspath $(QUENCH)) OUT=$(abspath $(OUT)) \
	  VARIANT=$(VARIANT) sh tests/run.sh \
	  $(if $(T),--only '$(T)',--fast) $(TEST_BIN)

# The reference loaders (loaders/, issue #21), each in its game's runtime:
# node and Chromium, lua5.4 and LuaJIT, godot3-server, mono. A missing
# runtime fails; scripts/install-deps installs them all.
check-loaders: loader-deps $(QUENCH)
	@QUENCH=$(abspath $(QUENCH)) OUT=$(abspath $(OUT)) \
	  VARIANT=$(VARIANT) sh tests/run.sh -d tests/loaders

# Sharded generate runs on a one-node Slurm cluster that the test starts
# and stops (issue #22): needs root, slurm-wlm and munge.
check-cluster: cluster-deps $(QUENCH)
	@QUENCH=$(abspath $(QUENCH)) OUT=$(abspath $(OUT)) \
	  VARIANT=$(VARIANT) sh tests/run.sh -d tests/cluster

# Fuzzing (issue #9): libFuzzer targets in fuzz/; check replays every seed
# and regression input through the same target code, built with $(CC).
FUZZ_TARGETS = $(patsubst fuzz/fuzz_%.c,%,$(sort $(wildcard fuzz/fuzz_*.c)))
FUZZ_REPLAY = $(FUZZ_TARGETS:%=$(OUT)/fuzz-replay/%)
FUZZ_RUNS ?= 10000000

$(OUT)/fuzz-replay/%: fuzz/replay.c fuzz/fuzz_%.c fuzz/fuzz.h $(LIBQ) \
                      $(FLAGS_STAMP) | deps
	@mkdir -p $(@D) $(OBJ_DIR)/fuzz
	$(CC) $(ALL_CFLAGS) -MF $(OBJ_DIR)/fuzz/replay_$*.d -o $@ \
	  fuzz/replay.c fuzz/fuzz_$*.c $(LIBQ) $(ALL_LDFLAGS) $(LIBS)

# The libFuzzer binaries themselves (VARIANT=fuzz; scripts/fuzz.sh runs them).
FUZZ_BIN = $(FUZZ_TARGETS:%=$(OUT)/fuzz_%)
fuzz-build: $(FUZZ_BIN)
$(OUT)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz.h $(LIBQ) $(FLAGS_STAMP) | deps
	@test "$(VARIANT)" = fuzz || \
	  { echo "fuzz targets build with VARIANT=fuzz" >&2; exit 2; }
	@mkdir -p $(@D) $(OBJ_DIR)/fuzz
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -MF $(OBJ_DIR)/fuzz/$*.d -o $@ \
	  $< $(LIBQ) $(ALL_LDFLAGS) -fsanitize=fuzzer $(LIBS)

check-fuzz: $(FUZZ_REPLAY)
	@for t in $(FUZZ_TARGETS); do \
	  printf 'fuzz %-7s ' $$t; \
	  $(OUT)/fuzz-replay/$$t fuzz/corpus/$$t || exit 1; \
	done

# Everything `make check` runs, built but not run (CI builds the san
# variant this way while the loader and cluster tests run).
check-build: $(QUENCH) $(TEST_BIN) $(FUZZ_REPLAY)

# make torture: the whole malformed-input corpus, 1000 kill -9 rounds
# (250 per scenario), 500 rounds of damaged databases under every command
# that reads one (15,000 runs: minutes on 2 cores in the release build)
# and the allocation-failure sweep over every CLI test for every N (some
# 170,000 runs of quench: hours of one core; set QN_FAULTS_MAX=N to cut
# each command at N points).
KILL_ROUNDS ?= 250
CORRUPT_ROUNDS ?= 500
torture: $(QUENCH)
	python3 scripts/torture.py --quench $(abspath $(QUENCH)) \
	  --jobs $$(nproc) --out $(OUT)/torture
	python3 scripts/killtorture.py --quench $(abspath $(QUENCH)) \
	  --rounds $(KILL_ROUNDS)
	python3 scripts/corrupt.py --quench $(abspath $(QUENCH)) --case all \
	  --rounds $(CORRUPT_ROUNDS) --jobs $$(nproc) --out $(OUT)/corrupt
	QUENCH=$(abspath $(QUENCH)) FAULTS_OUT=$(abspath $(OUT))/faults \
	  sh tests/faults-all.sh

# Every CLI test with quench under valgrind (best with VARIANT=debug).
valgrind: $(QUENCH)
	QUENCH=$(abspath $(QUENCH)) OUT=$(abspath $(OUT)) sh tests/valgrind.sh

# A libFuzzer campaign (clang): make fuzz [FUZZ_RUNS=N]; the targets
# build through this Makefile (VARIANT=fuzz), so their flags are these.
fuzz:
	sh scripts/fuzz.sh $(FUZZ_RUNS) $(FUZZ_TARGETS)

check-deps: $(QUENCH)
	@python3 tests/deps.py $(OBJ_DIR)

# The ABI guard (docs/API.md "Changing the ABI"): libquench.so against the
# record in abi/; abi-update records it after a VERSION bump.
abi-check: test-deps $(LIBSO)
	@sh scripts/abi-check.sh $(LIBSO) $(VERSION) abi
abi-update: test-deps $(LIBSO)
	@sh scripts/abi-check.sh --update $(LIBSO) $(VERSION) abi

bench: bench-deps $(QUENCH) $(BENCH_BIN)
	@for b in $(BENCH_BIN); do echo "== $$b"; $$b || exit 1; done

proto: $(PROTO_BIN)

# The main job on the bundled default: a graded pack of classic 5x5
# puzzles, starter (the pack the README's examples use), and the example
# campaign (rules/campaigns/starter.yaml) in db/quench.db (created on
# first use), then what it holds. Run twice, it changes nothing.
DEMO_SEED ?= 2026
demo: $(QUENCH)
	$(QUENCH) generate rules/classic-5x5.yaml -n 100 --seed $(DEMO_SEED) \
	  --db db/quench.db --pack starter >/dev/null
	$(QUENCH) pack sort starter --db db/quench.db
	$(QUENCH) pack show starter --db db/quench.db
	$(QUENCH) pack build rules/campaigns/starter.yaml --db db/quench.db
	$(QUENCH) db stats --db db/quench.db

# Written on every make install, replaced only when its text changes: a
# second install with another PREFIX must not ship the first one's paths.
build/quench.pc: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' \
	  'includedir=$(INCDIR)' '' 'Name: quench' \
	  'Description: Lights Out family puzzles: exact maths over Z/k' \
	  'Version: $(VERSION)' 'Requires.private: $(PKGS)' \
	  'Libs: -L$${libdir} -lquench' 'Libs.private: -lm -pthread' \
	  'Cflags: -I$${includedir}' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
FORCE:

# Shell completion scripts, printed by the binary from its command table
# (cmd/cmd_complete.c): quench.bash, _quench (zsh) and quench.fish.
COMPLETIONS = $(OUT)/completions/quench.bash $(OUT)/completions/_quench \
              $(OUT)/completions/quench.fish
completions: $(COMPLETIONS)
$(OUT)/completions/quench.bash: $(QUENCH)
	@mkdir -p $(@D)
	$(QUENCH) completions bash > $@.tmp && mv $@.tmp $@
$(OUT)/completions/_quench: $(QUENCH)
	@mkdir -p $(@D)
	$(QUENCH) completions zsh > $@.tmp && mv $@.tmp $@
$(OUT)/completions/quench.fish: $(QUENCH)
	@mkdir -p $(@D)
	$(QUENCH) completions fish > $@.tmp && mv $@.tmp $@

install: $(QUENCH) $(LIBQ) $(LIBSO) build/quench.pc $(COMPLETIONS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig \
	  $(DESTDIR)$(INCDIR)/quench $(DESTDIR)$(MANDIR)/man1 \
	  $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 $(QUENCH) $(DESTDIR)$(BINDIR)/quench
	install -m 644 $(LIBQ) $(DESTDIR)$(LIBDIR)/libquench.a
	install -m 755 $(LIBSO).$(VERSION) \
	  $(DESTDIR)$(LIBDIR)/libquench.so.$(VERSION)
	ln -sf libquench.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libquench.so
	install -m 644 include/quench.h $(DESTDIR)$(INCDIR)/quench.h
	install -m 644 include/quench/*.h $(DESTDIR)$(INCDIR)/quench/
	install -m 644 build/quench.pc $(DESTDIR)$(LIBDIR)/pkgconfig/quench.pc
	install -m 644 docs/quench.1 $(DESTDIR)$(MANDIR)/man1/quench.1
	install -d $(DESTDIR)$(DATADIR)/rules/campaigns $(DESTDIR)$(DOCDIR)
	install -m 644 rules/*.yaml $(DESTDIR)$(DATADIR)/rules/
	install -m 644 rules/campaigns/*.yaml $(DESTDIR)$(DATADIR)/rules/campaigns/
	install -m 644 README.md docs/*.md docs/*.json $(DESTDIR)$(DOCDIR)/
	install -m 644 $(OUT)/completions/quench.bash $(DESTDIR)$(BASHCOMPDIR)/quench
	install -m 644 $(OUT)/completions/_quench $(DESTDIR)$(ZSHCOMPDIR)/_quench
	install -m 644 $(OUT)/completions/quench.fish \
	  $(DESTDIR)$(FISHCOMPDIR)/quench.fish

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/quench $(DESTDIR)$(LIBDIR)/libquench.a \
	  $(DESTDIR)$(LIBDIR)/libquench.so $(DESTDIR)$(LIBDIR)/$(SONAME) \
	  $(DESTDIR)$(LIBDIR)/libquench.so.$(VERSION) \
	  $(DESTDIR)$(LIBDIR)/pkgconfig/quench.pc \
	  $(DESTDIR)$(MANDIR)/man1/quench.1 $(DESTDIR)$(BASHCOMPDIR)/quench \
	  $(DESTDIR)$(ZSHCOMPDIR)/_quench $(DESTDIR)$(FISHCOMPDIR)/quench.fish
	rm -rf $(DESTDIR)$(INCDIR)/quench $(DESTDIR)$(INCDIR)/quench.h \
	  $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)

# Every C file of the repo is in the house format (.clang-format):
# `make format` rewrites them, `make format-check` (part of make check)
# fails on any file that differs and names it.
FORMAT_SRC = $(sort $(wildcard src/*/*.[ch] cmd/*.[ch] include/*.h \
  include/quench/*.h tests/*.[ch] tests/unit/*.[ch] bench/*.[ch] \
  examples/*.c fuzz/*.[ch]))
format:
	clang-format -i $(FORMAT_SRC)
format-check: test-deps
	@bad=$$(for f in $(FORMAT_SRC); do \
	  clang-format "$$f" | cmp -s - "$$f" || echo "$$f"; done); \
	  if [ -n "$$bad" ]; then \
	    echo "format: not in the house format (make format):" $$bad >&2; \
	    exit 1; fi; \
	  echo "format: $(words $(FORMAT_SRC)) files in the house format"

clean:
	rm -rf build

-include $(shell find build/obj -name '*.d' 2>/dev/null)
