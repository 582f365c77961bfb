/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Myrinet fabric topologies: crossbar switches of 8, 16 or 32 ports, NICs
 * attached to switch ports, switch-to-switch links, and the source routes
 * between every pair of NICs (up*-down* routing, deadlock-free on any
 * connected topology). Plain C with no QEMU dependency: the emulator's
 * fabric, lanai-topo and the tests share it. docs/topology.md describes the
 * file format and the generators.
 *
 * A route from NIC a to NIC b is the list of output ports taken at each
 * switch on the way; on the wire each becomes a route byte 0x80 | port
 * (docs/lanai9-nic.md), consumed by the switch that uses it.
 */
#ifndef NICOLL_TOPOLOGY_H
#define NICOLL_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TOPO_MAX_NODES    4096
#define TOPO_MAX_SWITCHES 8192 /* 4096 NICs on a fat tree of 8-port switches */
#define TOPO_MAX_PORTS    32
#define TOPO_MAX_HOPS     32   /* longest route, in switches */
#define TOPO_NAME_LEN     24

enum topo_peer_kind { TOPO_FREE = 0, TOPO_NODE, TOPO_SWITCH };

/* What a switch port is connected to. */
struct topo_peer {
    uint8_t kind;   /* enum topo_peer_kind */
    uint8_t port;   /* the peer switch's port (TOPO_SWITCH) */
    uint16_t id;    /* node or switch index */
};

struct topo_switch {
    char name[TOPO_NAME_LEN];
    uint8_t nports;                      /* 8, 16 or 32 */
    uint8_t level;                       /* up*-down* level when topo.fixed_levels */
    struct topo_peer port[TOPO_MAX_PORTS];
};

struct topo_attach {
    uint16_t sw;    /* switch the NIC is plugged into */
    uint8_t port;
};

/*
 * Routing state, filled by topo_finish(): for every switch s and every
 * destination switch d that holds a NIC, the output port at s in each phase
 * of a shortest up*-down* path (0: may still go up; 1: only down), or 0xFF
 * if none.
 */
struct topo_routes {
    unsigned nswitches;
    uint8_t *next;   /* [(s * 2 + phase) * nswitches + d] */
    uint8_t *level;  /* up*-down* level of each switch (0 = the root side) */
    uint8_t *dist;   /* hops left, like next; only with fixed_levels */
};

struct topo {
    unsigned nnodes, nswitches;
    /*
     * false: levels are the BFS distance from switch 0 (any network).
     * true: levels are the switches' own 'level' (fat trees: 0 = top), and
     * topo_route() spreads routes over equally short up links by the
     * destination NIC (d-mod-k), as fat-tree routing does.
     */
    bool fixed_levels;
    struct topo_switch sw[TOPO_MAX_SWITCHES];
    struct topo_attach node[TOPO_MAX_NODES];
    struct topo_routes routes;
};

/* Heap-allocate an empty topology / free one (and its routes). */
struct topo *topo_new(void);
void topo_free(struct topo *t);

/* Building blocks. Return 0, or -1 with a message in err. */
int topo_add_switch(struct topo *t, const char *name, unsigned nports,
                    char *err, size_t errlen);
int topo_link(struct topo *t, unsigned sa, unsigned pa, unsigned sb, unsigned pb,
              char *err, size_t errlen);
int topo_attach_node(struct topo *t, unsigned node, unsigned sw, unsigned port,
                     char *err, size_t errlen);

/*
 * Generators. All NIC ids are 0..nnodes-1.
 * crossbar: one switch with the smallest port count (8/16/32) that fits.
 * fattree:  a folded Clos with full bisection (docs/topology.md): one
 *           switch up to 'ports' NICs; else leaves hold k = ports/2 NICs and
 *           k up links, every middle level k down and k up, the top level
 *           all ports down; as few levels as fit nnodes (2k * k^(L-1) NICs
 *           with L levels); NIC i on leaf i / k, port i % k.
 * random:   nswitches switches of 'ports' ports, a random connected graph
 *           (spanning tree, then extra links) using 'links_per_switch'
 *           ports for inter-switch links, NICs on random free ports.
 *           Seeded: the same seed gives the same network.
 */
int topo_gen_crossbar(struct topo *t, unsigned nnodes, char *err, size_t errlen);
int topo_gen_fattree(struct topo *t, unsigned nnodes, unsigned ports,
                     char *err, size_t errlen);
int topo_gen_random(struct topo *t, unsigned nnodes, unsigned nswitches,
                    unsigned ports, unsigned links_per_switch, uint64_t seed,
                    char *err, size_t errlen);
/* random, with at most per_switch NICs on each switch (0: no limit, the
 * same network as topo_gen_random): with nnodes = nswitches x per_switch
 * every switch holds exactly per_switch, as in seed 001's 64 nodes on 16
 * switches, 4 each. */
int topo_gen_random_spread(struct topo *t, unsigned nnodes, unsigned nswitches,
                           unsigned ports, unsigned links_per_switch, unsigned per_switch,
                           uint64_t seed, char *err, size_t errlen);

/*
 * Check a complete topology: node ids contiguous, every switch reachable,
 * then compute up*-down* routes. Must be called before topo_route().
 */
int topo_finish(struct topo *t, char *err, size_t errlen);

/*
 * The route from NIC src to NIC dst: output ports, one per switch, written
 * to ports[] (at most TOPO_MAX_HOPS). Returns the number of hops, or -1.
 * A route to oneself goes to the switch and back out of the same port.
 */
int topo_route(const struct topo *t, unsigned src, unsigned dst, uint8_t *ports);

/* Text format (docs/topology.md). Parsing names the file and line. */
int topo_parse(struct topo *t, const char *name, const char *text, size_t len,
               char *err, size_t errlen);
int topo_load(struct topo *t, const char *path, char *err, size_t errlen);
void topo_write(const struct topo *t, FILE *f);

/* CRC-8, polynomial x^8+x^2+x+1 (0x07), initial value 0, no reflection:
 * the link-level trailer of every packet on every hop. */
uint8_t crc8(uint8_t crc, const void *data, size_t len);

#endif
