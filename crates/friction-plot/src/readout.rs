//! Numbers read off a chart for people: a hovered point with its symbol and unit, and numbers
//! in words for screen readers.
//!
//! Why here: the axis descriptions ("relative velocity v [m/s]") live in the chart specs, so the
//! symbol and unit of a read-out come from the same text the axis shows.

use friction_core::job::sig;

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

#[cfg(test)]
mod tests {
    use super::*;

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
