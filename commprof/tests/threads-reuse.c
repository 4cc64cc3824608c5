/* cflags: -pthread -Wl,-z,now */
/* threads-reuse: threads that exit and are replaced are never confused.
 *
 * main creates one thread per generation g = 1..4 and joins it before creating the next,
 * so Valgrind gives every generation the same thread slot (and glibc the same cached
 * stack). commprof numbers threads by creation order (docs/commprof.rng, <threads>): a
 * thread is never confused with a later one that reuses its slot. So:
 *   thread 1 = main, thread g+1 = generation g (g = 1..4), each created by main (parent=1).
 *   Names: generations 1 and 3 name themselves "gen1" and "gen3" (pthread_setname_np on
 *   themselves: prctl); threads 3 and 5 set no name and must not inherit the name of the
 *   thread that had their slot before: their name is empty.
 *
 * Data: slots[0..5) of 16 ints (64 bytes) each.
 *   main:  seed writes slots[0]
 *   gen g: stage(g) reads slots[0..g) once (written by main's seed and by generations
 *          1..g-1), then writes slots[g]
 *   main:  collect reads slots[0..5) once
 * Thread edges, (function, thread) -> (function, thread), 64 bytes each, unma 64:
 *   seed@1  -> stage@2, stage@3, stage@4, stage@5      (slot 0)
 *   stage@2 -> stage@3, stage@4, stage@5               (slot 1)
 *   stage@3 -> stage@4, stage@5                        (slot 2)
 *   stage@4 -> stage@5                                 (slot 3)
 *   seed@1  -> collect@1                               (slot 0; same thread, other function)
 *   stage@2, stage@3, stage@4, stage@5 -> collect@1    (slots 1..4)
 * and no other among seed, stage and collect (no edge from a later generation to an
 * earlier one, nothing from a generation to itself).
 * Function edges: seed -> stage 256 bytes, unma 64; seed -> collect 64/64;
 *   stage -> collect 256/256 (stage -> stage is a self edge, not listed).
 * At -O0, stage reads its stack slots only after writing them, so the stack the
 * generations share carries no bytes from one to the next among these functions.
 * The thread matrix is not asserted: glibc's bookkeeping adds bytes to its cells
 * (pthread_join in main reads the descriptor the exited generation wrote; a generation
 * that gets a cached stack and descriptor may read fields of it that glibc does not
 * re-initialise), which depends on glibc's version, not on commprof.
 *
 * stdout: slot 0 = 1..16 (sum 136); generation g stores v_g + j (j < 16), v_g = the sum
 *   it read mod 1000: g=1 reads 136 -> v=136, slot sum 16*136 + 120 = 2296;
 *   g=2 reads 136+2296 = 2432 -> v=432, slot sum 6912+120 = 7032;
 *   g=3 reads 2432+7032 = 9464 -> v=464, slot sum 7424+120 = 7544;
 *   g=4 reads 9464+7544 = 17008 -> v=8, slot sum 128+120 = 248;
 *   collect = 17008 + 248 = 17256.
 */
#include <pthread.h>
#include <stdio.h>

#define GENS 4
#define SLOT 16

static int slots[GENS + 1][SLOT];

__attribute__((noipa)) void seed(int *s)
{
    for (int j = 0; j < SLOT; j++)
        s[j] = j + 1;
}

__attribute__((noipa)) long stage(int g)
{
    long sum = 0;
    for (int k = 0; k < g; k++)
        for (int j = 0; j < SLOT; j++)
            sum += slots[k][j];
    for (int j = 0; j < SLOT; j++)
        slots[g][j] = (int)(sum % 1000) + j;
    return sum;
}

__attribute__((noipa)) long collect(void)
{
    long sum = 0;
    for (int k = 0; k <= GENS; k++)
        for (int j = 0; j < SLOT; j++)
            sum += slots[k][j];
    return sum;
}

__attribute__((noipa)) void *gen_thread(void *arg)
{
    int g = (int)(long)arg;
    if (g == 1)
        pthread_setname_np(pthread_self(), "gen1");
    else if (g == 3)
        pthread_setname_np(pthread_self(), "gen3");
    stage(g);
    return NULL;
}

int main(void)
{
    seed(slots[0]);
    for (long g = 1; g <= GENS; g++) {
        pthread_t t;
        if (pthread_create(&t, NULL, gen_thread, (void *)g) != 0)
            return 1;
        pthread_join(t, NULL);
    }
    printf("threads-reuse collect=%ld\n", collect());
    return 0;
}
