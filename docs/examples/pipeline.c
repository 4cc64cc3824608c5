/* pipeline.c: the example bundled with commprof.
 *
 * A small edge-detection pipeline in the style of Canny, on a synthetic
 * 256 x 256 image: every stage reads the buffer the previous stage wrote,
 * so commprof shows a chain of producer -> consumer edges.  Their unique
 * addresses (UnMA, the size of the buffer that crosses the edge) follow from
 * the image size; their bytes count every read, so a stage that reads each
 * input pixel several times moves more bytes than the buffer holds:
 *
 *   edge                    UnMA                   bytes
 *   make_image -> smooth    256*256     =  65,536  581,664 (9 reads inside, 1 on the border)
 *   smooth     -> gradient  256*256*2   = 131,072  524,288 (4 reads of 2 bytes a pixel)
 *   gradient   -> magnitude 2*256*256*2 = 262,144  262,144 (dx and dy, once each)
 *   magnitude  -> threshold 256*256*4   = 262,144  262,144
 *   threshold  -> main      256*256     =  65,536   65,536 (main counts the edge pixels)
 *
 * Build and profile:
 *   gcc -g -O2 -o pipeline docs/examples/pipeline.c
 *   valgrind --tool=commprof --commprof-dot-file=pipeline.dot ./pipeline
 */
#include <stdio.h>
#include <stdlib.h>

#define W 256
#define H 256
#define NOINLINE __attribute__((noinline, noclone))

NOINLINE static void make_image(unsigned char *img)
{
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         img[y * W + x] = (unsigned char)(((x / 32 + y / 32) % 2) * 160 + (x * y) % 37);
}

/* 3x3 binomial smoothing; the border is copied. */
NOINLINE static void smooth(const unsigned char *in, short *out)
{
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
         if (x == 0 || y == 0 || x == W - 1 || y == H - 1) {
            out[y * W + x] = in[y * W + x];
            continue;
         }
         int s = 0;
         for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
               s += in[(y + dy) * W + x + dx] * (2 - (dx < 0 ? -dx : dx)) * (2 - (dy < 0 ? -dy : dy));
         out[y * W + x] = (short)(s / 16);
      }
}

NOINLINE static void gradient(const short *in, short *dx, short *dy)
{
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
         int l = in[y * W + (x > 0 ? x - 1 : x)], r = in[y * W + (x < W - 1 ? x + 1 : x)];
         int u = in[(y > 0 ? y - 1 : y) * W + x], d = in[(y < H - 1 ? y + 1 : y) * W + x];
         dx[y * W + x] = (short)(r - l);
         dy[y * W + x] = (short)(d - u);
      }
}

NOINLINE static void magnitude(const short *dx, const short *dy, int *mag)
{
   for (int i = 0; i < W * H; i++)
      mag[i] = (dx[i] < 0 ? -dx[i] : dx[i]) + (dy[i] < 0 ? -dy[i] : dy[i]);
}

NOINLINE static void threshold(const int *mag, unsigned char *edges, int t)
{
   for (int i = 0; i < W * H; i++)
      edges[i] = mag[i] > t;
}

int main(void)
{
   unsigned char *img = malloc(W * H), *edges = malloc(W * H);
   short *sm = malloc(W * H * sizeof(short));
   short *dx = malloc(W * H * sizeof(short)), *dy = malloc(W * H * sizeof(short));
   int *mag = malloc(W * H * sizeof(int));
   if (!img || !edges || !sm || !dx || !dy || !mag) return 1;

   make_image(img);
   smooth(img, sm);
   gradient(sm, dx, dy);
   magnitude(dx, dy, mag);
   threshold(mag, edges, 40);

   int count = 0;
   for (int i = 0; i < W * H; i++) count += edges[i];
   printf("%d edge pixels\n", count);

   free(img); free(edges); free(sm); free(dx); free(dy); free(mag);
   return 0;
}
