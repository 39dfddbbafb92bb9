/* The runner of `jaxc check --target ARCH`: loads a shared library that jaxc compiled, calls its
   entry point once on raw input blobs and writes raw output blobs (the C ABI's encodings, dense
   row-major). Written to a temporary directory by jaxc and compiled there for the target.

   usage: runner LIB NAME NUM_INPUTS IN_FILE... NUM_OUTPUTS (BYTES OUT_FILE)...
   exit status: 0 ok; 2 usage or I/O error; 3 the library or a symbol cannot be loaded;
   4 the library's input/output counts differ from the arguments; 10 + code when the entry
   point returns a non-zero code. A message on stderr says which. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int32_t (*entry_fn)(const void *const *inputs, void *const *outputs);
typedef int32_t (*count_fn)(void);

static int fail(int status, const char *what, const char *detail) {
  fprintf(stderr, "runner: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  return status;
}

/* At least one byte, so an empty array still has a non-null address. */
static void *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  long size = -1;
  if (fseek(f, 0, SEEK_END) == 0) size = ftell(f);
  void *data = size >= 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc(size > 0 ? (size_t)size : 1) : NULL;
  if (data && size > 0 && fread(data, 1, (size_t)size, f) != (size_t)size) {
    free(data);
    data = NULL;
  }
  fclose(f);
  return data;
}

static void *symbol(void *lib, const char *name, const char *suffix) {
  char buf[512];
  if (strlen(name) + strlen(suffix) >= sizeof buf) return NULL;
  strcpy(buf, name);
  strcat(buf, suffix);
  return dlsym(lib, buf);
}

int main(int argc, char **argv) {
  if (argc < 5) return fail(2, "usage", "runner LIB NAME NUM_INPUTS IN_FILE... NUM_OUTPUTS (BYTES OUT_FILE)...");
  const char *name = argv[2];
  int num_in = atoi(argv[3]);
  if (num_in < 0 || 4 + num_in >= argc) return fail(2, "bad NUM_INPUTS", argv[3]);
  int num_out = atoi(argv[4 + num_in]);
  if (num_out < 0 || argc != 5 + num_in + 2 * num_out) return fail(2, "bad NUM_OUTPUTS", argv[4 + num_in]);

  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) return fail(3, "cannot load the library", dlerror());
  entry_fn entry = (entry_fn)symbol(lib, name, "");
  count_fn ins = (count_fn)symbol(lib, name, "_num_inputs");
  count_fn outs = (count_fn)symbol(lib, name, "_num_outputs");
  if (!entry || !ins || !outs) return fail(3, "missing entry point symbols for", name);
  if (ins() != num_in || outs() != num_out) {
    fprintf(stderr, "runner: the library takes %d inputs and gives %d outputs, not %d and %d\n",
            (int)ins(), (int)outs(), num_in, num_out);
    return 4;
  }

  const void **in = calloc((size_t)num_in + 1, sizeof *in);
  void **out = calloc((size_t)num_out + 1, sizeof *out);
  if (!in || !out) return fail(2, "out of memory", NULL);
  for (int k = 0; k < num_in; k++) {
    in[k] = read_file(argv[4 + k]);
    if (!in[k]) return fail(2, "cannot read", argv[4 + k]);
  }
  for (int k = 0; k < num_out; k++) {
    long long bytes = atoll(argv[5 + num_in + 2 * k]);
    out[k] = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (!out[k]) return fail(2, "out of memory", NULL);
    /* Poisoned: all-ones bytes are NaN in every float dtype and no boolean, so an element the
       code never stores cannot match a golden output by chance. Under valgrind they are left
       undefined instead, so memcheck reports a byte never written. */
    if (!getenv("JAXC_RUNNER_NO_POISON")) memset(out[k], 0xFF, bytes > 0 ? (size_t)bytes : 1);
  }
  int32_t rc = entry(in, out);
  if (rc != 0) {
    fprintf(stderr, "runner: %s returned %d\n", name, (int)rc);
    return 10 + (rc > 0 && rc < 100 ? rc : 99);
  }
  for (int k = 0; k < num_out; k++) {
    const char *path = argv[6 + num_in + 2 * k];
    size_t bytes = (size_t)atoll(argv[5 + num_in + 2 * k]);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(out[k], 1, bytes, f) != bytes || fclose(f) != 0) return fail(2, "cannot write", path);
  }
  return 0;
}
