/**
 * Reads printed jaxprs (JAX 0.4.1 – 0.10.2; {@code shared/design/jaxpr-text-format.md}) into the
 * IR. Entry point: {@link dev.jaxc.frontend.JaxprParser}; errors are rendered by {@link
 * dev.jaxc.frontend.DiagnosticRenderer} against the {@link dev.jaxc.frontend.Source} the parse read.
 *
 * <p>Pipeline: {@code TextCleaner} (ANSI colour codes, BOM) → {@code Lexer} (a cursor over the
 * text as one byte per character, scanning primitives, line index, nesting limit) →
 * {@code JaxprReader} (printouts, jaxprs, equations, {@code Scope}s) with
 * {@code TypeParser}, {@code LiteralParser}, {@code RefEquations} and {@code ParamListReader}
 * ({@code ParamExtent} finds where a value ends, {@code ParamDecoder} decodes it) →
 * {@code SharedJaxprs} links {@code let NAME = …} references.
 *
 * <p>Speed (a model of a million equations is 50 MB of text): nothing on the per-token path
 * copies text. Names, types and whole param lists are looked up by the range of text they occupy
 * ({@code TextTable}); a type or a param list without jaxprs that was read before is not read
 * again; a scope keeps JAX's names ({@code a} … {@code z}, {@code ba} …) in an array at their
 * number in base 26.
 *
 * <p>What the IR gets, where the text leaves a choice:
 *
 * <ul>
 *   <li>Spans are offsets into {@link dev.jaxc.frontend.Source#text()}, the cleaned text.
 *   <li>Untyped literals (JAX &lt;= 0.6.0) get {@code typed=false} and a weak placeholder type:
 *       i32 for ints, f32 for floats, c64 for complex; bool and float0 are not weak.
 *   <li>Named axes in types ({@code f32[3;i:4]}, &lt;= 0.4.30) are dropped; varying-axes suffixes
 *       are kept as printed in {@code ArrayType.vma}.
 *   <li>Ref equations become {@code get} (ins: ref, index vars), {@code swap} (ref, value, index
 *       vars; no result when printed as {@code x[i] <- v}) and {@code addupdate} (ref, value, index
 *       vars), with the equation's text in the param {@code _ref_syntax}.
 *   <li>A {@code _} in the output list of a call body (jit, pjit, …) at position k becomes a
 *       fresh variable typed like the call's k-th result; elsewhere {@code _} names the latest
 *       {@code _} binder.
 *   <li>Every reference to a shared jaxpr holds the same {@link dev.jaxc.ir.Jaxpr} object.
 *   <li>Param values that are not numbers, booleans, None, dtypes, enums, tuples, keyword
 *       records or jaxprs are {@link dev.jaxc.ir.ParamValue.Text} with their exact text.
 * </ul>
 */
package dev.jaxc.frontend;
