//! `<LinearSMCOT2>` in a `<Control>` model whose plant is a `FirstOrderLinearDS` with `b(t)` from a
//! plugin (the Siconos tutorial `SMCExampleImplicitOT2`: `ẋ = b(t) + B u`, `b = (sin 50t, −sin 50t)`),
//! run by `saltus run`: the first control instant by hand, and the whole run against Siconos 4.4's
//! reference (`../shared/siconos-tutorials`, when present); a time-dependent `A` is refused by name.
mod common;

use std::path::Path;
use std::process::Command;

const PLUGIN: &str = r#"#include "saltus_plugin.h"
#include <math.h>
SALTUS_DEFINE_ABI_VERSION()
/* b(t) = (sin 50t, -sin 50t) */
SALTUS_EXPORT int32_t opposed_sines(double t, uint32_t nout, double *out, uint32_t np, const double *p) {
    (void)np; (void)p;
    if (nout != 2) return 1;
    out[0] = sin(50.0 * t);
    out[1] = -out[0];
    return SALTUS_STATUS_OK;
}
"#;

fn model(a: &str) -> String {
    format!(
        r#"<Model version="1.0" title="SMCExampleImplicitOT2">
  <Time t0="0" T="1"/>
  <NSDS>
    <FirstOrderLinearDS name="plant">
      <x0>1 -1</x0>
      {a}
      <b library="ot2" function="opposed_sines"/>
    </FirstOrderLinearDS>
  </NSDS>
  <Control ds="plant" h="1e-4" h_c="1e-2">
    <LinearSensor name="state"/>
    <LinearSMCOT2 name="ot2" sensor="state">
      <Csurface rows="1" cols="2">0 1</Csurface>
      <B rows="2" cols="1">0 2</B>
    </LinearSMCOT2>
  </Control>
</Model>
"#
    )
}

fn saltus(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).output().unwrap()
}

#[test]
fn linear_smc_ot2_on_a_plant_with_b_of_t() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("ot2.c");
    std::fs::write(&src, PLUGIN).unwrap();
    common::compile_c_plugin(&src, tmp.path(), "ot2");
    let file = tmp.path().join("ot2.xml");
    std::fs::write(&file, model(r#"<A rows="2" cols="2">0 0 0 0</A>"#)).unwrap();
    let out = tmp.path().join("ot2.csv");
    let o = saltus(&[
        "run".as_ref(),
        file.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "-q".as_ref(),
        "--plugin-dir".as_ref(),
        tmp.path().as_os_str(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("t,plant.x[0],plant.x[1],ot2.u[0]"));
    let rows: Vec<Vec<f64>> = lines.map(|l| l.split(',').map(|v| v.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 10_001);
    // at t = 0 the prediction error is zero: u_eq = −x₂/h_c = 100, clipped to 2
    assert_eq!(rows[0][3], 2.0);
    // x₁ = x₀ + h (b(h) + B u₀)
    let s = (50.0f64 * 1e-4).sin();
    assert!((rows[1][2] - (-1.0 + 1e-4 * (-s + 4.0))).abs() < 1e-15);
    let shared = std::env::var("SALTUS_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let reference = shared.join("siconos-tutorials/examples/control/SMC/SMCExampleImplicitOT2-py.ref");
    match std::fs::read_to_string(&reference) {
        Ok(text) => {
            let theirs: Vec<Vec<f64>> =
                text.lines().skip(1).map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect()).collect();
            assert_eq!(theirs.len(), rows.len());
            let worst = rows
                .iter()
                .zip(&theirs)
                .flat_map(|(a, b)| a.iter().zip(b).map(|(x, y)| (x - y).abs()))
                .fold(0.0f64, f64::max);
            assert!(worst < 1e-10, "largest difference from Siconos 4.4: {worst:e}");
        }
        Err(_) => eprintln!("{} absent: the comparison with Siconos is skipped", reference.display()),
    }
    // A(t) from a plugin: the ZOH simulation needs a constant A
    std::fs::write(&file, model(r#"<A rows="2" cols="2" library="ot2" function="opposed_sines"/>"#)).unwrap();
    let o = saltus(&["check".as_ref(), file.as_os_str(), "--plugin-dir".as_ref(), tmp.path().as_os_str()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("FirstOrderLinearDS[plant]/A") && err.contains("constant A"), "{err}");
}
