//! The benchmark on the real GPUs, behind one function, and how its figures find their NVML
//! index: CUDA numbers the devices in its own order, so they are matched by PCI bus id.

use std::time::Duration;

use crate::telemetry::{GpuSample, Metric};
use gpumeter_core::verify::{BenchError, Measured};

/// Runs the throughput benchmark on every GPU the CUDA driver sees, within `budget`
/// (`gpumeter-driver`: the CUDA driver API, loaded at run time). Blocks for about the budget.
pub fn run_benchmark(budget: Duration) -> Result<Vec<Measured>, BenchError> {
    gpumeter_driver::run(&gpumeter_driver::Plan {
        budget,
        ordinals: None,
    })
}

/// Gives each figure the NVML index of the card with its PCI bus id. A figure whose bus id
/// NVML does not list keeps the index it came with.
pub fn match_by_bus(measured: &mut [Measured], gpus: &[GpuSample]) {
    for m in measured {
        let Some(bus) = m.pci_bus_id.as_deref() else {
            continue;
        };
        let found = gpus.iter().find(|g| match &g.pci_bus_id {
            Metric::Value(id) => gpumeter_driver::same_pci_bus(id, bus),
            Metric::Unavailable(_) => false,
        });
        if let Some(gpu) = found {
            m.index = gpu.index;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::telemetry::Unavailable;
    use gpumeter_core::verify::Figure;

    fn measured(index: u32, bus: Option<&str>) -> Measured {
        Measured {
            index,
            pci_bus_id: bus.map(str::to_string),
            mem_bandwidth_gbs: Figure::Measured { value: 1.0 },
            fp32_tflops: Figure::NotRun {
                reason: "test".into(),
            },
            bf16_tflops: Figure::NotRun {
                reason: "test".into(),
            },
            fp16_tflops: Figure::NotRun {
                reason: "test".into(),
            },
            gemm_bf16_tflops: Figure::NotRun {
                reason: "test".into(),
            },
            sm_clock_mhz: None,
            seconds: 1.0,
        }
    }

    fn gpu(index: u32, bus: Option<&str>) -> GpuSample {
        let mut g = GpuSample::unavailable(index, Unavailable::Unsupported);
        if let Some(bus) = bus {
            g.pci_bus_id = Metric::Value(bus.to_string());
        }
        g
    }

    #[test]
    fn figures_take_the_nvml_index_of_their_bus() {
        let gpus = [
            gpu(0, Some("00000000:17:00.0")),
            gpu(1, Some("00000000:65:00.0")),
            gpu(2, None),
        ];
        // CUDA lists the cards the other way round.
        let mut m = [
            measured(0, Some("0000:65:00.0")),
            measured(1, Some("0000:17:00.0")),
            measured(2, Some("0000:99:00.0")),
            measured(3, None),
        ];
        match_by_bus(&mut m, &gpus);
        let indices: Vec<u32> = m.iter().map(|m| m.index).collect();
        assert_eq!(indices, [1, 0, 2, 3]);
    }
}
