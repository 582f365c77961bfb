# The one-way arrows between rooms (docs/architecture.md): tests/arch/check
# and its suite, which plants a violation of each rule in a copy of the tree.
CHECK_SUITES += tests/arch/suite
