# libmpi (host/mpi/, an MPI for host programs over libnicoll),
# lanai-mpicc and lanai-mpirun, the MPI test suite, and the OSU
# Micro-Benchmarks built with them (mk/bench.mk runs them). docs/mpi.md.
#
# Products: build/lib/libmpi-emu.a, build/bin/lanai-mpicc,
#           build/bin/lanai-mpirun; tests: build/tests/mpi/*.so, the
#           library's mutants (build/mutants/mpi/), build/omb/*.so (when
#           OMB_DIR has the OSU Micro-Benchmarks).
# Targets:  mpi, omb, check-mpich (MPICH's test/mpi, tests/mpich/run).
# Suites:   tests/mpi/suite, tests/mpich/suite.
MPI_T    := $(BUILD)/tests/mpi
MPI_SRCS := $(wildcard host/mpi/*.c)
MPI_HDRS := $(wildcard host/mpi/*.h)
# the proved cores libmpi uses: application-bypass reduction's queues
MPI_REF_SRCS := ref/proto/nc_abred.c
MPI_CFLAGS = -std=gnu11 -O2 -g -Wall -Wextra -fPIC $(FILE_PREFIX_MAP) -Ihost/mpi $(NCL_INC) -Iref/proto -Iref/red
MPI_LIB  := $(BUILD)/lib/libmpi-emu.a
# The library's mutants for the suite's negative controls
# (tests/mpi/mutants/mpi_NAME.patch, each applied to a copy of host/mpi):
# messages that overtake, communicators that mix, an Ssend that does not
# wait for its receive, a barrier one round short, a reduction that swaps
# its operands, non-blocking collectives complete when started, a NIC
# broadcast member that takes only the first multicast, an Iallgather(v)
# one round short, the C library's rand/strtok shared by all ranks, an
# op, datatype, communicator or active request freed at once while a
# pending operation uses it, an idup's communicator on its parent's
# context, a context id held unchecked, a context agreement whose OR
# takes the partner's value, an idup that waits inside its
# call, a matched message left in the queue, a status's MPI_ERROR
# written on success, MPI_MESSAGE_NULL taken for a message; a broadcast
# on a switch group that is never resent, acknowledged early, counts a
# fragment twice or runs untested, a free that keeps its group; a Lazy
# rank 0 that never says the test passed, a Lazy constructor that waits;
# Pool's groups shared by every process, its non-members never taken out,
# a refill pooled before its test.
MPI_MUTANTS := $(patsubst mpi_%.patch,%,$(notdir $(sort $(wildcard tests/mpi/mutants/mpi_*.patch))))
MPI_MUT := $(MUT)/mpi
# lanai-mpicc's mutants (tests/mpi/mutants/mpicc_NAME.patch): a link that
# leaves the program's own references to the loader, a link that lets
# references nothing provides through.
MPICC_MUTANTS := $(patsubst mpicc_%.patch,%,$(notdir $(sort $(wildcard tests/mpi/mutants/mpicc_*.patch))))
# The emulator's host loader's mutants (tests/mpi/mutants/host_NAME.patch):
# no DF_SYMBOLIC on the program's copies, no crash handler; each a
# qemu-system-lanai with that one file recompiled (tests/mpi/qemu-mutant).
HOST_MUTANTS := $(patsubst host_%.patch,%,$(notdir $(sort $(wildcard tests/mpi/mutants/host_*.patch))))
# what a mutant lanai-mpicc, outside build/bin, links with
MPICC_MUT_ENV = LANAI_MPI_INC=host/mpi LANAI_MPI_LIB=$(MPI_LIB) \
                LANAI_NICOLL_LIB=$(BUILD)/lib/libnicoll-emu.a LANAI_HOSTIF_H=include/nicoll/hostif.h

.PHONY: mpi
## mpi: libmpi, lanai-mpicc and lanai-mpirun
mpi: $(MPI_LIB) $(BIN)/lanai-mpicc $(BIN)/lanai-mpirun
ALL_TARGETS += $(MPI_LIB) $(BIN)/lanai-mpicc $(BIN)/lanai-mpirun \
               $(MPI_T)/mpi_p2p.so $(MPI_T)/mpi_coll.so $(MPI_T)/mpi_misc.so \
               $(MPI_T)/mpi_user.so $(MPI_T)/host_user.so $(MPI_T)/mpi_objects.so
CHECK_TARGETS += $(foreach v,$(MPI_MUTANTS),$(MPI_MUT)/mpi_p2p-$(v).so $(MPI_MUT)/mpi_coll-$(v).so) \
                 $(MPI_MUT)/mpi_misc-shared_libc.so $(MPI_MUT)/mpi_misc-mrecv_null_accepted.so \
                 $(foreach v,$(MPICC_MUTANTS),$(MPI_MUT)/mpicc-$(v)/lanai-mpicc) \
                 $(MPI_MUT)/mpi_user-no_bsymbolic.so \
                 $(foreach v,$(HOST_MUTANTS),$(MPI_MUT)/qemu-$(v)/qemu-system-lanai)
CHECK_SUITES += tests/mpi/suite tests/mpich/suite
# the mutants tests/mpi/mpi_objects.c's scenarios catch
OBJECTS_MUTANTS := group_union_drops_common attr_dup_no_copy attr_oldest_first \
                   envelope_vector_as_hvector errhandler_ignored struct_unpadded \
                   loc_whole_pair
CHECK_TARGETS += $(foreach v,$(OBJECTS_MUTANTS),$(MPI_MUT)/mpi_objects-$(v).so)

$(BIN)/lanai-mpicc: host/tools/lanai-mpicc $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(SCRIPT_COPY)

$(BIN)/lanai-mpirun: host/tools/lanai-mpirun $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(SCRIPT_COPY)

# libmpi, position-independent: lanai-mpicc links it and libnicoll-emu.a
# (also -fPIC) into each program's shared object, so every node's private
# copy of the program has its own copy of both libraries' state.
MPI_LIB_DEPS := $(MPI_SRCS) $(MPI_HDRS) $(MPI_REF_SRCS) ref/proto/nc_abred.h ref/red/nc_red.h host/lib/nicoll.h include/nicoll/hostif.h mk/mpi.mk \
                $(BUILD)/lib/libnicoll-emu.a
$(MPI_LIB): $(MPI_LIB_DEPS)
	@mkdir -p $(BUILD)/lib/mpi-emu
	for f in $(MPI_SRCS) $(MPI_REF_SRCS); do \
	    $(HOSTCC) $(MPI_CFLAGS) -c $$f -o $(BUILD)/lib/mpi-emu/$$(basename $$f .c).o || exit 1; done
	rm -f $@
	ar rcs $@ $(foreach f,$(MPI_SRCS) $(MPI_REF_SRCS),$(BUILD)/lib/mpi-emu/$(basename $(notdir $(f))).o)

# The recipe of a mutant libmpi (the rule's first prerequisite, $<, is
# its patch): host/mpi patched in a copy, $(MPI_MUT)/STEM.src, and built
# with $(MPI_LIB)'s flags, the copy's headers first.
#   $(call MPI_MUTANT_LIB,STEM)
define MPI_MUTANT_LIB
@mkdir -p $(MPI_MUT)/$(1).obj
bash tests/lib/mutate $< $(MPI_MUT)/$(1).src host/mpi
for f in $(MPI_SRCS); do \
    $(HOSTCC) $(subst -Ihost/mpi,-I$(MPI_MUT)/$(1).src/host/mpi,$(MPI_CFLAGS)) -c $(MPI_MUT)/$(1).src/$$f \
        -o $(MPI_MUT)/$(1).obj/$$(basename $$f .c).o || exit 1; done
for f in $(MPI_REF_SRCS); do \
    $(HOSTCC) $(MPI_CFLAGS) -c $$f -o $(MPI_MUT)/$(1).obj/$$(basename $$f .c).o || exit 1; done
rm -f $@
ar rcs $@ $(foreach f,$(MPI_SRCS) $(MPI_REF_SRCS),$(MPI_MUT)/$(1).obj/$(basename $(notdir $(f))).o)
endef

$(MPI_MUT)/libmpi-emu-%.a: tests/mpi/mutants/mpi_%.patch $(MPI_LIB_DEPS) tests/lib/mutate
	$(call MPI_MUTANT_LIB,$*)

# Test programs: ordinary MPI programs, built with lanai-mpicc as a user would.
$(MPI_T)/%.so: tests/mpi/%.c tests/mpi/mpitest.h $(MPI_LIB) $(BIN)/lanai-mpicc
	@mkdir -p $(@D)
	$(BIN)/lanai-mpicc -std=gnu11 -O2 -Wall -Wextra $< -o $@

# Programs as users write them: globals named like C library functions,
# strict C11 (which declares none of those names), -g for the crash
# report's source lines; and a lanai-run host program built as the
# project's others are (plain -shared -fPIC), which relies on the loader.
$(MPI_T)/mpi_user.so: tests/mpi/mpi_user.c $(MPI_LIB) $(BIN)/lanai-mpicc
	@mkdir -p $(@D)
	$(BIN)/lanai-mpicc -std=c11 -g -O2 -Wall -Wextra $< -o $@
$(MPI_T)/host_user.so: tests/mpi/host_user.c include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=c11 -g -O2 -Wall -Wextra -shared -fPIC $(CONTRACT_INC) $< -o $@

$(MPI_MUT)/mpicc-%/lanai-mpicc: tests/mpi/mutants/mpicc_%.patch host/tools/lanai-mpicc tests/lib/mutate
	bash tests/lib/mutate $< $(MPI_MUT)/mpicc-$*.src host/tools/lanai-mpicc
	@mkdir -p $(@D)
	sed 's/@NC_VERSION@/$(NC_VERSION)/g' $(MPI_MUT)/mpicc-$*.src/host/tools/lanai-mpicc > $@.tmp && chmod +x $@.tmp && mv $@.tmp $@
$(MPI_MUT)/qemu-%/qemu-system-lanai: tests/mpi/mutants/host_%.patch tests/mpi/qemu-mutant \
        tests/lib/mutate $(EMU_QEMU)
	bash tests/mpi/qemu-mutant $< $(MPI_MUT)/qemu-$*
$(MPI_MUT)/mpi_user-no_bsymbolic.so: tests/mpi/mpi_user.c $(MPI_LIB) $(MPI_MUT)/mpicc-no_bsymbolic/lanai-mpicc
	$(MPICC_MUT_ENV) $(MPI_MUT)/mpicc-no_bsymbolic/lanai-mpicc -std=c11 -g -O2 -Wall -Wextra $< -o $@

# The same programs over a mutant of the library (the suite's negative controls).
$(MPI_MUT)/mpi_p2p-%.so: tests/mpi/mpi_p2p.c tests/mpi/mpitest.h $(MPI_MUT)/libmpi-emu-%.a $(BIN)/lanai-mpicc
	LANAI_MPI_LIB=$(MPI_MUT)/libmpi-emu-$*.a $(BIN)/lanai-mpicc -std=gnu11 -O2 -Wall -Wextra $< -o $@
$(MPI_MUT)/mpi_misc-%.so: tests/mpi/mpi_misc.c tests/mpi/mpitest.h $(MPI_MUT)/libmpi-emu-%.a $(BIN)/lanai-mpicc
	LANAI_MPI_LIB=$(MPI_MUT)/libmpi-emu-$*.a $(BIN)/lanai-mpicc -std=gnu11 -O2 -Wall -Wextra $< -o $@
$(MPI_MUT)/mpi_objects-%.so: tests/mpi/mpi_objects.c tests/mpi/mpitest.h $(MPI_MUT)/libmpi-emu-%.a $(BIN)/lanai-mpicc
	LANAI_MPI_LIB=$(MPI_MUT)/libmpi-emu-$*.a $(BIN)/lanai-mpicc -std=gnu11 -O2 -Wall -Wextra $< -o $@
$(MPI_MUT)/mpi_coll-%.so: tests/mpi/mpi_coll.c tests/mpi/mpitest.h $(MPI_MUT)/libmpi-emu-%.a $(BIN)/lanai-mpicc
	LANAI_MPI_LIB=$(MPI_MUT)/libmpi-emu-$*.a $(BIN)/lanai-mpicc -std=gnu11 -O2 -Wall -Wextra $< -o $@

# The OSU Micro-Benchmarks 5.3, unmodified, built out of tree from the
# shared copy with lanai-mpicc (never copied into the project). make
# bench-omb (mk/bench.mk) runs them (tests/mpi/omb); tests/mpi/suite runs a
# short set.
OMB_DIR  ?= $(abspath ../shared/third_party/osu-micro-benchmarks-5.3)
OMB_B    := $(BUILD)/omb
OMB_P2P  := osu_latency osu_bw osu_bibw osu_multi_lat
OMB_COLL := osu_barrier osu_bcast osu_reduce osu_allreduce osu_gather osu_gatherv \
            osu_scatter osu_scatterv osu_allgather osu_allgatherv osu_alltoall osu_alltoallv \
            osu_reduce_scatter osu_ibarrier osu_ibcast osu_igather osu_igatherv osu_iscatter \
            osu_iscatterv osu_iallgather osu_iallgatherv osu_ialltoall osu_ialltoallv osu_ialltoallw
OMB_SOS  := $(addprefix $(OMB_B)/,$(addsuffix .so,$(OMB_P2P) $(OMB_COLL)))

$(addprefix $(OMB_B)/,$(addsuffix .so,$(OMB_P2P))): $(OMB_B)/%.so: $(MPI_LIB) $(BIN)/lanai-mpicc
	@mkdir -p $(@D)
	$(BIN)/lanai-mpicc -O2 -I$(OMB_DIR)/mpi/pt2pt $(OMB_DIR)/mpi/pt2pt/$*.c \
	    $(OMB_DIR)/mpi/pt2pt/osu_pt2pt.c -o $@
$(addprefix $(OMB_B)/,$(addsuffix .so,$(OMB_COLL))): $(OMB_B)/%.so: $(MPI_LIB) $(BIN)/lanai-mpicc
	@mkdir -p $(@D)
	$(BIN)/lanai-mpicc -O2 -I$(OMB_DIR)/mpi/collective $(OMB_DIR)/mpi/collective/$*.c \
	    $(OMB_DIR)/mpi/collective/osu_coll.c -o $@

.PHONY: omb
## omb: build the OSU Micro-Benchmarks 5.3 with lanai-mpicc, if OMB_DIR has them
omb: mpi $(BUILD)/firmware/mcp.img
	@if [ -d "$(OMB_DIR)" ]; then $(MAKE) --no-print-directory $(OMB_SOS); \
	else echo "omb: skipped: no OSU Micro-Benchmarks 5.3 at $(OMB_DIR)"; fi
ifneq ($(wildcard $(OMB_DIR)/mpi),)
ALL_TARGETS += $(OMB_SOS)
endif

# MPICH's own test suite (test/mpi of Debian's mpich source package,
# fetched into build/mpich-src by tests/mpich/run) built unmodified with
# lanai-mpicc and run with lanai-mpirun: every claimed directory, the
# testlists' process counts; results in build/mpich/results.csv. Long
# (25 min here with MPICH_JOBS=2 and a third of the time limits, more with
# MPICH's own); tests/mpich/suite, in make check, runs a short
# selection.
.PHONY: check-mpich
## check-mpich: MPICH's test/mpi against libmpi (tests/mpich/run; long; build/mpich/results.csv)
check-mpich: mpi $(BUILD)/firmware/mcp.img $(EMU_QEMU)
	python3 tests/mpich/run --jobs $(or $(MPICH_JOBS),1) --timeout-scale $(or $(MPICH_TIMEOUT_SCALE),1)

# Application-bypass MPI_Reduce (MPI_NC_REDUCE=bypass; docs/reduction.md):
# tests/red/bypass/suite runs tests/red/bypass/mpi_bypass.c with the host
# algorithm and with bypass, and over the library's bypass mutants
# (tests/red/bypass/mutants/bypass_NAME.patch, each applied to a copy of
# host/mpi): signals turned off while a descriptor is outstanding, a late
# contribution matched to the newest reduction instead of its own, a send
# the MCP failed (its destination dead) taken as sent, a child's FAIL
# combined as its data.
BYP_T := $(BUILD)/tests/red/bypass
BYP_MUTANTS := $(patsubst bypass_%.patch,%,$(notdir $(sort $(wildcard tests/red/bypass/mutants/bypass_*.patch))))
ALL_TARGETS += $(BYP_T)/mpi_bypass.so
CHECK_TARGETS += $(foreach v,$(BYP_MUTANTS),$(MPI_MUT)/mpi_bypass-$(v).so)
CHECK_SUITES += tests/red/bypass/suite

$(BYP_T)/mpi_bypass.so: tests/red/bypass/mpi_bypass.c tests/mpi/mpitest.h tests/red/nic/exact_inputs.h $(MPI_LIB) $(BIN)/lanai-mpicc
	@mkdir -p $(@D)
	$(BIN)/lanai-mpicc -std=gnu11 -O2 -Wall -Wextra $< -lm -o $@

$(MPI_MUT)/libmpi-bypass-%.a: tests/red/bypass/mutants/bypass_%.patch $(MPI_LIB_DEPS) tests/lib/mutate
	$(call MPI_MUTANT_LIB,bypass-$*)

$(MPI_MUT)/mpi_bypass-%.so: tests/red/bypass/mpi_bypass.c tests/mpi/mpitest.h tests/red/nic/exact_inputs.h $(MPI_MUT)/libmpi-bypass-%.a $(BIN)/lanai-mpicc
	LANAI_MPI_LIB=$(MPI_MUT)/libmpi-bypass-$*.a $(BIN)/lanai-mpicc -std=gnu11 -O2 -Wall -Wextra $< -lm -o $@

# NIC-based MPI_Reduce and MPI_Allreduce (MPI_NC_REDUCE=nic;
# docs/reduction.md "NIC-based reduction"): tests/red/nic/suite runs
# tests/red/bypass/mpi_bypass.c with the host algorithm and on the NIC,
# over the firmware's mutants (tests/red/nic/mutants/mcp_*.patch, built
# by mk/firmware.mk) and the library's (nicred_NAME.patch): the children
# combined in the reverse order.
NICRED_MUTANTS := $(patsubst nicred_%.patch,%,$(notdir $(sort $(wildcard tests/red/nic/mutants/nicred_*.patch))))
CHECK_TARGETS += $(foreach v,$(NICRED_MUTANTS),$(MPI_MUT)/mpi_nicred-$(v).so)
CHECK_SUITES += tests/red/nic/suite
# The exact mode's oracle (MPFR's correctly rounded sums of the inputs the
# program's "exact" scenario reduces).
ALL_TARGETS += $(BUILD)/tests/red/nic/exact_ref
$(BUILD)/tests/red/nic/exact_ref: tests/red/nic/exact_ref.c tests/red/nic/exact_inputs.h
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) $< -lmpfr -lgmp -o $@

$(MPI_MUT)/libmpi-nicred-%.a: tests/red/nic/mutants/nicred_%.patch $(MPI_LIB_DEPS) tests/lib/mutate
	$(call MPI_MUTANT_LIB,nicred-$*)

$(MPI_MUT)/mpi_nicred-%.so: tests/red/bypass/mpi_bypass.c tests/mpi/mpitest.h tests/red/nic/exact_inputs.h $(MPI_MUT)/libmpi-nicred-%.a $(BIN)/lanai-mpicc
	LANAI_MPI_LIB=$(MPI_MUT)/libmpi-nicred-$*.a $(BIN)/lanai-mpicc -std=gnu11 -O2 -Wall -Wextra $< -lm -o $@

# NICVM at the MPI level (host/mpi/mpi_nicvm.c; docs/mpi.md "NICVM
# modules"): tests/nicvm/mpi/suite runs tests/nicvm/mpi/mpi_nicvm.c, and
# the same program over the library's mutants
# (tests/nicvm/mpi/mutants/nvmpi_NAME.patch, each applied to a copy of
# host/mpi): a purge that forgets the module on the host but leaves it on
# the NIC, an envelope that names the world rank instead of the
# communicator's.
NVMPI_T := $(BUILD)/tests/nicvm/mpi
NVMPI_MUTANTS := $(patsubst nvmpi_%.patch,%,$(notdir $(sort $(wildcard tests/nicvm/mpi/mutants/nvmpi_*.patch))))
ALL_TARGETS += $(NVMPI_T)/mpi_nicvm.so
CHECK_TARGETS += $(foreach v,$(NVMPI_MUTANTS),$(MPI_MUT)/mpi_nicvm-$(v).so)
CHECK_SUITES += tests/nicvm/mpi/suite

$(NVMPI_T)/mpi_nicvm.so: tests/nicvm/mpi/mpi_nicvm.c tests/mpi/mpitest.h $(MPI_LIB) $(BIN)/lanai-mpicc
	@mkdir -p $(@D)
	$(BIN)/lanai-mpicc -std=gnu11 -O2 -Wall -Wextra $< -o $@

$(MPI_MUT)/libmpi-nvmpi-%.a: tests/nicvm/mpi/mutants/nvmpi_%.patch $(MPI_LIB_DEPS) tests/lib/mutate
	$(call MPI_MUTANT_LIB,nvmpi-$*)

$(MPI_MUT)/mpi_nicvm-%.so: tests/nicvm/mpi/mpi_nicvm.c tests/mpi/mpitest.h $(MPI_MUT)/libmpi-nvmpi-%.a $(BIN)/lanai-mpicc
	LANAI_MPI_LIB=$(MPI_MUT)/libmpi-nvmpi-$*.a $(BIN)/lanai-mpicc -std=gnu11 -O2 -Wall -Wextra $< -o $@
