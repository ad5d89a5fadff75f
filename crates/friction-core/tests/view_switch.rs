//! A view switched to (a tab) opens on its own model where none was chosen, while a link
//! without `model=` keeps meaning the schema's default (links made before views had opening
//! models keep their picture).

use friction_core::scenario::Scenario;

#[test]
fn a_switched_view_opens_on_its_own_model_and_old_links_keep_theirs() {
    // a tab switch from the FrBD views, or from a view left on the default model
    for from in ["v=1", "v=1&view=curve"] {
        let mut s = Scenario::parse(from).unwrap();
        s.set("view", "breakaway").unwrap();
        assert_eq!(
            s.to_query(),
            "v=1&view=breakaway&model=lugre",
            "from {from}"
        );
        let again = Scenario::parse(&s.to_query()).unwrap();
        assert_eq!(again.to_query(), s.to_query());
    }
    // a chosen model stays chosen, Coulomb included
    for (from, model) in [
        ("v=1&view=curve&model=dahl", "dahl"),
        ("v=1&view=stickslip&model=lugre,coulomb", "lugre,coulomb"),
    ] {
        let mut s = Scenario::parse(from).unwrap();
        s.set("view", "presliding").unwrap();
        assert_eq!(s.get("model").as_deref(), Some(model), "from {from}");
    }
    // views without an opening model of their own keep the schema's default
    let mut s = Scenario::parse("v=1&view=breakaway&model=lugre").unwrap();
    s.set("view", "curve").unwrap();
    assert_eq!(s.get("model").as_deref(), Some("lugre"));
    let mut s = Scenario::parse("v=1").unwrap();
    s.set("view", "curve").unwrap();
    assert_eq!(s.to_query(), "v=1&view=curve");
    // a link without `model=` means what it meant before views had opening models
    for view in ["breakaway", "presliding", "prescribed", "sweep"] {
        let s = Scenario::parse(&format!("v=1&view={view}")).unwrap();
        assert_eq!(s.get("model").as_deref(), Some("coulomb"), "{view}");
        assert_eq!(s.to_query(), format!("v=1&view={view}"));
    }
}
