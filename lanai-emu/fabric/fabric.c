/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fabric timing model: routes, cut-through timing, contention, CRC-8
 * and faults (fabric.h has the equations). */
#include "fabric.h"

#include <errno.h>
#include <pcap/pcap.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct fabric {
    const struct topo *t;
    struct fabric_timing tm;
    uint64_t rng;
    uint64_t last_send_ps;
    uint64_t *nic_free;          /* channel: NIC -> its switch */
    uint64_t *sw_free;           /* channel: switch s port p -> peer */
    struct fabric_fault_rule rules[FABRIC_MAX_RULES];
    unsigned nrules;
    FILE *fault_log;
    pcap_t *pcap;
    pcap_dumper_t *dumper;
    struct fabric_counters cnt;
};

static uint64_t next_rand(struct fabric *f)
{
    uint64_t z = (f->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

struct fabric *fabric_new(const struct topo *t, const struct fabric_timing *tm,
                          uint64_t seed)
{
    struct fabric *f = calloc(1, sizeof *f);

    if (!f)
        return NULL;
    f->t = t;
    f->tm = *tm;
    f->rng = seed;
    f->nic_free = calloc(t->nnodes ? t->nnodes : 1, sizeof *f->nic_free);
    f->sw_free = calloc((size_t)t->nswitches * TOPO_MAX_PORTS, sizeof *f->sw_free);
    if (!f->nic_free || !f->sw_free) {
        fabric_free(f);
        return NULL;
    }
    return f;
}

void fabric_free(struct fabric *f)
{
    if (!f)
        return;
    if (f->dumper)
        pcap_dump_close(f->dumper);
    if (f->pcap)
        pcap_close(f->pcap);
    free(f->nic_free);
    free(f->sw_free);
    free(f);
}

void fabric_set_fault_log(struct fabric *f, FILE *log)
{
    f->fault_log = log;
}

/* ---- fault rules ------------------------------------------------------ */

static int ferr(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int ferr(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* "250ns", "5us", "1.5ms", "2s" (a bare number is nanoseconds) -> ps */
static int parse_time(const char *s, uint64_t *ps)
{
    char *end;
    double v;
    double scale = 1e3;

    errno = 0;
    v = strtod(s, &end);
    if (end == s || errno || v < 0)
        return -1;
    if (!strcmp(end, "ps")) scale = 1;
    else if (!strcmp(end, "ns") || !*end) scale = 1e3;
    else if (!strcmp(end, "us")) scale = 1e6;
    else if (!strcmp(end, "ms")) scale = 1e9;
    else if (!strcmp(end, "s")) scale = 1e12;
    else return -1;
    if (v * scale > 1.8e19)
        return -1;
    *ps = (uint64_t)(v * scale + 0.5);
    return 0;
}

static int parse_int(const char *s, long long min, long long max, long long *out)
{
    char *end;
    errno = 0;
    *out = strtoll(s, &end, 0);
    return (end == s || *end || errno || *out < min || *out > max) ? -1 : 0;
}

int fabric_add_fault(struct fabric *f, const char *spec, char *err, size_t errlen)
{
    struct fabric_fault_rule r = { 0 };
    char buf[256], *kv, *save = NULL, *colon;
    unsigned nfields = 0;

    if (f->nrules == FABRIC_MAX_RULES)
        return ferr(err, errlen, "fault '%s': more than %d rules", spec, FABRIC_MAX_RULES);
    if (strlen(spec) >= sizeof buf)
        return ferr(err, errlen, "fault rule too long");
    strcpy(buf, spec);
    colon = strchr(buf, ':');
    if (colon)
        *colon = 0;
    if (!strcmp(buf, "drop")) r.kind = FAULT_DROP;
    else if (!strcmp(buf, "corrupt")) r.kind = FAULT_CORRUPT;
    else if (!strcmp(buf, "delay")) r.kind = FAULT_DELAY;
    else if (!strcmp(buf, "down")) r.kind = FAULT_LINK_DOWN;
    else
        return ferr(err, errlen, "fault '%s': unknown kind '%s' (drop, corrupt, delay, down)",
                    spec, buf);
    r.node = -1;
    r.dir = 2;
    r.type = -1;
    r.link_sw = r.link_port = -1;
    for (kv = colon ? strtok_r(colon + 1, ",", &save) : NULL; kv;
         kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        long long v;
        const char *val;

        nfields++;
        if (!eq)
            return ferr(err, errlen, "fault '%s': '%s' is not key=value", spec, kv);
        *eq = 0;
        val = eq + 1;
        if (!strcmp(kv, "node")) {
            if (parse_int(val, 0, (long long)f->t->nnodes - 1, &v))
                return ferr(err, errlen, "fault '%s': node '%s' is not a node of this "
                            "network (0..%u)", spec, val, f->t->nnodes - 1);
            r.node = (int)v;
        } else if (!strcmp(kv, "dir")) {
            if (!strcmp(val, "tx")) r.dir = 0;
            else if (!strcmp(val, "rx")) r.dir = 1;
            else if (!strcmp(val, "any")) r.dir = 2;
            else return ferr(err, errlen, "fault '%s': dir '%s' (tx, rx or any)", spec, val);
        } else if (!strcmp(kv, "type")) {
            if (parse_int(val, 0, 0xFFFF, &v))
                return ferr(err, errlen, "fault '%s': type '%s' is not a 16-bit number",
                            spec, val);
            r.type = (int)v;
        } else if (!strcmp(kv, "nth")) {
            if (parse_int(val, 1, 1LL << 62, &v))
                return ferr(err, errlen, "fault '%s': nth '%s' is not a positive number",
                            spec, val);
            r.nth = (uint64_t)v;
        } else if (!strcmp(kv, "from") || !strcmp(kv, "until") || !strcmp(kv, "delay")) {
            uint64_t ps;
            if (parse_time(val, &ps))
                return ferr(err, errlen, "fault '%s': %s '%s' is not a time (e.g. 250ns, "
                            "5us, 1ms)", spec, kv, val);
            if (kv[0] == 'f') r.from_ps = ps;
            else if (kv[0] == 'u') r.until_ps = ps;
            else r.delay_ps = ps;
        } else if (!strcmp(kv, "prob")) {
            char *end;
            double p = strtod(val, &end);
            if (end == val || *end || !(p > 0 && p <= 1))
                return ferr(err, errlen, "fault '%s': prob '%s' is not in (0, 1]", spec, val);
            r.prob = p;
        } else if (!strcmp(kv, "link")) {
            const char *dot = strrchr(val, '.');
            unsigned s;
            if (!dot || parse_int(dot + 1, 0, TOPO_MAX_PORTS - 1, &v))
                return ferr(err, errlen, "fault '%s': link '%s' is not SWITCH.PORT", spec, val);
            for (s = 0; s < f->t->nswitches; s++)
                if (strlen(f->t->sw[s].name) == (size_t)(dot - val) &&
                    !strncmp(f->t->sw[s].name, val, (size_t)(dot - val)))
                    break;
            if (s == f->t->nswitches || v >= f->t->sw[s].nports)
                return ferr(err, errlen, "fault '%s': link '%s': no such switch port", spec,
                            val);
            r.link_sw = (int)s;
            r.link_port = (int)v;
        } else {
            return ferr(err, errlen, "fault '%s': unknown field '%s' (node, dir, type, nth, "
                        "from, until, prob, delay, link)", spec, kv);
        }
    }
    if (!nfields)
        return ferr(err, errlen, "fault '%s': no field; a rule needs at least one (node, dir, "
                    "type, nth, from, until, prob, delay, link; prob=1 for every packet)", spec);
    if (r.kind == FAULT_DELAY && !r.delay_ps)
        return ferr(err, errlen, "fault '%s': delay needs delay=TIME", spec);
    if (r.kind == FAULT_LINK_DOWN && r.node < 0 && r.link_sw < 0)
        return ferr(err, errlen, "fault '%s': down needs node=N or link=SWITCH.PORT", spec);
    if (r.kind != FAULT_LINK_DOWN && r.link_sw >= 0)
        return ferr(err, errlen, "fault '%s': link= only applies to 'down'", spec);
    if (r.nth && r.prob)
        return ferr(err, errlen, "fault '%s': give nth or prob, not both", spec);
    if (r.until_ps && r.until_ps <= r.from_ps)
        return ferr(err, errlen, "fault '%s': until must be after from", spec);
    f->rules[f->nrules++] = r;
    return 0;
}

/* ---- sending ---------------------------------------------------------- */

static void log_fault(struct fabric *f, uint64_t t_ps, const char *what, unsigned src,
                      int dst, uint16_t type)
{
    if (f->fault_log)
        fprintf(f->fault_log, "fault %.3f us: %s packet %u -> %d type 0x%04x\n",
                (double)t_ps / 1e6, what, src, dst, type);
}

static bool window(const struct fabric_fault_rule *r, uint64_t t)
{
    return t >= r->from_ps && (!r->until_ps || t < r->until_ps);
}

/* Does rule r fire for this packet? Updates its match counter. */
static bool fires(struct fabric *f, struct fabric_fault_rule *r, unsigned src, int dst,
                  int type, uint64_t t)
{
    if (r->kind == FAULT_LINK_DOWN)
        return false; /* checked per link, not per packet */
    if (r->node >= 0) {
        bool tx = (unsigned)r->node == src, rx = dst >= 0 && r->node == dst;
        if (r->dir == 0 ? !tx : r->dir == 1 ? !rx : !(tx || rx))
            return false;
    }
    if (r->type >= 0 && r->type != type)
        return false;
    if (!window(r, t))
        return false;
    r->matches++;
    if (r->nth)
        return r->matches == r->nth;
    if (r->prob)
        return (double)(next_rand(f) >> 11) / 9007199254740992.0 < r->prob;
    return true;
}

static bool link_down(const struct fabric *f, int node, int sw, int port, uint64_t t)
{
    for (unsigned i = 0; i < f->nrules; i++) {
        const struct fabric_fault_rule *r = &f->rules[i];
        if (r->kind != FAULT_LINK_DOWN || !window(r, t))
            continue;
        if (node >= 0 && r->node == node)
            return true;
        if (sw >= 0 && ((r->link_sw == sw && r->link_port == port) ||
                        /* the other end of a cable is the same link */
                        (r->link_sw >= 0 &&
                         f->t->sw[r->link_sw].port[r->link_port].kind == TOPO_SWITCH &&
                         f->t->sw[r->link_sw].port[r->link_port].id == sw &&
                         f->t->sw[r->link_sw].port[r->link_port].port == port)))
            return true;
        /* a switch port facing a NIC is that NIC's link */
        if (sw >= 0 && r->node >= 0 && f->t->node[r->node].sw == sw &&
            f->t->node[r->node].port == port)
            return true;
    }
    return false;
}

static void trace(struct fabric *f, unsigned src, const struct fabric_delivery *d,
                  uint64_t t_ps, const uint8_t *pkt, size_t len)
{
    uint8_t rec[40 + FABRIC_MAX_PACKET];
    struct pcap_pkthdr h;
    uint64_t v[3] = { t_ps, d->head_ps, d->tail_ps };

    if (!f->dumper)
        return;
    /* record: version, src, dst, status, hops, send/head/tail times (ps),
     * then the packet as sent (all big-endian) */
    rec[0] = 0; rec[1] = 1;
    rec[2] = (uint8_t)(src >> 8); rec[3] = (uint8_t)src;
    rec[4] = d->delivered ? (uint8_t)(d->dst >> 8) : 0xFF;
    rec[5] = d->delivered ? (uint8_t)d->dst : 0xFF;
    rec[6] = !d->delivered ? 1 : !d->crc_ok ? 2 : 0;
    rec[7] = (uint8_t)d->hops;
    for (int k = 0; k < 3; k++)
        for (int b = 0; b < 8; b++)
            rec[8 + 8 * k + b] = (uint8_t)(v[k] >> (56 - 8 * b));
    memcpy(rec + 32, pkt, len);
    h.ts.tv_sec = (time_t)(t_ps / 1000000000000ull);
    h.ts.tv_usec = (suseconds_t)((t_ps / 1000) % 1000000000ull); /* ns precision */
    h.caplen = h.len = (bpf_u_int32)(32 + len);
    pcap_dump((u_char *)f->dumper, &h, rec);
}

int fabric_open_pcap(struct fabric *f, const char *path, char *err, size_t errlen)
{
    f->pcap = pcap_open_dead_with_tstamp_precision(DLT_USER0, 65535,
                                                   PCAP_TSTAMP_PRECISION_NANO);
    if (!f->pcap)
        return ferr(err, errlen, "%s: cannot create a pcap handle", path);
    /* our own fopen, so that the message names the path once */
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return ferr(err, errlen, "'%s': %s", path, strerror(errno));
    f->dumper = pcap_dump_fopen(f->pcap, fp);
    if (!f->dumper) {
        fclose(fp);
        return ferr(err, errlen, "'%s': %s", path, pcap_geterr(f->pcap));
    }
    return 0;
}

static int drop(struct fabric *f, unsigned src, uint64_t t_ps, const uint8_t *pkt,
                size_t len, struct fabric_delivery *out, const char *why, uint64_t s0)
{
    out->delivered = false;
    out->why = why;
    /* the sender's link carried the packet anyway */
    f->nic_free[src] = s0 + (uint64_t)len * f->tm.byte_ps;
    f->cnt.dropped++;
    trace(f, src, out, t_ps, pkt, len);
    return 0;
}

int fabric_send(struct fabric *f, unsigned src, uint64_t t_ps, const uint8_t *pkt,
                size_t len, struct fabric_delivery *out)
{
    const struct topo *t = f->t;
    const uint64_t hop = f->tm.cable_ps + f->tm.byte_ps + f->tm.switch_ps;
    uint16_t chan_sw[TOPO_MAX_HOPS];
    uint8_t chan_port[TOPO_MAX_HOPS];
    uint64_t s[TOPO_MAX_HOPS + 1];
    unsigned n = 0, sw;
    size_t i = 0;
    int dst = -1;

    memset(out, 0, offsetof(struct fabric_delivery, data));
    if (src >= t->nnodes) {
        out->why = "sender is not a node";
        return -1;
    }
    if (t_ps < f->last_send_ps) {
        out->why = "send out of time order";
        return -1;
    }
    f->last_send_ps = t_ps;
    f->cnt.sent++;
    s[0] = t_ps > f->nic_free[src] ? t_ps : f->nic_free[src];
    if (len > FABRIC_MAX_PACKET)
        return drop(f, src, t_ps, pkt, len > FABRIC_MAX_PACKET ? FABRIC_MAX_PACKET : len,
                    out, "packet longer than the fabric allows", s[0]);

    /* Follow the route: one byte per switch. */
    sw = t->node[src].sw;
    if (link_down(f, (int)src, -1, -1, s[0])) {
        log_fault(f, t_ps, "drop (sender's link down)", src, -1, 0);
        return drop(f, src, t_ps, pkt, len, out, "sender's link is down", s[0]);
    }
    for (;;) {
        const struct topo_peer *q;
        unsigned port;

        if (i >= len || !(pkt[i] & 0x80))
            return drop(f, src, t_ps, pkt, len, out, "route ends inside the network", s[0]);
        port = pkt[i] & 0x3F;
        if (port >= t->sw[sw].nports || n >= TOPO_MAX_HOPS - 1)
            return drop(f, src, t_ps, pkt, len, out, "route byte names no port", s[0]);
        q = &t->sw[sw].port[port];
        if (q->kind == TOPO_FREE)
            return drop(f, src, t_ps, pkt, len, out, "route leads to an unconnected port",
                        s[0]);
        if (link_down(f, -1, (int)sw, (int)port, s[0])) {
            log_fault(f, t_ps, "drop (link on the route down)", src,
                      q->kind == TOPO_NODE ? q->id : -1, 0);
            return drop(f, src, t_ps, pkt, len, out, "link on the route is down", s[0]);
        }
        chan_sw[n] = (uint16_t)sw;
        chan_port[n] = (uint8_t)port;
        n++;
        i++;
        if (q->kind == TOPO_NODE) {
            dst = q->id;
            break;
        }
        sw = q->id;
    }
    if (i < len && (pkt[i] & 0x80))
        return drop(f, src, t_ps, pkt, len, out, "route is longer than the path", s[0]);
    out->dst = (unsigned)dst;
    out->hops = n;
    out->type = len - i >= 2 ? (uint16_t)(pkt[i] << 8 | pkt[i + 1]) : 0;

    /* Faults that act on the packet. */
    bool corrupt = false;
    uint64_t delay = 0;
    for (unsigned k = 0; k < f->nrules; k++) {
        struct fabric_fault_rule *r = &f->rules[k];
        if (!fires(f, r, src, dst, out->type, t_ps))
            continue;
        if (r->kind == FAULT_DROP) {
            log_fault(f, t_ps, "drop", src, dst, out->type);
            return drop(f, src, t_ps, pkt, len, out, "dropped by a fault rule", s[0]);
        }
        if (r->kind == FAULT_CORRUPT && !corrupt) {
            corrupt = true;
            log_fault(f, t_ps, "corrupt", src, dst, out->type);
        }
        if (r->kind == FAULT_DELAY) {
            delay += r->delay_ps;
            log_fault(f, t_ps, "delay", src, dst, out->type);
        }
    }

    /* Cut-through timing over channels 0 (NIC link) .. n (into the receiver). */
    for (unsigned h = 1; h <= n; h++) {
        uint64_t ready = s[h - 1] + hop;
        uint64_t fr = f->sw_free[chan_sw[h - 1] * TOPO_MAX_PORTS + chan_port[h - 1]];
        s[h] = ready > fr ? ready : fr;
        f->cnt.blocked_ps += s[h] - ready;
    }
    /* Release times: the tail passes channel h after the head reached the
     * last channel, minus the hops in between, plus the bytes left then. */
    for (unsigned h = 0; h <= n; h++) {
        uint64_t bytes = len - h + 1, rel = s[n] - (uint64_t)(n - h) * hop + bytes * f->tm.byte_ps;
        if (h == 0)
            f->nic_free[src] = rel;
        else
            f->sw_free[chan_sw[h - 1] * TOPO_MAX_PORTS + chan_port[h - 1]] = rel;
    }
    out->head_ps = s[n] + f->tm.cable_ps + delay;
    out->tail_ps = out->head_ps + (uint64_t)(len - n + 1) * f->tm.byte_ps;
    out->len = len - i;
    memcpy(out->data, pkt + i, out->len);
    /* Each hop checks and regenerates the CRC-8 over what it forwards; the
     * last one appends it over exactly what the receiver gets. */
    out->crc = crc8(0, out->data, out->len);
    if (corrupt && out->len) {
        /* a bit flips on the last link, after the CRC was computed */
        out->data[next_rand(f) % out->len] ^= (uint8_t)(1u << (next_rand(f) % 8));
        f->cnt.corrupted++;
    }
    /* the receiver's check: only a flipped bit can make it fail, so an
     * untouched packet need not be summed twice */
    out->crc_ok = !corrupt || crc8(0, out->data, out->len) == out->crc;
    if (delay)
        f->cnt.delayed++;
    out->delivered = true;
    f->cnt.delivered++;
    trace(f, src, out, t_ps, pkt, len);
    return 0;
}

bool fabric_node_link_up(const struct fabric *f, unsigned node, uint64_t t_ps)
{
    return node < f->t->nnodes && !link_down(f, (int)node, -1, -1, t_ps);
}

uint64_t fabric_link_change_after(const struct fabric *f, unsigned node, uint64_t t_ps)
{
    uint64_t next = UINT64_MAX;

    for (unsigned i = 0; i < f->nrules; i++) {
        const struct fabric_fault_rule *r = &f->rules[i];
        if (r->kind != FAULT_LINK_DOWN || r->node != (int)node)
            continue;
        if (r->from_ps > t_ps && r->from_ps < next)
            next = r->from_ps;
        if (r->until_ps > t_ps && r->until_ps < next)
            next = r->until_ps;
    }
    return next;
}

uint64_t fabric_tx_free(const struct fabric *f, unsigned node)
{
    return node < f->t->nnodes ? f->nic_free[node] : 0;
}

void fabric_get_counters(const struct fabric *f, struct fabric_counters *c)
{
    *c = f->cnt;
}
