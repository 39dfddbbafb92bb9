/* Times a jaxc entry point: bench LIB.so NAME REPS N_IN BYTES... N_OUT BYTES...
 * Inputs are filled with floats in [-0.5, 0.5) (the benchmark models are f32). One warm-up call,
 * then REPS timed calls; prints the median and the minimum in ms and an FNV-1a hash of the
 * outputs, so runs with different JAXC_NUM_THREADS can be checked for identical results. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int32_t (*entry_fn)(const void *const *, void *const *);

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s LIB.so NAME REPS N_IN BYTES... N_OUT BYTES...\n", argv[0]);
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) { fprintf(stderr, "%s\n", dlerror()); return 2; }
  entry_fn f = (entry_fn)dlsym(lib, argv[2]);
  if (!f) { fprintf(stderr, "%s\n", dlerror()); return 2; }
  int reps = atoi(argv[3]), a = 4;
  int n_in = atoi(argv[a++]);
  const void **ins = calloc(n_in, sizeof *ins);
  uint32_t seed = 12345;
  for (int k = 0; k < n_in; k++) {
    size_t bytes = strtoull(argv[a++], 0, 10);
    float *p = malloc(bytes);
    for (size_t i = 0; i < bytes / 4; i++) {
      seed = seed * 1664525u + 1013904223u;
      p[i] = (float)(seed >> 8) / 16777216.0f - 0.5f;
    }
    ins[k] = p;
  }
  int n_out = atoi(argv[a++]);
  void **outs = calloc(n_out, sizeof *outs);
  size_t *out_bytes = calloc(n_out, sizeof *out_bytes);
  for (int k = 0; k < n_out; k++) {
    out_bytes[k] = strtoull(argv[a++], 0, 10);
    outs[k] = calloc(1, out_bytes[k]);
  }
  if (f(ins, outs) != 0) { fprintf(stderr, "the entry point failed\n"); return 1; }
  double *ms = calloc(reps, sizeof *ms);
  for (int r = 0; r < reps; r++) {
    double t0 = now_ms();
    f(ins, outs);
    ms[r] = now_ms() - t0;
  }
  qsort(ms, reps, sizeof *ms, by_value);
  uint64_t h = 1469598103934665603ull;
  for (int k = 0; k < n_out; k++)
    for (size_t i = 0; i < out_bytes[k]; i++) h = (h ^ ((unsigned char *)outs[k])[i]) * 1099511628211ull;
  printf("median %.3f ms  min %.3f ms  (%d runs)  outputs %016llx\n", ms[reps / 2], ms[0], reps,
         (unsigned long long)h);
  return 0;
}
