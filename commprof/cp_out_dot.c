/* commprof: the communication graph in Graphviz DOT format
 * (--commprof-dot-file).  Functions are ovals filled by their share of the
 * instructions, special producers dashed boxes; the heaviest cross-node edges
 * are arrows producer -> consumer labelled with bytes and unique addresses,
 * their width growing with the logarithm of the bytes.  Render it with
 * `dot -Tsvg FILE -o graph.svg`; commprof-report draws richer graphs. */

#include "cp_global.h"
#include "cp_output.h"
#include "cp_options.h"
#include "cp_nodes.h"

#define DOT_MAX_EDGES 60

static void dot_string(CpOut* o, const HChar* s)
{
   cp_out_puts(o, "\"");
   cp_out_name(o, s, CP_NAME_DOT);
   cp_out_puts(o, "\"");
}

/* floor(log2(x)) for x >= 1 */
static UInt ilog2(ULong x)
{
   UInt n = 0;
   while (x > 1) { x >>= 1; n++; }
   return n;
}

Bool cp_write_dot(const HChar* name, const CpReport* r)
{
   CpOut* o = cp_out_open(name);
   if (!o) return False;
   UInt ne = r->n_edges < DOT_MAX_EDGES ? r->n_edges : DOT_MAX_EDGES;
   Bool* shown = VG_(calloc)("cp.dot.shown", r->n_nodes ? r->n_nodes : 1, sizeof(Bool));
   ULong maxb = ne ? r->edges[0].bytes : 1;
   for (UInt i = 0; i < ne; i++)
      shown[r->edges[i].producer] = shown[r->edges[i].consumer] = True;
   Bool* shared = cp_nodes_shared_names();   /* names shown with their place */

   cp_out_printf(o, "// commprof pid %d ended: %s\n", VG_(getpid)(), r->reason);
   cp_out_puts(o, "digraph commprof {\n");
   cp_out_puts(o, "  graph [rankdir=TB, fontname=\"Helvetica\", nslimit=2, mclimit=0.5];\n");
   cp_out_puts(o, "  node [fontname=\"Helvetica\", fontsize=11, style=filled];\n");
   cp_out_puts(o, "  edge [fontname=\"Helvetica\", fontsize=9, arrowhead=vee];\n");
   if (r->n_edges > ne)
      cp_out_printf(o, "  label=\"heaviest %u of %u edges\";\n", ne, r->n_edges);
   for (UInt i = 0; i < r->n_nodes; i++) {
      if (!shown[i]) continue;
      const CpNode* n = cp_nodes[i];
      cp_out_printf(o, "  n%u [label=", i);
      if (n->kind == CP_KIND_SPECIAL) {
         dot_string(o, n->name);
         cp_out_puts(o, ", shape=box, style=\"dashed,filled\", fillcolor=\"#eeeeee\"];\n");
         continue;
      }
      /* per-mille of instructions, printed as a percentage with one decimal */
      ULong pm = r->total_instrs ? (n->instrs * 1000 + r->total_instrs / 2) / r->total_instrs : 0;
      cp_out_puts(o, "\"");
      HChar nb[512];
      cp_out_name(o, cp_node_display_name(n, shared[i], nb, sizeof nb), CP_NAME_DOT);
      cp_out_printf(o, "\\n%llu.%llu%% instr, %llu call%s\"", pm / 10, pm % 10, n->calls,
                    n->calls == 1 ? "" : "s");
      /* white to orange by instruction share */
      UInt shade = pm >= 1000 ? 0 : 255 - (UInt)(pm * 255 / 1000);
      cp_out_printf(o, ", fillcolor=\"#ff%02x%02x\"];\n", 200 + shade * 55 / 255, shade);
   }
   for (UInt i = 0; i < ne; i++) {
      const CpNodeEdge* e = &r->edges[i];
      HChar label[128];
      VG_(snprintf)(label, sizeof(label), "%'llu B\n%'llu UnMA", e->bytes, e->unma);
      UInt w = 1 + (ilog2(e->bytes ? e->bytes : 1) * 6) / (ilog2(maxb) + 1);
      cp_out_printf(o, "  n%u -> n%u [label=", e->producer, e->consumer);
      dot_string(o, label);
      cp_out_printf(o, ", penwidth=%u, weight=%u];\n", w, w);
   }
   cp_out_puts(o, "}\n");
   VG_(free)(shown);
   VG_(free)(shared);
   return cp_out_close(o);
}
