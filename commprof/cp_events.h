/* commprof: events from Valgrind's core (memory maps, system calls, threads,
   signals, fork and exec). */
#ifndef CP_EVENTS_H
#define CP_EVENTS_H

#include "pub_tool_basics.h"

void cp_events_init(void);       /* in post_clo_init */
void cp_events_register(void);   /* in pre_clo_init */

/* Copy a NUL-terminated string of at most max-1 bytes from client memory
   (longer ones are cut); False if it is not readable. */
Bool cp_copy_client_string(Addr a, HChar* buf, SizeT max);

#endif
