//! Searching over configurations: the layout planner ([`planner`]), the serving
//! planner ([`serve_plan`]), the
//! remedies that make a configuration fit ([`remedy`]), and the sweeps the
//! page charts ([`sweep`]).

pub mod planner;
pub mod remedy;
pub mod serve_plan;
pub mod sweep;
