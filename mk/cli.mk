# Honest failures: every tool's usage errors in one table,
# tests/cli/cases, run by tests/cli/suite (exit status and message of each
# row; about 30 s). It needs the tools and the test programs of `make all`.
CHECK_SUITES += tests/cli/suite
