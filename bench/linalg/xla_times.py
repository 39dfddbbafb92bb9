"""XLA:CPU times of linear algebra ops on f32 SIZE×SIZE inputs (python xla_times.py SIZE...): writes
each op's jaxpr (NAME_SIZE.jaxpr) and xla.json (median ms per NAME_SIZE) into the working directory."""
import jax, jax.numpy as jnp, numpy as np, time, sys, json
rng=np.random.default_rng(0)
res={}
def sym(a): return (a+a.T)/2
fs = {
 'svd': lambda a: jnp.linalg.svd(a, full_matrices=False),
 'svdvals': lambda a: jnp.linalg.svd(a, compute_uv=False),
 'qr': lambda a: jnp.linalg.qr(a),
 'eigh': lambda a: jnp.linalg.eigh(a),
 'eigvalsh': lambda a: jnp.linalg.eigvalsh(a),
 'eig': lambda a: jnp.linalg.eig(a),
 'eigvals': lambda a: jnp.linalg.eigvals(a),
 'schur': lambda a: jax.scipy.linalg.schur(a),
 'hessenberg': lambda a: jax.scipy.linalg.hessenberg(a, calc_q=True),
 'solve': lambda a: jnp.linalg.solve(a, a[:, :8]),
 'inv': lambda a: jnp.linalg.inv(a),
 'pinv': lambda a: jnp.linalg.pinv(a),
 'lstsq': lambda a: jnp.linalg.lstsq(a, a[:, :4])[0],
 'cholesky': lambda a: jnp.linalg.cholesky(a @ a.T + a.shape[0]*jnp.eye(a.shape[0])),
}
for n in map(int, sys.argv[1:]):
  a=rng.standard_normal((n,n)).astype(np.float32)
  for name,f in fs.items():
    if n>=1024 and name in ('eig','eigvals','schur'): continue
    g=jax.jit(f); jax.block_until_ready(g(a)); ts=[]
    for _ in range(5 if n<1024 else 3):
      t=time.perf_counter(); jax.block_until_ready(g(a)); ts.append(time.perf_counter()-t)
    open(f'{name}_{n}.jaxpr','w').write(str(jax.make_jaxpr(f)(a)))
    res[f'{name}_{n}']=float(np.median(ts))*1e3
    print(name, n, '%.2f ms'%res[f'{name}_{n}'], flush=True)
json.dump(res, open('xla.json','w'))
