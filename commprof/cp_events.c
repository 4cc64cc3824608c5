/* commprof: events from Valgrind's core (see cp_events.h).
 *
 * Memory the kernel writes is produced by the (syscall NAME) node of the
 * system call the thread is in, or by (signal frame) / (client request);
 * memory that is mapped, unmapped or moved gets its producers reset or moved
 * in the shadow map. */

#include "cp_global.h"
#include "cp_events.h"
#include "cp_shadow.h"
#include "cp_access.h"
#include "cp_nodes.h"
#include "cp_edges.h"
#include "cp_callstack.h"
#include "cp_output.h"
#include "cp_objects.h"
#include "cp_timeline.h"
#include "cp_elfsyms.h"
#include "cp_percall.h"
#include "cp_options.h"
#include "cp_instrument.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_machine.h"
#if defined(VGA_amd64)
#include "libvex_guest_amd64.h"
#endif

static Word* cur_syscall;          /* by ThreadId: system call in progress, -1 if none */
static Int*  pending_comm_lwp;     /* by ThreadId: lwp of a .../task/LWP/comm open in progress */
static Bool* futex_reads_only;     /* by ThreadId: the futex call in progress writes nothing */

void cp_events_init(void)
{
   cur_syscall = VG_(malloc)("cp.events.sys", VG_N_THREADS * sizeof(Word));
   for (UInt i = 0; i < VG_N_THREADS; i++) cur_syscall[i] = -1;
   futex_reads_only = VG_(calloc)("cp.events.futex", VG_N_THREADS, sizeof(Bool));
   pending_comm_lwp = VG_(calloc)("cp.events.comm", VG_N_THREADS, sizeof(Int));
}

/* ---- memory ---- */

static void forget(Addr a, SizeT len)
{
   cp_record_write(a, len, 0);
}

/* Memory unmapped, or given back by brk: its producers are forgotten, and
   the named ranges on it end (their written bytes stay to their credit). */
static void die_mem(Addr a, SizeT len)
{
   if (cp_clo.objects) cp_objects_memory_gone(a, len);
   forget(a, len);
   cp_instrument_code_gone(a, len);
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
   cp_record_copy(to, from, len);
}

static void post_mem_write(CorePart part, ThreadId tid, Addr a, SizeT len)
{
   UInt node;
   switch (part) {
   case Vg_CoreSysCall:
      /* Valgrind takes every futex call for a write of the futex word; only
         the PI and WAKE_OP operations write one */
      if (tid < VG_N_THREADS && cur_syscall[tid] == __NR_futex && futex_reads_only[tid]) return;
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
   CpThread* t = cp_thread_of(tid);
   cp_record_write_for(t, a, len, cp_ctx_of_thread(t, node));
}

/* ---- thread names ---- */

Bool cp_copy_client_string(Addr a, HChar* buf, SizeT max)
{
   for (SizeT i = 0; i + 1 < max; i++) {
      if (!VG_(am_is_valid_for_client)(a + i, 1, VKI_PROT_READ)) return False;
      buf[i] = *(const HChar*)(a + i);
      if (buf[i] == 0) return True;
   }
   /* cut at max - 1 bytes, not inside a UTF-8 character */
   SizeT n = max - 1;
   SizeT k = n;
   while (k > 0 && ((UChar)buf[k - 1] & 0xC0) == 0x80 && n - k < 3) k--;
   if (k > 0 && (UChar)buf[k - 1] >= 0xC0) {
      UChar c = (UChar)buf[k - 1];
      SizeT len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
      if (k - 1 + len > n) n = k - 1;         /* the last character is cut */
   }
   buf[n] = 0;
   return True;
}

/* pthread_setname_np on another thread writes /proc/self/task/LWP/comm: the
   files opened that way, by descriptor. */
#define MAX_COMM_FDS 16
static struct { Int fd; Int lwp; } comm_fds[MAX_COMM_FDS];
static UInt n_comm_fds;

/* The thread id in "/proc/self/task/N/comm" or "/proc/PID/task/N/comm";
   the calling thread's for "/proc/thread-self/comm"; the process's (its
   main thread's) for "/proc/self/comm" and "/proc/PID/comm". */
static Int comm_path_lwp(const HChar* path)
{
   const HChar* p;
   if (VG_(strcmp)(path, "/proc/thread-self/comm") == 0) return VG_(gettid)();
   if (VG_(strcmp)(path, "/proc/self/comm") == 0) return VG_(getpid)();
   if (VG_(strncmp)(path, "/proc/self/task/", 16) == 0) {
      p = path + 16;
   } else if (VG_(strncmp)(path, "/proc/", 6) == 0) {
      p = path + 6;
      Int pid = 0;
      if (*p < '0' || *p > '9') return 0;
      while (*p >= '0' && *p <= '9') pid = pid * 10 + (*p++ - '0');
      if (VG_(strcmp)(p, "/comm") == 0) return pid;
      if (VG_(strncmp)(p, "/task/", 6) != 0) return 0;
      p += 6;
   } else {
      return 0;
   }
   Int lwp = 0;
   if (*p < '0' || *p > '9') return 0;
   while (*p >= '0' && *p <= '9') lwp = lwp * 10 + (*p++ - '0');
   return VG_(strcmp)(p, "/comm") == 0 ? lwp : 0;
}

static void name_thread_from_syscall(ThreadId tid, UInt sysno, UWord* args)
{
   HChar buf[256];
   if (sysno == __NR_prctl && args[0] == VKI_PR_SET_NAME) {
      /* the kernel keeps 15 bytes (TASK_COMM_LEN less the NUL) */
      if (cp_copy_client_string(args[1], buf, 16))
         cp_thread_set_name(cp_thread_of(tid), buf, 15);
   } else if (sysno == __NR_open || sysno == __NR_openat) {
      Addr path = sysno == __NR_open ? args[0] : args[1];
      if (cp_copy_client_string(path, buf, sizeof(buf)))
         pending_comm_lwp[tid] = comm_path_lwp(buf);
   } else if (sysno == __NR_write) {
      for (UInt i = 0; i < n_comm_fds; i++) {
         if (comm_fds[i].fd != (Int)args[0]) continue;
         CpThread* t = cp_thread_by_lwp(comm_fds[i].lwp);
         SizeT n = args[2] < 15 ? args[2] : 15;
         if (t && VG_(am_is_valid_for_client)(args[1], n, VKI_PROT_READ)) {
            VG_(memcpy)(buf, (const HChar*)args[1], n);
            buf[n] = 0;
            cp_thread_set_name(t, buf, n);
         }
      }
   } else if (sysno == __NR_close) {
      for (UInt i = 0; i < n_comm_fds; i++)
         if (comm_fds[i].fd == (Int)args[0]) comm_fds[i] = comm_fds[--n_comm_fds];
   }
}

static void opened_file(ThreadId tid, SysRes res)
{
   Int lwp = pending_comm_lwp[tid];
   pending_comm_lwp[tid] = 0;
   if (lwp == 0 || sr_isError(res) || n_comm_fds == MAX_COMM_FDS) return;
   comm_fds[n_comm_fds].fd = (Int)sr_Res(res);
   comm_fds[n_comm_fds].lwp = lwp;
   n_comm_fds++;
}

/* ---- system calls ---- */

static void pre_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nargs)
{
   if (tid < VG_N_THREADS) cur_syscall[tid] = (Word)sysno;
   if (tid < VG_N_THREADS && sysno == __NR_futex) {
      /* WAIT, WAKE, FD, REQUEUE, CMP_REQUEUE, WAIT_BITSET, WAKE_BITSET
         (without the PRIVATE and CLOCK_REALTIME flags) */
      UWord op = args[1] & ~(UWord)(128 | 256);
      futex_reads_only[tid] = op <= 4 || op == 9 || op == 10;
   }
   if (tid < VG_N_THREADS) name_thread_from_syscall(tid, sysno, args);
   if (sysno == __NR_execve || sysno == __NR_execveat) {
      /* the new image replaces the tool too: keep what this one saw */
      cp_output_write_all("exec");
   }
}

/* len bytes at a that the system call of thread tid in progress wrote, if
   they are the client's to write: as Valgrind would report them. */
static void kernel_wrote(ThreadId tid, Addr a, SizeT len)
{
   if (a == 0 || len == 0 || !VG_(am_is_valid_for_client)(a, len, VKI_PROT_WRITE)) return;
   post_mem_write(Vg_CoreSysCall, tid, a, len);
}

/* The kernel's writes that Valgrind's system-call wrappers do not report:
   the length words of the socket calls (the lengths they return), the
   control length of recvmsg, the fd_sets and time left of select, the lock
   fcntl(F_GETLK) describes. */
static void undescribed_kernel_writes(ThreadId tid, UInt sysno, UWord* args)
{
   switch (sysno) {
   case __NR_recvfrom:
      kernel_wrote(tid, args[5], sizeof(UInt));
      break;
   case __NR_accept: case __NR_accept4: case __NR_getsockname: case __NR_getpeername:
      kernel_wrote(tid, args[2], sizeof(UInt));
      break;
   case __NR_getsockopt:
      kernel_wrote(tid, args[4], sizeof(UInt));
      break;
   case __NR_recvmsg: {
      Addr m = args[1];
      if (m && VG_(am_is_valid_for_client)(m, sizeof(struct vki_msghdr), VKI_PROT_READ)) {
         kernel_wrote(tid, m + offsetof(struct vki_msghdr, msg_namelen), sizeof(UInt));
         kernel_wrote(tid, m + offsetof(struct vki_msghdr, msg_controllen),
                      sizeof(((struct vki_msghdr*)0)->msg_controllen));
      }
      break;
   }
   case __NR_select: case __NR_pselect6: {
      SizeT n = (SizeT)(UInt)args[0];
      SizeT bytes = (n + 63) / 64 * 8;                  /* whole longs, as the kernel copies */
      for (UInt k = 1; k <= 3; k++) kernel_wrote(tid, args[k], bytes);
      if (sysno == __NR_select) kernel_wrote(tid, args[4], sizeof(struct vki_timeval));
      break;
   }
   case __NR_fcntl:
      if (args[1] == VKI_F_GETLK || args[1] == 36 /* F_OFD_GETLK */)
         kernel_wrote(tid, args[2], sizeof(struct vki_flock));
      break;
   default:
      break;
   }
}

/* madvise(MADV_DONTNEED) empties the pages of a private mapping: they read as
   zeroes (anonymous) or as the file again; a shared mapping keeps its
   contents.  Which mappings are private, /proc/self/maps tells. */
static void discarded_pages(Addr a, SizeT len)
{
   Int err;
   HChar* buf = cp_read_file("/proc/self/maps", "cp.events.maps", &err);
   if (buf == NULL) return;
   Addr end = a + len;
   /* lines "start-end perms offset dev inode path": perms[3] is p or s */
   for (HChar* line = buf; *line; ) {
      HChar* nl = VG_(strchr)(line, '\n');
      if (nl) *nl = 0;
      HChar* p = line;
      Addr lo = (Addr)VG_(strtoull16)(p, &p);
      Addr hi = *p == '-' ? (Addr)VG_(strtoull16)(p + 1, &p) : 0;
      if (*p == ' ' && VG_(strlen)(p) >= 5 && p[4] == 'p' && hi > a && lo < end) {
         Addr from = lo > a ? lo : a, to = hi < end ? hi : end;
         forget(from, to - from);
      }
      if (!nl) break;
      line = nl + 1;
   }
   VG_(free)(buf);
}

static void post_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nargs, SysRes res)
{
   if (tid >= VG_N_THREADS) return;
   if (!sr_isError(res)) {
      undescribed_kernel_writes(tid, sysno, args);    /* while cur_syscall names the call */
      if (sysno == __NR_madvise && args[2] == 4 /* MADV_DONTNEED */ && args[1] > 0)
         discarded_pages(args[0], args[1]);
   }
   cur_syscall[tid] = -1;
   if (sysno == __NR_open || sysno == __NR_openat) opened_file(tid, res);
   /* the parent learns its new thread's kernel id, before the thread has run
      (another thread may name it at once) */
   if ((sysno == __NR_clone || sysno == __NR_clone3) && !sr_isError(res) && sr_Res(res) > 0)
      cp_thread_learn_lwp(tid, (Int)sr_Res(res));
}

/* ---- threads and signals ---- */

static void thread_created(ThreadId parent, ThreadId child)
{
   cp_thread_created(child, parent);
}

static void thread_exited(ThreadId tid)
{
   cp_thread_exited(tid);
}

/* ---- the main executable's thread-local variables (see cp_events.h) ---- */

Addr cp_exe_tls_entry;
static ULong exe_tls_offset, exe_tls_size;
static Bool  exe_started;

void cp_events_main_exe(const HChar* path, Addr bias)
{
   static Bool done;
   if (done) return;
   done = True;
   Addr entry, load_lo;
   if (cp_elf_read_layout(path, bias, &exe_tls_offset, &exe_tls_size, &entry, &load_lo)
       && exe_tls_size != 0)
      cp_exe_tls_entry = entry;
}

/* Thread t runs the program with thread pointer tp.  Its first block is
   as initialised: unwritten.  (A program that moves its thread pointer
   later, as a user-level thread library might, keeps what it wrote.) */
static void tls_thread_tp(CpThread* t, Addr tp)
{
   if (!exe_started || exe_tls_size == 0 || t == NULL || t->tls_tp == tp) return;
   Bool first = t->tls_tp == 0;
   t->tls_tp = tp;
   if (tp < exe_tls_offset) {                /* no block (yet) */
      cp_objects_thread_tls(t->index, 0);
      return;
   }
   if (first) cp_record_write(tp - exe_tls_offset, exe_tls_size, 0);
   cp_objects_thread_tls(t->index, tp - exe_tls_offset);
}

VG_REGPARM(0) void cp_h_exe_started(void)
{
   if (exe_started) return;
   exe_started = True;
   tls_thread_tp(cp_cur_thread, cp_cur_tp);
}

static void start_client_code(ThreadId tid, ULong blocks)
{
   static Bool started;
   if (!started) {
      /* the objects of the startup segments are known now, before ld.so runs */
      started = True;
      cp_instrument_find_main_exe();
   }
   cp_thread_switch(tid);
#if defined(VGA_amd64)
   /* the thread pointer: set by arch_prctl or clone, both system calls,
      after which the thread starts running again */
   ULong fs = 0;
   VG_(get_shadow_regs_area)(tid, (UChar*)&fs, 0, offsetof(VexGuestAMD64State, guest_FS_CONST),
                             sizeof fs);
   cp_cur_tp = (Addr)fs;
   tls_thread_tp(cp_cur_thread, cp_cur_tp);
#endif
}

/* The thread leaves generated code for the scheduler, which delivers the
   asynchronous signals: no run of generated code is pending any more, but
   one a fault that kills the process interrupted (a fault with a handler is
   delivered before this, from Valgrind's signal handler). */
static void stop_client_code(ThreadId tid, ULong blocks)
{
   cp_instrument_left_code(tid);
}

static void pre_deliver_signal(ThreadId tid, Int sig, Bool alt_stack)
{
   cp_instrument_fault(tid);
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
   cp_edges_reset(&cp_edges);
   cp_nodes_reset_counters();
   if (cp_clo.objects) cp_objects_after_fork();
   cp_timeline_reset();
   if (cp_clo.per_call) cp_percall_after_fork();
   cp_output_forked();
}

void cp_events_register(void)
{
   VG_(track_new_mem_mmap)(new_mem_mmap);
   VG_(track_new_mem_brk)(new_mem_brk);
   VG_(track_die_mem_brk)(die_mem);
   VG_(track_die_mem_munmap)(die_mem);
   VG_(track_copy_mem_remap)(copy_mem_remap);
   VG_(track_post_mem_write)(post_mem_write);
   VG_(needs_syscall_wrapper)(pre_syscall, post_syscall);
   VG_(track_pre_thread_ll_create)(thread_created);
   VG_(track_pre_thread_ll_exit)(thread_exited);
   VG_(track_start_client_code)(start_client_code);
   VG_(track_stop_client_code)(stop_client_code);
   VG_(track_pre_deliver_signal)(pre_deliver_signal);
   VG_(track_post_deliver_signal)(post_deliver_signal);
   VG_(atfork)(NULL, NULL, atfork_child);
}
