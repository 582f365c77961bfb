# Liveness of the point-to-point path under loss at every
# position and at random (tests/loss/suite). The host programs and firmware
# are mk/nicoll.mk's and mk/barrier.mk's; the negative control's program
# (the ping-pong echo that drops an early RECV, which stalls under loss) is
# built here.
LOSS_T := $(BUILD)/tests/loss

ALL_TARGETS += $(LOSS_T)/host_nicoll_drop_early.so
CHECK_SUITES += tests/loss/suite

$(LOSS_T)/host_nicoll_drop_early.so: tests/nicoll/host_nicoll.c tests/nicoll/pattern.h tests/lib/open_port.h \
                                      host/lib/nicoll.c host/lib/nicoll.h include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC -DHOST_NICOLL_DROP_EARLY_RECV $(NCL_INC) $< \
	    $(NCL_LIB_SRCS) -o $@
