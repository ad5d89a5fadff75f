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

/// A fitted model's values (every parameter, the normal load included, as a fit's report links
/// them) open in every view that takes registry models: each link is accepted whole by the
/// strict parser, keeps every value the view accepts, and leaves out only the keys the view
/// derives itself (the benchmark's `fn` = m·g).
#[test]
fn model_links_open_a_models_values_in_every_models_view() {
    use friction_core::registry;
    use friction_core::scenario::{model_links, query};
    use friction_core::views::{self, CATALOG};
    for id in ["lugre", "dahl", "gms", "maxwell", "stribeck", "frbd-gm"] {
        let e = registry::find(id).unwrap();
        // values off the defaults, inside the ranges, so that the links must carry them
        let mut q = format!("model={id}");
        for p in e.info.params {
            let v = if p.default > 0.0 && p.default * 1.5 <= p.max {
                p.default * 1.5
            } else {
                p.default
            };
            q.push_str(&format!("&{}={v}", p.key));
        }
        let links = model_links(&q);
        let expected: Vec<&str> = CATALOG
            .iter()
            .filter(|v| v.models)
            .map(|v| v.name)
            .collect();
        let got: Vec<&str> = links.iter().map(|(v, _)| v.name).collect();
        assert_eq!(got, expected);
        assert!(got.contains(&"curve") && got.contains(&"stickslip") && !got.contains(&"fit"));
        for (v, link) in &links {
            let s = Scenario::parse(link)
                .unwrap_or_else(|e| panic!("{id} in {}: {link}: {e:?}", v.name));
            for (k, val) in query::pairs(&q).iter().skip(1) {
                if v.derived.contains(&k.as_str()) {
                    assert!(!link.contains(&format!("&{k}=")), "{link}");
                    continue;
                }
                let shown = s.get(k).unwrap_or_else(|| panic!("{k} in {link}"));
                assert_eq!(
                    shown.parse::<f64>().unwrap(),
                    val.parse::<f64>().unwrap(),
                    "{k} in {link}"
                );
            }
        }
        assert!(views::find("stickslip")
            .unwrap()
            .derived_model_keys
            .contains(&"fn"));
    }
}

/// The fit workspace is in the catalogue (the page's tabs), runs in no module, and a query
/// that names it says where it runs instead.
#[test]
fn the_fit_workspace_is_listed_and_explained() {
    use friction_core::views;
    let fit = views::catalog("fit").unwrap();
    assert!(fit.runs_outside() && !views::left_out("fit") && views::find("fit").is_none());
    let e = Scenario::parse("view=fit").unwrap_err();
    let msg = e[0].to_string();
    assert!(msg.contains("friction-lab fit DATA 'QUERY'"), "{msg}");
    // an unknown view lists the views the core computes, not the workspace
    let e = Scenario::parse("view=nope").unwrap_err()[0].to_string();
    assert!(e.contains("sweep") && !e.contains("fit"), "{e}");
}
