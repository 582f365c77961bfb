/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The postal tree's lambda from the platform's measured table (seed 000
 * section 5.5; docs/multicast.md, "Postal lambda from the profile").
 *
 * lambda is "the number of destinations a sender can send to before its
 * first receiver can start sending": the time until one destination has a
 * message, over the time each further destination adds. Both depend on
 * the message size, so the table has one row per size class, measured
 * once per profile by host/bench/postal-table (R1's NIC multisend to 1 and
 * to 8 destinations) and kept beside the profile as NAME.postal:
 *
 *   # comments
 *   size,deliver_us,extra_dest_us,lambda
 *   4,18.700,5.300,4
 *   ...
 *
 * A message of len bytes takes the first row whose size is >= len (the
 * last row beyond it). Every row's lambda must be what ref/tree's
 * nc_postal_ratio gives for its own two times (in ns, rounded): a table
 * edited by hand or made by another rule is refused, not trusted. The
 * profile is the one the host runs on (nc_backend_profile: the emulator's
 * --profile, or NICOLL_PROFILE on a real cluster).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll.h"
#include "nc_backend.h"
#include "nc_tree.h"

static int refuse(char *why, size_t whylen, const char *fmt, ...)
{
    va_list ap;

    if (why && whylen) {
        va_start(ap, fmt);
        vsnprintf(why, whylen, fmt, ap);
        va_end(ap);
    }
    return NC_EINVAL;
}

/* PROFILE.profile -> PROFILE.postal (any other name: NAME.postal) */
static int table_path(const char *profile, char *out, size_t max)
{
    size_t n = strlen(profile);
    static const char sfx[] = ".profile";

    if (n >= sizeof sfx - 1 && !strcmp(profile + n - (sizeof sfx - 1), sfx))
        n -= sizeof sfx - 1;
    return snprintf(out, max, "%.*s.postal", (int)n, profile) < (int)max ? 0 : -1;
}

int nc_postal_lambda_from(const char *table, size_t len, unsigned *lambda, char *why,
                          size_t whylen)
{
    char line[256];
    unsigned long last_size = 0;
    unsigned rows = 0, lineno = 0, chosen = 0, last = 0;
    FILE *f = fopen(table, "r");

    if (!f)
        return refuse(why, whylen, "postal table %s: %s (make postal-table PROFILE=...; "
                      "docs/multicast.md)", table, strerror(errno));
    while (fgets(line, sizeof line, f)) {
        unsigned long size;
        double deliver, extra;
        unsigned l, want;
        int end = 0;

        lineno++;
        if (line[0] == '#' || line[0] == '\n' || !strncmp(line, "size,", 5))
            continue;
        if (sscanf(line, "%lu,%lf,%lf,%u%n", &size, &deliver, &extra, &l, &end) != 4 ||
            (line[end] != '\n' && line[end] != '\0')) {
            fclose(f);
            return refuse(why, whylen, "postal table %s line %u: not size,deliver_us,"
                          "extra_dest_us,lambda", table, lineno);
        }
        if (rows && size <= last_size) {
            fclose(f);
            return refuse(why, whylen, "postal table %s line %u: size %lu not above the "
                          "previous row's %lu", table, lineno, size, last_size);
        }
        if (!(deliver > 0 && deliver < 4e6 && extra >= 0.001 && extra < 4e6)) {
            fclose(f);
            return refuse(why, whylen, "postal table %s line %u: times out of range",
                          table, lineno);
        }
        want = nc_postal_ratio((uint32_t)(deliver * 1000 + 0.5), (uint32_t)(extra * 1000 + 0.5));
        if (l != want) {
            fclose(f);
            return refuse(why, whylen, "postal table %s line %u: lambda %u, but %.3f us / "
                          "%.3f us gives %u", table, lineno, l, deliver, extra, want);
        }
        if (!chosen && size >= len)
            chosen = l;
        last = l;
        last_size = size;
        rows++;
    }
    fclose(f);
    if (!rows)
        return refuse(why, whylen, "postal table %s: no rows", table);
    *lambda = chosen ? chosen : last;   /* beyond the largest size: its class */
    return NC_OK;
}

int nc_postal_lambda(size_t len, unsigned *lambda, char *why, size_t whylen)
{
    const char *profile = nc_backend_profile();
    char path[4096];

    if (!profile)
        return refuse(why, whylen, "no platform profile to take the postal table from "
                      "(on a real cluster: NICOLL_PROFILE=FILE)");
    if (table_path(profile, path, sizeof path))
        return refuse(why, whylen, "profile path too long: %s", profile);
    return nc_postal_lambda_from(path, len, lambda, why, whylen);
}
