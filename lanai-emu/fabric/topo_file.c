/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The topology text format (docs/topology.md):
 *
 *   # comment
 *   switch NAME PORTS [LEVEL]      a crossbar with 8, 16 or 32 ports; LEVEL
 *                                  (on all switches or none) fixes its
 *                                  up*-down* level (0 = root side)
 *   link NAME PORT NAME PORT       a cable between two switch ports
 *   node ID NAME PORT              NIC ID plugged into a switch port
 *
 * Every error names the file and the line.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"

#define MAX_TOKENS 8

static int find_switch(const struct topo *t, const char *name)
{
    for (unsigned i = 0; i < t->nswitches; i++)
        if (!strcmp(t->sw[i].name, name))
            return (int)i;
    return -1;
}

static bool parse_uint(const char *s, unsigned max, unsigned *out)
{
    char *end;
    unsigned long v;

    if (!*s || *s == '-' || *s == '+')
        return false;
    errno = 0;
    v = strtoul(s, &end, 10);
    if (*end || errno || v > max)
        return false;
    *out = (unsigned)v;
    return true;
}

int topo_parse(struct topo *t, const char *name, const char *text, size_t len,
               char *err, size_t errlen)
{
    size_t pos = 0;
    unsigned lineno = 0, nlevels = 0;
    char line[256], msg[200], sub[200];

#define LINE_ERR(...) do { snprintf(msg, sizeof msg, __VA_ARGS__); \
        snprintf(err, errlen, "%s:%u: %s", name, lineno, msg); return -1; } while (0)

    while (pos < len) {
        size_t n = 0;
        char *tok[MAX_TOKENS], *p, *save = NULL;
        int ntok = 0;

        lineno++;
        while (pos < len && text[pos] != '\n') {
            if (text[pos] == '\0')
                LINE_ERR("NUL byte in the file");
            if (n + 1 >= sizeof line)
                LINE_ERR("line longer than %zu characters", sizeof line - 1);
            line[n++] = text[pos++];
        }
        pos++; /* the newline */
        line[n] = 0;
        if ((p = strchr(line, '#')))
            *p = 0;
        for (p = strtok_r(line, " \t\r", &save); p; p = strtok_r(NULL, " \t\r", &save)) {
            if (ntok == MAX_TOKENS)
                LINE_ERR("too many fields");
            tok[ntok++] = p;
        }
        if (ntok == 0)
            continue;

        if (!strcmp(tok[0], "switch")) {
            unsigned ports, level = 0;
            if (ntok != 3 && ntok != 4)
                LINE_ERR("expected 'switch NAME PORTS [LEVEL]'");
            if (!parse_uint(tok[2], 255, &ports))
                LINE_ERR("switch %s: port count '%s' is not a number", tok[1], tok[2]);
            if (ntok == 4 && !parse_uint(tok[3], 254, &level))
                LINE_ERR("switch %s: level '%s' is not a number below 255", tok[1], tok[3]);
            if (t->nswitches > 0 && (ntok == 4) != (nlevels > 0))
                LINE_ERR("switch %s: give a level on every switch or on none", tok[1]);
            if (topo_add_switch(t, tok[1], ports, sub, sizeof sub))
                LINE_ERR("%s", sub);
            t->sw[t->nswitches - 1].level = (uint8_t)level;
            nlevels += ntok == 4;
        } else if (!strcmp(tok[0], "link")) {
            int a, b;
            unsigned pa, pb;
            if (ntok != 5)
                LINE_ERR("expected 'link NAME PORT NAME PORT'");
            if ((a = find_switch(t, tok[1])) < 0)
                LINE_ERR("link: unknown switch '%s' (define it with 'switch' first)", tok[1]);
            if ((b = find_switch(t, tok[3])) < 0)
                LINE_ERR("link: unknown switch '%s' (define it with 'switch' first)", tok[3]);
            if (!parse_uint(tok[2], 255, &pa) || !parse_uint(tok[4], 255, &pb))
                LINE_ERR("link: port '%s' or '%s' is not a number", tok[2], tok[4]);
            if (topo_link(t, (unsigned)a, pa, (unsigned)b, pb, sub, sizeof sub))
                LINE_ERR("%s", sub);
        } else if (!strcmp(tok[0], "node")) {
            int s;
            unsigned id, port;
            if (ntok != 4)
                LINE_ERR("expected 'node ID SWITCH PORT'");
            if (!parse_uint(tok[1], TOPO_MAX_NODES - 1, &id))
                LINE_ERR("node id '%s' is not a number below %d", tok[1], TOPO_MAX_NODES);
            if ((s = find_switch(t, tok[2])) < 0)
                LINE_ERR("node %u: unknown switch '%s'", id, tok[2]);
            if (!parse_uint(tok[3], 255, &port))
                LINE_ERR("node %u: port '%s' is not a number", id, tok[3]);
            if (topo_attach_node(t, id, (unsigned)s, port, sub, sizeof sub))
                LINE_ERR("%s", sub);
        } else {
            LINE_ERR("unknown keyword '%s' (switch, link or node expected)", tok[0]);
        }
    }
#undef LINE_ERR
    t->fixed_levels = t->nswitches > 0 && nlevels == t->nswitches;
    if (topo_finish(t, msg, sizeof msg)) {
        snprintf(err, errlen, "%s: %s", name, msg);
        return -1;
    }
    return 0;
}

int topo_load(struct topo *t, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    int rc;

    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
        fclose(f);
        snprintf(err, errlen, "%s: cannot read", path);
        return -1;
    }
    buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        fclose(f);
        snprintf(err, errlen, "%s: cannot read", path);
        return -1;
    }
    fclose(f);
    rc = topo_parse(t, path, buf, (size_t)n, err, errlen);
    free(buf);
    return rc;
}

void topo_write(const struct topo *t, FILE *f)
{
    fprintf(f, "# nicoll topology: %u switches, %u nodes\n", t->nswitches, t->nnodes);
    for (unsigned i = 0; i < t->nswitches; i++)
        if (t->fixed_levels)
            fprintf(f, "switch %s %u %u\n", t->sw[i].name, t->sw[i].nports, t->sw[i].level);
        else
            fprintf(f, "switch %s %u\n", t->sw[i].name, t->sw[i].nports);
    for (unsigned i = 0; i < t->nswitches; i++)
        for (unsigned p = 0; p < t->sw[i].nports; p++) {
            const struct topo_peer *q = &t->sw[i].port[p];
            /* each cable once: from the lower (switch, port) end */
            if (q->kind == TOPO_SWITCH && (q->id > i || (q->id == i && q->port > p)))
                fprintf(f, "link %s %u %s %u\n", t->sw[i].name, p, t->sw[q->id].name,
                        q->port);
        }
    for (unsigned n = 0; n < t->nnodes; n++)
        fprintf(f, "node %u %s %u\n", n, t->sw[t->node[n].sw].name, t->node[n].port);
}
