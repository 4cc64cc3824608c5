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

/* The main executable's thread-local variables.  Each thread's block of
   them is initialised from the executable's TLS image by ld.so (the main
   thread's, before the executable's entry point) or by pthread_create (a
   new thread's, in its creator, before it runs): as in .data and .bss, the
   initial values are nobody's, (unwritten)'s.  So when a thread starts
   running the program (the main thread at the entry point, a new thread
   when it first runs) its block becomes unwritten, and with --objects=yes
   its variables become its objects. */
void cp_events_main_exe(const HChar* path, Addr bias);
/* The entry point of the main executable when it has thread-local
   variables (0 otherwise): generated code calls cp_h_exe_started there. */
extern Addr cp_exe_tls_entry;
VG_REGPARM(0) void cp_h_exe_started(void);

#endif
