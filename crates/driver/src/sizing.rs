//! The benchmark's arithmetic and sizing: counts and milliseconds into TFLOPS and GB/s, launch
//! shapes from the card's size, iterations from a calibration launch, buffer sizes from free
//! memory, and each figure's share of the time. Pure.

use std::time::Duration;

/// Trillions of floating-point operations a second from `flops` done in `ms`.
#[expect(
    clippy::cast_precision_loss,
    reason = "a rate to report, to a few digits"
)]
pub fn tflops(flops: u128, ms: f64) -> f64 {
    flops as f64 / (ms / 1e3) / 1e12
}

/// GB/s (10^9 bytes) from `bytes` moved in `ms`.
#[expect(
    clippy::cast_precision_loss,
    reason = "a rate to report, to a few digits"
)]
pub fn gbs(bytes: u128, ms: f64) -> f64 {
    bytes as f64 / (ms / 1e3) / 1e9
}

/// FLOPs of an FMA-loop launch: 2 per FMA.
pub fn fma_flops(threads: u64, iterations: u64, fma_per_iteration: u32) -> u128 {
    2 * u128::from(threads) * u128::from(iterations) * u128::from(fma_per_iteration)
}

/// FLOPs of a tensor-loop launch: one warp-level `mma` is `flops_per_mma` for the whole warp.
pub fn mma_flops(
    threads: u64,
    iterations: u64,
    mma_per_iteration: u32,
    flops_per_mma: u64,
) -> u128 {
    let warps = u128::from(threads / 32);
    warps * u128::from(iterations) * u128::from(mma_per_iteration) * u128::from(flops_per_mma)
}

/// Bytes a device-to-device copy moves: each byte is read once and written once.
pub fn copy_bytes(buffer_bytes: u64, copies: u64) -> u128 {
    2 * u128::from(buffer_bytes) * u128::from(copies)
}

/// FLOPs of `count` square GEMMs of side `n`: 2·n³ each.
pub fn gemm_flops(n: u64, count: u64) -> u128 {
    2 * u128::from(n).pow(3) * u128::from(count)
}

/// Threads per block for every kernel: 8 warps.
pub const BLOCK_THREADS: u32 = 256;

/// Blocks for a kernel that should fill the card exactly once: every SM holds as many blocks as
/// the occupancy calculator allows, and no block waits for a second wave.
pub fn grid_blocks(sm_count: u32, blocks_per_sm: u32) -> u32 {
    sm_count.max(1).saturating_mul(blocks_per_sm.max(1))
}

/// How long one timed launch should take: long enough that launch overhead and the event
/// timer's resolution (about 0.5 µs) vanish, short enough that several fit in the share.
pub const TARGET_LAUNCH_MS: f64 = 25.0;

/// A calibration launch shorter than this is too noisy to size from; it is grown and rerun.
pub const MIN_CALIBRATION_MS: f64 = 1.0;

/// The units (loop iterations, copies, GEMMs) for a launch of about `target_ms`, from a
/// calibration launch of `calibrated` units that took `calibrated_ms`; at least 1, at most
/// `max_units`.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "the cast back happens below max_units only, and a negative saturates to 0, lifted to 1"
)]
pub fn units_for(target_ms: f64, calibrated: u64, calibrated_ms: f64, max_units: u64) -> u64 {
    if calibrated_ms.is_nan() || calibrated_ms <= 0.0 || calibrated_ms.is_infinite() {
        // The timer said nothing useful: grow by a fixed factor and measure again.
        return calibrated.saturating_mul(8).clamp(1, max_units.max(1));
    }
    let units = (calibrated as f64 * target_ms / calibrated_ms).floor();
    if units >= max_units as f64 {
        max_units.max(1)
    } else {
        (units as u64).max(1)
    }
}

/// The target for one launch within a share: [`TARGET_LAUNCH_MS`], or less when the share is
/// short, so that a warm-up and a few timed launches still fit.
pub fn target_ms(share: Duration) -> f64 {
    (share.as_secs_f64() * 1e3 / 6.0).min(TARGET_LAUNCH_MS)
}

/// One figure's share of what is left: `remaining` split by weight among the figures still to
/// run, this one included.
pub fn share(remaining: Duration, weight: u32, weights_left: u32) -> Duration {
    if weights_left == 0 {
        return Duration::ZERO;
    }
    remaining.mul_f64(f64::from(weight.min(weights_left)) / f64::from(weights_left))
}

/// Each copy buffer: 1 GiB, or less when free memory is short (two buffers, and room kept for
/// the context and the other figures); `None` below 64 MiB, too small to measure DRAM.
pub fn copy_buffer_bytes(free_bytes: u64) -> Option<u64> {
    const GIB: u64 = 1 << 30;
    const RESERVE: u64 = 512 << 20;
    const ALIGN: u64 = 2 << 20;
    let per_buffer = (free_bytes.saturating_sub(RESERVE) / 2).min(GIB) / ALIGN * ALIGN;
    (per_buffer >= 64 << 20).then_some(per_buffer)
}

/// The side of the square BF16 GEMM: 8192 (what the common PyTorch check runs) if three
/// matrices of 2-byte elements fit in half the free memory, else the largest smaller power of
/// two down to 1024; `None` if not even that fits.
pub fn gemm_side(free_bytes: u64) -> Option<u64> {
    [8192_u64, 4096, 2048, 1024]
        .into_iter()
        .find(|n| 3 * n * n * 2 <= free_bytes / 2)
}

/// The bits of a bfloat16 (the top half of the f32; truncated, exact for the values used here).
pub fn bf16_bits(x: f32) -> u16 {
    (x.to_bits() >> 16) as u16
}

/// The bits of an IEEE half for a normal `x` in half's range (mantissa truncated); 0 for a
/// value too small for a normal half.
pub fn f16_bits(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = i32::try_from((bits >> 23) & 0xff).unwrap_or(0) - 127 + 15;
    if exponent <= 0 {
        return sign;
    }
    let exponent = u16::try_from(exponent.min(30)).unwrap_or(30);
    let mantissa = ((bits >> 13) & 0x3ff) as u16;
    sign | (exponent << 10) | mantissa
}

/// Two 16-bit values in one 32-bit register, as an `mma` fragment holds them.
pub fn pack2(low: u16, high: u16) -> u32 {
    u32::from(low) | (u32::from(high) << 16)
}

/// `len` pseudo-random bfloat16 values in [-1, 1), for GEMM inputs: a GEMM of zeros runs
/// faster and cooler than one of real data. A block of distinct values, repeated.
#[expect(
    clippy::cast_precision_loss,
    reason = "pseudo-random bits scaled into [-1, 1); lost low bits do not matter"
)]
pub fn bf16_noise(len: usize, seed: u64) -> Vec<u16> {
    const BLOCK: usize = 1 << 16;
    let mut state = seed | 1;
    let mut out: Vec<u16> = (0..BLOCK.min(len))
        .map(|_| {
            // xorshift64
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let unit = (state >> 40) as f32 / (1u64 << 24) as f32;
            bf16_bits(unit * 2.0 - 1.0)
        })
        .collect();
    while out.len() < len {
        let more = (len - out.len()).min(out.len());
        out.extend_from_within(..more);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throughput_is_work_over_seconds() {
        // 10^12 FLOPs in 1 s is 1 TFLOPS; in half the time, twice that.
        assert!((tflops(1_000_000_000_000, 1000.0) - 1.0).abs() < 1e-12);
        assert!((tflops(1_000_000_000_000, 500.0) - 2.0).abs() < 1e-12);
        assert!((gbs(3_000_000_000, 1000.0) - 3.0).abs() < 1e-12);
    }

    #[test]
    fn a_copy_counts_each_byte_read_and_written() {
        assert_eq!(copy_bytes(1 << 30, 3), 6 << 30);
    }

    #[test]
    fn fma_and_mma_flops_count_from_their_constants() {
        assert_eq!(fma_flops(1024, 10, 128), 2 * 1024 * 10 * 128);
        // 64 threads are 2 warps; each mma is the warp's, not each thread's.
        assert_eq!(mma_flops(64, 10, 8, 4096), 2 * 10 * 8 * 4096);
        assert_eq!(gemm_flops(8192, 2), 2 * 2 * 8192_u128.pow(3));
    }

    #[test]
    fn the_grid_fills_each_sm_once() {
        assert_eq!(grid_blocks(132, 8), 1056);
        assert_eq!(grid_blocks(0, 0), 1);
    }

    #[test]
    fn units_scale_from_calibration_to_the_target() {
        assert_eq!(units_for(25.0, 100, 1.0, u64::MAX), 2500);
        assert_eq!(units_for(25.0, 100, 50.0, u64::MAX), 50);
        assert_eq!(units_for(25.0, 1, 100.0, u64::MAX), 1);
        assert_eq!(units_for(25.0, 100, 0.001, 1000), 1000);
        assert_eq!(units_for(25.0, 100, 0.0, u64::MAX), 800);
        assert_eq!(units_for(25.0, 100, f64::NAN, u64::MAX), 800);
    }

    #[test]
    fn a_short_share_asks_for_shorter_launches() {
        assert!((target_ms(Duration::from_secs(4)) - TARGET_LAUNCH_MS).abs() < 1e-12);
        assert!((target_ms(Duration::from_millis(60)) - 10.0).abs() < 1e-9);
    }

    #[test]
    fn the_time_left_is_split_by_weight_among_the_figures_left() {
        let left = Duration::from_secs(20);
        assert_eq!(share(left, 1, 4), Duration::from_secs(5));
        assert_eq!(share(left, 2, 4), Duration::from_secs(10));
        assert_eq!(share(left, 1, 1), left);
        assert_eq!(share(left, 1, 0), Duration::ZERO);
        assert_eq!(share(left, 5, 1), left, "never more than what is left");
    }

    #[test]
    fn copy_buffers_are_a_gib_or_fit_in_free_memory() {
        assert_eq!(copy_buffer_bytes(80 << 30), Some(1 << 30));
        let small = copy_buffer_bytes(1 << 30).unwrap();
        assert!(2 * small + (512 << 20) <= 1 << 30);
        assert_eq!(small % (2 << 20), 0);
        assert_eq!(copy_buffer_bytes(600 << 20), None);
    }

    #[test]
    fn the_gemm_is_8192_when_it_fits_and_smaller_when_not() {
        assert_eq!(gemm_side(80 << 30), Some(8192));
        assert_eq!(gemm_side(512 << 20), Some(4096));
        assert_eq!(gemm_side(1 << 20), None);
    }

    #[test]
    fn half_and_bfloat16_bits_follow_ieee() {
        assert_eq!(f16_bits(1.0), 0x3c00);
        assert_eq!(f16_bits(-2.0), 0xc000);
        assert_eq!(f16_bits(0.5), 0x3800);
        assert_eq!(bf16_bits(1.0), 0x3f80);
        assert_eq!(bf16_bits(-0.5), 0xbf00);
        assert_eq!(pack2(0x1234, 0xabcd), 0xabcd_1234);
    }

    #[test]
    fn noise_fills_the_length_with_values_in_range() {
        let v = bf16_noise(200_000, 7);
        assert_eq!(v.len(), 200_000);
        let as_f32 = |b: u16| f32::from_bits(u32::from(b) << 16);
        assert!(v.iter().all(|&b| (-1.0..1.0).contains(&as_f32(b))));
        let distinct: std::collections::HashSet<_> = v.iter().collect();
        assert!(distinct.len() > 100, "not a constant");
        assert_eq!(bf16_noise(10, 7).len(), 10);
    }
}
