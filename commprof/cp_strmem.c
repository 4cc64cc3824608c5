/* commprof: exact replacements of libc's string and memory functions.
 *
 * Part of the preload library (vgpreload_commprof-<platform>.so): this code
 * runs on the simulated CPU, as client code, and its loads and stores are
 * counted like any other (charged to the innermost node function on the
 * stack, the caller, unless a --node-objs pattern matches the C library or the
 * preload library: then these functions are nodes, cp_instrument.c).
 *
 * Why: glibc's versions are written for speed with vector instructions, and
 * that makes them touch bytes the call does not ask for.  Its strlen reads
 * the aligned 32-byte blocks around the string, before its first byte and
 * after its terminator; its memcpy and memset cover a buffer with
 * overlapping vectors, so some bytes are read or written twice.  A profile
 * of communication then shows bytes that no C-level reasoning explains, and
 * edges to the producers of the neighbouring data.  These replacements
 * touch exactly the bytes of the C semantics, each once:
 *
 *   memcpy, mempcpy, memmove, bcopy  n bytes read, n written (copied backwards
 *                                   when the destination overlaps the source
 *                                   from above, so that every byte is read
 *                                   before it is overwritten)
 *   memset, bzero, explicit_bzero    n bytes written
 *   memcmp, bcmp                     byte pairs up to the first that differs
 *                                    (or all n)
 *   memchr, rawmemchr                bytes up to the one found (or all n)
 *   strlen                           the string and its terminator
 *   strnlen                          the same, at most n bytes
 *   strcpy, stpcpy                   the string and its terminator read and
 *                                    written
 *   strncpy                          min(len + 1, n) read, n written (zero padding)
 *   strcat                           dst up to its terminator read, then as strcpy
 *   strncat                          dst up to its terminator read, min(len + 1, n)
 *                                    of src read, what is copied and a terminator
 *                                    written
 *   strcmp, strncmp                  byte pairs up to the first that differs or
 *                                    ends both (at most n)
 *   strchr                           bytes up to the one found or the terminator
 *   strrchr                          the string and its terminator
 *   strspn, strcspn, strpbrk         the set and its terminator, once, then the
 *                                    string up to and including the byte where
 *                                    they stop
 *   strchrnul                        bytes up to the one found or the terminator
 *   memrchr                          bytes from the end down to the one found
 *   stpncpy                          as strncpy
 * and the _chk variants that _FORTIFY_SOURCE calls (which check the
 * destination's size as glibc's do, and on an overflow report it and abort
 * the program as glibc's do).
 *
 * Bulk copies and fills move 16 bytes per access, the rest 8, 4, 2 and 1
 * (each byte once, never outside the buffers); the string functions read
 * one byte per access, since any wider read could pass the terminator.
 * The bodies are inlined into each replacement, which makes no call and
 * keeps nothing on the stack: a caller is charged with the data accesses of
 * the function it called and nothing else.
 *
 * No libc here (this is libc): the file is compiled with -fno-builtin, and
 * the pragma below keeps gcc from turning the loops back into calls of
 * memcpy and memset or into vector loops of its own.
 */

#include "pub_tool_basics.h"
#include "pub_tool_redir.h"

#pragma GCC optimize("no-tree-loop-distribute-patterns", "no-tree-vectorize")

typedef unsigned long long CpV16 __attribute__((vector_size(16), aligned(1), may_alias));
typedef ULong  CpU8 __attribute__((aligned(1), may_alias));
typedef UInt   CpU4 __attribute__((aligned(1), may_alias));
typedef UShort CpU2 __attribute__((aligned(1), may_alias));

/* ---- the bodies ---- */

#define INLINE static inline __attribute__((always_inline))

static __attribute__((noreturn, noinline)) void chk_fail(void);

INLINE void copy_forward(UChar* d, const UChar* s, SizeT n)
{
   for (; n >= 16; n -= 16, d += 16, s += 16) *(CpV16*)d = *(const CpV16*)s;
   if (n & 8) { *(CpU8*)d = *(const CpU8*)s; d += 8; s += 8; }
   if (n & 4) { *(CpU4*)d = *(const CpU4*)s; d += 4; s += 4; }
   if (n & 2) { *(CpU2*)d = *(const CpU2*)s; d += 2; s += 2; }
   if (n & 1) *d = *s;
}

/* From the end down: for a destination above an overlapping source, every
   byte is read before the copy overwrites it. */
INLINE void copy_backward(UChar* d, const UChar* s, SizeT n)
{
   d += n;
   s += n;
   for (; n >= 16; n -= 16) { d -= 16; s -= 16; *(CpV16*)d = *(const CpV16*)s; }
   if (n & 8) { d -= 8; s -= 8; *(CpU8*)d = *(const CpU8*)s; }
   if (n & 4) { d -= 4; s -= 4; *(CpU4*)d = *(const CpU4*)s; }
   if (n & 2) { d -= 2; s -= 2; *(CpU2*)d = *(const CpU2*)s; }
   if (n & 1) { d -= 1; s -= 1; *d = *s; }
}

INLINE void copy_move(UChar* d, const UChar* s, SizeT n)
{
   if (d > s && d < s + n) copy_backward(d, s, n);
   else copy_forward(d, s, n);
}

INLINE void fill(UChar* d, UChar c, SizeT n)
{
   ULong w = 0x0101010101010101ULL * c;
   CpV16 v = { w, w };
   for (; n >= 16; n -= 16, d += 16) *(CpV16*)d = v;
   if (n & 8) { *(CpU8*)d = w; d += 8; }
   if (n & 4) { *(CpU4*)d = (UInt)w; d += 4; }
   if (n & 2) { *(CpU2*)d = (UShort)w; d += 2; }
   if (n & 1) *d = c;
}

INLINE SizeT str_len(const HChar* s)
{
   SizeT i = 0;
   while (s[i]) i++;
   return i;
}

/* Copy the string at s and its terminator to d, a byte at a time, d
   having room for dn bytes ((SizeT)-1: unchecked; a _chk caller's
   overflow aborts before the byte that would not fit); returns the address
   of the terminator written. */
INLINE HChar* str_copy(HChar* d, const HChar* s, SizeT dn)
{
   for (SizeT i = 0;; i++) {
      if (i >= dn) chk_fail();
      HChar c = s[i];
      d[i] = c;
      if (c == 0) return d + i;
   }
}

/* strncpy's copy: at most n bytes of s, then zeroes up to n; returns the
   length copied (the index of the first zero written, or n). */
INLINE SizeT str_ncopy(HChar* d, const HChar* s, SizeT n)
{
   SizeT i = 0;
   for (; i < n; i++) {
      HChar c = s[i];
      d[i] = c;
      if (c == 0) break;
   }
   if (i < n) fill((UChar*)d + i + 1, 0, n - i - 1);   /* the padding after the terminator */
   return i;
}

INLINE HChar* str_ncat(HChar* d, const HChar* s, SizeT n)
{
   HChar* e = d + str_len(d);
   SizeT i = 0;
   for (; i < n; i++) {
      HChar c = s[i];
      if (c == 0) break;
      e[i] = c;
   }
   e[i] = 0;
   return d;
}

/* Compare the strings at a and b, at most n bytes ((SizeT)-1: no bound),
   up to the first pair that differs or ends both. */
INLINE Int str_ncmp(const HChar* a, const HChar* b, SizeT n)
{
   for (SizeT i = 0; i < n; i++) {
      UChar u = (UChar)a[i], v = (UChar)b[i];
      if (u != v) return (Int)u - (Int)v;
      if (u == 0) return 0;
   }
   return 0;
}

/* The first byte of the string at s that is c or its terminator (strchrnul);
   *x gets that byte, so that a caller can tell which without reading it again. */
INLINE HChar* str_chr(const HChar* s, HChar c, HChar* x)
{
   for (;; s++) {
      *x = *s;
      if (*x == c || *x == 0) return (HChar*)s;
   }
}

/* A set of bytes, as strspn and its kin take it: 256 bits in four words
   that stay in registers (an array would be memory, on the caller's stack). */
typedef struct { ULong w0, w1, w2, w3; } ByteSet;

/* The bytes of the string at set, read once, its terminator included. */
INLINE ByteSet byteset_of(const HChar* set)
{
   ByteSet b = { 0, 0, 0, 0 };
   for (;; set++) {
      UChar c = (UChar)*set;
      if (c == 0) return b;
      ULong bit = 1ULL << (c & 63);
      if (c < 64) b.w0 |= bit;
      else if (c < 128) b.w1 |= bit;
      else if (c < 192) b.w2 |= bit;
      else b.w3 |= bit;
   }
}

INLINE Bool byteset_has(const ByteSet* b, UChar c)
{
   ULong w = c < 64 ? b->w0 : c < 128 ? b->w1 : c < 192 ? b->w2 : b->w3;
   return (w >> (c & 63)) & 1;
}

/* The length of the prefix of s whose bytes are (in) in the set or not
   (!in); reads that prefix and the byte after it. */
INLINE SizeT span(const HChar* s, const ByteSet* b, Bool in)
{
   SizeT i = 0;
   for (;; i++) {
      UChar c = (UChar)s[i];
      if (c == 0 || byteset_has(b, c) != in) return i;
   }
}

/* An overflow that glibc's _chk functions detect: report it and abort as
   glibc's __chk_fail does (its message on stderr, then SIGABRT). */
#if defined(__x86_64__) && defined(__linux__)
static long sys3(long nr, long a, long b, long c)
{
   long r;
   __asm__ volatile("syscall" : "=a"(r) : "0"(nr), "D"(a), "S"(b), "d"(c)
                    : "rcx", "r11", "memory");
   return r;
}
#endif

static __attribute__((noreturn, noinline)) void chk_fail(void)
{
#if defined(__x86_64__) && defined(__linux__)
   static const HChar msg[] = "*** buffer overflow detected ***: terminated\n";
   sys3(1 /* write */, 2, (long)msg, sizeof msg - 1);
   sys3(62 /* kill */, sys3(39 /* getpid */, 0, 0, 0), 6 /* SIGABRT */, 0);
#endif
   __builtin_trap();
}

/* ---- the replacements ----
   Each is made for libc.so* under the name glibc exports; a name that is
   an alias at the same address (index, rindex, bcmp, __mempcpy, __stpcpy,
   libc's internal __GI_ names, ...) is replaced with it, and the
   functions that glibc selects at load time (IFUNCs) are replaced in the
   implementation selected, so libc's own calls run these too.  The copies
   all behave as memmove: glibc resolves memcpy and memmove to one
   implementation, which one of the replacements then serves (an
   overlapping memcpy, undefined in C, copies as memmove does).  The
   equivalence-class tags (the five digits) keep one replacement per
   function when several names reach the same address.

   REPLACE(type, tag, name, (params)) { body } declares and defines the
   replacement of libc's name (tag: four digits of class, one of priority). */

#define CP_SO VG_Z_LIBC_SONAME
#define REPLACE(ret, tag, fn, params) \
   ret VG_REPLACE_FUNCTION_EZU(tag, CP_SO, fn) params; \
   ret VG_REPLACE_FUNCTION_EZU(tag, CP_SO, fn) params

/* copies and fills */
/* memcpy and memmove are one class: where glibc resolves both to one
   implementation, memcpy's name wins (priority 1).  The name matches every
   version of memcpy (memcpy@@GLIBC_2.14, and memcpy@GLIBC_2.2.5, the old
   one that tolerated overlap). */
REPLACE(void*, 21011, memcpy, (void* d, const void* s, SizeT n))
{ copy_move(d, s, n); return d; }
REPLACE(void*, 21020, __memcpy_chk, (void* d, const void* s, SizeT n, SizeT dn))
{ if (dn < n) chk_fail(); copy_move(d, s, n); return d; }
REPLACE(void*, 21040, mempcpy, (void* d, const void* s, SizeT n))
{ copy_move(d, s, n); return (UChar*)d + n; }
REPLACE(void*, 21050, __mempcpy_chk, (void* d, const void* s, SizeT n, SizeT dn))
{ if (dn < n) chk_fail(); copy_move(d, s, n); return (UChar*)d + n; }
REPLACE(void*, 21010, memmove, (void* d, const void* s, SizeT n))
{ copy_move(d, s, n); return d; }
REPLACE(void*, 21060, __memmove_chk, (void* d, const void* s, SizeT n, SizeT dn))
{ if (dn < n) chk_fail(); copy_move(d, s, n); return d; }
REPLACE(void, 21070, bcopy, (const void* s, void* d, SizeT n))
{ copy_move(d, s, n); }
REPLACE(void*, 21080, memset, (void* d, Int c, SizeT n))
{ fill(d, (UChar)c, n); return d; }
REPLACE(void*, 21090, __memset_chk, (void* d, Int c, SizeT n, SizeT dn))
{ if (dn < n) chk_fail(); fill(d, (UChar)c, n); return d; }
REPLACE(void, 21100, bzero, (void* d, SizeT n))
{ fill(d, 0, n); }
REPLACE(void, 21105, explicit_bzero, (void* d, SizeT n))
{ fill(d, 0, n); }

/* comparisons and searches of memory */
REPLACE(Int, 21110, memcmp, (const void* a, const void* b, SizeT n))
{
   const UChar* x = a;
   const UChar* y = b;
   for (SizeT i = 0; i < n; i++) {
      UChar u = x[i], v = y[i];
      if (u != v) return (Int)u - (Int)v;
   }
   return 0;
}
REPLACE(void*, 21120, memchr, (const void* s, Int c, SizeT n))
{
   const UChar* p = s;
   for (SizeT i = 0; i < n; i++)
      if (p[i] == (UChar)c) return (void*)(p + i);
   return NULL;
}
REPLACE(void*, 21130, rawmemchr, (const void* s, Int c))
{
   const UChar* p = s;
   while (*p != (UChar)c) p++;
   return (void*)p;
}

/* strings */
REPLACE(SizeT, 21140, strlen, (const HChar* s))
{ return str_len(s); }
REPLACE(SizeT, 21150, strnlen, (const HChar* s, SizeT n))
{
   SizeT i = 0;
   while (i < n && s[i]) i++;
   return i;
}
REPLACE(HChar*, 21160, strcpy, (HChar* d, const HChar* s))
{ str_copy(d, s, (SizeT)-1); return d; }
REPLACE(HChar*, 21170, stpcpy, (HChar* d, const HChar* s))
{ return str_copy(d, s, (SizeT)-1); }
/* The _chk copies stop at the destination's end (glibc's measure the
   string first, a second read of it, then copy). */
REPLACE(HChar*, 21180, __strcpy_chk, (HChar* d, const HChar* s, SizeT dn))
{ str_copy(d, s, dn); return d; }
REPLACE(HChar*, 21190, __stpcpy_chk, (HChar* d, const HChar* s, SizeT dn))
{ return str_copy(d, s, dn); }
REPLACE(HChar*, 21200, strncpy, (HChar* d, const HChar* s, SizeT n))
{ str_ncopy(d, s, n); return d; }
REPLACE(HChar*, 21210, __strncpy_chk, (HChar* d, const HChar* s, SizeT n, SizeT dn))
{ if (dn < n) chk_fail(); str_ncopy(d, s, n); return d; }
REPLACE(HChar*, 21220, strcat, (HChar* d, const HChar* s))
{ str_copy(d + str_len(d), s, (SizeT)-1); return d; }
REPLACE(HChar*, 21230, __strcat_chk, (HChar* d, const HChar* s, SizeT dn))
{
   SizeT k = str_len(d);
   if (k >= dn) chk_fail();
   str_copy(d + k, s, dn - k);
   return d;
}
REPLACE(HChar*, 21240, strncat, (HChar* d, const HChar* s, SizeT n))
{ return str_ncat(d, s, n); }
REPLACE(Int, 21250, strcmp, (const HChar* a, const HChar* b))
{ return str_ncmp(a, b, (SizeT)-1); }
REPLACE(Int, 21260, strncmp, (const HChar* a, const HChar* b, SizeT n))
{ return str_ncmp(a, b, n); }
REPLACE(HChar*, 21270, strchr, (const HChar* s, Int c))
{
   HChar x;
   HChar* p = str_chr(s, (HChar)c, &x);
   return x == (HChar)c ? p : NULL;
}
REPLACE(HChar*, 21280, strrchr, (const HChar* s, Int c))
{
   const HChar* last = NULL;
   for (;; s++) {
      HChar x = *s;
      if (x == (HChar)c) last = s;
      if (x == 0) return (HChar*)last;
   }
}
REPLACE(SizeT, 21290, strspn, (const HChar* s, const HChar* accept))
{
   ByteSet b = byteset_of(accept);
   return span(s, &b, True);
}
REPLACE(SizeT, 21300, strcspn, (const HChar* s, const HChar* reject))
{
   ByteSet b = byteset_of(reject);
   return span(s, &b, False);
}
REPLACE(HChar*, 21310, strpbrk, (const HChar* s, const HChar* accept))
{
   ByteSet b = byteset_of(accept);
   SizeT i = span(s, &b, False);
   return s[i] ? (HChar*)s + i : NULL;
}
REPLACE(HChar*, 21320, strchrnul, (const HChar* s, Int c))
{
   HChar x;
   return str_chr(s, (HChar)c, &x);
}
REPLACE(void*, 21330, memrchr, (const void* s, Int c, SizeT n))
{
   const UChar* p = s;
   while (n > 0) {
      n--;
      if (p[n] == (UChar)c) return (void*)(p + n);
   }
   return NULL;
}
REPLACE(HChar*, 21340, stpncpy, (HChar* d, const HChar* s, SizeT n))
{ return d + str_ncopy(d, s, n); }
