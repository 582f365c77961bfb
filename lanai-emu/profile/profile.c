/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The profile text format (docs/profiles.md):
 *
 *   # comment                       anywhere; '#' to the end of the line
 *   [nic]                           optional section: bare keys get "nic."
 *   clock = 133 MHz   # source      key = number unit
 *   pci.width = 64 bit              full key names work anywhere
 *   [nodes 1-31/2, 40]              overrides nic.*, pci.*, host.* keys
 *                                   (full names) for a set of node ids
 *
 * Every key is required unless the table marks it optional; unknown and
 * duplicate keys, bad units and out-of-range values are errors naming the
 * file, line and key.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "profile_units.h"

#define NKEYS_MAX 64            /* set_mask is 64 bits */
#define MAX_FILE  (1u << 20)    /* a profile is a page of text */

static const char *const sections[] = { "cluster", "nic", "pci", "net", "host", NULL };

struct pstate {
    const struct profile_key *keys;
    size_t nkeys;
    unsigned base_line[NKEYS_MAX];  /* line where each key was set, 0 = not set */
    unsigned cls_line[PROFILE_MAX_CLASSES][NKEYS_MAX];
    int cls;                        /* current [nodes] section, -1 = none */
    char section[16];               /* current [name] section, "" = none */
};

static uint64_t *slot(struct profile *p, const struct profile_key *k, int cls)
{
    char *base = k->per_node ? (char *)(cls < 0 ? &p->base : &p->cls[cls].p) : (char *)p;
    return (uint64_t *)(base + k->off);
}

static const uint64_t *cslot(const struct profile *p, const struct profile_key *k, int cls)
{
    return slot((struct profile *)p, k, cls);
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static void trim(const char **s, size_t *n)
{
    while (*n && is_blank(**s))
        (*s)++, (*n)--;
    while (*n && is_blank((*s)[*n - 1]))
        (*n)--;
}

static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '-' || c == '_';
}

static int find_key(const struct pstate *st, const char *name)
{
    for (size_t i = 0; i < st->nkeys; i++)
        if (!strcmp(st->keys[i].name, name))
            return (int)i;
    return -1;
}

/* "1-31/2, 40" -> ranges. Returns NULL or an error message. */
static const char *parse_nodeset(struct profile_class *c, const char *s, size_t n,
                                 char *msg, size_t msglen)
{
    size_t i = 0;

    c->nranges = 0;
    for (;;) {
        unsigned long v[3] = { 0, 0, 1 };
        int which = 0;
        bool got = false;

        while (i < n && is_blank(s[i]))
            i++;
        for (;;) {
            if (i < n && s[i] >= '0' && s[i] <= '9') {
                v[which] = v[which] * 10 + (unsigned long)(s[i] - '0');
                if (v[which] >= PROFILE_MAX_NODES) {
                    snprintf(msg, msglen, "node set: number too large (nodes are 0..%d)",
                             PROFILE_MAX_NODES - 1);
                    return msg;
                }
                got = true;
                i++;
            } else if (i < n && got && s[i] == '-' && which == 0) {
                which = 1, got = false, i++;
            } else if (i < n && got && s[i] == '/' && which == 1) {
                which = 2, got = false, v[2] = 0, i++;
            } else {
                break;
            }
        }
        if (!got) {
            snprintf(msg, msglen, "node set '%.*s': expected N, N-M or N-M/STEP items "
                     "separated by commas", (int)n, s);
            return msg;
        }
        if (which == 0)
            v[1] = v[0];
        if (v[1] < v[0] || v[2] == 0) {
            snprintf(msg, msglen, "node set '%.*s': empty range", (int)n, s);
            return msg;
        }
        if (c->nranges == PROFILE_MAX_RANGES) {
            snprintf(msg, msglen, "node set: more than %d items", PROFILE_MAX_RANGES);
            return msg;
        }
        /* normal form: last is a member, a single node has stride 1 */
        v[1] = v[0] + (v[1] - v[0]) / v[2] * v[2];
        if (v[1] == v[0])
            v[2] = 1;
        c->range[c->nranges].first = (uint16_t)v[0];
        c->range[c->nranges].last = (uint16_t)v[1];
        c->range[c->nranges].stride = (uint16_t)v[2];
        c->nranges++;
        while (i < n && is_blank(s[i]))
            i++;
        if (i == n)
            return NULL;
        if (s[i] != ',') {
            snprintf(msg, msglen, "node set '%.*s': unexpected '%c'", (int)n, s, s[i]);
            return msg;
        }
        i++;
    }
}

static bool in_class(const struct profile_class *c, unsigned node)
{
    for (unsigned r = 0; r < c->nranges; r++)
        if (node >= c->range[r].first && node <= c->range[r].last &&
            (node - c->range[r].first) % c->range[r].stride == 0)
            return true;
    return false;
}

/* Checks of one key's value beyond its range. NULL or a message. */
static const char *check_value(const char *name, uint64_t v, char *msg, size_t msglen)
{
    if (!strcmp(name, "nic.sram") && v % 4096)
        snprintf(msg, msglen, "not a multiple of 4 KB");
    else if (!strcmp(name, "pci.width") && v != 32 && v != 64)
        snprintf(msg, msglen, "PCI is 32 or 64 bits wide");
    else if (!strcmp(name, "net.switch_ports") && v != 8 && v != 16 && v != 32)
        snprintf(msg, msglen, "Myrinet crossbars have 8, 16 or 32 ports");
    else
        return NULL;
    return msg;
}

static int parse_line(struct profile *p, struct pstate *st, const char *s, size_t n,
                      unsigned lineno, char *msg, size_t msglen)
{
    const char *eq, *ks, *vs;
    size_t kn, vn;
    char full[80], sub[200];
    int ki;
    const struct profile_key *k;
    unsigned *line;
    uint64_t v;

    if (s[0] == '[') {
        const char *in = s + 1;
        size_t inn = n - 1;
        if (s[n - 1] != ']') {
            snprintf(msg, msglen, "section header without a closing ']'");
            return -1;
        }
        inn--;
        trim(&in, &inn);
        for (const char *const *sec = sections; *sec; sec++)
            if (strlen(*sec) == inn && !memcmp(*sec, in, inn)) {
                strcpy(st->section, *sec);
                st->cls = -1;
                return 0;
            }
        if (inn > 5 && !memcmp(in, "nodes", 5) && is_blank(in[5])) {
            struct profile_class *c;
            if (p->nclasses == PROFILE_MAX_CLASSES) {
                snprintf(msg, msglen, "more than %d [nodes] sections", PROFILE_MAX_CLASSES);
                return -1;
            }
            c = &p->cls[p->nclasses];
            if (parse_nodeset(c, in + 6, inn - 6, msg, msglen))
                return -1;
            c->line = lineno;
            st->cls = (int)p->nclasses++;
            st->section[0] = 0;
            return 0;
        }
        snprintf(msg, msglen, "unknown section '[%.*s]' (cluster, nic, pci, net, host "
                 "or nodes SET expected)", (int)(inn > 40 ? 40 : inn), in);
        return -1;
    }

    eq = memchr(s, '=', n);
    if (!eq) {
        snprintf(msg, msglen, "expected 'key = value', got '%.*s'", (int)(n > 40 ? 40 : n), s);
        return -1;
    }
    ks = s, kn = (size_t)(eq - s);
    vs = eq + 1, vn = n - kn - 1;
    trim(&ks, &kn);
    trim(&vs, &vn);
    if (!kn) {
        snprintf(msg, msglen, "missing key name before '='");
        return -1;
    }
    for (size_t i = 0; i < kn; i++)
        if (!name_char(ks[i]) || kn > 40) {
            snprintf(msg, msglen, "bad key name '%.*s'", (int)(kn > 40 ? 40 : kn), ks);
            return -1;
        }
    if (memchr(ks, '.', kn)) {
        snprintf(full, sizeof full, "%.*s", (int)kn, ks);
    } else if (st->cls >= 0) {
        snprintf(msg, msglen, "key '%.*s': in a [nodes] section write full key names "
                 "(e.g. host.clock)", (int)kn, ks);
        return -1;
    } else if (st->section[0]) {
        snprintf(full, sizeof full, "%s.%.*s", st->section, (int)kn, ks);
    } else {
        snprintf(msg, msglen, "key '%.*s' outside a section: write section.%.*s or put "
                 "it under a [section]", (int)kn, ks, (int)kn, ks);
        return -1;
    }
    ki = find_key(st, full);
    if (ki < 0) {
        snprintf(msg, msglen, "unknown key '%s'", full);
        return -1;
    }
    k = &st->keys[ki];
    if (st->cls >= 0 && !k->per_node) {
        snprintf(msg, msglen, "key '%s' is shared by all nodes and cannot be set in a "
                 "[nodes] section", full);
        return -1;
    }
    line = st->cls >= 0 ? &st->cls_line[st->cls][ki] : &st->base_line[ki];
    if (*line) {
        snprintf(msg, msglen, "duplicate key '%s' (first set on line %u)", full, *line);
        return -1;
    }
    if (!vn) {
        snprintf(msg, msglen, "key '%s' has no value", full);
        return -1;
    }
    if (k->dim == PDIM_NAME) {
        for (size_t i = 0; i < vn; i++)
            if (!name_char(vs[i])) {
                snprintf(msg, msglen, "key '%s': '%.*s' is not %s", full,
                         (int)(vn > 40 ? 40 : vn), vs, punit_expect(k->dim));
                return -1;
            }
        if (vn < k->min || vn > k->max) {
            snprintf(msg, msglen, "key '%s': name longer than %llu characters", full,
                     (unsigned long long)k->max);
            return -1;
        }
        memcpy(p->name, vs, vn);
        p->name[vn] = 0;
        *line = lineno;
        return 0;
    }
    if (punit_parse(k->dim, vs, vn, &v, sub, sizeof sub)) {
        snprintf(msg, msglen, "key '%s': %s", full, sub);
        return -1;
    }
    if (v < k->min || v > k->max) {
        char lo[40], hi[40];
        punit_format(k->dim, k->min, lo, sizeof lo);
        punit_format(k->dim, k->max, hi, sizeof hi);
        snprintf(msg, msglen, "key '%s': '%.*s' is out of range (%s .. %s)",
                 full, (int)(vn > 40 ? 40 : vn), vs, lo, hi);
        return -1;
    }
    if (check_value(full, v, sub, sizeof sub)) {
        snprintf(msg, msglen, "key '%s': '%.*s': %s", full, (int)(vn > 40 ? 40 : vn), vs, sub);
        return -1;
    }
    *slot(p, k, st->cls) = v;
    if (st->cls >= 0)
        p->cls[st->cls].set_mask |= 1ull << ki;
    *line = lineno;
    return 0;
}

/* Whole-file checks, after every line has been read. */
static int finish(struct profile *p, struct pstate *st, const char *name,
                  char *err, size_t errlen)
{
    for (size_t i = 0; i < st->nkeys; i++) {
        const struct profile_key *k = &st->keys[i];
        if (st->base_line[i])
            continue;
        if (!k->optional) {
            snprintf(err, errlen, "%s: missing key '%s' (%s: %s)", name, k->name,
                     k->what, punit_expect(k->dim));
            return -1;
        }
        *slot(p, k, -1) = k->def;
    }
    /* classes: base values for every key they do not set */
    for (unsigned c = 0; c < p->nclasses; c++) {
        struct profile_class *cl = &p->cls[c];
        if (!cl->set_mask) {
            snprintf(err, errlen, "%s:%u: [nodes] section sets no key", name, cl->line);
            return -1;
        }
        for (size_t i = 0; i < st->nkeys; i++)
            if (st->keys[i].per_node && !(cl->set_mask >> i & 1))
                *slot(p, &st->keys[i], (int)c) = *slot(p, &st->keys[i], -1);
        for (unsigned r = 0; r < cl->nranges; r++)
            if (cl->range[r].last >= p->nodes) {
                snprintf(err, errlen, "%s:%u: node %u is beyond cluster.nodes (%llu)", name,
                         cl->line, cl->range[r].last, (unsigned long long)p->nodes);
                return -1;
            }
        for (unsigned d = 0; d < c; d++)
            for (unsigned node = 0; node < p->nodes; node++)
                if (in_class(cl, node) && in_class(&p->cls[d], node)) {
                    snprintf(err, errlen, "%s:%u: node %u is also in the [nodes] section "
                             "of line %u", name, cl->line, node, p->cls[d].line);
                    return -1;
                }
    }
    /* the management entity hands out no more group ids than a switch's
     * table holds (docs/fabric.md, "The management entity") */
    if (p->sm_groups > p->mcast_entries) {
        int kg = find_key(st, "net.sm_groups"), ke = find_key(st, "net.mcast_entries");
        unsigned lg = st->base_line[kg], le = st->base_line[ke];
        char where[24] = "";
        if (lg || le)
            snprintf(where, sizeof where, ":%u", lg > le ? lg : le);
        snprintf(err, errlen, "%s%s: key 'net.sm_groups': %llu%s is more than "
                 "net.mcast_entries (%llu%s): the management entity hands out no more "
                 "group ids than a switch's table holds", name, where,
                 (unsigned long long)p->sm_groups, lg ? "" : " (the default)",
                 (unsigned long long)p->mcast_entries, le ? "" : ", the default");
        return -1;
    }
    /* a burst is a whole number of bus words, for the base and every class */
    for (int c = -1; c < (int)p->nclasses; c++) {
        const struct profile_params *pp = c < 0 ? &p->base : &p->cls[c].p;
        int kb = find_key(st, "pci.max_burst"), kw = find_key(st, "pci.width");
        unsigned lb = c < 0 ? st->base_line[kb] : st->cls_line[c][kb];
        unsigned lw = c < 0 ? st->base_line[kw] : st->cls_line[c][kw];
        if (pp->pci_max_burst % (pp->pci_width_bits / 8)) {
            snprintf(err, errlen, "%s:%u: key 'pci.max_burst': %llu B is not a multiple of "
                     "the %llu-bit bus word", name, lb ? lb : lw ? lw : p->cls[c].line,
                     (unsigned long long)pp->pci_max_burst,
                     (unsigned long long)pp->pci_width_bits);
            return -1;
        }
    }
    return 0;
}

int profile_parse(struct profile *p, const char *name, const char *text, size_t len,
                  char *err, size_t errlen)
{
    struct pstate st;
    size_t pos = 0;
    unsigned lineno = 0;
    char msg[300];

    memset(p, 0, sizeof *p);
    memset(&st, 0, sizeof st);
    st.keys = profile_keys(&st.nkeys);
    st.cls = -1;
    if (st.nkeys > NKEYS_MAX) {
        snprintf(err, errlen, "%s: internal: too many keys", name);
        return -1;
    }
    if (len > MAX_FILE) {
        snprintf(err, errlen, "%s: larger than %u bytes, not a profile", name, MAX_FILE);
        return -1;
    }
    while (pos < len) {
        const char *s = text + pos, *nl = memchr(s, '\n', len - pos), *hash;
        size_t n = nl ? (size_t)(nl - s) : len - pos;

        pos += n + (nl != NULL);
        lineno++;
        if (memchr(s, '\0', n)) {
            snprintf(err, errlen, "%s:%u: NUL byte: not a text file", name, lineno);
            return -1;
        }
        if ((hash = memchr(s, '#', n)) != NULL)
            n = (size_t)(hash - s);
        trim(&s, &n);
        if (!n)
            continue;
        if (parse_line(p, &st, s, n, lineno, msg, sizeof msg)) {
            snprintf(err, errlen, "%s:%u: %s", name, lineno, msg);
            return -1;
        }
    }
    return finish(p, &st, name, err, errlen);
}

int profile_load(struct profile *p, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    size_t n;
    int rc;

    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    buf = malloc(MAX_FILE + 1);
    if (!buf) {
        fclose(f);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    n = fread(buf, 1, MAX_FILE + 1, f);
    if (ferror(f)) {
        free(buf);
        fclose(f);
        snprintf(err, errlen, "%s: cannot read", path);
        return -1;
    }
    fclose(f);
    rc = profile_parse(p, path, buf, n, err, errlen);
    free(buf);
    return rc;
}

static void write_value(const struct profile *p, const struct profile_key *k, int cls,
                        const char *label, FILE *f)
{
    char buf[64];
    if (k->dim == PDIM_NAME)
        snprintf(buf, sizeof buf, "%s", p->name);
    else
        punit_format(k->dim, *cslot(p, k, cls), buf, sizeof buf);
    fprintf(f, "%s = %s\n", label, buf);
}

void profile_write(const struct profile *p, FILE *f)
{
    size_t nk;
    const struct profile_key *keys = profile_keys(&nk);
    const char *cur = NULL;     /* key whose section is open */
    size_t curlen = 0;

    fprintf(f, "# nicoll platform profile %s, normalised\n", p->name);
    for (size_t i = 0; i < nk; i++) {
        const char *dot = strchr(keys[i].name, '.');
        size_t sl = (size_t)(dot - keys[i].name);
        if (!cur || curlen != sl || memcmp(cur, keys[i].name, sl)) {
            fprintf(f, "\n[%.*s]\n", (int)sl, keys[i].name);
            cur = keys[i].name;
            curlen = sl;
        }
        write_value(p, &keys[i], -1, dot + 1, f);
    }
    for (unsigned c = 0; c < p->nclasses; c++) {
        const struct profile_class *cl = &p->cls[c];
        fprintf(f, "\n[nodes ");
        for (unsigned r = 0; r < cl->nranges; r++) {
            fprintf(f, "%s%u", r ? ", " : "", cl->range[r].first);
            if (cl->range[r].last != cl->range[r].first)
                fprintf(f, "-%u", cl->range[r].last);
            if (cl->range[r].stride != 1)
                fprintf(f, "/%u", cl->range[r].stride);
        }
        fprintf(f, "]\n");
        for (size_t i = 0; i < nk; i++)
            if (cl->set_mask >> i & 1)
                write_value(p, &keys[i], (int)c, keys[i].name, f);
    }
}

const struct profile_params *profile_node(const struct profile *p, unsigned node)
{
    for (unsigned c = 0; c < p->nclasses; c++)
        if (in_class(&p->cls[c], node))
            return &p->cls[c].p;
    return &p->base;
}
