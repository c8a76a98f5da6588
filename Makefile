# SPDX-License-Identifier: GPL-2.0-or-later
#
# rtvirt build.  One binary, `rtvirt`, over a static library of the layers
# (util/, host/, guest/, results/, harness/).  Every .c file in a layer
# directory is part of the library, so adding a module needs no edit here.
#
#   make                 build $(O)/rtvirt
#   make deps            install the Debian 12 packages that are missing (root)
#   make check           build and run every test under prove (TAP)
#   make demo            the main job on the embedded default guest
#   make SANITIZE=1 ...  ASan + UBSan build (use another O=, e.g. O=build-san)
#   make fuzz            libFuzzer targets (clang) in $(O)/fuzz/
#   make lint            layering and function-length checks
#   make install         binaries, man pages, profiles, bash completion under
#                        $(DESTDIR)$(PREFIX) (PREFIX=/usr/local); make uninstall
#   make dist            release tarball $(O)/rtvirt-VERSION.tar.gz of the files
#                        git tracks (what the Ansible install role installs)
#   make ansible-collection  the rtvirt.fleet collection tarball (ansible/)
#   make deb             Debian package $(O)/deb/rtvirt_VERSION_amd64.deb
#                        (debian/, from the dist tarball), lintian-checked
#   make lab-check       the lab VM: the SMT core-scheduling kernel (built once,
#                        cached) and busybox under QEMU (tests/lab/README.md)
#   make lab-host-check  the lab host: Debian 12 with systemd and libvirtd on
#                        that kernel, booted from disk, six boots
#   make lab-host-check-short  the same in two boots, coresched and nosmt only (CI)
#   make O=DIR           out-of-tree build directory (default: build)
#   make V=1             show the full compiler command lines

O        ?= build
CC       ?= cc
PKGS     := glib-2.0 gio-2.0 gio-unix-2.0 json-glib-1.0 libxml-2.0 hwloc gsl libvirt libvirt-qemu \
            libvirt-glib-1.0 libguestfs

# pkg-config only once the packages are there: `make deps` must run on a
# machine that has none of them yet.
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Wformat=2 -Wno-missing-field-initializers \
            -Wno-format-nonliteral -fno-strict-aliasing -I. $(PKG_CFLAGS)
CPPFLAGS += -D_GNU_SOURCE -DGLIB_VERSION_MIN_REQUIRED=GLIB_VERSION_2_66 \
            -DRV_VERSION=\"$(RV_VERSION)\"
LDLIBS   += $(PKG_LIBS) -lm

# The release number: this one place (rtvirt --version, doc/cli.md).  Built
# from a git tree, --version adds `git describe --always --dirty`.
RV_RELEASE := 0.3.0
RV_GIT := $(shell git -C '$(CURDIR)' describe --always --dirty 2>/dev/null)
# the "version" of a results store's run.json (results/store.c)
RV_VERSION := $(RV_RELEASE)$(if $(RV_GIT),-$(RV_GIT))

# Install layout (doc/cli.md FILES): the profiles go to
# $(PREFIX)/share/rtvirt/profiles, which rtvirt finds relative to its own
# binary ($(PREFIX)/bin/../share/...), so a DESTDIR-staged or moved tree works.
PREFIX   ?= /usr/local
DESTDIR  ?=
BINDIR   ?= $(PREFIX)/bin
DATADIR  ?= $(PREFIX)/share
MANDIR   ?= $(DATADIR)/man
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions

ifeq ($(SANITIZE),1)
CFLAGS   += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=address,undefined
endif

# V=1 shows the full compiler command lines.
ifeq ($(V),1)
Q :=
quiet = @true
else
Q := @
quiet = @printf '  %-6s %s\n'
endif

LAYERS   := util host guest results workloads harness
# host/ is in rooms (host/README.md): fsroot at its top, the rest one level down.
HOST_ROOMS := facts profile check tune trace tuned
MAIN_SRCS := harness/main.c harness/pert-main.c
LIB_SRCS := $(filter-out $(MAIN_SRCS),$(foreach d,$(LAYERS) $(HOST_ROOMS:%=host/%),$(wildcard $(d)/*.c)))
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
TEST_SRCS := $(wildcard tests/test-*.c)
# T=PATTERN runs only the tests whose file name contains PATTERN.
T ?=
TEST_BINS := $(TEST_SRCS:tests/%.c=$(O)/tests/%)
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz-*.c)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(O)/fuzz/%)
# Shell tests: every executable tests/*.sh, run by prove next to the C tests.
SH_TESTS := $(sort $(wildcard tests/t-*.sh))

.SECONDARY:

.PHONY: all deps install uninstall FORCE check check-real check-unit demo demo-real fuzz clean lab-check lab-check-real lint dist ansible-collection deb lab-host-check lab-host-check-real lab-host-check-short lab-host-check-short-real

all: $(O)/rtvirt $(O)/rtvirt-pert

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(quiet) CC $<
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# main.o alone carries the version; the stamp changes only when it does.
$(O)/version.stamp: FORCE
	@mkdir -p $(O)
	@echo '$(RV_RELEASE) $(RV_GIT)' | cmp -s - $@ || echo '$(RV_RELEASE) $(RV_GIT)' >$@
$(O)/harness/main.o: $(O)/version.stamp
$(O)/harness/main.o: CPPFLAGS += -DRV_RELEASE=\"$(RV_RELEASE)\" -DRV_GIT=\"$(RV_GIT)\"

$(O)/librtvirt.a: $(LIB_OBJS)
	@rm -f $@
	$(quiet) AR $@
	$(Q)$(AR) rcs $@ $^

$(O)/rtvirt: $(O)/harness/main.o $(O)/librtvirt.a
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The probe alone for guests: GLib and json-glib only (see harness/pert-main.c).
PERT_LIBS := $(shell pkg-config --libs glib-2.0 json-glib-1.0 2>/dev/null) -lm
$(O)/rtvirt-pert: $(O)/harness/pert-main.o $(O)/librtvirt.a
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS) -Wl,--as-needed -o $@ $^ $(PERT_LIBS)

# rtvirt's guest tools (guest-tools/, put into the guest images by
# guest/image.c's list): the linpack LU solver and the dgemm load on
# OpenBLAS (its LAPACK dgetrf/dgetrs, lapack.h from liblapacke-dev), the
# pipe ping-pong on libc alone.
OPENBLAS_CFLAGS := $(shell pkg-config --cflags openblas 2>/dev/null)
OPENBLAS_LIBS := $(shell pkg-config --libs openblas 2>/dev/null)
GUEST_TOOLS := $(O)/rtvirt-linpack $(O)/rtvirt-gemm $(O)/rtvirt-pipe
all: $(GUEST_TOOLS)
$(O)/guest-tools/linpack.o $(O)/guest-tools/gemm.o: CFLAGS += $(OPENBLAS_CFLAGS)
$(O)/rtvirt-linpack: $(O)/guest-tools/linpack.o
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS) -Wl,--as-needed -o $@ $^ $(OPENBLAS_LIBS) -lm
$(O)/rtvirt-gemm: $(O)/guest-tools/gemm.o
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS) -Wl,--as-needed -o $@ $^ $(OPENBLAS_LIBS) -lm
$(O)/rtvirt-pipe: $(O)/guest-tools/pipe.o
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
-include $(O)/guest-tools/linpack.d $(O)/guest-tools/gemm.d $(O)/guest-tools/pipe.d

# rtvirt-tpcc (tpcc/README.md): the TPC-C-style driver for the TPC-C guest,
# on GLib, json-glib and MariaDB Connector/C only; tests/test-tpcc links its
# pure parts (no database in them).
TPCC_SRCS := $(wildcard tpcc/*.c)
TPCC_OBJS := $(TPCC_SRCS:%.c=$(O)/%.o)
TPCC_PURE_OBJS := $(O)/tpcc/rand.o $(O)/tpcc/mix.o $(O)/tpcc/hist.o $(O)/tpcc/secret.o
TPCC_LIBS := $(shell pkg-config --libs glib-2.0 json-glib-1.0 libmariadb 2>/dev/null) -lm
$(TPCC_OBJS): CFLAGS += $(shell pkg-config --cflags libmariadb 2>/dev/null)
all: $(O)/rtvirt-tpcc
$(O)/rtvirt-tpcc: $(TPCC_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS) -Wl,--as-needed -o $@ $^ $(TPCC_LIBS)
$(O)/tests/test-tpcc: $(TPCC_PURE_OBJS)
-include $(TPCC_OBJS:.o=.d)

$(O)/tests/%: $(O)/tests/%.o $(O)/librtvirt.a
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# libFuzzer targets: the same sources, rebuilt with clang's fuzzer
# instrumentation in their own directory so they never mix with $(O).
FUZZ_O := $(O)/fuzz-obj
$(O)/fuzz/%: tests/fuzz/%.c $(LIB_SRCS)
	@mkdir -p $(dir $@)
	clang $(CPPFLAGS) -std=gnu11 -g -O1 -I. $(PKG_CFLAGS) \
	    -fsanitize=fuzzer,address,undefined -o $@ $< $(LIB_SRCS) $(PKG_LIBS) -lm

fuzz: $(FUZZ_BINS)

deps:
	./build-aux/deps.sh

# check, demo and the lab checks install missing packages first (README's two
# commands are the whole set-up on a fresh machine), then build in a second
# make so that pkg-config sees the packages just installed.
check: deps
	@$(MAKE) --no-print-directory check-real

demo: deps
	@$(MAKE) --no-print-directory demo-real

lab-check: deps
	@$(MAKE) --no-print-directory lab-check-real

RUN_TESTS = $(if $(T),$(foreach t,$(TEST_BINS) $(SH_TESTS),$(if $(findstring $(T),$(notdir $(t))),$(t))),$(TEST_BINS) $(SH_TESTS))

# Real inputs from real machines, each with its .source.txt, are kept in the
# tree (tests/data/cases); RV_CASES=DIR points elsewhere.
RV_CASES ?= $(CURDIR)/tests/data/cases
# RV_RULES_STRICT=1: a finding whose id the rule catalogue (util/rules.c)
# lacks, or at a level its line does not allow, aborts the test that made it.

check-real: all $(TEST_BINS)
	@test -d "$(RV_CASES)" || { echo "check: no test cases at '$(RV_CASES)': the tests read the real inputs in tests/data/cases (or set RV_CASES=DIR)" >&2; exit 2; }
	RV_TOP=$(CURDIR) RV_BUILD=$(abspath $(O)) RV_CASES=$(RV_CASES) RV_RULES_STRICT=1 \
	    prove -e '' $(RUN_TESTS)

check-unit: all $(TEST_BINS)
	RV_TOP=$(CURDIR) RV_BUILD=$(abspath $(O)) RV_CASES=$(RV_CASES) RV_RULES_STRICT=1 \
	    prove -e '' $(TEST_BINS)

demo-real: all
	RV_TOP=$(CURDIR) ./build-aux/demo.sh $(abspath $(O))

lab-check-real: all
	RV_TOP=$(CURDIR) ./tests/lab/lab-check.sh $(abspath $(O))

# The lab host (tests/lab/README.md): the package from `make deb`, the lab
# kernel (the lab VM's), a Debian 12 disk image (both cached in
# /var/cache/rtvirt/lab), booted through GRUB with systemd, across reboots.
lab-host-check: deps
	@$(MAKE) --no-print-directory lab-host-check-real

lab-host-check-real: deb
	RV_TOP=$(CURDIR) ./tests/lab/lab-host-check.sh $(abspath $(O))

# The same lab host in two boots, the flagship's coresched and nosmt
# scenarios only: what .ci/run runs (tests/lab/README.md).
lab-host-check-short: deps
	@$(MAKE) --no-print-directory lab-host-check-short-real

lab-host-check-short-real: deb
	RV_TOP=$(CURDIR) ./tests/lab/lab-host-check.sh --short $(abspath $(O))

# Layers point down only; no function outside tests over 150 lines; the
# Ansible collection is ansible-lint clean (production profile).
lint:
	./build-aux/check-layers.sh .
	./build-aux/long-functions.sh -n 15 .
	cd ansible && ansible-lint --nocolor -q

# doc/rules.md is generated from the rule catalogue (util/rules.c) by the
# binary; tests/t-rules.sh fails when the committed one differs.
doc/rules.md: FORCE $(O)/rtvirt
	$(O)/rtvirt rules --markdown >$@.tmp && mv $@.tmp $@

# The release tarball: every file git tracks (from the work tree), under
# rtvirt-VERSION/, in a reproducible order with fixed owner and mtime.  No
# .git inside, so the build from it reports the bare release number.
DIST_NAME := rtvirt-$(RV_RELEASE)
dist:
	@git -C '$(CURDIR)' rev-parse --git-dir >/dev/null 2>&1 || \
	    { echo "dist: needs a git checkout (the tarball holds the files git tracks)" >&2; exit 2; }
	@mkdir -p $(O)
	git -C '$(CURDIR)' ls-files -z | \
	    tar --null -T - --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
	        --transform 's,^,$(DIST_NAME)/,' -czf $(O)/$(DIST_NAME).tar.gz
	@echo "dist: $(O)/$(DIST_NAME).tar.gz"

ansible-collection:
	@mkdir -p $(O)
	ansible-galaxy collection build --force --output-path $(O) ansible

# The Debian package, built by dpkg-buildpackage (debhelper, debian/) from
# the dist tarball unpacked in $(O)/deb, so it holds what a release holds;
# lintian must report no error (warnings are printed).  Without MAKEFLAGS and O:
# the package's own make must not inherit O= (its `make clean` would
# remove this $(O)).  debian/changelog's
# version must be the release number.
DEB := $(O)/deb/rtvirt_$(RV_RELEASE)_amd64.deb
deb: dist
	@v=$$(dpkg-parsechangelog -l debian/changelog -S Version) && [ "$$v" = '$(RV_RELEASE)' ] || \
	    { echo "deb: debian/changelog has version $$v, the release is $(RV_RELEASE)" >&2; exit 2; }
	rm -rf $(O)/deb && mkdir -p $(O)/deb
	tar -C $(O)/deb -xzmf $(O)/$(DIST_NAME).tar.gz
	cd $(O)/deb/$(DIST_NAME) && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u O \
	    DEB_BUILD_OPTIONS='nocheck parallel=$(shell nproc)' dpkg-buildpackage -b -us -uc >../build.log 2>&1 || \
	    { tail -n 30 ../build.log >&2; echo "deb: dpkg-buildpackage failed, see $(O)/deb/build.log" >&2; exit 2; }
	lintian --fail-on error $(DEB)
	@echo "deb: $(DEB)"

INSTALL_BINS := $(O)/rtvirt $(O)/rtvirt-pert $(O)/rtvirt-tpcc $(GUEST_TOOLS)
PROFILE_FILES := $(sort $(shell find profiles -type f -name '*.ini'))

install: all
	install -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)/man1' '$(DESTDIR)$(MANDIR)/man5' \
	    '$(DESTDIR)$(BASHCOMPDIR)'
	install -m 755 $(INSTALL_BINS) '$(DESTDIR)$(BINDIR)/'
	install -m 644 doc/rtvirt.1 '$(DESTDIR)$(MANDIR)/man1/rtvirt.1'
	install -m 644 doc/rtvirt-profiles.5 '$(DESTDIR)$(MANDIR)/man5/rtvirt-profiles.5'
	install -m 644 build-aux/rtvirt.bash-completion '$(DESTDIR)$(BASHCOMPDIR)/rtvirt'
	for f in $(PROFILE_FILES); do \
	    install -D -m 644 "$$f" '$(DESTDIR)$(DATADIR)/rtvirt/'"$$f" || exit 1; \
	done

uninstall:
	rm -f $(foreach b,$(notdir $(INSTALL_BINS)),'$(DESTDIR)$(BINDIR)/$(b)')
	rm -f '$(DESTDIR)$(MANDIR)/man1/rtvirt.1' '$(DESTDIR)$(MANDIR)/man5/rtvirt-profiles.5'
	rm -f '$(DESTDIR)$(BASHCOMPDIR)/rtvirt'
	rm -rf '$(DESTDIR)$(DATADIR)/rtvirt'

clean:
	rm -rf $(O)

-include $(LIB_OBJS:.o=.d) $(O)/harness/main.d $(O)/harness/pert-main.d $(TEST_BINS:=.d)
