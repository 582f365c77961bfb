/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An allreduce by dissemination, for an idempotent op (MAX, MIN, BAND,
 * BOR) on small values: ceil(log2 n) rounds; in round k member i sends
 * its running value to member i + 2^k and combines into it the one of
 * member i - 2^k (mod n), so after the last round every member's value
 * has reached every other through some chain. When n is not a power of
 * two some values reach a member along two chains; an idempotent op takes
 * a value twice without harm, so every member ends with the same result.
 * The agreements are made of it: context ids (mpi_ctx.c) and a NIC
 * broadcast's first use without waiting (coll_bcast_nic.c). */
#include "coll_sched.h"

void coll_allreduce_dissemination_rounds(struct coll_sched *s, const int *members, int n,
                                         int me, void *acc, void *got, size_t count,
                                         MPI_Datatype t, MPI_Op op)
{
    for (int k = 1; k < n; k <<= 1) {
        int from = (me - k + n) % n, to = (me + k) % n;

        coll_next_round(s);
        coll_xfer(s, false, got, count, t, members ? members[from] : from);
        coll_xfer(s, true, acc, count, t, members ? members[to] : to);
        coll_local(s, op, got, acc, count, t);
    }
}
