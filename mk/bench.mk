# make bench: the papers' experiments that run so far (R5, R7; README,
# "Sources and experiments") and nicoll's point-to-point figures; CSV, plots
# and summary.txt under build/bench/.
.PHONY: bench

bench: $(BUILD)/bench/r5_kbinomial $(BUILD)/firmware/mcp.img $(BUILD)/tests/nicoll/host_nicoll.so $(BIN)/lanai-run $(BIN)/lanai-profile
	@bash host/bench/run
	@bash host/bench/r7 $(BUILD)/bench

$(BUILD)/bench/r5_kbinomial: host/bench/r5_kbinomial.c ref/tree/nc_kbin.c ref/tree/nc_kbin.h
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -Iref/include -Iref/tree $< ref/tree/nc_kbin.c -o $@
