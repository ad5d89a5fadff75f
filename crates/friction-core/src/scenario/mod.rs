//! The scenario schema: one typed description of what to run, printed and parsed as a query string.
