"""Writes the 1024³ matmul jaxprs of other dtypes (bf16.jaxpr, f16.jaxpr, i8.jaxpr: int8 → int32, bf16f32.jaxpr)
into the current folder, for `jaxc bench X.jaxpr --threads 1` against xla_one_thread.py. matmul_1024_i8.jaxpr and
matmul_1024_bf16.jaxpr here are two of them."""
import jax, jax.numpy as jnp, numpy as np, sys
n=1024
cases = {
 'bf16': (lambda a,b: a@b, jnp.bfloat16),
 'f16': (lambda a,b: a@b, jnp.float16),
 'i8': (lambda a,b: jnp.matmul(a,b,preferred_element_type=jnp.int32), jnp.int8),
 'bf16f32': (lambda a,b: jnp.matmul(a,b,preferred_element_type=jnp.float32), jnp.bfloat16),
}
for k,(f,dt) in cases.items():
  a=jnp.ones((n,n),dt); b=jnp.ones((n,n),dt)
  open(k+'.jaxpr','w').write(str(jax.make_jaxpr(f)(a,b)))
