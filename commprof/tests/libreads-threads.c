/* cflags: -pthread */
/* libreads-threads: a store of another thread makes the bytes a library call in progress has
 * read count again (docs/definitions.md: "since they were last written, by the call's code
 * or by anyone else").
 *
 *   ins:  builds a search tree of the three keys 2, 1, 3 with tsearch: the root pointer r
 *         and three nodes of glibc's node_t, { key, left (with the colour bit), right },
 *         24 bytes each, all written in ins's calls (the nodes are the program's heap data)
 *   w:    twalk(r, act): reads r (8); for the root (key 2), its left and right (16) to see
 *         it is no leaf, then calls act (preorder), which waits for thread 2, then reads
 *         root->left again to go down: those 8 bytes count again, from wr; for each of the
 *         two leaves its left and right (2 x 16); the other reads of the call are of bytes
 *         it has read already (once each)
 *   act:  the visit callback (no call): at the root's preorder visit, lets thread 2 run and
 *         waits for it
 *   wr:   (thread 2) reads r and root->left, stores root->left back unchanged, lets act go on
 *
 * Edges among ins, w and wr:
 *   ins -> w   bytes = 8 + 16 + 32 = 56, unma = 56
 *   ins -> wr  bytes = 16, unma = 16
 *   wr -> w    bytes = 8, unma = 8 (before: no edge, the reload counted nowhere)
 */
#include <pthread.h>
#include <search.h>
#include <stdint.h>
#include <stdio.h>

#define NI __attribute__((noinline))

int keys[3] = { 2, 1, 3 };
void *r;
volatile int at_root, stored;

static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

NI void ins(void)
{
    for (int i = 0; i < 3; i++) tsearch(&keys[i], &r, cmp);
}

NI void act(const void *node, VISIT which, int depth)
{
    (void)node;
    if (which == preorder && depth == 0) {
        at_root = 1;
        while (!stored) ;
    }
}

NI void w(void) { twalk(r, act); }

NI void *wr(void *arg)
{
    (void)arg;
    while (!at_root) ;
    volatile uintptr_t *root = (volatile uintptr_t *)r;
    root[1] = root[1];
    stored = 1;
    return NULL;
}

int main(void)
{
    ins();
    pthread_t t;
    if (pthread_create(&t, NULL, wr, NULL) != 0) return 1;
    w();
    pthread_join(t, NULL);
    printf("done\n");
    return 0;
}
