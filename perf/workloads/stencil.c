/* stencil: a 2-D 5-point Jacobi stencil (heat diffusion) over a grid of
 * doubles, rows x COLS, with fixed (Dirichlet) borders and two buffers that
 * are swapped after every iteration.
 *
 *   init_grid   hot spots and a warm border                        (double)
 *   sweep       one Jacobi iteration: out = in + 0.2 * laplacian(in)
 *   residual    max |out - in| of the last iteration
 *   grid_sum    the checksum
 *
 * Usage: stencil [rows]   (default 2400; COLS = 1024, ITERS = 100 iterations)
 * Work and data are proportional to rows.  Prints "checksum: X" and
 * "written: N" (bytes of the two grids).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define COLS 1024
#define ITERS 100
#define NOINLINE __attribute__((noinline))

NOINLINE static void init_grid(double *g, int rows)
{
   for (int y = 0; y < rows; y++)
      for (int x = 0; x < COLS; x++) {
         double v = 0;
         if (y == 0 || x == 0 || y == rows - 1 || x == COLS - 1) v = 50;   /* warm border */
         if ((x % 128 == 64) && (y % 128 == 64)) v = 1000;                 /* hot spots */
         g[(size_t)y * COLS + x] = v;
      }
}

NOINLINE static void sweep(const double *in, double *out, int rows)
{
   for (int y = 1; y < rows - 1; y++) {
      const double *up = in + (size_t)(y - 1) * COLS, *c = in + (size_t)y * COLS,
                   *dn = in + (size_t)(y + 1) * COLS;
      double *o = out + (size_t)y * COLS;
      for (int x = 1; x < COLS - 1; x++)
         o[x] = c[x] + 0.2 * (up[x] + dn[x] + c[x - 1] + c[x + 1] - 4 * c[x]);
   }
}

NOINLINE static double residual(const double *a, const double *b, int rows)
{
   double m = 0;
   for (size_t i = 0; i < (size_t)rows * COLS; i++) {
      double d = fabs(a[i] - b[i]);
      if (d > m) m = d;
   }
   return m;
}

NOINLINE static double grid_sum(const double *g, int rows)
{
   double s = 0;
   for (size_t i = 0; i < (size_t)rows * COLS; i++) s += g[i] * (double)(1 + i % 3);
   return s;
}

int main(int argc, char **argv)
{
   int rows = argc > 1 ? atoi(argv[1]) : 2400;
   if (rows < 3) { fprintf(stderr, "stencil: rows must be >= 3\n"); return 2; }
   size_t bytes = (size_t)rows * COLS * sizeof(double);
   double *a = malloc(bytes), *b = malloc(bytes);
   if (!a || !b) { perror("malloc"); return 1; }
   init_grid(a, rows);
   init_grid(b, rows);                       /* the borders of both buffers */
   for (int it = 0; it < ITERS; it++) {
      sweep(a, b, rows);
      double *t = a; a = b; b = t;
   }
   double res = residual(a, b, rows);
   printf("checksum: %.9e (last residual %.3e)\n", grid_sum(a, rows), res);
   printf("written: %zu\n", 2 * bytes);
   free(a); free(b);
   return 0;
}
