//! The model and the run: its shape ([`arch`]), the catalogue of models and
//! GPUs ([`catalog`]), Megatron-LM's pipeline layout string ([`pp_layout`]),
//! and the checked configuration every formula reads ([`config`]). The shape
//! and the layout string depend on nothing here; the catalogue on the shape;
//! the configuration on all three.

pub mod arch;
pub mod catalog;
pub mod config;
pub mod pp_layout;
