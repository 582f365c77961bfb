# The benchmarks (host/bench/) and every experiment's rules: make bench and
# its sub-targets, the papers' experiments that run so far (R1, R2, R3, R4,
# R5, R6, R7, R8, R9, R10 and the GM 1.6.4 anchor; README, "Sources and experiments"), the
# runs at scale, and nicoll's point-to-point figures. CSV, plots and
# summary.txt under build/bench/, and one table of every reproduced result,
# build/bench/reproductions.csv (docs/bench.md).
#
# Products: build/bench/{r5_kbinomial,gm_anchor.so,r1_multisend.so,
#           r2_bcast.so,postal_lambda,r3r4_bcast.so,r6_mcast.so,r7_barrier.so,
#           r8_comm.so,r9_reduce.so,r10_nicvm.so,mcp_nonicvm.img},
#           build/tests/scale/host_mcast_1024.so
# Targets:  bench, bench-r1r2, bench-r3r4, bench-r6, bench-r8, bench-r8-bcast, bench-r9, bench-red, bench-r10,
#           bench-r2scale, bench-omb,
#           bench-omb-scale, postal-table, check-scale.
# Suites:   tests/bench/suite, tests/bench/r2leaves (tests/scale/suite runs
#           from check-scale, outside make check).
# Read after the rooms whose products it runs (mk/host.mk, mk/firmware.mk,
# mk/mpi.mk): their variables are in its prerequisites.
#
# Every benchmark writes its rows to $(BUILD)/bench/repro/NAME.csv (with
# host/bench/reprow); the last step joins, checks and prints them. A new
# benchmark is one more line before that step. The directory is emptied
# first, so that rows of an earlier run (or of a benchmark since removed)
# cannot pass for this run's. The rule below is the first bench: rule of
# this file (tests/bench/suite reads its recipe); the experiments after it
# add their programs to its prerequisites.
.PHONY: bench

## bench: the papers' experiments that run so far and the point-to-point figures (build/bench/)
bench: $(BUILD)/bench/r5_kbinomial $(BUILD)/firmware/mcp.img $(BUILD)/tests/nicoll/host_nicoll.so $(BIN)/lanai-run $(BIN)/lanai-profile
	@rm -rf $(BUILD)/bench/repro $(BUILD)/bench/reproductions.csv
	@bash host/bench/run
	@bash host/bench/r7 $(BUILD)/bench
	@bash host/bench/r1r2 $(BUILD)/bench
	@bash host/bench/r6 $(BUILD)/bench
	@bash host/bench/r8 $(BUILD)/bench
	@bash host/bench/r9 $(BUILD)/bench
	@bash host/bench/red $(BUILD)/bench
	@bash host/bench/r10 $(BUILD)/bench
	@python3 host/bench/reproductions $(BUILD)/bench

$(BUILD)/bench/r5_kbinomial: host/bench/r5_kbinomial.c ref/tree/nc_kbin.c ref/tree/nc_kbin.h
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -Iref/include -Iref/tree $< ref/tree/nc_kbin.c -o $@

# The reproductions table's tools on small fixture files (never the
# benchmarks: too slow for make check).
CHECK_SUITES += tests/bench/suite tests/bench/r2leaves

# ---- the GM 1.6.4 anchor --------------------------------------------------
# The GM 1.6.4 validation platform (profiles p-gm164-pci64b/c) and its
# benchmark host/bench/gm_anchor (docs/bench-gm.md), run by make bench.
GM_B := $(BUILD)/bench

ALL_TARGETS += $(GM_B)/gm_anchor.so

# Host program: libnicoll compiled in, as for tests/nicoll (mk/firmware.mk).
$(GM_B)/gm_anchor.so: host/bench/gm_anchor.c $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@

bench: $(GM_B)/gm_anchor.so $(FW_DIR)/mcp.img $(BIN)/lanai-run $(BIN)/lanai-profile

# ---- R1 and R2 ------------------------------------------------------------
# NIC multisend against the host-based multicast baselines (mk/host.mk's
# nc_hmcast), host/bench/r1r2 (docs/bench-r1r2.md).
R12_B := $(BUILD)/bench

# The benchmarks' host programs: libnicoll compiled in, as for R7.
ALL_TARGETS += $(R12_B)/r1_multisend.so $(R12_B)/r2_bcast.so
$(R12_B)/r1_multisend.so $(R12_B)/r2_bcast.so $(R12_B)/r6_mcast.so: $(R12_B)/%.so: host/bench/%.c $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@

# R2's lambda per size from r1.csv (host/bench/postal_lambda.c): a host
# tool with ref/tree's nc_postal_ratio.
ALL_TARGETS += $(R12_B)/postal_lambda
$(R12_B)/postal_lambda: host/bench/postal_lambda.c ref/tree/nc_tree.c ref/tree/nc_tree.h ref/tree/nc_kbin.c
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra $(NCL_INC) $< ref/tree/nc_tree.c ref/tree/nc_kbin.c -o $@

# make bench runs R1 and R2 (its recipe calls host/bench/r1r2);
# make bench-r1r2 runs only them, with fewer iterations (docs/bench-r1r2.md).
R12_DEPS := $(R12_B)/r1_multisend.so $(R12_B)/r2_bcast.so $(R12_B)/postal_lambda $(FW_DIR)/mcp.img $(BIN)/lanai-run
bench: $(R12_DEPS)
.PHONY: bench-r1r2
## bench-r1r2: R1 and R2 alone, with fewer iterations (R1_COUNT, R2_COUNT)
bench-r1r2: $(R12_DEPS)
	@R1_COUNT=$${R1_COUNT:-200} R2_COUNT=$${R2_COUNT:-10} bash host/bench/r1r2 $(BUILD)/bench

# The postal table of a profile (host/bench/postal-table; docs/multicast.md):
# measured once per profile and committed beside it, PROFILE.postal.
.PHONY: postal-table
## postal-table: measure a profile's postal table, PROFILE.postal (make postal-table PROFILE=NAME)
postal-table: $(R12_B)/r1_multisend.so $(R12_B)/postal_lambda $(FW_DIR)/mcp.img $(FW_DIR)/mcp_1m.img $(BIN)/lanai-run
	@[ -n "$(PROFILE)" ] || { echo "make postal-table PROFILE=NAME (a name in lanai-emu/profiles)"; exit 2; }
	@bash host/bench/postal-table $(PROFILE)

# ---- R3 and R4 ------------------------------------------------------------
# seed 000 sections 7.2-7.3: MPI_Bcast on NIC multicast against the host's
# binomial broadcast, an MPI program built with lanai-mpicc
# (host/bench/r3r4_bcast.c) run by host/bench/r3r4 from make bench;
# `make bench-r3r4` runs it alone. docs/bench-r3r4.md.
R3R4_SO := $(BUILD)/bench/r3r4_bcast.so
ALL_TARGETS += $(R3R4_SO)

$(R3R4_SO): host/bench/r3r4_bcast.c host/bench/mpi_bench.h include/nicoll/hostif.h $(MPI_LIB) $(BIN)/lanai-mpicc
	@mkdir -p $(@D)
	$(BIN)/lanai-mpicc -std=gnu11 -O2 -Wall -Wextra -Iinclude $< -o $@

.PHONY: bench-r3r4
## bench-r3r4: R3 and R4 alone: MPI_Bcast on NIC multicast against the host's binomial
bench-r3r4: $(R3R4_SO) $(BIN)/lanai-mpirun $(BUILD)/firmware/mcp.img
	@bash host/bench/r3r4 $(BUILD)/bench
bench: $(R3R4_SO) $(BIN)/lanai-mpirun

# ---- R6 -------------------------------------------------------------------
# seed 001 section 5.2: k-binomial against binomial packetised multicast on
# random irregular networks of 64 nodes, P-SIM (host/bench/r6 with
# host/bench/r6_mcast.c, docs/bench-r6.md). make bench runs 3 networks x 3
# destination sets per point (about 4.5 minutes of host CPU); make bench-r6
# the paper's 10 x 30 (about 2.5 hours of host CPU).
ALL_TARGETS += $(R12_B)/r6_mcast.so
R6_DEPS := $(R12_B)/r6_mcast.so $(FW_DIR)/mcp.img $(BIN)/lanai-run $(BIN)/lanai-topo $(BIN)/lanai-order \
           $(BIN)/lanai-profile
bench: $(R6_DEPS)
.PHONY: bench-r6
## bench-r6: R6 alone with the paper's counts, 10 networks x 30 destination sets (R6_TOPOS, R6_SETS; hours)
bench-r6: $(R6_DEPS)
	@R6_TOPOS=$${R6_TOPOS:-10} R6_SETS=$${R6_SETS:-30} bash host/bench/r6 $(BUILD)/bench

# ---- R9 -------------------------------------------------------------------
# seed 004 section 3.5: application-bypass MPI_Reduce (MPI_NC_REDUCE=bypass)
# against the host's binomial reduction on P-AB, the thesis's CPU-utilisation
# and latency microbenchmarks (host/bench/r9_reduce.c) run by host/bench/r9
# from make bench; `make bench-r9` runs it alone. docs/bench-r9.md.
R9_SO := $(BUILD)/bench/r9_reduce.so
ALL_TARGETS += $(R9_SO)

$(R9_SO): host/bench/r9_reduce.c host/bench/mpi_bench.h include/nicoll/hostif.h $(MPI_LIB) $(BIN)/lanai-mpicc
	@mkdir -p $(@D)
	$(BIN)/lanai-mpicc -std=gnu11 -O2 -Wall -Wextra -Iinclude $< -o $@

R9_DEPS := $(R9_SO) $(BIN)/lanai-mpirun $(BUILD)/firmware/mcp.img
.PHONY: bench-r9
## bench-r9: R9 alone: application-bypass MPI_Reduce against the host's, CPU time under skew and latency
bench-r9: $(R9_DEPS)
	@bash host/bench/r9 $(BUILD)/bench
bench: $(R9_DEPS)

# ---- the three-way reduction comparison ----------------------------------
# NIC-based, application-bypass and host MPI_Reduce of ints and doubles on
# 4-32 ranks of P-AB, latency and host CPU time with R9's program and
# method, run by host/bench/red from make bench; `make bench-red` runs it
# alone. docs/bench-red.md.
.PHONY: bench-red
## bench-red: NIC-based vs application-bypass vs host MPI_Reduce, ints and doubles, latency and CPU time
bench-red: $(R9_DEPS)
	@bash host/bench/red $(BUILD)/bench

# ---- R8 -------------------------------------------------------------------
# seed 003 section 5.2: effective latency, a communicator's creation and K
# broadcasts of 1 KB, under each communicator design of libmpi (lanai-mpirun
# --comm p2p|basic|lazy|pool) on P-IB, an MPI program built with
# lanai-mpicc (host/bench/r8_comm.c) run by host/bench/r8 from make bench;
# `make bench-r8` runs it alone. docs/bench-r8.md.
R8_SO := $(BUILD)/bench/r8_comm.so
ALL_TARGETS += $(R8_SO)

$(R8_SO): host/bench/r8_comm.c host/bench/mpi_bench.h include/nicoll/hostif.h $(MPI_LIB) $(BIN)/lanai-mpicc
	@mkdir -p $(@D)
	$(BIN)/lanai-mpicc -std=gnu11 -O2 -Wall -Wextra -Iinclude $< -o $@

R8_DEPS := $(R8_SO) $(BIN)/lanai-mpirun $(BUILD)/firmware/mcp.img
.PHONY: bench-r8
## bench-r8: R8 alone: communicator creation + k 1 KB broadcasts, p2p/Basic/Lazy/Pool on P-IB (DESIGNS)
bench-r8: $(R8_DEPS)
	@bash host/bench/r8 $(BUILD)/bench
bench: $(R8_DEPS)
# Beyond the paper (host/bench/r8_bcast, docs/bench-r8.md): MPI_Bcast on the
# switch multicast group against the host's binomial and NIC multicast, 4 B
# to 64 KB on 16 and 32 processes, R3's program. Minutes: not in make bench.
.PHONY: bench-r8-bcast
## bench-r8-bcast: R8 beyond the paper: MPI_Bcast by switch multicast, host binomial, NIC multicast (P-IB; minutes)
bench-r8-bcast: $(R3R4_SO) $(BIN)/lanai-mpirun $(BUILD)/firmware/mcp.img
	@bash host/bench/r8_bcast $(BUILD)/bench

# ---- R7 -------------------------------------------------------------------
# The NIC barrier against the host-based PE/GB barriers (mk/host.mk's
# nc_hbarrier), host/bench/r7 (docs/bench-r7.md).
R7_B   := $(BUILD)/bench

# P-GM1-L43's NIC has 1 MB of SRAM: R7 loads $(FW_DIR)/mcp_1m.img there
# (mk/firmware.mk), mcp.img (2 MB) on P-GM1-L72.
ALL_TARGETS += $(R7_B)/r7_barrier.so

# Host program: libnicoll and the host-based barriers (HB_*, mk/host.mk)
# compiled in.
$(R7_B)/r7_barrier.so: host/bench/r7_barrier.c $(HB_SRCS) $(HB_HDRS) $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(HB_SRCS) $(NCL_LIB_SRCS) -o $@

R7_DEPS := $(R7_B)/r7_barrier.so $(FW_DIR)/mcp_1m.img $(FW_DIR)/mcp.img $(BIN)/lanai-run
bench: $(R7_DEPS)
run: $(R7_DEPS)

# ---- at scale -------------------------------------------------------------
# A broadcast on a 1024-node fat tree (docs/multicast.md "Scale"): the MCP
# built for 1024 peers (mk/firmware.mk's mcp_1024.img, SCALE_DEF) and the
# multicast test program compiled with the same number.
SCALE_T   := $(BUILD)/tests/scale

ALL_TARGETS += $(SCALE_T)/host_mcast_1024.so

$(SCALE_T)/host_mcast_1024.so: tests/mcast/host_mcast.c tests/lib/open_port.h tests/nicoll/pattern.h \
        $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) mk/bench.mk
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $(SCALE_DEF) $< $(NCL_LIB_SRCS) -o $@

# Minutes, not seconds: outside `make check` (docs/multicast.md "Scale").
## check-scale: tests/scale/suite, a broadcast on 1024 nodes (minutes; outside make check)
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
## bench-r2scale: R2 beyond the paper, on up to 256 nodes (R2S_NODES; tens of minutes)
bench-r2scale: $(R12_B)/r2_bcast.so $(FW_DIR)/mcp.img $(BIN)/lanai-run
	@bash host/bench/r2scale $(BUILD)/bench

# ---- the OSU Micro-Benchmarks ---------------------------------------------
# Built by mk/mpi.mk's omb (OMB_DIR); run here (tests/mpi/omb).
.PHONY: bench-omb bench-omb-scale
## bench-omb: the OSU Micro-Benchmarks on the emulated cluster (build/bench/omb/)
bench-omb: omb
	@if [ -d "$(OMB_DIR)" ]; then bash tests/mpi/omb bench $(BUILD)/bench/omb; fi
# osu_bcast on 64 and 256 ranks, host and NIC (OMB_SCALE_RANKS to change)
## bench-omb-scale: osu_bcast on 64 and 256 ranks, host and NIC (OMB_SCALE_RANKS)
bench-omb-scale: omb
	@if [ -d "$(OMB_DIR)" ]; then bash tests/mpi/omb bcast-scale $(BUILD)/bench/omb; fi

# ---- R10 ------------------------------------------------------------------
# seed 004 section 4.4: the NICVM microbenchmarks at the MPI level, an MPI
# program built with lanai-mpicc (host/bench/r10_nicvm.c) run by
# host/bench/r10 on P-VM from make bench; `make bench-r10` runs it alone.
# The ping-pong's baseline is the same MCP without the NICVM plug-in
# (NC_FW_NICVM=0, firmware/mcp/nc_fw_config.h), built here for the bench
# only. docs/bench-r10.md.
R10_SO  := $(BUILD)/bench/r10_nicvm.so
R10_IMG := $(BUILD)/bench/mcp_nonicvm.img
ALL_TARGETS += $(R10_SO) $(R10_IMG)

$(R10_SO): host/bench/r10_nicvm.c host/bench/mpi_bench.h include/nicoll/hostif.h $(MPI_LIB) $(BIN)/lanai-mpicc
	@mkdir -p $(@D)
	$(BIN)/lanai-mpicc -std=gnu11 -O2 -Wall -Wextra -Iinclude $< -o $@

$(R10_IMG): $(FW_DEPS)
	@mkdir -p $(@D)
	$(BIN)/lanai-cc $(FW_CFLAGS) -DNC_FW_NICVM=0 $(FW_UNIT) -o $(BUILD)/bench/mcp_nonicvm.elf $(FW_LDFLAGS),--image,$@

R10_DEPS := $(R10_SO) $(R10_IMG) $(BIN)/lanai-mpirun $(BUILD)/firmware/mcp.img
.PHONY: bench-r10
## bench-r10: R10 alone: the NICVM microbenchmarks (ping-pong, echo, broadcast latency and CPU) on P-VM
bench-r10: $(R10_DEPS)
	@bash host/bench/r10 $(BUILD)/bench
bench: $(R10_DEPS)
