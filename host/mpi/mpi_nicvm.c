/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NICVM at the MPI level (seed 004 section 4.3.4; docs/mpi.md "NICVM
 * modules"): a module uploaded to the NIC of every rank of a communicator
 * (collective), purged again, and messages handed to modules: delegated to
 * the caller's own NIC (the broadcast by module: the root delegates, the
 * NICs forward, every other rank receives with an ordinary MPI_Recv), or
 * sent to the module at another rank's NIC.
 *
 * A NICVM message is an ordinary eager packet (struct mpi_hdr, then the
 * bytes) carried as one NICVM packet: whatever a module passes on to a
 * host arrives as a RECV event that mpi_net.c matches like any other, so
 * the receiving side needs no call of its own. Its envelope is the
 * sender's (its rank in the communicator, the tag, the communicator's
 * point-to-point context).
 */
#include <stdlib.h>
#include <string.h>

#include "coll_table.h"
#include "mpi_coll.h"
#include "mpi_impl.h"
#include "nicoll.h"
#include "nicoll/hostif.h"

/* Messages to modules in flight per rank: the NIC keeps 8 host packets in
 * SRAM at once (firmware/coll/nicvm.c), so more would be refused. */
#define NV_SLOTS 8
#define NV_SLOT_BYTES 4096u
#define NV_MODS 8               /* modules per NIC (NC_NV_MODULES) */

_Static_assert(NC_NICVM_PAYLOAD_MAX <= NV_SLOT_BYTES, "a NICVM packet fits a slot");

/* The largest message a module may get: one NICVM packet less the header. */
#define NV_DATA_MAX (NC_NICVM_PAYLOAD_MAX - sizeof(struct mpi_hdr))
_Static_assert(NV_DATA_MAX == MPI_NC_MODULE_MSG_MAX, "mpi.h says the limit");

struct nv_slot {
    bool busy;
    MPI_Comm comm;              /* held while busy: its handler gets a late error */
    char name[NC_NICVM_NAME_MAX + 1];
    uint8_t *buf;
};

static struct nv_slot slots[NV_SLOTS];
static uint8_t *arena;
static int busy_slots;

/* The modules this rank added, by name: the communicator each belongs to
 * (a name is one module per NIC; delegating needs its ranks to be the
 * communicator's). */
static struct { char name[NC_NICVM_NAME_MAX + 1]; uint32_t ctx; } mods[NV_MODS];

static int check_name(MPI_Comm comm, const char *name, const char *fn)
{
    size_t n = name ? strlen(name) : 0;

    if (n == 0 || n > NC_NICVM_NAME_MAX)
        return mpi_error(comm, MPI_ERR_ARG, fn, "module name '%s' is not 1..%u bytes",
                         name ? name : "(null)", NC_NICVM_NAME_MAX);
    return MPI_SUCCESS;
}

static int mod_find(const char *name)
{
    for (int i = 0; i < NV_MODS; i++)
        if (mods[i].name[0] && !strcmp(mods[i].name, name))
            return i;
    return -1;
}

/* The MPI class of a libnicoll error of a module operation. */
static int nc_class(int rc)
{
    switch (rc) {
    case NC_EREJECTED: case NC_EINVAL: case NC_EPERM: return MPI_ERR_ARG;
    case NC_ENOMEM: case NC_ENORES: return MPI_ERR_NO_MEM;
    default: return MPI_ERR_OTHER;
    }
}

/* Every rank's class of outcome, the largest of them (0: all succeeded). */
static int agree(MPI_Comm comm, int mine)
{
    int all = 0;

    comm->coll->allreduce(&mine, &all, 1, MPI_INT, MPI_MAX, comm);
    return all;
}

int MPI_NC_Module_add(MPI_Comm comm, const char *name, const char *source)
{
    static const char fn[] = "MPI_NC_Module_add";
    nc_nicvm_verdict v;
    nc_member *ranks;
    int rc, cls, slot;

    if ((rc = coll_check(comm, fn)))
        return rc;
    if ((rc = check_name(comm, name, fn)))
        return rc;
    if (!source)
        return mpi_error(comm, MPI_ERR_ARG, fn, "module '%s': no source", name);
    slot = mod_find(name);
    if (slot < 0)
        for (int i = 0; i < NV_MODS && slot < 0; i++)
            if (!mods[i].name[0])
                slot = i;
    ranks = malloc(sizeof *ranks * (size_t)comm->size);
    for (int i = 0; i < comm->size; i++) {
        ranks[i].node = (uint16_t)comm->group->world[i];
        ranks[i].port = 0;
    }
    rc = slot < 0 ? NC_ENORES
                  : nc_nicvm_add(mpi_net_port(), name, source, strlen(source), ranks,
                                 (unsigned)comm->size, (unsigned)comm->rank, &v);
    free(ranks);
    cls = agree(comm, rc ? nc_class(rc) : MPI_SUCCESS);
    if (cls == MPI_SUCCESS) {
        strcpy(mods[slot].name, name);
        mods[slot].ctx = comm->ctx;
        return MPI_SUCCESS;
    }
    if (rc == NC_OK) {
        /* another rank's NIC refused it: none keeps it */
        nc_nicvm_purge(mpi_net_port(), name);
        if (mod_find(name) >= 0)
            mods[mod_find(name)].name[0] = 0;
        return mpi_error(comm, cls, fn, "module '%s': refused at another rank", name);
    }
    if (rc == NC_EREJECTED)
        return mpi_error(comm, cls, fn, "module '%s': %s", name, v.error);
    return mpi_error(comm, cls, fn, "module '%s': %s", name,
                     slot < 0 ? "no free module slot on this NIC" : nc_strerror(rc));
}

int MPI_NC_Module_purge(MPI_Comm comm, const char *name)
{
    static const char fn[] = "MPI_NC_Module_purge";
    int rc, i, cls;

    if ((rc = coll_check(comm, fn)) || (rc = check_name(comm, name, fn)))
        return rc;
    /* messages still on their way to this NIC's module go first */
    for (uint64_t idle = nc_host_now_ns(); busy_slots;)
        mpi_progress_wait(&idle);
    i = mod_find(name);
    if (i < 0 || mods[i].ctx != comm->ctx)
        rc = NC_EINVAL;
    else if ((rc = nc_nicvm_purge(mpi_net_port(), name)) == NC_OK)
        mods[i].name[0] = 0;
    cls = agree(comm, rc ? nc_class(rc) : MPI_SUCCESS);
    if (cls == MPI_SUCCESS)
        return MPI_SUCCESS;
    if (rc == NC_OK)
        return mpi_error(comm, cls, fn, "module '%s': not purged at another rank", name);
    return mpi_error(comm, cls, fn, "module '%s': %s", name,
                     i < 0 || mods[i].ctx != comm->ctx ? "not added on this communicator"
                                                       : nc_strerror(rc));
}

/* The answer to a message posted below (mpi_net.c hands it over). */
void mpi_nicvm_event(const nc_event *ev)
{
    struct nv_slot *s = ev->ctx;

    if (s < slots || s >= slots + NV_SLOTS || !s->busy) {
        mpi_error(NULL, MPI_ERR_INTERN, "progress", "a NICVM answer for no message of ours");
        return;
    }
    s->busy = false;
    busy_slots--;
    MPI_Comm c = s->comm;
    if (ev->status)
        mpi_error(c, MPI_ERR_OTHER, "MPI_NC_Delegate",
                  "module '%s': %s (%u sends failed)", s->name, nc_strerror(ev->status),
                  ev->node);
    else if (ev->node)
        mpi_error(c, MPI_ERR_OTHER, "MPI_NC_Delegate",
                  "module '%s': %u of its sends failed (a dead node)", s->name, ev->node);
    mpi_comm_drop(c);
}

/* A free slot, waiting for one if all are in flight; the first use makes
 * and registers them. NULL if the memory cannot be had. */
static struct nv_slot *slot_take(void)
{
    if (!arena) {
        nc_port *p = mpi_net_port();
        arena = nc_alloc(p, NV_SLOT_BYTES * NV_SLOTS);
        if (!arena || nc_register(p, arena, NV_SLOT_BYTES * NV_SLOTS))
            return NULL;
        for (int i = 0; i < NV_SLOTS; i++)
            slots[i].buf = arena + NV_SLOT_BYTES * i;
    }
    for (uint64_t idle = nc_host_now_ns(); busy_slots == NV_SLOTS;)
        mpi_progress_wait(&idle);
    for (int i = 0; i < NV_SLOTS; i++)
        if (!slots[i].busy)
            return &slots[i];
    return NULL;
}

/* The message as a NICVM packet, to the module 'name' at rank dest of its
 * table, or (dest < 0) delegated to the local NIC's. */
static int post(const void *buf, int count, MPI_Datatype t, int dest, int tag,
                const char *name, MPI_Comm comm, const char *fn)
{
    struct mpi_hdr h;
    struct nv_slot *s;
    size_t bytes;
    int rc, i;

    if ((rc = coll_check(comm, fn)) || (rc = coll_check_type(comm, t, count, fn)) ||
        (rc = check_name(comm, name, fn)))
        return rc;
    if (tag < 0 || tag > MPI_TAG_UB_VALUE)
        return mpi_error(comm, MPI_ERR_TAG, fn, "tag %d not in 0..%d", tag, MPI_TAG_UB_VALUE);
    if (dest >= comm->size)
        return mpi_error(comm, MPI_ERR_RANK, fn, "rank %d not in 0..%d", dest, comm->size - 1);
    i = mod_find(name);
    if (i < 0 || mods[i].ctx != comm->ctx)
        return mpi_error(comm, MPI_ERR_ARG, fn, "module '%s' was not added on this communicator",
                         name);
    bytes = (size_t)count * t->size;
    if (bytes > NV_DATA_MAX)
        return mpi_error(comm, MPI_ERR_COUNT, fn,
                         "%zu bytes: a message to a module is one NICVM packet, at most %zu",
                         bytes, (size_t)NV_DATA_MAX);
    if (!(s = slot_take()))
        return mpi_error(comm, MPI_ERR_NO_MEM, fn, "no registered memory for NICVM messages");
    memset(&h, 0, sizeof h);
    h.type = PKT_EAGER;
    h.ctx = comm->ctx;
    h.src = comm->rank;
    h.tag = tag;
    h.len = bytes;
    memcpy(s->buf, &h, sizeof h);
    if (bytes)
        mpi_pack_bytes(buf, (size_t)count, t, s->buf + sizeof h);
    /* ordinary packets queued before this message leave first */
    mpi_net_flush();
    for (uint64_t idle = nc_host_now_ns();;) {
        rc = dest < 0 ? nc_nicvm_delegate(mpi_net_port(), name, s->buf, sizeof h + bytes, s)
                      : nc_nicvm_send(mpi_net_port(), name, (unsigned)dest, s->buf,
                                      sizeof h + bytes, s);
        if (rc != NC_EAGAIN)
            break;
        mpi_progress_wait(&idle);
    }
    if (rc)
        return mpi_error(comm, MPI_ERR_OTHER, fn, "module '%s': %s", name, nc_strerror(rc));
    s->busy = true;
    busy_slots++;
    s->comm = comm;
    mpi_comm_hold(comm);
    strcpy(s->name, name);
    mpi_compute_mark();
    return MPI_SUCCESS;
}

int MPI_NC_Delegate(const void *buf, int count, MPI_Datatype t, int tag, const char *name,
                    MPI_Comm comm)
{
    return post(buf, count, t, -1, tag, name, comm, "MPI_NC_Delegate");
}

int MPI_NC_Send_module(const void *buf, int count, MPI_Datatype t, int dest, int tag,
                       const char *name, MPI_Comm comm)
{
    if (comm && dest < 0)
        return mpi_error(comm, MPI_ERR_RANK, "MPI_NC_Send_module", "rank %d < 0", dest);
    return post(buf, count, t, dest, tag, name, comm, "MPI_NC_Send_module");
}

/* Finalize: every message to a module answered. */
void mpi_nicvm_drain(void)
{
    for (uint64_t idle = nc_host_now_ns(); busy_slots;)
        mpi_progress_wait(&idle);
}
