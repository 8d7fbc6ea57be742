//! An HDF5 output survives a crash as the CSV does: a run killed with SIGKILL in the middle of
//! its steps leaves a file that an independent HDF5 reader (`hdf5-pure`; and h5py, when
//! `/usr/bin/python3` has it) opens, holding every step written before the last flush
//! ([`saltus_mechanics::io_hdf5::FLUSH_INTERVAL`]), each a complete frame of every moving body.
#![cfg(unix)]

use saltus_mechanics::io_hdf5::{Hdf5Options, MechanicsHdf5Writer};
use saltus_mechanics::scenes;
use std::process::Command;
use std::time::{Duration, Instant};

/// Set in the child process: the path it writes to, forever, until it is killed.
const CHILD: &str = "SALTUS_HDF5_KILLED_CHILD";
const N: usize = 64;

fn write_until_killed(path: &str) {
    let mut sim = scenes::spheres_in_a_box(N, 3).unwrap().into_simulation().unwrap();
    let mut w = MechanicsHdf5Writer::create(path, &sim, Hdf5Options::default()).unwrap();
    loop {
        let rep = sim.step().unwrap();
        w.record(&sim, &rep).unwrap();
    }
}

#[test]
fn killed_run_leaves_a_readable_file() {
    if let Ok(path) = std::env::var(CHILD) {
        write_until_killed(&path);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("killed.hdf5");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["killed_run_leaves_a_readable_file", "--exact", "--test-threads=1"])
        .env(CHILD, &path)
        .spawn()
        .unwrap();
    // Several flush intervals of writing, then SIGKILL (std's kill sends SIGKILL on unix).
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(2500) {
        std::thread::sleep(Duration::from_millis(50));
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the writer ended by itself: {status}");
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let f = hdf5_pure::File::open(&path).expect("the killed run's file opens");
    let ds = f.dataset("data/dynamic").unwrap();
    let shape: Vec<usize> = ds.shape().unwrap().into_iter().map(|n| n as usize).collect();
    assert_eq!(shape[1], 9, "data/dynamic has Siconos's 9 columns");
    let rows = ds.read_f64().unwrap();
    let frames = shape[0] / N;
    assert!(frames >= 2, "only {} rows written before the kill", shape[0]);
    // whole frames of every moving body, in time order, with finite unit quaternions
    assert_eq!(shape[0] % N, 0, "a partial frame: {} rows for {N} bodies", shape[0]);
    for k in 0..frames {
        let t = rows[9 * k * N];
        for b in 0..N {
            let r = &rows[9 * (k * N + b)..9 * (k * N + b + 1)];
            assert_eq!(r[0], t, "frame {k} mixes times");
            let q = (r[5] * r[5] + r[6] * r[6] + r[7] * r[7] + r[8] * r[8]).sqrt();
            assert!(r.iter().all(|x| x.is_finite()) && (q - 1.0).abs() < 1e-9, "frame {k}, body {b}: {r:?}");
        }
        if k > 0 {
            assert!(t > rows[9 * (k - 1) * N], "frames out of time order");
        }
    }
    let py = "import h5py, sys; f = h5py.File(sys.argv[1], 'r'); print(f['data']['dynamic'].shape[0])";
    match Command::new("/usr/bin/python3").args(["-c", py]).arg(&path).output() {
        Ok(o) if o.status.success() => {
            let n: usize = String::from_utf8_lossy(&o.stdout).trim().parse().unwrap();
            assert_eq!(n, shape[0], "h5py reads another number of rows");
        }
        Ok(o) if String::from_utf8_lossy(&o.stderr).contains("No module named") => {
            eprintln!("h5py check skipped: /usr/bin/python3 has no h5py");
        }
        Ok(o) => panic!("h5py cannot open the killed run's file: {}", String::from_utf8_lossy(&o.stderr)),
        Err(e) => eprintln!("h5py check skipped: {e}"),
    }
}
