/* matmul: dense matrix multiply of doubles, C = A * B, n x n, the textbook
 * i-j-k triple loop: every entry of C is the dot product of a row of A
 * (read with stride 8 bytes) and a column of B (stride 8n bytes), the code
 * found in most programs that were not tuned with a BLAS, and a test of
 * strided access for the tools.  C is then checked against the same dot
 * products computed in the i-k-j order (rows of B streamed into rows of C).
 *
 *   init_matrices   A and B from a linear congruential generator
 *   multiply        C = A * B, i-j-k
 *   verify          D = A * B, i-k-j, on a band of rows; max |C - D|
 *
 * Usage: matmul [n]   (default 720)
 * The work is proportional to n^3 (2 n^3 flops), the data to n^2:
 * n * 2^(1/3) doubles the work.  Prints "checksum: X" and "written: N" (bytes
 * of the three matrices).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
NOINLINE static void init_matrices(double *a, double *b, int n)
{
   unsigned s = 2024;
   for (size_t i = 0; i < (size_t)n * n; i++) {
      s = s * 1103515245u + 12345u;
      a[i] = (double)((s >> 9) % 2001) / 1000.0 - 1.0;
   }
   for (size_t i = 0; i < (size_t)n * n; i++) {
      s = s * 1103515245u + 12345u;
      b[i] = (double)((s >> 9) % 2001) / 1000.0 - 1.0;
   }
}

NOINLINE static void multiply(const double *a, const double *b, double *c, int n)
{
   for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
         double s = 0;
         for (int k = 0; k < n; k++) s += a[(size_t)i * n + k] * b[(size_t)k * n + j];
         c[(size_t)i * n + j] = s;
      }
}

/* Rows [r0, r0 + rows) of A * B in the i-k-j order into d, compared with c. */
NOINLINE static double verify(const double *a, const double *b, const double *c, double *d,
                              int n, int r0, int rows)
{
   double maxerr = 0;
   for (int i = r0; i < r0 + rows; i++) {
      double *di = d + (size_t)(i - r0) * n;
      for (int j = 0; j < n; j++) di[j] = 0;
      for (int k = 0; k < n; k++) {
         double aik = a[(size_t)i * n + k];
         const double *bk = b + (size_t)k * n;
         for (int j = 0; j < n; j++) di[j] += aik * bk[j];
      }
      for (int j = 0; j < n; j++) {
         double e = fabs(di[j] - c[(size_t)i * n + j]);
         if (e > maxerr) maxerr = e;
      }
   }
   return maxerr;
}

int main(int argc, char **argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 720;
   if (n < 1) { fprintf(stderr, "matmul: n must be >= 1\n"); return 2; }
   size_t bytes = (size_t)n * n * sizeof(double);
   double *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
   if (!a || !b || !c) { perror("malloc"); return 1; }
   init_matrices(a, b, n);
   multiply(a, b, c, n);
   int rows = n < 16 ? n : 16;
   double *d = malloc((size_t)rows * n * sizeof(double));
   if (!d) { perror("malloc"); return 1; }
   double err = verify(a, b, c, d, n, n / 2 - rows / 2, rows);
   double sum = 0;
   for (size_t i = 0; i < (size_t)n * n; i++) sum += c[i] * (double)(i % 7 + 1);
   printf("checksum: %.6e (max error %.1e)\n", sum, err);
   printf("written: %zu\n", 3 * bytes + (size_t)rows * n * sizeof(double));
   free(a); free(b); free(c); free(d);
   return err < 1e-9 ? 0 : 1;   /* the two orders sum alike up to rounding */
}
