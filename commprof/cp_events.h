/* commprof: events from Valgrind's core (memory maps, system calls, threads,
   signals, fork and exec). */
#ifndef CP_EVENTS_H
#define CP_EVENTS_H

void cp_events_init(void);       /* in post_clo_init */
void cp_events_register(void);   /* in pre_clo_init */

#endif
