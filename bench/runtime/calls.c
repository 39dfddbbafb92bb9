/* Times a jaxc entry point call by call: calls LIB.so NAME REPS N_IN BYTES... N_OUT BYTES...
 * Inputs are f32 in [-0.5, 0.5). Prints the first call's time (fresh process: workspace not yet
 * allocated, threads not yet started), then the median and minimum of REPS further calls timed
 * one by one, and their mean from one clock reading around all of them (what a tight loop of calls
 * costs: the per-call clock reads are too coarse for a scalar model). */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int32_t (*entry_fn)(const void *const *, void *const *);

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
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
  long reps = atol(argv[3]);
  int a = 4, n_in = atoi(argv[a++]);
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
  for (int k = 0; k < n_out; k++) {
    size_t bytes = strtoull(argv[a++], 0, 10);
    outs[k] = calloc(1, bytes);
    for (size_t i = 0; i < bytes; i += 4096) ((char *)outs[k])[i] = 1;  /* outputs' pages mapped */
  }
  double t0 = now_us();
  if (f(ins, outs) != 0) { fprintf(stderr, "the entry point failed\n"); return 1; }
  double first = now_us() - t0;
  double *us = calloc(reps, sizeof *us);
  for (long r = 0; r < reps; r++) {
    double s = now_us();
    f(ins, outs);
    us[r] = now_us() - s;
  }
  double b0 = now_us();
  for (long r = 0; r < reps; r++) f(ins, outs);
  double mean = (now_us() - b0) / reps;
  qsort(us, reps, sizeof *us, by_value);
  printf("first %.3f ms  then median %.3f ms  min %.3f ms  loop mean %.4f us/call  (%ld calls)\n", first / 1e3,
         us[reps / 2] / 1e3, us[0] / 1e3, mean, reps);
  return 0;
}
