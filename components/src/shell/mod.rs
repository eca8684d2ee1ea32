//! The page shell: the full calculator, a figure for another page, and the
//! slides, with what they share (header, notices, the summary line, the
//! embed dialog) and the browser plumbing.

pub mod app;
pub mod controls;
pub mod embed_code;
pub mod figure;
pub mod full_page;
pub mod header;
pub mod module_embed;
pub mod notices;
pub mod panel;
pub mod slides;
pub mod summary_bar;
pub mod teaching_bar;
pub mod url;
