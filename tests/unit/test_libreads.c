/* commprof unit test: what one library call has read (commprof/cp_libreads.c).
 *
 *   gcc -O2 -g -DCP_HOST_TEST -I commprof tests/unit/test_libreads.c commprof/cp_libreads.c
 *
 * Reference model: the exact set of bytes the current call has read and
 * nothing has written since (a byte array over a small window of addresses,
 * cleared when a new call starts).
 *
 * What is asserted, after every operation of random sequences of reads
 * (1..64 bytes), writes (1..80 bytes) and new calls:
 *   - a read's mask of new bytes contains every byte the model has not seen
 *     (a byte is never lost: the ranges may forget, never invent);
 *   - the ranges are well formed: at most CP_LIBREADS_MAX, each non-empty,
 *     disjoint and not adjacent, and every byte in them is one the model
 *     holds;
 *   - while the model's set has never had more than CP_LIBREADS_MAX maximal
 *     runs since the call started, the mask is exactly the model's new bytes
 *     and the ranges are exactly its runs (libreads/exact-* keep to few
 *     runs; libreads/random-* roam and also check the first two points);
 *   - libreads/scan-copy: a scan of a string byte by byte, then a copy of it
 *     in words, then a scan again, counts each byte once per call; a new call
 *     counts them again; a write in the middle makes only the written bytes
 *     count again;
 *   - libreads/top: a read that reaches the top of the address space counts
 *     in full and is not kept.
 */
#include "refmodel.h"
#include "cp_libreads.h"

#include <stdio.h>
#include <string.h>

#define WIN 512                       /* the window the random cases use */
static const Addr BASE = 0x7fff0000UL;

static CpLibReads R;
static unsigned char seen[WIN];      /* the model */
static int exact;                    /* the model has stayed within CP_LIBREADS_MAX runs */

static unsigned model_runs(void)
{
   unsigned n = 0;
   for (unsigned i = 0; i < WIN; i++)
      if (seen[i] && (i == 0 || !seen[i - 1])) n++;
   return n;
}

static void new_call(void)
{
   R.call++;
   memset(seen, 0, sizeof seen);
   exact = 1;
}

static void check_ranges(void)
{
   if (R.ranges_call != R.call) return;        /* stale: the next read clears them */
   CHECK(R.n <= CP_LIBREADS_MAX, "%u ranges", R.n);
   unsigned in_ranges = 0;
   for (unsigned i = 0; i < R.n; i++) {
      CHECK(R.lo[i] < R.hi[i], "range %u empty [%lx, %lx)", i, R.lo[i], R.hi[i]);
      CHECK(R.lo[i] >= BASE && R.hi[i] <= BASE + WIN, "range %u outside the window", i);
      for (unsigned j = 0; j < R.n; j++)
         if (j != i)
            CHECK(R.hi[i] < R.lo[j] || R.hi[j] < R.lo[i],
                  "ranges %u [%lx, %lx) and %u [%lx, %lx) meet", i, R.lo[i], R.hi[i], j,
                  R.lo[j], R.hi[j]);
      for (Addr b = R.lo[i]; b < R.hi[i]; b++) {
         CHECK(seen[b - BASE], "range %u holds byte %lx, which the call has not read", i, b);
         in_ranges++;
      }
   }
   if (exact) {
      unsigned total = 0;
      for (unsigned i = 0; i < WIN; i++) total += seen[i];
      CHECK(in_ranges == total, "ranges hold %u bytes, the model %u", in_ranges, total);
   }
}

static void do_read(Addr off, unsigned sz)
{
   ULong want = 0;
   for (unsigned i = 0; i < sz; i++)
      if (!seen[off + i]) want |= 1ULL << i;
   ULong got = cp_libreads_load(&R, BASE + off, sz);
   CHECK((got & want) == want, "read %u at +%lu: new bytes %llx, expected at least %llx",
         sz, (unsigned long)off, (unsigned long long)got, (unsigned long long)want);
   if (exact)
      CHECK(got == want, "read %u at +%lu: new bytes %llx, expected %llx", sz,
            (unsigned long)off, (unsigned long long)got, (unsigned long long)want);
   memset(seen + off, 1, sz);
   if (model_runs() > CP_LIBREADS_MAX) exact = 0;
   check_ranges();
}

static void do_write(Addr off, unsigned sz)
{
   cp_libreads_store(&R, BASE + off, sz);
   memset(seen + off, 0, sz);
   /* a write in the middle of a run, with every slot taken, forgets the
      run's upper part: the model may then hold more than the ranges */
   if (model_runs() > CP_LIBREADS_MAX) exact = 0;
   check_ranges();
}

/* arg: the largest offset of a read or write start, in bytes; a small one
   keeps the bytes in few runs */
static void case_random(uintptr_t spread)
{
   memset(&R, 0, sizeof R);
   new_call();
   unsigned ops = 20000 * tc_scale;
   for (unsigned k = 0; k < ops; k++) {
      unsigned r = (unsigned)rnd(100);
      if (r < 2) {
         new_call();
         continue;
      }
      if (r < 75) {
         unsigned sz = chance(50) ? 1u << rnd(4) : (unsigned)rnd_in(1, 64);
         Addr off = rnd(spread);
         if (off + sz > WIN) off = WIN - sz;
         /* scans: the next read often follows the last */
         do_read(off, sz);
      } else {
         unsigned sz = (unsigned)rnd_in(1, 80);
         Addr off = rnd(spread);
         if (off + sz > WIN) off = WIN - sz;
         do_write(off, sz);
      }
   }
}

/* reads and writes that stay in one or two runs: always exact */
static void case_exact_scans(uintptr_t arg)
{
   (void)arg;
   memset(&R, 0, sizeof R);
   new_call();
   unsigned ops = 5000 * tc_scale;
   Addr pos[2] = { 0, 256 };
   for (unsigned k = 0; k < ops; k++) {
      unsigned s = (unsigned)rnd(2);
      unsigned sz = (unsigned)rnd_in(1, 16);
      if (pos[s] + sz > (s ? WIN : 240)) {
         pos[s] = s ? 256 : 0;
         if (chance(30)) new_call();
      }
      if (chance(10))
         do_read(s ? 256 : 0, (unsigned)rnd_in(1, 8));   /* back to the start: seen */
      do_read(pos[s], sz);
      pos[s] += sz;
      CHECK(exact, "the model left few runs");
   }
}

static void case_scan_copy(uintptr_t arg)
{
   (void)arg;
   memset(&R, 0, sizeof R);
   R.call = 1;
   Addr s = 0x601040;                     /* a 13-byte string */
   unsigned n = 0;
   for (unsigned i = 0; i < 13; i++) n += (unsigned)__builtin_popcountll(cp_libreads_load(&R, s + i, 1));
   CHECK(n == 13, "the scan counted %u bytes", n);
   n = 0;
   n += (unsigned)__builtin_popcountll(cp_libreads_load(&R, s, 8));
   n += (unsigned)__builtin_popcountll(cp_libreads_load(&R, s + 8, 4));
   n += (unsigned)__builtin_popcountll(cp_libreads_load(&R, s + 12, 1));
   CHECK(n == 0, "the copy counted %u bytes", n);
   ULong m = cp_libreads_load(&R, s + 10, 8);          /* 3 seen, 5 new */
   CHECK(m == 0xf8, "overlapping read: mask %llx", (unsigned long long)m);
   cp_libreads_store(&R, s + 4, 2);
   m = cp_libreads_load(&R, s, 8);
   CHECK(m == 0x30, "after a write in the middle: mask %llx", (unsigned long long)m);
   CHECK(R.n == 1 && R.lo[0] == s && R.hi[0] == s + 18, "one range [s, s+18): %u [%lx, %lx)",
         R.n, R.lo[0], R.hi[0]);
   m = cp_libreads_load(&R, s - 8, 8);                 /* adjacent below: merged */
   CHECK(m == 0xff && R.n == 1 && R.lo[0] == s - 8, "read below: mask %llx, %u ranges",
         (unsigned long long)m, R.n);
   R.call++;                                          /* the next call */
   m = cp_libreads_load(&R, s, 8);
   CHECK(m == 0xff && R.n == 1, "a new call counts again: mask %llx", (unsigned long long)m);
   CHECK(cp_libreads_any(&R), "the call has ranges");
   R.call++;
   CHECK(!cp_libreads_any(&R), "the next call has none yet");
   cp_libreads_store(&R, s, 8);                        /* stale ranges: no cut needed */
   m = cp_libreads_load(&R, s, 8);
   CHECK(m == 0xff, "mask %llx", (unsigned long long)m);
   /* five scattered strings: the oldest is forgotten, the others kept */
   for (unsigned i = 0; i < 5; i++) cp_libreads_load(&R, 0x1000 * (i + 1), 4);
   CHECK(R.n == CP_LIBREADS_MAX, "%u ranges", R.n);
   CHECK(cp_libreads_load(&R, 0x1000, 4) == 0xf, "the oldest range counts again");
   CHECK(cp_libreads_load(&R, 0x5000, 4) == 0, "the newest is kept");
   /* a write in the middle of a range while four are kept: its two parts are
      as recent as it was, and the oldest range goes (not the upper part) */
   R.call++;
   for (unsigned i = 0; i < 4; i++) cp_libreads_load(&R, 0x1000 * (i + 1), 8);  /* 0x4000 newest */
   cp_libreads_store(&R, 0x3002, 2);                  /* the middle of the second oldest */
   CHECK(R.n == CP_LIBREADS_MAX, "%u ranges", R.n);
   CHECK(cp_libreads_load(&R, 0x3000, 8) == 0x0c, "only the bytes written count again: mask %llx",
         (unsigned long long)cp_libreads_load(&R, 0x3000, 8));
   CHECK(cp_libreads_load(&R, 0x4000, 8) == 0, "the newest is kept");
   CHECK(cp_libreads_load(&R, 0x2000, 8) == 0, "the second newest is kept");
   CHECK(cp_libreads_load(&R, 0x1000, 8) == 0xff, "the oldest counts again");
}

static void case_top(uintptr_t arg)
{
   (void)arg;
   memset(&R, 0, sizeof R);
   Addr a = ~(Addr)0 - 3;                  /* the last 4 bytes */
   CHECK(cp_libreads_load(&R, a, 4) == 0xf, "first read");
   CHECK(cp_libreads_load(&R, a, 4) == 0xf, "the top is not kept");
   CHECK(R.n == 0, "%u ranges", R.n);
   cp_libreads_load(&R, a - 8, 8);
   cp_libreads_store(&R, a - 4, 100);      /* a write that wraps: cut to the top */
   CHECK(R.n == 1 && R.hi[0] == a - 4, "%u ranges, hi %lx", R.n, R.hi[0]);
}

int main(int argc, char** argv)
{
   tc_env();
   tc_add("libreads/scan-copy",     case_scan_copy,   0,   20);
   tc_add("libreads/top",           case_top,         0,   20);
   tc_add("libreads/exact-scans",   case_exact_scans, 0,   60);
   tc_add("libreads/random-narrow", case_random,      48,  60);
   tc_add("libreads/random-wide",   case_random,      WIN, 60);
   return tc_run_all("test_libreads", argc, argv);
}
