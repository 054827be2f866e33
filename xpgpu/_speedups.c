/* The compiled fast paths of xpgpu's most frequent calls (optional).
 *
 * A `Binary` object is what `xpgpu.add` (and every element-wise function, forward and
 * unary operator, and matmul) is when this module is built. It handles only the common
 * cases, xpgpu arrays on one device whose dtypes the function's table allows, or an array
 * with a Python scalar of a type and range its scalar table takes, with the same tables
 * and the same backend call as the Python function it wraps, and hands every other call,
 * untouched, to that Python function (`fallback`), which holds all the semantics: other
 * operands, errors, NotImplemented. The Python path is the definition;
 * this is a cache of its decisions that saves ~60 bytecodes per call, which is what a
 * 16-element CuPy add (~7 us) can afford (issue 2: at most 1.05x raw CuPy). The other
 * types do the same for other calls: `View` (__getitem__, reshape, permute_dims),
 * `Setitem` (__setitem__), `Method` (a backend function that is an ndarray method),
 * `Alloc` (zeros, ones, empty) and `FlatRank` (asarray's scan of a list);
 * `stable_sort` sorts a float array stably at the cost of the default sort.
 *
 * Nothing here knows a dtype, a rule or a backend: the tables, the slot layout of
 * Array, DType and Device, and the CPU backend come from `_elementwise` through
 * `setup()`, the rest from the Python module that makes each object.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <limits.h>

/* The layout of xpgpu's classes, from their slot descriptors (see setup()). */
static PyTypeObject *array_type;
static Py_ssize_t off_data, off_dtype, off_device, off_ndim; /* Array slots */
static Py_ssize_t off_index, off_np;               /* DType._i, DType.dtype */
static Py_ssize_t off_backend;                     /* Device.backend */
static PyObject *cpu_device, *wrap_checked;
static PyObject *errstate, *quiet; /* the CPU backend's error-state variable and its quiet value */

#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

/* A new Array of data (the reference is stolen, and released on failure), dtype and
 * device: _array.wrap. */
static PyObject *
new_array(PyObject *data, PyObject *dtype, PyObject *device)
{
    PyObject *out = array_type->tp_alloc(array_type, 0);
    if (out == NULL) {
        Py_DECREF(data);
        return NULL;
    }
    SLOT(out, off_data) = data;
    SLOT(out, off_dtype) = Py_NewRef(dtype);
    SLOT(out, off_device) = Py_NewRef(device);
    return out;
}
static PyObject *str_dtype, *str_asarray;

/* An Array of backend data (the reference is stolen) that the backend gave for arrays of
 * type `kind`, whose dtype must be `out`, as _array.wrap_checked: a NumPy scalar (from a
 * 0-d operation on the CPU) becomes a 0-d array through the backend's asarray; data of
 * another type or dtype goes to wrap_checked, which raises its internal error. */
static PyObject *
wrap_data(PyObject *label, PyObject *data, PyTypeObject *kind, PyObject *device,
          PyObject *out)
{
    if (Py_TYPE(data) != kind) {
        PyObject *asarray = PyObject_GetAttr(SLOT(device, off_backend), str_asarray);
        PyObject *a = asarray == NULL ? NULL : PyObject_CallOneArg(asarray, data);
        Py_XDECREF(asarray);
        Py_DECREF(data);
        if (a == NULL) {
            return NULL;
        }
        data = a;
    }
    PyObject *dtype = PyObject_GetAttr(data, str_dtype);
    if (dtype == NULL) {
        Py_DECREF(data);
        return NULL;
    }
    int plain = dtype == SLOT(out, off_np) && Py_TYPE(data) == kind;
    Py_DECREF(dtype);
    if (!plain) {
        PyObject *checked = PyObject_CallFunctionObjArgs(wrap_checked, label, data, device,
                                                         out, NULL);
        Py_DECREF(data);
        return checked;
    }
    return new_array(data, out, device); /* the reference we hold */
}

/* ---- What every fast path shares -------------------------------------------------------
 *
 * Each type below starts with FAST_HEAD, and its other fields are references (owned, set
 * when it is made): one traverse, clear and dealloc serve them all. Everything else a
 * function has (its name, docstring, signature, pickling) is its Python function's. */
#define FAST_HEAD                                                                         \
    PyObject_HEAD                                                                         \
    vectorcallfunc vectorcall;                                                            \
    Py_ssize_t n;       /* Binary: dtypes per row; View: its kind */                      \
    PyObject *fallback; /* the Python function: the definition, and every other case */

typedef struct {
    FAST_HEAD
} Fast;

/* The references of a FAST_HEAD object: `fallback` and the fields after it. */
#define REFS(self) (&((Fast *)(self))->fallback)
#define NREFS(self)                                                                       \
    ((Py_TYPE(self)->tp_basicsize - (Py_ssize_t)offsetof(Fast, fallback))                 \
     / (Py_ssize_t)sizeof(PyObject *))

static int
Fast_traverse(PyObject *self, visitproc visit, void *arg)
{
    for (Py_ssize_t i = 0; i < NREFS(self); i++) {
        Py_VISIT(REFS(self)[i]);
    }
    return 0;
}

static int
Fast_clear(PyObject *self)
{
    for (Py_ssize_t i = 0; i < NREFS(self); i++) {
        Py_CLEAR(REFS(self)[i]);
    }
    return 0;
}

static void
Fast_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    Fast_clear(self);
    Py_TYPE(self)->tp_free(self);
}

/* A new object of `type` (a FAST_HEAD struct) calling `call`, with `n` and the references
 * `refs`, in the order of its fields from `fallback` on. */
static PyObject *
fast_new(PyTypeObject *type, vectorcallfunc call, Py_ssize_t n, PyObject *const *refs)
{
    Fast *self = PyObject_GC_New(Fast, type);
    if (self == NULL) {
        return NULL;
    }
    self->vectorcall = call;
    self->n = n;
    for (Py_ssize_t i = 0; i < NREFS(self); i++) {
        REFS(self)[i] = Py_NewRef(refs[i]);
    }
    PyObject_GC_Track(self);
    return (PyObject *)self;
}

/* Everything else a function has (__name__, __doc__, __module__, __wrapped__ for
 * inspect.signature, ...) is the Python function's. */
static PyObject *
Fast_getattro(Fast *self, PyObject *name)
{
    PyObject *value = PyObject_GenericGetAttr((PyObject *)self, name);
    if (value == NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) {
        PyErr_Clear();
        if (PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, "__wrapped__") == 0) {
            return Py_NewRef(self->fallback);
        }
        return PyObject_GetAttr(self->fallback, name);
    }
    return value;
}

/* As a method (Array.__add__, Array.__getitem__), bound like a Python function. */
static PyObject *
Fast_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(self);
    }
    return PyMethod_New(self, obj);
}

static PyObject *
Fast_repr(Fast *self)
{
    return PyObject_Repr(self->fallback);
}

static PyObject *
Fast_reduce(Fast *self, PyObject *Py_UNUSED(ignored))
{
    return PyObject_GetAttrString(self->fallback, "__qualname__"); /* pickled by name */
}

static PyObject *
Fast_get_doc(Fast *self, void *Py_UNUSED(closure))
{
    return PyObject_GetAttrString(self->fallback, "__doc__");
}

static PyGetSetDef Fast_getset[] = {
    {"__doc__", (getter)Fast_get_doc, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Fast_methods[] = {
    {"__reduce__", (PyCFunction)Fast_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* The type of a FAST_HEAD struct; METHOD: bound as a method where it is a class's
 * attribute (0: a function of a module or namespace). */
#define FAST_TYPE(NAME, STRUCT, METHOD)                                                   \
    {                                                                                     \
        PyVarObject_HEAD_INIT(NULL, 0)                                                    \
        .tp_name = "xpgpu._speedups." NAME,                                               \
        .tp_basicsize = sizeof(STRUCT),                                                   \
        .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL  \
                    | ((METHOD) ? Py_TPFLAGS_METHOD_DESCRIPTOR : 0),                      \
        .tp_vectorcall_offset = offsetof(Fast, vectorcall),                               \
        .tp_call = PyVectorcall_Call,                                                     \
        .tp_getattro = (getattrofunc)Fast_getattro,                                       \
        .tp_descr_get = (METHOD) ? Fast_descr_get : NULL,                                 \
        .tp_repr = (reprfunc)Fast_repr,                                                   \
        .tp_traverse = Fast_traverse,                                                     \
        .tp_clear = Fast_clear,                                                           \
        .tp_dealloc = Fast_dealloc,                                                       \
        .tp_methods = Fast_methods,                                                       \
        .tp_getset = Fast_getset,                                                         \
    }

/* ---- Binary: the element-wise functions, forward and unary operators, and matmul -------
 *
 * A binary function's table has n * n entries, a unary function's n (one argument). A
 * binary element-wise function also takes an array with a Python scalar: the scalar's
 * result DType by the array's dtype index and the scalar's exact type (`by_type`), and an
 * int within the dtype's bounds (`lo`, `hi`), the scalar passed to the backend as it is. */
typedef struct {
    FAST_HEAD           /* n: dtypes per row */
    PyObject *table;    /* flat tuple: result DType by (x1 dtype index[, x2 dtype index]), or None */
    PyObject *cpu_func; /* the CPU backend's function, or None: read by name there too */
    PyObject *name;     /* the backend attribute of the function on other devices */
    PyObject *label;    /* the name in error messages */
    PyObject *by_type;  /* by dtype index, a dict: Python scalar type -> result DType; or None */
    PyObject *lo, *hi;  /* by dtype index, the Python ints the dtype holds (or int64's) */
} Binary;

static Py_ssize_t
dtype_index(PyObject *dtype)
{
    return PyLong_AsSsize_t(SLOT(dtype, off_index));
}

/* 1 where lo <= value <= hi (Python ints), else 0, with no exception set. */
static int
within(PyObject *lo, PyObject *value, PyObject *hi)
{
    int in = PyObject_RichCompareBool(lo, value, Py_LE) == 1
             && PyObject_RichCompareBool(value, hi, Py_LE) == 1;
    PyErr_Clear();
    return in;
}

/* The result DType of array x with Python scalar s under `self`'s scalar table, or NULL
 * (no exception set) where the Python function must decide. */
static PyObject *
scalar_out(Binary *self, PyObject *x, PyObject *s)
{
    if (self->by_type == Py_None) {
        return NULL;
    }
    Py_ssize_t i = dtype_index(SLOT(x, off_dtype));
    if (i < 0 || i >= PyTuple_GET_SIZE(self->by_type)) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *out = PyDict_GetItemWithError(PyTuple_GET_ITEM(self->by_type, i),
                                            (PyObject *)Py_TYPE(s));
    if (out == NULL) {
        PyErr_Clear();
        return NULL;
    }
    if (PyLong_CheckExact(s)
        && !within(PyTuple_GET_ITEM(self->lo, i), s, PyTuple_GET_ITEM(self->hi, i))) {
        return NULL;
    }
    return out;
}

static PyObject *
Binary_vectorcall(Binary *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(self->table) == self->n ? 1 : 2;
    if (PyVectorcall_NARGS(nargsf) != nargs || kwnames != NULL) {
        goto python;
    }
    PyObject *x1 = args[0], *x2 = args[nargs - 1], *out, *device, *operands[2];
    PyTypeObject *kind; /* the backend's array type, of the array operand's data */
    if (Py_TYPE(x1) == array_type && Py_TYPE(x2) == array_type) {
        device = SLOT(x1, off_device);
        if (SLOT(x2, off_device) != device) {
            goto python;
        }
        Py_ssize_t i = dtype_index(SLOT(x1, off_dtype)), j = dtype_index(SLOT(x2, off_dtype));
        if (i < 0 || j < 0 || i >= self->n || j >= self->n) {
            PyErr_Clear();
            goto python;
        }
        out = PyTuple_GET_ITEM(self->table, nargs == 1 ? i : i * self->n + j);
        if (out == Py_None) {
            goto python;
        }
        operands[0] = SLOT(x1, off_data);
        operands[1] = SLOT(x2, off_data);
        kind = Py_TYPE(operands[0]);
    }
    else if (Py_TYPE(x1) == array_type && (out = scalar_out(self, x1, x2)) != NULL) {
        device = SLOT(x1, off_device);
        operands[0] = SLOT(x1, off_data);
        operands[1] = x2;
        kind = Py_TYPE(operands[0]);
    }
    else if (Py_TYPE(x2) == array_type && (out = scalar_out(self, x2, x1)) != NULL) {
        device = SLOT(x2, off_device);
        operands[0] = x1;
        operands[1] = SLOT(x2, off_data);
        kind = Py_TYPE(operands[1]);
    }
    else {
        goto python;
    }
    PyObject *func;
    if (device == cpu_device && self->cpu_func != Py_None) {
        func = Py_NewRef(self->cpu_func);
    }
    else {
        /* On a host with several GPUs, this read makes the device current. */
        func = PyObject_GetAttr(SLOT(device, off_backend), self->name);
        if (func == NULL) {
            return NULL;
        }
    }
    /* On the CPU the backend runs with its floating-point errors quiet, as the Python
     * path does (see _elementwise): set for this call and reset after it. */
    PyObject *token = NULL;
    if (device == cpu_device) {
        token = PyContextVar_Set(errstate, quiet);
        if (token == NULL) {
            Py_DECREF(func);
            return NULL;
        }
    }
    PyObject *data = PyObject_Vectorcall(func, operands, nargs, NULL);
    Py_DECREF(func);
    if (token != NULL) {
        PyObject *type, *value, *traceback;
        PyErr_Fetch(&type, &value, &traceback);
        int failed = PyContextVar_Reset(errstate, token);
        Py_DECREF(token);
        if (failed) {
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(traceback);
            Py_XDECREF(data);
            return NULL;
        }
        PyErr_Restore(type, value, traceback);
    }
    if (data == NULL) {
        if (PyErr_ExceptionMatches(PyExc_ValueError)
            || PyErr_ExceptionMatches(PyExc_MemoryError)) {
            /* Shapes that do not broadcast, or out of device memory: the Python path
             * raises it under our name (the error names the xpgpu function on the
             * stack, and this one has no Python frame). */
            PyErr_Clear();
            goto python;
        }
        return NULL;
    }
    /* An Array's data is always its backend's array type (wrap_checked makes sure), so
     * the operand's type is the one to expect, as ``backend.ndarray`` in Python. */
    return wrap_data(self->label, data, kind, device, out);

python:
    return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
}

static PyTypeObject BinaryType = FAST_TYPE("Binary", Binary, 1);

static PyObject *
binary(PyObject *module, PyObject *args)
{
    PyObject *fallback, *table, *cpu_func, *name, *label;
    PyObject *by_type = Py_None, *lo = Py_None, *hi = Py_None;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "OO!nOUU|OO!O!:binary", &fallback, &PyTuple_Type, &table, &n,
                          &cpu_func, &name, &label, &by_type, &PyTuple_Type, &lo,
                          &PyTuple_Type, &hi)) {
        return NULL;
    }
    if (PyTuple_GET_SIZE(table) != n * n && PyTuple_GET_SIZE(table) != n) {
        PyErr_SetString(PyExc_ValueError, "binary: the table must have n * n entries (n: unary)");
        return NULL;
    }
    if (by_type != Py_None
        && (PyTuple_GET_SIZE(table) != n * n || !PyTuple_Check(by_type)
            || PyTuple_GET_SIZE(by_type) != n || !PyTuple_Check(lo) || !PyTuple_Check(hi)
            || PyTuple_GET_SIZE(lo) != n || PyTuple_GET_SIZE(hi) != n)) {
        PyErr_SetString(PyExc_ValueError,
                        "binary: by_type, lo and hi need n entries each, for a binary table");
        return NULL;
    }
    for (Py_ssize_t k = 0; by_type != Py_None && k < n; k++) {
        if (!PyDict_CheckExact(PyTuple_GET_ITEM(by_type, k))) {
            PyErr_SetString(PyExc_TypeError, "binary: by_type must hold one dict a dtype");
            return NULL;
        }
    }
    PyObject *refs[] = {fallback, table, cpu_func, name, label, by_type, lo, hi};
    return fast_new(&BinaryType, (vectorcallfunc)Binary_vectorcall, n, refs);
}

/* ---- View: __getitem__, reshape and permute_dims of the views the fast paths make ----
 *
 * The same fast paths as the Python functions they wrap (`fallback`, the definition, which
 * takes every other call and gives every error its message): a key of Python ints and
 * slices of Python ints (or None) with one entry per axis, one such slice or int of a
 * 1-D array, or a boolean mask array of the array's shape and device (GETITEM: the
 * backend's mask_getitem where it is not None); a shape of Python ints >= -1 (RESHAPE);
 * one Python int per axis (PERMUTE). The backend's view keeps the array's dtype and
 * device; a key of ints and slices into CuPy data is made by the CuPy adapter's C
 * function (basic_views(): _launch.c's basic_view_of) where it takes the key. A view of
 * CuPy costs ~2 us, so 5% of it is less than one Python call of the wrapper. */
enum { GETITEM, RESHAPE, PERMUTE };

typedef struct {
    FAST_HEAD       /* n: the kind */
    PyObject *name; /* the ndarray method (RESHAPE, PERMUTE) */
    PyObject *mask; /* GETITEM: the dtype of the masks it takes (bool), else None */
} View;

static PyObject *str_ndim, *str_getitem, *str_shape, *str_mask_getitem, *str_T;

/* A backend's maker of basic views (basic_views()): for data of type basic_type, the
 * view data[key], or NULL with no exception where it makes none (data[key] then). */
static PyTypeObject *basic_type;
static PyObject *(*basic_view_of)(PyObject *data, PyObject *key);

/* The data of `key` where it is a boolean array (dtype `mask`) of x's shape and device,
 * else NULL with no exception set (the Python path tells why). */
static PyObject *
mask_data(PyObject *x, PyObject *key, PyObject *mask)
{
    if (Py_TYPE(key) != array_type || SLOT(key, off_dtype) != mask
        || SLOT(key, off_device) != SLOT(x, off_device)) {
        return NULL;
    }
    PyObject *shape = PyObject_GetAttr(SLOT(x, off_data), str_shape);
    PyObject *other = shape == NULL ? NULL : PyObject_GetAttr(SLOT(key, off_data), str_shape);
    int same = other == NULL ? -1 : PyObject_RichCompareBool(shape, other, Py_EQ);
    Py_XDECREF(shape);
    Py_XDECREF(other);
    if (same < 0) {
        PyErr_Clear();
    }
    return same == 1 ? SLOT(key, off_data) : NULL;
}

static int
simple_index(PyObject *k)
{
    if (PyLong_CheckExact(k)) {
        return 1;
    }
    if (!PySlice_Check(k)) {
        return 0;
    }
    PySliceObject *s = (PySliceObject *)k;
    return (s->start == Py_None || PyLong_CheckExact(s->start))
           && (s->stop == Py_None || PyLong_CheckExact(s->stop))
           && (s->step == Py_None || (PyLong_CheckExact(s->step) && PyObject_IsTrue(s->step) == 1));
}

/* The ndim of array x; -1 with an exception set where it cannot be read. The data's ndim
 * is kept in the Array's `_ndim` slot once read: an Array's data never changes (nor its
 * shape), and a view's key is checked against ndim on every call (reading the attribute
 * was a third of what a view cost above the backend's). */
static Py_ssize_t
ndim_of(PyObject *x)
{
    PyObject *value = SLOT(x, off_ndim);
    if (value == NULL) {
        value = PyObject_GetAttr(SLOT(x, off_data), str_ndim);
        if (value == NULL) {
            return -1;
        }
        SLOT(x, off_ndim) = value; /* the reference the slot holds */
    }
    return PyLong_AsSsize_t(value);
}

static int
ints(PyObject *tuple, long lowest)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); i++) {
        PyObject *item = PyTuple_GET_ITEM(tuple, i);
        if (!PyLong_CheckExact(item)) {
            return 0;
        }
        int overflow;
        long value = PyLong_AsLongAndOverflow(item, &overflow);
        if (overflow < 0 || value < lowest) {
            return 0;
        }
    }
    return 1;
}

/* 1 where the axes (Python ints, one per axis) are ndim-1, ..., 1, 0, negative ones
 * counted from the end: permute_dims(x, (1, 0)) of a matrix. That view is the ndarray's
 * T, the same strides, which skips parsing the axes: 0.81 us against transpose's 0.98 on
 * an H100 host, where CuPy's transpose function takes 1.02. */
static int
reversal(PyObject *axes, Py_ssize_t ndim)
{
    for (Py_ssize_t i = 0; i < ndim; i++) {
        long axis = PyLong_AsLong(PyTuple_GET_ITEM(axes, i)); /* ints() checked the range */
        if ((axis < 0 ? axis + ndim : axis) != ndim - 1 - i) {
            return 0;
        }
    }
    return 1;
}

static PyObject *
View_vectorcall(View *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (array_type == NULL || nargs != 2 || kwnames != NULL || Py_TYPE(args[0]) != array_type) {
        goto python;
    }
    PyObject *x = args[0], *key = args[1], *data = SLOT(x, off_data), *result;
    int reverse = 0;
    PyObject *mask = self->n == GETITEM ? mask_data(x, key, self->mask) : NULL;
    if (mask != NULL) {
        key = mask; /* data[mask] */
    }
    else if (self->n != RESHAPE) {
        Py_ssize_t ndim = ndim_of(x);
        if (ndim < 0) {
            return NULL;
        }
        int fast;
        if (self->n == PERMUTE) {
            fast = PyTuple_CheckExact(key) && PyTuple_GET_SIZE(key) == ndim && ints(key, LONG_MIN);
            reverse = fast && reversal(key, ndim);
        }
        else if (PyTuple_CheckExact(key)) {
            fast = PyTuple_GET_SIZE(key) == ndim;
            for (Py_ssize_t i = 0; fast && i < ndim; i++) {
                fast = simple_index(PyTuple_GET_ITEM(key, i));
            }
        }
        else {
            fast = ndim == 1 && simple_index(key);
        }
        if (!fast) {
            goto python;
        }
    }
    else if (!PyTuple_CheckExact(key) || !ints(key, -1)) {
        goto python;
    }
    PyObject *device = SLOT(x, off_device);
    if (mask != NULL) {
        /* The backend's mask_getitem(data, mask) where it has one (None: data[mask]); with
         * several GPUs, reading it makes the device current. */
        PyObject *take = PyObject_GetAttr(SLOT(device, off_backend), str_mask_getitem);
        if (take == NULL) {
            return NULL;
        }
        if (take == Py_None) {
            result = PyObject_GetItem(data, key);
        }
        else {
            PyObject *operands[2] = {data, key};
            result = PyObject_Vectorcall(take, operands, 2, NULL);
        }
        Py_DECREF(take);
    }
    else if (self->n == GETITEM) {
        result = Py_TYPE(data) == basic_type ? basic_view_of(data, key) : NULL;
        if (result == NULL) {
            if (PyErr_Occurred()) {
                return NULL;
            }
            result = PyObject_GetItem(data, key);
        }
    }
    else {
        /* Note: both backends' reshape and permute_dims are the ndarray's methods reshape
         * and transpose (_backend.method), called here directly (a reversal of the axes:
         * the ndarray's T, the view transpose makes). With several GPUs, the
         * backend makes its device current as an attribute is read: the Python path. */
        if (Py_TYPE(SLOT(device, off_backend))->tp_getattro != PyObject_GenericGetAttr) {
            goto python;
        }
        PyObject *operands[2] = {data, key};
        result = reverse ? PyObject_GetAttr(data, str_T)
                         : PyObject_VectorcallMethod(self->name, operands, 2, NULL);
    }
    if (result == NULL) {
        /* out of bounds, a size that does not fit, a repeated axis: the message is the
         * Python function's */
        if (PyErr_ExceptionMatches(PyExc_IndexError) || PyErr_ExceptionMatches(PyExc_ValueError)
            || PyErr_ExceptionMatches(PyExc_TypeError)
            || PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            goto python;
        }
        return NULL;
    }
    PyObject *dtype = SLOT(x, off_dtype);
    if (Py_TYPE(result) != Py_TYPE(data)) { /* a NumPy scalar (x[3] on the CPU) */
        return wrap_data(str_getitem, result, Py_TYPE(data), device, dtype);
    }
    return new_array(result, dtype, device);

python:
    return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
}

static PyTypeObject ViewType = FAST_TYPE("View", View, 1);

/* ---- Array's mp_subscript: x[key] calling the View that is Array.__getitem__ ----------
 *
 * Assigning a View as Array.__getitem__ gives Array CPython's generic mp_subscript, which
 * looks __getitem__ up in the type and calls it: about 50 ns of x[1:10]'s 230 (NumPy's
 * a[1:10]: 176) on a 2-core x86-64 machine. fast_subscript() makes mp_subscript call
 * the View found as Array.__getitem__ directly. Any later assignment of Array.__getitem__
 * (a profile switch) gives Array the generic mp_subscript back, which calls whatever was
 * assigned: never a stale View, at worst the generic cost until fast_subscript() runs
 * again (_indexing calls it after each switch). */
static PyObject *subscript_view;

static PyObject *
array_subscript(PyObject *self, PyObject *key)
{
    PyObject *args[2] = {self, key};
    return View_vectorcall((View *)subscript_view, args, 2, NULL);
}

static PyObject *
fast_subscript(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    if (array_type == NULL) {
        Py_RETURN_FALSE;
    }
    PyObject *getitem = PyDict_GetItemWithError(array_type->tp_dict, str_getitem);
    if (getitem == NULL) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        Py_RETURN_FALSE;
    }
    if (Py_TYPE(getitem) != &ViewType || ((View *)getitem)->n != GETITEM) {
        Py_RETURN_FALSE; /* the generic slot calls it */
    }
    Py_XSETREF(subscript_view, Py_NewRef(getitem));
    array_type->tp_as_mapping->mp_subscript = array_subscript;
    Py_RETURN_TRUE;
}

static PyObject *
basic_views(PyObject *module, PyObject *args)
{
    PyObject *type, *capsule;
    if (!PyArg_ParseTuple(args, "O!O:basic_views", &PyType_Type, &type, &capsule)) {
        return NULL;
    }
    void *f = PyCapsule_GetPointer(capsule, "xpgpu._launch.basic_view");
    if (f == NULL) {
        return NULL;
    }
    Py_XSETREF(basic_type, (PyTypeObject *)Py_NewRef(type));
    basic_view_of = (PyObject * (*)(PyObject *, PyObject *)) f;
    Py_RETURN_NONE;
}

static PyObject *
view(PyObject *module, PyObject *args)
{
    PyObject *fallback, *name, *mask = Py_None;
    int kind;
    if (!PyArg_ParseTuple(args, "OiU|O:view", &fallback, &kind, &name, &mask)) {
        return NULL;
    }
    if (kind < GETITEM || kind > PERMUTE) {
        PyErr_SetString(PyExc_ValueError, "view: kind is 0 (__getitem__), 1 (reshape) or 2 "
                                          "(permute_dims)");
        return NULL;
    }
    PyObject *refs[] = {fallback, name, mask};
    return fast_new(&ViewType, (vectorcallfunc)View_vectorcall, kind, refs);
}

/* ---- Setitem: Array.__setitem__ --------------------------------------------------------
 *
 * The fast path of _indexing's __setitem__ (the definition, `fallback`, which takes every
 * other call and gives every error its message): a slice of Python ints (or None) into a
 * 1-D array, or a boolean mask array of the array's shape and device; a value that is an
 * array of the array's dtype and device, or a Python scalar the dtype keeps (_keeps: a
 * float into a floating dtype, an int in an integer dtype's range, a bool into bool). The
 * backend's setitem stores it. A CuPy fill costs ~5 us, the Python path ~0.5 us more. */
typedef struct {
    FAST_HEAD
    PyObject *floating; /* tuple by dtype index: whether the dtype is floating */
    PyObject *ranges;   /* tuple by dtype index: an integer dtype's (lo, hi), else None */
    PyObject *bool_dtype;
} Setitem;

static PyObject *str_setitem;

/* _indexing._keeps: 1 where a Python scalar `value` may be stored in `dtype` as it is. */
static int
keeps(Setitem *self, PyObject *dtype, PyObject *value)
{
    if (PyBool_Check(value)) {
        return dtype == self->bool_dtype;
    }
    if (!PyFloat_CheckExact(value) && !PyLong_CheckExact(value)) {
        return 0;
    }
    Py_ssize_t i = dtype_index(dtype);
    if (i < 0 || i >= PyTuple_GET_SIZE(self->floating)) {
        PyErr_Clear();
        return 0;
    }
    if (PyFloat_CheckExact(value)) {
        return PyTuple_GET_ITEM(self->floating, i) == Py_True;
    }
    PyObject *bounds = PyTuple_GET_ITEM(self->ranges, i);
    if (!PyTuple_Check(bounds) || PyTuple_GET_SIZE(bounds) != 2) {
        return 0;
    }
    return within(PyTuple_GET_ITEM(bounds, 0), value, PyTuple_GET_ITEM(bounds, 1));
}

static PyObject *
Setitem_vectorcall(Setitem *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (array_type == NULL || PyVectorcall_NARGS(nargsf) != 3 || kwnames != NULL
        || Py_TYPE(args[0]) != array_type) {
        goto python;
    }
    PyObject *x = args[0], *key = args[1], *value = args[2];
    PyObject *data = SLOT(x, off_data), *dtype = SLOT(x, off_dtype);
    PyObject *device = SLOT(x, off_device);
    if (PySlice_Check(key)) {
        if (!simple_index(key) || ndim_of(x) != 1) {
            PyErr_Clear(); /* where ndim could not be read, the Python path reads it again */
            goto python;
        }
    }
    else if ((key = mask_data(x, key, self->bool_dtype)) == NULL) {
        goto python;
    }
    if (Py_TYPE(value) == array_type) {
        if (SLOT(value, off_dtype) != dtype || SLOT(value, off_device) != device) {
            goto python;
        }
        value = SLOT(value, off_data);
    }
    else if (!keeps(self, dtype, value)) {
        goto python;
    }
    /* With several GPUs, reading the backend's attribute makes the device current. */
    PyObject *operands[4] = {SLOT(device, off_backend), data, key, value};
    PyObject *result = PyObject_VectorcallMethod(str_setitem, operands, 4, NULL);
    if (result == NULL) {
        /* a value that does not broadcast: the message is the Python function's */
        if (PyErr_ExceptionMatches(PyExc_ValueError) || PyErr_ExceptionMatches(PyExc_IndexError)) {
            PyErr_Clear();
            goto python;
        }
        return NULL;
    }
    Py_DECREF(result);
    Py_RETURN_NONE;

python:
    return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
}

static PyTypeObject SetitemType = FAST_TYPE("Setitem", Setitem, 1);

static PyObject *
setitem(PyObject *module, PyObject *args)
{
    PyObject *fallback, *floating, *ranges, *bool_dtype;
    if (!PyArg_ParseTuple(args, "OO!O!O:setitem", &fallback, &PyTuple_Type, &floating,
                          &PyTuple_Type, &ranges, &bool_dtype)) {
        return NULL;
    }
    if (PyTuple_GET_SIZE(ranges) != PyTuple_GET_SIZE(floating)) {
        PyErr_SetString(PyExc_ValueError, "setitem: one floating flag and range a dtype");
        return NULL;
    }
    PyObject *refs[] = {fallback, floating, ranges, bool_dtype};
    return fast_new(&SetitemType, (vectorcallfunc)Setitem_vectorcall, 0, refs);
}

/* ---- Method: a backend function that is an ndarray method (_backend.method) -----------
 *
 * NumPy's and CuPy's module functions for reductions, reshapes and clip call the ndarray
 * method of the same name; a backend calls the method where the first argument is exactly
 * an ndarray, the module function (`fallback`) on anything else (a NumPy scalar), every
 * argument passed on untouched. In Python that forwarding costs ~0.6 us a call (a frame,
 * *args and **kwargs), as much as the rest of a small NumPy sum's wrapper. */
typedef struct {
    FAST_HEAD
    PyObject *ndarray;
    PyObject *method;
} Method;

static PyObject *
Method_vectorcall(Method *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    int own = PyVectorcall_NARGS(nargsf) > 0 && (PyObject *)Py_TYPE(args[0]) == self->ndarray;
    return PyObject_Vectorcall(own ? self->method : self->fallback, args, nargsf, kwnames);
}

static PyTypeObject MethodType = FAST_TYPE("Method", Method, 0);

static PyObject *
method(PyObject *module, PyObject *args)
{
    PyObject *fallback, *ndarray, *bound;
    if (!PyArg_ParseTuple(args, "OO!O:method", &fallback, &PyType_Type, &ndarray, &bound)) {
        return NULL;
    }
    PyObject *refs[] = {fallback, ndarray, bound};
    return fast_new(&MethodType, (vectorcallfunc)Method_vectorcall, 0, refs);
}

/* ---- Alloc: zeros, ones and empty of a one-dimensional shape ---------------------------
 *
 * The fast path of _creation._alloc, as a cache of its decisions: an int shape in
 * [0, 2**40), `dtype` None or a DType, `device` None or a Device, by keyword. It calls the
 * backend's function of the same name with the shape and NumPy dtype by position and wraps
 * the result, as that path does; every other call (and a default device not yet chosen)
 * is the Python function's (`fallback`), the definition. In Python the three calls of the
 * path (the function, _alloc, default_device) cost ~0.4 us, 10% of a CuPy zeros. */
typedef struct {
    FAST_HEAD
    PyObject *name;        /* the backend function */
    PyObject *dtype;       /* the default DType (its type: the DType class) */
    PyObject *device_type; /* Device */
    PyObject *devices;     /* _devices' globals: "_default", the default device once chosen */
} Alloc;

static PyObject *str_device, *str_default;

static PyObject *
Alloc_vectorcall(Alloc *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (array_type == NULL || PyVectorcall_NARGS(nargsf) != 1 || !PyLong_CheckExact(args[0])) {
        goto python;
    }
    int overflow;
    long long n = PyLong_AsLongLongAndOverflow(args[0], &overflow);
    if (overflow || n < 0 || n >= (1LL << 40)) {
        goto python;
    }
    PyObject *dtype = self->dtype, *device = Py_None;
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, i), *value = args[1 + i];
        if (key == str_dtype && (value == Py_None || Py_TYPE(value) == Py_TYPE(self->dtype))) {
            dtype = value == Py_None ? self->dtype : value;
        }
        else if (key == str_device
                 && (value == Py_None || (PyObject *)Py_TYPE(value) == self->device_type)) {
            device = value;
        }
        else { /* another name, a key not interned, another type: the Python function */
            goto python;
        }
    }
    if (device == Py_None) {
        device = PyDict_GetItemWithError(self->devices, str_default);
        if (device == NULL || (PyObject *)Py_TYPE(device) != self->device_type) {
            if (PyErr_Occurred()) {
                return NULL;
            }
            goto python; /* not chosen yet: default_device() chooses it */
        }
    }
    /* With several GPUs, reading the backend's attribute makes the device current. */
    PyObject *operands[3] = {SLOT(device, off_backend), args[0], SLOT(dtype, off_np)};
    PyObject *data = PyObject_VectorcallMethod(self->name, operands, 3, NULL);
    if (data == NULL) {
        return NULL;
    }
    return new_array(data, dtype, device);

python:
    return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
}

static PyTypeObject AllocType = FAST_TYPE("Alloc", Alloc, 0);

static PyObject *
alloc(PyObject *module, PyObject *args)
{
    PyObject *fallback, *name, *dtype, *device_type, *devices;
    if (!PyArg_ParseTuple(args, "OUOO!O!:alloc", &fallback, &name, &dtype, &PyType_Type,
                          &device_type, &PyDict_Type, &devices)) {
        return NULL;
    }
    PyObject *refs[] = {fallback, name, dtype, device_type, devices};
    return fast_new(&AllocType, (vectorcallfunc)Alloc_vectorcall, 0, refs);
}

/* ---- FlatRank: asarray's scan of a flat list or tuple (_creation._flat_rank) -----------
 *
 * The rank (`ranks`: exact Python scalar type -> rank) of a list or tuple whose items
 * are all of one exact type, -1 when it is empty; None where that type has no rank or the
 * types differ (the Python function answers the same without a set of types). */
typedef struct {
    FAST_HEAD
    PyObject *ranks;
} FlatRank;

static PyObject *
FlatRank_vectorcall(FlatRank *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (PyVectorcall_NARGS(nargsf) != 1 || kwnames != NULL
        || !(PyList_CheckExact(args[0]) || PyTuple_CheckExact(args[0]))) {
        return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
    }
    /* No Python code runs in the loop, so a list cannot change under it. */
    Py_ssize_t n = PySequence_Fast_GET_SIZE(args[0]);
    PyObject **items = PySequence_Fast_ITEMS(args[0]);
    if (n == 0) {
        return PyLong_FromLong(-1);
    }
    PyTypeObject *type = Py_TYPE(items[0]);
    for (Py_ssize_t i = 1; i < n; i++) {
        if (Py_TYPE(items[i]) != type) {
            Py_RETURN_NONE;
        }
    }
    PyObject *rank = PyDict_GetItemWithError(self->ranks, (PyObject *)type);
    if (rank == NULL) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    return Py_NewRef(rank);
}

static PyTypeObject FlatRankType = FAST_TYPE("FlatRank", FlatRank, 0);

static PyObject *
flat_rank(PyObject *module, PyObject *args)
{
    PyObject *fallback, *ranks;
    if (!PyArg_ParseTuple(args, "OO!:flat_rank", &fallback, &PyDict_Type, &ranks)) {
        return NULL;
    }
    PyObject *refs[] = {fallback, ranks};
    return fast_new(&FlatRankType, (vectorcallfunc)FlatRank_vectorcall, 0, refs);
}

/* ---- stable_sort: the stable sort of a 1-D float array (_numpy_sorting.sort) --------
 *
 * `stable_sort(a)`: for a 1-D C-contiguous native float32 ("f") or float64 ("d") array,
 * numpy.sort(a, kind="stable") bit for bit, at the cost of NumPy's default sort: a sort of
 * values shows the order of equal elements only in the run of zeros (-0.0 and +0.0) and
 * the run of NaNs, so a.copy() is sorted by its own default sort (s.sort()), and those two
 * runs, found by binary search as s.searchsorted([0.0, smallest subnormal, nan]) finds
 * them, are written again with a's zeros and NaNs in their original order (the NaNs even
 * where there is one: NumPy's SIMD sort writes its NaNs back as the default NaN). None for
 * another array (the caller's path). In Python the same steps cost ~1.5 us of a
 * 1000-element sort's ~5. */
#define LOWER_BOUND(T, v, n, pred)                            \
    do {                                                      \
        Py_ssize_t lo = 0, hi = (n);                          \
        while (lo < hi) {                                     \
            Py_ssize_t mid = lo + (hi - lo) / 2;              \
            T x = (v)[mid];                                   \
            if (pred) lo = mid + 1; else hi = mid;            \
        }                                                     \
        found = lo;                                           \
    } while (0)

/* The runs of the sorted v rewritten from a, in a's order. */
#define STABLE_RUNS(T)                                                                   \
    do {                                                                                 \
        const T *a = (const T *)in.buf;                                                  \
        T *v = (T *)out.buf;                                                             \
        Py_ssize_t found, zeros, positive, nans;                                         \
        LOWER_BOUND(T, v, n, x < 0);                                                     \
        zeros = found;                                                                   \
        LOWER_BOUND(T, v, n, x <= 0);                                                    \
        positive = found;                                                                \
        LOWER_BOUND(T, v, n, x == x);                                                    \
        nans = found;                                                                    \
        for (Py_ssize_t i = 0, k = zeros; positive - zeros > 1 && k < positive; i++) {   \
            if (a[i] == 0) {                                                             \
                v[k++] = a[i];                                                           \
            }                                                                            \
        }                                                                                \
        for (Py_ssize_t i = 0, k = nans; k < n; i++) {                                   \
            if (a[i] != a[i]) {                                                          \
                v[k++] = a[i];                                                           \
            }                                                                            \
        }                                                                                \
    } while (0)

static PyObject *str_copy, *str_sort;

static PyObject *
stable_sort(PyObject *module, PyObject *array)
{
    Py_buffer in, out;
    if (PyObject_GetBuffer(array, &in, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear(); /* not a contiguous buffer: the caller's path */
        Py_RETURN_NONE;
    }
    const char *f = in.format == NULL ? "B" : in.format;
    char kind = (f[0] != '\0' && f[1] == '\0') ? f[0] : '\0';
    if (in.ndim != 1 || !((kind == 'f' && in.itemsize == sizeof(float))
                          || (kind == 'd' && in.itemsize == sizeof(double)))) {
        PyBuffer_Release(&in);
        Py_RETURN_NONE;
    }
    PyObject *sorted = PyObject_CallMethodNoArgs(array, str_copy);
    PyObject *done = sorted == NULL ? NULL : PyObject_CallMethodNoArgs(sorted, str_sort);
    if (done == NULL || PyObject_GetBuffer(sorted, &out, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        Py_XDECREF(done);
        Py_XDECREF(sorted);
        PyBuffer_Release(&in);
        return NULL;
    }
    Py_DECREF(done);
    Py_ssize_t n = in.shape[0];
    if (out.len != in.len) { /* not a copy of the same array */
        PyBuffer_Release(&out);
        PyBuffer_Release(&in);
        Py_DECREF(sorted);
        Py_RETURN_NONE;
    }
    if (kind == 'f') {
        STABLE_RUNS(float);
    }
    else {
        STABLE_RUNS(double);
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&in);
    return sorted;
}

/* ---- Array as a C type -------------------------------------------------------------
 *
 * `array_class(cls)`: the Python class `_array.Array` made again as a type of this module,
 * with the same attributes (its namespace copied) and slots of its own. What differs is
 * the object's life: an instance holds its data, dtype, device and ndim and nothing that
 * could hold it back (no cycle: it is not tracked by the garbage collector), and a freed
 * one is kept on a free list for the next. Making and freeing a Python class's instance
 * was two thirds of what a view cost above CuPy's (0.098 of 0.145 us on an H200 host). */
typedef struct {
    PyObject_HEAD
    PyObject *data, *dtype, *device, *ndim, *weakrefs;
} ArrayObject;

#define FREE_MAX 64
static ArrayObject *free_arrays[FREE_MAX];
static int n_free;

static PyObject *
Array_alloc(PyTypeObject *type, Py_ssize_t nitems)
{
#ifndef Py_GIL_DISABLED /* the list is the GIL's */
    if (n_free > 0 && nitems == 0) {
        ArrayObject *a = free_arrays[--n_free]; /* its fields are NULL */
        return PyObject_Init((PyObject *)a, type); /* a reference to type, as every heap type's */
    }
#endif
    return PyType_GenericAlloc(type, nitems);
}

static void
Array_dealloc(PyObject *self)
{
    ArrayObject *a = (ArrayObject *)self;
    PyTypeObject *type = Py_TYPE(self);
    if (a->weakrefs != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    Py_CLEAR(a->data);
    Py_CLEAR(a->dtype);
    Py_CLEAR(a->device);
    Py_CLEAR(a->ndim);
#ifndef Py_GIL_DISABLED
    if (n_free < FREE_MAX) {
        free_arrays[n_free++] = a;
    }
    else
#endif
    {
        type->tp_free(self);
    }
    Py_DECREF(type);
}

static PyMemberDef Array_members[] = {
    {"_data", T_OBJECT_EX, offsetof(ArrayObject, data), 0, NULL},
    {"_dtype", T_OBJECT_EX, offsetof(ArrayObject, dtype), 0, NULL},
    {"_device", T_OBJECT_EX, offsetof(ArrayObject, device), 0, NULL},
    {"_ndim", T_OBJECT_EX, offsetof(ArrayObject, ndim), 0, NULL},
    {"__weaklistoffset__", T_PYSSIZET, offsetof(ArrayObject, weakrefs), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot Array_slots[] = {
    {Py_tp_alloc, Array_alloc},
    {Py_tp_dealloc, Array_dealloc},
    {Py_tp_members, Array_members},
    {0, NULL},
};

/* Not a base type: every Array is exactly this type (type(x) is Array, as the fast paths
 * test), and a subclass would give its instances a dealloc of its own. */
static PyType_Spec Array_spec = {
    "xpgpu._array.Array", sizeof(ArrayObject), 0, Py_TPFLAGS_DEFAULT, Array_slots,
};

static PyObject *
array_class(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls) || ((PyTypeObject *)cls)->tp_dict == NULL) {
        PyErr_SetString(PyExc_TypeError, "array_class: expected a class");
        return NULL;
    }
    PyObject *type = PyType_FromSpec(&Array_spec);
    if (type == NULL) {
        return NULL;
    }
    /* The class's namespace but its own slots (the new type's members replace them). */
    static const char *own[] = {"__dict__", "__weakref__", "__slots__", "_data", "_dtype",
                                "_device", "_ndim", NULL};
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(((PyTypeObject *)cls)->tp_dict, &pos, &key, &value)) {
        int skip = 0;
        for (const char **name = own; *name != NULL && !skip; name++) {
            skip = PyUnicode_CompareWithASCIIString(key, *name) == 0;
        }
        if (!skip && PyObject_SetAttr(type, key, value) < 0) {
            Py_DECREF(type);
            return NULL;
        }
    }
    return type;
}

static int
slot_offset(PyObject *descr, Py_ssize_t *offset)
{
    if (!PyObject_TypeCheck(descr, &PyMemberDescr_Type)) {
        PyErr_SetString(PyExc_TypeError, "setup: expected a slot descriptor");
        return -1;
    }
    PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
    if (member->type != T_OBJECT_EX) {
        PyErr_SetString(PyExc_TypeError, "setup: expected an object slot");
        return -1;
    }
    *offset = member->offset;
    return 0;
}

static PyObject *
setup(PyObject *module, PyObject *args)
{
    PyObject *array, *data, *dtype, *device, *ndim, *index, *np, *backend, *cpu, *checked;
    PyObject *var, *value;
    if (!PyArg_ParseTuple(args, "O!OOOOOOOOOO!O:setup", &PyType_Type, &array, &data, &dtype,
                          &device, &ndim, &index, &np, &backend, &cpu, &checked,
                          &PyContextVar_Type, &var, &value)) {
        return NULL;
    }
    if (slot_offset(data, &off_data) || slot_offset(dtype, &off_dtype)
        || slot_offset(device, &off_device) || slot_offset(ndim, &off_ndim)
        || slot_offset(index, &off_index)
        || slot_offset(np, &off_np) || slot_offset(backend, &off_backend)) {
        return NULL;
    }
    Py_XSETREF(array_type, (PyTypeObject *)Py_NewRef(array));
    Py_XSETREF(cpu_device, Py_NewRef(cpu));
    Py_XSETREF(wrap_checked, Py_NewRef(checked));
    Py_XSETREF(errstate, Py_NewRef(var));
    Py_XSETREF(quiet, Py_NewRef(value));
    Py_RETURN_NONE;
}

/* wrap(data, dtype, device): _array.wrap (the Python function is its definition: an Array
 * of backend data whose dtype the caller guarantees), ~0.1 us a call less. */
static PyObject *
wrap(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "wrap(data, dtype, device) takes 3 arguments");
        return NULL;
    }
    if (array_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "wrap: setup() was not called");
        return NULL;
    }
    return new_array(Py_NewRef(args[0]), args[1], args[2]);
}

static PyMethodDef module_methods[] = {
    {"setup", setup, METH_VARARGS,
     "setup(Array, Array._data, Array._dtype, Array._device, Array._ndim, DType._i, "
     "DType.dtype, "
     "Device.backend, cpu, wrap_checked, errstate, quiet): the layout the fast path "
     "reads, and the CPU backend's error-state variable with its quiet value."},
    {"view", view, METH_VARARGS,
     "view(fallback, kind, name, mask=None): __getitem__ (kind 0), reshape (1) or "
     "permute_dims (2) with the fast paths in C; name: the ndarray method (reshape, "
     "transpose); mask: the dtype of the masks __getitem__ takes (bool)."},
    {"method", method, METH_VARARGS,
     "method(function, ndarray, method): method(a, ...) where a is exactly an ndarray, "
     "function(a, ...) otherwise (_backend.method)."},
    {"array_class", array_class, METH_O,
     "array_class(cls): the class _array.Array as a type of this module, with the same "
     "attributes, whose instances are made and freed at less cost."},
    {"fast_subscript", fast_subscript, METH_NOARGS,
     "fast_subscript(): x[key] of an Array calls the View that is Array.__getitem__ without "
     "CPython's generic lookup (until __getitem__ is assigned again); whether it did."},
    {"wrap", (PyCFunction)(void (*)(void))wrap, METH_FASTCALL,
     "wrap(data, dtype, device): a new Array of them (_array.wrap)."},
    {"setitem", setitem, METH_VARARGS,
     "setitem(fallback, floating, ranges, bool): Array.__setitem__ with its fast path in C; "
     "floating and ranges: by dtype index, whether floating and an integer dtype's bounds."},
    {"flat_rank", flat_rank, METH_VARARGS,
     "flat_rank(fallback, ranks): _creation._flat_rank in C (ranks: Python scalar type -> "
     "rank)."},
    {"stable_sort", stable_sort, METH_O,
     "stable_sort(a): numpy.sort(a, kind='stable') of a 1-D C-contiguous float32 or "
     "float64 array, by its default sort and its runs of zeros and NaNs put back in "
     "order; None for another."},
    {"alloc", alloc, METH_VARARGS,
     "alloc(fallback, name, default_dtype, Device, devices_globals): zeros, ones or empty "
     "(name) with the fast path of _creation._alloc in C."},
    {"basic_views", basic_views, METH_VARARGS,
     "basic_views(ndarray_type, capsule): x[key] of arrays whose data is of ndarray_type "
     "takes its view from the capsule's C function (xpgpu._backend._launch.BASIC_VIEW) "
     "first."},
    {"binary", binary, METH_VARARGS,
     "binary(fallback, table, n, cpu_func, name, label[, by_type, lo, hi]): the fast path "
     "of one function (table: n * n results, or n for a unary function); cpu_func: the CPU "
     "backend's function, or None to read it by name as elsewhere; by_type, lo, hi: the "
     "results with Python scalars and the ints each dtype holds, by dtype index."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "xpgpu._speedups",
    "The compiled fast paths of xpgpu's most frequent calls (see the source).", -1,
    module_methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    if (PyType_Ready(&BinaryType) < 0 || PyType_Ready(&ViewType) < 0
        || PyType_Ready(&MethodType) < 0 || PyType_Ready(&AllocType) < 0
        || PyType_Ready(&SetitemType) < 0 || PyType_Ready(&FlatRankType) < 0) {
        return NULL;
    }
    str_dtype = PyUnicode_InternFromString("dtype");
    str_asarray = PyUnicode_InternFromString("asarray");
    str_ndim = PyUnicode_InternFromString("ndim");
    str_getitem = PyUnicode_InternFromString("__getitem__");
    str_device = PyUnicode_InternFromString("device");
    str_setitem = PyUnicode_InternFromString("setitem");
    str_shape = PyUnicode_InternFromString("shape");
    str_default = PyUnicode_InternFromString("_default");
    str_mask_getitem = PyUnicode_InternFromString("mask_getitem");
    str_T = PyUnicode_InternFromString("T");
    str_copy = PyUnicode_InternFromString("copy");
    str_sort = PyUnicode_InternFromString("sort");
    if (str_dtype == NULL || str_asarray == NULL || str_ndim == NULL || str_getitem == NULL || str_device == NULL
        || str_default == NULL || str_setitem == NULL || str_shape == NULL
        || str_mask_getitem == NULL || str_copy == NULL || str_sort == NULL) {
        return NULL;
    }
    return PyModule_Create(&module_def);
}
