/*
 * p2p_nic.pml -- the handlers of the two NICs that run the connection of
 * p2p_conn.pml: receive, send engine, retransmission timer, and the port
 * that closes (-DCLOSE).  Not a model: p2p_reliable.pml, p2p_pingpong.pml
 * and p2p_timeout.pml include it after p2p_conn.pml and their own state,
 * then add their hosts or clients and init, which starts the NICs with
 * START_NICS.
 *
 *   - Each NIC is a set of processes, one per handler (receive, send engine,
 *     timer; the host), each step atomic, so that weak fairness means what
 *     the MCP's round-robin event loop gives.
 *   - With EPOCHS (p2p_timeout.pml) the receive handler drops data of
 *     another epoch and takes a SYNC (rxsyn) or its answer (txsya), the send
 *     engine stamps every packet with its epoch, and the timer of NIC 0 also
 *     sends the SYNC again while its answer is awaited.
 *
 * Broken variants of the connection (each must be caught; the oracle checks
 * them on p2p_reliable.pml, BROKEN_SECOND_REJECT is in p2p_conn.pml)
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
 */

/* The receive handler of NIC i: a packet from its peer p. */
proctype Rx(byte i)
{
    byte p = 1 - i, t, s, a, k, j, n;
#ifdef EPOCHS
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
#ifdef EPOCHS
            :: (t == DAT || t == FEN) && OTHEREP(p) ->     /* an old epoch's: dropped */
                TR(printf("INFO dropped seq %d msg %d: epoch %d, receiver's %d\n", s, k, e / 2, rep[p]));
                txack(i, a)
#endif
            :: (t == DAT || t == FEN) && !OTHEREP(p) ->
#ifdef EPOCHS
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
#ifdef EPOCHS
            :: t == SYN -> rxsyn(i, p, s, e)
            :: t == SYA -> txsya(i, s, a, e)
#endif
            fi
        fi;
        t = 0; s = 0; a = 0; k = 0
#ifdef EPOCHS
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
#ifdef EPOCHS
    byte x;
#endif
end:
    do
    :: atomic {
        len(cq[i]) > 0 && len(lk[i]) < CAP ->
        cq[i]?t, s CF(x);
        if :: len(cq[i]) == 0 -> cqack[i] = 0 :: else -> skip fi;
        if :: t == ACK -> s = rexp[1 - i] - 1 :: else -> skip fi;   /* read now */
#ifdef EPOCHS
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
#ifdef EPOCHS
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
#ifdef EPOCHS
    :: atomic {                                      /* the SYNC again: it or its answer was lost */
        i == 0 && probing && len(cq[0]) == 0 && len(cq[1]) == 0 &&
        len(lk[0]) == 0 && len(lk[1]) == 0 ->
        ctrlx(0, SYN, ssync, tep[0] * 8)
    }
#endif
    od
}

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

/* init's first step: both windows start at 1, and the handlers of both
 * NICs run (init's atomic step then runs the model's hosts or clients). */
#ifndef BROKEN_NO_RETRANSMIT
#define RUN_TIMERS  run Timer(0); run Timer(1);
#else
#define RUN_TIMERS
#endif
#define START_NICS \
        base[0] = 1; base[1] = 1; snext[0] = 1; snext[1] = 1; \
        rexp[0] = 1; rexp[1] = 1; qh[0] = 1; qh[1] = 1; cur[0] = 1; cur[1] = 1; \
        run Rx(0); run Rx(1); run Tx(0); run Tx(1); \
        RUN_TIMERS
