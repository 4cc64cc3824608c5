/* commprof: nodes (functions and special producers) and contexts.
 *
 * A node is a function that counts as a producer/consumer, or one of the
 * special producers of docs/definitions.md.  A context is a (node, thread)
 * pair; the shadow map stores context ids, so every byte's producer is known
 * down to the thread that wrote it.  Context 0 is (unwritten). */
#ifndef CP_NODES_H
#define CP_NODES_H

#include "pub_tool_basics.h"

typedef enum { CP_KIND_FUNCTION = 0, CP_KIND_SPECIAL = 1, CP_KIND_REGION = 2 } CpNodeKind;

/* Edges a node remembers: a loop that reads the data of up to this many
   producers finds its edge without a table lookup. */
#define CP_NODE_ECACHE 4

typedef struct CpNode {
   ULong  instrs;          /* instructions charged (generated code adds to it) */
   ULong  mem_instrs;      /* of which access memory (generated code adds to it) */
   ULong  calls;           /* entries at the first instruction of its code (or of
                              a clone's, see cp_node_function) */
   ULong  bytes_read;      /* bytes of loads charged to the node */
   ULong  bytes_written;   /* bytes of stores charged to the node */
   ULong  loads, stores;   /* accesses */
   ULong  stack_loads, stack_stores;            /* of which to the thread's own stack */
   ULong  stack_bytes_read, stack_bytes_written;
   ULong  ecache_key[CP_NODE_ECACHE];   /* the last edges this node consumed on, the */
   void*  ecache_edge[CP_NODE_ECACHE];  /* newest first (hot path cache); 0 / NULL when none */
   ULong  heap_bytes_read, heap_bytes_written;      /* with --objects=yes only */
   ULong  global_bytes_read, global_bytes_written;  /* with --objects=yes only */
   UInt   id;
   UInt   kind;            /* CpNodeKind */
   Addr   entry;           /* first instruction (functions), 0 for specials */
   HChar* name;            /* demangled */
   HChar* object;          /* object file, "" for specials */
   HChar* file;            /* source file of the entry, "" if unknown */
   HChar* dir;             /* its directory, "" if unknown */
   UInt   line;            /* source line of the entry, 0 if unknown */
   UInt   base;            /* with --separate-callers: the function this is a
                              caller context of; else the node itself */
   UInt*  callers;         /* that context: the calling functions, innermost first */
   UInt   n_callers;
   Bool   collect_in;      /* a --collect-in function */
   Bool   per_call;        /* followed by --per-call */
   ULong  comm_in;         /* bytes consumed from other nodes (with --time-slice) */
} CpNode;

/* Fixed special nodes; syscall nodes are made on demand. */
enum {
   CP_NODE_UNWRITTEN = 0,
   CP_NODE_ALLOCATOR = 1,
   CP_NODE_NOFN      = 2,
   CP_NODE_SIGFRAME  = 3,
   CP_NODE_CLREQ     = 4,
   CP_NODE_N_FIXED   = 5
};

extern CpNode** cp_nodes;        /* by id */
extern UInt     cp_n_nodes;

void    cp_nodes_init(void);
/* The lists of function name patterns whose patterns that matched nothing
   are reported at exit. */
typedef enum { CP_PAT_FN_INCLUDE, CP_PAT_COLLECT_IN, CP_PAT_PER_CALL_FNS, CP_PAT_LISTS } CpPatternList;
/* Pattern i of list matched a function that ran. */
void    cp_pattern_matched(CpPatternList list, UInt i);
Bool    cp_pattern_has_matched(CpPatternList list, UInt i);
/* At exit: one line per pattern that no function that ran matched. */
void    cp_report_unmatched_patterns(void);
/* The node of the function whose code starts at entry, whose symbol is
   name, made if absent.  The parts and clones GCC makes of a function
   (f.cold, f.part.0, f.constprop.0, f.isra.0, "f(int) [clone .cold]", ...)
   are the function: they share one node, named as the source names it
   (cp_fn_source_len), in the same object. */
CpNode* cp_node_function(Addr entry, const HChar* name, const HChar* object,
                         const HChar* file, const HChar* dir, UInt line);
/* The code at [lo, hi) is unmapped: its entries no longer name nodes (the
   nodes stay, with their counts; code mapped there later gets its own). */
void    cp_nodes_forget_code(Addr lo, Addr hi);
/* The length of the source function's name at the start of symbol name:
   without GCC's suffixes of parts and clones (".cold", ".part.N",
   ".constprop.N", ".isra.N", ... after a C identifier, " [clone .X]" after
   a C++ name). */
SizeT   cp_fn_source_len(const HChar* name);
/* Is symbol name a part GCC split off a function's unlikely paths (.cold),
   entered by jumps from the function's own code, never by calls? */
Bool    cp_fn_is_cold_part(const HChar* name);
/* Is symbol name an OpenMP region gcc outlined from a function
   (f._omp_fn.0, f._omp_cpyfn.1), which each thread of a team enters? */
Bool    cp_fn_is_outlined_region(const HChar* name);
/* The special node "(syscall NAME)" for system call sysno. */
UInt    cp_node_syscall(Word sysno);
/* The special node "(dynamic linker)": the dynamic linker's lazy binding of
   a symbol (its resolver and all it calls), made on first need. */
CpNode* cp_node_dynlinker(void);
/* The special node "(library data)": a run-time library's code using the
   library's own data (its image, the executable's copies of its objects,
   thread-local memory, the FILE and DIR blocks it allocates: see
   cp_access.h), made on first need. */
CpNode* cp_node_libdata(void);
/* Is node id (library data)'s (made yet)? */
Bool    cp_is_libdata_node(UInt node);
/* Is node (library data) or (dynamic linker), the run-time's own work? */
Bool    cp_node_is_runtime(UInt node);
/* The code region named name (client requests), made if absent. */
CpNode* cp_node_region(const HChar* name);
/* Function fn called from the functions callers[0..n) (innermost first). */
CpNode* cp_node_context(CpNode* fn, const UInt* callers, UInt n);
/* Zero every node's counters and the phases' starts (a forked child
   starts afresh, its clock at 0). */
void    cp_nodes_reset_counters(void);
/* For the summary and the DOT graph: which function nodes share their name
   with another (two static functions of one name, one name in two
   objects): [i] for node i, an array the caller frees; and the name shown
   for node n, "name [file:line]" (else [file], else [object's file name])
   when shared, as commprof-report shows it. */
Bool*         cp_nodes_shared_names(void);
const HChar*  cp_node_display_name(const CpNode* n, Bool shared, HChar* buf, SizeT size);

/* ---- contexts ---- */
typedef struct {
   UInt node;
   UInt thread;            /* thread index (creation order, 1 = main), 0 for (unwritten) */
   UInt phase;             /* phase (COMMPROF_PHASE) current when the context was made */
} CpCtx;

/* Phases: 0 until the first COMMPROF_PHASE, then 1, 2, ... */
typedef struct { HChar* name; ULong start; } CpPhase;
extern CpPhase* cp_phases;
extern UInt     cp_n_phases;     /* phases so far (>= 1) */
extern UInt     cp_cur_phase;
void cp_phase_begin(const HChar* name);

extern CpCtx* cp_ctxs;           /* by context id */
extern UInt   cp_n_ctxs;
/* Called by the thread module when a map entry is still 0. */
UInt    cp_ctx_new(UInt node, UInt thread);

#endif
