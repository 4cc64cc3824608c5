/* commprof: the summary printed on stderr at exit, in Valgrind's style. */

#include "cp_global.h"
#include "cp_output.h"
#include "cp_options.h"
#include "cp_nodes.h"
#include "cp_objects.h"

/* Does a heap object's path, up to the call it is named after, hold a line
   of a header in a function of the program: library code inlined into it
   (new_allocator.h in a function that makes a std::vector)?  Then, without
   inline info, the object is named after that header line or after a call
   further out, and objects made at different lines of that function are
   one. */
static Bool inlined_header_on_path(const CpObject* o)
{
   if (o->kind != CP_OBJ_HEAP) return False;
   for (UInt i = 0; i < o->n_frames; i++) {
      const CpAllocFrame* f = &o->frames[i];
      if (f->line && cp_objects_is_header(f->file)) {
         /* a function of the program defined outside a header (a function
            defined in a header, a static inline one, is code of its own) */
         for (UInt n = 0; n < cp_n_nodes; n++)
            if (cp_nodes[n]->kind == CP_KIND_FUNCTION && VG_(strcmp)(cp_nodes[n]->name, f->fn) == 0
                && cp_nodes[n]->file[0] && !cp_objects_is_header(cp_nodes[n]->file))
               return True;
      }
      HChar name[300];
      VG_(snprintf)(name, sizeof name, "%s:%u", VG_(basename)(f->file), f->line);
      if (f->line && VG_(strcmp)(name, o->name) == 0) break;     /* the call it is named after */
   }
   return False;
}

/* The objects that carried most bytes between functions. */
static void print_objects(const CpReport* r)
{
   ULong* via = VG_(calloc)("cp.sum.via", cp_n_objects ? cp_n_objects : 1, sizeof(ULong));
   for (UInt i = 0; i < r->n_flows; i++)
      if (r->flows[i].producer != r->flows[i].consumer) via[r->flows[i].object] += r->flows[i].bytes;
   UInt top = cp_clo.summary_edges;
   Bool header_named = False;
   VG_(umsg)("\n");
   VG_(umsg)("Top objects by bytes passed between functions:\n");
   VG_(umsg)("%15s %12s %12s  %s\n", "bytes", "size", "accesses", "object");
   for (UInt k = 0; k < top; k++) {
      UInt best = cp_n_objects;
      for (UInt i = 0; i < cp_n_objects; i++)
         if (via[i] && (best == cp_n_objects || via[i] > via[best])) best = i;
      if (best == cp_n_objects) break;
      const CpObject* o = cp_objects[best];
      VG_(umsg)("%'15llu %'12llu %'12llu  %s\n", via[best],
                o->kind == CP_OBJ_HEAP ? o->peak_bytes : (ULong)o->size,
                o->reads + o->writes, o->name);
      via[best] = 0;
   }
   for (UInt i = 0; i < cp_n_objects && !header_named && !cp_objects_inline_seen; i++)
      if (cp_objects[i]->selected && inlined_header_on_path(cp_objects[i])) header_named = True;
   if (header_named && !cp_objects_inline_seen)
      VG_(umsg)("(Some heap objects were allocated by library code inlined into your functions, such as\n"
                " new_allocator.h's: --read-inline-info=yes names them after the lines that made them.)\n");
   VG_(free)(via);
}

void cp_print_summary(const CpReport* r, const HChar* out_name, const HChar* xml_name,
                      const HChar* dot_name)
{
   if (VG_(clo_verbosity) == 0) return;
   VG_(umsg)("\n");
   VG_(umsg)("Instructions:  %'llu\n", r->total_instrs);
   VG_(umsg)("Bytes read:    %'llu\n", r->total_read);
   VG_(umsg)("Bytes written: %'llu\n", r->total_written);
   VG_(umsg)("Communication: %'llu bytes between functions over %'llu unique addresses;"
             " %'llu bytes within functions\n",
             r->total_comm, r->total_comm_unma, r->total_self);
   UInt top = cp_clo.summary_edges;
   if (top > r->n_edges) top = r->n_edges;
   if (top > 0) {
      VG_(umsg)("\n");
      VG_(umsg)("Top %u of %u edges (producer -> consumer):\n", top, r->n_edges);
      VG_(umsg)("%15s %12s  %s\n", "bytes", "unique addrs", "edge");
      for (UInt i = 0; i < top; i++) {
         const CpNodeEdge* e = &r->edges[i];
         VG_(umsg)("%'15llu %'12llu  %s -> %s\n", e->bytes, e->unma,
                   cp_nodes[e->producer]->name, cp_nodes[e->consumer]->name);
      }
   }
   if (cp_clo.objects) print_objects(r);
   VG_(umsg)("\n");
   if (out_name) VG_(umsg)("Callgrind-format profile: %s\n", out_name);
   if (xml_name) VG_(umsg)("XML profile: %s\n", xml_name);
   if (dot_name) VG_(umsg)("Communication graph: %s\n", dot_name);
}
