# ref/proto + ref/tree: Frama-C/WP proofs (proofs/), unit tests, the
# optimal-k table. make help says what each target does.
#
# Products: build/unit/ref/{test_proto,test_tree,kopt}, build/unit/ref/lanai/*.o
# (ref/ compiled for the NIC, to keep it freestanding); the mutants
# build/mutants/ref/test_proto-NAME.
# Targets:  proofs, proofs-refresh, proofs-scratch, check-proof-mutants, kopt-table.
# Suites:   tests/unit/ref/suite (ref/'s unit tests), proofs/suite.

REF_INC      := -Iref/include -Iref/proto -Iref/tree
REF_HDRS     := $(wildcard ref/include/*.h ref/proto/*.h ref/tree/*.h ref/nicvm/*.h)
REF_PROTO    := $(wildcard ref/proto/*.c)
REF_TREE     := $(wildcard ref/tree/*.c)
REF_B        := $(BUILD)/unit/ref
REF_CFLAGS   := $(HOST_CFLAGS) -std=c99 -pedantic -Werror $(REF_INC)
REF_LANAI    := $(LLVM_BIN)/clang --target=lanai -ffreestanding -nostdlibinc \
                -std=c99 -O2 -Wall -Wextra -pedantic -Werror $(REF_INC)
REF_NICVM    := $(wildcard ref/nicvm/*.c)
REF_LANAI_OBJS := $(patsubst ref/%.c,$(REF_B)/lanai/%.o,$(REF_PROTO) $(REF_TREE) $(REF_NICVM))

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
