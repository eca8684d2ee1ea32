//! What the calculator says: the report of one configuration ([`report`]),
//! each number's formula with its values ([`explain`], which reads the report
//! and never the reverse), the JSON and CSV writer ([`json`]), and how close
//! the numbers come to measured runs ([`validation`], [`finetune_validation`] for fine-tuning).

pub mod explain;
pub mod finetune_validation;
pub mod json;
pub mod report;
pub mod serving_validation;
pub mod throughput;
pub mod validation;
