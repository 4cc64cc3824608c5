/* cflags: -pthread -Wl,-z,now */
/* threads-names: thread names as the kernel keeps them.
 *
 * docs/commprof.rng, <thread name>: "Name set by pthread_setname_np or prctl(PR_SET_NAME)
 * (the last one set), or empty".
 *
 *   thread 1 (main): prctl(PR_SET_NAME, "a-very-long-thread-name"). The kernel keeps at most
 *            15 characters (TASK_COMM_LEN - 1) of a name: the thread's name is
 *            "a-very-long-thr"; main prints what prctl(PR_GET_NAME) returns to show it.
 *   thread 2: names itself "first" (pthread_setname_np on itself: prctl), then
 *            prctl(PR_SET_NAME, "second"): the last one set is "second".
 *   thread 3: created after thread 2 has exited; it sends a byte on the pipe `started`
 *            and waits on `named`; main names it "third" with pthread_setname_np(t3, ...)
 *            (glibc writes /proc/self/task/TID/comm) after receiving the byte, so thread 3
 *            has run by then, and releases it. Name "third".
 *   Parents: 2 and 3 are created by main.
 *
 * stdout: the kernel's name of main, and the names threads 2 and 3 read back with
 *   pthread_getname_np: "a-very-long-thr second third".
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

static int started[2], named[2];
static char name2[16], name3[16];

__attribute__((noipa)) void *second_thread(void *arg)
{
    pthread_setname_np(pthread_self(), "first");
    prctl(PR_SET_NAME, "second", 0, 0, 0);
    pthread_getname_np(pthread_self(), name2, sizeof(name2));
    return NULL;
}

__attribute__((noipa)) void *third_thread(void *arg)
{
    char c = 1;
    if (write(started[1], &c, 1) != 1 || read(named[0], &c, 1) != 1)
        _exit(2);
    pthread_getname_np(pthread_self(), name3, sizeof(name3));
    return NULL;
}

int main(void)
{
    char name1[17] = {0};
    prctl(PR_SET_NAME, "a-very-long-thread-name", 0, 0, 0);
    prctl(PR_GET_NAME, name1, 0, 0, 0);
    if (pipe(started) != 0 || pipe(named) != 0)
        return 1;
    pthread_t t2, t3;
    if (pthread_create(&t2, NULL, second_thread, NULL) != 0)
        return 1;
    pthread_join(t2, NULL);
    if (pthread_create(&t3, NULL, third_thread, NULL) != 0)
        return 1;
    char c;
    if (read(started[0], &c, 1) != 1)
        return 1;
    if (pthread_setname_np(t3, "third") != 0)
        return 1;
    if (write(named[1], &c, 1) != 1)
        return 1;
    pthread_join(t3, NULL);
    printf("threads-names %s %s %s\n", name1, name2, name3);
    return 0;
}
