/*
 * p2p_pingpong.pml -- a ping-pong over the point-to-point connection of the
 * MCP: the client layer above it, whose events come through one event
 * queue per node.  The connection is p2p_conn.pml and p2p_nic.pml, with
 * their EVENTS layer; the stream without clients is p2p_reliable.pml.
 *
 * What is modelled
 *   - The connection of p2p_conn.pml: two NICs, both directions, go-back-N
 *     windows, ACK/NACK, control queue, lossy FIFO links, the timer.  No
 *     port closes here (the closed-port rule is p2p_reliable.pml's CLOSE).
 *   - Node 0 sends ping k and waits for its SENT and for pong k; node 1
 *     waits for ping k, echoes pong k and waits for the SENT of the echo,
 *     M round trips.  RECV and SENT events go through one event queue per
 *     node, in the order the NIC makes them: a data packet's RECV comes
 *     before the SENTs its piggy-backed ACK completes (rx_packet).  A
 *     client waiting for one event keeps the others for its next wait, as
 *     a client of the host library must.
 *
 * Properties
 *   safety        (no claim, -DSAFETY) no invalid end state: the system stops
 *                 only once every message is completed at its sender, both
 *                 windows are empty and both clients finished.  A livelock
 *                 (the timer resending for ever) is no end state: all_done
 *                 finds those.
 *   in_order      exactly once and in order: no message is delivered twice,
 *                 and a delivery skips only messages that failed.
 *   release_safe  a message completes OK only after its receiver accepted it.
 *   all_done      under weak fairness and the loss bound, eventually every
 *                 message is completed at its sender, every packet sent is
 *                 acknowledged (both windows empty) and both clients finish
 *                 (acceptance cycles, -a -f).
 *   (no_stale is p2p_reliable.pml's and p2p_timeout.pml's: no port closes
 *   here.)
 *
 * Broken variants (each must be caught; those of the connection itself are
 * in p2p_conn.pml and p2p_nic.pml)
 *   -DBROKEN_CLIENT_DROPS_EARLY_RECV
 *                               the echoing client discards the events it
 *                               gets while it waits for the SENT of its
 *                               echo: when the ACK of the echo is lost, it
 *                               comes on the next ping, whose RECV is queued
 *                               before that SENT: safety (end state) and
 *                               all_done fail.
 *
 * Commands (make models runs exactly these, in build/models/p2p_pingpong/<variant>/,
 * with p2p_conn.pml and p2p_nic.pml copied beside the model)
 *   spin -a [-DBROKEN_CLIENT_DROPS_EARLY_RECV] p2p_pingpong.pml
 *   cc -O2 -DSAFETY -DNOCLAIM -DMEMLIM=2048 -o pan_safety pan.c
 *   ./pan_safety -m200000                            # end states
 *   cc -O2 -DSAFETY -DMEMLIM=2048 -o pan_ltl pan.c
 *   ./pan_ltl -m200000 -N in_order                   (and -N release_safe)
 *   cc -O2 -DMEMLIM=2048 -DNFAIR=4 -o pan_live pan.c
 *   ./pan_live -a -f -m200000 -N all_done
 *   spin -t -p p2p_pingpong.pml                       # replay a counterexample
 *   spin -n<seed> -u20000 p2p_pingpong.pml            # seeded random simulation
 *   spin -DTRACE -n<seed> -u50000 p2p_pingpong.pml | build/models/agree/replay pp 2
 *                                                    # model vs ref/proto (tests/models/agree)
 */

#define EVENTS          /* deliveries and completions are events (p2p_conn.pml) */

#include "p2p_conn.pml"

chan ev[2] = [2 * M + 2] of { byte, byte };   /* the event queue of node i: kind, message */
bool cdone[2];      /* the clients finished */

#define FINISHED  (ALLDONE && cdone[0] && cdone[1])

ltl in_order     { [] !misorder }
ltl release_safe { [] !unsafe }
ltl all_done     { <> FINISHED }

#include "p2p_nic.pml"

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

init {
    atomic {
        START_NICS
        run Client0(); run Client1();
    }
    /* init ends only when everything is done; a stop before that is an
     * invalid end state */
    FINISHED
}
