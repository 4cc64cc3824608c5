/* commprof-report merge -o OUT A B ...: one profile from several.
 *
 * Functions are matched by kind, name, object and source file (a caller context
 * with no callers apart from its function); their counters
 * and the edges' bytes and accesses are summed.  UnMA (distinct addresses)
 * cannot be computed from the inputs, so every UnMA of the result (edges,
 * functions, comm-unma) is the maximum over the inputs, a lower bound; the
 * <provenance unma="max"> element of <run> says so and lists the inputs.
 * Threads of different inputs are different threads: each input's are
 * numbered after those of the inputs before it, with their matrix cells and
 * (function, thread) edges.
 * The run metadata (exe, args, pid, options) is the first input's.  The
 * output is written with libxml2's xmlTextWriter under a temporary name,
 * checked by reading it back, and renamed (copied, when the output is a
 * device, a pipe or a symbolic link, which a rename would replace). */

#include "cpr.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    int first_read; /* every input has first-read bytes on its edges */
    int any_objects;
    cpr_object* o; /* objects, matched by kind, name and symbol */
    size_t no;
    cpr_strmap omap;
    cpr_flow* fl; /* object flows, matched by (producer, object, consumer) */
    size_t nfl;
    cpr_pairmap po, poc;
    cpr_buf dropped; /* sections not merged, for the note */
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

/* A thread-local variable's object is named "NAME (thread N)", N its thread:
 * the name for thread t1 instead, in b, if name ends so with N == t0. */
static int tls_renamed(cpr_buf* b, const char* name, uint32_t t0, uint32_t t1)
{
    char tail[32];
    int n = snprintf(tail, sizeof tail, " (thread %u)", t0);
    size_t len = strlen(name);
    if (n <= 0 || (size_t)n >= len || strcmp(name + len - (size_t)n, tail)) return 0;
    b->len = 0;
    if (b->s) b->s[0] = 0;
    cpr_buf_printf(b, "%.*s (thread %u)", (int)(len - (size_t)n), name, t1);
    return 1;
}

/* objects of p into m: matched by kind, name and symbol; a stack's thread is
 * renumbered like the threads (and its name with it), and so is a thread-local
 * variable's */
static int fold_objects(merged* m, const cpr_profile* p, const size_t* map, uint32_t base, cpr_error* err)
{
    const char* fn = p->path;
    if (!p->has_objects) return 0;
    m->any_objects = 1;
    size_t* omap = cpr_xmalloc((p->nobjects + 1) * sizeof *omap);
    cpr_buf key = {0}, tlsname = {0};
    for (size_t i = 0; i < p->nobjects; i++) {
        const cpr_object* o = &p->objects[i];
        cpr_object x = *o;
        char nm[64];
        uint32_t t0;
        char tail;
        if (o->has_thread) {
            x.thread = o->thread + base;
            if (o->kind == CPR_OBJ_STACK && sscanf(o->name, "stack of thread %u%c", &t0, &tail) == 1 && t0 == o->thread) {
                snprintf(nm, sizeof nm, "stack of thread %u", x.thread);
                x.name = nm;
            } else if (o->kind == CPR_OBJ_TLS && tls_renamed(&tlsname, o->name, o->thread, x.thread)) {
                x.name = tlsname.s;
            }
        }
        cpr_object_key(&key, &x);
        size_t u = cpr_strmap_get(&m->omap, key.s, m->no, 1);
        if (u == m->no) {
            if (m->no % 64 == 0) m->o = cpr_xrealloc(m->o, m->no + 64, sizeof *m->o);
            cpr_object* c = &m->o[m->no++];
            *c = x;
            c->id = (uint32_t)u;
            c->name = cpr_xstrdup(x.name);
            c->elf = cpr_xstrdup(o->elf);
            c->symbol = o->symbol ? cpr_xstrdup(o->symbol) : NULL;
            c->frames = cpr_xmalloc((o->nframes + 1) * sizeof *c->frames);
            for (size_t k = 0; k < o->nframes; k++) {
                c->frames[k].function = cpr_xstrdup(o->frames[k].function);
                c->frames[k].file = cpr_xstrdup(o->frames[k].file);
                c->frames[k].line = o->frames[k].line;
            }
        } else {
            cpr_object* c = &m->o[u];
            if (sum(&c->blocks, o->blocks, fn, "object blocks", err) ||
                sum(&c->total_bytes, o->total_bytes, fn, "object total-bytes", err) ||
                sum(&c->reads, o->reads, fn, "object reads", err) ||
                sum(&c->read_bytes, o->read_bytes, fn, "object read-bytes", err) ||
                sum(&c->writes, o->writes, fn, "object writes", err) ||
                sum(&c->write_bytes, o->write_bytes, fn, "object write-bytes", err) ||
                sum(&c->written_bytes, o->written_bytes, fn, "object written-bytes", err) ||
                sum(&c->prod_bytes, o->prod_bytes, fn, "object prod-bytes", err)) {
                free(omap);
                cpr_buf_free(&key);
                cpr_buf_free(&tlsname);
                return -1;
            }
            c->size = o->size; /* heap: the last block allocated */
            c->peak_bytes = max64(c->peak_bytes, o->peak_bytes);
            c->has_pct = c->has_pct && o->has_pct;
            if (o->first_access && (!c->first_access || o->first_access < c->first_access))
                c->first_access = o->first_access;
            c->last_access = max64(c->last_access, o->last_access);
        }
        omap[i] = u;
    }
    cpr_buf_free(&key);
    cpr_buf_free(&tlsname);
    for (size_t k = 0; k < p->nflows; k++) {
        const cpr_flow* f = &p->flows[k];
        size_t a = map[f->p], o = omap[f->o], c = map[f->c];
        size_t k1 = cpr_pairmap_get(&m->po, a, o, m->po.n, 1);
        size_t j = cpr_pairmap_get(&m->poc, k1, c, m->nfl, 1);
        if (j == m->nfl) {
            if (m->nfl % 64 == 0) m->fl = cpr_xrealloc(m->fl, m->nfl + 64, sizeof *m->fl);
            m->fl[m->nfl++] = (cpr_flow){a, o, c, f->bytes, f->unma};
        } else {
            if (sum(&m->fl[j].bytes, f->bytes, fn, "flow bytes", err)) {
                free(omap);
                return -1;
            }
            m->fl[j].unma = max64(m->fl[j].unma, f->unma);
        }
    }
    free(omap);
    return 0;
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
            c->callers = NULL; /* filled below: has_base stays, it is part of the key */
            c->ncallers = 0;
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
    /* context nodes: base and callers as merged ids (the first input that
     * has the node defines them) */
    for (size_t i = 0; i < p->nfuncs; i++) {
        const cpr_func* f = &p->funcs[i];
        cpr_func* c = m->f[map[i]];
        if (!f->has_base || c->callers) continue;
        c->base = map[f->base];
        c->callers = cpr_xmalloc((f->ncallers + 1) * sizeof *c->callers);
        c->ncallers = f->ncallers;
        for (size_t k = 0; k < f->ncallers; k++) c->callers[k] = (uint32_t)map[cpr_find_id(p, f->callers[k])];
    }
    /* first-read bytes: summed if every input has them */
    int fr = p->has_first_read;
    for (size_t i = 0; i < p->noptions; i++)
        if (!strcmp(p->options[i].name, "first-read") && !strcmp(p->options[i].value, "yes")) fr = 1;
    m->first_read = m->first_read && fr;
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
            if (sum(&d->bytes, e->bytes, fn, "edge bytes", err) || sum(&d->accesses, e->accesses, fn, "edge accesses", err) ||
                sum(&d->first_read, e->first_read, fn, "edge first-read", err)) {
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
    if (fold_objects(m, p, map, base, err)) {
        free(map);
        return -1;
    }
    if (p->has_phases || p->has_slices || p->has_calls) {
        cpr_buf_printf(&m->dropped, "%s%s%s%s%s%s (%s)", m->dropped.len ? "; " : "", p->has_phases ? "phases" : "",
                       p->has_phases && (p->has_slices || p->has_calls) ? ", " : "", p->has_slices ? "time slices" : "",
                       p->has_slices && p->has_calls ? ", " : "", p->has_calls ? "per-call records" : "", p->path);
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
        W(attr_s(w, "kind", cpr_kind_name(f->kind)));
        W(attr_s(w, "name", f->name));
        W(attr_s(w, "object", f->object));
        W(attr_s(w, "file", f->file));
        W(attr_s(w, "dir", f->dir));
        W(attr_u64(w, "line", f->line));
        if (f->has_base) {
            cpr_buf cl = {0};
            for (size_t k = 0; k < f->ncallers; k++) cpr_buf_printf(&cl, "%s%u", k ? " " : "", f->callers[k]);
            int bad = attr_u64(w, "base", f->base) < 0 || attr_s(w, "callers", cl.s ? cl.s : "") < 0;
            cpr_buf_free(&cl);
            if (bad) goto fail;
        }
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
        if (m->first_read) W(attr_u64(w, "first-read", e->first_read));
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
    if (m->any_objects) {
        W(xmlTextWriterStartElement(w, BAD_CAST "objects"));
        for (size_t i = 0; i < m->no; i++) {
            const cpr_object* o = &m->o[i];
            W(xmlTextWriterStartElement(w, BAD_CAST "object"));
            W(attr_u64(w, "id", i));
            W(attr_s(w, "kind", cpr_object_kinds[o->kind]));
            W(attr_s(w, "name", o->name));
            if (o->symbol) W(attr_s(w, "symbol", o->symbol));
            W(attr_s(w, "elf", o->elf));
            W(attr_u64(w, "size", o->size));
            W(attr_u64(w, "blocks", o->blocks));
            W(attr_u64(w, "total-bytes", o->total_bytes));
            W(attr_u64(w, "peak-bytes", o->peak_bytes));
            W(attr_u64(w, "reads", o->reads));
            W(attr_u64(w, "read-bytes", o->read_bytes));
            W(attr_u64(w, "writes", o->writes));
            W(attr_u64(w, "write-bytes", o->write_bytes));
            if (o->has_pct) {
                /* recomputed from the sums, one decimal, as the tool writes them */
                uint64_t ap = o->total_bytes ? (uint64_t)((1000.0L * o->written_bytes) / o->total_bytes + 0.5L) : 0;
                uint64_t pp = o->total_bytes ? (uint64_t)((1000.0L * o->prod_bytes) / o->total_bytes + 0.5L) : 0;
                W(attr_u64(w, "written-bytes", o->written_bytes));
                W(attr_u64(w, "prod-bytes", o->prod_bytes));
                W(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "alloc-pct", "%llu.%llu", (unsigned long long)(ap / 10),
                                                    (unsigned long long)(ap % 10)));
                W(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "prod-pct", "%llu.%llu", (unsigned long long)(pp / 10),
                                                    (unsigned long long)(pp % 10)));
            }
            if (o->has_thread) W(attr_u64(w, "thread", o->thread));
            W(attr_u64(w, "first-access", o->first_access));
            W(attr_u64(w, "last-access", o->last_access));
            for (size_t k = 0; k < o->nframes; k++) {
                W(xmlTextWriterStartElement(w, BAD_CAST "frame"));
                W(attr_s(w, "function", o->frames[k].function));
                W(attr_s(w, "file", o->frames[k].file));
                W(attr_u64(w, "line", o->frames[k].line));
                W(xmlTextWriterEndElement(w));
            }
            W(xmlTextWriterEndElement(w));
        }
        W(xmlTextWriterEndElement(w));
        W(xmlTextWriterStartElement(w, BAD_CAST "object-flows"));
        for (size_t i = 0; i < m->nfl; i++) {
            const cpr_flow* fl = &m->fl[i];
            W(xmlTextWriterStartElement(w, BAD_CAST "flow"));
            W(attr_u64(w, "producer", fl->p));
            W(attr_u64(w, "object", fl->o));
            W(attr_u64(w, "consumer", fl->c));
            W(attr_u64(w, "bytes", fl->bytes));
            W(attr_u64(w, "unma", fl->unma));
            W(xmlTextWriterEndElement(w));
        }
        W(xmlTextWriterEndElement(w));
    }
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
           "are kept apart, numbered after those of the inputs before it (a stack\n"
           "object's thread and name with them).  Data objects (--objects=yes) are\n"
           "matched by kind, name and symbol (C++ statics): reads, writes, bytes,\n"
           "blocks and written/produced bytes summed, Alloc%%/Prod%% recomputed from\n"
           "the sums, peak bytes and last access the maximum, first access the\n"
           "minimum, size the last input's; object flows summed (UnMA the maximum).\n"
           "First-read bytes of the edges are summed when every input has them, else\n"
           "left out.  Phases, time slices and per-call records belong to one\n"
           "process's clock and are not merged: the result has none, and a note on\n"
           "stderr says which inputs had them.  Run metadata (exe, args, pid,\n"
           "options) is taken from the first input; a note on stderr says when the\n"
           "inputs were profiled with different options.\n"
           "\n"
           "  -o, --output=FILE   the merged profile (required; written atomically, or in\n"
           "                      place if FILE is a device, pipe or symbolic link)\n"
           "  -h, --help          this help\n",
           CPR_PROG);
}

/* Copy file from to path to (written in place): appended to when to stands
   for an open descriptor (/dev/stdout, /dev/fd/N: what it holds stays),
   else truncated first.  0 on success, else -1 with errno set. */
static int copy_to(const char* from, const char* to)
{
    int app = !strncmp(to, "/dev/std", 8) || !strncmp(to, "/dev/fd/", 8) || !strncmp(to, "/proc/self/fd/", 14);
    FILE* in = fopen(from, "rb");
    if (!in) return -1;
    FILE* out = fopen(to, app ? "ab" : "wb");
    if (!out) {
        int e = errno;
        fclose(in);
        errno = e;
        return -1;
    }
    char buf[65536];
    size_t n;
    int bad = 0, e = 0;
    while (!bad && (n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n) {
            bad = 1;
            e = errno;
        }
    if (ferror(in) && !bad) {
        bad = 1;
        e = EIO;
    }
    fclose(in);
    if (fclose(out) && !bad) {
        bad = 1;
        e = errno;
    }
    errno = e ? e : EIO;
    return bad ? -1 : 0;
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
    m.first_read = 1;
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
    if (!rc && m.dropped.len)
        fprintf(stderr,
                "%s: merge: %s not merged: they are per process (their own clock and sequence numbers); the result "
                "has none\n",
                CPR_PROG, m.dropped.s);
    if (!rc) {
        cpr_buf tmp = {0};
        int in_place = cpr_output_in_place(output), made = 1;
        if (in_place) {
            /* the checked result is copied to it; the temporary file goes
               where temporary files go, not beside a device in /dev, made
               by mkstemp (a name known in advance could be a planted link) */
            const char* dir = getenv("TMPDIR");
            cpr_buf_printf(&tmp, "%s/commprof-merge.XXXXXX", dir && *dir ? dir : "/tmp");
            int fd = mkstemp(tmp.s);
            if (fd < 0) {
                cpr_seterr(&err, tmp.s, 0, "cannot create: %s", strerror(errno));
                rc = CPR_EINPUT;
                made = 0;
            } else {
                close(fd);
            }
        } else {
            /* beside the output (the rename stays on one file system) */
            char* name;
            int fd = cpr_temp_beside(output, &name);
            if (fd < 0) {
                cpr_seterr(&err, output, 0, "cannot write: %s", strerror(errno));
                rc = CPR_EINPUT;
                made = 0;
            } else {
                close(fd);
                cpr_buf_printf(&tmp, "%s", name);
                free(name);
            }
        }
        if (rc) {
            /* no temporary file */
        } else if (write_merged(&m, tmp.s)) {
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
                if (in_place ? copy_to(tmp.s, output) : rename(tmp.s, output)) {
                    cpr_seterr(&err, output, 0, "cannot write: %s", strerror(errno));
                    rc = CPR_EINPUT;
                }
            }
        }
        if (made && (rc || in_place)) remove(tmp.s);
        cpr_buf_free(&tmp);
    }
    if (rc) cpr_print_error(&err);
    for (size_t i = 0; i < m.n; i++) {
        free(m.f[i]->name);
        free(m.f[i]->object);
        free(m.f[i]->file);
        free(m.f[i]->dir);
        free(m.f[i]->callers);
        free(m.f[i]);
    }
    free(m.f);
    free(m.e);
    for (size_t i = 0; i < m.nth; i++) free(m.th[i].name);
    free(m.th);
    free(m.cells);
    free(m.tedges);
    for (size_t i = 0; i < m.no; i++) {
        free(m.o[i].name);
        free(m.o[i].elf);
        free(m.o[i].symbol);
        for (size_t k = 0; k < m.o[i].nframes; k++) {
            free(m.o[i].frames[k].function);
            free(m.o[i].frames[k].file);
        }
        free(m.o[i].frames);
    }
    free(m.o);
    free(m.fl);
    cpr_strmap_free(&m.omap);
    cpr_pairmap_free(&m.po);
    cpr_pairmap_free(&m.poc);
    cpr_buf_free(&m.dropped);
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
