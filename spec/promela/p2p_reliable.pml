/*
 * p2p_reliable.pml -- the point-to-point reliability protocol of the MCP
 * (firmware/mcp/tx.c, rx.c, ctrl.c over ref/proto/nc_seq), with the
 * closed-port rule (seed 002 section 3.2) and, optionally, the client layer
 * of a ping-pong, whose echo can stall under loss.
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
 *   - The closed-port rule (-DCLOSE): the port of NIC 1 that receives
 *     direction 0 may close once and reopen (a new process, incarnation 2).
 *     While it is closed, the first packet of a message is dropped unanswered
 *     (the sender's timer retries).  Closing sets the fence for the peer if it
 *     delivered something to that port (touched); the fence makes the first
 *     packet of each message REJECTed until the sender's FENCE packet arrives.
 *     A REJECT (not stale: inside the window) acknowledges what lies before
 *     it, fails every queued message to that port (EPORTCLOSED), starts the
 *     window again at the rejected number and puts a FENCE at the head.
 *     Direction 1 comes from another port of NIC 1, which stays open.
 *     -DCLOSE_AFTER=k delays the close until k messages were delivered (for
 *     the simulations of tests/models/agree, which would otherwise mostly
 *     close before anything arrived).
 *   - Send time-outs (-DTIMEOUT; tx.c's tx_time_out, rx.c's rx_sync): the
 *     sender of direction 0 may give its oldest packet up at any moment
 *     while one is outstanding (an arbitrary time-out, the worst case), at
 *     most MAXTO times a run.  A message there fails (status 3) with every
 *     message queued behind it (all go to the same port); a FENCE there is
 *     dropped and the messages behind start again.  The window starts again
 *     at base + count + 1 (beyond every number used, and one more), in the
 *     next epoch, and a SYNC control packet (behind the old window's
 *     packets on the link) asks the receiver to start it there.  The
 *     receiver takes a newer epoch's SYNC (or the SYNC flag of a data
 *     packet, the firmware's fallback when no answer comes), keeps the last
 *     number it took in the epoch before, and answers every SYNC of its
 *     epoch with it (SYNC_ACK).  The answer completes the messages of the
 *     old window up to that number OK and the other failed ones timed out
 *     (tx_sync_ack, tx_ack_old); nothing is built until it comes (tx.c's
 *     holding), and the timer sends the SYNC again when it or its answer
 *     was lost.  An ACK of the old window that comes first does the same
 *     for what it covers.  Data packets carry their epoch; the receiver
 *     takes only packets of its epoch.  The piggy-backed ACK of a packet of
 *     another epoch is still applied (rx_packet).  A receiver that never
 *     answers (the firmware's fallback after another send time-out) is
 *     not modelled: the loss bound lets the SYNC through.
 *     -DOTHERPORT: message M of direction 0 goes to another port of NIC 1
 *     (open, with buffers), so a time-out of an earlier message leaves it
 *     queued: it starts again in the new epoch, or completes OK when the
 *     answer (or an ACK of the old window) covers it.
 *   - The client layer (-DPINGPONG): node 0 sends ping k and waits for its
 *     SENT and for pong k; node 1 waits for ping k, echoes pong k and waits
 *     for the SENT of the echo.  RECV and SENT events go through one event
 *     queue per node, in the order the NIC makes them: a data packet's RECV
 *     comes before the SENTs its piggy-backed ACK completes (rx_packet).
 *   - Sequence numbers are not reduced: a run numbers at most M + MR + 2
 *     packets per direction (messages, and a FENCE or two), far below the
 *     wrap of the C's 32-bit serial arithmetic, which therefore orders them
 *     exactly as the integers here (the window W <= 8 is far below 2^31).
 *   - Ghost state, for the properties only: the message each packet carries,
 *     which messages were delivered and completed and how, the incarnation
 *     of the receiving port, and the sender's epoch (the number of REJECTs
 *     it processed) at the time each message was posted.
 *
 * Properties
 *   safety        (no claim, -DSAFETY) no invalid end state: the system stops
 *                 only once every message is completed at its sender, both
 *                 windows are empty (and, with PINGPONG, both clients finished).
 *                 A livelock (the timer resending for ever) is no end state:
 *                 all_done finds those.
 *   in_order      exactly once and in order: no message is delivered twice,
 *                 and a delivery skips only messages that failed (EPORTCLOSED).
 *   release_safe  a message completes OK only after its receiver accepted it,
 *                 and a message that failed is never delivered (one that
 *                 timed out: never, the SYNC's answer says exactly).
 *   no_stale      the messages the sender posted in one epoch all reach the same
 *                 incarnation of the port: after a reopen, nothing posted before
 *                 the sender learnt of the close reaches the new process once
 *                 the old one got one of them (the promise of the fence).
 *   all_done      under weak fairness and the loss bound, eventually every
 *                 message is completed at its sender and every packet sent is
 *                 acknowledged (both windows empty), and with PINGPONG both
 *                 clients finish (acceptance cycles, -a -f).
 *
 *   - Each NIC is a set of processes, one per handler (receive, send engine,
 *     timer; the host), each step atomic, so that weak fairness means what
 *     the MCP's round-robin event loop gives.
 *
 * What the model found in the firmware (docs/models.md)
 *   -DEAGER_TIMER -DCLOSE -DM=3 -DMR=0: when two copies of the first packet
 *   after a close meet the fence (the timer resent it while the REJECT was on
 *   its way), two REJECTs of the same number come back.  The firmware's
 *   tx_reject took the second one too, although the number is now the
 *   FENCE's: a message posted after the first REJECT, and already delivered
 *   to the new process, failed with EPORTCLOSED (release_safe), and the
 *   window started again below what the receiver expects, so every ACK was
 *   stale and the connection never moved again (all_done).  Fixed in
 *   firmware/mcp/tx.c (a REJECT naming the FENCE is stale); the old
 *   behaviour is the broken variant -DBROKEN_SECOND_REJECT.
 *
 *   -DTIMEOUT -DOTHERPORT (docs/models.md): message M, taken from its last
 *   copy of the old epoch after the time-out, is sent again in the new
 *   epoch and delivered twice (in_order) by a firmware that waits a drain
 *   of 4 periods for late ACKs and starts the new epoch at once; holding
 *   it through the drain still loses when the ACK that covers M is lost.
 *   Asking closes it (the SYNC handshake, which also makes a timed-out
 *   message never delivered: release_safe checks it); the drain
 *   is -DBROKEN_NO_SYNC_ANSWER, the new epoch before the answer
 *   -DBROKEN_NO_SYNC_HOLD.
 *
 * Broken variants (each must be caught)
 *   -DBROKEN_NO_DUP_ACK         a duplicate is dropped without an ACK: when the
 *                               last ACK is lost the sender retransmits
 *                               forever: all_done fails.
 *   -DBROKEN_NO_RETRANSMIT      the timer never fires: safety (end state) and
 *                               all_done fail.
 *   -DBROKEN_ACCEPT_GAP         the receiver takes a packet beyond a gap:
 *                               in_order fails.
 *   -DBROKEN_NO_FENCE           (with CLOSE) closing sets no fence: a message
 *                               posted to the old process reaches the new one:
 *                               no_stale fails.
 *   -DBROKEN_ACK_ONLY_PIGGYBACK no ACK packets, ACKs only ride on data: once
 *                               the reverse direction is done, a sender whose
 *                               last ACK was not carried stalls: all_done fails.
 *   -DBROKEN_TIMEOUT_REUSE      (with TIMEOUT) the window starts again at the
 *                               timed-out packet's own number, in the same
 *                               epoch: a copy of the timed-out message still
 *                               on the link is taken for the number's new
 *                               packet: release_safe fails.
 *   -DBROKEN_NO_SYNC_ANSWER     (with TIMEOUT) the events at once, nothing
 *                               asked: a copy of a failed message still on
 *                               the link is taken after its event:
 *                               release_safe fails.
 *   -DBROKEN_NO_SYNC_HOLD       (with TIMEOUT, OTHERPORT) the new epoch
 *                               before the answer: message M is delivered
 *                               from its old copy and again from the new
 *                               epoch: in_order fails.
 *   -DBROKEN_CLIENT_DROPS_EARLY_RECV
 *                               (with PINGPONG) the echoing client discards
 *                               the events it gets while it waits for the SENT
 *                               of its echo, the bug of issue #21 point 1: when
 *                               the ACK of the echo is lost, it comes on the
 *                               next ping, whose RECV is queued before that
 *                               SENT: safety (end state) and all_done fail.
 *
 * Commands (make models runs exactly these, in build/models/p2p_reliable/<variant>/)
 *   spin -a [-DCLOSE|-DPINGPONG] [-DEAGER_TIMER] [-DBROKEN_...] p2p_reliable.pml
 *   cc -O2 -DSAFETY -DNOCLAIM -DMEMLIM=2048 -o pan_safety pan.c
 *   ./pan_safety -m200000                            # end states
 *   cc -O2 -DSAFETY -DMEMLIM=2048 -o pan_ltl pan.c
 *   ./pan_ltl -m200000 -N in_order         (and -N release_safe, -N no_stale)
 *   cc -O2 -DMEMLIM=2048 -DNFAIR=4 -o pan_live pan.c
 *   ./pan_live -a -f -m200000 -N all_done
 *   spin -t -p p2p_reliable.pml                       # replay a counterexample
 *   spin -n<seed> -u20000 p2p_reliable.pml            # seeded random simulation
 *   spin -DTRACE -n<seed> -u50000 p2p_reliable.pml | build/models/agree/replay pp 2
 *                                                    # model vs ref/proto (tests/models/agree)
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
#ifndef MAXTO
#define MAXTO   1       /* TIMEOUT: send time-outs of direction 0 over a run */
#endif
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
#define SYN 6   /* TIMEOUT: start the new epoch at seq; what arrived of the old one? */
#define SYA 7   /* its answer: seq the last number taken in the epoch before */
/* event kinds */
#define EV_RECV 1
#define EV_SENT 2

/* lk[d]: NIC d -> NIC 1-d: type, seq, piggy-backed ack, ghost message id
 * (and with TIMEOUT: epoch * 2 + SYNC) */
#ifdef TIMEOUT
chan lk[2] = [CAP] of { byte, byte, byte, byte, byte };
#define EF(x) , x
#else
chan lk[2] = [CAP] of { byte, byte, byte, byte };
#define EF(x)
#endif
/* cq[i]: control packets NIC i owes its peer: type, seq (an ACK's is read when sent)
 * (and with TIMEOUT: a SYNC's epoch * 8, a SYNC_ACK's epoch * 8 + the epoch before) */
#ifdef TIMEOUT
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
#ifdef TIMEOUT
byte tep[2];        /* the sender's epoch (tx.c's txconn.epoch) */
bool syncp[2];      /* the next packet built starts the epoch: SYNC */
byte se[2 * W];     /* epoch * 2 + SYNC of the packet in slot seq % W */
byte rep[2];        /* the receiver's epoch of direction d (rx.c's rxconn.epoch) */
byte nto;           /* time-outs so far */
byte pf, pl;        /* messages pf..pl of direction 0 timed out, events to come */
byte obase, ocnt;   /* the window that timed out */
byte lseq[MX];      /* the number of a failed message's packet in it (0: none) */
bool hold;          /* timed out: nothing is built until the SYNC's answer (tx.c's holding) */
bool probing;       /* timed out: the SYNC's answer is awaited (tx.c's probing) */
byte oep;           /* the epoch that timed out */
byte ssync;         /* the SYNC's number: where the new epoch starts */
byte rprev, rlast;  /* direction 0's receiver: the epoch before its last switch and the
                       last number it took in it (rx.c's prev_epoch, prev_last) */
/* a data packet of another epoch than the receiver's, and not the SYNC of a
 * newer one: dropped */
#define OTHEREP(p) (e / 2 != rep[p] && !(e % 2 == 1 && e / 2 > rep[p]))
#define HOLD hold
#else
#define HOLD false
#define OTHEREP(p) false
#endif

#ifdef PINGPONG
chan ev[2] = [2 * M + 2] of { byte, byte };
bool cdone[2];      /* the clients finished */
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
#ifdef PINGPONG
#define FINISHED  (ALLDONE && cdone[0] && cdone[1])
#else
#define FINISHED  ALLDONE
#endif

ltl in_order     { [] !misorder }
ltl release_safe { [] !unsafe }
ltl no_stale     { [] !stale }
ltl all_done     { <> FINISHED }

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

#ifdef TIMEOUT
/* A SYNC or its answer at NIC i (ctrl_queue_ext): never merged. */
inline ctrlx(i, t, s, x) {
    if
    :: nfull(cq[i]) -> cq[i]!t, s, x; cqack[i] = 0
    :: full(cq[i]) -> skip                           /* dropped: the timer sends the SYNC again */
    fi
}
#endif

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
#ifdef PINGPONG
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
#ifdef PINGPONG
    assert(nfull(ev[d])); ev[d]!EV_SENT, k;
#endif
    qh[d] = k + 1
}

#ifdef TIMEOUT
/* A timed-out message of direction 0 completes (OK by an ACK of the old
 * window or the SYNC's answer, timed out otherwise): complete() without
 * moving qh. */
inline settle(k, st) {
    if :: st == 1 && !dl[MSG(0, k)] -> unsafe = 1 :: else -> skip fi;
    /* the SYNC's answer is exact: a message reported timed out was never
     * delivered, not even before (the drain that came before the handshake
     * could not tell when every acknowledgement was lost) */
    if :: st == 3 && dl[MSG(0, k)] -> unsafe = 1 :: else -> skip fi;
    cp[MSG(0, k)] = st;
    TR(printf("INFO settle msg %d status %d\n", k, st));
    ndone[0]++
}
#endif

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
#ifdef TIMEOUT
        /* an ACK of the window that timed out, while the SYNC is asked */
        do
        :: d == 0 && pf > 0 && pf <= pl && lseq[pf - 1] != 0 && a >= lseq[pf - 1] &&
           a < obase + ocnt -> settle(pf, 1); pf++
#ifdef OTHERPORT
        :: d == 0 && hold && (pf == 0 || pf > pl) && qh[0] == M && cur[0] == M &&
           lseq[M - 1] != 0 && a >= lseq[M - 1] && a < obase + ocnt ->
            complete(0, M, 1); cur[0] = M + 1      /* taken: not sent again */
#endif
        :: else -> break
        od
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

#ifdef TIMEOUT
/* The answer to the SYNC (tx_sync_ack): the receiver took epoch e / 2, and
 * in the epoch before (a) everything up to s.  If that is the epoch that
 * timed out, the messages of its window up to s arrived: OK, and the held
 * message M is not sent again; the rest timed out.  Then the new epoch. */
inline txsya(d, s, a, e) {
    if
    :: d == 0 && probing && e / 2 == tep[0] ->
        TR(printf("INFO sync answer: epoch %d, before %d up to %d\n", e / 2, a, s));
        if
        :: a == oep ->
            do
            :: pf > 0 && pf <= pl && lseq[pf - 1] != 0 && s >= lseq[pf - 1] -> settle(pf, 1); pf++
#ifdef OTHERPORT
            :: hold && (pf == 0 || pf > pl) && qh[0] == M && cur[0] == M &&
               lseq[M - 1] != 0 && s >= lseq[M - 1] ->
                complete(0, M, 1); cur[0] = M + 1      /* arrived: not sent again */
#endif
            :: else -> break
            od
        :: else -> skip
        fi;
        do
        :: pf > 0 && pf <= pl -> settle(pf, 3); pf++
        :: else -> break
        od;
        probing = 0; hold = 0
    :: else -> skip                                  /* stale */
    fi
}

/* A SYNC at the receiver of direction p (rx_sync): a newer epoch starts at
 * s; the answer says what it took of the one before (again for a repeat). */
inline rxsyn(i, p, s, e) {
    if
    :: e / 2 > rep[p] ->
        rprev = rep[p]; rlast = rexp[p] - 1;
        TR(printf("INFO sync: epoch %d from seq %d (SYNC packet)\n", e / 2, s));
        rep[p] = e / 2; rexp[p] = s; nsent[p] = 0
    :: else -> skip
    fi;
    if
    :: e / 2 == rep[p] -> ctrlx(i, SYA, rlast, rep[p] * 8 + rprev)
    :: else -> skip
    fi
}
#endif

/* The receive handler of NIC i: a packet from its peer p. */
proctype Rx(byte i)
{
    byte p = 1 - i, t, s, a, k, j, n;
#ifdef TIMEOUT
    byte e;
#endif
end:
    do
    :: atomic {
        lk[p]?t, s, a, k EF(e);
        if
        :: loss[p] < MAXLOSS -> loss[p]++;           /* lost on the link */
            TR(printf("INFO lost %d->%d type %d seq %d ack %d msg %d\n", p, i, t, s, a, k))
        :: true ->
            if
#ifdef TIMEOUT
            :: (t == DAT || t == FEN) && OTHEREP(p) ->     /* an old epoch's: dropped */
                TR(printf("INFO dropped seq %d msg %d: epoch %d, receiver's %d\n", s, k, e / 2, rep[p]));
                txack(i, a)
#endif
            :: (t == DAT || t == FEN) && !OTHEREP(p) ->
#ifdef TIMEOUT
                if
                :: e / 2 != rep[p] ->                /* the SYNC of a newer epoch */
                    TR(printf("INFO sync: epoch %d from seq %d\n", e / 2, s));
                    rprev = rep[p]; rlast = rexp[p] - 1;
                    rep[p] = e / 2; rexp[p] = s; nsent[p] = 0
                :: else -> skip
                fi;
#endif
                if
#ifdef BROKEN_ACCEPT_GAP
                :: s > rexp[p] && t == DAT && popen ->   /* taken past the gap */
                    TR(printf("PP RX %d %d 0 %d\n", i, s, s));
                    rexp[p] = s + 1; nsent[p] = 0;
                    if :: p == 0 -> touched = 1 :: else -> skip fi;
                    deliver(p, k);
                    ctrl(i, ACK, 0)
#endif
                :: s < rexp[p] ->                    /* duplicate */
                    TR(printf("PP RX %d %d 1 %d\n", i, s, rexp[p] - 1));
#if !defined(BROKEN_NO_DUP_ACK) && !defined(BROKEN_ACK_ONLY_PIGGYBACK)
                    ctrl(i, ACK, 0)
#else
                    skip
#endif
                :: s > rexp[p] ->                    /* beyond a gap */
                    TR(printf("PP RX %d %d 2 %d\n", i, s, rexp[p]));
                    if
                    :: !nsent[p] || nacked[p] != rexp[p] ->
                        ctrl(i, NAK, rexp[p]); nsent[p] = 1; nacked[p] = rexp[p]
                    :: else -> skip
                    fi
                :: s == rexp[p] && t == FEN ->       /* the sender starts afresh */
                    fence = 0;
                    TR(printf("PP RX %d %d 0 %d\n", i, s, s));
                    rexp[p]++; nsent[p] = 0;
#ifndef BROKEN_ACK_ONLY_PIGGYBACK
                    ctrl(i, ACK, 0)
#endif
                :: s == rexp[p] && t == DAT && p == 0 && fence ->
                    TR(printf("INFO reject seq %d msg %d\n", s, k));
                    ctrl(i, REJ, s)                  /* first packet after a close */
                :: s == rexp[p] && t == DAT && p == 0 && !fence && !popen ->
                    TR(printf("INFO dropped seq %d msg %d: port closed\n", s, k))  /* unanswered */
                :: s == rexp[p] && t == DAT && (p == 1 || (!fence && popen)) ->
                    TR(printf("PP RX %d %d 0 %d\n", i, s, s));
                    rexp[p]++; nsent[p] = 0;
                    if :: p == 0 -> touched = 1 :: else -> skip fi;
                    deliver(p, k);                   /* the RECV event first, */
#ifndef BROKEN_ACK_ONLY_PIGGYBACK
                    ctrl(i, ACK, 0)                  /* then the ACK */
#else
                    skip
#endif
                fi;
                txack(i, a)                          /* the piggy-backed ACK */
            :: t == ACK -> txack(i, s)
            :: t == NAK -> txnack(i, s)
            :: t == REJ -> txreject(i, s)
#ifdef TIMEOUT
            :: t == SYN -> rxsyn(i, p, s, e)
            :: t == SYA -> txsya(i, s, a, e)
#endif
            fi
        fi;
        t = 0; s = 0; a = 0; k = 0
#ifdef TIMEOUT
        ; e = 0
#endif
    }
    od
}

/* The send engine of NIC i: control packets first, then the packet at
 * send_next (packetising the next message when the cursor is at the end). */
proctype Tx(byte i)
{
    byte t, s, k;
#ifdef TIMEOUT
    byte x;
#endif
end:
    do
    :: atomic {
        len(cq[i]) > 0 && len(lk[i]) < CAP ->
        cq[i]?t, s CF(x);
        if :: len(cq[i]) == 0 -> cqack[i] = 0 :: else -> skip fi;
        if :: t == ACK -> s = rexp[1 - i] - 1 :: else -> skip fi;   /* read now */
#ifdef TIMEOUT
        lk[i]!t, s, x % 8, 0, (x / 8) * 2;           /* SYNC, SYNC_ACK: epoch; the one before */
        x = 0;
#else
        lk[i]!t, s, 0, 0;
#endif
        t = 0; s = 0
    }
    :: atomic {
        len(cq[i]) == 0 && len(lk[i]) < CAP && snext[i] < base[i] + cnt[i] ->
        k = sm[i * W + snext[i] % W];
        lk[i]!(k == 0 -> FEN : DAT), snext[i], rexp[1 - i] - 1, k EF(se[i * W + snext[i] % W]);
        snext[i]++;
        k = 0
    }
    :: atomic {
        len(cq[i]) == 0 && len(lk[i]) < CAP && snext[i] == base[i] + cnt[i] &&
        cnt[i] < W && (fq[i] || cur[i] <= posted[i]) && !(i == 0 && HOLD) ->
        s = base[i] + cnt[i];
        cnt[i]++;
        TR(printf("PP PUSH %d %d\n", i, s));
        if
        :: fq[i] -> k = 0; fq[i] = 0
        :: else -> k = cur[i]; cur[i]++
        fi;
        sm[i * W + s % W] = k;
#ifdef TIMEOUT
        se[i * W + s % W] = tep[i] * 2 + syncp[i]; syncp[i] = 0;
#endif
        lk[i]!(k == 0 -> FEN : DAT), s, rexp[1 - i] - 1, k EF(se[i * W + s % W]);
        snext[i]++;
        s = 0; k = 0
    }
    od
}

/* The retransmission timer of NIC i: back to base. */
#ifdef EAGER_TIMER
#define QUIET(i) true
#else
#define QUIET(i) (snext[i] == base[i] + cnt[i] && len(lk[0]) == 0 && len(lk[1]) == 0 \
                  && len(cq[1 - i]) == 0)
#endif
proctype Timer(byte i)
{
end:
    do
    :: atomic {
        cnt[i] > 0 && QUIET(i) ->
        TR(printf("PP TIMEOUT %d %d %d\n", i, base[i], cnt[i]));
        snext[i] = base[i]
    }
#ifdef TIMEOUT
    :: atomic {                                      /* the SYNC again: it or its answer was lost */
        i == 0 && probing && len(cq[0]) == 0 && len(cq[1]) == 0 &&
        len(lk[0]) == 0 && len(lk[1]) == 0 ->
        ctrlx(0, SYN, ssync, tep[0] * 8)
    }
#endif
    od
}

#ifdef TIMEOUT
/* The send time-out of direction 0 (tx.c's tx_time_out), at any moment a
 * packet is outstanding, at most MAXTO times. */
proctype SendTimeout()
{
    byte j, k;
end:
    do
    :: atomic {
        cnt[0] > 0 && nto < MAXTO ->
        nto++;
        k = sm[base[0] % W];
        TR(printf("INFO time-out: seq %d msg %d, epoch %d\n", base[0], k, tep[0]));
        if
        :: k != 0 ->                                 /* it and the messages behind fail */
            pf = qh[0]; pl = posted[0];
#ifdef OTHERPORT
            if :: k != M && pl == M -> pl = M - 1 :: else -> skip fi;   /* M restarts */
#endif
            j = pf;
            do :: j <= pl -> cp[MSG(0, j)] = 4; j++ :: else -> break od;
            j = 0;                                   /* their numbers in the window */
            do
            :: j < cnt[0] ->
                if
                :: sm[(base[0] + j) % W] != 0 -> lseq[sm[(base[0] + j) % W] - 1] = base[0] + j
                :: else -> skip
                fi;
                j++
            :: else -> break
            od;
            qh[0] = pl + 1;
            cur[0] = pl + 1
        :: else ->                                   /* a FENCE: dropped */
            cur[0] = qh[0]
        fi;
        obase = base[0]; ocnt = cnt[0]; oep = tep[0];
        j = 0;
        do :: j < W -> sm[j] = 0; se[j] = 0; j++ :: else -> break od;
#ifndef BROKEN_TIMEOUT_REUSE
        base[0] = base[0] + cnt[0] + 1;              /* beyond every number used, and one */
        tep[0]++; syncp[0] = 1;
#endif
        cnt[0] = 0; snext[0] = base[0];
#ifdef BROKEN_NO_SYNC_ANSWER
        do                                           /* the events at once, nothing asked */
        :: pf > 0 && pf <= pl -> settle(pf, 3); pf++
        :: else -> break
        od;
#else
#ifndef BROKEN_NO_SYNC_HOLD
        hold = 1;
#endif
        probing = 1; ssync = base[0];
        ctrlx(0, SYN, ssync, tep[0] * 8);            /* behind the old window's packets */
#endif
        j = 0; k = 0
    }
    od
}
#endif

#ifdef PINGPONG
/* Node 0: ping k, then wait for its SENT and for pong k, in any order. */
proctype Client0()
{
    byte k = 1, kind, id, sent, got;
    do
    :: k <= M ->
        atomic { posted[0]++; mep[MSG(0, posted[0])] = ep[0]; TR(printf("INFO post 0 %d\n", posted[0])) }
        do
        :: sent >= k && got >= k -> break
        :: else ->
            atomic {
                ev[0]?kind, id;
                if :: kind == EV_SENT -> sent++ :: else -> got++ fi;
                kind = 0; id = 0
            }
        od;
        k++
    :: else -> break
    od;
    cdone[0] = 1
}

/* Node 1: wait for ping k, echo it, wait for the SENT of the echo. */
proctype Client1()
{
    byte k = 1, kind, id, sent, got;
    do
    :: k <= M ->
        do                                           /* wait for ping k */
        :: got > 0 -> got--; break
        :: else ->
            atomic {
                ev[1]?kind, id;
                if :: kind == EV_SENT -> sent++ :: else -> got++ fi;
                kind = 0; id = 0
            }
        od;
        atomic { posted[1]++; mep[MSG(1, posted[1])] = ep[1]; TR(printf("INFO post 1 %d\n", posted[1])) }
        do                                           /* wait for its SENT */
        :: sent >= k -> break
        :: else ->
            atomic {
                ev[1]?kind, id;
                if
                :: kind == EV_SENT -> sent++
#ifdef BROKEN_CLIENT_DROPS_EARLY_RECV
                :: else -> skip                      /* "not mine": dropped */
#else
                :: else -> got++                     /* kept for the next wait */
#endif
                fi;
                kind = 0; id = 0
            }
        od;
        k++
    :: else -> break
    od;
    cdone[1] = 1
}
#else
/* The host of NIC d posts its messages, at any moment. */
proctype Host(byte d)
{
    do
    :: atomic { posted[d] < NMSG(d) -> posted[d]++; mep[MSG(d, posted[d])] = ep[d];
                TR(printf("INFO post %d %d\n", d, posted[d])) }
    :: else -> break
    od
}
#endif

#ifdef CLOSE
/* NIC 1's process of the receiving port is killed once, at any moment,
 * and a new one opens the port again. */
proctype Port()
{
    atomic {
        last[0] >= CLOSE_AFTER;
        popen = 0;
        pinc++;
#ifndef BROKEN_NO_FENCE
        if :: touched -> fence = 1 :: else -> skip fi;
#endif
        touched = 0;
        TR(printf("INFO close: fence %d\n", fence))
    };
    atomic { popen = 1; TR(printf("INFO reopen\n")) }
}
#endif

init {
    atomic {
        base[0] = 1; base[1] = 1; snext[0] = 1; snext[1] = 1;
        rexp[0] = 1; rexp[1] = 1; qh[0] = 1; qh[1] = 1; cur[0] = 1; cur[1] = 1;
        run Rx(0); run Rx(1); run Tx(0); run Tx(1);
#ifndef BROKEN_NO_RETRANSMIT
        run Timer(0); run Timer(1);
#endif
#ifdef PINGPONG
        run Client0(); run Client1();
#else
        run Host(0); run Host(1);
#endif
#ifdef CLOSE
        run Port();
#endif
#ifdef TIMEOUT
        run SendTimeout();
#endif
    }
    /* init ends only when everything is done; a stop before that is an
     * invalid end state */
    FINISHED
}
