//! The plugin loader against the example cdylib plugins and a plugin written in C.
mod common;

use saltus_runtime::plugin::{PluginCallError, PluginError, PluginResolver};

fn resolver() -> PluginResolver {
    PluginResolver::new("/nonexistent-model-dir", vec![common::plugin_dir()])
}

#[test]
fn rust_plugin_weight_force() {
    let mut r = resolver();
    let f = r
        .time_fn("saltus_plugin_bouncing_ball", "ball_weight", "NSDS/LagrangianLinearTIDS[ball]/FExt", vec![1.0, 9.81])
        .unwrap();
    let mut out = [1.0; 3];
    f.call(0.25, &mut out).unwrap();
    assert_eq!(out, [-9.81, 0.0, 0.0]);
}

#[test]
fn all_four_signatures_pass_their_arguments() {
    let mut r = resolver();
    let lib = "saltus_plugin_testing";
    let ramp = r.time_fn(lib, "ramp", "E", vec![2.0]).unwrap();
    let mut out = [0.0; 2];
    ramp.call(1.5, &mut out).unwrap();
    assert_eq!(out, [3.0, 4.0]);
    let sd = r.lagrangian_fn(lib, "spring_damper", "E", vec![10.0, 0.5]).unwrap();
    let mut f = [0.0; 2];
    sd.call(0.0, &[1.0, -2.0], &[4.0, 2.0], &mut f).unwrap();
    assert_eq!(f, [12.0, -19.0]);
    let decay = r.vector_field_fn(lib, "decay", "E", vec![3.0]).unwrap();
    let mut dx = [0.0; 2];
    decay.call(0.0, &[1.0, 2.0], &mut dx).unwrap();
    assert_eq!(dx, [-3.0, -6.0]);
    let rel = r.relation_fn(lib, "affine_relation", "E", vec![]).unwrap();
    let mut y = [0.0];
    rel.call(0.0, &[1.0, 9.0], &[0.25], &mut y).unwrap();
    assert_eq!(y, [1.5]);
}

#[test]
fn library_is_loaded_once_and_shared() {
    let mut r = resolver();
    let a = r.library("saltus_plugin_testing", "A").unwrap();
    let b = r.library("saltus_plugin_testing", "B").unwrap();
    assert!(std::sync::Arc::ptr_eq(&a, &b));
}

#[test]
fn missing_library_names_element_and_candidates() {
    let mut r = resolver();
    let err = r.time_fn("no_such_plugin", "f", "NSDS/LagrangianLinearTIDS[ball]/FExt", vec![]).unwrap_err();
    assert!(matches!(err, PluginError::NotFound { .. }));
    let msg = err.to_string();
    assert!(msg.contains("NSDS/LagrangianLinearTIDS[ball]/FExt"), "{msg}");
    assert!(msg.contains("libno_such_plugin.so"), "{msg}");
    assert!(msg.contains("/nonexistent-model-dir/libno_such_plugin.so"), "{msg}");
}

#[test]
fn missing_symbol_names_library_symbol_element() {
    let mut r = resolver();
    let err = r.time_fn("saltus_plugin_testing", "no_such_fn", "NSDS/X[a]/FExt", vec![]).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, PluginError::MissingSymbol { .. }));
    assert!(
        msg.contains("libsaltus_plugin_testing.so") && msg.contains("`no_such_fn`") && msg.contains("NSDS/X[a]/FExt"),
        "{msg}"
    );
}

#[test]
fn nonzero_status_panic_and_nan_are_errors() {
    let mut r = resolver();
    let lib = "saltus_plugin_testing";
    let mut out = [0.0; 2];
    let e = r.time_fn(lib, "always_fails", "E1", vec![]).unwrap().call(0.0, &mut out).unwrap_err();
    assert!(matches!(e, PluginCallError::Status { status: 7, .. }), "{e}");
    assert!(e.to_string().contains("always_fails") && e.to_string().contains("E1"));
    // The panic is caught inside the plugin (the test process survives) and reported as a status.
    let e = r.time_fn(lib, "always_panics", "E2", vec![]).unwrap().call(0.0, &mut out).unwrap_err();
    assert!(matches!(e, PluginCallError::Status { status: saltus_plugin_abi::STATUS_PANIC, .. }), "{e}");
    assert!(e.to_string().contains("panicked"), "{e}");
    let e = r.time_fn(lib, "returns_nan", "E3", vec![]).unwrap().call(0.5, &mut out).unwrap_err();
    assert!(matches!(e, PluginCallError::NonFinite { index: 0, .. }), "{e}");
}

#[test]
fn plugin_written_in_c() {
    let tmp = tempfile::tempdir().unwrap();
    let src = common::workspace_root().join("plugins/c_example/ball_weight.c");
    common::compile_c_plugin(&src, tmp.path(), "ball_weight_c");
    // Resolved relative to the model directory (first), with no --plugin-dir.
    let mut r = PluginResolver::new(tmp.path(), vec![]);
    let f = r.time_fn("ball_weight_c", "c_ball_weight", "E", vec![2.0, 10.0]).unwrap();
    let mut out = [7.0; 3];
    f.call(0.0, &mut out).unwrap();
    assert_eq!(out, [-20.0, 0.0, 0.0]);
    let e = r.time_fn("ball_weight_c", "c_always_fails", "E", vec![]).unwrap().call(0.0, &mut out).unwrap_err();
    assert!(matches!(e, PluginCallError::Status { status: 42, .. }));
    // Also by explicit relative path with extension.
    let f = r.time_fn("libball_weight_c.so", "c_ball_weight", "E", vec![1.0, 1.0]).unwrap();
    f.call(0.0, &mut out).unwrap();
    assert_eq!(out[0], -1.0);
}

#[test]
fn wrong_or_missing_abi_version_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let wrong = tmp.path().join("wrong.c");
    std::fs::write(
        &wrong,
        "#include <stdint.h>\nuint32_t saltus_plugin_abi_version(void) { return 99; }\nint32_t f(void) { return 0; }\n",
    )
    .unwrap();
    common::compile_c_plugin(&wrong, tmp.path(), "wrong_abi");
    let none = tmp.path().join("none.c");
    std::fs::write(&none, "int f(void) { return 0; }\n").unwrap();
    common::compile_c_plugin(&none, tmp.path(), "no_abi");
    let mut r = PluginResolver::new(tmp.path(), vec![]);
    let e = r.library("wrong_abi", "Elem/W").unwrap_err();
    assert!(matches!(e, PluginError::AbiMismatch { found: 99, .. }), "{e}");
    assert!(e.to_string().contains("version 99") && e.to_string().contains("Elem/W"), "{e}");
    let e = r.library("no_abi", "Elem/N").unwrap_err();
    assert!(matches!(e, PluginError::NoAbiVersion { .. }), "{e}");
    assert!(e.to_string().contains("saltus_plugin_abi_version"), "{e}");
}

#[test]
fn not_a_shared_library_is_a_load_error() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("libjunk.so"), b"not an ELF file").unwrap();
    let mut r = PluginResolver::new(tmp.path(), vec![]);
    let e = r.library("junk", "Elem").unwrap_err();
    assert!(matches!(e, PluginError::Load { .. }), "{e}");
}
