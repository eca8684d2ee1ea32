//! Time: the compute of training and serving (6PD, attention, recomputation)
//! in [`compute`], and what parallelism adds to a step (the pipeline bubble,
//! the batch, the communication volumes) in [`parallel`]; the one step-time
//! model of the calculator and the planner in [`step`].

pub mod compute;
pub mod parallel;
pub mod shape;
pub mod step;
