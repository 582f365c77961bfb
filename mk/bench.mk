# make bench: experiments of shared/docs/results-to-reproduce.md that can run
# so far (R5, analytic), CSV + plots under build/bench/.
.PHONY: bench

bench: $(BUILD)/bench/r5_kbinomial $(BUILD)/firmware/mcp.img $(BUILD)/tests/nicoll/host_nicoll.so $(BIN)/lanai-run
	@bash host/bench/run
	@bash host/bench/r7 $(BUILD)/bench

$(BUILD)/bench/r5_kbinomial: host/bench/r5_kbinomial.c ref/tree/nc_kbin.c ref/tree/nc_kbin.h
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -Iref/include -Iref/tree $< ref/tree/nc_kbin.c -o $@
