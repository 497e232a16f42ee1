//! libFuzzer's target `scenario` (see `gitops_fuzz::run_libfuzzer_target`): a
//! panic, a hang, or a law that does not hold is a finding.

#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    if let Err(law) = gitops_fuzz::run_libfuzzer_target("scenario", bytes) {
        panic!("a law does not hold: {law}");
    }
});
