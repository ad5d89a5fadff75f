//! Numbers read off a chart for people: a hovered point with its symbol and unit, and numbers
//! in words for screen readers.
//!
//! Why here: the axis descriptions ("relative velocity v [m/s]") live in the chart specs, so the
//! symbol and unit of a read-out come from the same text the axis shows.

use friction_core::job::sig;
use friction_core::params::parse_f64;

/// The symbol and unit of an axis description `"name symbol [unit]"`: `("v", "m/s")`.
pub fn symbol_and_unit(label: &str) -> (String, String) {
    let (head, unit) = match (label.rfind('['), label.ends_with(']')) {
        (Some(i), true) => (&label[..i], label[i + 1..label.len() - 1].trim()),
        _ => (label, ""),
    };
    let symbol = head.split_whitespace().last().unwrap_or("").to_string();
    (symbol, unit.to_string())
}

/// `"v = 0.01234 m/s"`: a value of the axis described by `label`, four significant digits.
pub fn value_text(label: &str, x: f64) -> String {
    let (symbol, unit) = symbol_and_unit(label);
    let v = sig(x);
    match (symbol.is_empty(), unit.is_empty()) {
        (true, true) => v,
        (true, false) => format!("{v} {unit}"),
        (false, true) => format!("{symbol} = {v}"),
        (false, false) => format!("{symbol} = {v} {unit}"),
    }
}

/// Units as a screen reader should say them.
const UNIT_WORDS: [(&str, &str); 10] = [
    ("J", "joules"),
    ("N", "newtons"),
    ("N·m/s", "newton metres per second"),
    ("m/s", "metres per second"),
    ("rad/s", "radians per second"),
    ("Hz", "hertz"),
    ("ms", "milliseconds"),
    ("s", "seconds"),
    ("m", "metres"),
    ("rad", "radians"),
];

/// A power of ten in superscript digits ("⁻⁴").
pub(crate) fn superscript(e: &str) -> String {
    e.chars()
        .map(|c| match c {
            '-' => '⁻',
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '4' => '⁴',
            '5' => '⁵',
            '6' => '⁶',
            '7' => '⁷',
            '8' => '⁸',
            '9' => '⁹',
            c => c,
        })
        .collect()
}

/// A sentence of the read-out as a screen reader should speak it: numbers in exponent form as
/// "6.364 × 10⁻⁴" and unit symbols after a number in words ("joules"), so "6.364e-4 J" is not
/// read letter by letter.
pub fn spoken(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut after_number = false;
    for word in text.split(' ') {
        let core = word.trim_end_matches([',', '.', ';', ':', ')']);
        let tail = &word[core.len()..];
        let number = parse_f64(core).is_some();
        if number {
            if let Some((m, e)) = core.split_once('e') {
                out.push(format!("{m} × 10{}{tail}", superscript(e)));
            } else {
                out.push(word.to_string());
            }
            after_number = true;
            continue;
        }
        match UNIT_WORDS.iter().find(|(u, _)| *u == core) {
            Some((_, w)) if after_number => out.push(format!("{w}{tail}")),
            _ => out.push(word.to_string()),
        }
        after_number = false;
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_units_are_spoken_in_words() {
        assert_eq!(
            spoken("energy per cycle 6.364e-4 J, peak F 1.184 N."),
            "energy per cycle 6.364 × 10⁻⁴ joules, peak F 1.184 newtons."
        );
        assert_eq!(
            spoken("At 25 Hz: area 1.2e3 N·m/s"),
            "At 25 hertz: area 1.2 × 10³ newton metres per second"
        );
        // a unit symbol not after a number stays as written
        assert_eq!(spoken("J is a unit"), "J is a unit");
    }

    #[test]
    fn hovered_values_carry_symbol_and_unit() {
        assert_eq!(
            symbol_and_unit("relative velocity v [m/s]"),
            ("v".into(), "m/s".into())
        );
        assert_eq!(value_text("friction force F [N]", 1.23456), "F = 1.235 N");
        assert_eq!(value_text("time t [s]", 0.5), "t = 0.5000 s");
        assert_eq!(value_text("ratio", 2.0), "ratio = 2.000");
    }
}
