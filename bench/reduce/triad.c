/* STREAM-like read bandwidth: sums 256 MiB (a read-only stream, as a reduction does) and a
   triad a = b + s*c; prints the best read GB/s. cc -O3 -march=native -fopenmp triad.c */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(void) {
  size_t n = 1u << 26;
  float *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4);
  #pragma omp parallel for
  for (size_t i = 0; i < n; i++) { a[i] = 0; b[i] = 1; c[i] = 2; }
  double best_read = 0, best_triad = 0;
  for (int r = 0; r < 10; r++) {
    double t = now();
    float s = 0;
    #pragma omp parallel for reduction(+:s)
    for (size_t i = 0; i < n; i++) s += b[i];
    t = now() - t;
    if (s < 0) puts("");
    double gb = n * 4.0 / t / 1e9; if (gb > best_read) best_read = gb;
    t = now();
    #pragma omp parallel for
    for (size_t i = 0; i < n; i++) a[i] = b[i] + 3.0f * c[i];
    t = now() - t;
    gb = n * 12.0 / t / 1e9; if (gb > best_triad) best_triad = gb;
  }
  printf("%.2f read GB/s; triad %.2f GB/s\n", best_read, best_triad);
  return 0;
}
