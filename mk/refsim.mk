# refsim: the reference cluster simulator (ref/iss CPUs + NIC/board logic +
# hosts + fabric), QEMU-independent, and its end-to-end tests.
REFSIM_SRCS := lanai-emu/refsim/refsim.c lanai-emu/nic/nic.c lanai-emu/nic/board_window.c \
               $(FABRIC_SRCS) lanai-emu/host/hostrt.c ref/iss/iss.c ref/iss/disas.c common/lanai_reguse.c \
               $(wildcard lanai-emu/profile/profile*.c)
REFSIM_INC  := -Ilanai-emu/refsim -Ilanai-emu/nic -Ilanai-emu/fabric -Ilanai-emu/host \
               -Ilanai-emu/profile $(COMMON_INC) $(CONTRACT_INC) -Iref/iss

ALL_TARGETS += $(BUILD)/tests/refsim/test_refsim $(BUILD)/tests/refsim/fw_pingpong.img
CHECK_SUITES += tests/refsim/suite

$(BUILD)/tests/refsim/test_refsim: tests/refsim/test_refsim.c lanai-emu/refsim/refsim.h $(REFSIM_SRCS) $(COMMON_LIB)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -g -Wall -Wextra -D_DEFAULT_SOURCE $(REFSIM_INC) \
	    $< $(filter-out lanai-emu/profile/lanai-profile.c,$(REFSIM_SRCS)) $(COMMON_LIB) -lcmocka -lpcap -o $@

$(BUILD)/tests/refsim/fw_pingpong.img: tests/refsim/fw_pingpong.c include/nicoll/lanai9_regs.h \
		include/nicoll/shared_block.h $(BIN)/lanai-cc $(BIN)/lanai-ld $(RT_LIB)/crt0.o $(RT_LIB)/liblanai-rt.a
	@mkdir -p $(@D)
	$(BIN)/lanai-cc -O2 $(CONTRACT_INC) $< -o $(BUILD)/tests/refsim/fw_pingpong.elf \
	    -Wl,--mem-size,2M,--image,$@

# The host side of fw_pingpong for the QEMU machine (tests/refsim/suite
# compares its back-pressure scenario with test_refsim's).
ALL_TARGETS += $(BUILD)/tests/refsim/host_pingpong.so
$(BUILD)/tests/refsim/host_pingpong.so: tests/refsim/host_pingpong.c include/nicoll/hostif.h \
		include/nicoll/lanai9_regs.h include/nicoll/shared_block.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(CONTRACT_INC) $< -o $@
