/* commprof: heap blocks.
 *
 * The allocator callbacks run natively, outside the instrumented code, so
 * their effects on memory are mirrored into the shadow map here:
 *   - a fresh block is (unwritten): free() keeps that true by forgetting the
 *     producers of every block it releases;
 *   - calloc's zeroes are produced by (allocator), or by (library data) when
 *     the library's bookkeeping code calls it (cp_h_book_enter);
 *   - realloc moves the producers with the bytes, and shrinks in place.
 * The blocks a run-time library allocates for itself while the program
 * calls one of its functions that open something (fopen's FILE) are kept
 * apart: their bytes are the library's data (cp_heap.h). */

#include "cp_global.h"
#include "cp_heap.h"
#include "cp_shadow.h"
#include "cp_access.h"
#include "cp_nodes.h"
#include "cp_callstack.h"
#include "cp_objects.h"
#include "cp_options.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_oset.h"

/* The live blocks: an open-addressing table keyed by payload address (0 is
   an empty slot), grown at half full, with backward-shift deletion.  One
   probe is one cache line: malloc-heavy programs spend much of their time
   here. */
typedef struct {
   Addr  key;                /* payload address */
   SizeT size;               /* requested size */
   UInt  inst;               /* its instance in cp_objects, with --objects=yes */
   Bool  lib;                /* the library's own (see lib_blocks) */
} Block;

static Block*      tab;
static SizeT       tab_cap;       /* a power of two */
static SizeT       tab_used;
static CpHeapStats stats;

/* The live blocks of at least CP_HEAP_BIG_BLOCK bytes, ordered by their end
   (one past the last byte), for cp_heap_block_containing: the block holding
   a is the one with the lowest end above a, if it starts at or below a.
   Made at the first question (a program that never asks pays nothing at
   its mallocs and frees), then kept up to date. */
typedef struct { Addr end; Addr start; } BigBlock;
static OSet* big;

static void big_add(Addr start, SizeT size)
{
   if (big == NULL || size < CP_HEAP_BIG_BLOCK) return;
   BigBlock* e = VG_(OSetGen_AllocNode)(big, sizeof(BigBlock));
   e->end = start + size;
   e->start = start;
   VG_(OSetGen_Insert)(big, e);
}

static void big_remove(Addr start, SizeT size)
{
   if (size < CP_HEAP_BIG_BLOCK || big == NULL) return;
   Addr end = start + size;
   BigBlock* e = VG_(OSetGen_Remove)(big, &end);
   if (e) VG_(OSetGen_FreeNode)(big, e);
}

/* A block's slot: its 16-byte unit within its 1 KiB of address space, in
   a run of 64 slots that a multiplicative hash of that KiB places.  Blocks
   allocated or freed one after the other are usually in the same KiB and
   share the run's cache lines (a hash of the whole address cost malloc-heavy
   programs a cache miss per malloc and per free); runs of different KiB are
   scattered, so that no pattern of addresses piles them up. */
static inline SizeT slot_of(Addr key)
{
   SizeT run = (SizeT)(((ULong)(key >> 10) * 0x9E3779B97F4A7C15ULL) >> 32) << 6;
   return (run | (SizeT)((key >> 4) & 63)) & (tab_cap - 1);
}

static void tab_insert_nogrow(const Block* b)
{
   SizeT i = slot_of(b->key);
   while (tab[i].key) i = (i + 1) & (tab_cap - 1);
   tab[i] = *b;
}

static void block_add(Addr key, SizeT size, UInt inst, Bool lib)
{
   if ((tab_used + 1) * 2 > tab_cap) {
      Block* old = tab;
      SizeT old_cap = tab_cap;
      tab_cap = old_cap ? old_cap * 2 : 1024;
      tab = VG_(calloc)("cp.heap.blocks", tab_cap, sizeof(Block));
      for (SizeT i = 0; i < old_cap; i++)
         if (old[i].key) tab_insert_nogrow(&old[i]);
      if (old) VG_(free)(old);
   }
   Block b = { key, size, inst, lib };
   tab_insert_nogrow(&b);
   tab_used++;
   big_add(key, size);
}

static Block* block_find(Addr key)
{
   if (key == 0 || tab_cap == 0) return NULL;
   SizeT i = slot_of(key);
   while (tab[i].key) {
      if (tab[i].key == key) return &tab[i];
      i = (i + 1) & (tab_cap - 1);
   }
   return NULL;
}

Bool cp_heap_block_containing(Addr a, Addr* start, SizeT* size, UInt* inst)
{
   if (big == NULL) {
      big = VG_(OSetGen_Create_With_Pool)(offsetof(BigBlock, end), NULL, VG_(malloc),
                                          "cp.heap.big", VG_(free), 512, sizeof(BigBlock));
      for (SizeT i = 0; i < tab_cap; i++)
         if (tab[i].key) big_add(tab[i].key, tab[i].size);
   }
   if (a == ~(Addr)0) return False;
   Addr above = a + 1;
   VG_(OSetGen_ResetIterAt)(big, &above);
   const BigBlock* e = VG_(OSetGen_Next)(big);
   if (e == NULL || e->start > a) return False;
   const Block* b = block_find(e->start);
   tl_assert(b != NULL && b->key + b->size == e->end);
   *start = b->key;
   *size = b->size;
   *inst = b->inst;
   return True;
}

static void block_remove(Block* b)
{
   big_remove(b->key, b->size);
   SizeT i = (SizeT)(b - tab), j = i;
   tab[i].key = 0;
   for (;;) {
      j = (j + 1) & (tab_cap - 1);
      if (tab[j].key == 0) break;
      SizeT k = slot_of(tab[j].key);
      /* move j back to i if its home k is cyclically outside (i, j] */
      Bool move = (i <= j) ? (k <= i || k > j) : (k <= i && k > j);
      if (move) {
         tab[i] = tab[j];
         tab[j].key = 0;
         i = j;
      }
   }
   tab_used--;
}

void cp_heap_init(void)
{
   tab = NULL;
   tab_cap = tab_used = 0;
   VG_(memset)(&stats, 0, sizeof(stats));
}

void cp_heap_get_stats(CpHeapStats* st)
{
   *st = stats;
}

/* ---- the run-time library's own blocks ---- */

/* The functions that allocate the library's bookkeeping for the object
   they open and return a pointer to it: a FILE, a DIR.  (The stdio buffers
   are not concerned: the bytes in them are the program's, in transit.) */
static Bool opens_something(const HChar* fn)
{
   static const HChar* const names[] = {
      "fopen", "fopen64", "_IO_new_fopen", "_IO_fopen", "fdopen", "_IO_new_fdopen",
      "_IO_fdopen", "popen", "_IO_new_popen", "_IO_popen", "tmpfile", "tmpfile64",
      "__new_tmpfile", "fmemopen", "__fmemopen", "open_memstream", "__open_memstream",
      "open_wmemstream", "fopencookie", "_IO_fopencookie", "opendir", "__opendir",
      "fdopendir", "__fdopendir",
   };
   SizeT len = 0;                         /* without a version: fopen@@GLIBC_2.2.5 */
   while (fn[len] && fn[len] != '@') len++;
   for (UInt i = 0; i < sizeof names / sizeof names[0]; i++)
      if (VG_(strlen)(names[i]) == len && VG_(strncmp)(fn, names[i], len) == 0) return True;
   return False;
}

/* Is the library call that the running thread is in (cp_libreads.target)
   one of those?  Remembered per address. */
#define OPENER_CACHE 64
static struct { Addr a; Bool yes; } opener_cache[OPENER_CACHE];

static Bool in_opener_call(ThreadId tid)
{
   if (cp_cur_thread == NULL || cp_cur_thread->tid != tid) return False;
   Addr a = cp_libreads.target;
   if (a == 0) return False;
   UInt k = (UInt)((a >> 4) ^ (a >> 12)) & (OPENER_CACHE - 1);
   if (opener_cache[k].a == a) return opener_cache[k].yes;
   const HChar* fn;
   Bool yes = VG_(get_fnname)(VG_(current_DiEpoch)(), a, &fn) && opens_something(fn);
   opener_cache[k].a = a;
   opener_cache[k].yes = yes;
   return yes;
}

void cp_heap_code_gone(void)
{
   VG_(memset)(opener_cache, 0, sizeof opener_cache);
}

Addr  cp_libheap_lo;
UWord cp_libheap_span;
typedef struct { Addr lo; SizeT size; } LibBlock;
static LibBlock* lib_blocks;
static UInt      n_lib_blocks, lib_blocks_cap;

static void lib_bounds(void)
{
   Addr lo = ~(Addr)0, hi = 0;
   for (UInt i = 0; i < n_lib_blocks; i++) {
      if (lib_blocks[i].lo < lo) lo = lib_blocks[i].lo;
      if (lib_blocks[i].lo + lib_blocks[i].size > hi) hi = lib_blocks[i].lo + lib_blocks[i].size;
   }
   cp_libheap_lo = n_lib_blocks ? lo : 0;
   cp_libheap_span = n_lib_blocks ? hi - lo : 0;
}

static void lib_block_add(Addr p, SizeT size)
{
   if (n_lib_blocks == lib_blocks_cap) {
      lib_blocks_cap = lib_blocks_cap ? 2 * lib_blocks_cap : 16;
      lib_blocks = VG_(realloc)("cp.heap.lib", lib_blocks, lib_blocks_cap * sizeof(LibBlock));
   }
   lib_blocks[n_lib_blocks].lo = p;
   lib_blocks[n_lib_blocks].size = size;
   n_lib_blocks++;
   lib_bounds();
}

static void lib_block_remove(Addr p)
{
   for (UInt i = 0; i < n_lib_blocks; i++)
      if (lib_blocks[i].lo == p) {
         lib_blocks[i] = lib_blocks[--n_lib_blocks];
         lib_bounds();
         return;
      }
}

Bool cp_heap_lib_owned(Addr a)
{
   for (UInt i = 0; i < n_lib_blocks; i++)
      if (a - lib_blocks[i].lo < lib_blocks[i].size) return True;
   return False;
}

static void* new_block(ThreadId tid, SizeT size, SizeT align, Bool zero)
{
   if ((SSizeT)size < 0) return NULL;
   void* p = VG_(cli_malloc)(align, size);
   if (!p) return NULL;
   if (zero) {
      VG_(memset)(p, 0, size);
      CpThread* t = cp_thread_of(tid);
      /* for the library's bookkeeping code (the link map of the libgcc_s
         that pthread_exit loads) the zeroes are (library data)'s */
      Bool book = t == cp_cur_thread && cp_book_active();
      UInt w = book ? cp_node_libdata()->id : CP_NODE_ALLOCATOR;
      cp_record_write((Addr)p, size, cp_ctx_of_thread(t, w));
   }
   Bool lib = in_opener_call(tid);
   if (UNLIKELY(lib)) lib_block_add((Addr)p, size);
   block_add((Addr)p, size, cp_clo.objects ? cp_objects_block_alloc(tid, (Addr)p, size) : 0, lib);
   stats.blocks_allocated++;
   stats.bytes_allocated += size;
   stats.blocks_live++;
   stats.bytes_live += size;
   if (stats.bytes_live > stats.bytes_peak) stats.bytes_peak = stats.bytes_live;
   return p;
}

static void free_block(void* p)
{
   Block* b = block_find((Addr)p);
   if (!b) return;                 /* not ours: ignore, as the other tools do */
   if (cp_clo.objects) cp_objects_block_free(b->inst);
   if (UNLIKELY(b->lib)) lib_block_remove((Addr)p);
   cp_record_write((Addr)p, b->size, 0);
   stats.blocks_live--;
   stats.bytes_live -= b->size;
   block_remove(b);
   VG_(cli_free)(p);
}

static void* cp_malloc(ThreadId tid, SizeT n)
{ return new_block(tid, n, VG_(clo_alignment), False); }
static void* cp_builtin_new(ThreadId tid, SizeT n)
{ return new_block(tid, n, VG_(clo_alignment), False); }
static void* cp_builtin_new_aligned(ThreadId tid, SizeT n, SizeT align)
{ return new_block(tid, n, align, False); }
static void* cp_builtin_vec_new(ThreadId tid, SizeT n)
{ return new_block(tid, n, VG_(clo_alignment), False); }
static void* cp_builtin_vec_new_aligned(ThreadId tid, SizeT n, SizeT align)
{ return new_block(tid, n, align, False); }
static void* cp_memalign(ThreadId tid, SizeT align, SizeT n)
{ return new_block(tid, n, align, False); }

static void* cp_calloc(ThreadId tid, SizeT nmemb, SizeT size1)
{
   /* the wrapper has checked for overflow */
   return new_block(tid, nmemb * size1, VG_(clo_alignment), True);
}

static void cp_free(ThreadId tid, void* p)                      { free_block(p); }
static void cp_builtin_delete(ThreadId tid, void* p)            { free_block(p); }
static void cp_builtin_delete_aligned(ThreadId tid, void* p, SizeT align) { free_block(p); }
static void cp_builtin_vec_delete(ThreadId tid, void* p)        { free_block(p); }
static void cp_builtin_vec_delete_aligned(ThreadId tid, void* p, SizeT align) { free_block(p); }

static void* cp_realloc(ThreadId tid, void* p, SizeT new_size)
{
   if (p == NULL) return cp_malloc(tid, new_size);
   Block* b = block_find((Addr)p);
   if (!b) return NULL;             /* realloc of something not allocated */
   if ((SSizeT)new_size < 0) return NULL;
   if (new_size <= b->size) {
      /* shrink in place: the cut-off tail is free memory again */
      if (cp_clo.objects) cp_objects_block_shrink(b->inst, new_size);
      if (UNLIKELY(b->lib)) {
         lib_block_remove((Addr)p);
         lib_block_add((Addr)p, new_size);
      }
      /* with --granularity=N the N-byte block that holds the last bytes kept
         keeps its producer: the blocks wholly cut off are unwritten */
      Addr gran = (Addr)1 << cp_shadow.gran_log2;
      Addr from = ((Addr)p + new_size + gran - 1) & ~(gran - 1);
      Addr end = (Addr)p + b->size;
      if (from < end) cp_record_write(from, end - from, 0);
      stats.bytes_live -= b->size - new_size;
      big_remove(b->key, b->size);
      b->size = new_size;
      big_add(b->key, new_size);
      return p;
   }
   void* q = VG_(cli_malloc)(VG_(clo_alignment), new_size);
   if (!q) return NULL;
   VG_(memcpy)(q, p, b->size);
   cp_record_copy((Addr)q, (Addr)p, b->size);
   if (cp_clo.objects) cp_objects_block_move(b->inst, (Addr)q, new_size);
   cp_record_write((Addr)p, b->size, 0);
   VG_(cli_free)(p);
   stats.blocks_allocated++;
   stats.bytes_allocated += new_size;
   stats.bytes_live += new_size - b->size;
   if (stats.bytes_live > stats.bytes_peak) stats.bytes_peak = stats.bytes_live;
   UInt inst = b->inst;
   Bool lib = b->lib;
   if (UNLIKELY(lib)) {
      lib_block_remove((Addr)p);
      lib_block_add((Addr)q, new_size);
   }
   block_remove(b);
   block_add((Addr)q, new_size, inst, lib);
   return q;
}

static SizeT cp_malloc_usable_size(ThreadId tid, void* p)
{
   Block* b = block_find((Addr)p);
   return b ? b->size : 0;
}

void cp_heap_register(void)
{
   VG_(needs_malloc_replacement)(cp_malloc,
                                 cp_builtin_new,
                                 cp_builtin_new_aligned,
                                 cp_builtin_vec_new,
                                 cp_builtin_vec_new_aligned,
                                 cp_memalign,
                                 cp_calloc,
                                 cp_free,
                                 cp_builtin_delete,
                                 cp_builtin_delete_aligned,
                                 cp_builtin_vec_delete,
                                 cp_builtin_vec_delete_aligned,
                                 cp_realloc,
                                 cp_malloc_usable_size,
                                 0 /* no redzone */);
}
