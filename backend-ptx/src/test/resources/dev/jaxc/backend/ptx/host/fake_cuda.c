/* A fake libcuda.so.1 for testing the PTX host library without a GPU. Memory is host memory,
   "kernels" are C functions run at launch time by name (the two of vadd2.ptx), streams and
   events are tokens. FAKE_CUDA selects a failure:
     nodevice  cuInit -> CUDA_ERROR_NO_DEVICE (100)      nodevice0  cuDeviceGet -> 101
     ptx222    cuModuleLoadData -> 222 (PTX too new)     gpu209     cuModuleLoadData -> 209
     ptx218    cuModuleLoadData -> 218 (JIT failed)      oldgpu     218 on a compute capability 7.0 GPU
     oom       cuMemAlloc_v2 -> CUDA_ERROR_OUT_OF_MEMORY  init999    cuInit -> 999
     launch719 cuLaunchKernel -> 719                     sync700    cuStreamSynchronize -> 700
     busy      events never complete (cuEventQuery -> CUDA_ERROR_NOT_READY 600)
   Built with -DMISSING_SYMBOL it lacks cuEventQuery (a driver too old for the library), with
   -DNO_CTX_ID it lacks the optional cuCtxGetId. fake_stat(name) reports call counts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
static int is(const char *m) {
  const char *v = getenv("FAKE_CUDA");
  return v && strcmp(v, m) == 0;
}

static int last_iteration = -1;
static int loads, allocs, waits, records, launches, syncs, pushes, pops, setattrs, readbacks, memsets, bad;
#define INC(x) __atomic_fetch_add(&(x), 1, __ATOMIC_SEQ_CST)
int fake_stat(const char *name) {
  if (!strcmp(name, "loads")) return loads;
  if (!strcmp(name, "allocs")) return allocs;
  if (!strcmp(name, "waits")) return waits;
  if (!strcmp(name, "records")) return records;
  if (!strcmp(name, "launches")) return launches;
  if (!strcmp(name, "syncs")) return syncs;
  if (!strcmp(name, "pushes")) return pushes;
  if (!strcmp(name, "pops")) return pops;
  if (!strcmp(name, "setattrs")) return setattrs;
  if (!strcmp(name, "readbacks")) return readbacks;
  if (!strcmp(name, "memsets")) return memsets;
  if (!strcmp(name, "last_iteration")) return last_iteration;
  if (!strcmp(name, "bad")) return bad;
  return -1;
}

typedef struct { unsigned long long id; } ctx_t;
static ctx_t primary = {1}, user = {2};
static __thread void *current;
static __thread void *saved[8];
static __thread int depth;
void *fake_user_context(void) { return &user; }

CUresult cuInit(unsigned flags) {
  if (flags != 0) return 1;
  if (is("nodevice")) return 100;
  if (is("init999")) return 999;
  return 0;
}
CUresult cuDeviceGet(int *dev, int ordinal) {
  if (is("nodevice0") || ordinal != 0) return 101;
  *dev = 0;
  return 0;
}
CUresult cuCtxGetCurrent(void **ctx) { *ctx = current; return 0; }
CUresult cuCtxSetCurrent(void *ctx) { current = ctx; return 0; }
CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) { (void)dev; *ctx = &primary; return 0; }
CUresult cuCtxPushCurrent_v2(void *ctx) {
  if (depth == 8) return 1;
  saved[depth++] = current;
  current = ctx;
  INC(pushes);
  return 0;
}
CUresult cuCtxPopCurrent_v2(void **ctx) {
  if (depth == 0) { INC(bad); return 1; }
  if (ctx) *ctx = current;
  current = saved[--depth];
  INC(pops);
  return 0;
}
#ifndef NO_CTX_ID
CUresult cuCtxGetId(void *ctx, unsigned long long *id) { *id = ((ctx_t *)ctx)->id; return 0; }
#endif

#define N 1000
typedef void (*kernel_fn)(void **params, unsigned threads);
static void k_add(void **params, unsigned threads) {
  const float *a = *(float **)params[0], *b = *(float **)params[1];
  float *ws = *(float **)params[3];
  if (!ws) { INC(bad); return; }
  for (unsigned i = 0; i < threads && i < N; i++) ws[i] = a[i] + b[i];
}
static void k_double(void **params, unsigned threads) {
  float *out = *(float **)params[2], *ws = *(float **)params[3];
  if (!ws) { INC(bad); return; }
  for (unsigned i = 0; i < threads && i < N; i++) out[i] = ws[i] * 2.0f;
}
/* Vadd2.looping()'s loop kernel: the predicate byte at ws+4000 is iteration < 3 (params[4], the
   host loop's iteration), the branch number at ws+4004 is 1. Its counters, ws+4032 to ws+4095
   (the program's zeroed bytes), must be zero when it starts; it counts and leaves them zero. */
static void k_count(void **params, unsigned threads) {
  (void)threads;
  unsigned char *ws = *(unsigned char **)params[3];
  long long it = *(long long *)params[4];
  if (!ws) { INC(bad); return; }
  for (int i = 4032; i < 4096; i++) if (ws[i]) { INC(bad); return; }
  ws[4032] = 1;
  ws[4032] = 0;
  last_iteration = (int)it;
  ws[4000] = it < 3;
  int one = 1;
  memcpy(ws + 4004, &one, 4);
}
struct func { const char *name; kernel_fn fn; unsigned max_shared; };
static struct func funcs[] = {{"jaxc_test_add", k_add, 49152}, {"jaxc_test_double", k_double, 49152},
                              {"jaxc_test_count", k_count, 49152}};

CUresult cuModuleLoadData(void **module, const void *image) {
  if (is("ptx222")) return 222;
  if (is("gpu209")) return 209;
  if (is("ptx218") || is("oldgpu")) return 218;  /* JIT failed: a compiler bug, or a GPU older than .target */
  if (!strstr(image, ".entry jaxc_test_add(") || !strstr(image, ".entry jaxc_test_double(")) return 218;
  INC(loads);
  *module = malloc(16);
  return 0;
}
CUresult cuModuleUnload(void *module) { free(module); return 0; }
CUresult cuModuleGetFunction(void **f, void *module, const char *name) {
  (void)module;
  for (unsigned i = 0; i < sizeof funcs / sizeof *funcs; i++)
    if (!strcmp(funcs[i].name, name)) { *f = &funcs[i]; return 0; }
  return 500;  /* CUDA_ERROR_NOT_FOUND */
}
CUresult cuFuncSetAttribute(void *f, int attr, int value) {
  if (attr != 8) return 1;
  ((struct func *)f)->max_shared = (unsigned)value;
  INC(setattrs);
  return 0;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *stream, void **params, void **extra) {
  (void)stream;
  if (is("launch719")) return 719;
  struct func *fn = f;
  if (gy != 1 || gz != 1 || by != 1 || bz != 1 || extra || !params || shared > fn->max_shared) return 1;
  INC(launches);
  fn->fn(params, gx * bx);
  return 0;
}
CUresult cuMemAlloc_v2(unsigned long long *p, size_t bytes) {
  if (is("oom")) return 2;
  void *m = malloc(bytes ? bytes : 1);
  if (!m) return 2;
  memset(m, 0xA5, bytes);  /* a GPU's new memory holds anything */
  INC(allocs);
  *p = (unsigned long long)(uintptr_t)m;
  return 0;
}
CUresult cuMemFree_v2(unsigned long long p) { free((void *)(uintptr_t)p); return 0; }
CUresult cuMemcpyHtoD_v2(unsigned long long dst, const void *src, size_t n) {
  memcpy((void *)(uintptr_t)dst, src, n);
  return 0;
}
CUresult cuMemcpyDtoH_v2(void *dst, unsigned long long src, size_t n) {
  memcpy(dst, (void *)(uintptr_t)src, n);
  return 0;
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, unsigned long long src, size_t n, void *stream) {
  (void)stream;
  INC(readbacks);
  memcpy(dst, (void *)(uintptr_t)src, n);
  return 0;
}
CUresult cuStreamSynchronize(void *stream) {
  (void)stream;
  INC(syncs);
  return is("sync700") ? 700 : 0;
}
CUresult cuEventCreate(void **event, unsigned flags) {
  if (flags != 2) return 1;
  *event = malloc(8);
  return 0;
}
CUresult cuEventRecord(void *event, void *stream) { (void)event; (void)stream; INC(records); return 0; }
#ifndef MISSING_SYMBOL
CUresult cuEventQuery(void *event) { (void)event; return is("busy") ? 600 : 0; }
#endif
/* what bench/gpu/check_cases.py asks besides the library */
CUresult cuDeviceGetName(char *name, int len, int dev) {
  (void)dev;
  strncpy(name, "Fake GPU", (size_t)len);
  return 0;
}
CUresult cuDeviceGetAttribute(int *v, int attr, int dev) {
  (void)dev;
  if (attr == 75) *v = is("oldgpu") ? 7 : 8;  /* compute capability 7.0 or 8.0 */
  else *v = 0;
  return 0;
}
CUresult cuCtxGetDevice(int *dev) { *dev = 0; return 0; }
CUresult cuDriverGetVersion(int *v) { *v = 12040; return 0; }
CUresult cuStreamCreate(void **s, unsigned flags) { (void)flags; *s = malloc(8); return 0; }
CUresult cuMemsetD8_v2(unsigned long long p, unsigned char v, size_t n) {
  memset((void *)(uintptr_t)p, v, n);
  return 0;
}
CUresult cuMemsetD8Async(unsigned long long p, unsigned char v, size_t n, void *stream) {
  (void)stream;
  INC(memsets);
  memset((void *)(uintptr_t)p, v, n);
  return 0;
}
CUresult cuStreamWaitEvent(void *stream, void *event, unsigned flags) {
  (void)stream;
  if (!event || flags) return 1;
  INC(waits);
  return 0;
}
