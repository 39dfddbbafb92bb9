package dev.jaxc.cli;

import dev.jaxc.backend.llvm.CompiledModule;
import dev.jaxc.backend.llvm.PhaseTimer;
import dev.jaxc.backend.llvm.artifact.HeaderWriter;
import dev.jaxc.backend.llvm.artifact.Linker;
import dev.jaxc.backend.ptx.DeviceProgram;
import dev.jaxc.backend.ptx.PtxCompiler;
import dev.jaxc.backend.ptx.host.HostLibrary;
import dev.jaxc.backend.ptx.host.PtxHeaderWriter;
import dev.jaxc.backend.llvm.llvm.TargetSpec;
import dev.jaxc.cli.npy.AtomicWrite;
import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Var;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where {@code jaxc compile} writes each {@code --emit} kind, and the writing. Without {@code -o}
 * every output goes to the current directory under its default name ({@link EmitKind#fileName});
 * {@code -o PATH} names the file when one kind is emitted, or a directory (which must exist, and
 * must be given when several kinds are emitted) that receives the default names. Every file is
 * written whole or not at all ({@link AtomicWrite}); all contents, the shared library included
 * (linked in a private temporary directory), are made before the first file is written, so a
 * compile that fails or is killed before then leaves nothing at the target paths.
 */
final class CompileOutputs {
  private CompileOutputs() {}

  /** The path of each kind. */
  static Map<EmitKind, Path> paths(Set<EmitKind> kinds, Path output, String name) throws CompileTarget.BadOption {
    Map<EmitKind, Path> r = new EnumMap<>(EmitKind.class);
    Path dir = Path.of("");
    if (output != null && Files.isDirectory(output)) {
      dir = output;
    } else if (output != null && kinds.size() > 1) {
      throw new CompileTarget.BadOption("-o " + output + ": with several --emit kinds, -o must name an existing directory");
    } else if (output != null) {
      r.put(kinds.iterator().next(), output);
      return r;
    }
    for (EmitKind k : kinds) r.put(k, dir.resolve(k.fileName(name)));
    return r;
  }

  /** Writes every output; empty when all are written, else the one-line error. */
  static Optional<String> write(CompiledModule m, Jaxpr main, int baked, Map<EmitKind, Path> paths, String source) {
    return write(m, main, baked, paths, source, PhaseTimer.NONE);
  }

  /** As above, timing the phases codegen (object, assembly, IR text), link and write. */
  static Optional<String> write(CompiledModule m, Jaxpr main, int baked, Map<EmitKind, Path> paths, String source,
      PhaseTimer timer) {
    Map<EmitKind, byte[]> contents = new EnumMap<>(EmitKind.class);
    List<byte[]> objects = paths.containsKey(EmitKind.OBJ) || paths.containsKey(EmitKind.SHARED) ? m.objects() : null;
    try {
      for (EmitKind k : paths.keySet()) {
        switch (k) {
          case OBJ -> contents.put(k, timer.time("join objects", m::objectCode));
          case ASM -> contents.put(k, m.assembly().getBytes(StandardCharsets.UTF_8));
          case LLVM_IR -> contents.put(k, m.llvmIr().getBytes(StandardCharsets.UTF_8));
          case HEADER -> contents.put(k, header(m.name(), main, baked, source).getBytes(StandardCharsets.UTF_8));
          case SHARED -> {
            long t0 = System.nanoTime();
            contents.put(k, Linker.sharedLibrary(objects, m.target()));
            timer.record("link", System.nanoTime() - t0);
          }
          case PTX -> throw new AssertionError(k);
        }
      }
    } catch (Linker.LinkException e) {
      return Optional.of(linkError(e));
    } catch (IOException e) {
      return Optional.of("jaxc: error: cannot link the shared library: " + reason(e));
    }
    return store(contents, paths, timer);
  }

  /** A link failure in one line: what failed and the linker's first line of output. */
  static String linkError(Linker.LinkException e) {
    List<String> lines = e.getMessage().lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    if (lines.size() < 2) return "jaxc: error: " + (lines.isEmpty() ? "linking failed" : lines.get(0));
    String what = lines.get(0).startsWith("linking failed") ? "linking failed" : lines.get(0);
    return "jaxc: error: " + what + ": " + lines.get(1);
  }

  /**
   * Writes each content whole or not at all, and all of them or none: each goes to its temporary
   * first, and only when all are written are they renamed into place. Empty when all are
   * written, else the one-line error.
   */
  static Optional<String> store(Map<EmitKind, byte[]> contents, Map<EmitKind, Path> paths, PhaseTimer timer) {
    Path current = null;
    List<AtomicWrite.Staged> staged = new ArrayList<>();
    try {
      long t0 = System.nanoTime();
      for (Map.Entry<EmitKind, byte[]> e : contents.entrySet()) {
        current = paths.get(e.getKey());
        byte[] bytes = e.getValue();
        staged.add(AtomicWrite.stage(current, out -> out.write(bytes)));
      }
      AtomicWrite.commitAll(staged);
      if (!contents.isEmpty()) timer.record("write", System.nanoTime() - t0);
      return Optional.empty();
    } catch (IOException e) {
      for (AtomicWrite.Staged s : staged) s.discard(e);
      Path dir = current.toAbsolutePath().getParent();
      if (e instanceof NoSuchFileException && (dir == null || !Files.isDirectory(dir)))
        return Optional.of(current + ": error: cannot write: no such directory");
      return Optional.of(current + ": error: cannot write: " + reason(e));
    }
  }

  /** What went wrong, without the temporary file's name that a file system error carries. */
  static String reason(IOException e) {
    if (e instanceof AccessDeniedException) return "permission denied";
    if (e instanceof FileSystemException f && f.getReason() != null) return lowerFirst(f.getReason());
    if (e instanceof FileSystemException) return "cannot create a file in this directory";
    return e.getMessage() == null ? e.getClass().getSimpleName() : lowerFirst(e.getMessage());
  }

  private static String lowerFirst(String s) {
    return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }

  /**
   * Writes a PTX program's outputs: the module text ({@code ptx}), after comment lines that
   * describe its launches (what a host program needs to run it), and the host library that embeds
   * it ({@code shared}, {@code obj}) with its header. All contents are made first and the library
   * linked first, as for the CPU; empty when all are written, else the one-line error.
   */
  static Optional<String> writePtx(PtxCompiler.Described d, Jaxpr main, int baked, TargetSpec host,
      Map<EmitKind, Path> paths, String source) {
    DeviceProgram p = d.program();
    Map<EmitKind, byte[]> contents = new EnumMap<>(EmitKind.class);
    for (EmitKind k : paths.keySet()) {
      switch (k) {
        case PTX -> contents.put(k, ptxText(d).getBytes(StandardCharsets.UTF_8));
        case OBJ -> contents.put(k, HostLibrary.object(p, host));
        case HEADER -> {
          List<Var> inputs = main.inputs();
          contents.put(k, PtxHeaderWriter.write(p.name(), source, inputs.subList(0, baked),
                  inputs.subList(baked, inputs.size()), main.outs(), p.sm())
              .getBytes(StandardCharsets.UTF_8));
        }
        case SHARED -> {
          try {
            contents.put(k, Linker.sharedLibrary(List.of(HostLibrary.object(p, host)), host));
          } catch (Linker.LinkException e) {
            return Optional.of(linkError(e));
          } catch (IOException e) {
            return Optional.of("jaxc: error: cannot link the shared library: " + reason(e));
          }
        }
        case ASM, LLVM_IR -> throw new AssertionError(k);
      }
    }
    return store(contents, paths, PhaseTimer.NONE);
  }

  private static String ptxText(PtxCompiler.Described d) {
    DeviceProgram p = d.program();
    StringBuilder text = new StringBuilder();
    text.append("// jaxc DeviceProgram ").append(p.name()).append(' ').append(p.sm())
        .append(": workspace ").append(p.workspaceBytes()).append(" bytes");
    if (p.zeroedBytes() > 0) {
      text.append(" (ws+").append(p.zeroedOffset()).append(": ").append(p.zeroedBytes())
          .append(" bytes of counters, zeroed when the work memory is allocated)");
    }
    text.append("; input bytes ").append(p.inputBytes()).append("; output bytes ").append(p.outputBytes()).append('\n');
    text.append("// every kernel takes (inputs..., outputs..., workspace) as pointers and the host loop's iteration (i64);\n");
    text.append("// the program (ws+N: a workspace offset the host reads back):\n");
    program(text, d, p.program(), "//   ");
    return text.append(p.ptx()).toString();
  }

  private static void program(StringBuilder text, PtxCompiler.Described d, List<DeviceProgram.Node> nodes, String indent) {
    DeviceProgram p = d.program();
    for (DeviceProgram.Node n : nodes) {
      if (n instanceof DeviceProgram.Node.Run r) {
        int k = r.launch();
        DeviceProgram.Launch l = p.launches().get(k);
        text.append(indent).append("launch ").append(l.kernel()).append(" grid ").append(l.gridX()).append(" block ")
            .append(l.blockX()).append(" shared ").append(l.sharedBytes()).append("  (").append(d.steps().get(k))
            .append(d.mapped().get(k) ? "" : "; one thread").append(")\n");
      } else if (n instanceof DeviceProgram.Node.While w) {
        text.append(indent).append("while: cond\n");
        program(text, d, w.cond(), indent + "  ");
        text.append(indent).append("  predicate ws+").append(w.predicate()).append("; body\n");
        program(text, d, w.body(), indent + "  ");
        text.append(indent).append("  after an odd number of iterations\n");
        program(text, d, w.oddExit(), indent + "  ");
      } else if (n instanceof DeviceProgram.Node.Repeat r) {
        text.append(indent).append("repeat ").append(r.trips()).append(" times\n");
        program(text, d, r.body(), indent + "  ");
      } else if (n instanceof DeviceProgram.Node.Switch s) {
        text.append(indent).append("switch on ws+").append(s.index()).append('\n');
        for (int b = 0; b < s.branches().size(); b++) {
          text.append(indent).append("  branch ").append(b).append('\n');
          program(text, d, s.branches().get(b), indent + "    ");
        }
      } else {
        throw new AssertionError(n);
      }
    }
  }

  private static String header(String name, Jaxpr main, int baked, String source) {
    List<Var> inputs = main.inputs();
    return HeaderWriter.write(name, source, inputs.subList(0, baked), inputs.subList(baked, inputs.size()), main.outs());
  }
}
