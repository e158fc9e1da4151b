//! Writing generated files.

use std::path::Path;

/// Writes `contents` to `path` unless the file holds exactly that already: an output that did
/// not change keeps its modification time, so cargo does not build the extensions from it again.
pub fn write_if_changed(path: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> std::io::Result<()> {
    let (path, contents) = (path.as_ref(), contents.as_ref());
    if std::fs::read(path).is_ok_and(|old| old == contents) {
        return Ok(());
    }
    std::fs::write(path, contents)
}
