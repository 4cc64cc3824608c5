/* commprof: per-call data (see cp_percall.h). */

#include "cp_global.h"
#include "cp_percall.h"
#include "cp_options.h"
#include "pub_tool_hashtable.h"

Bool cp_clo_per_call;
Bool cp_percall_active;

#define MAX_ITEMS 64        /* producers and objects kept per call; more are folded into the last */

/* A call in progress. */
typedef struct {
   UInt          node;
   ULong         seq;
   UInt*         path;
   UInt          n_path;
   CpPcProducer  producers[MAX_ITEMS];
   UInt          n_producers;
   CpPcObject    objects[MAX_ITEMS];
   UInt          n_objects;
} Active;

typedef struct {
   Active* calls;
   UInt    n, cap;
} ThreadCalls;

static ThreadCalls* threads;        /* by thread index */
static UInt         threads_cap;
static ThreadCalls* cur;            /* the running thread's */
static ULong        next_seq = 1;

/* Finished calls, aggregated: identical ones share a record. */
typedef struct RecEnt { struct RecEnt* next; UWord key; UInt rec; } RecEnt;
static VgHashTable* rec_index;
static CpPcRecord*  recs;
static UInt         n_recs, recs_cap;
static ULong        dropped;        /* calls not kept: --per-call-max reached */

void cp_percall_init(void)
{
   cp_clo_per_call = cp_clo.per_call;
   if (cp_clo_per_call) rec_index = VG_(HT_construct)("cp.pc.index");
}

static ThreadCalls* thread_calls(UInt t)
{
   if (t >= threads_cap) {
      UInt ncap = t + 16;
      threads = VG_(realloc)("cp.pc.threads", threads, ncap * sizeof(ThreadCalls));
      VG_(memset)(threads + threads_cap, 0, (ncap - threads_cap) * sizeof(ThreadCalls));
      threads_cap = ncap;
      cur = NULL;                   /* the array moved */
   }
   return &threads[t];
}

void cp_percall_switch(UInt thread)
{
   if (!cp_clo_per_call) return;
   cur = thread_calls(thread);
   cp_percall_active = cur->n > 0;
}

void cp_percall_enter(UInt thread, UInt node, const UInt* path, UInt n_path)
{
   ThreadCalls* tc = thread_calls(thread);
   if (tc->n == tc->cap) {
      tc->cap = tc->cap ? tc->cap * 2 : 8;
      tc->calls = VG_(realloc)("cp.pc.active", tc->calls, tc->cap * sizeof(Active));
   }
   Active* a = &tc->calls[tc->n++];
   a->node = node;
   a->seq = next_seq++;
   a->n_path = n_path;
   a->path = VG_(malloc)("cp.pc.path", (n_path ? n_path : 1) * sizeof(UInt));
   VG_(memcpy)(a->path, path, n_path * sizeof(UInt));
   a->n_producers = a->n_objects = 0;
   cur = tc;
   cp_percall_active = True;
}

struct CpPcStash { Active* calls; UInt n; };

struct CpPcStash* cp_percall_stash(UInt thread)
{
   if (!cp_clo_per_call) return NULL;
   ThreadCalls* tc = thread_calls(thread);
   if (tc->n == 0) return NULL;
   struct CpPcStash* s = VG_(malloc)("cp.pc.stash", sizeof *s);
   s->n = tc->n;
   s->calls = VG_(malloc)("cp.pc.stash.calls", tc->n * sizeof(Active));
   VG_(memcpy)(s->calls, tc->calls, tc->n * sizeof(Active));
   tc->n = 0;
   return s;
}

void cp_percall_unstash(UInt thread, struct CpPcStash* s)
{
   if (s == NULL) return;
   ThreadCalls* tc = thread_calls(thread);
   if (tc->n + s->n > tc->cap) {
      tc->cap = tc->n + s->n + 8;
      tc->calls = VG_(realloc)("cp.pc.active", tc->calls, tc->cap * sizeof(Active));
   }
   VG_(memcpy)(tc->calls + tc->n, s->calls, s->n * sizeof(Active));
   tc->n += s->n;
   VG_(free)(s->calls);
   VG_(free)(s);
}

void cp_percall_stash_free(struct CpPcStash* s)
{
   if (s == NULL) return;
   for (UInt i = 0; i < s->n; i++) VG_(free)(s->calls[i].path);
   VG_(free)(s->calls);
   VG_(free)(s);
}

static Active* top(void)
{
   return &cur->calls[cur->n - 1];
}

static CpPcProducer* producer_slot(Active* a, UInt id)
{
   for (UInt i = 0; i < a->n_producers; i++)
      if (a->producers[i].id == id) return &a->producers[i];
   if (a->n_producers == MAX_ITEMS) return &a->producers[MAX_ITEMS - 1];
   CpPcProducer* p = &a->producers[a->n_producers++];
   p->id = id;
   p->bytes = 0;
   return p;
}

static CpPcObject* object_slot(Active* a, UInt object)
{
   for (UInt i = 0; i < a->n_objects; i++)
      if (a->objects[i].object == object) return &a->objects[i];
   if (a->n_objects == MAX_ITEMS) return &a->objects[MAX_ITEMS - 1];
   CpPcObject* o = &a->objects[a->n_objects++];
   VG_(memset)(o, 0, sizeof(*o));
   o->object = object;
   return o;
}

void cp_percall_load(UInt producer_node, SizeT n)
{
   producer_slot(top(), producer_node)->bytes += n;
}

void cp_percall_object(UInt object, Addr a, SizeT n, Bool is_write, Bool access)
{
   CpPcObject* o = object_slot(top(), object);
   if (is_write) o->written_bytes += n; else o->read_bytes += n;
   if (!access) return;
   /* stride in elements of this access's size: 1 (or 0, the same element)
      scores 1, s scores 1/s */
   ULong stride = 1;
   if (o->accesses) {
      Addr d = a > o->last ? a - o->last : o->last - a;
      stride = n ? d / n : d;
      if (stride == 0) stride = 1;
   }
   o->locality_sum += 1000000ULL / stride;
   o->accesses++;
   o->last = a;
}

static Int cmp_producers(const void* x, const void* y)
{
   const CpPcProducer* a = x;
   const CpPcProducer* b = y;
   return a->id < b->id ? -1 : a->id > b->id ? 1 : 0;
}

static Int cmp_objects(const void* x, const void* y)
{
   const CpPcObject* a = x;
   const CpPcObject* b = y;
   return a->object < b->object ? -1 : a->object > b->object ? 1 : 0;
}

static UWord signature(const Active* a)
{
   UWord h = a->node * 0x9E3779B97F4A7C15ULL;
   for (UInt i = 0; i < a->n_path; i++) h = h * 31 + a->path[i];
   for (UInt i = 0; i < a->n_producers; i++)
      h = h * 131 + a->producers[i].id * 7 + a->producers[i].bytes;
   for (UInt i = 0; i < a->n_objects; i++)
      h = h * 131 + a->objects[i].object * 5 + a->objects[i].read_bytes * 3
          + a->objects[i].written_bytes + a->objects[i].locality_sum;
   return h;
}

static Bool same(const CpPcRecord* r, const Active* a)
{
   if (r->node != a->node || r->n_path != a->n_path || r->n_producers != a->n_producers
       || r->n_objects != a->n_objects)
      return False;
   for (UInt i = 0; i < a->n_path; i++) if (r->path[i] != a->path[i]) return False;
   for (UInt i = 0; i < a->n_producers; i++)
      if (r->producers[i].id != a->producers[i].id || r->producers[i].bytes != a->producers[i].bytes)
         return False;
   for (UInt i = 0; i < a->n_objects; i++) {
      const CpPcObject* x = &r->objects[i];
      const CpPcObject* y = &a->objects[i];
      if (x->object != y->object || x->read_bytes != y->read_bytes
          || x->written_bytes != y->written_bytes || x->accesses != y->accesses
          || x->locality_sum != y->locality_sum)
         return False;
   }
   return True;
}

/* Fold a finished call into the records. */
static void keep(Active* a)
{
   VG_(ssort)(a->producers, a->n_producers, sizeof(CpPcProducer), cmp_producers);
   VG_(ssort)(a->objects, a->n_objects, sizeof(CpPcObject), cmp_objects);
   UWord h = signature(a);
   for (RecEnt* e = VG_(HT_lookup)(rec_index, h); e; e = e->next) {
      if (e->key != h || !same(&recs[e->rec], a)) continue;
      CpPcRecord* r = &recs[e->rec];
      r->count++;
      /* calls end in another order than they began (threads, coroutines) */
      if (a->seq < r->first_seq) r->first_seq = a->seq;
      if (a->seq > r->last_seq) r->last_seq = a->seq;
      VG_(free)(a->path);
      return;
   }
   if (n_recs >= cp_clo.per_call_max) {
      dropped++;
      VG_(free)(a->path);
      return;
   }
   if (n_recs == recs_cap) {
      recs_cap = recs_cap ? recs_cap * 2 : 256;
      recs = VG_(realloc)("cp.pc.recs", recs, recs_cap * sizeof(CpPcRecord));
   }
   CpPcRecord* r = &recs[n_recs];
   r->node = a->node;
   r->first_seq = r->last_seq = a->seq;
   r->count = 1;
   r->path = a->path;
   r->n_path = a->n_path;
   r->n_producers = a->n_producers;
   r->producers = VG_(malloc)("cp.pc.rp", (a->n_producers ? a->n_producers : 1) * sizeof(CpPcProducer));
   VG_(memcpy)(r->producers, a->producers, a->n_producers * sizeof(CpPcProducer));
   r->n_objects = a->n_objects;
   r->objects = VG_(malloc)("cp.pc.ro", (a->n_objects ? a->n_objects : 1) * sizeof(CpPcObject));
   VG_(memcpy)(r->objects, a->objects, a->n_objects * sizeof(CpPcObject));
   RecEnt* e = VG_(malloc)("cp.pc.ent", sizeof(RecEnt));
   e->key = h;
   e->rec = n_recs++;
   VG_(HT_add_node)(rec_index, e);
}

void cp_percall_leave(UInt thread)
{
   ThreadCalls* tc = thread_calls(thread);
   if (tc->n == 0) return;
   Active* a = &tc->calls[--tc->n];
   /* the caller's call, if tracked too, includes what its callee did */
   if (tc->n > 0) {
      Active* outer = &tc->calls[tc->n - 1];
      for (UInt i = 0; i < a->n_producers; i++)
         producer_slot(outer, a->producers[i].id)->bytes += a->producers[i].bytes;
      for (UInt i = 0; i < a->n_objects; i++) {
         CpPcObject* o = object_slot(outer, a->objects[i].object);
         o->read_bytes += a->objects[i].read_bytes;
         o->written_bytes += a->objects[i].written_bytes;
         o->accesses += a->objects[i].accesses;
         o->locality_sum += a->objects[i].locality_sum;
      }
   }
   keep(a);
   if (tc == cur) cp_percall_active = tc->n > 0;
}

const CpPcRecord* cp_percall_records(UInt* n)
{
   *n = n_recs;
   return recs;
}

ULong cp_percall_dropped(void)
{
   return dropped;
}

void cp_percall_after_fork(void)
{
   /* The calls open at the fork: the forking thread's go on in the child,
      from empty (what they read before is the parent's) and numbered
      again from 1, outermost first, as the clock starts again; the other
      threads' are gone. */
   next_seq = 1;
   for (UInt t = 0; t < threads_cap; t++) {
      ThreadCalls* tc = &threads[t];
      if (tc == cur) {
         for (UInt i = 0; i < tc->n; i++) {
            tc->calls[i].seq = next_seq++;
            tc->calls[i].n_producers = tc->calls[i].n_objects = 0;
         }
      } else {
         for (UInt i = 0; i < tc->n; i++) VG_(free)(tc->calls[i].path);
         tc->n = 0;
      }
   }
   cp_percall_active = cur && cur->n > 0;
   for (UInt i = 0; i < n_recs; i++) {
      VG_(free)(recs[i].path);
      VG_(free)(recs[i].producers);
      VG_(free)(recs[i].objects);
   }
   n_recs = 0;
   dropped = 0;
   if (rec_index) {
      VG_(HT_destruct)(rec_index, VG_(free));
      rec_index = VG_(HT_construct)("cp.pc.index");
   }
}
