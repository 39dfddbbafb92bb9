/* Runs the model MODEL (a jaxc_add_library target) once: input i from in_i.bin, output i to
   out_i.bin, in the working directory, sized by the header's descriptor tables. */
#include <stdio.h>
#include <stdlib.h>
#include MODEL_HEADER

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

static size_t bytes(const CAT(MODEL, _tensor_desc) *d) {
  return (size_t)d->element_size * (size_t)d->num_elements;
}

int main(void) {
  int ni = CAT(MODEL, _num_inputs)(), no = CAT(MODEL, _num_outputs)();
  const void **in = calloc((size_t)ni + 1, sizeof *in);
  void **out = calloc((size_t)no + 1, sizeof *out);
  char path[64];
  for (int i = 0; i < ni; i++) {
    size_t n = bytes(&CAT(MODEL, _inputs)[i]);
    void *b = malloc(n + 1);
    snprintf(path, sizeof path, "in_%d.bin", i);
    FILE *f = fopen(path, "rb");
    if (!f || fread(b, 1, n + 1, f) != n) { fprintf(stderr, "%s: expected %zu bytes\n", path, n); return 2; }
    fclose(f);
    in[i] = b;
  }
  for (int o = 0; o < no; o++) out[o] = malloc(bytes(&CAT(MODEL, _outputs)[o]) + 1);
  int rc = MODEL(in, out);
  if (rc != 0) { fprintf(stderr, "entry point returned %d\n", rc); return 3; }
  for (int o = 0; o < no; o++) {
    snprintf(path, sizeof path, "out_%d.bin", o);
    FILE *f = fopen(path, "wb");
    size_t n = bytes(&CAT(MODEL, _outputs)[o]);
    if (!f || fwrite(out[o], 1, n, f) != n || fclose(f) != 0) { fprintf(stderr, "%s: cannot write\n", path); return 4; }
  }
  printf("%s: %d inputs, %d outputs\n", MODEL_HEADER, ni, no);
  return 0;
}
