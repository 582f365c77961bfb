# Platform profiles (lanai-emu/profile): the parser shared by the emulator,
# lanai-run and the tests; the lanai-profile tool; tests and fuzz target.
# Profiles themselves live in lanai-emu/profiles/*.profile.
PROFILE_SRCS := lanai-emu/profile/profile.c lanai-emu/profile/profile_keys.c \
                lanai-emu/profile/profile_units.c lanai-emu/profile/profile_time.c
PROFILE_HDRS := lanai-emu/profile/profile.h lanai-emu/profile/profile_units.h

ALL_TARGETS += $(BUILD)/bin/lanai-profile $(BUILD)/tests/profile/test_profile \
               $(BUILD)/fuzz/fuzz_profile
CHECK_SUITES += tests/profile/suite

$(BUILD)/bin/lanai-profile: lanai-emu/profile/lanai-profile.c $(PROFILE_SRCS) $(PROFILE_HDRS) $(NC_VERSION_H)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -Ilanai-emu/profile $(COMMON_INC) $< $(PROFILE_SRCS) -o $@

$(BUILD)/tests/profile/test_profile: tests/profile/test_profile.c $(PROFILE_SRCS) $(PROFILE_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) -std=gnu11 -O1 -g -Wall -Wextra -Ilanai-emu/profile $< $(PROFILE_SRCS) -lcmocka -o $@

$(BUILD)/fuzz/fuzz_profile: tests/fuzz/fuzz_profile.c $(PROFILE_SRCS) $(PROFILE_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) -Ilanai-emu/profile $< $(PROFILE_SRCS) -o $@
