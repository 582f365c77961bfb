/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Numbers and units. A number is decimal digits with an optional fraction
 * (no sign, no exponent: a profile value is never negative and never needs
 * one). Conversion is exact integer arithmetic followed by one rounding to
 * the stored unit, so a file means the same thing on every machine.
 *
 * Unit symbols are case-sensitive because b (bit) and B (byte) differ.
 * Sizes are binary (1 KB = 1024 B, as memory sizes are quoted); rates are
 * decimal (1 MB/s = 10^6 B/s, as PCI and Myrinet rates are quoted).
 */
#include <string.h>

#include "profile_units.h"

struct unit {
    const char *sym;
    uint64_t factor;    /* stored units per unit; for rates: bit/s per unit */
};

static const struct unit time_units[] = {
    { "ps", 1 }, { "ns", 1000 }, { "us", 1000000 }, { "\xc2\xb5s", 1000000 },
    { "ms", 1000000000ull }, { "s", 1000000000000ull }, { NULL, 0 },
};
static const struct unit freq_units[] = {
    { "Hz", 1 }, { "kHz", 1000 }, { "MHz", 1000000 }, { "GHz", 1000000000ull },
    { NULL, 0 },
};
static const struct unit size_units[] = {
    { "B", 1 }, { "KB", 1024 }, { "KiB", 1024 }, { "MB", 1048576 },
    { "MiB", 1048576 }, { "GB", 1073741824ull }, { "GiB", 1073741824ull },
    { NULL, 0 },
};
static const struct unit perbyte_units[] = {   /* time per byte, in ps */
    { "ps/B", 1 }, { "ns/B", 1000 }, { "us/B", 1000000 }, { NULL, 0 },
};
static const struct unit rate_units[] = {      /* bit/s per unit */
    { "b/s", 1 }, { "Kb/s", 1000 }, { "Mb/s", 1000000 }, { "Gb/s", 1000000000ull },
    { "bit/s", 1 }, { "Kbit/s", 1000 }, { "Mbit/s", 1000000 }, { "Gbit/s", 1000000000ull },
    { "Mbps", 1000000 }, { "Gbps", 1000000000ull },
    { "B/s", 8 }, { "KB/s", 8000 }, { "MB/s", 8000000 }, { "GB/s", 8000000000ull },
    { NULL, 0 },
};

const char *punit_expect(enum profile_dim dim)
{
    switch (dim) {
    case PDIM_NAME:    return "a name (letters, digits, '.', '-', '_')";
    case PDIM_COUNT:   return "a whole number without a unit";
    case PDIM_BITS:    return "a whole number of bits (unit 'bit' optional)";
    case PDIM_RATIO:   return "a number without a unit";
    case PDIM_TIME:    return "a time (ps, ns, us, ms, s)";
    case PDIM_FREQ:    return "a frequency (Hz, kHz, MHz, GHz)";
    case PDIM_SIZE:    return "a size (B, KB, MB, GB; 1 KB = 1024 B)";
    case PDIM_PERBYTE: return "a time per byte (ps/B, ns/B, us/B) or a rate "
                              "(B/s, KB/s, MB/s, GB/s, b/s, Mb/s, Gb/s)";
    }
    return "?";
}

static const struct unit *find_unit(const struct unit *u, const char *s, size_t n)
{
    for (; u->sym; u++)
        if (strlen(u->sym) == n && !memcmp(u->sym, s, n))
            return u;
    return NULL;
}

static uint64_t pow10u(unsigned e)
{
    uint64_t r = 1;
    while (e--)
        r *= 10;
    return r;
}

/* x / d rounded to nearest, halves up. d <= 10^19 so 2 * r cannot wrap. */
static uint64_t div_round(uint64_t x, uint64_t d)
{
    uint64_t q = x / d, r = x % d;
    return q + (r >= d - r);
}

int punit_parse(enum profile_dim dim, const char *s, size_t n, uint64_t *out,
                char *msg, size_t msglen)
{
    uint64_t mant = 0;
    unsigned digits = 0, frac = 0;
    size_t i = 0;
    bool dot = false;
    const struct unit *u = NULL;
    const char *us;
    size_t un;

    for (; i < n; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            if (mant || c != '0')
                digits++;
            if (digits > 18) {
                snprintf(msg, msglen, "number '%.*s' has too many digits", (int)n, s);
                return -1;
            }
            mant = mant * 10 + (uint64_t)(c - '0');
            frac += dot;
        } else if (c == '.' && !dot) {
            dot = true;
        } else {
            break;
        }
    }
    if (i == 0 || (i == 1 && dot) || (dot && s[i - 1] == '.')) {
        if (n && (s[0] == '-' || s[0] == '+'))
            snprintf(msg, msglen, "'%.*s': values carry no sign", (int)n, s);
        else
            snprintf(msg, msglen, "'%.*s' is not a number, expected %s",
                     (int)n, s, punit_expect(dim));
        return -1;
    }
    if (frac > 18) {
        snprintf(msg, msglen, "number '%.*s' has too many decimals", (int)n, s);
        return -1;
    }
    /* the unit: the rest, after optional blanks */
    us = s + i;
    un = n - i;
    while (un && (*us == ' ' || *us == '\t'))
        us++, un--;

    switch (dim) {
    case PDIM_NAME:
        snprintf(msg, msglen, "internal: name parsed as a number");
        return -1;
    case PDIM_COUNT:
    case PDIM_BITS:
        if (un && !(dim == PDIM_BITS && ((un == 3 && !memcmp(us, "bit", 3)) ||
                                         (un == 4 && !memcmp(us, "bits", 4))))) {
            snprintf(msg, msglen, "unexpected unit '%.*s', expected %s",
                     (int)un, us, punit_expect(dim));
            return -1;
        }
        if (frac) {
            snprintf(msg, msglen, "'%.*s' is not a whole number", (int)i, s);
            return -1;
        }
        *out = mant;
        return 0;
    case PDIM_RATIO:
        if (un) {
            snprintf(msg, msglen, "unexpected unit '%.*s', expected %s",
                     (int)un, us, punit_expect(dim));
            return -1;
        }
        if (frac > 6) {
            snprintf(msg, msglen, "'%.*s': at most 6 decimals", (int)i, s);
            return -1;
        }
        if (mant > UINT64_MAX / pow10u(6 - frac)) {
            snprintf(msg, msglen, "'%.*s' is too large", (int)i, s);
            return -1;
        }
        *out = mant * pow10u(6 - frac);
        return 0;
    case PDIM_TIME: u = find_unit(time_units, us, un); break;
    case PDIM_FREQ: u = find_unit(freq_units, us, un); break;
    case PDIM_SIZE: u = find_unit(size_units, us, un); break;
    case PDIM_PERBYTE:
        u = find_unit(perbyte_units, us, un);
        if (!u && (u = find_unit(rate_units, us, un)) != NULL) {
            /* ps per byte = 8e12 bit*ps/s/B / (rate in bit/s) */
            uint64_t num, den;
            if (frac > 6) {
                snprintf(msg, msglen, "'%.*s': at most 6 decimals in a rate", (int)i, s);
                return -1;
            }
            if (mant == 0) {
                snprintf(msg, msglen, "a rate of zero never sends a byte");
                return -1;
            }
            num = 8000000000000ull * pow10u(frac);      /* <= 8e18 */
            if (mant > UINT64_MAX / u->factor) {
                *out = 0;                               /* faster than 1 ps/B */
                return 0;
            }
            den = mant * u->factor;
            *out = div_round(num, den);
            return 0;
        }
        break;
    }
    if (!un) {
        snprintf(msg, msglen, "'%.*s' needs a unit: %s", (int)n, s, punit_expect(dim));
        return -1;
    }
    if (!u) {
        snprintf(msg, msglen, "bad unit '%.*s', expected %s", (int)un, us, punit_expect(dim));
        return -1;
    }
    if (u->factor > 1 && mant > UINT64_MAX / u->factor) {
        snprintf(msg, msglen, "'%.*s' is too large", (int)n, s);
        return -1;
    }
    *out = div_round(mant * u->factor, pow10u(frac));
    return 0;
}

/* v / f as a decimal with at most maxdec decimals; false if not exact. */
static bool fmt_exact(uint64_t v, uint64_t f, unsigned fdigits, unsigned maxdec,
                      const char *sym, char *buf, size_t len)
{
    uint64_t ip = v / f, fp = v % f;
    unsigned d = fdigits;
    char fs[24];

    while (d && fp % 10 == 0)
        fp /= 10, d--;
    if (d > maxdec)
        return false;
    if (d) {
        snprintf(fs, sizeof fs, ".%0*llu", (int)d, (unsigned long long)fp);
    } else {
        fs[0] = 0;
    }
    snprintf(buf, len, "%llu%s%s%s", (unsigned long long)ip, fs, *sym ? " " : "", sym);
    return true;
}

static unsigned log10u(uint64_t f)
{
    unsigned d = 0;
    while (f >= 10)
        f /= 10, d++;
    return d;
}

/* The largest unit (listed ascending, aliases skipped) that prints v
 * exactly with at most maxdec decimals and an integer part of at least 1. */
static void fmt_best(uint64_t v, const struct unit *u, const char *const *syms,
                     unsigned maxdec, char *buf, size_t len)
{
    const struct unit *best = NULL;
    for (const char *const *s = syms; *s; s++) {
        const struct unit *x = find_unit(u, *s, strlen(*s));
        char tmp[64];
        bool pow10 = x->factor == 1 || x->factor % 10 == 0;
        if (!best || (v >= x->factor &&
                      (pow10 ? fmt_exact(v, x->factor, log10u(x->factor), maxdec, "", tmp, sizeof tmp)
                             : v % x->factor == 0)))
            best = x;
    }
    if (best->factor % 10 == 0 || best->factor == 1)
        fmt_exact(v, best->factor, log10u(best->factor), maxdec, best->sym, buf, len);
    else
        snprintf(buf, len, "%llu %s", (unsigned long long)(v / best->factor), best->sym);
}

void punit_format(enum profile_dim dim, uint64_t v, char *buf, size_t len)
{
    static const char *const tsyms[] = { "ps", "ns", "us", "ms", "s", NULL };
    static const char *const fsyms[] = { "Hz", "kHz", "MHz", "GHz", NULL };
    static const char *const ssyms[] = { "B", "KiB", "MiB", "GiB", NULL };

    switch (dim) {
    case PDIM_NAME:
        snprintf(buf, len, "?");
        break;
    case PDIM_COUNT:
        snprintf(buf, len, "%llu", (unsigned long long)v);
        break;
    case PDIM_BITS:
        snprintf(buf, len, "%llu bit", (unsigned long long)v);
        break;
    case PDIM_RATIO:
        fmt_exact(v, 1000000, 6, 6, "", buf, len);
        break;
    case PDIM_TIME:
        fmt_best(v, time_units, tsyms, 3, buf, len);
        break;
    case PDIM_FREQ:
        fmt_best(v, freq_units, fsyms, 6, buf, len);
        break;
    case PDIM_SIZE:
        fmt_best(v, size_units, ssyms, 0, buf, len);
        break;
    case PDIM_PERBYTE:
        fmt_exact(v, 1000, 3, 3, "ns/B", buf, len);
        break;
    }
}
