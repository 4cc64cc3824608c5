/* commprof: the shadow map of last writers (see cp_shadow.h). */

#include "cp_shadow.h"

UInt*  cp_shadow_primary[CP_PRIMARY_SIZE];
UInt*  cp_shadow_zero_chunk;
UInt   cp_shadow_gran_log2;

static SizeT chunk_entries;          /* entries per chunk */
static SizeT chunk_bytes;            /* shadow bytes per chunk */
static CpShadowStats stats;

/* ---- chunks above the direct range: open-addressing hash table ---- */

typedef struct { Addr cn; UInt* chunk; } HighSlot;
#define HIGH_EMPTY ((Addr)-1)

static HighSlot* high_tab;
static SizeT     high_cap;           /* power of two, 0 before first use */
static SizeT     high_used;
static Addr      high_last_cn = HIGH_EMPTY;   /* one-entry lookup cache */
static UInt*     high_last_chunk;

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

static void high_insert_nogrow(Addr cn, UInt* chunk)
{
   SizeT i = high_hash(cn) & (high_cap - 1);
   while (high_tab[i].cn != HIGH_EMPTY) i = (i + 1) & (high_cap - 1);
   high_tab[i].cn = cn;
   high_tab[i].chunk = chunk;
}

static void high_insert(Addr cn, UInt* chunk)
{
   if ((high_used + 1) * 2 > high_cap) {
      SizeT     old_cap = high_cap;
      HighSlot* old = high_tab;
      high_cap = old_cap ? old_cap * 2 : 64;
      high_tab = CP_MALLOC("cp.shadow.high", high_cap * sizeof(HighSlot));
      for (SizeT i = 0; i < high_cap; i++) high_tab[i].cn = HIGH_EMPTY;
      for (SizeT i = 0; i < old_cap; i++)
         if (old[i].cn != HIGH_EMPTY) high_insert_nogrow(old[i].cn, old[i].chunk);
      if (old) CP_FREE(old);
   }
   high_insert_nogrow(cn, chunk);
   high_used++;
}

/* Remove by backward-shift deletion, keeping probe sequences intact. */
static void high_remove(HighSlot* s)
{
   SizeT i = (SizeT)(s - high_tab);
   SizeT j = i;
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
   high_last_cn = HIGH_EMPTY;
}

UInt* cp_shadow_high_chunk_rd(Addr cn)
{
   if (cn == high_last_cn) return high_last_chunk;
   HighSlot* s = high_find(cn);
   UInt* ch = s ? s->chunk : cp_shadow_zero_chunk;
   high_last_cn = cn;
   high_last_chunk = ch;
   return ch;
}

/* ---- chunk allocation ---- */

static UInt* new_chunk(void)
{
   UInt* ch = CP_BIG_ALLOC(chunk_bytes);       /* zeroed */
   stats.chunks_live++;
   stats.bytes_live += chunk_bytes;
   if (stats.chunks_live > stats.chunks_peak) stats.chunks_peak = stats.chunks_live;
   if (stats.bytes_live > stats.bytes_peak)   stats.bytes_peak = stats.bytes_live;
   return ch;
}

static void drop_chunk(UInt* ch)
{
   CP_BIG_FREE(ch, chunk_bytes);
   stats.chunks_live--;
   stats.bytes_live -= chunk_bytes;
}

UInt* cp_shadow_chunk_for_write(Addr cn)
{
   if (cn < CP_PRIMARY_SIZE) {
      UInt* ch = cp_shadow_primary[cn];
      if (ch == cp_shadow_zero_chunk) {
         ch = new_chunk();
         cp_shadow_primary[cn] = ch;
      }
      return ch;
   }
   HighSlot* s = high_find(cn);
   if (s) return s->chunk;
   UInt* ch = new_chunk();
   high_insert(cn, ch);
   stats.high_chunks_live++;
   high_last_cn = cn;
   high_last_chunk = ch;
   return ch;
}

/* Forget chunk cn entirely: it reads as unwritten again. */
static void forget_chunk(Addr cn)
{
   if (cn < CP_PRIMARY_SIZE) {
      UInt* ch = cp_shadow_primary[cn];
      if (ch != cp_shadow_zero_chunk) {
         drop_chunk(ch);
         cp_shadow_primary[cn] = cp_shadow_zero_chunk;
      }
      return;
   }
   HighSlot* s = high_find(cn);
   if (s) {
      drop_chunk(s->chunk);
      high_remove(s);
      stats.high_chunks_live--;
   }
}

void cp_shadow_init(UInt gran_log2)
{
   CP_ASSERT(gran_log2 <= 3);
   cp_shadow_gran_log2 = gran_log2;
   chunk_entries = CP_CHUNK_SIZE >> gran_log2;
   chunk_bytes   = chunk_entries * sizeof(UInt);
   cp_shadow_zero_chunk = CP_BIG_ALLOC(chunk_bytes);
   for (Addr i = 0; i < CP_PRIMARY_SIZE; i++)
      cp_shadow_primary[i] = cp_shadow_zero_chunk;
   high_tab = NULL;
   high_cap = high_used = 0;
   high_last_cn = HIGH_EMPTY;
   CP_MEMSET(&stats, 0, sizeof(stats));
}

void cp_shadow_reset(void)
{
   for (Addr i = 0; i < CP_PRIMARY_SIZE; i++)
      if (cp_shadow_primary[i] != cp_shadow_zero_chunk) {
         drop_chunk(cp_shadow_primary[i]);
         cp_shadow_primary[i] = cp_shadow_zero_chunk;
      }
   for (SizeT i = 0; i < high_cap; i++)
      if (high_tab[i].cn != HIGH_EMPTY) {
         drop_chunk(high_tab[i].chunk);
         high_tab[i].cn = HIGH_EMPTY;
      }
   high_used = 0;
   stats.high_chunks_live = 0;
   high_last_cn = HIGH_EMPTY;
}

/* ---- range operations ---- */

void cp_shadow_set_range(Addr a, SizeT len, CpWriter w)
{
   if (len == 0) return;
   UInt  g     = cp_shadow_gran_log2;
   Addr  first = a >> g;                         /* first block */
   Addr  last  = (a + len - 1) >> g;             /* last block (inclusive) */
   if (last < first) last = ((Addr)-1) >> g;     /* wrapped: clamp to the top */
   Addr  bpc   = (Addr)chunk_entries;            /* blocks per chunk */
   Addr  b = first;
   for (;;) {
      Addr cn     = b / bpc;
      Addr off    = b % bpc;
      Addr end_b  = (cn + 1) * bpc - 1;          /* last block of this chunk */
      if (end_b > last) end_b = last;
      SizeT n = (SizeT)(end_b - b + 1);
      if (w == 0 && off == 0 && n == bpc) {
         forget_chunk(cn);
      } else if (w == 0 && cp_shadow_rd_ptr(cn << CP_CHUNK_BITS) == cp_shadow_zero_chunk) {
         /* already unwritten */
      } else {
         UInt* ch = cp_shadow_chunk_for_write(cn);
         UInt* e  = ch + off;
         for (SizeT i = 0; i < n; i++) e[i] = w;
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
   /* Copy block by block in the direction that is safe for overlap. */
   if (db < sb) {
      for (SizeT i = 0; i < nblk; i++) {
         CpWriter w = *cp_shadow_rd_ptr((sb + i) << g);
         UInt* d = (w == 0 && *cp_shadow_rd_ptr((db + i) << g) == 0)
                   ? NULL : cp_shadow_wr_ptr((db + i) << g);
         if (d) *d = w;
      }
   } else {
      for (SizeT i = nblk; i-- > 0; ) {
         CpWriter w = *cp_shadow_rd_ptr((sb + i) << g);
         UInt* d = (w == 0 && *cp_shadow_rd_ptr((db + i) << g) == 0)
                   ? NULL : cp_shadow_wr_ptr((db + i) << g);
         if (d) *d = w;
      }
   }
}

void cp_shadow_get_stats(CpShadowStats* st)
{
   *st = stats;
}
