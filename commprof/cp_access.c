/* commprof: the per-access helpers (see cp_access.h).
 *
 * A load looks up the producers of its bytes in the shadow map; when they are
 * all the same (the common case) it credits one edge in one step, otherwise
 * it splits the access into runs of equal producers.  A store writes the
 * storing context into the shadow entries of its bytes.
 *
 * The optional measurements (time slices, first-read bytes, data objects)
 * sit behind flags that are constant for the run, so that with the default
 * options they cost a predictable branch each. */

#include "cp_global.h"
#include "cp_access.h"
#include "cp_shadow.h"
#include "cp_edges.h"
#include "cp_callstack.h"
#include "cp_nodes.h"
#include "cp_objects.h"
#include "cp_timeline.h"
#include "cp_firstread.h"
#include "cp_percall.h"
#include "cp_options.h"
#include "cp_libreads.h"
#include "cp_heap.h"

Bool cp_ignore_stack;
Bool cp_load_extras;         /* time slices or first-read bytes are on */
UInt cp_hot_flags = CP_HOT_NOCOLLECT;

void cp_hot_flags_update(void)
{
   cp_hot_flags = (cp_redirect_node != NULL ? CP_HOT_REDIRECT : 0)
                | (cp_collect_mask == 0 ? CP_HOT_NOCOLLECT : 0)
                | (cp_load_extras ? CP_HOT_LOADEXTRA : 0)
                | (cp_clo_first_read ? CP_HOT_FIRSTREAD : 0)
                | (cp_book_sp != 0 ? CP_HOT_BOOK : 0)
                | (cp_libreads_any(&cp_libreads) || cp_libreads_others ? CP_HOT_LIBREADS : 0);
}

static void lib_written(Addr a, UWord sz);

static inline Bool on_current_stack(Addr a)
{
   return a - cp_cur_stack_lo <= cp_cur_stack_span;
}

/* What a run of n bytes at a, produced by p and read by c, adds besides the
   edge itself. */
static void load_extras(UInt p, UInt c, Addr a, SizeT n, CpEdge* e)
{
   UInt cn = cp_ctxs[c].node;
   if (cp_clo_time_slices && cp_ctxs[p].node != cn) cp_nodes[cn]->comm_in += n;
   if (cp_clo_first_read) e->first_read += cp_firstread_load(cn, a, n);
   /* a call's record counts its own loads, not those of the lazy bindings
      and library data the call's library calls use */
   if (cp_percall_active && cp_nodes[cn]->kind != CP_KIND_SPECIAL)
      cp_percall_load(cp_ctxs[p].node, n);
}

/* The producers already counted as an access of a load: one load's, or
   the loads of one instruction's pieces (see the grouped accesses below). */
#define CP_SEEN_MAX 128
typedef struct { UInt n; UInt p[CP_SEEN_MAX]; UInt c[CP_SEEN_MAX]; } CpSeen;

/* The bytes [a, a+sz) of a load by context c, run by run of one producer;
   each edge counts an access once per load (seen). */
static void load_runs(Addr a, SizeT sz, UInt c, CpSeen* seen)
{
   Addr end = a + sz;
   Addr x = a;
   while (x < end) {
      CpWriter p;
      Addr y = cp_shadow_run(&cp_shadow, x, end, &p);
      CpEdge* e = cp_edge_get(&cp_edges, p, c);
      e->bytes += y - x;
      cp_addrset_add_range(&e->addrs, x, y - x);
      Bool dup = False, same_node = False;
      for (UInt i = 0; i < seen->n; i++) {
         if (seen->c[i] != c) continue;
         if (seen->p[i] == p) { dup = True; break; }
         if (cp_ctxs[seen->p[i]].node == cp_ctxs[p].node) same_node = True;
      }
      if (!dup) {
         e->accesses++;
         /* the same load already counts for this producer function through
            another of its threads: the function-level edge counts it once */
         if (same_node) e->dup_accesses++;
         if (seen->n < CP_SEEN_MAX) {
            seen->p[seen->n] = p;
            seen->c[seen->n++] = c;
         }
      }
      if (UNLIKELY(cp_load_extras)) load_extras(p, c, x, y - x, e);
      x = y;
   }
}

/* Loads whose bytes have several producers. */
static void load_mixed(Addr a, SizeT sz, UInt c)
{
   CpSeen seen;
   seen.n = 0;
   load_runs(a, sz, c, &seen);
}

/* The edge (p, c) of a load by node n that is none of the CP_NODE_ECACHE
   it remembers (newest first; a loop reading the arrays of a few producers
   alternates between as many): from the table, in place of the oldest. */
static CpEdge* node_edge_fill(CpNode* n, UInt p, UInt c)
{
   CpEdge* e = cp_edge_get(&cp_edges, p, c);
   for (UInt j = CP_NODE_ECACHE - 1; j > 0; j--) {
      n->ecache_key[j] = n->ecache_key[j - 1];
      n->ecache_edge[j] = n->ecache_edge[j - 1];
   }
   n->ecache_key[0] = cp_edge_key(p, c);
   n->ecache_edge[0] = e;
   return e;
}

/* The edge (p, c) of a load by node n when it is not n's newest. */
static CpEdge* node_edge_miss(CpNode* n, UInt p, UInt c)
{
   ULong key = cp_edge_key(p, c);
   for (UInt j = 1; j < CP_NODE_ECACHE; j++)
      if (n->ecache_key[j] == key) return (CpEdge*)n->ecache_edge[j];
   return node_edge_fill(n, p, c);
}

static inline __attribute__((always_inline)) void credit_one(UInt p, UInt c, Addr a, SizeT sz,
                                                             CpNode* n)
{
   CpEdge* e = LIKELY(n->ecache_key[0] == cp_edge_key(p, c)) ? (CpEdge*)n->ecache_edge[0]
                                                             : node_edge_miss(n, p, c);
   e->bytes += sz;
   e->accesses++;
   if (LIKELY(sz <= 64)) cp_addrset_add_small(&e->addrs, a, sz);
   else cp_addrset_add_range(&e->addrs, a, sz);
   if (UNLIKELY(cp_load_extras)) load_extras(p, c, a, sz, e);
}

/* The producer of every byte of [a, a+sz), which lie within the chunk of
   slot s, into *p; False if they have several.  With quick (the fast path)
   also False when telling would take more than one word compare: more than
   8 entries of a compact chunk (coarse or fine), a wide chunk. */
static inline __attribute__((always_inline)) Bool one_producer(Addr a, SizeT sz, CpSlot s,
                                                               Bool quick, UInt* p)
{
   if (CP_SLOT_IS_UNIFORM(s)) {              /* the whole chunk has one producer */
      *p = CP_SLOT_WRITER(s);
      return True;
   }
   Addr off = a & (CP_CHUNK_SIZE - 1);
   if (LIKELY(CP_SLOT_IS_COARSE(s))) {       /* an index per 4-byte word */
      const CpNChunk* ch = CP_SLOT_NCHUNK(s);
      const UChar* b = ch->b + (off >> CP_COARSE_LOG2);
      UInt in = (UInt)(off & ((1u << CP_COARSE_LOG2) - 1));
      /* within one word (an aligned int or float): nothing to compare */
      if (in + sz > (1u << CP_COARSE_LOG2)) {
         UInt nw = (UInt)((in + sz + (1u << CP_COARSE_LOG2) - 1) >> CP_COARSE_LOG2);   /* words */
         if (quick && UNLIKELY(nw > 8)) return False;
         if (UNLIKELY(!cp_shadow_same_bytes(b, nw))) return False;
      }
      *p = ch->pal[b[0]];
      return True;
   }
   UInt g  = cp_shadow.gran_log2;
   UInt i  = (UInt)(off >> g);
   UInt nb = (UInt)(((off + sz - 1) >> g) - (off >> g)) + 1;
   if (LIKELY(!CP_SLOT_IS_WIDE(s))) {
      const CpNChunk* ch = CP_SLOT_NCHUNK(s);
      const UChar* b = ch->b + i;
      /* at granularity 1 nb is sz, a constant in the sized helpers */
      if (LIKELY(g == 0)) {
         if (quick && sz > 8) return False;
         if (UNLIKELY(!cp_shadow_same_bytes(b, (UInt)sz))) return False;
      } else {
         if (quick && nb > 8) return False;
         if (UNLIKELY(!cp_shadow_same_bytes(b, nb))) return False;
      }
      *p = ch->pal[b[0]];
      return True;
   }
   if (quick) return False;
   const UInt* e = CP_SLOT_CHUNK(s)->e + i;
   if (UNLIKELY(!cp_shadow_same_entries(e, nb, e[0]))) return False;
   *p = e[0];
   return True;
}

static inline __attribute__((always_inline)) void do_load(Addr a, SizeT sz, UInt c, CpNode* n)
{
   UInt p;
   if (LIKELY((a & (CP_CHUNK_SIZE - 1)) + sz <= CP_CHUNK_SIZE)
       && LIKELY(one_producer(a, sz, cp_shadow_slot(&cp_shadow, a), False, &p))) {
      credit_one(p, c, a, sz, n);
      return;
   }
   load_mixed(a, sz, c);
}

enum { K_LOAD = 1, K_STORE = 2, K_MODIFY = 3 };

/* A store of the program's code (not a run-time library's, not for the
   library's bookkeeping: lib) while a library call has recorded reads (a
   callback's, say the read function of an fopencookie stream filling the
   buffer the fgets that called it reads, or another thread's): its bytes
   count again at the call's next read. */
static inline __attribute__((always_inline)) void program_store(Addr a, UWord sz, UInt k, Bool lib)
{
   if ((k & K_STORE) && UNLIKELY(cp_hot_flags & CP_HOT_LIBREADS) && !lib) lib_written(a, sz);
}

/* Is an access of the code outside the nodes made for the library's
   bookkeeping code (cp_h_book_enter), so (library data)'s? */
static inline __attribute__((always_inline)) Bool for_bookkeeping(void)
{
   return UNLIKELY(cp_hot_flags & CP_HOT_BOOK) && cp_book_active();
}

/* The node and context charged with an access by the code of node function
   sn (NULL: code outside the nodes, charged to the innermost node frame, or
   to (library data) while that code works for the library's bookkeeping).
   True: (library data), whose accesses are no data object's. */
static inline __attribute__((always_inline)) Bool charged(CpNode* sn, CpNode** n, UInt* c)
{
   if (sn) {
      *n = cp_effective(sn);
      *c = cp_cur_ctx_of((*n)->id);
      return False;
   }
   if (for_bookkeeping()) {
      *n = cp_node_libdata();
      *c = cp_cur_ctx_of((*n)->id);
      return True;
   }
   *n = cp_cur_node;
   *c = cp_cur_ctx;
   return False;
}

/* An instruction whose one memory operand VEX makes several accesses
   (pieces): FXSAVE, FXRSTOR, XSAVE and XRSTOR (a helper call for the x87
   part, another for MXCSR, which the first covers too, an access per vector
   register), the AVX masked moves and the gathers (an access per element);
   or that reads two operands (cmps).  The generated code calls
   cp_h_group_begin before such an instruction's accesses and
   cp_h_group_access for each of them: the instruction is one load (one
   store) for each node it is charged to, an access once for each edge and
   object, and a byte that two pieces of the same direction cover counts
   once. */
#define GROUP_PIECES 64
typedef struct { UInt n; Addr lo[GROUP_PIECES]; Addr hi[GROUP_PIECES]; } Pieces;
#define GROUP_NODES 4
enum { G_LOAD = 1, G_STACK_LOAD = 2, G_STORE = 4, G_STACK_STORE = 8 };
static struct {
   Pieces ld, st;                  /* the pieces so far, of each direction */
   UInt nn;                        /* nodes charged so far, and what counted */
   CpNode* node[GROUP_NODES];
   UInt done[GROUP_NODES];
   CpSeen seen;                    /* the edges that counted an access */
} grp;

/* Is this the first piece of the instruction that counts what (G_...) for
   node n? */
static Bool group_first(CpNode* n, UInt what)
{
   UInt i = 0;
   while (i < grp.nn && grp.node[i] != n) i++;
   if (i == grp.nn) {
      if (grp.nn == GROUP_NODES) return True;
      grp.node[i] = n;
      grp.done[i] = 0;
      grp.nn++;
   }
   if (grp.done[i] & what) return False;
   grp.done[i] |= what;
   return True;
}

/* One access of kind k (load, store or both) of sz bytes at a, charged to
   node n and context c; grouped: a piece of an instruction's operand (see
   above). */
static inline __attribute__((always_inline)) void access_as(Addr a, UWord sz, CpNode* n, UInt c,
                                                            UInt k, Bool objects, Bool grouped)
{
   Bool stack = on_current_stack(a);
   if (UNLIKELY(stack) && cp_ignore_stack) return;
   Bool counting = cp_collect_mask != 0;
   if ((k & K_LOAD) && counting) {
      if (!grouped || group_first(n, G_LOAD)) n->loads++;
      n->bytes_read += sz;
      if (UNLIKELY(stack)) {
         if (!grouped || group_first(n, G_STACK_LOAD)) n->stack_loads++;
         n->stack_bytes_read += sz;
      }
      if (objects) {
         if (grouped) cp_objects_load_grouped(a, sz, c, n);
         else cp_objects_load(a, sz, c, n);
      }
      if (grouped) load_runs(a, sz, c, &grp.seen);
      else do_load(a, sz, c, n);
   }
   if (k & K_STORE) {
      if (counting) {
         if (!grouped || group_first(n, G_STORE)) n->stores++;
         n->bytes_written += sz;
         if (UNLIKELY(stack)) {
            if (!grouped || group_first(n, G_STACK_STORE)) n->stack_stores++;
            n->stack_bytes_written += sz;
         }
         if (objects) {
            if (grouped) cp_objects_store_grouped(a, sz, n);
            else cp_objects_store(a, sz, n);
         }
      }
      /* the producer is recorded even while not collecting, so that what is
         read after collection starts is attributed right */
      cp_shadow_store(&cp_shadow, a, sz, c);
      if (UNLIKELY(cp_clo_first_read)) cp_firstread_store(a, sz);
   }
}

/* One access of kind k (load, store or both) of sz bytes at a, by the code
   of node function sn (NULL: code outside the nodes, charged to the
   innermost node frame, or to (library data) for the library's
   bookkeeping).  Inlined into each helper with constant k, sn-ness and
   objects, so that each helper keeps only its own path. */
static inline __attribute__((always_inline)) void access(Addr a, UWord sz, CpNode* sn, UInt k, Bool objects)
{
   CpNode* n;
   UInt c;
   Bool lib = charged(sn, &n, &c);
   program_store(a, sz, k, lib);
   access_as(a, sz, n, c, k, objects && !lib, False);
}

VG_REGPARM(3) void cp_h_load_n   (Addr a, UWord sz, CpNode* n) { access(a, sz, n,    K_LOAD,   False); }
VG_REGPARM(2) void cp_h_load_d   (Addr a, UWord sz)            { access(a, sz, NULL, K_LOAD,   False); }
VG_REGPARM(3) void cp_h_store_n  (Addr a, UWord sz, CpNode* n) { access(a, sz, n,    K_STORE,  False); }
VG_REGPARM(2) void cp_h_store_d  (Addr a, UWord sz)            { access(a, sz, NULL, K_STORE,  False); }
VG_REGPARM(3) void cp_h_modify_n (Addr a, UWord sz, CpNode* n) { access(a, sz, n,    K_MODIFY, False); }
VG_REGPARM(2) void cp_h_modify_d (Addr a, UWord sz)            { access(a, sz, NULL, K_MODIFY, False); }

VG_REGPARM(3) void cp_h_modify_no(Addr a, UWord sz, CpNode* n) { access(a, sz, n,    K_MODIFY, True); }
VG_REGPARM(2) void cp_h_modify_do(Addr a, UWord sz)            { access(a, sz, NULL, K_MODIFY, True); }

static __attribute__((noinline)) void addrset_add_slow(CpAddrSet* as, Addr a, SizeT sz)
{
   if (LIKELY(sz <= 64)) cp_addrset_add_small(as, a, sz);
   else cp_addrset_add_range(as, a, sz);
}

/* For the fast paths: the node and context charged with an access at a by
   the code of node function sn (NULL: code outside the nodes), as in
   access(), and whether a is on the thread's stack; node NULL (take the
   slow path) if one of the reasons in stop holds, the context is not made
   yet, or a is on the stack and --ignore-stack=yes. */
typedef struct { CpNode* n; UInt c; Bool stack; } Who;
static inline __attribute__((always_inline)) Who fast_who(CpNode* sn, Addr a, UInt stop)
{
   Who w = { NULL, 0, False };
   UInt f = cp_hot_flags;
   if (!sn) stop |= CP_HOT_BOOK;        /* a constant in each helper */
   if (UNLIKELY(f & stop)) return w;
   w.stack = on_current_stack(a);
   if (UNLIKELY(w.stack) && cp_ignore_stack) return w;
   if (sn) {
      CpNode* n = UNLIKELY(f & CP_HOT_REDIRECT) ? cp_effective(sn) : sn;
      w.c = cp_cur_map[n->id];
      if (LIKELY(w.c != 0)) w.n = n;
   } else {
      w.n = cp_cur_node;
      w.c = cp_cur_ctx;
   }
   return w;
}

/* What the fast paths count for a load (on edge e) and a store of sz
   bytes by node n, as access() does. */
static inline __attribute__((always_inline)) void count_load(CpNode* n, CpEdge* e, UWord sz,
                                                             Bool stack)
{
   e->bytes += sz;
   e->accesses++;
   n->loads++;
   n->bytes_read += sz;
   if (UNLIKELY(stack)) {
      n->stack_loads++;
      n->stack_bytes_read += sz;
   }
}

static inline __attribute__((always_inline)) void count_store(CpNode* n, UWord sz, Bool stack)
{
   n->stores++;
   n->bytes_written += sz;
   if (UNLIKELY(stack)) {
      n->stack_stores++;
      n->stack_bytes_written += sz;
   }
}

/* The rest of load_fast when the edge is none of the node's last
   CP_NODE_ECACHE, which load_fast has compared (a loop reading from more
   producers). */
static __attribute__((noinline)) void load_other_edge(Addr a, UWord sz, CpNode* n, UInt p,
                                                      UInt c, Bool stack)
{
   CpEdge* e = node_edge_fill(n, p, c);
   count_load(n, e, sz, stack);
   addrset_add_slow(&e->addrs, a, sz);
}

/* The first half of load_fast: who loads, and the one producer of the
   bytes; False (nothing changed) if either is not known the quick way. */
static inline __attribute__((always_inline)) Bool load_fast_who(Addr a, UWord sz, CpNode* sn,
                                                                Who* who, UInt* p, UInt stop)
{
   *who = fast_who(sn, a, stop);
   if (UNLIKELY(who->n == NULL)) return False;
   Addr cn = a >> CP_CHUNK_BITS;
   if (UNLIKELY((a & (CP_CHUNK_SIZE - 1)) + sz > CP_CHUNK_SIZE) || UNLIKELY(cn >= CP_PRIMARY_SIZE))
      return False;
   return one_producer(a, sz, cp_shadow.primary[cn], True, p);
}

/* The second half: the edge (p, who's context) and its counts. */
static inline __attribute__((always_inline)) void load_fast_credit(Addr a, UWord sz, Who who,
                                                                   UInt p)
{
   typedef char ecache_is_four[CP_NODE_ECACHE == 4 ? 1 : -1] __attribute__((unused));
   CpNode* n = who.n;
   UInt c = who.c;
   Bool stack = who.stack;
   ULong key = cp_edge_key(p, c);
   CpEdge* e;
   if (LIKELY(n->ecache_key[0] == key)) e = (CpEdge*)n->ecache_edge[0];
   else if (n->ecache_key[1] == key) e = (CpEdge*)n->ecache_edge[1];
   else if (n->ecache_key[2] == key) e = (CpEdge*)n->ecache_edge[2];
   else if (n->ecache_key[3] == key) e = (CpEdge*)n->ecache_edge[3];
   else {
      load_other_edge(a, sz, n, p, c, stack);                /* a jump (void helpers) */
      return;
   }
   count_load(n, e, sz, stack);
   UInt sh = (UInt)(a & 63);
   Addr bm = a >> CP_PAGE_BITS;
   CpBmCacheEnt* be = cp_addrset_bm_ent(&e->addrs, bm);
   if (LIKELY(sh + sz <= 64) && LIKELY(be->key == bm)) {
      ULong mask = (sz == 64 ? ~0ULL : ((1ULL << sz) - 1)) << sh;
      ULong* w = &be->bits[(a & (CP_PAGE_ADDRS - 1)) >> 6];
      ULong fresh = mask & ~*w;
      if (LIKELY(fresh == 0)) return;
      if (LIKELY(fresh == mask)) {
         *w |= fresh;
         cp_addrset_counted(&e->addrs, be->page, a, (UInt)sz);
         return;
      }
   }
   /* another bitmap, or partly new addresses: the general path, called last
      so that the call is a jump */
   addrset_add_slow(&e->addrs, a, sz);
}

/* The common load: the node's context is known, collection is on, the
   bytes have one producer that the chunk gives with at most one word
   compare (a uniform chunk, up to 8 entries of a compact one: words of a
   coarse chunk, blocks of a fine one), and the edge is one of the node's last CP_NODE_ECACHE (four:
   the compares in load_fast_credit).  Accesses to the thread's own stack count as such
   here too.
   Then it does everything access() would do and returns True (the
   addresses go to the edge's set inline when their bitmap is cached, else
   through a call made last, a jump); otherwise it changes nothing and
   returns False.  Its common path has no call, so the helpers built on it
   save no registers. */
static inline __attribute__((always_inline)) Bool load_fast(Addr a, UWord sz, CpNode* sn)
{
   Who who;
   UInt p;
   if (UNLIKELY(!load_fast_who(a, sz, sn, &who, &p, CP_HOT_NOCOLLECT | CP_HOT_LOADEXTRA))) return False;
   load_fast_credit(a, sz, who, p);
   return True;
}

/* The same with --objects: the objects' part first, given the producer. */
static inline __attribute__((always_inline)) Bool objects_load_fast(Addr a, UWord sz, CpNode* sn)
{
   Who who;
   UInt p;
   if (UNLIKELY(!load_fast_who(a, sz, sn, &who, &p, CP_HOT_NOCOLLECT | CP_HOT_LOADEXTRA))) return False;
   cp_objects_load_from(a, sz, who.c, who.n, p);
   load_fast_credit(a, sz, who, p);
   return True;
}

static __attribute__((noinline)) void load_slow_n(Addr a, UWord sz, CpNode* sn)
{
   access(a, sz, sn, K_LOAD, False);
}

static __attribute__((noinline)) void load_slow_d(Addr a, UWord sz)
{
   access(a, sz, NULL, K_LOAD, False);
}

/* The rest of store_fast when the shadow map cannot take the store the
   quick way. */
static __attribute__((noinline)) void store_other(Addr a, UWord sz, CpNode* n, UInt c, Bool stack)
{
   count_store(n, sz, stack);
   cp_shadow_store(&cp_shadow, a, sz, c);
}

/* The common store: as for load_fast, the node's context is known and
   collection is on.  Then it does everything access() would do (the shadow
   map's part the quick way, cp_shadow_store_quick, or else out of line)
   and returns True; otherwise it changes nothing and returns False. */
static inline __attribute__((always_inline)) Bool store_fast_as(Addr a, UWord sz, Who who,
                                                                Bool objects)
{
   if (UNLIKELY(who.n == NULL)) return False;
   if (objects) cp_objects_store(a, sz, who.n);
   CpNode* n = who.n;
   UInt c = who.c;
   Bool stack = who.stack;
   if (UNLIKELY(!cp_shadow_store_quick(&cp_shadow, a, sz, c))) {
      store_other(a, sz, n, c, stack);                       /* a jump (void helpers) */
      return True;
   }
   count_store(n, sz, stack);
   return True;
}

/* (stores of the program's code step aside while a library call it
   interrupted has recorded reads: CP_HOT_LIBREADS) */
static inline __attribute__((always_inline)) Bool store_fast(Addr a, UWord sz, CpNode* sn)
{
   return store_fast_as(a, sz, fast_who(sn, a, CP_HOT_NOCOLLECT | CP_HOT_FIRSTREAD | CP_HOT_LIBREADS),
                        False);
}

/* The same for the stores of a run-time library's code, which lib_first has
   done the library call's part of. */
static inline __attribute__((always_inline)) Bool lib_store_fast(Addr a, UWord sz)
{
   return store_fast_as(a, sz, fast_who(NULL, a, CP_HOT_NOCOLLECT | CP_HOT_FIRSTREAD), False);
}

/* The same with --objects: the objects' part first. */
static inline __attribute__((always_inline)) Bool objects_store_fast(Addr a, UWord sz, CpNode* sn)
{
   return store_fast_as(a, sz, fast_who(sn, a, CP_HOT_NOCOLLECT | CP_HOT_FIRSTREAD | CP_HOT_LIBREADS),
                        True);
}

static __attribute__((noinline)) void store_slow_n(Addr a, UWord sz, CpNode* sn)
{
   access(a, sz, sn, K_STORE, False);
}

static __attribute__((noinline)) void store_slow_d(Addr a, UWord sz)
{
   access(a, sz, NULL, K_STORE, False);
}

/* The common read-modify-write instruction (add $1, (mem)): a load and a
   store of the same bytes, which the generated code passes to one helper
   (flush_accesses).  Its fast path is load_fast's and then store_fast's,
   with who loads and stores found once; else the two are done one after
   the other, as two helpers would. */
static inline __attribute__((always_inline)) Bool modify_fast(Addr a, UWord sz, CpNode* sn)
{
   Who who;
   UInt p;
   if (UNLIKELY(!load_fast_who(a, sz, sn, &who, &p, CP_HOT_NOCOLLECT | CP_HOT_LOADEXTRA
                                                    | CP_HOT_FIRSTREAD | CP_HOT_LIBREADS)))
      return False;
   load_fast_credit(a, sz, who, p);
   store_fast_as(a, sz, who, False);
   return True;
}

/* With --objects: the objects' part of a load or store, as access() does
   it with objects, before the rest, which then takes the fast paths. */
static inline __attribute__((always_inline)) void objects_part(Addr a, UWord sz, CpNode* sn, UInt k)
{
   CpNode* n;
   UInt c;
   if (charged(sn, &n, &c)) return;         /* (library data)'s: no object */
   if (UNLIKELY(on_current_stack(a)) && cp_ignore_stack) return;
   if (cp_collect_mask == 0) return;
   if (k == K_LOAD) cp_objects_load(a, sz, c, n);
   else cp_objects_store(a, sz, n);
}

/* The load and store helpers of --objects, node (no) and outside (do): the
   fast paths do the objects' part too (loads share the work of finding the
   producer), the slow ones do it first. */
#define CP_OBJECTS_HELPERS(KIND, K) \
   VG_REGPARM(3) void cp_h_##KIND##_no(Addr a, UWord sz, CpNode* n) \
   { if (objects_##KIND##_fast(a, sz, n)) return; \
     objects_part(a, sz, n, K); KIND##_slow_n(a, sz, n); } \
   VG_REGPARM(2) void cp_h_##KIND##_do(Addr a, UWord sz) \
   { if (objects_##KIND##_fast(a, sz, NULL)) return; \
     objects_part(a, sz, NULL, K); KIND##_slow_d(a, sz); }
CP_OBJECTS_HELPERS(load, K_LOAD)
CP_OBJECTS_HELPERS(store, K_STORE)

/* The same for the common sizes, with the size a constant of the helper.
   Generated code passes a node helper its node, never NULL. */
#define CP_SIZED_HELPERS(SZ) \
   VG_REGPARM(2) void cp_h_load_n##SZ  (Addr a, CpNode* n) \
   { if (n == NULL) __builtin_unreachable(); \
     if (!load_fast(a, SZ, n)) load_slow_n(a, SZ, n); } \
   VG_REGPARM(1) void cp_h_load_d##SZ  (Addr a) \
   { if (!load_fast(a, SZ, NULL)) load_slow_d(a, SZ); } \
   VG_REGPARM(2) void cp_h_store_n##SZ (Addr a, CpNode* n) \
   { if (n == NULL) __builtin_unreachable(); \
     if (!store_fast(a, SZ, n)) store_slow_n(a, SZ, n); } \
   VG_REGPARM(1) void cp_h_store_d##SZ (Addr a) \
   { if (!store_fast(a, SZ, NULL)) store_slow_d(a, SZ); } \
   VG_REGPARM(2) void cp_h_modify_n##SZ(Addr a, CpNode* n) \
   { if (n == NULL) __builtin_unreachable(); \
     if (modify_fast(a, SZ, n)) return; \
     if (!load_fast(a, SZ, n)) load_slow_n(a, SZ, n); \
     if (!store_fast(a, SZ, n)) store_slow_n(a, SZ, n); } \
   VG_REGPARM(1) void cp_h_modify_d##SZ(Addr a) \
   { if (modify_fast(a, SZ, NULL)) return; \
     if (!load_fast(a, SZ, NULL)) load_slow_d(a, SZ); \
     if (!store_fast(a, SZ, NULL)) store_slow_d(a, SZ); }
CP_SIZED_HELPERS(1)
CP_SIZED_HELPERS(2)
CP_SIZED_HELPERS(4)
CP_SIZED_HELPERS(8)
CP_SIZED_HELPERS(16)
CP_SIZED_HELPERS(32)

/* ---- the code of the run-time libraries ---- */

/* An access of a run-time library's code to the library's own data (see
   cp_access.h): charged to (library data) of the running thread, not to a
   region or a caller context, and never to a data object. */
static __attribute__((noinline)) void lib_data_access(Addr a, UWord sz, UInt k, Bool grouped)
{
   CpNode* n = cp_node_libdata();
   access_as(a, sz, n, cp_cur_ctx_of(n->id), k, False, grouped);
}

Addr cp_cur_tp;

static inline __attribute__((always_inline)) Bool lib_own(Addr a, const CpLibData* d)
{
   return UNLIKELY(a - d->lo < d->span) || UNLIKELY(a - d->lo2 < d->span2)
          /* (with no thread pointer known, 0: the first page, never mapped) */
          || UNLIKELY(a - cp_cur_tp < CP_TP_DESC_SIZE)
          || (UNLIKELY(a - cp_libheap_lo < cp_libheap_span) && cp_heap_lib_owned(a));
}

/* ---- a library call's reads of the program's memory ---- */

CpLibReads cp_libreads;

/* Does the library's code read or write its own frames at a (below the
   stack pointer of the call from the program)? */
static inline Bool lib_frame(Addr a)
{
   return a < cp_libreads.sp && a >= cp_cur_stack_lo;
}

static void group_part(Addr a, UWord sz, CpNode* sn, UInt k);

/* A load of sz bytes at a of memory the library does not own: the bytes
   the current library call has read already do not count again (see
   cp_libreads.h).  True: count the whole access as the "_d" helpers do;
   False: done here (nothing new, or the new bytes counted run by run, as
   pieces of the instruction's operand if grouped). */
static __attribute__((noinline)) Bool lib_load_once(Addr a, UWord sz, Bool grouped)
{
   if (lib_frame(a) || sz > 64) return True;
   ULong fresh = cp_libreads_load(&cp_libreads, a, (UInt)sz);
   cp_hot_flags |= CP_HOT_LIBREADS;          /* it has reads now, until it returns */
   cp_top_sp_libreads();
   ULong all = sz == 64 ? ~0ULL : (1ULL << sz) - 1;
   if (LIKELY(fresh == all)) return True;
   while (fresh) {
      UInt from = (UInt)__builtin_ctzll(fresh);
      UInt to = from;
      while (to < sz && (fresh >> to & 1)) to++;
      if (grouped) group_part(a + from, to - from, NULL, K_LOAD);
      else if (cp_clo.objects) cp_h_load_do(a + from, to - from);
      else cp_h_load_d(a + from, to - from);
      fresh &= ~((to == 64 ? ~0ULL : (1ULL << to) - 1));
   }
   return False;
}

/* A store or the write of a modify at a: its bytes count again at the
   library call's next read. */
static void lib_written(Addr a, UWord sz)
{
   if (UNLIKELY(cp_libreads_any(&cp_libreads)) && !lib_frame(a))
      cp_libreads_store(&cp_libreads, a, sz);
   if (UNLIKELY(cp_libreads_others)) cp_libreads_cut_others(a, sz);   /* and other threads' */
}

/* What an access of kind k of a library's code (data d) does before the
   "_d" helper's part: an access to the library's own data is (library
   data)'s, a load counts only the bytes new to the library call, a store
   makes its bytes count again.  True: the caller counts the whole access
   as the "_d" helpers do (as pieces of an instruction's operand if
   grouped); False: done. */
static inline __attribute__((always_inline)) Bool lib_first(Addr a, UWord sz, const CpLibData* d,
                                                            UInt k, Bool grouped)
{
   if (lib_own(a, d)) {
      lib_data_access(a, sz, k, grouped);
      return False;
   }
   /* working for the library's bookkeeping: the "_d" part charges it to
      (library data) (charged), and the library call's reads are not
      concerned */
   if (for_bookkeeping()) return True;
   if (k == K_LOAD) return lib_load_once(a, sz, grouped);
   lib_written(a, sz);
   return True;
}

/* Anything else is the "_d" helper's (the "_do" one with --objects). */
#define CP_LIB_HELPERS(KIND, K) \
   VG_REGPARM(3) void cp_h_##KIND##_l(Addr a, UWord sz, const CpLibData* d) \
   { if (!lib_first(a, sz, d, K, False)) return; \
     if (cp_clo.objects) cp_h_##KIND##_do(a, sz); \
     else cp_h_##KIND##_d(a, sz); }
CP_LIB_HELPERS(load, K_LOAD)
CP_LIB_HELPERS(store, K_STORE)
CP_LIB_HELPERS(modify, K_MODIFY)

/* Without --objects, for the common sizes. */
#define CP_SIZED_LIB_HELPERS(SZ) \
   VG_REGPARM(2) void cp_h_load_l##SZ(Addr a, const CpLibData* d) \
   { if (lib_first(a, SZ, d, K_LOAD, False)) cp_h_load_d##SZ(a); } \
   VG_REGPARM(2) void cp_h_store_l##SZ(Addr a, const CpLibData* d) \
   { if (lib_first(a, SZ, d, K_STORE, False) && !lib_store_fast(a, SZ)) store_slow_d(a, SZ); } \
   VG_REGPARM(2) void cp_h_modify_l##SZ(Addr a, const CpLibData* d) \
   { if (lib_first(a, SZ, d, K_MODIFY, False)) cp_h_modify_d##SZ(a); }
CP_SIZED_LIB_HELPERS(1)
CP_SIZED_LIB_HELPERS(2)
CP_SIZED_LIB_HELPERS(4)
CP_SIZED_LIB_HELPERS(8)
CP_SIZED_LIB_HELPERS(16)
CP_SIZED_LIB_HELPERS(32)

/* ---- the pieces of an instruction's memory operand (see grp) ---- */

void cp_h_group_begin(void)
{
   grp.ld.n = grp.st.n = 0;
   grp.nn = 0;
   grp.seen.n = 0;
   if (cp_clo.objects) cp_objects_group_begin();
}

/* The parts of [a, e) that no piece of ps covers, into lo[] and hi[] (at
   most ps->n + 1 of them); then [a, e) is a piece of ps. */
static UInt new_parts(Pieces* ps, Addr a, Addr e, Addr* lo, Addr* hi)
{
   UInt k = 0;
   Addr x = a;
   while (x < e) {
      Addr covered = x, next = e;
      for (UInt i = 0; i < ps->n; i++) {
         if (ps->lo[i] <= x && x < ps->hi[i]) {
            if (ps->hi[i] > covered) covered = ps->hi[i];
         } else if (ps->lo[i] > x && ps->lo[i] < next) {
            next = ps->lo[i];
         }
      }
      if (covered > x) {
         x = covered < e ? covered : e;
      } else {
         lo[k] = x;
         hi[k++] = next;
         x = next;
      }
   }
   if (ps->n < GROUP_PIECES) {
      ps->lo[ps->n] = a;
      ps->hi[ps->n++] = e;
   }
   return k;
}

/* The bytes [a, a+sz) of a piece that count, of kind k (a load or a
   store), by the code of node function sn (NULL: code outside the nodes),
   as the other helpers charge them. */
static void group_part(Addr a, UWord sz, CpNode* sn, UInt k)
{
   CpNode* n;
   UInt c;
   Bool lib = charged(sn, &n, &c);
   program_store(a, sz, k, lib);
   access_as(a, sz, n, c, k, cp_clo.objects && !lib, True);
}

/* A piece of kind k of sz bytes at a, by the code of node function sn, or
   by a run-time library's code (sn NULL, d its data as for the "_l"
   helpers), or by other code (both NULL). */
void cp_h_group_access(Addr a, UWord sz, CpNode* sn, const CpLibData* d, UWord k)
{
   Addr lo[GROUP_PIECES + 1], hi[GROUP_PIECES + 1];
   for (UInt dir = K_LOAD; dir <= K_STORE; dir <<= 1) {
      if (!(k & dir)) continue;
      UInt m = new_parts(dir == K_LOAD ? &grp.ld : &grp.st, a, a + sz, lo, hi);
      for (UInt j = 0; j < m; j++) {
         Addr x = lo[j];
         UWord len = hi[j] - lo[j];
         if (d && !sn && !lib_first(x, len, d, dir, True)) continue;
         group_part(x, len, sn, dir);
      }
   }
}

void cp_h_masked_store(Addr a, UWord sz, ULong lo, ULong hi, CpNode* sn, const CpLibData* d)
{
   cp_h_group_begin();
   UWord i = 0;
   while (i < sz) {
      UWord j = i;
      while (j < sz && (((j < 8 ? lo >> (8 * j) : hi >> (8 * (j - 8))) & 0x80) != 0)) j++;
      if (j > i) cp_h_group_access(a + i, j - i, sn, d, K_STORE);
      i = j + 1;
   }
}

/* ---- writes that do not come from a store of the program ---- */

/* Bytes written by the kernel, the core or the heap count again at the next
   read of the library calls in progress (a fread whose buffer read()
   refills reads the new bytes): the running thread's, and those of the
   threads switched out in the middle of one (cp_libreads_others). */
static void libreads_written(Addr a, SizeT len)
{
   if (cp_libreads_any(&cp_libreads)) cp_libreads_store(&cp_libreads, a, len);
   if (UNLIKELY(cp_libreads_others)) cp_libreads_cut_others(a, len);
}

void cp_record_write_for(CpThread* t, Addr a, SizeT len, UInt w)
{
   cp_record_write(a, len, w);
   /* the thread a system call or signal wrote for, unless its call is one of
      the others already (not one of the start-up code, sp 0) */
   if (t && t != cp_cur_thread && !t->libreads_saved && cp_libreads_any(&t->libreads))
      cp_libreads_store(&t->libreads, a, len);
}

void cp_record_write(Addr a, SizeT len, UInt w)
{
   cp_shadow_set_range(&cp_shadow, a, len, w);
   if (cp_clo_first_read) cp_firstread_store(a, len);
   libreads_written(a, len);
}

void cp_record_copy(Addr dst, Addr src, SizeT len)
{
   cp_shadow_copy_range(&cp_shadow, dst, src, len);
   if (cp_clo_first_read) cp_firstread_store(dst, len);
   libreads_written(dst, len);
}
