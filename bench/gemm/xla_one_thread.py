"""XLA:CPU on one thread for the 1024³ matmuls in f32, bf16 and int8 → int32 (GFLOP/s or GOP/s, best of 5).
Run as `taskset -c 1 /work/main/.venv/bin/python bench/gemm/xla_one_thread.py`; compare with
`JAXC_NUM_THREADS=1 ./jaxc bench bench/gemm/matmul_1024_i8.jaxpr --threads 1`."""
import os, time, sys
os.environ['XLA_FLAGS']='--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1'
import jax, jax.numpy as jnp, numpy as np
n=1024
for name,f,dt in [('f32',lambda a,b:a@b,jnp.float32),('bf16',lambda a,b:a@b,jnp.bfloat16),('i8',lambda a,b: jnp.matmul(a,b,preferred_element_type=jnp.int32),jnp.int8)]:
  a=jnp.ones((n,n),dt); b=jnp.ones((n,n),dt); g=jax.jit(f); g(a,b).block_until_ready()
  ts=[]
  for i in range(5):
    t=time.perf_counter(); g(a,b).block_until_ready(); ts.append(time.perf_counter()-t)
  print(name, '%.1f GFLOP/s'%(2*n**3/min(ts)/1e9))
