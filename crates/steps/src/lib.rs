//! What every run kind shares, above the arena: a run's options and its worker threads
//! (`frame`), and games played as job steps in other processes, local workers or Slurm job
//! steps, with the run folder as the only channel (`steps`: the work, todo and results files
//! of a step folder, a worker's share, the records read back and checked against the work;
//! `launch`: the driver's side of a step, how to start the command line again in another
//! process, `srun`, waiting, the records read back).
//!
//! Layers, lowest first: `steps`, `launch` (use only `evomcts-records`; they know tasks and
//! values, not games) → `frame` (uses `launch`'s options and the arena's games). `evolve` and
//! `validation` run their games through `steps` and `launch`; nothing here uses either.

pub mod frame;
pub mod launch;
pub mod steps;
