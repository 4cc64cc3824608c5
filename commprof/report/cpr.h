/* commprof-report: shared declarations.
 *
 * Modules: xmlread.c (streaming reader + validation), model.c (profile data,
 * lookups, selection helpers), util.c (numbers, output, errors), tables.c
 * (summary), graph.c (Graphviz), matrix.c (matrix and timeline: SVG written
 * by hand), diff.c, merge.c, partition.c, check.c (the sums validate checks),
 * main.c (command line).  The RelaxNG schema is embedded by the build as
 * cpr_schema_rng[] (schema-rng.c, generated from docs/commprof.rng). */

#ifndef CPR_H
#define CPR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CPR_PROG "commprof-report"

/* exit statuses */
enum { CPR_OK = 0, CPR_EUSAGE = 1, CPR_EINPUT = 2 };

/* ---- errors -------------------------------------------------------------- */

/* An error in an input or output file: printed as
 * "commprof-report: FILE:LINE: message" (LINE omitted when 0). */
typedef struct {
    int set;
    char file[1024];
    long line;
    char msg[512];
} cpr_error;

void cpr_seterr(cpr_error* e, const char* file, long line, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));
void cpr_print_error(const cpr_error* e);
/* usage error: prints "commprof-report: message" (+ a hint) and returns CPR_EUSAGE */
int cpr_usage_error(const char* cmd, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

/* option values: whole number / percentage 0..100; on a bad value they print
 * the usage error and return CPR_EUSAGE */
int cpr_opt_count(const char* cmd, const char* opt, const char* v, size_t* out);
int cpr_opt_pct(const char* cmd, const char* opt, const char* v, double* out);
/* the usage error for getopt_long's ':' or '?' */
int cpr_opt_error(const char* cmd, int c, int optopt_, char** argv, int optind_);

/* ---- numbers ------------------------------------------------------------- */

/* Strict decimal: digits only, no sign, no spaces, no leading zero (except
 * "0"), no overflow.  Return 0 on success. */
int cpr_parse_u64(const char* s, uint64_t* out);
int cpr_parse_u32(const char* s, uint32_t* out);
/* option values: a non-negative decimal with optional fraction ("99", "0.5") */
int cpr_parse_pct(const char* s, double* out);

/* How many of n rows sorted by vals (descending) to show: the first rows
   that make up threshold percent of the total (rows of 0 are cut when it is
   below 100), then at most top (0: no limit). */
size_t cpr_cut_rows(const uint64_t* vals, size_t n, double threshold, size_t top);

/* "1,234,567" into buf (>= 32 bytes); returns buf */
char* cpr_fmt_u64(char* buf, uint64_t v);
/* "1.75 MB", "812 B" style (decimal units) */
char* cpr_fmt_human(char* buf, uint64_t v, const char* unit);
/* "12.34%" of part/total ("-" when total is 0), newly allocated, whatever
 * its length (free it) */
char* cpr_fmt_pct(double part, double total);

/* saturating/checked add: returns 0 and sets *r, or -1 on overflow */
static inline int cpr_add_u64(uint64_t a, uint64_t b, uint64_t* r)
{
    if (a > UINT64_MAX - b) return -1;
    *r = a + b;
    return 0;
}

/* ---- memory -------------------------------------------------------------- */

void* cpr_xmalloc(size_t n);
void* cpr_xcalloc(size_t n, size_t sz);
void* cpr_xrealloc(void* p, size_t n, size_t sz);
char* cpr_xstrdup(const char* s);

/* growable string */
typedef struct {
    char* s;
    size_t len, cap;
} cpr_buf;
void cpr_buf_add(cpr_buf* b, const char* s, size_t n);
void cpr_buf_puts(cpr_buf* b, const char* s);
void cpr_buf_printf(cpr_buf* b, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
/* appends s with its control characters escaped (\n, \t, \xHH), so that a
   name read from a profile (a thread's, which may hold a newline) shows on
   one line */
void cpr_buf_put_visible(cpr_buf* b, const char* s);
void cpr_buf_free(cpr_buf* b);

/* CSV field (RFC 4180 quoting) */
void cpr_csv_field(FILE* f, const char* s);

/* ---- the profile --------------------------------------------------------- */

enum { CPR_KIND_FUNCTION = 0, CPR_KIND_SPECIAL = 1, CPR_KIND_REGION = 2 };

typedef struct {
    uint32_t id;   /* id in the file */
    int special;   /* kind="special" */
    int kind;      /* CPR_KIND_*: special is kind == CPR_KIND_SPECIAL */
    char* name;
    char* object;
    char* file;
    char* dir;
    uint32_t line;
    uint64_t instructions, calls, bytes_read, bytes_written;
    uint64_t in_bytes, in_unma, out_bytes, out_unma, self_bytes, self_unma;
    /* memory-access profile */
    uint64_t mem_instructions, loads, stores, stack_loads, stack_stores, stack_bytes_read, stack_bytes_written;
    int has_objects; /* the four below are present (--objects=yes) */
    uint64_t heap_bytes_read, heap_bytes_written, global_bytes_read, global_bytes_written;
    /* --separate-callers: base function and callers (ids in the file; resolved
     * to indices by the loader at </functions>) */
    int has_base;
    uint32_t base_id;
    size_t base;       /* index of the base function */
    uint32_t* callers; /* ids, innermost first */
    size_t ncallers;
    /* the matching key across profiles is kind, name, object, file (and
     * has_base); two nodes of one file can share it (two static functions of
     * one name built without -g: no file): dup is the node's rank among them
     * in the file's order, 0 for the first, part of the key (set by
     * cpr_mark_ambiguous, which the loader calls) */
    uint32_t dup;
} cpr_func;

typedef struct {
    size_t p, c; /* indices into funcs */
    uint64_t bytes, unma, accesses;
    uint64_t first_read; /* with --first-read=yes (profile's has_first_read) */
} cpr_edge;

/* ---- data objects (--objects=yes) ---------------------------------------- */

enum { CPR_OBJ_HEAP, CPR_OBJ_STATIC, CPR_OBJ_SECTION, CPR_OBJ_STACK, CPR_OBJ_NAMED, CPR_OBJ_TLS, CPR_OBJ_KINDS };
extern const char* const cpr_object_kinds[]; /* "heap", "static", ... */

typedef struct {
    char *function, *file;
    uint32_t line;
} cpr_frame;

typedef struct {
    uint32_t id;
    int kind; /* CPR_OBJ_* */
    char *name, *elf;
    char* symbol; /* static objects with a demangled name: the ELF symbol; else NULL */
    uint64_t size, blocks, total_bytes, peak_bytes, reads, read_bytes, writes, write_bytes;
    int has_pct; /* written-bytes, prod-bytes, alloc-pct, prod-pct present */
    uint64_t written_bytes, prod_bytes;
    uint32_t alloc_pct10, prod_pct10; /* percent x 10 ("12.5" = 125) */
    int has_thread;
    uint32_t thread;
    uint64_t first_access, last_access;
    cpr_frame* frames;
    size_t nframes;
} cpr_object;

typedef struct {
    size_t p, o, c; /* function, object, function indices */
    uint64_t bytes, unma;
} cpr_flow;

/* ---- phases (COMMPROF_PHASE) ---------------------------------------------- */

typedef struct {
    uint32_t id;
    char* name;
    uint64_t start;
} cpr_phase;

typedef struct {
    size_t p, c;     /* function indices */
    uint32_t pp, cp; /* phase ids */
    uint64_t bytes, unma;
} cpr_pedge;

/* ---- time slices (--time-slice) ------------------------------------------- */

typedef struct {
    size_t f; /* function index */
    uint64_t instructions, bytes_read, bytes_written, in_bytes;
} cpr_srec;

typedef struct {
    uint32_t i;       /* slice index */
    size_t first, n;  /* its records: recs[first .. first + n) */
} cpr_slice;

typedef struct {
    uint32_t first, last;
    size_t* funcs; /* function indices */
    size_t nfuncs;
    uint64_t instructions, bytes_read, bytes_written, in_bytes;
} cpr_span;

/* ---- per-call records (--per-call=yes) ------------------------------------ */

typedef struct {
    size_t p;
    uint64_t bytes;
} cpr_consumed;

typedef struct {
    size_t o; /* object index */
    uint64_t read_bytes, written_bytes, accesses;
    uint32_t locality; /* x 1000 */
} cpr_callobj;

typedef struct {
    size_t f;
    uint64_t first_seq, last_seq, count;
    size_t* callers; /* function indices, innermost first */
    size_t ncallers;
    cpr_consumed* consumed;
    size_t nconsumed;
    cpr_callobj* objects;
    size_t nobjects;
} cpr_call;

/* an open-addressing map from 64-bit keys to indices: the storage of
   cpr_idmap (32-bit ids) and cpr_pairmap (pairs of indices) */
typedef struct {
    uint64_t* keys;
    size_t* vals;
    size_t cap, n;
} cpr_u64map;

/* a map from 32-bit ids to indices */
typedef cpr_u64map cpr_idmap;
void cpr_idmap_free(cpr_idmap* m);
/* returns the value for id, or (size_t)-1; with insert, stores val if absent and returns it */
size_t cpr_idmap_get(cpr_idmap* m, uint32_t id, size_t val, int insert);
size_t cpr_idmap_find(const cpr_idmap* m, uint32_t id);

typedef struct {
    char *name, *value;
} cpr_option;

typedef struct {
    uint32_t id, parent; /* creation order, 1 = main thread; parent 0 = none */
    char* name;
    uint64_t instructions, bytes_read, in_bytes, out_bytes;
} cpr_thread;

/* a cell of the thread -> thread matrix (thread ids) */
typedef struct {
    uint32_t p, c;
    uint64_t bytes, unma;
} cpr_cell;

/* an edge between (function, thread) pairs: p, c function indices, pt, ct
 * thread ids (pt 0 for (unwritten)) */
typedef struct {
    size_t p, c;
    uint32_t pt, ct;
    uint64_t bytes, unma, accesses;
} cpr_tedge;

typedef struct {
    char *file, *exe;
    char* pid;
} cpr_input;

typedef struct {
    char* path; /* as given on the command line */
    char* tool_version;
    char* exe;
    char** args;
    size_t nargs;
    char *pid, *ppid; /* decimal strings (validated) */
    char* reason;
    cpr_option* options;
    size_t noptions;
    uint64_t t_instructions, t_bytes_read, t_bytes_written, t_comm_bytes, t_comm_unma, t_self_bytes;
    uint32_t t_functions, t_edges;
    /* <provenance> of a merged profile */
    int merged;
    char* unma_note;
    cpr_input* inputs;
    size_t ninputs;

    cpr_func* funcs;
    size_t nfuncs, capfuncs;
    cpr_edge* edges;
    size_t nedges, capedges;
    cpr_thread* threads;
    size_t nthreads;
    cpr_idmap threadmap; /* thread id -> index */
    cpr_cell* cells;
    size_t ncells;
    cpr_tedge* tedges;
    size_t ntedges;
    int has_first_read; /* some edge has first-read */
    /* --objects=yes */
    int has_objects;
    cpr_object* objects;
    size_t nobjects;
    cpr_idmap objmap;
    cpr_flow* flows;
    size_t nflows;
    /* COMMPROF_PHASE */
    int has_phases;
    cpr_phase* phases;
    size_t nphases;
    cpr_idmap phasemap;
    cpr_pedge* pedges;
    size_t npedges;
    /* --time-slice */
    int has_slices;
    uint64_t slice_size;
    cpr_slice* slices;
    size_t nslices;
    cpr_srec* recs;
    size_t nrecs;
    uint32_t phase_threshold;
    cpr_span* spans;
    size_t nspans;
    /* --per-call */
    int has_calls;
    uint64_t calls_dropped;
    cpr_call* calls;
    size_t ncalls;
    /* id -> index hash */
    uint32_t* idkeys;
    size_t* idvals;
    size_t idcap;
    unsigned char* ambig; /* per function: another one has the same name */
} cpr_profile;

/* xmlread.c */
/* Reads and validates FILE ("-" is stdin).  Returns 0, or CPR_EINPUT with
 * *err set; *out is then NULL. */
int cpr_load(const char* path, cpr_profile** out, cpr_error* err);
/* same, from memory (for the fuzzer); name is used in messages */
int cpr_load_memory(const char* data, size_t len, const char* name, cpr_profile** out, cpr_error* err);
void cpr_reader_cleanup(void);

/* check.c: the sums a profile must satisfy (bytes-read = in-bytes +
 * self-bytes, totals, thread matrix...; see check.c).  Returns 0, or
 * CPR_EINPUT with *err set to the first violation. */
int cpr_check_sums(const cpr_profile* p, cpr_error* err);

/* model.c */
cpr_profile* cpr_profile_new(const char* path);
void cpr_profile_free(cpr_profile* p);
/* adds a function; returns its index, or (size_t)-1 if the id exists */
size_t cpr_add_func(cpr_profile* p, const cpr_func* f);
size_t cpr_find_id(const cpr_profile* p, uint32_t id); /* (size_t)-1 if absent */
cpr_edge* cpr_add_edge(cpr_profile* p, size_t prod, size_t cons);
/* base name of a path */
const char* cpr_basename(const char* path);
/* display name: the function name, with " [file:line]" or " [object]"
 * appended when another function has the same name (flagged by
 * cpr_mark_ambiguous, which the loader calls) */
void cpr_mark_ambiguous(cpr_profile* p);
const char* cpr_display_name(const cpr_profile* p, size_t i, char* buf, size_t n);
/* location column: "file:line", object base name, "(region)", or "" */
const char* cpr_location(const cpr_func* f, char* buf, size_t n);
/* matching key of a function across profiles (kind, name, object, file and
 * the rank dup among the nodes of the file with those) */
int cpr_same_func(const cpr_func* a, const cpr_func* b);
uint64_t cpr_func_hash(const cpr_func* f);
/* function indices whose name is NAME (or whose display name is NAME) */
size_t cpr_find_by_name(const cpr_profile* p, const char* name, size_t* out, size_t max);
/* the kind attribute's value */
const char* cpr_kind_name(int kind);
/* index of thread id in p->threads, or (size_t)-1 */
size_t cpr_thread_index(const cpr_profile* p, uint32_t id);
/* "thread 2 (name)" / "thread 1" */
const char* cpr_thread_label(const cpr_profile* p, uint32_t id, char* buf, size_t n);
/* "name" of an object, with " #ID" when another object has the same name */
const char* cpr_object_label(const cpr_profile* p, size_t o, char* buf, size_t n);
/* phase label: "N name" */
const char* cpr_phase_label(const cpr_profile* p, uint32_t id, char* buf, size_t n);
/* XML text/attribute escaping for hand-written SVG */
void cpr_xml_escape(FILE* f, const char* s);
/* display width estimate (UTF-8 continuation bytes do not count) */
size_t cpr_text_len(const char* s);
/* a distinct colour of a categorical palette */
const char* cpr_palette(size_t k);
/* indices of edges sorted by bytes descending (ties: producer, consumer) */
size_t* cpr_edges_by_bytes(const cpr_profile* p);

/* a map from function key to index in a "union" table, for diff and merge */
typedef struct {
    const cpr_func** keys;
    size_t* vals;
    size_t cap, n;
} cpr_funcmap;
void cpr_funcmap_init(cpr_funcmap* m);
void cpr_funcmap_free(cpr_funcmap* m);
/* returns the value for f, or (size_t)-1; with insert, stores val if absent and returns it */
size_t cpr_funcmap_get(cpr_funcmap* m, const cpr_func* f, size_t val, int insert);

/* a map from a pair of indices to an index */
typedef cpr_u64map cpr_pairmap;
void cpr_pairmap_init(cpr_pairmap* m);
void cpr_pairmap_free(cpr_pairmap* m);
size_t cpr_pairmap_get(cpr_pairmap* m, size_t a, size_t b, size_t val, int insert);

/* a map from strings (copied) to indices */
typedef struct {
    char** keys;
    size_t* vals;
    size_t cap, n;
} cpr_strmap;
void cpr_strmap_free(cpr_strmap* m);
size_t cpr_strmap_get(cpr_strmap* m, const char* key, size_t val, int insert);
/* the matching key of an object across profiles: "kind/name" */
void cpr_object_key(cpr_buf* b, const cpr_object* o);

/* ---- output -------------------------------------------------------------- */

/* Opens -o FILE (or stdout when NULL or "-"): a regular FILE is written to a
 * temporary file beside it, which cpr_close_output renames onto FILE, or
 * removes if writing failed or err was set before (FILE is then untouched); a
 * device, FIFO or symbolic link is written in place.  cpr_close_output
 * returns CPR_EINPUT with err set on a write error or an earlier error. */
FILE* cpr_open_output(const char* path, cpr_error* err);
int cpr_close_output(FILE* f, const char* path, cpr_error* err);
/* Is path written in place rather than by renaming a file onto it: a device,
 * FIFO, socket or symbolic link, which a rename would replace by a plain file
 * (/dev/null, /dev/stdout, a link the user made)? */
int cpr_output_in_place(const char* path);
/* A new empty file beside path: PATH.XXXXXX made by mkstemp (so on the same
 * file system, and no name known in advance), mode 0666 less the umask.
 * Returns its open descriptor and its name in *name (to free), or -1 with
 * errno set. */
int cpr_temp_beside(const char* path, char** name);

/* log colour ramp of MCProf: blue (small) -> green -> red (largest) */
void cpr_ramp_color(uint64_t v, uint64_t max, char out[8]);

/* tables.c: the run header (profile, command, totals), shared by the commands */
void cpr_print_header(FILE* f, const cpr_profile* p);

/* ---- subcommands (argc/argv start at the subcommand name) ----------------- */

int cpr_cmd_summary(int argc, char** argv);
int cpr_cmd_graph(int argc, char** argv);
int cpr_cmd_matrix(int argc, char** argv);
int cpr_cmd_diff(int argc, char** argv);
int cpr_cmd_merge(int argc, char** argv);
int cpr_cmd_partition(int argc, char** argv);
int cpr_cmd_validate(int argc, char** argv);
int cpr_cmd_timeline(int argc, char** argv);

/* graph.c: also used by partition --graph */
typedef struct {
    const char* output;   /* -o FILE */
    const char* format;   /* dot, svg, png, pdf (NULL: from the extension) */
    const char* layout;   /* auto, dot, sfdp */
    double threshold;     /* cumulative %, 100 = all */
    size_t top;           /* edges, 0 = all */
    const char** focus;   /* --focus names */
    size_t nfocus;
    unsigned depth;
    int no_special;
    size_t max_nodes, max_edges;
    const int* cluster;   /* partition: cluster of each function, -1 none */
    int nclusters;
    int mode;             /* CPR_GRAPH_* */
} cpr_graph_opts;
enum { CPR_GRAPH_FUNCTIONS, CPR_GRAPH_OBJECTS, CPR_GRAPH_THREADS, CPR_GRAPH_PHASES };
void cpr_graph_opts_init(cpr_graph_opts* o);
int cpr_graph_render(const cpr_profile* p, const cpr_graph_opts* o, cpr_error* err);
/* applies one graph option (getopt code: o F L t n f d S N E) */
int cpr_graph_option(const char* cmd, int c, const char* arg, cpr_graph_opts* o);

/* schema-rng.c (generated) */
extern const unsigned char cpr_schema_rng[];
extern const size_t cpr_schema_rng_len;

#endif
