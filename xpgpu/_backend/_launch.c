/* Kernel launches on CUDA without CuPy's Python layer (optional, like xpgpu._speedups).
 *
 * CuPy's Function.__call__ wraps each argument in an object (a CArray per array, a CScalar
 * per scalar) before it calls cuLaunchKernel: ~1.3 us a launch above the driver's own cost
 * on an H100 host, where the driver's is ~4 us. Two things here skip that layer for
 * xpgpu's kernels, whose parameters are pointers and scalars only:
 *
 * - `launch(function, grid, block, args[, shared_mem])`: `function(grid, block, args,
 *   shared_mem)` for a CuPy `Function`, with arrays, None and NumPy scalars as arguments.
 * - `dispatch(small, large, cache, namespace, threshold)`: the CUDA backend's element-wise
 *   functions (see _cupy_kernels). `large` is the Python function, the definition: it picks
 *   and compiles a kernel for a key (the device and the operands' dtypes, or the Python
 *   scalars' types) and stores it in `cache`, or None where CuPy's path (`small`) is the
 *   one to take. A call whose key is cached runs that kernel from here; a call that `large`
 *   would hand to `small` (fewer than namespace[threshold] elements, strided, misaligned,
 *   shapes that differ) goes to `small` from here; every other call goes to `large`.
 *
 * - `memset(ptr, word, count, width)`: a fill of 1-, 2- or 4-byte words (cuMemsetD8/16/
 *   32Async), a scalar stored into a contiguous array (_cupy_indexing).
 * - `zeros(shape, dtype)`: cupy.ndarray and a memset of zero bytes (the backend's zeros).
 * - `basic_view(data, key)` and its C function (capsule BASIC_VIEW, for xpgpu._speedups):
 *   data[key] of ints and slices made without CuPy's indexing.
 *
 * libcuda is not linked: cuLaunchKernel is looked up in the library CuPy has loaded, and
 * CuPy's current stream and per-thread context set-up come from its modules' C API
 * capsules (`setup`), so a launch here is the launch CuPy makes, on the same stream.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifndef _WIN32
#include <dlfcn.h>
#endif

typedef int (*cu_launch_t)(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                           unsigned by, unsigned bz, unsigned shared, void *stream,
                           void **params, void **extra);
static cu_launch_t cu_launch;
/* cuLaunchKernelEx's configuration (CUlaunchConfig, CUlaunchAttribute of cuda.h, CUDA 12):
 * here only to allow programmatic dependent launch (attribute 6,
 * CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION). */
typedef struct {
    int id;
    char pad[4];
    union {
        char pad[64];
        int value;
    } value;
} LaunchAttribute;
typedef struct {
    unsigned grid[3], block[3], shared;
    void *stream;
    LaunchAttribute *attributes;
    unsigned count;
} LaunchConfig;
typedef int (*cu_launch_ex_t)(const LaunchConfig *config, void *f, void **params, void **extra);
static cu_launch_ex_t cu_launch_ex; /* NULL before CUDA 12 */
static LaunchAttribute programmatic = {.id = 6, .value = {.value = 1}};
static int (*cu_ctx_current)(void **context); /* cuCtxGetCurrent */
/* cuMemsetD8Async, cuMemsetD16Async, cuMemsetD32Async (NULL where not found) */
typedef int (*cu_memset8_t)(unsigned long long dst, unsigned char value, size_t n, void *stream);
typedef int (*cu_memset16_t)(unsigned long long dst, unsigned short value, size_t n,
                             void *stream);
typedef int (*cu_memset32_t)(unsigned long long dst, unsigned int value, size_t n, void *stream);
static cu_memset8_t cu_memset8;
static cu_memset16_t cu_memset16;
static cu_memset32_t cu_memset32;
static intptr_t (*current_stream)(void); /* cupy_backends.cuda.stream */
static PyObject *(*ensure_context)(void);  /* cupy_backends.cuda.api.runtime */
static PyTypeObject *ndarray_type, *dtype_type;
static PyObject *str_size, *str_shape, *str_contiguous, *str_data, *str_ptr, *str_device_id;
static PyObject *str_dtype, *str_spec, *str_nbytes;
static unsigned long long launches; /* kernels launched from here (for tests) */

#define MAX_ARGS 16

/* One kernel parameter's bytes. */
typedef union {
    void *p;
    long long q;
    double d;
    float f;
    unsigned char b[16];
} Param;

/* The device pointer of a CuPy array (0 on success, -1 with an exception). */
static int
data_pointer(PyObject *a, void **ptr, PyObject **device)
{
    PyObject *data = PyObject_GetAttr(a, str_data);
    if (data == NULL) {
        return -1;
    }
    PyObject *value = PyObject_GetAttr(data, str_ptr);
    if (value != NULL && device != NULL) {
        *device = PyObject_GetAttr(data, str_device_id);
        if (*device == NULL) {
            Py_CLEAR(value);
        }
    }
    Py_DECREF(data);
    if (value == NULL) {
        return -1;
    }
    *ptr = PyLong_AsVoidPtr(value);
    Py_DECREF(value);
    if (*ptr == NULL && PyErr_Occurred()) {
        if (device != NULL) {
            Py_CLEAR(*device);
        }
        return -1;
    }
    return 0;
}

/* CuPy's current stream, after its per-thread context set-up (as CuPy's _launch does
 * first): 0, or -1 with an exception. */
static int
prepare(intptr_t *stream)
{
    PyObject *none = ensure_context();
    if (none == NULL) {
        return -1;
    }
    Py_DECREF(none);
    *stream = current_stream();
    return *stream == -1 && PyErr_Occurred() ? -1 : 0;
}

/* The launch on `stream`: 0, or the driver's error. `dependent`: a kernel that waits for
 * the work before it itself (griddepcontrol.wait, _cupy_kernels), launched so that the
 * GPU may start it before that work ends (programmatic dependent launch, compute
 * capability 9.0 and later: the launch's latency overlaps the kernel before). */
static int
run_on(intptr_t stream, void *function, unsigned grid[3], unsigned block[3], unsigned shared,
       void **params, int dependent)
{
    int status;
    if (dependent && cu_launch_ex != NULL) {
        LaunchConfig config = {{grid[0], grid[1], grid[2]}, {block[0], block[1], block[2]},
                               shared, (void *)stream, &programmatic, 1};
        status = cu_launch_ex(&config, function, params, NULL);
    }
    else {
        status = cu_launch(function, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                           shared, (void *)stream, params, NULL);
    }
    launches += status == 0;
    return status;
}

/* cuLaunchKernel on CuPy's current stream: 0, -1 with an exception, or the driver's error. */
static int
run(void *function, unsigned grid[3], unsigned block[3], unsigned shared, void **params)
{
    intptr_t stream;
    return prepare(&stream) ? -1 : run_on(stream, function, grid, block, shared, params, 0);
}

/* ---- results ---------------------------------------------------------------------------
 *
 * The result of a kernel launched from here (element-wise functions, plans): a new
 * cupy.ndarray(shape, dtype), or one of the last OUTPUTS results made here that nothing
 * references any more, of the same shape and dtype, on the same context and stream. A
 * result's cupy.ndarray costs about 2 us on an H200 host (half of it the memory pool,
 * half the array), a third of an element-wise call. As NumPy reuses a temporary that
 * nothing else references (its elision of temporaries), the test is by reference counts:
 * only the slot holds the array, its MemoryPointer and the memory, as when it was made,
 * and no weak reference names it; a view holds its base, an exported capsule or a
 * consumer of __cuda_array_interface__ the array, `data + offset` the memory. The memory
 * then is as free as CuPy's pool would hold it, for the same stream. Results above
 * OUTPUT_BYTES are not kept (their kernel costs more than the allocation), so at most
 * OUTPUTS * OUTPUT_BYTES of memory stays held after its arrays are gone, and it is let go
 * of where an allocation here finds the pool out of memory. */
#define OUTPUTS 4
#define OUTPUT_BYTES (16 << 20)
typedef struct {
    PyObject *array, *data, *mem;
    Py_ssize_t data_refs, mem_refs;
    intptr_t stream;
    void *context;
} Output;
static Output outputs[OUTPUTS];
static unsigned outputs_next, outputs_kept = OUTPUTS;
static unsigned long long outputs_reused; /* for tests */
static PyObject *str_mem;

static int
unreferenced(const Output *o)
{
    PyObject *a = o->array;
    if (Py_REFCNT(a) != 1 || Py_REFCNT(o->data) != o->data_refs
        || Py_REFCNT(o->mem) != o->mem_refs) {
        return 0;
    }
    Py_ssize_t offset = Py_TYPE(a)->tp_weaklistoffset;
    return offset > 0 && *(PyObject **)((char *)a + offset) == NULL;
}

/* 1 where `a` has this shape and dtype and is C-contiguous, 0 where not, -1 on an error. */
static int
same_layout(PyObject *a, PyObject *shape, PyObject *dtype)
{
    PyObject *d = PyObject_GetAttr(a, str_dtype), *s = NULL, *c = NULL;
    int same = d == NULL ? -1 : d == dtype ? 1 : PyObject_RichCompareBool(d, dtype, Py_EQ);
    if (same == 1) {
        s = PyObject_GetAttr(a, str_shape);
        same = s == NULL ? -1 : PyObject_RichCompareBool(s, shape, Py_EQ);
    }
    if (same == 1) {
        c = PyObject_GetAttr(a, str_contiguous);
        same = c == NULL ? -1 : c == Py_True;
    }
    Py_XDECREF(d);
    Py_XDECREF(s);
    Py_XDECREF(c);
    return same;
}

/* Keep `out` (made on `stream`, `context`) in the next slot, where it is small enough. */
static void
keep(PyObject *out, intptr_t stream, void *context)
{
    PyObject *value = PyObject_GetAttr(out, str_nbytes);
    Py_ssize_t nbytes = value == NULL ? -1 : PyLong_AsSsize_t(value);
    Py_XDECREF(value);
    PyObject *data = nbytes < 0 || nbytes > OUTPUT_BYTES ? NULL : PyObject_GetAttr(out, str_data);
    PyObject *mem = data == NULL ? NULL : PyObject_GetAttr(data, str_mem);
    if (mem == NULL) {
        PyErr_Clear(); /* not kept: a new array next time */
        Py_XDECREF(data);
        return;
    }
    Output old = outputs[outputs_next];
    outputs[outputs_next] = (Output){Py_NewRef(out), data, mem, Py_REFCNT(data),
                                     Py_REFCNT(mem), stream, context};
    outputs_next = (outputs_next + 1) % outputs_kept;
    Py_XDECREF(old.array); /* last: its memory may go back to the pool now */
    Py_XDECREF(old.data);
    Py_XDECREF(old.mem);
}

/* Let go of the arrays kept, keeping `kept` from now on. */
static void
let_go(unsigned kept)
{
    Output old[OUTPUTS];
    memcpy(old, outputs, sizeof outputs);
    memset(outputs, 0, sizeof outputs);
    outputs_kept = kept;
    outputs_next = 0;
    for (int i = 0; i < OUTPUTS; i++) {
        Py_XDECREF(old[i].array);
        Py_XDECREF(old[i].data);
        Py_XDECREF(old[i].mem);
    }
}

/* A new cupy.ndarray(shape, dtype); where the memory pool is out of memory (a MemoryError)
 * and arrays are kept, they are let go of (their memory back to the pool) and it is asked
 * again. */
static PyObject *
new_array(PyObject *shape, PyObject *dtype)
{
    PyObject *operands[2] = {shape, dtype};
    PyObject *out = PyObject_Vectorcall((PyObject *)ndarray_type, operands, 2, NULL);
    /* (slot 0, the first filled, is empty only when none is kept) */
    if (out == NULL && outputs[0].array != NULL && PyErr_ExceptionMatches(PyExc_MemoryError)) {
        PyErr_Clear();
        let_go(outputs_kept);
        out = PyObject_Vectorcall((PyObject *)ndarray_type, operands, 2, NULL);
    }
    return out;
}

static PyObject *
output(PyObject *shape, PyObject *dtype, intptr_t stream)
{
#ifdef Py_GIL_DISABLED
    /* Reference counts are no proof of being alone without the GIL. */
    return new_array(shape, dtype);
#else
    void *context = NULL;
    if (outputs_kept == 0 || cu_ctx_current == NULL || cu_ctx_current(&context) != 0) {
        return new_array(shape, dtype);
    }
    for (unsigned i = 0; i < outputs_kept; i++) {
        Output *o = &outputs[i];
        if (o->array != NULL && o->stream == stream && o->context == context
            && unreferenced(o)) {
            int same = same_layout(o->array, shape, dtype);
            if (same < 0) {
                return NULL;
            }
            if (same) {
                outputs_reused++;
                return Py_NewRef(o->array);
            }
        }
    }
    PyObject *out = new_array(shape, dtype);
    if (out != NULL) {
        keep(out, stream, context);
    }
    return out;
#endif
}

/* outputs(kept): how many results were reused; `kept` (0 to OUTPUTS, -1 to leave it) the
 * slots in use from now on (0: none); setting it lets go of the arrays kept. */
static PyObject *
outputs_setup(PyObject *module, PyObject *arg)
{
    long kept = PyLong_AsLong(arg);
    if (kept == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (kept < -1 || kept > OUTPUTS) {
        return PyErr_Format(PyExc_ValueError, "outputs: kept is -1 or 0 to %d", OUTPUTS);
    }
    if (kept >= 0) {
        let_go((unsigned)kept);
    }
    return PyLong_FromUnsignedLongLong(outputs_reused);
}

/* A grid or block: an int or a tuple of at most three ints, each at least 1 (as CuPy's
 * Function.__call__); 0, or 1 where it is neither. */
static int
dims(PyObject *value, unsigned out[3])
{
    out[0] = out[1] = out[2] = 1;
    if (PyLong_Check(value)) {
        long v = PyLong_AsLong(value);
        out[0] = v < 1 ? 1 : (unsigned)v;
        return v == -1 && PyErr_Occurred() ? (PyErr_Clear(), 1) : 0;
    }
    if (!PyTuple_Check(value) || PyTuple_GET_SIZE(value) > 3) {
        return 1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(value); i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(value, i));
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 1;
        }
        out[i] = v < 1 ? 1 : (unsigned)v;
    }
    return 0;
}

static PyObject *
as_tuple(PyObject *value)
{
    return PyTuple_Check(value) ? Py_NewRef(value) : PyTuple_Pack(1, value);
}

static PyObject *
launch(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 4 || nargs > 5) {
        PyErr_SetString(PyExc_TypeError,
                        "launch(function, grid, block, args[, shared_mem]) takes 4 or 5 arguments");
        return NULL;
    }
    unsigned grid[3], block[3];
    unsigned long shared = nargs == 5 ? PyLong_AsUnsignedLong(args[4]) : 0;
    if (shared == (unsigned long)-1 && PyErr_Occurred()) {
        return NULL;
    }
    if (cu_launch == NULL || dims(args[1], grid) || dims(args[2], block)
        || !PyTuple_Check(args[3]) || PyTuple_GET_SIZE(args[3]) > MAX_ARGS) {
        goto python;
    }
    Param values[MAX_ARGS];
    void *params[MAX_ARGS];
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args[3]); i++) {
        PyObject *a = PyTuple_GET_ITEM(args[3], i);
        params[i] = &values[i];
        if (a == Py_None) {
            values[i].p = NULL;
        }
        else if (Py_TYPE(a) == ndarray_type) {
            if (data_pointer(a, &values[i].p, NULL)) {
                return NULL;
            }
        }
        else if (PyObject_CheckBuffer(a)) {
            /* A NumPy scalar: its bytes, as CuPy's CScalar passes them. */
            Py_buffer view;
            if (PyObject_GetBuffer(a, &view, PyBUF_SIMPLE)) {
                PyErr_Clear();
                goto python;
            }
            int fits = view.len <= (Py_ssize_t)sizeof(Param);
            if (fits) {
                memcpy(values[i].b, view.buf, view.len);
            }
            PyBuffer_Release(&view);
            if (!fits) {
                goto python;
            }
        }
        else {
            goto python;
        }
    }
    PyObject *ptr = PyObject_GetAttr(args[0], str_ptr);
    if (ptr == NULL) {
        return NULL;
    }
    void *function = PyLong_AsVoidPtr(ptr);
    Py_DECREF(ptr);
    if (function == NULL && PyErr_Occurred()) {
        return NULL;
    }
    int status = run(function, grid, block, (unsigned)shared, params);
    if (status == 0) {
        Py_RETURN_NONE;
    }
    if (status < 0) {
        return NULL;
    }
    /* A driver error: CuPy's launch raises it as CuPy does (or makes the launch). */
python:;
    PyObject *g = as_tuple(args[1]), *b = g == NULL ? NULL : as_tuple(args[2]);
    PyObject *result = b == NULL ? NULL : PyObject_CallFunction(
        args[0], "OOOk", g, b, args[3], shared);
    Py_XDECREF(g);
    Py_XDECREF(b);
    return result;
}

/* A complex number's parts as the parameter of NumPy type `code`: complex128 ('D') as they
 * are, complex64 ('F') each rounded to float as NumPy rounds it; 0 for another type, or
 * where a part overflows (NumPy warns). */
static int
complex_parts(double re, double im, char code, Param *v)
{
    if (code == 'D') {
        double parts[2] = {re, im};
        memcpy(v->b, parts, sizeof parts);
        return 1;
    }
    if (code == 'F') {
        float parts[2] = {(float)re, (float)im};
        memcpy(v->b, parts, sizeof parts);
        return !(isinf(parts[0]) && isfinite(re)) && !(isinf(parts[1]) && isfinite(im));
    }
    return 0;
}

/* A Python scalar as the kernel's parameter of NumPy type `code` (a dtype char), as NumPy
 * converts it (host_scalar in _cupy_fuse): 1, or 0 where it is not one of the exact cases
 * here (the Python path converts it, with NumPy's warnings and errors). */
static int
scalar(PyObject *a, char code, Param *v)
{
    if (PyComplex_CheckExact(a)) {
        Py_complex z = PyComplex_AsCComplex(a);
        return complex_parts(z.real, z.imag, code, v);
    }
    if (PyFloat_CheckExact(a)) {
        double d = PyFloat_AS_DOUBLE(a);
        if (code == 'd') {
            v->d = d;
            return 1;
        }
        if (code == 'f') {
            v->f = (float)d;
            return !(isinf(v->f) && isfinite(d)); /* an overflow: NumPy warns */
        }
        return complex_parts(d, 0.0, code, v);
    }
    if (!PyLong_Check(a)) { /* bool is an int */
        return 0;
    }
    int overflow;
    long long q = PyLong_AsLongLongAndOverflow(a, &overflow);
    if (overflow || (q == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
#define FITS(lo, hi, type)                                                                   \
    if (q < (lo) || q > (hi)) {                                                              \
        return 0;                                                                            \
    }                                                                                        \
    *(type *)v->b = (type)q;                                                                 \
    return 1;
    switch (code) {
    case '?':
        if (!PyBool_Check(a)) {
            return 0;
        }
        FITS(0, 1, unsigned char)
    case 'b': FITS(INT8_MIN, INT8_MAX, int8_t)
    case 'B': FITS(0, UINT8_MAX, uint8_t)
    case 'h': FITS(INT16_MIN, INT16_MAX, int16_t)
    case 'H': FITS(0, UINT16_MAX, uint16_t)
    case 'i': FITS(INT32_MIN, INT32_MAX, int32_t)
    case 'I': FITS(0, UINT32_MAX, uint32_t)
    case 'l': FITS(LONG_MIN, LONG_MAX, long)
    case 'L': FITS(0, ULONG_MAX < LLONG_MAX ? (long long)ULONG_MAX : LLONG_MAX, unsigned long)
    case 'q': FITS(LLONG_MIN, LLONG_MAX, long long)
    case 'Q': FITS(0, LLONG_MAX, unsigned long long)
    /* integers that a double (float) holds exactly */
    case 'd': FITS(-(1LL << 53), 1LL << 53, double)
    case 'f': FITS(-(1LL << 24), 1LL << 24, float)
    case 'D': return q >= -(1LL << 53) && q <= 1LL << 53 && complex_parts((double)q, 0, code, v);
    case 'F': return q >= -(1LL << 24) && q <= 1LL << 24 && complex_parts((double)q, 0, code, v);
    }
#undef FITS
    return 0;
}

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *small, *large, *cache, *namespace, *threshold;
} Dispatch;

/* The kernel of a cached spec (fptr, n_vec, block, out dtype, codes) on the operands. */
static PyObject *
run_spec(PyObject *spec, PyObject *const *args, Py_ssize_t nargs, Param *values,
         PyObject *shape, Py_ssize_t size)
{
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != 6
        || !PyBytes_Check(PyTuple_GET_ITEM(spec, 4))
        || PyBytes_GET_SIZE(PyTuple_GET_ITEM(spec, 4)) != nargs) {
        PyErr_SetString(PyExc_TypeError,
                        "dispatch: a kernel's spec is not (ptr, n, block, dtype, codes, dependent)");
        return NULL;
    }
    int dependent = PyTuple_GET_ITEM(spec, 5) == Py_True;
    void *function = PyLong_AsVoidPtr(PyTuple_GET_ITEM(spec, 0));
    Py_ssize_t n_vec = PyLong_AsSsize_t(PyTuple_GET_ITEM(spec, 1));
    long block = PyLong_AsLong(PyTuple_GET_ITEM(spec, 2));
    if (PyErr_Occurred() || n_vec < 1 || block < 1) {
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);
    }
    const char *codes = PyBytes_AS_STRING(PyTuple_GET_ITEM(spec, 4));
    void *params[MAX_ARGS + 2];
    int k = 0;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        if (codes[i] == '-') {
            continue; /* not a parameter (astype's dtype) */
        }
        if (codes[i] != 'a' && !scalar(args[i], codes[i], &values[i])) {
            return Py_NewRef(Py_None);
        }
        params[k++] = &values[i];
    }
    intptr_t stream;
    PyObject *out = prepare(&stream) ? NULL : output(shape, PyTuple_GET_ITEM(spec, 3), stream);
    if (out == NULL) {
        return NULL;
    }
    Param po, n;
    n.q = size;
    if (data_pointer(out, &po.p, NULL)) {
        Py_DECREF(out);
        return NULL;
    }
    params[k++] = &po;
    params[k++] = &n;
    Py_ssize_t blocks = (size / n_vec + block - 1) / block;
    unsigned grid[3] = {blocks > 0 ? (unsigned)blocks : 1, 1, 1}, threads[3] = {block, 1, 1};
    int status = run_on(stream, function, grid, threads, 0, params, dependent);
    if (status != 0) {
        Py_DECREF(out);
        return Py_NewRef(Py_None); /* a driver error: the Python path reports it */
    }
    return out;
}

static PyObject *
Dispatch_vectorcall(Dispatch *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (cu_launch == NULL || kwnames != NULL || nargs < 1 || nargs > MAX_ARGS) {
        goto large;
    }
    PyObject *limit = PyDict_GetItemWithError(self->namespace, self->threshold);
    if (limit == NULL) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        goto large;
    }
    Py_ssize_t threshold = PyLong_AsSsize_t(limit);
    if (threshold == -1 && PyErr_Occurred()) {
        return NULL;
    }
    PyObject *key = PyTuple_New(nargs + 1), *shape = NULL, *result = NULL;
    if (key == NULL) {
        return NULL;
    }
    Param values[MAX_ARGS];
    Py_ssize_t size = -1;
    enum { SMALL, LARGE, DONE } path = LARGE;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyObject *a = args[i], *item;
        if (Py_TYPE(a) == ndarray_type) {
            /* _cupy_kernels._generic's tests, in its order */
            PyObject *value;
            if (shape == NULL) {
                value = PyObject_GetAttr(a, str_size);
                size = value == NULL ? -1 : PyLong_AsSsize_t(value);
                Py_XDECREF(value);
                if (size == -1 && PyErr_Occurred()) {
                    goto error;
                }
                if (size < threshold) {
                    path = SMALL;
                    goto done;
                }
                shape = PyObject_GetAttr(a, str_shape);
                if (shape == NULL) {
                    goto error;
                }
            }
            else {
                value = PyObject_GetAttr(a, str_shape);
                int same = value == NULL ? -1 : PyObject_RichCompareBool(value, shape, Py_EQ);
                Py_XDECREF(value);
                if (same < 0) {
                    goto error;
                }
                if (!same) {
                    path = SMALL;
                    goto done;
                }
            }
            value = PyObject_GetAttr(a, str_contiguous);
            if (value == NULL) {
                goto error;
            }
            Py_DECREF(value);
            PyObject *device = NULL;
            if (value != Py_True) {
                path = SMALL;
                goto done;
            }
            if (data_pointer(a, &values[i].p, PyTuple_GET_ITEM(key, 0) ? NULL : &device)) {
                goto error;
            }
            if (device != NULL) {
                PyTuple_SET_ITEM(key, 0, device);
            }
            if ((uintptr_t)values[i].p & 15) {
                path = SMALL;
                goto done;
            }
            item = PyObject_GetAttr(a, str_dtype);
            if (item == NULL) {
                goto error;
            }
        }
        else if (PyFloat_CheckExact(a) || PyLong_CheckExact(a) || PyBool_Check(a)
                 || PyComplex_CheckExact(a)) {
            item = Py_NewRef((PyObject *)Py_TYPE(a));
        }
        else if (PyObject_TypeCheck(a, dtype_type)) {
            item = Py_NewRef(a);
        }
        else {
            goto done; /* None, another type: the Python function decides */
        }
        PyTuple_SET_ITEM(key, i + 1, item);
    }
    if (shape == NULL) {
        goto done;
    }
    PyObject *kernel = PyDict_GetItemWithError(self->cache, key);
    if (kernel == NULL) {
        if (PyErr_Occurred()) {
            goto error;
        }
        goto done; /* not compiled yet: the Python function compiles it */
    }
    if (kernel == Py_None) {
        path = SMALL;
        goto done;
    }
    PyObject *spec = PyObject_GetAttr(kernel, str_spec);
    if (spec == NULL) {
        goto error;
    }
    result = run_spec(spec, args, nargs, values, shape, size);
    Py_DECREF(spec);
    if (result == Py_None) {
        Py_CLEAR(result); /* a case the Python function converts or reports */
    }
    else {
        path = DONE;
    }
done:
    Py_DECREF(key);
    Py_XDECREF(shape);
    if (path == DONE) {
        return result;
    }
    if (path == SMALL) {
        return PyObject_Vectorcall(self->small, args, nargsf, kwnames);
    }
large:
    return PyObject_Vectorcall(self->large, args, nargsf, kwnames);
error:
    Py_DECREF(key);
    Py_XDECREF(shape);
    return NULL;
}

static PyObject *
Dispatch_call(Dispatch *self, PyObject *args, PyObject *kwargs)
{
    return PyObject_Call(self->large, args, kwargs);
}

/* Every other attribute (__name__, ufunc for fuse ...) is the large function's. */
static PyObject *
Dispatch_getattro(Dispatch *self, PyObject *name)
{
    PyObject *value = PyObject_GenericGetAttr((PyObject *)self, name);
    if (value == NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) {
        PyErr_Clear();
        return PyObject_GetAttr(self->large, name);
    }
    return value;
}

static int
Dispatch_traverse(Dispatch *self, visitproc visit, void *arg)
{
    Py_VISIT(self->small);
    Py_VISIT(self->large);
    Py_VISIT(self->cache);
    Py_VISIT(self->namespace);
    Py_VISIT(self->threshold);
    return 0;
}

static int
Dispatch_clear(Dispatch *self)
{
    Py_CLEAR(self->small);
    Py_CLEAR(self->large);
    Py_CLEAR(self->cache);
    Py_CLEAR(self->namespace);
    Py_CLEAR(self->threshold);
    return 0;
}

static void
Dispatch_dealloc(Dispatch *self)
{
    PyObject_GC_UnTrack(self);
    Dispatch_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
Dispatch_repr(Dispatch *self)
{
    return PyObject_Repr(self->large);
}

static PyTypeObject DispatchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "xpgpu._backend._launch.Dispatch",
    .tp_basicsize = sizeof(Dispatch),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(Dispatch, vectorcall),
    .tp_call = (ternaryfunc)Dispatch_call,
    .tp_getattro = (getattrofunc)Dispatch_getattro,
    .tp_repr = (reprfunc)Dispatch_repr,
    .tp_traverse = (traverseproc)Dispatch_traverse,
    .tp_clear = (inquiry)Dispatch_clear,
    .tp_dealloc = (destructor)Dispatch_dealloc,
};

static PyObject *
dispatch(PyObject *module, PyObject *args)
{
    PyObject *small, *large, *cache, *namespace, *threshold;
    if (!PyArg_ParseTuple(args, "OOO!O!U:dispatch", &small, &large, &PyDict_Type, &cache,
                          &PyDict_Type, &namespace, &threshold)) {
        return NULL;
    }
    Dispatch *self = PyObject_GC_New(Dispatch, &DispatchType);
    if (self == NULL) {
        return NULL;
    }
    self->vectorcall = (vectorcallfunc)Dispatch_vectorcall;
    self->small = Py_NewRef(small);
    self->large = Py_NewRef(large);
    self->cache = Py_NewRef(cache);
    self->namespace = Py_NewRef(namespace);
    self->threshold = Py_NewRef(threshold);
    PyObject_GC_Track(self);
    return (PyObject *)self;
}

/* ---- plans (_cupy_reductions.planned) ------------------------------------------------
 *
 * `planned(x, make, *args)`: the reductions' plans, kept in a dict by the key
 * (make, x.shape, x.dtype, x._c_contiguous, x.data.ptr & 15, x.data.device_id, *args)
 * that the Python function (`miss`, the definition) builds. A cached plan is None (CuPy's
 * path: None is returned), or a pair (run, spec): spec (function pointer, grid, block,
 * the result's shape and dtype, the parameters after x and the result as 16-byte slots,
 * and, where the slots hold a stream's scratch buffers, that stream) is launched from
 * here on a new result; run(x) is called where spec is None or names another stream than
 * the current one. Every other call (no plan yet, an unhashable argument) goes to
 * `miss`. */
static PyObject *plans, *plans_miss;

static PyObject *
plans_setup(PyObject *module, PyObject *args)
{
    PyObject *cache, *miss;
    if (!PyArg_ParseTuple(args, "O!O:planner", &PyDict_Type, &cache, &miss)) {
        return NULL;
    }
    Py_XSETREF(plans, Py_NewRef(cache));
    Py_XSETREF(plans_miss, Py_NewRef(miss));
    Py_RETURN_NONE;
}

/* A spec's launch on x (at x_ptr): the new result, None after a driver error or on
 * another stream than the spec's (the caller then runs the plan's Python, which reports
 * the error or takes that stream's buffers), or NULL with an exception. */
static PyObject *
run_plan(PyObject *spec, void *x_ptr)
{
    Py_ssize_t size = PyTuple_Check(spec) ? PyTuple_GET_SIZE(spec) : 0;
    if ((size != 6 && size != 7) || !PyBytes_Check(PyTuple_GET_ITEM(spec, 5))
        || PyBytes_GET_SIZE(PyTuple_GET_ITEM(spec, 5)) % sizeof(Param)
        || PyBytes_GET_SIZE(PyTuple_GET_ITEM(spec, 5)) > (Py_ssize_t)(MAX_ARGS * sizeof(Param))) {
        PyErr_SetString(PyExc_TypeError,
                        "planned: a spec is not (ptr, grid, block, shape, dtype, params[, stream])");
        return NULL;
    }
    void *function = PyLong_AsVoidPtr(PyTuple_GET_ITEM(spec, 0));
    unsigned long grid = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(spec, 1));
    unsigned long block = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(spec, 2));
    intptr_t stream = size == 7 ? (intptr_t)PyLong_AsVoidPtr(PyTuple_GET_ITEM(spec, 6)) : 0;
    if (PyErr_Occurred()) {
        return NULL;
    }
    intptr_t current;
    if (prepare(&current)) {
        return NULL;
    }
    if (size == 7 && stream != current) {
        Py_RETURN_NONE; /* the slots hold another stream's scratch buffers */
    }
    PyObject *out = output(PyTuple_GET_ITEM(spec, 3), PyTuple_GET_ITEM(spec, 4), current);
    if (out == NULL) {
        return NULL;
    }
    Param values[MAX_ARGS + 2];
    void *params[MAX_ARGS + 2];
    Py_ssize_t n = PyBytes_GET_SIZE(PyTuple_GET_ITEM(spec, 5)) / sizeof(Param);
    values[0].p = x_ptr;
    if (data_pointer(out, &values[1].p, NULL)) {
        Py_DECREF(out);
        return NULL;
    }
    memcpy(values + 2, PyBytes_AS_STRING(PyTuple_GET_ITEM(spec, 5)), n * sizeof(Param));
    for (Py_ssize_t i = 0; i < n + 2; i++) {
        params[i] = &values[i];
    }
    unsigned g[3] = {(unsigned)grid, 1, 1}, b[3] = {(unsigned)block, 1, 1};
    int status = run_on(current, function, g, b, 0, params, 0);
    if (status != 0) {
        Py_DECREF(out);
        return Py_NewRef(Py_None);
    }
    return out;
}

static PyObject *
planned(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (plans == NULL || cu_launch == NULL || nargs < 2 || nargs > MAX_ARGS
        || Py_TYPE(args[0]) != ndarray_type) {
        goto miss;
    }
    PyObject *x = args[0], *device = NULL, *entry = NULL, *result = NULL;
    void *ptr;
    if (data_pointer(x, &ptr, &device)) {
        return NULL;
    }
    PyObject *key = PyTuple_New(nargs + 4);
    if (key == NULL) {
        Py_DECREF(device);
        return NULL;
    }
    PyTuple_SET_ITEM(key, 0, Py_NewRef(args[1]));
    PyTuple_SET_ITEM(key, 5, device);
    PyObject *items[3] = {PyObject_GetAttr(x, str_shape), PyObject_GetAttr(x, str_dtype),
                          PyObject_GetAttr(x, str_contiguous)};
    for (int i = 0; i < 3; i++) {
        PyTuple_SET_ITEM(key, i + 1, items[i]);
    }
    PyObject *align = PyLong_FromLong((long)((uintptr_t)ptr & 15));
    PyTuple_SET_ITEM(key, 4, align);
    if (items[0] == NULL || items[1] == NULL || items[2] == NULL || align == NULL) {
        Py_DECREF(key);
        return NULL;
    }
    for (Py_ssize_t i = 2; i < nargs; i++) {
        PyTuple_SET_ITEM(key, i + 4, Py_NewRef(args[i]));
    }
    entry = PyDict_GetItemWithError(plans, key);
    Py_DECREF(key);
    if (entry == NULL) {
        if (PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_TypeError)) {
                return NULL;
            }
            PyErr_Clear(); /* unhashable: the Python function decides */
        }
        goto miss;
    }
    if (entry == Py_None) {
        Py_RETURN_NONE;
    }
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 2) {
        PyErr_SetString(PyExc_TypeError, "planned: a plan is not None or (run, spec)");
        return NULL;
    }
    Py_INCREF(entry);
    if (PyTuple_GET_ITEM(entry, 1) != Py_None) {
        result = run_plan(PyTuple_GET_ITEM(entry, 1), ptr);
    }
    if (result == Py_None || (result == NULL && !PyErr_Occurred())) {
        Py_XDECREF(result); /* another stream, or a driver error: the plan's Python */
        result = PyObject_CallOneArg(PyTuple_GET_ITEM(entry, 0), x);
    }
    Py_DECREF(entry);
    return result;
miss:
    if (plans_miss == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "planned: planner() was not called");
        return NULL;
    }
    return PyObject_Vectorcall(plans_miss, args, nargs, NULL);
}

/* The C function of a Cython module's C API capsule, checked against its signature. */
static void *
capsule(PyObject *value, const char *signature)
{
    const char *name = PyCapsule_GetName(value);
    /* Cython names a capsule by the C signature (with the exception value, by version) */
    if (name == NULL || strncmp(name, signature, strlen(signature)) != 0) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_ImportError, "setup: a C API of signature '%s', not '%s'",
                         signature, name);
        }
        return NULL;
    }
    return PyCapsule_GetPointer(value, name);
}

static PyObject *
setup(PyObject *module, PyObject *args)
{
    PyObject *ndarray, *dtype, *stream, *context;
    if (!PyArg_ParseTuple(args, "O!O!OO:setup", &PyType_Type, &ndarray, &PyType_Type, &dtype,
                          &stream, &context)) {
        return NULL;
    }
    void *s = capsule(stream, "intptr_t (void)");
    void *c = s == NULL ? NULL : capsule(context, "PyObject *(void)");
    if (c == NULL) {
        return NULL;
    }
    void *f = NULL;
#ifndef _WIN32
    void *lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    f = lib == NULL ? NULL : dlsym(lib, "cuLaunchKernel");
#endif
    if (f == NULL) {
        PyErr_SetString(PyExc_ImportError, "setup: cuLaunchKernel is not loaded");
        return NULL;
    }
    current_stream = (intptr_t (*)(void))s;
    ensure_context = (PyObject * (*)(void)) c;
    Py_XSETREF(ndarray_type, (PyTypeObject *)Py_NewRef(ndarray));
    Py_XSETREF(dtype_type, (PyTypeObject *)Py_NewRef(dtype));
    cu_launch = (cu_launch_t)f;
#ifndef _WIN32
    cu_memset8 = (cu_memset8_t)dlsym(lib, "cuMemsetD8Async");
    cu_memset16 = (cu_memset16_t)dlsym(lib, "cuMemsetD16Async");
    cu_memset32 = (cu_memset32_t)dlsym(lib, "cuMemsetD32Async");
    cu_launch_ex = (cu_launch_ex_t)dlsym(lib, "cuLaunchKernelEx");
    cu_ctx_current = (int (*)(void **))dlsym(lib, "cuCtxGetCurrent");
#endif
    Py_RETURN_NONE;
}

/* memset(ptr, word, count, width): count words of `width` bytes (1, 2 or 4) from the device
 * address ptr set to `word`, on CuPy's current stream: 0, the driver's error, or -1 where
 * the driver's function was not found (nothing done). */
static PyObject *
memset_words(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "memset(ptr, word, count, width) takes 4 arguments");
        return NULL;
    }
    unsigned long long ptr = PyLong_AsUnsignedLongLong(args[0]);
    unsigned long long word = PyLong_AsUnsignedLongLong(args[1]);
    size_t count = PyLong_AsSize_t(args[2]);
    long width = PyLong_AsLong(args[3]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (width != 1 && width != 2 && width != 4) {
        PyErr_SetString(PyExc_ValueError, "memset: width is 1, 2 or 4");
        return NULL;
    }
    if ((width == 1 && cu_memset8 == NULL) || (width == 2 && cu_memset16 == NULL)
        || (width == 4 && cu_memset32 == NULL)) {
        return PyLong_FromLong(-1);
    }
    intptr_t stream;
    if (prepare(&stream)) {
        return NULL;
    }
    int status = width == 1 ? cu_memset8(ptr, (unsigned char)word, count, (void *)stream)
                 : width == 2 ? cu_memset16(ptr, (unsigned short)word, count, (void *)stream)
                              : cu_memset32(ptr, (unsigned int)word, count, (void *)stream);
    return PyLong_FromLong(status);
}

static PyObject *
count(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromUnsignedLongLong(launches);
}

/* zeros(shape, dtype): cupy.ndarray(shape, dtype) set to zero bytes on CuPy's current
 * stream (cuMemsetD32Async, cuMemsetD8Async where the size is not a multiple of 4), as
 * cupy.zeros does without its two Python layers (the function, data.memset_async), which
 * takes over where the driver's memset functions were not found. */
static PyObject *str_memset_async;

static PyObject *
zeros(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "zeros(shape, dtype) takes 2 arguments");
        return NULL;
    }
    PyObject *out = PyObject_Vectorcall((PyObject *)ndarray_type, args, 2, NULL);
    PyObject *value = out == NULL ? NULL : PyObject_GetAttr(out, str_nbytes);
    if (value != NULL && (cu_memset8 == NULL || cu_memset32 == NULL)) {
        PyObject *data = PyObject_GetAttr(out, str_data), *zero = PyLong_FromLong(0);
        PyObject *done = data == NULL || zero == NULL ? NULL : PyObject_CallMethodObjArgs(
            data, str_memset_async, zero, value, NULL);
        Py_XDECREF(data);
        Py_XDECREF(zero);
        Py_DECREF(value);
        if (done == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(done);
        return out;
    }
    size_t nbytes = value == NULL ? 0 : PyLong_AsSize_t(value);
    Py_XDECREF(value);
    void *ptr = NULL;
    if (value == NULL || PyErr_Occurred() || (nbytes && data_pointer(out, &ptr, NULL) < 0)) {
        Py_XDECREF(out);
        return NULL;
    }
    if (nbytes) {
        intptr_t stream;
        if (prepare(&stream)) {
            Py_DECREF(out);
            return NULL;
        }
        unsigned long long at = (unsigned long long)(uintptr_t)ptr;
        int status = nbytes % 4 ? cu_memset8(at, 0, nbytes, (void *)stream)
                                : cu_memset32(at, 0, nbytes / 4, (void *)stream);
        if (status != 0) {
            Py_DECREF(out);
            PyErr_Format(PyExc_RuntimeError, "zeros: cuMemsetD%dAsync failed (CUDA error %d)",
                         nbytes % 4 ? 8 : 32, status);
            return NULL;
        }
    }
    return out;
}

/* ---- basic_view: data[key] of a basic key, made without CuPy's indexing --------------
 *
 * CuPy parses a key in its indexing routines and then makes the view: 1.6-1.9 us of an
 * H100 host for a[3], a[1:10] or M[2, :]. The view itself, ndarray(shape, dtype,
 * data.data + offset[, strides]), takes 0.95-1.3. Here the key's geometry is worked out
 * as NumPy's basic indexing does it: an int takes its axis away (offset += i * stride), a
 * slice keeps it (offset += start * stride, length, stride * step), axes past the key are
 * kept. The view shares the memory (its MemoryPointer holds the allocation); strides are
 * passed only where the view is not C-contiguous (CuPy computes C strides faster). Keys
 * of Python ints and slices of Python ints (of 64 bits: CuPy refuses larger ones, which
 * NumPy clips) with no or a positive step, at most one per
 * axis, into a cupy.ndarray with non-negative strides, giving a non-empty view: anything
 * else (a negative step, an int out of bounds, None, an ellipsis, arrays) is CuPy's. */
#define MAX_AXES 64

static PyObject *str_strides, *str_itemsize;

static PyObject *
basic_view_of(PyObject *data, PyObject *key)
{
    if (Py_TYPE(data) != ndarray_type) {
        return NULL;
    }
    PyObject *const *items = &key;
    Py_ssize_t k = 1;
    if (PyTuple_CheckExact(key)) {
        items = &PyTuple_GET_ITEM(key, 0);
        k = PyTuple_GET_SIZE(key);
    }
    PyObject *shape = PyObject_GetAttr(data, str_shape), *result = NULL;
    PyObject *strides = shape == NULL ? NULL : PyObject_GetAttr(data, str_strides);
    if (strides == NULL || !PyTuple_CheckExact(shape) || !PyTuple_CheckExact(strides)) {
        goto done;
    }
    Py_ssize_t ndim = PyTuple_GET_SIZE(shape), m = 0, offset = 0;
    Py_ssize_t lengths[MAX_AXES], steps[MAX_AXES];
    if (k == 0 || k > ndim || ndim > MAX_AXES || PyTuple_GET_SIZE(strides) != ndim) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < ndim; i++) {
        Py_ssize_t n = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, i));
        Py_ssize_t stride = PyLong_AsSsize_t(PyTuple_GET_ITEM(strides, i));
        if (n <= 0 || stride < 0) {
            goto done; /* empty, or a reversed axis (also -1 where the attribute failed) */
        }
        if (i >= k) {
            lengths[m] = n;
            steps[m++] = stride;
            continue;
        }
        PyObject *item = items[i];
        if (PyLong_CheckExact(item)) {
            Py_ssize_t j = PyLong_AsSsize_t(item);
            if (j == -1 && PyErr_Occurred()) {
                goto done;
            }
            j += j < 0 ? n : 0;
            if (j < 0 || j >= n) {
                goto done;
            }
            offset += j * stride;
            continue;
        }
        if (!PySlice_Check(item)) {
            goto done;
        }
        PySliceObject *slice = (PySliceObject *)item;
        PyObject *parts[3] = {slice->start, slice->stop, slice->step};
        for (int p = 0; p < 3; p++) { /* None or an int of 64 bits, as CuPy takes them */
            if (parts[p] != Py_None && (!PyLong_CheckExact(parts[p])
                                        || (PyLong_AsSsize_t(parts[p]) == -1 && PyErr_Occurred()))) {
                goto done;
            }
        }
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(item, &start, &stop, &step) < 0 || step <= 0) {
            goto done;
        }
        Py_ssize_t length = PySlice_AdjustIndices(n, &start, &stop, step);
        if (length == 0) {
            goto done;
        }
        offset += start * stride;
        lengths[m] = length;
        steps[m++] = stride * step;
    }
    PyObject *itemsize = PyObject_GetAttr(data, str_itemsize);
    Py_ssize_t contiguous = itemsize == NULL ? -1 : PyLong_AsSsize_t(itemsize);
    Py_XDECREF(itemsize);
    if (contiguous < 0) {
        goto done;
    }
    /* C strides (0: not them), those of axes of length 1 too: CuPy and NumPy keep what
     * the key gives them (x[1::2] of a (2, 3) float64 array: strides (48, 8), not 24) */
    for (Py_ssize_t i = m - 1; i >= 0 && contiguous; i--) {
        contiguous = steps[i] == contiguous ? contiguous * lengths[i] : 0;
    }
    PyObject *view_shape = PyTuple_New(m), *view_strides = contiguous ? NULL : PyTuple_New(m);
    int made = view_shape != NULL && (contiguous || view_strides != NULL);
    for (Py_ssize_t i = 0; made && i < m; i++) { /* a NULL item: freed as none */
        PyObject *length = PyLong_FromSsize_t(lengths[i]);
        PyObject *step = contiguous ? NULL : PyLong_FromSsize_t(steps[i]);
        made = length != NULL && (contiguous || step != NULL);
        PyTuple_SET_ITEM(view_shape, i, length);
        if (!contiguous) {
            PyTuple_SET_ITEM(view_strides, i, step);
        }
    }
    PyObject *dtype = PyObject_GetAttr(data, str_dtype);
    PyObject *memory = dtype == NULL ? NULL : PyObject_GetAttr(data, str_data);
    if (memory != NULL && offset) {
        PyObject *by = PyLong_FromSsize_t(offset);
        Py_SETREF(memory, by == NULL ? NULL : PyNumber_Add(memory, by));
        Py_XDECREF(by);
    }
    if (memory != NULL && made) {
        PyObject *operands[4] = {view_shape, dtype, memory, view_strides};
        result = PyObject_Vectorcall((PyObject *)ndarray_type, operands, contiguous ? 3 : 4,
                                     NULL);
    }
    Py_XDECREF(memory);
    Py_XDECREF(dtype);
    Py_XDECREF(view_shape);
    Py_XDECREF(view_strides);
done:
    Py_XDECREF(shape);
    Py_XDECREF(strides);
    if (result == NULL && PyErr_Occurred()) {
        PyErr_Clear(); /* CuPy's indexing tells what is wrong */
    }
    return result;
}

/* basic_view(data, key): the view basic_view_of makes, or None where it makes none. */
static PyObject *
basic_view(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "basic_view(data, key)");
        return NULL;
    }
    PyObject *view = basic_view_of(args[0], args[1]);
    return view == NULL ? Py_NewRef(Py_None) : view;
}

static PyMethodDef module_methods[] = {
    {"setup", setup, METH_VARARGS,
     "setup(cupy.ndarray, numpy.dtype, get_current_stream_ptr capsule, _ensure_context "
     "capsule): finds cuLaunchKernel in the loaded libcuda; ImportError where it cannot."},
    {"launch", (PyCFunction)(void (*)(void))launch, METH_FASTCALL,
     "launch(function, grid, block, args[, shared_mem]): function(grid, block, args, "
     "shared_mem) of a CuPy Function, with less Python in between."},
    {"dispatch", dispatch, METH_VARARGS,
     "dispatch(small, large, cache, namespace, threshold): an element-wise function "
     "running large's cached kernels (see the module's docstring)."},
    {"planner", plans_setup, METH_VARARGS,
     "planner(plans, miss): the dict of plans and the Python function of planned()."},
    {"planned", (PyCFunction)(void (*)(void))planned, METH_FASTCALL,
     "planned(x, make, *args): x's reduction by its cached plan (see _cupy_reductions)."},
    {"launches", count, METH_NOARGS, "launches(): how many kernels this module launched."},
    {"outputs", outputs_setup, METH_O,
     "outputs(kept): how many results were arrays reused (see the source); kept: the "
     "number of results to keep from now on (0 to 4; setting it lets go of those kept), "
     "or -1."},
    {"zeros", (PyCFunction)(void (*)(void))zeros, METH_FASTCALL,
     "zeros(shape, dtype): cupy.ndarray(shape, dtype) set to zero by the driver's memset "
     "on CuPy's current stream (cupy.zeros without its Python layers)."},
    {"basic_view", (PyCFunction)(void (*)(void))basic_view, METH_FASTCALL,
     "basic_view(data, key): data[key] of a cupy.ndarray and a basic key, made without "
     "CuPy's indexing; None where the key is not one it takes (see the source)."},
    {"memset", (PyCFunction)(void (*)(void))memset_words, METH_FASTCALL,
     "memset(ptr, word, count, width): cuMemsetD<8*width>Async of count words on CuPy's "
     "current stream; the driver's status (-1: not found)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "xpgpu._backend._launch",
    "Kernel launches on CUDA without CuPy's Python layer.", -1, module_methods,
};

PyMODINIT_FUNC
PyInit__launch(void)
{
    if (PyType_Ready(&DispatchType) < 0) {
        return NULL;
    }
#define INTERN(var, text)                                                                    \
    if ((var = PyUnicode_InternFromString(text)) == NULL) {                                  \
        return NULL;                                                                         \
    }
    INTERN(str_size, "size")
    INTERN(str_shape, "shape")
    INTERN(str_contiguous, "_c_contiguous")
    INTERN(str_data, "data")
    INTERN(str_ptr, "ptr")
    INTERN(str_device_id, "device_id")
    INTERN(str_dtype, "dtype")
    INTERN(str_spec, "spec")
    INTERN(str_strides, "strides")
    INTERN(str_itemsize, "itemsize")
    INTERN(str_nbytes, "nbytes")
    INTERN(str_memset_async, "memset_async")
    INTERN(str_mem, "mem")
#undef INTERN
    PyObject *module = PyModule_Create(&module_def);
    /* The C function for xpgpu._speedups' views: a new reference, or NULL (no exception)
     * where it makes no view. */
    PyObject *capsule = module == NULL ? NULL
                        : PyCapsule_New((void *)basic_view_of, "xpgpu._launch.basic_view", NULL);
    if (capsule == NULL || PyModule_AddObject(module, "BASIC_VIEW", capsule) < 0) {
        Py_XDECREF(capsule);
        Py_XDECREF(module);
        return NULL;
    }
    return module;
}
