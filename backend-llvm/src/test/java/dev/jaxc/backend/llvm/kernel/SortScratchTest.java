package dev.jaxc.backend.llvm.kernel;

import dev.jaxc.backend.llvm.CpuBackendRules;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jaxc.backend.llvm.emit.Compile;
import dev.jaxc.backend.llvm.plan.Buffer;
import dev.jaxc.backend.llvm.plan.Plan;
import dev.jaxc.backend.llvm.plan.Planner;
import dev.jaxc.ir.Jaxpr;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Sort kernels get scratch memory in the workspace: two buffers of packed records per part of the
 * rows (one part per row up to 16), live only during the kernel's step, so it never overlaps a
 * buffer that is live then.
 */
class SortScratchTest {
  @Test
  void scratchHoldsTwoRecordBuffersPerPart() {
    // f32 key + 3 position bits: one word per record; 4 rows (parts) · 2 buffers · 5 records · 8 bytes.
    Jaxpr one = Compile.program("{ lambda ; a:f32[4,5]. let b:f32[4,5] = sort[dimension=1 is_stable=True num_keys=1] a in (b,) }").main();
    assertEquals(4 * 80, Planner.plan(one, CpuBackendRules.DEFAULT).scratch(one.eqns().get(0)).bytes());
    // f64 and i64 keys + position: three words per record.
    Jaxpr three = Compile.program("{ lambda ; a:f64[6] b:i64[6]. let c:f64[6] d:i64[6] = sort[dimension=0 is_stable=True num_keys=2] a b in (c, d) }").main();
    assertEquals(2 * 6 * 3 * 8, Planner.plan(three, CpuBackendRules.DEFAULT).scratch(three.eqns().get(0)).bytes());
    Jaxpr topK = Compile.program("{ lambda ; a:f32[3,9]. let b:f32[3,2] c:i32[3,2] = top_k[axis=1 k=2] a in (b, c) }").main();
    assertEquals(3 * 2 * 9 * 8, Planner.plan(topK, CpuBackendRules.DEFAULT).scratch(topK.eqns().get(0)).bytes());
    Jaxpr none = Compile.program("{ lambda ; a:f32[4]. let b:f32[4] = neg a in (b,) }").main();
    assertNull(Planner.plan(none, CpuBackendRules.DEFAULT).scratch(none.eqns().get(0)));
  }

  @Test
  void scratchDoesNotOverlapBuffersLiveDuringItsStep() {
    Jaxpr j = Compile.program("{ lambda ; a:f32[64]. let b:f32[64] = sort[dimension=0 is_stable=True num_keys=1] a; "
        + "c:f32[64] = neg b; d:f32[64] = sort[dimension=0 is_stable=True num_keys=1] c; e:f32[64] = neg d in (e,) }").main();
    Plan p = Planner.plan(j, CpuBackendRules.DEFAULT);
    Buffer.Temp s0 = p.scratch(j.eqns().get(0));
    Buffer.Temp s2 = p.scratch(j.eqns().get(2));
    assertTrue(p.workspaceBuffers().containsAll(List.of(s0, s2)));
    Buffer.Temp b = (Buffer.Temp) p.buffer(j.eqns().get(0).outs().get(0));
    Buffer.Temp c = (Buffer.Temp) p.buffer(j.eqns().get(1).outs().get(0));
    Buffer.Temp d = (Buffer.Temp) p.buffer(j.eqns().get(2).outs().get(0));
    assertTrue(disjoint(s0, b));
    assertTrue(disjoint(s2, c) && disjoint(s2, d));
    assertTrue(p.workspaceBytes() >= Math.max(s0.offset() + s0.bytes(), s2.offset() + s2.bytes()));
  }

  private static boolean disjoint(Buffer.Temp x, Buffer.Temp y) {
    return x.offset() + x.bytes() <= y.offset() || y.offset() + y.bytes() <= x.offset();
  }
}
