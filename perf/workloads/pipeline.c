/* pipeline: a three-stage POSIX-threads pipeline connected by bounded queues
 * of buffers (mutex + condition variables), the shape of a streaming
 * application split over cores:
 *
 *   producer   fills a buffer with synthetic samples            -> q_raw
 *   filter     q_raw -> 5-tap FIR filter + quantisation in place -> q_filtered
 *   consumer   q_filtered -> histogram and checksum, returns the buffer -> q_free
 *
 * A fixed pool of NBUF buffers of BUFLEN ints circulates producer -> filter ->
 * consumer -> producer through the queues (capacity QCAP each), so the same
 * memory is written by one thread and read by the next.
 *
 * Usage: pipeline [buffers]   (default 5000 buffers of 16384 ints = 64 KiB)
 * Work is proportional to buffers; the data (the pool) is fixed.  The result
 * is deterministic: queues are FIFO and every buffer is processed in order.
 * Prints "checksum: X" and "written: N" (bytes of the buffer pool).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBUF   8
#define QCAP   4
#define BUFLEN 16384
#define NOINLINE __attribute__((noinline))

typedef struct { int seq; int *data; } Buf;

typedef struct {
   Buf *items[NBUF + 1];
   int head, count, cap;
   pthread_mutex_t mu;
   pthread_cond_t not_empty, not_full;
} Queue;

static void q_init(Queue *q, int cap)
{
   memset(q, 0, sizeof *q);
   q->cap = cap;
   pthread_mutex_init(&q->mu, NULL);
   pthread_cond_init(&q->not_empty, NULL);
   pthread_cond_init(&q->not_full, NULL);
}

static void q_push(Queue *q, Buf *b)
{
   pthread_mutex_lock(&q->mu);
   while (q->count == q->cap) pthread_cond_wait(&q->not_full, &q->mu);
   q->items[(q->head + q->count) % (NBUF + 1)] = b;
   q->count++;
   pthread_cond_signal(&q->not_empty);
   pthread_mutex_unlock(&q->mu);
}

static Buf *q_pop(Queue *q)
{
   pthread_mutex_lock(&q->mu);
   while (q->count == 0) pthread_cond_wait(&q->not_empty, &q->mu);
   Buf *b = q->items[q->head];
   q->head = (q->head + 1) % (NBUF + 1);
   q->count--;
   pthread_cond_signal(&q->not_full);
   pthread_mutex_unlock(&q->mu);
   return b;
}

static Queue q_free, q_raw, q_filtered;
static int nbuffers;
static unsigned long long result;
static unsigned long long histogram[256];

NOINLINE static void generate(Buf *b, int seq)
{
   unsigned s = 99991u * (unsigned)seq + 7u;
   b->seq = seq;
   for (int i = 0; i < BUFLEN; i++) {
      s = s * 1664525u + 1013904223u;
      b->data[i] = (int)((s >> 12) & 0xfff) + ((i / 64) % 2) * 2048 + seq % 97;
   }
}

NOINLINE static void fir_filter(Buf *b)
{
   int *d = b->data, prev2 = d[0], prev1 = d[0];
   for (int i = 0; i < BUFLEN; i++) {
      int next1 = i + 1 < BUFLEN ? d[i + 1] : d[i], next2 = i + 2 < BUFLEN ? d[i + 2] : next1;
      int cur = d[i];
      int y = (prev2 + 4 * prev1 + 6 * cur + 4 * next1 + next2) >> 4;
      d[i] = y >> 4;                               /* quantise to 8 bits */
      prev2 = prev1;
      prev1 = cur;
   }
}

NOINLINE static unsigned long long consume(const Buf *b)
{
   unsigned long long s = (unsigned long long)b->seq * 0x9e3779b97f4a7c15ull;
   for (int i = 0; i < BUFLEN; i++) {
      int v = b->data[i] & 255;
      histogram[v]++;
      s = (s ^ (unsigned)v) * 1099511628211ull;
   }
   return s;
}

static void *producer_main(void *arg)
{
   for (int seq = 0; seq < nbuffers; seq++) {
      Buf *b = q_pop(&q_free);
      generate(b, seq);
      q_push(&q_raw, b);
   }
   q_push(&q_raw, NULL);                          /* end of stream */
   return NULL;
}

static void *filter_main(void *arg)
{
   for (;;) {
      Buf *b = q_pop(&q_raw);
      if (b) fir_filter(b);
      q_push(&q_filtered, b);
      if (!b) return NULL;
   }
}

static void *consumer_main(void *arg)
{
   unsigned long long acc = 0;
   int expect = 0;
   for (;;) {
      Buf *b = q_pop(&q_filtered);
      if (!b) break;
      if (b->seq != expect++) { fprintf(stderr, "pipeline: out of order\n"); exit(1); }
      acc = acc * 31 + consume(b);
      q_push(&q_free, b);
   }
   result = acc;
   return NULL;
}

int main(int argc, char **argv)
{
   nbuffers = argc > 1 ? atoi(argv[1]) : 5000;
   if (nbuffers < 1) { fprintf(stderr, "pipeline: buffers must be >= 1\n"); return 2; }
   q_init(&q_free, NBUF);
   q_init(&q_raw, QCAP);
   q_init(&q_filtered, QCAP);
   Buf pool[NBUF];
   for (int i = 0; i < NBUF; i++) {
      pool[i].data = malloc(BUFLEN * sizeof(int));
      if (!pool[i].data) { perror("malloc"); return 1; }
      q_push(&q_free, &pool[i]);
   }
   pthread_t t[3];
   pthread_create(&t[0], NULL, producer_main, NULL);
   pthread_create(&t[1], NULL, filter_main, NULL);
   pthread_create(&t[2], NULL, consumer_main, NULL);
   for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
   unsigned long long hs = 0;
   for (int v = 0; v < 256; v++) hs = hs * 131 + histogram[v];
   printf("checksum: %016llx %016llx\n", result, hs);
   printf("written: %zu\n", (size_t)NBUF * BUFLEN * sizeof(int));
   for (int i = 0; i < NBUF; i++) free(pool[i].data);
   return 0;
}
