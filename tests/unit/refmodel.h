/* commprof unit tests: shared harness and reference-model helpers.
 *
 * Included by tests/unit/test_shadow.c and tests/unit/test_edges.c, which are
 * built on the host with -DCP_HOST_TEST (see commprof/cp_port.h).
 *
 * Harness
 *   Each test case runs in a forked child (so a crash, an abort from
 *   CP_ASSERT, a sanitizer report or a hang is confined to that case), with an
 *   alarm as a time limit.  The parent prints exactly one line per case:
 *       PASS <name>
 *       FAIL <name>: <reason>
 *   and, at the end, a comment line "# <prog>: N passed, N failed".  The
 *   overall summary line is printed by tests/unit/run.
 *
 * Environment
 *   CP_TEST_SEED    base seed (decimal or 0x-hex); default fixed.  Every case
 *                   derives its own seed from it and its name, so a failing
 *                   case can be rerun alone with the same numbers.
 *   CP_TEST_PREFIX  prepended to every case name (the run script uses
 *                   "asan/" for the sanitized build).
 *   CP_TEST_NOFORK  if 1, run the cases in-process (for debuggers); the
 *                   first failure then ends the program.
 *   CP_TEST_SCALE   multiplies the number of random operations (default 1).
 * Arguments: substrings; only cases whose name contains one of them run.
 */
#ifndef CP_REFMODEL_H
#define CP_REFMODEL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>

/* ------------------------------------------------------------------ */
/* random numbers: splitmix64                                          */
/* ------------------------------------------------------------------ */

static uint64_t rng_state;

static inline uint64_t rnd64(void)
{
   uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
   z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
   return z ^ (z >> 31);
}
/* uniform in [0, n), n > 0 */
static inline uint64_t rnd(uint64_t n) { return rnd64() % n; }
/* uniform in [lo, hi] */
static inline uint64_t rnd_in(uint64_t lo, uint64_t hi) { return lo + rnd(hi - lo + 1); }
/* true with probability pct/100 */
static inline int chance(unsigned pct) { return rnd(100) < pct; }

/* ------------------------------------------------------------------ */
/* test harness                                                        */
/* ------------------------------------------------------------------ */

typedef void (*tc_fn)(uintptr_t arg);

typedef struct {
   char      name[96];
   tc_fn     fn;
   uintptr_t arg;
   unsigned  timeout_s;
} TCase;

#define TC_MAX 256
static TCase      tc_cases[TC_MAX];
static unsigned   tc_n;
static uint64_t   tc_base_seed = 0xC0335EEDULL;
static uint64_t   tc_case_seed;
static const char* tc_cur_name = "?";
static char*      tc_msg;            /* shared with the child: failure reason */
static char*      tc_notebuf;        /* shared: what the child was doing */
#define TC_MSG_SIZE 4096
#define TC_NOTE_SIZE 1024
static int        tc_nofork;
static unsigned   tc_scale = 1;
static char       tc_prefix[64];

static void tc_add(const char* name, tc_fn fn, uintptr_t arg, unsigned timeout_s)
{
   if (tc_n == TC_MAX) { fprintf(stderr, "too many test cases\n"); exit(2); }
   TCase* t = &tc_cases[tc_n++];
   snprintf(t->name, sizeof t->name, "%s", name);
   t->fn = fn;
   t->arg = arg;
   t->timeout_s = timeout_s;
}

#define TC_FAIL_EXIT 42

/* Record the failure reason and end the case.  _exit: do not run the leak
   checker over a half-finished case. */
static void __attribute__((noreturn, format(printf, 2, 3)))
tc_fail_at(int line, const char* fmt, ...)
{
   char buf[TC_MSG_SIZE / 2];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(buf, sizeof buf, fmt, ap);
   va_end(ap);
   char full[TC_MSG_SIZE / 2 + 128];
   snprintf(full, sizeof full, "%s [line %d, seed 0x%llx]", buf, line,
            (unsigned long long)tc_case_seed);
   if (tc_nofork) {
      printf("FAIL %s%s: %s\n", tc_prefix, tc_cur_name, full);
      fflush(stdout);
      exit(1);
   }
   snprintf(tc_msg, TC_MSG_SIZE, "%s", full);
   fflush(stdout);
   _exit(TC_FAIL_EXIT);
}

#define FAILF(...) tc_fail_at(__LINE__, __VA_ARGS__)
#define CHECK(cond, ...) do { if (!(cond)) tc_fail_at(__LINE__, __VA_ARGS__); } while (0)
#define CHECK_EQ(a, b, what, ...) do {                                          \
      unsigned long long _a = (unsigned long long)(a), _b = (unsigned long long)(b); \
      if (_a != _b) {                                                           \
         char _w[1024];                                                         \
         snprintf(_w, sizeof _w, what, ##__VA_ARGS__);                          \
         tc_fail_at(__LINE__, "%s: got %llu (0x%llx), expected %llu (0x%llx)", \
                    _w, _a, _a, _b, _b);                                        \
      } } while (0)

static uint64_t tc_name_hash(const char* s)
{
   uint64_t h = 1469598103934665603ULL;
   for (; *s; s++) { h ^= (unsigned char)*s; h *= 1099511628211ULL; }
   return h;
}

static int tc_selected(const TCase* t, int argc, char** argv)
{
   if (argc <= 1) return 1;
   for (int i = 1; i < argc; i++)
      if (strstr(t->name, argv[i])) return 1;
   return 0;
}

static void tc_env(void)
{
   const char* s = getenv("CP_TEST_SEED");
   if (s && *s) tc_base_seed = strtoull(s, NULL, 0);
   s = getenv("CP_TEST_PREFIX");
   if (s) snprintf(tc_prefix, sizeof tc_prefix, "%s", s);
   s = getenv("CP_TEST_NOFORK");
   tc_nofork = s && strcmp(s, "1") == 0;
   s = getenv("CP_TEST_SCALE");
   if (s && *s) { tc_scale = (unsigned)strtoul(s, NULL, 0); if (!tc_scale) tc_scale = 1; }
}

/* Runs the selected cases; returns the process exit status. */
static int tc_run_all(const char* prog, int argc, char** argv)
{
   unsigned pass = 0, fail = 0;
   printf("# %s: seed 0x%llx (set CP_TEST_SEED to override)\n", prog,
          (unsigned long long)tc_base_seed);
   fflush(stdout);
   tc_msg = mmap(NULL, TC_MSG_SIZE + TC_NOTE_SIZE, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
   if (tc_msg == MAP_FAILED) { perror("mmap"); return 2; }
   tc_notebuf = tc_msg + TC_MSG_SIZE;
   for (unsigned i = 0; i < tc_n; i++) {
      TCase* t = &tc_cases[i];
      if (!tc_selected(t, argc, argv)) continue;
      tc_cur_name = t->name;
      tc_case_seed = tc_base_seed ^ tc_name_hash(t->name);
      if (tc_nofork) {
         rng_state = tc_case_seed;
         t->fn(t->arg);
         printf("PASS %s%s\n", tc_prefix, t->name);
         fflush(stdout);
         pass++;
         continue;
      }
      tc_msg[0] = 0;
      tc_notebuf[0] = 0;
      fflush(stdout);
      fflush(stderr);
      pid_t pid = fork();
      if (pid < 0) { perror("fork"); return 2; }
      if (pid == 0) {
         alarm(t->timeout_s);
         rng_state = tc_case_seed;
         t->fn(t->arg);
         fflush(stdout);
         exit(0);                    /* runs the leak checker under ASan */
      }
      int st;
      while (waitpid(pid, &st, 0) < 0) { }
      tc_msg[TC_MSG_SIZE - 1] = 0;
      tc_notebuf[TC_NOTE_SIZE - 1] = 0;
      const char* note = tc_notebuf;
      if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && tc_msg[0] == 0) {
         printf("PASS %s%s\n", tc_prefix, t->name);
         pass++;
      } else {
         char why[TC_MSG_SIZE + 128];
         if (WIFEXITED(st) && WEXITSTATUS(st) == TC_FAIL_EXIT && tc_msg[0])
            snprintf(why, sizeof why, "%s", tc_msg);
         else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
            snprintf(why, sizeof why, "timed out after %u s (hang?)%s%s",
                     t->timeout_s, note[0] ? " in: " : "", note);
         else if (WIFSIGNALED(st))
            snprintf(why, sizeof why, "crashed with signal %d (%s)%s%s", WTERMSIG(st),
                     strsignal(WTERMSIG(st)), note[0] ? " in: " : "", note);
         else
            snprintf(why, sizeof why,
                     "exit status %d (sanitizer report or leak? see stderr)%s%s",
                     WEXITSTATUS(st), note[0] ? " in: " : "", note);
         printf("FAIL %s%s: %s\n", tc_prefix, t->name, why);
         fail++;
      }
      fflush(stdout);
   }
   printf("# %s: %u passed, %u failed\n", prog, pass, fail);
   fflush(stdout);
   return fail ? 1 : 0;
}

/* Context for failure messages written before a risky call (shown if the
   child then hangs or crashes). */
static void __attribute__((format(printf, 1, 2))) tc_note(const char* fmt, ...)
{
   if (tc_nofork || !tc_notebuf) return;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(tc_notebuf, TC_NOTE_SIZE, fmt, ap);
   va_end(ap);
}
static void tc_clear_note(void) { if (!tc_nofork && tc_notebuf) tc_notebuf[0] = 0; }

/* ------------------------------------------------------------------ */
/* a naive hash map from uint64 to uint64 (any key, including ~0)      */
/* ------------------------------------------------------------------ */

typedef struct {
   uint64_t*      keys;
   uint64_t*      vals;
   unsigned char* full;
   size_t         cap;      /* power of two or 0 */
   size_t         n;
} U64Map;

static inline size_t u64map_hash(uint64_t k)
{
   k ^= k >> 33; k *= 0xff51afd7ed558ccdULL;
   k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL;
   k ^= k >> 33;
   return (size_t)k;
}

static void u64map_free(U64Map* m)
{
   free(m->keys); free(m->vals); free(m->full);
   memset(m, 0, sizeof *m);
}

static void u64map_grow(U64Map* m)
{
   U64Map o = *m;
   m->cap = o.cap ? o.cap * 2 : 64;
   m->keys = calloc(m->cap, sizeof(uint64_t));
   m->vals = calloc(m->cap, sizeof(uint64_t));
   m->full = calloc(m->cap, 1);
   if (!m->keys || !m->vals || !m->full) { fprintf(stderr, "oom\n"); abort(); }
   m->n = 0;
   for (size_t i = 0; i < o.cap; i++)
      if (o.full[i]) {
         size_t j = u64map_hash(o.keys[i]) & (m->cap - 1);
         while (m->full[j]) j = (j + 1) & (m->cap - 1);
         m->full[j] = 1; m->keys[j] = o.keys[i]; m->vals[j] = o.vals[i];
         m->n++;
      }
   free(o.keys); free(o.vals); free(o.full);
}

/* Pointer to the value of k, or NULL. */
static uint64_t* u64map_find(const U64Map* m, uint64_t k)
{
   if (!m->cap) return NULL;
   size_t j = u64map_hash(k) & (m->cap - 1);
   while (m->full[j]) {
      if (m->keys[j] == k) return &m->vals[j];
      j = (j + 1) & (m->cap - 1);
   }
   return NULL;
}

/* Insert k (value v) if absent; returns 1 if it was inserted. */
static int u64map_put_new(U64Map* m, uint64_t k, uint64_t v)
{
   if (u64map_find(m, k)) return 0;
   if ((m->n + 1) * 2 > m->cap) u64map_grow(m);
   size_t j = u64map_hash(k) & (m->cap - 1);
   while (m->full[j]) j = (j + 1) & (m->cap - 1);
   m->full[j] = 1; m->keys[j] = k; m->vals[j] = v;
   m->n++;
   return 1;
}

#endif /* CP_REFMODEL_H */
