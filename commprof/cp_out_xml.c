/* commprof: the XML profile (schema: docs/commprof.rng). */

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

static void text_element(CpOut* o, const HChar* indent, const HChar* tag, const HChar* text)
{
   cp_out_printf(o, "%s<%s>", indent, tag);
   cp_out_xml_escaped(o, text);
   cp_out_printf(o, "</%s>\n", tag);
}

static void attr(CpOut* o, const HChar* name, const HChar* value)
{
   cp_out_printf(o, " %s=\"", name);
   cp_out_xml_escaped(o, value);
   cp_out_puts(o, "\"");
}

static const HChar* const node_kinds[] = { "function", "special", "region" };

/* part / whole as a percentage with one decimal */
static void pct_attr(CpOut* o, const HChar* name, ULong part, ULong whole)
{
   ULong pm = whole ? (part * 1000 + whole / 2) / whole : 0;
   cp_out_printf(o, " %s=\"%llu.%llu\"", name, pm / 10, pm % 10);
}

static void write_objects(CpOut* o, const CpReport* r)
{
   cp_out_puts(o, "  <objects>\n");
   for (UInt i = 0; i < cp_n_objects; i++) {
      const CpObject* ob = cp_objects[i];
      if (!ob->selected || (ob->first_access == 0 && ob->blocks == 0)) continue;
      cp_out_printf(o, "    <object id=\"%u\" kind=\"%s\"", ob->id, cp_obj_kind_names[ob->kind]);
      attr(o, "name", ob->name);
      if (ob->symbol) attr(o, "symbol", ob->symbol);
      attr(o, "elf", ob->elf);
      Bool sized_by_use = ob->kind == CP_OBJ_HEAP || ob->kind == CP_OBJ_NAMED;
      ULong allocated = sized_by_use ? ob->total_bytes : ob->size;
      cp_out_printf(o, " size=\"%llu\" blocks=\"%llu\" total-bytes=\"%llu\" peak-bytes=\"%llu\""
                       " reads=\"%llu\" read-bytes=\"%llu\" writes=\"%llu\" write-bytes=\"%llu\"",
                    (ULong)ob->size, ob->blocks, allocated,
                    sized_by_use ? ob->peak_bytes : (ULong)ob->size,
                    ob->reads, ob->read_bytes, ob->writes, ob->write_bytes);
      if (ob->kind != CP_OBJ_STACK) {
         cp_out_printf(o, " written-bytes=\"%llu\" prod-bytes=\"%llu\"",
                       ob->written_report, ob->prod_bytes);
         pct_attr(o, "alloc-pct", ob->written_report, allocated);
         pct_attr(o, "prod-pct", ob->prod_bytes, allocated);
      }
      if (ob->kind == CP_OBJ_STACK || ob->kind == CP_OBJ_TLS)
         cp_out_printf(o, " thread=\"%u\"", ob->thread);
      cp_out_printf(o, " first-access=\"%llu\" last-access=\"%llu\"",
                    ob->first_access ? ob->first_access - 1 : 0,
                    ob->last_access ? ob->last_access - 1 : 0);
      if (ob->n_frames == 0) {
         cp_out_puts(o, "/>\n");
         continue;
      }
      cp_out_puts(o, ">\n");
      for (UInt f = 0; f < ob->n_frames; f++) {
         cp_out_puts(o, "      <frame");
         attr(o, "function", ob->frames[f].fn);
         attr(o, "file", ob->frames[f].file);
         cp_out_printf(o, " line=\"%u\"/>\n", ob->frames[f].line);
      }
      cp_out_puts(o, "    </object>\n");
   }
   cp_out_puts(o, "  </objects>\n");
   cp_out_puts(o, "  <object-flows>\n");
   for (UInt i = 0; i < r->n_flows; i++) {
      const CpObjFlow* f = &r->flows[i];
      cp_out_printf(o, "    <flow producer=\"%u\" object=\"%u\" consumer=\"%u\""
                       " bytes=\"%llu\" unma=\"%llu\"/>\n",
                    f->producer, f->object, f->consumer, f->bytes, f->unma);
   }
   cp_out_puts(o, "  </object-flows>\n");
}

static void write_phases(CpOut* o, const CpReport* r)
{
   cp_out_puts(o, "  <phases>\n");
   for (UInt i = 0; i < cp_n_phases; i++) {
      cp_out_printf(o, "    <phase id=\"%u\"", i);
      attr(o, "name", cp_phases[i].name);
      cp_out_printf(o, " start=\"%llu\"/>\n", cp_phases[i].start);
   }
   cp_out_puts(o, "  </phases>\n");
   cp_out_puts(o, "  <phase-edges>\n");
   for (UInt i = 0; i < r->n_phase_edges; i++) {
      const CpPhaseEdge* e = &r->phase_edges[i];
      cp_out_printf(o, "    <edge producer=\"%u\" producer-phase=\"%u\" consumer=\"%u\""
                       " consumer-phase=\"%u\" bytes=\"%llu\" unma=\"%llu\"/>\n",
                    e->producer, e->pphase, e->consumer, e->cphase, e->bytes, e->unma);
   }
   cp_out_puts(o, "  </phase-edges>\n");
}

/* One <slice> per slice with records: d lists "node:instructions,bytes
   read,bytes written,bytes consumed from other functions" for every function
   that did something, space-separated (about 30 bytes per function). */
static void write_slices(CpOut* o, const CpReport* r)
{
   const CpSliceRec* s = r->slices;
   cp_out_printf(o, "  <time-slices size=\"%llu\">\n", cp_clo.time_slice);
   for (UInt i = 0; i < r->n_slices; ) {
      cp_out_printf(o, "    <slice i=\"%u\" d=\"", s[i].slice);
      UInt j = i;
      for (; j < r->n_slices && s[j].slice == s[i].slice; j++)
         cp_out_printf(o, "%s%u:%llu,%llu,%llu,%llu", j > i ? " " : "", s[j].node,
                       s[j].instrs, s[j].bytes_read, s[j].bytes_written, s[j].comm_in);
      cp_out_puts(o, "\"/>\n");
      i = j;
   }
   cp_out_puts(o, "  </time-slices>\n");
   cp_out_printf(o, "  <detected-phases threshold=\"%u\">\n", cp_clo.phase_threshold);
   for (UInt i = 0; i < r->n_spans; i++) {
      const CpSpan* sp = &r->spans[i];
      cp_out_printf(o, "    <span first-slice=\"%u\" last-slice=\"%u\" functions=\"", sp->first, sp->last);
      for (UInt k = 0; k < sp->n_nodes; k++) cp_out_printf(o, "%s%u", k ? " " : "", sp->nodes[k]);
      cp_out_printf(o, "\" instructions=\"%llu\" bytes-read=\"%llu\" bytes-written=\"%llu\""
                       " in-bytes=\"%llu\"/>\n",
                    sp->instrs, sp->bytes_read, sp->bytes_written, sp->comm_in);
   }
   cp_out_puts(o, "  </detected-phases>\n");
}

static void write_calls(CpOut* o)
{
   UInt n;
   const CpPcRecord* recs = cp_percall_records(&n);
   cp_out_printf(o, "  <calls dropped=\"%llu\">\n", cp_percall_dropped());
   for (UInt i = 0; i < n; i++) {
      const CpPcRecord* c = &recs[i];
      cp_out_printf(o, "    <call function=\"%u\" first-seq=\"%llu\" last-seq=\"%llu\" count=\"%llu\">\n",
                    c->node, c->first_seq, c->last_seq, c->count);
      for (UInt k = 0; k < c->n_path; k++)
         cp_out_printf(o, "      <caller function=\"%u\"/>\n", c->path[k]);
      for (UInt k = 0; k < c->n_producers; k++)
         cp_out_printf(o, "      <consumed producer=\"%u\" bytes=\"%llu\"/>\n",
                       c->producers[k].id, c->producers[k].bytes);
      for (UInt k = 0; k < c->n_objects; k++) {
         const CpPcObject* ob = &c->objects[k];
         /* the mean of 1/stride, with three decimals */
         ULong m = ob->accesses ? (ob->locality_sum / ob->accesses + 500) / 1000 : 0;
         cp_out_printf(o, "      <object id=\"%u\" read-bytes=\"%llu\" written-bytes=\"%llu\""
                          " accesses=\"%llu\" locality=\"%llu.%03llu\"/>\n",
                       ob->object, ob->read_bytes, ob->written_bytes, ob->accesses, m / 1000, m % 1000);
      }
      cp_out_puts(o, "    </call>\n");
   }
   cp_out_puts(o, "  </calls>\n");
}

Bool cp_write_xml(const HChar* name, const CpReport* r)
{
   CpOut* o = cp_out_open(name);
   if (!o) return False;

   cp_out_puts(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
   cp_out_printf(o, "<commprof version=\"%d\">\n", CP_XML_FORMAT_VERSION);

   /* run metadata */
   cp_out_puts(o, "  <run>\n");
   cp_out_printf(o, "    <tool name=\"commprof\" version=\"%s\"/>\n", CP_TOOL_VERSION);
   text_element(o, "    ", "exe", VG_(args_the_exename) ? VG_(args_the_exename) : "");
   cp_out_puts(o, "    <args>\n");
   for (Word i = 0; VG_(args_for_client) && i < VG_(sizeXA)(VG_(args_for_client)); i++)
      text_element(o, "      ", "arg", *(HChar**)VG_(indexXA)(VG_(args_for_client), i));
   cp_out_puts(o, "    </args>\n");
   cp_out_printf(o, "    <pid>%d</pid>\n", VG_(getpid)());
   cp_out_printf(o, "    <ppid>%d</ppid>\n", VG_(getppid)());
   cp_out_printf(o, "    <end reason=\"%s\"/>\n", r->reason);
   cp_out_puts(o, "    <options>\n");
   for (UInt i = 0; i < cp_options_count(); i++) {
      const HChar* oname;
      HChar value[4096];
      cp_option_at(i, &oname, value, sizeof(value));
      cp_out_puts(o, "      <option");
      attr(o, "name", oname);
      attr(o, "value", value);
      cp_out_puts(o, "/>\n");
   }
   cp_out_puts(o, "    </options>\n");
   cp_out_printf(o, "    <totals instructions=\"%llu\" bytes-read=\"%llu\" bytes-written=\"%llu\""
                    " comm-bytes=\"%llu\" comm-unma=\"%llu\" self-bytes=\"%llu\""
                    " functions=\"%u\" edges=\"%u\"/>\n",
                 r->total_instrs, r->total_read, r->total_written,
                 r->total_comm, r->total_comm_unma, r->total_self,
                 r->n_active, r->n_edges);
   cp_out_puts(o, "  </run>\n");

   /* functions, before the edges that refer to them */
   cp_out_puts(o, "  <functions>\n");
   for (UInt i = 0; i < r->n_nodes; i++) {
      if (!r->active[i]) continue;
      const CpNode* n = cp_nodes[i];
      cp_out_printf(o, "    <function id=\"%u\" kind=\"%s\"", n->id, node_kinds[n->kind]);
      attr(o, "name", n->name);
      attr(o, "object", n->object);
      attr(o, "file", n->file);
      attr(o, "dir", n->dir);
      cp_out_printf(o, " line=\"%u\" instructions=\"%llu\" calls=\"%llu\""
                       " bytes-read=\"%llu\" bytes-written=\"%llu\"",
                    n->line, n->instrs, n->calls, n->bytes_read, n->bytes_written);
      cp_out_printf(o, " in-bytes=\"%llu\" in-unma=\"%llu\" out-bytes=\"%llu\" out-unma=\"%llu\""
                       " self-bytes=\"%llu\" self-unma=\"%llu\"",
                    r->in_bytes[i], r->in_unma[i], r->out_bytes[i], r->out_unma[i],
                    r->self_bytes[i], r->self_unma[i]);
      cp_out_printf(o, " mem-instructions=\"%llu\" loads=\"%llu\" stores=\"%llu\""
                       " stack-loads=\"%llu\" stack-stores=\"%llu\""
                       " stack-bytes-read=\"%llu\" stack-bytes-written=\"%llu\"",
                    n->mem_instrs, n->loads, n->stores, n->stack_loads, n->stack_stores,
                    n->stack_bytes_read, n->stack_bytes_written);
      if (n->base != n->id) {
         cp_out_printf(o, " base=\"%u\" callers=\"", n->base);
         for (UInt k = 0; k < n->n_callers; k++)
            cp_out_printf(o, "%s%u", k ? " " : "", n->callers[k]);
         cp_out_puts(o, "\"");
      }
      if (cp_clo.objects)
         cp_out_printf(o, " heap-bytes-read=\"%llu\" heap-bytes-written=\"%llu\""
                          " global-bytes-read=\"%llu\" global-bytes-written=\"%llu\"",
                       n->heap_bytes_read, n->heap_bytes_written,
                       n->global_bytes_read, n->global_bytes_written);
      cp_out_puts(o, "/>\n");
   }
   cp_out_puts(o, "  </functions>\n");

   cp_out_puts(o, "  <edges>\n");
   for (UInt i = 0; i < r->n_edges; i++) {
      const CpNodeEdge* e = &r->edges[i];
      cp_out_printf(o, "    <edge producer=\"%u\" consumer=\"%u\" bytes=\"%llu\""
                       " unma=\"%llu\" accesses=\"%llu\"",
                    e->producer, e->consumer, e->bytes, e->unma, e->accesses);
      if (cp_clo.first_read) cp_out_printf(o, " first-read=\"%llu\"", e->first_read);
      cp_out_puts(o, "/>\n");
   }
   cp_out_puts(o, "  </edges>\n");

   /* threads, by creation order */
   cp_out_puts(o, "  <threads>\n");
   for (UInt i = 1; i < r->n_threads; i++) {
      const CpThread* t = cp_threads[i];
      cp_out_printf(o, "    <thread id=\"%u\" parent=\"%u\"", t->index, t->parent);
      attr(o, "name", t->name ? t->name : "");
      cp_out_printf(o, " instructions=\"%llu\" bytes-read=\"%llu\" in-bytes=\"%llu\""
                       " out-bytes=\"%llu\"/>\n",
                    t->instrs, r->thread_read[i], r->thread_in[i], r->thread_out[i]);
   }
   cp_out_puts(o, "  </threads>\n");
   cp_out_puts(o, "  <thread-matrix>\n");
   for (UInt i = 0; i < r->n_cells; i++)
      cp_out_printf(o, "    <cell producer=\"%u\" consumer=\"%u\" bytes=\"%llu\" unma=\"%llu\"/>\n",
                    r->cells[i].producer, r->cells[i].consumer, r->cells[i].bytes, r->cells[i].unma);
   cp_out_puts(o, "  </thread-matrix>\n");
   /* (function, thread) -> (function, thread) */
   cp_out_puts(o, "  <thread-edges>\n");
   for (UInt i = 0; i < r->n_tedges; i++) {
      const CpThreadEdge* e = &r->tedges[i];
      cp_out_printf(o, "    <edge producer=\"%u\" producer-thread=\"%u\" consumer=\"%u\""
                       " consumer-thread=\"%u\" bytes=\"%llu\" unma=\"%llu\" accesses=\"%llu\"/>\n",
                    e->producer, e->pthread, e->consumer, e->cthread, e->bytes, e->unma, e->accesses);
   }
   cp_out_puts(o, "  </thread-edges>\n");
   if (cp_clo.objects) write_objects(o, r);
   if (cp_n_phases > 1) write_phases(o, r);
   if (cp_clo.time_slice) write_slices(o, r);
   if (cp_clo.per_call) write_calls(o);
   cp_out_puts(o, "</commprof>\n");
   return cp_out_close(o);
}
