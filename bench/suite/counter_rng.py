"""The suite's input generator: a counter-based splitmix64, so that any element of any input can be
made from (seed, index) alone, identically here (NumPy) and in Java (cli's CounterRandom).

  h(s, i) = mix(s * 0xD1B54A32D192ED03 + (i + 1) * 0x9E3779B97F4A7C15)   (mod 2^64)
  mix(z)  = splitmix64's finaliser: z ^= z >> 30; z *= 0xBF58476D1CE4E5B9; z ^= z >> 27;
            z *= 0x94D049BB133111EB; z ^= z >> 31
  float in [lo, hi): lo + (hi - lo) * ((h >> 40) * 2^-24), in double, then rounded to the dtype
  int in [lo, hi):   lo + (h mod (hi - lo))   (unsigned)

Input k of a workload with seed S uses s = S + k."""
import numpy as np

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_SEED_MUL = np.uint64(0xD1B54A32D192ED03)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_CHUNK = 1 << 22


def hashes(seed, start, count):
    """h(seed, i) for i in [start, start + count), as uint64."""
    with np.errstate(over="ignore"):
        i = np.arange(start + 1, start + count + 1, dtype=np.uint64)
        z = np.uint64(seed) * _SEED_MUL + i * _GOLDEN
        z ^= z >> np.uint64(30)
        z *= _M1
        z ^= z >> np.uint64(27)
        z *= _M2
        z ^= z >> np.uint64(31)
    return z


def array(seed, shape, dtype, lo, hi):
    """The whole input: floats in [lo, hi) or ints in [lo, hi), C order."""
    dtype = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64))
    out = np.empty(n, dtype)
    for start in range(0, n, _CHUNK):
        count = min(_CHUNK, n - start)
        h = hashes(seed, start, count)
        if dtype.kind == "f":
            u = (h >> np.uint64(40)).astype(np.float64) * 2.0 ** -24
            out[start:start + count] = (lo + (hi - lo) * u).astype(dtype)
        else:
            out[start:start + count] = (np.int64(lo) + (h % np.uint64(hi - lo)).astype(np.int64)).astype(dtype)
    return out.reshape(shape)


def sample_positions(n, count):
    """The fixed flat positions at which a large output is stored: h(0x5A3D1E, j) mod n, j < count."""
    return (hashes(0x5A3D1E, 0, count) % np.uint64(n)).astype(np.int64)
