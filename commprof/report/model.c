/* commprof-report: the profile in memory, id lookups, function matching. */

#include "cpr.h"

#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

cpr_profile* cpr_profile_new(const char* path)
{
    cpr_profile* p = cpr_xcalloc(1, sizeof *p);
    p->path = cpr_xstrdup(path ? path : "");
    return p;
}

void cpr_profile_free(cpr_profile* p)
{
    if (!p) return;
    free(p->path);
    free(p->tool_version);
    free(p->exe);
    for (size_t i = 0; i < p->nargs; i++) free(p->args[i]);
    free(p->args);
    free(p->pid);
    free(p->ppid);
    free(p->reason);
    for (size_t i = 0; i < p->noptions; i++) {
        free(p->options[i].name);
        free(p->options[i].value);
    }
    free(p->options);
    free(p->unma_note);
    for (size_t i = 0; i < p->ninputs; i++) {
        free(p->inputs[i].file);
        free(p->inputs[i].exe);
        free(p->inputs[i].pid);
    }
    free(p->inputs);
    for (size_t i = 0; i < p->nfuncs; i++) {
        free(p->funcs[i].name);
        free(p->funcs[i].object);
        free(p->funcs[i].file);
        free(p->funcs[i].dir);
        free(p->funcs[i].callers);
    }
    free(p->funcs);
    free(p->edges);
    for (size_t i = 0; i < p->nthreads; i++) free(p->threads[i].name);
    free(p->threads);
    cpr_idmap_free(&p->threadmap);
    free(p->cells);
    free(p->tedges);
    for (size_t i = 0; i < p->nobjects; i++) {
        free(p->objects[i].name);
        free(p->objects[i].elf);
        free(p->objects[i].symbol);
        for (size_t k = 0; k < p->objects[i].nframes; k++) {
            free(p->objects[i].frames[k].function);
            free(p->objects[i].frames[k].file);
        }
        free(p->objects[i].frames);
    }
    free(p->objects);
    cpr_idmap_free(&p->objmap);
    free(p->flows);
    for (size_t i = 0; i < p->nphases; i++) free(p->phases[i].name);
    free(p->phases);
    cpr_idmap_free(&p->phasemap);
    free(p->pedges);
    free(p->slices);
    free(p->recs);
    for (size_t i = 0; i < p->nspans; i++) free(p->spans[i].funcs);
    free(p->spans);
    for (size_t i = 0; i < p->ncalls; i++) {
        free(p->calls[i].callers);
        free(p->calls[i].consumed);
        free(p->calls[i].objects);
    }
    free(p->calls);
    free(p->idkeys);
    free(p->idvals);
    free(p->ambig);
    free(p);
}

static size_t hash32(uint32_t x)
{
    uint64_t h = x * 0x9E3779B97F4A7C15ull;
    return (size_t)(h ^ (h >> 29));
}

static void id_insert(cpr_profile* p, uint32_t id, size_t val)
{
    size_t m = p->idcap - 1, i = hash32(id) & m;
    while (p->idvals[i] != NONE) i = (i + 1) & m;
    p->idkeys[i] = id;
    p->idvals[i] = val;
}

size_t cpr_find_id(const cpr_profile* p, uint32_t id)
{
    if (!p->idcap) return NONE;
    size_t m = p->idcap - 1, i = hash32(id) & m;
    while (p->idvals[i] != NONE) {
        if (p->idkeys[i] == id) return p->idvals[i];
        i = (i + 1) & m;
    }
    return NONE;
}

size_t cpr_add_func(cpr_profile* p, const cpr_func* f)
{
    if (cpr_find_id(p, f->id) != NONE) return NONE;
    if ((p->nfuncs + 1) * 2 > p->idcap) {
        size_t oc = p->idcap;
        uint32_t* ok = p->idkeys;
        size_t* ov = p->idvals;
        p->idcap = oc ? oc * 2 : 64;
        p->idkeys = cpr_xcalloc(p->idcap, sizeof *p->idkeys);
        p->idvals = cpr_xmalloc(p->idcap * sizeof *p->idvals);
        for (size_t i = 0; i < p->idcap; i++) p->idvals[i] = NONE;
        for (size_t i = 0; i < oc; i++)
            if (ov[i] != NONE) id_insert(p, ok[i], ov[i]);
        free(ok);
        free(ov);
    }
    if (p->nfuncs == p->capfuncs) {
        p->capfuncs = p->capfuncs ? p->capfuncs * 2 : 32;
        p->funcs = cpr_xrealloc(p->funcs, p->capfuncs, sizeof *p->funcs);
    }
    p->funcs[p->nfuncs] = *f;
    id_insert(p, f->id, p->nfuncs);
    return p->nfuncs++;
}

cpr_edge* cpr_add_edge(cpr_profile* p, size_t prod, size_t cons)
{
    if (p->nedges == p->capedges) {
        p->capedges = p->capedges ? p->capedges * 2 : 64;
        p->edges = cpr_xrealloc(p->edges, p->capedges, sizeof *p->edges);
    }
    cpr_edge* e = &p->edges[p->nedges++];
    memset(e, 0, sizeof *e);
    e->p = prod;
    e->c = cons;
    return e;
}

const char* cpr_basename(const char* path)
{
    const char* s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static const cpr_profile* name_profile;
static int cmp_name(const void* a, const void* b)
{
    return strcmp(name_profile->funcs[*(const size_t*)a].name, name_profile->funcs[*(const size_t*)b].name);
}

/* flags the functions whose name another function shares (sort by name) */
void cpr_mark_ambiguous(cpr_profile* p)
{
    free(p->ambig);
    p->ambig = cpr_xcalloc(p->nfuncs + 1, 1);
    size_t* o = cpr_xmalloc((p->nfuncs + 1) * sizeof *o);
    for (size_t i = 0; i < p->nfuncs; i++) o[i] = i;
    name_profile = p;
    qsort(o, p->nfuncs, sizeof *o, cmp_name);
    for (size_t i = 1; i < p->nfuncs; i++)
        if (!strcmp(p->funcs[o[i]].name, p->funcs[o[i - 1]].name)) p->ambig[o[i]] = p->ambig[o[i - 1]] = 1;
    free(o);
    /* the rank of each node among those of its file with the same matching
     * key, in the file's order: the nth such node of one file is matched
     * with the nth of the other by diff and merge */
    cpr_strmap seen = {0};
    uint32_t* count = cpr_xcalloc(p->nfuncs + 1, sizeof *count);
    cpr_buf key = {0};
    for (size_t i = 0; i < p->nfuncs; i++) {
        cpr_func* f = &p->funcs[i];
        key.len = 0;
        cpr_buf_printf(&key, "%d %d ", f->kind, !!f->has_base);
        cpr_buf_puts(&key, f->name); /* \x01 cannot be in XML text: a separator */
        cpr_buf_puts(&key, "\x01");
        cpr_buf_puts(&key, f->object);
        cpr_buf_puts(&key, "\x01");
        cpr_buf_puts(&key, f->file);
        size_t k = cpr_strmap_get(&seen, key.s, seen.n, 1);
        f->dup = count[k]++;
    }
    cpr_buf_free(&key);
    free(count);
    cpr_strmap_free(&seen);
}

const char* cpr_location(const cpr_func* f, char* buf, size_t n)
{
    if (f->kind == CPR_KIND_REGION)
        snprintf(buf, n, "%s", "(region)");
    else if (f->special)
        snprintf(buf, n, "%s", "");
    else if (f->file[0] && f->line)
        snprintf(buf, n, "%s:%u", f->file, f->line);
    else if (f->file[0])
        snprintf(buf, n, "%s", f->file);
    else
        snprintf(buf, n, "%s", cpr_basename(f->object));
    return buf;
}

const char* cpr_display_name(const cpr_profile* p, size_t i, char* buf, size_t n)
{
    const cpr_func* f = &p->funcs[i];
    if (f->special || f->kind == CPR_KIND_REGION || !p->ambig || !p->ambig[i]) return f->name;
    char loc[600];
    cpr_location(f, loc, sizeof loc);
    if (!loc[0]) return f->name;
    snprintf(buf, n, "%s [%s]", f->name, loc);
    return buf;
}

/* a function and its caller context of no callers (--separate-callers: a
 * function entered with no node below it) have the same name: the context
 * is told apart by having a base */
int cpr_same_func(const cpr_func* a, const cpr_func* b)
{
    return a->kind == b->kind && !a->has_base == !b->has_base && a->dup == b->dup && !strcmp(a->name, b->name) &&
           !strcmp(a->object, b->object) && !strcmp(a->file, b->file);
}

static uint64_t fnv(uint64_t h, const char* s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ull;
    }
    h ^= 0xff; /* separator */
    h *= 0x100000001b3ull;
    return h;
}

uint64_t cpr_func_hash(const cpr_func* f)
{
    uint64_t h = 0xcbf29ce484222325ull ^ (uint64_t)f->kind ^ ((uint64_t)!!f->has_base << 8) ^ ((uint64_t)f->dup << 16);
    h = fnv(h, f->name);
    h = fnv(h, f->object);
    h = fnv(h, f->file);
    return h;
}

size_t cpr_find_by_name(const cpr_profile* p, const char* name, size_t* out, size_t max)
{
    size_t k = 0;
    char buf[1200];
    for (size_t i = 0; i < p->nfuncs; i++) {
        const char* d = cpr_display_name(p, i, buf, sizeof buf);
        if (!strcmp(p->funcs[i].name, name) || !strcmp(d, name)) {
            if (k < max) out[k] = i;
            k++;
        }
    }
    return k;
}

static const cpr_profile* sort_profile;
static int cmp_edge_bytes(const void* a, const void* b)
{
    const cpr_edge* x = &sort_profile->edges[*(const size_t*)a];
    const cpr_edge* y = &sort_profile->edges[*(const size_t*)b];
    if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
    if (x->p != y->p) return x->p < y->p ? -1 : 1;
    if (x->c != y->c) return x->c < y->c ? -1 : 1;
    return 0;
}

size_t* cpr_edges_by_bytes(const cpr_profile* p)
{
    size_t* o = cpr_xmalloc((p->nedges + 1) * sizeof *o);
    for (size_t i = 0; i < p->nedges; i++) o[i] = i;
    sort_profile = p;
    qsort(o, p->nedges, sizeof *o, cmp_edge_bytes);
    return o;
}

/* ---- maps ---------------------------------------------------------------- */

void cpr_funcmap_init(cpr_funcmap* m) { memset(m, 0, sizeof *m); }

void cpr_funcmap_free(cpr_funcmap* m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static void funcmap_grow(cpr_funcmap* m)
{
    size_t oc = m->cap;
    const cpr_func** ok = m->keys;
    size_t* ov = m->vals;
    m->cap = oc ? oc * 2 : 64;
    m->keys = cpr_xcalloc(m->cap, sizeof *m->keys);
    m->vals = cpr_xcalloc(m->cap, sizeof *m->vals);
    for (size_t i = 0; i < oc; i++) {
        if (!ok[i]) continue;
        size_t j = (size_t)cpr_func_hash(ok[i]) & (m->cap - 1);
        while (m->keys[j]) j = (j + 1) & (m->cap - 1);
        m->keys[j] = ok[i];
        m->vals[j] = ov[i];
    }
    free(ok);
    free(ov);
}

size_t cpr_funcmap_get(cpr_funcmap* m, const cpr_func* f, size_t val, int insert)
{
    if ((m->n + 1) * 2 > m->cap) funcmap_grow(m);
    size_t j = (size_t)cpr_func_hash(f) & (m->cap - 1);
    while (m->keys[j]) {
        if (cpr_same_func(m->keys[j], f)) return m->vals[j];
        j = (j + 1) & (m->cap - 1);
    }
    if (!insert) return NONE;
    m->keys[j] = f;
    m->vals[j] = val;
    m->n++;
    return val;
}

static size_t u64hash(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (size_t)k;
}

static void u64map_free(cpr_u64map* m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static size_t u64map_find(const cpr_u64map* m, uint64_t k)
{
    if (!m->cap) return NONE;
    size_t j = u64hash(k) & (m->cap - 1);
    while (m->vals[j] != NONE) {
        if (m->keys[j] == k) return m->vals[j];
        j = (j + 1) & (m->cap - 1);
    }
    return NONE;
}

static void u64map_grow(cpr_u64map* m)
{
    size_t oc = m->cap;
    uint64_t* ok = m->keys;
    size_t* ov = m->vals;
    m->cap = oc ? oc * 2 : 64;
    m->keys = cpr_xcalloc(m->cap, sizeof *m->keys);
    m->vals = cpr_xmalloc(m->cap * sizeof *m->vals);
    for (size_t i = 0; i < m->cap; i++) m->vals[i] = NONE;
    for (size_t i = 0; i < oc; i++) {
        if (ov[i] == NONE) continue;
        size_t j = u64hash(ok[i]) & (m->cap - 1);
        while (m->vals[j] != NONE) j = (j + 1) & (m->cap - 1);
        m->keys[j] = ok[i];
        m->vals[j] = ov[i];
    }
    free(ok);
    free(ov);
}

/* the value for k, or NONE; with insert, stores val if absent and returns it */
static size_t u64map_get(cpr_u64map* m, uint64_t k, size_t val, int insert)
{
    if (!insert) return u64map_find(m, k);
    if ((m->n + 1) * 2 > m->cap) u64map_grow(m);
    size_t j = u64hash(k) & (m->cap - 1);
    while (m->vals[j] != NONE) {
        if (m->keys[j] == k) return m->vals[j];
        j = (j + 1) & (m->cap - 1);
    }
    m->keys[j] = k;
    m->vals[j] = val;
    m->n++;
    return val;
}

void cpr_pairmap_init(cpr_pairmap* m) { memset(m, 0, sizeof *m); }
void cpr_pairmap_free(cpr_pairmap* m) { u64map_free(m); }

size_t cpr_pairmap_get(cpr_pairmap* m, size_t a, size_t b, size_t val, int insert)
{
    /* indices are below 2^32: a profile cannot hold more functions than ids */
    return u64map_get(m, ((uint64_t)(uint32_t)a << 32) | (uint32_t)b, val, insert);
}

/* ---- id map -------------------------------------------------------------- */

void cpr_idmap_free(cpr_idmap* m) { u64map_free(m); }
size_t cpr_idmap_find(const cpr_idmap* m, uint32_t id) { return u64map_find(m, id); }
size_t cpr_idmap_get(cpr_idmap* m, uint32_t id, size_t val, int insert) { return u64map_get(m, id, val, insert); }

/* ---- labels -------------------------------------------------------------- */

const char* const cpr_object_kinds[CPR_OBJ_KINDS] = {"heap", "static", "section", "stack", "named", "tls"};

const char* cpr_kind_name(int kind)
{
    return kind == CPR_KIND_SPECIAL ? "special" : kind == CPR_KIND_REGION ? "region" : "function";
}

size_t cpr_thread_index(const cpr_profile* p, uint32_t id) { return cpr_idmap_find(&p->threadmap, id); }

const char* cpr_thread_label(const cpr_profile* p, uint32_t id, char* buf, size_t n)
{
    size_t i = cpr_thread_index(p, id);
    if (!id)
        snprintf(buf, n, "no thread");
    else if (i != NONE && p->threads[i].name[0]) {
        cpr_buf nm = {0};
        cpr_buf_put_visible(&nm, p->threads[i].name);
        snprintf(buf, n, "thread %u (%s)", id, nm.s);
        cpr_buf_free(&nm);
    }
    else
        snprintf(buf, n, "thread %u", id);
    return buf;
}

const char* cpr_object_label(const cpr_profile* p, size_t o, char* buf, size_t n)
{
    const cpr_object* x = &p->objects[o];
    /* names are not unique (two statics of one name in different files): a
     * scan is fine for display, the tables call it once per row */
    for (size_t i = 0; i < p->nobjects; i++)
        if (i != o && !strcmp(p->objects[i].name, x->name)) {
            snprintf(buf, n, "%s #%u", x->name, x->id);
            return buf;
        }
    return x->name;
}

const char* cpr_phase_label(const cpr_profile* p, uint32_t id, char* buf, size_t n)
{
    size_t i = cpr_idmap_find(&p->phasemap, id);
    if (i != NONE && p->phases[i].name[0])
        snprintf(buf, n, "%u %s", id, p->phases[i].name);
    else
        snprintf(buf, n, "%u", id);
    return buf;
}

void cpr_xml_escape(FILE* f, const char* s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r')
                putc('?', f);
            else
                putc(*s, f);
        }
    }
}

size_t cpr_text_len(const char* s)
{
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) n++;
    return n;
}

const char* cpr_palette(size_t k)
{
    static const char* const pal[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                      "#e377c2", "#17becf", "#bcbd22", "#393b79", "#ad494a", "#637939"};
    return pal[k % (sizeof pal / sizeof pal[0])];
}

/* ---- string map (object keys "kind/name") ---------------------------------- */

void cpr_strmap_free(cpr_strmap* m)
{
    for (size_t i = 0; i < m->cap; i++) free(m->keys[i]);
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static uint64_t strhash(const char* s) { return fnv(0xcbf29ce484222325ull, s); }

size_t cpr_strmap_get(cpr_strmap* m, const char* key, size_t val, int insert)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t oc = m->cap;
        char** ok = m->keys;
        size_t* ov = m->vals;
        m->cap = oc ? oc * 2 : 64;
        m->keys = cpr_xcalloc(m->cap, sizeof *m->keys);
        m->vals = cpr_xcalloc(m->cap, sizeof *m->vals);
        for (size_t i = 0; i < oc; i++) {
            if (!ok[i]) continue;
            size_t j = (size_t)strhash(ok[i]) & (m->cap - 1);
            while (m->keys[j]) j = (j + 1) & (m->cap - 1);
            m->keys[j] = ok[i];
            m->vals[j] = ov[i];
        }
        free(ok);
        free(ov);
    }
    size_t j = (size_t)strhash(key) & (m->cap - 1);
    while (m->keys[j]) {
        if (!strcmp(m->keys[j], key)) return m->vals[j];
        j = (j + 1) & (m->cap - 1);
    }
    if (!insert) return NONE;
    m->keys[j] = cpr_xstrdup(key);
    m->vals[j] = val;
    m->n++;
    return val;
}

void cpr_object_key(cpr_buf* b, const cpr_object* o)
{
    b->len = 0;
    /* two C++ local statics of one name in one function share a name, not a symbol */
    cpr_buf_printf(b, "%s/%s", cpr_object_kinds[o->kind], o->name);
    if (o->symbol) cpr_buf_printf(b, "/%s", o->symbol);
}
