//! The instruction set that kernels with a version for wider vectors run with, detected at run
//! time: the `value-layers` engine's block kernels and the rare-values engine's lanes.

/// Instruction-set level chosen at run time.
#[derive(Clone, Copy, Debug)]
pub enum Isa {
    /// Whatever the target's baseline is.
    Portable,
    /// AVX2.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// AVX-512 F, BW and VBMI.
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

/// The best level this processor has, found once: the kernels ask at every call (a sweep of a
/// few splits asking the processor each time spent 1% of `.167`'s time on it).
pub fn detect() -> Isa {
    static DETECTED: std::sync::OnceLock<Isa> = std::sync::OnceLock::new();
    *DETECTED.get_or_init(best_level)
}

/// [`detect`], asking the processor.
fn best_level() -> Isa {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi")
        {
            return Isa::Avx512;
        }
        if std::is_x86_feature_detected!("avx2") {
            return Isa::Avx2;
        }
    }
    Isa::Portable
}

/// Every level this processor has, the portable one first, for the tests that check each
/// kernel compiled for a level against the portable one; each level it lacks is reported as
/// a check of the current test skipped.
#[cfg(test)]
pub fn every_here() -> Vec<Isa> {
    #[allow(unused_mut)]
    let mut isas = vec![Isa::Portable];
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            isas.push(Isa::Avx2);
        } else {
            lacking("AVX2");
        }
        if let Isa::Avx512 = detect() {
            isas.push(Isa::Avx512);
        } else {
            lacking("AVX-512 F, BW and VBMI");
        }
    }
    isas
}

/// The record of a check skipped, shared with the integration tests.
#[cfg(test)]
#[path = "../../tests/it/support/skipped.rs"]
mod skipped;

/// Reports that the current test could not run its kernels for `level`, which this processor
/// lacks, as a check skipped whose line begins `processor:`: `scripts/test.sh` lists it among
/// the checks skipped (no installation can give a processor an instruction set, so CI lists it
/// without failing).
#[cfg(test)]
pub fn lacking(level: &str) {
    let test = skipped::current_test();
    skipped::record(&format!(
        "processor: {test}: the kernels compiled for {level} (this processor lacks it)"
    ));
}
