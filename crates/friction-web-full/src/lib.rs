//! The page's module with every view: `friction-web` built with its `full` feature.
//!
//! The page starts on `friction-web` alone (the FrBD letter's views, the smaller download) and
//! fetches this module the first time a link, a tab or Back asks for another view
//! (`www/app.js`, `bench/results/wasm-size.md`). Its exports are `friction-web`'s, re-exported
//! so that the linker keeps them.

pub use friction_web::*;
