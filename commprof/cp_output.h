/* commprof: the profile as written to files and to stderr.
 *
 * At a dump the per-context edges are folded into node-level edges (UnMA by
 * exact union of the address sets) and written as XML (cp_out_xml.c) and in
 * callgrind format (cp_out_callgrind.c), each to a temporary name first and
 * renamed into place, so a file is either complete or absent. */
#ifndef CP_OUTPUT_H
#define CP_OUTPUT_H

#include "pub_tool_basics.h"
#include "cp_timeline.h"

/* ---- buffered file writer with error checking ---- */
typedef struct {
   Int    fd;
   Bool   failed;
   Int    err;          /* errno of the first failure */
   UInt   n;
   HChar* tmp_name;
   HChar* final_name;
   HChar  buf[65536];
} CpOut;

CpOut* cp_out_open(const HChar* final_name);          /* NULL on failure (reported) */
void   cp_out_printf(CpOut* o, const HChar* fmt, ...) PRINTF_CHECK(2, 3);
void   cp_out_puts(CpOut* o, const HChar* s);
/* Write s as XML text/attribute content: escapes & < > " ', drops bytes
   that XML 1.0 forbids and replaces invalid UTF-8 by '?'. */
void   cp_out_xml_escaped(CpOut* o, const HChar* s);
/* A name (function, file, object, region) in a text format: valid UTF-8
   without control bytes (an invalid byte or a control byte becomes '?', as
   in the XML, a tab or carriage return a space; in callgrind format a line
   break becomes a space too, a blank before the name '_', which
   callgrind_annotate would drop, and an empty name is ???; in a DOT string
   '"' and '\\' are escaped and a line break is one in the label). */
typedef enum { CP_NAME_CALLGRIND, CP_NAME_DOT } CpNameFormat;
void   cp_out_name(CpOut* o, const HChar* s, CpNameFormat f);
/* Flush, close and rename into place; False (reported) on failure. */
Bool   cp_out_close(CpOut* o);
const HChar* cp_errno_string(Int err);

/* ---- the folded profile ---- */
typedef struct {
   UInt  producer, consumer;     /* node ids */
   ULong bytes, accesses, unma;
   ULong first_read;             /* with --first-read=yes */
} CpNodeEdge;

typedef struct {
   UInt  producer, consumer;     /* node ids */
   UInt  pphase, cphase;         /* phase of the write, phase of the read */
   ULong bytes, unma;
} CpPhaseEdge;

typedef struct {
   UInt  first, last;            /* slices */
   UInt* nodes;                  /* the functions active in them */
   UInt  n_nodes;
   ULong instrs, bytes_read, bytes_written, comm_in;
} CpSpan;

typedef struct {
   UInt  producer, consumer;     /* thread indices */
   ULong bytes, unma;
} CpThreadCell;

typedef struct {
   UInt  producer, pthread, consumer, cthread;   /* (node, thread) -> (node, thread) */
   ULong bytes, unma, accesses;
} CpThreadEdge;

typedef struct {
   UInt  producer, object, consumer;   /* node, object, node */
   ULong bytes, unma;
} CpObjFlow;

typedef struct {
   CpNodeEdge* edges;            /* cross-node edges, by bytes descending */
   UInt        n_edges;
   UInt        n_nodes;          /* = cp_n_nodes at the dump */
   ULong*      in_bytes;         /* per node */
   ULong*      in_unma;
   ULong*      out_bytes;
   ULong*      out_unma;
   ULong*      self_bytes;
   ULong*      self_unma;
   Bool*       active;           /* node appears in the profile */
   ULong       total_instrs, total_read, total_written;
   ULong       total_comm, total_comm_unma, total_self;
   UInt        n_active;
   const HChar* reason;          /* "exit", "exec", ... */
   /* threads, by index (0 unused) */
   UInt          n_threads;      /* = cp_n_threads */
   ULong*        thread_read;    /* bytes the thread's loads read */
   ULong*        thread_in;      /* bytes it consumed from other threads */
   ULong*        thread_out;     /* bytes other threads consumed from it */
   CpThreadCell* cells;          /* thread -> thread matrix, non-zero cells */
   UInt          n_cells;
   CpThreadEdge* tedges;         /* (function, thread) edges, all phases together */
   UInt          n_tedges;
   /* with --objects=yes: producer -> object -> consumer, by bytes descending */
   CpObjFlow*    flows;
   UInt          n_flows;
   /* with COMMPROF_PHASE: edges per (phase written, phase read) */
   CpPhaseEdge*  phase_edges;
   UInt          n_phase_edges;
   /* with --time-slice: the slice records and the phases found in them */
   CpSliceRec*   slices;         /* by slice, then node */
   UInt          n_slices;
   CpSpan*       spans;
   UInt          n_spans;
} CpReport;

void cp_output_init(void);              /* post_clo_init: check the outputs can be written */
void cp_output_write_all(const HChar* reason);
void cp_output_forked(void);            /* in a forked child */

/* writers */
Bool cp_write_xml(const HChar* name, const CpReport* r);
Bool cp_write_callgrind(const HChar* name, const CpReport* r);
Bool cp_write_dot(const HChar* name, const CpReport* r);
void cp_print_summary(const CpReport* r, const HChar* out_name, const HChar* xml_name,
                      const HChar* dot_name);

/* command line of the client, for the writers */
void cp_client_cmdline(HChar* buf, SizeT sz);

#endif
