//! Quantities as Kubernetes writes them: each line of
//! `fixtures/apimachinery/quantities.tsv` is a text and what apimachinery's
//! `ParseQuantity` then `Quantity.String()` write for it (quantity.go at
//! kubernetes/apimachinery eed236ce, run over generated texts: signs,
//! leading zeros, points, long digits, every suffix, exponents), empty when
//! `ParseQuantity` refuses the text.

mod common;

use gitops_testing::everywhere;

use gitops_core::diff::quantity::canonical;

const WRITTEN_BY_GO: &str = include_str!("fixtures/apimachinery/quantities.tsv");

everywhere! {
    fn every_quantity_is_written_as_apimachinery_writes_it() {
        let mut wrong = Vec::new();
        let mut count = 0;
        for line in WRITTEN_BY_GO.lines() {
            let (text, go) = line.split_once('\t').expect("text, tab, canonical");
            let ours = canonical(text);
            let expected = (!go.is_empty()).then_some(go);
            if ours.as_deref() != expected {
                wrong.push(format!("{text:?}: Go writes {expected:?}, we write {ours:?}"));
            }
            count += 1;
        }
        assert!(count > 1000, "{count} lines");
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}
