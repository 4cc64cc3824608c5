/* commprof-report merge -o OUT A B ...: one profile from several.
 *
 * Functions are matched by kind, name, object and source file; their counters
 * and the edges' bytes and accesses are summed.  UnMA (distinct addresses)
 * cannot be computed from the inputs, so every UnMA of the result (edges,
 * functions, comm-unma) is the maximum over the inputs, a lower bound; the
 * <provenance unma="max"> element of <run> says so and lists the inputs.
 * Threads of different inputs are different threads: each input's are
 * numbered after those of the inputs before it, with their matrix cells and
 * (function, thread) edges.
 * The run metadata (exe, args, pid, options) is the first input's.  The
 * output is written with libxml2's xmlTextWriter under a temporary name,
 * checked by reading it back, and renamed. */

#include "cpr.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/xmlwriter.h>

#define NONE ((size_t)-1)

typedef struct {
    cpr_func** f; /* stable pointers: the map keys point at them */
    size_t n, cap;
    cpr_funcmap map;
    cpr_edge* e;
    size_t ne, cape;
    cpr_pairmap pairs;
    cpr_profile* meta; /* first input: run metadata */
    cpr_input* inputs;
    size_t ninputs;
    uint64_t t_instr, t_read, t_written, t_comm, t_comm_unma, t_self;
    cpr_thread* th; /* threads, renumbered */
    size_t nth;
    uint32_t nthreads_total; /* the largest thread id so far */
    cpr_cell* cells;
    size_t ncells;
    cpr_tedge* tedges;
    size_t ntedges;
} merged;

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

static int sum(uint64_t* acc, uint64_t v, const char* file, const char* what, cpr_error* err)
{
    if (cpr_add_u64(*acc, v, acc)) {
        cpr_seterr(err, file, 0, "the sum of %s overflows 64 bits", what);
        return -1;
    }
    return 0;
}

static void add_input(merged* m, const char* file, const char* pid, const char* exe)
{
    m->inputs = cpr_xrealloc(m->inputs, m->ninputs + 1, sizeof *m->inputs);
    m->inputs[m->ninputs].file = cpr_xstrdup(file);
    m->inputs[m->ninputs].pid = cpr_xstrdup(pid);
    m->inputs[m->ninputs].exe = cpr_xstrdup(exe);
    m->ninputs++;
}

static int same_options(const cpr_profile* a, const cpr_profile* b)
{
    size_t na = 0, nb = 0;
    for (size_t i = 0; i < a->noptions; i++) {
        const char* n = a->options[i].name;
        if (strlen(n) > 5 && !strcmp(n + strlen(n) - 5, "-file")) continue;
        na++;
        int found = 0;
        for (size_t j = 0; j < b->noptions; j++)
            if (!strcmp(n, b->options[j].name)) found = !strcmp(a->options[i].value, b->options[j].value);
        if (!found) return 0;
    }
    for (size_t j = 0; j < b->noptions; j++) {
        const char* n = b->options[j].name;
        if (!(strlen(n) > 5 && !strcmp(n + strlen(n) - 5, "-file"))) nb++;
    }
    return na == nb;
}

/* folds profile p into m; p is kept as m->meta if it is the first */
static int fold(merged* m, cpr_profile* p, cpr_error* err)
{
    const char* fn = p->path;
    if (p->merged) {
        for (size_t i = 0; i < p->ninputs; i++) add_input(m, p->inputs[i].file, p->inputs[i].pid, p->inputs[i].exe);
    } else {
        add_input(m, p->path, p->pid ? p->pid : "0", p->exe ? p->exe : "");
    }
    if (sum(&m->t_instr, p->t_instructions, fn, "instructions", err) ||
        sum(&m->t_read, p->t_bytes_read, fn, "bytes-read", err) ||
        sum(&m->t_written, p->t_bytes_written, fn, "bytes-written", err) ||
        sum(&m->t_comm, p->t_comm_bytes, fn, "comm-bytes", err) ||
        sum(&m->t_self, p->t_self_bytes, fn, "self-bytes", err))
        return -1;
    m->t_comm_unma = max64(m->t_comm_unma, p->t_comm_unma);
    size_t* map = cpr_xmalloc((p->nfuncs + 1) * sizeof *map);
    for (size_t i = 0; i < p->nfuncs; i++) {
        const cpr_func* f = &p->funcs[i];
        size_t u = cpr_funcmap_get(&m->map, f, m->n, 0);
        if (u == NONE) {
            if (m->n == m->cap) {
                m->cap = m->cap ? 2 * m->cap : 64;
                m->f = cpr_xrealloc(m->f, m->cap, sizeof *m->f);
            }
            cpr_func* c = cpr_xmalloc(sizeof *c);
            *c = *f;
            c->name = cpr_xstrdup(f->name);
            c->object = cpr_xstrdup(f->object);
            c->file = cpr_xstrdup(f->file);
            c->dir = cpr_xstrdup(f->dir);
            c->id = (uint32_t)m->n;
            m->f[m->n] = c;
            u = cpr_funcmap_get(&m->map, c, m->n, 1);
            m->n++;
        } else {
            cpr_func* c = m->f[u];
            if (sum(&c->instructions, f->instructions, fn, "instructions", err) ||
                sum(&c->calls, f->calls, fn, "calls", err) || sum(&c->bytes_read, f->bytes_read, fn, "bytes-read", err) ||
                sum(&c->bytes_written, f->bytes_written, fn, "bytes-written", err) ||
                sum(&c->in_bytes, f->in_bytes, fn, "in-bytes", err) ||
                sum(&c->out_bytes, f->out_bytes, fn, "out-bytes", err) ||
                sum(&c->self_bytes, f->self_bytes, fn, "self-bytes", err) ||
                sum(&c->mem_instructions, f->mem_instructions, fn, "mem-instructions", err) ||
                sum(&c->loads, f->loads, fn, "loads", err) || sum(&c->stores, f->stores, fn, "stores", err) ||
                sum(&c->stack_loads, f->stack_loads, fn, "stack-loads", err) ||
                sum(&c->stack_stores, f->stack_stores, fn, "stack-stores", err) ||
                sum(&c->stack_bytes_read, f->stack_bytes_read, fn, "stack-bytes-read", err) ||
                sum(&c->stack_bytes_written, f->stack_bytes_written, fn, "stack-bytes-written", err) ||
                sum(&c->heap_bytes_read, f->heap_bytes_read, fn, "heap-bytes-read", err) ||
                sum(&c->heap_bytes_written, f->heap_bytes_written, fn, "heap-bytes-written", err) ||
                sum(&c->global_bytes_read, f->global_bytes_read, fn, "global-bytes-read", err) ||
                sum(&c->global_bytes_written, f->global_bytes_written, fn, "global-bytes-written", err)) {
                free(map);
                return -1;
            }
            /* the heap/global split is known only if every input has it */
            c->has_objects = c->has_objects && f->has_objects;
            c->in_unma = max64(c->in_unma, f->in_unma);
            c->out_unma = max64(c->out_unma, f->out_unma);
            c->self_unma = max64(c->self_unma, f->self_unma);
        }
        map[i] = u;
    }
    if (m->n > UINT32_MAX) {
        free(map);
        cpr_seterr(err, fn, 0, "more than 2^32 distinct functions");
        return -1;
    }
    for (size_t k = 0; k < p->nedges; k++) {
        const cpr_edge* e = &p->edges[k];
        size_t a = map[e->p], b = map[e->c];
        size_t j = cpr_pairmap_get(&m->pairs, a, b, m->ne, 1);
        if (j == m->ne) {
            if (m->ne == m->cape) {
                m->cape = m->cape ? 2 * m->cape : 64;
                m->e = cpr_xrealloc(m->e, m->cape, sizeof *m->e);
            }
            m->e[m->ne++] = (cpr_edge){a, b, e->bytes, e->unma, e->accesses, e->first_read};
        } else {
            cpr_edge* d = &m->e[j];
            if (sum(&d->bytes, e->bytes, fn, "edge bytes", err) || sum(&d->accesses, e->accesses, fn, "edge accesses", err)) {
                free(map);
                return -1;
            }
            d->unma = max64(d->unma, e->unma);
        }
    }
    /* threads: those of each input are distinct threads, numbered after the
     * threads of the inputs before it */
    uint32_t base = m->nthreads_total;
    for (size_t i = 0; i < p->nthreads; i++) {
        if (p->threads[i].id > UINT32_MAX - base) {
            free(map);
            cpr_seterr(err, fn, 0, "more than 2^32 threads");
            return -1;
        }
        if (m->nth % 64 == 0) m->th = cpr_xrealloc(m->th, m->nth + 64, sizeof *m->th);
        cpr_thread* t = &m->th[m->nth++];
        *t = p->threads[i];
        t->id += base;
        if (t->parent) t->parent += base;
        t->name = cpr_xstrdup(p->threads[i].name);
        if (t->id > m->nthreads_total) m->nthreads_total = t->id;
    }
    for (size_t i = 0; i < p->ncells; i++) {
        if (m->ncells % 64 == 0) m->cells = cpr_xrealloc(m->cells, m->ncells + 64, sizeof *m->cells);
        cpr_cell* c = &m->cells[m->ncells++];
        *c = p->cells[i];
        c->p += base;
        c->c += base;
    }
    for (size_t i = 0; i < p->ntedges; i++) {
        if (m->ntedges % 64 == 0) m->tedges = cpr_xrealloc(m->tedges, m->ntedges + 64, sizeof *m->tedges);
        cpr_tedge* e = &m->tedges[m->ntedges++];
        *e = p->tedges[i];
        e->p = map[e->p];
        e->c = map[e->c];
        if (e->pt) e->pt += base;
        e->ct += base;
    }
    free(map);
    if (m->meta && !same_options(m->meta, p))
        fprintf(stderr, "%s: merge: %s was profiled with other options than %s; the result lists those of %s\n",
                CPR_PROG, p->path, m->meta->path, m->meta->path);
    return 0;
}

static const cpr_edge* sort_edges;
static int cmp_edge(const void* x, const void* y)
{
    const cpr_edge *a = &sort_edges[*(const size_t*)x], *b = &sort_edges[*(const size_t*)y];
    if (a->bytes != b->bytes) return a->bytes > b->bytes ? -1 : 1;
    if (a->p != b->p) return a->p < b->p ? -1 : 1;
    return a->c < b->c ? -1 : a->c > b->c;
}

#define W(call)                                                                                                        \
    do {                                                                                                               \
        if ((call) < 0) goto fail;                                                                                     \
    } while (0)

static int attr_u64(xmlTextWriterPtr w, const char* name, uint64_t v)
{
    return xmlTextWriterWriteFormatAttribute(w, BAD_CAST name, "%llu", (unsigned long long)v);
}

static int attr_s(xmlTextWriterPtr w, const char* name, const char* v)
{
    return xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST v);
}

static int write_merged(const merged* m, const char* path)
{
    const cpr_profile* p = m->meta;
    xmlTextWriterPtr w = xmlNewTextWriterFilename(path, 0);
    if (!w) return -1;
    size_t* order = cpr_xmalloc((m->ne + 1) * sizeof *order);
    for (size_t k = 0; k < m->ne; k++) order[k] = k;
    sort_edges = m->e;
    qsort(order, m->ne, sizeof *order, cmp_edge);
    W(xmlTextWriterSetIndent(w, 1));
    W(xmlTextWriterSetIndentString(w, BAD_CAST "  "));
    W(xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL));
    W(xmlTextWriterStartElement(w, BAD_CAST "commprof"));
    W(attr_s(w, "version", "1"));
    W(xmlTextWriterStartElement(w, BAD_CAST "run"));
    W(xmlTextWriterStartElement(w, BAD_CAST "tool"));
    W(attr_s(w, "name", "commprof"));
    W(attr_s(w, "version", p->tool_version ? p->tool_version : "unknown"));
    W(xmlTextWriterEndElement(w));
    W(xmlTextWriterWriteElement(w, BAD_CAST "exe", BAD_CAST(p->exe ? p->exe : "")));
    W(xmlTextWriterStartElement(w, BAD_CAST "args"));
    for (size_t i = 0; i < p->nargs; i++) W(xmlTextWriterWriteElement(w, BAD_CAST "arg", BAD_CAST p->args[i]));
    W(xmlTextWriterEndElement(w));
    W(xmlTextWriterWriteElement(w, BAD_CAST "pid", BAD_CAST(p->pid ? p->pid : "0")));
    W(xmlTextWriterWriteElement(w, BAD_CAST "ppid", BAD_CAST(p->ppid ? p->ppid : "0")));
    W(xmlTextWriterStartElement(w, BAD_CAST "end"));
    W(attr_s(w, "reason", p->reason ? p->reason : "exit"));
    W(xmlTextWriterEndElement(w));
    W(xmlTextWriterStartElement(w, BAD_CAST "options"));
    for (size_t i = 0; i < p->noptions; i++) {
        W(xmlTextWriterStartElement(w, BAD_CAST "option"));
        W(attr_s(w, "name", p->options[i].name));
        W(attr_s(w, "value", p->options[i].value));
        W(xmlTextWriterEndElement(w));
    }
    W(xmlTextWriterEndElement(w));
    W(xmlTextWriterStartElement(w, BAD_CAST "totals"));
    W(attr_u64(w, "instructions", m->t_instr));
    W(attr_u64(w, "bytes-read", m->t_read));
    W(attr_u64(w, "bytes-written", m->t_written));
    W(attr_u64(w, "comm-bytes", m->t_comm));
    W(attr_u64(w, "comm-unma", m->t_comm_unma));
    W(attr_u64(w, "self-bytes", m->t_self));
    W(attr_u64(w, "functions", m->n));
    W(attr_u64(w, "edges", m->ne));
    W(xmlTextWriterEndElement(w));
    W(xmlTextWriterStartElement(w, BAD_CAST "provenance"));
    W(attr_s(w, "unma", "max"));
    for (size_t i = 0; i < m->ninputs; i++) {
        W(xmlTextWriterStartElement(w, BAD_CAST "input"));
        W(attr_s(w, "file", m->inputs[i].file));
        W(attr_s(w, "pid", m->inputs[i].pid));
        W(attr_s(w, "exe", m->inputs[i].exe));
        W(xmlTextWriterEndElement(w));
    }
    W(xmlTextWriterEndElement(w)); /* provenance */
    W(xmlTextWriterEndElement(w)); /* run */
    W(xmlTextWriterStartElement(w, BAD_CAST "functions"));
    for (size_t i = 0; i < m->n; i++) {
        const cpr_func* f = m->f[i];
        W(xmlTextWriterStartElement(w, BAD_CAST "function"));
        W(attr_u64(w, "id", i));
        W(attr_s(w, "kind", f->special ? "special" : "function"));
        W(attr_s(w, "name", f->name));
        W(attr_s(w, "object", f->object));
        W(attr_s(w, "file", f->file));
        W(attr_s(w, "dir", f->dir));
        W(attr_u64(w, "line", f->line));
        W(attr_u64(w, "instructions", f->instructions));
        W(attr_u64(w, "calls", f->calls));
        W(attr_u64(w, "bytes-read", f->bytes_read));
        W(attr_u64(w, "bytes-written", f->bytes_written));
        W(attr_u64(w, "in-bytes", f->in_bytes));
        W(attr_u64(w, "in-unma", f->in_unma));
        W(attr_u64(w, "out-bytes", f->out_bytes));
        W(attr_u64(w, "out-unma", f->out_unma));
        W(attr_u64(w, "self-bytes", f->self_bytes));
        W(attr_u64(w, "self-unma", f->self_unma));
        W(attr_u64(w, "mem-instructions", f->mem_instructions));
        W(attr_u64(w, "loads", f->loads));
        W(attr_u64(w, "stores", f->stores));
        W(attr_u64(w, "stack-loads", f->stack_loads));
        W(attr_u64(w, "stack-stores", f->stack_stores));
        W(attr_u64(w, "stack-bytes-read", f->stack_bytes_read));
        W(attr_u64(w, "stack-bytes-written", f->stack_bytes_written));
        if (f->has_objects) {
            W(attr_u64(w, "heap-bytes-read", f->heap_bytes_read));
            W(attr_u64(w, "heap-bytes-written", f->heap_bytes_written));
            W(attr_u64(w, "global-bytes-read", f->global_bytes_read));
            W(attr_u64(w, "global-bytes-written", f->global_bytes_written));
        }
        W(xmlTextWriterEndElement(w));
    }
    W(xmlTextWriterEndElement(w));
    W(xmlTextWriterStartElement(w, BAD_CAST "edges"));
    for (size_t k = 0; k < m->ne; k++) {
        const cpr_edge* e = &m->e[order[k]];
        W(xmlTextWriterStartElement(w, BAD_CAST "edge"));
        W(attr_u64(w, "producer", e->p));
        W(attr_u64(w, "consumer", e->c));
        W(attr_u64(w, "bytes", e->bytes));
        W(attr_u64(w, "unma", e->unma));
        W(attr_u64(w, "accesses", e->accesses));
        W(xmlTextWriterEndElement(w));
    }
    W(xmlTextWriterEndElement(w)); /* edges */
    W(xmlTextWriterStartElement(w, BAD_CAST "threads"));
    for (size_t i = 0; i < m->nth; i++) {
        const cpr_thread* t = &m->th[i];
        W(xmlTextWriterStartElement(w, BAD_CAST "thread"));
        W(attr_u64(w, "id", t->id));
        W(attr_u64(w, "parent", t->parent));
        W(attr_s(w, "name", t->name));
        W(attr_u64(w, "instructions", t->instructions));
        W(attr_u64(w, "bytes-read", t->bytes_read));
        W(attr_u64(w, "in-bytes", t->in_bytes));
        W(attr_u64(w, "out-bytes", t->out_bytes));
        W(xmlTextWriterEndElement(w));
    }
    W(xmlTextWriterEndElement(w));
    W(xmlTextWriterStartElement(w, BAD_CAST "thread-matrix"));
    for (size_t i = 0; i < m->ncells; i++) {
        W(xmlTextWriterStartElement(w, BAD_CAST "cell"));
        W(attr_u64(w, "producer", m->cells[i].p));
        W(attr_u64(w, "consumer", m->cells[i].c));
        W(attr_u64(w, "bytes", m->cells[i].bytes));
        W(attr_u64(w, "unma", m->cells[i].unma));
        W(xmlTextWriterEndElement(w));
    }
    W(xmlTextWriterEndElement(w));
    W(xmlTextWriterStartElement(w, BAD_CAST "thread-edges"));
    for (size_t i = 0; i < m->ntedges; i++) {
        const cpr_tedge* e = &m->tedges[i];
        W(xmlTextWriterStartElement(w, BAD_CAST "edge"));
        W(attr_u64(w, "producer", e->p));
        W(attr_u64(w, "producer-thread", e->pt));
        W(attr_u64(w, "consumer", e->c));
        W(attr_u64(w, "consumer-thread", e->ct));
        W(attr_u64(w, "bytes", e->bytes));
        W(attr_u64(w, "unma", e->unma));
        W(attr_u64(w, "accesses", e->accesses));
        W(xmlTextWriterEndElement(w));
    }
    W(xmlTextWriterEndElement(w));
    W(xmlTextWriterEndDocument(w));
    free(order);
    xmlFreeTextWriter(w); /* flushes and closes */
    return 0;
fail:
    free(order);
    xmlFreeTextWriter(w);
    return -1;
}

static void merge_help(void)
{
    printf("Usage: %s merge -o OUT.xml A.xml B.xml...\n"
           "\n"
           "Combines the profiles of several processes (a fork, an exec chain, MPI\n"
           "ranks) or runs into one valid profile of the same schema.  Functions are\n"
           "matched by kind, name, object file and source file; instructions, calls,\n"
           "bytes and the edges' bytes and accesses are summed.  UnMA cannot be\n"
           "recomputed from the inputs: every UnMA of the result is the maximum over\n"
           "the inputs, a lower bound, and <provenance unma=\"max\"> inside <run>\n"
           "records that and the inputs (file, pid, exe).  The threads of each input\n"
           "are kept apart, numbered after those of the inputs before it.  Run\n"
           "metadata (exe, args, pid, options) is taken from the first input; a note\n"
           "on stderr says when the inputs were profiled with different options.\n"
           "\n"
           "  -o, --output=FILE   the merged profile (required; written atomically)\n"
           "  -h, --help          this help\n",
           CPR_PROG);
}

int cpr_cmd_merge(int argc, char** argv)
{
    static const struct option lo[] = {{"help", no_argument, 0, 'h'}, {"output", required_argument, 0, 'o'}, {0, 0, 0, 0}};
    const char* output = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:", lo, NULL)) != -1) {
        switch (c) {
        case 'h': merge_help(); return CPR_OK;
        case 'o': output = optarg; break;
        default: return cpr_opt_error("merge", c, optopt, argv, optind);
        }
    }
    if (!output || !strcmp(output, "-")) return cpr_usage_error("merge", "the output file is required: -o OUT.xml");
    if (optind >= argc) return cpr_usage_error("merge", "no profile given");

    merged m;
    memset(&m, 0, sizeof m);
    cpr_funcmap_init(&m.map);
    cpr_pairmap_init(&m.pairs);
    cpr_error err = {0};
    int rc = CPR_OK;
    for (int i = optind; i < argc && !rc; i++) {
        cpr_profile* p;
        if (cpr_load(argv[i], &p, &err)) {
            rc = CPR_EINPUT;
            break;
        }
        if (fold(&m, p, &err)) rc = CPR_EINPUT;
        if (!m.meta)
            m.meta = p;
        else
            cpr_profile_free(p);
    }
    if (!rc) {
        cpr_buf tmp = {0};
        cpr_buf_printf(&tmp, "%s.tmp.%ld", output, (long)getpid());
        if (write_merged(&m, tmp.s)) {
            cpr_seterr(&err, output, 0, "cannot write: %s", strerror(errno ? errno : EIO));
            rc = CPR_EINPUT;
        } else {
            /* read it back: the result must be a valid profile */
            cpr_profile* q;
            cpr_error e2 = {0};
            if (cpr_load(tmp.s, &q, &e2)) {
                cpr_seterr(&err, output, 0, "internal error: the merged profile is invalid: %s", e2.msg);
                rc = CPR_EINPUT;
            } else {
                cpr_profile_free(q);
                if (rename(tmp.s, output)) {
                    cpr_seterr(&err, output, 0, "cannot write: %s", strerror(errno));
                    rc = CPR_EINPUT;
                }
            }
        }
        if (rc) remove(tmp.s);
        cpr_buf_free(&tmp);
    }
    if (rc) cpr_print_error(&err);
    for (size_t i = 0; i < m.n; i++) {
        free(m.f[i]->name);
        free(m.f[i]->object);
        free(m.f[i]->file);
        free(m.f[i]->dir);
        free(m.f[i]);
    }
    free(m.f);
    free(m.e);
    for (size_t i = 0; i < m.nth; i++) free(m.th[i].name);
    free(m.th);
    free(m.cells);
    free(m.tedges);
    for (size_t i = 0; i < m.ninputs; i++) {
        free(m.inputs[i].file);
        free(m.inputs[i].pid);
        free(m.inputs[i].exe);
    }
    free(m.inputs);
    cpr_funcmap_free(&m.map);
    cpr_pairmap_free(&m.pairs);
    cpr_profile_free(m.meta);
    return rc;
}
