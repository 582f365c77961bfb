/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What MPI 3.1 lets a program hang on its objects and ask of them:
 * attribute caching (6.7), names (6.8), info objects (chapter 9),
 * datatype envelopes and contents (4.1.13), the subarray constructor
 * (4.1.3), struct padding and negative extents (4.1.6), group unions and ranges (6.3.2), Cartesian and graph
 * topologies (chapter 7), error handlers and added error classes
 * (8.3, 8.5). Each check is a value the
 * standard defines. tests/mpi/suite runs it; docs/mpi.md.
 */
#include "mpitest.h"

/* ---- attrs ------------------------------------------------------------------ */
static int copies, deletes, deleted_val[8], ndeleted;

static int copy_plus_one(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag)
{
    (void)c; (void)key; (void)extra;
    copies++;
    *(void **)out = (void *)((char *)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int note_delete(MPI_Comm c, int key, void *val, void *extra)
{
    (void)c; (void)key; (void)extra;
    deletes++;
    if (ndeleted < 8)
        deleted_val[ndeleted++] = (int)(size_t)val;
    return MPI_SUCCESS;
}

static int type_deletes;
static int note_type_delete(MPI_Datatype t, int key, void *val, void *extra)
{
    (void)t; (void)key; (void)val; (void)extra;
    type_deletes++;
    return MPI_SUCCESS;
}

static void attrs(void)
{
    MPI_Comm a, b;
    int key, nocopy, flag, *ip;
    void *v;

    /* MPI_COMM_WORLD's predefined attributes */
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ip, &flag);
    CHECK(flag && *ip >= 32767, "MPI_TAG_UB: flag %d value %d", flag, flag ? *ip : 0);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &ip, &flag);
    CHECK(flag && *ip == np, "MPI_UNIVERSE_SIZE: flag %d value %d", flag, flag ? *ip : 0);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &ip, &flag);
    CHECK(flag && *ip == MPI_PROC_NULL, "MPI_HOST: flag %d", flag);

    MPI_Comm_create_keyval(copy_plus_one, note_delete, &key, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, note_delete, &nocopy, NULL);
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_get_attr(a, key, &v, &flag);
    CHECK(!flag, "an attribute never set is there");
    MPI_Comm_set_attr(a, key, (void *)100);
    MPI_Comm_set_attr(a, nocopy, (void *)7);
    MPI_Comm_get_attr(a, key, &v, &flag);
    CHECK(flag && v == (void *)100, "get after set: flag %d value %p", flag, v);

    /* a dup copies through the copy function, and only where it says so */
    copies = 0;
    MPI_Comm_dup(a, &b);
    CHECK(copies == 1, "MPI_Comm_dup called the copy function %d times, not once", copies);
    MPI_Comm_get_attr(b, key, &v, &flag);
    CHECK(flag && v == (void *)101, "the dup's attribute: flag %d value %p (want 101)", flag, v);
    MPI_Comm_get_attr(b, nocopy, &v, &flag);
    CHECK(!flag, "MPI_COMM_NULL_COPY_FN's attribute was copied");

    /* setting again deletes the old value first; delete_attr deletes */
    deletes = ndeleted = 0;
    MPI_Comm_set_attr(b, key, (void *)200);
    CHECK(deletes == 1 && deleted_val[0] == 101, "replacing: %d deletes, value %d", deletes,
          deleted_val[0]);
    MPI_Comm_delete_attr(b, key);
    CHECK(deletes == 2 && deleted_val[1] == 200, "delete_attr: %d deletes, value %d", deletes,
          deleted_val[1]);
    MPI_Comm_get_attr(b, key, &v, &flag);
    CHECK(!flag, "a deleted attribute is still there");

    /* a freed keyval lives on in the attributes that use it */
    MPI_Comm_free_keyval(&key);
    CHECK(key == MPI_KEYVAL_INVALID, "MPI_Comm_free_keyval left the handle");
    deletes = ndeleted = 0;
    MPI_Comm_free(&b);
    CHECK(deletes == 0, "b had no attribute left, yet %d deletes", deletes);
    /* freeing a deletes its two attributes, the newest first */
    MPI_Comm_free(&a);
    CHECK(deletes == 2 && deleted_val[0] == 7 && deleted_val[1] == 100,
          "MPI_Comm_free: %d deletes, values %d %d (want 7 then 100)", deletes, deleted_val[0],
          deleted_val[1]);
    MPI_Comm_free_keyval(&nocopy);

    /* datatypes: MPI_TYPE_DUP_FN copies, MPI_Type_free deletes */
    MPI_Datatype t, u;
    int tkey;
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, note_type_delete, &tkey, NULL);
    MPI_Type_set_attr(t, tkey, (void *)5);
    MPI_Type_dup(t, &u);
    MPI_Type_get_attr(u, tkey, &v, &flag);
    CHECK(flag && v == (void *)5, "MPI_Type_dup's attribute: flag %d value %p", flag, v);
    type_deletes = 0;
    MPI_Type_free(&t);
    MPI_Type_free(&u);
    CHECK(type_deletes == 2, "freeing two types called %d deletes, not 2", type_deletes);
    MPI_Type_free_keyval(&tkey);
}

/* ---- names ---------------------------------------------------------------------- */
static void names(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Comm c;

    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    CHECK(!strcmp(name, "MPI_COMM_WORLD") && len == 14, "world's name \"%s\" (%d)", name, len);
    MPI_Type_get_name(MPI_DOUBLE, name, &len);
    CHECK(!strcmp(name, "MPI_DOUBLE"), "MPI_DOUBLE's name \"%s\"", name);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_get_name(c, name, &len);
    CHECK(len == 0 && !name[0], "a new communicator's name \"%s\"", name);
    MPI_Comm_set_name(c, "halves");
    MPI_Comm_get_name(c, name, &len);
    CHECK(!strcmp(name, "halves") && len == 6, "set then get: \"%s\"", name);
    MPI_Comm_free(&c);
}

/* ---- info ------------------------------------------------------------------------------ */
static void info(void)
{
    MPI_Info in, dup;
    char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
    int n, flag, len;

    MPI_Info_create(&in);
    MPI_Info_set(in, "cb_nodes", "4");
    MPI_Info_set(in, "striping", "lots");
    MPI_Info_set(in, "alpha", "1");
    MPI_Info_set(in, "cb_nodes", "8");      /* replaces, keeps its place */
    MPI_Info_get_nkeys(in, &n);
    CHECK(n == 3, "nkeys %d, want 3", n);
    MPI_Info_get_nthkey(in, 0, key);
    CHECK(!strcmp(key, "cb_nodes"), "key 0 \"%s\"", key);
    MPI_Info_get_nthkey(in, 2, key);
    CHECK(!strcmp(key, "alpha"), "key 2 \"%s\"", key);
    MPI_Info_get(in, "cb_nodes", MPI_MAX_INFO_VAL, val, &flag);
    CHECK(flag && !strcmp(val, "8"), "cb_nodes: flag %d \"%s\"", flag, val);
    MPI_Info_get(in, "striping", 2, val, &flag);    /* at most valuelen characters */
    CHECK(flag && !strcmp(val, "lo"), "truncated get \"%s\"", val);
    MPI_Info_get_valuelen(in, "striping", &len, &flag);
    CHECK(flag && len == 4, "valuelen %d", len);
    MPI_Info_get(in, "absent", MPI_MAX_INFO_VAL, val, &flag);
    CHECK(!flag, "an absent key was found");
    MPI_Info_dup(in, &dup);
    MPI_Info_delete(in, "striping");
    MPI_Info_get_nkeys(in, &n);
    CHECK(n == 2, "after delete nkeys %d", n);
    MPI_Info_get_nkeys(dup, &n);
    CHECK(n == 3, "the dup changed with the original: nkeys %d", n);
    MPI_Info_free(&in);
    MPI_Info_free(&dup);
    CHECK(in == MPI_INFO_NULL && dup == MPI_INFO_NULL, "MPI_Info_free left the handles");
}

/* ---- envelope ------------------------------------------------------------------------- */
static void envelope(void)
{
    MPI_Datatype v, s, r, d, got[2];
    int ni, na, nt, comb, ints[8];
    MPI_Aint addrs[4];

    MPI_Type_get_envelope(MPI_INT, &ni, &na, &nt, &comb);
    CHECK(comb == MPI_COMBINER_NAMED, "MPI_INT's combiner %d", comb);

    MPI_Type_vector(3, 2, 4, MPI_INT, &v);
    MPI_Type_get_envelope(v, &ni, &na, &nt, &comb);
    CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nt == 1,
          "vector: combiner %d, %d/%d/%d", comb, ni, na, nt);
    MPI_Type_get_contents(v, 8, 4, 2, ints, addrs, got);
    CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 4 && got[0] == MPI_INT,
          "vector's contents %d %d %d", ints[0], ints[1], ints[2]);

    int bl[2] = { 1, 2 };
    MPI_Aint dis[2] = { 0, 16 };
    MPI_Datatype ty[2] = { MPI_DOUBLE, v };
    MPI_Type_create_struct(2, bl, dis, ty, &s);
    MPI_Type_get_envelope(s, &ni, &na, &nt, &comb);
    CHECK(comb == MPI_COMBINER_STRUCT && ni == 3 && na == 2 && nt == 2,
          "struct: combiner %d, %d/%d/%d", comb, ni, na, nt);
    MPI_Type_get_contents(s, 8, 4, 2, ints, addrs, got);
    CHECK(ints[0] == 2 && ints[2] == 2 && addrs[1] == 16 && got[0] == MPI_DOUBLE,
          "struct's contents");
    /* the derived type handed back is the vector, alive after v's free */
    MPI_Type_free(&v);
    MPI_Type_get_envelope(got[1], &ni, &na, &nt, &comb);
    CHECK(comb == MPI_COMBINER_VECTOR, "struct's second type: combiner %d", comb);
    MPI_Type_free(&got[1]);

    MPI_Type_create_resized(MPI_INT, -4, 12, &r);
    MPI_Type_get_envelope(r, &ni, &na, &nt, &comb);
    MPI_Type_get_contents(r, 8, 4, 2, ints, addrs, got);
    CHECK(comb == MPI_COMBINER_RESIZED && na == 2 && addrs[0] == -4 && addrs[1] == 12,
          "resized: combiner %d", comb);
    MPI_Type_dup(s, &d);
    MPI_Type_get_envelope(d, &ni, &na, &nt, &comb);
    CHECK(comb == MPI_COMBINER_DUP && nt == 1, "dup: combiner %d", comb);
    MPI_Type_free(&s);
    MPI_Type_free(&r);
    MPI_Type_free(&d);
}

/* ---- subarray --------------------------------------------------------------------------- */
static void subarray(void)
{
    int a[4][5], out[6], sizes[2] = { 4, 5 }, sub[2] = { 2, 3 }, start[2] = { 1, 1 }, pos = 0;
    int ints[8], ni, na, nt, comb;
    MPI_Datatype t, f;
    MPI_Aint lb, ext;

    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            a[i][j] = 10 * i + j;
    MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_INT, &t);
    MPI_Type_commit(&t);
    MPI_Type_get_extent(t, &lb, &ext);
    CHECK(lb == 0 && ext == (MPI_Aint)sizeof a, "C subarray: lb %ld extent %ld", (long)lb,
          (long)ext);
    MPI_Pack(a, 1, t, out, sizeof out, &pos, MPI_COMM_SELF);
    int want[6] = { 11, 12, 13, 21, 22, 23 };
    CHECK(pos == 24 && !memcmp(out, want, sizeof want), "C subarray packs %d %d %d %d %d %d",
          out[0], out[1], out[2], out[3], out[4], out[5]);
    MPI_Type_get_envelope(t, &ni, &na, &nt, &comb);
    MPI_Type_get_contents(t, 8, 0, 1, ints, NULL, &f);
    CHECK(comb == MPI_COMBINER_SUBARRAY && ni == 8 && ints[0] == 2 && ints[3] == 2 &&
          ints[7] == MPI_ORDER_C, "subarray's envelope: combiner %d, %d integers", comb, ni);
    MPI_Type_free(&t);

    /* Fortran order: the first dimension is the fastest */
    int fs[2] = { 5, 4 }, fsub[2] = { 3, 2 }, fst[2] = { 1, 1 };
    MPI_Type_create_subarray(2, fs, fsub, fst, MPI_ORDER_FORTRAN, MPI_INT, &f);
    MPI_Type_commit(&f);
    pos = 0;
    MPI_Pack(a, 1, f, out, sizeof out, &pos, MPI_COMM_SELF);
    CHECK(pos == 24 && !memcmp(out, want, sizeof want), "Fortran subarray packs %d %d %d ...",
          out[0], out[1], out[2]);
    MPI_Type_free(&f);

    /* a message of one: every rank sends its row block to the next */
    if (np > 1) {
        int got[4][5] = { { 0 } };
        MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_INT, &t);
        MPI_Type_commit(&t);
        MPI_Sendrecv(a, 1, t, (me + 1) % np, 5, got, 1, t, (me + np - 1) % np, 5,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(got[1][1] == 11 && got[2][3] == 23 && got[0][0] == 0 && got[1][4] == 0,
              "received subarray %d %d %d %d", got[1][1], got[2][3], got[0][0], got[1][4]);
        MPI_Type_free(&t);
    }
}

/* ---- extents: a struct padded as C pads it; a negative extent's instances ---- */
static void extents(void)
{
    struct { double d; char c; } x;
    int bl[2] = { 1, 1 };
    MPI_Aint dis[2] = { 0, (char *)&x.c - (char *)&x.d }, lb, ext;
    MPI_Datatype ty[2] = { MPI_DOUBLE, MPI_CHAR }, s, neg, c3;

    MPI_Type_create_struct(2, bl, dis, ty, &s);
    MPI_Type_get_extent(s, &lb, &ext);
    CHECK(lb == 0 && ext == (MPI_Aint)sizeof x, "struct {double; char}: extent %ld, sizeof %zu",
          (long)ext, sizeof x);
    MPI_Type_free(&s);
    /* {lb 6, extent -9}: three of them span lb -12 to ub -3 */
    MPI_Type_create_resized(MPI_INT, 6, -9, &neg);
    MPI_Type_contiguous(3, neg, &c3);
    MPI_Type_get_extent(c3, &lb, &ext);
    CHECK(lb == -12 && ext == 9, "3 x {lb 6, extent -9}: lb %ld extent %ld, want -12 and 9",
          (long)lb, (long)ext);
    MPI_Type_free(&c3);
    MPI_Type_free(&neg);
}

/* ---- pairs: MINLOC and MAXLOC on the padded pair types, through the
 * library's scratch buffers (MPICH's coll/opminloc) ----------------------- */
static void pairs(void)
{
    struct { long double v; int i; } in[3], out[3];
    struct { double v; int i; } din[3], dout[3];

    for (int k = 0; k < 3; k++) {
        in[k].v = (long double)((me + k) % np);    /* the minimum 0 at rank (np - k) % np */
        in[k].i = me;
        din[k].v = (double)me * (k + 1);
        din[k].i = me;
    }
    MPI_Reduce(in, out, 3, MPI_LONG_DOUBLE_INT, MPI_MINLOC, 0, MPI_COMM_WORLD);
    MPI_Allreduce(din, dout, 3, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    for (int k = 0; k < 3; k++) {
        if (me == 0)
            CHECK(out[k].v == 0 && out[k].i == (np - k % np) % np,
                  "MINLOC long double-int %d: %Lg at %d, want 0 at %d", k, out[k].v, out[k].i,
                  (np - k % np) % np);
        CHECK(dout[k].v == (double)(np - 1) * (k + 1) && dout[k].i == np - 1,
              "MAXLOC double-int %d: %g at %d", k, dout[k].v, dout[k].i);
    }
}

/* ---- status: a program's own status (12.3), counts beyond an int -------------- */
static void status(void)
{
    MPI_Status st;
    MPI_Count big = 0x7654321ff1234567LL, got;
    int n, flag;

    MPI_Status_set_elements_x(&st, MPI_BYTE, big);
    MPI_Get_elements_x(&st, MPI_BYTE, &got);
    CHECK(got == big, "Status_set_elements_x %llx, Get_elements_x %llx", (long long)big,
          (long long)got);
    MPI_Status_set_elements(&st, MPI_INT, 3);
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == 3, "Status_set_elements(3 MPI_INT): Get_count %d", n);
    MPI_Status_set_cancelled(&st, 1);
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag, "Status_set_cancelled(1): Test_cancelled %d", flag);
}

/* ---- groups ------------------------------------------------------------------------------ */
static void groups(void)
{
    MPI_Group world, some, u, r, e;
    int res, size, rank0;

    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int first[1] = { 0 };
    MPI_Group_excl(world, 1, first, &some);
    /* the union of a group and part of it is the group, in its order */
    MPI_Group_union(world, some, &u);
    MPI_Group_compare(world, u, &res);
    CHECK(res == MPI_IDENT, "union(world, world less 0) compares %d, not MPI_IDENT", res);
    MPI_Group_free(&u);
    /* the other way round: some's members, then rank 0 */
    MPI_Group_union(some, world, &u);
    MPI_Group_size(u, &size);
    int last = np - 1, t;
    MPI_Group_translate_ranks(u, 1, &last, world, &t);
    CHECK(size == np && t == 0, "union(some, world): size %d, its last is world rank %d", size, t);
    MPI_Group_free(&u);

    /* ranges: every second rank from the last down */
    int range[1][3] = { { np - 1, 0, -2 } };
    MPI_Group_range_incl(world, 1, range, &r);
    MPI_Group_size(r, &size);
    MPI_Group_translate_ranks(r, 1, first, world, &rank0);
    CHECK(size == (np + 1) / 2 && rank0 == np - 1, "range_incl: size %d, first %d", size, rank0);
    MPI_Group_free(&r);
    MPI_Group_range_excl(world, 1, range, &r);
    MPI_Group_size(r, &size);
    CHECK(size == np / 2, "range_excl: size %d, want %d", size, np / 2);
    MPI_Group_free(&r);

    /* excluding everyone gives MPI_GROUP_EMPTY */
    int all[1][3] = { { 0, np - 1, 1 } };
    MPI_Group_range_excl(world, 1, all, &e);
    CHECK(e == MPI_GROUP_EMPTY, "excluding every rank is not MPI_GROUP_EMPTY");
    MPI_Group_free(&e);
    MPI_Group_free(&some);
    MPI_Group_free(&world);
}

/* ---- topo: a Cartesian grid and a graph over the world (chapter 7) ---------------- */
static void topo(void)
{
    int d2[2] = { 0, 0 }, d3[3] = { 0, 3, 0 }, st;

    MPI_Dims_create(12, 2, d2);
    CHECK(d2[0] == 4 && d2[1] == 3, "Dims_create(12, 2) = %d x %d, want 4 x 3", d2[0], d2[1]);
    MPI_Dims_create(24, 3, d3);
    CHECK(d3[0] == 4 && d3[1] == 3 && d3[2] == 2, "Dims_create(24, {0,3,0}) = %d %d %d", d3[0],
          d3[1], d3[2]);

    /* a periodic ring of np in dimension 0, one point in dimension 1 */
    int dims[2] = { np, 1 }, periods[2] = { 1, 0 }, coords[2], src, dst, r;
    MPI_Comm cart, dup, row;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Topo_test(cart, &st);
    CHECK(st == MPI_CART, "Topo_test %d, want MPI_CART", st);
    MPI_Cart_coords(cart, me, 2, coords);
    MPI_Cart_rank(cart, coords, &r);
    CHECK(coords[0] == me && coords[1] == 0 && r == me, "coords %d,%d rank %d", coords[0],
          coords[1], r);
    MPI_Cart_shift(cart, 0, 1, &src, &dst);
    CHECK(src == (me + np - 1) % np && dst == (me + 1) % np, "periodic shift: %d <- me -> %d",
          src, dst);
    MPI_Cart_shift(cart, 1, 1, &src, &dst);
    CHECK(src == MPI_PROC_NULL && dst == MPI_PROC_NULL, "shift off a non-periodic edge: %d %d",
          src, dst);
    /* a message round the ring through the shift's neighbours */
    int token = me, got = -1;
    MPI_Cart_shift(cart, 0, 1, &src, &dst);
    MPI_Sendrecv(&token, 1, MPI_INT, dst, 3, &got, 1, MPI_INT, src, 3, cart, MPI_STATUS_IGNORE);
    CHECK(got == src, "ring: got %d from %d", got, src);
    MPI_Comm_dup(cart, &dup);
    MPI_Topo_test(dup, &st);
    CHECK(st == MPI_CART, "a dup of a Cartesian communicator: Topo_test %d", st);
    int keep[2] = { 0, 1 }, nd, sz;
    MPI_Cart_sub(cart, keep, &row);
    MPI_Cartdim_get(row, &nd);
    MPI_Comm_size(row, &sz);
    CHECK(nd == 1 && sz == 1, "Cart_sub keeping the 1-point dimension: %d dims, %d ranks", nd,
          sz);
    MPI_Comm_free(&row);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&cart);

    /* a graph: a ring, each node's neighbours the previous and the next */
    if (np >= 3) {
        int *index = malloc(sizeof(int) * (size_t)np), *edges = malloc(sizeof(int) * 2 * (size_t)np);
        for (int i = 0; i < np; i++) {
            index[i] = 2 * (i + 1);
            edges[2 * i] = (i + np - 1) % np;
            edges[2 * i + 1] = (i + 1) % np;
        }
        MPI_Comm g;
        int nn, nbr[2];
        MPI_Graph_create(MPI_COMM_WORLD, np, index, edges, 0, &g);
        MPI_Topo_test(g, &st);
        MPI_Graph_neighbors_count(g, me, &nn);
        MPI_Graph_neighbors(g, me, 2, nbr);
        CHECK(st == MPI_GRAPH && nn == 2 && nbr[0] == (me + np - 1) % np && nbr[1] == (me + 1) % np,
              "graph: Topo_test %d, %d neighbours %d %d", st, nn, nbr[0], nbr[1]);
        MPI_Comm_free(&g);
        free(index);
        free(edges);
    }
}

/* ---- errhandler: a handler of the program's, and error classes it adds (8.3, 8.5) */
static int handled, handled_code;
static void on_error(MPI_Comm *c, int *code, ...)
{
    (void)c;
    handled++;
    handled_code = *code;
}

static void errhandler(void)
{
    MPI_Errhandler eh;
    MPI_Comm c;
    int cls, code, len, x = 0, rc;
    char str[MPI_MAX_ERROR_STRING];

    MPI_Comm_create_errhandler(on_error, &eh);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, eh);
    MPI_Errhandler_free(&eh);       /* c keeps it */
    handled = 0;
    rc = MPI_Send(&x, 1, MPI_INT, np + 5, 0, c);
    MPI_Error_class(rc, &cls);
    CHECK(handled == 1 && cls == MPI_ERR_RANK && handled_code == rc,
          "a send to rank %d: handler called %d times with %d, returned %d (class %d)", np + 5,
          handled, handled_code, rc, cls);

    MPI_Add_error_class(&cls);
    MPI_Add_error_code(cls, &code);
    MPI_Add_error_string(code, "the program's own error");
    int c2;
    MPI_Error_class(code, &c2);
    MPI_Error_string(code, str, &len);
    CHECK(cls > MPI_ERR_LASTCODE && code != cls && c2 == cls && !strcmp(str, "the program's own error"),
          "added class %d code %d: class of code %d, string \"%s\"", cls, code, c2, str);
    int *last, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
    CHECK(flag && *last == code, "MPI_LASTUSEDCODE %d, want %d", flag ? *last : -1, code);
    handled = 0;
    MPI_Comm_call_errhandler(c, code);
    CHECK(handled == 1 && handled_code == code, "Comm_call_errhandler: %d calls, code %d", handled,
          handled_code);
    MPI_Comm_free(&c);
}

static const struct scenario scenarios[] = {
    { "attrs", attrs }, { "names", names }, { "info", info }, { "envelope", envelope },
    { "subarray", subarray }, { "extents", extents }, { "pairs", pairs }, { "status", status },
    { "groups", groups }, { "topo", topo },
    { "errhandler", errhandler }, { NULL, NULL },
};

int main(int argc, char **argv)
{
    return run_scenarios(argc, argv, scenarios);
}
