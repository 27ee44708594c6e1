//! Seed namespaces: the tile sequences evolution draws from, the ones the UCT sweep draws
//! from and the ones validation draws from, disjoint by construction.
//!
//! A tile sequence is fixed by its 64-bit tile seed. Evolution's Carcassonne fitness and
//! the UCT sweep only ever play tile seeds whose top bit is 0 (`evolution_tile_seed` and
//! `sweep_tile_seed` clear it); validation only ever plays tile seeds whose top bit is 1
//! (`validation_tile_seed` sets it). No tile sequence can therefore be both a sequence
//! evolution (or the sweep that chooses UCT's constant) saw and a validation sequence,
//! whatever the master seeds. The controllers' seeds are derived from the tile seed, so
//! they are disjoint too.

use evomcts_records::runfs::derive_seed;

/// The bit that marks a validation tile seed.
pub const VALIDATION_BIT: u64 = 1 << 63;
/// Domain tags of the derivations ("validate", "uctsweep" in ASCII).
const VALIDATION_DOMAIN: u64 = 0x7661_6c69_6461_7465;
const SWEEP_DOMAIN: u64 = 0x7563_7473_7765_6570;

/// The tile seed a Carcassonne fitness sample with sample seed `sample_seed` plays.
pub fn evolution_tile_seed(sample_seed: u64) -> u64 {
    sample_seed & !VALIDATION_BIT
}

/// The tile seed of sequence `index` of the UCT sweep with master seed `master`.
pub fn sweep_tile_seed(master: u64, index: u64) -> u64 {
    derive_seed(master, &[SWEEP_DOMAIN, index]) & !VALIDATION_BIT
}

/// The tile seed of validation sequence `index` with master seed `master`.
pub fn validation_tile_seed(master: u64, index: u64) -> u64 {
    derive_seed(master, &[VALIDATION_DOMAIN, index]) | VALIDATION_BIT
}

/// Whether a tile seed belongs to the validation namespace.
pub fn is_validation_seed(tile_seed: u64) -> bool {
    tile_seed & VALIDATION_BIT != 0
}
