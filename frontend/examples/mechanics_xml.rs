//! Writes the built-in scene `scenes::spheres_in_a_box(N, 1)` (or, after the word `cubes`,
//! `scenes::cube_pile(N, 1)`) as a `<Mechanics>` model file (every number in shortest
//! round-trip form: reading it back builds the same scene bit for bit).
//!
//! ```text
//! cargo run -p saltus-frontend --example mechanics_xml -- cubes 64 samples/cube_pile/cube_pile_64.xml
//! cargo run -p saltus-frontend --example mechanics_xml -- 125 samples/spheres_in_a_box/spheres_in_a_box_125.xml
//! cargo run -p saltus-frontend --example mechanics_xml -- 1000 samples/spheres_in_a_box/spheres_in_a_box_1000.xml
//! ```
//!
//! `frontend/tests/sample_spheres_in_a_box.rs` and `frontend/tests/sample_cube_pile.rs` check
//! that the files in `samples/` are what this writes.

use saltus_runtime::xml::mech_writer::{cube_pile_xml, spheres_in_a_box_xml};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (cubes, rest) = match args.split_first() {
        Some((w, rest)) if w == "cubes" => (true, rest),
        _ => (false, args.as_slice()),
    };
    let [n, out] = rest else {
        return Err("usage: mechanics_xml [cubes] N OUT.xml".into());
    };
    let n: usize = n.parse().map_err(|e| format!("N: {e}"))?;
    let text = if cubes { cube_pile_xml(n)? } else { spheres_in_a_box_xml(n)? };
    std::fs::write(out, text).map_err(|e| format!("{out}: {e}"))?;
    println!("wrote {out}");
    Ok(())
}
