//! dynamics models (see ARCHITECTURE.md for the codemap).

use crate::model::ModelEntry;

/// Registry entries of this family, in display order.
pub static ENTRIES: &[ModelEntry] = &[];
