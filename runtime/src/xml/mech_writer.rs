//! A [`Scene`] written as a `<Mechanics>` model file, every number in its shortest round-trip
//! form, so that reading the file back builds the same scene bit for bit
//! (`samples/spheres_in_a_box/*.xml` are made this way by the `mechanics_xml` example).
//!
//! Kinematic bodies (their motion is a closure) and solvers other than NSGS-AC are not written.

use super::plain;
use nalgebra::{Isometry3, UnitQuaternion, Vector3};
use saltus_mechanics::body::BodyKind;
use saltus_mechanics::scene_desc::ShapeTable;
use saltus_mechanics::scenes::Scene;
use saltus_mechanics::ShapeDesc;
use saltus_mechanics::{ImpactLaw, MoreauJeanOptions};
use saltus_numerics::fc::{FcSolver, NsgsFallback, NsgsOptions, PatchOptions, ProxOptions};
use std::fmt::Write;

fn list(xs: &[f64]) -> String {
    xs.iter().map(|x| plain(*x)).collect::<Vec<_>>().join(" ")
}

fn v3(v: &Vector3<f64>) -> String {
    list(v.as_slice())
}

fn quat(q: &UnitQuaternion<f64>) -> String {
    list(&[q.w, q.i, q.j, q.k])
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn rows(out: &mut String, tag: &str, r: impl Iterator<Item = Vec<f64>>) {
    let body: Vec<String> = r.map(|row| list(&row)).collect();
    let _ = writeln!(out, "      <{tag} cols=\"3\">{}</{tag}>", body.join("  "));
}

fn shape(out: &mut String, name: &str, d: &ShapeDesc) {
    let _ = match d {
        ShapeDesc::Primitive(p) => {
            let (decl, values) = (p.decl(), p.params());
            let mut attrs = String::new();
            let mut k = 0;
            for d in decl.params {
                let n = d.scalars.len();
                let _ = write!(attrs, " {}=\"{}\"", d.attr, list(&values[k..k + n]));
                k += n;
            }
            writeln!(out, "    <{} name=\"{name}\"{attrs}/>", decl.element)
        }
        ShapeDesc::ConvexHull { points } => {
            let p: Vec<String> = points.iter().map(v3).collect();
            writeln!(out, "    <Convex name=\"{name}\">{}</Convex>", p.join("  "))
        }
        ShapeDesc::TriMesh { vertices, indices } => {
            let _ = writeln!(out, "    <Mesh name=\"{name}\">");
            rows(out, "vertices", vertices.iter().map(|v| v.as_slice().to_vec()));
            rows(out, "triangles", indices.iter().map(|t| t.iter().map(|&i| f64::from(i)).collect()));
            writeln!(out, "    </Mesh>")
        }
        ShapeDesc::ConvexPolygon { points } => {
            let p: Vec<String> = points.iter().map(|p| list(p.as_slice())).collect();
            writeln!(out, "    <ConvexPolygon name=\"{name}\">{}</ConvexPolygon>", p.join("  "))
        }
        ShapeDesc::HalfSpace { normal } => writeln!(out, "    <HalfSpace name=\"{name}\" normal=\"{}\"/>", v3(normal)),
        ShapeDesc::HeightField { heights, size } => {
            let _ = writeln!(out, "    <HeightMap name=\"{name}\" size=\"{}\">", list(size.as_slice()));
            let r: Vec<String> = heights.row_iter().map(|r| list(&r.iter().copied().collect::<Vec<_>>())).collect();
            let _ = writeln!(out, "      <heights rows=\"{}\">{}</heights>", heights.nrows(), r.join("  "));
            writeln!(out, "    </HeightMap>")
        }
    };
}

/// ` group="g"` for a contactor outside its body's group, else nothing.
fn group(g: u32, body: u32) -> String {
    if g == body {
        String::new()
    } else {
        format!(" group=\"{g}\"")
    }
}

fn offset(o: &Isometry3<f64>) -> String {
    let mut s = String::new();
    if o.translation.vector != Vector3::zeros() {
        let _ = write!(s, " translation=\"{}\"", v3(&o.translation.vector));
    }
    if o.rotation != UnitQuaternion::identity() {
        let _ = write!(s, " orientation=\"{}\"", quat(&o.rotation));
    }
    s
}

/// The model file of `scene` (t0 = 0, T = `scene.t_end`), or why it cannot be written.
pub fn scene_to_xml(scene: &Scene, title: &str) -> Result<String, String> {
    let m = &scene.model;
    if !m.joints().is_empty() {
        return Err("the scene has joints: only scenes without joints are written".into());
    }
    if m.is_planar() {
        return Err("the scene is 2D: only 3D scenes are written".into());
    }
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(out, "<Model version=\"1.0\" title=\"{}\">", xml_escape(title));
    let _ = writeln!(out, "  <Time t0=\"0\" T=\"{}\"/>", plain(scene.t_end));
    let _ = writeln!(out, "  <Mechanics gravity=\"{}\" margin=\"{}\">", v3(&m.gravity), plain(m.margin));
    let table = ShapeTable::new(m);
    for (k, d) in table.shapes.iter().enumerate() {
        shape(&mut out, &table.name(k), d);
    }
    let n_groups =
        m.bodies.iter().map(|b| b.group + 1).chain(m.colliders.iter().map(|c| c.group + 1)).max().unwrap_or(0);
    for g1 in 0..n_groups {
        for g2 in g1..n_groups {
            if let Some(l) = m.law(g1, g2) {
                let elem = match (l.impact, l.mu_r > 0.0) {
                    (ImpactLaw::Fremond, _) => "FremondImpactFrictionNSL",
                    (_, true) => "NewtonImpactRollingFrictionNSL",
                    (_, false) => "NewtonImpactFrictionNSL",
                };
                let _ = write!(out, "    <{elem} en=\"{}\"", plain(l.en));
                if l.et != 0.0 {
                    let _ = write!(out, " et=\"{}\"", plain(l.et));
                }
                let _ = write!(out, " mu=\"{}\"", plain(l.mu));
                if l.mu_r > 0.0 {
                    let _ = write!(out, " mu_r=\"{}\"", plain(l.mu_r));
                }
                if (g1, g2) != (0, 0) {
                    let _ = write!(out, " group1=\"{g1}\" group2=\"{g2}\"");
                }
                out.push_str("/>\n");
            }
        }
    }
    for b in &m.bodies {
        let _ = write!(out, "    <RigidBody name=\"{}\"", xml_escape(&b.name));
        match b.kind {
            BodyKind::Dynamic => {}
            BodyKind::Static => out.push_str(" kind=\"static\""),
            BodyKind::Kinematic => return Err(format!("body `{}` is kinematic: its motion cannot be written", b.name)),
        }
        if b.group != 0 {
            let _ = write!(out, " group=\"{}\"", b.group);
        }
        if b.is_dynamic() {
            let i = b.inertia();
            let diag = *i == nalgebra::Matrix3::from_diagonal(&i.diagonal());
            let inertia = if diag { v3(&i.diagonal()) } else { list(i.transpose().as_slice()) };
            let _ = write!(out, " mass=\"{}\" inertia=\"{inertia}\"", plain(b.mass()));
        }
        let s = &b.state;
        if s.position != Vector3::zeros() {
            let _ = write!(out, " translation=\"{}\"", v3(&s.position));
        }
        if s.orientation != UnitQuaternion::identity() {
            let _ = write!(out, " orientation=\"{}\"", quat(&s.orientation));
        }
        if s.v != Vector3::zeros() || s.omega != Vector3::zeros() {
            let _ = write!(out, " velocity=\"{} {}\"", v3(&s.v), v3(&s.omega));
        }
        if b.force != Vector3::zeros() {
            let _ = write!(out, " force=\"{}\"", v3(&b.force));
        }
        if b.torque != Vector3::zeros() {
            let _ = write!(out, " torque=\"{}\"", v3(&b.torque));
        }
        if b.lifetime.birth.is_finite() {
            let _ = write!(out, " birth=\"{}\"", plain(b.lifetime.birth));
        }
        if b.lifetime.death.is_finite() {
            let _ = write!(out, " death=\"{}\"", plain(b.lifetime.death));
        }
        if b.force_fn.is_some() || b.boundary_condition().is_some() {
            return Err(format!(
                "body `{}` has a force function or a boundary condition: it cannot be written",
                b.name
            ));
        }
        let cs = b.collider_range();
        if cs.len() == 1 {
            let c = &m.colliders[cs.start];
            let _ = writeln!(
                out,
                "><Contactor shape=\"{}\"{}{}/></RigidBody>",
                table.name(table.of_collider[cs.start]),
                offset(&c.offset),
                group(c.group, b.group)
            );
        } else {
            out.push_str(">\n");
            for k in cs {
                let c = &m.colliders[k];
                let _ = writeln!(
                    out,
                    "      <Contactor shape=\"{}\"{}{}/>",
                    table.name(table.of_collider[k]),
                    offset(&c.offset),
                    group(c.group, b.group)
                );
            }
            out.push_str("    </RigidBody>\n");
        }
    }
    out.push_str("  </Mechanics>\n  <Simulation>\n");
    let o = &scene.options;
    let _ = writeln!(out, "    <TimeDiscretisation h=\"{}\"/>", plain(scene.h));
    let gamma = if o.gamma != 0.5 { format!(" gamma=\"{}\"", plain(o.gamma)) } else { String::new() };
    let _ = writeln!(
        out,
        "    <OneStepIntegrator><MoreauJeanOSI theta=\"{}\"{gamma}/></OneStepIntegrator>",
        plain(o.theta)
    );
    let FcSolver::NsgsAc(n) = &o.solver else {
        return Err(format!("solver {}: only NsgsAc is written", o.solver.name()));
    };
    let mut plain_nsgs = NsgsOptions::with_iter(n.iter);
    plain_nsgs.warm_start = n.warm_start;
    plain_nsgs.anderson = n.anderson;
    plain_nsgs.domains = n.domains;
    plain_nsgs.threads = n.threads;
    plain_nsgs.stagnation_sweeps = n.stagnation_sweeps;
    plain_nsgs.fallback = n.fallback.clone();
    let fallback = fallback_attributes(&n.fallback)?;
    let defaults = MoreauJeanOptions::default();
    if plain_nsgs != *n
        || o.activation_tol != defaults.activation_tol
        || o.gyro_tol != defaults.gyro_tol
        || o.gyro_max_iter != defaults.gyro_max_iter
        || o.on_non_convergence != defaults.on_non_convergence
    {
        return Err(
            "options other than theta, gamma and the NSGS tolerance, cap, warm start, Anderson memory, domains, threads, stagnation and fallback are not written"
                .into(),
        );
    }
    let ws = if n.warm_start { "" } else { " warm_start=\"false\"" };
    let aa = if n.anderson == saltus_mechanics::NSGS_ANDERSON_MEMORY {
        String::new()
    } else {
        format!(" anderson=\"{}\"", n.anderson)
    };
    let dom = if n.domains > 1 { format!(" domains=\"{}\"", n.domains) } else { String::new() };
    let thr = if n.threads > 0 { format!(" threads=\"{}\"", n.threads) } else { String::new() };
    let st =
        if n.stagnation_sweeps > 0 { format!(" stagnation_sweeps=\"{}\"", n.stagnation_sweeps) } else { String::new() };
    let _ = writeln!(
        out,
        "    <OneStepNSProblem><FrictionContact dim=\"3\"><NsgsAc tol=\"{}\" max_iter=\"{}\"{ws}{aa}{dom}{thr}{st}{fallback}/></FrictionContact></OneStepNSProblem>",
        plain(n.iter.tol),
        n.iter.max_iter
    );
    out.push_str("  </Simulation>\n</Model>\n");
    Ok(out)
}

/// The `fallback*` attributes of an NSGS fallback, or why it cannot be written (options other
/// than the layers, the proximal steps and the Newton steps per proximal step).
fn fallback_attributes(f: &NsgsFallback) -> Result<String, String> {
    let prox_attrs = |po: &ProxOptions| -> Result<String, String> {
        let mut plain = ProxOptions::default();
        plain.iter.max_iter = po.iter.max_iter;
        plain.inner_max_iter = po.inner_max_iter;
        if plain != *po {
            return Err("fallback PROX options other than max_iter and inner_max_iter are not written".into());
        }
        Ok(format!(" fallback_max_iter=\"{}\" fallback_inner_max_iter=\"{}\"", po.iter.max_iter, po.inner_max_iter))
    };
    match f {
        NsgsFallback::None => Ok(String::new()),
        NsgsFallback::Prox(po) => Ok(format!(" fallback=\"prox\"{}", prox_attrs(po)?)),
        NsgsFallback::Patch(pp) => {
            let mut plain = PatchOptions::default();
            plain.layers = pp.layers;
            plain.prox = pp.prox.clone();
            if plain != *pp {
                return Err("patch fallback options other than the layers and PROX's steps are not written".into());
            }
            Ok(format!(" fallback=\"patch\" fallback_layers=\"{}\"{}", pp.layers, prox_attrs(&pp.prox)?))
        }
    }
}

/// The sample `samples/spheres_in_a_box/spheres_in_a_box_N.xml`: [`saltus_mechanics::scenes::spheres_in_a_box`]`(n, 1)`
/// written by [`scene_to_xml`].
pub fn spheres_in_a_box_xml(n: usize) -> Result<String, String> {
    let scene = saltus_mechanics::scenes::spheres_in_a_box(n, 1).map_err(|e| e.to_string())?;
    let title = format!(
        "{n} spheres (r = 0.01 m, 2320 kg/m3) dropped into a box: scenes::spheres_in_a_box({n}, 1), written by `cargo run -p saltus-frontend --example mechanics_xml -- {n} OUT.xml`"
    );
    scene_to_xml(&scene, &title)
}

/// The sample `samples/cube_pile/cube_pile_N.xml`: [`saltus_mechanics::scenes::cube_pile`]`(n, 1)`
/// written by [`scene_to_xml`].
pub fn cube_pile_xml(n: usize) -> Result<String, String> {
    let scene = saltus_mechanics::scenes::cube_pile(n, 1).map_err(|e| e.to_string())?;
    let title = format!(
        "{n} cubes (half edge 0.01 m, 2320 kg/m3, random orientations, mu = 0.5) dropped into a box: scenes::cube_pile({n}, 1), written by `cargo run -p saltus-frontend --example mechanics_xml -- cubes {n} OUT.xml`"
    );
    scene_to_xml(&scene, &title)
}
