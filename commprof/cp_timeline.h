/* commprof: time slices (--time-slice) and the phases found in them. */
#ifndef CP_TIMELINE_H
#define CP_TIMELINE_H

#include "pub_tool_basics.h"

/* cp_clock value at which the current slice ends; ~0 when slicing is off.
   The access helpers close slices when cp_clock has passed it. */
extern ULong cp_slice_end;
extern Bool  cp_clo_time_slices;

typedef struct {
   UInt  slice;                /* index: instructions [slice*N, (slice+1)*N) */
   UInt  node;
   ULong instrs, bytes_read, bytes_written, comm_in;
} CpSliceRec;

void cp_timeline_init(void);
void cp_timeline_close_slices(void);
/* The records so far plus those of the slice in progress (not kept), for a
   report; *n is set to their number.  Free with VG_(free). */
CpSliceRec* cp_timeline_records(UInt* n);
/* Forked child: start afresh. */
void cp_timeline_reset(void);

#endif
