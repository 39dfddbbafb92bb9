/* Call time of a compiled scalar model from C: call_time LIB.so NAME [CALLS]. NAME takes two f32[]
 * inputs and gives one f32[] output (bench/suite/cases/scalar_add). Calls it CALLS times (default
 * 10M) in a tight loop, five times, and prints the best time per call in ns.
 * Build: cc -O2 call_time.c -ldl */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int32_t (*entry_fn)(const void *const *, void *const *);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: %s LIB.so NAME [CALLS]\n", argv[0]); return 2; }
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) { fprintf(stderr, "%s\n", dlerror()); return 2; }
  entry_fn f = (entry_fn)dlsym(lib, argv[2]);
  if (!f) { fprintf(stderr, "%s\n", dlerror()); return 2; }
  long calls = argc > 3 ? atol(argv[3]) : 10000000L;
  float x = 1.0f, y = 2.0f, z = 0;
  const void *in[2] = {&x, &y};
  void *out[1] = {&z};
  if (f(in, out) != 0 || z != 3.0f) { fprintf(stderr, "the model gave %g, not 3\n", z); return 1; }
  double best = 1e30;
  for (int r = 0; r < 5; r++) {
    double t0 = now();
    for (long i = 0; i < calls; i++) {
      f(in, out);
      __asm__ volatile("" ::: "memory"); /* each call is made; its output is read */
    }
    double t = (now() - t0) / calls;
    if (t < best) best = t;
  }
  printf("%.2f\n", best * 1e9);
  return 0;
}
