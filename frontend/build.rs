// Passes the target triple to the integration tests (the `cc` crate needs it outside build scripts).
fn main() {
    let target = std::env::var("TARGET").unwrap_or_default();
    println!("cargo:rustc-env=SALTUS_TEST_TARGET={target}");
}
