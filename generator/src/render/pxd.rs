//! The Cython `.pxd` of a library's C level (`hip.chip` for `hip.hip`), from its IR.
//!
//! Everything Cython needs comes from the IR, so compiling an extension needs no ROCm or CUDA
//! headers: one `cdef extern from *` block whose verbatim C defines each type as the C
//! compiler laid it out (explicit padding where the IR's offsets say so, bitfields, unions,
//! alignment), and each function as a `static inline` trampoline that resolves its symbol on
//! first call through the package's loader (a capsule the extension exports, see
//! `hipgen_runtime::capi`), returning the library's error status where the symbol is
//! missing. The Cython declarations below the C name what a `.pyx` may use.

use super::templates;
use crate::ir::{CType, ConstValue, Function, Library, Record};
use crate::spec::Spec;
use anyhow::Result;
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// The packages with a C level: their extension exports the loader (`_c_lookup`) and their
/// `__init__` hands it out. rocm-llvm-python's follows.
pub const PACKAGES: &[&str] = &["hip-python"];

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
}

impl<'a> Index<'a> {
    fn new(libs: &[&'a Library]) -> Self {
        let mut records = HashMap::new();
        let mut callbacks = BTreeSet::new();
        let mut names = BTreeSet::new();
        for l in libs {
            for r in &l.records {
                records.insert(r.name.as_str(), r);
                names.insert(r.name.as_str());
                names.extend(r.aliases.iter().map(String::as_str));
            }
            for h in &l.handles {
                if h.callback {
                    callbacks.insert(h.name.as_str());
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
        Index {
            records,
            callbacks,
            names,
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
fn c_type(ty: &CType, ix: &Index) -> Option<String> {
    Some(match ty {
        CType::Void => "void".into(),
        CType::Bool => "bool".into(),
        CType::Int {
            is_char: true,
            signed,
            ..
        } => if *signed { "char" } else { "unsigned char" }.into(),
        CType::Int { size, signed, .. } => {
            format!("{}int{}_t", if *signed { "" } else { "u" }, *size as u32 * 8)
        }
        CType::Float { size: 4 } => "float".into(),
        CType::Float { size: 8 } => "double".into(),
        CType::Float { .. } | CType::Unsupported { .. } => return None,
        CType::Enum { name, .. } | CType::Record { name } => name.clone(),
        CType::Handle { name } if ix.callbacks.contains(name.as_str()) => name.clone(),
        CType::Handle { name } => format!("struct {name} *"),
        CType::Pointer { pointee, is_const } => {
            let inner = c_type(pointee, ix)?;
            if *is_const {
                format!("const {inner} *")
            } else {
                format!("{inner} *")
            }
        }
        CType::Array { elem, .. } => format!("{} *", c_type(elem, ix)?),
    })
}

/// C's own spelling of a type (`int *`, `size_t`, `hipStream_t`), where every name in it is
/// C's or declared here: Cython tells `int *` from `int32_t *`, so a `.pyx` passing `&n` of
/// an `int` needs C's words. `None` for what this cannot take (function pointers, arrays).
fn spelled(spelling: &str, ix: &Index) -> Option<String> {
    const WORDS: &[&str] = &[
        "const", "struct", "union", "enum", "unsigned", "signed", "int", "char", "short", "long",
        "float", "double", "void", "bool", "_Bool", "size_t", "ssize_t", "intptr_t", "uintptr_t",
        "ptrdiff_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
        "uint32_t", "uint64_t",
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
fn cy_type(ty: &CType, ix: &Index) -> Option<String> {
    Some(match ty {
        CType::Bool => "hipgen_bool".into(),
        CType::Handle { name } if !ix.callbacks.contains(name.as_str()) => format!("{name} *"),
        CType::Pointer { pointee, is_const } => {
            let inner = cy_type(pointee, ix)?;
            if *is_const {
                format!("const {inner} *")
            } else {
                format!("{inner} *")
            }
        }
        CType::Array { elem, .. } => format!("{} *", cy_type(elem, ix)?),
        _ => c_type(ty, ix)?,
    })
}

/// `T name` (arrays as `T name[N]`), by `spell`.
fn declare(
    ty: &CType,
    name: &str,
    ix: &Index,
    spell: fn(&CType, &Index) -> Option<String>,
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
/// cannot be written (the record is then opaque bytes of its size).
fn c_body(r: &Record, ix: &Index, depth: usize) -> Option<(String, Vec<String>)> {
    let pad = "  ".repeat(depth + 1);
    let mut out = String::new();
    let mut names = Vec::new();
    let mut pos_bits = 0u64;
    for (i, f) in r.fields.iter().enumerate() {
        if !r.is_union {
            if f.bit_width.is_none() {
                let (_, align) = ix.layout(&f.ty)?;
                let at = f.offset_bits / 8;
                let natural = pos_bits.div_ceil(8).next_multiple_of(align.max(1));
                if at != natural {
                    let from = pos_bits.div_ceil(8);
                    if at < from {
                        return None;
                    }
                    out += &format!("{pad}unsigned char _hipgen_pad{i}[{}];\n", at - from);
                }
            }
        }
        let anonymous = match &f.ty {
            CType::Record { name } => ix.records.get(name.as_str()).filter(|n| n.anonymous),
            _ => None,
        };
        match anonymous {
            Some(inner) if unnamed_member(&f.name) => {
                let (body, inner_names) = c_body(inner, ix, depth + 1)?;
                let kw = if inner.is_union { "union" } else { "struct" };
                out += &format!("{pad}{kw} {body};\n");
                names.extend(inner_names);
            }
            _ => {
                let (decl, cy) = match spelled(&f.spelling, ix) {
                    Some(c) => (named(&c, &f.name), named(&cy_spelled(&c), &f.name)),
                    None => (
                        declare(&f.ty, &f.name, ix, c_type)?,
                        declare(&f.ty, &f.name, ix, cy_type)?,
                    ),
                };
                match f.bit_width {
                    Some(w) => out += &format!("{pad}{decl} : {w};\n"),
                    None => out += &format!("{pad}{decl};\n"),
                }
                names.push(cy);
            }
        }
        let size_bits = match f.bit_width {
            Some(w) => w as u64,
            None => ix.layout(&f.ty)?.0 * 8,
        };
        pos_bits = pos_bits.max(f.offset_bits + size_bits);
    }
    if !r.is_union && r.size * 8 > pos_bits.next_multiple_of(r.align.max(1) * 8) {
        let from = pos_bits.div_ceil(8);
        out += &format!("{pad}unsigned char _hipgen_tail[{}];\n", r.size - from);
    }
    Some((format!("{{\n{out}{}}}", "  ".repeat(depth)), names))
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
fn missing_value(f: &Function, lib: &Library, status: Option<&str>, ix: &Index) -> String {
    match &f.ret {
        CType::Enum { name, .. } if Some(name.as_str()) == status => {
            let members = lib
                .enums
                .iter()
                .find(|e| &e.name == name)
                .map(|e| e.members.as_slice())
                .unwrap_or_default();
            let pick = ["initializationerror", "not_initialized", "notinitialized", "not_supported"]
                .iter()
                .find_map(|k| {
                    members
                        .iter()
                        .find(|(m, _)| m.to_ascii_lowercase().contains(k))
                });
            match pick {
                Some((m, _)) => m.clone(),
                None => format!("({name})-1"),
            }
        }
        CType::Void => String::new(),
        CType::Pointer { .. } | CType::Handle { .. } => "NULL".into(),
        CType::Record { .. } => format!("({}){{0}}", c_type(&f.ret, ix).unwrap_or_default()),
        other => format!("({})0", c_type(other, ix).unwrap_or_default()),
    }
}

/// Renders the `.pxd` of `lib` (which imports `imports`), or `None` where the spec's package
/// has no C level (none yet: every library has one).
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

    let mut c = Vec::new();
    let mut cy = Vec::new();
    // Enums.
    let mut seen_members = BTreeSet::new();
    for e in &lib.enums {
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
            c.push(format!(
                "typedef enum {} {{\n{}\n}} {};",
                e.name,
                body.join(",\n"),
                e.name
            ));
            let mut d = format!("ctypedef enum {}:", e.name);
            if members.is_empty() {
                d += "\n    pass";
            }
            for (m, _) in &members {
                d += &format!("\n    {m}");
            }
            cy.push(d);
        } else {
            let t = format!("{}int{}_t", if e.signed { "" } else { "u" }, e.size as u32 * 8);
            c.push(format!("typedef {t} {};", e.name));
            if !body.is_empty() {
                c.push(format!("enum {{\n{}\n}};", body.join(",\n")));
            }
            cy.push(format!("ctypedef {t} {}", e.name));
            if !members.is_empty() {
                let mut d = "enum:".to_string();
                for (m, _) in &members {
                    d += &format!("\n    {m}");
                }
                cy.push(d);
            }
        }
        for a in &e.aliases {
            c.push(format!("typedef {} {a};", e.name));
            cy.push(format!("ctypedef {} {a}", e.name));
        }
    }
    // Handles and `void *` typedefs.
    for h in &lib.handles {
        if h.callback {
            c.push(format!("typedef void *{};", h.name));
            cy.push(format!("ctypedef void *{}", h.name));
        } else {
            c.push(format!("struct {};", h.name));
            cy.push(format!("cdef struct {}", h.name));
        }
        for a in &h.aliases {
            if h.callback {
                c.push(format!("typedef {} {a};", h.name));
                cy.push(format!("ctypedef {} {a}", h.name));
            } else {
                c.push(format!("typedef struct {} *{a};", h.name));
                cy.push(format!("ctypedef {} *{a}", h.name));
            }
        }
    }
    for a in &lib.pointer_aliases {
        c.push(format!("typedef void *{a};"));
        cy.push(format!("ctypedef void *{a}"));
    }
    // Records: forward typedefs, then definitions with what they hold by value first.
    for r in &lib.records {
        let kw = if r.is_union { "union" } else { "struct" };
        c.push(format!("typedef {kw} {0} {0};", r.name));
        // Declared before any record names it by pointer.
        cy.push(format!("ctypedef {kw} {}", r.name));
        for a in r.aliases.iter().filter(|a| **a != r.name) {
            c.push(format!("typedef {} {a};", r.name));
            cy.push(format!("ctypedef {} {a}", r.name));
        }
    }
    let mut done: BTreeSet<&str> = imports
        .iter()
        .flat_map(|l| l.records.iter().map(|r| r.name.as_str()))
        .collect();
    let mut pending: Vec<&Record> = lib.records.iter().collect();
    let mut defs = Vec::new();
    while !pending.is_empty() {
        let before = pending.len();
        pending.retain(|r| {
            let ready = r.fields.iter().all(|f| by_value(&f.ty).is_none_or(|n| done.contains(n) || n == r.name));
            if ready {
                defs.push(*r);
                done.insert(r.name.as_str());
            }
            !ready
        });
        if pending.len() == before {
            // A cycle by value cannot be (C would not compile it): write the rest as bytes.
            defs.extend(pending.drain(..));
        }
    }
    for r in defs {
        let kw = if r.is_union { "union" } else { "struct" };
        let (body, names) = c_body(r, &ix, 0).unwrap_or_else(|| {
            (
                format!("{{\n  unsigned char _hipgen_bytes[{}];\n}}", r.size.max(1)),
                Vec::new(),
            )
        });
        c.push(format!(
            "{kw} __attribute__((aligned({}))) {} {body};",
            r.align.max(1),
            r.name
        ));
        let mut d = format!("ctypedef {kw} {}:", r.name);
        if names.is_empty() {
            d += "\n    pass";
        }
        for n in names {
            d += &format!("\n    {n}");
        }
        cy.push(d);
    }
    // Integer constants (those not already enum members).
    for k in &lib.constants {
        if let ConstValue::Int(v) = k.value {
            if seen_members.insert(k.name.clone()) {
                c.push(format!("#define {} ({})", k.name, c_int(v, true, 8)));
                cy.push(format!("const long long {}", k.name));
            }
        }
    }

    // Functions: a trampoline each.
    let status = spec.status.as_ref().map(|s| s.enum_name.as_str());
    let mut functions = Vec::new();
    for f in &lib.functions {
        let Some(ret) = c_type(&f.ret, &ix) else {
            continue;
        };
        let Some(cy_ret) = cy_type(&f.ret, &ix) else {
            continue;
        };
        let params: Option<Vec<(String, String, String)>> = f
            .params
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
                if let Some(c) = spelled(&p.spelling, &ix) {
                    return Some((c.clone(), named(&c, &format!("a{i}")), named(&cy_spelled(&c), &name)));
                }
                Some((
                    c_type(&ty, &ix)?,
                    declare(&ty, &format!("a{i}"), &ix, c_type)?,
                    declare(&ty, &name, &ix, cy_type)?,
                ))
            })
            .collect();
        let Some(params) = params else {
            continue;
        };
        let types: Vec<&str> = params.iter().map(|p| p.0.as_str()).collect();
        let decls: Vec<&str> = params.iter().map(|p| p.1.as_str()).collect();
        let args: Vec<String> = (0..params.len()).map(|i| format!("a{i}")).collect();
        let fail = missing_value(f, lib, status, &ix);
        let returns = if matches!(f.ret, CType::Void) { "" } else { "return " };
        functions.push(format!(
            "static inline {ret} {name}({decls}) {{\n  typedef {ret} (*hipgen_fn)({types});\n  static hipgen_fn f;\n  hipgen_fn g = __atomic_load_n(&f, __ATOMIC_ACQUIRE);\n  if (!g) {{\n    g = (hipgen_fn)hipgen_symbol_{library}(\"{symbol}\");\n    if (!g) return {fail};\n    __atomic_store_n(&f, g, __ATOMIC_RELEASE);\n  }}\n  {returns}g({args});\n}}",
            name = f.name,
            decls = if decls.is_empty() { "void".into() } else { decls.join(", ") },
            types = if types.is_empty() { "void".into() } else { types.join(", ") },
            library = lib.name,
            symbol = f.symbol,
            args = args.join(", "),
        ));
        let cy_params: Vec<&str> = params.iter().map(|p| p.2.as_str()).collect();
        cy.push(format!("{cy_ret} {}({}) nogil", f.name, cy_params.join(", ")).replace("* ", "*"));
    }

    let model = PxdModel {
        command: command.to_string(),
        release: lib.release.clone(),
        library: lib.name.clone(),
        python_module: python_module.clone(),
        package,
        guard: format!("HIPGEN_PXD_{}", lib.name.to_ascii_uppercase()),
        cimports,
        c_decls: c,
        c_functions: functions,
        cy_decls: cy,
    };
    let env = templates::environment(templates_dir);
    Ok(env
        .get_template("pxd.j2")?
        .render(minijinja::context! { m => &model })?)
}

/// The record a type holds by value (whose definition must come first).
fn by_value(ty: &CType) -> Option<&str> {
    match ty {
        CType::Record { name } => Some(name),
        CType::Array { elem, .. } => by_value(elem),
        _ => None,
    }
}

/// A parameter name Cython takes (keywords and empty names become `a<i>`).
fn sanitize(name: &str, i: usize) -> String {
    const KEYWORDS: &[&str] = &[
        "from", "in", "is", "lambda", "def", "class", "pass", "print", "type", "object", "include",
        "cdef", "ctypedef", "struct", "union", "enum", "public", "api", "by", "global", "with",
        "yield", "import", "as", "not", "and", "or", "del", "if", "else", "elif", "while", "for",
        "try", "except", "finally", "raise", "return", "assert", "exec", "nonlocal", "async",
        "await", "gil", "nogil", "const", "char", "int", "float", "double", "long", "short",
        "signed", "unsigned", "void", "readonly", "inline", "new", "property", "None", "True",
        "False", "operator", "cpdef", "sizeof", "NULL", "extern", "namespace", "fused", "bint",
    ];
    if name.is_empty() || KEYWORDS.contains(&name) || name.starts_with("arg") && name[3..].parse::<u32>().is_ok() {
        format!("a{i}")
    } else {
        name.to_string()
    }
}
