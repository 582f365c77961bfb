# The LANai toolchain (toolchain/) and its interpreter (ref/iss/): lanai-cc,
# lanai-ld, crt0 and the runtime, lanai-iss, with their tests.
#
# Products: build/bin/lanai-ld  build/bin/lanai-iss  build/bin/lanai-cc
#           build/lib/lanai/crt0.o  build/lib/lanai/liblanai-rt.a
#           build/include/lanai/*.h
#           tests: build/tests/isa/vectors, build/tests/unit/test_runtime,
#           build/fuzz/fuzz_lanai_ld, build/fuzz/fuzz_loadable (FUZZ_CC, the
#           fuzzers' compiler, is defined here for mk/emu.mk's fuzzers too)
# Targets:  none of its own (make all).
# Suites:   tests/isa/vectors-suite, tests/isa/suite, tests/isa/mutants,
#           tests/ld/suite, tests/hazard/{isa-strict,firmware,random-strict,
#           cluster-strict}, tests/fuzz/suite (every fuzzer), tests/unit/suite.

TC_B      := $(BUILD)/toolchain
HOST_INC  := $(CONTRACT_INC) $(COMMON_INC) -Iref/iss

LANAI_CLANG := $(LLVM_BIN)/clang --target=lanai -ffreestanding -nostdlibinc
LLVM_AR     := $(LLVM_BIN)/llvm-ar
RT_CFLAGS   := -O2 -fno-builtin -fno-strict-aliasing -Wall -Wextra -Werror -I$(TC)/include $(CONTRACT_INC)

LD_SRCS   := $(wildcard $(TC)/lanai-ld/*.c)
# the loader's sources: the fuzzer compiles its own copy, with sanitizers
LOADABLE_SRCS := common/crc32.c common/loadable.c
# What lanai-cc puts on a LANai program's include path (build/include/lanai):
# the runtime's header and the test machine's ABI from the contract.
TC_PUBLIC := $(BUILD)/include/lanai/lanai-rt.h $(BUILD)/include/lanai/lanai-testmachine.h
ISS_CORE  := ref/iss/iss.c ref/iss/disas.c common/lanai_reguse.c
RT_SRCS   := $(TC)/start.c $(wildcard $(TC)/runtime/*.c)
RT_OBJS   := $(patsubst $(TC)/%.c,$(TC_B)/rt/%.o,$(RT_SRCS))
TC_HDRS   := $(wildcard $(TC)/include/*.h)

ALL_TARGETS += $(BIN)/lanai-ld $(BIN)/lanai-iss $(BIN)/lanai-cc \
               $(RT_LIB)/crt0.o $(RT_LIB)/liblanai-rt.a \
               $(TC_PUBLIC)

$(BIN)/lanai-ld: $(LD_SRCS) $(TC)/lanai-ld/ld.h $(COMMON_LIB) $(CONTRACT_HDRS) $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) $(HOST_INC) $(LD_SRCS) $(COMMON_LIB) -o $@

$(BIN)/lanai-iss: $(ISS_CORE) ref/iss/main.c ref/iss/iss.h $(COMMON_LIB) $(CONTRACT_HDRS) $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) $(HOST_INC) $(ISS_CORE) ref/iss/main.c $(COMMON_LIB) -o $@

$(BIN)/lanai-cc: $(TC)/lanai-cc $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(SCRIPT_COPY)

$(BUILD)/include/lanai/lanai-rt.h: $(TC)/include/lanai-rt.h
	@mkdir -p $(@D)
	cp $< $@

$(BUILD)/include/lanai/lanai-testmachine.h: include/nicoll/lanai-testmachine.h
	@mkdir -p $(@D)
	cp $< $@

$(RT_LIB)/crt0.o: $(TC)/crt0.S
	@mkdir -p $(@D)
	$(LANAI_CLANG) -c $< -o $@

$(TC_B)/rt/%.o: $(TC)/%.c $(TC_HDRS) $(CONTRACT_HDRS)
	@mkdir -p $(@D)
	$(LANAI_CLANG) $(RT_CFLAGS) -c $< -o $@

$(RT_LIB)/liblanai-rt.a: $(RT_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(LLVM_AR) rcsD $@ $^

# ---- tests ----------------------------------------------------------------
ALL_TARGETS += $(BUILD)/tests/isa/vectors
CHECK_SUITES += tests/isa/vectors-suite tests/isa/suite tests/isa/mutants tests/ld/suite

$(BUILD)/tests/isa/vectors: tests/isa/vectors.c $(ISS_CORE) ref/iss/iss.h common/lanai_reguse.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(CONTRACT_INC) $(COMMON_INC) -Iref/iss $< $(ISS_CORE) -lcmocka -o $@

# libFuzzer targets for the parsers (lanai-ld inputs; ELF/image loader).
FUZZ_CC := $(LLVM_BIN)/clang -g -O1 -fsanitize=fuzzer,address,undefined \
           -fno-sanitize-recover=undefined
LD_LIB_SRCS := $(filter-out $(TC)/lanai-ld/main.c,$(LD_SRCS))
ALL_TARGETS += $(BUILD)/fuzz/fuzz_lanai_ld $(BUILD)/fuzz/fuzz_loadable
CHECK_SUITES += tests/fuzz/suite

$(BUILD)/fuzz/fuzz_lanai_ld: tests/fuzz/fuzz_lanai_ld.c $(LD_SRCS) $(TC)/lanai-ld/ld.h common/crc32.c common/lanai_reguse.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(HOST_INC) -I$(TC)/lanai-ld $< $(LD_LIB_SRCS) common/crc32.c common/lanai_reguse.c -o $@

$(BUILD)/fuzz/fuzz_loadable: tests/fuzz/fuzz_loadable.c $(LOADABLE_SRCS) common/loadable.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(HOST_INC) $< $(LOADABLE_SRCS) -o $@

# Host-compiled unit tests of the runtime's libcalls (cmocka).
ALL_TARGETS += $(BUILD)/tests/unit/test_runtime
CHECK_SUITES += tests/unit/suite

$(BUILD)/tests/unit/test_runtime: tests/unit/test_runtime.c tests/unit/rt_rename.h $(TC)/include/lanai-rt.h \
		$(TC)/runtime/div.c $(TC)/runtime/mul.c $(TC)/runtime/shift.c $(TC)/runtime/string.c
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra -fno-builtin -fno-strict-aliasing \
	    -I$(TC)/include -include tests/unit/rt_rename.h $(filter %.c,$^) -lcmocka -o $@

# LANai 9.0/9.1 load hazards: strict mode (lanai-iss --strict,
# QEMU -cpu lanai9.0) and lanai-ld's hazard pass (-mcpu=lanai9.0), checked on
# the ISA programs, the firmware images and random instruction streams.
# The unit tests of the pass are rows of tests/ld/suite.
CHECK_SUITES += tests/hazard/isa-strict tests/hazard/firmware tests/hazard/random-strict tests/hazard/cluster-strict
