/*
 * nc_sched.h - the pairwise-exchange (PE) barrier schedule of seed 002
 * section 5.1 and the barrier latency models of seed 002 equations 1-3.
 *
 * PE, n a power of two: in round r (r = 0 .. log2 n - 1) node i sends to
 * and then receives from i XOR 2^r; after log2 n rounds everyone has heard,
 * directly or indirectly, from everyone.
 *
 * n not a power of two (our handling; the paper only measures 2, 4, 8, 16):
 * let P be the largest power of two below n.  The n - P "extra" nodes
 * P .. n-1 first send an arrival message to partner i - P and wait; the
 * first P nodes run PE among themselves - those with an extra partner
 * first receive its arrival - and finally release their extra with one
 * more message.  This is MPICH's folding: the critical path is
 * log2 P + 2 message steps, every node still sends and receives at most
 * log2 P + 1 messages, and no node waits on a message nobody sends.
 *
 * Positions are indices into the caller's list of (node, port) pairs,
 * which is what the NIC receives from the host (seed 002 section 5.2).
 */
#ifndef NC_SCHED_H
#define NC_SCHED_H

#include <stdint.h>
#include <stdbool.h>
#include "nc_config.h"
#include "nc_logic.h"

#define NC_PE_EXCHANGE 0u   /* send to partner, then receive from it      */
#define NC_PE_SEND     1u   /* send only (an extra's arrival / a release) */
#define NC_PE_RECV     2u   /* receive only                               */

#define NC_PE_MAX_STEPS 12u /* log2(NC_MAX_NODES) + 2 */
#define NC_PE_BAD 0xFFFFFFFFu /* never returned; see nc_pe_schedule */

typedef struct {
    uint16_t partner;
    uint16_t op;
} nc_pe_step_t;

/*@ // Largest d with 2^d <= n.
    predicate nc_is_flog2(integer n, integer d) =
      0 <= d <= 10 && nc_pow2(d) <= n && n < 2 * nc_pow2(d);

    lemma nc_flog2_unique: \forall integer n, d1, d2;
      nc_is_flog2(n, d1) && nc_is_flog2(n, d2) ==> d1 == d2;

    // Partner of i in PE round r: i XOR 2^r, written arithmetically.
    logic integer nc_pe_partner(integer i, integer r) =
      nc_bit(i, r) == 1 ? i - nc_pow2(r) : i + nc_pow2(r);
*/

/* Fill out[0 .. result-1] with the PE steps of position me among n.
 * NC_PE_BAD would mean an XOR partner fell outside 0 .. P-1, which is
 * arithmetically impossible; the proof does not rely on that bit-level fact
 * and the unit tests check every n <= NC_MAX_NODES and every me. */
/*@ requires 1 <= n <= NC_MAX_NODES && me < n;
    requires \valid(out + (0 .. NC_PE_MAX_STEPS - 1));
    assigns out[0 .. NC_PE_MAX_STEPS - 1];
    ensures \result == NC_PE_BAD || \result <= NC_PE_MAX_STEPS;
    ensures \result != NC_PE_BAD ==> \forall integer j; 0 <= j < \result ==>
      out[j].partner < n && out[j].partner != me && out[j].op <= NC_PE_RECV;
    ensures \forall integer d; nc_is_flog2(n, d) && nc_pow2(d) == n && \result != NC_PE_BAD ==>
      \result == d &&
      \forall integer r; 0 <= r < d ==>
        out[r].op == NC_PE_EXCHANGE && out[r].partner == nc_pe_partner(me, r);
*/
uint32_t nc_pe_schedule(uint32_t n, uint32_t me, nc_pe_step_t *out);

/* Message steps on the PE critical path: log2 n, or log2 P + 2. */
/*@ requires 1 <= n <= NC_MAX_NODES;
    assigns \nothing;
    ensures \forall integer d; nc_is_flog2(n, d) ==>
      \result == (nc_pow2(d) == n ? d : d + 2);
*/
uint32_t nc_pe_rounds(uint32_t n);

/* Per-message costs of seed 002 section 2.2, in nanoseconds (each below
 * NC_MODEL_COST_MAX, 1 s, so the sums stay in 64 bits with room). */
#define NC_MODEL_COST_MAX 1000000000u

typedef struct {
    uint32_t send, sdma, network, recv, rdma, hrecv;
} nc_bar_costs_t;

/*@ predicate nc_costs_ok(nc_bar_costs_t *c) =
      \valid_read(c) && c->send <= NC_MODEL_COST_MAX && c->sdma <= NC_MODEL_COST_MAX &&
      c->network <= NC_MODEL_COST_MAX && c->recv <= NC_MODEL_COST_MAX &&
      c->rdma <= NC_MODEL_COST_MAX && c->hrecv <= NC_MODEL_COST_MAX;
*/

/* Equation 1: host-based barrier, rounds x (Send+SDMA+Network+Recv+RDMA+HRecv). */
/*@ requires nc_costs_ok(c) && rounds <= NC_PE_MAX_STEPS;
    assigns \nothing;
    ensures \result == rounds * (c->send + c->sdma + c->network + c->recv +
                                 c->rdma + c->hrecv);
*/
uint64_t nc_model_host_barrier(const nc_bar_costs_t *c, uint32_t rounds);

/* Equation 2: NIC-based barrier, Send + rounds x (Network+Recv) + RDMA + HRecv. */
/*@ requires nc_costs_ok(c) && rounds <= NC_PE_MAX_STEPS;
    assigns \nothing;
    ensures \result == c->send + rounds * (c->network + c->recv) + c->rdma + c->hrecv;
*/
uint64_t nc_model_nic_barrier(const nc_bar_costs_t *c, uint32_t rounds);

/* Equation 3: factor of improvement host/NIC, in thousandths (rounded
 * down); 0 if the NIC time is 0. */
/*@ requires nc_costs_ok(c) && rounds <= NC_PE_MAX_STEPS;
    assigns \nothing;
    ensures \let h = rounds * (c->send + c->sdma + c->network + c->recv + c->rdma + c->hrecv);
            \let k = c->send + rounds * (c->network + c->recv) + c->rdma + c->hrecv;
            \result == (k == 0 ? 0 : (h * 1000) / k);
*/
uint64_t nc_model_improvement_permille(const nc_bar_costs_t *c, uint32_t rounds);

#endif
