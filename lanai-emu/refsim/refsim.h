/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * refsim: a reference cluster simulator, to the `myrinet` QEMU machine what
 * ref/iss is to the QEMU target. Each node is a LANai CPU (ref/iss) with the
 * NIC and board-window device logic (lanai-emu/nic), a host running a host
 * program as a coroutine (lanai-emu/host), all joined by the fabric model
 * (lanai-emu/fabric). It is slow and exact: it always advances whichever
 * agent (a CPU, a host, or a pending event) is earliest in virtual time, one
 * instruction at a time, so every interaction happens at its exact time and
 * the result cannot depend on anything but the inputs. docs/refsim.md.
 */
#ifndef NICOLL_REFSIM_H
#define NICOLL_REFSIM_H

#include <stdint.h>
#include <stdio.h>

#include "board_window.h"
#include "fabric.h"
#include "hostrt.h"
#include "iss.h"
#include "nic.h"

struct refsim_config {
    unsigned nodes;
    uint64_t nic_clock_hz;          /* LANai clock */
    uint32_t sram_size;
    struct nic_timing nic;          /* link byte time, PCI DMA costs */
    struct fabric_timing fabric;    /* byte, cable, switch */
    /* the switches' multicast tables, agents and replication buffers, as
     * the myrinet machine sets them from the profile (entries 0: the
     * fabric's defaults) */
    struct fabric_switch_mgmt sw;
    struct hostrt_costs host;       /* host costs */
    uint64_t host_mem;              /* bytes of DMA-able memory per host */
    uint64_t seed;                  /* probabilistic faults */
    uint64_t limit_ps;              /* stop at this virtual time (0: none) */
    /* back-pressure as in the myrinet machine (docs/fabric.md): packets
     * without an armed buffer held in the network, their senders' links
     * stopped; dropped after bp_timeout_ps (0: never). On from a profile. */
    bool backpressure;
    uint64_t bp_timeout_ps;
    FILE *out;                      /* consoles, prefixed "[node t] " */
};

struct refsim_node {
    unsigned id;
    struct iss cpu;
    uint8_t *sram;
    bool held, halted, started;
    uint64_t base_ps;               /* virtual time of the CPU's cycle 0 */
    struct nic nic;
    struct board board;
    struct hostrt host;
    uint64_t wake_pending;          /* earliest NIC wake-up queued (0: none) */
    unsigned rx_inflight;           /* deliveries queued as events, not yet applied */
    char line[256];                 /* LANai console line being assembled */
    size_t linelen;
};

struct refsim_event;

struct refsim {
    struct refsim_config cfg;
    const struct topo *topo;
    struct fabric *fabric;
    struct refsim_node *node;
    struct refsim_event *heap;
    size_t nheap, capheap;
    uint64_t seq;
    uint64_t now_ps;                /* time of the agent being advanced */
    uint64_t instructions, events;
    int error;                      /* a CPU trapped (its message was printed) */
};

/* Build a cluster over a finished topology; every host runs main(argc, argv). */
int refsim_init(struct refsim *s, const struct refsim_config *cfg, const struct topo *t,
                int (*main)(int, char **), int argc, char **argv);
void refsim_destroy(struct refsim *s);

/* Run until every host program has returned (0), the time limit is reached
 * (1) or a LANai CPU trapped (-1). */
int refsim_run(struct refsim *s);

/* Fill the timing of a config from a platform profile (its base node
 * class; refsim does not model heterogeneous clusters). */
struct profile;
void refsim_config_from_profile(struct refsim_config *cfg, const struct profile *p);

/* The virtual time of node i's NIC clock. */
uint64_t refsim_nic_time(const struct refsim *s, unsigned i);

#endif
