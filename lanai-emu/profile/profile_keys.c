/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The profile keys: name, dimension, where the value is stored, the range
 * the emulator can honour, and whether a file may leave it out. Ranges are
 * wide enough for any 1990s-2000s cluster and narrow enough to catch a
 * wrong unit (133 Hz for a LANai clock, 2 KB of SRAM).
 * docs/profiles.md explains each key.
 */
#include "profile.h"

#define PS   1ull
#define NS   1000ull
#define US   1000000ull
#define MS   1000000000ull
#define MHZ  1000000ull
#define GHZ  1000000000ull
#define KIB  1024ull
#define MIB  (1024ull * 1024)
#define ONE  1000000ull          /* ratio 1.0 in millionths */

#define NODE(f) true, offsetof(struct profile_params, f)
#define CLUS(f) false, offsetof(struct profile, f)
#define REQ     false, 0

static const struct profile_key keys[] = {
    { "cluster.name",  PDIM_NAME,  CLUS(name), 1, PROFILE_NAME_LEN - 1, REQ,
      "platform id printed by lanai-run (e.g. P-GM2)" },
    { "cluster.nodes", PDIM_COUNT, CLUS(nodes), 1, PROFILE_MAX_NODES, REQ,
      "nodes in the paper's cluster (default node count)" },

    { "nic.clock", PDIM_FREQ, NODE(nic_clock_hz), 1 * MHZ, 1 * GHZ, REQ,
      "LANai CPU clock" },
    { "nic.cpi",   PDIM_RATIO, NODE(nic_cpi_micro), ONE / 4, 64 * ONE, true, ONE,
      "cycles per executed instruction (cost-model hook)" },
    { "nic.sram",  PDIM_SIZE, NODE(nic_sram_bytes), 64 * KIB, 8 * MIB, REQ,
      "NIC SRAM size (multiple of 4 KB)" },

    { "pci.width", PDIM_BITS, NODE(pci_width_bits), 32, 64, REQ,
      "PCI data path width, 32 or 64 bit" },
    { "pci.clock", PDIM_FREQ, NODE(pci_clock_hz), 20 * MHZ, 133 * MHZ, REQ,
      "PCI bus clock" },
    { "pci.transaction", PDIM_TIME, NODE(pci_transaction_ps), 1 * NS, 100 * US, REQ,
      "fixed cost of one DMA burst (arbitration, address, bridge)" },
    { "pci.dma_read", PDIM_TIME, NODE(pci_dma_read_ps), 0, 100 * US, REQ,
      "extra wait of a DMA read burst for host memory data" },
    { "pci.max_burst", PDIM_SIZE, NODE(pci_max_burst), 8, 4 * KIB, REQ,
      "largest DMA burst in bytes (multiple of width/8)" },
    { "pci.pio_read", PDIM_TIME, NODE(pci_pio_read_ps), 1 * NS, 100 * US, REQ,
      "host CPU stall for one 32-bit read of the board window" },
    { "pci.pio_write", PDIM_TIME, NODE(pci_pio_write_ps), 1 * NS, 100 * US, REQ,
      "host CPU cost of one posted 32-bit write to the board window" },
    { "pci.pio_write_latency", PDIM_TIME, NODE(pci_pio_write_latency_ps), 1 * NS, 100 * US, REQ,
      "from a posted write until it takes effect on the board" },

    { "net.link_rate", PDIM_PERBYTE, CLUS(link_ps_per_byte), 100 * PS, 1 * US, REQ,
      "link data rate per direction (stored as time per byte)" },
    { "net.link_latency", PDIM_TIME, CLUS(link_latency_ps), 1 * NS, 100 * US, REQ,
      "one link: cable flight time and PHY conversion" },
    { "net.switch_latency", PDIM_TIME, CLUS(switch_latency_ps), 0, 100 * US, REQ,
      "header fall-through time of one switch" },
    { "net.switch_ports", PDIM_COUNT, CLUS(switch_ports), 8, 32, REQ,
      "ports per crossbar switch: 8, 16 or 32" },
    { "net.mcast_entries", PDIM_COUNT, CLUS(mcast_entries), 1, 16382, true, 1024,
      "multicast table entries per switch (docs/fabric.md, switch multicast)" },
    { "net.switch_agent", PDIM_TIME, CLUS(switch_agent_ps), 0, 1000 * MS, true, 10 * US,
      "a switch's management agent, per table write" },
    { "net.mcast_buffer", PDIM_COUNT, CLUS(mcast_buffer), 1, 4096, true, 32,
      "held multicast branches a switch's replication buffer holds (docs/fabric.md)" },
    /* The management entity (docs/fabric.md, "The management entity"): the
     * defaults are subnet_mgr.h's SM_TIMEOUT_PS, SM_MAX_OUTSTANDING,
     * SM_REQUEST_PS, SM_SET_PS, SM_ANSWER_PS and SM_GROUPS, and must stay
     * equal to them (tests/profile checks it). net.sm_groups is at most
     * net.mcast_entries (profile.c), as the entity requires, so that a
     * group whose tree spans every switch always finds a table entry. */
    { "net.sm_timeout", PDIM_TIME, CLUS(sm_timeout_ps), 1 * US, 1000 * MS, true, 10 * MS,
      "the management entity's transaction time-out (seed 003 s5.1)" },
    { "net.sm_outstanding", PDIM_COUNT, CLUS(sm_outstanding), 1, 4096, true, 4,
      "the management entity's table writes on the wire at once" },
    { "net.sm_request", PDIM_TIME, CLUS(sm_request_ps), 0, 1000 * MS, true, 20 * US,
      "the management entity's work per create, join or leave" },
    { "net.sm_set", PDIM_TIME, CLUS(sm_set_ps), 0, 1000 * MS, true, 5 * US,
      "the management entity's work per table write sent" },
    { "net.sm_answer", PDIM_TIME, CLUS(sm_answer_ps), 0, 1000 * MS, true, 2 * US,
      "the management entity's work per switch answer taken" },
    { "net.sm_groups", PDIM_COUNT, CLUS(sm_groups), 1, 16382, true, 1024,
      "multicast group ids the management entity hands out (<= net.mcast_entries)" },

    { "host.clock", PDIM_FREQ, NODE(host_clock_hz), 10 * MHZ, 10 * GHZ, REQ,
      "host CPU clock" },
    { "host.cpus", PDIM_COUNT, NODE(host_cpus), 1, 64, true, 1,
      "CPUs per host (informational; one host program per node)" },
    { "host.post", PDIM_TIME, NODE(host_post_ps), 0, 1 * MS, REQ,
      "library cost of posting one send or request, PIO writes excluded" },
    { "host.recv", PDIM_TIME, NODE(host_recv_ps), 0, 1 * MS, REQ,
      "library cost of consuming one received event" },
    { "host.poll", PDIM_TIME, NODE(host_poll_ps), 1 * NS, 1 * MS, REQ,
      "one poll of the event queue that finds nothing" },
    { "host.copy_fixed", PDIM_TIME, NODE(host_copy_fixed_ps), 0, 1 * MS, REQ,
      "memcpy: fixed cost per call" },
    { "host.copy_rate", PDIM_PERBYTE, NODE(host_copy_ps_per_byte), 1 * PS, 1 * US, REQ,
      "memcpy: time per byte (or a rate)" },
    { "host.interrupt", PDIM_TIME, NODE(host_interrupt_ps), 1 * NS, 10 * MS, REQ,
      "NIC interrupt until the driver's handler has run" },
    { "host.signal", PDIM_TIME, NODE(host_signal_ps), 1 * NS, 10 * MS, REQ,
      "NIC-raised signal until the user handler is entered and left" },
    { "host.compute_scale", PDIM_RATIO, NODE(host_compute_scale_micro), ONE / 100, 100 * ONE,
      true, ONE, "factor applied to compute(ns)" },
};

const struct profile_key *profile_keys(size_t *n)
{
    *n = sizeof keys / sizeof keys[0];
    return keys;
}
