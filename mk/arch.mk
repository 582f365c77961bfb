# Checks of the whole tree rather than of one room.
#
# Products: none.
# Targets:  none of its own (make help, whose coverage tests/arch/suite
#           checks, is the Makefile's).
# Suites:   tests/arch/suite: the one-way arrows between rooms and the
#           record's rules (docs/architecture.md, tests/arch/check, each
#           rule shown failing on a violation planted in a copy of the tree),
#           and make help against every .PHONY target;
#           tests/cli/suite: honest failures, every tool's usage errors in
#           one table, tests/cli/cases (exit status and message of each row;
#           about 30 s). It needs the tools and the test programs of
#           `make all`.
CHECK_SUITES += tests/arch/suite tests/cli/suite
