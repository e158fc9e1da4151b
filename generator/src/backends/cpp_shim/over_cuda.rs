//! Shims for the libraries AMD ships for NVIDIA as marshalling layers (hipBLAS over cuBLAS,
//! hipFFT over cuFFT, ...): a C++ source exporting each function of a library's IR that calls
//! the CUDA function HIPIFY maps to it.
//!
//! Three sources meet here: the library's IR (the HIP signatures and enum values the
//! bindings pass), CUDA's own headers read through libclang (the CUDA enums and their
//! values), and HIPIFY's table (which CUDA function and enum member stands for which HIP
//! one). The argument conversions are C++ templates in `templates/cuda_shim.cpp.j2`, picked
//! by the compiler from each pair of types; a function whose pair has no rule does not
//! compile and is left out with the compiler's reason.

use crate::cuda::aliases::Entry;
use crate::ir::{CType, Library};
use crate::spec::CudaLibrarySpec;
use anyhow::{bail, Context, Result};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// What `generate` produced.
pub struct CudaShim {
    /// The C++ source.
    pub source: String,
    /// Functions exported.
    pub exported: Vec<String>,
    /// Functions left out, with the reason.
    pub left_out: Vec<(String, String)>,
}

/// Where the CUDA headers and the templates are.
pub struct ShimFiles<'a> {
    /// CUDA include directories.
    pub cuda_includes: &'a [PathBuf],
    /// Folder of the templates.
    pub templates: &'a Path,
}

/// The template's model.
#[derive(Serialize)]
struct Model {
    library: String,
    cuda_headers: Vec<String>,
    enums: Vec<EnumDecl>,
    records: Vec<RecordDecl>,
    /// Every field name of the records, once: each gets a test for a CUDA member of its name.
    member_names: Vec<String>,
    handles: Vec<String>,
    maps: Vec<EnumMap>,
    /// `cuda::CUDA_MEMBER_TAG`: a value with it is CUDA's own member.
    cuda_member_tag: i64,
    status: StatusModel,
    wrappers: Vec<Wrapper>,
    left_out: Vec<LeftOut>,
    /// The lookup wrappers' helper (`shim::LOOKUP`).
    lookup_helper: &'static str,
    /// How a device ordinal becomes a location record, where the spec says and the IR has it.
    location: Option<LocationModel>,
}

/// The spec's `device_location` resolved against the IR: the HIP record's name, the byte
/// offsets and C++ types of its `type` and `id` fields, and the enum values to write.
#[derive(Serialize)]
struct LocationModel {
    record: String,
    type_offset: u64,
    type_ty: String,
    id_offset: u64,
    id_ty: String,
    device: i64,
    host: i64,
    host_id: i64,
}

#[derive(Serialize)]
struct EnumDecl {
    name: String,
    underlying: String,
}

#[derive(Serialize)]
struct RecordDecl {
    name: String,
    size: u64,
    align: u64,
    /// The fields copied member by member to and from CUDA's struct of another layout;
    /// `None` when no member copy carries the record whole.
    fields: Option<Vec<FieldDecl>>,
    /// C++ statements proving CUDA's struct `C` has this layout (each field by name at its
    /// offset, of its size), each clearing `ok` where it does not; empty for a record the IR
    /// knows no fields of.
    layout: Vec<String>,
}

/// One field of a HIP record, as the copy to a CUDA struct reads it from the record's bytes.
#[derive(Serialize, Clone)]
struct FieldDecl {
    name: String,
    /// Byte offset.
    offset: u64,
    /// The C++ type of the field, or of its elements.
    ty: String,
    /// The element count of an array field.
    len: Option<u64>,
    /// A field of a record no member copy carries: not copied.
    skip: bool,
    /// A union field, copied as its bytes (`len` of them) into CUDA's union of its name,
    /// where CUDA's lays out the members as HIP's does (`ty`: the HIP union).
    bytes: bool,
    /// The fields before it at its offset (a union's members flattened into the record):
    /// it is copied only where CUDA's struct has none of them.
    before: Vec<String>,
    /// All the other fields at its offset: CUDA's struct covers it where it has any of them.
    others: Vec<String>,
}

/// The fields of `r` for a member copy, or `None` when a copy could not carry the record
/// whole: a union itself, a bit field, a type the shim cannot spell or a name C++ cannot
/// take, a record field not copyable itself (`copyable` so far). A union field is copied as
/// its bytes (`unions`: their sizes); a union's members flattened into the record (at one
/// offset) are alternatives where they are one type, the first CUDA names copied.
fn field_decls(
    r: &crate::ir::Record,
    copyable: &BTreeMap<String, Option<Vec<FieldDecl>>>,
    unions: &HashMap<String, u64>,
) -> Option<Vec<FieldDecl>> {
    if r.is_union {
        return None;
    }
    let mut out: Vec<FieldDecl> = Vec::new();
    for f in &r.fields {
        let decl = field_decl(f, &out, copyable, unions)?;
        out.push(decl);
    }
    with_alternatives(out)
}

/// The copy of field `f` after the fields `out` so far, or `None` when a copy could not carry
/// it (see `field_decls`).
fn field_decl(
    f: &crate::ir::Field,
    out: &[FieldDecl],
    copyable: &BTreeMap<String, Option<Vec<FieldDecl>>>,
    unions: &HashMap<String, u64>,
) -> Option<FieldDecl> {
    let last = out.last().map(|d| d.offset * 8);
    if f.bit_width.is_some()
        || !f.offset_bits.is_multiple_of(8)
        || last.is_some_and(|l| f.offset_bits < l)
        || !plain_name(&f.name)
    {
        return None;
    }
    let before: Vec<String> = out
        .iter()
        .filter(|d| d.offset * 8 == f.offset_bits)
        .map(|d| d.name.clone())
        .collect();
    let (elem, len) = match &f.ty {
        CType::Array { elem, len } => (elem.as_ref(), Some(*len)),
        other => (other, None),
    };
    if let (CType::Record { name }, None) = (elem, len) {
        if let Some(size) = unions.get(name) {
            return Some(FieldDecl {
                name: f.name.clone(),
                offset: f.offset_bits / 8,
                ty: format!("h::{name}"),
                len: Some(*size),
                skip: false,
                bytes: true,
                before,
                others: Vec::new(),
            });
        }
    }
    // A record no copy carries (`hipDeviceArch_t`'s bit fields) is left out of an
    // output's copy; an input holding one cannot pass as a copy (`skip`).
    let skip = match elem {
        CType::Record { name } => copyable.get(name)?.is_none(),
        _ => false,
    };
    Some(FieldDecl {
        name: f.name.clone(),
        offset: f.offset_bits / 8,
        ty: cpp_type(elem)?,
        len,
        skip,
        bytes: false,
        before,
        others: Vec::new(),
    })
}

/// `out` with each field's `others` (the fields at its offset), or `None` where those are not
/// all of its type. Alternatives must be one type under several names (CUDA 12's
/// `requestedHandleTypes` beside HIP's `requestedHandleType`): copying the first CUDA names
/// then copies them all. Members of different types (a kernel's parameters beside a copy's)
/// would carry one layout's bytes into another's.
fn with_alternatives(mut out: Vec<FieldDecl>) -> Option<Vec<FieldDecl>> {
    let same_type =
        |a: &FieldDecl, b: &FieldDecl| (&a.ty, a.len, a.bytes) == (&b.ty, b.len, b.bytes);
    if out
        .iter()
        .any(|d| out.iter().any(|e| e.offset == d.offset && !same_type(d, e)))
    {
        return None;
    }
    let at: Vec<(u64, String)> = out.iter().map(|d| (d.offset, d.name.clone())).collect();
    for d in &mut out {
        d.others = at
            .iter()
            .filter(|(o, n)| *o == d.offset && *n != d.name)
            .map(|(_, n)| n.clone())
            .collect();
    }
    Some(out)
}

/// The spec's `device_location` where the IRs have its record (with `type` and `id` fields)
/// and members.
fn location_model(
    all: &[&Library],
    cuda: &CudaLibrarySpec,
    members: &HashMap<&str, (&str, i64)>,
) -> Option<LocationModel> {
    let spec = cuda.device_location.as_ref()?;
    let r = all
        .iter()
        .flat_map(|l| &l.records)
        .find(|r| r.name == spec.record)?;
    let field = |n: &str| r.fields.iter().find(|f| f.name == n);
    let (ty, id) = (field("type")?, field("id")?);
    Some(LocationModel {
        record: r.name.clone(),
        type_offset: ty.offset_bits / 8,
        type_ty: cpp_type(&ty.ty)?,
        id_offset: id.offset_bits / 8,
        id_ty: cpp_type(&id.ty)?,
        device: members.get(spec.device.as_str())?.1,
        host: members.get(spec.host.as_str())?.1,
        host_id: spec.host_id,
    })
}

/// The statements of `RecordDecl::layout` for `r`. Bit fields prove nothing, and an enum
/// field only where its values are CUDA's, so a record holding another never passes as it is.
fn layout_checks(r: &crate::ir::Record) -> Vec<String> {
    r.fields
        .iter()
        .map(|f| {
            let (elem, len) = match &f.ty {
                CType::Array { elem, len } => (elem.as_ref(), *len),
                other => (other, 1),
            };
            let n = &f.name;
            let plain = f.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            let ty = cpp_type(elem);
            match (plain, f.bit_width, elem, ty) {
                (false, ..) | (_, Some(_), ..) | (.., None) => "ok = false;".to_string(),
                // An enum whose values are CUDA's (by HIPIFY's pairs) reads the same.
                (true, None, CType::Enum { name, .. }, Some(_)) => format!(
                    "if constexpr (member::has_{n}<C>::value) {{ ok = ok && offsetof(C, {n}) == {off} && \
                     same_values<std::remove_cv_t<decltype(C::{n})>>(static_cast<h::{name} *>(nullptr)); }} \
                     else {{ ok = false; }}",
                    off = f.offset_bits / 8
                ),
                (true, None, _, Some(ty)) => {
                    let nested = match elem {
                        CType::Record { name } => format!(
                            " && same_offsets<std::remove_cv_t<std::remove_all_extents_t<decltype(C::{n})>>>(                             static_cast<const h::{name} *>(nullptr))"
                        ),
                        _ => String::new(),
                    };
                    format!(
                        "if constexpr (member::has_{n}<C>::value) {{ ok = ok && offsetof(C, {n}) == {off} &&                          sizeof(C::{n}) == sizeof({ty}) * {len}{nested}; }} else {{ ok = false; }}",
                        off = f.offset_bits / 8
                    )
                }
            }
        })
        .collect()
}

/// The member-copy fields of every record of `libs` (`None`: not copyable), nested records
/// first: a record is copyable once all the records of its fields are.
fn copyable_records(libs: &[&Library]) -> BTreeMap<String, Option<Vec<FieldDecl>>> {
    let records: Vec<&crate::ir::Record> = libs.iter().flat_map(|l| &l.records).collect();
    let unions: HashMap<String, u64> = records
        .iter()
        .filter(|r| r.is_union)
        .map(|r| (r.name.clone(), r.size))
        .collect();
    let mut done: BTreeMap<String, Option<Vec<FieldDecl>>> = BTreeMap::new();
    loop {
        let mut changed = false;
        for r in &records {
            if matches!(done.get(&r.name), Some(Some(_))) {
                continue;
            }
            let fields = field_decls(r, &done, &unions);
            if fields.is_some() || !done.contains_key(&r.name) {
                changed |= fields.is_some();
                done.insert(r.name.clone(), fields);
            }
        }
        if !changed {
            return done;
        }
    }
}

/// Whether pointer parameter `name` of `f` points at one value, not an array: only one
/// struct may pass as a member copy. An array has a count beside it (`numExtSems`, `count`)
/// and says so in its name (`paramsArray`, `desc_list`), or the count names it
/// (`numAttributes` for `attributes`: `count_of`).
fn single_struct(f: &crate::ir::Function, name: &str) -> bool {
    let counted = f.params.iter().any(|p| {
        let n = p.name.to_ascii_lowercase();
        matches!(p.ty, CType::Int { .. })
            && (n.starts_with("num") || n.contains("count") || n == "n")
    });
    let n = name.to_ascii_lowercase();
    count_of(f, name).is_none() && !(counted && (n.contains("array") || n.contains("list")))
}

/// The integer parameter of `f` that counts array parameter `name` by naming it
/// (`numOptions` for `options`), if any: such an array of enums of other values than CUDA's
/// is converted element by element (`hipgen::arr`).
fn count_of(f: &crate::ir::Function, name: &str) -> Option<usize> {
    let want = format!("num{}", name.to_ascii_lowercase());
    f.params
        .iter()
        .position(|p| matches!(p.ty, CType::Int { .. }) && p.name.to_ascii_lowercase() == want)
}

/// The translation between one HIP enum and one CUDA enum.
#[derive(Serialize)]
struct EnumMap {
    hip: String,
    /// The CUDA enum's type, as `decltype` of one of its members.
    cuda: String,
    to_cuda: Vec<Pair>,
    to_hip: Vec<Pair>,
}

#[derive(Serialize)]
struct Pair {
    hip_value: i64,
    cuda_member: String,
    cuda_value: i64,
}

#[derive(Serialize)]
struct StatusModel {
    enum_name: String,
    unsupported: i64,
    unsupported_name: String,
    invalid: i64,
    invalid_name: String,
    unknown: i64,
}

#[derive(Serialize, Clone)]
struct Wrapper {
    name: String,
    symbol: String,
    params: Vec<String>,
    cuda: String,
    /// Per parameter: whether a struct pointer points at one struct, so a struct of another
    /// layout than CUDA's may pass as a copy, member by member.
    single: Vec<bool>,
    /// Per parameter: the parameter counting it, for an array a count names.
    count: Vec<Option<usize>>,
    /// The C++ return type of a function that returns a value, not the status
    /// (`hipGetErrorString`'s `const char *`): CUDA's result converts to it.
    value: Option<String>,
    /// Whether it is a lookup (`Function::is_enum_lookup`): each value's answer is kept.
    lookup: bool,
    /// CUDA's arguments in order: the HIP parameter's index, or -1 for a NULL the HIP
    /// function has no parameter for (the spec's `null_args`).
    order: Vec<i64>,
    /// Per HIP parameter: its position among CUDA's arguments.
    at: Vec<usize>,
    /// The C function type of `cuda` where C++ overloads the name (`CudaDecls`).
    cuda_type: Option<String>,
}

/// A CUDA function to try for a HIP one, with the CUDA positions passed as NULL.
type Candidate = (String, Vec<usize>);

impl Wrapper {
    /// Calls `cuda`, with NULL at CUDA's positions `nulls`.
    fn calling(&mut self, cuda: String, nulls: &[usize]) {
        let n = self.params.len() + nulls.len();
        let mut hip = 0..self.params.len() as i64;
        self.order = (0..n)
            .map(|j| {
                if nulls.contains(&j) {
                    -1
                } else {
                    hip.next().unwrap_or(-1)
                }
            })
            .collect();
        self.at = (0..self.params.len())
            .map(|k| self.order.iter().position(|&o| o == k as i64).unwrap_or(k))
            .collect();
        self.cuda = cuda;
    }
}

#[derive(Serialize)]
struct LeftOut {
    name: String,
    why: String,
}

/// An enum of CUDA's headers: its members and values.
struct CudaEnum {
    members: Vec<(String, i64)>,
}

/// libclang's arguments for CUDA's headers in C++.
fn args(cuda_includes: &[PathBuf]) -> Vec<String> {
    let mut a = vec![
        "-x".into(),
        "c++".into(),
        "-std=c++17".into(),
        // Every failing wrapper in one pass, not the first twenty.
        "-ferror-limit=0".into(),
    ];
    a.extend(cuda_includes.iter().map(|d| format!("-I{}", d.display())));
    a
}

/// What the shim reads in CUDA's headers: their enums (last declared first), and the C
/// function type of each function C++ overloads there (cuBLAS's inline `cublasGemmEx` beside
/// the exported one, taking the older compute type): `decltype(&name)` cannot pick one, and
/// the function the library exports is the one meant.
struct CudaDecls {
    enums: Vec<CudaEnum>,
    overloaded: HashMap<String, String>,
}

fn cuda_decls(headers: &[String], cuda_includes: &[PathBuf]) -> Result<CudaDecls> {
    let parse = |inline_functions: bool| -> Result<Library> {
        let set = crate::parse::HeaderSet {
            name: "cuda-enums",
            headers,
            prelude: "",
            language: "c++",
            defines: &[],
            include_dirs: cuda_includes.to_vec(),
            bodies: false,
            inline_functions,
            type_renames: false,
            filters: crate::parse::Filters::all(),
        };
        let all = [".*".to_string()];
        let part = crate::parse::Part {
            name: "cuda",
            bind_files: &all,
        };
        Ok(crate::parse::parse_headers(&set, &[part], "cuda")
            .with_context(|| format!("parsing CUDA's {}", headers.join(", ")))?
            .remove(0))
    };
    let exported = parse(false)?;
    let inline: BTreeSet<String> = parse(true)?.functions.into_iter().map(|f| f.name).collect();
    let overloaded = exported
        .functions
        .iter()
        .filter(|f| inline.contains(&f.name))
        .filter_map(|f| {
            let ret = match (&f.ret_spelling, &f.ret) {
                (s, _) if !s.is_empty() => s.clone(),
                (_, CType::Enum { name, .. }) => name.clone(),
                _ => return None,
            };
            let params: Vec<&str> = f.params.iter().map(|p| p.spelling.as_str()).collect();
            Some((f.name.clone(), format!("{ret} (*)({})", params.join(", "))))
        })
        .collect();
    Ok(CudaDecls {
        enums: exported
            .enums
            .into_iter()
            .rev()
            .filter(|e| !e.members.is_empty())
            .map(|e| CudaEnum { members: e.members })
            .collect(),
        overloaded,
    })
}

/// How the shim spells a HIP type; `None` when it cannot.
fn cpp_type(ty: &CType) -> Option<String> {
    Some(match ty {
        CType::Void => "void".into(),
        CType::Bool => "bool".into(),
        CType::Int { is_char: true, .. } => "char".into(),
        CType::Int { size, signed, .. } => {
            format!(
                "std::{}int{}_t",
                if *signed { "" } else { "u" },
                *size as u32 * 8
            )
        }
        CType::Float { size: 4 } => "float".into(),
        CType::Float { size: 8 } => "double".into(),
        CType::Float { .. } => return None,
        CType::Enum { name, .. } | CType::Record { name } => format!("h::{name}"),
        CType::Handle { name } => format!("h::{name} *"),
        CType::Pointer { pointee, is_const } => {
            let inner = cpp_type(pointee)?;
            if *is_const {
                format!("{inner} const *")
            } else {
                format!("{inner} *")
            }
        }
        CType::Array { elem, .. } => format!("{} *", cpp_type(elem)?),
        CType::Unsupported { .. } => return None,
    })
}

/// The C++ underlying type of an enum of `size` bytes.
fn underlying(size: u8, signed: bool) -> String {
    format!(
        "std::{}int{}_t",
        if signed { "" } else { "u" },
        size as u32 * 8
    )
}
/// HIP enum member name -> (enum name, value).
type HipMembers<'a> = HashMap<&'a str, (&'a str, i64)>;

/// CUDA enum member name -> (index of its enum among CUDA's, value).
type CudaMembers<'a> = HashMap<&'a str, (usize, i64)>;

/// (HIP enum, CUDA enum) -> HIP value -> the CUDA values HIPIFY pairs with it.
type Paired<'a> = BTreeMap<(&'a str, usize), BTreeMap<i64, BTreeSet<i64>>>;

/// The enum translations by (HIP enum, index of the CUDA enum).
type EnumMaps = BTreeMap<(String, usize), EnumMap>;

/// A HIP function's wrapper, with the CUDA candidates left to try after its first.
type Wanted = (Wrapper, Vec<Candidate>);

/// HIP declarations of a shim's IRs: every enum, record and handle, once by name.
struct HipDecls<'a> {
    /// Enum name -> its C++ underlying type.
    enums: BTreeMap<String, String>,
    /// Record name -> (size, alignment).
    records: BTreeMap<String, (u64, u64)>,
    handles: BTreeSet<String>,
    members: HipMembers<'a>,
}

/// Collects the HIP declarations of `all`, the first of each name kept.
fn hip_decls<'a>(all: &[&'a Library]) -> HipDecls<'a> {
    let mut d = HipDecls {
        enums: BTreeMap::new(),
        records: BTreeMap::new(),
        handles: BTreeSet::new(),
        members: HashMap::new(),
    };
    for l in all {
        for e in &l.enums {
            d.enums
                .entry(e.name.clone())
                .or_insert_with(|| underlying(e.size, e.signed));
            for (m, v) in &e.members {
                d.members.entry(m).or_insert((&e.name, *v));
            }
        }
        for r in &l.records {
            d.records.entry(r.name.clone()).or_insert((r.size, r.align));
        }
        for h in &l.handles {
            d.handles.insert(h.name.clone());
        }
    }
    d
}

/// The name of `lib`'s status enum: `status_enum`, or the enum it is an alias of.
fn status_enum_name(lib: &Library, status_enum: &str) -> Result<String> {
    lib.enums
        .iter()
        .find(|e| e.name == status_enum || e.aliases.iter().any(|a| a == status_enum))
        .map(|e| e.name.clone())
        .with_context(|| format!("{}: no status enum {status_enum}", lib.name))
}

/// The spec's status members, each of which must be a member of `status_name`.
fn status_model(
    cuda: &CudaLibrarySpec,
    status_name: &str,
    hip_members: &HipMembers<'_>,
) -> Result<StatusModel> {
    let member_value = |m: &str| -> Result<i64> {
        match hip_members.get(m) {
            Some((e, v)) if *e == status_name => Ok(*v),
            _ => bail!("{m} is not a member of {status_name}"),
        }
    };
    Ok(StatusModel {
        enum_name: status_name.to_string(),
        unsupported: member_value(&cuda.status.unsupported)?,
        unsupported_name: cuda.status.unsupported.clone(),
        invalid: member_value(&cuda.status.invalid)?,
        invalid_name: cuda.status.invalid.clone(),
        unknown: member_value(&cuda.status.unknown)?,
    })
}

/// Each member of CUDA's enums with its enum's index and value, the first of each name.
fn cuda_members(cuda_enums: &[CudaEnum]) -> CudaMembers<'_> {
    let mut cuda_member: CudaMembers<'_> = HashMap::new();
    for (i, e) in cuda_enums.iter().enumerate() {
        for (m, v) in &e.members {
            cuda_member.entry(m).or_insert((i, *v));
        }
    }
    cuda_member
}

/// HIPIFY pairs for the HIP members HIPIFY does not name, which stand for those of the spec's
/// `member_prefixes`: their CUDA members, sorted.
fn borrowed_entries(
    table: &[Entry],
    hip_members: &HipMembers<'_>,
    cuda: &CudaLibrarySpec,
) -> Vec<Entry> {
    let mut by_hip: HashMap<&str, Vec<&str>> = HashMap::new();
    for e in table {
        by_hip.entry(&e.hip).or_default().push(&e.cuda);
    }
    let mut borrowed = Vec::new();
    for member in hip_members.keys() {
        for (prefix, stands_for) in &cuda.member_prefixes {
            let Some(rest) = member.strip_prefix(prefix.as_str()) else {
                continue;
            };
            if by_hip.contains_key(member) {
                continue;
            }
            for c in by_hip
                .get(format!("{stands_for}{rest}").as_str())
                .into_iter()
                .flatten()
            {
                borrowed.push(Entry {
                    cuda: c.to_string(),
                    hip: member.to_string(),
                    category: "numeric_literal".into(),
                });
            }
        }
    }
    borrowed.sort_by(|a, b| (&a.hip, &a.cuda).cmp(&(&b.hip, &b.cuda)));
    borrowed
}

/// The spec's own member pairs, as HIPIFY's table gives its pairs.
fn own_entries(cuda: &CudaLibrarySpec) -> Vec<Entry> {
    cuda.member_pairs
        .iter()
        .flat_map(|(hip, members)| {
            members.iter().map(move |cuda| Entry {
                cuda: cuda.clone(),
                hip: hip.clone(),
                category: "numeric_literal".into(),
            })
        })
        .collect()
}

/// One HIPIFY member pair whose HIP member the IRs have and whose CUDA member CUDA's headers do.
struct KnownPair<'a> {
    cuda: &'a str,
    hip_enum: &'a str,
    hip_value: i64,
    /// The CUDA enum's index.
    group: usize,
    cuda_value: i64,
}

/// The pairs of `entries` whose two members are known, in order.
fn known_pairs<'a>(
    entries: impl Iterator<Item = &'a Entry>,
    hip_members: &HipMembers<'a>,
    cuda_members: &CudaMembers<'a>,
) -> Vec<KnownPair<'a>> {
    entries
        .filter_map(|entry| {
            let &(hip_enum, hip_value) = hip_members.get(entry.hip.as_str())?;
            let &(group, cuda_value) = cuda_members.get(entry.cuda.as_str())?;
            Some(KnownPair {
                cuda: &entry.cuda,
                hip_enum,
                hip_value,
                group,
                cuda_value,
            })
        })
        .collect()
}

/// HIPIFY's member pairs grouped by (HIP enum, CUDA enum): the first CUDA member for a HIP
/// value, the first HIP value for a CUDA value.
fn enum_maps(pairs: &[KnownPair<'_>], cuda_enums: &[CudaEnum]) -> EnumMaps {
    let mut maps: EnumMaps = BTreeMap::new();
    for p in pairs {
        let map = maps
            .entry((p.hip_enum.to_string(), p.group))
            .or_insert_with(|| EnumMap {
                hip: p.hip_enum.to_string(),
                cuda: format!("decltype({})", cuda_enums[p.group].members[0].0),
                to_cuda: Vec::new(),
                to_hip: Vec::new(),
            });
        let pair = || Pair {
            hip_value: p.hip_value,
            cuda_member: p.cuda.to_string(),
            cuda_value: p.cuda_value,
        };
        if !map.to_cuda.iter().any(|q| q.hip_value == p.hip_value) {
            map.to_cuda.push(pair());
        }
        if !map.to_hip.iter().any(|q| q.cuda_value == p.cuda_value) {
            map.to_hip.push(pair());
        }
    }
    maps
}

/// The CUDA values HIPIFY pairs with each HIP value, by (HIP enum, CUDA enum).
fn paired_values<'a>(pairs: &[KnownPair<'a>]) -> Paired<'a> {
    let mut paired: Paired<'_> = BTreeMap::new();
    for p in pairs {
        paired
            .entry((p.hip_enum, p.group))
            .or_default()
            .entry(p.hip_value)
            .or_default()
            .insert(p.cuda_value);
    }
    paired
}

/// Two CUDA enums of one HIP enum that number their members alike (each HIP member HIPIFY
/// pairs with members of both has the same CUDA values in each, or one's are among the
/// other's: CUDA's runtime and driver device attributes): a HIP member HIPIFY pairs only with
/// the other's member passes as this one's member of that value
/// (`hipDeviceAttributeMultiGpuBoardGroupID`, paired with `cudaDevAttrMultiGpuBoardGroupID`
/// only, is CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID).
fn add_alike_pairs(maps: &mut EnumMaps, paired: &Paired<'_>, cuda_enums: &[CudaEnum]) {
    for ((hip_enum, group), map) in maps.iter_mut() {
        let Some(mine) = paired.get(&(hip_enum.as_str(), *group)) else {
            continue;
        };
        for ((other_enum, other), theirs) in paired {
            if *other_enum != hip_enum.as_str() || other == group || !numbered_alike(mine, theirs) {
                continue;
            }
            adopt_pairs(map, mine, theirs, &cuda_enums[*group]);
        }
    }
}

/// Whether two CUDA enums' pairings of one HIP enum share a HIP value and agree on each they
/// share. (One side may pair a HIP member with more names: the driver's shared
/// `CAN_USE_STREAM_WAIT_VALUE_NOR` and `..._V1` beside the runtime's one.)
fn numbered_alike(
    mine: &BTreeMap<i64, BTreeSet<i64>>,
    theirs: &BTreeMap<i64, BTreeSet<i64>>,
) -> bool {
    let common: Vec<&i64> = mine.keys().filter(|h| theirs.contains_key(h)).collect();
    let alike = |h: &&i64| mine[*h].is_subset(&theirs[*h]) || theirs[*h].is_subset(&mine[*h]);
    !common.is_empty() && common.iter().all(alike)
}

/// Adds to `map` each HIP value only `theirs` pairs (with one CUDA value), as the member of
/// `cuda_enum` of that value.
fn adopt_pairs(
    map: &mut EnumMap,
    mine: &BTreeMap<i64, BTreeSet<i64>>,
    theirs: &BTreeMap<i64, BTreeSet<i64>>,
    cuda_enum: &CudaEnum,
) {
    for (hip_value, values) in theirs {
        if mine.contains_key(hip_value) || map.to_cuda.iter().any(|p| p.hip_value == *hip_value) {
            continue;
        }
        let found = values
            .iter()
            .find_map(|v| cuda_enum.members.iter().find(|(_, cv)| cv == v));
        if let (Some((member, value)), 1) = (found, values.len()) {
            map.to_cuda.push(Pair {
                hip_value: *hip_value,
                cuda_member: member.clone(),
                cuda_value: *value,
            });
        }
    }
}

/// A value no member of the HIP enum has, where the CUDA enum has a member of that value,
/// comes from a CUDA name HIP lacks (the cuda package gives such names CUDA's own value):
/// it passes as that member (`CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED`).
fn add_cuda_only_values(maps: &mut EnumMaps, all: &[&Library], cuda_enums: &[CudaEnum]) {
    let hip_values: HashMap<&str, BTreeSet<i64>> = all
        .iter()
        .flat_map(|l| &l.enums)
        .map(|e| (e.name.as_str(), e.members.iter().map(|(_, v)| *v).collect()))
        .collect();
    for ((hip_enum, group), map) in maps.iter_mut() {
        let Some(taken) = hip_values.get(hip_enum.as_str()) else {
            continue;
        };
        for (member, value) in &cuda_enums[*group].members {
            if !taken.contains(value) && !map.to_cuda.iter().any(|p| p.hip_value == *value) {
                map.to_cuda.push(Pair {
                    hip_value: *value,
                    cuda_member: member.clone(),
                    cuda_value: *value,
                });
            }
        }
    }
}

/// The translations between HIP's and CUDA's enums: HIPIFY's member pairs (and those the
/// spec's prefixes borrow), completed from alike CUDA enums and CUDA's own values.
fn enum_translations(
    all: &[&Library],
    hip_members: &HipMembers<'_>,
    cuda: &CudaLibrarySpec,
    table: &[Entry],
    cuda_enums: &[CudaEnum],
) -> Vec<EnumMap> {
    let cuda_members = cuda_members(cuda_enums);
    let borrowed = borrowed_entries(table, hip_members, cuda);
    let own = own_entries(cuda);
    let pairs = known_pairs(
        table.iter().chain(&borrowed).chain(&own),
        hip_members,
        &cuda_members,
    );
    let mut maps = enum_maps(&pairs, cuda_enums);
    add_alike_pairs(&mut maps, &paired_values(&pairs), cuda_enums);
    add_cuda_only_values(&mut maps, all, cuda_enums);
    maps.into_values().collect()
}

/// The CUDA candidates of each HIP function, in the table's order.
fn table_candidates(table: &[Entry]) -> HashMap<&str, Vec<String>> {
    let mut candidates: HashMap<&str, Vec<String>> = HashMap::new();
    for entry in table {
        candidates
            .entry(entry.hip.as_str())
            .or_default()
            .push(entry.cuda.clone());
    }
    candidates
}

/// The C++ type of the value `f` returns where that is not the status (`None` for the
/// status), or why it is left out.
fn returned_value(f: &crate::ir::Function, status_name: &str) -> Result<Option<String>, String> {
    match &f.ret {
        CType::Enum { name, .. } if *name == status_name => Ok(None),
        CType::Void => Err(format!("does not return {status_name}")),
        // A value (a string, a number, a struct): CUDA's result, converted.
        other => cpp_type(other)
            .map(Some)
            .ok_or_else(|| "a return type the shim cannot spell".into()),
    }
}

/// The CUDA functions to try for `f`, in order.
fn function_candidates(
    f: &crate::ir::Function,
    cuda: &CudaLibrarySpec,
    candidates: &HashMap<&str, Vec<String>>,
) -> Vec<Candidate> {
    // HIPIFY names hipBLAS's `_v2` functions (hipComplex) for the complex ones; the
    // plain name takes the same arguments with layout-identical types.
    let v2 = format!("{}_v2", f.name);
    // The spec's candidates with zeroed parameters first: where CUDA's signature takes
    // them (CUDA 13's), HIPIFY's plain call could also compile, defaulted trailing
    // parameters hiding that the arguments land in the wrong places (a stream as flags).
    let mut cands: Vec<Candidate> = cuda
        .null_args
        .get(&f.name)
        .into_iter()
        .flatten()
        .map(|(c, nulls)| (c.clone(), nulls.clone()))
        .collect();
    if let Some(c) = cuda.prefer.get(&f.name) {
        cands.push((c.clone(), Vec::new()));
    }
    cands.extend(
        candidates
            .get(f.name.as_str())
            .or_else(|| candidates.get(v2.as_str()))
            .into_iter()
            .flatten()
            .map(|c| (c.clone(), Vec::new())),
    );
    if let Some(other) = cuda.same_as.get(&f.name) {
        let same = candidates.get(other.as_str()).into_iter().flatten();
        cands.extend(same.map(|c| (c.clone(), Vec::new())));
    }
    cands
}

/// The wrapper of `f` calling its first CUDA candidate, with the others, or why it is left out.
fn wanted_wrapper(
    f: &crate::ir::Function,
    cuda: &CudaLibrarySpec,
    candidates: &HashMap<&str, Vec<String>>,
    status_name: &str,
) -> Result<Wanted, String> {
    let value = returned_value(f, status_name)?;
    let params = f
        .params
        .iter()
        .map(|p| cpp_type(&p.ty))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| "a parameter type the shim cannot spell".to_string())?;
    let mut cands = function_candidates(f, cuda, candidates);
    if cands.is_empty() {
        return Err("HIPIFY maps no CUDA function to it".into());
    }
    let (first, nulls) = cands.remove(0);
    let mut w = Wrapper {
        name: f.name.clone(),
        symbol: f.symbol.clone(),
        params,
        cuda: String::new(),
        single: f.params.iter().map(|p| single_struct(f, &p.name)).collect(),
        count: f.params.iter().map(|p| count_of(f, &p.name)).collect(),
        lookup: value.is_some() && f.is_enum_lookup(),
        value,
        order: Vec::new(),
        at: Vec::new(),
        cuda_type: None,
    };
    w.calling(first, &nulls);
    Ok((w, cands))
}

/// The wrappers of `lib`'s functions not in `exclude` (exported by another source of the same
/// shim); those that cannot have one go to `left_out` with the reason.
fn wanted_wrappers(
    lib: &Library,
    cuda: &CudaLibrarySpec,
    table: &[Entry],
    exclude: &BTreeSet<String>,
    status_name: &str,
    left_out: &mut Vec<(String, String)>,
) -> Vec<Wanted> {
    let candidates = table_candidates(table);
    let mut wanted = Vec::new();
    for f in lib.functions.iter().filter(|f| !exclude.contains(&f.name)) {
        match wanted_wrapper(f, cuda, &candidates, status_name) {
            Ok(w) => wanted.push(w),
            Err(why) => left_out.push((f.name.clone(), why)),
        }
    }
    wanted
}

/// Whether C++ can take `name` as a member name.
fn plain_name(name: &str) -> bool {
    name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The template's records: each of `records` (name -> size, alignment) with its member-copy
/// fields and layout checks, from the first record of its name in `all`.
fn record_decls(all: &[&Library], records: BTreeMap<String, (u64, u64)>) -> Vec<RecordDecl> {
    let copyable = copyable_records(all);
    let mut layouts: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in all.iter().flat_map(|l| &l.records) {
        layouts
            .entry(r.name.clone())
            .or_insert_with(|| layout_checks(r));
    }
    records
        .into_iter()
        .map(|(name, (size, align))| RecordDecl {
            fields: copyable.get(&name).cloned().flatten(),
            layout: layouts.get(&name).cloned().unwrap_or_default(),
            name,
            size,
            align,
        })
        .collect()
}

/// Every field name of the records of `all` C++ can take, once, sorted.
fn member_names(all: &[&Library]) -> Vec<String> {
    let names: BTreeSet<String> = all
        .iter()
        .flat_map(|l| &l.records)
        .flat_map(|r| &r.fields)
        .filter(|f| plain_name(&f.name))
        .map(|f| f.name.clone())
        .collect();
    names.into_iter().collect()
}

/// Generates the shim of `lib` (whose IR imports `deps`, e.g. hip's) over the CUDA library
/// `cuda`, with HIPIFY's `table`.
pub fn generate(
    lib: &Library,
    deps: &[Library],
    cuda: &CudaLibrarySpec,
    status_enum: &str,
    table: &[Entry],
    exclude: &BTreeSet<String>,
    files: &ShimFiles<'_>,
) -> Result<CudaShim> {
    let (cuda_includes, templates) = (files.cuda_includes, files.templates);
    let all: Vec<&Library> = std::iter::once(lib).chain(deps.iter()).collect();
    let hip = hip_decls(&all);
    let status_name = status_enum_name(lib, status_enum)?;
    let CudaDecls {
        enums: cuda_enums,
        overloaded,
    } = cuda_decls(&cuda.headers, cuda_includes)?;
    let maps = enum_translations(&all, &hip.members, cuda, table, &cuda_enums);
    let mut left_out = Vec::new();
    let wanted = wanted_wrappers(lib, cuda, table, exclude, &status_name, &mut left_out);

    let mut env = minijinja::Environment::new();
    env.set_loader(minijinja::path_loader(templates));
    let tmpl = env.get_template("cuda_shim.cpp.j2")?;
    let model = Model {
        member_names: member_names(&all),
        library: lib.name.clone(),
        cuda_headers: cuda.headers.clone(),
        enums: hip
            .enums
            .into_iter()
            .map(|(name, underlying)| EnumDecl { name, underlying })
            .collect(),
        records: record_decls(&all, hip.records),
        handles: hip.handles.into_iter().collect(),
        maps,
        cuda_member_tag: crate::cuda::CUDA_MEMBER_TAG,
        status: status_model(cuda, &status_name, &hip.members)?,
        wrappers: Vec::new(),
        left_out: Vec::new(),
        lookup_helper: crate::backends::cpp_shim::detail::LOOKUP,
        location: location_model(&all, cuda, &hip.members),
    };
    let check = ShimCheck {
        library: &lib.name,
        tmpl: &tmpl,
        overloaded: &overloaded,
        cuda_includes,
    };
    check.run(model, wanted, left_out)
}

/// The libclang check of a shim: a wrapper that does not compile tries its next CUDA
/// candidate, and is left out when none is left.
struct ShimCheck<'a> {
    library: &'a str,
    tmpl: &'a minijinja::Template<'a, 'a>,
    /// The C function type of each CUDA function C++ overloads (`CudaDecls`).
    overloaded: &'a HashMap<String, String>,
    cuda_includes: &'a [PathBuf],
}

impl ShimCheck<'_> {
    /// Checks `wanted` in rounds until the shim compiles, and renders it.
    fn run(
        &self,
        mut model: Model,
        mut wanted: Vec<Wanted>,
        mut left_out: Vec<(String, String)>,
    ) -> Result<CudaShim> {
        let path = std::env::temp_dir().join(format!(
            "hipgen-cuda-shim-{}-{}.cpp",
            self.library,
            std::process::id()
        ));
        for round in 0..16 {
            model.wrappers = self.typed(&wanted);
            let source = self.tmpl.render(minijinja::context! { m => &model })?;
            std::fs::write(&path, &source)?;
            let errors = crate::parse::error_lines(&path, &args(self.cuda_includes))?;
            if errors.is_empty() {
                let _ = std::fs::remove_file(&path);
                return self.finish(model, left_out);
            }
            let bad = failing_wrappers(&source, errors)?;
            if round == 15 {
                wanted.retain(|(w, _)| bad.contains_key(&w.name));
                break;
            }
            wanted = next_candidates(wanted, &bad, &mut left_out);
        }
        bail!(
            "the {} shim still has errors after 16 rounds: {}",
            self.library,
            wanted
                .iter()
                .map(|(w, _)| w.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }

    /// The wrappers of `wanted`, each with the C function type of its CUDA function where
    /// C++ overloads it.
    fn typed(&self, wanted: &[Wanted]) -> Vec<Wrapper> {
        wanted
            .iter()
            .map(|(w, _)| Wrapper {
                cuda_type: self.overloaded.get(&w.cuda).cloned(),
                ..w.clone()
            })
            .collect()
    }

    /// The shim of the wrappers that compile, with what was left out, sorted.
    fn finish(&self, mut model: Model, mut left_out: Vec<(String, String)>) -> Result<CudaShim> {
        left_out.sort();
        model.left_out = left_out
            .iter()
            .map(|(name, why)| LeftOut {
                name: name.clone(),
                why: why.clone(),
            })
            .collect();
        Ok(CudaShim {
            source: self.tmpl.render(minijinja::context! { m => &model })?,
            exported: model.wrappers.iter().map(|w| w.name.clone()).collect(),
            left_out,
        })
    }
}

/// The wrappers of `source` libclang's `errors` fall in (each starts at its
/// `// wrapper: NAME` line), each with its first error's message.
fn failing_wrappers(source: &str, errors: Vec<(u32, String)>) -> Result<BTreeMap<String, String>> {
    let starts: Vec<(u32, &str)> = source
        .lines()
        .enumerate()
        .filter_map(|(i, l)| l.strip_prefix("// wrapper: ").map(|n| (i as u32 + 1, n)))
        .collect();
    let mut bad: BTreeMap<String, String> = BTreeMap::new();
    for (line, text) in errors {
        let Some((_, name)) = starts.iter().rev().find(|(l, _)| *l <= line) else {
            bail!("the shim's prelude does not compile: {text}");
        };
        // The message without the temporary file's name.
        let first = text.lines().next().unwrap_or_default();
        let why = first.split_once(" error: ").map_or(first, |(_, w)| w);
        bad.entry(name.to_string())
            .or_insert_with(|| why.to_string());
    }
    Ok(bad)
}

/// The wrappers for the next round: each `bad` one calls its next candidate, or goes to
/// `left_out` when it has none left.
fn next_candidates(
    wanted: Vec<Wanted>,
    bad: &BTreeMap<String, String>,
    left_out: &mut Vec<(String, String)>,
) -> Vec<Wanted> {
    let mut kept = Vec::new();
    for (mut w, mut rest) in wanted {
        match bad.get(&w.name) {
            None => kept.push((w, rest)),
            Some(_) if !rest.is_empty() => {
                let (next, nulls) = rest.remove(0);
                w.calling(next, &nulls);
                kept.push((w, rest));
            }
            Some(why) => left_out.push((w.name.clone(), format!("does not compile: {why}"))),
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The demo library's shim over the CUDA fixture (`generator/tests/fixtures/cuda`: its
    /// header and HIPIFY-style table), against `generator/tests/expectations/shim/`
    /// (`HIPGEN_BLESS=1` rewrites it): the C++ source, what it exports and what it leaves out
    /// and why, without CUDA installed.
    #[test]
    fn demo_shim_renders_as_expected() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let fixtures = root.join("tests/fixtures");
        let spec = crate::spec::Spec::load(&fixtures.join("demo.yaml")).unwrap();
        let mut lib =
            crate::parse::parse_library(&spec, &fixtures.join("include"), "0.0.0").unwrap();
        crate::bind::apply(&spec, &mut lib).unwrap();
        let cuda: CudaLibrarySpec = serde_yaml::from_str(
            "headers: [cudemo.h]\n\
             status: {unsupported: demoErrorBad, invalid: demoErrorBad, unknown: demoErrorBad}",
        )
        .unwrap();
        let hipify = std::fs::read_to_string(fixtures.join("cuda/hipify-perl")).unwrap();
        let table =
            crate::cuda::aliases::read_hipify(&hipify, &["simpleSubstitutions".into()]).unwrap();
        let includes = [fixtures.join("cuda/headers")];
        let files = ShimFiles {
            cuda_includes: &includes,
            templates: &root.join("../templates"),
        };
        let shim = generate(
            &lib,
            &[],
            &cuda,
            "demoStatus_t",
            &table,
            &BTreeSet::new(),
            &files,
        )
        .unwrap();
        let mut report = format!("exported: {}\n", shim.exported.join(", "));
        for (name, why) in &shim.left_out {
            report += &format!("left out: {name}: {why}\n");
        }
        let expected = root.join("tests/expectations/shim");
        for (file, text) in [("demo_cuda.cpp", &shim.source), ("demo_cuda.txt", &report)] {
            let path = expected.join(file);
            if std::env::var_os("HIPGEN_BLESS").is_some() {
                std::fs::create_dir_all(&expected).unwrap();
                std::fs::write(&path, text).unwrap();
            }
            let want = std::fs::read_to_string(&path).unwrap();
            assert!(
                *text == want,
                "{file} differs from {} (HIPGEN_BLESS=1 rewrites it)",
                path.display()
            );
        }
    }

    fn int(size: u8, signed: bool) -> CType {
        CType::Int {
            size,
            signed,
            is_char: false,
        }
    }

    #[test]
    fn hip_types_are_spelled_in_their_namespace() {
        let handle = CType::Handle {
            name: "ihipStream_t".into(),
        };
        assert_eq!(cpp_type(&handle).unwrap(), "h::ihipStream_t *");
        let out_handle = CType::Pointer {
            pointee: Box::new(handle),
            is_const: false,
        };
        assert_eq!(cpp_type(&out_handle).unwrap(), "h::ihipStream_t * *");
        let const_floats = CType::Pointer {
            pointee: Box::new(CType::Float { size: 4 }),
            is_const: true,
        };
        assert_eq!(cpp_type(&const_floats).unwrap(), "float const *");
        assert_eq!(cpp_type(&int(8, false)).unwrap(), "std::uint64_t");
        let e = CType::Enum {
            name: "hipblasOperation_t".into(),
            size: 4,
            signed: false,
        };
        assert_eq!(cpp_type(&e).unwrap(), "h::hipblasOperation_t");
        // A parameter the shim cannot spell leaves the function out.
        let long_double = CType::Float { size: 16 };
        assert!(cpp_type(&long_double).is_none());
        assert!(cpp_type(&CType::Unsupported {
            spelling: "__m128".into()
        })
        .is_none());
    }
}
