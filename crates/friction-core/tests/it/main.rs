//! The integration tests of friction-core, as one test binary: each file a module (one link of
//! the crate instead of one per file; `cargo test -p friction-core --test it <module>::` runs
//! one file).

mod common;
mod fuzzgen;

mod armstrong;
mod bench_view;
mod controls;
mod dynamics_models;
mod dynamics_phenomena;
mod dynamics_solver;
mod force_driven;
mod frbd_bounds;
mod frbd_experiments;
mod frbd_hysteresis;
mod frbd_models;
mod frbd_peaks;
mod fuzz_props;
mod key_controls;
mod layers;
mod link_order;
mod metrics_cells;
mod model_partials;
mod params_edges;
mod prescribed;
mod prescribed_peaks;
mod presets;
mod robot_links;
mod sampled_load;
mod scenario_per_model;
mod statics_curve;
mod statics_laws;
mod statics_phenomena;
mod stickslip_all_models;
mod stickslip_closed_forms;
mod stickslip_sliding;
mod stickslip_tolerance;
mod unit_work;
mod view_examples;
mod view_switch;
