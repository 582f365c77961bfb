/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fabric timing model: routes, cut-through timing, contention, CRC-8
 * and faults (fabric.h has the equations). */
#include "fabric.h"
#include "swmcast.h"

#include <errno.h>
#include <pcap/pcap.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/*
 * A packet the fabric is working on. Channels are numbered: NIC i's link
 * to its switch is i, switch s port p's output is nnodes + s * 32 + p,
 * switch s's management port nnodes + nswitches * 32 + s.
 * A packet takes its channels 0..n in order; it takes channel h when it
 * is first in that channel's queue (packets that waited for it, in the
 * order the fabric was given them) and no other packet holds it (a packet
 * holds a channel from taking it until its release time is known).
 */
struct fab_pkt {
    uint64_t id;
    unsigned src, dst, n, k;     /* channels 0..n; k: the next to take */
    bool queued, held, inwork;
    /* its sender's link (docs/fabric.md "Back-pressure", the sender) */
    bool stalled;                /* stopped by flow control, GO not yet sent */
    bool out;                    /* the tail has left the sender: link freed */
    bool tail0_set;              /* resumed after a wait: tail0 is known */
    unsigned wait_h;             /* the channel it waits for (0: none) */
    uint64_t stop, left;         /* the STOP's time, the sender's work left then */
    uint64_t tail0;              /* when the tail leaves the sender, resumed */
    uint32_t ch[TOPO_MAX_HOPS + 1];
    uint64_t s[TOPO_MAX_HOPS + 1];   /* head enters channel h */
    uint64_t rel[TOPO_MAX_HOPS + 1]; /* held: release if taken at its head time */
    uint64_t t_send, delay, head;
    int corrupt_at;              /* byte to flip (-1: none) and its bit */
    uint8_t corrupt_bit;
    size_t len, route;
    uint8_t *pkt;
    unsigned hops;               /* switches crossed (pcap, delivery) */
    /* Switch multicast and management (docs/fabric.md "Switch multicast"):
     * a multicast packet travels as one fab_pkt per link of its tree, each
     * of a single channel (n 0), from a NIC or a switch (from_sw) to a NIC
     * or a switch (to_sw), where the switch's table makes the next ones.
     * A packet for a management port ends at switch to_sw; an agent's
     * answer starts at switch from_sw. orig: the packet as its sender sent
     * it, for the pcap record. */
    int from_sw, to_sw;
    bool mc;
    unsigned group, in_port;
    uint8_t *orig;
    size_t orig_len;
    uint64_t orig_t;
    struct fab_pkt *next_held;   /* held at the same receiver, in order */
    struct fab_pkt *next_work, *next_live, **prev_live;
};

struct fab_qent {
    struct fab_pkt *p;
    struct fab_qent *next;
};

/* pcap records wait here until every packet given before theirs has one */
struct fab_rec {
    uint64_t id;
    bool skip;                   /* an id with no record (a multicast tree's inner link) */
    struct pcap_pkthdr h;
    struct fab_rec *next;
    uint8_t data[];
};

struct fabric {
    const struct topo *t;
    struct fabric_timing tm;
    uint64_t rng;
    uint64_t last_send_ps;
    uint64_t *nic_free;          /* channel: NIC -> its switch */
    uint64_t *sw_free;           /* channel: switch s port p -> peer */
    /* back-pressure (all per channel, numbered as in struct fab_pkt) */
    struct fabric_bp bp;
    bool bp_on;
    uint64_t floor_ps, next_id, next_rec;
    uint64_t now_ps;             /* time of the send or report being worked on */
    struct fab_pkt **holder;
    struct fab_qent **qhead, **qtail;
    struct fab_pkt **held_head, **held_tail;    /* per receiver */
    unsigned *nheld;
    struct fab_pkt *work, *live;
    struct fab_rec *recs;
    struct fabric_delivery *scratch, *sync_out;
    struct fabric_fault_rule rules[FABRIC_MAX_RULES];
    unsigned nrules;
    FILE *fault_log;
    pcap_t *pcap;
    pcap_dumper_t *dumper;
    struct fabric_counters cnt;
    /* switch multicast and management agents */
    struct swmcast *mc;
    struct fabric_switch_mgmt mgmt;
    uint64_t *agent_free;
    unsigned *mc_held;      /* per switch: its copies held at a NIC's link */
    struct fab_ev *events;
    uint64_t ev_seq;
    struct fabric_mc_counters mcc;
};

/* A management agent's request, carried out at t. */
struct fab_ev {
    uint64_t t, seq;
    unsigned sw, status;
    struct swmgmt_req req;
    struct fab_ev *next;
};

/* an agent's answer: its route back and the management body */
#define FAB_ANSWER_MAX 64

static void arrive_switch(struct fabric *f, struct fab_pkt *p);
static int mcast_send(struct fabric *f, unsigned src, uint64_t t_ps, const uint8_t *pkt,
                      size_t len, struct fabric_delivery *out, uint64_t s0);
static uint32_t mgmt_chan(const struct fabric *f, unsigned sw);

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
    f->sw_free = calloc((size_t)t->nswitches * (TOPO_MAX_PORTS + 1) + 1, sizeof *f->sw_free);
    size_t nch = t->nnodes + (size_t)t->nswitches * (TOPO_MAX_PORTS + 1) + 1;
    f->holder = calloc(nch, sizeof *f->holder);
    f->qhead = calloc(nch, sizeof *f->qhead);
    f->qtail = calloc(nch, sizeof *f->qtail);
    f->held_head = calloc(t->nnodes + 1, sizeof *f->held_head);
    f->held_tail = calloc(t->nnodes + 1, sizeof *f->held_tail);
    f->nheld = calloc(t->nnodes + 1, sizeof *f->nheld);
    f->scratch = malloc(sizeof *f->scratch);
    f->next_rec = 1;
    f->mgmt.entries = FABRIC_MCAST_ENTRIES;
    f->mgmt.agent_ps = FABRIC_AGENT_PS;
    f->mgmt.mc_buffer = FABRIC_MC_BUFFER;
    f->agent_free = calloc(t->nswitches + 1, sizeof *f->agent_free);
    f->mc_held = calloc(t->nswitches + 1, sizeof *f->mc_held);
    f->mc = swmcast_new(t->nswitches, f->mgmt.entries);
    if (!f->agent_free || !f->mc_held || !f->mc ||
        !f->nic_free || !f->sw_free || !f->holder || !f->qhead || !f->qtail ||
        !f->held_head || !f->held_tail || !f->nheld || !f->scratch) {
        fabric_free(f);
        return NULL;
    }
    return f;
}

static void fabric_flush_records(struct fabric *f);

void fabric_free(struct fabric *f)
{
    if (!f)
        return;
    fabric_flush_records(f);
    if (f->dumper)
        pcap_dump_close(f->dumper);
    if (f->pcap)
        pcap_close(f->pcap);
    while (f->live) {
        struct fab_pkt *p = f->live;
        f->live = p->next_live;
        free(p->pkt);
        free(p->orig);
        free(p);
    }
    while (f->events) {
        struct fab_ev *e = f->events;
        f->events = e->next;
        free(e);
    }
    if (f->qhead)
        for (size_t c = 0; c < f->t->nnodes + (size_t)f->t->nswitches * (TOPO_MAX_PORTS + 1);
             c++)
            while (f->qhead[c]) {
                struct fab_qent *q = f->qhead[c];
                f->qhead[c] = q->next;
                free(q);
            }
    free(f->nic_free);
    free(f->sw_free);
    free(f->holder);
    free(f->qhead);
    free(f->qtail);
    free(f->held_head);
    free(f->held_tail);
    free(f->nheld);
    free(f->scratch);
    free(f->agent_free);
    free(f->mc_held);
    swmcast_free(f->mc);
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

/* ---- the packet trace (pcap) ---------------------------------------------- */

/* Records are written in the order the fabric was given the packets; one
 * whose fate is not known yet (held at its receiver, or waiting for a
 * channel) keeps the later ones back. */
static void write_records(struct fabric *f)
{
    while (f->recs && f->recs->id == f->next_rec) {
        struct fab_rec *r = f->recs;
        f->recs = r->next;
        if (!r->skip)
            pcap_dump((u_char *)f->dumper, &r->h, r->data);
        free(r);
        f->next_rec++;
    }
}

static void trace_rec(struct fabric *f, uint64_t id, unsigned src,
                      const struct fabric_delivery *d, uint64_t t_ps, const uint8_t *pkt,
                      size_t len, int status)
{
    struct fab_rec *r, **pp;
    uint8_t *rec;
    uint64_t v[3] = { t_ps, d->head_ps, d->tail_ps };

    if (!f->dumper)
        return;
    r = malloc(sizeof *r + 32 + len);
    if (!r)
        return;
    r->id = id;
    r->skip = false;
    rec = r->data;
    /* record: version, src, dst, status, hops, send/head/tail times (ps),
     * then the packet as sent (all big-endian) */
    rec[0] = 0; rec[1] = 1;
    rec[2] = (uint8_t)(src >> 8); rec[3] = (uint8_t)src;
    rec[4] = d->delivered ? (uint8_t)(d->dst >> 8) : 0xFF;
    rec[5] = d->delivered ? (uint8_t)d->dst : 0xFF;
    rec[6] = status >= 0 ? (uint8_t)status : !d->delivered ? 1 : !d->crc_ok ? 2 : 0;
    rec[7] = (uint8_t)d->hops;
    for (int k = 0; k < 3; k++)
        for (int b = 0; b < 8; b++)
            rec[8 + 8 * k + b] = (uint8_t)(v[k] >> (56 - 8 * b));
    memcpy(rec + 32, pkt, len);
    r->h.ts.tv_sec = (time_t)(t_ps / 1000000000000ull);
    r->h.ts.tv_usec = (suseconds_t)((t_ps / 1000) % 1000000000ull); /* ns precision */
    r->h.caplen = r->h.len = (bpf_u_int32)(32 + len);
    for (pp = &f->recs; *pp && (*pp)->id < id; pp = &(*pp)->next)
        ;
    r->next = *pp;
    *pp = r;
    write_records(f);
}

static void trace_id(struct fabric *f, uint64_t id, unsigned src,
                     const struct fabric_delivery *d, uint64_t t_ps, const uint8_t *pkt,
                     size_t len)
{
    trace_rec(f, id, src, d, t_ps, pkt, len, -1);
}

/* p's record: a multicast copy or a switch's answer shows the packet as
 * its sender sent it, at its send time. */
static void trace_pkt(struct fabric *f, struct fab_pkt *p, const struct fabric_delivery *d)
{
    if (p->orig)
        trace_id(f, p->id, p->src, d, p->orig_t, p->orig, p->orig_len);
    else
        trace_id(f, p->id, p->src, d, p->t_send, p->pkt, p->len);
}

/* An id that gets no record of its own (a multicast packet's link into a
 * switch that forwarded it). */
static void trace_skip(struct fabric *f, uint64_t id)
{
    struct fab_rec *r, **pp;

    if (!f->dumper)
        return;
    if (!(r = calloc(1, sizeof *r)))
        return;
    r->id = id;
    r->skip = true;
    for (pp = &f->recs; *pp && (*pp)->id < id; pp = &(*pp)->next)
        ;
    r->next = *pp;
    *pp = r;
    write_records(f);
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

/* At the end: packets still held or waiting are recorded as not delivered
 * (receiver and tail time 0xFFFF and 0 when they never reached it). */
static void fabric_flush_records(struct fabric *f)
{
    if (!f->dumper)
        return;
    for (struct fab_pkt *p = f->live; p; p = p->next_live) {
        struct fabric_delivery d = { .delivered = false, .dst = p->dst, .hops = p->hops,
                                     .head_ps = p->held ? p->head : 0 };
        trace_pkt(f, p, &d);
    }
    while (f->recs) {
        f->next_rec = f->recs->id;
        write_records(f);
    }
}

static int drop(struct fabric *f, unsigned src, uint64_t t_ps, const uint8_t *pkt,
                size_t len, struct fabric_delivery *out, const char *why, uint64_t s0)
{
    out->delivered = false;
    out->why = why;
    /* the sender's link carried the packet anyway (unless a held packet
     * has it: then this one is dropped at the sender) */
    if (!f->holder[src] && !f->qhead[src])
        f->nic_free[src] = s0 + (uint64_t)len * f->tm.byte_ps;
    f->cnt.dropped++;
    trace_id(f, f->next_id, src, out, t_ps, pkt, len);
    return 0;
}

/* ---- back-pressure: channels, queues, held packets ------------------------ */

void fabric_set_backpressure(struct fabric *f, const struct fabric_bp *bp)
{
    f->bp = *bp;
    f->bp_on = bp->room && bp->deliver;
}

void fabric_set_floor(struct fabric *f, uint64_t t_ps)
{
    f->floor_ps = t_ps;
}

static uint64_t *chan_free(struct fabric *f, uint32_t c)
{
    return c < f->t->nnodes ? &f->nic_free[c] : &f->sw_free[c - f->t->nnodes];
}

/* The first packet waiting for channel c may try again. */
static void kick(struct fabric *f, uint32_t c)
{
    struct fab_pkt *p = f->qhead[c] ? f->qhead[c]->p : NULL;

    if (p && !p->inwork) {
        p->inwork = true;
        p->next_work = NULL;
        /* FIFO: the packets are tried in the order they became ready */
        struct fab_pkt **pp = &f->work;
        while (*pp)
            pp = &(*pp)->next_work;
        *pp = p;
    }
}

/* Channel h of p is free from 'rel' on. */
static void release(struct fabric *f, struct fab_pkt *p, unsigned h, uint64_t rel)
{
    uint32_t c = p->ch[h];

    if (h < p->n && f->holder[c] != p)
        return;
    if (rel < f->floor_ps)
        rel = f->floor_ps;
    if (h < p->n)
        f->holder[c] = NULL;
    *chan_free(f, c) = rel;
    kick(f, c);
}

static void forget(struct fabric *f, struct fab_pkt *p)
{
    *p->prev_live = p->next_live;
    if (p->next_live)
        p->next_live->prev_live = p->prev_live;
    f->cnt.waiting--;
    free(p->pkt);
    free(p->orig);
    free(p);
}

/* The delivery record of p as if its head arrived at p->head. */
static struct fabric_delivery *record(struct fabric *f, struct fab_pkt *p)
{
    struct fabric_delivery *d = f->sync_out ? f->sync_out : f->scratch;

    memset(d, 0, offsetof(struct fabric_delivery, data));
    d->dst = p->dst;
    d->hops = p->hops;
    d->type = p->len - p->route >= 2 ?
              (uint16_t)(p->pkt[p->route] << 8 | p->pkt[p->route + 1]) : 0;
    d->head_ps = p->head;
    d->tail_ps = d->head_ps + (uint64_t)(p->len - p->n + 1) * f->tm.byte_ps;
    d->len = p->len - p->route;
    memcpy(d->data, p->pkt + p->route, d->len);
    /* Each hop checks and regenerates the CRC-8 over what it forwards; the
     * last one appends it over exactly what the receiver gets. */
    d->crc = crc8(0, d->data, d->len);
    if (p->corrupt_at >= 0)
        d->data[p->corrupt_at] ^= p->corrupt_bit;
    /* the receiver's check: only a flipped bit can make it fail, so an
     * untouched packet need not be summed twice */
    d->crc_ok = p->corrupt_at < 0 || crc8(0, d->data, d->len) == d->crc;
    d->delivered = true;
    d->id = p->id;
    return d;
}

uint64_t fabric_flow_back_ps(const struct fabric *f, unsigned hops)
{
    return (uint64_t)(hops + 1) * f->tm.cable_ps + (uint64_t)hops * f->tm.switch_ps;
}

/* When flow control that starts at the receiver's link at t gets back to
 * the sender. A packet that queued behind another for its receiver's link
 * can reach it (in the model) with a head time before the report that let
 * it go on: the STOP starts no earlier than the fabric learns of it, nor
 * before the floor, so that it never lands in a window that already ran. */
static uint64_t flow_back_from(const struct fabric *f, uint64_t t, unsigned hops)
{
    if (t < f->now_ps)
        t = f->now_ps;
    if (t < f->floor_ps)
        t = f->floor_ps;
    return t + fabric_flow_back_ps(f, hops);
}

/* p's head has reached its receiver's link. */
static void arrive(struct fabric *f, struct fab_pkt *p)
{
    const uint64_t hop = f->tm.cable_ps + f->tm.byte_ps + f->tm.switch_ps;
    const uint64_t *s = p->s;
    const size_t len = p->len;
    const unsigned n = p->n;
    bool take;
    uint64_t at = s[n] + f->tm.cable_ps;
    struct fabric_delivery *d;

    if (p->to_sw >= 0) {
        arrive_switch(f, p);
        return;
    }
    take = !f->bp_on || (!f->nheld[p->dst] && f->bp.room(f->bp.opaque, p->dst) > 0);

    p->head = at + p->delay;
    /* Release times: the tail passes channel h after the head reached the
     * last channel, minus the hops in between, plus the bytes left then.
     * Held, the sender's own link (h 0) stops only when the STOP gets back
     * to it: a tail that has left by then is out of the sender. */
    uint64_t stop = flow_back_from(f, p->head, n);
    for (unsigned h = 0; h <= n; h++) {
        uint64_t bytes = len - h + 1, rel = s[n] - (uint64_t)(n - h) * hop + bytes * f->tm.byte_ps;
        if (!h && p->out)
            continue;                   /* freed when the packet waited */
        if (!h && p->tail0_set)
            rel = p->tail0;             /* the sender resumed after a wait */
        if (take || (h < n && rel <= (h || p->from_sw >= 0 ? at : stop))) {
            release(f, p, h, rel);      /* the tail has left it */
        } else {
            p->rel[h] = rel;            /* busy until the receiver takes p */
            if (!h && p->from_sw < 0) {
                /* the sender's engine cannot finish until the GO */
                p->stalled = true;
                p->stop = stop;
                p->left = rel - stop;
                if (f->bp.tx_stop)
                    f->bp.tx_stop(f->bp.opaque, p->src, stop);
            }
        }
    }
    d = record(f, p);
    if (p->delay)
        f->cnt.delayed++;
    if (p->mc)
        f->mcc.copies++;
    if (take) {
        f->cnt.delivered++;
        trace_pkt(f, p, d);
        if ((f->bp_on || p->mc || p->from_sw >= 0) && f->bp.deliver)
            f->bp.deliver(f->bp.opaque, d);
        forget(f, p);
        return;
    }
    p->held = true;
    d->held = true;
    f->cnt.held++;
    f->nheld[p->dst]++;
    if (p->mc && p->from_sw >= 0)
        f->mc_held[p->from_sw]++;       /* in the switch's buffer until taken */
    p->next_held = NULL;
    if (f->held_tail[p->dst])
        f->held_tail[p->dst]->next_held = p;
    else
        f->held_head[p->dst] = p;
    f->held_tail[p->dst] = p;
    f->bp.deliver(f->bp.opaque, d);
}

/*
 * p's head waits for channel h (h >= 1) in the network, behind a held
 * packet or packets waiting for one: the STOP gets back to its sender as
 * for a held packet, counting the h switches it crossed. If the tail has
 * left the sender by then, the sender's link is free (the rest of the
 * packet waits in the network); if not, the link is stopped until the GO
 * (wait_over).
 */
static void wait_begins(struct fabric *f, struct fab_pkt *p, unsigned h)
{
    const uint64_t hop = f->tm.cable_ps + f->tm.byte_ps + f->tm.switch_ps;
    uint64_t ready = p->s[h - 1] + hop, stop, tail;

    if (p->out || p->stalled || p->from_sw >= 0)
        return;
    tail = p->tail0_set ? p->tail0
                        : ready - (uint64_t)h * hop + (uint64_t)(p->len + 1) * f->tm.byte_ps;
    stop = flow_back_from(f, ready, h);
    if (tail <= stop) {
        release(f, p, 0, tail);
        p->out = true;
        return;
    }
    p->stalled = true;
    p->wait_h = h;
    p->stop = stop;
    p->left = tail - stop;
    if (f->bp.tx_stop)
        f->bp.tx_stop(f->bp.opaque, p->src, stop);
}

/* p's head took channel h, which it waited for: the GO gets back to its
 * sender as long after, and the sender's engine does the work it had left. */
static void wait_over(struct fabric *f, struct fab_pkt *p, unsigned h)
{
    uint64_t go = flow_back_from(f, p->s[h], h);

    p->stalled = false;
    p->wait_h = 0;
    p->tail0 = go + p->left;
    p->tail0_set = true;
    if (f->bp.tx_go)
        f->bp.tx_go(f->bp.opaque, p->src, go);
}

/* Take p's channels as far as it can go now. */
static void advance(struct fabric *f, struct fab_pkt *p)
{
    const uint64_t hop = f->tm.cable_ps + f->tm.byte_ps + f->tm.switch_ps;

    while (p->k <= p->n) {
        unsigned h = p->k;
        uint32_t c = p->ch[h];
        struct fab_qent *q = f->qhead[c];

        if ((q && q->p != p) ||
            ((h < p->n || p->to_sw >= 0) && f->holder[c] && f->holder[c] != p)) {
            if (!p->queued) {
                /* wait, and keep its place for the channels after it */
                p->queued = true;
                for (unsigned j = h; j <= p->n; j++) {
                    struct fab_qent *e = malloc(sizeof *e);
                    if (!e)
                        abort();
                    e->p = p;
                    e->next = NULL;
                    if (f->qtail[p->ch[j]])
                        f->qtail[p->ch[j]]->next = e;
                    else
                        f->qhead[p->ch[j]] = e;
                    f->qtail[p->ch[j]] = e;
                }
            }
            if (h && f->bp_on)
                wait_begins(f, p, h);
            return;
        }
        if (q) {
            f->qhead[c] = q->next;
            if (!q->next)
                f->qtail[c] = NULL;
            free(q);
        }
        {
            uint64_t *s = p->s;
            uint64_t ready = h ? s[h - 1] + hop : p->t_send;
            uint64_t fr = *chan_free(f, c);
            s[h] = ready > fr ? ready : fr;
            if (h || p->from_sw >= 0)
                f->cnt.blocked_ps += s[h] - ready;
        }
        if (p->stalled && p->wait_h == h)
            wait_over(f, p, h);
        if (h < p->n)
            f->holder[c] = p;
        else if (p->to_sw < 0)
            kick(f, c);         /* the next packet for this receiver */
        p->k = h + 1;
    }
    arrive(f, p);
}

static void run_work(struct fabric *f)
{
    while (f->work) {
        struct fab_pkt *p = f->work;
        f->work = p->next_work;
        p->inwork = false;
        advance(f, p);
    }
}

void fabric_rx_done(struct fabric *f, unsigned dst, uint64_t id, uint64_t t_ps,
                    bool dropped)
{
    struct fab_pkt **pp, *p, *prev = NULL;
    struct fabric_delivery *d;

    if (dst >= f->t->nnodes)
        return;
    for (pp = &f->held_head[dst]; *pp && (*pp)->id != id; pp = &(*pp)->next_held)
        prev = *pp;
    if (!(p = *pp))
        return;
    *pp = p->next_held;
    if (f->held_tail[dst] == p)
        f->held_tail[dst] = prev;
    f->nheld[dst]--;
    if (p->mc && p->from_sw >= 0)
        f->mc_held[p->from_sw]--;
    d = record(f, p);
    uint64_t late = t_ps > p->head ? t_ps - p->head : 0, go = 0;
    f->now_ps = t_ps;
    if (p->stalled) {
        /* the GO gets back to the sender: its engine streams the rest of
         * the packet from then on (what was left when the STOP came), so
         * its link is free then; normally p->rel[0] + late */
        go = flow_back_from(f, t_ps, p->n);
        if (f->bp.tx_go)
            f->bp.tx_go(f->bp.opaque, p->src, go);
        go += p->left;
        p->stalled = false;
    }
    if (dropped) {
        /* the network discards what is left of it: its path is free (the
         * sender's link once the sender has streamed the rest away) */
        for (unsigned h = 0; h < p->n; h++)
            release(f, p, h, h || !go ? t_ps : go);
        if (!f->nheld[dst])
            release(f, p, p->n, t_ps);
        d->delivered = false;
        d->tail_ps = t_ps;
        f->cnt.timeouts++;
        f->cnt.dropped++;
    } else {
        /* the worm moves on, late by the time it waited */
        for (unsigned h = 0; h < p->n; h++)
            release(f, p, h, h || !go ? p->rel[h] + late : go);
        if (!f->nheld[dst])
            release(f, p, p->n, p->rel[p->n] + late);
        d->tail_ps += late;     /* the head reached the link on time */
        f->cnt.delivered++;
    }
    trace_pkt(f, p, d);
    forget(f, p);
    run_work(f);
}

/* ---- switch multicast and management agents (docs/fabric.md) --------------- */

static uint32_t mgmt_chan(const struct fabric *f, unsigned sw)
{
    return f->t->nnodes + f->t->nswitches * TOPO_MAX_PORTS + sw;
}

int fabric_set_switch_mgmt(struct fabric *f, const struct fabric_switch_mgmt *m)
{
    struct swmcast *mc;

    if (!m->entries || m->entries >= 0x3FFF || f->next_id)
        return -1;
    if (!(mc = swmcast_new(f->t->nswitches, m->entries)))
        return -1;
    swmcast_free(f->mc);
    f->mc = mc;
    f->mgmt = *m;
    if (!f->mgmt.mc_buffer)
        f->mgmt.mc_buffer = FABRIC_MC_BUFFER;
    return 0;
}

uint32_t fabric_mcast_entry(const struct fabric *f, unsigned sw, unsigned group)
{
    return swmcast_lookup(f->mc, sw, group);
}

unsigned fabric_mcast_used(const struct fabric *f, unsigned sw)
{
    return swmcast_used(f->mc, sw);
}

void fabric_get_mc_counters(const struct fabric *f, struct fabric_mc_counters *c)
{
    *c = f->mcc;
}

static void add_live(struct fabric *f, struct fab_pkt *p)
{
    p->next_live = f->live;
    if (f->live)
        f->live->prev_live = &p->next_live;
    p->prev_live = &f->live;
    f->live = p;
    f->cnt.waiting++;
}

/* p goes to the end of the work list (run_work takes its channels). */
static void add_work(struct fabric *f, struct fab_pkt *p)
{
    struct fab_pkt **pp = &f->work;

    p->inwork = true;
    p->next_work = NULL;
    while (*pp)
        pp = &(*pp)->next_work;
    *pp = p;
}

/* A multicast packet dropped at switch sw: counted, logged, and its pcap
 * record (status 3, the switch's table) under id. */
static void mc_drop(struct fabric *f, uint64_t id, const struct fab_pkt *p, unsigned sw,
                    uint64_t at, const char *why)
{
    struct fabric_delivery d = { .delivered = false, .dst = 0xFFFF, .hops = p->hops,
                                 .head_ps = at, .tail_ps = at, .why = why };

    f->mcc.dropped++;
    if (f->fault_log)
        fprintf(f->fault_log, "mcast %.3f us: group %u dropped at switch %s: %s\n",
                (double)at / 1e6, p->group, f->t->sw[sw].name, why);
    trace_rec(f, id, p->src, &d, p->orig_t, p->orig, p->orig_len, 3);
}

static struct fab_pkt *new_pkt(const uint8_t *pkt, size_t len)
{
    struct fab_pkt *p = calloc(1, sizeof *p);

    if (!p || !(p->pkt = malloc(len ? len : 1)))
        abort();
    memcpy(p->pkt, pkt, len);
    p->len = len;
    p->corrupt_at = -1;
    p->from_sw = p->to_sw = -1;
    return p;
}

/*
 * The fault rules on copy c of a multicast packet, made at t for NIC dst:
 * every corrupt rule (one bit of the copy flips after the CRC was
 * computed, as on a unicast packet's last link) and the drop and delay
 * rules that name a receiver (node=N with dir=rx or any), which the
 * sender's check (mcast_send) leaves to the copies. True: c is dropped.
 */
static bool copy_faults(struct fabric *f, struct fab_pkt *c, unsigned dst, uint64_t t)
{
    uint16_t type = c->len >= 2 ? (uint16_t)(c->pkt[0] << 8 | c->pkt[1]) : 0;
    bool corrupt = false;

    for (unsigned k = 0; k < f->nrules; k++) {
        struct fabric_fault_rule *r = &f->rules[k];

        if (r->kind != FAULT_CORRUPT && (r->node < 0 || r->dir == 0))
            continue;
        if (!fires(f, r, c->src, (int)dst, type, t))
            continue;
        if (r->kind == FAULT_DROP) {
            log_fault(f, t, "drop (multicast copy)", c->src, (int)dst, type);
            return true;
        }
        if (r->kind == FAULT_DELAY) {
            c->delay += r->delay_ps;
            log_fault(f, t, "delay (multicast copy)", c->src, (int)dst, type);
        } else if (r->kind == FAULT_CORRUPT && !corrupt && c->len) {
            corrupt = true;
            c->corrupt_at = (int)(next_rand(f) % c->len);
            c->corrupt_bit = (uint8_t)(1u << (next_rand(f) % 8));
            f->cnt.corrupted++;
            log_fault(f, t, "corrupt (multicast copy)", c->src, (int)dst, type);
        }
    }
    return false;
}

/*
 * A multicast packet's head reached switch p->to_sw at 'at' on port
 * p->in_port. The switch reads the group id (two bytes) and replicates the
 * packet to every other port of its entry: each copy starts on its output
 * port after the fall-through time, contending for it as a unicast packet
 * does, and carries the whole packet to a switch or, the group bytes
 * stripped, to a NIC.
 */
static void mc_branch(struct fabric *f, struct fab_pkt *p, uint64_t at)
{
    const unsigned sw = (unsigned)p->to_sw;
    const struct topo_switch *S = &f->t->sw[sw];
    const uint64_t look = at + 2 * f->tm.byte_ps;
    const uint32_t ports = swmcast_lookup(f->mc, sw, p->group);
    const char *why = NULL;

    if (!ports)
        why = "no entry for the group";
    else if (!(ports >> p->in_port & 1))
        why = "the entry does not hold the port the packet came in on";
    else if (!(ports & ~(1u << p->in_port)))
        why = "the entry holds no other port";
    else if (p->hops >= TOPO_MAX_HOPS)
        why = "the tree is deeper than the longest route";
    else if (f->mc_held[sw] >= f->mgmt.mc_buffer) {
        why = "the switch's replication buffer is full";
        f->mcc.buf_full++;
    }
    if (why) {
        mc_drop(f, p->id, p, sw, at, why);
        return;
    }
    trace_skip(f, p->id);
    for (unsigned q = 0; q < S->nports; q++) {
        const struct topo_peer *peer = &S->port[q];
        struct fab_pkt *c;

        if (q == p->in_port || !(ports >> q & 1))
            continue;
        f->next_id++;
        if (peer->kind == TOPO_FREE || link_down(f, -1, (int)sw, (int)q, look)) {
            mc_drop(f, f->next_id, p, sw, at, peer->kind == TOPO_FREE ?
                    "the entry names an unconnected port" : "the link of a port is down");
            continue;
        }
        if (peer->kind == TOPO_NODE) {
            c = new_pkt(p->pkt + 2, p->len - 2);    /* the NIC gets it from the type */
            c->dst = peer->id;
        } else {
            c = new_pkt(p->pkt, p->len);
            c->dst = FABRIC_SWITCH_SRC | peer->id;
            c->to_sw = peer->id;
            c->in_port = peer->port;
        }
        c->id = f->next_id;
        c->src = p->src;
        c->from_sw = (int)sw;
        c->mc = true;
        c->group = p->group;
        c->hops = p->hops + 1;
        c->ch[0] = f->t->nnodes + sw * TOPO_MAX_PORTS + q;
        c->t_send = look + f->tm.switch_ps;
        c->delay = p->delay;
        if (!(c->orig = malloc(p->orig_len)))
            abort();
        memcpy(c->orig, p->orig, p->orig_len);
        c->orig_len = p->orig_len;
        c->orig_t = p->orig_t;
        if (peer->kind == TOPO_NODE && copy_faults(f, c, peer->id, look)) {
            mc_drop(f, c->id, c, sw, at, "dropped by a fault rule");
            free(c->orig);
            free(c->pkt);
            free(c);
            continue;
        }
        add_live(f, c);
        add_work(f, c);
    }
}

/* A packet reached switch p->to_sw's management port: the agent takes the
 * request when it has finished the ones before it, and acts agent_ps later. */
static void mgmt_receive(struct fabric *f, struct fab_pkt *p)
{
    const unsigned sw = (unsigned)p->to_sw;
    struct fabric_delivery *d = record(f, p);
    struct swmgmt_req req;
    unsigned status;
    uint64_t done;
    struct fab_ev *e, **pp;

    f->mcc.mgmt_in++;
    trace_pkt(f, p, d);
    if (!d->crc_ok || swmgmt_parse(d->data, d->len, f->t->sw[sw].nports, &req, &status)) {
        f->mcc.mgmt_bad++;
        if (f->fault_log)
            fprintf(f->fault_log, "mgmt %.3f us: switch %s drops a request it cannot "
                    "answer (%s)\n", (double)d->tail_ps / 1e6, f->t->sw[sw].name,
                    d->crc_ok ? "not an SW_SET with a route back" : "CRC error");
        return;
    }
    done = (d->tail_ps > f->agent_free[sw] ? d->tail_ps : f->agent_free[sw]) +
           f->mgmt.agent_ps;
    f->agent_free[sw] = done;
    if (!(e = calloc(1, sizeof *e)))
        abort();
    e->t = done > f->now_ps ? done : f->now_ps;
    e->seq = ++f->ev_seq;
    e->sw = sw;
    e->status = status;
    e->req = req;
    for (pp = &f->events; *pp && ((*pp)->t < e->t || ((*pp)->t == e->t && (*pp)->seq < e->seq));
         pp = &(*pp)->next)
        ;
    e->next = *pp;
    *pp = e;
}

/* p (to a switch) has taken its channels; its head is there at s[n] + cable. */
static void arrive_switch(struct fabric *f, struct fab_pkt *p)
{
    const uint64_t hop = f->tm.cable_ps + f->tm.byte_ps + f->tm.switch_ps;
    const unsigned n = p->n;
    const uint64_t at = p->s[n] + f->tm.cable_ps;

    p->head = at + p->delay;
    for (unsigned h = 0; h <= n; h++) {
        uint64_t rel = p->s[n] - (uint64_t)(n - h) * hop +
                       (uint64_t)(p->len - h + 1) * f->tm.byte_ps;
        if (!h && p->out)
            continue;
        if (!h && p->tail0_set)
            rel = p->tail0;
        release(f, p, h, rel);
    }
    if (p->mc)
        mc_branch(f, p, at);
    else
        mgmt_receive(f, p);
    forget(f, p);
}

/* Switch sw's agent sends pkt (its route from sw on) at t. */
static void switch_send(struct fabric *f, unsigned sw, uint64_t t, const uint8_t *pkt,
                        size_t len)
{
    const struct topo *T = f->t;
    const unsigned src = FABRIC_SWITCH_SRC | sw;
    struct fab_pkt *p;
    uint32_t chan[TOPO_MAX_HOPS + 1];
    unsigned n = 0, at = sw;
    size_t i = 0;
    int dst = -1;
    const char *why = NULL;
    uint64_t delay = 0;

    f->next_id++;
    for (;;) {
        const struct topo_peer *q;
        unsigned port;

        if (i >= len || !(pkt[i] & 0x80) || n > TOPO_MAX_HOPS - 1) {
            why = "route ends inside the network";
            break;
        }
        port = pkt[i] & 0x3F;
        if (port >= T->sw[at].nports || (q = &T->sw[at].port[port])->kind == TOPO_FREE) {
            why = "route leads to no port";
            break;
        }
        if (link_down(f, -1, (int)at, (int)port, t)) {
            why = "link on the route is down";
            break;
        }
        chan[n++] = T->nnodes + at * TOPO_MAX_PORTS + port;
        i++;
        if (q->kind == TOPO_NODE) {
            dst = q->id;
            break;
        }
        at = q->id;
    }
    uint16_t type = len - i >= 2 ? (uint16_t)(pkt[i] << 8 | pkt[i + 1]) : 0;
    for (unsigned k = 0; !why && k < f->nrules; k++) {
        struct fabric_fault_rule *r = &f->rules[k];
        if (!fires(f, r, src, dst, type, t))
            continue;
        if (r->kind == FAULT_DROP) {
            log_fault(f, t, "drop", src, dst, type);
            why = "dropped by a fault rule";
        } else if (r->kind == FAULT_DELAY) {
            delay += r->delay_ps;
            log_fault(f, t, "delay", src, dst, type);
        }
    }
    if (why) {
        struct fabric_delivery d = { .delivered = false, .dst = 0xFFFF, .why = why };
        f->cnt.dropped++;
        trace_id(f, f->next_id, src, &d, t, pkt, len);
        return;
    }
    /* the first route byte is the origin's own port: consumed as it starts */
    p = new_pkt(pkt + 1, len - 1);
    p->id = f->next_id;
    p->src = src;
    p->dst = (unsigned)dst;
    p->from_sw = (int)sw;
    p->n = n - 1;
    p->hops = n;
    memcpy(p->ch, chan, sizeof chan[0] * n);
    p->t_send = t;
    p->delay = delay;
    p->route = i - 1;
    if (!(p->orig = malloc(len)))
        abort();
    memcpy(p->orig, pkt, len);
    p->orig_len = len;
    p->orig_t = t;
    add_live(f, p);
    advance(f, p);
    run_work(f);
}

uint64_t fabric_next_event(const struct fabric *f)
{
    return f->events ? f->events->t : UINT64_MAX;
}

void fabric_run_until(struct fabric *f, uint64_t t_ps)
{
    struct fabric_delivery *keep = f->sync_out;

    f->sync_out = NULL;
    while (f->events && f->events->t <= t_ps) {
        struct fab_ev *e = f->events;
        uint8_t ans[FAB_ANSWER_MAX];
        unsigned status = e->status;

        f->events = e->next;
        f->now_ps = e->t;
        if (status == 0) {
            status = swmgmt_apply(f->mc, e->sw, &e->req);
            if (status)
                f->mcc.mgmt_full++;
        }
        switch_send(f, e->sw, e->t, ans, swmgmt_answer(&e->req, status, ans));
        free(e);
    }
    f->sync_out = keep;
}

/* A multicast packet from NIC src (fabric.h): its first link, to the
 * sender's switch, whose table makes the rest. */
static int mcast_send(struct fabric *f, unsigned src, uint64_t t_ps, const uint8_t *pkt,
                      size_t len, struct fabric_delivery *out, uint64_t s0)
{
    const struct topo *t = f->t;
    unsigned group;
    uint64_t delay = 0;
    struct fab_pkt *p;

    if (len < 2)
        return drop(f, src, t_ps, pkt, len, out, "multicast destination cut short", s0);
    group = (unsigned)(pkt[0] & 0x3F) << 8 | pkt[1];
    if (group >= 0x3FFF)
        return drop(f, src, t_ps, pkt, len, out, "multicast group 0x3fff is reserved", s0);
    if (link_down(f, (int)src, -1, -1, s0)) {
        log_fault(f, t_ps, "drop (sender's link down)", src, -1, 0);
        return drop(f, src, t_ps, pkt, len, out, "sender's link is down", s0);
    }
    out->dst = 0xFFFF;
    out->type = len >= 4 ? (uint16_t)(pkt[2] << 8 | pkt[3]) : 0;
    /* drop and delay rules that name no receiver act on the whole packet,
     * here; corrupt rules and those that name a receiver act on each copy
     * to a NIC (copy_faults) */
    for (unsigned k = 0; k < f->nrules; k++) {
        struct fabric_fault_rule *r = &f->rules[k];
        if (r->kind == FAULT_CORRUPT || !fires(f, r, src, -1, out->type, t_ps))
            continue;
        if (r->kind == FAULT_DROP) {
            log_fault(f, t_ps, "drop", src, -1, out->type);
            return drop(f, src, t_ps, pkt, len, out, "dropped by a fault rule", s0);
        }
        if (r->kind == FAULT_DELAY) {
            delay += r->delay_ps;
            log_fault(f, t_ps, "delay", src, -1, out->type);
        }
    }
    p = new_pkt(pkt, len);
    p->id = f->next_id;
    p->src = src;
    p->dst = FABRIC_SWITCH_SRC | t->node[src].sw;
    p->to_sw = t->node[src].sw;
    p->in_port = t->node[src].port;
    p->mc = true;
    p->group = group;
    p->ch[0] = src;
    p->t_send = t_ps;
    p->delay = delay;
    if (!(p->orig = malloc(len)))
        abort();
    memcpy(p->orig, pkt, len);
    p->orig_len = len;
    p->orig_t = t_ps;
    add_live(f, p);
    f->sync_out = NULL;
    advance(f, p);
    run_work(f);
    return 0;
}

int fabric_send(struct fabric *f, unsigned src, uint64_t t_ps, const uint8_t *pkt,
                size_t len, struct fabric_delivery *out)
{
    const struct topo *t = f->t;
    uint32_t chan[TOPO_MAX_HOPS + 1];
    uint64_t s[1];
    unsigned n = 0, sw;
    size_t i = 0;
    int dst = -1;
    struct fab_pkt *p;

    memset(out, 0, offsetof(struct fabric_delivery, data));
    if (src >= t->nnodes) {
        out->why = "sender is not a node";
        return -1;
    }
    if (t_ps < f->last_send_ps) {
        out->why = "send out of time order";
        return -1;
    }
    if (len && (pkt[0] & 0xC0) == FABRIC_ROUTE_MCAST && !f->bp.deliver) {
        out->why = "a multicast packet needs a deliver callback (fabric_set_backpressure)";
        return -1;
    }
    fabric_run_until(f, t_ps);
    f->last_send_ps = t_ps;
    f->now_ps = t_ps;
    f->cnt.sent++;
    f->next_id++;
    out->id = f->next_id;
    s[0] = t_ps > f->nic_free[src] ? t_ps : f->nic_free[src];
    if (len > FABRIC_MAX_PACKET)
        return drop(f, src, t_ps, pkt, len > FABRIC_MAX_PACKET ? FABRIC_MAX_PACKET : len,
                    out, "packet longer than the fabric allows", s[0]);
    if (len && (pkt[0] & 0xC0) == FABRIC_ROUTE_MCAST)
        return mcast_send(f, src, t_ps, pkt, len, out, s[0]);

    /* Follow the route: one byte per switch. */
    sw = t->node[src].sw;
    if (link_down(f, (int)src, -1, -1, s[0])) {
        log_fault(f, t_ps, "drop (sender's link down)", src, -1, 0);
        return drop(f, src, t_ps, pkt, len, out, "sender's link is down", s[0]);
    }
    chan[0] = src;
    for (;;) {
        const struct topo_peer *q;
        unsigned port;

        if (i >= len || !(pkt[i] & 0x80))
            return drop(f, src, t_ps, pkt, len, out, "route ends inside the network", s[0]);
        if (pkt[i] == FABRIC_ROUTE_MGMT && n < TOPO_MAX_HOPS - 1) {
            /* the switch's management port: the route ends here */
            n++;
            chan[n] = mgmt_chan(f, sw);
            i++;
            dst = (int)(FABRIC_SWITCH_SRC | sw);
            break;
        }
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
        n++;
        chan[n] = t->nnodes + sw * TOPO_MAX_PORTS + port;
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
    bool to_mgmt = (unsigned)dst >= FABRIC_SWITCH_SRC;
    out->type = len - i >= 2 ? (uint16_t)(pkt[i] << 8 | pkt[i + 1]) : 0;

    /* Faults that act on the packet. */
    bool corrupt = false;
    uint64_t delay = 0;
    for (unsigned k = 0; k < f->nrules; k++) {
        struct fabric_fault_rule *r = &f->rules[k];
        if (!fires(f, r, src, to_mgmt ? -1 : dst, out->type, t_ps))
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

    p = calloc(1, sizeof *p);
    if (!p || !(p->pkt = malloc(len ? len : 1))) {
        free(p);
        out->why = "out of memory";
        return -1;
    }
    p->id = f->next_id;
    p->src = src;
    p->dst = (unsigned)dst;
    p->n = n;
    p->hops = n;
    p->from_sw = -1;
    p->to_sw = to_mgmt ? (int)sw : -1;
    memcpy(p->ch, chan, sizeof chan[0] * (n + 1));
    p->t_send = t_ps;
    p->delay = delay;
    p->len = len;
    p->route = i;
    memcpy(p->pkt, pkt, len);
    p->corrupt_at = -1;
    if (corrupt && len - i) {
        /* a bit flips on the last link, after the CRC was computed */
        p->corrupt_at = (int)(next_rand(f) % (len - i));
        p->corrupt_bit = (uint8_t)(1u << (next_rand(f) % 8));
        f->cnt.corrupted++;
    }
    add_live(f, p);
    /* Without back-pressure every packet goes through at once: its
     * delivery is *out. */
    f->sync_out = f->bp_on ? NULL : out;
    advance(f, p);
    run_work(f);
    f->sync_out = NULL;
    return 0;
}

bool fabric_node_link_up(const struct fabric *f, unsigned node, uint64_t t_ps)
{
    return node < f->t->nnodes && !link_down(f, (int)node, -1, -1, t_ps);
}

/* The first start or end of a link-down rule after t_ps: of node's link,
 * or (node < 0) of any node's. */
static uint64_t link_change_after(const struct fabric *f, int node, uint64_t t_ps)
{
    uint64_t next = UINT64_MAX;

    for (unsigned i = 0; i < f->nrules; i++) {
        const struct fabric_fault_rule *r = &f->rules[i];
        if (r->kind != FAULT_LINK_DOWN ||
            (node >= 0 ? r->node != node : r->node < 0 || (unsigned)r->node >= f->t->nnodes))
            continue;
        if (r->from_ps > t_ps && r->from_ps < next)
            next = r->from_ps;
        if (r->until_ps > t_ps && r->until_ps < next)
            next = r->until_ps;
    }
    return next;
}

uint64_t fabric_link_change_after(const struct fabric *f, unsigned node, uint64_t t_ps)
{
    return link_change_after(f, (int)node, t_ps);
}

uint64_t fabric_link_change_any_after(const struct fabric *f, uint64_t t_ps)
{
    return link_change_after(f, -1, t_ps);
}

uint64_t fabric_tx_free(const struct fabric *f, unsigned node)
{
    return node < f->t->nnodes ? f->nic_free[node] : 0;
}

void fabric_get_counters(const struct fabric *f, struct fabric_counters *c)
{
    *c = f->cnt;
}
