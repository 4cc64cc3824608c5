/* commprof-report: errors, strict numbers, formatting, memory, output files. */

#include "cpr.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- errors -------------------------------------------------------------- */

void cpr_seterr(cpr_error* e, const char* file, long line, const char* fmt, ...)
{
    if (e->set) return; /* keep the first error */
    e->set = 1;
    snprintf(e->file, sizeof e->file, "%s", file ? file : "");
    e->line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    /* one line: cut at the first newline, strip trailing blanks */
    char* nl = strpbrk(e->msg, "\r\n");
    if (nl) *nl = '\0';
    size_t n = strlen(e->msg);
    while (n && (e->msg[n - 1] == ' ' || e->msg[n - 1] == '\t')) e->msg[--n] = '\0';
}

void cpr_print_error(const cpr_error* e)
{
    fflush(stdout);
    if (e->line > 0)
        fprintf(stderr, "%s: %s:%ld: %s\n", CPR_PROG, e->file, e->line, e->msg);
    else if (e->file[0])
        fprintf(stderr, "%s: %s: %s\n", CPR_PROG, e->file, e->msg);
    else
        fprintf(stderr, "%s: %s\n", CPR_PROG, e->msg);
}

int cpr_usage_error(const char* cmd, const char* fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fflush(stdout);
    if (cmd)
        fprintf(stderr, "%s %s: %s (see '%s %s --help')\n", CPR_PROG, cmd, msg, CPR_PROG, cmd);
    else
        fprintf(stderr, "%s: %s (see '%s --help')\n", CPR_PROG, msg, CPR_PROG);
    return CPR_EUSAGE;
}

/* ---- numbers ------------------------------------------------------------- */

int cpr_parse_u64(const char* s, uint64_t* out)
{
    if (!s || !*s) return -1;
    if (s[0] == '0' && s[1] != '\0') return -1;
    uint64_t v = 0;
    for (const char* c = s; *c; c++) {
        if (*c < '0' || *c > '9') return -1;
        unsigned d = (unsigned)(*c - '0');
        if (v > (UINT64_MAX - d) / 10) return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

int cpr_parse_u32(const char* s, uint32_t* out)
{
    uint64_t v;
    if (cpr_parse_u64(s, &v) || v > UINT32_MAX) return -1;
    *out = (uint32_t)v;
    return 0;
}

int cpr_parse_pct(const char* s, double* out)
{
    if (!s || !*s) return -1;
    double v = 0, scale = 1;
    int digits = 0, dot = 0;
    for (const char* c = s; *c; c++) {
        if (*c == '.' && !dot) {
            dot = 1;
            continue;
        }
        if (*c < '0' || *c > '9') return -1;
        digits++;
        if (digits > 15) return -1;
        if (dot) {
            scale /= 10;
            v += (*c - '0') * scale;
        } else {
            v = v * 10 + (*c - '0');
        }
    }
    if (!digits) return -1;
    *out = v;
    return 0;
}

size_t cpr_cut_rows(const uint64_t* vals, size_t n, double threshold, size_t top)
{
    size_t k = n;
    if (threshold < 100) {
        long double total = 0, cum = 0;
        for (size_t i = 0; i < n; i++) total += vals[i];
        long double lim = total * (long double)threshold / 100;
        k = 0;
        while (k < n && vals[k] > 0 && cum < lim) cum += vals[k++];
    }
    if (top && k > top) k = top;
    return k;
}

char* cpr_fmt_u64(char* buf, uint64_t v)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v);
    int o = 0;
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = '\0';
    return buf;
}

char* cpr_fmt_human(char* buf, uint64_t v, const char* unit)
{
    static const char* const pre[] = {"", "k", "M", "G", "T", "P", "E"};
    const char* sep = unit[0] ? " " : "";
    if (v < 10000) {
        snprintf(buf, 32, "%llu%s%s", (unsigned long long)v, sep, unit);
        return buf;
    }
    double x = (double)v;
    int i = 0;
    while (x >= 999.95 && i < 6) {
        x /= 1000;
        i++;
    }
    if (x >= 99.95)
        snprintf(buf, 32, "%.0f %s%s", x, pre[i], unit);
    else if (x >= 9.995)
        snprintf(buf, 32, "%.1f %s%s", x, pre[i], unit);
    else
        snprintf(buf, 32, "%.2f %s%s", x, pre[i], unit);
    if (!unit[0]) { /* "1.2 k" -> "1.2k" */
        char* sp = strchr(buf, ' ');
        if (sp) memmove(sp, sp + 1, strlen(sp));
    }
    return buf;
}

char* cpr_fmt_pct(double part, double total)
{
    if (!(total > 0)) return cpr_xstrdup("-");
    cpr_buf b = {0};
    cpr_buf_printf(&b, "%.2f%%", 100.0 * part / total); /* any length: 1e300% has 301 digits */
    return b.s;
}

/* ---- memory -------------------------------------------------------------- */

static void oom(void)
{
    fputs(CPR_PROG ": out of memory\n", stderr);
    exit(CPR_EINPUT);
}

void* cpr_xmalloc(size_t n)
{
    void* p = malloc(n ? n : 1);
    if (!p) oom();
    return p;
}

void* cpr_xcalloc(size_t n, size_t sz)
{
    void* p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p) oom();
    return p;
}

void* cpr_xrealloc(void* p, size_t n, size_t sz)
{
    if (sz && n > SIZE_MAX / sz) oom();
    size_t bytes = n * sz;
    void* q = realloc(p, bytes ? bytes : 1);
    if (!q) oom();
    return q;
}

char* cpr_xstrdup(const char* s)
{
    size_t n = strlen(s) + 1;
    char* d = cpr_xmalloc(n);
    memcpy(d, s, n);
    return d;
}

void cpr_buf_add(cpr_buf* b, const char* s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t c = b->cap ? b->cap : 64;
        while (c < b->len + n + 1) c *= 2;
        b->s = cpr_xrealloc(b->s, c, 1);
        b->cap = c;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void cpr_buf_puts(cpr_buf* b, const char* s) { cpr_buf_add(b, s, strlen(s)); }

void cpr_buf_printf(cpr_buf* b, const char* fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        cpr_buf_add(b, small, (size_t)n);
        return;
    }
    char* t = cpr_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(t, (size_t)n + 1, fmt, ap);
    va_end(ap);
    cpr_buf_add(b, t, (size_t)n);
    free(t);
}

void cpr_buf_put_visible(cpr_buf* b, const char* s)
{
    for (const unsigned char* c = (const unsigned char*)s; *c; c++) {
        if (*c == '\n')
            cpr_buf_puts(b, "\\n");
        else if (*c == '\t')
            cpr_buf_puts(b, "\\t");
        else if (*c < 0x20 || *c == 0x7f)
            cpr_buf_printf(b, "\\x%02x", *c);
        else
            cpr_buf_add(b, (const char*)c, 1);
    }
}

void cpr_buf_free(cpr_buf* b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

void cpr_csv_field(FILE* f, const char* s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    putc('"', f);
    for (; *s; s++) {
        if (*s == '"') putc('"', f);
        putc(*s, f);
    }
    putc('"', f);
}

/* ---- output files -------------------------------------------------------- */

/* A file named by -o is written completely or not at all: to a temporary
 * file beside it (mkstemp: PATH.XXXXXX, same file system), renamed onto PATH
 * once closed without error, removed otherwise.  A device, FIFO, socket or
 * symbolic link is written in place (a rename would replace /dev/null or the
 * user's link by a plain file); "-" or no name is standard output.  One
 * output is open at a time. */
static struct {
    FILE* f;
    char* tmp; /* the temporary name, NULL when written in place */
} out_file;

int cpr_output_in_place(const char* path)
{
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) return 1;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

int cpr_temp_beside(const char* path, char** name)
{
    cpr_buf b = {0};
    cpr_buf_printf(&b, "%s.XXXXXX", path);
    int fd = mkstemp(b.s);
    if (fd >= 0) {
        mode_t um = umask(0);
        umask(um);
        if (fchmod(fd, 0666 & ~um)) {
            int e = errno;
            close(fd);
            unlink(b.s);
            errno = e;
            fd = -1;
        }
    }
    if (fd < 0) {
        cpr_buf_free(&b);
        return -1;
    }
    *name = b.s;
    return fd;
}

FILE* cpr_open_output(const char* path, cpr_error* err)
{
    if (!path || !strcmp(path, "-")) return stdout;
    FILE* f = NULL;
    char* tmp = NULL;
    if (cpr_output_in_place(path)) {
        f = fopen(path, "w");
    } else {
        int fd = cpr_temp_beside(path, &tmp);
        if (fd >= 0 && !(f = fdopen(fd, "w"))) {
            int e = errno;
            close(fd);
            unlink(tmp);
            free(tmp);
            tmp = NULL;
            errno = e;
        }
    }
    if (!f) {
        cpr_seterr(err, path, 0, "cannot write: %s", strerror(errno));
        return NULL;
    }
    out_file.f = f;
    out_file.tmp = tmp;
    return f;
}

/* closes the output; renames the temporary file onto path if all went well
 * (no error in err before, none now), else removes it */
int cpr_close_output(FILE* f, const char* path, cpr_error* err)
{
    int bad = ferror(f);
    int e = errno;
    if (f == stdout) {
        if (fflush(f)) {
            bad = 1;
            e = errno;
        }
    } else if (fclose(f)) {
        bad = 1;
        e = errno;
    }
    char* tmp = out_file.f == f ? out_file.tmp : NULL;
    out_file.f = NULL;
    out_file.tmp = NULL;
    if (tmp && !bad && !err->set && rename(tmp, path)) {
        bad = 1;
        e = errno;
    }
    if (tmp && (bad || err->set)) unlink(tmp);
    free(tmp);
    if (bad) {
        cpr_seterr(err, (path && strcmp(path, "-")) ? path : "<stdout>", 0, "write error: %s",
                   strerror(e ? e : EIO));
        return CPR_EINPUT;
    }
    return err->set ? CPR_EINPUT : CPR_OK;
}

/* ---- colours ------------------------------------------------------------- */

void cpr_ramp_color(uint64_t v, uint64_t max, char out[8])
{
    /* c = 1023 * log(v) / log(max), as in MCProf's commatrix */
    double c;
    if (v <= 1 || max <= 1)
        c = (max <= 1 && v >= 1) ? 1023 : 0;
    else
        c = 1023.0 * log((double)v) / log((double)max);
    if (c < 0) c = 0;
    if (c > 1023) c = 1023;
    int ci = (int)(c + 0.5);
    int r = ci - 768;
    if (r < 0) r = 0;
    if (r > 255) r = 255;
    int g = 512 - abs(ci - 512);
    if (g > 255) g = 255;
    if (g < 0) g = 0;
    int b = 512 - ci;
    if (b > 255) b = 255;
    if (b < 0) b = 0;
    snprintf(out, 8, "#%02x%02x%02x", r, g, b);
}

/* ---- option values ------------------------------------------------------- */

int cpr_opt_count(const char* cmd, const char* opt, const char* v, size_t* out)
{
    uint64_t x;
    if (cpr_parse_u64(v, &x) || x > (uint64_t)SIZE_MAX / 2)
        return cpr_usage_error(cmd, "--%s=%s: expected a whole number", opt, v);
    *out = (size_t)x;
    return 0;
}

int cpr_opt_pct(const char* cmd, const char* opt, const char* v, double* out)
{
    double x;
    if (cpr_parse_pct(v, &x) || x > 100)
        return cpr_usage_error(cmd, "--%s=%s: expected a percentage from 0 to 100", opt, v);
    *out = x;
    return 0;
}

/* the message for a getopt_long failure (opterr = 0, optstring starts with ':') */
int cpr_opt_error(const char* cmd, int c, int optopt_, char** argv, int optind_)
{
    const char* arg = argv[optind_ - 1];
    if (c == ':') {
        if (optopt_) return cpr_usage_error(cmd, "option '-%c' needs a value", optopt_);
        return cpr_usage_error(cmd, "option '%s' needs a value", arg);
    }
    if (optopt_ && !(arg[0] == '-' && arg[1] == '-'))
        return cpr_usage_error(cmd, "unknown option '-%c'", optopt_);
    return cpr_usage_error(cmd, "unknown option '%s'", arg);
}
