/*
 * group_setup.pml -- hardware multicast groups for communicators (seed 003:
 * Mamidala, Jin, Panda, sections 3, 4 and 5.1): a management entity that
 * answers create/join/leave at once and writes the switches later, multicast
 * testing (the root's ping, the members' acks), and the three ways a
 * communicator gets its group: Basic (create and join, then block in the
 * testing), Lazy (testing progressed by the later collectives, broadcasts
 * point-to-point until the group is known ready) and Pool (groups of every
 * process made beforehand; a communicator takes one, the non-members leave,
 * the pool is refilled in the background; Lazy when the pool is empty).
 * The management entity is docs/fabric.md's ("Switch multicast", "The
 * management entity"); the broadcast-over-multicast scheme is the one
 * docs/models.md states for the implementation.
 *
 * What is modelled
 *   - NN = 3 nodes, NID = 2 group ids, NC = 2 communicators created one
 *     after the other (MPI_Comm_create is collective and in program order),
 *     both rooted at node 0: communicator 0 is {0, 1}, communicator 1 is
 *     {0, 1, 2}.  A pool of one group.
 *   - The management entity (ME) holds, per id, its state (free, live,
 *     draining), its MGID (the name the requests use: a communicator's own,
 *     or a pool generation's), the members it recorded and the switch
 *     entries: the set of nodes the group's tree reaches now.  Requests
 *     name the MGID, so a request repeated after the id was freed and given
 *     to another group finds nothing.  A create of an MGID that is live
 *     answers its id again (a repeat); otherwise it takes the lowest free id,
 *     or is refused (ENOSPC) when none is free.  A join and a leave add and
 *     remove one member; the last leave makes the id draining, and it is
 *     free only once the entries are cleared.  An answer only says the
 *     request was taken.
 *   - Each node sends its requests in order (one FIFO queue per node) and
 *     sends the one at the head again until it is answered.  The ME may
 *     lose an answer: the request then stays at the head and is carried
 *     out again (its repeat: EEXIST, ENOENT, or the same id).  A lost
 *     request, a lost switch write and a lost write answer only delay the
 *     work (the request and the write are sent again after a time-out), so
 *     they are the interleavings' delays, not separate events.
 *   - The switch entries change one node's branch at a time, in any order
 *     and at any later moment, towards the members the ME recorded.
 *   - Multicast testing: the root pings the group; every member the tree
 *     reaches acks; the ping, or a member's ack, may be lost; the root pings
 *     again at its next collective (Lazy, Pool's background testing) or at
 *     once (Basic) until every member acked.  A ping and its acks are one
 *     step: the tree at the moment of the ping decides who is reached.
 *   - Broadcasts: a communicator's root broadcasts until one broadcast went
 *     by multicast (the application's later collectives; finite for the
 *     model because a broadcast completes before the next starts and is
 *     numbered modulo 2), then frees the communicator (every member
 *     leaves).  Until the group is known ready a broadcast goes
 *     point-to-point (the reliable connection: every member gets it).  Once
 *     ready it goes by multicast: each copy may be lost; every member that
 *     takes it acks to the root (point-to-point: the ack arrives, in its own
 *     process, so weak fairness brings it); the root sends it again by
 *     unicast, at any moment, to the members whose ack it lacks; a member
 *     takes a broadcast whose number is the next one and drops (and acks
 *     again) one it has.  A multicast copy is delivered or lost when it is
 *     sent.
 *     The windowed broadcast (several in flight, cumulative acks) is
 *     swmc_bcast.pml's.
 *   - Pool (the default): the pool group (id 0, every node a member, its
 *     entries written and tested) is made at MPI_Init.  A communicator takes
 *     it when it is ready; the non-members leave it; the pool is empty at
 *     once and refilled in the background: node 0 creates a new MGID, the
 *     others join, node 0 tests it, then it is ready.  A communicator that
 *     finds the pool empty goes Lazy.  A create refused for want of an id
 *     is tried again (the pool first) once an id is free again (a time-out
 *     that would find none free again changes nothing).
 *   - -DLAZY: no pool, every communicator Lazy.  -DBASIC: no pool, and the
 *     creation returns only once the testing saw every member: no
 *     broadcast goes point-to-point.
 *   - Losses: at most MAXLOSS over the whole run (answers, pings, acks of
 *     pings, multicast copies), so every run stays finite and liveness means
 *     something.
 *   - The sizes are fixed (the ME lists the switch writes of 2 ids and 3
 *     nodes one by one); only MAXLOSS is a macro.  With them the base has
 *     655,670 states and each check takes at most about 6 s here.
 *
 * Properties
 *   safety          (no claim, -DSAFETY) assertions and no invalid end state.
 *                   Assertions: a member takes a broadcast at most once;
 *                   when the root completes a broadcast every member has it
 *                   (exactly once, whichever path); the pool never gives one
 *                   group to two holders, and a created id is held by
 *                   nobody.  End state: the run stops only when both
 *                   communicators are freed and every id is free or is the
 *                   pool's (no id leaks; a freed communicator's id comes
 *                   back).
 *   ready_safe      a communicator uses multicast only while its group's
 *                   tree reaches every member (judged by the switch
 *                   entries, not the root's view).
 *   uses_multicast  under weak fairness and the loss bound, every
 *                   communicator eventually broadcasts by multicast
 *                   (acceptance cycles, -a -f).
 *   all_done        under weak fairness, the run eventually ends as the
 *                   end-state check wants: communicators freed, ids back.
 *
 * Broken variants (each must be caught)
 *   -DBROKEN_READY_FIRST_ACK  the testing declares the group ready at the
 *                             first ack: ready_safe fails.
 *   -DBROKEN_POOL_REUSE       the pool keeps a group it gave until the
 *                             non-members' leaves are answered, and gives it
 *                             again meanwhile: the one-holder assertion.
 *   -DBROKEN_LEAVE_NO_FREE    a leave is answered but removes no member: the
 *                             id never drains: safety (end state) and
 *                             all_done fail.
 *   -DBROKEN_NO_BCAST_ACK     a broadcast by multicast is complete when sent
 *                             (no acks, no unicast retransmission): a lost
 *                             copy loses the message: the assertion.
 *   -DBROKEN_NO_DEDUP         a member takes a copy it has again: the
 *                             at-most-once assertion.
 *   -DBROKEN_NO_PING_RETRY    the root pings once: a ping sent before the
 *                             tree was written never gets its acks:
 *                             uses_multicast fails.
 *
 * Commands (make models runs exactly these, in build/models/group_setup/<variant>/)
 *   spin -a [-DLAZY|-DBASIC] [-DBROKEN_...] group_setup.pml
 *   cc -O2 -DSAFETY -DNOCLAIM -DMEMLIM=2048 -o pan_safety pan.c
 *   ./pan_safety -m200000                            # assertions, end states
 *   cc -O2 -DSAFETY -DMEMLIM=2048 -o pan_ltl pan.c
 *   ./pan_ltl -m200000 -N ready_safe
 *   cc -O2 -DMEMLIM=2048 -DNFAIR=4 -o pan_live pan.c
 *   ./pan_live -a -f -m200000 -N uses_multicast      (and -N all_done)
 *   spin -t -p group_setup.pml                       # replay a counterexample
 *   spin -n<seed> -u20000 group_setup.pml            # seeded random simulation
 * There is no C core for group set-up in ref/proto yet: tests/models/agree
 * does not replay this model.
 */

#ifndef MAXLOSS
#define MAXLOSS 1       /* losses over the run (answers, pings, acks, copies) */
#endif

#define NN      3       /* nodes; node 0 is both communicators' root */
#define NC      2       /* communicators */
#define NID     2       /* group ids the ME has */
#define ALL     7       /* every node */
#define MEMB(c) (3 + 4 * (c))              /* communicator 0 is {0, 1}, 1 is {0, 1, 2} */
#define NEED(c) (MEMB(c) & 6)              /* the members other than the root */
#define BIT(n)  (1 << (n))
#define HAS(s, n) ((((s) >> (n)) & 1) == 1)
#define LACKS(s, n) ((((s) >> (n)) & 1) == 0)

#if !defined(LAZY) && !defined(BASIC)
#define POOL
#endif

/* MGIDs: communicator c's own is c + 1; the pool's k-th is NC + 1 + k */
#define TAGC(c) ((c) + 1)
#define PTAG(k) (NC + 1 + (k))
#define NTAG    (2 * NC + 2)

mtype = { CREATE, JOIN, LEAVE };
#define FREE    0
#define LIVE    1
#define DRAIN   2
#define NOSPC   255     /* a create's answer: no free id */
#define POOLH   9       /* holder: the pool */
#define EMPTY   0       /* pool states */
#define FILLING 1
#define READY   2

chan rq[NN] = [4] of { mtype, byte };   /* node n's requests to the ME: type, MGID */

/* the management entity and the switches */
byte gst[NID];      /* FREE, LIVE, DRAIN */
byte gtag[NID];     /* the MGID of a live or draining id */
byte mem[NID];      /* members the ME recorded */
byte tbl[NID];      /* the switch entries: nodes the group's tree reaches */
byte cans[NTAG];    /* a create's answer, as the creator got it: id + 1, NOSPC; 0: none */
byte out[NTAG];     /* requests naming this MGID not answered yet */
byte lost;          /* losses so far */

/* the holders */
byte hold[NID];     /* who holds an id: 0 nobody (free), c + 1 communicator c, POOLH the pool */
byte pool;          /* EMPTY, FILLING, READY */
byte pgid, ptag;    /* the pool's ready group: id, MGID */
byte nref;          /* refills of the pool completed */
bool ptaken;        /* (BROKEN_POOL_REUSE) the ready group was given, not yet removed */

/* the communicators */
byte created;       /* creations returned (they run in program order) */
byte ctag[NC];      /* the MGID communicator c uses */
byte cg[NC];        /* its id, once hasg */
bool hasg[NC];
bool ready[NC];     /* the root knows the group ready: broadcasts go by multicast */
byte cack[NC];      /* the members whose ping ack the root has */
bool mcu[NC];       /* a broadcast went by multicast */
bool done[NC];      /* freed, every leave answered */

/* broadcasts: numbered modulo 2; one at a time per communicator */
byte bseq[NC];      /* the current broadcast's number */
byte lastb[NC];     /* bit m: the number of the last broadcast member m took */
byte got[NC];       /* members that took the current broadcast (ghost) */
byte ackp[NC];      /* acks on their way to the root */
byte acked[NC];     /* acks the root has */

#define SOMEFREE (gst[0] == FREE || gst[1] == FREE)
#define IDOK(g)  (gst[g] == FREE || hold[g] == POOLH)
#ifdef POOL
#define POOLOK   (pool == READY)
#else
#define POOLOK   true
#endif
#define FINISHED (done[0] && done[1] && POOLOK && IDOK(0) && IDOK(1))
#define RSAFE(c) (!ready[c] || (tbl[cg[c]] & NEED(c)) == NEED(c))

ltl ready_safe     { [] (RSAFE(0) && RSAFE(1)) }
ltl uses_multicast { <> (mcu[0] && mcu[1]) }
ltl all_done       { <> FINISHED }

inline request(n, t, tag) { rq[n]!t, tag; out[tag]++ }

/* The ME carries out node n's request at the head of its queue; then it
 * answers, or the answer is lost and the request comes again. */
inline serve(n) {
    rq[n]?<t, tag>;
    r = 0;
    if
    :: t == CREATE ->
        g = 0;
        do
        :: g < NID && gst[g] == LIVE && gtag[g] == tag -> break    /* a repeat */
        :: g < NID && !(gst[g] == LIVE && gtag[g] == tag) -> g++
        :: g == NID -> break
        od;
        if
        :: g == NID ->
            g = 0;
            do
            :: g < NID && gst[g] == FREE ->
                gst[g] = LIVE; gtag[g] = tag; mem[g] = BIT(n); break
            :: g < NID && gst[g] != FREE -> g++
            :: g == NID -> break
            od
        :: else -> skip
        fi;
        r = (g == NID -> NOSPC : g + 1)
    :: t == JOIN || t == LEAVE ->
        g = 0;
        do
        :: g < NID && gst[g] == LIVE && gtag[g] == tag -> break
        :: g < NID && !(gst[g] == LIVE && gtag[g] == tag) -> g++
        :: g == NID -> break                                 /* ENOENT */
        od;
        if
        :: g < NID && t == JOIN -> mem[g] = mem[g] | BIT(n)  /* or EEXIST */
        :: g < NID && t == LEAVE && HAS(mem[g], n) ->
#ifndef BROKEN_LEAVE_NO_FREE
            mem[g] = mem[g] & ~BIT(n);
#endif
            if
            :: mem[g] == 0 && tbl[g] == 0 -> gst[g] = FREE; gtag[g] = 0; hold[g] = 0
            :: mem[g] == 0 && tbl[g] != 0 -> gst[g] = DRAIN
            :: else -> skip
            fi
        :: else -> skip                                      /* ENOENT */
        fi
    fi;
    if
    :: rq[n]?t, tag; out[tag]--;
        if :: t == CREATE -> cans[tag] = r :: else -> skip fi
    :: lost < MAXLOSS -> lost++                              /* the answer is lost */
    fi;
    t = 0; tag = 0; g = 0; r = 0
}

/* A switch writes node n's branch of id g's entry as the ME wants it; the
 * last clearing write of a draining id frees it. */
#define WANT(g, n) (gst[g] != FREE && HAS(tbl[g] ^ mem[g], n))
inline write(g, n) {
    tbl[g] = tbl[g] ^ BIT(n);
    if
    :: gst[g] == DRAIN && tbl[g] == 0 -> gst[g] = FREE; gtag[g] = 0; hold[g] = 0
    :: else -> skip
    fi
}

proctype ME()
{
    mtype t;
    byte tag, g, r;
end:
    do
    :: atomic { nempty(rq[0]) -> serve(0) }
    :: atomic { nempty(rq[1]) -> serve(1) }
    :: atomic { nempty(rq[2]) -> serve(2) }
    :: atomic { WANT(0, 0) -> write(0, 0) }
    :: atomic { WANT(0, 1) -> write(0, 1) }
    :: atomic { WANT(0, 2) -> write(0, 2) }
    :: atomic { WANT(1, 0) -> write(1, 0) }
    :: atomic { WANT(1, 1) -> write(1, 1) }
    :: atomic { WANT(1, 2) -> write(1, 2) }
    od
}

/* The root (node 0) pings id g; each of the members need the tree reaches
 * acks, unless the copy or the ack is lost; acc collects the acks. */
inline ping(g, need, acc) {
    m = 1;
    do
    :: m < NN ->
        if
        :: HAS(need, m) && HAS(tbl[g], m) ->
            if
            :: acc = acc | BIT(m)
            :: lost < MAXLOSS -> lost++
            fi
        :: else -> skip
        fi;
        m++
    :: else -> break
    od;
    m = 0
}

#ifdef BROKEN_READY_FIRST_ACK
#define TESTED(acc, need) ((acc) != 0)
#else
#define TESTED(acc, need) (((acc) & (need)) == (need))
#endif

/* Member m of communicator c is handed broadcast bseq[c] and acks it. */
inline deliver(c, m) {
    if
    :: HAS(lastb[c], m) != bseq[c] ->                        /* the next one: taken */
        assert(LACKS(got[c], m));
        got[c] = got[c] | BIT(m); lastb[c] = lastb[c] ^ BIT(m)
    :: else ->                                               /* a copy it has */
#ifdef BROKEN_NO_DEDUP
        assert(LACKS(got[c], m));
#endif
        skip
    fi;
    ackp[c] = ackp[c] | BIT(m)
}

/* Communicator c takes the pool's ready group; its non-members leave it. */
inline take_pool(c) {
    assert(hold[pgid] == POOLH);                             /* one holder at a time */
    hold[pgid] = c + 1; cg[c] = pgid; hasg[c] = 1; ctag[c] = ptag; ready[c] = 1;
    m = 0;
    do
    :: m < NN && !HAS(MEMB(c), m) -> request(m, LEAVE, ptag); m++
    :: m < NN && HAS(MEMB(c), m) -> m++
    :: m == NN -> break
    od;
    m = 0;
#ifdef BROKEN_POOL_REUSE
    ptaken = 1                                               /* removed once the leaves are answered */
#else
    pool = EMPTY
#endif
}

inline setup(c) {
#ifdef POOL
    if
    :: pool == READY -> take_pool(c)
    :: else -> ctag[c] = TAGC(c); request(0, CREATE, TAGC(c))
    fi
#else
    ctag[c] = TAGC(c); request(0, CREATE, TAGC(c))
#endif
}

/* What every collective call of communicator c does first (Lazy's
 * progress): take the create's answer, try again after a refusal, test. */
inline progress(c) {
    if
    :: !hasg[c] && cans[ctag[c]] == NOSPC && SOMEFREE ->
        cans[ctag[c]] = 0; setup(c)
    :: !hasg[c] && cans[ctag[c]] != 0 && cans[ctag[c]] != NOSPC ->
        cg[c] = cans[ctag[c]] - 1; hasg[c] = 1;
        assert(hold[cg[c]] == 0);                            /* a created id is nobody's */
        hold[cg[c]] = c + 1;
        m = 1;                                               /* the root tells the others */
        do
        :: m < NN && HAS(MEMB(c), m) -> request(m, JOIN, ctag[c]); m++
        :: m < NN && !HAS(MEMB(c), m) -> m++
        :: m == NN -> break
        od;
        m = 0
    :: hasg[c] && !ready[c] ->
#ifdef BROKEN_NO_PING_RETRY
        if :: cack[c] == 0 -> ping(cg[c], NEED(c), cack[c]); cack[c] = cack[c] | 128 :: else -> skip fi;
#else
        ping(cg[c], NEED(c), cack[c]);
#endif
        ready[c] = TESTED(cack[c] & 127, NEED(c))
    :: else -> skip
    fi
}

proctype Comm(byte c)
{
    byte m;
    atomic { created == c -> setup(c);
#ifndef BASIC
             created++
#endif
    }
#ifdef BASIC
    do                                                       /* blocking testing */
    :: atomic { progress(c); if :: ready[c] -> created++; break :: else fi }
    od;
#endif
    do                                                       /* collectives until one goes by multicast */
    :: atomic { progress(c);
                bseq[c] = 1 - bseq[c]; got[c] = 0; ackp[c] = 0; acked[c] = 0;
                if
                :: !ready[c] ->                              /* point-to-point: reliable */
                    m = 1;
                    do
                    :: m < NN && HAS(NEED(c), m) -> deliver(c, m); m++
                    :: m < NN && !HAS(NEED(c), m) -> m++
                    :: m == NN -> break
                    od;
                    m = 0;
                    assert(got[c] == NEED(c))
                :: else ->                                   /* multicast */
                    mcu[c] = 1;
                    m = 1;
                    do
                    :: m < NN && HAS(NEED(c), m) && HAS(tbl[cg[c]], m) ->
                        if
                        :: deliver(c, m)
                        :: lost < MAXLOSS -> lost++
                        fi;
                        m++
                    :: m < NN && !(HAS(NEED(c), m) && HAS(tbl[cg[c]], m)) -> m++
                    :: m == NN -> break
                    od;
                    m = 0;
                    break
                fi;
                ackp[c] = 0 }
    od;
#ifndef BROKEN_NO_BCAST_ACK
    do
    :: atomic { acked[c] != NEED(c) ->                       /* time-out: unicast to the rest */
                m = 1;
                do
                :: m < NN && HAS(NEED(c) & ~acked[c], m) -> deliver(c, m); m++
                :: m < NN && !HAS(NEED(c) & ~acked[c], m) -> m++
                :: m == NN -> break
                od;
                m = 0 }
    :: acked[c] == NEED(c) -> break
    od;
#endif
    atomic {                                                 /* MPI_Comm_free */
        assert(got[c] == NEED(c));                           /* every member has it */
        ready[c] = 0; got[c] = 0; ackp[c] = 0; acked[c] = 0;
        m = 0;
        do
        :: m < NN && HAS(MEMB(c), m) -> request(m, LEAVE, ctag[c]); m++
        :: m < NN && !HAS(MEMB(c), m) -> m++
        :: m == NN -> break
        od;
        m = 0
    }
    out[ctag[c]] == 0 -> done[c] = 1
}

/* The acks of broadcasts on their way to the roots (the point-to-point
 * connections: they arrive). */
proctype AckPath()
{
end:
    do
    :: atomic { ackp[0] != 0 -> acked[0] = acked[0] | ackp[0]; ackp[0] = 0 }
    :: atomic { ackp[1] != 0 -> acked[1] = acked[1] | ackp[1]; ackp[1] = 0 }
    od
}

#ifdef POOL
/* The pool is refilled in the background: node 0 creates the next MGID,
 * the others join, node 0 tests it; a refusal is tried again once an id is
 * free. */
proctype Refill()
{
    byte tag, g, m, acc;
end:
    do
    :: atomic { pool == EMPTY && nref < NC ->
                tag = PTAG(nref + 1); request(0, CREATE, tag); pool = FILLING }
        do
        :: atomic { cans[tag] == NOSPC && SOMEFREE -> cans[tag] = 0; request(0, CREATE, tag) }
        :: atomic { cans[tag] != 0 && cans[tag] != NOSPC ->
                    g = cans[tag] - 1;
                    assert(hold[g] == 0);                    /* a created id is nobody's */
                    hold[g] = POOLH;
                    request(1, JOIN, tag); request(2, JOIN, tag); break }
        od;
        do
        :: atomic {
#ifdef BROKEN_NO_PING_RETRY
                    if :: acc == 0 -> ping(g, 6, acc); acc = acc | 128 :: else -> skip fi;
#else
                    ping(g, 6, acc);
#endif
                    if
                    :: TESTED(acc & 127, 6) ->
                        pool = READY; pgid = g; ptag = tag; nref++;
                        acc = 0; g = 0; tag = 0; break
                    :: else -> skip
                    fi }
        od
#ifdef BROKEN_POOL_REUSE
    :: atomic { ptaken && out[ptag] == 0 -> ptaken = 0; pool = EMPTY }
#endif
    od
}
#endif

init {
    atomic {
#ifdef POOL
        /* MPI_Init made the pool's first group: every node joined, the
         * entries written, the testing done */
        gst[0] = LIVE; gtag[0] = PTAG(0); mem[0] = ALL; tbl[0] = ALL;
        hold[0] = POOLH; pool = READY; pgid = 0; ptag = PTAG(0);
        run Refill();
#endif
        run ME(); run AckPath(); run Comm(0); run Comm(1)
    }
    /* init ends only when every communicator is freed and every id is free
     * or the pool's; a stop before that is an invalid end state */
    FINISHED
}
