/* commprof-report matrix: producer x consumer matrix of the functions, the
 * threads, or functions x data objects; and timeline (below): per-function
 * bandwidth over the time slices.
 *
 * Aligned text (functions numbered, a legend of names), CSV, or an SVG heatmap
 * written by hand (one <rect> per non-zero cell, log colour scale, names
 * escaped).  Rows and columns that are all zero are dropped. */

#include "cpr.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { M_BYTES, M_UNMA, M_ACCESSES, M_READ, M_WRITTEN };
static const char* const mfields[] = {"bytes", "unma", "accesses", "read", "written"};
enum { OF_FUNCTIONS, OF_OBJECTS, OF_THREADS };

static uint64_t cell_value(const cpr_edge* e, int field)
{
    return field == M_UNMA ? e->unma : field == M_ACCESSES ? e->accesses : e->bytes;
}

/* A matrix of nr x nc entries with labels; square ones (functions, threads)
 * share one numbering of rows and columns.  Only the non-zero cells are kept
 * (a program of 35,000 functions would need 10 GB for all of them), sorted
 * by row and column, with where each row's cells start. */
typedef struct {
    size_t r, c;
    uint64_t v;
    size_t seq; /* order of setting, for the one set last */
} mcell;

typedef struct {
    int of;
    size_t nr, nc;
    char **rlab, **clab; /* clab == rlab when square */
    size_t *rows, *cols; /* positions of the rows and columns shown */
    size_t nrows, ncols;
    mcell* cells;
    size_t ncells, cap;
    size_t* row_start; /* nr + 1 entries: the cells of row a are [row_start[a], row_start[a + 1]) */
    size_t* col_pos;   /* nc entries: the position of column b in cols */
    uint64_t max;
} matrix;

/* cell (a, b), 0 if none */
static uint64_t cell_at(const matrix* m, size_t a, size_t b)
{
    size_t lo = m->row_start[a], hi = m->row_start[a + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->cells[mid].c < b) lo = mid + 1;
        else hi = mid;
    }
    return lo < m->row_start[a + 1] && m->cells[lo].c == b ? m->cells[lo].v : 0;
}

static uint64_t* mtotal;
static int cmp_total(const void* a, const void* b)
{
    size_t i = *(const size_t*)a, j = *(const size_t*)b;
    if (mtotal[i] != mtotal[j]) return mtotal[i] > mtotal[j] ? -1 : 1;
    return i < j ? -1 : i > j;
}
static int cmp_index(const void* a, const void* b)
{
    size_t i = *(const size_t*)a, j = *(const size_t*)b;
    return i < j ? -1 : i > j;
}

static void addsat(uint64_t* d, uint64_t v) { *d = *d > UINT64_MAX - v ? UINT64_MAX : *d + v; }

/* the candidates with a non-zero total, the top ones by total, in index
 * order; returns their number, pos[] maps an index to its position */
static size_t pick(uint64_t* total, size_t n, const unsigned char* skip, size_t top, size_t** cand_out, size_t** pos_out)
{
    size_t* cand = cpr_xmalloc((n + 1) * sizeof *cand);
    size_t nc = 0;
    for (size_t i = 0; i < n; i++)
        if (total[i] && !(skip && skip[i])) cand[nc++] = i;
    mtotal = total;
    qsort(cand, nc, sizeof *cand, cmp_total);
    if (top && nc > top) nc = top;
    qsort(cand, nc, sizeof *cand, cmp_index);
    size_t* pos = cpr_xmalloc((n + 1) * sizeof *pos);
    for (size_t i = 0; i < n; i++) pos[i] = (size_t)-1;
    for (size_t k = 0; k < nc; k++) pos[cand[k]] = k;
    *cand_out = cand;
    *pos_out = pos;
    return nc;
}

/* the cells are collected here, then sorted and merged by finish() */
static void set_cell(matrix* m, size_t a, size_t b, uint64_t v)
{
    if (a == (size_t)-1 || b == (size_t)-1) return;
    if (m->ncells == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 1024;
        m->cells = cpr_xrealloc(m->cells, m->cap, sizeof *m->cells);
    }
    m->cells[m->ncells] = (mcell){a, b, v, m->ncells};
    m->ncells++;
}

static int cmp_cell(const void* x, const void* y)
{
    const mcell *a = x, *b = y;
    if (a->r != b->r) return a->r < b->r ? -1 : 1;
    if (a->c != b->c) return a->c < b->c ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* add: the values of one cell are summed; else the last one set wins */
static void finish(matrix* m, int add)
{
    if (m->ncells) qsort(m->cells, m->ncells, sizeof *m->cells, cmp_cell);
    /* merge the cells of one (row, column), drop the zeros */
    size_t k = 0;
    for (size_t i = 0; i < m->ncells;) {
        mcell c = m->cells[i++];
        for (; i < m->ncells && m->cells[i].r == c.r && m->cells[i].c == c.c; i++) {
            if (add) addsat(&c.v, m->cells[i].v);
            else c.v = m->cells[i].v;
        }
        if (c.v) m->cells[k++] = c;
    }
    m->ncells = k;
    m->row_start = cpr_xcalloc(m->nr + 2, sizeof *m->row_start);
    unsigned char* col_used = cpr_xcalloc(m->nc + 1, 1);
    for (size_t i = 0; i < m->ncells; i++) {
        m->row_start[m->cells[i].r + 1]++;
        col_used[m->cells[i].c] = 1;
        if (m->cells[i].v > m->max) m->max = m->cells[i].v;
    }
    for (size_t a = 0; a < m->nr; a++) m->row_start[a + 1] += m->row_start[a];
    m->rows = cpr_xmalloc((m->nr + 1) * sizeof *m->rows);
    m->cols = cpr_xmalloc((m->nc + 1) * sizeof *m->cols);
    m->nrows = m->ncols = 0;
    for (size_t a = 0; a < m->nr; a++)
        if (m->row_start[a + 1] > m->row_start[a]) m->rows[m->nrows++] = a;
    m->col_pos = cpr_xcalloc(m->nc + 1, sizeof *m->col_pos);
    for (size_t b = 0; b < m->nc; b++)
        if (col_used[b]) {
            m->col_pos[b] = m->ncols;
            m->cols[m->ncols++] = b;
        }
    free(col_used);
}

static void build_functions(const cpr_profile* p, int field, size_t top, int no_special, matrix* m)
{
    size_t nf = p->nfuncs;
    uint64_t* total = cpr_xcalloc(nf + 1, sizeof *total);
    unsigned char* skip = cpr_xcalloc(nf + 1, 1);
    for (size_t i = 0; i < nf; i++) skip[i] = no_special && p->funcs[i].special;
    for (size_t k = 0; k < p->nedges; k++) {
        const cpr_edge* e = &p->edges[k];
        if (skip[e->p] || skip[e->c]) continue;
        uint64_t v = cell_value(e, field);
        addsat(&total[e->p], v);
        addsat(&total[e->c], v);
    }
    size_t *cand, *pos;
    size_t nc = pick(total, nf, skip, top, &cand, &pos);
    m->nr = m->nc = nc;
    m->rlab = m->clab = cpr_xcalloc(nc + 1, sizeof *m->rlab);
    char buf[1200];
    for (size_t k = 0; k < nc; k++) m->rlab[k] = cpr_xstrdup(cpr_display_name(p, cand[k], buf, sizeof buf));
    for (size_t k = 0; k < p->nedges; k++) {
        const cpr_edge* e = &p->edges[k];
        set_cell(m, pos[e->p], pos[e->c], cell_value(e, field));
    }
    free(cand);
    free(pos);
    free(total);
    free(skip);
    finish(m, 0);
}

static void build_threads(const cpr_profile* p, int field, size_t top, matrix* m)
{
    size_t n = p->nthreads;
    uint64_t* total = cpr_xcalloc(n + 1, sizeof *total);
    size_t* ci = cpr_xmalloc((2 * p->ncells + 1) * sizeof *ci);
    for (size_t k = 0; k < p->ncells; k++) {
        const cpr_cell* c = &p->cells[k];
        ci[2 * k] = cpr_thread_index(p, c->p);
        ci[2 * k + 1] = cpr_thread_index(p, c->c);
        uint64_t v = field == M_UNMA ? c->unma : c->bytes;
        addsat(&total[ci[2 * k]], v);
        addsat(&total[ci[2 * k + 1]], v);
    }
    size_t *cand, *pos;
    size_t nc = pick(total, n, NULL, top, &cand, &pos);
    m->nr = m->nc = nc;
    m->rlab = m->clab = cpr_xcalloc(nc + 1, sizeof *m->rlab);
    char buf[600];
    for (size_t k = 0; k < nc; k++) m->rlab[k] = cpr_xstrdup(cpr_thread_label(p, p->threads[cand[k]].id, buf, sizeof buf));
    for (size_t k = 0; k < p->ncells; k++)
        set_cell(m, pos[ci[2 * k]], pos[ci[2 * k + 1]], field == M_UNMA ? p->cells[k].unma : p->cells[k].bytes);
    free(ci);
    free(cand);
    free(pos);
    free(total);
    finish(m, 0);
}

/* functions x objects: bytes a function read from the object (field read:
 * the flows' consumer) or wrote into it and were read (written: producer) */
static void build_objects(const cpr_profile* p, int field, size_t top, int no_special, matrix* m)
{
    size_t nf = p->nfuncs, no = p->nobjects;
    uint64_t* ft = cpr_xcalloc(nf + 1, sizeof *ft);
    uint64_t* ot = cpr_xcalloc(no + 1, sizeof *ot);
    unsigned char* skip = cpr_xcalloc(nf + 1, 1);
    for (size_t i = 0; i < nf; i++) skip[i] = no_special && p->funcs[i].special;
    for (size_t k = 0; k < p->nflows; k++) {
        const cpr_flow* fl = &p->flows[k];
        size_t f = field == M_WRITTEN ? fl->p : fl->c;
        if (skip[f]) continue;
        addsat(&ft[f], fl->bytes);
        addsat(&ot[fl->o], fl->bytes);
    }
    size_t *fc, *fpos, *oc, *opos;
    m->nr = pick(ft, nf, skip, top, &fc, &fpos);
    m->nc = pick(ot, no, NULL, top, &oc, &opos);
    m->rlab = cpr_xcalloc(m->nr + 1, sizeof *m->rlab);
    m->clab = cpr_xcalloc(m->nc + 1, sizeof *m->clab);
    char buf[1200];
    for (size_t k = 0; k < m->nr; k++) m->rlab[k] = cpr_xstrdup(cpr_display_name(p, fc[k], buf, sizeof buf));
    for (size_t k = 0; k < m->nc; k++) m->clab[k] = cpr_xstrdup(cpr_object_label(p, oc[k], buf, sizeof buf));
    for (size_t k = 0; k < p->nflows; k++) {
        const cpr_flow* fl = &p->flows[k];
        size_t f = field == M_WRITTEN ? fl->p : fl->c;
        set_cell(m, fpos[f], opos[fl->o], fl->bytes);
    }
    free(fc);
    free(fpos);
    free(oc);
    free(opos);
    free(ft);
    free(ot);
    free(skip);
    finish(m, 1);
}

static void free_matrix(matrix* m)
{
    for (size_t k = 0; k < m->nr; k++) free(m->rlab[k]);
    if (m->clab != m->rlab)
        for (size_t k = 0; k < m->nc; k++) free(m->clab[k]);
    if (m->clab != m->rlab) free(m->clab);
    free(m->rlab);
    free(m->rows);
    free(m->cols);
    free(m->cells);
    free(m->row_start);
    free(m->col_pos);
}

static void write_text(FILE* f, const cpr_profile* p, const matrix* m, const char* field)
{
    char num[32];
    int sq = m->of != OF_OBJECTS;
    if (m->of == OF_FUNCTIONS)
        fprintf(f, "Communication matrix of %s: %zu producers (rows) x %zu consumers (columns)\n", field, m->nrows,
                m->ncols);
    else if (m->of == OF_THREADS)
        fprintf(f, "Thread matrix of %s: %zu producer threads (rows) x %zu consumer threads (columns)\n", field,
                m->nrows, m->ncols);
    else
        fprintf(f, "Object matrix of bytes %s: %zu functions (rows) x %zu objects (columns)\n", field, m->nrows,
                m->ncols);
    fprintf(f, "Profile: %s\n\n", p->path);
    /* legend: the number of each entry that has a row or a column (a
       function --top kept whose cells are all with the others left out has
       neither) */
    if (!sq) fprintf(f, "Functions (rows):\n");
    unsigned char* shown = cpr_xcalloc(m->nr + 1, 1);
    for (size_t i = 0; i < m->nrows; i++) shown[m->rows[i]] = 1;
    if (sq)
        for (size_t j = 0; j < m->ncols; j++) shown[m->cols[j]] = 1;
    for (size_t k = 0; k < m->nr; k++)
        if (shown[k]) fprintf(f, "%5zu  %s\n", k + 1, m->rlab[k]);
    free(shown);
    if (!sq) {
        fprintf(f, "Objects (columns):\n");
        unsigned char* col = cpr_xcalloc(m->nc + 1, 1);
        for (size_t j = 0; j < m->ncols; j++) col[m->cols[j]] = 1;
        for (size_t k = 0; k < m->nc; k++)
            if (col[k]) fprintf(f, "%5zu  %s\n", k + 1, m->clab[k]);
        free(col);
    }
    fputc('\n', f);
    /* column widths */
    size_t* w = cpr_xcalloc(m->ncols + 1, sizeof *w);
    for (size_t j = 0; j < m->ncols; j++) {
        snprintf(num, sizeof num, "%zu", m->cols[j] + 1);
        w[j] = strlen(num);
        for (size_t i = 0; i < m->nrows; i++) {
            size_t l = strlen(cpr_fmt_u64(num, cell_at(m, m->rows[i], m->cols[j])));
            if (l > w[j]) w[j] = l;
        }
    }
    fprintf(f, "%s", sq ? "prod\\cons" : " fn\\objct");
    for (size_t j = 0; j < m->ncols; j++) {
        snprintf(num, sizeof num, "%zu", m->cols[j] + 1);
        fprintf(f, "  %*s", (int)w[j], num);
    }
    fputc('\n', f);
    for (size_t i = 0; i < m->nrows; i++) {
        fprintf(f, "%9zu", m->rows[i] + 1);
        for (size_t j = 0; j < m->ncols; j++) {
            uint64_t v = cell_at(m, m->rows[i], m->cols[j]);
            fprintf(f, "  %*s", (int)w[j], v ? cpr_fmt_u64(num, v) : ".");
        }
        fputc('\n', f);
    }
    free(w);
}

static void write_csv(FILE* f, const matrix* m)
{
    cpr_csv_field(f, m->of == OF_OBJECTS ? "function\\object" : "producer\\consumer");
    for (size_t j = 0; j < m->ncols; j++) {
        putc(',', f);
        cpr_csv_field(f, m->clab[m->cols[j]]);
    }
    putc('\n', f);
    for (size_t i = 0; i < m->nrows; i++) {
        cpr_csv_field(f, m->rlab[m->rows[i]]);
        /* the row's cells and the columns are both in column order */
        size_t k = m->row_start[m->rows[i]], kend = m->row_start[m->rows[i] + 1];
        for (size_t j = 0; j < m->ncols; j++) {
            while (k < kend && m->cells[k].c < m->cols[j]) k++;
            uint64_t v = k < kend && m->cells[k].c == m->cols[j] ? m->cells[k].v : 0;
            fprintf(f, ",%llu", (unsigned long long)v);
        }
        putc('\n', f);
    }
}

#define xml_escape cpr_xml_escape
#define text_len cpr_text_len

#define CELL 16
#define CHARW 6.6 /* average width of an 11px sans-serif character */

static void write_svg(FILE* f, const cpr_profile* p, const matrix* m, const char* field)
{
    char num[32], col[8];
    size_t maxrow = 10, maxcol = 10;
    for (size_t i = 0; i < m->nrows; i++) {
        size_t l = text_len(m->rlab[m->rows[i]]);
        if (l > maxrow) maxrow = l;
    }
    for (size_t j = 0; j < m->ncols; j++) {
        size_t l = text_len(m->clab[m->cols[j]]);
        if (l > maxcol) maxcol = l;
    }
    if (maxrow > 60) maxrow = 60;
    if (maxcol > 60) maxcol = 60;
    int left = (int)(maxrow * CHARW) + 16, top = (int)(maxcol * CHARW * 0.71) + 70;
    int gw = (int)m->ncols * CELL, gh = (int)m->nrows * CELL;
    int legend_h = 60;
    int width = left + gw + 40 + (int)(maxcol * CHARW * 0.71), height = top + gh + legend_h + 20;
    if (width < 420) width = 420;
    const char* what = m->of == OF_FUNCTIONS ? "Communication matrix" : m->of == OF_THREADS ? "Thread matrix"
                                                                                          : "Object matrix";
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">\n",
            width, height, width, height);
    fprintf(f, "<title>");
    xml_escape(f, what);
    xml_escape(f, ": ");
    xml_escape(f, p->exe ? p->exe : "");
    fprintf(f, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, height);
    if (m->of == OF_FUNCTIONS)
        fprintf(f, "<text x=\"8\" y=\"20\" font-size=\"14\">Communication matrix (%s): producers in rows, "
                   "consumers in columns</text>\n", field);
    else if (m->of == OF_THREADS)
        fprintf(f, "<text x=\"8\" y=\"20\" font-size=\"14\">Thread matrix (%s): producer threads in rows, "
                   "consumer threads in columns</text>\n", field);
    else
        fprintf(f, "<text x=\"8\" y=\"20\" font-size=\"14\">Object matrix (bytes %s): functions in rows, "
                   "data objects in columns</text>\n", field);
    fprintf(f, "<text x=\"8\" y=\"38\" fill=\"#555555\">");
    xml_escape(f, p->exe ? p->exe : "");
    for (size_t i = 0; i < p->nargs; i++) {
        putc(' ', f);
        xml_escape(f, p->args[i]);
    }
    fprintf(f, "</text>\n");
    /* grid background */
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" stroke=\"#cccccc\"/>\n", left,
            top, gw, gh);
    /* column labels, rotated */
    for (size_t j = 0; j < m->ncols; j++) {
        int x = left + (int)j * CELL + CELL / 2 + 4, y = top - 4;
        fprintf(f, "<text transform=\"translate(%d,%d) rotate(-45)\">", x, y);
        xml_escape(f, m->clab[m->cols[j]]);
        fprintf(f, "</text>\n");
    }
    for (size_t i = 0; i < m->nrows; i++) {
        int y = top + (int)i * CELL + CELL - 4;
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", left - 4, y);
        xml_escape(f, m->rlab[m->rows[i]]);
        fprintf(f, "</text>\n");
    }
    for (size_t i = 0; i < m->nrows; i++)
        for (size_t k = m->row_start[m->rows[i]]; k < m->row_start[m->rows[i] + 1]; k++) {
            size_t j = m->col_pos[m->cells[k].c];
            uint64_t v = m->cells[k].v;
            cpr_ramp_color(v, m->max, col);
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#ffffff\"><title>",
                    left + (int)j * CELL, top + (int)i * CELL, CELL, CELL, col);
            xml_escape(f, m->rlab[m->rows[i]]);
            xml_escape(f, m->of == OF_OBJECTS ? (!strcmp(field, "read") ? " <- " : " -> ") : " -> ");
            xml_escape(f, m->clab[m->cols[j]]);
            fprintf(f, ": %s %s</title></rect>\n", cpr_fmt_u64(num, v), field);
        }
    /* legend: the log colour scale from 1 to the maximum */
    int ly = top + gh + 24;
    fprintf(f, "<text x=\"%d\" y=\"%d\">%s, log scale:</text>\n", 8, ly + 12, field);
    int lx = 120;
    for (int k = 0; k < 32; k++) {
        double t = k / 31.0;
        uint64_t v = m->max > 1 ? (uint64_t)pow((double)m->max, t) : 1;
        cpr_ramp_color(v, m->max, col);
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"8\" height=\"14\" fill=\"%s\"/>\n", lx + k * 8, ly, col);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\">1</text>\n", lx, ly + 28);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", lx + 32 * 8, ly + 28,
            cpr_fmt_u64(num, m->max));
    fprintf(f, "</svg>\n");
}

static void matrix_help(void)
{
    printf("Usage: %s matrix [OPTIONS] PROFILE.xml\n"
           "\n"
           "A matrix of who communicates with whom.  --of=functions: producers in rows,\n"
           "consumers in columns, cells the bytes (or UnMA, accesses) of the edge.\n"
           "--of=threads: the thread matrix (producer thread x consumer thread, bytes\n"
           "or UnMA).  --of=objects (--objects=yes): functions in rows, data objects in\n"
           "columns, cells the bytes the function read from the object (--field=read)\n"
           "or wrote into it that were read (--field=written), from the object flows.\n"
           "Rows and columns that are all zero are dropped.\n"
           "\n"
           "  --of=KIND           functions, objects or threads [functions]\n"
           "  -o, --output=FILE   write FILE; FILE.svg gives an SVG heatmap (log colour\n"
           "                      scale, blue -> green -> red; hover a cell for its value)\n"
           "  --format=FMT        text, csv or svg, whatever the extension [text]\n"
           "  --csv               the same as --format=csv\n"
           "  --field=FIELD       functions: bytes, unma or accesses [bytes]; threads:\n"
           "                      bytes or unma [bytes]; objects: read or written [read]\n"
           "  --top=N             the N functions (threads; functions and objects) that\n"
           "                      communicate most, 0 = all [30 for text, 100 for SVG,\n"
           "                      all for CSV]\n"
           "  --no-special        leave out (unwritten), (syscall ...) and the other\n"
           "                      special nodes\n"
           "  -h, --help          this help\n"
           "\n"
           "In text, rows and columns are numbered (a legend lists them) and '.' is zero.\n",
           CPR_PROG);
}

int cpr_cmd_matrix(int argc, char** argv)
{
    static const struct option lo[] = {{"help", no_argument, 0, 'h'},         {"output", required_argument, 0, 'o'},
                                       {"format", required_argument, 0, 'F'}, {"csv", no_argument, 0, 'c'},
                                       {"field", required_argument, 0, 'f'},  {"top", required_argument, 0, 'n'},
                                       {"no-special", no_argument, 0, 'S'},   {"of", required_argument, 0, 'K'},
                                       {0, 0, 0, 0}};
    const char *output = NULL, *format = NULL, *fieldname = NULL;
    int field = M_BYTES, no_special = 0, top_set = 0, of = OF_FUNCTIONS, c;
    size_t top = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:", lo, NULL)) != -1) {
        switch (c) {
        case 'h': matrix_help(); return CPR_OK;
        case 'o': output = optarg; break;
        case 'c': format = "csv"; break;
        case 'F':
            if (strcmp(optarg, "text") && strcmp(optarg, "csv") && strcmp(optarg, "svg"))
                return cpr_usage_error("matrix", "--format=%s: expected text, csv or svg", optarg);
            format = optarg;
            break;
        case 'f': fieldname = optarg; break;
        case 'K':
            if (!strcmp(optarg, "functions")) of = OF_FUNCTIONS;
            else if (!strcmp(optarg, "objects")) of = OF_OBJECTS;
            else if (!strcmp(optarg, "threads")) of = OF_THREADS;
            else return cpr_usage_error("matrix", "--of=%s: expected functions, objects or threads", optarg);
            break;
        case 'n':
            if (cpr_opt_count("matrix", "top", optarg, &top)) return CPR_EUSAGE;
            top_set = 1;
            break;
        case 'S': no_special = 1; break;
        default: return cpr_opt_error("matrix", c, optopt, argv, optind);
        }
    }
    if (of == OF_OBJECTS) field = M_READ;
    if (fieldname) {
        int k = -1;
        for (int i = 0; i < 5; i++)
            if (!strcmp(fieldname, mfields[i])) k = i;
        static const char* const expect[] = {"bytes, unma or accesses", "read or written", "bytes or unma"};
        int ok = k >= 0 && (of == OF_FUNCTIONS ? k <= M_ACCESSES : of == OF_OBJECTS ? k >= M_READ : k <= M_UNMA);
        if (!ok) return cpr_usage_error("matrix", "--field=%s: expected %s", fieldname, expect[of]);
        field = k;
    }
    if (optind >= argc) return cpr_usage_error("matrix", "no profile given");
    if (argc - optind > 1) return cpr_usage_error("matrix", "one profile at a time (got %d)", argc - optind);
    if (!format) {
        const char* dot = output ? strrchr(output, '.') : NULL;
        format = (dot && !strcmp(dot, ".svg")) ? "svg" : (dot && !strcmp(dot, ".csv")) ? "csv" : "text";
    }
    if (!top_set) top = !strcmp(format, "text") ? 30 : !strcmp(format, "svg") ? 100 : 0;

    cpr_error err = {0};
    cpr_profile* p;
    if (cpr_load(argv[optind], &p, &err)) {
        cpr_print_error(&err);
        return CPR_EINPUT;
    }
    if (of == OF_OBJECTS && !p->has_objects) {
        cpr_seterr(&err, p->path, 0, "--of=objects: this profile has no <objects> (profile with --objects=yes)");
        cpr_print_error(&err);
        cpr_profile_free(p);
        return CPR_EINPUT;
    }
    matrix m;
    memset(&m, 0, sizeof m);
    m.of = of;
    if (of == OF_FUNCTIONS)
        build_functions(p, field, top, no_special, &m);
    else if (of == OF_THREADS)
        build_threads(p, field, top, &m);
    else
        build_objects(p, field, top, no_special, &m);
    FILE* f = cpr_open_output(output, &err);
    int rc = CPR_OK;
    if (!f) {
        rc = CPR_EINPUT;
    } else {
        if (!strcmp(format, "svg"))
            write_svg(f, p, &m, mfields[field]);
        else if (!strcmp(format, "csv"))
            write_csv(f, &m);
        else
            write_text(f, p, &m, mfields[field]);
        rc = cpr_close_output(f, output, &err);
    }
    if (rc) cpr_print_error(&err);
    free_matrix(&m);
    cpr_profile_free(p);
    return rc;
}

/* ---- timeline: per-function bandwidth over the time slices ---------------------
 *
 * One series per function among the top N by bytes (read + written) over the
 * slices, the rest summed as "other", drawn as stacked areas (a step for each
 * slice) over the slice index, with the detected phases as shaded spans.
 * bandwidth: a function's bytes read + written in the slice divided by all the
 * instructions of the slice (so the stack is the slice's bandwidth, as the
 * detected phases define it); read, written, in, instructions: per slice.
 * Beyond MAX_BUCKETS slices, consecutive slices are grouped (bandwidth: bytes
 * over the group's instructions; the others: the mean per slice). */

enum { TL_BANDWIDTH, TL_READ, TL_WRITTEN, TL_IN, TL_INSTR };
static const char* const tlfields[] = {"bandwidth", "read", "written", "in", "instructions"};
static const char* const tllabels[] = {"bytes read + written per instruction", "bytes read per slice",
                                       "bytes written per slice", "bytes consumed from other functions per slice",
                                       "instructions per slice"};
#define MAX_BUCKETS 1000

static uint64_t rec_value(const cpr_srec* r, int field)
{
    switch (field) {
    case TL_READ: return r->bytes_read;
    case TL_WRITTEN: return r->bytes_written;
    case TL_IN: return r->in_bytes;
    case TL_INSTR: return r->instructions;
    default: return r->bytes_read > UINT64_MAX - r->bytes_written ? UINT64_MAX : r->bytes_read + r->bytes_written;
    }
}

/* nice step for about n ticks over [0, max] */
static double nice_step(double max, int n)
{
    if (max <= 0) return 1;
    double raw = max / n, mag = pow(10, floor(log10(raw))), f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static void fmt_axis(char* buf, size_t n, double v, int field)
{
    if (field == TL_BANDWIDTH)
        snprintf(buf, n, "%g", v);
    else
        cpr_fmt_human(buf, (uint64_t)(v + 0.5), "");
}

static void timeline_help(void)
{
    printf("Usage: %s timeline [OPTIONS] PROFILE.xml\n"
           "\n"
           "Per-function bandwidth over the time slices of a profile written with\n"
           "--time-slice=N: an SVG plot of stacked areas, one colour for each of the top\n"
           "functions by bytes (read + written) and \"other\" for the rest, the slice\n"
           "index on the x axis, with the detected phases shaded and numbered as in\n"
           "'summary --table=phases'; or the numbers as CSV.\n"
           "\n"
           "  --field=FIELD       bandwidth: a function's bytes read + written in a slice\n"
           "                      over all the slice's instructions (the areas add up to\n"
           "                      the slice's bytes per instruction); read, written, in\n"
           "                      (bytes consumed from other functions), instructions:\n"
           "                      per slice [bandwidth]\n"
           "  --top=N             functions drawn on their own, 1 to 12 [8]\n"
           "  --no-special        leave out the special nodes ((no function), ...)\n"
           "  -o, --output=FILE   write FILE; .csv gives CSV [SVG on standard output]\n"
           "  --format=FMT        svg or csv, whatever the extension\n"
           "  --csv               the same as --format=csv\n"
           "  -h, --help          this help\n"
           "\n"
           "Beyond %d slices the plot groups consecutive slices (bandwidth over the\n"
           "group's instructions, the other fields the mean per slice); the CSV has one\n"
           "row per slice of the profile (slices in which nothing was counted have no\n"
           "row): slice, first instruction, instructions, one column per function, other,\n"
           "and the detected phase the slice is in.  A profile without time slices is\n"
           "an error (exit 2).\n",
           CPR_PROG, MAX_BUCKETS);
}

static uint64_t* tl_total;
static int cmp_tl(const void* a, const void* b)
{
    size_t i = *(const size_t*)a, j = *(const size_t*)b;
    if (tl_total[i] != tl_total[j]) return tl_total[i] > tl_total[j] ? -1 : 1;
    return i < j ? -1 : i > j;
}

int cpr_cmd_timeline(int argc, char** argv)
{
    static const struct option lo[] = {{"help", no_argument, 0, 'h'},         {"output", required_argument, 0, 'o'},
                                       {"format", required_argument, 0, 'F'}, {"csv", no_argument, 0, 'c'},
                                       {"field", required_argument, 0, 'f'},  {"top", required_argument, 0, 'n'},
                                       {"no-special", no_argument, 0, 'S'},   {0, 0, 0, 0}};
    const char *output = NULL, *format = NULL;
    int field = TL_BANDWIDTH, no_special = 0, c;
    size_t top = 8;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:", lo, NULL)) != -1) {
        switch (c) {
        case 'h': timeline_help(); return CPR_OK;
        case 'o': output = optarg; break;
        case 'c': format = "csv"; break;
        case 'F':
            if (strcmp(optarg, "csv") && strcmp(optarg, "svg"))
                return cpr_usage_error("timeline", "--format=%s: expected svg or csv", optarg);
            format = optarg;
            break;
        case 'f': {
            int k = -1;
            for (int i = 0; i < 5; i++)
                if (!strcmp(optarg, tlfields[i])) k = i;
            if (k < 0)
                return cpr_usage_error("timeline", "--field=%s: expected bandwidth, read, written, in or instructions",
                                       optarg);
            field = k;
            break;
        }
        case 'n':
            if (cpr_opt_count("timeline", "top", optarg, &top)) return CPR_EUSAGE;
            if (top < 1 || top > 12) return cpr_usage_error("timeline", "--top=%s: expected 1 to 12", optarg);
            break;
        case 'S': no_special = 1; break;
        default: return cpr_opt_error("timeline", c, optopt, argv, optind);
        }
    }
    if (optind >= argc) return cpr_usage_error("timeline", "no profile given");
    if (argc - optind > 1) return cpr_usage_error("timeline", "one profile at a time (got %d)", argc - optind);
    if (!format) {
        const char* dot = output ? strrchr(output, '.') : NULL;
        format = (dot && !strcmp(dot, ".csv")) ? "csv" : "svg";
    }
    cpr_error err = {0};
    cpr_profile* p;
    if (cpr_load(argv[optind], &p, &err)) {
        cpr_print_error(&err);
        return CPR_EINPUT;
    }
    if (!p->has_slices || !p->nslices) {
        cpr_seterr(&err, p->path, 0, "%s",
                   p->has_slices ? "no time slice has a record: nothing to plot"
                                 : "this profile has no time slices (profile with --time-slice=N)");
        cpr_print_error(&err);
        cpr_profile_free(p);
        return CPR_EINPUT;
    }
    /* the series: top functions by bytes */
    size_t nf = p->nfuncs;
    uint64_t* total = cpr_xcalloc(nf + 1, sizeof *total);
    for (size_t k = 0; k < p->nrecs; k++) {
        const cpr_srec* r = &p->recs[k];
        if (no_special && p->funcs[r->f].special) continue;
        addsat(&total[r->f], rec_value(r, field == TL_INSTR ? TL_INSTR : TL_BANDWIDTH));
    }
    size_t* order = cpr_xmalloc((nf + 1) * sizeof *order);
    size_t nc = 0;
    for (size_t i = 0; i < nf; i++)
        if (total[i]) order[nc++] = i;
    tl_total = total;
    qsort(order, nc, sizeof *order, cmp_tl);
    int other = nc > top;
    size_t ns = nc > top ? top : nc;
    size_t nser = ns + (size_t)other; /* series: the top functions, then other */
    size_t* series = cpr_xmalloc((nf + 1) * sizeof *series);
    for (size_t i = 0; i < nf; i++)
        series[i] = (no_special && p->funcs[i].special) ? (size_t)-1 : other ? ns : (size_t)-1;
    for (size_t k = 0; k < ns; k++) series[order[k]] = k;
    char** names = cpr_xcalloc(nser + 1, sizeof *names);
    char nb[1200];
    for (size_t k = 0; k < ns; k++) names[k] = cpr_xstrdup(cpr_display_name(p, order[k], nb, sizeof nb));
    if (other) names[ns] = cpr_xstrdup("other");
    /* the span of a slice: phase index (1-based), 0 none */
    uint32_t i0 = p->slices[0].i, i1 = p->slices[p->nslices - 1].i;
    FILE* f = cpr_open_output(output, &err);
    int rc = CPR_OK;
    if (!f) {
        rc = CPR_EINPUT;
    } else if (!strcmp(format, "csv")) {
        fputs("slice,first_instruction,instructions", f);
        for (size_t k = 0; k < nser; k++) {
            putc(',', f);
            cpr_csv_field(f, names[k]);
        }
        fputs(",phase\n", f);
        double* v = cpr_xmalloc((nser + 1) * sizeof *v);
        size_t sp = 0;
        for (size_t s = 0; s < p->nslices; s++) {
            const cpr_slice* sl = &p->slices[s];
            uint64_t instr = 0;
            for (size_t k = 0; k < nser; k++) v[k] = 0;
            for (size_t r = sl->first; r < sl->first + sl->n; r++) {
                const cpr_srec* x = &p->recs[r];
                addsat(&instr, x->instructions);
                if (series[x->f] != (size_t)-1) v[series[x->f]] += (double)rec_value(x, field);
            }
            long double first = (long double)sl->i * p->slice_size;
            fprintf(f, "%u,%.0Lf,%llu", sl->i, first, (unsigned long long)instr);
            for (size_t k = 0; k < nser; k++) {
                if (field == TL_BANDWIDTH)
                    fprintf(f, ",%.4f", instr ? v[k] / (double)instr : 0.0);
                else
                    fprintf(f, ",%.0f", v[k]);
            }
            while (sp < p->nspans && p->spans[sp].last < sl->i) sp++;
            putc(',', f);
            if (sp < p->nspans && p->spans[sp].first <= sl->i) fprintf(f, "%zu", sp + 1);
            putc('\n', f);
        }
        free(v);
        rc = cpr_close_output(f, output, &err);
    } else {
        /* buckets of g slices over [i0, i1] */
        uint64_t span = (uint64_t)i1 - i0 + 1;
        uint64_t g = (span + MAX_BUCKETS - 1) / MAX_BUCKETS;
        size_t nb_ = (size_t)((span + g - 1) / g);
        double* val = cpr_xcalloc(nb_ * (nser + 1) + 1, sizeof *val);
        double* instr = cpr_xcalloc(nb_ + 1, sizeof *instr);
        for (size_t s = 0; s < p->nslices; s++) {
            const cpr_slice* sl = &p->slices[s];
            size_t b = (size_t)((sl->i - i0) / g);
            for (size_t r = sl->first; r < sl->first + sl->n; r++) {
                const cpr_srec* x = &p->recs[r];
                instr[b] += (double)x->instructions;
                if (series[x->f] != (size_t)-1) val[b * nser + series[x->f]] += (double)rec_value(x, field);
            }
        }
        double ymax = 0;
        for (size_t b = 0; b < nb_; b++) {
            double sum = 0;
            for (size_t k = 0; k < nser; k++) {
                double* x = &val[b * nser + k];
                *x = field == TL_BANDWIDTH ? (instr[b] > 0 ? *x / instr[b] : 0) : *x / (double)g;
                sum += *x;
            }
            if (sum > ymax) ymax = sum;
        }
        double ystep = nice_step(ymax, 5);
        double ytop = ymax > 0 ? ceil(ymax / ystep) * ystep : 1;
        if (ytop <= 0) ytop = 1;
        /* geometry */
        size_t maxname = 5;
        for (size_t k = 0; k < nser; k++) {
            size_t l = text_len(names[k]);
            if (l > maxname) maxname = l;
        }
        if (maxname > 50) maxname = 50;
        int L = 80, T = 60, PW = 800, PH = 360, LW = (int)(maxname * CHARW) + 40;
        if (LW < 160) LW = 160;
        int W = L + PW + 20 + LW, H = T + PH + 70;
        double xs = (double)PW / (double)span;
#define X(i) (L + ((double)(i) - (double)i0) * xs)
#define Y(v) (T + PH - (v) / ytop * PH)
        fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        fprintf(f,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">\n",
                W, H, W, H);
        fprintf(f, "<title>Timeline: ");
        xml_escape(f, p->exe ? p->exe : "");
        fprintf(f, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", W, H);
        fprintf(f, "<text x=\"8\" y=\"20\" font-size=\"14\">Timeline: %s</text>\n", tllabels[field]);
        fprintf(f, "<text x=\"8\" y=\"38\" fill=\"#555555\">");
        xml_escape(f, p->exe ? p->exe : "");
        for (size_t i = 0; i < p->nargs; i++) {
            putc(' ', f);
            xml_escape(f, p->args[i]);
        }
        fprintf(f, "</text>\n");
        /* detected phases: shaded spans with their index */
        fprintf(f, "<g class=\"phases\">\n");
        for (size_t k = 0; k < p->nspans; k++) {
            const cpr_span* s = &p->spans[k];
            if (s->last < i0 || s->first > i1) continue;
            double a = X(s->first < i0 ? i0 : s->first), b = X((double)(s->last > i1 ? i1 : s->last) + 1);
            fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>detected phase %zu: "
                       "slices %u-%u</title></rect>\n",
                    a, T, b - a, PH, k % 2 ? "#e4e4e4" : "#f2f2f2", k + 1, s->first, s->last);
            if (b - a >= 14)
                fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#666666\">%zu</text>\n",
                        (a + b) / 2, T - 4, k + 1);
        }
        fprintf(f, "</g>\n");
        /* stacked areas: series k between the sum of 0..k-1 and 0..k */
        double* base = cpr_xcalloc(nb_ + 1, sizeof *base);
        for (size_t k = 0; k < nser; k++) {
            const char* colr = (other && k == ns) ? "#b0b0b0" : cpr_palette(k);
            fprintf(f, "<path fill=\"%s\" fill-opacity=\"0.85\" stroke=\"%s\" stroke-width=\"0.6\" d=\"", colr, colr);
            /* upper edge left to right, lower edge back */
            for (size_t b = 0; b < nb_; b++) {
                double y = Y(base[b] + val[b * nser + k]);
                double x0 = X(i0 + (double)b * g), x1 = X(i0 + (double)(b + 1) * g > i1 + 1 ? i1 + 1 : i0 + (double)(b + 1) * g);
                fprintf(f, "%s%.1f,%.1f L%.1f,%.1f ", b ? "L" : "M", x0, y, x1, y);
            }
            for (size_t b = nb_; b-- > 0;) {
                double y = Y(base[b]);
                double x0 = X(i0 + (double)b * g), x1 = X(i0 + (double)(b + 1) * g > i1 + 1 ? i1 + 1 : i0 + (double)(b + 1) * g);
                fprintf(f, "L%.1f,%.1f L%.1f,%.1f ", x1, y, x0, y);
            }
            fprintf(f, "Z\"><title>");
            xml_escape(f, names[k]);
            fprintf(f, "</title></path>\n");
            for (size_t b = 0; b < nb_; b++) base[b] += val[b * nser + k];
        }
        free(base);
        /* axes */
        fprintf(f, "<g stroke=\"#000000\" fill=\"none\"><path d=\"M%d,%d L%d,%d L%d,%d\"/></g>\n", L, T, L, T + PH,
                L + PW, T + PH);
        char lab[64];
        for (double y = 0; y <= ytop * 1.0000001; y += ystep) {
            fmt_axis(lab, sizeof lab, y, field);
            fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000000\"/>", L - 4, Y(y), L, Y(y));
            fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", L - 6, Y(y) + 4, lab);
        }
        double xstep = nice_step((double)span, 8);
        if (xstep < 1) xstep = 1;
        for (double x = ceil(i0 / xstep) * xstep; x <= i1 + 1; x += xstep) {
            fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000000\"/>", X(x), T + PH, X(x),
                    T + PH + 4);
            fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.0f</text>\n", X(x), T + PH + 16, x);
        }
        char sz[32];
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time slice (%s instructions each%s)</text>\n",
                L + PW / 2, T + PH + 36, cpr_fmt_u64(sz, p->slice_size), g > 1 ? "; grouped" : "");
        if (g > 1) fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">%llu slices per step</text>\n",
                           L + PW / 2, T + PH + 52, (unsigned long long)g);
        fprintf(f, "<text transform=\"translate(16,%d) rotate(-90)\" text-anchor=\"middle\">%s</text>\n", T + PH / 2,
                tlfields[field]);
        /* legend */
        int lx = L + PW + 20;
        for (size_t k = 0; k < nser; k++) {
            const char* colr = (other && k == ns) ? "#b0b0b0" : cpr_palette(k);
            int y = T + (int)k * 18;
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", lx, y, colr);
            fprintf(f, "<text x=\"%d\" y=\"%d\">", lx + 18, y + 10);
            xml_escape(f, names[k]);
            fprintf(f, "</text>\n");
        }
        if (p->nspans)
            fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#666666\">shaded: detected phases</text>\n", lx,
                    T + (int)nser * 18 + 14);
        fprintf(f, "</svg>\n");
#undef X
#undef Y
        free(val);
        free(instr);
        rc = cpr_close_output(f, output, &err);
    }
    if (rc) cpr_print_error(&err);
    for (size_t k = 0; k < nser; k++) free(names[k]);
    free(names);
    free(series);
    free(order);
    free(total);
    cpr_profile_free(p);
    return rc;
}
