/* commprof: VEX IR instrumentation.
 *
 * Everything static is decided here, once per translation:
 *   - which node each guest instruction belongs to (a constant passed to the
 *     helpers), or that it belongs to no node and is charged at run time to
 *     the innermost node frame;
 *   - where node functions are entered (a call to cp_h_enter), where returns
 *     and calls happen (an inline check of the frame stack, calling the
 *     unwinder only when a frame has died);
 *   - which memory accesses are control flow and not data (the return address
 *     stored by call and loaded by ret, jump targets loaded by jmp/call *mem);
 *   - instruction counts, added inline per straight-line run of one node.
 */

#include "cp_global.h"
#include "cp_instrument.h"
#include "cp_access.h"
#include "cp_callstack.h"
#include "cp_nodes.h"
#include "cp_options.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_seqmatch.h"
#include "pub_tool_transtab.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_vki.h"
#if defined(VGA_amd64)
#include "libvex_guest_amd64.h"
#endif
#include "cp_elfsyms.h"
#include "cp_objects.h"
#include "cp_events.h"
#include "cp_timeline.h"
#include "cp_deadloads.h"
#include "cp_heap.h"

/* ------------------------------------------------------------------ */
/* Which objects are node objects                                     */
/* ------------------------------------------------------------------ */

/* What the generated code must support beyond the default; a feature that
   a client request switches on at run time sets its bit and has every
   translation made again (cp_instrument_need). */
static UInt need;

static Bool   have_exe_id;
static ULong  exe_dev, exe_ino;

typedef struct {
   const DebugInfo* di;
   Addr text_lo, text_hi;        /* its code: the entry goes when that is unmapped */
   Bool is_node;
   CpElfSyms* elf;               /* its sections and symbols, read on first need */
   Bool lib_known;               /* lib is decided */
   const CpLibData* lib;         /* a run-time library: its own data; else NULL */
   Bool preload;                 /* commprof's preload library */
   Bool libstdcxx;               /* libstdc++ */
} ObjEnt;

/* in_sync_function's answer for the last functions asked about, by first
   instruction */
static struct { Addr entry; Bool sync; } sync_cache[256];
static ObjEnt* objs;
static UInt    n_objs, objs_cap;

/* The main executable as the launcher found it: a name without a slash was
   looked up in $PATH. */
static Bool stat_exe(const HChar* exe, struct vg_stat* st)
{
   if (VG_(strchr)(exe, '/')) return !sr_isError(VG_(stat)(exe, st));
   const HChar* path = VG_(getenv)("PATH");
   if (!path) return False;
   SizeT elen = VG_(strlen)(exe);
   while (*path) {
      const HChar* end = path;
      while (*end && *end != ':') end++;
      SizeT dlen = (SizeT)(end - path);
      HChar cand[dlen + elen + 3];
      if (dlen == 0) VG_(snprintf)(cand, sizeof(cand), "./%s", exe);
      else {
         VG_(memcpy)(cand, path, dlen);
         cand[dlen] = '/';
         VG_(memcpy)(cand + dlen + 1, exe, elen + 1);
      }
      if (!sr_isError(VG_(stat)(cand, st)) && !VKI_S_ISDIR(st->mode)) return True;
      path = *end ? end + 1 : end;
   }
   return False;
}

static Bool object_is_node(const DebugInfo* di);

static Bool is_main_exe(const HChar* path);

/* Does the file at path start as an ELF file does (not a script)? */
static Bool is_elf(const HChar* path)
{
   SysRes r = VG_(open)(path, VKI_O_RDONLY, 0);
   if (sr_isError(r)) return False;
   Int fd = (Int)sr_Res(r);
   UChar m[4] = { 0 };
   Int n = VG_(read)(fd, m, 4);
   VG_(close)(fd);
   return n == 4 && m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
}

/* The main executable when Valgrind read nothing of it (a layout its
   reader does not take, such as a load segment of .bss alone, which an
   array aligned to more than a page makes): its functions are read from its
   own symbol table, without source files and lines. */
static CpElfSyms bare_exe;
static Bool      bare;
static HChar*    bare_path;

/* Where the kernel or Valgrind's loader put the executable: the lowest
   mapping of its file at offset 0. */
static Bool exe_load_address(Addr* start)
{
   Int cap = 64, n;
   Addr* starts = VG_(malloc)("cp.instr.segs", cap * sizeof(Addr));
   while ((n = VG_(am_get_segment_starts)(SkFileC, starts, cap)) < 0) {
      cap = -n + 16;
      starts = VG_(realloc)("cp.instr.segs", starts, cap * sizeof(Addr));
   }
   Bool found = False;
   *start = 0;
   for (Int i = 0; i < n; i++) {
      NSegment const* seg = VG_(am_find_nsegment)(starts[i]);
      if (seg && seg->dev == exe_dev && seg->ino == exe_ino && seg->offset == 0
          && (!found || seg->start < *start)) {
         *start = seg->start;
         found = True;
      }
   }
   VG_(free)(starts);
   return found;
}

static void read_bare_exe(const HChar* path)
{
   ULong tp_off, tls_size;
   Addr entry, load_lo, start;
   if (!cp_elf_read_layout(path, 0, &tp_off, &tls_size, &entry, &load_lo) || load_lo == (Addr)-1
       || !exe_load_address(&start))
      return;
   Addr bias = start - (load_lo & ~(Addr)(VKI_PAGE_SIZE - 1));
   if (!cp_elf_read_data_symbols(path, bias, &bare_exe) || bare_exe.n_funcs == 0) return;
   bare = True;
   bare_path = VG_(strdup)("cp.instr.bare", path);
   cp_events_main_exe(path, bias);
   cp_objects_main_exe(path, bias);
}

void cp_instrument_find_main_exe(void)
{
   Bool exe_seen = False;
   for (const DebugInfo* di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di)) {
      (void)object_is_node(di);
      const HChar* path = VG_(DebugInfo_get_filename)(di);
      /* (an object Valgrind could not read has no text) */
      if (path && is_main_exe(path) && VG_(DebugInfo_get_text_size)(di) > 0) exe_seen = True;
   }
   if (!have_exe_id || exe_seen || !is_elf(VG_(args_the_exename))) return;
   /* named as Valgrind names the objects it reads: an absolute path */
   const HChar* exe = VG_(args_the_exename);
   const HChar* wd = VG_(get_startup_wd)();
   SizeT len = VG_(strlen)(exe) + (wd ? VG_(strlen)(wd) : 0) + 2;
   HChar* path = VG_(malloc)("cp.instr.bare", len);
   if (exe[0] != '/' && wd)
      VG_(snprintf)(path, len, "%s/%s", wd, exe[0] == '.' && exe[1] == '/' ? exe + 2 : exe);
   else
      VG_(snprintf)(path, len, "%s", exe);
   read_bare_exe(path);
   VG_(free)(path);
   if (bare)
      VG_(umsg)("commprof: warning: Valgrind read no debug information of %s (a layout its reader does "
                "not take, such as a load segment of .bss alone): its functions are nodes by its symbol "
                "table, without source files and lines (and C++ names stay mangled)\n",
                VG_(args_the_exename));
   else
      VG_(umsg)("commprof: warning: Valgrind read no symbols of %s (a layout its reader does not take, "
                "such as a load segment of .bss alone), nor could commprof: its functions are no nodes, "
                "their work is charged to (no function)\n", VG_(args_the_exename));
}

void cp_instrument_init(void)
{
   struct vg_stat st;
   const HChar* exe = VG_(args_the_exename);
   have_exe_id = False;
   if (exe && stat_exe(exe, &st)) {
      have_exe_id = True;
      exe_dev = st.dev;
      exe_ino = st.ino;
   }
   cp_ignore_stack = cp_clo.ignore_stack;
   cp_load_extras = cp_clo.time_slice != 0 || cp_clo.first_read || cp_clo.per_call;
   cp_hot_flags_update();
   if (!cp_clo.collect_atstart || cp_clo.n_collect_in) need |= CP_NEED_COLLECT;
   if (cp_clo.separate_callers) need |= CP_NEED_REDIRECT;
   if (cp_clo.time_slice) need |= CP_NEED_SLICES;
   /* One guest basic block per superblock: VEX's chasing across conditional
      branches would count the instructions of the arm not taken. */
   VG_(clo_vex_control).guest_chase = False;
}

/* which --node-objs patterns matched an object (NULL: none yet) */
static Bool* node_objs_matched;

/* Does a --node-objs pattern match an object's path, its file's base name
   or its SONAME (soname: NULL if none)?  Valgrind knows an object by the
   file it maps, the target of a link: libz.so.1.2.13 for a program that
   loads libz.so.1, the SONAME. */
static Bool path_matches_patterns(const HChar* path, const HChar* soname)
{
   const HChar* base = VG_(basename)(path);
   Bool any = False;
   for (UInt i = 0; i < cp_clo.n_node_objs; i++)
      if (VG_(string_match)(cp_clo.node_objs[i], path)
          || VG_(string_match)(cp_clo.node_objs[i], base)
          || (soname && VG_(string_match)(cp_clo.node_objs[i], soname))) {
         if (!node_objs_matched)
            node_objs_matched = VG_(calloc)("cp.instr.objpat", cp_clo.n_node_objs, sizeof(Bool));
         node_objs_matched[i] = True;
         any = True;
      }
   return any;
}

/* The SONAME of object di (NULL if it has none). */
static const HChar* soname_of(const DebugInfo* di)
{
   const HChar* s = VG_(DebugInfo_get_soname)(di);
   return s && s[0] && VG_(strcmp)(s, "NONE") != 0 ? s : NULL;
}

/* The C library's file: the loaded object named libc.so.*, or its usual
   name before it is loaded. */
static const HChar* libc_path(void)
{
   for (const DebugInfo* di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di)) {
      const HChar* path = VG_(DebugInfo_get_filename)(di);
      if (path && VG_(strncmp)(VG_(basename)(path), "libc.so.", 8) == 0) return path;
   }
   return "libc.so.6";
}

/* commprof's preload library runs, in place of libc's, the string and
   memory functions of cp_strmem.c: a pattern that takes libc takes them. */
static Bool object_matches_patterns(const HChar* path, const HChar* soname)
{
   if (path_matches_patterns(path, soname)) return True;
   return VG_(strncmp)(VG_(basename)(path), "vgpreload_commprof-", 19) == 0
          && path_matches_patterns(libc_path(), "libc.so.6");
}

void cp_instrument_report_unmatched_objs(void)
{
   if (cp_clo.n_node_objs == 0 || cp_clo.nodes == CP_NODES_ALL) return;
   /* the objects loaded now whose code never ran count too */
   for (const DebugInfo* di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di)) {
      const HChar* path = VG_(DebugInfo_get_filename)(di);
      if (path) (void)object_matches_patterns(path, soname_of(di));
   }
   for (UInt i = 0; i < cp_clo.n_node_objs; i++)
      if (!node_objs_matched || !node_objs_matched[i])
         VG_(umsg)("commprof: --node-objs pattern '%s' matched no object of the run (a pattern matches "
                   "an object's path, file name or SONAME)\n", cp_clo.node_objs[i]);
}

static Bool is_main_exe(const HChar* path)
{
   struct vg_stat st;
   if (!have_exe_id) return False;
   SysRes r = VG_(stat)(path, &st);
   return !sr_isError(r) && st.dev == exe_dev && st.ino == exe_ino;
}

/* The entry of object di, made on first sight (whether it is a node
   object is decided then).  Entries move when one is added: do not keep
   the pointer across a call that may add one. */
static ObjEnt* obj_ent(const DebugInfo* di)
{
   for (UInt i = 0; i < n_objs; i++)
      if (objs[i].di == di) return &objs[i];
   const HChar* path = VG_(DebugInfo_get_filename)(di);
   Bool main_exe = path && is_main_exe(path);
   /* (an executable Valgrind could not read has no text, nor a bias: see
      read_bare_exe) */
   if (main_exe && VG_(DebugInfo_get_text_size)(di) > 0) {
      cp_events_main_exe(path, (Addr)VG_(DebugInfo_get_text_bias)(di));
      cp_objects_main_exe(path, (Addr)VG_(DebugInfo_get_text_bias)(di));
   }
   if (n_objs == objs_cap) {
      objs_cap = objs_cap ? objs_cap * 2 : 16;
      objs = VG_(realloc)("cp.instr.objs", objs, objs_cap * sizeof(ObjEnt));
   }
   ObjEnt* o = &objs[n_objs++];
   VG_(memset)(o, 0, sizeof(*o));
   o->di = di;
   o->text_lo = VG_(DebugInfo_get_text_avma)(di);
   o->text_hi = o->text_lo + VG_(DebugInfo_get_text_size)(di);
   o->is_node = cp_clo.nodes == CP_NODES_ALL || main_exe || (path && object_matches_patterns(path, soname_of(di)));
   return o;
}

void cp_instrument_code_gone(Addr a, SizeT len)
{
   Bool gone = False;
   for (UInt i = 0; i < n_objs; ) {
      if (objs[i].text_lo < a + len && a < objs[i].text_hi && objs[i].text_hi > objs[i].text_lo) {
         /* its DebugInfo goes too; another object may come to these
            addresses (dlclose, then dlopen): it gets an entry, nodes and
            answers of its own.  (Its sections and symbols, and its library
            data, are left: small, and nothing refers to them any more.) */
         cp_nodes_forget_code(objs[i].text_lo, objs[i].text_hi);
         objs[i] = objs[--n_objs];
         gone = True;
      } else {
         i++;
      }
   }
   if (gone) {
      VG_(memset)(sync_cache, 0, sizeof sync_cache);
      cp_heap_code_gone();
   }
}

static Bool object_is_node(const DebugInfo* di)
{
   return obj_ent(di)->is_node;
}

/* The sections and symbols of o's file, read on first need. */
static const CpElfSyms* obj_elf(ObjEnt* o)
{
   if (!o->elf) {
      o->elf = VG_(calloc)("cp.instr.elf", 1, sizeof(CpElfSyms));
      cp_elf_read_data_symbols(VG_(DebugInfo_get_filename)(o->di),
                               (Addr)VG_(DebugInfo_get_text_bias)(o->di), o->elf);
   }
   return o->elf;
}

/* The name of the function at entry from the object's own symbol table,
   read on first need.  Valgrind names _start, __libc_start_main and their
   kin "(below main)"; the node gets its real name. */
static const HChar* symtab_name(const DebugInfo* di, Addr entry)
{
   return cp_elf_func_name_at(obj_elf(obj_ent(di)), entry);
}

/* --fn-include / --fn-exclude: is the function named name a node? */
static Bool function_selected(const HChar* name)
{
   Bool sel = cp_clo.n_fn_include == 0;
   /* past the first match, only the patterns that have matched nothing yet
      (for the report of those that never match) */
   for (UInt i = 0; i < cp_clo.n_fn_include; i++)
      if ((!sel || !cp_pattern_has_matched(CP_PAT_FN_INCLUDE, i))
          && VG_(string_match)(cp_clo.fn_include[i], name)) {
         sel = True;
         cp_pattern_matched(CP_PAT_FN_INCLUDE, i);
      }
   for (UInt i = 0; i < cp_clo.n_fn_exclude && sel; i++)
      if (VG_(string_match)(cp_clo.fn_exclude[i], name)) sel = False;
   return sel;
}

/* Is the function whose symbol is mangled (or, without a symbol table,
   whose demangled name is name) one of the C++ standard library's: in
   namespace std (std::, or one of the Itanium ABI's abbreviations St, Sa,
   Sb, Ss, Si, So, Sd) or __gnu_cxx, a member of a class there, or one of
   their templates made in the program, or a lambda or class defined in one
   of these, or a __gthread_ function of its thread headers?  The _M_run of
   std::thread's and std::async's states is not (std::thread::_State_impl,
   std::__future_base::_Async_state_impl; a packaged_task's _Task_state
   is): it runs the thread's callable, which the
   compiler often inlines there (a lambda), at the bottom of the thread's
   stack, and would otherwise be (no function)'s. */
static Bool is_std_function(const HChar* mangled, const HChar* name)
{
   SizeT ml = mangled ? VG_(strlen)(mangled) : 0;
   if (ml >= 9 && VG_(strcmp)(mangled + ml - 9, "6_M_runEv") == 0
       && (VG_(strncmp)(mangled, "_ZNSt6thread11_State_impl", 25) == 0
           || VG_(strncmp)(mangled, "_ZNSt13__future_base17_Async_state_impl", 39) == 0))
      return False;
   if (mangled == NULL || mangled[0] != '_' || mangled[1] != 'Z')
      return mangled == NULL && (VG_(strncmp)(name, "std::", 5) == 0
                                 || VG_(strncmp)(name, "__gnu_cxx::", 11) == 0);
   const HChar* m = mangled + 2;
   /* a local entity (Z <function encoding> E <entity>: a lambda or a class
      defined in a function, its members) is its function's */
   while (*m == 'Z') m++;
   /* the static functions of libstdc++'s thread headers (gthr-posix.h):
      __gthread_active_p, __gthread_mutex_lock, ... */
   {
      const HChar* q = m;
      if (*q == 'L') q++;
      UInt len = 0;
      while (*q >= '0' && *q <= '9') len = len * 10 + (UInt)(*q++ - '0');
      if (len >= 10 && VG_(strncmp)(q, "__gthread_", 10) == 0) return True;
   }
   if (*m == 'N') {                       /* a nested name: qualifiers first */
      m++;
      while (*m == 'r' || *m == 'V' || *m == 'K') m++;
      if (*m == 'R' || *m == 'O') m++;
   }
   if (m[0] == 'S' && m[1] != 0 && VG_(strchr)("tabsiod", m[1]) != NULL) return True;
   return VG_(strncmp)(m, "9__gnu_cxx", 10) == 0;
}

/* fnw is "name+offset" (or "name-offset", or "name" at offset 0), as
   VG_(get_fnname_w_offset) gives it: the length of the name, and the
   offset into *off. */
static SizeT split_fnname(const HChar* fnw, Addr* off)
{
   SizeT len = VG_(strlen)(fnw);
   SizeT k = len;
   while (k > 0 && fnw[k - 1] >= '0' && fnw[k - 1] <= '9') k--;
   *off = 0;
   if (k < len && k > 0 && (fnw[k - 1] == '+' || fnw[k - 1] == '-')) {
      for (SizeT j = k; j < len; j++) *off = *off * 10 + (Addr)(fnw[j] - '0');
      if (fnw[k - 1] == '-') *off = (Addr)0 - *off;
      return k - 1;
   }
   return len;
}

/* Is name (a file's base name or a soname) the dynamic linker's
   (ld-linux-x86-64.so.2, ld-linux.so.2, ...)? */
static Bool is_dynamic_linker_name(const HChar* name)
{
   return VG_(strncmp)(name, "ld-linux", 8) == 0 || VG_(strncmp)(name, "ld64.so", 7) == 0;
}

/* Is di the dynamic linker? */
static Bool is_dynamic_linker(const DebugInfo* di)
{
   const HChar* so = VG_(DebugInfo_get_soname)(di);
   const HChar* path = VG_(DebugInfo_get_filename)(di);
   return (so && is_dynamic_linker_name(so)) || (path && is_dynamic_linker_name(VG_(basename)(path)));
}

/* The objects the main executable holds for the libraries: those its
   symbol table names with a version (`_ZSt4cout@GLIBCXX_3.4`,
   `stdout@GLIBC_2.2.5`), which the dynamic linker fills from the library
   (copy relocations) and the library's code then uses in place of its
   own.  The static linker puts them together (.dynbss): from the first to
   the end of the last, into *lo and *span (0 and 0 if none). */
static void exe_copies(Addr* lo, UWord* span)
{
   static Bool known;            /* the executable was found: klo, kspan hold */
   static Addr klo;
   static UWord kspan;
   for (UInt i = 0; i < n_objs && !known; i++) {
      const HChar* path = VG_(DebugInfo_get_filename)(objs[i].di);
      if (!path || !is_main_exe(path)) continue;
      const CpElfSyms* e = obj_elf(&objs[i]);
      Addr l = ~(Addr)0, h = 0;
      for (UInt k = 0; k < e->n_syms; k++) {
         const CpElfSym* y = &e->syms[k];
         if (y->size == 0 || !y->versioned) continue;
         if (y->addr < l) l = y->addr;
         if (y->addr + y->size > h) h = y->addr + y->size;
      }
      klo = h > l ? l : 0;
      kspan = h > l ? h - l : 0;
      known = True;
   }
   *lo = klo;
   *span = kspan;
}

/* Does the file name of path start with one of names (NULL-terminated)? */
static Bool basename_starts_with(const HChar* path, const HChar* const* names)
{
   const HChar* base = VG_(basename)(path);
   for (UInt i = 0; names[i]; i++)
      if (VG_(strncmp)(base, names[i], VG_(strlen)(names[i])) == 0) return True;
   return False;
}

/* Is the object at path one of the C and C++ run-time libraries, whose
   state programs use without naming it (stdio, rand, the locale, errno,
   iostreams), or commprof's preload library, which stands in for parts of
   libc? */
static Bool is_runtime_library(const HChar* path)
{
   static const HChar* const names[] = {
      "libc.so", "libm.so", "libmvec.so", "libstdc++.so", "libgcc_s.so", "libpthread.so",
      "libdl.so", "librt.so", "libresolv.so", "libutil.so", "libanl.so", "libnss_",
      "libgomp.so", "libomp.so", "libiomp5.so", "libatomic.so",
      "vgpreload_commprof-",     /* its malloc keeps the tool's entry points there */
      NULL
   };
   return basename_starts_with(path, names);
}

/* The image of the run-time library whose code holds ia, for the "_l"
   helpers (cp_access.h), or NULL: code of a node object, of another
   library (the dynamic linker, whose data is (no function)'s and (dynamic
   linker)'s, Valgrind's core preload library, the program's own
   libraries), or of an object Valgrind knows no sections of.  The image
   runs from the library's load address to the end of its last section
   (.bss): its state and its tables, writable or not. */
static const CpLibData* runtime_library_data(ObjEnt* o);

/* Is ia, in commprof's preload library o, in one of its string and memory
   functions (cp_strmem.c, tags 2xxxx: symbols _vgr2...)?  They touch only
   the program's memory (lib_nowhere below); only malloc's code there keeps
   data of its own. */
static Bool is_strmem_code(ObjEnt* o, Addr ia)
{
   const HChar* fnw;
   if (!VG_(get_fnname_w_offset)(VG_(current_DiEpoch)(), ia, &fnw)) return False;
   Addr off;
   (void)split_fnname(fnw, &off);
   const HChar* raw = cp_elf_func_name_at(obj_elf(o), ia - off);
   return raw && VG_(strncmp)(raw, "_vgr2", 5) == 0;
}

/* The descriptor of commprof's string and memory functions: no data of
   their own, but their reads of the program's memory count once per
   library call, as those of the library code that calls them. */
static const CpLibData lib_nowhere = { 0, 0, 0, 0 };

/* The descriptor of an access that is (library data)'s wherever it lands:
   every access of the run-time library's synchronisation and thread
   functions and of the exception runtime (in_sync_function), of the
   libraries whose every access is (whole_library_is_bookkeeping), of
   libstdc++'s code without symbols (library_of), and an access of a
   run-time library's code whose address is computed from the thread
   pointer (emit_access). */
static const CpLibData lib_everywhere = { 0, ~(UWord)0, 0, 0 };

/* Is every access of the run-time library at path (library data)'s, as
   those of in_sync_function are: libgcc_s (the unwinder) and the OpenMP
   run-times (libgomp, LLVM's libomp and libiomp5: their thread teams,
   barriers, work shares and task queues; the program's parallel regions
   are its own functions, which they call)? */
static Bool whole_library_is_bookkeeping(const HChar* path)
{
   static const HChar* const names[] = {
      "libgcc_s.so", "libgomp.so", "libomp.so", "libiomp5.so", NULL
   };
   return basename_starts_with(path, names);
}

static const CpLibData* library_of(Addr ia)
{
   const DebugInfo* di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), ia);
   if (!di) return NULL;
   ObjEnt* o = obj_ent(di);
   if (o->is_node) return NULL;
   if (!o->lib_known) o->lib = runtime_library_data(o);
   if (o->lib && o->preload && is_strmem_code(o, ia)) return &lib_nowhere;
   /* libstdc++'s code without a symbol (Debian strips its static
      functions: the exception personality's helpers, internals that keep
      the library's own state) */
   const HChar* fn;
   if (o->lib && o->libstdcxx && !VG_(get_fnname)(VG_(current_DiEpoch)(), ia, &fn))
      return &lib_everywhere;
   return o->lib;
}

/* The own data of the run-time library o (see library_of), or NULL. */
static const CpLibData* runtime_library_data(ObjEnt* o)
{
   o->lib_known = True;
   const HChar* path = VG_(DebugInfo_get_filename)(o->di);
   if (!path || !is_runtime_library(path)) return NULL;
   o->preload = VG_(strncmp)(VG_(basename)(path), "vgpreload_", 10) == 0;
   o->libstdcxx = VG_(strncmp)(VG_(basename)(path), "libstdc++.so", 12) == 0;
   if (whole_library_is_bookkeeping(path)) return &lib_everywhere;
   /* from the load address (a shared object is linked at 0) to the end of
      the last section Valgrind knows: code, .got, .got.plt, .bss */
   const DebugInfo* di = o->di;
   Addr lo = (Addr)VG_(DebugInfo_get_text_bias)(di), hi = 0;
   Addr ends[4] = {
      VG_(DebugInfo_get_text_avma)(di) + VG_(DebugInfo_get_text_size)(di),
      VG_(DebugInfo_get_got_avma)(di) + VG_(DebugInfo_get_got_size)(di),
      VG_(DebugInfo_get_gotplt_avma)(di) + VG_(DebugInfo_get_gotplt_size)(di),
      VG_(DebugInfo_get_bss_avma)(di) + VG_(DebugInfo_get_bss_size)(di),
   };
   for (UInt i = 0; i < 4; i++)
      if (ends[i] > hi) hi = ends[i];
   if (hi <= lo) return NULL;
   CpLibData* d = VG_(malloc)("cp.instr.lib", sizeof(CpLibData));
   d->lo = lo;
   d->span = hi - lo;
   exe_copies(&d->lo2, &d->span2);
   return d;
}

/* Is ia in one of the run-time library's synchronisation functions (mutexes,
   condition variables, barriers, read-write locks, spin locks, semaphores,
   once controls, and the internal lock and futex helpers behind them) or
   of its thread creation and joining?  Everything they read and write, the
   program's pthread_mutex_t included, is the library's bookkeeping:
   (library data)'s, so that two threads that take turns on a lock
   communicate only through the data it protects, and a thread gets from
   its creator only what the program passes it.
   The same holds for the C++ exception runtime: the unwinder (all of
   libgcc_s, whose internals have no symbols, and the functions of libc and
   of the dynamic linker it asks for the loaded objects and their unwind
   tables) and libstdc++'s throw, catch and personality functions.  The
   tables they read and the exception's header they keep are theirs; the
   thrown object is the program's (its constructor, what() and the catch
   handler's own code are charged as usual). */
static Bool in_sync_function(Addr ia)
{
   static const HChar* const pats[] = {
      "pthread_mutex_*", "__pthread_mutex_*", "pthread_mutexattr_*",
      "pthread_cond_*", "__pthread_cond_*", "__condvar_*", "pthread_condattr_*",
      "pthread_barrier_*", "__pthread_barrier_*", "pthread_barrierattr_*",
      "pthread_rwlock_*", "__pthread_rwlock_*", "pthread_rwlockattr_*",
      "pthread_spin_*", "__pthread_spin_*", "sem_*", "__new_sem_*", "__old_sem_*", "__sem_*",
      "pthread_once", "__pthread_once*", "call_once", "mtx_*", "cnd_*",
      "__lll_*", "__futex_*",
      /* a thread's start and end: the descriptor pthread_create fills and
         start_thread reads, the result pthread_join takes back */
      "start_thread", "pthread_create*", "__pthread_create*", "allocate_stack", "create_thread",
      "pthread_join", "__pthread_join*", "__pthread_clockjoin*", "__pthread_timedjoin*",
      "pthread_detach", "__pthread_detach*", "pthread_exit", "__pthread_exit*", "__nptl_*",
      "__free_tcb", "clone", "clone3", "__clone*",
      "thrd_create", "thrd_join", "thrd_exit", "thrd_detach", "__thrd_*",
      /* thread-specific values (kept in the descriptor, or in blocks the
         library allocates for the keys past the 32nd) and cancellation */
      "pthread_key_create", "__pthread_key_create*", "pthread_key_delete", "__pthread_key_delete*",
      "pthread_setspecific", "__pthread_setspecific*", "pthread_getspecific", "__pthread_getspecific*",
      "tss_create", "tss_delete", "tss_set", "tss_get",
      "pthread_cancel", "__pthread_cancel*", "pthread_testcancel", "__pthread_testcancel*",
      "pthread_setcancelstate", "__pthread_setcancelstate*", "pthread_setcanceltype",
      "__pthread_setcanceltype*", "__pthread_unwind*", "__do_cancel", "__pthread_enable_asynccancel",
      "__pthread_disable_asynccancel",
      /* what a new thread runs before and after the thread function */
      "__ctype_init", "getpagesize", "__getpagesize", "__call_tls_dtors", "__libc_thread_freeres",
      /* the destructors of thread_local objects a thread registers (its list,
         and the count the dynamic linker keeps for the object) */
      "__cxa_thread_atexit", "__cxa_thread_atexit_impl", "__cxxabiv1::__cxa_thread_atexit*",
      "*_freeres", "__rpc_thread_destroy", "__libc_dlerror_result_free", "__glibc_tls_internal_free",
      /* the exception runtime */
      "_Unwind_*", "__cxa_throw", "__cxa_rethrow", "__cxa_begin_catch", "__cxa_end_catch",
      "__cxa_allocate_exception", "__cxa_free_exception", "__cxa_allocate_dependent_exception",
      "__cxa_free_dependent_exception", "__cxa_init_primary_exception", "__cxa_get_globals*",
      "__cxa_current_exception_type", "__cxa_get_exception_ptr", "__cxa_call_unexpected",
      "__cxa_call_terminate", "__cxa_type_match", "__gxx_personality_*", "__gcc_personality_*",
      "__cxxabiv1::*", "std::type_info::__do_catch*", "std::type_info::__do_upcast*",
      "std::rethrow_exception*", "std::__exception_ptr::*", "std::uncaught_exception*",
      "dl_iterate_phdr", "__dl_iterate_phdr", "_dl_find_object", "__tls_get_addr",
      NULL
   };
   const HChar* fnw;
   if (!VG_(get_fnname_w_offset)(VG_(current_DiEpoch)(), ia, &fnw)) return False;
   Addr off;
   SizeT n = split_fnname(fnw, &off);
   Addr entry = ia - off;
   UInt slot = (UInt)(entry ^ (entry >> 8)) & 255;
   if (sync_cache[slot].entry == entry && entry != 0) return sync_cache[slot].sync;
   /* without the symbol version Valgrind may give (pthread_once@@GLIBC_2.34) */
   for (SizeT k = 0; k < n; k++)
      if (fnw[k] == '@') { n = k; break; }
   HChar fn[n + 1];
   VG_(memcpy)(fn, fnw, n);
   fn[n] = 0;
   Bool sync = False;
   for (UInt i = 0; pats[i] && !sync; i++)
      if (VG_(string_match)(pats[i], fn)) sync = True;
   sync_cache[slot].entry = entry;
   sync_cache[slot].sync = sync;
   return sync;
}

/* Is ia code of the dynamic linker? */
static Bool in_dynamic_linker(Addr ia)
{
   const DebugInfo* di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), ia);
   return di && is_dynamic_linker(di);
}

/* Are the dynamic linker's functions nodes (--nodes=all, --node-objs)? */
static Bool dynamic_linker_is_node(void)
{
   for (const DebugInfo* d = VG_(next_DebugInfo)(NULL); d; d = VG_(next_DebugInfo)(d))
      if (is_dynamic_linker(d)) return object_is_node(d);
   return False;
}

/* Is ia the first instruction of a lazy binding: the `push $index` of a
   PLT entry (in an object's .plt), which the entry's first call reaches
   (through the .got.plt word the dynamic linker points there), and which
   goes on to the PLT's first entry and the dynamic linker's resolver?
   Calls after the binding jump straight to the function and never run it. */
static Bool is_lazy_binding_entry(Addr ia)
{
   if (VG_(DebugInfo_sect_kind)(NULL, ia) != Vg_SectPLT && !(bare && cp_elf_in_plt(&bare_exe, ia)))
      return False;
   if (!VG_(am_is_valid_for_client)(ia, 1, VKI_PROT_READ)) return False;
   return *(const UChar*)ia == 0x68;                  /* push imm32 */
}

const HChar* cp_instrument_bare_fn(Addr a)
{
   const CpElfSym* f = bare ? cp_elf_find_func(&bare_exe, a) : NULL;
   return f ? f->name : NULL;
}

/* Set by resolve for a first instruction: does entering there count a call?
   Not at an OpenMP region's (f._omp_fn.0), which each thread of a team
   enters in a single call of f. */
static Bool entry_is_call;

/* Is the function Valgrind names name (mangled: its symbol, if known) a
   node, by --fn-include/--fn-exclude and --std-nodes?  If so, *is_entry:
   is at_start (the instruction is at its symbol's address) an entry (not
   in a .cold part, which is the function's own code, entered by its
   jumps), and entry_is_call. */
static Bool function_kept(const HChar* name, const HChar* mangled, Bool at_start, Bool* is_entry)
{
   /* the source function's name selects it */
   SizeT sl = cp_fn_source_len(name);
   HChar src[sl + 1];
   VG_(memcpy)(src, name, sl);
   src[sl] = 0;
   if (!function_selected(src)) return False;
   if (!cp_clo.std_nodes && is_std_function(mangled, src)) return False;
   *is_entry = at_start && !cp_fn_is_cold_part(name);
   entry_is_call = !cp_fn_is_outlined_region(name);
   return True;
}

/* resolve() for the code of a bare executable. */
static CpNode* resolve_bare(Addr ia, Bool* is_entry)
{
   const CpElfSym* f = cp_elf_find_func(&bare_exe, ia);
   if (!f) return NULL;
   /* the patterns match _start as Valgrind names it (see resolve) */
   Bool below = !VG_(clo_show_below_main) && VG_(strcmp)(f->name, "_start") == 0;
   if (!function_kept(below ? "(below main)" : f->name, f->name, ia == f->addr, is_entry))
      return NULL;
   return cp_node_function(f->addr, f->name, bare_path, NULL, NULL, 0);
}

/* The node an instruction belongs to, or NULL; *is_entry tells whether it
   is the function's first instruction.  A lazy binding is entered as the
   special node (dynamic linker), unless the dynamic linker's functions are
   nodes themselves: the PLT entry's push, the resolver and all it calls
   (symbol lookup in the link maps, the .got.plt word it fills, libc's IFUNC
   selectors) are then not charged to the function whose first call of a
   library function needed the binding.  Its frame goes when the resolver
   jumps to the function it bound (an indirect jump with the stack pointer
   above the frame's, see the end of cp_instrument). */


static CpNode* resolve(Addr ia, Bool* is_entry)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   *is_entry = False;
   if (is_lazy_binding_entry(ia) && !dynamic_linker_is_node()) {
      *is_entry = True;
      return cp_node_dynlinker();
   }
   const DebugInfo* di = VG_(find_DebugInfo)(ep, ia);
   if (!di && bare) return resolve_bare(ia, is_entry);
   if (!di || !object_is_node(di)) return NULL;
   const HChar* fnw;
   if (!VG_(get_fnname_w_offset)(ep, ia, &fnw)) return NULL;
   Addr off;
   SizeT name_len = split_fnname(fnw, &off);
   HChar name[name_len + 1];
   VG_(memcpy)(name, fnw, name_len);
   name[name_len] = 0;
   Addr entry = ia - off;
   if (!function_kept(name, symtab_name(di, entry), off == 0, is_entry)) return NULL;
   const HChar* real = VG_(strcmp)(name, "(below main)") == 0 ? symtab_name(di, entry) : NULL;

   const HChar* file = NULL;
   const HChar* dir = NULL;
   UInt line = 0;
   HChar* file_c = NULL;
   HChar* dir_c = NULL;
   if (VG_(get_filename_linenum)(ep, entry, &file, &dir, &line)) {
      file_c = VG_(strdup)("cp.instr.file", file);
      dir_c = VG_(strdup)("cp.instr.dir", dir ? dir : "");
   }
   const HChar* obj = VG_(DebugInfo_get_filename)(di);
   CpNode* n = cp_node_function(entry, real ? real : name, obj, file_c, dir_c, line);
   if (file_c) VG_(free)(file_c);
   if (dir_c) VG_(free)(dir_c);
   return n;
}

/* Is addr a constant address inside a GOT (.got or .got.plt)? */
static Bool is_got_load(const IRExpr* addr)
{
   if (addr->tag != Iex_Const || addr->Iex.Const.con->tag != Ico_U64) return False;
   Addr a = (Addr)addr->Iex.Const.con->Ico.U64;
   VgSectKind k = VG_(DebugInfo_sect_kind)(NULL, a);
   if (k == Vg_SectGOT || k == Vg_SectGOTPLT) return True;
   const CpElfSection* sec = bare ? cp_elf_find_section(&bare_exe, a) : NULL;
   return sec && (VG_(strcmp)(sec->name, ".got") == 0 || VG_(strcmp)(sec->name, ".got.plt") == 0);
}

/* ------------------------------------------------------------------ */
/* IR building helpers                                                */
/* ------------------------------------------------------------------ */

static IRTemp new_tmp(IRSB* sb, IRType ty)
{
   return newIRTemp(sb->tyenv, ty);
}

static IRExpr* assign(IRSB* sb, IRType ty, IRExpr* e)
{
   IRTemp t = new_tmp(sb, ty);
   addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

static IRExpr* get_sp(IRSB* sb, const VexGuestLayout* layout)
{
   return assign(sb, Ity_I64, IRExpr_Get(layout->offset_SP, Ity_I64));
}

static void add_dirty(IRSB* sb, Int regparms, const HChar* name, void* fn,
                      IRExpr** args, IRExpr* guard)
{
   IRDirty* di = unsafeIRDirty_0_N(regparms, name, VG_(fnptr_to_fnentry)(fn), args);
   if (guard) di->guard = guard;
   addStmtToIRSB(sb, IRStmt_Dirty(di));
}

typedef enum { ACC_LOAD, ACC_STORE, ACC_MODIFY } AccKind;

typedef struct { void* fn; const HChar* name; } Helper;

/* [objects][node given][kind] */
static const Helper helpers[2][2][3] = {
   { { { cp_h_load_d,  "cp_h_load_d" },  { cp_h_store_d,  "cp_h_store_d" },  { cp_h_modify_d,  "cp_h_modify_d" } },
     { { cp_h_load_n,  "cp_h_load_n" },  { cp_h_store_n,  "cp_h_store_n" },  { cp_h_modify_n,  "cp_h_modify_n" } } },
   { { { cp_h_load_do, "cp_h_load_do" }, { cp_h_store_do, "cp_h_store_do" }, { cp_h_modify_do, "cp_h_modify_do" } },
     { { cp_h_load_no, "cp_h_load_no" }, { cp_h_store_no, "cp_h_store_no" }, { cp_h_modify_no, "cp_h_modify_no" } } },
};

/* [log2 size][node given][kind], without --objects */
#define SIZED_ROW(SZ) \
   { { { cp_h_load_d##SZ, "cp_h_load_d" #SZ }, { cp_h_store_d##SZ, "cp_h_store_d" #SZ }, \
       { cp_h_modify_d##SZ, "cp_h_modify_d" #SZ } }, \
     { { cp_h_load_n##SZ, "cp_h_load_n" #SZ }, { cp_h_store_n##SZ, "cp_h_store_n" #SZ }, \
       { cp_h_modify_n##SZ, "cp_h_modify_n" #SZ } } }
static const Helper sized_helpers[6][2][3] = {
   SIZED_ROW(1), SIZED_ROW(2), SIZED_ROW(4), SIZED_ROW(8), SIZED_ROW(16), SIZED_ROW(32)
};

/* The helpers of library code ("_l"): [log2 size][kind] without --objects,
   and the generic ones. */
#define LIB_ROW(SZ) \
   { { cp_h_load_l##SZ, "cp_h_load_l" #SZ }, { cp_h_store_l##SZ, "cp_h_store_l" #SZ }, \
     { cp_h_modify_l##SZ, "cp_h_modify_l" #SZ } }
static const Helper sized_lib_helpers[6][3] = {
   LIB_ROW(1), LIB_ROW(2), LIB_ROW(4), LIB_ROW(8), LIB_ROW(16), LIB_ROW(32)
};
static const Helper lib_helpers[3] = {
   { cp_h_load_l, "cp_h_load_l" }, { cp_h_store_l, "cp_h_store_l" }, { cp_h_modify_l, "cp_h_modify_l" }
};

/* An access of kind k, size bytes at addr, by the code of node (NULL: code
   outside the nodes; lib: then the own data of the run-time library whose
   code it is, or NULL), made if guard (NULL: always). */
static void emit_access(IRSB* sb, AccKind k, IRExpr* addr, Int size,
                        CpNode* node, const CpLibData* lib, IRExpr* guard)
{
   if (size <= 0) return;
   if (lib && !node) {
      if (!cp_clo.objects && (size & (size - 1)) == 0 && size <= 32) {
         const Helper* h = &sized_lib_helpers[__builtin_ctz((UInt)size)][k];
         add_dirty(sb, 2, h->name, h->fn, mkIRExprVec_2(addr, mkIRExpr_HWord((HWord)lib)), guard);
      } else {
         add_dirty(sb, 3, lib_helpers[k].name, lib_helpers[k].fn,
                   mkIRExprVec_3(addr, mkIRExpr_HWord((HWord)size), mkIRExpr_HWord((HWord)lib)),
                   guard);
      }
      return;
   }
   if (!cp_clo.objects && (size & (size - 1)) == 0 && size <= 32) {
      const Helper* h = &sized_helpers[__builtin_ctz((UInt)size)][node ? 1 : 0][k];
      if (node)
         add_dirty(sb, 2, h->name, h->fn, mkIRExprVec_2(addr, mkIRExpr_HWord((HWord)node)), guard);
      else
         add_dirty(sb, 1, h->name, h->fn, mkIRExprVec_1(addr), guard);
      return;
   }
   const Helper* h = &helpers[cp_clo.objects ? 1 : 0][node ? 1 : 0][k];
   if (node)
      add_dirty(sb, 3, h->name, h->fn,
                mkIRExprVec_3(addr, mkIRExpr_HWord((HWord)size), mkIRExpr_HWord((HWord)node)),
                guard);
   else
      add_dirty(sb, 2, h->name, h->fn,
                mkIRExprVec_2(addr, mkIRExpr_HWord((HWord)size)), guard);
}

/* *(addr + off) += inc (an I64 atom), inline. */
static void emit_add64(IRSB* sb, IRExpr* addr, Int off, IRExpr* inc)
{
   IRExpr* a = off ? assign(sb, Ity_I64, IRExpr_Binop(Iop_Add64, addr,
                                           IRExpr_Const(IRConst_U64((ULong)off))))
                   : addr;
   IRExpr* old = assign(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, a));
   IRExpr* sum = assign(sb, Ity_I64, IRExpr_Binop(Iop_Add64, old, inc));
   addStmtToIRSB(sb, IRStmt_Store(Iend_LE, a, sum));
}

static IRExpr* load64(IRSB* sb, void* p)
{
   return assign(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)p)));
}

void cp_instrument_need(UInt what)
{
   if ((need & what) == what) return;
   need |= what;
   VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "commprof");
}

/* A straight-line run of instructions counted by one emit_icount, for
   cp_instrument_fault: a fault in the middle of the run abandons the
   generated code before the counts at its end.  Generated code sets
   cp_cur_run when a run starts (one store) and clears it once the run is
   counted (at an exit, at the end of the block: one store), so a run left
   in it is one a fault interrupted: Valgrind delivers the fault from its
   signal handler (cp_instrument_fault, before the thread leaves generated
   code), or, for a signal that kills the process, the thread leaves the
   code at once (cp_instrument_left_code counts it then). */
#define RUN_MEM 0x80u                 /* in len[]: the instruction accesses memory */
typedef struct {
   CpNode* node;                     /* as for emit_icount: NULL = the innermost node frame */
   Addr    start;                    /* first instruction */
   UInt    n;                        /* instructions */
   Bool    broken;                   /* not contiguous: never used */
   UChar   len[];                    /* each instruction's length, | RUN_MEM */
} CpRun;
static const CpRun* cp_cur_run;

/* Runs live as long as the tool (a translation thrown away leaves its runs
   behind), so they are cut from big blocks: the open run gets room for a
   whole superblock, and what it did not use goes to the next one. */
#define RUN_BLOCK 65536
static UChar* run_free;              /* the next run starts here */
static SizeT  run_free_left;

static CpRun* run_open(CpNode* node, Addr start, UInt cap)
{
   SizeT size = sizeof(CpRun) + cap;
   if (run_free_left < size) {
      run_free = VG_(malloc)("cp.instr.runs", RUN_BLOCK);
      run_free_left = RUN_BLOCK;
   }
   CpRun* r = (CpRun*)run_free;
   r->node = node;
   r->start = start;
   r->n = 0;
   r->broken = False;
   return r;
}

/* r, the last run opened, is complete: give back the room it did not use. */
static void run_close(CpRun* r)
{
   SizeT used = (sizeof(CpRun) + r->n + 7) & ~(SizeT)7;
   run_free = (UChar*)r + used;
   run_free_left -= used;
}

/* What emit_icount's code does, for counts taken at run time. */
static void count_instrs(CpNode* node, ULong n, ULong mem)
{
   if (need & CP_NEED_COLLECT) {
      n &= cp_collect_mask;
      mem &= cp_collect_mask;
   }
   CpNode* base = node;
   if (node && (need & CP_NEED_REDIRECT) && cp_redirect_node != NULL
       && (cp_redirect_fn == NULL || cp_redirect_fn == node))
      base = cp_redirect_node;
   if (!node) base = cp_cur_node;
   base->instrs += n;
   base->mem_instrs += mem;
   if (n == 0) return;
   cp_clock += n;
   if ((need & CP_NEED_SLICES) && cp_slice_end <= cp_clock) cp_timeline_close_slices();
}

void cp_instrument_left_code(ThreadId tid)
{
   if (cp_cur_run != NULL) cp_instrument_fault(tid);   /* a fatal fault: no handler */
   cp_cur_run = NULL;
}

void cp_instrument_fault(ThreadId tid)
{
   const CpRun* r = cp_cur_run;
   if (r == NULL || r->broken) return;      /* between runs: nothing pending */
   cp_cur_run = NULL;
   Addr ip = VG_(get_IP)(tid);
   Addr a = r->start;
   ULong n = 0, mem = 0;
   for (UInt k = 0; k < r->n && a != ip; k++) {
      n++;
      if (r->len[k] & RUN_MEM) mem++;
      a += r->len[k] & ~RUN_MEM;
   }
   if (a != ip) return;                      /* not an instruction of the run */
   count_instrs(r->node, n, mem);
}

static Addr run_len_bytes(const CpRun* r)
{
   Addr b = 0;
   for (UInt k = 0; k < r->n; k++) b += r->len[k] & ~RUN_MEM;
   return b;
}

static void set_cur_run(IRSB* sb, const CpRun* r)
{
   addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&cp_cur_run),
                                  mkIRExpr_HWord((HWord)r)));
}

/* Count n instructions, of which mem access memory, for node (or for the
   innermost node frame when node is NULL), and n on the global clock.  With
   CP_NEED_COLLECT the counts are masked with cp_collect_mask; with
   CP_NEED_REDIRECT the code of a node function goes to cp_redirect_node when
   that applies to it (code regions, caller contexts); with CP_NEED_SLICES a
   slice that has ended is closed. */
static IRExpr* count_base(IRSB* sb, CpNode* node);

static void emit_icount(IRSB* sb, CpNode* node, ULong n, ULong mem)
{
   if (n == 0 && mem == 0) return;
   IRExpr* nn = IRExpr_Const(IRConst_U64(n));
   IRExpr* mm = IRExpr_Const(IRConst_U64(mem));
   if (need & CP_NEED_COLLECT) {
      IRExpr* mask = load64(sb, &cp_collect_mask);
      nn = assign(sb, Ity_I64, IRExpr_Binop(Iop_And64, mask, nn));
      mm = assign(sb, Ity_I64, IRExpr_Binop(Iop_And64, mask, mm));
   }
   IRExpr* base = count_base(sb, node);
   if (n) emit_add64(sb, base, offsetof(CpNode, instrs), nn);
   if (mem) emit_add64(sb, base, offsetof(CpNode, mem_instrs), mm);
   if (n == 0) return;
   emit_add64(sb, mkIRExpr_HWord((HWord)&cp_clock), 0, nn);
   if (need & CP_NEED_SLICES) {
      IRExpr* clk = load64(sb, &cp_clock);
      IRExpr* end = load64(sb, &cp_slice_end);
      IRExpr* g = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpLE64U, end, clk));
      add_dirty(sb, 0, "cp_timeline_close_slices", cp_timeline_close_slices, mkIRExprVec_0(), g);
   }
}

/* One memory instruction more for node when cond (Ity_I1) holds, as
   emit_icount counts it. */
static void emit_mem_count_if(IRSB* sb, CpNode* node, IRExpr* cond)
{
   IRExpr* mm = assign(sb, Ity_I64, IRExpr_Unop(Iop_1Uto64, cond));
   if (need & CP_NEED_COLLECT)
      mm = assign(sb, Ity_I64, IRExpr_Binop(Iop_And64, load64(sb, &cp_collect_mask), mm));
   emit_add64(sb, count_base(sb, node), offsetof(CpNode, mem_instrs), mm);
}

/* The node whose counters emit_icount adds to (see there). */
static IRExpr* count_base(IRSB* sb, CpNode* node)
{
   IRExpr* base;
   if (node && (need & CP_NEED_REDIRECT)) {
      IRExpr* me = mkIRExpr_HWord((HWord)node);
      IRExpr* r  = load64(sb, &cp_redirect_node);
      IRExpr* f  = load64(sb, &cp_redirect_fn);
      IRExpr* zero = IRExpr_Const(IRConst_U64(0));
      IRExpr* r_set = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpNE64, r, zero));
      IRExpr* f_any = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, f, zero));
      IRExpr* f_me  = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, f, me));
      IRExpr* f_ok  = assign(sb, Ity_I1, IRExpr_Binop(Iop_Or1, f_any, f_me));
      IRExpr* use   = assign(sb, Ity_I1, IRExpr_Binop(Iop_And1, r_set, f_ok));
      base = assign(sb, Ity_I64, IRExpr_ITE(use, r, me));
   } else if (node) {
      base = mkIRExpr_HWord((HWord)node);
   } else {
      base = load64(sb, &cp_cur_node);
   }
   return base;
}

/* With --objects=yes, object access times are exact to the instruction:
   cp_clock counts the instructions before the current straight-line run,
   and cp_insn_offset is set to the number of instructions of the run before
   the one that makes the access (pend_n counts the run, the current one
   included). */
static void emit_insn_offset(IRSB* sb, ULong pend_n)
{
   ULong before = pend_n ? pend_n - 1 : 0;
   addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&cp_insn_offset),
                                  IRExpr_Const(IRConst_U64(before))));
}

/* What a call or an indirect jump by the instruction at ia (of run-time
   library lib, or NULL) does to the library call (cp_libreads.h).  From the
   program's code (the node functions and the objects that are neither a
   run-time library nor, while it is not a node object, the dynamic linker)
   it starts one.  The dynamic linker's resolver runs inside the call that
   needed the binding, and its jump to the function it bound tells where the
   call goes.  A library's PLT stubs (jmp *GOT) lie outside the text its
   DebugInfo covers: the file mapped there tells whose they are. */
typedef enum { LC_NONE, LC_START, LC_TARGET } LibCallEffect;
static LibCallEffect library_call_effect(Addr ia, const CpLibData* lib, IRJumpKind jk)
{
   if (lib) return LC_NONE;
   const DebugInfo* di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), ia);
   Bool ld;
   if (di) {
      ld = is_dynamic_linker(di);
   } else {
      const NSegment* seg = VG_(am_find_nsegment)(ia);
      const HChar* path = seg ? VG_(am_get_filename)(seg) : NULL;
      if (!path) return LC_START;
      ld = is_dynamic_linker_name(VG_(basename)(path));
      if (!ld && is_runtime_library(path)) return LC_NONE;
   }
   if (ld && !dynamic_linker_is_node()) return jk == Ijk_Boring ? LC_TARGET : LC_NONE;
   return LC_START;
}

/* A library call starts (start: else it only goes on to next): count it,
   and note the stack pointer (after the call's push), above which the
   library's frames never lie, and where it goes (next, an atom). */
static void emit_library_call(IRSB* sb, const VexGuestLayout* layout, IRExpr* next, Bool start,
                              Addr ia)
{
   if (start) {
      /* at or below the stack pointer of the latest indirect call of a
         library's code (a callback's tail call is at it): a callback
         interrupts the library call (cp_h_lib_callback_call); else that
         call is over (cb_sp = 0) */
      IRExpr* sp = get_sp(sb, layout);
      IRExpr* cb = load64(sb, &cp_libreads.cb_sp);
      IRExpr* inside = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpLE64U, sp, cb));
      add_dirty(sb, 0, "cp_h_lib_callback_call", cp_h_lib_callback_call, mkIRExprVec_0(), inside);
      addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&cp_libreads.cb_sp),
                                     assign(sb, Ity_I64, IRExpr_ITE(inside, cb,
                                                                    IRExpr_Const(IRConst_U64(0))))));
      emit_add64(sb, mkIRExpr_HWord((HWord)&cp_libreads.call), 0, mkIRExpr_HWord(1));
      addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&cp_libreads.sp),
                                     get_sp(sb, layout)));
      addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&cp_libreads.target), next));
      return;
   }
   /* the resolver's jump to the function it bound (ia is the dynamic
      linker's): where the call goes if the program's call needed the
      binding, the call's target then being the resolver; not when a
      library's own call did (calloc@plt of libc in the middle of
      fmemopen) */
   const DebugInfo* di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), ia);
   Addr lo = 0;
   SizeT span = 0;
   if (di) {
      lo = VG_(DebugInfo_get_text_avma)(di);
      span = VG_(DebugInfo_get_text_size)(di);
   }
   IRExpr* cur = load64(sb, &cp_libreads.target);
   IRExpr* off = assign(sb, Ity_I64, IRExpr_Binop(Iop_Sub64, cur, IRExpr_Const(IRConst_U64(lo))));
   IRExpr* resolving = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpLT64U, off,
                                                       IRExpr_Const(IRConst_U64(span))));
   addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&cp_libreads.target),
                                  assign(sb, Ity_I64, IRExpr_ITE(resolving, next, cur))));
}

/* At the start of a block of code whose every access is (library data)'s:
   unless the innermost node frame has a call of such code in progress
   (cp_book_sp above the stack pointer, or at it with the call's return
   address on top), this is one, entered at the stack pointer (blocks start
   at calls and returns: a function's first block starts at its entry, with
   the return address on top). */
static void emit_book_enter(IRSB* sb, const VexGuestLayout* layout)
{
   IRExpr* sp = get_sp(sb, layout);
   IRExpr* b = load64(sb, &cp_book_sp);
   IRExpr* r = load64(sb, &cp_book_ret);
   IRExpr* top = assign(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, sp));
   IRExpr* none = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, b, IRExpr_Const(IRConst_U64(0))));
   IRExpr* gone = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpLT64U, b, sp));
   IRExpr* same = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, b, sp));
   IRExpr* other = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpNE64, top, r));
   IRExpr* left = assign(sb, Ity_I1, IRExpr_Binop(Iop_And1, same, other));
   IRExpr* either = assign(sb, Ity_I1, IRExpr_Binop(Iop_Or1, none, gone));
   IRExpr* g = assign(sb, Ity_I1, IRExpr_Binop(Iop_Or1, either, left));
   add_dirty(sb, 1, "cp_h_book_enter", cp_h_book_enter, mkIRExprVec_1(sp), g);
}

/* At a return of such code, to stack pointer sp (an atom): if that is
   above cp_book_sp, the call is over. */
static void emit_book_leave(IRSB* sb, IRExpr* sp)
{
   IRExpr* b = load64(sb, &cp_book_sp);
   IRExpr* set = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpNE64, b, IRExpr_Const(IRConst_U64(0))));
   IRExpr* gone = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpLT64U, b, sp));
   IRExpr* g = assign(sb, Ity_I1, IRExpr_Binop(Iop_And1, set, gone));
   add_dirty(sb, 1, "cp_h_book_leave", cp_h_book_leave, mkIRExprVec_1(sp), g);
}

/* Pop the frames whose sp is below limit (an atom), and follow the stack
   pointer to another stack (below the frames' one: one above it is above
   cp_top_sp too), checking inline first. */
static void emit_unwind_check(IRSB* sb, IRExpr* limit)
{
   IRExpr* top = load64(sb, &cp_top_sp);
   IRExpr* lo = load64(sb, &cp_area_lo);
   IRExpr* above = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpLT64U, top, limit));
   IRExpr* below = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpLT64U, limit, lo));
   IRExpr* g = assign(sb, Ity_I1, IRExpr_Binop(Iop_Or1, above, below));
   add_dirty(sb, 1, "cp_h_unwind_below", cp_h_unwind_below, mkIRExprVec_1(limit), g);
}

static IRExpr* widen_to_64(IRSB* sb, IRExpr* e)
{
   switch (typeOfIRExpr(sb->tyenv, e)) {
   case Ity_I8:  return assign(sb, Ity_I64, IRExpr_Unop(Iop_8Uto64, e));
   case Ity_I16: return assign(sb, Ity_I64, IRExpr_Unop(Iop_16Uto64, e));
   case Ity_I32: return assign(sb, Ity_I64, IRExpr_Unop(Iop_32Uto64, e));
   case Ity_I64: return e;
   default:      tl_assert(0);
   }
}

/* ------------------------------------------------------------------ */
/* The instrumenter                                                   */
/* ------------------------------------------------------------------ */

#define MAX_INSN_LOADS 16

/* The helper calls of one guest instruction's memory accesses are emitted
   after its last access, in the order of the accesses: an instruction that
   faults (the store of a read-modify-write to a read-only page, after its
   load) has made none of its accesses, and when a signal handler makes it
   run again its accesses count once.  The helpers see the shadow map as the
   accesses did: nothing else changes it in between. */
#define MAX_INSN_ACCESSES 64      /* XSAVE with AVX: 36 */
typedef struct {
   AccKind k; IRExpr* addr; Int size; CpNode* node; const CpLibData* lib; IRExpr* guard;
   ULong pend_n;                 /* for --objects: instructions of the run so far */
   Int maskreg;                  /* a masked store (maskmovdqu): its mask register, else -1 */
   Bool mmx;                     /* ... an MMX one (maskmovq) */
} DeferredAccess;
typedef struct {
   DeferredAccess a[MAX_INSN_ACCESSES]; UInt n;
   Bool uncond;       /* the instruction makes an access whatever happens: it
                         counts as a memory instruction when instrumented (kept
                         across an exit in the middle of the instruction, reset
                         at its end) */
   Bool cond;         /* it has accesses that depend on a guard or mask */
   IRExpr* any;       /* ... the condition that one of those is made */
} InsnAccesses;

/* MASKMOVDQU and MASKMOVQ store the bytes whose mask byte (in the register
   d->maskreg) has its top bit set; Valgrind stores all of them (the others
   unchanged), after a load of them all that the program does not make,
   which the instrumenter leaves out.  masked_store_any: does the mask of
   masked store d select a byte?  emit_masked_store: the store's accesses. */
static IRExpr* masked_store_any(IRSB* sb, const DeferredAccess* d)
{
#if defined(VGA_amd64)
   Int off = d->mmx ? (Int)offsetof(VexGuestAMD64State, guest_FPREG) + 8 * d->maskreg
                    : (Int)offsetof(VexGuestAMD64State, guest_YMM0) + 32 * d->maskreg;
   IRExpr* m = assign(sb, Ity_I64, IRExpr_Get(off, Ity_I64));
   if (!d->mmx)
      m = assign(sb, Ity_I64, IRExpr_Binop(Iop_Or64, m, assign(sb, Ity_I64, IRExpr_Get(off + 8, Ity_I64))));
   m = assign(sb, Ity_I64, IRExpr_Binop(Iop_And64, m, IRExpr_Const(IRConst_U64(0x8080808080808080ULL))));
   IRExpr* any = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpNE64, m, IRExpr_Const(IRConst_U64(0))));
   if (d->guard) any = assign(sb, Ity_I1, IRExpr_Binop(Iop_And1, any, d->guard));
   return any;
#else
   (void)sb; (void)d;
   tl_assert(0);
   return NULL;
#endif
}

static void emit_masked_store(IRSB* sb, const DeferredAccess* d)
{
#if defined(VGA_amd64)
   Int off = d->mmx ? (Int)offsetof(VexGuestAMD64State, guest_FPREG) + 8 * d->maskreg
                    : (Int)offsetof(VexGuestAMD64State, guest_YMM0) + 32 * d->maskreg;
   IRExpr* lo = assign(sb, Ity_I64, IRExpr_Get(off, Ity_I64));
   IRExpr* hi = d->mmx ? mkIRExpr_HWord(0) : assign(sb, Ity_I64, IRExpr_Get(off + 8, Ity_I64));
   add_dirty(sb, 0, "cp_h_masked_store", cp_h_masked_store,
             mkIRExprVec_6(d->addr, mkIRExpr_HWord((HWord)d->size), lo, hi,
                           mkIRExpr_HWord((HWord)d->node),
                           mkIRExpr_HWord((HWord)(d->node ? NULL : d->lib))),
             d->guard);
#else
   tl_assert(0);
#endif
}

/* An instruction is at most one load and one store (docs/definitions.md).
   One with several loads or several stores in the IR (VEX made its memory
   operand several accesses: FXSAVE, XSAVE, masked moves, gathers; or it
   reads two operands: cmps) has its accesses go to the group helpers, which
   count it once and each of its bytes once (cp_access.h). */
static void flush_accesses(IRSB* sb, InsnAccesses* acc)
{
   if (acc->cond && !acc->uncond) {
      /* the condition that the instruction makes one counted access at
         least: its guard or mask lets it, and with --ignore-stack=yes its
         address is off the thread's stack (as in on_current_stack) */
      IRExpr* any = acc->any;
      IRExpr* lo = NULL;
      IRExpr* span = NULL;
      if (cp_ignore_stack) {
         lo = load64(sb, &cp_cur_stack_lo);
         span = load64(sb, &cp_cur_stack_span);
      }
      for (UInt j = 0; j < acc->n; j++) {
         const DeferredAccess* d = &acc->a[j];
         IRExpr* g = d->maskreg >= 0 ? masked_store_any(sb, d) : d->guard;
         if (cp_ignore_stack) {
            IRExpr* off = assign(sb, Ity_I64, IRExpr_Binop(Iop_Sub64, d->addr, lo));
            IRExpr* out = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpLT64U, span, off));
            g = g ? assign(sb, Ity_I1, IRExpr_Binop(Iop_And1, g, out)) : out;
         }
         if (g == NULL) continue;
         any = any ? assign(sb, Ity_I1, IRExpr_Binop(Iop_Or1, any, g)) : g;
      }
      acc->any = any;
   }
   UInt loads = 0, stores = 0;
   for (UInt j = 0; j < acc->n; j++) {
      if (acc->a[j].k != ACC_STORE) loads++;
      if (acc->a[j].k != ACC_LOAD) stores++;
   }
   Bool group = loads > 1 || stores > 1;
   /* a read-modify-write of the same bytes (add $1, (mem)) by the program's
      code: one helper call (the modify helpers do the load, then the
      store) */
   if (acc->n == 2 && !cp_clo.objects) {
      DeferredAccess* l = &acc->a[0];
      const DeferredAccess* w = &acc->a[1];
      if (l->k == ACC_LOAD && w->k == ACC_STORE && l->size == w->size
          && (l->size == 1 || l->size == 2 || l->size == 4 || l->size == 8)
          && !l->guard && !w->guard && l->maskreg < 0 && w->maskreg < 0
          && l->node == w->node && (l->node != NULL || l->lib == NULL) && w->lib == l->lib
          && l->addr->tag == Iex_RdTmp && w->addr->tag == Iex_RdTmp
          && l->addr->Iex.RdTmp.tmp == w->addr->Iex.RdTmp.tmp) {
         emit_access(sb, ACC_MODIFY, l->addr, l->size, l->node, l->lib, NULL);
         acc->n = 0;
         return;
      }
   }
   if (group) add_dirty(sb, 0, "cp_h_group_begin", cp_h_group_begin, mkIRExprVec_0(), NULL);
   for (UInt j = 0; j < acc->n; j++) {
      DeferredAccess* d = &acc->a[j];
      if (cp_clo.objects) emit_insn_offset(sb, d->pend_n);
      if (d->maskreg >= 0) {
         emit_masked_store(sb, d);
      } else if (group) {
         static const UWord kinds[] = { [ACC_LOAD] = 1, [ACC_STORE] = 2, [ACC_MODIFY] = 3 };
         add_dirty(sb, 0, "cp_h_group_access", cp_h_group_access,
                   mkIRExprVec_5(d->addr, mkIRExpr_HWord((HWord)d->size),
                                 mkIRExpr_HWord((HWord)d->node),
                                 mkIRExpr_HWord((HWord)(d->node ? NULL : d->lib)),
                                 mkIRExpr_HWord(kinds[d->k])),
                   d->guard);
      } else {
         emit_access(sb, d->k, d->addr, d->size, d->node, d->lib, d->guard);
      }
   }
   acc->n = 0;
}

/* The instruction ends: a conditional memory instruction counts if it made
   an access (node: its node, NULL for the innermost node frame's). */
static void end_insn_accesses(IRSB* sb, InsnAccesses* acc, CpNode* node)
{
   flush_accesses(sb, acc);
   if (acc->cond && !acc->uncond && acc->any) emit_mem_count_if(sb, node, acc->any);
   acc->cond = False;
   acc->any = NULL;
}

/* the library of the instruction being instrumented (see emit_access) */
static const CpLibData* cur_lib;

/* An access of a run-time library's code whose address is computed from
   the thread pointer (%fs on amd64) is (library data)'s (lib_everywhere):
   thread-local data (errno, the locale of the thread, the stack guard) is
   the C library's too.  fs_tmp[t] tells whether temporary t of the
   superblock holds such an address. */
static UChar* fs_tmp;
static UInt   fs_tmp_cap;

static void fs_tmps_reset(const IRSB* sbIn)
{
   UInt n = (UInt)sbIn->tyenv->types_used;
   if (n > fs_tmp_cap) {
      fs_tmp_cap = n + 64;
      fs_tmp = VG_(realloc)("cp.instr.fs", fs_tmp, fs_tmp_cap);
   }
   VG_(memset)(fs_tmp, 0, n);
}

static Bool is_fs_addr(const IRExpr* e)
{
   return e->tag == Iex_RdTmp && fs_tmp[e->Iex.RdTmp.tmp];
}

/* t = data: does t now hold an address from the thread pointer? */
static void fs_tmp_note(IRTemp t, const IRExpr* data)
{
#if defined(VGA_amd64)
   if (data->tag == Iex_Get && data->Iex.Get.ty == Ity_I64
       && data->Iex.Get.offset == offsetof(VexGuestAMD64State, guest_FS_CONST))
      fs_tmp[t] = 1;
   else if (data->tag == Iex_Binop
            && (data->Iex.Binop.op == Iop_Add64 || data->Iex.Binop.op == Iop_Sub64)
            && (is_fs_addr(data->Iex.Binop.arg1) || is_fs_addr(data->Iex.Binop.arg2)))
      fs_tmp[t] = 1;
   else if (data->tag == Iex_Load && data->Iex.Load.ty == Ity_I64 && is_fs_addr(data->Iex.Load.addr))
      fs_tmp[t] = 1;             /* a pointer kept there: the thread's own
                                    descriptor (THREAD_SELF), its locale */
#else
   (void)t; (void)data;
#endif
}

static void defer_access(IRSB* sb, InsnAccesses* acc, ULong pend_n, AccKind k,
                         IRExpr* addr, Int size, CpNode* node, IRExpr* guard)
{
   if (acc->n == MAX_INSN_ACCESSES) flush_accesses(sb, acc);
   DeferredAccess* d = &acc->a[acc->n++];
   d->k = k;
   d->addr = addr;
   d->size = size;
   d->node = node;
   d->lib = cur_lib && is_fs_addr(addr) ? &lib_everywhere : cur_lib;
   d->guard = guard;
   d->pend_n = pend_n;
   d->maskreg = -1;
   d->mmx = False;
}

/* Is atom e, at statement i of sbIn, the guest stack pointer (offset sp in
   the guest state)?  It is if the last write of the stack pointer before i
   put e, or if there is none after e was read from it. */
static Bool is_sp_value(const IRSB* sbIn, Int i, const IRExpr* e, Int sp)
{
   if (e->tag != Iex_RdTmp) return False;
   IRTemp t = e->Iex.RdTmp.tmp;
   for (Int j = i - 1; j >= 0; j--) {
      const IRStmt* st = sbIn->stmts[j];
      if (st->tag == Ist_Put && st->Ist.Put.offset == sp) {
         const IRExpr* d = st->Ist.Put.data;
         return d->tag == Iex_RdTmp && d->Iex.RdTmp.tmp == t;
      }
      if (st->tag == Ist_WrTmp && st->Ist.WrTmp.tmp == t) {
         const IRExpr* d = st->Ist.WrTmp.data;
         return d->tag == Iex_Get && d->Iex.Get.offset == sp && d->Iex.Get.ty == Ity_I64;
      }
   }
   return False;
}

/* VEX's gathers load an element whose mask bit is clear from the stack
   pointer instead, so that the load cannot fault, and drop the value: that
   load's address is ITE(cond, element, sp), made by the same instruction.
   The guard of the access of a load from addr (at statement i) is that cond;
   NULL (always) for any other load. */
static IRExpr* gather_guard(const IRSB* sbIn, Int i, const IRExpr* addr, Int sp)
{
   if (addr->tag != Iex_RdTmp) return NULL;
   for (Int j = i - 1; j >= 0; j--) {
      const IRStmt* st = sbIn->stmts[j];
      if (st->tag == Ist_IMark) return NULL;
      if (st->tag == Ist_WrTmp && st->Ist.WrTmp.tmp == addr->Iex.RdTmp.tmp) {
         const IRExpr* d = st->Ist.WrTmp.data;
         if (d->tag != Iex_ITE || !is_sp_value(sbIn, j, d->Iex.ITE.iffalse, sp)) return NULL;
         return d->Iex.ITE.cond;
      }
   }
   return NULL;
}

/* Does an exit of this kind mean that its instruction faulted (so that
   the accesses it made before are not counted)? */
static Bool is_fault_exit(IRJumpKind jk)
{
   switch (jk) {
   case Ijk_SigILL: case Ijk_SigTRAP: case Ijk_SigSEGV: case Ijk_SigBUS:
   case Ijk_SigFPE: case Ijk_SigFPE_IntDiv: case Ijk_SigFPE_IntOvf:
      return True;
   default:
      return False;
   }
}

IRSB* cp_instrument(VgCallbackClosure* closure, IRSB* sbIn,
                    const VexGuestLayout* layout, const VexGuestExtents* vge,
                    const VexArchInfo* archinfo_host,
                    IRType gWordTy, IRType hWordTy)
{
   if (gWordTy != Ity_I64 || hWordTy != Ity_I64)
      VG_(tool_panic)("commprof supports 64-bit guests on 64-bit hosts only");

   /* a load the optimiser removed: have the block made again with them all */
   IRSB* again = cp_deadloads_check(sbIn, vge);
   if (again) return again;

   IRSB* sb = deepCopyIRSBExceptStmts(sbIn);
   fs_tmps_reset(sbIn);
   Int i = 0;
   /* the preamble before the first IMark is copied unchanged */
   while (i < sbIn->stmts_used && sbIn->stmts[i]->tag != Ist_IMark) {
      addStmtToIRSB(sb, sbIn->stmts[i]);
      i++;
   }

   /* Loads that are control flow, not data: the return address a ret loads,
      and the jump target a PLT stub or a GOT-indirect call loads from the
      GOT.  Both are loads whose value is the address the block goes to next;
      other such loads (function pointers, vtables, jump tables) are data. */
   IRTemp next_tmp = IRTemp_INVALID;
   Bool   next_is_ret = sbIn->jumpkind == Ijk_Ret;
   if (sbIn->next->tag == Iex_RdTmp
       && (next_is_ret || sbIn->jumpkind == Ijk_Call || sbIn->jumpkind == Ijk_Boring))
      next_tmp = sbIn->next->Iex.RdTmp.tmp;

   CpNode* node = NULL;          /* node of the current instruction, NULL = dynamic */
   Addr    ia = 0;               /* current instruction */
   UInt    ilen = 0;
   CpNode* pend_node = NULL;     /* instructions not yet counted, and their node */
   ULong   pend_n = 0;
   ULong   pend_mem = 0;         /* of which access memory */
   Int     maskreg = -1;         /* the current instruction is a masked store (maskmovdqu) */
   Bool    mask_mmx = False;
   IRTemp  insn_loads[MAX_INSN_LOADS];   /* tmps loaded by the current instruction */
   UInt    n_insn_loads = 0;
   CpRun*  run = NULL;           /* the run pend_n counts, once it has a descriptor */
   UInt    run_cap = (UInt)VG_(clo_vex_control).guest_max_insns + 1;
   Bool    first_insn = True;    /* the next IMark is the block's first */

   /* The accesses of the current instruction, counted when it has made
      them all (see defer_access); it counts as a memory instruction. */
   InsnAccesses acc;
   acc.n = 0;
   acc.uncond = acc.cond = False;
   acc.any = NULL;
   /* an access without guard or mask makes the instruction a memory
      instruction whatever happens (counted with it); else (and with
      --ignore-stack=yes, which leaves out the accesses to the stack)
      end_insn_accesses counts it if it makes one counted access */
#define ACCESS(...) do { defer_access(sb, &acc, pend_n, __VA_ARGS__);        \
                         if (acc.a[acc.n - 1].guard != NULL || maskreg >= 0      \
                             || cp_ignore_stack) {                               \
                            acc.cond = True;                                     \
                         } else if (!acc.uncond) {                               \
                            acc.uncond = True; pend_mem++;                       \
                            if (run && !run->broken && run->n) run->len[run->n - 1] |= RUN_MEM; } } while (0)
   for (; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      if (!st || st->tag == Ist_NoOp) continue;

      switch (st->tag) {
      case Ist_IMark: {
         Bool is_entry;
         end_insn_accesses(sb, &acc, node);      /* the previous instruction's */
         ia = st->Ist.IMark.addr;
         ilen = st->Ist.IMark.len;
         node = resolve(ia, &is_entry);
         cur_lib = node ? NULL : library_of(ia);
         if (node == NULL && (cur_lib || in_dynamic_linker(ia)) && in_sync_function(ia))
            cur_lib = &lib_everywhere;
         n_insn_loads = 0;
         acc.uncond = False;
#if defined(VGA_amd64)
         maskreg = cp_insn_maskmov((const UChar*)ia, ilen, &mask_mmx);
#endif
         if ((pend_n || pend_mem) && (node != pend_node || is_entry)) {
            emit_icount(sb, pend_node, pend_n, pend_mem);
            pend_n = pend_mem = 0;
         }
         if (pend_n == 0 || run == NULL) {
            /* a new run: generated code says so for cp_instrument_fault */
            if (run) run_close(run);
            run = run_open(node, ia, run_cap);
            set_cur_run(sb, run);
         }
         if (run->n == run_cap
             || (run->n > 0 && run->start + run_len_bytes(run) != ia))
            run->broken = True;
         else
            run->len[run->n++] = (UChar)(ilen & ~RUN_MEM);
         if (node && is_entry) {
            IRExpr* sp = get_sp(sb, layout);
            /* a lazy binding's frame is the word its push writes, below the
               return address its jump to the bound function leaves on top */
            if (node->kind == CP_KIND_SPECIAL)
               sp = assign(sb, Ity_I64, IRExpr_Binop(Iop_Sub64, sp,
                                                     IRExpr_Const(IRConst_U64(sizeof(Addr)))));
            if (node->kind == CP_KIND_SPECIAL || entry_is_call)
               add_dirty(sb, 2, "cp_h_enter", cp_h_enter,
                         mkIRExprVec_2(mkIRExpr_HWord((HWord)node), sp), NULL);
            else
               add_dirty(sb, 2, "cp_h_enter_region", cp_h_enter_region,
                         mkIRExprVec_2(mkIRExpr_HWord((HWord)node), sp), NULL);
         }
         if (first_insn && node == NULL && cur_lib == &lib_everywhere)
            emit_book_enter(sb, layout);
         if (UNLIKELY(ia == cp_exe_tls_entry) && ia != 0)
            add_dirty(sb, 0, "cp_h_exe_started", cp_h_exe_started, mkIRExprVec_0(), NULL);
         first_insn = False;
         pend_node = node;
         pend_n++;
         addStmtToIRSB(sb, st);
         break;
      }

      case Ist_WrTmp: {
         addStmtToIRSB(sb, st);
         IRExpr* data = st->Ist.WrTmp.data;
         fs_tmp_note(st->Ist.WrTmp.tmp, data);
         if (data->tag == Iex_Load) {
            if (st->Ist.WrTmp.tmp == next_tmp
                && (next_is_ret || is_got_load(data->Iex.Load.addr)))
               break;                                    /* control flow */
            if (maskreg >= 0) break;                     /* Valgrind's, not the program's */
            if (n_insn_loads < MAX_INSN_LOADS)
               insn_loads[n_insn_loads++] = st->Ist.WrTmp.tmp;
            ACCESS(ACC_LOAD, data->Iex.Load.addr, sizeofIRType(data->Iex.Load.ty), node,
                   gather_guard(sbIn, i, data->Iex.Load.addr, layout->offset_SP));
         }
         break;
      }

      case Ist_Store: {
         addStmtToIRSB(sb, st);
         IRExpr* data = st->Ist.Store.data;
         IRExpr* addr = st->Ist.Store.addr;
         Int size = sizeofIRType(typeOfIRExpr(sb->tyenv, data));
         if (size == 8 && data->tag == Iex_Const
             && data->Iex.Const.con->tag == Ico_U64
             && data->Iex.Const.con->Ico.U64 == (ULong)(ia + ilen)) {
            /* call: the return address is control flow, not data; the
               store address is the new stack pointer, below which every
               frame is dead */
            IRExpr* lim = assign(sb, Ity_I64, IRExpr_Binop(Iop_Add64, addr,
                                              IRExpr_Const(IRConst_U64(1))));
            flush_accesses(sb, &acc);
            emit_unwind_check(sb, lim);
            break;
         }
         ACCESS(ACC_STORE, addr, size, node, NULL);
         if (maskreg >= 0) {
            acc.a[acc.n - 1].maskreg = maskreg;
            acc.a[acc.n - 1].mmx = mask_mmx;
         }
         break;
      }

      case Ist_StoreG: {
         addStmtToIRSB(sb, st);
         IRStoreG* sg = st->Ist.StoreG.details;
         Int size = sizeofIRType(typeOfIRExpr(sb->tyenv, sg->data));
         ACCESS(ACC_STORE, sg->addr, size, node, sg->guard);
         break;
      }

      case Ist_LoadG: {
         addStmtToIRSB(sb, st);
         IRLoadG* lg = st->Ist.LoadG.details;
         IRType ty = Ity_INVALID, wide = Ity_INVALID;
         typeOfIRLoadGOp(lg->cvt, &wide, &ty);
         ACCESS(ACC_LOAD, lg->addr, sizeofIRType(ty), node, lg->guard);
         break;
      }

      case Ist_CAS: {
         addStmtToIRSB(sb, st);
         IRCAS* cas = st->Ist.CAS.details;
         Bool dbl = cas->dataHi != NULL;
         Int size = sizeofIRType(typeOfIRExpr(sb->tyenv, cas->dataLo)) * (dbl ? 2 : 1);
         /* A locked read-modify-write (lock add, xadd, ...) is a load followed
            by a CAS that expects the loaded value: its read is the load's. */
         Bool rmw = False;
         if (cas->expdLo->tag == Iex_RdTmp)
            for (UInt j = 0; j < n_insn_loads; j++)
               if (insn_loads[j] == cas->expdLo->Iex.RdTmp.tmp) rmw = True;
         if (!rmw) ACCESS(ACC_LOAD, cas->addr, size, node, NULL);
         /* the store happens only if the swap does */
         IRExpr* g = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64,
                                widen_to_64(sb, IRExpr_RdTmp(cas->oldLo)),
                                widen_to_64(sb, cas->expdLo)));
         if (dbl) {
            IRExpr* gh = assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64,
                                   widen_to_64(sb, IRExpr_RdTmp(cas->oldHi)),
                                   widen_to_64(sb, cas->expdHi)));
            g = assign(sb, Ity_I1, IRExpr_Binop(Iop_And1, g, gh));
         }
         ACCESS(ACC_STORE, cas->addr, size, node, g);
         break;
      }

      case Ist_LLSC: {
         addStmtToIRSB(sb, st);
         IRExpr* addr = st->Ist.LLSC.addr;
         if (st->Ist.LLSC.storedata == NULL) {
            IRType ty = typeOfIRTemp(sb->tyenv, st->Ist.LLSC.result);
            ACCESS(ACC_LOAD, addr, sizeofIRType(ty), node, NULL);
         } else {
            Int size = sizeofIRType(typeOfIRExpr(sb->tyenv, st->Ist.LLSC.storedata));
            ACCESS(ACC_STORE, addr, size, node,
                        IRExpr_RdTmp(st->Ist.LLSC.result));
         }
         break;
      }

      case Ist_Dirty: {
         addStmtToIRSB(sb, st);
         IRDirty* d = st->Ist.Dirty.details;
         if (d->mFx != Ifx_None) {
            tl_assert(d->mAddr != NULL && d->mSize > 0);
            IRExpr* addr = d->mAddr;
            if (addr->tag != Iex_RdTmp && addr->tag != Iex_Const)
               addr = assign(sb, Ity_I64, addr);
            AccKind k = d->mFx == Ifx_Read ? ACC_LOAD
                      : d->mFx == Ifx_Write ? ACC_STORE : ACC_MODIFY;
            IRExpr* g = d->guard;
            if (g && g->tag == Iex_Const && g->Iex.Const.con->Ico.U1) g = NULL;
            ACCESS(k, addr, d->mSize, node, g);
         }
         break;
      }

      case Ist_Exit:
         /* every instruction so far has executed if this exit is taken, and
            the current one has made its accesses so far, unless the exit is
            its fault */
         if (is_fault_exit(st->Ist.Exit.jk)) {
            /* taken, it delivers a signal: cp_instrument_fault then counts
               the instructions before this one; not taken, the run goes on */
            addStmtToIRSB(sb, st);
            break;
         }
         end_insn_accesses(sb, &acc, node);      /* (acc.uncond stays: the instruction
                                                    may go on after the exit) */
         if (pend_n || pend_mem) {
            emit_icount(sb, pend_node, pend_n, pend_mem);
            pend_n = pend_mem = 0;
         }
         /* counted: a fault from here on (in the rest of this instruction,
            a rep prefix, a compare-and-swap) or leaving the code by the
            exit has nothing of it left to count */
         if (run) set_cur_run(sb, NULL);
         addStmtToIRSB(sb, st);
         if (run) run_close(run);
         run = NULL;           /* the next instruction starts a new run */
         break;

      default:
         addStmtToIRSB(sb, st);
         break;
      }
   }

#undef ACCESS
   end_insn_accesses(sb, &acc, node);
   if (is_fault_exit(sbIn->jumpkind) || sbIn->jumpkind == Ijk_NoDecode) {
      /* the block ends in a fault (ud2, an instruction Valgrind cannot
         decode: SIGILL): as at a fault exit, cp_instrument_fault counts the
         instructions before the one that faulted (after int3, all) when
         the signal is delivered, or when the thread leaves the code for a
         fatal one */
   } else {
      if (pend_n || pend_mem) emit_icount(sb, pend_node, pend_n, pend_mem);
      if (run) set_cur_run(sb, NULL);     /* counted: the thread leaves the code
                                             with nothing of it to count */
   }
   if (run) run_close(run);

   /* an indirect call of a run-time library's code: perhaps a callback of
      the program (a qsort comparator), entered at the stack pointer now */
   if (sbIn->jumpkind == Ijk_Call && sbIn->next->tag != Iex_Const && cur_lib != NULL)
      addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&cp_libreads.cb_sp),
                                     get_sp(sb, layout)));

   /* a call, or an indirect jump (a tail call through the PLT stub's
      jmp *GOT, or through the GOT with -fno-plt) */
   if (sbIn->jumpkind == Ijk_Call
       || (sbIn->jumpkind == Ijk_Boring && sbIn->next->tag != Iex_Const)) {
      LibCallEffect e = library_call_effect(ia, cur_lib, sbIn->jumpkind);
      if (e != LC_NONE) emit_library_call(sb, layout, deepCopyIRExpr(sbIn->next), e == LC_START, ia);
   }

   if (sbIn->jumpkind == Ijk_Ret
       || (sbIn->jumpkind == Ijk_Boring && sbIn->next->tag != Iex_Const)) {
      /* the frames of the functions returned from are now above sp; so are
         the frames an indirect jump leaves (longjmp, the unwinder landing in
         a C++ handler), whether its code has a node (--nodes=all) or not; a
         jump within a function (a switch) or a tail call leaves none */
      IRExpr* sp = get_sp(sb, layout);
      emit_unwind_check(sb, sp);
      /* the return of the bookkeeping code's outermost function (the stack
         pointer now above cp_book_sp) ends its call at once: a function
         called next at the same depth (exit calls __call_tls_dtors, then
         _dl_fini) is not working for it */
      if (sbIn->jumpkind == Ijk_Ret && node == NULL && cur_lib == &lib_everywhere)
         emit_book_leave(sb, sp);
   }
   return sb;
}
