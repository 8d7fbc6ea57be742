//! `<Newton residu_y residu_r>` (Siconos `setComputeResiduY/R`): the varactor sample with both
//! set validates against the XSD, reads back both flags, and a value that is not a boolean is an
//! error at the line of `<Newton>`.

use saltus_runtime::xml::load_str;
use std::path::Path;
use std::process::Command;

fn varactor_with(newton: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("samples/varactor_diode/varactor_diode.xml")).unwrap();
    let old = "<Newton tol=\"1e-12\" max_iter=\"20\"/>";
    assert!(text.contains(old), "the sample's <Newton> changed");
    text.replace(old, newton)
}

#[test]
fn newton_residual_flags_validate_and_read_back() {
    let text = varactor_with("<Newton tol=\"1e-12\" max_iter=\"20\" residu_y=\"true\" residu_r=\"true\"/>");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("varactor.xml");
    std::fs::write(&file, &text).unwrap();
    let xsd = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/saltus-model.xsd");
    if let Ok(o) = Command::new("xmllint").arg("--noout").arg("--schema").arg(&xsd).arg(&file).output() {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let loaded = load_str(&text, &file).unwrap();
    let newton = loaded.model.simulation.as_ref().unwrap().newton.as_ref().unwrap();
    assert_eq!((newton.residu_y, newton.residu_r), (Some(true), Some(true)));
    // absent: off (Siconos's default), so every existing model keeps its Newton test
    let plain = load_str(&varactor_with("<Newton tol=\"1e-12\"/>"), &file).unwrap();
    let newton = plain.model.simulation.as_ref().unwrap().newton.as_ref().unwrap();
    assert_eq!((newton.residu_y, newton.residu_r), (None, None));
    let bad_text = varactor_with("<Newton residu_r=\"maybe\"/>");
    let line = bad_text[..bad_text.find("<Newton").unwrap()].matches('\n').count() + 1;
    let bad = load_str(&bad_text, &file).unwrap_err().to_string();
    assert!(bad.contains(&format!(":{line}:")) && bad.contains("not a boolean"), "{bad}");
}
