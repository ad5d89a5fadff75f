//! Citation, not model output: the thesis' Table 6.5 (MATLAB solver and average simulation time
//! in seconds of the stick-slip benchmark, static models with stiction), every cell as legible in
//! our copy; the row means are recomputed from the cells. DNC = "did not converge" (Karnopp with
//! ode23s). Different machine, solver and language than this page: the page shows them for ranking
//! only.

/// One row of Table 6.5.
pub struct Row {
    /// Registry id of the model the row times.
    pub id: &'static str,
    /// The thesis' name of the model.
    pub name: &'static str,
    /// ode45, ode15s, ode23s, ode78 \[s\]; `None` = DNC.
    pub times: [Option<f64>; 4],
}

/// Caption shown above the comparison table.
pub const CAPTION: &str = "Run time in this browser vs. the thesis' MATLAB times (Table 6.5, \
average simulation time [s], different machine and solver; for ranking only)";

/// \[T\] Table 6.5, in the thesis' row order.
pub const TABLE_6_5: [Row; 8] = [
    Row {
        id: "karnopp",
        name: "Karnopp",
        times: [Some(1.4239), Some(1.9092), None, Some(2.2380)],
    },
    Row {
        id: "bengisu-akay",
        name: "Bengisu and Akay",
        times: [Some(1.7400), Some(2.4848), Some(1.3448), Some(2.6984)],
    },
    Row {
        id: "andersson",
        name: "Andersson",
        times: [Some(2.6665), Some(2.3516), Some(1.2756), Some(4.2416)],
    },
    Row {
        id: "awrejcewicz",
        name: "Awrejcewicz",
        times: [Some(1.4188), Some(2.2201), Some(1.1813), Some(2.1865)],
    },
    Row {
        id: "specker",
        name: "Specker",
        times: [Some(1.5924), Some(2.2854), Some(1.4331), Some(2.4739)],
    },
    Row {
        id: "linear-stiction",
        name: "Linear with stiction",
        times: [Some(1.7217), Some(2.3644), Some(1.1405), Some(2.6100)],
    },
    Row {
        id: "hollars",
        name: "Hollars",
        times: [Some(1.6364), Some(2.2919), Some(1.2626), Some(2.5369)],
    },
    Row {
        id: "brown-mcphee",
        name: "Brown and McPhee",
        times: [Some(1.8278), Some(2.5609), Some(1.4607), Some(2.8658)],
    },
];

#[cfg(test)]
mod tests {
    use super::TABLE_6_5;

    #[test]
    fn table_rows_are_registry_models_and_match_the_errata_means() {
        // The means recomputed from the cells: Awrejcewicz best (1.7517), Andersson worst (2.6338)
        let mean = |i: usize| {
            let t: Vec<f64> = TABLE_6_5[i].times.iter().flatten().copied().collect();
            t.iter().sum::<f64>() / t.len() as f64
        };
        assert!((mean(3) - 1.7517).abs() < 1e-4 && (mean(2) - 2.6338).abs() < 1e-4);
        assert!((mean(0) - 1.8570).abs() < 1e-4, "Karnopp over 3 solvers");
        for r in &TABLE_6_5 {
            assert!(crate::registry::find(r.id).is_some(), "{}", r.id);
        }
    }
}
