/* commprof: the shadow map of last writers (see cp_shadow.h). */

#include "cp_shadow.h"

CpShadowMap cp_shadow;

/* ---- chunks above the direct range: open-addressing hash table ---- */

typedef CpHighSlot HighSlot;
#define HIGH_EMPTY ((Addr)-1)

static inline SizeT high_hash(Addr cn)
{
   ULong h = (ULong)cn * 0x9E3779B97F4A7C15ULL;
   return (SizeT)(h >> 32);
}

static HighSlot* high_find(CpShadowMap* m, Addr cn)
{
   if (m->high_cap == 0) return NULL;
   SizeT i = high_hash(cn) & (m->high_cap - 1);
   while (m->high_tab[i].cn != HIGH_EMPTY) {
      if (m->high_tab[i].cn == cn) return &m->high_tab[i];
      i = (i + 1) & (m->high_cap - 1);
   }
   return NULL;
}

static void high_insert_nogrow(CpShadowMap* m, Addr cn, CpSlot* cell)
{
   SizeT i = high_hash(cn) & (m->high_cap - 1);
   while (m->high_tab[i].cn != HIGH_EMPTY) i = (i + 1) & (m->high_cap - 1);
   m->high_tab[i].cn = cn;
   m->high_tab[i].cell = cell;
}

static void high_insert(CpShadowMap* m, Addr cn, CpSlot* cell)
{
   if ((m->high_used + 1) * 2 > m->high_cap) {
      SizeT     old_cap = m->high_cap;
      HighSlot* old = m->high_tab;
      m->high_cap = old_cap ? old_cap * 2 : 64;
      m->high_tab = CP_MALLOC("cp.shadow.high", m->high_cap * sizeof(HighSlot));
      for (SizeT i = 0; i < m->high_cap; i++) m->high_tab[i].cn = HIGH_EMPTY;
      for (SizeT i = 0; i < old_cap; i++)
         if (old[i].cn != HIGH_EMPTY) high_insert_nogrow(m, old[i].cn, old[i].cell);
      if (old) CP_FREE(old);
   }
   high_insert_nogrow(m, cn, cell);
   m->high_used++;
}

/* Remove by backward-shift deletion, keeping probe sequences intact. */
static void high_remove(CpShadowMap* m, HighSlot* s)
{
   SizeT i = (SizeT)(s - m->high_tab);
   SizeT j = i;
   CP_FREE(m->high_tab[i].cell);
   m->high_tab[i].cn = HIGH_EMPTY;
   for (;;) {
      j = (j + 1) & (m->high_cap - 1);
      if (m->high_tab[j].cn == HIGH_EMPTY) break;
      SizeT k = high_hash(m->high_tab[j].cn) & (m->high_cap - 1);
      /* move j back to i if k is cyclically outside (i, j] */
      Bool move = (i <= j) ? (k <= i || k > j) : (k <= i && k > j);
      if (move) {
         m->high_tab[i] = m->high_tab[j];
         m->high_tab[j].cn = HIGH_EMPTY;
         i = j;
      }
   }
   m->high_used--;
}

CpSlot cp_shadow_high_slot(CpShadowMap* m, Addr cn)
{
   HighSlot* s = high_find(m, cn);
   return s ? *s->cell : CP_SLOT_UNIFORM(0);
}

CpSlot* cp_shadow_high_slot_for_write(CpShadowMap* m, Addr cn)
{
   HighSlot* s = high_find(m, cn);
   if (s) return s->cell;
   CpSlot* cell = CP_MALLOC("cp.shadow.highcell", sizeof(CpSlot));
   *cell = CP_SLOT_UNIFORM(0);
   high_insert(m, cn, cell);
   m->stats.high_chunks_live++;
   return cell;
}

/* The number of the direct-range chunk of slot, or CP_PRIMARY_SIZE. */
static inline Addr direct_cn(const CpShadowMap* m, const CpSlot* slot)
{
   return slot >= m->primary && slot < m->primary + CP_PRIMARY_SIZE ? (Addr)(slot - m->primary)
                                                                     : CP_PRIMARY_SIZE;
}

static inline void set_was_fine(CpShadowMap* m, const CpSlot* slot, Bool v)
{
   Addr cn = direct_cn(m, slot);
   if (cn == CP_PRIMARY_SIZE) return;
   if (v) m->was_fine[cn >> 3] |= (UChar)(1u << (cn & 7));
   else   m->was_fine[cn >> 3] &= (UChar)~(1u << (cn & 7));
}

/* Note that the page of the primary table holding slot cn is in use. */
static inline void mark_used(CpShadowMap* m, Addr cn)
{
   Addr pg = cn / CP_SLOTS_PER_PAGE;
   UChar bit = (UChar)(1u << (pg & 7));
   if (CP_UNLIKELY(!(m->used_pages[pg >> 3] & bit))) {
      m->used_pages[pg >> 3] |= bit;
      m->stats.table_pages++;
   }
}

static inline Bool page_used(const CpShadowMap* m, Addr pg)
{
   return (m->used_pages[pg >> 3] >> (pg & 7)) & 1;
}

/* The first slot of the primary table from index *i on that has a writer
   (it is not uniform 0), with *i its index; NULL once there is none.  Only
   the table pages ever used are read. */
static CpSlot* next_written_slot(CpShadowMap* m, Addr* i)
{
   for (Addr j = *i; j < CP_PRIMARY_SIZE; j++) {
      if (j % CP_SLOTS_PER_PAGE == 0 && !page_used(m, j / CP_SLOTS_PER_PAGE)) {
         j += CP_SLOTS_PER_PAGE - 1;                         /* a page never used */
         continue;
      }
      if (m->primary[j] != CP_SLOT_UNIFORM(0)) {
         *i = j;
         return &m->primary[j];
      }
   }
   return NULL;
}

/* The slot of chunk cn, for writing. */
static CpSlot* slot_for_write(CpShadowMap* m, Addr cn)
{
   if (cn < CP_PRIMARY_SIZE) {
      mark_used(m, cn);
      return &m->primary[cn];
   }
   return cp_shadow_high_slot_for_write(m, cn);
}

/* A high slot that became uniform 0 is dropped from the table. */
static void maybe_drop_high(CpShadowMap* m, Addr cn)
{
   if (cn < CP_PRIMARY_SIZE) return;
   HighSlot* s = high_find(m, cn);
   if (s && *s->cell == CP_SLOT_UNIFORM(0)) {
      high_remove(m, s);
      m->stats.high_chunks_live--;
   }
}

/* ---- chunk allocation ---- */

static void checkpoint(CpShadowMap* m);

/* An event of the slow paths that may have changed how many bytes have a
   writer (see CpShadowStats.written_peak); the slot is consistent again. */
static inline void slow_event(CpShadowMap* m)
{
   if (!m->checkpoints) return;
   ULong every = 2 * m->stats.chunks_live;
   if (every < m->sample_events) every = m->sample_events;
   if (++m->slow_events >= every) cp_shadow_sample_written(m);
}

static void count_alloc(CpShadowMap* m, SizeT bytes)
{
   m->stats.chunks_live++;
   m->stats.bytes_live += bytes;
   if (m->stats.chunks_live > m->stats.chunks_peak) m->stats.chunks_peak = m->stats.chunks_live;
   if (m->stats.bytes_live > m->stats.bytes_peak)   m->stats.bytes_peak = m->stats.bytes_live;
   if (m->checkpoints && m->stats.chunks_live * 8 > m->stats.ckpt_chunks * 9 + 8) checkpoint(m);
}

enum { POOL_WIDE, POOL_FINE, POOL_COARSE, POOL_FINE_BIG, POOL_COARSE_BIG };

/* Palette entries of a chunk of kind k (0 for wide chunks). */
static inline UInt pool_palcap(UInt k)
{
   return k == POOL_WIDE ? 0 : k >= POOL_FINE_BIG ? CP_PAL_SIZE : CP_PAL_SMALL;
}

/* Bytes of a chunk of kind k, palette included. */
static SizeT pool_chunk_bytes(const CpShadowMap* m, UInt k)
{
   SizeT body = k == POOL_WIDE ? m->chunk_bytes
              : (k == POOL_FINE || k == POOL_FINE_BIG) ? m->nchunk_bytes : m->cchunk_bytes;
   return body + pool_palcap(k) * sizeof(CpWriter);
}

/* A chunk of kind k: a kept one, or new memory.  New chunks come from the
   tool's heap (zeroed): they are a few KiB and many, and a mapping of their
   own each would cost a system call and a segment of the address-space
   manager, and round each up to whole pages.  Before taking new memory,
   kept chunks of the other kinds are given back until the live and kept
   chunks and the new one fit in the peak of the live ones, so that keeping
   chunks never raises the memory the map holds above that peak. */
static void* pool_take(CpShadowMap* m, UInt k)
{
   SizeT bytes = pool_chunk_bytes(m, k);
   void* p = m->pool[k];
   if (!p) {
      for (UInt j = 0; j < CP_SHADOW_POOLS; j++)
         while (m->pool[j] && m->pool_bytes + m->stats.bytes_live + bytes > m->stats.bytes_peak) {
            void* q = m->pool[j];
            m->pool[j] = *(void**)q;
            m->pool_n[j]--;
            m->pool_bytes -= pool_chunk_bytes(m, j);
            CP_FREE(q);
         }
      return CP_CALLOC("cp.shadow.chunk", bytes);
   }
   m->pool[k] = *(void**)p;
   m->pool_n[k]--;
   m->pool_bytes -= bytes;
   return p;
}

static void pool_put(CpShadowMap* m, UInt k, void* p)
{
   SizeT bytes = pool_chunk_bytes(m, k);
   if (m->pool_n[k] < CP_SHADOW_POOL_MAX || m->pool_n[k] < m->stats.chunks_peak / 2) {
      *(void**)p = m->pool[k];
      m->pool[k] = p;
      m->pool_n[k]++;
      m->pool_bytes += bytes;
   } else {
      CP_FREE(p);
   }
}

/* A new materialised chunk of kind k, counted live (its fields are the
   caller's to set, but for a compact chunk's pointer to its palette): its
   header, after its palette. */
static void* alloc_chunk(CpShadowMap* m, UInt k)
{
   UInt cap = pool_palcap(k);
   void* ch = (UChar*)pool_take(m, k) + cap * sizeof(CpWriter);
   if (k == POOL_WIDE) m->stats.wide_live++;
   if (k == POOL_COARSE || k == POOL_COARSE_BIG) m->stats.coarse_live++;
   if (k != POOL_WIDE) ((CpNChunk*)ch)->pal = (CpWriter*)ch - cap;
   count_alloc(m, pool_chunk_bytes(m, k));
   return ch;
}

/* Entries of the compact chunk of slot value s. */
static inline UInt compact_entries(CpShadowMap* m, CpSlot s)
{
   return CP_SLOT_IS_COARSE(s) ? m->entries >> CP_COARSE_LOG2 : m->entries;
}

/* Release the materialised chunk of slot value s. */
static void release_chunk(CpShadowMap* m, CpSlot s)
{
   UInt k = POOL_WIDE;
   if (!CP_SLOT_IS_WIDE(s)) {
      Bool big = cp_nchunk_palcap(CP_SLOT_NCHUNK(s)) == CP_PAL_SIZE;
      k = CP_SLOT_IS_COARSE(s) ? (big ? POOL_COARSE_BIG : POOL_COARSE)
                               : (big ? POOL_FINE_BIG : POOL_FINE);
   }
   pool_put(m, k, (UChar*)CP_SLOT_CHUNK(s) - pool_palcap(k) * sizeof(CpWriter));
   if (k == POOL_WIDE) m->stats.wide_live--;
   if (k == POOL_COARSE || k == POOL_COARSE_BIG) m->stats.coarse_live--;
   m->stats.chunks_live--;
   m->stats.bytes_live -= pool_chunk_bytes(m, k);
}

/* The free-tracking fields sit at the same offsets in both kinds of chunk. */
#define CP_SAME_OFFSET(f) (__builtin_offsetof(CpChunk, f) == __builtin_offsetof(CpNChunk, f))
typedef char cp_free_fields_match[(CP_SAME_OFFSET(free_est) && CP_SAME_OFFSET(freed)
                                   && CP_SAME_OFFSET(free_gap) && CP_SAME_OFFSET(free_snap))
                                  ? 1 : -1];
#undef CP_SAME_OFFSET

/* Chunks emptied by frees.  When set_range makes bytes of a materialised
   chunk unwritten (writer 0: the frees of heap blocks), it counts how many of
   them had a writer and lowers free_est by that.  free_est is exact after a
   count of the whole chunk, and stays exact while no store comes in between
   (writes == free_snap: stores add to writes); a store can only give bytes a
   writer, so free_est is otherwise a lower bound.  When free_est reaches 0
   the chunk may be empty: if it is exact, it is, and the chunk is released
   (after a check); if not, the chunk is counted, but no sooner than free_gap
   bytes made unwritten after the last count, which doubles (up to a chunk)
   after each count that found bytes with a writer, so that the passes cost
   at most about one entry per byte made unwritten. */
static void free_track_init(CpShadowMap* m, CpChunk* ch, CpWriter w)
{
   ch->free_est = w ? (Int)CP_CHUNK_SIZE : 0;
   ch->freed = 0;
   ch->free_gap = (UInt)(CP_CHUNK_SIZE / 16);
   ch->free_snap = ch->writes;
}

/* After writes was scaled from the old chunk o to the new one n (refine,
   widen): free_est stays exact if it was. */
static void free_track_move(CpChunk* n, const CpChunk* o)
{
   n->free_est = o->free_est;
   n->freed = o->freed;
   n->free_gap = o->free_gap;
   n->free_snap = o->free_snap == o->writes ? n->writes : n->writes - 1;
}

/* How many of the n bytes at b differ from x (8 bytes a step). */
static UInt count_ne(const UChar* b, UInt n, UInt x)
{
   const ULong lo7 = 0x7f7f7f7f7f7f7f7fULL, ones = 0x0101010101010101ULL;
   ULong xx = (ULong)x * ones;
   UInt c = 0, k = 0;
   for (; k + 8 <= n; k += 8) {
      ULong w;
      __builtin_memcpy(&w, b + k, sizeof(w));
      w ^= xx;                                        /* a byte is 0 where it was x */
      ULong t = ((w & lo7) + lo7) | w;                /* its top bit: the byte is not 0 */
      c += (UInt)((((t >> 7) & ones) * ones) >> 56);
   }
   for (; k < n; k++) c += b[k] != x;
   return c;
}

/* Bytes with a writer among blocks [i, i+n) of the materialised chunk of s,
   whose palette index of writer 0 is x (compact chunks). */
static ULong range_written_bytes(CpShadowMap* m, CpSlot s, UInt i, UInt n, UInt x)
{
   ULong c = 0;
   if (CP_SLOT_IS_WIDE(s)) {
      const UInt* e = CP_SLOT_CHUNK(s)->e + i;
      for (UInt k = 0; k < n; k++) c += e[k] != 0;
   } else if (!CP_SLOT_IS_COARSE(s)) {
      c = count_ne(CP_SLOT_NCHUNK(s)->b + i, n, x);
   } else {                                   /* granularity 1: blocks are bytes */
      const UChar* b = CP_SLOT_NCHUNK(s)->b;
      UInt e = i + n, w0 = (i + 3) >> CP_COARSE_LOG2, w1 = e >> CP_COARSE_LOG2;
      if (w0 >= w1) {                         /* within one word, or two partial ones */
         for (UInt k = i; k < e; k++) c += b[k >> CP_COARSE_LOG2] != x;
      } else {
         for (UInt k = i; k < w0 << CP_COARSE_LOG2; k++) c += b[k >> CP_COARSE_LOG2] != x;
         c += (ULong)count_ne(b + w0, w1 - w0, x) << CP_COARSE_LOG2;
         for (UInt k = w1 << CP_COARSE_LOG2; k < e; k++) c += b[k >> CP_COARSE_LOG2] != x;
      }
   }
   return c << m->gran_log2;
}

Addr cp_shadow_run_slow(CpShadowMap* m, Addr a, Addr end, CpWriter* w)
{
   UInt g = m->gran_log2;
   CpWriter v = cp_shadow_get(m, a);
   Addr x = a;
   while (x < end) {
      Addr ce = (x | (CP_CHUNK_SIZE - 1)) + 1;             /* 0 at the top */
      Addr lim = (ce == 0 || ce > end) ? end : ce;
      CpSlot s = cp_shadow_slot(m, x);
      if (CP_SLOT_IS_UNIFORM(s)) {
         if (CP_SLOT_WRITER(s) != v) break;
         x = lim;
      } else {
         /* entry by entry (an entry: a block, or a word of a coarse chunk),
            from x's up to the one holding lim - 1 */
         UInt sh = g + (CP_SLOT_IS_COARSE(s) ? CP_COARSE_LOG2 : 0);
         Addr base = x & ~(CP_CHUNK_SIZE - 1);
         UInt j = (UInt)((x - base) >> sh), jlim = (UInt)((lim - 1 - base) >> sh) + 1;
         if (CP_SLOT_IS_WIDE(s)) {
            const UInt* e = CP_SLOT_CHUNK(s)->e;
            while (j < jlim && e[j] == v) j++;
         } else {
            /* writers are unique in a palette: the entries with v's index */
            const CpNChunk* ch = CP_SLOT_NCHUNK(s);
            UChar xv = ch->b[j];
            if (ch->pal[xv] == v)
               while (j < jlim && ch->b[j] == xv) j++;
         }
         if (j < jlim) {                                   /* entry j has another writer */
            Addr y = base + ((Addr)j << sh);
            x = y > x ? y : x;
            break;
         }
         x = lim;
      }
      if (ce == 0) break;                                   /* the top of the address space */
   }
   *w = v;
   return x < end ? x : end;
}

/* Bytes of the chunk of slot value s whose writer is not 0. */
static ULong slot_written_bytes(CpShadowMap* m, CpSlot s)
{
   if (CP_SLOT_IS_UNIFORM(s)) return CP_SLOT_WRITER(s) ? CP_CHUNK_SIZE : 0;
   UInt z = 0;                         /* the palette index of writer 0 (writers are unique) */
   if (!CP_SLOT_IS_WIDE(s)) {
      const CpNChunk* ch = CP_SLOT_NCHUNK(s);
      while (z < ch->npal && ch->pal[z] != 0) z++;
      if (z == ch->npal) return CP_CHUNK_SIZE;        /* no block is unwritten */
   }
   return range_written_bytes(m, s, 0, m->entries, z);
}

/* set_range made `cleared' bytes of the chunk of *slot unwritten that had a
   writer, `clean' if no store came between the chunk's last exact free_est
   and it; True if that released the chunk. */
static Bool note_unwritten(CpShadowMap* m, CpSlot* slot, ULong cleared, ULong bytes, Bool clean)
{
   CpChunk* ch = CP_SLOT_CHUNK(*slot);
   if (ch->free_est > -(1 << 30)) ch->free_est -= (Int)cleared;
   if (clean) ch->free_snap = ch->writes;
   if (ch->freed < (1u << 30)) ch->freed += (UInt)bytes;
   if (ch->free_est > 0) return False;
   if (!clean && ch->freed < ch->free_gap) return False;
   ch->freed = 0;
   ULong live = slot_written_bytes(m, *slot);
   if (live == 0) {
      if (m->coarse) set_was_fine(m, slot, !CP_SLOT_IS_WIDE(*slot) && !CP_SLOT_IS_COARSE(*slot));
      release_chunk(m, *slot);
      *slot = CP_SLOT_UNIFORM(0);
      m->stats.made_uniform++;
      slow_event(m);
      return True;
   }
   ch->free_est = (Int)live;
   ch->free_snap = ch->writes;
   if (ch->free_gap < CP_CHUNK_SIZE) ch->free_gap *= 2;
   return False;
}

CpSlot cp_shadow_materialise(CpShadowMap* m, CpSlot* slot)
{
   CpSlot s = *slot;
   if (!CP_SLOT_IS_UNIFORM(s)) return s;
   Addr cn = direct_cn(m, slot);
   if (cn < CP_PRIMARY_SIZE) mark_used(m, cn);
   CpWriter w = CP_SLOT_WRITER(s);
   if (m->compact) {
      Bool coarse = m->coarse
                    && !(cn < CP_PRIMARY_SIZE && ((m->was_fine[cn >> 3] >> (cn & 7)) & 1));
      CpNChunk* ch = alloc_chunk(m, coarse ? POOL_COARSE : POOL_FINE);
      UInt n = coarse ? m->entries >> CP_COARSE_LOG2 : m->entries;
      CP_MEMSET(ch->b, 0, n + CP_NCHUNK_TAIL);
      CP_MEMSET(ch->hint, 0, sizeof(ch->hint));
      ch->pal[0] = w;
      ch->npal = 1;
      ch->last_w = w;
      ch->last_i = 0;
      ch->writes = 0;
      ch->check_at = n / 2;
      free_track_init(m, (CpChunk*)ch, w);
      *slot = CP_SLOT_PTR(ch, coarse ? 4 : 0);
   } else {
      CpChunk* ch = alloc_chunk(m, POOL_WIDE);
      for (UInt i = 0; i < m->entries; i++) ch->e[i] = w;
      ch->writes = 0;
      ch->check_at = m->entries / 2;
      free_track_init(m, ch, w);
      *slot = CP_SLOT_PTR(ch, 2);
   }
   m->stats.materialised++;
   slow_event(m);
   return *slot;
}

/* The compact chunk of *slot becomes a wide one with the same writers. */
static void widen(CpShadowMap* m, CpSlot* slot)
{
   CpNChunk* nc = CP_SLOT_NCHUNK(*slot);
   CpChunk* ch = alloc_chunk(m, POOL_WIDE);
   UInt sh = CP_SLOT_IS_COARSE(*slot) ? CP_COARSE_LOG2 : 0;
   for (UInt i = 0; i < m->entries; i++) ch->e[i] = nc->pal[nc->b[i >> sh]];
   ch->writes = nc->writes << sh;
   ch->check_at = nc->check_at << sh;
   free_track_move(ch, (const CpChunk*)nc);
   release_chunk(m, *slot);
   *slot = CP_SLOT_PTR(ch, 2);
   m->stats.widened++;
}

/* The header, hints and palette of the compact chunk src into dst, made by
   alloc_chunk with a palette of at least src's (which it keeps). */
static void copy_header(CpNChunk* dst, const CpNChunk* src)
{
   CpWriter* pal = dst->pal;
   CP_MEMCPY(dst, src, sizeof(CpNChunk));
   dst->pal = pal;
   CP_MEMCPY(pal, src->pal, src->npal * sizeof(CpWriter));
}

/* The coarse chunk of *slot becomes a fine one with the same writers. */
static void refine(CpShadowMap* m, CpSlot* slot)
{
   CpNChunk* cc = CP_SLOT_NCHUNK(*slot);
   CpNChunk* ch = alloc_chunk(m, cp_nchunk_palcap(cc) == CP_PAL_SIZE ? POOL_FINE_BIG : POOL_FINE);
   copy_header(ch, cc);
   for (UInt j = 0; j < (m->entries >> CP_COARSE_LOG2); j++) {
      UInt v = cc->b[j] * 0x01010101u;            /* a word's index to its 4 bytes */
      __builtin_memcpy(ch->b + (j << CP_COARSE_LOG2), &v, sizeof(v));
   }
   CP_MEMSET(ch->b + m->entries, 0, CP_NCHUNK_TAIL);
   ch->writes = cc->writes << CP_COARSE_LOG2;
   ch->check_at = cc->check_at << CP_COARSE_LOG2;
   free_track_move((CpChunk*)ch, (const CpChunk*)cc);
   release_chunk(m, *slot);
   *slot = CP_SLOT_PTR(ch, 0);
   m->stats.refined++;
}

/* Give palette index x to bytes [off, off+n) of the coarse chunk ch, if
   that keeps it coarse: the words they cover partly must have x already.
   False (nothing changed) if the chunk must turn fine first. */
static Bool coarse_fill(CpNChunk* ch, UInt off, UInt n, UInt x)
{
   UInt c0 = off >> CP_COARSE_LOG2, c1 = (off + n - 1) >> CP_COARSE_LOG2;
   UInt mask = (1u << CP_COARSE_LOG2) - 1;
   if ((off & mask) != 0 && ch->b[c0] != x) return False;
   if (((off + n) & mask) != 0 && ch->b[c1] != x) return False;
   CP_MEMSET(ch->b + c0, (Int)x, c1 - c0 + 1);
   ch->writes += c1 - c0 + 1;
   return True;
}

void cp_shadow_store_coarse_partial(CpShadowMap* m, CpSlot* slot, Addr a, SizeT len,
                                    CpWriter w, UInt x)
{
   UInt off = (UInt)(a & (CP_CHUNK_SIZE - 1));
   if (coarse_fill(CP_SLOT_NCHUNK(*slot), off, (UInt)len, x)) {
      if (off >> CP_COARSE_LOG2 == 0
          || ((off + len - 1) >> CP_COARSE_LOG2) + 1 == (m->entries >> CP_COARSE_LOG2))
         cp_shadow_check_uniform(m, slot);
      return;
   }
   refine(m, slot);
   cp_shadow_store(m, a, len, w);
}

/* Drop the palette entries of ch (n entries) that no block refers to;
   False (and nothing changed) if that would free less than a quarter of the
   palette. */
static Bool compact_palette(CpShadowMap* m, CpNChunk* ch, UInt nent)
{
   UChar used[CP_PAL_SIZE];
   CP_MEMSET(used, 0, sizeof(used));
   for (UInt i = 0; i < nent; i++) used[ch->b[i]] = 1;
   UInt n = 0;
   for (UInt k = 0; k < ch->npal; k++) n += used[k];
   if (n > CP_PAL_SIZE - CP_PAL_SIZE / 4) return False;
   UChar remap[CP_PAL_SIZE];
   UInt j = 0;
   for (UInt k = 0; k < ch->npal; k++)
      if (used[k]) {
         remap[k] = (UChar)j;
         ch->pal[j++] = ch->pal[k];
      }
   ch->npal = j;
   for (UInt i = 0; i < nent; i++) ch->b[i] = remap[ch->b[i]];
   CP_MEMSET(ch->hint, 0, sizeof(ch->hint));
   ch->last_w = ch->pal[0];
   ch->last_i = 0;
   m->stats.compacted++;
   return True;
}

/* The compact chunk of *slot, whose small palette is full, moves to a
   block with a palette of CP_PAL_SIZE; returns it. */
static CpNChunk* grow_palette(CpShadowMap* m, CpSlot* slot)
{
   CpNChunk* old = CP_SLOT_NCHUNK(*slot);
   Bool coarse = CP_SLOT_IS_COARSE(*slot) != 0;
   CpNChunk* ch = alloc_chunk(m, coarse ? POOL_COARSE_BIG : POOL_FINE_BIG);
   copy_header(ch, old);
   CP_MEMCPY(ch->b, old->b, compact_entries(m, *slot) + CP_NCHUNK_TAIL);
   CpSlot flags = *slot & 7;
   release_chunk(m, *slot);
   *slot = (CpSlot)ch | flags;
   m->stats.palettes_grown++;
   return ch;
}

UInt cp_shadow_pal_index(CpShadowMap* m, CpSlot* slot, CpWriter w)
{
   CpNChunk* ch = CP_SLOT_NCHUNK(*slot);
   UInt h = w & (CP_PAL_HINTS - 1);
   UInt k = ch->hint[h];
   if (k >= ch->npal || ch->pal[k] != w) {
      for (k = 0; k < ch->npal && ch->pal[k] != w; k++) ;
      if (k == ch->npal) {
         if (ch->npal == cp_nchunk_palcap(ch)) {
            if (ch->npal < CP_PAL_SIZE) {
               ch = grow_palette(m, slot);
            } else if (!compact_palette(m, ch, compact_entries(m, *slot))) {
               widen(m, slot);
               return CP_PAL_SIZE;
            }
         }
         k = ch->npal++;
         ch->pal[k] = w;
      }
      ch->hint[h] = (UChar)k;
   }
   ch->last_w = w;
   ch->last_i = k;
   return k;
}

/* The writer every block of the materialised chunk s has, if there is one. */
static Bool chunk_uniform(CpShadowMap* m, CpSlot s, CpWriter* w)
{
   if (CP_SLOT_IS_WIDE(s)) {
      const CpChunk* ch = CP_SLOT_CHUNK(s);
      if (!cp_shadow_same_entries(ch->e, m->entries, ch->e[0])) return False;
      *w = ch->e[0];
   } else {
      const CpNChunk* ch = CP_SLOT_NCHUNK(s);
      if (!cp_shadow_same_bytes(ch->b, compact_entries(m, s))) return False;
      *w = ch->pal[ch->b[0]];
   }
   return True;
}

void cp_shadow_check_uniform(CpShadowMap* m, CpSlot* slot)
{
   CpChunk* ch = CP_SLOT_CHUNK(*slot);       /* writes and check_at: same place in both kinds */
   if (ch->writes < ch->check_at) return;
   ch->free_snap = ch->free_snap == ch->writes ? 0 : (UInt)-1;   /* still exact if it was */
   ch->writes = 0;
   CpWriter w;
   if (chunk_uniform(m, *slot, &w)) {
      if (m->coarse) set_was_fine(m, slot, False);
      release_chunk(m, *slot);
      *slot = CP_SLOT_UNIFORM(w);
      m->stats.made_uniform++;
   } else if (ch->check_at < (1u << 30)) {
      ch->check_at *= 2;          /* a chunk of several writers: check less often */
   }
   slow_event(m);               /* made uniform or not: it has taken many writes */
}

void cp_shadow_init(CpShadowMap* m, UInt gran_log2, Bool compact)
{
   CP_ASSERT(gran_log2 <= 4);
   m->gran_log2 = gran_log2;
   m->entries = (UInt)(CP_CHUNK_SIZE >> gran_log2);
   m->compact = compact;
   m->chunk_bytes = sizeof(CpChunk) + (SizeT)m->entries * sizeof(UInt);
   m->nchunk_bytes = sizeof(CpNChunk) + (SizeT)m->entries + CP_NCHUNK_TAIL;
   m->coarse = compact && gran_log2 == 0;
   m->cchunk_bytes = sizeof(CpNChunk) + (SizeT)(m->entries >> CP_COARSE_LOG2) + CP_NCHUNK_TAIL;
   /* zeroed memory: every slot is CP_SLOT_UNIFORM(0) already */
   CP_ASSERT(m->primary[0] == CP_SLOT_UNIFORM(0) && m->primary[CP_PRIMARY_SIZE - 1] == CP_SLOT_UNIFORM(0));
   m->high_tab = NULL;
   m->high_cap = m->high_used = 0;
   for (UInt k = 0; k < CP_SHADOW_POOLS; k++) {
      m->pool[k] = NULL;
      m->pool_n[k] = 0;
   }
   m->pool_bytes = 0;
   m->checkpoints = False;
   m->slow_events = 0;
   m->sample_events = CP_SAMPLE_EVENTS;
   CP_MEMSET(&m->stats, 0, sizeof(m->stats));
}

void cp_shadow_reset(CpShadowMap* m)
{
   CpSlot* s;
   for (Addr i = 0; (s = next_written_slot(m, &i)) != NULL; i++) {
      if (!CP_SLOT_IS_UNIFORM(*s)) release_chunk(m, *s);
      *s = CP_SLOT_UNIFORM(0);
   }
   for (SizeT i = 0; i < m->high_cap; i++)
      if (m->high_tab[i].cn != HIGH_EMPTY) {
         if (!CP_SLOT_IS_UNIFORM(*m->high_tab[i].cell)) release_chunk(m, *m->high_tab[i].cell);
         CP_FREE(m->high_tab[i].cell);
         m->high_tab[i].cn = HIGH_EMPTY;
      }
   m->high_used = 0;
   m->stats.high_chunks_live = 0;
}

/* ---- range operations ---- */

void cp_shadow_set_range(CpShadowMap* m, Addr a, SizeT len, CpWriter w)
{
   if (len == 0) return;
   UInt  g     = m->gran_log2;
   Addr  first = a >> g;                         /* first block */
   Addr  last  = (a + len - 1) >> g;             /* last block (inclusive) */
   if (a + len - 1 < a) last = ((Addr)-1) >> g;  /* wrapped: clamp to the top */
   Addr  bpc   = (Addr)m->entries;        /* blocks per chunk */
   Addr  b = first;
   for (;;) {
      Addr cn     = b / bpc;
      Addr off    = b % bpc;
      Addr end_b  = (cn + 1) * bpc - 1;          /* last block of this chunk */
      if (end_b > last) end_b = last;
      UInt n = (UInt)(end_b - b + 1);
      CpSlot s = cn < CP_PRIMARY_SIZE ? m->primary[cn] : cp_shadow_high_slot(m, cn);
      if (s == CP_SLOT_UNIFORM(w)) {
         /* nothing changes */
      } else if (off == 0 && n == bpc) {
         CpSlot* slot = slot_for_write(m, cn);
         if (!CP_SLOT_IS_UNIFORM(*slot)) release_chunk(m, *slot);
         *slot = CP_SLOT_UNIFORM(w);
         maybe_drop_high(m, cn);
         slow_event(m);
      } else {
         CpSlot* slot = slot_for_write(m, cn);
         CpSlot  cs = cp_shadow_materialise(m, slot);
         UInt    x = CP_PAL_SIZE;
         if (!CP_SLOT_IS_WIDE(cs)) {
            x = cp_shadow_pal_index(m, slot, w);
            cs = *slot;
         }
         ULong cleared = 0;
         Bool  clean = False;
         if (w == 0) {
            cleared = range_written_bytes(m, cs, (UInt)off, n, x);
            clean = CP_SLOT_CHUNK(cs)->writes == CP_SLOT_CHUNK(cs)->free_snap;
         }
         if (x < CP_PAL_SIZE && CP_SLOT_IS_COARSE(cs)
             && coarse_fill(CP_SLOT_NCHUNK(cs), (UInt)off, n, x)) {
            /* done, the chunk stays coarse (its writes counted) */
         } else {
            if (x < CP_PAL_SIZE && CP_SLOT_IS_COARSE(cs)) {
               refine(m, slot);
               cs = *slot;
            }
            if (x < CP_PAL_SIZE) {
               CP_MEMSET(CP_SLOT_NCHUNK(cs)->b + off, (Int)x, n);
            } else {
               UInt* e = CP_SLOT_CHUNK(cs)->e + off;
               for (UInt i = 0; i < n; i++) e[i] = w;
            }
            CP_SLOT_CHUNK(cs)->writes += n;
         }
         if (w != 0 || !note_unwritten(m, slot, cleared, (ULong)n << g, clean))
            cp_shadow_check_uniform(m, slot);
         maybe_drop_high(m, cn);
      }
      if (end_b == last) break;
      b = end_b + 1;
   }
}

void cp_shadow_copy_range(CpShadowMap* m, Addr dst, Addr src, SizeT len)
{
   if (len == 0 || dst == src) return;
   UInt  g       = m->gran_log2;
   Addr  top_blk = ((Addr)-1) >> g;
   Addr  sb      = src >> g, db = dst >> g;
   Addr  s_last  = src + len - 1 < src ? top_blk : (src + len - 1) >> g;
   SizeT nblk    = (SizeT)(s_last - sb + 1);             /* clamped at the top for src */
   if (nblk - 1 > top_blk - db) nblk = (SizeT)(top_blk - db) + 1;   /* and for dst */
   /* Copy block by block, in the direction that is safe for overlap; runs of
      one producer are written with set_range. */
   if (db < sb) {
      SizeT i = 0;
      while (i < nblk) {
         CpWriter w = cp_shadow_get(m, (sb + i) << g);
         SizeT j = i + 1;
         while (j < nblk && cp_shadow_get(m, (sb + j) << g) == w) j++;
         cp_shadow_set_range(m, (db + i) << g, (j - i) << g, w);
         i = j;
      }
   } else {
      SizeT i = nblk;
      while (i > 0) {
         CpWriter w = cp_shadow_get(m, (sb + i - 1) << g);
         SizeT j = i - 1;
         while (j > 0 && cp_shadow_get(m, (sb + j - 1) << g) == w) j--;
         cp_shadow_set_range(m, (db + j) << g, (i - j) << g, w);
         i = j;
      }
   }
}

void cp_shadow_get_stats(CpShadowMap* m, CpShadowStats* st)
{
   *st = m->stats;
}

SizeT cp_shadow_count_range(CpShadowMap* m, Addr a, SizeT len,
                            Bool (*pred)(CpWriter w, void* arg), void* arg)
{
   SizeT n = 0;
   Addr end = a + len;
   if (end < a) end = (Addr)-1;            /* clamp at the top */
   Addr x = a;
   while (x < end) {
      Addr chunk_end = (x | (CP_CHUNK_SIZE - 1)) + 1;
      Addr stop = (chunk_end == 0 || chunk_end > end) ? end : chunk_end;
      CpSlot s = cp_shadow_slot(m, x);
      if (CP_SLOT_IS_UNIFORM(s)) {
         if (pred(CP_SLOT_WRITER(s), arg)) n += stop - x;
         x = stop;
         continue;
      }
      UInt g = m->gran_log2;
      while (x < stop) {
         Addr blk_end = ((x >> g) + 1) << g;
         Addr y = (blk_end == 0 || blk_end > stop) ? stop : blk_end;
         if (pred(cp_shadow_chunk_get(s, cp_shadow_index(m, x)), arg)) n += y - x;
         x = y;
      }
   }
   return n;
}


ULong cp_shadow_written_bytes(CpShadowMap* m)
{
   ULong n = 0;
   CpSlot* s;
   for (Addr i = 0; (s = next_written_slot(m, &i)) != NULL; i++) n += slot_written_bytes(m, *s);
   for (SizeT i = 0; i < m->high_cap; i++)
      if (m->high_tab[i].cn != HIGH_EMPTY) n += slot_written_bytes(m, *m->high_tab[i].cell);
   return n;
}

static void checkpoint(CpShadowMap* m)
{
   m->stats.ckpt_chunks = m->stats.chunks_live;
   m->stats.ckpt_shadow_bytes = m->stats.bytes_live + cp_shadow_table_bytes(&m->stats);
   m->stats.ckpt_written_bytes = cp_shadow_sample_written(m);
}

ULong cp_shadow_sample_written(CpShadowMap* m)
{
   ULong n = cp_shadow_written_bytes(m);
   if (n > m->stats.written_peak) m->stats.written_peak = n;
   m->stats.written_samples++;
   m->slow_events = 0;
   return n;
}
