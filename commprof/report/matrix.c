/* commprof-report matrix: producer x consumer matrix of the functions.
 *
 * Aligned text (functions numbered, a legend of names), CSV, or an SVG heatmap
 * written by hand (one <rect> per non-zero cell, log colour scale, names
 * escaped).  Rows and columns that are all zero are dropped. */

#include "cpr.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { M_BYTES, M_UNMA, M_ACCESSES };
static const char* const mfields[] = {"bytes", "unma", "accesses"};

static uint64_t cell_value(const cpr_edge* e, int field)
{
    return field == M_UNMA ? e->unma : field == M_ACCESSES ? e->accesses : e->bytes;
}

typedef struct {
    size_t n;        /* functions in the matrix */
    size_t* fn;      /* their indices in the profile */
    size_t *rows, *cols;
    size_t nrows, ncols;
    uint64_t* v;     /* n x n, [producer pos * n + consumer pos] */
    uint64_t max;
} matrix;

static const cpr_profile* mp;
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

static void build(const cpr_profile* p, int field, size_t top, int no_special, matrix* m)
{
    size_t nf = p->nfuncs;
    uint64_t* total = cpr_xcalloc(nf + 1, sizeof *total);
    for (size_t k = 0; k < p->nedges; k++) {
        const cpr_edge* e = &p->edges[k];
        if (no_special && (p->funcs[e->p].special || p->funcs[e->c].special)) continue;
        uint64_t v = cell_value(e, field);
        total[e->p] = total[e->p] > UINT64_MAX - v ? UINT64_MAX : total[e->p] + v;
        total[e->c] = total[e->c] > UINT64_MAX - v ? UINT64_MAX : total[e->c] + v;
    }
    size_t* cand = cpr_xmalloc((nf + 1) * sizeof *cand);
    size_t nc = 0;
    for (size_t i = 0; i < nf; i++)
        if (total[i] && !(no_special && p->funcs[i].special)) cand[nc++] = i;
    /* the top functions by communicated volume, shown in profile order */
    mp = p;
    mtotal = total;
    qsort(cand, nc, sizeof *cand, cmp_total);
    if (top && nc > top) nc = top;
    qsort(cand, nc, sizeof *cand, cmp_index);
    size_t* pos = cpr_xmalloc((nf + 1) * sizeof *pos);
    for (size_t i = 0; i < nf; i++) pos[i] = (size_t)-1;
    for (size_t k = 0; k < nc; k++) pos[cand[k]] = k;
    m->n = nc;
    m->fn = cand;
    m->v = cpr_xcalloc(nc * nc + 1, sizeof *m->v);
    m->max = 0;
    for (size_t k = 0; k < p->nedges; k++) {
        const cpr_edge* e = &p->edges[k];
        size_t a = pos[e->p], b = pos[e->c];
        if (a == (size_t)-1 || b == (size_t)-1) continue;
        uint64_t v = cell_value(e, field);
        m->v[a * nc + b] = v;
        if (v > m->max) m->max = v;
    }
    m->rows = cpr_xmalloc((nc + 1) * sizeof *m->rows);
    m->cols = cpr_xmalloc((nc + 1) * sizeof *m->cols);
    m->nrows = m->ncols = 0;
    for (size_t a = 0; a < nc; a++) {
        int rz = 1, cz = 1;
        for (size_t b = 0; b < nc; b++) {
            if (m->v[a * nc + b]) rz = 0;
            if (m->v[b * nc + a]) cz = 0;
        }
        if (!rz) m->rows[m->nrows++] = a;
        if (!cz) m->cols[m->ncols++] = a;
    }
    free(pos);
    free(total);
}

static void free_matrix(matrix* m)
{
    free(m->fn);
    free(m->rows);
    free(m->cols);
    free(m->v);
}

static void write_text(FILE* f, const cpr_profile* p, const matrix* m, const char* field)
{
    char buf[1200], num[32];
    fprintf(f, "Communication matrix of %s: %zu producers (rows) x %zu consumers (columns)\n", field, m->nrows,
            m->ncols);
    fprintf(f, "Profile: %s\n\n", p->path);
    /* legend: the number of each function */
    for (size_t k = 0; k < m->n; k++)
        fprintf(f, "%5zu  %s\n", k + 1, cpr_display_name(p, m->fn[k], buf, sizeof buf));
    fputc('\n', f);
    /* column widths */
    size_t* w = cpr_xcalloc(m->ncols + 1, sizeof *w);
    for (size_t j = 0; j < m->ncols; j++) {
        snprintf(num, sizeof num, "%zu", m->cols[j] + 1);
        w[j] = strlen(num);
        for (size_t i = 0; i < m->nrows; i++) {
            size_t l = strlen(cpr_fmt_u64(num, m->v[m->rows[i] * m->n + m->cols[j]]));
            if (l > w[j]) w[j] = l;
        }
    }
    fprintf(f, "%s", "prod\\cons");
    for (size_t j = 0; j < m->ncols; j++) {
        snprintf(num, sizeof num, "%zu", m->cols[j] + 1);
        fprintf(f, "  %*s", (int)w[j], num);
    }
    fputc('\n', f);
    for (size_t i = 0; i < m->nrows; i++) {
        fprintf(f, "%9zu", m->rows[i] + 1);
        for (size_t j = 0; j < m->ncols; j++) {
            uint64_t v = m->v[m->rows[i] * m->n + m->cols[j]];
            fprintf(f, "  %*s", (int)w[j], v ? cpr_fmt_u64(num, v) : ".");
        }
        fputc('\n', f);
    }
    free(w);
}

static void write_csv(FILE* f, const cpr_profile* p, const matrix* m)
{
    char buf[1200];
    cpr_csv_field(f, "producer\\consumer");
    for (size_t j = 0; j < m->ncols; j++) {
        putc(',', f);
        cpr_csv_field(f, cpr_display_name(p, m->fn[m->cols[j]], buf, sizeof buf));
    }
    putc('\n', f);
    for (size_t i = 0; i < m->nrows; i++) {
        cpr_csv_field(f, cpr_display_name(p, m->fn[m->rows[i]], buf, sizeof buf));
        for (size_t j = 0; j < m->ncols; j++)
            fprintf(f, ",%llu", (unsigned long long)m->v[m->rows[i] * m->n + m->cols[j]]);
        putc('\n', f);
    }
}

static void xml_escape(FILE* f, const char* s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            /* XML 1.0 forbids most control characters; the reader cannot
             * produce them, but stay safe */
            if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r')
                putc('?', f);
            else
                putc(*s, f);
        }
    }
}

/* display width estimate: UTF-8 continuation bytes do not count */
static size_t text_len(const char* s)
{
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) n++;
    return n;
}

#define CELL 16
#define CHARW 6.6 /* average width of an 11px sans-serif character */

static void write_svg(FILE* f, const cpr_profile* p, const matrix* m, const char* field)
{
    char buf[1200], num[32], col[8];
    size_t maxrow = 10, maxcol = 10;
    for (size_t i = 0; i < m->nrows; i++) {
        size_t l = text_len(cpr_display_name(p, m->fn[m->rows[i]], buf, sizeof buf));
        if (l > maxrow) maxrow = l;
    }
    for (size_t j = 0; j < m->ncols; j++) {
        size_t l = text_len(cpr_display_name(p, m->fn[m->cols[j]], buf, sizeof buf));
        if (l > maxcol) maxcol = l;
    }
    if (maxrow > 60) maxrow = 60;
    if (maxcol > 60) maxcol = 60;
    int left = (int)(maxrow * CHARW) + 16, top = (int)(maxcol * CHARW * 0.71) + 70;
    int gw = (int)m->ncols * CELL, gh = (int)m->nrows * CELL;
    int legend_h = 60;
    int width = left + gw + 40 + (int)(maxcol * CHARW * 0.71), height = top + gh + legend_h + 20;
    if (width < 420) width = 420;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">\n",
            width, height, width, height);
    fprintf(f, "<title>");
    xml_escape(f, "Communication matrix: ");
    xml_escape(f, p->exe ? p->exe : "");
    fprintf(f, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, height);
    fprintf(f, "<text x=\"8\" y=\"20\" font-size=\"14\">Communication matrix (%s): producers in rows, "
               "consumers in columns</text>\n", field);
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
        xml_escape(f, cpr_display_name(p, m->fn[m->cols[j]], buf, sizeof buf));
        fprintf(f, "</text>\n");
    }
    for (size_t i = 0; i < m->nrows; i++) {
        int y = top + (int)i * CELL + CELL - 4;
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", left - 4, y);
        xml_escape(f, cpr_display_name(p, m->fn[m->rows[i]], buf, sizeof buf));
        fprintf(f, "</text>\n");
    }
    char nm2[1200];
    for (size_t i = 0; i < m->nrows; i++)
        for (size_t j = 0; j < m->ncols; j++) {
            uint64_t v = m->v[m->rows[i] * m->n + m->cols[j]];
            if (!v) continue;
            cpr_ramp_color(v, m->max, col);
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#ffffff\"><title>",
                    left + (int)j * CELL, top + (int)i * CELL, CELL, CELL, col);
            xml_escape(f, cpr_display_name(p, m->fn[m->rows[i]], buf, sizeof buf));
            xml_escape(f, " -> ");
            xml_escape(f, cpr_display_name(p, m->fn[m->cols[j]], nm2, sizeof nm2));
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
           "The producer x consumer matrix of the functions: rows are producers,\n"
           "columns consumers, cells the bytes (or UnMA, accesses) of the edge.\n"
           "Rows and columns that are all zero are dropped.\n"
           "\n"
           "  -o, --output=FILE   write FILE; FILE.svg gives an SVG heatmap (log colour\n"
           "                      scale, blue -> green -> red; hover a cell for its value)\n"
           "  --format=FMT        text, csv or svg, whatever the extension [text]\n"
           "  --csv               the same as --format=csv\n"
           "  --field=FIELD       bytes, unma or accesses [bytes]\n"
           "  --top=N             the N functions that communicate most (in + out),\n"
           "                      0 = all [30 for text, 100 for SVG, all for CSV]\n"
           "  --no-special        leave out (unwritten), (syscall ...) and the other\n"
           "                      special nodes\n"
           "  -h, --help          this help\n"
           "\n"
           "In text, functions are numbered (a legend lists them) and '.' is zero.\n",
           CPR_PROG);
}

int cpr_cmd_matrix(int argc, char** argv)
{
    static const struct option lo[] = {{"help", no_argument, 0, 'h'},         {"output", required_argument, 0, 'o'},
                                       {"format", required_argument, 0, 'F'}, {"csv", no_argument, 0, 'c'},
                                       {"field", required_argument, 0, 'f'},  {"top", required_argument, 0, 'n'},
                                       {"no-special", no_argument, 0, 'S'},   {0, 0, 0, 0}};
    const char *output = NULL, *format = NULL;
    int field = M_BYTES, no_special = 0, top_set = 0, c;
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
        case 'f': {
            int k = -1;
            for (int i = 0; i < 3; i++)
                if (!strcmp(optarg, mfields[i])) k = i;
            if (k < 0) return cpr_usage_error("matrix", "--field=%s: expected bytes, unma or accesses", optarg);
            field = k;
            break;
        }
        case 'n':
            if (cpr_opt_count("matrix", "top", optarg, &top)) return CPR_EUSAGE;
            top_set = 1;
            break;
        case 'S': no_special = 1; break;
        default: return cpr_opt_error("matrix", c, optopt, argv, optind);
        }
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
    matrix m;
    build(p, field, top, no_special, &m);
    FILE* f = cpr_open_output(output, &err);
    int rc = CPR_OK;
    if (!f) {
        rc = CPR_EINPUT;
    } else {
        if (!strcmp(format, "svg"))
            write_svg(f, p, &m, mfields[field]);
        else if (!strcmp(format, "csv"))
            write_csv(f, p, &m);
        else
            write_text(f, p, &m, mfields[field]);
        rc = cpr_close_output(f, output, &err);
    }
    if (rc) cpr_print_error(&err);
    free_matrix(&m);
    cpr_profile_free(p);
    return rc;
}
