/* FMA peak: CHAINS independent chains of vector fused multiply-adds at the widest vector the
 * compiler targets (-march=native: 512-bit with AVX-512, 256 with AVX2, else 128), so latency is
 * hidden and only the FMA ports' throughput counts. Prints "gflops_1 gflops_all" (f32, an FMA
 * counting 2 flops), best of REPS, on 1 thread and on THREADS threads.
 * Usage: fma_peak [THREADS] (default: online CPUs). Build: cc -O3 -march=native -ffp-contract=fast fma_peak.c -lpthread */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#if defined(__AVX512F__)
#define VBYTES 64
#elif defined(__AVX__)
#define VBYTES 32
#else
#define VBYTES 16
#endif
#define LANES (VBYTES / 4)
/* Enough chains to hide the FMA latency on two pipes (4 cycles x 2), few enough to stay in
 * registers with the two operands: 16 of 32 with AVX-512 or NEON; 12 of the 16 of AVX2 and SSE
 * (16 chains there spilled to the stack: 54 instead of 93 GFLOP/s on a Zen 3 core). */
#if defined(__AVX512F__) || defined(__aarch64__)
#define CHAINS 16
#else
#define CHAINS 12
#endif
#define ITERS 20000000L
#define REPS 5

typedef float vf __attribute__((vector_size(VBYTES)));

static volatile float seed_m = 0.9999999f, seed_c = 1e-7f;
static float sink;

static void *chains(void *arg) {
  (void)arg;
  vf m, c, acc[CHAINS];
  for (int l = 0; l < LANES; l++) { m[l] = seed_m; c[l] = seed_c; }
  for (int k = 0; k < CHAINS; k++) for (int l = 0; l < LANES; l++) acc[k][l] = (float)k + l;
  for (long i = 0; i < ITERS; i++) {
#pragma GCC unroll 16
    for (int k = 0; k < CHAINS; k++) acc[k] = acc[k] * m + c; /* contracted to one FMA (-ffp-contract=fast) */
  }
  float s = 0;
  for (int k = 0; k < CHAINS; k++) for (int l = 0; l < LANES; l++) s += acc[k][l];
  sink += s;
  return 0;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static double gflops(int threads) {
  double best = 0;
  pthread_t *t = malloc(threads * sizeof *t);
  for (int r = 0; r < REPS; r++) {
    double t0 = now();
    for (int i = 0; i < threads; i++) pthread_create(&t[i], 0, chains, 0);
    for (int i = 0; i < threads; i++) pthread_join(t[i], 0);
    double g = 2.0 * CHAINS * LANES * ITERS * threads / (now() - t0) / 1e9;
    if (g > best) best = g;
  }
  free(t);
  return best;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (threads < 1) threads = 1;
  double one = gflops(1);
  printf("%.1f %.1f %d\n", one, gflops(threads), VBYTES * 8);
  return 0;
}
