/* commprof-report: the sums a profile must satisfy (validate).
 *
 * The reader (xmlread.c) checks the schema and the references; this module
 * checks what holds between the numbers of a profile written by commprof
 * (docs/definitions.md), and of one merged by commprof-report merge, whose
 * counters are sums and whose UnMA values are maxima over the inputs:
 *   - per function: bytes-read = in-bytes + self-bytes; in-bytes and
 *     out-bytes are the sums of its incoming and outgoing edges' bytes; an
 *     UnMA is at most its bytes, in-unma and out-unma lie between the
 *     largest UnMA of those edges and the sum of them; the stack parts (and
 *     the heap and global ones) are at most the whole, a load or a store
 *     moves at least one byte, mem-instructions <= instructions;
 *   - per edge: unma <= bytes, accesses <= bytes, first-read <= bytes;
 *   - totals: instructions, bytes-read, bytes-written and self-bytes are the
 *     sums over the functions, comm-bytes the sum over the edges, comm-unma
 *     between the largest edge UnMA and the sum of them, functions and edges
 *     the numbers of elements;
 *   - threads: their instructions and bytes-read add up to the totals; a
 *     thread's in-bytes and out-bytes are the sums of its column and row of
 *     the thread matrix off the diagonal, its bytes-read at least its
 *     column's sum; a cell's unma <= bytes;
 *   - thread edges: those of a pair of different functions add up to the
 *     pair's bytes, and the pair has an edge; their accesses are each at
 *     most the pair's and add up to at least it (a load of bytes the
 *     producer wrote in two threads is an access of both); those
 *     between two threads, but for (library data)'s and (dynamic
 *     linker)'s, add up to the bytes of the threads' cell;
 *   - data objects: the flows through an object add up to its read-bytes,
 *     its reads and writes are at most its read and written bytes; a flow's
 *     unma <= bytes; the flows of a pair of functions add up to at most
 *     their edge's bytes (the self-bytes for one function);
 *   - phases: the phase edges of a pair of different functions add up to
 *     their edge's bytes, those of one function to at most its self-bytes;
 *     a phase edge's unma is at most its bytes and the pair's unma, and the
 *     pair's phase edges have together at least the pair's unma;
 *   - time slices: each function's records add up to its instructions,
 *     bytes-read, bytes-written and in-bytes; the detected phases are the
 *     maximal runs of consecutive slices with the same active functions
 *     (instructions >= threshold percent of the slice's), in order, each
 *     with the sums of all the records of its slices.
 * The first violation is reported, as "FILE: message" (no line: the numbers
 * come from several elements). */

#include "cpr.h"

#include <stdlib.h>
#include <string.h>

static const char* fname(const cpr_profile* p, size_t i, char* buf, size_t n)
{
    char nb[512];
    snprintf(buf, n, "function %u (%s)", p->funcs[i].id, cpr_display_name(p, i, nb, sizeof nb));
    return buf;
}

/* a + b, or UINT64_MAX when it overflows (the comparison then fails for a
   well-formed profile only if its own numbers overflow, which the tool never
   writes) */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
    uint64_t r;
    return cpr_add_u64(a, b, &r) ? UINT64_MAX : r;
}

/* (library data) and (dynamic linker): the run-time's own state, which the
   thread matrix leaves out */
static int runtime_node(const cpr_profile* p, size_t i)
{
    const cpr_func* f = &p->funcs[i];
    return f->special && (!strcmp(f->name, "(library data)") || !strcmp(f->name, "(dynamic linker)"));
}

/* The slot of the pair (a, b) in m, a new one (*n, counted) for a pair not
   seen yet: sums per function pair are kept in arrays indexed by it. */
static size_t pair_slot(cpr_pairmap* m, size_t* n, size_t a, size_t b)
{
    size_t j = cpr_pairmap_get(m, a, b, *n, 1);
    if (j == *n) (*n)++;
    return j;
}

/* s[2j] += x, s[2j+1] += y: the two sums of slot j */
static void add_pair_sums(uint64_t* s, size_t j, uint64_t x, uint64_t y)
{
    s[2 * j] = sat_add(s[2 * j], x);
    s[2 * j + 1] = sat_add(s[2 * j + 1], y);
}

/* the counters of a time-slice record, of a detected phase */
static const char* const srec_field[4] = {"instructions", "bytes-read", "bytes-written", "in-bytes"};

static int cmp_size(const void* a, const void* b)
{
    size_t x = *(const size_t*)a, y = *(const size_t*)b;
    return x < y ? -1 : x > y;
}

/* Does the k-th detected phase cover slices[s0 .. s1) with the active
   functions set[0 .. n) (sorted) and the sums of those slices' records?
   If not, sets err and returns 0. */
static int span_ok(const cpr_profile* p, size_t k, size_t s0, size_t s1, const size_t* set, size_t n,
                   cpr_error* err)
{
    uint32_t first = p->slices[s0].i, last = p->slices[s1 - 1].i;
    if (k >= p->nspans) {
        cpr_seterr(err, p->path, 0, "slices %u-%u make a detected phase that <detected-phases> does not list",
                   first, last);
        return 0;
    }
    const cpr_span* sp = &p->spans[k];
    if (sp->first != first || sp->last != last) {
        cpr_seterr(err, p->path, 0,
                   "detected phase %zu covers slices %u-%u, but its slices make it %u-%u (a maximal run of "
                   "consecutive slices with the same active functions)",
                   k + 1, sp->first, sp->last, first, last);
        return 0;
    }
    int same = sp->nfuncs == n;
    size_t* fs = cpr_xcalloc(sp->nfuncs ? sp->nfuncs : 1, sizeof(size_t));
    memcpy(fs, sp->funcs, sp->nfuncs * sizeof(size_t));
    qsort(fs, sp->nfuncs, sizeof *fs, cmp_size);
    for (size_t q = 0; same && q < n; q++) same = fs[q] == set[q];
    free(fs);
    if (!same) {
        cpr_seterr(err, p->path, 0,
                   "detected phase %zu (slices %u-%u): its functions are not those active in its slices (%zu, "
                   "at least %u%% of a slice's instructions)",
                   k + 1, first, last, n, p->phase_threshold);
        return 0;
    }
    uint64_t sum[4] = {0, 0, 0, 0};
    for (size_t r = p->slices[s0].first; r < p->slices[s1 - 1].first + p->slices[s1 - 1].n; r++) {
        sum[0] = sat_add(sum[0], p->recs[r].instructions);
        sum[1] = sat_add(sum[1], p->recs[r].bytes_read);
        sum[2] = sat_add(sum[2], p->recs[r].bytes_written);
        sum[3] = sat_add(sum[3], p->recs[r].in_bytes);
    }
    const uint64_t have[4] = {sp->instructions, sp->bytes_read, sp->bytes_written, sp->in_bytes};
    for (int q = 0; q < 4; q++)
        if (have[q] != sum[q]) {
            cpr_seterr(err, p->path, 0,
                       "detected phase %zu (slices %u-%u): %s %llu is not the sum over its slices (%llu)", k + 1,
                       first, last, srec_field[q], (unsigned long long)have[q], (unsigned long long)sum[q]);
            return 0;
        }
    return 1;
}

#define FAIL(...)                                          \
    do {                                                   \
        cpr_seterr(err, p->path, 0, __VA_ARGS__);          \
        goto out;                                          \
    } while (0)

int cpr_check_sums(const cpr_profile* p, cpr_error* err)
{
    int rc = CPR_EINPUT;
    char b1[700], b2[700];
    size_t nf = p->nfuncs;
    /* per function: sums and maxima of the incoming and outgoing edges */
    uint64_t* in_b = cpr_xcalloc(nf ? nf : 1, sizeof(uint64_t));
    uint64_t* in_u = cpr_xcalloc(nf ? nf : 1, sizeof(uint64_t));
    uint64_t* in_m = cpr_xcalloc(nf ? nf : 1, sizeof(uint64_t));
    uint64_t* out_b = cpr_xcalloc(nf ? nf : 1, sizeof(uint64_t));
    uint64_t* out_u = cpr_xcalloc(nf ? nf : 1, sizeof(uint64_t));
    uint64_t* out_m = cpr_xcalloc(nf ? nf : 1, sizeof(uint64_t));
    /* further sums, made by the sections that need them; all freed at out */
    uint64_t *tsum = NULL, *tesum = NULL, *csum = NULL, *osum = NULL, *fsum = NULL, *psum = NULL, *ssum = NULL;
    size_t *aset = NULL, *sset = NULL, span0 = 0; /* active functions of a slice, of a span */
    cpr_pairmap emap, tpairs, cmap, fpairs, ppairs; /* edges, thread-edge pairs, cells, flow pairs, phase-edge pairs */
    cpr_pairmap_init(&emap);
    cpr_pairmap_init(&tpairs);
    cpr_pairmap_init(&cmap);
    cpr_pairmap_init(&fpairs);
    cpr_pairmap_init(&ppairs);
    for (size_t k = 0; k < p->nedges; k++) cpr_pairmap_get(&emap, p->edges[k].p, p->edges[k].c, k, 1);

    uint64_t comm_b = 0, comm_u = 0, comm_m = 0;
    for (size_t k = 0; k < p->nedges; k++) {
        const cpr_edge* e = &p->edges[k];
        if (e->unma > e->bytes || e->accesses > e->bytes || (p->has_first_read && e->first_read > e->bytes))
            FAIL("edge %s -> %s: %s (%llu) exceeds its bytes (%llu)",
                 cpr_display_name(p, e->p, b1, sizeof b1), cpr_display_name(p, e->c, b2, sizeof b2),
                 e->unma > e->bytes ? "unma" : e->accesses > e->bytes ? "accesses" : "first-read",
                 (unsigned long long)(e->unma > e->bytes       ? e->unma
                                      : e->accesses > e->bytes ? e->accesses
                                                               : e->first_read),
                 (unsigned long long)e->bytes);
        in_b[e->c] = sat_add(in_b[e->c], e->bytes);
        in_u[e->c] = sat_add(in_u[e->c], e->unma);
        if (e->unma > in_m[e->c]) in_m[e->c] = e->unma;
        out_b[e->p] = sat_add(out_b[e->p], e->bytes);
        out_u[e->p] = sat_add(out_u[e->p], e->unma);
        if (e->unma > out_m[e->p]) out_m[e->p] = e->unma;
        comm_b = sat_add(comm_b, e->bytes);
        comm_u = sat_add(comm_u, e->unma);
        if (e->unma > comm_m) comm_m = e->unma;
    }

    uint64_t t_ins = 0, t_rd = 0, t_wr = 0, t_self = 0;
    for (size_t i = 0; i < nf; i++) {
        const cpr_func* f = &p->funcs[i];
        if (sat_add(f->in_bytes, f->self_bytes) != f->bytes_read)
            FAIL("%s: bytes-read %llu is not in-bytes + self-bytes (%llu + %llu)", fname(p, i, b1, sizeof b1),
                 (unsigned long long)f->bytes_read, (unsigned long long)f->in_bytes,
                 (unsigned long long)f->self_bytes);
        if (f->in_bytes != in_b[i])
            FAIL("%s: in-bytes %llu is not the sum of its incoming edges' bytes (%llu)",
                 fname(p, i, b1, sizeof b1), (unsigned long long)f->in_bytes, (unsigned long long)in_b[i]);
        if (f->out_bytes != out_b[i])
            FAIL("%s: out-bytes %llu is not the sum of its outgoing edges' bytes (%llu)",
                 fname(p, i, b1, sizeof b1), (unsigned long long)f->out_bytes, (unsigned long long)out_b[i]);
        if (f->in_unma < in_m[i] || f->in_unma > in_u[i])
            FAIL("%s: in-unma %llu is not between the largest unma of its incoming edges (%llu) and their "
                 "sum (%llu)",
                 fname(p, i, b1, sizeof b1), (unsigned long long)f->in_unma, (unsigned long long)in_m[i],
                 (unsigned long long)in_u[i]);
        if (f->out_unma < out_m[i] || f->out_unma > out_u[i])
            FAIL("%s: out-unma %llu is not between the largest unma of its outgoing edges (%llu) and their "
                 "sum (%llu)",
                 fname(p, i, b1, sizeof b1), (unsigned long long)f->out_unma, (unsigned long long)out_m[i],
                 (unsigned long long)out_u[i]);
        struct {
            const char *part, *whole;
            uint64_t a, b;
        } le[] = {
            {"self-unma", "self-bytes", f->self_unma, f->self_bytes},
            {"stack-loads", "loads", f->stack_loads, f->loads},
            {"stack-stores", "stores", f->stack_stores, f->stores},
            {"stack-bytes-read", "bytes-read", f->stack_bytes_read, f->bytes_read},
            {"stack-bytes-written", "bytes-written", f->stack_bytes_written, f->bytes_written},
            {"loads", "bytes-read", f->loads, f->bytes_read},
            {"stores", "bytes-written", f->stores, f->bytes_written},
            {"mem-instructions", "instructions", f->mem_instructions, f->instructions},
            {"heap-bytes-read + global-bytes-read", "bytes-read",
             f->has_objects ? sat_add(f->heap_bytes_read, f->global_bytes_read) : 0, f->bytes_read},
            {"heap-bytes-written + global-bytes-written", "bytes-written",
             f->has_objects ? sat_add(f->heap_bytes_written, f->global_bytes_written) : 0, f->bytes_written},
        };
        for (size_t k = 0; k < sizeof le / sizeof le[0]; k++)
            if (le[k].a > le[k].b)
                FAIL("%s: %s (%llu) exceeds %s (%llu)", fname(p, i, b1, sizeof b1), le[k].part,
                     (unsigned long long)le[k].a, le[k].whole, (unsigned long long)le[k].b);
        t_ins = sat_add(t_ins, f->instructions);
        t_rd = sat_add(t_rd, f->bytes_read);
        t_wr = sat_add(t_wr, f->bytes_written);
        t_self = sat_add(t_self, f->self_bytes);
    }

    struct {
        const char *name, *of;
        uint64_t have, want;
    } tot[] = {
        {"instructions", "the functions' instructions", p->t_instructions, t_ins},
        {"bytes-read", "the functions' bytes-read", p->t_bytes_read, t_rd},
        {"bytes-written", "the functions' bytes-written", p->t_bytes_written, t_wr},
        {"self-bytes", "the functions' self-bytes", p->t_self_bytes, t_self},
        {"comm-bytes", "the edges' bytes", p->t_comm_bytes, comm_b},
        {"functions", "the number of <function> elements", p->t_functions, nf},
        {"edges", "the number of <edge> elements", p->t_edges, p->nedges},
    };
    for (size_t k = 0; k < sizeof tot / sizeof tot[0]; k++)
        if (tot[k].have != tot[k].want)
            FAIL("<totals> %s %llu is not %s (%llu)", tot[k].name, (unsigned long long)tot[k].have, tot[k].of,
                 (unsigned long long)tot[k].want);
    if (p->t_comm_unma < comm_m || p->t_comm_unma > comm_u)
        FAIL("<totals> comm-unma %llu is not between the largest unma of the edges (%llu) and their sum (%llu)",
             (unsigned long long)p->t_comm_unma, (unsigned long long)comm_m, (unsigned long long)comm_u);

    if (p->nthreads) {
        /* per thread: [0] column off the diagonal, [1] row off the
           diagonal, [2] whole column */
        tsum = cpr_xcalloc(p->nthreads * 3, sizeof(uint64_t));
        uint64_t th_ins = 0, th_rd = 0;
        for (size_t t = 0; t < p->nthreads; t++) {
            th_ins = sat_add(th_ins, p->threads[t].instructions);
            th_rd = sat_add(th_rd, p->threads[t].bytes_read);
        }
        if (th_ins != p->t_instructions || th_rd != p->t_bytes_read)
            FAIL("the threads' %s add up to %llu, not to <totals> %s (%llu)",
                 th_ins != p->t_instructions ? "instructions" : "bytes-read",
                 (unsigned long long)(th_ins != p->t_instructions ? th_ins : th_rd),
                 th_ins != p->t_instructions ? "instructions" : "bytes-read",
                 (unsigned long long)(th_ins != p->t_instructions ? p->t_instructions : p->t_bytes_read));
        for (size_t k = 0; k < p->ncells; k++) {
            const cpr_cell* c = &p->cells[k];
            if (c->unma > c->bytes)
                FAIL("thread-matrix cell %u -> %u: unma (%llu) exceeds its bytes (%llu)", c->p, c->c,
                     (unsigned long long)c->unma, (unsigned long long)c->bytes);
            size_t pi = cpr_thread_index(p, c->p), ci = cpr_thread_index(p, c->c);
            if (ci != (size_t)-1) {
                tsum[3 * ci + 2] = sat_add(tsum[3 * ci + 2], c->bytes);
                if (c->p != c->c) tsum[3 * ci] = sat_add(tsum[3 * ci], c->bytes);
            }
            if (pi != (size_t)-1 && c->p != c->c) tsum[3 * pi + 1] = sat_add(tsum[3 * pi + 1], c->bytes);
        }
        for (size_t t = 0; t < p->nthreads; t++) {
            const cpr_thread* th = &p->threads[t];
            if (th->in_bytes != tsum[3 * t])
                FAIL("thread %u: in-bytes %llu is not the sum of its column of the thread matrix off the "
                     "diagonal (%llu)",
                     th->id, (unsigned long long)th->in_bytes, (unsigned long long)tsum[3 * t]);
            if (th->out_bytes != tsum[3 * t + 1])
                FAIL("thread %u: out-bytes %llu is not the sum of its row of the thread matrix off the "
                     "diagonal (%llu)",
                     th->id, (unsigned long long)th->out_bytes, (unsigned long long)tsum[3 * t + 1]);
            if (th->bytes_read < tsum[3 * t + 2])
                FAIL("thread %u: bytes-read %llu is less than the sum of its column of the thread matrix (%llu)",
                     th->id, (unsigned long long)th->bytes_read, (unsigned long long)tsum[3 * t + 2]);
        }
    }

    if (p->ntedges) {
        /* the thread edges of each pair of different functions add up to
           their edge's bytes; a load counts once for each thread edge it
           reads over, and once for the edge */
        size_t np = 0;
        tesum = cpr_xcalloc(p->ntedges * 2, sizeof(uint64_t));
        for (size_t k = 0; k < p->ntedges; k++) {
            const cpr_tedge* t = &p->tedges[k];
            if (t->unma > t->bytes || t->accesses > t->bytes)
                FAIL("thread edge %s@%u -> %s@%u: %s exceeds its bytes (%llu)",
                     cpr_display_name(p, t->p, b1, sizeof b1), t->pt, cpr_display_name(p, t->c, b2, sizeof b2),
                     t->ct, t->unma > t->bytes ? "unma" : "accesses", (unsigned long long)t->bytes);
            if (t->p == t->c) continue;
            add_pair_sums(tesum, pair_slot(&tpairs, &np, t->p, t->c), t->bytes, t->accesses);
        }
        for (size_t k = 0; k < p->ntedges; k++) {
            const cpr_tedge* t = &p->tedges[k];
            if (t->p == t->c) continue;
            size_t j = cpr_pairmap_get(&tpairs, t->p, t->c, 0, 0);
            size_t e = cpr_pairmap_get(&emap, t->p, t->c, 0, 0);
            const char* pn = cpr_display_name(p, t->p, b1, sizeof b1);
            const char* cn = cpr_display_name(p, t->c, b2, sizeof b2);
            if (e == (size_t)-1) FAIL("thread edges %s -> %s: the pair has no edge", pn, cn);
            if (tesum[2 * j] != p->edges[e].bytes)
                FAIL("thread edges %s -> %s: their bytes add up to %llu, not to the edge's (%llu)", pn, cn,
                     (unsigned long long)tesum[2 * j], (unsigned long long)p->edges[e].bytes);
            if (tesum[2 * j + 1] < p->edges[e].accesses)
                FAIL("thread edges %s -> %s: their accesses add up to %llu, less than the edge's (%llu)", pn, cn,
                     (unsigned long long)tesum[2 * j + 1], (unsigned long long)p->edges[e].accesses);
            if (t->accesses > p->edges[e].accesses)
                FAIL("thread edge %s@%u -> %s@%u: accesses %llu exceed the edge's (%llu)", pn, t->pt, cn, t->ct,
                     (unsigned long long)t->accesses, (unsigned long long)p->edges[e].accesses);
        }

        /* between two threads: the cell is the sum of the thread edges but
           those of (library data) and (dynamic linker) */
        csum = cpr_xcalloc(p->ncells ? p->ncells : 1, sizeof(uint64_t));
        for (size_t k = 0; k < p->ncells; k++) cpr_pairmap_get(&cmap, p->cells[k].p, p->cells[k].c, k, 1);
        for (size_t k = 0; k < p->ntedges; k++) {
            const cpr_tedge* t = &p->tedges[k];
            if (t->pt == t->ct || t->pt == 0 || runtime_node(p, t->p) || runtime_node(p, t->c)) continue;
            size_t j = cpr_pairmap_get(&cmap, t->pt, t->ct, 0, 0);
            if (j == (size_t)-1)
                FAIL("thread edges from thread %u to thread %u, but the thread matrix has no such cell", t->pt,
                     t->ct);
            csum[j] = sat_add(csum[j], t->bytes);
        }
        for (size_t k = 0; k < p->ncells; k++)
            if (p->cells[k].p != p->cells[k].c && csum[k] != p->cells[k].bytes)
                FAIL("thread-matrix cell %u -> %u: bytes %llu are not the sum of the thread edges between the "
                     "two threads (%llu, those of (library data) and (dynamic linker) left out)",
                     p->cells[k].p, p->cells[k].c, (unsigned long long)p->cells[k].bytes,
                     (unsigned long long)csum[k]);
    }

    if (p->has_objects) {
        /* the flows through each object add up to its read bytes; those of a
           pair of functions are at most their edge's bytes (their self
           bytes for one function): loads outside the objects count in the
           edge only */
        size_t np = 0;
        osum = cpr_xcalloc(p->nobjects ? p->nobjects : 1, sizeof(uint64_t));
        fsum = cpr_xcalloc(p->nflows ? p->nflows : 1, sizeof(uint64_t));
        for (size_t k = 0; k < p->nflows; k++) {
            const cpr_flow* fl = &p->flows[k];
            if (fl->unma > fl->bytes)
                FAIL("a flow through object %u: unma (%llu) exceeds its bytes (%llu)", p->objects[fl->o].id,
                     (unsigned long long)fl->unma, (unsigned long long)fl->bytes);
            osum[fl->o] = sat_add(osum[fl->o], fl->bytes);
            size_t j = pair_slot(&fpairs, &np, fl->p, fl->c);
            fsum[j] = sat_add(fsum[j], fl->bytes);
        }
        for (size_t k = 0; k < p->nflows; k++) {
            const cpr_flow* fl = &p->flows[k];
            size_t j = cpr_pairmap_get(&fpairs, fl->p, fl->c, 0, 0);
            size_t e = fl->p == fl->c ? (size_t)-1 : cpr_pairmap_get(&emap, fl->p, fl->c, 0, 0);
            uint64_t lim = fl->p == fl->c ? p->funcs[fl->p].self_bytes : e == (size_t)-1 ? 0 : p->edges[e].bytes;
            if (fsum[j] > lim)
                FAIL("the flows from %s to %s through objects add up to %llu bytes, more than %s (%llu)",
                     cpr_display_name(p, fl->p, b1, sizeof b1), cpr_display_name(p, fl->c, b2, sizeof b2),
                     (unsigned long long)fsum[j], fl->p == fl->c ? "its self-bytes" : "their edge's bytes",
                     (unsigned long long)lim);
        }
        for (size_t o = 0; o < p->nobjects; o++) {
            const cpr_object* ob = &p->objects[o];
            if (osum[o] != ob->read_bytes)
                FAIL("object %u: read-bytes %llu is not the sum of the flows through it (%llu)", ob->id,
                     (unsigned long long)ob->read_bytes, (unsigned long long)osum[o]);
            if (ob->reads > ob->read_bytes || ob->writes > ob->write_bytes)
                FAIL("object %u: %s exceeds %s", ob->id, ob->reads > ob->read_bytes ? "reads" : "writes",
                     ob->reads > ob->read_bytes ? "read-bytes" : "write-bytes");
        }
    }
    if (p->has_phases) {
        /* the phase edges of a pair of different functions add up to their
           edge's bytes, of one function to at most its self-bytes; each
           phase edge's UnMA is at most the pair's, and together they have at
           least the pair's */
        size_t np = 0;
        psum = cpr_xcalloc(2 * (p->npedges ? p->npedges : 1), sizeof(uint64_t));
        for (size_t k = 0; k < p->npedges; k++) {
            const cpr_pedge* pe = &p->pedges[k];
            size_t e = pe->p == pe->c ? (size_t)-1 : cpr_pairmap_get(&emap, pe->p, pe->c, 0, 0);
            if (pe->p != pe->c && e == (size_t)-1)
                FAIL("phase edges %s -> %s: the pair has no edge", cpr_display_name(p, pe->p, b1, sizeof b1),
                     cpr_display_name(p, pe->c, b2, sizeof b2));
            uint64_t lim = pe->p == pe->c ? p->funcs[pe->p].self_unma : p->edges[e].unma;
            if (pe->unma > pe->bytes || pe->unma > lim)
                FAIL("phase edge %s in phase %u -> %s in phase %u: unma (%llu) exceeds %s (%llu)",
                     cpr_display_name(p, pe->p, b1, sizeof b1), pe->pp, cpr_display_name(p, pe->c, b2, sizeof b2),
                     pe->cp, (unsigned long long)pe->unma,
                     pe->unma > pe->bytes    ? "its bytes"
                     : pe->p == pe->c        ? "the function's self-unma"
                                             : "its edge's unma",
                     (unsigned long long)(pe->unma > pe->bytes ? pe->bytes : lim));
            add_pair_sums(psum, pair_slot(&ppairs, &np, pe->p, pe->c), pe->bytes, pe->unma);
        }
        for (size_t k = 0; k < p->npedges; k++) {
            const cpr_pedge* pe = &p->pedges[k];
            if (pe->p != pe->c) continue;
            size_t j = cpr_pairmap_get(&ppairs, pe->p, pe->c, 0, 0);
            if (psum[2 * j] > p->funcs[pe->p].self_bytes)
                FAIL("the phase edges of %s to itself add up to %llu bytes, more than its self-bytes (%llu)",
                     cpr_display_name(p, pe->p, b1, sizeof b1), (unsigned long long)psum[2 * j],
                     (unsigned long long)p->funcs[pe->p].self_bytes);
        }
        for (size_t k = 0; k < p->nedges; k++) {
            const cpr_edge* e = &p->edges[k];
            size_t j = cpr_pairmap_get(&ppairs, e->p, e->c, 0, 0);
            uint64_t b = j == (size_t)-1 ? 0 : psum[2 * j], u = j == (size_t)-1 ? 0 : psum[2 * j + 1];
            if (b != e->bytes || u < e->unma)
                FAIL("the phase edges of %s -> %s add up to %llu %s, %s the edge's (%llu)",
                     cpr_display_name(p, e->p, b1, sizeof b1), cpr_display_name(p, e->c, b2, sizeof b2),
                     (unsigned long long)(b != e->bytes ? b : u), b != e->bytes ? "bytes" : "unma",
                     b != e->bytes ? "not to" : "less than",
                     (unsigned long long)(b != e->bytes ? e->bytes : e->unma));
        }
    }

    if (p->has_slices) {
        /* each function's records over the slices add up to its counters */
        ssum = cpr_xcalloc(4 * (nf ? nf : 1), sizeof(uint64_t));
        for (size_t k = 0; k < p->nrecs; k++) {
            const cpr_srec* r = &p->recs[k];
            ssum[4 * r->f] = sat_add(ssum[4 * r->f], r->instructions);
            ssum[4 * r->f + 1] = sat_add(ssum[4 * r->f + 1], r->bytes_read);
            ssum[4 * r->f + 2] = sat_add(ssum[4 * r->f + 2], r->bytes_written);
            ssum[4 * r->f + 3] = sat_add(ssum[4 * r->f + 3], r->in_bytes);
        }
        for (size_t i = 0; i < nf; i++) {
            const cpr_func* f = &p->funcs[i];
            const uint64_t have[4] = {f->instructions, f->bytes_read, f->bytes_written, f->in_bytes};
            for (int q = 0; q < 4; q++)
                if (ssum[4 * i + q] != have[q])
                    FAIL("%s: its time-slice records add up to %llu %s, not to its %s (%llu)",
                         fname(p, i, b1, sizeof b1), (unsigned long long)ssum[4 * i + q], srec_field[q],
                         srec_field[q], (unsigned long long)have[q]);
        }
        /* the detected phases are the maximal runs of consecutive slices
           with the same active functions (those with at least threshold
           percent of the slice's instructions), with the sums of all
           records of their slices */
        size_t ns = 0, nset = 0, nsset = 0;
        aset = cpr_xcalloc(nf ? nf : 1, sizeof(size_t));
        sset = cpr_xcalloc(nf ? nf : 1, sizeof(size_t));
        for (size_t s = 0; s < p->nslices; s++) {
            const cpr_slice* sl = &p->slices[s];
            uint64_t total = 0;
            for (size_t k = 0; k < sl->n; k++) total = sat_add(total, p->recs[sl->first + k].instructions);
            nset = 0;
            for (size_t k = 0; k < sl->n; k++) {
                const cpr_srec* r = &p->recs[sl->first + k];
                if (r->instructions && (unsigned __int128)r->instructions * 100 >=
                                           (unsigned __int128)total * p->phase_threshold)
                    aset[nset++] = r->f;
            }
            qsort(aset, nset, sizeof *aset, cmp_size);
            int same = s > 0 && p->slices[s - 1].i + 1 == sl->i && nset == nsset &&
                       !memcmp(aset, sset, nset * sizeof *aset);
            if (!same) {
                if (s > 0 && !span_ok(p, ns++, span0, s, sset, nsset, err)) goto out;
                span0 = s;
                memcpy(sset, aset, nset * sizeof *aset);
                nsset = nset;
            }
        }
        if (p->nslices && !span_ok(p, ns++, span0, p->nslices, sset, nsset, err)) goto out;
        if (ns != p->nspans)
            FAIL("<detected-phases> lists %zu phases, but its slices make %zu (maximal runs of consecutive slices "
                 "with the same active functions)",
                 p->nspans, ns);
    }

    rc = CPR_OK;
out:
    free(in_b);
    free(in_u);
    free(in_m);
    free(out_b);
    free(out_u);
    free(out_m);
    free(tsum);
    free(tesum);
    free(csum);
    free(osum);
    free(fsum);
    free(psum);
    free(ssum);
    free(aset);
    free(sset);
    cpr_pairmap_free(&emap);
    cpr_pairmap_free(&tpairs);
    cpr_pairmap_free(&cmap);
    cpr_pairmap_free(&fpairs);
    cpr_pairmap_free(&ppairs);
    return rc;
}
