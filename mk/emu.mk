# The emulator (lanai-emu/): the QEMU 7.2 LANai target and its machines
# (-M lanai-test; myrinet, the cluster), and the QEMU-independent parts
# they are built from: the fabric, the NIC and board-window logic, platform
# profiles, hosts in virtual time, and refsim (the reference cluster
# simulator); the emulator-side tools lanai-qemu, lanai-topo, lanai-profile.
# docs/emu.md, docs/myrinet.md, docs/profiles.md.
#
# Products: build/qemu/qemu-system-lanai (lanai-emu/build.sh: fetch,
#           overlay, build), build/bin/lanai-qemu (wrapper with lanai-iss's
#           command line), build/bin/lanai-topo, build/bin/lanai-profile;
#           tests: build/tests/emu/rdiff (random differential tester vs
#           ref/iss), build/tests/{fabric,nic,profile,hostrt,refsim,myrinet}/*,
#           build/fuzz/fuzz_{topology,fabric,mgmt,profile}
# Targets:  emu, emu-build, check-mutants, bench-emu.
# Suites:   tests/emu/suite, tests/emu/random, tests/fabric/suite,
#           tests/nic/suite, tests/profile/suite, tests/hostrt/suite,
#           tests/refsim/suite, tests/myrinet/{suite,idle,backpressure,dma}.

EMU_QEMU := $(BUILD)/qemu/qemu-system-lanai
EMU_T    := $(BUILD)/tests/emu

ALL_TARGETS  += $(EMU_QEMU) $(BUILD)/bin/lanai-qemu $(EMU_T)/rdiff
CHECK_SUITES += tests/emu/suite tests/emu/random

.PHONY: emu emu-build check-mutants bench-emu emu-always

## emu: the emulator: QEMU's LANai target and lanai-qemu (emu-build)
emu: emu-build

## emu-build: build QEMU's LANai target (build/qemu/qemu-system-lanai) and lanai-qemu
emu-build: $(EMU_QEMU) $(BUILD)/bin/lanai-qemu

# The build script decides what is out of date (download, overlay, patch,
# configure, ninja); a rerun with nothing changed takes about a second:
# emu-always, never a file, makes make ask it every time.
## emu-always: (internal) always out of date, so that lanai-emu/build.sh decides what to rebuild
$(EMU_QEMU): emu-always
	@bash lanai-emu/build.sh

$(BUILD)/bin/lanai-qemu: lanai-emu/lanai-qemu $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(SCRIPT_COPY)

$(EMU_T)/rdiff: tests/emu/rdiff.c ref/iss/iss.c ref/iss/disas.c ref/iss/iss.h common/lanai_reguse.h \
                $(COMMON_LIB)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -Iref/iss $(COMMON_INC) $(CONTRACT_INC) $(filter %.c,$^) $(COMMON_LIB) -o $@

# Deliberate translation bugs, each of which suite or random must catch.
## check-mutants: QEMU's translation mutants, each caught by tests/emu/suite or random (slow)
check-mutants: emu-build $(EMU_T)/rdiff all
	@bash tests/emu/mutants
	@bash tests/myrinet/mutants

# Guest instructions per second, QEMU vs lanai-iss (build/bench/emu.csv).
## bench-emu: guest instructions per second, QEMU against lanai-iss (build/bench/emu.csv)
bench-emu: emu-build all
	@bash tests/emu/bench
	@bash tests/myrinet/bench

# ---- the fabric -----------------------------------------------------------
# Myrinet fabric model pieces that need no QEMU: topologies, up*/down*
# routes, CRC-8 (lanai-emu/fabric), the lanai-topo tool and their tests.
FABRIC_SRCS := lanai-emu/fabric/topology.c lanai-emu/fabric/topo_file.c \
               lanai-emu/fabric/fabric.c lanai-emu/fabric/swmcast.c
FABRIC_HDRS := lanai-emu/fabric/topology.h lanai-emu/fabric/fabric.h \
               lanai-emu/fabric/swmcast.h include/nicoll/nc_mgmt.h
FABRIC_CFLAGS := -D_DEFAULT_SOURCE -Ilanai-emu/fabric -Iinclude

ALL_TARGETS += $(BUILD)/bin/lanai-topo $(BUILD)/tests/fabric/test_topology \
               $(BUILD)/tests/fabric/test_fabric $(BUILD)/fuzz/fuzz_topology \
               $(BUILD)/fuzz/fuzz_fabric
CHECK_SUITES += tests/fabric/suite

$(BUILD)/bin/lanai-topo: lanai-emu/fabric/lanai-topo.c $(FABRIC_SRCS) $(FABRIC_HDRS) $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) $(FABRIC_CFLAGS) $(COMMON_INC) $< $(FABRIC_SRCS) -lpcap -o $@

# -O2: its all-pairs checks route 17 million pairs through topo_route, half
# the time of tests/fabric/suite at -O1.
$(BUILD)/tests/fabric/test_topology: tests/fabric/test_topology.c $(FABRIC_SRCS) $(FABRIC_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -g -Wall -Wextra $(FABRIC_CFLAGS) $< $(FABRIC_SRCS) -lcmocka -lpcap -o $@

$(BUILD)/fuzz/fuzz_topology: tests/fuzz/fuzz_topology.c $(FABRIC_SRCS) $(FABRIC_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FABRIC_CFLAGS) $< $(FABRIC_SRCS) -lpcap -o $@

$(BUILD)/tests/fabric/test_fabric: tests/fabric/test_fabric.c $(FABRIC_SRCS) $(FABRIC_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(FABRIC_CFLAGS) $< $(FABRIC_SRCS) -lcmocka -lpcap -o $@

$(BUILD)/fuzz/fuzz_fabric: tests/fuzz/fuzz_fabric.c $(FABRIC_SRCS) $(FABRIC_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FABRIC_CFLAGS) $< $(FABRIC_SRCS) -lpcap -o $@

# Switch multicast and the management entity (docs/fabric.md): the entity
# and the hosts' side run with the fabric in C, no QEMU.
MGMT_SRCS := lanai-emu/fabric/subnet_mgr.c lanai-emu/fabric/mgmt_sim.c
MGMT_HDRS := lanai-emu/fabric/subnet_mgr.h lanai-emu/fabric/mgmt_sim.h
ALL_TARGETS += $(BUILD)/tests/fabric/test_swmcast $(BUILD)/tests/fabric/test_subnet_mgr \
               $(BUILD)/fuzz/fuzz_mgmt

$(BUILD)/tests/fabric/test_swmcast: tests/fabric/test_swmcast.c $(FABRIC_SRCS) $(FABRIC_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(FABRIC_CFLAGS) $< $(FABRIC_SRCS) -lcmocka -lpcap -o $@

$(BUILD)/tests/fabric/test_subnet_mgr: tests/fabric/test_subnet_mgr.c $(FABRIC_SRCS) $(FABRIC_HDRS) \
                                       $(MGMT_SRCS) $(MGMT_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(FABRIC_CFLAGS) $< $(FABRIC_SRCS) $(MGMT_SRCS) \
	    -lcmocka -lpcap -o $@

$(BUILD)/fuzz/fuzz_mgmt: tests/fuzz/fuzz_mgmt.c $(FABRIC_SRCS) $(FABRIC_HDRS) $(MGMT_SRCS) $(MGMT_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FABRIC_CFLAGS) $< $(FABRIC_SRCS) $(MGMT_SRCS) -lpcap -o $@

# ---- the NIC --------------------------------------------------------------
# LANai 9 NIC device logic (lanai-emu/nic), QEMU-independent, and its tests.
NIC_SRCS := lanai-emu/nic/nic.c
NIC_HDRS := lanai-emu/nic/nic.h include/nicoll/lanai9_regs.h

ALL_TARGETS += $(BUILD)/tests/nic/test_nic
CHECK_SUITES += tests/nic/suite

$(BUILD)/tests/nic/test_nic: tests/nic/test_nic.c $(NIC_SRCS) $(NIC_HDRS) $(FABRIC_SRCS) $(FABRIC_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(FABRIC_CFLAGS) -Ilanai-emu/nic $(CONTRACT_INC) \
	    $< $(NIC_SRCS) $(FABRIC_SRCS) -lcmocka -lpcap -o $@

# The board window, tested with the host loader and ref/iss as the LANai CPU.
ALL_TARGETS += $(BUILD)/tests/nic/test_board
BOARD_TEST_SRCS := lanai-emu/nic/board_window.c $(NIC_SRCS) ref/iss/iss.c ref/iss/disas.c common/lanai_reguse.c

$(BUILD)/tests/nic/test_board: tests/nic/test_board.c $(BOARD_TEST_SRCS) $(NIC_HDRS) \
		lanai-emu/nic/board_window.h common/fwload.h ref/iss/iss.h $(COMMON_LIB)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(FABRIC_CFLAGS) -Ilanai-emu/nic $(CONTRACT_INC) \
	    $(COMMON_INC) -Iref/iss \
	    $< $(BOARD_TEST_SRCS) $(COMMON_LIB) -lcmocka -o $@

# ---- platform profiles ----------------------------------------------------
# The parser (lanai-emu/profile) shared by the emulator, lanai-run and the
# tests; the lanai-profile tool; tests and fuzz target. Profiles themselves
# live in lanai-emu/profiles/*.profile.
PROFILE_SRCS := lanai-emu/profile/profile.c lanai-emu/profile/profile_keys.c \
                lanai-emu/profile/profile_units.c lanai-emu/profile/profile_time.c
PROFILE_HDRS := lanai-emu/profile/profile.h lanai-emu/profile/profile_units.h

ALL_TARGETS += $(BUILD)/bin/lanai-profile $(BUILD)/tests/profile/test_profile \
               $(BUILD)/fuzz/fuzz_profile
CHECK_SUITES += tests/profile/suite

$(BUILD)/bin/lanai-profile: lanai-emu/profile/lanai-profile.c $(PROFILE_SRCS) $(PROFILE_HDRS) $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -Ilanai-emu/profile $(COMMON_INC) $< $(PROFILE_SRCS) -o $@

# (the test reads the management entity's defaults from lanai-emu/fabric/subnet_mgr.h)
$(BUILD)/tests/profile/test_profile: tests/profile/test_profile.c $(PROFILE_SRCS) $(PROFILE_HDRS) \
                                     lanai-emu/fabric/subnet_mgr.h lanai-emu/fabric/topology.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra -Ilanai-emu/profile -Ilanai-emu/fabric $< \
	    $(PROFILE_SRCS) -lcmocka -o $@

# Its mutants (tests/profile/mutants/NAME.patch): test_profile built on a
# patched copy of lanai-emu/profile, which tests/profile/suite expects to fail.
PROFILE_MUTANTS := $(patsubst %.patch,%,$(notdir $(sort $(wildcard tests/profile/mutants/*.patch))))
CHECK_TARGETS += $(foreach v,$(PROFILE_MUTANTS),$(MUT)/profile/test_profile-$(v))
$(MUT)/profile/test_profile-%: tests/profile/mutants/%.patch tests/profile/test_profile.c \
		$(PROFILE_SRCS) $(PROFILE_HDRS) lanai-emu/fabric/subnet_mgr.h tests/lib/mutate
	@mkdir -p $(@D)
	bash tests/lib/mutate $< $(MUT)/profile/$*.src lanai-emu/profile
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra -I$(MUT)/profile/$*.src/lanai-emu/profile \
	    -Ilanai-emu/fabric tests/profile/test_profile.c \
	    $(addprefix $(MUT)/profile/$*.src/,$(PROFILE_SRCS)) -lcmocka -o $@

$(BUILD)/fuzz/fuzz_profile: tests/fuzz/fuzz_profile.c $(PROFILE_SRCS) $(PROFILE_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) -Ilanai-emu/profile $< $(PROFILE_SRCS) -o $@

# ---- hosts in virtual time ------------------------------------------------
# lanai-emu/host: coroutine runtime and the host interface, QEMU-independent.
HOSTRT_SRCS := lanai-emu/host/hostrt.c
HOSTRT_HDRS := lanai-emu/host/hostrt.h include/nicoll/hostif.h

ALL_TARGETS += $(BUILD)/tests/hostrt/test_hostrt
CHECK_SUITES += tests/hostrt/suite

$(BUILD)/tests/hostrt/test_hostrt: tests/hostrt/test_hostrt.c $(HOSTRT_SRCS) $(HOSTRT_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra -Ilanai-emu/host $(CONTRACT_INC) $< $(HOSTRT_SRCS) -lcmocka -o $@

# ---- refsim ---------------------------------------------------------------
# The reference cluster simulator (ref/iss CPUs + NIC/board logic + hosts +
# fabric), QEMU-independent, and its end-to-end tests.
REFSIM_SRCS := lanai-emu/refsim/refsim.c lanai-emu/nic/nic.c lanai-emu/nic/board_window.c \
               $(FABRIC_SRCS) lanai-emu/host/hostrt.c ref/iss/iss.c ref/iss/disas.c common/lanai_reguse.c \
               $(wildcard lanai-emu/profile/profile*.c)
REFSIM_INC  := -Ilanai-emu/refsim -Ilanai-emu/nic -Ilanai-emu/fabric -Ilanai-emu/host \
               -Ilanai-emu/profile $(COMMON_INC) $(CONTRACT_INC) -Iref/iss

ALL_TARGETS += $(BUILD)/tests/refsim/test_refsim $(BUILD)/tests/refsim/fw_pingpong.img
CHECK_SUITES += tests/refsim/suite

$(BUILD)/tests/refsim/test_refsim: tests/refsim/test_refsim.c lanai-emu/refsim/refsim.h $(REFSIM_SRCS) $(COMMON_LIB)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -g -Wall -Wextra -D_DEFAULT_SOURCE $(REFSIM_INC) \
	    $< $(filter-out lanai-emu/profile/lanai-profile.c,$(REFSIM_SRCS)) $(COMMON_LIB) -lcmocka -lpcap -o $@

$(BUILD)/tests/refsim/fw_pingpong.img: tests/refsim/fw_pingpong.c include/nicoll/lanai9_regs.h \
		include/nicoll/shared_block.h $(BIN)/lanai-cc $(BIN)/lanai-ld $(RT_LIB)/crt0.o $(RT_LIB)/liblanai-rt.a
	@mkdir -p $(@D)
	$(BIN)/lanai-cc -O2 $(CONTRACT_INC) $< -o $(BUILD)/tests/refsim/fw_pingpong.elf \
	    -Wl,--mem-size,2M,--image,$@

# The host side of fw_pingpong for the QEMU machine (tests/refsim/suite
# compares its back-pressure scenario with test_refsim's).
ALL_TARGETS += $(BUILD)/tests/refsim/host_pingpong.so
$(BUILD)/tests/refsim/host_pingpong.so: tests/refsim/host_pingpong.c include/nicoll/hostif.h \
		include/nicoll/lanai9_regs.h include/nicoll/shared_block.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(CONTRACT_INC) $< -o $@

# ---- the myrinet cluster machine ------------------------------------------
# lanai-emu/qemu/hw/lanai/myrinet*.c, built into qemu-system-lanai above,
# driven by lanai-run (mk/host.mk), and its tests: LANai test firmware built
# with lanai-cc, host programs as shared objects.
MYRINET_T := $(BUILD)/tests/myrinet

ALL_TARGETS += $(MYRINET_T)/fw_net.img $(MYRINET_T)/fw_silent.img \
               $(MYRINET_T)/host_net.so $(MYRINET_T)/fw_idle.img $(MYRINET_T)/host_idle.so \
               $(MYRINET_T)/fw_ring.img $(MYRINET_T)/host_ring.so \
               $(MYRINET_T)/fw_swmc.img $(MYRINET_T)/host_swmc.so
CHECK_SUITES += tests/myrinet/suite tests/myrinet/idle tests/myrinet/backpressure \
                tests/myrinet/swmc
$(MYRINET_T)/fw_swmc.img: include/nicoll/nc_mgmt.h

$(MYRINET_T)/%.img: tests/myrinet/%.c include/nicoll/lanai9_regs.h include/nicoll/shared_block.h \
		$(BIN)/lanai-cc $(BIN)/lanai-ld $(RT_LIB)/crt0.o $(RT_LIB)/liblanai-rt.a
	@mkdir -p $(@D)
	$(BIN)/lanai-cc -O2 $(CONTRACT_INC) $< -o $(MYRINET_T)/$*.elf \
	    -Wl,--mem-size,2M,--image,$@

$(MYRINET_T)/%.so: tests/myrinet/%.c include/nicoll/hostif.h include/nicoll/lanai9_regs.h \
		include/nicoll/shared_block.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(CONTRACT_INC) $< -o $@

# Host DMA through the machine (tests/myrinet/dma): fw_dma + host_dma, and
# host_dma_neg, the same program with every scenario broken (-DNEGATIVE),
# which the suite must reject.
ALL_TARGETS += $(MYRINET_T)/fw_dma.img $(MYRINET_T)/host_dma.so $(MYRINET_T)/host_dma_neg.so
CHECK_SUITES += tests/myrinet/dma
$(MYRINET_T)/fw_dma.img $(MYRINET_T)/host_dma.so: tests/myrinet/dma_pattern.h

$(MYRINET_T)/host_dma_neg.so: tests/myrinet/host_dma.c tests/myrinet/dma_pattern.h \
		include/nicoll/hostif.h include/nicoll/lanai9_regs.h include/nicoll/shared_block.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC -DNEGATIVE $(CONTRACT_INC) $< -o $@
