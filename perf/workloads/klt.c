/* klt: a feature tracker in the style of KLT (Kanade-Lucas-Tomasi, the MCProf
 * case study), on two synthetic frames of WIDTH x rows pixels, the second the
 * first moved by a known sub-pixel displacement.
 *
 *   make_frames         textured scene and its displaced copy          (float)
 *   build_pyramid       per frame: smoothing and 2x subsampling, LEVELS levels
 *   compute_gradients   per level: smoothed x and y gradients          (float)
 *   select_features     min-eigenvalue (Shi-Tomasi) score on a grid, best pixel
 *                       of every BLOCK x BLOCK block becomes a feature
 *   track_features      per feature, coarse to fine, iterative Lucas-Kanade
 *                       solves over a WIN x WIN window with bilinear interpolation
 *
 * Usage: klt [rows]   (default 1600; the width is fixed at 1024 pixels)
 * The pyramid, gradients and the number of features are proportional to rows,
 * so is the work.  Prints "checksum: X" and "written: N" (peak bytes of live
 * heap data the program writes).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH  1024
#define LEVELS 3
#define BLOCK  8            /* one feature per BLOCK x BLOCK block */
#define MARGIN 16
#define WIN    7            /* window half-size 3 */
#define HW     (WIN / 2)
#define MAXIT  10
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

typedef struct { int w, h; float *px; } Image;

static Image new_image(int w, int h)
{
   Image im = {w, h, xmalloc((size_t)w * h * sizeof(float))};
   return im;
}

static void free_image(Image *im) { xfree(im->px, (size_t)im->w * im->h * sizeof(float)); }

typedef struct { float x, y, dx, dy; int status; } Feature;

/* A smooth texture with corners, band-limited so that sub-pixel motion shows
   in the samples: sines and a soft checker (period 48), rendered displaced by
   (dx, dy).  Every term is separable, from per-column and per-row tables;
   the soft checker saturates through a rational approximation of tanh. */
static void render(Image *im, float dx, float dy)
{
   int w = im->w, h = im->h;
   float *cx = xmalloc(4 * (size_t)w * sizeof(float)), *cy = xmalloc(4 * (size_t)h * sizeof(float));
   for (int x = 0; x < w; x++) {
      float u = x - dx;
      cx[4 * x] = sinf(u * 0.11f);
      cx[4 * x + 1] = sinf(u * 0.05f);
      cx[4 * x + 2] = cosf(u * 0.05f);
      cx[4 * x + 3] = sinf(u * 0.1309f);
   }
   for (int y = 0; y < h; y++) {
      float v = y - dy;
      cy[4 * y] = cosf(v * 0.07f);
      cy[4 * y + 1] = cosf(v * 0.05f);
      cy[4 * y + 2] = sinf(v * 0.05f);
      cy[4 * y + 3] = sinf(v * 0.1309f);
   }
   for (int y = 0; y < h; y++) {
      const float *ry = cy + 4 * y;
      for (int x = 0; x < w; x++) {
         const float *rx = cx + 4 * x;
         float u = 3 * rx[3] * ry[3];
         float soft = u * (27 + u * u) / (27 + 9 * u * u);       /* ~tanh(u) */
         if (soft > 1) soft = 1;
         if (soft < -1) soft = -1;
         im->px[(size_t)y * w + x] = 100 + 40 * rx[0] * ry[0] +
                                     30 * (rx[1] * ry[1] + rx[2] * ry[2]) + 25 * soft;
      }
   }
   xfree(cx, 4 * (size_t)w * sizeof(float));
   xfree(cy, 4 * (size_t)h * sizeof(float));
}

NOINLINE static void make_frames(Image *a, Image *b, float dx, float dy)
{
   render(a, 0, 0);
   render(b, dx, dy);
}

/* 5-tap binomial smoothing in x then y, through tmp. */
static void smooth(const Image *in, Image *out, float *tmp)
{
   int w = in->w, h = in->h;
   for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
         const float *r = in->px + (size_t)y * w;
         int x0 = x > 1 ? x - 2 : 0, x1 = x > 0 ? x - 1 : 0;
         int x3 = x < w - 1 ? x + 1 : w - 1, x4 = x < w - 2 ? x + 2 : w - 1;
         tmp[(size_t)y * w + x] = (r[x0] + 4 * r[x1] + 6 * r[x] + 4 * r[x3] + r[x4]) / 16;
      }
   for (int y = 0; y < h; y++) {
      int y0 = y > 1 ? y - 2 : 0, y1 = y > 0 ? y - 1 : 0;
      int y3 = y < h - 1 ? y + 1 : h - 1, y4 = y < h - 2 ? y + 2 : h - 1;
      for (int x = 0; x < w; x++)
         out->px[(size_t)y * w + x] =
            (tmp[(size_t)y0 * w + x] + 4 * tmp[(size_t)y1 * w + x] + 6 * tmp[(size_t)y * w + x] +
             4 * tmp[(size_t)y3 * w + x] + tmp[(size_t)y4 * w + x]) / 16;
   }
}

NOINLINE static void build_pyramid(const Image *frame, Image pyr[LEVELS])
{
   float *tmp = xmalloc((size_t)frame->w * frame->h * sizeof(float));
   Image sm = new_image(frame->w, frame->h);
   pyr[0] = new_image(frame->w, frame->h);
   smooth(frame, &pyr[0], tmp);                 /* level 0: the smoothed frame */
   for (int l = 1; l < LEVELS; l++) {
      Image *src = &pyr[l - 1];
      sm.w = src->w; sm.h = src->h;
      smooth(src, &sm, tmp);
      pyr[l] = new_image(src->w / 2, src->h / 2);
      for (int y = 0; y < pyr[l].h; y++)
         for (int x = 0; x < pyr[l].w; x++)
            pyr[l].px[(size_t)y * pyr[l].w + x] = sm.px[(size_t)(2 * y) * sm.w + 2 * x];
   }
   sm.w = frame->w; sm.h = frame->h;
   free_image(&sm);
   xfree(tmp, (size_t)frame->w * frame->h * sizeof(float));
}

NOINLINE static void compute_gradients(const Image *im, Image *gx, Image *gy)
{
   int w = im->w, h = im->h;
   *gx = new_image(w, h);
   *gy = new_image(w, h);
   for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
         int xl = x > 0 ? x - 1 : x, xr = x < w - 1 ? x + 1 : x;
         int yu = y > 0 ? y - 1 : y, yd = y < h - 1 ? y + 1 : y;
         const float *p = im->px;
         /* Sobel-like: derivative in one direction, smoothing in the other */
         gx->px[(size_t)y * w + x] =
            ((p[(size_t)yu * w + xr] + 2 * p[(size_t)y * w + xr] + p[(size_t)yd * w + xr]) -
             (p[(size_t)yu * w + xl] + 2 * p[(size_t)y * w + xl] + p[(size_t)yd * w + xl])) / 8;
         gy->px[(size_t)y * w + x] =
            ((p[(size_t)yd * w + xl] + 2 * p[(size_t)yd * w + x] + p[(size_t)yd * w + xr]) -
             (p[(size_t)yu * w + xl] + 2 * p[(size_t)yu * w + x] + p[(size_t)yu * w + xr])) / 8;
      }
}

/* Shi-Tomasi score: the smaller eigenvalue of the window's gradient matrix. */
static float min_eigenvalue(const Image *gx, const Image *gy, int cx, int cy)
{
   float gxx = 0, gxy = 0, gyy = 0;
   for (int y = cy - HW; y <= cy + HW; y++)
      for (int x = cx - HW; x <= cx + HW; x++) {
         float a = gx->px[(size_t)y * gx->w + x], b = gy->px[(size_t)y * gy->w + x];
         gxx += a * a; gxy += a * b; gyy += b * b;
      }
   return (gxx + gyy - sqrtf((gxx - gyy) * (gxx - gyy) + 4 * gxy * gxy)) / 2;
}

NOINLINE static int select_features(const Image *gx, const Image *gy, Feature *fl)
{
   int n = 0, margin = MARGIN;
   for (int by = margin; by + BLOCK <= gx->h - margin; by += BLOCK)
      for (int bx = margin; bx + BLOCK <= gx->w - margin; bx += BLOCK) {
         float best = -1;
         int bestx = bx, besty = by;
         for (int y = by; y < by + BLOCK; y += 2)
            for (int x = bx; x < bx + BLOCK; x += 2) {
               float s = min_eigenvalue(gx, gy, x, y);
               if (s > best) { best = s; bestx = x; besty = y; }
            }
         fl[n].x = (float)bestx;
         fl[n].y = (float)besty;
         fl[n].dx = fl[n].dy = 0;
         fl[n].status = best > 1.0f ? 0 : -1;
         n++;
      }
   return n;
}

static float interp(const Image *im, float x, float y)
{
   int xt = (int)x, yt = (int)y;
   float ax = x - xt, ay = y - yt;
   const float *p = im->px + (size_t)yt * im->w + xt;
   return (1 - ax) * (1 - ay) * p[0] + ax * (1 - ay) * p[1] + (1 - ax) * ay * p[im->w] +
          ax * ay * p[im->w + 1];
}

/* One Lucas-Kanade solve at one level: refines (*x2, *y2), the position in
   the second frame of the window around (x1, y1) of the first. */
static int track_level(const Image *i1, const Image *i2, const Image *gx1, const Image *gy1,
                       const Image *gx2, const Image *gy2, float x1, float y1, float *x2,
                       float *y2)
{
   for (int it = 0; it < MAXIT; it++) {
      if (*x2 < HW + 1 || *y2 < HW + 1 || *x2 > i2->w - HW - 2 || *y2 > i2->h - HW - 2)
         return -2;                                               /* out of bounds */
      float gxx = 0, gxy = 0, gyy = 0, ex = 0, ey = 0;
      for (int j = -HW; j <= HW; j++)
         for (int i = -HW; i <= HW; i++) {
            float diff = interp(i1, x1 + i, y1 + j) - interp(i2, *x2 + i, *y2 + j);
            float gx = interp(gx1, x1 + i, y1 + j) + interp(gx2, *x2 + i, *y2 + j);
            float gy = interp(gy1, x1 + i, y1 + j) + interp(gy2, *x2 + i, *y2 + j);
            gxx += gx * gx; gxy += gx * gy; gyy += gy * gy;
            ex += diff * gx; ey += diff * gy;
         }
      float det = gxx * gyy - gxy * gxy;
      if (det < 1e-6f) return -3;                                 /* small determinant */
      float ddx = (gyy * ex - gxy * ey) / det * 2, ddy = (gxx * ey - gxy * ex) / det * 2;
      *x2 += ddx;
      *y2 += ddy;
      if (fabsf(ddx) < 0.01f && fabsf(ddy) < 0.01f) return 0;
   }
   return -1;                                                     /* max iterations */
}

NOINLINE static void track_features(Image p1[LEVELS], Image p2[LEVELS], Image gx1[LEVELS],
                                    Image gy1[LEVELS], Image gx2[LEVELS], Image gy2[LEVELS],
                                    Feature *fl, int n)
{
   for (int f = 0; f < n; f++) {
      if (fl[f].status != 0) continue;
      float x2 = fl[f].x / (1 << (LEVELS - 1)), y2 = fl[f].y / (1 << (LEVELS - 1));
      int st = 0;
      for (int l = LEVELS - 1; l >= 0 && st != -2 && st != -3; l--) {
         float s = (float)(1 << l);
         st = track_level(&p1[l], &p2[l], &gx1[l], &gy1[l], &gx2[l], &gy2[l], fl[f].x / s,
                          fl[f].y / s, &x2, &y2);
         if (l) { x2 *= 2; y2 *= 2; }
      }
      fl[f].status = st;
      fl[f].dx = x2 - fl[f].x;
      fl[f].dy = y2 - fl[f].y;
   }
}

int main(int argc, char **argv)
{
   int h = argc > 1 ? atoi(argv[1]) : 1600, w = WIDTH;
   if (h < 8 * MARGIN) { fprintf(stderr, "klt: rows must be >= %d\n", 8 * MARGIN); return 2; }
   Image f1 = new_image(w, h), f2 = new_image(w, h);
   make_frames(&f1, &f2, 2.6f, -1.7f);

   Image p1[LEVELS], p2[LEVELS], gx1[LEVELS], gy1[LEVELS], gx2[LEVELS], gy2[LEVELS];
   build_pyramid(&f1, p1);
   build_pyramid(&f2, p2);
   free_image(&f1);
   free_image(&f2);
   for (int l = 0; l < LEVELS; l++) {
      compute_gradients(&p1[l], &gx1[l], &gy1[l]);
      compute_gradients(&p2[l], &gx2[l], &gy2[l]);
   }
   Feature *fl = xmalloc(((size_t)w / BLOCK) * (h / BLOCK) * sizeof(Feature));
   int n = select_features(&gx1[0], &gy1[0], fl);
   track_features(p1, p2, gx1, gy1, gx2, gy2, fl, n);

   int tracked = 0;
   double sdx = 0, sdy = 0;
   unsigned long long cs = 0;
   for (int f = 0; f < n; f++) {
      cs = cs * 1000003u + (unsigned)(fl[f].status + 4);
      if (fl[f].status == 0) {
         tracked++;
         sdx += fl[f].dx;
         sdy += fl[f].dy;
         cs += (unsigned long long)llround(fl[f].dx * 1000) * 7 + llround(fl[f].dy * 1000);
      }
   }
   for (int l = 0; l < LEVELS; l++) {
      free_image(&p1[l]); free_image(&p2[l]);
      free_image(&gx1[l]); free_image(&gy1[l]);
      free_image(&gx2[l]); free_image(&gy2[l]);
   }
   xfree(fl, ((size_t)w / BLOCK) * (h / BLOCK) * sizeof(Feature));
   printf("checksum: %016llx (%d of %d features tracked, mean motion %.3f %.3f)\n", cs, tracked,
          n, tracked ? sdx / tracked : 0.0, tracked ? sdy / tracked : 0.0);
   printf("written: %zu\n", peak_bytes);
   return 0;
}
