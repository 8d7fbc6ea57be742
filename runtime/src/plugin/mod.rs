//! Loading C-ABI plugin libraries (ABI v1, see the `saltus-plugin-abi` crate) and wrapping their
//! functions into safe Rust values.
//!
//! This is the only module of Saltus that contains `unsafe` code. Every function is resolved once
//! (before the run) into a typed `extern "C"` pointer stored next to an `Arc` of its library, so
//! the library stays loaded while any function of it is alive. Calls check the lengths, pass
//! read-only inputs and parameters and a separate output, map a non-zero status to
//! [`PluginCallError`], and check that the output is finite.
//!
//! Library names resolve relative to the XML file's directory first, then to each `--plugin-dir`;
//! a bare name (no `/`, no extension) is turned into the platform file name
//! (`libNAME.so`, `libNAME.dylib`, `NAME.dll`).
//!
//! Loading a library runs its initialisers: only trusted plugins may be loaded.
#![deny(unsafe_op_in_unsafe_fn)]

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use saltus_plugin_abi::{
    AbiVersionFn, LagrangianFn, RelationFn, TimeFn, VectorFieldFn, ABI_VERSION, ABI_VERSION_SYMBOL,
};

/// Where a plugin function comes from (for error messages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// Library file that was loaded.
    pub library: PathBuf,
    /// Symbol name.
    pub symbol: String,
    /// XML element path that asked for it.
    pub element: String,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: function `{}` of plugin library {}", self.element, self.symbol, self.library.display())
    }
}

/// Errors while locating, loading or resolving a plugin (all before the run starts).
#[derive(Debug, thiserror::Error)]
pub enum PluginError {
    /// No candidate file exists.
    #[error("{element}: plugin library `{name}` not found (looked for: {}); pass --plugin-dir DIR where it is (the example plugins of this repository are built by `cargo build --release --workspace`)", .candidates.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "))]
    NotFound {
        /// Name as written in the XML.
        name: String,
        /// Element path.
        element: String,
        /// Files that were tried.
        candidates: Vec<PathBuf>,
    },
    /// The dynamic loader refused the file.
    #[error("{element}: cannot load plugin library {}: {message}", .library.display())]
    Load {
        /// Library file.
        library: PathBuf,
        /// Element path.
        element: String,
        /// Loader message.
        message: String,
    },
    /// The library does not export the version symbol.
    #[error("{element}: plugin library {} does not export `{ABI_VERSION_SYMBOL}` (is it a Saltus plugin? use `export_abi_version!()` or `SALTUS_DEFINE_ABI_VERSION()`)", .library.display())]
    NoAbiVersion {
        /// Library file.
        library: PathBuf,
        /// Element path.
        element: String,
    },
    /// The library was built for another ABI version.
    #[error("{element}: plugin library {} implements Saltus plugin ABI version {found}, this saltus needs version {ABI_VERSION}", .library.display())]
    AbiMismatch {
        /// Library file.
        library: PathBuf,
        /// Element path.
        element: String,
        /// Version reported by the library.
        found: u32,
    },
    /// The symbol is not exported.
    #[error("{element}: plugin library {} has no function `{symbol}`", .library.display())]
    MissingSymbol {
        /// Library file.
        library: PathBuf,
        /// Symbol name.
        symbol: String,
        /// Element path.
        element: String,
    },
}

/// Failure of one call to a plugin function (during the run).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PluginCallError {
    /// The function returned a non-zero status.
    #[error("{origin} returned status {status}{}", if *.status == saltus_plugin_abi::STATUS_PANIC { " (the plugin panicked)" } else { "" })]
    Status {
        /// The function.
        origin: Origin,
        /// Returned status.
        status: i32,
    },
    /// The function wrote NaN or infinity.
    #[error("{origin} wrote a non-finite value at index {index} (t = {t})")]
    NonFinite {
        /// The function.
        origin: Origin,
        /// First bad index.
        index: usize,
        /// Time of the call.
        t: f64,
    },
    /// An argument length does not fit the ABI (more than `u32::MAX` values) or is inconsistent.
    #[error("{origin}: bad argument sizes ({what})")]
    BadSize {
        /// The function.
        origin: Origin,
        /// Description.
        what: String,
    },
}

/// One loaded library.
#[derive(Debug)]
pub struct PluginLibrary {
    lib: libloading::Library,
    path: PathBuf,
}

impl PluginLibrary {
    /// Loads `path` and checks its ABI version.
    pub fn open(path: &Path, element: &str) -> Result<Self, PluginError> {
        // SAFETY: loading a shared library runs its initialisers; the CLI documents that only
        // trusted plugins may be loaded. The path was checked to be an existing file.
        let lib = unsafe { libloading::Library::new(path) }.map_err(|e| PluginError::Load {
            library: path.to_path_buf(),
            element: element.to_string(),
            message: e.to_string(),
        })?;
        // SAFETY: the ABI contract fixes the type of this symbol to `extern "C" fn() -> u32`.
        let version_fn: AbiVersionFn = match unsafe { lib.get::<AbiVersionFn>(ABI_VERSION_SYMBOL) } {
            Ok(sym) => *sym,
            Err(_) => {
                return Err(PluginError::NoAbiVersion { library: path.to_path_buf(), element: element.to_string() })
            }
        };
        let found = version_fn();
        if found != ABI_VERSION {
            return Err(PluginError::AbiMismatch { library: path.to_path_buf(), element: element.to_string(), found });
        }
        Ok(PluginLibrary { lib, path: path.to_path_buf() })
    }

    /// Library file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Resolves `symbol` as a function pointer of type `F`.
    ///
    /// # Safety
    /// `F` must be the `extern "C" fn` type the ABI contract assigns to this symbol's role.
    unsafe fn get<F: Copy>(&self, symbol: &str, element: &str) -> Result<F, PluginError> {
        // SAFETY: forwarded to the caller (the type matches the ABI role of the symbol).
        match unsafe { self.lib.get::<F>(symbol) } {
            Ok(sym) => Ok(*sym),
            Err(_) => Err(PluginError::MissingSymbol {
                library: self.path.clone(),
                symbol: symbol.to_string(),
                element: element.to_string(),
            }),
        }
    }
}

/// Finds and caches plugin libraries for one model file.
#[derive(Debug, Default)]
pub struct PluginResolver {
    base_dir: PathBuf,
    plugin_dirs: Vec<PathBuf>,
    libs: HashMap<PathBuf, Arc<PluginLibrary>>,
}

impl PluginResolver {
    /// `base_dir`: directory of the XML file; `plugin_dirs`: the `--plugin-dir` options, in order.
    pub fn new(base_dir: impl Into<PathBuf>, plugin_dirs: Vec<PathBuf>) -> Self {
        PluginResolver { base_dir: base_dir.into(), plugin_dirs, libs: HashMap::new() }
    }

    /// Files tried for a library `name`, in order.
    pub fn candidates(&self, name: &str) -> Vec<PathBuf> {
        let p = Path::new(name);
        let looks_like_path = name.contains('/') || name.contains('\\') || p.extension().is_some();
        let file: PathBuf =
            if looks_like_path { p.to_path_buf() } else { PathBuf::from(libloading::library_filename(name)) };
        if file.is_absolute() {
            return vec![file];
        }
        let mut out = vec![self.base_dir.join(&file)];
        for d in &self.plugin_dirs {
            out.push(d.join(&file));
            if looks_like_path {
                if let Some(f) = file.file_name() {
                    out.push(d.join(f));
                }
            }
        }
        out.dedup();
        out
    }

    /// Loads (once) the library called `name` in the XML element `element`.
    pub fn library(&mut self, name: &str, element: &str) -> Result<Arc<PluginLibrary>, PluginError> {
        let candidates = self.candidates(name);
        let Some(path) = candidates.iter().find(|c| c.is_file()) else {
            return Err(PluginError::NotFound { name: name.to_string(), element: element.to_string(), candidates });
        };
        let key = path.canonicalize().unwrap_or_else(|_| path.clone());
        if let Some(lib) = self.libs.get(&key) {
            return Ok(lib.clone());
        }
        let lib = Arc::new(PluginLibrary::open(&key, element)?);
        self.libs.insert(key, lib.clone());
        Ok(lib)
    }

    fn resolve<F: Copy>(
        &mut self,
        library: &str,
        symbol: &str,
        element: &str,
        params: Vec<f64>,
    ) -> Result<Resolved<F>, PluginError> {
        let lib = self.library(library, element)?;
        // SAFETY: `F` is one of the four ABI function types and is chosen by the typed public
        // methods below according to the role the XML element gives the symbol.
        let f = unsafe { lib.get::<F>(symbol, element)? };
        let origin = Origin { library: lib.path.clone(), symbol: symbol.to_string(), element: element.to_string() };
        Ok(Resolved { f, params, origin, _lib: lib })
    }

    /// Resolves a [`TimeFn`] (external forces, source terms, time-dependent matrices).
    pub fn time_fn(
        &mut self,
        library: &str,
        symbol: &str,
        element: &str,
        params: Vec<f64>,
    ) -> Result<TimeFunction, PluginError> {
        self.resolve(library, symbol, element, params).map(TimeFunction)
    }
    /// Resolves a [`LagrangianFn`] (internal/gyroscopic forces, mass matrix, Jacobians).
    pub fn lagrangian_fn(
        &mut self,
        library: &str,
        symbol: &str,
        element: &str,
        params: Vec<f64>,
    ) -> Result<LagrangianFunction, PluginError> {
        self.resolve(library, symbol, element, params).map(LagrangianFunction)
    }
    /// Resolves a [`VectorFieldFn`] (first-order vector fields and Jacobians).
    pub fn vector_field_fn(
        &mut self,
        library: &str,
        symbol: &str,
        element: &str,
        params: Vec<f64>,
    ) -> Result<VectorFieldFunction, PluginError> {
        self.resolve(library, symbol, element, params).map(VectorFieldFunction)
    }
    /// Resolves a [`RelationFn`] (relation outputs/inputs and Jacobians).
    pub fn relation_fn(
        &mut self,
        library: &str,
        symbol: &str,
        element: &str,
        params: Vec<f64>,
    ) -> Result<RelationFunction, PluginError> {
        self.resolve(library, symbol, element, params).map(RelationFunction)
    }
}

#[derive(Debug, Clone)]
struct Resolved<F> {
    f: F,
    params: Vec<f64>,
    origin: Origin,
    /// Keeps the library loaded while `f` is alive.
    _lib: Arc<PluginLibrary>,
}

impl<F> Resolved<F> {
    fn len(&self, n: usize, what: &str) -> Result<u32, PluginCallError> {
        u32::try_from(n).map_err(|_| PluginCallError::BadSize {
            origin: self.origin.clone(),
            what: format!("{what} has {n} values"),
        })
    }
    fn finish(&self, status: i32, out: &[f64], t: f64) -> Result<(), PluginCallError> {
        if status != 0 {
            return Err(PluginCallError::Status { origin: self.origin.clone(), status });
        }
        match out.iter().position(|v| !v.is_finite()) {
            Some(index) => Err(PluginCallError::NonFinite { origin: self.origin.clone(), index, t }),
            None => Ok(()),
        }
    }
}

macro_rules! plugin_wrapper {
    ($(#[$m:meta])* $name:ident, $fty:ty) => {
        $(#[$m])*
        #[derive(Debug, Clone)]
        pub struct $name(Resolved<$fty>);
        impl $name {
            /// Where this function comes from.
            pub fn origin(&self) -> &Origin { &self.0.origin }
            /// Parameters passed on every call.
            pub fn params(&self) -> &[f64] { &self.0.params }
        }
    };
}

plugin_wrapper!(
    /// A resolved [`TimeFn`]: `out = f(t)`.
    TimeFunction, TimeFn);
plugin_wrapper!(
    /// A resolved [`LagrangianFn`]: `out = f(t, q, v)`.
    LagrangianFunction, LagrangianFn);
plugin_wrapper!(
    /// A resolved [`VectorFieldFn`]: `out = f(t, x)`.
    VectorFieldFunction, VectorFieldFn);
plugin_wrapper!(
    /// A resolved [`RelationFn`]: `out = f(t, x, λ)`.
    RelationFunction, RelationFn);

// The wrapped pointers are plain `extern "C"` functions and the ABI contract requires them to be
// reentrant without global mutable state, so sharing them across threads is sound. (`fn` pointers
// and `Arc<PluginLibrary>` are already `Send + Sync`; these assertions keep it that way.)
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<TimeFunction>();
    assert_send_sync::<LagrangianFunction>();
    assert_send_sync::<VectorFieldFunction>();
    assert_send_sync::<RelationFunction>();
};

impl TimeFunction {
    /// `out = f(t)`.
    pub fn call(&self, t: f64, out: &mut [f64]) -> Result<(), PluginCallError> {
        let r = &self.0;
        let (nout, np) = (r.len(out.len(), "output")?, r.len(r.params.len(), "params")?);
        // SAFETY: `out` has `nout` writable values and `params` `np` readable values, both valid
        // for the duration of the call and not aliased; the pointer type matches the symbol's role.
        let status = unsafe { call_time(r.f, t, nout, out.as_mut_ptr(), np, r.params.as_ptr()) };
        r.finish(status, out, t)
    }
}

impl LagrangianFunction {
    /// `out = f(t, q, v)`; `q` and `v` must have the same length.
    pub fn call(&self, t: f64, q: &[f64], v: &[f64], out: &mut [f64]) -> Result<(), PluginCallError> {
        let r = &self.0;
        if q.len() != v.len() {
            return Err(PluginCallError::BadSize {
                origin: r.origin.clone(),
                what: format!("q has {} values, v has {}", q.len(), v.len()),
            });
        }
        let (n, nout, np) = (r.len(q.len(), "q")?, r.len(out.len(), "output")?, r.len(r.params.len(), "params")?);
        // SAFETY: q and v have `n` readable values, out `nout` writable ones, params `np`
        // readable ones, all valid for the call; out is a distinct `&mut` borrow (no aliasing).
        let status = unsafe {
            call_lagrangian(r.f, t, n, q.as_ptr(), v.as_ptr(), nout, out.as_mut_ptr(), np, r.params.as_ptr())
        };
        r.finish(status, out, t)
    }
}

impl VectorFieldFunction {
    /// `out = f(t, x)`.
    pub fn call(&self, t: f64, x: &[f64], out: &mut [f64]) -> Result<(), PluginCallError> {
        let r = &self.0;
        let (n, nout, np) = (r.len(x.len(), "x")?, r.len(out.len(), "output")?, r.len(r.params.len(), "params")?);
        // SAFETY: x has `n` readable values, out `nout` writable ones (distinct borrow), params
        // `np` readable ones, all valid for the call.
        let status = unsafe { call_vector_field(r.f, t, n, x.as_ptr(), nout, out.as_mut_ptr(), np, r.params.as_ptr()) };
        r.finish(status, out, t)
    }
}

impl RelationFunction {
    /// `out = f(t, x, λ)`.
    pub fn call(&self, t: f64, x: &[f64], lambda: &[f64], out: &mut [f64]) -> Result<(), PluginCallError> {
        let r = &self.0;
        let (n, m) = (r.len(x.len(), "x")?, r.len(lambda.len(), "lambda")?);
        let (nout, np) = (r.len(out.len(), "output")?, r.len(r.params.len(), "params")?);
        // SAFETY: x (`n`), lambda (`m`) and params (`np`) are readable, out (`nout`) is writable
        // and exclusively borrowed; all are valid for the duration of the call.
        let status = unsafe {
            call_relation(r.f, t, n, x.as_ptr(), m, lambda.as_ptr(), nout, out.as_mut_ptr(), np, r.params.as_ptr())
        };
        r.finish(status, out, t)
    }
}

// The four raw calls. They are `unsafe fn` because the pointers must satisfy the ABI contract.

/// # Safety
/// `out` valid for `nout` writes, `params` valid for `np` reads, `f` of the right role.
unsafe fn call_time(f: TimeFn, t: f64, nout: u32, out: *mut f64, np: u32, params: *const f64) -> i32 {
    // SAFETY: the caller upholds this function's contract (pointer validity and lengths), which is
    // the ABI contract of `f`.
    unsafe { f(t, nout, out, np, params) }
}

/// # Safety
/// `q`, `v` valid for `n` reads, `out` for `nout` writes, `params` for `np` reads.
#[allow(clippy::too_many_arguments)]
unsafe fn call_lagrangian(
    f: LagrangianFn,
    t: f64,
    n: u32,
    q: *const f64,
    v: *const f64,
    nout: u32,
    out: *mut f64,
    np: u32,
    params: *const f64,
) -> i32 {
    // SAFETY: the caller upholds this function's contract (pointer validity and lengths), which is
    // the ABI contract of `f`.
    unsafe { f(t, n, q, v, nout, out, np, params) }
}

/// # Safety
/// `x` valid for `n` reads, `out` for `nout` writes, `params` for `np` reads.
#[allow(clippy::too_many_arguments)]
unsafe fn call_vector_field(
    f: VectorFieldFn,
    t: f64,
    n: u32,
    x: *const f64,
    nout: u32,
    out: *mut f64,
    np: u32,
    params: *const f64,
) -> i32 {
    // SAFETY: the caller upholds this function's contract (pointer validity and lengths), which is
    // the ABI contract of `f`.
    unsafe { f(t, n, x, nout, out, np, params) }
}

/// # Safety
/// `x` valid for `n` reads, `lambda` for `m` reads, `out` for `nout` writes, `params` for `np` reads.
#[allow(clippy::too_many_arguments)]
unsafe fn call_relation(
    f: RelationFn,
    t: f64,
    n: u32,
    x: *const f64,
    m: u32,
    lambda: *const f64,
    nout: u32,
    out: *mut f64,
    np: u32,
    params: *const f64,
) -> i32 {
    // SAFETY: the caller upholds this function's contract (pointer validity and lengths), which is
    // the ABI contract of `f`.
    unsafe { f(t, n, x, m, lambda, nout, out, np, params) }
}
