//! Every view's class presets are valid scenarios: each parses strictly from the view's
//! defaults, its link reads back to itself, and its job builds and starts without an error.

use friction_core::scenario::Scenario;
use friction_core::views::ALL;

#[test]
fn every_view_offers_named_presets_that_are_valid_links() {
    for v in ALL {
        let p = v
            .presets
            .unwrap_or_else(|| panic!("view {} has no presets", v.name));
        let list = (p.list)();
        assert!(list.len() >= 2, "{}: {} presets", v.name, list.len());
        let mut ids: Vec<&str> = list.iter().map(|p| p.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), list.len(), "{}: preset ids repeat", v.name);
        for preset in &list {
            assert!(!preset.name.is_empty() && !preset.label.is_empty());
            let s = Scenario::of_preset(v, preset)
                .unwrap_or_else(|e| panic!("{}/{}: {e:?}", v.name, preset.id));
            assert_eq!(s.view().name, v.name, "{}", preset.id);
            let link = s.to_query();
            let back = Scenario::parse(&link).expect("the link parses");
            assert_eq!(back.to_query(), link, "{}/{} round trip", v.name, preset.id);
            // every value the preset sets is in effect
            for (k, val) in &preset.query {
                let got = s.get(k);
                assert!(
                    got.as_deref() == Some(val.as_str())
                        || got
                            .as_deref()
                            .and_then(|g| g.parse::<f64>().ok())
                            .zip(val.parse::<f64>().ok())
                            .is_some_and(|(a, b)| a == b),
                    "{}/{}: {k} = {got:?}, preset says {val}",
                    v.name,
                    preset.id
                );
            }
            let mut job = s.job().unwrap_or_else(|e| panic!("{}: {e}", preset.id));
            let clock = || 0.0;
            for _ in 0..3 {
                job.advance(&clock);
            }
            assert_eq!(job.error(), None, "{}/{}", v.name, preset.id);
        }
    }
}
