/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host signals (docs/libnicoll.md "Host signals"; firmware/coll/signal.c):
 * a port's signals on and off, sends of the signalling type, and the
 * handler that runs when one of them arrives while signals are on.
 *
 * The NIC raises the signal as ISR.TIME2, which the board's interrupt mask
 * routes to the line only while a port has signals on (HOST_SIG, every
 * event's wake-up, then reaches the line only while nc_wait sleeps). The
 * backend's signal (the emulated host's nc_host_signal; a real board has
 * none here yet: NC_ENOTSUP) runs sig_entry, which clears TIME2, reads ISR
 * back (the clear has landed: a signal raised after it raises the line
 * again, so none falls between the clear and the handler's poll), and
 * calls each port's handler. A signal that comes while the library is
 * writing a command or polling waits until that call ends (ncp_leave):
 * the handler uses the same rings.
 */
#include <string.h>

#include "nicoll/lanai9_regs.h"
#include "nicoll/nc_abi.h"
#include "nicoll/nc_endian.h"
#include "nc_backend.h"
#include "nc_internal.h"
#include "nicoll.h"

#define ENABLE_WAIT_NS 10000000ull  /* the NIC takes a SET in microseconds; 10 ms: not answering */

static struct sigport {
    nc_port *p;
    nc_signal_fn fn;
    void *arg;
    volatile uint8_t *word;         /* the signal word (NC_SIG_WORD_BYTES), big-endian */
    uint64_t bus;
    uint32_t seq;
    bool on;
} sp[NC_PORTS];
static unsigned nsp;
static unsigned busy;               /* library calls under way (ncp_enter) */
static bool deferred;               /* a signal came during one */

static void sig_entry(void);

void ncp_enter(void)
{
    busy++;
}

void ncp_leave(void)
{
    if (--busy == 0 && deferred) {
        deferred = false;
        sig_entry();
    }
}

static struct sigport *find(nc_port *p)
{
    for (unsigned i = 0; i < nsp; i++)
        if (sp[i].p == p)
            return &sp[i];
    return NULL;
}

static void sig_entry(void)
{
    struct nc_backend *be;

    if (busy) {
        deferred = true;
        return;
    }
    if (!nsp)
        return;
    be = ncp_backend(sp[0].p);
    be->write32(be, L9_BAR_SPECIAL + L9_ISR, L9_ISR_TIME2);
    (void)be->read32(be, L9_BAR_SPECIAL + L9_ISR);
    for (unsigned i = 0; i < nsp; i++)
        if (sp[i].on && sp[i].fn)
            sp[i].fn(sp[i].p, sp[i].arg);
}

/* p's entry, with its signal word, made at its first use */
static int entry_of(nc_port *p, struct sigport **out)
{
    struct sigport *s = find(p);
    struct nc_backend *be;

    if (!s) {
        if (nsp == NC_PORTS)
            return NC_ENORES;
        be = ncp_backend(p);
        if (!be->signal)
            return NC_ENOTSUP;
        s = &sp[nsp];
        memset(s, 0, sizeof *s);
        s->word = be->dma_alloc(be, 64, &s->bus);
        if (!s->word)
            return NC_ENOMEM;
        memset((void *)s->word, 0, NC_SIG_WORD_BYTES);
        s->p = p;
        nsp++;
        if (nsp == 1)
            be->signal(be, sig_entry);
    }
    *out = s;
    return NC_OK;
}

int nc_signal_handler(nc_port *p, nc_signal_fn fn, void *arg)
{
    struct sigport *s;
    int rc;

    if (!p)
        return NC_EINVAL;
    if ((rc = entry_of(p, &s)) != NC_OK)
        return rc;
    s->fn = fn;
    s->arg = arg;
    return NC_OK;
}

static bool any_on(void)
{
    for (unsigned i = 0; i < nsp; i++)
        if (sp[i].on)
            return true;
    return false;
}

static int set(struct sigport *s, bool on)
{
    union nc_cmd c = { .sig_set = { .op = NC_CMD_SIGNAL, .sig_op = NC_SIG_OP_SET, .on = on,
                                    .bus_hi = (uint32_t)(s->bus >> 32), .bus_lo = (uint32_t)s->bus,
                                    .seq = ++s->seq } };

    return ncp_post(s->p, &c);
}

int nc_signal_enable(nc_port *p)
{
    struct sigport *s;
    struct nc_backend *be;
    uint64_t start;
    int rc;

    if (!p)
        return NC_EINVAL;
    if ((rc = entry_of(p, &s)) != NC_OK)
        return rc;
    if (s->on)
        return NC_OK;
    be = ncp_backend(p);
    if (!any_on()) {
        /* a TIME2 left from before is no signal of this */
        be->write32(be, L9_BAR_SPECIAL + L9_ISR, L9_ISR_TIME2);
        ncp_eimr(p, L9_ISR_TIME2);
    }
    if ((rc = set(s, true)) != NC_OK)
        return rc;
    s->on = true;
    /* every event posted before the NIC took it is in host memory once the
     * word shows its seq; later ones signal */
    start = be->now_ns(be);
    while (nc_get_be32((const uint8_t *)s->word) != s->seq) {
        if (be->now_ns(be) - start > ENABLE_WAIT_NS)
            return NC_ENODEV;
        be->poll_cost(be);
    }
    return NC_OK;
}

int nc_signal_disable(nc_port *p)
{
    struct sigport *s = p ? find(p) : NULL;
    int rc;

    if (!p)
        return NC_EINVAL;
    if (!s || !s->on)
        return NC_OK;
    s->on = false;
    if ((rc = set(s, false)) != NC_OK)
        return rc;
    if (!any_on())
        ncp_eimr(p, L9_ISR_HOST_SIG);
    return NC_OK;
}

bool nc_signal_on(const nc_port *p)
{
    for (unsigned i = 0; i < nsp; i++)
        if (sp[i].p == p)
            return sp[i].on;
    return false;
}

unsigned long nc_signal_count(const nc_port *p)
{
    for (unsigned i = 0; i < nsp; i++)
        if (sp[i].p == p)
            return nc_get_be32((const uint8_t *)sp[i].word + 4);
    return 0;
}

int nc_signal_send(nc_port *p, unsigned node, unsigned port, const void *buf, size_t len,
                   void *ctx)
{
    union nc_cmd c;
    uint64_t bus;
    int k, rc;

    if (!p || node >= nc_node_count(p) || port >= NC_ABI_PORTS || !len || !buf ||
        len > NC_ABI_SIG_MAX)
        return NC_EINVAL;
    if ((rc = nc_bus_address(p, buf, len, &bus)) != NC_OK)
        return rc;
    if ((k = ncp_send_token(p, ctx, buf, len, node, port)) < 0)
        return NC_EAGAIN;
    c.sig_send = (struct nc_cmd_sig_send){ .op = NC_CMD_SIGNAL, .sig_op = NC_SIG_OP_SEND,
                                           .bus_hi = (uint32_t)(bus >> 32), .bus_lo = (uint32_t)bus,
                                           .len = (uint32_t)len, .dst = node << 8 | port,
                                           .cookie = (uint32_t)k };
    if ((rc = ncp_post(p, &c)) != NC_OK)
        ncp_send_token_drop(p, (unsigned)k);
    return rc;
}

void ncp_signal_forget(nc_port *p)
{
    for (unsigned i = 0; i < nsp; i++)
        if (sp[i].p == p) {
            sp[i] = sp[--nsp];
            break;
        }
    if (!any_on() && nsp)
        ncp_eimr(sp[0].p, L9_ISR_HOST_SIG);
}
