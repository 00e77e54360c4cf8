//! The benchmark's kernels, as PTX text written here (no NVRTC, no toolkit): the driver
//! JIT-compiles it when the module is loaded. Pure: text in, text out.
//!
//! The tests below check the text's structure (entries, directives, declared registers, the
//! instruction counts the FLOP formulas use); they do not compile it, as the build machines
//! have no `ptxas`. When these kernels were written they were also compiled by hand with
//! ptxas 12.9 (sm_75 to sm_120) and 13.5 (sm_75, sm_80, sm_90, sm_100, sm_120), and the SASS
//! held the counted FFMA and HMMA instructions; at run time the driver's JIT is the compiler.
//!
//! Instruction facts from NVIDIA's PTX ISA document ("Warp-level matrix multiply-accumulate
//! instructions: mma", PTX ISA and target notes).

use std::fmt::Write as _;

use crate::isa::{Chosen, Isa, Needs};

/// Independent FMA chains per thread: enough to cover the FMA pipeline's latency.
pub const FMA_CHAINS: u32 = 8;
/// Each chain's FMAs per loop iteration (unrolled, so the loop's own instructions are few).
pub const FMA_UNROLL: u32 = 16;
/// FMAs one thread does per loop iteration; the FLOP count is 2 per FMA.
pub const FMA_PER_ITERATION: u32 = FMA_CHAINS * FMA_UNROLL;

/// Independent accumulators per warp in the tensor loop: each loop iteration issues this many
/// `mma.sync`, one per accumulator, so consecutive ones do not wait on each other.
pub const MMA_PER_ITERATION: u32 = 8;

/// The FMA kernel's entry point.
pub const FMA_ENTRY: &str = "gpumeter_fma_f32";

/// The FMA loop needs nothing beyond the first PTX targets the driver still builds.
pub const FMA_NEEDS: Needs = Needs {
    sm: 50,
    isa: Isa(4, 0),
};

/// The inputs of a tensor-core kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MmaInput {
    Bf16,
    F16,
}

/// One warp-level `mma.sync` form: its shape, its input type and what it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mma {
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub input: MmaInput,
    pub needs: Needs,
}

/// BF16 in, FP32 accumulate: sm_80, PTX ISA 7.0.
pub const MMA_BF16: Mma = Mma {
    m: 16,
    n: 8,
    k: 16,
    input: MmaInput::Bf16,
    needs: Needs {
        sm: 80,
        isa: Isa(7, 0),
    },
};

/// FP16 in, FP32 accumulate, the Ampere shape: sm_80, PTX ISA 7.0.
pub const MMA_F16: Mma = Mma {
    m: 16,
    n: 8,
    k: 16,
    input: MmaInput::F16,
    needs: Needs {
        sm: 80,
        isa: Isa(7, 0),
    },
};

/// FP16 in, FP32 accumulate, the Turing shape: sm_75, PTX ISA 6.5.
pub const MMA_F16_TURING: Mma = Mma {
    m: 16,
    n: 8,
    k: 8,
    input: MmaInput::F16,
    needs: Needs {
        sm: 75,
        isa: Isa(6, 5),
    },
};

impl Mma {
    /// FLOPs of one warp-level instruction: a multiply and an add per M·N·K.
    pub fn flops(&self) -> u64 {
        2 * u64::from(self.m) * u64::from(self.n) * u64::from(self.k)
    }

    /// The kernel's entry point.
    pub fn entry(&self) -> String {
        let input = match self.input {
            MmaInput::Bf16 => "bf16",
            MmaInput::F16 => "f16",
        };
        format!("gpumeter_mma_{input}_m{}n{}k{}", self.m, self.n, self.k)
    }

    /// 32-bit registers per thread holding A (M×K halves over 32 threads, two per register),
    /// B (K×N) and C/D (M×N floats).
    fn regs(&self) -> (u32, u32, u32) {
        (
            self.m * self.k / 64,
            self.k * self.n / 64,
            self.m * self.n / 32,
        )
    }

    fn instruction(&self) -> String {
        let input = match self.input {
            MmaInput::Bf16 => "bf16",
            MmaInput::F16 => "f16",
        };
        format!(
            "mma.sync.aligned.m{}n{}k{}.row.col.f32.{input}.{input}.f32",
            self.m, self.n, self.k
        )
    }
}

fn header(chosen: Chosen) -> String {
    format!(
        ".version {}\n.target sm_{}\n.address_size 64\n\n",
        chosen.isa, chosen.sm
    )
}

/// `%name{from}, ..., %name{from + count - 1}` inside braces.
fn reg_list(name: &str, from: u32, count: u32) -> String {
    let regs: Vec<String> = (from..from + count)
        .map(|i| format!("%{name}{i}"))
        .collect();
    format!("{{{}}}", regs.join(", "))
}

/// The registers both kernels use, one declaration a line.
const DECLARATIONS: &str = "\t.reg .pred %p;
\t.reg .b32 %r<5>;
\t.reg .b64 %rd<3>;
\t.reg .f32 %fsum;
";

/// The lines shared by both kernels: the parameters into registers, the global thread index
/// into `%r4`, and `%p` set when there are no iterations.
const PROLOGUE: &str = "\tld.param.u64 %rd0, [p_out];
\tcvta.to.global.u64 %rd0, %rd0;
\tld.param.u32 %r0, [p_iterations];
\tmov.u32 %r1, %ctaid.x;
\tmov.u32 %r2, %ntid.x;
\tmov.u32 %r3, %tid.x;
\tmad.lo.u32 %r4, %r1, %r2, %r3;
";

/// Store `%f_sum` to `out[global thread index]`, so no work is optimised away.
const EPILOGUE: &str = "\tmul.wide.u32 %rd1, %r4, 4;
\tadd.u64 %rd2, %rd0, %rd1;
\tst.global.f32 [%rd2], %fsum;
\tret;
}
";

const LOOP_TAIL: &str = "\tsub.u32 %r0, %r0, 1;
\tsetp.ne.u32 %p, %r0, 0;
\t@%p bra LOOP;
DONE:
";

/// The FP32 kernel: `(out: *f32, iterations: u32, mul: f32, add: f32)`. Each thread runs
/// [`FMA_CHAINS`] independent chains `x = x·mul + add`, [`FMA_PER_ITERATION`] FMAs per
/// iteration, then stores their sum.
pub fn fma_kernel(chosen: Chosen) -> String {
    let mut s = header(chosen);
    let _ = write!(
        s,
        ".visible .entry {FMA_ENTRY}(\n\t.param .u64 p_out,\n\t.param .u32 p_iterations,\n\t.param .f32 p_mul,\n\t.param .f32 p_add\n)\n{{\n"
    );
    let _ = write!(
        s,
        "{DECLARATIONS}\t.reg .f32 %fm;\n\t.reg .f32 %fa;\n\t.reg .f32 %x<{FMA_CHAINS}>;\n"
    );
    s += PROLOGUE;
    s += "\tld.param.f32 %fm, [p_mul];\n\tld.param.f32 %fa, [p_add];\n";
    s += "\tcvt.rn.f32.u32 %x0, %r4;\n";
    for chain in 1..FMA_CHAINS {
        // A distinct start per chain; the immediate is the f32's bits, as PTX writes floats.
        #[expect(
            clippy::cast_precision_loss,
            reason = "a handful of chains, exact in f32"
        )]
        let offset = (chain as f32).to_bits();
        let _ = writeln!(s, "\tadd.f32 %x{chain}, %x0, 0f{offset:08X};");
    }
    s += "\tsetp.eq.u32 %p, %r0, 0;\n\t@%p bra DONE;\nLOOP:\n";
    for _ in 0..FMA_UNROLL {
        for chain in 0..FMA_CHAINS {
            let _ = writeln!(s, "\tfma.rn.f32 %x{chain}, %x{chain}, %fm, %fa;");
        }
    }
    s += LOOP_TAIL;
    s += "\tmov.f32 %fsum, %x0;\n";
    for chain in 1..FMA_CHAINS {
        let _ = writeln!(s, "\tadd.f32 %fsum, %fsum, %x{chain};");
    }
    s += EPILOGUE;
    s
}

/// A tensor-core kernel: `(out: *f32, iterations: u32, a: u32, b: u32)`, where `a` and `b` are
/// two packed 16-bit inputs each, copied into every A and B fragment register. Each warp runs
/// [`MMA_PER_ITERATION`] independent `mma.sync` per iteration, then each thread stores the sum
/// of its accumulators.
pub fn mma_kernel(mma: Mma, chosen: Chosen) -> String {
    let (a_regs, b_regs, c_regs) = mma.regs();
    let acc_regs = c_regs * MMA_PER_ITERATION;
    let mut s = header(chosen);
    let _ = write!(
        s,
        ".visible .entry {}(\n\t.param .u64 p_out,\n\t.param .u32 p_iterations,\n\t.param .u32 p_a,\n\t.param .u32 p_b\n)\n{{\n",
        mma.entry()
    );
    let _ = write!(
        s,
        "{DECLARATIONS}\t.reg .b32 %a<{a_regs}>;\n\t.reg .b32 %b<{b_regs}>;\n\t.reg .f32 %d<{acc_regs}>;\n"
    );
    s += PROLOGUE;
    s += "\tld.param.u32 %a0, [p_a];\n\tld.param.u32 %b0, [p_b];\n";
    for i in 1..a_regs {
        let _ = writeln!(s, "\tmov.b32 %a{i}, %a0;");
    }
    for i in 1..b_regs {
        let _ = writeln!(s, "\tmov.b32 %b{i}, %b0;");
    }
    for i in 0..acc_regs {
        let _ = writeln!(s, "\tmov.f32 %d{i}, 0f00000000;");
    }
    s += "\tsetp.eq.u32 %p, %r0, 0;\n\t@%p bra DONE;\nLOOP:\n";
    let a = reg_list("a", 0, a_regs);
    let b = reg_list("b", 0, b_regs);
    for acc in 0..MMA_PER_ITERATION {
        let d = reg_list("d", acc * c_regs, c_regs);
        let _ = writeln!(s, "\t{} {d}, {a}, {b}, {d};", mma.instruction());
    }
    s += LOOP_TAIL;
    s += "\tmov.f32 %fsum, %d0;\n";
    for i in 1..acc_regs {
        let _ = writeln!(s, "\tadd.f32 %fsum, %fsum, %d{i};");
    }
    s += EPILOGUE;
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::choose;

    #[test]
    fn every_kernel_builds_under_the_oldest_driver_the_benchmark_supports_on_each_card() {
        // The benchmark needs a CUDA 12.0 driver (R525, the cudarc API set it is built for);
        // Blackwell cards came with CUDA 12.8. (A Turing card under a CUDA 10.0 or 10.1 driver
        // could not build the m16n8k8 kernel, which needs PTX 6.5: such drivers are not
        // supported.)
        let cards = [
            (70, 12000),
            (75, 12000),
            (80, 12000),
            (86, 12000),
            (89, 12000),
            (90, 12000),
            (100, 12080),
            (120, 12080),
        ];
        let kernels = [
            FMA_NEEDS,
            MMA_BF16.needs,
            MMA_F16.needs,
            MMA_F16_TURING.needs,
        ];
        for (card, cuda) in cards {
            for needs in kernels.iter().filter(|n| n.sm <= card) {
                assert!(
                    choose(*needs, card, cuda).is_ok(),
                    "sm_{card} on CUDA {cuda}: {needs:?}"
                );
            }
        }
    }

    fn chosen_for(needs: Needs) -> Chosen {
        choose(needs, 90, 12080).unwrap()
    }

    #[test]
    fn the_fma_kernel_has_its_directives_its_entry_and_the_counted_fmas() {
        let chosen = chosen_for(FMA_NEEDS);
        let ptx = fma_kernel(chosen);
        assert!(ptx.starts_with(&format!(
            ".version {}\n.target sm_{}\n",
            chosen.isa, chosen.sm
        )));
        assert!(ptx.contains(&format!(".visible .entry {FMA_ENTRY}(")));
        let fmas = ptx.matches("fma.rn.f32").count();
        assert_eq!(u32::try_from(fmas).unwrap(), FMA_PER_ITERATION);
        assert!(ptx.contains("st.global.f32"));
        assert!(!ptx.contains('\0'), "the loader needs text without NUL");
    }

    #[test]
    fn each_tensor_kernel_issues_the_counted_mmas_of_its_own_form() {
        for mma in [MMA_BF16, MMA_F16, MMA_F16_TURING] {
            let chosen = choose(mma.needs, 90, 12080).unwrap();
            let ptx = mma_kernel(mma, chosen);
            assert!(ptx.starts_with(&format!(
                ".version {}\n.target sm_{}\n",
                chosen.isa, chosen.sm
            )));
            assert!(ptx.contains(&format!(".visible .entry {}(", mma.entry())));
            assert_eq!(
                u32::try_from(ptx.matches("mma.sync.aligned").count()).unwrap(),
                MMA_PER_ITERATION
            );
            assert_eq!(
                u32::try_from(ptx.matches(&mma.instruction()).count()).unwrap(),
                MMA_PER_ITERATION
            );
            assert!(ptx.contains("st.global.f32"));
        }
    }

    #[test]
    fn fragment_registers_follow_the_shape() {
        // The PTX ISA's fragment sizes: m16n8k16 takes 4 A, 2 B and 4 C registers; m16n8k8 2, 1, 4.
        assert_eq!(MMA_BF16.regs(), (4, 2, 4));
        assert_eq!(MMA_F16_TURING.regs(), (2, 1, 4));
        let ptx = mma_kernel(MMA_F16_TURING, chosen_for(MMA_F16_TURING.needs));
        assert!(ptx.contains("{%d0, %d1, %d2, %d3}, {%a0, %a1}, {%b0}, {%d0, %d1, %d2, %d3}"));
    }

    #[test]
    fn the_flops_of_one_mma_are_two_per_multiply_add() {
        assert_eq!(MMA_BF16.flops(), 2 * 16 * 8 * 16);
        assert_eq!(MMA_F16_TURING.flops(), 2 * 16 * 8 * 8);
    }

    #[test]
    fn the_instruction_forms_match_the_isa_names() {
        assert_eq!(
            MMA_BF16.instruction(),
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
        );
        assert_eq!(
            MMA_F16_TURING.instruction(),
            "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32"
        );
    }

    #[test]
    fn every_register_used_is_declared() {
        let ptx = mma_kernel(MMA_BF16, chosen_for(MMA_BF16.needs));
        let acc = 4 * MMA_PER_ITERATION;
        assert!(ptx.contains(&format!("%d<{acc}>")));
        assert!(ptx.contains(&format!("%d{}", acc - 1)));
        assert!(!ptx.contains(&format!("%d{acc},")) && !ptx.contains(&format!("%d{acc}}}")));
    }
}
