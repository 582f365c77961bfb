# SPIN models (spec/promela/): make models verifies every model, property and
# broken variant against spec/promela/EXPECTED and prints the table; the same
# checks run in make check as tests/models/suite.  Needs the Debian package
# spin (ci/packages/models.txt).  Output: $(BUILD)/models/<model>/<variant>/.
.PHONY: models models-sim

CHECK_SUITES += tests/models/suite

models:
	@bash tests/models/verify

# Seeded random simulations only (MODELS_SEEDS="1 2 3" by default).
models-sim:
	@bash tests/models/simulate
