/* commprof-report summary: ranked tables in the style of callgrind_annotate.
 *
 * A header with the run and its totals, then the heaviest edges (producer ->
 * consumer, bytes, %, UnMA, accesses) and the per-function table of the QUAD
 * thesis (IN, IN UnMA, OUT, OUT UnMA) with self bytes, instructions and
 * calls.  --csv writes one of the tables as CSV instead. */

#include "cpr.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- the header, shared with diff and partition ---------------------------- */

static int is_file_option(const char* n) { return strlen(n) > 5 && !strcmp(n + strlen(n) - 5, "-file"); }

void cpr_print_header(FILE* f, const cpr_profile* p)
{
    char a[32], b[32], c[32], d[32];
    size_t nspecial = 0;
    for (size_t i = 0; i < p->nfuncs; i++) nspecial += p->funcs[i].special;
    fprintf(f, "Profile:        %s\n", p->path);
    fprintf(f, "Command:        %s", p->exe ? p->exe : "");
    for (size_t i = 0; i < p->nargs; i++) fprintf(f, " %s", p->args[i]);
    fputc('\n', f);
    if (p->merged) {
        fprintf(f, "Merged from:    %zu profiles:", p->ninputs);
        for (size_t i = 0; i < p->ninputs; i++)
            fprintf(f, "%s %s (pid %s)", i ? "," : "", p->inputs[i].file, p->inputs[i].pid);
        fprintf(f, "\n                UnMA values are lower bounds (the maximum over the inputs)\n");
    } else {
        fprintf(f, "Process:        pid %s, parent %s, written at %s\n", p->pid ? p->pid : "?",
                p->ppid ? p->ppid : "?", p->reason ? p->reason : "?");
    }
    fprintf(f, "Options:       ");
    int any = 0;
    for (size_t i = 0; i < p->noptions; i++) {
        if (is_file_option(p->options[i].name)) continue;
        fprintf(f, " --%s=%s", p->options[i].name, p->options[i].value);
        any = 1;
    }
    fprintf(f, "%s\n", any ? "" : " (none recorded)");
    fprintf(f, "Instructions:   %s\n", cpr_fmt_u64(a, p->t_instructions));
    fprintf(f, "Memory:         %s bytes read, %s bytes written\n", cpr_fmt_u64(a, p->t_bytes_read),
            cpr_fmt_u64(b, p->t_bytes_written));
    fprintf(f, "Communication:  %s bytes between functions over %s unique addresses; %s bytes within functions\n",
            cpr_fmt_u64(c, p->t_comm_bytes), cpr_fmt_u64(d, p->t_comm_unma), cpr_fmt_u64(a, p->t_self_bytes));
    fprintf(f, "Nodes:          %s functions (%zu special), %s edges\n", cpr_fmt_u64(a, p->nfuncs), nspecial,
            cpr_fmt_u64(b, p->nedges));
    if (p->nthreads) {
        uint64_t cross = 0;
        for (size_t i = 0; i < p->ncells; i++)
            if (p->cells[i].p != p->cells[i].c && cpr_add_u64(cross, p->cells[i].bytes, &cross)) cross = UINT64_MAX;
        fprintf(f, "Threads:        %zu; %s bytes between threads\n", p->nthreads, cpr_fmt_u64(a, cross));
    }
    if (p->has_objects)
        fprintf(f, "Data objects:   %s objects, %s flows through them\n", cpr_fmt_u64(a, p->nobjects),
                cpr_fmt_u64(b, p->nflows));
    if (p->has_phases)
        fprintf(f, "Phases:         %zu marked (COMMPROF_PHASE), %s phase edges\n", p->nphases,
                cpr_fmt_u64(a, p->npedges));
    if (p->has_slices)
        fprintf(f, "Time slices:    %s slices of %s instructions, %s detected phases\n", cpr_fmt_u64(a, p->nslices),
                cpr_fmt_u64(b, p->slice_size), cpr_fmt_u64(c, p->nspans));
    if (p->has_calls)
        fprintf(f, "Per-call:       %s records, %s calls dropped\n", cpr_fmt_u64(a, p->ncalls),
                cpr_fmt_u64(b, p->calls_dropped));
}

static void rule(FILE* f)
{
    fputs("--------------------------------------------------------------------------------\n", f);
}

/* ---- a text table with computed column widths ------------------------------ */

typedef struct {
    size_t ncols, nrows;
    char*** cells; /* [row][col] */
    size_t* width;
} table;

static void t_init(table* t, size_t ncols, const char* const* head)
{
    t->ncols = ncols;
    t->nrows = 0;
    t->cells = NULL;
    t->width = cpr_xcalloc(ncols, sizeof *t->width);
    char** row = cpr_xmalloc(ncols * sizeof *row);
    for (size_t i = 0; i < ncols; i++) row[i] = cpr_xstrdup(head[i]);
    t->cells = cpr_xrealloc(t->cells, 1, sizeof *t->cells);
    t->cells[t->nrows++] = row;
}

static char** t_row(table* t)
{
    t->cells = cpr_xrealloc(t->cells, t->nrows + 1, sizeof *t->cells);
    char** row = cpr_xcalloc(t->ncols, sizeof *row);
    t->cells[t->nrows++] = row;
    return row;
}

/* numeric columns right-aligned, the last one left-aligned, 2 spaces apart */
static void t_print(FILE* f, table* t)
{
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < t->ncols; c++) {
            size_t w = strlen(t->cells[r][c] ? t->cells[r][c] : "");
            if (w > t->width[c]) t->width[c] = w;
        }
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            const char* s = t->cells[r][c] ? t->cells[r][c] : "";
            if (c + 1 < t->ncols)
                fprintf(f, "%*s  ", (int)t->width[c], s);
            else
                fprintf(f, "%s", s);
        }
        /* no trailing blanks */
        fputc('\n', f);
    }
}

static void t_free(table* t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) free(t->cells[r][c]);
        free(t->cells[r]);
    }
    free(t->cells);
    free(t->width);
}

static char* num(uint64_t v)
{
    char b[32];
    return cpr_xstrdup(cpr_fmt_u64(b, v));
}

/* ---- fields ---------------------------------------------------------------- */

enum { F_IN, F_IN_UNMA, F_OUT, F_OUT_UNMA, F_SELF, F_SELF_UNMA, F_INSTR, F_CALLS, F_READ, F_WRITTEN, F_NAME };
static const char* const ffields[] = {"in",    "in-unma",      "out",   "out-unma", "self",    "self-unma",
                                      "instructions", "calls", "read",  "written",  "name"};
static const char* const flabels[] = {"IN", "IN UnMA", "OUT", "OUT UnMA", "self bytes", "self UnMA",
                                      "instructions", "calls", "bytes read", "bytes written", "name"};
enum { E_BYTES, E_UNMA, E_ACCESSES, E_FIRST_READ, E_PRODUCER, E_CONSUMER };
static const char* const elabels[] = {"bytes", "UnMA", "accesses", "first-read bytes", "producer", "consumer"};
static const char* const efields[] = {"bytes", "unma", "accesses", "first-read", "producer", "consumer"};

enum { T_ALL, T_EDGES, T_FUNCTIONS, T_OBJECTS, T_THREADS, T_PHASES, T_MAIP, T_CALLS, T_N };
static const char* const tnames[] = {"all", "edges", "functions", "objects", "threads", "phases", "maip", "calls"};

static int field_index(const char* const* names, size_t n, const char* s)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(names[i], s)) return (int)i;
    return -1;
}

static uint64_t fvalue(const cpr_func* f, int k)
{
    switch (k) {
    case F_IN: return f->in_bytes;
    case F_IN_UNMA: return f->in_unma;
    case F_OUT: return f->out_bytes;
    case F_OUT_UNMA: return f->out_unma;
    case F_SELF: return f->self_bytes;
    case F_SELF_UNMA: return f->self_unma;
    case F_INSTR: return f->instructions;
    case F_CALLS: return f->calls;
    case F_READ: return f->bytes_read;
    case F_WRITTEN: return f->bytes_written;
    default: return 0;
    }
}

static uint64_t evalue(const cpr_edge* e, int k)
{
    switch (k) {
    case E_BYTES: return e->bytes;
    case E_UNMA: return e->unma;
    case E_ACCESSES: return e->accesses;
    case E_FIRST_READ: return e->first_read;
    default: return 0;
    }
}

static const cpr_profile* sp;
static int skey;

static int cmp_funcs(const void* a, const void* b)
{
    size_t i = *(const size_t*)a, j = *(const size_t*)b;
    const cpr_func *x = &sp->funcs[i], *y = &sp->funcs[j];
    if (skey != F_NAME) {
        uint64_t u = fvalue(x, skey), v = fvalue(y, skey);
        if (u != v) return u > v ? -1 : 1;
    }
    int c = strcmp(x->name, y->name);
    if (c) return c;
    return i < j ? -1 : i > j;
}

static int cmp_edges(const void* a, const void* b)
{
    size_t i = *(const size_t*)a, j = *(const size_t*)b;
    const cpr_edge *x = &sp->edges[i], *y = &sp->edges[j];
    if (skey == E_PRODUCER || skey == E_CONSUMER) {
        size_t u = skey == E_PRODUCER ? x->p : x->c, v = skey == E_PRODUCER ? y->p : y->c;
        int c = strcmp(sp->funcs[u].name, sp->funcs[v].name);
        if (c) return c;
    } else {
        uint64_t u = evalue(x, skey), v = evalue(y, skey);
        if (u != v) return u > v ? -1 : 1;
    }
    if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
    return i < j ? -1 : i > j;
}

typedef struct {
    const char* output;
    const char* sort;
    double threshold;
    int threshold_set;
    size_t top;
    int top_set;
    int csv;
    int table; /* T_* */
    int table_set;
    int no_special;
} sopts;

/* ---- the tables of the other sections ---------------------------------------
 *
 * Rows are sorted on one key (a number, largest first, or a name,
 * alphabetical; first/last access and the phase index ascending), then cut by
 * the cumulative threshold (counters only, not ratios) and --top. */

typedef struct {
    size_t i;
    double k;
    const char* name;
} srow;

static int srow_dir; /* 1: largest first, -1: smallest first, 0: by name */
static int cmp_srow(const void* a, const void* b)
{
    const srow *x = a, *y = b;
    if (srow_dir && x->k != y->k) return (x->k > y->k ? -1 : 1) * srow_dir;
    int c = strcmp(x->name ? x->name : "", y->name ? y->name : "");
    if (c) return c;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* sorts rows and returns how many to show */
static size_t sort_cut(srow* r, size_t n, int dir, int cumulative, const sopts* o)
{
    srow_dir = dir;
    qsort(r, n, sizeof *r, cmp_srow);
    size_t k = n;
    if (cumulative && o->threshold < 100) {
        long double total = 0, cum = 0;
        for (size_t i = 0; i < n; i++) total += r[i].k;
        long double lim = total * (long double)o->threshold / 100;
        k = 0;
        while (k < n && r[k].k > 0 && cum < lim) cum += r[k++].k;
    }
    if (o->top && k > o->top) k = o->top;
    return k;
}

static void title(FILE* f, const sopts* o, size_t shown, size_t total, const char* fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void title(FILE* f, const sopts* o, size_t shown, size_t total, const char* fmt, ...)
{
    va_list ap;
    rule(f);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fprintf(f, ": %zu of %zu shown", shown, total);
    if (o->threshold < 100) fprintf(f, ", threshold %g%%", o->threshold);
    if (o->top) fprintf(f, ", top %zu", o->top);
    fputc('\n', f);
    rule(f);
}

static double ratio(double a, double b) { return b > 0 ? a / b : 0; }

static char* fmt_ratio(double a, double b, const char* fmt)
{
    char buf[64];
    if (b <= 0) return cpr_xstrdup("-");
    snprintf(buf, sizeof buf, fmt, a / b);
    return cpr_xstrdup(buf);
}

static char* fmt_pct10(uint32_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%u.%u%%", v / 10, v % 10);
    return cpr_xstrdup(buf);
}

static void csv_sep(FILE* f, const char* s)
{
    putc(',', f);
    cpr_csv_field(f, s);
}

/* the field index of name in list, -1 if absent */
static int fidx(const char* const* list, const char* name)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(list[i], name)) return i;
    return -1;
}

/* --- objects --- */

static const char* const ofields[] = {"accesses", "reads", "writes", "read-bytes", "write-bytes", "size", "blocks",
                                      "total-bytes", "alloc-pct", "prod-pct", "first", "last", "name", NULL};
static const char* const olabels[] = {"accesses", "reads", "writes", "bytes read", "bytes written", "size", "blocks",
                                      "bytes allocated", "Alloc%", "Prod%", "first access", "last access", "name"};

static double okey(const cpr_object* x, int k)
{
    switch (k) {
    case 0: return (double)x->reads + (double)x->writes;
    case 1: return (double)x->reads;
    case 2: return (double)x->writes;
    case 3: return (double)x->read_bytes;
    case 4: return (double)x->write_bytes;
    case 5: return (double)x->size;
    case 6: return (double)x->blocks;
    case 7: return (double)x->total_bytes;
    case 8: return x->has_pct ? (double)x->alloc_pct10 : -1.0;
    case 9: return x->has_pct ? (double)x->prod_pct10 : -1.0;
    case 10: return (double)x->first_access;
    case 11: return (double)x->last_access;
    default: return 0;
    }
}

static void object_path(cpr_buf* b, const cpr_object* x, const char* sep)
{
    for (size_t k = 0; k < x->nframes; k++) {
        const cpr_frame* fr = &x->frames[k];
        if (k) cpr_buf_puts(b, sep);
        cpr_buf_puts(b, fr->function);
        if (fr->file[0]) cpr_buf_printf(b, " %s:%u", fr->file, fr->line);
    }
}

static void table_objects(FILE* f, const cpr_profile* p, const sopts* o, int key, int csv)
{
    char lb[1200];
    srow* r = cpr_xmalloc((p->nobjects + 1) * sizeof *r);
    for (size_t i = 0; i < p->nobjects; i++) r[i] = (srow){i, okey(&p->objects[i], key), p->objects[i].name};
    int dir = key == 12 ? 0 : key == 10 || key == 11 ? -1 : 1;
    size_t n = sort_cut(r, p->nobjects, dir, key <= 7, o);
    if (csv) {
        fputs("id,kind,name,elf,size,blocks,total_bytes,peak_bytes,reads,read_bytes,writes,write_bytes,rw_ratio,"
              "written_bytes,prod_bytes,alloc_pct,prod_pct,thread,first_access,last_access,path\n",
              f);
        for (size_t k = 0; k < n; k++) {
            const cpr_object* x = &p->objects[r[k].i];
            fprintf(f, "%u,%s", x->id, cpr_object_kinds[x->kind]);
            csv_sep(f, x->name);
            csv_sep(f, x->elf);
            fprintf(f, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,", (unsigned long long)x->size,
                    (unsigned long long)x->blocks, (unsigned long long)x->total_bytes,
                    (unsigned long long)x->peak_bytes, (unsigned long long)x->reads,
                    (unsigned long long)x->read_bytes, (unsigned long long)x->writes,
                    (unsigned long long)x->write_bytes);
            if (x->writes) fprintf(f, "%.4f", (double)x->reads / (double)x->writes);
            if (x->has_pct)
                fprintf(f, ",%llu,%llu,%u.%u,%u.%u", (unsigned long long)x->written_bytes,
                        (unsigned long long)x->prod_bytes, x->alloc_pct10 / 10, x->alloc_pct10 % 10,
                        x->prod_pct10 / 10, x->prod_pct10 % 10);
            else
                fputs(",,,,", f);
            putc(',', f);
            if (x->has_thread) fprintf(f, "%u", x->thread);
            fprintf(f, ",%llu,%llu", (unsigned long long)x->first_access, (unsigned long long)x->last_access);
            cpr_buf b = {0};
            object_path(&b, x, ";");
            csv_sep(f, b.s ? b.s : "");
            cpr_buf_free(&b);
            putc('\n', f);
        }
        free(r);
        return;
    }
    title(f, o, n, p->nobjects, "Data objects by %s", olabels[key]);
    static const char* const head[] = {"reads", "writes", "R/W", "size", "blocks", "Alloc%",
                                       "Prod%", "first access", "last access", "kind", "object  [allocation path]"};
    table t;
    t_init(&t, 11, head);
    for (size_t k = 0; k < n; k++) {
        const cpr_object* x = &p->objects[r[k].i];
        char** row = t_row(&t);
        row[0] = num(x->reads);
        row[1] = num(x->writes);
        row[2] = fmt_ratio((double)x->reads, (double)x->writes, "%.2f");
        row[3] = num(x->size);
        row[4] = num(x->blocks);
        row[5] = x->has_pct ? fmt_pct10(x->alloc_pct10) : cpr_xstrdup("-");
        row[6] = x->has_pct ? fmt_pct10(x->prod_pct10) : cpr_xstrdup("-");
        row[7] = num(x->first_access);
        row[8] = num(x->last_access);
        row[9] = cpr_xstrdup(cpr_object_kinds[x->kind]);
        cpr_buf b = {0};
        cpr_buf_puts(&b, cpr_object_label(p, r[k].i, lb, sizeof lb));
        if (x->nframes) {
            cpr_buf_puts(&b, "  [");
            object_path(&b, x, " <- ");
            cpr_buf_puts(&b, "]");
        }
        row[10] = b.s;
    }
    t_print(f, &t);
    t_free(&t);
    free(r);
}

/* --- threads --- */

static const char* const thfields[] = {"instructions", "read", "in", "out", "id", "name", NULL};
static const char* const thlabels[] = {"instructions", "bytes read", "IN", "OUT", "id", "name"};

static double thkey(const cpr_thread* t, int k)
{
    switch (k) {
    case 0: return (double)t->instructions;
    case 1: return (double)t->bytes_read;
    case 2: return (double)t->in_bytes;
    case 3: return (double)t->out_bytes;
    case 4: return (double)t->id;
    default: return 0;
    }
}

/* per thread (index): the diagonal cell's bytes and the heaviest cell to /
 * from another thread */
typedef struct {
    uint64_t own;
    const cpr_cell *out, *in;
} thcells;

static thcells* thread_cells(const cpr_profile* p)
{
    thcells* t = cpr_xcalloc(p->nthreads + 1, sizeof *t);
    for (size_t i = 0; i < p->ncells; i++) {
        const cpr_cell* c = &p->cells[i];
        size_t a = cpr_thread_index(p, c->p), b = cpr_thread_index(p, c->c);
        if (a == (size_t)-1 || b == (size_t)-1) continue;
        if (a == b) t[a].own = c->bytes;
        else {
            if (!t[a].out || c->bytes > t[a].out->bytes) t[a].out = c;
            if (!t[b].in || c->bytes > t[b].in->bytes) t[b].in = c;
        }
    }
    return t;
}

static const cpr_cell* sort_cells;
static int cmp_cell(const void* a, const void* b)
{
    const cpr_cell *x = &sort_cells[*(const size_t*)a], *y = &sort_cells[*(const size_t*)b];
    if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
    if (x->p != y->p) return x->p < y->p ? -1 : 1;
    return x->c < y->c ? -1 : x->c > y->c;
}

static void table_threads(FILE* f, const cpr_profile* p, const sopts* o, int key, int csv)
{
    char b1[600], b2[600];
    srow* r = cpr_xmalloc((p->nthreads + 1) * sizeof *r);
    for (size_t i = 0; i < p->nthreads; i++) r[i] = (srow){i, thkey(&p->threads[i], key), p->threads[i].name};
    size_t n = sort_cut(r, p->nthreads, key == 5 ? 0 : key == 4 ? -1 : 1, key <= 3, o);
    thcells* tc = thread_cells(p);
    if (csv) {
        fputs("id,parent,name,instructions,bytes_read,in_bytes,out_bytes,own_bytes,top_consumer,top_consumer_bytes,"
              "top_producer,top_producer_bytes\n",
              f);
        for (size_t k = 0; k < n; k++) {
            const cpr_thread* t = &p->threads[r[k].i];
            uint64_t own = tc[r[k].i].own;
            const cpr_cell *co = tc[r[k].i].out, *ci = tc[r[k].i].in;
            fprintf(f, "%u,%u", t->id, t->parent);
            csv_sep(f, t->name);
            fprintf(f, ",%llu,%llu,%llu,%llu,%llu,", (unsigned long long)t->instructions,
                    (unsigned long long)t->bytes_read, (unsigned long long)t->in_bytes,
                    (unsigned long long)t->out_bytes, (unsigned long long)own);
            if (co) fprintf(f, "%u,%llu,", co->c, (unsigned long long)co->bytes);
            else fputs(",,", f);
            if (ci) fprintf(f, "%u,%llu\n", ci->p, (unsigned long long)ci->bytes);
            else fputs(",\n", f);
        }
        free(r);
        free(tc);
        return;
    }
    title(f, o, n, p->nthreads, "Threads by %s", thlabels[key]);
    static const char* const head[] = {"id", "parent", "instructions", "bytes read", "IN", "OUT", "own", "heaviest out",
                                       "thread"};
    table t;
    t_init(&t, 9, head);
    for (size_t k = 0; k < n; k++) {
        const cpr_thread* x = &p->threads[r[k].i];
        uint64_t own = tc[r[k].i].own;
        const cpr_cell* co = tc[r[k].i].out;
        char** row = t_row(&t);
        row[0] = num(x->id);
        row[1] = x->parent ? num(x->parent) : cpr_xstrdup("-");
        row[2] = num(x->instructions);
        row[3] = num(x->bytes_read);
        row[4] = num(x->in_bytes);
        row[5] = num(x->out_bytes);
        row[6] = num(own);
        cpr_buf b = {0};
        if (co) {
            char nb[32];
            cpr_buf_printf(&b, "%s -> %u", cpr_fmt_u64(nb, co->bytes), co->c);
        } else {
            cpr_buf_puts(&b, "-");
        }
        row[7] = b.s;
        row[8] = cpr_xstrdup(cpr_thread_label(p, x->id, b1, sizeof b1));
    }
    t_print(f, &t);
    t_free(&t);
    free(r);
    free(tc);
    /* the heaviest cells of the thread matrix */
    size_t* c = cpr_xmalloc((p->ncells + 1) * sizeof *c);
    uint64_t total = 0;
    for (size_t i = 0; i < p->ncells; i++) {
        c[i] = i;
        if (cpr_add_u64(total, p->cells[i].bytes, &total)) total = UINT64_MAX;
    }
    sort_cells = p->cells;
    qsort(c, p->ncells, sizeof *c, cmp_cell);
    size_t nc = p->ncells;
    if (o->top && nc > o->top) nc = o->top;
    rule(f);
    fprintf(f, "Thread matrix, heaviest cells (producer thread -> consumer thread): %zu of %zu shown\n", nc,
            p->ncells);
    rule(f);
    static const char* const ch[] = {"bytes", "%", "UnMA", "cell"};
    table u;
    t_init(&u, 4, ch);
    for (size_t k = 0; k < nc; k++) {
        const cpr_cell* x = &p->cells[c[k]];
        char** row = t_row(&u);
        row[0] = num(x->bytes);
        row[1] = cpr_fmt_pct((double)x->bytes, (double)total);
        row[2] = num(x->unma);
        cpr_buf b = {0};
        cpr_buf_printf(&b, "%s -> %s%s", cpr_thread_label(p, x->p, b1, sizeof b1),
                       cpr_thread_label(p, x->c, b2, sizeof b2), x->p == x->c ? " (within)" : "");
        row[3] = b.s;
    }
    t_print(f, &u);
    t_free(&u);
    free(c);
}

/* --- phases --- */

static const char* const phfields[] = {"index", "instructions", "bytes", "bandwidth", NULL};
static const char* const phlabels[] = {"index", "instructions", "bytes", "bandwidth"};

typedef struct {
    uint64_t length, within, cin, cout;
} phstat;

static phstat* phase_stats(const cpr_profile* p)
{
    phstat* st = cpr_xcalloc(p->nphases + 1, sizeof *st);
    for (size_t i = 0; i < p->nphases; i++) {
        /* until the next phase's start, the last one until the end of the run */
        uint64_t next = p->t_instructions;
        int found = 0;
        for (size_t j = 0; j < p->nphases; j++)
            if (p->phases[j].start > p->phases[i].start && (!found || p->phases[j].start < next)) {
                next = p->phases[j].start;
                found = 1;
            }
        st[i].length = next > p->phases[i].start ? next - p->phases[i].start : 0;
    }
    for (size_t k = 0; k < p->npedges; k++) {
        const cpr_pedge* e = &p->pedges[k];
        size_t a = cpr_idmap_find(&p->phasemap, e->pp), b = cpr_idmap_find(&p->phasemap, e->cp);
        uint64_t* d[3] = {NULL, NULL, NULL};
        if (a == b) d[0] = &st[a].within;
        else {
            d[1] = &st[b].cin;
            d[2] = &st[a].cout;
        }
        for (int j = 0; j < 3; j++)
            if (d[j] && cpr_add_u64(*d[j], e->bytes, d[j])) *d[j] = UINT64_MAX;
    }
    return st;
}

static double span_bytes(const cpr_span* s) { return (double)s->bytes_read + (double)s->bytes_written; }

static void span_functions(cpr_buf* b, const cpr_profile* p, const cpr_span* s, const char* sep)
{
    char nb[1200];
    for (size_t k = 0; k < s->nfuncs; k++) {
        if (k) cpr_buf_puts(b, sep);
        cpr_buf_puts(b, cpr_display_name(p, s->funcs[k], nb, sizeof nb));
    }
}

static const cpr_pedge* sort_pedges;
static int cmp_pedge(const void* a, const void* b)
{
    const cpr_pedge *x = &sort_pedges[*(const size_t*)a], *y = &sort_pedges[*(const size_t*)b];
    if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
    size_t i = *(const size_t*)a, j = *(const size_t*)b;
    return i < j ? -1 : i > j;
}

static void table_phases(FILE* f, const cpr_profile* p, const sopts* o, int key, int csv)
{
    char nb[1200], nb2[1200], pb[600], pb2[600];
    phstat* st = phase_stats(p);
    srow* r = cpr_xmalloc((p->nphases + 1) * sizeof *r);
    for (size_t i = 0; i < p->nphases; i++) {
        double k = key == 0 ? p->phases[i].id : key == 1 ? (double)st[i].length
                                              : key == 2 ? (double)st[i].within + (double)st[i].cin : 0;
        r[i] = (srow){i, k, NULL};
    }
    size_t n = sort_cut(r, p->nphases, key == 0 ? -1 : 1, key == 1 || key == 2, o);
    srow* q = cpr_xmalloc((p->nspans + 1) * sizeof *q);
    for (size_t i = 0; i < p->nspans; i++) {
        const cpr_span* s = &p->spans[i];
        double k = key == 0 ? (double)i : key == 1 ? (double)s->instructions
                                        : key == 2 ? span_bytes(s) : ratio(span_bytes(s), (double)s->instructions);
        q[i] = (srow){i, k, NULL};
    }
    size_t ns = sort_cut(q, p->nspans, key == 0 ? -1 : 1, key == 1 || key == 2, o);
    if (csv) {
        fputs("kind,index,name,start,length,first_slice,last_slice,instructions,bytes_read,bytes_written,in_bytes,"
              "within_bytes,cross_in_bytes,cross_out_bytes,bandwidth,functions\n",
              f);
        for (size_t k = 0; k < n; k++) {
            const cpr_phase* x = &p->phases[r[k].i];
            const phstat* s = &st[r[k].i];
            fprintf(f, "marked,%u", x->id);
            csv_sep(f, x->name);
            fprintf(f, ",%llu,%llu,,,,,,,%llu,%llu,%llu,,\n", (unsigned long long)x->start,
                    (unsigned long long)s->length, (unsigned long long)s->within, (unsigned long long)s->cin,
                    (unsigned long long)s->cout);
        }
        for (size_t k = 0; k < ns; k++) {
            const cpr_span* s = &p->spans[q[k].i];
            fprintf(f, "detected,%zu,,,,%u,%u,%llu,%llu,%llu,%llu,,,,", q[k].i + 1, s->first, s->last,
                    (unsigned long long)s->instructions, (unsigned long long)s->bytes_read,
                    (unsigned long long)s->bytes_written, (unsigned long long)s->in_bytes);
            if (s->instructions) fprintf(f, "%.4f", span_bytes(s) / (double)s->instructions);
            cpr_buf b = {0};
            span_functions(&b, p, s, ";");
            csv_sep(f, b.s ? b.s : "");
            cpr_buf_free(&b);
            putc('\n', f);
        }
        free(st);
        free(r);
        free(q);
        return;
    }
    if (p->has_phases) {
        title(f, o, n, p->nphases, "Marked phases (COMMPROF_PHASE) by %s", phlabels[key == 3 ? 0 : key]);
        static const char* const head[] = {"id", "start", "length", "within", "in from earlier", "out to later",
                                           "phase"};
        table t;
        t_init(&t, 7, head);
        for (size_t k = 0; k < n; k++) {
            const cpr_phase* x = &p->phases[r[k].i];
            const phstat* s = &st[r[k].i];
            char** row = t_row(&t);
            row[0] = num(x->id);
            row[1] = num(x->start);
            row[2] = num(s->length);
            row[3] = num(s->within);
            row[4] = num(s->cin);
            row[5] = num(s->cout);
            row[6] = cpr_xstrdup(x->name);
        }
        t_print(f, &t);
        t_free(&t);
        /* the heaviest edges that cross phases */
        size_t* e = cpr_xmalloc((p->npedges + 1) * sizeof *e);
        size_t ne = 0;
        uint64_t cross = 0;
        for (size_t k = 0; k < p->npedges; k++)
            if (p->pedges[k].pp != p->pedges[k].cp) {
                e[ne++] = k;
                if (cpr_add_u64(cross, p->pedges[k].bytes, &cross)) cross = UINT64_MAX;
            }
        sort_pedges = p->pedges;
        qsort(e, ne, sizeof *e, cmp_pedge);
        /* bytes are a counter: --threshold applies, as to the other tables */
        uint64_t* ev = cpr_xmalloc((ne + 1) * sizeof *ev);
        for (size_t k = 0; k < ne; k++) ev[k] = p->pedges[e[k]].bytes;
        size_t ke = cpr_cut_rows(ev, ne, o->threshold, o->top);
        free(ev);
        title(f, o, ke, ne, "Cross-phase edges (written in one phase, read in a later one)");
        static const char* const eh[] = {"bytes", "%", "UnMA", "edge [phase written -> phase read]"};
        table u;
        t_init(&u, 4, eh);
        for (size_t k = 0; k < ke; k++) {
            const cpr_pedge* x = &p->pedges[e[k]];
            char** row = t_row(&u);
            row[0] = num(x->bytes);
            row[1] = cpr_fmt_pct((double)x->bytes, (double)cross);
            row[2] = num(x->unma);
            cpr_buf b = {0};
            cpr_buf_printf(&b, "%s [%s] -> %s [%s]", cpr_display_name(p, x->p, nb, sizeof nb),
                           cpr_phase_label(p, x->pp, pb, sizeof pb), cpr_display_name(p, x->c, nb2, sizeof nb2),
                           cpr_phase_label(p, x->cp, pb2, sizeof pb2));
            row[3] = b.s;
        }
        t_print(f, &u);
        t_free(&u);
        free(e);
    }
    if (p->has_slices) {
        char sz[32];
        title(f, o, ns, p->nspans, "Detected phases (slices of %s instructions, active at %u%%) by %s",
              cpr_fmt_u64(sz, p->slice_size), p->phase_threshold, phlabels[key]);
        static const char* const head[] = {"phase", "slices", "instructions", "bytes read", "bytes written",
                                           "IN", "bytes/instr", "active functions"};
        table t;
        t_init(&t, 8, head);
        for (size_t k = 0; k < ns; k++) {
            const cpr_span* s = &p->spans[q[k].i];
            char** row = t_row(&t);
            char b[64];
            snprintf(b, sizeof b, "%zu", q[k].i + 1);
            row[0] = cpr_xstrdup(b);
            snprintf(b, sizeof b, "%u-%u", s->first, s->last);
            row[1] = cpr_xstrdup(b);
            row[2] = num(s->instructions);
            row[3] = num(s->bytes_read);
            row[4] = num(s->bytes_written);
            row[5] = num(s->in_bytes);
            row[6] = fmt_ratio(span_bytes(s), (double)s->instructions, "%.3f");
            cpr_buf fb = {0};
            span_functions(&fb, p, s, ", ");
            row[7] = fb.s ? fb.s : cpr_xstrdup("(none)");
        }
        t_print(f, &t);
        t_free(&t);
    }
    free(st);
    free(r);
    free(q);
}

/* --- memory-access profile --- */

static const char* const mfields[] = {"instructions", "mem", "mar", "non-stack-mar", "stack-ratio", "flow",
                                      "bytes-per-access", "bandwidth", "name", NULL};
static const char* const mlabels[] = {"instructions", "memory instructions", "MAR", "non-stack MAR", "stack ratio",
                                      "flow ratio", "bytes per access", "bytes per instruction", "name"};

static double macc(const cpr_func* x) { return (double)x->loads + (double)x->stores; }
static double mbytes(const cpr_func* x) { return (double)x->bytes_read + (double)x->bytes_written; }
static double mstack(const cpr_func* x) { return (double)x->stack_loads + (double)x->stack_stores; }

static double mkey(const cpr_func* x, int k)
{
    double in = (double)x->instructions;
    switch (k) {
    case 0: return in;
    case 1: return (double)x->mem_instructions;
    case 2: return ratio((double)x->mem_instructions, in);
    case 3: return ratio(macc(x) - mstack(x), in);
    case 4: return ratio(mstack(x), macc(x));
    case 5: return ratio((double)x->bytes_read - (double)x->bytes_written, mbytes(x));
    case 6: return ratio(mbytes(x), macc(x));
    case 7: return ratio(mbytes(x), in);
    default: return 0;
    }
}

static int any_objects(const cpr_profile* p)
{
    for (size_t i = 0; i < p->nfuncs; i++)
        if (p->funcs[i].has_objects) return 1;
    return 0;
}

static void table_maip(FILE* f, const cpr_profile* p, const sopts* o, int key, int csv)
{
    char loc[1200];
    srow* r = cpr_xmalloc((p->nfuncs + 1) * sizeof *r);
    size_t m = 0;
    for (size_t i = 0; i < p->nfuncs; i++)
        if (!(o->no_special && p->funcs[i].special)) r[m++] = (srow){i, mkey(&p->funcs[i], key), p->funcs[i].name};
    size_t n = sort_cut(r, m, key == 8 ? 0 : 1, key <= 1, o);
    int objs = any_objects(p);
    if (csv) {
        fputs("id,kind,name,object,file,instructions,mem_instructions,loads,stores,stack_loads,stack_stores,"
              "bytes_read,bytes_written,stack_bytes_read,stack_bytes_written,heap_bytes_read,heap_bytes_written,"
              "global_bytes_read,global_bytes_written,mar,non_stack_mar,stack_ratio,flow_ratio,in_ratio,"
              "bytes_per_access,bandwidth\n",
              f);
        for (size_t k = 0; k < n; k++) {
            const cpr_func* x = &p->funcs[r[k].i];
            fprintf(f, "%u,%s", x->id, cpr_kind_name(x->kind));
            csv_sep(f, x->name);
            csv_sep(f, x->object);
            csv_sep(f, x->file);
            fprintf(f, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu", (unsigned long long)x->instructions,
                    (unsigned long long)x->mem_instructions, (unsigned long long)x->loads,
                    (unsigned long long)x->stores, (unsigned long long)x->stack_loads,
                    (unsigned long long)x->stack_stores, (unsigned long long)x->bytes_read,
                    (unsigned long long)x->bytes_written, (unsigned long long)x->stack_bytes_read,
                    (unsigned long long)x->stack_bytes_written);
            if (x->has_objects)
                fprintf(f, ",%llu,%llu,%llu,%llu", (unsigned long long)x->heap_bytes_read,
                        (unsigned long long)x->heap_bytes_written, (unsigned long long)x->global_bytes_read,
                        (unsigned long long)x->global_bytes_written);
            else
                fputs(",,,,", f);
            double den[] = {(double)x->instructions, (double)x->instructions, macc(x), mbytes(x),
                            (double)x->bytes_read, macc(x), (double)x->instructions};
            double nu[] = {(double)x->mem_instructions, macc(x) - mstack(x), mstack(x),
                           (double)x->bytes_read - (double)x->bytes_written, (double)x->in_bytes, mbytes(x),
                           mbytes(x)};
            for (int j = 0; j < 7; j++) {
                putc(',', f);
                if (den[j] > 0) fprintf(f, "%.4f", nu[j] / den[j]);
            }
            putc('\n', f);
        }
        free(r);
        return;
    }
    title(f, o, n, m, "Memory-access profile (MAIP) by %s", mlabels[key]);
    static const char* const head[] = {"instructions", "mem instr", "MAR", "non-stack MAR", "stack", "flow", "IN/read",
                                       "B/access", "B/instr", "heap", "global", "stack B", "other", "function"};
    static const char* const head_no[] = {"instructions", "mem instr", "MAR", "non-stack MAR", "stack", "flow",
                                          "IN/read", "B/access", "B/instr", "function"};
    size_t nc = objs ? 14 : 10;
    table t;
    t_init(&t, nc, objs ? head : head_no);
    for (size_t k = 0; k < n; k++) {
        const cpr_func* x = &p->funcs[r[k].i];
        char** row = t_row(&t);
        row[0] = num(x->instructions);
        row[1] = num(x->mem_instructions);
        row[2] = fmt_ratio((double)x->mem_instructions, (double)x->instructions, "%.3f");
        row[3] = fmt_ratio(macc(x) - mstack(x), (double)x->instructions, "%.3f");
        row[4] = cpr_fmt_pct(mstack(x), macc(x));
        row[5] = fmt_ratio((double)x->bytes_read - (double)x->bytes_written, mbytes(x), "%+.3f");
        row[6] = cpr_fmt_pct((double)x->in_bytes, (double)x->bytes_read);
        row[7] = fmt_ratio(mbytes(x), macc(x), "%.2f");
        row[8] = fmt_ratio(mbytes(x), (double)x->instructions, "%.3f");
        size_t c = 9;
        if (objs) {
            if (x->has_objects) {
                double h = (double)x->heap_bytes_read + (double)x->heap_bytes_written;
                double g = (double)x->global_bytes_read + (double)x->global_bytes_written;
                double s = (double)x->stack_bytes_read + (double)x->stack_bytes_written;
                double other = mbytes(x) - h - g - s;
                row[9] = cpr_fmt_pct(h, mbytes(x));
                row[10] = cpr_fmt_pct(g, mbytes(x));
                row[11] = cpr_fmt_pct(s, mbytes(x));
                row[12] = cpr_fmt_pct(other > 0 ? other : 0, mbytes(x));
            } else {
                for (int j = 9; j < 13; j++) row[j] = cpr_xstrdup("-");
            }
            c = 13;
        }
        cpr_location(x, loc, sizeof loc);
        cpr_buf b = {0};
        cpr_buf_puts(&b, x->name);
        if (loc[0]) cpr_buf_printf(&b, "  %s", loc);
        row[c] = b.s;
    }
    t_print(f, &t);
    t_free(&t);
    free(r);
}

/* --- per-call records --- */

static const char* const cfields[] = {"count", "seq", "consumed", "function", NULL};
static const char* const clabels[] = {"count", "first call", "bytes consumed", "function"};

static uint64_t call_consumed(const cpr_call* c)
{
    uint64_t s = 0;
    for (size_t k = 0; k < c->nconsumed; k++)
        if (cpr_add_u64(s, c->consumed[k].bytes, &s)) return UINT64_MAX;
    return s;
}

static void call_path(cpr_buf* b, const cpr_profile* p, const cpr_call* c, const char* sep)
{
    char nb[1200];
    for (size_t k = 0; k < c->ncallers; k++) {
        if (k) cpr_buf_puts(b, sep);
        cpr_buf_puts(b, cpr_display_name(p, c->callers[k], nb, sizeof nb));
    }
}

static void table_calls(FILE* f, const cpr_profile* p, const sopts* o, int key, int csv)
{
    char nb[1200], ob[1200], n1[32], n2[32], n3[32];
    srow* r = cpr_xmalloc((p->ncalls + 1) * sizeof *r);
    for (size_t i = 0; i < p->ncalls; i++) {
        const cpr_call* c = &p->calls[i];
        double k = key == 0 ? (double)c->count : key == 1 ? (double)c->first_seq : (double)call_consumed(c);
        r[i] = (srow){i, k, p->funcs[c->f].name};
    }
    size_t n = sort_cut(r, p->ncalls, key == 3 ? 0 : key == 1 ? -1 : 1, key == 0 || key == 2, o);
    if (csv) {
        fputs("function,first_seq,last_seq,count,consumed_bytes,path,consumed,objects\n", f);
        for (size_t k = 0; k < n; k++) {
            const cpr_call* c = &p->calls[r[k].i];
            cpr_csv_field(f, cpr_display_name(p, c->f, nb, sizeof nb));
            fprintf(f, ",%llu,%llu,%llu,%llu", (unsigned long long)c->first_seq, (unsigned long long)c->last_seq,
                    (unsigned long long)c->count, (unsigned long long)call_consumed(c));
            cpr_buf b = {0};
            call_path(&b, p, c, ";");
            csv_sep(f, b.s ? b.s : "");
            b.len = 0;
            if (b.s) b.s[0] = '\0';
            for (size_t j = 0; j < c->nconsumed; j++)
                cpr_buf_printf(&b, "%s%s:%llu", j ? ";" : "", cpr_display_name(p, c->consumed[j].p, nb, sizeof nb),
                               (unsigned long long)c->consumed[j].bytes);
            csv_sep(f, b.s ? b.s : "");
            b.len = 0;
            if (b.s) b.s[0] = '\0';
            for (size_t j = 0; j < c->nobjects; j++) {
                const cpr_callobj* x = &c->objects[j];
                cpr_buf_printf(&b, "%s%s:%llu:%llu:%llu:%u.%03u", j ? ";" : "",
                               cpr_object_label(p, x->o, ob, sizeof ob), (unsigned long long)x->read_bytes,
                               (unsigned long long)x->written_bytes, (unsigned long long)x->accesses,
                               x->locality / 1000, x->locality % 1000);
            }
            csv_sep(f, b.s ? b.s : "");
            cpr_buf_free(&b);
            putc('\n', f);
        }
        free(r);
        return;
    }
    title(f, o, n, p->ncalls, "Per-call records by %s (%llu calls dropped)", clabels[key],
          (unsigned long long)p->calls_dropped);
    static const char* const head[] = {"count", "calls (seq)", "consumed", "call  <- callers; producers; objects"};
    table t;
    t_init(&t, 4, head);
    for (size_t k = 0; k < n; k++) {
        const cpr_call* c = &p->calls[r[k].i];
        char** row = t_row(&t);
        row[0] = num(c->count);
        cpr_buf b = {0};
        if (c->first_seq == c->last_seq)
            cpr_buf_puts(&b, cpr_fmt_u64(n1, c->first_seq));
        else
            cpr_buf_printf(&b, "%s-%s", cpr_fmt_u64(n1, c->first_seq), cpr_fmt_u64(n2, c->last_seq));
        row[1] = b.s;
        row[2] = num(call_consumed(c));
        cpr_buf l = {0};
        cpr_buf_puts(&l, cpr_display_name(p, c->f, nb, sizeof nb));
        if (c->ncallers) {
            cpr_buf_puts(&l, " <- ");
            call_path(&l, p, c, " <- ");
        }
        row[3] = l.s;
        if (c->nconsumed) {
            row = t_row(&t);
            cpr_buf x = {0};
            cpr_buf_puts(&x, "  from: ");
            for (size_t j = 0; j < c->nconsumed; j++)
                cpr_buf_printf(&x, "%s%s %s", j ? ", " : "", cpr_display_name(p, c->consumed[j].p, nb, sizeof nb),
                               cpr_fmt_u64(n1, c->consumed[j].bytes));
            row[3] = x.s;
        }
        for (size_t j = 0; j < c->nobjects; j++) {
            const cpr_callobj* x = &c->objects[j];
            row = t_row(&t);
            cpr_buf y = {0};
            cpr_buf_printf(&y, "  object %s: read %s, written %s, %s accesses, locality %u.%03u",
                           cpr_object_label(p, x->o, ob, sizeof ob), cpr_fmt_u64(n1, x->read_bytes),
                           cpr_fmt_u64(n2, x->written_bytes), cpr_fmt_u64(n3, x->accesses), x->locality / 1000,
                           x->locality % 1000);
            row[3] = y.s;
        }
    }
    t_print(f, &t);
    t_free(&t);
    free(r);
}

static void summary_help(void)
{
    printf("Usage: %s [summary] [OPTIONS] PROFILE.xml\n"
           "\n"
           "Ranked tables in the style of callgrind_annotate: a header with the run and\n"
           "its totals, the heaviest edges (producer -> consumer: bytes, share of all\n"
           "communicated bytes, UnMA, accesses, first-read bytes with --first-read=yes)\n"
           "and the functions with IN, IN UnMA, OUT, OUT UnMA (as in the QUAD thesis),\n"
           "self bytes, instructions and calls; then the tables of the other sections\n"
           "the profile has.\n"
           "\n"
           "  --table=TABLE       edges, functions, objects, threads, phases, maip, calls\n"
           "                      or all [all; functions with --csv].  all: edges and\n"
           "                      functions, then objects, threads (more than one),\n"
           "                      phases and calls when the profile has them\n"
           "      objects    data objects (--objects=yes), as in MCProf: reads, writes,\n"
           "                 read/write ratio, size, blocks, Alloc%%, Prod%%, first and\n"
           "                 last access (instructions before it), the allocation path\n"
           "      threads    id, parent, instructions, bytes read, IN, OUT, bytes read\n"
           "                 within the thread, its heaviest consumer thread; then the\n"
           "                 heaviest cells of the thread matrix\n"
           "      phases     COMMPROF_PHASE phases: start, length, bytes within the\n"
           "                 phase, from and to other phases, the heaviest cross-phase\n"
           "                 edges; and the phases detected in the time slices\n"
           "                 (--time-slice): slices, instructions, bytes, IN, bandwidth\n"
           "                 (bytes read + written per instruction), active functions\n"
           "      maip       memory-access profile per function: MAR = mem-instructions\n"
           "                 / instructions, non-stack MAR = (loads + stores - stack\n"
           "                 accesses) / instructions, stack share of the accesses, flow\n"
           "                 = (read - written) / (read + written) bytes, IN/read =\n"
           "                 in-bytes / bytes-read, bytes per access, bytes per\n"
           "                 instruction, and with --objects=yes the shares of the bytes\n"
           "                 in heap, globals, stack and elsewhere\n"
           "      calls      per-call records (--per-call=yes): count, sequence numbers,\n"
           "                 bytes consumed, the call path, the producers, and with\n"
           "                 --objects=yes the objects with their locality\n"
           "  --sort=FIELD        sort key, largest first (names: alphabetical; first and\n"
           "                      last access, the phase index and seq: ascending)\n"
           "                      edges:     bytes (default), unma, accesses, first-read,\n"
           "                                 producer, consumer\n"
           "                      functions: in (default), in-unma, out, out-unma, self,\n"
           "                                 self-unma, instructions, calls, read, written, name\n"
           "                      objects:   accesses (default), reads, writes, read-bytes,\n"
           "                                 write-bytes, size, blocks, total-bytes,\n"
           "                                 alloc-pct, prod-pct, first, last, name\n"
           "                      threads:   instructions (default), read, in, out, id, name\n"
           "                      phases:    index (default), instructions, bytes, bandwidth\n"
           "                      maip:      instructions (default), mem, mar, non-stack-mar,\n"
           "                                 stack-ratio, flow, bytes-per-access, bandwidth,\n"
           "                                 name\n"
           "                      calls:     count (default), seq, consumed, function\n"
           "                      with --table=all the field sorts the tables that have it\n"
           "  --threshold=PCT     show rows until they add up to PCT%% of the sort field's\n"
           "                      total, like callgrind_annotate (counters only, not\n"
           "                      ratios or names; the cross-phase edges by bytes)\n"
           "                      [99; 100 with --csv]\n"
           "  --top=N             at most N rows per table, 0 = no limit [20; 0 with --csv]\n"
           "  --no-special        leave out the special nodes ((unwritten), (syscall ...))\n"
           "                      and their edges\n"
           "  --csv               CSV of one table (raw numbers, RFC 4180 quoting)\n"
           "  -o, --output=FILE   write to FILE instead of standard output\n"
           "  -h, --help          this help\n"
           "\n"
           "Numbers have thousands separators in text mode and none in CSV.  A table\n"
           "asked for by name whose section the profile lacks is an error (exit 2).\n",
           CPR_PROG);
}

static void edges_csv(FILE* f, const cpr_profile* p, const size_t* rows, size_t n)
{
    fputs("producer,producer_file,producer_object,consumer,consumer_file,consumer_object,bytes,unma,accesses", f);
    fputs(p->has_first_read ? ",first_read\n" : "\n", f);
    for (size_t r = 0; r < n; r++) {
        const cpr_edge* e = &p->edges[rows[r]];
        const cpr_func *a = &p->funcs[e->p], *b = &p->funcs[e->c];
        cpr_csv_field(f, a->name);
        putc(',', f);
        cpr_csv_field(f, a->file);
        putc(',', f);
        cpr_csv_field(f, a->object);
        putc(',', f);
        cpr_csv_field(f, b->name);
        putc(',', f);
        cpr_csv_field(f, b->file);
        putc(',', f);
        cpr_csv_field(f, b->object);
        fprintf(f, ",%llu,%llu,%llu", (unsigned long long)e->bytes, (unsigned long long)e->unma,
                (unsigned long long)e->accesses);
        if (p->has_first_read) fprintf(f, ",%llu", (unsigned long long)e->first_read);
        putc('\n', f);
    }
}

static void funcs_csv(FILE* f, const cpr_profile* p, const size_t* rows, size_t n)
{
    fputs("id,kind,name,object,file,line,instructions,calls,bytes_read,bytes_written,in,in_unma,out,out_unma,"
          "self,self_unma\n",
          f);
    for (size_t r = 0; r < n; r++) {
        const cpr_func* x = &p->funcs[rows[r]];
        fprintf(f, "%u,%s,", x->id, cpr_kind_name(x->kind));
        cpr_csv_field(f, x->name);
        putc(',', f);
        cpr_csv_field(f, x->object);
        putc(',', f);
        cpr_csv_field(f, x->file);
        fprintf(f, ",%u,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n", x->line,
                (unsigned long long)x->instructions, (unsigned long long)x->calls,
                (unsigned long long)x->bytes_read, (unsigned long long)x->bytes_written,
                (unsigned long long)x->in_bytes, (unsigned long long)x->in_unma, (unsigned long long)x->out_bytes,
                (unsigned long long)x->out_unma, (unsigned long long)x->self_bytes,
                (unsigned long long)x->self_unma);
    }
}

static void edges_text(FILE* f, const cpr_profile* p, const size_t* rows, size_t n, size_t total_rows,
                       const char* sortname, const sopts* o)
{
    char nm1[1200], nm2[1200];
    rule(f);
    fprintf(f, "Edges (producer -> consumer) by %s: %zu of %zu shown", sortname, n, total_rows);
    if (o->threshold < 100) fprintf(f, ", threshold %g%%", o->threshold);
    if (o->top) fprintf(f, ", top %zu", o->top);
    fputc('\n', f);
    rule(f);
    static const char* const head[] = {"bytes", "%", "UnMA", "accesses", "edge"};
    static const char* const head_fr[] = {"bytes", "%", "UnMA", "accesses", "first-read", "edge"};
    int fr = p->has_first_read;
    table t;
    t_init(&t, fr ? 6 : 5, fr ? head_fr : head);
    for (size_t r = 0; r < n; r++) {
        const cpr_edge* e = &p->edges[rows[r]];
        char** row = t_row(&t);
        row[0] = num(e->bytes);
        row[1] = cpr_fmt_pct((double)e->bytes, (double)p->t_comm_bytes);
        row[2] = num(e->unma);
        row[3] = num(e->accesses);
        if (fr) row[4] = num(e->first_read);
        cpr_buf b = {0};
        cpr_buf_printf(&b, "%s -> %s", cpr_display_name(p, e->p, nm1, sizeof nm1),
                       cpr_display_name(p, e->c, nm2, sizeof nm2));
        row[fr ? 5 : 4] = b.s ? b.s : cpr_xstrdup("");
    }
    t_print(f, &t);
    t_free(&t);
}

static void funcs_text(FILE* f, const cpr_profile* p, const size_t* rows, size_t n, size_t total_rows,
                       const char* sortname, const sopts* o)
{
    char loc[1200];
    rule(f);
    fprintf(f, "Functions by %s: %zu of %zu shown", sortname, n, total_rows);
    if (o->threshold < 100) fprintf(f, ", threshold %g%%", o->threshold);
    if (o->top) fprintf(f, ", top %zu", o->top);
    fputc('\n', f);
    rule(f);
    static const char* const head[] = {"IN", "IN UnMA", "OUT", "OUT UnMA", "self", "instructions", "calls",
                                       "function"};
    table t;
    t_init(&t, 8, head);
    for (size_t r = 0; r < n; r++) {
        const cpr_func* x = &p->funcs[rows[r]];
        char** row = t_row(&t);
        row[0] = num(x->in_bytes);
        row[1] = num(x->in_unma);
        row[2] = num(x->out_bytes);
        row[3] = num(x->out_unma);
        row[4] = num(x->self_bytes);
        row[5] = num(x->instructions);
        row[6] = num(x->calls);
        cpr_location(x, loc, sizeof loc);
        cpr_buf b = {0};
        cpr_buf_puts(&b, x->name);
        if (loc[0]) cpr_buf_printf(&b, "  %s", loc);
        row[7] = b.s;
    }
    t_print(f, &t);
    t_free(&t);
}

/* the field lists of the tables (edges and functions above) */
static const char* const* const tfields[T_N] = {NULL, NULL, NULL, ofields, thfields, phfields, mfields, cfields};

/* is the section of table t in p?  (for --table=all: threads only if more than one) */
static int has_table(const cpr_profile* p, int t, int all)
{
    switch (t) {
    case T_OBJECTS: return p->has_objects;
    case T_THREADS: return all ? p->nthreads > 1 : 1;
    case T_PHASES: return p->has_phases || p->has_slices;
    case T_CALLS: return p->has_calls;
    default: return 1;
    }
}

static const char* const missing_what[T_N] = {
    "", "", "", "no <objects> (profile with --objects=yes)", "", "no phases (COMMPROF_PHASE) and no time slices (--time-slice=N)",
    "", "no <calls> (profile with --per-call=yes)"};

int cpr_cmd_summary(int argc, char** argv)
{
    static const struct option lo[] = {
        {"help", no_argument, 0, 'h'},        {"output", required_argument, 0, 'o'},
        {"sort", required_argument, 0, 's'},  {"threshold", required_argument, 0, 't'},
        {"top", required_argument, 0, 'n'},   {"csv", no_argument, 0, 'c'},
        {"table", required_argument, 0, 'T'}, {"no-special", no_argument, 0, 'S'},
        {0, 0, 0, 0}};
    sopts o = {0};
    o.threshold = 99;
    o.top = 20;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:", lo, NULL)) != -1) {
        switch (c) {
        case 'h': summary_help(); return CPR_OK;
        case 'o': o.output = optarg; break;
        case 's': o.sort = optarg; break;
        case 't':
            if (cpr_opt_pct("summary", "threshold", optarg, &o.threshold)) return CPR_EUSAGE;
            o.threshold_set = 1;
            break;
        case 'n':
            if (cpr_opt_count("summary", "top", optarg, &o.top)) return CPR_EUSAGE;
            o.top_set = 1;
            break;
        case 'c': o.csv = 1; break;
        case 'S': o.no_special = 1; break;
        case 'T': {
            int k = -1;
            for (int i = 0; i < T_N; i++)
                if (!strcmp(optarg, tnames[i])) k = i;
            if (k < 0)
                return cpr_usage_error("summary",
                                       "--table=%s: expected edges, functions, objects, threads, phases, maip, "
                                       "calls or all",
                                       optarg);
            o.table = k;
            o.table_set = 1;
            break;
        }
        default: return cpr_opt_error("summary", c, optopt, argv, optind);
        }
    }
    if (optind >= argc) return cpr_usage_error("summary", "no profile given");
    if (argc - optind > 1) return cpr_usage_error("summary", "one profile at a time (got %d)", argc - optind);
    if (o.csv) {
        if (o.table_set && o.table == T_ALL)
            return cpr_usage_error("summary", "--csv writes one table: use --table=edges, functions, objects, ...");
        if (!o.table_set) o.table = T_FUNCTIONS;
        if (!o.threshold_set) o.threshold = 100;
        if (!o.top_set) o.top = 0;
    }
    int fkey = F_IN, ekey = E_BYTES;
    int tkey[T_N] = {0};
    if (o.sort) {
        int fi = field_index(ffields, sizeof ffields / sizeof *ffields, o.sort);
        int ei = field_index(efields, sizeof efields / sizeof *efields, o.sort);
        int found = (o.table == T_ALL || o.table == T_FUNCTIONS) ? fi >= 0 : 0;
        found |= (o.table == T_ALL || o.table == T_EDGES) ? ei >= 0 : 0;
        for (int t = T_OBJECTS; t < T_N; t++) {
            int k = fidx(tfields[t], o.sort);
            if (k >= 0) tkey[t] = k;
            if (k >= 0 && (o.table == T_ALL || o.table == t)) found = 1;
        }
        if (!found)
            return cpr_usage_error("summary", "--sort=%s: not a field of the %s table", o.sort,
                                   o.table == T_ALL ? "edges, functions or any other" : tnames[o.table]);
        if (fi >= 0) fkey = fi;
        if (ei >= 0) ekey = ei;
    }

    cpr_error err = {0};
    cpr_profile* p;
    if (cpr_load(argv[optind], &p, &err)) {
        cpr_print_error(&err);
        return CPR_EINPUT;
    }
    if (o.sort && ekey == E_FIRST_READ && (o.table == T_ALL || o.table == T_EDGES) && !p->has_first_read) {
        cpr_seterr(&err, p->path, 0, "--sort=first-read: this profile has no first-read bytes "
                                     "(it was made without --first-read=yes)");
        cpr_print_error(&err);
        cpr_profile_free(p);
        return CPR_EINPUT;
    }
    if (o.table >= T_OBJECTS && !has_table(p, o.table, 0)) {
        cpr_seterr(&err, p->path, 0, "--table=%s: this profile has %s", tnames[o.table], missing_what[o.table]);
        cpr_print_error(&err);
        cpr_profile_free(p);
        return CPR_EINPUT;
    }
    FILE* f = cpr_open_output(o.output, &err);
    if (!f) {
        cpr_profile_free(p);
        cpr_print_error(&err);
        return CPR_EINPUT;
    }

    /* rows */
    size_t nf = 0, ne = 0;
    size_t* fr = cpr_xmalloc((p->nfuncs + 1) * sizeof *fr);
    size_t* er = cpr_xmalloc((p->nedges + 1) * sizeof *er);
    for (size_t i = 0; i < p->nfuncs; i++)
        if (!(o.no_special && p->funcs[i].special)) fr[nf++] = i;
    for (size_t i = 0; i < p->nedges; i++)
        if (!(o.no_special && (p->funcs[p->edges[i].p].special || p->funcs[p->edges[i].c].special))) er[ne++] = i;
    sp = p;
    skey = fkey;
    qsort(fr, nf, sizeof *fr, cmp_funcs);
    skey = ekey;
    qsort(er, ne, sizeof *er, cmp_edges);
    uint64_t* vals = cpr_xmalloc((nf > ne ? nf : ne) * sizeof *vals + 1);
    for (size_t i = 0; i < ne; i++) vals[i] = evalue(&p->edges[er[i]], ekey);
    size_t ke = cpr_cut_rows(vals, ne, ekey <= E_FIRST_READ ? o.threshold : 100, o.top);
    for (size_t i = 0; i < nf; i++) vals[i] = fvalue(&p->funcs[fr[i]], fkey);
    size_t kf = cpr_cut_rows(vals, nf, fkey != F_NAME ? o.threshold : 100, o.top);
    free(vals);

    typedef void (*tablefn)(FILE*, const cpr_profile*, const sopts*, int, int);
    static const tablefn fns[T_N] = {NULL, NULL, NULL, table_objects, table_threads, table_phases, table_maip,
                                     table_calls};
    if (o.csv) {
        if (o.table == T_EDGES)
            edges_csv(f, p, er, ke);
        else if (o.table == T_FUNCTIONS)
            funcs_csv(f, p, fr, kf);
        else
            fns[o.table](f, p, &o, tkey[o.table], 1);
    } else {
        rule(f);
        cpr_print_header(f, p);
        if (o.table == T_ALL || o.table == T_EDGES) edges_text(f, p, er, ke, ne, elabels[ekey], &o);
        if (o.table == T_ALL || o.table == T_FUNCTIONS) funcs_text(f, p, fr, kf, nf, flabels[fkey], &o);
        for (int t = T_OBJECTS; t < T_N; t++)
            if ((o.table == t || (o.table == T_ALL && t != T_MAIP && has_table(p, t, 1))))
                fns[t](f, p, &o, tkey[t], 0);
    }
    free(fr);
    free(er);
    cpr_profile_free(p);
    if (cpr_close_output(f, o.output, &err)) {
        cpr_print_error(&err);
        return CPR_EINPUT;
    }
    return CPR_OK;
}
