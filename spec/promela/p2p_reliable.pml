/*
 * p2p_reliable.pml -- the point-to-point reliability protocol of the MCP
 * (firmware/mcp/tx.c, rx.c, ctrl.c over ref/proto/nc_seq) on a stream of
 * messages in both directions, with the closed-port rule (seed 002 section
 * 3.2) as an option.  The connection is p2p_conn.pml and p2p_nic.pml; the
 * same connection under a ping-pong client is p2p_pingpong.pml, under send
 * time-outs p2p_timeout.pml.
 *
 * What is modelled
 *   - The connection of p2p_conn.pml: two NICs, both directions, go-back-N
 *     windows of W packets, cumulative ACKs piggy-backed and in control
 *     packets, a NACK per gap, the control queue, FIFO links that lose at
 *     most MAXLOSS packets a run, and the retransmission timer (by default
 *     only when the packet or its answer is really gone; -DEAGER_TIMER: at
 *     any moment a window is outstanding).
 *   - The host of each NIC posts its M (direction 0) or MR (direction 1)
 *     messages at any moment, without waiting for their completion.
 *   - -DCLOSE: the port of NIC 1 that receives direction 0 closes once, at
 *     any moment (-DCLOSE_AFTER=k: once k messages were delivered), and a
 *     new process opens it again; the fence, REJECT and FENCE packet of the
 *     closed-port rule (p2p_conn.pml).  MR defaults to 1 with CLOSE.
 *
 * Properties
 *   safety        (no claim, -DSAFETY) no invalid end state: the system stops
 *                 only once every message is completed at its sender and both
 *                 windows are empty.  A livelock (the timer resending for
 *                 ever) is no end state: all_done finds those.
 *   in_order      exactly once and in order: no message is delivered twice,
 *                 and a delivery skips only messages that failed (EPORTCLOSED).
 *   release_safe  a message completes OK only after its receiver accepted it,
 *                 and a message that failed is never delivered.
 *   no_stale      (with CLOSE) the messages the sender posted in one epoch
 *                 (between two REJECTs) all reach the same incarnation of the
 *                 port: after a reopen, nothing posted before the sender learnt
 *                 of the close reaches the new process once the old one got
 *                 one of them (the promise of the fence).
 *   all_done      under weak fairness and the loss bound, eventually every
 *                 message is completed at its sender and every packet sent is
 *                 acknowledged (both windows empty) (acceptance cycles, -a -f).
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
 * Broken variants (each must be caught): those of the connection, defined
 * in p2p_conn.pml and p2p_nic.pml, are checked on this model
 *   -DBROKEN_NO_DUP_ACK         all_done fails (the last ACK lost, the sender
 *                               retransmits forever).
 *   -DBROKEN_NO_RETRANSMIT      safety (end state) and all_done fail.
 *   -DBROKEN_ACCEPT_GAP         in_order and release_safe fail.
 *   -DBROKEN_NO_FENCE           (with CLOSE) no_stale fails.
 *   -DBROKEN_ACK_ONLY_PIGGYBACK all_done fails.
 *   -DBROKEN_SECOND_REJECT      (with EAGER_TIMER, CLOSE, M=3, MR=0)
 *                               release_safe and all_done fail.
 *
 * Commands (make models runs exactly these, in build/models/p2p_reliable/<variant>/,
 * with p2p_conn.pml and p2p_nic.pml copied beside the model)
 *   spin -a [-DCLOSE] [-DEAGER_TIMER] [-DBROKEN_...] p2p_reliable.pml
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

#include "p2p_conn.pml"

#define FINISHED  ALLDONE

ltl in_order     { [] !misorder }
ltl release_safe { [] !unsafe }
ltl no_stale     { [] !stale }
ltl all_done     { <> FINISHED }

#include "p2p_nic.pml"

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
    }
    /* init ends only when everything is done; a stop before that is an
     * invalid end state */
    FINISHED
}
