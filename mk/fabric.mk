# Myrinet fabric model pieces that need no QEMU: topologies, up*/down*
# routes, CRC-8 (lanai-emu/fabric), the lanai-topo tool and their tests.
FABRIC_SRCS := lanai-emu/fabric/topology.c lanai-emu/fabric/topo_file.c
FABRIC_HDRS := lanai-emu/fabric/topology.h

ALL_TARGETS += $(BUILD)/bin/lanai-topo $(BUILD)/tests/fabric/test_topology \
               $(BUILD)/fuzz/fuzz_topology
CHECK_SUITES += tests/fabric/suite

$(BUILD)/bin/lanai-topo: lanai-emu/fabric/lanai-topo.c $(FABRIC_SRCS) $(FABRIC_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -Ilanai-emu/fabric $< $(FABRIC_SRCS) -o $@

$(BUILD)/tests/fabric/test_topology: tests/fabric/test_topology.c $(FABRIC_SRCS) $(FABRIC_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra -Ilanai-emu/fabric $< $(FABRIC_SRCS) -lcmocka -o $@

$(BUILD)/fuzz/fuzz_topology: tests/fuzz/fuzz_topology.c $(FABRIC_SRCS) $(FABRIC_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) -Ilanai-emu/fabric $< $(FABRIC_SRCS) -o $@
