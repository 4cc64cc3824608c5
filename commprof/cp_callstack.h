/* commprof: threads and their call stacks of node frames.
 *
 * Each thread keeps a stack of the node functions it is executing, so that
 * code outside the nodes (libc, ld.so, ...) can be charged to the innermost
 * node.  The stack changes only at node-function entries (push), at returns
 * and at calls (pop the frames whose stack pointer is below the current one,
 * which also repairs the stack after longjmp and exceptions); memory accesses
 * never walk it: they read cp_cur_ctx.
 *
 * A thread that moves its stack pointer to another stack (swapcontext,
 * setcontext, the coroutines and green threads built on them) keeps the
 * frames of each stack apart: the frames of the stack it leaves are put
 * away, and taken back when it (or another thread) returns to that stack.  A stack here is the
 * thread's own, or the heap block, the global or the mapping that holds
 * the stack pointer. */
#ifndef CP_CALLSTACK_H
#define CP_CALLSTACK_H

#include "pub_tool_basics.h"
#include "cp_nodes.h"
#include "cp_libreads.h"

typedef struct {
   Addr sp;          /* stack pointer at entry; (Addr)-1 for the bottom and for barriers */
   UInt node;        /* the function */
   UInt cnode;       /* the node charged: the function, or its caller context
                        with --separate-callers */
   Bool barrier;     /* alternate-signal-stack barrier */
   Bool collect;     /* a --collect-in function: collection is on inside it */
   Bool per_call;    /* a call followed by --per-call */
   Addr  lib_sp;     /* the library call in progress when the frame was pushed
                        (cp_libreads.h): the one a callback interrupted, */
   ULong lib_call;   /* which goes on when the frame is popped */
   Addr book_sp;     /* 0, or the stack pointer at the entry of the library's
                        bookkeeping code (see cp_h_book_enter) that this
                        frame's code called and that may not have returned */
   Addr book_ret;    /* the return address of that call, at book_sp: a later
                        call at the same depth has another (the bookkeeping
                        code was left by longjmp, an exception or a jump) */
} CpFrame;

/* A library call that a callback without a node frame interrupted: the
   callback (code of an object that is not a node, or a function left out of
   the nodes) made a call of its own, so the call in progress changed; when
   the stack pointer goes above cb_sp (the callback has returned, or was
   left by longjmp), the interrupted call goes on, as for a node function's
   frame (CpFrame's lib_sp and lib_call). */
typedef struct {
   Addr  cb_sp;      /* the callback's entry: its return address is at cb_sp */
   Addr  sp;         /* the interrupted library call (CpLibReads' sp and call) */
   ULong call;
} CpLibNest;
#define CP_MAX_LIB_NEST 64

/* What the stack of a thread's frames is. */
enum { CP_AREA_ALL,             /* not known yet: every address */
       CP_AREA_THREAD,          /* the thread's own */
       CP_AREA_HEAP,            /* a heap block */
       CP_AREA_GLOBAL,          /* a global array */
       CP_AREA_MAPPING };       /* else the mapping holding it */

typedef struct CpThread {
   UInt     index;        /* creation order, 1 = main thread */
   ThreadId tid;          /* Valgrind's slot while alive */
   Bool     alive;
   UInt*    map;          /* node id -> context id for this thread, 0 = not made yet */
   CpFrame* frames;       /* frames[0] is the bottom: (no function) */
   UInt     depth;        /* number of frames in use (>= 1) */
   UInt     frames_cap;
   Addr     stack_lo, stack_hi;   /* for --ignore-stack */
   Addr     area_lo, area_hi;     /* the stack its frames are on: [stack_lo, stack_hi], or
                                     another one that the program switched to */
   UChar    area_kind;            /* what that stack is: CP_AREA_... */
   UInt     stack_inst1;          /* a stack in a heap block: the block's instance
                                     in cp_objects + 1, else 0 */
   UInt     n_barriers;           /* alternate-signal-stack barriers among the frames */
   ULong    instrs;               /* instructions executed by the thread */
   ULong    clock_in;             /* cp_clock when it last started running */
   Int      lwpid;                /* kernel thread id, 0 if not known yet */
   HChar*   name;                 /* set by prctl(PR_SET_NAME) or pthread_setname_np */
   UInt     parent;               /* index of the creating thread, 0 for the main one */
   Addr     alt_lo, alt_hi;       /* the alternate signal stack, while n_barriers > 0 */
   UInt*    regions;              /* open code regions (node ids), innermost last */
   UInt     n_regions, regions_cap;
   UInt     collect_depth;        /* --collect-in frames on the stack */
   CpLibReads libreads;           /* its library call while another thread runs */
   Bool     libreads_saved;               /* in cp_libreads_others (below) */
   CpLibNest lib_nest[CP_MAX_LIB_NEST];   /* library calls interrupted by callbacks */
   UInt     n_lib_nest;                   /* without node frames, innermost last */
   Addr     tls_tp;               /* the thread pointer its block of the executable's
                                     thread-local variables was set up for, or 0 */
} CpThread;

/* Guest instructions executed so far, all threads (generated code adds at
   the end of each straight-line run of code). */
extern ULong cp_clock;
/* With --objects=yes: instructions of the current run before the current
   one (generated code sets it before each access). */
extern ULong cp_insn_offset;

/* The running thread, published for the hot path and generated code. */
extern CpThread* cp_cur_thread;
extern UInt*     cp_cur_map;      /* cp_cur_thread->map */
extern UInt      cp_cur_ctx;      /* context of the innermost node frame */
extern CpNode*   cp_cur_node;     /* its node */
extern Addr      cp_top_sp;       /* sp of the innermost frame (the top of the stack
                                     when there is none): a stack pointer above it
                                     has left frames or the stack */
/* While the library call in progress has recorded reads (cp_libreads_any),
   cp_top_sp is at most its stack pointer, so that its return calls
   cp_h_unwind_below, which forgets them (the program's stores then take the
   fast path again: CP_HOT_LIBREADS).  Not before the program's first call
   (sp 0): the start-up code is one call until then. */
extern CpLibReads cp_libreads;   /* the running thread's library call (cp_access.c) */
/* Threads switched out in the middle of a library call that has recorded
   reads: how many (while there are, stores take the helpers' slow paths,
   CP_HOT_LIBREADS), and the write of [a, a+len) by anyone else, which makes
   those bytes count again for them. */
extern UInt cp_libreads_others;
void cp_libreads_cut_others(Addr a, SizeT len);
static inline void cp_top_sp_libreads(void)
{
   if (cp_libreads_any(&cp_libreads) && cp_libreads.sp != 0 && cp_libreads.sp < cp_top_sp)
      cp_top_sp = cp_libreads.sp;
}
extern Addr      cp_area_lo;      /* the lowest address of the stack the frames are on:
                                     a stack pointer below it is on another stack */
extern Addr      cp_book_sp;      /* book_sp of the innermost frame */
extern Addr      cp_book_ret;     /* and its book_ret */
/* Code of a node function is charged to that function, except when
   cp_redirect_node is set: then code of cp_redirect_fn (of every function
   if cp_redirect_fn is NULL) is charged to cp_redirect_node (an open code
   region, or the caller context of the running function). */
extern CpNode*   cp_redirect_node;
extern CpNode*   cp_redirect_fn;
/* ~0 while the running thread collects, 0 while it does not (generated
   code masks its counts with it). */
extern ULong     cp_collect_mask;
/* the running thread's stack: [lo, lo + span] */
extern Addr      cp_cur_stack_lo, cp_cur_stack_span;

extern CpThread** cp_threads;     /* by index; [0] unused */
extern UInt       cp_n_threads;   /* highest index + 1 */

void cp_threads_init(void);
/* After cp_nodes_init: code run before any thread is known is (no function)'s. */
void cp_threads_nodes_ready(void);
/* A node was added: grow every map so that it has at least n entries. */
void cp_threads_node_added(UInt n);
void cp_thread_created(ThreadId tid, ThreadId parent);
/* Bring the running thread's instruction count up to date. */
void cp_threads_sync_clock(void);
/* The live thread whose kernel thread id is lwpid, or NULL. */
CpThread* cp_thread_by_lwp(Int lwpid);
void cp_thread_set_name(CpThread* t, const HChar* name, SizeT max_len);
/* clone returned lwpid in parent: the kernel id of its newest thread. */
void cp_thread_learn_lwp(ThreadId parent, Int lwpid);
void cp_thread_exited(ThreadId tid);
CpThread* cp_thread_of(ThreadId tid);
/* Make tid the running thread if it is not. */
void cp_thread_switch(ThreadId tid);

/* Context of node for the running thread. */
UInt cp_ctx_make_cur(UInt node);
static inline UInt cp_cur_ctx_of(UInt node)
{
   UInt c = cp_cur_map[node];
   if (UNLIKELY(c == 0)) c = cp_ctx_make_cur(node);
   return c;
}
/* Context of node for any thread. */
UInt cp_ctx_of_thread(CpThread* t, UInt node);

/* Helpers called from generated code. */
VG_REGPARM(2) void cp_h_enter(CpNode* n, Addr sp);
VG_REGPARM(2) void cp_h_enter_region(CpNode* n, Addr sp);   /* no call counted */
/* The program's code at or below cp_libreads.cb_sp makes a call (see
   CpLibNest). */
void cp_h_lib_callback_call(void);
VG_REGPARM(1) void cp_h_unwind_below(Addr sp);   /* pop frames with frame.sp < sp, and
                                                    follow a change of stacks */

/* The node charged for code of function n right now. */
static inline CpNode* cp_effective(CpNode* n)
{
   CpNode* r = cp_redirect_node;
   if (UNLIKELY(r != NULL) && (cp_redirect_fn == NULL || cp_redirect_fn == n)) return r;
   return n;
}

/* Code regions (client requests). */
void cp_region_begin(ThreadId tid, const HChar* name);
void cp_region_end(ThreadId tid, const HChar* name);
/* Collection switched on or off for the whole program (client requests). */
void cp_collect_set(Bool on);
/* Has collection been on at some time (--collect-atstart=yes, or a START)? */
Bool cp_collect_ever_on(void);
/* A new phase began: contexts are made anew. */
void cp_threads_new_phase(void);

/* Signals delivered on an alternate stack. */
void cp_signal_pre(ThreadId tid, Bool alt_stack);
void cp_signal_post(ThreadId tid);

/* Code whose every access is (library data)'s (a run-time library's
   synchronisation and thread functions, the exception runtime: the code
   cp_instrument.c gives the descriptor lib_everywhere) was entered with
   stack pointer sp, at the start of a superblock, while the innermost node
   frame had no such call in progress (cp_book_sp 0, or below sp: returned;
   or at sp with another return address there: left otherwise).
   Until it returns, what the code outside the nodes does for it (the
   dynamic linker's TLS set-up in pthread_create, the string functions the
   unwinder calls, the loading of libgcc_s in pthread_exit) is (library
   data)'s too; a node function it calls (the thread function, a
   pthread_once routine) has a frame of its own, outside it. */
VG_REGPARM(1) void cp_h_book_enter(Addr sp);
/* Such code returned, to stack pointer sp, above cp_book_sp: the call is
   over. */
VG_REGPARM(1) void cp_h_book_leave(Addr sp);
/* For an access of code outside the nodes while cp_book_sp is set (the
   CP_HOT_BOOK flag): is that call still in progress (the stack pointer at
   or below cp_book_sp, and its return address still there)?  If not,
   forgets it. */
Bool cp_book_active(void);

/* A forked child: only the forking thread survives, and the clock and
   every thread's instructions start again at 0. */
void cp_threads_after_fork(ThreadId tid);

#endif
