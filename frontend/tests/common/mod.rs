//! Shared helpers of the frontend integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Crates whose cdylibs the tests load.
pub const PLUGIN_CRATES: &[&str] = &[
    "saltus-plugin-bouncing-ball",
    "saltus-plugin-diode-bridge",
    "saltus-plugin-testing",
    "saltus-plugin-complementarity",
];

/// Builds the example plugin crates once (through `$CARGO build -p …`, same target dir and dev
/// profile as the tests) and returns the directory holding the shared libraries.
pub fn plugin_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.arg("build").current_dir(workspace_root());
        for c in PLUGIN_CRATES {
            cmd.args(["-p", c]);
        }
        let status = cmd.status().expect("cannot run cargo to build the example plugins");
        assert!(status.success(), "building the example plugins failed");
        // target/debug/deps/<test-exe> -> target/debug
        let exe = std::env::current_exe().expect("current_exe");
        exe.parent().and_then(Path::parent).expect("target dir").to_path_buf()
    })
    .clone()
}

/// The workspace root (parent of the frontend crate).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// Compiles a C source into a shared library in `out_dir` with the `cc` crate's compiler.
pub fn compile_c_plugin(src: &Path, out_dir: &Path, name: &str) -> PathBuf {
    let compiler = cc::Build::new()
        .cargo_metadata(false)
        .opt_level(0)
        .target(env!("SALTUS_TEST_TARGET"))
        .host(env!("SALTUS_TEST_TARGET"))
        .get_compiler();
    let out = out_dir.join(format!("lib{name}.so"));
    let include = workspace_root().join("plugins/abi/include");
    let status = compiler
        .to_command()
        .args(["-shared", "-fPIC", "-I"])
        .arg(&include)
        .arg(src)
        .arg("-o")
        .arg(&out)
        .status()
        .expect("cannot run the C compiler");
    assert!(status.success(), "compiling {} failed", src.display());
    out
}
