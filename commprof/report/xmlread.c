/* commprof-report: streaming reader of commprof XML profiles.
 *
 * One pass with xmlTextReader, validated against the embedded RelaxNG schema
 * at the same time (the schema is set before the first read).  The input is
 * untrusted: no DTD (a DOCTYPE is refused), no network, no entity
 * substitution, libxml2's default size limits (no XML_PARSE_HUGE).  What
 * RelaxNG cannot say is checked here: numbers parse strictly, function ids are
 * unique, edges refer to known ids, no self edge, no pair twice; thread ids
 * are unique and every thread, cell and (function, thread) edge refers to
 * known threads and functions; a context node's base and callers are
 * functions; object and phase ids are unique and every flow, phase edge,
 * per-call record, slice record and detected phase refers to known functions,
 * objects and phases; the compact d attribute of a time slice is parsed
 * strictly (records "F:I,R,W,C" separated by one space, plain decimals), slice
 * indices increase and a function appears once per slice.  The first
 * problem stops the read and is reported with its line. */

#include "cpr.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/xmlreader.h>

#define NONE ((size_t)-1)
#define MAX_DEPTH 8
#define MAX_TEXT (1u << 20) /* exe, arg, pid: 1 MiB each at most */

static xmlRelaxNGPtr schema;

static void silent_generic(void* ctx, const char* msg, ...)
{
    (void)ctx;
    (void)msg;
}

static void silent_structured(void* ctx, xmlErrorPtr e)
{
    (void)ctx;
    (void)e;
}

static int load_schema(cpr_error* err)
{
    if (schema) return 0;
    xmlSetGenericErrorFunc(NULL, silent_generic);
    xmlSetStructuredErrorFunc(NULL, silent_structured);
    xmlRelaxNGParserCtxtPtr pc =
        xmlRelaxNGNewMemParserCtxt((const char*)cpr_schema_rng, (int)cpr_schema_rng_len);
    if (pc) {
        xmlRelaxNGSetParserStructuredErrors(pc, silent_structured, NULL);
        schema = xmlRelaxNGParse(pc);
        xmlRelaxNGFreeParserCtxt(pc);
    }
    if (!schema) {
        cpr_seterr(err, "", 0, "internal error: the embedded RelaxNG schema does not compile");
        return -1;
    }
    return 0;
}

void cpr_reader_cleanup(void)
{
    if (schema) xmlRelaxNGFree(schema);
    schema = NULL;
    xmlCleanupParser();
}

/* the input, read through callbacks that see where it ends: a parser error
 * raised once all of it was read, on its last line, is a truncated file (the
 * parser's own words for it vary with the cut: "Extra content at the end of
 * the document", "AttValue: \" expected", "Comment not terminated", ...) */
typedef struct {
    int fd;          /* -1: the memory below */
    const char* mem;
    size_t len, off;
    int eof;         /* the end was read */
    long lines;      /* newlines read */
    int last_nl;     /* the last byte read is a newline */
} src;

static int src_read(void* ctx, char* buf, int len)
{
    src* in = ctx;
    ssize_t n;
    if (len <= 0) return 0;
    if (in->fd >= 0) {
        do n = read(in->fd, buf, (size_t)len);
        while (n < 0 && errno == EINTR);
        if (n < 0) return -1;
    } else {
        n = (ssize_t)(in->len - in->off < (size_t)len ? in->len - in->off : (size_t)len);
        memcpy(buf, in->mem + in->off, (size_t)n);
        in->off += (size_t)n;
    }
    if (n == 0) in->eof = 1;
    for (ssize_t i = 0; i < n; i++)
        if (buf[i] == '\n') in->lines++;
    if (n > 0) in->last_nl = buf[n - 1] == '\n';
    return (int)n;
}

static int src_close(void* ctx)
{
    (void)ctx;
    return 0;
}

/* the number of the file's last line: the parser may stand on it or, past a
 * final newline, on the next one */
static long src_last_line(const src* in) { return in->last_nl ? in->lines : in->lines + 1; }

typedef struct {
    xmlTextReaderPtr r;
    const char* name;
    const src* in;
    cpr_error* err;
    cpr_profile* p;
    cpr_pairmap pairs;     /* function edges seen */
    cpr_pairmap cellpairs; /* thread-matrix cells seen */
    cpr_pairmap spanpairs; /* detected phases seen (first and last slice) */
    cpr_strmap keys;       /* flows, thread edges and phase edges seen */
    cpr_call* call;        /* the <call> being read */
    cpr_object* object;    /* the <object> of <objects> being read */
    size_t* stamp;         /* per function: 1 + the slice it was last seen in */
    size_t nstamp;
    /* open elements */
    char stack[MAX_DEPTH][16];
    int depth;
    /* text being collected for exe, arg or pid/ppid */
    cpr_buf text;
    int collecting;
    int seen_root;
} rd;

/* the line of the current node (the parser itself may have read ahead);
 * libxml2 keeps node lines in 16 bits, so past 65535 the parser's line */
static long cur_line(rd* s)
{
    xmlNodePtr n = xmlTextReaderCurrentNode(s->r);
    /* only these nodes have a line field (an xmlDtd, for one, has none) */
    if (n && (n->type == XML_ELEMENT_NODE || n->type == XML_TEXT_NODE
              || n->type == XML_CDATA_SECTION_NODE || n->type == XML_COMMENT_NODE
              || n->type == XML_PI_NODE)
        && n->line > 0 && n->line < 65535) return n->line;
    int l = xmlTextReaderGetParserLineNumber(s->r);
    return l > 0 ? l : 1;
}

/* a parser error at the end of the input, the document unfinished: not in
 * the epilog (after the root element, where the parser's "Extra content at the
 * end of the document" is right), and not a mismatched end tag */
static int truncated(const rd* s, xmlErrorPtr e)
{
    const src* in = s->in;
    if (!in || !in->eof || e->domain != XML_FROM_PARSER || e->code == XML_ERR_TAG_NAME_MISMATCH) return 0;
    if (e->line < src_last_line(in)) return 0;
    xmlParserCtxtPtr ctxt = e->ctxt;
    return !(ctxt && ctxt->instate == XML_PARSER_EPILOG);
}

static void relay(void* arg, xmlErrorPtr e)
{
    rd* s = arg;
    if (s->err->set || !e) return;
    if (e->level == XML_ERR_WARNING) return;
    long line = e->line > 0 ? e->line : cur_line(s);
    const char* m = e->message ? e->message : "malformed XML";
    /* libxml2 says "Document is empty" of text that does not start with a tag,
     * such as the callgrind-format file */
    if (e->code == XML_ERR_DOCUMENT_EMPTY)
        m = "empty, or not an XML document (commprof-report reads the XML profile, "
            "--commprof-xml-file, not the callgrind-format file)";
    else if (truncated(s, e))
        m = "the file ends before the document does (truncated?)";
    cpr_seterr(s->err, s->name, line, "%s", m);
}

/* attribute as a malloc'd copy; NULL with an error if missing */
static char* attr(rd* s, const char* name)
{
    xmlChar* v = xmlTextReaderGetAttribute(s->r, BAD_CAST name);
    if (!v) {
        cpr_seterr(s->err, s->name, cur_line(s), "<%s> has no %s attribute",
                   (const char*)xmlTextReaderConstLocalName(s->r), name);
        return NULL;
    }
    char* c = cpr_xstrdup((const char*)v);
    xmlFree(v);
    return c;
}

static int attr_u64(rd* s, const char* name, uint64_t* out)
{
    char* v = attr(s, name);
    if (!v) return -1;
    int bad = cpr_parse_u64(v, out);
    if (bad)
        cpr_seterr(s->err, s->name, cur_line(s), "<%s %s=\"%.40s\">: not a decimal 64-bit count",
                   (const char*)xmlTextReaderConstLocalName(s->r), name, v);
    free(v);
    return bad ? -1 : 0;
}

static int attr_u32(rd* s, const char* name, uint32_t* out)
{
    char* v = attr(s, name);
    if (!v) return -1;
    int bad = cpr_parse_u32(v, out);
    if (bad)
        cpr_seterr(s->err, s->name, cur_line(s), "<%s %s=\"%.40s\">: not a decimal 32-bit number",
                   (const char*)xmlTextReaderConstLocalName(s->r), name, v);
    free(v);
    return bad ? -1 : 0;
}

/* a percentage with one decimal ("0.0", "12.5"), as tenths */
static int attr_pct(rd* s, const char* name, uint32_t* out)
{
    char* v = attr(s, name);
    if (!v) return -1;
    char* dot = strchr(v, '.');
    uint32_t w;
    int bad = !dot || strlen(dot) != 2 || dot[1] < '0' || dot[1] > '9';
    if (!bad) {
        *dot = '\0';
        bad = cpr_parse_u32(v, &w) || w > 100000;
        *dot = '.';
    }
    if (bad)
        cpr_seterr(s->err, s->name, cur_line(s), "<%s %s=\"%.40s\">: not a percentage with one decimal",
                   (const char*)xmlTextReaderConstLocalName(s->r), name, v);
    else
        *out = w * 10 + (uint32_t)(dot[1] - '0');
    free(v);
    return bad ? -1 : 0;
}

static int check_pid(rd* s, const char* what, const char* v)
{
    uint64_t x;
    if (cpr_parse_u64(v, &x)) {
        cpr_seterr(s->err, s->name, cur_line(s), "<%s>%.40s</%s>: not a process id", what, v, what);
        return -1;
    }
    return 0;
}

static int thread_known(const cpr_profile* p, uint32_t id)
{
    return cpr_idmap_find(&p->threadmap, id) != NONE;
}

static int on_thread(rd* s)
{
    cpr_thread t;
    memset(&t, 0, sizeof t);
    if (attr_u32(s, "id", &t.id) || attr_u32(s, "parent", &t.parent) || attr_u64(s, "instructions", &t.instructions) ||
        attr_u64(s, "bytes-read", &t.bytes_read) || attr_u64(s, "in-bytes", &t.in_bytes) ||
        attr_u64(s, "out-bytes", &t.out_bytes))
        return -1;
    if (!t.id || thread_known(s->p, t.id)) {
        cpr_seterr(s->err, s->name, cur_line(s), t.id ? "thread id %u appears twice" : "thread id %u: ids start at 1",
                   t.id);
        return -1;
    }
    if (!(t.name = attr(s, "name"))) return -1;
    if (s->p->nthreads % 64 == 0) s->p->threads = cpr_xrealloc(s->p->threads, s->p->nthreads + 64, sizeof t);
    cpr_idmap_get(&s->p->threadmap, t.id, s->p->nthreads, 1);
    s->p->threads[s->p->nthreads++] = t;
    return 0;
}

/* at </threads>: every parent is a thread (or 0) */
static int threads_done(rd* s)
{
    for (size_t i = 0; i < s->p->nthreads; i++) {
        const cpr_thread* t = &s->p->threads[i];
        if (t->parent && !thread_known(s->p, t->parent)) {
            cpr_seterr(s->err, s->name, cur_line(s), "thread %u: its parent %u is not a thread", t->id, t->parent);
            return -1;
        }
    }
    return 0;
}

/* records the key of a flow, thread edge or phase edge (the ids as
 * written); -1 with "WHAT appears twice" if the file had it already, as a
 * second <edge> of the same pair is refused */
static int seen_once(rd* s, const char* key, const char* what)
{
    size_t n = s->keys.n;
    if (cpr_strmap_get(&s->keys, key, n, 1) != n) {
        cpr_seterr(s->err, s->name, cur_line(s), "%s appears twice", what);
        return -1;
    }
    return 0;
}

static int on_cell(rd* s)
{
    cpr_cell c;
    if (attr_u32(s, "producer", &c.p) || attr_u32(s, "consumer", &c.c) || attr_u64(s, "bytes", &c.bytes) ||
        attr_u64(s, "unma", &c.unma))
        return -1;
    if (!thread_known(s->p, c.p) || !thread_known(s->p, c.c)) {
        cpr_seterr(s->err, s->name, cur_line(s), "thread-matrix cell %u -> %u: no thread with id %u", c.p, c.c,
                   thread_known(s->p, c.p) ? c.c : c.p);
        return -1;
    }
    if (cpr_pairmap_get(&s->cellpairs, c.p, c.c, s->p->ncells, 1) != s->p->ncells) {
        cpr_seterr(s->err, s->name, cur_line(s), "thread-matrix cell %u -> %u appears twice", c.p, c.c);
        return -1;
    }
    if (s->p->ncells % 64 == 0) s->p->cells = cpr_xrealloc(s->p->cells, s->p->ncells + 64, sizeof c);
    s->p->cells[s->p->ncells++] = c;
    return 0;
}

static int on_tedge(rd* s)
{
    uint32_t pid, cid;
    cpr_tedge e;
    if (attr_u32(s, "producer", &pid) || attr_u32(s, "producer-thread", &e.pt) || attr_u32(s, "consumer", &cid) ||
        attr_u32(s, "consumer-thread", &e.ct) || attr_u64(s, "bytes", &e.bytes) || attr_u64(s, "unma", &e.unma) ||
        attr_u64(s, "accesses", &e.accesses))
        return -1;
    e.p = cpr_find_id(s->p, pid);
    e.c = cpr_find_id(s->p, cid);
    if (e.p == NONE || e.c == NONE) {
        cpr_seterr(s->err, s->name, cur_line(s), "thread edge %u -> %u: no function with id %u", pid, cid,
                   e.p == NONE ? pid : cid);
        return -1;
    }
    if ((e.pt && !thread_known(s->p, e.pt)) || !thread_known(s->p, e.ct)) {
        cpr_seterr(s->err, s->name, cur_line(s), "thread edge %u -> %u: no thread with id %u", pid, cid,
                   (e.pt && !thread_known(s->p, e.pt)) ? e.pt : e.ct);
        return -1;
    }
    char key[80], what[96];
    snprintf(key, sizeof key, "t %u %u %u %u", pid, e.pt, cid, e.ct);
    snprintf(what, sizeof what, "thread edge %u [thread %u] -> %u [thread %u]", pid, e.pt, cid, e.ct);
    if (seen_once(s, key, what)) return -1;
    if (s->p->ntedges % 64 == 0) s->p->tedges = cpr_xrealloc(s->p->tedges, s->p->ntedges + 64, sizeof e);
    s->p->tedges[s->p->ntedges++] = e;
    return 0;
}

/* a space-separated list of ids ("" is empty): one space between numbers,
 * plain decimals of 32 bits */
static int id_list(rd* s, const char* v, const char* what, uint32_t** out, size_t* n)
{
    *out = NULL;
    *n = 0;
    const char* c = v;
    while (*c) {
        const char* e = c;
        while (*e >= '0' && *e <= '9') e++;
        char num[16];
        size_t len = (size_t)(e - c);
        uint32_t id;
        if (len == 0 || len >= sizeof num || (*e && (*e != ' ' || !e[1]))) goto bad;
        memcpy(num, c, len);
        num[len] = '\0';
        if (cpr_parse_u32(num, &id)) goto bad;
        if (*n % 16 == 0) *out = cpr_xrealloc(*out, *n + 16, sizeof **out);
        (*out)[(*n)++] = id;
        c = *e ? e + 1 : e;
    }
    return 0;
bad:
    free(*out);
    *out = NULL;
    *n = 0;
    cpr_seterr(s->err, s->name, cur_line(s), "<%s %s=\"%.40s\">: not a list of ids separated by single spaces",
               (const char*)xmlTextReaderConstLocalName(s->r), what, v);
    return -1;
}

/* a function id that must be known; *out its index */
static int func_ref(rd* s, const char* what, uint32_t id, size_t* out)
{
    *out = cpr_find_id(s->p, id);
    if (*out == NONE) {
        cpr_seterr(s->err, s->name, cur_line(s), "%s: no function with id %u", what, id);
        return -1;
    }
    return 0;
}

/* at </functions>: context nodes refer to known functions */
static int functions_done(rd* s)
{
    cpr_profile* p = s->p;
    for (size_t i = 0; i < p->nfuncs; i++) {
        cpr_func* f = &p->funcs[i];
        if (!f->has_base) continue;
        f->base = cpr_find_id(p, f->base_id);
        if (f->base == NONE) {
            cpr_seterr(s->err, s->name, cur_line(s), "function %u: its base %u is not a function", f->id, f->base_id);
            return -1;
        }
        for (size_t k = 0; k < f->ncallers; k++)
            if (cpr_find_id(p, f->callers[k]) == NONE) {
                cpr_seterr(s->err, s->name, cur_line(s), "function %u: its caller %u is not a function", f->id,
                           f->callers[k]);
                return -1;
            }
    }
    return 0;
}

static int on_object(rd* s)
{
    cpr_object o;
    memset(&o, 0, sizeof o);
    char* kind = NULL;
    int ok = 0;
    if (attr_u32(s, "id", &o.id) || !(kind = attr(s, "kind"))) goto out;
    o.kind = -1;
    for (int k = 0; k < CPR_OBJ_KINDS; k++)
        if (!strcmp(kind, cpr_object_kinds[k])) o.kind = k;
    if (o.kind < 0) {
        cpr_seterr(s->err, s->name, cur_line(s), "<object kind=\"%.40s\">: unknown kind", kind);
        goto out;
    }
    if (!(o.name = attr(s, "name")) || !(o.elf = attr(s, "elf"))) goto out;
    if (!o.name[0]) {
        cpr_seterr(s->err, s->name, cur_line(s), "<object id=\"%u\">: empty name", o.id);
        goto out;
    }
    xmlChar* sym = xmlTextReaderGetAttribute(s->r, BAD_CAST "symbol");
    if (sym) {
        o.symbol = cpr_xstrdup((const char*)sym);
        xmlFree(sym);
        if (!o.symbol[0]) {
            cpr_seterr(s->err, s->name, cur_line(s), "<object id=\"%u\">: empty symbol", o.id);
            goto out;
        }
    }
    if (attr_u64(s, "size", &o.size) || attr_u64(s, "blocks", &o.blocks) ||
        attr_u64(s, "total-bytes", &o.total_bytes) || attr_u64(s, "peak-bytes", &o.peak_bytes) ||
        attr_u64(s, "reads", &o.reads) || attr_u64(s, "read-bytes", &o.read_bytes) ||
        attr_u64(s, "writes", &o.writes) || attr_u64(s, "write-bytes", &o.write_bytes) ||
        attr_u64(s, "first-access", &o.first_access) || attr_u64(s, "last-access", &o.last_access))
        goto out;
    xmlChar* v = xmlTextReaderGetAttribute(s->r, BAD_CAST "written-bytes");
    if (v) {
        xmlFree(v);
        o.has_pct = 1;
        if (attr_u64(s, "written-bytes", &o.written_bytes) || attr_u64(s, "prod-bytes", &o.prod_bytes) ||
            attr_pct(s, "alloc-pct", &o.alloc_pct10) || attr_pct(s, "prod-pct", &o.prod_pct10))
            goto out;
    }
    v = xmlTextReaderGetAttribute(s->r, BAD_CAST "thread");
    if (v) {
        xmlFree(v);
        o.has_thread = 1;
        if (attr_u32(s, "thread", &o.thread)) goto out;
        if (!thread_known(s->p, o.thread)) {
            cpr_seterr(s->err, s->name, cur_line(s), "object %u: no thread with id %u", o.id, o.thread);
            goto out;
        }
    }
    cpr_profile* p = s->p;
    if (cpr_idmap_get(&p->objmap, o.id, p->nobjects, 1) != p->nobjects) {
        cpr_seterr(s->err, s->name, cur_line(s), "object id %u appears twice", o.id);
        goto out;
    }
    if (p->nobjects % 64 == 0) p->objects = cpr_xrealloc(p->objects, p->nobjects + 64, sizeof o);
    p->objects[p->nobjects] = o;
    s->object = &p->objects[p->nobjects++];
    ok = 1;
out:
    free(kind);
    if (!ok) {
        free(o.name);
        free(o.elf);
        free(o.symbol);
    }
    return ok ? 0 : -1;
}

static int on_frame(rd* s)
{
    cpr_object* o = s->object;
    if (!o) return 0; /* the schema reports it */
    cpr_frame fr = {attr(s, "function"), NULL, 0};
    if (!fr.function || !(fr.file = attr(s, "file")) || attr_u32(s, "line", &fr.line)) {
        free(fr.function);
        free(fr.file);
        return -1;
    }
    if (o->nframes % 8 == 0) o->frames = cpr_xrealloc(o->frames, o->nframes + 8, sizeof fr);
    o->frames[o->nframes++] = fr;
    return 0;
}

static int object_ref(rd* s, const char* what, uint32_t id, size_t* out)
{
    *out = cpr_idmap_find(&s->p->objmap, id);
    if (*out == NONE) {
        cpr_seterr(s->err, s->name, cur_line(s), "%s: no object with id %u", what, id);
        return -1;
    }
    return 0;
}

static int on_flow(rd* s)
{
    uint32_t pid, oid, cid;
    cpr_flow fl;
    char what[96];
    if (attr_u32(s, "producer", &pid) || attr_u32(s, "object", &oid) || attr_u32(s, "consumer", &cid) ||
        attr_u64(s, "bytes", &fl.bytes) || attr_u64(s, "unma", &fl.unma))
        return -1;
    snprintf(what, sizeof what, "flow %u -> object %u -> %u", pid, oid, cid);
    if (func_ref(s, what, pid, &fl.p) || func_ref(s, what, cid, &fl.c) || object_ref(s, what, oid, &fl.o)) return -1;
    if (!fl.bytes) {
        cpr_seterr(s->err, s->name, cur_line(s), "%s: 0 bytes", what);
        return -1;
    }
    char key[64];
    snprintf(key, sizeof key, "f %u %u %u", pid, oid, cid);
    if (seen_once(s, key, what)) return -1;
    cpr_profile* p = s->p;
    if (p->nflows % 64 == 0) p->flows = cpr_xrealloc(p->flows, p->nflows + 64, sizeof fl);
    p->flows[p->nflows++] = fl;
    return 0;
}

static int on_phase(rd* s)
{
    cpr_phase ph = {0, NULL, 0};
    if (attr_u32(s, "id", &ph.id) || attr_u64(s, "start", &ph.start)) return -1;
    cpr_profile* p = s->p;
    if (cpr_idmap_find(&p->phasemap, ph.id) != NONE) {
        cpr_seterr(s->err, s->name, cur_line(s), "phase id %u appears twice", ph.id);
        return -1;
    }
    if (!(ph.name = attr(s, "name"))) return -1;
    cpr_idmap_get(&p->phasemap, ph.id, p->nphases, 1);
    if (p->nphases % 16 == 0) p->phases = cpr_xrealloc(p->phases, p->nphases + 16, sizeof ph);
    p->phases[p->nphases++] = ph;
    return 0;
}

static int on_pedge(rd* s)
{
    uint32_t pid, cid;
    cpr_pedge e;
    char what[96];
    if (attr_u32(s, "producer", &pid) || attr_u32(s, "producer-phase", &e.pp) || attr_u32(s, "consumer", &cid) ||
        attr_u32(s, "consumer-phase", &e.cp) || attr_u64(s, "bytes", &e.bytes) || attr_u64(s, "unma", &e.unma))
        return -1;
    snprintf(what, sizeof what, "phase edge %u -> %u", pid, cid);
    if (func_ref(s, what, pid, &e.p) || func_ref(s, what, cid, &e.c)) return -1;
    cpr_profile* p = s->p;
    if (cpr_idmap_find(&p->phasemap, e.pp) == NONE || cpr_idmap_find(&p->phasemap, e.cp) == NONE) {
        cpr_seterr(s->err, s->name, cur_line(s), "%s: no phase with id %u", what,
                   cpr_idmap_find(&p->phasemap, e.pp) == NONE ? e.pp : e.cp);
        return -1;
    }
    if (e.p == e.c && e.pp == e.cp) {
        cpr_seterr(s->err, s->name, cur_line(s), "%s: a self edge within one phase", what);
        return -1;
    }
    if (!e.bytes) {
        cpr_seterr(s->err, s->name, cur_line(s), "%s: 0 bytes", what);
        return -1;
    }
    char key[80], dup[128];
    snprintf(key, sizeof key, "p %u %u %u %u", pid, e.pp, cid, e.cp);
    snprintf(dup, sizeof dup, "phase edge %u [phase %u] -> %u [phase %u]", pid, e.pp, cid, e.cp);
    if (seen_once(s, key, dup)) return -1;
    if (p->npedges % 64 == 0) p->pedges = cpr_xrealloc(p->pedges, p->npedges + 64, sizeof e);
    p->pedges[p->npedges++] = e;
    return 0;
}

/* one decimal of the d attribute, followed by end (or, for end ' ', by the
 * end of the string); returns the character after it, NULL if malformed */
static const char* d_number(const char* c, char end, uint64_t* out)
{
    const char* e = c;
    while (*e >= '0' && *e <= '9') e++;
    if (e == c || (*c == '0' && e - c > 1) || !(*e == end || (end == ' ' && !*e))) return NULL;
    uint64_t v = 0;
    for (const char* k = c; k < e; k++) {
        unsigned d = (unsigned)(*k - '0');
        if (v > (UINT64_MAX - d) / 10) return NULL;
        v = v * 10 + d;
    }
    *out = v;
    return e;
}

static int on_slice(rd* s)
{
    cpr_profile* p = s->p;
    uint32_t i;
    if (attr_u32(s, "i", &i)) return -1;
    if (p->nslices && i <= p->slices[p->nslices - 1].i) {
        cpr_seterr(s->err, s->name, cur_line(s), "<slice i=\"%u\"> after slice %u: slices must be in increasing order",
                   i, p->slices[p->nslices - 1].i);
        return -1;
    }
    char* d = attr(s, "d");
    if (!d) return -1;
    if (!s->stamp) {
        s->nstamp = p->nfuncs;
        s->stamp = cpr_xcalloc(s->nstamp + 1, sizeof *s->stamp);
    }
    size_t first = p->nrecs, k = 0;
    const char* c = d;
    for (;;) {
        uint64_t id, v[4];
        k++;
        const char* e = d_number(c, ':', &id);
        for (int j = 0; j < 4 && e; j++) e = d_number(e + 1, j < 3 ? ',' : ' ', &v[j]);
        if (!e) {
            cpr_seterr(s->err, s->name, cur_line(s),
                       "<slice i=\"%u\">: d: record %zu is not \"function:instructions,read,written,in\" "
                       "(plain decimals, one space between records)",
                       i, k);
            break;
        }
        size_t f = id <= UINT32_MAX ? cpr_find_id(p, (uint32_t)id) : NONE;
        if (f == NONE) {
            cpr_seterr(s->err, s->name, cur_line(s), "<slice i=\"%u\">: record %zu: no function with id %llu", i, k,
                       (unsigned long long)id);
            break;
        }
        if (f < s->nstamp) {
            if (s->stamp[f] == p->nslices + 1) {
                cpr_seterr(s->err, s->name, cur_line(s), "<slice i=\"%u\">: record %zu: function %llu appears twice",
                           i, k, (unsigned long long)id);
                break;
            }
            s->stamp[f] = p->nslices + 1;
        }
        if (p->nrecs % 256 == 0) p->recs = cpr_xrealloc(p->recs, p->nrecs + 256, sizeof *p->recs);
        p->recs[p->nrecs++] = (cpr_srec){f, v[0], v[1], v[2], v[3]};
        if (!*e) break;
        c = e + 1;
    }
    free(d);
    if (s->err->set) {
        p->nrecs = first;
        return -1;
    }
    if (p->nslices % 256 == 0) p->slices = cpr_xrealloc(p->slices, p->nslices + 256, sizeof *p->slices);
    p->slices[p->nslices++] = (cpr_slice){i, first, p->nrecs - first};
    return 0;
}

static int on_span(rd* s)
{
    cpr_span sp;
    memset(&sp, 0, sizeof sp);
    char* fl = NULL;
    uint32_t* ids = NULL;
    size_t n = 0;
    if (attr_u32(s, "first-slice", &sp.first) || attr_u32(s, "last-slice", &sp.last) ||
        attr_u64(s, "instructions", &sp.instructions) || attr_u64(s, "bytes-read", &sp.bytes_read) ||
        attr_u64(s, "bytes-written", &sp.bytes_written) || attr_u64(s, "in-bytes", &sp.in_bytes) ||
        !(fl = attr(s, "functions")))
        return -1;
    int bad = id_list(s, fl, "functions", &ids, &n);
    free(fl);
    if (bad) return -1;
    if (sp.first > sp.last) {
        cpr_seterr(s->err, s->name, cur_line(s), "<span>: first-slice %u after last-slice %u", sp.first, sp.last);
        free(ids);
        return -1;
    }
    if (cpr_pairmap_get(&s->spanpairs, sp.first, sp.last, s->p->nspans, 1) != s->p->nspans) {
        cpr_seterr(s->err, s->name, cur_line(s), "<span> of slices %u-%u appears twice", sp.first, sp.last);
        free(ids);
        return -1;
    }
    sp.funcs = cpr_xmalloc((n + 1) * sizeof *sp.funcs);
    sp.nfuncs = n;
    for (size_t k = 0; k < n; k++)
        if (func_ref(s, "<span> functions", ids[k], &sp.funcs[k])) {
            free(ids);
            free(sp.funcs);
            return -1;
        }
    free(ids);
    cpr_profile* p = s->p;
    if (p->nspans % 64 == 0) p->spans = cpr_xrealloc(p->spans, p->nspans + 64, sizeof sp);
    p->spans[p->nspans++] = sp;
    return 0;
}

static int on_call(rd* s)
{
    cpr_call c;
    memset(&c, 0, sizeof c);
    uint32_t fid;
    if (attr_u32(s, "function", &fid) || attr_u64(s, "first-seq", &c.first_seq) ||
        attr_u64(s, "last-seq", &c.last_seq) || attr_u64(s, "count", &c.count))
        return -1;
    if (func_ref(s, "<call>", fid, &c.f)) return -1;
    if (c.first_seq > c.last_seq) {
        cpr_seterr(s->err, s->name, cur_line(s), "<call function=\"%u\">: first-seq after last-seq", fid);
        return -1;
    }
    cpr_profile* p = s->p;
    if (p->ncalls % 64 == 0) p->calls = cpr_xrealloc(p->calls, p->ncalls + 64, sizeof c);
    p->calls[p->ncalls] = c;
    s->call = &p->calls[p->ncalls++];
    return 0;
}

static int on_call_child(rd* s, const char* n)
{
    cpr_call* c = s->call;
    if (!c) return 0; /* the schema reports it */
    if (!strcmp(n, "caller")) {
        uint32_t id;
        size_t f;
        if (attr_u32(s, "function", &id) || func_ref(s, "<caller>", id, &f)) return -1;
        if (c->ncallers % 16 == 0) c->callers = cpr_xrealloc(c->callers, c->ncallers + 16, sizeof *c->callers);
        c->callers[c->ncallers++] = f;
    } else if (!strcmp(n, "consumed")) {
        uint32_t id;
        cpr_consumed x;
        if (attr_u32(s, "producer", &id) || attr_u64(s, "bytes", &x.bytes) || func_ref(s, "<consumed>", id, &x.p))
            return -1;
        if (c->nconsumed % 16 == 0) c->consumed = cpr_xrealloc(c->consumed, c->nconsumed + 16, sizeof x);
        c->consumed[c->nconsumed++] = x;
    } else if (!strcmp(n, "object")) {
        uint32_t id;
        cpr_callobj x;
        if (attr_u32(s, "id", &id) || attr_u64(s, "read-bytes", &x.read_bytes) ||
            attr_u64(s, "written-bytes", &x.written_bytes) || attr_u64(s, "accesses", &x.accesses) ||
            object_ref(s, "<call> <object>", id, &x.o))
            return -1;
        char* l = attr(s, "locality");
        if (!l) return -1;
        /* [01].ddd, at most 1.000 */
        int ok = strlen(l) == 5 && (l[0] == '0' || l[0] == '1') && l[1] == '.' && l[2] >= '0' && l[2] <= '9' &&
                 l[3] >= '0' && l[3] <= '9' && l[4] >= '0' && l[4] <= '9';
        if (ok) x.locality = (uint32_t)((l[0] - '0') * 1000 + (l[2] - '0') * 100 + (l[3] - '0') * 10 + (l[4] - '0'));
        if (!ok || x.locality > 1000) {
            cpr_seterr(s->err, s->name, cur_line(s), "<object locality=\"%.20s\">: not a score from 0.000 to 1.000",
                       l);
            free(l);
            return -1;
        }
        free(l);
        if (c->nobjects % 16 == 0) c->objects = cpr_xrealloc(c->objects, c->nobjects + 16, sizeof x);
        c->objects[c->nobjects++] = x;
    }
    return 0;
}

static const char* parent(rd* s) { return s->depth >= 2 ? s->stack[s->depth - 2] : ""; }

static int on_function(rd* s)
{
    cpr_func f;
    memset(&f, 0, sizeof f);
    char* kind = NULL;
    int ok = 0;
    if (attr_u32(s, "id", &f.id)) goto out;
    if (!(kind = attr(s, "kind"))) goto out;
    if (!strcmp(kind, "special")) {
        f.special = 1;
        f.kind = CPR_KIND_SPECIAL;
    } else if (!strcmp(kind, "region"))
        f.kind = CPR_KIND_REGION;
    else if (strcmp(kind, "function")) {
        cpr_seterr(s->err, s->name, cur_line(s), "<function kind=\"%.40s\">: unknown kind", kind);
        goto out;
    }
    if (!(f.name = attr(s, "name")) || !(f.object = attr(s, "object")) || !(f.file = attr(s, "file")) ||
        !(f.dir = attr(s, "dir")))
        goto out;
    if (!f.name[0]) {
        cpr_seterr(s->err, s->name, cur_line(s), "<function id=\"%u\">: empty name", f.id);
        goto out;
    }
    if (attr_u32(s, "line", &f.line) || attr_u64(s, "instructions", &f.instructions) ||
        attr_u64(s, "calls", &f.calls) || attr_u64(s, "bytes-read", &f.bytes_read) ||
        attr_u64(s, "bytes-written", &f.bytes_written) || attr_u64(s, "in-bytes", &f.in_bytes) ||
        attr_u64(s, "in-unma", &f.in_unma) || attr_u64(s, "out-bytes", &f.out_bytes) ||
        attr_u64(s, "out-unma", &f.out_unma) || attr_u64(s, "self-bytes", &f.self_bytes) ||
        attr_u64(s, "self-unma", &f.self_unma) || attr_u64(s, "mem-instructions", &f.mem_instructions) ||
        attr_u64(s, "loads", &f.loads) || attr_u64(s, "stores", &f.stores) ||
        attr_u64(s, "stack-loads", &f.stack_loads) || attr_u64(s, "stack-stores", &f.stack_stores) ||
        attr_u64(s, "stack-bytes-read", &f.stack_bytes_read) ||
        attr_u64(s, "stack-bytes-written", &f.stack_bytes_written))
        goto out;
    xmlChar* objects = xmlTextReaderGetAttribute(s->r, BAD_CAST "heap-bytes-read");
    if (objects) {
        xmlFree(objects);
        f.has_objects = 1;
        if (attr_u64(s, "heap-bytes-read", &f.heap_bytes_read) ||
            attr_u64(s, "heap-bytes-written", &f.heap_bytes_written) ||
            attr_u64(s, "global-bytes-read", &f.global_bytes_read) ||
            attr_u64(s, "global-bytes-written", &f.global_bytes_written))
            goto out;
    }
    xmlChar* base = xmlTextReaderGetAttribute(s->r, BAD_CAST "base");
    if (base) {
        xmlFree(base);
        f.has_base = 1;
        char* cl = NULL;
        if (attr_u32(s, "base", &f.base_id) || !(cl = attr(s, "callers"))) goto out;
        int bad = id_list(s, cl, "callers", &f.callers, &f.ncallers);
        free(cl);
        if (bad) goto out;
    }
    if (cpr_add_func(s->p, &f) == NONE) {
        cpr_seterr(s->err, s->name, cur_line(s), "function id %u appears twice", f.id);
        goto out;
    }
    ok = 1;
out:
    free(kind);
    if (!ok) {
        free(f.name);
        free(f.object);
        free(f.file);
        free(f.dir);
        free(f.callers);
    }
    return ok ? 0 : -1;
}

static int on_edge(rd* s)
{
    uint32_t pid, cid;
    uint64_t bytes, unma, acc;
    if (attr_u32(s, "producer", &pid) || attr_u32(s, "consumer", &cid) || attr_u64(s, "bytes", &bytes) ||
        attr_u64(s, "unma", &unma) || attr_u64(s, "accesses", &acc))
        return -1;
    size_t p = cpr_find_id(s->p, pid), c = cpr_find_id(s->p, cid);
    if (p == NONE || c == NONE) {
        cpr_seterr(s->err, s->name, cur_line(s), "edge %u -> %u: no function with id %u", pid, cid,
                   p == NONE ? pid : cid);
        return -1;
    }
    if (p == c) {
        cpr_seterr(s->err, s->name, cur_line(s), "edge %u -> %u: a self edge (those are self-bytes)", pid, cid);
        return -1;
    }
    if (!bytes) {
        cpr_seterr(s->err, s->name, cur_line(s), "edge %u -> %u: 0 bytes", pid, cid);
        return -1;
    }
    if (cpr_pairmap_get(&s->pairs, p, c, s->p->nedges, 1) != s->p->nedges) {
        cpr_seterr(s->err, s->name, cur_line(s), "edge %u -> %u appears twice", pid, cid);
        return -1;
    }
    uint64_t fr = 0;
    xmlChar* v = xmlTextReaderGetAttribute(s->r, BAD_CAST "first-read");
    if (v) {
        xmlFree(v);
        if (attr_u64(s, "first-read", &fr)) return -1;
        if (fr > bytes) {
            cpr_seterr(s->err, s->name, cur_line(s), "edge %u -> %u: first-read %llu is more than its bytes", pid, cid,
                       (unsigned long long)fr);
            return -1;
        }
        s->p->has_first_read = 1;
    }
    cpr_edge* e = cpr_add_edge(s->p, p, c);
    e->bytes = bytes;
    e->unma = unma;
    e->accesses = acc;
    e->first_read = fr;
    return 0;
}

static int on_element(rd* s, const char* n)
{
    cpr_profile* p = s->p;
    const char* par = parent(s);
    if (s->depth == 1) {
        if (strcmp(n, "commprof")) {
            cpr_seterr(s->err, s->name, cur_line(s), "root element is <%.40s>, not <commprof>", n);
            return -1;
        }
        char* v = attr(s, "version");
        if (!v) return -1;
        int bad = strcmp(v, "1") != 0;
        if (bad) cpr_seterr(s->err, s->name, cur_line(s), "unsupported profile version \"%.20s\"", v);
        free(v);
        s->seen_root = 1;
        return bad ? -1 : 0;
    }
    if (!strcmp(par, "run")) {
        if (!strcmp(n, "tool")) {
            free(p->tool_version);
            return (p->tool_version = attr(s, "version")) ? 0 : -1;
        }
        if (!strcmp(n, "end")) {
            free(p->reason);
            return (p->reason = attr(s, "reason")) ? 0 : -1;
        }
        if (!strcmp(n, "totals"))
            return (attr_u64(s, "instructions", &p->t_instructions) ||
                    attr_u64(s, "bytes-read", &p->t_bytes_read) ||
                    attr_u64(s, "bytes-written", &p->t_bytes_written) ||
                    attr_u64(s, "comm-bytes", &p->t_comm_bytes) || attr_u64(s, "comm-unma", &p->t_comm_unma) ||
                    attr_u64(s, "self-bytes", &p->t_self_bytes) || attr_u32(s, "functions", &p->t_functions) ||
                    attr_u32(s, "edges", &p->t_edges))
                       ? -1
                       : 0;
        if (!strcmp(n, "provenance")) {
            p->merged = 1;
            free(p->unma_note);
            return (p->unma_note = attr(s, "unma")) ? 0 : -1;
        }
        if (!strcmp(n, "exe") || !strcmp(n, "pid") || !strcmp(n, "ppid")) {
            s->text.len = 0;
            if (s->text.s) s->text.s[0] = '\0';
            s->collecting = 1;
        }
        return 0;
    }
    if (!strcmp(par, "args") && !strcmp(n, "arg")) {
        s->text.len = 0;
        if (s->text.s) s->text.s[0] = '\0';
        s->collecting = 1;
        return 0;
    }
    if (!strcmp(par, "options") && !strcmp(n, "option")) {
        cpr_option o = {attr(s, "name"), NULL};
        if (!o.name || !(o.value = attr(s, "value"))) {
            free(o.name);
            return -1;
        }
        p->options = cpr_xrealloc(p->options, p->noptions + 1, sizeof *p->options);
        p->options[p->noptions++] = o;
        return 0;
    }
    if (!strcmp(par, "provenance") && !strcmp(n, "input")) {
        cpr_input in = {attr(s, "file"), NULL, NULL};
        if (!in.file || !(in.exe = attr(s, "exe")) || !(in.pid = attr(s, "pid")) ||
            check_pid(s, "input pid", in.pid)) {
            free(in.file);
            free(in.exe);
            free(in.pid);
            return -1;
        }
        p->inputs = cpr_xrealloc(p->inputs, p->ninputs + 1, sizeof *p->inputs);
        p->inputs[p->ninputs++] = in;
        return 0;
    }
    if (!strcmp(par, "functions") && !strcmp(n, "function")) return on_function(s);
    if (!strcmp(par, "edges") && !strcmp(n, "edge")) return on_edge(s);
    if (!strcmp(par, "threads") && !strcmp(n, "thread")) return on_thread(s);
    if (!strcmp(par, "thread-matrix") && !strcmp(n, "cell")) return on_cell(s);
    if (!strcmp(par, "thread-edges") && !strcmp(n, "edge")) return on_tedge(s);
    if (!strcmp(par, "objects") && !strcmp(n, "object")) return on_object(s);
    if (!strcmp(par, "object") && !strcmp(n, "frame")) return on_frame(s);
    if (!strcmp(par, "object-flows") && !strcmp(n, "flow")) return on_flow(s);
    if (!strcmp(par, "phases") && !strcmp(n, "phase")) return on_phase(s);
    if (!strcmp(par, "phase-edges") && !strcmp(n, "edge")) return on_pedge(s);
    if (!strcmp(par, "time-slices") && !strcmp(n, "slice")) return on_slice(s);
    if (!strcmp(par, "detected-phases") && !strcmp(n, "span")) return on_span(s);
    if (!strcmp(par, "calls") && !strcmp(n, "call")) return on_call(s);
    if (!strcmp(par, "call")) return on_call_child(s, n);
    if (s->depth == 2) {
        if (!strcmp(n, "objects")) p->has_objects = 1;
        if (!strcmp(n, "phases")) p->has_phases = 1;
        if (!strcmp(n, "time-slices")) {
            p->has_slices = 1;
            if (attr_u64(s, "size", &p->slice_size)) return -1;
            if (!p->slice_size) {
                cpr_seterr(s->err, s->name, cur_line(s), "<time-slices size=\"0\">: slices of 0 instructions");
                return -1;
            }
        }
        if (!strcmp(n, "detected-phases") && attr_u32(s, "threshold", &p->phase_threshold)) return -1;
        if (!strcmp(n, "calls")) {
            p->has_calls = 1;
            if (attr_u64(s, "dropped", &p->calls_dropped)) return -1;
        }
    }
    return 0;
}

static char* take_text(rd* s) { return cpr_xstrdup(s->text.s ? s->text.s : ""); }

static int on_end(rd* s, const char* n)
{
    cpr_profile* p = s->p;
    if (!strcmp(n, "threads") && s->depth == 2) return threads_done(s);
    if (!strcmp(n, "functions") && s->depth == 2) return functions_done(s);
    if (!strcmp(n, "call")) s->call = NULL;
    if (!strcmp(n, "object") && s->depth == 3) s->object = NULL;
    if (!s->collecting) return 0;
    s->collecting = 0;
    if (!strcmp(n, "exe")) {
        free(p->exe);
        p->exe = take_text(s);
    } else if (!strcmp(n, "arg")) {
        p->args = cpr_xrealloc(p->args, p->nargs + 1, sizeof *p->args);
        p->args[p->nargs++] = take_text(s);
    } else if (!strcmp(n, "pid") || !strcmp(n, "ppid")) {
        char* t = take_text(s);
        if (check_pid(s, n, t)) {
            free(t);
            return -1;
        }
        char** dst = !strcmp(n, "pid") ? &p->pid : &p->ppid;
        free(*dst);
        *dst = t;
    }
    return 0;
}

static int run(rd* s)
{
    int ret;
    while ((ret = xmlTextReaderRead(s->r)) == 1) {
        if (s->err->set) return -1;
        int type = xmlTextReaderNodeType(s->r);
        switch (type) {
        case XML_READER_TYPE_DOCUMENT_TYPE:
            cpr_seterr(s->err, s->name, cur_line(s), "DOCTYPE declarations are not allowed in a profile");
            return -1;
        case XML_READER_TYPE_ENTITY_REFERENCE:
        case XML_READER_TYPE_ENTITY:
            cpr_seterr(s->err, s->name, cur_line(s), "entity references are not allowed in a profile");
            return -1;
        case XML_READER_TYPE_ELEMENT: {
            const char* n = (const char*)xmlTextReaderConstLocalName(s->r);
            if (!n) n = "";
            if (xmlTextReaderConstNamespaceUri(s->r)) {
                cpr_seterr(s->err, s->name, cur_line(s), "element <%.40s> is in a namespace", n);
                return -1;
            }
            if (s->depth >= MAX_DEPTH) {
                cpr_seterr(s->err, s->name, cur_line(s), "element <%.40s> nested too deeply", n);
                return -1;
            }
            snprintf(s->stack[s->depth], sizeof s->stack[0], "%s", n);
            s->depth++;
            int empty = xmlTextReaderIsEmptyElement(s->r);
            if (on_element(s, n)) return -1;
            if (empty) {
                if (on_end(s, n)) return -1;
                s->depth--;
            }
            break;
        }
        case XML_READER_TYPE_END_ELEMENT: {
            const char* n = (const char*)xmlTextReaderConstLocalName(s->r);
            if (on_end(s, n ? n : "")) return -1;
            if (s->depth > 0) s->depth--;
            break;
        }
        case XML_READER_TYPE_TEXT:
        case XML_READER_TYPE_CDATA:
        case XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
        case XML_READER_TYPE_WHITESPACE:
            if (s->collecting) {
                const char* v = (const char*)xmlTextReaderConstValue(s->r);
                size_t n = v ? strlen(v) : 0;
                if (s->text.len + n > MAX_TEXT) {
                    cpr_seterr(s->err, s->name, cur_line(s), "text of <%s> longer than %u bytes",
                               s->stack[s->depth - 1], MAX_TEXT);
                    return -1;
                }
                if (n) cpr_buf_add(&s->text, v, n);
            }
            break;
        default:
            break;
        }
    }
    if (s->err->set) return -1;
    if (ret < 0) {
        cpr_seterr(s->err, s->name, cur_line(s), "malformed XML");
        return -1;
    }
    if (!s->seen_root) {
        cpr_seterr(s->err, s->name, cur_line(s), "no <commprof> element: not a profile");
        return -1;
    }
    if (xmlTextReaderIsValid(s->r) != 1) {
        cpr_seterr(s->err, s->name, cur_line(s), "the file does not match the commprof schema");
        return -1;
    }
    return 0;
}

static int read_with(xmlTextReaderPtr r, const src* in, const char* name, cpr_profile** out, cpr_error* err)
{
    *out = NULL;
    if (!r) {
        cpr_seterr(err, name, 0, "cannot create an XML reader");
        return CPR_EINPUT;
    }
    rd s;
    memset(&s, 0, sizeof s);
    s.r = r;
    s.name = name;
    s.err = err;
    s.in = in;
    s.p = cpr_profile_new(name);
    cpr_pairmap_init(&s.pairs);
    cpr_pairmap_init(&s.cellpairs);
    cpr_pairmap_init(&s.spanpairs);
    xmlTextReaderSetStructuredErrorHandler(r, relay, &s);
    if (xmlTextReaderRelaxNGSetSchema(r, schema) != 0) {
        cpr_seterr(err, name, 0, "cannot set up RelaxNG validation");
    } else {
        run(&s);
    }
    xmlFreeTextReader(r);
    cpr_pairmap_free(&s.pairs);
    cpr_pairmap_free(&s.cellpairs);
    cpr_pairmap_free(&s.spanpairs);
    cpr_strmap_free(&s.keys);
    cpr_buf_free(&s.text);
    free(s.stamp);
    if (err->set) {
        cpr_profile_free(s.p);
        return CPR_EINPUT;
    }
    cpr_mark_ambiguous(s.p);
    *out = s.p;
    return CPR_OK;
}

/* never: XML_PARSE_NOENT, XML_PARSE_DTDLOAD, XML_PARSE_DTDATTR, XML_PARSE_DTDVALID,
 * XML_PARSE_XINCLUDE, XML_PARSE_HUGE */
#define PARSE_OPTS (XML_PARSE_NONET | XML_PARSE_NOXINCNODE)

int cpr_load(const char* path, cpr_profile** out, cpr_error* err)
{
    *out = NULL;
    if (load_schema(err)) return CPR_EINPUT;
    int fd;
    const char* name = path;
    if (!strcmp(path, "-")) {
        fd = 0;
        name = "<stdin>";
    } else {
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            cpr_seterr(err, path, 0, "cannot open: %s", strerror(errno));
            return CPR_EINPUT;
        }
        struct stat st;
        int stat_ok = fstat(fd, &st) == 0;
        if (stat_ok && S_ISDIR(st.st_mode)) {
            close(fd);
            cpr_seterr(err, path, 0, "is a directory");
            return CPR_EINPUT;
        }
        if (stat_ok && S_ISREG(st.st_mode) && st.st_size == 0) {
            close(fd);
            cpr_seterr(err, path, 0, "is empty: no profile in it");
            return CPR_EINPUT;
        }
    }
    src in = {.fd = fd};
    xmlTextReaderPtr r = xmlReaderForIO(src_read, src_close, &in, name, NULL, PARSE_OPTS);
    int rc = read_with(r, &in, name, out, err);
    if (fd != 0) close(fd);
    if (*out) {
        free((*out)->path);
        (*out)->path = cpr_xstrdup(path);
    }
    return rc;
}

int cpr_load_memory(const char* data, size_t len, const char* name, cpr_profile** out, cpr_error* err)
{
    *out = NULL;
    if (load_schema(err)) return CPR_EINPUT;
    if (len > INT32_MAX) {
        cpr_seterr(err, name, 0, "too large");
        return CPR_EINPUT;
    }
    src in = {.fd = -1, .mem = data, .len = len};
    xmlTextReaderPtr r = xmlReaderForIO(src_read, src_close, &in, name, NULL, PARSE_OPTS);
    return read_with(r, &in, name, out, err);
}
