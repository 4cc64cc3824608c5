/* commprof: data objects (see cp_objects.h).
 *
 * Heap blocks and thread stacks are found through a second shadow map, the
 * block map, which holds for every 16-byte granule either 0 (no object), the
 * index + 1 of a heap-block instance, or CP_STACK_TAG | object id for a
 * thread's stack.  Heap payloads are 16-byte aligned and never share a
 * granule, so the map is exact for them.  Globals and statics, which can be
 * smaller than a granule, are found by binary search in the main
 * executable's symbol table instead (one range check keeps that off the path
 * of every other access). */

#include "cp_global.h"
#include "cp_objects.h"
#include "cp_demangle.h"
#include "cp_shadow.h"
#include "cp_callstack.h"
#include "cp_options.h"
#include "cp_elfsyms.h"
#include "cp_percall.h"
#include "cp_instrument.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_seqmatch.h"
#include "pub_tool_replacemalloc.h"

#define BLOCKMAP_GRAN_LOG2 4
#define CP_STACK_TAG 0x80000000u

CpObject**     cp_objects;
UInt           cp_n_objects;
static UInt    objects_cap;
CpEdgeTable    cp_flows;
CpObjConsumer* cp_obj_consumers;
static UInt    n_obj_consumers, obj_consumers_cap;

static CpShadowMap* blockmap;

static void extents_forget(void);
static void extents_forget_range(Addr lo, Addr hi);

/* The end of [a, a+len), clamped at the top of the address space. */
static Addr range_end(Addr a, SizeT len)
{
   return a + len >= a ? a + len : (Addr)-1;
}

/* Every change of the block map goes through here. */
static void blockmap_set(Addr a, SizeT len, CpWriter v)
{
   cp_shadow_set_range(blockmap, a, len, v);
   extents_forget_range(a, range_end(a, len));
}

/* ---- instances: heap blocks and static symbols ---- */

typedef struct {
   UInt   obj;           /* object id */
   Addr   base;
   SizeT  size;
   UChar* prod_bits;     /* bytes written and later read, made on first need */
   Bool   live;
   Bool   stack_in;      /* a heap block part of which is a live thread's stack
                            (pthread_attr_setstack): not all its bytes are its own
                            in the block map */
} Instance;

/* The length in bytes of the prod_bits of an instance of size bytes: a bit
   a byte, in whole 64-bit words (mark_produced reads a word), and one word
   more, so that an empty block has a bitmap too.  A bitmap is never
   shorter than this for its instance's current size (a block that shrinks
   keeps its longer one). */
static SizeT prod_bits_len(SizeT size)
{
   return ((size + 63) / 64 + 1) * 8;
}

static Instance* insts;
static UInt      n_insts, insts_cap;
static UInt*     free_insts;          /* indices of dead heap instances */
static UInt      n_free_insts, free_insts_cap;

/* ---- the main executable's statics ---- */

static CpElfSyms exe_syms;
static Bool      have_exe_syms;
static HChar*    exe_path;
static Addr      exe_lo, exe_hi;      /* span of its data sections */
static UInt*     sym_inst;            /* by symbol index: instance + 1, 0 = none yet */
static UInt*     sect_inst;           /* by section index: instance + 1, 0 = none yet */

/* ---- ranges named by COMMPROF_NAME_OBJECT, by address ---- */

typedef struct { Addr lo, hi; UInt inst; } Named;
static Named* named;
static UInt   n_named, named_cap;
static Addr   named_lo, named_hi;   /* span of all named ranges */
static void   unname(Addr lo, Addr hi);
static void   named_drop(Addr lo, Addr hi, UInt obj_lo, UInt obj_hi);
static void   named_span(void);
static Bool   written_by_program(CpWriter w, void* arg);

/* ---- allocation paths ---- */

/* One interned path: the key is the sequence of frame ids. */
typedef struct PathEnt {
   struct PathEnt* next;
   UWord  key;                 /* hash of the frame ids */
   UInt   n;
   UInt*  frame_ids;
   UInt   obj;
} PathEnt;
static VgHashTable* paths;

/* Interned frames: by code address, then merged by (fn, file, line). */
/* The frames of one return address: the functions inlined at the call,
   innermost first (known with --read-inline-info=yes), then the function
   that holds it. */
#define MAX_INLINED 8
typedef struct IpEnt { struct IpEnt* next; UWord key; UInt n; UInt frame[MAX_INLINED + 1]; } IpEnt;
static VgHashTable* ip_frames;
static Addr ip_frames_lo = ~(Addr)0, ip_frames_hi;   /* the keys lie in [lo, hi] */
Bool cp_objects_inline_seen;
static CpAllocFrame* frames;
static UInt n_frames, frames_cap;

/* --------------------------------------------------------------------- */

const HChar* const cp_obj_kind_names[CP_OBJ_KINDS] = {
   "heap", "static", "section", "stack", "named", "tls"
};

/* symbol: for a static whose name is its demangled symbol, the symbol
   (patterns of --object-include/--object-exclude match either); else NULL. */
static CpObject* new_object(UInt kind, const HChar* name, const HChar* symbol)
{
   if (cp_n_objects == objects_cap) {
      objects_cap = objects_cap ? objects_cap * 2 : 64;
      cp_objects = VG_(realloc)("cp.obj.tab", cp_objects, objects_cap * sizeof(CpObject*));
   }
   CpObject* o = VG_(calloc)("cp.obj.obj", 1, sizeof(CpObject));
   o->id = cp_n_objects;
   o->kind = kind;
   o->name = VG_(strdup)("cp.obj.name", name);
   o->symbol = symbol ? VG_(strdup)("cp.obj.sym", symbol) : NULL;
   o->elf = VG_(strdup)("cp.obj.elf", "");
   cp_objects[cp_n_objects++] = o;
   /* selection by name */
#define MATCHES(pat) (VG_(string_match)((pat), name) \
                      || (symbol != NULL && VG_(string_match)((pat), symbol)))
   Bool sel = cp_clo.n_obj_include == 0;
   for (UInt i = 0; i < cp_clo.n_obj_include && !sel; i++)
      if (MATCHES(cp_clo.obj_include[i])) sel = True;
   for (UInt i = 0; i < cp_clo.n_obj_exclude && sel; i++)
      if (MATCHES(cp_clo.obj_exclude[i])) sel = False;
#undef MATCHES
   o->selected = sel;
   return o;
}

void cp_objects_init(void)
{
   blockmap = cp_big_alloc(sizeof(CpShadowMap));        /* zeroed */
   cp_shadow_init(blockmap, BLOCKMAP_GRAN_LOG2, False);
   cp_edges_init(&cp_flows);
   paths = VG_(HT_construct)("cp.obj.paths");
   ip_frames = VG_(HT_construct)("cp.obj.ips");
   /* consumer id 0 is never used, so that a flow key is never 0 */
   obj_consumers_cap = 64;
   cp_obj_consumers = VG_(malloc)("cp.obj.oc", obj_consumers_cap * sizeof(CpObjConsumer));
   cp_obj_consumers[0].ctx = cp_obj_consumers[0].object = 0;
   n_obj_consumers = 1;
}

static UInt new_instance(UInt obj, Addr base, SizeT size)
{
   UInt i;
   if (n_free_insts) {
      i = free_insts[--n_free_insts];
   } else {
      if (n_insts == insts_cap) {
         insts_cap = insts_cap ? insts_cap * 2 : 1024;
         insts = VG_(realloc)("cp.obj.insts", insts, insts_cap * sizeof(Instance));
      }
      i = n_insts++;
   }
   insts[i].obj = obj;
   insts[i].base = base;
   insts[i].size = size;
   insts[i].prod_bits = NULL;
   insts[i].live = True;
   insts[i].stack_in = False;
   return i;
}

/* ------------------------------ statics ------------------------------- */

void cp_objects_main_exe(const HChar* path, Addr bias)
{
   if (have_exe_syms || !cp_clo.objects) return;
   have_exe_syms = True;
   extents_forget();           /* object_at looks at the executable's data first from now on */
   exe_path = VG_(strdup)("cp.obj.exe", path);
   if (!cp_elf_read_data_symbols(path, bias, &exe_syms)) return;
   exe_lo = (Addr)-1;
   exe_hi = 0;
   for (UInt i = 0; i < exe_syms.n_sections; i++) {
      const CpElfSection* s = &exe_syms.sections[i];
      if (s->addr < exe_lo) exe_lo = s->addr;
      if (s->addr + s->size > exe_hi) exe_hi = s->addr + s->size;
   }
   sym_inst = VG_(calloc)("cp.obj.syminst", exe_syms.n_syms + 1, sizeof(UInt));
   sect_inst = VG_(calloc)("cp.obj.sectinst", exe_syms.n_sections + 1, sizeof(UInt));
}

/* Instance + 1 of the static holding a, or of the section holding a when
   no symbol does; 0 if neither.  *sym_out tells which. */
/* The instance of an object of the main executable (a symbol or a section),
   made with its object on first use; slot holds instance + 1. */
static UInt exe_instance(UInt* slot, UInt kind, const HChar* name, Addr addr, SizeT size)
{
   if (*slot == 0) {
      /* a C++ static gets the name c++filt gives its symbol */
      HChar* readable = kind == CP_OBJ_STATIC ? cp_demangle_data(name) : NULL;
      CpObject* o = readable ? new_object(kind, readable, name) : new_object(kind, name, NULL);
      if (readable) VG_(free)(readable);
      VG_(free)(o->elf);
      o->elf = VG_(strdup)("cp.obj.elf", exe_path);
      o->addr = addr;
      o->size = size;
      *slot = new_instance(o->id, addr, size) + 1;
   }
   return *slot;
}

static UInt static_at(Addr a, Bool* sym_out)
{
   const CpElfSym* sym = cp_elf_find_sym(&exe_syms, a);
   *sym_out = sym != NULL;
   if (sym)
      return exe_instance(&sym_inst[sym - exe_syms.syms], CP_OBJ_STATIC, sym->name,
                          sym->addr, sym->size);
   const CpElfSection* sec = cp_elf_find_section(&exe_syms, a);
   if (!sec) return 0;
   return exe_instance(&sect_inst[sec - exe_syms.sections], CP_OBJ_SECTION, sec->name,
                       sec->addr, sec->size);
}

/* Bytes of [lo, lo+len) the program wrote that lie in symbols. */
static ULong written_in_symbols(Addr lo, SizeT len);

/* ------------------------------ heap ---------------------------------- */

/* The id of frame (fn, file, line), interned: equal frames, one id. */
static UInt frame_id(const HChar* fn, const HChar* file, UInt line)
{
   UInt f;
   for (f = 0; f < n_frames; f++)
      if (frames[f].line == line && VG_(strcmp)(frames[f].file, file) == 0
          && VG_(strcmp)(frames[f].fn, fn) == 0)
         return f;
   if (n_frames == frames_cap) {
      frames_cap = frames_cap ? frames_cap * 2 : 256;
      frames = VG_(realloc)("cp.obj.frames", frames, frames_cap * sizeof(CpAllocFrame));
   }
   frames[f].fn = VG_(strdup)("cp.obj.fn", fn);
   frames[f].file = VG_(strdup)("cp.obj.file", file);
   frames[f].line = line;
   n_frames++;
   return f;
}

/* One line of VG_(describe_IP), "0xADDR: FN (FILE:LINE)" or "0xADDR: FN (in
   OBJECT)": its function, the basename of its file ("" and line 0 for the
   second shape) and line; False if it has neither shape. */
typedef struct { HChar fn[256]; HChar file[256]; UInt line; } Described;
static Bool parse_description(const HChar* d, Described* out)
{
   const HChar* fn = VG_(strstr)(d, ": ");
   SizeT len = VG_(strlen)(d);
   if (fn == NULL || len < 4 || d[len - 1] != ')') return False;
   fn += 2;
   /* the location is the last parenthesised group */
   const HChar* open = NULL;
   for (const HChar* q = d + len - 1; q > fn; q--)
      if (q[0] == '(' && q[-1] == ' ') { open = q; break; }
   if (open == NULL) return False;
   SizeT fn_len = (SizeT)(open - 1 - fn);
   if (fn_len == 0 || fn_len >= sizeof out->fn) return False;
   VG_(memcpy)(out->fn, fn, fn_len);
   out->fn[fn_len] = 0;
   out->line = 0;
   out->file[0] = 0;
   const HChar* loc = open + 1;
   SizeT loc_len = (SizeT)(d + len - 1 - loc);
   if (loc_len >= 3 && loc[0] == 'i' && loc[1] == 'n' && loc[2] == ' ') return True;
   const HChar* colon = NULL;
   for (SizeT k = 0; k < loc_len; k++) if (loc[k] == ':') colon = loc + k;
   if (colon == NULL || colon == loc || (SizeT)(colon - loc) >= sizeof out->file) return False;
   for (const HChar* q = colon + 1; q < loc + loc_len; q++) {
      if (*q < '0' || *q > '9') return False;
      out->line = out->line * 10 + (UInt)(*q - '0');
   }
   HChar path[256];
   VG_(memcpy)(path, loc, (SizeT)(colon - loc));
   path[colon - loc] = 0;
   VG_(strcpy)(out->file, VG_(basename)(path));
   return True;
}

static const IpEnt* intern_frames(Addr ip)
{
   IpEnt* e = VG_(HT_lookup)(ip_frames, ip);
   if (e) return e;
   e = VG_(malloc)("cp.obj.ipent", sizeof(IpEnt));
   e->key = ip;
   e->n = 0;
   DiEpoch ep = VG_(current_DiEpoch)();
   /* ip is a return address: the call is the instruction before it */
   Addr call = ip - 1;
   /* the functions inlined at the call: every description but the last,
      which is the function holding the call */
   InlIPCursor* iipc = VG_(new_IIPC)(ep, call);
   Described last;
   Bool last_ok;
   for (;;) {
      last_ok = parse_description(VG_(describe_IP)(ep, call, iipc), &last);
      if (!VG_(next_IIPC)(iipc)) break;
      cp_objects_inline_seen = True;
      if (e->n < MAX_INLINED && last_ok) e->frame[e->n++] = frame_id(last.fn, last.file, last.line);
   }
   VG_(delete_IIPC)(iipc);
   const HChar* fn = NULL;
   const HChar* file = NULL;
   UInt line = 0;
   HChar fnbuf[256];
   if (VG_(get_fnname)(ep, call, &fn) || (fn = cp_instrument_bare_fn(call)) != NULL) {
      /* the source function's name, as its node has (cp_node_function) */
      SizeT n = cp_fn_source_len(fn);
      if (n > sizeof(fnbuf) - 1) n = sizeof(fnbuf) - 1;
      VG_(memcpy)(fnbuf, fn, n);
      fnbuf[n] = 0;
   } else {
      VG_(snprintf)(fnbuf, sizeof(fnbuf), "0x%lx", call);
   }
   if (!VG_(get_filename_linenum)(ep, call, &file, NULL, &line)) {
      file = "";
      line = 0;
   }
   if (e->n > 0 && last_ok) {
      /* the function holding the call is charged at the line of the outermost
         inlined call, which the last description gives */
      file = last.file;
      line = last.line;
   }
   e->frame[e->n++] = frame_id(fnbuf, file, line);
   VG_(HT_add_node)(ip_frames, e);
   if (ip < ip_frames_lo) ip_frames_lo = ip;
   if (ip > ip_frames_hi) ip_frames_hi = ip;
   return e;
}

/* A header file: .h, .hh, .hpp, .hxx, .h++, .tcc, .inl, .ipp, .tpp, or no
   extension (C++'s <vector>, <memory>). */
Bool cp_objects_is_header(const HChar* file)
{
   const HChar* base = VG_(basename)(file);
   const HChar* dot = VG_(strrchr)(base, '.');
   if (dot == NULL) return True;
   static const HChar* exts[] = { ".h", ".hh", ".hpp", ".hxx", ".h++", ".tcc", ".inl",
                                  ".ipp", ".tpp" };
   for (UInt i = 0; i < sizeof exts / sizeof exts[0]; i++)
      if (VG_(strcmp)(dot, exts[i]) == 0) return True;
   return False;
}

/* Is frame f a header line in a function of the program defined outside a
   header: library code inlined into it (new_allocator.h in a function that
   makes a std::vector)?  A function defined in a header, a static inline
   one, is code of its own. */
static Bool inlined_library_line(const CpAllocFrame* f)
{
   if (f->line == 0 || !cp_objects_is_header(f->file)) return False;
   for (UInt n = 0; n < cp_n_nodes; n++)
      if (cp_nodes[n]->kind == CP_KIND_FUNCTION && VG_(strcmp)(cp_nodes[n]->name, f->fn) == 0)
         return cp_nodes[n]->file[0] && !cp_objects_is_header(cp_nodes[n]->file);
   return False;
}

static UInt object_for_path(const UInt* ids, UInt n)
{
   UWord h = n;
   for (UInt i = 0; i < n; i++) h = h * 0x9E3779B97F4A7C15ULL + ids[i] + 1;
   for (PathEnt* p = VG_(HT_lookup)(paths, h); p; p = p->next) {
      if (p->key != h || p->n != n) continue;
      UInt i;
      for (i = 0; i < n && p->frame_ids[i] == ids[i]; i++) ;
      if (i == n) return p->obj;
   }
   /* new object: named after the innermost frame with a source line that is
      not in a header (the program's call, not the library code inlined into
      it: new_allocator.h for a std::vector); else after the innermost
      function known by name only, if it is inner to every frame with a line
      (a program built without -g, or an executable Valgrind could not read:
      its function, not the C library's start-up code); else the innermost
      with a line */
   UInt at = n;                               /* the frame it is named after */
   UInt by_name = n;                          /* ... or whose function it is named after */
   for (UInt i = 0; i < n && at == n; i++)
      if (frames[ids[i]].line && !cp_objects_is_header(frames[ids[i]].file)) at = i;
   for (UInt i = 0; i < n && at == n && by_name == n && !frames[ids[i]].line; i++)
      if (frames[ids[i]].fn[0] != '?' && !(frames[ids[i]].fn[0] == '0' && frames[ids[i]].fn[1] == 'x'))
         by_name = i;
   for (UInt i = 0; i < n && at == n && by_name == n; i++)
      if (frames[ids[i]].line) at = i;
   HChar name[512];
   if (at < n)
      VG_(snprintf)(name, sizeof(name), "%s:%u", VG_(basename)(frames[ids[at]].file),
                    frames[ids[at]].line);
   else
      VG_(snprintf)(name, sizeof(name), "%s", n ? frames[ids[by_name < n ? by_name : 0]].fn : "???");
   CpObject* o = new_object(CP_OBJ_HEAP, name, NULL);
   for (UInt i = 0; i < n && i <= at && !o->inlined_library; i++)
      o->inlined_library = inlined_library_line(&frames[ids[i]]);
   o->n_frames = n;
   o->frames = VG_(malloc)("cp.obj.path", (n ? n : 1) * sizeof(CpAllocFrame));
   for (UInt i = 0; i < n; i++) o->frames[i] = frames[ids[i]];
   PathEnt* p = VG_(malloc)("cp.obj.pathent", sizeof(PathEnt));
   p->key = h;
   p->n = n;
   p->frame_ids = VG_(malloc)("cp.obj.pathids", (n ? n : 1) * sizeof(UInt));
   VG_(memcpy)(p->frame_ids, ids, n * sizeof(UInt));
   p->obj = o->id;
   VG_(HT_add_node)(paths, p);
   return o->id;
}

/* The most frames of the preload library an allocation's stack starts with
   (the replacement, and one it calls), and one more. */
#define PRELOAD_FRAMES 4

/* Is a in the code of one of Valgrind's preload libraries (vgpreload_*.so)? */
static Bool in_preload(DiEpoch ep, Addr a)
{
   DebugInfo* di = VG_(find_DebugInfo)(ep, a);
   if (!di) return False;
   const HChar* f = VG_(DebugInfo_get_filename)(di);
   if (!f) return False;
   const HChar* slash = VG_(strrchr)(f, '/');
   return VG_(strncmp)(slash ? slash + 1 : f, "vgpreload_", 10) == 0;
}

UInt cp_objects_block_alloc(ThreadId tid, Addr p, SizeT size)
{
   /* ips[0] is the replacement allocator in the preload library, and some
      replacements call another (posix_memalign, valloc: memalign): the
      leading frames in the preload library are no part of the path */
   Addr ips[CP_MAX_ALLOC_DEPTH + PRELOAD_FRAMES];
   UInt n = VG_(get_StackTrace)(tid, ips, cp_clo.alloc_depth + PRELOAD_FRAMES, NULL, NULL, 0);
   UInt ids[CP_MAX_ALLOC_DEPTH];
   UInt k = 0;
   DiEpoch ep = VG_(current_DiEpoch)();
   UInt first = 1;
   while (first < n && first < PRELOAD_FRAMES && in_preload(ep, ips[first] - 1)) first++;
   if (n > first + cp_clo.alloc_depth) n = first + cp_clo.alloc_depth;
   for (UInt i = first; i < n; i++) {
      /* the unwinder may run past the outermost frame: no code there */
      if (!VG_(find_DebugInfo)(ep, ips[i] - 1) && !cp_instrument_bare_fn(ips[i] - 1)) break;
      const IpEnt* e = intern_frames(ips[i]);
      for (UInt j = 0; j < e->n && k < CP_MAX_ALLOC_DEPTH; j++) ids[k++] = e->frame[j];
      /* nothing above the code below main is part of the path */
      if (VG_(get_fnname_kind)(frames[ids[k - 1]].fn) == Vg_FnNameBelowMain
          || VG_(strcmp)(frames[ids[k - 1]].fn, "(below main)") == 0
          || k == CP_MAX_ALLOC_DEPTH)
         break;
   }
   /* two statements: object_for_path may move the table of objects, which
      cp_objects[object_for_path(...)] could read before the call */
   UInt id = object_for_path(ids, k);
   CpObject* o = cp_objects[id];
   o->blocks++;
   o->total_bytes += size;
   o->live_bytes += size;
   o->size = size;
   if (o->live_bytes > o->peak_bytes) o->peak_bytes = o->live_bytes;
   UInt inst = new_instance(o->id, p, size);
   if (size) blockmap_set(p, size, inst + 1);
   return inst;
}

/* Writers that count as the program's writes (not never-written memory, not
   calloc's zeroes, not the run-time library's bookkeeping: (library data)'s
   accesses are no object's). */
static Bool written_by_program(CpWriter w, void* arg)
{
   return w != 0 && cp_ctxs[w].node != CP_NODE_ALLOCATOR && !cp_is_libdata_node(cp_ctxs[w].node);
}

/* Bytes of [lo, lo+len) the program wrote, less those in named ranges
   (they count for the named objects). */
static ULong written_outside_named(Addr lo, SizeT len)
{
   ULong n = cp_shadow_count_range(&cp_shadow, lo, len, written_by_program, NULL);
   Addr hi = lo + len;
   for (UInt i = 0; i < n_named && n; i++) {
      if (named[i].hi <= lo || hi <= named[i].lo) continue;
      Addr a = named[i].lo > lo ? named[i].lo : lo;
      Addr b = named[i].hi < hi ? named[i].hi : hi;
      n -= cp_shadow_count_range(&cp_shadow, a, b - a, written_by_program, NULL);
   }
   return n;
}

void cp_objects_block_free(UInt inst)
{
   Instance* in = &insts[inst];
   CpObject* o = cp_objects[in->obj];
   o->written_bytes += written_outside_named(in->base, in->size);
   o->live_bytes -= in->size;
   if (in->size) blockmap_set(in->base, in->size, 0);
   if (n_named) unname(in->base, in->base + in->size);
   if (in->prod_bits) VG_(free)(in->prod_bits);
   in->prod_bits = NULL;
   in->live = False;
   if (n_free_insts == free_insts_cap) {
      free_insts_cap = free_insts_cap ? free_insts_cap * 2 : 1024;
      free_insts = VG_(realloc)("cp.obj.free", free_insts, free_insts_cap * sizeof(UInt));
   }
   free_insts[n_free_insts++] = inst;
}

/* A realloc moved the block [lo, hi) to `to`: the named ranges wholly in it
   move with its bytes; those it only overlaps end. */
static void named_move(Addr lo, Addr hi, Addr to)
{
   for (UInt i = 0; i < n_named; i++) {
      if (named[i].lo >= lo && named[i].hi <= hi) {
         Instance* ni = &insts[named[i].inst];
         CpObject* no = cp_objects[ni->obj];
         Addr nlo = to + (named[i].lo - lo);
         if (no->addr == named[i].lo) no->addr = nlo;
         named[i].hi = nlo + (named[i].hi - named[i].lo);
         named[i].lo = nlo;
         ni->base = nlo;
      }
   }
   unname(lo, hi);                      /* the moved ones lie elsewhere now */
   /* back in address order (the moved ones keep their order among themselves) */
   for (UInt i = 1; i < n_named; i++) {
      Named x = named[i];
      UInt j = i;
      while (j > 0 && named[j - 1].lo > x.lo) { named[j] = named[j - 1]; j--; }
      named[j] = x;
   }
   named_span();
}

void cp_objects_block_move(UInt inst, Addr new_p, SizeT new_size)
{
   Instance* in = &insts[inst];
   CpObject* o = cp_objects[in->obj];
   if (n_named && in->size) named_move(in->base, in->base + in->size, new_p);
   if (in->size) blockmap_set(in->base, in->size, 0);
   o->live_bytes += new_size - in->size;
   o->total_bytes += new_size - in->size;
   if (o->live_bytes > o->peak_bytes) o->peak_bytes = o->live_bytes;
   if (in->prod_bits && new_size > in->size) {
      UChar* nb = VG_(calloc)("cp.obj.prod", prod_bits_len(new_size), 1);
      VG_(memcpy)(nb, in->prod_bits, (in->size + 7) / 8);
      VG_(free)(in->prod_bits);
      in->prod_bits = nb;
   }
   in->base = new_p;
   in->size = new_size;
   o->size = new_size;
   if (new_size) blockmap_set(new_p, new_size, inst + 1);
}

void cp_objects_block_shrink(UInt inst, SizeT new_size)
{
   Instance* in = &insts[inst];
   CpObject* o = cp_objects[in->obj];
   /* the cut-off tail's writes count for the object */
   o->written_bytes += written_outside_named(in->base + new_size, in->size - new_size);
   /* the namings that reach into the tail end, as at free */
   if (n_named && new_size < in->size) unname(in->base + new_size, in->base + in->size);
   blockmap_set(in->base + new_size, in->size - new_size, 0);
   if (in->prod_bits)      /* offsets past the new end are new memory if it grows again */
      for (SizeT b = new_size; b < in->size; b++) in->prod_bits[b >> 3] &= (UChar)~(1u << (b & 7));
   o->live_bytes -= in->size - new_size;
   in->size = new_size;
   o->size = new_size;
   if (new_size) blockmap_set(in->base, new_size, inst + 1);
}

/* ------------------------------ stacks -------------------------------- */

static UInt* stack_obj;      /* by thread index: object id + 1 */
static UInt  stack_obj_cap;

void cp_objects_thread_stack(UInt ti, Addr lo, Addr hi)
{
   if (!cp_clo.objects || hi <= lo) return;
   if (ti >= stack_obj_cap) {
      UInt ncap = ti + 64;
      stack_obj = VG_(realloc)("cp.obj.stacks", stack_obj, ncap * sizeof(UInt));
      for (UInt i = stack_obj_cap; i < ncap; i++) stack_obj[i] = 0;
      stack_obj_cap = ncap;
   }
   if (stack_obj[ti] == 0) {
      HChar name[64];
      VG_(snprintf)(name, sizeof(name), "stack of thread %u", ti);
      CpObject* o = new_object(CP_OBJ_STACK, name, NULL);
      o->thread = ti;
      o->addr = lo;
      o->size = hi - lo;
      stack_obj[ti] = o->id + 1;
   }
   /* a stack in a heap block: the block's extent is no longer all its own */
   CpWriter v = cp_shadow_get(blockmap, lo);
   if (v && !(v & CP_STACK_TAG) && v - 1 < n_insts) insts[v - 1].stack_in = True;
   blockmap_set(lo, hi - lo, CP_STACK_TAG | (stack_obj[ti] - 1));
}

void cp_objects_thread_gone(Addr lo, Addr hi, UInt inst1)
{
   if (!cp_clo.objects || hi <= lo) return;
   blockmap_set(lo, hi - lo, 0);
   /* a stack in a heap block (pthread_attr_setstack): the block is the
      heap object's again */
   if (inst1 && inst1 - 1 < n_insts && insts[inst1 - 1].live && insts[inst1 - 1].size) {
      insts[inst1 - 1].stack_in = False;
      blockmap_set(insts[inst1 - 1].base, insts[inst1 - 1].size, inst1);
   }
}

/* ------------------------- thread-local variables ---------------------- */

/* By thread index: the id + 1 of the object of its first variable (the
   others follow, one per symbol of exe_syms.tls), 0 before it has any. */
static UInt* tls_obj1;
static UInt  tls_obj1_cap;

static void named_insert(Addr lo, Addr hi, UInt inst);

/* Thread ti's objects, made on first need. */
static UInt tls_objects(UInt ti)
{
   if (ti >= tls_obj1_cap) {
      UInt ncap = ti + 64;
      tls_obj1 = VG_(realloc)("cp.obj.tls", tls_obj1, ncap * sizeof(UInt));
      for (UInt i = tls_obj1_cap; i < ncap; i++) tls_obj1[i] = 0;
      tls_obj1_cap = ncap;
   }
   if (tls_obj1[ti] == 0)
      for (UInt k = 0; k < exe_syms.n_tls; k++) {
         const CpElfSym* sym = &exe_syms.tls[k];
         HChar* readable = cp_demangle_data(sym->name);
         const HChar* base = readable ? readable : sym->name;
         /* selected by the variable's name or symbol, named for its thread */
         CpObject* o = new_object(CP_OBJ_TLS, base, sym->name);
         SizeT len = VG_(strlen)(base) + 32;
         VG_(free)(o->name);
         o->name = VG_(malloc)("cp.obj.name", len);
         VG_(snprintf)(o->name, len, "%s (thread %u)", base, ti);
         if (readable) VG_(free)(readable);
         VG_(free)(o->elf);
         o->elf = VG_(strdup)("cp.obj.elf", exe_path);
         o->thread = ti;
         o->size = sym->size;
         if (k == 0) tls_obj1[ti] = o->id + 1;
      }
   return tls_obj1[ti] - 1;
}

void cp_objects_thread_tls(UInt ti, Addr block)
{
   if (!cp_clo.objects || !have_exe_syms || exe_syms.n_tls == 0) return;
   /* the ranges of its variables until now end: what was written there
      stays to their credit */
   if (ti < tls_obj1_cap && tls_obj1[ti] != 0)
      named_drop(0, ~(Addr)0, tls_obj1[ti] - 1, tls_obj1[ti] - 1 + exe_syms.n_tls);
   if (block == 0) return;
   UInt first = tls_objects(ti);
   for (UInt k = 0; k < exe_syms.n_tls; k++) {
      const CpElfSym* sym = &exe_syms.tls[k];
      CpObject* o = cp_objects[first + k];
      Addr a = block + sym->addr;
      if (n_named) unname(a, a + sym->size);
      o->addr = a;
      o->live_bytes += sym->size;
      named_insert(a, a + sym->size, new_instance(o->id, a, sym->size));
   }
   named_span();
}

/* --------------------------- named ranges ----------------------------- */

/* Add [lo, hi) of instance inst to the named ranges, which it does not
   overlap (named_span is the caller's). */
static void named_insert(Addr lo, Addr hi, UInt inst)
{
   if (n_named == named_cap) {
      named_cap = named_cap ? named_cap * 2 : 16;
      named = VG_(realloc)("cp.obj.named", named, named_cap * sizeof(Named));
   }
   UInt i = n_named++;
   while (i > 0 && named[i - 1].lo > lo) { named[i] = named[i - 1]; i--; }
   named[i].lo = lo;
   named[i].hi = hi;
   named[i].inst = inst;
}

static void named_span(void)
{
   extents_forget();
   named_lo = (Addr)-1;
   named_hi = 0;
   for (UInt i = 0; i < n_named; i++) {
      if (named[i].lo < named_lo) named_lo = named[i].lo;
      if (named[i].hi > named_hi) named_hi = named[i].hi;
   }
}

/* Forget the named ranges that overlap [lo, hi). */
static void unname(Addr lo, Addr hi)
{
   named_drop(lo, hi, 0, ~0u);
}

/* End the named ranges that overlap [lo, hi) and whose object's id is in
   [obj_lo, obj_hi). */
static void named_drop(Addr lo, Addr hi, UInt obj_lo, UInt obj_hi)
{
   UInt k = 0;
   for (UInt i = 0; i < n_named; i++) {
      UInt obj = insts[named[i].inst].obj;
      if (named[i].lo < hi && lo < named[i].hi && obj >= obj_lo && obj < obj_hi) {
         /* what was written into the named range stays to its credit */
         CpObject* o = cp_objects[obj];
         o->written_bytes += cp_shadow_count_range(&cp_shadow, named[i].lo, named[i].hi - named[i].lo,
                                                   written_by_program, NULL);
         o->live_bytes -= named[i].hi - named[i].lo;
         insts[named[i].inst].live = False;
         continue;
      }
      named[k++] = named[i];
   }
   if (k != n_named) {
      n_named = k;
      named_span();
   }
}

void cp_objects_name_range(Addr a, SizeT size, const HChar* name)
{
   if (size == 0 || a + size < a) return;
   unname(a, a + size);
   /* one object per name: naming a new buffer of that name adds a block */
   CpObject* o = NULL;
   for (UInt i = 0; i < cp_n_objects && !o; i++)
      if (cp_objects[i]->kind == CP_OBJ_NAMED && VG_(strcmp)(cp_objects[i]->name, name) == 0)
         o = cp_objects[i];
   if (!o) o = new_object(CP_OBJ_NAMED, name, NULL);
   /* like a heap site's blocks: the ranges named over the run, the most
      named at one time, the last one's size */
   o->addr = a;
   o->size = size;
   o->total_bytes += size;
   o->live_bytes += size;
   if (o->live_bytes > o->peak_bytes) o->peak_bytes = o->live_bytes;
   named_insert(a, a + size, new_instance(o->id, a, size));
   named_span();
}

/* The code at [lo, hi) is gone: what its return addresses said is forgotten
   (another library loaded there later has its own functions and lines). */
static void ip_frames_forget(Addr lo, Addr hi)
{
   if (hi <= ip_frames_lo || lo > ip_frames_hi) return;
   VG_(HT_ResetIter)(ip_frames);
   IpEnt* e;
   while ((e = VG_(HT_Next)(ip_frames)) != NULL)
      if (e->key >= lo && e->key < hi) {
         VG_(HT_remove_at_Iter)(ip_frames);
         VG_(free)(e);
      }
}

void cp_objects_memory_gone(Addr a, SizeT len)
{
   if (len == 0) return;
   if (n_named) unname(a, range_end(a, len));
   ip_frames_forget(a, range_end(a, len));
}

static const Named* named_at(Addr a)
{
   UInt lo = 0, hi = n_named;
   while (lo < hi) {
      UInt mid = lo + (hi - lo) / 2;
      if (named[mid].lo <= a) lo = mid + 1; else hi = mid;
   }
   return (lo > 0 && a < named[lo - 1].hi) ? &named[lo - 1] : NULL;
}

/* --------------------------- the access path ------------------------- */

/* The last extents object_at found: [lo, hi) holds only addresses for
   which object_at gives obj, inst1 and *end = end, as long as no object
   there moves: a change of the block map forgets the extents it overlaps
   (what object_at says of an extent depends on the map only inside it), a
   change of the named ranges forgets them all.  Only the extents whose bounds are known cheaply
   are kept: named ranges, heap blocks, symbols of the executable, data of
   its sections between symbols, and the chunks of the block map that are
   all one thread's stack. */
#define N_EXTENTS 8
typedef struct { Addr lo, hi, end; UInt obj, inst1; Bool found; } Extent;
static Extent extents[N_EXTENTS];
static UInt   extent_next;        /* the one to fill next */
static UInt   extent_last;        /* the last one found, looked at first */

static void extents_forget(void)
{
   for (UInt i = 0; i < N_EXTENTS; i++) extents[i].lo = extents[i].hi = 0;
}

static void extents_forget_range(Addr lo, Addr hi)
{
   for (UInt i = 0; i < N_EXTENTS; i++)
      if (extents[i].lo < hi && lo < extents[i].hi) extents[i].lo = extents[i].hi = 0;
}

static void extent_keep(Addr lo, Addr hi, Bool found, Addr end, UInt obj, UInt inst1)
{
   if (lo >= hi) return;
   Extent* x = &extents[extent_next];
   extent_last = extent_next;
   extent_next = (extent_next + 1) % N_EXTENTS;
   x->lo = lo;
   x->hi = hi;
   x->end = end;
   x->obj = obj;
   x->inst1 = inst1;
   x->found = found;
}

/* Does [lo, hi) overlap the span of the named ranges (which object_at looks
   at first)? */
static Bool near_named(Addr lo, Addr hi)
{
   return n_named && lo < named_hi && named_lo < hi;
}

/* Is [lo, hi) clear of the named ranges and of the executable's data (which
   object_at looks at before the block map)? */
static Bool outside_named_and_exe(Addr lo, Addr hi)
{
   return !near_named(lo, hi) && !(have_exe_syms && lo < exe_hi && exe_lo < hi);
}

/* extent_keep for [lo, hi) of the executable's data, clipped to it, unless
   a named range overlaps it (object_at looks at those first). */
static void extent_keep_exe(Addr lo, Addr hi, Addr end, UInt obj, UInt inst1)
{
   if (lo < exe_lo) lo = exe_lo;
   if (hi > exe_hi) hi = exe_hi;
   if (!near_named(lo, hi)) extent_keep(lo, hi, True, end, obj, inst1);
}

/* Object (and instance + 1, or 0) holding a, and in *end the end of the
   extent of that object a lies in; False if none (then *end is a + 1, or
   the end of the extent without objects a lies in, from object_at). */
static Bool object_at_slow(Addr a, UInt* obj, UInt* inst1, Addr* end)
{
   *inst1 = 0;
   *end = a + 1;
   if (n_named && a - named_lo < named_hi - named_lo) {
      const Named* nm = named_at(a);
      if (nm) {
         *inst1 = nm->inst + 1;
         *obj = insts[nm->inst].obj;
         *end = nm->hi;
         extent_keep(nm->lo, nm->hi, True, nm->hi, *obj, *inst1);
         return True;
      }
   }
   if (a - exe_lo < exe_hi - exe_lo && have_exe_syms) {
      Bool is_sym;
      UInt i1 = static_at(a, &is_sym);
      if (!i1) return False;
      *inst1 = i1;
      *obj = insts[i1 - 1].obj;
      *end = insts[i1 - 1].base + insts[i1 - 1].size;
      const CpElfSym* next = cp_elf_next_sym(&exe_syms, a);
      if (!is_sym) {
         /* section data outside any symbol: up to the next symbol */
         if (next && next->addr < *end) *end = next->addr;
         /* the same answer from the end of the symbol before (the one
            cp_elf_find_sym looks at, which does not hold a) on, in this
            section and no other */
         const CpElfSym* prev = next ? (next > exe_syms.syms ? next - 1 : NULL)
                                     : (exe_syms.n_syms ? &exe_syms.syms[exe_syms.n_syms - 1] : NULL);
         Addr lo = insts[i1 - 1].base, hi = *end;
         if (prev && prev->addr + prev->size > lo) lo = prev->addr + prev->size;
         Bool alone = lo <= a;
         const CpElfSection* mine = cp_elf_find_section(&exe_syms, a);
         for (UInt k = 0; k < exe_syms.n_sections && alone; k++) {
            const CpElfSection* sec = &exe_syms.sections[k];
            if (sec != mine && lo < sec->addr + sec->size && sec->addr < hi) alone = False;
         }
         if (alone) extent_keep_exe(lo, hi, *end, *obj, i1);
      } else {
         /* the symbol cp_elf_find_sym gives for every address up to the
            next symbol's start */
         Addr hi = *end;
         if (next && next->addr < hi) hi = next->addr;
         extent_keep_exe(insts[i1 - 1].base, hi, *end, *obj, i1);
      }
      return True;
   }
   CpWriter v = cp_shadow_get(blockmap, a);
   if (v == 0) {
      /* no object over a chunk of the map that is all 0 */
      if (CP_SLOT_IS_UNIFORM(cp_shadow_slot(blockmap, a))) {
         Addr lo = a & ~(CP_CHUNK_SIZE - 1), hi = lo + CP_CHUNK_SIZE;
         if (hi != 0 && outside_named_and_exe(lo, hi)) extent_keep(lo, hi, False, 0, 0, 0);
      }
      return False;
   }
   if (v & CP_STACK_TAG) {
      const CpObject* o = cp_objects[v & ~CP_STACK_TAG];
      *obj = o->id;
      *end = o->addr + o->size;
      /* the same answer over a chunk of the map that is all this stack */
      if (CP_SLOT_IS_UNIFORM(cp_shadow_slot(blockmap, a))) {
         Addr lo = a & ~(CP_CHUNK_SIZE - 1), hi = lo + CP_CHUNK_SIZE;
         if (hi != 0 && outside_named_and_exe(lo, hi)) extent_keep(lo, hi, True, *end, *obj, 0);
      }
      return True;
   }
   if (a - insts[v - 1].base >= insts[v - 1].size) {
      /* the slack between a block's end and the end of its last granule of
         the map: no object's */
      Addr g = (a | ((1UL << BLOCKMAP_GRAN_LOG2) - 1)) + 1;
      if (g != 0 && !near_named(a, g)) *end = g;
      return False;
   }
   *inst1 = v;
   *obj = insts[v - 1].obj;
   *end = insts[v - 1].base + insts[v - 1].size;
   /* a block's bytes are all in the map as its own (payloads share no
      granule; the slack after the end is not the block's), unless part of
      it is a thread's stack: then the part above the stack, where a lies
      (the stack starts at the block's start, see cp_callstack.c), is
      looked up each time */
   if (!insts[v - 1].stack_in && outside_named_and_exe(insts[v - 1].base, *end))
      extent_keep(insts[v - 1].base, *end, True, *end, *obj, v);
   return True;
}

static inline __attribute__((always_inline)) Bool object_at(Addr a, UInt* obj, UInt* inst1,
                                                           Addr* end)
{
   const Extent* x = &extents[extent_last];
   if (UNLIKELY(!(a - x->lo < x->hi - x->lo))) {
      UInt i = 0;
      for (; i < N_EXTENTS; i++) {
         x = &extents[i];
         if (a - x->lo < x->hi - x->lo) break;
      }
      if (i == N_EXTENTS) return object_at_slow(a, obj, inst1, end);
      extent_last = i;
   }
   *obj = x->obj;
   *inst1 = x->inst1;
   if (UNLIKELY(!x->found)) {
      *inst1 = 0;
      *end = x->hi;              /* no object up to there */
      return False;
   }
   *end = x->end;
   return True;
}

static inline __attribute__((always_inline)) void touch(CpObject* o)
{
   ULong now = cp_clock + cp_insn_offset + 1;
   if (o->first_access == 0) o->first_access = now;
   o->last_access = now;
}

static inline __attribute__((always_inline)) void region_bytes(CpObject* o, CpNode* n, Addr a, SizeT sz, Bool load)
{
   UInt kind = o->kind;
   if (kind == CP_OBJ_NAMED) {
      /* a named range counts as the memory it lies in */
      CpWriter v = cp_shadow_get(blockmap, a);
      if (v && !(v & CP_STACK_TAG) && a - insts[v - 1].base < insts[v - 1].size) kind = CP_OBJ_HEAP;
      else if (have_exe_syms && a - exe_lo < exe_hi - exe_lo) kind = CP_OBJ_STATIC;
   }
   if (kind == CP_OBJ_HEAP) {
      if (load) n->heap_bytes_read += sz; else n->heap_bytes_written += sz;
   } else if (kind == CP_OBJ_STATIC || kind == CP_OBJ_SECTION) {
      if (load) n->global_bytes_read += sz; else n->global_bytes_written += sz;
   }
}

/* Consumer id for (consumer context c, object o): the second half of a flow
   key.  Interned in an open-addressing table, with the pairs used last
   cached in front of it. */
static UInt* oc_hash;
static UInt  oc_hash_cap;
/* the pairs last used, by a hash of the pair (id 0: none) */
#define OC_CACHE_BITS 6
typedef struct { UInt c, o, id; } OcCacheEnt;
static OcCacheEnt oc_cache[1 << OC_CACHE_BITS];

static inline UInt oc_slot(UInt c, UInt o, UInt cap)
{
   ULong k = ((ULong)c << 32) | o;
   return (UInt)((k * 0x9E3779B97F4A7C15ULL) >> 40) & (cap - 1);
}

static __attribute__((noinline)) UInt obj_consumer_slow(UInt c, UInt o);
static inline __attribute__((always_inline)) UInt obj_consumer(UInt c, UInt o)
{
   const OcCacheEnt* ce = &oc_cache[oc_slot(c, o, 1u << OC_CACHE_BITS)];
   if (LIKELY(ce->c == c && ce->o == o && ce->id)) return ce->id;
   return obj_consumer_slow(c, o);
}

static UInt obj_consumer_slow(UInt c, UInt o)
{
   if ((n_obj_consumers + 1) * 2 > oc_hash_cap) {
      UInt ncap = oc_hash_cap ? oc_hash_cap * 2 : 1024;
      UInt* nh = VG_(calloc)("cp.obj.ochash", ncap, sizeof(UInt));
      for (UInt i = 1; i < n_obj_consumers; i++) {
         UInt j = oc_slot(cp_obj_consumers[i].ctx, cp_obj_consumers[i].object, ncap);
         while (nh[j]) j = (j + 1) & (ncap - 1);
         nh[j] = i;
      }
      if (oc_hash) VG_(free)(oc_hash);
      oc_hash = nh;
      oc_hash_cap = ncap;
   }
   UInt j = oc_slot(c, o, oc_hash_cap);
   while (oc_hash[j]) {
      const CpObjConsumer* oc = &cp_obj_consumers[oc_hash[j]];
      if (oc->ctx == c && oc->object == o) break;
      j = (j + 1) & (oc_hash_cap - 1);
   }
   if (!oc_hash[j]) {
      if (n_obj_consumers == obj_consumers_cap) {
         obj_consumers_cap *= 2;
         cp_obj_consumers = VG_(realloc)("cp.obj.oc", cp_obj_consumers,
                                         obj_consumers_cap * sizeof(CpObjConsumer));
      }
      cp_obj_consumers[n_obj_consumers].ctx = c;
      cp_obj_consumers[n_obj_consumers].object = o;
      oc_hash[j] = n_obj_consumers++;
   }
   OcCacheEnt* ce = &oc_cache[oc_slot(c, o, 1u << OC_CACHE_BITS)];
   ce->c = c;
   ce->o = o;
   ce->id = oc_hash[j];
   return ce->id;
}

/* Mark [a, a+len) of instance i as read after being written; count new bytes. */
static __attribute__((noinline)) void mark_produced_slow(Instance* in, CpObject* o, Addr a,
                                                         SizeT len)
{
   if (!in->prod_bits) in->prod_bits = VG_(calloc)("cp.obj.prod", prod_bits_len(in->size), 1);
   SizeT off = a - in->base;
   if (off >= in->size) return;
   SizeT end = len < in->size - off ? off + len : in->size;
   while (off < end) {                        /* a byte of bits a step */
      UInt lo = (UInt)(off & 7);
      UInt n = end - off < 8 - lo ? (UInt)(end - off) : 8 - lo;
      UChar fresh = (UChar)(((1u << n) - 1) << lo) & (UChar)~in->prod_bits[off >> 3];
      if (fresh) {
         in->prod_bits[off >> 3] |= fresh;
         o->prod_bytes += CP_POPCOUNT64(fresh);
      }
      off += n;
   }
}

/* The same, inline when the bits lie in one word of the bitmap. */
static inline __attribute__((always_inline)) void mark_produced(Instance* in, CpObject* o,
                                                                Addr a, SizeT len)
{
   SizeT off = a - in->base;
   if (LIKELY(in->prod_bits != NULL) && LIKELY(off < in->size) && LIKELY(len <= in->size - off)
       && LIKELY((off & 63) + len <= 64)) {
      ULong mask = (len == 64 ? ~0ULL : ((1ULL << len) - 1)) << (off & 63);
      ULong w;
      UChar* p = in->prod_bits + (off >> 6) * 8;
      __builtin_memcpy(&w, p, 8);
      ULong fresh = mask & ~w;
      if (LIKELY(fresh == 0)) return;
      w |= fresh;
      __builtin_memcpy(p, &w, 8);
      o->prod_bytes += CP_POPCOUNT64(fresh);
      return;
   }
   mark_produced_slow(in, o, a, len);
}

/* The objects that the pieces of one instruction's memory operand (see
   cp_access.c) have counted a read or a write of already: the instruction
   is one access to each object its pieces touch. */
#define GROUP_OBJECTS 16
static struct { UInt n; UInt obj[GROUP_OBJECTS]; Bool write[GROUP_OBJECTS]; } group;

void cp_objects_group_begin(void)
{
   group.n = 0;
}

/* Is this the first piece of the instruction to read (write) obj? */
static Bool group_first(UInt obj, Bool is_write)
{
   for (UInt i = 0; i < group.n; i++)
      if (group.obj[i] == obj && group.write[i] == is_write) return False;
   if (group.n < GROUP_OBJECTS) {
      group.obj[group.n] = obj;
      group.write[group.n++] = is_write;
   }
   return True;
}

/* The counts of an access to the part [a, a+sz) of one object, for loads
   and stores alike; grouped: a piece of an instruction's operand, which
   counts as an access only if it is the instruction's first to the object. */
static inline __attribute__((always_inline)) CpObject* count_part(Addr a, SizeT sz, CpNode* n, UInt obj,
                                                                  Bool is_write, Bool grouped)
{
   CpObject* o = cp_objects[obj];
   Bool first = !grouped || group_first(obj, is_write);
   if (is_write) {
      if (first) o->writes++;
      o->write_bytes += sz;
   } else {
      if (first) o->reads++;
      o->read_bytes += sz;
   }
   /* a call's record counts its own accesses, not those of the lazy bindings
      and library data of its library calls (as for the bytes it consumes) */
   if (cp_percall_active && o->selected && n->kind != CP_KIND_SPECIAL)
      cp_percall_object(obj, a, sz, is_write, first);
   touch(o);
   region_bytes(o, n, a, sz, !is_write);
   return o;
}

/* The flow of a run of len bytes at x of object o (instance inst1 - 1, or
   none), all produced by p and read by the flow consumer oc. */
static inline __attribute__((always_inline)) void credit_flow(CpObject* o, UInt inst1, UInt p,
                                                              UInt oc, Addr x, SizeT len)
{
   cp_edge_credit(&cp_flows, p, oc, x, len);
   if (inst1 && written_by_program(p, NULL))
      mark_produced(&insts[inst1 - 1], o, x, len);
}

/* The part [a, a+sz) of a load that lies in one object. */
static void load_part(Addr a, SizeT sz, UInt c, CpNode* n, UInt obj, UInt inst1, Bool grouped)
{
   CpObject* o = count_part(a, sz, n, obj, False, grouped);
   if (!o->selected) return;
   UInt oc = obj_consumer(c, obj);
   /* the flows, by runs of bytes with one producer */
   Addr end = a + sz, x = a;
   while (x < end) {
      CpWriter p;
      Addr y = cp_shadow_run(&cp_shadow, x, end, &p);
      credit_flow(o, inst1, p, oc, x, y - x);
      x = y;
   }
}

/* An access that spans several objects is an access to each of them, with
   the bytes that lie in it (c: the context of a load). */
static inline __attribute__((always_inline)) void objects_access(Addr a, SizeT sz, UInt c, CpNode* n,
                                                                 Bool is_write, Bool grouped)
{
   Addr end = a + sz;
   while (a < end) {
      UInt obj, inst1;
      Addr e;
      Bool found = object_at(a, &obj, &inst1, &e);
      if (e > end || e <= a) e = end;
      if (found && is_write) count_part(a, e - a, n, obj, True, grouped);
      else if (found) load_part(a, e - a, c, n, obj, inst1, grouped);
      a = e;
   }
}

void cp_objects_load(Addr a, SizeT sz, UInt c, CpNode* n)         { objects_access(a, sz, c, n, False, False); }
void cp_objects_load_grouped(Addr a, SizeT sz, UInt c, CpNode* n) { objects_access(a, sz, c, n, False, True); }
void cp_objects_store(Addr a, SizeT sz, CpNode* n)                { objects_access(a, sz, 0, n, True, False); }
void cp_objects_store_grouped(Addr a, SizeT sz, CpNode* n)        { objects_access(a, sz, 0, n, True, True); }

void cp_objects_load_from(Addr a, SizeT sz, UInt c, CpNode* n, UInt p)
{
   UInt obj, inst1;
   Addr e;
   Bool found = object_at(a, &obj, &inst1, &e);
   if (LIKELY(e > a) && LIKELY(a + sz <= e)) {
      /* the common cases: an access within one object, or in none */
      if (!found) return;
      CpObject* o = count_part(a, sz, n, obj, False, False);
      if (o->selected) credit_flow(o, inst1, p, obj_consumer(c, obj), a, sz);
      return;
   }
   cp_objects_load(a, sz, c, n);
}

/* ------------------------------ reports ------------------------------- */

void cp_objects_sync(void)
{
   /* written_bytes counts freed blocks; live blocks and statics are counted
      into written_report at each report */
   for (UInt i = 0; i < cp_n_objects; i++) cp_objects[i]->written_report = cp_objects[i]->written_bytes;
   for (UInt i = 0; i < n_insts; i++) {
      if (!insts[i].live) continue;
      const CpObject* o = cp_objects[insts[i].obj];
      ULong w;
      if (o->kind == CP_OBJ_NAMED || o->kind == CP_OBJ_TLS)
         w = cp_shadow_count_range(&cp_shadow, insts[i].base, insts[i].size, written_by_program, NULL);
      else if (o->kind == CP_OBJ_SECTION)   /* the symbols in it count for themselves */
         w = written_outside_named(insts[i].base, insts[i].size)
             - written_in_symbols(insts[i].base, insts[i].size);
      else
         w = written_outside_named(insts[i].base, insts[i].size);
      cp_objects[insts[i].obj]->written_report += w;
   }
}

static ULong written_in_symbols(Addr lo, SizeT len)
{
   ULong n = 0;
   for (const CpElfSym* sym = cp_elf_next_sym(&exe_syms, lo - 1);
        sym && sym < exe_syms.syms + exe_syms.n_syms && sym->addr < lo + len; sym++) {
      Addr b = sym->addr + sym->size < lo + len ? sym->addr + sym->size : lo + len;
      n += written_outside_named(sym->addr, b - sym->addr);
   }
   return n;
}

void cp_objects_after_fork(void)
{
   /* the child counts what it does; the blocks it inherited stay live, and
      are its heap at the start: they count as its allocations (blocks,
      total-bytes), so that total-bytes is never below peak-bytes and Alloc%
      and Prod% of an inherited block are fractions of its size */
   cp_edges_reset(&cp_flows);
   for (UInt i = 0; i < cp_n_objects; i++) {
      CpObject* o = cp_objects[i];
      o->blocks = 0;
      o->total_bytes = o->live_bytes;
      o->peak_bytes = o->live_bytes;
      o->reads = o->read_bytes = o->writes = o->write_bytes = 0;
      o->written_bytes = o->prod_bytes = 0;
      o->first_access = o->last_access = 0;
   }
   for (UInt i = 0; i < n_insts; i++) {
      if (insts[i].live && cp_objects[insts[i].obj]->kind == CP_OBJ_HEAP)
         cp_objects[insts[i].obj]->blocks++;
      if (insts[i].prod_bits) VG_(memset)(insts[i].prod_bits, 0, prod_bits_len(insts[i].size));
   }
}
