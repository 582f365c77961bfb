# nicoll top-level Makefile.
#
#   make deps     install every Debian package the project needs (as root)
#   make          build the toolchain, reference interpreter and tests
#   make check    run every test suite; ends with "N passed, N failed"
#
# Each component adds its own rules in mk/<component>.mk: it appends build
# products to ALL_TARGETS and TAP-speaking test suites to CHECK_SUITES, so that
# components do not edit each other's rules. Generated files go to build/ only.

BUILD    ?= build
LLVM_BIN ?= /usr/lib/llvm-14/bin
HOSTCC   ?= gcc
# -ffile-prefix-map: debug info and __FILE__ name sources relative to the
# checkout, so that no installed tool or library holds its path (mk/install.mk).
FILE_PREFIX_MAP := -ffile-prefix-map=$(CURDIR)=.
HOST_CFLAGS ?= -std=c11 -O2 -g -Wall -Wextra -Werror=implicit-function-declaration $(FILE_PREFIX_MAP)
export BUILD LLVM_BIN

# Paths every fragment may use (fragments are included in name order).
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

.PHONY: all deps check clean emu firmware host mutants run
.DEFAULT_GOAL := all

include $(sort $(wildcard mk/*.mk))

all: $(ALL_TARGETS)

deps:
	bash ci/deps

check: all $(CHECK_TARGETS)
	@bash tests/run $(CHECK_SUITES)

mutants: $(CHECK_TARGETS)

# The emulator (mk/emu.mk builds it; this is the name users type).
emu: emu-build

# firmware (the MCP images), host (libnicoll, lanai-flash) and run (a job on
# the emulated cluster) are defined in mk/nicoll.mk.

clean:
	rm -rf $(BUILD)
