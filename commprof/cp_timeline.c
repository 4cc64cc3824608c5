/* commprof: time slices (see cp_timeline.h).
 *
 * Slices are measured in instructions (cp_clock, which counts only while
 * collecting).  Per node the module keeps the value of its cumulative
 * counters at the start of the slice; closing a slice records the
 * differences of every node that did something.  cp_clock advances at the
 * end of each straight-line run of code, and slices are closed by the next
 * memory access, so a slice boundary is exact to within one basic block. */

#include "cp_global.h"
#include "cp_timeline.h"
#include "cp_nodes.h"
#include "cp_callstack.h"
#include "cp_options.h"

ULong cp_slice_end = ~0ULL;
Bool  cp_clo_time_slices;

typedef struct { ULong instrs, bytes_read, bytes_written, comm_in; } Snap;

static Snap*       snaps;          /* by node id */
static UInt        snaps_cap;
static CpSliceRec* recs;
static UInt        n_recs, recs_cap;

void cp_timeline_init(void)
{
   cp_clo_time_slices = cp_clo.time_slice != 0;
   cp_slice_end = cp_clo_time_slices ? cp_clo.time_slice : ~0ULL;
}

static void grow_snaps(void)
{
   if (cp_n_nodes <= snaps_cap) return;
   UInt ncap = snaps_cap ? snaps_cap : 256;
   while (ncap < cp_n_nodes) ncap *= 2;
   snaps = VG_(realloc)("cp.tl.snaps", snaps, ncap * sizeof(Snap));
   VG_(memset)(snaps + snaps_cap, 0, (ncap - snaps_cap) * sizeof(Snap));
   snaps_cap = ncap;
}

/* Append the differences since the snapshots as slice s; if commit, move
   the snapshots forward. */
static void record_slice(UInt s, Bool commit, CpSliceRec** out, UInt* n, UInt* cap)
{
   grow_snaps();
   for (UInt i = 0; i < cp_n_nodes; i++) {
      const CpNode* nd = cp_nodes[i];
      Snap* sp = &snaps[i];
      if (nd->instrs == sp->instrs && nd->bytes_read == sp->bytes_read
          && nd->bytes_written == sp->bytes_written && nd->comm_in == sp->comm_in)
         continue;
      if (*n == *cap) {
         *cap = *cap ? *cap * 2 : 1024;
         *out = VG_(realloc)("cp.tl.recs", *out, *cap * sizeof(CpSliceRec));
      }
      CpSliceRec* r = &(*out)[(*n)++];
      r->slice = s;
      r->node = i;
      r->instrs = nd->instrs - sp->instrs;
      r->bytes_read = nd->bytes_read - sp->bytes_read;
      r->bytes_written = nd->bytes_written - sp->bytes_written;
      r->comm_in = nd->comm_in - sp->comm_in;
      if (commit) {
         sp->instrs = nd->instrs;
         sp->bytes_read = nd->bytes_read;
         sp->bytes_written = nd->bytes_written;
         sp->comm_in = nd->comm_in;
      }
   }
}

void cp_timeline_close_slices(void)
{
   if (!cp_clo_time_slices) return;
   /* everything since the last close belongs to the slice that just ended;
      slices with nothing recorded leave no record */
   UInt s = (UInt)(cp_slice_end / cp_clo.time_slice) - 1;
   record_slice(s, True, &recs, &n_recs, &recs_cap);
   cp_slice_end = (cp_clock / cp_clo.time_slice + 1) * cp_clo.time_slice;
}

CpSliceRec* cp_timeline_records(UInt* n)
{
   UInt cap = n_recs + 64;
   CpSliceRec* out = VG_(malloc)("cp.tl.out", cap * sizeof(CpSliceRec));
   if (n_recs) VG_(memcpy)(out, recs, n_recs * sizeof(CpSliceRec));
   *n = n_recs;
   if (cp_clo_time_slices)
      record_slice((UInt)(cp_slice_end / cp_clo.time_slice) - 1, False, &out, n, &cap);
   return out;
}

void cp_timeline_reset(void)
{
   n_recs = 0;
   VG_(memset)(snaps, 0, snaps_cap * sizeof(Snap));
   if (cp_clo_time_slices) cp_slice_end = (cp_clock / cp_clo.time_slice + 1) * cp_clo.time_slice;
}
