package dev.jaxc.cli;

import static org.bytedeco.llvm.global.LLVM.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jaxc.backend.llvm.abi.ErrorCode;
import dev.jaxc.backend.llvm.artifact.ElfSymbols;
import dev.jaxc.backend.llvm.llvm.Llvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code jaxc compile}: every --emit kind for x86-64 and AArch64, checked from the outside (ELF
 * type and machine, symbols with readelf, the header with a strict C compiler, the LLVM IR parsed
 * back by LLVM, the assembly), default names and paths, byte-identical output, outputs written
 * whole or not at all, and the errors.
 */
class CompileCommandTest {
  @TempDir Path dir;

  /** Needs a workspace (b has two uses), so the object calls malloc and free. */
  static final String MODEL = """
      { lambda ; a:i32[100] s:f32[]. let
          b:i32[100] = mul a a
          c:i32[100] = add b 1:i32[]
          d:i32[100] = sub b 7:i32[]
          e:f32[100] = convert_element_type[new_dtype=float32 weak_type=False] c
          f:f32[100] = mul e s
        in (f, d) }
      """;

  static final String UNSUPPORTED = "{ lambda ; a:f32[8]. let\n    b:f32[8] = roll[axis=0 stride=None stride_axis=None] a 1:i32[]\n  in (b,) }\n";

  /** The model as {@code my-model.v2.jaxpr}: its default entry point name is my_model_v2. */
  private Path model() throws Exception {
    return Files.writeString(dir.resolve("my-model.v2.jaxpr"), MODEL);
  }

  private static CliRunner ok(String... args) {
    CliRunner r = CliRunner.run(args);
    assertEquals(ExitCode.OK, r.status(), r.err());
    assertEquals("", r.err());
    return r;
  }

  private List<String> listing(Path d) throws Exception {
    try (Stream<Path> s = Files.list(d)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"x86_64", "aarch64"})
  void everyKindForBothTargets(String target) throws Exception {
    Path out = Files.createDirectory(dir.resolve("out"));
    ok("compile", model().toString(), "-target", target, "--emit", "obj,shared", "--emit", "asm", "--emit", "llvm-ir",
        "--emit", "header", "-o", out.toString());
    assertEquals(List.of("libmy_model_v2.so", "my_model_v2.h", "my_model_v2.ll", "my_model_v2.o", "my_model_v2.s"),
        listing(out));
    boolean arm = target.equals("aarch64");
    int machine = arm ? CompileTools.EM_AARCH64 : CompileTools.EM_X86_64;
    assertArrayEquals(new int[] {CompileTools.ET_REL, machine}, CompileTools.elfKind(out.resolve("my_model_v2.o")));
    assertArrayEquals(new int[] {CompileTools.ET_DYN, machine}, CompileTools.elfKind(out.resolve("libmy_model_v2.so")));
    if (CompileTools.has("readelf")) {
      String syms = CompileTools.run(out, "readelf", "--syms", "--wide", "my_model_v2.o");
      for (String f : List.of("my_model_v2", "my_model_v2_num_inputs", "my_model_v2_num_outputs"))
        assertTrue(syms.matches("(?s).*FUNC +GLOBAL +DEFAULT +\\d+ " + f + "\\n.*"), f + " not defined:\n" + syms);
      assertTrue(syms.matches("(?s).*GLOBAL +DEFAULT +UND malloc\\n.*"), syms);
      String dyn = CompileTools.run(out, "readelf", "--dyn-syms", "--wide", "libmy_model_v2.so");
      for (String f : List.of("my_model_v2", "my_model_v2_num_inputs", "my_model_v2_num_outputs"))
        assertTrue(dyn.matches("(?s).*FUNC +GLOBAL +DEFAULT +\\d+ " + f + "\\n.*"), f + " not exported:\n" + dyn);
    }
    String asm = Files.readString(out.resolve("my_model_v2.s"));
    assertTrue(asm.contains("\nmy_model_v2:"), "no label for the entry point");
    assertTrue(asm.contains(arm ? "\tret" : "\tretq"), "no return instruction");
    parsesBack(Files.readAllBytes(out.resolve("my_model_v2.ll")), arm ? "aarch64-unknown-linux-gnu" : "x86_64-unknown-linux-gnu");
    headerCompiles(out, "my_model_v2");
  }

  /** LLVM reads the .ll back, the module verifies and defines the three functions. */
  private static void parsesBack(byte[] ll, String triple) {
    Llvm.init();
    LLVMContextRef ctx = LLVMContextCreate();
    try (BytePointer text = new BytePointer(ll.length)) {
      text.put(ll, 0, ll.length);
      var buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, ll.length, new BytePointer("my_model_v2.ll"));
      LLVMModuleRef m = new LLVMModuleRef();
      BytePointer err = new BytePointer((BytePointer) null);
      int failed = LLVMParseIRInContext(ctx, buf, m, err);  // takes the buffer
      assertEquals(0, failed, () -> "the .ll does not parse: " + err.getString());
      BytePointer verr = new BytePointer((BytePointer) null);
      assertEquals(0, LLVMVerifyModule(m, LLVMReturnStatusAction, verr), () -> verr.getString());
      LLVMDisposeMessage(verr);
      assertEquals(triple, LLVMGetTarget(m).getString());
      for (String f : List.of("my_model_v2", "my_model_v2_num_inputs", "my_model_v2_num_outputs"))
        assertEquals(0, LLVMIsDeclaration(LLVMGetNamedFunction(m, f)), f);
      LLVMDisposeModule(m);
    } finally {
      LLVMContextDispose(ctx);
    }
  }

  private static void headerCompiles(Path out, String name) throws Exception {
    assumeTrue(CompileTools.has("cc"), "no C compiler (apt-get install gcc)");
    Files.writeString(out.resolve("t.c"), "#include \"" + name + ".h\"\n"
        + "int main(void) {\n"
        + "  int32_t (*entry)(const void *const *, void *const *) = " + name + ";\n"
        + "  (void)entry;\n"
        + "  return " + name + "_num_inputs() + (int)" + name + "_inputs[1].num_elements;\n"
        + "}\n");
    CompileTools.run(out, "cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", "t.c");
  }

  @Test
  void defaultsAreAnObjectNamedAfterTheFileStem() throws Exception {
    Path out = Files.createDirectory(dir.resolve("out"));
    ok("compile", model().toString(), "-o", out.toString());
    assertEquals(List.of("my_model_v2.o"), listing(out));
    String host = System.getProperty("os.arch").matches("aarch64|arm64") ? "aarch64" : "x86_64";
    int machine = host.equals("aarch64") ? CompileTools.EM_AARCH64 : CompileTools.EM_X86_64;
    assertArrayEquals(new int[] {CompileTools.ET_REL, machine}, CompileTools.elfKind(out.resolve("my_model_v2.o")));
    ok("compile", model().toString(), "--name", "Net_2", "--emit", "header", "-o", out.toString());
    assertTrue(Files.readString(out.resolve("Net_2.h")).contains("int32_t Net_2(const void *const *inputs, void *const *outputs);"));
    ok("compile", model().toString(), "--emit", "asm", "-o", out.resolve("chosen.txt").toString());
    assertTrue(Files.readString(out.resolve("chosen.txt")).contains("my_model_v2:"));
  }

  @Test
  void twoCompilesGiveIdenticalBytes() throws Exception {
    Path a = Files.createDirectory(dir.resolve("a"));
    Path b = Files.createDirectory(dir.resolve("b"));
    for (Path out : List.of(a, b)) {
      ok("compile", model().toString(), "-target", "aarch64", "--emit", "obj,shared,asm,llvm-ir,header", "-o", out.toString());
    }
    for (String f : listing(a)) assertArrayEquals(Files.readAllBytes(a.resolve(f)), Files.readAllBytes(b.resolve(f)), f);
    assertEquals(5, listing(a).size());
  }

  @Test
  void cpuFeaturesAndOptimisationLevelsReachTheCode() throws Exception {
    Path m = model();
    ok("compile", m.toString(), "-O0", "--emit", "asm", "-o", dir.resolve("o0.s").toString());
    ok("compile", m.toString(), "-O", "3", "--emit", "asm", "-o", dir.resolve("o3.s").toString());
    assertFalse(Files.readString(dir.resolve("o0.s")).equals(Files.readString(dir.resolve("o3.s"))));
    ok("compile", m.toString(), "-target", "x86_64", "--cpu", "skylake-avx512", "--emit", "llvm-ir", "-o", dir.resolve("s.ll").toString());
    assertTrue(Files.readString(dir.resolve("s.ll")).contains("\"target-cpu\"=\"skylake-avx512\""));
    ok("compile", m.toString(), "-target", "aarch64", "--features", "+sve,+fullfp16", "--emit", "llvm-ir", "-o", dir.resolve("f.ll").toString());
    assertTrue(Files.readString(dir.resolve("f.ll")).contains("\"target-features\"=\"+neon,+sve,+fullfp16\""));
    ok("compile", m.toString(), "--cpu", "native", "-o", dir.resolve("n.o").toString());
  }

  @Test
  void aFailedCompileWritesNothingAndKeepsAnExistingFile() throws Exception {
    Path bad = Files.writeString(dir.resolve("bad.jaxpr"), UNSUPPORTED);
    Path out = Files.createDirectory(dir.resolve("out"));
    CliRunner r = CliRunner.run("compile", bad.toString(), "--emit", "obj,shared,header", "-o", out.toString());
    assertEquals(ExitCode.BAD_INPUT, r.status());
    assertEquals(List.of(), listing(out));
    Path keep = Files.writeString(out.resolve("keep.o"), "old");
    CliRunner r2 = CliRunner.run("compile", bad.toString(), "-o", keep.toString());
    assertEquals(ExitCode.BAD_INPUT, r2.status());
    assertEquals("old", Files.readString(keep));
    assertEquals(List.of("keep.o"), listing(out));
    // A successful compile replaces it whole.
    ok("compile", model().toString(), "-o", keep.toString());
    assertArrayEquals(new int[] {CompileTools.ET_REL, CompileTools.isX86Host() ? CompileTools.EM_X86_64 : CompileTools.EM_AARCH64},
        CompileTools.elfKind(keep));
    assertEquals(List.of("keep.o"), listing(out));
  }

  @Test
  void unsupportedPrimitivesAreLocatedErrors() throws Exception {
    Path bad = Files.writeString(dir.resolve("bad.jaxpr"), UNSUPPORTED);
    CliRunner r = CliRunner.run("compile", bad.toString(), "-o", dir.resolve("bad.o").toString());
    assertEquals(ExitCode.BAD_INPUT, r.status());
    List<String> lines = r.err().lines().toList();
    assertEquals(bad + ":2:5: error: unsupported primitive roll (Pallas TPU primitive: not compiled for CPU)", lines.get(0));
    assertEquals("    b:f32[8] = roll[axis=0 stride=None stride_axis=None] a 1:i32[]", lines.get(1));
    assertTrue(lines.get(2).startsWith("    ^~~"), lines.get(2));
  }

  @Test
  void ptxWritesTheModuleWithItsLaunches() throws Exception {
    Path m = model();
    ok("compile", m.toString(), "-target", "ptx", "-o", dir.toString());
    String ptx = Files.readString(dir.resolve("my_model_v2.ptx"));
    assertTrue(ptx.startsWith("// jaxc DeviceProgram my_model_v2 sm_80: workspace "), ptx);
    assertTrue(ptx.contains("//   launch my_model_v2_k0 grid "), ptx);
    assertTrue(ptx.contains(".target sm_80") && ptx.contains(".visible .entry my_model_v2_k0("), ptx);
    assertFalse(ptx.contains("malloc") || ptx.contains(".extern"), "device code calls nothing outside the module");
    ok("compile", m.toString(), "--target=ptx", "--sm", "sm_90", "--emit", "ptx", "-o", dir.resolve("x.ptx").toString());
    String sm90 = Files.readString(dir.resolve("x.ptx"));
    assertTrue(sm90.contains(".target sm_90") && sm90.contains(".version 7.8"), sm90);
    if (CompileTools.has("ptxas")) {
      for (String[] f : new String[][] {{"my_model_v2.ptx", "sm_80"}, {"x.ptx", "sm_90"}}) {
        Process p = new ProcessBuilder("ptxas", "-arch=" + f[1], dir.resolve(f[0]).toString(), "-o", "/dev/null")
            .redirectErrorStream(true).start();
        assertEquals(0, p.waitFor(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
      }
    }
    assertEquals(List.of("my-model.v2.jaxpr", "my_model_v2.ptx", "x.ptx"), listing(dir));
  }

  /**
   * {@code --emit shared,obj,header} with {@code -target ptx}: the host library for the machine's
   * architecture (or {@code --host-target}), which imports nothing from CUDA; a C program built
   * against the header and library gets the documented "no CUDA driver" code here, where there is
   * no libcuda.so.1.
   */
  @Test
  void ptxHostLibraryIsWrittenAndReportsAMissingDriver() throws Exception {
    Path m = model();
    ok("compile", m.toString(), "-target", "ptx", "--emit", "shared,obj,header,ptx", "-o", dir.toString());
    assertEquals(List.of("libmy_model_v2.so", "my-model.v2.jaxpr", "my_model_v2.h", "my_model_v2.o",
        "my_model_v2.ptx"), listing(dir));
    int[] kind = CompileTools.elfKind(dir.resolve("libmy_model_v2.so"));
    assertEquals(CompileTools.ET_DYN, kind[0]);
    assertEquals(CompileTools.isX86Host() ? CompileTools.EM_X86_64 : CompileTools.EM_AARCH64, kind[1]);
    ElfSymbols obj = ElfSymbols.of(Files.readAllBytes(dir.resolve("my_model_v2.o")));
    for (String f : List.of("my_model_v2", "my_model_v2_async", "my_model_v2_host", "my_model_v2_num_inputs",
        "my_model_v2_num_outputs", "my_model_v2_workspace_size")) {
      assertTrue(obj.defined().contains(f), f + " in " + obj.defined());
    }
    assertTrue(obj.undefined().stream().noneMatch(s -> s.startsWith("cu")), "no CUDA import: " + obj.undefined());
    String header = Files.readString(dir.resolve("my_model_v2.h"));
    assertTrue(header.contains("my_model_v2_host(") && header.contains("sm_80"), header);
    if (CompileTools.has("cc")) {
      Files.writeString(dir.resolve("main.c"), """
          #include <stdio.h>
          #include "my_model_v2.h"
          int main(void) {
            int32_t a[100] = {0};
            float s = 1.0f, f[100];
            int32_t d[100];
            const void *in[] = {a, &s};
            void *out[] = {f, d};
            printf("%d %d %d\\n", my_model_v2_num_inputs(), my_model_v2_num_outputs(), my_model_v2_host(in, out));
            return 0;
          }
          """);
      CompileTools.run(dir, "cc", "-std=c99", "-Wall", "-Werror", "-o", "main", "main.c", "-L.", "-lmy_model_v2",
          "-Wl,-rpath,$ORIGIN");
      ProcessBuilder pb = new ProcessBuilder("./main").directory(dir.toFile()).redirectErrorStream(true);
      pb.environment().put("LD_LIBRARY_PATH", dir.toString());
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      assertEquals(0, p.waitFor(), out);
      assertEquals("2 2 " + ErrorCode.NO_CUDA_DRIVER.code(), out);
    }
    if (CompileTools.has("ld.lld") || CompileTools.has("aarch64-linux-gnu-gcc")) {
      Path arm = Files.createDirectory(dir.resolve("arm"));
      ok("compile", m.toString(), "-target", "ptx", "--host-target", "aarch64", "--emit", "shared", "-o", arm.toString());
      assertEquals(CompileTools.EM_AARCH64, CompileTools.elfKind(arm.resolve("libmy_model_v2.so"))[1]);
    }
  }

  @Test
  void ptxOptionsAreChecked() throws Exception {
    Path m = model();
    String[][] usage = {
      {"--emit", "ptx"},
      {"--sm", "sm_80"},
      {"-target", "ptx", "--sm", "sm_60"},
      {"-target", "ptx", "--emit", "asm"},
      {"-target", "ptx", "--host-target", "riscv"},
      {"--host-target", "x86_64"},
      {"-target", "ptx", "--cpu", "skylake"},
    };
    for (String[] c : usage) {
      List<String> cmd = new ArrayList<>(List.of("compile", m.toString(), "-o", dir.toString()));
      cmd.addAll(List.of(c));
      CliRunner r = CliRunner.run(cmd.toArray(String[]::new));
      assertEquals(ExitCode.USAGE, r.status(), String.join(" ", c) + ": " + r.err());
      assertTrue(r.firstErrLine().startsWith("jaxc: error: "), r.err());
    }
    Path bad = Files.writeString(dir.resolve("bad.jaxpr"), UNSUPPORTED);
    CliRunner r = CliRunner.run("compile", bad.toString(), "-target", "ptx", "-o", dir.toString());
    assertEquals(ExitCode.BAD_INPUT, r.status());
    assertEquals(bad + ":2:5: error: unsupported primitive roll (Pallas TPU primitive: not compiled for CPU)", r.firstErrLine());
    assertEquals(List.of("bad.jaxpr", "my-model.v2.jaxpr"), listing(dir));
  }

  @Test
  void usageErrors() throws Exception {
    Path m = model();
    String[][] cases = {
      {"-target", "sparc"},
      {"--name", "not-an-identifier"},
      {"--name", "int"},
      {"-O7"},
      {"--emit", "exe"},
      {"--features", "avx2"},
      {"-target", CompileTools.isX86Host() ? "aarch64" : "x86_64", "--cpu", "native"},
      {"--emit", "obj", "--emit", "header", "-o", dir.resolve("x.o").toString()},
    };
    for (String[] c : cases) {
      List<String> cmd = new ArrayList<>(List.of("compile", m.toString()));
      cmd.addAll(List.of(c));
      CliRunner r = CliRunner.run(cmd.toArray(String[]::new));
      assertEquals(ExitCode.USAGE, r.status(), String.join(" ", c) + ": " + r.err());
      assertTrue(r.firstErrLine().startsWith("jaxc: error: "), r.err());
    }
    assertEquals(List.of("my-model.v2.jaxpr"), listing(dir));
    assertEquals("jaxc: error: -o " + dir.resolve("x.o") + ": with several --emit kinds, -o must name an existing directory",
        CliRunner.run("compile", m.toString(), "--emit", "obj,header", "-o", dir.resolve("x.o").toString()).firstErrLine());
  }

  @Test
  void helpDocumentsOutputsAndTargets() {
    String help = ok("compile", "--help").out();
    for (String s : List.of("-target host|x86_64|aarch64|ptx", "--emit obj|shared|asm|llvm-ir|header|ptx", "--sm", "current directory",
        "libNAME.so", "--consts CONSTS.npz", "-O0|-O1|-O2|-O3", "written whole or not at all"))
      assertTrue(help.contains(s), s);
    assertTrue(new String(help.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).lines().allMatch(l -> l.length() <= 80));
  }
}
