/* mallocs: a malloc-heavy workload with many small objects (8 to 256 bytes),
 * the allocation behaviour of a program built from lists, trees and strings.
 * Each round:
 *
 *   alloc_objects   allocates n objects of pseudo-random sizes and fills them
 *   link_list       links them into a singly linked list in allocation order
 *   build_table     inserts every object into a chained hash table (n/4
 *                   buckets) keyed by a hash of its contents
 *   traverse        walks the list summing the payloads, then every chain of
 *                   the table
 *   free_pattern    reallocs a third of the payloads to another size and
 *                   refills them, then frees everything in a pattern that
 *                   changes with the round: every other object then the rest,
 *                   in reverse, or in a shuffled order
 *
 * An object is two blocks: a 32-byte node (links, key, size) and its payload
 * of 8 to 256 bytes (60% under 48 bytes).
 *
 * Usage: mallocs [objects]   (default 120000 objects a round, ROUNDS = 6)
 * Work is proportional to objects.  Prints "checksum: X" and
 * "written: N" (peak bytes of live objects, payload only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 6
#define NOINLINE __attribute__((noinline))

typedef struct Obj {            /* 32 bytes */
   struct Obj *next, *chain;
   unsigned key;
   unsigned size;              /* bytes of payload, 8..256 */
   unsigned char *payload;     /* its own block */
} Obj;

static unsigned rng = 4242;
static unsigned rnd(void)
{
   rng = rng * 1103515245u + 12345u;
   return rng >> 8;
}

static size_t live_bytes, peak_bytes;

/* payload size, 8..256 bytes */
static unsigned pick_size(void)
{
   unsigned r = rnd() % 100;
   if (r < 60) return 8 + rnd() % 40;           /* mostly small */
   if (r < 90) return 48 + rnd() % 80;
   return 128 + rnd() % 129;
}

static Obj *new_obj(unsigned size)
{
   Obj *o = malloc(sizeof(Obj));
   if (!o || !(o->payload = malloc(size))) { perror("malloc"); exit(1); }
   o->size = size;
   live_bytes += sizeof(Obj) + size;
   if (live_bytes > peak_bytes) peak_bytes = live_bytes;
   return o;
}

static void fill(Obj *o, unsigned seed)
{
   unsigned long long w = seed * 0x9e3779b97f4a7c15ull, h = w;
   unsigned i = 0;
   for (; i + 8 <= o->size; i += 8) {         /* word by word, the tail byte by byte */
      memcpy(o->payload + i, &w, 8);
      h = (h ^ w) * 1099511628211ull;
      w += 0x0101010101010101ull;
   }
   for (; i < o->size; i++) o->payload[i] = (unsigned char)(w >> (8 * (i & 7)));
   h ^= h >> 29;                             /* finalise: keys spread even for equal payloads */
   h *= 0xbf58476d1ce4e5b9ull;
   h ^= h >> 32;
   o->key = (unsigned)h;
   o->next = o->chain = NULL;
}

NOINLINE static void alloc_objects(Obj **v, int n, int round)
{
   for (int i = 0; i < n; i++) {
      v[i] = new_obj(pick_size());
      fill(v[i], (unsigned)(i * 7 + round));
   }
}

NOINLINE static Obj *link_list(Obj **v, int n)
{
   for (int i = 0; i + 1 < n; i++) v[i]->next = v[i + 1];
   return n ? v[0] : NULL;
}

NOINLINE static void build_table(Obj **v, int n, Obj **table, unsigned nb)
{
   memset(table, 0, nb * sizeof(Obj *));
   for (int i = 0; i < n; i++) {
      Obj **b = &table[v[i]->key % nb];
      v[i]->chain = *b;
      *b = v[i];
   }
}

static unsigned long long sum_payload(const Obj *o)
{
   unsigned long long s = o->key;
   for (unsigned i = 0; i < o->size; i += 8) s += o->payload[i];
   return s;
}

NOINLINE static unsigned long long traverse(const Obj *head, Obj **table, unsigned nb)
{
   unsigned long long s = 0;
   for (const Obj *o = head; o; o = o->next) s += sum_payload(o);
   for (unsigned b = 0; b < nb; b++) {
      unsigned long long pos = 0;
      for (const Obj *o = table[b]; o; o = o->chain) s ^= (unsigned long long)o->key * ++pos;
   }
   return s;
}

static void free_obj(Obj *o)
{
   live_bytes -= sizeof(Obj) + o->size;
   free(o->payload);
   free(o);
}

NOINLINE static unsigned long long free_pattern(Obj **v, int n, int round)
{
   unsigned long long s = 0;
   for (int i = 0; i < n; i += 3) {            /* a third grows or shrinks first */
      unsigned size = pick_size();
      Obj *o = v[i];
      live_bytes -= o->size;
      o->payload = realloc(o->payload, size);
      if (!o->payload) { perror("realloc"); exit(1); }
      o->size = size;
      live_bytes += size;
      if (live_bytes > peak_bytes) peak_bytes = live_bytes;
      fill(o, (unsigned)i);
      s += o->key;
   }
   switch (round % 3) {
   case 0:                                     /* every other, then the rest */
      for (int i = 0; i < n; i += 2) free_obj(v[i]);
      for (int i = 1; i < n; i += 2) free_obj(v[i]);
      break;
   case 1:                                     /* reverse */
      for (int i = n - 1; i >= 0; i--) free_obj(v[i]);
      break;
   default:                                    /* shuffled */
      for (int i = n - 1; i > 0; i--) {
         int j = (int)(rnd() % (unsigned)(i + 1));
         Obj *t = v[i]; v[i] = v[j]; v[j] = t;
      }
      for (int i = 0; i < n; i++) free_obj(v[i]);
   }
   return s;
}

int main(int argc, char **argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 120000;
   if (n < 1) { fprintf(stderr, "mallocs: objects must be >= 1\n"); return 2; }
   unsigned nb = (unsigned)n / 4 + 1;
   Obj **v = malloc((size_t)n * sizeof(Obj *)), **table = malloc(nb * sizeof(Obj *));
   if (!v || !table) { perror("malloc"); return 1; }
   unsigned long long cs = 0;
   for (int r = 0; r < ROUNDS; r++) {
      alloc_objects(v, n, r);
      Obj *head = link_list(v, n);
      build_table(v, n, table, nb);
      cs = cs * 1000003u + traverse(head, table, nb);
      cs += free_pattern(v, n, r);
   }
   printf("checksum: %016llx\n", cs);
   printf("written: %zu\n", peak_bytes + ((size_t)n + nb) * sizeof(Obj *));
   free(v);
   free(table);
   return 0;
}
