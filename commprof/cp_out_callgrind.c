/* commprof: the communication profile in callgrind format.
 *
 * Encoding (docs/manual.md, "The callgrind-format file"):
 *   - every node is a function with self costs
 *       Ir Rd Wr CommIn CommOut CommSelf UnMA
 *     (instructions, bytes read, bytes written, bytes consumed from other
 *     nodes, bytes other nodes consumed from it, bytes it read that it wrote
 *     itself, distinct addresses among the bytes it consumed from others);
 *   - every cross-node edge producer -> consumer is a pseudo call from the
 *     consumer to the producer: calls= is the number of loads, the cost line
 *     carries the bytes in the CommIn column and the edge's UnMA in UnMA.
 * So in KCachegrind the "Callees" of a function are the functions it consumed
 * data from, and its "Callers" the functions that consumed its data.  The file
 * holds no real call edges: they would be added up with the pseudo ones.
 *
 * With --objects=yes, every data object is a pseudo function "[kind] name"
 * (file "(objects)") and a further event ObjFlow carries the flows through
 * objects: a call from a function to an object carries the bytes the
 * function read from the object, a call from an object to a function the
 * bytes that function wrote into it and that were read. */

#include "cp_global.h"
#include "cp_output.h"
#include "cp_nodes.h"
#include "cp_options.h"
#include "cp_objects.h"

/* Name compression: one id per distinct object and file string, found by
   a hash of the string (a big program has thousands of source files, named
   once per function and per edge). */
typedef struct { const HChar* s; UInt id; } NameId;
typedef struct { NameId* v; UInt cap, n, next_id; } NameTab;   /* open addressing, cap a power of 2 */

static UWord name_hash(const HChar* s)
{
   UWord h = 5381;
   for (; *s; s++) h = h * 33 + (UChar)*s;
   return h;
}

static UInt name_id(NameTab* t, const HChar* s, Bool* is_new)
{
   if (2 * (t->n + 1) > t->cap) {               /* at most half full */
      UInt cap = t->cap ? 2 * t->cap : 64;
      NameId* v = VG_(calloc)("cp.cg.names", cap, sizeof(NameId));
      for (UInt i = 0; i < t->cap; i++) {
         if (!t->v[i].s) continue;
         UWord j = name_hash(t->v[i].s) & (cap - 1);
         while (v[j].s) j = (j + 1) & (cap - 1);
         v[j] = t->v[i];
      }
      if (t->v) VG_(free)(t->v);
      t->v = v;
      t->cap = cap;
   }
   UWord j = name_hash(s) & (t->cap - 1);
   for (; t->v[j].s; j = (j + 1) & (t->cap - 1))
      if (VG_(strcmp)(t->v[j].s, s) == 0) { *is_new = False; return t->v[j].id; }
   t->v[j].s = s;
   t->v[j].id = ++t->next_id;
   t->n++;
   *is_new = True;
   return t->v[j].id;
}

static const HChar* or_unknown(const HChar* s)
{
   return (s && s[0]) ? s : "???";
}

/* cp_out_puts for names (see cp_out_name). */
static void put_name(CpOut* o, const HChar* s)
{
   cp_out_name(o, s, CP_NAME_CALLGRIND);
}

static void spec(CpOut* o, NameTab* t, const HChar* key, const HChar* s)
{
   Bool is_new;
   UInt id = name_id(t, s, &is_new);
   cp_out_printf(o, "%s=(%u)", key, id);
   if (is_new) { cp_out_puts(o, " "); put_name(o, s); }
   cp_out_puts(o, "\n");
}

static void fn_spec(CpOut* o, const HChar* key, const CpNode* n, Bool* defined)
{
   cp_out_printf(o, "%s=(%u)", key, n->id + 1);
   if (!defined[n->id]) {
      cp_out_puts(o, " ");
      put_name(o, n->name);
      defined[n->id] = True;
   }
   cp_out_puts(o, "\n");
}

static Int cmp_edge_consumer(const void* a, const void* b)
{
   const CpNodeEdge* x = *(const CpNodeEdge* const*)a;
   const CpNodeEdge* y = *(const CpNodeEdge* const*)b;
   if (x->consumer != y->consumer) return x->consumer < y->consumer ? -1 : 1;
   if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
   return x->producer < y->producer ? -1 : x->producer > y->producer ? 1 : 0;
}


/* fn=/cfn= of object ob: ids after the nodes' */
static void obj_spec(CpOut* o, const HChar* key, const CpReport* r, const CpObject* ob, Bool* defined)
{
   cp_out_printf(o, "%s=(%u)", key, r->n_nodes + 1 + ob->id);
   if (!defined[ob->id]) {
      cp_out_printf(o, " [%s] ", cp_obj_kind_names[ob->kind]);
      put_name(o, ob->name);
      defined[ob->id] = True;
   }
   cp_out_puts(o, "\n");
}

/* The flows sorted by (consumer, object) and by (object, producer): each
   function's objects and each object's producers in one pass (a big program
   has thousands of functions, objects and flows). */
static Int cmp_flow_consumer(const void* a, const void* b)
{
   const CpObjFlow* x = *(const CpObjFlow* const*)a;
   const CpObjFlow* y = *(const CpObjFlow* const*)b;
   if (x->consumer != y->consumer) return x->consumer < y->consumer ? -1 : 1;
   return x->object < y->object ? -1 : x->object > y->object ? 1 : 0;
}

static Int cmp_flow_object(const void* a, const void* b)
{
   const CpObjFlow* x = *(const CpObjFlow* const*)a;
   const CpObjFlow* y = *(const CpObjFlow* const*)b;
   if (x->object != y->object) return x->object < y->object ? -1 : 1;
   return x->producer < y->producer ? -1 : x->producer > y->producer ? 1 : 0;
}

static const CpObjFlow** sorted_flows(const CpReport* r, Int (*cmp)(const void*, const void*))
{
   const CpObjFlow** v = VG_(malloc)("cp.cg.flows", (r->n_flows ? r->n_flows : 1) * sizeof(CpObjFlow*));
   for (UInt i = 0; i < r->n_flows; i++) v[i] = &r->flows[i];
   VG_(ssort)(v, r->n_flows, sizeof(CpObjFlow*), cmp);
   return v;
}

Bool cp_write_callgrind(const HChar* name, const CpReport* r)
{
   CpOut* o = cp_out_open(name);
   if (!o) return False;

   HChar cmd[4096];
   cp_client_cmdline(cmd, sizeof(cmd));
   ULong sum_unma = 0;
   for (UInt i = 0; i < r->n_nodes; i++) if (r->active[i]) sum_unma += r->in_unma[i];

   cp_out_puts(o, "# callgrind format\n");
   cp_out_puts(o, "version: 1\n");
   cp_out_printf(o, "creator: commprof-%s\n", CP_TOOL_VERSION);
   cp_out_printf(o, "pid: %d\n", VG_(getpid)());
   cp_out_puts(o, "cmd: ");
   put_name(o, cmd);
   cp_out_puts(o, "\n");
   cp_out_puts(o, "part: 1\n");
   cp_out_puts(o, "desc: Tool: commprof, data communication between functions\n");
   cp_out_puts(o, "desc: Encoding: a call from C to P carries the bytes C consumed from P (P produced them)\n");
   cp_out_printf(o, "desc: Ended: %s\n", r->reason);
   cp_out_puts(o, "positions: line\n");
   cp_out_puts(o, "event: Ir : Instructions executed\n");
   cp_out_puts(o, "event: Rd : Bytes read\n");
   cp_out_puts(o, "event: Wr : Bytes written\n");
   cp_out_puts(o, "event: CommIn : Bytes consumed from other functions\n");
   cp_out_puts(o, "event: CommOut : Bytes consumed by other functions\n");
   cp_out_puts(o, "event: CommSelf : Bytes read that the function wrote itself\n");
   cp_out_puts(o, "event: UnMA : Unique addresses consumed from other functions\n");
   Bool objs = cp_clo.objects;
   ULong total_flow = 0;
   for (UInt i = 0; i < r->n_flows; i++) total_flow += r->flows[i].bytes;
   if (objs) {
      cp_out_puts(o, "event: ObjFlow : Bytes through data objects (function to object: read from it;"
                     " object to function: written by it)\n");
      cp_out_puts(o, "events: Ir Rd Wr CommIn CommOut CommSelf UnMA ObjFlow\n");
   } else {
      cp_out_puts(o, "events: Ir Rd Wr CommIn CommOut CommSelf UnMA\n");
   }
   /* the self costs of the object pseudo functions hold the flows once */
   cp_out_printf(o, "summary: %llu %llu %llu %llu %llu %llu %llu",
                 r->total_instrs, r->total_read, r->total_written,
                 r->total_comm, r->total_comm, r->total_self, sum_unma);
   if (objs) cp_out_printf(o, " %llu", total_flow);
   cp_out_puts(o, "\n");

   /* edges grouped by consumer */
   const CpNodeEdge** byc = VG_(malloc)("cp.cg.byc", (r->n_edges ? r->n_edges : 1) * sizeof(CpNodeEdge*));
   for (UInt i = 0; i < r->n_edges; i++) byc[i] = &r->edges[i];
   VG_(ssort)(byc, r->n_edges, sizeof(CpNodeEdge*), cmp_edge_consumer);

   NameTab obs = {0}, files = {0};
   Bool* defined = VG_(calloc)("cp.cg.def", r->n_nodes ? r->n_nodes : 1, sizeof(Bool));
   const CpObjFlow** fbyc = objs ? sorted_flows(r, cmp_flow_consumer) : NULL;
   Bool* obj_defined = objs ? VG_(calloc)("cp.cg.objdef", cp_n_objects ? cp_n_objects : 1, sizeof(Bool)) : NULL;
   UInt k = 0, fk = 0;
   for (UInt i = 0; i < r->n_nodes; i++) {
      if (!r->active[i]) continue;
      const CpNode* n = cp_nodes[i];
      cp_out_puts(o, "\n");
      spec(o, &obs, "ob", or_unknown(n->object));
      spec(o, &files, "fl", or_unknown(n->file));
      fn_spec(o, "fn", n, defined);
      cp_out_printf(o, "%u %llu %llu %llu %llu %llu %llu %llu%s\n", n->line,
                    n->instrs, n->bytes_read, n->bytes_written,
                    r->in_bytes[i], r->out_bytes[i], r->self_bytes[i], r->in_unma[i],
                    objs ? " 0" : "");
      while (k < r->n_edges && byc[k]->consumer < i) k++;
      for (; k < r->n_edges && byc[k]->consumer == i; k++) {
         const CpNode* p = cp_nodes[byc[k]->producer];
         spec(o, &obs, "cob", or_unknown(p->object));
         spec(o, &files, "cfi", or_unknown(p->file));
         fn_spec(o, "cfn", p, defined);
         cp_out_printf(o, "calls=%llu %u\n", byc[k]->accesses ? byc[k]->accesses : 1, p->line);
         cp_out_printf(o, "%u 0 0 0 %llu 0 0 %llu%s\n", n->line, byc[k]->bytes, byc[k]->unma,
                       objs ? " 0" : "");
      }
      if (objs) {
         /* the objects this function read from, by object */
         while (fk < r->n_flows && fbyc[fk]->consumer < i) fk++;
         while (fk < r->n_flows && fbyc[fk]->consumer == i) {
            UInt ob = fbyc[fk]->object;
            ULong b = 0;
            for (; fk < r->n_flows && fbyc[fk]->consumer == i && fbyc[fk]->object == ob; fk++)
               b += fbyc[fk]->bytes;
            if (!b) continue;
            cp_out_puts(o, "cob=(0) (objects)\ncfi=(0) (objects)\n");
            obj_spec(o, "cfn", r, cp_objects[ob], obj_defined);
            cp_out_puts(o, "calls=1 0\n");
            cp_out_printf(o, "%u 0 0 0 0 0 0 0 %llu\n", n->line, b);
         }
      }
   }
   if (objs) {
      /* each object, and the functions that wrote what was read from it */
      const CpObjFlow** fbyo = sorted_flows(r, cmp_flow_object);
      for (UInt f = 0; f < r->n_flows; ) {
         UInt ob = fbyo[f]->object;
         UInt end = f;
         ULong through = 0;
         for (; end < r->n_flows && fbyo[end]->object == ob; end++) through += fbyo[end]->bytes;
         if (through) {
            cp_out_puts(o, "\nob=(0) (objects)\nfl=(0) (objects)\n");
            obj_spec(o, "fn", r, cp_objects[ob], obj_defined);
            cp_out_printf(o, "0 0 0 0 0 0 0 0 %llu\n", through);
         }
         while (through && f < end) {
            UInt p = fbyo[f]->producer;
            ULong b = 0;
            for (; f < end && fbyo[f]->producer == p; f++) b += fbyo[f]->bytes;
            if (!b) continue;
            const CpNode* pn = cp_nodes[p];
            spec(o, &obs, "cob", or_unknown(pn->object));
            spec(o, &files, "cfi", or_unknown(pn->file));
            fn_spec(o, "cfn", pn, defined);
            cp_out_printf(o, "calls=1 %u\n", pn->line);
            cp_out_printf(o, "0 0 0 0 0 0 0 0 %llu\n", b);
         }
         f = end;
      }
      VG_(free)(fbyo);
   }
   cp_out_printf(o, "\ntotals: %llu %llu %llu %llu %llu %llu %llu",
                 r->total_instrs, r->total_read, r->total_written,
                 r->total_comm, r->total_comm, r->total_self, sum_unma);
   if (objs) cp_out_printf(o, " %llu", total_flow);
   cp_out_puts(o, "\n");
   if (fbyc) VG_(free)(fbyc);
   if (obj_defined) VG_(free)(obj_defined);
   VG_(free)(byc);
   VG_(free)(defined);
   if (obs.v) VG_(free)(obs.v);
   if (files.v) VG_(free)(files.v);
   return cp_out_close(o);
}
