//! Searching over configurations: the layout planner ([`planner`]), the
//! remedies that make a configuration fit ([`remedy`]), and the sweeps the
//! page charts ([`sweep`]).

pub mod planner;
pub mod remedy;
pub mod sweep;
