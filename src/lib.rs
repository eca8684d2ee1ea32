//! Transformer Math 101 as code: memory per GPU and compute of training and
//! serving a transformer (Anthony, Biderman, Schoelkopf, EleutherAI 2023), with
//! ZeRO, 3D parallelism, mixed precision and folded tensor+sequence parallelism.
//!
//! Pure Rust, no web dependency: the command line `tmath` and the browser app
//! both compute with it.
//!
//! ```
//! let (settings, errors) = tmath::Settings::from_pairs([("params", "7B")]);
//! assert!(errors.is_empty());
//! let report = tmath::evaluate(&settings.resolve().unwrap());
//! assert_eq!(report.per_gpu.model_states().get(), 112e9); // 16 bytes/param
//! ```
#![forbid(unsafe_code)]

#[macro_use]
mod macros;

pub mod catalog;
pub mod compute;
pub mod config;
pub mod decimal;
pub mod explain;
pub mod fp;
pub mod hf;
pub mod json;
pub mod keys;
pub mod link;
pub mod megatron;
pub mod memory;
pub mod page;
pub mod parallel;
pub mod planner;
pub mod pp_layout;
pub mod presets;
pub mod remedy;
pub mod report;
pub mod settings;
pub mod sweep;
pub mod units;
pub mod validation;

pub use config::Config;
pub use report::{evaluate, Report, Warning};
pub use settings::{ConfigError, SettingError, Settings};
pub use units::{Bytes, Flops, Params, Tokens};
