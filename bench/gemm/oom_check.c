/* Checks the packed GEMM's out-of-memory fallback: a 512x512 f32 matmul (bench/gemm/oom_mm.jaxpr,
 * entry point mm) run with every malloc from the nth call on failing must still return 0 and the
 * right product (the loop nest recomputes it). Build and run:
 *   ./jaxc compile bench/gemm/oom_mm.jaxpr --emit shared -o /tmp/mm.so
 *   gcc -O1 -rdynamic -o /tmp/oom_check bench/gemm/oom_check.c /tmp/mm.so -Wl,-rpath,/tmp -lm
 *   for n in -1 0 1 2; do /tmp/oom_check $n; done
 * (n = -1: no failure; 0: packed B fails; 1 and on: the chunks' A/C blocks fail). */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t);
static long fail_from = -1, count = 0;

/* Interposes the .so's malloc: fails every call from the fail_from-th on. */
void *malloc(size_t n) {
  long c = __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
  if (fail_from >= 0 && c >= fail_from) return NULL;
  return __libc_malloc(n);
}

int32_t mm(const void *const *inputs, void *const *outputs);
#define N 512
static float a[N * N], b[N * N], c[N * N], ref[N * N];

int main(int argc, char **argv) {
  for (unsigned i = 0; i < N * N; i++) {
    a[i] = (float)((i * 7919u) % 97u) / 97.0f - 0.5f;
    b[i] = (float)((i * 104729u) % 89u) / 89.0f - 0.5f;
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < N; k++) s += (double)a[i * N + k] * b[k * N + j];
      ref[i * N + j] = (float)s;
    }
  const void *in[2] = {a, b};
  void *out[1] = {c};
  for (int i = 0; i < N * N; i++) c[i] = NAN;
  fail_from = argc > 1 ? atol(argv[1]) : -1;
  int rc = mm(in, out);
  long calls = count;
  fail_from = -1;
  double err = 0;
  for (int i = 0; i < N * N; i++) {
    double e = fabs(c[i] - ref[i]);
    if (!(e <= err)) err = e;
  }
  int ok = rc == 0 && err < 1e-4;
  printf("fail from malloc %s: rc %d, %ld mallocs, max error %g: %s\n", argc > 1 ? argv[1] : "-1", rc, calls, err,
      ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
