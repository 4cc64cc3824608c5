/* commprof: threads and their call stacks of node frames (see cp_callstack.h). */

#include "cp_global.h"
#include "cp_callstack.h"
#include "cp_access.h"
#include "cp_objects.h"
#include "cp_options.h"
#include "cp_percall.h"
#include "cp_heap.h"
#include "pub_tool_aspacemgr.h"

ULong     cp_clock;
ULong     cp_insn_offset;
CpNode*   cp_redirect_node;
CpNode*   cp_redirect_fn;
ULong     cp_collect_mask = ~0ULL;
static Bool collect_on = True;     /* START/STOP requests, --collect-atstart */
static Bool collect_ever;          /* collect_on has been True */
CpThread* cp_cur_thread;
UInt*     cp_cur_map;
UInt      cp_cur_ctx;
CpNode*   cp_cur_node;
Addr      cp_top_sp;
Addr      cp_area_lo;
Addr      cp_book_sp;
Addr      cp_book_ret;
Addr      cp_cur_stack_lo, cp_cur_stack_span;

CpThread** cp_threads;
UInt       cp_n_threads;
static UInt threads_cap;

static CpThread** by_tid;        /* Valgrind slot -> live thread */
static UInt map_cap;             /* entries in every thread's map */


void cp_threads_init(void)
{
   by_tid = VG_(calloc)("cp.threads.bytid", VG_N_THREADS, sizeof(CpThread*));
   cp_n_threads = 1;
   threads_cap = 16;
   cp_threads = VG_(calloc)("cp.threads", threads_cap, sizeof(CpThread*));
   if (map_cap == 0) map_cap = 256;
   cp_cur_thread = NULL;
   cp_cur_map = VG_(calloc)("cp.threads.nomap", map_cap, sizeof(UInt));
   cp_cur_ctx = 0;
   cp_cur_node = NULL;             /* set by cp_threads_nodes_ready */
   cp_top_sp = (Addr)-1;
}

void cp_threads_node_added(UInt n)
{
   if (n <= map_cap) return;
   UInt ncap = map_cap;
   while (ncap < n) ncap *= 2;
   for (UInt i = 1; i < cp_n_threads; i++) {
      CpThread* t = cp_threads[i];
      t->map = VG_(realloc)("cp.threads.map", t->map, ncap * sizeof(UInt));
      VG_(memset)(t->map + map_cap, 0, (ncap - map_cap) * sizeof(UInt));
   }
   if (cp_cur_thread) {
      cp_cur_map = cp_cur_thread->map;
   } else {
      cp_cur_map = VG_(realloc)("cp.threads.nomap", cp_cur_map, ncap * sizeof(UInt));
      VG_(memset)(cp_cur_map + map_cap, 0, (ncap - map_cap) * sizeof(UInt));
   }
   map_cap = ncap;
}

UInt cp_ctx_of_thread(CpThread* t, UInt node)
{
   if (node == CP_NODE_UNWRITTEN) return 0;
   UInt c = t->map[node];
   if (c == 0) {
      c = cp_ctx_new(node, t->index);
      t->map[node] = c;
   }
   return c;
}

UInt cp_ctx_make_cur(UInt node)
{
   tl_assert(cp_cur_thread);
   return cp_ctx_of_thread(cp_cur_thread, node);
}

static Bool collecting(const CpThread* t)
{
   return collect_on && (cp_clo.n_collect_in == 0 || t->collect_depth > 0);
}

/* Publish the top frame of the running thread.  While a handler runs on the
   alternate signal stack, cp_top_sp is 0 so that every call and return goes
   through the unwinder, which notices when the stack pointer leaves the
   alternate stack (siglongjmp out of the handler). */
static void publish_top(void)
{
   CpThread* t = cp_cur_thread;
   CpFrame*  f = &t->frames[t->depth - 1];
   cp_top_sp = t->n_barriers ? 0 : t->depth > 1 ? f->sp : t->area_hi;
   /* a library call a callback interrupted goes on when the callback returns */
   if (t->n_lib_nest && cp_top_sp != 0 && t->lib_nest[t->n_lib_nest - 1].cb_sp < cp_top_sp)
      cp_top_sp = t->lib_nest[t->n_lib_nest - 1].cb_sp;
   cp_top_sp_libreads();
   cp_area_lo = t->n_barriers ? 0 : t->area_lo;
   cp_book_sp = f->book_sp;
   cp_book_ret = f->book_ret;
   if (t->n_regions) {                       /* everything goes to the region */
      cp_redirect_node = cp_nodes[t->regions[t->n_regions - 1]];
      cp_redirect_fn   = NULL;
      cp_cur_node      = cp_redirect_node;
   } else if (f->cnode != f->node) {         /* the function in its caller context */
      cp_redirect_node = cp_nodes[f->cnode];
      cp_redirect_fn   = cp_nodes[f->node];
      cp_cur_node      = cp_redirect_node;
   } else {
      cp_redirect_node = NULL;
      cp_redirect_fn   = NULL;
      cp_cur_node      = cp_nodes[f->node];
   }
   cp_cur_ctx = cp_ctx_of_thread(t, cp_cur_node->id);
   cp_collect_mask = collecting(t) ? ~0ULL : 0;
   cp_hot_flags_update();
}

/* The end (one past the last byte) of the data symbol that starts at start
   and holds a: the highest address up to limit that Valgrind still finds
   in it (its size is not in the tool API). */
static Addr datasym_end(DiEpoch ep, const HChar* name, Addr start, Addr a, Addr limit)
{
   Addr in = a, out = limit;                  /* in: inside; out: outside or the limit */
   while (out - in > 1) {
      Addr mid = in + (out - in) / 2;
      const HChar* n2;
      PtrdiffT off;
      if (VG_(get_datasym_and_offset)(ep, mid, &n2, &off) && mid - (Addr)off == start
          && VG_(strcmp)(n2, name) == 0)
         in = mid;
      else
         out = mid;
   }
   return in + 1;
}

/* A stack that the program made itself, holding sp in segment seg: the
   heap block (*inst1: its instance + 1) or the global array (*inst1 0)
   that holds sp, [*lo, *end); False if sp is in neither. */
static Bool own_stack_bounds(Addr sp, NSegment const* seg, Addr* lo, Addr* end, UInt* inst1)
{
   SizeT size;
   const HChar* name;
   PtrdiffT off;
   DiEpoch ep = VG_(current_DiEpoch)();
   UInt inst;
   if (seg->isCH && cp_heap_block_containing(sp, lo, &size, &inst)) {
      *end = *lo + size;
      *inst1 = inst + 1;
   } else if (!seg->isCH && VG_(get_datasym_and_offset)(ep, sp, &name, &off) && off >= 0) {
      *lo = sp - (Addr)off;
      HChar copy[256];
      VG_(strncpy)(copy, name, sizeof copy - 1);
      copy[sizeof copy - 1] = 0;
      *end = datasym_end(ep, copy, *lo, sp, seg->end + 1);
      *inst1 = 0;
   } else {
      return False;
   }
   return True;
}

/* A thread given a stack of its own (pthread_attr_setstack): Valgrind takes
   the whole mapping below its first stack pointer for its stack, which is
   the data segment or the heap around the array or block the program gave.
   The stack is that array (a data symbol) or that heap block. */
static void clamp_user_stack(CpThread* t)
{
   Addr sp = VG_(get_SP)(t->tid);
   if (sp < t->stack_lo || sp > t->stack_hi) return;
   NSegment const* seg = VG_(am_find_nsegment)(sp);
   Addr lo, end;
   UInt inst1;
   if (seg == NULL || !own_stack_bounds(sp, seg, &lo, &end, &inst1)) return;
   t->stack_inst1 = inst1;
   if (lo > t->stack_lo) t->stack_lo = lo;
   if (end - 1 < t->stack_hi) t->stack_hi = end - 1;
}

static void compute_stack_bounds(CpThread* t)
{
   Addr  hi = VG_(thread_get_stack_max)(t->tid);
   SizeT sz = VG_(thread_get_stack_size)(t->tid);
   t->stack_hi = hi;                          /* highest byte */
   t->stack_lo = hi + 1 > sz ? hi + 1 - sz : 0;
   clamp_user_stack(t);
   cp_objects_thread_stack(t->index, t->stack_lo, t->stack_hi + 1);
   if (t->stack_hi != 0) {            /* else every stack pointer stays on its stack */
      t->area_lo = t->stack_lo;
      t->area_hi = t->stack_hi;
      t->area_kind = CP_AREA_THREAD;
   }
}

/* The threads of cp_libreads_others. */
UInt cp_libreads_others;
static CpThread** others;
static UInt others_cap;

static void others_add(CpThread* t)
{
   if (cp_libreads_others == others_cap) {
      others_cap = others_cap ? 2 * others_cap : 8;
      others = VG_(realloc)("cp.threads.libreads", others, others_cap * sizeof(CpThread*));
   }
   others[cp_libreads_others++] = t;
   t->libreads_saved = True;
}

static void others_remove(CpThread* t)
{
   if (!t->libreads_saved) return;
   t->libreads_saved = False;
   for (UInt i = 0; i < cp_libreads_others; i++)
      if (others[i] == t) {
         others[i] = others[--cp_libreads_others];
         break;
      }
}

void cp_libreads_cut_others(Addr a, SizeT len)
{
   UInt i = 0;
   while (i < cp_libreads_others) {
      CpThread* t = others[i];
      CpLibReads* lr = &t->libreads;
      if (!(a < lr->sp && a >= t->stack_lo))          /* not its library's frames */
         cp_libreads_store(lr, a, len);
      if (cp_libreads_any(lr)) {
         i++;
      } else {
         others_remove(t);
         if (cp_libreads_others == 0) cp_hot_flags_update();
      }
   }
}

void cp_thread_switch(ThreadId tid)
{
   CpThread* t = by_tid[tid];
   if (t == NULL) {                /* a thread we were not told about */
      cp_thread_created(tid, VG_INVALID_THREADID);
      t = by_tid[tid];
   }
   if (t == cp_cur_thread) return;
   if (cp_cur_thread) {
      cp_cur_thread->instrs += cp_clock - cp_cur_thread->clock_in;
      cp_cur_thread->libreads = cp_libreads;
      if (cp_libreads_any(&cp_libreads) && cp_libreads.sp != 0) others_add(cp_cur_thread);
   }
   others_remove(t);
   cp_libreads = t->libreads;
   t->clock_in = cp_clock;
   if (t->lwpid == 0) t->lwpid = VG_(gettid)();
   cp_cur_thread = t;
   cp_cur_map = t->map;
   if (t->stack_hi == 0) compute_stack_bounds(t);
   cp_cur_stack_lo = t->stack_lo;
   cp_cur_stack_span = t->stack_hi - t->stack_lo;
   cp_percall_switch(t->index);
   publish_top();
}

/* The frames of a stack the thread left, for when it comes back. */
struct CpStash {
   Addr     lo, hi;          /* the stack */
   UChar    kind;            /* CP_AREA_... */
   Addr     book_sp, book_ret;   /* the bottom frame's bookkeeping call on it */
   UInt     owner;           /* the thread whose own stack it is, else 0 */
   CpFrame* frames;          /* above the bottom frame, innermost last */
   UInt     n;
   UInt     n_collect;       /* --collect-in frames among them */
   struct CpPcStash* calls;  /* their per-call records in progress */
};

/* The frames put away, of all threads, oldest first: a coroutine may be
   resumed by another thread than the one that left it (a scheduler of
   several threads), which takes its frames.  A coroutine that is never
   resumed leaves its frames behind, and the oldest go beyond
   CP_MAX_STASHES (a switch looks through them, newest first). */
#define CP_MAX_STASHES 1024
static struct CpStash* stashes;
static UInt n_stashes, stashes_cap;

static void stash_free(struct CpStash* st)
{
   if (st->frames) VG_(free)(st->frames);
   cp_percall_stash_free(st->calls);
}

static void stash_remove(UInt i)
{
   VG_(memmove)(stashes + i, stashes + i + 1, (n_stashes - i - 1) * sizeof(struct CpStash));
   n_stashes--;
}

/* Thread t is gone: the frames of its own stack with it. */
static void forget_stashes(const CpThread* t)
{
   for (UInt i = n_stashes; i-- > 0; )
      if (stashes[i].owner == t->index) {
         stash_free(&stashes[i]);
         stash_remove(i);
      }
}

void cp_thread_created(ThreadId tid, ThreadId parent)
{
   tl_assert(tid > 0 && tid < VG_N_THREADS);
   if (cp_n_threads == threads_cap) {
      threads_cap *= 2;
      cp_threads = VG_(realloc)("cp.threads", cp_threads, threads_cap * sizeof(CpThread*));
   }
   CpThread* t = VG_(calloc)("cp.threads.t", 1, sizeof(CpThread));
   t->index = cp_n_threads;
   t->tid = tid;
   t->parent = (parent != VG_INVALID_THREADID && parent < VG_N_THREADS && by_tid[parent])
               ? by_tid[parent]->index : 0;
   t->alive = True;
   t->map = VG_(calloc)("cp.threads.map", map_cap, sizeof(UInt));
   t->frames_cap = 64;
   t->frames = VG_(malloc)("cp.threads.frames", t->frames_cap * sizeof(CpFrame));
   t->frames[0].sp = (Addr)-1;
   t->frames[0].node = t->frames[0].cnode = CP_NODE_NOFN;
   t->frames[0].barrier = False;
   t->frames[0].collect = False;
   t->frames[0].book_sp = 0;
   t->depth = 1;
   t->area_hi = ~(Addr)0;             /* every stack pointer is on it until its bounds are known */
   cp_threads[cp_n_threads++] = t;
   if (by_tid[tid] && by_tid[tid] == cp_cur_thread) cp_cur_thread = NULL;
   by_tid[tid] = t;
}

void cp_thread_exited(ThreadId tid)
{
   CpThread* t = by_tid[tid];
   if (!t) return;
   if (t == cp_cur_thread) t->instrs += cp_clock - t->clock_in;
   others_remove(t);
   if (t->stack_hi) cp_objects_thread_gone(t->stack_lo, t->stack_hi + 1, t->stack_inst1);
   cp_objects_thread_tls(t->index, 0);
   t->alive = False;
   t->depth = 1;
   t->n_barriers = 0;
   t->n_regions = 0;
   t->collect_depth = 0;
   VG_(free)(t->frames);
   t->frames = NULL;
   forget_stashes(t);
   by_tid[tid] = NULL;
   if (t == cp_cur_thread) {
      /* keep the globals pointing at something valid until the next switch */
      cp_cur_thread = NULL;
      cp_top_sp = (Addr)-1;
   }
}

CpThread* cp_thread_of(ThreadId tid)
{
   CpThread* t = by_tid[tid];
   if (!t) {
      cp_thread_created(tid, VG_INVALID_THREADID);
      t = by_tid[tid];
   }
   return t;
}

void cp_threads_sync_clock(void)
{
   if (cp_cur_thread) {
      cp_cur_thread->instrs += cp_clock - cp_cur_thread->clock_in;
      cp_cur_thread->clock_in = cp_clock;
   }
}

CpThread* cp_thread_by_lwp(Int lwpid)
{
   for (ThreadId i = 1; i < VG_N_THREADS; i++)
      if (by_tid[i] && by_tid[i]->lwpid == lwpid) return by_tid[i];
   return NULL;
}

void cp_thread_learn_lwp(ThreadId parent, Int lwpid)
{
   /* the newest thread created by parent whose kernel id is not known */
   CpThread* p = by_tid[parent];
   if (!p) return;
   for (UInt i = cp_n_threads; i-- > 1; ) {
      CpThread* t = cp_threads[i];
      if (t->alive && t->parent == p->index && t->lwpid == 0) {
         t->lwpid = lwpid;
         return;
      }
   }
}

void cp_thread_set_name(CpThread* t, const HChar* name, SizeT max_len)
{
   SizeT n = 0;
   while (n < max_len && name[n]) n++;        /* as the kernel keeps it: a newline too */
   if (t->name) VG_(free)(t->name);
   t->name = VG_(malloc)("cp.threads.name", n + 1);
   VG_(memcpy)(t->name, name, n);
   t->name[n] = 0;
}

void cp_threads_after_fork(ThreadId tid)
{
   for (ThreadId i = 1; i < VG_N_THREADS; i++)
      if (i != tid && by_tid[i]) cp_thread_exited(i);
   /* the child's clock starts at the fork, and so do the instructions of
      every thread, those the child does not have included */
   cp_clock = 0;
   for (UInt i = 1; i < cp_n_threads; i++) {
      cp_threads[i]->instrs = 0;
      cp_threads[i]->clock_in = 0;
   }
   if (by_tid[tid]) by_tid[tid]->lwpid = VG_(gettid)();
}

void cp_threads_nodes_ready(void)
{
   cp_cur_node = cp_nodes[CP_NODE_NOFN];
   collect_on = cp_clo.collect_atstart;
   collect_ever = collect_on;
   cp_collect_mask = collect_on && cp_clo.n_collect_in == 0 ? ~0ULL : 0;
   cp_hot_flags_update();
}

/* ---- frames ---- */

/* Room for n frames in t's stack of frames. */
static void frames_reserve(CpThread* t, UInt n)
{
   if (n <= t->frames_cap) return;
   while (t->frames_cap < n) t->frames_cap *= 2;
   t->frames = VG_(realloc)("cp.threads.frames", t->frames, t->frames_cap * sizeof(CpFrame));
}

static void push(CpThread* t, Addr sp, UInt node, UInt cnode, Bool barrier, Bool collect,
                 Bool per_call)
{
   frames_reserve(t, t->depth + 1);
   CpFrame* f = &t->frames[t->depth++];
   const CpLibReads* lr = t == cp_cur_thread ? &cp_libreads : &t->libreads;
   f->lib_sp = lr->sp;
   f->lib_call = lr->call;
   f->sp = sp;
   f->node = node;
   f->cnode = cnode;
   f->barrier = barrier;
   f->collect = collect;
   f->per_call = per_call;
   f->book_sp = 0;
   if (collect) t->collect_depth++;
}

/* Pop frames down to depth d.  The library call that the lowest of them
   interrupted goes on (a qsort whose comparator called strcmp): its frames
   are the library's again, and the reads of the calls made since are not
   its own (it forgets its reads then: they count again). */
static void pop_to(CpThread* t, UInt d)
{
   if (t->depth <= d) return;
   CpLibReads* lr = t == cp_cur_thread ? &cp_libreads : &t->libreads;
   while (t->depth > d) {
      CpFrame* f = &t->frames[--t->depth];
      if (f->barrier) t->n_barriers--;
      if (f->collect) t->collect_depth--;
      if (f->per_call) cp_percall_leave(t->index);
      if (lr->call != f->lib_call) {
         /* the calls made since kept no account of its reads: forget them */
         lr->n = 0;
         lr->call = f->lib_call;
      }
      lr->sp = f->lib_sp;
   }
}

/* With sp outside the alternate signal stack, the handlers that ran on it
   are gone: drop their frames and barriers. */
static void drop_dead_alt_frames(CpThread* t, Addr sp)
{
   if (t->n_barriers == 0 || (sp >= t->alt_lo && sp < t->alt_hi)) return;
   UInt d = t->depth;
   UInt nb = t->n_barriers;
   while (d > 1 && nb > 0) {
      if (t->frames[d - 1].barrier) nb--;
      d--;
   }
   pop_to(t, d);
}

/* --separate-callers=N: the node for n called from the functions of the
   frames below the top (the innermost N of them). */
static UInt caller_context(CpThread* t, CpNode* n)
{
   UInt callers[CP_MAX_SEPARATE_CALLERS];
   UInt k = 0;
   for (UInt d = t->depth; d > 1 && k < cp_clo.separate_callers; d--) {
      const CpFrame* f = &t->frames[d - 1];
      if (!f->barrier) callers[k++] = f->node;
   }
   return cp_node_context(n, callers, k)->id;
}

/* The innermost library call that a callback without a node frame
   interrupted goes on (its callback has returned), as at pop_to. */
static void pop_lib_nest(CpThread* t)
{
   CpLibReads* lr = t == cp_cur_thread ? &cp_libreads : &t->libreads;
   const CpLibNest* e = &t->lib_nest[--t->n_lib_nest];
   if (lr->call != e->call) {
      lr->n = 0;
      lr->call = e->call;
   }
   lr->sp = e->sp;
   lr->cb_sp = t->n_lib_nest ? t->lib_nest[t->n_lib_nest - 1].cb_sp : 0;
}

/* Pop the frames (down to the bottom one or a barrier) that a stack pointer
   of sp has left: those whose sp is below it, or at it too with at_too; and
   the interrupted library calls whose callbacks it has left (not while a
   signal handler runs on the alternate stack, which may lie above), the
   newest (lowest) of both first, so that the oldest one's library call is
   the one that goes on. */
static inline void drop_frames_below(CpThread* t, Addr sp, Bool at_too)
{
   drop_dead_alt_frames(t, sp);
   UInt d = t->depth;
   while (d > 1 && !t->frames[d - 1].barrier
          && (t->frames[d - 1].sp < sp || (at_too && t->frames[d - 1].sp == sp))) d--;
   if (LIKELY(t->n_lib_nest == 0) || t->n_barriers != 0) {
      pop_to(t, d);
      return;
   }
   for (;;) {
      Bool nest = t->n_lib_nest > 0 && t->lib_nest[t->n_lib_nest - 1].cb_sp < sp;
      Bool frame = t->depth > d;
      if (!nest && !frame) break;
      if (frame && (!nest || t->frames[t->depth - 1].sp <= t->lib_nest[t->n_lib_nest - 1].cb_sp))
         pop_to(t, t->depth - 1);
      else
         pop_lib_nest(t);
   }
}

/* The program's code below cb_sp (the latest indirect call of a run-time
   library's code) makes a call: it is a callback of the library call in
   progress, which the new call interrupts.  A node frame pushed inside the
   callback already keeps the interrupted call (CpFrame's lib_sp, lib_call);
   else it goes on the thread's CpLibNest stack. */
void cp_h_lib_callback_call(void)
{
   CpThread* t = cp_cur_thread;
   if (UNLIKELY(t == NULL)) return;
   CpLibReads* lr = &cp_libreads;
   Addr cb = lr->cb_sp;
   if (t->n_lib_nest && t->lib_nest[t->n_lib_nest - 1].cb_sp <= cb) return;   /* has it */
   /* a node frame at or below cb was pushed inside the callback before any
      call of its own (frames below the library's call were dropped there) */
   const CpFrame* f = &t->frames[t->depth - 1];
   if (t->depth > 1 && !f->barrier && f->sp <= cb) return;
   if (t->n_lib_nest == CP_MAX_LIB_NEST) return;
   CpLibNest* e = &t->lib_nest[t->n_lib_nest++];
   e->cb_sp = cb;
   e->sp = lr->sp;
   e->call = lr->call;
   publish_top();
}

/* The stack that holds sp, which is not the one the frames of thread t are
   on: t's own, or the heap block, the global array or else the mapping that
   holds sp; its kind (CP_AREA_...). */
static UChar area_of(const CpThread* t, Addr sp, Addr* lo, Addr* hi)
{
   if (t->stack_hi != 0 && sp >= t->stack_lo && sp <= t->stack_hi) {
      *lo = t->stack_lo;
      *hi = t->stack_hi;
      return CP_AREA_THREAD;
   }
   NSegment const* seg = VG_(am_find_nsegment)(sp);
   Addr b, e;
   UInt inst1;
   if (seg == NULL) {                /* nowhere known: take everything for it */
      *lo = 0;
      *hi = ~(Addr)0;
      return CP_AREA_ALL;
   }
   if (own_stack_bounds(sp, seg, &b, &e, &inst1)) {
      *lo = b;
      *hi = e - 1;
      return inst1 ? CP_AREA_HEAP : CP_AREA_GLOBAL;
   }
   *lo = seg->start;
   *hi = seg->end;
   return CP_AREA_MAPPING;
}

/* Is the stack st put away still the heap block it was (not freed, or
   allocated again with other bounds)?  Threads' stacks, globals and
   mappings stay. */
static Bool stash_still_valid(const struct CpStash* st, Addr sp)
{
   if (st->kind != CP_AREA_HEAP) return True;
   Addr b;
   SizeT size;
   UInt inst;
   return cp_heap_block_containing(sp, &b, &size, &inst) && b == st->lo && b + size - 1 == st->hi;
}

/* Put away the frames of the stack t leaves, with their per-call records
   in progress, and the bookkeeping call of the bottom frame (a thread's
   start-up code in libc, which is on the thread's own stack only): those of
   a stack with no frames too when it is a global array, whose bounds are
   slow to find (the other kinds are quick). */
static void stash_frames(CpThread* t)
{
   Addr book_sp = t->frames[0].book_sp;
   t->frames[0].book_sp = 0;
   if (t->depth == 1 && book_sp == 0 && t->area_kind != CP_AREA_GLOBAL) return;
   if (n_stashes == CP_MAX_STASHES) {        /* the oldest goes */
      stash_free(&stashes[0]);
      stash_remove(0);
   }
   if (n_stashes == stashes_cap) {
      stashes_cap = stashes_cap ? 2 * stashes_cap : 4;
      stashes = VG_(realloc)("cp.threads.stashes", stashes, stashes_cap * sizeof(struct CpStash));
   }
   struct CpStash* st = &stashes[n_stashes++];
   st->owner = t->area_kind == CP_AREA_THREAD ? t->index : 0;
   st->lo = t->area_lo;
   st->hi = t->area_hi;
   st->kind = t->area_kind;
   st->book_sp = book_sp;
   st->book_ret = t->frames[0].book_ret;
   st->n = t->depth - 1;
   st->frames = NULL;
   st->n_collect = 0;
   st->calls = NULL;
   if (st->n > 0) {
      st->frames = VG_(malloc)("cp.threads.stash", st->n * sizeof(CpFrame));
      VG_(memcpy)(st->frames, t->frames + 1, st->n * sizeof(CpFrame));
      for (UInt i = 0; i < st->n; i++)
         if (st->frames[i].collect) st->n_collect++;
      t->collect_depth -= st->n_collect;
      st->calls = cp_percall_stash(t->index);
      t->depth = 1;
   }
}

/* Thread t's stack pointer sp left the stack its frames are on for another
   one (swapcontext, setcontext, a coroutine's switch; not a signal handler
   on the alternate stack, which has its barrier): the frames are put away,
   with their per-call records in progress, and those of the stack entered,
   if t left it before, come back on top of the bottom frame. */
static void switch_area(CpThread* t, Addr sp)
{
   t->n_lib_nest = 0;         /* (a callback that switched stacks: not followed) */
   stash_frames(t);
   for (UInt i = n_stashes; i-- > 0; ) {       /* the newest first */
      struct CpStash* st = &stashes[i];
      if (sp < st->lo || sp > st->hi || (st->owner != 0 && st->owner != t->index)) continue;
      Bool valid = stash_still_valid(st, sp);
      if (valid) {
         frames_reserve(t, 1 + st->n);
         if (st->n > 0) VG_(memcpy)(t->frames + 1, st->frames, st->n * sizeof(CpFrame));
         t->depth = 1 + st->n;
         t->frames[0].book_sp = st->book_sp;
         t->frames[0].book_ret = st->book_ret;
         t->collect_depth += st->n_collect;
         cp_percall_unstash(t->index, st->calls);
         if (st->frames) VG_(free)(st->frames);
         t->area_lo = st->lo;
         t->area_hi = st->hi;
         t->area_kind = st->kind;
      } else {
         stash_free(st);                          /* a block freed since */
      }
      stash_remove(i);
      if (valid) {
         if (t == cp_cur_thread) cp_percall_switch(t->index);
         return;
      }
   }
   t->area_kind = area_of(t, sp, &t->area_lo, &t->area_hi);
   if (t == cp_cur_thread) cp_percall_switch(t->index);
}

/* Has sp left the stack of t's frames (and is no signal handler running on
   the alternate stack)? */
static inline Bool left_area(const CpThread* t, Addr sp)
{
   return UNLIKELY(sp < t->area_lo || sp > t->area_hi) && t->n_barriers == 0;
}

/* Push a frame for n at sp: a call if count_call, else the entry of an
   OpenMP region of n (no call: see enter). */
static void push_node(CpThread* t, CpNode* n, Addr sp, Bool count_call)
{
   /* a special node ((dynamic linker)) has no caller contexts */
   UInt cnode = cp_clo.separate_callers && n->kind == CP_KIND_FUNCTION ? caller_context(t, n)
                                                                      : n->id;
   /* the team's thread that called n (the master) runs the region inside
      that call of n: the same context, and no per-call record of its own */
   if (!count_call) {
      UInt d = t->depth;
      while (d > 1 && t->frames[d - 1].barrier) d--;
      if (d > 1 && t->frames[d - 1].node == n->id) cnode = t->frames[d - 1].cnode;
   }
   /* the flags of the node charged (a caller context has those of its
      function and those of patterns that name the context); whether the call
      is collected is decided with its frame pushed: a --collect-in function
      collects from its own entry on, its call too */
   const CpNode* cn = cp_nodes[cnode];
   push(t, sp, n->id, cnode, False, cn->collect_in, False);
   if (count_call && cn->per_call && collecting(t)) {
      /* the path: the functions of the frames below, innermost first */
      UInt path[16];
      UInt k = 0;
      for (UInt i = t->depth - 1; i > 1 && k < 16; i--)
         if (!t->frames[i - 1].barrier) path[k++] = t->frames[i - 1].cnode;
      cp_percall_enter(t->index, cnode, path, k);
      t->frames[t->depth - 1].per_call = True;
   }
   publish_top();
   if (count_call && cp_collect_mask) cp_nodes[cnode]->calls++;
}

/* Tail calls in a row at one stack pointer whose frames are kept, besides
   the frame of the function called first (see enter). */
#define CP_TAIL_FRAMES 64

/* A frame for n at sp, entered at the first instruction of its code:
   frames below the new one are dead (returned from, or left by longjmp).
   A frame at the same sp is that of the function that jumped to n's entry
   instead of calling it (a tail call, as gcc makes of `return g(x);` or of
   a call that ends a void function): n is called from it, as the source
   says and callgrind has it, so it stays below n's frame (for n's caller
   context, --collect-in and the path of n's per-call records) and both end
   at the return.  n entered again at its own entry, its frame on top (its
   code jumped there: a loop whose head is the entry, or a tail call to
   itself that gcc made such a loop), is the same call: nothing changes.
   And to keep the frames bounded: once the frames at sp are those of a call and
   CP_TAIL_FRAMES tail calls (functions that tail-call each other in a loop),
   n's frame replaces the newest of them that is n's, or else the top one.  An OpenMP region's entry is no
   call: it replaces the frames at its sp. */
static void enter(CpNode* n, Addr sp, Bool count_call)
{
   CpThread* t = cp_cur_thread;
   if (UNLIKELY(t == NULL)) {
      cp_thread_switch(VG_(get_running_tid)());
      t = cp_cur_thread;
   }
   if (left_area(t, sp)) switch_area(t, sp);
   drop_frames_below(t, sp, !count_call);
   if (count_call) {
      UInt top = t->depth, d = top;            /* frames [d, top) are at sp */
      while (d > 1 && !t->frames[d - 1].barrier && t->frames[d - 1].sp == sp) d--;
      if (top > d && t->frames[top - 1].node == n->id) {
         /* n jumped to its own first instruction: a loop whose head is the
            entry (or a tail call to itself, which gcc makes such a loop):
            still the same call */
         return;
      } else if (top - d > CP_TAIL_FRAMES) {
         UInt k = top;
         while (k > d && t->frames[k - 1].node != n->id) k--;
         pop_to(t, k > d ? k - 1 : top - 1);
      }
   }
   push_node(t, n, sp, count_call);
}

VG_REGPARM(2) void cp_h_enter(CpNode* n, Addr sp) { enter(n, sp, True); }

/* The first instruction of an OpenMP parallel region of n: a frame of n,
   entered by each thread of the team, which is no call of n. */
VG_REGPARM(2) void cp_h_enter_region(CpNode* n, Addr sp) { enter(n, sp, False); }

VG_REGPARM(1) void cp_h_book_enter(Addr sp)
{
   CpThread* t = cp_cur_thread;
   if (UNLIKELY(t == NULL)) {
      cp_thread_switch(VG_(get_running_tid)());
      t = cp_cur_thread;
   }
   /* sp is the stack pointer of a block start: valid stack */
   Addr ret = VG_(am_is_valid_for_client)(sp, sizeof(Addr), VKI_PROT_READ) ? *(const Addr*)sp : 0;
   t->frames[t->depth - 1].book_sp = sp;
   t->frames[t->depth - 1].book_ret = ret;
   cp_book_sp = sp;
   cp_book_ret = ret;
   cp_hot_flags_update();
}

/* The bookkeeping call of t's innermost frame is over. */
static void book_end(CpThread* t)
{
   t->frames[t->depth - 1].book_sp = 0;
   cp_book_sp = 0;
   cp_hot_flags_update();
}

VG_REGPARM(1) void cp_h_book_leave(Addr sp)
{
   CpThread* t = cp_cur_thread;
   if (t == NULL || cp_book_sp == 0 || sp <= cp_book_sp) return;
   book_end(t);
}

Bool cp_book_active(void)
{
   CpThread* t = cp_cur_thread;
   if (t == NULL || cp_book_sp == 0) return False;
   if (VG_(get_SP)(t->tid) <= cp_book_sp
       && VG_(am_is_valid_for_client)(cp_book_sp, sizeof(Addr), VKI_PROT_READ)
       && *(const Addr*)cp_book_sp == cp_book_ret)
      return True;
   book_end(t);
   return False;
}

VG_REGPARM(1) void cp_h_unwind_below(Addr sp)
{
   CpThread* t = cp_cur_thread;
   if (UNLIKELY(t == NULL)) return;
   UInt d0 = t->depth, n0 = t->n_lib_nest;
   Bool moved = left_area(t, sp);
   if (moved) switch_area(t, sp);
   drop_frames_below(t, sp, False);
   /* the library call has returned (or was left): its reads are over */
   Bool over = cp_libreads_any(&cp_libreads) && cp_libreads.sp != 0 && sp > cp_libreads.sp;
   if (over) cp_libreads.n = 0;
   if (moved || over || t->depth != d0 || t->n_lib_nest != n0) publish_top();
}

/* ---- code regions, collection, phases ---- */

void cp_region_begin(ThreadId tid, const HChar* name)
{
   CpThread* t = cp_thread_of(tid);
   CpNode* r = cp_node_region(name);
   if (t->n_regions == t->regions_cap) {
      t->regions_cap = t->regions_cap ? t->regions_cap * 2 : 8;
      t->regions = VG_(realloc)("cp.threads.regions", t->regions, t->regions_cap * sizeof(UInt));
   }
   t->regions[t->n_regions++] = r->id;
   if (collecting(t)) r->calls++;
   if (t == cp_cur_thread) publish_top();
}

void cp_region_end(ThreadId tid, const HChar* name)
{
   CpThread* t = cp_thread_of(tid);
   /* close the innermost open region of that name, and those opened inside it */
   UInt i = t->n_regions;
   while (i > 0 && VG_(strcmp)(cp_nodes[t->regions[i - 1]]->name, name) != 0) i--;
   if (i == 0) {
      VG_(umsg)("commprof: COMMPROF_REGION_END(\"%s\") without a matching begin, ignored\n", name);
      return;
   }
   if (i != t->n_regions)
      VG_(umsg)("commprof: COMMPROF_REGION_END(\"%s\") also closes %u region(s) opened inside it\n",
                name, t->n_regions - i);
   t->n_regions = i - 1;
   if (t == cp_cur_thread) publish_top();
}

void cp_collect_set(Bool on)
{
   collect_on = on;
   if (on) collect_ever = True;
   if (cp_cur_thread) publish_top();
}

Bool cp_collect_ever_on(void)
{
   return collect_ever;
}

void cp_threads_new_phase(void)
{
   /* contexts carry the phase: every thread makes its contexts anew */
   for (UInt i = 1; i < cp_n_threads; i++)
      VG_(memset)(cp_threads[i]->map, 0, map_cap * sizeof(UInt));
   if (cp_cur_thread) publish_top();
}

void cp_signal_pre(ThreadId tid, Bool alt_stack)
{
   if (!alt_stack) return;       /* same stack: the sp rules handle it */
   CpThread* t = cp_thread_of(tid);
   if (!t->frames) return;
   /* the handler's frames go above this barrier, which no sp comparison pops */
   t->alt_lo = VG_(thread_get_altstack_min)(tid);
   t->alt_hi = t->alt_lo + VG_(thread_get_altstack_size)(tid);
   const CpFrame* top = &t->frames[t->depth - 1];
   push(t, (Addr)-1, top->node, top->cnode, True, False, False);
   t->n_barriers++;
   if (t == cp_cur_thread) publish_top();
}

void cp_signal_post(ThreadId tid)
{
   CpThread* t = cp_thread_of(tid);
   if (!t->frames || t->n_barriers == 0) return;
   /* back in the interrupted context: if it is not on the alternate stack,
      every handler frame is gone */
   UInt d0 = t->depth;
   drop_dead_alt_frames(t, VG_(get_SP)(tid));
   if (t == cp_cur_thread && t->depth != d0) publish_top();
}
