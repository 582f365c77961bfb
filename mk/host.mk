# Host side: the board-window access and firmware loader of host/lib, the
# lanai-flash tool, and their tests.
HOSTLIB_INC  := -Ihost/lib -Ifirmware/hal -Ifirmware/mcp -I$(TC)/lib -I$(TC)/include
HOSTLIB_SRCS := host/lib/board_mmap.c host/lib/fwload.c $(TC)/lib/loadable.c $(TC)/lib/crc32.c
HOSTLIB_HDRS := host/lib/board.h host/lib/fwload.h firmware/hal/lanai9_regs.h \
                firmware/mcp/shared_block.h

ALL_TARGETS += $(BIN)/lanai-flash $(BUILD)/tests/host/test_fwload \
               $(BUILD)/tests/host/fake_mcp $(BUILD)/tests/host/fw_ready.img
CHECK_SUITES += tests/host/suite

$(BIN)/lanai-flash: host/tools/lanai-flash.c $(HOSTLIB_SRCS) $(HOSTLIB_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) $(HOSTLIB_INC) $< $(HOSTLIB_SRCS) -o $@

$(BUILD)/tests/host/test_fwload: tests/host/test_fwload.c $(HOSTLIB_SRCS) $(HOSTLIB_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(HOSTLIB_INC) $< $(HOSTLIB_SRCS) -lcmocka -o $@

$(BUILD)/tests/host/fake_mcp: tests/host/fake_mcp.c host/lib/board_mmap.c $(HOSTLIB_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) $(HOSTLIB_INC) $< host/lib/board_mmap.c -o $@

# A minimal firmware that answers the handshake, built for 2 MB of SRAM.
$(BUILD)/tests/host/fw_ready.img: tests/host/fw_ready.c firmware/mcp/shared_block.h \
		$(BIN)/lanai-cc $(BIN)/lanai-ld $(RT_LIB)/crt0.o $(RT_LIB)/liblanai-rt.a
	@mkdir -p $(@D)
	$(BIN)/lanai-cc -O2 -Ifirmware/mcp $< -o $(BUILD)/tests/host/fw_ready.elf \
	    -Wl,--mem-size,2M,--image,$@
