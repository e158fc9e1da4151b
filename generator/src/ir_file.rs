//! IR files on disk: `<name>.ir.json.gz` beside the generated code.
//!
//! The IR is gzip-compressed pretty JSON: 30 times smaller than the text (three carried
//! releases' IRs are 1.2 MB instead of 36 MB, which keeps the checkout small enough to travel),
//! and `zcat` still shows it line by line. Writing is deterministic (no timestamp, no file name
//! in the header) so a regenerated release is byte-identical. Reading also takes plain JSON,
//! so `hipgen diff` compares IRs written by older hipgen.

use anyhow::{Context, Result};
use flate2::{read::GzDecoder, Compression, GzBuilder};
use serde::{de::DeserializeOwned, Serialize};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The IR file of `name` in `dir`.
pub fn path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.ir.json.gz"))
}

/// Writes `value` as gzip-compressed pretty JSON (only where the file's bytes change).
pub fn write<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value)? + "\n";
    // GzBuilder's header has mtime 0 and no name unless asked: the bytes depend on the IR only.
    let mut gz = GzBuilder::new().write(Vec::new(), Compression::best());
    gz.write_all(text.as_bytes())?;
    crate::output::write_if_changed(path, gz.finish()?)
        .with_context(|| format!("writing {}", path.display()))
}

/// Reads an IR file, gzip-compressed or plain JSON.
pub fn read<T: DeserializeOwned>(path: &Path) -> Result<T> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let text = if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut text = String::new();
        GzDecoder::new(&bytes[..])
            .read_to_string(&mut text)
            .with_context(|| format!("decompressing {}", path.display()))?;
        text
    } else {
        String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8", path.display()))?
    };
    serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_is_deterministic_and_reads_plain_json() {
        let dir = std::env::temp_dir().join(format!("hipgen-ir-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let value = serde_json::json!({"name": "hip", "functions": [1, 2, 3]});
        let (a, b) = (path(&dir, "a"), path(&dir, "b"));
        write(&a, &value).unwrap();
        write(&b, &value).unwrap();
        assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
        assert_eq!(read::<serde_json::Value>(&a).unwrap(), value);
        let plain = dir.join("plain.ir.json");
        std::fs::write(&plain, value.to_string()).unwrap();
        assert_eq!(read::<serde_json::Value>(&plain).unwrap(), value);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
