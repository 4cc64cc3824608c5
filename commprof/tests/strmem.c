/* cflags: -fno-builtin -Wl,-z,now */
/* strmem: libc's string and memory functions touch exactly the bytes of their C
 * semantics, each once (commprof replaces glibc's vector versions, which read
 * around strings and cover buffers with overlapping vectors; see cp_strmem.c).
 *
 * -fno-builtin keeps gcc from expanding the calls inline at -O2 (each call is a
 * call of libc); -Wl,-z,now binds the PLT before _start; every call is followed
 * by an empty asm so that it is not a tail jump (the caller stays on the stack
 * and is charged with the call's accesses).  All buffers are in .bss: never
 * written before the functions below, i.e. (unwritten) until then.
 *
 * 1. A string next to other data.  r.name is char[13], r.x an int at offset 16.
 *    setname: strcpy(r.name, "abc")    writes r.name[0..4) (3 chars + NUL)
 *    setx:    r.x = 42                 writes r.x (4 bytes)
 *    lenf:    strlen(r.name) = 3       reads r.name[0..4)
 *      setname -> lenf  bytes=4 unma=4
 *      no setx -> lenf edge: strlen reads nothing past the terminator (glibc's
 *      reads the whole aligned 32-byte block, r.x included).
 *
 * 2. An overlapping memmove.
 *    fillA: memset(A, 'q', 150)        writes A[0..150)
 *    moveA: memmove(A + 10, A, 100)    reads A[0..100), all fillA's, each once
 *                                      (copied from the end down, every byte is
 *                                      read before it is overwritten), writes
 *                                      A[10..110)
 *      fillA -> moveA  bytes=100 unma=100
 *    mcmp:  memcmp(A, A + 100, 20) = 0 all 'q': compares all 20 pairs, reads
 *                                      A[0..20) and A[100..120):
 *                                      A[0..10) fillA, A[10..20) moveA,
 *                                      A[100..110) moveA, A[110..120) fillA
 *      fillA -> mcmp  bytes=20 unma=20
 *      moveA -> mcmp  bytes=20 unma=20
 *    sumA:  reads A[0..150) once, a byte at a time
 *      fillA -> sumA  bytes=50 unma=50   (A[0..10) and A[110..150))
 *      moveA -> sumA  bytes=100 unma=100 (A[10..110))
 *
 * 3. Comparisons and searches stop where the C semantics stop.
 *    setb:  strcpy(B, "hello world")   writes B[0..12)
 *    setc:  strcpy(C, "help")          writes C[0..5)
 *    cmpf:  strcmp(B, C) < 0           "hel" equal, 'l' < 'p' at index 3:
 *                                      reads B[0..4) and C[0..4)
 *      setb -> cmpf  bytes=4 unma=4
 *      setc -> cmpf  bytes=4 unma=4
 *    ncmpf: strncmp(B, C, 2) = 0       reads B[0..2) and C[0..2)
 *      setb -> ncmpf  bytes=2 unma=2
 *      setc -> ncmpf  bytes=2 unma=2
 *    chrf:  strchr(B, 'w') = B + 6     reads B[0..7)
 *      setb -> chrf  bytes=7 unma=7
 *    mchr:  memchr(B, 'z', 12) = NULL  reads B[0..12)
 *      setb -> mchr  bytes=12 unma=12
 *    rchr:  strrchr(B, 'o') = B + 7    reads the whole string and its
 *                                      terminator: B[0..12)
 *      setb -> rchr  bytes=12 unma=12
 *    cnul:  strchrnul(B, 'z') = B + 11 reads up to the terminator: B[0..12)
 *      setb -> cnul  bytes=12 unma=12
 *    mrchr: memrchr(B, 'o', 12) = B + 7 reads from the end down: B[7..12)
 *      setb -> mrchr  bytes=5 unma=5
 *
 * 4. strncpy pads, strcat appends.
 *    ncp:   strncpy(D, C, 10)          reads C[0..5) ("help" and its NUL),
 *                                      writes D[0..10) (5 copied, 5 of padding)
 *      setc -> ncp  bytes=5 unma=5
 *    catf:  strcat(D, "!!")            reads D[0..5) to find the end, writes
 *                                      D[4..7) ("!!" and a NUL)
 *      ncp -> catf  bytes=5 unma=5
 *    sncp:  stpncpy(F, C, 3) = F + 3   reads C[0..3) ("hel", no terminator
 *                                      within 3), writes F[0..3)
 *      setc -> sncp  bytes=3 unma=3
 *    cpyf:  memcpy(E, D, 10)           reads D[0..10): D[0..4) and D[7..10)
 *                                      ncp's, D[4..7) catf's; writes E[0..10)
 *      ncp -> cpyf   bytes=7 unma=7
 *      catf -> cpyf  bytes=3 unma=3
 *    useE:  reads E[0..10) once
 *      cpyf -> useE  bytes=10 unma=10
 *
 * 5. Spans read the set once, its terminator included, and the string up to
 *    and including the byte where they stop.
 *    setline: strcpy(L, "ab,cd;;ef")  writes L[0..10)
 *    spanf:   strspn(L, "abc") = 2     reads "abc" (4 bytes) and L[0..3)
 *      setline -> spanf  bytes=3 unma=3
 *    cspanf:  strcspn(L, ";") = 5      reads ";" (2 bytes) and L[0..6)
 *      setline -> cspanf  bytes=6 unma=6
 *    pbrkf:   strpbrk(L, "xyz") = NULL reads "xyz" (4 bytes) and L[0..10)
 *      setline -> pbrkf  bytes=10 unma=10
 *
 * 6. The string literals, in .rodata, are (unwritten); each function reads its
 *    literal and terminator once:
 *      (unwritten) -> setname  bytes=4 unma=4    "abc"
 *      (unwritten) -> setb     bytes=12 unma=12  "hello world"
 *      (unwritten) -> setc     bytes=5 unma=5    "help"
 *      (unwritten) -> catf     bytes=3 unma=3    "!!"
 *      (unwritten) -> setline  bytes=10 unma=10  "ab,cd;;ef"
 *      (unwritten) -> spanf    bytes=4 unma=4    "abc" (the same bytes as setname's:
 *                                                the linker merges equal literals)
 *      (unwritten) -> cspanf   bytes=2 unma=2    ";"
 *      (unwritten) -> pbrkf    bytes=4 unma=4    "xyz"
 *
 * strmem-libcnodes runs the -O2 build with --node-objs set to a star, a slash and
 * libc.so.6, a pattern that matches the C library's full path only: commprof's strcpy and strlen are
 * then nodes of their own, and the first string moves to them:
 *      strcpy -> strlen  bytes=4 unma=4   (r.name[0..4)), no edge between setname
 *      and lenf, no self-edge.
 *
 * No other edges among these functions, self-edges included at -O2 (each
 * reads only the bytes listed; at -O0 the functions also use their own stack
 * frames).  The same edges at -O0 and -O2.
 *
 * -O2 also checks each function's loads and stores, which at -O2 are only
 * those of the libc call (the call's return address is not counted, see
 * docs/definitions.md): the string functions read and write a byte per
 * access; copies and fills take 16 bytes per access, then 8, 4, 2, 1:
 *   setname  strcpy 4 bytes:           loads=4 stores=4 bytes 4 / 4
 *   lenf     strlen, 4 bytes read:     loads=4
 *   fillA    memset 150 = 9*16 + 4 + 2:  stores=11, 150 bytes
 *   moveA    memmove 100 = 6*16 + 4:     loads=7 stores=7, 100 / 100
 *   mcmp     memcmp, 20 pairs:         loads=40
 *   cmpf     strcmp, 4 pairs:          loads=8
 *   ncmpf    strncmp, 2 pairs:         loads=4
 *   chrf     strchr, 7 bytes:          loads=7
 *   mchr     memchr, 12 bytes:         loads=12
 *   rchr     strrchr, 12 bytes:        loads=12
 *   cnul     strchrnul, 12 bytes:      loads=12
 *   mrchr    memrchr, 5 bytes:         loads=5
 *   sncp     stpncpy, 3 bytes:         loads=3 stores=3, 3 / 3
 *   ncp      strncpy: 5 bytes copied one at a time, 5 of padding = 4 + 1:
 *                                      loads=5 stores=7, 5 / 10 bytes
 *   catf     strcat: 5 bytes of D to its end, 3 of "!!" copied:
 *                                      loads=8 stores=3, 8 / 3 bytes
 *   cpyf     memcpy 10 = 8 + 2:        loads=2 stores=2, 10 / 10
 *   spanf    strspn: 4 + 3 bytes:      loads=7
 *   cspanf   strcspn: 2 + 6 bytes:     loads=8
 *   pbrkf    strpbrk: 4 + 10 bytes:    loads=14
 *
 * stdout: len=3 x=42 memcmp=0 sumA=16950 (150 * 'q' = 150 * 113) strcmp<0=1
 * strncmp=0 strchr=6 memchr=null strrchr=7 useE=491 ("help!!" = 104 + 101 + 108
 * + 112 + 33 + 33, then four zero bytes) strspn=2 strcspn=5 strpbrk=null
 * strchrnul=11 memrchr=7 stpncpy=3.
 */
#define _GNU_SOURCE                     /* strchrnul, memrchr */
#include <stdio.h>
#include <string.h>

#define NO_TAIL() __asm__ volatile("" ::: "memory")

struct rec { char name[13]; int x; };
static struct rec r __attribute__((aligned(32)));
static char A[160] __attribute__((aligned(64)));
static char B[32] __attribute__((aligned(64)));
static char C[32] __attribute__((aligned(64)));
static char D[32] __attribute__((aligned(64)));
static char E[32] __attribute__((aligned(64)));
static char L[32] __attribute__((aligned(64)));
static char F[32] __attribute__((aligned(64)));

__attribute__((noipa)) void setname(void) { strcpy(r.name, "abc"); NO_TAIL(); }
__attribute__((noipa)) void setx(void) { r.x = 42; }
__attribute__((noipa)) size_t lenf(void) { size_t n = strlen(r.name); NO_TAIL(); return n; }

__attribute__((noipa)) void fillA(void) { memset(A, 'q', 150); NO_TAIL(); }
__attribute__((noipa)) void moveA(void) { memmove(A + 10, A, 100); NO_TAIL(); }
__attribute__((noipa)) int mcmp(void) { int v = memcmp(A, A + 100, 20); NO_TAIL(); return v; }
/* The sum of n bytes at p, each read once (inlined: the reads are the caller's). */
static inline __attribute__((always_inline)) long sum_bytes(const char *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += *(const volatile char *)&p[i];
    return s;
}

__attribute__((noipa)) long sumA(void) { return sum_bytes(A, 150); }

__attribute__((noipa)) void setb(void) { strcpy(B, "hello world"); NO_TAIL(); }
__attribute__((noipa)) void setc(void) { strcpy(C, "help"); NO_TAIL(); }
__attribute__((noipa)) int cmpf(void) { int v = strcmp(B, C); NO_TAIL(); return v; }
__attribute__((noipa)) int ncmpf(void) { int v = strncmp(B, C, 2); NO_TAIL(); return v; }
__attribute__((noipa)) char *chrf(void) { char *p = strchr(B, 'w'); NO_TAIL(); return p; }
__attribute__((noipa)) void *mchr(void) { void *p = memchr(B, 'z', 12); NO_TAIL(); return p; }
__attribute__((noipa)) char *rchr(void) { char *p = strrchr(B, 'o'); NO_TAIL(); return p; }
__attribute__((noipa)) char *cnul(void) { char *p = strchrnul(B, 'z'); NO_TAIL(); return p; }
__attribute__((noipa)) void *mrchr(void) { void *p = memrchr(B, 'o', 12); NO_TAIL(); return p; }

__attribute__((noipa)) void ncp(void) { strncpy(D, C, 10); NO_TAIL(); }
__attribute__((noipa)) char *sncp(void) { char *p = stpncpy(F, C, 3); NO_TAIL(); return p; }
__attribute__((noipa)) void catf(void) { strcat(D, "!!"); NO_TAIL(); }
__attribute__((noipa)) void cpyf(void) { memcpy(E, D, 10); NO_TAIL(); }
__attribute__((noipa)) long useE(void) { return sum_bytes(E, 10); }

__attribute__((noipa)) void setline(void) { strcpy(L, "ab,cd;;ef"); NO_TAIL(); }
__attribute__((noipa)) size_t spanf(void) { size_t n = strspn(L, "abc"); NO_TAIL(); return n; }
__attribute__((noipa)) size_t cspanf(void) { size_t n = strcspn(L, ";"); NO_TAIL(); return n; }
__attribute__((noipa)) char *pbrkf(void) { char *p = strpbrk(L, "xyz"); NO_TAIL(); return p; }

int main(void)
{
    setname();
    setx();
    size_t len = lenf();

    fillA();
    moveA();
    int mc = mcmp();
    long sa = sumA();

    setb();
    setc();
    int c1 = cmpf();
    int c2 = ncmpf();
    char *ch = chrf();
    void *mh = mchr();
    char *rh = rchr();
    char *cn = cnul();
    char *mr = mrchr();

    ncp();
    char *sn = sncp();
    catf();
    cpyf();
    long se = useE();

    setline();
    size_t sp = spanf();
    size_t cs = cspanf();
    char *pb = pbrkf();

    printf("len=%zu x=%d memcmp=%d sumA=%ld strcmp<0=%d strncmp=%d strchr=%td memchr=%s "
           "strrchr=%td useE=%ld strspn=%zu strcspn=%zu strpbrk=%s strchrnul=%td memrchr=%td "
           "stpncpy=%td\n",
           len, r.x, mc, sa, c1 < 0, c2, ch - B, mh ? "found" : "null", rh - B, se,
           sp, cs, pb ? "found" : "null", cn - B, (char *)mr - B, sn - F);
    return 0;
}
