# The NIC-based barrier (firmware/coll, libnicoll's nc_barrier_start)
# end to end: tests/barrier/suite. docs/barrier.md. The firmware sources are
# mk/nicoll.mk's FW_SRCS; the suite's mutants of them (tests/barrier/mutants/)
# are built by mk/nicoll.mk's mutant rule.
BAR_T := $(BUILD)/tests/barrier

ALL_TARGETS += $(BAR_T)/host_barrier.so
CHECK_SUITES += tests/barrier/suite

# (mk/nicoll.mk is read after this file: its variables are not set yet
# where prerequisites are expanded, so the library sources are named here)
$(BAR_T)/%.so: tests/barrier/%.c tests/lib/open_port.h host/lib/nicoll.c host/lib/nicoll.h host/lib/nc_barrier_spec.c \
               include/nicoll/nc_abi.h include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@
