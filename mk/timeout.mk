# Send time-outs (tests/timeout/suite, docs/firmware.md
# "Send time-outs"). The firmware images, among them the negative control
# mcp_no_send_timeout.img, are mk/nicoll.mk's; the host program is built here.
TMO_T := $(BUILD)/tests/timeout

ALL_TARGETS += $(TMO_T)/host_timeout.so
CHECK_SUITES += tests/timeout/suite

$(TMO_T)/host_timeout.so: tests/timeout/host_timeout.c tests/nicoll/pattern.h tests/lib/open_port.h \
                          $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h $(COMMON_LIB)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) $(COMMON_LIB) -o $@
