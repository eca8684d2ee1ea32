//! What a person gives: the one vocabulary of keys ([`keys`]) shared by the
//! command line, the URL and the page's controls; the settings they fill
//! ([`settings`]), resolved into a checked configuration; the link that
//! carries them ([`link`]); the importers of a Hugging Face `config.json`
//! ([`hf`]) and a Megatron-LM launch ([`megatron`]); the lecture presets and
//! the page's own options ([`presets`], [`page`]). Keys depend on the
//! settings, never the reverse.

pub mod hf;
pub mod keys;
pub mod link;
pub mod megatron;
pub mod page;
pub mod presets;
pub mod settings;
