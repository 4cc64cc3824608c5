/* commprof: command-line options. */
#ifndef CP_OPTIONS_H
#define CP_OPTIONS_H

#include "pub_tool_basics.h"

typedef enum { CP_NODES_MAIN, CP_NODES_ALL } CpNodesMode;

#define CP_MAX_ALLOC_DEPTH 50
#define CP_MAX_SEPARATE_CALLERS 16

typedef struct {
   const HChar* out_file;       /* --commprof-out-file, "none" = do not write */
   const HChar* xml_file;       /* --commprof-xml-file, "none" = do not write */
   const HChar* dot_file;       /* --commprof-dot-file, "none" = do not write */
   CpNodesMode  nodes;          /* --nodes */
   HChar**      node_objs;      /* --node-objs patterns, NULL-terminated */
   UInt         n_node_objs;
   Bool         ignore_stack;   /* --ignore-stack */
   UInt         granularity;    /* --granularity: 1, 2, 4, 8 */
   UInt         gran_log2;
   UInt         summary_edges;  /* --summary-edges: edges listed in the stderr summary */
   Bool         objects;        /* --objects: data objects and memory regions */
   UInt         alloc_depth;    /* --alloc-depth: calls on a heap object's allocation path */
   HChar**      obj_include;    /* --object-include patterns */
   UInt         n_obj_include;
   HChar**      obj_exclude;    /* --object-exclude patterns */
   UInt         n_obj_exclude;
   HChar**      fn_include;     /* --fn-include patterns (and --fn-include-file) */
   UInt         n_fn_include;
   HChar**      fn_exclude;     /* --fn-exclude patterns (and --fn-exclude-file) */
   UInt         n_fn_exclude;
   Bool         std_nodes;      /* --std-nodes: the C++ standard library's functions are nodes */
   Bool         collect_atstart;   /* --collect-atstart */
   HChar**      collect_in;     /* --collect-in patterns */
   UInt         n_collect_in;
   UInt         separate_callers;  /* --separate-callers */
   ULong        time_slice;     /* --time-slice: instructions per slice, 0 = off */
   UInt         phase_threshold;   /* --phase-threshold: percent of a slice's instructions */
   Bool         first_read;     /* --first-read */
   Bool         per_call;       /* --per-call */
   HChar**      per_call_fns;   /* --per-call-fns patterns (none: every function) */
   UInt         n_per_call_fns;
   UInt         per_call_max;   /* --per-call-max: distinct call records kept */
} CpOptions;

extern CpOptions cp_clo;

void cp_options_init(void);
Bool cp_process_cmd_line_option(const HChar* arg);
void cp_print_usage(void);
/* Refuse the core's options that commprof cannot honour (--xml=yes). */
void cp_options_check_core(void);
/* The whole file at path, 0-terminated, in a block of cost centre cc (to
   VG_(free)); NULL with *err 1 if it cannot be opened, 2 if not read. */
HChar* cp_read_file(const HChar* path, const HChar* cc, Int* err);
void cp_print_debug_usage(void);
/* Options as "name=value" pairs for the output files' metadata. */
UInt cp_options_count(void);
void cp_option_at(UInt i, const HChar** name, HChar* value, SizeT value_sz);

#endif
