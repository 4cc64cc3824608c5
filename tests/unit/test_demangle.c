/* commprof unit test: readable names of C++ data symbols (commprof/cp_demangle.c).
 *
 *   gcc -O2 -g -DCP_HOST_TEST -I commprof tests/unit/test_demangle.c commprof/cp_demangle.c
 *
 * What is asserted:
 *   - demangle/table: the names g++ 12 gives the data of a test program
 *     (globals in namespaces and classes, internal linkage, the anonymous
 *     namespace, local statics of functions, members, constructors and
 *     destructors with their parameter types and discriminators, vtables,
 *     typeinfo, guard variables) come out as c++filt prints them; the kinds
 *     left out (templates, function and array types, TLS functions) and
 *     malformed names give NULL;
 *   - demangle/cxxfilt-random: names drawn at random from the grammar that
 *     cp_demangle_data knows, with random substitutions (S_, S0_, ...),
 *     qualifiers and discriminators, come out as c++filt (the reference
 *     model) prints them; where c++filt leaves a name as it is,
 *     cp_demangle_data must give NULL too.  Skipped (PASS with a note) when
 *     c++filt is not installed;
 *   - demangle/hostile: truncations, byte flips and insertions of valid
 *     names, random strings over the mangling alphabet, very deep nesting and
 *     very long names never crash (the sanitized build checks every access),
 *     and any result is a 0-terminated string shorter than CP_DEMANGLE_MAX.
 */
#include "refmodel.h"
#include "cp_demangle.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void expect(const char* sym, const char* want)
{
   char* got = cp_demangle_data(sym);
   if (want == NULL) {
      CHECK(got == NULL, "%s: got \"%s\", expected NULL", sym, got);
   } else {
      CHECK(got != NULL, "%s: got NULL, expected \"%s\"", sym, want);
      CHECK(strcmp(got, want) == 0, "%s: got \"%s\", expected \"%s\"", sym, got, want);
   }
   free(got);
}

static void case_table(uintptr_t unused)
{
   (void)unused;
   /* from g++ 12 and c++filt (binutils 2.40) */
   expect("_ZGVZ2f5vE2k4", "guard variable for f5()::k4");
   expect("_ZL9filelocal", "filelocal");
   expect("_ZN12_GLOBAL__N_16hiddenE", "(anonymous namespace)::hidden");
   expect("_ZN2ns3Foo5cacheE", "ns::Foo::cache");
   expect("_ZN2ns3varE", "ns::var");
   expect("_ZN2ns5inner5tableE", "ns::inner::table");
   expect("_ZTI1V", "typeinfo for V");
   expect("_ZTS1W", "typeinfo name for W");
   expect("_ZTV1V", "vtable for V");
   expect("_ZTVN2ns3FooE", "vtable for ns::Foo");
   expect("_ZTISt9exception", "typeinfo for std::exception");
   expect("_ZTT1W", "VTT for W");
   expect("_ZZ2f2yfabE1k", "f2(unsigned long long, float, signed char, bool)::k");
   expect("_ZZ2f3RN2ns3FooEPS0_RKS0_E2k2", "f3(ns::Foo&, ns::Foo*, ns::Foo const&)::k2");
   expect("_ZZ2f4PPPiPVKiE2k3", "f4(int***, int const volatile*)::k3");
   expect("_ZZ2f5vE1s", "f5()::s");
   expect("_ZZN2ns3FooC4EvE4made", "ns::Foo::Foo()::made");
   expect("_ZZN2ns3FooD4EvE4gone", "ns::Foo::~Foo()::gone");
   expect("_ZZNK2ns3Foo3barEiPKcE1n", "ns::Foo::bar(int, char const*) const::n");
   expect("_ZZNK2ns3Foo3barEiPKcE1n_0", "ns::Foo::bar(int, char const*) const::n");
   expect("_ZZNK2ns3Foo3barEiPKcE3buf", "ns::Foo::bar(int, char const*) const::buf");
   expect("_ZZ4mainEN1S1xE", "main::S::x");
   expect("_ZZN2ns3Foo3getERKS0_E1c", "ns::Foo::get(ns::Foo const&)::c");
   expect("_ZZN2ns3FooC2ERKS0_E1c", "ns::Foo::Foo(ns::Foo const&)::c");
   expect("_ZZ4mainE1x_12", "main::x");
   expect("_ZZ4mainE1x__12_", "main::x");
   expect("_ZZ4mainEs", "main::string literal");
   expect("_ZNSt3foo3barE", "std::foo::bar");
   expect("_ZSt4cout", "std::cout");
   expect("_ZGVZN2ns3FooC4EvE4made", "guard variable for ns::Foo::Foo()::made");
   expect("_ZZ1gDnE1z", "g(decltype(nullptr))::z");
   expect("_ZL1x", "x");
   /* ABI tags (std::string's cxx11): a global, a member, a local static, a guard */
   expect("_Z1gB5cxx11", "g[abi:cxx11]");
   expect("_ZN2ns4nameB5cxx11E", "ns::name[abi:cxx11]");
   expect("_ZZ1fB5cxx11vE1k", "f[abi:cxx11]()::k");
   expect("_ZGVZ1fvE1sB5cxx11", "guard variable for f()::s[abi:cxx11]");
   expect("_ZN2ns1xB1aB1bE", "ns::x[abi:a][abi:b]");
   expect("_ZN2ns1xBE", NULL);
   expect("_Z2f2yfab", "f2(unsigned long long, float, signed char, bool)");
   /* a suffix, printed as c++filt prints it for functions */
   expect("_ZL3buf.lto_priv.0", "buf [clone .lto_priv.0]");
   expect("_ZN2ns3varE.0", "ns::var [clone .0]");
   /* left as they are */
   expect("_ZN3FooIiE1xE", NULL);          /* template */
   expect("_ZZ1fPFivEE1k", NULL);          /* function type */
   expect("_ZZ1hRA3_iE1q", NULL);          /* array type */
   expect("_ZTH10tls_counter", NULL);
   expect("main", NULL);
   expect("", NULL);
   expect("_Z", NULL);
   expect("_ZN", NULL);
   expect("_ZNE", NULL);
   expect("_Z3fo", NULL);
   expect("_ZS_", NULL);
   expect("_ZN2nsS_E", NULL);
   expect("_ZZ4mainE", NULL);
   expect("_ZZ4mainE1x_", NULL);
   expect("_ZZ4mainE1x__1", NULL);
   expect("_ZNK2ns3varE", NULL);           /* const on a variable */
   expect("_ZN2ns3varE1x", "ns::var(x)");  /* a function taking an x */
   expect("_ZNrVK1x1fEv", "x::f() const volatile restrict");
   expect("_ZNVKR1x1fEv", "x::f() const volatile &");
   expect("_Z01x", NULL);
   expect("_Z1-", NULL);
   expect("_ZTV", NULL);
   expect("_ZC1", NULL);
}

/* ------------------------------------------------------------------ */
/* random names of the supported grammar, checked against c++filt      */
/* ------------------------------------------------------------------ */

typedef struct { char s[4096]; size_t n; } Buf;

static void b_add(Buf* b, const char* s)
{
   size_t k = strlen(s);
   if (b->n + k + 1 < sizeof b->s) { memcpy(b->s + b->n, s, k + 1); b->n += k; }
}

static void b_ident(Buf* b)
{
   static const char* words[] = { "x", "buf", "count", "Foo", "Bar", "table", "ns", "inner",
                                  "_GLOBAL__N_1", "a1", "k_2", "Vec3", "state" };
   const char* w = words[rnd(sizeof words / sizeof words[0])];
   char t[64];
   snprintf(t, sizeof t, "%zu%s", strlen(w), w);
   b_add(b, t);
}

/* An identifier with, sometimes, ABI tags (B5cxx11). */
static void b_tagged(Buf* b)
{
   b_ident(b);
   while (chance(10)) b_add(b, chance(70) ? "B5cxx11" : "B3abi");
}

static int subs_avail;              /* substitution candidates made so far (an estimate) */

/* A substitution S_, S0_, S1_, ... of one of the first `upto` candidates. */
static void b_sub(Buf* b, int upto)
{
   char t[16];
   int k = (int)rnd((uint64_t)upto + 1);
   if (k == 0) snprintf(t, sizeof t, "S_");
   else snprintf(t, sizeof t, "S%d_", k - 1);
   b_add(b, t);
}

static void b_type(Buf* b, int depth);

static void b_nested(Buf* b, int allow_quals, int allow_ctor)
{
   b_add(b, "N");
   if (allow_quals && chance(30)) b_add(b, chance(50) ? "K" : "VK");
   int n = 2 + (int)rnd(3);
   for (int i = 0; i < n; i++) {
      if (i == 0 && chance(15)) b_add(b, "St");
      if (i == 0 && subs_avail > 0 && chance(20)) {
         b_sub(b, subs_avail);
      } else {
         b_tagged(b);
      }
      if (i > 0 && i == n - 1 && allow_ctor && chance(20)) { b_add(b, chance(50) ? "C4" : "D4"); }
      subs_avail++;
   }
   b_add(b, "E");
}

static void b_type(Buf* b, int depth)
{
   static const char* builtin = "vwbcahstijlmxynofdegz";
   int r = (int)rnd(100);
   if (depth > 4 || r < 40) {
      char t[2] = { builtin[rnd(strlen(builtin))], 0 };
      b_add(b, t);
   } else if (r < 60) {
      b_add(b, (const char*[]){ "P", "R", "O", "K", "V" }[rnd(5)]);
      b_type(b, depth + 1);
      subs_avail++;
   } else if (r < 72) {
      b_ident(b);
      subs_avail++;
   } else if (r < 82) {
      b_nested(b, 0, 0);
      subs_avail++;
   } else if (r < 90 && subs_avail > 0) {
      b_sub(b, subs_avail + 1);          /* sometimes one past the last candidate */
   } else {
      b_add(b, (const char*[]){ "Dn", "Ds", "Di", "Du" }[rnd(4)]);
   }
}

static void b_params(Buf* b)
{
   if (chance(20)) { b_add(b, "v"); return; }
   int n = 1 + (int)rnd(4);
   for (int i = 0; i < n; i++) b_type(b, 0);
}

static void b_name(Buf* b)
{
   int r = (int)rnd(100);
   if (r < 25) {
      if (chance(30)) b_add(b, "L");
      b_tagged(b);
   } else if (r < 35) {
      b_add(b, "St");
      b_tagged(b);
   } else if (r < 70) {
      b_nested(b, 0, 0);
   } else {
      /* local name */
      b_add(b, "Z");
      if (chance(50)) b_ident(b); else b_nested(b, 1, 1);
      b_params(b);
      b_add(b, "E");
      if (chance(10)) b_add(b, "s");
      else if (chance(20)) b_nested(b, 0, 1);
      else b_ident(b);
      if (chance(20)) b_add(b, (const char*[]){ "_0", "_7", "__12_", "_3" }[rnd(4)]);
   }
}

static void random_name(Buf* b)
{
   b->n = 0;
   b->s[0] = 0;
   subs_avail = 0;
   b_add(b, "_Z");
   int r = (int)rnd(100);
   if (r < 15) {
      b_add(b, (const char*[]){ "TV", "TI", "TS", "TT" }[rnd(4)]);
      b_type(b, 3);
   } else if (r < 25) {
      b_add(b, "GV");
      b_name(b);
   } else {
      b_name(b);
   }
   if (chance(5)) b_add(b, ".lto_priv.0");
}

static void case_cxxfilt_random(uintptr_t unused)
{
   (void)unused;
   if (system("c++filt --version >/dev/null 2>&1") != 0) {
      printf("# demangle/cxxfilt-random: no c++filt here, not run\n");
      return;
   }
   char in[] = "/tmp/cp-demangle-in.XXXXXX";
   int fd = mkstemp(in);
   CHECK(fd >= 0, "mkstemp failed");
   FILE* f = fdopen(fd, "w");
   unsigned n = 4000 * tc_scale;
   char** names = calloc(n, sizeof(char*));
   Buf b;
   for (unsigned i = 0; i < n; i++) {
      random_name(&b);
      names[i] = strdup(b.s);
      fprintf(f, "%s\n", b.s);
   }
   fclose(f);
   char cmd[256];
   snprintf(cmd, sizeof cmd, "c++filt < %s", in);
   FILE* p = popen(cmd, "r");
   CHECK(p != NULL, "popen c++filt failed");
   char line[8192];
   unsigned ok = 0, unsupported = 0;
   for (unsigned i = 0; i < n; i++) {
      CHECK(fgets(line, sizeof line, p) != NULL, "c++filt gave %u lines of %u", i, n);
      line[strcspn(line, "\n")] = 0;
      char* got = cp_demangle_data(names[i]);
      int filt_kept = strcmp(line, names[i]) == 0;
      if (got == NULL) {
         unsupported++;
      } else if (strstr(names[i], ".lto_priv.0") != NULL) {
         /* c++filt leaves suffixed data names alone (see demangle/table) */
         ok++;
      } else if (filt_kept) {
         FAILF("%s: c++filt leaves it as it is, cp_demangle_data gives \"%s\"", names[i], got);
      } else {
         CHECK(strcmp(got, line) == 0, "%s: got \"%s\", c++filt \"%s\"", names[i], got, line);
         ok++;
      }
      free(got);
   }
   pclose(p);
   unlink(in);
   for (unsigned i = 0; i < n; i++) free(names[i]);
   free(names);
   /* the generator mostly makes names both understand */
   CHECK(ok > n / 2, "only %u of %u names compared (%u unsupported)", ok, n, unsupported);
}

/* ------------------------------------------------------------------ */
/* hostile input                                                       */
/* ------------------------------------------------------------------ */

static void check_any(const char* s)
{
   tc_note("input \"%.200s\"", s);
   char* got = cp_demangle_data(s);
   if (got) CHECK(strlen(got) < CP_DEMANGLE_MAX, "result of %zu chars", strlen(got));
   free(got);
}

static void case_hostile(uintptr_t unused)
{
   (void)unused;
   static const char* alpha = "_ZNSELKVrPROTIGVDCsnt0123456789abcdefghijklmxyz._$";
   Buf b;
   char s[4200];
   for (unsigned it = 0; it < 20000 * tc_scale; it++) {
      random_name(&b);
      size_t n = strlen(b.s);
      strcpy(s, b.s);
      switch (rnd(4)) {
      case 0: s[rnd(n + 1)] = 0; break;                                   /* truncation */
      case 1: s[rnd(n)] = alpha[rnd(strlen(alpha))]; break;               /* flip */
      case 2: {                                                           /* insertion */
         size_t at = rnd(n + 1);
         memmove(s + at + 1, s + at, n - at + 1);
         s[at] = alpha[rnd(strlen(alpha))];
         break;
      }
      default: {                                                          /* random */
         size_t k = 2 + rnd(40);
         s[0] = '_'; s[1] = 'Z';
         for (size_t i = 2; i < k; i++) s[i] = alpha[rnd(strlen(alpha))];
         s[k] = 0;
      }
      }
      check_any(s);
   }
   /* deep nesting and long names */
   strcpy(s, "_ZZ1f");
   for (int i = 0; i < 3000; i++) strcat(s, "P");
   strcat(s, "iE1x");
   expect(s, NULL);
   strcpy(s, "_ZN");
   for (int i = 0; i < 400; i++) strcat(s, "3abc");
   strcat(s, "E");
   expect(s, NULL);                                   /* longer than CP_DEMANGLE_MAX */
   strcpy(s, "_ZZ");
   for (int i = 0; i < 100; i++) strcat(s, "Z1f");
   strcat(s, "vE1x");
   check_any(s);
   strcpy(s, "_Z99999999999999999999x");
   expect(s, NULL);
   strcpy(s, "_ZS99999999999999_");
   expect(s, NULL);
   tc_clear_note();
}

int main(int argc, char** argv)
{
   tc_env();
   tc_add("demangle/table",          case_table,          0, 20);
   tc_add("demangle/cxxfilt-random", case_cxxfilt_random, 0, 120);
   tc_add("demangle/hostile",        case_hostile,        0, 120);
   return tc_run_all("test_demangle", argc, argv);
}
