//! HDF5 output in the Siconos `mechanics_hdf5` layout: written by a run (`rust-hdf5`), read back
//! with an independent HDF5 implementation (`hdf5-pure`) and checked against the simulation
//! (poses, |q| = 1, Coulomb's cone, the weight carried by resting contacts), and loaded by h5py
//! when `/usr/bin/python3` has it.

use nalgebra::{Matrix3, Vector3};
use saltus_mechanics::io_hdf5::{Hdf5Options, MechanicsHdf5Writer};
use saltus_mechanics::relation::contact_frame;
use saltus_mechanics::shape::Sphere;
use saltus_mechanics::{
    nsgs, scenes, BodyDesc, BodyState, ContactLaw, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, ShapeDesc,
};

fn read(path: &std::path::Path, name: &str) -> (Vec<f64>, usize) {
    let f = hdf5_pure::File::open(path).unwrap();
    let ds = f.dataset(&format!("data/{name}")).unwrap();
    let shape = ds.shape().unwrap();
    let v = ds.read_f64().unwrap();
    assert_eq!(v.len() as u64, shape[0] * shape[1]);
    (v, shape[1] as usize)
}

/// 27 spheres falling into their box for 150 steps, output every 10: every table has the
/// Siconos width, the last rows are the final state, the cone holds, ids match `data/input`.
#[test]
fn spheres_run_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("spheres.hdf5");
    let scene = scenes::spheres_in_a_box(27, 7).unwrap();
    let mut sim = scene.into_simulation().unwrap();
    let every = 10;
    let mut w = MechanicsHdf5Writer::create(&path, &sim, Hdf5Options { output_frequency: every, ..Default::default() })
        .unwrap();
    let (steps, mut active_out) = (150usize, 0);
    for k in 1..=steps {
        let rep = sim.step().unwrap();
        w.record(&sim, &rep).unwrap();
        if k.is_multiple_of(every) {
            active_out += rep.n_active;
        }
    }
    w.close().unwrap();
    let n = 27;
    let (dynamic, c) = read(&path, "dynamic");
    assert_eq!(c, 9);
    assert_eq!(dynamic.len() / 9, n * (1 + steps / every));
    // Quaternions stay unit; the last block is the final state, bit for bit.
    for row in dynamic.chunks(9) {
        let q = Vector3::new(row[6], row[7], row[8]).norm_squared() + row[5] * row[5];
        assert!((q - 1.0).abs() < 1e-12, "|q|² = {q}");
    }
    let last = &dynamic[dynamic.len() - 9 * n..];
    for (i, row) in last.chunks(9).enumerate() {
        let s = &sim.model.bodies[i].state;
        assert_eq!(row[0], sim.time());
        assert_eq!(row[1], (i + 1) as f64);
        assert_eq!(&row[2..5], s.position.as_slice());
        assert_eq!(
            [row[5], row[6], row[7], row[8]],
            [s.orientation.w, s.orientation.i, s.orientation.j, s.orientation.k]
        );
    }
    let (vel, c) = read(&path, "velocities");
    assert_eq!(c, 8);
    for (i, row) in vel[vel.len() - 8 * n..].chunks(8).enumerate() {
        let s = &sim.model.bodies[i].state;
        assert_eq!(&row[2..5], s.v.as_slice());
        assert_eq!(&row[5..8], s.omega.as_slice());
    }
    // Static: ground and walls with ids −1, −2 at t0.
    let (st, c) = read(&path, "static");
    assert_eq!((c, st.len() / 9), (9, 2));
    assert_eq!((st[0], st[1], st[10]), (0.0, -1.0, -2.0));
    // Contacts: Coulomb's cone on the local impulse, cf = F r, normal unit, ids in range.
    let (cf, c) = read(&path, "cf");
    assert_eq!(c, 26);
    assert_eq!(cf.len() / 26, active_out);
    assert!(active_out > 0, "the spheres reach the ground within 0.15 s");
    for row in cf.chunks(26) {
        let (mu, n_c, f_w, r) = (
            row[1],
            Vector3::new(row[8], row[9], row[10]),
            Vector3::new(row[11], row[12], row[13]),
            Vector3::new(row[20], row[21], row[22]),
        );
        assert_eq!(mu, 0.3);
        assert!((n_c.norm() - 1.0).abs() < 1e-12);
        assert!(r.x >= 0.0);
        assert!(r.yz().norm() <= mu * r.x * (1.0 + 1e-6) + 1e-15, "|r_T| = {} > μ r_N = {}", r.yz().norm(), mu * r.x);
        assert!((contact_frame(&n_c) * r - f_w).norm() <= 1e-15 + 1e-12 * r.norm());
        // posa − posb is the gap along the normal.
        let d = Vector3::new(row[2] - row[5], row[3] - row[6], row[4] - row[7]);
        assert!((d.dot(&n_c) - row[14]).abs() < 1e-12, "gap {} vs {}", d.dot(&n_c), row[14]);
        assert!(row[24] >= 1.0 && row[24] <= 27.0 && row[25] >= -2.0 && row[25] != 0.0 && row[25] <= 27.0);
    }
    let (solv, c) = read(&path, "solv");
    assert_eq!((c, solv.len() / 4), (4, steps / every));
    assert!(solv.chunks(4).all(|r| r[2] <= 1e-6), "NSGS residuals within the tolerance");
    // Scene description.
    let f = hdf5_pure::File::open(&path).unwrap();
    let sphere = f.dataset("data/ref/Sphere0").unwrap();
    assert_eq!(sphere.read_f64().unwrap(), vec![scenes::spheres::RADIUS]);
    assert_eq!(sphere.attrs().unwrap()["primitive"].as_str(), Some("Sphere"));
    let input = f.group("data/input/sphere26").unwrap().attrs().unwrap();
    assert_eq!(input["id"].as_i64(), Some(27));
    assert_eq!(input["mass"], hdf5_pure::AttrValue::F64Array(vec![sim.model.bodies[26].mass()]));
    assert_eq!(f.group("data/input/walls").unwrap().datasets().unwrap().len(), 4);
}

/// A ball at rest and a ball sliding on a plane: the rows of `data/cf` carry `m g h` normal
/// impulses, the sliding friction `μ m g h` against the motion, and the sliding velocity.
#[test]
fn resting_and_sliding_impulses() {
    let (r, m, h, mu) = (0.1, 2.0, 1e-3, 0.4);
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -9.81), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, mu)).unwrap();
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    let ball = |name: &str, x: f64, v: f64| {
        BodyDesc::dynamic(name)
            .shape_at_origin(ShapeDesc::from(Sphere { radius: r }))
            .mass(m, Matrix3::from_diagonal_element(0.4 * m * r * r))
            .state(BodyState { position: Vector3::new(x, 0.0, r), v: Vector3::new(v, 0.0, 0.0), ..Default::default() })
    };
    model.add_body(ball("rest", 0.0, 0.0)).unwrap();
    model.add_body(ball("slide", 1.0, 2.0)).unwrap();
    let opts = MoreauJeanOptions { solver: nsgs(1e-12, 1000), ..Default::default() };
    let mut sim = MechanicsSimulation::new(model, 0.0, h, opts).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("slide.hdf5");
    let mut w = MechanicsHdf5Writer::create(&path, &sim, Hdf5Options::default()).unwrap();
    for _ in 0..20 {
        let rep = sim.step().unwrap();
        w.record(&sim, &rep).unwrap();
    }
    w.close().unwrap();
    let (cf, _) = read(&path, "cf");
    assert_eq!(cf.len() / 26, 40);
    let w_imp = m * 9.81 * h;
    for row in cf.chunks(26) {
        assert_eq!((row[24] > 0.0, row[25]), (true, -1.0), "A is the ball, B the ground (id −1)");
        assert!((row[13] - w_imp).abs() < 1e-9 * w_imp, "normal impulse {} vs m g h {w_imp}", row[13]);
        if row[24] == 2.0 {
            // Sliding along +x (it slows but does not stop within 20 steps).
            assert!((row[11] + mu * w_imp).abs() < 1e-9 * w_imp, "friction {} vs −μ m g h", row[11]);
            let slip = Vector3::new(row[17], row[18], row[19]);
            assert!(slip.x.abs() < 1e-9 && slip.norm() > 1.0, "relative velocity {slip:?}");
        } else {
            assert!(Vector3::new(row[11], row[12], 0.0).norm() < 1e-9 * w_imp);
        }
    }
}

/// h5py (Debian's python3-h5py) reads the file like a Siconos one.
#[test]
fn h5py_loads_it() {
    let py = std::path::Path::new("/usr/bin/python3");
    let ok = py.exists()
        && std::process::Command::new(py).args(["-c", "import h5py"]).output().is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: /usr/bin/python3 cannot import h5py (apt-get install python3-h5py)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("spheres.hdf5");
    let mut sim = scenes::spheres_in_a_box(8, 3).unwrap().into_simulation().unwrap();
    let mut w =
        MechanicsHdf5Writer::create(&path, &sim, Hdf5Options { output_frequency: 5, ..Default::default() }).unwrap();
    for _ in 0..100 {
        let rep = sim.step().unwrap();
        w.record(&sim, &rep).unwrap();
    }
    w.close().unwrap();
    let script = "import sys, h5py, numpy as np\n\
f = h5py.File(sys.argv[1], 'r')\n\
d = f['data']\n\
dyn = d['dynamic'][:]\n\
last = dyn[dyn[:, 0] == dyn[:, 0].max()]\n\
print(dyn.shape[1], d['velocities'].shape[1], d['cf'].shape[1], d['static'].shape[1], d['solv'].shape[1])\n\
print(len(last), repr(float(last[:, 4].mean())))\n\
print(d['ref']['Sphere0'].attrs['primitive'], d['input']['sphere0'].attrs['id'], d['input']['ground'].attrs['id'])\n";
    let out = std::process::Command::new(py).args(["-c", script]).arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "9 8 26 9 4");
    let mean_z: f64 = sim.model.bodies[..8].iter().map(|b| b.state.position.z).sum::<f64>() / 8.0;
    let (count, z) = lines[1].split_once(' ').unwrap();
    assert_eq!(count, "8");
    assert!((z.parse::<f64>().unwrap() - mean_z).abs() <= 1e-15 * mean_z.abs().max(1.0));
    assert_eq!(lines[2], "Sphere 1 -1");
}

/// A triangle mesh is written as Siconos writes it, one string of VTK XML PolyData (`type =
/// "vtp"`), which VTK's own reader (what `siconos_vview` uses) parses back into the same points
/// and triangles, when `/usr/bin/python3` has h5py and vtk.
#[test]
fn mesh_is_written_as_a_vtk_string_that_vtk_reads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mesh.hdf5");
    let vertices = vec![
        Vector3::new(-1.0, -1.0, 0.0),
        Vector3::new(1.0, -1.0, 0.1),
        Vector3::new(1.0, 1.0, 0.0),
        Vector3::new(-1.0, 1.0, 1.0 / 3.0),
    ];
    let indices = vec![[0, 1, 2], [0, 2, 3]];
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -9.81), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    let mesh = ShapeDesc::TriMesh { vertices: vertices.clone(), indices: indices.clone() };
    model.add_body(BodyDesc::fixed("floor").shape_at_origin(mesh)).unwrap();
    let ball = ShapeDesc::from(Sphere { radius: 0.1 });
    let state = BodyState { position: Vector3::new(0.0, 0.0, 0.5), ..Default::default() };
    model.add_body(BodyDesc::dynamic("ball").shape_at_origin(ball).density(1000.0).state(state)).unwrap();
    let opts = MoreauJeanOptions { theta: 0.5, solver: nsgs(1e-8, 100), ..Default::default() };
    let mut sim = MechanicsSimulation::new(model, 0.0, 1e-3, opts).unwrap();
    let mut w = MechanicsHdf5Writer::create(&path, &sim, Hdf5Options::default()).unwrap();
    for _ in 0..10 {
        let rep = sim.step().unwrap();
        w.record(&sim, &rep).unwrap();
    }
    w.close().unwrap();
    // the text itself: every point and triangle, exact decimals
    let text = saltus_mechanics::io_hdf5::vtk_polydata(&vertices, &indices);
    assert!(text.contains("NumberOfPoints=\"4\"") && text.contains("NumberOfPolys=\"2\""));
    assert!(text.contains(&format!("-1 1 {}", 1.0 / 3.0)));
    let py = std::path::Path::new("/usr/bin/python3");
    let ok = py.exists()
        && std::process::Command::new(py).args(["-c", "import h5py, vtk"]).output().is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped the VTK reading: /usr/bin/python3 cannot import h5py and vtk (python3-h5py, python3-vtk9)");
        return;
    }
    let script = r#"import sys, h5py, vtk
f = h5py.File(sys.argv[1], 'r')
d = f['data/ref'][sys.argv[2]]
s = d[0].decode() if isinstance(d[0], bytes) else d[0]
r = vtk.vtkXMLPolyDataReader()
r.ReadFromInputStringOn()
r.SetInputString(s)
r.Update()
p = r.GetOutput()
print(d.attrs['type'], p.GetNumberOfPoints(), p.GetNumberOfPolys())
print(' '.join(repr(x) for i in range(p.GetNumberOfPoints()) for x in p.GetPoint(i)))
ids = vtk.vtkIdList()
p.GetPolys().InitTraversal()
out = []
while p.GetPolys().GetNextCell(ids):
    out += [ids.GetId(k) for k in range(ids.GetNumberOfIds())]
print(' '.join(map(str, out)))
"#;
    let f = hdf5_pure::File::open(&path).unwrap();
    let name = f.group("data/ref").unwrap().datasets().unwrap().into_iter().find(|n| n.starts_with("Mesh")).unwrap();
    let out = std::process::Command::new(py).args(["-c", script]).arg(&path).arg(&name).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "vtp 4 2");
    let pts: Vec<f64> = lines[1].split(' ').map(|x| x.parse().unwrap()).collect();
    let expect: Vec<f64> = vertices.iter().flat_map(|v| v.iter().copied()).collect();
    assert_eq!(pts, expect, "VTK reads the exact points");
    assert_eq!(lines[2], "0 1 2 0 2 3");
}
