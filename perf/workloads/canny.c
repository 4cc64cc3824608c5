/* canny: an image pipeline in the style of Canny edge detection (the MCProf
 * case study), on a synthetic grey-level image of WIDTH x rows pixels.
 *
 *   make_image       synthetic scene: discs, bars, a gradient and noise   (uchar)
 *   gaussian_smooth  separable gaussian, sigma 1.4, 9 taps, via a temporary (float -> short)
 *   derivatives      x and y central differences                         (short, short)
 *   magnitude        gradient magnitude                                   (short)
 *   non_max_supp     non-maximum suppression along the gradient direction (uchar)
 *   thresholds       high/low thresholds from the magnitude histogram of the candidates
 *   hysteresis       edge following from strong pixels with an explicit stack (uchar)
 *
 * Every stage is its own function and owns heap buffers (allocated by main
 * before the stage runs, freed when the next stage no longer needs them), as
 * in the original canny.c.
 *
 * Usage: canny [rows]   (default 5000; the width is fixed at 1024 pixels)
 * Work and data are proportional to rows.
 * Prints "checksum: X" and "written: N" (peak bytes of live heap data the
 * program writes, for the shadow-per-written-byte statistic of perf/run).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 1024
#define NOINLINE __attribute__((noinline))

static size_t live_bytes, peak_bytes;

static void *xmalloc(size_t n)
{
   void *p = malloc(n);
   if (!p) { perror("malloc"); exit(1); }
   live_bytes += n;
   if (live_bytes > peak_bytes) peak_bytes = live_bytes;
   return p;
}

static void xfree(void *p, size_t n)
{
   free(p);
   live_bytes -= n;
}

static unsigned lcg(unsigned *s)
{
   *s = *s * 1664525u + 1013904223u;
   return *s >> 8;
}

NOINLINE static void make_image(unsigned char *img, int w, int h)
{
   unsigned seed = 12345;
   for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
         int v = 40 + (x * 60) / w;                                /* gradient */
         int cx = (x / 128) * 128 + 64, cy = (y / 128) * 128 + 64;
         int dx = x - cx, dy = y - cy, r = 20 + ((x / 128 + y / 128) % 4) * 10;
         if (dx * dx + dy * dy < r * r) v += 120;                 /* discs */
         if ((x + 2 * y) % 300 < 12) v += 60;                      /* slanted bars */
         v += (int)(lcg(&seed) % 17) - 8;                          /* noise */
         img[(size_t)y * w + x] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
      }
}

NOINLINE static void gaussian_smooth(const unsigned char *img, int w, int h, float sigma,
                                     short *smoothed)
{
   int center = (int)ceil(2.5 * sigma), windowsize = 1 + 2 * center;
   float *kernel = xmalloc(windowsize * sizeof(float));
   float sum = 0;
   for (int i = 0; i < windowsize; i++) {
      float x = (float)(i - center);
      kernel[i] = expf(-0.5f * x * x / (sigma * sigma));
      sum += kernel[i];
   }
   for (int i = 0; i < windowsize; i++) kernel[i] /= sum;

   float *tmp = xmalloc((size_t)w * h * sizeof(float));
   for (int y = 0; y < h; y++)                                     /* blur in x */
      for (int x = 0; x < w; x++) {
         float dot = 0, ks = 0;
         for (int c = -center; c <= center; c++)
            if (x + c >= 0 && x + c < w) {
               dot += img[(size_t)y * w + x + c] * kernel[center + c];
               ks += kernel[center + c];
            }
         tmp[(size_t)y * w + x] = dot / ks;
      }
   for (int y = 0; y < h; y++)                                     /* blur in y */
      for (int x = 0; x < w; x++) {
         float dot = 0, ks = 0;
         for (int r = -center; r <= center; r++)
            if (y + r >= 0 && y + r < h) {
               dot += tmp[(size_t)(y + r) * w + x] * kernel[center + r];
               ks += kernel[center + r];
            }
         smoothed[(size_t)y * w + x] = (short)(dot * 90.0f / ks + 0.5f);
      }
   xfree(tmp, (size_t)w * h * sizeof(float));
   xfree(kernel, windowsize * sizeof(float));
}

NOINLINE static void derivatives(const short *sm, int w, int h, short *dx, short *dy)
{
   for (int y = 0; y < h; y++) {
      size_t p = (size_t)y * w;
      dx[p] = sm[p + 1] - sm[p];
      for (int x = 1; x < w - 1; x++) dx[p + x] = sm[p + x + 1] - sm[p + x - 1];
      dx[p + w - 1] = sm[p + w - 1] - sm[p + w - 2];
   }
   for (int x = 0; x < w; x++) dy[x] = sm[w + x] - sm[x];
   for (int y = 1; y < h - 1; y++)
      for (int x = 0; x < w; x++) {
         size_t p = (size_t)y * w + x;
         dy[p] = sm[p + w] - sm[p - w];
      }
   for (int x = 0; x < w; x++) {
      size_t p = (size_t)(h - 1) * w + x;
      dy[p] = sm[p] - sm[p - w];
   }
}

NOINLINE static void magnitude(const short *dx, const short *dy, int w, int h, short *mag)
{
   for (size_t i = 0; i < (size_t)w * h; i++) {
      int sq = dx[i] * dx[i] + dy[i] * dy[i];
      mag[i] = (short)(0.5 + sqrt((double)sq));
   }
}

/* Canny's non-maximum suppression with interpolation between the two
   neighbours on each side of the gradient direction. */
NOINLINE static void non_max_supp(const short *mag, const short *gx, const short *gy, int w,
                                  int h, unsigned char *result)
{
   memset(result, 0, (size_t)w * h);
   for (int y = 1; y < h - 1; y++)
      for (int x = 1; x < w - 1; x++) {
         size_t p = (size_t)y * w + x;
         int m00 = mag[p];
         if (m00 == 0) continue;
         int xp = gx[p], yp = gy[p];
         float gxf = xp, gyf = yp, m = (float)m00;
         float mag1, mag2;
         /* the two interpolated neighbours along (gx, gy) */
         if (abs(xp) >= abs(yp)) {
            float t = gyf / gxf;
            int s = (xp > 0) == (yp > 0) ? 1 : -1;
            mag1 = (1 - fabsf(t)) * mag[p + 1] + fabsf(t) * mag[p + 1 + s * w];
            mag2 = (1 - fabsf(t)) * mag[p - 1] + fabsf(t) * mag[p - 1 - s * w];
         } else {
            float t = gxf / gyf;
            int s = (xp > 0) == (yp > 0) ? 1 : -1;
            mag1 = (1 - fabsf(t)) * mag[p + w] + fabsf(t) * mag[p + w + s];
            mag2 = (1 - fabsf(t)) * mag[p - w] + fabsf(t) * mag[p - w - s];
         }
         if (m > mag1 && m >= mag2) result[p] = 128;              /* possible edge */
      }
}

NOINLINE static void thresholds(const short *mag, const unsigned char *nms, int w, int h,
                                float tlow, float thigh, int *lowthresh, int *highthresh)
{
   int *hist = xmalloc(32768 * sizeof(int));
   memset(hist, 0, 32768 * sizeof(int));
   for (size_t i = 0; i < (size_t)w * h; i++)
      if (nms[i] == 128) hist[mag[i]]++;
   int maxmag = 0, numedges = 0;
   for (int r = 1; r < 32768; r++)
      if (hist[r]) { maxmag = r; numedges += hist[r]; }
   int highcount = (int)(numedges * thigh + 0.5), r = 1, acc = hist[1];
   while (r < maxmag - 1 && acc < highcount) { r++; acc += hist[r]; }
   *highthresh = r;
   *lowthresh = (int)(r * tlow + 0.5);
   xfree(hist, 32768 * sizeof(int));
}

NOINLINE static void hysteresis(const short *mag, const unsigned char *nms, int w, int h,
                                int lowthresh, int highthresh, unsigned char *edge)
{
   size_t n = (size_t)w * h;
   for (size_t i = 0; i < n; i++) edge[i] = nms[i] == 128 ? 128 : 255;  /* 255: no edge */
   for (int x = 0; x < w; x++) edge[x] = edge[n - w + x] = 255;
   for (int y = 0; y < h; y++) edge[(size_t)y * w] = edge[(size_t)y * w + w - 1] = 255;

   size_t cap = 4096, top = 0;
   size_t *stack = xmalloc(cap * sizeof(size_t));
   static const int off8[8][2] = {{1,0},{1,-1},{0,-1},{-1,-1},{-1,0},{-1,1},{0,1},{1,1}};
   for (size_t p = 0; p < n; p++) {
      if (edge[p] != 128 || mag[p] < highthresh) continue;
      edge[p] = 0;                                                  /* strong edge */
      stack[top++] = p;
      while (top) {
         size_t q = stack[--top];
         for (int k = 0; k < 8; k++) {
            size_t r = q + off8[k][0] + (ptrdiff_t)off8[k][1] * w;
            if (edge[r] == 128 && mag[r] > lowthresh) {
               edge[r] = 0;
               if (top == cap) {
                  size_t *ns = xmalloc(2 * cap * sizeof(size_t));
                  memcpy(ns, stack, cap * sizeof(size_t));
                  xfree(stack, cap * sizeof(size_t));
                  stack = ns;
                  cap *= 2;
               }
               stack[top++] = r;
            }
         }
      }
   }
   xfree(stack, cap * sizeof(size_t));
   for (size_t i = 0; i < n; i++) if (edge[i] != 0) edge[i] = 255;
}

NOINLINE static unsigned long long checksum(const unsigned char *edge, int w, int h)
{
   unsigned long long s = 0, count = 0;
   for (size_t i = 0; i < (size_t)w * h; i++)
      if (edge[i] == 0) { count++; s = s * 31 + i; }
   return s ^ (count << 40);
}

int main(int argc, char **argv)
{
   int h = argc > 1 ? atoi(argv[1]) : 5000, w = WIDTH;
   if (h < 16) { fprintf(stderr, "canny: rows must be >= 16\n"); return 2; }
   size_t n = (size_t)w * h;

   unsigned char *img = xmalloc(n);
   make_image(img, w, h);
   short *sm = xmalloc(n * sizeof(short));
   gaussian_smooth(img, w, h, 1.4f, sm);
   xfree(img, n);
   short *dx = xmalloc(n * sizeof(short)), *dy = xmalloc(n * sizeof(short));
   derivatives(sm, w, h, dx, dy);
   xfree(sm, n * sizeof(short));
   short *mag = xmalloc(n * sizeof(short));
   magnitude(dx, dy, w, h, mag);
   unsigned char *nms = xmalloc(n);
   non_max_supp(mag, dx, dy, w, h, nms);
   xfree(dx, n * sizeof(short));
   xfree(dy, n * sizeof(short));
   int lo, hi;
   thresholds(mag, nms, w, h, 0.4f, 0.9f, &lo, &hi);
   unsigned char *edge = xmalloc(n);
   hysteresis(mag, nms, w, h, lo, hi, edge);
   unsigned long long cs = checksum(edge, w, h);
   xfree(nms, n);
   xfree(mag, n * sizeof(short));
   xfree(edge, n);
   printf("checksum: %016llx (thresholds %d %d)\n", cs, lo, hi);
   printf("written: %zu\n", peak_bytes);
   return 0;
}
