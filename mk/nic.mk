# LANai 9 NIC device logic (lanai-emu/nic), QEMU-independent, and its tests.
NIC_SRCS := lanai-emu/nic/nic.c
NIC_HDRS := lanai-emu/nic/nic.h include/nicoll/lanai9_regs.h

ALL_TARGETS += $(BUILD)/tests/nic/test_nic
CHECK_SUITES += tests/nic/suite

$(BUILD)/tests/nic/test_nic: tests/nic/test_nic.c $(NIC_SRCS) $(NIC_HDRS) $(FABRIC_SRCS) $(FABRIC_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(FABRIC_CFLAGS) -Ilanai-emu/nic $(CONTRACT_INC) \
	    $< $(NIC_SRCS) $(FABRIC_SRCS) -lcmocka -lpcap -o $@

# The board window, tested with the host loader and ref/iss as the LANai CPU.
ALL_TARGETS += $(BUILD)/tests/nic/test_board
BOARD_TEST_SRCS := lanai-emu/nic/board_window.c $(NIC_SRCS) ref/iss/iss.c ref/iss/disas.c common/lanai_reguse.c

$(BUILD)/tests/nic/test_board: tests/nic/test_board.c $(BOARD_TEST_SRCS) $(NIC_HDRS) \
		lanai-emu/nic/board_window.h common/fwload.h ref/iss/iss.h $(COMMON_LIB)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(FABRIC_CFLAGS) -Ilanai-emu/nic $(CONTRACT_INC) \
	    $(COMMON_INC) -Iref/iss \
	    $< $(BOARD_TEST_SRCS) $(COMMON_LIB) -lcmocka -o $@
