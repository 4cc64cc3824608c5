/* commprof.h: client requests for programs profiled with commprof, the
 * Valgrind tool that measures data communication between functions.
 *
 * Include it in your program and use the macros below.  Natively, or under
 * another Valgrind tool, every request is a no-op costing a few instructions;
 * compiled with -DNVALGRIND no code is generated at all.
 *
 * The header is installed beside valgrind.h (usually /usr/include/valgrind),
 * so `#include <valgrind/commprof.h>` works as well as `#include "commprof.h"`.
 */
#ifndef COMMPROF_H
#define COMMPROF_H

#include "valgrind.h"

typedef enum {
   VG_USERREQ__COMMPROF_DUMP_PROFILE = VG_USERREQ_TOOL_BASE('C', 'P')
} Vg_CommprofClientRequest;

/* Write the profile files now, as if the program were exiting (they are
   written again, complete, at the real exit). */
#define COMMPROF_DUMP_PROFILE()                                            \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__COMMPROF_DUMP_PROFILE,      \
                                   0, 0, 0, 0, 0)

#endif /* COMMPROF_H */
