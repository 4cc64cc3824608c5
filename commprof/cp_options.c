/* commprof: command-line options.
 *
 * Bad values get one line naming the option and the accepted values, and
 * exit status 1, before the client runs (Valgrind's own option macros print
 * three lines, so the parsing is done here). */

#include "cp_global.h"
#include "cp_options.h"

CpOptions cp_clo;

void cp_options_init(void)
{
   cp_clo.out_file      = "commprof.out.%p";
   cp_clo.xml_file      = "commprof.out.%p.xml";
   cp_clo.dot_file      = "none";
   cp_clo.nodes         = CP_NODES_MAIN;
   cp_clo.node_objs     = NULL;
   cp_clo.n_node_objs   = 0;
   cp_clo.ignore_stack  = False;
   cp_clo.granularity   = 1;
   cp_clo.gran_log2     = 0;
   cp_clo.summary_edges = 10;
}

__attribute__((noreturn))
static void bad_option(const HChar* arg, const HChar* accepted)
{
   VG_(fmsg)("Bad option %s: %s\n", arg, accepted);
   VG_(exit)(1);
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

static void add_node_objs(const HChar* list)
{
   /* split on commas; each non-empty piece is a pattern */
   const HChar* p = list;
   while (*p) {
      const HChar* q = p;
      while (*q && *q != ',') q++;
      if (q > p) {
         SizeT n = (SizeT)(q - p);
         HChar* pat = VG_(malloc)("cp.options.pat", n + 1);
         VG_(memcpy)(pat, p, n);
         pat[n] = 0;
         cp_clo.node_objs = VG_(realloc)("cp.options.pats", cp_clo.node_objs,
                                         (cp_clo.n_node_objs + 2) * sizeof(HChar*));
         cp_clo.node_objs[cp_clo.n_node_objs++] = pat;
         cp_clo.node_objs[cp_clo.n_node_objs] = NULL;
      }
      p = *q ? q + 1 : q;
   }
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
      if (*v == 0) bad_option(arg, "expected a comma-separated list of object name patterns");
      add_node_objs(v);
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
"                                an environment variable; 'none' writes nothing\n"
"    --commprof-xml-file=<file>  XML profile [commprof.out.%%p.xml]; 'none'\n"
"                                writes nothing\n"
"    --commprof-dot-file=<file>  communication graph in Graphviz DOT format,\n"
"                                the 60 heaviest edges [none]\n"
"    --nodes=main|all            which functions are nodes: those of the main\n"
"                                executable, or every function of every\n"
"                                object [main]\n"
"    --node-objs=<pat>[,<pat>]   also make the functions of the objects whose\n"
"                                file name matches a pattern (* and ?) nodes\n"
"    --ignore-stack=no|yes       leave out accesses to the current thread's\n"
"                                stack [no]\n"
"    --granularity=1|2|4|8       bytes that share one producer entry in the\n"
"                                shadow map: larger is faster and smaller but\n"
"                                coarser [1]\n"
"    --summary-edges=<n>         edges listed in the summary at exit [10]\n"
   );
}

void cp_print_debug_usage(void)
{
   VG_(printf)("    (none)\n");
}

static const HChar* const option_names[] = {
   "commprof-out-file", "commprof-xml-file", "commprof-dot-file", "nodes", "node-objs",
   "ignore-stack", "granularity", "summary-edges"
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
   case 0: VG_(snprintf)(value, value_sz, "%s", cp_clo.out_file); break;
   case 1: VG_(snprintf)(value, value_sz, "%s", cp_clo.xml_file); break;
   case 2: VG_(snprintf)(value, value_sz, "%s", cp_clo.dot_file); break;
   case 3: VG_(snprintf)(value, value_sz, "%s", cp_clo.nodes == CP_NODES_ALL ? "all" : "main"); break;
   case 4: {
      SizeT k = 0;
      for (UInt j = 0; j < cp_clo.n_node_objs && k + 1 < value_sz; j++)
         k += VG_(snprintf)(value + k, value_sz - k, "%s%s", j ? "," : "", cp_clo.node_objs[j]);
      break;
   }
   case 5: VG_(snprintf)(value, value_sz, "%s", cp_clo.ignore_stack ? "yes" : "no"); break;
   case 6: VG_(snprintf)(value, value_sz, "%u", cp_clo.granularity); break;
   case 7: VG_(snprintf)(value, value_sz, "%u", cp_clo.summary_edges); break;
   default: break;
   }
}
