//! One frame for the run kinds: what evolution, validation and tuning take besides their spec
//! ([`RunOptions`]), and the worker threads every run and every command that plays games
//! uses ([`RunPool`]: leagues, evolution, validation, tuning, and `replay`, `validate
//! bandit`, `exact`, `check-fingerprints`, `step-worker`).
//!
//! Guarantees: a pool plays with the thread count asked for, or else the game's default
//! ([`evomcts_arena::GameType::default_threads`]: one for an OpenSpiel game, whose every call
//! takes Python's GIL; every core for a native one); for an OpenSpiel game with a provider
//! installed, every worker is told it plays such games before the pool is handed out and that
//! it stopped when the pool is dropped (`OpenSpielProvider::worker_started`/`worker_stopped`),
//! so a binding can keep per-thread state for the pool's life. The thread count never changes
//! a result.

use std::ops::Deref;
use std::path::PathBuf;

pub use crate::launch::Relaunch;
use crate::launch::SrunOptions;
use evomcts_arena::open_spiel::OpenSpielProvider;
use evomcts_arena::GameChoice;

/// What a run of evolution, validation or tuning takes besides its spec.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The run's folder, e.g. `populations/<name>`.
    pub out_dir: PathBuf,
    /// Continue from what is written in `out_dir`.
    pub resume: bool,
    /// Worker threads; `None` = the game's default (all cores; one for an OpenSpiel game).
    /// Results do not depend on it.
    pub threads: Option<usize>,
    /// Progress on stderr.
    pub progress: bool,
    /// Stop once this many steps are written (generations, tasks, tuning steps; to test
    /// interrupted runs, or to resume later).
    pub stop_after: Option<usize>,
    /// Where the games are played: `None` on this machine's threads, or as job steps across
    /// a Slurm allocation (see `slurm::steps`); the run's files are the same bytes.
    pub srun: Option<SrunOptions>,
}

/// A run's worker threads: a rayon pool of the asked or the game's default size, with the
/// game's worker hooks installed for its life. Dereferences to the `rayon::ThreadPool`.
pub struct RunPool {
    pool: rayon::ThreadPool,
    /// The provider whose workers were told they play OpenSpiel games.
    hooked: Option<&'static dyn OpenSpielProvider>,
}

impl RunPool {
    /// A pool of `threads` workers (`None`: the game's default; without a game, every
    /// core), each told it plays OpenSpiel games when `game` is one and a provider is
    /// installed.
    pub fn new(
        threads: Option<usize>,
        game: Option<&GameChoice>,
    ) -> Result<RunPool, rayon::ThreadPoolBuildError> {
        let default = game.map_or(0, GameChoice::default_threads);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.unwrap_or(default))
            .build()?;
        let hooked = game.and_then(evomcts_arena::open_spiel::worker_hooks);
        if let Some(provider) = hooked {
            pool.broadcast(|_| provider.worker_started());
        }
        Ok(RunPool { pool, hooked })
    }

    /// Whether the workers were told they play OpenSpiel games.
    pub fn hooked(&self) -> bool {
        self.hooked.is_some()
    }
}

impl Deref for RunPool {
    type Target = rayon::ThreadPool;

    fn deref(&self) -> &rayon::ThreadPool {
        &self.pool
    }
}

impl Drop for RunPool {
    fn drop(&mut self) {
        if let Some(provider) = self.hooked {
            self.pool.broadcast(|_| provider.worker_stopped());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A native game's pool takes the count asked for, and every core unless told; no hooks.
    #[test]
    fn a_pool_takes_the_threads_asked_for_or_the_games_default() {
        let two = RunPool::new(Some(2), Some(&GameChoice::ConnectFour)).unwrap();
        assert_eq!(two.current_num_threads(), 2);
        assert!(!two.hooked());
        let every = RunPool::new(None, Some(&GameChoice::Carcassonne)).unwrap();
        assert_eq!(
            every.current_num_threads(),
            rayon::ThreadPoolBuilder::new()
                .build()
                .unwrap()
                .current_num_threads()
        );
        assert_eq!(
            RunPool::new(None, None).unwrap().current_num_threads(),
            every.current_num_threads()
        );
        // An OpenSpiel game plays on one thread unless told; without a provider in this
        // process no worker is told it plays one.
        let spec = ron::from_str(r#"(name: "pig", params: {"winscore": 10})"#).unwrap();
        let pig = GameChoice::OpenSpiel(evomcts_arena::OpenSpielGame::new(spec));
        let one = RunPool::new(None, Some(&pig)).unwrap();
        assert_eq!(one.current_num_threads(), 1);
        assert!(!one.hooked());
    }
}
