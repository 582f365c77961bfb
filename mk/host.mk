# The host side (host/, outside mpi/ and bench/): libnicoll (host/lib: the
# emu and pci backends, shared and static), the host-based collectives
# (nc_hmcast, nc_hbarrier), and the host tools: lanai-flash and
# lanai-flash-cluster over common/'s board access and firmware loader,
# lanai-run (the front end of the myrinet machine, mk/emu.mk), the timeline
# converter, the Wireshark dissector and lanai-order (orderings and link
# contention on irregular networks). docs/libnicoll.md, docs/lanai-flash.md,
# docs/timeline.md, docs/dissector.md, docs/irregular.md.
#
# Products: build/lib/libnicoll-emu.a, build/lib/libnicoll-pci.a,
#           build/lib/libnicoll-pci.so.VERSION, build/bin/lanai-flash,
#           build/bin/lanai-flash-cluster, build/bin/lanai-run,
#           build/bin/lanai-timeline, build/bin/lanai-order,
#           build/share/nicoll/nicoll.lua,
#           build/bin/nicvm-check (ref/nicvm's compiler and verifier);
#           tests: build/tests/{nicoll,host,board,hmcast,hbarrier}/* (the
#           end-to-end programs of tests/nicoll are mk/firmware.mk's), and
#           the mutants of nc_vfio.c, nc_hmcast.c and nc_hbarrier.c, and
#           lanai-order's (build/mutants/irregular/);
#           build/tests/nicvm/test_nicvm and the verifier's mutants,
#           build/fuzz/fuzz_nicvm.
# Targets:  host, irregular-table, nicvm-cost.
# Suites:   tests/nicoll/unit, tests/host/suite, tests/board/suite,
#           tests/timeline/suite, tests/dissector/suite, tests/hmcast/suite,
#           tests/hbarrier/suite, tests/irregular/suite, tests/nicvm/suite.
# Read before mk/firmware.mk, mk/mpi.mk and mk/bench.mk: their host
# programs compile libnicoll in, NCL_* in their prerequisites.

# ---- libnicoll ------------------------------------------------------------
# tests/nicoll's programs: the unit tests here, the end-to-end programs in
# mk/firmware.mk.
NCL_T    := $(BUILD)/tests/nicoll
NCL_BAR_SRCS := host/lib/nc_barrier_spec.c host/lib/nc_group.c host/lib/nc_postal.c ref/tree/nc_sched.c ref/tree/nc_tree.c ref/tree/nc_kbin.c \
                host/lib/nc_signal.c host/lib/nc_swmc.c host/lib/nc_reduce.c
# NICVM's calls compile modules with ref/nicvm's compiler (docs/nicvm.md)
NCL_NV_SRCS := host/lib/nc_nicvm.c ref/nicvm/nv_compile.c ref/nicvm/nv_verify.c ref/nicvm/nv_cost.c
NCL_LIB_SRCS := host/lib/nicoll.c host/lib/nc_backend_emu.c host/lib/nc_hmcast.c $(NCL_BAR_SRCS) $(NCL_NV_SRCS)
NCL_LIB_HDRS := host/lib/nicoll.h host/lib/nc_backend.h host/lib/nc_vfio.h host/lib/nc_group.h host/lib/nc_internal.h $(CONTRACT_HDRS) \
                ref/tree/nc_sched.h ref/tree/nc_tree.h ref/tree/nc_kbin.h host/lib/nc_nicvm.h $(wildcard ref/nicvm/*.h) ref/red/nc_red.h
NCL_INC  := -Ihost/lib $(COMMON_INC) $(CONTRACT_INC) -Iref/tree -Iref/include -Iref/nicvm -Iref/red
ALL_TARGETS += $(NCL_T)/test_nicoll $(BUILD)/lib/libnicoll-emu.a
CHECK_SUITES += tests/nicoll/unit

.PHONY: host
## host: libnicoll (both backends) and lanai-flash
host: $(BUILD)/lib/libnicoll-emu.a $(BUILD)/lib/libnicoll-pci.a $(BIN)/lanai-flash

$(BUILD)/lib/libnicoll-emu.a: $(NCL_LIB_SRCS) $(NCL_LIB_HDRS)
	@mkdir -p $(BUILD)/lib/nicoll-emu
	for f in $(NCL_LIB_SRCS); do \
	    $(HOSTCC) $(HOST_CFLAGS) -fPIC $(NCL_INC) -c $$f -o $(BUILD)/lib/nicoll-emu/$$(basename $$f .c).o || exit 1; done
	ar rcs $@ $(foreach f,$(NCL_LIB_SRCS),$(BUILD)/lib/nicoll-emu/$(basename $(notdir $(f))).o)

NCL_PCI_SRCS := host/lib/nicoll.c host/lib/nc_backend_pci.c host/lib/nc_vfio.c host/lib/nc_hmcast.c \
                $(NCL_BAR_SRCS) $(NCL_NV_SRCS)
$(BUILD)/lib/libnicoll-pci.a: $(NCL_PCI_SRCS) $(NCL_LIB_HDRS) common/board.h $(COMMON_OBJS)
	@mkdir -p $(BUILD)/lib/nicoll-pci
	for f in $(NCL_PCI_SRCS); do \
	    $(HOSTCC) $(HOST_CFLAGS) $(NCL_INC) -c $$f -o $(BUILD)/lib/nicoll-pci/$$(basename $$f .c).o || exit 1; done
	ar rcs $@ $(foreach f,$(NCL_PCI_SRCS),$(BUILD)/lib/nicoll-pci/$(basename $(notdir $(f))).o) $(COMMON_OBJS)

# libnicoll's pci backend, shared (the same sources as libnicoll-pci.a,
# compiled position-independent; rebuilt whenever the archive is):
# soname libnicoll-pci.so.MAJOR. common/'s board access over the emulator's
# host interface (board_hostif) is not in it: a real host has no such calls.
NCL_SO_MAJOR := $(firstword $(subst ., ,$(NC_VERSION)))
NCL_PCI_SO   := $(BUILD)/lib/libnicoll-pci.so.$(NC_VERSION)
NCL_PCI_PIC  := $(BUILD)/lib/nicoll-pci-pic
NCL_PCI_PIC_OBJS  = $(foreach f,$(NCL_PCI_SRCS),$(NCL_PCI_PIC)/$(basename $(notdir $(f))).o)

ALL_TARGETS  += $(NCL_PCI_SO) $(BUILD)/lib/libnicoll-pci.a

$(NCL_PCI_SO): $(BUILD)/lib/libnicoll-pci.a host/lib/libnicoll.map mk/host.mk
	@mkdir -p $(NCL_PCI_PIC)
	for f in $(NCL_PCI_SRCS); do \
	    $(HOSTCC) $(HOST_CFLAGS) -fPIC $(NCL_INC) -c $$f -o $(NCL_PCI_PIC)/$$(basename $$f .c).o || exit 1; done
	$(HOSTCC) -shared -Wl,-soname,libnicoll-pci.so.$(NCL_SO_MAJOR) -Wl,--version-script,host/lib/libnicoll.map \
	    -Wl,-z,defs $(NCL_PCI_PIC_OBJS) $(filter-out %/board_hostif.o,$(COMMON_OBJS)) -o $@

# Unit tests of the host library (cmocka), over the pci backend and a fake BAR.
$(NCL_T)/test_nicoll: tests/nicoll/test_nicoll.c $(NCL_PCI_SRCS) $(NCL_LIB_HDRS) common/board.h $(COMMON_LIB)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(NCL_INC) $< $(NCL_PCI_SRCS) $(COMMON_LIB) -lcmocka -lpthread -o $@

# VFIO for the pci backend: unit tests against a fake
# kernel, and two mutants of nc_vfio.c that tests/nicoll/unit must see fail.
VFIO_TEST_DEPS := tests/nicoll/test_vfio.c host/lib/nc_vfio.c host/lib/nc_vfio.h include/nicoll/lanai9_regs.h
ALL_TARGETS += $(BUILD)/tests/nicoll/test_vfio
CHECK_TARGETS += $(MUT)/vfio/test_vfio_no_master $(MUT)/vfio/test_vfio_no_unmask
$(BUILD)/tests/nicoll/test_vfio: $(VFIO_TEST_DEPS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(NCL_INC) $< host/lib/nc_vfio.c -lcmocka -o $@
$(MUT)/vfio/test_vfio_%: tests/nicoll/mutants/nc_vfio_%.patch $(VFIO_TEST_DEPS) tests/lib/mutate
	@mkdir -p $(@D)
	bash tests/lib/mutate $< $(MUT)/vfio/$*.src host/lib
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(NCL_INC) tests/nicoll/test_vfio.c $(MUT)/vfio/$*.src/host/lib/nc_vfio.c \
	    -lcmocka -o $@

# ---- lanai-flash and the firmware loader ----------------------------------
HOSTLIB_INC  := $(COMMON_INC) $(CONTRACT_INC)
HOSTLIB_DEPS := $(COMMON_LIB) common/board.h common/fwload.h include/nicoll/lanai9_regs.h \
                include/nicoll/shared_block.h

ALL_TARGETS += $(BIN)/lanai-flash $(BUILD)/tests/host/test_fwload \
               $(BUILD)/tests/host/fake_mcp $(BUILD)/tests/host/fw_ready.img
CHECK_SUITES += tests/host/suite

$(BIN)/lanai-flash: host/tools/lanai-flash.c $(HOSTLIB_DEPS) $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) $(HOSTLIB_INC) $< $(COMMON_LIB) -o $@

$(BUILD)/tests/host/test_fwload: tests/host/test_fwload.c $(HOSTLIB_DEPS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(HOSTLIB_INC) $< $(COMMON_LIB) -lcmocka -o $@

$(BUILD)/tests/host/fake_mcp: tests/host/fake_mcp.c $(HOSTLIB_DEPS)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) $(HOSTLIB_INC) $< $(COMMON_LIB) -o $@

# A minimal firmware that answers the handshake, built for 2 MB of SRAM.
$(BUILD)/tests/host/fw_ready.img: tests/host/fw_ready.c include/nicoll/shared_block.h \
		$(BIN)/lanai-cc $(BIN)/lanai-ld $(RT_LIB)/crt0.o $(RT_LIB)/liblanai-rt.a
	@mkdir -p $(@D)
	$(BIN)/lanai-cc -O2 $(CONTRACT_INC) $< -o $(BUILD)/tests/host/fw_ready.elf \
	    -Wl,--mem-size,2M,--image,$@

# ---- lanai-run ------------------------------------------------------------
ALL_TARGETS += $(BIN)/lanai-run
$(BIN)/lanai-run: host/tools/lanai-run $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(SCRIPT_COPY)

# ---- the real host tools against an emulated board ------------------------
# lanai-run --board-dir exposes one node's board window and DMA memory as
# files; lanai-flash and a pci-backend program (tests/board/pci_client.c)
# use them as they would a real board's; cluster flashing with pdsh.
# docs/lanai-flash.md, docs/myrinet.md ("A board for outside programs").
BOARD_T := $(BUILD)/tests/board
ALL_TARGETS += $(BOARD_T)/pci_client $(BOARD_T)/host_echo.so
CHECK_SUITES += tests/board/suite

$(BOARD_T)/pci_client: tests/board/pci_client.c tests/nicoll/pattern.h $(NCL_PCI_SRCS) $(NCL_LIB_HDRS) \
		common/board.h $(COMMON_LIB)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -g -Wall -Wextra $(NCL_INC) $< $(NCL_PCI_SRCS) $(COMMON_LIB) -o $@

$(BOARD_T)/host_echo.so: tests/board/host_echo.c tests/lib/open_port.h $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) \
		include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@

ALL_TARGETS += $(BIN)/lanai-flash-cluster
$(BIN)/lanai-flash-cluster: host/tools/lanai-flash-cluster $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(SCRIPT_COPY)

# ---- the timeline ---------------------------------------------------------
# lanai-run --timeline (docs/timeline.md): the converter, and its suite.
ALL_TARGETS  += $(BIN)/lanai-timeline
CHECK_SUITES += tests/timeline/suite

$(BIN)/lanai-timeline: host/tools/lanai-timeline $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(SCRIPT_COPY)

# ---- the Wireshark dissector ----------------------------------------------
# For packet traces (docs/dissector.md), generated from the wire header;
# its suite needs tshark (ci/packages/dissector.txt).
DISSECTOR := $(BUILD)/share/nicoll/nicoll.lua

ALL_TARGETS  += $(DISSECTOR)
CHECK_SUITES += tests/dissector/suite

$(DISSECTOR): host/tools/gen-dissector include/nicoll/nc_wire.h
	@mkdir -p $(@D)
	python3 host/tools/gen-dissector --wire include/nicoll/nc_wire.h $@

# ---- host-based collectives -----------------------------------------------
# The host-based multicast baselines (host/lib/nc_hmcast.c, part of
# libnicoll) and their tests; R1 and R2 measure them (mk/bench.mk).
HMC_T := $(BUILD)/tests/hmcast

ALL_TARGETS += $(HMC_T)/host_hmcast.so
CHECK_SUITES += tests/hmcast/suite

HMC_DEPS := tests/lib/open_port.h tests/nicoll/pattern.h $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h

$(HMC_T)/host_hmcast.so: tests/hmcast/host_hmcast.c $(HMC_DEPS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@

# The same program over libnicoll's mutants of nc_hmcast.c
# (tests/hmcast/mutants/nc_hmcast_NAME.patch, applied to a copy of host/lib).
HMC_MUTANTS := $(patsubst nc_hmcast_%.patch,%,$(notdir $(wildcard tests/hmcast/mutants/nc_hmcast_*.patch)))
CHECK_TARGETS += $(foreach v,$(HMC_MUTANTS),$(MUT)/hmcast/host_hmcast_$(v).so)
$(MUT)/hmcast/host_hmcast_%.so: tests/hmcast/mutants/nc_hmcast_%.patch tests/hmcast/host_hmcast.c $(HMC_DEPS) tests/lib/mutate
	@mkdir -p $(@D)
	bash tests/lib/mutate $< $(MUT)/hmcast/$*.src host/lib
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) tests/hmcast/host_hmcast.c \
	    $(patsubst host/lib/%,$(MUT)/hmcast/$*.src/host/lib/%,$(NCL_LIB_SRCS)) -o $@

# The host-based PE/GB barriers (host/lib/nc_hbarrier.c, compiled into
# the programs that use them) and their tests; R7 measures them
# (mk/bench.mk).
HB_T   := $(BUILD)/tests/hbarrier
HB_SRCS := host/lib/nc_hbarrier.c
HB_HDRS := host/lib/nc_hbarrier.h

ALL_TARGETS += $(HB_T)/host_hbar.so
CHECK_SUITES += tests/hbarrier/suite

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


# ---- lanai-order: orderings and contention on irregular networks ----------
# ref/tree's orderings, trees and contention count on the routes lanai-topo
# --channels writes (docs/irregular.md). tests/irregular/suite runs it on
# seeded random networks, and its mutants: a count that ignores a channel's
# direction (the tool built from a patched copy of ref/tree) and an ordering
# that drops a node.
ORDER_SRCS := ref/tree/nc_order.c ref/tree/nc_contention.c ref/tree/nc_tree.c ref/tree/nc_kbin.c
ORDER_HDRS := ref/tree/nc_order.h ref/tree/nc_contention.h ref/tree/nc_tree.h ref/tree/nc_kbin.h \
              ref/include/nc_config.h ref/include/nc_logic.h
ORDER_INC  := -Iref/tree -Iref/include $(COMMON_INC)
ALL_TARGETS  += $(BIN)/lanai-order
CHECK_SUITES += tests/irregular/suite

$(BIN)/lanai-order: host/tools/lanai-order.c $(ORDER_SRCS) $(ORDER_HDRS) $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) $(ORDER_INC) $< $(ORDER_SRCS) -o $@

ORDER_MUTANTS := $(patsubst %.patch,%,$(notdir $(sort $(wildcard tests/irregular/mutants/*.patch))))
CHECK_TARGETS += $(foreach v,$(ORDER_MUTANTS),$(MUT)/irregular/lanai-order-$(v))
$(MUT)/irregular/lanai-order-%: tests/irregular/mutants/%.patch host/tools/lanai-order.c \
		$(ORDER_SRCS) $(ORDER_HDRS) $(NC_VERSION_H) tests/lib/mutate
	@mkdir -p $(@D)
	bash tests/lib/mutate $< $(MUT)/irregular/$*.src ref host/tools
	$(HOSTCC) $(HOST_CFLAGS) $(patsubst -Iref/%,-I$(MUT)/irregular/$*.src/ref/%,$(ORDER_INC)) \
	    $(MUT)/irregular/$*.src/host/tools/lanai-order.c \
	    $(addprefix $(MUT)/irregular/$*.src/,$(ORDER_SRCS)) -o $@

.PHONY: irregular-table
## irregular-table: contention of the id, cco and route orderings on 10 random 64-node networks (docs/irregular.md)
irregular-table: $(BIN)/lanai-order $(BUILD)/bin/lanai-topo
	bash tests/irregular/table

# ---- NICVM: nicvm-check and the tests of ref/nicvm (docs/nicvm.md) ---------
# The tool compiles ref/nicvm's C unchanged, as the firmware will. The test
# program runs under AddressSanitizer and UBSan; each verifier mutant
# (tests/nicvm/mutants/NAME.patch) is the test program built on a patched
# copy of ref/nicvm, which tests/nicvm/suite expects to fail.
NV_SRCS := ref/nicvm/nv_compile.c ref/nicvm/nv_verify.c ref/nicvm/nv_vm.c ref/nicvm/nv_env.c \
           ref/nicvm/nv_cost.c
NV_HDRS := $(wildcard ref/nicvm/*.h)
NV_TEST_CC := $(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra -fsanitize=address,undefined \
              -fno-sanitize-recover=undefined
ALL_TARGETS  += $(BIN)/nicvm-check $(BUILD)/tests/nicvm/test_nicvm $(BUILD)/fuzz/fuzz_nicvm
CHECK_SUITES += tests/nicvm/suite

$(BIN)/nicvm-check: host/tools/nicvm-check.c $(NV_SRCS) $(NV_HDRS) $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) $(COMMON_INC) -Iref/nicvm $< $(NV_SRCS) -o $@

$(BUILD)/tests/nicvm/test_nicvm: tests/nicvm/test_nicvm.c $(NV_SRCS) $(NV_HDRS)
	@mkdir -p $(@D)
	$(NV_TEST_CC) -Iref/nicvm $< $(NV_SRCS) -o $@

# The fuzzer of the compiler and the verifier (tests/fuzz/suite runs it).
$(BUILD)/fuzz/fuzz_nicvm: tests/fuzz/fuzz_nicvm.c $(NV_SRCS) $(NV_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) -Iref/nicvm $< $(NV_SRCS) -o $@

# ref/nicvm on the LANai: the cost measurements (tests/nicvm/lanai-cost, make
# nicvm-cost) and tests/nicvm/suite's check of the cycle bound on lanai-iss.
ALL_TARGETS += $(BUILD)/tests/nicvm/lanai_cost.elf
$(BUILD)/tests/nicvm/lanai_cost.elf: tests/nicvm/lanai_cost.c $(NV_SRCS) $(NV_HDRS) \
		$(BIN)/lanai-cc $(BIN)/lanai-ld $(RT_LIB)/crt0.o $(RT_LIB)/liblanai-rt.a
	@mkdir -p $(@D)
	$(BIN)/lanai-cc -O2 -Iref/nicvm $< $(NV_SRCS) -o $@ -Wl,--map,$(@:.elf=.map)

.PHONY: nicvm-cost
## nicvm-cost: measure NICVM's cycles per VM instruction on the LANai, rewrite the cycle table
nicvm-cost: $(BIN)/lanai-cc $(BIN)/lanai-iss $(RT_LIB)/crt0.o $(RT_LIB)/liblanai-rt.a
	python3 tests/nicvm/lanai-cost --write

NV_MUTANTS := $(patsubst %.patch,%,$(notdir $(sort $(wildcard tests/nicvm/mutants/verify_*.patch))))
CHECK_TARGETS += $(foreach v,$(NV_MUTANTS),$(MUT)/nicvm/test_nicvm-$(v))
$(MUT)/nicvm/test_nicvm-%: tests/nicvm/mutants/%.patch tests/nicvm/test_nicvm.c $(NV_SRCS) $(NV_HDRS) tests/lib/mutate
	@mkdir -p $(@D)
	bash tests/lib/mutate $< $(MUT)/nicvm/$*.src ref/nicvm
	$(NV_TEST_CC) -I$(MUT)/nicvm/$*.src/ref/nicvm tests/nicvm/test_nicvm.c \
	    $(addprefix $(MUT)/nicvm/$*.src/,$(NV_SRCS)) -o $@
