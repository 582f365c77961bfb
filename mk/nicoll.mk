# The MCP (firmware/), libnicoll (host/lib), their tests and
# `make firmware`, `make host`, `make run`. docs/firmware.md, docs/libnicoll.md.
NCL_T    := $(BUILD)/tests/nicoll
FW_DIR   := $(BUILD)/firmware
# The parts; the firmware is compiled as one unit (firmware/mcp_image.c
# includes them all: inlining across files, docs/firmware.md).
FW_SRCS  := $(wildcard firmware/mcp/*.c) $(wildcard firmware/coll/*.c) \
            firmware/hal/hal.c ref/proto/nc_seq.c ref/proto/nc_barrec.c ref/proto/nc_mcack.c ref/proto/nc_mcgroup.c
FW_UNIT  := firmware/mcp_image.c
FW_HDRS  := $(wildcard firmware/mcp/*.h) $(wildcard firmware/coll/*.h) firmware/hal/hal.h \
            $(CONTRACT_HDRS) ref/proto/nc_seq.h ref/proto/nc_seqarith.h ref/proto/nc_barrec.h ref/proto/nc_mcack.h ref/proto/nc_mcgroup.h \
            ref/include/nc_config.h ref/include/nc_logic.h
# -mcmodel=small: globals in 21-bit absolute addressing (one instruction
# instead of a hi/lo pair, cheap enough to rematerialise: the backend
# parks fewer address constants on the stack); all of the MCP's data lies
# below 1 MiB (lanai-ld checks). mk/nicoll.mk is a dependency: flags rebuild.
# -O3 rather than -O2: 3-7% fewer instructions per barrier (mcp_profile).
FW_CFLAGS := -O3 -mcmodel=small -Wall $(CONTRACT_INC) -Ifirmware/hal -Ifirmware/mcp -Ifirmware/coll -Iref/include -Iref/proto
FW_LDFLAGS := -Wl,--mem-size,2M
NCL_BAR_SRCS := host/lib/nc_barrier_spec.c host/lib/nc_group.c host/lib/nc_postal.c ref/tree/nc_sched.c ref/tree/nc_tree.c ref/tree/nc_kbin.c
NCL_LIB_SRCS := host/lib/nicoll.c host/lib/nc_backend_emu.c host/lib/nc_hmcast.c $(NCL_BAR_SRCS)
NCL_LIB_HDRS := host/lib/nicoll.h host/lib/nc_backend.h host/lib/nc_vfio.h host/lib/nc_group.h $(CONTRACT_HDRS) \
                ref/tree/nc_sched.h ref/tree/nc_tree.h ref/tree/nc_kbin.h
NCL_INC  := -Ihost/lib $(COMMON_INC) $(CONTRACT_INC) -Iref/tree -Iref/include
# The firmware's mutants (tests/*/mutants/mcp_NAME.patch): each is built
# from a patched copy of firmware/, ref/ and include/ into
# $(MUT)/firmware/mcp_NAME.img, for the suite beside it to show failing.
FW_MUTANT_PATCHES := $(sort $(wildcard tests/*/mutants/mcp_*.patch))
FW_MUTANTS := $(patsubst %.patch,%,$(notdir $(FW_MUTANT_PATCHES)))
CHECK_TARGETS += $(foreach v,$(FW_MUTANTS),$(MUT)/firmware/$(v).img)

# mcp_1m.img: the same firmware linked for 1 MB of SRAM (P-GM1 profiles'
# LANai 4.x boards; the 2 MB link puts the stack inside their shared block)
# mcp-lanai9.0.img: the same firmware for LANai 9.0/9.1 parts, linked with
# lanai-ld's hazard pass (docs/lanai-isa.md, "Timing and hazards")
FIRMWARE_IMAGES := $(FW_DIR)/mcp.img $(FW_DIR)/mcp_1m.img $(FW_DIR)/mcp-lanai9.0.img $(FW_DIR)/mcp_mcstore.img
ALL_TARGETS += $(FIRMWARE_IMAGES) $(NCL_T)/host_nicoll.so $(NCL_T)/host_charge.so $(NCL_T)/host_bwait.so $(NCL_T)/test_nicoll \
               $(BUILD)/lib/libnicoll-emu.a
CHECK_SUITES += tests/nicoll/suite tests/nicoll/unit

firmware: $(FIRMWARE_IMAGES)
host: $(BUILD)/lib/libnicoll-emu.a $(BUILD)/lib/libnicoll-pci.a $(BIN)/lanai-flash

FW_DEPS := mk/nicoll.mk $(FW_UNIT) $(FW_SRCS) $(FW_HDRS) $(BIN)/lanai-cc $(BIN)/lanai-ld $(RT_LIB)/crt0.o $(RT_LIB)/liblanai-rt.a

$(FW_DIR)/mcp.img: $(FW_DEPS)
	@mkdir -p $(@D)
	$(BIN)/lanai-cc $(FW_CFLAGS) $(FW_UNIT) -o $(FW_DIR)/mcp.elf $(FW_LDFLAGS),--image,$@,--map,$(FW_DIR)/mcp.map

$(FW_DIR)/mcp_1m.img: $(FW_DEPS)
	@mkdir -p $(@D)
	$(BIN)/lanai-cc $(FW_CFLAGS) $(FW_UNIT) -o $(FW_DIR)/mcp_1m.elf -Wl,--mem-size,1M,--image,$@

$(FW_DIR)/mcp-lanai9.0.img: $(FW_DEPS)
	@mkdir -p $(@D)
	$(BIN)/lanai-cc $(FW_CFLAGS) -mcpu=lanai9.0 $(FW_UNIT) -o $(FW_DIR)/mcp-lanai9.0.elf \
	    $(FW_LDFLAGS),--image,$@

# multicast's other order at inner members (store to the host, then
# forward): built to measure it against the default (docs/multicast.md)
$(FW_DIR)/mcp_mcstore.img: $(FW_DEPS)
	@mkdir -p $(@D)
	$(BIN)/lanai-cc $(FW_CFLAGS) -DNC_MC_STORE_FIRST $(FW_UNIT) -o $(FW_DIR)/mcp_mcstore.elf \
	    $(FW_LDFLAGS),--image,$@

# A mutant: the same flags, every -I pointing into the patched copy.
$(MUT)/firmware/mcp_%.img: $$(wildcard tests/*/mutants/mcp_$$*.patch) $(FW_DEPS) tests/lib/mutate
	@mkdir -p $(@D)
	bash tests/lib/mutate $< $(MUT)/firmware/mcp_$*.src firmware ref include
	$(BIN)/lanai-cc $(patsubst -I%,-I$(MUT)/firmware/mcp_$*.src/%,$(FW_CFLAGS)) $(MUT)/firmware/mcp_$*.src/$(FW_UNIT) \
	    -o $(MUT)/firmware/mcp_$*.elf $(FW_LDFLAGS),--image,$@

$(BUILD)/lib/libnicoll-emu.a: $(NCL_LIB_SRCS) $(NCL_LIB_HDRS)
	@mkdir -p $(BUILD)/lib/nicoll-emu
	for f in $(NCL_LIB_SRCS); do \
	    $(HOSTCC) $(HOST_CFLAGS) -fPIC $(NCL_INC) -c $$f -o $(BUILD)/lib/nicoll-emu/$$(basename $$f .c).o || exit 1; done
	ar rcs $@ $(foreach f,$(NCL_LIB_SRCS),$(BUILD)/lib/nicoll-emu/$(basename $(notdir $(f))).o)

NCL_PCI_SRCS := host/lib/nicoll.c host/lib/nc_backend_pci.c host/lib/nc_vfio.c host/lib/nc_hmcast.c \
                $(NCL_BAR_SRCS)
$(BUILD)/lib/libnicoll-pci.a: $(NCL_PCI_SRCS) $(NCL_LIB_HDRS) common/board.h $(COMMON_OBJS)
	@mkdir -p $(BUILD)/lib/nicoll-pci
	for f in $(NCL_PCI_SRCS); do \
	    $(HOSTCC) $(HOST_CFLAGS) $(NCL_INC) -c $$f -o $(BUILD)/lib/nicoll-pci/$$(basename $$f .c).o || exit 1; done
	ar rcs $@ $(foreach f,$(NCL_PCI_SRCS),$(BUILD)/lib/nicoll-pci/$(basename $(notdir $(f))).o) $(COMMON_OBJS)

# Host programs for the emulated cluster: libnicoll compiled in.
$(NCL_T)/%.so: tests/nicoll/%.c tests/nicoll/pattern.h tests/lib/open_port.h $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@

# Unit tests of the host library (cmocka), over the pci backend and a fake BAR.
$(NCL_T)/test_nicoll: tests/nicoll/test_nicoll.c $(NCL_PCI_SRCS) $(NCL_LIB_HDRS) common/board.h $(COMMON_LIB)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(NCL_INC) $< $(NCL_PCI_SRCS) $(COMMON_LIB) -lcmocka -lpthread -o $@

.PHONY: run
run: $(FW_DIR)/mcp.img $(NCL_T)/host_nicoll.so $(BUILD)/bench/r7_barrier.so $(BUILD)/bench/r2_bcast.so $(BUILD)/share/nicoll/nicoll.lua $(BIN)/lanai-run emu-build
	@bash tests/nicoll/run
