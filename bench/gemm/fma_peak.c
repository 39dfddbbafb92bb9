/* Measures the machine's f32 FMA peak (GFLOP/s) on all cores (OpenMP): 12 independent chains of
 * the widest vector FMA -march=native gives. Prints: all-core GFLOP/s by wall time, the thread
 * count, and one core's GFLOP per second of that thread's own CPU time (steady on a shared
 * machine, where wall time is not). */
#include <omp.h>
#include <stdio.h>
#include <time.h>

#if defined(__AVX512F__)
#define W 16
#elif defined(__AVX__)
#define W 8
#else
#define W 4
#endif
typedef float v __attribute__((vector_size(W * 4)));

static double thread_cpu(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
  const long iters = 200000000L / W;
  double best = 0, core = 0;
  int threads = 1;
  for (int rep = 0; rep < 5; rep++) {
    double t0 = now();
    float sink = 0;
#pragma omp parallel reduction(+ : sink)
    {
      double c0 = thread_cpu();
      v a[12], x = {0}, y = {0};
      for (int i = 0; i < W; i++) x[i] = 1.0000001f, y[i] = 1e-7f;
      for (int j = 0; j < 12; j++) a[j] = x * (float)j;
      for (long i = 0; i < iters; i++)
        for (int j = 0; j < 12; j++) a[j] = a[j] * x + y;  // contracted to one FMA (-ffp-contract=fast, GCC default)
      for (int j = 0; j < 12; j++) sink += a[j][0];
      threads = omp_get_num_threads();
      double gc = 2.0 * 12 * W * iters / (thread_cpu() - c0) / 1e9;
#pragma omp critical
      if (gc > core) core = gc;
    }
    double dt = now() - t0;
    double gf = 2.0 * 12 * W * iters * threads / dt / 1e9;
    if (gf > best) best = gf;
    if (sink == 42) printf("!");
  }
  printf("%.1f %d %.1f\n", best, threads, core);
  return 0;
}
