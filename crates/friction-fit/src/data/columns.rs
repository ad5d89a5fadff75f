//! What a record's columns hold: the quantity a header name stands for (guessed from common
//! spellings, or named by the caller) and its unit (from brackets, parentheses or a suffix such
//! as `x_m`, `tau_f_Nm`, `dq_rad_s`), with the factor to SI.
//!
//! Why guesses: files come from test rigs, robot logs and other people's scripts with their own
//! headers (`Time [s]  Normal [uN]  Position [mm]  Friction [uN]`, `time,q7,dq7,ddq7,
//! q7_tau_J_compensate`); a user should not have to edit a file to fit it. Every guess is
//! reported, and `cols=` overrides it.

/// A quantity the fit reads from a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Col {
    /// Time.
    T,
    /// Displacement (or a joint angle).
    X,
    /// Velocity (or an angular velocity).
    V,
    /// Friction force (or torque).
    F,
    /// Normal load.
    N,
    /// Per-sample weight.
    W,
}

/// Every quantity, in the order the report lists them.
pub const ALL: [Col; 6] = [Col::T, Col::X, Col::V, Col::F, Col::N, Col::W];

impl Col {
    /// The key of the quantity in `cols=`, `units=` and `flip=`.
    pub fn key(self) -> &'static str {
        match self {
            Col::T => "t",
            Col::X => "x",
            Col::V => "v",
            Col::F => "F",
            Col::N => "N",
            Col::W => "w",
        }
    }

    /// The quantity of a key (`t`, `x`, `v`, `F`, `N`, `w`; case-insensitive).
    pub fn of_key(key: &str) -> Option<Col> {
        ALL.into_iter()
            .find(|c| c.key().eq_ignore_ascii_case(key.trim()))
    }

    /// What the quantity is, in words, with its units.
    pub fn quantity(self) -> &'static str {
        match self {
            Col::T => "a time (s, ms, µs)",
            Col::X => "a displacement (m, cm, mm, µm, nm) or an angle (rad, mrad, deg)",
            Col::V => {
                "a velocity (m/s, cm/s, mm/s, µm/s) or an angular velocity (rad/s, deg/s, rpm)"
            }
            Col::F => "a force (N, mN, kN, µN) or a torque (N·m, mN·m)",
            Col::N => "a force (N, mN, kN, µN)",
            Col::W => "a weight (no unit)",
        }
    }

    /// The units a column without one may be given (the page's unit chooser), SI first.
    pub const fn choices(self) -> &'static [&'static str] {
        match self {
            Col::T => &["s", "ms", "µs"],
            Col::X => &["m", "cm", "mm", "µm", "nm", "rad", "deg"],
            Col::V => &["m/s", "cm/s", "mm/s", "µm/s", "rad/s", "deg/s"],
            Col::F => &["N", "mN", "kN", "µN", "N·m"],
            Col::N => &["N", "mN", "kN", "µN"],
            Col::W => &["1"],
        }
    }

    /// Factor from `unit` to SI, and whether the unit is rotational (rad, N·m); `None` if the
    /// unit is not one of this quantity's.
    pub fn factor(self, unit: &str) -> Option<(f64, bool)> {
        let u = canonical_unit(unit);
        let lin = |f: f64| Some((f, false));
        let rot = |f: f64| Some((f, true));
        let deg = std::f64::consts::PI / 180.0;
        match (self, u.as_str()) {
            (_, "") => lin(1.0),
            (Col::T, "s" | "sec") => lin(1.0),
            (Col::T, "ms") => lin(1e-3),
            (Col::T, "µs") => lin(1e-6),
            (Col::T, "min") => lin(60.0),
            (Col::X, "m") => lin(1.0),
            (Col::X, "cm") => lin(1e-2),
            (Col::X, "mm") => lin(1e-3),
            (Col::X, "µm") => lin(1e-6),
            (Col::X, "nm") => lin(1e-9),
            (Col::X, "rad") => rot(1.0),
            (Col::X, "mrad") => rot(1e-3),
            (Col::X, "deg" | "°") => rot(deg),
            (Col::V, "m/s") => lin(1.0),
            (Col::V, "cm/s") => lin(1e-2),
            (Col::V, "mm/s") => lin(1e-3),
            (Col::V, "µm/s") => lin(1e-6),
            (Col::V, "rad/s") => rot(1.0),
            (Col::V, "mrad/s") => rot(1e-3),
            (Col::V, "deg/s" | "°/s") => rot(deg),
            (Col::V, "rpm") => rot(2.0 * std::f64::consts::PI / 60.0),
            (Col::F | Col::N, "N") => lin(1.0),
            (Col::F | Col::N, "mN") => lin(1e-3),
            (Col::F | Col::N, "kN") => lin(1e3),
            (Col::F | Col::N, "µN") => lin(1e-6),
            (Col::F, "Nm") => rot(1.0),
            (Col::F, "mNm") => rot(1e-3),
            (Col::F, "kNm") => rot(1e3),
            (Col::W, "1" | "-") => lin(1.0),
            _ => None,
        }
    }
}

/// A unit as written, in one spelling: micro as `µ` (from `u`, `μ`), `N·m`/`N*m`/`N m`/`N.m`
/// as `Nm`, `_` and `per` as `/` (`rad_s` → `rad/s`), seconds as `s`.
pub fn canonical_unit(unit: &str) -> String {
    let mut u: String = unit
        .trim()
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '·' | '*' | '⋅'))
        .map(|c| if c == 'μ' { 'µ' } else { c })
        .collect();
    u = u.replace('_', "/").replace("per", "/").replace("Nm.", "Nm");
    if u.starts_with('u') && u.len() > 1 {
        u.replace_range(..1, "µ");
    }
    if let Some(rest) = u.strip_suffix("/sec") {
        u = format!("{rest}/s");
    }
    // N.m (with a dot)
    u = u.replace("N.m", "Nm");
    match u.as_str() {
        "secs" | "seconds" => "s".into(),
        "degree" | "degrees" => "deg".into(),
        "deg/sec" => "deg/s".into(),
        "RPM" => "rpm".into(),
        _ => u,
    }
}

/// Splits a header field into its name and unit: `F [N]`, `F (N)`, `F in N`, `x_m`,
/// `tau_f_Nm`, `dq_rad_s` (a suffix counts as a unit only where it is one of a quantity's
/// units).
pub fn name_and_unit(field: &str) -> (String, String) {
    let f = field.trim().trim_matches('"').trim();
    for (open, close) in [('[', ']'), ('(', ')')] {
        if let (Some(a), Some(b)) = (f.find(open), f.rfind(close)) {
            if a < b {
                return (f[..a].trim().to_string(), f[a + 1..b].trim().to_string());
            }
        }
    }
    if let Some((name, unit)) = f.rsplit_once(" in ") {
        return (name.trim().to_string(), unit.trim().to_string());
    }
    // a suffix of one or two `_` parts that is a unit of some quantity
    let parts: Vec<&str> = f.split('_').collect();
    for tail in [2, 1] {
        if parts.len() > tail {
            let unit = parts[parts.len() - tail..].join("_");
            if ALL.iter().any(|c| {
                !canonical_unit(&unit).is_empty() && c.factor(&unit).is_some() && *c != Col::W
            }) {
                return (parts[..parts.len() - tail].join("_"), unit);
            }
        }
    }
    (f.to_string(), String::new())
}

/// How strongly a column name suggests each quantity: `Some((col, score))` for the best one,
/// higher is surer (an exact common name 3, a name that contains a telling word 2, a weaker
/// hint 1), `None` for a name that is none of them (an acceleration, a model prediction).
pub fn guess(name: &str) -> Option<(Col, u8)> {
    let n: String = name
        .to_ascii_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ' ')
        .collect();
    let n = n.trim().replace(' ', "_");
    // digits at the end name a joint or channel (q7, dq7)
    let base = n.trim_end_matches(|c: char| c.is_ascii_digit());
    let has = |w: &str| {
        n.split('_')
            .any(|p| p.trim_end_matches(|c: char| c.is_ascii_digit()) == w)
    };
    let contains = |w: &str| n.contains(w);
    // accelerations and other derived signals are never a column the fit reads
    if base.starts_with("dd") || contains("acc") || has("a") || contains("jerk") {
        return None;
    }
    if matches!(base, "w" | "weight" | "weights") {
        return Some((Col::W, 3));
    }
    if contains("normal") || matches!(base, "n" | "fn" | "load" | "normal_force" | "normalload") {
        return Some((Col::N, 3));
    }
    if has("load") {
        return Some((Col::N, 2));
    }
    if matches!(
        base,
        "f" | "ff" | "force" | "friction" | "friction_force" | "torque" | "tau"
    ) {
        return Some((Col::F, 3));
    }
    if contains("fric") || contains("torque") || has("tau") || contains("force") {
        return Some((Col::F, 2));
    }
    if base.starts_with("f_") || base.starts_with("tau") {
        return Some((Col::F, 1));
    }
    if matches!(base, "t" | "time" | "timestamp" | "sec" | "seconds" | "ts") {
        return Some((Col::T, 3));
    }
    if base.starts_with("time") {
        return Some((Col::T, 2));
    }
    if matches!(
        base,
        "v" | "vel"
            | "velocity"
            | "speed"
            | "dq"
            | "qd"
            | "qdot"
            | "dx"
            | "xd"
            | "xdot"
            | "omega"
            | "dtheta"
            | "thetadot"
    ) {
        return Some((Col::V, 3));
    }
    if contains("veloc") || contains("speed") || base.starts_with("vel") || base.starts_with("dq") {
        return Some((Col::V, 2));
    }
    if base.starts_with("v_") {
        return Some((Col::V, 1));
    }
    if matches!(
        base,
        "x" | "pos" | "position" | "displacement" | "disp" | "q" | "theta" | "angle" | "s"
    ) {
        return Some((Col::X, 3));
    }
    if contains("position") || contains("displacement") || contains("angle") {
        return Some((Col::X, 2));
    }
    if base.starts_with("x_") || base.starts_with("q_") || base.starts_with("pos") {
        return Some((Col::X, 1));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_units_of_real_headers() {
        for (field, name, unit) in [
            ("Time [s]", "Time", "s"),
            ("Friction [uN]", "Friction", "uN"),
            ("F (mN)", "F", "mN"),
            ("t_s", "t", "s"),
            ("x_m", "x", "m"),
            ("N_N", "N", "N"),
            ("tau_f_Nm", "tau_f", "Nm"),
            ("dq_rad_s", "dq", "rad_s"),
            ("q_rad", "q", "rad"),
            ("q7_tau_J_compensate", "q7_tau_J_compensate", ""),
            ("F_fric_N", "F_fric", "N"),
            ("a_m_s2", "a_m_s2", ""),
            ("force in mN", "force", "mN"),
        ] {
            assert_eq!(name_and_unit(field), (name.into(), unit.into()), "{field}");
        }
    }

    #[test]
    fn guesses_of_real_headers() {
        for (name, col) in [
            ("Time", Some(Col::T)),
            ("Normal", Some(Col::N)),
            ("Position", Some(Col::X)),
            ("Friction", Some(Col::F)),
            ("time", Some(Col::T)),
            ("q7", Some(Col::X)),
            ("dq7", Some(Col::V)),
            ("ddq7", None),
            ("q7_tau_J_compensate", Some(Col::F)),
            ("t", Some(Col::T)),
            ("N", Some(Col::N)),
            ("F", Some(Col::F)),
            ("tau_f", Some(Col::F)),
            ("v_filt", Some(Col::V)),
            ("F_fric", Some(Col::F)),
            ("a_m_s2", None),
            ("LuGre", None),
        ] {
            assert_eq!(guess(name).map(|g| g.0), col, "{name}");
        }
    }

    #[test]
    fn units_convert_to_si() {
        assert_eq!(Col::F.factor("uN"), Some((1e-6, false)));
        assert_eq!(Col::F.factor("µN"), Some((1e-6, false)));
        assert_eq!(Col::F.factor("N·m"), Some((1.0, true)));
        assert_eq!(Col::F.factor("N m"), Some((1.0, true)));
        assert_eq!(Col::X.factor("mm"), Some((1e-3, false)));
        assert_eq!(Col::V.factor("rad_s"), Some((1.0, true)));
        assert_eq!(Col::N.factor("N·m"), None);
        let (d, rot) = Col::X.factor("deg").unwrap_or((0.0, false));
        assert!(rot && (d * 180.0 - std::f64::consts::PI).abs() < 1e-15);
    }
}
