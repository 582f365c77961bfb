# The real host tools against an emulated board.
# lanai-run --board-dir exposes one node's board window and DMA memory as
# files; lanai-flash and a pci-backend program (tests/board/pci_client.c)
# use them as they would a real board's; cluster flashing with pdsh.
# docs/lanai-flash.md, docs/myrinet.md ("A board for outside programs").
# Named to sort after nicoll.mk: its variables appear in prerequisites here.
BOARD_T := $(BUILD)/tests/board
ALL_TARGETS += $(BOARD_T)/pci_client $(BOARD_T)/host_echo.so
CHECK_SUITES += tests/board/suite

$(BOARD_T)/pci_client: tests/board/pci_client.c tests/nicoll/pattern.h $(NCL_PCI_SRCS) $(NCL_LIB_HDRS) \
		common/board.h $(COMMON_LIB)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -g -Wall -Wextra $(NCL_INC) $< $(NCL_PCI_SRCS) $(COMMON_LIB) -o $@

$(BOARD_T)/host_echo.so: tests/board/host_echo.c tests/lib/open_port.h $(NCL_LIB_SRCS) $(NCL_LIB_HDRS) \
		include/nicoll/hostif.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(NCL_INC) $< $(NCL_LIB_SRCS) -o $@

ALL_TARGETS += $(BIN)/lanai-flash-cluster
$(BIN)/lanai-flash-cluster: host/tools/lanai-flash-cluster $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(SCRIPT_COPY)

# VFIO for the pci backend: unit tests against a fake
# kernel, and two mutants of nc_vfio.c that tests/nicoll/unit must see fail.
VFIO_TEST_DEPS := tests/nicoll/test_vfio.c host/lib/nc_vfio.c host/lib/nc_vfio.h include/nicoll/lanai9_regs.h
ALL_TARGETS += $(BUILD)/tests/nicoll/test_vfio
CHECK_TARGETS += $(MUT)/vfio/test_vfio_no_master $(MUT)/vfio/test_vfio_no_unmask
$(BUILD)/tests/nicoll/test_vfio: $(VFIO_TEST_DEPS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(NCL_INC) $< host/lib/nc_vfio.c -lcmocka -o $@
$(MUT)/vfio/test_vfio_%: tests/nicoll/mutants/nc_vfio_%.patch $(VFIO_TEST_DEPS) tests/lib/mutate
	@mkdir -p $(@D)
	bash tests/lib/mutate $< $(MUT)/vfio/$*.src host/lib
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra $(NCL_INC) tests/nicoll/test_vfio.c $(MUT)/vfio/$*.src/host/lib/nc_vfio.c \
	    -lcmocka -o $@
