/*
 * tree_deadlock.pml -- concurrent NIC-based broadcasts over trees with a
 * limited number of receive tokens per NIC (seed 000: Yu, Buntinas, Panda,
 * "High Performance and Reliable NIC-Based Multicast over Myrinet/GM-2",
 * section 5.4).
 *
 * What is modelled
 *   - N NICs and G concurrent broadcasts (groups).  Group g has its own root
 *     (0, N-1, 1, N-2, ...) and its own spanning tree over all N nodes, and
 *     each root broadcasts M messages.  Each group has its own queue at every
 *     NIC, so one group never waits behind another in a queue: the only shared
 *     resource is the pool of T receive tokens of each NIC.
 *   - A packet is taken in by a NIC only into a free receive token (otherwise
 *     it is refused and resent later: the sender simply waits).  A non-root
 *     NIC keeps that token while it forwards the message to each of its
 *     children in turn (the token is also what it retransmits from), and
 *     gives it back once every child holds the message.
 *   - The root sends out of its send token and host buffer: it takes no
 *     receive token for its own broadcast.
 *   - Trees: the nodes other than the root are listed in some order, the root
 *     is put in front, and the node at position p (p >= 1) gets the node at
 *     position (p-1)/FANOUT as parent.  Sorting the list by ascending id gives
 *     the paper's ID-ordered trees: a child's id is greater than its parent's
 *     unless the parent is the root.
 *
 * Properties
 *   safety    (no claim, -DSAFETY) no invalid end state: whatever the
 *             interleaving, the system never stops before every broadcast has
 *             reached every node (no deadlock on receive tokens); and the
 *             trees built obey the ID-ordering rule (assertion).
 *   all_done  under weak fairness every node eventually receives every
 *             message of every group (acceptance cycles, -a -f).
 *
 * Broken variants (each must be caught, with a trail)
 *   -DBROKEN_CYCLIC_TREES          odd groups list their nodes by descending id,
 *                                  so two trees form a cyclic parent-child
 *                                  relation: NICs each hold their last token
 *                                  while waiting for the other's: deadlock.
 *   -DBROKEN_ROOT_TAKES_RECV_TOKEN the root also holds one of its receive tokens
 *                                  while it sends: the root is no longer outside
 *                                  every cycle and ID-ordered trees deadlock.
 *
 * Commands (make models runs exactly these, in build/models/tree_deadlock/<variant>/)
 *   spin -a [-DBROKEN_...] tree_deadlock.pml
 *   cc -O2 -DSAFETY -DNOCLAIM -DMEMLIM=2048 -o pan_safety pan.c
 *   ./pan_safety -m200000                     # deadlock = invalid end state
 *   cc -O2 -DMEMLIM=2048 -DNFAIR=4 -o pan_live pan.c
 *   ./pan_live -a -f -m200000 -N all_done
 *   spin -t -p tree_deadlock.pml               # replay the deadlock trail
 *   spin -n<seed> -u20000 tree_deadlock.pml     # seeded random simulation
 */

#ifndef N
#define N      5        /* NICs (3..8) */
#endif
#ifndef G
#define G      2        /* concurrent broadcasts, each with its own root (1..N) */
#endif
#ifndef M
#define M      2        /* messages per broadcast */
#endif
#ifndef T
#define T      1        /* receive tokens per NIC */
#endif
#ifndef FANOUT
#define FANOUT 2        /* children per node */
#endif

/* Root of group g: 0, N-1, 1, N-2, ... so that roots are spread out. */
/* (Arithmetic, not a conditional expression: it is also used inside ltl,
 * where -> means implication.) */
#define ROOT(g)  (((g) % 2) * (N - 1 - (g) / 2) + (1 - (g) % 2) * ((g) / 2))

/* Position of node n (not the root r) in the list of group g, and back. */
#ifdef BROKEN_CYCLIC_TREES
#define DESC(g)  ((g) % 2 == 1)
#else
#define DESC(g)  false
#endif
#define POS(g, r, n) (DESC(g) -> (((n) > (r)) -> (N - (n)) : (N - 1 - (n))) \
                              : (((n) < (r)) -> ((n) + 1) : (n)))
#define NODE(g, r, p) (DESC(g) -> (((N - (p)) > (r)) -> (N - (p)) : (N - 1 - (p))) \
                               : ((((p) - 1) < (r)) -> ((p) - 1) : (p)))

byte tok[N];          /* free receive tokens at each NIC */
byte got[G * N];      /* messages of group g that node n has taken in */
#define GOT(g, n) got[(g) * N + (n)]

byte finished;        /* Member processes that have handled all M messages */

/* every part of every NIC has taken in (non-root) and passed on all M
 * messages of its group: every broadcast reached every node */
ltl all_done { <> (finished == G * N) }

#define KID NODE(g, r, p * FANOUT + j)      /* the j-th child */

/* The part of NIC `me' that serves group g: take each message in, forward it
 * to the children one after the other, then free the receive token.  Steps
 * on local variables are separate so that partial-order reduction can
 * skip their interleavings. */
proctype Member(byte g; byte me)
{
    byte r = ROOT(g);
    byte p, k, j;

    p = (me == r -> 0 : POS(g, r, me));
    do
    :: k < M ->
        if
        :: me != r -> GOT(g, me) > k               /* message k+1 is in a token */
        :: else ->
#ifdef BROKEN_ROOT_TAKES_RECV_TOKEN
            atomic { tok[me] > 0 -> tok[me]-- }
#else
            skip                                    /* send token + host buffer */
#endif
        fi;
        j = 1;
        do
        :: j <= FANOUT && p * FANOUT + j < N ->
            atomic { tok[KID] > 0 -> tok[KID]--; GOT(g, KID)++; j++ }  /* child takes it in */
        :: else -> break
        od;
#ifndef BROKEN_ROOT_TAKES_RECV_TOKEN
        if :: me != r -> tok[me]++ :: else -> skip fi;   /* token back to the pool */
#else
        tok[me]++;
#endif
        k++
    :: else -> break
    od;
    finished++
}

init {
    byte g, n, r, p, q;
    atomic {
        n = 0;
        do :: n < N -> tok[n] = T; n++ :: else -> break od;
        g = 0;
        do
        :: g < G ->
            r = ROOT(g);
            n = 0;
            do
            :: n < N ->
                if
                :: n != r ->
                    /* the list is a permutation and gives back each node */
                    p = POS(g, r, n);
                    assert(p >= 1 && p < N && NODE(g, r, p) == n);
                    q = (p - 1) / FANOUT;
#ifndef BROKEN_CYCLIC_TREES
                    /* the ID-ordering rule of section 5.4 */
                    assert(q == 0 || NODE(g, r, q) < n);
#endif
                :: else -> skip
                fi;
                run Member(g, n);
                n++
            :: else -> break
            od;
            g++
        :: else -> break
        od;
        g = 0; n = 0; r = 0; p = 0; q = 0
    }
}
