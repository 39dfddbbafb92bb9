/* STREAM-like memory bandwidth: copy (c = a) and triad (a = b + s*c) on double arrays far larger
 * than the caches, on 1 thread and on THREADS threads (each owns a slice, first-touched by itself).
 * Prints "copy_1 triad_1 copy_all triad_all" in GB/s, best of REPS; copy moves 2 arrays' bytes,
 * triad 3 (write-allocate traffic not counted, as in STREAM).
 * Usage: stream [THREADS] (default: online CPUs). Build: cc -O3 -march=native stream.c -lpthread */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define N (1L << 25) /* 256 MiB per array */
#define REPS 7

static double *a, *b, *c;
static pthread_barrier_t start, done;
static int kernel; /* 0 init, 1 copy, 2 triad, 3 quit */

typedef struct { long lo, hi; } slice;

static void *worker(void *arg) {
  slice s = *(slice *)arg;
  for (;;) {
    pthread_barrier_wait(&start);
    int k = kernel;
    if (k == 3) return 0;
    if (k == 0) for (long i = s.lo; i < s.hi; i++) { a[i] = 1.0; b[i] = 2.0; c[i] = 0.5; }
    else if (k == 1) for (long i = s.lo; i < s.hi; i++) c[i] = a[i];
    else { const double q = 3.0; for (long i = s.lo; i < s.hi; i++) a[i] = b[i] + q * c[i]; }
    pthread_barrier_wait(&done);
  }
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Best GB/s of the kernel over REPS, run by the worker threads (the caller only releases them). */
static double best(int k, double bytes) {
  double t_best = 1e30;
  for (int r = 0; r < REPS; r++) {
    kernel = k;
    double t0 = now();
    pthread_barrier_wait(&start);
    pthread_barrier_wait(&done);
    double t = now() - t0;
    if (t < t_best) t_best = t;
  }
  return bytes / t_best / 1e9;
}

static void measure(int threads, double *copy, double *triad) {
  a = aligned_alloc(64, N * sizeof(double));
  b = aligned_alloc(64, N * sizeof(double));
  c = aligned_alloc(64, N * sizeof(double));
  pthread_barrier_init(&start, 0, threads + 1);
  pthread_barrier_init(&done, 0, threads + 1);
  pthread_t *t = malloc(threads * sizeof *t);
  slice *s = malloc(threads * sizeof *s);
  for (int i = 0; i < threads; i++) {
    s[i].lo = N * i / threads;
    s[i].hi = N * (i + 1) / threads;
    pthread_create(&t[i], 0, worker, &s[i]);
  }
  kernel = 0;
  pthread_barrier_wait(&start);
  pthread_barrier_wait(&done);
  *copy = best(1, 2.0 * N * sizeof(double));
  *triad = best(2, 3.0 * N * sizeof(double));
  kernel = 3;
  pthread_barrier_wait(&start);
  for (int i = 0; i < threads; i++) pthread_join(t[i], 0);
  pthread_barrier_destroy(&start);
  pthread_barrier_destroy(&done);
  free(a); free(b); free(c); free(t); free(s);
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (threads < 1) threads = 1;
  double c1, t1, cn, tn;
  measure(1, &c1, &t1);
  measure(threads, &cn, &tn);
  printf("%.2f %.2f %.2f %.2f\n", c1, t1, cn, tn);
  return 0;
}
