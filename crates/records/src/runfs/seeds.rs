//! Numbers derived from other numbers or from text, the same on every platform and Rust
//! version: the seeds of every random choice a run makes, from its master seed, and the hashes
//! that name a spec or a step's work.

/// SplitMix64 finaliser: a well-mixed 64-bit value from any 64-bit input.
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A seed derived from a master seed and a path of numbers.
pub fn derive_seed(master: u64, path: &[u64]) -> u64 {
    path.iter()
        .fold(splitmix(master), |h, &p| splitmix(h ^ splitmix(p)))
}

/// FNV-1a over `text` as 16 hex digits: the spec hashes, stable across platforms and Rust
/// versions.
pub fn fnv1a_hex(text: &str) -> String {
    format!("{:016x}", evomcts_formula::fnv1a(text.bytes()))
}
