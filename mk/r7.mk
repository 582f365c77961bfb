# The host-based PE/GB barriers (host/lib/nc_hbarrier.c), their
# tests (tests/hbarrier) and benchmark R7 (host/bench/r7, docs/bench-r7.md).
# Included after mk/nicoll.mk (name order): FW_*, NCL_* are defined.
R7_B   := $(BUILD)/bench
HB_T   := $(BUILD)/tests/hbarrier
HB_SRCS := host/lib/nc_hbarrier.c
HB_HDRS := host/lib/nc_hbarrier.h

# P-GM1-L43's NIC has 1 MB of SRAM: R7 loads $(FW_DIR)/mcp_1m.img there
# (mk/nicoll.mk), mcp.img (2 MB) on P-GM1-L72.
ALL_TARGETS += $(R7_B)/r7_barrier.so $(HB_T)/host_hbar.so
CHECK_SUITES += tests/hbarrier/suite

# Host programs: libnicoll compiled in, as mk/nicoll.mk does for tests/nicoll.
$(R7_B)/r7_barrier.so: host/bench/r7_barrier.c $(HB_SRCS) $(HB_HDRS) $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(HB_SRCS) $(NCL_LIB_SRCS) -o $@

$(HB_T)/host_hbar.so: tests/hbarrier/host_hbar.c $(HB_SRCS) $(HB_HDRS) $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(HB_SRCS) $(NCL_LIB_SRCS) -o $@

# The same program over the mutants of nc_hbarrier.c
# (tests/hbarrier/mutants/nc_hbarrier_NAME.patch, applied to a copy of host/lib).
HB_MUTANTS := $(patsubst nc_hbarrier_%.patch,%,$(notdir $(wildcard tests/hbarrier/mutants/nc_hbarrier_*.patch)))
CHECK_TARGETS += $(foreach v,$(HB_MUTANTS),$(MUT)/hbarrier/host_hbar_$(v).so)
$(MUT)/hbarrier/host_hbar_%.so: tests/hbarrier/mutants/nc_hbarrier_%.patch tests/hbarrier/host_hbar.c $(HB_SRCS) $(HB_HDRS) \
        $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h tests/lib/mutate
	@mkdir -p $(@D)
	bash tests/lib/mutate $< $(MUT)/hbarrier/$*.src host/lib
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) tests/hbarrier/host_hbar.c \
	    $(patsubst host/lib/%,$(MUT)/hbarrier/$*.src/host/lib/%,$(HB_SRCS) $(NCL_LIB_SRCS)) -o $@

R7_DEPS := $(R7_B)/r7_barrier.so $(FW_DIR)/mcp_1m.img $(FW_DIR)/mcp.img $(BIN)/lanai-run
bench: $(R7_DEPS)
run: $(R7_DEPS)
