/* cflags: -I/usr/include/valgrind */
/* startstop: collection switched by COMMPROF_START/COMMPROF_STOP and --collect-atstart=no
 * (test startstop), or limited to a function with --collect-in=work (test startstop-in).
 *
 * commprof.h: while collection is stopped nothing is counted (no instructions, bytes,
 * calls or edges), but the producer of every byte written is still recorded, so data
 * written while stopped and read after a start is attributed to the function that wrote
 * it. --collect-in=work collects only while a function named work is on the thread's
 * call stack (and only while collection is not stopped).
 *
 * Arrays: buf[64] ints (256 bytes), tmp[16] (64 bytes), late[16] (64 bytes). main runs:
 *   init(buf, 64)          writes buf (64 int stores)             -- the initialisation
 *   COMMPROF_START()
 *   work():                calls
 *       worker(buf, 64)    reads buf (256 bytes, once)
 *       wprod(tmp, 16)     writes tmp
 *       wcons(tmp, 16)     reads tmp (64 bytes)
 *   after(buf, 64)         reads buf again (256 bytes), outside work
 *   COMMPROF_STOP()
 *   fin_w(late, 16)        writes late                            -- the final phase
 *   fin_r(late, 16)        reads late (64 bytes)
 *
 * startstop (--collect-atstart=no): collection runs from START to STOP.
 *   init -> worker 256/256: init wrote buf while stopped; the producers were recorded.
 *   init -> after  256/256: the same bytes, read by after while collecting.
 *   wprod -> wcons  64/64.
 *   fin_w -> fin_r: absent (after STOP).
 *   --fn: init calls=0 (entered while stopped), work, worker, wprod, wcons, after calls=1,
 *     fin_w, fin_r calls=0 (they never ran while collecting: not in the profile at all).
 *   --maip init: every count 0 (instructions, memory instructions, loads, stores, bytes
 *     read and written; init ran only while stopped; it is in the file as the producer
 *     of the two edges). fin_w and fin_r: absent.
 * startstop-in (--collect-in=work, collection on at the start): collection is on only
 *   while work is on the stack: from work's first instruction to its return.
 *   init -> worker 256/256 and wprod -> wcons 64/64 as above (worker, wprod and wcons run
 *   inside work); init -> after is absent (after runs outside work), as is
 *   fin_w -> fin_r (outside work, and after STOP).
 *   --fn: work, worker, wprod, wcons calls=1; init, after, fin_w, fin_r calls=0.
 *   --maip init: all 0 again (it ran outside work); after, fin_w, fin_r absent.
 * The functions touch nothing else but their own stack (written before it is read in the
 * same call); every array access is volatile, one per element at -O0 and -O2.
 *
 * stdout: buf[i] = 2i+1: worker = after = 64^2 = 4096; tmp[i] = i+5: wcons = 120 + 80 =
 * 200; late[i] = 3i: fin_r = 3*120 = 360. The last line prints RUNNING_ON_COMMPROF, 1
 * under commprof: the .vgtest runs the program natively as well, where it prints 0, and
 * compares that output in its post command.
 */
#include <stdio.h>
#include "commprof.h"

static int buf[64], tmp[16], late[16];
static long r_worker, r_wcons;

__attribute__((noipa)) void init(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 2 * i + 1;
}

__attribute__((noipa)) long worker(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) void wprod(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = i + 5;
}

__attribute__((noipa)) long wcons(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) void work(void)
{
    r_worker = worker(buf, 64);
    wprod(tmp, 16);
    r_wcons = wcons(tmp, 16);
}

__attribute__((noipa)) long after(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) void fin_w(volatile int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 3 * i;
}

__attribute__((noipa)) long fin_r(volatile const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

int main(void)
{
    init(buf, 64);
    COMMPROF_START();
    work();
    long a = after(buf, 64);
    COMMPROF_STOP();
    fin_w(late, 16);
    long f = fin_r(late, 16);
    printf("startstop worker=%ld wcons=%ld after=%ld fin=%ld\n", r_worker, r_wcons, a, f);
    printf("running on commprof: %u\n", RUNNING_ON_COMMPROF);
    return 0;
}
