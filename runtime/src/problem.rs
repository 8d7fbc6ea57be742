//! Problem files: one nonlinear complementarity problem or variational inequality whose `F` (and
//! `∇F`) come from a plugin library (root `<Problem>`, `docs/model-format.md`, "Problem files"),
//! read with the positions and element paths of a model file and solved by `numerics::cp`.
//! `saltus solve FILE.xml` and Python's `saltus.numerics.read(FILE.xml)` both use it.

use crate::plugin::{PluginResolver, VectorFieldFunction};
use crate::xml::schema::VectorSpec;
use crate::xml::schema_cp::{CpFunctionSpec, CpProblemSpec, ProblemFile};
use crate::xml::{parse_document, read_document, values, Loaded, ModelError, Pos, SCHEMA_VERSION};
use nalgebra::DMatrix;
use saltus_numerics::cp::{self, BoxVi, ConvexSet, CpFunction, CpSolver, Mcp, Ncp, Projection, UserFnError, Vi};
use saltus_numerics::driver::ProblemKind;
use saltus_numerics::{NumericsError, SolveReport};
use std::path::{Path, PathBuf};

/// `F` (and `∇F`) from a plugin library with the vector-field signature
/// `int32_t f(double t, uint32_t n, const double* x, uint32_t nout, double* out, uint32_t np,
/// const double* params)`, called with `t = 0`, `nout = n` for `F` and `n²` (column-major) for `∇F`.
/// Without a Jacobian the solvers use forward differences of `F`.
pub struct PluginCpFunction {
    f: VectorFieldFunction,
    jac: Option<VectorFieldFunction>,
    buf: Vec<f64>,
}

impl PluginCpFunction {
    /// Resolves `function` (and `jacobian`) of `library`; `element` names the place in messages.
    pub fn load(
        resolver: &mut PluginResolver,
        library: &str,
        function: &str,
        jacobian: Option<&str>,
        params: Vec<f64>,
        element: &str,
    ) -> Result<Self, crate::plugin::PluginError> {
        let f = resolver.vector_field_fn(library, function, element, params.clone())?;
        let jac = match jacobian {
            Some(j) => Some(resolver.vector_field_fn(library, j, element, params)?),
            None => None,
        };
        Ok(PluginCpFunction { f, jac, buf: Vec::new() })
    }
}

impl CpFunction for PluginCpFunction {
    fn value(&mut self, z: &[f64], out: &mut [f64]) -> Result<(), UserFnError> {
        self.f.call(0.0, z, out).map_err(|e| UserFnError::Fatal(e.to_string()))
    }
    fn jacobian(&mut self, z: &[f64], jac: &mut DMatrix<f64>) -> Result<(), UserFnError> {
        let Some(j) = &self.jac else { return Err(UserFnError::NotProvided) };
        let n = z.len();
        self.buf.resize(n * n, 0.0);
        j.call(0.0, z, &mut self.buf).map_err(|e| UserFnError::Fatal(e.to_string()))?;
        jac.copy_from_slice(&self.buf);
        Ok(())
    }
}

/// The projection `P_K(x)` onto a VI's set, a plugin function with the vector-field ABI
/// (`<Projection>`), called with `t = 0`.
struct PluginProjection {
    f: VectorFieldFunction,
    n: usize,
}

impl Projection for PluginProjection {
    fn size(&self) -> usize {
        self.n
    }
    fn project(&mut self, x: &[f64], out: &mut [f64]) -> Result<(), UserFnError> {
        self.f.call(0.0, x, out).map_err(|e| UserFnError::Fatal(e.to_string()))
    }
}

/// The problem of a problem file, with its set.
#[derive(Debug)]
pub enum CpSet {
    /// NCP: `z ≥ 0`.
    Ncp,
    /// MCP with `equations` free rows first.
    Mcp {
        /// Number of equations `n1`.
        equations: usize,
    },
    /// VI on a box (`ConvexSet::Box`, solved as the box VI by every solver), a ball, or a set known
    /// by its projection (a plugin).
    Vi(Vi),
}

/// A problem file, read and bound to its plugin.
pub struct CpProblemFile {
    /// The file name.
    pub file: PathBuf,
    /// The `title` attribute.
    pub title: Option<String>,
    /// The starting point (`<z0>`, `<x0>`), which gives the size.
    pub start: Vec<f64>,
    /// The problem's set.
    pub set: CpSet,
    /// `F` and `∇F`.
    pub function: PluginCpFunction,
}

/// The answer of [`CpProblemFile::solve`].
#[derive(Debug, Clone)]
pub struct CpSolution {
    /// The solution `z` (or `x`).
    pub z: Vec<f64>,
    /// `F(z)`.
    pub w: Vec<f64>,
    /// Status, iterations, Siconos's error measure of the problem kind, time.
    pub report: SolveReport,
}

impl CpProblemFile {
    /// Its family: `ncp`, `mcp` or `vi` (`as_str()`: the `saltus solve` type column).
    pub fn kind(&self) -> ProblemKind {
        match self.set {
            CpSet::Ncp => ProblemKind::Ncp,
            CpSet::Mcp { .. } => ProblemKind::Mcp,
            CpSet::Vi(_) => ProblemKind::Vi,
        }
    }

    /// Number of unknowns.
    pub fn size(&self) -> usize {
        self.start.len()
    }

    /// Evaluates `F` (and `∇F` when given) once at the starting point, as `saltus check` does: a
    /// failing plugin or a non-finite value is the error.
    pub fn check(&mut self) -> Result<(), NumericsError> {
        let n = self.size();
        let mut f = vec![0.0; n];
        let at = |e: UserFnError| NumericsError::UserFunction { what: "F", iteration: 0, message: e.to_string() };
        self.function.value(&self.start, &mut f).map_err(at)?;
        saltus_numerics::error::check_finite("F(z0)", &f)?;
        let mut jac = DMatrix::zeros(n, n);
        match self.function.jacobian(&self.start, &mut jac) {
            Ok(()) => saltus_numerics::error::check_finite("∇F(z0)", jac.as_slice()),
            Err(UserFnError::NotProvided) => Ok(()),
            Err(e) => Err(NumericsError::UserFunction { what: "jacobian", iteration: 0, message: e.to_string() }),
        }
    }

    /// Solves from the file's starting point with `solver`. Errors: the solver does not apply to
    /// the set (a Newton method on a ball), or `F` failed (the plugin's status, the iteration).
    pub fn solve(&mut self, solver: &CpSolver) -> Result<CpSolution, NumericsError> {
        let n = self.size();
        let (mut z, mut w) = (self.start.clone(), vec![0.0; n]);
        let f = &mut self.function;
        let report = match &mut self.set {
            CpSet::Ncp => cp::solve_ncp(&Ncp::new(n)?, f, &mut z, &mut w, solver)?,
            CpSet::Mcp { equations } => {
                cp::solve_mcp(&Mcp::new(*equations, n - *equations)?, f, &mut z, &mut w, solver)?
            }
            CpSet::Vi(vi) => cp::solve_vi(vi, f, &mut z, &mut w, solver)?,
        };
        Ok(CpSolution { z, w, report })
    }
}

/// Whether `path` holds an XML document whose root element is `<Problem>` (read up to the first
/// start tag; `false` for an unreadable or malformed file, which the model loader then reports).
pub fn is_problem_file(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else { return false };
    let mut reader = quick_xml::Reader::from_str(&text);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(e)) | Ok(quick_xml::events::Event::Empty(e)) => {
                return e.name().as_ref() == "Problem"
            }
            Ok(quick_xml::events::Event::Eof) | Err(_) => return false,
            Ok(_) => {}
        }
    }
}

/// Reads a problem file and resolves its plugin (relative to the file, then `plugin_dirs`).
pub fn load_problem(path: &Path, plugin_dirs: &[PathBuf]) -> Result<CpProblemFile, ModelError> {
    let text = read_document(path, "problem")?;
    let doc: ProblemFile = parse_document(&text, path, "Problem")?;
    let m = Loaded::new(path, doc, &text);
    if m.model.version != SCHEMA_VERSION {
        return Err(ModelError {
            file: path.to_path_buf(),
            pos: Some(Pos::of_offset(&text, text.find("<Problem").unwrap_or(0))),
            path: Some("Problem".into()),
            message: format!(
                "schema version `{}` is not supported (this saltus reads version {SCHEMA_VERSION})",
                m.model.version
            ),
        });
    }
    let vector = |spec: &VectorSpec, p: &str, n: Option<usize>| -> Result<Vec<f64>, ModelError> {
        match values::vector(&m, spec, p, n)? {
            values::VectorValue::Constant(v) => Ok(v.as_slice().to_vec()),
            values::VectorValue::Plugin(_) => Err(m.error_at(p, "give the numbers inline or in a `file` here")),
        }
    };
    let need =
        |el: &str, child: &str, what: &str| m.error_at(el, format!("<{el}> needs a <{child}> child element ({what})"));
    let start_of = |el: &str, child: &str, v: &Option<VectorSpec>| match v {
        Some(v) => vector(v, &format!("{el}/{child}"), None),
        None => Err(need(el, child, "the starting point, which gives the size")),
    };
    let (el, f, start, set) = match &m.model.problem {
        CpProblemSpec::Ncp(s) => ("NCP", &s.f, start_of("NCP", "z0", &s.z0)?, CpSet::Ncp),
        CpProblemSpec::Mcp(s) => {
            let z0 = start_of("MCP", "z0", &s.z0)?;
            if s.equations > z0.len() {
                return Err(m.error_at(
                    "MCP",
                    format!("equations = {} is larger than the size {} of <z0>", s.equations, z0.len()),
                ));
            }
            ("MCP", &s.f, z0, CpSet::Mcp { equations: s.equations })
        }
        CpProblemSpec::Vi(s) => {
            let x0 = start_of("VI", "x0", &s.x0)?;
            let n = Some(x0.len());
            let set = match (&s.lb, &s.ub, &s.ball, &s.projection) {
                (None, None, None, Some(p)) => {
                    let path = "VI/Projection";
                    if p.jacobian.is_some() {
                        return Err(m.error_at(path, "`jacobian` is not an attribute of <Projection>"));
                    }
                    let f = bind_function(&m, p, path, plugin_dirs)?;
                    CpSet::Vi(Vi::new(ConvexSet::User(Box::new(PluginProjection { f: f.f, n: x0.len() }))))
                }
                (Some(lb), Some(ub), None, None) => {
                    let (lb, ub) = (vector(lb, "VI/lb", n)?, vector(ub, "VI/ub", n)?);
                    if let Some(i) = (0..lb.len()).find(|&i| lb[i] > ub[i]) {
                        return Err(m.error_at("VI/ub", format!("ub[{i}] = {} < lb[{i}] = {}", ub[i], lb[i])));
                    }
                    // checked here (sizes, order) so that the error names the element
                    BoxVi::new(lb.clone(), ub.clone()).map_err(|e| m.error_at("VI", e.to_string()))?;
                    CpSet::Vi(Vi::new(ConvexSet::Box { lb, ub }))
                }
                (None, None, Some(b), None) => {
                    let center = values::parse_numbers(&b.center).map_err(|e| m.error_at("VI/Ball", e))?;
                    if center.len() != x0.len() {
                        return Err(
                            m.error_at("VI/Ball", format!("center has {} values, <x0> {}", center.len(), x0.len()))
                        );
                    }
                    if !(b.radius.is_finite() && b.radius >= 0.0) {
                        return Err(m.error_at("VI/Ball", format!("radius = {}: a finite number ≥ 0", b.radius)));
                    }
                    CpSet::Vi(Vi::new(ConvexSet::Ball { center, radius: b.radius }))
                }
                _ => {
                    return Err(
                        m.error_at("VI", "the set K is either <lb> and <ub> (a box), a <Ball> or a <Projection>")
                    )
                }
            };
            ("VI", &s.f, x0, set)
        }
    };
    let f = f.as_ref().ok_or_else(|| need(el, "F", "the function F, from a plugin"))?;
    let function = bind_function(&m, f, &format!("{el}/F"), plugin_dirs)?;
    Ok(CpProblemFile { file: path.to_path_buf(), title: m.model.title.clone(), start, set, function })
}

fn bind_function(
    m: &Loaded<ProblemFile>,
    f: &CpFunctionSpec,
    path: &str,
    plugin_dirs: &[PathBuf],
) -> Result<PluginCpFunction, ModelError> {
    let params = match &f.params {
        Some(t) => values::parse_numbers(t).map_err(|e| m.error_at(path, format!("params: {e}")))?,
        None => Vec::new(),
    };
    let mut resolver = PluginResolver::new(m.dir(), plugin_dirs.to_vec());
    PluginCpFunction::load(&mut resolver, &f.library, &f.function, f.jacobian.as_deref(), params, path).map_err(|e| {
        let mut err = m.error_at(path, e.to_string());
        err.path = None; // the plugin error names the element already
        err
    })
}
