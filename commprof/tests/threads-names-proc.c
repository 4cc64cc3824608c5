/* cflags: -pthread */
/* threads-names-proc: thread names as the kernel keeps them, however set.
 *
 *   thread 2: prctl(PR_SET_NAME, "p\nq") on itself: the kernel keeps the
 *             newline (the XML has it as &#10;);
 *   thread 3: named "abc\n" by main with pthread_setname_np, which writes
 *             /proc/self/task/TID/comm;
 *   thread 4: writes "self" to /proc/thread-self/comm;
 *   thread 5: writes "lead" to /proc/self/comm, which names the process's
 *             main thread, thread 1;
 *   thread 6: named "named", then "" by main: the empty name.
 * Each thread reads its name back with PR_GET_NAME and prints it, newlines
 * as \n, so that the expected output shows what the kernel kept. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static sem_t named, go;

static void show(const char* who)
{
   char n[32] = {0};
   prctl(PR_GET_NAME, n);
   printf("%s: [", who);
   for (const char* c = n; *c; c++) printf(*c == '\n' ? "\\n" : "%c", *c);
   printf("]\n");
   fflush(stdout);
}

static void write_file(const char* path, const char* s)
{
   int fd = open(path, O_WRONLY);
   if (fd < 0 || write(fd, s, strlen(s)) != (ssize_t)strlen(s)) perror(path);
   if (fd >= 0) close(fd);
}

static void* t2(void* a) { prctl(PR_SET_NAME, "p\nq"); show("t2"); return a; }
static void* waits(void* a) { sem_post(&named); sem_wait(&go); show(a); return NULL; }
static void* t4(void* a) { write_file("/proc/thread-self/comm", "self"); show("t4"); return a; }
static void* t5(void* a) { write_file("/proc/self/comm", "lead"); return a; }

int main(void)
{
   pthread_t t;
   sem_init(&named, 0, 0);
   sem_init(&go, 0, 0);
   pthread_create(&t, NULL, t2, NULL);
   pthread_join(t, NULL);
   pthread_create(&t, NULL, waits, "t3");
   sem_wait(&named);
   pthread_setname_np(t, "abc\n");
   sem_post(&go);
   pthread_join(t, NULL);
   pthread_create(&t, NULL, t4, NULL);
   pthread_join(t, NULL);
   pthread_create(&t, NULL, t5, NULL);
   pthread_join(t, NULL);
   show("main");
   pthread_create(&t, NULL, waits, "t6");
   sem_wait(&named);
   pthread_setname_np(t, "named");
   pthread_setname_np(t, "");
   sem_post(&go);
   pthread_join(t, NULL);
   return 0;
}
