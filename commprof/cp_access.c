/* commprof: the per-access helpers (see cp_access.h).
 *
 * A load looks up the producers of its bytes in the shadow map; when they are
 * all the same (the common case) it credits one edge in one step, otherwise
 * it splits the access into runs of equal producers.  A store writes the
 * storing context into the shadow entries of its bytes. */

#include "cp_global.h"
#include "cp_access.h"
#include "cp_shadow.h"
#include "cp_edges.h"
#include "cp_callstack.h"
#include "cp_nodes.h"
#include "cp_objects.h"

Bool cp_ignore_stack;

static inline Bool on_current_stack(Addr a)
{
   return a - cp_cur_stack_lo <= cp_cur_stack_hi - cp_cur_stack_lo;
}

/* Loads whose bytes have several producers. */
static void load_mixed(Addr a, SizeT sz, UInt c)
{
   UInt g   = cp_shadow.gran_log2;
   Addr end = a + sz;
   UInt seen[128];            /* producers already counted as an access */
   UInt nseen = 0;
   Addr x = a;
   while (x < end) {
      UInt p = cp_shadow_get(&cp_shadow, x);
      Addr y = ((x >> g) + 1) << g;            /* next block */
      while (y < end && y != 0 && cp_shadow_get(&cp_shadow, y) == p) y += (Addr)1 << g;
      if (y > end || y == 0) y = end;
      CpEdge* e = cp_edge_get(&cp_edges, p, c);
      e->bytes += y - x;
      cp_addrset_add_range(&e->addrs, x, y - x);
      Bool dup = False, same_node = False;
      for (UInt i = 0; i < nseen; i++) {
         if (seen[i] == p) { dup = True; break; }
         if (cp_ctxs[seen[i]].node == cp_ctxs[p].node) same_node = True;
      }
      if (!dup) {
         e->accesses++;
         /* the same load already counts for this producer function through
            another of its threads: the function-level edge counts it once */
         if (same_node) e->dup_accesses++;
         if (nseen < 128) seen[nseen++] = p;
      }
      x = y;
   }
}

static inline void do_load(Addr a, SizeT sz, UInt c)
{
   if (LIKELY((a & (CP_CHUNK_SIZE - 1)) + sz <= CP_CHUNK_SIZE)) {
      CpSlot s = cp_shadow_slot(&cp_shadow, a);
      if (CP_SLOT_IS_UNIFORM(s)) {              /* the whole chunk has one producer */
         cp_edge_credit(&cp_edges, CP_SLOT_WRITER(s), c, a, sz);
         return;
      }
      UInt  g  = cp_shadow.gran_log2;
      UInt* e  = CP_SLOT_CHUNK(s)->e + cp_shadow_index(&cp_shadow, a);
      UInt  nb = (UInt)(((a + sz - 1) >> g) - (a >> g)) + 1;
      UInt  p  = e[0];
      UInt  diff = 0;
      for (UInt i = 1; i < nb; i++) diff |= e[i] ^ p;
      if (LIKELY(diff == 0)) {
         cp_edge_credit(&cp_edges, p, c, a, sz);
         return;
      }
   }
   load_mixed(a, sz, c);
}

static inline void do_store(Addr a, SizeT sz, UInt c)
{
   cp_shadow_store(&cp_shadow, a, sz, c);
}

/* Counters of a load or store of sz bytes at a charged to node n; False if
   the access is left out (--ignore-stack=yes and a on the thread's stack). */
static inline Bool count_load(CpNode* n, Addr a, UWord sz)
{
   if (UNLIKELY(on_current_stack(a))) {
      if (cp_ignore_stack) return False;
      n->stack_loads++;
      n->stack_bytes_read += sz;
   }
   n->loads++;
   n->bytes_read += sz;
   return True;
}

static inline Bool count_store(CpNode* n, Addr a, UWord sz)
{
   if (UNLIKELY(on_current_stack(a))) {
      if (cp_ignore_stack) return False;
      n->stack_stores++;
      n->stack_bytes_written += sz;
   }
   n->stores++;
   n->bytes_written += sz;
   return True;
}

VG_REGPARM(3) void cp_h_load_n(Addr a, UWord sz, CpNode* n)
{
   if (count_load(n, a, sz)) do_load(a, sz, cp_cur_ctx_of(n->id));
}

VG_REGPARM(2) void cp_h_load_d(Addr a, UWord sz)
{
   if (count_load(cp_cur_node, a, sz)) do_load(a, sz, cp_cur_ctx);
}

VG_REGPARM(3) void cp_h_store_n(Addr a, UWord sz, CpNode* n)
{
   if (count_store(n, a, sz)) do_store(a, sz, cp_cur_ctx_of(n->id));
}

VG_REGPARM(2) void cp_h_store_d(Addr a, UWord sz)
{
   if (count_store(cp_cur_node, a, sz)) do_store(a, sz, cp_cur_ctx);
}

VG_REGPARM(3) void cp_h_modify_n(Addr a, UWord sz, CpNode* n)
{
   if (!count_load(n, a, sz)) return;
   count_store(n, a, sz);
   UInt c = cp_cur_ctx_of(n->id);
   do_load(a, sz, c);
   do_store(a, sz, c);
}

VG_REGPARM(2) void cp_h_modify_d(Addr a, UWord sz)
{
   if (!count_load(cp_cur_node, a, sz)) return;
   count_store(cp_cur_node, a, sz);
   do_load(a, sz, cp_cur_ctx);
   do_store(a, sz, cp_cur_ctx);
}

/* ---- with --objects=yes: the same, then the object of the address ---- */

VG_REGPARM(3) void cp_h_load_no(Addr a, UWord sz, CpNode* n)
{
   if (!count_load(n, a, sz)) return;
   UInt c = cp_cur_ctx_of(n->id);
   cp_objects_load(a, sz, c, n);
   do_load(a, sz, c);
}

VG_REGPARM(2) void cp_h_load_do(Addr a, UWord sz)
{
   if (!count_load(cp_cur_node, a, sz)) return;
   cp_objects_load(a, sz, cp_cur_ctx, cp_cur_node);
   do_load(a, sz, cp_cur_ctx);
}

VG_REGPARM(3) void cp_h_store_no(Addr a, UWord sz, CpNode* n)
{
   if (!count_store(n, a, sz)) return;
   cp_objects_store(a, sz, n);
   do_store(a, sz, cp_cur_ctx_of(n->id));
}

VG_REGPARM(2) void cp_h_store_do(Addr a, UWord sz)
{
   if (!count_store(cp_cur_node, a, sz)) return;
   cp_objects_store(a, sz, cp_cur_node);
   do_store(a, sz, cp_cur_ctx);
}

VG_REGPARM(3) void cp_h_modify_no(Addr a, UWord sz, CpNode* n)
{
   if (!count_load(n, a, sz)) return;
   count_store(n, a, sz);
   UInt c = cp_cur_ctx_of(n->id);
   cp_objects_load(a, sz, c, n);
   cp_objects_store(a, sz, n);
   do_load(a, sz, c);
   do_store(a, sz, c);
}

VG_REGPARM(2) void cp_h_modify_do(Addr a, UWord sz)
{
   if (!count_load(cp_cur_node, a, sz)) return;
   count_store(cp_cur_node, a, sz);
   cp_objects_load(a, sz, cp_cur_ctx, cp_cur_node);
   cp_objects_store(a, sz, cp_cur_node);
   do_load(a, sz, cp_cur_ctx);
   do_store(a, sz, cp_cur_ctx);
}
