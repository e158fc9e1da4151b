//! Which CUDA structs the cuda package cannot present as HIP's class.
//!
//! cuda-python programs reach struct fields by name, so a HIP struct with every field name of
//! CUDA's serves (its layout may differ: HIP's functions read HIP's layout, and the cuda
//! package only adds cuda-python's presentation to HIP's class). One whose HIP counterpart
//! lacks a field (`clusterDim` of `CUlaunchAttributeValue`), holds a differently shaped
//! struct under a name (`copyParams` of `CUDA_MEMCPY_NODE_PARAMS`) or an array of another
//! length is *reshaped*: the cuda package gives it CUDA's own layout and converts field by
//! field where a HIP function takes or returns it.

use crate::ir::{CType, CudaFieldType, CudaRecord, CudaTypes, Record};
use std::collections::{BTreeMap, HashMap};

/// HIP's records, by the CUDA names HIPIFY gives them and by their own names.
#[derive(Default)]
pub struct HipRecords<'a> {
    by_cuda: HashMap<&'a str, &'a Record>,
    by_name: HashMap<&'a str, &'a Record>,
}

impl<'a> HipRecords<'a> {
    /// Indexes HIP's records of `libs` by name and alias.
    pub fn new(records: impl IntoIterator<Item = &'a Record>) -> Self {
        let mut by_name = HashMap::new();
        for r in records {
            by_name.insert(r.name.as_str(), r);
            for a in &r.aliases {
                by_name.insert(a.as_str(), r);
            }
        }
        HipRecords {
            by_cuda: HashMap::new(),
            by_name,
        }
    }

    /// Records that CUDA record `cuda` is HIP record `hip` (HIPIFY's table).
    pub fn map(&mut self, cuda: &'a str, hip: &str) {
        if let Some(r) = self.by_name.get(hip) {
            self.by_cuda.insert(cuda, r);
        }
    }
}

/// Each reshaped CUDA record (by its cuda-python name) with why: the fields HIP's
/// counterpart lacks or holds in another shape.
pub fn reshaped(types: &CudaTypes, hip: &HipRecords<'_>) -> BTreeMap<String, Vec<String>> {
    let by_name: HashMap<&str, &CudaRecord> =
        types.records.iter().map(|r| (r.name.as_str(), r)).collect();
    let mut memo = HashMap::new();
    let mut out = BTreeMap::new();
    for r in types.records.iter().filter(|r| !r.anonymous) {
        let names = std::iter::once(&r.name).chain(&r.tag).chain(&r.aliases);
        let Some(h) = names.filter_map(|n| hip.by_cuda.get(n.as_str())).next() else {
            continue; // CUDA's own struct: the cuda package has its layout already
        };
        let why = differences(r, h, &by_name, hip, &mut memo);
        if !why.is_empty() {
            out.insert(r.name.clone(), why);
        }
    }
    out
}

/// Why CUDA record `c` and HIP record `h` differ by name (empty if they do not).
fn differences(
    c: &CudaRecord,
    h: &Record,
    cuda: &HashMap<&str, &CudaRecord>,
    hip: &HipRecords<'_>,
    memo: &mut HashMap<(String, String), bool>,
) -> Vec<String> {
    let mut why = Vec::new();
    for f in &c.fields {
        let Some(hf) = h.fields.iter().find(|hf| hf.name == f.name) else {
            why.push(format!("HIP lacks {}", f.name));
            continue;
        };
        if !same_shape(&f.ty, &hf.ty, cuda, hip, memo) {
            why.push(format!("{} differs", f.name));
        }
    }
    why
}

/// Whether a CUDA field type and a HIP one present the same names.
fn same_shape(
    c: &CudaFieldType,
    h: &CType,
    cuda: &HashMap<&str, &CudaRecord>,
    hip: &HipRecords<'_>,
    memo: &mut HashMap<(String, String), bool>,
) -> bool {
    match (c, h) {
        (CudaFieldType::Record { name }, CType::Record { name: hn }) => {
            let (Some(cr), Some(hr)) = (cuda.get(name.as_str()), hip.by_name.get(hn.as_str()))
            else {
                return true; // a struct neither side describes: nothing to compare
            };
            let key = (name.clone(), hn.clone());
            if let Some(&same) = memo.get(&key) {
                return same;
            }
            memo.insert(key.clone(), true); // a struct that holds itself (through a union)
            let same = differences(cr, hr, cuda, hip, memo).is_empty();
            memo.insert(key, same);
            same
        }
        (CudaFieldType::Record { .. }, _) => false,
        (CudaFieldType::Array { elem, len }, CType::Array { elem: he, len: hl }) => {
            len == hl && same_shape(elem, he, cuda, hip, memo)
        }
        (CudaFieldType::Array { .. }, _) => false,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{CudaField, Field};

    fn cuda(name: &str, fields: &[(&str, CudaFieldType)]) -> CudaRecord {
        CudaRecord {
            name: name.into(),
            tag: None,
            aliases: vec![],
            module: "runtime".into(),
            anonymous: false,
            size: 8,
            fields: fields
                .iter()
                .map(|(n, t)| CudaField {
                    name: n.to_string(),
                    offset: 0,
                    ty: t.clone(),
                    kernel_params: false,
                })
                .collect(),
        }
    }

    fn hip(name: &str, fields: &[(&str, CType)]) -> Record {
        Record {
            name: name.into(),
            aliases: vec![],
            is_union: false,
            anonymous: false,
            size: 8,
            align: 8,
            fields: fields
                .iter()
                .map(|(n, t)| Field {
                    name: n.to_string(),
                    ty: t.clone(),
                    spelling: String::new(),
                    offset_bits: 0,
                    bit_width: None,
                    default: None,
                })
                .collect(),
            doc: Default::default(),
        }
    }

    fn int() -> CudaFieldType {
        CudaFieldType::Int {
            size: 4,
            signed: true,
        }
    }

    fn hint() -> CType {
        CType::Int {
            size: 4,
            signed: true,
            is_char: false,
        }
    }

    #[test]
    fn names_decide_not_layout() {
        // Same names in another order (HIP sorts some structs' fields): not reshaped.
        let types = CudaTypes {
            records: vec![
                cuda("cudaMemsetParams", &[("dst", int()), ("pitch", int())]),
                cuda(
                    "cudaLaunchAttributeValue",
                    &[("priority", int()), ("clusterDim", int())],
                ),
                cuda(
                    "cudaNode",
                    &[(
                        "kernel",
                        CudaFieldType::Record {
                            name: "cudaLaunchAttributeValue".into(),
                        },
                    )],
                ),
            ],
            ..Default::default()
        };
        let records = [
            hip("hipMemsetParams", &[("pitch", hint()), ("dst", hint())]),
            hip("hipLaunchAttributeValue", &[("priority", hint())]),
            hip(
                "hipNode",
                &[(
                    "kernel",
                    CType::Record {
                        name: "hipLaunchAttributeValue".into(),
                    },
                )],
            ),
        ];
        let mut h = HipRecords::new(&records);
        h.map("cudaMemsetParams", "hipMemsetParams");
        h.map("cudaLaunchAttributeValue", "hipLaunchAttributeValue");
        h.map("cudaNode", "hipNode");
        let r = reshaped(&types, &h);
        assert_eq!(
            r.keys().collect::<Vec<_>>(),
            ["cudaLaunchAttributeValue", "cudaNode"]
        );
        assert_eq!(r["cudaLaunchAttributeValue"], ["HIP lacks clusterDim"]);
        assert_eq!(r["cudaNode"], ["kernel differs"]);
    }
}
