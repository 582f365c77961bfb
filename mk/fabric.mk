# Myrinet fabric model pieces that need no QEMU: topologies, up*/down*
# routes, CRC-8 (lanai-emu/fabric), the lanai-topo tool and their tests.
FABRIC_SRCS := lanai-emu/fabric/topology.c lanai-emu/fabric/topo_file.c \
               lanai-emu/fabric/fabric.c
FABRIC_HDRS := lanai-emu/fabric/topology.h lanai-emu/fabric/fabric.h
FABRIC_CFLAGS := -D_DEFAULT_SOURCE -Ilanai-emu/fabric

ALL_TARGETS += $(BUILD)/bin/lanai-topo $(BUILD)/tests/fabric/test_topology \
               $(BUILD)/tests/fabric/test_fabric $(BUILD)/fuzz/fuzz_topology \
               $(BUILD)/fuzz/fuzz_fabric
CHECK_SUITES += tests/fabric/suite

$(BUILD)/bin/lanai-topo: lanai-emu/fabric/lanai-topo.c $(FABRIC_SRCS) $(FABRIC_HDRS) $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) $(FABRIC_CFLAGS) $(COMMON_INC) $< $(FABRIC_SRCS) -lpcap -o $@

$(BUILD)/tests/fabric/test_topology: tests/fabric/test_topology.c $(FABRIC_SRCS) $(FABRIC_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(FABRIC_CFLAGS) $< $(FABRIC_SRCS) -lcmocka -lpcap -o $@

$(BUILD)/fuzz/fuzz_topology: tests/fuzz/fuzz_topology.c $(FABRIC_SRCS) $(FABRIC_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FABRIC_CFLAGS) $< $(FABRIC_SRCS) -lpcap -o $@

$(BUILD)/tests/fabric/test_fabric: tests/fabric/test_fabric.c $(FABRIC_SRCS) $(FABRIC_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(FABRIC_CFLAGS) $< $(FABRIC_SRCS) -lcmocka -lpcap -o $@

$(BUILD)/fuzz/fuzz_fabric: tests/fuzz/fuzz_fabric.c $(FABRIC_SRCS) $(FABRIC_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FABRIC_CFLAGS) $< $(FABRIC_SRCS) -lpcap -o $@
