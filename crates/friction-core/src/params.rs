//! Parameter descriptions and validation shared by every model and by the scenario schema.
//!
//! A [`ParamSpec`] carries everything the page, the CLI and the query string need to know about
//! one scalar parameter: its stable key, symbol, unit, default and allowed range. Validation is
//! done once, at the boundary, with [`ParamSpec::check`]; models can then assume valid input.

use std::fmt;

mod number;
pub use number::parse_f64;

/// Description of one scalar model or experiment parameter.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParamSpec {
    /// Stable query-string key (e.g. `"vs"`); never renamed once published.
    pub key: &'static str,
    /// Human name, e.g. `"Stribeck velocity"`.
    pub name: &'static str,
    /// Symbol as shown to users, e.g. `"v_S"`.
    pub symbol: &'static str,
    /// Unit, e.g. `"m/s"`; empty for dimensionless quantities.
    pub unit: &'static str,
    /// Default value (from the source paper where it gives one).
    pub default: f64,
    /// Smallest allowed value (inclusive).
    pub min: f64,
    /// Largest allowed value (inclusive).
    pub max: f64,
    /// Whether a slider for this quantity should be logarithmic (it spans decades).
    pub log: bool,
}

/// The 0/1 parameters that pick one of two readings or experiments: (key, label, meaning of 0,
/// meaning of 1). The page shows them as a choice of two named options instead of a slider
/// over \[0, 1\] (where every value but the ends is an error); the query string keeps 0 and 1.
pub const SWITCHES: [(&str, &str, &str, &str); 9] = [
    (
        "sweep",
        "Sweep",
        "F against velocity",
        "F against displacement",
    ),
    (
        "form",
        "Force law",
        "literature: (1 + a(z)) σ0 z + σ1 ż",
        "thesis (7.10)",
    ),
    (
        "printed",
        "Static term",
        "μ_s F_N sgn(Ẋ) (intended)",
        "constant μ_s F_N (as printed)",
    ),
    (
        "branched",
        "Law",
        "tanh everywhere",
        "two branches as printed",
    ),
    ("astep", "Step reading", "odd cubic", "smoothstep"),
    (
        "spring",
        "Spring",
        "none (F_e = 0)",
        "to the wall (F_e = −k x)",
    ),
    ("wave", "Applied force", "sine", "triangle"),
    (
        "excite",
        "Excitation",
        "velocity v = v_mean + v_amp·cos ωt",
        "displacement x = x_amp·sin ωt",
    ),
    ("rad", "Frequency unit", "f in Hz (ω = 2πf)", "ω in rad/s"),
];

/// The label and two options of a 0/1 switch parameter, if `key` is one ([`SWITCHES`]).
pub fn switch(key: &str) -> Option<(&'static str, [(&'static str, &'static str); 2])> {
    SWITCHES
        .iter()
        .find(|s| s.0 == key)
        .map(|&(_, label, zero, one)| (label, [("0", zero), ("1", one)]))
}

/// Marks a parameter label whose default is a placeholder (see [`PLACEHOLDER_NOTE`]).
pub const PLACEHOLDER_MARK: &str = "†";

/// What [`PLACEHOLDER_MARK`] means, said once per view rather than in every label.
pub const PLACEHOLDER_NOTE: &str = "† a placeholder: the source gives no value for this \
     parameter, so its default is this program's choice; change it freely.";

/// Keys whose values are counts (branches, elements, points, frequencies, periods, a seed): a
/// fraction is rejected wherever the key enters ([`ParamSpec::check`]) with the same message, and
/// the page steps their sliders by one ([`ParamSpec::integer`]). A table beside [`SWITCHES`]
/// rather than a field, because a key keeps its meaning in every model that has it.
pub const INTEGER_KEYS: [&str; 5] = ["n", "npts", "nf", "cycles", "seed"];

impl ParamSpec {
    /// Label for UIs: `"Stribeck velocity v_S [m/s]"`. A default the program chose where the
    /// source gives none (a name ending "(placeholder…)") is marked with [`PLACEHOLDER_MARK`]
    /// instead of the words, which the view's lesson explains once ([`PLACEHOLDER_NOTE`]).
    pub fn label(&self) -> String {
        let (name, mark) = match self.name.find(" (placeholder") {
            Some(i) => (&self.name[..i], format!(" {PLACEHOLDER_MARK}")),
            None => (self.name, String::new()),
        };
        if self.unit.is_empty() {
            format!("{name} {}{mark}", self.symbol)
        } else {
            format!("{name} {} [{}]{mark}", self.symbol, self.unit)
        }
    }

    /// Whether the value is a count ([`INTEGER_KEYS`]): whole numbers only.
    pub fn integer(&self) -> bool {
        INTEGER_KEYS.contains(&self.key)
    }

    /// Human-readable allowed range, e.g. `"1e-06 ≤ vs ≤ 10"` (`"integer 0 ≤ n ≤ 10"` for a
    /// count).
    pub fn range_text(&self) -> String {
        format!(
            "{}{} ≤ {} ≤ {}",
            if self.integer() { "integer " } else { "" },
            fmt_num(self.min),
            self.key,
            fmt_num(self.max)
        )
    }

    /// Checks `value` against this spec; the error names the key, the value and the range.
    pub fn check(&self, value: f64) -> Result<f64, ParamError> {
        if value.is_finite()
            && value >= self.min
            && value <= self.max
            && !(self.integer() && value.fract() != 0.0)
        {
            Ok(value)
        } else {
            Err(ParamError::out_of_range(self, &fmt_num(value)))
        }
    }

    /// Parses a query-string value for this key and checks it.
    ///
    /// A number that underflows (a nonzero text parsed to 0) or is subnormal is rejected even
    /// where the range holds 0: it would run silently as 0 (`vrel=1e-99999` is not a velocity of
    /// 0) or with lost precision.
    pub fn parse(&self, text: &str) -> Result<f64, ParamError> {
        match parse_f64(text.trim()) {
            Some(v) => {
                let v = self
                    .check(v)
                    .map_err(|_| ParamError::out_of_range(self, text))?;
                if representable(text, v) {
                    Ok(v)
                } else {
                    let what = if v == 0.0 {
                        "would be taken as 0"
                    } else {
                        "loses precision (subnormal)"
                    };
                    Err(ParamError::new(
                        self.key,
                        text,
                        format!(
                            "a nonzero value below {:e} in magnitude {what}; allowed: {}",
                            f64::MIN_POSITIVE,
                            self.range_text()
                        ),
                    ))
                }
            }
            None => Err(ParamError::out_of_range(self, text)),
        }
    }
}

/// Whether `x`, parsed from `text`, is the number the text means as far as a parameter can
/// tell: not an underflow to ±0 of a nonzero text, nor subnormal (|x| < 2.2e-308, where f64
/// loses precision). Numbers only get there by underflow; none of the ranges asks for them.
pub fn representable(text: &str, x: f64) -> bool {
    if x == 0.0 {
        // the significand (before any exponent) has no nonzero digit: the text means zero
        let significand = text.trim().split(['e', 'E']).next().unwrap_or("");
        !significand.bytes().any(|b| (b'1'..=b'9').contains(&b))
    } else {
        !x.is_subnormal()
    }
}

/// Formats a float so that parsing it back gives the same bits (Rust's shortest round-trip form).
pub fn fmt_num(x: f64) -> String {
    format!("{x}")
}

/// A computed quantity as a CSV cell: [`fmt_num`], or an empty cell where the quantity is
/// undefined (NaN, ±∞: no breakaway in the run, fewer than two maxima for a period). The
/// reason goes in the readout's notes (`job::Job::metric_notes`), never "NaN" in the data.
pub fn fmt_cell(x: f64) -> String {
    if x.is_finite() {
        fmt_num(x)
    } else {
        String::new()
    }
}

/// A rejected parameter: which key, what value, and why (with the allowed range).
///
/// A rule between several values (μ_s ≥ μ_k, v_min < v_max) is one error about all of them:
/// `key` and `value` are one of the keys, `others` the rest with their values, so that whoever
/// reports it can name every key involved and say which values were given
/// (`scenario::Scenario` rewrites them for the link's own keys).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamError {
    /// Key of the offending parameter (or the unknown key).
    pub key: String,
    /// The value as given (truncated for display if very long).
    pub value: String,
    /// Why it was rejected, including the allowed range where there is one; for a rule between
    /// several keys, the rule (`"needs mus ≥ muk"`).
    pub reason: String,
    /// The other keys of a rule between several values, each with its value as text (empty for
    /// a one-key error).
    pub others: Vec<(String, String)>,
}

impl ParamError {
    /// A value outside the spec's range, or not a number at all.
    pub fn out_of_range(spec: &ParamSpec, value: &str) -> Self {
        ParamError {
            key: spec.key.to_string(),
            value: shorten(value),
            reason: format!("allowed: {}", spec.range_text()),
            others: Vec::new(),
        }
    }

    /// Any other rejection, with a free-form reason.
    pub fn new(key: &str, value: &str, reason: impl Into<String>) -> Self {
        ParamError {
            key: key.to_string(),
            value: shorten(value),
            reason: reason.into(),
            others: Vec::new(),
        }
    }

    /// A rule between several values failed: `keys` are every key it involves with the value it
    /// was checked with (the first is the one the message starts with), `rule` says what must
    /// hold (`"needs mus ≥ muk"`).
    pub fn relation(keys: &[(&str, f64)], rule: impl Into<String>) -> Self {
        let text: Vec<(&str, String)> = keys.iter().map(|(k, x)| (*k, fmt_num(*x))).collect();
        let refs: Vec<(&str, &str)> = text.iter().map(|(k, x)| (*k, x.as_str())).collect();
        ParamError::relation_text(&refs, rule)
    }

    /// [`ParamError::relation`] with values given as text (lists).
    pub fn relation_text(keys: &[(&str, &str)], rule: impl Into<String>) -> Self {
        let (key, value) = keys.first().copied().unwrap_or(("", ""));
        ParamError {
            key: key.to_string(),
            value: shorten(value),
            reason: rule.into(),
            others: keys
                .iter()
                .skip(1)
                .map(|(k, x)| (k.to_string(), shorten(x)))
                .collect(),
        }
    }

    /// Every key the error is about: `key`, then the other keys of its rule.
    pub fn keys(&self) -> Vec<&str> {
        std::iter::once(self.key.as_str())
            .chain(self.others.iter().map(|(k, _)| k.as_str()))
            .collect()
    }

    /// The reason with the rule's other keys and their values: what follows "is not valid".
    pub fn explanation(&self) -> String {
        if self.others.is_empty() {
            return self.reason.clone();
        }
        let with: Vec<String> = self
            .others
            .iter()
            .map(|(k, x)| format!("{} = {x}", shown(k)))
            .collect();
        format!("{}; with {}", self.reason, with.join(", "))
    }
}

/// Characters a key or value may carry that a reader cannot see or that move the text (control
/// characters, zero-width and direction marks, the byte-order mark, spaces other than U+0020):
/// a key `vs\r` (from `vs%0D`) looked like `vs` in a message that said it was unknown.
pub fn invisible(c: char) -> bool {
    c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(
            c,
            '\u{AD}'
                | '\u{34F}'
                | '\u{61C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFF8}'
        )
}

/// `s` with every [`invisible`] character percent-escaped as in a link (`vs%0D`), so that a
/// message shows what was typed.
pub fn shown(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(invisible) {
        return s.into();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if invisible(c) {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// Keeps error messages readable whatever a hostile query string contains.
fn shorten(value: &str) -> String {
    const MAX: usize = 40;
    if value.chars().count() <= MAX {
        value.to_string()
    } else {
        let head: String = value.chars().take(MAX).collect();
        format!("{head}…")
    }
}

/// Most characters of one piece of query text (a key, a value, a word of the reason) that an
/// error message shows.
const SHOWN: usize = 64;

/// `s` cut to [`SHOWN`] characters with an ellipsis.
fn cut(s: &str) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{}…", &s[..end]).into(),
        None => s.into(),
    }
}

/// Why cut: a hostile or mistaken query (a 50,000-character key) came back whole, and twice
/// where the reason quotes it too (345 KB on stderr). Reasons are cut word by word, since they
/// quote query text (model ids, qualified keys) among fixed words.
impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} = \"{}\" is not valid (",
            cut(&shown(&self.key)),
            cut(&shown(&self.value))
        )?;
        for (i, word) in self.explanation().split(' ').enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(&cut(word))?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for ParamError {}

/// Reads `values[i]` for the spec `specs[i]`; a helper for models built from a value slice.
///
/// Panics only on a programming error (slice shorter than the spec list).
pub fn values_or_defaults(specs: &[ParamSpec], values: &[f64]) -> Vec<f64> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| values.get(i).copied().unwrap_or(s.default))
        .collect()
}

/// Checks every value against its spec, returning the first error.
pub fn check_all(specs: &[ParamSpec], values: &[f64]) -> Result<(), ParamError> {
    for (spec, &v) in specs.iter().zip(values) {
        spec.check(v)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const VS: ParamSpec = ParamSpec {
        key: "vs",
        name: "Stribeck velocity",
        symbol: "v_S",
        unit: "m/s",
        default: 0.01,
        min: 1e-6,
        max: 10.0,
        log: true,
    };

    #[test]
    fn label_and_range_name_the_quantity() {
        assert_eq!(VS.label(), "Stribeck velocity v_S [m/s]");
        assert_eq!(VS.range_text(), "0.000001 ≤ vs ≤ 10");
    }

    #[test]
    fn parse_rejects_garbage_and_out_of_range_with_key_and_range() {
        let e = VS.parse("abc").unwrap_err();
        assert_eq!(e.key, "vs");
        assert!(
            e.to_string().contains("abc") && e.to_string().contains("≤ vs ≤"),
            "{e}"
        );
        assert!(VS.parse("-1").is_err());
        assert!(VS.parse("NaN").is_err());
        assert!(VS.parse("inf").is_err());
        assert_eq!(VS.parse("0.02").unwrap(), 0.02);
    }

    #[test]
    fn fmt_num_round_trips() {
        for x in [0.1, 1e-7, 5.45e4, 1.0 / 3.0, 123456789.123] {
            assert_eq!(fmt_num(x).parse::<f64>().unwrap().to_bits(), x.to_bits());
        }
    }
}
