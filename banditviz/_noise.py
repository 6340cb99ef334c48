"""The arms' Gaussian noise streams in compiled code: numpy's PCG64 and its standard normal, without a `Generator`.

`Environment` gives arm i the stream ``default_rng(noise.spawn(K)[i])`` (common random numbers). For Gaussian noise
those K generators only ever draw standard normals; creating them (~1.5 us each) and calling each from Python
(~4 us a refill) was most of a short NoC run (K = 259). Here a stream is four words, the 128-bit PCG64 state and
increment, and the draws are the ones numpy's generator makes:

* PCG64 (O'Neill 2014, "PCG: a family of simple fast space-efficient statistically good algorithms", section 6.3:
  a 128-bit LCG stepped before each output, XSL-RR output to 64 bits), seeded as numpy seeds it from a seed
  sequence's four 64-bit words (state 0, increment 2 seq + 1, a step, the initial state added, a step);
* the standard normal of numpy's `Generator` (Marsaglia and Tsang 2000, "The ziggurat method for generating random
  variables", 256 layers): one 64-bit output gives the layer (low 8 bits), the sign (next bit) and a 52-bit
  magnitude; the tables are the ones numba ships for its port of numpy's generator;
* uniform doubles as numpy makes them, the top 53 bits of an output over 2^53.

Tested draw for draw against ``default_rng(seed_sequence).standard_normal`` (the tail and wedge branches included).
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numba.np.random._constants import fi_double, ki_double, wi_double, ziggurat_nor_inv_r, ziggurat_nor_r

MULT_HI, MULT_LO = np.uint64(0x2360ED051FC65DA4), np.uint64(0x4385DF649FCCF645)  # the 128-bit LCG multiplier
LOW32 = np.uint64(0xFFFFFFFF)
U1, U8, U11, U32, U58, U63, U64 = (np.uint64(k) for k in (1, 8, 11, 32, 58, 63, 64))
MAG_MASK = np.uint64(0x000FFFFFFFFFFFFF)  # 52 bits
BYTE = np.uint64(0xFF)
TO_UNIT = 1.0 / 9007199254740992.0  # 2^-53
KI, WI, FI = ki_double.astype(np.uint64), wi_double.astype(np.float64), fi_double.astype(np.float64)
HI, LO, INC_HI, INC_LO = 0, 1, 2, 3  # a stream's words


@numba.njit(cache=True)
def _mulhi(x, y):
    """The high 64 bits of the 128-bit product of two 64-bit words."""
    x0, x1, y0, y1 = x & LOW32, x >> U32, y & LOW32, y >> U32
    w0 = x0 * y0
    t = x1 * y0 + (w0 >> U32)
    w1 = (t & LOW32) + x0 * y1
    return x1 * y1 + (t >> U32) + (w1 >> U32)


@numba.njit(cache=True)
def _add(s, hi, lo):
    """state += (hi, lo) (mod 2^128), the low word's carry into the high word."""
    new_lo = s[LO] + lo
    s[HI] = s[HI] + hi + (U1 if new_lo < lo else np.uint64(0))
    s[LO] = new_lo


@numba.njit(cache=True)
def _step(s):
    """state = state * MULT + inc (mod 2^128)."""
    s[HI] = _mulhi(s[LO], MULT_LO) + s[LO] * MULT_HI + s[HI] * MULT_LO
    s[LO] = s[LO] * MULT_LO
    _add(s, s[INC_HI], s[INC_LO])


@numba.njit(cache=True)
def next_uint64(s):
    """PCG64's next output: step, then XSL-RR of the new state (xor of the halves rotated by the top 6 bits)."""
    _step(s)
    v, r = s[HI] ^ s[LO], s[HI] >> U58
    return (v >> r) | (v << ((U64 - r) & U63))


@numba.njit(cache=True)
def _next_double(s):
    return float(next_uint64(s) >> U11) * TO_UNIT


@numba.njit(cache=True)
def standard_normal(s):
    """One standard normal from stream ``s`` (four words), numpy `Generator.standard_normal`'s ziggurat."""
    while True:
        r = next_uint64(s)
        idx = int(r & BYTE)
        r = r >> U8
        rabs = (r >> U1) & MAG_MASK
        x = float(rabs) * WI[idx]
        if r & U1:
            x = -x
        if rabs < KI[idx]:
            return x
        if idx == 0:  # the tail beyond r: Marsaglia's exponential rejection
            while True:
                xx = -ziggurat_nor_inv_r * math.log1p(-_next_double(s))
                yy = -math.log1p(-_next_double(s))
                if yy + yy > xx * xx:
                    return -(ziggurat_nor_r + xx) if (rabs >> U8) & U1 else ziggurat_nor_r + xx
        elif (FI[idx - 1] - FI[idx]) * _next_double(s) + FI[idx] < math.exp(-0.5 * x * x):
            return x


@numba.njit(cache=True)
def seed(words):
    """(n, 4) streams from (n, 4) seed words (a seed sequence's ``generate_state(4, np.uint64)`` each), as
    numpy's PCG64 seeds itself: initial state words 0-1, sequence words 2-3 (high word first)."""
    out = np.zeros_like(words)
    for i in range(words.shape[0]):
        s = out[i]
        s[INC_HI] = (words[i, 2] << U1) | (words[i, 3] >> U63)
        s[INC_LO] = (words[i, 3] << U1) | U1
        _step(s)
        _add(s, words[i, 0], words[i, 1])
        _step(s)
    return out


@numba.njit(cache=True)
def fill_standard(streams, arm, out):
    """``out`` (n x L) gets the next n L standard normals of ``arm``'s stream in C order, as
    `Generator.standard_normal(out=out)` fills it."""
    s = streams[arm]
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = standard_normal(s)


@numba.njit(cache=True)
def fill(streams, arm, out, sigma, mean):
    """`fill_standard`, each draw z then made ``z sigma + mean`` (the rewards `Environment.observe` gives)."""
    fill_standard(streams, arm, out)
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = out[i, j] * sigma + mean[j]
