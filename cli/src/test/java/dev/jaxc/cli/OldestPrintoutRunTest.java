package dev.jaxc.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jaxc.cli.npy.NpyArray;
import dev.jaxc.frontend.JaxprParser;
import dev.jaxc.ir.DType;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.Diagnostics;
import dev.jaxc.ir.pass.KnownPrimitives;
import dev.jaxc.ir.pass.TypePass;
import dev.jaxc.ir.types.TypeConfig;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A printout in the form of JAX 0.2.26–0.3.x compiles and runs: the primitives' old names
 * ({@code custom_jvp_call_jaxpr} with {@code fun_jaxpr}, {@code checkpoint}, {@code xla_call}),
 * untyped literals, and a dead unit result ({@code _:*}, a body returning {@code *}).
 *
 * <p>Hand-written (no complete published printout of that era with these was found): the layout
 * is that of the pretty printer of jax-ml/jax PR #8667 (0.2.26, testdata/legacy/pre04_pr8667_xla_call),
 * the params are those jaxpr-text-format.md §9.5, §9.7 and §11 give for the old names, and units
 * print as {@code *} (jax-ml/jax PR #9995). The expected values are what JAX 0.10.2 computes for
 * the same function, {@code jax.checkpoint(lambda y: jax.nn.relu(y) * 2.0)(x) + 1.0}.
 */
class OldestPrintoutRunTest {
  static final String TEXT = """
      { lambda ; a:f32[4]. let
          b:f32[4] = custom_jvp_call_jaxpr[
            fun_jaxpr={ lambda ; c:f32[4]. let d:f32[4] = max c 0.0 in (d,) }
            jvp_jaxpr_thunk=<function _memoize.<locals>.memoized at 0x7f2c3c1d0ee0>
            num_consts=0
          ] a
          e:f32[4] = checkpoint[
            differentiated=False
            jaxpr={ lambda ; f:f32[4]. let g:f32[4] = mul f 2.0 in (g,) }
            policy=None
            prevent_cse=True
          ] b
          h:f32[4] = xla_call[
            backend=None
            call_jaxpr={ lambda ; i:f32[4]. let j:f32[4] = add i 1.0 in (j,) }
            device=None
            donated_invars=(False,)
            inline=False
            name=f
          ] e
          _:* = xla_call[
            call_jaxpr={ lambda ; k:f32[4]. let  in (*,) }
            name=g
          ] h
        in (h,) }
      """;

  @Test
  void compilesAndRunsAsJaxDoes() throws Exception {
    Program parsed = JaxprParser.parse("old.jaxpr", TEXT);
    KnownPrimitives.check(parsed);
    Program typed = TypePass.run(parsed, TypeConfig.DEFAULT, new Diagnostics());
    ByteBuffer in = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
    for (float v : new float[] {-1f, 0.5f, 2f, -3f}) in.putFloat(v);
    List<NpyArray> out = HostRun.run(typed, "old", List.of(NpyArray.of(DType.F32, new long[] {4}, in.array())));
    assertEquals(1, out.size());
    ByteBuffer r = ByteBuffer.wrap(out.get(0).data()).order(ByteOrder.LITTLE_ENDIAN);
    float[] got = new float[4];
    for (int i = 0; i < 4; i++) got[i] = r.getFloat();
    assertArrayEquals(new float[] {1f, 2f, 5f, 1f}, got);
  }
}
