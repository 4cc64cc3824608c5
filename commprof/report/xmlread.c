/* commprof-report: streaming reader of commprof XML profiles.
 *
 * One pass with xmlTextReader, validated against the embedded RelaxNG schema
 * at the same time (the schema is set before the first read).  The input is
 * untrusted: no DTD (a DOCTYPE is refused), no network, no entity
 * substitution, libxml2's default size limits (no XML_PARSE_HUGE).  What
 * RelaxNG cannot say is checked here: numbers parse strictly, function ids are
 * unique, edges refer to known ids, no self edge, no pair twice; thread ids
 * are unique and every thread, cell and (function, thread) edge refers to
 * known threads and functions.  The first
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

typedef struct {
    xmlTextReaderPtr r;
    const char* name;
    cpr_error* err;
    cpr_profile* p;
    cpr_pairmap pairs;     /* function edges seen */
    cpr_pairmap cellpairs; /* thread-matrix cells seen */
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
    if (n && n->line > 0 && n->line < 65535) return n->line;
    int l = xmlTextReaderGetParserLineNumber(s->r);
    return l > 0 ? l : 1;
}

static void relay(void* arg, xmlErrorPtr e)
{
    rd* s = arg;
    if (s->err->set || !e) return;
    if (e->level == XML_ERR_WARNING) return;
    long line = e->line > 0 ? e->line : cur_line(s);
    const char* m = e->message ? e->message : "malformed XML";
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
    /* threads are few (one per thread of the process): a scan is enough */
    for (size_t i = 0; i < p->nthreads; i++)
        if (p->threads[i].id == id) return 1;
    return 0;
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
    if (s->p->ntedges % 64 == 0) s->p->tedges = cpr_xrealloc(s->p->tedges, s->p->ntedges + 64, sizeof e);
    s->p->tedges[s->p->ntedges++] = e;
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
    if (!strcmp(kind, "special"))
        f.special = 1;
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
    cpr_edge* e = cpr_add_edge(s->p, p, c);
    e->bytes = bytes;
    e->unma = unma;
    e->accesses = acc;
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
    return 0;
}

static char* take_text(rd* s) { return cpr_xstrdup(s->text.s ? s->text.s : ""); }

static int on_end(rd* s, const char* n)
{
    cpr_profile* p = s->p;
    if (!strcmp(n, "threads") && s->depth == 2) return threads_done(s);
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

static int read_with(xmlTextReaderPtr r, const char* name, cpr_profile** out, cpr_error* err)
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
    s.p = cpr_profile_new(name);
    cpr_pairmap_init(&s.pairs);
    cpr_pairmap_init(&s.cellpairs);
    xmlTextReaderSetStructuredErrorHandler(r, relay, &s);
    if (xmlTextReaderRelaxNGSetSchema(r, schema) != 0) {
        cpr_seterr(err, name, 0, "cannot set up RelaxNG validation");
    } else {
        run(&s);
    }
    xmlFreeTextReader(r);
    cpr_pairmap_free(&s.pairs);
    cpr_pairmap_free(&s.cellpairs);
    cpr_buf_free(&s.text);
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
        if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
            close(fd);
            cpr_seterr(err, path, 0, "is a directory");
            return CPR_EINPUT;
        }
    }
    xmlTextReaderPtr r = xmlReaderForFd(fd, name, NULL, PARSE_OPTS);
    int rc = read_with(r, name, out, err);
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
    xmlTextReaderPtr r = xmlReaderForMemory(data, (int)len, name, NULL, PARSE_OPTS);
    return read_with(r, name, out, err);
}
