/* commprof: per-call data (--per-call=yes), MCProf's third engine.
 *
 * Every call of a selected function (--per-call-fns) gets a sequence number
 * and its call path, and collects, for everything executed until it returns
 * (its callees included), the bytes it consumed per producer and, with
 * --objects=yes, per object the bytes read and written and a spatial
 * locality score.  Calls whose numbers are all identical are aggregated into
 * one record with a count, so memory grows with the number of distinct
 * calls, bounded by --per-call-max. */
#ifndef CP_PERCALL_H
#define CP_PERCALL_H

#include "pub_tool_basics.h"

extern Bool cp_clo_per_call;
/* The running thread has a call in progress. */
extern Bool cp_percall_active;

typedef struct { UInt id; ULong bytes; } CpPcProducer;
typedef struct {
   UInt  object;
   ULong read_bytes, written_bytes;
   ULong accesses;
   ULong locality_sum;      /* sum over accesses of 1e6 / stride (stride >= 1, in elements) */
   Addr  last;              /* address of the previous access */
} CpPcObject;

typedef struct {
   UInt          node;          /* the function */
   ULong         first_seq, last_seq, count;
   UInt*         path;          /* callers, innermost first */
   UInt          n_path;
   CpPcProducer* producers;     /* bytes consumed, by producer node */
   UInt          n_producers;
   CpPcObject*   objects;
   UInt          n_objects;
} CpPcRecord;

void cp_percall_init(void);
/* The function node entered; path: the node ids of the frames below it. */
void cp_percall_enter(UInt thread, UInt node, const UInt* path, UInt n_path);
/* The call on top of thread's stack of calls returned. */
void cp_percall_leave(UInt thread);
/* The running thread changed: publish cp_percall_active. */
void cp_percall_switch(UInt thread);
/* Accesses while a call is in progress. */
void cp_percall_load(UInt producer_node, SizeT n);
/* n bytes at a of object read or written; access: they are an access of
   their own (False: more pieces of an instruction's access, cp_access.c). */
void cp_percall_object(UInt object, Addr a, SizeT n, Bool is_write, Bool access);

/* The thread left a stack for another (swapcontext): its calls in
   progress, all on the stack left, are put away (NULL: there are none)
   until it returns to that stack and cp_percall_unstash puts them back on
   top of its calls (for the running thread, cp_percall_switch then publishes
   cp_percall_active); cp_percall_stash_free forgets them. */
struct CpPcStash* cp_percall_stash(UInt thread);
void cp_percall_unstash(UInt thread, struct CpPcStash* s);
void cp_percall_stash_free(struct CpPcStash* s);

/* In a forked child: only its own calls. */
void cp_percall_after_fork(void);

/* Records for a report (the calls that have returned). */
const CpPcRecord* cp_percall_records(UInt* n);
ULong cp_percall_dropped(void);

#endif
