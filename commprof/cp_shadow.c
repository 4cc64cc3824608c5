/* commprof: the shadow map of last writers (see cp_shadow.h). */

#include "cp_shadow.h"

CpSlot cp_shadow_primary[CP_PRIMARY_SIZE];
UInt   cp_shadow_gran_log2;
UInt   cp_shadow_entries;

static SizeT chunk_bytes;            /* sizeof(CpChunk) + entries */
static CpShadowStats stats;

/* Released chunks kept for reuse, to spare the system calls. */
#define POOL_MAX 32
static CpChunk* pool[POOL_MAX];
static UInt     pool_n;

/* ---- chunks above the direct range: open-addressing hash table ---- */

typedef struct { Addr cn; CpSlot* cell; } HighSlot;
#define HIGH_EMPTY ((Addr)-1)

static HighSlot* high_tab;
static SizeT     high_cap;           /* power of two, 0 before first use */
static SizeT     high_used;

static inline SizeT high_hash(Addr cn)
{
   ULong h = (ULong)cn * 0x9E3779B97F4A7C15ULL;
   return (SizeT)(h >> 32);
}

static HighSlot* high_find(Addr cn)
{
   if (high_cap == 0) return NULL;
   SizeT i = high_hash(cn) & (high_cap - 1);
   while (high_tab[i].cn != HIGH_EMPTY) {
      if (high_tab[i].cn == cn) return &high_tab[i];
      i = (i + 1) & (high_cap - 1);
   }
   return NULL;
}

static void high_insert_nogrow(Addr cn, CpSlot* cell)
{
   SizeT i = high_hash(cn) & (high_cap - 1);
   while (high_tab[i].cn != HIGH_EMPTY) i = (i + 1) & (high_cap - 1);
   high_tab[i].cn = cn;
   high_tab[i].cell = cell;
}

static void high_insert(Addr cn, CpSlot* cell)
{
   if ((high_used + 1) * 2 > high_cap) {
      SizeT     old_cap = high_cap;
      HighSlot* old = high_tab;
      high_cap = old_cap ? old_cap * 2 : 64;
      high_tab = CP_MALLOC("cp.shadow.high", high_cap * sizeof(HighSlot));
      for (SizeT i = 0; i < high_cap; i++) high_tab[i].cn = HIGH_EMPTY;
      for (SizeT i = 0; i < old_cap; i++)
         if (old[i].cn != HIGH_EMPTY) high_insert_nogrow(old[i].cn, old[i].cell);
      if (old) CP_FREE(old);
   }
   high_insert_nogrow(cn, cell);
   high_used++;
}

/* Remove by backward-shift deletion, keeping probe sequences intact. */
static void high_remove(HighSlot* s)
{
   SizeT i = (SizeT)(s - high_tab);
   SizeT j = i;
   CP_FREE(high_tab[i].cell);
   high_tab[i].cn = HIGH_EMPTY;
   for (;;) {
      j = (j + 1) & (high_cap - 1);
      if (high_tab[j].cn == HIGH_EMPTY) break;
      SizeT k = high_hash(high_tab[j].cn) & (high_cap - 1);
      /* move j back to i if k is cyclically outside (i, j] */
      Bool move = (i <= j) ? (k <= i || k > j) : (k <= i && k > j);
      if (move) {
         high_tab[i] = high_tab[j];
         high_tab[j].cn = HIGH_EMPTY;
         i = j;
      }
   }
   high_used--;
}

CpSlot cp_shadow_high_slot(Addr cn)
{
   HighSlot* s = high_find(cn);
   return s ? *s->cell : CP_SLOT_UNIFORM(0);
}

CpSlot* cp_shadow_high_slot_for_write(Addr cn)
{
   HighSlot* s = high_find(cn);
   if (s) return s->cell;
   CpSlot* cell = CP_MALLOC("cp.shadow.highcell", sizeof(CpSlot));
   *cell = CP_SLOT_UNIFORM(0);
   high_insert(cn, cell);
   stats.high_chunks_live++;
   return cell;
}

/* The slot of chunk cn, for writing. */
static CpSlot* slot_for_write(Addr cn)
{
   return cn < CP_PRIMARY_SIZE ? &cp_shadow_primary[cn] : cp_shadow_high_slot_for_write(cn);
}

/* A high slot that became uniform 0 is dropped from the table. */
static void maybe_drop_high(Addr cn)
{
   if (cn < CP_PRIMARY_SIZE) return;
   HighSlot* s = high_find(cn);
   if (s && *s->cell == CP_SLOT_UNIFORM(0)) {
      high_remove(s);
      stats.high_chunks_live--;
   }
}

/* ---- chunk allocation ---- */

static CpChunk* alloc_chunk(void)
{
   CpChunk* ch = pool_n ? pool[--pool_n] : CP_BIG_ALLOC(chunk_bytes);
   stats.chunks_live++;
   stats.bytes_live += chunk_bytes;
   if (stats.chunks_live > stats.chunks_peak) stats.chunks_peak = stats.chunks_live;
   if (stats.bytes_live > stats.bytes_peak)   stats.bytes_peak = stats.bytes_live;
   return ch;
}

static void release_chunk(CpChunk* ch)
{
   if (pool_n < POOL_MAX) pool[pool_n++] = ch;
   else CP_BIG_FREE(ch, chunk_bytes);
   stats.chunks_live--;
   stats.bytes_live -= chunk_bytes;
}

CpChunk* cp_shadow_materialise(CpSlot* slot)
{
   CpSlot s = *slot;
   if (!CP_SLOT_IS_UNIFORM(s)) return CP_SLOT_CHUNK(s);
   CpWriter w = CP_SLOT_WRITER(s);
   CpChunk* ch = alloc_chunk();
   for (UInt i = 0; i < cp_shadow_entries; i++) ch->e[i] = w;
   ch->writes = 0;
   *slot = (CpSlot)ch;
   stats.materialised++;
   return ch;
}

void cp_shadow_check_uniform(CpSlot* slot)
{
   CpChunk* ch = CP_SLOT_CHUNK(*slot);
   if (ch->writes < cp_shadow_entries / 2) return;
   ch->writes = 0;
   UInt w = ch->e[0];
   UInt diff = 0;
   for (UInt i = 1; i < cp_shadow_entries; i++) diff |= ch->e[i] ^ w;
   if (diff == 0) {
      *slot = CP_SLOT_UNIFORM(w);
      release_chunk(ch);
      stats.made_uniform++;
   }
}

void cp_shadow_init(UInt gran_log2)
{
   CP_ASSERT(gran_log2 <= 3);
   cp_shadow_gran_log2 = gran_log2;
   cp_shadow_entries = (UInt)(CP_CHUNK_SIZE >> gran_log2);
   chunk_bytes = sizeof(CpChunk) + (SizeT)cp_shadow_entries * sizeof(UInt);
   for (Addr i = 0; i < CP_PRIMARY_SIZE; i++)
      cp_shadow_primary[i] = CP_SLOT_UNIFORM(0);
   high_tab = NULL;
   high_cap = high_used = 0;
   pool_n = 0;
   CP_MEMSET(&stats, 0, sizeof(stats));
}

void cp_shadow_reset(void)
{
   for (Addr i = 0; i < CP_PRIMARY_SIZE; i++) {
      if (!CP_SLOT_IS_UNIFORM(cp_shadow_primary[i]))
         release_chunk(CP_SLOT_CHUNK(cp_shadow_primary[i]));
      cp_shadow_primary[i] = CP_SLOT_UNIFORM(0);
   }
   for (SizeT i = 0; i < high_cap; i++)
      if (high_tab[i].cn != HIGH_EMPTY) {
         if (!CP_SLOT_IS_UNIFORM(*high_tab[i].cell))
            release_chunk(CP_SLOT_CHUNK(*high_tab[i].cell));
         CP_FREE(high_tab[i].cell);
         high_tab[i].cn = HIGH_EMPTY;
      }
   high_used = 0;
   stats.high_chunks_live = 0;
}

/* ---- range operations ---- */

void cp_shadow_set_range(Addr a, SizeT len, CpWriter w)
{
   if (len == 0) return;
   UInt  g     = cp_shadow_gran_log2;
   Addr  first = a >> g;                         /* first block */
   Addr  last  = (a + len - 1) >> g;             /* last block (inclusive) */
   if (a + len - 1 < a) last = ((Addr)-1) >> g;  /* wrapped: clamp to the top */
   Addr  bpc   = (Addr)cp_shadow_entries;        /* blocks per chunk */
   Addr  b = first;
   for (;;) {
      Addr cn     = b / bpc;
      Addr off    = b % bpc;
      Addr end_b  = (cn + 1) * bpc - 1;          /* last block of this chunk */
      if (end_b > last) end_b = last;
      UInt n = (UInt)(end_b - b + 1);
      CpSlot s = cn < CP_PRIMARY_SIZE ? cp_shadow_primary[cn] : cp_shadow_high_slot(cn);
      if (s == CP_SLOT_UNIFORM(w)) {
         /* nothing changes */
      } else if (off == 0 && n == bpc) {
         CpSlot* slot = slot_for_write(cn);
         if (!CP_SLOT_IS_UNIFORM(*slot)) release_chunk(CP_SLOT_CHUNK(*slot));
         *slot = CP_SLOT_UNIFORM(w);
         maybe_drop_high(cn);
      } else {
         CpSlot* slot = slot_for_write(cn);
         CpChunk* ch = cp_shadow_materialise(slot);
         for (UInt i = 0; i < n; i++) ch->e[off + i] = w;
         ch->writes += n;
         cp_shadow_check_uniform(slot);
         maybe_drop_high(cn);
      }
      if (end_b == last) break;
      b = end_b + 1;
   }
}

void cp_shadow_copy_range(Addr dst, Addr src, SizeT len)
{
   if (len == 0 || dst == src) return;
   UInt  g    = cp_shadow_gran_log2;
   SizeT nblk = (SizeT)(((src + len - 1) >> g) - (src >> g) + 1);
   Addr  sb   = src >> g, db = dst >> g;
   /* Copy block by block, in the direction that is safe for overlap; runs of
      one producer are written with set_range. */
   if (db < sb) {
      SizeT i = 0;
      while (i < nblk) {
         CpWriter w = cp_shadow_get((sb + i) << g);
         SizeT j = i + 1;
         while (j < nblk && cp_shadow_get((sb + j) << g) == w) j++;
         cp_shadow_set_range((db + i) << g, (j - i) << g, w);
         i = j;
      }
   } else {
      SizeT i = nblk;
      while (i > 0) {
         CpWriter w = cp_shadow_get((sb + i - 1) << g);
         SizeT j = i - 1;
         while (j > 0 && cp_shadow_get((sb + j - 1) << g) == w) j--;
         cp_shadow_set_range((db + j) << g, (i - j) << g, w);
         i = j;
      }
   }
}

void cp_shadow_get_stats(CpShadowStats* st)
{
   *st = stats;
}
