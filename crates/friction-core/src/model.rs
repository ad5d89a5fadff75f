//! The interfaces shared by every friction model (the contract): `FrictionModel`, `ModelInfo`,
//! `ModelEntry`. It knows no model; `crate::registry` lists them.
//!
//! Every model — static law, bristle model or FrBD — is a [`FrictionModel`]: a (possibly empty)
//! state vector `x`, a state derivative and an output force, all as functions of the relative
//! velocity `v` \[m/s\] and the external tangential force `F_e` \[N\] (needed by stick branches such
//! as Karnopp's). Parameters are validated when a model is built and never change afterwards;
//! state lives in caller-owned slices and solver scratch lives in the solver, so one model value
//! can drive many runs and the stepping loop never allocates.

use crate::params::ParamSpec;

/// Broad family of a model, shown in `--list-models` and on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    /// Static law without stiction (\[T\] §6.1).
    StaticNoStiction,
    /// Static law with stiction (\[T\] §6.2).
    StaticStiction,
    /// Auxiliary Stribeck-type law (\[T\] §5.1–5.3).
    Auxiliary,
    /// Composite law of the OJAppS paper (\[C\]).
    Composite,
    /// Static law of the Fortran friction library.
    Library,
    /// Dynamic (state) model (\[T\] §7.1 and the library).
    Dynamic,
    /// FrBD viscoelastic bristle model (Romano et al., arXiv:2601.13799).
    Frbd,
}

impl Category {
    /// Stable lowercase name used by the CLI and in links.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::StaticNoStiction => "static",
            Category::StaticStiction => "static-stiction",
            Category::Auxiliary => "auxiliary",
            Category::Composite => "composite",
            Category::Library => "library",
            Category::Dynamic => "dynamic",
            Category::Frbd => "frbd",
        }
    }
}

/// Static description of a model: stable id, published name, family and parameters.
#[derive(Debug, Clone, Copy)]
pub struct ModelInfo {
    /// Stable id used in links and by the CLI (e.g. `"lugre"`); never renamed.
    pub id: &'static str,
    /// Published name, e.g. `"LuGre (Canudas de Wit et al. 1995)"`.
    pub name: &'static str,
    /// Family.
    pub category: Category,
    /// `true` when the formula could not be recovered from the source and is our best
    /// guess; UIs must show "provisional — formula not recoverable from the source".
    pub provisional: bool,
    /// Scalar parameters in the order `build` expects them.
    pub params: &'static [ParamSpec],
}

/// What every page and CLI output says about a provisional model (the formula could
/// not be recovered from the source; the implementation is our best guess).
pub const PROVISIONAL: &str = "provisional — formula not recoverable from the source";

impl ModelInfo {
    /// The parameter values in `params` order: each key's value in `set`, its default where
    /// `set` does not name it (what a model's `build` takes).
    pub fn values_with(&self, set: &[(&str, f64)]) -> Vec<f64> {
        self.params
            .iter()
            .map(|p| set.iter().find(|s| s.0 == p.key).map_or(p.default, |s| s.1))
            .collect()
    }

    /// The name without its " — provisional" suffix (where a note says it instead).
    pub fn base_name(&self) -> &'static str {
        self.name.trim_end_matches(" — provisional")
    }

    /// The name as a legend shows it: with " (provisional)" where the model is provisional and
    /// its name does not say so already.
    pub fn label(&self) -> String {
        if self.provisional && !self.name.contains("provisional") {
            format!("{} (provisional)", self.name)
        } else {
            self.name.to_string()
        }
    }

    /// The note every UI shows under a provisional model ("Hollars (1994): provisional —
    /// formula not recoverable from the source"); `None` for the others.
    pub fn provisional_note(&self) -> Option<String> {
        self.provisional
            .then(|| format!("{}: {PROVISIONAL}", self.base_name()))
    }

    /// The name without authors, year or flag ("LuGre (Canudas de Wit et al. 1995)" → "LuGre"),
    /// for labels of per-model fields.
    pub fn short_name(&self) -> &'static str {
        let name = self.base_name();
        name.split(" (").next().unwrap_or(name)
    }
}

/// Legend labels for the selected models: each name up to its first " (" or ", " (where the
/// authors and year or the variant begin), longer where that would give two selected models
/// the same label (Bliman & Sorine first and second order: "…, first order"), and " (prov.)"
/// for provisional models; the full name when nothing else tells two apart.
pub fn short_labels(infos: &[&ModelInfo]) -> Vec<String> {
    let cut = |info: &ModelInfo, seps: &[&str]| -> String {
        let base = info.base_name();
        let end = seps
            .iter()
            .filter_map(|p| base.find(p))
            .min()
            .unwrap_or(base.len());
        let mut s = base[..end].to_string();
        if base.len() != info.name.len() {
            s.push_str(" (prov.)");
        }
        s
    };
    let levels: [&[&str]; 3] = [&[" (", ", "], &[" ("], &[]];
    let mut labels: Vec<String> = infos.iter().map(|n| cut(n, levels[0])).collect();
    for seps in &levels[1..] {
        let clash: Vec<bool> = (0..labels.len())
            .map(|i| (0..labels.len()).any(|j| j != i && labels[j] == labels[i]))
            .collect();
        for (i, _) in clash.iter().enumerate().filter(|(_, c)| **c) {
            labels[i] = cut(infos[i], seps);
        }
    }
    labels
}

/// A friction model driven by relative velocity `v` \[m/s\] and external force `F_e` \[N\].
///
/// Static laws have `n_states() == 0`. Implementations must return finite values for any finite
/// input and must not allocate in [`FrictionModel::derivative`] or [`FrictionModel::force`].
pub trait FrictionModel {
    /// Static description of the model.
    fn info(&self) -> &'static ModelInfo;

    /// Number of internal states (0 for static laws).
    fn n_states(&self) -> usize {
        0
    }

    /// Writes the initial (virgin, at rest) state into `x`.
    fn initial_state(&self, x: &mut [f64]) {
        x.fill(0.0);
    }

    /// Writes dx/dt into `dx` for relative velocity `v` \[m/s\] and external force `fe` \[N\].
    fn derivative(&self, _v: f64, _fe: f64, _x: &[f64], _dx: &mut [f64]) {}

    /// Friction force F \[N\] (the model output; it acts on the body as −F).
    fn force(&self, v: f64, fe: f64, x: &[f64]) -> f64;

    /// [`FrictionModel::derivative`] and [`FrictionModel::force`] in one call: writes dx/dt
    /// into `dx` and returns F. Closed-loop solvers need both at every stage; models whose
    /// force reuses ż or a Stribeck exponential override this to compute them once. Must give
    /// the same values as the two separate calls.
    fn derivative_and_force(&self, v: f64, fe: f64, x: &[f64], dx: &mut [f64]) -> f64 {
        self.derivative(v, fe, x, dx);
        self.force(v, fe, x)
    }

    // Optional hooks for the closed-loop solver (`integrate::rodas`). The defaults describe a
    // smooth model with unit-sized states, so models that need none of this implement nothing.

    /// Typical magnitude of state `i` in its unit (e.g. F_C/σ0 for a bristle deflection \[m\]).
    ///
    /// Adaptive solvers scale their absolute tolerance by it, so a 1e-5 m deflection is
    /// controlled as tightly as a 1 m displacement.
    fn state_scale(&self, _i: usize) -> f64 {
        1.0
    }

    /// `false` when the force at a constant velocity never settles (the bristle model's
    /// saw-tooth of snapping bristles): experiments then report its mean over a window of slip
    /// instead of the value where a long slide happens to end, which is a random sample.
    fn settles(&self) -> bool {
        true
    }

    /// For a model that does not [settle](FrictionModel::settles): the slip \[m\] of one tooth
    /// of its saw-tooth (the bristle model: its re-bond range Δ). Experiments that read the mean
    /// force average over tens of teeth, at most over their fixed window: a stiff bristle model
    /// (σ0 = 1e9 N/m, Δ ≈ 1e-7 m) would cross that window in millions of snaps. `None`: the
    /// fixed window.
    fn tooth_length(&self) -> Option<f64> {
        None
    }

    /// Number of trailing states that are discrete (modes, bond counters): their derivative is
    /// zero and only [`FrictionModel::on_switch`] changes them. Solvers keep them out of the
    /// linear algebra and the error control.
    fn n_discrete(&self) -> usize {
        0
    }

    /// `true` when the law sticks by micro-slip: no stick mode of its own, continuous states
    /// (a bristle deflection) and a right-hand side continuous in v and the states, so that
    /// at rest the relative velocity is tiny but not zero and what a later breakaway makes of
    /// it depends on its accuracy. Closed loops then weigh the error of the block's velocity
    /// against the relative velocity rather than the absolute one (the stick-slip benchmark:
    /// LuGre's x(40) at tol 1e-8 3.8e-7 m off before, 1.8e-8 after, for 8 % more work). Opt-in
    /// per model where it was measured: for a law that jumps (Karnopp's window edge, the
    /// reset integrator's saturation) the tight velocity error made the steps creep towards
    /// the jump until they underflowed at tol 1e-12.
    fn micro_slip(&self) -> bool {
        false
    }

    /// For a [micro-slip](Self::micro_slip) law, the fraction of the belt speed v_b at which
    /// closed loops weigh the error of the block's velocity absolutely (atol × this × v_b +
    /// rtol × |ẋ − v_b|): below it the relative velocity the law sees is resolved, above it
    /// the relative tolerance governs. A tenth by default (LuGre's x(40) error then follows the
    /// tolerance, 0.03–1.7 tol from 1e-5 to 1e-10); a law whose stick creeps slower needs less.
    fn micro_slip_scale(&self) -> f64 {
        0.1
    }

    /// `true` when the law's velocity scale depends on the state
    /// ([`micro_slip_scale_at`](Self::micro_slip_scale_at)), so that closed loops weigh the
    /// block's velocity error afresh at every step.
    fn micro_slip_scale_varies(&self) -> bool {
        false
    }

    /// [`micro_slip_scale`](Self::micro_slip_scale) at relative velocity `v` \[m/s\] and
    /// states `x`: a law whose velocity error matters more in one regime than another (the
    /// creep before a breakaway, which the Stribeck drop amplifies, against an elastic stick
    /// where it only feeds decaying modes) asks for the tight weight only where it pays.
    fn micro_slip_scale_at(&self, _v: f64, _x: &[f64]) -> f64 {
        self.micro_slip_scale()
    }

    /// `true` where the law is a plain spring-damper at relative velocity `v` \[m/s\] and
    /// states `x`: every state moves with v (ż = v) and the force is linear in the states and
    /// v (elasto-plastic inside its elastic band, α = 0). A closed loop is then linear and
    /// keeps x − z − v_b t exactly, so an error made there only feeds a decaying bristle mode
    /// and cannot shift a later breakaway; closed loops that weigh errors by the state
    /// ([`micro_slip_scale_varies`](Self::micro_slip_scale_varies)) weigh them loosely there.
    fn elastic_at(&self, _v: f64, _x: &[f64]) -> bool {
        false
    }

    /// `true` when each continuous state's derivative depends only on that state, v and F_e
    /// (parallel elements such as GMS or the bristle model); solvers then factor an
    /// arrow-shaped Jacobian in O(n) instead of O(n³).
    fn separable(&self) -> bool {
        false
    }

    /// Analytic partial derivatives of a [separable](FrictionModel::separable) model (or of
    /// any model with a single continuous state, whose ∂ẋ/∂x is trivially diagonal) at
    /// (v, fe, x), for solvers that would otherwise difference every column: `dzdz[i]` =
    /// ∂ẋ_i/∂x_i, `dzdv[i]` = ∂ẋ_i/∂v, `dfdz[i]` = ∂F/∂x_i (continuous states only), and the
    /// return value ∂F/∂v. Returns `None` when not provided (the default) or not defined at
    /// this point; solvers then difference. The model must not depend on `fe` through its
    /// states' derivatives or force when it provides these.
    fn partials(
        &self,
        _v: f64,
        _fe: f64,
        _x: &[f64],
        _dzdz: &mut [f64],
        _dzdv: &mut [f64],
        _dfdz: &mut [f64],
    ) -> Option<f64> {
        None
    }

    /// Analytic partial derivatives of a model whose continuous states are coupled (not
    /// [separable](FrictionModel::separable), e.g. Leuven's Maxwell-slip elements all driven by
    /// F_h = Σ k_i ζ_i), for solvers that would otherwise difference every column: with
    /// `nz` = `n_states() − n_discrete()` continuous states, `dzdz[i * nz + j]` = ∂ẋ_i/∂x_j
    /// (row-major nz × nz), `dzdv[i]` = ∂ẋ_i/∂v, `dfdz[i]` = ∂F/∂x_i, and the return value
    /// ∂F/∂v. The slices may be longer than needed; only the leading entries are written.
    /// Returns `None` when not provided (the default) or not defined at this point (the solver
    /// then differences). As for [`FrictionModel::partials`], the model must not depend on
    /// `fe` through its states' derivatives or force when it provides these. Separable models
    /// provide [`FrictionModel::partials`] instead: its O(n) layout keeps the arrow-shaped
    /// factorisation cheap.
    fn partials_dense(
        &self,
        _v: f64,
        _fe: f64,
        _x: &[f64],
        _dzdz: &mut [f64],
        _dzdv: &mut [f64],
        _dfdz: &mut [f64],
    ) -> Option<f64> {
        None
    }

    /// Number of switching functions: surfaces where `derivative` or `force` is not smooth
    /// (saturation, window edges, bond limits). Solvers stop their steps exactly on them.
    fn n_switches(&self) -> usize {
        0
    }

    /// Writes the switching functions into `g` (length [`FrictionModel::n_switches`]); a switch
    /// happens where one changes sign.
    fn switches(&self, _v: f64, _fe: f64, _x: &[f64], _g: &mut [f64]) {}

    /// Discrete update of the state when switch `index` crosses zero (`rising`: from negative to
    /// positive), e.g. a bristle re-bonding or a projection onto a saturation limit. Returns
    /// `true` when `x` changed. Discrete states (bond counters, modes) are stored in `x` with a
    /// zero derivative, so the model itself stays immutable and runs are reproducible.
    fn on_switch(&self, _index: usize, _rising: bool, _v: f64, _fe: f64, _x: &mut [f64]) -> bool {
        false
    }
}

/// Builds a model from its scalar parameter values (in `ModelInfo::params` order).
///
/// The builder validates the values (range checks and cross-parameter consistency) and returns
/// an error naming the offending key; it never panics.
pub type BuildFn = fn(&[f64]) -> Result<Box<dyn FrictionModel>, crate::params::ParamError>;

/// Builds a model from its scalar values (as [`BuildFn`]) and, per list parameter in
/// [`ListParams::specs`] order, an explicit list or `None` (the model derives that list).
pub type BuildListsFn =
    fn(&[f64], &[Option<&[f64]>]) -> Result<Box<dyn FrictionModel>, crate::params::ParamError>;

/// The lists a model runs with for given scalar values and explicit lists: the explicit ones as
/// given, the others as the model derives them.
pub type ResolveListsFn =
    fn(&[f64], &[Option<&[f64]>]) -> Result<Vec<Vec<f64>>, crate::params::ParamError>;

/// Per-element list parameters of a registry model (GMS's element stiffnesses k_i, damping b_i
/// and fractions ν_i, the friction library's form), each optional: a list left unset is derived
/// by the model from its scalar parameters, so the scalar [`ModelEntry::build`] stays the
/// default. Few models have them, so they are looked up by id (`registry::lists`) instead of
/// widening every [`ModelEntry`].
#[derive(Clone, Copy)]
pub struct ListParams {
    /// One spec per list: key, name, symbol, unit and the range of each element; `default` is
    /// not used (an unset list is derived).
    pub specs: &'static [ParamSpec],
    /// Longest list accepted.
    pub max_len: usize,
    /// Builds the model with explicit lists; validates lengths and cross-list rules, with
    /// errors naming the list's key.
    pub build: BuildListsFn,
    /// The lists the model runs with, for fields that show them.
    pub resolve: ResolveListsFn,
}

/// One entry of the model registry: description plus builder.
#[derive(Clone, Copy)]
pub struct ModelEntry {
    /// Id, name, family, provisional flag and parameters.
    pub info: &'static ModelInfo,
    /// Builds the model from values in `info.params` order.
    pub build: BuildFn,
}

impl ModelEntry {
    /// Builds the model with every parameter at its default.
    pub fn build_default(&self) -> Result<Box<dyn FrictionModel>, crate::params::ParamError> {
        let v: Vec<f64> = self.info.params.iter().map(|p| p.default).collect();
        (self.build)(&v)
    }

    /// Builds the model with the values in `set` (key, value), every other parameter at its
    /// default ([`ModelInfo::values_with`]).
    pub fn build_with(
        &self,
        set: &[(&str, f64)],
    ) -> Result<Box<dyn FrictionModel>, crate::params::ParamError> {
        (self.build)(&self.info.values_with(set))
    }
}
