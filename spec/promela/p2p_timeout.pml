/*
 * p2p_timeout.pml -- send time-outs on the point-to-point connection of
 * the MCP (firmware/mcp/tx.c's tx_time_out, rx.c's rx_sync, epochs): the
 * sender gives a packet up, the connection starts again in a new epoch,
 * and the SYNC handshake says what of the old window arrived.  The
 * connection is p2p_conn.pml and p2p_nic.pml, with their EPOCHS layer; the
 * stream without time-outs is p2p_reliable.pml.
 *
 * What is modelled
 *   - The connection of p2p_conn.pml: two NICs, both directions, go-back-N
 *     windows, ACK/NACK, control queue, lossy FIFO links, the timer, and
 *     with -DCLOSE the closed-port rule; the hosts post their messages at
 *     any moment.
 *   - The sender of direction 0 may give its oldest packet up at any moment
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
 *   - -DOTHERPORT: message M of direction 0 goes to another port of NIC 1
 *     (open, with buffers), so a time-out of an earlier message leaves it
 *     queued: it starts again in the new epoch, or completes OK when the
 *     answer (or an ACK of the old window) covers it.
 *
 * Properties
 *   safety        (no claim, -DSAFETY) no invalid end state: the system stops
 *                 only once every message is completed at its sender (OK,
 *                 EPORTCLOSED or timed out) and both windows are empty.
 *                 A livelock is no end state: all_done finds those.
 *   in_order      exactly once and in order: no message is delivered twice,
 *                 and a delivery skips only messages that failed.
 *   release_safe  a message completes OK only after its receiver accepted it,
 *                 and a message that failed is never delivered (one that
 *                 timed out: never, the SYNC's answer says exactly).
 *   no_stale      (with CLOSE) the messages the sender posted between two
 *                 REJECTs all reach the same incarnation of the port: after
 *                 a reopen, nothing posted before the sender learnt of the
 *                 close reaches the new process once the old one got one of
 *                 them (the promise of the fence).
 *   all_done      under weak fairness and the loss bound, eventually every
 *                 message is completed at its sender and every packet sent is
 *                 acknowledged (both windows empty) (acceptance cycles, -a -f).
 *
 * Why the firmware asks (docs/models.md)
 *   -DOTHERPORT: message M, taken from its last copy of the old epoch after
 *   the time-out, is sent again in the new epoch and delivered twice
 *   (in_order) by a firmware that waits a drain of 4 periods for late ACKs
 *   and starts the new epoch at once; holding it through the drain still
 *   loses when the ACK that covers M is lost.  Asking closes it (the SYNC
 *   handshake, which also makes a timed-out message never delivered:
 *   release_safe checks it); the drain is -DBROKEN_NO_SYNC_ANSWER, the new
 *   epoch before the answer -DBROKEN_NO_SYNC_HOLD.
 *
 * Broken variants (each must be caught; those of the connection itself are
 * in p2p_conn.pml and p2p_nic.pml)
 *   -DBROKEN_TIMEOUT_REUSE      the window starts again at the timed-out
 *                               packet's own number, in the same epoch: a
 *                               copy of the timed-out message still on the
 *                               link is taken for the number's new packet:
 *                               release_safe fails.
 *   -DBROKEN_NO_SYNC_ANSWER     the events at once, nothing asked: a copy of
 *                               a failed message still on the link is taken
 *                               after its event: release_safe fails.
 *   -DBROKEN_NO_SYNC_HOLD       (with OTHERPORT) the new epoch before the
 *                               answer: message M is delivered from its old
 *                               copy and again from the new epoch: in_order
 *                               fails.
 *
 * Commands (make models runs exactly these, in build/models/p2p_timeout/<variant>/,
 * with p2p_conn.pml and p2p_nic.pml copied beside the model)
 *   spin -a [-DCLOSE|-DOTHERPORT] [-DBROKEN_...] p2p_timeout.pml
 *   cc -O2 -DSAFETY -DNOCLAIM -DMEMLIM=2048 -o pan_safety pan.c
 *   ./pan_safety -m200000                            # end states
 *   cc -O2 -DSAFETY -DMEMLIM=2048 -o pan_ltl pan.c
 *   ./pan_ltl -m200000 -N in_order         (and -N release_safe, -N no_stale)
 *   cc -O2 -DMEMLIM=2048 -DNFAIR=4 -o pan_live pan.c
 *   ./pan_live -a -f -m200000 -N all_done
 *   spin -t -p p2p_timeout.pml                        # replay a counterexample
 * The C cores of ref/proto have no epochs: tests/models/agree does not
 * replay this model.
 */

#define EPOCHS          /* the connection's packets carry an epoch (p2p_conn.pml) */
#ifndef MAXTO
#define MAXTO   1       /* send time-outs of direction 0 over a run */
#endif

#include "p2p_conn.pml"

/* the epochs and the time-out of direction 0 */
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

/* A SYNC or its answer at NIC i (ctrl_queue_ext): never merged. */
inline ctrlx(i, t, s, x) {
    if
    :: nfull(cq[i]) -> cq[i]!t, s, x; cqack[i] = 0
    :: full(cq[i]) -> skip                           /* dropped: the timer sends the SYNC again */
    fi
}

/* A timed-out message of direction 0 completes (OK by an ACK of the old
 * window or the SYNC's answer, timed out otherwise): complete() without
 * moving qh. */
inline settle(k, st) {
    if :: st == 1 && !dl[MSG(0, k)] -> unsafe = 1 :: else -> skip fi;
    /* the SYNC's answer is exact: a message reported timed out was never
     * delivered, not even before (a drain of late ACKs cannot tell when
     * every acknowledgement was lost: -DBROKEN_NO_SYNC_ANSWER) */
    if :: st == 3 && dl[MSG(0, k)] -> unsafe = 1 :: else -> skip fi;
    cp[MSG(0, k)] = st;
    TR(printf("INFO settle msg %d status %d\n", k, st));
    ndone[0]++
}

/* An ACK of the window that timed out, while the SYNC is asked (tx_ack_old):
 * it completes OK the timed-out messages it covers. */
inline txack_old(d, a) {
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
}

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

#define FINISHED  ALLDONE

ltl in_order     { [] !misorder }
ltl release_safe { [] !unsafe }
ltl no_stale     { [] !stale }
ltl all_done     { <> FINISHED }

#include "p2p_nic.pml"

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

/* The host of NIC d posts its messages, at any moment. */
proctype Host(byte d)
{
    do
    :: atomic { posted[d] < NMSG(d) -> posted[d]++; mep[MSG(d, posted[d])] = ep[d];
                TR(printf("INFO post %d %d\n", d, posted[d])) }
    :: else -> break
    od
}

init {
    atomic {
        START_NICS
        run Host(0); run Host(1);
#ifdef CLOSE
        run Port();
#endif
        run SendTimeout();
    }
    /* init ends only when everything is done; a stop before that is an
     * invalid end state */
    FINISHED
}
