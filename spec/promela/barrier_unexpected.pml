/*
 * barrier_unexpected.pml -- the NIC-based barrier with its unexpected-message
 * record and the endpoint open/close rules (seed 002: Buntinas, Panda,
 * Sadayappan, "Fast NIC-Based Barrier over Myrinet/GM", sections 3 and 5).
 *
 * What is modelled
 *   - NS endpoints (ports), PORTS per NIC; endpoint s is port s % PORTS of
 *     NIC s / PORTS.  Each endpoint is used by a sequence of INC processes
 *     (incarnations): a process opens the endpoint, runs the barrier schedule
 *     and, unless it is the last incarnation, may be killed at any moment
 *     (the endpoint is closed); then the next process reuses the endpoint.
 *   - The schedule: NB consecutive barriers over different subsets (barrier
 *     0: everybody; barrier b >= 1: endpoints (b-1) % NS and b % NS).
 *     Processes arrive asynchronously; a process starts a barrier only after
 *     its previous one completed.
 *   - Algorithms, as lists of send/receive steps the host hands the NIC:
 *     pairwise exchange (PE, default; MPICH's recursive doubling, with the
 *     extra ranks of a non-power-of-two group folded in first and out last)
 *     or gather-broadcast (-DGB, a GBK-ary tree over the ranks).
 *   - The NIC runs the steps of an active barrier as far as it can: a send
 *     goes out at once; a receive completes at once if the record bit of that
 *     peer is set (the bit is then cleared), otherwise the barrier waits.
 *     A barrier message that arrives for an active barrier waiting for exactly
 *     that peer advances it; any other arrival sets the bit of its
 *     (connection, port) in the record of the destination endpoint.
 *   - Reliable in-order delivery between NICs (GM's connections): channels
 *     never lose.  Endpoints follow the rule the paper adopts: messages for
 *     a closed endpoint are recorded; when the endpoint opens, each recorded
 *     message is rejected back to its sender, whose NIC resends it only if the
 *     sending endpoint has not been closed since (its send record survives).
 *     To know that, the reject names the message: each recorded bit keeps the
 *     sender's open generation (in an MCP, the packet's connection sequence
 *     number would do), and the sender compares it with its endpoint's current
 *     one.  Without it (BROKEN_UNTAGGED_REJECT) a reject of a stale message
 *     makes the sender resend a fresh one that is still in flight.
 *   - Closing an endpoint aborts its barrier, drops its send records, and
 *     forgets what was recorded while it was open (as ref/proto/nc_barrec).
 *   - The paper's assumption on restarts: a process opens an endpoint only
 *     when no other endpoint is held by a process of an earlier incarnation
 *     and no message of an earlier incarnation is still in a channel.
 *   - Ghost state (not used by the protocol, only by the properties): the
 *     incarnation and barrier number each message belongs to, and how many
 *     barriers each process entered.
 *
 * Properties
 *   safety          (no claim, -DSAFETY) no invalid end state (the last
 *                   incarnations never get stuck) and the channel-size assertion.
 *   right_barrier   a receive step always takes a message sent for the same
 *                   barrier (within one program run).
 *   barrier_safe    no process leaves barrier k before every participant
 *                   (of its incarnation) entered barrier k.
 *   no_stale        no message of an earlier incarnation of a process is used
 *                   to complete a barrier of a later one.
 *   one_unexpected  at most one outstanding unexpected message per (peer,
 *                   port) for an open endpoint: a bit is never set twice.
 *   all_complete    under weak fairness every barrier of the last incarnation
 *                   completes everywhere (acceptance cycles, -a -f).
 *
 * Broken variants (each must be caught)
 *   -DBROKEN_NO_REJECT_ON_OPEN  opening an endpoint keeps what was recorded
 *                               while it was closed: no_stale fails.
 *   -DBROKEN_NO_CLEAR_BIT       a recorded message is used but its bit is not
 *                               cleared: barrier_safe fails.
 *   -DBROKEN_CLEAR_ON_OPEN      the paper's naive rule: opening clears the
 *                               record, nothing is rejected, so a message sent
 *                               before its receiver started is lost:
 *                               all_complete fails.
 *   -DBROKEN_UNTAGGED_REJECT    the reject names only (connection, port); the
 *                               sender resends whatever it last sent there:
 *                               right_barrier and barrier_safe fail.
 *
 * Commands (make models runs exactly these, in build/models/barrier_unexpected/<variant>/)
 *   spin -a [-DGB] [-DBROKEN_...] barrier_unexpected.pml
 *   cc -O2 -DSAFETY -DNOCLAIM -DMEMLIM=2048 -o pan_safety pan.c
 *   ./pan_safety -m200000
 *   cc -O2 -DSAFETY -DMEMLIM=2048 -o pan_ltlsafe pan.c
 *   ./pan_ltlsafe -m200000 -N barrier_safe   (and -N no_stale, -N one_unexpected)
 *   cc -O2 -DMEMLIM=2048 -DNFAIR=4 -o pan_live pan.c
 *   ./pan_live -a -f -m200000 -N all_complete
 *   spin -t -p barrier_unexpected.pml          # replay a counterexample
 *   spin -n<seed> -u20000 barrier_unexpected.pml  # seeded random simulation
 *   spin -DTRACE -n<seed> -u50000 barrier_unexpected.pml | build/models/agree/replay br 3 1
 *                                                    # model vs ref/proto (tests/models/agree)
 */

#ifndef NS
#define NS     3        /* endpoints (2..4) */
#endif
#ifndef PORTS
#define PORTS  1        /* endpoints per NIC */
#endif
#ifndef NB
#define NB     3        /* barriers in the schedule */
#endif
#ifndef INC
#define INC    2        /* processes (incarnations) per endpoint */
#endif
#ifndef GBK
#define GBK    2        /* fan-out of the GB tree */
#endif
#ifndef CAP
#define CAP    (2 * NS) /* channel capacity; sized so that a send never blocks */
#endif

#define NN        ((NS + PORTS - 1) / PORTS)   /* NICs */
#define NIC(s)    ((s) / PORTS)
#define BIT(q)    (1 << (q))
#define ALLSLOTS  (BIT(NS) - 1)
#define MEMB(b)   ((b) == 0 -> ALLSLOTS : (BIT(((b) - 1) % NS) | BIT((b) % NS)))
#define MEMBER(s, b) ((MEMB(b) >> (s)) & 1)

/* -DTRACE: simulations print every use of the record, one line each, for
 * tests/models/replay.c to check against ref/proto/nc_barrec.  The verified
 * model is compiled without it. */
#ifdef TRACE
#define TR(x) x;
#else
#define TR(x)
#endif

#define SEND 1
#define RECV 2
#define MSG  1          /* barrier message */
#define REJ  2          /* "rejected on open": please resend if still yours */

/* kind, source endpoint, destination endpoint, sender's open generation,
 * ghost barrier, ghost incarnation */
chan net[NN] = [CAP] of { byte, byte, byte, byte, byte, byte };

/* NIC state, per endpoint */
bool open[NS];        /* endpoint open */
bool busy[NS];      /* a barrier send token is attached to the port */
byte bar[NS];         /* which barrier of the schedule it is */
byte opi[NS];         /* node index: next step of that barrier */
bool fin[NS];         /* completion event waiting for the host */
byte rec[NS];         /* unexpected-message record: bit q = one from endpoint q */
bool pend[NS * NS];   /* pend[s*NS+d]: s's NIC still holds its last message to d */
byte gen[NS];         /* how many times the endpoint was opened */
byte rgen[NS * NS];   /* generation of the sender of each recorded message */

/* ghost state */
byte inc[NS];         /* incarnation now holding the endpoint (1..INC) */
byte ent[NS * INC];   /* ent[s*INC+i-1]: barriers entered by incarnation i of s */
byte rbar[NS * NS];   /* barrier and incarnation of the recorded message */
byte rinc[NS * NS];
byte pbar[NS * NS];   /* barrier and incarnation of the pending message */
byte pinc[NS * NS];
byte inflight[INC + 1];  /* barrier messages in channels, by incarnation */
byte finished;        /* last incarnations that completed their schedule */
bool early;           /* someone left a barrier too early */
bool stale;           /* a message of another incarnation was used */
bool overrun;         /* a record bit was set twice for an open endpoint */
bool wrongbar;        /* a message of another barrier of the same run was used */

ltl barrier_safe   { [] !early }
ltl no_stale       { [] !stale }
ltl one_unexpected { [] !overrun }
ltl right_barrier  { [] !wrongbar }
ltl all_complete   { <> (finished == NS) }

/* Step j of endpoint s in barrier b: sets opk (0: no such step) and opp (the
 * peer endpoint).  Works on ranks within the barrier, then maps back. */
#define EMIT(k, peer) if :: cnt == (j) -> opk = (k); opp = (peer) :: else -> skip fi; cnt++

inline getop(s, b, j) {
    msk = MEMB(b); n = 0; rnk = 0; x = 0;
    do
    :: x < NS ->
        if
        :: (msk >> x) & 1 -> if :: x < (s) -> rnk++ :: else -> skip fi; n++
        :: else -> skip
        fi;
        x++
    :: else -> break
    od;
    opk = 0; opp = 0; cnt = 0; y = 1;
#ifdef GB
    do                                          /* gather from the children */
    :: y <= GBK && rnk * GBK + y < n -> EMIT(RECV, rnk * GBK + y); y++
    :: else -> break
    od;
    if
    :: rnk > 0 -> EMIT(SEND, (rnk - 1) / GBK);  /* gather to the parent */
                  EMIT(RECV, (rnk - 1) / GBK)   /* broadcast from the parent */
    :: else -> skip
    fi;
    y = 1;
    do                                          /* broadcast to the children */
    :: y <= GBK && rnk * GBK + y < n -> EMIT(SEND, rnk * GBK + y); y++
    :: else -> break
    od;
#else
    p2 = 1;
    do :: p2 * 2 <= n -> p2 = p2 * 2 :: else -> break od;
    if
    :: rnk >= p2 -> EMIT(SEND, rnk - p2); EMIT(RECV, rnk - p2)
    :: else ->
        if :: rnk < n - p2 -> EMIT(RECV, rnk + p2) :: else -> skip fi;
        do
        :: y < p2 -> EMIT(SEND, rnk ^ y); EMIT(RECV, rnk ^ y); y = y * 2
        :: else -> break
        od;
        if :: rnk < n - p2 -> EMIT(SEND, rnk + p2) :: else -> skip fi
    fi;
#endif
    if
    :: opk != 0 ->                              /* rank opp -> endpoint */
        x = 0; cnt = 0;
        do
        :: ((msk >> x) & 1) == 0 -> x++
        :: ((msk >> x) & 1) == 1 ->
            if :: cnt == opp -> break :: else -> cnt++; x++ fi
        od;
        opp = x
    :: else -> skip
    fi;
    msk = 0; n = 0; rnk = 0; x = 0; y = 0; cnt = 0; p2 = 0
}

inline put(to_, k_, s_, d_, g_, b_, i_) {
    assert(nfull(net[to_]));                    /* CAP is large enough */
    net[to_]!k_, s_, d_, g_, b_, i_
}

/* Run the active barrier of endpoint s as far as it goes. */
inline advance(s) {
    do
    :: busy[s] ->
        getop(s, bar[s], opi[s]);
        if
        :: opk == SEND ->
            put(NIC(opp), MSG, s, opp, gen[s], bar[s], inc[s]);
            inflight[inc[s]]++;
            pend[s * NS + opp] = 1; pbar[s * NS + opp] = bar[s]; pinc[s * NS + opp] = inc[s];
            opi[s]++
        :: opk == RECV && ((rec[s] >> opp) & 1) ->
            /* the message came early: use the record */
            TR(printf("BR TAKE %d %d 1\n", s, opp))
            stale = stale || rinc[s * NS + opp] != inc[s];
            wrongbar = wrongbar || (rbar[s * NS + opp] != bar[s] && rinc[s * NS + opp] == inc[s]);
#ifndef BROKEN_NO_CLEAR_BIT
            rec[s] = rec[s] & ~BIT(opp);
#endif
            opi[s]++
        :: opk == RECV && !((rec[s] >> opp) & 1) ->         /* wait for it */
            TR(printf("BR TAKE %d %d 0\n", s, opp))
            break
        :: opk == 0 -> busy[s] = 0; fin[s] = 1; break      /* barrier complete */
        fi
    :: else -> break
    od;
    opk = 0; opp = 0
}

/* The endpoint s opens: reject what was recorded while it was closed. */
inline nic_open(s) {
    TR(printf("BR OPEN %d %d\n", s, rec[s]))
#ifdef BROKEN_NO_REJECT_ON_OPEN
    skip;
#elif defined(BROKEN_CLEAR_ON_OPEN)
    rec[s] = 0;
#else
    x = 0;
    do
    :: x < NS ->
        if
        :: (rec[s] >> x) & 1 ->
            put(NIC(x), REJ, s, x, rgen[s * NS + x], 0, 0);
            rec[s] = rec[s] & ~BIT(x)
        :: else -> skip
        fi;
        x++
    :: else -> break
    od;
    x = 0;
#endif
    gen[s]++; open[s] = 1
}

/* The endpoint s closes: its barrier is aborted, its send records are
 * dropped, and what was recorded while it was open is forgotten (those
 * senders belong to the run that is ending). */
inline nic_close(s) {
    TR(printf("BR CLOSE %d\n", s))
    open[s] = 0; busy[s] = 0; fin[s] = 0; rec[s] = 0;
    x = 0;
    do :: x < NS -> pend[s * NS + x] = 0; x++ :: else -> break od;
    x = 0
}

/* The receive side of NIC `me'. */
proctype Nic(byte me)
{
    byte k, src, dst, g, b, i;
    byte msk, n, rnk, x, y, cnt, p2, opk, opp;
end:
    do
    :: atomic {
        net[me]?k, src, dst, g, b, i;
        if
        :: k == MSG ->
            inflight[i]--;
            if
            :: open[dst] && busy[dst] ->
                getop(dst, bar[dst], opi[dst])
            :: else -> skip
            fi;
            if
            :: open[dst] && busy[dst] && opk == RECV && opp == src ->
                /* the awaited message: advance the barrier */
                stale = stale || i != inc[dst];
                wrongbar = wrongbar || (b != bar[dst] && i == inc[dst]);
                opi[dst]++;
                advance(dst)
            :: else ->
                /* unexpected, or for a closed endpoint: record it */
                TR(printf("BR RECV %d %d %d\n", dst, src,
                          (open[dst] -> ((rec[dst] >> src) & 1) : 2)))
                overrun = overrun || (open[dst] && ((rec[dst] >> src) & 1));
                rec[dst] = rec[dst] | BIT(src);
                rgen[dst * NS + src] = g;
                rbar[dst * NS + src] = b; rinc[dst * NS + src] = i
            fi
        :: k == REJ ->
            /* src rejected a message of our dst: resend it if dst has not been
             * closed since it was sent (same generation, send record alive) */
            if
#ifdef BROKEN_UNTAGGED_REJECT
            :: pend[dst * NS + src] ->
#else
            :: pend[dst * NS + src] && g == gen[dst] ->
#endif
                put(NIC(src), MSG, dst, src, gen[dst], pbar[dst * NS + src], pinc[dst * NS + src]);
                inflight[pinc[dst * NS + src]]++
            :: else -> skip
            fi
        fi;
        opk = 0; opp = 0; k = 0; src = 0; dst = 0; g = 0; b = 0; i = 0
       }
    od
}

/* May incarnation i of endpoint s start?  (the restart assumption: every
 * endpoint it will talk to is closed or held by its own program run, and no
 * message of an earlier run is still in a channel) */
#define NOT_OLD(q, i) ((q) >= NS || !open[q] || inc[q] == (i))
#define OPEN_OK(i) (NOT_OLD(0, i) && NOT_OLD(1, i) && NOT_OLD(2, i) && NOT_OLD(3, i) \
                    && ((i) < 2 || inflight[1] == 0) && ((i) < 3 || inflight[2] == 0))

/* The processes using endpoint s, one incarnation after the other. */
proctype Host(byte s)
{
    byte i = 1, b, q;
    byte msk, n, rnk, x, y, cnt, p2, opk, opp;

    do
    :: i <= INC ->
        if
        :: atomic { OPEN_OK(i) -> inc[s] = i; nic_open(s) }
        :: i < INC -> i++; goto next           /* killed before it started */
        fi;
        b = 0;
        do
        :: b < NB && !MEMBER(s, b) -> b++
        :: b < NB && MEMBER(s, b) ->
            atomic {                                  /* enter barrier b */
                ent[s * INC + i - 1] = b + 1;
                busy[s] = 1; bar[s] = b; opi[s] = 0;
                advance(s)
            }
            if
            :: atomic {
                fin[s] ->                             /* leave barrier b */
                fin[s] = 0;
                q = 0;
                do
                :: q < NS ->
                    early = early || (MEMBER(q, b) && ent[q * INC + i - 1] < b + 1);
                    q++
                :: else -> break
                od;
                q = 0; b++
               }
            :: i < INC -> break                       /* killed inside the barrier */
            fi
        :: b == NB -> break
        :: b < NB && i < INC -> break                 /* killed between barriers */
        od;
        if
        :: i < INC -> atomic { nic_close(s); b = 0; i++ }
        :: else -> break
        fi;
next:   skip
    :: else -> break
    od;
    finished++
}

init {
    byte s;
    atomic {
        s = 0;
        do :: s < NN -> run Nic(s); s++ :: else -> break od;
        s = 0;
        do :: s < NS -> run Host(s); s++ :: else -> break od;
        s = 0
    }
}
