/* commprof: the summary printed on stderr at exit, in Valgrind's style. */

#include "cp_global.h"
#include "cp_output.h"
#include "cp_options.h"
#include "cp_nodes.h"
#include "cp_objects.h"

/* The objects that carried most bytes between functions. */
static void print_objects(const CpReport* r)
{
   ULong* via = VG_(calloc)("cp.sum.via", cp_n_objects ? cp_n_objects : 1, sizeof(ULong));
   for (UInt i = 0; i < r->n_flows; i++)
      if (r->flows[i].producer != r->flows[i].consumer) via[r->flows[i].object] += r->flows[i].bytes;
   UInt top = cp_clo.summary_edges;
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
                o->kind == CP_OBJ_HEAP || o->kind == CP_OBJ_NAMED ? o->peak_bytes : (ULong)o->size,
                o->reads + o->writes, o->name);
      via[best] = 0;
   }
   Bool inlined = False;
   for (UInt i = 0; i < cp_n_objects && !cp_objects_inline_seen; i++)
      if (cp_objects[i]->selected && cp_objects[i]->inlined_library) inlined = True;
   if (inlined)
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
      Bool* shared = cp_nodes_shared_names();
      for (UInt i = 0; i < top; i++) {
         const CpNodeEdge* e = &r->edges[i];
         HChar pb[512], cb[512];
         VG_(umsg)("%'15llu %'12llu  %s -> %s\n", e->bytes, e->unma,
                   cp_node_display_name(cp_nodes[e->producer], shared[e->producer], pb, sizeof pb),
                   cp_node_display_name(cp_nodes[e->consumer], shared[e->consumer], cb, sizeof cb));
      }
      VG_(free)(shared);
   }
   if (cp_clo.objects) print_objects(r);
   VG_(umsg)("\n");
   if (out_name) VG_(umsg)("Callgrind-format profile: %s\n", out_name);
   if (xml_name) VG_(umsg)("XML profile: %s\n", xml_name);
   if (dot_name) VG_(umsg)("Communication graph: %s\n", dot_name);
}
