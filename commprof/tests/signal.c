/* cflags: -Wl,-z,now */
/* signal: a signal handler is a node like any other function.
 *
 *   main:      installs on_signal for SIGUSR1 with SA_SIGINFO.
 *   trigger:   raise(SIGUSR1). The signal is delivered before raise returns (a signal
 *              a thread sends to itself is delivered when the system call returns);
 *              Valgrind builds the signal frame (siginfo, ucontext) on the stack:
 *              producer (signal frame).
 *   on_signal: reads info->si_signo (one 4-byte int load from the signal frame) and
 *              writes g[0..4) (4 ints = 16 bytes, a global).
 *   after:     called by main after trigger returned; reads g[0..4) once.
 *
 *   => on_signal      -> after     bytes = 16, unma = 16
 *      (signal frame) -> on_signal bytes = 4,  unma = 4   (si_signo; the handler reads
 *                        nothing else of the frame: its return address is control flow)
 *   No (signal frame) -> after: after reads only g.
 *   trigger is not listed: whatever raise()'s libc code reads and writes is charged to it,
 *   and those sizes are glibc's business.
 *   on_signal also stores 1 to the global `handled` (read only by main, not listed); at
 *   -O2 it loads a 16-byte constant from .rodata ((unwritten), not listed).
 *
 * --fn: on_signal calls=1 (entered once at its first instruction, by the signal
 *        delivery), after calls=1.
 *
 * stdout: g = {signo, signo+1, signo+2, signo+3} with SIGUSR1 = 10 -> sum 46, and
 *         handled=1.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define NO_TAIL() __asm__ volatile("" ::: "memory")

int g[4];
volatile int handled;

__attribute__((noipa)) void on_signal(int sig, siginfo_t *info, void *uc)
{
    (void)sig;
    (void)uc;
    int s = info->si_signo;
    g[0] = s;
    g[1] = s + 1;
    g[2] = s + 2;
    g[3] = s + 3;
    handled = 1;
}

__attribute__((noipa)) void trigger(void)
{
    raise(SIGUSR1);
    NO_TAIL();
}

__attribute__((noipa)) long after(void)
{
    return (long)g[0] + g[1] + g[2] + g[3];
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGUSR1, &sa, NULL) != 0)
        return 1;
    trigger();
    long s = after();
    printf("signal handled=%d sum=%ld\n", handled, s);
    return 0;
}
