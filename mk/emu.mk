# lanai-emu: the QEMU 7.2 LANai target and the -M lanai-test machine.
# Products:
#   build/qemu/qemu-system-lanai   (lanai-emu/build.sh: fetch, overlay, build)
#   build/bin/lanai-qemu           (wrapper with lanai-iss's command line)
#   build/tests/emu/rdiff          (random differential tester vs ref/iss)
# Targets: emu-build, check-mutants, bench-emu. Docs: docs/emu.md.

EMU_QEMU := $(BUILD)/qemu/qemu-system-lanai
EMU_T    := $(BUILD)/tests/emu

ALL_TARGETS  += $(EMU_QEMU) $(BUILD)/bin/lanai-qemu $(EMU_T)/rdiff
CHECK_SUITES += tests/emu/suite tests/emu/random

.PHONY: emu-build check-mutants bench-emu emu-always

emu-build: $(EMU_QEMU) $(BUILD)/bin/lanai-qemu

# The build script decides what is out of date (download, overlay, patch,
# configure, ninja); a rerun with nothing changed takes about a second.
$(EMU_QEMU): emu-always
	@bash lanai-emu/build.sh

$(BUILD)/bin/lanai-qemu: lanai-emu/lanai-qemu $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(SCRIPT_COPY)

$(EMU_T)/rdiff: tests/emu/rdiff.c ref/iss/iss.c ref/iss/disas.c ref/iss/iss.h common/lanai_reguse.h \
                $(COMMON_LIB)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -Iref/iss $(COMMON_INC) $(CONTRACT_INC) $(filter %.c,$^) $(COMMON_LIB) -o $@

# Deliberate translation bugs, each of which suite or random must catch.
check-mutants: emu-build $(EMU_T)/rdiff all
	@bash tests/emu/mutants
	@bash tests/myrinet/mutants

# Guest instructions per second, QEMU vs lanai-iss (build/bench/emu.csv).
bench-emu: emu-build all
	@bash tests/emu/bench
	@bash tests/myrinet/bench
