# NIC multicast (firmware/coll/mcast.c, libnicoll's nc_group_multisend
# and nc_mcast) end to end: tests/mcast/suite. docs/multicast.md. The firmware
# sources and its broken variants (mc_early_release, mc_no_retransmit,
# mc_accept_any, mc_forget_on_close, mc_no_owner_check, ...) are in mk/nicoll.mk's
# FW_SRCS and FW_BROKEN.
MC_T := $(BUILD)/tests/mcast

ALL_TARGETS += $(MC_T)/host_mcast.so
CHECK_SUITES += tests/mcast/suite

# (mk/nicoll.mk is read after this file: the library sources are named here)
$(MC_T)/%.so: tests/mcast/%.c tests/lib/open_port.h tests/nicoll/pattern.h host/lib/nicoll.c \
              host/lib/nc_group.c host/lib/nc_postal.c host/lib/nc_group.h host/lib/nicoll.h include/nicoll/nc_abi.h include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@

# A mutant for tests/mcast/suite's reopen rows (the stale rule): the member
# entry of a closed port, instead of going G_CLOSED, is carried over to the
# port's next open (its generation), so the new process would get the
# group's later messages. Built from a copy of firmware/ with that one line
# changed, so firmware/coll/mcast.c carries no test-only code for it; the
# build fails if the line it changes is gone.
MC_MUT := $(BUILD)/mutants/mc_keep_on_reopen
ALL_TARGETS += $(BUILD)/firmware/mcp_mut_mc_keep_on_reopen.img
$(BUILD)/firmware/mcp_mut_mc_keep_on_reopen.img: $(wildcard firmware/*.c firmware/*/*.c firmware/*/*.h) \
        $(wildcard ref/proto/*.c ref/proto/*.h) mk/mcast.mk mk/nicoll.mk $(BIN)/lanai-cc $(BIN)/lanai-ld
	@rm -rf $(MC_MUT) && mkdir -p $(MC_MUT) $(@D)
	cp -r firmware $(MC_MUT)/firmware && ln -s $(CURDIR)/ref $(MC_MUT)/ref
	sed -i 's|^            g->role = G_CLOSED;$$|            g->gen = ports[pi].gen + 1u;    /* MUTANT: kept for the next open */|' \
	    $(MC_MUT)/firmware/coll/mcast.c
	@grep -q 'MUTANT: kept for the next open' $(MC_MUT)/firmware/coll/mcast.c || \
	    { echo "mk/mcast.mk: the mutant's line 'g->role = G_CLOSED;' is gone from firmware/coll/mcast.c"; exit 1; }
	$(BIN)/lanai-cc $(FW_CFLAGS) $(MC_MUT)/firmware/mcp_image.c -o $(MC_MUT)/mcp.elf $(FW_LDFLAGS),--image,$@
