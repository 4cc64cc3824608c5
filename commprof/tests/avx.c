/* cflags: -mavx2 */
/* avx: 32-byte AVX and 16-byte SSE loads and stores count every byte.
 *
 * Buffers are 64-byte aligned globals. Each loaded vector is pinned in a register by an
 * empty asm (so gcc -O2 loads it exactly once instead of folding the load into several
 * instructions that each read memory), and between consecutive loads there is a
 * compiler memory barrier (so gcc cannot build the unaligned vector out of the two
 * aligned ones).
 *
 * AVX part:
 *   f: two aligned 32-byte stores (vmovdqa ymm): bytes v[0..32) and v[32..64)
 *   g: three 32-byte loads: aligned v[0..32), aligned v[32..64), unaligned v[16..48)
 *      (if the compiler splits the unaligned load into two 16-byte halves, the bytes
 *      read are the same)
 *   => f -> g bytes = 32 + 32 + 32 = 96, unma = 64 (v[16..48) was already counted)
 *
 * SSE part:
 *   f16: two aligned 16-byte stores (movdqa/vmovdqa xmm): w[0..16) and w[16..32)
 *   g16: three 16-byte loads: w[0..16), w[16..32), unaligned w[8..24)
 *   => f16 -> g16 bytes = 16 + 16 + 16 = 48, unma = 32
 *
 * No cross edges f -> g16 or f16 -> g (separate buffers). The vectors g/g16 load are
 * combined in registers (at -O0 also via their own stack slots: self edges) and the
 * results are returned in registers.
 *
 * stdout: v holds 16 ints: f stores {1..8} and {9..16}; g returns the sum of the 8 ints
 *   of each load: (1+..+8) + (9+..+16) + (5+..+12) = 36 + 100 + 68 = 204.
 *   w holds 8 ints: f16 stores {1..4} and {5..8}; g16: (1+..+4) + (5+..+8) + (3+..+6)
 *   = 10 + 26 + 18 = 54.
 */
#include <immintrin.h>
#include <stdio.h>

#define BARRIER() __asm__ volatile("" ::: "memory")
/* Pin a loaded vector in a register: gcc must materialise it once, here, and cannot
 * fold the load into several instructions that each read memory again (gcc -O2 does
 * that otherwise: the unaligned load of g16 became two memory operands). */
#define PIN(x) __asm__ volatile("" : "+x"(x))

static int v[16] __attribute__((aligned(64)));
static int w[8] __attribute__((aligned(64)));

__attribute__((noipa)) void f(int *p, int base)
{
    __m256i lo = _mm256_add_epi32(_mm256_set1_epi32(base),
                                  _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    __m256i hi = _mm256_add_epi32(lo, _mm256_set1_epi32(8));
    _mm256_store_si256((__m256i *)p, lo);
    _mm256_store_si256((__m256i *)(p + 8), hi);
}

static inline __attribute__((always_inline)) int hsum256(__m256i x)
{
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
    return _mm_cvtsi128_si32(s);
}

__attribute__((noipa)) int g(const int *p)
{
    __m256i a = _mm256_load_si256((const __m256i *)p);
    PIN(a);
    BARRIER();
    __m256i b = _mm256_load_si256((const __m256i *)(p + 8));
    PIN(b);
    BARRIER();
    __m256i c = _mm256_loadu_si256((const __m256i *)(p + 4));
    PIN(c);
    return hsum256(a) + hsum256(b) + hsum256(c);
}

__attribute__((noipa)) void f16(int *p, int base)
{
    __m128i lo = _mm_add_epi32(_mm_set1_epi32(base), _mm_setr_epi32(0, 1, 2, 3));
    __m128i hi = _mm_add_epi32(lo, _mm_set1_epi32(4));
    _mm_store_si128((__m128i *)p, lo);
    _mm_store_si128((__m128i *)(p + 4), hi);
}

static inline __attribute__((always_inline)) int hsum128(__m128i s)
{
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
    return _mm_cvtsi128_si32(s);
}

__attribute__((noipa)) int g16(const int *p)
{
    __m128i a = _mm_load_si128((const __m128i *)p);
    PIN(a);
    BARRIER();
    __m128i b = _mm_load_si128((const __m128i *)(p + 4));
    PIN(b);
    BARRIER();
    __m128i c = _mm_loadu_si128((const __m128i *)(p + 2));
    PIN(c);
    return hsum128(a) + hsum128(b) + hsum128(c);
}

int main(void)
{
    f(v, 1);
    int a = g(v);
    f16(w, 1);
    int b = g16(w);
    printf("avx sum256=%d sum128=%d\n", a, b);
    return 0;
}
