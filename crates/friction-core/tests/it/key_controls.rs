//! Every view's key controls (`ViewDef::key_controls`) are controls its default scenario shows:
//! the page puts them first and the compact embed shows them, so a key that is not a control
//! would leave an embed with fewer controls than its view promises.

use friction_core::scenario::Scenario;

#[test]
fn every_views_key_controls_are_controls_it_shows() {
    for v in friction_core::views::ALL {
        let s = Scenario::parse(&format!("v=1&view={}", v.name)).expect("default link parses");
        assert_eq!(s.view().name, v.name);
        let keys: Vec<&str> = s.controls().iter().map(|c| c.key).collect();
        assert!(
            (2..=4).contains(&v.key_controls.len()),
            "{}: two to four key controls",
            v.name
        );
        for k in v.key_controls {
            assert!(
                keys.contains(k),
                "{}: key control {k} is not among {keys:?}",
                v.name
            );
        }
    }
}
