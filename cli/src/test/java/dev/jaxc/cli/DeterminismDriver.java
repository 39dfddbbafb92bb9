package dev.jaxc.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The child process of {@link DeterministicOutputTest}: compiles each golden case given (a case
 * directory, absolute or relative to the working directory) with {@code jaxc compile}, in this
 * process (or a model file, {@code .jaxpr}), into {@code OUT/NAME/cpu} (obj, shared, asm, llvm-ir, header) and {@code OUT/NAME/ptx}
 * (ptx, shared, obj, header). Prints one line per compile that failed; exits 1 if any did.
 *
 * <p>usage: DeterminismDriver OUT CASE_DIR...
 */
final class DeterminismDriver {
  private DeterminismDriver() {}

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    PrintWriter stdout = new PrintWriter(System.out, true);
    PrintWriter stderr = new PrintWriter(System.err, true);
    int failed = 0;
    for (int k = 1; k < args.length; k++) {
      Path dir = Path.of(args[k]);
      boolean model = dir.toString().endsWith(".jaxpr");
      String name = HostRun.entryName(dir.getFileName().toString());
      Path source = model ? dir : new GoldenCase(dir).model();
      List<String> common = new ArrayList<>(List.of("compile", source.toString(), "--name", name));
      if (!model && new GoldenCase(dir).meta().x64()) common.add("--x64");
      for (String target : List.of("cpu", "ptx")) {
        Path to = out.resolve(name).resolve(target);
        Files.createDirectories(to);
        List<String> a = new ArrayList<>(common);
        if (target.equals("cpu")) {
          a.addAll(List.of("--emit", "obj,shared,asm,llvm-ir,header", "-o", to.toString()));
        } else {
          a.addAll(List.of("-target", "ptx", "--emit", "ptx,shared,obj,header", "-o", to.toString()));
        }
        int status = Main.run(a.toArray(String[]::new), stdout, stderr);
        if (status != 0) {
          failed++;
          stdout.println("FAILED " + name + " " + target + ": exit " + status);
        }
      }
    }
    stdout.flush();
    System.exit(failed > 0 ? 1 : 0);
  }
}
