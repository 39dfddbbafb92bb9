package dev.jaxc.backend.llvm.llvm;

import static org.bytedeco.llvm.global.LLVM.*;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.SizeTPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMMemoryBufferRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A verified, unoptimised module cut into partitions that LLVM optimises and compiles on separate
 * threads, each in its own context ({@link PartitionedModule}). The units are the functions that
 * {@code unit} names (parallel bodies, step functions: called once per call or through a pointer,
 * so nothing is lost by compiling them apart); they are spread over the partitions by size,
 * largest first, each to the lightest partition. Partition 0 keeps everything else (entry points,
 * thread runtime, mutable globals); the others hold their units with private copies of the internal
 * helpers and constants they use. Units and mutable globals become hidden symbols named
 * {@code ENTRY.NAME} (or their own name where it begins so: unique in a program, as the entry
 * point is), so the objects link together and two models' objects still link into one program.
 *
 * <p>The partition count depends on the module alone, never on the number of cores, so the
 * objects are the same on every machine and in every run.
 */
public final class ModulePartitions {
  /** Instructions per partition below which another thread costs more than it saves. */
  static final long MIN_INSTRUCTIONS = 1500;
  /** At most this many partitions. */
  static final int MAX_PARTITIONS = 4;

  private final byte[] bitcode;
  private final String prefix;
  private final Map<String, Integer> owner;
  private final int count;

  private ModulePartitions(byte[] bitcode, String prefix, Map<String, Integer> owner, int count) {
    this.bitcode = bitcode;
    this.prefix = prefix;
    this.owner = owner;
    this.count = count;
  }

  /**
   * Partitions of {@code module} (left unchanged) whose entry point is {@code entry}; empty where
   * it is too small to be worth more than one.
   */
  public static Optional<ModulePartitions> of(LLVMModuleRef module, String entry, Predicate<String> unit) {
    record Unit(String name, long size, int order) {}
    List<Unit> units = new ArrayList<>();
    long total = 0;
    long glue = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(module); f != null && !f.isNull(); f = LLVMGetNextFunction(f)) {
      if (LLVMIsDeclaration(f) != 0) continue;
      long size = instructions(f);
      total += size;
      String name = name(f);
      if (unit.test(name) && isLocal(f)) units.add(new Unit(name, size, units.size()));
      else glue += size;
    }
    int count = (int) Math.min(Math.min(MAX_PARTITIONS, units.size() + 1), total / MIN_INSTRUCTIONS);
    if (count < 2) return Optional.empty();
    long[] load = new long[count];
    load[0] = glue;
    Map<String, Integer> owner = new HashMap<>();
    units.sort(Comparator.comparingLong(Unit::size).reversed().thenComparingInt(Unit::order));
    for (Unit u : units) {
      int lightest = 0;
      for (int p = 1; p < count; p++) if (load[p] < load[lightest]) lightest = p;
      load[lightest] += u.size();
      owner.put(u.name(), lightest);
    }
    LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(module);
    try {
      byte[] bitcode = new byte[(int) LLVMGetBufferSize(buf)];
      LLVMGetBufferStart(buf).capacity(bitcode.length).get(bitcode);
      return Optional.of(new ModulePartitions(bitcode, entry + ".", owner, count));
    } finally {
      LLVMDisposeMemoryBuffer(buf);
    }
  }

  public int count() {
    return count;
  }

  /** Partition {@code p} as a new module in {@code ctx} (one thread's own context). */
  public LLVMModuleRef build(int p, LLVMContextRef ctx) {
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(new BytePointer(bitcode), bitcode.length,
        new BytePointer("partition"));
    LLVMModuleRef m = new LLVMModuleRef();
    try {
      if (LLVMParseBitcodeInContext2(ctx, buf, m) != 0) throw new LlvmException("cannot read back partition " + p);
    } finally {
      LLVMDisposeMemoryBuffer(buf);
    }
    List<LLVMValueRef> globals = new ArrayList<>();
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g != null && !g.isNull(); g = LLVMGetNextGlobal(g)) globals.add(g);
    int anonymous = 0;
    for (LLVMValueRef g : globals) {
      if (LLVMGetLinkage(g) == LLVMAppendingLinkage) {  // destructors: partition 0's alone
        // llvm.compiler.used keeps the math functions' vector forms (local: each partition has
        // its own copies) until the loop vectoriser has asked for them.
        if (p != 0 && !name(g).equals("llvm.compiler.used")) LLVMDeleteGlobal(g);
        continue;
      }
      if (LLVMIsDeclaration(g) != 0) continue;
      boolean local = isLocal(g);
      if (local && LLVMIsGlobalConstant(g) != 0) continue;  // constants: a private copy each
      if (local) {
        String name = name(g);
        if (name.isEmpty()) name = "global." + anonymous++;
        share(g, name.startsWith(prefix) ? name : prefix + name);
      }
      if (p != 0) {
        LLVMSetInitializer(g, null);
        LLVMSetLinkage(g, LLVMExternalLinkage);
      }
    }
    List<LLVMValueRef> functions = new ArrayList<>();
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f != null && !f.isNull(); f = LLVMGetNextFunction(f)) functions.add(f);
    for (LLVMValueRef f : functions) {
      if (LLVMIsDeclaration(f) != 0) continue;
      String name = name(f);
      Integer o = owner.get(name);
      if (o != null) {
        share(f, name.startsWith(prefix) ? name : prefix + name);
        if (o != p) declare(m, f);
      } else if (p != 0 && !isLocal(f)) {
        declare(m, f);
      }
    }
    return m;
  }

  /** Makes a local symbol a hidden one named {@code name}, visible to the other partitions. */
  private static void share(LLVMValueRef v, String name) {
    byte[] b = name.getBytes(StandardCharsets.UTF_8);
    LLVMSetValueName2(v, new BytePointer(b), b.length);
    LLVMSetLinkage(v, LLVMExternalLinkage);
    LLVMSetVisibility(v, LLVMHiddenVisibility);
  }

  /** Replaces a defined function by a declaration of the same name, linkage and visibility. */
  private static void declare(LLVMModuleRef m, LLVMValueRef f) {
    String name = name(f);
    int visibility = LLVMGetVisibility(f);
    LLVMValueRef d = LLVMAddFunction(m, "", LLVMGlobalGetValueType(f));
    LLVMReplaceAllUsesWith(f, d);
    LLVMDeleteFunction(f);
    byte[] b = name.getBytes(StandardCharsets.UTF_8);
    LLVMSetValueName2(d, new BytePointer(b), b.length);
    LLVMSetLinkage(d, LLVMExternalLinkage);
    LLVMSetVisibility(d, visibility);
  }

  private static boolean isLocal(LLVMValueRef g) {
    int l = LLVMGetLinkage(g);
    return l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
  }

  private static String name(LLVMValueRef v) {
    SizeTPointer len = new SizeTPointer(1);
    BytePointer s = LLVMGetValueName2(v, len);
    if (s == null || s.isNull() || len.get() == 0) return "";
    byte[] b = new byte[(int) len.get()];
    s.capacity(b.length).get(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  private static long instructions(LLVMValueRef f) {
    long n = 0;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b != null && !b.isNull(); b = LLVMGetNextBasicBlock(b)) {
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i != null && !i.isNull(); i = LLVMGetNextInstruction(i)) n++;
    }
    return n;
  }
}
