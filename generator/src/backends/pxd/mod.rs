//! The Cython `.pxd` of a library's C level (`hip.chip` for `hip.hip`), from its IR.
//!
//! Everything Cython needs comes from the IR, so compiling an extension needs no ROCm or CUDA
//! headers: one `cdef extern from *` block whose verbatim C defines each type as the C
//! compiler laid it out (explicit padding where the IR's offsets say so, bitfields, unions,
//! alignment), and each function as a `static inline` trampoline that resolves its symbol on
//! first call through the package's loader (a capsule the extension exports, see
//! `hipgen_runtime::capi`), returning the library's error status where the symbol is
//! missing. The Cython declarations below the C name what a `.pyx` may use.

use crate::backends::templates;
use crate::ir::{AliasKind, AliasModule, CType, ConstValue, Function, Library, Record};
use crate::spec::Spec;
use anyhow::Result;
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// The packages with a C level, each with the module holding the loader (`_c_lookup`): hip's
/// `__init__` hands out the chosen release's; rocm-llvm-python has one extension.
pub const PACKAGES: &[(&str, &str)] =
    &[("hip-python", "hip"), ("rocm-llvm-python", "rocm._native")];

/// Whether package `package` has a C level.
pub fn has_c_level(package: &str) -> bool {
    PACKAGES.iter().any(|(p, _)| *p == package)
}

/// What the template needs.
#[derive(Serialize)]
struct PxdModel {
    command: String,
    release: String,
    /// Spec name, the loader's key (`hip`).
    library: String,
    /// Python module of the bindings (`hip.hip`).
    python_module: String,
    /// The package whose extension exports the loader capsule (`hip`).
    package: String,
    /// The module whose `_c_lookup` is the capsule, or a function returning it (`hip`).
    loader: String,
    /// Include guard of the C block.
    guard: String,
    /// `.pxd` modules of the imported libraries (`hip.chip`).
    cimports: Vec<String>,
    /// C declarations, in an order C accepts.
    c_decls: Vec<String>,
    /// C trampolines.
    c_functions: Vec<String>,
    /// Cython declarations (indented by the template).
    cy_decls: Vec<String>,
}

/// The `.pxd` module path of Python module `m` (`hip.hip` → `hip.chip`).
pub fn pxd_module(m: &str) -> String {
    match m.rsplit_once('.') {
        Some((pkg, last)) => format!("{pkg}.c{last}"),
        None => format!("c{m}"),
    }
}

/// Kinds of the named types the library and its imports declare.
struct Index<'a> {
    records: HashMap<&'a str, &'a Record>,
    callbacks: BTreeSet<&'a str>,
    /// Every type name the `.pxd`s declare (enums, records, handles and their aliases).
    names: BTreeSet<&'a str>,
    /// Handles named by their typedef (no tag of their own: `hipblasLtMatrixLayout_t`, a
    /// pointer to an unnamed struct's typedef), spelled by that name.
    typedef_handles: BTreeSet<&'a str>,
    /// Handles named by their struct tag (`ihipStream_t`, `hipArray`).
    tags: BTreeSet<&'a str>,
    /// Record aliases that are typedefs of a pointer to the record (`hipMipmappedArray_t`),
    /// told by a parameter or field spelled so whose type is that pointer.
    pointer_aliases: BTreeSet<String>,
}

impl<'a> Index<'a> {
    fn new(libs: &[&'a Library]) -> Self {
        let mut records = HashMap::new();
        let mut callbacks = BTreeSet::new();
        let mut names = BTreeSet::new();
        let mut typedef_handles = BTreeSet::new();
        let mut tags = BTreeSet::new();
        for l in libs {
            for r in &l.records {
                records.insert(r.name.as_str(), r);
                names.insert(r.name.as_str());
                names.extend(r.aliases.iter().map(String::as_str));
            }
            for h in &l.handles {
                if h.callback {
                    callbacks.insert(h.name.as_str());
                } else if h.aliases.is_empty() {
                    typedef_handles.insert(h.name.as_str());
                } else {
                    tags.insert(h.name.as_str());
                }
                names.insert(h.name.as_str());
                names.extend(h.aliases.iter().map(String::as_str));
            }
            for e in &l.enums {
                names.insert(e.name.as_str());
                names.extend(e.aliases.iter().map(String::as_str));
            }
            names.extend(l.pointer_aliases.iter().map(String::as_str));
        }
        let mut pointer_aliases = BTreeSet::new();
        for l in libs {
            let typed = l
                .functions
                .iter()
                .flat_map(|f| f.params.iter().map(|p| (p.spelling.as_str(), &p.ty)))
                .chain(
                    l.records
                        .iter()
                        .flat_map(|r| r.fields.iter().map(|f| (f.spelling.as_str(), &f.ty))),
                );
            for (spelling, ty) in typed {
                // A pointer to a record, or a handle whose class is a record (`hipMipmappedArray`).
                let pointee = match ty {
                    CType::Pointer { pointee, .. } => match pointee.as_ref() {
                        CType::Record { name } => Some(name),
                        _ => None,
                    },
                    CType::Handle { name } => Some(name),
                    _ => None,
                };
                let word = spelling.trim_start_matches("const ").trim();
                let aliased = pointee
                    .and_then(|n| records.get(n.as_str()))
                    .is_some_and(|r: &&Record| r.aliases.iter().any(|a| a == word));
                if aliased {
                    pointer_aliases.insert(word.to_string());
                }
            }
        }
        Index {
            records,
            callbacks,
            names,
            typedef_handles,
            tags,
            pointer_aliases,
        }
    }

    /// `(size, align)` of a type in bytes, where the IR knows it.
    fn layout(&self, ty: &CType) -> Option<(u64, u64)> {
        Some(match ty {
            CType::Bool => (1, 1),
            CType::Int { size, .. } | CType::Float { size } | CType::Enum { size, .. } => {
                (*size as u64, *size as u64)
            }
            CType::Pointer { .. } | CType::Handle { .. } => (8, 8),
            CType::Record { name } => {
                let r = self.records.get(name.as_str())?;
                (r.size, r.align)
            }
            CType::Array { elem, len } => {
                let (s, a) = self.layout(elem)?;
                (s * len, a)
            }
            CType::Void | CType::Unsupported { .. } => return None,
        })
    }
}

/// How C spells a type (`None`: it cannot be written here).
fn c_type(ty: &CType, ix: &Index<'_>) -> Option<String> {
    Some(match ty {
        CType::Void => "void".into(),
        CType::Bool => "bool".into(),
        CType::Int {
            is_char: true,
            signed,
            ..
        } => if *signed { "char" } else { "unsigned char" }.into(),
        CType::Int { size, signed, .. } => {
            format!(
                "{}int{}_t",
                if *signed { "" } else { "u" },
                *size as u32 * 8
            )
        }
        CType::Float { size: 4 } => "float".into(),
        CType::Float { size: 8 } => "double".into(),
        CType::Float { .. } | CType::Unsupported { .. } => return None,
        CType::Enum { name, .. } | CType::Record { name } => name.clone(),
        CType::Handle { name }
            if ix.callbacks.contains(name.as_str())
                || ix.typedef_handles.contains(name.as_str()) =>
        {
            name.clone()
        }
        CType::Handle { name } => format!("struct {name} *"),
        CType::Pointer { pointee, is_const } => pointer(c_type(pointee, ix)?, *is_const),
        CType::Array { elem, .. } => format!("{} *", c_type(elem, ix)?),
    })
}

/// A pointer to `inner`, `const` where the pointee is: before a plain type, after a pointer
/// (`const float *const *`).
fn pointer(inner: String, is_const: bool) -> String {
    match (is_const, inner.ends_with('*')) {
        (false, _) => format!("{inner} *"),
        (true, false) => format!("const {inner} *"),
        (true, true) => format!("{inner}const *"),
    }
}

/// C's own spelling of a type (`int *`, `size_t`, `hipStream_t`), where every name in it is
/// C's or declared here: Cython tells `int *` from `int32_t *`, so a `.pyx` passing `&n` of
/// an `int` needs C's words. `None` for what this cannot take (function pointers, arrays).
fn spelled(spelling: &str, ix: &Index<'_>) -> Option<String> {
    const WORDS: &[&str] = &[
        "const",
        "struct",
        "union",
        "enum",
        "unsigned",
        "signed",
        "int",
        "char",
        "short",
        "long",
        "float",
        "double",
        "void",
        "bool",
        "_Bool",
        "size_t",
        "ssize_t",
        "intptr_t",
        "uintptr_t",
        "ptrdiff_t",
        "int8_t",
        "int16_t",
        "int32_t",
        "int64_t",
        "uint8_t",
        "uint16_t",
        "uint32_t",
        "uint64_t",
    ];
    if spelling.is_empty() || spelling.contains(['(', '[', '<', ':']) {
        return None;
    }
    let ok = spelling
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .all(|w| WORDS.contains(&w) || ix.names.contains(w));
    ok.then(|| spelling.replace("_Bool", "bool").replace("* ", "*"))
}

/// The same in Cython's words: no `struct`/`union`/`enum` keywords, `bool` by its `.pxd` name.
fn cy_spelled(c: &str) -> String {
    c.split(' ')
        .filter(|w| !matches!(*w, "struct" | "union" | "enum"))
        .map(|w| if w == "bool" { "hipgen_bool" } else { w })
        .collect::<Vec<_>>()
        .join(" ")
}

/// How Cython spells a type: as C, with `bool` under the name the `.pxd` gives it.
fn cy_type(ty: &CType, ix: &Index<'_>) -> Option<String> {
    Some(match ty {
        CType::Bool => "hipgen_bool".into(),
        CType::Handle { name }
            if !ix.callbacks.contains(name.as_str())
                && !ix.typedef_handles.contains(name.as_str()) =>
        {
            format!("{name} *")
        }
        CType::Pointer { pointee, is_const } => pointer(cy_type(pointee, ix)?, *is_const),
        CType::Array { elem, .. } => format!("{} *", cy_type(elem, ix)?),
        _ => c_type(ty, ix)?,
    })
}

/// `T name` (arrays as `T name[N]`), by `spell`.
fn declare(
    ty: &CType,
    name: &str,
    ix: &Index<'_>,
    spell: fn(&CType, &Index<'_>) -> Option<String>,
) -> Option<String> {
    match ty {
        CType::Array { elem, len } => declare(elem, &format!("{name}[{len}]"), ix, spell),
        _ => {
            let t = spell(ty, ix)?;
            Some(if t.ends_with('*') {
                format!("{t}{name}")
            } else {
                format!("{t} {name}")
            })
        }
    }
}

/// `T name` of a spelled type.
fn named(t: &str, name: &str) -> String {
    if t.ends_with('*') {
        format!("{t}{name}")
    } else {
        format!("{t} {name}")
    }
}

/// Whether a field is an unnamed member (C11's anonymous struct or union).
fn unnamed_member(name: &str) -> bool {
    let digits = name
        .strip_prefix("union_")
        .or_else(|| name.strip_prefix("struct_"));
    digits.is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

/// The C body of a record (`{ ... }`), with explicit padding to the IR's offsets, and the
/// names Cython may use (an unnamed member's fields are the parent's); `None` where a field
/// cannot be written (the record is then opaque bytes of its size). Fields of a struct that
/// share an offset are an unnamed union the IR lists flattened, and are written as one.
fn c_body(r: &Record, ix: &Index<'_>, depth: usize) -> Option<(String, Vec<String>)> {
    let mut body = BodyWriter {
        ix,
        depth,
        pad: "  ".repeat(depth + 1),
        out: String::new(),
        names: Vec::new(),
        pos_bits: 0,
    };
    let mut i = 0;
    while i < r.fields.len() {
        let f = &r.fields[i];
        let (group, end) = field_group(r, ix, i)?;
        let members = &r.fields[i..i + group];
        if !r.is_union && f.bit_width.is_none() {
            body.pad_to(i, f, members)?;
        }
        let size_bits = if group > 1 {
            body.write_union(f, members)?;
            end - f.offset_bits
        } else {
            body.write_field(f)?;
            field_bits(ix, f)?
        };
        body.pos_bits = body.pos_bits.max(f.offset_bits + size_bits);
        i += group;
    }
    body.finish(r)
}

/// The bits a field spans: its bit width, else its type's size (`None` where that is unknown).
fn field_bits(ix: &Index<'_>, g: &crate::ir::Field) -> Option<u64> {
    Some(match g.bit_width {
        Some(w) => w as u64,
        None => ix.layout(&g.ty)?.0 * 8,
    })
}

/// How many fields from `i` are written as one, and where they end (in bits). More than one
/// is a flattened unnamed union: the IR lists an unnamed union's members (and an unnamed
/// struct's inside it) as the parent's, so a later field starting where this one does begins
/// another alternative. In a struct, offsets only go back there.
fn field_group(r: &Record, ix: &Index<'_>, i: usize) -> Option<(usize, u64)> {
    let f = &r.fields[i];
    let mut group = 1;
    let mut end = f.offset_bits + field_bits(ix, f)?;
    if r.is_union || f.bit_width.is_some() {
        return Some((group, end));
    }
    let restart = r.fields[i + 1..]
        .iter()
        .rposition(|g| g.offset_bits == f.offset_bits)
        .map(|k| i + 1 + k);
    let Some(last) = restart else {
        return Some((group, end));
    };
    for g in &r.fields[i..=last] {
        end = end.max(g.offset_bits + field_bits(ix, g)?);
    }
    group = last + 1 - i;
    // The last alternative's own fields, up to the union's extent so far (where it is the
    // longest, what follows lies at the same offsets either way).
    while r.fields.get(i + group).is_some_and(|g| g.offset_bits < end) {
        let g = &r.fields[i + group];
        end = end.max(g.offset_bits + field_bits(ix, g)?);
        group += 1;
    }
    Some((group, end))
}

/// A record's C body being written (`c_body`): the text so far, the names Cython may use, and
/// where the fields written so far end.
struct BodyWriter<'a, 'i> {
    ix: &'a Index<'i>,
    /// The record's nesting depth (its fields are indented one level more).
    depth: usize,
    /// The indentation of the record's fields.
    pad: String,
    out: String,
    names: Vec<String>,
    pos_bits: u64,
}

impl BodyWriter<'_, '_> {
    /// Explicit padding before field `i` (`f`, the first of `members`) where its offset is not
    /// where the fields so far end, aligned; `None` where it lies before that.
    fn pad_to(
        &mut self,
        i: usize,
        f: &crate::ir::Field,
        members: &[crate::ir::Field],
    ) -> Option<()> {
        let mut align = 1;
        for m in members {
            align = align.max(self.ix.layout(&m.ty)?.1);
        }
        let at = f.offset_bits / 8;
        let from = self.pos_bits.div_ceil(8);
        if at != from.next_multiple_of(align) {
            if at < from {
                return None;
            }
            self.out += &format!("{}unsigned char _hipgen_pad{i}[{}];\n", self.pad, at - from);
        }
        Some(())
    }

    /// One field's declaration.
    fn write_field(&mut self, f: &crate::ir::Field) -> Option<()> {
        let (decl, cy) = field_decl(f, self.ix, self.depth + 1)?;
        self.out += &format!("{}{decl};\n", self.pad);
        self.names.extend(cy);
        Some(())
    }

    /// A flattened unnamed union (`members`, starting at `f`) as `union { ... };`: each
    /// alternative one field or an unnamed struct.
    fn write_union(&mut self, f: &crate::ir::Field, members: &[crate::ir::Field]) -> Option<()> {
        let inner_pad = "  ".repeat(self.depth + 2);
        self.out += &format!("{}union {{\n", self.pad);
        for alt in alternatives(f.offset_bits, members) {
            if alt.len() == 1 {
                let (decl, cy) = field_decl(alt[0], self.ix, self.depth + 2)?;
                self.out += &format!("{inner_pad}{decl};\n");
                self.names.extend(cy);
                continue;
            }
            let inner = unnamed_struct(&alt, f.offset_bits, self.ix)?;
            let (body, inner_names) = c_body(&inner, self.ix, self.depth + 2)?;
            self.out += &format!("{inner_pad}struct {body};\n");
            self.names.extend(inner_names);
        }
        self.out += &format!("{}}};\n", self.pad);
        Some(())
    }

    /// The body, with tail padding where a struct's fields end before its size, and the names.
    fn finish(mut self, r: &Record) -> Option<(String, Vec<String>)> {
        if !r.is_union && r.size * 8 > self.pos_bits.next_multiple_of(r.align.max(1) * 8) {
            let from = self.pos_bits.div_ceil(8);
            self.out += &format!(
                "{}unsigned char _hipgen_tail[{}];\n",
                self.pad,
                r.size - from
            );
        }
        let close = "  ".repeat(self.depth);
        Some((format!("{{\n{}{close}}}", self.out), self.names))
    }
}

/// A flattened unnamed union's alternatives: a new one at each member starting where the
/// union does (`start`, in bits).
fn alternatives(start: u64, members: &[crate::ir::Field]) -> Vec<Vec<&crate::ir::Field>> {
    let mut alternatives: Vec<Vec<&crate::ir::Field>> = Vec::new();
    for m in members {
        match alternatives.last_mut() {
            Some(alt) if m.offset_bits != start => alt.push(m),
            _ => alternatives.push(vec![m]),
        }
    }
    alternatives
}

/// The unnamed struct of a union's alternative: its fields at offsets from the union's start
/// (`start`, in bits), aligned as the most aligned of them.
fn unnamed_struct(alt: &[&crate::ir::Field], start: u64, ix: &Index<'_>) -> Option<Record> {
    let mut align = 1;
    for m in alt {
        align = align.max(ix.layout(&m.ty).map_or(1, |l| l.1));
    }
    let extent = alt
        .iter()
        .map(|m| m.offset_bits + field_bits(ix, m).unwrap_or(0))
        .max()?;
    Some(Record {
        name: String::new(),
        aliases: Vec::new(),
        is_union: false,
        anonymous: true,
        size: (extent - start).div_ceil(8).next_multiple_of(align),
        align,
        fields: alt
            .iter()
            .map(|m| crate::ir::Field {
                offset_bits: m.offset_bits - start,
                ..(*m).clone()
            })
            .collect(),
        doc: Default::default(),
    })
}

/// One field's C declaration (without `;`) and the names Cython gets from it.
fn field_decl(f: &crate::ir::Field, ix: &Index<'_>, depth: usize) -> Option<(String, Vec<String>)> {
    let anonymous = match &f.ty {
        CType::Record { name } => ix.records.get(name.as_str()).filter(|n| n.anonymous),
        _ => None,
    };
    if let Some(inner) = anonymous.filter(|_| unnamed_member(&f.name)) {
        let (body, inner_names) = c_body(inner, ix, depth)?;
        let kw = if inner.is_union { "union" } else { "struct" };
        return Some((format!("{kw} {body}"), inner_names));
    }
    let (decl, cy) = match spelled(&f.spelling, ix) {
        Some(c) => (named(&c, &f.name), named(&cy_spelled(&c), &f.name)),
        None => (
            declare(&f.ty, &f.name, ix, c_type)?,
            declare(&f.ty, &f.name, ix, cy_type)?,
        ),
    };
    Some(match f.bit_width {
        Some(w) => (format!("{decl} : {w}"), vec![cy]),
        None => (decl, vec![cy]),
    })
}

/// `text` once per translation unit, however many `.pxd`s declare `name` (libraries share
/// headers: hipSOLVER's IR has hipBLAS's enums, hiprtc's has HIP's).
fn once(name: &str, text: String) -> String {
    format!("#ifndef HIPGEN_DEF_{name}\n#define HIPGEN_DEF_{name}\n{text}\n#endif")
}

/// Writes a C integer literal of an enum's or constant's value.
fn c_int(v: i64, signed: bool, size: u8) -> String {
    if !signed && v < 0 {
        let bits = size as u32 * 8;
        let u = if bits >= 64 {
            v as u64
        } else {
            (v as u64) & ((1u64 << bits) - 1)
        };
        return format!("{u}ull");
    }
    if v > i32::MAX as i64 {
        format!("{v}ull")
    } else if v < i32::MIN as i64 {
        format!("({}ll - 1)", v + 1)
    } else {
        v.to_string()
    }
}

/// The value a trampoline returns when its symbol is missing: the status enum's
/// initialization error (hip-python's `hipErrorInitializationError`), else zero or NULL.
fn missing_value(
    f: &Function,
    libs: &[&Library],
    status: Option<&str>,
    unavailable: Option<&str>,
    ix: &Index<'_>,
) -> String {
    match &f.ret {
        CType::Enum { name, .. } if Some(name.as_str()) == status && unavailable.is_some() => {
            unavailable.unwrap_or_default().to_string()
        }
        CType::Enum { name, .. } => {
            // The enum may be another library's (hipBLASLt returns hipBLAS's status).
            let members = libs
                .iter()
                .flat_map(|l| &l.enums)
                .find(|e| &e.name == name)
                .map(|e| e.members.as_slice())
                .unwrap_or_default();
            let pick = [
                "initializationerror",
                "not_initialized",
                "notinitialized",
                "not_supported",
            ]
            .iter()
            .find_map(|k| {
                members
                    .iter()
                    .find(|(m, _)| m.to_ascii_lowercase().contains(k))
            });
            match pick {
                Some((m, _)) => m.clone(),
                None if Some(name.as_str()) == status => format!("({name})-1"),
                None => format!("({name})0"),
            }
        }
        CType::Void => String::new(),
        CType::Pointer { .. } | CType::Handle { .. } => "NULL".into(),
        CType::Record { .. } => format!("({}){{0}}", c_type(&f.ret, ix).unwrap_or_default()),
        other => format!("({})0", c_type(other, ix).unwrap_or_default()),
    }
}

/// Renders the `.pxd` of `lib` (which imports `imports`).
pub fn render(
    lib: &Library,
    imports: &[Library],
    modules: &HashMap<String, String>,
    spec: &Spec,
    templates_dir: &Path,
    command: &str,
) -> Result<String> {
    let mut all: Vec<&Library> = vec![lib];
    all.extend(imports.iter());
    let ix = Index::new(&all);
    let python_module = spec.python_module();
    let package = python_module
        .split('.')
        .next()
        .unwrap_or_default()
        .to_string();
    let cimports = imports
        .iter()
        .filter_map(|l| modules.get(&l.name))
        .map(|m| pxd_module(m))
        .collect();

    let mut d = Decls::default();
    // Enums.
    let mut seen_members = BTreeSet::new();
    for e in &lib.enums {
        d.enumeration(e, &mut seen_members);
    }
    d.handles(lib);
    // Records: forward typedefs, then definitions with what they hold by value first.
    d.record_typedefs(lib, &ix);
    for r in definition_order(lib, imports) {
        d.record_definition(r, spec, &ix);
    }
    // Integer constants (those not already enum members).
    d.constants(lib, &mut seen_members);
    // Functions: a trampoline each.
    let functions = lib
        .functions
        .iter()
        .filter_map(|f| d.trampoline(f, lib, &all, spec, &ix))
        .collect();

    let model = PxdModel {
        command: command.to_string(),
        release: lib.release.clone(),
        library: lib.name.clone(),
        python_module: python_module.clone(),
        loader: PACKAGES
            .iter()
            .find(|(p, _)| *p == spec.package)
            .map_or(package.clone(), |(_, l)| l.to_string()),
        package,
        guard: format!("HIPGEN_PXD_{}", lib.name.to_ascii_uppercase()),
        cimports,
        c_decls: d.c,
        c_functions: functions,
        cy_decls: d.cy,
    };
    let env = templates::environment(templates_dir);
    Ok(env
        .get_template("pxd.j2")?
        .render(minijinja::context! { m => &model })?)
}

/// A `.pxd`'s declarations as they are written: C's, and Cython's of the same names.
#[derive(Default)]
struct Decls {
    c: Vec<String>,
    cy: Vec<String>,
}

impl Decls {
    /// Adds C's declaration `c` and Cython's `cy`.
    fn push(&mut self, c: String, cy: String) {
        self.c.push(c);
        self.cy.push(cy);
    }

    /// Enum `e`, with its members not declared before (`seen_members`), and its aliases.
    fn enumeration(&mut self, e: &crate::ir::Enum, seen_members: &mut BTreeSet<String>) {
        let members: Vec<&(String, i64)> = e
            .members
            .iter()
            .filter(|(m, _)| seen_members.insert(m.clone()))
            .collect();
        let body: Vec<String> = members
            .iter()
            .map(|(m, v)| format!("  {m} = {}", c_int(*v, e.signed, e.size)))
            .collect();
        if e.size == 4 {
            self.int_enum(e, &members, &body);
        } else {
            self.sized_enum(e, &members, &body);
        }
        for a in &e.aliases {
            self.push(
                format!("typedef {} {a};", e.name),
                format!("ctypedef {} {a}", e.name),
            );
        }
    }

    /// An enum of C's `int` size: C's enum type itself.
    fn int_enum(&mut self, e: &crate::ir::Enum, members: &[&(String, i64)], body: &[String]) {
        self.c.push(once(
            &e.name,
            format!(
                "typedef enum {} {{\n{}\n}} {};",
                e.name,
                body.join(",\n"),
                e.name
            ),
        ));
        let mut d = format!("ctypedef enum {}:", e.name);
        if members.is_empty() {
            d += "\n    pass";
        }
        for (m, _) in members {
            d += &format!("\n    {m}");
        }
        self.cy.push(d);
    }

    /// An enum of another size: an integer typedef of its size, and an unnamed enum of its
    /// members.
    fn sized_enum(&mut self, e: &crate::ir::Enum, members: &[&(String, i64)], body: &[String]) {
        let t = format!(
            "{}int{}_t",
            if e.signed { "" } else { "u" },
            e.size as u32 * 8
        );
        self.c.push(format!("typedef {t} {};", e.name));
        if !body.is_empty() {
            self.c
                .push(once(&e.name, format!("enum {{\n{}\n}};", body.join(",\n"))));
        }
        self.cy.push(format!("ctypedef {t} {}", e.name));
        if !members.is_empty() {
            let mut d = "enum:".to_string();
            for (m, _) in members {
                d += &format!("\n    {m}");
            }
            self.cy.push(d);
        }
    }

    /// Handles and `void *` typedefs.
    fn handles(&mut self, lib: &Library) {
        for h in &lib.handles {
            if h.callback {
                self.push(
                    format!("typedef void *{};", h.name),
                    format!("ctypedef void *{}", h.name),
                );
            } else if h.aliases.is_empty() {
                self.c
                    .push(format!("typedef struct hipgen_{0} *{0};", h.name));
                self.cy.push(format!("cdef struct hipgen_{}", h.name));
                self.cy.push(format!("ctypedef hipgen_{0} *{0}", h.name));
            } else {
                self.push(
                    format!("struct {};", h.name),
                    format!("cdef struct {}", h.name),
                );
            }
            for a in &h.aliases {
                if h.callback {
                    self.push(
                        format!("typedef {} {a};", h.name),
                        format!("ctypedef {} {a}", h.name),
                    );
                } else {
                    self.push(
                        format!("typedef struct {} *{a};", h.name),
                        format!("ctypedef {} *{a}", h.name),
                    );
                }
            }
        }
        for a in &lib.pointer_aliases {
            self.push(format!("typedef void *{a};"), format!("ctypedef void *{a}"));
        }
    }

    /// Each record's forward typedef (declared before any record names it by pointer), and
    /// its aliases.
    fn record_typedefs(&mut self, lib: &Library, ix: &Index<'_>) {
        for r in &lib.records {
            let kw = if r.is_union { "union" } else { "struct" };
            self.push(
                format!("typedef {kw} {0} {0};", r.name),
                format!("ctypedef {kw} {}", r.name),
            );
            for a in r.aliases.iter().filter(|a| **a != r.name) {
                let star = if ix.pointer_aliases.contains(a) {
                    "*"
                } else {
                    ""
                };
                self.push(
                    format!("typedef {} {star}{a};", r.name),
                    format!("ctypedef {} {star}{a}", r.name),
                );
            }
        }
    }

    /// Record `r`'s definition (opaque bytes of its size where its body cannot be written),
    /// with the spec's constructor.
    fn record_definition(&mut self, r: &Record, spec: &Spec, ix: &Index<'_>) {
        let kw = if r.is_union { "union" } else { "struct" };
        let (mut body, names) = c_body(r, ix, 0).unwrap_or_else(|| {
            (
                format!("{{\n  unsigned char _hipgen_bytes[{}];\n}}", r.size.max(1)),
                Vec::new(),
            )
        });
        if let Some(ctor) = spec
            .constructors
            .get(&r.name)
            .and_then(|d| constructor(r, *d, ix))
        {
            body = format!("{}{ctor}\n}}", body.trim_end().trim_end_matches('}'));
        }
        self.c.push(once(
            &r.name,
            format!(
                "{kw} __attribute__((aligned({}))) {} {body};",
                r.align.max(1),
                r.name
            ),
        ));
        let mut d = format!("ctypedef {kw} {}:", r.name);
        if names.is_empty() {
            d += "\n    pass";
        }
        for n in names {
            d += &format!("\n    {n}");
        }
        self.cy.push(d);
    }

    /// The integer constants that are not already enum members (`seen_members`).
    fn constants(&mut self, lib: &Library, seen_members: &mut BTreeSet<String>) {
        for k in &lib.constants {
            if let ConstValue::Int(v) = k.value {
                if seen_members.insert(k.name.clone()) {
                    self.push(
                        once(
                            &k.name,
                            format!("#define {} ({})", k.name, c_int(v, true, 8)),
                        ),
                        format!("const long long {}", k.name),
                    );
                }
            }
        }
    }

    /// Function `f`'s trampoline, its Cython declaration added; `None` where its types cannot
    /// be written.
    fn trampoline(
        &mut self,
        f: &Function,
        lib: &Library,
        all: &[&Library],
        spec: &Spec,
        ix: &Index<'_>,
    ) -> Option<String> {
        let ret = c_type(&f.ret, ix)?;
        let (Some(params), Some(cy_decl)) = (params(f, ix), cy_function(f, &f.name, ix)) else {
            return None;
        };
        let status = spec.status.as_ref().map(|s| s.enum_name.as_str());
        let decls: Vec<&str> = params.iter().map(|p| p.1.as_str()).collect();
        let args: Vec<String> = (0..params.len()).map(|i| format!("a{i}")).collect();
        let unavailable = spec.status.as_ref().and_then(|s| s.unavailable.as_deref());
        let fail = missing_value(f, all, status, unavailable, ix);
        // The body is the template's HIPGEN_CALL (or HIPGEN_CALL_VOID): the pointer's type is
        // the function's own (`__typeof__`), so each trampoline is one line.
        let call = if matches!(f.ret, CType::Void) {
            format!("HIPGEN_CALL_VOID({}, \"{}\"", lib.name, f.symbol)
        } else {
            format!("HIPGEN_CALL({}, \"{}\", {fail}", lib.name, f.symbol)
        };
        let decls = if decls.is_empty() {
            "void".to_string()
        } else {
            decls.join(", ")
        };
        let mut tail = String::new();
        for a in &args {
            tail += ", ";
            tail += a;
        }
        self.cy.push(cy_decl);
        Some(once(
            &f.name,
            format!(
                "static inline {ret} {}({decls}) {{ {call}, {}{tail}) }}",
                f.name, f.name
            ),
        ))
    }
}

/// `lib`'s records in the order C defines them: what a record holds by value first (records
/// of `imports` are defined there); a cycle by value, which C would not compile, last.
fn definition_order<'a>(lib: &'a Library, imports: &'a [Library]) -> Vec<&'a Record> {
    let mut done: BTreeSet<&str> = imports
        .iter()
        .flat_map(|l| l.records.iter().map(|r| r.name.as_str()))
        .collect();
    let mut pending: Vec<&Record> = lib.records.iter().collect();
    let mut defs = Vec::new();
    while !pending.is_empty() {
        let before = pending.len();
        pending.retain(|r| {
            let ready = r
                .fields
                .iter()
                .all(|f| by_value(&f.ty).is_none_or(|n| done.contains(n) || n == r.name));
            if ready {
                defs.push(*r);
                done.insert(r.name.as_str());
            }
            !ready
        });
        if pending.len() == before {
            // A cycle by value cannot be (C would not compile it): write the rest as bytes.
            defs.append(&mut pending);
        }
    }
    defs
}

/// A record's C++ constructor taking each field, `default` where not given (HIP's `dim3`).
fn constructor(r: &Record, default: i64, ix: &Index<'_>) -> Option<String> {
    let mut params = Vec::new();
    let mut init = Vec::new();
    for f in &r.fields {
        params.push(format!("{} {}_ = {default}", c_type(&f.ty, ix)?, f.name));
        init.push(format!("{0}({0}_)", f.name));
    }
    Some(format!(
        "#ifdef __cplusplus\n  constexpr {}({}) : {} {{}}\n#endif",
        r.name,
        params.join(", "),
        init.join(", ")
    ))
}

/// Per parameter: C's type, C's `type aN` and Cython's `type name`; `None` where one cannot be
/// written.
fn params(f: &Function, ix: &Index<'_>) -> Option<Vec<(String, String, String)>> {
    f.params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let ty = match &p.ty {
                CType::Array { elem, .. } => CType::Pointer {
                    pointee: elem.clone(),
                    is_const: false,
                },
                t => t.clone(),
            };
            let name = sanitize(&p.name, i);
            if let Some(c) = spelled(&p.spelling, ix) {
                return Some((
                    c.clone(),
                    named(&c, &format!("a{i}")),
                    named(&cy_spelled(&c), &name),
                ));
            }
            Some((
                c_type(&ty, ix)?,
                declare(&ty, &format!("a{i}"), ix, c_type)?,
                declare(&ty, &name, ix, cy_type)?,
            ))
        })
        .collect()
}

/// Cython's declaration of HIP function `f` under the name `name`.
fn cy_function(f: &Function, name: &str, ix: &Index<'_>) -> Option<String> {
    let ret = cy_type(&f.ret, ix)?;
    let ps: Vec<String> = params(f, ix)?.into_iter().map(|p| p.2).collect();
    Some(format!("{ret} {name}({}) nogil", ps.join(", ")).replace("* ", "*"))
}

/// The C levels of the `cuda` package's modules (`cuda.ccudart` and `cuda.bindings.cyruntime`,
/// ...): each CUDA name HIPIFY maps to a HIP object of the `.pxd`s above stands for it, a
/// type as a typedef, a function, enum member or constant as a macro, so `ccudart.cudaMalloc`
/// runs `chip.hipMalloc`'s trampoline. `(path under stubs/, text)` for each file.
pub fn render_cuda(
    set: &crate::ir::AliasSet,
    libs: &[Library],
    command: &str,
) -> Vec<(String, String)> {
    let all: Vec<&Library> = libs.iter().collect();
    let ix = Index::new(&all);
    let levels = CudaLevels::new(set, libs, &ix);
    let mut out = Vec::new();
    for m in &set.python_modules {
        levels.module(m, command, &mut out);
    }
    out
}

/// The family of a CUDA name: nvrtc, the runtime's (`cuda...`), or the driver's.
fn cuda_kind(n: &str) -> &'static str {
    if n.starts_with("nvrtc") || n.starts_with("NVRTC") {
        "nvrtc"
    } else if n.starts_with("cuda") {
        "runtime"
    } else {
        "driver"
    }
}

/// What the C levels of the `cuda` package's modules read: the alias set, HIP's declarations
/// and the newest cuda-python API's.
struct CudaLevels<'a> {
    set: &'a crate::ir::AliasSet,
    ix: &'a Index<'a>,
    /// HIP's functions by name.
    functions: HashMap<&'a str, &'a Function>,
    /// HIP enum member → its enum.
    member_type: HashMap<&'a str, &'a str>,
    /// The C levels follow the newest cuda-python API the plan has (13).
    newest_api: Option<&'a crate::ir::ApiConventions>,
    /// CUDA's enums as cuda-python's `.pxd` declares them, so that
    /// `cudaMemcpyKind.cudaMemcpyHostToDevice` reads as there and functions take CUDA's enum
    /// types: Cython keeps C enums apart by name, and a function declared with HIP's enum
    /// would refuse CUDA's (C++ mode).
    cuda_enums: HashMap<&'a str, &'a crate::ir::CudaEnumDecl>,
    /// cuda-python's own C signatures where they are not HIP's (CUDA 13's `cuCtxCreate` takes
    /// a parameters pointer HIP lacks; `cuGraphInstantiate` is HIP's `...WithFlags`).
    c_calls: HashMap<&'a str, &'a crate::ir::Adapter>,
    /// CUDA typedef name of a record → the record's own name (`cudaUUID_t` → `CUuuid`).
    record_of: HashMap<&'a str, &'a str>,
}

/// One module's C level as it is written.
struct ModuleLevel<'a> {
    /// The module's family (`runtime`, `driver`, `nvrtc`).
    kind: &'a str,
    trampolines: Vec<String>,
    c: Vec<String>,
    cy: Vec<String>,
    /// The CUDA names declared so far.
    seen: BTreeSet<String>,
    /// HIP enum → this module's CUDA enum for it.
    enum_for: HashMap<String, String>,
    /// CUDA enum member → HIP's member.
    hip_member: HashMap<&'a str, &'a str>,
}

impl ModuleLevel<'_> {
    /// Adds C's declaration `c` and Cython's `cy`.
    fn push(&mut self, c: String, cy: String) {
        self.c.push(c);
        self.cy.push(cy);
    }
}

impl<'a> CudaLevels<'a> {
    /// The lookups of `set` and HIP's libraries `libs` (declared in `ix`).
    fn new(set: &'a crate::ir::AliasSet, libs: &'a [Library], ix: &'a Index<'a>) -> Self {
        let functions = libs
            .iter()
            .flat_map(|l| l.functions.iter().map(|f| (f.name.as_str(), f)))
            .collect();
        let member_type = libs
            .iter()
            .flat_map(|l| {
                l.enums.iter().flat_map(|e| {
                    e.members
                        .iter()
                        .map(move |(m, _)| (m.as_str(), e.name.as_str()))
                })
            })
            .collect();
        let newest_api = set
            .apis
            .iter()
            .max_by_key(|a| a.version.parse::<u32>().unwrap_or(0));
        let cuda_enums = newest_api
            .iter()
            .flat_map(|a| &a.types.enums)
            .map(|e| (e.name.as_str(), e))
            .collect();
        let c_calls = newest_api
            .iter()
            .flat_map(|a| &a.adapted)
            .filter(|ad| ad.c_call.is_some())
            .map(|ad| (ad.cuda.as_str(), ad))
            .collect();
        let record_of = newest_api
            .iter()
            .flat_map(|a| &a.types.records)
            .flat_map(|r| r.aliases.iter().map(move |a| (a.as_str(), r.name.as_str())))
            .filter(|(a, n)| a != n)
            .collect();
        CudaLevels {
            set,
            ix,
            functions,
            member_type,
            newest_api,
            cuda_enums,
            c_calls,
            record_of,
        }
    }

    /// The alias modules of HIP modules Python module `m` stands over.
    fn alias_modules<'m>(
        &self,
        m: &'m crate::ir::PythonModule,
    ) -> impl Iterator<Item = &'a AliasModule> + 'm
    where
        'a: 'm,
    {
        self.set
            .modules
            .iter()
            .filter(|am| m.hip_modules.contains(&am.module))
    }

    /// Whether cuda-python declares CUDA enum `cuda` in the module of family `kind`.
    fn declared_enum(&self, cuda: &str, kind: &str) -> bool {
        self.cuda_enums.get(cuda).is_some_and(|d| d.module == kind)
    }

    /// Adds the file(s) of Python module `m` to `out`.
    fn module(
        &self,
        m: &'a crate::ir::PythonModule,
        command: &str,
        out: &mut Vec<(String, String)>,
    ) {
        let mut st = ModuleLevel {
            kind: m.kind(),
            trampolines: Vec::new(),
            c: Vec::new(),
            cy: Vec::new(),
            seen: BTreeSet::new(),
            enum_for: HashMap::new(),
            hip_member: HashMap::new(),
        };
        self.enum_lookups(m, &mut st);
        for am in self.alias_modules(m) {
            let kind = st.kind;
            for e in am
                .names
                .iter()
                .filter(|e| cuda_kind(&e.cuda) == kind && e.cuda != e.hip)
            {
                if st.seen.insert(e.cuda.clone()) {
                    self.alias(&mut st, e);
                }
            }
            for group in &am.members {
                for (cuda, hip) in &group.members {
                    if cuda_kind(cuda) == kind && cuda != hip && st.seen.insert(cuda.clone()) {
                        st.push(
                            format!("#define {cuda} {hip}"),
                            format!("const {} {cuda}", group.hip_enum),
                        );
                    }
                }
            }
        }
        let text = self.text(m, &mut st, command);
        let pkg = |module: &str| {
            module
                .rsplit_once('.')
                .map_or(String::new(), |(p, _)| p.replace('.', "/"))
        };
        if let Some(legacy) = &m.legacy {
            // The legacy name's file is the same names, cimported.
            let head: String = text.lines().take(5).map(|l| format!("{l}\n")).collect();
            let body = format!("{head}from {} cimport *\n", pxd_cy(&m.module));
            out.push((format!("{}/c{}.pxd", pkg(legacy), m.lib), body));
        }
        out.push((format!("{}/cy{}.pxd", pkg(&m.module), st.kind), text));
    }

    /// HIP enum → this module's CUDA enum for it, and the HIP member of each CUDA member.
    fn enum_lookups(&self, m: &'a crate::ir::PythonModule, st: &mut ModuleLevel<'a>) {
        let kind = st.kind;
        for am in self.alias_modules(m) {
            for group in &am.members {
                for (cuda, hip) in &group.members {
                    st.hip_member.entry(cuda).or_insert(hip);
                }
            }
            for e in am.names.iter().filter(|e| e.kind == AliasKind::Enum) {
                let declared = self.declared_enum(&e.cuda, kind);
                if declared && cuda_kind(&e.cuda) == kind && self.ix.names.contains(e.hip.as_str())
                {
                    for hip in e.hip_enum.iter().chain([&e.hip]) {
                        st.enum_for
                            .entry(hip.clone())
                            .or_insert_with(|| e.cuda.clone());
                    }
                }
            }
        }
    }

    /// The declarations of CUDA name `e` (a function, enum, constant or type).
    fn alias(&self, st: &mut ModuleLevel<'_>, e: &crate::ir::Alias) {
        let known = self.ix.names.contains(e.hip.as_str());
        match e.kind {
            AliasKind::Function => self.function_alias(st, e),
            AliasKind::Enum if known && self.declared_enum(&e.cuda, st.kind) => {
                self.enum_alias(st, e)
            }
            AliasKind::Constant => self.constant_alias(st, e),
            _ if known => self.type_alias(st, e),
            _ => {}
        }
    }

    /// A CUDA function: a trampoline of its own C signature where cuda-python's is not HIP's,
    /// else a macro naming HIP's.
    fn function_alias(&self, st: &mut ModuleLevel<'_>, e: &crate::ir::Alias) {
        if let Some((tramp, d)) = self.own_c_call(st, e) {
            st.trampolines.push(tramp);
            st.cy.push(cuda_types(&d, &st.enum_for));
        } else if let Some(d) = self
            .functions
            .get(e.hip.as_str())
            .and_then(|f| cy_function(f, &e.cuda, self.ix))
        {
            st.c.push(format!("#define {} {}", e.cuda, e.hip));
            st.cy.push(cuda_types(&d, &st.enum_for));
        }
    }

    /// The trampoline of CUDA function `e` and its declaration, where its C signature is not
    /// its HIP function's (`Adapter::c_call`).
    fn own_c_call(&self, st: &ModuleLevel<'_>, e: &crate::ir::Alias) -> Option<(String, String)> {
        let ad = self.c_calls.get(e.cuda.as_str())?;
        let f = self.functions.get(ad.hip.as_str())?;
        let calls = ad.c_call.as_deref()?;
        let same = ad.hip == e.hip
            && calls.len() == f.params.len()
            && calls.iter().enumerate().all(|(k, j)| *j == k as i64);
        if same {
            return None;
        }
        let status = st.hip_member.get(
            self.newest_api?
                .not_supported
                .get(&ad.status_type)?
                .as_str(),
        )?;
        c_level(f, &e.cuda, calls, status, self.ix)
    }

    /// A CUDA enum: a typedef of HIP's, and CUDA's members HIPIFY maps to a member of HIP's
    /// enum, by CUDA's name.
    fn enum_alias(&self, st: &mut ModuleLevel<'_>, e: &crate::ir::Alias) {
        let decl = self.cuda_enums[e.cuda.as_str()];
        st.c.push(format!("typedef {} {};", e.hip, e.cuda));
        let mut body = Vec::new();
        for (member, _) in &decl.members {
            if let Some(hip) = st.hip_member.get(member.as_str()) {
                if *hip != member && st.seen.insert(member.clone()) {
                    st.c.push(format!("#define {member} {hip}"));
                    body.push(format!("        {member}"));
                }
            }
        }
        if body.is_empty() {
            body.push("        pass".into());
        }
        st.cy
            .push(format!("ctypedef enum {}:\n{}", e.cuda, body.join("\n")));
    }

    /// A CUDA constant: a macro naming HIP's, of its enum's type.
    fn constant_alias(&self, st: &mut ModuleLevel<'_>, e: &crate::ir::Alias) {
        let ty = self
            .member_type
            .get(e.hip.as_str())
            .copied()
            .unwrap_or("long long");
        st.push(
            format!("#define {} {}", e.cuda, e.hip),
            format!("const {ty} {}", e.cuda),
        );
    }

    /// A CUDA type: a typedef of HIP's.
    fn type_alias(&self, st: &mut ModuleLevel<'_>, e: &crate::ir::Alias) {
        // A handle's class is a struct tag in C (`struct hipArray`).
        let tag = if self.ix.tags.contains(e.hip.as_str()) {
            "struct "
        } else {
            ""
        };
        st.push(
            format!("typedef {tag}{} {};", e.hip, e.cuda),
            format!("ctypedef {} {}", e.hip, e.cuda),
        );
        // CUDA's record a typedef of this module names (`cudaUUID_t` is `struct CUuuid_st`,
        // `CUuuid`): declared here under its name too, as CUDA's header of this module does.
        if let Some(primary) = self.record_of.get(e.cuda.as_str()) {
            if st.seen.insert(primary.to_string()) {
                st.push(
                    format!("typedef {tag}{} {primary};", e.hip),
                    format!("ctypedef {} {primary}", e.hip),
                );
            }
        }
    }

    /// The `.pxd` text of Python module `m`, CUDA's integer typedefs HIP lacks added.
    fn text(&self, m: &crate::ir::PythonModule, st: &mut ModuleLevel<'_>, command: &str) -> String {
        let kind = st.kind;
        let cimports: Vec<String> = m
            .hip_modules
            .iter()
            .map(|h| pxd_module(&format!("hip.{h}")))
            .collect();
        let mut text = format!(
            "# Generated by hipgen: the C level of {} over HIP (ROCm {}), for Cython.\n# Regenerate with: {command}\n#\n# Each CUDA name stands for the HIP object HIPIFY maps it to, declared in the hip package's\n# .pxd files (docs/cython.md).\n",
            m.module, self.set.release
        );
        for ci in &cimports {
            text += &format!("from {ci} cimport *\n");
        }
        // CUDA's integer typedefs (`CUdevice`) HIP has none of by name: CUDA's width.
        for w in self.newest_api.iter().flat_map(|a| &a.wrappers) {
            if cuda_kind(&w.name) == kind && st.seen.insert(w.name.clone()) {
                let t = format!(
                    "{}int{}_t",
                    if w.signed { "" } else { "u" },
                    w.size as u32 * 8
                );
                st.push(
                    format!("typedef {t} {};", w.name),
                    format!("ctypedef {t} {}", w.name),
                );
            }
        }
        let guard = format!("HIPGEN_PXD_CUDA_{}", kind.to_ascii_uppercase());
        text += &format!(
            "\ncdef extern from *:\n    \"\"\"\n    #ifndef {guard}\n    #define {guard}\n"
        );
        // CUDA's headers this module stands for: included later, they add nothing.
        for g in self
            .newest_api
            .and_then(|a| a.include_guards.get(kind))
            .into_iter()
            .flatten()
        {
            text += &format!("    #define {g}\n");
        }
        for l in st.c.iter().chain(&st.trampolines) {
            for line in l.lines() {
                text += &format!("    {line}\n");
            }
        }
        text += "    #endif\n    \"\"\"\n";
        if st.cy.is_empty() {
            text += "    pass\n";
        }
        for l in &st.cy {
            text += &format!("    {l}\n");
        }
        text
    }
}

/// A CUDA function whose C signature is not HIP function `f`'s (`Adapter::c_call`): a C
/// trampoline taking CUDA's parameters, which answers `status` (HIP's "not supported") where
/// a parameter HIP lacks is not null and else calls `f`, and its Cython declaration.
fn c_level(
    f: &Function,
    name: &str,
    calls: &[i64],
    status: &str,
    ix: &Index<'_>,
) -> Option<(String, String)> {
    let ps = params(f, ix)?;
    let ret_c = c_type(&f.ret, ix)?;
    let ret_cy = cy_type(&f.ret, ix)?;
    let mut c_params = Vec::new();
    let mut cy_params = Vec::new();
    let mut checks = Vec::new();
    let mut args = vec![String::new(); f.params.len()];
    for (k, j) in calls.iter().enumerate() {
        let a = format!("a{k}");
        match *j {
            crate::ir::Adapter::NULL_POINTER => {
                c_params.push(format!("const void *{a}"));
                cy_params.push(format!("const void *{a}"));
                checks.push(format!("if ({a}) return {status};"));
            }
            crate::ir::Adapter::ZERO => {
                c_params.push(format!("long long {a}"));
                cy_params.push(format!("long long {a}"));
                checks.push(format!("if ({a}) return {status};"));
            }
            j => {
                let (c, _, cy) = ps.get(j as usize)?;
                c_params.push(named(c, &a));
                cy_params.push(cy.clone());
                args[j as usize] = a;
            }
        }
    }
    let body = format!(
        "{} return {}({});",
        checks.join(" "),
        f.name,
        args.join(", ")
    );
    let tramp = format!(
        "static inline {ret_c} hipgen_{name}({}) {{{}}}\n#define {name} hipgen_{name}",
        c_params.join(", "),
        body
    );
    let decl = format!("{ret_cy} {name}({}) nogil", cy_params.join(", ")).replace("* ", "*");
    Some((tramp, decl))
}

/// Declaration `d` with each HIP enum type named by its CUDA enum of the module (`enum_for`).
fn cuda_types(d: &str, enum_for: &HashMap<String, String>) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for ch in d.chars().chain(std::iter::once('\0')) {
        if ch.is_ascii_alphanumeric() || ch == '_' {
            word.push(ch);
            continue;
        }
        out += enum_for.get(&word).map_or(word.as_str(), String::as_str);
        word.clear();
        if ch != '\0' {
            out.push(ch);
        }
    }
    out
}

/// cuda-python's `.pxd` module of module `m` (`cuda.bindings.runtime` → `cuda.bindings.cyruntime`).
fn pxd_cy(m: &str) -> String {
    match m.rsplit_once('.') {
        Some((pkg, last)) => format!("{pkg}.cy{last}"),
        None => format!("cy{m}"),
    }
}

/// The record a type holds by value (whose definition must come first).
fn by_value(ty: &CType) -> Option<&str> {
    match ty {
        CType::Record { name } => Some(name),
        CType::Array { elem, .. } => by_value(elem),
        _ => None,
    }
}

/// Cython's keywords and the names its declarations reserve: no parameter may take one.
const CYTHON_KEYWORDS: &[&str] = &[
    "from",
    "in",
    "is",
    "lambda",
    "def",
    "class",
    "pass",
    "print",
    "type",
    "object",
    "include",
    "cdef",
    "ctypedef",
    "struct",
    "union",
    "enum",
    "public",
    "api",
    "by",
    "global",
    "with",
    "yield",
    "import",
    "as",
    "not",
    "and",
    "or",
    "del",
    "if",
    "else",
    "elif",
    "while",
    "for",
    "try",
    "except",
    "finally",
    "raise",
    "return",
    "assert",
    "exec",
    "nonlocal",
    "async",
    "await",
    "gil",
    "nogil",
    "const",
    "char",
    "int",
    "float",
    "double",
    "long",
    "short",
    "signed",
    "unsigned",
    "void",
    "readonly",
    "inline",
    "new",
    "property",
    "None",
    "True",
    "False",
    "operator",
    "cpdef",
    "sizeof",
    "NULL",
    "extern",
    "namespace",
    "fused",
    "bint",
];

/// A parameter name Cython takes (keywords and empty names become `a<i>`).
fn sanitize(name: &str, i: usize) -> String {
    if name.is_empty()
        || CYTHON_KEYWORDS.contains(&name)
        || name.starts_with("arg") && name[3..].parse::<u32>().is_ok()
    {
        format!("a{i}")
    } else {
        name.to_string()
    }
}
