//! `samples/disks_on_a_box` through `saltus run`, local (`disks_on_a_box.xml`) and global
//! (`disks_on_a_box_gosi.xml`: `<MoreauJeanGOSI>` with `<GlobalFrictionContact dim="2">`) 2D
//! formulations: the closed forms of the sample (impact time and rebound of the dropped disk,
//! rolling speed `2/3 v₀` of the sliding one, `r ω₀ / 3` of the spinning one) hold in both, and
//! the global run (whose condensed problem is the local one) follows the local run to the
//! solver's tolerance.

mod mech_util;

use mech_util::{run, sample};

const G: f64 = 9.81;

#[test]
fn local_and_global_2d_runs_follow_the_closed_forms_and_each_other() {
    let tmp = tempfile::tempdir().unwrap();
    let (local, _) = run(&sample("disks_on_a_box/disks_on_a_box.xml"), tmp.path(), &[]);
    let (global, _) = run(&sample("disks_on_a_box/disks_on_a_box_gosi.xml"), tmp.path(), &[]);
    for b in [&local, &global] {
        let (it, iy, ivy) = (b.idx("t"), b.idx("dropped.y"), b.idx("dropped.vy"));
        // free fall until t* = √(2 (3 − r)/g), then the rebound at e v*
        let t_hit = (2.0 * 2.5 / G).sqrt();
        let first = b.rows.iter().find(|r| r[ivy] > 0.0).expect("a rebound");
        // (the velocity-level impact falls in the step that closes the gap: within two steps of t*)
        assert!((first[it] - t_hit).abs() <= 2e-3, "impact at {}, t* = {t_hit}", first[it]);
        assert!((first[ivy] - 0.5 * G * t_hit).abs() <= 2e-2, "rebound speed {}", first[ivy]);
        // ... and climbs to e² (3 − r) above its resting height r (within the step's travel)
        let apex = b.rows.iter().filter(|r| r[it] > first[it] && r[it] < 1.5).map(|r| r[iy]).fold(0.0, f64::max);
        assert!((apex - 0.5 - 0.25 * 2.5).abs() <= 2e-2, "apex {apex}");
        // the sliding disk rolls at 2/3 v₀ once the friction has done its work
        assert!((b.last("sliding.vx") + 4.0 / 3.0).abs() <= 1e-6, "sliding {}", b.last("sliding.vx"));
        assert!((b.last("sliding.vx") + 0.5 * b.last("sliding.omega")).abs() <= 1e-9, "no slip");
        // the spinning disk rolls away at r ω₀ / 3
        assert!((b.last("spinning.vx") - 2.5 / 3.0).abs() <= 1e-6, "spinning {}", b.last("spinning.vx"));
    }
    assert_eq!(local.rows.len(), global.rows.len());
    for (x, y) in local.rows.iter().zip(&global.rows) {
        for (u, v) in x.iter().zip(y) {
            assert!((u - v).abs() <= 1e-9 * (1.0 + u.abs()), "{x:?} vs {y:?}");
        }
    }
}
