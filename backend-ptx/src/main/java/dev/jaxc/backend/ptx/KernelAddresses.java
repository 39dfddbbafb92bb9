package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.LLVMGetParam;

import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.backend.llvm.plan.Buffer;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Where a kernel finds a plan's buffers, computed from its uniform parameters ({@link
 * DeviceProgram}): the top-level plan's inputs (but baked constvars, which are globals of the
 * module) and outputs are parameters and temporaries
 * offsets into the workspace; a host-driven body's inputs and outputs are its equation's
 * operands and results, loop carries chosen by the iteration's parity and scan slices offset by
 * the iteration ({@link HostControl}). Temporaries of nested plans have absolute offsets too.
 */
interface KernelAddresses {
  /** {@code b}'s address, emitted at the builder's position in kernel {@code k}. */
  LLVMValueRef at(Ir ir, Params k, Buffer b);

  /** The parameters of the kernel being emitted. */
  record Params(LLVMValueRef fn, int inputs, int outputs) {
    LLVMValueRef input(int i) {
      return LLVMGetParam(fn, i);
    }

    LLVMValueRef output(int o) {
      return LLVMGetParam(fn, inputs + o);
    }

    LLVMValueRef workspace() {
      return LLVMGetParam(fn, inputs + outputs);
    }

    /** The enclosing host-driven loop's iteration (i64; 0 outside loops). */
    LLVMValueRef iteration() {
      return LLVMGetParam(fn, inputs + outputs + 1);
    }
  }

  /** One address in terms of the kernel's parameters. */
  interface Source {
    LLVMValueRef at(Ir ir, Params k);
  }

  /** The top-level plan's buffers; its first {@code baked.length} inputs at those constant addresses. */
  static KernelAddresses top(LLVMValueRef[] baked) {
    return (ir, k, b) -> {
      if (b instanceof Buffer.Input i) return i.index() < baked.length ? baked[i.index()] : k.input(i.index() - baked.length);
      if (b instanceof Buffer.Output o) return k.output(o.index());
      if (b instanceof Buffer.Temp t) return temp(ir, k, t.offset());
      throw new AssertionError(b);
    };
  }

  /** A nested plan's: {@code Input i} at {@code inputs[i]} (null: a substituted literal), {@code Output o} at {@code outputs[o]}. */
  static KernelAddresses body(List<Source> inputs, List<Source> outputs) {
    return (ir, k, b) -> {
      if (b instanceof Buffer.Input i) {
        Source s = inputs.get(i.index());
        if (s == null) throw new IllegalStateException("body input " + i.index() + " is a substituted literal");
        return s.at(ir, k);
      }
      if (b instanceof Buffer.Output o) return outputs.get(o.index()).at(ir, k);
      if (b instanceof Buffer.Temp t) return temp(ir, k, t.offset());
      throw new AssertionError(b);
    };
  }

  static LLVMValueRef temp(Ir ir, Params k, long offset) {
    return ir.gep(ir.i8, k.workspace(), ir.i64(offset));
  }
}
