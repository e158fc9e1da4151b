//! Whether a function has the same C ABI in two releases' IRs.
//!
//! The NVIDIA shim implements HIP functions with the inline code of one release's
//! `nvidia_detail` headers (the newest that ships them) while the bindings may be of a newer
//! release. A wrapper from the older headers may serve the newer bindings only where the
//! call means the same bytes: the same symbol, the same parameter and return types, records
//! of the same layout (field by field, recursively), and enums whose members keep the values
//! the older release gave them (the older code translates those values).

use crate::ir::{CType, Enum, Function, Library, Record};
use std::collections::{HashMap, HashSet};

/// Compares types of `old` and `new` (the IRs they come from), remembering records done.
struct Compare<'a> {
    old: &'a Library,
    new: &'a Library,
    records_done: HashSet<String>,
    /// Enum constants as the code that runs compiles them (HIP's NVIDIA headers define
    /// some of HIP's enums anew, numbered from 0: `hipMemoryAdvise`).
    compiled: Option<&'a HashMap<String, i64>>,
}

fn record<'a>(lib: &'a Library, name: &str) -> Option<&'a Record> {
    lib.records
        .iter()
        .find(|r| r.name == name || r.aliases.iter().any(|a| a == name))
}

fn enum_ty<'a>(lib: &'a Library, name: &str) -> Option<&'a Enum> {
    lib.enums
        .iter()
        .find(|e| e.name == name || e.aliases.iter().any(|a| a == name))
}

impl Compare<'_> {
    /// `Err` names the first difference.
    fn types(&mut self, old: &CType, new: &CType) -> Result<(), String> {
        match (old, new) {
            (CType::Pointer { pointee: a, .. }, CType::Pointer { pointee: b, .. }) => {
                self.types(a, b)
            }
            (CType::Array { elem: a, len: m }, CType::Array { elem: b, len: n }) if m == n => {
                self.types(a, b)
            }
            (CType::Record { name: a }, CType::Record { name: b }) => self.records(a, b),
            (
                CType::Enum {
                    name: a,
                    size: s,
                    signed: x,
                },
                CType::Enum {
                    name: b,
                    size: t,
                    signed: y,
                },
            ) if s == t && x == y => self.enums(a, b),
            // Opaque handles are pointers whatever they point at (HIP 6 made `hipArray_t`, a
            // pointer to a struct no function reads through, a handle).
            (CType::Handle { .. }, CType::Handle { .. })
            | (CType::Handle { .. }, CType::Pointer { .. })
            | (CType::Pointer { .. }, CType::Handle { .. }) => Ok(()),
            (CType::Int { size: a, .. }, CType::Int { size: b, .. }) if a == b => Ok(()),
            (a, b) if a == b => Ok(()),
            (a, b) => Err(format!("{} became {}", spelled(a), spelled(b))),
        }
    }

    fn records(&mut self, a: &str, b: &str) -> Result<(), String> {
        if !self.records_done.insert(format!("{a}\u{0}{b}")) {
            return Ok(());
        }
        let (Some(ra), Some(rb)) = (record(self.old, a), record(self.new, b)) else {
            return Err(format!("struct {a} is not in both releases"));
        };
        if ra.size != rb.size || ra.align != rb.align || ra.is_union != rb.is_union {
            return Err(format!(
                "struct {a} is {} bytes, then {} bytes ({b})",
                ra.size, rb.size
            ));
        }
        if ra.fields.len() != rb.fields.len() {
            return Err(format!("struct {a} has other fields in {b}"));
        }
        for (fa, fb) in ra.fields.iter().zip(&rb.fields) {
            if fa.offset_bits != fb.offset_bits || fa.bit_width != fb.bit_width {
                return Err(format!("{a}.{} moved", fa.name));
            }
            self.types(&fa.ty, &fb.ty)
                .map_err(|e| format!("{a}.{}: {e}", fa.name))?;
        }
        Ok(())
    }

    /// Every value the newer enum has must mean what it meant in the older: the older code
    /// translates it. Members gone or added change nothing the older code reads wrongly.
    fn enums(&self, a: &str, b: &str) -> Result<(), String> {
        let (Some(ea), Some(eb)) = (enum_ty(self.old, a), enum_ty(self.new, b)) else {
            return Err(format!("enum {a} is not in both releases"));
        };
        for (member, value) in &eb.members {
            let was: Vec<&str> = ea
                .members
                .iter()
                .filter(|(_, v)| v == value)
                .map(|(m, _)| m.as_str())
                .collect();
            let same_name = |m: &&str| {
                is_sentinel(m)
                    || eb.members.iter().any(|(n, v)| {
                        v == value && (n == m || renamed(m, n) || plain(n).contains("unused"))
                    })
            };
            if !was.is_empty() && !was.iter().any(same_name) {
                return Err(format!("{value} of {a} was {}, then {member}", was[0]));
            }
            if let Some((_, v)) = ea.members.iter().find(|(m, _)| m == member) {
                if v != value && !is_sentinel(member) {
                    return Err(format!("{member} was {v}, then {value}"));
                }
            }
            if let Some(v) = self.compiled.and_then(|c| c.get(member)) {
                if v != value && !is_sentinel(member) {
                    return Err(format!(
                        "{member} is {value} in the bindings, {v} in the headers compiled"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// A member's name without its spelling: `HIPRTC_JIT_INPUT_CUBIN` and `hipJitInputCubin`
/// (HIP 6 renamed hiprtc's members after HIP's) are one member.
fn plain(member: &str) -> String {
    let lower: String = member
        .chars()
        .filter(|c| *c != '_')
        .collect::<String>()
        .to_lowercase();
    let rest = lower
        .strip_prefix("hiprtc")
        .or_else(|| lower.strip_prefix("hip"));
    rest.unwrap_or(&lower).to_string()
}

/// Whether member `a` of one release and `b` of the other (of one value) name one thing:
/// their plain names end alike for most of the shorter one (`HIPRTC_JIT_MAX_REGISTERS`,
/// `hipJitOptionMaxRegisters`; `hipKernelNodeAttributeAccessPolicyWindow`,
/// `hipLaunchAttributeAccessPolicyWindow`), unlike a renumbering (`hipMemoryTypeHost`,
/// `hipMemoryTypeUnregistered`).
fn renamed(a: &str, b: &str) -> bool {
    let (a, b) = (plain(a), plain(b));
    let common = a
        .chars()
        .rev()
        .zip(b.chars().rev())
        .take_while(|(x, y)| x == y)
        .count();
    common * 5 >= a.len().min(b.len()) * 3
}

/// A member counting the others (`hipGraphNodeTypeCount`), which no call takes.
fn is_sentinel(member: &str) -> bool {
    member.ends_with("Count") || member.ends_with("NumOptions") || member.ends_with("_MAX")
}

fn spelled(t: &CType) -> String {
    match t {
        CType::Pointer { pointee, .. } => format!("{} *", spelled(pointee)),
        CType::Record { name } | CType::Handle { name } | CType::Enum { name, .. } => name.clone(),
        CType::Int { size, signed, .. } => {
            format!("{}int{}", if *signed { "" } else { "u" }, size * 8)
        }
        CType::Array { elem, len } => format!("{}[{len}]", spelled(elem)),
        other => format!("{other:?}").to_lowercase(),
    }
}

/// Whether `f` of `new` has the ABI its namesake in `old` has; `Err` says what differs.
/// `compiled` holds the enum constants of the headers whose code runs (when known): every
/// enum member the call passes must have the value the bindings give it there too.
pub fn same(
    old: &Library,
    new: &Library,
    f: &Function,
    compiled: Option<&HashMap<String, i64>>,
) -> Result<(), String> {
    let Some(o) = old.functions.iter().find(|o| o.name == f.name) else {
        return Err(format!("not in HIP {}", old.release));
    };
    if o.symbol != f.symbol {
        return Err(format!("its symbol is {} in HIP {}", o.symbol, old.release));
    }
    if o.params.len() != f.params.len() {
        return Err(format!(
            "it takes {} arguments in HIP {}",
            o.params.len(),
            old.release
        ));
    }
    let mut c = Compare {
        old,
        new,
        records_done: HashSet::new(),
        compiled,
    };
    let why = |e: String| format!("HIP {} differs: {e}", old.release);
    c.types(&o.ret, &f.ret).map_err(why)?;
    for (a, b) in o.params.iter().zip(&f.params) {
        c.types(&a.ty, &b.ty).map_err(why)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lib(release: &str, json: &str) -> Library {
        let mut l: Library = serde_json::from_str(json).unwrap();
        l.release = release.into();
        l
    }

    const BASE: &str = r#"{"name":"hip","release":"","headers":[],"handles":[],"pointer_aliases":[],
        "constants":[],"skipped":[],
        "functions":[{"name":"f","symbol":"f","params":[{"name":"p","spelling":"S *",
          "ty":{"kind":"pointer","pointee":{"kind":"record","name":"S"}},"usage":"pointer"},
          {"name":"k","spelling":"E","ty":{"kind":"enum","name":"E","size":4,"signed":false},"usage":"in"}],
          "ret":{"kind":"int","size":4,"signed":true}}],
        "enums":[{"name":"E","size":4,"signed":false,"members":[["A",0],["B",1]]}],
        "records":[{"name":"S","is_union":false,"size":8,"align":4,"fields":[
          {"name":"x","ty":{"kind":"int","size":4,"signed":true},"offset_bits":0},
          {"name":"y","ty":{"kind":"int","size":4,"signed":true},"offset_bits":32}]}]}"#;

    #[test]
    fn same_layout_and_grown_enum_keep_the_abi() {
        let old = lib("5.7.1", BASE);
        let grown = BASE.replace(r#"["B",1]]"#, r#"["B",1],["C",2]]"#);
        let new = lib("6.4.3", &grown);
        assert_eq!(same(&old, &new, &new.functions[0], None), Ok(()));
    }

    #[test]
    fn a_struct_that_grew_or_a_renumbered_enum_does_not() {
        let old = lib("5.7.1", BASE);
        let bigger = BASE.replace(r#""size":8,"align":4"#, r#""size":16,"align":4"#);
        let new = lib("6.4.3", &bigger);
        let e = same(&old, &new, &new.functions[0], None).unwrap_err();
        assert!(e.contains("struct S is 8 bytes, then 16"), "{e}");
        let renumbered = BASE.replace(r#"["B",1]"#, r#"["B",5]"#);
        let new = lib("6.4.3", &renumbered);
        let e = same(&old, &new, &new.functions[0], None).unwrap_err();
        assert!(e.contains("B was 1, then 5"), "{e}");
        let renamed = BASE.replace(r#"["B",1]"#, r#"["D",1]"#);
        let new = lib("6.4.3", &renamed);
        let e = same(&old, &new, &new.functions[0], None).unwrap_err();
        assert!(e.contains("1 of E was B, then D"), "{e}");
        // HIP's NVIDIA headers number the enum from 0 (hipMemoryAdvise): the value the
        // bindings pass would mean another member there.
        let compiled = HashMap::from([("A".to_string(), 0), ("B".to_string(), 0)]);
        let e = same(&old, &old, &old.functions[0], Some(&compiled)).unwrap_err();
        assert!(
            e.contains("B is 1 in the bindings, 0 in the headers compiled"),
            "{e}"
        );
        let compiled = HashMap::from([("A".to_string(), 0), ("B".to_string(), 1)]);
        assert_eq!(same(&old, &old, &old.functions[0], Some(&compiled)), Ok(()));
        let resym = BASE.replace(r#""symbol":"f""#, r#""symbol":"fR0600""#);
        let new = lib("6.4.3", &resym);
        assert!(same(&old, &new, &new.functions[0], None)
            .unwrap_err()
            .contains("its symbol is f"));
    }
}
