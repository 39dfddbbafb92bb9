package dev.jaxc.backend.llvm.runtime;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.abi.Destructors;
import dev.jaxc.backend.llvm.abi.Libc;
import dev.jaxc.backend.llvm.emit.Ir;
import java.util.function.BiConsumer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Heap work memory a kernel takes during one call (the GEMM's packed B and each thread's A and C
 * blocks), kept across calls: a buffer given back goes into a module-wide cache, and the next
 * request of its size class takes it again. Without the cache each call's malloc of a block above
 * glibc's mmap threshold came back as fresh pages: a 2048³ matmul faulted 4,669 pages (18 MiB)
 * per call, 5–10% of its time, which XLA, whose allocator keeps its memory, never pays.
 *
 * <pre>
 * ptr  jaxc_buffer_get(i64 bytes); // 64-byte aligned, at least bytes (a power of two); null: out of memory
 * void jaxc_buffer_put(ptr p);     // back to the cache, or freed when its class is full
 * void jaxc_buffer_release(void);  // a destructor: frees the cached buffers
 * </pre>
 *
 * <p>Buffers are cached by size class (capacity 2^c, {@link #PER_CLASS} slots per class), so a
 * request takes any cached buffer of its class without looking inside it; slots are claimed and
 * filled by atomic exchange and compare-and-swap, so concurrent calls of the entry point and the
 * pool's threads share the cache without a lock. Capacities are rounded up to a power of two:
 * that costs address space, not memory, since only the pages a kernel writes are ever touched.
 * The cache holds what the largest call needed at once (one buffer per thread and one shared)
 * until the library is unloaded, as XLA's allocator keeps its own.
 */
public final class WorkBuffers {
  /** Size classes: capacities 2^0 to 2^(CLASSES − 1) bytes. */
  static final int CLASSES = 48;
  /** Cached buffers per class: the pool's threads of one region, and one shared buffer. */
  static final int PER_CLASS = 8;
  /** Bytes between the start of the malloc'd block and the aligned buffer, at least: its header. */
  private static final long HEADER = 16;
  private static final long ALIGN = 64;

  private WorkBuffers() {}

  /** A call of {@code jaxc_buffer_get(bytes)}: a buffer of at least {@code bytes}, or null. */
  public static LLVMValueRef get(Ir ir, LLVMValueRef bytes) {
    LLVMTypeRef t = ir.fnType(ir.ptr, ir.i64);
    return ir.call(t, ir.outlined("jaxc_buffer_get", t, fn -> emitGet(ir, fn)), bytes);
  }

  /** A call of {@code jaxc_buffer_put(p)} for a buffer {@link #get} gave (not null). */
  public static void put(Ir ir, LLVMValueRef p) {
    LLVMTypeRef t = ir.fnType(ir.voidType, ir.ptr);
    ir.call(t, ir.outlined("jaxc_buffer_put", t, fn -> emitPut(ir, fn)), p);
  }

  private static LLVMValueRef slots(Ir ir) {
    String name = "jaxc.buffers";
    LLVMValueRef g = LLVMGetNamedGlobal(ir.module, name);
    if (g != null && !g.isNull()) return g;
    LLVMTypeRef t = LLVMArrayType2(ir.ptr, (long) CLASSES * PER_CLASS);
    g = LLVMAddGlobal(ir.module, t, name);
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetInitializer(g, LLVMConstNull(t));
    LLVMSetAlignment(g, 64);
    Destructors.add(ir, release(ir));
    return g;
  }

  private static void emitGet(Ir ir, LLVMValueRef fn) {
    LLVMValueRef bytes = LLVMGetParam(fn, 0);
    // Class c = ⌈log2(bytes)⌉ (bytes ≤ 1: class 0).
    LLVMValueRef ctlz = ir.intrinsic("llvm.ctlz", new LLVMTypeRef[] {ir.i64},
        ir.sub(umax(ir, bytes, ir.i64(2)), ir.i64(1)), ir.constInt(ir.i1, 0));
    LLVMValueRef c = ir.sub(ir.i64(64), ctlz);
    LLVMBasicBlockRef tooBig = ir.block("too_big");
    LLVMBasicBlockRef search = ir.block("search");
    ir.condBr(ir.icmp(LLVMIntUGE, c, ir.i64(CLASSES)), tooBig, search);
    ir.at(tooBig);
    ir.ret(LLVMConstPointerNull(ir.ptr));
    ir.at(search);
    LLVMValueRef first = ir.gep(ir.ptr, slots(ir), ir.mul(c, ir.i64(PER_CLASS)));
    eachSlot(ir, first, PER_CLASS, (slot, next) -> {
      // A plain look first: an empty slot costs no exclusive cache line.
      LLVMValueRef seen = LLVMBuildLoad2(ir.b, ir.ptr, slot, "");
      LLVMSetAlignment(seen, 8);
      LLVMSetOrdering(seen, LLVMAtomicOrderingMonotonic);
      LLVMBasicBlockRef take = ir.block("slot.take");
      LLVMBasicBlockRef taken = ir.block("slot.taken");
      ir.condBr(ir.isNull(seen), next, take);
      ir.at(take);
      LLVMValueRef p = LLVMBuildAtomicRMW(ir.b, LLVMAtomicRMWBinOpXchg, slot, LLVMConstPointerNull(ir.ptr),
          LLVMAtomicOrderingAcquireRelease, 0);
      ir.condBr(ir.isNull(p), next, taken);
      ir.at(taken);
      ir.ret(p);
    });
    LLVMValueRef cap = ir.shl(ir.i64(1), c);
    LLVMValueRef raw = Libc.malloc(ir, ir.add(cap, ir.i64(HEADER + ALIGN - 1)));
    LLVMBasicBlockRef oom = ir.block("oom");
    LLVMBasicBlockRef got = ir.block("got");
    ir.condBr(ir.isNull(raw), oom, got);
    ir.at(oom);
    ir.ret(LLVMConstPointerNull(ir.ptr));
    ir.at(got);
    LLVMValueRef at = LLVMBuildPtrToInt(ir.b, raw, ir.i64, "");
    LLVMValueRef alignedAt = ir.and(ir.add(at, ir.i64(HEADER + ALIGN - 1)), ir.i64(-ALIGN));
    LLVMValueRef aligned = ir.gep(ir.i8, raw, ir.sub(alignedAt, at));
    // Header: the malloc'd block, then the class.
    ir.store(raw, ir.gep(ir.i8, aligned, ir.i64(-16)), 8);
    ir.store(c, ir.gep(ir.i8, aligned, ir.i64(-8)), 8);
    ir.ret(aligned);
  }

  private static void emitPut(Ir ir, LLVMValueRef fn) {
    LLVMValueRef p = LLVMGetParam(fn, 0);
    LLVMValueRef c = ir.load(ir.i64, ir.gep(ir.i8, p, ir.i64(-8)), 8);
    LLVMValueRef first = ir.gep(ir.ptr, slots(ir), ir.mul(c, ir.i64(PER_CLASS)));
    eachSlot(ir, first, PER_CLASS, (slot, next) -> {
      LLVMBasicBlockRef stored = ir.block("slot.stored");
      LLVMValueRef pair = LLVMBuildAtomicCmpXchg(ir.b, slot, LLVMConstPointerNull(ir.ptr), p,
          LLVMAtomicOrderingAcquireRelease, LLVMAtomicOrderingMonotonic, 0);
      ir.condBr(LLVMBuildExtractValue(ir.b, pair, 1, ""), stored, next);
      ir.at(stored);
      LLVMBuildRetVoid(ir.b);
    });
    // The class is full: freed.
    Libc.free(ir, ir.load(ir.ptr, ir.gep(ir.i8, p, ir.i64(-16)), 8));
    LLVMBuildRetVoid(ir.b);
  }

  /** {@code void jaxc_buffer_release(void)}: empties every slot, freeing what it held. */
  private static LLVMValueRef release(Ir ir) {
    return ir.outlined("jaxc_buffer_release", ir.fnType(ir.voidType), fn -> {
      LLVMValueRef all = LLVMGetNamedGlobal(ir.module, "jaxc.buffers");
      eachSlot(ir, all, (long) CLASSES * PER_CLASS, (slot, next) -> {
        LLVMValueRef p = LLVMBuildAtomicRMW(ir.b, LLVMAtomicRMWBinOpXchg, slot, LLVMConstPointerNull(ir.ptr),
            LLVMAtomicOrderingAcquireRelease, 0);
        LLVMBasicBlockRef freeIt = ir.block("slot.free");
        ir.condBr(ir.isNull(p), next, freeIt);
        ir.at(freeIt);
        Libc.free(ir, ir.load(ir.ptr, ir.gep(ir.i8, p, ir.i64(-16)), 8));
        ir.br(next);
      });
      LLVMBuildRetVoid(ir.b);
    });
  }

  /**
   * {@code for (i = 0; i < count; i++) body(&first[i], next)}: the body ends each slot by a branch
   * to {@code next} (or a return); the builder is left after the loop.
   */
  private static void eachSlot(Ir ir, LLVMValueRef first, long count,
      BiConsumer<LLVMValueRef, LLVMBasicBlockRef> body) {
    LLVMBasicBlockRef entry = ir.currentBlock();
    LLVMBasicBlockRef head = ir.block("slot");
    LLVMBasicBlockRef look = ir.block("slot.look");
    LLVMBasicBlockRef next = ir.block("slot.next");
    LLVMBasicBlockRef done = ir.block("slot.done");
    ir.br(head);
    ir.at(head);
    LLVMValueRef i = ir.phi(ir.i64);
    ir.incoming(i, ir.i64(0), entry);
    ir.condBr(ir.icmp(LLVMIntULT, i, ir.i64(count)), look, done);
    ir.at(look);
    body.accept(ir.gep(ir.ptr, first, i), next);
    ir.at(next);
    ir.incoming(i, ir.add(i, ir.i64(1)), next);
    ir.br(head);
    ir.at(done);
  }

  private static LLVMValueRef umax(Ir ir, LLVMValueRef x, LLVMValueRef y) {
    return ir.select(ir.icmp(LLVMIntUGT, x, y), x, y);
  }
}
