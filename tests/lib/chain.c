#include <stdio.h>
#include <stdlib.h>
#define NI __attribute__((noinline, noipa))
NI void produce(int *a, int n) { for (int i = 0; i < n; i++) a[i] = i * 7 + 3; }
NI void transform(const int *a, int *b, int n) { for (int i = 0; i < n; i++) b[i] = a[i] * 2 + 1; }
NI long consume(const int *b, int n) { long s = 0; for (int i = 0; i < n; i++) s += b[i]; return s; }
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
    produce(a, n);
    transform(a, b, n);
    printf("%ld\n", consume(b, n));
    free(a);
    free(b);
    return 0;
}
