/*
 * nv_vm.h - the NICVM interpreter: runs one activation of a verified module
 * on the current packet.
 *
 * The VM names no firmware: everything it reaches is in struct nv_env, an
 * interface the caller (the MCP's NICVM plug-in, nicvm-check, the tests)
 * fills in: the communicator, the packet's header and payload words, the
 * module's persistent state, and a send callback.  The operand stack and
 * the locals live on the VM's C stack (NV_STACK_MAX + NV_LOCALS_MAX words).
 *
 * Proved (nv_vm.c): on a module nv_verify accepted, no access leaves the
 * module's state, the packet and the VM's own arrays, and an activation
 * executes at most cost[0] instructions and requests at most scost[0]
 * sends.  The run-time checks that remain are the ones whose answer depends
 * on the packet: indices computed at run time (state arrays, header and
 * payload words), the rank of a send (below the communicator's size),
 * division by zero; each stops the activation with its own status.  A step
 * budget is enforced as well, as a second line of defence: a module stopped
 * by it returns NV_STOP_BUDGET.
 */
#ifndef NV_VM_H
#define NV_VM_H

#include <stdint.h>
#include "nv_bytecode.h"

/* The result constants of the language (seed 004 Figure 4.3). */
#define NV_RESULT_SUCCESS          0u
#define NV_RESULT_PACKET_CONSUMED  1u
#define NV_RESULT_FAILURE          2u

/* How an activation ends. */
#define NV_STOP_RETURN     0u   /* the module returned out->result          */
#define NV_STOP_BUDGET     1u   /* stopped mid-run by the step budget        */
#define NV_STOP_INDEX      2u   /* state/header/payload index out of range   */
#define NV_STOP_READONLY   3u   /* write to a header word that is read-only  */
#define NV_STOP_RANK       4u   /* send to a rank outside the communicator   */
#define NV_STOP_DIV        5u   /* division or remainder by zero             */
#define NV_STOP_SEND       6u   /* the firmware refused the send             */
#define NV_STOP_UNVERIFIED 7u   /* the module did not pass nv_verify         */
#define NV_STOP_COUNT      8u

struct nv_env {
    uint32_t size;              /* communicator size (mpi_get_size)         */
    uint32_t rank;              /* this process's rank                      */
    uint32_t root;              /* the root of the operation                */
    uint32_t *hdr;              /* NV_HDR_WORDS header words                */
    uint32_t hdr_writable;      /* bit i set: header word i may be written  */
    uint32_t *payload;          /* payload_words words                      */
    uint32_t payload_words;
    uint32_t *state;            /* the module's nstate persistent words     */
    void *ctx;                  /* the caller's, passed to send             */
    /* Queue a send of the current packet as `type` to `rank` (< size);
     * non-zero if queued.  May be 0: every send is then refused. */
    int (*send)(void *ctx, uint32_t type, uint32_t rank);
};

struct nv_result {
    uint32_t stop;              /* NV_STOP_*                                */
    uint32_t result;            /* the value returned (NV_STOP_RETURN)      */
    uint32_t steps;             /* instructions executed                    */
    uint32_t sends;             /* sends queued                             */
    uint32_t pc;                /* where it stopped                         */
};

/* The send callback, called through env (nv_env.c); the VM's memory is not
 * the callback's to touch. */
/*@ requires \valid_read(env);
    assigns \nothing;
*/
int nv_env_send(const struct nv_env *env, uint32_t type, uint32_t rank);

/* Run one activation with a step budget (NV_STOP_BUDGET once exceeded). */
/*@ requires \valid_read(p) && nv_verified(p);
    requires \valid_read(env) && \valid(out);
    requires \valid(env->hdr + (0 .. NV_HDR_WORDS - 1));
    requires \valid(env->payload + (0 .. env->payload_words - 1));
    requires \valid(env->state + (0 .. p->nstate - 1));
    requires \separated(env->hdr + (0 .. NV_HDR_WORDS - 1),
                        env->payload + (0 .. env->payload_words - 1),
                        env->state + (0 .. p->nstate - 1), p, env, out);
    assigns *out, env->hdr[0 .. NV_HDR_WORDS - 1],
            env->payload[0 .. env->payload_words - 1], env->state[0 .. p->nstate - 1];
    ensures \result == out->stop && \result < NV_STOP_COUNT;
    ensures out->steps <= p->cost[0] && out->steps <= budget;
    ensures out->sends <= p->scost[0];
    ensures out->pc < p->len;
*/
uint32_t nv_run(const struct nv_prog *p, const struct nv_env *env, uint32_t budget,
                struct nv_result *out);

#endif
