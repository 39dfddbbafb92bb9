package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same model gives the same bytes: two processes compile the same golden cases (a CI subset;
 * all of them with {@code -Djaxc.determinism.all=true}, {@code bench/determinism/run.sh}) at the
 * same time, from different working directories (one given the cases' absolute paths, the other
 * relative ones), with different compile parallelism ({@code -XX:ActiveProcessorCount} 1 and 4:
 * the threads that optimise and generate a partitioned module's parts) and {@code
 * JAXC_NUM_THREADS} (1 and 3), and every {@code .o}, {@code .so}, {@code .s}, {@code .ll},
 * {@code .h} and {@code .ptx} they write must be byte-identical.
 */
class DeterministicOutputTest {
  /**
   * The CI subset: every model case, cases of control flow, GEMM, convolution, sort, scatter,
   * random bits and constants, and the 12-layer transformer of bench/compile (a module large
   * enough to be partitioned, its parts optimised and compiled on several threads).
   */
  static final List<String> SUBSET = List.of("model_cnn_flax", "model_embed_classifier", "model_lstm_flax",
      "model_mlp_bf16_mixed", "model_mlp_flax_closed_params", "model_mlp_flax_params_input",
      "model_plain_mlp_numpy_consts", "model_resnet_block", "model_rnn_scan", "model_train_step_mlp",
      "model_transformer_block_flax", "control_while_newton", "control_switch_in_scan", "dot_matmul_bf16_packed",
      "conv_2d_nchw_oihw_to_nhwc", "sort_argsort_stable", "index_scatter_add", "random_uniform",
      "control_cond_consts", "bounds_gather_window_promise");
  static final Set<String> KINDS = Set.of(".o", ".so", ".s", ".ll", ".h", ".ptx");

  @Test
  void twoProcessesWriteTheSameBytes(@TempDir Path tmp) throws Exception {
    List<Path> cases = cases();
    Path a = Files.createDirectories(tmp.resolve("a"));
    Path b = Files.createDirectories(tmp.resolve("b/elsewhere"));
    List<String> absolute = cases.stream().map(p -> p.toAbsolutePath().toString()).toList();
    List<String> relative = cases.stream().map(p -> b.toAbsolutePath().relativize(p.toAbsolutePath()).toString()).toList();
    long t0 = System.nanoTime();
    Process pa = start(a, tmp.resolve("out-a"), absolute, 1, "1");
    Process pb = start(b, tmp.resolve("out-b"), relative, 4, "3");
    String logA = finish(pa, a);
    String logB = finish(pb, b);
    double seconds = (System.nanoTime() - t0) / 1e9;
    assertEquals(0, pa.exitValue(), logA);
    assertEquals(0, pb.exitValue(), logB);
    List<Path> filesA = files(tmp.resolve("out-a"));
    List<Path> filesB = files(tmp.resolve("out-b"));
    assertEquals(filesA, filesB, "the two processes wrote different sets of files");
    Set<String> kinds = new TreeSet<>();
    List<String> differing = new ArrayList<>();
    for (Path f : filesA) {
      String n = f.getFileName().toString();
      kinds.add(n.substring(n.lastIndexOf('.')));
      if (!Arrays.equals(Files.readAllBytes(tmp.resolve("out-a").resolve(f)), Files.readAllBytes(tmp.resolve("out-b").resolve(f))))
        differing.add(f.toString());
    }
    System.out.printf("DeterministicOutputTest: %d cases, %d files, byte-identical: %d; %.1f s%n", cases.size(),
        filesA.size(), filesA.size() - differing.size(), seconds);
    assertEquals(KINDS, kinds, "every kind of output is compared");
    assertEquals(List.of(), differing, "files that differ between the two compiles");
  }

  private static List<Path> cases() throws IOException {
    Path root = Corpus.testdata("cases");
    if (Boolean.getBoolean("jaxc.determinism.all")) {
      List<Path> all = GoldenCase.find(root).stream().map(GoldenCase::dir).sorted().toList();
      assertTrue(all.size() > 700, "the whole corpus: " + all.size());
      return all;
    }
    List<Path> r = new ArrayList<>(SUBSET.stream().map(root::resolve).toList());
    for (Path p : r) assertTrue(Files.exists(p.resolve("model.jaxpr")), p + " is not a case");
    r.add(Corpus.root().resolve("bench/compile/transformer_12l.jaxpr"));
    return r;
  }

  private static Process start(Path cwd, Path out, List<String> cases, int processors, String threads) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:ActiveProcessorCount=" + processors, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"), DeterminismDriver.class.getName(), out.toAbsolutePath().toString()));
    cmd.addAll(cases);
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true)
        .redirectOutput(cwd.resolve("log.txt").toFile());
    pb.environment().put("JAXC_NUM_THREADS", threads);
    return pb.start();
  }

  private static String finish(Process p, Path cwd) throws Exception {
    if (!p.waitFor(3, TimeUnit.HOURS)) p.destroyForcibly();
    return Files.readString(cwd.resolve("log.txt"));
  }

  /** Every file below {@code root}, relative to it, sorted. */
  private static List<Path> files(Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile).map(root::relativize).sorted().toList();
    }
  }
}
