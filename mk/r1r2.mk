# The host-based multicast baselines
# (host/lib/nc_hmcast.c, part of libnicoll: NCL_LIB_SRCS in mk/nicoll.mk),
# their tests (tests/hmcast) and benchmarks R1 and R2 (host/bench/r1r2,
# docs/bench-r1r2.md). Included after mk/nicoll.mk (name order).
HMC_T := $(BUILD)/tests/hmcast
R12_B := $(BUILD)/bench

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

# The benchmarks' host programs: libnicoll compiled in, as for R7.
ALL_TARGETS += $(R12_B)/r1_multisend.so $(R12_B)/r2_bcast.so
$(R12_B)/r1_multisend.so $(R12_B)/r2_bcast.so: $(R12_B)/%.so: host/bench/%.c $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@

# R2's lambda per size from r1.csv (host/bench/postal_lambda.c): a host
# tool with ref/tree's nc_postal_ratio.
ALL_TARGETS += $(R12_B)/postal_lambda
$(R12_B)/postal_lambda: host/bench/postal_lambda.c ref/tree/nc_tree.c ref/tree/nc_tree.h ref/tree/nc_kbin.c
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra $(NCL_INC) $< ref/tree/nc_tree.c ref/tree/nc_kbin.c -o $@

# make bench runs R1 and R2 (mk/bench.mk calls host/bench/r1r2);
# make bench-r1r2 runs only them, with fewer iterations (docs/bench-r1r2.md).
R12_DEPS := $(R12_B)/r1_multisend.so $(R12_B)/r2_bcast.so $(R12_B)/postal_lambda $(FW_DIR)/mcp.img $(BIN)/lanai-run
bench: $(R12_DEPS)
.PHONY: bench-r1r2
bench-r1r2: $(R12_DEPS)
	@R1_COUNT=$${R1_COUNT:-200} R2_COUNT=$${R2_COUNT:-10} bash host/bench/r1r2 $(BUILD)/bench

# The postal table of a profile (host/bench/postal-table; docs/multicast.md):
# measured once per profile and committed beside it, PROFILE.postal.
.PHONY: postal-table
postal-table: $(R12_B)/r1_multisend.so $(R12_B)/postal_lambda $(FW_DIR)/mcp.img $(FW_DIR)/mcp_1m.img $(BIN)/lanai-run
	@[ -n "$(PROFILE)" ] || { echo "make postal-table PROFILE=NAME (a name in lanai-emu/profiles)"; exit 2; }
	@bash host/bench/postal-table $(PROFILE)
