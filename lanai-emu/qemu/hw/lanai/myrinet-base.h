/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The myrinet machine, bottom layer (myrinet.h draws all the layers): the
 * state every part of the machine shares, and the services that call no
 * other part of it:
 *
 *   myrinet-time.c     a node's cycles <-> picoseconds, its CPU's budget
 *   myrinet-events.c   a node's event queue (heap on time, sequence)
 *   myrinet-trace.c    the event trace (trace=FILE)
 *   myrinet-console.c  the hosts' console lines, printed in time order
 *
 * Nothing here is reached through a global: every function takes the node
 * or the machine, and a node knows its machine (MrNode.m).
 */
#ifndef HW_LANAI_MYRINET_BASE_H
#define HW_LANAI_MYRINET_BASE_H

#include "exec/memory.h"
#include "hw/boards.h"
#include "hw/core/cpu.h"
#include "nicoll/nic.h"
#include "nicoll/board_window.h"
#include "nicoll/hostrt.h"
#include "nicoll/profile.h"
#include "nicoll/fabric.h"
#include "nicoll/topology.h"
#include "nicoll/lanai9_regs.h"

#define MR_SPECIAL_BASE L9_SPECIAL_BASE   /* the contract's one definition */
#define MR_SPECIAL_SIZE 0x200u

enum mr_state {
    MR_HELD,    /* LANai held in reset (CPU halted) */
    MR_RUN,     /* CPU runs towards its next target */
    MR_WAIT,    /* CPU reached the window end; waits for the others */
    MR_IDLE,    /* CPU in a loop that changes nothing: halted until its next
                 * event, its time skipped (myrinet-idle.c) */
};

enum mr_ev_kind {
    MR_EV_PIO_WRITE,
    MR_EV_PIO_WRITE_BLOCK,
    MR_EV_PIO_READ,
    MR_EV_PIO_READ_BLOCK,
    MR_EV_PACKET,
    MR_EV_LINK,                        /* 'down' fault rules: val = link up */
    MR_EV_TX_FLOW,                     /* back-pressure: val 0 STOP, 1 GO */
};

typedef struct MrEvent {
    uint64_t t_ps, seq;
    enum mr_ev_kind kind;
    uint32_t off, val, len;
    uint8_t *data;                     /* block write: copy; block read: host's buffer */
    struct fabric_delivery *pkt;
} MrEvent;

typedef struct MrNode {
    unsigned id;
    struct MyrinetState *m;
    CPUState *cs;
    struct CPUArchState *env;  /* the LANai CPU's state (no QOM cast each time) */
    uint64_t memo_t[2], memo_k[2];  /* mr_cycles_for(): the last two answers */
    unsigned memo_next;
    uint64_t mmio_cycles, mmio_now_ps;  /* mr_node_now() in an access: last answer,
                                         * for node cycles mmio_cycles */
    Object *cluster;
    MemoryRegion container, sram, specials;
    uint8_t *sram_ptr;
    uint32_t sram_size;
    const struct profile_params *pp;

    struct nic nic;
    struct board board;
    struct hostrt host;

    enum mr_state state;
    bool reset_pending;        /* released: reset the CPU before it runs */
    bool in_mmio;              /* inside a special-register access of this CPU */
    unsigned traps;            /* LANai traps (each stopped the CPU until a reset) */
    bool unsync_slice;         /* MYRINET_UNSYNC: running a slice */
    uint64_t cycle_base;       /* node cycles = cycle_base + env->cycles */
    uint64_t target;           /* env->cycles where the CPU must stop next */
    uint64_t now_ps;           /* the node's time outside CPU accesses */
    uint64_t wake_ps;          /* nic_advance() due then (UINT64_MAX: none) */
    bool link_down;            /* last link state shown to the NIC (fault rules) */
    bool ext;                  /* its host is an outside process (myrinet-ext.c) */
    unsigned rx_inflight;      /* packet events posted, not yet applied */
    /* idle detection (myrinet-idle.c) */
    uint64_t disturb;          /* bumps on anything that changes what the CPU sees */
    uint64_t disturb_win;      /* its value at the last window end */
    struct MrProbe *probe;     /* the loop check, while one runs */
    unsigned probe_wait;       /* quiet windows to let pass before the next */
    unsigned probe_backoff;    /* ... doubling after each failed check */
    uint64_t idle_cycles;      /* MR_IDLE: env->cycles at the loop's head */
    uint64_t idle_period;      /* ... and the loop's length in cycles */
    uint64_t skipped_cycles;   /* cycles skipped idle, in all */
    uint64_t cycles_before_reset;  /* CPU cycles before the last reset */
    MrEvent **q;               /* binary heap on (t_ps, seq) */
    unsigned qn, qcap;

    /* host program */
    void *dl;
    int (*prog_main)(int, char **);
    char **argv;
    int argc;
    GString *line;             /* console text not yet ended by a newline */
    uint64_t line_ps;
} MrNode;

/* Where a packet or console line goes in the application order:
 * time, then node, then creation order. */
typedef struct MrOrder {
    uint64_t t_ps, seq;
    unsigned node;
} MrOrder;

typedef struct MrTx {
    MrOrder at;                    /* first: sorted by mr_order_cmp */
    uint32_t len;
    uint8_t *pkt;
} MrTx;

typedef struct MrRxDone {
    MrOrder at;                    /* first: sorted by mr_order_cmp */
    uint64_t id;                   /* the fabric's number of a held packet */
    bool dropped;
} MrRxDone;

typedef struct MrLine {
    MrOrder at;                    /* first: sorted by mr_order_cmp */
    char *text;
} MrLine;

struct MyrinetState {
    MachineState parent_obj;

    /* properties */
    uint32_t nodes;
    char *topology, *profile_path, *program, *faults, *pcap, *trace;
    const char *firmware;          /* MachineState.firmware */
    char *time_limit, *host_mem, *args;
    char *deadlock_after;          /* deadlock-after: the no-progress detector */
    char *board_dir;               /* board-dir: a node for an outside host */
    uint32_t board_node;
    char *sm_node;                 /* sm-node: the management entity's node */
    uint64_t seed;

    /* built from them */
    struct profile prof;
    struct topo *topo;
    struct fabric *fabric;
    struct sm *sm;                 /* the management entity (NULL: none) */
    unsigned sm_at;                /* its node */
    MrNode *node;
    uint8_t *fw_image;
    size_t fw_len;
    char *tmpdir;
    MemoryRegion sram_mr;          /* every node's SRAM, one RAM block */
    uint8_t *sram_all;
    uint64_t *sram_off;
    uint64_t host_mem_bytes;
    struct MrExt *ext;             /* board-dir's node (myrinet-ext.c), or NULL */
    uint64_t limit_ps;
    uint64_t stall_ps;             /* deadlock-after (0: off; myrinet-stall.c) */
    uint64_t progress_ps;          /* virtual time of the last progress */
    unsigned hosts_done;           /* host programs that had returned then */
    unsigned hosts_loading;        /* hosts still loading their firmware */
    bool stall_packets;            /* MYRINET_STALL_PACKETS=1: every packet a NIC
                                      sends is progress (negative tests only) */

    /* time */
    uint64_t lookahead_ps;
    uint64_t win_start, win_end;   /* the current window [start, end) */
    unsigned nrun;                 /* nodes in MR_RUN */
    uint64_t seq;                  /* creation order of events, packets, lines */
    bool unsynced;                 /* MYRINET_UNSYNC=1: negative tests only */
    bool global_clock;             /* MYRINET_GLOBAL_CLOCK=1: likewise */
    bool idle_skip;                /* off with MYRINET_NO_IDLE=1 (comparisons) */
    uint64_t probes, idles, skipped_cycles;
    unsigned traps;                /* LANai traps in all nodes */

    FILE *trace_f;                 /* event trace (trace=FILE), or NULL */
    GArray *tx;                    /* MrTx not yet given to the fabric */
    bool bp;                       /* back-pressure (MYRINET_BACKPRESSURE=0: off) */
    uint64_t bp_timeout_ps;        /* blocking time-out (MYRINET_BP_TIMEOUT) */
    GArray *rxdone;                /* MrRxDone not yet given to the fabric */
    uint64_t flush_upto;           /* the window mr_tx_flush() is closing */
    struct fabric_delivery *tx_out;
    uint64_t tx_last_t;            /* send time of the last packet given to it */
    GArray *lines;                 /* console lines of the current window */
    uint64_t windows, events;

    /*
     * What the scheduler looks at when a window opens, so that a window
     * costs what its busy nodes and live hosts cost, not what the whole
     * cluster would (myrinet-sched.c). Bitmaps have a bit per node.
     */
    bool maps_ready;               /* built at the first window */
    unsigned map_words;
    uint64_t *cpu_map;             /* CPUs that may be running (halted 0): the
                                    * only ones QEMU's loop gives a turn */
    uint64_t *wait_map;            /* nodes in MR_WAIT */
    uint64_t *host_map;            /* host programs not returned */
    uint64_t *attn_map;            /* nodes to look at as a window opens */
    uint64_t turns;                /* CPUs QEMU's loop gave a turn (--stats) */
    unsigned nwait;                /* nodes in MR_WAIT */
    unsigned hosts_returned;
    uint64_t done_max;             /* the latest clock of a returned host */
    struct MrDue *due;             /* heap on time: held and idle nodes' next
                                    * times (an entry at or before each) */
    unsigned ndue, due_cap;
    uint64_t *done_t;              /* heap: clocks of returned hosts */
    unsigned ndone_t, done_cap;
    uint64_t link_next;            /* no NIC link changes before this */
};
typedef struct MyrinetState MyrinetState;

#define TYPE_MYRINET_MACHINE MACHINE_TYPE_NAME("myrinet")
OBJECT_DECLARE_SIMPLE_TYPE(MyrinetState, MYRINET_MACHINE)

/* For arrays of structs that start with an MrOrder (MrTx, MrLine). */
static inline int mr_order_cmp(gconstpointer a, gconstpointer b)
{
    const MrOrder *x = a, *y = b;

    if (x->t_ps != y->t_ps) {
        return x->t_ps < y->t_ps ? -1 : 1;
    }
    if (x->node != y->node) {
        return x->node < y->node ? -1 : 1;
    }
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The run made progress at t_ps (myrinet-stall.c says what counts). */
static inline void mr_progress(MyrinetState *m, uint64_t t_ps)
{
    if (t_ps > m->progress_ps) {
        m->progress_ps = t_ps;
    }
}

/* myrinet-time.c */
uint64_t mr_cycles_for(MrNode *n, uint64_t t_ps);
uint64_t mr_env_cycles_for(MrNode *n, uint64_t t_ps);
uint64_t mr_cpu_time(MrNode *n);
uint64_t mr_node_now(MrNode *n);
void mr_set_budget(CPUState *cs, uint64_t want);

typedef struct MrDue {
    uint64_t t_ps;
    unsigned node;
} MrDue;

static inline void mr_map_set(uint64_t *map, unsigned i)
{
    map[i / 64] |= 1ull << (i % 64);
}

static inline void mr_map_clear(uint64_t *map, unsigned i)
{
    map[i / 64] &= ~(1ull << (i % 64));
}

/* The first set bit at or after i, or 'limit' if none. */
static inline unsigned mr_map_next(const uint64_t *map, unsigned i, unsigned limit)
{
    while (i < limit) {
        uint64_t w = map[i / 64] >> (i % 64);
        if (w) {
            i += __builtin_ctzll(w);
            return i < limit ? i : limit;
        }
        i = (i / 64 + 1) * 64;
    }
    return limit;
}

/* myrinet-events.c */
void mr_due_push(MyrinetState *m, uint64_t t_ps, unsigned node);
void mr_due_pop(MyrinetState *m);
void mr_node_watch(MrNode *n);
void mr_post(MrNode *n, MrEvent *e);
MrEvent *mr_ev_pop(MrNode *n);
uint64_t mr_node_next(MrNode *n);
void mr_ev_free(MrEvent *e);

/* myrinet-trace.c */
int mr_trace_open(MyrinetState *m, const char *path);
void mr_trace(MrNode *n, uint64_t t_ps, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
void mr_trace_event(MrNode *n, const MrEvent *e);
void mr_trace_close(MyrinetState *m);

/* myrinet-console.c */
void mr_console_init(MyrinetState *m);
void mr_console(MrNode *n, uint64_t t_ps, const char *text, size_t len);
void mr_console_flush(MyrinetState *m);
void mr_console_end(MyrinetState *m);

#endif
