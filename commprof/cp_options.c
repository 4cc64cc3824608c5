/* commprof: command-line options.
 *
 * Bad values get one line naming the option and the accepted values, and
 * exit status 1, before the client runs (Valgrind's own option macros print
 * three lines, so the parsing is done here). */

#include "cp_global.h"
#include "cp_options.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_xarray.h"

CpOptions cp_clo;

void cp_options_init(void)
{
   VG_(memset)(&cp_clo, 0, sizeof(cp_clo));
   cp_clo.out_file      = "commprof.out.%p";
   cp_clo.xml_file      = "commprof.out.%p.xml";
   cp_clo.dot_file      = "none";
   cp_clo.nodes         = CP_NODES_MAIN;
   cp_clo.ignore_stack  = False;
   cp_clo.granularity   = 1;
   cp_clo.gran_log2     = 0;
   cp_clo.summary_edges = 10;
   cp_clo.objects       = False;
   cp_clo.alloc_depth   = 8;
   cp_clo.collect_atstart = True;
   cp_clo.separate_callers = 0;
   cp_clo.time_slice    = 0;
   cp_clo.phase_threshold = 1;
   cp_clo.per_call      = False;
   cp_clo.per_call_max  = 10000;
   cp_clo.first_read    = False;
}

__attribute__((noreturn))
static void bad_option(const HChar* arg, const HChar* accepted)
{
   VG_(fmsg)("Bad option %s: %s\n", arg, accepted);
   VG_(exit)(1);
}

/* Valgrind's core takes --xml=yes (its XML error output, which commprof
   does not write), says that the tool does not support it and goes on; a
   user who meant commprof's XML profile would find an empty --xml-file and
   the profile elsewhere, so the run stops here, before the client runs. */
void cp_options_check_core(void)
{
   const HChar* xml = NULL;
   for (Word i = 0; i < VG_(sizeXA)(VG_(args_for_valgrind)); i++) {
      const HChar* a = *(HChar**)VG_(indexXA)(VG_(args_for_valgrind), i);
      if (VG_(strncmp)(a, "--xml=", 6) == 0) xml = a;
   }
   if (xml && VG_(strcmp)(xml, "--xml=no") != 0)
      bad_option(xml, "commprof writes no Valgrind XML error output; "
                      "its XML profile is --commprof-xml-file=FILE (default commprof.out.%p.xml)");
}

/* If arg is "NAME=value", return the value, else NULL. */
static const HChar* opt_value(const HChar* arg, const HChar* name)
{
   SizeT n = VG_(strlen)(name);
   if (VG_(strncmp)(arg, name, n) == 0 && arg[n] == '=') return arg + n + 1;
   return NULL;
}

static Bool parse_bool(const HChar* arg, const HChar* v)
{
   if (VG_(strcmp)(v, "yes") == 0) return True;
   if (VG_(strcmp)(v, "no") == 0) return False;
   bad_option(arg, "accepted values are yes and no");
}

static UInt parse_uint(const HChar* arg, const HChar* v, UInt lo, UInt hi,
                       const HChar* accepted)
{
   ULong n = 0;
   if (*v == 0) bad_option(arg, accepted);
   for (const HChar* p = v; *p; p++) {
      if (*p < '0' || *p > '9') bad_option(arg, accepted);
      n = n * 10 + (ULong)(*p - '0');
      if (n > hi) bad_option(arg, accepted);
   }
   if (n < lo) bad_option(arg, accepted);
   return (UInt)n;
}

static void check_file_name(const HChar* arg, const HChar* v)
{
   if (*v == 0) bad_option(arg, "expected a file name (with %p, %q{VAR}, %n as in --log-file) or none");
}

static void add_pattern(HChar*** list, UInt* n, const HChar* p, SizeT len)
{
   HChar* pat = VG_(malloc)("cp.options.pat", len + 1);
   VG_(memcpy)(pat, p, len);
   pat[len] = 0;
   *list = VG_(realloc)("cp.options.pats", *list, (*n + 2) * sizeof(HChar*));
   (*list)[(*n)++] = pat;
   (*list)[*n] = NULL;
}

/* Comma-separated patterns, none of them empty (--fn-include=, or a,,b is
   a mistake: it would select what no option selects). */
static void add_patterns(const HChar* arg, HChar*** list, UInt* n, const HChar* v)
{
   const HChar* p = v;
   for (;;) {
      const HChar* q = p;
      while (*q && *q != ',') q++;
      if (q == p) bad_option(arg, "expected a comma-separated list of patterns (* and ?), none of them empty");
      add_pattern(list, n, p, (SizeT)(q - p));
      if (*q == 0) break;
      p = q + 1;
   }
}

HChar* cp_read_file(const HChar* path, const HChar* cc, Int* err)
{
   SysRes r = VG_(open)(path, VKI_O_RDONLY, 0);
   if (sr_isError(r)) { *err = 1; return NULL; }
   Int fd = (Int)sr_Res(r);
   SizeT cap = 4096, len = 0;
   HChar* buf = VG_(malloc)(cc, cap + 1);
   for (;;) {
      if (len == cap) {
         cap *= 2;
         buf = VG_(realloc)(cc, buf, cap + 1);
      }
      Int got = VG_(read)(fd, buf + len, (Int)(cap - len));
      if (got < 0) {
         VG_(close)(fd);
         VG_(free)(buf);
         *err = 2;
         return NULL;
      }
      if (got == 0) break;
      len += (SizeT)got;
   }
   VG_(close)(fd);
   buf[len] = 0;
   *err = 0;
   return buf;
}

/* One pattern per line of a file; blank lines and lines starting with #
   are skipped (QUAD's monitor lists). */
static void add_pattern_file(const HChar* arg, HChar*** list, UInt* n, const HChar* path)
{
   if (*path == 0) bad_option(arg, "expected the name of a file with one function name pattern per line");
   Int err;
   HChar* buf = cp_read_file(path, "cp.options.file", &err);
   if (buf == NULL) bad_option(arg, err == 1 ? "cannot open the file" : "cannot read the file");
   HChar* p = buf;
   while (*p) {
      HChar* e = p;
      while (*e && *e != '\n') e++;
      HChar* s = p;
      while (s < e && (*s == ' ' || *s == '\t')) s++;
      HChar* t = e;
      while (t > s && (t[-1] == ' ' || t[-1] == '\t' || t[-1] == '\r')) t--;
      if (t > s && *s != '#') add_pattern(list, n, s, (SizeT)(t - s));
      p = *e ? e + 1 : e;
   }
   VG_(free)(buf);
}

Bool cp_process_cmd_line_option(const HChar* arg)
{
   const HChar* v;
   if ((v = opt_value(arg, "--commprof-out-file"))) {
      check_file_name(arg, v);
      cp_clo.out_file = v;
   } else if ((v = opt_value(arg, "--commprof-xml-file"))) {
      check_file_name(arg, v);
      cp_clo.xml_file = v;
   } else if ((v = opt_value(arg, "--commprof-dot-file"))) {
      check_file_name(arg, v);
      cp_clo.dot_file = v;
   } else if ((v = opt_value(arg, "--nodes"))) {
      if (VG_(strcmp)(v, "main") == 0) cp_clo.nodes = CP_NODES_MAIN;
      else if (VG_(strcmp)(v, "all") == 0) cp_clo.nodes = CP_NODES_ALL;
      else bad_option(arg, "accepted values are main and all");
   } else if ((v = opt_value(arg, "--node-objs"))) {
      add_patterns(arg, &cp_clo.node_objs, &cp_clo.n_node_objs, v);
   } else if ((v = opt_value(arg, "--fn-include"))) {
      add_patterns(arg, &cp_clo.fn_include, &cp_clo.n_fn_include, v);
   } else if ((v = opt_value(arg, "--fn-exclude"))) {
      add_patterns(arg, &cp_clo.fn_exclude, &cp_clo.n_fn_exclude, v);
   } else if ((v = opt_value(arg, "--fn-include-file"))) {
      add_pattern_file(arg, &cp_clo.fn_include, &cp_clo.n_fn_include, v);
   } else if ((v = opt_value(arg, "--fn-exclude-file"))) {
      add_pattern_file(arg, &cp_clo.fn_exclude, &cp_clo.n_fn_exclude, v);
   } else if ((v = opt_value(arg, "--std-nodes"))) {
      cp_clo.std_nodes = parse_bool(arg, v);
   } else if ((v = opt_value(arg, "--ignore-stack"))) {
      cp_clo.ignore_stack = parse_bool(arg, v);
   } else if ((v = opt_value(arg, "--granularity"))) {
      UInt g = parse_uint(arg, v, 1, 8, "accepted values are 1, 2, 4 and 8");
      if (g != 1 && g != 2 && g != 4 && g != 8)
         bad_option(arg, "accepted values are 1, 2, 4 and 8");
      cp_clo.granularity = g;
      cp_clo.gran_log2 = g == 1 ? 0 : g == 2 ? 1 : g == 4 ? 2 : 3;
   } else if ((v = opt_value(arg, "--summary-edges"))) {
      cp_clo.summary_edges = parse_uint(arg, v, 0, 100000,
                                        "accepted values are whole numbers from 0 to 100000");
   } else if ((v = opt_value(arg, "--objects"))) {
      cp_clo.objects = parse_bool(arg, v);
   } else if ((v = opt_value(arg, "--alloc-depth"))) {
      cp_clo.alloc_depth = parse_uint(arg, v, 1, CP_MAX_ALLOC_DEPTH,
                                      "accepted values are whole numbers from 1 to 50");
   } else if ((v = opt_value(arg, "--object-include"))) {
      add_patterns(arg, &cp_clo.obj_include, &cp_clo.n_obj_include, v);
   } else if ((v = opt_value(arg, "--object-exclude"))) {
      add_patterns(arg, &cp_clo.obj_exclude, &cp_clo.n_obj_exclude, v);
   } else if ((v = opt_value(arg, "--collect-atstart"))) {
      cp_clo.collect_atstart = parse_bool(arg, v);
   } else if ((v = opt_value(arg, "--collect-in"))) {
      add_patterns(arg, &cp_clo.collect_in, &cp_clo.n_collect_in, v);
   } else if ((v = opt_value(arg, "--separate-callers"))) {
      cp_clo.separate_callers = parse_uint(arg, v, 0, CP_MAX_SEPARATE_CALLERS,
                                           "accepted values are whole numbers from 0 to 16");
   } else if ((v = opt_value(arg, "--time-slice"))) {
      cp_clo.time_slice = parse_uint(arg, v, 0, 2000000000,
                                     "accepted values are 0 (off) or instructions per slice,"
                                     " from 1000 to 2000000000");
      if (cp_clo.time_slice != 0 && cp_clo.time_slice < 1000)
         bad_option(arg, "accepted values are 0 (off) or instructions per slice,"
                         " from 1000 to 2000000000");
   } else if ((v = opt_value(arg, "--per-call"))) {
      cp_clo.per_call = parse_bool(arg, v);
   } else if ((v = opt_value(arg, "--per-call-fns"))) {
      add_patterns(arg, &cp_clo.per_call_fns, &cp_clo.n_per_call_fns, v);
   } else if ((v = opt_value(arg, "--per-call-max"))) {
      cp_clo.per_call_max = parse_uint(arg, v, 1, 100000000,
                                       "accepted values are whole numbers from 1 to 100000000");
   } else if ((v = opt_value(arg, "--phase-threshold"))) {
      cp_clo.phase_threshold = parse_uint(arg, v, 1, 100,
                                          "accepted values are whole numbers from 1 to 100 (percent)");
   } else if ((v = opt_value(arg, "--first-read"))) {
      cp_clo.first_read = parse_bool(arg, v);
   } else {
      return False;
   }
   return True;
}

void cp_print_usage(void)
{
   VG_(printf)(
"    --commprof-out-file=<file>  callgrind-format communication profile\n"
"                                [commprof.out.%%p]; %%p is the pid, %%q{VAR}\n"
"                                an environment variable, %%n the number of\n"
"                                the write; 'none' writes nothing\n"
"    --commprof-xml-file=<file>  XML profile [commprof.out.%%p.xml]; 'none'\n"
"                                writes nothing\n"
"    --commprof-dot-file=<file>  communication graph in Graphviz DOT format,\n"
"                                the 60 heaviest edges [none]\n"
"    --nodes=main|all            which functions are nodes: those of the main\n"
"                                executable, or every function of every\n"
"                                object [main]\n"
"    --node-objs=<pat>[,<pat>]   also make the functions of the objects whose\n"
"                                path, file name or SONAME matches a pattern\n"
"                                (* and ?) nodes\n"
"    --fn-include=<pat>[,<pat>]  only functions whose name matches are nodes;\n"
"                                the others are charged to their nearest\n"
"                                node caller\n"
"    --fn-exclude=<pat>[,<pat>]  functions whose name matches are not nodes\n"
"    --fn-include-file=<file>    --fn-include patterns, one per line\n"
"    --fn-exclude-file=<file>    --fn-exclude patterns, one per line\n"
"    --std-nodes=no|yes          the C++ standard library's functions (std::,\n"
"                                __gnu_cxx::, their templates made in the\n"
"                                program: std::vector<int>::push_back) are\n"
"                                nodes; with no, their code is charged to\n"
"                                the function that calls them [no]\n"
"    --ignore-stack=no|yes       leave out accesses to the current thread's\n"
"                                stack [no]\n"
"    --granularity=1|2|4|8       bytes that share one producer entry in the\n"
"                                shadow map: larger is faster and smaller but\n"
"                                coarser [1]\n"
"    --objects=no|yes            data objects: heap allocation sites, globals,\n"
"                                sections, stacks, thread-local variables; flows\n"
"                                through them and memory regions per function [no]\n"
"    --alloc-depth=<n>           calls on a heap object's allocation path [8]\n"
"    --object-include=<pat>,...  report only objects whose name matches (a C++\n"
"                                static's demangled name or its symbol)\n"
"    --object-exclude=<pat>,...  do not report objects whose name matches\n"
"    --collect-atstart=yes|no    collect from the start, or only after a\n"
"                                COMMPROF_START() request [yes]\n"
"    --collect-in=<pat>,...      collect only while a function whose name\n"
"                                matches is on the thread's call stack (with\n"
"                                --separate-callers, a caller context's name\n"
"                                such as f'main too)\n"
"    --separate-callers=<n>      split functions by their last n callers [0]\n"
"    --time-slice=<n>            per-function bytes and instructions for\n"
"                                every n instructions, and the phases found\n"
"                                in them; 0 is off [0]\n"
"    --phase-threshold=<pct>     with --time-slice: a function is active in a\n"
"                                slice if it executed at least pct percent of\n"
"                                the slice's instructions [1]\n"
"    --first-read=no|yes         count, per edge, the bytes read for the first\n"
"                                time by the consumer since they were written\n"
"                                (costs 4 bytes per byte written and 4 per\n"
"                                byte read by each function) [no]\n"
"    --per-call=no|yes           per call of the --per-call-fns functions:\n"
"                                bytes consumed per producer and, with\n"
"                                --objects=yes, bytes and locality per\n"
"                                object; identical calls are aggregated [no]\n"
"    --per-call-fns=<pat>,...    functions followed by --per-call [all]\n"
"    --per-call-max=<n>          distinct call records kept [10000]\n"
"    --summary-edges=<n>         edges listed in the summary at exit [10]\n"
   );
}

void cp_print_debug_usage(void)
{
   VG_(printf)("    (none)\n");
}

/* ---- the options as name=value pairs, for the output files ---- */

static void join(HChar* value, SizeT value_sz, HChar** list, UInt n)
{
   SizeT k = 0;
   value[0] = 0;
   for (UInt j = 0; j < n && k + 1 < value_sz; j++)
      k += VG_(snprintf)(value + k, value_sz - k, "%s%s", j ? "," : "", list[j]);
}

static const HChar* const option_names[] = {
   "commprof-out-file", "commprof-xml-file", "commprof-dot-file", "nodes", "node-objs",
   "fn-include", "fn-exclude", "ignore-stack", "granularity", "objects", "alloc-depth",
   "object-include", "object-exclude", "summary-edges", "collect-atstart", "collect-in",
   "separate-callers", "time-slice", "first-read", "phase-threshold", "per-call",
   "per-call-fns", "per-call-max", "std-nodes"
};

UInt cp_options_count(void)
{
   return sizeof(option_names) / sizeof(option_names[0]);
}

void cp_option_at(UInt i, const HChar** name, HChar* value, SizeT value_sz)
{
   *name = option_names[i];
   value[0] = 0;
   switch (i) {
   case 0:  VG_(snprintf)(value, value_sz, "%s", cp_clo.out_file); break;
   case 1:  VG_(snprintf)(value, value_sz, "%s", cp_clo.xml_file); break;
   case 2:  VG_(snprintf)(value, value_sz, "%s", cp_clo.dot_file); break;
   case 3:  VG_(snprintf)(value, value_sz, "%s", cp_clo.nodes == CP_NODES_ALL ? "all" : "main"); break;
   case 4:  join(value, value_sz, cp_clo.node_objs, cp_clo.n_node_objs); break;
   case 5:  join(value, value_sz, cp_clo.fn_include, cp_clo.n_fn_include); break;
   case 6:  join(value, value_sz, cp_clo.fn_exclude, cp_clo.n_fn_exclude); break;
   case 7:  VG_(snprintf)(value, value_sz, "%s", cp_clo.ignore_stack ? "yes" : "no"); break;
   case 8:  VG_(snprintf)(value, value_sz, "%u", cp_clo.granularity); break;
   case 9:  VG_(snprintf)(value, value_sz, "%s", cp_clo.objects ? "yes" : "no"); break;
   case 10: VG_(snprintf)(value, value_sz, "%u", cp_clo.alloc_depth); break;
   case 11: join(value, value_sz, cp_clo.obj_include, cp_clo.n_obj_include); break;
   case 12: join(value, value_sz, cp_clo.obj_exclude, cp_clo.n_obj_exclude); break;
   case 13: VG_(snprintf)(value, value_sz, "%u", cp_clo.summary_edges); break;
   case 14: VG_(snprintf)(value, value_sz, "%s", cp_clo.collect_atstart ? "yes" : "no"); break;
   case 15: join(value, value_sz, cp_clo.collect_in, cp_clo.n_collect_in); break;
   case 16: VG_(snprintf)(value, value_sz, "%u", cp_clo.separate_callers); break;
   case 17: VG_(snprintf)(value, value_sz, "%llu", cp_clo.time_slice); break;
   case 18: VG_(snprintf)(value, value_sz, "%s", cp_clo.first_read ? "yes" : "no"); break;
   case 19: VG_(snprintf)(value, value_sz, "%u", cp_clo.phase_threshold); break;
   case 20: VG_(snprintf)(value, value_sz, "%s", cp_clo.per_call ? "yes" : "no"); break;
   case 21: join(value, value_sz, cp_clo.per_call_fns, cp_clo.n_per_call_fns); break;
   case 22: VG_(snprintf)(value, value_sz, "%u", cp_clo.per_call_max); break;
   case 23: VG_(snprintf)(value, value_sz, "%s", cp_clo.std_nodes ? "yes" : "no"); break;
   default: break;
   }
}
