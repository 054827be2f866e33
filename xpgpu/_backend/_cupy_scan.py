"""xpgpu's own ``cumsum`` kernels on CUDA (``cumulative_sum``): non-empty integer, real
and complex floating C-contiguous arrays along their last axis (a 1-D array, or
``axis=-1`` of a 2-D one...; floats of several rows from ``THRESHOLD`` elements, as the
reductions), accumulated in the requested dtype when it is an integer of at least 4 bytes
(from an integer input) or a float (complex) at least as wide as the input.

CuPy scans with its generic kernels; here a row is cut into tiles of ``B * IPT`` elements
(``B`` threads, each with ``IPT`` consecutive elements read and written with 16-byte
loads and stores where rows are 16-byte aligned), in one launch that writes every element
once and reads it once (rows) or twice, the second time mostly from L2 (tiles):

- Rows (``NAME_rows``; ``BLOCK`` threads): where the rows fill the GPU (``SPREAD`` waves
  of them) or a row is one tile, each row is one block that scans its tiles in order,
  carrying the running total.
- Tiles (``NAME``; ``TILE_BLOCK`` threads and a carry warp): otherwise as many blocks as
  the GPU holds at once (``TILE_RESIDENT`` an SM) draw the tiles of all rows from an
  atomic ticket, in turn. Tile ``i`` of a row publishes its total as entry ``i`` of level
  0 of its row; entry ``j`` of level ``k + 1`` is the sum of entries ``32 j ... 32 j +
  31`` of level ``k``, published by the group's last tile (the one whose base-32 digits
  ``d_0 ... d_k`` are all 31) as soon as it has read the other 31; an entry is published
  only where a tile follows its group. Tile ``i``'s carry is the sum of the entries
  ``32 * (i >> 5 (k + 1)) + g`` for ``g < d_k`` of each level ``k``: at most 31 a level,
  each ready as soon as the totals of its tiles are, whatever the carries of the tiles
  before (no chain from tile to tile, unlike a look-back of inclusive prefixes; no order
  that depends on timing, unlike a decoupled look-back). A block reads each tile twice,
  an iteration apart: first for its total (evict-last, so it stays in L2), then, while
  it reads its next tile's total, its carry warp reads this tile's carry (the totals of
  the tiles drawn before, mostly published by then), and the block reads the tile again,
  from L2, scans it and stores it (evict-first). So no block waits for a carry holding a
  tile in registers, and a carry waits only on totals, which are published with no wait
  (every tile drawn is in a running block: nothing waits on a block that cannot run). An
  entry is 8-byte words of 4 bytes of the value and 4 of the launch's epoch, each
  written and read whole, so a reader knows a value is this launch's with no fence and
  no flag to reset. The epoch is counted on the device in the high word of the ticket
  (the launch's last draw, one past the last tile by each block, resets the low word and
  adds one to the epoch), so a graph replay counts its own; the buffers are per (device,
  stream).
  (Measured on an H100, 2**26 float32: PyTorch's torch.cumsum 260 µs; the kernel that
  read each tile once and held it while its carry came, in tiles of 480 x 8 with a
  carry warp, 4 blocks an SM: 301-310; this one: 258-269. Before that, in tiles of 128 x
  8: 405; with each group's sum made by its last arriver, found by an atomic counter: 541;
  with a fence between a value and a flag as well: 761. See TILE_BLOCK for the others.)

Scan order (integers are exact, wrapping as CuPy's; floats within this order's rounding,
the same bits on every run): element ``i``'s result is ``(c + e) + s``, where ``s`` is
the thread's running sum of its ``IPT`` (``TIPT``) elements left to right, ``e`` the block's
exclusive prefix of the thread totals (a shuffle scan within each warp, plus the exclusive
scan of the warp totals), and ``c`` the tile's carry; a tile's total is the block's
inclusive prefix of its last warp. Rows: ``c`` is the earlier tiles' totals added in turn.
Tiles: a level-``k`` entry (``k >= 1``) is a butterfly (five xor-shuffle steps) of its 32
entries below, lane ``g`` of a warp adds its entries of the carry (``g < d_k``, else 0)
in turn from level 0 up, then the 32 lanes' sums are added by a butterfly. Every result
is thus a sum of its prefix along a tree of depth at most ``D = TIPT + 12 + 5 L`` (tiles;
``L`` levels: ``32**(L - 1) < T <= 32**L`` for ``T`` tiles a row) or ``D = IPT + 12 + T``
(rows), so ``|error| <= D * eps * sum(|x_j|, j <= i)`` to first order.
"""

from __future__ import annotations

from typing import Any

import cupy
import numpy
from cupy._core import _scalar

from . import _cupy_reductions as _r
from ._cupy_launch import launch

THRESHOLD = 1 << 16
MIN_SIZE = 1  # the smallest array taken here (2**62: CuPy's path throughout)
# Threads a block of the row kernel; from SPREAD waves of (256-thread) blocks' rows, a
# block a row (the tile kernel below that).
BLOCK = 128
SPREAD = 4
# The tile kernel's threads a block besides its carry warp, its elements a thread by the
# wider of the input's and the accumulator's itemsize (at least one 16-byte load), and its
# blocks an SM by the accumulator's (registers capped to fit: 32 a thread for 4 and 8
# bytes, 64 for 16). Measured on an H100, GPU time of torch.cumsum (in the same dtype)
# over this kernel's at 2**26, float32, float64, int32, complex64, complex128: 0.98-1.00,
# 0.85-0.91, 1.00, 1.78, 1.89-1.93; 480 x (8, 4, 4) and (4, 3, 2) blocks: 1.00, 0.88, -,
# 1.68, 1.79; 224 x (8, 4, 4) and (8, 8, 4): 0.94, 0.76, -, 1.39, 1.50; 992 x 8 and (2,
# 1, 1): 1.02, 0.76, 1.00, 1.58, 0.81; the next tile loaded before the scan of the last
# (more registers, spilled): 0.74, 0.62, -, -, -; a lag of two iterations (a third tile in
# L2): 0.94, 0.88, -, -, 1.80; tiles of two (three) such sub-tiles for 8-byte sums, read
# in turn (more of L2 held): float64 0.77 (0.67); all the levels' entries of a carry
# loaded at once (more L2 traffic): 0.94, 0.71, 0.92, -, 1.55; a backoff (nanosleep) in
# the carry's wait: no change; the same kernel waiting for no carry (wrong sums, the
# floor of this design): 1.30, 1.15, 1.20, -, 1.99. The tile kernel before this one read
# each tile once and held it in registers while its carry came (480 x 8 and (4, 3, 2)
# blocks): 0.85, 0.79, 0.85, 1.55, 1.37.
TILE_BLOCK = 992
TILE_IPT = {4: 8, 8: 4, 16: 4}
TILE_RESIDENT = {4: 2, 8: 2, 16: 1}
# Launches of the tile kernel on one buffer before a new one: a word holds its launch's
# epoch plus one, modulo 2**32; fewer launches than that never meet a stale word.
EPOCHS = (1 << 32) - 1
LEVELS = 5  # levels of 32 at most: rows of up to 32**5 tiles
_SOURCE = r"""
template <typename V, int M> struct alignas(sizeof(V) * M) _xpgpu_vec { V v[M]; };

// Warp shuffles: up by o (UP), from lane ^ o (XOR), from lane o (AT); a complex number
// moves as its two parts.
enum { UP, XOR, AT };
template <int S, typename U> __device__ __forceinline__ U _xpgpu_shfl(const U v, const int o) {
    if constexpr (S == UP) return __shfl_up_sync(0xffffffffu, v, o);
    else if constexpr (S == XOR) return __shfl_xor_sync(0xffffffffu, v, o);
    else return __shfl_sync(0xffffffffu, v, o);
}
template <int S, typename U>
__device__ __forceinline__ complex<U> _xpgpu_shfl(const complex<U> v, const int o) {
    return complex<U>(_xpgpu_shfl<S>(v.real(), o), _xpgpu_shfl<S>(v.imag(), o));
}
// The warp's sum of v (a butterfly: every lane adds the same pairs, the same bits).
__device__ __forceinline__ T _xpgpu_warp_sum(T v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += _xpgpu_shfl<XOR>(v, o);
    return v;
}

// The inclusive prefix of v over the warp's lanes (a shuffle scan); ex: the exclusive one.
__device__ __forceinline__ T _xpgpu_warp_scan(const T v, T &ex) {
    const int lane = threadIdx.x & 31;
    T inc = v;
    #pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const T y = _xpgpu_shfl<UP>(inc, o);
        if (lane >= o) inc += y;
    }
    ex = _xpgpu_shfl<UP>(inc, 1);
    if (lane == 0) ex = T(0);
    return inc;
}

// The exclusive prefix of v over the block's threads; total: the block's sum.
__device__ __forceinline__ T _xpgpu_block_scan(const T v, T *warps, T &total) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    T ex;
    const T inc = _xpgpu_warp_scan(v, ex);
    __syncthreads();  // warps[] may still be read from the previous tile
    if (lane == 31) warps[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        T wx;
        const T wi = _xpgpu_warp_scan(lane < (blockDim.x >> 5) ? warps[lane] : T(0), wx);
        warps[lane] = wx;
        if (lane == 31) warps[32] = wi;
    }
    __syncthreads();
    total = warps[32];
    return warps[warp] + ex;
}

// 16 bytes loaded (stored) evict-first ("streaming", E = 1): read (written) once, they
// leave L2 to what is read again, such as the tile kernels' level entries; or evict-last
// (E = 2): read again soon, from L2.
template <int E> __device__ __forceinline__ uint4 _xpgpu_ldcs(const void *p) {
    uint4 b;
    if constexpr (E == 1)
        asm("ld.global.cs.v4.u32 {%0, %1, %2, %3}, [%4];"
            : "=r"(b.x), "=r"(b.y), "=r"(b.z), "=r"(b.w) : "l"(p));
    else
        asm("{ .reg .b64 pol; createpolicy.fractional.L2::evict_last.b64 pol, 1.0;\n"
            "ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], pol; }"
            : "=r"(b.x), "=r"(b.y), "=r"(b.z), "=r"(b.w) : "l"(p));
    return b;
}
__device__ __forceinline__ void _xpgpu_stcs(void *p, const uint4 b) {
    asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};"
                 :: "l"(p), "r"(b.x), "r"(b.y), "r"(b.z), "r"(b.w) : "memory");
}

// A thread's I elements from base (16-byte loads where the tile is whole, evict-first
// where E is 1, evict-last where 2), zeros past stop.
template <int I, int E = 0>
__device__ __forceinline__ void _xpgpu_load(const TIN *p, const long long base,
                                            const long long stop, TIN *r) {
    if (VEC && base + I <= stop) {
        #pragma unroll
        for (int u = 0; u < I / NIN; ++u) {
            _xpgpu_vec<TIN, NIN> v;
            if constexpr (E) *reinterpret_cast<uint4 *>(&v) = _xpgpu_ldcs<E>(p + base + u * NIN);
            else v = reinterpret_cast<const _xpgpu_vec<TIN, NIN> *>(p + base)[u];
            #pragma unroll
            for (int k = 0; k < NIN; ++k) r[u * NIN + k] = v.v[k];
        }
    } else {
        #pragma unroll
        for (int k = 0; k < I; ++k) r[k] = base + k < stop ? p[base + k] : TIN(0);
    }
}

// pre + s[k] at base + k, for k < I and base + k < stop (16-byte stores where whole,
// evict-first where E).
template <int I, int E = 0>
__device__ __forceinline__ void _xpgpu_store(T *q, const long long base, const long long stop,
                                             const T pre, const T *s) {
    if (VEC && base + I <= stop) {
        #pragma unroll
        for (int u = 0; u < I / NOUT; ++u) {
            _xpgpu_vec<T, NOUT> v;
            #pragma unroll
            for (int k = 0; k < NOUT; ++k) v.v[k] = pre + s[u * NOUT + k];
            if constexpr (E) _xpgpu_stcs(q + base + u * NOUT, *reinterpret_cast<uint4 *>(&v));
            else reinterpret_cast<_xpgpu_vec<T, NOUT> *>(q + base)[u] = v;
        }
    } else {
        #pragma unroll
        for (int k = 0; k < I; ++k) if (base + k < stop) q[base + k] = pre + s[k];
    }
}

// The thread's running sums of its I elements.
template <int I> __device__ __forceinline__ void _xpgpu_running(const TIN *r, T *s) {
    s[0] = T(r[0]);
    #pragma unroll
    for (int k = 1; k < I; ++k) s[k] = s[k - 1] + T(r[k]);
}

// A block a row: its tiles in order, carrying the running total; the next tile's loads
// are issued before the current tile's scan, so they are in flight during it.
extern "C" __global__ void NAME_rows(const TIN *__restrict__ x, T *__restrict__ out,
                                     const long long len) {
    __shared__ T warps[33];
    const TIN *p = x + blockIdx.x * len;
    T *q = out + blockIdx.x * len;
    const long long tile = (long long)blockDim.x * IPT;
    TIN r[IPT];
    _xpgpu_load<IPT>(p, (long long)threadIdx.x * IPT, len, r);
    T carry = T(0);
    for (long long t0 = 0; t0 < len; t0 += tile) {
        const long long base = t0 + (long long)threadIdx.x * IPT;
        T s[IPT];
        _xpgpu_running<IPT>(r, s);
        if (t0 + tile < len) _xpgpu_load<IPT>(p, base + tile, len, r);
        T total;
        const T pre = carry + _xpgpu_block_scan(s[IPT - 1], warps, total);
        carry += total;
        _xpgpu_store<IPT>(q, base, len, pre, s);
    }
}

// Level k of a row holds n_k = ceil(tiles / 32**k) entries, those of row r at
// off_k + r * n_k, where off_k = rows * (n_0 + ... + n_{k-1}); entry j of level k is
// needed (published) where a tile follows its group: (j + 1) * 32**k < tiles. An entry is
// NW 8-byte words, each 4 bytes of the value and the epoch: a word is written and read
// whole (single-copy atomic), so a value is current where its words hold the epoch, and
// no fence orders a value before its flag.
union _xpgpu_bits { T v; unsigned int u[NW]; __device__ _xpgpu_bits() {} };

__device__ __forceinline__ void _xpgpu_put(unsigned long long *w, const T v,
                                           const unsigned int epoch) {
    _xpgpu_bits b;
    b.v = v;
    #pragma unroll
    for (int p = 0; p < NW; ++p)
        ((volatile unsigned long long *)w)[p] = (unsigned long long)epoch << 32 | b.u[p];
}

// Whether entry w holds this launch's value (then in v).
__device__ __forceinline__ bool _xpgpu_get(const unsigned long long *w,
                                           const unsigned int epoch, T &v) {
    _xpgpu_bits b;
    bool current = true;
    #pragma unroll
    for (int p = 0; p < NW; ++p) {
        const unsigned long long u = ((const volatile unsigned long long *)w)[p];
        current &= (unsigned int)(u >> 32) == epoch;
        b.u[p] = (unsigned int)u;
    }
    v = b.v;
    return current;
}

// Barrier b of n threads (b = 0: the whole block), wherever each thread meets it.
// Note: the carry warp and the others meet barrier 0 at different places, which
// __syncthreads (barrier.sync.aligned: every thread at the same one) does not allow.
__device__ __forceinline__ void _xpgpu_sync(const int b, const int n) {
    asm volatile("barrier.sync %0, %1;" :: "r"(b), "r"(n) : "memory");
}

// The carry warp of tile i (digits d_k): lane g reads entry 32 * (i >> 5 (k + 1)) + g of
// each level k where g < d_k (all at once, again where not yet current; into acc[k][g],
// shared memory, not registers) and adds them from level 0 up, then the lanes' sums are
// added: the carry. Where d_0 ... d_k are all 31 and a tile follows, tile i is the last
// of its group of level k + 1 and publishes that group's sum once every lane has read its
// entry of level k: the butterfly of lane g's entry (g < 31) and, in lane 31, the tile's
// total (k = 0; `own`, which warp 0 puts in shared memory) or the group sum of level k it
// has just made. (Tiles and entries are counted in 32 bits: fewer than 2**31 in all.)
__device__ __forceinline__ T _xpgpu_carry(const unsigned long long *own, T (*acc)[32],
                                          unsigned long long *words, const unsigned int epoch,
                                          const unsigned int i, const unsigned int row,
                                          const unsigned int rows, const unsigned int tiles) {
    const int lane = threadIdx.x & 31;
    unsigned int wait = 0u;  // the levels still to read; bit LEVELS: the tile's own total
    #pragma unroll
    for (int k = 0; k < LEVELS; ++k) {
        acc[k][lane] = T(0);
        if (lane < ((i >> (5 * k)) & 31)) wait |= 1u << k;
    }
    int sums = (i & 31) == 31 && i + 1 < tiles ? 0 : LEVELS;  // the next group sum's level
    if (sums == 0 && lane == 31) wait |= 1u << LEVELS;
    T v = T(0);
    for (;;) {
        unsigned int off = 0u, n = tiles;
        #pragma unroll
        for (int k = 0; k < LEVELS; ++k) {
            const unsigned int e = off + row * n + ((i >> (5 * (k + 1))) << 5) + lane;
            T y;
            if ((wait >> k & 1u) && _xpgpu_get(words + (size_t)e * NW, epoch, y))
                wait &= ~(1u << k), acc[k][lane] = y;
            if (k == 0 && (wait >> LEVELS & 1u) && _xpgpu_get(own, epoch, y))
                wait &= ~(1u << LEVELS), v = y;
            off += rows * n, n = (n + 31) >> 5;
            if (k == sums && k + 1 < LEVELS &&
                __all_sync(0xffffffffu, !(wait >> k & 1u) && !(wait >> LEVELS & 1u))) {
                v = _xpgpu_warp_sum(lane < 31 ? acc[k][lane] : v);
                const unsigned int j = i >> (5 * (k + 1));
                if (lane == 0 && ((j + 1) << (5 * (k + 1))) < tiles)
                    _xpgpu_put(words + (size_t)(off + row * n + j) * NW, v, epoch);
                sums = k + 2 < LEVELS && ((i >> (5 * (k + 1))) & 31) == 31 ? k + 1 : LEVELS;
            }
        }
        if (!__any_sync(0xffffffffu, wait) && sums == LEVELS) break;
    }
    T c = acc[0][lane];
    #pragma unroll
    for (int k = 1; k < LEVELS; ++k) c += acc[k][lane];
    return _xpgpu_warp_sum(c);
}

// A ticket: its low word counts the launch's draws, its high word the launch's epoch;
// the launch's last draw (of `draws`) resets the low word and adds one to the epoch.
__device__ __forceinline__ unsigned long long _xpgpu_draw(unsigned long long *ticket,
                                                          const long long draws) {
    const unsigned long long t = atomicAdd(ticket, 1ull);
    if ((long long)(t & 0xffffffffull) == draws - 1) atomicExch(ticket, ((t >> 32) + 1) << 32);
    return t;
}

// The block scan of a tile (its TB threads; v: the thread's total): the thread's
// exclusive prefix within its warp in ex and, once warp 0 has written them, the warps'
// exclusive prefixes in warps[]; warp 0 returns the tile's total.
__device__ __forceinline__ T _xpgpu_tile_scan(const T v, T *warps, T &ex) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const T inc = _xpgpu_warp_scan(v, ex);
    if (lane == 31) warps[warp] = inc;
    _xpgpu_sync(1, TB);  // the warps' totals
    T sum = T(0);
    if (warp == 0) {
        T wx;
        const T wi = _xpgpu_warp_scan(lane < TB / 32 ? warps[lane] : T(0), wx);
        sum = _xpgpu_shfl<AT>(wi, 31);
        warps[lane] = wx;  // each lane its own word: read above, by itself only
    }
    return sum;
}

// Tiles, read twice: G blocks (as many as are resident) of TB threads of TIPT elements
// and a carry warp draw tiles in turn (`tiles` a row, `total` in all; each block draws
// once past the last: total + G draws a launch). In iteration j the TB threads read the
// block's tile d_j (evict-last: it stays in L2) and publish its total, while the carry
// warp draws d_{j+1} and reads the carry of d_{j-1} (whose total was published an
// iteration ago, as, mostly, those of the tiles drawn before it); then the TB threads
// read d_{j-1} again, from L2, scan it and store it. No block waits holding a tile, and a
// carry waits only for the totals of tiles drawn before, published with no wait.
extern "C" __global__ void BOUNDS NAME(const TIN *__restrict__ x, T *__restrict__ out,
                                       unsigned long long *words, unsigned long long *ticket,
                                       const long long len, const long long tiles,
                                       const long long total) {
    __shared__ T warps[32], red[32], carry[2];
    __shared__ T acc[LEVELS][32];
    __shared__ unsigned long long taken[3], own[2][NW];  // d_{j-1}, d_j, d_{j+1} by j % 3
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long tile = (long long)TB * TIPT, draws = total + gridDim.x;
    const unsigned int n = (unsigned int)tiles, none = 0xffffffffu;
    if (warp == TB / 32) {
        if (lane < NW) own[0][lane] = own[1][lane] = 0ull;  // not this launch's epoch
        if (lane == 0) taken[0] = _xpgpu_draw(ticket, draws);
    }
    _xpgpu_sync(0, TB + 32);  // the first ticket
    const unsigned int epoch = (unsigned int)(taken[0] >> 32) + 1u;  // words start at 0
    for (unsigned int j = 0, c = 0;; ++j, c = c == 2 ? 0 : c + 1) {  // c: j % 3
        const unsigned int cur = (unsigned int)taken[c];
        const unsigned int prev = j ? (unsigned int)taken[c == 0 ? 2 : c - 1] : none;
        const bool has_cur = cur < (unsigned int)total, has_prev = prev < (unsigned int)total;
        if (!has_cur && !has_prev) break;
        if (warp == TB / 32) {  // the carry warp
            if (lane == 0) taken[c == 2 ? 0 : c + 1] = has_cur ? _xpgpu_draw(ticket, draws) : ~0ull;
            const unsigned int row = prev / n, i = prev - row * n;
            const T cy = !has_prev || i == 0 ? T(0)
                         : _xpgpu_carry(own[(j - 1) & 1], acc, words, epoch, i, row,
                                        (unsigned int)total / n, n);
            if (lane == 0) carry[j & 1] = cy;
            _xpgpu_sync(0, TB + 32);  // the carry
            continue;
        }
        if (has_cur) {  // the total of tile d_j
            const unsigned int row = cur / n, i = cur - row * n;
            const long long base = row * len + i * tile + threadIdx.x * TIPT;
            TIN r[TIPT];
            _xpgpu_load<TIPT, 2>(x + base, 0, row * len + min((i + 1) * tile, len) - base, r);
            T s[TIPT], ex;
            _xpgpu_running<TIPT>(r, s);
            const T sum = _xpgpu_tile_scan(s[TIPT - 1], red, ex);
            if (threadIdx.x == 0 && i + 1 < n) {
                _xpgpu_put(words + (size_t)cur * NW, sum, epoch);  // entry i of level 0
                _xpgpu_put(own[j & 1], sum, epoch);
            }
        }
        _xpgpu_sync(0, TB + 32);  // the carry
        if (has_prev) {  // the scan of tile d_{j-1}
            const unsigned int row = prev / n, i = prev - row * n;
            const long long base = row * len + i * tile + threadIdx.x * TIPT;
            const long long end = row * len + min((i + 1) * tile, len);
            TIN r[TIPT];
            _xpgpu_load<TIPT, 1>(x + base, 0, end - base, r);
            T s[TIPT], ex;
            _xpgpu_running<TIPT>(r, s);
            _xpgpu_tile_scan(s[TIPT - 1], warps, ex);
            _xpgpu_sync(1, TB);  // the warps' prefixes
            _xpgpu_store<TIPT, 1>(out + base, 0, end - base, carry[j & 1] + (warps[warp] + ex), s);
        }
    }
}
"""

_kernels: dict[Any, Any] = {}
# By (device, stream): [entries, launches, ticket, words] of the tile kernel;
# launches on one stream run in order.
_buffers: dict[Any, Any] = {}


def _ipt(dtype: numpy.dtype) -> int:
    """Elements a thread of the rows kernel: 8, at least one 16-byte load. (Measured on
    an H200, rows of 1024 float32: 16 a thread, or loading the next tile before scanning
    the current one, were no faster.)"""
    return max(8, 16 // dtype.itemsize)


def _tile_ipt(dtype: numpy.dtype, acc: numpy.dtype) -> int:
    """Elements a thread of the tile kernel (TILE_IPT), at least one 16-byte load."""
    return max(TILE_IPT[max(dtype.itemsize, acc.itemsize)], 16 // dtype.itemsize)


def _kernel(dtype: numpy.dtype, acc: numpy.dtype, vec: bool, device: int) -> Any:
    key = (dtype, acc, vec, device)
    k = _kernels.get(key)
    if k is None:
        name = f"xpgpu_cumsum_{dtype.kind}{dtype.itemsize}_{acc.kind}{acc.itemsize}_{int(vec)}"
        bounds = f"__launch_bounds__({TILE_BLOCK + 32}, {TILE_RESIDENT[acc.itemsize]})"
        src = (f"typedef {_scalar.get_typename(dtype)} TIN;\n"
               f"typedef {_scalar.get_typename(acc)} T;\n#define VEC {int(vec)}\n"
               f"#define IPT {_ipt(dtype)}\n#define TIPT {_tile_ipt(dtype, acc)}\n"
               f"#define NIN {16 // dtype.itemsize}\n"
               f"#define NOUT {16 // acc.itemsize}\n#define NW {acc.itemsize // 4}\n"
               f"#define LEVELS {LEVELS}\n#define TB {TILE_BLOCK}\n"
               f"#define BOUNDS {bounds}\n" + _SOURCE.replace("NAME", name))
        k = _kernels[key] = _r.functions(src, name, f"{name}_rows")
    return k


def _entries(rows: int, tiles: int) -> int:
    """The level entries of the tile kernel: rows * ceil(tiles / 32**k) for every level k
    with 32**k < tiles."""
    entries, n, span = 0, tiles, 1
    while span < tiles:
        entries += rows * n
        n, span = -(-n // 32), span * 32
    return entries


def _buffer(device: int, entries: int) -> Any:
    """The tile kernel's ticket and entries (32 bytes each) of the device's current
    stream, zeroed when made, for at least ``entries`` (grown by powers of two)."""
    key = (device, cupy.cuda.get_current_stream().ptr)
    b = _buffers.get(key)
    if b is None or b[0] < entries or b[1] == EPOCHS:
        size = 1 << max(12, (entries - 1).bit_length())
        words = cupy.zeros(1 + 4 * size, numpy.uint64)
        b = _buffers[key] = [size, 0, words[:1], words[1:]]
    b[1] += 1
    return b


def _accumulates(kind: str, acc: numpy.dtype, dtype: numpy.dtype) -> bool:
    """Whether the kernels scan ``dtype`` in ``acc``: integers into 4- or 8-byte integers
    (as CuPy, modular), floats (complex) into floats (complex) at least as wide."""
    if kind in "iu":
        return acc.kind in "iu" and acc.itemsize >= 4
    return kind in "fc" and acc.kind == kind and acc.itemsize >= dtype.itemsize


def _scan(x: Any, axis: Any, dtype: Any) -> Any:
    """xpgpu's cumulative sum of x along its last axis, or None for CuPy's path."""
    if (type(x) is not cupy.ndarray or x.size < MIN_SIZE or axis is None
            or axis % x.ndim != x.ndim - 1 or not x._c_contiguous):
        return None
    acc = x.dtype if dtype is None else numpy.dtype(dtype)
    if not _accumulates(x.dtype.kind, acc, x.dtype):
        return None
    length = x.shape[-1]
    rows = x.size // length
    if rows > 1 and x.size < THRESHOLD and acc.kind in "fc":
        return None  # as var's and std's rows (_cupy_reductions.THRESHOLD)
    vec = _r._width(x, length) > 1 and not (length * acc.itemsize) & 15
    device = x.data.device_id
    tiled, by_rows = _kernel(x.dtype, acc, vec, device)
    out = cupy.ndarray(x.shape, acc)
    tiles = -(-length // (TILE_BLOCK * _tile_ipt(x.dtype, acc)))
    if tiles == 1 or rows >= SPREAD * _r._wave(device):
        threads = -(-length // _ipt(x.dtype))  # short rows: a block of fewer threads
        block = min(BLOCK, max(32, -(-threads // 32) * 32))
        launch(by_rows, rows, block, (x, out, numpy.int64(length)))
    else:
        _, _, ticket, words = _buffer(device, _entries(rows, tiles))
        sms = _r._wave(device) * _r.BLOCK // 2048
        launch(tiled, min(rows * tiles, sms * TILE_RESIDENT[acc.itemsize]), TILE_BLOCK + 32, (
            x, out, words, ticket, numpy.int64(length), numpy.int64(tiles),
            numpy.int64(rows * tiles)))
    return out


def cumsum(x: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    r = None if out is not None else _scan(x, axis, dtype)
    return cupy.cumsum(x, axis=axis, dtype=dtype, out=out) if r is None else r


# Note: CuPy's cumsum runs its generic scan kernels (about a fifth of PyTorch's throughput
# on an H200); this gives the same integers and floats within the order's rounding.
FIXES: dict[str, Any] = {"cumsum": cumsum}
