/* ptrchase: pointer chasing over a randomly permuted linked structure larger
 * than the last-level cache (32 MiB on the reference machine), the access
 * pattern of linked data structures, graph traversals and hash-table probing:
 * every load depends on the previous one and misses the caches.
 *
 *   build_ring   nodes of 16 bytes in one array, linked into a single random
 *                cycle (Sattolo's shuffle of the visiting order)
 *   chase        follows the links once round the ring, summing the payloads
 *   update       follows the ring once more, rewriting each node's payload
 *                from its predecessor's (a read-modify-write chase)
 *
 * Usage: ptrchase [nodes]   (default 2400000 nodes of 16 bytes = 37 MiB, and
 *        the 9 MiB shuffle order)
 * Work and data are proportional to nodes.  Prints "checksum: X" and
 * "written: N" (bytes of the node array and the shuffle order).
 */
#include <stdio.h>
#include <stdlib.h>

#define PASSES 1
#define NOINLINE __attribute__((noinline))

typedef struct Node {               /* 16 bytes: four nodes per 64-byte line */
   struct Node *next;
   unsigned long long payload;
} Node;

static unsigned long long rng = 88172645463325252ull;
static unsigned long long xorshift(void)
{
   rng ^= rng << 13;
   rng ^= rng >> 7;
   rng ^= rng << 17;
   return rng;
}

NOINLINE static Node *build_ring(size_t n, unsigned *order)
{
   Node *nodes = malloc(n * sizeof(Node));
   if (!nodes) { perror("malloc"); exit(1); }
   for (size_t i = 0; i < n; i++) order[i] = (unsigned)i;
   for (size_t i = n - 1; i > 0; i--) {         /* Sattolo: one cycle through all */
      size_t j = xorshift() % i;
      unsigned t = order[i]; order[i] = order[j]; order[j] = t;
   }
   for (size_t i = 0; i < n; i++) {
      Node *a = &nodes[order[i]];
      a->next = &nodes[order[(i + 1) % n]];
      a->payload = order[i] * 2654435761ull;
   }
   return nodes;
}

NOINLINE static unsigned long long chase(const Node *start, size_t steps)
{
   unsigned long long s = 0;
   const Node *p = start;
   for (size_t i = 0; i < steps; i++) {
      s += p->payload ^ i;
      p = p->next;
   }
   return s + (unsigned long long)(p - start);
}

NOINLINE static void update(Node *start, size_t n)
{
   Node *p = start;
   unsigned long long prev = 1;
   for (size_t i = 0; i < n; i++) {
      p->payload = (p->payload >> 1) + prev;
      prev = p->payload;
      p = p->next;
   }
}

int main(int argc, char **argv)
{
   long n = argc > 1 ? atol(argv[1]) : 2400000;
   if (n < 2) { fprintf(stderr, "ptrchase: nodes must be >= 2\n"); return 2; }
   unsigned *order = malloc((size_t)n * sizeof(unsigned));
   if (!order) { perror("malloc"); return 1; }
   Node *nodes = build_ring((size_t)n, order);
   unsigned long long cs = chase(nodes, (size_t)n * PASSES);
   update(nodes, (size_t)n);
   cs = cs * 31 + chase(nodes + n / 2, (size_t)n);
   printf("checksum: %016llx\n", cs);
   printf("written: %zu\n", (size_t)n * (sizeof(Node) + sizeof(unsigned)));
   free(order);
   free(nodes);
   return 0;
}
