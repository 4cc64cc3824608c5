/* commprof unit test: edge tables and exact address sets (commprof/cp_edges.c).
 *
 *   gcc -O2 -g -DCP_HOST_TEST -I commprof tests/unit/test_edges.c commprof/cp_edges.c
 *
 * Reference model: per edge, its bytes, accesses and the set of its byte
 * addresses as a plain hash set (U64Map in refmodel.h); the edges in creation
 * order.  Every case runs in its own process (see refmodel.h).
 *
 * What is asserted:
 *   - per edge: bytes, accesses, addrs.count (the UnMA) equal the model, and
 *     the address set equals the model's set (every model address is
 *     contained, the popcount of all pages equals count, count equals the
 *     model's size), cp_addrset_contains agrees with the model on probes
 *     around the accessed ranges and at random;
 *   - cp_addrset_add_range and cp_addrset_add_small return the number of
 *     addresses that were not yet in the set;
 *   - cp_addrset_union(dst, src) returns |src \ dst|, leaves dst == dst u src
 *     and src unchanged;
 *   - the set's own bookkeeping: cap a power of two (or 0), used == non-empty
 *     slots <= 3/4 cap, no page twice, the one-page cache names a page of the
 *     set; a sub is the shared cp_addrset_full_bits exactly when its 4 Ki
 *     addresses are all in (nset of the sub), nset equals the addresses the
 *     sub holds, nbitmaps counts the set's own bitmaps;
 *   - full pages (edges/full-pages): once every address of a page is in,
 *     through any mix of add_small, add_range and union, its bitmaps are
 *     freed (bitmap stats back to where they were once the sets are freed),
 *     the cached entries of its bitmaps point at the shared one, and adding
 *     or probing there still agrees with the model; nfull counts the full
 *     subs, and a sub of a full page read through add_small is
 *     cached as the shared bitmap, the cache growing for reads roaming over
 *     many full pages as over many bitmaps (edges/full-cache); a buffer
 *     whose ends are inside subs fills the subs between them, in pages
 *     that never fill (edges/full-subs);
 *   - every entry of the bitmap cache names the current bitmap of its key
 *     (verify_set_internal);
 *   - sparse sets (edges/sparse-runs): a sub touched by few accesses is a run
 *     kept in its pointer, not a bitmap (none live for a set of one element a
 *     sub, nor for a union of such sets); the CP_RUN_ACCESSES-th access, or
 *     one off the run, makes it a cached bitmap; a run grows both ways; runs
 *     are well formed and never cached (verify_set_internal);
 *   - cp_edge_get/cp_edge_credit/cp_edge_lookup_slow find the same edge for a
 *     key whatever the cache holds (colliding cache slots, colliding hash
 *     slots, table growth past 256 edges); an edge's address stays the same;
 *     cp_edges_count/cp_edge_at list the edges in creation order; the cache
 *     entry of a key names that key's edge;
 *   - cp_edges_reset forgets every edge (a fresh edge afterwards is zeroed);
 *   - wrap-around: adding [a, a+n) with a+n past 2^64 adds [a, 2^64) (the
 *     clamp in cp_addrset_add_range).
 * Producer 0 is a valid producer (unwritten memory); consumer 0 is never
 * used (cp_edges.h: key 0 never names a real edge).
 */
#include "cp_edges.h"

/* the table under test (each case runs in its own process) */
static CpEdgeTable T;
#include "refmodel.h"

#define TOPA (~(Addr)0)
#define NO_PAGE ((Addr)-1)
#define BIG_ADDRS (1u << CP_BIG_BITS)          /* addresses of a page */

/* ------------------------------------------------------------------ */
/* model                                                               */
/* ------------------------------------------------------------------ */

static int mset_has(const U64Map* m, Addr a) { return u64map_find(m, a) != NULL; }

/* Add [a, a+n), clamped at the top of the address space; returns new count. */
static ULong mset_add_range(U64Map* m, Addr a, SizeT n)
{
   ULong added = 0;
   for (SizeT i = 0; i < n; i++) {
      if (i > 0 && a + i == 0) break;
      added += (ULong)u64map_put_new(m, a + i, 1);
   }
   return added;
}

typedef struct {
   ULong  key;
   ULong  bytes, acc;
   U64Map addrs;
} MEdge;

static MEdge*   me;             /* creation order */
static unsigned me_n, me_cap;
static U64Map   me_idx;         /* key -> index + 1 */

static MEdge* medge(UInt p, UInt c)
{
   ULong key = cp_edge_key(p, c);
   uint64_t* v = u64map_find(&me_idx, key);
   if (v) return &me[*v - 1];
   if (me_n == me_cap) {
      me_cap = me_cap ? me_cap * 2 : 64;
      me = realloc(me, me_cap * sizeof(MEdge));
      CHECK(me != NULL, "oom");
   }
   MEdge* e = &me[me_n++];
   memset(e, 0, sizeof *e);
   e->key = key;
   u64map_put_new(&me_idx, key, me_n);
   return e;
}

static void model_reset(void)
{
   for (unsigned i = 0; i < me_n; i++) u64map_free(&me[i].addrs);
   me_n = 0;
   u64map_free(&me_idx);
}

static void model_free(void)
{
   model_reset();
   free(me);
   me = NULL;
   me_cap = 0;
}

/* ------------------------------------------------------------------ */
/* checks                                                              */
/* ------------------------------------------------------------------ */

static char ctx[256];           /* what is being checked, for messages */

/* The set's own invariants; returns the popcount of all its pages. */
static ULong verify_set_internal(const CpAddrSet* s, const char* what)
{
   if (s->cap == 0) {
      CHECK(s->used == 0 && s->count == 0 && s->cache_pn[0] == NO_PAGE && s->cache_pn[1] == NO_PAGE
            && s->cache_pn[2] == NO_PAGE && s->cache_pn[3] == NO_PAGE,
            "%s (%s): empty table but used %u, count %llu", what, ctx, s->used,
            (unsigned long long)s->count);
      return 0;
   }
   CHECK((s->cap & (s->cap - 1)) == 0, "%s (%s): cap %u not a power of two", what, ctx, s->cap);
   CHECK((ULong)s->used * 4 <= (ULong)s->cap * 3, "%s (%s): used %u of cap %u", what, ctx,
         s->used, s->cap);
   U64Map seen = { 0 };
   ULong pop = 0;
   UInt used = 0, bitmaps = 0, full_subs = 0;
   int found[CP_PCACHE];
   for (UInt c = 0; c < CP_PCACHE; c++) found[c] = s->cache_pn[c] == NO_PAGE;
   for (UInt i = 0; i < s->cap; i++) {
      if (s->slots[i].pn == NO_PAGE) continue;
      used++;
      CHECK(s->slots[i].page != NULL, "%s (%s): slot without a page", what, ctx);
      CHECK(u64map_put_new(&seen, s->slots[i].pn, 1), "%s (%s): page 0x%lx twice", what, ctx,
            s->slots[i].pn);
      for (UInt c = 0; c < CP_PCACHE; c++)
         if (s->slots[i].pn == s->cache_pn[c]) {
            CHECK(c == (s->slots[i].pn & (CP_PCACHE - 1)), "%s (%s): page cached in the wrong entry",
                  what, ctx);
            CHECK(s->slots[i].page == s->cache_page[c], "%s (%s): cached page is another one", what, ctx);
            found[c] = 1;
         }
      ULong page_pop = 0;
      for (UInt k = 0; k < CP_SUBS; k++) {
         const ULong* bits = s->slots[i].page->sub[k];
         UInt nset = s->slots[i].page->nset[k];
         int full = nset == CP_PAGE_ADDRS;
         full_subs += full;
         CHECK(full == (bits == cp_addrset_full_bits), "%s (%s): page 0x%lx sub %u %s but is %s",
               what, ctx, s->slots[i].pn, k, full ? "full" : "not full",
               bits == cp_addrset_full_bits ? "the shared full bitmap" : "its own");
         ULong sub_pop = 0;
         if (!bits) {
            CHECK(nset == 0, "%s (%s): page 0x%lx sub %u empty, nset says %u", what, ctx,
                  s->slots[i].pn, k, nset);
            continue;
         }
         if (cp_sub_is_run(bits)) {
            UInt rs = cp_sub_run_start(bits), rl = cp_sub_run_len(bits), ra = cp_sub_run_accesses(bits);
            CHECK(rl >= 1 && rl < CP_PAGE_ADDRS && rs + rl <= CP_PAGE_ADDRS && ra >= 1
                  && ra < CP_RUN_ACCESSES,
                  "%s (%s): page 0x%lx sub %u is a run of %u at %u after %u accesses", what, ctx,
                  s->slots[i].pn, k, rl, rs, ra);
            for (UInt c = 0; c < (1u << (64 - s->bm_shift)); c++)
               CHECK(s->bmc[c].key != (s->slots[i].pn << (CP_BIG_BITS - CP_PAGE_BITS)) + k,
                     "%s (%s): page 0x%lx sub %u is a run, yet cached", what, ctx, s->slots[i].pn, k);
            sub_pop = rl;
         } else {
            if (bits != cp_addrset_full_bits) bitmaps++;
            for (UInt w = 0; w < CP_PAGE_WORDS; w++) sub_pop += CP_POPCOUNT64(bits[w]);
         }
         CHECK(sub_pop == nset, "%s (%s): page 0x%lx sub %u holds %llu addresses, nset says %u",
               what, ctx, s->slots[i].pn, k, (unsigned long long)sub_pop, nset);
         page_pop += sub_pop;
      }
      pop += page_pop;
   }
   u64map_free(&seen);
   CHECK(used == s->used, "%s (%s): %u pages in the table, used says %u", what, ctx, used, s->used);
   CHECK(bitmaps == s->nbitmaps, "%s (%s): %u bitmaps of its own, nbitmaps says %u", what, ctx,
         bitmaps, s->nbitmaps);
   CHECK(full_subs == s->nfull, "%s (%s): %u full subs, nfull says %u", what, ctx,
         full_subs, s->nfull);
   /* every cached entry names the bitmap (own, full or shared) of its key */
   for (UInt c = 0; c < (1u << (64 - s->bm_shift)); c++) {
      const CpBmCacheEnt* be = &s->bmc[c];
      if (be->key == NO_PAGE) continue;
      CHECK(cp_addrset_bm_ent(s, be->key) == be, "%s (%s): entry %u holds key 0x%lx of another slot",
            what, ctx, c, be->key);
      const CpPageSlot* sl = NULL;
      for (UInt i = 0; i < s->cap && !sl; i++)
         if (s->slots[i].pn == be->key >> (CP_BIG_BITS - CP_PAGE_BITS)) sl = &s->slots[i];
      CHECK(sl != NULL, "%s (%s): cached bitmap 0x%lx of no page", what, ctx, be->key);
      CHECK(be->page == sl->page && be->bits == sl->page->sub[be->key & (CP_SUBS - 1)],
            "%s (%s): entry %u (key 0x%lx) points at another bitmap", what, ctx, c, be->key);
   }
   for (UInt c = 0; c < CP_PCACHE; c++)
      CHECK(found[c], "%s (%s): cached page 0x%lx not in the table", what, ctx, s->cache_pn[c]);
   CHECK(pop == s->count, "%s (%s): pages hold %llu addresses, count says %llu", what, ctx,
         (unsigned long long)pop, (unsigned long long)s->count);
   return pop;
}

/* s equals m exactly. */
static void verify_set(const CpAddrSet* s, const U64Map* m, const char* what)
{
   CHECK_EQ(s->count, m->n, "%s: count (%s)", what, ctx);
   verify_set_internal(s, what);
   for (size_t i = 0; i < m->cap; i++)
      if (m->full[i] && !cp_addrset_contains(s, m->keys[i]))
         FAILF("%s (%s): address 0x%lx missing", what, ctx, (Addr)m->keys[i]);
   /* (count == |m|, m within s, popcount == count: s == m) */
}

/* contains() against the model at a few addresses around [a, a+n). */
static void probe_around(const CpAddrSet* s, const U64Map* m, Addr a, SizeT n, const char* what)
{
   Addr pr[12];
   unsigned k = 0;
   pr[k++] = a - 1; pr[k++] = a; pr[k++] = a + 1;
   pr[k++] = a + n - 1; pr[k++] = a + n; pr[k++] = a + n + 1;
   pr[k++] = a + (n ? rnd(n) : 0);
   pr[k++] = (a & ~(Addr)63) + 63; pr[k++] = (a & ~(Addr)63) + 64;
   pr[k++] = (a | (CP_PAGE_ADDRS - 1)); pr[k++] = (a | (CP_PAGE_ADDRS - 1)) + 1;
   pr[k++] = rnd64();
   for (unsigned i = 0; i < k; i++) {
      int want = mset_has(m, pr[i]);
      int got = cp_addrset_contains(s, pr[i]) ? 1 : 0;
      if (got != want)
         FAILF("%s (%s): contains(0x%lx) = %d, expected %d", what, ctx, pr[i], got, want);
   }
}

static void verify_edge(const CpEdge* e, const MEdge* m, int full)
{
   CHECK(e->key == m->key, "edge key 0x%llx, expected 0x%llx (%s)",
         (unsigned long long)e->key, (unsigned long long)m->key, ctx);
   CHECK_EQ(e->bytes, m->bytes, "bytes of edge (%u,%u) (%s)", cp_edge_producer(e),
            cp_edge_consumer(e), ctx);
   CHECK_EQ(e->accesses, m->acc, "accesses of edge (%u,%u) (%s)", cp_edge_producer(e),
            cp_edge_consumer(e), ctx);
   CHECK_EQ(e->addrs.count, m->addrs.n, "UnMA (addrs.count) of edge (%u,%u) (%s)",
            cp_edge_producer(e), cp_edge_consumer(e), ctx);
   if (full) verify_set(&e->addrs, &m->addrs, "edge address set");
}

/* All edges, in creation order. */
static void verify_edges(int full)
{
   CHECK_EQ(cp_edges_count(&T), me_n, "cp_edges_count (%s)", ctx);
   for (unsigned i = 0; i < me_n; i++) {
      CpEdge* e = cp_edge_at(&T, i);
      if (e->key != me[i].key)
         FAILF("cp_edge_at(%u) has key 0x%llx, expected 0x%llx (creation order) (%s)", i,
               (unsigned long long)e->key, (unsigned long long)me[i].key, ctx);
      verify_edge(e, &me[i], full);
   }
}

/* ------------------------------------------------------------------ */
/* random addresses and sizes                                          */
/* ------------------------------------------------------------------ */

static Addr hot_pages[64];
static Addr recent[32];
static unsigned recent_n;

static void addr_setup(void)
{
   for (unsigned i = 0; i < 64; i++) hot_pages[i] = rnd64() >> CP_PAGE_BITS;
   hot_pages[0] = (TOPA >> CP_PAGE_BITS) - 1;       /* below the top page */
   hot_pages[1] = 0;
   recent_n = 0;
}

static SizeT rnd_size(void)
{
   static const SizeT common[] = { 1, 2, 4, 8, 16, 32, 64 };
   unsigned r = (unsigned)rnd(100);
   if (r < 45) return common[rnd(7)];
   if (r < 90) return rnd_in(1, 64);
   if (r < 97) return rnd_in(65, 4096);
   return rnd_in(4097, 3 * 4096 + 100);
}

/* An address for an access of n bytes; [a, a+n) does not wrap. */
static Addr rnd_addr(SizeT n)
{
   Addr a;
   unsigned r = (unsigned)rnd(100);
   if (r < 15 && recent_n) a = recent[rnd(recent_n < 32 ? recent_n : 32)] + rnd(3) - 1;
   else if (r < 30) a = rnd(3 * CP_PAGE_ADDRS);                        /* low */
   else if (r < 55) a = 0x7f0000000000UL + rnd(64 * CP_PAGE_ADDRS);   /* dense */
   else if (r < 75) {                                                  /* page ends */
      a = (hot_pages[rnd(64)] << CP_PAGE_BITS) + CP_PAGE_ADDRS - rnd_in(1, 80);
   } else if (r < 85) {                                                /* word ends */
      a = (hot_pages[rnd(8)] << CP_PAGE_BITS) + rnd(64) * 64 - rnd(8);
   } else if (r < 95) a = (hot_pages[rnd(64)] << CP_PAGE_BITS) + rnd(CP_PAGE_ADDRS);
   else a = TOPA - rnd(3 * CP_PAGE_ADDRS);                             /* top */
   if (n && a > TOPA - (n - 1)) a = TOPA - (n - 1);
   recent[recent_n++ % 32] = a;
   return a;
}

static UInt rnd_producer(void)
{
   unsigned r = (unsigned)rnd(10);
   if (r == 0) return 0;
   if (r == 1) return 0xFFFFFFFFu;
   return (UInt)rnd_in(1, 12);
}
static UInt rnd_consumer(void)
{
   unsigned r = (unsigned)rnd(10);
   if (r == 0) return 0xFFFFFFFFu;
   return (UInt)rnd_in(1, 6);
}

static void setup(void)
{
   cp_edges_init(&T);
   me_n = 0;
   addr_setup();
   snprintf(ctx, sizeof ctx, "start");
}

static void teardown(void)
{
   cp_edges_reset(&T);
   CHECK_EQ(cp_edges_count(&T), 0, "cp_edges_count after reset");
   model_free();
   tc_clear_note();
}

/* ------------------------------------------------------------------ */
/* cases                                                               */
/* ------------------------------------------------------------------ */

/* Random credits, through cp_edge_credit and the pieces load_mixed uses. */
static void case_credit_random(uintptr_t variant)
{
   setup();
   unsigned nops = 12000 * tc_scale;
   for (unsigned it = 0; it < nops; it++) {
      UInt p = rnd_producer(), c = rnd_consumer();
      SizeT n = rnd_size();
      if (variant == 1 && n > 64) n = rnd_in(1, 64);    /* small-access variant */
      Addr a = rnd_addr(n);
      unsigned r = (unsigned)rnd(100);
      MEdge* m = medge(p, c);
      CpEdge* e;
      if (r < 50) {
         snprintf(ctx, sizeof ctx, "op #%u cp_edge_credit(&T, %u, %u, 0x%lx, %lu)", it, p, c, a, n);
         tc_note("%s", ctx);
         cp_edge_credit(&T, p, c, a, n);
         e = cp_edge_get(&T, p, c);
         m->bytes += n;
         m->acc++;
         mset_add_range(&m->addrs, a, n);
      } else if (r < 80 || n > 64) {
         snprintf(ctx, sizeof ctx, "op #%u get(%u, %u) + add_range(0x%lx, %lu)", it, p, c, a, n);
         tc_note("%s", ctx);
         e = cp_edge_get(&T, p, c);
         e->bytes += n;
         e->accesses++;
         ULong got = cp_addrset_add_range(&e->addrs, a, n);
         ULong want = mset_add_range(&m->addrs, a, n);
         m->bytes += n;
         m->acc++;
         CHECK_EQ(got, want, "cp_addrset_add_range return (%s)", ctx);
      } else {
         snprintf(ctx, sizeof ctx, "op #%u get(%u, %u) + add_small(0x%lx, %lu)", it, p, c, a, n);
         tc_note("%s", ctx);
         e = cp_edge_get(&T, p, c);
         e->bytes += n;
         e->accesses++;
         ULong got = cp_addrset_add_small(&e->addrs, a, n);
         ULong want = mset_add_range(&m->addrs, a, n);
         m->bytes += n;
         m->acc++;
         CHECK_EQ(got, want, "cp_addrset_add_small return (%s)", ctx);
      }
      verify_edge(e, m, 0);
      probe_around(&e->addrs, &m->addrs, a, n, "edge address set");
      if (rnd(4) == 0) {                          /* probes of another edge */
         MEdge* o = &me[rnd(me_n)];
         CpEdge* oe = cp_edge_get(&T, (UInt)(o->key >> 32), (UInt)o->key);
         probe_around(&oe->addrs, &o->addrs, rnd_addr(1), rnd_size(), "other edge's set");
      }
      if (it % 2000 == 1999) verify_edges(1);
   }
   snprintf(ctx, sizeof ctx, "end");
   verify_edges(1);
   teardown();
}

/* cp_addrset_add_small on one set: fast path (same page), slow path, return
   values, full words, the top page. */
static void case_add_small(uintptr_t unused)
{
   (void)unused;
   setup();
   CpAddrSet s;
   U64Map m = { 0 };
   cp_addrset_init(&s);
   for (unsigned it = 0; it < 30000 * tc_scale; it++) {
      SizeT n = (SizeT)rnd_in(0, 64);
      Addr a;
      unsigned r = (unsigned)rnd(100);
      if (r < 60 && it) {                        /* same page as before: fast path */
         Addr pg = recent[(recent_n - 1) % 32] & ~(CP_PAGE_ADDRS - 1);
         a = pg + rnd(CP_PAGE_ADDRS);
      } else if (r < 70) {
         a = (rnd(4) << CP_PAGE_BITS) + rnd(CP_PAGE_ADDRS / 64) * 64;   /* aligned words */
         if (chance(50)) n = 64;
      } else {
         a = rnd_addr(n ? n : 1);
      }
      if (n && a > TOPA - (n - 1)) a = TOPA - (n - 1);
      recent[recent_n++ % 32] = a;
      snprintf(ctx, sizeof ctx, "op #%u add_small(0x%lx, %lu)", it, a, n);
      ULong got = cp_addrset_add_small(&s, a, n);
      ULong want = mset_add_range(&m, a, n);
      CHECK_EQ(got, want, "add_small return (%s)", ctx);
      CHECK_EQ(s.count, m.n, "count (%s)", ctx);
      probe_around(&s, &m, a, n, "set");
      if (it % 5000 == 4999) verify_set(&s, &m, "set");
   }
   /* the last addresses of the address space, full word */
   snprintf(ctx, sizeof ctx, "top word");
   ULong want = mset_add_range(&m, TOPA - 63, 64);
   CHECK_EQ(cp_addrset_add_small(&s, TOPA - 63, 64), want, "add_small(2^64-64, 64)");
   CHECK_EQ(cp_addrset_add_small(&s, TOPA - 63, 64), 0, "add_small(2^64-64, 64) again");
   CHECK_EQ(cp_addrset_add_small(&s, TOPA, 1), 0, "add_small(2^64-1, 1) again");
   CHECK(cp_addrset_contains(&s, TOPA), "contains(2^64-1)");
   verify_set(&s, &m, "set");
   cp_addrset_free(&s);
   CHECK(s.count == 0 && s.cap == 0 && s.slots == NULL, "cp_addrset_free left a non-empty set");
   CHECK(!cp_addrset_contains(&s, TOPA), "freed set contains 2^64-1");
   u64map_free(&m);
   teardown();
}

/* Large, unaligned ranges over many pages; growth of the page table. */
static void case_add_range(uintptr_t unused)
{
   (void)unused;
   setup();
   CpAddrSet s;
   U64Map m = { 0 };
   cp_addrset_init(&s);
   for (unsigned it = 0; it < 600 * tc_scale; it++) {
      SizeT n;
      unsigned r = (unsigned)rnd(100);
      if (r < 40) n = rnd_in(1, 200);
      else if (r < 80) n = rnd_in(200, 9000);
      else n = rnd_in(9000, 40000);
      Addr a = chance(70) ? 0x10000000UL + rnd(300 * CP_PAGE_ADDRS)   /* overlapping */
                          : rnd_addr(n);
      if (a > TOPA - (n - 1)) a = TOPA - (n - 1);
      snprintf(ctx, sizeof ctx, "op #%u add_range(0x%lx, %lu)", it, a, n);
      ULong got = cp_addrset_add_range(&s, a, n);
      ULong want = mset_add_range(&m, a, n);
      CHECK_EQ(got, want, "add_range return (%s)", ctx);
      CHECK_EQ(s.count, m.n, "count (%s)", ctx);
      probe_around(&s, &m, a, n, "set");
      CHECK_EQ(cp_addrset_add_range(&s, a, n), 0, "add_range of the same range again (%s)", ctx);
      if (it % 100 == 99) verify_set(&s, &m, "set");
   }
   verify_set(&s, &m, "set");
   /* pages hold 64 Ki addresses: a few dozen of them still make the table grow several times */
   CHECK(s.used > 32, "only %u pages: the table did not grow much", s.used);
   /* n == 0 adds nothing */
   CHECK_EQ(cp_addrset_add_range(&s, 0x12345, 0), 0, "add_range(.., 0)");
   CHECK_EQ(cp_addrset_add_small(&s, 0x12345, 0), 0, "add_small(.., 0)");
   verify_set(&s, &m, "set");
   cp_addrset_free(&s);
   u64map_free(&m);
   teardown();
}

/* Ranges past the top of the address space are clamped at 2^64. */
static void case_wrap_top(uintptr_t unused)
{
   (void)unused;
   setup();
   CpAddrSet s;
   U64Map m = { 0 };
   cp_addrset_init(&s);
   snprintf(ctx, sizeof ctx, "add_range(2^64-10, 20)");
   CHECK_EQ(cp_addrset_add_range(&s, TOPA - 9, 20), 10, "add_range(2^64-10, 20) (clamped)");
   mset_add_range(&m, TOPA - 9, 20);
   CHECK(cp_addrset_contains(&s, TOPA) && !cp_addrset_contains(&s, 0) &&
         !cp_addrset_contains(&s, 9), "after a wrapping add_range");
   snprintf(ctx, sizeof ctx, "add_small(2^64-30, 40)");
   CHECK_EQ(cp_addrset_add_small(&s, TOPA - 29, 40), 20, "add_small(2^64-30, 40) (clamped)");
   mset_add_range(&m, TOPA - 29, 40);
   snprintf(ctx, sizeof ctx, "add_range(2^64-5000, 10000)");
   CHECK_EQ(cp_addrset_add_range(&s, TOPA - 4999, 10000), 5000 - 30,
            "add_range(2^64-5000, 10000) (clamped)");
   mset_add_range(&m, TOPA - 4999, 10000);
   verify_set(&s, &m, "set");
   CHECK(!cp_addrset_contains(&s, 0) && !cp_addrset_contains(&s, 4999), "low addresses added");
   /* an edge credited across the top */
   cp_edge_credit(&T, 1, 2, TOPA - 3, 8);
   MEdge* me12 = medge(1, 2);
   me12->bytes += 8; me12->acc++;
   mset_add_range(&me12->addrs, TOPA - 3, 8);
   cp_edge_credit(&T, 1, 2, TOPA - 100, 1000);
   me12->bytes += 1000; me12->acc++;
   mset_add_range(&me12->addrs, TOPA - 100, 1000);
   snprintf(ctx, sizeof ctx, "credits across the top");
   verify_edges(1);
   cp_addrset_free(&s);
   u64map_free(&m);
   teardown();
}

/* Build a random set (and its model) over npages pages around base. */
static void build_set(CpAddrSet* s, U64Map* m, Addr base, unsigned npages, unsigned nops)
{
   cp_addrset_init(s);
   for (unsigned i = 0; i < nops; i++) {
      SizeT n = chance(90) ? rnd_in(1, 64) : rnd_in(65, 5000);
      Addr a = base + rnd((Addr)npages * CP_PAGE_ADDRS);
      if (a > TOPA - (n - 1)) a = TOPA - (n - 1);
      cp_addrset_add_range(s, a, n);
      mset_add_range(m, a, n);
   }
}

static void check_union(CpAddrSet* d, U64Map* md, const CpAddrSet* s, const U64Map* ms,
                        const char* what)
{
   snprintf(ctx, sizeof ctx, "union: %s", what);
   tc_note("%s", ctx);
   ULong scount = s->count;
   ULong want = 0;
   for (size_t i = 0; i < ms->cap; i++)
      if (ms->full[i]) want += (ULong)u64map_put_new(md, ms->keys[i], 1);
   ULong got = cp_addrset_union(d, s);
   CHECK_EQ(got, want, "cp_addrset_union return = |src \\ dst| (%s)", what);
   CHECK_EQ(d->count, md->n, "count of the union = |dst u src| (%s)", what);
   CHECK_EQ(s->count, scount, "count of the source after a union (%s)", what);
   verify_set(d, md, "union");
   if (s != d) verify_set(s, ms, "union source");
   /* dst keeps working: its page cache must still be right */
   Addr a = chance(50) && md->n ? 0 : rnd64();
   if (a == 0) {
      for (size_t i = 0; i < md->cap; i++) if (md->full[i]) { a = md->keys[i]; break; }
   }
   SizeT n = rnd_in(1, 64);
   if (a > TOPA - (n - 1)) a = TOPA - (n - 1);
   CHECK_EQ(cp_addrset_add_small(d, a, n), mset_add_range(md, a, n), "add_small after union");
   verify_set(d, md, "union then add");
}

static void case_union(uintptr_t unused)
{
   (void)unused;
   setup();
   for (unsigned round = 0; round < 12; round++) {
      CpAddrSet a, b;
      U64Map ma = { 0 }, mb = { 0 };
      Addr base = 0x40000000UL + round * 0x1000000UL;
      switch (round % 4) {
      case 0:   /* same pages, overlapping contents */
         build_set(&a, &ma, base, 4, 200);
         build_set(&b, &mb, base, 4, 200);
         break;
      case 1:   /* disjoint pages; src has many pages: dst grows during the union */
         build_set(&a, &ma, base, 3, 50);
         build_set(&b, &mb, base + 0x100000, 200, 600);
         break;
      case 2:   /* partly overlapping page ranges */
         build_set(&a, &ma, base, 40, 400);
         build_set(&b, &mb, base + 20 * CP_PAGE_ADDRS, 40, 400);
         break;
      default:  /* src is a subset of dst */
         build_set(&a, &ma, base, 10, 300);
         cp_addrset_init(&b);
         for (size_t i = 0; i < ma.cap; i++)
            if (ma.full[i] && chance(30)) {
               cp_addrset_add_range(&b, ma.keys[i], 1);
               mset_add_range(&mb, ma.keys[i], 1);
            }
         break;
      }
      check_union(&a, &ma, &b, &mb, "random sets");
      check_union(&a, &ma, &b, &mb, "the same union again");
      CHECK_EQ(cp_addrset_union(&a, &a), 0, "self union");
      verify_set(&a, &ma, "after self union");
      /* into an empty set, and from an empty set */
      CpAddrSet e;
      U64Map me0 = { 0 };
      cp_addrset_init(&e);
      check_union(&b, &mb, &e, &me0, "empty source");
      check_union(&e, &me0, &b, &mb, "empty destination");
      cp_addrset_free(&a); cp_addrset_free(&b); cp_addrset_free(&e);
      u64map_free(&ma); u64map_free(&mb); u64map_free(&me0);
   }
   /* the union of several edges, as cp_output.c computes it */
   for (unsigned i = 0; i < 3000; i++) {
      UInt p = (UInt)rnd_in(1, 3), c = (UInt)rnd_in(1, 8);
      SizeT n = rnd_size();
      Addr a = rnd_addr(n);
      cp_edge_credit(&T, p, c, a, n);
      MEdge* m = medge(p, c);
      m->bytes += n; m->acc++;
      mset_add_range(&m->addrs, a, n);
   }
   snprintf(ctx, sizeof ctx, "edges for the union");
   verify_edges(1);
   CpAddrSet u;
   U64Map mu = { 0 };
   cp_addrset_init(&u);
   for (unsigned i = 0; i < me_n; i++) {
      CpEdge* e = cp_edge_at(&T, i);
      char what[64];
      snprintf(what, sizeof what, "edge %u into the union of edges", i);
      check_union(&u, &mu, &e->addrs, &me[i].addrs, what);
   }
   cp_addrset_free(&u);
   u64map_free(&mu);
   teardown();
}

/* Copy of key_hash from cp_edges.c, to build colliding keys; if the hash
   changes, the case still checks correctness, with fewer collisions. */
static inline UInt copy_of_key_hash(ULong key) { return (UInt)((key * 0xD6E8FEB86659FD93ULL) >> 32); }

/* Thousands of edges: table and list growth, colliding hash slots, pointer
   stability, creation order. */
static void case_many_edges(uintptr_t unused)
{
   (void)unused;
   setup();
   enum { N = 5000 };
   CpEdge** ptr = calloc(N, sizeof(CpEdge*));
   CHECK(ptr != NULL, "oom");
   unsigned n = 0;
   /* 100 keys with the same home slot in tables of 256 .. 8192 */
   for (ULong k = 0x100000001ULL; n < 100; k++) {
      if ((UInt)k == 0) continue;
      if ((copy_of_key_hash(k) & 8191) == 77) {
         UInt p = (UInt)(k >> 32), c = (UInt)k;
         snprintf(ctx, sizeof ctx, "create colliding edge %u (%u,%u)", n, p, c);
         ptr[n] = cp_edge_get(&T, p, c);
         CHECK(ptr[n] && ptr[n]->key == k && ptr[n]->bytes == 0 && ptr[n]->addrs.count == 0,
               "new edge (%s)", ctx);
         medge(p, c);
         n++;
      }
   }
   /* then random keys, including producer 0 and extreme ids */
   while (n < N) {
      UInt p = chance(5) ? 0 : (UInt)rnd64(), c = (UInt)rnd64() | 1;
      if (n == 150) { p = 0xFFFFFFFFu; c = 0xFFFFFFFFu; }
      if (n == 151) { p = 0; c = 1; }
      if (u64map_find(&me_idx, cp_edge_key(p, c))) continue;
      snprintf(ctx, sizeof ctx, "create edge %u (%u,%u)", n, p, c);
      ptr[n] = chance(50) ? cp_edge_get(&T, p, c) : cp_edge_lookup_slow(&T, cp_edge_key(p, c));
      medge(p, c);
      CHECK_EQ(cp_edges_count(&T), n + 1, "count while creating (%s)", ctx);
      CHECK(ptr[n]->key == cp_edge_key(p, c) && ptr[n]->bytes == 0 && ptr[n]->accesses == 0 &&
            ptr[n]->addrs.count == 0, "new edge not fresh (%s)", ctx);
      CpEdgeCacheEnt* ce = &T.cache[cp_edge_cache_index(cp_edge_key(p, c))];
      CHECK(ce->key == cp_edge_key(p, c) && ce->edge == ptr[n], "cache entry after creating (%s)",
            ctx);
      /* credit a few of them */
      if (chance(20)) {
         Addr a = rnd_addr(8);
         cp_edge_credit(&T, p, c, a, 8);
         MEdge* m = medge(p, c);
         m->bytes += 8; m->acc++;
         mset_add_range(&m->addrs, a, 8);
      }
      n++;
   }
   snprintf(ctx, sizeof ctx, "after creating %u edges", n);
   verify_edges(1);
   /* every edge is found again, at the same address, via every path */
   for (unsigned i = 0; i < n; i++) {
      UInt p = (UInt)(me[i].key >> 32), c = (UInt)me[i].key;
      CHECK(cp_edge_at(&T, i) == ptr[i], "edge %u moved", i);
      CHECK(cp_edge_get(&T, p, c) == ptr[i], "cp_edge_get(%u,%u) found another edge", p, c);
      CHECK(cp_edge_lookup_slow(&T, me[i].key) == ptr[i], "lookup_slow(%u,%u) found another edge",
            p, c);
      CpEdgeCacheEnt* ce = &T.cache[cp_edge_cache_index(me[i].key)];
      CHECK(ce->key == me[i].key && ce->edge == ptr[i], "cache entry after lookup of (%u,%u)",
            p, c);
   }
   /* in random order, with credits */
   for (unsigned it = 0; it < 20000; it++) {
      unsigned i = (unsigned)rnd(n);
      UInt p = (UInt)(me[i].key >> 32), c = (UInt)me[i].key;
      SizeT sz = rnd_in(1, 16);
      Addr a = rnd_addr(sz);
      cp_edge_credit(&T, p, c, a, sz);
      me[i].bytes += sz; me[i].acc++;
      mset_add_range(&me[i].addrs, a, sz);
      CHECK(cp_edge_get(&T, p, c) == ptr[i], "cp_edge_get(%u,%u) found another edge", p, c);
   }
   CHECK_EQ(cp_edges_count(&T), n, "count: lookups created edges");
   snprintf(ctx, sizeof ctx, "after random credits");
   verify_edges(1);
   free(ptr);
   teardown();
}

/* Keys that share a slot of the direct-mapped cache. */
static void case_cache_collision(uintptr_t unused)
{
   (void)unused;
   setup();
   /* group keys (p in 0..3, c in 1..4096) by cache slot; take slots with >= 4 */
   enum { MAXG = 8 };
   static ULong bykey[1 << CP_ECACHE_BITS][MAXG];
   static unsigned cnt[1 << CP_ECACHE_BITS];
   memset(cnt, 0, sizeof cnt);
   for (UInt p = 0; p < 4; p++)
      for (UInt c = 1; c <= 4096; c++) {
         ULong k = cp_edge_key(p, c);
         UInt i = cp_edge_cache_index(k);
         CHECK(i < (1u << CP_ECACHE_BITS), "cache index %u out of range", i);
         if (cnt[i] < MAXG) bykey[i][cnt[i]++] = k;
      }
   unsigned groups = 0;
   for (UInt slot = 0; slot < (1u << CP_ECACHE_BITS) && groups < 16; slot++) {
      if (cnt[slot] < 4) continue;
      groups++;
      /* alternate among the colliding keys; each must get its own credits */
      for (unsigned it = 0; it < 400; it++) {
         ULong k = bykey[slot][rnd(cnt[slot])];
         UInt p = (UInt)(k >> 32), c = (UInt)k;
         SizeT n = rnd_size();
         Addr a = rnd_addr(n);
         snprintf(ctx, sizeof ctx, "cache slot %u: credit (%u,%u, 0x%lx, %lu)", slot, p, c, a, n);
         unsigned mode = (unsigned)rnd(3);
         MEdge* m = medge(p, c);
         if (mode == 0) {
            cp_edge_credit(&T, p, c, a, n);
         } else {
            CpEdge* e = cp_edge_get(&T, p, c);
            CHECK(e->key == k, "cp_edge_get(%u,%u) returned the edge of key 0x%llx (%s)", p, c,
                  (unsigned long long)e->key, ctx);
            e->bytes += n;
            e->accesses++;
            if (mode == 1 || n > 64) cp_addrset_add_range(&e->addrs, a, n);
            else cp_addrset_add_small(&e->addrs, a, n);
         }
         m->bytes += n; m->acc++;
         mset_add_range(&m->addrs, a, n);
         CpEdgeCacheEnt* ce = &T.cache[slot];
         CHECK(ce->key == k && ce->edge && ce->edge->key == k,
               "cache slot %u holds key 0x%llx after using 0x%llx (%s)", slot,
               (unsigned long long)ce->key, (unsigned long long)k, ctx);
      }
      verify_edges(1);
   }
   CHECK(groups >= 4, "found only %u colliding groups", groups);
   teardown();
}

/* Reset: every edge forgotten; new edges start at zero; again and again. */
static void case_reset(uintptr_t unused)
{
   (void)unused;
   setup();
   for (int round = 0; round < 4; round++) {
      unsigned nedges = round == 2 ? 600 : 40;
      for (unsigned i = 0; i < nedges * 10; i++) {
         UInt p = (UInt)rnd(nedges / 4 + 1), c = (UInt)rnd_in(1, 4);
         SizeT n = rnd_size();
         Addr a = rnd_addr(n);
         cp_edge_credit(&T, p, c, a, n);
         MEdge* m = medge(p, c);
         m->bytes += n; m->acc++;
         mset_add_range(&m->addrs, a, n);
      }
      snprintf(ctx, sizeof ctx, "round %d before reset", round);
      verify_edges(1);
      ULong k0 = me[0].key;
      cp_edges_reset(&T);
      model_reset();
      snprintf(ctx, sizeof ctx, "round %d after reset", round);
      CHECK_EQ(cp_edges_count(&T), 0, "cp_edges_count after reset");
      for (unsigned i = 0; i < (1u << CP_ECACHE_BITS); i++)
         CHECK(T.cache[i].key != k0 || k0 == 0, "cache still names a dropped edge");
      /* the first key of the previous round comes back fresh */
      CpEdge* e = cp_edge_get(&T, (UInt)(k0 >> 32), (UInt)k0);
      CHECK(e->key == k0 && e->bytes == 0 && e->accesses == 0 && e->addrs.count == 0,
            "edge after reset not fresh");
      medge((UInt)(k0 >> 32), (UInt)k0);
      verify_edges(1);
   }
   teardown();
}

/* Creation order and accessors, deterministic. */
static void case_order(uintptr_t unused)
{
   (void)unused;
   setup();
   CHECK_EQ(cp_edges_count(&T), 0, "fresh count");
   struct { UInt p, c; } ks[] = { { 5, 1 }, { 0, 1 }, { 5, 2 }, { 0xFFFFFFFFu, 0xFFFFFFFFu },
                                  { 1, 5 }, { 0, 0xFFFFFFFFu }, { 2, 3 } };
   unsigned nk = sizeof ks / sizeof ks[0];
   for (unsigned i = 0; i < nk; i++) {
      switch (i % 3) {
      case 0: cp_edge_credit(&T, ks[i].p, ks[i].c, 0x1000 + i, 4); break;
      case 1: cp_edge_get(&T, ks[i].p, ks[i].c); break;
      default: cp_edge_lookup_slow(&T, cp_edge_key(ks[i].p, ks[i].c)); break;
      }
      MEdge* m = medge(ks[i].p, ks[i].c);
      if (i % 3 == 0) { m->bytes += 4; m->acc++; mset_add_range(&m->addrs, 0x1000 + i, 4); }
      /* touching older edges does not reorder or duplicate them */
      for (unsigned j = 0; j <= i; j++) cp_edge_get(&T, ks[j].p, ks[j].c);
      CHECK_EQ(cp_edges_count(&T), i + 1, "count after %u new edges", i + 1);
   }
   snprintf(ctx, sizeof ctx, "order");
   verify_edges(1);
   for (unsigned i = 0; i < nk; i++) {
      CpEdge* e = cp_edge_at(&T, i);
      CHECK(cp_edge_producer(e) == ks[i].p && cp_edge_consumer(e) == ks[i].c,
            "cp_edge_at(%u) is (%u,%u), expected (%u,%u)", i, cp_edge_producer(e),
            cp_edge_consumer(e), ks[i].p, ks[i].c);
   }
   teardown();
}

/* Reads roaming over hundreds of bitmaps: the bitmap cache grows from the
   set's 32 entries to a table of 256 after CP_BMBIG_AFTER misses, then to
   2048 (the set has enough bitmaps for it, not for 16384), keeps what the
   smaller one held, and the set stays exact across the switches.  Over
   thousands of bitmaps (edges/bm-cache-max) it goes on to 16384. */
static void case_bm_cache_big(uintptr_t many)
{
   setup();
   CpAddrSet s;
   U64Map m = { 0 };
   cp_addrset_init(&s);
   CHECK(s.bmc == s.bm, "a new set does not use its own bitmap cache");
   /* 600 bitmaps in 38 pages: the cache grows to 2^11 entries, and no more
      (2^14 entries would cost more than a quarter of 600 bitmaps); with
      many, 4000 bitmaps in 250 pages: it grows to 2^CP_BMBIG_MAX */
   const unsigned nbm = many ? 4000 : 600;
   const UInt final_bits = many ? CP_BMBIG_MAX : 11;
   Addr base = (Addr)rnd(1u << 20) << CP_BIG_BITS;
   unsigned ops = (many ? 32 : 8) * CP_BMBIG_AFTER * tc_scale, switched_at = 0;
   for (unsigned it = 0; it < ops; it++) {
      SizeT n = (SizeT)rnd_in(1, 16);
      Addr a = base + ((Addr)rnd(nbm) << CP_PAGE_BITS) + rnd(CP_PAGE_ADDRS - 16);
      snprintf(ctx, sizeof ctx, "op #%u add_small(0x%lx, %lu)", it, a, n);
      ULong got = cp_addrset_add_small(&s, a, n);
      ULong want = mset_add_range(&m, a, n);
      CHECK_EQ(got, want, "add_small return (%s)", ctx);
      CHECK_EQ(s.count, m.n, "count (%s)", ctx);
      if (!switched_at && s.bmc != s.bm) {
         switched_at = it + 1;
         CHECK_EQ(s.bm_shift, 64 - 8, "shift of the first big cache (%s)", ctx);
         /* the small cache's entries went to the big one (where two of them,
            or one and the bitmap of this access, share a slot, one wins) */
         for (UInt i = 0; i < (1u << CP_BMCACHE_BITS); i++)
            if (s.bm[i].key != (Addr)-1)
               CHECK(cp_addrset_bm_ent(&s, s.bm[i].key)->key != (Addr)-1,
                     "bitmap 0x%lx lost in the switch (%s)", s.bm[i].key, ctx);
      }
      if (chance(5)) probe_around(&s, &m, a, n, "set");
   }
   CHECK(switched_at != 0, "the cache never grew in %u operations", ops);
   CHECK(switched_at >= CP_BMBIG_AFTER, "the cache grew after %u operations", switched_at);
   CHECK_EQ(s.nbitmaps, nbm, "bitmaps of the set");
   CHECK_EQ(s.bm_shift, 64 - final_bits, "shift of the final cache");
   /* every entry of the big cache points at the bitmap of its key */
   for (UInt i = 0; i < (1u << (64 - s.bm_shift)); i++) {
      const CpBmCacheEnt* be = &s.bmc[i];
      if (be->key == (Addr)-1) continue;
      CHECK(cp_addrset_bm_ent(&s, be->key) == be, "entry %u holds key 0x%lx of another slot", i, be->key);
      CpBigPage* pg = cp_addrset_page(&s, be->key >> (CP_BIG_BITS - CP_PAGE_BITS));
      CHECK(be->page == pg && be->bits == pg->sub[be->key & (CP_SUBS - 1)],
            "entry %u (key 0x%lx) points at another bitmap", i, be->key);
   }
   verify_set(&s, &m, "set");
   cp_addrset_free(&s);
   CHECK(s.bmc == s.bm && s.count == 0, "a freed set keeps the big cache or addresses");
   u64map_free(&m);
   teardown();
}

/* Loads over full pages: a sub of a full page is cached like a bitmap (the
   next access to it hits the cache, whether the page cache holds its page
   or not), and a set read at random over many full pages grows its cache
   although it has no bitmap of its own.  The budget: entries of 24 bytes
   may cost a quarter of 512 bytes per sub, 640 * 512 / 4 = 81,920 bytes for
   40 pages (640 subs); the cache grows 8 times at a time from 2^5, and
   2^11 entries take 49,152 bytes while 2^14 would take 393,216: 2^11. */
static void case_full_cache(uintptr_t unused)
{
   (void)unused;
   setup();
   CpAddrSet s;
   U64Map m = { 0 };
   cp_addrset_init(&s);
   const unsigned npages = 40;
   Addr base = ((Addr)rnd(1u << 20) + 1) << CP_BIG_BITS;
   for (unsigned pg = 0; pg < npages; pg++) {
      Addr a = base + ((Addr)pg << CP_BIG_BITS);
      snprintf(ctx, sizeof ctx, "filling page %u", pg);
      CHECK_EQ(cp_addrset_add_range(&s, a, BIG_ADDRS), BIG_ADDRS, "add_range of a whole page");
      mset_add_range(&m, a, BIG_ADDRS);
   }
   CHECK_EQ(s.nbitmaps, 0, "bitmaps of a set of full pages");
   CHECK_EQ(s.nfull, npages * CP_SUBS, "subs of its full pages");
   CHECK(s.bmc == s.bm, "the cache grew while filling");
   unsigned ops = 12 * CP_BMBIG_AFTER * tc_scale;
   for (unsigned it = 0; it < ops; it++) {
      /* a page seen last (its page cache entry holds it) or any other */
      Addr pgb = chance(2) ? (s.cache_pn[rnd(CP_PCACHE)] << CP_BIG_BITS) : 0;
      if (pgb < base || pgb >= base + ((Addr)npages << CP_BIG_BITS))
         pgb = base + ((Addr)rnd(npages) << CP_BIG_BITS);
      SizeT n = (SizeT)rnd_in(1, 8);
      Addr a = pgb + rnd(BIG_ADDRS - 8);
      snprintf(ctx, sizeof ctx, "op #%u add_small(0x%lx, %lu)", it, a, n);
      CHECK_EQ(cp_addrset_add_small(&s, a, n), 0, "add_small in a full page (%s)", ctx);
      const CpBmCacheEnt* be = cp_addrset_bm_ent(&s, a >> CP_PAGE_BITS);
      CHECK(be->key == a >> CP_PAGE_BITS && be->bits == cp_addrset_full_bits,
            "the sub just read is not cached as the full bitmap (%s)", ctx);
   }
   snprintf(ctx, sizeof ctx, "after %u reads", ops);
   CHECK_EQ(s.bm_shift, 64 - 11, "shift of the final cache");
   verify_set(&s, &m, "set of full pages");
   cp_addrset_free(&s);
   CHECK(s.bmc == s.bm && s.nfull == 0, "a freed set keeps its big cache or full subs");
   u64map_free(&m);
   teardown();
}

/* Cuts [a, end) into pieces of 1 to 64 addresses, or (one in ten) 65 to
   big, appended to pa/pn from np; returns the new count. */
static unsigned cut_pieces(Addr a, Addr end, SizeT big, Addr* pa, SizeT* pn, unsigned np)
{
   while (a < end) {
      SizeT n = chance(10) ? (SizeT)rnd_in(65, big) : (SizeT)rnd_in(1, 64);
      if (n > end - a) n = (SizeT)(end - a);
      pa[np] = a;
      pn[np++] = n;
      a += n;
   }
   return np;
}

/* Puts the np pieces in random order. */
static void shuffle_pieces(Addr* pa, SizeT* pn, unsigned np)
{
   for (unsigned i = np - 1; i > 0; i--) {
      unsigned j = (unsigned)rnd(i + 1);
      Addr ta = pa[i]; pa[i] = pa[j]; pa[j] = ta;
      SizeT tn = pn[i]; pn[i] = pn[j]; pn[j] = tn;
   }
}

/* A buffer read whole whose ends are not those of a page (a heap block
   between others): each sub it covers entirely turns into the shared full
   bitmap as soon as its last address comes in, in a page that never fills;
   the subs at its ends keep a bitmap (or a run) of their own. */
static void case_full_subs(uintptr_t unused)
{
   (void)unused;
   setup();
   ULong live0 = cp_addrset_stats.bitmaps_live;
   CpAddrSet s;
   U64Map m = { 0 };
   cp_addrset_init(&s);
   /* [a0, a1): from inside a sub, over a page boundary, to inside a sub */
   Addr a0 = (((Addr)rnd(1u << 20) + 1) << CP_BIG_BITS) - (Addr)rnd_in(1, 5) * CP_PAGE_ADDRS
             + rnd_in(1, CP_PAGE_ADDRS - 1);
   Addr a1 = a0 + (Addr)rnd_in(6, 12) * CP_PAGE_ADDRS + rnd_in(1, CP_PAGE_ADDRS - 1);
   enum { MAXP = 13 * CP_PAGE_ADDRS };
   static Addr pa[MAXP];
   static SizeT pn[MAXP];
   unsigned np = cut_pieces(a0, a1, 3000, pa, pn, 0);
   shuffle_pieces(pa, pn, np);
   ULong filled0 = cp_addrset_stats.subs_filled;
   for (unsigned i = 0; i < np; i++) {
      snprintf(ctx, sizeof ctx, "piece #%u add(0x%lx, %lu)", i, pa[i], pn[i]);
      ULong got = pn[i] <= 64 && chance(2) ? cp_addrset_add_small(&s, pa[i], pn[i])
                                           : cp_addrset_add_range(&s, pa[i], pn[i]);
      CHECK_EQ(got, mset_add_range(&m, pa[i], pn[i]), "add return (%s)", ctx);
      if (chance(300)) verify_set(&s, &m, "filling set");
   }
   snprintf(ctx, sizeof ctx, "after filling [0x%lx, 0x%lx)", a0, a1);
   verify_set(&s, &m, "filled set");
   Addr f0 = (a0 + CP_PAGE_ADDRS - 1) & ~(CP_PAGE_ADDRS - 1), f1 = a1 & ~(CP_PAGE_ADDRS - 1);
   UInt inner = (UInt)((f1 - f0) >> CP_PAGE_BITS);
   CHECK_EQ(s.nfull, inner, "full subs (%s)", ctx);
   CHECK_EQ(cp_addrset_stats.subs_filled - filled0, inner, "subs filled (%s)", ctx);
   CHECK(s.nbitmaps <= 2, "%u bitmaps of its own for the two ends (%s)", s.nbitmaps, ctx);
   for (Addr b = f0; b < f1; b += CP_PAGE_ADDRS) {
      CpBigPage* p = cp_addrset_page(&s, b >> CP_BIG_BITS);
      CHECK(p->sub[(b >> CP_PAGE_BITS) & (CP_SUBS - 1)] == cp_addrset_full_bits,
            "sub at 0x%lx is not the full bitmap (%s)", b, ctx);
      CHECK_EQ(cp_addrset_add_small(&s, b + rnd(CP_PAGE_ADDRS - 8), 8), 0, "add in a full sub (%s)", ctx);
   }
   cp_addrset_free(&s);
   CHECK_EQ(cp_addrset_stats.bitmaps_live, live0, "bitmaps live after freeing the set");
   u64map_free(&m);
   teardown();
}

/* Pages filled by small and ranged adds in random order and by unions;
   their bitmaps give way to the shared full one. */
static void case_full_pages(uintptr_t unused)
{
   (void)unused;
   setup();
   ULong live0 = cp_addrset_stats.bitmaps_live;
   CpAddrSet s, u;
   U64Map m = { 0 }, mu = { 0 };
   cp_addrset_init(&s);
   cp_addrset_init(&u);
   const unsigned npages = 3;
   Addr base = ((Addr)rnd(1u << 20) + 1) << CP_BIG_BITS;
   /* the pieces of each page: runs of 1 to 64 addresses, or up to 5000 */
   enum { MAXP = 3 * BIG_ADDRS };
   static Addr pa[MAXP];
   static SizeT pn[MAXP];
   unsigned np = 0;
   for (unsigned pg = 0; pg < npages; pg++) {
      Addr a = base + ((Addr)pg << CP_BIG_BITS);
      np = cut_pieces(a, a + BIG_ADDRS, 5000, pa, pn, np);
   }
   shuffle_pieces(pa, pn, np);
   ULong filled0 = cp_addrset_stats.subs_filled;
   for (unsigned i = 0; i < np; i++) {
      Addr a = pa[i];
      SizeT n = pn[i];
      snprintf(ctx, sizeof ctx, "piece #%u add(0x%lx, %lu)", i, a, n);
      /* half of the pieces also (partly) go to u, filled later by union */
      if (chance(2)) {
         cp_addrset_add_range(&u, a, n);
         mset_add_range(&mu, a, n);
      }
      ULong got = n <= 64 && chance(2) ? cp_addrset_add_small(&s, a, n) : cp_addrset_add_range(&s, a, n);
      ULong want = mset_add_range(&m, a, n);
      CHECK_EQ(got, want, "add return (%s)", ctx);
      if (chance(3)) {                                       /* again, and elsewhere */
         CHECK_EQ(cp_addrset_add_small(&s, a, n < 64 ? n : 64), 0, "add again (%s)", ctx);
         Addr b = base - CP_PAGE_ADDRS + rnd(3 * CP_PAGE_ADDRS);
         CHECK_EQ(cp_addrset_add_small(&s, b, 8), mset_add_range(&m, b, 8), "add nearby (%s)", ctx);
      }
      if (chance(500)) verify_set(&s, &m, "filling set");
   }
   snprintf(ctx, sizeof ctx, "after filling");
   verify_set(&s, &m, "filled set");
   CHECK_EQ(cp_addrset_stats.subs_filled - filled0, s.nfull, "subs filled");
   CHECK(s.nfull >= npages * CP_SUBS, "%u full subs for %u full pages", s.nfull, npages);
   for (unsigned pg = 0; pg < npages; pg++) {
      Addr a = base + ((Addr)pg << CP_BIG_BITS);
      CpBigPage* p = cp_addrset_page(&s, a >> CP_BIG_BITS);
      for (UInt k = 0; k < CP_SUBS; k++) {
         CHECK_EQ(p->nset[k], CP_PAGE_ADDRS, "page %u sub %u nset", pg, k);
         CHECK(p->sub[k] == cp_addrset_full_bits, "page %u sub %u is not the full bitmap", pg, k);
         const CpBmCacheEnt* be = cp_addrset_bm_ent(&s, (a >> CP_PAGE_BITS) + k);
         if (be->key == (a >> CP_PAGE_BITS) + k)
            CHECK(be->bits == cp_addrset_full_bits, "page %u: cached bitmap %u is not the full one", pg, k);
      }
      for (unsigned t = 0; t < 200; t++) {                   /* nothing new there */
         Addr b = a + rnd(BIG_ADDRS - 64);
         SizeT n = (SizeT)rnd_in(1, 64);
         CHECK_EQ(cp_addrset_add_small(&s, b, n), 0, "add_small(0x%lx, %lu) in a full page", b, n);
         CHECK(cp_addrset_contains(&s, b), "full page lacks 0x%lx", b);
      }
      CHECK_EQ(cp_addrset_add_range(&s, a - 10, BIG_ADDRS + 20), mset_add_range(&m, a - 10, BIG_ADDRS + 20),
               "add_range over full page %u", pg);
   }
   verify_set(&s, &m, "set with full pages");
   snprintf(ctx, sizeof ctx, "union");
   /* u gets the rest of its pages from s: full pages by union */
   CHECK_EQ(cp_addrset_union(&u, &s), m.n - mu.n, "union into the half set (its addresses are some of s)");
   verify_set(&u, &m, "union of full pages");
   CpAddrSet v;
   cp_addrset_init(&v);
   CHECK_EQ(cp_addrset_union(&v, &u), m.n, "union into an empty set");
   verify_set(&v, &m, "copy of full pages");
   cp_addrset_free(&v);
   cp_addrset_free(&u);
   cp_addrset_free(&s);
   CHECK_EQ(cp_addrset_stats.bitmaps_live, live0, "bitmaps live after freeing the sets");
   u64map_free(&m);
   u64map_free(&mu);
   teardown();
}

/* Sparse sets keep runs, not bitmaps: one element (two 8-byte reads) per
   sub of 4 Ki addresses, as a transform reads the few elements that another
   function wrote.  A sub becomes a bitmap, cached for the fast path, on its
   CP_RUN_ACCESSES-th access or on an access off its run; a union of runs
   makes runs. */
static void case_sparse_runs(uintptr_t unused)
{
   (void)unused;
   setup();
   ULong live0 = cp_addrset_stats.bitmaps_live;
   CpAddrSet s, u;
   U64Map m = { 0 };
   cp_addrset_init(&s);
   cp_addrset_init(&u);
   const unsigned nsubs = 200;
   Addr base = ((Addr)rnd(1u << 20) + 1) << CP_BIG_BITS;
   static UInt at[200];
   for (unsigned k = 0; k < nsubs; k++) {
      at[k] = (UInt)rnd(CP_PAGE_ADDRS / 16) * 16;            /* an aligned 16-byte element */
      Addr a = base + ((Addr)k << CP_PAGE_BITS) + at[k];
      snprintf(ctx, sizeof ctx, "element %u at 0x%lx", k, a);
      CHECK_EQ(cp_addrset_add_small(&s, a, 8), mset_add_range(&m, a, 8), "re (%s)", ctx);
      CHECK_EQ(cp_addrset_add_small(&s, a + 8, 8), mset_add_range(&m, a + 8, 8), "im (%s)", ctx);
   }
   snprintf(ctx, sizeof ctx, "sparse");
   verify_set(&s, &m, "sparse set");
   CHECK_EQ(s.nbitmaps, 0, "bitmaps of a set of one element a sub");
   CHECK_EQ(cp_addrset_stats.bitmaps_live, live0, "bitmaps live with runs only");
   CHECK_EQ(s.count, 16ULL * nsubs, "addresses of the sparse set");

   /* a union of runs is runs */
   CHECK_EQ(cp_addrset_union(&u, &s), 16ULL * nsubs, "union into an empty set");
   verify_set(&u, &m, "union of runs");
   CHECK_EQ(u.nbitmaps, 0, "bitmaps of a union of runs");

   /* sub 0: reads of the element again; the CP_RUN_ACCESSES-th access (2 so
      far) makes the bitmap, which is then cached */
   Addr a0 = base + at[0];
   for (unsigned i = 2; i + 1 < CP_RUN_ACCESSES; i++) {
      snprintf(ctx, sizeof ctx, "access %u of sub 0", i + 1);
      CHECK_EQ(cp_addrset_add_small(&s, a0 + (i & 1) * 8, 8), 0, "read again (%s)", ctx);
      CHECK_EQ(s.nbitmaps, 0, "bitmaps (%s)", ctx);
   }
   snprintf(ctx, sizeof ctx, "access %u of sub 0", CP_RUN_ACCESSES);
   CHECK_EQ(cp_addrset_add_small(&s, a0, 8), 0, "read again (%s)", ctx);
   CHECK_EQ(s.nbitmaps, 1, "bitmaps (%s)", ctx);
   const CpBmCacheEnt* be = cp_addrset_bm_ent(&s, a0 >> CP_PAGE_BITS);
   CHECK(be->key == a0 >> CP_PAGE_BITS && !cp_sub_is_run(be->bits), "sub 0's bitmap is not cached (%s)", ctx);
   verify_set(&s, &m, "sub 0 a bitmap");

   /* sub 1: the next element, then the one before: the run grows both ways */
   Addr a1 = base + CP_PAGE_ADDRS + at[1];
   snprintf(ctx, sizeof ctx, "sub 1 grows");
   if (at[1] + 32 <= CP_PAGE_ADDRS)
      CHECK_EQ(cp_addrset_add_range(&s, a1 + 16, 16), mset_add_range(&m, a1 + 16, 16), "after (%s)", ctx);
   if (at[1] >= 16)
      CHECK_EQ(cp_addrset_add_small(&s, a1 - 16, 24), mset_add_range(&m, a1 - 16, 24), "before (%s)", ctx);
   CHECK_EQ(s.nbitmaps, 1, "bitmaps (%s)", ctx);
   verify_set(&s, &m, "sub 1 grown");

   /* sub 2: an access off the run makes a bitmap at once */
   Addr a2 = base + 2 * CP_PAGE_ADDRS + ((at[2] + CP_PAGE_ADDRS / 2) & (CP_PAGE_ADDRS - 1));
   snprintf(ctx, sizeof ctx, "sub 2 off the run");
   CHECK_EQ(cp_addrset_add_small(&s, a2, 4), mset_add_range(&m, a2, 4), "off the run (%s)", ctx);
   CHECK_EQ(s.nbitmaps, 2, "bitmaps (%s)", ctx);
   verify_set(&s, &m, "sub 2 a bitmap");
   probe_around(&s, &m, a2, 4, "sub 2");

   /* a union of bitmaps into runs makes bitmaps of them; u's other subs stay runs */
   snprintf(ctx, sizeof ctx, "union into runs");
   CHECK_EQ(cp_addrset_union(&u, &s), m.n - 16ULL * nsubs, "union into the runs");
   verify_set(&u, &m, "union of bitmaps into runs");
   CHECK_EQ(u.nbitmaps, 2, "bitmaps of the union");

   /* a whole sub by add_range is the full bitmap at once (a run of all its
      addresses fills it); the page fills with runs and bitmaps in it */
   snprintf(ctx, sizeof ctx, "fill page 0");
   for (unsigned k = 0; k < CP_SUBS; k++) {
      Addr a = base + ((Addr)k << CP_PAGE_BITS);
      CHECK_EQ(cp_addrset_add_range(&s, a, CP_PAGE_ADDRS), mset_add_range(&m, a, CP_PAGE_ADDRS),
               "sub %u whole (%s)", k, ctx);
   }
   verify_set(&s, &m, "page 0 full");
   for (unsigned k = 0; k < CP_SUBS; k++)
      CHECK(cp_addrset_page(&s, base >> CP_BIG_BITS)->sub[k] == cp_addrset_full_bits,
            "page 0 sub %u is not the full bitmap", k);
   cp_addrset_free(&u);
   cp_addrset_free(&s);
   CHECK_EQ(cp_addrset_stats.bitmaps_live, live0, "bitmaps live after freeing the sets");
   u64map_free(&m);
   teardown();
}

int main(int argc, char** argv)
{
   tc_env();
   tc_add("edges/credit-random",   case_credit_random,   0, 60);
   tc_add("edges/credit-small",    case_credit_random,   1, 60);
   tc_add("edges/add-small",       case_add_small,       0, 60);
   tc_add("edges/add-range",       case_add_range,       0, 60);
   tc_add("edges/wrap-top",        case_wrap_top,        0, 20);
   tc_add("edges/union",           case_union,           0, 60);
   tc_add("edges/many-edges",      case_many_edges,      0, 60);
   tc_add("edges/cache-collision", case_cache_collision, 0, 60);
   tc_add("edges/bm-cache-big",    case_bm_cache_big,    0, 60);
   tc_add("edges/bm-cache-max",    case_bm_cache_big,    1, 60);
   tc_add("edges/full-pages",      case_full_pages,      0, 60);
   tc_add("edges/full-subs",       case_full_subs,       0, 60);
   tc_add("edges/full-cache",      case_full_cache,      0, 60);
   tc_add("edges/sparse-runs",     case_sparse_runs,     0, 20);
   tc_add("edges/reset",           case_reset,           0, 60);
   tc_add("edges/order",           case_order,           0, 20);
   return tc_run_all("test_edges", argc, argv);
}
