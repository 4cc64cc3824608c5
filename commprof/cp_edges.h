/* commprof: edge tables and exact address sets.
 *
 * An edge is a (producer context, consumer context) pair with the bytes it
 * carried, the number of loads that contributed to it, and the exact set of
 * distinct byte addresses involved (its UnMA is the set's size).
 *
 * Address sets are sparse bitmaps: pages of CP_PAGE_ADDRS bits in a small
 * open-addressing hash table per set, with a cache of the last 32 bitmaps
 * touched in front, so a load that stays in one of them (a loop reading a
 * few rows of a grid touches a few) costs a hash, a compare and a few bit
 * operations.
 *
 * The edge table is an open-addressing hash table keyed by the pair, with a
 * direct-mapped cache of recently used edges in front (cp_edge_get).
 *
 * This module is pure: it compiles into the tool and into the host unit
 * tests (tests/unit/test_edges.c).
 */
#ifndef CP_EDGES_H
#define CP_EDGES_H

#include "cp_port.h"

/* ---------------- address sets ---------------- */

/* A set is a hash table of pages of 64 Ki addresses; a page holds 16
   bitmaps of 4 Ki addresses, each made when first needed.  Big pages keep
   the one-page cache effective for strided accesses (a column walk over a
   matrix stays in one page for 16 rows of 4 KiB); small bitmaps keep sparse
   sets small. */
#define CP_PAGE_BITS   12                          /* a bitmap: 4096 addresses */
#define CP_PAGE_ADDRS  ((Addr)1 << CP_PAGE_BITS)
#define CP_PAGE_WORDS  (CP_PAGE_ADDRS / 64)
#define CP_BIG_BITS    16                          /* a page: 65536 addresses */
#define CP_SUBS        (1u << (CP_BIG_BITS - CP_PAGE_BITS))

typedef struct {
   ULong* sub[CP_SUBS];      /* NULL (none of its addresses), a run (see
                                below), a bitmap of the set, or
                                cp_addrset_full_bits once the sub is full */
   UShort nset[CP_SUBS];     /* addresses of each sub in the set; a full sub
                                (CP_PAGE_ADDRS) gives its bitmap up */
} CpBigPage;

/* A sub that few accesses have touched has no bitmap: its addresses are one
   run, kept in the pointer itself (bit 0 set): [start, start + len) of the
   sub's 4096, and how many accesses added to the sub.  An access off the
   run, or the CP_RUN_ACCESSES-th one, makes it a bitmap.  So a sparse set
   (an element read here and there over an edge) costs no bitmap memory,
   and the subs read again and again get the bitmap that the fast path
   needs.  Runs are never in the bitmap cache. */
#define CP_RUN_ACCESSES 8
static inline Bool  cp_sub_is_run(const ULong* sub)  { return ((Addr)sub & 1) != 0; }
static inline UInt  cp_sub_run_start(const ULong* sub) { return (UInt)(((Addr)sub >> 16) & 0xfff); }
static inline UInt  cp_sub_run_len(const ULong* sub)   { return (UInt)(((Addr)sub >> 32) & 0x1fff); }
static inline UInt  cp_sub_run_accesses(const ULong* sub) { return (UInt)(((Addr)sub >> 1) & 0x7f); }
static inline ULong* cp_sub_run(UInt start, UInt len, UInt accesses)
{
   return (ULong*)(((Addr)len << 32) | ((Addr)start << 16) | ((Addr)accesses << 1) | 1);
}

/* The bitmap of every full sub (all its 4 Ki addresses in the set): all
   ones, shared by every set and never written (an address already in needs
   no write), so a dense set (a buffer read whole over one edge) costs no
   bitmap memory once its subs fill, but for the partly read ones at its
   ends, and its loads look at one bitmap that stays in the cache. */
extern const ULong cp_addrset_full_bits[CP_PAGE_WORDS];

/* Bitmaps of every set: live, peak; subs that filled up. */
typedef struct { ULong bitmaps_live, bitmaps_peak, subs_filled; } CpAddrSetStats;
extern CpAddrSetStats cp_addrset_stats;
typedef struct { Addr pn; CpBigPage* page; } CpPageSlot;   /* pn = address >> CP_BIG_BITS */

#define CP_PCACHE 4                                /* cached pages, by page number mod 4 */
#define CP_BMCACHE_BITS 5                          /* cached bitmaps: 32, by a hash of the number; */
#define CP_BMBIG_AFTER  4096                       /* after this many misses, 8 times more */
#define CP_BMBIG_MAX    14                         /* up to 16384 (see CpAddrSet) */

typedef struct {
   Addr       key;          /* address >> CP_PAGE_BITS, or (Addr)-1 */
   ULong*     bits;
   CpBigPage* page;         /* the page holding the bitmap */
} CpBmCacheEnt;

typedef struct {
   /* hot: the last bitmaps of 4 Ki addresses touched (a loop reading a few
      rows of an image or grid alternates between as many bitmaps), in
      bmc[hash >> bm_shift].  bmc is bm, the set's own 32 entries, until
      these have missed CP_BMBIG_AFTER times (accesses roaming over a few
      MiB) while the set has more bitmaps than that; then it is a table 8
      times larger, made for the few sets that need it (the many small ones
      do not pay for it), and so on up to 2^CP_BMBIG_MAX entries: the cache
      never costs more than a quarter of what the set's bitmaps would cost,
      counting its full subs as bitmaps (their shared bitmap is cached
      like any other, and a set read at random over many full subs needs
      as many entries as one over as many bitmaps).  bmc
      may point into the set: a set is never moved. */
   CpBmCacheEnt* bmc;
   UInt         bm_shift;   /* 64 - log2(entries of bmc) */
   UInt         bm_misses;  /* misses since bmc last grew */
   UInt         nbitmaps;   /* bitmaps of the set */
   UInt         nfull;      /* its full subs */
   CpBmCacheEnt bm[1 << CP_BMCACHE_BITS];
   ULong       count;       /* number of addresses in the set */
   Addr        cache_pn[CP_PCACHE];    /* page numbers cached, or (Addr)-1 */
   CpBigPage*  cache_page[CP_PCACHE];
   CpPageSlot* slots;       /* open addressing; pn == (Addr)-1 is empty */
   UInt        cap;         /* power of two, or 0 */
   UInt        used;
} CpAddrSet;

/* The cache entry of bitmap number bm (address >> CP_PAGE_BITS). */
static inline CpBmCacheEnt* cp_addrset_bm_ent(const CpAddrSet* s, Addr bm)
{
   return &s->bmc[((ULong)bm * 0x9E3779B97F4A7C15ULL) >> s->bm_shift];
}

void  cp_addrset_init(CpAddrSet* s);
void  cp_addrset_free(CpAddrSet* s);
/* Page holding page number pn (address >> CP_BIG_BITS), made if absent. */
CpBigPage* cp_addrset_page(CpAddrSet* s, Addr pn);
/* Add [a, a+n); returns how many of these addresses were not yet in s. */
ULong cp_addrset_add_range(CpAddrSet* s, Addr a, SizeT n);
/* Is address a in s? */
Bool  cp_addrset_contains(const CpAddrSet* s, Addr a);
/* dst |= src; returns the number of addresses added to dst. */
ULong cp_addrset_union(CpAddrSet* dst, const CpAddrSet* src);

/* The sub of s holding address a, in page, has just become full: its
   bitmap or run gives way to cp_addrset_full_bits (its cached entry too). */
void cp_addrset_sub_filled(CpAddrSet* s, CpBigPage* page, Addr a);

/* k addresses at a, in page, all in one sub, have just been added to s:
   count them, and give the sub's bitmap up if that filled it (the call
   comes last, so that callers can make it a jump). */
static inline void cp_addrset_counted(CpAddrSet* s, CpBigPage* page, Addr a, UInt k)
{
   UInt si = (UInt)((a >> CP_PAGE_BITS) & (CP_SUBS - 1));
   s->count += k;
   page->nset[si] = (UShort)(page->nset[si] + k);
   if (CP_UNLIKELY(page->nset[si] == CP_PAGE_ADDRS)) cp_addrset_sub_filled(s, page, a);
}

/* Add [a, a+n) for an access of at most 64 bytes: inline fast path. */
static inline ULong cp_addrset_add_small(CpAddrSet* s, Addr a, SizeT n)
{
   UInt off = (UInt)(a & (CP_PAGE_ADDRS - 1));
   UInt sh = off & 63;
   if (CP_LIKELY(sh + n <= 64)) {
      Addr bm = a >> CP_PAGE_BITS;
      const CpBmCacheEnt* be = cp_addrset_bm_ent(s, bm);
      /* no bitmap yet, a run, or not cached (add_range caches it, the
         shared bitmap of a full page too) */
      if (CP_UNLIKELY(be->key != bm)) return cp_addrset_add_range(s, a, n);
      ULong* bits = be->bits;
      CpBigPage* page = be->page;
      ULong mask = (n == 64 ? ~0ULL : ((1ULL << n) - 1)) << sh;
      ULong* w = &bits[off >> 6];
      ULong fresh = mask & ~*w;
      if (CP_LIKELY(fresh == 0)) return 0;
      *w |= fresh;
      UInt k = (fresh == mask) ? (UInt)n : CP_POPCOUNT64(fresh);
      cp_addrset_counted(s, page, a, k);
      return k;
   }
   return cp_addrset_add_range(s, a, n);
}

/* ---------------- edges ---------------- */

typedef struct {
   /* the fields of the fast path first: one cache line with addrs' hot part */
   ULong     key;           /* (producer << 32) | consumer */
   ULong     bytes;
   ULong     accesses;
   CpAddrSet addrs;         /* addrs.count is the UnMA */
   ULong     dup_accesses;  /* of these, loads also counted on another edge that
                               folds into the same coarser edge (see cp_output.c) */
   ULong     first_read;    /* bytes read for the first time by the consumer since
                               they were written (kept by the tool, optional) */
} CpEdge;

static inline ULong cp_edge_key(UInt producer, UInt consumer)
{
   return ((ULong)producer << 32) | consumer;
}
static inline UInt cp_edge_producer(const CpEdge* e) { return (UInt)(e->key >> 32); }
static inline UInt cp_edge_consumer(const CpEdge* e) { return (UInt)e->key; }

#define CP_ECACHE_BITS 10
typedef struct { ULong key; CpEdge* edge; } CpEdgeCacheEnt;

typedef struct {
   CpEdgeCacheEnt cache[1 << CP_ECACHE_BITS];   /* recently used edges */
   CpEdge**       tab;      /* open addressing, NULL = empty */
   UInt           tab_cap;
   CpEdge**       list;     /* creation order */
   UInt           n, list_cap;
} CpEdgeTable;

/* Edges between contexts (the communication edges). */
extern CpEdgeTable cp_edges;

void    cp_edges_init(CpEdgeTable* t);
/* Drop every edge (used by a forked child to start afresh). */
void    cp_edges_reset(CpEdgeTable* t);
/* Edge for key, created (zeroed) if absent; fills the cache. */
CpEdge* cp_edge_lookup_slow(CpEdgeTable* t, ULong key);
/* Number of edges and the i-th one (0 <= i < n), in creation order. */
UInt    cp_edges_count(const CpEdgeTable* t);
CpEdge* cp_edge_at(const CpEdgeTable* t, UInt i);

static inline UInt cp_edge_cache_index(ULong key)
{
   return (UInt)((key * 0x9E3779B97F4A7C15ULL) >> (64 - CP_ECACHE_BITS));
}

/* Edge for (producer, consumer): a cache hit costs a hash and a compare.
   The consumer must not be 0, so key 0 never names a real edge. */
static inline CpEdge* cp_edge_get(CpEdgeTable* t, UInt producer, UInt consumer)
{
   ULong key = cp_edge_key(producer, consumer);
   CpEdgeCacheEnt* ce = &t->cache[cp_edge_cache_index(key)];
   if (CP_LIKELY(ce->key == key)) return ce->edge;
   return cp_edge_lookup_slow(t, key);
}

/* Credit n bytes at [a, a+n) read in one access to (producer, consumer). */
static inline __attribute__((always_inline)) void cp_edge_credit(CpEdgeTable* t, UInt producer,
                                                                 UInt consumer, Addr a, SizeT n)
{
   CpEdge* e = cp_edge_get(t, producer, consumer);
   e->bytes += n;
   e->accesses++;
   if (CP_LIKELY(n <= 64)) cp_addrset_add_small(&e->addrs, a, n);
   else cp_addrset_add_range(&e->addrs, a, n);
}

#endif /* CP_EDGES_H */
