# common/: host-side code shared by the tools (lanai-ld, lanai-iss,
# lanai-flash), libnicoll's pci backend, the tests and the emulator: the
# image and ELF loader, CRC-32, the firmware loader and board-window access.
# Built once here into $(COMMON_LIB), position-independent so that host
# programs (shared objects) can link it too. QEMU compiles its own copy from
# the manifest lanai-emu/shared-files (its flags are QEMU's); the fuzzers
# compile theirs with sanitizers.
COMMON_SRCS := $(wildcard common/*.c)
COMMON_HDRS := $(wildcard common/*.h)
COMMON_OBJS := $(patsubst common/%.c,$(BUILD)/common/%.o,$(COMMON_SRCS))

ALL_TARGETS += $(COMMON_LIB)

$(BUILD)/common/%.o: common/%.c $(COMMON_HDRS) $(CONTRACT_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -fPIC $(COMMON_INC) $(CONTRACT_INC) -c $< -o $@

$(COMMON_LIB): $(COMMON_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^
