package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.Ir;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Emits a {@link DeviceProgram}'s control flow as host code at the builder's position: loops for
 * {@code While} and {@code Repeat}, a switch for {@code Switch}. How a kernel is launched and a
 * value read back is the caller's: the host library calls the CUDA driver ({@code
 * host/HostLibrary}), the emulation runs the kernel's blocks and threads in loops and reads the
 * workspace directly ({@link EmulatedLaunch}). So both run the same program.
 */
public final class ProgramEmitter {
  /** What a program does on its host. */
  public interface Host {
    /** Launches kernel {@code launch} with iteration parameter {@code iteration} (an i64). */
    void launch(int launch, LLVMValueRef iteration);

    /** The {@code bytes} (1 or 4) at workspace offset {@code offset}, once the launches before have run, as i32. */
    LLVMValueRef read(long offset, int bytes);
  }

  private final Ir ir;
  private final Host host;

  private ProgramEmitter(Ir ir, Host host) {
    this.ir = ir;
    this.host = host;
  }

  public static void emit(Ir ir, List<DeviceProgram.Node> program, Host host) {
    new ProgramEmitter(ir, host).nodes(program, ir.i64(0));
  }

  private void nodes(List<DeviceProgram.Node> nodes, LLVMValueRef iteration) {
    for (DeviceProgram.Node n : nodes) node(n, iteration);
  }

  private void node(DeviceProgram.Node n, LLVMValueRef iteration) {
    if (n instanceof DeviceProgram.Node.Run r) {
      host.launch(r.launch(), iteration);
    } else if (n instanceof DeviceProgram.Node.While w) {
      whileLoop(w, iteration);
    } else if (n instanceof DeviceProgram.Node.Repeat p) {
      repeat(p);
    } else if (n instanceof DeviceProgram.Node.Switch s) {
      choose(s, iteration);
    } else {
      throw new AssertionError(n);
    }
  }

  private void whileLoop(DeviceProgram.Node.While w, LLVMValueRef outer) {
    LLVMBasicBlockRef pre = ir.currentBlock();
    LLVMBasicBlockRef head = ir.block("while");
    LLVMBasicBlockRef body = ir.block("while.body");
    LLVMBasicBlockRef exit = ir.block("while.end");
    LLVMBasicBlockRef odd = ir.block("while.odd");
    LLVMBasicBlockRef done = ir.block("while.done");
    ir.br(head);
    ir.at(head);
    LLVMValueRef i = ir.phi(ir.i64);
    ir.incoming(i, ir.i64(0), pre);
    nodes(w.cond(), i);
    LLVMValueRef go = ir.icmp(LLVMIntNE, ir.and(host.read(w.predicate(), 1), ir.i32(0xff)), ir.i32(0));
    ir.condBr(go, body, exit);
    ir.at(body);
    nodes(w.body(), i);
    ir.incoming(i, ir.add(i, ir.i64(1)), ir.currentBlock());
    ir.br(head);
    ir.at(exit);
    ir.condBr(ir.icmp(LLVMIntNE, ir.and(i, ir.i64(1)), ir.i64(0)), odd, done);
    ir.at(odd);
    nodes(w.oddExit(), outer);  // after the loop: the enclosing loop's iteration
    ir.br(done);
    ir.at(done);
  }

  private void repeat(DeviceProgram.Node.Repeat p) {
    ir.loop(ir.i64(0), ir.i64(p.trips()), 1, i -> nodes(p.body(), i));
  }

  private void choose(DeviceProgram.Node.Switch s, LLVMValueRef iteration) {
    int n = s.branches().size();
    LLVMValueRef index = host.read(s.index(), 4);
    LLVMBasicBlockRef[] blocks = new LLVMBasicBlockRef[n];
    for (int k = 0; k < n; k++) blocks[k] = ir.block("branch" + k);
    LLVMBasicBlockRef done = ir.block("switch.end");
    LLVMValueRef sw = LLVMBuildSwitch(ir.b, index, blocks[n - 1], n - 1);
    for (int k = 0; k < n - 1; k++) LLVMAddCase(sw, ir.i32(k), blocks[k]);
    for (int k = 0; k < n; k++) {
      ir.at(blocks[k]);
      nodes(s.branches().get(k), iteration);
      ir.br(done);
    }
    ir.at(done);
  }
}
