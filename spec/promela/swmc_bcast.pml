/*
 * swmc_bcast.pml -- the windowed reliable broadcast over a communicator's
 * switch multicast group, as the MPI library runs it (host/mpi/coll_bcast_swmc.c;
 * the scheme is docs/models.md's, "swmc_bcast.pml").  group_setup.pml models
 * how the group is made and tested; this model starts with the group ready.
 *
 * What is modelled
 *   - NR = 3 ranks of one communicator.  Every rank numbers the
 *     communicator's broadcasts alike, 1 .. M; broadcast R2K (3) has rank 1
 *     as its root, every other one rank 0 (-DR2K=0: rank 0 roots them all).
 *     The members of a broadcast are the other two ranks.
 *   - The programs: rank 0 calls MPI_Bcast 1 .. M, then MPI_Recv from rank 1,
 *     then MPI_Comm_free; rank 1 calls MPI_Bcast 1 .. M, MPI_Send to rank 0,
 *     MPI_Comm_free, MPI_Send to rank 2; rank 2 calls MPI_Bcast 1 .. M,
 *     MPI_Recv from rank 1, MPI_Comm_free.  The sends are eager; the
 *     receives wait.  A rank does the protocol's work (progress) only inside
 *     these calls, as the library does, one step of it at a time.
 *   - A broadcast is its fragments: broadcast PK (1) has 2, the others 1.
 *     Its bytes are a number, its own number.  The root hands every
 *     fragment to the NIC at once, a group packet the switches copy to each
 *     member; each copy may be lost.  Copies in flight are a set per root
 *     and member: they arrive in any order and late, after a resend of the
 *     same broadcast.
 *   - The root's MPI_Bcast returns once the fragments are handed over,
 *     keeping the bytes in a ring of W copies, unless W of its own
 *     broadcasts are unretired: then it first waits, in progress, until one
 *     is retired.  Every AM-th broadcast a root sends carries ACK_ME.
 *   - A member keeps each fragment once (a fragment it has, or of a
 *     broadcast it took, is dropped).  Its MPI_Bcast k waits until broadcast
 *     k is complete and takes it.  S, the member's cumulative ack, is the
 *     highest number such that every broadcast up to it is complete (or
 *     taken, or its own).  The member sends ACK(S) to a broadcast's root
 *     when a broadcast carrying ACK_ME completes; when a resend arrives,
 *     even a duplicate; when an ack to a root is due (a broadcast of that
 *     root completed without ACK_ME) and ACK_DELAY expires, at any moment
 *     of progress; and at MPI_Comm_free to every root whose last broadcast
 *     its last ack to it does not cover.  Any ack to a root ends what is
 *     due to it, even when a gap keeps S below the broadcast that made it
 *     due: the root's resend then brings the next ack, which is why a
 *     duplicate resend is acked.
 *   - Point-to-point (acks, resends, the application's messages) is
 *     reliable, delayed arbitrarily.  Acks are cumulative, so a root reads
 *     the latest one a member sent (an older one still in flight adds
 *     nothing); resends in flight are a set per root and member.
 *   - The root retires a broadcast once every member's ack covers it.  Its
 *     time-out for a broadcast and a member fires at a nondeterministic
 *     moment of progress while the broadcast is not covered for that
 *     member and the path to it is quiet (no copy or resend in flight, its
 *     last ack read, none due from it: RTO, 500 us, is five times
 *     ACK_DELAY); it resends the whole broadcast, from the root's copy,
 *     point-to-point.  The check runs in every progress call (MPI_Bcast,
 *     MPI_Recv, MPI_Comm_free).  A time-out for a broadcast and a member
 *     fires again only once that member's state changed (a resend to a
 *     member whose state did not change since the last one only repeats
 *     that one's answer; weak fairness, which SPIN applies per process,
 *     would not rule out such repeats for ever).  -DEAGER_TIMER drops the
 *     quiet path condition: 14.7 million states, about a minute here
 *     (measured, no error; not an EXPECTED row).
 *   - MPI_Comm_free sends the member's final acks, then waits (in progress)
 *     until the rank's own broadcasts are all retired, then leaves.
 *   - Losses: at most MAXLOSS multicast copies over the run.
 *   - Sizes (decisions): M = 4 broadcasts, W = 2 (the implementation's 8),
 *     ACK_ME on every AM = 2nd broadcast of a root.  ACK_ME on every W/2-th
 *     with W = 2 would put it on every broadcast, and no ack would ever
 *     wait for ACK_DELAY; with AM = W
 *     the root's window fills before it asks, so a full window is freed
 *     only by an ACK_ME ack, a delayed ack or a resend's ack, the paths the
 *     implementation's 8/4 also depends on.  Rank 0 roots broadcasts 1, 2
 *     and 4: its third waits for the window.  Rank 1's broadcast 3 sits
 *     between them, so a member's cumulative ack to one root covers the
 *     other root's broadcasts and a gap of one root's broadcast holds back
 *     an ack to the other.  One two-fragment broadcast tells "complete"
 *     from "a fragment arrived".  MAXLOSS = 1: each broken variant needs
 *     one lost copy at most.  The base's safety run has 1,704,775 states
 *     (about 4 s here); its liveness runs pass (1,704,331 and 1,704,727
 *     states, about 30 s each) and are left to two smaller runs: M=3
 *     (both roots, the window never full) and R2K=0 (one root, M=4, the
 *     window fills).
 *
 * Properties
 *   safety       (no claim, -DSAFETY) assertions and no invalid end state.
 *                Assertions: a member's MPI_Bcast k takes broadcast k, as
 *                its k-th take, once, whole (every fragment) and with the
 *                bytes of k; the root retires a broadcast only when every
 *                member has it complete (judged by the members' own state);
 *                a root never has more than W of its own broadcasts
 *                unretired.  End state: the run stops only when every
 *                rank's MPI_Comm_free returned.
 *   all_retired  under weak fairness and the loss bound, every broadcast is
 *                eventually retired and every MPI_Bcast returns.
 *   all_done     under weak fairness, every rank's MPI_Comm_free
 *                eventually returns.
 *
 * Broken variants (each must be caught)
 *   -DBROKEN_ACK_HIGHEST     the member acks the highest complete number, not
 *                            the contiguous one: the root retires a
 *                            broadcast a member lost: the retire assertion.
 *   -DBROKEN_NO_DUP_ACK      the member does not ack a resend it already
 *                            has: rank 2 misses broadcast 2, gets 3, its
 *                            delayed ack to rank 1 says 1; rank 1's resent
 *                            3 goes unanswered, rank 1 never retires 3 and
 *                            waits in MPI_Comm_free while rank 2 waits in
 *                            MPI_Recv from it: safety (end state) and
 *                            all_retired.
 *   -DBROKEN_TIMEOUT_IN_BCAST the root checks time-outs only inside MPI_Bcast:
 *                            a member waits in MPI_Bcast for a lost copy of
 *                            broadcast 4 while rank 0 waits in another call
 *                            (MPI_Recv, MPI_Comm_free): safety (end state)
 *                            and all_retired.
 *   -DBROKEN_NO_WINDOW       the root does not wait for its window: the
 *                            window assertion.  With -DNO_WINDOW_CHECK (that
 *                            assertion left out) and -DR2K=0, the ring of W
 *                            copies shows it: rank 0's third broadcast takes
 *                            the first one's slot, a resend of the first
 *                            carries the third's bytes: the bytes assertion.
 *   -DBROKEN_ACK_INCOMPLETE  the member counts a broadcast complete (for S and
 *                            for its acks) at its first fragment: the retire
 *                            assertion.
 *
 * Commands (make models runs exactly these, in build/models/swmc_bcast/<variant>/)
 *   spin -a [-DM=3|-DR2K=0] [-DBROKEN_...] [-DNO_WINDOW_CHECK] swmc_bcast.pml
 *   cc -O2 -DSAFETY -DNOCLAIM -DMEMLIM=2048 -o pan_safety pan.c
 *   ./pan_safety -m200000                            # assertions, end states
 *   cc -O2 -DMEMLIM=2048 -DNFAIR=4 -o pan_live pan.c
 *   ./pan_live -a -f -m200000 -N all_retired         (and -N all_done)
 *   spin -t -p swmc_bcast.pml                        # replay a counterexample
 *   spin -n<seed> -u20000 swmc_bcast.pml             # seeded random simulation
 * There is no C core of this broadcast in ref/proto: tests/models/agree does
 * not replay this model.
 */

#ifndef MAXLOSS
#define MAXLOSS 1       /* multicast copies lost over the run */
#endif
#ifndef M
#define M       4       /* broadcasts (at most 6: positions are bits of a byte) */
#endif
#define W       2       /* a root's own unretired broadcasts, at most */
#define AM      2       /* ACK_ME on every AM-th broadcast a root sends */
#define NR      3       /* ranks */
#ifndef R2K
#define R2K     3       /* the broadcast whose root is rank 1 */
#endif
#ifndef PK
#define PK      1       /* the broadcast of two fragments */
#endif

#define ROOT(k)   ((k) == R2K -> 1 : 0)
#define ORD(k)    ((k) == R2K -> 1 : ((k) < R2K || R2K == 0 -> (k) : (k) - 1))  /* its root's how-many-th */
#define ACKME(k)  (ORD(k) % AM == 0)
#define LASTOF(s) ((s) == 1 -> (M >= R2K -> R2K : 0) : (M == R2K -> M - 1 : M))  /* root s's last */
#define SLOT(k)   ((ORD(k) - 1) % W)                        /* the root's copy ring */
#define KB(k)     (1 << ((k) - 1))                          /* broadcast k as a bit */
/* fragments as positions: broadcast k's first is bit k-1, PK's second bit M */
#define FRAGS(k)  (KB(k) | ((k) == PK -> (1 << M) : 0))
#define HASALL(r, k) ((fr[r] & FRAGS(k)) == FRAGS(k))
#ifdef BROKEN_ACK_INCOMPLETE
#define DONE(r, k)   ((fr[r] & FRAGS(k)) != 0)
#else
#define DONE(r, k)   HASALL(r, k)
#endif
#define IX(a, b)  ((a) * NR + (b))
#define POP(u)    (((u) & 1) + (((u) >> 1) & 1) + (((u) >> 2) & 1) + (((u) >> 3) & 1) \
                   + (((u) >> 4) & 1) + (((u) >> 5) & 1))

byte fr[NR];        /* fragment positions a rank has (its own broadcasts' too) */
byte taken[NR];     /* its MPI_Bcast calls that returned */
byte tk[NR];        /* the broadcasts it took (ghost) */
byte unret[NR];     /* a root's own broadcasts not retired */
byte nret;          /* broadcasts retired */
byte due[NR];       /* bit s: an ack to root s is due (ACK_DELAY running) */
byte av[NR * NR];   /* av[IX(m, r)]: the last ack m sent to root r */
byte cum[NR * NR];  /* cum[IX(r, m)]: the ack root r has read from m */
byte mcp[NR * NR];  /* mcp[IX(r, m)]: multicast copies in flight r -> m (positions) */
byte rsp[NR * NR];  /* rsp[IX(r, m)]: resends in flight r -> m (broadcasts) */
byte rsn[NR * NR];  /* rsn[IX(r, m)]: resent to m since m's state or ack changed */
bool app[NR * NR];  /* app[IX(a, b)]: the application's message a -> b in flight */
byte cpy[NR * W];   /* cpy[r * W + SLOT(k)]: root r's kept copy of its broadcast k */
byte dat[NR * M];   /* dat[r * M + k - 1]: the bytes of broadcast k rank r holds */
byte lost;
bool left[NR];      /* MPI_Comm_free returned */

#define ALLTAKEN (taken[0] == M && taken[1] == M && taken[2] == M)
ltl all_retired { <> (nret == M && ALLTAKEN) }
ltl all_done    { <> (left[0] && left[1] && left[2]) }

/* Rank r's state changed: a time-out may resend to it again what it
 * resent before (a resend to a member whose state did not change since the
 * last resend of that broadcast only repeats that one's answer). */
#define FRESH(r) rsn[IX(0, r)] = 0; rsn[IX(1, r)] = 0

/* Rank r sends ACK(S) to root s. */
inline ack(r, s) {
    i = 1;
#ifdef BROKEN_ACK_HIGHEST
    j = 0;
    do
    :: i <= M && DONE(r, i) -> j = i; i++
    :: i <= M && !DONE(r, i) -> i++
    :: i > M -> break
    od;
    av[IX(r, s)] = j;
#else
    do
    :: i <= M && DONE(r, i) -> i++
    :: else -> break
    od;
    av[IX(r, s)] = i - 1;
#endif
    due[r] = due[r] & ~(1 << s);
    i = 0; j = 0
}

/* Rank r takes the lowest multicast copy in flight from root s. */
inline rx_mc(r, s) {
    i = 0;
    do
    :: (mcp[IX(s, r)] >> i) & 1 -> break
    :: else -> i++
    od;
    mcp[IX(s, r)] = mcp[IX(s, r)] & ~(1 << i);
    q = (i == M -> PK : i + 1);
    if
    :: ((fr[r] >> i) & 1) || (tk[r] & KB(q)) -> skip        /* a duplicate: dropped */
    :: else ->
        b = DONE(r, q);
        fr[r] = fr[r] | (1 << i); FRESH(r);
        dat[r * M + q - 1] = q;                              /* the packet's bytes */
        if
        :: !b && DONE(r, q) && ACKME(q) -> ack(r, s)
        :: !b && DONE(r, q) && !ACKME(q) -> due[r] = due[r] | (1 << s)
        :: else -> skip
        fi
    fi;
    i = 0; q = 0; b = 0
}

/* Rank r takes the lowest resend in flight from root s and acks it. */
inline rx_rs(r, s) {
    i = 1;
    do
    :: rsp[IX(s, r)] & KB(i) -> break
    :: else -> i++
    od;
    rsp[IX(s, r)] = rsp[IX(s, r)] & ~KB(i);
    b = HASALL(r, i);
    if
    :: !b -> fr[r] = fr[r] | FRAGS(i); FRESH(r);
        dat[r * M + i - 1] = cpy[s * W + SLOT(i)]            /* the root's copy */
    :: else -> skip
    fi;
#ifdef BROKEN_NO_DUP_ACK
    if :: !b -> ack(r, s) :: else -> skip fi;
#else
    ack(r, s);
#endif
    b = 0
}

#define COVERED(r, j) ((r == 0 || cum[IX(r, 0)] >= j) && (r == 1 || cum[IX(r, 1)] >= j) \
                       && (r == 2 || cum[IX(r, 2)] >= j))

/* Root r reads member m's latest ack and retires what every ack covers. */
inline rx_ack(r, m) {
    cum[IX(r, m)] = av[IX(m, r)];
    rsn[IX(r, m)] = 0;
    j = 1;
    do
    :: j <= M ->
        if
        :: (unret[r] & KB(j)) && COVERED(r, j) ->           /* retired */
            assert(r == 0 || HASALL(0, j));
            assert(r == 1 || HASALL(1, j));
            assert(r == 2 || HASALL(2, j));
            unret[r] = unret[r] & ~KB(j); nret++
        :: else -> skip
        fi;
        j++
    :: else -> break
    od;
    j = 0
}

/* broadcasts of root r not covered for m and not resent to m since it changed */
#define UNCOV(r, m) (unret[r] & ~rsn[IX(r, m)] & ~((1 << cum[IX(r, m)]) - 1))
/* the path to m and back is quiet: no copy or resend in flight to m, m's
 * last ack read and none due from m to r (RTO is 5 times ACK_DELAY) */
#ifdef EAGER_TIMER
#define QUIET(r, m) true
#else
#define QUIET(r, m) (mcp[IX(r, m)] == 0 && rsp[IX(r, m)] == 0 && av[IX(m, r)] == cum[IX(r, m)] \
                     && (due[m] & (1 << r)) == 0)
#endif
#ifdef BROKEN_TIMEOUT_IN_BCAST
#define TMO(r, m, inb) ((m) != (r) && inb && UNCOV(r, m) != 0 && QUIET(r, m))
#else
#define TMO(r, m, inb) ((m) != (r) && UNCOV(r, m) != 0 && QUIET(r, m))
#endif

/* Root r's time-out for member m: the oldest such broadcast is resent. */
inline resend(r, m) {
    i = 1;
    do
    :: UNCOV(r, m) & KB(i) -> break
    :: else -> i++
    od;
    rsp[IX(r, m)] = rsp[IX(r, m)] | KB(i);
    rsn[IX(r, m)] = rsn[IX(r, m)] | KB(i);
    i = 0
}

/* One step of progress, whatever is there to do; blocks when nothing is. */
inline progress(r, inb) {
    if
    :: mcp[IX(0, r)] != 0 -> rx_mc(r, 0)
    :: mcp[IX(1, r)] != 0 -> rx_mc(r, 1)
    :: rsp[IX(0, r)] != 0 -> rx_rs(r, 0)
    :: rsp[IX(1, r)] != 0 -> rx_rs(r, 1)
    :: due[r] & 1 -> ack(r, 0)                               /* ACK_DELAY expired */
    :: due[r] & 2 -> ack(r, 1)
    :: r != 0 && av[IX(0, r)] > cum[IX(r, 0)] -> rx_ack(r, 0)
    :: r != 1 && av[IX(1, r)] > cum[IX(r, 1)] -> rx_ack(r, 1)
    :: r != 2 && av[IX(2, r)] > cum[IX(r, 2)] -> rx_ack(r, 2)
    :: TMO(r, 0, inb) -> resend(r, 0)
    :: TMO(r, 1, inb) -> resend(r, 1)
    :: TMO(r, 2, inb) -> resend(r, 2)
    fi
}

#ifdef BROKEN_NO_WINDOW
#define ROOM(r) true
#else
#define ROOM(r) (POP(unret[r]) < W)
#endif

/* Root r hands broadcast n to the NIC: a copy of each fragment to each
 * member, or lost. */
inline send(r, n) {
    m = 0;
    do
    :: m < NR && m != r ->
        i = 0;
        do
        :: i <= M && (FRAGS(n) >> i) & 1 ->
            if
            :: mcp[IX(r, m)] = mcp[IX(r, m)] | (1 << i)
            :: lost < MAXLOSS -> lost++
            fi;
            i++
        :: i <= M && !((FRAGS(n) >> i) & 1) -> i++
        :: i > M -> break
        od;
        m++
    :: m < NR && m == r -> m++
    :: m == NR -> break
    od;
    fr[r] = fr[r] | FRAGS(n);
    cpy[r * W + SLOT(n)] = n;                                /* the bytes, standing for them */
    unret[r] = unret[r] | KB(n);
#ifndef NO_WINDOW_CHECK
    assert(POP(unret[r]) <= W);                              /* the window */
#endif
    i = 0; m = 0
}

/* MPI_Bcast n at rank r: progress until the window has room (the root) or
 * broadcast n is complete (a member). */
inline bcast(r, n) {
    if
    :: ROOT(n) == r ->
        do
        :: atomic { progress(r, 1) }
        :: atomic { ROOM(r) -> send(r, n); taken[r]++; tk[r] = tk[r] | KB(n); break }
        od
    :: else ->
        do
        :: atomic { progress(r, 1) }
        :: atomic { HASALL(r, n) ->
                    assert(taken[r] == n - 1 && (tk[r] & KB(n)) == 0);
                    assert(dat[r * M + n - 1] == n);         /* the right bytes */
                    taken[r]++; tk[r] = tk[r] | KB(n); break }
        od
    fi
}

inline recv(r, a) {
    do
    :: atomic { progress(r, 0) }
    :: atomic { app[IX(a, r)] -> app[IX(a, r)] = 0; break }
    od
}

/* MPI_Comm_free: the final acks, then wait until the own broadcasts are
 * retired. */
inline comm_free(r) {
    atomic {
        if :: r != 0 && av[IX(r, 0)] < LASTOF(0) -> ack(r, 0) :: else -> skip fi;
        if :: r != 1 && av[IX(r, 1)] < LASTOF(1) -> ack(r, 1) :: else -> skip fi
    }
    do
    :: atomic { progress(r, 0) }
    :: atomic { unret[r] == 0 -> left[r] = 1; break }
    od
}

proctype Rank(byte r)
{
    byte c, i, j, m, q;
    bool b;
    c = 1;
    do
    :: c <= M -> bcast(r, c); c++
    :: c > M -> break
    od;
    if
    :: r == 0 -> recv(0, 1); comm_free(0)
    :: r == 1 -> app[IX(1, 0)] = 1; comm_free(1); app[IX(1, 2)] = 1
    :: r == 2 -> recv(2, 1); comm_free(2)
    fi
}

init {
    atomic { run Rank(0); run Rank(1); run Rank(2) }
    /* a stop before every rank left is an invalid end state */
    left[0] && left[1] && left[2]
}
