/*
 * mcast_order.pml -- reliable, ordered NIC-based multicast over a tree of NICs
 * (seed 000: Yu, Buntinas, Panda, "High Performance and Reliable NIC-Based
 * Multicast over Myrinet/GM-2", sections 5.2 and 5.3), as firmware/coll/mcast.c
 * runs it with ref/proto/nc_mcgroup.
 *
 * What is modelled
 *   - N NICs in a FANOUT-ary tree; NIC 0 is the root and multicasts M messages
 *     of one group, each of P packets.  Node i's parent is (i-1)/FANOUT.
 *     Packets are numbered 1 .. M*P in group order; packet s belongs to
 *     message (s-1)/P + 1.
 *   - Per group, every NIC keeps: rseq, the last in-order packet received from
 *     its parent; sseq, the last packet sent to its children (one send record
 *     per packet, shared by all children); acked[c] for each child c, the
 *     highest packet c acknowledged; rel, the messages whose host buffer it
 *     gave back.
 *   - The root sends one message at a time (the next one starts once the
 *     last one's buffer is released) and keeps at most W packets in flight
 *     (sseq - min over children of acked < W): several packets of a message
 *     are on the links at once.
 *   - Links are lossy FIFO channels of CAP packets.  A packet is lost either
 *     by the link (the receiving side drops it, at most MAXLOSS times in a row
 *     on one link, the counter being reset whenever the link carries a packet
 *     the receiver accepts) or because the receiver's buffers are full.
 *   - A child accepts only the packet numbered rseq+1 and DMAs it into its
 *     host buffer; an older one is a duplicate, answered with a re-ack; a
 *     later one is dropped without a word (the timer brings it again).
 *   - A leaf acknowledges every packet it accepts and delivers a message to
 *     its host with its last packet.  An inner node forwards each packet to
 *     its children as it arrives (packet by packet) and acknowledges to its
 *     parent only what every child acknowledged (cumulative: the minimum of
 *     acked over its children), so an ACK means the whole subtree holds it.
 *   - Timeouts are nondeterministic: whenever some child has not acknowledged
 *     everything sent, the NIC may fire its timer (by default only once the
 *     link and the ack path are quiet; with -DEAGER_TIMER also early) and
 *     retransmit the unacknowledged packet and all the following ones, to the
 *     children that did not acknowledge them only.  An intermediate NIC has no
 *     send token of its own: it retransmits from the host copy written through
 *     its receive token (the token is reused for the retransmission).
 *   - The host buffer holding message k (at the root, the send buffer; at an
 *     intermediate node, the receive buffer) is released -- deregistered, its
 *     contents no longer valid -- only when every child acknowledged k's last
 *     packet.  An inner node delivers the message to its host then (its
 *     RECV event gives the buffer back to the process).  A released buffer
 *     reads as payload 0, so a retransmission out of a released buffer
 *     delivers garbage, which the ordering property notices.
 *
 * Properties
 *   safety        (no claim, -DSAFETY) assertions and no invalid end states:
 *                 the system only stops when every node holds every message
 *                 and every buffer has been released.  Assertions: a
 *                 retransmission goes only to a child that owes the packet;
 *                 an inner node takes a message's first packet only once it
 *                 released the message before (the firmware's "one message
 *                 held at a time" never has to drop one).
 *   in_order      each node delivers message k as its k-th delivery: no loss
 *                 of order, no duplicate, no garbage (exactly once and in
 *                 order, together with all_delivered).
 *   release_safe  no buffer is released before every child holds the
 *                 message's last packet, judged by the children's own state,
 *                 not the parent's view.
 *   root_safe     the root's buffer is released only when every node of the
 *                 tree holds the message (SENT means every member
 *                 has it).
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
 *   -DBROKEN_RESEND_ALL       the timer retransmits the window to every child,
 *                             also to those that acknowledged it: the
 *                             assertion fails.
 *   -DBROKEN_ACK_ON_ACCEPT    an inner node acknowledges a packet as soon as it
 *                             takes it, before its children have it: root_safe
 *                             fails.
 *
 * Commands (make models runs exactly these, in build/models/mcast_order/<variant>/)
 *   spin -a [-DBROKEN_...] mcast_order.pml
 *   cc -O2 -DSAFETY -DNOCLAIM -DMEMLIM=2048 -o pan_safety pan.c
 *   ./pan_safety -m200000                            # assertions, end states
 *   cc -O2 -DSAFETY -DMEMLIM=2048 -o pan_ltlsafe pan.c
 *   ./pan_ltlsafe -m200000 -N in_order                (and release_safe, root_safe)
 *   cc -O2 -DMEMLIM=2048 -DNFAIR=4 -o pan_live pan.c
 *   ./pan_live -a -f -m200000 -N all_delivered
 *   spin -t -p mcast_order.pml                        # replay a counterexample
 *   spin -n<seed> -u20000 mcast_order.pml             # seeded random simulation
 *   spin -DTRACE -n<seed> -u50000 mcast_order.pml | build/models/agree/replay mc 4 2 2 2 2
 *                                                    # model vs ref/proto (tests/models/agree)
 */

#ifndef N
#define N       4       /* NICs in the tree (2..9); node 0 is the root */
#endif
#ifndef M
#define M       2       /* messages multicast by the root */
#endif
#ifndef P
#define P       2       /* packets per message */
#endif
#ifndef W
#define W       2       /* packets in flight from the root (its window) */
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
#define INNER(i)    ((i) > 0 && FIRSTKID(i) < N)
#define MSG(s)      (((s) - 1) / P + 1)               /* the message of packet s */
#define HB(i, k)    hbuf[(i) * M + (k) - 1]   /* node i's host copy of message k */

/* What node i's children acknowledged, the minimum over them (255: no such
 * child).  An inner node's cumulative ACK to its parent. */
#define KA(i, j)    (((j) < FANOUT && FIRSTKID(i) + (j) < N) -> acked[FIRSTKID(i) + (j)] : 255)
#define MIN2(a, b)  (((a) < (b)) -> (a) : (b))
#define MINK(i)     MIN2(MIN2(KA(i, 0), KA(i, 1)), KA(i, 2))

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
byte rseq[N];       /* last in-order packet received from the parent */
byte sseq[N];       /* last packet sent to the children */
byte acked[N];      /* acked[c]: what c's parent knows c acknowledged */
byte rel[N];        /* messages 1..rel[i] at node i have been released */
byte dlv[N];        /* messages delivered to node i's host */
byte last[N];       /* payload of the last delivery at node i */
byte dloss[N];      /* consecutive losses on the link parent -> i */
byte aloss[N];      /* consecutive losses on the link i -> parent */

/* Quantifiers over the non-root nodes, written out for N <= 9. */
#define ALLNR(P) (P(1) && P(2) && P(3) && P(4) && P(5) && P(6) && P(7) && P(8))
#define ORD_AT(i) ((i) >= N || last[i] == dlv[i])
#define REL_AT(i) ((i) >= N || rel[PARENT(i)] * P <= rseq[i])
#define ROOT_AT(i) ((i) >= N || rel[0] * P <= rseq[i])
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
ltl root_safe     { [] ALLNR(ROOT_AT) }
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

/* Send packet s (payload d) to every child of node me: one send record, many replicas. */
inline to_kids(me, s, d) {
    c = FIRSTKID(me);
    do
    :: c < N && c < FIRSTKID(me) + FANOUT -> xmit(c, s, d); c++
    :: else -> break
    od;
    c = 0
}

/* Release, in order, every message whose last packet all children have
 * acknowledged; an inner node's host gets the message then. */
inline release(me) {
    do
    :: rel[me] < M && (rel[me] + 1) * P <= sseq[me] ->
#ifdef BROKEN_EARLY_RELEASE
        ok = (acked[FIRSTKID(me)] >= (rel[me] + 1) * P);
#else
        ok = (MINK(me) >= (rel[me] + 1) * P);
#endif
        if
        :: ok ->
            rel[me]++;
            if
            :: me > 0 -> dlv[me]++; last[me] = HB(me, rel[me])   /* RECV event */
            :: else -> skip
            fi;
            HB(me, rel[me]) = 0
        :: else -> break
        fi
    :: else -> break
    od;
    ok = 0
}

/* Each NIC is split into the event handlers of its control program, one
 * process each, so that weak fairness means what the MCP's round-robin event
 * loop gives: a handler that stays enabled eventually runs. */

/* The root's host posts the multicast sends; the NIC numbers the packets of
 * one message at a time, at most W in flight. */
proctype Host()
{
    byte c;
end:
    do
    :: atomic { sseq[0] < M * P && sseq[0] - MINK(0) < W &&
                (sseq[0] % P != 0 || rel[0] * P == sseq[0]) ->
                sseq[0]++; TR(printf("MC PUSH 0 %d\n", sseq[0]));
                to_kids(0, sseq[0], HB(0, MSG(sseq[0]))) }
    :: sseq[0] == M * P -> break
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
                    TR(printf("MC RX %d %d 0 0\n", me, s));
                    /* RDMA into the host buffer; a packet unlike the
                     * message's first one spoils the copy */
                    if
                    :: (s - 1) % P == 0 -> HB(me, MSG(s)) = d
                    :: else -> HB(me, MSG(s)) = (HB(me, MSG(s)) == d -> d : 0)
                    fi;
                    if
                    :: INNER(me) ->
                        /* one message held at a time: the one before is gone */
                        assert((s - 1) % P != 0 || rel[me] + 1 == MSG(s));
                        sseq[me] = s;                     /* forward: same seq, one record */
                        TR(printf("MC PUSH %d %d\n", me, s));
                        to_kids(me, s, d);
#ifdef BROKEN_ACK_ON_ACCEPT
                        xack(me, s)
#else
                        skip                              /* ACKs when the subtree has it */
#endif
                    :: else ->
                        if
                        :: s % P == 0 ->                  /* the message's last packet */
                            dlv[me]++; last[me] = HB(me, MSG(s));
                            rel[me]++; HB(me, MSG(s)) = 0
                        :: else -> skip
                        fi;
                        xack(me, s)
                    fi
                :: s <= rseq[me] ->
                    /* taken before: acknowledge again what the subtree holds */
                    if
                    :: INNER(me) ->
                        c = MINK(me);
                        TR(printf("MC RX %d %d 1 %d\n", me, s, c));
                        xack(me, c); c = 0
                    :: else ->
                        TR(printf("MC RX %d %d 1 %d\n", me, s, rseq[me]));
                        xack(me, rseq[me])
                    fi
                :: else ->
                    TR(printf("MC RX %d %d 2 0\n", me, s))   /* beyond: dropped */
                fi
            fi;
            s = 0; d = 0
        }
    od
}

/* RECV at a NIC with children: an acknowledgement. */
proctype AckRx(byte me)
{
    byte c, k, ok, m0, u;
    TR(byte r0; byte c1);
end:
    do
    :: atomic {
            ack[me]?c, k;
            if
            :: aloss[c] < MAXLOSS -> aloss[c]++            /* lost on the link */
            :: true ->
                m0 = MINK(me);
                TR(r0 = rel[me]; c1 = c);
                if
                :: k > acked[c] -> acked[c] = k; aloss[c] = 0
                :: else -> skip
                fi;
                release(me);
                u = MINK(me);
                TR(printf("MC ACK %d %d %d %d %d %d\n", me, c1 - FIRSTKID(me), k,
                          u - m0, rel[me] - r0, (me > 0 && u > m0 -> u : 0)));
#ifndef BROKEN_ACK_ON_ACCEPT
                if
                :: me > 0 && u > m0 -> xack(me, u)   /* the subtree holds more */
                :: else -> skip
                fi
#endif
            fi;
            c = 0; k = 0; m0 = 0; u = 0
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
#ifdef BROKEN_RESEND_ALL
                :: true ->
                    k = MINK(me) + 1;                     /* every child, from the oldest */
#else
                :: UNACKED(me, c - FIRSTKID(me)) ->
                    k = acked[c] + 1;
#endif
                    TR(if :: k <= sseq[me] ->
                          printf("MC RESEND %d %d %d %d\n", me, c - FIRSTKID(me), k, sseq[me] - k + 1)
                       :: else -> skip fi);
                    do
                    :: k <= sseq[me] ->
                        assert(k > acked[c]);             /* it owes this one */
                        xmit(c, k, HB(me, MSG(k))); k++
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
