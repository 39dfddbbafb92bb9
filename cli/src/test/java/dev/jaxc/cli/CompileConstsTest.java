package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.cli.npy.Npz;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.types.PromotionMode;
import dev.jaxc.ir.types.TypeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --consts}: a C program includes the header of a shared library with the constvars baked
 * in, passes only the invars, and reproduces the expected outputs (JAX's, from the case) — for the
 * committed case {@code compile/consts_affine} (constvars of f32, bf16, i32 and bool) and every
 * golden {@code model_*} case with constvars that passes on the host; on x86-64 natively and on
 * AArch64 under qemu. Also {@code jaxc run --consts}, the baked data itself, and the errors.
 */
class CompileConstsTest {
  @TempDir Path dir;

  static final String PROGRAM = """
      #include <stdio.h>
      #include <stdlib.h>
      #include "net.h"
      /* argv: one raw blob per input, then one output path per output. */
      int main(int argc, char **argv) {
        int ni = net_num_inputs(), no = net_num_outputs();
        if (argc != 1 + ni + no) {
          fprintf(stderr, "net takes %d inputs and gives %d outputs; got %d paths\\n", ni, no, argc - 1);
          return 2;
        }
        const void **in = calloc((size_t)ni + 1, sizeof *in);
        void **out = calloc((size_t)no + 1, sizeof *out);
        for (int k = 0; k < ni; k++) {
          long size = (long)(net_inputs[k].num_elements * net_inputs[k].element_size);
          char *b = malloc((size_t)size + 1);
          FILE *f = fopen(argv[1 + k], "rb");
          if (!f || (long)fread(b, 1, (size_t)size + 1, f) != size) { fprintf(stderr, "input %d size\\n", k); return 3; }
          fclose(f);
          in[k] = b;
        }
        for (int k = 0; k < no; k++) out[k] = malloc((size_t)(net_outputs[k].num_elements * net_outputs[k].element_size) + 1);
        int rc = net(in, out);
        if (rc != 0) { fprintf(stderr, "net returned %d\\n", rc); return 4; }
        for (int k = 0; k < no; k++) {
          FILE *f = fopen(argv[1 + ni + k], "wb");
          size_t size = (size_t)(net_outputs[k].num_elements * net_outputs[k].element_size);
          if (!f || fwrite(out[k], 1, size, f) != size || fclose(f)) return 5;
        }
        puts("ok");
        return 0;
      }
      """;

  static Path fixture() {
    return Corpus.root().resolve("cli/src/test/resources/compile/consts_affine");
  }

  /** The committed case and the golden model_* cases with constvars, for each target. */
  static Stream<Arguments> cases() {
    List<Path> cases = new ArrayList<>(List.of(fixture()));
    for (Path m : Corpus.models("cases")) {
      if (m.getParent().getFileName().toString().startsWith("model_") && constvarCount(m) > 0) cases.add(m.getParent());
    }
    return cases.stream().flatMap(c -> Stream.of(Arguments.of(c, "x86_64"), Arguments.of(c, "aarch64")));
  }

  private static int constvarCount(Path model) {
    try {
      return HostRun.lower(new FrontEnd().run(model, new TypeConfig(false, PromotionMode.STANDARD), Phase.TYPE))
          .main().constvars().size();
    } catch (Exception e) {
      throw new AssertionError(model + ": " + e, e);
    }
  }

  /** consts.npz and invars.npz made from the case's inputs.npz (constvars first). */
  private int split(Path c) throws Exception {
    int n = constvarCount(c.resolve("model.jaxpr"));
    List<NpyArray> inputs = Npz.read(c.resolve("inputs.npz"));
    Npz.write(dir.resolve("consts.npz"), inputs.subList(0, n));
    Npz.write(dir.resolve("invars.npz"), inputs.subList(n, inputs.size()));
    return n;
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void cProgramReproducesTheCaseWithConstsBakedIn(Path c, String target) throws Exception {
    boolean arm = target.equals("aarch64");
    if (arm) assumeTrue(CompileTools.canRunAarch64(), "needs qemu-user, gcc-aarch64-linux-gnu, libc6-dev-arm64-cross");
    else assumeTrue(CompileTools.isX86Host() && CompileTools.has("cc"), "needs an x86-64 host with cc");
    if (!c.equals(fixture())) {
      CliRunner host = CliRunner.run("check", c.toString());
      assumeTrue(host.out().startsWith("PASS "), "does not pass on the host yet: " + host.out().lines().findFirst().orElse(""));
    }
    assertTrue(split(c) > 0);
    CliRunner r = CliRunner.run("compile", c.resolve("model.jaxpr").toString(), "-target", target, "--consts",
        dir.resolve("consts.npz").toString(), "--emit", "shared,header", "--name", "net", "-o", dir.toString());
    assertEquals(ExitCode.OK, r.status(), r.err());
    Files.writeString(dir.resolve("main.c"), PROGRAM);
    CompileTools.run(dir, arm ? "aarch64-linux-gnu-gcc" : "cc", "-std=c99", "-Wall", "-Werror", "-o", "main", "main.c",
        "-L.", "-lnet", "-Wl,-rpath," + dir);
    List<NpyArray> invars = Npz.read(dir.resolve("invars.npz"));
    List<NpyArray> expected = Npz.read(c.resolve("expected.npz"));
    List<String> cmd = new ArrayList<>(List.of("./main"));
    for (int k = 0; k < invars.size(); k++) {
      Files.write(dir.resolve("in" + k), invars.get(k).data());
      cmd.add("in" + k);
    }
    for (int k = 0; k < expected.size(); k++) cmd.add("out" + k);
    assertEquals("ok", CompileTools.run(dir, CompileTools.onTarget(arm, cmd.toArray(String[]::new))).strip());
    GoldenCase.Meta meta = new GoldenCase(c).meta();
    for (int k = 0; k < expected.size(); k++) {
      NpyArray e = expected.get(k);
      NpyArray got = NpyArray.of(e.dtype(), e.shape(), Files.readAllBytes(dir.resolve("out" + k)));
      Optional<String> diff = ArrayComparison.compare(e, got, meta.rtol(), meta.atol());
      assertEquals(Optional.empty(), diff, "output " + k);
    }
  }

  @Test
  void runWithConstsGivesTheExpectedOutputs() throws Exception {
    split(fixture());
    Path out = dir.resolve("out.npz");
    CliRunner r = CliRunner.run("run", fixture().resolve("model.jaxpr").toString(), "--consts", dir.resolve("consts.npz").toString(),
        "--inputs", dir.resolve("invars.npz").toString(), "--output", out.toString());
    assertEquals(ExitCode.OK, r.status(), r.err());
    List<NpyArray> expected = Npz.read(fixture().resolve("expected.npz"));
    List<NpyArray> got = Npz.read(out);
    assertEquals(expected.size(), got.size());
    for (int k = 0; k < got.size(); k++) assertEquals(Optional.empty(), ArrayComparison.compare(expected.get(k), got.get(k), 1e-6, 1e-6));
    // All inputs (constvars too) are one too many once the constvars are baked.
    CliRunner all = CliRunner.run("run", fixture().resolve("model.jaxpr").toString(), "--consts", dir.resolve("consts.npz").toString(),
        "--inputs", fixture().resolve("inputs.npz").toString(), "--output", dir.resolve("o2.npz").toString());
    assertEquals(ExitCode.BAD_INPUT, all.status());
    assertEquals(fixture().resolve("inputs.npz") + ": error: the model takes 2 inputs (invars; the constvars come from --consts), got 7",
        all.firstErrLine());
    assertTrue(Files.notExists(dir.resolve("o2.npz")));
  }

  /**
   * {@code -target ptx --consts}: the constvars become initialised global-space arrays of the PTX
   * module (which ptxas accepts), no longer inputs of the program or the header, and the emulated
   * launch with them baked reproduces JAX's outputs for every case with constvars.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("ptxCases")
  void ptxBakesConstsIntoTheModule(Path c) throws Exception {
    int n = split(c);
    assertTrue(n > 0);
    Path out = dir.resolve("out.npz");
    CliRunner run = CliRunner.run("run", c.resolve("model.jaxpr").toString(), "-target", "ptx", "--consts",
        dir.resolve("consts.npz").toString(), "--inputs", dir.resolve("invars.npz").toString(), "--output", out.toString());
    assertEquals(ExitCode.OK, run.status(), run.err());
    List<NpyArray> expected = Npz.read(c.resolve("expected.npz"));
    List<NpyArray> got = Npz.read(out);
    assertEquals(expected.size(), got.size());
    GoldenCase.Meta meta = new GoldenCase(c).meta();
    for (int k = 0; k < got.size(); k++) {
      assertEquals(Optional.empty(), ArrayComparison.compare(expected.get(k), got.get(k), meta.rtol(), meta.atol()), "output " + k);
    }
    CliRunner r = CliRunner.run("compile", c.resolve("model.jaxpr").toString(), "-target", "ptx", "--consts",
        dir.resolve("consts.npz").toString(), "--emit", "ptx,header", "--name", "net", "-o", dir.toString());
    assertEquals(ExitCode.OK, r.status(), r.err());
    String ptx = Files.readString(dir.resolve("net.ptx"));
    List<NpyArray> consts = Npz.read(dir.resolve("consts.npz"));
    // LLVM may fold a small constant's loads and drop it: only the fixture's are all kept.
    for (int k = 0; k < (c.equals(fixture()) ? n : 0); k++) {
      String decl = ".global .align 64 .b8 jaxc_const_" + k + "[" + consts.get(k).data().length + "]";
      assertTrue(ptx.contains(decl), "no " + decl);
    }
    int invars = Npz.read(dir.resolve("invars.npz")).size();
    assertTrue(ptx.contains("// jaxc DeviceProgram net sm_80: workspace "), ptx.lines().findFirst().orElse(""));
    assertEquals(invars, ptx.lines().findFirst().orElseThrow().replaceAll(".*input bytes \\[([^]]*)\\].*", "$1").split(",").length);
    String h = Files.readString(dir.resolve("net.h"));
    assertTrue(h.contains("Constvars baked into the library as read-only data (--consts), not inputs:"), h);
    if (CompileTools.has("ptxas")) CompileTools.run(dir, "ptxas", "-arch=sm_80", "net.ptx", "-o", "/dev/null");
  }

  static Stream<Path> ptxCases() {
    return cases().map(a -> (Path) a.get()[0]).distinct();
  }

  @Test
  void bakedValuesAreAlignedReadOnlyDataOfTheArtifact() throws Exception {
    // A 16×16 constvar read in a loop too long to unroll stays a 1024-byte constant (small ones
    // may be folded into the instructions). The values are arbitrary: only their bytes are sought.
    Path model = dir.resolve("model.jaxpr");
    Files.writeString(model, "{ lambda a:f32[16,16]; f:f32[16,16]. let h:f32[16,16] = mul f a in (h,) }\n");
    byte[] a = new byte[16 * 16 * 4];
    for (int i = 0; i < a.length; i++) a[i] = (byte) (i * 37 + 11);
    Npz.write(dir.resolve("consts.npz"), List.of(NpyArray.of(DType.F32, new long[] {16, 16}, a)));
    CliRunner r = CliRunner.run("compile", model.toString(), "-target", "aarch64", "--consts",
        dir.resolve("consts.npz").toString(), "--emit", "llvm-ir,shared,header", "-o", dir.toString());
    assertEquals(ExitCode.OK, r.status(), r.err());
    String ll = Files.readString(dir.resolve("model.ll"));
    assertTrue(ll.matches("(?s).*@jaxc_const_0 = private unnamed_addr constant \\[1024 x i8\\] c\"[^\"]*\", align 64\n.*"), ll);
    byte[] so = Files.readAllBytes(dir.resolve("libmodel.so"));
    assertTrue(indexOf(so, a) >= 0, "the constvar's bytes are not in the library");
    String h = Files.readString(dir.resolve("model.h"));
    assertTrue(h.contains("   Constvars baked into the library as read-only data (--consts), not inputs:\n"
        + "         a          f32[16,16]  (float32, 256 elements, 1024 bytes)\n"), h);
    assertTrue(h.contains("      0  f          f32[16,16]"), h);
    if (CompileTools.has("readelf")) {
      String syms = CompileTools.run(dir, "readelf", "--dyn-syms", "--wide", "libmodel.so");
      assertTrue(!syms.contains("jaxc_const"), "baked constants are private:\n" + syms);
    }
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
      return i;
    }
    return -1;
  }

  @Test
  void constsThatDoNotFitAreClearErrors() throws Exception {
    List<NpyArray> inputs = Npz.read(fixture().resolve("inputs.npz"));
    List<NpyArray> consts = inputs.subList(0, 5);
    NpyArray i8 = NpyArray.of(DType.I8, new long[] {4}, new byte[] {1, 0, 1, 1});
    NpyArray f3 = NpyArray.of(DType.F32, new long[] {3}, new byte[12]);
    String model = fixture().resolve("model.jaxpr").toString();
    String[][] cases = {
      {"count", "the model has 5 constvars (a:f32[3,4] b:f32[4] c:bool[4] d:bf16[4] e:i32[1,4]), the file holds 4 arrays"},
      {"dtype", "arr_2 is int8[4] but constvar c is bool[4]"},
      {"shape", "arr_1 is float32[3] but constvar b is f32[4]"},
    };
    Npz.write(dir.resolve("count.npz"), consts.subList(0, 4));
    Npz.write(dir.resolve("dtype.npz"), List.of(consts.get(0), consts.get(1), i8, consts.get(3), consts.get(4)));
    Npz.write(dir.resolve("shape.npz"), List.of(consts.get(0), f3, consts.get(2), consts.get(3), consts.get(4)));
    Path out = Files.createDirectory(dir.resolve("out"));
    for (String[] c : cases) {
      Path f = dir.resolve(c[0] + ".npz");
      for (String cmd : List.of("compile", "run")) {
        CliRunner r = cmd.equals("compile")
            ? CliRunner.run("compile", model, "--consts", f.toString(), "--emit", "obj,header", "-o", out.toString())
            : CliRunner.run("run", model, "--consts", f.toString(), "--inputs", fixture().resolve("inputs.npz").toString(),
                "--output", out.resolve("o.npz").toString());
        assertEquals(ExitCode.BAD_INPUT, r.status(), r.err());
        assertEquals(f + ": error: " + c[1], r.err().strip());
      }
    }
    Path plain = Files.writeString(dir.resolve("plain.jaxpr"), "{ lambda ; a:f32[3]. let b:f32[3] = neg a in (b,) }");
    CliRunner none = CliRunner.run("compile", plain.toString(), "--consts", dir.resolve("count.npz").toString(), "-o", out.toString());
    assertEquals(dir.resolve("count.npz") + ": error: the model has no constvars, the file holds 4 arrays", none.firstErrLine());
    CliRunner missing = CliRunner.run("compile", model, "--consts", dir.resolve("nope.npz").toString(), "-o", out.toString());
    assertEquals(dir.resolve("nope.npz") + ": error: no such file", missing.firstErrLine());
    assertEquals(ExitCode.BAD_INPUT, missing.status());
    try (Stream<Path> s = Files.list(out)) {
      assertEquals(List.of(), s.toList());
    }
  }
}
