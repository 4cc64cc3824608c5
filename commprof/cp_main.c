/* commprof: a Valgrind tool that measures the data communication between the
 * functions of a program.  This file wires the modules to Valgrind's core:
 *
 *   cp_options      command-line options
 *   cp_instrument   VEX IR instrumentation (attribution resolved statically)
 *   cp_access       per-access helpers (the hot path)
 *   cp_shadow       shadow map of last writers            (pure, unit-tested)
 *   cp_edges        edge tables and exact address sets    (pure, unit-tested)
 *   cp_nodes        functions, special producers, contexts
 *   cp_callstack    threads and their stacks of node frames
 *   cp_heap         malloc replacement
 *   cp_events       memory maps, system calls, threads, signals, fork, exec
 *   cp_output       folding the profile, files written atomically
 *   cp_out_xml, cp_out_callgrind, cp_summary   the writers
 */

#include "cp_global.h"
#include "cp_options.h"
#include "cp_instrument.h"
#include "cp_deadloads.h"
#include "cp_shadow.h"
#include "cp_edges.h"
#include "cp_nodes.h"
#include "cp_callstack.h"
#include "cp_heap.h"
#include "cp_events.h"
#include "cp_output.h"
#include "cp_objects.h"
#include "cp_timeline.h"
#include "cp_firstread.h"
#include "cp_percall.h"
#include "pub_tool_aspacemgr.h"
#include "commprof.h"
#include "cp_events.h"
#include "cp_instrument.h"
#include "cp_callstack.h"
#include "pub_tool_gdbserver.h"

/* Zeroed memory for shadow chunks, straight from the address-space manager
   (page-granular, returned to the system when freed). */
void* cp_big_alloc(SizeT n)
{
   void* p = VG_(am_shadow_alloc)(n);
   if (p == NULL) VG_(out_of_memory_NORETURN)("commprof: shadow memory", n);
   return p;
}

void cp_big_free(void* p, SizeT n)
{
   VG_(am_munmap_valgrind)((Addr)p, n);
}

static void cp_post_clo_init(void)
{
   cp_options_check_core();
   cp_output_init();                 /* fails early if an output cannot be written */
   cp_shadow_init(&cp_shadow, cp_clo.gran_log2, True);
   cp_shadow.checkpoints = VG_(clo_stats);   /* shadow per byte near the peak, for --stats */
   cp_edges_init(&cp_edges);
   cp_threads_init();
   cp_nodes_init();
   cp_threads_nodes_ready();
   cp_heap_init();
   if (cp_clo.objects) cp_objects_init();
   cp_timeline_init();
   cp_firstread_init();
   cp_percall_init();
   cp_events_init();
   cp_instrument_init();
}

static void cp_fini(Int exitcode)
{
   cp_output_write_all("exit");
   cp_report_unmatched_patterns();
   cp_instrument_report_unmatched_objs();
   if (!cp_collect_ever_on())
      VG_(umsg)("commprof: warning: nothing was collected: with --collect-atstart=no collection starts at "
                "COMMPROF_START(), which the program never called%s\n",
                cp_clo.n_collect_in ? " (--collect-in narrows collection to its functions, it does not "
                                      "switch it on)" : "");
   if (VG_(clo_stats)) {
      ULong written = cp_shadow_sample_written(&cp_shadow);
      CpShadowStats st;
      cp_shadow_get_stats(&cp_shadow, &st);
      /* hundredths of shadow bytes per application byte */
      ULong table = cp_shadow_table_bytes(&st);
      ULong per = written ? (st.bytes_live + table) * 100 / written : 0;
      ULong per_ck = st.ckpt_written_bytes ? st.ckpt_shadow_bytes * 100 / st.ckpt_written_bytes : 0;
      VG_(dmsg)("commprof: shadow chunks: %llu live, %llu peak; %llu bytes live, %llu bytes peak\n",
                st.chunks_live, st.chunks_peak, st.bytes_live, st.bytes_peak);
      VG_(dmsg)("commprof: shadow table: %llu pages used, %llu bytes\n", st.table_pages, table);
      VG_(dmsg)("commprof: shadow: %llu chunks materialised, %llu made uniform again;"
                " %llu coarse and %llu wide live; %llu refined, %llu palettes grown, %llu palettes"
                " compacted, %llu chunks widened\n",
                st.materialised, st.made_uniform, st.coarse_live, st.wide_live, st.refined,
                st.palettes_grown, st.compacted, st.widened);
      VG_(dmsg)("commprof: application bytes with a producer at exit: %llu;"
                " shadow bytes (chunks and table) per such byte: %llu.%02llu\n", written, per / 100, per % 100);
      VG_(dmsg)("commprof: near the peak: %llu shadow bytes (chunks and table) for %llu application bytes with a"
                " producer: %llu.%02llu shadow bytes per byte\n",
                st.ckpt_shadow_bytes, st.ckpt_written_bytes, per_ck / 100, per_ck % 100);
      ULong peak = st.bytes_peak + table;    /* the table's pages are never given back */
      ULong per_pk = st.written_peak ? peak * 100 / st.written_peak : 0;
      VG_(dmsg)("commprof: peak: %llu shadow bytes (chunks and table); most application bytes with a"
                " producer at one count: %llu (%llu counts): %llu.%02llu shadow bytes per byte\n",
                peak, st.written_peak, st.written_samples, per_pk / 100, per_pk % 100);
      VG_(dmsg)("commprof: address sets: %llu bitmaps live, %llu peak (%llu bytes peak);"
                " %llu pieces of 4 Ki addresses filled\n",
                cp_addrset_stats.bitmaps_live, cp_addrset_stats.bitmaps_peak,
                cp_addrset_stats.bitmaps_peak * (ULong)(CP_PAGE_WORDS * sizeof(ULong)),
                cp_addrset_stats.subs_filled);
      VG_(dmsg)("commprof: nodes %u, contexts %u, context edges %u\n",
                cp_n_nodes, cp_n_ctxs, cp_edges_count(&cp_edges));
      VG_(dmsg)("commprof: blocks made again for the loads the optimiser removed: %llu\n",
                cp_deadloads_bounced());
   }
}

/* vgdb monitor commands: "help", "dump". */
static Bool monitor_command(const HChar* cmd)
{
   while (*cmd == ' ') cmd++;
   if (VG_(strncmp)(cmd, "dump", 4) == 0 && (cmd[4] == 0 || cmd[4] == ' ')) {
      cp_output_write_all("request");
      VG_(gdb_printf)("commprof: profile written\n");
      return True;
   }
   if (VG_(strcmp)(cmd, "help") == 0) {
      VG_(gdb_printf)("commprof monitor commands:\n"
                      "  dump    write the profile files now\n");
      return True;
   }
   return False;
}

static Bool cp_handle_client_request(ThreadId tid, UWord* arg, UWord* ret)
{
   HChar name[256];
   if (arg[0] == VG_USERREQ__GDB_MONITOR_COMMAND) {
      /* the command is a string of gdbserver's, in Valgrind's memory */
      const HChar* cmd = (const HChar*)arg[1];
      if (!cmd) return False;
      *ret = monitor_command(cmd);
      return (Bool)*ret;
   }
   if (!VG_IS_TOOL_USERREQ('C', 'P', arg[0])) return False;
   *ret = 0;
   switch (arg[0]) {
   case VG_USERREQ__COMMPROF_DUMP_PROFILE:
      cp_output_write_all("request");
      break;
   case VG_USERREQ__COMMPROF_START:
   case VG_USERREQ__COMMPROF_STOP:
      cp_instrument_need(CP_NEED_COLLECT);
      cp_collect_set(arg[0] == VG_USERREQ__COMMPROF_START);
      break;
   case VG_USERREQ__COMMPROF_REGION_BEGIN:
   case VG_USERREQ__COMMPROF_REGION_END:
      if (!cp_copy_client_string(arg[1], name, sizeof(name)) || name[0] == 0) {
         VG_(umsg)("commprof: a code region needs a name: request ignored\n");
         break;
      }
      cp_instrument_need(CP_NEED_REDIRECT);
      if (arg[0] == VG_USERREQ__COMMPROF_REGION_BEGIN) cp_region_begin(tid, name);
      else cp_region_end(tid, name);
      break;
   case VG_USERREQ__COMMPROF_PHASE:
      if (!cp_copy_client_string(arg[1], name, sizeof(name)) || name[0] == 0) {
         VG_(umsg)("commprof: COMMPROF_PHASE needs a name: request ignored\n");
         break;
      }
      cp_phase_begin(name);
      break;
   case VG_USERREQ__COMMPROF_NAME_OBJECT:
      if (!cp_clo.objects) break;
      if (!cp_copy_client_string(arg[3], name, sizeof(name)) || name[0] == 0) {
         VG_(umsg)("commprof: COMMPROF_NAME_OBJECT needs a name: request ignored\n");
         break;
      }
      cp_objects_name_range((Addr)arg[1], (SizeT)arg[2], name);
      break;
   case VG_USERREQ__COMMPROF_RUNNING:
      *ret = 1;
      break;
   default:
      VG_(message)(Vg_UserMsg, "commprof: unknown client request 0x%lx ignored\n", arg[0]);
      break;
   }
   return True;
}

static void cp_pre_clo_init(void)
{
   VG_(details_name)("commprof");
   VG_(details_version)(CP_TOOL_VERSION);
   VG_(details_description)("data communication between functions");
   VG_(details_copyright_author)("Copyright (C) 2026, the commprof authors.");
   VG_(details_bug_reports_to)("the commprof issue tracker");
   VG_(details_avg_translation_sizeB)(600);

   VG_(basic_tool_funcs)(cp_post_clo_init, cp_instrument, cp_fini);
   VG_(needs_command_line_options)(cp_process_cmd_line_option,
                                   cp_print_usage, cp_print_debug_usage);
   VG_(needs_client_requests)(cp_handle_client_request);
   cp_options_init();
   cp_heap_register();
   cp_events_register();
}

VG_DETERMINE_INTERFACE_VERSION(cp_pre_clo_init)
