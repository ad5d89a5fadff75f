//! The page's controls of the FrBD schema: the view's own keys, the model and its order, the
//! branch lists, the form (5) and the contact keys, grouped and in display order.

use super::{FrbdScenario, N_SPEC, RHEO_KEYS, SIGMA_KEYS, STRUCTURAL_KEYS};
use crate::experiments::{hysteresis, relaxation, robot_arm};
use crate::frbd::{spec, Kind};
use crate::job::FrbdView;
use crate::params::ParamSpec;
use crate::scenario::{Control, ControlKind, Group, Role};

impl FrbdScenario {
    /// The controls after the view choice, in display order.
    pub(crate) fn controls(&self) -> Vec<Control> {
        let mut out = Vec::new();
        let choice =
            |key: &'static str, label: &str, options: Vec<(&'static str, &str)>, group| Control {
                key,
                label: label.into(),
                unit: "",
                min: 0.0,
                max: 0.0,
                log: false,
                integer: false,
                value: self.get(key).unwrap_or_default(),
                kind: ControlKind::Choice {
                    options: options
                        .into_iter()
                        .map(|(v, l)| (v, l.to_string()))
                        .collect(),
                },
                group,
                role: Role::Plain,
                structural: STRUCTURAL_KEYS.contains(&key),
            };
        let num = |s: &FrbdScenario, key: &'static str, sp: ParamSpec, group: Group| {
            let value = s.get(key).unwrap_or_default();
            let kind = if s.list_elem(key).is_some() {
                let base = sp.symbol.trim_end_matches("_1");
                ControlKind::List {
                    max_len: s.list_len(key).1,
                    items: (1..=value.split(',').count())
                        .map(|i| format!("{base}_{i}"))
                        .collect(),
                    entry: sp.label(),
                }
            } else {
                ControlKind::Number
            };
            let role = if RHEO_KEYS.contains(&key) {
                Role::Rheo
            } else if SIGMA_KEYS.contains(&key) {
                Role::Sigma
            } else {
                Role::Plain
            };
            Control {
                key,
                label: sp.label(),
                unit: sp.unit,
                min: sp.min,
                max: sp.max,
                log: sp.log,
                integer: sp.integer(),
                value,
                kind,
                group,
                role,
                structural: STRUCTURAL_KEYS.contains(&key),
            }
        };
        match self.view {
            FrbdView::Hysteresis => {
                out.push(num(self, "vmean", hysteresis::VMEAN, Group::EXPERIMENT));
                out.push(num(self, "vamp", hysteresis::VAMP, Group::EXPERIMENT));
                out.push(num(self, "freqs", self.freq_spec(), Group::EXPERIMENT));
                out.push(choice(
                    "funit",
                    "Frequency unit",
                    vec![("hz", "f in Hz"), ("rad", "ω in rad/s")],
                    Group::EXPERIMENT,
                ));
            }
            FrbdView::Relaxation => {
                out.push(num(self, "vrel", relaxation::VREL, Group::EXPERIMENT));
                out.push(num(self, "tend", relaxation::TEND, Group::EXPERIMENT));
            }
            FrbdView::Robot => {
                out.push(choice(
                    "observer",
                    "Friction observer",
                    vec![("1", "on: F̂ fed forward"), ("0", "off: no compensation")],
                    Group::EXPERIMENT,
                ));
                out.push(choice(
                    "ref",
                    "Reference q_d(t)",
                    vec![("sine", "sine q_a sin 2πf_d t"), ("step", "set-point q_a")],
                    Group::EXPERIMENT,
                ));
                let group = |k: &str| match k {
                    "m" | "cv" | "gload" => Group::ARM,
                    "ks" | "kobs" | "lambda" => Group::CONTROLLER,
                    "qamp" | "qfreq" => Group::EXPERIMENT,
                    _ => Group::INITIAL_STATE,
                };
                // the reference's own values first, so that "experiment" is one group
                let (exp, rest): (Vec<ParamSpec>, Vec<ParamSpec>) = robot_arm::PARAMS
                    .into_iter()
                    .filter(|sp| !(sp.key == "qfreq" && self.num("ref") == 1.0))
                    .partition(|sp| group(sp.key) == Group::EXPERIMENT);
                for sp in exp {
                    out.push(num(self, sp.key, sp, Group::EXPERIMENT));
                }
                out.push(num(self, "tend", robot_arm::TEND, Group::EXPERIMENT));
                for sp in rest {
                    out.push(num(self, sp.key, sp, group(sp.key)));
                }
            }
        }
        let kinds: Vec<Kind> = Kind::ALL
            .into_iter()
            .filter(|k| self.view != FrbdView::Robot || k.has_branches())
            .collect();
        out.push(choice(
            "model",
            "Model",
            kinds.iter().map(|k| (k.id(), k.name())).collect(),
            Group::MODEL,
        ));
        if self.model.has_branches() {
            out.push(num(self, "n", N_SPEC, Group::MODEL));
        }
        for k in RHEO_KEYS {
            if self.applies(k).is_ok() {
                let sp = self.list_elem(k).or_else(|| self.num_spec(k));
                if let Some(sp) = sp {
                    let mut c = num(self, k, sp, Group::MODEL);
                    if self.list_elem(k).is_some() {
                        c.label = format!(
                            "{} {} [{}] (list, one per branch)",
                            sp.name,
                            sp.symbol.replace("_1", "_i"),
                            sp.unit
                        );
                    }
                    out.push(c);
                }
            }
        }
        if self.sigma_unavailable_reason().is_none() {
            for (k, sp) in [
                ("sigma0", spec::SIGMA0),
                ("sigma1", spec::SIGMA1),
                ("gamma1", spec::GAMMA1),
            ] {
                out.push(num(self, k, sp, Group::SIGMA));
            }
        }
        for sp in spec::CONTACT {
            out.push(num(self, sp.key, sp, Group::FRICTION_LAW));
        }
        out
    }
}
