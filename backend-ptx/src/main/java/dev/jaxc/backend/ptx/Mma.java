package dev.jaxc.backend.ptx;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.jaxc.backend.llvm.emit.HalfFloats;
import dev.jaxc.backend.llvm.emit.Ir;
import dev.jaxc.ir.DType;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The warp-level tensor-core instructions of sm_80 and newer that {@link MmaGemm} uses, {@code
 * mma.sync.aligned.m16n8kK.row.col.f32.T.T.f32} (D = A·B + C, A 16 × K, B K × 8, C and D 16 × 8 in
 * f32), and each lane's fragment registers as the PTX ISA lays them out (section 9.7.14.5.7/8,
 * "Matrix Fragments for mma.m16n8k8 / m16n8k16"): with groupID g = lane / 4 and t = lane % 4, A's
 * register r holds row g + {@link #aRow}(r), columns t·perReg + {@link #aCol}(r, e) for its elements
 * e (low half first); B's register r holds rows t·perReg + {@link #bRow}(r, e) of column g; C's
 * register i holds row g + {@link #cRow}(i), column 2t + {@link #cCol}(i). A and B registers are
 * 32 bits (two f16/bf16 or one tf32), C's are f32.
 *
 * <p>On the GPU an instruction is the NVVM intrinsic. In the emulation ({@link #emulation}) it is
 * what the warp does together: every lane's registers are gathered into A and B by that layout,
 * the product is computed and each lane gets its C registers back by the same layout, so a kernel
 * that loads a fragment into the wrong register gets wrong sums in the emulation as on the GPU.
 * The arithmetic assumed: every product of two inputs is exact in f32 (11 × 11 or 8 × 8
 * significant bits), each output adds its K products to C one by one in K order, rounding to
 * nearest in f32 after each add. The hardware adds the products of one instruction with a wider
 * internal alignment and truncation (measured by Fasi et al., "Numerical behavior of NVIDIA tensor
 * cores", 2021) and does not publish its order, so GPU sums may differ from the emulation's by a
 * few ulps of f32; the golden tolerances are far wider. A tf32 input register is read by its top
 * 19 bits (sign, exponent, 10 mantissa bits), as the hardware does.
 */
enum Mma {
  F16(16, 2, "llvm.nvvm.mma.m16n8k16.row.col.f32.f32"),
  BF16(16, 2, "llvm.nvvm.mma.m16n8k16.row.col.bf16"),
  TF32(8, 1, "llvm.nvvm.mma.m16n8k8.row.col.tf32");

  static final int M = 16;
  static final int N = 8;
  static final int A_REGS = 4;
  static final int B_REGS = 2;
  static final int C_REGS = 4;

  /** K of one instruction. */
  final int k;
  /** Input elements per 32-bit register. */
  final int perReg;
  private final String intrinsic;

  Mma(int k, int perReg, String intrinsic) {
    this.k = k;
    this.perReg = perReg;
    this.intrinsic = intrinsic;
  }

  /** A's register r: its row less g (rows g and g + 8 alternate). */
  static int aRow(int r) {
    return (r & 1) * 8;
  }

  /** A's register r, element e: its column less t·perReg (the second pair of registers is K/2 further). */
  int aCol(int r, int e) {
    return e + (r >> 1) * (k / 2);
  }

  /** B's register r, element e: its row (the K index) less t·perReg; its column is g. */
  int bRow(int r, int e) {
    return e + r * (k / 2);
  }

  /** C's register i: its row less g. */
  static int cRow(int i) {
    return (i >> 1) * 8;
  }

  /** C's register i: its column less 2t. */
  static int cCol(int i) {
    return i & 1;
  }

  /** The instruction on the GPU: this lane's D registers from its A (4 × i32), B (2 × i32) and C (4 × f32). */
  LLVMValueRef[] device(Ir ir, LLVMValueRef[] a, LLVMValueRef[] b, LLVMValueRef[] c) {
    LLVMValueRef[] args = new LLVMValueRef[A_REGS + B_REGS + C_REGS];
    LLVMTypeRef pair = LLVMVectorType(LLVMHalfTypeInContext(ir.ctx), 2);
    for (int r = 0; r < A_REGS; r++) args[r] = this == F16 ? ir.bitcast(a[r], pair) : a[r];
    for (int r = 0; r < B_REGS; r++) args[A_REGS + r] = this == F16 ? ir.bitcast(b[r], pair) : b[r];
    System.arraycopy(c, 0, args, A_REGS + B_REGS, C_REGS);
    LLVMValueRef d = ir.intrinsic(intrinsic, new LLVMTypeRef[0], args);
    LLVMValueRef[] out = new LLVMValueRef[C_REGS];
    for (int i = 0; i < C_REGS; i++) out[i] = LLVMBuildExtractValue(ir.b, d, i, "");
    return out;
  }

  /**
   * The warp's instruction in the emulation, an outlined function {@code (a, sa, b, sb, c, sc)}:
   * lane l's A register r at {@code a[l·sa + r]} (i32), B register r at {@code b[l·sb + r]} (i32),
   * C register i at {@code c[l·sc + i]} (f32), which it overwrites with D.
   */
  LLVMValueRef emulation(Ir ir) {
    LLVMTypeRef type = ir.fnType(ir.voidType, ir.ptr, ir.i64, ir.ptr, ir.i64, ir.ptr, ir.i64);
    return ir.outlined("jaxc.mma.emulated." + name().toLowerCase(java.util.Locale.ROOT), type, fn -> {
      LLVMValueRef a = LLVMGetParam(fn, 0);
      LLVMValueRef sa = LLVMGetParam(fn, 1);
      LLVMValueRef b = LLVMGetParam(fn, 2);
      LLVMValueRef sb = LLVMGetParam(fn, 3);
      LLVMValueRef c = LLVMGetParam(fn, 4);
      LLVMValueRef sc = LLVMGetParam(fn, 5);
      LLVMValueRef am = ir.entryAlloca(LLVMArrayType2(ir.f32, (long) M * k), 4);
      LLVMValueRef bm = ir.entryAlloca(LLVMArrayType2(ir.f32, (long) k * N), 4);
      ir.loop(ir.i64(0), ir.i64(BlockCode.WARP), 1, lane -> {
        LLVMValueRef g = ir.lshr(lane, ir.i64(2));
        LLVMValueRef t = ir.and(lane, ir.i64(3));
        LLVMValueRef tk = ir.mul(t, ir.i64(perReg));
        // Element i of a fragment (a0, a1, ... low to high) lies in register i / perReg.
        for (int i = 0; i < A_REGS * perReg; i++) {
          LLVMValueRef reg = ir.load(ir.i32, ir.gep(ir.i32, a, ir.add(ir.mul(lane, sa), ir.i64(i / perReg))), 4);
          LLVMValueRef row = ir.add(g, ir.i64(isaRowA(i)));
          LLVMValueRef col = ir.add(ir.mul(t, ir.i64(perReg)), ir.i64(isaColA(i)));
          ir.store(decode(ir, reg, i % perReg), ir.gep(ir.f32, am, ir.add(ir.mul(row, ir.i64(k)), col)), 4);
        }
        for (int i = 0; i < B_REGS * perReg; i++) {
          LLVMValueRef reg = ir.load(ir.i32, ir.gep(ir.i32, b, ir.add(ir.mul(lane, sb), ir.i64(i / perReg))), 4);
          LLVMValueRef row = ir.add(ir.mul(t, ir.i64(perReg)), ir.i64(isaRowB(i)));
          ir.store(decode(ir, reg, i % perReg), ir.gep(ir.f32, bm, ir.add(ir.mul(row, ir.i64(N)), g)), 4);
        }
      });
      ir.loop(ir.i64(0), ir.i64(BlockCode.WARP), 1, lane -> {
        LLVMValueRef g = ir.lshr(lane, ir.i64(2));
        LLVMValueRef t = ir.and(lane, ir.i64(3));
        for (int i = 0; i < C_REGS; i++) {
          LLVMValueRef row = ir.add(g, ir.i64(cRow(i)));
          LLVMValueRef col = ir.add(ir.mul(t, ir.i64(2)), ir.i64(cCol(i)));
          LLVMValueRef at = ir.gep(ir.f32, c, ir.add(ir.mul(lane, sc), ir.i64(i)));
          LLVMValueRef acc = ir.load(ir.f32, at, 4);
          for (int kk = 0; kk < k; kk++) {
            LLVMValueRef x = ir.load(ir.f32, ir.gep(ir.f32, am, ir.add(ir.mul(row, ir.i64(k)), ir.i64(kk))), 4);
            LLVMValueRef y = ir.load(ir.f32, ir.gep(ir.f32, bm, ir.add(ir.i64((long) kk * N), col)), 4);
            // The product is exact in f32, so no fusing can change it; each add rounds.
            acc = ir.faddExact(acc, LLVMBuildFMul(ir.b, x, y, ""));
          }
          ir.store(acc, at, 4);
        }
      });
      LLVMBuildRetVoid(ir.b);
    });
  }

  // The ISA's own statement of the layout, element by element (groupID and threadID_in_group
  // terms left out), for the emulation; the kernel's loads use the register forms above, so a
  // register form that disagrees with the ISA fails the golden cases in the emulation.

  /** Row of A's element i, less groupID. */
  private int isaRowA(int i) {
    if (this == TF32) return i == 1 || i == 3 ? 8 : 0;  // "groupID for a0 and a2, groupID + 8 for a1 and a3"
    return (i < 2 || (i >= 4 && i < 6)) ? 0 : 8;  // "groupID for ai where 0 <= i < 2 || 4 <= i < 6"
  }

  /** Column of A's element i, less threadID_in_group · perReg. */
  private int isaColA(int i) {
    if (this == TF32) return i >= 2 ? 4 : 0;  // "threadID_in_group for a0 and a1, + 4 for a2 and a3"
    return (i & 1) + (i >= 4 ? 8 : 0);  // "(threadID_in_group * 2) + (i & 0x1) (+ 8 for i >= 4)"
  }

  /** Row of B's element i, less threadID_in_group · perReg; its column is groupID. */
  private int isaRowB(int i) {
    if (this == TF32) return i == 1 ? 4 : 0;  // "threadID_in_group for b0, + 4 for b1"
    return (i & 1) + (i >= 2 ? 8 : 0);  // "(threadID_in_group * 2) + (i & 0x1) (+ 8 for i >= 2)"
  }

  /** Element e of an input register, as f32. */
  private LLVMValueRef decode(Ir ir, LLVMValueRef reg, int e) {
    return switch (this) {
      case F16 -> HalfFloats.toF32(ir, DType.F16, ir.trunc(ir.lshr(reg, ir.i32(16L * e)), ir.i16));
      case BF16 -> ir.bitcast(e == 0 ? ir.shl(reg, ir.i32(16)) : ir.and(reg, ir.i32(0xffff0000L)), ir.f32);
      case TF32 -> ir.bitcast(ir.and(reg, ir.i32(0xffffe000L)), ir.f32);
    };
  }

  /**
   * {@code cvt.rna.tf32.f32}: x rounded to tf32 (10 mantissa bits, to nearest, ties away from zero)
   * as a 32-bit register, its low 13 bits zero. On the GPU the NVVM intrinsic; in the emulation
   * what Ampere's code for the instruction does on the bits: where |x| is not ≥ infinity and not
   * NaN, add half of the dropped bits' unit to the magnitude; then clear the 13 bits.
   */
  static LLVMValueRef tf32(Ir ir, boolean device, LLVMValueRef x) {
    if (device) return ir.intrinsic("llvm.nvvm.f2tf32.rna", new LLVMTypeRef[0], x);
    LLVMValueRef bits = ir.bitcast(x, ir.i32);
    LLVMValueRef special = ir.icmp(LLVMIntEQ, ir.and(bits, ir.i32(0x7f800000L)), ir.i32(0x7f800000L));
    LLVMValueRef added = ir.select(special, bits, ir.add(bits, ir.i32(0x1000)));
    return ir.and(added, ir.i32(0xffffe000L));
  }
}
