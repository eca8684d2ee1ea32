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

// Folders by concern: the model and the run; memory; time; serving; fine-tuning; what a
// person gives; what the calculator says; the searches over configurations.
pub mod finetune;
pub mod input;
pub mod memory;
pub mod model;
pub mod output;
pub mod search;
pub mod serving;
pub mod time;

pub mod decimal;
pub mod fp;
pub mod units;

// Each module keeps its short path (`tmath::keys`, `tmath::report`, …): the
// command line, the page and the tests name them so.
pub use input::{hf, keys, link, megatron, page, presets, settings};
pub use model::{arch, catalog, config, pp_layout};
pub use output::{explain, finetune_validation, json, report, serving_validation, throughput, validation};
pub use search::{planner, remedy, serve_plan, sweep};
pub use time::{compute, parallel, shape, step};

pub use config::Config;
pub use keys::SettingError;
pub use report::{evaluate, Report, Warning};
pub use settings::{ConfigError, Settings};
pub use units::{Bytes, Flops, Params, Tokens};
