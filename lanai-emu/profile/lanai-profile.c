/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lanai-profile: check and print platform profiles (docs/profiles.md).
 *
 *   lanai-profile check FILE...     parse; print "FILE: ok" or the error
 *   lanai-profile print FILE        the normalised form on stdout
 *   lanai-profile keys              every key with its unit and range
 * FILE may be a name in lanai-emu/profiles (p-gm2), as for lanai-run.
 *
 * Exit status: 0 all good, 1 a bad profile, 2 bad usage (an unknown
 * command, a file that cannot be read, an unknown profile name).
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"
#include "profile_units.h"
#include "nc_version.h"

static int usage(FILE *f, int rc)
{
    fprintf(f,
        "usage: lanai-profile check FILE...   check profiles (errors name file:line)\n"
        "       lanai-profile print FILE      print the normalised profile\n"
        "       lanai-profile keys            list every key, its unit and range\n"
        "       lanai-profile --help | --version\n"
        "FILE: a path, or a name in lanai-emu/profiles (p-gm2, p-ab, ...) as\n"
        "lanai-run --profile takes it.\n"
        "Format and sources: docs/profiles.md. Exit 0 ok, 1 bad profile, 2 usage\n"
        "(also a file that cannot be read, an unknown name).\n");
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
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

/* The profiles directory, as lanai-run finds it: $LANAI_PROFILES, or
 * share/nicoll/profiles of the prefix this program is installed in
 * (PREFIX/bin/lanai-profile, docs/install.md), or lanai-emu/profiles
 * beside the build directory it is in (build/bin/lanai-profile). */
static void profiles_dir(char *dir, size_t len)
{
    const char *env = getenv("LANAI_PROFILES");
    char self[PATH_MAX];
    ssize_t n;

    if (env && *env) {
        snprintf(dir, len, "%s", env);
        return;
    }
    n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        snprintf(dir, len, "lanai-emu/profiles");
        return;
    }
    self[n] = 0;
    *strrchr(self, '/') = 0;
    snprintf(dir, len, "%s/../share/nicoll/profiles", self);
    if (!access(dir, R_OK))
        return;
    snprintf(dir, len, "%s/../../lanai-emu/profiles", self);
}

/* A FILE argument: a path (with a '/' or ending in .profile) or, as
 * lanai-run --profile takes it, a name in the profiles directory. Returns
 * 0 with the path, or 2 after saying which names there are. */
static int resolve(const char *arg, char *path, size_t len)
{
    char dir[PATH_MAX + 32];
    size_t al = strlen(arg);
    DIR *d;
    struct dirent *e;

    if (strchr(arg, '/') || (al > 8 && !strcmp(arg + al - 8, ".profile"))) {
        if (access(arg, R_OK)) {
            fprintf(stderr, "lanai-profile: %s: %s\n", arg, strerror(errno));
            return 2;
        }
        snprintf(path, len, "%s", arg);
        return 0;
    }
    profiles_dir(dir, sizeof dir);
    snprintf(path, len, "%s/%s.profile", dir, arg);
    if (!access(path, R_OK))
        return 0;
    fprintf(stderr, "lanai-profile: no profile '%s' (names in %s:", arg, dir);
    if ((d = opendir(dir))) {
        char *names[64];
        unsigned k = 0;
        while ((e = readdir(d)) && k < 64) {
            size_t l = strlen(e->d_name);
            if (l > 8 && !strcmp(e->d_name + l - 8, ".profile"))
                names[k++] = strndup(e->d_name, l - 8);
        }
        closedir(d);
        qsort(names, k, sizeof names[0], cmp_str);
        for (unsigned i = 0; i < k; i++) {
            fprintf(stderr, " %s", names[i]);
            free(names[i]);
        }
    }
    fprintf(stderr, "; or a file)\n");
    return 2;
}

int main(int argc, char **argv)
{
    static struct profile p;
    char err[512], path[PATH_MAX + 128];
    int rc = 0, r;

    if (argc < 2)
        return usage(stderr, 2);
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
        return usage(stdout, 0);
    if (!strcmp(argv[1], "--version")) {
        printf("lanai-profile (nicoll) %s\n", NC_VERSION);
        return 0;
    }
    if (!strcmp(argv[1], "keys")) {
        if (argc != 2) {
            fprintf(stderr, "lanai-profile: keys takes no argument ('%s')\n", argv[2]);
            return 2;
        }
        list_keys();
        return 0;
    }
    if (!strcmp(argv[1], "print")) {
        if (argc != 3) {
            fprintf(stderr, "lanai-profile: print takes one FILE or NAME\n");
            return 2;
        }
        if ((r = resolve(argv[2], path, sizeof path)))
            return r;
        if (profile_load(&p, path, err, sizeof err)) {
            fprintf(stderr, "lanai-profile: %s\n", err);
            return 1;
        }
        profile_write(&p, stdout);
        return 0;
    }
    if (!strcmp(argv[1], "check")) {
        if (argc < 3) {
            fprintf(stderr, "lanai-profile: check needs at least one FILE or NAME\n");
            return 2;
        }
        for (int i = 2; i < argc; i++) {
            if ((r = resolve(argv[i], path, sizeof path))) {
                rc = r;
            } else if (profile_load(&p, path, err, sizeof err)) {
                fprintf(stderr, "lanai-profile: %s\n", err);
                rc = rc ? rc : 1;
            } else {
                printf("%s: ok (%s, %llu nodes, lookahead %llu ps)\n", argv[i], p.name,
                       (unsigned long long)p.nodes,
                       (unsigned long long)profile_lookahead_ps(&p));
            }
        }
        return rc;
    }
    fprintf(stderr, "lanai-profile: unknown command '%s' (check, print, keys)\n", argv[1]);
    return usage(stderr, 2);
}
