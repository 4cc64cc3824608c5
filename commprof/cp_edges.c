/* commprof: edge tables and exact address sets (see cp_edges.h). */

#include "cp_edges.h"

#define NO_PAGE ((Addr)-1)

/* ---------------- address sets ---------------- */

const ULong cp_addrset_full_bits[CP_PAGE_WORDS] = { [0 ... CP_PAGE_WORDS - 1] = ~0ULL };
CpAddrSetStats cp_addrset_stats;

static ULong* bitmap_new(CpAddrSet* s)
{
   s->nbitmaps++;
   if (++cp_addrset_stats.bitmaps_live > cp_addrset_stats.bitmaps_peak)
      cp_addrset_stats.bitmaps_peak = cp_addrset_stats.bitmaps_live;
   return CP_CALLOC("cp.addrset.bits", CP_PAGE_WORDS * sizeof(ULong));
}

static void bitmap_free(ULong* bits)
{
   cp_addrset_stats.bitmaps_live--;
   CP_FREE(bits);
}

static inline Bool is_full_bits(const ULong* bits) { return bits == cp_addrset_full_bits; }

/* A sub that holds a bitmap of the set's own. */
static inline Bool is_own_bitmap(const ULong* sub)
{
   return sub != NULL && !cp_sub_is_run(sub) && !is_full_bits(sub);
}

/* Set bits [off, off + n) of bits (off + n <= CP_PAGE_ADDRS); returns how
   many were clear. */
static inline UInt set_bits(ULong* bits, UInt off, UInt n)
{
   UInt added = 0;
   while (n > 0) {
      UInt sh = off & 63;
      UInt take = 64 - sh;
      if (take > n) take = n;
      ULong mask = (take == 64 ? ~0ULL : ((1ULL << take) - 1)) << sh;
      ULong fresh = mask & ~bits[off >> 6];
      if (fresh) {
         bits[off >> 6] |= fresh;
         added += fresh == mask ? take : CP_POPCOUNT64(fresh);
      }
      off += take;
      n -= take;
   }
   return added;
}

/* The bitmap of a run. */
static ULong* bitmap_of_run(CpAddrSet* s, const ULong* run)
{
   ULong* bits = bitmap_new(s);
   set_bits(bits, cp_sub_run_start(run), cp_sub_run_len(run));
   return bits;
}

/* Add [off, off + n) to sub si of page as a run, if it is empty or a run;
   *added: how many addresses are new.  False, with nothing changed, if the
   sub is a bitmap already or must become one: the addresses are off the run
   (neither in it nor next to it), or this is its CP_RUN_ACCESSES-th access. */
static Bool run_add(CpBigPage* page, UInt si, UInt off, UInt n, UInt* added)
{
   const ULong* sub = page->sub[si];
   if (sub != NULL && !cp_sub_is_run(sub)) return False;
   if (sub == NULL) {
      page->sub[si] = cp_sub_run(off, n, 1);
      *added = n;
      return True;
   }
   UInt acc = cp_sub_run_accesses(sub) + 1;
   UInt rs = cp_sub_run_start(sub), re = rs + cp_sub_run_len(sub);
   if (acc >= CP_RUN_ACCESSES || off > re || off + n < rs) return False;
   UInt ns = off < rs ? off : rs, ne = off + n > re ? off + n : re;
   *added = (ne - ns) - (re - rs);
   page->sub[si] = cp_sub_run(ns, ne - ns, acc);
   return True;
}

void cp_addrset_sub_filled(CpAddrSet* s, CpBigPage* page, Addr a)
{
   UInt si = (UInt)((a >> CP_PAGE_BITS) & (CP_SUBS - 1));
   if (is_own_bitmap(page->sub[si])) {
      bitmap_free(page->sub[si]);
      s->nbitmaps--;
   }
   page->sub[si] = (ULong*)(Addr)cp_addrset_full_bits;   /* never written through */
   Addr bm = a >> CP_PAGE_BITS;
   CpBmCacheEnt* be = cp_addrset_bm_ent(s, bm);
   if (be->key == bm) be->bits = page->sub[si];
   s->nfull++;
   cp_addrset_stats.subs_filled++;
}

static inline UInt page_hash(Addr pn)
{
   return (UInt)(((ULong)pn * 0x9E3779B97F4A7C15ULL) >> 32);
}

void cp_addrset_init(CpAddrSet* s)
{
   for (UInt i = 0; i < (1u << CP_BMCACHE_BITS); i++) {
      s->bm[i].key = NO_PAGE;
      s->bm[i].bits = NULL;
      s->bm[i].page = NULL;
   }
   s->bmc = s->bm;
   s->bm_shift = 64 - CP_BMCACHE_BITS;
   s->bm_misses = 0;
   s->nbitmaps = 0;
   s->nfull = 0;
   for (UInt i = 0; i < CP_PCACHE; i++) {
      s->cache_pn[i] = NO_PAGE;
      s->cache_page[i] = NULL;
   }
   s->slots = NULL;
   s->cap = s->used = 0;
   s->count = 0;
}

void cp_addrset_free(CpAddrSet* s)
{
   for (UInt i = 0; i < s->cap; i++) {
      if (s->slots[i].pn == NO_PAGE) continue;
      for (UInt k = 0; k < CP_SUBS; k++) {
         ULong* bits = s->slots[i].page->sub[k];
         if (is_own_bitmap(bits)) bitmap_free(bits);
      }
      CP_FREE(s->slots[i].page);
   }
   if (s->slots) CP_FREE(s->slots);
   if (s->bmc != s->bm) CP_FREE(s->bmc);
   cp_addrset_init(s);
}

static CpPageSlot* find_slot(const CpAddrSet* s, Addr pn)
{
   if (s->cap == 0) return NULL;
   UInt i = page_hash(pn) & (s->cap - 1);
   while (s->slots[i].pn != NO_PAGE) {
      if (s->slots[i].pn == pn) return &s->slots[i];
      i = (i + 1) & (s->cap - 1);
   }
   return NULL;
}

static void insert_nogrow(CpAddrSet* s, Addr pn, CpBigPage* page)
{
   UInt i = page_hash(pn) & (s->cap - 1);
   while (s->slots[i].pn != NO_PAGE) i = (i + 1) & (s->cap - 1);
   s->slots[i].pn = pn;
   s->slots[i].page = page;
}

CpBigPage* cp_addrset_page(CpAddrSet* s, Addr pn)
{
   UInt ci = (UInt)(pn & (CP_PCACHE - 1));
   if (pn == s->cache_pn[ci]) return s->cache_page[ci];
   CpPageSlot* sl = find_slot(s, pn);
   CpBigPage* page;
   if (sl) {
      page = sl->page;
   } else {
      if ((s->used + 1) * 4 > s->cap * 3) {
         UInt old_cap = s->cap;
         CpPageSlot* old = s->slots;
         s->cap = old_cap ? old_cap * 2 : 4;
         s->slots = CP_MALLOC("cp.addrset.slots", s->cap * sizeof(CpPageSlot));
         for (UInt i = 0; i < s->cap; i++) s->slots[i].pn = NO_PAGE;
         for (UInt i = 0; i < old_cap; i++)
            if (old[i].pn != NO_PAGE) insert_nogrow(s, old[i].pn, old[i].page);
         if (old) CP_FREE(old);
      }
      page = CP_CALLOC("cp.addrset.page", sizeof(CpBigPage));
      insert_nogrow(s, pn, page);
      s->used++;
   }
   s->cache_pn[ci] = pn;
   s->cache_page[ci] = page;
   return page;
}

/* The bitmap for a, in page, made if absent (from the run if a run); caches
   it, the shared bitmap of a full page too. */
static ULong* sub_bitmap(CpAddrSet* s, CpBigPage* page, Addr a)
{
   UInt si = (UInt)((a >> CP_PAGE_BITS) & (CP_SUBS - 1));
   if (!page->sub[si]) page->sub[si] = bitmap_new(s);
   else if (cp_sub_is_run(page->sub[si])) page->sub[si] = bitmap_of_run(s, page->sub[si]);
   Addr bm = a >> CP_PAGE_BITS;
   UInt bits_now = 64 - s->bm_shift;
   if (++s->bm_misses >= CP_BMBIG_AFTER && bits_now < CP_BMBIG_MAX) {
      s->bm_misses = 0;
      UInt nb = bits_now + 3 > CP_BMBIG_MAX ? CP_BMBIG_MAX : bits_now + 3;
      /* entries cost 24 bytes, bitmaps 512 (a sub of a full page counts as
         one) */
      if ((ULong)(s->nbitmaps + s->nfull) * 512 >= (24ULL << nb) * 4) {
         CpBmCacheEnt* big = CP_MALLOC("cp.addrset.bmcache", sizeof(CpBmCacheEnt) << nb);
         for (UInt i = 0; i < (1u << nb); i++) {
            big[i].key = NO_PAGE;
            big[i].bits = NULL;
            big[i].page = NULL;
         }
         CpBmCacheEnt* old = s->bmc;
         s->bmc = big;
         s->bm_shift = 64 - nb;
         for (UInt i = 0; i < (1u << bits_now); i++)      /* what the old one holds */
            if (old[i].key != NO_PAGE) *cp_addrset_bm_ent(s, old[i].key) = old[i];
         if (old != s->bm) CP_FREE(old);
      }
   }
   CpBmCacheEnt* be = cp_addrset_bm_ent(s, bm);
   be->key = bm;
   be->bits = page->sub[si];
   be->page = page;
   return page->sub[si];
}

ULong cp_addrset_add_range(CpAddrSet* s, Addr a, SizeT n)
{
   ULong added = 0;
   while (n > 0) {
      UInt   off  = (UInt)(a & (CP_PAGE_ADDRS - 1));
      SizeT  inpg = (SizeT)(CP_PAGE_ADDRS - off);
      if (inpg > n) inpg = n;
      CpBigPage* page = cp_addrset_page(s, a >> CP_BIG_BITS);
      UInt here;
      if (!run_add(page, (UInt)((a >> CP_PAGE_BITS) & (CP_SUBS - 1)), off, (UInt)inpg, &here))
         here = set_bits(sub_bitmap(s, page, a), off, (UInt)inpg);
      if (here != 0) cp_addrset_counted(s, page, a, here);
      added += here;
      a += inpg;
      n -= inpg;
      if (a == 0) break;                 /* wrapped around the address space */
   }
   return added;
}

Bool cp_addrset_contains(const CpAddrSet* s, Addr a)
{
   Addr pn = a >> CP_BIG_BITS;
   UInt ci = (UInt)(pn & (CP_PCACHE - 1));
   const CpBigPage* page;
   if (pn == s->cache_pn[ci]) {
      page = s->cache_page[ci];
   } else {
      CpPageSlot* sl = find_slot(s, pn);
      if (!sl) return False;
      page = sl->page;
   }
   const ULong* bits = page->sub[(a >> CP_PAGE_BITS) & (CP_SUBS - 1)];
   if (!bits) return False;
   UInt off = (UInt)(a & (CP_PAGE_ADDRS - 1));
   if (cp_sub_is_run(bits))
      return off - cp_sub_run_start(bits) < cp_sub_run_len(bits);
   return (bits[off >> 6] >> (off & 63)) & 1;
}

ULong cp_addrset_union(CpAddrSet* dst, const CpAddrSet* src)
{
   ULong added = 0;
   for (UInt i = 0; i < src->cap; i++) {
      if (src->slots[i].pn == NO_PAGE) continue;
      const CpBigPage* sp = src->slots[i].page;
      CpBigPage* dp = NULL;
      for (UInt k = 0; k < CP_SUBS; k++) {
         const ULong* sb = sp->sub[k];
         if (!sb) continue;
         Addr a = (src->slots[i].pn << CP_BIG_BITS) + ((Addr)k << CP_PAGE_BITS);
         if (cp_sub_is_run(sb)) {
            added += cp_addrset_add_range(dst, a + cp_sub_run_start(sb), cp_sub_run_len(sb));
            continue;
         }
         if (!dp) dp = cp_addrset_page(dst, src->slots[i].pn);
         if (!dp->sub[k]) dp->sub[k] = bitmap_new(dst);
         else if (cp_sub_is_run(dp->sub[k])) dp->sub[k] = bitmap_of_run(dst, dp->sub[k]);
         ULong* db = dp->sub[k];
         if (is_full_bits(db)) continue;
         UInt here = 0;
         for (UInt w = 0; w < CP_PAGE_WORDS; w++) {
            ULong fresh = sb[w] & ~db[w];
            if (fresh) {
               db[w] |= fresh;
               here += CP_POPCOUNT64(fresh);
            }
         }
         if (here != 0) cp_addrset_counted(dst, dp, a, here);
         added += here;
      }
   }
   return added;
}

/* ---------------- edges ---------------- */

CpEdgeTable cp_edges;

static inline UInt key_hash(ULong key)
{
   return (UInt)((key * 0xD6E8FEB86659FD93ULL) >> 32);
}

void cp_edges_init(CpEdgeTable* t)
{
   t->tab = NULL;
   t->tab_cap = 0;
   t->list = NULL;
   t->n = t->list_cap = 0;
   CP_MEMSET(t->cache, 0, sizeof(t->cache));
}

void cp_edges_reset(CpEdgeTable* t)
{
   for (UInt i = 0; i < t->n; i++) {
      cp_addrset_free(&t->list[i]->addrs);
      CP_FREE(t->list[i]);
   }
   if (t->tab) CP_FREE(t->tab);
   if (t->list) CP_FREE(t->list);
   cp_edges_init(t);
}

static void tab_insert_nogrow(CpEdgeTable* t, CpEdge* e)
{
   UInt i = key_hash(e->key) & (t->tab_cap - 1);
   while (t->tab[i]) i = (i + 1) & (t->tab_cap - 1);
   t->tab[i] = e;
}

CpEdge* cp_edge_lookup_slow(CpEdgeTable* t, ULong key)
{
   CpEdge* e = NULL;
   if (t->tab_cap) {
      UInt i = key_hash(key) & (t->tab_cap - 1);
      while (t->tab[i]) {
         if (t->tab[i]->key == key) { e = t->tab[i]; break; }
         i = (i + 1) & (t->tab_cap - 1);
      }
   }
   if (!e) {
      if ((t->n + 1) * 2 > t->tab_cap) {
         UInt old_cap = t->tab_cap;
         CpEdge** old = t->tab;
         t->tab_cap = old_cap ? old_cap * 2 : 256;
         t->tab = CP_CALLOC("cp.edges.tab", t->tab_cap * sizeof(CpEdge*));
         for (UInt i = 0; i < old_cap; i++)
            if (old[i]) tab_insert_nogrow(t, old[i]);
         if (old) CP_FREE(old);
      }
      if (t->n == t->list_cap) {
         UInt ncap = t->list_cap ? t->list_cap * 2 : 256;
         CpEdge** nl = CP_MALLOC("cp.edges.list", ncap * sizeof(CpEdge*));
         if (t->n) CP_MEMCPY(nl, t->list, t->n * sizeof(CpEdge*));
         if (t->list) CP_FREE(t->list);
         t->list = nl;
         t->list_cap = ncap;
      }
      e = CP_MALLOC("cp.edges.edge", sizeof(CpEdge));
      e->key = key;
      e->bytes = 0;
      e->accesses = 0;
      e->dup_accesses = 0;
      e->first_read = 0;
      cp_addrset_init(&e->addrs);
      tab_insert_nogrow(t, e);
      t->list[t->n++] = e;
   }
   CpEdgeCacheEnt* ce = &t->cache[cp_edge_cache_index(key)];
   ce->key = key;
   ce->edge = e;
   return e;
}

UInt cp_edges_count(const CpEdgeTable* t)
{
   return t->n;
}

CpEdge* cp_edge_at(const CpEdgeTable* t, UInt i)
{
   CP_ASSERT(i < t->n);
   return t->list[i];
}
