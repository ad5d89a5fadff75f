//! Every registry-model view opens on its own example (`ViewDef::default_models` with
//! `ViewDef::default_values`), whether it is reached by a link without `model=` (the CLI's
//! `view=X`, the page's `?view=X`) or by a tab; a link that names `model=` keeps its meaning (the
//! named models at their registry defaults).

use friction_core::job::ViewKind;
use friction_core::registry;
use friction_core::scenario::Scenario;
use friction_core::views::ALL;

fn model_views() -> impl Iterator<Item = &'static friction_core::job::ViewDef> {
    ALL.iter().copied().filter(|v| v.kind == ViewKind::Models)
}

#[test]
fn a_link_without_model_and_a_tab_show_the_same_example() {
    for v in model_views() {
        assert!(!v.default_models.is_empty(), "{}: no example", v.name);
        let link = Scenario::parse(&format!("v=1&view={}", v.name)).unwrap();
        assert!(link.on_example(), "{}", v.name);
        assert_eq!(link.get("model").unwrap(), v.default_models.join(","));
        assert_eq!(link.to_query(), format!("v=1&view={}", v.name));
        // a tab from the FrBD views, and from another view left on its example
        for from in ["v=1", "v=1&view=curve", "v=1&view=presliding"] {
            let mut tab = Scenario::parse(from).unwrap();
            tab.set("view", v.name).unwrap();
            assert_eq!(tab, link, "{} from {from}", v.name);
            assert_eq!(tab.to_query(), link.to_query());
        }
        // the example's values are in effect and shown, and its models build with them
        let models = link.models();
        for (key, x) in v.default_values {
            let (id, k) = key.split_once('.').unwrap_or(("", key));
            let mut applied = 0;
            for e in &models {
                if !id.is_empty() && e.info.id != id {
                    continue;
                }
                if let Some(i) = e.info.params.iter().position(|p| p.key == k) {
                    assert_eq!(link.model_values(e)[i], *x, "{}: {key}", v.name);
                    applied += 1;
                }
            }
            assert!(applied > 0, "{}: {key} applies to no default model", v.name);
            assert!(
                v.params.iter().all(|p| p.key != k) && !v.derived_model_keys.contains(&k),
                "{}: {key} is the view's own",
                v.name
            );
            assert_eq!(link.get(key).unwrap().parse::<f64>().unwrap(), *x, "{key}");
        }
        assert_eq!(link.build_models().unwrap().len(), v.default_models.len());
        // reset keeps the example
        assert_eq!(link.defaults(), link);
    }
}

#[test]
fn the_force_driven_views_open_on_the_1995_lugre_beside_dahl() {
    for view in ["presliding", "breakaway"] {
        let s = Scenario::parse(&format!("view={view}")).unwrap();
        let ids: Vec<&str> = s.models().iter().map(|e| e.info.id).collect();
        assert_eq!(ids, ["lugre", "dahl"]);
        // Canudas de Wit et al. 1995: F_C = 1 N, F_s = 1.5 N, σ0 = 1e5, σ1 = √1e5, σ2 = 0.4,
        // v_S = 1 mm/s
        let lugre = registry::find("lugre").unwrap();
        let vals = s.model_values(lugre);
        let at = |k: &str| vals[lugre.info.params.iter().position(|p| p.key == k).unwrap()];
        assert_eq!(at("muk") * at("fn"), 1.0);
        assert_eq!(at("mus") * at("fn"), 1.5);
        assert_eq!(at("sigma0"), 1e5);
        assert!((at("sigma1") / 1e5_f64.sqrt() - 1.0).abs() < 1e-15);
        assert_eq!(at("sigma2"), 0.4);
        assert_eq!(at("vs"), 1e-3);
        let dahl = registry::find("dahl").unwrap();
        let d = s.model_values(dahl);
        let fc = d[0] * d[1];
        assert_eq!(fc, 1.0, "Dahl's F_C beside it");
    }
}

#[test]
fn a_link_that_names_its_models_keeps_its_meaning() {
    // the same models as the example, named: their registry defaults
    let s = Scenario::parse("v=1&view=presliding&model=lugre,dahl").unwrap();
    assert!(!s.on_example());
    assert_eq!(s.get("fn").as_deref(), Some("9.81"));
    assert_eq!(s.get("sigma2").as_deref(), Some("0.1"));
    assert_eq!(s.to_query(), "v=1&view=presliding&model=lugre,dahl");
    // Coulomb named is Coulomb, printed
    let s = Scenario::parse("v=1&view=curve&model=coulomb").unwrap();
    assert_eq!(s.get("model").as_deref(), Some("coulomb"));
    assert_eq!(s.to_query(), "v=1&view=curve&model=coulomb");
    assert_eq!(Scenario::parse(&s.to_query()).unwrap(), s);
    // choosing models on the page is the same as naming them in a link
    let mut page = Scenario::parse("v=1&view=presliding").unwrap();
    page.set("model", "lugre,dahl").unwrap();
    assert_eq!(
        page,
        Scenario::parse("v=1&view=presliding&model=lugre,dahl").unwrap()
    );
    // a value set on the example stays with it; one equal to the example's is not printed
    let s = Scenario::parse("v=1&view=presliding&amp=1.2&fn=10").unwrap();
    assert!(s.on_example());
    assert_eq!(s.to_query(), "v=1&view=presliding&amp=1.2");
    let s = Scenario::parse("v=1&view=presliding&fn=20").unwrap();
    assert_eq!(s.to_query(), "v=1&view=presliding&fn=20");
    assert_eq!(s.get("sigma2").as_deref(), Some("0.4"));
    // reset of named models keeps them
    let s = Scenario::parse("v=1&view=presliding&model=gms&amp=0.5").unwrap();
    assert_eq!(s.defaults().to_query(), "v=1&view=presliding&model=gms");
}

#[test]
fn chosen_models_carry_over_a_view_switch() {
    for (from, model) in [
        ("v=1&view=curve&model=dahl", "dahl"),
        ("v=1&view=stickslip&model=lugre,coulomb", "lugre,coulomb"),
        ("v=1&view=curve&model=coulomb", "coulomb"),
    ] {
        let mut s = Scenario::parse(from).unwrap();
        s.set("view", "presliding").unwrap();
        assert_eq!(s.get("model").as_deref(), Some(model), "from {from}");
        assert!(!s.on_example());
        assert_eq!(
            s.to_query(),
            format!("v=1&view=presliding&model={model}"),
            "from {from}"
        );
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
