# LANai 9 NIC device logic (lanai-emu/nic), QEMU-independent, and its tests.
NIC_SRCS := lanai-emu/nic/nic.c
NIC_HDRS := lanai-emu/nic/nic.h firmware/hal/lanai9_regs.h

ALL_TARGETS += $(BUILD)/tests/nic/test_nic
CHECK_SUITES += tests/nic/suite

$(BUILD)/tests/nic/test_nic: tests/nic/test_nic.c $(NIC_SRCS) $(NIC_HDRS) $(FABRIC_SRCS) $(FABRIC_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(FABRIC_CFLAGS) -Ilanai-emu/nic -Ifirmware/hal \
	    $< $(NIC_SRCS) $(FABRIC_SRCS) -lcmocka -lpcap -o $@
