/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpi.h: the MPI 3.1 C interface of libmpi, an MPI for host programs of the
 * emulated Myrinet cluster, over libnicoll (docs/mpi.md says exactly what
 * exists). Handles are pointers to the library's objects; the predefined
 * ones are addresses of objects inside the library, so each rank (each
 * node's private copy of the program) has its own.
 */
#ifndef NICOLL_MPI_H
#define NICOLL_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION    3
#define MPI_SUBVERSION 1

typedef struct mpi_comm_s *MPI_Comm;
typedef struct mpi_group_s *MPI_Group;
typedef struct mpi_type_s *MPI_Datatype;
typedef struct mpi_op_s *MPI_Op;
typedef struct mpi_req_s *MPI_Request;
typedef struct mpi_errh_s *MPI_Errhandler;
typedef struct mpi_info_s *MPI_Info;
typedef struct mpi_message_s *MPI_Message;
typedef ptrdiff_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;

typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    /* library's own: bytes received, whether a cancel succeeded */
    size_t nc_bytes;
    int nc_cancelled;
} MPI_Status;

typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *type);
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *err, ...);

/* ---- error classes (MPI 3.1 section 8.4) ---------------------------------- */
enum {
    MPI_SUCCESS = 0, MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_TAG,
    MPI_ERR_COMM, MPI_ERR_RANK, MPI_ERR_REQUEST, MPI_ERR_ROOT, MPI_ERR_GROUP,
    MPI_ERR_OP, MPI_ERR_TOPOLOGY, MPI_ERR_DIMS, MPI_ERR_ARG, MPI_ERR_UNKNOWN,
    MPI_ERR_TRUNCATE, MPI_ERR_OTHER, MPI_ERR_INTERN, MPI_ERR_IN_STATUS,
    MPI_ERR_PENDING, MPI_ERR_NO_MEM, MPI_ERR_UNSUPPORTED_OPERATION,
    MPI_ERR_UNSUPPORTED_DATAREP, MPI_ERR_INFO, MPI_ERR_KEYVAL, MPI_ERR_WIN,
    MPI_ERR_FILE, MPI_ERR_SPAWN, MPI_ERR_LASTCODE
};

/* ---- constants ------------------------------------------------------------ */
#define MPI_ANY_SOURCE   (-1)
#define MPI_PROC_NULL    (-2)
#define MPI_ROOT         (-3)
#define MPI_ANY_TAG      (-1)
#define MPI_UNDEFINED    (-32766)
#define MPI_TAG_UB_VALUE 0x3fffffff
#define MPI_MAX_PROCESSOR_NAME 64
#define MPI_MAX_ERROR_STRING   256
#define MPI_MAX_LIBRARY_VERSION_STRING 256
#define MPI_BSEND_OVERHEAD 64

#define MPI_IDENT     0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR   2
#define MPI_UNEQUAL   3

/* MPI_Comm_split_type: every rank is a node of its own, so the ranks that
 * share memory with one are that one */
#define MPI_COMM_TYPE_SHARED 1

#define MPI_THREAD_SINGLE     0
#define MPI_THREAD_FUNNELED   1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE   3

#define MPI_STATUS_IGNORE   ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)
#define MPI_IN_PLACE        ((void *)1)
#define MPI_BOTTOM          ((void *)0)
#define MPI_INFO_NULL       ((MPI_Info)0)
#define MPI_REQUEST_NULL    ((MPI_Request)0)
#define MPI_COMM_NULL       ((MPI_Comm)0)
#define MPI_GROUP_NULL      ((MPI_Group)0)
#define MPI_DATATYPE_NULL   ((MPI_Datatype)0)
#define MPI_OP_NULL         ((MPI_Op)0)
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
#define MPI_MESSAGE_NULL    ((MPI_Message)0)

/* ---- predefined objects --------------------------------------------------- */
extern struct mpi_comm_s mpi_comm_world_, mpi_comm_self_;
#define MPI_COMM_WORLD (&mpi_comm_world_)
#define MPI_COMM_SELF  (&mpi_comm_self_)
extern struct mpi_group_s mpi_group_empty_;
#define MPI_GROUP_EMPTY (&mpi_group_empty_)
extern struct mpi_errh_s mpi_errors_are_fatal_, mpi_errors_return_;
#define MPI_ERRORS_ARE_FATAL (&mpi_errors_are_fatal_)
#define MPI_ERRORS_RETURN    (&mpi_errors_return_)
extern struct mpi_message_s mpi_message_no_proc_;
#define MPI_MESSAGE_NO_PROC  (&mpi_message_no_proc_)

extern struct mpi_type_s mpi_t_char_, mpi_t_schar_, mpi_t_uchar_, mpi_t_byte_,
    mpi_t_short_, mpi_t_ushort_, mpi_t_int_, mpi_t_unsigned_, mpi_t_long_,
    mpi_t_ulong_, mpi_t_llong_, mpi_t_ullong_, mpi_t_float_, mpi_t_double_,
    mpi_t_ldouble_, mpi_t_wchar_, mpi_t_bool_, mpi_t_int8_, mpi_t_int16_,
    mpi_t_int32_, mpi_t_int64_, mpi_t_uint8_, mpi_t_uint16_, mpi_t_uint32_,
    mpi_t_uint64_, mpi_t_packed_, mpi_t_aint_, mpi_t_offset_, mpi_t_count_,
    mpi_t_float_int_, mpi_t_double_int_, mpi_t_long_int_, mpi_t_2int_,
    mpi_t_short_int_, mpi_t_ldouble_int_;
#define MPI_CHAR               (&mpi_t_char_)
#define MPI_SIGNED_CHAR        (&mpi_t_schar_)
#define MPI_UNSIGNED_CHAR      (&mpi_t_uchar_)
#define MPI_BYTE               (&mpi_t_byte_)
#define MPI_SHORT              (&mpi_t_short_)
#define MPI_UNSIGNED_SHORT     (&mpi_t_ushort_)
#define MPI_INT                (&mpi_t_int_)
#define MPI_UNSIGNED           (&mpi_t_unsigned_)
#define MPI_LONG               (&mpi_t_long_)
#define MPI_UNSIGNED_LONG      (&mpi_t_ulong_)
#define MPI_LONG_LONG_INT      (&mpi_t_llong_)
#define MPI_LONG_LONG          (&mpi_t_llong_)
#define MPI_UNSIGNED_LONG_LONG (&mpi_t_ullong_)
#define MPI_FLOAT              (&mpi_t_float_)
#define MPI_DOUBLE             (&mpi_t_double_)
#define MPI_LONG_DOUBLE        (&mpi_t_ldouble_)
#define MPI_WCHAR              (&mpi_t_wchar_)
#define MPI_C_BOOL             (&mpi_t_bool_)
#define MPI_INT8_T             (&mpi_t_int8_)
#define MPI_INT16_T            (&mpi_t_int16_)
#define MPI_INT32_T            (&mpi_t_int32_)
#define MPI_INT64_T            (&mpi_t_int64_)
#define MPI_UINT8_T            (&mpi_t_uint8_)
#define MPI_UINT16_T           (&mpi_t_uint16_)
#define MPI_UINT32_T           (&mpi_t_uint32_)
#define MPI_UINT64_T           (&mpi_t_uint64_)
#define MPI_PACKED             (&mpi_t_packed_)
#define MPI_AINT               (&mpi_t_aint_)
#define MPI_OFFSET             (&mpi_t_offset_)
#define MPI_COUNT              (&mpi_t_count_)
#define MPI_FLOAT_INT          (&mpi_t_float_int_)
#define MPI_DOUBLE_INT         (&mpi_t_double_int_)
#define MPI_LONG_INT           (&mpi_t_long_int_)
#define MPI_2INT               (&mpi_t_2int_)
#define MPI_SHORT_INT          (&mpi_t_short_int_)
#define MPI_LONG_DOUBLE_INT    (&mpi_t_ldouble_int_)

extern struct mpi_op_s mpi_op_max_, mpi_op_min_, mpi_op_sum_, mpi_op_prod_,
    mpi_op_land_, mpi_op_band_, mpi_op_lor_, mpi_op_bor_, mpi_op_lxor_,
    mpi_op_bxor_, mpi_op_minloc_, mpi_op_maxloc_, mpi_op_replace_, mpi_op_no_op_;
#define MPI_MAX     (&mpi_op_max_)
#define MPI_MIN     (&mpi_op_min_)
#define MPI_SUM     (&mpi_op_sum_)
#define MPI_PROD    (&mpi_op_prod_)
#define MPI_LAND    (&mpi_op_land_)
#define MPI_BAND    (&mpi_op_band_)
#define MPI_LOR     (&mpi_op_lor_)
#define MPI_BOR     (&mpi_op_bor_)
#define MPI_LXOR    (&mpi_op_lxor_)
#define MPI_BXOR    (&mpi_op_bxor_)
#define MPI_MINLOC  (&mpi_op_minloc_)
#define MPI_MAXLOC  (&mpi_op_maxloc_)
#define MPI_REPLACE (&mpi_op_replace_)
#define MPI_NO_OP   (&mpi_op_no_op_)

/* ---- environment (mpi_env.c) ---------------------------------------------- */
int MPI_Init(int *argc, char ***argv);
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int MPI_Query_thread(int *provided);
int MPI_Is_thread_main(int *flag);
int MPI_Initialized(int *flag);
int MPI_Finalize(void);
int MPI_Finalized(int *flag);
int MPI_Abort(MPI_Comm comm, int errorcode);
double MPI_Wtime(void);
double MPI_Wtick(void);
int MPI_Get_processor_name(char *name, int *resultlen);
int MPI_Get_version(int *version, int *subversion);
int MPI_Get_library_version(char *version, int *resultlen);

/* ---- errors (mpi_err.c) ----------------------------------------------------- */
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler eh);
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *eh);
int MPI_Errhandler_free(MPI_Errhandler *eh);
int MPI_Error_string(int errorcode, char *string, int *resultlen);
int MPI_Error_class(int errorcode, int *errorclass);

/* ---- point-to-point (mpi_p2p.c, mpi_req.c) ---------------------------------- */
int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status);
int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *req);
int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *req);
int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *req);
int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *req);
int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *req);
int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
                 void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag,
                 MPI_Comm comm, MPI_Status *status);
int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int stag,
                         int source, int rtag, MPI_Comm comm, MPI_Status *status);
int MPI_Buffer_attach(void *buf, int size);
int MPI_Buffer_detach(void *buf_addr, int *size);
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
int MPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count);
/* matched probe (MPI 3.0 section 3.8.2, mpi_mprobe.c) */
int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status);
int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                MPI_Status *status);
int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
              MPI_Status *status);
int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
               MPI_Request *req);
int MPI_Get_elements(const MPI_Status *status, MPI_Datatype type, int *count);
int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm, MPI_Request *req);
int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Request *req);
int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Request *req);
int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Request *req);
int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag,
                  MPI_Comm comm, MPI_Request *req);
int MPI_Start(MPI_Request *req);
int MPI_Startall(int count, MPI_Request reqs[]);
int MPI_Wait(MPI_Request *req, MPI_Status *status);
int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status);
int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[]);
int MPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[]);
int MPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status);
int MPI_Testany(int count, MPI_Request reqs[], int *index, int *flag, MPI_Status *status);
int MPI_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[]);
int MPI_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[]);
int MPI_Request_free(MPI_Request *req);
int MPI_Request_get_status(MPI_Request req, int *flag, MPI_Status *status);
int MPI_Cancel(MPI_Request *req);
int MPI_Test_cancelled(const MPI_Status *status, int *flag);
int MPI_Get_address(const void *location, MPI_Aint *address);

/* ---- datatypes (mpi_type.c, mpi_pack.c) ------------------------------------- */
int MPI_Type_size(MPI_Datatype type, int *size);
int MPI_Type_get_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent);
int MPI_Type_get_true_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent);
int MPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_vector(int count, int blocklen, int stride, MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_create_hvector(int count, int blocklen, MPI_Aint stride, MPI_Datatype old,
                            MPI_Datatype *newtype);
int MPI_Type_indexed(int count, const int blocklens[], const int displs[], MPI_Datatype old,
                     MPI_Datatype *newtype);
int MPI_Type_create_hindexed(int count, const int blocklens[], const MPI_Aint displs[],
                             MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_create_indexed_block(int count, int blocklen, const int displs[],
                                  MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_create_struct(int count, const int blocklens[], const MPI_Aint displs[],
                           const MPI_Datatype types[], MPI_Datatype *newtype);
int MPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype);
int MPI_Type_dup(MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_commit(MPI_Datatype *type);
int MPI_Type_free(MPI_Datatype *type);
int MPI_Pack(const void *inbuf, int incount, MPI_Datatype type, void *outbuf, int outsize,
             int *position, MPI_Comm comm);
int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
               MPI_Datatype type, MPI_Comm comm);
int MPI_Pack_size(int incount, MPI_Datatype type, MPI_Comm comm, int *size);

/* ---- groups and communicators (mpi_group.c, mpi_comm.c) ------------------------ */
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Comm_group(MPI_Comm comm, MPI_Group *group);
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *req);
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm);
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                        MPI_Comm *newcomm);
int MPI_Comm_free(MPI_Comm *comm);
int MPI_Comm_compare(MPI_Comm a, MPI_Comm b, int *result);
int MPI_Comm_test_inter(MPI_Comm comm, int *flag);
int MPI_Group_size(MPI_Group group, int *size);
int MPI_Group_rank(MPI_Group group, int *rank);
int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
int MPI_Group_union(MPI_Group a, MPI_Group b, MPI_Group *newgroup);
int MPI_Group_intersection(MPI_Group a, MPI_Group b, MPI_Group *newgroup);
int MPI_Group_difference(MPI_Group a, MPI_Group b, MPI_Group *newgroup);
int MPI_Group_translate_ranks(MPI_Group a, int n, const int ranks_a[], MPI_Group b, int ranks_b[]);
int MPI_Group_compare(MPI_Group a, MPI_Group b, int *result);
int MPI_Group_free(MPI_Group *group);

/* ---- collectives (mpi_coll*.c) ---------------------------------------------- */
int MPI_Barrier(MPI_Comm comm);
int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm);
int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm);
int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm);
int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm);
int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[],
                const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm);
int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm);
int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm);
int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm);
int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm);
int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, MPI_Comm comm);
int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                  void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype,
                  MPI_Comm comm);
int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                  const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                  const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm);
int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                       MPI_Op op, MPI_Comm comm);
int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                             MPI_Op op, MPI_Comm comm);
int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req);
int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request *req);
int MPI_Igather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req);
int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[],
                 const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req);
int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req);
int MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                  void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                  MPI_Request *req);
int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                   MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req);
int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                    const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm,
                    MPI_Request *req);
int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req);
int MPI_Ialltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                   void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype,
                   MPI_Comm comm, MPI_Request *req);
int MPI_Ialltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                   const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                   const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
                   MPI_Request *req);
int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                MPI_Comm comm, MPI_Request *req);
int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm, MPI_Request *req);
int MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
              MPI_Comm comm, MPI_Request *req);
int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                MPI_Comm comm, MPI_Request *req);
int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                        MPI_Op op, MPI_Comm comm, MPI_Request *req);
int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                              MPI_Op op, MPI_Comm comm, MPI_Request *req);
int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype type, MPI_Op op);
int MPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op);
int MPI_Op_free(MPI_Op *op);
int MPI_Op_commutative(MPI_Op op, int *commute);

/* ---- NICVM modules (mpi_nicvm.c; seed 004 chapter 4; docs/mpi.md "NICVM
 * modules"): nicoll's extension, not MPI's ---------------------------------
 * A module (the language of docs/nicvm.md) is compiled here and uploaded to
 * the NIC of every rank of comm, which verifies it: collective, and it
 * succeeds everywhere or nowhere. Its ranks are comm's. A message to a
 * module is one NICVM packet (at most MPI_NC_MODULE_MSG_MAX bytes) with an
 * ordinary envelope (the caller's rank in comm, tag): what the module
 * passes on to a host is received there with MPI_Recv. MPI_NC_Delegate
 * hands it to the caller's own NIC (seed 004's broadcast: the root
 * delegates, the other ranks receive), MPI_NC_Send_module to the module at
 * rank dest's NIC. Both return once the bytes are copied; a module's
 * failure later is reported on comm. */
#define MPI_NC_MODULE_NAME_MAX 8
#define MPI_NC_MODULE_MSG_MAX 4016
int MPI_NC_Module_add(MPI_Comm comm, const char *name, const char *source);
int MPI_NC_Module_purge(MPI_Comm comm, const char *name);
int MPI_NC_Delegate(const void *buf, int count, MPI_Datatype type, int tag, const char *name,
                    MPI_Comm comm);
int MPI_NC_Send_module(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                       const char *name, MPI_Comm comm);

/* ---- out of scope: present so that programs link, each returns
 * MPI_ERR_UNSUPPORTED_OPERATION with a message (mpi_unsupported.c) ---------- */
int MPI_Intercomm_create(MPI_Comm local, int local_leader, MPI_Comm peer, int remote_leader,
                         int tag, MPI_Comm *newcomm);
int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                   MPI_Comm comm, MPI_Comm *intercomm, int errcodes[]);
int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                   void *win);
int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, void *fh);

#include "mpi_objects.h"

#ifdef __cplusplus
}
#endif
#endif
