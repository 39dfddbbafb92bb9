"""Writes dw.jaxpr (depthwise 3×3 over 8×56×56×128) and gc.jaxpr (the same with 8 groups of 16: conv_grouped_g8.jaxpr
here) into the current folder and times both with jax.jit (run it under `taskset -c 1` with
XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" for one thread)."""
import jax, jax.numpy as jnp, numpy as np
from jax import lax
x=jnp.ones((8,56,56,128),jnp.float32); w=jnp.ones((3,3,1,128),jnp.float32)
dw=lambda x,w: lax.conv_general_dilated(x,w,(1,1),'SAME',dimension_numbers=('NHWC','HWIO','NHWC'),feature_group_count=128)
open('dw.jaxpr','w').write(str(jax.make_jaxpr(dw)(x,w)))
w2=jnp.ones((3,3,16,128),jnp.float32)
gc=lambda x,w: lax.conv_general_dilated(x,w,(1,1),'SAME',dimension_numbers=('NHWC','HWIO','NHWC'),feature_group_count=8)
open('gc.jaxpr','w').write(str(jax.make_jaxpr(gc)(x,w2)))
import os,time
for name,f,args in [('dw',dw,(x,w)),('gc',gc,(x,w2))]:
  g=jax.jit(f); g(*args).block_until_ready(); ts=[]
  for i in range(10):
    t=time.perf_counter(); g(*args).block_until_ready(); ts.append(time.perf_counter()-t)
  print(name,'XLA min %.2f ms median %.2f'%(min(ts)*1e3, sorted(ts)[5]*1e3))
