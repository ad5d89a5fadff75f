//! Energy account.
