package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.ElementTypes;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.Value;
import dev.jaxc.ir.DType;
import java.util.function.Consumer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A kernel that the threads of a block run together (a cooperative launch): its code is a
 * sequence of <em>phases</em>, each run by every thread of the block, separated by block barriers
 * and warp shuffles. On the GPU a phase is the thread's straight-line code ({@code %tid.x}), a
 * barrier is {@code bar.sync 0} and a shuffle {@code shfl.sync}. In the emulation (POCL's scheme)
 * the kernel is called once per block and each phase is a loop over the block's threads, run to
 * the end before the next phase starts, so a barrier needs no code and a shuffle reads the other
 * lane's slot after every lane has written it. The phases' code (indexing, folds) is the same on
 * both. Values that live across phases are kept in per-thread {@link Slots} (registers on the GPU,
 * an array indexed by thread in the emulation) or in block-shared arrays; control flow around
 * phases, barriers and shuffles must be uniform over the block (it may use {@link #block()} and
 * values loaded from shared memory after a barrier).
 */
final class BlockCode {
  static final int WARP = 32;
  private static final int SHARED = 3;

  private final Ir ir;
  private final ThreadIndex index;
  private final boolean device;
  private final int threads;
  private LLVMValueRef tid;

  BlockCode(Ir ir, ThreadIndex index, int threads) {
    if (threads % WARP != 0) throw new IllegalArgumentException("a block of " + threads + " threads");
    this.ir = ir;
    this.index = index;
    this.device = index instanceof ThreadIndex.Ptx;
    this.threads = threads;
    // Read where the kernel's code starts, so that it dominates every phase.
    if (device) tid = index.read(ir)[1];
  }

  int threads() {
    return threads;
  }

  /** Whether this is the GPU's code (else the emulation's). */
  boolean device() {
    return device;
  }

  /** The block's index (i64, uniform). */
  LLVMValueRef block() {
    return index.read(ir)[0];
  }

  /** Emits {@code body(t)} for every thread t (i64) of the block. */
  void phase(Consumer<LLVMValueRef> body) {
    if (device) {
      body.accept(tid);
      return;
    }
    ir.loop(ir.i64(0), ir.i64(threads), 1, body);
  }

  /** Every thread's earlier phases, shared and global writes included, before any later phase. */
  void barrier() {
    if (device) ir.intrinsic("llvm.nvvm.barrier0", new LLVMTypeRef[0]);
  }

  /**
   * Every lane's earlier writes, global memory included, visible to the other lanes of its warp
   * ({@code bar.warp.sync}: lanes of a warp need not run in step since Volta).
   */
  void warpSync() {
    if (device) ir.intrinsic("llvm.nvvm.bar.warp.sync", new LLVMTypeRef[0], ir.i32(-1));
  }

  /** The lane of thread t in its warp. */
  LLVMValueRef lane(LLVMValueRef t) {
    return ir.and(t, ir.i64(WARP - 1));
  }

  /**
   * {@code dst[t] = src[t + delta]} where that thread is in t's warp, else {@code src[t]}
   * ({@code shfl.sync.down}, clamped at the warp's end); slot 0 of each.
   */
  void shuffleDown(Slots src, Slots dst, int delta) {
    if (device) {
      Value v = src.load(tid(), 0);
      dst.store(tid(), 0, map(v, x -> Shuffles.down(ir, x, delta)));
      return;
    }
    ir.loop(ir.i64(0), ir.i64(threads), 1, t -> {
      LLVMValueRef inWarp = ir.icmp(LLVMIntULT, ir.add(lane(t), ir.i64(delta)), ir.i64(WARP));
      LLVMValueRef from = ir.select(inWarp, ir.add(t, ir.i64(delta)), t);
      dst.store(t, 0, src.load(from, 0));
    });
  }

  /** {@code dst[t] = src[first thread of t's warp]} ({@code shfl.sync.idx} from lane 0); slot 0. */
  void broadcastLane0(Slots src, Slots dst) {
    if (device) {
      Value v = src.load(tid(), 0);
      dst.store(tid(), 0, map(v, x -> Shuffles.fromLane0(ir, x)));
      return;
    }
    ir.loop(ir.i64(0), ir.i64(threads), 1, t -> dst.store(t, 0, src.load(ir.sub(t, lane(t)), 0)));
  }

  private LLVMValueRef tid() {
    return tid;
  }

  private static Value map(Value v, java.util.function.UnaryOperator<LLVMValueRef> f) {
    return v.isComplex() ? Value.complex(f.apply(v.re()), f.apply(v.im())) : Value.of(f.apply(v.v()));
  }

  /** {@code n} values of dtype {@code d} per thread, kept across phases. */
  Slots slots(DType d, int n) {
    return new Slots(d, n);
  }

  /** {@code n} values of LLVM type {@code type} (natural alignment {@code align}) per thread. */
  Slots slots(LLVMTypeRef type, int align, int n) {
    return new Slots(type, align, n, false);
  }

  /** Per-thread storage: the GPU's registers (a private array SROA splits), the emulation's array by thread. */
  final class Slots {
    private final LLVMTypeRef type;
    private final int n;
    private final LLVMValueRef re;
    private final LLVMValueRef im;
    private final int align;

    private Slots(DType d, int n) {
      this.type = ElementTypes.compute(ir, d);
      this.n = n;
      int count = device ? n : n * threads;
      this.align = d == DType.F16 || d == DType.BF16 ? 4 : ElementTypes.partBytes(d);
      this.re = ir.entryAlloca(LLVMArrayType2(type, count), align);
      this.im = d.isComplex() ? ir.entryAlloca(LLVMArrayType2(type, count), align) : null;
    }

    private Slots(LLVMTypeRef type, int align, int n, boolean complex) {
      this.type = type;
      this.n = n;
      this.align = align;
      int count = device ? n : n * threads;
      this.re = ir.entryAlloca(LLVMArrayType2(type, count), align);
      this.im = complex ? ir.entryAlloca(LLVMArrayType2(type, count), align) : null;
    }

    /** Slot j (a constant) of thread t. */
    Value load(LLVMValueRef t, int j) {
      LLVMValueRef i = at(t, j);
      LLVMValueRef r = ir.load(type, ir.gep(type, re, i), align);
      return im == null ? Value.of(r) : Value.complex(r, ir.load(type, ir.gep(type, im, i), align));
    }

    void store(LLVMValueRef t, int j, Value v) {
      LLVMValueRef i = at(t, j);
      ir.store(im == null ? v.v() : v.re(), ir.gep(type, re, i), align);
      if (im != null) ir.store(v.im(), ir.gep(type, im, i), align);
    }

    /**
     * The emulation's address of slot j of thread t: thread t + 1's slots follow {@link #count}
     * values further (warp-collective operations read every lane's slots).
     */
    LLVMValueRef address(LLVMValueRef t, int j) {
      if (device) throw new IllegalStateException("a slot's address on the GPU");
      return ir.gep(type, re, at(t, j));
    }

    /** Slots per thread. */
    int count() {
      return n;
    }

    private LLVMValueRef at(LLVMValueRef t, int j) {
      return device ? ir.i64(j) : ir.add(ir.mul(t, ir.i64(n)), ir.i64(j));
    }
  }

  /**
   * A block-shared array of {@code n} values of {@code type}, as a generic pointer: an
   * {@code addrspace(3)} global on the GPU (static shared memory); an ordinary global in the
   * emulation, where blocks run one after another.
   */
  LLVMValueRef shared(String name, LLVMTypeRef type, int n) {
    return global(name, type, n, device ? SHARED : 0);
  }

  private LLVMValueRef global(String name, LLVMTypeRef type, int n, int space) {
    String unique = name;
    for (int k = 1; hasGlobal(unique); k++) unique = name + "." + k;
    LLVMTypeRef array = LLVMArrayType2(type, n);
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(ir.module, array, unique, space);
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetInitializer(g, LLVMGetUndef(array));
    LLVMSetAlignment(g, 16);
    // A constant cast, so that the array may be made anywhere and used in any later phase.
    return space == 0 ? g : LLVMConstAddrSpaceCast(g, ir.ptr);
  }

  private boolean hasGlobal(String name) {
    LLVMValueRef g = LLVMGetNamedGlobal(ir.module, name);
    return g != null && !g.isNull();
  }

  /** Runs {@code body} only where {@code cond} (i1) holds. */
  static void when(Ir ir, LLVMValueRef cond, Runnable body) {
    LLVMBasicBlockRef then = ir.block("blk.if");
    LLVMBasicBlockRef join = ir.block("blk.endif");
    ir.condBr(cond, then, join);
    ir.at(then);
    body.run();
    ir.br(join);
    ir.at(join);
  }
}
