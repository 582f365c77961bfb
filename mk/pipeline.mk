# The pipelined data path (docs/firmware.md, "Pipelining")
# and its test; the two firmware variants with a stage of it switched off
# are built here (mcp_%.img, mk/nicoll.mk's rule) for the negative checks.
PIPE_IMAGES := $(FW_DIR)/mcp_no_pipeline.img $(FW_DIR)/mcp_late_chain.img
ALL_TARGETS += $(PIPE_IMAGES)
CHECK_SUITES += tests/pipeline/suite
firmware: $(PIPE_IMAGES)
