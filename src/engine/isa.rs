//! The instruction set that kernels with a version for wider vectors run with, detected at run
//! time: the `value-layers` engine's block kernels and the rare-values engine's lanes.

/// Instruction-set level chosen at run time.
#[derive(Clone, Copy)]
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

/// The best level this processor has.
pub fn detect() -> Isa {
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
