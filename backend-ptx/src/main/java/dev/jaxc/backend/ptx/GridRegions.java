package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.emit.ParallelRegions;
import dev.jaxc.backend.llvm.runtime.Outliner;
import java.util.List;
import java.util.function.BiConsumer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The GPU's parallel regions: a loop over [0, n) is outlined into {@code jaxc_grid_body_K(ptr
 * ctx, i64 begin, i64 end)} (its captured values in a context on the caller's stack, as on the
 * CPU) and run by {@code jaxc.grid.for(body, ctx, n, grain)}: a grid-stride loop over the chunks
 * of {@code grain} elements, thread g of G taking chunks g, g + G, … ({@link ThreadIndex}). With a
 * grid of one thread that is the whole loop, so every step is correct single-threaded; {@link
 * GridMapping} decides from the emitted step whether it may run on a larger grid. A region inside
 * a region body runs inline (regions never nest).
 */
final class GridRegions implements ParallelRegions {
  static final String GRID_FOR = "jaxc.grid.for";
  private static final String BODY = "jaxc_grid_body_";

  private final Ir ir;
  private final ThreadIndex index;
  private int bodies;

  GridRegions(Ir ir, ThreadIndex index) {
    this.ir = ir;
    this.index = index;
  }

  /** A thread per element (coalesced), except inside a region body, which runs its loops inline. */
  @Override
  public boolean flatIndex() {
    return !inBody();
  }

  private boolean inBody() {
    return LLVMGetValueName(ir.function()).getString().startsWith(BODY);
  }

  /** A step with more than one region runs on one thread ({@link GridMapping}). */
  @Override
  public boolean severalPerStep() {
    return false;
  }

  @Override
  public void range(long n, long grain, long work, BiConsumer<LLVMValueRef, LLVMValueRef> body) {
    if (inBody()) {
      body.accept(ir.i64(0), ir.i64(n));
      return;
    }
    LLVMValueRef fn = ir.outlined(BODY + bodies++, bodyType(), f -> {
      body.accept(LLVMGetParam(f, 1), LLVMGetParam(f, 2));
      LLVMBuildRetVoid(ir.b);
    });
    LLVMValueRef ctx = Outliner.context(ir, fn);
    ir.call(gridForType(), gridFor(), fn, ctx, ir.i64(n), ir.i64(Math.max(1, grain)));
  }

  private LLVMTypeRef bodyType() {
    return ir.fnType(ir.voidType, ir.ptr, ir.i64, ir.i64);
  }

  private LLVMTypeRef gridForType() {
    return ir.fnType(ir.voidType, ir.ptr, ir.ptr, ir.i64, ir.i64);
  }

  /** {@code for (c = g; c < ceil(n / grain); c += G) body(ctx, c·grain, min(n, (c+1)·grain))}. */
  private LLVMValueRef gridFor() {
    return ir.helper(GRID_FOR, gridForType(), f -> {
      LLVMValueRef body = LLVMGetParam(f, 0);
      LLVMValueRef ctx = LLVMGetParam(f, 1);
      LLVMValueRef n = LLVMGetParam(f, 2);
      LLVMValueRef grain = LLVMGetParam(f, 3);
      LLVMValueRef[] g = index.global(ir);
      LLVMValueRef chunks = ir.udiv(ir.add(n, ir.sub(grain, ir.i64(1))), grain);
      LLVMBasicBlockRef pre = ir.currentBlock();
      LLVMBasicBlockRef loop = ir.block("chunk");
      LLVMBasicBlockRef exit = ir.block("done");
      ir.condBr(ir.icmp(LLVMIntULT, g[0], chunks), loop, exit);
      ir.at(loop);
      LLVMValueRef c = ir.phi(ir.i64);
      ir.incoming(c, g[0], pre);
      LLVMValueRef begin = ir.mul(c, grain);
      LLVMValueRef end = ir.add(begin, grain);
      end = ir.select(ir.icmp(LLVMIntULT, end, n), end, n);
      ir.call(bodyType(), body, ctx, begin, end);
      LLVMValueRef next = ir.add(c, g[1]);
      ir.incoming(c, next, ir.currentBlock());
      ir.condBr(ir.icmp(LLVMIntULT, next, chunks), loop, exit);
      ir.at(exit);
      LLVMBuildRetVoid(ir.b);
    });
  }
}
