package dev.jaxc.cli;

import dev.jaxc.backend.llvm.llvm.TargetSpec;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The target options of {@code jaxc compile} ({@code -target}, {@code --cpu}, {@code --features},
 * {@code -O}) as a {@link TargetSpec}. {@code host} is this machine's CPU with its features;
 * {@code x86_64} and {@code aarch64} are each architecture's baseline (any such Linux machine).
 */
final class CompileTarget {
  /** An option value that names no target; the message says which and why. */
  static final class BadOption extends Exception {
    private static final long serialVersionUID = 1L;

    BadOption(String message) {
      super(message, null, false, false);
    }
  }

  /** The -target values of compile, for shell completion. */
  static final class Candidates extends java.util.ArrayList<String> {
    private static final long serialVersionUID = 1L;

    Candidates() {
      super(java.util.List.of("host", "x86_64", "aarch64", "ptx"));
    }
  }

  private static final Pattern FEATURE = Pattern.compile("[+-][A-Za-z0-9_.-]+");

  private CompileTarget() {}

  /** True for the GPU target, which has its own options and outputs. */
  static boolean isPtx(String target) {
    return target.toLowerCase(Locale.ROOT).equals("ptx");
  }

  /**
   * @param cpu null for the target's default; {@code native} for this machine's CPU
   * @param features null, or comma-separated {@code +name}/{@code -name} added to the CPU's
   */
  static TargetSpec spec(String target, String cpu, String features, int optLevel) throws BadOption {
    TargetSpec spec = switch (target.toLowerCase(Locale.ROOT)) {
      case "host" -> TargetSpec.host();
      case "x86_64" -> TargetSpec.x86_64();
      case "aarch64" -> TargetSpec.aarch64();
      default -> throw new BadOption("-target: expected host, x86_64 or aarch64, got '" + target + "'");
    };
    if (cpu != null) {
      if (cpu.equals("native")) {
        TargetSpec host = TargetSpec.host();
        if (host.arch() != spec.arch()) {
          throw new BadOption("--cpu native names this machine's " + arch(host) + " CPU; it cannot be used with -target "
              + target);
        }
        spec = spec.withCpu(host.cpu(), host.features());
      } else if (cpu.isEmpty() || !FEATURE.matcher("+" + cpu).matches()) {
        throw new BadOption("--cpu: not a CPU name: '" + cpu + "'");
      } else {
        spec = spec.withCpu(cpu, baseline(spec.arch()).features());
      }
    }
    if (features != null) {
      for (String f : features.split(",", -1)) {
        if (!FEATURE.matcher(f).matches())
          throw new BadOption("--features: expected +name or -name items separated by commas, got '" + f + "'");
      }
      spec = spec.withCpu(spec.cpu(), spec.features().isEmpty() ? features : spec.features() + "," + features);
    }
    if (optLevel < 0 || optLevel > 3) throw new BadOption("-O: expected 0, 1, 2 or 3, got " + optLevel);
    return spec.withOptLevel(optLevel);
  }

  /**
   * The target of a PTX program's host library ({@code --host-target}): the baseline of this
   * machine's architecture (null, {@code host}), or of the one named, so the library runs on any
   * such Linux machine (its code only loads the driver and launches kernels).
   */
  static TargetSpec hostLibraryTarget(String hostTarget) throws BadOption {
    String t = hostTarget == null ? "host" : hostTarget.toLowerCase(Locale.ROOT);
    return switch (t) {
      case "host" -> baseline(TargetSpec.host().arch());
      case "x86_64" -> TargetSpec.x86_64();
      case "aarch64" -> TargetSpec.aarch64();
      default -> throw new BadOption("--host-target: expected host, x86_64 or aarch64, got '" + hostTarget + "'");
    };
  }

  static String arch(TargetSpec spec) {
    return spec.arch().name().toLowerCase(Locale.ROOT);
  }

  private static TargetSpec baseline(TargetSpec.Arch arch) {
    return switch (arch) {
      case X86_64 -> TargetSpec.x86_64();
      case AARCH64 -> TargetSpec.aarch64();
      case NVPTX -> throw new AssertionError(arch);
    };
  }
}
