# Host side: the lanai-flash tool over common/'s board access and firmware
# loader (libnicoll-common.a), and their tests.
HOSTLIB_INC  := $(COMMON_INC) $(CONTRACT_INC)
HOSTLIB_DEPS := $(COMMON_LIB) common/board.h common/fwload.h include/nicoll/lanai9_regs.h \
                include/nicoll/shared_block.h

ALL_TARGETS += $(BIN)/lanai-flash $(BUILD)/tests/host/test_fwload \
               $(BUILD)/tests/host/fake_mcp $(BUILD)/tests/host/fw_ready.img
CHECK_SUITES += tests/host/suite

$(BIN)/lanai-flash: host/tools/lanai-flash.c $(HOSTLIB_DEPS) $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) $(HOSTLIB_INC) $< $(COMMON_LIB) -o $@

$(BUILD)/tests/host/test_fwload: tests/host/test_fwload.c $(HOSTLIB_DEPS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(HOSTLIB_INC) $< $(COMMON_LIB) -lcmocka -o $@

$(BUILD)/tests/host/fake_mcp: tests/host/fake_mcp.c $(HOSTLIB_DEPS)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) $(HOSTLIB_INC) $< $(COMMON_LIB) -o $@

# A minimal firmware that answers the handshake, built for 2 MB of SRAM.
$(BUILD)/tests/host/fw_ready.img: tests/host/fw_ready.c include/nicoll/shared_block.h \
		$(BIN)/lanai-cc $(BIN)/lanai-ld $(RT_LIB)/crt0.o $(RT_LIB)/liblanai-rt.a
	@mkdir -p $(@D)
	$(BIN)/lanai-cc -O2 $(CONTRACT_INC) $< -o $(BUILD)/tests/host/fw_ready.elf \
	    -Wl,--mem-size,2M,--image,$@
