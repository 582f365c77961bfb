/* nv_env.c - the VM's one call out: the send callback of struct nv_env
 * (nv_vm.h).  Kept apart from nv_vm.c because the proofs take its contract
 * as given: a callback cannot be proved from here. */
#include "nv_vm.h"

int nv_env_send(const struct nv_env *env, uint32_t type, uint32_t rank)
{
    return env->send != 0 ? env->send(env->ctx, type, rank) : 0;
}
