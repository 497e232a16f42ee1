//! libFuzzer's target `readers` (see `gitops_fuzz::run_libfuzzer_target`): a
//! panic, a hang, or a reader that disagrees with its oracle is a finding.

#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    if let Err(law) = gitops_fuzz::run_libfuzzer_target("readers", bytes) {
        panic!("a law does not hold: {law}");
    }
});
