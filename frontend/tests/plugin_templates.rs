//! The plugin templates build and work as documented in `docs/plugins.md`: `plugins/template-c`
//! (compiled with the C compiler the `cc` crate finds) and `plugins/template-rust` (copied to a
//! temporary folder and built there with cargo, outside the workspace); and the sample
//! `bouncing_ball_ts_c.xml`, whose weight comes from the C plugin `plugins/c_example`, gives the
//! same trajectory, bit for bit, as the sample with the weight written inline.
mod common;

use saltus_runtime::plugin::PluginResolver;
use std::path::Path;
use std::process::Command;

/// Calls the template functions of `lib` (in `dir`) and checks their values.
fn check_template(dir: &Path, lib: &str) {
    let mut r = PluginResolver::new(dir, vec![]);
    let w = r.time_fn(lib, "weight", "E", vec![2.0, 9.81]).unwrap();
    let mut out = [5.0; 3];
    w.call(0.0, &mut out).unwrap();
    assert_eq!(out, [-2.0 * 9.81, 0.0, 0.0]);
    assert!(r.time_fn(lib, "weight", "E", vec![1.0]).unwrap().call(0.0, &mut out).is_err(), "one param: a status");
    let (k, c) = (100.0, 0.5);
    let (q, v) = ([0.1, -0.2], [3.0, 4.0]);
    let f = r.lagrangian_fn(lib, "spring", "E", vec![k, c]).unwrap();
    let mut fo = [0.0; 2];
    f.call(0.0, &q, &v, &mut fo).unwrap();
    assert_eq!(fo, [k * q[0] + c * v[0], k * q[1] + c * v[1]]);
    // Jacobians: k I and c I, 2×2 column-major
    for (sym, a) in [("spring_jac_q", k), ("spring_jac_v", c)] {
        let j = r.lagrangian_fn(lib, sym, "E", vec![k, c]).unwrap();
        let mut jo = [9.0; 4];
        j.call(0.0, &q, &v, &mut jo).unwrap();
        assert_eq!(jo, [a, 0.0, 0.0, a], "{sym}");
    }
}

#[test]
fn the_c_template_builds_and_computes() {
    let tmp = tempfile::tempdir().unwrap();
    let src = common::workspace_root().join("plugins/template-c/my_plugin.c");
    common::compile_c_plugin(&src, tmp.path(), "my_plugin");
    check_template(tmp.path(), "my_plugin");
}

#[test]
fn the_rust_template_builds_outside_the_workspace() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::workspace_root();
    let crate_dir = tmp.path().join("my-plugin");
    std::fs::create_dir_all(crate_dir.join("src")).unwrap();
    for f in ["Cargo.toml", "src/lib.rs"] {
        std::fs::copy(root.join("plugins/template-rust").join(f), crate_dir.join(f)).unwrap();
    }
    // A copy points at the ABI crate of the checkout by an absolute path.
    let manifest = std::fs::read_to_string(crate_dir.join("Cargo.toml")).unwrap();
    assert!(!manifest.contains(".workspace = true"), "the template must not inherit workspace fields");
    let abi = root.join("plugins/abi");
    let manifest = manifest.replace("path = \"../abi\"", &format!("path = {:?}", abi.display().to_string()));
    std::fs::write(crate_dir.join("Cargo.toml"), manifest).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let target = tmp.path().join("target");
    let out = Command::new(cargo)
        .args(["build", "--release", "--offline", "--quiet", "--target-dir"])
        .arg(&target)
        .current_dir(&crate_dir)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("cargo");
    assert!(out.status.success(), "cargo build of the template failed:\n{}", String::from_utf8_lossy(&out.stderr));
    check_template(&target.join("release"), "my_saltus_plugin");
}

#[test]
fn the_c_plugin_sample_matches_the_inline_one() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::workspace_root();
    common::compile_c_plugin(&root.join("plugins/c_example/ball_weight.c"), tmp.path(), "ball_weight_c");
    let run = |model: &str, out: &Path| {
        let o = Command::new(env!("CARGO_BIN_EXE_saltus"))
            .arg("run")
            .arg(root.join("samples/bouncing_ball").join(model))
            .arg("-o")
            .arg(out)
            .arg("--plugin-dir")
            .arg(tmp.path())
            .arg("-q")
            .output()
            .unwrap();
        assert!(o.status.success(), "{model}: {}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(out).unwrap()
    };
    let c = run("bouncing_ball_ts_c.xml", &tmp.path().join("c.csv"));
    let inline = run("bouncing_ball_ts.xml", &tmp.path().join("inline.csv"));
    assert_eq!(c.lines().count(), 2002, "header, t0 and 2000 steps");
    assert!(c == inline, "the C plugin's weight -1 * 9.81 is the inline -9.81: same trajectory");
}
