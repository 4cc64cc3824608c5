/* commprof: the shadow map of last writers.
 *
 * For every aligned block of 2^gran_log2 application bytes the map holds a
 * 32-bit producer context id (see cp_nodes.h); 0 means "never written since
 * mapped" and is what unwritten memory reads as.
 *
 * Layout (a hybrid, as in MCProf and memcheck):
 *   - a directly indexed primary table covering [0, 2^CP_DIRECT_BITS), the
 *     address range Valgrind hands to clients on amd64-linux, one slot per
 *     8 KiB chunk of application memory (small chunks, so that the sparse
 *     data of a small program, a few KiB here and there, costs little);
 *   - a slot is either a *uniform* chunk, a tagged producer id meaning "every
 *     block of this chunk has this producer" (no memory at all: never-written
 *     memory is uniform 0, the shared read-only chunk of zeroes), or a pointer
 *     to a *materialised* chunk, made on the first write that breaks
 *     uniformity;
 *   - a materialised chunk is *compact* or *wide*.  A compact chunk holds one
 *     byte per block, an index into a palette of 16 writers, or up to 128
 *     once more come, kept with the chunk's header (a chunk of memory rarely has more than a few
 *     writers at a time); a wide chunk holds the 32-bit writer of every
 *     block.  At granularity 1 a compact chunk starts *coarse*, with an
 *     index per aligned 4-byte word, and turns *fine* (an index per byte)
 *     when a store gives part of a word a writer the rest does not have:
 *     data written in whole ints, floats, pointers or doubles never does.  A compact chunk whose palette is full drops the writers no
 *     block refers to any more, and turns wide when that frees less than a
 *     quarter of it.  Maps made with compact = False (the maps of heap
 *     blocks and of store serials, whose values are many per chunk) use wide
 *     chunks only;
 *   - a materialised chunk that one writer has overwritten completely turns
 *     uniform again (checked when a store reaches either end of the chunk after
 *     at least half a chunk of writes, twice as many after each check that
 *     failed), so bulk data such as arrays written by one function costs no
 *     shadow memory and its loads touch no shadow entries;
 *   - a materialised chunk that set_range has made unwritten (writer 0)
 *     piece by piece, as the frees of the small heap blocks it held do, is
 *     released once nothing in it has a writer (see note_unwritten in
 *     cp_shadow.c);
 *   - for addresses at or above 2^CP_DIRECT_BITS, a hash table from chunk
 *     number to slot.
 * At granularity 1 a coarse chunk costs about 0.27 byte per application
 * byte (2 KiB of entries and 192 bytes of header, palette of 16 and tail
 * per 8 KiB), a fine one about 1.02 (1.08 with a palette of 128), a wide
 * one 4; memory that was never written, or that one producer wrote
 * entirely, costs nothing.
 *
 * The same structure serves, with other granularities, as the map from
 * addresses to heap blocks and other data objects (cp_objects.c): every
 * function takes the map it works on.
 *
 * This module is pure: it compiles into the tool and into the host unit
 * tests (tests/unit/test_shadow.c).
 */
#ifndef CP_SHADOW_H
#define CP_SHADOW_H

#include "cp_port.h"

#define CP_CHUNK_BITS     13
#define CP_CHUNK_SIZE     ((Addr)1 << CP_CHUNK_BITS)
#define CP_DIRECT_BITS    37                       /* 128 GiB */
#define CP_PRIMARY_SIZE   ((Addr)1 << (CP_DIRECT_BITS - CP_CHUNK_BITS))

typedef UInt CpWriter;        /* producer context id; 0 = unwritten */

/* A wide chunk: the writer of every block. */
typedef struct {
   UInt writes;              /* entries written since made or last checked */
   UInt check_at;            /* writes before the next uniformity check: doubles
                                after each check that fails */
   Int  free_est;            /* at most the bytes with a writer (see cp_shadow.c) */
   UInt freed;               /* bytes made unwritten since the last count */
   UInt free_gap;            /* bytes to make unwritten before the next count */
   UInt free_snap;           /* writes when free_est was last exact */
   UInt pad[10];             /* entries start 64 bytes into the chunk */
   UInt e[];                 /* CP_CHUNK_SIZE >> gran_log2 entries */
} CpChunk;

/* A compact chunk: a palette index per block.  The palette lies just
   before the header, which points at it: 16 writers when the chunk is
   made, CP_PAL_SIZE once it needs more (the chunk then moves to a larger
   block).  A load reads the entry and the pointer, both in the chunk's
   first lines, side by side, then the writer.  Most chunks have a few
   writers, and the small palette keeps their header and palette at 128
   bytes instead of 608. */
#define CP_PAL_SIZE    128
#define CP_PAL_SMALL   16
#define CP_PAL_HINTS   16
#define CP_NCHUNK_TAIL 64    /* bytes after the entries that loads may read */
typedef struct {
   UInt     writes;          /* as in CpChunk, at the same offsets */
   UInt     check_at;
   Int      free_est;
   UInt     freed;
   UInt     free_gap;
   UInt     free_snap;
   CpWriter last_w;          /* the writer of the last store and its index */
   UInt     last_i;
   UInt     npal;            /* palette entries in use */
   CpWriter* pal;            /* the palette, just before the header */
   UChar    hint[CP_PAL_HINTS];   /* writer & (CP_PAL_HINTS - 1) -> a likely index */
   UChar    b[];             /* entries (64 bytes into the chunk), then CP_NCHUNK_TAIL bytes */
} CpNChunk;

/* Room in the palette of a compact chunk: CP_PAL_SMALL or CP_PAL_SIZE (the
   palette ends where the header starts). */
static inline UInt cp_nchunk_palcap(const CpNChunk* ch)
{
   return (UInt)((const CpWriter*)ch - ch->pal);
}

/* A slot: w << 1 for a uniform chunk of writer w (so a zeroed table is all
   unwritten and costs no memory until used), a CpNChunk* | 1 for a compact
   chunk (| 4 if coarse), a CpChunk* | 3 for a wide one. */
typedef UWord CpSlot;
#define CP_SLOT_UNIFORM(w)     (((CpSlot)(w)) << 1)
#define CP_SLOT_IS_UNIFORM(s)  (!((s) & 1))
#define CP_SLOT_PTR(p, flags)  ((CpSlot)(p) | 1 | (flags))
#define CP_SLOT_WRITER(s)      ((CpWriter)((s) >> 1))
#define CP_SLOT_IS_WIDE(s)     ((s) & 2)            /* of a slot that is not uniform */
#define CP_SLOT_IS_COARSE(s)   ((s) & 4)            /* of a compact chunk's slot */
#define CP_SLOT_CHUNK(s)       ((CpChunk*)((s) & ~(CpSlot)7))
#define CP_SLOT_NCHUNK(s)      ((CpNChunk*)((s) & ~(CpSlot)7))
#define CP_COARSE_LOG2         2                    /* a coarse entry: 4 bytes */

/* Statistics. */
typedef struct {
   ULong chunks_live;        /* materialised chunks now (compact and wide) */
   ULong chunks_peak;
   ULong wide_live;          /* of these, wide */
   ULong coarse_live;        /* and compact coarse */
   ULong bytes_live;         /* shadow bytes in materialised chunks */
   ULong bytes_peak;
   ULong high_chunks_live;   /* slots above the direct range that are not uniform 0 */
   ULong table_pages;        /* pages of the primary table ever given a slot other than
                                uniform 0 (CP_SLOTS_PER_PAGE slots, 4 KiB each) */
   ULong made_uniform;       /* times a materialised chunk turned uniform */
   ULong materialised;       /* times a chunk was materialised */
   ULong palettes_grown;     /* times a compact chunk's palette grew to CP_PAL_SIZE */
   ULong compacted;          /* times a full palette dropped unused writers */
   ULong widened;            /* times a compact chunk turned wide */
   ULong refined;            /* times a coarse chunk turned fine */
   /* Shadow per written byte near the peak: whenever the live chunks grow
      past 9/8 of the last checkpoint, the map counts the application bytes
      that have a writer (a scan of the materialised chunks). */
   ULong ckpt_chunks;        /* live chunks at the last checkpoint */
   ULong ckpt_shadow_bytes;  /* shadow bytes live then: chunks and table */
   ULong ckpt_written_bytes; /* application bytes with a writer then */
   /* The most application bytes with a writer at one time, as far as counts
      show: a count at each checkpoint above, at every
      max(sample_events, 2 * chunks_live)-th event of the slow paths (a
      chunk materialised, made uniform, released or set whole by a range, or
      checked for uniformity after taking as many writes as it has entries
      at the last check, half the first time) and at each call of
      cp_shadow_sample_written.  The peak may fall between two counts, so
      this is a lower bound of it. */
   ULong written_peak;
   ULong written_samples;    /* counts taken */
} CpShadowStats;

#define CP_SAMPLE_EVENTS 1024

typedef struct { Addr cn; CpSlot* cell; } CpHighSlot;

#define CP_SLOTS_PER_PAGE 512            /* 4 KiB of the primary table */

#define CP_SHADOW_POOL_MAX 32
#define CP_SHADOW_POOLS    5

typedef struct {
   CpSlot      primary[CP_PRIMARY_SIZE];
   UInt        gran_log2;        /* 0..4 */
   UInt        entries;          /* entries per chunk */
   Bool        compact;          /* materialise compact chunks */
   Bool        coarse;           /* coarse ones first (compact at granularity 1) */
   SizeT       chunk_bytes;      /* sizeof(CpChunk) + 4 * entries */
   SizeT       nchunk_bytes;     /* sizeof(CpNChunk) + entries + CP_NCHUNK_TAIL */
   SizeT       cchunk_bytes;     /* sizeof(CpNChunk) + entries / 4 + CP_NCHUNK_TAIL
                                    (both without the palette) */
   CpHighSlot* high_tab;         /* chunks above the direct range */
   SizeT       high_cap, high_used;
   /* Released chunks kept for reuse, by kind (wide, fine, coarse, and fine
      and coarse with a full palette): lists of the blocks (a compact
      chunk's palette first) linked through their first word, each of at most
      max(CP_SHADOW_POOL_MAX, chunks_peak / 2) chunks.  A chunk is taken
      from them before new memory is, and kept chunks are given back before
      the live and kept ones would exceed the peak of the live ones: the
      memory of the map's chunks never exceeds bytes_peak. */
   void*       pool[CP_SHADOW_POOLS];
   UInt        pool_n[CP_SHADOW_POOLS];
   SizeT       pool_bytes;       /* of the kept chunks */
   Bool        checkpoints;      /* keep the ckpt_* and written_* statistics (they cost scans) */
   ULong       slow_events;      /* slow-path events since the last count */
   UInt        sample_events;    /* at least this many between counts: CP_SAMPLE_EVENTS
                                    (the unit tests lower it) */
   CpShadowStats stats;
   /* the pages of primary (CP_SLOTS_PER_PAGE slots each) that have held a
      slot other than uniform 0: the scans of the whole map read only these,
      so the pages never used stay untouched and take no memory */
   UChar       used_pages[CP_PRIMARY_SIZE / CP_SLOTS_PER_PAGE / 8];
   /* Chunks of the direct range that turned fine and were then emptied by
      frees: materialised fine at once next time (heap memory reused by
      blocks much like those freed), not coarse and then fine again. */
   UChar       was_fine[CP_PRIMARY_SIZE / 8];
} CpShadowMap;

/* Bytes of the primary table in use (its pages that have held a slot other
   than uniform 0): shadow memory besides the chunks. */
static inline ULong cp_shadow_table_bytes(const CpShadowStats* st)
{
   return st->table_pages * CP_SLOTS_PER_PAGE * (ULong)sizeof(CpSlot);
}

/* The map of last writers. */
extern CpShadowMap cp_shadow;

/* Set up m for blocks of 2^gran_log2 bytes (0..4), all unwritten; with
   compact, materialised chunks start compact (coarse at granularity 1).
   m must be zeroed memory (static storage or cp_big_alloc): its table is
   then all unwritten without being touched. */
void   cp_shadow_init(CpShadowMap* m, UInt gran_log2, Bool compact);
/* Forget everything (all memory becomes unwritten) and release every chunk. */
void   cp_shadow_reset(CpShadowMap* m);

/* Slow paths, out of line. */
CpSlot   cp_shadow_high_slot(CpShadowMap* m, Addr chunk_no);
CpSlot*  cp_shadow_high_slot_for_write(CpShadowMap* m, Addr chunk_no);
/* Materialise the chunk of *slot if it is uniform; returns the new slot. */
CpSlot   cp_shadow_materialise(CpShadowMap* m, CpSlot* slot);
void     cp_shadow_check_uniform(CpShadowMap* m, CpSlot* slot);
/* The palette index of w in the compact chunk of *slot, added if absent;
   CP_PAL_SIZE if the chunk had to turn wide instead. */
UInt     cp_shadow_pal_index(CpShadowMap* m, CpSlot* slot, CpWriter w);
/* A store of len bytes at a (within one chunk of the direct range) by w,
   whose palette index is x, into the coarse chunk of *slot that does not
   cover whole words: turns the chunk fine if it must. */
void     cp_shadow_store_coarse_partial(CpShadowMap* m, CpSlot* slot, Addr a, SizeT len,
                                        CpWriter w, UInt x);

/* The slot of the chunk holding a. */
static inline CpSlot cp_shadow_slot(CpShadowMap* m, Addr a)
{
   Addr cn = a >> CP_CHUNK_BITS;
   return CP_LIKELY(cn < CP_PRIMARY_SIZE) ? m->primary[cn] : cp_shadow_high_slot(m, cn);
}

/* Index of a's block within its chunk. */
static inline UInt cp_shadow_index(CpShadowMap* m, Addr a)
{
   return (UInt)((a & (CP_CHUNK_SIZE - 1)) >> m->gran_log2);
}

/* Writer of entry i of the materialised chunk of slot s. */
static inline CpWriter cp_shadow_chunk_get(CpSlot s, UInt i)
{
   if (CP_SLOT_IS_WIDE(s)) return CP_SLOT_CHUNK(s)->e[i];
   const CpNChunk* ch = CP_SLOT_NCHUNK(s);
   return ch->pal[ch->b[CP_SLOT_IS_COARSE(s) ? i >> CP_COARSE_LOG2 : i]];
}

/* Writer of the block holding byte a. */
static inline CpWriter cp_shadow_get(CpShadowMap* m, Addr a)
{
   CpSlot s = cp_shadow_slot(m, a);
   return CP_SLOT_IS_UNIFORM(s) ? CP_SLOT_WRITER(s) : cp_shadow_chunk_get(s, cp_shadow_index(m, a));
}

/* Do the nb bytes at b all equal b[0]?  Reads whole words (the chunk has
   CP_NCHUNK_TAIL bytes after its entries), but for up to 4 bytes no wider
   than 4: the bytes were often just written by a store of as many (a load
   of a field right after a store to it), and a wider load than the store
   that is still in flight cannot take its data from it but waits for it
   to reach the cache. */
static inline __attribute__((always_inline)) Bool cp_shadow_same_bytes(const UChar* b, UInt nb)
{
   /* each byte equals the next (no 64-bit constant, no spill) */
   if (nb <= 1) return True;
   if (nb == 2) {
      UShort h;
      __builtin_memcpy(&h, b, sizeof(h));
      return (UChar)h == (UChar)(h >> 8);
   }
   if (nb <= 4) {
      UInt x;
      __builtin_memcpy(&x, b, sizeof(x));
      return ((x ^ (x >> 8)) & (0xffffffffu >> (40 - 8 * nb))) == 0;
   }
   ULong w;
   __builtin_memcpy(&w, b, sizeof(w));
   if (CP_LIKELY(nb <= 8)) return ((w ^ (w >> 8)) & (~0ULL >> (72 - 8 * nb))) == 0;
   ULong v = (w & 0xff) * 0x0101010101010101ULL;
   ULong diff = 0;
   UInt i = 0;
   for (; i + 8 <= nb; i += 8) {
      __builtin_memcpy(&w, b + i, sizeof(w));
      diff |= w ^ v;
   }
   if (i < nb) {
      __builtin_memcpy(&w, b + i, sizeof(w));
      diff |= (w ^ v) & (~0ULL >> (64 - 8 * (nb - i)));
   }
   return diff == 0;
}

/* The run of bytes from a on that have the writer of a: its writer into
   *w and its end, at most end (a < end, so a run stops short of the last
   byte of the address space).  Inline for a run within one chunk that is
   uniform or has up to 8 entries of one writer; cp_shadow_run_slow is the
   general case, entry by entry over chunks. */
Addr cp_shadow_run_slow(CpShadowMap* m, Addr a, Addr end, CpWriter* w);
static inline Addr cp_shadow_run(CpShadowMap* m, Addr a, Addr end, CpWriter* w)
{
   Addr ce = (a | (CP_CHUNK_SIZE - 1)) + 1;               /* 0 at the top */
   CpSlot s = cp_shadow_slot(m, a);
   if (CP_LIKELY(ce != 0 && end <= ce)) {                 /* within one chunk */
      if (CP_SLOT_IS_UNIFORM(s)) {
         *w = CP_SLOT_WRITER(s);
         return end;
      }
      if (!CP_SLOT_IS_WIDE(s)) {              /* up to 8 entries of a compact chunk, all one */
         const CpNChunk* ch = CP_SLOT_NCHUNK(s);
         UInt sh = m->gran_log2 + (CP_SLOT_IS_COARSE(s) ? CP_COARSE_LOG2 : 0);
         UInt j0 = (UInt)((a & (CP_CHUNK_SIZE - 1)) >> sh);
         UInt nj = (UInt)(((end - 1) & (CP_CHUNK_SIZE - 1)) >> sh) - j0 + 1;
         if (nj <= 8 && cp_shadow_same_bytes(ch->b + j0, nj)) {
            *w = ch->pal[ch->b[j0]];
            return end;
         }
      }
   }
   return cp_shadow_run_slow(m, a, end, w);
}

/* Do the nb entries at e all hold p?  Two entries a compare. */
static inline Bool cp_shadow_same_entries(const UInt* e, UInt nb, UInt p)
{
   ULong pp = (ULong)p * 0x100000001ULL, diff = 0;
   UInt i = 0;
   for (; i + 2 <= nb; i += 2) {
      ULong w;
      __builtin_memcpy(&w, e + i, sizeof(w));
      diff |= w ^ pp;
   }
   if (i < nb) diff |= e[i] ^ p;
   return diff == 0;
}

/* Make w the writer of every block that [a, a+len) touches. */
void   cp_shadow_set_range(CpShadowMap* m, Addr a, SizeT len, CpWriter w);

/* Set the nb bytes at b to x. */
static inline __attribute__((always_inline)) void cp_shadow_fill_bytes(UChar* b, UInt nb, UInt x)
{
   ULong v = (ULong)x * 0x0101010101010101ULL;
   if (CP_LIKELY(nb == 8)) { __builtin_memcpy(b, &v, 8); return; }
   if (nb == 4) { __builtin_memcpy(b, &v, 4); return; }
   UInt i = 0;
   for (; i + 8 <= nb; i += 8) __builtin_memcpy(b + i, &v, 8);
   if (i + 4 <= nb) { __builtin_memcpy(b + i, &v, 4); i += 4; }
   if (i + 2 <= nb) { __builtin_memcpy(b + i, &v, 2); i += 2; }
   if (i < nb) b[i] = (UChar)x;
}

/* A store of len bytes at a by w: the hot-path form of set_range. */
static inline __attribute__((always_inline)) void cp_shadow_store(CpShadowMap* m, Addr a, SizeT len, CpWriter w)
{
   Addr off = a & (CP_CHUNK_SIZE - 1);
   Addr cn  = a >> CP_CHUNK_BITS;
   if (CP_UNLIKELY(len > CP_CHUNK_SIZE || off + len > CP_CHUNK_SIZE
                   || cn >= CP_PRIMARY_SIZE || len == 0)) {
      cp_shadow_set_range(m, a, len, w);
      return;
   }
   CpSlot* slot = &m->primary[cn];
   CpSlot  s = *slot;
   if (CP_SLOT_IS_UNIFORM(s)) {
      if (s == CP_SLOT_UNIFORM(w)) return;                  /* already w's */
      s = cp_shadow_materialise(m, slot);
   }
   UInt g  = m->gran_log2;
   if (CP_LIKELY(!CP_SLOT_IS_WIDE(s))) {
      CpNChunk* ch = CP_SLOT_NCHUNK(s);
      UInt x;
      if (CP_LIKELY(ch->last_w == w)) {
         x = ch->last_i;
      } else {
         x = cp_shadow_pal_index(m, slot, w);
         ch = CP_SLOT_NCHUNK(*slot);                       /* moved if its palette grew */
      }
      if (CP_LIKELY(x < CP_PAL_SIZE) && CP_SLOT_IS_COARSE(s)) {
         if (CP_UNLIKELY(((off | len) & 3) != 0)) {
            cp_shadow_store_coarse_partial(m, slot, a, len, w, x);
            return;
         }
         UInt c0 = (UInt)(off >> CP_COARSE_LOG2), nw = (UInt)(len >> CP_COARSE_LOG2);
         cp_shadow_fill_bytes(ch->b + c0, nw, x);
         ch->writes += nw;
         if (CP_UNLIKELY(c0 == 0 || c0 + nw == (m->entries >> CP_COARSE_LOG2)))
            cp_shadow_check_uniform(m, slot);
         return;
      }
      if (CP_LIKELY(x < CP_PAL_SIZE)) {
         UInt i0 = (UInt)(off >> g);
         UInt nb = (UInt)(((off + len - 1) >> g) - (off >> g)) + 1;
         /* at granularity 1 nb is len, often a constant of the caller */
         if (CP_LIKELY(g == 0)) cp_shadow_fill_bytes(ch->b + i0, (UInt)len, x);
         else cp_shadow_fill_bytes(ch->b + i0, nb, x);
         ch->writes += nb;
         if (CP_UNLIKELY(i0 == 0 || i0 + nb == m->entries))
            cp_shadow_check_uniform(m, slot);
         return;
      }
      s = *slot;                                           /* turned wide */
   }
   UInt i0 = (UInt)(off >> g);
   UInt nb = (UInt)(((off + len - 1) >> g) - (off >> g)) + 1;
   CpChunk* ch = CP_SLOT_CHUNK(s);
   UInt* e = ch->e + i0;
   ULong ww = (ULong)w * 0x100000001ULL;
   UInt i = 0;
   for (; i + 2 <= nb; i += 2) __builtin_memcpy(e + i, &ww, sizeof(ww));   /* two entries a store */
   if (i < nb) e[i] = w;
   ch->writes += nb;
   if (CP_UNLIKELY(i0 == 0 || i0 + nb == m->entries))
      cp_shadow_check_uniform(m, slot);
}

/* The common case of cp_shadow_store, for the hot path: the store changes
   entries of its own chunk and nothing else.  The chunk is uniform and
   already w's; or it is compact, w the writer of its last store (whose
   palette index the chunk keeps), the store covers whole words of a coarse
   chunk or any bytes of a fine one (at any granularity: the blocks it
   touches), and it reaches neither end of the chunk (where the uniformity
   check is due).  Then the store is
   done and the result is True; otherwise nothing changed and
   cp_shadow_store must do it. */
static inline __attribute__((always_inline)) Bool cp_shadow_store_quick(CpShadowMap* m, Addr a,
                                                                         SizeT len, CpWriter w)
{
   Addr off = a & (CP_CHUNK_SIZE - 1);
   Addr cn  = a >> CP_CHUNK_BITS;
   if (CP_UNLIKELY(off + len > CP_CHUNK_SIZE) || CP_UNLIKELY(cn >= CP_PRIMARY_SIZE)) return False;
   CpSlot s = m->primary[cn];
   if (CP_SLOT_IS_UNIFORM(s)) return s == CP_SLOT_UNIFORM(w);
   if (CP_UNLIKELY(CP_SLOT_IS_WIDE(s))) return False;
   CpNChunk* ch = CP_SLOT_NCHUNK(s);
   if (CP_UNLIKELY(ch->last_w != w)) return False;
   /* coarse chunks are of granularity 1 */
   if (CP_LIKELY(CP_SLOT_IS_COARSE(s))) {
      UInt c0 = (UInt)(off >> CP_COARSE_LOG2), nw = (UInt)(len >> CP_COARSE_LOG2);
      if (CP_UNLIKELY(((off | len) & 3) != 0) || CP_UNLIKELY(c0 == 0)
          || CP_UNLIKELY(c0 + nw == (CP_CHUNK_SIZE >> CP_COARSE_LOG2))) return False;
      cp_shadow_fill_bytes(ch->b + c0, nw, ch->last_i);
      ch->writes += nw;
      return True;
   }
   UInt g = m->gran_log2;
   if (CP_LIKELY(g == 0)) {
      if (CP_UNLIKELY(off == 0) || CP_UNLIKELY(off + len == CP_CHUNK_SIZE)) return False;
      cp_shadow_fill_bytes(ch->b + off, (UInt)len, ch->last_i);
      ch->writes += (UInt)len;
      return True;
   }
   /* a fine chunk at a coarser granularity: the blocks the store touches */
   UInt i0 = (UInt)(off >> g);
   UInt nb = (UInt)(((off + len - 1) >> g) - i0) + 1;
   if (CP_UNLIKELY(i0 == 0) || CP_UNLIKELY(i0 + nb == m->entries)) return False;
   cp_shadow_fill_bytes(ch->b + i0, nb, ch->last_i);
   ch->writes += nb;
   return True;
}

/* Copy the writers of [src, src+len) to [dst, dst+len), block by block
   (the ranges may overlap; both are clamped at the top of the address
   space). */
void   cp_shadow_copy_range(CpShadowMap* m, Addr dst, Addr src, SizeT len);

void   cp_shadow_get_stats(CpShadowMap* m, CpShadowStats* st);

/* Application bytes whose writer is not 0, over the whole map. */
ULong  cp_shadow_written_bytes(CpShadowMap* m);
/* cp_shadow_written_bytes, also counted into stats.written_peak. */
ULong  cp_shadow_sample_written(CpShadowMap* m);

/* Number of bytes of [a, a+len) whose writer satisfies pred (a uniform
   chunk is asked once). */
SizeT  cp_shadow_count_range(CpShadowMap* m, Addr a, SizeT len,
                             Bool (*pred)(CpWriter w, void* arg), void* arg);

#endif /* CP_SHADOW_H */
