# The GM 1.6.4 validation platform (profiles
# p-gm164-pci64b/c) and its benchmark host/bench/gm_anchor (docs/bench-gm.md),
# run by make bench. Included after mk/nicoll.mk (name order): NCL_* are defined.
GM_B := $(BUILD)/bench

ALL_TARGETS += $(GM_B)/gm_anchor.so

# Host program: libnicoll compiled in, as mk/nicoll.mk does for tests/nicoll.
$(GM_B)/gm_anchor.so: host/bench/gm_anchor.c $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@

bench: $(GM_B)/gm_anchor.so $(FW_DIR)/mcp.img $(BIN)/lanai-run $(BIN)/lanai-profile
