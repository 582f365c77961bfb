# R3 and R4 (seed 000 sections 7.2-7.3): MPI_Bcast on NIC
# multicast against the host's binomial broadcast, an MPI program built with
# lanai-mpicc (host/bench/r3r4_bcast.c) run by host/bench/r3r4 from make
# bench; `make bench-r3r4` runs it alone. docs/bench-r3r4.md.
R3R4_SO := $(BUILD)/bench/r3r4_bcast.so
ALL_TARGETS += $(R3R4_SO)

$(R3R4_SO): host/bench/r3r4_bcast.c include/nicoll/hostif.h $(MPI_LIB) $(BIN)/lanai-mpicc
	@mkdir -p $(@D)
	$(BIN)/lanai-mpicc -std=gnu11 -O2 -Wall -Wextra -Iinclude $< -o $@

.PHONY: bench-r3r4
bench-r3r4: $(R3R4_SO) $(BIN)/lanai-mpirun $(BUILD)/firmware/mcp.img
	@bash host/bench/r3r4 $(BUILD)/bench
bench: $(R3R4_SO) $(BIN)/lanai-mpirun
