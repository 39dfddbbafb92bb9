/* Drives a vadd2 host library (vadd2.ptx: out = 2 * (a + b), f32[1000], 4000-byte workspace).
   ./host_test nodriver          no libcuda.so.1: every entry point answers NO_CUDA_DRIVER
   ./host_test expect CODE       the fake driver fails: NAME and NAME_host answer CODE (NAME_async
                                 too unless the failure is in the synchronisation)
   ./host_test ok                the fake driver works: results, contexts, work memory, threads
   ./host_test busy              the fake's events never complete: work blocks grow to 4
   ./host_test program           a library of Vadd2.looping(): host-driven repeat, while, switch,
                                 counters zeroed once per work block */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vadd2.h"

#define N 1000
#define FAIL(...) do { printf(__VA_ARGS__); printf(" (line %d)\n", __LINE__); return 1; } while (0)

static float a[N], b[N];
static void fill(void) {
  for (int i = 0; i < N; i++) { a[i] = 0.5f * i - 3.0f; b[i] = 1.0f / (i + 1); }
}
static int right(const float *out) {
  for (int i = 0; i < N; i++) if (out[i] != (a[i] + b[i]) * 2.0f) return 0;
  return 1;
}

static int sizes(void) {
  if (vadd2_num_inputs() != 2 || vadd2_num_outputs() != 1) FAIL("counts");
  if (vadd2_workspace_size() != 4000) FAIL("workspace size %lld", (long long)vadd2_workspace_size());
  if (vadd2_input_bytes(0) != 4000 || vadd2_input_bytes(1) != 4000 || vadd2_output_bytes(0) != 4000) FAIL("bytes");
  if (vadd2_input_bytes(2) != -1 || vadd2_input_bytes(-1) != -1 || vadd2_output_bytes(1) != -1) FAIL("bytes out of range");
  if (strcmp(vadd2_inputs[1].name, "b") || vadd2_outputs[0].num_elements != N) FAIL("descriptor table");
  float out[N];
  const void *ins[2] = {a, b}, *noin[2] = {a, 0};
  void *outs[1] = {out};
  if (vadd2(0, outs) != VADD2_BAD_ARGUMENTS || vadd2_host(ins, 0) != 1 || vadd2_async(noin, outs, 0) != 1) FAIL("null arguments");
  return 0;
}

static int expect(int code) {
  float out[N];
  const void *ins[2] = {a, b};
  void *outs[1] = {out};
  int r0 = vadd2(ins, outs), r1 = vadd2_async(ins, outs, 0), r2 = vadd2_host(ins, outs);
  int async_code = code == 1700 ? 0 : code;  /* the async call does not synchronise */
  if (r0 != code || r1 != async_code || r2 != code) FAIL("codes %d %d %d, expected %d", r0, r1, r2, code);
  return 0;
}

/* the fake driver's own functions, through the library it is */
static void *cuda;
static int count(const char *name) { return ((int (*)(const char *))dlsym(cuda, "fake_stat"))(name); }
static void *current(void) {
  void *c = (void *)1;
  ((int (*)(void **))dlsym(cuda, "cuCtxGetCurrent"))(&c);
  return c;
}
static void set_current(void *c) { ((int (*)(void *))dlsym(cuda, "cuCtxSetCurrent"))(c); }
static unsigned long long dev_alloc(size_t n) {
  unsigned long long p = 0;
  ((int (*)(unsigned long long *, size_t))dlsym(cuda, "cuMemAlloc_v2"))(&p, n);
  return p;
}

static void *worker(void *arg) {
  long bad = 0;
  float out[N];
  unsigned long long da = dev_alloc(4 * N), db = dev_alloc(4 * N), dout = dev_alloc(4 * N);
  memcpy((void *)(size_t)da, a, sizeof a);
  memcpy((void *)(size_t)db, b, sizeof b);
  const void *hins[2] = {a, b}, *dins[2] = {(void *)(size_t)da, (void *)(size_t)db};
  void *houts[1] = {out}, *douts[1] = {(void *)(size_t)dout};
  for (int k = 0; k < 300; k++) {
    memset(out, 0, sizeof out);
    memset((void *)(size_t)dout, 0, sizeof out);
    int which = (k + (int)(long)arg) % 3;
    int r = which == 0 ? vadd2_host(hins, houts)
          : which == 1 ? vadd2(dins, douts)
          : vadd2_async(dins, douts, (void *)(size_t)(0x1000 + (long)arg));
    bad += r != 0 || !right(which == 0 ? out : (float *)(size_t)dout);
  }
  return (void *)bad;
}

static int ok(void) {
  float out[N];
  const void *ins[2] = {a, b};
  void *outs[1] = {out};
  if (vadd2_host(ins, outs) != 0 || !right(out)) FAIL("host call");
  if (current() != 0) FAIL("the primary context was left current");
  if (count("pushes") != 1 || count("pops") != 1) FAIL("push/pop %d/%d", count("pushes"), count("pops"));
  if (count("loads") != 1 || count("setattrs") != 1) FAIL("loads %d setattrs %d", count("loads"), count("setattrs"));
  int allocs = count("allocs");  /* the workspace and the staging block */
  if (allocs != 2) FAIL("allocs %d", allocs);
  /* device pointers */
  unsigned long long da = dev_alloc(4 * N), db = dev_alloc(4 * N), dout = dev_alloc(4 * N);
  memcpy((void *)(size_t)da, a, sizeof a);
  memcpy((void *)(size_t)db, b, sizeof b);
  const void *dins[2] = {(void *)(size_t)da, (void *)(size_t)db};
  void *douts[1] = {(void *)(size_t)dout};
  allocs = count("allocs");
  if (vadd2(dins, douts) != 0 || !right((float *)(size_t)dout)) FAIL("device call");
  memset((void *)(size_t)dout, 0, 4 * N);
  for (int k = 0; k < 10; k++)  /* a stream each: the completed blocks are reused */
    if (vadd2_async(dins, douts, (void *)(size_t)(0x100 + k)) != 0) FAIL("async call");
  if (!right((float *)(size_t)dout)) FAIL("async results");
  if (count("allocs") != allocs) FAIL("completed work blocks not reused: %d allocations", count("allocs") - allocs);
  if (count("loads") != 1) FAIL("module loaded again");
  if (count("waits") != count("records")) FAIL("waits %d records %d", count("waits"), count("records"));
  /* a context of the caller's: a module of its own, and it stays current */
  set_current(((void *(*)(void))dlsym(cuda, "fake_user_context"))());
  memset(out, 0, sizeof out);
  if (vadd2_host(ins, outs) != 0 || !right(out)) FAIL("call in the user's context");
  if (current() != ((void *(*)(void))dlsym(cuda, "fake_user_context"))()) FAIL("the user's context was not kept");
  if (count("loads") != 2) FAIL("loads %d in two contexts", count("loads"));
  set_current(0);
  if (vadd2(dins, douts) != 0 || count("loads") != 2) FAIL("primary context reloaded");
  /* threads */
  pthread_t t[8];
  for (long k = 0; k < 8; k++) pthread_create(&t[k], 0, worker, (void *)k);
  long bad = 0;
  for (int k = 0; k < 8; k++) {
    void *v;
    pthread_join(t[k], &v);
    bad += (long)v;
  }
  if (bad) FAIL("%ld wrong results from 8 threads", bad);
  if (count("bad") != 0) FAIL("the fake driver saw %d bad calls", count("bad"));
  if (count("pushes") != count("pops")) FAIL("unbalanced push/pop");
  if (count("memsets") != 0) FAIL("%d memsets for a program without zeroed bytes", count("memsets"));
  return 0;
}

static int busy(void) {
  unsigned long long da = dev_alloc(4 * N), db = dev_alloc(4 * N), dout = dev_alloc(4 * N);
  memcpy((void *)(size_t)da, a, sizeof a);
  memcpy((void *)(size_t)db, b, sizeof b);
  const void *dins[2] = {(void *)(size_t)da, (void *)(size_t)db};
  void *douts[1] = {(void *)(size_t)dout};
  int allocs = count("allocs");
  for (int k = 0; k < 3; k++)  /* one stream: one block, each call after the last */
    if (vadd2_async(dins, douts, (void *)0x200) != 0) FAIL("async call");
  if (count("allocs") - allocs != 1) FAIL("one stream took %d blocks", count("allocs") - allocs);
  for (int k = 0; k < 10; k++)  /* ten streams, nothing completes: at most 4 blocks */
    if (vadd2_async(dins, douts, (void *)(size_t)(0x300 + k)) != 0) FAIL("async call");
  if (count("allocs") - allocs != 4) FAIL("ten busy streams took %d blocks", count("allocs") - allocs);
  if (!right((float *)(size_t)dout)) FAIL("results");
  return 0;
}

/* Vadd2.looping(): repeat 3 x add; while (count: iteration < 3) add, an odd exit adds; switch on
   count's 1: add, double. 13 launches, 5 read-backs (4 predicates, 1 branch), the same results. */
static int program(void) {
  float out[N];
  const void *ins[2] = {a, b};
  void *outs[1] = {out};
  int l0 = count("launches"), r0 = count("readbacks"), s0 = count("syncs");
  if (vadd2_host(ins, outs) != 0 || !right(out)) FAIL("host call");
  if (count("launches") - l0 != 13) FAIL("launches %d", count("launches") - l0);
  if (count("readbacks") - r0 != 5) FAIL("read-backs %d", count("readbacks") - r0);
  if (count("syncs") - s0 != 6) FAIL("syncs %d (5 read-backs and the call's)", count("syncs") - s0);
  if (count("last_iteration") != 3) FAIL("last iteration %d", count("last_iteration"));
  if (count("memsets") != 1) FAIL("%d memsets of the zeroed bytes for one work block", count("memsets"));
  unsigned long long da = dev_alloc(4 * N), db = dev_alloc(4 * N), dout = dev_alloc(4 * N);
  memcpy((void *)(size_t)da, a, sizeof a);
  memcpy((void *)(size_t)db, b, sizeof b);
  const void *dins[2] = {(void *)(size_t)da, (void *)(size_t)db};
  void *douts[1] = {(void *)(size_t)dout};
  r0 = count("readbacks");
  if (vadd2_async(dins, douts, (void *)0x400) != 0 || !right((float *)(size_t)dout)) FAIL("async call");
  if (count("readbacks") - r0 != 5) FAIL("async read-backs %d", count("readbacks") - r0);
  if (count("bad") != 0) FAIL("the fake driver saw %d bad calls", count("bad"));
  return 0;
}

int main(int argc, char **argv) {
  fill();
  if (argc < 2) return 2;
  if (strcmp(argv[1], "program") && sizes()) return 1;
  if (!strcmp(argv[1], "nodriver")) {
    if (expect(VADD2_NO_CUDA_DRIVER)) return 1;
  } else if (!strcmp(argv[1], "expect")) {
    if (expect(atoi(argv[2]))) return 1;
  } else {
    cuda = dlopen("libcuda.so.1", RTLD_NOW);
    if (!cuda) FAIL("no fake libcuda.so.1 on LD_LIBRARY_PATH");
    if (!strcmp(argv[1], "ok") ? ok() : !strcmp(argv[1], "program") ? program() : busy()) return 1;
  }
  puts("ok");
  return 0;
}
