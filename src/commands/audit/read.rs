//! Reading the bill files: regular files only, gunzipped when they start with the gzip magic
//! (AWS writes its exports as `.csv.gz`), each handed to the core's readers with the name the
//! user gave it.

use std::io::Read;
use std::path::Path;

use flate2::read::MultiGzDecoder;
use gpumeter_core::audit::{BillLine, read_bill};

use super::super::Failure;

/// The first two bytes of every gzip member (RFC 1952, section 2.3.1).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
/// The most a decompressed bill may hold: a year of hourly lines for a large account is a few
/// GiB; more is taken for a file that is not a bill.
const MAX_BYTES: u64 = 8 << 30;

/// Every line of every file in `paths`, in the order given.
pub fn bills(paths: &[std::path::PathBuf]) -> Result<Vec<BillLine>, Failure> {
    let mut lines = Vec::new();
    for path in paths {
        let name = path.display().to_string();
        let bytes = bytes(path).map_err(|e| Failure::bad_input(format!("{name}: {e}")))?;
        lines.extend(read_bill(&name, &bytes).map_err(|e| Failure::bad_input(e.to_string()))?);
    }
    Ok(lines)
}

/// The file's bytes, decompressed when it is gzip.
fn bytes(path: &Path) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read it: {e}"))?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    let raw = std::fs::read(path).map_err(|e| format!("cannot read it: {e}"))?;
    if !raw.starts_with(&GZIP_MAGIC) {
        return Ok(raw);
    }
    gunzip(&raw)
}

/// `raw` gunzipped, every member of it (a gzip file may be several joined).
fn gunzip(raw: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    MultiGzDecoder::new(raw)
        .take(MAX_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("starts as gzip but cannot be decompressed: {e}"))?;
    if out.len() as u64 > MAX_BYTES {
        return Err(format!("decompresses to more than {} GiB", MAX_BYTES >> 30));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use flate2::Compression;
    use flate2::write::GzEncoder;

    use super::*;

    #[test]
    fn a_gzip_file_reads_as_what_it_holds() {
        let text = b"BilledCost,BillingCurrency\n1.00,USD\n";
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(text).unwrap();
        let packed = gz.finish().unwrap();
        assert!(packed.starts_with(&GZIP_MAGIC));
        assert_eq!(gunzip(&packed).unwrap(), text);
    }

    #[test]
    fn a_broken_gzip_file_is_an_error_not_a_panic() {
        let e = gunzip(&[0x1f, 0x8b, 8, 0, 0]).unwrap_err();
        assert!(e.contains("cannot be decompressed"), "{e}");
    }
}
