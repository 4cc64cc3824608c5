/* cflags: -I/usr/include/valgrind -pthread */
/* fork-clock: a forked child's clock starts at the fork (run with --objects=yes,
 * --time-slice=1000; the XML file name has no %p, so the child writes
 * fork-clock.xml.<pid>).
 *
 * docs/definitions.md, "Collecting": "In a forked child the clock starts again at 0 at the
 * fork: the phases begun before it, the current one included, start at 0 there, and its
 * first time slice is slice 0"; docs/manual.md, 7.4 fork: a forked child starts with
 * zeroed counters (functions, threads, ...).
 *
 *   thread 1 (main):  fill writes parr[0..250) (1000 bytes); COMMPROF_PHASE("work");
 *                     creates thread 2 and joins it
 *   thread 2 (worker): fill2 writes carr[0..100) (400 bytes); forks; the parent side waits
 *                     for the child
 *   the child (only thread 2 lives on in it): reader reads parr[0..250) and carr[0..100),
 *                     then _exit
 *
 * Child's profile:
 *   edges fill -> reader 1000 bytes / 1000 unique addresses (250 int loads, producers
 *     inherited from the parent), fill2 -> reader 400/400; nothing of main's or the
 *     worker's reads before the fork.
 *   threads: thread 1 (main) ran no instruction in the child: instructions=0 (before the
 *     fix it kept the parent's count); thread 2 ran (the fork's return, reader, _exit);
 *     the threads' instructions sum to the total.
 *   phases: (start) and work both began before the fork: start=0 in the child (before,
 *     work's start was the parent's clock, larger than the child's total).
 *   time slices: the first is slice 0 (before, the parent's clock went on: slice 20 or so).
 *   objects: every first-access and last-access is at most the child's total instructions.
 * The parent's profile: fill -> reader does not exist; the same clock checks hold, with
 *   both threads having run.
 *
 * stdout (parent only): sum of parr = 250*249/2 = 31125 (parr[i] = i), sum of carr =
 *   2 * 99*100/2 = 9900 (carr[i] = 2i); the child exits 0 if it reads the same sums.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "commprof.h"

int parr[250];
int carr[100];
static int child_status = -1;

__attribute__((noipa)) void fill(void)
{
    for (int i = 0; i < 250; i++)
        parr[i] = i;
}

__attribute__((noipa)) void fill2(void)
{
    for (int i = 0; i < 100; i++)
        carr[i] = 2 * i;
}

__attribute__((noipa)) long reader(void)
{
    long s = 0;
    for (int i = 0; i < 250; i++)
        s += parr[i];
    for (int i = 0; i < 100; i++)
        s += carr[i] * 1000000L;
    return s;
}

static void *worker(void *arg)
{
    (void)arg;
    fill2();
    pid_t pid = fork();
    if (pid < 0)
        return NULL;
    if (pid == 0)
        _exit(reader() == 31125 + 9900 * 1000000L ? 0 : 3);
    int status;
    if (waitpid(pid, &status, 0) == pid && WIFEXITED(status))
        child_status = WEXITSTATUS(status);
    return NULL;
}

int main(void)
{
    fill();
    COMMPROF_PHASE("work");
    pthread_t t;
    if (pthread_create(&t, NULL, worker, NULL) != 0)
        return 1;
    pthread_join(t, NULL);
    long s = 0, c = 0;
    for (int i = 0; i < 250; i++)
        s += parr[i];
    for (int i = 0; i < 100; i++)
        c += carr[i];
    printf("fork-clock parr=%ld carr=%ld child=%d\n", s, c, child_status);
    return 0;
}
