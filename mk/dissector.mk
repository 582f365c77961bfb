# The Wireshark dissector for packet traces (docs/dissector.md), generated
# from the wire header, and its suite (tshark from ci/packages/dissector.txt).
DISSECTOR := $(BUILD)/share/nicoll/nicoll.lua

ALL_TARGETS  += $(DISSECTOR)
CHECK_SUITES += tests/dissector/suite

$(DISSECTOR): host/tools/gen-dissector include/nicoll/nc_wire.h
	@mkdir -p $(@D)
	python3 host/tools/gen-dissector --wire include/nicoll/nc_wire.h $@
