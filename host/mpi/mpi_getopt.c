/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * getopt's state per rank. Every rank runs in the emulator's one process,
 * so the C library's optind/optarg are shared: the first rank to parse its
 * options leaves optind at the end, and the next rank's getopt sees no
 * options at all (OSU's benchmarks parse argv on every rank). libmpi is
 * linked into the program's shared object with these hidden definitions:
 * the program's getopt calls and its optind/optarg references bind to this
 * rank's copies, and each call runs the C library's getopt on them (ranks
 * are coroutines: nothing runs between the copy in and the copy out).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <getopt.h>
#include <unistd.h>

#define HIDDEN __attribute__((visibility("hidden")))

HIDDEN char *optarg;
HIDDEN int optind = 1, opterr = 1, optopt;

struct libc_getopt {
    char **optarg;
    int *optind, *opterr, *optopt;
};

/* The C library's variables as its getopt sees them: the global scope's
 * definitions (an executable's copy when it has one, as QEMU may), not
 * necessarily libc's own, which RTLD_NEXT would give. */
static struct libc_getopt libc_state(void)
{
    return (struct libc_getopt){
        .optarg = (char **)dlsym(RTLD_DEFAULT, "optarg"),
        .optind = (int *)dlsym(RTLD_DEFAULT, "optind"),
        .opterr = (int *)dlsym(RTLD_DEFAULT, "opterr"),
        .optopt = (int *)dlsym(RTLD_DEFAULT, "optopt"),
    };
}

static void copy_in(struct libc_getopt s)
{
    *s.optind = optind;
    *s.opterr = opterr;
    *s.optarg = optarg;
}

static void copy_out(struct libc_getopt s)
{
    optind = *s.optind;
    optarg = *s.optarg;
    optopt = *s.optopt;
}

HIDDEN int getopt(int argc, char *const argv[], const char *opts)
{
    struct libc_getopt s = libc_state();
    int (*real)(int, char *const[], const char *) =
        (int (*)(int, char *const[], const char *))dlsym(RTLD_NEXT, "getopt");
    int rc;

    copy_in(s);
    rc = real(argc, argv, opts);
    copy_out(s);
    return rc;
}

HIDDEN int getopt_long(int argc, char *const argv[], const char *opts,
                       const struct option *longopts, int *longindex)
{
    struct libc_getopt s = libc_state();
    int (*real)(int, char *const[], const char *, const struct option *, int *) =
        (int (*)(int, char *const[], const char *, const struct option *, int *))
            dlsym(RTLD_NEXT, "getopt_long");
    int rc;

    copy_in(s);
    rc = real(argc, argv, opts, longopts, longindex);
    copy_out(s);
    return rc;
}
