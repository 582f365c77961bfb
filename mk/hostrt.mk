# Hosts in virtual time (lanai-emu/host): coroutine runtime and the host
# interface, QEMU-independent, with their tests.
HOSTRT_SRCS := lanai-emu/host/hostrt.c
HOSTRT_HDRS := lanai-emu/host/hostrt.h include/nicoll/hostif.h

ALL_TARGETS += $(BUILD)/tests/hostrt/test_hostrt
CHECK_SUITES += tests/hostrt/suite

$(BUILD)/tests/hostrt/test_hostrt: tests/hostrt/test_hostrt.c $(HOSTRT_SRCS) $(HOSTRT_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra -Ilanai-emu/host $(CONTRACT_INC) $< $(HOSTRT_SRCS) -lcmocka -o $@
