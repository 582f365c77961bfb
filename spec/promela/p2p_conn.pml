/*
 * p2p_conn.pml -- the connection of the MCP's point-to-point reliability
 * protocol (firmware/mcp/tx.c, rx.c, ctrl.c over ref/proto/nc_seq) and the
 * closed-port rule (seed 002 section 3.2): its parameters, packets, state,
 * ghost state and the operations of the sender and the receiver.  Not a
 * model: p2p_reliable.pml, p2p_pingpong.pml and p2p_timeout.pml include it,
 * then their own state, then p2p_nic.pml (the handlers that run these
 * operations), so that the connection is written once.  Two files because a
 * model's own state, macros and inlines must come after this file's (they
 * use them) and before the handlers (which use theirs): the preprocessor
 * and Promela know only what is defined above.
 *
 * What is modelled
 *   - Two NICs, 0 and 1, and the two directions of their connection.  Each
 *     direction d (sender d, receiver 1-d) has a go-back-N send window of W
 *     packets (base, count, send_next: the cursor of the next packet for the
 *     wire), a FIFO of posted messages, and at the receiver the window of
 *     nc_rx_receive (the one number it accepts).  A message is one packet.
 *   - Links are FIFO channels of CAP packets (Myrinet keeps the order of one
 *     route); the NIC's send engine waits while the link is full.  A link may
 *     lose a packet, at most MAXLOSS packets over a run (a bound on the
 *     losses, so that liveness can hold: with unbounded loss nothing is live).
 *   - Receiver (rx.c): the expected packet is accepted and acknowledged at
 *     once; a duplicate is answered by ACK(expected-1) again; a packet beyond
 *     a gap by one NACK(expected) per gap.  Every data packet carries the
 *     cumulative ACK of the reverse direction, taken when it goes on the wire,
 *     and the receiver applies it whatever happens to the data.
 *   - Control packets (ctrl.c) wait in a FIFO of CQ entries in front of the
 *     data; an ACK queued behind an ACK is merged into it and an ACK's value
 *     is read when it is sent; a full queue drops the answer (the peer's timer
 *     recovers it).  The send engine takes control packets first (tx_poll).
 *   - Sender (tx.c): a cumulative ACK frees packets and completes their
 *     messages (SENT); a NACK goes back to the number it wants; the timer
 *     goes back to base.  The timer is nondeterministic.  By default it fires
 *     only when a window is outstanding, everything of it went out, both
 *     links are empty and the peer owes no answer: the packet or its answer
 *     is really gone (the firmware's "base did not move for a whole period"
 *     with an RTO larger than any round trip).  -DEAGER_TIMER lets it fire
 *     whenever a window is outstanding (an RTO shorter than a round trip).
 *   - The closed-port rule (-DCLOSE, in the models that offer it): the port
 *     of NIC 1 that receives direction 0 may close once and reopen (a new
 *     process, incarnation 2).  While it is closed, the first packet of a
 *     message is dropped unanswered (the sender's timer retries).  Closing
 *     sets the fence for the peer if it delivered something to that port
 *     (touched); the fence makes the first packet of each message REJECTed
 *     until the sender's FENCE packet arrives.  A REJECT (not stale: inside
 *     the window) acknowledges what lies before it, fails every queued
 *     message to that port (EPORTCLOSED), starts the window again at the
 *     rejected number and puts a FENCE at the head.  Direction 1 comes from
 *     another port of NIC 1, which stays open.  -DCLOSE_AFTER=k delays the
 *     close until k messages were delivered (for the simulations of
 *     tests/models/agree, which would otherwise mostly close before anything
 *     arrived).
 *   - Sequence numbers are not reduced: a run numbers at most M + MR + 2
 *     packets per direction (messages, and a FENCE or two), far below the
 *     wrap of the C's 32-bit serial arithmetic, which therefore orders them
 *     exactly as the integers here (the window W <= 8 is far below 2^31).
 *   - Ghost state, for the properties only: the message each packet carries,
 *     which messages were delivered and completed and how, the incarnation
 *     of the receiving port, and the sender's epoch (the number of REJECTs
 *     it processed) at the time each message was posted.  The flags
 *     misorder, unsafe and stale are what each model's in_order,
 *     release_safe and no_stale say never happens.
 *
 * What a model adds (a macro it defines before including this file)
 *   EPOCHS  (p2p_timeout.pml) packets carry an epoch and the receiver takes
 *           a SYNC: link and control packets get a field more (EF, CF), the
 *           handlers drop packets of another epoch and answer SYNCs.  The
 *           model supplies the epoch state, OTHEREP and HOLD, and the inlines
 *           ctrlx, settle, txack_old, txsya and rxsyn before p2p_nic.pml.
 *   EVENTS  (p2p_pingpong.pml) every delivery and completion is also an
 *           event on the queue ev[] of its node (RECV, SENT), in the order
 *           the NIC makes them; the model declares ev.
 *   Every model defines FINISHED (what all_done waits for and what init
 *   waits for before it ends) and its ltl properties.
 *
 * Broken variants of the connection (here and in p2p_nic.pml, compiled into
 * every p2p model; the oracle checks them on p2p_reliable.pml)
 *   -DBROKEN_SECOND_REJECT      a REJECT that names the FENCE is taken as new.
 *   -DBROKEN_NO_DUP_ACK, -DBROKEN_NO_RETRANSMIT, -DBROKEN_ACCEPT_GAP,
 *   -DBROKEN_NO_FENCE, -DBROKEN_ACK_ONLY_PIGGYBACK: see p2p_nic.pml.
 */

#ifndef M
#define M       2       /* messages of direction 0 (node 0 -> node 1) */
#endif
#ifndef MR
#ifdef CLOSE
#define MR      1       /* messages of direction 1 (node 1 -> node 0) */
#else
#define MR      M
#endif
#endif
#ifndef W
#define W       2       /* send window (packets in flight), 1..8 */
#endif
#ifndef MAXLOSS
#define MAXLOSS 1       /* packets a link may lose over a run */
#endif
#ifndef CAP
#define CAP     2       /* packets a link holds */
#endif
#ifndef CQ
#define CQ      2       /* control packets a NIC queues */
#endif
#ifndef CLOSE_AFTER
#define CLOSE_AFTER 0   /* CLOSE: the port closes once this many messages of
                           direction 0 were delivered (0: at any moment) */
#endif
#define EPMAX   8       /* sender epochs tracked (REJECTs processed + 1) */
#define MX      (M + MR) /* enough message slots per direction */
#define NMSG(d) ((d) == 0 -> M : MR)

/* -DTRACE: simulations print the protocol decisions, one line each, for
 * tests/models/replay.c to check against ref/proto/nc_seq.  The verified
 * model is compiled without it. */
#ifdef TRACE
#define TR(x) x
#else
#define TR(x)
#endif

/* packet types */
#define DAT 1   /* data, one message */
#define FEN 2   /* data with the FENCE flag, no message */
#define ACK 3
#define NAK 4
#define REJ 5
#define SYN 6   /* EPOCHS: start the new epoch at seq; what arrived of the old one? */
#define SYA 7   /* its answer: seq the last number taken in the epoch before */
/* event kinds (EVENTS) */
#define EV_RECV 1
#define EV_SENT 2

/* lk[d]: NIC d -> NIC 1-d: type, seq, piggy-backed ack, ghost message id
 * (and with EPOCHS: epoch * 2 + SYNC) */
#ifdef EPOCHS
chan lk[2] = [CAP] of { byte, byte, byte, byte, byte };
#define EF(x) , x
#else
chan lk[2] = [CAP] of { byte, byte, byte, byte };
#define EF(x)
#endif
/* cq[i]: control packets NIC i owes its peer: type, seq (an ACK's is read when sent)
 * (and with EPOCHS: a SYNC's epoch * 8, a SYNC_ACK's epoch * 8 + the epoch before) */
#ifdef EPOCHS
chan cq[2] = [CQ] of { byte, byte, byte };
#define CF(x) , x
#else
chan cq[2] = [CQ] of { byte, byte };
#define CF(x)
#endif
bool cqack[2];      /* the last entry of cq[i] is an ACK (merging) */

/* send side of direction d (at NIC d) */
byte base[2], cnt[2], snext[2];
byte sm[2 * W];     /* message of the packet in slot seq % W (0: the FENCE) */
byte qh[2];         /* oldest message not completed */
byte cur[2];        /* next message to packetise */
byte posted[2];     /* messages posted by the host */
bool fq[2];         /* a FENCE is queued, not yet packetised */
/* receive side of direction d (at NIC 1-d) */
byte rexp[2];       /* the number the receiver accepts next */
bool nsent[2];      /* a NACK was sent for the current gap */
byte nacked[2];
bool popen = 1;     /* NIC 1's port of direction 0 */
bool fence;         /* its fence for NIC 0 */
bool touched;       /* NIC 0 delivered to it since it opened */
byte loss[2];
#ifndef EPOCHS
#define HOLD false          /* nothing holds the send engine back */
#define OTHEREP(p) false    /* one epoch: every packet is of the receiver's */
#endif

/* ghost state */
byte dl[2 * MX];    /* dl[d*MX+k-1]: message k of direction d delivered */
byte cp[2 * MX];    /* its completion: 0 none, 1 OK, 2 EPORTCLOSED, 3 timed out,
                       4 timed out, its event waiting for the SYNC's answer */
byte mep[2 * MX];   /* the sender's epoch when it was posted */
byte ep[2];         /* the sender's epoch now */
byte bound[EPMAX];  /* direction 0: incarnation that got a message of that epoch */
byte pinc = 1;      /* incarnation of NIC 1's port */
byte last[2];       /* last message delivered, per direction */
byte ndone[2];      /* messages completed, per direction */
bool misorder, unsafe, stale;

#define MSG(d, k) ((d) * MX + (k) - 1)
/* every message completed at its sender and every packet sent acknowledged
 * (both windows empty, no FENCE queued or in flight) */
#define ALLDONE   (ndone[0] == M && ndone[1] == MR && cnt[0] == 0 && cnt[1] == 0 && !fq[0] && !fq[1])

/* Queue a control packet at NIC i (ctrl_queue). */
inline ctrl(i, t, s) {
    if
    :: t == ACK && cqack[i] -> skip                  /* merged into the last one */
    :: else ->
        if
        :: nfull(cq[i]) -> cq[i]!t, s CF(0); cqack[i] = (t == ACK)
        :: full(cq[i]) -> skip                       /* dropped: the timer recovers */
        fi
    fi
}

/* Ghost bookkeeping of a delivery of message k of direction d. */
inline deliver(d, k) {
    if
    :: dl[MSG(d, k)] || cp[MSG(d, k)] == 2 || k <= last[d] -> misorder = 1
    :: else -> skip
    fi;
    if :: cp[MSG(d, k)] == 2 || cp[MSG(d, k)] == 3 -> unsafe = 1 :: else -> skip fi;
    j = last[d] + 1;                                 /* skipped ones must have failed */
    do
    :: j < k -> if :: cp[MSG(d, j)] < 2 -> misorder = 1 :: else -> skip fi; j++
    :: else -> break
    od;
    if
    :: d == 0 ->
        assert(mep[MSG(d, k)] < EPMAX);
        if
        :: bound[mep[MSG(d, k)]] == 0 -> bound[mep[MSG(d, k)]] = pinc
        :: bound[mep[MSG(d, k)]] != 0 && bound[mep[MSG(d, k)]] != pinc -> stale = 1
        :: else -> skip
        fi
    :: else -> skip
    fi;
    dl[MSG(d, k)] = 1;
    last[d] = k;
    TR(printf("INFO deliver dir %d msg %d (epoch %d) to incarnation %d\n", d, k, mep[MSG(d, k)], pinc));
#ifdef EVENTS
    assert(nfull(ev[1 - d])); ev[1 - d]!EV_RECV, k;
#endif
    j = 0
}

/* The sender of direction d learns that message k is completed (st 1: OK). */
inline complete(d, k, st) {
    if :: st == 1 && !dl[MSG(d, k)] -> unsafe = 1 :: else -> skip fi;
    if :: st == 2 && dl[MSG(d, k)] -> unsafe = 1 :: else -> skip fi;
    cp[MSG(d, k)] = st;
    TR(printf("INFO complete dir %d msg %d status %d\n", d, k, st));
    ndone[d]++;
#ifdef EVENTS
    assert(nfull(ev[d])); ev[d]!EV_SENT, k;
#endif
    qh[d] = k + 1
}

/* Free packets base .. base+n-1 of direction d, completing their messages. */
inline release(d, n) {
    j = 0;
    do
    :: j < n ->
        if
        :: sm[d * W + (base[d] + j) % W] != 0 -> complete(d, sm[d * W + (base[d] + j) % W], 1)
        :: else -> skip                              /* a FENCE: no event */
        fi;
        sm[d * W + (base[d] + j) % W] = 0;
        j++
    :: else -> break
    od;
    base[d] = base[d] + n;
    cnt[d] = cnt[d] - n;
    j = 0
}

/* Cumulative ACK(a) at the sender of direction d (tx_ack over nc_tx_ack). */
inline txack(d, a) {
    if
    :: a >= base[d] && a < base[d] + cnt[d] ->
        n = a - base[d] + 1;
        TR(printf("PP ACK %d %d %d\n", d, a, n));
        release(d, n);
        if :: snext[d] < base[d] -> snext[d] = base[d] :: else -> skip fi
    :: else ->
        TR(printf("PP ACK %d %d 0\n", d, a));
#ifdef EPOCHS
        txack_old(d, a)                              /* of the window that timed out */
#else
        skip
#endif
    fi;
    n = 0
}

/* NACK(want) (tx_nack): acknowledge what lies before want, go back to it. */
inline txnack(d, w) {
    if
    :: w >= base[d] && w <= base[d] + cnt[d] ->
        n = w - base[d];
        release(d, n);
        snext[d] = w;
        TR(printf("PP NACK %d %d %d %d\n", d, w, cnt[d], w))
    :: else ->
        TR(printf("PP NACK %d %d 0 %d\n", d, w, base[d]))
    fi;
    n = 0
}

/* REJECT(seq) (tx_reject): the destination port was closed.  A second
 * REJECT of the same packet (two copies of it met the fence) names the
 * FENCE that the first one put there; the receiver never rejects a FENCE,
 * so it is stale and ignored (the firmware since this model found it).
 * -DBROKEN_SECOND_REJECT: the firmware before, which took it as new. */
#ifndef BROKEN_SECOND_REJECT
#define FIXED 1
#else
#define FIXED 0
#endif
inline txreject(d, s) {
    if
#ifndef BROKEN_SECOND_REJECT
    :: s >= base[d] && s < base[d] + cnt[d] && sm[d * W + s % W] == 0 ->
        TR(printf("PP REJECT %d %d 2 0\n", d, s))   /* it names the FENCE: stale */
#endif
    :: s >= base[d] && s < base[d] + cnt[d] && !(FIXED && sm[d * W + s % W] == 0) ->
        n = s - base[d];
        TR(printf("PP REJECT %d %d 0 %d\n", d, s, n));
        release(d, n);                               /* tx_ack(seq - 1) */
        j = 0;                                       /* everything in flight goes */
        do :: j < W -> sm[d * W + j] = 0; j++ :: else -> break od;
        j = qh[d];                                   /* every queued message fails */
        do
        :: j <= posted[d] -> complete(d, j, 2); j++
        :: else -> break
        od;
        cur[d] = posted[d] + 1;
        base[d] = s; cnt[d] = 0; snext[d] = s;
        fq[d] = 1;                                   /* then the FENCE, at the head */
        ep[d]++;
        j = 0
    :: else ->
        TR(printf("PP REJECT %d %d 1 0\n", d, s))
    fi;
    n = 0
}
