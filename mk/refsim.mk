# refsim: the reference cluster simulator (ref/iss CPUs + NIC/board logic +
# hosts + fabric), QEMU-independent, and its end-to-end tests.
REFSIM_SRCS := lanai-emu/refsim/refsim.c lanai-emu/nic/nic.c lanai-emu/nic/board.c \
               $(FABRIC_SRCS) lanai-emu/host/hostrt.c host/lib/fwload.c host/lib/board_hostif.c host/lib/board_words.c \
               $(TC)/lib/loadable.c $(TC)/lib/crc32.c ref/iss/iss.c ref/iss/disas.c \
               $(wildcard lanai-emu/profile/profile*.c)
# Order matters: lanai-emu/nic's board.h must win over host/lib's for refsim.h.
REFSIM_INC  := -Ilanai-emu/refsim -Ilanai-emu/nic -Ilanai-emu/fabric -Ilanai-emu/host \
               -Ilanai-emu/profile -Ihost/lib -Ifirmware/hal -Ifirmware/mcp -Iref/iss \
               -I$(TC)/lib -I$(TC)/include

ALL_TARGETS += $(BUILD)/tests/refsim/test_refsim $(BUILD)/tests/refsim/fw_pingpong.img
CHECK_SUITES += tests/refsim/suite

$(BUILD)/tests/refsim/test_refsim: tests/refsim/test_refsim.c lanai-emu/refsim/refsim.h $(REFSIM_SRCS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -g -Wall -Wextra -D_DEFAULT_SOURCE $(REFSIM_INC) \
	    $< $(filter-out lanai-emu/profile/lanai-profile.c,$(REFSIM_SRCS)) -lcmocka -lpcap -o $@

$(BUILD)/tests/refsim/fw_pingpong.img: tests/refsim/fw_pingpong.c firmware/hal/lanai9_regs.h \
		firmware/mcp/shared_block.h $(BIN)/lanai-cc $(BIN)/lanai-ld $(RT_LIB)/crt0.o $(RT_LIB)/liblanai-rt.a
	@mkdir -p $(@D)
	$(BIN)/lanai-cc -O2 -Ifirmware/hal -Ifirmware/mcp $< -o $(BUILD)/tests/refsim/fw_pingpong.elf \
	    -Wl,--mem-size,2M,--image,$@
