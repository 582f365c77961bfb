# nicoll top-level Makefile.
#
#   make deps     install every Debian package the project needs (as root)
#   make          build the toolchain, reference interpreter and tests
#   make check    run every test suite; ends with "N passed, N failed"
#   make help     every target users type, one line each
#
# Each room of the repository (docs/architecture.md) has its rules in one
# fragment, mk/ROOM.mk: it appends build products to ALL_TARGETS, test-only
# products to CHECK_TARGETS and TAP-speaking test suites to CHECK_SUITES, so
# that rooms do not edit each other's rules. Generated files go to build/ only.
# A target users type has a line "## TARGET: what it does" above its rule;
# make help prints those lines, and tests/arch/suite checks that every
# .PHONY target has one.

BUILD    ?= build
LLVM_BIN ?= /usr/lib/llvm-14/bin
HOSTCC   ?= gcc
# -ffile-prefix-map: debug info and __FILE__ name sources relative to the
# checkout, so that no installed tool or library holds its path (mk/install.mk).
FILE_PREFIX_MAP := -ffile-prefix-map=$(CURDIR)=.
HOST_CFLAGS ?= -std=c11 -O2 -g -Wall -Wextra -Werror=implicit-function-declaration $(FILE_PREFIX_MAP)
export BUILD LLVM_BIN

# Paths every fragment may use.
TC     := toolchain
BIN    := $(BUILD)/bin
RT_LIB := $(BUILD)/lib/lanai

# The two rooms everyone may use (docs/architecture.md): the host-NIC
# contract (include/nicoll/, headers only, depends on nothing) and the
# host-side code shared by tools, tests and the emulator (common/, built
# once into one archive by mk/common.mk).
CONTRACT_INC  := -Iinclude
CONTRACT_HDRS := $(wildcard include/nicoll/*.h)
COMMON_INC    := -Icommon
COMMON_LIB    := $(BUILD)/lib/libnicoll-common.a

ALL_TARGETS  :=
CHECK_SUITES :=
# What only the tests use (the mutants of tests/*/mutants/, built from
# patched copies of the sources under $(BUILD)/mutants/): built by make
# check and make mutants, never by make.
CHECK_TARGETS :=
MUT := $(BUILD)/mutants
# A mutant's rule finds its patch with $$(wildcard tests/*/mutants/NAME.patch).
.SECONDEXPANSION:

.PHONY: all deps check clean help mutants
.DEFAULT_GOAL := all

# The fragments, each read after those whose variables it uses at parse time
# (in its := definitions, its $(wildcard)s and its rules' prerequisites):
# host's libnicoll before the firmware's end-to-end tests and the MPI that
# compile it in, every room before the bench and the install that use their
# products. A fragment not listed here stops make, rather than being skipped.
MK_FRAGMENTS := mk/common.mk mk/toolchain.mk mk/emu.mk mk/host.mk mk/firmware.mk mk/mpi.mk \
                mk/models.mk mk/proofs.mk mk/bench.mk mk/install.mk mk/arch.mk
$(if $(filter-out $(MK_FRAGMENTS),$(wildcard mk/*.mk)),\
  $(error $(filter-out $(MK_FRAGMENTS),$(wildcard mk/*.mk)): not in MK_FRAGMENTS (Makefile)))

include $(MK_FRAGMENTS)

# The order make check runs the suites in. Each fragment registers the
# suites of its room (CHECK_SUITES += ...), but the rooms are read in the
# order of their parse-time uses, and some suites need an earlier one's
# outputs (tests/ld/suite those of tests/isa/suite): the order is written
# once, here. A suite registered by no fragment, or registered and not
# listed here, stops make.
CHECK_ORDER := tests/arch/suite tests/barrier/suite tests/bench/suite tests/bench/r2leaves \
               tests/cli/suite tests/dissector/suite tests/emu/suite tests/emu/random \
               tests/fabric/suite tests/irregular/suite tests/hazard/isa-strict tests/hazard/firmware \
               tests/hazard/random-strict tests/hazard/cluster-strict tests/host/suite \
               tests/hostrt/suite tests/install/suite tests/loss/suite tests/mcast/suite tests/mcast/kbinomial tests/mcast/swgroup \
               tests/models/suite tests/mpi/suite tests/mpich/suite tests/myrinet/suite tests/myrinet/idle \
               tests/myrinet/backpressure tests/myrinet/swmc tests/myrinet/dma tests/nic/suite tests/nicvm/suite tests/nicvm/fw-suite tests/nicvm/mpi/suite \
               tests/nicoll/suite \
               tests/nicoll/unit tests/pipeline/suite tests/plugin/suite tests/profile/suite tests/unit/ref/suite \
               proofs/suite tests/red/suite tests/hmcast/suite tests/hbarrier/suite tests/board/suite \
               tests/refsim/suite tests/red/signals/suite tests/red/bypass/suite tests/red/nic/suite tests/timeline/suite tests/timeout/suite \
               tests/isa/vectors-suite tests/isa/suite tests/isa/mutants tests/ld/suite \
               tests/fuzz/suite tests/unit/suite
$(if $(filter-out $(CHECK_ORDER),$(CHECK_SUITES)),\
  $(error $(filter-out $(CHECK_ORDER),$(CHECK_SUITES)): registered, but not in CHECK_ORDER (Makefile)))
$(if $(filter-out $(CHECK_SUITES),$(CHECK_ORDER)),\
  $(error $(filter-out $(CHECK_SUITES),$(CHECK_ORDER)): in CHECK_ORDER, but no fragment registers it))
CHECK_SUITES := $(CHECK_ORDER)

## all: build every product and test program (the default)
all: $(ALL_TARGETS)

## deps: install every Debian package the project needs (as root; ci/deps)
deps:
	bash ci/deps

## check: build, then run every test suite; ends with "N passed, N failed"
check: all $(CHECK_TARGETS)
	@bash tests/run $(CHECK_SUITES)

## mutants: build the deliberate bugs the suites must catch (build/mutants/)
mutants: $(CHECK_TARGETS)

## help: this list
help:
	@awk '/^## [^ :]+: / { t = $$2; sub(/:$$/, "", t); sub(/^## [^ :]+: /, ""); printf "  %-20s %s\n", t, $$0 }' \
	    Makefile $(MK_FRAGMENTS)

## clean: remove build/ (everything generated)
clean:
	rm -rf $(BUILD)
