/* commprof unit test: the shadow map of last writers (commprof/cp_shadow.c).
 *
 *   gcc -O2 -g -DCP_HOST_TEST -I commprof tests/unit/test_shadow.c commprof/cp_shadow.c
 *
 * The map is compared with a naive reference model: flat arrays of one entry
 * per block over a few chunk-aligned "windows" of the address space (low
 * memory, the middle of the direct range, the 2^37 direct/high boundary, the
 * 0x7fff_xxxx_xxxx region, a far high region and the top 192 KiB below 2^64).
 * Tests write only inside windows, so everything outside must read as 0.
 * Every case runs in its own process (see refmodel.h) and calls
 * cp_shadow_init exactly once, as the API asks.
 *
 * What is asserted (every granularity 0..3):
 *   - values: cp_shadow_get, and the entries of a materialised chunk from a
 *     block's index to the end of the chunk (as cp_access.c reads them), equal
 *     the model, where an operation on [a, a+len) acts on every block of 2^g
 *     bytes the range touches;
 *   - cp_shadow_run(&M, a, end, &w) gives the writer of a and the end of the
 *     run of blocks from a's on with that writer, at most end (within a
 *     load's bytes, over several chunks, up to the top of the address space);
 *   - cp_shadow_store(&M, a, len, w) acts exactly like cp_shadow_set_range,
 *     and so does cp_shadow_store_quick when it says it did the store;
 *   - copy_range(dst, src, len) copies block by block with memmove semantics:
 *     with nblk the number of blocks [src, src+len) touches, block (dst>>g)+i
 *     receives the value block (src>>g)+i had before the call;
 *   - uniform chunks:
 *       * a uniform slot's writer is the value of every block of the chunk;
 *       * set_range covering every block of a chunk leaves it uniform (no
 *         memory), and so does a copy whose run of one writer covers it;
 *       * writing into a uniform chunk the writer it already has changes
 *         nothing (it is not materialised);
 *       * a chunk never written since init/reset reads uniform 0, in the
 *         primary table and in the high table;
 *       * a materialised chunk overwritten completely by one writer with
 *         ascending or descending stores is uniform after the last store
 *         (the promise of cp_shadow.h: checked when a store reaches an end of
 *         the chunk after at least half a chunk of writes);
 *   - cp_shadow_written_bytes equals the model's blocks with a writer times
 *     the block size (it reads only the table pages in use, and the high
 *     table), at every full check;
 *   - stats: chunks_live == number of materialised slots, wide_live == number
 *     of wide ones, bytes_live == wide_live * (sizeof(CpChunk) + 4 * entries)
 *     + (chunks_live - wide_live) * (sizeof(CpNChunk) + entries + tail)
 *     + 4 * (the palette sizes of the compact chunks: 16, or 128 once a
 *     17th writer came), and the kept chunks of each of the five kinds add
 *     up to pool_bytes,
 *     high_chunks_live == number of slots at or above 2^37 that are not
 *     uniform 0, the peaks are at least every observed value, never decrease
 *     (reset keeps them), bytes_peak <= chunks_peak * wide chunk bytes (equal
 *     in a map without compact chunks), the counters materialised,
 *     made_uniform, compacted and widened never decrease;
 *   - stats.written_peak (shadow/written-peak*): chunks set whole one by one
 *     trigger a count at exactly the CP_SAMPLE_EVENTS-th, and frees after it
 *     leave the peak; under random sets and stores with a count every 3
 *     events the peak never exceeds the most bytes with a writer the model
 *     had between two operations, and a count on request equals the model's;
 *   - every slot of the primary table other than uniform 0 lies in a page
 *     that used_pages marks (the whole-map scans read only those);
 *   - every case runs on a map with compact chunks (the map of last writers)
 *     and on one without (-wide: the maps of objects and serials); random
 *     writers of compact maps come from a pool of 300, so that palettes fill,
 *     are compacted and chunks turn wide; shadow/palette-* checks when;
 *     shadow/coarse-* checks when a compact chunk at granularity 1 stays
 *     coarse (an index per 4-byte word) and when it turns fine;
 *   - wrap-around: a range [a, a+len) that runs past 2^64 is clamped to
 *     [a, 2^64): every block from a's to the last one of the address space is
 *     acted on and nothing at low addresses is touched.  This is what the
 *     comment in cp_shadow_set_range promises; the same is asserted of
 *     copy_range (its source range and its destination range), which has no
 *     such clamp: see the cases shadow/copy-wrap-*.
 * What is not asserted: when exactly a partially rewritten chunk turns
 * uniform again (a heuristic), beyond the promise above.
 */
#include "cp_shadow.h"
#include "refmodel.h"

/* the map under test (each case runs in its own process) */
static CpShadowMap M;

#define CH          CP_CHUNK_SIZE
#define K64         ((Addr)0x10000)   /* the windows' unit: 64 KiB, a multiple of CH */
#define TOPA        (~(Addr)0)
#define DIRECT_END  ((Addr)1 << CP_DIRECT_BITS)
#define U(w)        CP_SLOT_UNIFORM(w)

static UInt  G;             /* granularity log2 of this case */
static Addr  BPC;           /* blocks (entries) per chunk */
static ULong WIDE_BYTES;    /* bytes of a wide chunk */
static ULong NARROW_BYTES;  /* bytes of a fine compact chunk, without its palette */
static ULong COARSE_BYTES;  /* bytes of a coarse compact chunk, without its palette */
static int   COMPACT;       /* this case's map makes compact chunks */
static char  opdesc[256];   /* the operation being checked, for messages */
static unsigned long opno;

/* ------------------------------------------------------------------ */
/* the model                                                           */
/* ------------------------------------------------------------------ */

typedef struct {
   const char*    name;
   Addr           base;     /* chunk aligned */
   Addr           nch;      /* chunks */
   UInt*          ent;      /* nch * BPC entries */
   unsigned char* known;    /* per chunk: its slot must be uniform uni[k] */
   UInt*          uni;
} Win;

#define MAXW 256
static Win      W[MAXW];
static unsigned NW;

static inline Addr win_size(const Win* w) { return w->nch * CH; }

static Win* win_of(Addr a)
{
   for (unsigned i = 0; i < NW; i++)
      if (a - W[i].base < win_size(&W[i])) return &W[i];
   return NULL;
}

static Win* win_add(const char* name, Addr base, Addr nch)
{
   CHECK((base & (CH - 1)) == 0 && nch > 0 && NW < MAXW, "test bug: window %s", name);
   for (Addr k = 0; k < nch; k++)
      CHECK(win_of(base + k * CH) == NULL, "test bug: window %s overlaps", name);
   Win* w = &W[NW++];
   w->name = name;
   w->base = base;
   w->nch = nch;
   w->ent = calloc(nch * BPC, sizeof(UInt));
   w->known = malloc(nch);
   w->uni = calloc(nch, sizeof(UInt));
   CHECK(w->ent && w->known && w->uni, "out of memory");
   memset(w->known, 1, nch);                 /* never written: uniform 0 */
   return w;
}

enum { W_LOW, W_MID, W_B37, W_7FFF, W_FAR, W_TOP, W_STD_N };
static void std_windows(void)
{
   win_add("low", 0, 3 * K64 / CH);
   win_add("mid", 0x0000000400030000UL, 3 * K64 / CH);
   win_add("2^37", DIRECT_END - 2 * K64, 4 * K64 / CH);
   win_add("7fff", 0x00007ffffffe0000UL, 3 * K64 / CH);
   win_add("far", 0x123456789abc0000UL, 2 * K64 / CH);
   win_add("top", (Addr)0 - 3 * K64, 3 * K64 / CH);
}

static void model_free_all(void)
{
   for (unsigned i = 0; i < NW; i++) { free(W[i].ent); free(W[i].known); free(W[i].uni); }
   NW = 0;
}

/* Model entry of the block holding a (NULL outside the windows). */
static inline UInt* m_ent(Addr a)
{
   Win* w = win_of(a);
   return w ? &w->ent[(a - w->base) >> G] : NULL;
}
static inline UInt m_get(Addr a)
{
   UInt* p = m_ent(a);
   return p ? *p : 0;
}

static void m_reset(void)
{
   for (unsigned i = 0; i < NW; i++) {
      memset(W[i].ent, 0, W[i].nch * BPC * sizeof(UInt));
      memset(W[i].known, 1, W[i].nch);
      memset(W[i].uni, 0, W[i].nch * sizeof(UInt));
   }
}

/* Blocks [first, last] (inclusive, no wrap) take w. */
static void model_set_blocks(Addr first, Addr last, UInt w)
{
   Addr b = first;
   for (;;) {
      Addr cn = b / BPC, cstart = cn * BPC, e = cstart + BPC - 1;
      if (e > last) e = last;
      Addr n = e - b + 1;
      Win* win = win_of(b << G);
      if (!win)
         FAILF("test bug: block at 0x%lx outside the windows (%s)", b << G, opdesc);
      Addr k = ((cn << CP_CHUNK_BITS) - win->base) >> CP_CHUNK_BITS;
      UInt* p = &win->ent[((b << G) - win->base) >> G];
      if (n == BPC) {
         win->known[k] = 1;
         win->uni[k] = w;
      } else if (!(win->known[k] && win->uni[k] == w)) {
         win->known[k] = 0;
      }
      for (Addr i = 0; i < n; i++) p[i] = w;
      if (e == last) break;
      b = e + 1;
   }
}

/* Last block of [a, a+len), clamped to the top of the address space. */
static Addr last_block_clamped(Addr a, SizeT len)
{
   if (len - 1 > TOPA - a) return TOPA >> G;
   return (a + len - 1) >> G;
}

static void model_set_range(Addr a, SizeT len, UInt w)
{
   if (len == 0) return;
   model_set_blocks(a >> G, last_block_clamped(a, len), w);
}

/* Number of blocks copy_range handles (no wrap). */
static Addr copy_nblk(Addr src, SizeT len)
{
   return ((src + len - 1) >> G) - (src >> G) + 1;
}

/* Copy nblk blocks from src's block to dst's, memmove semantics; a run of one
   writer is one set_range (which matters for uniformity). */
static void model_copy(Addr dst, Addr src, Addr nblk)
{
   Addr sb = src >> G, db = dst >> G;
   if (nblk == 0 || dst == src) return;
   UInt* os = malloc(nblk * sizeof(UInt));
   CHECK(os != NULL, "oom");
   for (Addr i = 0; i < nblk; i++) {
      UInt* p = m_ent((sb + i) << G);
      if (!p) FAILF("test bug: copy source outside the windows (%s)", opdesc);
      os[i] = *p;
   }
   for (Addr i = 0; i < nblk; ) {
      Addr j = i + 1;
      while (j < nblk && os[j] == os[i]) j++;
      model_set_blocks(db + i, db + j - 1, os[i]);
      i = j;
   }
   free(os);
}

/* ------------------------------------------------------------------ */
/* checking the real map against the model                             */
/* ------------------------------------------------------------------ */

static ULong seen_live_max;
static CpShadowStats last_st;

static const char* slot_str(CpSlot s)
{
   static char buf[64];
   if (CP_SLOT_IS_UNIFORM(s)) snprintf(buf, sizeof buf, "uniform %u", CP_SLOT_WRITER(s));
   else snprintf(buf, sizeof buf, "materialised %s", CP_SLOT_IS_WIDE(s) ? "wide"
                 : CP_SLOT_IS_COARSE(s) ? "coarse" : "fine");
   return buf;
}

/* Every block touching [lo, hi] (inclusive), through cp_shadow_get (a byte
   of each block) and through the slot: uniform writer, or the chunk's
   entries from the first block's index to the end of the span in the chunk. */
static void verify_span(Addr lo, Addr hi)
{
   Addr b = lo >> G, last = hi >> G;
   UInt gmask = (1u << G) - 1;
   for (;;) {
      Addr addr = b << G;
      Addr cend = (b / BPC) * BPC + BPC - 1;
      if (cend > last) cend = last;
      Addr n = cend - b + 1;                     /* blocks of the span in this chunk */
      Addr ea = addr | (rnd64() & gmask);
      CpSlot s = cp_shadow_slot(&M, ea);
      const UInt* mp = m_ent(addr);
      if (!mp) {
         /* outside the windows: never written */
         if (s != U(0))
            FAILF("after %s: chunk of 0x%lx outside the model is %s, expected uniform 0",
                  opdesc, addr, slot_str(s));
         for (Addr k = 0; k < n; k++) {
            UInt v = cp_shadow_get(&M, ((b + k) << G) | (k & gmask));
            if (v) FAILF("after %s: get(0x%lx) outside the model = %u", opdesc,
                         ((b + k) << G) | (k & gmask), v);
         }
      } else if (CP_SLOT_IS_UNIFORM(s)) {
         UInt w = CP_SLOT_WRITER(s);
         for (Addr k = 0; k < n; k++)
            if (mp[k] != w)
               FAILF("after %s: chunk of 0x%lx is uniform %u but block at 0x%lx should be %u",
                     opdesc, addr, w, (b + k) << G, mp[k]);
      } else {
         UInt idx = cp_shadow_index(&M, ea);
         CHECK(idx == (UInt)(b % BPC), "cp_shadow_index(0x%lx) = %u, expected %lu", ea, idx,
               b % BPC);
         for (Addr k = 0; k < n; k++) {
            UInt v = cp_shadow_chunk_get(s, idx + (UInt)k);
            if (v != mp[k])
               FAILF("after %s: block at 0x%lx reads %u, expected %u (%s chunk, "
                     "entry %lu after cp_shadow_index(&M, 0x%lx))",
                     opdesc, (b + k) << G, v, mp[k], slot_str(s), k, ea);
         }
      }
      if (mp)
         for (Addr k = 0; k < n; k++) {
            Addr byte = ((b + k) << G) | ((k * 5 + 3) & gmask);
            UInt v = cp_shadow_get(&M, byte);
            if (v != mp[k])
               FAILF("after %s: get(0x%lx) = %u, expected %u", opdesc, byte, v, mp[k]);
         }
      if (cend == last) break;
      b = cend + 1;
   }
}

/* [a, a+len) plus a margin of two blocks each side, clamped to the space. */
static void verify_around(Addr a, SizeT len)
{
   Addr m = (Addr)2 << G;
   Addr lo = a >= m ? a - m : 0;
   Addr hi = (len == 0) ? a : ((len - 1 > TOPA - a) ? TOPA : a + len - 1);
   hi = hi <= TOPA - m ? hi + m : TOPA;
   verify_span(lo, hi);
}

/* Slots of the chunks of w against what the model knows; with full, also
   the contents of uniform chunks. */
static void verify_slots(const Win* w, int full)
{
   for (Addr k = 0; k < w->nch; k++) {
      Addr a = w->base + k * CH;
      CpSlot s = cp_shadow_slot(&M, a);
      if (w->known[k] && s != U(w->uni[k]))
         FAILF("after %s: chunk at 0x%lx (window %s) is %s, expected uniform %u",
               opdesc, a, w->name, slot_str(s), w->uni[k]);
      if (full && CP_SLOT_IS_UNIFORM(s))
         for (Addr i = 0; i < BPC; i++)
            if (w->ent[k * BPC + i] != CP_SLOT_WRITER(s))
               FAILF("after %s: chunk at 0x%lx is uniform %u but block at 0x%lx should be %u",
                     opdesc, a, CP_SLOT_WRITER(s), a + (i << G), w->ent[k * BPC + i]);
   }
}

/* No palette has been compacted yet: a full-size palette then holds more
   writers than a small one can (it grew because a 17th came). */
static int st_compacted_never(void)
{
   CpShadowStats st;
   cp_shadow_get_stats(&M, &st);
   return st.compacted == 0;
}

static void verify_stats(void)
{
   ULong live = 0, wide = 0, coarse = 0, high = 0, palbytes = 0;
   for (unsigned i = 0; i < NW; i++)
      for (Addr k = 0; k < W[i].nch; k++) {
         Addr a = W[i].base + k * CH;
         CpSlot s = cp_shadow_slot(&M, a);
         if (!CP_SLOT_IS_UNIFORM(s)) live++;
         if (!CP_SLOT_IS_UNIFORM(s) && CP_SLOT_IS_WIDE(s)) wide++;
         if (!CP_SLOT_IS_UNIFORM(s) && !CP_SLOT_IS_WIDE(s) && CP_SLOT_IS_COARSE(s)) coarse++;
         if (!CP_SLOT_IS_UNIFORM(s) && !CP_SLOT_IS_WIDE(s)) {
            const CpNChunk* ch = CP_SLOT_NCHUNK(s);
            UInt cap = cp_nchunk_palcap(ch);
            if (cap != CP_PAL_SMALL && cap != CP_PAL_SIZE)
               FAILF("after %s: chunk at 0x%lx has a palette of %u", opdesc, a, cap);
            if (ch->npal > cap
                || (cap == CP_PAL_SIZE && ch->npal <= CP_PAL_SMALL && st_compacted_never()))
               FAILF("after %s: chunk at 0x%lx has %u writers in a palette of %u", opdesc, a,
                     ch->npal, cap);
            palbytes += cap * sizeof(CpWriter);
         }
         if (!CP_SLOT_IS_UNIFORM(s) && CP_SLOT_IS_COARSE(s) && (G != 0 || !COMPACT
                                                               || CP_SLOT_IS_WIDE(s)))
            FAILF("after %s: a coarse chunk at 0x%lx (granularity %u, %s map, slot %s)",
                  opdesc, a, G, COMPACT ? "compact" : "wide", slot_str(s));
         if (!COMPACT && !CP_SLOT_IS_UNIFORM(s) && !CP_SLOT_IS_WIDE(s))
            FAILF("after %s: a map without compact chunks has one at 0x%lx", opdesc, a);
         if ((a >> CP_CHUNK_BITS) >= CP_PRIMARY_SIZE && s != U(0)) high++;
         Addr cn = a >> CP_CHUNK_BITS, pg = cn / CP_SLOTS_PER_PAGE;
         if (cn < CP_PRIMARY_SIZE && s != U(0) && !((M.used_pages[pg >> 3] >> (pg & 7)) & 1))
            FAILF("after %s: slot of 0x%lx is %s but its table page %lu is not marked used "
                  "(the scans would miss it)", opdesc, a, slot_str(s), pg);
      }
   if (live > seen_live_max) seen_live_max = live;
   CpShadowStats st;
   cp_shadow_get_stats(&M, &st);
   CHECK_EQ(st.chunks_live, live, "stats.chunks_live (materialised slots) after %s", opdesc);
   CHECK_EQ(st.high_chunks_live, high,
            "stats.high_chunks_live (high slots not uniform 0) after %s", opdesc);
   CHECK_EQ(st.wide_live, wide, "stats.wide_live (wide slots) after %s", opdesc);
   CHECK_EQ(st.coarse_live, coarse, "stats.coarse_live (coarse slots) after %s", opdesc);
   CHECK_EQ(st.bytes_live, wide * WIDE_BYTES + coarse * COARSE_BYTES
                           + (live - wide - coarse) * NARROW_BYTES + palbytes,
            "stats.bytes_live after %s", opdesc);
   ULong used = 0;
   for (SizeT i = 0; i < sizeof M.used_pages; i++) used += (ULong)__builtin_popcount(M.used_pages[i]);
   CHECK_EQ(st.table_pages, used, "stats.table_pages (table pages marked used) after %s", opdesc);
   CHECK(st.chunks_peak >= seen_live_max && st.chunks_peak >= last_st.chunks_peak,
         "after %s: stats.chunks_peak = %llu, but %llu chunks were seen live (previous peak %llu)",
         opdesc, (unsigned long long)st.chunks_peak, (unsigned long long)seen_live_max,
         (unsigned long long)last_st.chunks_peak);
   CHECK(st.bytes_peak >= st.bytes_live && st.bytes_peak >= last_st.bytes_peak
         && st.bytes_peak <= st.chunks_peak * WIDE_BYTES
         && (COMPACT || st.bytes_peak == st.chunks_peak * WIDE_BYTES),
         "after %s: stats.bytes_peak = %llu (live %llu, chunk peak %llu)", opdesc,
         (unsigned long long)st.bytes_peak, (unsigned long long)st.bytes_live,
         (unsigned long long)st.chunks_peak);
   CHECK(st.materialised >= last_st.materialised && st.made_uniform >= last_st.made_uniform
         && st.compacted >= last_st.compacted && st.widened >= last_st.widened
         && st.refined >= last_st.refined,
         "after %s: a counter decreased", opdesc);
   CHECK(st.chunks_live <= st.materialised, "after %s: more chunks live (%llu) than ever "
         "materialised (%llu)", opdesc, (unsigned long long)st.chunks_live,
         (unsigned long long)st.materialised);
   /* the kept chunks: their lists hold what pool_bytes says, and kept and
      live chunks together never exceed the peak */
   ULong kept = 0;
   const ULong small = CP_PAL_SMALL * sizeof(CpWriter), big = CP_PAL_SIZE * sizeof(CpWriter);
   const ULong kind_bytes[CP_SHADOW_POOLS] = { WIDE_BYTES, NARROW_BYTES + small, COARSE_BYTES + small,
                                               NARROW_BYTES + big, COARSE_BYTES + big };
   for (unsigned k = 0; k < CP_SHADOW_POOLS; k++) {
      ULong n = 0;
      for (void* p = M.pool[k]; p; p = *(void**)p) n++;
      CHECK_EQ(n, M.pool_n[k], "kept chunks of kind %u after %s", k, opdesc);
      kept += n * kind_bytes[k];
   }
   CHECK_EQ(kept, M.pool_bytes, "pool_bytes after %s", opdesc);
   CHECK(kept + st.bytes_live <= st.bytes_peak, "after %s: %llu bytes of kept chunks and %llu "
         "live exceed the peak %llu", opdesc, (unsigned long long)kept,
         (unsigned long long)st.bytes_live, (unsigned long long)st.bytes_peak);
   last_st = st;
}

/* The primary table outside the windows is all uniform 0. */
static void verify_primary_page(Addr pg)
{
   for (Addr cn = pg * CP_SLOTS_PER_PAGE; cn < (pg + 1) * CP_SLOTS_PER_PAGE; cn++)
      if (M.primary[cn] != U(0) && !win_of(cn << CP_CHUNK_BITS))
         FAILF("after %s: primary slot of chunk 0x%lx (never written) is %s", opdesc,
               cn, slot_str(M.primary[cn]));
}

/* Every table page marked used, and 16 others at random (a slot written on a
   page not marked used is caught for the windows by verify_stats). */
static void verify_primary(void)
{
   const Addr npages = CP_PRIMARY_SIZE / CP_SLOTS_PER_PAGE;
   for (Addr pg = 0; pg < npages; pg++)
      if ((M.used_pages[pg >> 3] >> (pg & 7)) & 1) verify_primary_page(pg);
   for (unsigned i = 0; i < 16; i++) verify_primary_page(rnd(npages));
}

/* Random addresses outside the windows read as 0. */
static void verify_outside(unsigned n)
{
   for (unsigned i = 0; i < n; i++) {
      Addr a;
      switch (i % 4) {
      case 0:  a = rnd64(); break;
      case 1:  a = rnd(DIRECT_END); break;
      case 2:  a = DIRECT_END + rnd(DIRECT_END); break;
      default: {
         const Win* w = &W[rnd(NW)];
         a = chance(50) ? w->base - 1 - rnd(2 * CH) : w->base + win_size(w) + rnd(2 * CH);
      }
      }
      if (win_of(a)) continue;
      UInt v = cp_shadow_get(&M, a);
      if (v) FAILF("after %s: get(0x%lx) outside every written range = %u", opdesc, a, v);
      CpSlot s = cp_shadow_slot(&M, a);
      if (s != U(0))
         FAILF("after %s: slot of 0x%lx outside every written range is %s", opdesc, a,
               slot_str(s));
   }
}

/* The model's bytes with a writer. */
static ULong model_written(void)
{
   ULong n = 0;
   for (unsigned i = 0; i < NW; i++)
      for (Addr b = 0; b < W[i].nch * BPC; b++) n += W[i].ent[b] != 0;
   return n << G;
}

/* cp_shadow_written_bytes: the bytes of the blocks that have a writer. */
static void verify_written_bytes(void)
{
   ULong want = model_written();
   ULong got = cp_shadow_written_bytes(&M);
   if (got != want)
      FAILF("after %s: cp_shadow_written_bytes %llu, the model has %llu bytes with a writer", opdesc,
            (unsigned long long)got, (unsigned long long)want);
}

static void verify_all(void)
{
   for (unsigned i = 0; i < NW; i++) {
      verify_span(W[i].base, W[i].base + (win_size(&W[i]) - 1));
      verify_slots(&W[i], 1);
   }
   verify_written_bytes();
   verify_stats();
   verify_primary();
   verify_outside(64);
}

/* ------------------------------------------------------------------ */
/* operations on both                                                  */
/* ------------------------------------------------------------------ */

static void op_set(Addr a, SizeT len, UInt w)
{
   opno++;
   snprintf(opdesc, sizeof opdesc, "op #%lu set_range(0x%lx, %lu, %u)", opno, a, len, w);
   tc_note("%s", opdesc);
   cp_shadow_set_range(&M, a, len, w);
   model_set_range(a, len, w);
}

static void op_store(Addr a, SizeT sz, UInt c)
{
   opno++;
   snprintf(opdesc, sizeof opdesc, "op #%lu store(0x%lx, %lu, %u)", opno, a, sz, c);
   tc_note("%s", opdesc);
   /* every other store tries the hot path's quick form first */
   if (!(opno & 1) || !cp_shadow_store_quick(&M, a, sz, c)) cp_shadow_store(&M, a, sz, c);
   model_set_range(a, sz, c);
}

static void op_copy(Addr dst, Addr src, SizeT len)
{
   opno++;
   snprintf(opdesc, sizeof opdesc, "op #%lu copy_range(dst 0x%lx, src 0x%lx, %lu)",
            opno, dst, src, len);
   tc_note("%s", opdesc);
   Addr nblk = len ? copy_nblk(src, len) : 0;
   cp_shadow_copy_range(&M, dst, src, len);
   model_copy(dst, src, nblk);
}

static void op_reset(void)
{
   opno++;
   snprintf(opdesc, sizeof opdesc, "op #%lu reset", opno);
   tc_note("%s", opdesc);
   cp_shadow_reset(&M);
   m_reset();
}

/* A load as cp_access.c does it: the slot, then the entries of the blocks. */
static void check_load(Addr a, SizeT sz)
{
   CpSlot s = cp_shadow_slot(&M, a);
   UInt nb = (UInt)(((a + sz - 1) >> G) - (a >> G)) + 1;
   for (UInt k = 0; k < nb; k++) {
      UInt want = m_get(((a >> G) + k) << G);
      UInt got = CP_SLOT_IS_UNIFORM(s) ? CP_SLOT_WRITER(s)
                                       : cp_shadow_chunk_get(s, cp_shadow_index(&M, a) + k);
      if (got != want)
         FAILF("after %s: load(0x%lx, %lu): block %u reads %u, expected %u (slot %s)",
               opdesc, a, sz, k, got, want, slot_str(s));
   }
}

/* cp_shadow_run from a up to end (a < end) against the model: the writer
   of a, and the first block after a's with another writer, or end. */
static void check_run(Addr a, Addr end)
{
   UInt want_w = m_get(a);
   Addr y = ((a >> G) + 1) << G;
   while (y != 0 && y < end && m_get(y) == want_w) y += (Addr)1 << G;
   Addr want = (y == 0 || y > end) ? end : y;
   CpWriter got_w = 0xdeadbeef;
   Addr got = cp_shadow_run(&M, a, end, &got_w);
   if (got != want || got_w != want_w)
      FAILF("after %s: cp_shadow_run(0x%lx, 0x%lx) = 0x%lx, writer %u; expected 0x%lx, writer %u",
            opdesc, a, end, got, got_w, want, want_w);
}

static UInt rnd_writer(void)
{
   unsigned r = (unsigned)rnd(100);
   /* compact maps: mostly a pool of 300 writers, so that palettes fill up,
      are compacted and some chunks turn wide */
   if (COMPACT && r >= 30 && r < 95) return 1000 + (UInt)rnd(300);
   if (r < 20) return 0;
   if (r < 50) return (UInt)rnd_in(1, 5);
   if (r < 60) return 0xFFFFFFFFu;
   if (r < 65) return 0x80000000u;
   return (UInt)rnd64() | 1;
}

/* ------------------------------------------------------------------ */
/* case plumbing                                                       */
/* ------------------------------------------------------------------ */

static void setup(uintptr_t arg)
{
   UInt g = (UInt)(arg & 0xff);
   COMPACT = !(arg & 0x100);
   G = g;
   BPC = CH >> g;
   WIDE_BYTES = sizeof(CpChunk) + BPC * sizeof(UInt);
   NARROW_BYTES = sizeof(CpNChunk) + BPC + CP_NCHUNK_TAIL;
   COARSE_BYTES = sizeof(CpNChunk) + (BPC >> CP_COARSE_LOG2) + CP_NCHUNK_TAIL;
   NW = 0;
   opno = 0;
   seen_live_max = 0;
   memset(&last_st, 0, sizeof last_st);
   snprintf(opdesc, sizeof opdesc, "cp_shadow_init(%u, %s)", g, COMPACT ? "True" : "False");
   cp_shadow_init(&M, g, COMPACT);
   CHECK_EQ(M.entries, BPC, "entries");
}

static void teardown(void)
{
   snprintf(opdesc, sizeof opdesc, "final reset");
   cp_shadow_reset(&M);
   m_reset();
   verify_stats();
   model_free_all();
   tc_clear_note();
}

/* A random offset in w, biased towards chunk boundaries. */
static Addr rnd_off(const Win* w)
{
   Addr size = win_size(w);
   if (chance(40)) {
      Addr k = rnd(w->nch + 1) * CH;
      Long d = (Long)rnd(161) - 80;
      Long o = (Long)k + d;
      if (o < 0) o = 0;
      if ((Addr)o >= size) o = (Long)(size - 1);
      return (Addr)o;
   }
   return rnd(size);
}

/* A random length for an operation at offset off of a window of size size. */
static SizeT rnd_len(Addr off, Addr size)
{
   Addr max = size - off, len;
   unsigned r = (unsigned)rnd(100);
   if (r < 60)      len = rnd_in(1, 64);
   else if (r < 85) len = rnd_in(1, 4096);
   else if (r < 92) len = rnd_in(1, 3 * CH);
   else             len = max;              /* to the window's end (2^64 for "top") */
   return len < max ? len : max;
}

/* ------------------------------------------------------------------ */
/* cases                                                               */
/* ------------------------------------------------------------------ */

/* Fixed small scenarios. */
static void case_basic(uintptr_t g)
{
   setup(g);
   std_windows();
   CpShadowStats st;
   cp_shadow_get_stats(&M, &st);
   CHECK(st.chunks_live == 0 && st.chunks_peak == 0 && st.bytes_live == 0 &&
         st.high_chunks_live == 0 && st.materialised == 0, "fresh map has non-zero stats");

   /* unwritten memory reads 0 everywhere, through uniform-0 slots */
   const Addr probes[] = { 0, 1, CH - 1, CH, DIRECT_END - 1, DIRECT_END, DIRECT_END + 1,
                           0x00007fffffffffffUL, 0x0000800000000000UL,
                           0xfffffffffffff000UL, TOPA - 1, TOPA };
   for (unsigned i = 0; i < sizeof probes / sizeof probes[0]; i++) {
      CHECK(cp_shadow_get(&M, probes[i]) == 0, "fresh get(0x%lx) != 0", probes[i]);
      CHECK(cp_shadow_slot(&M, probes[i]) == U(0), "fresh slot of 0x%lx is %s", probes[i],
            slot_str(cp_shadow_slot(&M, probes[i])));
   }
   snprintf(opdesc, sizeof opdesc, "reads of fresh memory");
   verify_stats();

   /* zero-length operations and writer-0 writes to unwritten memory do nothing */
   op_set(0x1234, 0, 7);
   op_store(0x1234, 0, 7);
   op_set(0x1234, 10, 0);
   op_store(0x1234, 8, 0);
   op_set(DIRECT_END + 0x1234, 10, 0);
   op_copy(0x10000, 0x20000, 0);
   op_copy(0x10000, 0x10000, 100);
   op_copy(0x10000, 0x20000, 100);     /* zeros onto zeros */
   verify_all();
   cp_shadow_get_stats(&M, &st);
   CHECK(st.materialised == 0 && st.high_chunks_live == 0,
         "no-op writes materialised %llu chunks, %llu high slots",
         (unsigned long long)st.materialised, (unsigned long long)st.high_chunks_live);

   /* one byte: its whole block takes the writer, the neighbours do not */
   op_set(0x1003, 1, 7);
   Addr blk = 0x1003 & ~(Addr)((1u << G) - 1);
   for (UInt k = 0; k < (1u << G); k++)
      CHECK_EQ(cp_shadow_get(&M, blk + k), 7, "get(0x%lx) in the block of 0x1003", blk + k);
   CHECK_EQ(cp_shadow_get(&M, blk - 1), 0, "get of the byte before the block");
   CHECK_EQ(cp_shadow_get(&M, blk + (1u << G)), 0, "get of the byte after the block");
   CHECK(!CP_SLOT_IS_UNIFORM(cp_shadow_slot(&M, 0x1003)), "a one-byte write left the chunk uniform");
   cp_shadow_get_stats(&M, &st);
   CHECK_EQ(st.chunks_live, 1, "chunks_live after writing one byte");
   /* (at granularity 1 the byte makes the coarse chunk fine at once) */
   CHECK_EQ(st.bytes_live, COMPACT ? NARROW_BYTES + CP_PAL_SMALL * sizeof(CpWriter) : WIDE_BYTES,
            "bytes_live after writing one byte");
   verify_all();

   /* stores, low, high and at the very top */
   op_store(0x1007, 1, 9);
   op_store(0xfffc, 8, 10);                          /* crosses a chunk boundary */
   op_store(DIRECT_END + 0x10, 4, 0xFFFFFFFFu);
   CHECK_EQ(cp_shadow_get(&M, DIRECT_END + 0x10), 0xFFFFFFFFu, "high get");
   CHECK_EQ(cp_shadow_get(&M, DIRECT_END + CH + 0x10), 0, "unwritten high chunk");
   op_store(TOPA, 1, 5);
   CHECK_EQ(cp_shadow_get(&M, TOPA), 5, "get of the last byte of the address space");
   op_store(TOPA - 7, 8, 6);
   for (Addr a = 0xff00; a < 0x10100; a += 4) check_load(a, 4);
   check_load(TOPA - 63, 64);
   check_run(TOPA - 63, TOPA);
   verify_all();

   op_reset();
   verify_all();
   teardown();
}

static void case_random(uintptr_t g)
{
   setup(g);
   std_windows();
   unsigned nops = 5000 * tc_scale;
   for (unsigned it = 0; it < nops; it++) {
      Win* w = &W[rnd(NW)];
      Addr size = win_size(w);
      unsigned r = (unsigned)rnd(1000);
      if (r < 300) {                                  /* set_range */
         Addr off = rnd_off(w);
         SizeT len = rnd_len(off, size);
         op_set(w->base + off, len, rnd_writer());
         verify_around(w->base + off, len);
      } else if (r < 400) {                           /* whole chunks */
         Addr k = rnd(w->nch);
         Addr sub = chance(50) ? rnd(1u << G) : 0;     /* a sub-block offset */
         Addr off = k * CH + sub;
         Addr len = rnd_in(1, w->nch - k) * CH - sub;
         if (chance(30) && off > 0) off -= rnd_in(1, off < 300 ? off : 300);
         if (chance(30)) len += rnd(300);
         if (len > size - off) len = size - off;
         op_set(w->base + off, len, chance(50) ? 0 : rnd_writer());
         verify_around(w->base + off, len);
      } else if (r < 650) {                           /* stores */
         static const SizeT sizes[] = { 1, 2, 4, 8, 16, 32, 64 };
         Addr off = rnd_off(w);
         SizeT sz = chance(80) ? sizes[rnd(7)] : rnd_in(1, 64);
         if (sz > size - off) sz = size - off;
         Addr a = w->base + off;
         UInt c = chance(3) ? 0 : (chance(50) ? (UInt)rnd_in(1, 5) : (UInt)rnd64());
         op_store(a, sz, c);
         verify_around(a, sz);
      } else if (r < 850) {                           /* loads, and entries to the end */
         Addr a = w->base + rnd_off(w);
         opno++;
         snprintf(opdesc, sizeof opdesc, "op #%lu reads at 0x%lx", opno, a);
         SizeT sz = rnd_in(1, 64);
         if ((a & (CH - 1)) + sz <= CH && a + sz - 1 >= a) check_load(a, sz);
         /* runs of one writer: within a load's bytes, and over chunks */
         Addr rl = chance(50) ? sz : (chance(50) ? rnd_in(1, 2 * CH) : rnd_in(1, 8 * CH));
         if (a != TOPA) check_run(a, a + rl > a ? a + rl : TOPA);
         Addr left = BPC - ((a & (CH - 1)) >> G);
         Addr n = chance(10) ? left : (left < 300 ? left : rnd_in(1, 300));
         verify_span(a, a + ((n - 1) << G));
      } else if (r < 990) {                           /* copy_range */
         Addr soff, doff, len;
         Win* dw;
         if (chance(60)) {                            /* overlapping, same window */
            dw = w;
            soff = rnd_off(w);
            Long d = chance(50) ? (Long)rnd_in(1, 80) : (Long)rnd_in(1, 2 * CH);
            if (chance(50)) d = -d;
            Long o = (Long)soff + d;
            if (o < 0) o = 0;
            if ((Addr)o >= size) o = (Long)size - 1;
            doff = (Addr)o;
         } else {                                     /* anywhere, maybe other window */
            dw = &W[rnd(NW)];
            soff = rnd_off(w);
            doff = rnd_off(dw);
         }
         Addr smax = size - soff, dmax = win_size(dw) - doff;
         len = rnd_len(soff, size);
         if (len > smax) len = smax;
         if (len > dmax) len = dmax;
         /* block by block: the destination is nblk blocks from dst's */
         Addr dst = dw->base + doff, src = w->base + soff;
         Addr nblk = copy_nblk(src, len);
         Addr dlast = (dst >> G) + nblk - 1;
         Addr wlast = (dw->base + (win_size(dw) - 1)) >> G;
         if (dlast > wlast || dlast < (dst >> G)) continue;
         op_copy(dst, src, len);
         verify_around(dst, len);
         verify_around(src, len);
         verify_slots(dw, 0);
      } else {                                        /* wrap past the top, or reset */
         if (chance(50)) {
            Win* t = &W[W_TOP];
            Addr off = rnd_off(t);
            SizeT len = (win_size(t) - off) + rnd_in(1, 2 * CH);
            op_set(t->base + off, len, rnd_writer());
            verify_around(t->base + off, len);
            verify_span(0, 3 * CH - 1);               /* low memory untouched */
         } else {
            op_reset();
         }
      }
      verify_stats();
      verify_slots(w, 0);
      if (it % 500 == 499) verify_all();
   }
   verify_all();
   teardown();
}

/* Overlapping copies, forward and backward, at many distances. */
static void case_copy_overlap(uintptr_t g)
{
   setup(g);
   std_windows();
   /* fill some windows densely with distinct-ish writers, in runs */
   const unsigned fill[] = { W_LOW, W_B37, W_TOP };
   for (unsigned f = 0; f < 3; f++) {
      Win* w = &W[fill[f]];
      Addr off = 0;
      while (off < win_size(w)) {
         SizeT len = rnd_in(1, 8u << G);
         if (len > win_size(w) - off) len = win_size(w) - off;
         if (chance(85)) op_set(w->base + off, len, (UInt)rnd_in(1, 0xFFFFFFFFu));
         off += len;
      }
   }
   verify_all();
   static const Addr dists[] = { 1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 63, 64, 65, 4095, 4096,
                                 4097, 0xffff, 0x10000, 0x10001, 0x18003 };
   static const Addr lens[] = { 1, 2, 8, 9, 24, 100, 5000, 0x10000, 0x10000 + 100, 0x20000 };
   for (unsigned f = 0; f < 3; f++) {
      Win* w = &W[fill[f]];
      Addr size = win_size(w);
      for (unsigned di = 0; di < sizeof dists / sizeof dists[0]; di++)
         for (unsigned li = 0; li < sizeof lens / sizeof lens[0]; li++)
            for (int back = 0; back < 2; back++) {
               Addr d = dists[di], len = lens[li];
               if (len + d > size) continue;
               Addr lo = rnd(size - len - d + 1);   /* [lo, lo+d+len) in w */
               Addr src = w->base + (back ? lo + d : lo);
               Addr dst = w->base + (back ? lo : lo + d);
               Addr nblk = copy_nblk(src, len);
               if ((dst >> G) + nblk - 1 > ((w->base + (size - 1)) >> G)) continue;
               op_copy(dst, src, len);
               verify_around(w->base + lo, len + d);
               verify_slots(w, 0);
               verify_stats();
            }
   }
   verify_all();
   /* across the direct/high boundary, both ways, overlapping */
   op_copy(DIRECT_END - 0x8000, DIRECT_END - 0x1000, 0x9000);
   verify_around(DIRECT_END - 0x8000, 0x10000);
   op_copy(DIRECT_END - 0x1000, DIRECT_END - 0x8000, 0x9000);
   verify_around(DIRECT_END - 0x8000, 0x10000);
   /* between windows: top -> far, low <-> 2^37 */
   op_copy(W[W_FAR].base + 0x123, W[W_TOP].base + 0x4567, 0x10000);
   op_copy(W[W_LOW].base + 0x3, W[W_B37].base + 0x1fff0, 0x20);
   op_copy(W[W_B37].base + 0x1fff0, W[W_LOW].base + 0x3, 0x9000);
   /* zeros onto a written range */
   op_copy(W[W_LOW].base + 0x100, W[W_MID].base, 0x100);
   verify_all();
   /* a uniform chunk copied over a whole chunk: the destination is uniform */
   op_set(W[W_MID].base + CH, CH, 4242);
   op_copy(W[W_LOW].base + CH, W[W_MID].base + CH, CH);
   CHECK(cp_shadow_slot(&M, W[W_LOW].base + CH) == U(4242),
         "a whole chunk copied from a uniform one is %s, expected uniform 4242",
         slot_str(cp_shadow_slot(&M, W[W_LOW].base + CH)));
   op_copy(W[W_FAR].base, W[W_LOW].base + CH, CH);
   CHECK(cp_shadow_slot(&M, W[W_FAR].base) == U(4242), "high copy of a uniform chunk is %s",
         slot_str(cp_shadow_slot(&M, W[W_FAR].base)));
   verify_all();
   teardown();
}

/* Uniform chunks: when chunks are (not) materialised, and released. */
static void case_uniform(uintptr_t g)
{
   setup(g);
   std_windows();
   Win* pw = win_add("pool", 0x0000001000000000UL, 40);
   CpShadowStats st, st0;
   Addr lowc = W[W_LOW].base, hic = W[W_FAR].base;

   op_set(lowc, CH, 5);
   cp_shadow_get_stats(&M, &st);
   CHECK(cp_shadow_slot(&M, lowc) == U(5), "set_range of a whole chunk: %s",
         slot_str(cp_shadow_slot(&M, lowc)));
   CHECK(st.chunks_live == 0 && st.materialised == 0, "a uniform chunk costs a chunk");
   op_store(lowc + 0x100, 8, 5);                     /* the writer it already has */
   op_set(lowc + 0x300, CH / 2, 5);
   cp_shadow_get_stats(&M, &st);
   CHECK(cp_shadow_slot(&M, lowc) == U(5) && st.materialised == 0,
         "writing a uniform chunk's own writer materialised it");
   verify_all();

   op_store(lowc + 0x100, 8, 6);                     /* another writer */
   cp_shadow_get_stats(&M, &st);
   CHECK(!CP_SLOT_IS_UNIFORM(cp_shadow_slot(&M, lowc)), "store of another writer left it uniform");
   CHECK(st.chunks_live == 1 && st.materialised == 1, "materialising: %llu live, %llu made",
         (unsigned long long)st.chunks_live, (unsigned long long)st.materialised);
   verify_all();                                     /* the rest still reads 5 */

   op_set(lowc, CH, 7);                              /* whole chunk: released */
   cp_shadow_get_stats(&M, &st);
   CHECK(cp_shadow_slot(&M, lowc) == U(7) && st.chunks_live == 0, "whole-chunk set_range: %s, "
         "%llu live", slot_str(cp_shadow_slot(&M, lowc)), (unsigned long long)st.chunks_live);

   /* one writer overwrites a materialised chunk with ascending stores */
   static const SizeT ssz[] = { 1, 4, 8, 64 };
   for (unsigned si = 0; si < 4; si++) {
      SizeT sz = ssz[si];
      op_store(lowc + 0x100 + 8 * si, 8, 6);
      cp_shadow_get_stats(&M, &st0);
      for (Addr off = 0; off < CH; off += sz) op_store(lowc + off, sz, 20 + (UInt)si);
      cp_shadow_get_stats(&M, &st);
      CHECK(cp_shadow_slot(&M, lowc) == U(20 + (UInt)si),
            "after ascending %lu-byte stores over the whole chunk by one writer: %s",
            sz, slot_str(cp_shadow_slot(&M, lowc)));
      CHECK(st.made_uniform == st0.made_uniform + 1 && st.chunks_live == 0,
            "made_uniform %llu -> %llu, chunks_live %llu", (unsigned long long)st0.made_uniform,
            (unsigned long long)st.made_uniform, (unsigned long long)st.chunks_live);
      verify_span(lowc, lowc + CH - 1);
      /* descending */
      op_store(lowc + CH / 2 + 8 * si, 8, 6);
      for (Addr off = CH; off > 0; off -= sz) op_store(lowc + off - sz, sz, 30 + (UInt)si);
      CHECK(cp_shadow_slot(&M, lowc) == U(30 + (UInt)si),
            "after descending %lu-byte stores over the whole chunk by one writer: %s",
            sz, slot_str(cp_shadow_slot(&M, lowc)));
      verify_all();
   }

   /* all blocks covered from a sub-block offset: uniform iff g > 0 */
   op_store(lowc, 1, 11);
   op_store(lowc + CH * 5 / 16, 8, 12);
   op_set(lowc + 1, CH - 1, 13);
   CpSlot s = cp_shadow_slot(&M, lowc);
   if (G) CHECK(s == U(13), "set_range(chunk+1, 64K-1, w) covers every block at g=%u: %s",
                G, slot_str(s));
   else CHECK(!CP_SLOT_IS_UNIFORM(s), "byte 0 differs, yet the chunk is %s", slot_str(s));
   verify_all();

   /* high slots: uniform non-zero counts, uniform zero is dropped */
   op_set(hic, CH, 12);
   cp_shadow_get_stats(&M, &st);
   CHECK(st.high_chunks_live == 1 && cp_shadow_slot(&M, hic) == U(12),
         "high whole-chunk set_range: %llu high, slot %s",
         (unsigned long long)st.high_chunks_live, slot_str(cp_shadow_slot(&M, hic)));
   op_set(hic, CH, 0);
   cp_shadow_get_stats(&M, &st);
   CHECK_EQ(st.high_chunks_live, 0, "high_chunks_live after zeroing the whole high chunk");
   op_set(hic + 0x10, 0x10, 13);
   op_set(hic + 0x10, 0x10, 0);                      /* content 0, still materialised? */
   verify_all();
   op_set(hic + 0x10, 0x10, 13);
   op_set(hic, CH - 64, 0);                          /* everything 0 again */
   verify_all();
   op_set(hic, CH, 0);
   verify_all();
   cp_shadow_get_stats(&M, &st);
   CHECK(st.high_chunks_live == 0 && cp_shadow_slot(&M, hic) == U(0),
         "high chunk zeroed: %llu high, slot %s", (unsigned long long)st.high_chunks_live,
         slot_str(cp_shadow_slot(&M, hic)));
   CHECK_EQ(cp_shadow_get(&M, hic + 0x10), 0, "get of the zeroed high chunk");

   /* released chunks are reused (a pool of 32): no stale entries */
   for (Addr k = 0; k < pw->nch; k++) op_set(pw->base + k * CH + 0x40 * k, 0x40, 100 + (UInt)k);
   verify_all();
   for (Addr k = 0; k < pw->nch; k++) op_set(pw->base + k * CH, CH, k % 2 ? 0 : 7);
   verify_all();
   for (Addr k = 0; k < pw->nch; k++) op_store(pw->base + k * CH + 0x80, 8, 200 + (UInt)k);
   verify_all();
   op_reset();
   for (Addr k = 0; k < pw->nch; k++) op_store(pw->base + k * CH + 0x800, 8, 300 + (UInt)k);
   verify_all();
   teardown();
}

/* Reset: everything reads 0, stats drop, peaks stay, the map works after. */
static void case_reset(uintptr_t g)
{
   setup(g);
   std_windows();
   for (unsigned i = 0; i < NW; i++)
      for (unsigned k = 0; k < 20; k++) {
         Addr off = rnd_off(&W[i]);
         SizeT len = rnd_len(off, win_size(&W[i]));
         op_set(W[i].base + off, len, (UInt)rnd_in(1, 1000));
      }
   op_set(W[W_FAR].base + CH, CH, 77);              /* a uniform high slot */
   verify_all();
   CpShadowStats st0, st;
   cp_shadow_get_stats(&M, &st0);
   CHECK(st0.chunks_peak > 0 && st0.high_chunks_live > 0, "nothing was materialised");
   op_reset();
   verify_all();
   cp_shadow_get_stats(&M, &st);
   CHECK(st.chunks_live == 0 && st.bytes_live == 0 && st.high_chunks_live == 0,
         "live stats after reset: %llu chunks, %llu bytes, %llu high",
         (unsigned long long)st.chunks_live, (unsigned long long)st.bytes_live,
         (unsigned long long)st.high_chunks_live);
   CHECK_EQ(st.chunks_peak, st0.chunks_peak, "chunks_peak survives reset");
   CHECK_EQ(cp_shadow_get(&M, W[W_FAR].base + CH + 5), 0, "uniform high slot after reset");
   /* and again: the same chunks can be written anew */
   for (unsigned i = 0; i < NW; i++) op_set(W[i].base + 0x20, 3 * CH / 2, 9);
   verify_all();
   op_reset();
   op_reset();                                      /* reset of an empty map */
   verify_all();
   teardown();
}

/* The high hash table: collisions, probe sequences wrapping around the end
   of the table, backward-shift deletion in random order, growth.  The home
   slots are computed with a copy of high_hash from cp_shadow.c; if that hash
   changes, the case still checks correctness, only with less clustering. */
static inline ULong copy_of_high_hash(Addr cn) { return ((ULong)cn * 0x9E3779B97F4A7C15ULL) >> 32; }

static void case_high_hash(uintptr_t g)
{
   setup(g);
   enum { NCL = 24, NGROW = 160 };
   Addr cns[NCL + NGROW];
   unsigned n = 0;
   /* 24 chunks whose home slot (table of 64) is 60..63: a cluster that wraps */
   for (Addr cn = CP_PRIMARY_SIZE + rnd(1u << 20); n < NCL; cn++)
      if ((copy_of_high_hash(cn) & 63) >= 60) cns[n++] = cn;
   /* then more, to make the table grow */
   for (Addr cn = ((Addr)0x7f00 << 32 >> CP_CHUNK_BITS); n < NCL + NGROW; cn += rnd_in(1, 50))
      cns[n++] = cn;
   for (unsigned i = 0; i < n; i++) win_add("hash", cns[i] << CP_CHUNK_BITS, 1);

   /* phase 1: the cluster only (table of 64 slots, at most 24 used) */
   for (int round = 0; round < 6; round++) {
      unsigned perm[NCL];
      for (unsigned i = 0; i < NCL; i++) perm[i] = i;
      for (unsigned i = NCL - 1; i > 0; i--) {
         unsigned j = (unsigned)rnd(i + 1), t = perm[i];
         perm[i] = perm[j]; perm[j] = t;
      }
      for (unsigned i = 0; i < NCL; i++) {
         Addr a = cns[perm[i]] << CP_CHUNK_BITS;
         unsigned r = (unsigned)rnd(10);
         if (r < 6) op_set(a + 64 * round + rnd(32), rnd_in(1, 32),
                           (UInt)(perm[i] + 1) * 1000 + round);
         else if (r < 8) op_set(a, CH, 0);
         else op_set(a, CH, (UInt)perm[i] + 1);      /* uniform, non-zero: stays */
         verify_stats();
         for (unsigned j = 0; j < NCL; j++) {
            verify_slots(&W[j], 0);
            verify_span(W[j].base, W[j].base + 64 * 6 - 1);
         }
      }
   }
   verify_all();
   /* phase 2: grow */
   for (unsigned i = NCL; i < n; i++) op_store((cns[i] << CP_CHUNK_BITS) + 8 * (i % 100), 8, i);
   verify_all();
   /* phase 3: remove everything in random order, checking as we go */
   unsigned perm[NCL + NGROW];
   for (unsigned i = 0; i < n; i++) perm[i] = i;
   for (unsigned i = n - 1; i > 0; i--) {
      unsigned j = (unsigned)rnd(i + 1), t = perm[i];
      perm[i] = perm[j]; perm[j] = t;
   }
   for (unsigned i = 0; i < n; i++) {
      op_set(cns[perm[i]] << CP_CHUNK_BITS, CH, 0);
      verify_stats();
      if (i % 16 == 0)
         for (unsigned j = 0; j < NW; j++) verify_slots(&W[j], 0);
   }
   verify_all();
   teardown();
}

/* The direct/high boundary at 2^37. */
static void case_boundary37(uintptr_t g)
{
   setup(g);
   std_windows();
   CpShadowStats st;
   op_set(DIRECT_END - 5, 10, 3);
   CHECK_EQ(cp_shadow_get(&M, DIRECT_END - 1), 3, "last direct byte");
   CHECK_EQ(cp_shadow_get(&M, DIRECT_END), 3, "first high byte");
   cp_shadow_get_stats(&M, &st);
   CHECK(st.chunks_live == 2 && st.high_chunks_live == 1,
         "a range across 2^37: %llu chunks, %llu high (expected 2, 1)",
         (unsigned long long)st.chunks_live, (unsigned long long)st.high_chunks_live);
   CHECK(!CP_SLOT_IS_UNIFORM(M.primary[CP_PRIMARY_SIZE - 1]),
         "last primary slot not materialised");
   check_load(DIRECT_END - 8, 8);
   check_load(DIRECT_END, 8);
   op_store(DIRECT_END - 8, 8, 4);
   op_store(DIRECT_END - 4, 8, 5);                   /* across 2^37 */
   op_store(DIRECT_END, 8, 5);
   op_store(DIRECT_END - CH, 64, 6);
   op_set(DIRECT_END - 3 * CH / 2, 3 * CH, 7);
   op_set(DIRECT_END - 100, 50, 0);
   op_set(DIRECT_END + 100, 50, 0);
   verify_all();
   op_copy(DIRECT_END + 0x100, DIRECT_END - 0x200, 0x400);
   op_copy(DIRECT_END - 0x300, DIRECT_END - 0x100, 0x400);
   verify_all();
   op_set(DIRECT_END - CH, 2 * CH, 0);
   verify_all();
   cp_shadow_get_stats(&M, &st);
   CHECK_EQ(st.high_chunks_live, 1, "high slots after zeroing the chunks around 2^37");
   teardown();
}

/* The top of the address space and the 0x7fff_xxxx_xxxx region, no wrap. */
static void case_top(uintptr_t g)
{
   setup(g);
   std_windows();
   op_set(TOPA - 15, 16, 8);                        /* ends exactly at 2^64 */
   CHECK_EQ(cp_shadow_get(&M, TOPA), 8, "get(2^64-1)");
   CHECK_EQ(cp_shadow_get(&M, TOPA - 15), 8, "get(2^64-16)");
   CHECK_EQ(cp_shadow_get(&M, TOPA - 16), 0, "get(2^64-17)");
   verify_span(0, 3 * CH - 1);
   op_set(0xfffffffffffff000UL, 0x1000, 9);
   op_store(TOPA - 63, 64, 10);
   check_load(TOPA - 63, 64);
   check_run(TOPA - 63, TOPA);
   check_load(TOPA, 1);
   op_set(0x00007fffffffff00UL, 0x200, 11);         /* across 0x8000_0000_0000 */
   op_store(0x00007ffffffffff8UL, 8, 12);
   op_copy(TOPA - 0x2fff, 0x00007fffffffff00UL, 0x3000);   /* ends at 2^64 */
   op_copy(0x00007fffffff0000UL, TOPA - 0x4000, 0x4001);   /* from the top */
   verify_all();
   op_set(TOPA - 0xffff, 0x10000, 0);                /* the top chunk, a+len == 0 */
   verify_all();
   CHECK(cp_shadow_slot(&M, TOPA) == U(0), "top chunk zeroed: %s", slot_str(cp_shadow_slot(&M, TOPA)));
   teardown();
}

/* set_range past the top with moderate lengths: clamped at 2^64. */
static void case_wrap_clamp(uintptr_t g)
{
   setup(g);
   std_windows();
   op_set(0x10, 0x20, 1);                            /* low memory, to be kept */
   op_set(0x200, 0x10, 2);
   op_set(TOPA - 99, 200, 33);                       /* wraps by 100 bytes */
   verify_all();
   CHECK_EQ(cp_shadow_get(&M, TOPA), 33, "get(2^64-1) after a wrapping set_range");
   CHECK_EQ(cp_shadow_get(&M, 0x10), 1, "low memory after a wrapping set_range");
   op_set(TOPA - 3 * CH + 1 + 0x1234, 3 * CH, 34);   /* wraps by 0x1234 bytes */
   verify_all();
   op_store(TOPA - 3, 8, 35);                        /* a store that wraps */
   verify_all();
   op_set(TOPA - 99, 0x300, 0);                      /* writer 0, partial top chunk */
   verify_all();
   op_set(TOPA - (CH - 1), CH + 0x300, 0);           /* writer 0, whole top chunk */
   verify_all();
   CHECK(cp_shadow_slot(&M, TOPA) == U(0), "top chunk after a wrapping 0 range: %s",
         slot_str(cp_shadow_slot(&M, TOPA)));
   CHECK_EQ(cp_shadow_get(&M, 0x10), 1, "low memory after a wrapping writer-0 range");
   CHECK_EQ(cp_shadow_get(&M, 0x200), 2, "low memory after a wrapping writer-0 range");
   teardown();
}

/* set_range with a length so large that a+len-1 wraps into a's own block. */
static void case_wrap_huge_len(uintptr_t g)
{
   setup(g);
   std_windows();
   Addr a = TOPA - CH + 1 + 7;                       /* top chunk + 7 */
   op_set(0x10, 0x20, 1);
   op_set(a, (SizeT)-1, 44);                          /* [a, a + 2^64 - 1) wraps */
   CHECK_EQ(cp_shadow_get(&M, TOPA), 44,
            "get(2^64-1) after set_range(0x%lx, 2^64-1, 44) (expected clamp to the top)", a);
   verify_all();
   op_set(a, (SizeT)-1 - 3, 45);
   verify_all();
   CHECK_EQ(cp_shadow_get(&M, 0x10), 1, "low memory after a huge set_range");
   teardown();
}

/* copy_range whose destination runs past 2^64.  Every source block has its
   own writer, so the copy is made of one set_range per block. */
static void case_copy_wrap_dst(uintptr_t g)
{
   setup(g);
   std_windows();
   op_set(0x0, 0x400, 55);                          /* low memory, to be kept */
   Addr src = W[W_TOP].base + 0x100;
   for (Addr i = 0; i < (0x400u >> G); i++) op_set(src + (i << G), 1u << G, 100 + (UInt)i);
   Addr dst = TOPA - 0x7f;                           /* dst + 0x400 wraps by 0x380 */
   snprintf(opdesc, sizeof opdesc, "copy_range(dst 0x%lx, src 0x%lx, 0x400) [dst + len "
            "wraps past 2^64]", dst, src);
   tc_note("%s", opdesc);
   cp_shadow_copy_range(&M, dst, src, 0x400);
   tc_clear_note();
   for (Addr x = 0; x < 0x400; x += 1u << G)
      CHECK(cp_shadow_get(&M, x) == 55, "after %s: low memory was written: get(0x%lx) = %u, "
            "expected 55 (unchanged; the copy should stop at 2^64)", opdesc, x, cp_shadow_get(&M, x));
   /* expected: the blocks of the first 0x80 bytes copied, nothing else */
   model_copy(dst, src, 0x80u >> G);
   verify_all();
   teardown();
}

/* copy_range whose source runs past 2^64. */
static void case_copy_wrap_src(uintptr_t g)
{
   setup(g);
   std_windows();
   op_set(0x0, 0x400, 55);                          /* what a wrapped source would read */
   Addr src = TOPA - 0x7f;
   op_set(src, 0x80, 66);
   Addr dst = W[W_MID].base + 0x1000;
   op_set(dst, 0x1000, 77);
   snprintf(opdesc, sizeof opdesc, "copy_range(dst 0x%lx, src 0x%lx, 0x400) [src + len "
            "wraps past 2^64]", dst, src);
   tc_note("%s", opdesc);
   cp_shadow_copy_range(&M, dst, src, 0x400);
   tc_clear_note();
   for (Addr x = dst + 0x80; x < dst + 0x400; x += 1u << G)
      CHECK(cp_shadow_get(&M, x) == 77, "after %s: get(0x%lx) = %u, expected 77 (unchanged; "
            "only the 0x80 bytes below 2^64 should be copied)", opdesc, x, cp_shadow_get(&M, x));
   /* expected: the blocks of the first 0x80 bytes copied, nothing else */
   model_copy(dst, src, 0x80u >> G);
   verify_all();
   teardown();
}

/* Compact chunks: a full palette drops the writers nobody refers to any
   more; a chunk with too many live writers turns wide; values never change. */
static void case_palette(uintptr_t g)
{
   setup(g);
   std_windows();
   Win* w = &W[0];
   Addr base = w->base;                      /* a chunk of the low window */
   Addr blk = (Addr)1 << G;
   CpShadowStats st;
   const UInt P = CP_PAL_SIZE;
   CHECK((3 * P + 1) * blk <= CH, "test bug: the palette case needs 3 * CP_PAL_SIZE blocks a chunk");
   /* P writers (the one of the uniform chunk, 0, and P - 1 more), each in
      its own block */
   for (UInt k = 0; k < P - 1; k++) {
      op_set(base + k * blk, 1, 100 + k);
      check_load(base + k * blk, 1);
   }
   cp_shadow_get_stats(&M, &st);
   CHECK_EQ(st.compacted, 0, "compactions with a full palette");
   CHECK_EQ(st.widened, 0, "chunks widened with a full palette");
   verify_all();
   /* most of them overwritten by one of them: the next writer compacts */
   op_set(base, (P * 3 / 4) * blk, 100);
   op_set(base + (P + P / 4) * blk, blk, 5000);
   cp_shadow_get_stats(&M, &st);
   if (COMPACT) {
      CHECK_EQ(st.compacted, 1, "compactions after 3/4 of a full palette were overwritten");
      CHECK_EQ(st.widened, 0, "chunks widened after a compaction that freed 3/4 of the palette");
      CHECK(!CP_SLOT_IS_WIDE(cp_shadow_slot(&M, base)), "the chunk is wide after compaction");
   }
   verify_all();
   for (Addr k = 0; k < P + P / 4 + 10; k++) check_load(base + k * blk, 1);
   /* more live writers than the palette holds: the chunk turns wide */
   for (UInt k = 0; k < P + P / 4; k++) op_set(base + (P + P / 2 + k) * blk, blk, 20000 + k);
   cp_shadow_get_stats(&M, &st);
   if (COMPACT) {
      CHECK_EQ(st.widened, 1, "chunks widened with too many live writers");
      CHECK(CP_SLOT_IS_WIDE(cp_shadow_slot(&M, base)), "the chunk is compact with too many live writers");
      CHECK_EQ(st.wide_live, 1, "wide chunks live");
   }
   verify_all();
   for (Addr k = 0; k < 3 * P; k++) check_load(base + k * blk, 2 * blk);
   /* one writer over the whole chunk: uniform again, the wide chunk released */
   op_set(base, CH, 9);
   CHECK(cp_shadow_slot(&M, base) == U(9), "a chunk written whole is %s",
         slot_str(cp_shadow_slot(&M, base)));
   cp_shadow_get_stats(&M, &st);
   CHECK_EQ(st.wide_live, 0, "wide chunks live after the chunk turned uniform");
   verify_all();
   /* alternating writers in a compact chunk (the last-writer cache and the
      hints) */
   for (UInt k = 0; k < 4000; k++) {
      UInt wr = (k % 3 == 0) ? 9 : (k % 3 == 1) ? 64 + 9 : 128 + 9;   /* same hint */
      op_store(base + ((k * 7) % 5000) * blk, (k & 1) ? 8 : 1, wr);
   }
   verify_all();
   teardown();
}

/* Random small stores of many writers into two chunks, with overwrites of
   larger ranges and of whole chunks by a few writers: palettes fill, are
   compacted, chunks turn wide and uniform again; every value is checked
   against the model. */
static void case_palette_random(uintptr_t g)
{
   setup(g);
   std_windows();
   Win* w = &W[W_MID];
   Addr size = 2 * CH;                                   /* two of its chunks */
   unsigned nops = 20000 * tc_scale;
   for (unsigned it = 0; it < nops; it++) {
      unsigned r = (unsigned)rnd(1000);
      Addr off = rnd(size);
      if (r < 900) {
         SizeT sz = (SizeT)1 << rnd(5);                 /* 1..16 bytes */
         if (off + sz > size) off = size - sz;
         /* first few live writers (compactions), then many (wide chunks) */
         UInt span = it < nops / 2 ? (chance(50) ? 40 : 400) : 2000;
         UInt wr = chance(80) ? 1000 + (UInt)rnd(span) : (UInt)rnd(3);
         op_store(w->base + off, sz, wr);
         if ((off & (CH - 1)) + sz <= CH) check_load(w->base + off, sz);   /* as cp_access.c */
         else verify_around(w->base + off, sz);
      } else if (r < 920) {
         SizeT len = rnd_in(1, 20000);
         if (len > size - off) len = size - off;
         op_set(w->base + off, len, (UInt)rnd(4));
         verify_around(w->base + off, len);
      } else if (r < 922) {
         op_set(w->base + rnd(2) * CH, CH, (UInt)rnd(4));
      } else {
         verify_all();
      }
   }
   CpShadowStats st;
   cp_shadow_get_stats(&M, &st);
   if (COMPACT)
      CHECK(st.compacted > 0 && st.widened > 0,
            "the case did not exercise compaction (%llu) and widening (%llu)",
            (unsigned long long)st.compacted, (unsigned long long)st.widened);
   verify_all();
   teardown();
}

/* Coarse chunks (compact maps at granularity 1): whole words keep a chunk
   coarse, and so do parts of words that already have the writer; a part of
   a word given another writer makes it fine; values never change. */
static void case_coarse(uintptr_t g)
{
   setup(g);
   std_windows();
   Addr base = W[W_MID].base;
   CpShadowStats st;
   const UInt P = CP_PAL_SIZE;
   Bool coarse_map = COMPACT && G == 0;
   op_store(base + 64, 8, 5);                       /* words: coarse */
   op_store(base + 72, 4, 6);
   op_set(base + 4096, 4096, 7);
   check_load(base + 60, 16);
   check_load(base + 70, 4);
   cp_shadow_get_stats(&M, &st);
   if (coarse_map) {
      CHECK(CP_SLOT_IS_COARSE(cp_shadow_slot(&M, base)), "word stores: the chunk is %s",
            slot_str(cp_shadow_slot(&M, base)));
      CHECK_EQ(st.coarse_live, 1, "coarse chunks live after word stores");
   }
   verify_all();
   op_store(base + 65, 1, 5);                       /* part of a word of its writer */
   op_store(base + 73, 2, 6);
   op_set(base + 4097, 3, 7);
   op_store(base + 66, 2, 5);
   cp_shadow_get_stats(&M, &st);
   if (coarse_map) {
      CHECK(CP_SLOT_IS_COARSE(cp_shadow_slot(&M, base)),
            "parts of words by their own writer: the chunk is %s", slot_str(cp_shadow_slot(&M, base)));
      CHECK_EQ(st.refined, 0, "chunks refined by parts of words of their own writer");
   }
   verify_all();
   op_store(base + 74, 2, 9);                       /* part of a word, another writer */
   cp_shadow_get_stats(&M, &st);
   if (coarse_map) {
      CHECK(!CP_SLOT_IS_COARSE(cp_shadow_slot(&M, base)) && !CP_SLOT_IS_WIDE(cp_shadow_slot(&M, base)),
            "half a word by another writer: the chunk is %s", slot_str(cp_shadow_slot(&M, base)));
      CHECK_EQ(st.refined, 1, "chunks refined");
      CHECK_EQ(st.coarse_live, 0, "coarse chunks live after the refinement");
   }
   for (Addr k = 56; k < 84; k++) check_load(base + k, 1);
   check_load(base + 72, 4);
   verify_all();
   /* set_range: unaligned ends of its own writer keep a chunk coarse */
   Addr b2 = base + CH;
   op_set(b2 + 100, 52, 3);                         /* words 25..37 */
   op_set(b2 + 148, 8, 3);                          /* words 37 and 38 */
   op_set(b2 + 102, 10, 3);                         /* parts of words of 3 */
   cp_shadow_get_stats(&M, &st);
   if (coarse_map) {
      CHECK(CP_SLOT_IS_COARSE(cp_shadow_slot(&M, b2)), "set_range of words: the chunk is %s",
            slot_str(cp_shadow_slot(&M, b2)));
   }
   op_set(b2 + 1, 1, 4);
   if (coarse_map)
      CHECK(!CP_SLOT_IS_COARSE(cp_shadow_slot(&M, b2)), "a byte by another writer: the chunk is %s",
            slot_str(cp_shadow_slot(&M, b2)));
   verify_all();
   /* a coarse chunk with too many live writers widens directly */
   Addr b3 = base + 2 * CH;
   for (UInt k = 0; k < P + P / 4; k++) op_store(b3 + 8 * k, 8, 500 + k);
   cp_shadow_get_stats(&M, &st);
   if (COMPACT)
      CHECK(CP_SLOT_IS_WIDE(cp_shadow_slot(&M, b3)), "too many live writers: the chunk is %s",
            slot_str(cp_shadow_slot(&M, b3)));
   for (UInt k = 0; k < P + P / 4; k++) check_load(b3 + 8 * k + (k & 7), 1);
   verify_all();
   /* a full palette of a coarse chunk is compacted, and the chunk stays coarse */
   Addr b4 = W[W_7FFF].base;
   for (UInt k = 0; k < P - 1; k++) op_store(b4 + 4 * k, 4, 900 + k);
   op_set(b4, 4 * (P * 3 / 4), 900);
   op_store(b4 + 4 * (P + 8), 4, 5000);
   cp_shadow_get_stats(&M, &st);
   if (coarse_map) {
      CHECK(CP_SLOT_IS_COARSE(cp_shadow_slot(&M, b4)), "after a compaction the chunk is %s",
            slot_str(cp_shadow_slot(&M, b4)));
      CHECK(st.compacted >= 1, "no compaction of a coarse chunk's palette");
   }
   for (UInt k = 0; k < P + 8; k++) check_load(b4 + 4 * k, 4);
   verify_all();
   /* overwritten whole by word stores: uniform again */
   for (Addr o = 0; o < CH; o += 8) op_store(base + o, 8, 11);
   CHECK(cp_shadow_slot(&M, base) == U(11), "a chunk written whole is %s",
         slot_str(cp_shadow_slot(&M, base)));
   verify_all();
   teardown();
}

/* Heap blocks freed one by one: the frees make their bytes unwritten
   (set_range with writer 0), and a chunk left with no writer is released.
   Blocks of 8 to 256 bytes, 16 bytes apart (allocator headers), written
   whole or in part by stores of 1 to 16 bytes, fill three chunks.
   Phase A frees them all in a random order after the stores: every chunk must
   end uniform 0 (a count after the first 4 KiB freed makes the chunk's bound
   exact, the last free brings it to 0).  Phase B reallocates, rewrites and
   frees at random, then frees everything: the map must stay right whatever
   it releases (every operation is checked against the model). */
#define HF_MAXB 2048
static void case_heap_frees(uintptr_t g)
{
   setup(g);
   std_windows();
   Win* hw = win_add("heap", 0x0000001800000000UL, 3 * K64 / CH);
   static Addr ba[HF_MAXB];
   static SizeT bs[HF_MAXB];
   static unsigned live[HF_MAXB], order[HF_MAXB];
   unsigned nb = 0;
   for (Addr off = 16; nb < HF_MAXB; nb++) {
      SizeT sz = rnd_in(8, 256);
      if (off + sz > win_size(hw)) break;
      ba[nb] = hw->base + off;
      bs[nb] = sz;
      off += sz + 16;
   }
   CHECK(nb > 600, "only %u blocks", nb);
   static const SizeT sizes[] = { 1, 2, 4, 8, 16 };
   for (unsigned pass = 0; pass < 2; pass++) {
      /* write every block (phase A) or a random half of them (phase B) */
      for (unsigned i = 0; i < nb; i++) {
         if (pass && chance(50)) continue;
         UInt w = (UInt)rnd_in(1, 8);
         SizeT len = chance(80) ? bs[i] : (bs[i] + 1) / 2;
         for (SizeT k = 0; k < len;) {
            SizeT sz = sizes[rnd(5)];
            if (sz > len - k) sz = len - k;
            op_store(ba[i] + k, sz, w);
            k += sz;
         }
         live[i] = 1;
      }
      verify_all();
      if (pass) {                        /* phase B: churn */
         for (unsigned it = 0; it < 4 * nb; it++) {
            unsigned i = (unsigned)rnd(nb);
            if (live[i] && chance(60)) {
               op_set(ba[i], bs[i], 0);
               live[i] = 0;
            } else {
               op_store(ba[i] + rnd(bs[i]), 1, (UInt)rnd_in(1, 8));
               live[i] = 1;
            }
            verify_around(ba[i], bs[i]);
         }
         verify_all();
      }
      /* free everything, in a random order */
      for (unsigned i = 0; i < nb; i++) order[i] = i;
      for (unsigned i = nb; i > 1; i--) {
         unsigned j = (unsigned)rnd(i), t = order[i - 1];
         order[i - 1] = order[j];
         order[j] = t;
      }
      for (unsigned k = 0; k < nb; k++) {
         unsigned i = order[k];
         if (!live[i] && pass) continue;
         op_set(ba[i], bs[i], 0);
         live[i] = 0;
         verify_around(ba[i], bs[i]);
      }
      verify_all();
      if (pass == 0)
         for (Addr c = 0; c < hw->nch; c++)
            CHECK(cp_shadow_slot(&M, hw->base + c * CH) == U(0),
                  "chunk %lu of the heap is %s after every block was freed", (unsigned long)c,
                  slot_str(cp_shadow_slot(&M, hw->base + c * CH)));
   }
   teardown();
}

/* cp_shadow_same_bytes against a byte loop: runs of 1 to 40 bytes, equal
   or with one or two bytes changed anywhere (the bytes after the run, which
   it may read, differ at random). */
static void case_same_bytes(uintptr_t unused)
{
   (void)unused;
   static UChar buf[64 + CP_NCHUNK_TAIL];
   for (unsigned it = 0; it < 200000; it++) {
      UInt nb = (UInt)rnd_in(1, 40), off = (UInt)rnd(16);
      UChar x = (UChar)rnd(256);
      for (UInt i = 0; i < sizeof buf; i++) buf[i] = (UChar)rnd(256);
      for (UInt i = 0; i < nb; i++) buf[off + i] = x;
      unsigned changes = (unsigned)rnd(3);
      for (unsigned k = 0; k < changes; k++) buf[off + rnd(nb)] ^= (UChar)(1u << rnd(8));
      int want = 1;
      for (UInt i = 1; i < nb; i++) want &= buf[off + i] == buf[off];
      int got = cp_shadow_same_bytes(buf + off, nb) ? 1 : 0;
      CHECK(got == want, "cp_shadow_same_bytes(%u bytes at +%u) = %d, want %d", nb, off, got, want);
   }
}

/* stats.written_peak: counts at every sample_events-th event of the slow
   paths, and on request.  Chunks set whole one by one are one event each:
   the count at the CP_SAMPLE_EVENTS-th is the peak (the frees after it
   lower the count and leave the peak), exactly. */
static void case_written_peak(uintptr_t g)
{
   setup(g);
   const Addr n = CP_SAMPLE_EVENTS + 100, base = (Addr)0x0000000500000000UL;
   Win* w = win_add("peak", base, n);
   M.checkpoints = True;
   for (Addr k = 0; k < n; k++) op_set(w->base + k * CH, CH, 7);
   CpShadowStats st;
   cp_shadow_get_stats(&M, &st);
   CHECK_EQ(st.written_samples, 1, "counts after %lu chunks set whole", (unsigned long)n);
   CHECK_EQ(st.written_peak, (ULong)CP_SAMPLE_EVENTS * CH, "written_peak after the sets");
   CHECK_EQ(st.chunks_live, 0, "no chunk materialised by whole sets");
   op_set(w->base, n * CH, 0);               /* n events more: one count, of 100 chunks */
   cp_shadow_get_stats(&M, &st);
   CHECK_EQ(st.written_samples, 2, "counts after the frees");
   CHECK_EQ(st.written_peak, (ULong)CP_SAMPLE_EVENTS * CH, "written_peak after the frees");
   CHECK_EQ(cp_shadow_sample_written(&M), 0, "bytes with a writer after the frees");
   cp_shadow_get_stats(&M, &st);
   CHECK_EQ(st.written_samples, 3, "counts after one on request");
   CHECK_EQ(st.written_peak, (ULong)CP_SAMPLE_EVENTS * CH, "written_peak after a count of 0");
   teardown();
}

/* Random sets and stores, with a count every 3 events at least: the peak
   never exceeds the most bytes with a writer the model had between two
   operations (a set or a store only adds writers, or only takes them
   away, so no count within one sees more than its start or end), and
   counts on request return the model's bytes and keep the peak at least
   as high. */
static void case_written_peak_random(uintptr_t g)
{
   setup(g);
   std_windows();
   M.checkpoints = True;
   M.sample_events = 3;
   ULong most = 0, asked = 0;
   for (unsigned it = 0; it < 400; it++) {
      Win* w = &W[rnd(NW)];
      Addr off = rnd_off(w);
      SizeT len = rnd_len(off, win_size(w));
      if (chance(50)) op_set(w->base + off, len, rnd_writer());
      else op_store(w->base + off, len > 64 ? 64 : len, rnd_writer());
      ULong now = model_written();
      if (now > most) most = now;
      CpShadowStats st;
      cp_shadow_get_stats(&M, &st);
      if (st.written_peak > most)
         FAILF("after %s: written_peak %llu, but the model never had more than %llu", opdesc,
               (unsigned long long)st.written_peak, (unsigned long long)most);
      if (chance(10)) {
         asked++;
         CHECK_EQ(cp_shadow_sample_written(&M), now, "count on request after %s", opdesc);
         cp_shadow_get_stats(&M, &st);
         if (st.written_peak < now)
            FAILF("after %s: written_peak %llu below a count of %llu", opdesc,
                  (unsigned long long)st.written_peak, (unsigned long long)now);
      }
   }
   CpShadowStats st;
   cp_shadow_get_stats(&M, &st);
   if (st.written_samples <= asked)
      FAILF("%llu counts, all %llu on request: the events never triggered one",
            (unsigned long long)st.written_samples, (unsigned long long)asked);
   teardown();
}

int main(int argc, char** argv)
{
   tc_env();
   char name[96];
   static const struct { const char* n; tc_fn f; unsigned t; } per_g[] = {
      { "basic",         case_basic,          20 },
      { "random",        case_random,        120 },
      { "copy-overlap",  case_copy_overlap,  120 },
      { "uniform",       case_uniform,        30 },
      { "reset",         case_reset,          20 },
      { "high-hash",     case_high_hash,      30 },
      { "boundary-2^37", case_boundary37,     20 },
      { "top",           case_top,            20 },
      { "wrap-clamp",    case_wrap_clamp,     20 },
      { "wrap-huge-len", case_wrap_huge_len,  10 },
      { "copy-wrap-dst", case_copy_wrap_dst,  10 },
      { "copy-wrap-src", case_copy_wrap_src,  2 },
      { "palette",       case_palette,        20 },
      { "palette-random", case_palette_random, 120 },
      { "coarse",        case_coarse,         20 },
      { "heap-frees",    case_heap_frees,     30 },
      { "written-peak",  case_written_peak,   30 },
      { "written-peak-random", case_written_peak_random, 120 },
   };
   for (unsigned i = 0; i < sizeof per_g / sizeof per_g[0]; i++)
      for (unsigned g = 0; g <= 3; g++)
         for (unsigned wide = 0; wide <= 1; wide++) {
            snprintf(name, sizeof name, "shadow/%s-g%u%s", per_g[i].n, g, wide ? "-wide" : "");
            tc_add(name, per_g[i].f, g | (wide << 8), per_g[i].t);
         }
   tc_add("shadow/same-bytes", case_same_bytes, 0, 20);
   return tc_run_all("test_shadow", argc, argv);
}
