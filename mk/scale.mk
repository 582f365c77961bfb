# A broadcast on a 1024-node fat tree (docs/multicast.md
# "Scale"). The default build (mcp.img, mcp_1m.img, libnicoll) holds
# NC_ABI_MAX_NODES = 256 peers; 1024 peers do not fit the 1 MiB that
# -mcmodel=small addresses (the MCP keeps ~1.4 KB per peer), so the
# 1024-node pair is a build of its own: the MCP with NC_ABI_MAX_NODES=1024
# in the medium code model (2 MB boards only), and host programs compiled
# with the same number (the ABI block's layout depends on it; libnicoll
# refuses an MCP whose max_nodes differs from its own).
# Read after mk/nicoll.mk (name order): FW_DEPS, FW_CFLAGS and NCL_* are set.
SCALE_T   := $(BUILD)/tests/scale
SCALE_DEF := -DNC_ABI_MAX_NODES=1024u

ALL_TARGETS += $(FW_DIR)/mcp_1024.img $(SCALE_T)/host_mcast_1024.so

# Multicast compiled for size there (NC_MC_MINSIZE, firmware/mcp_image.c):
# at 1024 peers the image's data reaches up to the stack.
$(FW_DIR)/mcp_1024.img: $(FW_DEPS) mk/scale.mk
	@mkdir -p $(@D)
	$(BIN)/lanai-cc $(filter-out -mcmodel=small,$(FW_CFLAGS)) -mcmodel=medium $(SCALE_DEF) -DNC_MC_MINSIZE $(FW_UNIT) \
	    -o $(FW_DIR)/mcp_1024.elf $(FW_LDFLAGS),--image,$@,--map,$(FW_DIR)/mcp_1024.map

$(SCALE_T)/host_mcast_1024.so: tests/mcast/host_mcast.c tests/lib/open_port.h tests/nicoll/pattern.h \
        $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) mk/scale.mk
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $(SCALE_DEF) $< $(NCL_LIB_SRCS) -o $@

# Minutes, not seconds: outside `make check` (docs/multicast.md "Scale").
check-scale: $(FW_DIR)/mcp_1024.img $(SCALE_T)/host_mcast_1024.so $(FW_DIR)/mcp.img $(MC_T)/host_mcast.so \
             $(BIN)/lanai-run
	@bash tests/run tests/scale/suite
.PHONY: check-scale

# R2 beyond the paper at 64 (R2S_NODES: up to 256) nodes on a fat tree:
# NIC postal and binomial against the host's binomial (host/bench/r2scale,
# docs/bench-r1r2.md "Beyond the paper"; beyond 64 nodes only the R2S_TOP
# leaves a probe reaches last are timed). Tens of minutes (256 nodes: ~30):
# not in `make bench`.
.PHONY: bench-r2scale
bench-r2scale: $(R12_B)/r2_bcast.so $(FW_DIR)/mcp.img $(BIN)/lanai-run
	@bash host/bench/r2scale $(BUILD)/bench
