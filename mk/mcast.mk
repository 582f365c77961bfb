# NIC multicast (firmware/coll/mcast.c, libnicoll's nc_group_multisend
# and nc_mcast) end to end: tests/mcast/suite. docs/multicast.md. The firmware
# sources are mk/nicoll.mk's FW_SRCS; the suite's mutants of them
# (tests/mcast/mutants/mcp_mc_*.patch) are built by mk/nicoll.mk's mutant rule.
MC_T := $(BUILD)/tests/mcast

ALL_TARGETS += $(MC_T)/host_mcast.so
CHECK_SUITES += tests/mcast/suite

# (mk/nicoll.mk is read after this file: the library sources are named here)
$(MC_T)/%.so: tests/mcast/%.c tests/lib/open_port.h tests/nicoll/pattern.h host/lib/nicoll.c \
              host/lib/nc_group.c host/lib/nc_postal.c host/lib/nc_group.h host/lib/nicoll.h include/nicoll/nc_abi.h include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@
