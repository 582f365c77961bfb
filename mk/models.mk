# SPIN models (spec/promela/): make models verifies every model, property and
# broken variant against spec/promela/EXPECTED and prints the table; the same
# checks run in make check as tests/models/suite.  Needs the Debian package
# spin (ci/packages/models.txt).  Output: $(BUILD)/models/<model>/<variant>/.
#
# Products: none in make all (make models writes $(BUILD)/models/).
# Targets:  models, models-sim.
# Suites:   tests/models/suite.
.PHONY: models models-sim

CHECK_SUITES += tests/models/suite

## models: verify every SPIN model, property and broken variant against spec/promela/EXPECTED
models:
	@bash tests/models/verify

# Seeded random simulations only (MODELS_SEEDS="1 2 3" by default).
## models-sim: the SPIN models' seeded random simulations only (MODELS_SEEDS)
models-sim:
	@bash tests/models/simulate
