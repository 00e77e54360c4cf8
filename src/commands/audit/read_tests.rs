//! The bounds on what a bill file may give, with files built here: a gzip made of many small
//! members, each a MiB of zeros or of one repeated bill row, expands as far as any bomb would
//! while the test writes only a few KiB.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::write::GzEncoder;

use super::*;

const HEADER: &str = "BilledCost,ChargePeriodStart,ChargePeriodEnd,BillingCurrency,ResourceId\n";
const ROW: &str = "20.48,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USD,i-0bomb\n";

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::best());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// A gzip file of `head` and then `members` members each holding `unit` repeated to a MiB.
fn bomb(dir: &Path, head: &[u8], unit: &[u8], members: usize) -> PathBuf {
    let mut mib = Vec::with_capacity(1 << 20);
    while mib.len() + unit.len() <= 1 << 20 {
        mib.extend_from_slice(unit);
    }
    let member = gz(&mib);
    let mut file = gz(head);
    for _ in 0..members {
        file.extend_from_slice(&member);
    }
    let path = dir.join("bill.csv.gz");
    std::fs::write(&path, file).unwrap();
    path
}

/// Every line of the bill at `path`, read within `bounds`.
fn bill(path: &Path, bounds: Bounds) -> Result<Vec<BillLine>, Failure> {
    let mut lines = Vec::new();
    each(path, bounds, |l| lines.push(l))?;
    Ok(lines)
}

fn message(r: Result<Vec<BillLine>, Failure>) -> String {
    match r {
        Ok(lines) => panic!("read {} lines", lines.len()),
        Err(f) => f.message,
    }
}

#[test]
fn a_gzip_file_reads_as_what_it_holds_in_one_member_or_many() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{HEADER}{ROW}");
    let one = dir.path().join("one.csv.gz");
    std::fs::write(&one, gz(text.as_bytes())).unwrap();
    let lines = bill(&one, BOUNDS).unwrap();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].billed.amount.to_string(), "20.48");
    let two = bomb(dir.path(), HEADER.as_bytes(), ROW.as_bytes(), 2);
    let rows = 2 * ((1 << 20) / ROW.len());
    assert_eq!(bill(&two, BOUNDS).unwrap().len(), rows);
}

#[test]
fn a_gzip_bomb_of_zeros_or_of_blank_lines_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    // 2 GiB in about 2 MB: one endless row of zeros, or line breaks the reader skips.
    for unit in [b'\0', b'\n'] {
        let path = bomb(dir.path(), HEADER.as_bytes(), &[unit; 1024], 2048);
        assert!(std::fs::metadata(&path).unwrap().len() < 3 << 20);
        let e = message(bill(&path, BOUNDS));
        assert!(e.starts_with(&format!("{}:", path.display())), "{e}");
        assert!(e.contains("1 MiB read with no row ending"), "{e}");
    }
}

#[test]
fn a_gzip_bomb_of_bill_rows_is_refused_by_its_ratio_before_its_rows_fill_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = bomb(dir.path(), HEADER.as_bytes(), ROW.as_bytes(), 2048);
    let e = message(bill(&path, BOUNDS));
    assert!(e.starts_with(&format!("{}:", path.display())), "{e}");
    assert!(e.contains("past the first 16 MiB"), "{e}");
    assert!(e.contains("the bound is 256:1); refused"), "{e}");
    // The line reached is within the first 16 MiB and a little more, never the 2 GiB.
    let line: u64 = e.split(':').nth(1).unwrap().parse().unwrap();
    assert!(line < (20 << 20) / ROW.len() as u64, "{line}");
}

#[test]
fn a_file_past_the_total_is_refused_gzip_or_plain() {
    let dir = tempfile::tempdir().unwrap();
    let bounds = Bounds {
        total: 1 << 20,
        ratio: u64::MAX,
        ratio_after: 0,
    };
    let gzip = bomb(dir.path(), HEADER.as_bytes(), ROW.as_bytes(), 2);
    let e = message(bill(&gzip, bounds));
    assert!(
        e.contains("decompresses to more than 1 MiB, the bound on one bill file"),
        "{e}"
    );
    let plain = dir.path().join("bill.csv");
    std::fs::write(
        &plain,
        HEADER.to_string() + &ROW.repeat((2 << 20) / ROW.len()),
    )
    .unwrap();
    let e = message(bill(&plain, bounds));
    assert!(e.starts_with(&format!("{}:", plain.display())), "{e}");
    assert!(e.contains("more than 1 MiB"), "{e}");
    // Under the bound, the same rows read.
    let fits = Bounds {
        total: 4 << 20,
        ..bounds
    };
    assert_eq!(bill(&plain, fits).unwrap().len(), (2 << 20) / ROW.len());
}

#[test]
fn the_real_total_gives_no_byte_past_it_from_a_stream_of_five_gib() {
    let endless = io::repeat(b'0').take(5 << 30);
    let mut bounded = Bounded::new(endless, BOUNDS, None);
    let mut given = 0u64;
    let mut buf = vec![0u8; 1 << 20];
    let e = loop {
        match bounded.read(&mut buf) {
            Ok(0) => panic!("the stream ended at {given} bytes"),
            Ok(n) => given += n as u64,
            Err(e) => break e,
        }
    };
    assert_eq!(given, 4 << 30);
    assert!(e.to_string().contains("more than 4 GiB"), "{e}");
}

#[test]
fn a_gzip_stream_cut_short_is_an_error_on_the_line_reached() {
    let dir = tempfile::tempdir().unwrap();
    let rows: String = (0..2000).map(|_| ROW).collect();
    let packed = gz(format!("{HEADER}{rows}").as_bytes());
    let path = dir.path().join("cut.csv.gz");
    // Cut in the compressed rows, and in the trailer that holds their length and checksum.
    for keep in [packed.len() / 2, packed.len() - 6] {
        std::fs::write(&path, &packed[..keep]).unwrap();
        let e = message(bill(&path, BOUNDS));
        assert!(e.starts_with(&format!("{}:", path.display())), "{e}");
        assert!(
            e.contains("starts as gzip but cannot be decompressed"),
            "{e}"
        );
    }
}

#[test]
fn a_broken_gzip_file_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.csv.gz");
    std::fs::write(&path, [0x1f, 0x8b, 8, 0, 0]).unwrap();
    let e = message(bill(&path, BOUNDS));
    assert!(e.contains("cannot be decompressed"), "{e}");
}
