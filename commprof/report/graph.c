/* commprof-report graph: the communication graph through Graphviz (cgraph/gvc).
 *
 * Functions are ovals labelled with their name, share of instructions and
 * calls, filled darker the larger the share; special nodes are dashed boxes,
 * code regions (COMMPROF_REGION_BEGIN/END) component boxes.
 * Edges carry bytes and UnMA; colour (MCProf's blue -> green -> red ramp),
 * pen width and layout weight grow with log(bytes).  What is drawn is capped
 * (--max-nodes, --max-edges, heaviest edges first) and large graphs are laid
 * out with sfdp instead of dot, with a fixed start= seed. */

#include "cpr.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#define NONE ((size_t)-1)

static int cmp_u32(const void* a, const void* b)
{
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return x < y ? -1 : x > y;
}
#define DOT_MAX_NODES 150
#define DOT_MAX_EDGES 250 /* measured: 150 nodes, 400 labelled edges took 11 s in dot, 250 took 1 s */

#ifdef CPR_GV_BUILTIN
/* Plugins linked in (no dependence on Graphviz's plugin configuration file
 * config6a): layouts dot and sfdp/neato, renderers svg/dot (core) and
 * png/pdf through cairo (pango). */
extern gvplugin_library_t gvplugin_dot_layout_LTX_library;
extern gvplugin_library_t gvplugin_neato_layout_LTX_library;
extern gvplugin_library_t gvplugin_core_LTX_library;
#ifdef CPR_GV_PANGO
extern gvplugin_library_t gvplugin_pango_LTX_library;
#endif
static lt_symlist_t builtins[] = {
    {"gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library},
    {"gvplugin_neato_layout_LTX_library", &gvplugin_neato_layout_LTX_library},
    {"gvplugin_core_LTX_library", &gvplugin_core_LTX_library},
#ifdef CPR_GV_PANGO
    {"gvplugin_pango_LTX_library", &gvplugin_pango_LTX_library},
#endif
    {0, 0}};
#endif

void cpr_graph_opts_init(cpr_graph_opts* o)
{
    memset(o, 0, sizeof *o);
    o->layout = "auto";
    o->threshold = 100;
    o->depth = 1;
    o->max_nodes = 200;
    o->max_edges = 400;
}

/* An ID discipline that numbers named objects in creation order.  cgraph's
 * default uses the address of the name's string as the ID, and orders
 * subgraphs (clusters) by ID: their order in the output, and so the layout,
 * then depends on the heap. */
typedef struct {
    Agraph_t* g;
    cpr_strmap map; /* name -> index */
    char** names;   /* cgraph's reference-counted strings (agstrdup): the
                     * writer reads their flags (an HTML label or not) */
    size_t n;
    IDTYPE anon;
} idstate;

static void* id_open(Agraph_t* g, Agdisc_t* d)
{
    (void)d;
    idstate* s = cpr_xcalloc(1, sizeof *s);
    s->g = g;
    s->anon = 1;
    return s;
}

static long id_map(void* state, int objtype, char* str, IDTYPE* id, int createflag)
{
    idstate* s = state;
    (void)objtype;
    if (!str) {
        *id = s->anon;
        s->anon += 2;
        return 1;
    }
    size_t k = cpr_strmap_get(&s->map, str, s->n, createflag);
    if (k == (size_t)-1) {
        *id = 0;
        return 1;
    }
    if (k == s->n) {
        if (s->n % 64 == 0) s->names = cpr_xrealloc(s->names, s->n + 64, sizeof *s->names);
        s->names[s->n++] = agstrdup(s->g, str);
    }
    *id = (IDTYPE)(2 * (k + 1));
    return 1;
}

static long id_alloc(void* state, int objtype, IDTYPE id)
{
    (void)state;
    (void)objtype;
    (void)id;
    return 0;
}

static void id_free(void* state, int objtype, IDTYPE id)
{
    (void)state;
    (void)objtype;
    (void)id;
}

static char* id_print(void* state, int objtype, IDTYPE id)
{
    idstate* s = state;
    (void)objtype;
    if (id % 2 || !id || id / 2 > s->n) return NULL;
    return s->names[id / 2 - 1];
}

static void id_close(void* state)
{
    idstate* s = state;
    /* the strings go with the graph's string dictionary */
    free(s->names);
    cpr_strmap_free(&s->map);
    free(s);
}

static void id_register(void* state, int objtype, void* obj)
{
    (void)state;
    (void)objtype;
    (void)obj;
}

static Agiddisc_t seq_iddisc = {id_open, id_map, id_alloc, id_free, id_print, id_close, id_register};
static Agdisc_t seq_disc = {NULL, &seq_iddisc, NULL};

static Agraph_t* open_graph(void)
{
    seq_disc.mem = AgDefaultDisc.mem;
    seq_disc.io = AgDefaultDisc.io;
    return agopen((char*)"commprof", Agdirected, &seq_disc);
}

/* Graphviz's char* parameters, for string literals */
static Agsym_t* attr_decl(Agraph_t* g, int kind, const char* name, const char* def)
{
    return agattr(g, kind, (char*)name, (char*)def);
}

static void set(void* obj, Agsym_t* sym, const char* v) { agxset(obj, sym, (char*)v); }

/* ordinary Graphviz labels treat backslash as an escape (\N, \n, \l ...);
   control characters are shown escaped, as the tables show them */
static void label_escape(cpr_buf* b, const char* s)
{
    cpr_buf v = {0};
    cpr_buf_put_visible(&v, s);
    for (const char* c = v.s ? v.s : ""; *c; c++) {
        if (*c == '\\')
            cpr_buf_puts(b, "\\\\");
        else
            cpr_buf_add(b, c, 1);
    }
    cpr_buf_free(&v);
}

static char gv_errbuf[512];
static int gv_error(char* msg)
{
    if (!gv_errbuf[0] && msg) {
        snprintf(gv_errbuf, sizeof gv_errbuf, "%s", msg);
        char* nl = strpbrk(gv_errbuf, "\r\n");
        if (nl) *nl = '\0';
    }
    return 0;
}

/* "commprof: EXE ARGS", the start of every graph's title. */
static void title_start(cpr_buf* t, const cpr_profile* p)
{
    label_escape(t, "commprof: ");
    label_escape(t, p->exe ? p->exe : "");
    for (size_t i = 0; i < p->nargs; i++) {
        cpr_buf_puts(t, " ");
        label_escape(t, p->args[i]);
    }
}

/* The attributes the renderers set on nodes and edges; e_extra is the one
   edge attribute in which the graphs differ (weight, or style). */
typedef struct {
    Agsym_t *n_label, *n_shape, *n_style, *n_fill;
    Agsym_t *e_label, *e_color, *e_fcolor, *e_pen, *e_extra;
} graph_syms;

/* Declares the graph, node and edge attributes every graph has (the title
   is consumed), with the edge attribute extra_name defaulting to extra_def. */
static graph_syms declare_graph(Agraph_t* g, cpr_buf* title, const char* layout, const char* extra_name,
                                const char* extra_def)
{
    graph_syms gs;
    attr_decl(g, AGRAPH, "label", title->s);
    cpr_buf_free(title);
    attr_decl(g, AGRAPH, "labelloc", "t");
    attr_decl(g, AGRAPH, "fontname", "Helvetica");
    attr_decl(g, AGRAPH, "fontsize", "12");
    attr_decl(g, AGRAPH, "layout", layout);
    if (!strcmp(layout, "dot")) {
        attr_decl(g, AGRAPH, "nslimit", "2");
        attr_decl(g, AGRAPH, "nslimit1", "2");
        attr_decl(g, AGRAPH, "mclimit", "0.5");
    } else {
        attr_decl(g, AGRAPH, "start", "1");
        attr_decl(g, AGRAPH, "overlap", "prism");
        attr_decl(g, AGRAPH, "outputorder", "edgesfirst");
    }
    gs.n_label = attr_decl(g, AGNODE, "label", "\\N");
    gs.n_shape = attr_decl(g, AGNODE, "shape", "ellipse");
    gs.n_style = attr_decl(g, AGNODE, "style", "filled");
    gs.n_fill = attr_decl(g, AGNODE, "fillcolor", "#ffffff");
    attr_decl(g, AGNODE, "fontname", "Helvetica");
    attr_decl(g, AGNODE, "fontsize", "10");
    gs.e_label = attr_decl(g, AGEDGE, "label", "");
    gs.e_color = attr_decl(g, AGEDGE, "color", "#000000");
    gs.e_fcolor = attr_decl(g, AGEDGE, "fontcolor", "#000000");
    gs.e_pen = attr_decl(g, AGEDGE, "penwidth", "1");
    gs.e_extra = attr_decl(g, AGEDGE, extra_name, extra_def);
    attr_decl(g, AGEDGE, "arrowhead", "vee");
    attr_decl(g, AGEDGE, "fontname", "Helvetica");
    attr_decl(g, AGEDGE, "fontsize", "9");
    return gs;
}

/* Label, colour (log ramp of bytes), a darker label colour readable on
   white and pen width of an edge; returns the edge's log share of maxbytes
   in [0, 1]. */
static double style_edge(Agedge_t* ge, const graph_syms* gs, const char* lab, uint64_t bytes, uint64_t maxbytes)
{
    char col[8], fcol[8], pen[16];
    set(ge, gs->e_label, lab);
    cpr_ramp_color(bytes, maxbytes, col);
    set(ge, gs->e_color, col);
    unsigned rgb = (unsigned)strtoul(col + 1, NULL, 16);
    snprintf(fcol, sizeof fcol, "#%02x%02x%02x", ((rgb >> 16) & 255) * 3 / 5, ((rgb >> 8) & 255) * 3 / 5,
             (rgb & 255) * 3 / 5);
    set(ge, gs->e_fcolor, fcol);
    double lg = maxbytes > 1 ? log((double)bytes) / log((double)maxbytes) : 1;
    if (lg < 0) lg = 0;
    snprintf(pen, sizeof pen, "%.2f", 1 + 3 * lg);
    set(ge, gs->e_pen, pen);
    return lg;
}

static const char* const cluster_fill[] = {"#a6cee3", "#b2df8a", "#fb9a99", "#fdbf6f", "#cab2d6",
                                           "#ffff99", "#8dd3c7", "#bebada", "#fccde5", "#d9d9d9"};
static const char* const cluster_back[] = {"#eef6fb", "#f2faea", "#fff0f0", "#fff5e8", "#f5f0f8",
                                           "#fffff0", "#eefaf8", "#f3f2f9", "#fff4fa", "#f7f7f7"};
#define NPALETTE (sizeof cluster_fill / sizeof cluster_fill[0])

/* chooses the edges and nodes to draw; returns the number of edges in *sel */
static int select_graph(const cpr_profile* p, const cpr_graph_opts* o, size_t** sel_out, size_t* nsel_out,
                        unsigned char** node_out, size_t* ncand_out, cpr_error* err)
{
    size_t n = p->nfuncs;
    unsigned char* keep = cpr_xcalloc(n + 1, 1); /* node allowed */
    for (size_t i = 0; i < n; i++) keep[i] = !(o->no_special && p->funcs[i].special);
    unsigned char* seed = cpr_xcalloc(n + 1, 1);
    if (o->nfocus) {
        /* BFS over the undirected graph, depth hops from the focus functions */
        size_t* dist = cpr_xmalloc((n + 1) * sizeof *dist);
        size_t* queue = cpr_xmalloc((n + 1) * sizeof *queue);
        size_t qh = 0, qt = 0;
        for (size_t i = 0; i < n; i++) dist[i] = NONE;
        for (size_t k = 0; k < o->nfocus; k++) {
            size_t found[64];
            size_t nf = cpr_find_by_name(p, o->focus[k], found, 64);
            if (!nf) {
                free(dist);
                free(queue);
                free(keep);
                free(seed);
                cpr_seterr(err, p->path, 0, "--focus=%s: no function of that name", o->focus[k]);
                return CPR_EUSAGE;
            }
            for (size_t j = 0; j < nf && j < 64; j++)
                if (dist[found[j]] == NONE && keep[found[j]]) {
                    dist[found[j]] = 0;
                    seed[found[j]] = 1;
                    queue[qt++] = found[j];
                }
        }
        /* adjacency lists */
        size_t* deg = cpr_xcalloc(n + 1, sizeof *deg);
        for (size_t i = 0; i < p->nedges; i++) {
            deg[p->edges[i].p]++;
            deg[p->edges[i].c]++;
        }
        size_t* start = cpr_xmalloc((n + 1) * sizeof *start);
        start[0] = 0;
        for (size_t i = 0; i < n; i++) start[i + 1] = start[i] + deg[i];
        size_t* adj = cpr_xmalloc((2 * p->nedges + 1) * sizeof *adj);
        memset(deg, 0, (n + 1) * sizeof *deg);
        for (size_t i = 0; i < p->nedges; i++) {
            size_t a = p->edges[i].p, b = p->edges[i].c;
            adj[start[a] + deg[a]++] = b;
            adj[start[b] + deg[b]++] = a;
        }
        while (qh < qt) {
            size_t v = queue[qh++];
            if (dist[v] >= o->depth) continue;
            for (size_t j = start[v]; j < start[v + 1]; j++) {
                size_t u = adj[j];
                if (dist[u] == NONE && keep[u]) {
                    dist[u] = dist[v] + 1;
                    queue[qt++] = u;
                }
            }
        }
        for (size_t i = 0; i < n; i++) keep[i] = keep[i] && dist[i] != NONE;
        free(dist);
        free(queue);
        free(deg);
        free(start);
        free(adj);
    }
    /* candidate edges, heaviest first */
    size_t* order = cpr_edges_by_bytes(p);
    size_t ncand = 0;
    long double total = 0;
    for (size_t k = 0; k < p->nedges; k++) {
        const cpr_edge* e = &p->edges[order[k]];
        if (keep[e->p] && keep[e->c]) {
            order[ncand++] = order[k];
            total += e->bytes;
        }
    }
    size_t limit = ncand;
    if (o->threshold < 100) {
        long double cum = 0, lim = total * (long double)o->threshold / 100;
        limit = 0;
        while (limit < ncand && cum < lim) cum += p->edges[order[limit++]].bytes;
    }
    if (o->top && limit > o->top) limit = o->top;
    /* caps: heaviest edges first, as long as their nodes fit */
    unsigned char* node = cpr_xcalloc(n + 1, 1);
    size_t nnodes = 0;
    for (size_t i = 0; i < n; i++)
        if (seed[i]) {
            node[i] = 1;
            nnodes++;
        }
    size_t nsel = 0;
    for (size_t k = 0; k < limit && nsel < o->max_edges; k++) {
        const cpr_edge* e = &p->edges[order[k]];
        size_t add = (!node[e->p]) + (e->c != e->p && !node[e->c]);
        if (nnodes + add > o->max_nodes) continue;
        node[e->p] = node[e->c] = 1;
        nnodes += add;
        order[nsel++] = order[k];
    }
    free(keep);
    free(seed);
    *sel_out = order;
    *nsel_out = nsel;
    *node_out = node;
    *ncand_out = ncand;
    return CPR_OK;
}

/* writes g (DOT, or laid out and rendered) to -o and closes it */
static int emit(Agraph_t* g, const char* fmt, const char* layout, const cpr_graph_opts* o, cpr_error* err)
{
    int rc;
    FILE* f = cpr_open_output(o->output, err);
    if (!f) {
        agclose(g);
        return CPR_EINPUT;
    }
    rc = CPR_OK;
    if (!strcmp(fmt, "dot")) {
        if (agwrite(g, f) != 0)
            cpr_seterr(err, o->output ? o->output : "<stdout>", 0, "write error: %s", strerror(errno ? errno : EIO));
    } else {
#ifdef CPR_GV_BUILTIN
        GVC_t* gvc = gvContextPlugins(builtins, 0);
#else
        GVC_t* gvc = gvContext();
#endif
        /* rendered to memory, then written by cpr_close_output's rules:
           gvRender to a FILE calls exit(1) on a write error (a full disk,
           /dev/full), silently, leaving a partial file */
        char* data = NULL;
        unsigned int len = 0;
        int ok = gvc && gvLayout(gvc, g, layout) == 0;
        if (ok && gvRenderData(gvc, g, fmt, &data, &len) != 0) {
#ifdef CPR_GV_BUILTIN
            /* a renderer that is not linked in: Graphviz's configured plugins */
            gvFreeLayout(gvc, g);
            gvFreeContext(gvc);
            gv_errbuf[0] = '\0';
            gvc = gvContext();
            if (data) gvFreeRenderData(data);
            data = NULL;
            len = 0;
            ok = gvc && gvLayout(gvc, g, layout) == 0 && gvRenderData(gvc, g, fmt, &data, &len) == 0;
#else
            ok = 0;
#endif
        }
        if (!ok)
            cpr_seterr(err, o->output ? o->output : "<stdout>", 0, "Graphviz could not lay out or render %s: %s",
                       fmt, gv_errbuf[0] ? gv_errbuf : "unknown error");
        else if (len)
            fwrite(data, 1, len, f); /* an error: ferror, reported by cpr_close_output */
        if (data) gvFreeRenderData(data);
        if (gvc) {
            /* Graphviz 2.43's dot frees memory twice when it frees the
               layout of some graphs with clusters and labelled edges
               between them (a thread graph); the layout is left to the
               process's exit there (agclose does not touch it) */
            if (strcmp(layout, "dot") || !agfstsubg(g)) gvFreeLayout(gvc, g);
            gvFreeContext(gvc);
        }
    }
    agclose(g);
    if (cpr_close_output(f, o->output, err) || err->set) rc = CPR_EINPUT;
    return rc;
}


static int render_sections(const cpr_profile* p, const cpr_graph_opts* o, const char* fmt, cpr_error* err);

int cpr_graph_render(const cpr_profile* p, const cpr_graph_opts* o, cpr_error* err)
{
    const char* fmt = o->format;
    if (!fmt) {
        const char* dot = o->output ? strrchr(o->output, '.') : NULL;
        fmt = dot ? dot + 1 : "dot";
        if (!o->output || !strcmp(o->output, "-")) fmt = "dot";
    }
    if (!strcmp(fmt, "gv")) fmt = "dot";
    if (strcmp(fmt, "dot") && strcmp(fmt, "svg") && strcmp(fmt, "png") && strcmp(fmt, "pdf")) {
        cpr_seterr(err, o->output ? o->output : "", 0,
                   "unknown graph format '%s' (dot, svg, png or pdf; use --format)", fmt);
        return CPR_EUSAGE;
    }
    if (o->mode != CPR_GRAPH_FUNCTIONS) return render_sections(p, o, fmt, err);
    size_t *sel, nsel, ncand;
    unsigned char* node;
    int rc = select_graph(p, o, &sel, &nsel, &node, &ncand, err);
    if (rc) return rc;

    size_t nnodes = 0;
    uint64_t maxbytes = 1, maxinstr = 0;
    for (size_t i = 0; i < p->nfuncs; i++)
        if (node[i]) {
            nnodes++;
            if (!p->funcs[i].special && p->funcs[i].instructions > maxinstr) maxinstr = p->funcs[i].instructions;
        }
    for (size_t k = 0; k < nsel; k++)
        if (p->edges[sel[k]].bytes > maxbytes) maxbytes = p->edges[sel[k]].bytes;
    const char* layout = o->layout;
    if (!strcmp(layout, "auto")) layout = (nnodes > DOT_MAX_NODES || nsel > DOT_MAX_EDGES) ? "sfdp" : "dot";
    if (nsel < ncand)
        fprintf(stderr, "%s: graph: %zu of %zu edges and %zu nodes drawn (--threshold, --top, --max-edges, --max-nodes)\n",
                CPR_PROG, nsel, ncand, nnodes);

    agseterr(AGMAX);
    agseterrf(gv_error);
    gv_errbuf[0] = '\0';
    Agraph_t* g = open_graph();
    /* graph attributes; the title names the run and what is shown */
    char a[32], b[32], tot[32], ns[32];
    uint64_t shown = 0;
    for (size_t k = 0; k < nsel; k++)
        if (cpr_add_u64(shown, p->edges[sel[k]].bytes, &shown)) shown = UINT64_MAX;
    cpr_buf title = {0};
    title_start(&title, p);
    /* (of all the profile's edges; the note on stderr counts those the
       options let in) */
    cpr_buf_printf(&title, "\\n%s of %s edges; %s of %s communicated", cpr_fmt_u64(ns, nsel),
                   cpr_fmt_u64(a, p->nedges),
                   cpr_fmt_human(b, shown, "B"), cpr_fmt_human(tot, p->t_comm_bytes, "B"));
    graph_syms gs = declare_graph(g, &title, layout, "weight", "1");

    /* clusters of a partition */
    Agraph_t** sub = NULL;
    if (o->cluster && o->nclusters > 0) {
        sub = cpr_xcalloc((size_t)o->nclusters, sizeof *sub);
        long double* load = cpr_xcalloc((size_t)o->nclusters, sizeof *load);
        for (size_t i = 0; i < p->nfuncs; i++)
            if (o->cluster[i] >= 0 && o->cluster[i] < o->nclusters) load[o->cluster[i]] += p->funcs[i].instructions;
        for (int k = 0; k < o->nclusters; k++) {
            char nm[32];
            snprintf(nm, sizeof nm, "cluster_%d", k + 1);
            sub[k] = agsubg(g, nm, 1);
            char lab[64];
            snprintf(lab, sizeof lab, "cluster %d: %.1f%% of the instructions", k + 1,
                     p->t_instructions ? (double)(100.0L * load[k] / p->t_instructions) : 0.0);
            agsafeset(sub[k], (char*)"label", lab, (char*)"");
            agsafeset(sub[k], (char*)"style", (char*)"filled", (char*)"");
            agsafeset(sub[k], (char*)"color", (char*)cluster_fill[k % NPALETTE], (char*)"");
            agsafeset(sub[k], (char*)"fillcolor", (char*)cluster_back[k % NPALETTE], (char*)"");
        }
        free(load);
    }

    Agnode_t** gn = cpr_xcalloc(p->nfuncs + 1, sizeof *gn);
    long double tinstr = (long double)p->t_instructions;
    for (size_t i = 0; i < p->nfuncs; i++) {
        if (!node[i]) continue;
        const cpr_func* f = &p->funcs[i];
        char nm[32];
        snprintf(nm, sizeof nm, "n%u", f->id);
        int k = (sub && o->cluster[i] >= 0 && o->cluster[i] < o->nclusters) ? o->cluster[i] : -1;
        Agnode_t* v = agnode(k >= 0 ? sub[k] : g, nm, 1);
        gn[i] = v;
        cpr_buf lab = {0};
        char buf[1200];
        label_escape(&lab, cpr_display_name(p, i, buf, sizeof buf));
        if (f->special) {
            set(v, gs.n_shape, "box");
            set(v, gs.n_style, "dashed");
        } else {
            char pct[16];
            double share = tinstr > 0 ? (double)(100.0L * f->instructions / tinstr) : 0;
            snprintf(pct, sizeof pct, "%.1f%%", share);
            cpr_buf_printf(&lab, "\\n%s instr, %s call%s", pct, cpr_fmt_u64(a, f->calls), f->calls == 1 ? "" : "s");
            if (f->kind == CPR_KIND_REGION) set(v, gs.n_shape, "component"); /* a code region */
            char fill[8];
            if (k >= 0) {
                snprintf(fill, sizeof fill, "%s", cluster_fill[k % NPALETTE]);
            } else {
                /* white to grey by share of instructions (relative to the largest) */
                double t = maxinstr ? (double)f->instructions / (double)maxinstr : 0;
                int gval = 255 - (int)(t * 120 + 0.5);
                snprintf(fill, sizeof fill, "#%02x%02x%02x", gval, gval, gval);
            }
            set(v, gs.n_fill, fill);
        }
        set(v, gs.n_label, lab.s);
        cpr_buf_free(&lab);
    }
    for (size_t k = 0; k < nsel; k++) {
        const cpr_edge* e = &p->edges[sel[k]];
        Agedge_t* ge = agedge(g, gn[e->p], gn[e->c], NULL, 1);
        char lab[96], w[16], hb[32], hu[32];
        snprintf(lab, sizeof lab, "%s\\n%s UnMA", cpr_fmt_human(hb, e->bytes, "B"), cpr_fmt_human(hu, e->unma, ""));
        double lg = style_edge(ge, &gs, lab, e->bytes, maxbytes);
        snprintf(w, sizeof w, "%d", 1 + (int)(lg * 4));
        set(ge, gs.e_extra, w);
    }
    free(gn);
    free(sub);
    free(sel);
    free(node);

    return emit(g, fmt, layout, o, err);
}

/* ---- graphs of the other sections ------------------------------------------
 *
 * --objects: functions and data objects (boxes: name, size, kind); producer
 * -> object -> consumer from <object-flows>, the edges labelled with bytes.
 * --threads: one node per (function, thread) from <thread-edges>, in one
 * cluster per thread.  --phases: one node per (function, phase) from
 * <phase-edges>, in one cluster per phase; edges between phases are dashed.
 * The items (flows, thread edges, phase edges) are taken heaviest first,
 * after --focus (an item whose producer or consumer function is named),
 * --no-special, --threshold and --top, as long as --max-edges and
 * --max-nodes allow. */

typedef struct {
    size_t p, c;    /* node indices */
    uint64_t bytes, unma;
    int has_unma, cross;
} aedge;

typedef struct {
    char key[48];
    int kind;    /* 0 function, 1 object */
    size_t idx;  /* function or object index */
    long cl;     /* cluster, -1 none */
} anode;

typedef struct {
    anode* n;
    size_t nn;
    cpr_pairmap keys; /* (kind/idx, cluster) -> node */
    aedge* e;
    size_t ne;
    cpr_pairmap pairs;
} agraph;

static size_t a_node(agraph* a, int kind, size_t idx, long cl)
{
    size_t k1 = idx * 2 + (size_t)kind, k2 = (size_t)(cl + 1);
    size_t v = cpr_pairmap_get(&a->keys, k1, k2, a->nn, 1);
    if (v == a->nn) {
        if (a->nn % 64 == 0) a->n = cpr_xrealloc(a->n, a->nn + 64, sizeof *a->n);
        anode* n = &a->n[a->nn++];
        snprintf(n->key, sizeof n->key, "%c%zu_%ld", kind ? 'o' : 'f', idx, cl + 1);
        n->kind = kind;
        n->idx = idx;
        n->cl = cl;
    }
    return v;
}

static void a_edge(agraph* a, size_t p, size_t c, uint64_t bytes, uint64_t unma, int has_unma, int cross)
{
    size_t v = cpr_pairmap_get(&a->pairs, p, c, a->ne, 1);
    if (v == a->ne) {
        if (a->ne % 64 == 0) a->e = cpr_xrealloc(a->e, a->ne + 64, sizeof *a->e);
        a->e[a->ne++] = (aedge){p, c, bytes, unma, has_unma, cross};
    } else {
        aedge* e = &a->e[v];
        if (cpr_add_u64(e->bytes, bytes, &e->bytes)) e->bytes = UINT64_MAX;
        if (unma > e->unma) e->unma = unma;
        e->has_unma = 0; /* a sum of address sets is not known */
    }
}

/* an item of the section: its producer and consumer functions and bytes */
typedef struct {
    size_t i;
    uint64_t bytes;
} aitem;

static int cmp_aitem(const void* x, const void* y)
{
    const aitem *a = x, *b = y;
    if (a->bytes != b->bytes) return a->bytes > b->bytes ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

static int render_sections(const cpr_profile* p, const cpr_graph_opts* o, const char* fmt, cpr_error* err)
{
    int mode = o->mode;
    size_t nitems = mode == CPR_GRAPH_OBJECTS ? p->nflows : mode == CPR_GRAPH_THREADS ? p->ntedges : p->npedges;
    if (mode == CPR_GRAPH_OBJECTS && !p->has_objects) {
        cpr_seterr(err, p->path, 0, "--objects: this profile has no <objects> (profile with --objects=yes)");
        return CPR_EINPUT;
    }
    if (mode == CPR_GRAPH_PHASES && !p->has_phases) {
        cpr_seterr(err, p->path, 0, "--phases: this profile has no <phases> (mark them with COMMPROF_PHASE)");
        return CPR_EINPUT;
    }
    /* --focus: the functions named */
    unsigned char* focus = NULL;
    if (o->nfocus) {
        focus = cpr_xcalloc(p->nfuncs + 1, 1);
        for (size_t k = 0; k < o->nfocus; k++) {
            size_t found[64];
            size_t nf = cpr_find_by_name(p, o->focus[k], found, 64);
            if (!nf) {
                free(focus);
                cpr_seterr(err, p->path, 0, "--focus=%s: no function of that name", o->focus[k]);
                return CPR_EUSAGE;
            }
            for (size_t j = 0; j < nf && j < 64; j++) focus[found[j]] = 1;
        }
    }
    aitem* it = cpr_xmalloc((nitems + 1) * sizeof *it);
    size_t ni = 0;
    long double total = 0;
    for (size_t k = 0; k < nitems; k++) {
        size_t fp, fc;
        uint64_t b;
        if (mode == CPR_GRAPH_OBJECTS) {
            fp = p->flows[k].p;
            fc = p->flows[k].c;
            b = p->flows[k].bytes;
        } else if (mode == CPR_GRAPH_THREADS) {
            fp = p->tedges[k].p;
            fc = p->tedges[k].c;
            b = p->tedges[k].bytes;
        } else {
            fp = p->pedges[k].p;
            fc = p->pedges[k].c;
            b = p->pedges[k].bytes;
        }
        if (o->no_special && (p->funcs[fp].special || p->funcs[fc].special)) continue;
        if (focus && !focus[fp] && !focus[fc]) continue;
        it[ni++] = (aitem){k, b};
        total += b;
    }
    free(focus);
    qsort(it, ni, sizeof *it, cmp_aitem);
    size_t limit = ni;
    if (o->threshold < 100) {
        long double cum = 0, lim = total * (long double)o->threshold / 100;
        limit = 0;
        while (limit < ni && cum < lim) cum += it[limit++].bytes;
    }
    if (o->top && limit > o->top) limit = o->top;

    agraph a;
    memset(&a, 0, sizeof a);
    cpr_pairmap_init(&a.keys);
    cpr_pairmap_init(&a.pairs);
    size_t used = 0;
    for (size_t k = 0; k < limit; k++) {
        /* the item's nodes (kind, function or object, cluster) and edges */
        int kind[3] = {0, 0, 0};
        size_t idx[3];
        long cl[3] = {-1, -1, -1};
        size_t nn = 2;
        uint64_t bytes, unma = 0;
        int has_unma = 1, cross = 0;
        if (mode == CPR_GRAPH_OBJECTS) {
            const cpr_flow* fl = &p->flows[it[k].i];
            idx[0] = fl->p;
            kind[1] = 1;
            idx[1] = fl->o;
            idx[2] = fl->c;
            nn = 3;
            bytes = fl->bytes;
            has_unma = 0;
        } else if (mode == CPR_GRAPH_THREADS) {
            const cpr_tedge* e = &p->tedges[it[k].i];
            idx[0] = e->p;
            cl[0] = e->pt ? (long)e->pt : -1;
            idx[1] = e->c;
            cl[1] = (long)e->ct;
            bytes = e->bytes;
            unma = e->unma;
            cross = e->pt != e->ct;
        } else {
            const cpr_pedge* e = &p->pedges[it[k].i];
            idx[0] = e->p;
            cl[0] = (long)e->pp;
            idx[1] = e->c;
            cl[1] = (long)e->cp;
            bytes = e->bytes;
            unma = e->unma;
            cross = e->pp != e->cp;
        }
        size_t found[3], newn = 0, newe = 0;
        for (size_t j = 0; j < nn; j++) {
            found[j] = cpr_pairmap_get(&a.keys, idx[j] * 2 + (size_t)kind[j], (size_t)(cl[j] + 1), 0, 0);
            if (found[j] == NONE) newn++;
        }
        for (size_t j = 0; j + 1 < nn; j++)
            if (found[j] == NONE || found[j + 1] == NONE || cpr_pairmap_get(&a.pairs, found[j], found[j + 1], 0, 0) == NONE)
                newe++;
        if (a.nn + newn > o->max_nodes || a.ne + newe > o->max_edges) continue;
        size_t nd[3];
        for (size_t j = 0; j < nn; j++) nd[j] = a_node(&a, kind[j], idx[j], cl[j]);
        for (size_t j = 0; j + 1 < nn; j++) a_edge(&a, nd[j], nd[j + 1], bytes, unma, has_unma, cross);
        used++;
    }
    if (used < ni)
        fprintf(stderr, "%s: graph: %zu of %zu %s drawn (--threshold, --top, --max-edges, --max-nodes)\n", CPR_PROG,
                used, ni,
                mode == CPR_GRAPH_OBJECTS ? "object flows" : mode == CPR_GRAPH_THREADS ? "thread edges"
                                                                                        : "phase edges");
    free(it);

    const char* layout = o->layout;
    if (!strcmp(layout, "auto")) layout = (a.nn > DOT_MAX_NODES || a.ne > DOT_MAX_EDGES) ? "sfdp" : "dot";
    agseterr(AGMAX);
    agseterrf(gv_error);
    gv_errbuf[0] = '\0';
    Agraph_t* g = open_graph();
    cpr_buf title = {0};
    char hb[32], hu[32];
    title_start(&title, p);
    cpr_buf_printf(&title, "\\n%s: %zu of %zu %s",
                   mode == CPR_GRAPH_OBJECTS ? "data objects" : mode == CPR_GRAPH_THREADS ? "threads" : "phases",
                   used, nitems,
                   mode == CPR_GRAPH_OBJECTS ? "object flows" : mode == CPR_GRAPH_THREADS ? "thread edges"
                                                                                           : "phase edges");
    graph_syms gs = declare_graph(g, &title, layout, "style", "solid");

    /* clusters: threads or phases, in id order */
    cpr_idmap clmap;
    memset(&clmap, 0, sizeof clmap);
    Agraph_t** sub = cpr_xcalloc(a.nn + 1, sizeof *sub);
    size_t nsub = 0;
    uint32_t* ids = cpr_xmalloc((a.nn + 1) * sizeof *ids);
    size_t nids = 0;
    for (size_t i = 0; i < a.nn; i++)
        if (a.n[i].cl >= 0 && cpr_idmap_get(&clmap, (uint32_t)a.n[i].cl, nids, 1) == nids) ids[nids++] = (uint32_t)a.n[i].cl;
    /* sorted ids: clusters in order */
    qsort(ids, nids, sizeof *ids, cmp_u32);
    cpr_idmap_free(&clmap);
    for (size_t k = 0; k < nids; k++) {
        char nm[32], lab[500];
        snprintf(nm, sizeof nm, "cluster_%u", ids[k]);
        sub[k] = agsubg(g, nm, 1);
        cpr_idmap_get(&clmap, ids[k], k, 1);
        char l1[600];
        if (mode == CPR_GRAPH_THREADS)
            cpr_thread_label(p, ids[k], l1, sizeof l1);
        else
        {
            size_t pi = cpr_idmap_find(&p->phasemap, ids[k]);
            snprintf(lab, sizeof lab, "%s", pi == NONE ? "" : p->phases[pi].name);
            snprintf(l1, sizeof l1, "phase %u%s%s", ids[k], lab[0] ? ": " : "", lab);
        }
        cpr_buf lb = {0};
        label_escape(&lb, l1);
        agsafeset(sub[k], (char*)"label", lb.s, (char*)"");
        cpr_buf_free(&lb);
        agsafeset(sub[k], (char*)"style", (char*)"filled", (char*)"");
        agsafeset(sub[k], (char*)"color", (char*)cluster_fill[k % NPALETTE], (char*)"");
        agsafeset(sub[k], (char*)"fillcolor", (char*)cluster_back[k % NPALETTE], (char*)"");
        nsub++;
    }
    Agnode_t** gn = cpr_xcalloc(a.nn + 1, sizeof *gn);
    for (size_t i = 0; i < a.nn; i++) {
        const anode* n = &a.n[i];
        Agraph_t* parent = g;
        if (n->cl >= 0) parent = sub[cpr_idmap_find(&clmap, (uint32_t)n->cl)];
        gn[i] = agnode(parent, (char*)n->key, 1);
        cpr_buf lab = {0};
        char buf[1200];
        if (n->kind == 1) {
            const cpr_object* x = &p->objects[n->idx];
            label_escape(&lab, cpr_object_label(p, n->idx, buf, sizeof buf));
            cpr_buf_printf(&lab, "\\n%s, %s", cpr_fmt_human(hb, x->size, "B"), cpr_object_kinds[x->kind]);
            set(gn[i], gs.n_shape, "box");
            set(gn[i], gs.n_fill, "#fff3c4");
        } else {
            const cpr_func* f = &p->funcs[n->idx];
            label_escape(&lab, cpr_display_name(p, n->idx, buf, sizeof buf));
            if (f->special) {
                set(gn[i], gs.n_shape, "box");
                set(gn[i], gs.n_style, "dashed");
            } else if (f->kind == CPR_KIND_REGION) {
                set(gn[i], gs.n_shape, "component");
                set(gn[i], gs.n_fill, "#e8f0ff");
            }
        }
        set(gn[i], gs.n_label, lab.s);
        cpr_buf_free(&lab);
    }
    uint64_t maxbytes = 1;
    for (size_t k = 0; k < a.ne; k++)
        if (a.e[k].bytes > maxbytes) maxbytes = a.e[k].bytes;
    for (size_t k = 0; k < a.ne; k++) {
        const aedge* e = &a.e[k];
        Agedge_t* ge = agedge(g, gn[e->p], gn[e->c], NULL, 1);
        char lab[96];
        if (e->has_unma)
            snprintf(lab, sizeof lab, "%s\\n%s UnMA", cpr_fmt_human(hb, e->bytes, "B"), cpr_fmt_human(hu, e->unma, ""));
        else
            snprintf(lab, sizeof lab, "%s", cpr_fmt_human(hb, e->bytes, "B"));
        style_edge(ge, &gs, lab, e->bytes, maxbytes);
        if (e->cross) set(ge, gs.e_extra, mode == CPR_GRAPH_PHASES ? "dashed" : "bold");
    }
    free(gn);
    free(sub);
    free(ids);
    cpr_idmap_free(&clmap);
    free(a.n);
    free(a.e);
    cpr_pairmap_free(&a.keys);
    cpr_pairmap_free(&a.pairs);
    (void)nsub;
    return emit(g, fmt, layout, o, err);
}

static void graph_help(void)
{
    printf("Usage: %s graph [OPTIONS] PROFILE.xml\n"
           "\n"
           "The communication graph: functions as ovals (name, share of instructions,\n"
           "calls; filled darker the more instructions), special nodes such as\n"
           "(unwritten) as dashed boxes, code regions as component boxes, edges\n"
           "producer -> consumer labelled with bytes and UnMA, coloured blue -> green\n"
           "-> red and thicker on a log scale of bytes.\n"
           "\n"
           "  -o, --output=FILE   write FILE; the format comes from its extension:\n"
           "                      .dot/.gv, .svg, .png, .pdf [DOT on standard output]\n"
           "  --format=FMT        dot, svg, png or pdf, whatever the extension\n"
           "  --threshold=PCT     heaviest edges that add up to PCT%% of the bytes [100]\n"
           "  --top=N             at most the N heaviest edges [all]\n"
           "  --focus=FUNC        only FUNC and the functions within --depth hops of it\n"
           "                      (edges in either direction); may be repeated\n"
           "  --depth=N           hops around --focus [1]\n"
           "  --no-special        leave out (unwritten), (syscall ...) and the other\n"
           "                      special nodes\n"
           "  --max-nodes=N       draw at most N nodes [200]\n"
           "  --max-edges=N       draw at most N edges [400]; the heaviest edges whose\n"
           "                      nodes fit are drawn, a note on stderr says what was cut\n"
           "  --layout=ENGINE     dot, sfdp or auto: dot up to %d nodes and %d edges,\n"
           "                      sfdp (with a fixed seed) above [auto]\n"
           "  --objects           data objects (--objects=yes) as boxes with their name,\n"
           "                      size and kind: producer -> object -> consumer from the\n"
           "                      object flows, edges labelled with bytes\n"
           "  --threads           one node per (function, thread) from the thread edges,\n"
           "                      one cluster per thread; edges between threads are bold\n"
           "  --phases            one node per (function, phase) from the phase edges\n"
           "                      (COMMPROF_PHASE), one cluster per phase; edges from one\n"
           "                      phase to another are dashed\n"
           "                      With these three, --threshold, --top, --max-edges and\n"
           "                      --max-nodes count flows or edges of that section, and\n"
           "                      --focus keeps those of the functions named (no --depth)\n"
           "  -h, --help          this help\n"
           "\n"
           "DOT output is not laid out (run dot -Tsvg on it; its layout= attribute\n"
           "names the chosen engine).\n",
           CPR_PROG, DOT_MAX_NODES, DOT_MAX_EDGES);
}

/* shared by graph and partition --graph */
int cpr_graph_option(const char* cmd, int c, const char* arg, cpr_graph_opts* o)
{
    switch (c) {
    case 'o': o->output = arg; return 0;
    case 'F':
        if (strcmp(arg, "dot") && strcmp(arg, "gv") && strcmp(arg, "svg") && strcmp(arg, "png") && strcmp(arg, "pdf"))
            return cpr_usage_error(cmd, "--format=%s: expected dot, svg, png or pdf", arg);
        o->format = arg;
        return 0;
    case 'L':
        if (strcmp(arg, "dot") && strcmp(arg, "sfdp") && strcmp(arg, "auto"))
            return cpr_usage_error(cmd, "--layout=%s: expected dot, sfdp or auto", arg);
        o->layout = arg;
        return 0;
    case 't': return cpr_opt_pct(cmd, "threshold", arg, &o->threshold);
    case 'n': return cpr_opt_count(cmd, "top", arg, &o->top);
    case 'f':
        o->focus = cpr_xrealloc((void*)o->focus, o->nfocus + 1, sizeof *o->focus);
        o->focus[o->nfocus++] = arg;
        return 0;
    case 'd': {
        size_t d;
        if (cpr_opt_count(cmd, "depth", arg, &d)) return CPR_EUSAGE;
        if (d > 1000000) return cpr_usage_error(cmd, "--depth=%s: too large", arg);
        o->depth = (unsigned)d;
        return 0;
    }
    case 'S': o->no_special = 1; return 0;
    case 'O':
    case 'H':
    case 'P': {
        int m = c == 'O' ? CPR_GRAPH_OBJECTS : c == 'H' ? CPR_GRAPH_THREADS : CPR_GRAPH_PHASES;
        if (o->mode != CPR_GRAPH_FUNCTIONS && o->mode != m)
            return cpr_usage_error(cmd, "--objects, --threads and --phases draw different graphs: choose one");
        o->mode = m;
        return 0;
    }
    case 'N':
        if (cpr_opt_count(cmd, "max-nodes", arg, &o->max_nodes)) return CPR_EUSAGE;
        if (!o->max_nodes) return cpr_usage_error(cmd, "--max-nodes must be at least 1");
        return 0;
    case 'E':
        if (cpr_opt_count(cmd, "max-edges", arg, &o->max_edges)) return CPR_EUSAGE;
        if (!o->max_edges) return cpr_usage_error(cmd, "--max-edges must be at least 1");
        return 0;
    default: return cpr_usage_error(cmd, "internal: unhandled option");
    }
}

int cpr_cmd_graph(int argc, char** argv)
{
    static const struct option lo[] = {
        {"help", no_argument, 0, 'h'},           {"output", required_argument, 0, 'o'},
        {"format", required_argument, 0, 'F'},   {"layout", required_argument, 0, 'L'},
        {"threshold", required_argument, 0, 't'}, {"top", required_argument, 0, 'n'},
        {"focus", required_argument, 0, 'f'},    {"depth", required_argument, 0, 'd'},
        {"no-special", no_argument, 0, 'S'},     {"max-nodes", required_argument, 0, 'N'},
        {"max-edges", required_argument, 0, 'E'}, {"objects", no_argument, 0, 'O'},
        {"threads", no_argument, 0, 'H'},        {"phases", no_argument, 0, 'P'},
        {0, 0, 0, 0}};
    cpr_graph_opts o;
    cpr_graph_opts_init(&o);
    int c, rc = CPR_OK;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:", lo, NULL)) != -1) {
        if (c == 'h') {
            graph_help();
            free((void*)o.focus);
            return CPR_OK;
        }
        if (c == ':' || c == '?') {
            free((void*)o.focus);
            return cpr_opt_error("graph", c, optopt, argv, optind);
        }
        if (cpr_graph_option("graph", c, optarg, &o)) {
            free((void*)o.focus);
            return CPR_EUSAGE;
        }
    }
    if (optind >= argc) rc = cpr_usage_error("graph", "no profile given");
    else if (argc - optind > 1) rc = cpr_usage_error("graph", "one profile at a time (got %d)", argc - optind);
    if (rc) {
        free((void*)o.focus);
        return rc;
    }
    cpr_error err = {0};
    cpr_profile* p;
    if (cpr_load(argv[optind], &p, &err)) {
        cpr_print_error(&err);
        free((void*)o.focus);
        return CPR_EINPUT;
    }
    rc = cpr_graph_render(p, &o, &err);
    if (rc) cpr_print_error(&err);
    cpr_profile_free(p);
    free((void*)o.focus);
    return rc;
}
