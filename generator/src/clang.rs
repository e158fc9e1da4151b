//! Safe wrapper around the parts of libclang that hipgen uses.
//!
//! This is the only module that calls clang-sys: everything else sees `TranslationUnit`,
//! `Cursor`, `Type` and plain Rust values.

// clang-sys names its constants after libclang's C enumerators.
#![allow(non_upper_case_globals)]

use anyhow::{bail, Context, Result};
use clang_sys::*;
use std::ffi::{CStr, CString};
use std::os::raw::{c_int, c_uint};
use std::path::Path;
use std::ptr;

/// Converts and frees a libclang string.
fn take_string(s: CXString) -> String {
    // SAFETY: `s` comes from libclang and is disposed exactly once here.
    unsafe {
        let c = clang_getCString(s);
        let out = if c.is_null() {
            String::new()
        } else {
            CStr::from_ptr(c).to_string_lossy().into_owned()
        };
        clang_disposeString(s);
        out
    }
}

/// Where Debian installs libclang 15, whose reading of the headers `bindings/` holds.
const LIBCLANG_15: &str = "/usr/lib/llvm-15/lib";

/// Loads libclang once per thread (clang-sys's `runtime` feature opens it with dlopen).
///
/// libclang 15 unless `LIBCLANG_PATH` names another: clang-sys would take the newest installed,
/// and libclang 19 reads some declarations differently (an opaque struct's typedef, the
/// comment a declaration takes), so the generated code would depend on what else the machine
/// has installed (`clang-19` for tools/tsan.sh, say).
pub fn load_libclang() -> Result<()> {
    if is_loaded() {
        return Ok(());
    }
    static PIN: std::sync::Once = std::sync::Once::new();
    PIN.call_once(|| {
        // The library itself, not just the folder (other llvm-15 packages make the folder).
        let has_libclang = std::fs::read_dir(LIBCLANG_15).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("libclang"))
        });
        if std::env::var_os("LIBCLANG_PATH").is_none() && has_libclang {
            std::env::set_var("LIBCLANG_PATH", LIBCLANG_15);
        }
    });
    load().map_err(|e| {
        anyhow::anyhow!(
            "{e}\nInstall libclang (Debian: apt-get install libclang-15-dev) or set LIBCLANG_PATH"
        )
    })
}

/// A parsed header together with the index that owns it.
pub struct TranslationUnit {
    /// The libclang index; disposed after the unit.
    index: CXIndex,
    /// The parsed unit.
    tu: CXTranslationUnit,
}

impl TranslationUnit {
    /// Parses `file` with the given compiler arguments, keeping macro definitions.
    pub fn parse(file: &Path, args: &[String]) -> Result<Self> {
        Self::parse_flags(file, args, true)
    }

    /// Parses `file` with function bodies (to see what functions call).
    pub fn parse_with_bodies(file: &Path, args: &[String]) -> Result<Self> {
        Self::parse_flags(file, args, false)
    }

    /// Parses `file`; `skip_bodies` leaves function bodies out (faster).
    fn parse_flags(file: &Path, args: &[String], skip_bodies: bool) -> Result<Self> {
        load_libclang()?;
        let cfile = CString::new(file.to_string_lossy().as_bytes())?;
        let cargs: Vec<CString> = args
            .iter()
            .map(|a| CString::new(a.as_bytes()))
            .collect::<Result<_, _>>()?;
        let argv: Vec<*const i8> = cargs.iter().map(|a| a.as_ptr()).collect();
        // SAFETY: all pointers stay alive for the duration of the call.
        unsafe {
            let index = clang_createIndex(0, 0);
            let mut tu: CXTranslationUnit = ptr::null_mut();
            let mut flags = CXTranslationUnit_DetailedPreprocessingRecord;
            if skip_bodies {
                flags |= CXTranslationUnit_SkipFunctionBodies;
            }
            let err = clang_parseTranslationUnit2(
                index,
                cfile.as_ptr(),
                argv.as_ptr(),
                argv.len() as c_int,
                ptr::null_mut(),
                0,
                flags,
                &mut tu,
            );
            if err != CXError_Success || tu.is_null() {
                clang_disposeIndex(index);
                bail!("libclang could not parse {} (error {err})", file.display());
            }
            let unit = TranslationUnit { index, tu };
            unit.check_errors()
                .with_context(|| format!("parsing {}", file.display()))?;
            Ok(unit)
        }
    }

    /// Parses `file` with function bodies and returns the lines of `file` that have
    /// error-level diagnostics, with their text; errors elsewhere are an `Err`. An error's
    /// line is the last line of `file` it or its notes name: for an error inside a template,
    /// the place that instantiated it.
    pub fn error_lines(file: &Path, args: &[String]) -> Result<Vec<(u32, String)>> {
        load_libclang()?;
        let cfile = CString::new(file.to_string_lossy().as_bytes())?;
        let cargs: Vec<CString> = args
            .iter()
            .map(|a| CString::new(a.as_bytes()))
            .collect::<Result<_, _>>()?;
        let argv: Vec<*const i8> = cargs.iter().map(|a| a.as_ptr()).collect();
        let want = file.canonicalize()?;
        // SAFETY: all pointers stay alive for the duration of the calls; the unit, the
        // index and every diagnostic are disposed before returning.
        unsafe {
            let index = clang_createIndex(0, 0);
            let mut tu: CXTranslationUnit = ptr::null_mut();
            let err = clang_parseTranslationUnit2(
                index,
                cfile.as_ptr(),
                argv.as_ptr(),
                argv.len() as c_int,
                ptr::null_mut(),
                0,
                0,
                &mut tu,
            );
            if err != CXError_Success || tu.is_null() {
                clang_disposeIndex(index);
                bail!("libclang could not parse {} (error {err})", file.display());
            }
            let mut lines = Vec::new();
            let mut elsewhere = Vec::new();
            for i in 0..clang_getNumDiagnostics(tu) {
                let d = clang_getDiagnostic(tu, i);
                if clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error {
                    let text = take_string(clang_formatDiagnostic(
                        d,
                        clang_defaultDiagnosticDisplayOptions(),
                    ));
                    let mut line = line_in(d, &want);
                    let notes = clang_getChildDiagnostics(d);
                    for n in 0..clang_getNumDiagnosticsInSet(notes) {
                        line = line.max(line_in(clang_getDiagnosticInSet(notes, n), &want));
                    }
                    match line {
                        Some(line) => lines.push((line, text)),
                        None => elsewhere.push(text),
                    }
                }
                clang_disposeDiagnostic(d);
            }
            clang_disposeTranslationUnit(tu);
            clang_disposeIndex(index);
            if !elsewhere.is_empty() && lines.is_empty() {
                bail!("{}", elsewhere.join("\n"));
            }
            Ok(lines)
        }
    }

    /// Fails on the first error-level diagnostic, so a missing include never goes unnoticed.
    fn check_errors(&self) -> Result<()> {
        // SAFETY: the unit is alive; diagnostics are disposed after formatting.
        unsafe {
            let n = clang_getNumDiagnostics(self.tu);
            let mut errors = Vec::new();
            for i in 0..n {
                let d = clang_getDiagnostic(self.tu, i);
                if clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error {
                    errors.push(take_string(clang_formatDiagnostic(
                        d,
                        clang_defaultDiagnosticDisplayOptions(),
                    )));
                }
                clang_disposeDiagnostic(d);
            }
            if !errors.is_empty() {
                bail!("{}", errors.join("\n"));
            }
        }
        Ok(())
    }

    /// The root cursor of the unit.
    pub fn cursor(&self) -> Cursor<'_> {
        // SAFETY: the unit is alive for the lifetime of the returned cursor.
        Cursor {
            raw: unsafe { clang_getTranslationUnitCursor(self.tu) },
            tu: self,
        }
    }
}

impl Drop for TranslationUnit {
    fn drop(&mut self) {
        // SAFETY: created in `parse`, disposed once.
        unsafe {
            clang_disposeTranslationUnit(self.tu);
            clang_disposeIndex(self.index);
        }
    }
}

/// What kind of declaration a cursor points at, restricted to what hipgen reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CursorKind {
    /// `struct` declaration.
    Struct,
    /// `union` declaration.
    Union,
    /// `enum` declaration.
    Enum,
    /// One enumerator.
    EnumConstant,
    /// Function declaration.
    Function,
    /// Function template (C++).
    FunctionTemplate,
    /// Function parameter.
    Param,
    /// `typedef` declaration.
    Typedef,
    /// Field of a struct or union.
    Field,
    /// `#define`.
    MacroDefinition,
    /// `extern "C" { ... }` (C++ only, also reported as an unexposed declaration), whose
    /// children are declarations.
    LinkageSpec,
    /// `namespace n { ... }` (C++), whose children are declarations.
    Namespace,
    /// Anything else.
    Other,
}

/// A cursor into a translation unit.
#[derive(Clone, Copy)]
pub struct Cursor<'tu> {
    /// The libclang cursor.
    raw: CXCursor,
    /// The unit that owns the cursor.
    tu: &'tu TranslationUnit,
}

/// Trampoline that forwards libclang's visitor callback to a Rust closure.
extern "C" fn visit_trampoline(
    cursor: CXCursor,
    _parent: CXCursor,
    data: CXClientData,
) -> CXChildVisitResult {
    // SAFETY: `data` is the `&mut Vec<CXCursor>` passed by `children`.
    let out = unsafe { &mut *(data as *mut Vec<CXCursor>) };
    out.push(cursor);
    CXChildVisit_Continue
}

/// Visitor that collects the callee names of every call expression below a cursor.
extern "C" fn calls_trampoline(
    cursor: CXCursor,
    _parent: CXCursor,
    data: CXClientData,
) -> CXChildVisitResult {
    // SAFETY: `data` is the `&mut Vec<String>` passed by `call_names`; the cursor is live.
    unsafe {
        if clang_getCursorKind(cursor) == CXCursor_CallExpr {
            let out = &mut *(data as *mut Vec<String>);
            out.push(take_string(clang_getCursorSpelling(cursor)));
        }
    }
    CXChildVisit_Recurse
}

impl<'tu> Cursor<'tu> {
    /// Names of the functions called anywhere below this cursor (a function's body, when
    /// the unit was parsed with bodies).
    pub fn call_names(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        // SAFETY: `out` outlives the visit; the trampoline only pushes strings into it.
        unsafe {
            clang_visitChildren(
                self.raw,
                calls_trampoline,
                &mut out as *mut Vec<String> as CXClientData,
            );
        }
        out
    }

    /// Wraps a raw cursor of the same unit.
    fn wrap(&self, raw: CXCursor) -> Cursor<'tu> {
        Cursor { raw, tu: self.tu }
    }

    /// Direct children, in source order.
    pub fn children(&self) -> Vec<Cursor<'tu>> {
        let mut raw: Vec<CXCursor> = Vec::new();
        // SAFETY: the callback only pushes into `raw`, which outlives the call.
        unsafe {
            clang_visitChildren(
                self.raw,
                visit_trampoline,
                &mut raw as *mut Vec<CXCursor> as CXClientData,
            );
        }
        raw.into_iter().map(|c| self.wrap(c)).collect()
    }

    /// The declaration kind.
    pub fn kind(&self) -> CursorKind {
        // SAFETY: plain query on a live cursor.
        match unsafe { clang_getCursorKind(self.raw) } {
            CXCursor_StructDecl => CursorKind::Struct,
            CXCursor_UnionDecl => CursorKind::Union,
            CXCursor_EnumDecl => CursorKind::Enum,
            CXCursor_EnumConstantDecl => CursorKind::EnumConstant,
            CXCursor_FunctionDecl => CursorKind::Function,
            CXCursor_FunctionTemplate => CursorKind::FunctionTemplate,
            CXCursor_ParmDecl => CursorKind::Param,
            CXCursor_TypedefDecl => CursorKind::Typedef,
            CXCursor_FieldDecl => CursorKind::Field,
            CXCursor_MacroDefinition => CursorKind::MacroDefinition,
            // libclang 15 reports `extern "C" { }` as an unexposed declaration.
            CXCursor_LinkageSpec | CXCursor_UnexposedDecl => CursorKind::LinkageSpec,
            CXCursor_Namespace => CursorKind::Namespace,
            _ => CursorKind::Other,
        }
    }

    /// The name as written (empty for anonymous declarations).
    pub fn spelling(&self) -> String {
        // SAFETY: plain query on a live cursor.
        take_string(unsafe { clang_getCursorSpelling(self.raw) })
    }

    /// The file the declaration is written in, if any: for one a macro makes
    /// (`LLVM_TARGET(AArch64)` in `llvm/Config/Targets.def`), the file of the macro's argument
    /// or, for the rest, of its use. `clang_getFileLocation`, not `clang_getSpellingLocation`,
    /// which libclang 15 answered the same way and libclang 19 answers with the macro's
    /// scratch space (no file), dropping such declarations: the output must not depend on the
    /// libclang installed.
    pub fn file(&self) -> Option<String> {
        // SAFETY: plain queries on a live cursor; the file name string is taken once.
        unsafe {
            let loc = clang_getCursorLocation(self.raw);
            let mut file: CXFile = ptr::null_mut();
            clang_getFileLocation(
                loc,
                &mut file,
                ptr::null_mut(),
                ptr::null_mut(),
                ptr::null_mut(),
            );
            if file.is_null() {
                None
            } else {
                Some(take_string(clang_getFileName(file)))
            }
        }
    }

    /// Whether this is a definition (not a forward declaration).
    pub fn is_definition(&self) -> bool {
        // SAFETY: plain query on a live cursor.
        unsafe { clang_isCursorDefinition(self.raw) != 0 }
    }

    /// Whether a function is declared `static` (an inline helper of the header, which the
    /// library does not export).
    pub fn is_static(&self) -> bool {
        // SAFETY: plain query on a live cursor.
        unsafe { clang_Cursor_getStorageClass(self.raw) == CX_SC_Static }
    }

    /// Whether a record or enum has no name of its own.
    pub fn is_anonymous(&self) -> bool {
        // SAFETY: plain query on a live cursor.
        unsafe { clang_Cursor_isAnonymous(self.raw) != 0 }
    }

    /// The declaration's type.
    pub fn ty(&self) -> Type<'tu> {
        // SAFETY: plain query on a live cursor.
        Type {
            raw: unsafe { clang_getCursorType(self.raw) },
            tu: self.tu,
        }
    }

    /// The result type of a function declaration.
    pub fn result_type(&self) -> Type<'tu> {
        // SAFETY: plain query on a live cursor.
        Type {
            raw: unsafe { clang_getCursorResultType(self.raw) },
            tu: self.tu,
        }
    }

    /// The parameters of a function declaration.
    pub fn arguments(&self) -> Vec<Cursor<'tu>> {
        // SAFETY: indices stay below the count libclang reports.
        unsafe {
            let n = clang_Cursor_getNumArguments(self.raw).max(0) as c_uint;
            (0..n)
                .map(|i| self.wrap(clang_Cursor_getArgument(self.raw, i)))
                .collect()
        }
    }

    /// Whether a function takes `...`.
    pub fn is_variadic(&self) -> bool {
        // SAFETY: plain query on a live cursor.
        unsafe { clang_Cursor_isVariadic(self.raw) != 0 }
    }

    /// The value of an enumerator.
    pub fn enum_value(&self) -> i64 {
        // SAFETY: plain query on a live cursor.
        unsafe { clang_getEnumConstantDeclValue(self.raw) }
    }

    /// The underlying type of an enum declaration.
    pub fn enum_integer_type(&self) -> Type<'tu> {
        // SAFETY: plain query on a live cursor.
        Type {
            raw: unsafe { clang_getEnumDeclIntegerType(self.raw) },
            tu: self.tu,
        }
    }

    /// The type a typedef names.
    pub fn typedef_underlying(&self) -> Type<'tu> {
        // SAFETY: plain query on a live cursor.
        Type {
            raw: unsafe { clang_getTypedefDeclUnderlyingType(self.raw) },
            tu: self.tu,
        }
    }

    /// Offset of a field in bits from the start of its record.
    pub fn field_offset_bits(&self) -> i64 {
        // SAFETY: plain query on a live cursor.
        unsafe { clang_Cursor_getOffsetOfField(self.raw) }
    }

    /// Width of a bitfield, or `None` for ordinary fields.
    pub fn bit_width(&self) -> Option<u32> {
        // SAFETY: plain queries on a live cursor.
        unsafe {
            if clang_Cursor_isBitField(self.raw) != 0 {
                Some(clang_getFieldDeclBitWidth(self.raw).max(0) as u32)
            } else {
                None
            }
        }
    }

    /// The Doxygen comment attached to the declaration, as written.
    pub fn raw_comment(&self) -> Option<String> {
        // SAFETY: plain query on a live cursor.
        let s = take_string(unsafe { clang_Cursor_getRawCommentText(self.raw) });
        (!s.is_empty()).then_some(s)
    }

    /// Whether the declaration carries `__attribute__((deprecated))`.
    pub fn is_deprecated(&self) -> bool {
        // SAFETY: plain query on a live cursor.
        unsafe { clang_getCursorAvailability(self.raw) == CXAvailability_Deprecated }
    }

    /// Whether a macro takes arguments.
    pub fn is_function_like_macro(&self) -> bool {
        // SAFETY: plain query on a live cursor.
        unsafe { clang_Cursor_isMacroFunctionLike(self.raw) != 0 }
    }

    /// The tokens spelled by the cursor (for a macro: its name, then its body).
    pub fn tokens(&self) -> Vec<String> {
        // SAFETY: tokens are disposed after being copied out.
        unsafe {
            let range = clang_getCursorExtent(self.raw);
            let mut toks: *mut CXToken = ptr::null_mut();
            let mut n: c_uint = 0;
            clang_tokenize(self.tu.tu, range, &mut toks, &mut n);
            let out = (0..n as usize)
                .map(|i| take_string(clang_getTokenSpelling(self.tu.tu, *toks.add(i))))
                .collect();
            if !toks.is_null() {
                clang_disposeTokens(self.tu.tu, toks, n);
            }
            out
        }
    }
}

/// A type in a translation unit.
#[derive(Clone, Copy)]
pub struct Type<'tu> {
    /// The libclang type.
    raw: CXType,
    /// The unit that owns the type.
    tu: &'tu TranslationUnit,
}

/// The shape of a type after typedefs are looked through one step at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeKind {
    /// `void`.
    Void,
    /// `bool` / `_Bool`.
    Bool,
    /// `char` (its signedness is the platform's).
    CharS,
    /// Signed integer.
    SignedInt,
    /// Unsigned integer.
    UnsignedInt,
    /// `float`, `double`.
    Float,
    /// A pointer.
    Pointer,
    /// `T[N]`.
    ConstantArray,
    /// `T[]`.
    IncompleteArray,
    /// A typedef name.
    Typedef,
    /// `struct X`, `enum X` as spelled with a keyword or qualifier.
    Elaborated,
    /// A struct or union.
    Record,
    /// An enum.
    Enum,
    /// A function prototype.
    FunctionProto,
    /// Anything else (complex, vector, long double, ...).
    Other,
}

impl<'tu> Type<'tu> {
    /// Wraps a raw type of the same unit.
    fn wrap(&self, raw: CXType) -> Type<'tu> {
        Type { raw, tu: self.tu }
    }

    /// The kind of this type, without looking through typedefs.
    pub fn kind(&self) -> TypeKind {
        match self.raw.kind {
            CXType_Void => TypeKind::Void,
            CXType_Bool => TypeKind::Bool,
            CXType_Char_S | CXType_Char_U => TypeKind::CharS,
            CXType_SChar | CXType_Short | CXType_Int | CXType_Long | CXType_LongLong
            | CXType_Int128 | CXType_WChar => TypeKind::SignedInt,
            CXType_UChar | CXType_UShort | CXType_UInt | CXType_ULong | CXType_ULongLong
            | CXType_UInt128 | CXType_Char16 | CXType_Char32 => TypeKind::UnsignedInt,
            CXType_Float | CXType_Double | CXType_Half | CXType_Float16 => TypeKind::Float,
            CXType_Pointer => TypeKind::Pointer,
            CXType_ConstantArray => TypeKind::ConstantArray,
            CXType_IncompleteArray => TypeKind::IncompleteArray,
            CXType_Typedef => TypeKind::Typedef,
            CXType_Elaborated => TypeKind::Elaborated,
            CXType_Record => TypeKind::Record,
            CXType_Enum => TypeKind::Enum,
            CXType_FunctionProto | CXType_FunctionNoProto => TypeKind::FunctionProto,
            _ => TypeKind::Other,
        }
    }

    /// The type as C spells it.
    pub fn spelling(&self) -> String {
        // SAFETY: plain query on a live type.
        take_string(unsafe { clang_getTypeSpelling(self.raw) })
    }

    /// The type with every typedef resolved.
    pub fn canonical(&self) -> Type<'tu> {
        // SAFETY: plain query on a live type.
        self.wrap(unsafe { clang_getCanonicalType(self.raw) })
    }

    /// The pointee of a pointer type.
    pub fn pointee(&self) -> Type<'tu> {
        // SAFETY: plain query on a live type.
        self.wrap(unsafe { clang_getPointeeType(self.raw) })
    }

    /// The element type of an array.
    pub fn element(&self) -> Type<'tu> {
        // SAFETY: plain query on a live type.
        self.wrap(unsafe { clang_getArrayElementType(self.raw) })
    }

    /// The length of a constant array.
    pub fn array_len(&self) -> u64 {
        // SAFETY: plain query on a live type.
        unsafe { clang_getArraySize(self.raw).max(0) as u64 }
    }

    /// The type an elaborated type names (`struct X` → X).
    pub fn named(&self) -> Type<'tu> {
        // SAFETY: plain query on a live type.
        self.wrap(unsafe { clang_Type_getNamedType(self.raw) })
    }

    /// Whether the type is `const`-qualified.
    pub fn is_const(&self) -> bool {
        // SAFETY: plain query on a live type.
        unsafe { clang_isConstQualifiedType(self.raw) != 0 }
    }

    /// `sizeof`, or `None` for incomplete types.
    pub fn size(&self) -> Option<u64> {
        // SAFETY: plain query on a live type.
        let s = unsafe { clang_Type_getSizeOf(self.raw) };
        (s >= 0).then_some(s as u64)
    }

    /// `alignof`, or `None` for incomplete types.
    pub fn align(&self) -> Option<u64> {
        // SAFETY: plain query on a live type.
        let s = unsafe { clang_Type_getAlignOf(self.raw) };
        (s >= 0).then_some(s as u64)
    }

    /// Offset in bits of a field, looked up by name (also through anonymous members).
    pub fn offset_of(&self, field: &str) -> Option<u64> {
        let name = CString::new(field).ok()?;
        // SAFETY: plain query on a live type with a NUL-terminated name.
        let off = unsafe { clang_Type_getOffsetOf(self.raw, name.as_ptr()) };
        (off >= 0).then_some(off as u64)
    }

    /// The declaration of a named type.
    pub fn declaration(&self) -> Cursor<'tu> {
        // SAFETY: plain query on a live type.
        Cursor {
            raw: unsafe { clang_getTypeDeclaration(self.raw) },
            tu: self.tu,
        }
    }
}

/// The line of a diagnostic's location when it lies in `want`.
///
/// # Safety
/// `d` must be a live diagnostic.
unsafe fn line_in(d: CXDiagnostic, want: &Path) -> Option<u32> {
    let loc = clang_getDiagnosticLocation(d);
    let mut f: CXFile = ptr::null_mut();
    let (mut line, mut col, mut off) = (0u32, 0u32, 0u32);
    clang_getFileLocation(loc, &mut f, &mut line, &mut col, &mut off);
    if f.is_null() {
        return None;
    }
    let path = take_string(clang_getFileName(f));
    (Path::new(&path).canonicalize().ok().as_deref() == Some(want)).then_some(line)
}

/// A temporary source file's path, unique per call: parses may run side by side in one
/// process (tests), and each removes its own file.
pub fn temp_source_path(tag: &str, ext: &str) -> std::path::PathBuf {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!("hipgen-{tag}-{}-{seq}.{ext}", std::process::id()))
}
