# lanai-run --timeline (docs/timeline.md): the converter next to lanai-run,
# and its suite.
ALL_TARGETS  += $(BIN)/lanai-timeline
CHECK_SUITES += tests/timeline/suite

$(BIN)/lanai-timeline: host/tools/lanai-timeline $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(SCRIPT_COPY)
