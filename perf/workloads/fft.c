/* fft: an iterative radix-2 complex FFT (decimation in time) over several
 * blocks of signal: each block is generated, transformed forward, filtered in
 * the frequency domain (a low-pass mask) and transformed back (inverse FFT and
 * 1/N scaling); at the end one more block makes the round trip unfiltered and
 * is compared with its input.
 *
 *   make_twiddles   cos/sin table of N/2 entries, shared by all blocks
 *   make_wave       sine table of N entries
 *   make_signal     a sum of tones (from the sine table) and noise per block (complex double)
 *   bit_reverse     the permutation that starts an in-place FFT
 *   fft             butterflies, log2(N) passes, sign -1 forward / +1 inverse
 *   lowpass         zeroes the high frequencies of the spectrum
 *   block_energy    energy of the filtered signal, the checksum
 *
 * The blocks live in one array (blocks x N complex doubles, 1 MiB a block).
 *
 * Usage: fft [blocks]   (default 80; N = 65536 points a block)
 * Work and data are proportional to blocks.  Prints "checksum: X" and
 * "written: N" (bytes of the block array, the tables and the check buffers).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define LOGN 16
#define N (1 << LOGN)
#define NOINLINE __attribute__((noinline))

typedef struct { double re, im; } cplx;

NOINLINE static void make_twiddles(cplx *tw)
{
   for (int k = 0; k < N / 2; k++) {
      double a = -2.0 * M_PI * k / N;
      tw[k].re = cos(a);
      tw[k].im = sin(a);
   }
}

/* sine of 2 pi k / N for k in [0, N) */
NOINLINE static void make_wave(double *wave)
{
   for (int k = 0; k < N; k++) wave[k] = sin(2.0 * M_PI * k / N);
}

/* Tones at integer frequencies (table look-ups), and noise. */
NOINLINE static void make_signal(cplx *x, const double *wave, int block)
{
   unsigned s = 777u + 31u * (unsigned)block, f1 = 5u + (unsigned)block;
   for (unsigned i = 0; i < N; i++) {
      s = s * 1664525u + 1013904223u;
      double noise = ((double)(s >> 8) / 16777216.0 - 0.5) * 0.2;
      x[i].re = wave[(f1 * i) % N] + 0.5 * wave[(1234u * i + N / 4) % N] + noise;
      x[i].im = 0.25 * wave[(300u * i) % N];
   }
}

NOINLINE static void bit_reverse(cplx *x)
{
   for (unsigned i = 1, j = 0; i < N; i++) {
      unsigned bit = N >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) { cplx t = x[i]; x[i] = x[j]; x[j] = t; }
   }
}

/* In place; sign -1: forward, +1: inverse (unscaled). */
NOINLINE static void fft(cplx *x, const cplx *tw, int sign)
{
   bit_reverse(x);
   for (int len = 2; len <= N; len <<= 1) {
      int half = len >> 1, step = N / len;
      for (int i = 0; i < N; i += len)
         for (int k = 0; k < half; k++) {
            cplx w = tw[k * step];
            if (sign > 0) w.im = -w.im;
            cplx *a = &x[i + k], *b = &x[i + k + half];
            double tr = b->re * w.re - b->im * w.im, ti = b->re * w.im + b->im * w.re;
            b->re = a->re - tr; b->im = a->im - ti;
            a->re += tr;        a->im += ti;
         }
   }
}

NOINLINE static void lowpass(cplx *x, int keep)
{
   for (int k = keep; k < N - keep; k++) x[k].re = x[k].im = 0;
}

NOINLINE static void scale(cplx *x)
{
   for (int i = 0; i < N; i++) { x[i].re /= N; x[i].im /= N; }
}

NOINLINE static double block_energy(const cplx *x)
{
   double e = 0;
   for (int i = 0; i < N; i++) e += x[i].re * x[i].re + x[i].im * x[i].im;
   return e;
}

int main(int argc, char **argv)
{
   int blocks = argc > 1 ? atoi(argv[1]) : 80;
   if (blocks < 1) { fprintf(stderr, "fft: blocks must be >= 1\n"); return 2; }
   cplx *tw = malloc(N / 2 * sizeof(cplx));
   double *wave = malloc(N * sizeof(double));
   cplx *data = malloc((size_t)blocks * N * sizeof(cplx));
   if (!tw || !wave || !data) { perror("malloc"); return 1; }
   make_twiddles(tw);
   make_wave(wave);
   double total = 0, maxerr = 0;
   for (int b = 0; b < blocks; b++) {
      cplx *x = data + (size_t)b * N;
      make_signal(x, wave, b);
      fft(x, tw, -1);
      lowpass(x, 2048);
      fft(x, tw, +1);
      scale(x);
      total += block_energy(x);
   }
   /* round-trip error on the first block, recomputed */
   cplx *y = malloc(N * sizeof(cplx)), *z = malloc(N * sizeof(cplx));
   if (!y || !z) { perror("malloc"); return 1; }
   make_signal(y, wave, 0);
   make_signal(z, wave, 0);
   fft(y, tw, -1);
   fft(y, tw, +1);
   scale(y);
   for (int i = 0; i < N; i++) {
      double e = fabs(y[i].re - z[i].re) + fabs(y[i].im - z[i].im);
      if (e > maxerr) maxerr = e;
   }
   printf("checksum: %.9e (round-trip error %.1e)\n", total, maxerr);
   printf("written: %zu\n", (size_t)blocks * N * sizeof(cplx) + N / 2 * sizeof(cplx) +
                               N * sizeof(double) + 2 * N * sizeof(cplx));
   free(y); free(z); free(tw); free(wave); free(data);
   return maxerr < 1e-9 ? 0 : 1;
}
