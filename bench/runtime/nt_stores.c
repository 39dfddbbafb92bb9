/* Non-temporal stores in a softmax-shaped row loop (max pass, an exp-like pass into a row kept in
   L1, a normalising pass that writes the output), 4096 x 1024 f32, outputs fresh (malloc'd per
   call) or reused: what streaming the normalising pass's stores (_mm256_stream_ps) would save
   jaxc's row groups, measured before building it (issue 7). Build and run:
     gcc -O2 -mavx2 -mfma -o /tmp/nt bench/runtime/nt_stores.c -lm && /tmp/nt
   Eleventh session, AMD EPYC Zen 3 (AVX2 + FMA), medians of 15: one process 4.38-4.77 ms with
   ordinary stores, 3.62-3.95 with streaming ones (15-22% less), fresh or reused outputs alike;
   two processes at once (both cores) 18-25% less. jaxc's loops are vectorised by LLVM, whose
   vector stores carry the element's alignment, so streaming needs an emitter-side aligned store
   path (a scalar peel to 32 bytes, then !nontemporal aligned vector stores).
   Twelfth session, built and dropped: the fusion groups that compute a large output (4 MiB or
   more, read by nothing after) wrote each run of 8 KiB into a stack tile, then streamed the tile
   with aligned vmovntps and an sfence. Two builds alternating, fresh outputs, same Zen 3:
   softmax 3-6% faster, but layernorm 9-14% and tanh_chain 8-17% slower (with reused outputs:
   layernorm -10%, softmax -5%, tanh_chain +8-11%). A fresh output's pages are zeroed by the
   kernel at the first touch, which leaves them in the cache, and the streaming stores must then
   evict them; without the sfence the losses stayed. Not a general gain, so not kept. */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>
#define R 4096
#define C 1024
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static void softmax(const float *x, float *y, int nt) {
  float row[C] __attribute__((aligned(32)));
  for (int r = 0; r < R; r++) {
    const float *xr = x + (size_t)r * C; float *yr = y + (size_t)r * C;
    __m256 m = _mm256_set1_ps(-INFINITY);
    for (int j = 0; j < C; j += 8) m = _mm256_max_ps(m, _mm256_loadu_ps(xr + j));
    float mm[8]; _mm256_storeu_ps(mm, m); float mx = mm[0]; for (int k = 1; k < 8; k++) if (mm[k] > mx) mx = mm[k];
    __m256 s = _mm256_setzero_ps(), vm = _mm256_set1_ps(mx);
    for (int j = 0; j < C; j += 8) { __m256 d = _mm256_sub_ps(_mm256_loadu_ps(xr + j), vm);
      __m256 e = _mm256_fmadd_ps(d, _mm256_fmadd_ps(d, _mm256_set1_ps(0.5f), _mm256_set1_ps(1.0f)), _mm256_set1_ps(1.0f));
      for (int q = 0; q < 6; q++) e = _mm256_fmadd_ps(e, _mm256_set1_ps(0.999f), d);
      _mm256_store_ps(row + j, e); s = _mm256_add_ps(s, e); }
    float ss[8]; _mm256_storeu_ps(ss, s); float sum = 0; for (int k = 0; k < 8; k++) sum += ss[k];
    __m256 inv = _mm256_set1_ps(1.0f / sum);
    if (nt) for (int j = 0; j < C; j += 8) _mm256_stream_ps(yr + j, _mm256_mul_ps(_mm256_load_ps(row + j), inv));
    else for (int j = 0; j < C; j += 8) _mm256_storeu_ps(yr + j, _mm256_mul_ps(_mm256_load_ps(row + j), inv));
  }
  if (nt) _mm_sfence();
}
int main(void) {
  float *x = aligned_alloc(64, (size_t)R * C * 4); for (size_t i = 0; i < (size_t)R * C; i++) x[i] = (float)((i * 2654435761u) % 1000) / 250.0f - 2.0f;
  float *keep = aligned_alloc(64, (size_t)R * C * 4);
  double t[2][2][15];
  for (int it = 0; it < 15; it++) for (int fresh = 0; fresh < 2; fresh++) for (int nt = 0; nt < 2; nt++) {
    float *y = fresh ? aligned_alloc(64, (size_t)R * C * 4) : keep;
    double a = now(); softmax(x, y, nt); t[fresh][nt][it] = now() - a;
    if (fresh) free(y);
  }
  for (int fresh = 0; fresh < 2; fresh++) for (int nt = 0; nt < 2; nt++) {
    double *v = t[fresh][nt]; for (int i = 0; i < 15; i++) for (int j = i + 1; j < 15; j++) if (v[j] < v[i]) { double q = v[i]; v[i] = v[j]; v[j] = q; }
    printf("%s %s: median %.3f ms\n", fresh ? "fresh " : "reused", nt ? "stream" : "normal", v[7] * 1e3);
  }
  return 0;
}
