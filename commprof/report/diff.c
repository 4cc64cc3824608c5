/* commprof-report diff A B: what changed between two profiles.
 *
 * Functions are matched by kind, name, object and source file (a caller context
 * with no callers apart from its function); edges by their
 * two matched ends.  Edges that appear, vanish, grow or shrink are listed by
 * absolute change of bytes, with the relative change; functions by the change
 * of the bytes they communicate (IN + OUT), with their instructions. */

#include "cpr.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

static int cmp_u32(const void* a, const void* b)
{
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return x < y ? -1 : x > y;
}

typedef struct {
    size_t ia, ib; /* index in A / B, NONE if absent */
} ufunc;

typedef struct {
    size_t p, c; /* union function indices */
    uint64_t a, b, ua, ub;
} uedge;

typedef struct {
    size_t u;
    uint64_t a, b, ia, ib; /* communicated bytes (in + out) and instructions */
} frow;

/* |b - a| and its sign */
static uint64_t absdiff(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

static const char* status(uint64_t a, uint64_t b)
{
    return !a && b ? "new" : a && !b ? "gone" : b > a ? "grown" : b < a ? "shrunk" : "same";
}

static void change_str(char* buf, uint64_t a, uint64_t b)
{
    char n[32];
    cpr_fmt_u64(n, absdiff(a, b));
    snprintf(buf, 40, "%s%s", b > a ? "+" : b < a ? "-" : "", n);
}

static void rel_str(char* buf, uint64_t a, uint64_t b)
{
    if (a == b)
        snprintf(buf, 24, "=");
    else if (!a)
        snprintf(buf, 24, "new");
    else if (!b)
        snprintf(buf, 24, "gone");
    else
        snprintf(buf, 24, "%+.1f%%", 100.0 * ((double)b - (double)a) / (double)a);
}

/* The relative change of a row that both profiles have (a function, object
   or thread, or a total): a count that fell to 0 is -100%, one that rose
   from 0 has no relative change ("from 0"); "new" and "gone" are for rows
   that one profile does not have, and for edges (an edge of 0 bytes does
   not exist). */
static void rel_str_both(char* buf, uint64_t a, uint64_t b)
{
    if (a != b && !a)
        snprintf(buf, 24, "from 0");
    else if (a != b && !b)
        snprintf(buf, 24, "-100.0%%");
    else
        rel_str(buf, a, b);
}

static const uedge* sort_e;
static const frow* sort_f;
static int cmp_e(const void* x, const void* y)
{
    const uedge *e = &sort_e[*(const size_t*)x], *f = &sort_e[*(const size_t*)y];
    uint64_t u = absdiff(e->a, e->b), v = absdiff(f->a, f->b);
    if (u != v) return u > v ? -1 : 1;
    uint64_t s = e->a > e->b ? e->a : e->b, t = f->a > f->b ? f->a : f->b;
    if (s != t) return s > t ? -1 : 1;
    size_t i = *(const size_t*)x, j = *(const size_t*)y;
    return i < j ? -1 : i > j;
}
static int cmp_f(const void* x, const void* y)
{
    const frow *e = &sort_f[*(const size_t*)x], *f = &sort_f[*(const size_t*)y];
    uint64_t u = absdiff(e->a, e->b), v = absdiff(f->a, f->b);
    if (u != v) return u > v ? -1 : 1;
    u = absdiff(e->ia, e->ib);
    v = absdiff(f->ia, f->ib);
    if (u != v) return u > v ? -1 : 1;
    size_t i = *(const size_t*)x, j = *(const size_t*)y;
    return i < j ? -1 : i > j;
}

static void diff_help(void)
{
    printf("Usage: %s diff [OPTIONS] A.xml B.xml\n"
           "\n"
           "What changed from profile A to profile B: edges that appear (new), vanish\n"
           "(gone), grow or shrink, by absolute change of bytes with the relative\n"
           "change, and functions by the change of the bytes they communicate (IN +\n"
           "OUT), with their instructions.  Functions are matched by kind, name,\n"
           "object file and source file.\n"
           "\n"
           "  --table=TABLE       edges, functions, objects, threads or all [all; edges\n"
           "                      with --csv].  objects: data objects (--objects=yes)\n"
           "                      matched by kind, name and symbol, by absolute\n"
           "                      change of accesses (reads + writes); threads:\n"
           "                      matched by id (creation order), instructions,\n"
           "                      bytes read, IN, OUT.\n"
           "                      all: edges, functions, then objects and threads when\n"
           "                      a profile has them (threads: more than one)\n"
           "  --threshold=PCT     changes that add up to PCT%% of all the absolute\n"
           "                      change [99; 100 with --csv]\n"
           "  --top=N             at most N rows per table, 0 = no limit [20; 0 with --csv]\n"
           "  --all               also list what did not change\n"
           "  --no-special        leave out the special nodes and their edges\n"
           "  --csv               CSV of one table (raw numbers)\n"
           "  -o, --output=FILE   write to FILE instead of standard output\n"
           "  -h, --help          this help\n",
           CPR_PROG);
}

static void rule(FILE* f)
{
    fputs("--------------------------------------------------------------------------------\n", f);
}

static const cpr_func* ufn(const cpr_profile* A, const cpr_profile* B, const ufunc* U, size_t u)
{
    return U[u].ia != NONE ? &A->funcs[U[u].ia] : &B->funcs[U[u].ib];
}

static const char* uname(const cpr_profile* A, const cpr_profile* B, const ufunc* U, size_t u, char* buf, size_t n)
{
    return U[u].ia != NONE ? cpr_display_name(A, U[u].ia, buf, n) : cpr_display_name(B, U[u].ib, buf, n);
}

/* prints rows of cells with right-aligned columns but the last */
static void print_rows(FILE* f, char*** cells, size_t nrows, size_t ncols)
{
    size_t w[16] = {0};
    for (size_t r = 0; r < nrows; r++)
        for (size_t c = 0; c + 1 < ncols; c++) {
            size_t l = strlen(cells[r][c]);
            if (l > w[c]) w[c] = l;
        }
    for (size_t r = 0; r < nrows; r++) {
        for (size_t c = 0; c + 1 < ncols; c++) fprintf(f, "%*s  ", (int)w[c], cells[r][c]);
        fprintf(f, "%s\n", cells[r][ncols - 1]);
    }
}

static char*** alloc_cells(size_t nrows, size_t ncols)
{
    char*** c = cpr_xcalloc(nrows + 1, sizeof *c);
    for (size_t r = 0; r < nrows; r++) c[r] = cpr_xcalloc(ncols, sizeof **c);
    return c;
}

static void free_cells(char*** c, size_t nrows, size_t ncols)
{
    for (size_t r = 0; r < nrows; r++) {
        for (size_t k = 0; k < ncols; k++) free(c[r][k]);
        free(c[r]);
    }
    free(c);
}

static void run_line(FILE* f, const char* tag, const cpr_profile* p)
{
    fprintf(f, "%s  %s  (%s", tag, p->path, p->exe ? p->exe : "");
    for (size_t i = 0; i < p->nargs; i++) fprintf(f, " %s", p->args[i]);
    fprintf(f, "; pid %s)\n", p->pid ? p->pid : "?");
}

/* ---- objects and threads ------------------------------------------------------ */

typedef struct {
    const cpr_object *a, *b; /* first object of the key in A / B */
    uint64_t ra, rb, wa, wb, rba, rbb, wba, wbb; /* reads, writes, read and write bytes, summed */
} uobj;

static const uobj* sort_o;
static int cmp_o(const void* x, const void* y)
{
    const uobj *e = &sort_o[*(const size_t*)x], *f = &sort_o[*(const size_t*)y];
    uint64_t u = absdiff(e->ra + e->wa, e->rb + e->wb), v = absdiff(f->ra + f->wa, f->rb + f->wb);
    if (u != v) return u > v ? -1 : 1;
    size_t i = *(const size_t*)x, j = *(const size_t*)y;
    return i < j ? -1 : i > j;
}

static uint64_t sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

static void objects_diff(FILE* f, const cpr_profile* A, const cpr_profile* B, int csv, int all, double threshold,
                         size_t top)
{
    cpr_strmap sm;
    memset(&sm, 0, sizeof sm);
    uobj* U = cpr_xcalloc(A->nobjects + B->nobjects + 1, sizeof *U);
    size_t n = 0;
    cpr_buf key = {0};
    for (int side = 0; side < 2; side++) {
        const cpr_profile* P = side ? B : A;
        for (size_t i = 0; i < P->nobjects; i++) {
            const cpr_object* o = &P->objects[i];
            cpr_object_key(&key, o);
            size_t u = cpr_strmap_get(&sm, key.s, n, 1);
            if (u == n) n++;
            uobj* x = &U[u];
            if (side) {
                if (!x->b) x->b = o;
                x->rb = sat(x->rb, o->reads);
                x->wb = sat(x->wb, o->writes);
                x->rbb = sat(x->rbb, o->read_bytes);
                x->wbb = sat(x->wbb, o->write_bytes);
            } else {
                if (!x->a) x->a = o;
                x->ra = sat(x->ra, o->reads);
                x->wa = sat(x->wa, o->writes);
                x->rba = sat(x->rba, o->read_bytes);
                x->wba = sat(x->wba, o->write_bytes);
            }
        }
    }
    cpr_buf_free(&key);
    cpr_strmap_free(&sm);
    size_t* r = cpr_xmalloc((n + 1) * sizeof *r);
    size_t nr = 0;
    for (size_t u = 0; u < n; u++) {
        const uobj* x = &U[u];
        if (!all && x->a && x->b && x->ra == x->rb && x->wa == x->wb && x->rba == x->rbb && x->wba == x->wbb) continue;
        r[nr++] = u;
    }
    sort_o = U;
    qsort(r, nr, sizeof *r, cmp_o);
    uint64_t* d = cpr_xmalloc((nr + 1) * sizeof *d);
    for (size_t k = 0; k < nr; k++) {
        const uobj* x = &U[r[k]];
        d[k] = absdiff(sat(x->ra, x->wa), sat(x->rb, x->wb));
        if (!d[k]) d[k] = 1; /* changed bytes, or appeared/vanished */
    }
    size_t k = cpr_cut_rows(d, nr, threshold, top);
    free(d);
    if (csv) {
        fputs("kind,name,reads_a,reads_b,writes_a,writes_b,read_bytes_a,read_bytes_b,write_bytes_a,write_bytes_b,"
              "status\n",
              f);
        for (size_t i = 0; i < k; i++) {
            const uobj* x = &U[r[i]];
            const cpr_object* o = x->a ? x->a : x->b;
            fprintf(f, "%s,", cpr_object_kinds[o->kind]);
            cpr_csv_field(f, o->name);
            const char* st = !x->a ? "new" : !x->b ? "gone" : status(sat(x->ra, x->wa), sat(x->rb, x->wb));
            fprintf(f, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%s\n", (unsigned long long)x->ra,
                    (unsigned long long)x->rb, (unsigned long long)x->wa, (unsigned long long)x->wb,
                    (unsigned long long)x->rba, (unsigned long long)x->rbb, (unsigned long long)x->wba,
                    (unsigned long long)x->wbb, st);
        }
    } else {
        rule(f);
        fprintf(f, "Data objects by absolute change of accesses (reads + writes): %zu of %zu %s shown", k, nr,
                all ? "objects" : "changed objects");
        if (threshold < 100) fprintf(f, ", threshold %g%%", threshold);
        if (top) fprintf(f, ", top %zu", top);
        fputc('\n', f);
        rule(f);
        static const char* const h[] = {"A accesses", "B accesses", "change", "relative", "A bytes", "B bytes",
                                        "object"};
        char*** c = alloc_cells(k + 1, 7);
        for (int j = 0; j < 7; j++) c[0][j] = cpr_xstrdup(h[j]);
        char x1[40], rel[24];
        for (size_t i = 0; i < k; i++) {
            const uobj* x = &U[r[i]];
            const cpr_object* o = x->a ? x->a : x->b;
            uint64_t a = sat(x->ra, x->wa), b = sat(x->rb, x->wb);
            c[i + 1][0] = cpr_xstrdup(x->a ? cpr_fmt_u64(x1, a) : "-");
            c[i + 1][1] = cpr_xstrdup(x->b ? cpr_fmt_u64(x1, b) : "-");
            change_str(x1, a, b);
            c[i + 1][2] = cpr_xstrdup(x1);
            if (!x->a) snprintf(rel, sizeof rel, "new");
            else if (!x->b) snprintf(rel, sizeof rel, "gone");
            else rel_str_both(rel, a, b);
            c[i + 1][3] = cpr_xstrdup(rel);
            c[i + 1][4] = cpr_xstrdup(x->a ? cpr_fmt_u64(x1, sat(x->rba, x->wba)) : "-");
            c[i + 1][5] = cpr_xstrdup(x->b ? cpr_fmt_u64(x1, sat(x->rbb, x->wbb)) : "-");
            cpr_buf nb = {0};
            cpr_buf_printf(&nb, "%s (%s)", o->name, cpr_object_kinds[o->kind]);
            c[i + 1][6] = nb.s;
        }
        print_rows(f, c, k + 1, 7);
        free_cells(c, k + 1, 7);
    }
    free(r);
    free(U);
}

static void threads_diff(FILE* f, const cpr_profile* A, const cpr_profile* B, int csv, int all, double threshold,
                         size_t top)
{
    /* thread ids are creation order: the union of the ids, ascending */
    size_t n = A->nthreads + B->nthreads;
    uint32_t* ids = cpr_xmalloc((n + 1) * sizeof *ids);
    size_t m = 0;
    for (size_t i = 0; i < A->nthreads; i++) ids[m++] = A->threads[i].id;
    for (size_t i = 0; i < B->nthreads; i++)
        if (cpr_thread_index(A, B->threads[i].id) == NONE) ids[m++] = B->threads[i].id;
    qsort(ids, m, sizeof *ids, cmp_u32);
    const cpr_thread** ta = cpr_xcalloc(m + 1, sizeof *ta);
    const cpr_thread** tb = cpr_xcalloc(m + 1, sizeof *tb);
    size_t nr = 0;
    for (size_t i = 0; i < m; i++) {
        size_t a = cpr_thread_index(A, ids[i]), b = cpr_thread_index(B, ids[i]);
        const cpr_thread* x = a == NONE ? NULL : &A->threads[a];
        const cpr_thread* y = b == NONE ? NULL : &B->threads[b];
        if (!all && x && y && x->instructions == y->instructions && x->bytes_read == y->bytes_read &&
            x->in_bytes == y->in_bytes && x->out_bytes == y->out_bytes && !strcmp(x->name, y->name))
            continue;
        ids[nr] = ids[i];
        ta[nr] = x;
        tb[nr] = y;
        nr++;
    }
    size_t k = top && nr > top ? top : nr;
    (void)threshold;
    if (csv) {
        fputs("id,name_a,name_b,instructions_a,instructions_b,bytes_read_a,bytes_read_b,in_a,in_b,out_a,out_b,status\n",
              f);
        for (size_t i = 0; i < k; i++) {
            const cpr_thread *x = ta[i], *y = tb[i];
            fprintf(f, "%u,", ids[i]);
            cpr_csv_field(f, x ? x->name : "");
            putc(',', f);
            cpr_csv_field(f, y ? y->name : "");
            uint64_t v[8] = {x ? x->instructions : 0, y ? y->instructions : 0, x ? x->bytes_read : 0,
                             y ? y->bytes_read : 0, x ? x->in_bytes : 0, y ? y->in_bytes : 0,
                             x ? x->out_bytes : 0, y ? y->out_bytes : 0};
            for (int j = 0; j < 8; j++) fprintf(f, ",%llu", (unsigned long long)v[j]);
            fprintf(f, ",%s\n", !x ? "new" : !y ? "gone" : status(v[0], v[1]));
        }
    } else {
        rule(f);
        fprintf(f, "Threads (matched by id): %zu of %zu %s shown", k, nr, all ? "threads" : "changed threads");
        if (top) fprintf(f, ", top %zu", top);
        fputc('\n', f);
        rule(f);
        static const char* const h[] = {"id", "A instr", "B instr", "relative", "A IN+OUT", "B IN+OUT", "relative",
                                        "thread"};
        char*** c = alloc_cells(k + 1, 8);
        for (int j = 0; j < 8; j++) c[0][j] = cpr_xstrdup(h[j]);
        char x1[40], rel[24];
        for (size_t i = 0; i < k; i++) {
            const cpr_thread *x = ta[i], *y = tb[i];
            snprintf(x1, sizeof x1, "%u", ids[i]);
            c[i + 1][0] = cpr_xstrdup(x1);
            uint64_t ia = x ? x->instructions : 0, ib = y ? y->instructions : 0;
            uint64_t ca = x ? sat(x->in_bytes, x->out_bytes) : 0, cb = y ? sat(y->in_bytes, y->out_bytes) : 0;
            c[i + 1][1] = cpr_xstrdup(x ? cpr_fmt_u64(x1, ia) : "-");
            c[i + 1][2] = cpr_xstrdup(y ? cpr_fmt_u64(x1, ib) : "-");
            if (!x) snprintf(rel, sizeof rel, "new");
            else if (!y) snprintf(rel, sizeof rel, "gone");
            else rel_str_both(rel, ia, ib);
            c[i + 1][3] = cpr_xstrdup(rel);
            c[i + 1][4] = cpr_xstrdup(x ? cpr_fmt_u64(x1, ca) : "-");
            c[i + 1][5] = cpr_xstrdup(y ? cpr_fmt_u64(x1, cb) : "-");
            if (!x) snprintf(rel, sizeof rel, "new");
            else if (!y) snprintf(rel, sizeof rel, "gone");
            else rel_str_both(rel, ca, cb);
            c[i + 1][6] = cpr_xstrdup(rel);
            cpr_buf nb = {0};
            const char *na = x ? x->name : "", *nb2 = y ? y->name : "";
            if (x && y && strcmp(na, nb2)) {
                cpr_buf_put_visible(&nb, na[0] ? na : "(no name)");
                cpr_buf_puts(&nb, " -> ");
                cpr_buf_put_visible(&nb, nb2[0] ? nb2 : "(no name)");
            } else {
                cpr_buf_put_visible(&nb, na[0] ? na : nb2[0] ? nb2 : "(no name)");
            }
            c[i + 1][7] = nb.s;
        }
        print_rows(f, c, k + 1, 8);
        free_cells(c, k + 1, 8);
    }
    free(ids);
    free(ta);
    free(tb);
}

int cpr_cmd_diff(int argc, char** argv)
{
    static const struct option lo[] = {{"help", no_argument, 0, 'h'},         {"output", required_argument, 0, 'o'},
                                       {"threshold", required_argument, 0, 't'}, {"top", required_argument, 0, 'n'},
                                       {"csv", no_argument, 0, 'c'},          {"table", required_argument, 0, 'T'},
                                       {"all", no_argument, 0, 'a'},          {"no-special", no_argument, 0, 'S'},
                                       {0, 0, 0, 0}};
    const char* output = NULL;
    double threshold = 99;
    size_t top = 20;
    int csv = 0, table = 0, table_set = 0, all = 0, no_special = 0, th_set = 0, top_set = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:", lo, NULL)) != -1) {
        switch (c) {
        case 'h': diff_help(); return CPR_OK;
        case 'o': output = optarg; break;
        case 't':
            if (cpr_opt_pct("diff", "threshold", optarg, &threshold)) return CPR_EUSAGE;
            th_set = 1;
            break;
        case 'n':
            if (cpr_opt_count("diff", "top", optarg, &top)) return CPR_EUSAGE;
            top_set = 1;
            break;
        case 'c': csv = 1; break;
        case 'a': all = 1; break;
        case 'S': no_special = 1; break;
        case 'T':
            if (!strcmp(optarg, "all")) table = 0;
            else if (!strcmp(optarg, "edges")) table = 1;
            else if (!strcmp(optarg, "functions")) table = 2;
            else if (!strcmp(optarg, "objects")) table = 3;
            else if (!strcmp(optarg, "threads")) table = 4;
            else return cpr_usage_error("diff", "--table=%s: expected edges, functions, objects, threads or all", optarg);
            table_set = 1;
            break;
        default: return cpr_opt_error("diff", c, optopt, argv, optind);
        }
    }
    if (argc - optind != 2) return cpr_usage_error("diff", "expected two profiles, A and B (got %d)", argc - optind);
    if (csv) {
        if (table_set && table == 0)
            return cpr_usage_error("diff", "--csv writes one table: use --table=edges, functions, objects or threads");
        if (!table_set) table = 1;
        if (!th_set) threshold = 100;
        if (!top_set) top = 0;
    }
    cpr_error err = {0};
    cpr_profile *A, *B;
    if (cpr_load(argv[optind], &A, &err)) {
        cpr_print_error(&err);
        return CPR_EINPUT;
    }
    if (cpr_load(argv[optind + 1], &B, &err)) {
        cpr_print_error(&err);
        cpr_profile_free(A);
        return CPR_EINPUT;
    }

    if (table == 3 && !A->has_objects && !B->has_objects) {
        cpr_seterr(&err, B->path, 0, "--table=objects: neither profile has <objects> (profile with --objects=yes)");
        cpr_print_error(&err);
        cpr_profile_free(A);
        cpr_profile_free(B);
        return CPR_EINPUT;
    }
    /* union of the functions */
    size_t nu = 0;
    ufunc* U = cpr_xmalloc((A->nfuncs + B->nfuncs + 1) * sizeof *U);
    size_t* ua = cpr_xmalloc((A->nfuncs + 1) * sizeof *ua);
    size_t* ub = cpr_xmalloc((B->nfuncs + 1) * sizeof *ub);
    cpr_funcmap fm;
    cpr_funcmap_init(&fm);
    for (size_t i = 0; i < A->nfuncs; i++) {
        size_t u = cpr_funcmap_get(&fm, &A->funcs[i], nu, 1);
        if (u == nu) U[nu++] = (ufunc){i, NONE};
        ua[i] = u;
    }
    for (size_t i = 0; i < B->nfuncs; i++) {
        size_t u = cpr_funcmap_get(&fm, &B->funcs[i], nu, 1);
        if (u == nu) U[nu++] = (ufunc){NONE, i};
        else U[u].ib = i;
        ub[i] = u;
    }
    cpr_funcmap_free(&fm);

    /* union of the edges */
    uedge* E = cpr_xmalloc((A->nedges + B->nedges + 1) * sizeof *E);
    size_t ne = 0;
    cpr_pairmap pm;
    cpr_pairmap_init(&pm);
    for (int side = 0; side < 2; side++) {
        const cpr_profile* P = side ? B : A;
        const size_t* map = side ? ub : ua;
        for (size_t k = 0; k < P->nedges; k++) {
            const cpr_edge* e = &P->edges[k];
            size_t p = map[e->p], q = map[e->c];
            size_t j = cpr_pairmap_get(&pm, p, q, ne, 1);
            if (j == ne) E[ne++] = (uedge){p, q, 0, 0, 0, 0};
            if (side) {
                E[j].b = e->bytes;
                E[j].ub = e->unma;
            } else {
                E[j].a = e->bytes;
                E[j].ua = e->unma;
            }
        }
    }
    cpr_pairmap_free(&pm);

    /* rows */
    size_t* er = cpr_xmalloc((ne + 1) * sizeof *er);
    size_t ner = 0;
    for (size_t k = 0; k < ne; k++) {
        if (no_special && (ufn(A, B, U, E[k].p)->special || ufn(A, B, U, E[k].c)->special)) continue;
        if (!all && E[k].a == E[k].b) continue;
        er[ner++] = k;
    }
    sort_e = E;
    qsort(er, ner, sizeof *er, cmp_e);
    frow* F = cpr_xcalloc(nu + 1, sizeof *F);
    size_t* fr = cpr_xmalloc((nu + 1) * sizeof *fr);
    size_t nfr = 0;
    for (size_t u = 0; u < nu; u++) {
        F[u].u = u;
        if (U[u].ia != NONE) {
            const cpr_func* f = &A->funcs[U[u].ia];
            F[u].a = f->in_bytes + (f->out_bytes > UINT64_MAX - f->in_bytes ? UINT64_MAX - f->in_bytes : f->out_bytes);
            F[u].ia = f->instructions;
        }
        if (U[u].ib != NONE) {
            const cpr_func* f = &B->funcs[U[u].ib];
            F[u].b = f->in_bytes + (f->out_bytes > UINT64_MAX - f->in_bytes ? UINT64_MAX - f->in_bytes : f->out_bytes);
            F[u].ib = f->instructions;
        }
        int present_change = (U[u].ia == NONE) != (U[u].ib == NONE);
        if (no_special && ufn(A, B, U, u)->special) continue;
        if (!all && F[u].a == F[u].b && F[u].ia == F[u].ib && !present_change) continue;
        fr[nfr++] = u;
    }
    sort_f = F;
    qsort(fr, nfr, sizeof *fr, cmp_f);
    uint64_t* d = cpr_xmalloc((ner > nfr ? ner : nfr) * sizeof *d + 1);
    for (size_t k = 0; k < ner; k++) d[k] = absdiff(E[er[k]].a, E[er[k]].b);
    size_t ke = cpr_cut_rows(d, ner, threshold, top);
    for (size_t k = 0; k < nfr; k++) {
        const frow* r = &F[fr[k]];
        /* functions that appear or vanish without communicating still count */
        d[k] = absdiff(r->a, r->b) ? absdiff(r->a, r->b) : (absdiff(r->ia, r->ib) ? 1 : 0);
        if (!d[k] && (U[r->u].ia == NONE) != (U[r->u].ib == NONE)) d[k] = 1;
    }
    size_t kf = cpr_cut_rows(d, nfr, threshold, top);
    free(d);

    FILE* f = cpr_open_output(output, &err);
    int rc = CPR_OK;
    char b1[1200], b2[1200];
    if (!f) {
        rc = CPR_EINPUT;
    } else if (csv && table == 1) {
        fputs("producer,producer_file,producer_object,consumer,consumer_file,consumer_object,bytes_a,bytes_b,"
              "unma_a,unma_b,status\n",
              f);
        for (size_t k = 0; k < ke; k++) {
            const uedge* e = &E[er[k]];
            const cpr_func *p = ufn(A, B, U, e->p), *q = ufn(A, B, U, e->c);
            cpr_csv_field(f, p->name);
            putc(',', f);
            cpr_csv_field(f, p->file);
            putc(',', f);
            cpr_csv_field(f, p->object);
            putc(',', f);
            cpr_csv_field(f, q->name);
            putc(',', f);
            cpr_csv_field(f, q->file);
            putc(',', f);
            cpr_csv_field(f, q->object);
            fprintf(f, ",%llu,%llu,%llu,%llu,%s\n", (unsigned long long)e->a, (unsigned long long)e->b,
                    (unsigned long long)e->ua, (unsigned long long)e->ub, status(e->a, e->b));
        }
    } else if (csv && table >= 3) {
        if (table == 3)
            objects_diff(f, A, B, 1, all, threshold, top);
        else
            threads_diff(f, A, B, 1, all, threshold, top);
    } else if (csv) {
        fputs("kind,name,file,object,comm_a,comm_b,instructions_a,instructions_b,status\n", f);
        for (size_t k = 0; k < kf; k++) {
            const frow* r = &F[fr[k]];
            const cpr_func* p = ufn(A, B, U, r->u);
            fprintf(f, "%s,", p->special ? "special" : "function");
            cpr_csv_field(f, p->name);
            putc(',', f);
            cpr_csv_field(f, p->file);
            putc(',', f);
            cpr_csv_field(f, p->object);
            const char* st = U[r->u].ia == NONE ? "new" : U[r->u].ib == NONE ? "gone" : status(r->a, r->b);
            fprintf(f, ",%llu,%llu,%llu,%llu,%s\n", (unsigned long long)r->a, (unsigned long long)r->b,
                    (unsigned long long)r->ia, (unsigned long long)r->ib, st);
        }
    } else {
        char x[40], y[40], z[40], rel[24];
        rule(f);
        run_line(f, "A:", A);
        run_line(f, "B:", B);
        rule(f);
        static const char* const th[] = {"", "A", "B", "change", "relative"};
        char*** tc = alloc_cells(6, 5);
        for (int k = 0; k < 5; k++) tc[0][k] = cpr_xstrdup(th[k]);
        const char* names[] = {"instructions", "communicated bytes", "bytes within functions", "functions",
                               "edges"};
        uint64_t va[] = {A->t_instructions, A->t_comm_bytes, A->t_self_bytes, A->nfuncs, A->nedges};
        uint64_t vb[] = {B->t_instructions, B->t_comm_bytes, B->t_self_bytes, B->nfuncs, B->nedges};
        for (int r = 0; r < 5; r++) {
            tc[r + 1][0] = cpr_xstrdup(names[r]);
            tc[r + 1][1] = cpr_xstrdup(cpr_fmt_u64(x, va[r]));
            tc[r + 1][2] = cpr_xstrdup(cpr_fmt_u64(y, vb[r]));
            change_str(z, va[r], vb[r]);
            tc[r + 1][3] = cpr_xstrdup(z);
            rel_str_both(rel, va[r], vb[r]);
            tc[r + 1][4] = cpr_xstrdup(rel);
        }
        /* left-align the first column: print by hand */
        size_t w0 = 0, w[5] = {0};
        for (int r = 0; r < 6; r++)
            for (int k = 0; k < 5; k++) {
                size_t l = strlen(tc[r][k]);
                if (l > w[k]) w[k] = l;
            }
        w0 = w[0];
        for (int r = 0; r < 6; r++)
            fprintf(f, "%-*s  %*s  %*s  %*s  %s\n", (int)w0, tc[r][0], (int)w[1], tc[r][1], (int)w[2], tc[r][2],
                    (int)w[3], tc[r][3], tc[r][4]);
        free_cells(tc, 6, 5);
        if (table == 0 || table == 1) {
            rule(f);
            fprintf(f, "Edges by absolute change of bytes: %zu of %zu %s shown", ke, ner,
                    all ? "edges" : "changed edges");
            if (threshold < 100) fprintf(f, ", threshold %g%%", threshold);
            if (top) fprintf(f, ", top %zu", top);
            fputc('\n', f);
            rule(f);
            static const char* const eh[] = {"A bytes", "B bytes", "change", "relative", "A UnMA", "B UnMA", "edge"};
            char*** ec = alloc_cells(ke + 1, 7);
            for (int k = 0; k < 7; k++) ec[0][k] = cpr_xstrdup(eh[k]);
            for (size_t r = 0; r < ke; r++) {
                const uedge* e = &E[er[r]];
                ec[r + 1][0] = cpr_xstrdup(cpr_fmt_u64(x, e->a));
                ec[r + 1][1] = cpr_xstrdup(cpr_fmt_u64(x, e->b));
                change_str(z, e->a, e->b);
                ec[r + 1][2] = cpr_xstrdup(z);
                rel_str(rel, e->a, e->b);
                ec[r + 1][3] = cpr_xstrdup(rel);
                ec[r + 1][4] = cpr_xstrdup(cpr_fmt_u64(x, e->ua));
                ec[r + 1][5] = cpr_xstrdup(cpr_fmt_u64(x, e->ub));
                cpr_buf nb = {0};
                cpr_buf_printf(&nb, "%s -> %s", uname(A, B, U, e->p, b1, sizeof b1), uname(A, B, U, e->c, b2, sizeof b2));
                ec[r + 1][6] = nb.s;
            }
            print_rows(f, ec, ke + 1, 7);
            free_cells(ec, ke + 1, 7);
        }
        if (table == 0 || table == 2) {
            rule(f);
            fprintf(f, "Functions by absolute change of IN + OUT bytes: %zu of %zu %s shown", kf, nfr,
                    all ? "functions" : "changed functions");
            if (threshold < 100) fprintf(f, ", threshold %g%%", threshold);
            if (top) fprintf(f, ", top %zu", top);
            fputc('\n', f);
            rule(f);
            static const char* const fh[] = {"A IN+OUT", "B IN+OUT", "change", "relative", "A instr", "B instr",
                                             "function"};
            char*** fc = alloc_cells(kf + 1, 7);
            for (int k = 0; k < 7; k++) fc[0][k] = cpr_xstrdup(fh[k]);
            for (size_t r = 0; r < kf; r++) {
                const frow* q = &F[fr[r]];
                fc[r + 1][0] = cpr_xstrdup(U[q->u].ia == NONE ? "-" : cpr_fmt_u64(x, q->a));
                fc[r + 1][1] = cpr_xstrdup(U[q->u].ib == NONE ? "-" : cpr_fmt_u64(x, q->b));
                change_str(z, q->a, q->b);
                fc[r + 1][2] = cpr_xstrdup(z);
                if (U[q->u].ia == NONE)
                    snprintf(rel, sizeof rel, "new");
                else if (U[q->u].ib == NONE)
                    snprintf(rel, sizeof rel, "gone");
                else
                    rel_str_both(rel, q->a, q->b);
                fc[r + 1][3] = cpr_xstrdup(rel);
                fc[r + 1][4] = cpr_xstrdup(U[q->u].ia == NONE ? "-" : cpr_fmt_u64(x, q->ia));
                fc[r + 1][5] = cpr_xstrdup(U[q->u].ib == NONE ? "-" : cpr_fmt_u64(x, q->ib));
                fc[r + 1][6] = cpr_xstrdup(uname(A, B, U, q->u, b1, sizeof b1));
            }
            print_rows(f, fc, kf + 1, 7);
            free_cells(fc, kf + 1, 7);
        }
        if (table == 3 || (table == 0 && (A->has_objects || B->has_objects)))
            objects_diff(f, A, B, 0, all, threshold, top);
        if (table == 4 || (table == 0 && (A->nthreads > 1 || B->nthreads > 1)))
            threads_diff(f, A, B, 0, all, threshold, top);
    }
    if (f) rc = cpr_close_output(f, output, &err);
    if (rc) cpr_print_error(&err);
    free(U);
    free(ua);
    free(ub);
    free(E);
    free(er);
    free(F);
    free(fr);
    cpr_profile_free(A);
    cpr_profile_free(B);
    return rc;
}
