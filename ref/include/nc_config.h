/*
 * nc_config.h - every capacity of the ref/ cores, in one place.
 *
 * ref/ code allocates nothing: all state lives in caller-provided structs
 * whose arrays are sized by these macros, so the firmware can place them in
 * SRAM statically and the proofs can bound every loop and index.
 *
 * Why these numbers:
 *  - NC_MAX_NODES 1024: Myrinet/GM-era clusters and the papers' experiments
 *    stay far below this (16 and 64 nodes); 1024 keeps per-connection tables
 *    at a few KB of the LANai 9's 2 MB SRAM.  Node ids and tree positions are
 *    therefore < 1024 and fit in uint16_t.
 *  - NC_MAX_PORTS 8: GM allows eight ports (endpoints) per NIC (seed 002
 *    section 4.3), which is why the barrier record is one byte per connection.
 *  - NC_TX_WINDOW_MAX 64: a power of two so that a sequence number maps to a
 *    window slot with a mask; 64 packets of 4 KB in flight per peer is more
 *    than GM ever kept.
 *  - NC_MC_MAX_CHILDREN 32: the set of children still owing an ack is
 *    returned as a uint32_t bit mask.  Optimal k-binomial trees have at most
 *    ceil(log2 n) <= 10 children; postal trees for realistic ratios stay
 *    well below 32 too (the tree builder reports it if they would not).
 *  - NC_TOKQ_CAP / NC_FREELIST_CAP 256: tokens per port queue / pool.
 *  - NC_COVER_SAT: saturation value for the N(s,k) and postal coverage
 *    tables; any value > NC_MAX_NODES gives identical trees and step counts,
 *    and 2^20 keeps every sum of up to NC_MAX_K entries inside 32 bits.
 *  - NC_MAX_STEPS: longest schedule a tree can need (a chain of
 *    NC_MAX_NODES nodes with the largest postal latency).
 */
#ifndef NC_CONFIG_H
#define NC_CONFIG_H

#define NC_MAX_NODES        1024u
#define NC_MAX_PORTS        8u
#define NC_TX_WINDOW_MAX    64u
#define NC_MC_MAX_CHILDREN  32u
#define NC_TOKQ_CAP         256u
#define NC_FREELIST_CAP     256u

/* Trees. */
#define NC_MAX_K            32u      /* max out-degree a builder accepts   */
#define NC_MAX_LAMBDA       64u      /* max postal latency ratio           */
#define NC_COVER_SAT        1048576u /* 2^20, saturation of coverage tables */
#define NC_COVER_SAT_LOG2   20u
#define NC_MAX_STEPS        (NC_MAX_NODES + NC_MAX_LAMBDA)

/* Marker for "no node" (the root's parent, an unassigned slot). */
#define NC_NONE             0xFFFFu

#endif
