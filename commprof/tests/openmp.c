/* openmp: OpenMP's run-time (libgomp) is the library's own business; the program's
 * parallel loops carry the data.
 *
 * gcc outlines each parallel region into a function of its own (produce._omp_fn.0,
 * consume._omp_fn.0), which libgomp calls in every thread of the team: the copy is
 * the function that holds the region (produce, consume), in each thread.  libgomp's
 * thread pool, barriers and work sharing are (library data)'s, so the threads of a
 * team do not communicate through them, and a function that sets the number of
 * threads passes nothing to the regions.
 *
 *   main:    omp_set_num_threads(2); produce(); consume(); prints total()
 *   produce: parallel for, schedule(static): a[i] = i, i = 0..N-1 (N = 4096):
 *            thread 1 (the main thread) writes a[0..2047], thread 2 a[2048..4095]
 *   consume: the same: b[i] = 2 a[i]: each thread reads the half of a it wrote
 *   total:   sums b in thread 1
 *
 * Edges (bytes = unma, every element read once, 4 bytes each):
 *   produce -> consume: a, 16384; consume -> total: b, 16384.
 * Between (function, thread) pairs: produce@1 -> consume@1 8192,
 *   produce@2 -> consume@2 8192, consume@1 -> total@1 8192, consume@2 -> total@1 8192.
 * Calls: main 1, total 1, produce 1, consume 1: the threads of the team enter the
 *   outlined region in the frame of produce (consume), with no call of their own.
 * With --per-call=yes (openmp-percall): one record per call, in call order: main 2,
 *   produce 3, consume 4, total 5 (_start, seq 1, never returns); the main thread's part
 *   of a region credits the call of produce (consume) it is in: consume reads 8192 bytes
 *   of a from produce, total 16384 of b from consume (its own bytes, the region's stack
 *   traffic, are left out); thread 2's part credits no record (no call in progress).
 *   Before, each thread's entry into a region was a call of its own: three records of
 *   produce, three of consume, and total was seq 9.
 * With --separate-callers=1 (openmp-contexts): the main thread's part of a region is in the
 *   context of the call, produce'main (consume'main), with calls 1; thread 2's part is
 *   plain produce (consume): a function entered with no node below it.  So
 *   produce'main@1 -> consume'main@1 8192 and produce@2 -> consume@2 8192, and both halves
 *   of b go to total'main.  Before, the main thread's part was produce'produce, as if
 *   produce had called itself.
 * stdout: 2 * sum(i, i < 4096) = 4096 * 4095 = 16773120.
 */
/* cflags: -fopenmp */
#include <stdio.h>
#include <omp.h>

#define N 4096

static int a[N], b[N];

__attribute__((noinline)) void produce(void)
{
#pragma omp parallel for schedule(static)
   for (int i = 0; i < N; i++) a[i] = i;
}

__attribute__((noinline)) void consume(void)
{
#pragma omp parallel for schedule(static)
   for (int i = 0; i < N; i++) b[i] = a[i] * 2;
}

__attribute__((noinline)) long total(void)
{
   long s = 0;
   for (int i = 0; i < N; i++) s += b[i];
   return s;
}

int main(void)
{
   omp_set_num_threads(2);
   produce();
   consume();
   printf("%ld\n", total());
   return 0;
}
