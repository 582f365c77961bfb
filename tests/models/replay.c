/*
 * replay: check that the C protocol cores of ref/proto make the same
 * decisions as the SPIN models, on traces of seeded random simulations.
 *
 *   spin -DTRACE -n<seed> -u<steps> mcast_order.pml        | replay mc N FANOUT M P W
 *   spin -DTRACE -n<seed> -u<steps> barrier_unexpected.pml | replay br NS PORTS
 *   spin -DTRACE -n<seed> -u<steps> p2p_reliable.pml       | replay pp W
 *   spin -DTRACE -n<seed> -u<steps> p2p_pingpong.pml       | replay pp W
 *
 * The models print one line per protocol decision (see TR(...) in the .pml
 * files); every line is replayed on the C state and the C answer compared
 * with the model's:
 *   (mc: one nc_mcgroup per node of the model's tree, the root NC_MG_ROOT,
 *   nodes with children NC_MG_INNER, the others NC_MG_LEAF; P packets per
 *   message, window W)
 *   MC PUSH node seq                  the root: nc_mg_push returns seq; an
 *                                     inner node: the packet it just took is
 *                                     the last of its window (same number)
 *   MC RX node seq verdict ack        nc_mg_classify: same verdict (0 take,
 *                                     1 duplicate, 2 dropped); take:
 *                                     nc_mg_take; duplicate: nc_mg_up_ack is
 *                                     the model's re-ack `ack'
 *   MC ACK node child ack released msgs up
 *                                     nc_mg_child_ack returns `released'; the
 *                                     node's current message is released
 *                                     (nc_mg_msg_done) iff msgs > 0; an inner
 *                                     node's nc_mg_ack_due sends `up' (0: none)
 *   MC RESEND node child first count  the packets nc_mg_resend_mask sends to
 *                                     child are exactly first .. first+count-1
 *   BR OPEN s mask                    nc_bar_open + nc_bar_next_reject reject
 *                                     exactly the endpoints in mask
 *   BR CLOSE s                        nc_bar_close
 *   BR RECV dst src verdict           nc_bar_receive: 0 recorded, 1 duplicate,
 *                                     2 held (endpoint closed)
 *   BR TAKE dst src hit               nc_bar_test_and_clear returns hit
 *   (ab: one nc_abq_t, children 0 .. NC-1, an early contribution of child k
 *   to instance i held in slot i * NC + k)
 *   AB BEGIN inst d                   nc_ab_begin returns descriptor d
 *   AB ARRIVE inst src verdict d c    nc_ab_arrive: same verdict (0 counted,
 *                                     1 complete, 2 unmatched, 3 refused) and,
 *                                     matched, the same descriptor and child
 *   AB HOLD inst src                  nc_ab_hold takes it
 *   AB TAKE inst src hit              nc_ab_take_early finds it (its slot) iff hit
 *   AB END d                          nc_ab_end
 *   PP PUSH dir seq                   nc_tx_push on direction dir's send window
 *                                     (at node dir) returns seq
 *   PP RX node seq verdict reply      nc_rx_receive on the receive window at
 *                                     node: same verdict and the same reply
 *                                     (ACK reply, or for a gap NACK reply)
 *   PP ACK dir ack released           nc_tx_ack returns `released'
 *   PP NACK dir want count first      nc_tx_nack returns count, *first = first
 *   PP TIMEOUT dir first count        nc_tx_timeout gives the same range
 *   PP REJECT dir seq kind released   tx_reject as firmware/mcp/tx.c does it on
 *                                     nc_seq: kind 1 = stale (outside the window,
 *                                     nc_seq_distance >= count), else inside;
 *                                     kind 0 = processed: nc_tx_ack(seq-1)
 *                                     frees `released', then nc_tx_init(seq);
 *                                     kind 2 = ignored as naming the FENCE
 *                                     (tx.c since the model found it)
 * Lines of other prefixes (the models' INFO lines) are ignored.
 * Exit status 0 when every line agrees; the first disagreements are printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nc_seq.h"
#include "nc_mcack.h"
#include "nc_mcgroup.h"
#include "nc_barrec.h"
#include "nc_abred.h"

#define MAXN 16

static nc_mg_t mg[MAXN];
static uint32_t cur[MAXN];                 /* mc: the message each node is on (1..) */
static nc_barrec_t br[MAXN];
static nc_tx_t tx[2];                      /* pp: send window of direction d */
static nc_rx_t prx[2];                     /* pp: receive window at node n */
static nc_abq_t abq;                       /* ab: the process's queues */
static uint32_t abchild[NC_AB_CHILDREN];
static int N, FANOUT, M, P, NS, PORTS, W, NCH;
static long lines, bad;

static void mismatch(long ln, const char *what, const char *line)
{
    bad++;
    if (bad <= 10)
        fprintf(stderr, "replay: line %ld: %s: %s", ln, what, line);
}

static int kids(int i)
{
    int first = i * FANOUT + 1, n = 0;
    for (int j = 0; j < FANOUT; j++)
        if (first + j < N)
            n++;
    return n;
}

static int usage(void)
{
    fprintf(stderr, "usage: replay mc N FANOUT M P W  |  replay br NS PORTS  |  replay pp W"
                    "  |  replay ab NC   (trace on stdin)\n");
    return 2;
}

int main(int argc, char **argv)
{
    int is_mc = 0, is_pp = 0, is_ab = 0;
    if (argc < 2)
        return usage();
    if (strcmp(argv[1], "mc") == 0 && argc == 7) {
        is_mc = 1;
        N = atoi(argv[2]); FANOUT = atoi(argv[3]); M = atoi(argv[4]);
        P = atoi(argv[5]); W = atoi(argv[6]);
        if (N < 2 || N > MAXN || FANOUT < 1 || FANOUT > 3 || M < 1 || P < 1 || M * P > 255
            || W < 1 || W > (int)NC_TX_WINDOW_MAX) {
            fprintf(stderr, "replay: bad parameters N=%d FANOUT=%d M=%d P=%d W=%d\n", N, FANOUT, M, P, W);
            return 2;
        }
        for (int i = 0; i < N; i++) {
            uint32_t role = i == 0 ? NC_MG_ROOT : kids(i) > 0 ? NC_MG_INNER : NC_MG_LEAF;
            /* the models number from 1; an inner node's window is its
             * parent's at most (the model bounds only the root's) */
            nc_mg_init(&mg[i], role, (uint32_t)kids(i), 1, (uint32_t)W);
            cur[i] = 1;
        }
    } else if (strcmp(argv[1], "br") == 0 && argc == 4) {
        is_mc = 0;
        NS = atoi(argv[2]); PORTS = atoi(argv[3]);
        if (NS < 2 || NS > 8 || PORTS < 1 || PORTS > 8) {
            fprintf(stderr, "replay: bad parameters NS=%d PORTS=%d\n", NS, PORTS);
            return 2;
        }
        for (int s = 0; s < NS; s++)
            nc_bar_init(&br[s]);                   /* every endpoint starts closed */
    } else if (strcmp(argv[1], "ab") == 0 && argc == 3) {
        is_ab = 1;
        NCH = atoi(argv[2]);
        if (NCH < 1 || NCH > (int)NC_AB_CHILDREN) {
            fprintf(stderr, "replay: bad parameter NC=%d\n", NCH);
            return 2;
        }
        for (int k = 0; k < NCH; k++)
            abchild[k] = (uint32_t)k;
        nc_ab_init(&abq);
    } else if (strcmp(argv[1], "pp") == 0 && argc == 3) {
        is_pp = 1;
        W = atoi(argv[2]);
        if (W < 1 || W > (int)NC_TX_WINDOW_MAX) {
            fprintf(stderr, "replay: bad parameter W=%d\n", W);
            return 2;
        }
        for (int i = 0; i < 2; i++) {
            nc_tx_init(&tx[i], 1, (uint32_t)W);    /* the model numbers from 1 */
            nc_rx_init(&prx[i], 1);
        }
    } else {
        return usage();
    }

    char line[512];
    long ln = 0;
    while (fgets(line, sizeof line, stdin)) {
        ln++;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        int a, b, c, d;
        char op[16];
        if (is_mc && strncmp(p, "MC ", 3) == 0) {
            lines++;
            if (sscanf(p + 3, "%15s", op) != 1) { mismatch(ln, "unreadable", line); continue; }
            int e, f;
            if (strcmp(op, "PUSH") == 0 && sscanf(p + 3, "%*s %d %d", &a, &b) == 2
                && a >= 0 && a < N && kids(a) > 0) {
                nc_mg_t *g = &mg[a];
                if (a == 0) {
                    if (g->mc.count >= g->mc.window)
                        mismatch(ln, "the root's window is full", line);
                    else if (nc_mg_push(g) != (uint32_t)b)
                        mismatch(ln, "nc_mg_push numbers differently", line);
                } else if (g->mc.count == 0 || g->mc.base + g->mc.count - 1u != (uint32_t)b) {
                    mismatch(ln, "the inner node's window does not end with the packet taken", line);
                }
            } else if (strcmp(op, "RX") == 0 && sscanf(p + 3, "%*s %d %d %d %d", &a, &b, &c, &d) == 4
                       && a > 0 && a < N) {
                nc_mg_verdict_t v = nc_mg_classify(&mg[a], (uint32_t)b);
                if ((int)v != c)
                    mismatch(ln, "nc_mg_classify verdict differs", line);
                else if (v == NC_MG_TAKE)
                    nc_mg_take(&mg[a], (uint32_t)b);
                else if (v == NC_MG_DUP && nc_mg_up_ack(&mg[a]) != (uint32_t)d)
                    mismatch(ln, "nc_mg_up_ack (the re-ack) differs", line);
            } else if (strcmp(op, "ACK") == 0
                       && sscanf(p + 3, "%*s %d %d %d %d %d %d", &a, &b, &c, &d, &e, &f) == 6
                       && a >= 0 && a < N && b >= 0 && b < kids(a)) {
                nc_mg_t *g = &mg[a];
                uint32_t first = (cur[a] - 1u) * (uint32_t)P + 1u, up = 0;
                uint32_t end, built;
                bool done, due;
                if (nc_mg_child_ack(g, (uint32_t)b, (uint32_t)c) != (uint32_t)d)
                    mismatch(ln, "nc_mg_child_ack releases a different number", line);
                end = g->mc.base + g->mc.count;          /* one past the last numbered */
                built = nc_seq_distance(first, end) <= (uint32_t)P ? nc_seq_distance(first, end) : 0u;
                done = nc_mg_msg_done(g, first, built, (uint32_t)P);
                if (done != (e > 0))
                    mismatch(ln, done ? "nc_mg_msg_done releases a message the model keeps"
                                      : "nc_mg_msg_done keeps a message the model releases", line);
                if (done)
                    cur[a]++;
                due = a > 0 && nc_mg_ack_due(g, &up);
                if ((due ? (int)up : 0) != f)
                    mismatch(ln, "nc_mg_ack_due sends another ACK up", line);
            } else if (strcmp(op, "RESEND") == 0 && sscanf(p + 3, "%*s %d %d %d %d", &a, &b, &c, &d) == 4
                       && a >= 0 && a < N && b >= 0 && b < kids(a)) {
                nc_mg_t *g = &mg[a];
                for (uint32_t k = 0; k < g->mc.count; k++) {
                    uint32_t seq = g->mc.base + k;
                    bool to_child = (nc_mg_resend_mask(g, seq) >> b) & 1u;
                    bool model = seq >= (uint32_t)c && seq < (uint32_t)(c + d);
                    if (to_child != model) {
                        mismatch(ln, "nc_mg_resend_mask sends another set to the child", line);
                        break;
                    }
                }
            } else {
                mismatch(ln, "unknown or out-of-range MC line", line);
            }
        } else if (is_pp && strncmp(p, "PP ", 3) == 0) {
            int e;
            lines++;
            if (sscanf(p + 3, "%15s", op) != 1) { mismatch(ln, "unreadable", line); continue; }
            if (strcmp(op, "PUSH") == 0 && sscanf(p + 3, "%*s %d %d", &a, &b) == 2 && a >= 0 && a < 2) {
                if (!nc_tx_can_send(&tx[a]))
                    mismatch(ln, "nc_tx_can_send says the window is full", line);
                else if (nc_tx_push(&tx[a]) != (uint32_t)b)
                    mismatch(ln, "nc_tx_push numbers differently", line);
            } else if (strcmp(op, "RX") == 0 && sscanf(p + 3, "%*s %d %d %d %d", &a, &b, &c, &d) == 4
                       && a >= 0 && a < 2) {
                uint32_t reply;
                nc_rx_verdict_t v = nc_rx_receive(&prx[a], (uint32_t)b, &reply);
                if ((int)v != c)
                    mismatch(ln, "nc_rx_receive verdict differs", line);
                else if (reply != (uint32_t)d)
                    mismatch(ln, "nc_rx_receive reply differs", line);
            } else if (strcmp(op, "ACK") == 0 && sscanf(p + 3, "%*s %d %d %d", &a, &b, &c) == 3
                       && a >= 0 && a < 2) {
                if (nc_tx_ack(&tx[a], (uint32_t)b) != (uint32_t)c)
                    mismatch(ln, "nc_tx_ack releases a different number", line);
            } else if (strcmp(op, "NACK") == 0 && sscanf(p + 3, "%*s %d %d %d %d", &a, &b, &c, &d) == 4
                       && a >= 0 && a < 2) {
                uint32_t first = 0, n = nc_tx_nack(&tx[a], (uint32_t)b, &first);
                if (n != (uint32_t)c || first != (uint32_t)d)
                    mismatch(ln, "nc_tx_nack gives another range", line);
            } else if (strcmp(op, "TIMEOUT") == 0 && sscanf(p + 3, "%*s %d %d %d", &a, &b, &c) == 3
                       && a >= 0 && a < 2) {
                uint32_t first = 0, n = nc_tx_timeout(&tx[a], &first);
                if (n != (uint32_t)c || first != (uint32_t)b)
                    mismatch(ln, "nc_tx_timeout gives another range", line);
            } else if (strcmp(op, "REJECT") == 0 && sscanf(p + 3, "%*s %d %d %d %d", &a, &b, &e, &d) == 4
                       && a >= 0 && a < 2 && e >= 0 && e <= 2) {
                /* tx_reject: stale unless inside the window */
                bool stale = nc_seq_distance(tx[a].base, (uint32_t)b) >= tx[a].count;
                if (stale != (e == 1)) {
                    mismatch(ln, "the window judges the REJECT otherwise", line);
                } else if (e == 0) {
                    uint32_t n = (uint32_t)b != tx[a].base ? nc_tx_ack(&tx[a], (uint32_t)b - 1u) : 0u;
                    if (n != (uint32_t)d)
                        mismatch(ln, "nc_tx_ack(seq - 1) of the REJECT releases a different number", line);
                    nc_tx_init(&tx[a], (uint32_t)b, (uint32_t)W);
                }
            } else {
                mismatch(ln, "unknown or out-of-range PP line", line);
            }
        } else if (is_ab && strncmp(p, "AB ", 3) == 0) {
            int e, f;
            lines++;
            if (sscanf(p + 3, "%15s", op) != 1) { mismatch(ln, "unreadable", line); continue; }
            if (strcmp(op, "BEGIN") == 0 && sscanf(p + 3, "%*s %d %d", &a, &b) == 2 && a >= 0) {
                if (nc_ab_begin(&abq, (uint32_t)a, 99u, abchild, (uint32_t)NCH) != b)
                    mismatch(ln, "nc_ab_begin gives another descriptor", line);
            } else if (strcmp(op, "ARRIVE") == 0 && sscanf(p + 3, "%*s %d %d %d %d %d", &a, &b, &c, &e, &f) == 5
                       && a >= 0 && b >= 0 && b < NCH) {
                int32_t dd = -1;
                uint32_t cc = 0;
                nc_ab_verdict_t v = nc_ab_arrive(&abq, (uint32_t)a, (uint32_t)b, &dd, &cc);
                if ((int)v != c)
                    mismatch(ln, "nc_ab_arrive verdict differs", line);
                else if (v <= NC_AB_COMPLETE && (dd != e || (int)cc != f))
                    mismatch(ln, "nc_ab_arrive counts it in another descriptor or as another child", line);
            } else if (strcmp(op, "HOLD") == 0 && sscanf(p + 3, "%*s %d %d", &a, &b) == 2
                       && a >= 0 && b >= 0 && b < NCH) {
                if (!nc_ab_hold(&abq, (uint32_t)a, (uint32_t)b, (uint32_t)(a * NCH + b)))
                    mismatch(ln, "nc_ab_hold refuses it", line);
            } else if (strcmp(op, "TAKE") == 0 && sscanf(p + 3, "%*s %d %d %d", &a, &b, &c) == 3
                       && a >= 0 && b >= 0 && b < NCH) {
                int64_t slot = nc_ab_take_early(&abq, (uint32_t)a, (uint32_t)b);
                if ((slot >= 0) != (c == 1) || (slot >= 0 && slot != a * NCH + b))
                    mismatch(ln, "nc_ab_take_early differs", line);
            } else if (strcmp(op, "END") == 0 && sscanf(p + 3, "%*s %d", &a) == 1 && a >= 0
                       && a < (int)NC_AB_DESCS) {
                nc_ab_end(&abq, (uint32_t)a);
            } else {
                mismatch(ln, "unknown or out-of-range AB line", line);
            }
        } else if (!is_mc && !is_pp && !is_ab && strncmp(p, "BR ", 3) == 0) {
            lines++;
            if (sscanf(p + 3, "%15s", op) != 1) { mismatch(ln, "unreadable", line); continue; }
            if (strcmp(op, "OPEN") == 0 && sscanf(p + 3, "%*s %d %d", &a, &b) == 2 && a >= 0 && a < NS) {
                bool held = nc_bar_open(&br[a]);
                int mask = 0;
                uint32_t node, port;
                while (nc_bar_next_reject(&br[a], &node, &port)) {
                    int slot = (int)(node * (uint32_t)PORTS + port);
                    if (port >= (uint32_t)PORTS || slot >= NS) { mismatch(ln, "reject names an unknown endpoint", line); break; }
                    mask |= 1 << slot;
                }
                if (mask != b || held != (b != 0))
                    mismatch(ln, "nc_bar_open rejects another set", line);
            } else if (strcmp(op, "CLOSE") == 0 && sscanf(p + 3, "%*s %d", &a) == 1 && a >= 0 && a < NS) {
                nc_bar_close(&br[a]);
            } else if (strcmp(op, "RECV") == 0 && sscanf(p + 3, "%*s %d %d %d", &a, &b, &c) == 3
                       && a >= 0 && a < NS && b >= 0 && b < NS) {
                nc_bar_verdict_t v = nc_bar_receive(&br[a], (uint32_t)(b / PORTS), (uint32_t)(b % PORTS));
                if ((int)v != c)
                    mismatch(ln, "nc_bar_receive verdict differs", line);
            } else if (strcmp(op, "TAKE") == 0 && sscanf(p + 3, "%*s %d %d %d", &a, &b, &c) == 3
                       && a >= 0 && a < NS && b >= 0 && b < NS) {
                bool hit = nc_bar_test_and_clear(&br[a], (uint32_t)(b / PORTS), (uint32_t)(b % PORTS));
                if ((int)hit != c)
                    mismatch(ln, "nc_bar_test_and_clear differs", line);
            } else {
                mismatch(ln, "unknown or out-of-range BR line", line);
            }
        }
    }
    printf("replay: %ld decisions replayed, %ld disagree\n", lines, bad);
    if (lines == 0) {
        fprintf(stderr, "replay: the trace holds no %s line\n",
                is_mc ? "MC" : is_pp ? "PP" : is_ab ? "AB" : "BR");
        return 1;
    }
    return bad ? 1 : 0;
}
