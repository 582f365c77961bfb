# The MCP (firmware/: the hardware layer, the core, the collectives, built
# as one unit with ref/proto's cores): every firmware image, the firmware
# mutants' rule, and the suites that run the MCP end to end on the emulated
# cluster, with their host programs. docs/firmware.md, docs/barrier.md,
# docs/multicast.md.
#
# Products: build/firmware/mcp.img (2 MB boards), mcp_1m.img (1 MB boards),
#           mcp-lanai9.0.img (LANai 9.0/9.1, hazard pass), mcp_mcstore.img
#           (multicast's other order, to measure), mcp_1024.img (1024-node
#           clusters); tests: build/tests/{nicoll,barrier,mcast,loss,timeout}/*.so,
#           build/tests/plugin/relay.img (the MCP with a test collective);
#           the mutants build/mutants/firmware/mcp_NAME.img, one per
#           tests/*/mutants/mcp_NAME.patch.
# Targets:  firmware, run.
# Suites:   tests/nicoll/suite, tests/plugin/suite, tests/barrier/suite, tests/mcast/suite,
#           tests/loss/suite, tests/pipeline/suite, tests/timeout/suite, tests/red/signals/suite,
#           tests/nicvm/fw-suite, tests/mcast/swgroup.
# Read after mk/host.mk: the host programs compile libnicoll in (NCL_* in
# their prerequisites).
FW_DIR   := $(BUILD)/firmware
# The parts; the firmware is compiled as one unit (firmware/mcp_image.c
# includes them all: inlining across files, docs/firmware.md).
FW_SRCS  := $(wildcard firmware/mcp/*.c) $(wildcard firmware/coll/*.c) \
            firmware/hal/hal.c ref/proto/nc_seq.c ref/proto/nc_barrec.c ref/proto/nc_mcack.c ref/proto/nc_mcgroup.c \
            ref/nicvm/nv_verify.c ref/nicvm/nv_vm.c ref/nicvm/nv_env.c ref/nicvm/nv_cost.c \
            ref/red/nc_red.c ref/red/nc_sfp.c ref/red/nc_xacc.c
FW_UNIT  := firmware/mcp_image.c
FW_HDRS  := $(wildcard firmware/mcp/*.h) $(wildcard firmware/coll/*.h) firmware/hal/hal.h \
            $(CONTRACT_HDRS) ref/proto/nc_seq.h ref/proto/nc_seqarith.h ref/proto/nc_barrec.h ref/proto/nc_mcack.h ref/proto/nc_mcgroup.h \
            ref/include/nc_config.h ref/include/nc_logic.h $(wildcard ref/nicvm/*.h) \
            ref/red/nc_red.h ref/red/nc_sfp.h ref/red/nc_xacc.h
# -mcmodel=small: globals in 21-bit absolute addressing (one instruction
# instead of a hi/lo pair, cheap enough to rematerialise: the backend
# parks fewer address constants on the stack); all of the MCP's data lies
# below 1 MiB (lanai-ld checks). mk/firmware.mk is a dependency: flags rebuild.
# -O3 rather than -O2: 3-7% fewer instructions per barrier (mcp_profile).
FW_CFLAGS := -O3 -mcmodel=small -Wall $(CONTRACT_INC) -Ifirmware/hal -Ifirmware/mcp -Ifirmware/coll -Iref/include -Iref/proto -Iref/nicvm -Iref/red
FW_LDFLAGS := -Wl,--mem-size,2M
# The firmware's mutants (tests/*/mutants/mcp_NAME.patch): each is built
# from a patched copy of firmware/, ref/ and include/ into
# $(MUT)/firmware/mcp_NAME.img, for the suite beside it to show failing.
FW_MUTANT_PATCHES := $(sort $(wildcard tests/*/mutants/mcp_*.patch tests/red/*/mutants/mcp_*.patch))
FW_MUTANTS := $(patsubst %.patch,%,$(notdir $(FW_MUTANT_PATCHES)))
CHECK_TARGETS += $(foreach v,$(FW_MUTANTS),$(MUT)/firmware/$(v).img)

# mcp_1m.img: the same firmware linked for 1 MB of SRAM (P-GM1 profiles'
# LANai 4.x boards; the 2 MB link puts the stack inside their shared block)
# mcp-lanai9.0.img: the same firmware for LANai 9.0/9.1 parts, linked with
# lanai-ld's hazard pass (docs/lanai-isa.md, "Timing and hazards")
FIRMWARE_IMAGES := $(FW_DIR)/mcp.img $(FW_DIR)/mcp_1m.img $(FW_DIR)/mcp-lanai9.0.img $(FW_DIR)/mcp_mcstore.img
ALL_TARGETS += $(FIRMWARE_IMAGES) $(NCL_T)/host_nicoll.so $(NCL_T)/host_charge.so $(NCL_T)/host_bwait.so
CHECK_SUITES += tests/nicoll/suite

.PHONY: firmware
## firmware: the MCP images a user loads (build/firmware/mcp*.img)
firmware: $(FIRMWARE_IMAGES)

FW_DEPS := mk/firmware.mk $(FW_UNIT) $(FW_SRCS) $(FW_HDRS) $(BIN)/lanai-cc $(BIN)/lanai-ld $(RT_LIB)/crt0.o $(RT_LIB)/liblanai-rt.a

$(FW_DIR)/mcp.img: $(FW_DEPS)
	@mkdir -p $(@D)
	$(BIN)/lanai-cc $(FW_CFLAGS) $(FW_UNIT) -o $(FW_DIR)/mcp.elf $(FW_LDFLAGS),--image,$@,--map,$(FW_DIR)/mcp.map

# Without switch multicast (NC_FW_GROUP=0) and the NIC reduction
# (NC_FW_REDUCE=0): their state lies above 1 MiB, which a 1 MB board does
# not have (firmware/coll/group.c, firmware/coll/reduce.c), and their code
# would leave the LANai 9.0 link of this image no room for the stack.
$(FW_DIR)/mcp_1m.img: $(FW_DEPS)
	@mkdir -p $(@D)
	$(BIN)/lanai-cc $(FW_CFLAGS) -DNC_FW_GROUP=0 -DNC_FW_REDUCE=0 $(FW_UNIT) -o $(FW_DIR)/mcp_1m.elf -Wl,--mem-size,1M,--image,$@

# Without the NIC reduction (NC_FW_REDUCE=0): the LANai 9.0's hazard nops
# make the code long enough that its data would pass 1 MiB with it.
$(FW_DIR)/mcp-lanai9.0.img: $(FW_DEPS)
	@mkdir -p $(@D)
	$(BIN)/lanai-cc $(FW_CFLAGS) -mcpu=lanai9.0 -DNC_FW_REDUCE=0 $(FW_UNIT) -o $(FW_DIR)/mcp-lanai9.0.elf \
	    $(FW_LDFLAGS),--image,$@

# multicast's other order at inner members (store to the host, then
# forward): built to measure it against the default (docs/multicast.md)
$(FW_DIR)/mcp_mcstore.img: $(FW_DEPS)
	@mkdir -p $(@D)
	$(BIN)/lanai-cc $(FW_CFLAGS) -DNC_MC_STORE_FIRST $(FW_UNIT) -o $(FW_DIR)/mcp_mcstore.elf \
	    $(FW_LDFLAGS),--image,$@

# The 1024-node MCP, for a broadcast on a 1024-node fat tree
# (docs/multicast.md "Scale"; mk/bench.mk's check-scale runs it). The
# default build (mcp.img, mcp_1m.img, libnicoll) holds NC_ABI_MAX_NODES =
# 256 peers; 1024 peers do not fit the 1 MiB that -mcmodel=small addresses
# (the MCP keeps ~1.4 KB per peer), so the 1024-node pair is a build of its
# own: the MCP with NC_ABI_MAX_NODES=1024 in the medium code model (2 MB
# boards only), and host programs compiled with the same number (the ABI
# block's layout depends on it; libnicoll refuses an MCP whose max_nodes
# differs from its own).
SCALE_DEF := -DNC_ABI_MAX_NODES=1024u

ALL_TARGETS += $(FW_DIR)/mcp_1024.img

# Multicast compiled for size there (NC_MC_MINSIZE, firmware/mcp_image.c),
# and without the receive path's hook (NC_FW_HOOK=0: no collective of this
# image uses it, firmware/mcp/nc_fw_config.h): at 1024 peers the image's
# data reaches up to the stack.
$(FW_DIR)/mcp_1024.img: $(FW_DEPS)
	@mkdir -p $(@D)
	$(BIN)/lanai-cc $(filter-out -mcmodel=small,$(FW_CFLAGS)) -mcmodel=medium $(SCALE_DEF) -DNC_MC_MINSIZE -DNC_FW_HOOK=0 $(FW_UNIT) \
	    -o $(FW_DIR)/mcp_1024.elf $(FW_LDFLAGS),--image,$@,--map,$(FW_DIR)/mcp_1024.map

# A mutant: the same flags, every -I pointing into the patched copy.
$(MUT)/firmware/mcp_%.img: $$(wildcard tests/*/mutants/mcp_$$*.patch tests/red/*/mutants/mcp_$$*.patch) $(FW_DEPS) tests/lib/mutate
	@mkdir -p $(@D)
	bash tests/lib/mutate $< $(MUT)/firmware/mcp_$*.src firmware ref include
	$(BIN)/lanai-cc $(patsubst -I%,-I$(MUT)/firmware/mcp_$*.src/%,$(FW_CFLAGS)) $(MUT)/firmware/mcp_$*.src/$(FW_UNIT) \
	    -o $(MUT)/firmware/mcp_$*.elf $(FW_LDFLAGS),--image,$@

# Host programs for the emulated cluster: libnicoll compiled in.
$(NCL_T)/%.so: tests/nicoll/%.c tests/nicoll/pattern.h tests/lib/open_port.h $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@

# ---- the receive path's hook for collectives ----------------------------
# The MCP with tests/plugin/relay.c, a collective that uses the hook
# (firmware/mcp/mcp_plugin.h `data`, mcp_send_data, mcp_recv_take and
# mcp_recv_deliver), and its host program: tests/plugin/suite. Its mutants
# (tests/plugin/mutants/relay_NAME.patch) patch the core and are built into
# the same image, $(MUT)/plugin/relay_NAME.img.
PLUGIN_T := $(BUILD)/tests/plugin
PLUGIN_SRCS := tests/plugin/image.c tests/plugin/relay.c
PLUGIN_MUTANTS := $(patsubst tests/plugin/mutants/%.patch,$(MUT)/plugin/%.img,$(wildcard tests/plugin/mutants/relay_*.patch))
ALL_TARGETS += $(PLUGIN_T)/relay.img $(PLUGIN_T)/host_relay.so
CHECK_TARGETS += $(PLUGIN_MUTANTS)
CHECK_SUITES += tests/plugin/suite

$(PLUGIN_T)/relay.img: $(PLUGIN_SRCS) $(FW_DEPS)
	@mkdir -p $(@D)
	$(BIN)/lanai-cc $(FW_CFLAGS) -Ifirmware tests/plugin/image.c -o $(PLUGIN_T)/relay.elf $(FW_LDFLAGS),--image,$@

$(MUT)/plugin/relay_%.img: tests/plugin/mutants/relay_%.patch $(PLUGIN_SRCS) $(FW_DEPS) tests/lib/mutate
	@mkdir -p $(@D)
	bash tests/lib/mutate $< $(MUT)/plugin/relay_$*.src firmware ref include
	$(BIN)/lanai-cc $(patsubst -I%,-I$(MUT)/plugin/relay_$*.src/%,$(FW_CFLAGS) -Ifirmware) tests/plugin/image.c \
	    -o $(MUT)/plugin/relay_$*.elf $(FW_LDFLAGS),--image,$@

$(PLUGIN_T)/host_relay.so: tests/plugin/host_relay.c tests/nicoll/pattern.h tests/lib/open_port.h $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@

# ---- host signals -----------------------------------------------------------
# firmware/coll/signal.c and libnicoll's nc_signal_*, end to end with the
# emulated host's signal: tests/red/signals/suite (docs/reduction.md). Its
# firmware mutants (tests/red/signals/mutants/mcp_sig_*.patch) are built by the
# mutant rule above; its library mutants (host_sig_*.patch) patch a copy of
# host/ compiled into the host program, $(MUT)/signal/host_sig_NAME.so.
SIG_T := $(BUILD)/tests/red/signals
SIG_HOST_MUTANTS := $(patsubst tests/red/signals/mutants/%.patch,$(MUT)/signal/%.so,$(wildcard tests/red/signals/mutants/host_sig_*.patch))
ALL_TARGETS += $(SIG_T)/host_signal.so
CHECK_TARGETS += $(SIG_HOST_MUTANTS)
CHECK_SUITES += tests/red/signals/suite

$(SIG_T)/host_signal.so: tests/red/signals/host_signal.c tests/nicoll/pattern.h tests/lib/open_port.h $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@

$(MUT)/signal/host_sig_%.so: tests/red/signals/mutants/host_sig_%.patch tests/red/signals/host_signal.c $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) tests/lib/mutate
	@mkdir -p $(@D)
	bash tests/lib/mutate $< $(MUT)/signal/host_sig_$*.src host
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(patsubst -Ihost/lib,-I$(MUT)/signal/host_sig_$*.src/host/lib,$(NCL_INC)) \
	    tests/red/signals/host_signal.c $(patsubst host/%,$(MUT)/signal/host_sig_$*.src/host/%,$(NCL_LIB_SRCS)) -o $@

# ---- NICVM's plug-in -----------------------------------------------------
# firmware/coll/nicvm.c and libnicoll's nc_nicvm.c, end to end:
# tests/nicvm/fw-suite (docs/nicvm.md); its mutants of the firmware
# (tests/nicvm/mutants/mcp_nv_*.patch) are built by the mutant rule above.
NVFW_T := $(BUILD)/tests/nicvm

ALL_TARGETS += $(NVFW_T)/host_nicvm.so
CHECK_SUITES += tests/nicvm/fw-suite

$(NVFW_T)/host_nicvm.so: tests/nicvm/host_nicvm.c tests/lib/open_port.h tests/nicoll/pattern.h $(NCL_LIB_SRCS) \
                         $(NCL_LIB_HDRS) include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@

# ---- the NIC barrier ------------------------------------------------------
# firmware/coll/barrier.c and libnicoll's nc_barrier_start, end to end:
# tests/barrier/suite (docs/barrier.md); the suite's mutants of the firmware
# (tests/barrier/mutants/) are built by the mutant rule above.
BAR_T := $(BUILD)/tests/barrier

ALL_TARGETS += $(BAR_T)/host_barrier.so
CHECK_SUITES += tests/barrier/suite

$(BAR_T)/%.so: tests/barrier/%.c tests/lib/open_port.h $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@

# ---- NIC multicast --------------------------------------------------------
# firmware/coll/mcast.c and libnicoll's nc_group_multisend and nc_mcast, end
# to end: tests/mcast/suite (docs/multicast.md); the suite's mutants of the
# firmware (tests/mcast/mutants/mcp_mc_*.patch) are built by the mutant rule.
MC_T := $(BUILD)/tests/mcast

ALL_TARGETS += $(MC_T)/host_mcast.so
CHECK_SUITES += tests/mcast/suite
# k-binomial trees of 64-byte packets on an irregular network, FPFS on the
# packet trace (tests/mcast/kbinomial): R6's host program, mk/bench.mk's
# r6_mcast.so, and its mutants mcp_mc_fpfs_queue, mcp_mc_pkt_mtu
CHECK_SUITES += tests/mcast/kbinomial
# Switch multicast (firmware/coll/group.c, libnicoll's nc_mg_* and nc_gsend)
# end to end with the fabric's management entity: tests/mcast/swgroup
# (docs/fabric.md "Status"), host_swgroup.so by the rule below; its mutants
# of the firmware (tests/mcast/mutants/mcp_grp_*.patch) by the mutant rule.
ALL_TARGETS += $(MC_T)/host_swgroup.so
CHECK_SUITES += tests/mcast/swgroup

$(MC_T)/%.so: tests/mcast/%.c tests/lib/open_port.h tests/nicoll/pattern.h $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) \
              include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@

# ---- liveness under loss --------------------------------------------------
# The point-to-point path under loss at every position and at random
# (tests/loss/suite), with tests/nicoll's and tests/barrier's programs; the
# negative control's program (the ping-pong echo that drops an early RECV,
# which stalls under loss) is built here.
LOSS_T := $(BUILD)/tests/loss

ALL_TARGETS += $(LOSS_T)/host_nicoll_drop_early.so
CHECK_SUITES += tests/loss/suite

$(LOSS_T)/host_nicoll_drop_early.so: tests/nicoll/host_nicoll.c tests/nicoll/pattern.h tests/lib/open_port.h \
                                      $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC -DHOST_NICOLL_DROP_EARLY_RECV $(NCL_INC) $< \
	    $(NCL_LIB_SRCS) -o $@

# ---- the pipelined data path ----------------------------------------------
# docs/firmware.md, "Pipelining"; its two mutants, a stage of the pipeline
# switched off (tests/pipeline/mutants/), are built by the mutant rule.
CHECK_SUITES += tests/pipeline/suite

# ---- send time-outs -------------------------------------------------------
# tests/timeout/suite (docs/firmware.md "Send time-outs"), with the negative
# control mcp_no_send_timeout.img among the mutants.
TMO_T := $(BUILD)/tests/timeout

ALL_TARGETS += $(TMO_T)/host_timeout.so
CHECK_SUITES += tests/timeout/suite

$(TMO_T)/host_timeout.so: tests/timeout/host_timeout.c tests/nicoll/pattern.h tests/lib/open_port.h \
                          $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h $(COMMON_LIB)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) $(COMMON_LIB) -o $@

# A job on the emulated cluster (tests/nicoll/run); mk/bench.mk adds R7's
# programs to its prerequisites.
.PHONY: run
## run: a job on the emulated cluster: the MCP, libnicoll, R2's and R7's programs (tests/nicoll/run)
run: $(FW_DIR)/mcp.img $(NCL_T)/host_nicoll.so $(BUILD)/bench/r7_barrier.so $(BUILD)/bench/r2_bcast.so $(BUILD)/share/nicoll/nicoll.lua $(BIN)/lanai-run emu-build
	@bash tests/nicoll/run
