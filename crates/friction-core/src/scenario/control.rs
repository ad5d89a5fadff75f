//! What the page shows for a scenario: controls, their kind, heading and role.
//!
//! Kept apart from the schema (`super`) because it describes presentation the core decides for
//! the page (so `www/` does not re-derive it), not what a query means.

/// How the page should render a control.
#[derive(Debug, Clone, PartialEq)]
pub enum ControlKind {
    /// One number in \[min, max\].
    Number,
    /// Comma-separated numbers, each in \[min, max\], at most `max_len` of them.
    List {
        /// Longest allowed list.
        max_len: usize,
        /// A label per current entry (`k̄_1`, `k̄_2`), so that each entry's field can be named.
        items: Vec<String>,
        /// What the first entry is, for a page that shows the entries without the list's own
        /// label (an embed's strip): `"Relaxation time τ_1 [s]"`.
        entry: String,
    },
    /// One of a fixed set of (value, label) options.
    Choice {
        /// (query value, label) pairs.
        options: Vec<(&'static str, String)>,
    },
    /// One to `max_len` distinct options, written comma-separated (the models to overlay).
    MultiChoice {
        /// (query value, label) pairs.
        options: Vec<(&'static str, String)>,
        /// Most options that can be chosen together.
        max_len: usize,
    },
}

/// What a control has to do with the alternative input by the form (5), which the page shows
/// on request: the two sets of fields describe the same n = 1 model and are never shown together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Shown whatever input is used.
    Plain,
    /// A rheological input (`k0`, `k`, `tau`, `c`, `c0`): hidden while the form (5) is used.
    Rheo,
    /// An input of the form (5) (`sigma0`, `sigma1`, `gamma1`): shown only while it is used.
    Sigma,
}

impl Role {
    /// Stable lowercase name for the page (`""` for [`Role::Plain`]).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Plain => "",
            Role::Rheo => "rheo",
            Role::Sigma => "sigma",
        }
    }
}

/// A heading the page gathers controls under: a stable id (for the page's markup) and the text
/// shown, so that a heading can be reworded without the page matching on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Group {
    /// Stable id, e.g. `"friction-law"`.
    pub id: &'static str,
    /// Heading text, e.g. `"friction law"`.
    pub label: &'static str,
}

impl Group {
    /// What the experiment does (velocities, frequencies, run length, reference).
    pub const EXPERIMENT: Group = Group {
        id: "experiment",
        label: "experiment",
    };
    /// Which model, its order and its own parameters.
    pub const MODEL: Group = Group {
        id: "model",
        label: "model",
    };
    /// Parameters every overlaid model has with the same meaning and default (one field).
    pub const SHARED: Group = Group {
        id: "shared",
        label: "shared by the models",
    };
    /// The n = 1 model given by the differential form (5).
    pub const SIGMA: Group = Group {
        id: "sigma",
        label: "n = 1 as (σ0, σ1, γ1), form (5)",
    };
    /// The Stribeck law and the regularisation shared by the FrBD models.
    pub const FRICTION_LAW: Group = Group {
        id: "friction-law",
        label: "friction law",
    };
    /// The robot arm's inertia, damping and load.
    pub const ARM: Group = Group {
        id: "arm",
        label: "arm",
    };
    /// The robot's controller and observer gains.
    pub const CONTROLLER: Group = Group {
        id: "controller",
        label: "controller",
    };
    /// The robot's initial state.
    pub const INITIAL_STATE: Group = Group {
        id: "initial-state",
        label: "initial state",
    };
}

/// Text of the switch that shows the form (5) in place of the rheological inputs.
pub const SIGMA_TOGGLE: &str = "enter n = 1 as (σ0, σ1, γ1)";

/// One control the page shows for the current scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Control {
    /// Query-string key.
    pub key: &'static str,
    /// Label with symbol and unit, e.g. `"Stribeck velocity v_S [m/s]"`.
    pub label: String,
    /// Unit ("" when dimensionless).
    pub unit: &'static str,
    /// Smallest allowed value (per element for lists).
    pub min: f64,
    /// Largest allowed value (per element for lists).
    pub max: f64,
    /// Whether a slider should be logarithmic.
    pub log: bool,
    /// Whether only whole numbers are allowed (a count, [`crate::params::INTEGER_KEYS`]): the
    /// page's slider steps by one.
    pub integer: bool,
    /// Current value as text (lists comma-separated).
    pub value: String,
    /// Kind of control.
    pub kind: ControlKind,
    /// Heading the control sits under.
    pub group: Group,
    /// Its part in the choice between the rheological inputs and the form (5).
    pub role: Role,
    /// Whether a new value may change the controls themselves (which exist, their labels,
    /// ranges, options or list lengths): the page then re-reads them at once, not only when
    /// the value is committed.
    pub structural: bool,
}
