# The myrinet cluster machine (lanai-emu/qemu/hw/lanai/myrinet*.c, built into
# qemu-system-lanai by mk/emu.mk), its front end lanai-run, and its tests:
# LANai test firmware built with lanai-cc, host programs as shared objects.
# docs/myrinet.md.
MYRINET_T := $(BUILD)/tests/myrinet

ALL_TARGETS += $(BIN)/lanai-run $(MYRINET_T)/fw_net.img $(MYRINET_T)/fw_silent.img \
               $(MYRINET_T)/host_net.so $(MYRINET_T)/fw_idle.img $(MYRINET_T)/host_idle.so \
               $(MYRINET_T)/fw_ring.img $(MYRINET_T)/host_ring.so
CHECK_SUITES += tests/myrinet/suite tests/myrinet/idle tests/myrinet/backpressure

$(BIN)/lanai-run: host/tools/lanai-run $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(SCRIPT_COPY)

$(MYRINET_T)/%.img: tests/myrinet/%.c include/nicoll/lanai9_regs.h include/nicoll/shared_block.h \
		$(BIN)/lanai-cc $(BIN)/lanai-ld $(RT_LIB)/crt0.o $(RT_LIB)/liblanai-rt.a
	@mkdir -p $(@D)
	$(BIN)/lanai-cc -O2 $(CONTRACT_INC) $< -o $(MYRINET_T)/$*.elf \
	    -Wl,--mem-size,2M,--image,$@

$(MYRINET_T)/%.so: tests/myrinet/%.c include/nicoll/hostif.h include/nicoll/lanai9_regs.h \
		include/nicoll/shared_block.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC $(CONTRACT_INC) $< -o $@

# Host DMA through the machine (tests/myrinet/dma): fw_dma + host_dma, and
# host_dma_neg, the same program with every scenario broken (-DNEGATIVE),
# which the suite must reject.
ALL_TARGETS += $(MYRINET_T)/fw_dma.img $(MYRINET_T)/host_dma.so $(MYRINET_T)/host_dma_neg.so
CHECK_SUITES += tests/myrinet/dma
$(MYRINET_T)/fw_dma.img $(MYRINET_T)/host_dma.so: tests/myrinet/dma_pattern.h

$(MYRINET_T)/host_dma_neg.so: tests/myrinet/host_dma.c tests/myrinet/dma_pattern.h \
		include/nicoll/hostif.h include/nicoll/lanai9_regs.h include/nicoll/shared_block.h
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -shared -fPIC -DNEGATIVE $(CONTRACT_INC) $< -o $@
