/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Platform profiles: every timing and size parameter of one emulated
 * Myrinet cluster (NIC, PCI, network, host), read from a small text file
 * (docs/profiles.md) so that the numbers behind a reproduced result sit in
 * one place with their sources. Plain C11, no QEMU dependency: the
 * emulator, lanai-run, lanai-profile and the tests share it.
 *
 * Units are fixed inside the program so that the emulator's arithmetic is
 * integer and deterministic:
 *   times          picoseconds        (field suffix _ps)
 *   per-byte costs picoseconds / byte (_ps_per_byte)
 *   frequencies    hertz              (_hz)
 *   sizes          bytes
 *   ratios         millionths         (_micro: 1.0 is 1000000)
 *
 * A cluster may be heterogeneous (P-AB): "[nodes SET]" sections override
 * the NIC, PCI and host keys for a set of node ids. profile_node() gives
 * the parameters that apply to one node.
 */
#ifndef NICOLL_PROFILE_H
#define NICOLL_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PROFILE_MAX_NODES    4096
#define PROFILE_MAX_CLASSES  8     /* [nodes SET] sections per file */
#define PROFILE_MAX_RANGES   16    /* items in one node set */
#define PROFILE_NAME_LEN     32

/* The parameters that may differ from node to node. */
struct profile_params {
    /* NIC */
    uint64_t nic_clock_hz;          /* LANai CPU clock */
    uint64_t nic_cpi_micro;         /* cycles per instruction (cost-model hook) */
    uint64_t nic_sram_bytes;        /* SRAM size */
    /* PCI bus between host and NIC */
    uint64_t pci_width_bits;        /* 32 or 64 */
    uint64_t pci_clock_hz;          /* bus clock */
    uint64_t pci_transaction_ps;    /* fixed cost of one DMA burst */
    uint64_t pci_dma_read_ps;       /* extra wait of a read burst for host memory */
    uint64_t pci_max_burst;         /* bytes per DMA burst */
    uint64_t pci_pio_read_ps;       /* host CPU stall for one word read of the board */
    uint64_t pci_pio_write_ps;      /* host CPU cost of one posted word write */
    uint64_t pci_pio_write_latency_ps; /* from the write until it lands on the board */
    /* host */
    uint64_t host_clock_hz;
    uint64_t host_cpus;
    uint64_t host_post_ps;          /* library cost of posting one send/request */
    uint64_t host_recv_ps;          /* library cost of consuming one received event */
    uint64_t host_poll_ps;          /* one poll of the event queue that finds nothing */
    uint64_t host_copy_fixed_ps;    /* memcpy: fixed part ... */
    uint64_t host_copy_ps_per_byte; /* ... and per byte */
    uint64_t host_interrupt_ps;     /* NIC interrupt to the driver's handler, done */
    uint64_t host_signal_ps;        /* NIC-raised signal to the user handler, done */
    uint64_t host_compute_scale_micro; /* factor applied to compute(ns) */
};

/* One [nodes SET] section: a set of node ids and their parameters. */
struct profile_class {
    unsigned nranges;
    struct { uint16_t first, last, stride; } range[PROFILE_MAX_RANGES];
    struct profile_params p;        /* base parameters with the overrides applied */
    uint64_t set_mask;              /* which keys the section set (bit = key index) */
    unsigned line;                  /* where the section starts */
};

struct profile {
    char name[PROFILE_NAME_LEN];    /* cluster.name, e.g. "P-GM2" */
    uint64_t nodes;                 /* cluster.nodes: nodes in the paper's cluster */
    /* network (shared by all nodes) */
    uint64_t link_ps_per_byte;      /* serialisation time of one byte on a link */
    uint64_t link_latency_ps;       /* one link: cable flight time and PHY */
    uint64_t switch_latency_ps;     /* header fall-through per switch hop */
    uint64_t switch_ports;          /* 8, 16 or 32 */
    uint64_t mcast_entries;         /* multicast table entries per switch */
    uint64_t switch_agent_ps;       /* a switch's management agent, per request */
    uint64_t mcast_buffer;          /* multicast branches a switch's buffer holds */
    /* the management entity (lanai-emu/fabric/subnet_mgr.h, struct sm_params) */
    uint64_t sm_timeout_ps;         /* transaction time-out: an unanswered table write is sent again */
    uint64_t sm_outstanding;        /* table writes on the wire at once */
    uint64_t sm_request_ps;         /* its work per create, join or leave */
    uint64_t sm_set_ps;             /* its work per table write sent */
    uint64_t sm_answer_ps;          /* its work per switch answer taken */
    uint64_t sm_groups;             /* group ids it hands out; at most mcast_entries */
    struct profile_params base;
    unsigned nclasses;
    struct profile_class cls[PROFILE_MAX_CLASSES];
};

/* What a key measures; decides the units it accepts. */
enum profile_dim {
    PDIM_NAME,      /* identifier: letters, digits, '.', '-', '_' */
    PDIM_COUNT,     /* plain integer */
    PDIM_BITS,      /* integer, optional unit "bit" */
    PDIM_RATIO,     /* plain decimal, stored in millionths */
    PDIM_TIME,      /* ps ns us ms s */
    PDIM_FREQ,      /* Hz kHz MHz GHz */
    PDIM_SIZE,      /* B KB MB GB (binary: 1 KB = 1024 B), KiB MiB GiB */
    PDIM_PERBYTE,   /* ps/B ns/B us/B, or a rate: B/s KB/s MB/s GB/s b/s Kb/s Mb/s Gb/s */
};

struct profile_key {
    const char *name;       /* "section.key" */
    enum profile_dim dim;
    bool per_node;          /* lives in struct profile_params; [nodes] may set it */
    size_t off;             /* offset in struct profile_params or struct profile */
    uint64_t min, max;      /* inclusive, in stored units */
    bool optional;
    uint64_t def;           /* default when optional and absent */
    const char *what;       /* one line for lanai-profile keys and docs */
};

/* The key table, in file order. */
const struct profile_key *profile_keys(size_t *n);

/*
 * Parse a profile from text (len bytes, need not be NUL-terminated). Returns
 * 0, or -1 with "NAME:LINE: message" (or "NAME: message" for whole-file
 * problems such as a missing key) in err.
 */
int profile_parse(struct profile *p, const char *name, const char *text, size_t len,
                  char *err, size_t errlen);
int profile_load(struct profile *p, const char *path, char *err, size_t errlen);

/* Print in the normalised form: fixed order, canonical units, no
 * comments; parsing it again gives an identical struct. */
void profile_write(const struct profile *p, FILE *f);

/* The parameters of node id (the base set if no [nodes] section names it). */
const struct profile_params *profile_node(const struct profile *p, unsigned node);

/*
 * Timing model helpers, so that every user computes the same numbers:
 *   nic:  cycles * cpi / clock
 *   dma:  per burst of at most max_burst bytes:
 *         transaction (+ dma_read for reads) + ceil(bytes / (width/8)) bus clocks
 *   wire: bytes * link_ps_per_byte
 *   copy: copy_fixed + bytes * copy_ps_per_byte
 * Results are rounded to the nearest picosecond.
 */
uint64_t profile_nic_ps(const struct profile_params *pp, uint64_t cycles);
uint64_t profile_dma_ps(const struct profile_params *pp, bool read, uint64_t bytes);
uint64_t profile_wire_ps(const struct profile *p, uint64_t bytes);
uint64_t profile_copy_ps(const struct profile_params *pp, uint64_t bytes);

/*
 * The shortest delay of any interaction between two clocks (a packet over
 * two links and a switch, a PIO write, a DMA burst, an interrupt, a
 * signal), over all node classes: the largest lookahead the conservative
 * synchronisation may use with this profile.
 */
uint64_t profile_lookahead_ps(const struct profile *p);

#endif
