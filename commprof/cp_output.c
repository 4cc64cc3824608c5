/* commprof: output files and the folded profile (see cp_output.h). */

#include "cp_global.h"
#include "cp_output.h"
#include "cp_options.h"
#include "cp_nodes.h"
#include "cp_edges.h"
#include "cp_callstack.h"
#include "cp_objects.h"
#include "cp_percall.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_xarray.h"

/* ------------------------------------------------------------------ */
/* Error strings                                                      */
/* ------------------------------------------------------------------ */

const HChar* cp_errno_string(Int err)
{
   switch (err) {
   case VKI_ENOENT:       return "No such file or directory";
   case VKI_EACCES:       return "Permission denied";
   case VKI_EPERM:        return "Operation not permitted";
   case VKI_EROFS:        return "Read-only file system";
   case VKI_ENOSPC:       return "No space left on device";
   case VKI_EISDIR:       return "Is a directory";
   case VKI_ENOTDIR:      return "Not a directory";
   case VKI_EEXIST:       return "File exists";
   case VKI_EIO:          return "Input/output error";
   case 36 /* ENAMETOOLONG */: return "File name too long";
   case 122 /* EDQUOT */:      return "Disk quota exceeded";
   case VKI_ELOOP:        return "Too many levels of symbolic links";
   case VKI_EMFILE:       return "Too many open files";
   case VKI_EFBIG:        return "File too large";
   case VKI_EBADF:        return "Bad file descriptor";
   case VKI_EPIPE:        return "Broken pipe";
   default:               return "error";
   }
}

/* ------------------------------------------------------------------ */
/* Buffered writer                                                    */
/* ------------------------------------------------------------------ */

static void report_failure(const HChar* what, const HChar* name, Int err)
{
   VG_(umsg)("commprof: cannot %s %s: %s\n", what, name, cp_errno_string(err));
}

/* Is name to be written in place, not through a temporary file renamed
   onto it?  So it is when it is a device (/dev/null), a FIFO or a socket (a
   pipe to a script, /dev/fd/N), or a symbolic link (/dev/stdout, a link
   the user made): a rename would replace the device or the link by a plain
   file, and their directory (/dev) is often not writable anyway. */
static Bool write_in_place(const HChar* name)
{
   HChar target[8];
   if (VG_(readlink)(name, target, sizeof(target)) >= 0) return True;
   struct vg_stat st;
   return !sr_isError(VG_(stat)(name, &st)) && !VKI_S_ISREG(st.mode) && !VKI_S_ISDIR(st.mode);
}

/* The open file descriptor that name stands for: 1 for /dev/stdout, 2 for
   /dev/stderr, N for /dev/fd/N and /proc/self/fd/N; -1 for other names.
   Such a name is written through (a duplicate of) the descriptor itself,
   after what the program wrote to it and sharing its file position: opened
   again, the file would be truncated, or written at a position of its own
   that the program's later output would overwrite. */
static Int named_descriptor(const HChar* name)
{
   if (VG_(strcmp)(name, "/dev/stdin") == 0)  return 0;
   if (VG_(strcmp)(name, "/dev/stdout") == 0) return 1;
   if (VG_(strcmp)(name, "/dev/stderr") == 0) return 2;
   const HChar* p = VG_(strncmp)(name, "/dev/fd/", 8) == 0 ? name + 8
                    : VG_(strncmp)(name, "/proc/self/fd/", 14) == 0 ? name + 14 : NULL;
   if (p == NULL || *p == 0) return -1;
   Int n = 0;
   for (; *p; p++) {
      if (*p < '0' || *p > '9' || n > 1000000) return -1;
      n = n * 10 + (*p - '0');
   }
   return n;
}

/* Is name a character device (/dev/null)? */
static Bool is_char_device(const HChar* name)
{
   struct vg_stat st;
   return !sr_isError(VG_(stat)(name, &st)) && VKI_S_ISCHR(st.mode);
}

CpOut* cp_out_open(const HChar* final_name)
{
   CpOut* o = VG_(malloc)("cp.out", sizeof(CpOut));
   o->final_name = VG_(strdup)("cp.out.final", final_name);
   o->tmp_name = NULL;
   if (!write_in_place(final_name)) {
      SizeT n = VG_(strlen)(final_name) + 32;
      o->tmp_name = VG_(malloc)("cp.out.tmp", n);
      VG_(snprintf)(o->tmp_name, n, "%s.tmp.%d", final_name, VG_(getpid)());
   }
   o->n = 0;
   o->failed = False;
   o->err = 0;
   const HChar* path = o->tmp_name ? o->tmp_name : final_name;
   Int fdn = o->tmp_name ? -1 : named_descriptor(final_name);
   SysRes r = fdn >= 0 ? VG_(dup)(fdn)
                       : VG_(open)(path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC,
                                   VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP | VKI_S_IROTH);
   if (sr_isError(r)) {
      report_failure(o->tmp_name ? "create" : "open", path, (Int)sr_Err(r));
      if (o->tmp_name) VG_(free)(o->tmp_name);
      VG_(free)(o->final_name);
      VG_(free)(o);
      return NULL;
   }
   o->fd = (Int)sr_Res(r);
   return o;
}

static void flush(CpOut* o)
{
   UInt off = 0;
   while (!o->failed && off < o->n) {
      Int w = VG_(write)(o->fd, o->buf + off, (Int)(o->n - off));
      if (w <= 0) {
         o->failed = True;
         o->err = w < 0 ? -w : VKI_ENOSPC;
         break;
      }
      off += (UInt)w;
   }
   o->n = 0;
}

static void put_bytes(CpOut* o, const HChar* s, SizeT len)
{
   while (len > 0) {
      if (o->n == sizeof(o->buf)) flush(o);
      SizeT take = sizeof(o->buf) - o->n;
      if (take > len) take = len;
      VG_(memcpy)(o->buf + o->n, s, take);
      o->n += (UInt)take;
      s += take;
      len -= take;
   }
}

void cp_out_puts(CpOut* o, const HChar* s)
{
   put_bytes(o, s, VG_(strlen)(s));
}

void cp_out_printf(CpOut* o, const HChar* fmt, ...)
{
   HChar tmp[1024];
   va_list vargs;
   va_start(vargs, fmt);
   UInt n = VG_(vsnprintf)(tmp, sizeof(tmp), fmt, vargs);
   va_end(vargs);
   if (n >= sizeof(tmp)) n = sizeof(tmp) - 1;   /* callers print short pieces only */
   put_bytes(o, tmp, n);
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid. */
static UInt utf8_len(const UChar* s)
{
   UChar c = s[0];
   UInt n;
   UInt cp;
   if (c < 0x80) return 1;
   else if ((c & 0xE0) == 0xC0) { n = 2; cp = c & 0x1F; }
   else if ((c & 0xF0) == 0xE0) { n = 3; cp = c & 0x0F; }
   else if ((c & 0xF8) == 0xF0) { n = 4; cp = c & 0x07; }
   else return 0;
   for (UInt i = 1; i < n; i++) {
      if ((s[i] & 0xC0) != 0x80) return 0;
      cp = (cp << 6) | (s[i] & 0x3F);
   }
   if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000)
       || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
      return 0;
   return n;
}

void cp_out_xml_escaped(CpOut* o, const HChar* s)
{
   const UChar* p = (const UChar*)s;
   while (*p) {
      UChar c = *p;
      switch (c) {
      case '&':  cp_out_puts(o, "&amp;");  p++; continue;
      case '<':  cp_out_puts(o, "&lt;");   p++; continue;
      case '>':  cp_out_puts(o, "&gt;");   p++; continue;
      case '"':  cp_out_puts(o, "&quot;"); p++; continue;
      case '\'': cp_out_puts(o, "&apos;"); p++; continue;
      case '\t': cp_out_puts(o, "&#9;");   p++; continue;
      case '\n': cp_out_puts(o, "&#10;");  p++; continue;
      case '\r': cp_out_puts(o, "&#13;");  p++; continue;
      default: break;
      }
      if (c < 0x20) {                 /* not allowed in XML 1.0 */
         put_bytes(o, "?", 1);
         p++;
         continue;
      }
      UInt n = utf8_len(p);
      if (n == 0) {
         put_bytes(o, "?", 1);
         p++;
      } else {
         put_bytes(o, (const HChar*)p, n);
         p += n;
      }
   }
}

void cp_out_name(CpOut* o, const HChar* s, CpNameFormat f)
{
   const UChar* p = (const UChar*)s;
   Bool lead = True;                  /* no other byte written yet */
   if (f == CP_NAME_CALLGRIND && *p == 0) { cp_out_puts(o, "???"); return; }
   while (*p) {
      UChar c = *p;
      if (f == CP_NAME_DOT && (c == '"' || c == '\\')) {
         put_bytes(o, "\\", 1);
         put_bytes(o, (const HChar*)p, 1);
      } else if (f == CP_NAME_DOT && c == '\n') {
         put_bytes(o, "\\n", 2);
      } else if (f == CP_NAME_CALLGRIND && lead && (c == ' ' || c == '\t')) {
         /* callgrind_annotate drops the blanks before a name */
         put_bytes(o, "_", 1);
         p++;
         continue;
      } else if (c < 0x20 || c == 0x7f) {
         put_bytes(o, (c == '\n' || c == '\r' || c == '\t') ? " " : "?", 1);
      } else {
         UInt n = utf8_len(p);
         if (n == 0) {
            put_bytes(o, "?", 1);
         } else {
            put_bytes(o, (const HChar*)p, n);
            p += n;
            lead = False;
            continue;
         }
      }
      p++;
      lead = False;
   }
}

Bool cp_out_close(CpOut* o)
{
   flush(o);
   VG_(close)(o->fd);
   Bool ok = !o->failed;
   if (!o->tmp_name) {                               /* written in place */
      if (!ok) report_failure("write", o->final_name, o->err);
   } else if (!ok) {
      report_failure("write", o->tmp_name, o->err);
      VG_(unlink)(o->tmp_name);
   } else if (VG_(rename)(o->tmp_name, o->final_name) != 0) {
      VG_(umsg)("commprof: cannot rename %s to %s\n", o->tmp_name, o->final_name);
      VG_(unlink)(o->tmp_name);
      ok = False;
   }
   if (o->tmp_name) VG_(free)(o->tmp_name);
   VG_(free)(o->final_name);
   VG_(free)(o);
   return ok;
}

/* ------------------------------------------------------------------ */
/* File names                                                         */
/* ------------------------------------------------------------------ */

static Int    startup_pid;
static HChar* startup_out_name;     /* names as expanded in the first process */
static HChar* startup_xml_name;
static HChar* startup_dot_name;

static Bool is_none(const HChar* v)
{
   return VG_(strcmp)(v, "none") == 0;
}

/* Number of profile writes so far in this process: %n in an output file
   name is replaced by it (1 for the first write), so that with
   COMMPROF_DUMP_PROFILE every write can get its own file. */
static UInt write_seq;

/* Expand fmt, with %n replaced by seq; the rest (%p, %q{VAR}, %%) as
   Valgrind's --log-file does. */
static HChar* expand_seq(const HChar* opt, const HChar* fmt, UInt seq)
{
   SizeT n = VG_(strlen)(fmt);
   HChar* f = VG_(malloc)("cp.out.fmt", n * 6 + 16);
   SizeT k = 0;
   for (SizeT i = 0; i < n; i++) {
      if (fmt[i] == '%' && fmt[i + 1] == '%') {
         f[k++] = '%'; f[k++] = '%'; i++;
      } else if (fmt[i] == '%' && fmt[i + 1] == 'n') {
         k += VG_(sprintf)(f + k, "%u", seq);
         i++;
      } else {
         f[k++] = fmt[i];
      }
   }
   f[k] = 0;
   HChar* name = VG_(expand_file_name)(opt, f);
   VG_(free)(f);
   return name;
}

/* The file name for an output option at this write.  In a forked child the
   pid is appended unless the name has %p, so that parent and child never
   write the same file; not to a character device (/dev/null) or a name of
   a descriptor (/dev/stdout), which both write. */
static HChar* expand(const HChar* opt, const HChar* fmt, const HChar* startup_name)
{
   HChar* name = expand_seq(opt, fmt, write_seq);
   if (startup_name && VG_(getpid)() != startup_pid && !VG_(strstr)(fmt, "%p")
       && !is_char_device(name) && named_descriptor(name) < 0) {
      SizeT n = VG_(strlen)(name) + 16;
      HChar* n2 = VG_(malloc)("cp.out.name", n);
      VG_(snprintf)(n2, n, "%s.%d", name, VG_(getpid)());
      VG_(free)(name);
      name = n2;
   }
   return name;
}

static void check_writable(const HChar* opt, const HChar* name)
{
   struct vg_stat st;
   Bool exists = !sr_isError(VG_(stat)(name, &st));
   if (exists && VKI_S_ISDIR(st.mode)) {
      VG_(fmsg)("%s: cannot write %s: Is a directory\n", opt, name);
      VG_(exit)(1);
   }
   if (write_in_place(name)) {
      /* opened as it will be at the end, without truncating; not a FIFO or
         a socket (a reader would see the end of its data when it is closed
         again) nor a link to nothing yet (made at the end) */
      if (!exists || VKI_S_ISFIFO(st.mode) || VKI_S_ISSOCK(st.mode)) return;
      SysRes r = VG_(open)(name, VKI_O_WRONLY | VKI_O_NONBLOCK, 0);
      if (sr_isError(r)) {
         VG_(fmsg)("%s: cannot write %s: %s\n", opt, name, cp_errno_string((Int)sr_Err(r)));
         VG_(exit)(1);
      }
      VG_(close)((Int)sr_Res(r));
      return;
   }
   HChar probe[VG_(strlen)(name) + 32];
   VG_(snprintf)(probe, sizeof(probe), "%s.tmp.%d", name, VG_(getpid)());
   SysRes r = VG_(open)(probe, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_EXCL,
                        VKI_S_IRUSR | VKI_S_IWUSR);
   if (sr_isError(r)) {
      VG_(fmsg)("%s: cannot write %s: %s\n", opt, name, cp_errno_string((Int)sr_Err(r)));
      VG_(exit)(1);
   }
   VG_(close)((Int)sr_Res(r));
   VG_(unlink)(probe);
}

/* After an execve traced with --trace-children=yes the new image has the
   same pid, so its file names are those of the profile the old image wrote
   just before the exec.  That profile is moved aside to NAME.execN (N = 1, 2,
   ... along the exec chain) so that the new image does not overwrite it. */
static void keep_pre_exec_profile(const HChar* name)
{
   if (write_in_place(name)) return;      /* a device, a pipe, a link: nothing is moved */
   SysRes r = VG_(open)(name, VKI_O_RDONLY, 0);
   if (sr_isError(r)) return;
   Int fd = (Int)sr_Res(r);
   HChar pid_xml[40], pid_cg[40], pid_dot[48];
   VG_(snprintf)(pid_xml, sizeof(pid_xml), "<pid>%d</pid>", VG_(getpid)());
   VG_(snprintf)(pid_cg, sizeof(pid_cg), "\npid: %d\n", VG_(getpid)());
   VG_(snprintf)(pid_dot, sizeof(pid_dot), "// commprof pid %d", VG_(getpid)());
   /* the header, which holds the command line before the pid and the end
      (arguments of up to ARG_MAX bytes, escaped in the XML): read until the
      marks are found or the header has ended */
   SizeT cap = 65536, got = 0;
   HChar* head = VG_(malloc)("cp.output.head", cap + 1);
   Bool ours = False, exec = False;
   for (;;) {
      if (got == cap) {
         if (cap >= ((SizeT)64 << 20)) break;
         cap *= 2;
         head = VG_(realloc)("cp.output.head", head, cap + 1);
      }
      Int n = VG_(read)(fd, head + got, (Int)(cap - got));
      if (n <= 0) break;
      got += (SizeT)n;
      head[got] = 0;
      ours = VG_(strstr)(head, pid_xml) || VG_(strstr)(head, pid_cg) || VG_(strstr)(head, pid_dot);
      exec = VG_(strstr)(head, "<end reason=\"exec\"/>") || VG_(strstr)(head, "\ndesc: Ended: exec\n")
             || VG_(strstr)(head, "ended: exec\n");
      if ((ours && exec) || VG_(strstr)(head, "<totals ") || VG_(strstr)(head, "\nevents: ")
          || VG_(strstr)(head, "\ndigraph ")) break;
   }
   VG_(close)(fd);
   VG_(free)(head);
   if (!ours || !exec) return;
   SizeT len = VG_(strlen)(name) + 32;
   HChar aside[len];
   for (UInt k = 1; k < 1000; k++) {
      struct vg_stat st;
      VG_(snprintf)(aside, len, "%s.exec%u", name, k);
      if (sr_isError(VG_(stat)(aside, &st))) {
         VG_(rename)(name, aside);
         return;
      }
   }
}

/* path without "." components, repeated slashes and "dir/.." pairs, into
   out (of at least strlen(path) + 1 bytes): two spellings of one name
   compare equal (the directories are taken as they are written, links not
   followed). */
static void normalise_path(const HChar* path, HChar* out)
{
   SizeT n = 0;
   Bool abs = path[0] == '/';
   const HChar* p = path;
   while (*p) {
      while (*p == '/') p++;
      const HChar* e = p;
      while (*e && *e != '/') e++;
      SizeT len = (SizeT)(e - p);
      if (len == 0) break;
      if (len == 1 && p[0] == '.') {
         /* nothing */
      } else if (len == 2 && p[0] == '.' && p[1] == '.' && n > 0
                 && !(n >= 2 && out[n - 1] == '.' && out[n - 2] == '.'
                      && (n == 2 || out[n - 3] == '/'))) {
         while (n > 0 && out[n - 1] != '/') n--;       /* drop the last component */
         if (n > 0) n--;                               /* and its slash */
      } else {
         if (n > 0 || abs) out[n++] = '/';
         VG_(memcpy)(out + n, p, len);
         n += len;
      }
      p = e;
   }
   if (n == 0 && abs) out[n++] = '/';
   out[n] = 0;
}

/* Do the output file names a and b name the same file: the same name once
   normalised, or the same existing file (a link)? */
static Bool same_file(const HChar* a, const HChar* b)
{
   HChar na[VG_(strlen)(a) + 2], nb[VG_(strlen)(b) + 2];
   normalise_path(a, na);
   normalise_path(b, nb);
   if (VG_(strcmp)(na, nb) == 0) return True;
   struct vg_stat sa, sb;
   return !sr_isError(VG_(stat)(a, &sa)) && !sr_isError(VG_(stat)(b, &sb))
          && sa.dev == sb.dev && sa.ino == sb.ino;
}

void cp_output_init(void)
{
   startup_pid = VG_(getpid)();
   if (!is_none(cp_clo.out_file)) {
      startup_out_name = expand_seq("--commprof-out-file", cp_clo.out_file, 1);
      check_writable("--commprof-out-file", startup_out_name);
      keep_pre_exec_profile(startup_out_name);
   }
   if (!is_none(cp_clo.xml_file)) {
      startup_xml_name = expand_seq("--commprof-xml-file", cp_clo.xml_file, 1);
      check_writable("--commprof-xml-file", startup_xml_name);
      keep_pre_exec_profile(startup_xml_name);
   }
   if (!is_none(cp_clo.dot_file)) {
      startup_dot_name = expand_seq("--commprof-dot-file", cp_clo.dot_file, 1);
      check_writable("--commprof-dot-file", startup_dot_name);
      keep_pre_exec_profile(startup_dot_name);
   }
   const HChar* names[3] = { startup_out_name, startup_xml_name, startup_dot_name };
   for (UInt i = 0; i < 3; i++)
      for (UInt j = i + 1; j < 3; j++)
         if (names[i] && names[j] && same_file(names[i], names[j])
             && !is_char_device(names[i]) && named_descriptor(names[i]) < 0) {
            VG_(fmsg)("two --commprof-*-file options name the same file: %s\n", names[i]);
            VG_(exit)(1);
         }
}

void cp_output_forked(void)
{
   /* the child numbers its own writes */
   write_seq = 0;
}

void cp_client_cmdline(HChar* buf, SizeT sz)
{
   SizeT k = 0;
   buf[0] = 0;
   if (VG_(args_the_exename))
      k += VG_(snprintf)(buf + k, sz - k, "%s", VG_(args_the_exename));
   for (Word i = 0; VG_(args_for_client) && i < VG_(sizeXA)(VG_(args_for_client)); i++) {
      if (k + 2 >= sz) break;
      HChar* a = *(HChar**)VG_(indexXA)(VG_(args_for_client), i);
      k += VG_(snprintf)(buf + k, sz - k, " %s", a);
   }
}

/* ------------------------------------------------------------------ */
/* Folding context edges into node edges                              */
/* ------------------------------------------------------------------ */

static UInt pnode(const CpEdge* e) { return cp_ctxs[cp_edge_producer(e)].node; }
static UInt cnode(const CpEdge* e) { return cp_ctxs[cp_edge_consumer(e)].node; }

/* Context edges are folded by a key of up to four numbers: sorted by it,
   then taken group by group. */
#define MAX_KEY 4
typedef UInt (*EdgeKey)(const CpEdge* e, UInt* k);     /* fills k, returns its length */
static EdgeKey cur_key;           /* what cmp_key compares by (VG_(ssort) passes no context) */

static Int cmp_key(const void* a, const void* b)
{
   UInt ka[MAX_KEY], kb[MAX_KEY];
   UInt n = cur_key(*(const CpEdge* const*)a, ka);
   cur_key(*(const CpEdge* const*)b, kb);
   for (UInt i = 0; i < n; i++)
      if (ka[i] != kb[i]) return ka[i] < kb[i] ? -1 : 1;
   return 0;
}

static void sort_by(CpEdge** v, UInt n, EdgeKey key)
{
   cur_key = key;
   VG_(ssort)(v, n, sizeof(CpEdge*), cmp_key);
}

/* v[i] and v[j] have the same key (the key of the last sort_by). */
static Bool same_key(CpEdge** v, UInt i, UInt j)
{
   return cmp_key(&v[i], &v[j]) == 0;
}

static UInt key_pair(const CpEdge* e, UInt* k)     { k[0] = pnode(e); k[1] = cnode(e); return 2; }
static UInt key_consumer(const CpEdge* e, UInt* k) { k[0] = cnode(e); return 1; }
static UInt key_producer(const CpEdge* e, UInt* k) { k[0] = pnode(e); return 1; }

/* (producer thread, consumer thread, whether (library data) or (dynamic
   linker) reads or wrote the bytes) */
static UInt key_threads(const CpEdge* e, UInt* k)
{
   const CpCtx* p = &cp_ctxs[cp_edge_producer(e)];
   const CpCtx* c = &cp_ctxs[cp_edge_consumer(e)];
   k[0] = p->thread;
   k[1] = c->thread;
   k[2] = cp_node_is_runtime(p->node) || cp_node_is_runtime(c->node);
   return 3;
}

static UInt key_node_thread(const CpEdge* e, UInt* k)
{
   const CpCtx* p = &cp_ctxs[cp_edge_producer(e)];
   const CpCtx* c = &cp_ctxs[cp_edge_consumer(e)];
   k[0] = p->node; k[1] = p->thread; k[2] = c->node; k[3] = c->thread;
   return 4;
}

static UInt key_phases(const CpEdge* e, UInt* k)
{
   const CpCtx* p = &cp_ctxs[cp_edge_producer(e)];
   const CpCtx* c = &cp_ctxs[cp_edge_consumer(e)];
   k[0] = p->node; k[1] = c->node; k[2] = p->phase; k[3] = c->phase;
   return 4;
}

/* flow edges: (producer node, object, consumer node) */
static UInt key_flow(const CpEdge* e, UInt* k)
{
   const CpObjConsumer* oc = &cp_obj_consumers[cp_edge_consumer(e)];
   k[0] = cp_ctxs[cp_edge_producer(e)].node;
   k[1] = oc->object;
   k[2] = cp_ctxs[oc->ctx].node;
   return 3;
}

static ULong union_count(CpEdge** v, UInt lo, UInt hi);

static Int cmp_flows(const void* a, const void* b)
{
   const CpObjFlow* x = a;
   const CpObjFlow* y = b;
   if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
   if (x->object != y->object) return x->object < y->object ? -1 : 1;
   if (x->producer != y->producer) return x->producer < y->producer ? -1 : 1;
   return x->consumer < y->consumer ? -1 : x->consumer > y->consumer ? 1 : 0;
}

static void build_flows(CpReport* r)
{
   UInt nf = cp_edges_count(&cp_flows);
   CpEdge** v = VG_(malloc)("cp.rep.fv", (nf ? nf : 1) * sizeof(CpEdge*));
   for (UInt i = 0; i < nf; i++) v[i] = cp_edge_at(&cp_flows, i);
   sort_by(v, nf, key_flow);
   r->flows = VG_(malloc)("cp.rep.flows", (nf ? nf : 1) * sizeof(CpObjFlow));
   r->n_flows = 0;
   for (UInt i = 0; i < nf; ) {
      UInt j = i;
      ULong bytes = 0;
      while (j < nf && same_key(v, i, j)) bytes += v[j++]->bytes;
      UInt k[MAX_KEY];
      key_flow(v[i], k);
      CpObjFlow* f = &r->flows[r->n_flows++];
      f->producer = k[0];
      f->object = k[1];
      f->consumer = k[2];
      f->bytes = bytes;
      f->unma = union_count(v, i, j);
      r->active[f->producer] = r->active[f->consumer] = True;
      i = j;
   }
   VG_(ssort)(r->flows, r->n_flows, sizeof(CpObjFlow), cmp_flows);
   VG_(free)(v);
}

static Int cmp_phase_edges(const void* a, const void* b)
{
   const CpPhaseEdge* x = a;
   const CpPhaseEdge* y = b;
   if (x->pphase != y->pphase) return x->pphase < y->pphase ? -1 : 1;
   if (x->cphase != y->cphase) return x->cphase < y->cphase ? -1 : 1;
   if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
   if (x->producer != y->producer) return x->producer < y->producer ? -1 : 1;
   return x->consumer < y->consumer ? -1 : x->consumer > y->consumer ? 1 : 0;
}

/* Edges by (phase written, phase read): all cross-function ones, and the
   self ones that cross phases. */
static void build_phase_edges(CpReport* r, CpEdge** v, UInt nv)
{
   sort_by(v, nv, key_phases);
   r->phase_edges = VG_(malloc)("cp.rep.pe", (nv ? nv : 1) * sizeof(CpPhaseEdge));
   r->n_phase_edges = 0;
   for (UInt i = 0; i < nv; ) {
      UInt j = i;
      ULong bytes = 0;
      while (j < nv && same_key(v, i, j)) bytes += v[j++]->bytes;
      const CpCtx* p = &cp_ctxs[cp_edge_producer(v[i])];
      const CpCtx* c = &cp_ctxs[cp_edge_consumer(v[i])];
      if (p->node != c->node || p->phase != c->phase) {
         CpPhaseEdge* e = &r->phase_edges[r->n_phase_edges++];
         e->producer = p->node;
         e->consumer = c->node;
         e->pphase = p->phase;
         e->cphase = c->phase;
         e->bytes = bytes;
         e->unma = union_count(v, i, j);
         r->active[p->node] = r->active[c->node] = True;
      }
      i = j;
   }
   VG_(ssort)(r->phase_edges, r->n_phase_edges, sizeof(CpPhaseEdge), cmp_phase_edges);
}

/* The phases of a time-sliced run: maximal runs of consecutive slices in
   which the same functions are active, a function being active in a slice
   if it executed at least --phase-threshold percent of its instructions. */
static void build_spans(CpReport* r)
{
   r->slices = cp_timeline_records(&r->n_slices);
   r->spans = VG_(malloc)("cp.rep.spans", (r->n_slices ? r->n_slices : 1) * sizeof(CpSpan));
   r->n_spans = 0;
   const CpSliceRec* s = r->slices;
   UInt n = r->n_slices;
   UInt* set = VG_(malloc)("cp.rep.set", (n ? n : 1) * sizeof(UInt));
   CpSpan* cur = NULL;
   for (UInt i = 0; i < n; ) {
      UInt j = i;
      ULong total = 0;
      while (j < n && s[j].slice == s[i].slice) total += s[j++].instrs;
      UInt k = 0;
      for (UInt q = i; q < j; q++)
         if (s[q].instrs && s[q].instrs * 100 >= total * cp_clo.phase_threshold) set[k++] = s[q].node;
      Bool same = cur && cur->last + 1 == s[i].slice && cur->n_nodes == k;
      for (UInt q = 0; same && q < k; q++) same = cur->nodes[q] == set[q];
      if (!same) {
         cur = &r->spans[r->n_spans++];
         cur->first = s[i].slice;
         cur->nodes = VG_(malloc)("cp.rep.spannodes", (k ? k : 1) * sizeof(UInt));
         VG_(memcpy)(cur->nodes, set, k * sizeof(UInt));
         cur->n_nodes = k;
         cur->instrs = cur->bytes_read = cur->bytes_written = cur->comm_in = 0;
      }
      cur->last = s[i].slice;
      for (UInt q = i; q < j; q++) {
         cur->instrs += s[q].instrs;
         cur->bytes_read += s[q].bytes_read;
         cur->bytes_written += s[q].bytes_written;
         cur->comm_in += s[q].comm_in;
         r->active[s[q].node] = True;
      }
      i = j;
   }
   VG_(free)(set);
}

/* (function, thread) -> (function, thread) edges: context edges folded over
   phases; pairs of one function in one thread (self edges) left out. */
static void build_thread_edges(CpReport* r, CpEdge** v, UInt nv)
{
   sort_by(v, nv, key_node_thread);
   r->tedges = VG_(malloc)("cp.rep.te", (nv ? nv : 1) * sizeof(CpThreadEdge));
   r->n_tedges = 0;
   for (UInt i = 0; i < nv; ) {
      UInt j = i;
      ULong bytes = 0, acc = 0;
      while (j < nv && same_key(v, i, j)) {
         bytes += v[j]->bytes;
         acc += v[j]->accesses;
         j++;
      }
      const CpCtx* p = &cp_ctxs[cp_edge_producer(v[i])];
      const CpCtx* c = &cp_ctxs[cp_edge_consumer(v[i])];
      if (p->node != c->node || p->thread != c->thread) {
         CpThreadEdge* e = &r->tedges[r->n_tedges++];
         e->producer = p->node;
         e->pthread = p->thread;
         e->consumer = c->node;
         e->cthread = c->thread;
         e->bytes = bytes;
         e->accesses = acc;
         e->unma = union_count(v, i, j);
      }
      i = j;
   }
}

static Int cmp_node_edges(const void* a, const void* b)
{
   const CpNodeEdge* x = a;
   const CpNodeEdge* y = b;
   if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
   if (x->producer != y->producer) return x->producer < y->producer ? -1 : 1;
   if (x->consumer != y->consumer) return x->consumer < y->consumer ? -1 : 1;
   return 0;
}

/* Size of the union of the address sets of v[lo..hi).  The largest set
   goes in first: where its pages are full, the union's are too, and the
   others then add no bitmap there. */
static ULong union_count(CpEdge** v, UInt lo, UInt hi)
{
   if (hi - lo == 1) return v[lo]->addrs.count;
   UInt big = lo;
   for (UInt i = lo + 1; i < hi; i++)
      if (v[i]->addrs.count > v[big]->addrs.count) big = i;
   CpAddrSet u;
   cp_addrset_init(&u);
   cp_addrset_union(&u, &v[big]->addrs);
   for (UInt i = lo; i < hi; i++)
      if (i != big) cp_addrset_union(&u, &v[i]->addrs);
   ULong n = u.count;
   cp_addrset_free(&u);
   return n;
}

static void build_report(CpReport* r, const HChar* reason)
{
   UInt N = cp_n_nodes;
   VG_(memset)(r, 0, sizeof(*r));
   r->reason = reason;
   r->n_nodes = N;
   r->in_bytes   = VG_(calloc)("cp.rep", N, sizeof(ULong));
   r->in_unma    = VG_(calloc)("cp.rep", N, sizeof(ULong));
   r->out_bytes  = VG_(calloc)("cp.rep", N, sizeof(ULong));
   r->out_unma   = VG_(calloc)("cp.rep", N, sizeof(ULong));
   r->self_bytes = VG_(calloc)("cp.rep", N, sizeof(ULong));
   r->self_unma  = VG_(calloc)("cp.rep", N, sizeof(ULong));
   r->active     = VG_(calloc)("cp.rep", N, sizeof(Bool));

   UInt ne = cp_edges_count(&cp_edges);
   CpEdge** v = VG_(malloc)("cp.rep.v", (ne ? ne : 1) * sizeof(CpEdge*));
   UInt nv = 0;
   for (UInt i = 0; i < ne; i++) {
      CpEdge* e = cp_edge_at(&cp_edges, i);
      if (e->bytes) v[nv++] = e;
   }

   /* node-level edges */
   r->edges = VG_(malloc)("cp.rep.edges", (nv ? nv : 1) * sizeof(CpNodeEdge));
   sort_by(v, nv, key_pair);
   for (UInt i = 0; i < nv; ) {
      UInt j = i;
      ULong bytes = 0, acc = 0, fr = 0;
      while (j < nv && same_key(v, i, j)) {
         bytes += v[j]->bytes;
         acc += v[j]->accesses - v[j]->dup_accesses;
         fr += v[j]->first_read;
         j++;
      }
      UInt p = pnode(v[i]), c = cnode(v[i]);
      ULong unma = union_count(v, i, j);
      if (p == c) {
         r->self_bytes[p] += bytes;
         r->self_unma[p] = unma;
         r->total_self += bytes;
      } else {
         CpNodeEdge* ne2 = &r->edges[r->n_edges++];
         ne2->producer = p;
         ne2->consumer = c;
         ne2->bytes = bytes;
         ne2->accesses = acc;
         ne2->unma = unma;
         ne2->first_read = fr;
         r->in_bytes[c] += bytes;
         r->out_bytes[p] += bytes;
         r->total_comm += bytes;
      }
      r->active[p] = r->active[c] = True;
      i = j;
   }
   VG_(ssort)(r->edges, r->n_edges, sizeof(CpNodeEdge), cmp_node_edges);

   /* threads: bytes read, the thread matrix (all bytes, the diagonal too),
      and bytes crossing threads; (unwritten) belongs to no thread, and the
      run-time's own work is not the threads' communication: the C
      library's data passed from thread to thread ((library data): stdout's
      FILE, rand's state, locks) and the lazy bindings ((dynamic linker)) */
   cp_threads_sync_clock();
   r->n_threads   = cp_n_threads;
   r->thread_read = VG_(calloc)("cp.rep", cp_n_threads, sizeof(ULong));
   r->thread_in   = VG_(calloc)("cp.rep", cp_n_threads, sizeof(ULong));
   r->thread_out  = VG_(calloc)("cp.rep", cp_n_threads, sizeof(ULong));
   r->cells       = VG_(malloc)("cp.rep.cells", (nv ? nv : 1) * sizeof(CpThreadCell));
   r->n_cells     = 0;
   sort_by(v, nv, key_threads);
   for (UInt i = 0; i < nv; ) {
      UInt j = i;
      ULong bytes = 0;
      while (j < nv && same_key(v, i, j)) bytes += v[j++]->bytes;
      UInt t[MAX_KEY];
      key_threads(v[i], t);
      UInt pt = t[0], ct = t[1];
      r->thread_read[ct] += bytes;
      if (pt != 0 && !t[2]) {
         CpThreadCell* cell = &r->cells[r->n_cells++];
         cell->producer = pt;
         cell->consumer = ct;
         cell->bytes = bytes;
         cell->unma = union_count(v, i, j);
         if (pt != ct) {
            r->thread_in[ct] += bytes;
            r->thread_out[pt] += bytes;
         }
      }
      i = j;
   }

   build_thread_edges(r, v, nv);
   if (cp_n_phases > 1) build_phase_edges(r, v, nv);

   /* distinct addresses per consumer and per producer, over cross edges */
   UInt nx = 0;
   for (UInt i = 0; i < nv; i++)
      if (pnode(v[i]) != cnode(v[i])) v[nx++] = v[i];
   sort_by(v, nx, key_consumer);
   for (UInt i = 0; i < nx; ) {
      UInt j = i;
      while (j < nx && same_key(v, i, j)) j++;
      r->in_unma[cnode(v[i])] = union_count(v, i, j);
      i = j;
   }
   sort_by(v, nx, key_producer);
   for (UInt i = 0; i < nx; ) {
      UInt j = i;
      while (j < nx && same_key(v, i, j)) j++;
      r->out_unma[pnode(v[i])] = union_count(v, i, j);
      i = j;
   }
   r->total_comm_unma = nx ? union_count(v, 0, nx) : 0;
   VG_(free)(v);

   if (cp_clo.objects) {
      cp_objects_sync();
      build_flows(r);
   }
   if (cp_clo.time_slice) build_spans(r);
   if (cp_clo.per_call) {
      UInt nrec;
      const CpPcRecord* recs = cp_percall_records(&nrec);
      for (UInt i = 0; i < nrec; i++) {
         r->active[recs[i].node] = True;
         for (UInt k = 0; k < recs[i].n_path; k++) r->active[recs[i].path[k]] = True;
         for (UInt k = 0; k < recs[i].n_producers; k++) r->active[recs[i].producers[k].id] = True;
      }
   }
   /* caller contexts refer to their function and its callers */
   for (UInt i = 0; i < N; i++) {
      const CpNode* n = cp_nodes[i];
      if (!r->active[i] && !(n->instrs || n->calls || n->bytes_read || n->bytes_written)) continue;
      if (n->base != i) r->active[n->base] = True;
      for (UInt k = 0; k < n->n_callers; k++) r->active[n->callers[k]] = True;
   }

   for (UInt i = 0; i < N; i++) {
      CpNode* n = cp_nodes[i];
      r->total_instrs  += n->instrs;
      r->total_read    += n->bytes_read;
      r->total_written += n->bytes_written;
      if (n->instrs || n->calls || n->bytes_read || n->bytes_written) r->active[i] = True;
      if (r->active[i]) r->n_active++;
   }
}

static void free_report(CpReport* r)
{
   VG_(free)(r->tedges);
   if (r->flows) VG_(free)(r->flows);
   if (r->phase_edges) VG_(free)(r->phase_edges);
   if (r->slices) VG_(free)(r->slices);
   for (UInt i = 0; i < r->n_spans; i++) VG_(free)(r->spans[i].nodes);
   if (r->spans) VG_(free)(r->spans);
   VG_(free)(r->thread_read);
   VG_(free)(r->thread_in);
   VG_(free)(r->thread_out);
   VG_(free)(r->cells);
   VG_(free)(r->edges);
   VG_(free)(r->in_bytes);
   VG_(free)(r->in_unma);
   VG_(free)(r->out_bytes);
   VG_(free)(r->out_unma);
   VG_(free)(r->self_bytes);
   VG_(free)(r->self_unma);
   VG_(free)(r->active);
}

void cp_output_write_all(const HChar* reason)
{
   write_seq++;
   CpReport r;
   build_report(&r, reason);
   HChar* out_name = NULL;
   HChar* xml_name = NULL;
   Bool out_ok = False, xml_ok = False;
   if (!is_none(cp_clo.out_file)) {
      out_name = expand("--commprof-out-file", cp_clo.out_file, startup_out_name);
      out_ok = cp_write_callgrind(out_name, &r);
   }
   if (!is_none(cp_clo.xml_file)) {
      xml_name = expand("--commprof-xml-file", cp_clo.xml_file, startup_xml_name);
      xml_ok = cp_write_xml(xml_name, &r);
   }
   HChar* dot_name = NULL;
   Bool dot_ok = False;
   if (!is_none(cp_clo.dot_file)) {
      dot_name = expand("--commprof-dot-file", cp_clo.dot_file, startup_dot_name);
      dot_ok = cp_write_dot(dot_name, &r);
   }
   cp_print_summary(&r, out_ok ? out_name : NULL, xml_ok ? xml_name : NULL,
                    dot_ok ? dot_name : NULL);
   if (dot_name) VG_(free)(dot_name);
   if (out_name) VG_(free)(out_name);
   if (xml_name) VG_(free)(xml_name);
   free_report(&r);
}
