/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hosts' console in the myrinet machine: what the host programs print,
 * as whole lines, each stamped with the host's time when the line began.
 * The lines of a window are printed when it closes, sorted by time, node
 * and creation order, so the output is the same however the hosts and
 * CPUs were interleaved: "[node 3 @ 32369.340000 us] text".
 */
#include "qemu/osdep.h"
#include "myrinet-base.h"

void mr_console_init(MyrinetState *m)
{
    m->lines = g_array_new(false, false, sizeof(MrLine));
}

static void emit_line(MrNode *n, uint64_t t_ps, const char *text, size_t len)
{
    MrLine l = {
        .at = { .t_ps = t_ps, .seq = ++n->m->seq, .node = n->id },
        .text = g_strndup(text, len),
    };
    g_array_append_val(n->m->lines, l);
}

/* Host text of node n at its time t_ps: lines are kept until they end. */
void mr_console(MrNode *n, uint64_t t_ps, const char *text, size_t len)
{
    while (len) {
        const char *nl = memchr(text, '\n', len);
        size_t k = nl ? (size_t)(nl - text) : len;

        if (!n->line->len) {
            n->line_ps = t_ps;
        }
        g_string_append_len(n->line, text, k);
        if (!nl) {
            return;
        }
        emit_line(n, n->line_ps, n->line->str, n->line->len);
        g_string_truncate(n->line, 0);
        text += k + 1;
        len -= k + 1;
    }
}

/* Print the lines gathered so far (sorted by time and node). */
void mr_console_flush(MyrinetState *m)
{
    if (!m->lines->len) {
        return;
    }
    g_array_sort(m->lines, mr_order_cmp);
    for (guint i = 0; i < m->lines->len; i++) {
        MrLine *l = &g_array_index(m->lines, MrLine, i);
        printf("[node %u @ %" PRIu64 ".%06" PRIu64 " us] %s\n", l->at.node,
               l->at.t_ps / 1000000, l->at.t_ps % 1000000, l->text);
        g_free(l->text);
    }
    g_array_set_size(m->lines, 0);
    fflush(stdout);
}

/* The run ends: a line not ended by a newline is a line too. */
void mr_console_end(MyrinetState *m)
{
    for (unsigned i = 0; i < m->nodes; i++) {
        MrNode *n = &m->node[i];
        if (n->line->len) {
            emit_line(n, n->line_ps, n->line->str, n->line->len);
            g_string_truncate(n->line, 0);
        }
    }
    mr_console_flush(m);
}
