//! The wheel's version as `PACKAGE_VERSION` (see the `package-version` crate).

fn main() {
    package_version::emit();
}
