/* commprof-report summary: ranked tables in the style of callgrind_annotate.
 *
 * A header with the run and its totals, then the heaviest edges (producer ->
 * consumer, bytes, %, UnMA, accesses) and the per-function table of the QUAD
 * thesis (IN, IN UnMA, OUT, OUT UnMA) with self bytes, instructions and
 * calls.  --csv writes one of the tables as CSV instead. */

#include "cpr.h"

#include <getopt.h>
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
enum { E_BYTES, E_UNMA, E_ACCESSES, E_PRODUCER, E_CONSUMER };
static const char* const elabels[] = {"bytes", "UnMA", "accesses", "producer", "consumer"};
static const char* const efields[] = {"bytes", "unma", "accesses", "producer", "consumer"};

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

/* How many of the sorted rows to show: cumulative threshold on the sort
 * field (rows with 0 are cut when it is below 100), then at most top. */
static size_t cut_rows(const uint64_t* vals, size_t n, int numeric, double threshold, size_t top)
{
    size_t k = n;
    if (numeric && threshold < 100) {
        long double total = 0, cum = 0;
        for (size_t i = 0; i < n; i++) total += vals[i];
        long double lim = total * (long double)threshold / 100;
        k = 0;
        while (k < n && vals[k] > 0 && cum < lim) cum += vals[k++];
    }
    if (top && k > top) k = top;
    return k;
}

typedef struct {
    const char* output;
    const char* sort;
    double threshold;
    int threshold_set;
    size_t top;
    int top_set;
    int csv;
    int table; /* 0 all, 1 edges, 2 functions */
    int table_set;
    int no_special;
} sopts;

static void summary_help(void)
{
    printf("Usage: %s [summary] [OPTIONS] PROFILE.xml\n"
           "\n"
           "Ranked tables in the style of callgrind_annotate: a header with the run and\n"
           "its totals, the heaviest edges (producer -> consumer: bytes, share of all\n"
           "communicated bytes, UnMA, accesses) and the functions with IN, IN UnMA,\n"
           "OUT, OUT UnMA (as in the QUAD thesis), self bytes, instructions and calls.\n"
           "\n"
           "  --table=edges|functions|all   which table(s) [all; functions with --csv]\n"
           "  --sort=FIELD        sort key, largest first (names: alphabetical)\n"
           "                      edges:     bytes (default), unma, accesses, producer, consumer\n"
           "                      functions: in (default), in-unma, out, out-unma, self,\n"
           "                                 self-unma, instructions, calls, read, written, name\n"
           "                      with --table=all the field sorts the table that has it\n"
           "  --threshold=PCT     show rows until they add up to PCT%% of the sort field's\n"
           "                      total, like callgrind_annotate [99; 100 with --csv]\n"
           "  --top=N             at most N rows per table, 0 = no limit [20; 0 with --csv]\n"
           "  --no-special        leave out the special nodes ((unwritten), (syscall ...))\n"
           "                      and their edges\n"
           "  --csv               CSV of one table (raw numbers, RFC 4180 quoting)\n"
           "  -o, --output=FILE   write to FILE instead of standard output\n"
           "  -h, --help          this help\n"
           "\n"
           "Numbers have thousands separators in text mode and none in CSV.\n",
           CPR_PROG);
}

static void edges_csv(FILE* f, const cpr_profile* p, const size_t* rows, size_t n)
{
    fputs("producer,producer_file,producer_object,consumer,consumer_file,consumer_object,bytes,unma,accesses\n", f);
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
        fprintf(f, ",%llu,%llu,%llu\n", (unsigned long long)e->bytes, (unsigned long long)e->unma,
                (unsigned long long)e->accesses);
    }
}

static void funcs_csv(FILE* f, const cpr_profile* p, const size_t* rows, size_t n)
{
    fputs("id,kind,name,object,file,line,instructions,calls,bytes_read,bytes_written,in,in_unma,out,out_unma,"
          "self,self_unma\n",
          f);
    for (size_t r = 0; r < n; r++) {
        const cpr_func* x = &p->funcs[rows[r]];
        fprintf(f, "%u,%s,", x->id, x->special ? "special" : "function");
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
    char a[32], nm1[1200], nm2[1200];
    rule(f);
    fprintf(f, "Edges (producer -> consumer) by %s: %zu of %zu shown", sortname, n, total_rows);
    if (o->threshold < 100) fprintf(f, ", threshold %g%%", o->threshold);
    if (o->top) fprintf(f, ", top %zu", o->top);
    fputc('\n', f);
    rule(f);
    static const char* const head[] = {"bytes", "%", "UnMA", "accesses", "edge"};
    table t;
    t_init(&t, 5, head);
    for (size_t r = 0; r < n; r++) {
        const cpr_edge* e = &p->edges[rows[r]];
        char** row = t_row(&t);
        row[0] = num(e->bytes);
        row[1] = cpr_xstrdup(cpr_fmt_pct(a, (double)e->bytes, (double)p->t_comm_bytes));
        row[2] = num(e->unma);
        row[3] = num(e->accesses);
        cpr_buf b = {0};
        cpr_buf_printf(&b, "%s -> %s", cpr_display_name(p, e->p, nm1, sizeof nm1),
                       cpr_display_name(p, e->c, nm2, sizeof nm2));
        row[4] = b.s ? b.s : cpr_xstrdup("");
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
        case 'T':
            if (!strcmp(optarg, "all")) o.table = 0;
            else if (!strcmp(optarg, "edges")) o.table = 1;
            else if (!strcmp(optarg, "functions")) o.table = 2;
            else return cpr_usage_error("summary", "--table=%s: expected edges, functions or all", optarg);
            o.table_set = 1;
            break;
        default: return cpr_opt_error("summary", c, optopt, argv, optind);
        }
    }
    if (optind >= argc) return cpr_usage_error("summary", "no profile given");
    if (argc - optind > 1) return cpr_usage_error("summary", "one profile at a time (got %d)", argc - optind);
    if (o.csv) {
        if (o.table_set && o.table == 0)
            return cpr_usage_error("summary", "--csv writes one table: use --table=edges or --table=functions");
        if (!o.table_set) o.table = 2;
        if (!o.threshold_set) o.threshold = 100;
        if (!o.top_set) o.top = 0;
    }
    int fkey = F_IN, ekey = E_BYTES;
    if (o.sort) {
        int fi = field_index(ffields, sizeof ffields / sizeof *ffields, o.sort);
        int ei = field_index(efields, sizeof efields / sizeof *efields, o.sort);
        if ((o.table == 1 && ei < 0) || (o.table == 2 && fi < 0) || (fi < 0 && ei < 0))
            return cpr_usage_error("summary", "--sort=%s: not a field of the %s table", o.sort,
                                   o.table == 1 ? "edges" : o.table == 2 ? "functions" : "edges or functions");
        if (fi >= 0) fkey = fi;
        if (ei >= 0) ekey = ei;
    }

    cpr_error err = {0};
    cpr_profile* p;
    if (cpr_load(argv[optind], &p, &err)) {
        cpr_print_error(&err);
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
    size_t ke = cut_rows(vals, ne, ekey <= E_ACCESSES, o.threshold, o.top);
    for (size_t i = 0; i < nf; i++) vals[i] = fvalue(&p->funcs[fr[i]], fkey);
    size_t kf = cut_rows(vals, nf, fkey != F_NAME, o.threshold, o.top);
    free(vals);

    if (o.csv) {
        if (o.table == 1)
            edges_csv(f, p, er, ke);
        else
            funcs_csv(f, p, fr, kf);
    } else {
        rule(f);
        cpr_print_header(f, p);
        if (o.table != 2) edges_text(f, p, er, ke, ne, elabels[ekey], &o);
        if (o.table != 1) funcs_text(f, p, fr, kf, nf, flabels[fkey], &o);
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
