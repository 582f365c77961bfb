/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpi_objects.h (included by mpi.h): what MPI 3.1 lets a program hang on
 * its objects and ask of them: attribute caching (section 6.7: keyvals,
 * the predefined attributes of MPI_COMM_WORLD, the MPI-1 forms kept by
 * 3.1), object names (6.8), info objects (chapter 9), datatype envelopes
 * and contents (4.1.13), the subarray and hindexed-block constructors,
 * the _x queries (4.1.5, 4.1.11), group ranges (6.3.2) and
 * MPI_Alloc_mem (8.2). docs/mpi.md, "Coverage".
 */
#ifndef NICOLL_MPI_OBJECTS_H
#define NICOLL_MPI_OBJECTS_H

#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_INFO_KEY    255
#define MPI_MAX_INFO_VAL    1024
/* chapter 9's error classes: one class, MPI_ERR_INFO, reported with a
 * message naming what was wrong */
#define MPI_ERR_INFO_KEY   MPI_ERR_INFO
#define MPI_ERR_INFO_VALUE MPI_ERR_INFO
#define MPI_ERR_INFO_NOKEY MPI_ERR_INFO

/* ---- attribute caching (mpi_attr.c) ---------------------------------------- */
/* Keyvals are small integers; the predefined ones name the attributes
 * MPI_COMM_WORLD has from MPI_Init. */
#define MPI_KEYVAL_INVALID  0
#define MPI_TAG_UB          1
#define MPI_HOST            2
#define MPI_IO              3
#define MPI_WTIME_IS_GLOBAL 4
#define MPI_UNIVERSE_SIZE   5
#define MPI_APPNUM          6
#define MPI_LASTUSEDCODE    7

typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out,
                                        int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int keyval, void *attribute_val,
                                          void *extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out,
                                        int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype type, int keyval, void *attribute_val,
                                          void *extra_state);
typedef MPI_Comm_copy_attr_function MPI_Copy_function;
typedef MPI_Comm_delete_attr_function MPI_Delete_function;

int mpi_comm_dup_fn_(MPI_Comm, int, void *, void *, void *, int *);
int mpi_type_dup_fn_(MPI_Datatype, int, void *, void *, void *, int *);
/* The null functions copy nothing and delete nothing. */
#define MPI_COMM_NULL_COPY_FN   ((MPI_Comm_copy_attr_function *)0)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function *)0)
#define MPI_COMM_DUP_FN         mpi_comm_dup_fn_
#define MPI_TYPE_NULL_COPY_FN   ((MPI_Type_copy_attr_function *)0)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function *)0)
#define MPI_TYPE_DUP_FN         mpi_type_dup_fn_
#define MPI_NULL_COPY_FN        MPI_COMM_NULL_COPY_FN
#define MPI_NULL_DELETE_FN      MPI_COMM_NULL_DELETE_FN
#define MPI_DUP_FN              MPI_COMM_DUP_FN

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy_fn,
                           MPI_Comm_delete_attr_function *delete_fn, int *keyval,
                           void *extra_state);
int MPI_Comm_free_keyval(int *keyval);
int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *attribute_val);
int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
int MPI_Comm_delete_attr(MPI_Comm comm, int keyval);
int MPI_Type_create_keyval(MPI_Type_copy_attr_function *copy_fn,
                           MPI_Type_delete_attr_function *delete_fn, int *keyval,
                           void *extra_state);
int MPI_Type_free_keyval(int *keyval);
int MPI_Type_set_attr(MPI_Datatype type, int keyval, void *attribute_val);
int MPI_Type_get_attr(MPI_Datatype type, int keyval, void *attribute_val, int *flag);
int MPI_Type_delete_attr(MPI_Datatype type, int keyval);
/* MPI-1's names, deprecated but part of MPI 3.1 */
int MPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                      void *extra_state);
int MPI_Keyval_free(int *keyval);
int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val);
int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
int MPI_Attr_delete(MPI_Comm comm, int keyval);

/* ---- names (mpi_attr.c) ---------------------------------------------------- */
int MPI_Comm_set_name(MPI_Comm comm, const char *name);
int MPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen);
int MPI_Type_set_name(MPI_Datatype type, const char *name);
int MPI_Type_get_name(MPI_Datatype type, char *name, int *resultlen);

/* ---- info objects (mpi_info.c) --------------------------------------------- */
extern struct mpi_info_s mpi_info_env_;
#define MPI_INFO_ENV (&mpi_info_env_)
int MPI_Info_create(MPI_Info *info);
int MPI_Info_set(MPI_Info info, const char *key, const char *value);
int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag);
int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag);
int MPI_Info_get_nkeys(MPI_Info info, int *nkeys);
int MPI_Info_get_nthkey(MPI_Info info, int n, char *key);
int MPI_Info_delete(MPI_Info info, const char *key);
int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
int MPI_Info_free(MPI_Info *info);
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info);

/* ---- datatype envelopes and the remaining constructors (mpi_type_contents.c) */
enum {
    MPI_COMBINER_NAMED = 1, MPI_COMBINER_DUP, MPI_COMBINER_CONTIGUOUS, MPI_COMBINER_VECTOR,
    MPI_COMBINER_HVECTOR_INTEGER, MPI_COMBINER_HVECTOR, MPI_COMBINER_INDEXED,
    MPI_COMBINER_HINDEXED_INTEGER, MPI_COMBINER_HINDEXED, MPI_COMBINER_INDEXED_BLOCK,
    MPI_COMBINER_HINDEXED_BLOCK, MPI_COMBINER_STRUCT_INTEGER, MPI_COMBINER_STRUCT,
    MPI_COMBINER_SUBARRAY, MPI_COMBINER_DARRAY, MPI_COMBINER_F90_REAL,
    MPI_COMBINER_F90_COMPLEX, MPI_COMBINER_F90_INTEGER, MPI_COMBINER_RESIZED
};
extern struct mpi_type_s mpi_t_c_float_complex_, mpi_t_c_double_complex_,
    mpi_t_c_ldouble_complex_;
#define MPI_C_COMPLEX             (&mpi_t_c_float_complex_)
#define MPI_C_FLOAT_COMPLEX       (&mpi_t_c_float_complex_)
#define MPI_C_DOUBLE_COMPLEX      (&mpi_t_c_double_complex_)
#define MPI_C_LONG_DOUBLE_COMPLEX (&mpi_t_c_ldouble_complex_)
#define MPI_ORDER_C       56
#define MPI_ORDER_FORTRAN 57
int MPI_Type_get_envelope(MPI_Datatype type, int *num_integers, int *num_addresses,
                          int *num_datatypes, int *combiner);
int MPI_Type_get_contents(MPI_Datatype type, int max_integers, int max_addresses,
                          int max_datatypes, int integers[], MPI_Aint addresses[],
                          MPI_Datatype datatypes[]);
int MPI_Type_create_hindexed_block(int count, int blocklen, const MPI_Aint displs[],
                                   MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[],
                             const int starts[], int order, MPI_Datatype old,
                             MPI_Datatype *newtype);
int MPI_Type_hvector(int count, int blocklen, MPI_Aint stride, MPI_Datatype old,
                     MPI_Datatype *newtype);
int MPI_Type_hindexed(int count, int blocklens[], MPI_Aint displs[], MPI_Datatype old,
                      MPI_Datatype *newtype);
int MPI_Type_size_x(MPI_Datatype type, MPI_Count *size);
int MPI_Type_get_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent);
int MPI_Type_get_true_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent);
int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype type, MPI_Count *count);
int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype type, int count);
int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type, MPI_Count count);
int MPI_Status_set_cancelled(MPI_Status *status, int flag);

/* ---- group ranges (mpi_group.c) -------------------------------------------- */
int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);

/* ---- process topologies (mpi_topo.c) --------------------------------------- */
#define MPI_GRAPH 1
#define MPI_CART  2
int MPI_Topo_test(MPI_Comm comm, int *status);
int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm *comm_cart);
int MPI_Cartdim_get(MPI_Comm comm, int *ndims);
int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]);
int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank);
int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest);
int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm);
int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank);
int MPI_Dims_create(int nnodes, int ndims, int dims[]);
int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                     int reorder, MPI_Comm *comm_graph);
int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]);
int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]);
int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank);

/* ---- error handlers and added error classes (mpi_errhandler.c) ------------ */
int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler);
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode);
int MPI_Add_error_class(int *errorclass);
int MPI_Add_error_code(int errorclass, int *errorcode);
int MPI_Add_error_string(int errorcode, const char *string);

/* ---- memory (mpi_attr.c) --------------------------------------------------- */
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
int MPI_Free_mem(void *base);

/* ---- inter-communicators are out of scope (mpi_unsupported.c) -------------- */
int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm);
int MPI_Comm_remote_size(MPI_Comm comm, int *size);
int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group);

#endif
