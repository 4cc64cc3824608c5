/* commprof-report partition -k K: k-way clustering of the functions.
 *
 * Goal: clusters of balanced load (instructions) with few bytes crossing
 * between them.  Two stages:
 *
 * 1. The greedy multi-objective task clustering of the QUAD thesis
 *    (Ostadzadeh, ch. 5, fig. 5.4) on the undirected graph (the bytes of
 *    p -> c and c -> p added; self edges ignored): initial selection of
 *    kernels (functions with at least 0.4/K of the instructions), selection
 *    revision (a kernel next to a heavier one is dropped unless it has at
 *    least 0.5/K), then rounds in which every unfinished cluster ranks its
 *    unassigned neighbours with R = R_exe + R_cou + R_com (ranks of: the load
 *    the cluster would reach, closest to the average first; the bytes
 *    exchanged with the cluster; the bytes exchanged with the other clusters,
 *    fewest first), marks its best candidate, conflicts go to the cluster
 *    where the candidate scores highest (the others take their next one), and
 *    the marked candidates are merged.  A cluster stops at the average load,
 *    or when no neighbour fits under the balance limit.  Completion puts the
 *    remaining functions where they communicate most and fit (else on the
 *    least loaded cluster).
 * 2. Refinement: Fiduccia-Mattheyses passes of single-function moves between
 *    clusters under the balance constraint load <= (1 + eps) * total / K
 *    (best move first, each function moved once per pass, negative moves
 *    allowed, the best prefix of the pass kept) until a pass gains nothing.
 *
 * Special nodes are not code and are not partitioned; their bytes to and from
 * each cluster are reported separately. */

#include "cpr.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)
#define MAX_PASSES 50
#define MAX_MOVES_PER_PASS 4000

typedef struct {
    size_t n;          /* function nodes */
    size_t* fn;        /* profile index of each node */
    double* w;         /* instructions */
    size_t* start;     /* CSR adjacency (undirected, merged pairs) */
    size_t* adj;
    double* wt;
    size_t nadj;
    double total;
} ugraph;

typedef struct {
    int k;
    int* part;     /* node -> cluster, -1 unassigned */
    double* load;
    double* conn;  /* n x k: bytes between node and cluster */
} state;

static void build_graph(const cpr_profile* p, ugraph* g)
{
    memset(g, 0, sizeof *g);
    size_t* node = cpr_xmalloc((p->nfuncs + 1) * sizeof *node);
    g->fn = cpr_xmalloc((p->nfuncs + 1) * sizeof *g->fn);
    g->w = cpr_xmalloc((p->nfuncs + 1) * sizeof *g->w);
    for (size_t i = 0; i < p->nfuncs; i++) {
        node[i] = NONE;
        if (p->funcs[i].special) continue;
        node[i] = g->n;
        g->fn[g->n] = i;
        g->w[g->n] = (double)p->funcs[i].instructions;
        g->total += g->w[g->n];
        g->n++;
    }
    /* merge p -> c and c -> p */
    cpr_pairmap pm;
    cpr_pairmap_init(&pm);
    size_t ne = 0;
    size_t* ea = cpr_xmalloc((p->nedges + 1) * sizeof *ea);
    size_t* eb = cpr_xmalloc((p->nedges + 1) * sizeof *eb);
    double* ew = cpr_xmalloc((p->nedges + 1) * sizeof *ew);
    for (size_t k = 0; k < p->nedges; k++) {
        size_t a = node[p->edges[k].p], b = node[p->edges[k].c];
        if (a == NONE || b == NONE || a == b) continue;
        size_t lo = a < b ? a : b, hi = a < b ? b : a;
        size_t j = cpr_pairmap_get(&pm, lo, hi, ne, 1);
        if (j == ne) {
            ea[ne] = lo;
            eb[ne] = hi;
            ew[ne] = 0;
            ne++;
        }
        ew[j] += (double)p->edges[k].bytes;
    }
    cpr_pairmap_free(&pm);
    size_t* deg = cpr_xcalloc(g->n + 1, sizeof *deg);
    for (size_t k = 0; k < ne; k++) {
        deg[ea[k]]++;
        deg[eb[k]]++;
    }
    g->start = cpr_xmalloc((g->n + 1) * sizeof *g->start);
    g->start[0] = 0;
    for (size_t v = 0; v < g->n; v++) g->start[v + 1] = g->start[v] + deg[v];
    g->nadj = g->start[g->n];
    g->adj = cpr_xmalloc((g->nadj + 1) * sizeof *g->adj);
    g->wt = cpr_xmalloc((g->nadj + 1) * sizeof *g->wt);
    memset(deg, 0, (g->n + 1) * sizeof *deg);
    for (size_t k = 0; k < ne; k++) {
        size_t a = ea[k], b = eb[k];
        g->adj[g->start[a] + deg[a]] = b;
        g->wt[g->start[a] + deg[a]++] = ew[k];
        g->adj[g->start[b] + deg[b]] = a;
        g->wt[g->start[b] + deg[b]++] = ew[k];
    }
    free(deg);
    free(ea);
    free(eb);
    free(ew);
    free(node);
}

static void free_graph(ugraph* g)
{
    free(g->fn);
    free(g->w);
    free(g->start);
    free(g->adj);
    free(g->wt);
}

static void state_init(state* s, const ugraph* g, int k)
{
    s->k = k;
    s->part = cpr_xmalloc((g->n + 1) * sizeof *s->part);
    for (size_t v = 0; v < g->n; v++) s->part[v] = -1;
    s->load = cpr_xcalloc((size_t)k, sizeof *s->load);
    s->conn = cpr_xcalloc(g->n * (size_t)k + 1, sizeof *s->conn);
}

static void state_free(state* s)
{
    free(s->part);
    free(s->load);
    free(s->conn);
}

static void assign(state* s, const ugraph* g, size_t v, int c)
{
    int old = s->part[v];
    if (old == c) return;
    if (old >= 0) s->load[old] -= g->w[v];
    s->load[c] += g->w[v];
    s->part[v] = c;
    for (size_t j = g->start[v]; j < g->start[v + 1]; j++) {
        size_t u = g->adj[j];
        if (old >= 0) s->conn[u * (size_t)s->k + (size_t)old] -= g->wt[j];
        s->conn[u * (size_t)s->k + (size_t)c] += g->wt[j];
    }
}

static double coupling_total(const ugraph* g, size_t v)
{
    double t = 0;
    for (size_t j = g->start[v]; j < g->start[v + 1]; j++) t += g->wt[j];
    return t;
}

/* ---- stage 1: greedy clustering (QUAD thesis ch. 5) ------------------------ */

static const ugraph* sort_g;
static int cmp_weight(const void* a, const void* b)
{
    size_t x = *(const size_t*)a, y = *(const size_t*)b;
    if (sort_g->w[x] != sort_g->w[y]) return sort_g->w[x] > sort_g->w[y] ? -1 : 1;
    double cx = coupling_total(sort_g, x), cy = coupling_total(sort_g, y);
    if (cx != cy) return cx > cy ? -1 : 1;
    return x < y ? -1 : x > y;
}

static int adjacent(const ugraph* g, size_t a, size_t b)
{
    for (size_t j = g->start[a]; j < g->start[a + 1]; j++)
        if (g->adj[j] == b) return 1;
    return 0;
}

/* initial selection and its revision: K kernels */
static void select_kernels(const ugraph* g, int k, size_t* kernel)
{
    size_t* order = cpr_xmalloc((g->n + 1) * sizeof *order);
    for (size_t v = 0; v < g->n; v++) order[v] = v;
    sort_g = g;
    qsort(order, g->n, sizeof *order, cmp_weight);
    double min_share = 0.4 / k, protect = 0.5 / k;
    unsigned char* chosen = cpr_xcalloc(g->n + 1, 1);
    int nk = 0;
    /* kernels: at least min_share of the instructions; one next to a heavier
     * kernel is dropped unless it has at least `protect` */
    for (size_t i = 0; i < g->n && nk < k; i++) {
        size_t v = order[i];
        if (g->total <= 0 || g->w[v] < min_share * g->total) break;
        int near = 0;
        for (int j = 0; j < nk; j++)
            if (adjacent(g, v, kernel[j])) near = 1;
        if (near && g->w[v] < protect * g->total) continue;
        kernel[nk++] = v;
        chosen[v] = 1;
    }
    /* too few: the heaviest functions not next to a kernel, then any */
    for (int pass = 0; pass < 2 && nk < k; pass++)
        for (size_t i = 0; i < g->n && nk < k; i++) {
            size_t v = order[i];
            if (chosen[v]) continue;
            int near = 0;
            for (int j = 0; j < nk && !pass; j++)
                if (adjacent(g, v, kernel[j])) near = 1;
            if (near) continue;
            kernel[nk++] = v;
            chosen[v] = 1;
        }
    free(chosen);
    free(order);
}

typedef struct {
    size_t v;
    double score, coup;
} cand;

static int cmp_cand(const void* a, const void* b)
{
    const cand *x = a, *y = b;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    if (x->coup != y->coup) return x->coup > y->coup ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

static int cmp_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

/* competition rank of vals[i] among vals (1 = worst, larger = better), where
 * better means larger value: 1 + the number of values below it, added to
 * rank[i].  Counted in a sorted copy (sorted is n doubles of scratch), so
 * that a step costs n log n, not n * n: a profile of thousands of
 * functions has as many candidates. */
static void rank_larger_better(const double* vals, size_t n, double* rank, double* sorted)
{
    memcpy(sorted, vals, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    for (size_t i = 0; i < n; i++) {
        size_t lo = 0, hi = n;            /* the first sorted value not below vals[i] */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (sorted[mid] < vals[i]) lo = mid + 1;
            else hi = mid;
        }
        rank[i] += (double)(lo + 1);
    }
}

static void greedy(const ugraph* g, int k, double cap, state* s)
{
    size_t* kernel = cpr_xmalloc((size_t)k * sizeof *kernel);
    select_kernels(g, k, kernel);
    for (int c = 0; c < k; c++) assign(s, g, kernel[c], c);
    free(kernel);
    double target = g->total / k;
    unsigned char* finished = cpr_xcalloc((size_t)k, 1);
    cand** list = cpr_xcalloc((size_t)k, sizeof *list);
    size_t* nlist = cpr_xcalloc((size_t)k, sizeof *nlist);
    size_t* pick = cpr_xmalloc((size_t)k * sizeof *pick); /* position in list, NONE = no pick */
    unsigned char* decided = cpr_xcalloc((size_t)k, 1);
    double* vals = cpr_xmalloc((g->n + 1) * 3 * sizeof *vals);
    double* rank = cpr_xmalloc((g->n + 1) * sizeof *rank);
    double* sorted = cpr_xmalloc((g->n + 1) * sizeof *sorted);
    for (;;) {
        /* phase 1: candidate selection */
        int any = 0;
        for (int c = 0; c < k; c++) {
            nlist[c] = 0;
            pick[c] = NONE;
            if (finished[c]) continue;
            if (s->load[c] >= target) { /* stopping point: the cluster has its share */
                finished[c] = 1;
                continue;
            }
            free(list[c]);
            list[c] = cpr_xmalloc((g->n + 1) * sizeof **list);
            size_t m = 0, neighbours = 0;
            for (size_t v = 0; v < g->n; v++) {
                if (s->part[v] >= 0 || s->conn[v * (size_t)k + (size_t)c] <= 0) continue;
                neighbours++;
                if (s->load[c] + g->w[v] > cap) continue; /* constraint */
                list[c][m++] = (cand){v, 0, s->conn[v * (size_t)k + (size_t)c]};
            }
            if (!neighbours || !m) {
                finished[c] = 1;
                continue;
            }
            /* R = R_exe + R_cou + R_com */
            for (size_t i = 0; i < m; i++) rank[i] = 0;
            for (size_t i = 0; i < m; i++) vals[i] = -fabs(target - (s->load[c] + g->w[list[c][i].v]));
            rank_larger_better(vals, m, rank, sorted);
            for (size_t i = 0; i < m; i++) vals[i] = list[c][i].coup;
            rank_larger_better(vals, m, rank, sorted);
            for (size_t i = 0; i < m; i++) {
                double other = 0;
                for (int d = 0; d < k; d++)
                    if (d != c) other += s->conn[list[c][i].v * (size_t)k + (size_t)d];
                vals[i] = -other;
            }
            rank_larger_better(vals, m, rank, sorted);
            for (size_t i = 0; i < m; i++) list[c][i].score = rank[i];
            qsort(list[c], m, sizeof **list, cmp_cand);
            nlist[c] = m;
            pick[c] = 0;
            any = 1;
        }
        if (!any) break;
        /* phase 2: conflict resolution */
        memset(decided, 0, (size_t)k);
        for (;;) {
            /* the candidate marked by most undecided clusters */
            size_t best_v = NONE;
            int best_m = 1;
            for (int c = 0; c < k; c++) {
                if (decided[c] || pick[c] == NONE) continue;
                size_t v = list[c][pick[c]].v;
                int mcount = 0;
                for (int d = 0; d < k; d++)
                    if (!decided[d] && pick[d] != NONE && list[d][pick[d]].v == v) mcount++;
                if (mcount > best_m || (mcount == best_m && mcount > 1 && v < best_v)) {
                    best_m = mcount;
                    best_v = v;
                }
            }
            if (best_v == NONE) break;
            /* the winner: highest score, then coupling, then lowest index */
            int win = -1;
            for (int c = 0; c < k; c++) {
                if (decided[c] || pick[c] == NONE || list[c][pick[c]].v != best_v) continue;
                if (win < 0 || list[c][pick[c]].score > list[win][pick[win]].score ||
                    (list[c][pick[c]].score == list[win][pick[win]].score &&
                     list[c][pick[c]].coup > list[win][pick[win]].coup))
                    win = c;
            }
            decided[win] = 1;
            for (int c = 0; c < k; c++) {
                if (c == win || decided[c] || pick[c] == NONE || list[c][pick[c]].v != best_v) continue;
                /* the next candidate that no decided cluster has taken */
                size_t q = pick[c] + 1;
                for (; q < nlist[c]; q++) {
                    int taken = 0;
                    for (int d = 0; d < k; d++)
                        if (decided[d] && pick[d] != NONE && list[d][pick[d]].v == list[c][q].v) taken = 1;
                    if (!taken) break;
                }
                if (q < nlist[c])
                    pick[c] = q;
                else {
                    pick[c] = NONE;
                    decided[c] = 1;
                }
            }
        }
        /* phase 3: merge and update */
        for (int c = 0; c < k; c++)
            if (pick[c] != NONE && s->part[list[c][pick[c]].v] < 0) assign(s, g, list[c][pick[c]].v, c);
    }
    /* completion: the rest where it communicates most and fits, else on the
     * least loaded cluster; heaviest first */
    size_t* order = cpr_xmalloc((g->n + 1) * sizeof *order);
    size_t nr = 0;
    for (size_t v = 0; v < g->n; v++)
        if (s->part[v] < 0) order[nr++] = v;
    sort_g = g;
    qsort(order, nr, sizeof *order, cmp_weight);
    for (size_t i = 0; i < nr; i++) {
        size_t v = order[i];
        int best = -1;
        for (int c = 0; c < k; c++) {
            if (s->load[c] + g->w[v] > cap) continue;
            double cc = s->conn[v * (size_t)k + (size_t)c];
            if (best < 0 || cc > s->conn[v * (size_t)k + (size_t)best] ||
                (cc == s->conn[v * (size_t)k + (size_t)best] && s->load[c] < s->load[best]))
                best = c;
        }
        if (best < 0) {
            best = 0;
            for (int c = 1; c < k; c++)
                if (s->load[c] < s->load[best]) best = c;
        }
        assign(s, g, v, best);
    }
    free(order);
    for (int c = 0; c < k; c++) free(list[c]);
    free(list);
    free(nlist);
    free(pick);
    free(decided);
    free(finished);
    free(vals);
    free(rank);
    free(sorted);
}

/* ---- stage 2: FM refinement ------------------------------------------------ */

static double cut_of(const ugraph* g, const state* s)
{
    double cut = 0;
    for (size_t v = 0; v < g->n; v++)
        for (size_t j = g->start[v]; j < g->start[v + 1]; j++)
            if (g->adj[j] > v && s->part[g->adj[j]] != s->part[v]) cut += g->wt[j];
    return cut;
}

static double excess_of(const state* s, double cap)
{
    double e = 0;
    for (int c = 0; c < s->k; c++)
        if (s->load[c] > cap) e += s->load[c] - cap;
    return e;
}

static int better(double e1, double c1, double e2, double c2)
{
    /* lexicographic: less overload first, then a smaller cut */
    if (e1 < e2 - 1e-9) return 1;
    if (e1 > e2 + 1e-9) return 0;
    return c1 < c2 - 1e-9;
}

static int refine(const ugraph* g, double cap, state* s)
{
    int k = s->k, moved_total = 0;
    size_t* size = cpr_xcalloc((size_t)k, sizeof *size);
    for (size_t v = 0; v < g->n; v++) size[s->part[v]]++;
    unsigned char* locked = cpr_xmalloc(g->n + 1);
    size_t* mv = cpr_xmalloc((g->n + 1) * sizeof *mv);
    int* from = cpr_xmalloc((g->n + 1) * sizeof *from);
    for (int pass = 0; pass < MAX_PASSES; pass++) {
        memset(locked, 0, g->n + 1);
        double cut = cut_of(g, s), exc = excess_of(s, cap);
        double best_cut = cut, best_exc = exc;
        size_t nmoves = 0, best_prefix = 0;
        size_t limit = g->n < MAX_MOVES_PER_PASS ? g->n : MAX_MOVES_PER_PASS;
        while (nmoves < limit) {
            size_t bv = NONE;
            int bto = -1;
            double bgain = -INFINITY, bload = 0;
            for (size_t v = 0; v < g->n; v++) {
                int a = s->part[v];
                if (locked[v] || size[a] <= 1) continue;
                const double* cv = &s->conn[v * (size_t)k];
                for (int b = 0; b < k; b++) {
                    if (b == a) continue;
                    double nb = s->load[b] + g->w[v];
                    int ok = nb <= cap || (s->load[a] > cap && nb < s->load[a]);
                    if (!ok) continue;
                    /* moves out of an overloaded cluster come first */
                    double gain = cv[b] - cv[a] + (s->load[a] > cap ? 1e30 : 0);
                    if (gain > bgain || (gain == bgain && nb < bload)) {
                        bgain = gain;
                        bv = v;
                        bto = b;
                        bload = nb;
                    }
                }
            }
            if (bv == NONE) break;
            int a = s->part[bv];
            cut -= s->conn[bv * (size_t)k + (size_t)bto] - s->conn[bv * (size_t)k + (size_t)a];
            mv[nmoves] = bv;
            from[nmoves] = a;
            size[a]--;
            size[bto]++;
            assign(s, g, bv, bto);
            locked[bv] = 1;
            nmoves++;
            exc = excess_of(s, cap);
            if (better(exc, cut, best_exc, best_cut)) {
                best_exc = exc;
                best_cut = cut;
                best_prefix = nmoves;
            }
        }
        /* roll back to the best prefix */
        while (nmoves > best_prefix) {
            nmoves--;
            size_t v = mv[nmoves];
            size[s->part[v]]--;
            size[from[nmoves]]++;
            assign(s, g, v, from[nmoves]);
        }
        moved_total += (int)best_prefix;
        if (!best_prefix) break;
    }
    free(size);
    free(locked);
    free(mv);
    free(from);
    return moved_total;
}

/* ---- report ---------------------------------------------------------------- */

typedef struct {
    uint64_t cut, cut_edges, maxload;
    int balanced;
} quality;

static quality measure(const cpr_profile* p, const ugraph* g, const state* s, const int* cl, double cap)
{
    quality q = {0, 0, 0, 1};
    for (size_t k = 0; k < p->nedges; k++) {
        const cpr_edge* e = &p->edges[k];
        if (cl[e->p] < 0 || cl[e->c] < 0 || cl[e->p] == cl[e->c]) continue;
        q.cut = q.cut > UINT64_MAX - e->bytes ? UINT64_MAX : q.cut + e->bytes;
        q.cut_edges++;
    }
    for (int c = 0; c < s->k; c++) {
        if ((uint64_t)s->load[c] > q.maxload) q.maxload = (uint64_t)s->load[c];
        if (s->load[c] > cap + 0.5) q.balanced = 0;
    }
    (void)g;
    return q;
}

static void to_profile_clusters(const cpr_profile* p, const ugraph* g, const state* s, int* cl)
{
    for (size_t i = 0; i < p->nfuncs; i++) cl[i] = -1;
    for (size_t v = 0; v < g->n; v++) cl[g->fn[v]] = s->part[v];
}

static void partition_help(void)
{
    printf("Usage: %s partition -k K [OPTIONS] PROFILE.xml\n"
           "\n"
           "Splits the functions into K clusters of balanced load (instructions) with\n"
           "few bytes crossing between clusters.  First the greedy multi-objective task\n"
           "clustering of the QUAD thesis (ch. 5): clusters grow around the heaviest\n"
           "functions by a rank of load, coupling and outside communication; then\n"
           "Fiduccia-Mattheyses refinement moves single functions while each cluster\n"
           "stays within (1 + EPS) x total / K instructions.  Both results are shown.\n"
           "Special nodes ((unwritten), (syscall ...)) are not code and are not\n"
           "partitioned; their bytes to and from each cluster are listed apart.\n"
           "\n"
           "  -k, --clusters=K    number of clusters (required, at least 1)\n"
           "  --imbalance=EPS     allowed imbalance: each cluster at most (1 + EPS)\n"
           "                      times the average load [0.1]\n"
           "  --csv               print the assignment as CSV (function, file, object,\n"
           "                      greedy cluster, refined cluster)\n"
           "  --graph             draw the graph coloured by cluster into -o FILE\n"
           "                      (.dot, .svg, .png, .pdf); the graph options --format,\n"
           "                      --layout, --threshold, --top, --no-special,\n"
           "                      --max-nodes, --max-edges apply\n"
           "  -o, --output=FILE   the report (or with --graph, the graph) goes to FILE\n"
           "  -h, --help          this help\n",
           CPR_PROG);
}

int cpr_cmd_partition(int argc, char** argv)
{
    static const struct option lo[] = {
        {"help", no_argument, 0, 'h'},           {"output", required_argument, 0, 'o'},
        {"clusters", required_argument, 0, 'k'}, {"imbalance", required_argument, 0, 'i'},
        {"csv", no_argument, 0, 'c'},            {"graph", no_argument, 0, 'g'},
        {"format", required_argument, 0, 'F'},   {"layout", required_argument, 0, 'L'},
        {"threshold", required_argument, 0, 't'}, {"top", required_argument, 0, 'n'},
        {"no-special", no_argument, 0, 'S'},     {"max-nodes", required_argument, 0, 'N'},
        {"max-edges", required_argument, 0, 'E'}, {0, 0, 0, 0}};
    cpr_graph_opts go;
    cpr_graph_opts_init(&go);
    size_t kk = 0;
    int have_k = 0, csv = 0, graph = 0, c;
    double eps = 0.1;
    const char* output = NULL;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:k:", lo, NULL)) != -1) {
        switch (c) {
        case 'h': partition_help(); return CPR_OK;
        case 'o': output = optarg; break;
        case 'k':
            if (cpr_opt_count("partition", "clusters", optarg, &kk)) return CPR_EUSAGE;
            if (kk < 1 || kk > 10000) return cpr_usage_error("partition", "-k %s: expected 1 to 10000 clusters", optarg);
            have_k = 1;
            break;
        case 'i': {
            double x;
            if (cpr_parse_pct(optarg, &x) || x > 1000)
                return cpr_usage_error("partition", "--imbalance=%s: expected a number such as 0.1", optarg);
            eps = x;
            break;
        }
        case 'c': csv = 1; break;
        case 'g': graph = 1; break;
        case 'F': case 'L': case 't': case 'n': case 'S': case 'N': case 'E':
            if (cpr_graph_option("partition", c, optarg, &go)) return CPR_EUSAGE;
            break;
        default: return cpr_opt_error("partition", c, optopt, argv, optind);
        }
    }
    if (!have_k) return cpr_usage_error("partition", "the number of clusters is required: -k K");
    if (optind >= argc) return cpr_usage_error("partition", "no profile given");
    if (argc - optind > 1) return cpr_usage_error("partition", "one profile at a time (got %d)", argc - optind);
    if (graph && (!output || !strcmp(output, "-")) && !go.format)
        return cpr_usage_error("partition", "--graph needs -o FILE (or --format)");
    if (graph && csv) return cpr_usage_error("partition", "--graph and --csv cannot be combined");

    cpr_error err = {0};
    cpr_profile* p;
    if (cpr_load(argv[optind], &p, &err)) {
        cpr_print_error(&err);
        return CPR_EINPUT;
    }
    ugraph g;
    build_graph(p, &g);
    int k = (int)kk;
    if (g.n == 0 || (size_t)k > g.n) {
        fprintf(stderr, "%s: %s: cannot make %d clusters of %zu functions\n", CPR_PROG, p->path, k, g.n);
        free_graph(&g);
        cpr_profile_free(p);
        return CPR_EUSAGE;
    }
    double avg = g.total / k, cap = (1 + eps) * avg, wmax = 0;
    size_t heavy = NONE;
    for (size_t v = 0; v < g.n; v++)
        if (g.w[v] > wmax) {
            wmax = g.w[v];
            heavy = v;
        }
    int raised = 0;
    if (wmax > cap) {
        cap = wmax;
        raised = 1;
    }
    state s1, s2;
    state_init(&s1, &g, k);
    greedy(&g, k, cap, &s1);
    state_init(&s2, &g, k);
    for (size_t v = 0; v < g.n; v++) assign(&s2, &g, v, s1.part[v]);
    int moved = refine(&g, cap, &s2);

    int* cl1 = cpr_xmalloc((p->nfuncs + 1) * sizeof *cl1);
    int* cl2 = cpr_xmalloc((p->nfuncs + 1) * sizeof *cl2);
    to_profile_clusters(p, &g, &s1, cl1);
    to_profile_clusters(p, &g, &s2, cl2);
    quality q1 = measure(p, &g, &s1, cl1, cap), q2 = measure(p, &g, &s2, cl2, cap);

    int rc = CPR_OK;
    if (graph) {
        go.output = output;
        go.cluster = cl2;
        go.nclusters = k;
        rc = cpr_graph_render(p, &go, &err);
        if (rc) cpr_print_error(&err);
        goto done;
    }
    FILE* f = cpr_open_output(output, &err);
    if (!f) {
        cpr_print_error(&err);
        rc = CPR_EINPUT;
        goto done;
    }
    char a[32], b[32], d[32], e[32], buf[1200];
    if (csv) {
        fputs("function,file,object,greedy_cluster,cluster\n", f);
        for (size_t v = 0; v < g.n; v++) {
            const cpr_func* fn = &p->funcs[g.fn[v]];
            cpr_csv_field(f, fn->name);
            putc(',', f);
            cpr_csv_field(f, fn->file);
            putc(',', f);
            cpr_csv_field(f, fn->object);
            fprintf(f, ",%d,%d\n", s1.part[v] + 1, s2.part[v] + 1);
        }
    } else {
        size_t nedges = g.nadj / 2;
        fprintf(f, "Partition of %s into %d clusters\n", p->path, k);
        fprintf(f, "  %zu functions, %zu pairs of functions that communicate (special nodes are not\n"
                   "  partitioned); instructions: %s in all, %s per cluster on average\n",
                g.n, nedges, cpr_fmt_u64(a, (uint64_t)g.total), cpr_fmt_u64(b, (uint64_t)avg));
        fprintf(f, "  balance: at most (1 + %g) x average = %s instructions per cluster\n", eps,
                cpr_fmt_u64(a, (uint64_t)((1 + eps) * avg)));
        if (raised)
            fprintf(f, "  note: %s alone has %s instructions: the limit is raised to that\n", p->funcs[g.fn[heavy]].name,
                    cpr_fmt_u64(a, (uint64_t)wmax));
        fputc('\n', f);
        char g1[64], g2[64];
        fprintf(f, "%-24s  %22s  %22s\n", "", "greedy (QUAD ch. 5)", "refined (FM moves)");
        fprintf(f, "%-24s  %22s  %22s\n", "bytes between clusters", cpr_fmt_u64(a, q1.cut), cpr_fmt_u64(b, q2.cut));
        fprintf(f, "%-24s  %22s  %22s\n", "edges between clusters", cpr_fmt_u64(a, q1.cut_edges),
                cpr_fmt_u64(b, q2.cut_edges));
        snprintf(g1, sizeof g1, "%s (%.1f%%)", cpr_fmt_u64(d, q1.maxload),
                 g.total > 0 ? 100.0 * (double)q1.maxload / g.total : 0.0);
        snprintf(g2, sizeof g2, "%s (%.1f%%)", cpr_fmt_u64(e, q2.maxload),
                 g.total > 0 ? 100.0 * (double)q2.maxload / g.total : 0.0);
        fprintf(f, "%-24s  %22s  %22s\n", "largest cluster (instr)", g1, g2);
        fprintf(f, "%-24s  %22s  %22s\n", "within the balance limit", q1.balanced ? "yes" : "no",
                q2.balanced ? "yes" : "no");
        fprintf(f, "%-24s  %22s  %22d\n", "functions moved", "", moved);

        /* clusters of the refined partition */
        uint64_t* inside = cpr_xcalloc((size_t)k, sizeof *inside);
        uint64_t* outb = cpr_xcalloc((size_t)k, sizeof *outb);
        uint64_t* inb = cpr_xcalloc((size_t)k, sizeof *inb);
        for (size_t j = 0; j < p->nedges; j++) {
            const cpr_edge* x = &p->edges[j];
            int cp = cl2[x->p], cc = cl2[x->c];
            if (cp < 0 || cc < 0) continue;
            if (cp == cc)
                inside[cp] += x->bytes;
            else {
                outb[cp] += x->bytes;
                inb[cc] += x->bytes;
            }
        }
        size_t* order = cpr_xmalloc((g.n + 1) * sizeof *order);
        for (int cidx = 0; cidx < k; cidx++) {
            size_t m = 0;
            for (size_t v = 0; v < g.n; v++)
                if (s2.part[v] == cidx) order[m++] = v;
            sort_g = &g;
            qsort(order, m, sizeof *order, cmp_weight);
            fprintf(f, "\nCluster %d: %s instructions (%.1f%%), %zu function%s; bytes inside %s, out %s, in %s\n",
                    cidx + 1, cpr_fmt_u64(a, (uint64_t)s2.load[cidx]),
                    g.total > 0 ? 100.0 * s2.load[cidx] / g.total : 0.0, m, m == 1 ? "" : "s",
                    cpr_fmt_u64(b, inside[cidx]), cpr_fmt_u64(d, outb[cidx]), cpr_fmt_u64(e, inb[cidx]));
            for (size_t i = 0; i < m; i++) {
                size_t v = order[i];
                const cpr_func* fn = &p->funcs[g.fn[v]];
                char loc[1200], pct[16];
                snprintf(pct, sizeof pct, "%.1f%%", g.total > 0 ? 100.0 * g.w[v] / g.total : 0.0);
                cpr_location(fn, loc, sizeof loc);
                fprintf(f, "  %14s  %6s  %s%s%s%s\n", cpr_fmt_u64(a, fn->instructions), pct, fn->name,
                        loc[0] ? "  " : "", loc,
                        s1.part[v] != s2.part[v] ? "  (moved)" : "");
            }
        }
        free(order);
        free(inside);
        free(outb);
        free(inb);

        /* edges between clusters */
        size_t* eo = cpr_edges_by_bytes(p);
        int header = 0;
        for (size_t j = 0; j < p->nedges; j++) {
            const cpr_edge* x = &p->edges[eo[j]];
            int cp = cl2[x->p], cc = cl2[x->c];
            if (cp < 0 || cc < 0 || cp == cc) continue;
            if (!header) {
                fprintf(f, "\nEdges between clusters (bytes, producer [cluster] -> consumer [cluster]):\n");
                header = 1;
            }
            char n2[1200];
            fprintf(f, "  %14s  %s [%d] -> %s [%d]\n", cpr_fmt_u64(a, x->bytes), cpr_display_name(p, x->p, buf, sizeof buf),
                    cp + 1, cpr_display_name(p, x->c, n2, sizeof n2), cc + 1);
        }
        if (!header) fprintf(f, "\nNo edge between clusters.\n");
        /* special nodes */
        header = 0;
        for (size_t j = 0; j < p->nedges; j++) {
            const cpr_edge* x = &p->edges[eo[j]];
            int sp = p->funcs[x->p].special, sc = p->funcs[x->c].special;
            if (!sp && !sc) continue;
            if (!header) {
                fprintf(f, "\nSpecial nodes (not partitioned): their edges\n");
                header = 1;
            }
            char n2[1200], t1[16] = "", t2[16] = "";
            if (cl2[x->p] >= 0) snprintf(t1, sizeof t1, " [%d]", cl2[x->p] + 1);
            if (cl2[x->c] >= 0) snprintf(t2, sizeof t2, " [%d]", cl2[x->c] + 1);
            fprintf(f, "  %14s  %s%s -> %s%s\n", cpr_fmt_u64(a, x->bytes), cpr_display_name(p, x->p, buf, sizeof buf),
                    t1, cpr_display_name(p, x->c, n2, sizeof n2), t2);
        }
        free(eo);
    }
    rc = cpr_close_output(f, output, &err);
    if (rc) cpr_print_error(&err);
done:
    free(cl1);
    free(cl2);
    state_free(&s1);
    state_free(&s2);
    free_graph(&g);
    free((void*)go.focus);
    cpr_profile_free(p);
    return rc;
}
