/* commprof.h: client requests for programs profiled with commprof, the
 * Valgrind tool that measures data communication between functions.
 *
 * Include it in your program and use the macros below.  Natively, or under
 * another Valgrind tool, every request is a no-op costing a few instructions;
 * compiled with -DNVALGRIND no code is generated at all.
 *
 * The header is installed beside valgrind.h (usually /usr/include/valgrind),
 * so `#include <valgrind/commprof.h>` works as well as `#include "commprof.h"`.
 *
 * Names passed to the requests are NUL-terminated strings of at most 255
 * bytes (longer ones are cut); they are copied, so they may be temporary.
 */
#ifndef COMMPROF_H
#define COMMPROF_H

#include "valgrind.h"

typedef enum {
   VG_USERREQ__COMMPROF_DUMP_PROFILE = VG_USERREQ_TOOL_BASE('C', 'P'),
   VG_USERREQ__COMMPROF_START,
   VG_USERREQ__COMMPROF_STOP,
   VG_USERREQ__COMMPROF_REGION_BEGIN,
   VG_USERREQ__COMMPROF_REGION_END,
   VG_USERREQ__COMMPROF_PHASE,
   VG_USERREQ__COMMPROF_NAME_OBJECT,
   VG_USERREQ__COMMPROF_RUNNING
} Vg_CommprofClientRequest;

/* Write the profile files now, as if the program were exiting (they are
   written again, complete, at the real exit; use %n in the file names to
   keep every write). */
#define COMMPROF_DUMP_PROFILE()                                            \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__COMMPROF_DUMP_PROFILE,      \
                                   0, 0, 0, 0, 0)

/* Start and stop collecting.  While collection is stopped nothing is counted
   (no instructions, bytes, calls or edges), but the producer of every byte
   written is still recorded, so data written while stopped and read after
   a start is attributed to the function that wrote it.  With
   --collect-atstart=no collection starts stopped. */
#define COMMPROF_START()                                                   \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__COMMPROF_START,             \
                                   0, 0, 0, 0, 0)
#define COMMPROF_STOP()                                                    \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__COMMPROF_STOP,              \
                                   0, 0, 0, 0, 0)

/* A named code region: everything the calling thread executes between
   BEGIN and the matching END, in any function, is charged to a node named
   `name` (kind "region") instead of to the functions.  Regions nest (the
   innermost one is charged) and may begin in one function and end in
   another. */
#define COMMPROF_REGION_BEGIN(name)                                        \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__COMMPROF_REGION_BEGIN,      \
                                   (name), 0, 0, 0, 0)
#define COMMPROF_REGION_END(name)                                          \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__COMMPROF_REGION_END,        \
                                   (name), 0, 0, 0, 0)

/* A phase mark (for example one per video frame): a new phase named `name`
   begins.  Every edge is also reported per phase, with the phase in which
   its bytes were produced and the one in which they were read, so data
   produced in frame 1 and read in frame 2 shows as such. */
#define COMMPROF_PHASE(name)                                               \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__COMMPROF_PHASE,             \
                                   (name), 0, 0, 0, 0)

/* With --objects=yes: report the `size` bytes at `addr` (a heap block, part
   of one, or any other memory) as a data object named `name`, instead of
   the object they would belong to otherwise. */
#define COMMPROF_NAME_OBJECT(addr, size, name)                             \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__COMMPROF_NAME_OBJECT,       \
                                   (addr), (size), (name), 0, 0)

/* 1 when running under commprof, 0 otherwise. */
#define RUNNING_ON_COMMPROF                                                \
   ((unsigned)VALGRIND_DO_CLIENT_REQUEST_EXPR(0, VG_USERREQ__COMMPROF_RUNNING, \
                                              0, 0, 0, 0, 0))

#endif /* COMMPROF_H */
