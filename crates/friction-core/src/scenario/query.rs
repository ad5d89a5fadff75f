//! Query-string syntax: `&`-separated `key=value` pairs, optional leading `?`, `+` for space and
//! percent-encoding. Decoding never panics; invalid escapes are kept literally.

/// Splits a query string into decoded (key, value) pairs; empty pieces (`a=1&&b=2`) are skipped.
///
/// Values lose surrounding white space; keys only plain spaces (`+`, `%20`): a key with a
/// control or invisible character (`vs%0D`) stays as it is, so that it is refused by its
/// name rather than taken for `vs` or dropped.
pub fn pairs(query: &str) -> Vec<(String, String)> {
    let q = query.trim();
    let q = q.strip_prefix('?').unwrap_or(q);
    let key = |k: &str| decode(k).trim_matches(' ').to_string();
    q.split('&')
        .filter(|p| !p.trim().is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (key(k), decode(v).trim().to_string()),
            None => (key(p), String::new()),
        })
        .collect()
}

/// Percent-decodes `s` and turns `+` into a space; malformed escapes and invalid UTF-8 are kept
/// (lossily), never rejected here: the value check reports them with the key.
pub fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 3;
                }
                _ => {
                    out.push(b'%');
                    i += 1;
                }
            },
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Encodes a value for a query string: keeps unreserved characters and `,` readable.
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &c in s.as_bytes() {
        match c {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b',' => {
                out.push(c as char)
            }
            _ => out.push_str(&format!("%{c:02X}")),
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn decodes_plus_percent_and_bad_escapes() {
        assert_eq!(decode("a+b%2C1"), "a b,1");
        assert_eq!(decode("%"), "%");
        assert_eq!(decode("%4"), "%4");
        assert_eq!(decode("%zz"), "%zz");
        assert_eq!(decode("%E2%89%A4"), "≤");
        assert_eq!(decode("%FF"), "\u{FFFD}");
        let p = pairs("?v=1&&view=hysteresis&flag");
        assert_eq!(p.len(), 3);
        assert_eq!(p[2], ("flag".to_string(), String::new()));
        assert_eq!(encode("1e-7,2"), "1e-7,2");
        assert_eq!(decode(&encode("a b&=%")), "a b&=%");
    }
}
