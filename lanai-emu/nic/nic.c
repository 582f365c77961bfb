/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LANai 9 network interface device logic (nic.h; semantics in docs/nic.md).
 * Time-dependent state is brought up to date by catch_up() before every
 * register access and by nic_advance(), so the order in which the machine
 * calls in does not change what the firmware sees.
 */
#include "nic.h"

#include <stdlib.h>
#include <string.h>

#include "nicoll/lanai9_regs.h"
#include "nicoll/nc_endian.h"

static uint64_t now(struct nic *n)
{
    return n->env.now_ps(n->env.opaque);
}

int nic_init(struct nic *n, const struct nic_env *env, const struct nic_timing *tm,
             uint32_t sram_size)
{
    memset(n, 0, sizeof *n);
    n->env = *env;
    n->tm = *tm;
    n->sram_size = sram_size;
    n->rxq = calloc(NIC_RX_QUEUE, sizeof *n->rxq);
    if (!n->rxq)
        return -1;
    n->rxq_cap = NIC_RX_QUEUE;
    nic_reset(n);
    return 0;
}

void nic_destroy(struct nic *n)
{
    free(n->rxq);
    n->rxq = NULL;
}

void nic_reset(struct nic *n)
{
    struct nic_env env = n->env;
    struct nic_timing tm = n->tm;
    struct nic_rx_packet *rxq = n->rxq;
    uint32_t sram = n->sram_size;
    bool link_down = n->link_down, irq_was = n->irq_level;
    unsigned cap = n->rxq_cap;
    bool bp = n->rx_bp;
    uint64_t timeout = n->rx_timeout_ps;
    /* the network still holds a packet of ours: the GO comes later */
    unsigned stops = n->link_stops;
    uint64_t stop_ps = n->tx_stop_ps, nstops = n->counters_tx_stops;

    /* packets held in the network for this NIC are lost with the reset */
    for (unsigned i = 0; n->env.rx_done && i < n->rxq_count; i++) {
        const struct nic_rx_packet *p = &rxq[(n->rxq_head + i) % cap];
        if (p->held)
            n->env.rx_done(n->env.opaque, p->id, now(n), true);
    }
    memset(n, 0, sizeof *n);
    n->env = env;
    n->tm = tm;
    n->rxq = rxq;
    n->rxq_cap = cap;
    n->rx_bp = bp;
    n->rx_timeout_ps = timeout;
    n->sram_size = sram;
    n->link_down = link_down;
    n->link_stops = stops;
    n->tx_stop_ps = stop_ps;
    n->counters_tx_stops = nstops;
    if (stops)
        n->send_free_ps = UINT64_MAX;
    n->rtc_offset = -(int64_t)(now(n) / NIC_RTC_TICK_PS); /* RTC reads 0 at reset */
    if (irq_was)
        n->env.irq(n->env.opaque, false);
}

/* ---- receive -------------------------------------------------------------- */

/* Start receiving a packet into the armed buffer at time 'at'. */
static void rx_start(struct nic *n, const struct nic_rx_packet *p, uint64_t at)
{
    uint32_t room = n->rml > n->rmp ? n->rml - n->rmp : 0;
    uint32_t len = p->len < room ? p->len : room;
    uint64_t head = p->head_ps > at ? p->head_ps : at;

    if (n->rmp >= n->sram_size || (uint64_t)n->rmp + len > n->sram_size)
        len = n->rmp < n->sram_size ? n->sram_size - n->rmp : 0;
    if (len)
        n->env.sram_write(n->env.opaque, n->rmp, p->data, len);
    n->rx_active = true;
    n->rx_start = n->rmp;
    n->rx_written = len;
    n->rx_crc_ok = p->crc_ok;
    n->rx_len = p->len;
    n->rx_link_ps = p->link_ps;
    n->rx_head_ps = head + (uint64_t)(p->len < 8 ? p->len : 8) * n->tm.byte_ps;
    n->rx_tail_ps = head + (p->tail_ps - p->head_ps);
    n->rx_buff_ps = p->len > room ? head + (uint64_t)room * n->tm.byte_ps : 0;
    n->counters_rx++;
}

static void rx_catch_up(struct nic *n, uint64_t t)
{
    for (;;) {
        if (n->rx_active) {
            if (t >= n->rx_head_ps)
                n->isr_latched |= L9_ISR_HEAD, n->rx_head_ps = UINT64_MAX;
            if (n->rx_buff_ps && t >= n->rx_buff_ps)
                n->isr_latched |= L9_ISR_BUFF, n->rx_buff_ps = 0;
            if (t < n->rx_tail_ps)
                return;
            /* end of packet */
            n->isr_latched |= L9_ISR_RECV;
            if (n->rx_written & 1) n->isr_latched |= L9_ISR_ORUN1;
            if (n->rx_written & 2) n->isr_latched |= L9_ISR_ORUN2;
            if (n->rx_written & 4) n->isr_latched |= L9_ISR_ORUN4;
            if (!n->rx_crc_ok)
                n->isr_latched |= L9_ISR_ILLEGAL_RX;
            n->rmp = n->rx_start + n->rx_written;
            n->rx_active = false;
            n->rx_armed = false;    /* one packet per armed buffer */
            if (n->rx_buff_ps)
                n->isr_latched |= L9_ISR_BUFF;
        }
        if (!n->rxq_count)
            return;
        {
            const struct nic_rx_packet *p = &n->rxq[n->rxq_head];
            /* it starts when it has arrived, the buffer is armed and the
             * previous packet has ended (or was dropped) */
            uint64_t ready = p->head_ps;
            if (n->rx_tail_ps > ready) ready = n->rx_tail_ps;
            if (n->rx_drop_ps > ready) ready = n->rx_drop_ps;
            uint64_t at = !n->rx_armed ? UINT64_MAX : n->rx_arm_ps > ready ? n->rx_arm_ps : ready;
            if (p->held && n->rx_timeout_ps && ready + n->rx_timeout_ps < at &&
                ready + n->rx_timeout_ps <= t) {
                /* blocked too long: the network drops it */
                n->rx_drop_ps = ready + n->rx_timeout_ps;
                n->counters_rx_timeout++;
                n->rxq_head = (n->rxq_head + 1) % n->rxq_cap;
                n->rxq_count--;
                if (n->env.rx_done)
                    n->env.rx_done(n->env.opaque, p->id, n->rx_drop_ps, true);
                continue;
            }
            if (at > t)
                return;
            rx_start(n, p, at);
            if (p->held && n->env.rx_done)
                n->env.rx_done(n->env.opaque, p->id, at, false);
            n->rxq_head = (n->rxq_head + 1) % n->rxq_cap;
            n->rxq_count--;
        }
    }
}

void nic_set_backpressure(struct nic *n, bool on, uint64_t timeout_ps)
{
    n->rx_bp = on;
    n->rx_timeout_ps = timeout_ps;
}

unsigned nic_rx_room(const struct nic *n)
{
    return n->rx_armed && !n->rx_active && !n->rxq_count;
}

/* With back-pressure the queue is the line of packets held in the network
 * at this NIC's link: it has no limit of its own. */
static int rxq_grow(struct nic *n)
{
    struct nic_rx_packet *q = calloc((size_t)n->rxq_cap * 2, sizeof *q);

    if (!q)
        return -1;
    for (unsigned i = 0; i < n->rxq_count; i++)
        q[i] = n->rxq[(n->rxq_head + i) % n->rxq_cap];
    free(n->rxq);
    n->rxq = q;
    n->rxq_head = 0;
    n->rxq_cap *= 2;
    return 0;
}

void nic_receive(struct nic *n, const struct fabric_delivery *d)
{
    struct nic_rx_packet *p;

    if (n->rxq_count == n->rxq_cap && (!n->rx_bp || rxq_grow(n))) {
        n->counters_rx_dropped++;   /* nobody drains the receive queue */
        if (d->held && n->env.rx_done)
            n->env.rx_done(n->env.opaque, d->id, now(n), true);
        return;
    }
    p = &n->rxq[(n->rxq_head + n->rxq_count) % n->rxq_cap];
    p->head_ps = p->link_ps = d->head_ps;
    p->tail_ps = d->tail_ps;
    if (d->held && d->head_ps < now(n)) {
        /* held behind another packet: in line from now on */
        p->head_ps = now(n);
        p->tail_ps = now(n) + (d->tail_ps - d->head_ps);
    }
    p->id = d->id;
    p->held = d->held;
    p->crc_ok = d->crc_ok;
    p->len = (uint32_t)d->len;
    memcpy(p->data, d->data, d->len);
    n->rxq_count++;
    nic_advance(n);
}

/* ---- host DMA ------------------------------------------------------------- */

static uint64_t dma_duration(const struct nic *n, bool read, uint32_t len)
{
    if (n->tm.dma_ps)
        return n->tm.dma_ps(n->tm.dma_ctx, read, len);
    uint64_t bursts = n->tm.dma_burst ? (len + n->tm.dma_burst - 1) / n->tm.dma_burst : 1;
    if (!bursts)
        bursts = 1;
    return bursts * (n->tm.dma_fixed_ps + (read ? n->tm.dma_read_ps : 0)) +
           (uint64_t)len * n->tm.dma_ps_per_byte;
}

static void dma_stop(struct nic *n, int e, bool error)
{
    n->dma[e].busy = false;
    if (error)
        n->isr_latched |= L9_ISR_MEM_INT;
}

/* Begin the block at dma[e].desc at time t. */
static void dma_begin(struct nic *n, int e, uint64_t t)
{
    uint8_t d[24];
    uint32_t desc = n->dma[e].desc, len;

    if (desc & 7 || desc >= n->sram_size || n->sram_size - desc < 24) {
        dma_stop(n, e, true);
        return;
    }
    n->env.sram_read(n->env.opaque, desc, d, 24);
    len = nc_get_be32(d + 8);
    if (((nc_get_be32(d) & NIC_DMA_E2L) != 0) != (e == 1) || len > NIC_DMA_MAX_BLOCK) {
        dma_stop(n, e, true);       /* wrong engine for the block, or too long */
        return;
    }
    n->dma[e].done_ps = t + dma_duration(n, e == 1, len);
    if (n->env.dma_trace)
        n->env.dma_trace(n->env.opaque, e, t, n->dma[e].done_ps, len);
}

/* The current block of engine e completes now: move the data. */
static void dma_complete(struct nic *n, int e)
{
    uint8_t d[24], *buf;
    uint32_t desc = n->dma[e].desc, next, len, lar, sum = 0;
    uint64_t bus;
    bool ok;

    n->env.sram_read(n->env.opaque, desc, d, 24);
    next = nc_get_be32(d);
    len = nc_get_be32(d + 8);
    lar = nc_get_be32(d + 12);
    bus = (uint64_t)nc_get_be32(d + 16) << 32 | nc_get_be32(d + 20);
    if (lar >= n->sram_size || n->sram_size - lar < len) {
        dma_stop(n, e, true);
        return;
    }
    buf = malloc(len ? len : 1);
    if (!buf) {
        dma_stop(n, e, true);
        return;
    }
    if (e == 0) {   /* LANai -> host */
        n->env.sram_read(n->env.opaque, lar, buf, len);
        ok = n->env.host_write(n->env.opaque, bus, buf, len);
    } else {        /* host -> LANai */
        ok = n->env.host_read(n->env.opaque, bus, buf, len);
        if (ok)
            n->env.sram_write(n->env.opaque, lar, buf, len);
    }
    /* status write-back: the 16-bit ones'-complement sum of the data */
    for (uint32_t i = 0; ok && i < len; i += 2)
        sum += (uint32_t)buf[i] << 8 | (i + 1 < len ? buf[i + 1] : 0);
    free(buf);
    if (!ok) {
        dma_stop(n, e, true);
        return;
    }
    while (sum >> 16)
        sum = (sum & 0xFFFF) + (sum >> 16);
    nc_put_be16(d + 4, (uint16_t)~sum);
    nc_put_be16(d + 6, 0);
    n->env.sram_write(n->env.opaque, desc + 4, d + 4, 4);
    n->counters_dma_blocks++;
    if (next & NIC_DMA_WAKE)
        n->isr_latched |= L9_ISR_WAKE0;
    if (next & NIC_DMA_TERMINAL) {
        dma_stop(n, e, false);
        return;
    }
    n->dma[e].desc = next & ~7u;
    dma_begin(n, e, n->dma[e].done_ps);
}

/* ---- time ----------------------------------------------------------------- */

static void catch_up(struct nic *n)
{
    uint64_t t = now(n);

    for (int i = 0; i < 3; i++)
        if (n->timer_deadline[i] && t >= n->timer_deadline[i]) {
            static const uint32_t bit[3] = { L9_ISR_TIME0, L9_ISR_TIME1, L9_ISR_TIME2 };
            n->isr_latched |= bit[i];
            n->timer_deadline[i] = 0;
        }
    for (int e = 0; e < 2; e++)
        while (n->dma[e].busy && t >= n->dma[e].done_ps)
            dma_complete(n, e);
    rx_catch_up(n, t);
}

static uint32_t isr_value(struct nic *n)
{
    uint32_t v = n->isr_latched;

    if (now(n) >= n->send_free_ps)
        v |= L9_ISR_SEND;
    if (n->link_down)
        v |= L9_ISR_LINK_DOWN;
    return v;
}

/* The interrupt line, and when the state changes next. */
static void update(struct nic *n)
{
    bool level = (isr_value(n) & n->eimr) != 0;
    uint64_t t = now(n), next = UINT64_MAX;

    if (level != n->irq_level) {
        n->irq_level = level;
        n->env.irq(n->env.opaque, level);
    }
#define CONSIDER(x) do { uint64_t x_ = (x); if (x_ > t && x_ < next) next = x_; } while (0)
    for (int i = 0; i < 3; i++)
        if (n->timer_deadline[i])
            CONSIDER(n->timer_deadline[i]);
    for (int e = 0; e < 2; e++)
        if (n->dma[e].busy)
            CONSIDER(n->dma[e].done_ps);
    if (n->rx_active) {
        if (n->rx_head_ps != UINT64_MAX)
            CONSIDER(n->rx_head_ps);
        if (n->rx_buff_ps)
            CONSIDER(n->rx_buff_ps);
        CONSIDER(n->rx_tail_ps);
    } else if (n->rx_armed && n->rxq_count) {
        CONSIDER(n->rxq[n->rxq_head].head_ps);
    } else if (n->rxq_count && n->rxq[n->rxq_head].held && n->rx_timeout_ps) {
        /* the head of the line waits for a buffer: its time-out */
        uint64_t ready = n->rxq[n->rxq_head].head_ps;
        if (n->rx_tail_ps > ready) ready = n->rx_tail_ps;
        if (n->rx_drop_ps > ready) ready = n->rx_drop_ps;
        CONSIDER(ready + n->rx_timeout_ps);
    }
    CONSIDER(n->send_free_ps);
#undef CONSIDER
    n->next_change_ps = next;
    if (next != UINT64_MAX)
        n->env.wake_at(n->env.opaque, next);
}

void nic_advance(struct nic *n)
{
    catch_up(n);
    update(n);
}

void nic_set_link(struct nic *n, bool up)
{
    catch_up(n);
    n->link_down = !up;
    update(n);
}

/* ---- send ----------------------------------------------------------------- */

static void send_piece(struct nic *n, uint32_t end, bool tail)
{
    uint64_t t = now(n), t0 = t > n->send_free_ps ? t : n->send_free_ps;
    uint32_t start = n->smp + n->sa, len;

    if (n->tx_pending) {
        /* the engine holds one packet while its link is stopped (a
         * firmware waits for ISR.SEND before it gives the next) */
        n->isr_latched |= L9_ISR_TX_TOO_LONG;
        return;
    }

    if (end < start || end > n->sram_size) {
        n->isr_latched |= L9_ISR_TX_TOO_LONG;   /* a piece that is not in SRAM */
        n->pkt_len = 0;
        return;
    }
    len = end - start;
    if (n->pkt_len + len > FABRIC_MAX_PACKET) {
        n->isr_latched |= L9_ISR_TX_TOO_LONG;
        n->pkt_overflow = true;
    } else {
        n->env.sram_read(n->env.opaque, start, n->pkt + n->pkt_len, len);
        n->pkt_len += len;
    }
    if (n->link_stops) {
        /* stopped: the packet leaves after the GO (nic_link_go) */
        if (tail && !n->pkt_overflow && n->pkt_len)
            n->tx_pending = true;
        else if (tail)
            n->pkt_len = 0, n->pkt_overflow = false;
        return;
    }
    n->send_free_ps = t0 + (uint64_t)len * n->tm.byte_ps;
    if (!tail)
        return;
    /* The whole packet enters the network when its last piece is given. */
    if (!n->pkt_overflow && n->pkt_len) {
        n->env.transmit(n->env.opaque, t0, n->pkt, n->pkt_len);
        n->counters_tx++;
        n->send_free_ps = t0 + (uint64_t)(n->pkt_len + 1) * n->tm.byte_ps;
    }
    n->pkt_len = 0;
    n->pkt_overflow = false;
}

void nic_link_stop(struct nic *n)
{
    uint64_t t = now(n);

    catch_up(n);
    if (n->link_stops++ == 0) {
        n->send_left_ps = n->send_free_ps > t ? n->send_free_ps - t : 0;
        n->send_free_ps = UINT64_MAX;
        n->tx_stop_ps = t;
        n->counters_tx_stops++;
    }
    update(n);
}

void nic_link_go(struct nic *n)
{
    uint64_t t = now(n);

    catch_up(n);
    if (n->link_stops && --n->link_stops == 0) {
        n->counters_tx_stopped_ps += t - n->tx_stop_ps;
        n->send_free_ps = t + n->send_left_ps;
        if (n->tx_pending) {
            uint64_t t0 = n->send_free_ps;
            n->env.transmit(n->env.opaque, t0, n->pkt, n->pkt_len);
            n->counters_tx++;
            n->send_free_ps = t0 + (uint64_t)(n->pkt_len + 1) * n->tm.byte_ps;
            n->tx_pending = false;
            n->pkt_len = 0;
        }
    }
    update(n);
}

/* ---- registers ------------------------------------------------------------ */

uint32_t nic_reg_read(struct nic *n, uint32_t off, bool from_host)
{
    uint32_t v = 0;
    uint64_t t = now(n);
    /* Nothing falls due before next_change_ps (update() computed it last,
     * and every change of state ends in update()): a read before then
     * finds the state as it is. Firmware polls ISR in tight loops. */
    bool fresh = t < n->next_change_ps;

    (void)from_host;
    if (!fresh)
        catch_up(n);
    switch (off) {
    case L9_ISR: v = isr_value(n); break;
    case L9_EIMR: v = n->eimr; break;
    case L9_IT0: case L9_IT1: case L9_IT2: {
        int i = off == L9_IT0 ? 0 : off == L9_IT1 ? 1 : 2;
        uint64_t dl = n->timer_deadline[i];
        v = dl > t ? (uint32_t)((dl - t + NIC_RTC_TICK_PS - 1) / NIC_RTC_TICK_PS) : 0;
        break;
    }
    case L9_RTC: v = (uint32_t)((int64_t)(t / NIC_RTC_TICK_PS) + n->rtc_offset); break;
    case L9_LAR: v = n->lar; break;
    case L9_CPUC: v = n->cpuc; break;
    case L9_RMW: v = n->rmw; break;
    case L9_RMC: v = n->rmc; break;
    case L9_RMP:
        if (n->rx_active) {
            /* bytes land at link speed after the head */
            uint64_t start = n->rx_tail_ps - (uint64_t)(n->rx_written + 1) * n->tm.byte_ps;
            uint64_t got = t > start ? (t - start) / n->tm.byte_ps : 0;
            v = n->rx_start + (uint32_t)(got < n->rx_written ? got : n->rx_written);
        } else {
            v = n->rmp;
        }
        break;
    case L9_RML: v = n->rml; break;
    case L9_SMP: v = n->smp; break;
    case L9_SMH: v = n->smh; break;
    case L9_SMC: v = n->smc; break;
    case L9_SA: v = n->sa; break;
    case L9_MYRINET: v = n->myrinet; break;
    case L9_DEBUG: v = n->debug; break;
    case L9_LED: v = n->led; break;
    case L9_GM_MP: v = n->gm_mp; break;
    case L9_CLOCK: v = n->clock; break;
    default: v = 0; break;   /* SML, SMLT, PULSE and unassigned offsets read 0 */
    }
    if (!fresh)
        update(n);
    return v;
}

bool nic_reg_varies_with_time(uint32_t off)
{
    return off == L9_RTC || off == L9_IT0 || off == L9_IT1 || off == L9_IT2 ||
           off == L9_RMP;
}

void nic_reg_write(struct nic *n, uint32_t off, uint32_t v, bool from_host)
{
    uint64_t t;

    catch_up(n);
    t = now(n);
    switch (off) {
    case L9_ISR: {
        /* write 1 to clear, except that the LANai sets HOST_SIG and the host
         * sets LANAI_SIG: each side raises the signal towards the other */
        uint32_t set = from_host ? L9_ISR_LANAI_SIG : L9_ISR_HOST_SIG;
        n->isr_latched = (n->isr_latched & ~(v & ~set)) | (v & set);
        break;
    }
    case L9_EIMR: n->eimr = v; break;
    case L9_IT0: case L9_IT1: case L9_IT2: {
        int i = off == L9_IT0 ? 0 : off == L9_IT1 ? 1 : 2;
        n->timer_deadline[i] = v ? t + (uint64_t)v * NIC_RTC_TICK_PS : 0;
        break;
    }
    case L9_RTC: n->rtc_offset = (int64_t)v - (int64_t)(t / NIC_RTC_TICK_PS); break;
    case L9_LAR: n->lar = v; break;
    case L9_CPUC: n->cpuc = v; break;
    case L9_PULSE: {
        int e = (v & 6) == NIC_PULSE_L2E ? 0 : (v & 6) == NIC_PULSE_E2L ? 1 : -1;
        if (e >= 0 && !n->dma[e].busy) {
            n->dma[e].busy = true;
            n->dma[e].desc = v & ~7u;
            dma_begin(n, e, t);
        }
        break;
    }
    case L9_RMW: n->rmw = v; break;
    case L9_RMC: n->rmc = v; break;
    case L9_RMP: if (!n->rx_active) n->rmp = v; break;
    case L9_RML:
        if (!n->rx_active) {
            n->rml = v;
            n->rx_armed = true;
            n->rx_arm_ps = t;
        }
        break;
    case L9_SMP: n->smp = v & ~7u; break;
    case L9_SMH: n->smh = v; break;
    case L9_SML: send_piece(n, v, false); break;
    case L9_SMLT: send_piece(n, v, true); break;
    case L9_SMC: n->smc = v; break;
    case L9_SA: n->sa = v & 7; break;
    case L9_MYRINET: n->myrinet = v; break;
    case L9_DEBUG: n->debug = v; break;
    case L9_LED: n->led = v; break;
    case L9_GM_MP: n->gm_mp = v; break;
    case L9_CLOCK: n->clock = v; break;
    default: break;   /* unassigned offsets ignore writes */
    }
    catch_up(n);      /* an armed buffer may take a queued packet at once */
    update(n);
}
