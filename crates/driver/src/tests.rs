//! `run`'s edges that need no GPU: the library-absent path, the ordinals, the collection.

use super::*;

#[test]
fn without_the_driver_library_run_says_no_driver_and_does_not_panic() {
    let plan = Plan {
        budget: Duration::from_secs(1),
        ordinals: None,
    };
    let result = run(&plan);
    // SAFETY: as in `load::driver`: load and close the driver library, call nothing of it.
    if unsafe { cudarc::driver::sys::is_culib_present() } {
        // A machine with the driver: whatever it answers, it is not "no driver".
        match result {
            Ok(measured) => assert!(!measured.is_empty()),
            Err(err) => assert_ne!(err.kind, BenchErrorKind::NoDriver),
        }
    } else {
        let err = result.unwrap_err();
        assert_eq!(err.kind, BenchErrorKind::NoDriver);
        assert!(
            err.detail.contains("libcuda.so.1"),
            "names the files tried: {}",
            err.detail
        );
    }
}

#[test]
fn every_gpu_is_picked_unless_some_are_asked_for() {
    assert_eq!(pick(None, 3).unwrap(), vec![0, 1, 2]);
    assert_eq!(pick(Some(&[2, 0, 2]), 3).unwrap(), vec![0, 2]);
}

#[test]
fn no_gpu_or_an_ordinal_the_driver_lacks_is_no_device() {
    assert_eq!(pick(None, 0).unwrap_err().kind, BenchErrorKind::NoDevice);
    let err = pick(Some(&[0, 4]), 2).unwrap_err();
    assert_eq!(err.kind, BenchErrorKind::NoDevice);
    assert!(err.detail.contains('4') && err.detail.contains('2'));
    assert_eq!(
        pick(Some(&[]), 2).unwrap_err().kind,
        BenchErrorKind::NoDevice
    );
}

#[test]
fn results_come_back_in_ordinal_order() {
    let (tx, rx) = mpsc::channel();
    let began = Instant::now();
    tx.send((1, gpu::all_failed(1, None, "x", began))).unwrap();
    tx.send((0, gpu::all_failed(0, None, "x", began))).unwrap();
    let got = collect(&rx, &[0, 1], Instant::now() + Duration::from_secs(60)).unwrap();
    assert_eq!(got.iter().map(|m| m.index).collect::<Vec<_>>(), vec![0, 1]);
}

#[test]
fn a_gpu_that_does_not_report_in_time_is_a_timeout_naming_it() {
    let (tx, rx) = mpsc::channel();
    tx.send((0, gpu::all_failed(0, None, "x", Instant::now())))
        .unwrap();
    // The sender stays alive, as a stuck GPU's thread would; the limit is already past.
    let err = collect(&rx, &[0, 3], Instant::now()).unwrap_err();
    drop(tx);
    assert_eq!(err.kind, BenchErrorKind::Timeout);
    assert!(err.detail.contains('3') && !err.detail.contains("0,"));
}

#[test]
fn cuinit_failures_are_told_apart() {
    assert_eq!(
        init_error_kind(CUresult::CUDA_ERROR_NO_DEVICE),
        BenchErrorKind::NoDevice
    );
    assert_eq!(
        init_error_kind(CUresult::CUDA_ERROR_STUB_LIBRARY),
        BenchErrorKind::NoDriver
    );
    assert_eq!(
        init_error_kind(CUresult::CUDA_ERROR_UNKNOWN),
        BenchErrorKind::Cuda
    );
}
