/* commprof: events from Valgrind's core (see cp_events.h).
 *
 * Memory the kernel writes is produced by the (syscall NAME) node of the
 * system call the thread is in, or by (signal frame) / (client request);
 * memory that is mapped, unmapped or moved gets its producers reset or moved
 * in the shadow map. */

#include "cp_global.h"
#include "cp_events.h"
#include "cp_shadow.h"
#include "cp_nodes.h"
#include "cp_edges.h"
#include "cp_callstack.h"
#include "cp_output.h"
#include "pub_tool_vkiscnums.h"

static Word* cur_syscall;          /* by ThreadId: system call in progress, -1 if none */

void cp_events_init(void)
{
   cur_syscall = VG_(malloc)("cp.events.sys", VG_N_THREADS * sizeof(Word));
   for (UInt i = 0; i < VG_N_THREADS; i++) cur_syscall[i] = -1;
}

/* ---- memory ---- */

static void forget(Addr a, SizeT len)
{
   cp_shadow_set_range(a, len, 0);
}

static void new_mem_mmap(Addr a, SizeT len, Bool rr, Bool ww, Bool xx, ULong di)
{
   forget(a, len);
}

static void new_mem_brk(Addr a, SizeT len, ThreadId tid)
{
   forget(a, len);
}

static void copy_mem_remap(Addr from, Addr to, SizeT len)
{
   cp_shadow_copy_range(to, from, len);
}

static void post_mem_write(CorePart part, ThreadId tid, Addr a, SizeT len)
{
   UInt node;
   switch (part) {
   case Vg_CoreSysCall:
      node = (tid < VG_N_THREADS && cur_syscall[tid] >= 0)
             ? cp_node_syscall(cur_syscall[tid]) : cp_node_syscall(-1);
      break;
   case Vg_CoreSignal:
      node = CP_NODE_SIGFRAME;
      break;
   case Vg_CoreClientReq:
      node = CP_NODE_CLREQ;
      break;
   default:
      return;
   }
   if (tid == VG_INVALID_THREADID || tid >= VG_N_THREADS) return;
   cp_shadow_set_range(a, len, cp_ctx_of_thread(cp_thread_of(tid), node));
}

/* ---- system calls ---- */

static void pre_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nargs)
{
   if (tid < VG_N_THREADS) cur_syscall[tid] = (Word)sysno;
   if (sysno == __NR_execve || sysno == __NR_execveat) {
      /* the new image replaces the tool too: keep what this one saw */
      cp_output_write_all("exec");
   }
}

static void post_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nargs, SysRes res)
{
   if (tid < VG_N_THREADS) cur_syscall[tid] = -1;
}

/* ---- threads and signals ---- */

static void thread_created(ThreadId parent, ThreadId child)
{
   cp_thread_created(child);
}

static void thread_exited(ThreadId tid)
{
   cp_thread_exited(tid);
}

static void start_client_code(ThreadId tid, ULong blocks)
{
   cp_thread_switch(tid);
}

static void pre_deliver_signal(ThreadId tid, Int sig, Bool alt_stack)
{
   cp_signal_pre(tid, alt_stack);
}

static void post_deliver_signal(ThreadId tid, Int sig)
{
   cp_signal_post(tid);
}

/* ---- fork ---- */

static void atfork_child(ThreadId tid)
{
   /* the child profiles what it does itself, into its own files */
   cp_threads_after_fork(tid);
   cp_edges_reset();
   cp_nodes_reset_counters();
   cp_output_forked();
}

void cp_events_register(void)
{
   VG_(track_new_mem_mmap)(new_mem_mmap);
   VG_(track_new_mem_brk)(new_mem_brk);
   VG_(track_die_mem_brk)(forget);
   VG_(track_die_mem_munmap)(forget);
   VG_(track_copy_mem_remap)(copy_mem_remap);
   VG_(track_post_mem_write)(post_mem_write);
   VG_(needs_syscall_wrapper)(pre_syscall, post_syscall);
   VG_(track_pre_thread_ll_create)(thread_created);
   VG_(track_pre_thread_ll_exit)(thread_exited);
   VG_(track_start_client_code)(start_client_code);
   VG_(track_pre_deliver_signal)(pre_deliver_signal);
   VG_(track_post_deliver_signal)(post_deliver_signal);
   VG_(atfork)(NULL, NULL, atfork_child);
}
