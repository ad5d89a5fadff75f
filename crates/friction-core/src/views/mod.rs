//! Every view of this build, one file each, and their one list.
//!
//! A view is a [`ViewDef`] (its keys, defaults and ranges, its CLI example and `--metrics`
//! columns, its lesson) and a [`crate::job::Job`] (its computation, readout and CSV); see
//! `crate::job` for the contract. The list below (`views!`) makes [`ALL`] (the views this
//! build runs) and [`CATALOG`] (every view's name and title); the CLI's `--help` prints each
//! listed view's example and `--metrics` columns, and the page's lessons
//! (`www/explain/lessons.json`) are written from the listed views' lessons. Removing a line
//! removes the view from all of them (`friction-cli/tests/view_list.rs` checks it).
//!
//! Adding a view: its file here, one line in the list, and its chart builder in
//! `friction-plot` (with an [`crate::job::Output`] variant for its typed results). The builder
//! cannot be avoided: what a view's results look like on a chart (which quantities against
//! which, how many panels, log axes, the legend) is particular to the view, and the core holds
//! no plotting code (no dependencies, and the page's first module must not carry the charts of
//! views it leaves out); a generic "table to chart" rule would lose the views' own axes.

pub mod breakaway;
pub mod curve;
pub mod hysteresis;
pub mod lessons;
pub mod prescribed;
pub mod presliding;
pub mod relaxation;
pub mod robot;
pub mod stickslip;
pub mod sweep;
pub mod table65;

use crate::job::{ViewDef, ViewKind};

/// Makes [`ALL`] and [`CATALOG`] from one list of views: a line is a view's static, behind
/// `#[cfg(feature = "all-views")]` when the page's first module leaves it out.
macro_rules! views {
    ($($(#[$cfg:meta])* $view:path,)*) => {
        /// The views this build runs, in the order the page offers them; the first is the
        /// default.
        ///
        /// Without the `all-views` feature only the FrBD letter's two views are compiled in: the
        /// page's first module carries those, and fetches the module with every view when
        /// another is asked for ([`left_out`]); the unused views' code then never reaches that
        /// module (wasm size).
        pub static ALL: &[&ViewDef] = &[$($(#[$cfg])* &$view,)*];

        /// Every view, in the order the page offers them, whether or not this build runs it
        /// (the page's tabs and the `view` control list them all), and the fit workspace
        /// ([`FIT`]), which runs outside.
        pub static CATALOG: &[ViewName] = &[$(name_of(&$view),)* FIT];
    };
}

views! {
    hysteresis::VIEW,
    relaxation::VIEW,
    #[cfg(feature = "all-views")]
    robot::VIEW,
    #[cfg(feature = "all-views")]
    curve::CURVE,
    #[cfg(feature = "all-views")]
    curve::EXPLORER,
    #[cfg(feature = "all-views")]
    stickslip::VIEW,
    #[cfg(feature = "all-views")]
    presliding::VIEW,
    #[cfg(feature = "all-views")]
    breakaway::VIEW,
    #[cfg(feature = "all-views")]
    prescribed::VIEW,
    #[cfg(feature = "all-views")]
    sweep::VIEW,
}

/// A view's `view=` name and title, known to every build, also to one that leaves the view out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ViewName {
    /// Stable value of the `view=` key.
    pub name: &'static str,
    /// Human title (the page's tab).
    pub title: &'static str,
    /// Whether the view takes registry models with their parameter keys (`model=lugre&sigma0=…`):
    /// a model fitted to data opens there with its values.
    pub models: bool,
    /// Model keys the view derives itself, which its links may not set (the benchmark's `fn`).
    pub derived: &'static [&'static str],
    /// For a view that runs outside the core's views, where it runs instead, in words for a
    /// message (`None` for a view of [`ALL`] in some build).
    pub outside: Option<&'static str>,
}

impl ViewName {
    /// Whether the view runs outside the core's views (no build's [`ALL`] has it).
    pub const fn runs_outside(&self) -> bool {
        self.outside.is_some()
    }
}

/// Name and title of a view, read when the program is compiled: [`CATALOG`] holds only these
/// texts, not the views, so it keeps no view's code in a build that leaves it out.
const fn name_of(v: &ViewDef) -> ViewName {
    ViewName {
        name: v.name,
        title: v.title,
        models: matches!(v.kind, ViewKind::Models),
        derived: v.derived_model_keys,
        outside: None,
    }
}

/// The fit workspace: fitting a model to a measured record. It runs outside the core's views,
/// in `friction-fit` (linear algebra and an optimiser, dependencies the core keeps out): on the
/// page in a worker of its own (`view=fit&fit=QUERY`), on the CLI as its `fit` command. Listed
/// here so that the page's tabs, menu and links know it as they know every view.
pub const FIT: ViewName = ViewName {
    name: "fit",
    title: "Fit a model to data",
    models: false,
    derived: &[],
    outside: Some(
        "the fit workspace is not a view the CLI computes: run friction-lab fit DATA 'QUERY' \
         (friction-lab fit --help explains the QUERY)",
    ),
};

/// The catalogue entry of `name`, if it names a view.
pub fn catalog(name: &str) -> Option<&'static ViewName> {
    CATALOG.iter().find(|v| v.name == name)
}

/// The view named `name`, if this build runs it.
pub fn find(name: &str) -> Option<&'static ViewDef> {
    ALL.iter().copied().find(|v| v.name == name)
}

/// Whether `name` is a view this build leaves out (a build without `all-views`): the page then
/// loads the module that has it. `false` for a view it runs and for a name that is no view.
/// `false` for a view that runs outside the core's views ([`ViewName::outside`]): no module
/// has it.
pub fn left_out(name: &str) -> bool {
    find(name).is_none() && catalog(name).is_some_and(|v| !v.runs_outside())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_names_every_view_in_page_order() {
        let all: Vec<ViewName> = ALL.iter().map(|v| name_of(v)).collect();
        let inside: Vec<ViewName> = CATALOG
            .iter()
            .copied()
            .filter(|v| !v.runs_outside())
            .collect();
        if cfg!(feature = "all-views") {
            assert_eq!(all, inside);
        } else {
            assert!(inside.starts_with(&all));
        }
        for v in CATALOG {
            assert_eq!(
                left_out(v.name),
                find(v.name).is_none() && !v.runs_outside(),
                "{}",
                v.name
            );
        }
        assert!(!left_out("no-such-view"));
        // the fit workspace: listed, run by no module, taking no view's models
        assert!(find(FIT.name).is_none() && !left_out(FIT.name));
        assert_eq!(catalog("fit"), Some(&FIT));
    }
}
