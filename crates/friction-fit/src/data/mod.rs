//! Measured data in: a delimited text file (CSV, TSV, `;`- or space-separated, quoted fields, a
//! UTF-8 byte-order mark, `#` comments) whose columns hold time, displacement and/or velocity,
//! friction force and optionally the normal load and per-sample weights, converted to SI.
//!
//! Columns are found by name ([`columns::guess`]: `Time [s]`, `q7`, `tau_f_Nm`, …) or named by
//! the caller ([`ReadOptions::cols`]); units come from the header (`F [uN]`, `v (mm/s)`, `x_m`)
//! or the caller. The caller may flip signs, keep a time window only, and choose how a velocity
//! is derived from a quantised displacement ([`smooth`]). Every error names the line and the
//! column in words a student understands.
//!
//! Why the `csv` crate: quoting, delimiters and line numbers are its job; this module keeps what
//! is ours (which column is which, units, the checks on the numbers).

pub mod columns;
pub mod motion;
pub mod smooth;

use std::fmt;

use friction_core::experiments::sampled::Spline;
use friction_core::params::parse_f64;

pub use columns::Col;
pub use smooth::Smooth;

/// Fewest data rows a fit accepts.
pub const MIN_ROWS: usize = 10;

/// One record in SI units: time \[s\], displacement \[m\], velocity \[m/s\], force \[N\] (for a
/// rotary record: rad, rad/s and N·m, see [`Data::rotary`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Data {
    /// Time \[s\], strictly increasing.
    pub t: Vec<f64>,
    /// Displacement \[m\] (integrated from v by the trapezoid rule when the file has none; the
    /// smoothed displacement when a quantised one was smoothed, [`Data::smoothing`]).
    pub x: Vec<f64>,
    /// Velocity \[m/s\] (when the file has none: the derivative of the cubic spline through x).
    pub v: Vec<f64>,
    /// Whether the models are driven by x (a file without v): through a cubic spline of x
    /// between the samples ([`friction_core::experiments::sampled::Spline`]), not by v.
    pub x_drive: bool,
    /// Measured friction force \[N\].
    pub f: Vec<f64>,
    /// Normal load \[N\], if given: the model's F_N at each sample ([`crate::load`]).
    pub normal: Option<Vec<f64>>,
    /// Per-sample weights (≥ 0), if given.
    pub w: Option<Vec<f64>>,
    /// What the parser derived or assumed, for the report.
    pub notes: Vec<String>,
    /// The keys of the columns present whose header gives no unit (SI assumed unless the
    /// caller chose one), for the page's unit chooser.
    pub unitless: Vec<&'static str>,
    /// Whether the record is rotary (x in rad, v in rad/s or F in N·m): the models then read
    /// metres as radians and newtons as newton-metres, and the report says so.
    pub rotary: bool,
    /// Which file column each quantity came from: (key, header field).
    pub columns: Vec<(&'static str, String)>,
    /// How a quantised displacement was smoothed before it drives the models.
    pub smoothing: Option<smooth::Smoothing>,
}

/// The units a column without one in its header may be given (`parse`'s `units`), SI first,
/// per column key: what the page's unit chooser offers.
pub const UNIT_CHOICES: [(&str, &[&str]); 4] = [
    ("t", Col::T.choices()),
    ("x", Col::X.choices()),
    ("v", Col::V.choices()),
    ("F", Col::F.choices()),
];

impl Data {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.t.len()
    }

    /// Whether there are no samples.
    pub fn is_empty(&self) -> bool {
        self.t.is_empty()
    }

    /// The record as CSV with an SI header (`t [s],x [m],v [m/s],F [N]`, and `N [N]` when
    /// the record has a normal load).
    pub fn to_csv(&self) -> String {
        let mut s = String::from("t [s],x [m],v [m/s],F [N]");
        s.push_str(if self.normal.is_some() {
            ",N [N]\n"
        } else {
            "\n"
        });
        for k in 0..self.len() {
            s.push_str(&format!(
                "{},{},{},{}",
                self.t[k], self.x[k], self.v[k], self.f[k]
            ));
            match &self.normal {
                Some(n) => s.push_str(&format!(",{}\n", n[k])),
                None => s.push('\n'),
            }
        }
        s
    }

    /// The samples `range` as a record of their own (the same notes, columns and drive).
    pub fn slice(&self, range: std::ops::Range<usize>) -> Data {
        let r = range;
        Data {
            t: self.t[r.clone()].to_vec(),
            x: self.x[r.clone()].to_vec(),
            v: self.v[r.clone()].to_vec(),
            x_drive: self.x_drive,
            f: self.f[r.clone()].to_vec(),
            normal: self.normal.as_ref().map(|n| n[r.clone()].to_vec()),
            w: self.w.as_ref().map(|w| w[r.clone()].to_vec()),
            notes: self.notes.clone(),
            unitless: self.unitless.clone(),
            rotary: self.rotary,
            columns: self.columns.clone(),
            smoothing: self.smoothing,
        }
    }

    /// The unit of a force in this record: `N`, or `N·m` for a rotary one.
    pub fn force_unit(&self) -> &'static str {
        if self.rotary {
            "N·m"
        } else {
            "N"
        }
    }
}

/// Why a file was rejected; `line` is 1-based (0 when the whole file is concerned).
#[derive(Debug, Clone, PartialEq)]
pub struct DataError {
    /// Line of the file \[1-based\], 0 for the file as a whole.
    pub line: usize,
    /// What is wrong and what is expected.
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for DataError {}

fn err(line: usize, message: impl Into<String>) -> DataError {
    DataError {
        line,
        message: message.into(),
    }
}

/// A file column named by the caller: its header text (the whole field or its name without the
/// unit, case-insensitive) or its 1-based number.
#[derive(Debug, Clone, PartialEq)]
pub enum ColRef {
    /// By header text.
    Name(String),
    /// By 1-based position.
    Index(usize),
}

/// How to read a record: which column is which, units, sign flips, a time window, smoothing.
/// The default reads the header's guesses in the header's units.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReadOptions {
    /// Columns named by the caller (`cols=t:Time,F:4`); the others are guessed.
    pub cols: Vec<(Col, ColRef)>,
    /// Units given by the caller (`units=F:uN`): they override the header's, or with
    /// `units_fill_only` only fill in where the header gives none (the page's unit chooser).
    pub units: Vec<(Col, String)>,
    /// See `units`.
    pub units_fill_only: bool,
    /// Quantities whose sign is flipped (`flip=F`): a rig that measures the force on the
    /// counter-surface, or a sign convention other than the models' (F has the sign of v).
    pub flip: Vec<Col>,
    /// Samples before this time \[s, in the file's time after its unit\] are dropped.
    pub tmin: Option<f64>,
    /// Samples after this time \[s\] are dropped.
    pub tmax: Option<f64>,
    /// How a displacement-only record's velocity is found ([`smooth`]).
    pub smooth: Smooth,
}

/// A header field, the quantity it was taken for and how sure that is.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The header text as in the file.
    pub header: String,
    /// Name without the unit.
    pub name: String,
    /// Unit from the header (empty: none).
    pub unit: String,
    /// The quantity the field is read as, if any.
    pub col: Option<Col>,
    /// Whether the caller named it (`cols=`) rather than it being guessed.
    pub named: bool,
}

/// The delimiter of a file and its rows as text, with their line numbers.
struct Table {
    rows: Vec<(usize, Vec<String>)>,
}

/// Splits `text` into rows of fields: the delimiter is a tab, a comma or a semicolon (the
/// first found in the first line that is not a comment, in that order), else runs of spaces.
fn table(text: &str) -> Result<Table, DataError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = text
        .lines()
        .map(|l| l.trim())
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .ok_or_else(|| err(0, "the file is empty: expected a header line such as t,x,F"))?;
    let delim = if first.contains('\t') {
        Some(b'\t')
    } else if first.contains(',') {
        Some(b',')
    } else if first.contains(';') {
        Some(b';')
    } else {
        None
    };
    let mut rows = Vec::new();
    match delim {
        Some(d) => {
            let mut rd = csv::ReaderBuilder::new()
                .delimiter(d)
                .has_headers(false)
                .flexible(true)
                .comment(Some(b'#'))
                .trim(csv::Trim::All)
                .from_reader(text.as_bytes());
            for rec in rd.records() {
                let rec = rec.map_err(|e| {
                    let line = e.position().map_or(0, |p| p.line() as usize);
                    err(line, format!("cannot read the file here: {e}"))
                })?;
                let line = rec.position().map_or(0, |p| p.line() as usize);
                if rec.iter().all(|f| f.is_empty()) {
                    continue;
                }
                rows.push((line, rec.iter().map(str::to_string).collect()));
            }
        }
        None => {
            for (i, l) in text.lines().enumerate() {
                let l = l.trim();
                if l.is_empty() || l.starts_with('#') {
                    continue;
                }
                // `Time [s]  Normal [uN]`: a unit in brackets belongs to the name before it
                let mut fields: Vec<String> = Vec::new();
                for tok in l.split_whitespace() {
                    match fields.last_mut() {
                        Some(prev) if tok.starts_with('[') || tok.starts_with('(') => {
                            prev.push(' ');
                            prev.push_str(tok);
                        }
                        _ => fields.push(tok.trim_matches('"').to_string()),
                    }
                }
                rows.push((i + 1, fields));
            }
        }
    }
    Ok(Table { rows })
}

/// A number as written in a record: a decimal point, or a decimal comma in a file whose fields
/// are separated otherwise.
fn number(s: &str) -> Option<f64> {
    let s = s.trim().trim_matches('"');
    parse_f64(s).or_else(|| {
        (s.matches(',').count() == 1)
            .then(|| parse_f64(&s.replace(',', ".")))
            .flatten()
    })
}

/// The header's fields and the quantity each is read as (the caller's `cols`, then guesses),
/// and notes on guesses the caller may want to change.
pub fn fields(header: &[String], opts: &ReadOptions) -> Result<(Vec<Field>, Vec<String>), String> {
    let mut out: Vec<Field> = header
        .iter()
        .map(|h| {
            let (name, unit) = columns::name_and_unit(h);
            Field {
                header: h.trim().to_string(),
                name,
                unit,
                col: None,
                named: false,
            }
        })
        .collect();
    let mut notes = Vec::new();
    let listing = || {
        header
            .iter()
            .map(|h| h.trim())
            .collect::<Vec<_>>()
            .join(", ")
    };
    for (col, r) in &opts.cols {
        let i = match r {
            ColRef::Index(i) if (1..=out.len()).contains(i) => i - 1,
            ColRef::Index(i) => {
                return Err(format!(
                    "cols: {}:{i}: the file has {} columns",
                    col.key(),
                    out.len()
                ))
            }
            ColRef::Name(n) => out
                .iter()
                .position(|f| f.header.eq_ignore_ascii_case(n.trim()))
                .or_else(|| {
                    out.iter()
                        .position(|f| f.name.eq_ignore_ascii_case(n.trim()))
                })
                .ok_or_else(|| {
                    format!(
                        "cols: {}:{n} names no column of the file (its columns: {})",
                        col.key(),
                        listing()
                    )
                })?,
        };
        if let Some(other) = out[i].col.filter(|c| c != col) {
            return Err(format!(
                "cols: column {} is named for both {} and {}",
                out[i].header,
                other.key(),
                col.key()
            ));
        }
        out[i].col = Some(*col);
        out[i].named = true;
    }
    for col in columns::ALL {
        if out.iter().any(|f| f.col == Some(col)) {
            continue;
        }
        let candidates: Vec<(usize, u8)> = out
            .iter()
            .enumerate()
            .filter(|(_, f)| f.col.is_none())
            .filter_map(|(i, f)| match columns::guess(&f.name) {
                Some((c, s)) if c == col => Some((i, s)),
                _ => None,
            })
            .collect();
        let Some(&(best, score)) = candidates.iter().rev().max_by_key(|(_, s)| *s) else {
            continue;
        };
        let best = candidates
            .iter()
            .find(|(_, s)| *s == score)
            .map_or(best, |c| c.0);
        out[best].col = Some(col);
        if candidates.len() > 1 {
            let others: Vec<&str> = candidates
                .iter()
                .filter(|(i, _)| *i != best)
                .map(|(i, _)| out[*i].header.as_str())
                .collect();
            notes.push(format!(
                "{} is read from column {}; {} would fit too (choose with cols={}:NAME)",
                col.key(),
                out[best].header,
                others.join(", "),
                col.key()
            ));
        }
    }
    Ok((out, notes))
}

/// Parses a record with SI units unless the header or `units` (pairs of column key and unit,
/// e.g. `("v", "mm/s")`, overriding the header) say otherwise.
pub fn parse(text: &str, units: &[(&str, &str)]) -> Result<Data, DataError> {
    read(text, &options_with_units(units, false))
}

/// As [`parse`], but `units` only give the units of columns whose header has none (the page's
/// unit chooser: a unit stated in the file wins).
pub fn parse_filling(text: &str, units: &[(&str, &str)]) -> Result<Data, DataError> {
    read(text, &options_with_units(units, true))
}

fn options_with_units(units: &[(&str, &str)], fill_only: bool) -> ReadOptions {
    ReadOptions {
        units: units
            .iter()
            .filter_map(|(k, u)| Col::of_key(k).map(|c| (c, u.to_string())))
            .collect(),
        units_fill_only: fill_only,
        ..ReadOptions::default()
    }
}

/// The header's fields of `text` and how they would be read with `opts`, without reading the
/// numbers: what the page's column chooser shows.
pub fn inspect(text: &str, opts: &ReadOptions) -> Result<(Vec<Field>, Vec<String>), DataError> {
    let tab = table(text)?;
    let (line, header) = tab
        .rows
        .first()
        .ok_or_else(|| err(0, "the file is empty: expected a header line such as t,x,F"))?;
    fields(header, opts).map_err(|e| err(*line, e))
}

/// Reads a record as `opts` say.
pub fn read(text: &str, opts: &ReadOptions) -> Result<Data, DataError> {
    let tab = table(text)?;
    let mut rows = tab.rows.into_iter();
    let (hline, header) = rows
        .next()
        .ok_or_else(|| err(0, "the file is empty: expected a header line such as t,x,F"))?;
    if header.iter().all(|h| number(h).is_some()) && opts.cols.is_empty() {
        return Err(err(
            hline,
            "this line holds numbers, not a header: add a header line (such as t,x,F) or name \
             the columns by number with cols=t:1,x:2,F:3",
        ));
    }
    let headerless = header.iter().all(|h| number(h).is_some());
    let (flds, mut notes) = fields(&header, opts).map_err(|e| err(hline, e))?;
    // (index in the row, quantity, factor to SI)
    let mut used: Vec<(usize, Col, f64)> = Vec::new();
    let mut unitless = Vec::new();
    let mut rotary = false;
    let mut mapping = Vec::new();
    for (i, f) in flds.iter().enumerate() {
        let Some(col) = f.col else { continue };
        let given = opts
            .units
            .iter()
            .find(|(c, _)| *c == col)
            .map(|(_, u)| u.as_str());
        let unit = match given {
            Some(u) if !opts.units_fill_only || f.unit.is_empty() => u,
            _ => f.unit.as_str(),
        };
        if f.unit.is_empty() && col != Col::W {
            unitless.push(col.key());
        }
        let (factor, rot) = col.factor(unit).ok_or_else(|| {
            err(
                hline,
                format!(
                    "column {} ({}) has unit \"{unit}\", which is not {}",
                    col.key(),
                    f.header,
                    col.quantity()
                ),
            )
        })?;
        rotary |= rot;
        used.push((i, col, factor));
        mapping.push((col.key(), f.header.clone()));
    }
    let has = |c: Col| used.iter().any(|u| u.1 == c);
    let names = flds
        .iter()
        .map(|f| f.header.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    for need in [Col::T, Col::F] {
        if !has(need) {
            return Err(err(
                hline,
                format!(
                    "missing column {} (the header has {names}); need t, v (or x) and F; x, N \
                     and w are optional; name a column with cols={}:NAME",
                    need.key(),
                    need.key()
                ),
            ));
        }
    }
    if !has(Col::V) && !has(Col::X) {
        return Err(err(
            hline,
            format!(
                "missing column v (the header has {names}); need t, v (or x) and F; name a \
                 column with cols=v:NAME or cols=x:NAME"
            ),
        ));
    }
    let ignored: Vec<&str> = flds
        .iter()
        .filter(|f| f.col.is_none())
        .map(|f| f.header.as_str())
        .collect();
    if !ignored.is_empty() && !headerless {
        let shown: Vec<&str> = ignored.iter().take(8).copied().collect();
        notes.push(format!(
            "columns not used: {}{}",
            shown.join(", "),
            if ignored.len() > 8 { ", …" } else { "" }
        ));
    }
    let mut vals: Vec<Vec<f64>> = vec![Vec::new(); used.len()];
    let mut last_line = hline;
    let body: Box<dyn Iterator<Item = (usize, Vec<String>)>> = if headerless {
        Box::new(std::iter::once((hline, header.clone())).chain(rows))
    } else {
        Box::new(rows)
    };
    let ti = used.iter().position(|u| u.1 == Col::T).unwrap_or(0);
    let mut last_t: Option<f64> = None;
    let mut dropped = 0usize;
    for (ln, fields) in body {
        let mut row = vec![0.0; used.len()];
        for (j, &(i, col, factor)) in used.iter().enumerate() {
            let s = fields.get(i).map(|s| s.trim()).ok_or_else(|| {
                err(
                    ln,
                    format!(
                        "{} fields, but column {} is number {} of the header",
                        fields.len(),
                        col.key(),
                        i + 1
                    ),
                )
            })?;
            let value = number(s)
                .ok_or_else(|| err(ln, format!("column {}: \"{s}\" is not a number", col.key())))?;
            if !value.is_finite() {
                return Err(err(
                    ln,
                    format!("column {}: {s} is not a finite number", col.key()),
                ));
            }
            row[j] = value * factor;
        }
        let t = row[ti];
        if opts.tmin.is_some_and(|a| t < a) || opts.tmax.is_some_and(|b| t > b) {
            dropped += 1;
            continue;
        }
        if let Some(prev) = last_t {
            if t <= prev {
                let s = fields.get(used[ti].0).map_or("", |s| s.trim());
                return Err(err(
                    ln,
                    format!(
                        "time {s} is not after the previous row's (time must increase from row \
                         to row; tmin/tmax keep a part of the file)"
                    ),
                ));
            }
        }
        last_t = Some(t);
        for (j, &(_, col, _)) in used.iter().enumerate() {
            if col == Col::W && row[j] < 0.0 {
                return Err(err(ln, format!("column w: weight {} is negative", row[j])));
            }
            let sign = if opts.flip.contains(&col) { -1.0 } else { 1.0 };
            vals[j].push(sign * row[j]);
        }
        last_line = ln;
    }
    // a record with a load column usually begins and ends with the load being applied and
    // taken off: without a time window of the caller's, those ends are left out
    let mut load_trim = None;
    if opts.tmin.is_none() && opts.tmax.is_none() {
        if let Some(j) = used.iter().position(|u| u.1 == Col::N) {
            let nv = &vals[j];
            let mut sorted = nv.clone();
            sorted.sort_by(f64::total_cmp);
            let med = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
            if med > 0.0 && !nv.is_empty() {
                // only a record that starts (ends) nearly unloaded is being loaded (unloaded)
                // there; a load that varies through the record is the experiment's own
                let first = nv.iter().position(|&x| x >= 0.9 * med).unwrap_or(0);
                let last = nv.iter().rposition(|&x| x >= 0.9 * med).unwrap_or(0);
                let a = if nv[0] < 0.5 * med { first } else { 0 };
                let b = if nv[nv.len() - 1] < 0.5 * med {
                    last
                } else {
                    nv.len() - 1
                };
                if (a > 0 || b + 1 < nv.len()) && b > a {
                    let t = &vals[ti];
                    load_trim = Some((t[a], t[b], a + nv.len() - 1 - b, med));
                    for col in vals.iter_mut() {
                        col.truncate(b + 1);
                        col.drain(..a);
                    }
                }
            }
        }
    }
    let take = |c: Col| -> Option<Vec<f64>> {
        used.iter().position(|u| u.1 == c).map(|j| vals[j].clone())
    };
    let mut d = Data {
        unitless,
        rotary,
        columns: mapping,
        t: take(Col::T).unwrap_or_default(),
        f: take(Col::F).unwrap_or_default(),
        ..Data::default()
    };
    d.notes = notes;
    let n = d.t.len();
    if n < MIN_ROWS {
        let window = if dropped > 0 {
            format!(" in the time window ({dropped} rows outside it)")
        } else {
            String::new()
        };
        return Err(err(
            0,
            format!(
                "only {n} data rows{window} (up to line {last_line}); a fit needs at least \
                 {MIN_ROWS}"
            ),
        ));
    }
    if dropped > 0 {
        d.notes.push(format!(
            "time window {} to {} s: {dropped} rows outside it dropped",
            sig3(d.t[0]),
            sig3(d.t[n - 1])
        ));
    }
    if let Some((a, b, k, med)) = load_trim {
        d.notes.push(format!(
            "{k} rows before {} s and after {} s left out, where the load (column N) is below \
             90 % of its median {} N: the load being applied and taken off (tmin/tmax choose the \
             part yourself)",
            sig3(a),
            sig3(b),
            sig3(med)
        ));
    }
    for c in &opts.flip {
        if has(*c) {
            d.notes.push(format!("sign of {} flipped", c.key()));
        }
    }
    if rotary {
        d.notes.push(
            "rotary record (rad, N·m): the models read metres as radians and newtons as \
             newton-metres"
                .into(),
        );
    }
    let span = d.t[n - 1] - d.t[0];
    let x = take(Col::X);
    let v = take(Col::V);
    match (v, x) {
        (Some(v), Some(x)) => {
            check_units(&d.t, &x, &v, hline)?;
            d.x = x;
            d.v = v;
        }
        (Some(v), None) => {
            d.x = integrate(&d.t, &v);
            d.v = v;
            d.notes
                .push("x integrated from v (trapezoid rule, x = 0 at the first row)".into());
        }
        (None, Some(x)) => {
            let (xs, how) = smooth::apply(&d.t, &x, opts.smooth);
            d.v = Spline::new(&d.t, &xs).velocities();
            d.x = xs;
            d.x_drive = true;
            d.smoothing = how;
            d.notes.push(match how {
                Some(s) => format!(
                    "no v: x is quantised in steps of {} and was smoothed by a local quadratic \
                     over ±{} s ({} samples each side) before it drives the models through a \
                     cubic spline (v is its derivative)",
                    sig3(s.quantum),
                    sig3(s.half_width),
                    s.samples
                ),
                None => "no v: the models are driven by x through a cubic spline between the \
                         samples (v is its derivative)"
                    .into(),
            });
        }
        (None, None) => unreachable_missing_v()?,
    }
    if let Some(normal) = take(Col::N) {
        let (lo, hi) = normal
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            });
        let span = if lo == hi {
            sig3(lo)
        } else {
            format!("{} to {}", sig3(lo), sig3(hi))
        };
        d.notes.push(format!(
            "column N: normal load {span} N, the model's F_N unless the query sets it"
        ));
        d.normal = Some(normal);
    }
    if let Some(w) = take(Col::W) {
        if w.iter().all(|&a| a == 0.0) {
            return Err(err(hline, "column w: every weight is zero"));
        }
        d.w = Some(w);
    }
    if span.is_nan() || span <= 0.0 {
        return Err(err(0, "the time span is zero"));
    }
    Ok(d)
}

/// The checks above leave no record without v and x; an error rather than a panic all the same.
fn unreachable_missing_v() -> Result<(), DataError> {
    Err(err(0, "missing column v (or x)"))
}

/// Rejects v and x whose units disagree: v should be dx/dt. A least-squares factor far from 1
/// (a column in mm, a time in ms) means one of the stated units is wrong.
fn check_units(t: &[f64], x: &[f64], v: &[f64], hline: usize) -> Result<(), DataError> {
    let d = differentiate(t, x);
    let (num, den) = d
        .iter()
        .zip(v)
        .fold((0.0, 0.0), |(a, b), (dx, v)| (a + dx * v, b + v * v));
    let scale = d.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
    if den == 0.0 || scale == 0.0 {
        return Ok(());
    }
    let ratio = num / den; // dx/dt ≈ ratio · v
    if !(0.2..=5.0).contains(&ratio) {
        return Err(err(
            hline,
            format!(
                "units look wrong: dx/dt is about {} × v; check the units of t, x and v \
                 (e.g. x in mm but v in m/s, or t in ms)",
                sig3(ratio)
            ),
        ));
    }
    Ok(())
}

/// `x` to four significant digits.
fn sig3(x: f64) -> String {
    crate::format::num(x)
}

/// Trapezoid integral of `v` from 0 at the first sample.
pub fn integrate(t: &[f64], v: &[f64]) -> Vec<f64> {
    let mut x = vec![0.0; t.len()];
    for k in 1..t.len() {
        x[k] = x[k - 1] + 0.5 * (v[k] + v[k - 1]) * (t[k] - t[k - 1]);
    }
    x
}

/// Central differences (one-sided at the ends) of `x` over `t`.
pub fn differentiate(t: &[f64], x: &[f64]) -> Vec<f64> {
    let n = t.len();
    (0..n)
        .map(|k| {
            let (a, b) = (k.saturating_sub(1), (k + 1).min(n - 1));
            if b > a {
                (x[b] - x[a]) / (t[b] - t[a])
            } else {
                0.0
            }
        })
        .collect()
}
