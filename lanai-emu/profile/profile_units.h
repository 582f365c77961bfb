/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers with units, for the profile parser and printer (internal). */
#ifndef NICOLL_PROFILE_UNITS_H
#define NICOLL_PROFILE_UNITS_H

#include "profile.h"

/*
 * Parse "NUMBER [UNIT]" (s, n bytes, no surrounding blanks) as a value of
 * dimension dim, converted to the stored unit and rounded to the nearest
 * stored unit. Returns 0, or -1 with a message in msg.
 */
int punit_parse(enum profile_dim dim, const char *s, size_t n, uint64_t *out,
                char *msg, size_t msglen);

/* The canonical text of a stored value: exact, so that parsing it again
 * gives the same number. */
void punit_format(enum profile_dim dim, uint64_t v, char *buf, size_t len);

/* "a time (ps, ns, us, ms, s)" and the like, for error messages. */
const char *punit_expect(enum profile_dim dim);

#endif
