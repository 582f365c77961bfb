/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LANai 9 network interface, as device logic: special registers, the
 * send and receive engines, the host-DMA descriptor chains, interval timers,
 * the real-time clock and the host interrupt line (docs/lanai9-nic.md;
 * every choice the hardware documents leave open is in docs/nic.md).
 *
 * Plain C with no QEMU dependency. The machine around it (QEMU's myrinet
 * board, or a test) provides the environment: the NIC's local time, SRAM
 * and host-memory access, the fabric, the interrupt line, and a way to be
 * called back at a given time. State that depends only on time (timer
 * expiry, engine readiness, arrival progress) is computed when it is looked
 * at, so a register read is exact at any instant.
 */
#ifndef NICOLL_NIC_H
#define NICOLL_NIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric.h"

#define NIC_RTC_TICK_PS   500000ull /* RTC and interval timers: 0.5 us */
#define NIC_RX_QUEUE      64        /* packets held while no buffer is armed */
#define NIC_DMA_MAX_BLOCK (1u << 20) /* bytes per descriptor */

/* DMA descriptor: 24 bytes in SRAM, 8-byte aligned, big-endian words:
 *   +0 next | flags   +4 csum[0] csum[1]   +8 len   +12 lar   +16 eah   +20 eal */
#define NIC_DMA_E2L       1u   /* flags: direction host -> LANai (0: LANai -> host) */
#define NIC_DMA_TERMINAL  2u   /* last block of the chain */
#define NIC_DMA_WAKE      4u   /* set ISR.WAKE0 when this block completes */
#define NIC_PULSE_L2E     2u   /* PULSE = chain address | this: start L2E */
#define NIC_PULSE_E2L     4u   /*                            start E2L */

struct nic_env {
    void *opaque;
    uint64_t (*now_ps)(void *opaque);               /* the NIC's local time */
    /* SRAM access by the engines (the machine keeps translated code coherent) */
    void (*sram_read)(void *opaque, uint32_t addr, void *buf, uint32_t len);
    void (*sram_write)(void *opaque, uint32_t addr, const void *buf, uint32_t len);
    /* host memory by bus address; false if the range is not host memory */
    bool (*host_read)(void *opaque, uint64_t bus, void *buf, uint32_t len);
    bool (*host_write)(void *opaque, uint64_t bus, const void *buf, uint32_t len);
    /* a packet leaves at time t (head on the wire): route bytes first */
    void (*transmit)(void *opaque, uint64_t t_ps, const uint8_t *pkt, size_t len);
    /* the PCI interrupt line changed (level) */
    void (*irq)(void *opaque, bool level);
    /* call nic_advance() at (or after) time t; the latest request wins
     * unless it is later than a pending one */
    void (*wake_at)(void *opaque, uint64_t t_ps);
    /* optional (NULL: none): a host-DMA block of engine e (0 L2E, 1 E2L)
     * begins at start_ps and completes at done_ps; for traces only */
    void (*dma_trace)(void *opaque, int e, uint64_t start_ps, uint64_t done_ps, uint32_t len);
    /* Back-pressure (optional): a packet the fabric holds in the network
     * for this NIC (fabric_delivery.held) was taken into an armed buffer
     * (dropped false) or dropped at t_ps (the blocking time-out, or a
     * reset). Called in time order, at t_ps; when taken, the NIC has
     * just started receiving it (rx_len, rx_link_ps, rx_tail_ps,
     * rx_crc_ok). */
    void (*rx_done)(void *opaque, uint64_t id, uint64_t t_ps, bool dropped);
};

struct nic_timing {
    uint64_t byte_ps;                 /* link: one byte */
    uint64_t dma_fixed_ps;            /* PCI: fixed cost per burst */
    uint64_t dma_read_ps;             /* PCI: extra wait per read burst */
    uint64_t dma_ps_per_byte;         /* PCI: data phase per byte */
    uint32_t dma_burst;               /* bytes per burst */
    /* Optional: a block's PCI time computed by the platform model
     * (profile_dma_ps(), whole bus words per burst, one rounding); the
     * machines set it so that DMA and docs/profiles.md agree to the
     * picosecond. NULL: the per-byte model of the four fields above. */
    uint64_t (*dma_ps)(const void *ctx, bool read, uint32_t len);
    const void *dma_ctx;
};

struct nic_rx_packet {
    uint64_t head_ps, tail_ps;
    uint64_t id;              /* the fabric's number, when held */
    uint64_t link_ps;         /* when its head reached the link (held: it
                               * may wait there, head_ps is when in line) */
    bool held;                /* held in the network until taken */
    bool crc_ok;
    uint32_t len;
    uint8_t data[FABRIC_MAX_PACKET];
};

struct nic_dma {
    bool busy;
    uint32_t desc;            /* current descriptor address */
    uint64_t done_ps;         /* when the current block completes */
};

struct nic {
    struct nic_env env;
    struct nic_timing tm;
    uint32_t sram_size;
    uint64_t next_change_ps;   /* update(): nothing falls due before this */

    /* plain registers */
    uint32_t isr_latched;     /* latched ISR bits (W1C) */
    uint32_t eimr, cpuc, lar, myrinet, debug, led, gm_mp, clock;
    uint32_t rmw, rmc, smh, smc;
    int64_t rtc_offset;       /* RTC = now / tick + offset */
    uint64_t timer_deadline[3];   /* IT0..IT2: expiry time, 0 = idle */
    bool irq_level;
    bool link_down;

    /* send engine */
    uint32_t smp, sa;
    uint64_t send_free_ps;    /* when the engine can take the next piece */
    uint64_t pkt_start_ps;    /* head of the packet being assembled left */
    uint32_t pkt_len;
    uint8_t pkt[FABRIC_MAX_PACKET];
    bool pkt_overflow;
    /* back-pressure: the link stopped by flow control (nic_link_stop) */
    unsigned link_stops;      /* STOPs not yet followed by their GO */
    uint64_t send_left_ps;    /* the engine's work left when it stopped */
    bool tx_pending;          /* a packet given while stopped, sent at GO */

    /* receive engine */
    uint32_t rmp, rml;        /* buffer pointer and limit as written */
    bool rx_armed;
    uint64_t rx_arm_ps;       /* when the buffer was armed */
    struct nic_rx_packet *rxq;    /* queued arrivals, NIC_RX_QUEUE of them */
    unsigned rxq_head, rxq_count;
    unsigned rxq_cap;         /* grows with back-pressure on */
    bool rx_bp;               /* back-pressure: arrivals are held in the network */
    uint64_t rx_timeout_ps;   /* ... and dropped after blocking this long (0: never) */
    uint64_t rx_drop_ps;      /* when the last held packet was dropped */
    /* the packet being received into the armed buffer */
    bool rx_active;
    uint64_t rx_head_ps, rx_tail_ps, rx_buff_ps;
    uint32_t rx_len;          /* its length (what reaches the link) */
    uint64_t rx_link_ps;      /* when its head reached the link */
    uint32_t rx_start, rx_written;
    bool rx_crc_ok;

    /* host DMA: [0] L2E, [1] E2L */
    struct nic_dma dma[2];

    uint64_t counters_tx, counters_rx, counters_rx_dropped, counters_dma_blocks;
    uint64_t counters_rx_timeout;     /* held packets dropped after the time-out */
    uint64_t counters_tx_stops, counters_tx_stopped_ps;  /* link stopped: times, time */
    uint64_t tx_stop_ps;              /* when the current stop began */
};

int nic_init(struct nic *n, const struct nic_env *env, const struct nic_timing *tm,
             uint32_t sram_size);
void nic_destroy(struct nic *n);
/* Power-on / RESET_ON state of every register and engine. */
void nic_reset(struct nic *n);

/* Special registers, 'off' from 0xFFFFFE00 (lanai9_regs.h). from_host is
 * true for accesses through the board window (they differ only in ISR:
 * the LANai may set HOST_SIG, the host may set LANAI_SIG). */
uint32_t nic_reg_read(struct nic *n, uint32_t off, bool from_host);

/* Whether a read of register 'off' may return a different value at a later
 * time with nothing else happening (RTC, IT0-IT2, RMP while a packet comes
 * in): every other register changes only by an access or at a time the NIC
 * announced through wake_at. The machine's idle detection relies on it. */
bool nic_reg_varies_with_time(uint32_t off);
void nic_reg_write(struct nic *n, uint32_t off, uint32_t val, bool from_host);

/* A packet from the fabric (its delivery record) reaches this NIC. Called
 * at or before its head time, in arrival order. */
void nic_receive(struct nic *n, const struct fabric_delivery *d);

/* Back-pressure (docs/nic.md "Receive engine"): arrivals the fabric holds
 * in the network wait for an armed buffer without a queue limit, the
 * fabric is told when each is taken (env.rx_done), and one that waits
 * longer than timeout_ps (0: forever) at the head of the line is dropped.
 * Off (the default): the 64-packet queue, drops beyond. */
void nic_set_backpressure(struct nic *n, bool on, uint64_t timeout_ps);

/* Packets the NIC can take on arrival now without holding them in the
 * network: 1 when a buffer is armed and nothing is waiting for it, else 0
 * (from its state as last brought up to date; never more than the truth
 * at a later time, since only arrivals consume an armed buffer). */
unsigned nic_rx_room(const struct nic *n);

/* Back-pressure on the send side (docs/nic.md "Send engine"): flow control
 * stopped the NIC's link at the current time (a packet it sent is held in
 * the network with its tail still in the NIC), or lets it go again. While
 * stopped the send engine makes no progress: ISR.SEND stays clear, and the
 * work it had left when stopped is done after the GO. Each STOP is
 * followed by one GO; they nest. */
void nic_link_stop(struct nic *n);
void nic_link_go(struct nic *n);

/* Link state from the fabric's fault rules (LINK_DOWN in ISR). */
void nic_set_link(struct nic *n, bool up);

/* Process everything due by the current time (timers, DMA blocks, the
 * interrupt line); the machine calls it when a wake_at time is reached. */
void nic_advance(struct nic *n);

#endif
