/* commprof: nodes and contexts (see cp_nodes.h). */

#include "cp_global.h"
#include "cp_nodes.h"
#include "cp_callstack.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_seqmatch.h"
#include "cp_options.h"

CpNode** cp_nodes;
UInt     cp_n_nodes;
static UInt nodes_cap;

CpCtx* cp_ctxs;
UInt   cp_n_ctxs;
static UInt ctxs_cap;

CpPhase* cp_phases;
UInt     cp_n_phases;
UInt     cp_cur_phase;
static UInt phases_cap;

static UWord str_hash(const HChar* s);

/* function nodes by entry address */
typedef struct FnEnt { struct FnEnt* next; UWord key; CpNode* node; } FnEnt;
static VgHashTable* fn_by_entry;

/* syscall nodes by number */
static UInt* syscall_node;       /* 0 = not made yet */
static UInt  syscall_cap;

/* Which patterns of each list (CpPatternList) some function that ran
   matched: at exit, those that matched none are reported (a C++ name has
   its parameters, `work(int)`, which `work` does not match). */
static Bool* pattern_matched[CP_PAT_LISTS];

static HChar** pattern_list(CpPatternList list, UInt* n)
{
   switch (list) {
   case CP_PAT_FN_INCLUDE: *n = cp_clo.n_fn_include; return cp_clo.fn_include;
   case CP_PAT_COLLECT_IN: *n = cp_clo.n_collect_in; return cp_clo.collect_in;
   default:                *n = cp_clo.per_call ? cp_clo.n_per_call_fns : 0; return cp_clo.per_call_fns;
   }
}

void cp_pattern_matched(CpPatternList list, UInt i)
{
   UInt n;
   pattern_list(list, &n);
   if (!pattern_matched[list]) pattern_matched[list] = VG_(calloc)("cp.nodes.pat", n, sizeof(Bool));
   pattern_matched[list][i] = True;
}

Bool cp_pattern_has_matched(CpPatternList list, UInt i)
{
   return pattern_matched[list] && pattern_matched[list][i];
}

void cp_report_unmatched_patterns(void)
{
   static const HChar* const opt[CP_PAT_LISTS] = { "--fn-include", "--collect-in", "--per-call-fns" };
   for (UInt list = 0; list < CP_PAT_LISTS; list++) {
      UInt n;
      HChar** pats = pattern_list(list, &n);
      for (UInt i = 0; i < n; i++) {
         if (cp_pattern_has_matched(list, i)) continue;
         /* a code region of that name: no function (a region's code is
            its function's, which the pattern must name) */
         Bool region = False;
         for (UInt k = 0; k < cp_n_nodes && !region && list != CP_PAT_FN_INCLUDE; k++)
            region = cp_nodes[k]->kind == CP_KIND_REGION && VG_(string_match)(pats[i], cp_nodes[k]->name);
         if (region) {
            VG_(umsg)("commprof: %s pattern '%s' matched no node function that ran: it names a code region, "
                      "and %s matches functions only\n", opt[list], pats[i], opt[list]);
            continue;
         }
         Bool plain = VG_(strchr)(pats[i], '(') == NULL && VG_(strchr)(pats[i], '*') == NULL
                      && VG_(strchr)(pats[i], '\'') == NULL;     /* not a caller context */
         /* --collect-in and --per-call-fns name nodes: a function that
            --fn-include or --fn-exclude left out ran, but is none */
         Bool selected = list != CP_PAT_FN_INCLUDE
                         && (cp_clo.n_fn_include > 0 || cp_clo.n_fn_exclude > 0);
         VG_(umsg)("commprof: %s pattern '%s' matched no %sfunction that ran%s%s%s%s%s\n", opt[list], pats[i],
                   list == CP_PAT_FN_INCLUDE ? "" : "node ",
                   list == CP_PAT_FN_INCLUDE ? " in the node objects" : "",
                   plain ? " (a C++ function's name has its parameters: '" : "",
                   plain ? pats[i] : "", plain ? "(*)')" : "",
                   selected ? " (the functions --fn-include or --fn-exclude leaves out are not nodes)" : "");
      }
   }
}

static CpNode* new_node(UInt kind, const HChar* name, const HChar* object,
                        const HChar* file, const HChar* dir, UInt line, Addr entry)
{
   if (cp_n_nodes == nodes_cap) {
      nodes_cap = nodes_cap ? nodes_cap * 2 : 256;
      cp_nodes = VG_(realloc)("cp.nodes.tab", cp_nodes, nodes_cap * sizeof(CpNode*));
   }
   CpNode* n = VG_(calloc)("cp.nodes.node", 1, sizeof(CpNode));
   n->id     = cp_n_nodes;
   n->kind   = kind;
   n->entry  = entry;
   n->name   = VG_(strdup)("cp.nodes.name", name);
   n->object = VG_(strdup)("cp.nodes.obj", object ? object : "");
   n->file   = VG_(strdup)("cp.nodes.file", file ? file : "");
   n->dir    = VG_(strdup)("cp.nodes.dir", dir ? dir : "");
   n->line   = line;
   n->base   = n->id;
   if (kind == CP_KIND_FUNCTION) {
      for (UInt i = 0; i < cp_clo.n_collect_in; i++)
         if (VG_(string_match)(cp_clo.collect_in[i], name)) {
            n->collect_in = True;
            cp_pattern_matched(CP_PAT_COLLECT_IN, i);
         }
      n->per_call = cp_clo.per_call && cp_clo.n_per_call_fns == 0;
      for (UInt i = 0; cp_clo.per_call && i < cp_clo.n_per_call_fns; i++)
         if (VG_(string_match)(cp_clo.per_call_fns[i], name)) {
            n->per_call = True;
            cp_pattern_matched(CP_PAT_PER_CALL_FNS, i);
         }
   }
   cp_nodes[cp_n_nodes++] = n;
   cp_threads_node_added(cp_n_nodes);
   return n;
}

void cp_nodes_init(void)
{
   fn_by_entry = VG_(HT_construct)("cp.nodes.fn_by_entry");
   new_node(CP_KIND_SPECIAL, "(unwritten)",      "", "", "", 0, 0);
   new_node(CP_KIND_SPECIAL, "(allocator)",      "", "", "", 0, 0);
   new_node(CP_KIND_SPECIAL, "(no function)",    "", "", "", 0, 0);
   new_node(CP_KIND_SPECIAL, "(signal frame)",   "", "", "", 0, 0);
   new_node(CP_KIND_SPECIAL, "(client request)", "", "", "", 0, 0);
   tl_assert(cp_n_nodes == CP_NODE_N_FIXED);
   /* context 0 is (unwritten) of no thread */
   cp_ctx_new(CP_NODE_UNWRITTEN, 0);
   phases_cap = 16;
   cp_phases = VG_(malloc)("cp.phases", phases_cap * sizeof(CpPhase));
   cp_phases[0].name = VG_(strdup)("cp.phases.name", "(start)");
   cp_phases[0].start = 0;
   cp_n_phases = 1;
   cp_cur_phase = 0;
}

static Bool ident_char(HChar c)
{
   return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '_' || c == '$';
}

SizeT cp_fn_source_len(const HChar* name)
{
   const HChar* clone = VG_(strstr)(name, " [clone .");
   if (clone) return (SizeT)(clone - name);
   /* a C identifier, then '.': no C name has one */
   SizeT i = 0;
   if (name[0] >= '0' && name[0] <= '9') return VG_(strlen)(name);
   while (ident_char(name[i])) i++;
   if (i > 0 && name[i] == '.' && name[i + 1] != 0) return i;
   return VG_(strlen)(name);
}

Bool cp_fn_is_cold_part(const HChar* name)
{
   for (const HChar* s = name + cp_fn_source_len(name); (s = VG_(strstr)(s, ".cold")); s += 5)
      if (s[5] == 0 || s[5] == '.' || s[5] == ']') return True;
   return False;
}

Bool cp_fn_is_outlined_region(const HChar* name)
{
   return VG_(strstr)(name + cp_fn_source_len(name), "._omp_") != NULL;
}

/* function nodes by source name and object, key a hash of both: whether
   the code of a symbol with the source name itself (not a clone's) has
   been given the node */
typedef struct SrcFnEnt {
   struct SrcFnEnt* next;
   UWord key;
   CpNode* node;
   Bool original;       /* the code of the symbol with the source name is loaded */
   Addr original_at;    /* and starts here */
} SrcFnEnt;
static VgHashTable* fn_by_name;

/* gcc's parts of a C++20 coroutine F: its body, "F(F::_Z<F mangled>.Frame*)
   [clone .actor]", and its destroyer ([clone .destroy]), whose parameter is
   the coroutine's frame, a type local to F: *lo, *len give F's name as the
   ramp function (the one the program calls) has it, the parameter's text
   before "::_Z". */
static Bool coroutine_part(const HChar* name, const HChar** lo, SizeT* len)
{
   static const HChar frame[] = ".Frame*)";
   const SizeT fl = sizeof(frame) - 1;
   const HChar* c = VG_(strstr)(name, " [clone .actor]");
   if (!c) c = VG_(strstr)(name, " [clone .destroy]");
   if (!c || (SizeT)(c - name) < fl || VG_(strncmp)(c - fl, frame, fl) != 0) return False;
   const HChar* z = NULL;
   for (const HChar* p = name; p + 4 <= c - fl; p++)
      if (p[0] == ':' && p[1] == ':' && p[2] == '_' && p[3] == 'Z') z = p;
   /* the '(' of the parameter list: the one the ')' before the clone closes */
   const HChar* open = NULL;
   Int depth = 0;
   for (const HChar* p = c - 1; p >= name && !open; p--) {
      if (*p == ')') depth++;
      else if (*p == '(' && --depth == 0) open = p;
   }
   if (!z || !open || open + 1 >= z) return False;
   *lo = open + 1;
   *len = (SizeT)(z - *lo);
   return True;
}

CpNode* cp_node_function(Addr entry, const HChar* name, const HChar* object,
                         const HChar* file, const HChar* dir, UInt line)
{
   FnEnt* e = VG_(HT_lookup)(fn_by_entry, entry);
   if (e) return e->node;
   SizeT len = cp_fn_source_len(name);
   Bool original = name[len] == 0;
   const HChar* from = name;
   /* a coroutine's body and destroyer are the coroutine's code: they join
      its node as clones do */
   if (coroutine_part(name, &from, &len)) original = False;
   HChar src[len + 1];
   VG_(memcpy)(src, from, len);
   src[len] = 0;
   if (!object) object = "";
   if (!fn_by_name) fn_by_name = VG_(HT_construct)("cp.nodes.fn_by_name");
   UWord h = str_hash(src) * 31 + str_hash(object);
   /* a clone joins the node of its function; the function joins the node of
      its clones, but two functions of one name (static ones in two files)
      are two nodes, the clones going with the first */
   SrcFnEnt* f = VG_(HT_lookup)(fn_by_name, h);
   for (; f; f = f->next)
      if (f->key == h && VG_(strcmp)(f->node->name, src) == 0
          && VG_(strcmp)(f->node->object, object) == 0 && !(original && f->original)) break;
   if (!f) {
      f = VG_(malloc)("cp.nodes.fnname", sizeof(SrcFnEnt));
      f->key = h;
      f->node = new_node(CP_KIND_FUNCTION, src, object, file, dir, line, entry);
      f->original = False;
      VG_(HT_add_node)(fn_by_name, f);
   }
   if (original) {
      f->original = True;
      f->original_at = entry;
   }
   e = VG_(malloc)("cp.nodes.fnent", sizeof(FnEnt));
   e->key  = entry;
   e->node = f->node;
   VG_(HT_add_node)(fn_by_entry, e);
   return f->node;
}

void cp_nodes_forget_code(Addr lo, Addr hi)
{
   VG_(HT_ResetIter)(fn_by_entry);
   FnEnt* e;
   while ((e = VG_(HT_Next)(fn_by_entry)) != NULL)
      if (e->key >= lo && e->key < hi) {
         VG_(HT_remove_at_Iter)(fn_by_entry);
         VG_(free)(e);
      }
   /* the object loaded again (dlclose, then dlopen) is the same: its
      functions find their nodes by name, as their clones do */
   if (!fn_by_name) return;
   VG_(HT_ResetIter)(fn_by_name);
   SrcFnEnt* f;
   while ((f = VG_(HT_Next)(fn_by_name)) != NULL)
      if (f->original && f->original_at >= lo && f->original_at < hi) f->original = False;
}

static Int cmp_node_name(const void* a, const void* b)
{
   return VG_(strcmp)(cp_nodes[*(const UInt*)a]->name, cp_nodes[*(const UInt*)b]->name);
}

Bool* cp_nodes_shared_names(void)
{
   Bool* shared = VG_(calloc)("cp.nodes.shared", cp_n_nodes + 1, sizeof(Bool));
   UInt* order = VG_(malloc)("cp.nodes.order", (cp_n_nodes + 1) * sizeof(UInt));
   UInt n = 0;
   for (UInt i = 0; i < cp_n_nodes; i++)
      if (cp_nodes[i]->kind == CP_KIND_FUNCTION) order[n++] = i;
   VG_(ssort)(order, n, sizeof(UInt), cmp_node_name);
   for (UInt k = 1; k < n; k++)
      if (VG_(strcmp)(cp_nodes[order[k]]->name, cp_nodes[order[k - 1]]->name) == 0)
         shared[order[k]] = shared[order[k - 1]] = True;
   VG_(free)(order);
   return shared;
}

const HChar* cp_node_display_name(const CpNode* n, Bool shared, HChar* buf, SizeT size)
{
   if (!shared || n->kind != CP_KIND_FUNCTION) return n->name;
   if (n->file[0] && n->line)
      VG_(snprintf)(buf, size, "%s [%s:%u]", n->name, n->file, n->line);
   else if (n->file[0])
      VG_(snprintf)(buf, size, "%s [%s]", n->name, n->file);
   else if (n->object[0])
      VG_(snprintf)(buf, size, "%s [%s]", n->name, VG_(basename)(n->object));
   else
      return n->name;
   return buf;
}

static const HChar* syscall_name(Word sysno)
{
   static const struct { Word no; const HChar* name; } names[] = {
#define X(n) { __NR_##n, #n },
#include "cp_sysnames.def"
#undef X
      { -1, NULL }
   };
   for (UInt i = 0; names[i].name; i++)
      if (names[i].no == sysno) return names[i].name;
   return NULL;
}

UInt cp_node_syscall(Word sysno)
{
   if (sysno < 0 || sysno > 100000) sysno = 100000;
   if ((UWord)sysno >= syscall_cap) {
      UInt ncap = (UInt)sysno + 64;
      syscall_node = VG_(realloc)("cp.nodes.sys", syscall_node, ncap * sizeof(UInt));
      for (UInt i = syscall_cap; i < ncap; i++) syscall_node[i] = 0;
      syscall_cap = ncap;
   }
   if (syscall_node[sysno] == 0) {
      HChar name[64];
      const HChar* s = syscall_name(sysno);
      if (s) VG_(snprintf)(name, sizeof(name), "(syscall %s)", s);
      else   VG_(snprintf)(name, sizeof(name), "(syscall %ld)", sysno);
      syscall_node[sysno] = new_node(CP_KIND_SPECIAL, name, "", "", "", 0, 0)->id;
   }
   return syscall_node[sysno];
}

static CpNode* dynlinker;

CpNode* cp_node_dynlinker(void)
{
   if (dynlinker == NULL) dynlinker = new_node(CP_KIND_SPECIAL, "(dynamic linker)", "", "", "", 0, 0);
   return dynlinker;
}

static CpNode* libdata;

Bool cp_is_libdata_node(UInt node)
{
   return libdata != NULL && node == libdata->id;
}

CpNode* cp_node_libdata(void)
{
   if (libdata == NULL) libdata = new_node(CP_KIND_SPECIAL, "(library data)", "", "", "", 0, 0);
   return libdata;
}

Bool cp_node_is_runtime(UInt node)
{
   return cp_is_libdata_node(node) || (dynlinker != NULL && node == dynlinker->id);
}

void cp_nodes_reset_counters(void)
{
   for (UInt i = 0; i < cp_n_nodes; i++) {
      CpNode* n = cp_nodes[i];
      n->instrs = n->mem_instrs = n->calls = n->bytes_read = n->bytes_written = 0;
      n->comm_in = 0;
      for (UInt j = 0; j < CP_NODE_ECACHE; j++) {
         n->ecache_key[j] = 0;
         n->ecache_edge[j] = NULL;
      }
      n->loads = n->stores = n->stack_loads = n->stack_stores = 0;
      n->stack_bytes_read = n->stack_bytes_written = 0;
      n->heap_bytes_read = n->heap_bytes_written = 0;
      n->global_bytes_read = n->global_bytes_written = 0;
   }
   /* the clock starts again at 0: the phases begun before the fork, the
      current one included, begin at the child's start */
   for (UInt i = 0; i < cp_n_phases; i++) cp_phases[i].start = 0;
}

UInt cp_ctx_new(UInt node, UInt thread)
{
   if (cp_n_ctxs == ctxs_cap) {
      ctxs_cap = ctxs_cap ? ctxs_cap * 2 : 1024;
      cp_ctxs = VG_(realloc)("cp.ctxs", cp_ctxs, ctxs_cap * sizeof(CpCtx));
   }
   cp_ctxs[cp_n_ctxs].node = node;
   cp_ctxs[cp_n_ctxs].thread = thread;
   cp_ctxs[cp_n_ctxs].phase = cp_cur_phase;
   return cp_n_ctxs++;
}

/* ---- regions and caller contexts ---- */

typedef struct NameEnt { struct NameEnt* next; UWord key; UInt node; } NameEnt;
static VgHashTable* regions_by_name;
static VgHashTable* contexts;

static UWord str_hash(const HChar* s)
{
   UWord h = 5381;
   while (*s) h = h * 33 + (UChar)*s++;
   return h;
}

CpNode* cp_node_region(const HChar* name)
{
   if (!regions_by_name) regions_by_name = VG_(HT_construct)("cp.nodes.regions");
   UWord h = str_hash(name);
   for (NameEnt* e = VG_(HT_lookup)(regions_by_name, h); e; e = e->next)
      if (e->key == h && VG_(strcmp)(cp_nodes[e->node]->name, name) == 0) return cp_nodes[e->node];
   CpNode* n = new_node(CP_KIND_REGION, name, "", "", "", 0, 0);
   NameEnt* e = VG_(malloc)("cp.nodes.regent", sizeof(NameEnt));
   e->key = h;
   e->node = n->id;
   VG_(HT_add_node)(regions_by_name, e);
   return n;
}

CpNode* cp_node_context(CpNode* fn, const UInt* callers, UInt k)
{
   if (!contexts) contexts = VG_(HT_construct)("cp.nodes.contexts");
   UWord h = fn->id * 0x9E3779B97F4A7C15ULL + k;
   for (UInt i = 0; i < k; i++) h = h * 31 + callers[i] + 1;
   for (NameEnt* e = VG_(HT_lookup)(contexts, h); e; e = e->next) {
      const CpNode* c = cp_nodes[e->node];
      if (e->key != h || c->base != fn->id || c->n_callers != k) continue;
      UInt i;
      for (i = 0; i < k && c->callers[i] == callers[i]; i++) ;
      if (i == k) return cp_nodes[e->node];
   }
   /* named as callgrind does: fn'caller'caller's caller */
   SizeT len = VG_(strlen)(fn->name) + 1;
   for (UInt i = 0; i < k; i++) len += VG_(strlen)(cp_nodes[callers[i]]->name) + 1;
   HChar* name = VG_(malloc)("cp.nodes.ctxname", len);
   SizeT off = VG_(sprintf)(name, "%s", fn->name);
   for (UInt i = 0; i < k; i++) off += VG_(sprintf)(name + off, "'%s", cp_nodes[callers[i]]->name);
   CpNode* n = new_node(CP_KIND_FUNCTION, name, fn->object, fn->file, fn->dir, fn->line, fn->entry);
   VG_(free)(name);
   n->base = fn->id;
   /* the function's patterns, and those that name this context */
   n->collect_in |= fn->collect_in;
   n->per_call |= fn->per_call;
   n->n_callers = k;
   n->callers = VG_(malloc)("cp.nodes.callers", (k ? k : 1) * sizeof(UInt));
   for (UInt i = 0; i < k; i++) n->callers[i] = callers[i];
   NameEnt* e = VG_(malloc)("cp.nodes.ctxent", sizeof(NameEnt));
   e->key = h;
   e->node = n->id;
   VG_(HT_add_node)(contexts, e);
   return n;
}

/* ---- phases ---- */

void cp_phase_begin(const HChar* name)
{
   if (cp_n_phases == phases_cap) {
      phases_cap *= 2;
      cp_phases = VG_(realloc)("cp.phases", cp_phases, phases_cap * sizeof(CpPhase));
   }
   cp_phases[cp_n_phases].name = VG_(strdup)("cp.phases.name", name);
   cp_phases[cp_n_phases].start = cp_clock;
   cp_cur_phase = cp_n_phases++;
   cp_threads_new_phase();
}
