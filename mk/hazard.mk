# LANai 9.0/9.1 load hazards: strict mode (lanai-iss --strict,
# QEMU -cpu lanai9.0) and lanai-ld's hazard pass (-mcpu=lanai9.0), checked on
# the ISA programs, the firmware images and random instruction streams.
# The unit tests of the pass are rows of tests/ld/suite.
CHECK_SUITES += tests/hazard/isa-strict tests/hazard/firmware tests/hazard/random-strict tests/hazard/cluster-strict
