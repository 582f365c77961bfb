/*
 * abred_signals.pml -- application-bypass reduction at an internal process
 * of the tree: the descriptor queue, the reduction's own early queue and
 * the NIC's host signals (seed 004: chapter 3, sections 3.3-3.4).
 *
 * What is modelled
 *   - One internal process I of a reduction tree, its NC children (leaves)
 *     and its parent (the root). The processes run R reductions back to
 *     back (instances 0 .. R-1, the same at every rank); a leaf sends its
 *     contribution of each instance to I as soon as it gets there, so
 *     leaves run ahead of I or behind it (skew: any interleaving).
 *   - The connections are reliable and in order per sender (GM's); the NIC
 *     of I takes each contribution off the wire, posts it to its host's
 *     event queue and then, if the host has signals enabled, raises a
 *     signal. Signals coalesce as a Unix signal does: one pending flag, set
 *     by any number of arrivals, cleared when the handler starts.
 *   - I's host runs MPI_Reduce for each instance and computes in between
 *     and after the last one, never calling MPI again. MPI_Reduce (the
 *     synchronous part, section 3.4.2): disable signals; make room for a
 *     descriptor (progress until one of the NDESC is free); take a
 *     descriptor owing every child; take the instance's early contributions
 *     from the early queue; make progress on what the NIC posted; if the
 *     descriptor is paid, send the result to the root and free it; on the
 *     way out, enable signals if any descriptor is outstanding, and then
 *     look at the event queue once more (a contribution that arrived while
 *     signals were off raised none).
 *   - Progress (MPI_Reduce's, or the signal handler's: the asynchronous
 *     part, section 3.4.3): each posted contribution is matched by its
 *     instance and sender to the descriptor of that instance (ref/proto
 *     nc_abred's nc_ab_arrive): counted there (a descriptor paid sends its
 *     result to the root and is freed), or held in the early queue when its
 *     instance has no descriptor yet. The handler disables signals once no
 *     descriptor is outstanding.
 *   - Ghost state: which contributions each descriptor counted.
 *   - The host's own bookkeeping (one queue operation, the descriptor's
 *     set-up) is one atomic step: nothing else reads those queues.
 *
 * Properties
 *   safety          (no claim) assertions: a contribution is counted once,
 *                   the root gets each instance once, with every child's.
 *   right_instance  a contribution is only ever counted in the descriptor
 *                   of its own instance.
 *   all_done        under weak fairness the root gets every reduction's
 *                   result, although I's host stops calling MPI after its
 *                   last MPI_Reduce (only signals make progress then).
 *
 * Broken variants (each must be caught)
 *   -DBROKEN_MATCH_BY_SENDER   a contribution goes to the newest descriptor
 *                              that owes its sender, whatever its instance
 *                              (matching as by sender alone): right_instance.
 *   -DBROKEN_DISABLE_EARLY     the handler disables signals after its first
 *                              contribution, descriptors still outstanding:
 *                              all_done.
 *   -DBROKEN_NO_RECHECK        MPI_Reduce enables signals on the way out but
 *                              does not look at the event queue again: a
 *                              contribution posted while signals were off
 *                              waits for ever (the lost wake-up): all_done.
 *   -DBROKEN_SIGNAL_FIRST      the NIC decides whether to signal before it
 *                              posts the event (the firmware must post, then
 *                              test): the same lost wake-up, all_done.
 *
 * Parameters: NC children (2), R reductions (3), NDESC descriptors (2).
 * With -DTRACE every queue decision is printed (AB ... lines), for the
 * replay on ref/proto's nc_abred (tests/models/agree).
 *
 * Commands (make models runs exactly these, in build/models/abred_signals/<variant>/)
 *   spin -a [-DBROKEN_...] abred_signals.pml
 *   cc -O2 -DSAFETY -DNOCLAIM -DMEMLIM=2048 -o pan_safety pan.c
 *   ./pan_safety -m200000
 *   cc -O2 -DSAFETY -DMEMLIM=2048 -o pan_ltlsafe pan.c
 *   ./pan_ltlsafe -m200000 -N right_instance
 *   cc -O2 -DMEMLIM=2048 -DNFAIR=4 -o pan_live pan.c
 *   ./pan_live -a -f -m200000 -N all_done
 *   spin -t -p abred_signals.pml           # replay a counterexample
 */

#ifndef NC
#define NC 2
#endif
#ifndef R
#define R 3
#endif
#ifndef NDESC
#define NDESC 2
#endif

#ifdef TRACE
#define TR(x) x;
#else
#define TR(x)
#endif

#define FULL ((1 << NC) - 1)

chan wire = [NC * R] of { byte, byte };     /* (instance, child): leaves to I's NIC */
chan ev   = [NC * R] of { byte, byte };     /* I's NIC to its host: posted contributions */
chan up   = [R] of { byte, byte };          /* I to the root: (instance, children counted) */

/* I's host: the descriptor queue (nc_abred: used, inst, owes) and the early queue */
bit  used[NDESC];
byte dinst[NDESC];
byte owes[NDESC];                           /* bit k: child k still owed */
byte got[NDESC];                            /* ghost: children counted, by instance check */
bit  early[R * NC];                         /* [inst * NC + k]: held */
byte outstanding;

bit  sig_on;                                /* the port's signals enabled (the NIC reads it) */
bit  sig_pending;                           /* a signal raised, handler not yet run */

byte delivered;                             /* results the root has */
bit  wrong;                                 /* ghost: counted in another instance's descriptor */

ltl right_instance { [] !wrong }
ltl all_done       { <> (delivered == R) }

/* Count contribution (i, k) in descriptor d; a paid descriptor's result
 * goes to the root and the descriptor is free again. */
inline count(d, i, k) {
    if
    :: dinst[d] != i -> wrong = 1
    :: else -> skip
    fi;
    assert((got[d] & (1 << k)) == 0);
    got[d] = got[d] | (1 << k);
    owes[d] = owes[d] & ~(1 << k);
    TR(printf("AB ARRIVE %d %d %d %d %d\n", i, k, owes[d] == 0, d, k))
    if
    :: owes[d] == 0 ->
        up!dinst[d], got[d];
        TR(printf("AB END %d\n", d))
        used[d] = 0;
        outstanding--
    :: else -> skip
    fi
}

/* A contribution (i, k) reached the host (nc_ab_arrive, then nc_ab_hold). */
inline arrive(i, k) {
  atomic {
    d = NDESC;
#ifdef BROKEN_MATCH_BY_SENDER
    j = NDESC;
    do
    :: j > 0 ->
        j--;
        if
        :: used[j] && (owes[j] & (1 << k)) && (d == NDESC || dinst[j] > dinst[d]) -> d = j
        :: else -> skip
        fi
    :: else -> break
    od;
#else
    j = 0;
    do
    :: j < NDESC ->
        if
        :: used[j] && dinst[j] == i -> d = j
        :: else -> skip
        fi;
        j++
    :: else -> break
    od;
#endif
    if
    :: d == NDESC ->
        TR(printf("AB ARRIVE %d %d 2 -1 0\n", i, k))
        TR(printf("AB HOLD %d %d\n", i, k))
        assert(!early[i * NC + k]);
        early[i * NC + k] = 1
    :: d < NDESC && (owes[d] & (1 << k)) -> count(d, i, k)
    :: else ->
        /* refused: a sender contributes once per instance */
        TR(printf("AB ARRIVE %d %d 3 -1 0\n", i, k))
        assert(false)
    fi
  }
}

/* Make progress on everything the NIC has posted. */
inline drain() {
    do
    :: ev?pi, pk -> arrive(pi, pk)
    :: empty(ev) -> break
    od
}

/* The signal handler: runs when a signal is pending, between any two
 * steps of the host's computation. */
inline handler() {
    sig_pending = 0;
#ifdef BROKEN_DISABLE_EARLY
    if
    :: ev?pi, pk -> arrive(pi, pk); sig_on = 0
    :: empty(ev) -> skip
    fi;
#endif
    drain();
    if
    :: outstanding == 0 -> sig_on = 0
    :: else -> skip
    fi
}

proctype Leaf(byte k)
{
    byte i = 0;
    do
    :: i < R -> wire!i, k; i++
    :: else -> break
    od
}

proctype Nic()
{
    byte i, k;
end:
    do
    :: wire?i, k ->
#ifdef BROKEN_SIGNAL_FIRST
        if
        :: sig_on -> ev!i, k; sig_pending = 1
        :: else -> ev!i, k
        fi
#else
        ev!i, k;
        if
        :: sig_on -> sig_pending = 1
        :: else -> skip
        fi
#endif
    od
}

proctype Host()
{
    byte r = 0, d, j, c, pi, pk;

    do
    :: r < R ->
        /* compute before MPI_Reduce(r), signals taken as they come */
        do
        :: sig_pending -> handler()
        :: break
        od;
        /* MPI_Reduce(r): the synchronous part */
        sig_on = 0;
        do
        :: outstanding == NDESC -> ev?pi, pk -> arrive(pi, pk)
        :: else -> break
        od;
        atomic {
        d = 0;
        do
        :: used[d] -> d++
        :: else -> break
        od;
        used[d] = 1;
        dinst[d] = r;
        owes[d] = FULL;
        got[d] = 0;
        outstanding++;
        TR(printf("AB BEGIN %d %d\n", r, d))
        c = 0;
        do
        :: c < NC ->
            TR(printf("AB TAKE %d %d %d\n", r, c, early[r * NC + c]))
            if
            :: early[r * NC + c] ->
                early[r * NC + c] = 0;
                count(d, r, c)
            :: else -> skip
            fi;
            c++
        :: else -> break
        od
        };
        drain();
        if
        :: outstanding > 0 ->
            sig_on = 1;
#ifndef BROKEN_NO_RECHECK
            drain()
#else
            skip
#endif
        :: else -> skip
        fi;
        r++
    :: else -> break
    od;
    /* the rest of the program: computation only; signals still come */
end:
    do
    :: sig_pending -> handler()
    :: else -> skip
    od
}

proctype Root()
{
    byte i, v;
    bit have[R];
end:
    do
    :: up?i, v ->
        assert(v == FULL);
        assert(!have[i]);
        have[i] = 1;
        delivered++
    od
}

init {
    byte k = 0;
    atomic {
        do
        :: k < NC -> run Leaf(k); k++
        :: else -> break
        od;
        run Nic();
        run Host();
        run Root()
    }
}
