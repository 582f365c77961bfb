/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The myrinet machine's event trace (trace=FILE, lanai-run --trace;
 * docs/myrinet.md, "Event trace"): one line per thing that happens to a
 * node, in the order the machine applies them, "<time ps> node <n> <what>".
 * Deterministic like the rest, so that runs can be compared byte for byte.
 */
#include "qemu/osdep.h"
#include "myrinet-base.h"

/* Returns 0, or -1 with errno set. */
int mr_trace_open(MyrinetState *m, const char *path)
{
    m->trace_f = fopen(path, "w");
    return m->trace_f ? 0 : -1;
}

void mr_trace(MrNode *n, uint64_t t_ps, const char *fmt, ...)
{
    FILE *f = n->m->trace_f;
    va_list ap;

    if (!f) {
        return;
    }
    fprintf(f, "%" PRIu64 " node %u ", t_ps, n->id);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
}

void mr_trace_event(MrNode *n, const MrEvent *e)
{
    switch (e->kind) {
    case MR_EV_PIO_WRITE:
        mr_trace(n, e->t_ps, "pio-write 0x%06x = 0x%08x", e->off, e->val);
        break;
    case MR_EV_PIO_WRITE_BLOCK:
        mr_trace(n, e->t_ps, "pio-write-block 0x%06x %u bytes", e->off, e->len);
        break;
    case MR_EV_PIO_READ:
        mr_trace(n, e->t_ps, "pio-read 0x%06x", e->off);
        break;
    case MR_EV_PIO_READ_BLOCK:
        mr_trace(n, e->t_ps, "pio-read-block 0x%06x %u bytes", e->off, e->len);
        break;
    case MR_EV_PACKET:
        if (e->pkt->held) {
            /* its "packet" line comes when the NIC takes it (mr_rx_done) */
            mr_trace(n, e->t_ps, "held at the link: %zu bytes, head there "
                     "at %" PRIu64 " (fabric id %" PRIu64 ")",
                     e->pkt->len, e->pkt->head_ps, e->pkt->id);
            break;
        }
        mr_trace(n, e->t_ps, "packet %zu bytes, tail at %" PRIu64 ", crc %s",
                 e->pkt->len, e->pkt->tail_ps, e->pkt->crc_ok ? "ok" : "bad");
        break;
    case MR_EV_LINK:
        mr_trace(n, e->t_ps, "link %s", e->val ? "up" : "down");
        break;
    case MR_EV_TX_FLOW:
        mr_trace(n, e->t_ps, "send link %s", e->val ? "go (flow control)"
                                                   : "stopped (flow control)");
        break;
    }
}

void mr_trace_close(MyrinetState *m)
{
    if (m->trace_f) {
        fclose(m->trace_f);
    }
}
