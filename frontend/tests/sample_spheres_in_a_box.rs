//! `samples/spheres_in_a_box/*.xml`: the files are what `scenes::spheres_in_a_box(N, 1)` writes
//! (the `mechanics_xml` example), the 125-sphere file builds the Rust scene bit for bit (same
//! parameters, same states and impulses step after step), and a run through `saltus run`
//! balances momentum: Σ m Δv = M g T + the impulses of the ground and walls (contact file).

mod mech_util;

use mech_util::{impulse_from, run, sample, unit_quaternions, with_final_time};
use saltus_mechanics::scenes::{spheres, spheres_in_a_box};
use saltus_runtime::xml::convert_mech::build_mechanics;
use saltus_runtime::xml::load_file;
use saltus_runtime::xml::mech_writer::spheres_in_a_box_xml;

#[test]
fn sample_files_are_up_to_date() {
    for n in [125, 1000] {
        let path = sample(&format!("spheres_in_a_box/spheres_in_a_box_{n}.xml"));
        let on_disk = std::fs::read_to_string(&path).unwrap();
        assert!(
            on_disk == spheres_in_a_box_xml(n).unwrap(),
            "{} is stale: regenerate it with\n  cargo run -p saltus-frontend --example mechanics_xml -- {n} {}",
            path.display(),
            path.display()
        );
    }
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn xml_scene_is_the_rust_scene_bit_for_bit() {
    for (n, steps) in [(125, 200), (1000, 0)] {
        let loaded = load_file(&sample(&format!("spheres_in_a_box/spheres_in_a_box_{n}.xml"))).unwrap();
        let built = build_mechanics(&loaded).unwrap();
        let scene = spheres_in_a_box(n, 1).unwrap();
        assert_eq!((built.h, built.t0, built.t_end), (scene.h, 0.0, scene.t_end));
        assert_eq!(built.options, scene.options);
        let (a, b) = (&built.model, &scene.model);
        assert_eq!(bits(a.gravity.as_slice()), bits(b.gravity.as_slice()));
        assert_eq!(a.margin.to_bits(), b.margin.to_bits());
        assert_eq!(a.law(0, 0), b.law(0, 0));
        assert_eq!(a.n_bodies(), b.n_bodies());
        for (x, y) in a.bodies.iter().zip(&b.bodies) {
            assert_eq!((&x.name, x.kind, x.group), (&y.name, y.kind, y.group));
            assert_eq!(x.mass().to_bits(), y.mass().to_bits(), "{}", x.name);
            assert_eq!(bits(x.inertia().as_slice()), bits(y.inertia().as_slice()), "{}", x.name);
            assert_eq!(x.state, y.state, "{}", x.name);
            assert_eq!(x.collider_range(), y.collider_range());
        }
        for (x, y) in a.colliders.iter().zip(&b.colliders) {
            assert_eq!((&x.desc, x.offset), (&y.desc, y.offset));
        }
        let mut sx = built.simulation().unwrap();
        let mut sy = scene.into_simulation().unwrap();
        for k in 0..steps {
            let (rx, ry) = (sx.step().unwrap(), sy.step().unwrap());
            let key = |r: &saltus_mechanics::MechanicsStepReport| {
                let s = r.solver.as_ref().map(|s| (s.status, s.iterations, s.residual.to_bits()));
                (r.t.to_bits(), r.n_contacts, r.n_active, r.n_pairs, s, r.gyro_not_converged)
            };
            assert_eq!(key(&rx), key(&ry), "step {k}");
            for (x, y) in sx.model.bodies.iter().zip(&sy.model.bodies) {
                let s = |b: &saltus_mechanics::RigidBody| {
                    let st = b.state;
                    let mut v = st.position.as_slice().to_vec();
                    v.extend(st.orientation.coords.iter());
                    v.extend(st.v.iter().chain(st.omega.iter()));
                    bits(&v)
                };
                assert_eq!(s(x), s(y), "{} at step {k}", x.name);
            }
            let imp = |c: &[saltus_mechanics::ContactPoint]| -> Vec<u64> {
                c.iter().flat_map(|c| bits(c.impulse.as_slice())).collect()
            };
            assert_eq!(imp(sx.contacts()), imp(sy.contacts()), "impulses at step {k}");
        }
        if steps > 0 {
            assert!(sx.contacts().iter().any(|c| c.active), "the spheres have reached the ground");
        }
    }
}

/// 150 steps through `saltus run --contacts`: the spheres' momentum changes by the weight's
/// impulse plus what the ground and the walls gave (sphere–sphere impulses cancel), to
/// round-off; every sphere stays inside the box; quaternions stay unit.
#[test]
fn run_balances_momentum_with_the_contact_file() {
    let tmp = tempfile::tempdir().unwrap();
    let t_end = 0.15;
    let model = with_final_time(&sample("spheres_in_a_box/spheres_in_a_box_125.xml"), tmp.path(), t_end);
    let (bodies, contacts) = run(&model, tmp.path(), &[]);
    assert_eq!(bodies.rows.len(), 151);
    assert!(contacts.rows.len() > 1000, "{} contact rows", contacts.rows.len());
    let r = spheres::RADIUS;
    let m = spheres::DENSITY * 4.0 / 3.0 * std::f64::consts::PI * r.powi(3);
    let n = 125;
    let half_w = 0.5 * 5.0 * spheres::SPACING * r;
    let mut dp = [0.0; 3];
    for i in 0..n {
        for (k, c) in ["vx", "vy", "vz"].iter().enumerate() {
            let name = format!("sphere{i}.{c}");
            dp[k] += m * (bodies.last(&name) - bodies.first(&name));
        }
        let (x, y, z) = (
            bodies.last(&format!("sphere{i}.x")),
            bodies.last(&format!("sphere{i}.y")),
            bodies.last(&format!("sphere{i}.z")),
        );
        let tol = 0.05 * r;
        assert!(x.abs() <= half_w - r + tol && y.abs() <= half_w - r + tol && z >= r - tol, "sphere{i} at {x} {y} {z}");
        unit_quaternions(&bodies, &format!("sphere{i}"), 1e-12);
    }
    // ground = body 125, walls = body 126
    let p = impulse_from(&contacts, &[125.0, 126.0]);
    let weight = n as f64 * m * 9.81 * t_end;
    let expected = [p[0], p[1], p[2] - weight];
    for k in 0..3 {
        assert!(
            (dp[k] - expected[k]).abs() <= 1e-10 * weight,
            "axis {k}: Σ m Δv = {}, impulses {}",
            dp[k],
            expected[k]
        );
    }
    assert!(p[2] > 0.3 * weight, "the ground carries part of the weight already: {} of {weight}", p[2]);
}

/// The sample's solver sweeps on slabs, on as many threads as rayon has: `saltus run` on one
/// thread and on two writes the same bytes (poses, twists and every contact impulse of 200 steps).
#[test]
fn run_writes_the_same_bytes_on_one_and_two_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let model = with_final_time(&sample("spheres_in_a_box/spheres_in_a_box_125.xml"), tmp.path(), 0.2);
    assert!(std::fs::read_to_string(&model).unwrap().contains(r#"domains="2""#), "the sample sweeps on slabs");
    let mut outputs = vec![];
    for threads in ["1", "2"] {
        let out = tmp.path().join(format!("out{threads}.csv"));
        let res = std::process::Command::new(env!("CARGO_BIN_EXE_saltus"))
            .args(["run", "-q", "--contacts"])
            .arg(&model)
            .arg("-o")
            .arg(&out)
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        assert!(res.status.success(), "{}", String::from_utf8_lossy(&res.stderr));
        let contacts = tmp.path().join(format!("out{threads}.contacts.csv"));
        outputs.push((std::fs::read(&out).unwrap(), std::fs::read(&contacts).unwrap()));
    }
    assert!(outputs[0].1.len() > 100_000, "the pile has contacts: {} bytes", outputs[0].1.len());
    assert!(outputs[0].0 == outputs[1].0, "body rows differ between one and two threads");
    assert!(outputs[0].1 == outputs[1].1, "contact rows differ between one and two threads");
}
