//! The list of every registered model: static laws, dynamic models and the FrBD family.
//!
//! It sits above the model folders (they define their `ENTRIES`; this file chains them), so the
//! contract in [`crate::model`] depends on no implementation.

use crate::model::{ListParams, ModelEntry};

/// Every registered model, in a stable order (static, auxiliary, composite, library, dynamic, FrBD).
pub fn registry() -> impl Iterator<Item = &'static ModelEntry> {
    crate::statics::ENTRIES
        .iter()
        .chain(crate::dynamics::ENTRIES.iter())
        .chain(crate::frbd::ENTRIES.iter())
}

/// Looks a model up by its stable id.
pub fn find(id: &str) -> Option<&'static ModelEntry> {
    registry().find(|e| e.info.id == id)
}

/// The per-element list parameters of model `id`, if it has any (GMS's k_i, b_i, ν_i).
pub fn lists(id: &str) -> Option<&'static ListParams> {
    match id {
        "gms" => Some(&crate::dynamics::gms::LISTS),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_defaults_build() {
        let mut seen = std::collections::HashSet::new();
        for e in registry() {
            assert!(seen.insert(e.info.id), "duplicate id {}", e.info.id);
            let m = e
                .build_default()
                .unwrap_or_else(|err| panic!("{}: {err}", e.info.id));
            assert_eq!(m.info().id, e.info.id);
            for p in e.info.params {
                assert!(
                    p.min <= p.default && p.default <= p.max,
                    "{}: {} default out of range",
                    e.info.id,
                    p.key
                );
            }
        }
    }

    #[test]
    fn provisional_models_are_named_and_noted_by_one_rule() {
        let info = |id| find(id).map(|e| e.info).expect("registered");
        // the name says "provisional" already: the label keeps it, the note drops it
        let hollars = info("hollars");
        assert_eq!(hollars.label(), "Hollars (1994) — provisional");
        assert_eq!(hollars.base_name(), "Hollars (1994)");
        assert_eq!(
            hollars.provisional_note().as_deref(),
            Some("Hollars (1994): provisional — formula not recoverable from the source")
        );
        // a provisional model whose name does not say so gets the flag in its label
        let leuven = info("leuven");
        assert!(leuven.provisional);
        assert_eq!(leuven.label(), format!("{} (provisional)", leuven.name));
        assert_eq!(
            leuven.provisional_note(),
            Some(format!("{}: {}", leuven.name, crate::model::PROVISIONAL))
        );
        let lugre = info("lugre");
        assert_eq!(
            (lugre.label(), lugre.provisional_note()),
            (lugre.name.to_string(), None)
        );
        for e in registry() {
            assert_eq!(
                e.info.provisional,
                e.info.provisional_note().is_some(),
                "{}",
                e.info.id
            );
        }
    }
}
