//! Finding the newest checkpoint on disk, and the mount it lives on.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use gpumeter::cockpit::checkpoints::newest;

#[test]
fn the_newest_matching_file_wins_and_its_mount_is_the_longest_prefix() {
    let dir = std::env::temp_dir().join(format!("gpumeter-ckpt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, age) in [("a.pt", 300), ("b.pt", 10), ("c.txt", 0)] {
        let path = dir.join(name);
        std::fs::write(&path, b"x").unwrap();
        let f = std::fs::File::options().write(true).open(&path).unwrap();
        f.set_modified(SystemTime::now() - Duration::from_secs(age))
            .unwrap();
    }
    let mounts = vec![PathBuf::from("/"), dir.clone()];
    let pattern = format!("{}/*.pt", dir.display());
    let found = newest(&pattern, &mounts).unwrap().expect("a checkpoint");
    assert_eq!(found.path, dir.join("b.pt"));
    assert_eq!(found.mount, dir);
    assert!(
        newest(&format!("{}/*.bin", dir.display()), &mounts)
            .unwrap()
            .is_none()
    );
    assert!(
        newest("[", &mounts).is_err(),
        "a bad pattern is an error, not nothing"
    );
    std::fs::remove_dir_all(&dir).ok();
}
