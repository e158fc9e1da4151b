//! The types of one generated module (enums, records, handles), described by static tables
//! and turned into Python classes on first use, so that importing a module builds none.

use crate::convert::attr::{enum_classes, is_subtype};
use crate::convert::number::index_check;
use crate::convert::pointer::Pointer;
use crate::convert::shared_tuple::Item;
use crate::tables::TypeDef;
use crate::types::record::{Field, FieldTypes, Layout, Struct};
use pyo3::exceptions::{PyAttributeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
#[cfg(not(Py_GIL_DISABLED))]
use pyo3::sync::GILProtected;
use pyo3::types::{PyCFunction, PyDict, PyInt, PyList, PyString, PyTuple, PyType};
#[cfg(not(Py_GIL_DISABLED))]
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

/// The TypeError for an argument of enum `def` that is neither a member nor an int, naming
/// the argument's type.
///
/// The message is kept per enum and type: a program that tries one form of an argument, then
/// another, refuses the same type again and again, and making the message (the type's
/// `__name__`, formatted, then decoded into a `str`) was ~2,800 of a refusal's ~8,100
/// instructions (callgrind), which then cost more than hip-python's.
#[cold]
#[inline(never)]
fn refused_by_type(obj: &Bound<'_, PyAny>, def: &'static TypeDef) -> PyErr {
    let py = obj.py();
    let ty = obj.get_type();
    let key = (def as *const TypeDef as usize, ty.as_ptr() as usize);
    let at = (key.0 ^ key.1.rotate_left(17)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        >> (usize::BITS - REFUSAL_SLOTS.trailing_zeros());
    let hit = REFUSALS.with(py, |kept| {
        kept.borrow().get(at).and_then(|slot| {
            slot.as_ref()
                .filter(|r| r.def == key.0 && r.ty.as_ptr() as usize == key.1)
                .map(|r| r.msg.clone_ref(py))
        })
    });
    let msg = match hit {
        Some(msg) => msg,
        None => {
            let name = ty.name().map(|n| n.to_string()).unwrap_or_default();
            let msg = PyString::new(
                py,
                &format!("expected a member of {} or an int, got {name}", def.name()),
            )
            .unbind();
            let entry = Refusal {
                def: key.0,
                ty: ty.clone().unbind(),
                msg: msg.clone_ref(py),
            };
            let replaced = REFUSALS.with(py, |kept| {
                let mut table = kept.borrow_mut();
                if table.is_empty() {
                    table.resize_with(REFUSAL_SLOTS, || None);
                }
                table[at].replace(entry)
            });
            // Dropped after the borrow ends: freeing a type may run Python code.
            drop(replaced);
            msg
        }
    };
    PyTypeError::new_err(msg)
}

/// Enum classes standing for one of the bindings' under other names, each with the class it
/// stands for: what a package built on the bindings registered (`register_enum_stand_in`).
/// Shared by every thread, so behind a lock; read only until an enum's first stand-in is
/// found (`TypeSlot::stand_in`). No Python code runs while it is held.
static STAND_INS: Mutex<Vec<StandIn>> = Mutex::new(Vec::new());

/// [`STAND_INS`], locked (a panic while it was held left it whole: each change is one call).
fn stand_ins() -> MutexGuard<'static, Vec<StandIn>> {
    STAND_INS.lock().unwrap_or_else(|e| e.into_inner())
}

/// (the standing-in enum class, the bindings' enum class it stands for).
type StandIn = (Py<PyType>, Py<PyType>);

/// Registers enum class `foreign` as standing for the bindings' enum class `ours`: its members
/// are taken wherever `ours` is, by value (the `cuda` package's `cudaMemcpyKind` for
/// `hipMemcpyKind`). Registering a class again replaces what it stands for.
pub fn register_enum_stand_in(foreign: &Bound<'_, PyType>, ours: &Bound<'_, PyType>) {
    let py = foreign.py();
    let entry = (foreign.clone().unbind(), ours.clone().unbind());
    let replaced: Vec<StandIn> = {
        let mut all = stand_ins();
        let (gone, kept) = std::mem::take(&mut *all)
            .into_iter()
            .partition(|(f, _)| f.bind(py).is(foreign));
        *all = kept;
        all.push(entry);
        gone
    };
    // Dropped after the lock is released: freeing a class may run Python code.
    drop(replaced);
}

/// The class `foreign` was registered as standing for, if any.
fn stand_in_for(py: Python<'_>, foreign: &Bound<'_, PyType>) -> Option<Py<PyType>> {
    stand_ins()
        .iter()
        .find(|(f, _)| f.bind(py).is(foreign))
        .map(|(_, ours)| ours.clone_ref(py))
}

crate::table! {
    /// Messages of refused enum arguments ([`refused_by_type`]), direct-mapped by enum and type.
    /// A kept message holds its type, so no other type can take that address while it is kept.
    /// One table per thread: correct without the GIL, no lock on a refusal.
    static REFUSALS: Vec<Option<Refusal>>;
}

/// Slots of [`REFUSALS`] (a power of two).
const REFUSAL_SLOTS: usize = 32;

/// A kept refusal message: the enum's definition (its address), the refused type, the text.
struct Refusal {
    def: usize,
    ty: Py<PyType>,
    msg: Py<PyString>,
}

/// Whether record `r` is a handle passed by value: one `handle` field (comgr's and HSA's
/// `struct { uint64_t handle; }` types).
fn is_handle_record(r: &crate::tables::RecordDef) -> bool {
    matches!(r.fields, [f] if f.name == "handle")
}

/// The lazily created Python side of one registry entry.
pub struct TypeSlot {
    /// The class.
    class: GILOnceCell<Py<PyType>>,
    /// For enums: value → member, first declared name wins.
    members: GILOnceCell<MemberTable>,
    /// For enums: the first other enum class found standing for this one
    /// ([`register_enum_stand_in`]), so its members pass by type identity from then on
    /// (~40 ns of every such argument).
    stand_in: GILOnceCell<Py<PyType>>,
    /// For handles: the last instance a function returned, used again for the next one where
    /// nothing else holds it any more (a one-object free list: a query called in a loop,
    /// `hipCtxGetCurrent`, pays no allocation).
    ///
    /// Not in the free-threaded build: there "only this slot holds it" (a reference count of
    /// one) can change under the check, as another thread takes the object from the slot, and
    /// its allocator makes a new handle cheap anyway.
    #[cfg(not(Py_GIL_DISABLED))]
    spare: GILProtected<RefCell<Option<PyObject>>>,
}

impl TypeSlot {
    /// The spare instance set to `addr`, where only this slot holds it.
    #[cfg(Py_GIL_DISABLED)]
    fn reuse(&self, _py: Python<'_>, _addr: usize) -> Option<PyObject> {
        None
    }

    /// Keeps `obj` as the spare instance.
    #[cfg(Py_GIL_DISABLED)]
    fn keep_spare(&self, _py: Python<'_>, _obj: &PyObject) {}

    /// Keeps `obj` as the spare instance.
    #[cfg(not(Py_GIL_DISABLED))]
    fn keep_spare(&self, py: Python<'_>, obj: &PyObject) {
        let replaced = self.spare.get(py).replace(Some(obj.clone_ref(py)));
        // Dropped after the cell is released: freeing it may run Python code.
        drop(replaced);
    }

    /// The spare instance set to `addr`, where only this slot holds it.
    #[cfg(not(Py_GIL_DISABLED))]
    fn reuse(&self, py: Python<'_>, addr: usize) -> Option<PyObject> {
        let spare = self.spare.get(py).borrow();
        let obj = spare.as_ref()?;
        // SAFETY: a live object; with the GIL held no other reference can appear meanwhile.
        if unsafe { pyo3::ffi::Py_REFCNT(obj.as_ptr()) } != 1 {
            return None;
        }
        // Of the class itself (`__class__` may have been set to another handle class).
        let class = self.class.get(py)?;
        if obj.bind(py).get_type_ptr() != class.as_ptr().cast() {
            return None;
        }
        let p = obj.bind(py).downcast::<Pointer>().ok()?.get();
        // A handle given a cell (destroyed, or sharing another's life) stays as it is.
        if p.life().is_some() {
            return None;
        }
        p.set_addr(addr);
        Some(obj.clone_ref(py))
    }
}

/// An enum's members by value: indexed directly where the values are dense (most enums),
/// else sorted for a binary search. Hashing each returned status cost more than the call.
pub struct MemberTable {
    /// The smallest value; `dense[v - base]` is the member of value `v`.
    base: i64,
    dense: Vec<Option<PyObject>>,
    /// (value, member), sorted by value, for sparse enums.
    sparse: Vec<(i64, PyObject)>,
}

/// Slots a value-indexed member table may have whatever its member count (8 bytes each).
const DENSE_SLOTS: usize = 4096;

impl MemberTable {
    /// A table of `(value, member)` pairs, the first of each value kept.
    fn new(mut pairs: Vec<(i64, PyObject)>) -> Self {
        pairs.sort_by_key(|(v, _)| *v);
        pairs.dedup_by_key(|(v, _)| *v);
        let (Some(lo), Some(hi)) = (pairs.first().map(|p| p.0), pairs.last().map(|p| p.0)) else {
            return MemberTable {
                base: 0,
                dense: Vec::new(),
                sparse: Vec::new(),
            };
        };
        let span = (hi as i128 - lo as i128 + 1) as u128;
        // Dense up to a few thousand slots whatever the member count: error enums run from 0
        // to ~1000 with gaps (hipError_t), and returning their success member is the hot path.
        if span <= (4 * pairs.len() + 16).max(DENSE_SLOTS) as u128 {
            let mut dense: Vec<Option<PyObject>> = (0..span).map(|_| None).collect();
            for (v, m) in pairs {
                dense[(v - lo) as usize] = Some(m);
            }
            MemberTable {
                base: lo,
                dense,
                sparse: Vec::new(),
            }
        } else {
            MemberTable {
                base: 0,
                dense: Vec::new(),
                sparse: pairs,
            }
        }
    }

    /// The member of value `v` where the table is dense.
    #[inline]
    fn dense(&self, v: i64) -> Option<&PyObject> {
        self.dense
            .get(v.wrapping_sub(self.base) as u64 as usize)?
            .as_ref()
    }

    fn get(&self, v: i64) -> Option<&PyObject> {
        if !self.dense.is_empty() {
            let i = v.wrapping_sub(self.base);
            return if (0..self.dense.len() as i64).contains(&i) {
                self.dense[i as usize].as_ref()
            } else {
                None
            };
        }
        self.sparse
            .binary_search_by_key(&v, |(k, _)| *k)
            .ok()
            .map(|i| &self.sparse[i].1)
    }
}

impl TypeSlot {
    /// An empty slot.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        TypeSlot {
            class: GILOnceCell::new(),
            members: GILOnceCell::new(),
            stand_in: GILOnceCell::new(),
            #[cfg(not(Py_GIL_DISABLED))]
            spare: GILProtected::new(RefCell::new(None)),
        }
    }
}

/// All types of one generated module.
pub struct TypeRegistry {
    /// Python module name (`hip.hip`), set as each class's `__module__`.
    pub module: &'static str,
    /// The type tables.
    pub defs: &'static [TypeDef],
    /// One slot per table entry.
    pub slots: &'static [TypeSlot],
    /// Name (and alias) → index, built on first lookup.
    names: GILOnceCell<HashMap<&'static str, usize>>,
}

impl TypeRegistry {
    /// A registry over generated tables; `slots` has one entry per def.
    pub const fn new(
        module: &'static str,
        defs: &'static [TypeDef],
        slots: &'static [TypeSlot],
    ) -> Self {
        TypeRegistry {
            module,
            defs,
            slots,
            names: GILOnceCell::new(),
        }
    }

    /// The index of a class name or alias.
    pub fn lookup(&self, py: Python<'_>, name: &str) -> Option<usize> {
        let names = self.names.get_or_init(py, || {
            let mut m = HashMap::new();
            for (i, d) in self.defs.iter().enumerate() {
                m.insert(d.name(), i);
                for a in d.aliases() {
                    m.entry(*a).or_insert(i);
                }
            }
            m
        });
        names.get(name).copied()
    }

    /// Every class name and alias.
    pub fn all_names(&self) -> impl Iterator<Item = &'static str> {
        self.defs
            .iter()
            .flat_map(|d| std::iter::once(d.name()).chain(d.aliases().iter().copied()))
    }

    /// The Python class of entry `idx`, created on first use.
    pub fn class<'py>(&'static self, py: Python<'py>, idx: usize) -> PyResult<Bound<'py, PyType>> {
        self.slots[idx]
            .class
            .get_or_try_init(py, || self.create_class(py, idx))
            .map(|c| c.bind(py).clone())
    }

    /// Builds the class of entry `idx`.
    fn create_class(&'static self, py: Python<'_>, idx: usize) -> PyResult<Py<PyType>> {
        let def = &self.defs[idx];
        let class = match def {
            TypeDef::Enum(e) => {
                let (int_enum, _) = enum_classes(py)?;
                let members = PyList::empty(py);
                for (n, v) in e.members {
                    members.append((*n, *v))?;
                }
                let kw = PyDict::new(py);
                kw.set_item("module", self.module)?;
                kw.set_item("qualname", e.name)?;
                int_enum.bind(py).call((e.name, members), Some(&kw))?
            }
            TypeDef::Record(r) => {
                let ns = PyDict::new(py);
                ns.set_item("__module__", self.module)?;
                ns.set_item("__doc__", r.doc)?;
                ns.set_item("__slots__", PyTuple::empty(py))?;
                ns.set_item(
                    "_hipgen_layout_",
                    Layout {
                        def: r,
                        registry: self,
                    },
                )?;
                for f in r.fields {
                    ns.set_item(
                        f.name,
                        Field {
                            def: f,
                            registry: self,
                        },
                    )?;
                }
                py.get_type::<PyType>()
                    .call1((r.name, (py.get_type::<Struct>(),), ns))?
            }
            TypeDef::Handle(h) => {
                let ns = PyDict::new(py);
                ns.set_item("__module__", self.module)?;
                ns.set_item("__slots__", PyTuple::empty(py))?;
                py.get_type::<PyType>()
                    .call1((h.name, (py.get_type::<Pointer>(),), ns))?
            }
        };
        Ok(class.downcast_into::<PyType>()?.unbind())
    }

    /// The enum member with value `v`, or a plain int for values the header does not list.
    #[inline]
    pub fn enum_member(&'static self, py: Python<'_>, idx: usize, v: i64) -> PyResult<PyObject> {
        // Inlined into each caller, so kept to a few instructions: an index into the table of
        // a dense enum (nearly all), the rest out of line.
        if let Some(m) = self.slots[idx].members.get(py).and_then(|t| t.dense(v)) {
            return Ok(m.clone_ref(py));
        }
        self.enum_member_first(py, idx, v)
    }

    /// [`Self::enum_member`] as an item of a result tuple the runtime may keep
    /// ([`crate::shared_tuple`]): the member borrowed from the member table, so a call that
    /// hands out its kept `(hipSuccess, ...)` touches no member's reference count. In the
    /// free-threaded build an object made by another thread counts references atomically, and
    /// every thread returning the same status would contend for that one count.
    #[inline]
    pub fn enum_item<'py>(
        &'static self,
        py: Python<'py>,
        idx: usize,
        v: i64,
    ) -> PyResult<Item<'static, 'py>> {
        if let Some(m) = self.slots[idx].members.get(py).and_then(|t| t.dense(v)) {
            return Ok(Item::Kept(m.bind_borrowed(py)));
        }
        Ok(Item::Made(
            self.enum_member_first(py, idx, v)?.into_bound(py),
        ))
    }

    /// [`Self::enum_member`] before the table is made, for a sparse enum, or for a value the
    /// header does not list.
    #[cold]
    #[inline(never)]
    fn enum_member_first(&'static self, py: Python<'_>, idx: usize, v: i64) -> PyResult<PyObject> {
        let members = self.slots[idx]
            .members
            .get_or_try_init(py, || -> PyResult<_> {
                let class = self.class(py, idx)?;
                let TypeDef::Enum(e) = &self.defs[idx] else {
                    return Err(PyTypeError::new_err("not an enum"));
                };
                let mut pairs = Vec::with_capacity(e.members.len());
                for (n, val) in e.members {
                    pairs.push((*val, class.getattr(*n)?.unbind()));
                }
                Ok(MemberTable::new(pairs))
            })?;
        match members.get(v) {
            Some(m) => Ok(m.clone_ref(py)),
            None => Ok(PyInt::new(py, v).into_any().unbind()),
        }
    }

    /// Reads an enum argument: a member of the right enum class, or an int.
    ///
    /// A member of another enum is refused: that is almost always a mistake.
    // Out of line: one copy for the thousands of enum parameters (a wheel's size).
    #[inline(never)]
    pub fn enum_arg(&'static self, idx: usize, obj: &Bound<'_, PyAny>) -> PyResult<i64> {
        // The two common cases by type identity, without touching reference counts (each a
        // call into the interpreter under the stable ABI): an int, or a member of this class.
        let ty = obj.get_type_ptr();
        let is_member = || {
            let slot = &self.slots[idx];
            let is = |cell: &GILOnceCell<Py<PyType>>| {
                cell.get(obj.py()).is_some_and(|c| c.as_ptr() == ty.cast())
            };
            is(&slot.class) || is(&slot.stand_in)
        };
        if obj.is_exact_instance_of::<PyInt>() || is_member() {
            // An int or an int subclass: read in one call (an out-of-range value is an
            // OverflowError, as `extract` gives).
            let mut overflow = 0;
            // SAFETY: `obj` is an int (or a member, an int subclass).
            let v = unsafe { pyo3::ffi::PyLong_AsLongLongAndOverflow(obj.as_ptr(), &mut overflow) };
            if overflow == 0 {
                if v == -1 {
                    if let Some(err) = PyErr::take(obj.py()) {
                        return Err(err);
                    }
                }
                return Ok(v);
            }
            return obj.extract();
        }
        self.enum_arg_other(idx, obj)
    }

    /// [`Self::enum_arg`] for anything but an int or a member of the class itself.
    #[cold]
    fn enum_arg_other(&'static self, idx: usize, obj: &Bound<'_, PyAny>) -> PyResult<i64> {
        let py = obj.py();
        let class = self.class(py, idx)?;
        // Subtype checks in C: enum classes hook no `__instancecheck__`, and `isinstance`
        // would look for one (a Python-level call) on every enum argument.
        if is_subtype(obj, &class) {
            return obj.extract();
        }
        let (_, enum_base) = enum_classes(py)?;
        let refused = || -> PyResult<i64> {
            Err(PyTypeError::new_err(format!(
                "expected a member of {} or an int, got {}",
                self.defs[idx].name(),
                obj.repr()?
            )))
        };
        if is_subtype(obj, enum_base.bind(py)) {
            // An enum class standing for this one under other names (the `cuda` package's
            // `cudaMemcpyKind` for `hipMemcpyKind`), as the package that made it registered.
            if let Some(stands_for) = stand_in_for(py, &obj.get_type()) {
                if stands_for.is(&class) {
                    let v = obj.extract()?;
                    // Remembered only for int enums (read as ints on the fast path).
                    if obj.is_instance_of::<PyInt>() {
                        let _ = self.slots[idx]
                            .stand_in
                            .get_or_init(py, || obj.get_type().unbind());
                    }
                    return Ok(v);
                }
            }
            return refused();
        }
        // SAFETY: a type-slot check on a live object.
        if unsafe { index_check(obj.as_ptr()) } == 0 {
            // Named by its type (a repr costs more than the rest of the refusal).
            return Err(refused_by_type(obj, &self.defs[idx]));
        }
        obj.extract()
    }

    /// An instance of handle or record class `idx` at `addr` (None for NULL), keeping
    /// `owner` alive.
    pub fn instance_at(
        &'static self,
        py: Python<'_>,
        idx: usize,
        addr: usize,
        owner: Option<PyObject>,
    ) -> PyResult<PyObject> {
        if addr == 0 {
            return Ok(py.None());
        }
        // Borrowed from the slot, not cloned: every handle a function returns passes here.
        let class = self.slots[idx]
            .class
            .get_or_try_init(py, || self.create_class(py, idx))?
            .bind(py);
        match &self.defs[idx] {
            TypeDef::Record(_) => Struct::view(class, addr, owner),
            _ if owner.is_some() => Pointer::new_instance(class, Pointer::owned(addr, owner)),
            _ => {
                let slot = &self.slots[idx];
                if let Some(obj) = slot.reuse(py, addr) {
                    return Ok(obj);
                }
                let obj = Pointer::new_instance(class, Pointer::at(addr))?;
                slot.keep_spare(py, &obj);
                Ok(obj)
            }
        }
    }

    /// A new record instance holding a copy of `size` bytes at `addr`.
    pub fn record_copy(
        &'static self,
        py: Python<'_>,
        idx: usize,
        addr: usize,
    ) -> PyResult<PyObject> {
        if !matches!(&self.defs[idx], TypeDef::Record(_)) {
            return Err(PyTypeError::new_err("not a record"));
        }
        let class = self.class(py, idx)?;
        // SAFETY: `addr` holds a value of this record returned by C.
        unsafe { crate::types::record::copy_to_new(&class, addr) }
    }

    /// Reads a handle argument passed by value (`hiprtcProgram prog`) of handle class `idx`
    /// (see `typed_ptr::handle_arg`).
    #[inline]
    pub fn handle_arg(&'static self, idx: usize, obj: &Bound<'_, PyAny>) -> PyResult<usize> {
        let py = obj.py();
        let TypeDef::Handle(h) = &self.defs[idx] else {
            return Err(PyTypeError::new_err("not a handle"));
        };
        // Borrowed from the slot, not cloned: every handle argument passes here.
        let class = self.slots[idx]
            .class
            .get_or_try_init(py, || self.create_class(py, idx))?
            .bind(py);
        crate::types::typed_ptr::handle_arg(obj, Some(class), h.name)
    }

    /// Reads a record argument passed by value: an instance of the class, a plain `Pointer` or
    /// an address the caller vouches for, or a buffer holding the whole record. Other struct
    /// and handle objects are refused, as a buffer is for a record that is a handle
    /// (`amd_comgr_data_t`, `hsa_agent_t`: one `handle` field), whose bytes no buffer holds.
    pub fn record_arg<T: Copy>(&'static self, idx: usize, obj: &Bound<'_, PyAny>) -> PyResult<T> {
        let TypeDef::Record(r) = &self.defs[idx] else {
            return Err(PyTypeError::new_err("not a record"));
        };
        let class = self.class(obj.py(), idx)?;
        if let Some(p) = crate::convert::pointer::as_pointer(obj) {
            if !crate::convert::pointer::is_exact_pointer(obj) && !is_subtype(obj, &class) {
                return Err(PyTypeError::new_err(format!(
                    "expected a {} instance, got a {}",
                    r.name,
                    obj.get_type().name()?
                )));
            }
            crate::convert::pointer::check_alive(obj, p.get())?;
        } else if is_handle_record(r) && crate::convert::pointer::holds_memory(obj)? {
            return Err(PyTypeError::new_err(format!(
                "expected a {} instance (a handle), got a {}: a buffer's bytes are no handle",
                r.name,
                obj.get_type().name()?
            )));
        }
        let addr = crate::types::typed_ptr::typed_ptr_arg(obj, Some(&class), r.size, false)
            .map_err(|e| {
                if e.is_instance_of::<PyTypeError>(obj.py()) {
                    let got = obj
                        .get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default();
                    PyTypeError::new_err(format!("expected a {} instance, got {got}", r.name))
                } else {
                    e
                }
            })?
            .addr;
        if addr == 0 {
            return Err(PyTypeError::new_err(format!(
                "expected a {} instance, got {}",
                self.defs[idx].name(),
                obj.repr()?
            )));
        }
        // SAFETY: the address points at a value of this record (a struct instance or memory
        // the caller vouches for); it is read without alignment assumptions.
        Ok(unsafe { std::ptr::read_unaligned(addr as *const T) })
    }

    /// A `T *` argument where `T` is handle class `idx` (see `typed_ptr`); `single`: one
    /// handle (`hiprtcProgram *prog`), not an array of them.
    #[inline]
    pub fn handle_ref<'py>(
        &'static self,
        idx: usize,
        obj: &Bound<'py, PyAny>,
        writable: bool,
        single: bool,
    ) -> PyResult<crate::types::typed_ptr::HandleRef<'py>> {
        crate::types::typed_ptr::HandleRef::convert(
            obj,
            &self.class(obj.py(), idx)?,
            writable,
            single,
        )
    }

    /// A `T *` argument where `T` is record `idx`: a struct of that class, or pointer-like
    /// (a buffer must hold the whole record).
    pub fn record_ptr_arg(
        &'static self,
        idx: usize,
        obj: &Bound<'_, PyAny>,
        writable: bool,
    ) -> PyResult<crate::convert::pointer::PtrArg> {
        let TypeDef::Record(r) = &self.defs[idx] else {
            return Err(PyTypeError::new_err("not a record"));
        };
        let class = self.class(obj.py(), idx)?;
        crate::types::typed_ptr::typed_ptr_arg(obj, Some(&class), r.size, writable)
    }

    /// Makes the module create classes on first attribute access (PEP 562) and list them
    /// in `dir()`. `foreign` names types of other modules (hip's `hipStream_t` in hipblas)
    /// that this module re-exports.
    pub fn install(
        &'static self,
        module: &Bound<'_, PyModule>,
        foreign: &'static [(&'static str, &'static TypeRegistry, usize)],
    ) -> PyResult<()> {
        let py = module.py();
        let m = module.clone().unbind();
        let getattr = PyCFunction::new_closure(
            py,
            Some(c"__getattr__"),
            Some(c"Creates enum, struct and handle classes on first access."),
            move |args: &Bound<'_, PyTuple>,
                  _kw: Option<&Bound<'_, PyDict>>|
                  -> PyResult<PyObject> {
                let py = args.py();
                let name: String = args.get_item(0)?.extract()?;
                let module = m.bind(py);
                let found = match self.lookup(py, &name) {
                    Some(idx) => Some(self.class(py, idx)?),
                    None => match foreign.iter().find(|(n, _, _)| *n == name) {
                        Some((_, registry, idx)) => Some(registry.class(py, *idx)?),
                        None => None,
                    },
                };
                match found {
                    Some(class) => {
                        module.setattr(name.as_str(), &class)?;
                        Ok(class.into_any().unbind())
                    }
                    None => Err(PyAttributeError::new_err(format!(
                        "module '{}' has no attribute '{name}'",
                        self.module
                    ))),
                }
            },
        )?;
        module.add("__getattr__", getattr)?;
        let m2 = module.clone().unbind();
        let dir = PyCFunction::new_closure(
            py,
            Some(c"__dir__"),
            None,
            move |args: &Bound<'_, PyTuple>,
                  _kw: Option<&Bound<'_, PyDict>>|
                  -> PyResult<PyObject> {
                let py = args.py();
                let names = PyList::empty(py);
                for k in m2.bind(py).dict().keys() {
                    names.append(k)?;
                }
                for n in self.all_names().chain(foreign.iter().map(|f| f.0)) {
                    names.append(n)?;
                }
                names.sort()?;
                Ok(names.into_any().unbind())
            },
        )?;
        module.add("__dir__", dir)?;
        // `from module import *` brings the classes too, as in hip-python and
        // rocm-llvm-python (`from rocm.llvm.c.targetmachine import *` gives
        // LLVMCodeGenOptLevel): their names are listed, the classes made when imported.
        if let Ok(all) = module.getattr(pyo3::intern!(py, "__all__")) {
            if let Ok(all) = all.downcast::<PyList>() {
                for n in self.all_names().chain(foreign.iter().map(|f| f.0)) {
                    all.append(n)?;
                }
            }
        }
        Ok(())
    }
}

impl FieldTypes for TypeRegistry {
    fn enum_member(&'static self, py: Python<'_>, idx: usize, v: i64) -> PyResult<PyObject> {
        TypeRegistry::enum_member(self, py, idx, v)
    }

    fn enum_arg(&'static self, idx: usize, obj: &Bound<'_, PyAny>) -> PyResult<i64> {
        TypeRegistry::enum_arg(self, idx, obj)
    }

    fn instance_at(
        &'static self,
        py: Python<'_>,
        idx: usize,
        addr: usize,
        owner: Option<PyObject>,
    ) -> PyResult<PyObject> {
        TypeRegistry::instance_at(self, py, idx, addr, owner)
    }

    fn def(&self, idx: usize) -> &'static TypeDef {
        &self.defs[idx]
    }
}
