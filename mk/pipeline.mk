# The pipelined data path (docs/firmware.md, "Pipelining")
# and its test; its two mutants, a stage of the pipeline switched off
# (tests/pipeline/mutants/), are built by mk/nicoll.mk's mutant rule.
CHECK_SUITES += tests/pipeline/suite
