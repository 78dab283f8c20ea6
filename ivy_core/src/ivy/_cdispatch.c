/* The hot path of ivy.<op> in C: an optional speed-up of ivy/_dispatch.py.
 *
 * A Python-level dispatcher costs one interpreted frame (~0.2 us) per call, which is a 5-15%
 * overhead on a NumPy or torch op of 1e4 elements. The objects here do the same few steps in C
 * (vectorcall in, type(x), one dict lookup, a type check of the other array arguments, vectorcall
 * out) for ~40 ns, and hand every call they do not fully understand to the Python function they
 * wrap, which has the complete semantics (keywords, backend=, inference, error messages). So this
 * file only ever decides "is this the common case?"; it never implements behaviour of its own.
 *
 * Dispatcher(fallback, table, kwonly, npos_min, npos_max, arrays, seq, var_from, poskw=None)
 *     ops whose backend is inferred from array arguments: table is {type: implementation};
 *     keywords naming positional parameters (poskw) are moved to their positions
 * ContextDispatcher(fallback, name, stack_var, kwonly, npos_min, npos_max)
 *     ops without array arguments (creation): the backend on top of the context stack
 * FastPath(native, full, npos_min, npos_max, dtypes, same, retry, defaults, keywords,
 *          native_defaults, keyword_types)
 *     for plugins (see ivy.plugin_kit.fastpath): call `native` when the call is plain and the
 *     dtype guards hold, else (or when `native` raises one of `retry`) `full`, the plugin's
 *     Python function with the standard's semantics
 * TypeSwitch
 *     the base of ivy.compile's per-call object: the program for the first argument's type
 * TypeLookup(table, fallback)
 *     ivy.namespace: a value per type of the one argument
 *
 * All of them behave like builtin functions: they have a __dict__ (for __signature__, __doc__,
 * __name__, ...) and do not bind as methods.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <structmember.h>

#define MAX_ARRAYS 8

/* The hot paths stay short and together (a framework op of a few microseconds evicts them from
 * the instruction cache: each cache line of code a call runs again costs a few ns); what only
 * unusual calls need is kept out of line. */
#if defined(__GNUC__) || defined(__clang__)
#define COLD __attribute__((noinline, cold))
#define NOINLINE __attribute__((noinline))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define COLD
#define NOINLINE
#define LIKELY(x) (x)
#endif

/* fn(*args) for the op's native function. A builtin function that takes a tuple (torch's and
 * paddle's) is called with its tuple directly, as the generic call does (with its recursion
 * guard) but without the rest of its generic path, which cost ~1.5% of a 2 us torch op. */
static inline PyObject *
call_native(PyObject *fn, PyObject *const *args, Py_ssize_t nargs, size_t nargsf)
{
    if (PyCFunction_CheckExact(fn) &&
        (PyCFunction_GET_FLAGS(fn) & (METH_VARARGS | METH_KEYWORDS | METH_FASTCALL | METH_NOARGS | METH_O |
                                      METH_METHOD)) == (METH_VARARGS | METH_KEYWORDS)) {
        PyObject *t = PyTuple_New(nargs);
        if (t == NULL)
            return NULL;
        for (Py_ssize_t i = 0; i < nargs; i++)
            PyTuple_SET_ITEM(t, i, Py_NewRef(args[i]));
        PyObject *r = NULL;
        if (Py_EnterRecursiveCall(" while calling a Python object") == 0) {
            r = ((PyCFunctionWithKeywords)(void (*)(void))PyCFunction_GET_FUNCTION(fn))(PyCFunction_GET_SELF(fn), t,
                                                                                      NULL);
            Py_LeaveRecursiveCall();
        }
        Py_DECREF(t);
        return r;
    }
    return PyObject_Vectorcall(fn, args, nargsf, NULL);
}

/* Types that never decide the backend: Python scalars, None and strings (dtype names). */
static inline int
is_neutral(PyObject *x)
{
    PyTypeObject *t = Py_TYPE(x);
    return t == &PyFloat_Type || t == &PyLong_Type || t == &PyBool_Type || x == Py_None ||
           t == &PyComplex_Type || t == &PyUnicode_Type;
}

/* Every keyword name is one the implementation may receive as is (a keyword-only option of the spec). */
static inline int
keywords_forwardable(PyObject *kwnames, PyObject *kwonly)
{
    if (kwnames == NULL)
        return 1;
    Py_ssize_t n = PyTuple_GET_SIZE(kwnames);
    if (n == 0)
        return 1;
    if (kwonly == Py_None)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int r = PySet_Contains(kwonly, PyTuple_GET_ITEM(kwnames, i));
        if (r != 1) {
            if (r < 0)
                PyErr_Clear();
            return 0;
        }
    }
    return 1;
}

/* The types are function-like objects: a vectorcall slot, a __dict__ and weakrefs. The
 * Dispatcher and FastPath put the fields a call reads first and these two last: a framework op of
 * a few microseconds evicts them from the L1 cache, and every cache line a call reads again costs
 * a few nanoseconds. */
#define FUNC_HEAD                                                                               \
    PyObject_HEAD vectorcallfunc vectorcall;                                                    \
    PyObject *dict;                                                                             \
    PyObject *weakrefs;

#define VISIT_FIELD(f) Py_VISIT(self->f);
#define CLEAR_FIELD(f) Py_CLEAR(self->f);
/* tp_traverse and tp_clear of a type from the list of its object fields. */
#define GC_METHODS(prefix, T, FIELDS)                                                           \
    static int prefix##_traverse(T *self, visitproc visit, void *arg)                           \
    {                                                                                           \
        FIELDS(VISIT_FIELD) return 0;                                                           \
    }                                                                                           \
    static int prefix##_clear(T *self)                                                          \
    {                                                                                           \
        FIELDS(CLEAR_FIELD) return 0;                                                           \
    }

static void
func_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    if (*(PyObject **)((char *)self + Py_TYPE(self)->tp_weaklistoffset) != NULL)
        PyObject_ClearWeakRefs(self);
    Py_TYPE(self)->tp_clear(self);
    Py_TYPE(self)->tp_free(self);
}

/* ------------------------------------------------------------------------------------------ */
/* FastPath                                                                                   */

#define MAX_ARGS 8 /* the most arguments a FastPath passes on from its own stack */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    /* read by every call */
    PyObject *native;
    Py_ssize_t npos_min, npos_max;
    Py_ssize_t same_a, same_b; /* args[same_a].dtype == args[same_b].dtype, or -1 */
    PyObject *dtypes_seq;      /* the dtypes args[0].dtype must be among, as a tuple (scanned by
                                * identity first), or None */
    PyObject *defaults; /* the values of the optional positional arguments, then of `keywords`; or None */
    Py_ssize_t need;    /* native gets at least this many arguments: the defaults from here on are
                         * its own, passed only when the call gives one of them or a later one */
    /* read by calls with keywords, or that fail */
    PyObject *keywords; /* tuple: the names of the last len(keywords) defaults; or None */
    PyObject *kwtypes;  /* tuple, per keyword: a tuple of the exact types its value may have, or None */
    Py_ssize_t kw_first; /* the argument position of keywords[0] */
    PyObject *retry;    /* tuple of exception types: on those, `full` gets the call; or None */
    PyObject *full;
    PyObject *dtypes; /* the same dtypes as a frozenset (equal but not identical ones), or None */
    PyObject *dict;
    PyObject *weakrefs;
} FastPath;

static PyObject *str_dtype; /* interned "dtype" */

/* The `dtype` getter of the last array type seen, called directly: the generic attribute lookup
 * around it costs as much again (torch: ~25 of ~55 ns per read, two reads per binary op). Valid
 * while that type's version tag is unchanged (any change to the type or its bases bumps it). */
static PyTypeObject *dtype_type;   /* borrowed: only compared, never dereferenced when stale */
static unsigned int dtype_tag;
static getter dtype_get;
static void *dtype_closure;

/* dtype_of's uncommon cases: a type other than the last one seen (or changed since), a Python
 * number, a getter that raised. */
static COLD PyObject *
dtype_slow(PyObject *x)
{
    PyTypeObject *t = Py_TYPE(x);
    if (t == &PyFloat_Type || t == &PyLong_Type || t == &PyBool_Type || x == Py_None)
        return NULL;
    /* Cache the getter when `dtype` is a C getset descriptor found on the type, with nothing in
     * the instance's dict to shadow it (a data descriptor wins over the dict anyway) and the
     * generic attribute lookup in use (no __getattr__ / __getattribute__ of the type's own). */
    if ((t->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) && t->tp_getattro == PyObject_GenericGetAttr) {
        PyObject *descr = _PyType_Lookup(t, str_dtype);
        if (descr != NULL && Py_IS_TYPE(descr, &PyGetSetDescr_Type)) {
            PyGetSetDef *gs = ((PyGetSetDescrObject *)descr)->d_getset;
            if (gs->get != NULL && PyObject_TypeCheck(x, PyDescr_TYPE(descr))) {
                dtype_type = t;
                dtype_tag = t->tp_version_tag;
                dtype_get = gs->get;
                dtype_closure = gs->closure;
            }
        }
    }
    PyObject *d = NULL;
#if PY_VERSION_HEX >= 0x030D0000
    if (PyObject_GetOptionalAttr(x, str_dtype, &d) < 0)
#else
    if (_PyObject_LookupAttr(x, str_dtype, &d) < 0)
#endif
        PyErr_Clear(); /* a property that raised something else: not the plain case either */
    return d;
}

/* args[i].dtype (new reference), or NULL without an error set when it has none. A Python
 * number (the usual other operand: x - 0.5) is answered without a lookup, and a failed lookup
 * raises no AttributeError: making and clearing one cost ~0.5-1 us per call. */
static inline PyObject *
dtype_of(PyObject *x)
{
    PyTypeObject *t = Py_TYPE(x);
    if (LIKELY(t == dtype_type && t->tp_version_tag == dtype_tag)) {
        PyObject *d = dtype_get(x, dtype_closure);
        if (LIKELY(d != NULL))
            return d;
        PyErr_Clear();
        return NULL;
    }
    return dtype_slow(x);
}

/* d among the allowed dtypes, by equality (after the identity scan failed). */
static COLD int
dtype_allowed_slow(FastPath *self, PyObject *d)
{
    int ok = PySet_Contains(self->dtypes, d);
    if (ok < 0) {
        PyErr_Clear();
        return 0;
    }
    return ok;
}

/* Two dtypes that are not the same object: equal? (paddle's are not singletons.) */
static COLD int
dtypes_equal_slow(PyObject *a, PyObject *b)
{
    int ok = PyObject_RichCompareBool(a, b, Py_EQ);
    if (ok < 0) {
        PyErr_Clear();
        return 0;
    }
    return ok;
}

/* 1: the guards hold, 0: they do not (no error set). */
static int
fast_guards(FastPath *self, PyObject *const *args)
{
    if (self->dtypes_seq != Py_None) {
        PyObject *d = dtype_of(args[0]);
        if (d == NULL)
            return 0;
        /* Identity first: dtypes are mostly singletons, and hashing one can be slow (paddle's
         * hash goes through a Python-level binding, ~1 us). */
        int ok = 0;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self->dtypes_seq); i++)
            if (PyTuple_GET_ITEM(self->dtypes_seq, i) == d) {
                ok = 1;
                break;
            }
        if (!ok)
            ok = dtype_allowed_slow(self, d);
        Py_DECREF(d);
        if (!ok)
            return 0;
    }
    if (self->same_a >= 0) {
        PyObject *a = dtype_of(args[self->same_a]);
        if (a == NULL)
            return 0;
        PyObject *b = dtype_of(args[self->same_b]);
        int ok = b == NULL ? 0 : a == b ? 1 : dtypes_equal_slow(a, b);
        Py_DECREF(a);
        Py_XDECREF(b);
        return ok;
    }
    return 1;
}

/* The position among `keywords` of the keyword `name`, or -1. Call sites pass interned names (the
 * compiler's constants), so identity is tried first. */
static inline Py_ssize_t
keyword_slot(PyObject *keywords, PyObject *name)
{
    Py_ssize_t n = PyTuple_GET_SIZE(keywords);
    for (Py_ssize_t j = 0; j < n; j++)
        if (PyTuple_GET_ITEM(keywords, j) == name)
            return j;
    for (Py_ssize_t j = 0; j < n; j++)
        if (PyUnicode_Compare(PyTuple_GET_ITEM(keywords, j), name) == 0)
            return j;
    if (PyErr_Occurred())
        PyErr_Clear();
    return -1;
}

/* The call of `native` with the positional arguments `args` followed by the keyword arguments
 * (kwnames, values after args) in their positions and the defaults in between: NULL with no error
 * set when the keywords are beyond the fast path (the full function decides). */
static NOINLINE PyObject *
fast_with_keywords(FastPath *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *stack[MAX_ARGS];
    unsigned int given = 0; /* bit i: stack[i] comes from the call */
    Py_ssize_t total = nargs > self->need ? nargs : self->need;
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < nkw; k++) {
        if (self->keywords == Py_None)
            return NULL;
        Py_ssize_t j = keyword_slot(self->keywords, PyTuple_GET_ITEM(kwnames, k));
        if (j < 0)
            return NULL; /* a keyword native does not take */
        Py_ssize_t slot = self->kw_first + j;
        if (slot < nargs)
            return NULL; /* given twice: the full function raises the TypeError */
        PyObject *v = args[nargs + k];
        if (self->kwtypes != Py_None) {
            PyObject *allowed = PyTuple_GET_ITEM(self->kwtypes, j);
            if (allowed != Py_None) {
                int ok = 0;
                for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(allowed) && !ok; i++)
                    ok = (PyObject *)Py_TYPE(v) == PyTuple_GET_ITEM(allowed, i);
                if (!ok)
                    return NULL; /* say, axis=() where native reads "every axis" */
            }
        }
        stack[slot] = v;
        given |= 1u << slot;
        if (slot >= total)
            total = slot + 1;
    }
    for (Py_ssize_t i = 0; i < total; i++)
        if (i < nargs)
            stack[i] = args[i];
        else if (!(given & (1u << i)))
            stack[i] = PyTuple_GET_ITEM(self->defaults, i - self->npos_min);
    return call_native(self->native, stack, total, total);
}

/* A call beyond the fast path: the plugin's function. */
static COLD PyObject *
fast_full(FastPath *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    return PyObject_Vectorcall(self->full, args, nargsf, kwnames);
}

/* After `native` failed: `full` gets the call when the error is one of `retry`. */
static COLD PyObject *
fast_retry(FastPath *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (self->retry == Py_None || !PyErr_ExceptionMatches(self->retry))
        return NULL;
    PyErr_Clear(); /* e.g. a dtype the native kernel lacks: the full function handles it */
    return PyObject_Vectorcall(self->full, args, nargsf, kwnames);
}

static NOINLINE PyObject *
fast_call(FastPath *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs < self->npos_min || nargs > self->npos_max || !fast_guards(self, args))
        goto slow;
    PyObject *res;
    if ((kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0) && nargs >= self->need)
        res = call_native(self->native, args, nargs, nargsf);
    else {
        /* The native function lacks our default there (torch.cumsum needs its dim), or takes a
         * keyword-only option of the spec positionally (torch.stack's dim): pass it. */
        res = fast_with_keywords(self, args, nargs, kwnames);
        if (res == NULL && !PyErr_Occurred())
            goto slow;
    }
    if (LIKELY(res != NULL))
        return res;
    return fast_retry(self, args, nargsf, kwnames);
slow:
    return fast_full(self, args, nargsf, kwnames);
}

static PyObject *
fast_new(PyTypeObject *type, PyObject *a, PyObject *kw)
{
    static char *kwlist[] = {"native", "full", "npos_min", "npos_max", "dtypes", "same", "retry",
                             "defaults", "keywords", "native_defaults", "keyword_types", NULL};
    PyObject *native, *full, *dtypes = Py_None, *same = Py_None, *retry = Py_None, *defaults = Py_None;
    PyObject *keywords = Py_None, *kwtypes = Py_None;
    Py_ssize_t npos_min, npos_max, same_a = -1, same_b = -1, omit = 0;
    if (!PyArg_ParseTupleAndKeywords(a, kw, "OOnn|OOOOOnO", kwlist, &native, &full, &npos_min, &npos_max,
                                     &dtypes, &same, &retry, &defaults, &keywords, &omit, &kwtypes))
        return NULL;
    if (!PyCallable_Check(native) || !PyCallable_Check(full)) {
        PyErr_SetString(PyExc_TypeError, "FastPath: native and full must be callable");
        return NULL;
    }
    if (dtypes != Py_None && !PyFrozenSet_CheckExact(dtypes)) {
        PyErr_SetString(PyExc_TypeError, "FastPath: dtypes must be a frozenset or None");
        return NULL;
    }
    if (retry != Py_None && !PyTuple_CheckExact(retry)) {
        PyErr_SetString(PyExc_TypeError, "FastPath: retry must be a tuple of exception types or None");
        return NULL;
    }
    Py_ssize_t ndef = 0;
    if (defaults != Py_None) {
        if (!PyTuple_CheckExact(defaults) || npos_min + PyTuple_GET_SIZE(defaults) > MAX_ARGS ||
            npos_min + PyTuple_GET_SIZE(defaults) < npos_max) {
            PyErr_Format(PyExc_ValueError, "FastPath: defaults must be a tuple with a value for every "
                                           "optional positional argument (at most %d arguments in all)", MAX_ARGS);
            return NULL;
        }
        ndef = PyTuple_GET_SIZE(defaults);
    }
    if (omit < 0 || omit > ndef) {
        PyErr_SetString(PyExc_ValueError, "FastPath: native_defaults must be between 0 and len(defaults)");
        return NULL;
    }
    Py_ssize_t nkw = 0;
    if (keywords != Py_None) {
        int ok = PyTuple_CheckExact(keywords) && PyTuple_GET_SIZE(keywords) > 0 &&
                 npos_min + ndef == npos_max + PyTuple_GET_SIZE(keywords);
        for (Py_ssize_t i = 0; ok && i < PyTuple_GET_SIZE(keywords); i++)
            ok = PyUnicode_CheckExact(PyTuple_GET_ITEM(keywords, i));
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "FastPath: keywords must be a tuple of names, one for each "
                                              "default after the optional positional arguments");
            return NULL;
        }
        nkw = PyTuple_GET_SIZE(keywords);
    }
    if (kwtypes != Py_None) {
        int ok = PyTuple_CheckExact(kwtypes) && PyTuple_GET_SIZE(kwtypes) == nkw;
        for (Py_ssize_t i = 0; ok && i < nkw; i++) {
            PyObject *e = PyTuple_GET_ITEM(kwtypes, i);
            ok = e == Py_None || PyTuple_CheckExact(e);
            for (Py_ssize_t j = 0; ok && e != Py_None && j < PyTuple_GET_SIZE(e); j++)
                ok = PyType_Check(PyTuple_GET_ITEM(e, j));
        }
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "FastPath: keyword_types must be a tuple with, for each "
                                              "keyword, None or a tuple of types");
            return NULL;
        }
    }
    if (same != Py_None && !PyArg_ParseTuple(same, "nn;FastPath: same must be a pair of positions",
                                             &same_a, &same_b))
        return NULL;
    Py_ssize_t need = dtypes != Py_None ? 1 : 0;
    if (same_a >= need)
        need = same_a + 1;
    if (same_b >= need)
        need = same_b + 1;
    if (same != Py_None && (same_a < 0 || same_b < 0)) {
        PyErr_SetString(PyExc_ValueError, "FastPath: same positions must be >= 0");
        return NULL;
    }
    if (npos_min < need || npos_max < npos_min) {
        PyErr_SetString(PyExc_ValueError, "FastPath: the dtype guards read arrays that must be required "
                                          "positional arguments (npos_min too small)");
        return NULL;
    }
    FastPath *self = (FastPath *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->native = Py_NewRef(native);
    self->full = Py_NewRef(full);
    self->dtypes = Py_NewRef(dtypes);
    self->dtypes_seq = dtypes == Py_None ? Py_NewRef(Py_None) : PySequence_Tuple(dtypes);
    if (self->dtypes_seq == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    self->retry = Py_NewRef(retry);
    self->defaults = Py_NewRef(defaults);
    self->keywords = Py_NewRef(keywords);
    self->kwtypes = Py_NewRef(kwtypes);
    self->npos_min = npos_min;
    self->npos_max = npos_max;
    self->need = npos_min + ndef - omit;
    self->kw_first = npos_min + ndef - nkw;
    self->same_a = same_a;
    self->same_b = same_b;
    self->vectorcall = (vectorcallfunc)fast_call;
    return (PyObject *)self;
}

/* The object fields, listed once for the garbage collector. */
#define FASTPATH_OBJECTS(X)                                                                     \
    X(dict) X(native) X(full) X(dtypes) X(dtypes_seq) X(retry) X(defaults) X(keywords) X(kwtypes)
GC_METHODS(fast, FastPath, FASTPATH_OBJECTS)

/* ------------------------------------------------------------------------------------------ */
/* Dispatcher                                                                                 */

#define MAX_STACK 16 /* the most arguments (positional and keyword) a call may have to be moved */

/* A Dispatcher calls the FastPath of its table directly, and a FastPath without guards by its
 * native function: each C call layer in between cost ~1.5% of a 2 us torch op. */
static PyTypeObject FastPathType;

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    /* read by every call */
    int16_t npos_min, npos_max; /* npos_max < 0: no limit (*args) */
    int16_t seq;                /* positional index of a sequence of arrays, or -1 */
    int16_t var_from;           /* every positional argument from here on is an array, or -1 */
    int16_t n_arrays;
    int16_t plain_min, plain_max; /* the argument counts plain_native takes */
    int16_t lane; /* the short path applies: array arguments at fixed positions only, and a lookup
                   * to reuse (last_type, last_impl) */
    int8_t arrays[MAX_ARRAYS];    /* positional indices of array arguments */
    PyObject *table;
#if PY_VERSION_HEX < 0x030C0000
    /* The last lookup, valid while the table's version is unchanged (every change of a dict
     * gives it a new version): a lookup hashes a type and probes, ~20 ns a call. */
    PyTypeObject *last_type; /* only compared */
    PyObject *last_impl;     /* borrowed from the table, which holds it while unchanged */
    uint64_t last_version;
    /* When last_impl is a FastPath without guards or defaults: its native function (borrowed, like
     * last_impl), called with positional arguments without reading the FastPath at all. */
    PyObject *plain_native;
#endif
    /* read by calls with keywords */
    PyObject *kwonly; /* frozenset of forwardable keyword names, or None */
    PyObject *poskw;  /* tuple: the name of each positional parameter a call may pass by keyword
                       * (None for positional-only ones), or None */
    PyObject *kw_ok;  /* the keyword names of the last call whose keywords could be forwarded as
                       * they came (call sites pass the same tuple each time), or NULL */
    PyObject *fallback;
    PyObject *dict;
    PyObject *weakrefs;
} Dispatcher;

/* table[u] (borrowed), or NULL with or without an error set. */
static inline PyObject *
table_get(Dispatcher *self, PyTypeObject *u)
{
#if PY_VERSION_HEX < 0x030C0000
    uint64_t v = ((PyDictObject *)self->table)->ma_version_tag;
    if (u == self->last_type && v == self->last_version)
        return self->last_impl;
    PyObject *g = PyDict_GetItemWithError(self->table, (PyObject *)u);
    if (g != NULL) {
        self->last_type = u;
        self->last_impl = g;
        self->last_version = v;
        self->lane = (self->n_arrays > 0 || self->seq >= 0) && self->var_from < 0 && self->npos_max >= 0;
        self->plain_native = NULL;
        if (Py_IS_TYPE(g, &FastPathType)) {
            FastPath *fp = (FastPath *)g;
            if (fp->dtypes_seq == Py_None && fp->same_a < 0 && fp->defaults == Py_None) {
                self->plain_native = fp->native;
                self->plain_min = (int16_t)fp->npos_min;
                self->plain_max = (int16_t)fp->npos_max;
            }
        }
    }
    return g;
#else
    return PyDict_GetItemWithError(self->table, (PyObject *)u);
#endif
}

/* Folds one argument into the (type, implementation) found so far. 0: fine, 1: not the fast
 * case, -1: error set. */
static inline int
fold(Dispatcher *self, PyObject *x, PyTypeObject **t, PyObject **f)
{
    PyTypeObject *u = Py_TYPE(x);
    if (u == *t || is_neutral(x))
        return 0;
    PyObject *g = table_get(self, u);
    if (g == NULL)
        return PyErr_Occurred() ? -1 : 1;
    if (*f == NULL) {
        *t = u;
        *f = g;
        return 0;
    }
    return g == *f ? 0 : 1; /* two types of one backend share an implementation */
}

/* Keyword arguments naming positional parameters (expand_dims(x, axis=-1)) moved to their
 * positions in stack[1:], the other keywords after them with their names in *rest (a new tuple, or
 * NULL when none are left). 1: moved, 0: none of them names a positional parameter, -1: beyond
 * the C code (a gap before a moved one, a name given twice): the Python function decides. */
static COLD int
move_keywords(Dispatcher *self, PyObject *const *args, Py_ssize_t *nargs, PyObject *kwnames,
              PyObject **stack, PyObject **rest)
{
    Py_ssize_t n = *nargs, nkw = PyTuple_GET_SIZE(kwnames), npos = PyTuple_GET_SIZE(self->poskw);
    Py_ssize_t slot_of[MAX_STACK];
    Py_ssize_t moved = 0;
    if (n + nkw > MAX_STACK)
        return -1;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k);
        slot_of[k] = -1;
        for (Py_ssize_t j = 0; j < npos; j++) {
            PyObject *p = PyTuple_GET_ITEM(self->poskw, j);
            if (p == name || (p != Py_None && PyUnicode_Compare(p, name) == 0)) {
                slot_of[k] = j;
                break;
            }
        }
        if (PyErr_Occurred())
            PyErr_Clear();
        if (slot_of[k] >= 0) {
            if (slot_of[k] < n)
                return -1; /* given twice: the Python function raises the TypeError */
            moved++;
        }
    }
    if (moved == 0)
        return 0;
    /* the moved ones must fill the positions right after the positional arguments */
    unsigned int filled = 0;
    for (Py_ssize_t k = 0; k < nkw; k++)
        if (slot_of[k] >= 0) {
            if (slot_of[k] >= n + moved)
                return -1;
            filled |= 1u << (slot_of[k] - n);
        }
    if (filled != (1u << moved) - 1)
        return -1;
    for (Py_ssize_t i = 0; i < n; i++)
        stack[1 + i] = args[i];
    Py_ssize_t nrest = nkw - moved, r = 0;
    *rest = NULL;
    if (nrest > 0 && (*rest = PyTuple_New(nrest)) == NULL)
        return -2;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        if (slot_of[k] >= 0)
            stack[1 + slot_of[k]] = args[n + k];
        else {
            stack[1 + n + moved + r] = args[n + k];
            PyTuple_SET_ITEM(*rest, r, Py_NewRef(PyTuple_GET_ITEM(kwnames, k)));
            r++;
        }
    }
    *nargs = n + moved;
    return 1;
}

/* After the native function of a plain FastPath failed: the FastPath's retry. f is alive while the
 * table is unchanged (the table holds it); a table changed during the call (a backend dropped)
 * sends the call to the Python function. */
#if PY_VERSION_HEX < 0x030C0000
static COLD PyObject *
plain_failed(Dispatcher *self, PyObject *f, uint64_t v, PyObject *const *args, size_t nargsf)
{
    if (((PyDictObject *)self->table)->ma_version_tag == v)
        return fast_retry((FastPath *)f, args, nargsf, NULL);
    PyErr_Clear();
    return PyObject_Vectorcall(self->fallback, args, nargsf, NULL);
}
#endif

/* The call with the implementation f of the arguments' backend. */
static inline PyObject *
dispatched(Dispatcher *self, PyObject *f, PyObject *const *args, Py_ssize_t nargs, size_t nargsf,
           PyObject *kwnames)
{
#if PY_VERSION_HEX < 0x030C0000
    if (f == self->last_impl && self->plain_native != NULL && kwnames == NULL && nargs >= self->plain_min &&
        nargs <= self->plain_max) {
        uint64_t v = self->last_version;
        PyObject *native = Py_NewRef(self->plain_native);
        PyObject *res = call_native(native, args, nargs, nargsf);
        Py_DECREF(native);
        return res != NULL ? res : plain_failed(self, f, v, args, nargsf);
    }
#endif
    Py_INCREF(f); /* the table is only borrowed from */
    PyObject *res = Py_IS_TYPE(f, &FastPathType) ? fast_call((FastPath *)f, args, nargsf, kwnames)
                    : kwnames == NULL                ? call_native(f, args, nargs, nargsf)
                                                     : PyObject_Vectorcall(f, args, nargsf, kwnames);
    Py_DECREF(f);
    return res;
}

static COLD PyObject *
dispatcher_general(Dispatcher *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyTypeObject *t = NULL;
    PyObject *f = NULL;
    int r = 0;
    PyObject *const *a = args; /* the arguments after moving keywords to positions */
    PyObject *kw = kwnames;
    size_t af = nargsf;
    PyObject *rest = NULL;
    PyObject *stack[MAX_STACK + 1]; /* stack[0]: the slot PY_VECTORCALL_ARGUMENTS_OFFSET lends */
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0 && self->poskw != Py_None) {
        int m = move_keywords(self, args, &nargs, kwnames, stack, &rest);
        if (m == -2)
            return NULL;
        if (m < 0)
            goto slow;
        if (m == 1) {
            a = stack + 1;
            kw = rest;
            af = (size_t)nargs | PY_VECTORCALL_ARGUMENTS_OFFSET;
        }
    }
    if (nargs < self->npos_min || (self->npos_max >= 0 && nargs > self->npos_max) ||
        !keywords_forwardable(kw, self->kwonly))
        goto slow;
    if (kw != NULL && kw == kwnames && kw != self->kw_ok)
        Py_XSETREF(self->kw_ok, Py_NewRef(kw));
    for (Py_ssize_t k = 0; k < self->n_arrays; k++) {
        Py_ssize_t i = self->arrays[k];
        if (i >= nargs)
            break;
        if ((r = fold(self, a[i], &t, &f)) != 0)
            goto done;
    }
    if (self->seq >= 0 && self->seq < nargs) {
        PyObject *s = a[self->seq];
        if (!PyList_CheckExact(s) && !PyTuple_CheckExact(s))
            goto slow;
        /* PySequence_Fast_ITEMS is re-read each time: fold cannot resize the list, but stays safe
         * even if a type's __eq__ (a dict key comparison) were to run Python code. */
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(s); i++)
            if ((r = fold(self, PySequence_Fast_GET_ITEM(s, i), &t, &f)) != 0)
                goto done;
    }
    if (self->var_from >= 0)
        for (Py_ssize_t i = self->var_from; i < nargs; i++)
            if ((r = fold(self, a[i], &t, &f)) != 0)
                goto done;
done:
    if (r < 0) {
        Py_XDECREF(rest);
        return NULL;
    }
    if (r == 0 && f != NULL) {
        PyObject *res = dispatched(self, f, a, nargs, af, kw);
        Py_XDECREF(rest);
        return res;
    }
slow:
    Py_XDECREF(rest);
    return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
}

/* The common call in a few instructions: positional arguments (and the keyword options of the
 * last call that had some), every array argument of the type of the last lookup (still valid). */
static PyObject *
dispatcher_call(Dispatcher *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
#if PY_VERSION_HEX < 0x030C0000
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (LIKELY(self->lane && nargs >= self->npos_min && nargs <= self->npos_max &&
               (kwnames == NULL || kwnames == self->kw_ok))) {
        PyTypeObject *t = self->last_type;
        int seen = 0;
        for (Py_ssize_t k = 0; k < self->n_arrays && self->arrays[k] < nargs; k++) {
            if (Py_TYPE(args[self->arrays[k]]) != t)
                goto general;
            seen = 1;
        }
        if (self->seq >= 0 && self->seq < nargs) {
            PyObject *q = args[self->seq];
            if (!PyList_CheckExact(q) && !PyTuple_CheckExact(q))
                goto general;
            for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(q); i++) {
                if (Py_TYPE(PySequence_Fast_GET_ITEM(q, i)) != t)
                    goto general;
                seen = 1;
            }
        }
        if (!seen || ((PyDictObject *)self->table)->ma_version_tag != self->last_version)
            goto general;
        return dispatched(self, self->last_impl, args, nargs, nargsf, kwnames);
    }
general:
#endif
    return dispatcher_general(self, args, nargsf, kwnames);
}

static PyObject *
dispatcher_new(PyTypeObject *type, PyObject *a, PyObject *kw)
{
    static char *kwlist[] = {"fallback", "table", "kwonly", "npos_min", "npos_max", "arrays", "seq",
                             "var_from", "poskw", NULL};
    PyObject *fallback, *table, *kwonly, *arrays, *poskw = Py_None;
    Py_ssize_t npos_min, npos_max, seq, var_from;
    if (!PyArg_ParseTupleAndKeywords(a, kw, "OO!OnnO!nn|O", kwlist, &fallback, &PyDict_Type, &table,
                                     &kwonly, &npos_min, &npos_max, &PyTuple_Type, &arrays, &seq,
                                     &var_from, &poskw))
        return NULL;
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "Dispatcher: fallback must be callable");
        return NULL;
    }
    if (kwonly != Py_None && !PyFrozenSet_CheckExact(kwonly)) {
        PyErr_SetString(PyExc_TypeError, "Dispatcher: kwonly must be a frozenset or None");
        return NULL;
    }
    if (poskw != Py_None) {
        int ok = PyTuple_CheckExact(poskw) && PyTuple_GET_SIZE(poskw) <= MAX_STACK;
        for (Py_ssize_t i = 0; ok && i < PyTuple_GET_SIZE(poskw); i++) {
            PyObject *p = PyTuple_GET_ITEM(poskw, i);
            ok = p == Py_None || PyUnicode_CheckExact(p);
        }
        if (!ok) {
            PyErr_Format(PyExc_TypeError, "Dispatcher: poskw must be a tuple of at most %d names or None",
                         MAX_STACK);
            return NULL;
        }
    }
    /* the counts are stored in 16 bits, the positions in 8 */
    if (npos_min < 0 || npos_min > 127 || npos_max > 127 || seq > 127 || var_from > 127) {
        PyErr_SetString(PyExc_ValueError, "Dispatcher: at most 127 positional parameters");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(arrays);
    if (n > MAX_ARRAYS) {
        PyErr_Format(PyExc_ValueError, "Dispatcher: at most %d array positions", MAX_ARRAYS);
        return NULL;
    }
    Dispatcher *self = (Dispatcher *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t v = PyLong_AsSsize_t(PyTuple_GET_ITEM(arrays, i));
        if (v < 0 || v > 127) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "Dispatcher: array positions must be between 0 and 127");
            Py_DECREF(self);
            return NULL;
        }
        if (i > 0 && v <= self->arrays[i - 1]) {
            PyErr_SetString(PyExc_ValueError, "Dispatcher: array positions must increase");
            Py_DECREF(self);
            return NULL;
        }
        self->arrays[i] = (int8_t)v;
    }
    self->n_arrays = (int16_t)n;
    self->fallback = Py_NewRef(fallback);
    self->table = Py_NewRef(table);
    self->kwonly = Py_NewRef(kwonly);
    self->poskw = Py_NewRef(poskw);
    self->npos_min = (int16_t)npos_min;
    self->npos_max = (int16_t)(npos_max < 0 ? -1 : npos_max);
    self->seq = (int16_t)(seq < 0 ? -1 : seq);
    self->var_from = (int16_t)(var_from < 0 ? -1 : var_from);
    self->vectorcall = (vectorcallfunc)dispatcher_call;
    return (PyObject *)self;
}

/* The object fields, listed once for the garbage collector. */
#define DISPATCHER_OBJECTS(X) X(dict) X(fallback) X(table) X(kwonly) X(poskw) X(kw_ok)
GC_METHODS(dispatcher, Dispatcher, DISPATCHER_OBJECTS)

/* ------------------------------------------------------------------------------------------ */
/* ContextDispatcher                                                                          */

typedef struct {
    FUNC_HEAD
    PyObject *fallback;
    PyObject *name;      /* the op's key in Backend.calls */
    PyObject *stack_var; /* the ContextVar holding the tuple of set backends */
    PyObject *kwonly;
    Py_ssize_t npos_min, npos_max;
    PyObject *cached_backend; /* the last backend seen, and its implementation of the op */
    PyObject *cached_impl;
    /* backend=NAMESPACE as the last keyword (ivy.zeros(3, dtype=d, backend=xp)): the last
     * namespace seen and its Backend (a namespace belongs to one Backend for good), and the
     * call site's keyword names without "backend" (call sites pass the same tuple each time) */
    PyObject *bk_arg;
    PyObject *bk_backend;
    PyObject *kw_in;
    PyObject *kw_out;
    int explicit_only; /* only calls with backend=NAMESPACE (ops that convert their input, whose
                        * backend comes from the context before the arguments: Python decides) */
} ContextDispatcher;

static PyObject *str_backend;     /* interned "backend" */
static PyObject *str_ivy_backend; /* interned "_ivy_backend" */

/* The Backend of backend=v and the keyword names without it (borrowed; *kw may be NULL): 1, or
 * 0 when the Python function must decide (a name, a module...), or -1 with an error set. */
static COLD int
ctx_explicit(ContextDispatcher *self, PyObject *v, PyObject *kwnames, PyObject **b, PyObject **kw)
{
    if (v != self->bk_arg) {
        if (PyUnicode_Check(v) || v == Py_None)
            return 0; /* names go through the registry (a backend may be loaded anew) */
        PyObject *bb = NULL;
#if PY_VERSION_HEX >= 0x030D0000
        int r = PyObject_GetOptionalAttr(v, str_ivy_backend, &bb);
#else
        int r = _PyObject_LookupAttr(v, str_ivy_backend, &bb);
#endif
        if (r <= 0) {
            PyErr_Clear();
            return 0;
        }
        Py_XSETREF(self->bk_arg, Py_NewRef(v));
        Py_XSETREF(self->bk_backend, bb);
    }
    if (kwnames != self->kw_in) {
        Py_ssize_t n = PyTuple_GET_SIZE(kwnames) - 1;
        PyObject *out = n > 0 ? PyTuple_GetSlice(kwnames, 0, n) : NULL;
        if (n > 0 && out == NULL)
            return -1;
        Py_XSETREF(self->kw_in, Py_NewRef(kwnames));
        Py_XSETREF(self->kw_out, out);
    }
    *b = self->bk_backend;
    *kw = self->kw_out;
    return 1;
}

static PyObject *
ctx_call(ContextDispatcher *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    PyObject *stack = NULL, *b, *kw = kwnames;
    if (nargs < self->npos_min || (self->npos_max >= 0 && nargs > self->npos_max))
        goto slow;
    if (nkw > 0 && PyTuple_GET_ITEM(kwnames, nkw - 1) == str_backend) {
        int r = ctx_explicit(self, args[nargs + nkw - 1], kwnames, &b, &kw);
        if (r < 0)
            return NULL;
        if (r == 0)
            goto slow;
        if (!keywords_forwardable(kw, self->kwonly))
            goto slow;
        Py_INCREF(b);
    }
    else {
        if (self->explicit_only || !keywords_forwardable(kwnames, self->kwonly))
            goto slow;
        if (PyContextVar_Get(self->stack_var, NULL, &stack) < 0)
            return NULL;
        if (stack == NULL)
            goto slow;
        if (!PyTuple_CheckExact(stack) || PyTuple_GET_SIZE(stack) == 0) {
            Py_DECREF(stack);
            goto slow; /* nothing set: the default rule lives in Python */
        }
        b = Py_NewRef(PyTuple_GET_ITEM(stack, PyTuple_GET_SIZE(stack) - 1));
        Py_DECREF(stack);
    }
    if (b != self->cached_backend) {
        /* Backend.calls is built once when the backend loads and never changes after. */
        PyObject *calls = PyObject_GetAttrString(b, "calls");
        if (calls == NULL) {
            Py_DECREF(b);
            return NULL;
        }
        PyObject *impl = PyDict_Check(calls) ? PyDict_GetItemWithError(calls, self->name) : NULL;
        Py_XINCREF(impl);
        Py_DECREF(calls);
        if (impl == NULL) {
            Py_DECREF(b);
            if (PyErr_Occurred())
                return NULL;
            goto slow;
        }
        Py_XSETREF(self->cached_impl, impl);
        Py_XSETREF(self->cached_backend, Py_NewRef(b));
    }
    Py_DECREF(b);
    PyObject *f = Py_NewRef(self->cached_impl);
    PyObject *res = PyObject_Vectorcall(f, args, (size_t)nargs | (nargsf & PY_VECTORCALL_ARGUMENTS_OFFSET), kw);
    Py_DECREF(f);
    return res;
slow:
    return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
}

static PyObject *
ctx_new(PyTypeObject *type, PyObject *a, PyObject *kw)
{
    static char *kwlist[] = {"fallback", "name", "stack_var", "kwonly", "npos_min", "npos_max", "explicit_only", NULL};
    PyObject *fallback, *name, *stack_var, *kwonly;
    Py_ssize_t npos_min, npos_max;
    int explicit_only = 0;
    if (!PyArg_ParseTupleAndKeywords(a, kw, "OUOOnn|p", kwlist, &fallback, &name, &stack_var, &kwonly,
                                     &npos_min, &npos_max, &explicit_only))
        return NULL;
    if (!PyCallable_Check(fallback) || !PyContextVar_CheckExact(stack_var) ||
        (kwonly != Py_None && !PyFrozenSet_CheckExact(kwonly))) {
        PyErr_SetString(PyExc_TypeError,
                        "ContextDispatcher: needs a callable, a ContextVar and a frozenset or None");
        return NULL;
    }
    ContextDispatcher *self = (ContextDispatcher *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->fallback = Py_NewRef(fallback);
    self->name = Py_NewRef(name);
    self->stack_var = Py_NewRef(stack_var);
    self->kwonly = Py_NewRef(kwonly);
    self->npos_min = npos_min;
    self->npos_max = npos_max;
    self->explicit_only = explicit_only;
    self->vectorcall = (vectorcallfunc)ctx_call;
    return (PyObject *)self;
}

/* The object fields, listed once for the garbage collector. */
#define CONTEXT_OBJECTS(X)                                                                      \
    X(dict) X(fallback) X(name) X(stack_var) X(kwonly) X(cached_backend) X(cached_impl) X(bk_arg) X(bk_backend) \
        X(kw_in) X(kw_out)
GC_METHODS(ctx, ContextDispatcher, CONTEXT_OBJECTS)

/* ------------------------------------------------------------------------------------------ */
/* TypeLookup                                                                                 */

/* ivy.namespace(x) and the like: table[type(x)] for a call with one positional argument whose
 * type is in the table, the Python function `fallback` for every other call. */
typedef struct {
    FUNC_HEAD
    PyObject *table;
    PyObject *fallback;
} TypeLookup;

static PyObject *
lookup_call(TypeLookup *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (PyVectorcall_NARGS(nargsf) == 1 && (kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0)) {
        PyObject *v = PyDict_GetItemWithError(self->table, (PyObject *)Py_TYPE(args[0]));
        if (v != NULL)
            return Py_NewRef(v);
        if (PyErr_Occurred())
            return NULL;
    }
    return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
}

static PyObject *
lookup_new(PyTypeObject *type, PyObject *a, PyObject *kw)
{
    static char *kwlist[] = {"table", "fallback", NULL};
    PyObject *table, *fallback;
    if (!PyArg_ParseTupleAndKeywords(a, kw, "O!O", kwlist, &PyDict_Type, &table, &fallback))
        return NULL;
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "TypeLookup: fallback must be callable");
        return NULL;
    }
    TypeLookup *self = (TypeLookup *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->table = Py_NewRef(table);
    self->fallback = Py_NewRef(fallback);
    self->vectorcall = (vectorcallfunc)lookup_call;
    return (PyObject *)self;
}

#define LOOKUP_OBJECTS(X) X(dict) X(table) X(fallback)
GC_METHODS(lookup, TypeLookup, LOOKUP_OBJECTS)

/* ------------------------------------------------------------------------------------------ */
/* TypeSwitch                                                                                 */

/* The per-call object of ivy.compile (see ivy/_functional/compile.py, class Compiled, its Python
 * subclass): the compiled program for the type of the first argument, looked up in `_by_type`,
 * gets the call as it is; every other call goes to `_miss`. When the program raises, `_on_error`
 * (if set) gets (exception, args, kwargs) and returns the result or raises: a retrace that must
 * thread more state is handled there, off the per-call path. */
typedef struct {
    FUNC_HEAD
    PyObject *by_type;  /* dict {type: callable}, or NULL */
    PyObject *miss;     /* callable, or NULL */
    PyObject *on_error; /* callable, or NULL */
} TypeSwitch;

static PyObject *
switch_failed(TypeSwitch *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb != NULL && value != NULL)
        PyException_SetTraceback(value, tb);
    PyObject *pos = PyTuple_New(nargs);
    PyObject *kw = PyDict_New();
    PyObject *res = NULL;
    if (pos == NULL || kw == NULL || value == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < nargs; i++)
        PyTuple_SET_ITEM(pos, i, Py_NewRef(args[i]));
    for (Py_ssize_t i = 0; kwnames != NULL && i < PyTuple_GET_SIZE(kwnames); i++)
        if (PyDict_SetItem(kw, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0)
            goto done;
    res = PyObject_CallFunctionObjArgs(self->on_error, value, pos, kw, NULL);
done:
    Py_XDECREF(pos);
    Py_XDECREF(kw);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return res;
}

static PyObject *
switch_call(TypeSwitch *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs > 0 && self->by_type != NULL) {
        PyObject *f = PyDict_GetItemWithError(self->by_type, (PyObject *)Py_TYPE(args[0]));
        if (f == NULL && PyErr_Occurred())
            return NULL;
        if (f != NULL) {
            Py_INCREF(f);
            PyObject *res = PyObject_Vectorcall(f, args, nargsf, kwnames);
            Py_DECREF(f);
            if (res == NULL && self->on_error != NULL)
                return switch_failed(self, args, nargs, kwnames);
            return res;
        }
    }
    if (self->miss == NULL) {
        PyErr_SetString(PyExc_TypeError, "TypeSwitch: _miss is not set");
        return NULL;
    }
    return PyObject_Vectorcall(self->miss, args, nargsf, kwnames);
}

static PyObject *
switch_new(PyTypeObject *type, PyObject *a, PyObject *kw)
{
    /* The arguments are the subclass's (its __init__ sets the fields). */
    TypeSwitch *self = (TypeSwitch *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->vectorcall = (vectorcallfunc)switch_call;
    return (PyObject *)self;
}

static PyMemberDef switch_members[] = {
    {"_by_type", T_OBJECT, offsetof(TypeSwitch, by_type), 0, "{type of the first argument: callable}"},
    {"_miss", T_OBJECT, offsetof(TypeSwitch, miss), 0, "called with the calls _by_type does not take"},
    {"_on_error", T_OBJECT, offsetof(TypeSwitch, on_error), 0, "(exception, args, kwargs) -> result"},
    {NULL},
};

static PyGetSetDef switch_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL},
};

#define SWITCH_OBJECTS(X) X(dict) X(by_type) X(miss) X(on_error)
GC_METHODS(switch, TypeSwitch, SWITCH_OBJECTS)

/* ------------------------------------------------------------------------------------------ */
/* Shared: function-like behaviour                                                            */

/* Like a builtin function: looked up on a class, it does not become a bound method. */
static PyObject *
no_bind(PyObject *self, PyObject *obj, PyObject *type)
{
    return Py_NewRef(self);
}

static PyObject *
func_repr(PyObject *self)
{
    PyObject *mod = PyObject_GetAttrString(self, "__module__");
    PyObject *q = mod ? PyObject_GetAttrString(self, "__qualname__") : NULL;
    PyObject *r = NULL;
    if (q != NULL && PyUnicode_Check(mod) && PyUnicode_Check(q))
        r = PyUnicode_FromFormat("<ivy function %U.%U>", mod, q);
    else {
        PyErr_Clear();
        r = PyUnicode_FromFormat("<%s object at %p>", Py_TYPE(self)->tp_name, self);
    }
    Py_XDECREF(mod);
    Py_XDECREF(q);
    return r;
}

/* Pickles by reference (module + qualified name), like a function. */
static PyObject *
func_reduce(PyObject *self, PyObject *unused)
{
    return PyObject_GetAttrString(self, "__qualname__");
}

static PyMethodDef func_methods[] = {
    {"__reduce__", (PyCFunction)func_reduce, METH_NOARGS, NULL},
    {NULL},
};

#define FUNC_TYPE(T, DOC, NEW, TRAVERSE, CLEAR)                                                 \
    static PyTypeObject T##Type = {                                                             \
        PyVarObject_HEAD_INIT(NULL, 0)                                                          \
        .tp_name = "ivy._cdispatch." #T,                                                        \
        .tp_basicsize = sizeof(T),                                                              \
        .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,        \
        .tp_doc = DOC,                                                                          \
        .tp_new = NEW,                                                                          \
        .tp_dealloc = func_dealloc,                                                             \
        .tp_traverse = (traverseproc)TRAVERSE,                                                  \
        .tp_clear = (inquiry)CLEAR,                                                             \
        .tp_call = PyVectorcall_Call,                                                           \
        .tp_vectorcall_offset = offsetof(T, vectorcall),                                        \
        .tp_dictoffset = offsetof(T, dict),                                                     \
        .tp_weaklistoffset = offsetof(T, weakrefs),                                             \
        .tp_descr_get = no_bind,                                                                \
        .tp_repr = func_repr,                                                                   \
        .tp_methods = func_methods,                                                             \
    };

FUNC_TYPE(Dispatcher, "An ivy op inferring its backend from its array arguments (see ivy/_dispatch.py).",
          dispatcher_new, dispatcher_traverse, dispatcher_clear)
FUNC_TYPE(ContextDispatcher, "An ivy op taking its backend from the context (see ivy/_dispatch.py).",
          ctx_new, ctx_traverse, ctx_clear)
FUNC_TYPE(TypeLookup, "A value per type of the one argument (see ivy.namespace), a Python function otherwise.",
          lookup_new, lookup_traverse, lookup_clear)
FUNC_TYPE(FastPath,
          "A plugin op: the native function for plain calls, the full one otherwise (see ivy.plugin.fastpath).",
          fast_new, fast_traverse, fast_clear)

/* Subclassable (ivy.compile's Compiled), so not through FUNC_TYPE; binds like a function would
 * not (an ivy.compile'd function stored on a class is called as it is, as before). A Python
 * subclass calls through tp_call (PyVectorcall_Call reads the slot without the flag). */
static PyTypeObject TypeSwitchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ivy._cdispatch.TypeSwitch",
    .tp_basicsize = sizeof(TypeSwitch),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Calls the callable registered for the type of the first argument (see ivy.compile).",
    .tp_new = switch_new,
    .tp_dealloc = func_dealloc,
    .tp_traverse = (traverseproc)switch_traverse,
    .tp_clear = (inquiry)switch_clear,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(TypeSwitch, vectorcall),
    .tp_dictoffset = offsetof(TypeSwitch, dict),
    .tp_weaklistoffset = offsetof(TypeSwitch, weakrefs),
    .tp_descr_get = no_bind,
    .tp_members = switch_members,
    .tp_getset = switch_getset,
};

/* Tracing compilers that interpret bytecode (torch.compile's dynamo, paddle's SOT) cannot look into
 * a C callable and would break their graph at every ivy op. They do follow a Python `__call__`
 * found on the type, so `__call__` in the types' dicts is set to a Python function with the same
 * behaviour (it calls the object's complete Python implementation, `__ivy_python__`). Calls from
 * Python still take the C slots: writing the dict directly does not touch tp_call / vectorcall. */
static PyObject *
set_python_call(PyObject *module, PyObject *a)
{
    PyObject *fn;
    PyTypeObject *only = NULL; /* a subclass of TypeSwitch: set on it alone */
    if (!PyArg_ParseTuple(a, "O|O!:_set_python_call", &fn, &PyType_Type, &only))
        return NULL;
    if (!PyCallable_Check(fn)) {
        PyErr_SetString(PyExc_TypeError, "_set_python_call: expects a function");
        return NULL;
    }
    if (only != NULL) {
        /* after the class statement, so that its tp_call stays the C one */
        if (!PyType_IsSubtype(only, &TypeSwitchType)) {
            PyErr_SetString(PyExc_TypeError, "_set_python_call: the type must subclass TypeSwitch");
            return NULL;
        }
        if (PyDict_SetItemString(only->tp_dict, "__call__", fn) < 0)
            return NULL;
        /* Python 3.12 lets a subclass that keeps the C tp_call inherit vectorcall; 3.11 does not
         * (each call would pack its arguments in a tuple first) */
        if (only->tp_call == PyVectorcall_Call)
            only->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
        PyType_Modified(only);
        Py_RETURN_NONE;
    }
    PyTypeObject *types[] = {&DispatcherType, &ContextDispatcherType, &FastPathType, &TypeLookupType};
    for (int i = 0; i < 4; i++) {
        if (PyDict_SetItemString(types[i]->tp_dict, "__call__", fn) < 0)
            return NULL;
        PyType_Modified(types[i]);
    }
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"_set_python_call", set_python_call, METH_VARARGS, "Sets the Python-level __call__ tracers see."},
    {NULL},
};

static struct PyModuleDef cdispatch_module = {
    PyModuleDef_HEAD_INIT,
    .m_methods = module_methods,
    .m_name = "ivy._cdispatch",
    .m_doc = "C implementation of Ivy's per-call dispatch (optional; ivy/_dispatch.py falls back "
             "to Python without it).",
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__cdispatch(void)
{
    str_dtype = PyUnicode_InternFromString("dtype");
    str_backend = PyUnicode_InternFromString("backend");
    str_ivy_backend = PyUnicode_InternFromString("_ivy_backend");
    if (str_dtype == NULL || str_backend == NULL || str_ivy_backend == NULL)
        return NULL;
    PyTypeObject *types[] = {&DispatcherType, &ContextDispatcherType, &FastPathType, &TypeSwitchType,
                             &TypeLookupType};
    for (int i = 0; i < 5; i++)
        if (PyType_Ready(types[i]) < 0)
            return NULL;
    PyObject *m = PyModule_Create(&cdispatch_module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddObjectRef(m, "Dispatcher", (PyObject *)&DispatcherType) < 0 ||
        PyModule_AddObjectRef(m, "ContextDispatcher", (PyObject *)&ContextDispatcherType) < 0 ||
        PyModule_AddObjectRef(m, "FastPath", (PyObject *)&FastPathType) < 0 ||
        PyModule_AddObjectRef(m, "TypeSwitch", (PyObject *)&TypeSwitchType) < 0 ||
        PyModule_AddObjectRef(m, "TypeLookup", (PyObject *)&TypeLookupType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
