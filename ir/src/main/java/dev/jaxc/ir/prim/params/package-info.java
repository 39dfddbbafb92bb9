/**
 * The structured params of the primitives whose params are records or several related tuples
 * (dot_general's and conv_general_dilated's dimension numbers, gather/scatter dimension numbers and
 * mode, the window params), each decoded once, here, from {@link dev.jaxc.ir.Params}. The type
 * rules and every backend read these records; a backend adds only what it derives for itself.
 * Decoders throw {@link dev.jaxc.ir.Params.ParamException} for malformed params; {@link
 * ParamDecoding#at} turns that into an error located at the equation.
 */
package dev.jaxc.ir.prim.params;
