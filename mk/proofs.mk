# ref/proto + ref/tree + ref/red: Frama-C/WP proofs (proofs/), unit tests,
# the optimal-k table, the reduction core's tests and LANai costs. make help
# says what each target does.
#
# Products: build/unit/ref/{test_proto,test_tree,kopt}, build/unit/ref/lanai/*.o
# (ref/ compiled for the NIC, to keep it freestanding); the mutants
# build/mutants/ref/test_proto-NAME; build/tests/red/{test_red,lanai_cost.elf}
# and the mutants build/mutants/red/test_red-NAME.
# Targets:  proofs, proofs-refresh, proofs-scratch, check-proof-mutants, kopt-table,
#           red-cost.
# Suites:   tests/unit/ref/suite (ref/'s unit tests), proofs/suite, tests/red/suite.

REF_INC      := -Iref/include -Iref/proto -Iref/tree
REF_HDRS     := $(wildcard ref/include/*.h ref/proto/*.h ref/tree/*.h ref/red/*.h ref/nicvm/*.h)
REF_PROTO    := $(wildcard ref/proto/*.c)
REF_TREE     := $(wildcard ref/tree/*.c)
REF_RED      := $(wildcard ref/red/*.c)
REF_B        := $(BUILD)/unit/ref
REF_CFLAGS   := $(HOST_CFLAGS) -std=c99 -pedantic -Werror $(REF_INC)
REF_LANAI    := $(LLVM_BIN)/clang --target=lanai -ffreestanding -nostdlibinc \
                -std=c99 -O2 -Wall -Wextra -pedantic -Werror $(REF_INC)
REF_NICVM    := $(wildcard ref/nicvm/*.c)
REF_LANAI_OBJS := $(patsubst ref/%.c,$(REF_B)/lanai/%.o,$(REF_PROTO) $(REF_TREE) $(REF_RED) $(REF_NICVM))

ALL_TARGETS  += $(REF_B)/test_proto $(REF_B)/test_tree $(REF_B)/kopt $(REF_LANAI_OBJS)
CHECK_SUITES += tests/unit/ref/suite proofs/suite

$(REF_B)/test_proto: tests/unit/ref/test_proto.c $(REF_PROTO) $(REF_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) $(REF_CFLAGS) $< $(REF_PROTO) -lcmocka -o $@

# The same tests on nc_mcgroup's mutants (tests/unit/ref/mutants/, each a
# patched copy of ref/; tests/unit/ref/suite expects each to fail):
# accept out of order, release early, resend to all.
REF_MUTANTS := $(patsubst %.patch,%,$(notdir $(sort $(wildcard tests/unit/ref/mutants/*.patch))))
CHECK_TARGETS += $(foreach v,$(REF_MUTANTS),$(MUT)/ref/test_proto-$(v))
$(MUT)/ref/test_proto-%: tests/unit/ref/mutants/%.patch tests/unit/ref/test_proto.c $(REF_PROTO) $(REF_HDRS) tests/lib/mutate
	@mkdir -p $(@D)
	bash tests/lib/mutate $< $(MUT)/ref/$*.src ref
	$(HOSTCC) $(patsubst -I%,-I$(MUT)/ref/$*.src/%,$(REF_CFLAGS)) tests/unit/ref/test_proto.c \
	    $(addprefix $(MUT)/ref/$*.src/,$(REF_PROTO)) -lcmocka -o $@

$(REF_B)/test_tree: tests/unit/ref/test_tree.c $(REF_TREE) $(REF_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) $(REF_CFLAGS) $< $(REF_TREE) -lcmocka -o $@

$(REF_B)/kopt: tests/unit/ref/kopt.c $(REF_TREE) $(REF_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) $(REF_CFLAGS) $< $(REF_TREE) -o $@

$(REF_B)/lanai/%.o: ref/%.c $(REF_HDRS)
	@mkdir -p $(@D)
	$(REF_LANAI) -c $< -o $@

# ref/red against libmpi's own reduction (host/mpi/mpi_op.c, compiled with
# libmpi's flags, so that NaN operand order is the host's) and against MPFR.
RED_B    := $(BUILD)/tests/red
RED_HOST := tests/red/host_op.c host/mpi/mpi_op.c
RED_DEPS := tests/red/test_red.c tests/red/host_op.h $(RED_HOST) $(MPI_HDRS) host/lib/nicoll.h
RED_CFLAGS := $(HOST_CFLAGS) -Werror
ALL_TARGETS  += $(RED_B)/test_red $(RED_B)/lanai_cost.elf
CHECK_SUITES += tests/red/suite

$(RED_B)/test_red: $(RED_DEPS) $(REF_RED) $(REF_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) $(MPI_CFLAGS) -c host/mpi/mpi_op.c -o $(RED_B)/mpi_op.o
	$(HOSTCC) $(MPI_CFLAGS) -c tests/red/host_op.c -o $(RED_B)/host_op.o
	$(HOSTCC) $(RED_CFLAGS) -Iref/red tests/red/test_red.c $(REF_RED) \
	    $(RED_B)/mpi_op.o $(RED_B)/host_op.o -lmpfr -lgmp -o $@

# The same tests on ref/red's mutants (tests/red/mutants/, each a patched
# copy of ref/red; tests/red/suite expects each to fail a test).
RED_MUTANTS := $(patsubst %.patch,%,$(notdir $(sort $(wildcard tests/red/mutants/*.patch))))
CHECK_TARGETS += $(foreach v,$(RED_MUTANTS),$(MUT)/red/test_red-$(v))
$(MUT)/red/test_red-%: tests/red/mutants/%.patch $(RED_B)/test_red tests/lib/mutate
	@mkdir -p $(@D)
	bash tests/lib/mutate $< $(MUT)/red/$*.src ref/red
	$(HOSTCC) $(RED_CFLAGS) -I$(MUT)/red/$*.src/ref/red tests/red/test_red.c \
	    $(addprefix $(MUT)/red/$*.src/,$(REF_RED)) $(RED_B)/mpi_op.o $(RED_B)/host_op.o \
	    -lmpfr -lgmp -o $@

# The LANai cost of each kernel (tests/red/cost, docs/reduction.md).
$(RED_B)/lanai_cost.elf: tests/red/lanai_cost.c $(REF_RED) $(REF_HDRS) $(BIN)/lanai-cc $(BIN)/lanai-ld \
                         $(RT_LIB)/crt0.o $(RT_LIB)/liblanai-rt.a $(TC_PUBLIC)
	@mkdir -p $(@D)
	$(BIN)/lanai-cc -O2 -Iref/red tests/red/lanai_cost.c $(REF_RED) -o $@

.PHONY: red-cost
## red-cost: LANai instructions per element of every reduction kernel (build/tests/red/cost.txt)
red-cost: $(RED_B)/lanai_cost.elf $(BIN)/lanai-iss
	bash tests/red/cost | tee $(RED_B)/cost.txt

.PHONY: proofs proofs-refresh proofs-scratch check-proof-mutants kopt-table
## proofs: prove every module of ref/ (Frama-C/WP + RTE), replaying proofs/cache/
proofs:
	bash proofs/run.sh

## proofs-refresh: re-run every prover, rewrite proofs/cache/ and the proof reports
proofs-refresh:
	bash proofs/run.sh --cache rebuild --report

## proofs-scratch: prove without any cache (timing from scratch)
proofs-scratch:
	bash proofs/run.sh --cache none

## check-proof-mutants: each deliberate bug of ref/ must fail a goal and a test
check-proof-mutants: $(REF_B)/test_proto $(REF_B)/test_tree
	bash proofs/mutants.sh

## kopt-table: print seed 001's optimal k for n in {16,32,64}
kopt-table: $(REF_B)/kopt
	$(REF_B)/kopt
