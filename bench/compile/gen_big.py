"""Writes a large valid jaxpr for the frontend and compile-time benchmarks (no JAX needed).

    python3 bench/compile/gen_big.py --eqns 20000 > big.jaxpr      # a 20,000-equation model
    python3 bench/compile/gen_big.py --mb 50 > big50.jaxpr          # about 50 MB of text
    python3 bench/compile/gen_big.py --mb 50 --truncate > cut.jaxpr # the same, cut off mid-way

Blocks of equations as JAX 0.10.2 prints them (dot_general with multi-line params,
broadcast_in_dim, reduce_max, literals, tanh/exp chains) chained through one f32[8,64] value, plus,
every block, a concatenate of many operands (a long line) so both many equations and long lines
are exercised. Each block repeats, so the compile benchmark also measures reuse of identical steps.
"""
import argparse
import sys


def name(k):
    """JAX's variable names: a..z, ba..bz, ca.. (skipping none; unique is what matters)."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    s = letters[k % 26]
    k //= 26
    while k > 0:
        s = letters[k % 26] + s
        k //= 26
    return s if len(s) == 1 or s[0] != "a" else "z" + s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--eqns", type=int, default=0, help="about this many equations")
    ap.add_argument("--mb", type=float, default=0, help="about this many MB of text")
    ap.add_argument("--wide", type=int, default=64, help="operands of each block's concatenate")
    ap.add_argument("--truncate", action="store_true", help="cut the text off at half its length")
    a = ap.parse_args()
    if not a.eqns and not a.mb:
        a.eqns = 1000
    counter = [0]

    def fresh():
        counter[0] += 1
        return name(counter[0])

    w = "w0"
    x = "x0"
    out = []
    size = 0
    eqns = 0
    while (a.eqns and eqns < a.eqns) or (a.mb and size < a.mb * 1e6):
        lines = []
        d = fresh()
        lines.append(f"    {d}:f32[8,64] = dot_general[\n      dimension_numbers=(([1], [0]), ([], []))\n"
                     f"      preferred_element_type=float32\n    ] {x} {w}")
        m = fresh()
        lines.append(f"    {m}:f32[8] = reduce_max[axes=(1,) out_sharding=None] {d}")
        b = fresh()
        lines.append(f"    {b}:f32[8,1] = broadcast_in_dim[\n      broadcast_dimensions=(0,)\n"
                     f"      shape=(8, 1)\n      sharding=None\n    ] {m}")
        s = fresh()
        lines.append(f"    {s}:f32[8,64] = sub {d} {b}")
        e = fresh()
        lines.append(f"    {e}:f32[8,64] = exp {s}")
        t = fresh()
        lines.append(f"    {t}:f32[8,64] = tanh {e}")
        y = fresh()
        lines.append(f"    {y}:f32[8,64] = mul {t} 0.5:f32[]")
        parts = []
        for _ in range(a.wide):
            p = fresh()
            lines.append(f"    {p}:f32[8,1] = slice[limit_indices=(8, 1) start_indices=(0, 0) strides=None] {y}")
            parts.append(p)
        c = fresh()
        lines.append(f"    {c}:f32[8,{a.wide}] = concatenate[dimension=1] " + " ".join(parts))
        r = fresh()
        lines.append(f"    {r}:f32[8] = reduce_sum[axes=(1,) out_sharding=None] {c}")
        rb = fresh()
        lines.append(f"    {rb}:f32[8,64] = broadcast_in_dim[broadcast_dimensions=(0,) shape=(8, 64) sharding=None] {r}")
        z = fresh()
        lines.append(f"    {z}:f32[8,64] = add {y} {rb}")
        eqns += 11 + a.wide
        x = z
        text = "\n".join(lines) + "\n"
        size += len(text)
        out.append(text)
    body = "".join(out)
    head = "{ lambda ; x0:f32[8,64] w0:f32[64,64]. let\n"
    text = head + body + f"  in ({x},) }}\n"
    if a.truncate:
        text = text[: len(text) // 2]
    sys.stdout.write(text)
    print(f"{eqns} equations, {len(text) / 1e6:.1f} MB", file=sys.stderr)


if __name__ == "__main__":
    main()
