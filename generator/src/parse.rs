//! Walks a parsed header and builds the IR of one library.

use crate::clang::{Cursor, CursorKind, TranslationUnit, Type, TypeKind};
use crate::ir::{
    self, CType, ConstValue, Constant, Doc, Enum, Field, Function, Handle, Library, Param, Record,
    Skipped,
};
use crate::macros;
use crate::spec::{compile_all, CompiledFilter, Filter, Spec};
use anyhow::{Context, Result};
use regex::Regex;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// What one parse reads: the headers and how to compile them, and the parts of the unit
/// that each become a library's IR (by the files that declare them).
pub struct HeaderSet<'a> {
    /// Name for messages and temporary files.
    pub name: &'a str,
    /// Headers included, in order.
    pub headers: &'a [String],
    /// Source put before the includes.
    pub prelude: &'a str,
    /// `c` or `c++`.
    pub language: &'a str,
    /// Macros defined on the command line.
    pub defines: &'a [String],
    /// Include folders; `Part::bind_files` match paths relative to any of them.
    pub include_dirs: Vec<PathBuf>,
    /// Whether function bodies are parsed (to see what each function calls).
    pub bodies: bool,
    /// Whether the functions read are the `static` ones the headers define (HIP's NVIDIA
    /// headers implement the API as `static inline` functions) instead of the exported ones.
    pub inline_functions: bool,
    /// Whether `#define A B` makes `A` a name of the struct, enum or enum member `B` (HIP's
    /// renames of hiprtc's names) as well as of the function `B`. cuda-python names types
    /// and members by their declarations alone.
    pub type_renames: bool,
    /// Name filters.
    pub filters: Filters<'a>,
}

/// The name filters of a header set.
#[derive(Clone, Copy)]
pub struct Filters<'a> {
    pub functions: &'a Filter,
    pub enums: &'a Filter,
    pub records: &'a Filter,
    pub constants: &'a Filter,
}

impl Filters<'static> {
    /// Filters that take everything.
    pub fn all() -> Self {
        static ALL: std::sync::OnceLock<Filter> = std::sync::OnceLock::new();
        let all = ALL.get_or_init(Filter::default);
        Filters {
            functions: all,
            enums: all,
            records: all,
            constants: all,
        }
    }
}

/// One library's IR out of a parse: its name and the files whose declarations it holds.
pub struct Part<'a> {
    /// Library name in the IR.
    pub name: &'a str,
    /// Regexes on header paths relative to an include folder (matching the whole path).
    pub bind_files: &'a [String],
}

/// Parses the spec's headers under `include_dir` and returns the library's IR.
pub fn parse_library(spec: &Spec, include_dir: &Path, release: &str) -> Result<Library> {
    let include_dir = headers_dir(spec, include_dir)?;
    let set = HeaderSet {
        name: &spec.name,
        headers: &spec.headers,
        prelude: &spec.prelude,
        language: &spec.language,
        defines: &spec.defines,
        include_dirs: vec![include_dir],
        bodies: false,
        inline_functions: false,
        type_renames: true,
        filters: Filters {
            functions: &spec.functions,
            enums: &spec.enums,
            records: &spec.records,
            constants: &spec.constants,
        },
    };
    let part = Part {
        name: &spec.name,
        bind_files: &spec.bind_files,
    };
    let mut libs = parse_headers(&set, &[part], release)?;
    Ok(libs.remove(0))
}

/// Parses a header set once and returns the IR of each part, in order.
pub fn parse_headers(
    set: &HeaderSet<'_>,
    parts: &[Part<'_>],
    release: &str,
) -> Result<Vec<Library>> {
    let source = wrapper_source(set)?;
    let args = compiler_args(set);
    let tu = if set.bodies {
        TranslationUnit::parse_with_bodies(&source, &args)
    } else {
        TranslationUnit::parse(&source, &args)
    };
    // The unit holds what it read: the wrapper file is not needed past the parse.
    let _ = std::fs::remove_file(&source);
    let tu = tu.with_context(|| {
        format!(
            "parsing headers of {} in {}",
            set.name,
            set.include_dirs
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?;
    // Each folder canonical and as given: clang spells a header's path through the folder as
    // given, which matters where the header is reached through a symlink (Debian's LLVM).
    let mut roots = set
        .include_dirs
        .iter()
        .map(|d| {
            d.canonicalize()
                .with_context(|| format!("include directory {}", d.display()))
        })
        .collect::<Result<Vec<_>>>()?;
    roots.extend(set.include_dirs.iter().cloned());
    parts
        .iter()
        .map(|part| {
            let mut walker = Walker::new(set, part, roots.clone(), release)?;
            walker.collect(tu.cursor());
            walker.finish()
        })
        .collect()
}

/// The lines of `file` that do not compile, with clang's message: how the NVIDIA shims check
/// the wrappers they generate (a compile, not a walk, so it is the only other use of clang).
pub fn error_lines(file: &Path, args: &[String]) -> Result<Vec<(u32, String)>> {
    TranslationUnit::error_lines(file, args)
}

/// The folder holding the spec's headers: the first of its `include_dirs` that exists
/// (relative ones taken from `include_dir`), else `include_dir`.
fn headers_dir(spec: &Spec, include_dir: &Path) -> Result<PathBuf> {
    if spec.include_dirs.is_empty() {
        return Ok(include_dir.to_path_buf());
    }
    spec.include_dirs
        .iter()
        .map(|d| include_dir.join(d))
        .find(|d| d.is_dir())
        .with_context(|| {
            format!(
                "{}: none of the include_dirs {:?} exists (relative to {})",
                spec.name,
                spec.include_dirs,
                include_dir.display()
            )
        })
}

/// Writes a source file that includes every header of the set.
fn wrapper_source(set: &HeaderSet<'_>) -> Result<PathBuf> {
    let ext = if set.language == "c++" { "cpp" } else { "c" };
    let path = crate::clang::temp_source_path(set.name, ext);
    let mut body = set.prelude.to_string();
    body.extend(set.headers.iter().map(|h| format!("\n#include <{h}>")));
    body.push('\n');
    std::fs::write(&path, body)?;
    Ok(path)
}

/// Compiler arguments for libclang.
fn compiler_args(set: &HeaderSet<'_>) -> Vec<String> {
    let mut args = vec!["-x".to_string(), set.language.to_string()];
    args.extend(
        set.include_dirs
            .iter()
            .map(|d| format!("-I{}", d.display())),
    );
    if set.language == "c++" {
        args.push("-std=c++17".into());
    }
    args.extend(set.defines.iter().map(|d| format!("-D{d}")));
    args
}

/// State of one walk over a translation unit.
struct Walker {
    /// The library's name in the IR.
    name: String,
    /// The headers parsed.
    headers: Vec<String>,
    /// Whether the `static` functions defined are read instead of the exported ones.
    inline_functions: bool,
    /// Whether macro renames name types and enum members too.
    type_renames: bool,
    /// Whether function bodies were parsed (what each calls, and the return type's
    /// spelling, are read then).
    bodies: bool,
    /// Canonical include directories, to make header paths relative.
    roots: Vec<PathBuf>,
    /// Release name recorded in the IR.
    release: String,
    /// Header files whose declarations are bound.
    bind_files: Vec<Regex>,
    /// Function filter.
    function_filter: CompiledFilter,
    /// Enum filter.
    enum_filter: CompiledFilter,
    /// Record filter.
    record_filter: CompiledFilter,
    /// Constant filter.
    constant_filter: CompiledFilter,
    /// Cache of whether a file is bound.
    file_bound: HashMap<String, bool>,
    /// Names given to records and enums, keyed by canonical type spelling.
    type_names: HashMap<String, String>,
    /// Typedef names that alias each record/enum API name.
    aliases: BTreeMap<String, Vec<String>>,
    /// Typedefs of pointers, by typedef name: the Python class that represents them.
    handle_of_typedef: HashMap<String, String>,
    /// Handle classes in order of appearance.
    handles: Vec<Handle>,
    /// Typedefs of `void *`.
    pointer_aliases: Vec<String>,
    /// Enums collected.
    enums: Vec<Enum>,
    /// Records collected.
    records: Vec<Record>,
    /// Records already collected, by API name.
    record_seen: HashSet<String>,
    /// Functions collected (raw cursors kept until names are final).
    functions: Vec<Function>,
    /// Function names already collected.
    function_seen: HashSet<String>,
    /// Object-like macros: name and body tokens.
    macros: Vec<(String, Vec<String>)>,
    /// Constants from anonymous enums.
    constants: Vec<Constant>,
    /// What was left out.
    skipped: Vec<Skipped>,
}

impl Walker {
    /// Prepares a walk for a spec.
    fn new(
        set: &HeaderSet<'_>,
        part: &Part<'_>,
        roots: Vec<PathBuf>,
        release: &str,
    ) -> Result<Self> {
        Ok(Walker {
            name: part.name.to_string(),
            headers: set.headers.to_vec(),
            inline_functions: set.inline_functions,
            type_renames: set.type_renames,
            bodies: set.bodies,
            roots,
            release: release.to_string(),
            bind_files: compile_all(part.bind_files)?,
            function_filter: CompiledFilter::new(set.filters.functions)?,
            enum_filter: CompiledFilter::new(set.filters.enums)?,
            record_filter: CompiledFilter::new(set.filters.records)?,
            constant_filter: CompiledFilter::new(set.filters.constants)?,
            file_bound: HashMap::new(),
            type_names: HashMap::new(),
            aliases: BTreeMap::new(),
            handle_of_typedef: HashMap::new(),
            handles: Vec::new(),
            pointer_aliases: Vec::new(),
            enums: Vec::new(),
            records: Vec::new(),
            record_seen: HashSet::new(),
            functions: Vec::new(),
            function_seen: HashSet::new(),
            macros: Vec::new(),
            constants: Vec::new(),
            skipped: Vec::new(),
        })
    }

    /// Whether a cursor is declared in a bound header.
    fn is_bound(&mut self, c: &Cursor<'_>) -> bool {
        let Some(file) = c.file() else { return false };
        if let Some(b) = self.file_bound.get(&file) {
            return *b;
        }
        // Compare canonical paths, but also the path as clang spells it: Debian's LLVM
        // include folder holds symlinks to folders elsewhere.
        let canonical = Path::new(&file).canonicalize().ok();
        let spellings = canonical
            .iter()
            .map(PathBuf::as_path)
            .chain([Path::new(&file)]);
        let relative: Vec<String> = spellings
            .flat_map(|p| {
                self.roots
                    .iter()
                    .filter_map(move |r| p.strip_prefix(r).ok())
            })
            .map(|r| r.to_string_lossy().into_owned())
            .collect();
        let bound = relative
            .iter()
            .any(|rel| self.bind_files.iter().any(|r| r.is_match(rel)));
        self.file_bound.insert(file, bound);
        bound
    }

    /// First pass: names of records, enums and typedefs; second pass: everything else.
    fn collect(&mut self, root: Cursor<'_>) {
        let decls = flatten(root);
        // Types of every header are named (hipblas refers to hip's hipStream_t), but only
        // bound headers contribute handles of their own.
        for c in &decls {
            let bound = self.is_bound(c);
            self.name_types(c, bound);
        }
        for c in &decls {
            if !self.is_bound(c) {
                continue;
            }
            match c.kind() {
                CursorKind::Enum => self.enum_decl(c),
                CursorKind::Struct | CursorKind::Union if c.is_definition() => {
                    let name = self.record_name(c);
                    self.record_decl(c, &name, false);
                }
                CursorKind::Function => self.function_decl(c),
                CursorKind::MacroDefinition if !c.is_function_like_macro() => {
                    let toks = c.tokens();
                    if let Some((name, body)) = toks.split_first() {
                        self.macros.push((name.clone(), body.to_vec()));
                    }
                }
                _ => {}
            }
        }
    }

    /// Records API names of records and enums, typedef aliases and handle typedefs.
    fn name_types(&mut self, c: &Cursor<'_>, bound: bool) {
        match c.kind() {
            CursorKind::Struct | CursorKind::Union | CursorKind::Enum => {
                let name = c.spelling();
                if !name.is_empty() && !c.is_anonymous() {
                    let key = c.ty().canonical().spelling();
                    self.type_names.entry(key).or_insert(name);
                }
            }
            CursorKind::Typedef => {
                let name = c.spelling();
                let under = c.typedef_underlying();
                let canon = under.canonical();
                match canon.kind() {
                    TypeKind::Record | TypeKind::Enum => {
                        let key = canon.spelling();
                        match self.type_names.get(&key) {
                            Some(api) if api != &name => {
                                self.aliases.entry(api.clone()).or_default().push(name)
                            }
                            Some(_) => {}
                            None => {
                                self.type_names.insert(key, name);
                            }
                        }
                    }
                    TypeKind::Pointer => self.pointer_typedef(&name, canon, bound),
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// A typedef of a pointer: a handle class, or an alias of `Pointer` for `void *`.
    fn pointer_typedef(&mut self, name: &str, canon: Type<'_>, bound: bool) {
        let pointee = canon.pointee().canonical();
        match pointee.kind() {
            TypeKind::Record => {
                let decl = pointee.declaration();
                let class = if decl.is_anonymous() || decl.spelling().is_empty() {
                    name.to_string()
                } else {
                    decl.spelling()
                };
                self.add_handle(&class, name, bound);
            }
            TypeKind::FunctionProto => {
                self.add_handle(name, name, bound);
                if let Some(h) = self.handles.iter_mut().find(|h| h.name == name) {
                    h.callback = true;
                }
            }
            TypeKind::Void if bound => self.pointer_aliases.push(name.to_string()),
            _ => {}
        }
    }

    /// Registers `alias` as a name of the handle class `class`, a class of this library's
    /// own when `bound`.
    fn add_handle(&mut self, class: &str, alias: &str, bound: bool) {
        self.handle_of_typedef
            .insert(alias.to_string(), class.to_string());
        if !bound {
            return;
        }
        match self.handles.iter_mut().find(|h| h.name == class) {
            Some(h) => {
                if alias != class && !h.aliases.iter().any(|a| a == alias) {
                    h.aliases.push(alias.to_string());
                }
            }
            None => self.handles.push(Handle {
                callback: false,
                name: class.to_string(),
                aliases: if alias == class {
                    vec![]
                } else {
                    vec![alias.to_string()]
                },
            }),
        }
    }

    /// The API name of a record or enum declaration.
    fn record_name(&self, c: &Cursor<'_>) -> String {
        let key = c.ty().canonical().spelling();
        self.type_names
            .get(&key)
            .cloned()
            .unwrap_or_else(|| c.spelling())
    }

    /// Collects an enum, or its members as constants when it has no name.
    fn enum_decl(&mut self, c: &Cursor<'_>) {
        if !c.is_definition() {
            return;
        }
        let key = c.ty().canonical().spelling();
        let members: Vec<(String, i64)> = c
            .children()
            .iter()
            .filter(|m| m.kind() == CursorKind::EnumConstant)
            .map(|m| (m.spelling(), m.enum_value()))
            .collect();
        let Some(name) = self.type_names.get(&key).cloned() else {
            for (n, v) in members {
                if self.constant_filter.accepts(&n) {
                    self.constants.push(Constant {
                        name: n,
                        value: ConstValue::Int(v),
                    });
                }
            }
            return;
        };
        if !self.enum_filter.accepts(&name) || self.enums.iter().any(|e| e.name == name) {
            return;
        }
        let int_ty = c.enum_integer_type().canonical();
        self.enums.push(Enum {
            aliases: self.aliases.get(&name).cloned().unwrap_or_default(),
            size: int_ty.size().unwrap_or(4) as u8,
            signed: int_ty.kind() == TypeKind::SignedInt,
            members,
            doc: c.raw_comment().map(|r| Doc::parse(&r)).unwrap_or_default(),
            name,
        });
    }

    /// Collects a record and, first, the anonymous and nested records inside it.
    fn record_decl(&mut self, c: &Cursor<'_>, name: &str, anonymous: bool) {
        if self.record_seen.contains(name) || !self.record_filter.accepts(name) {
            return;
        }
        self.record_seen.insert(name.to_string());
        let ty = c.ty();
        let (Some(size), Some(align)) = (ty.size(), ty.align()) else {
            return;
        };
        let mut members = Members::default();
        for child in c.children() {
            match child.kind() {
                CursorKind::Struct | CursorKind::Union if child.is_definition() => {
                    self.nested_record(&child, name, ty, &mut members)
                }
                // A flexible array member (`uint32_t data[]`) lies past the record's size: the
                // caller allocates it, so a field object (the record's own storage) has no room
                // for it, and an accessor would read or write out of bounds. It is left out.
                CursorKind::Field if child.ty().kind() == TypeKind::IncompleteArray => {}
                CursorKind::Field => self.member_field(&child, ty, &mut members),
                _ => {}
            }
        }
        if let Some((at, nested_name)) = members.pending.take() {
            self.flatten_member(ty, &nested_name, &mut members.fields, at);
        }
        let record = Record {
            name: name.to_string(),
            aliases: self.aliases.get(name).cloned().unwrap_or_default(),
            is_union: c.kind() == CursorKind::Union,
            anonymous,
            size,
            align,
            fields: members.fields,
            doc: c.raw_comment().map(|r| Doc::parse(&r)).unwrap_or_default(),
        };
        // Parents before the records nested in them.
        let at = self
            .records
            .iter()
            .position(|r| members.nested.contains(&r.name))
            .unwrap_or(self.records.len());
        self.records.insert(at, record);
    }

    /// Collects a record defined inside record `name` (of type `ty`), named
    /// `<name>_<kind>_<n>` where it is anonymous, else `<name>_<tag>`.
    fn nested_record(&mut self, child: &Cursor<'_>, name: &str, ty: Type<'_>, m: &mut Members) {
        if let Some((at, nested_name)) = m.pending.take() {
            self.flatten_member(ty, &nested_name, &mut m.fields, at);
        }
        let kind = if child.kind() == CursorKind::Union {
            "union"
        } else {
            "struct"
        };
        let anonymous = child.is_anonymous() || child.spelling().is_empty();
        let nested_name = if anonymous {
            let n = m.counters.entry(kind).or_insert(0);
            let s = format!("{name}_{kind}_{n}");
            *n += 1;
            s
        } else {
            format!("{name}_{}", child.spelling())
        };
        self.type_names
            .insert(child.ty().canonical().spelling(), nested_name.clone());
        // Nested records come first so that flattening can read their fields.
        self.record_decl(child, &nested_name, anonymous);
        if anonymous {
            m.pending = Some((m.fields.len(), nested_name.clone()));
        }
        m.nested.push(nested_name);
    }

    /// Collects a field of a record (of type `ty`), after the fields of the pending anonymous
    /// member unless the field is of that member's type (it names the member then).
    fn member_field(&self, child: &Cursor<'_>, ty: Type<'_>, m: &mut Members) {
        let fname = child.spelling();
        let fty = self.convert(child.ty());
        if let Some((at, nested_name)) = m.pending.take() {
            if fty
                != (CType::Record {
                    name: nested_name.clone(),
                })
            {
                self.flatten_member(ty, &nested_name, &mut m.fields, at);
            }
        }
        m.fields.push(Field {
            default: None,
            name: fname,
            ty: fty,
            spelling: child.ty().spelling(),
            offset_bits: child.field_offset_bits().max(0) as u64,
            bit_width: child.bit_width(),
        });
    }

    /// Inserts at `at` the fields of anonymous member `member`, at their offsets in `parent`.
    fn flatten_member(&self, parent: Type<'_>, member: &str, fields: &mut Vec<Field>, at: usize) {
        let Some(rec) = self.records.iter().find(|r| r.name == member) else {
            return;
        };
        let lifted: Vec<Field> = rec
            .fields
            .iter()
            .map(|f| Field {
                offset_bits: parent.offset_of(&f.name).unwrap_or(f.offset_bits),
                ..f.clone()
            })
            .collect();
        fields.splice(at..at, lifted);
    }

    /// Collects a function declaration.
    fn function_decl(&mut self, c: &Cursor<'_>) {
        let symbol = c.spelling();
        // Declarations of an inline function before its definition do not count.
        if self.inline_functions && !c.is_static() {
            return;
        }
        if self.function_seen.contains(&symbol) {
            return;
        }
        self.function_seen.insert(symbol.clone());
        if c.is_variadic() {
            self.skip(&symbol, "variadic");
            return;
        }
        if self.inline_functions != c.is_static() {
            if !self.inline_functions && self.function_filter.accepts(&symbol) {
                self.skip(
                    &symbol,
                    "static inline in the header: the library does not export it",
                );
            }
            return;
        }
        let params: Vec<Param> = c
            .arguments()
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let n = a.spelling();
                let ty = a.ty();
                // An array parameter (`const uint8_t key[32]`) is a pointer in C.
                let ir_ty = match self.convert(ty) {
                    CType::Array { elem, .. } => CType::Pointer {
                        pointee: elem,
                        is_const: ty.element().is_const(),
                    },
                    other => other,
                };
                Param {
                    name: if n.is_empty() { format!("arg{i}") } else { n },
                    spelling: ty.spelling(),
                    ty: ir_ty,
                    usage: ir::Usage::In,
                    size_param: None,
                    written: false,
                    list: false,
                    count: None,
                    sized_by: None,
                    results_depend: false,
                }
            })
            .collect();
        let ret = self.convert(c.result_type());
        self.functions.push(Function {
            name: symbol.clone(),
            symbol,
            params,
            ret,
            ret_spelling: if self.bodies {
                c.result_type().spelling()
            } else {
                String::new()
            },
            calls: if self.bodies {
                c.call_names()
            } else {
                Vec::new()
            },
            deprecated: c.is_deprecated(),
            keep_gil: false,
            destroys: false,
            serialize: false,
            doc: c.raw_comment().map(|r| Doc::parse(&r)).unwrap_or_default(),
        });
    }

    /// Records a declaration that was left out.
    fn skip(&mut self, name: &str, reason: &str) {
        self.skipped.push(Skipped {
            name: name.to_string(),
            reason: reason.to_string(),
        });
    }

    /// Converts a libclang type into the IR's `CType`.
    fn convert(&self, ty: Type<'_>) -> CType {
        match ty.kind() {
            TypeKind::Typedef => self.convert_typedef(ty),
            TypeKind::Elaborated => self.convert(ty.named()),
            TypeKind::Record | TypeKind::Enum => self.convert_named(ty),
            TypeKind::Pointer => self.convert_pointer(ty),
            TypeKind::ConstantArray => CType::Array {
                elem: Box::new(self.convert(ty.element())),
                len: ty.array_len(),
            },
            TypeKind::IncompleteArray => CType::Pointer {
                pointee: Box::new(self.convert(ty.element())),
                is_const: ty.element().is_const(),
            },
            TypeKind::Void => CType::Void,
            TypeKind::Bool => CType::Bool,
            TypeKind::CharS | TypeKind::SignedInt | TypeKind::UnsignedInt => convert_int(ty),
            TypeKind::Float => match ty.size() {
                Some(s @ (4 | 8)) => CType::Float { size: s as u8 },
                _ => CType::Unsupported {
                    spelling: ty.spelling(),
                },
            },
            _ => CType::Unsupported {
                spelling: ty.spelling(),
            },
        }
    }

    /// A typedef: the handle class of a pointer typedef, else the type it names.
    fn convert_typedef(&self, ty: Type<'_>) -> CType {
        let name = ty.declaration().spelling();
        if let Some(class) = self.handle_of_typedef.get(&name) {
            // Where the pointee record has fields, `class` is that record's class.
            return CType::Handle {
                name: class.clone(),
            };
        }
        self.convert(ty.declaration().typedef_underlying())
    }

    /// A record or enum, by the name given to it (else its declaration's).
    fn convert_named(&self, ty: Type<'_>) -> CType {
        let canon = ty.canonical();
        let key = canon.spelling();
        let name = self
            .type_names
            .get(&key)
            .cloned()
            .unwrap_or_else(|| canon.declaration().spelling());
        if ty.kind() == TypeKind::Enum {
            let int_ty = canon.declaration().enum_integer_type().canonical();
            CType::Enum {
                name,
                size: int_ty.size().unwrap_or(4) as u8,
                signed: int_ty.kind() == TypeKind::SignedInt,
            }
        } else {
            CType::Record { name }
        }
    }

    /// A pointer: to `void` where it points at a function or an undefined struct.
    fn convert_pointer(&self, ty: Type<'_>) -> CType {
        let pointee = ty.pointee();
        let canon = pointee.canonical();
        // Function pointers, and pointers to structs no header defines (LLVM's
        // `LLVMModuleFlagEntry *`), are plain addresses.
        let opaque = canon.kind() == TypeKind::Record && canon.size().is_none();
        let pointee_ir = if canon.kind() == TypeKind::FunctionProto || opaque {
            CType::Void
        } else {
            self.convert(pointee)
        };
        CType::Pointer {
            pointee: Box::new(pointee_ir),
            is_const: pointee.is_const(),
        }
    }

    /// Applies renames and filters, and returns the header's IR (no binding decision: see
    /// `bind`).
    fn finish(mut self) -> Result<Library> {
        let consts = macros::evaluate(&self.macros, &self.constants);
        let typed_constants = macros::typed_constants(&self.macros);
        let renames = macros::renames(&self.macros);
        let type_renames = if self.type_renames {
            renames.clone()
        } else {
            HashMap::new()
        };
        self.rename_to_api(&renames, &type_renames);
        self.alias_renamed_enums(&type_renames);
        let record_renames = self.record_renames(&type_renames);
        let functions = self.bound_functions(&record_renames);
        for r in &mut self.records {
            for fl in &mut r.fields {
                rename_in_type(&mut fl.ty, &record_renames);
            }
        }
        let constants = self.all_constants(consts);
        let handles = self.opaque_handles();
        Ok(Library {
            name: self.name,
            release: self.release.clone(),
            headers: self.headers,
            functions,
            enums: self.enums,
            records: self.records,
            handles,
            pointer_aliases: self.pointer_aliases,
            opaque_pointers: Vec::new(),
            constants,
            typed_constants,
            skipped: self.skipped,
        })
    }

    /// Gives functions their macro's API name and records theirs (the old name an alias).
    fn rename_to_api(
        &mut self,
        renames: &HashMap<String, String>,
        type_renames: &HashMap<String, String>,
    ) {
        // `#define hipGetDeviceProperties hipGetDevicePropertiesR0600`: the API name is the
        // macro's, the symbol stays the declaration's.
        for f in &mut self.functions {
            if let Some(api) = renames.get(&f.symbol) {
                f.name = api.clone();
            }
        }
        for r in &mut self.records {
            if let Some(api) = type_renames.get(&r.name) {
                r.aliases.push(std::mem::replace(&mut r.name, api.clone()));
            }
        }
    }

    /// Adds the renamed names of enums and their members as aliases.
    fn alias_renamed_enums(&mut self, type_renames: &HashMap<String, String>) {
        // `#define hiprtcJIT_option hipJitOption`: both names name the enum. Likewise its
        // members (`#define HIPRTC_JIT_INPUT_LLVM_BITCODE hipJitInputLLVMBitcode`, HIP 6's
        // renames of hiprtc's): the old name is an alias member of the same value, so code
        // written for an earlier release keeps working.
        for e in &mut self.enums {
            if let Some(api) = type_renames.get(&e.name) {
                e.aliases.push(api.clone());
            }
            let old_names: Vec<(String, i64)> = e
                .members
                .iter()
                .filter_map(|(member, value)| Some((type_renames.get(member)?.clone(), *value)))
                .filter(|(old, _)| !e.members.iter().any(|(m, _)| m == old))
                .collect();
            e.members.extend(old_names);
        }
    }

    /// The type renames of records collected.
    fn record_renames(&self, type_renames: &HashMap<String, String>) -> HashMap<String, String> {
        type_renames
            .iter()
            .filter(|(from, _)| self.record_seen.contains(*from))
            .map(|(a, b)| (a.clone(), b.clone()))
            .collect()
    }

    /// The functions collected, records renamed in their types, that the filter accepts and
    /// whose types are all supported (the others are skipped).
    fn bound_functions(&mut self, record_renames: &HashMap<String, String>) -> Vec<Function> {
        let mut functions = Vec::new();
        for mut f in std::mem::take(&mut self.functions) {
            rename_in_type(&mut f.ret, record_renames);
            for p in &mut f.params {
                rename_in_type(&mut p.ty, record_renames);
            }
            if !self.function_filter.accepts(&f.name) {
                continue;
            }
            if let Some(bad) = f
                .params
                .iter()
                .map(|p| &p.ty)
                .chain([&f.ret])
                .find(|t| !t.is_supported())
            {
                self.skip(&f.name, &format!("unsupported type {bad:?}"));
                continue;
            }
            functions.push(f);
        }
        functions
    }

    /// The constants of anonymous enums, then the macros' (`consts`) the filter accepts.
    fn all_constants(&mut self, consts: Vec<Constant>) -> Vec<Constant> {
        let mut constants: Vec<Constant> = std::mem::take(&mut self.constants);
        constants.extend(
            consts
                .into_iter()
                .filter(|c| self.constant_filter.accepts(&c.name)),
        );
        constants
    }

    /// The handles whose class is no complete record. Those whose class is one are that
    /// record, not an opaque class: their typedefs become the record's aliases.
    fn opaque_handles(&mut self) -> Vec<Handle> {
        let mut handles = Vec::new();
        for mut h in std::mem::take(&mut self.handles) {
            // `typedef struct _hipGraphicsResource hipGraphicsResource;` names the handle too.
            if let Some(extra) = self.aliases.get(&h.name) {
                h.aliases.extend(extra.iter().cloned());
            }
            match self.records.iter_mut().find(|r| r.name == h.name) {
                Some(r) => r.aliases.extend(h.aliases),
                None => handles.push(h),
            }
        }
        handles
    }
}

/// An integer type: unsupported where wider than 64 bits.
fn convert_int(ty: Type<'_>) -> CType {
    let size = ty.size().unwrap_or(4) as u8;
    if size > 8 {
        return CType::Unsupported {
            spelling: ty.spelling(),
        };
    }
    CType::Int {
        size,
        signed: ty.kind() != TypeKind::UnsignedInt,
        is_char: ty.kind() == TypeKind::CharS,
    }
}

/// The members of a record being collected (`Walker::record_decl`).
#[derive(Default)]
struct Members {
    /// The anonymous structs and unions so far, by kind (their names are numbered).
    counters: HashMap<&'static str, usize>,
    /// The fields so far.
    fields: Vec<Field>,
    /// The names of the records nested in it.
    nested: Vec<String>,
    /// An anonymous nested record not (yet) named by a field: a C11 anonymous member, whose
    /// fields belong to this record; resolved when the next field does not use it.
    pending: Option<(usize, String)>,
}

/// Applies record renames inside a type.
fn rename_in_type(ty: &mut CType, renames: &HashMap<String, String>) {
    match ty {
        CType::Record { name } | CType::Handle { name } => {
            if let Some(n) = renames.get(name) {
                *name = n.clone();
            }
        }
        CType::Pointer { pointee, .. } => rename_in_type(pointee, renames),
        CType::Array { elem, .. } => rename_in_type(elem, renames),
        _ => {}
    }
}

/// Top-level declarations, looking inside `extern "C"` blocks and namespaces (LLVM's
/// `llvm::amdhsa` of the kernel descriptor header).
fn flatten(root: Cursor<'_>) -> Vec<Cursor<'_>> {
    let mut out = Vec::new();
    for c in root.children() {
        if matches!(c.kind(), CursorKind::LinkageSpec | CursorKind::Namespace) {
            out.extend(flatten(c));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Usage;

    /// The IR of the fixture header, parsed with its fixture spec.
    fn demo() -> Library {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let spec = Spec::load(&root.join("demo.yaml")).unwrap();
        let mut lib = parse_library(&spec, &root.join("include"), "0.0.0").unwrap();
        crate::bind::apply(&spec, &mut lib).unwrap();
        lib
    }

    #[test]
    fn functions_renames_usages_and_skips() {
        let lib = demo();
        let f = |n: &str| lib.functions.iter().find(|f| f.name == n).unwrap();
        let props = f("demoGetProps");
        assert_eq!(props.symbol, "demoGetPropsR0600");
        assert_eq!(props.params[0].usage, Usage::Pointer);
        assert_eq!(props.doc.params[1].0, "device");
        assert_eq!(f("demoCount").params[0].usage, Usage::Out);
        assert_eq!(f("demoStreamCreate").params[0].usage, Usage::Out);
        assert_eq!(
            f("demoStreamCreate").params[0].ty,
            CType::Pointer {
                pointee: Box::new(CType::Handle {
                    name: "ihipStream_t".into()
                }),
                is_const: false
            }
        );
        assert_eq!(f("demoMalloc").params[0].usage, Usage::Out);
        assert_eq!(f("demoCompile").params[0].usage, Usage::String);
        assert_eq!(f("demoCompile").params[2].usage, Usage::StringArray);
        assert!(lib.functions.iter().all(|f| f.name != "demoLog"));
        assert_eq!(lib.skipped[0].name, "demoLog");
    }

    #[test]
    fn enums_constants_and_handles() {
        let lib = demo();
        let e = &lib.enums[0];
        assert_eq!(e.name, "demoStatus_t");
        assert_eq!(e.members[2], ("demoErrorAlias".to_string(), 7));
        let c = |n: &str| {
            lib.constants
                .iter()
                .find(|c| c.name == n)
                .map(|c| c.value.clone())
        };
        assert_eq!(c("DEMO_FLAGS"), Some(ConstValue::Int(22)));
        assert_eq!(c("DEMO_BUFFER_POINTER"), Some(ConstValue::Int(1)));
        assert_eq!(c("DEMO_NAME"), Some(ConstValue::Str("demo".into())));
        assert_eq!(c("DEMO_ANON_B"), Some(ConstValue::Int(4)));
        let stream = lib
            .handles
            .iter()
            .find(|h| h.name == "ihipStream_t")
            .unwrap();
        assert_eq!(stream.aliases, vec!["demoStream_t".to_string()]);
        assert!(lib.handles.iter().any(|h| h.name == "demoCallback_t"));
        assert_eq!(
            lib.pointer_aliases,
            vec!["demoDeviceptr_t".to_string(), "demoHandle_t".to_string()]
        );
    }

    #[test]
    fn record_layout_nesting_bitfields_and_defaults() {
        let lib = demo();
        let r = lib
            .records
            .iter()
            .find(|r| r.name == "demoProps_t")
            .unwrap();
        assert!(r.aliases.contains(&"demoProps_tR0600".to_string()));
        let names: Vec<&str> = r.fields.iter().map(|f| f.name.as_str()).collect();
        // The anonymous union's members are fields of the record itself, as in C.
        assert_eq!(
            names,
            ["name", "dims", "range", "i", "f", "flag_a", "flag_b", "stream", "status"]
        );
        let field = |n: &str| r.fields.iter().find(|f| f.name == n).unwrap();
        assert_eq!(field("dims").offset_bits, 16 * 8);
        assert_eq!(
            field("range").ty,
            CType::Record {
                name: "demoProps_tR0600_struct_0".into()
            }
        );
        assert_eq!(field("i").offset_bits, field("f").offset_bits);
        assert_eq!(field("flag_b").bit_width, Some(3));
        assert_eq!(field("flag_b").offset_bits, field("flag_a").offset_bits + 1);
        assert_eq!(field("status").default, Some(7));
        assert_eq!(r.size, 64);
        assert!(lib
            .records
            .iter()
            .any(|r| r.name == "demoProps_tR0600_union_0"));
    }

    #[test]
    fn a_flexible_array_member_gets_no_field() {
        let lib = demo();
        let r = lib.records.iter().find(|r| r.name == "demoPacket").unwrap();
        let names: Vec<&str> = r.fields.iter().map(|f| f.name.as_str()).collect();
        // `data[]` lies past sizeof (8): a field would read and write out of bounds.
        assert_eq!(names, ["addr"]);
        assert_eq!(r.size, 8);
    }
}
