"""xpgpu's own ``cumsum`` kernels on CUDA (``cumulative_sum``): non-empty integer, real
and complex floating C-contiguous arrays along their last axis (a 1-D array, or
``axis=-1`` of a 2-D one...; floats of several rows from ``THRESHOLD`` elements, as the
reductions), accumulated in the requested dtype when it is an integer of at least 4 bytes
(from an integer input) or a float (complex) at least as wide as the input.

CuPy scans with its generic kernels; here a row is cut into tiles of ``B * IPT`` elements
(``B`` threads, each with ``IPT`` consecutive elements read and written with 16-byte
loads and stores where rows are 16-byte aligned), in one launch that reads and writes
every element once:

- Rows (``NAME_rows``; ``BLOCK`` threads): where the rows fill the GPU (``SPREAD`` waves
  of them) or a row is one tile, each row is one block that scans its tiles in order,
  carrying the running total.
- Tiles (``NAME``; ``TILE_BLOCK`` threads and a carry warp): otherwise as many blocks as
  the GPU holds at once (``TILE_RESIDENT`` an SM, fewer where their shared memory does
  not fit) draw the tiles of all rows from an atomic ticket, in turn. Tile ``i`` of a row
  publishes its total as entry ``i`` of level 0 of its row; entry ``j`` of level ``k +
  1`` is the sum of entries ``32 j ... 32 j + 31`` of level ``k``, published by the
  group's last tile (the one whose base-32 digits ``d_0 ... d_k`` are all 31) an
  iteration after its total, once it has read the other 31; an entry is published only
  where a tile follows its group. Tile ``i``'s carry is the sum of the entries ``32 * (i
  >> 5 (k + 1)) + g`` for ``g < d_k`` of each level ``k``: at most 31 a level, each ready
  as soon as the totals of its tiles are, whatever the carries of the tiles before (no
  chain from tile to tile, unlike a look-back of inclusive prefixes; no order that
  depends on timing, unlike a decoupled look-back). A block reads a tile, keeps it in
  shared memory and publishes its total; the next iteration its carry warp publishes
  the group sums the tile completes, and ``TILE_LAG`` (``_lag``) iterations after the total the
  carry warp reads the tile's carry (published by then, mostly: the totals and group
  sums of the tiles drawn before) and the block scans the tile from shared memory and
  stores it. So no block waits for a carry holding a tile in registers, a carry or a
  group sum waits only on totals and group sums of tiles drawn before, which are
  published with no wait on anything later (every tile drawn is in a running block:
  nothing waits on a block that cannot run), and each element moves once. An entry is
  8-byte words of 4 bytes of the value and 4 of the launch's epoch, each written and read
  whole, so a reader knows a value is this launch's with no fence and no flag to reset.
  The epoch is counted on the device in the high word of the ticket (the launch's last
  draw, one past the last tile by each block, resets the low word and adds one to the
  epoch), so a graph replay counts its own; the buffers are per (device, stream).
  (Measured on an H100, 2**26 float32: PyTorch's torch.cumsum 260 µs; this kernel
  219-224; the one before, which read each tile twice, from L2 the second time, and
  published a group's sum while it read its last tile's carry: 257-269; the one before
  that, which held each tile in registers while its carry came, in tiles of 480 x 8 with
  a carry warp, 4 blocks an SM: 301-310; in tiles of 128 x 8: 405; with each group's sum
  made by its last arriver, found by an atomic counter: 541; with a fence between a
  value and a flag as well: 761. See TILE_BLOCK for the others.)
- One tile a block (``NAME_one``; ``ONE_BLOCKS`` threads, ``TIPT`` elements each):
  where the tiles of every row fit the GPU at once (at most a block's threads a row), a
  block draws its tile from the ticket, keeps it in registers, scans it and publishes its
  total; its threads read the totals of the row's tiles before it, one each, and add
  them to the tile as it is stored: one block scan, no stage and no carry warp. Tiles are
  drawn, not taken by block index, so a block waits only on blocks that run (a block
  index would wait on the GPU starting blocks in order, as a decoupled look-back does:
  6-10% less GPU time at 2**20 float64, see ONE_BLOCKS). Its entries and ticket are a
  fixed buffer a (device, stream), so its launches are plans run from C
  (``_cupy_reductions.plan``); the launch of the epoch before the tag wraps zeroes the
  buffer on the device instead of counting launches on the host (``EPOCHS``).

Scan order (integers are exact, wrapping as CuPy's; floats within this order's rounding,
the same bits on every run): element ``i``'s result is ``(c + e) + s``, where ``s`` is
the thread's running sum of its ``IPT`` (``TIPT``) elements left to right, ``e`` the block's
exclusive prefix of the thread totals (a shuffle scan within each warp, plus the exclusive
scan of the warp totals), and ``c`` the tile's carry; a tile's total is the block's
inclusive prefix of its last warp. Rows: ``c`` is the earlier tiles' totals added in turn.
Tiles: a level-``k`` entry (``k >= 1``) is a butterfly (five xor-shuffle steps) of its 32
entries below, lane ``g`` of a warp adds its entries of the carry (``g < d_k``, else 0)
in turn from level 0 up, then the 32 lanes' sums are added by a butterfly. One tile a
block: thread ``g`` holds entry ``g`` (``g < i``, else 0), each warp's 32 are added by a
butterfly, then the warps' sums by another. Every result is thus a sum of its prefix
along a tree of depth at most ``D = TIPT + 12 + 5 L`` (tiles; ``L`` levels: ``32**(L - 1)
< T <= 32**L`` for ``T`` tiles a row), ``D = TIPT + 22`` (one tile a block) or ``D = IPT
+ 12 + T`` (rows), so ``|error| <= D * eps * sum(|x_j|, j <= i)`` to first order.
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
# The row kernel's elements a thread by the wider of the input's and the accumulator's
# itemsize (at least one 16-byte load). Measured on an H100, rows of 1024 (2**26 in all),
# GPU time of torch.cumsum over this kernel's, float64, complex64, complex128: 1.17, 1.18,
# 1.08; 4 a thread for 8 and 16 bytes: 1.14, 0.82, 0.87; 8: 0.96, 0.49, 0.59; blocks of 64
# (256) threads: 1.15 (1.08), 1.12 (0.63), 0.97 (0.87).
ROWS_IPT = {4: 8, 8: 2, 16: 2}
# The tile kernel's threads a block besides its carry warp and its blocks an SM by the
# accumulator's itemsize (registers capped to fit: 32 a thread for 4 and 8 bytes, 64 for
# 16), its elements a thread by the wider of the input's and the accumulator's itemsize
# (at least one 16-byte load), and the iterations from a tile's total to its scan.
# Measured on an H100, GPU time of torch.cumsum over this kernel's (torch's int32 scan
# accumulates in int64), at 2**18, 2**20, 2**22, 2**24, 2**26: float32 1.14, 0.97, 0.86,
# 1.16, 1.15; float64 0.87, 0.69, 0.99, 1.04, 1.04; int32 1.85, 1.86, 3.14, 3.33, 3.38;
# int64 0.87, 0.72, 1.03, 1.09, 1.09; complex64 1.41, 1.25, 1.75, 2.03, 2.09; complex128
# 1.30, 1.40, 1.82, 2.09, 2.15. With 992 threads, 2 blocks an SM (1 for 16 bytes), the
# kernel of the measurements below: float32 0.91, 0.86, 0.79, 1.10, 1.16; float64 0.82,
# 0.68, 0.93, 1.00, 1.02; int64 0.81, 0.70, 0.94, 1.02, 1.05; complex64 1.32, 1.26, 1.60,
# 1.88, 1.98; complex128 1.20, 1.39, 1.67, 2.07, 2.21. 480 threads, 4 an SM, for 4 bytes:
# float32 1.08, 0.92, 0.85, 1.15, 1.17; 224, 8 an SM, for 8 bytes: float64 0.93, 0.66,
# 0.99, 1.04, 1.02; for 16 bytes, 4 an SM: complex128 1.33, 1.37, 1.62, 1.82, 1.87; 96, 16
# an SM: float64 0.85, 0.61, 0.82, 0.81 (to 2**24). Measured on an H100 with 992 threads,
# GPU time of torch.cumsum (in the same dtype) over this kernel's at 2**26, float32,
# float64, int32, int64, complex64, complex128: 1.21, 1.03, 1.16, 1.06, 2.00, 2.19 (at
# 2**28: 1.19, 1.03); TILE_LAG 1: 1.03, 0.92, 1.01, 0.95, 1.74, 1.81; 3 (one block an SM
# fits): 0.82, 0.75; the same kernel waiting for no carry (wrong sums, the floor of this
# design): 1.20, 1.15. The kernel before, which read each tile twice (the second time from
# L2, an iteration later) and published a group's sum as it read the carry of the group's
# last tile: 1.01, 0.91, 0.99, 0.92, 1.76, 1.88; none of its variants was faster (blocks
# of 480 or 224 threads; 8 float64 a thread; tiles of sub-tiles; a third tile in L2; the
# next tile loaded before the scan of the last, which spilled registers). 8 bytes since the
# twentieth session: 352 threads, 5 an SM (was 480, 4), measured on an H200 at 2**22,
# 2**24, 2**26, float64 0.94-0.96, 1.00-1.01, 1.02-1.03 (480: 0.92-0.94, 0.98-0.99, 1.01;
# 224, 8 an SM: 0.94-0.95, 0.97-0.98, 0.98-0.99; 992, 2 an SM: 0.85-0.86, 0.91, 0.94; 2
# float64 a thread: 0.65-0.78 at every size; TILE_LAG 1: 0.78-0.89); complex64 at 2**22,
# 2**26 1.64, 2.15 (480: 1.66, 2.12), int64 at 2**24 1.03 (1.04).
TILE_BLOCK = {4: 224, 8: 352, 16: 480}
TILE_IPT = {4: 8, 8: 4, 16: 4}
TILE_RESIDENT = {4: 8, 8: 5, 16: 2}
TILE_LAG = 2
# The lag of a launch of at most a tile a block (rows * tiles <= grid), where no next tile
# is read while a carry comes. Measured on an H100, GPU time of torch.cumsum over this
# kernel's, float64 (float32) at 2**18, 2**19, 2**20: 0.83 (0.90), 0.80 (0.96), 0.71 (0.86);
# with TILE_LAG: 0.80 (0.86), 0.77 (0.93), 0.68-0.71 (0.84).
ONE_TILE_LAG = 1
# The one-tile kernel (NAME_one): its block sizes, tried in turn (the first whose tiles a
# row are at most its threads and whose tiles fit the GPU at once, by its register bound
# of ONE_RESIDENT blocks of 1024 threads an SM, takes the launch), and its entries at most.
# Measured on an H200, GPU time of torch.cumsum over xpgpu's at 2**16, 2**18, 2**19,
# 2**20: float64 (the tile kernel) 0.76-0.79, 0.84-0.85, 0.81-0.82, 0.71; float64 1.12-1.18,
# 1.04-1.14, 1.02-1.05, 0.82-0.87; float32 (the tile kernel) 0.93-0.95, 1.04-1.09, 1.04,
# 0.94-0.95; float32 1.22-1.27, 1.24-1.36, 1.15, 1.04; complex64 (the tile kernel)
# 1.01-1.02, 1.28-1.31, 1.20-1.22, 1.12-1.13; complex64 1.55-1.63, 1.68-1.80, 1.57-1.62,
# 1.37-1.43. Taking tile blockIdx.x instead of a drawn one: float64 at 2**20 0.90-0.92;
# with the drawn tile prefetched to L2 while the ticket comes: 0.83; blocks of 1024 only:
# 0.86 (0.90 at 2**16).
ONE_BLOCKS = (256, 512, 1024)
ONE_RESIDENT = {4: 2, 8: 2, 16: 1}
ONE_ENTRIES = 4096
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

// Barrier b of n threads (b = 0: the whole block), wherever each thread meets it.
// Note: the carry warp and the others meet barrier 0 at different places, which
// __syncthreads (barrier.sync.aligned: every thread at the same one) does not allow.
__device__ __forceinline__ void _xpgpu_sync(const int b, const int n) {
    asm volatile("barrier.sync %0, %1;" :: "r"(b), "r"(n) : "memory");
}

// The block scan of v over the block's first n threads (a multiple of 32), which meet
// barrier 1 twice: ex is the thread's exclusive prefix within its warp, then warps[w]
// warp w's exclusive prefix and warps[32] the total (warp 0 returns it as well). A block
// alternates two such warps[] (a thread may still read one while another has moved on).
__device__ __forceinline__ T _xpgpu_block_scan(const T v, T *warps, T &ex, const int n) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const T inc = _xpgpu_warp_scan(v, ex);
    if (lane == 31) warps[warp] = inc;
    _xpgpu_sync(1, n);  // the warps' totals
    T sum = T(0);
    if (warp == 0) {
        T wx;
        const T wi = _xpgpu_warp_scan(lane < n / 32 ? warps[lane] : T(0), wx);
        sum = _xpgpu_shfl<AT>(wi, 31);
        warps[lane] = wx;  // each lane its own word: read above, by itself only
        if (lane == 31) warps[32] = wi;
    }
    _xpgpu_sync(1, n);  // the warps' prefixes
    return sum;
}

// 16 bytes loaded (stored) evict-first ("streaming"): read (written) once, they leave L2
// to what is read again, such as the tile kernel's level entries.
__device__ __forceinline__ uint4 _xpgpu_ldcs(const void *p) {
    uint4 b;
    asm("ld.global.cs.v4.u32 {%0, %1, %2, %3}, [%4];"
        : "=r"(b.x), "=r"(b.y), "=r"(b.z), "=r"(b.w) : "l"(p));
    return b;
}
__device__ __forceinline__ void _xpgpu_stcs(void *p, const uint4 b) {
    asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};"
                 :: "l"(p), "r"(b.x), "r"(b.y), "r"(b.z), "r"(b.w) : "memory");
}

// A thread's I elements from base (16-byte loads where the tile is whole, evict-first
// where CS), zeros past stop.
template <int I, bool CS = false>
__device__ __forceinline__ void _xpgpu_load(const TIN *p, const long long base,
                                            const long long stop, TIN *r) {
    if (VEC && base + I <= stop) {
        #pragma unroll
        for (int u = 0; u < I / NIN; ++u) {
            _xpgpu_vec<TIN, NIN> v;
            if constexpr (CS) *reinterpret_cast<uint4 *>(&v) = _xpgpu_ldcs(p + base + u * NIN);
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
// evict-first where CS).
template <int I, bool CS = false>
__device__ __forceinline__ void _xpgpu_store(T *q, const long long base, const long long stop,
                                             const T pre, const T *s) {
    if (VEC && base + I <= stop) {
        #pragma unroll
        for (int u = 0; u < I / NOUT; ++u) {
            _xpgpu_vec<T, NOUT> v;
            #pragma unroll
            for (int k = 0; k < NOUT; ++k) v.v[k] = pre + s[u * NOUT + k];
            if constexpr (CS) _xpgpu_stcs(q + base + u * NOUT, *reinterpret_cast<uint4 *>(&v));
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
    __shared__ T warps[2][33];
    const TIN *p = x + blockIdx.x * len;
    T *q = out + blockIdx.x * len;
    const long long tile = (long long)blockDim.x * IPT;
    TIN r[IPT];
    _xpgpu_load<IPT>(p, (long long)threadIdx.x * IPT, len, r);
    T carry = T(0);
    for (long long t0 = 0, t = 0; t0 < len; t0 += tile, t ^= 1) {
        const long long base = t0 + (long long)threadIdx.x * IPT;
        T s[IPT], ex;
        _xpgpu_running<IPT>(r, s);
        if (t0 + tile < len) _xpgpu_load<IPT>(p, base + tile, len, r);
        _xpgpu_block_scan(s[IPT - 1], warps[t], ex, blockDim.x);
        const T pre = carry + (warps[t][threadIdx.x >> 5] + ex);
        carry += warps[t][32];
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

// The group sums that tile i of row `row` (v: its total) completes: where its base-32
// digits d_0 ... d_k are all 31 and a tile follows, it is the last of its group of level
// k + 1 and publishes that group's sum: a butterfly of lane g's entry of level k (g < 31,
// read once current) and, in lane 31, the tile's total (k = 0) or the group sum of level
// k just made. (Tiles and entries are counted in 32 bits: fewer than 2**31 in all.)
__device__ __forceinline__ void _xpgpu_sums(T v, unsigned long long *words,
                                            const unsigned int epoch, const unsigned int i,
                                            const unsigned int row, const unsigned int rows,
                                            const unsigned int tiles) {
    const int lane = threadIdx.x & 31;
    unsigned int off = 0u, n = tiles;
    #pragma unroll
    for (int k = 0; k + 1 < LEVELS; ++k) {
        const unsigned int j = i >> (5 * (k + 1));
        if (((i >> (5 * k)) & 31) != 31 || ((j + 1) << (5 * (k + 1))) >= tiles) return;
        if (lane < 31)
            while (!_xpgpu_get(words + (size_t)(off + row * n + (j << 5) + lane) * NW, epoch, v)) {}
        v = _xpgpu_warp_sum(v);
        off += rows * n, n = (n + 31) >> 5;
        if (lane == 0) _xpgpu_put(words + (size_t)(off + row * n + j) * NW, v, epoch);
    }
}

// Tile i's carry: lane g reads entry 32 * (i >> 5 (k + 1)) + g of each level k where
// g < d_k (every level's at once, again where not yet current) and adds them from level
// 0 up, then the lanes' sums are added by a butterfly.
__device__ __forceinline__ T _xpgpu_carry(const unsigned long long *words,
                                          const unsigned int epoch, const unsigned int i,
                                          const unsigned int row, const unsigned int rows,
                                          const unsigned int tiles) {
    const int lane = threadIdx.x & 31;
    const unsigned long long *w[LEVELS];
    unsigned int wait = 0u, off = 0u, n = tiles;
    T y[LEVELS];
    #pragma unroll
    for (int k = 0; k < LEVELS; ++k) {
        w[k] = words + (size_t)(off + row * n + ((i >> (5 * (k + 1))) << 5) + lane) * NW;
        if (lane < ((i >> (5 * k)) & 31)) wait |= 1u << k;
        off += rows * n, n = (n + 31) >> 5;
        y[k] = T(0);
    }
    while (wait) {
        unsigned long long u[LEVELS][NW];
        #pragma unroll
        for (int k = 0; k < LEVELS; ++k)
            #pragma unroll
            for (int p = 0; p < NW; ++p)
                u[k][p] = wait >> k & 1u ? ((const volatile unsigned long long *)w[k])[p] : 0ull;
        #pragma unroll
        for (int k = 0; k < LEVELS; ++k) {
            _xpgpu_bits b;
            bool current = wait >> k & 1u;
            #pragma unroll
            for (int p = 0; p < NW; ++p)
                current &= (unsigned int)(u[k][p] >> 32) == epoch, b.u[p] = (unsigned int)u[k][p];
            if (current) y[k] = b.v, wait &= ~(1u << k);
        }
    }
    T c = y[0];
    #pragma unroll
    for (int k = 1; k < LEVELS; ++k) c += y[k];
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

// A tile's span: the thread's first element and the end of the tile's part of its row,
// from the tile's number t (n tiles a row of len elements, tiles of `tile`).
struct _xpgpu_span { long long base, stop; };
__device__ __forceinline__ _xpgpu_span _xpgpu_at(const unsigned int t, const unsigned int n,
                                                 const long long len, const long long tile) {
    const unsigned int row = t / n, i = t - row * n;
    const long long first = row * len + i * tile;
    return {first + threadIdx.x * TIPT, first + min(tile, len - i * tile)};
}

// A thread's TIPT elements, as NC 16-byte chunks: chunk u of thread t of stage slot s is
// at (s * NC + u) * TB + t of the shared memory (conflict-free, each thread its own).
union _xpgpu_part { TIN r[TIPT]; uint4 c[NC]; __device__ _xpgpu_part() {} };

// Tiles, staged in shared memory: G blocks (as many as are resident) of TB threads of
// TIPT elements and a carry warp draw tiles in turn (`tiles` a row, `total` in all; each
// block draws once past the last: total + G draws a launch). In iteration j the TB
// threads read the block's tile d_j (once, evict-first), keep it in shared memory (slot
// j % (LAG + 1)) and publish its total, while the carry warp draws d_{j+1}, publishes
// the group sums that d_{j-1} completes and reads the carry of d_{j-lag} (the totals and
// group sums of the tiles drawn before it, mostly published by then); then the TB
// threads scan d_{j-lag} from shared memory and store it (lag <= LAG: the slots hold
// it). No block waits holding a tile in registers, a group sum or a carry waits only for
// the totals and group sums of tiles drawn before, published with no wait on anything
// later, and the memory moves once.
extern "C" __global__ void BOUNDS NAME(const TIN *__restrict__ x, T *__restrict__ out,
                                       unsigned long long *words, unsigned long long *ticket,
                                       const long long len, const long long tiles,
                                       const long long total, const int lag) {
    extern __shared__ uint4 stage[];
    __shared__ T warps[2][33], carry[2], own[2];  // own: the total of d_j at j % 2
    __shared__ unsigned long long taken[LAG + 2];  // d_j at j % (LAG + 2)
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long tile = (long long)TB * TIPT, draws = total + gridDim.x;
    const unsigned int n = (unsigned int)tiles, rows = (unsigned int)total / n, none = ~0u;
    if (warp == TB / 32 && lane == 0) taken[0] = _xpgpu_draw(ticket, draws);
    _xpgpu_sync(0, TB + 32);  // the first ticket
    const unsigned int epoch = (unsigned int)(taken[0] >> 32) + 1u;  // words start at 0
    for (unsigned int j = 0;; ++j) {
        const unsigned int cur = (unsigned int)taken[j % (LAG + 2)];
        const unsigned int prev = j >= lag ? (unsigned int)taken[(j - lag) % (LAG + 2)] : none;
        const bool has_cur = cur < (unsigned int)total, has_prev = prev < (unsigned int)total;
        if (j >= lag && !has_prev) break;  // the block's draws only grow: none left
        if (warp == TB / 32) {  // the carry warp
            if (lane == 0)
                taken[(j + 1) % (LAG + 2)] = has_cur ? _xpgpu_draw(ticket, draws) : ~0ull;
            const unsigned int last = j ? (unsigned int)taken[(j - 1) % (LAG + 2)] : none;
            if (last < (unsigned int)total)
                _xpgpu_sums(own[(j - 1) & 1], words, epoch, last % n, last / n, rows, n);
            const unsigned int i = prev % n;
            const T cy = has_prev && i ? _xpgpu_carry(words, epoch, i, prev / n, rows, n) : T(0);
            if (lane == 0) carry[j & 1] = cy;
            _xpgpu_sync(0, TB + 32);  // the carry
            continue;
        }
        _xpgpu_part v;
        T s[TIPT], ex;
        if (has_cur) {  // tile d_j: staged, its total published
            const _xpgpu_span at = _xpgpu_at(cur, n, len, tile);
            _xpgpu_load<TIPT, true>(x + at.base, 0, at.stop - at.base, v.r);
            uint4 *slot = stage + (j % (LAG + 1)) * NC * TB + threadIdx.x;
            #pragma unroll
            for (int u = 0; u < NC; ++u) slot[u * TB] = v.c[u];
            _xpgpu_running<TIPT>(v.r, s);
            const T sum = _xpgpu_block_scan(s[TIPT - 1], warps[0], ex, TB);
            if (threadIdx.x == 0 && cur % n + 1 < n) {
                _xpgpu_put(words + (size_t)cur * NW, sum, epoch);  // entry i of level 0
                own[j & 1] = sum;
            }
        }
        _xpgpu_sync(0, TB + 32);  // the carry
        if (has_prev) {  // tile d_{j-lag}: scanned from shared memory, stored
            const _xpgpu_span at = _xpgpu_at(prev, n, len, tile);
            const uint4 *slot = stage + (j - lag) % (LAG + 1) * NC * TB + threadIdx.x;
            #pragma unroll
            for (int u = 0; u < NC; ++u) v.c[u] = slot[u * TB];
            _xpgpu_running<TIPT>(v.r, s);
            _xpgpu_block_scan(s[TIPT - 1], warps[1], ex, TB);
            _xpgpu_store<TIPT, true>(out + at.base, 0, at.stop - at.base,
                                     carry[j & 1] + (warps[1][warp] + ex), s);
        }
    }
}

// One tile a block (NAME_one), where the tiles are few (a row's at most blockDim.x, all
// of them at most ONE_ENTRIES): a block draws its tile t from the ticket, reads it into
// registers and scans it; thread 0 publishes the tile's total as entry i of its row and
// thread g < i reads entry g of the row (drawn before: published with no wait); the carry
// is a butterfly of each warp's entries, then one of the warps' sums, and the tile is
// stored: each element read and written once, one block scan, no stage. The entries are
// kept per (device, stream) in ONE_WORDS words (_one_buffer) with the ticket's two words:
// draws and epoch (as the tile kernel's), and the blocks that have finished the launch of
// the last epoch before the words' tag wraps to 0 (a zeroed word's): its last block zeroes
// the words, so no word written 2**32 launches before can pass for current.
extern "C" __global__ void __launch_bounds__(1024, ONE_RESIDENT)
NAME_one(const TIN *__restrict__ x, T *__restrict__ out, unsigned long long *words,
         unsigned long long *ticket, const long long len, const long long tiles,
         const long long total) {
    __shared__ T warps[33], sums[32];
    __shared__ unsigned long long taken;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (threadIdx.x == 0) taken = _xpgpu_draw(ticket, total);
    __syncthreads();
    const unsigned int t = (unsigned int)taken, n = (unsigned int)tiles, row = t / n;
    const unsigned int i = t - row * n, epoch = (unsigned int)(taken >> 32) + 1u;
    const long long tile = (long long)blockDim.x * TIPT;
    const long long first = row * len + i * tile, base = first + threadIdx.x * TIPT;
    const long long stop = first + min(tile, len - i * tile) - base;
    TIN r[TIPT];
    T s[TIPT], ex;
    _xpgpu_load<TIPT, true>(x + base, 0, stop, r);
    _xpgpu_running<TIPT>(r, s);
    const T sum = _xpgpu_block_scan(s[TIPT - 1], warps, ex, blockDim.x);
    if (threadIdx.x == 0 && i + 1 < n) _xpgpu_put(words + (size_t)t * NW, sum, epoch);
    T c = T(0);
    if (threadIdx.x < i)
        while (!_xpgpu_get(words + (size_t)(t - i + threadIdx.x) * NW, epoch, c)) {}
    c = _xpgpu_warp_sum(c);
    if (lane == 0) sums[warp] = c;
    __syncthreads();
    c = _xpgpu_warp_sum(lane < (int)(blockDim.x >> 5) ? sums[lane] : T(0));
    _xpgpu_store<TIPT, true>(out + base, 0, stop, c + (warps[warp] + ex), s);
    if (epoch == ~0u) {  // the last epoch: the launch's last block zeroes the words
        __threadfence();
        if (threadIdx.x == 0) taken = atomicAdd(ticket + 1, 1ull);
        __syncthreads();
        if ((long long)taken == total - 1) {
            for (int w = threadIdx.x; w < ONE_WORDS; w += blockDim.x) words[w] = 0ull;
            if (threadIdx.x == 0) ticket[0] = 0ull, ticket[1] = 0ull;  // the next tag: 1
        }
    }
}
"""

# By (device, stream): [entries, launches, ticket, words] of the tile kernel (_buffers) and
# (words, ticket) of the one-tile kernel (_one_buffers); launches on one stream run in
# order.
_buffers: dict[Any, Any] = {}
_one_buffers: dict[Any, Any] = {}


def _ipt(dtype: numpy.dtype, acc: numpy.dtype) -> int:
    """Elements a thread of the rows kernel (ROWS_IPT), at least one 16-byte load."""
    return max(ROWS_IPT[max(4, dtype.itemsize, acc.itemsize)], 16 // dtype.itemsize)


def _tile_block(acc: numpy.dtype) -> int:
    """The tile kernel's threads a block besides its carry warp (TILE_BLOCK)."""
    return TILE_BLOCK[max(4, acc.itemsize)]


def _tile_ipt(dtype: numpy.dtype, acc: numpy.dtype) -> int:
    """Elements a thread of the tile kernel (TILE_IPT), at least one 16-byte load."""
    return max(TILE_IPT[max(4, dtype.itemsize, acc.itemsize)], 16 // dtype.itemsize)


@_r.Kernels
def _kernels(dtype: numpy.dtype, acc: numpy.dtype, vec: bool, device: int) -> Any:
    """The tile kernel, the rows kernel, the tile kernel's shared memory (its stage) and
    grid (as many blocks as are resident; 0 where the stage does not fit), the one-tile
    kernel and its resident blocks by block size (_one_block)."""
    name = f"xpgpu_cumsum_{dtype.kind}{dtype.itemsize}_{acc.kind}{acc.itemsize}_{int(vec)}"
    ipt, block = _tile_ipt(dtype, acc), _tile_block(acc)
    resident = TILE_RESIDENT[max(4, acc.itemsize)]
    src = (f"typedef {_scalar.get_typename(dtype)} TIN;\n"
           f"typedef {_scalar.get_typename(acc)} T;\n#define VEC {int(vec)}\n"
           f"#define IPT {_ipt(dtype, acc)}\n#define TIPT {ipt}\n"
           f"#define NIN {16 // dtype.itemsize}\n#define NOUT {16 // acc.itemsize}\n"
           f"#define NC {ipt * dtype.itemsize // 16}\n#define NW {acc.itemsize // 4}\n"
           f"#define LEVELS {LEVELS}\n#define TB {block}\n#define LAG {TILE_LAG}\n"
           f"#define BOUNDS __launch_bounds__({block + 32}, {resident})\n"
           f"#define ONE_RESIDENT {ONE_RESIDENT[max(4, acc.itemsize)]}\n"
           f"#define ONE_WORDS {4 * ONE_ENTRIES}\n"
           + _SOURCE.replace("NAME", name))
    tiled, rows, one = _r.functions(src, name, f"{name}_rows", f"{name}_one")
    stage = (TILE_LAG + 1) * block * ipt * dtype.itemsize
    driver = cupy.cuda.driver
    try:
        driver.funcSetAttribute(
            tiled.ptr, driver.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, stage)
        fit = driver.occupancyMaxActiveBlocksPerMultiprocessor(
            tiled.ptr, block + 32, stage)
    except driver.CUDADriverError:
        fit = 0  # more than a block's shared memory
    ones = {b: driver.occupancyMaxActiveBlocksPerMultiprocessor(one.ptr, b, 0) * _r._sms(device)
            for b in (32, 64, 128, 256, 512, 1024)}
    return tiled, rows, stage, min(fit, resident) * _r._sms(device), one, ones


def _one_block(ones: dict[int, int], length: int, ipt: int, rows: int) -> int:
    """The one-tile kernel's threads a block for ``rows`` rows of ``length`` (ONE_BLOCKS),
    or 0 where its tiles are too many."""
    for b in ONE_BLOCKS:
        tiles = -(-length // (b * ipt))
        if 1 < tiles <= b and rows * tiles <= min(ones.get(b, 0), ONE_ENTRIES):
            return b
    return 0


def _lag(total: int, grid: int) -> int:
    """The tile kernel's lag (iterations from a tile's total to its scan) for ``total``
    tiles on ``grid`` blocks."""
    return ONE_TILE_LAG if total <= grid else TILE_LAG


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


def _one_buffer(device: int) -> tuple[Any, Any]:
    """The one-tile kernel's entries (ONE_WORDS words) and ticket (2 words) of the
    device's current stream, zeroed when made."""
    key = (device, cupy.cuda.get_current_stream().ptr)
    b = _one_buffers.get(key)
    if b is None:
        words = cupy.zeros(2 + 4 * ONE_ENTRIES, numpy.uint64)
        b = _one_buffers[key] = (words[2:], words[:2])
    return b  # type: ignore[no-any-return]


def _scan(x: Any, axis: Any, dtype: Any) -> Any:
    """xpgpu's cumulative sum of x along its last axis, or None for CuPy's path."""
    if type(x) is not cupy.ndarray:
        return None
    return _r.planned(x, _scan_plan, axis, dtype, THRESHOLD, MIN_SIZE)


def _scan_plan(x: Any, axis: Any, dtype: Any, threshold: int, min_size: int) -> Any:
    if (x.size < min_size or axis is None or axis % x.ndim != x.ndim - 1
            or not x._c_contiguous):
        return None
    acc = x.dtype if dtype is None else numpy.dtype(dtype)
    if not _accumulates(x.dtype.kind, acc, x.dtype):
        return None
    length = x.shape[-1]
    rows = x.size // length
    if rows > 1 and x.size < threshold and acc.kind in "fc":
        return None  # as var's and std's rows (_cupy_reductions.THRESHOLD)
    vec = _r._width(x, length) > 1 and not (length * acc.itemsize) & 15
    device = x.data.device_id
    tiled, by_rows, stage, grid, one, ones = _kernels[x.dtype, acc, vec, device]
    ipt, tb = _tile_ipt(x.dtype, acc), _tile_block(acc)
    tiles = -(-length // (tb * ipt))
    if tiles == 1 or rows >= SPREAD * _r._wave(device):  # a block a row
        threads = -(-length // _ipt(x.dtype, acc))  # short rows: a block of fewer threads
        return _r.plan(by_rows, rows, x.shape, acc, (numpy.int64(length),),
                       block=min(BLOCK, max(32, -(-threads // 32) * 32)))
    b = _one_block(ones, length, ipt, rows)
    if b:
        n = -(-length // (b * ipt))
        return _r.plan(one, rows * n, x.shape, acc, (
            numpy.int64(length), numpy.int64(n), numpy.int64(rows * n)),
            scratch=lambda: _one_buffer(device), block=b)
    if not grid:
        return None  # the stage does not fit the device's shared memory: CuPy's path
    params = (numpy.int64(length), numpy.int64(tiles), numpy.int64(rows * tiles),
              numpy.int32(_lag(rows * tiles, grid)))

    def run(x: Any) -> Any:  # in Python: each launch counts its buffer's epochs
        out = cupy.ndarray(x.shape, acc)
        _, _, ticket, words = _buffer(device, _entries(rows, tiles))
        launch(tiled, min(rows * tiles, grid), tb + 32, (x, out, words, ticket, *params), stage)
        return out

    return run, None


def cumsum(x: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    r = None if out is not None else _scan(x, axis, dtype)
    return cupy.cumsum(x, axis=axis, dtype=dtype, out=out) if r is None else r


# Note: CuPy's cumsum runs its generic scan kernels (about a fifth of PyTorch's throughput
# on an H200); this gives the same integers and floats within the order's rounding.
FIXES: dict[str, Any] = {"cumsum": cumsum}
