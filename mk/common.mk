# common/: host-side code shared by the tools (lanai-ld, lanai-iss,
# lanai-flash), libnicoll's pci backend, the tests and the emulator: the
# image and ELF loader, CRC-32, the firmware loader and board-window access.
# Built once here into $(COMMON_LIB), position-independent so that host
# programs (shared objects) can link it too. QEMU compiles its own copy from
# the manifest lanai-emu/shared-files (its flags are QEMU's); the fuzzers
# compile theirs with sanitizers.
#
# Products: build/lib/libnicoll-common.a; NC_VERSION and SCRIPT_COPY for
#           the other fragments.
# Targets:  none of its own.
# Suites:   none of its own: its users' suites test it (tests/host,
#           tests/fuzz, tests/nic, tests/nicoll/unit).
COMMON_SRCS := $(wildcard common/*.c)
COMMON_HDRS := $(wildcard common/*.h)
COMMON_OBJS := $(patsubst common/%.c,$(BUILD)/common/%.o,$(COMMON_SRCS))

ALL_TARGETS += $(COMMON_LIB)

# The project's version, written once in common/nc_version.h: the C tools
# include it, the script tools get it when they are copied into build/bin
# (their @NC_VERSION@; SCRIPT_COPY is that copy's recipe, for a rule whose
# first prerequisite is the script), the install takes it for the shared
# library and the pkg-config files (mk/install.mk).
NC_VERSION_H := common/nc_version.h
NC_VERSION   := $(shell sed -n 's/.*define NC_VERSION "\(.*\)".*/\1/p' $(NC_VERSION_H))
SCRIPT_COPY   = sed 's/@NC_VERSION@/$(NC_VERSION)/g' $< > $@.tmp && chmod +x $@.tmp && mv $@.tmp $@

$(BUILD)/common/%.o: common/%.c $(COMMON_HDRS) $(CONTRACT_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -fPIC $(COMMON_INC) $(CONTRACT_INC) -c $< -o $@

$(COMMON_LIB): $(COMMON_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^
