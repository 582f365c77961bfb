/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The C library's hidden state per rank: rand/random, the drand48 family
 * and strtok. Every rank runs in the emulator's one process, so the C
 * library's generators and strtok's position are shared: two ranks that
 * both call srand(7) and then rand() would draw consecutive numbers of one
 * sequence, where on a cluster each process has its own. libmpi is linked
 * into the program's shared object with these hidden definitions, so the
 * program's own calls bind to this rank's copies; each runs the C
 * library's reentrant form (random_r, erand48 and friends, strtok_r) on
 * state kept in the program's private globals, and so draws the same
 * numbers as the C library would in a process of its own.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#define HIDDEN __attribute__((visibility("hidden")))


/* ---- rand, random: glibc's TYPE_3 generator, 128 bytes of state ----------- */
static char rstate[128];
static struct random_data rdata;
static int rready;

static struct random_data *rgen(void)
{
    if (!rready) {              /* a process that never seeds starts as if srandom(1) */
        initstate_r(1, rstate, sizeof rstate, &rdata);
        rready = 1;
    }
    return &rdata;
}

HIDDEN long random(void)
{
    int32_t v;

    random_r(rgen(), &v);
    return v;
}

HIDDEN void srandom(unsigned seed)
{
    srandom_r(seed, rgen());
}

/* glibc's rand is random, and srand is srandom */
HIDDEN int rand(void)
{
    return (int)random();
}

HIDDEN void srand(unsigned seed)
{
    srandom(seed);
}

/* ---- drand48 and friends: the 48-bit congruential generator -------------- */
/* The C library's initial state without srand48 (x = 0x1234ABCD330E). */
static unsigned short x48[3] = { 0x330E, 0xABCD, 0x1234 };

HIDDEN double drand48(void)
{
    return erand48(x48);
}

HIDDEN long lrand48(void)
{
    return nrand48(x48);
}

HIDDEN long mrand48(void)
{
    return jrand48(x48);
}

HIDDEN void srand48(long seed)
{
    x48[0] = 0x330E;
    x48[1] = (unsigned short)seed;
    x48[2] = (unsigned short)(seed >> 16);
}

HIDDEN unsigned short *seed48(unsigned short v[3])
{
    static unsigned short old[3];

    memcpy(old, x48, sizeof old);
    memcpy(x48, v, sizeof x48);
    return old;
}

/* ---- strtok ------------------------------------------------------------- */
static char *tok_next;

HIDDEN char *strtok(char *s, const char *delim)
{
    return strtok_r(s, delim, &tok_next);
}

