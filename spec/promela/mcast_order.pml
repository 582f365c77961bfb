/*
 * mcast_order.pml -- reliable, ordered NIC-based multicast over a tree of NICs
 * (seed 000: Yu, Buntinas, Panda, "High Performance and Reliable NIC-Based
 * Multicast over Myrinet/GM-2", sections 5.2 and 5.3).
 *
 * What is modelled
 *   - N NICs in a FANOUT-ary tree; NIC 0 is the root and multicasts M messages
 *     of one group.  Node i's parent is (i-1)/FANOUT.
 *   - Per group, every NIC keeps: rseq, the last in-order sequence number
 *     received from its parent; sseq, the last sequence number sent to its
 *     children (one send record per packet, shared by all children); and
 *     acked[c] for each child c, the highest sequence number c acknowledged.
 *   - Links are lossy FIFO channels of CAP packets.  A packet is lost either
 *     by the link (the receiving side drops it, at most MAXLOSS times in a row
 *     on one link, the counter being reset whenever the link carries a packet
 *     the receiver accepts) or because the receiver's buffers are full.
 *   - A child accepts only the packet numbered rseq+1, DMAs it to its host
 *     buffer, forwards it to its own children, and acknowledges; anything else
 *     is dropped and answered with a re-ack of rseq (cumulative acks).
 *   - Timeouts are nondeterministic: whenever some child has not acknowledged
 *     everything sent, the NIC may fire its timer (by default only once the
 *     link and the ack path are quiet; with -DEAGER_TIMER also early) and
 *     retransmit the unacknowledged packet and all the following ones, to the
 *     children that did not acknowledge them only.  An intermediate NIC has no
 *     send token of its own: it retransmits from the host copy written through
 *     its receive token (the token is reused for the retransmission).
 *   - The host buffer holding message k (at the root, the send buffer; at an
 *     intermediate node, the receive buffer) is released -- deregistered, its
 *     contents no longer valid -- only when every child acknowledged k.
 *     A released buffer reads as payload 0, so a retransmission out of a
 *     released buffer delivers garbage, which the ordering property notices.
 *
 * Properties
 *   safety        (no claim, -DSAFETY) assertions and no invalid end states:
 *                 the system only stops when every node holds every message
 *                 and every buffer has been released.
 *   in_order      each node delivers message k as its k-th delivery: no loss
 *                 of order, no duplicate, no garbage (exactly once and in
 *                 order, together with all_delivered).
 *   release_safe  no buffer is released before every child acknowledged it,
 *                 judged by the children's own state, not the parent's view.
 *   all_delivered under weak fairness and the loss bound, every node
 *                 eventually delivers every message (acceptance cycles, -a -f).
 *
 *   - Each NIC is a set of processes, one per event handler (data receive,
 *     ack receive, timer; the root's host posts the sends), each handler one
 *     atomic step, so weak fairness matches the MCP's round-robin event loop.
 *
 * Broken variants (each must be caught)
 *   -DBROKEN_NO_SEQ_CHECK     a child accepts any packet that is not older than
 *                             rseq+1 (skips the in-sequence test): in_order fails.
 *   -DBROKEN_EARLY_RELEASE    a buffer is released when the first child acks:
 *                             release_safe and in_order fail.
 *   -DBROKEN_NO_RETRANSMIT    the timer never fires: a loss stops the multicast;
 *                             safety (end state) and all_delivered fail.
 *
 * Commands (make models runs exactly these, in build/models/mcast_order/<variant>/)
 *   spin -a [-DBROKEN_...] mcast_order.pml
 *   cc -O2 -DSAFETY -DNOCLAIM -DMEMLIM=2048 -o pan_safety pan.c
 *   ./pan_safety -m200000                            # assertions, end states
 *   cc -O2 -DSAFETY -DMEMLIM=2048 -o pan_ltlsafe pan.c
 *   ./pan_ltlsafe -m200000 -N in_order                (and -N release_safe)
 *   cc -O2 -DMEMLIM=2048 -DNFAIR=4 -o pan_live pan.c
 *   ./pan_live -a -f -m200000 -N all_delivered
 *   spin -t -p mcast_order.pml                        # replay a counterexample
 *   spin -n<seed> -u20000 mcast_order.pml             # seeded random simulation
 *   spin -DTRACE -n<seed> -u50000 mcast_order.pml | build/models/agree/replay mc 4 2 2
 *                                                    # model vs ref/proto (tests/models/agree)
 */

#ifndef N
#define N       4       /* NICs in the tree (2..9); node 0 is the root */
#endif
#ifndef M
#define M       2       /* messages multicast by the root */
#endif
#ifndef FANOUT
#define FANOUT  2       /* children per node (1..3); 1 makes a chain */
#endif
#ifndef MAXLOSS
#define MAXLOSS 1       /* consecutive losses allowed on one link */
#endif
#ifndef CAP
#define CAP     2       /* packets a link (receive buffer) holds */
#endif

#define PARENT(i)   (((i) - 1) / FANOUT)
#define FIRSTKID(i) ((i) * FANOUT + 1)
#define HB(i, k)    hbuf[(i) * M + (k) - 1]   /* node i's host copy of message k */

/* -DTRACE: simulations print the protocol decisions, one line each, for
 * tests/models/replay.c to check against the C cores of ref/proto.  The
 * verified model is compiled without it. */
#ifdef TRACE
#define TR(x) x
#else
#define TR(x)
#endif

chan data[N] = [CAP] of { byte, byte };   /* data[i]: parent -> i: seq, payload */
chan ack[N]  = [CAP] of { byte, byte };   /* ack[i]: children -> i: child, seq */

byte hbuf[N * M];   /* host buffers (payload; 0 once released) */
byte rseq[N];       /* last in-order sequence number received from the parent */
byte sseq[N];       /* last sequence number sent to the children */
byte acked[N];      /* acked[c]: what c's parent knows c acknowledged */
byte rel[N];        /* buffers 1..rel[i] at node i have been released */
byte dlv[N];        /* messages delivered to node i's host */
byte last[N];       /* payload of the last delivery at node i */
byte dloss[N];      /* consecutive losses on the link parent -> i */
byte aloss[N];      /* consecutive losses on the link i -> parent */

/* Quantifiers over the non-root nodes, written out for N <= 9. */
#define ALLNR(P) (P(1) && P(2) && P(3) && P(4) && P(5) && P(6) && P(7) && P(8))
#define ORD_AT(i) ((i) >= N || last[i] == dlv[i])
#define REL_AT(i) ((i) >= N || rel[PARENT(i)] <= rseq[i])
#define DONE_AT(i) ((i) >= N || dlv[i] == M)
#define FREED_AT(i) ((i) >= N || rel[i] == M)

/* Does child j (0-based) of node i exist and still miss something sent?
 * The timer for that child can expire then.  By default it is a conservative
 * timer: it expires only once the link to the child and the ack link back are
 * both empty, i.e. the packet or its ack is really gone.  With -DEAGER_TIMER
 * it may also expire early, while packets and acks are still in flight. */
#ifdef EAGER_TIMER
#define QUIET(i, c) true
#else
#define QUIET(i, c) (len(data[c]) == 0 && len(ack[i]) == 0)
#endif
#define UNACKED(i, j) (FIRSTKID(i) + (j) < N && acked[FIRSTKID(i) + (j)] < sseq[i] \
                       && QUIET(i, FIRSTKID(i) + (j)))
#define ANY_UNACKED(i) (UNACKED(i, 0) || (FANOUT > 1 && UNACKED(i, 1)) \
                        || (FANOUT > 2 && UNACKED(i, 2)))

ltl in_order      { [] ALLNR(ORD_AT) }
ltl release_safe  { [] ALLNR(REL_AT) }
ltl all_delivered { <> ALLNR(DONE_AT) }

/* Put a packet on a link; a full receive buffer drops it (never blocks the NIC). */
inline xmit(to, s, d) {
    if
    :: nfull(data[to]) -> data[to]!s, d
    :: full(data[to])  -> skip
    fi
}

inline xack(me, s) {
    if
    :: nfull(ack[PARENT(me)]) -> ack[PARENT(me)]!me, s
    :: full(ack[PARENT(me)])  -> skip
    fi
}

/* Send message k (payload d) to every child of node me: one send record, many replicas. */
inline to_kids(me, k, d) {
    c = FIRSTKID(me);
    do
    :: c < N && c < FIRSTKID(me) + FANOUT -> xmit(c, k, d); c++
    :: else -> break
    od;
    c = 0
}

/* Release, in order, every buffer all children have acknowledged. */
inline release(me) {
    do
    :: rel[me] < sseq[me] ->
        c = FIRSTKID(me); ok = 1;
        do
        :: c < N && c < FIRSTKID(me) + FANOUT ->
#ifdef BROKEN_EARLY_RELEASE
            if :: c == FIRSTKID(me) -> ok = (acked[c] > rel[me]) :: else -> skip fi;
#else
            ok = ok && (acked[c] > rel[me]);
#endif
            c++
        :: else -> break
        od;
        if
        :: ok -> rel[me]++; HB(me, rel[me]) = 0
        :: else -> break
        fi
    :: else -> break
    od;
    c = 0; ok = 0
}

/* Each NIC is split into the event handlers of its control program, one
 * process each, so that weak fairness means what the MCP's round-robin event
 * loop gives: a handler that stays enabled eventually runs. */

/* The root's host posts one multicast send event per message. */
proctype Host()
{
    byte c;
    do
    :: atomic { sseq[0] < M; sseq[0]++; TR(printf("MC PUSH 0 %d\n", sseq[0]));
                to_kids(0, sseq[0], HB(0, sseq[0])) }
    :: else -> break
    od
}

/* RECV + RDMA at a non-root NIC: a data packet from the parent. */
proctype DataRx(byte me)
{
    byte s, d, c, ok;
end:
    do
    :: atomic {
            data[me]?s, d;
            if
            :: dloss[me] < MAXLOSS -> dloss[me]++          /* lost on the link */
            :: true ->
                if
#ifdef BROKEN_NO_SEQ_CHECK
                :: s > rseq[me] ->                        /* anything newer */
#else
                :: s == rseq[me] + 1 ->
#endif
                    dloss[me] = 0;
                    rseq[me] = s;
                    HB(me, s) = d;                        /* RDMA into the host buffer */
                    dlv[me]++; last[me] = d;              /* delivered to the host */
                    TR(printf("MC RX %d %d 0 %d\n", me, s, s));
                    sseq[me] = s;                         /* forward: same seq, one record */
                    TR(if :: FIRSTKID(me) < N -> printf("MC PUSH %d %d\n", me, s) :: else -> skip fi);
                    to_kids(me, s, d);
                    release(me);                          /* a leaf has nothing to wait for */
                    xack(me, s)
                :: else ->
                    TR(printf("MC RX %d %d %d %d\n", me, s, (s <= rseq[me] -> 1 : 2), rseq[me]));
                    xack(me, rseq[me])                    /* duplicate or gap: re-ack */
                fi
            fi;
            s = 0; d = 0
        }
    od
}

/* RECV at a NIC with children: an acknowledgement. */
proctype AckRx(byte me)
{
    byte c, k, ok;
    TR(byte r0; byte c1);
end:
    do
    :: atomic {
            ack[me]?c, k;
            if
            :: aloss[c] < MAXLOSS -> aloss[c]++            /* lost on the link */
            :: true ->
                if
                :: k > acked[c] -> acked[c] = k; aloss[c] = 0
                :: else -> skip
                fi;
                TR(r0 = rel[me]; c1 = c);
                release(me);
                TR(printf("MC ACK %d %d %d %d\n", me, c1 - FIRSTKID(me), k, rel[me] - r0))
            fi;
            c = 0; k = 0
        }
    od
}

/* The send-record timer of a NIC with children: retransmit the oldest
 * unacknowledged packet and the following ones, only to the children that
 * did not acknowledge them, out of the host copy (at an intermediate NIC,
 * the buffer its receive token filled: the token is reused to resend). */
proctype Timer(byte me)
{
    byte c, k;
end:
    do
    :: atomic {
            ANY_UNACKED(me);
            c = FIRSTKID(me);
            do
            :: c < N && c < FIRSTKID(me) + FANOUT ->
                if
                :: UNACKED(me, c - FIRSTKID(me)) ->
                    k = acked[c] + 1;
                    TR(printf("MC RESEND %d %d %d %d\n", me, c - FIRSTKID(me), k, sseq[me] - acked[c]));
                    do
                    :: k <= sseq[me] -> xmit(c, k, HB(me, k)); k++
                    :: else -> break
                    od
                :: else -> skip
                fi;
                c++
            :: else -> break
            od;
            c = 0; k = 0
        }
    od
}

init {
    byte i;
    atomic {
        i = 1;
        do
        :: i <= M -> HB(0, i) = i; i++     /* message k carries payload k */
        :: else -> break
        od;
        i = 0;
        run Host();
        do
        :: i < N ->
            if :: i > 0 -> run DataRx(i) :: else -> skip fi;
            if
            :: FIRSTKID(i) < N ->
#ifndef BROKEN_NO_RETRANSMIT
                run Timer(i);
#endif
                run AckRx(i)
            :: else -> skip
            fi;
            i++
        :: else -> break
        od;
        i = 0
    }
    /* init ends only once the multicast is complete everywhere.  If the
     * system comes to a stop before that, init is left blocked here and the
     * stop is reported as an invalid end state. */
    (ALLNR(DONE_AT) && ALLNR(FREED_AT) && rel[0] == M)
}
