/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lanai-profile: check and print platform profiles (docs/profiles.md).
 *
 *   lanai-profile check FILE...     parse; print "FILE: ok" or the error
 *   lanai-profile print FILE        the normalised form on stdout
 *   lanai-profile keys              every key with its unit and range
 *
 * Exit status: 0 all good, 1 a bad profile, 2 bad usage.
 */
#include <stdio.h>
#include <string.h>

#include "profile.h"
#include "profile_units.h"

static int usage(FILE *f, int rc)
{
    fprintf(f,
        "usage: lanai-profile check FILE...   check profiles (errors name file:line)\n"
        "       lanai-profile print FILE      print the normalised profile\n"
        "       lanai-profile keys            list every key, its unit and range\n"
        "Format and sources: docs/profiles.md. Exit 0 ok, 1 bad profile, 2 usage.\n");
    return rc;
}

static void list_keys(void)
{
    size_t n;
    const struct profile_key *k = profile_keys(&n);

    for (size_t i = 0; i < n; i++) {
        char lo[40], hi[40], def[40] = "required";
        if (k[i].dim == PDIM_NAME) {
            snprintf(lo, sizeof lo, "1");
            snprintf(hi, sizeof hi, "%llu chars", (unsigned long long)k[i].max);
        } else {
            punit_format(k[i].dim, k[i].min, lo, sizeof lo);
            punit_format(k[i].dim, k[i].max, hi, sizeof hi);
        }
        if (k[i].optional) {
            char d[32];
            punit_format(k[i].dim, k[i].def, d, sizeof d);
            snprintf(def, sizeof def, "default %s", d);
        }
        printf("%-22s %-11s .. %-11s %-12s %s%s\n", k[i].name, lo, hi, def, k[i].what,
               k[i].per_node ? "" : " [cluster-wide]");
    }
}

int main(int argc, char **argv)
{
    static struct profile p;
    char err[512];
    int rc = 0;

    if (argc < 2)
        return usage(stderr, 2);
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
        return usage(stdout, 0);
    if (!strcmp(argv[1], "keys") && argc == 2) {
        list_keys();
        return 0;
    }
    if (!strcmp(argv[1], "print") && argc == 3) {
        if (profile_load(&p, argv[2], err, sizeof err)) {
            fprintf(stderr, "lanai-profile: %s\n", err);
            return 1;
        }
        profile_write(&p, stdout);
        return 0;
    }
    if (!strcmp(argv[1], "check") && argc >= 3) {
        for (int i = 2; i < argc; i++) {
            if (profile_load(&p, argv[i], err, sizeof err)) {
                fprintf(stderr, "lanai-profile: %s\n", err);
                rc = 1;
            } else {
                printf("%s: ok (%s, %llu nodes, lookahead %llu ps)\n", argv[i], p.name,
                       (unsigned long long)p.nodes,
                       (unsigned long long)profile_lookahead_ps(&p));
            }
        }
        return rc;
    }
    return usage(stderr, 2);
}
