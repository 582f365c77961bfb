# make bench: the papers' experiments that run so far (R1, R2, R5, R7; README,
# "Sources and experiments") and nicoll's point-to-point figures; CSV, plots
# and summary.txt under build/bench/, and one table of every reproduced
# result, build/bench/reproductions.csv (docs/bench.md).
#
# Every benchmark writes its rows to $(BUILD)/bench/repro/NAME.csv (with
# host/bench/reprow); the last step joins, checks and prints them. A new
# benchmark is one more line before that step. The directory is emptied
# first, so that rows of an earlier run (or of a benchmark since removed)
# cannot pass for this run's.
.PHONY: bench

bench: $(BUILD)/bench/r5_kbinomial $(BUILD)/firmware/mcp.img $(BUILD)/tests/nicoll/host_nicoll.so $(BIN)/lanai-run $(BIN)/lanai-profile
	@rm -rf $(BUILD)/bench/repro $(BUILD)/bench/reproductions.csv
	@bash host/bench/run
	@bash host/bench/r7 $(BUILD)/bench
	@bash host/bench/r1r2 $(BUILD)/bench
	@python3 host/bench/reproductions $(BUILD)/bench

$(BUILD)/bench/r5_kbinomial: host/bench/r5_kbinomial.c ref/tree/nc_kbin.c ref/tree/nc_kbin.h
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -Iref/include -Iref/tree $< ref/tree/nc_kbin.c -o $@

# The reproductions table's tools on small fixture files (never the
# benchmarks: too slow for make check).
CHECK_SUITES += tests/bench/suite tests/bench/r2leaves
