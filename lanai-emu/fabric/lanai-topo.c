/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lanai-topo: make, check and print Myrinet topologies and their routes.
 *
 *   lanai-topo crossbar N
 *   lanai-topo fattree N [--ports 8|16|32]
 *   lanai-topo random N --switches S [--ports P] [--links L] [--seed X]
 *                      [--nodes-per-switch K]
 *   lanai-topo file PATH
 * options: -o FILE (write the topology there instead of stdout),
 *          --routes (print every route: "src dst: bytes"),
 *          --channels (print the switch levels, down links, attachments and
 *          every route as directed channels, for host/tools/lanai-order),
 *          --quiet
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topology.h"
#include "nc_version.h"

static void usage(FILE *f)
{
    fputs("usage: lanai-topo crossbar N | fattree N [--ports P] |\n"
          "       random N --switches S [--ports P] [--links L] [--seed X]\n"
          "              [--nodes-per-switch K] |\n"
          "       file PATH\n"
          "       [-o FILE] [--routes] [--channels] [--quiet]\n"
          "       lanai-topo --help | --version\n"
          "Writes the topology in the text format of docs/topology.md (stdout or -o),\n"
          "after checking it and computing up*-down* routes; --routes prints the\n"
          "route bytes (0x80|port per switch) for every pair of nodes; --channels\n"
          "prints every route as directed channels (docs/topology.md).\n"
          "Exit status: 0 ok, 1 a topology file with an error (file:line), 2 bad\n"
          "usage: an unknown kind or option, a bad number, parameters a generator\n"
          "refuses, a file that cannot be read or written.\n", f);
}

static int num(const char *opt, const char *s, unsigned long long max,
               unsigned long long *out)
{
    char *end;
    errno = 0;
    *out = strtoull(s, &end, 0);
    if (end == s || *end || errno || *out > max) {
        fprintf(stderr, "lanai-topo: %s: '%s' is not a valid number (max %llu)\n", opt, s, max);
        return -1;
    }
    return 0;
}

/*
 * The routes as directed channels (docs/topology.md, "Channels"): a channel
 * is the sending end of a cable, so the two directions of a cable are two
 * channels. Switch s's output port p is channel s * 32 + p; NIC i's own
 * cable into its switch is channel S * 32 + i (S switches). A route is its
 * source NIC's channel followed by one output port per switch.
 */
static void print_channels(const struct topo *t)
{
    uint8_t r[TOPO_MAX_HOPS];

    printf("channels %u %u\n", t->nswitches, t->nnodes);
    for (unsigned s = 0; s < t->nswitches; s++)
        printf("level %u %u\n", s, t->routes.level[s]);
    for (unsigned s = 0; s < t->nswitches; s++)
        for (unsigned p = 0; p < t->sw[s].nports; p++) {
            const struct topo_peer *q = &t->sw[s].port[p];
            unsigned u = q->id;
            if (q->kind == TOPO_SWITCH &&
                (t->routes.level[u] > t->routes.level[s] ||
                 (t->routes.level[u] == t->routes.level[s] && u > s)))
                printf("down %u %u %u %u\n", s, p, u, q->port);
        }
    for (unsigned i = 0; i < t->nnodes; i++)
        printf("attach %u %u %u\n", i, t->node[i].sw, t->node[i].port);
    for (unsigned a = 0; a < t->nnodes; a++)
        for (unsigned b = 0; b < t->nnodes; b++) {
            int h = topo_route(t, a, b, r);
            unsigned s = t->node[a].sw;
            printf("route %u %u %u", a, b, t->nswitches * TOPO_MAX_PORTS + a);
            for (int k = 0; k < h; k++) {
                printf(" %u", s * TOPO_MAX_PORTS + r[k]);
                if (t->sw[s].port[r[k]].kind == TOPO_SWITCH)
                    s = t->sw[s].port[r[k]].id;
            }
            printf("\n");
        }
}

int main(int argc, char **argv)
{
    unsigned long long n = 0, ports = 8, switches = 0, links = 0, seed = 1, per_switch = 0;
    const char *kind, *out = NULL, *path = NULL;
    bool routes = false, channels = false, quiet = false, links_given = false;
    char err[300];
    struct topo *t;
    int rc;

    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "--version")) {
        printf("lanai-topo (nicoll) %s\n", NC_VERSION);
        return 0;
    }
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    kind = argv[1];
    if (strcmp(kind, "crossbar") && strcmp(kind, "fattree") && strcmp(kind, "random") &&
        strcmp(kind, "file")) {
        if (kind[0] == '-')
            fprintf(stderr, "lanai-topo: unknown option '%s' (the first argument is "
                    "crossbar, fattree, random or file)\n", kind);
        else
            fprintf(stderr, "lanai-topo: unknown kind '%s' (crossbar, fattree, random or "
                    "file)\n", kind);
        return 2;
    }
    if (argc < 3) {
        fprintf(stderr, "lanai-topo: %s needs %s (see --help)\n", kind,
                strcmp(kind, "file") ? "a number of nodes N" : "a PATH");
        return 2;
    }
    if (!strcmp(kind, "file"))
        path = argv[2];
    else if (num(kind, argv[2], TOPO_MAX_NODES, &n))
        return 2;
    for (int i = 3; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--routes")) { routes = true; continue; }
        if (!strcmp(a, "--quiet")) { quiet = true; continue; }
        if (!strcmp(a, "--channels")) { channels = true; continue; }
        if (strcmp(a, "-o") && strcmp(a, "--ports") && strcmp(a, "--switches") &&
            strcmp(a, "--links") && strcmp(a, "--seed") && strcmp(a, "--nodes-per-switch")) {
            fprintf(stderr, "lanai-topo: unknown option '%s' (see --help)\n", a);
            return 2;
        }
        if (!v) {
            fprintf(stderr, "lanai-topo: option %s needs a value\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "-o")) out = v;
        else if (!strcmp(a, "--ports")) { if (num(a, v, 32, &ports)) return 2; }
        else if (!strcmp(a, "--switches")) { if (num(a, v, TOPO_MAX_SWITCHES, &switches)) return 2; }
        else if (!strcmp(a, "--links")) { if (num(a, v, 31, &links)) return 2; links_given = true; }
        else if (!strcmp(a, "--nodes-per-switch")) { if (num(a, v, 32, &per_switch)) return 2; }
        else { if (num(a, v, UINT64_MAX, &seed)) return 2; }
    }
    t = topo_new();
    if (!t) {
        fprintf(stderr, "lanai-topo: out of memory\n");
        return 1;
    }
    if (!strcmp(kind, "crossbar")) {
        rc = topo_gen_crossbar(t, (unsigned)n, err, sizeof err);
    } else if (!strcmp(kind, "fattree")) {
        rc = topo_gen_fattree(t, (unsigned)n, (unsigned)ports, err, sizeof err);
    } else if (!strcmp(kind, "random")) {
        if (!links_given)
            links = ports / 2;
        fprintf(stderr, "lanai-topo: random network, seed %llu\n", seed);
        rc = topo_gen_random_spread(t, (unsigned)n, (unsigned)switches, (unsigned)ports,
                                    (unsigned)links, (unsigned)per_switch, seed, err,
                                    sizeof err);
    } else if (access(path, R_OK)) {
        fprintf(stderr, "lanai-topo: %s: %s\n", path, strerror(errno));
        topo_free(t);
        return 2;
    } else {
        rc = topo_load(t, path, err, sizeof err);
    }
    if (rc) {
        /* a generator refuses its parameters (usage, 2); a file its
         * contents (1) */
        fprintf(stderr, "lanai-topo: %s\n", err);
        topo_free(t);
        return path ? 1 : 2;
    }
    if (!quiet) {
        FILE *f = out ? fopen(out, "w") : stdout;
        if (!f) {
            fprintf(stderr, "lanai-topo: -o %s: %s\n", out, strerror(errno));
            topo_free(t);
            return 2;
        }
        topo_write(t, f);
        if (out)
            fclose(f);
    }
    if (routes) {
        uint8_t r[TOPO_MAX_HOPS];
        for (unsigned s = 0; s < t->nnodes; s++)
            for (unsigned d = 0; d < t->nnodes; d++) {
                int h = topo_route(t, s, d, r);
                printf("%u %u:", s, d);
                for (int k = 0; k < h; k++)
                    printf(" %02x", 0x80 | r[k]);
                printf("\n");
            }
    }
    if (channels)
        print_channels(t);
    topo_free(t);
    return 0;
}
