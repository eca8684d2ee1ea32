//! The state every component reads: one context, signals only at this level.

use crate::debounce::Debounce;
use crate::i18n::{self, Lang};
use crate::state::PageOptions;
use leptos::prelude::*;
use tmath::settings::SettingError;
use tmath::units::ByteUnit;
use tmath::{evaluate, ConfigError, Report, Settings};

/// Shared by all components (Leptos context).
#[derive(Clone, Copy)]
pub struct Ctx {
    pub settings: RwSignal<Settings>,
    pub page: RwSignal<PageOptions>,
    pub lang: Memo<Lang>,
    /// The core's result, or why the combination is impossible.
    pub result: Memo<Result<Report, ConfigError>>,
    /// The last valid result: what the charts show while a combination is impossible.
    pub shown: Memo<Report>,
    /// A rejected entry per control key, in the page's language.
    pub field_errors: RwSignal<Vec<(String, SettingError)>>,
    /// Keys the loaded URL could not take.
    pub url_errors: RwSignal<Vec<SettingError>>,
    /// `shown` once input has paused: the heavy panels (planner, sweeps) follow
    /// it, so a slider step repaints only the bars. `None` until the first pause.
    pub settled: RwSignal<Option<Report>>,
}

/// How long input must pause before the planner and the sweeps recompute.
const SETTLE_MS: u32 = 120;

impl Ctx {
    pub fn new(settings: Settings, page: PageOptions, browser_lang: Lang, url_errors: Vec<SettingError>) -> Ctx {
        let settings = RwSignal::new(settings);
        let page = RwSignal::new(page);
        let lang = Memo::new(move |_| page.with(|p| p.lang).unwrap_or(browser_lang));
        let result = Memo::new(move |_| settings.with(|s| s.resolve().map(|c| evaluate(&c))));
        let shown = Memo::new(move |prev: Option<&Report>| match (result.get(), prev) {
            (Ok(r), _) => r,
            (Err(_), Some(prev)) => prev.clone(),
            // A link can open on an impossible combination: show the defaults' result meanwhile.
            (Err(_), None) => evaluate(&tmath::Config::default()),
        });
        let settled = RwSignal::new(None);
        let settle = Debounce::new(SETTLE_MS, move || settled.set(Some(shown.get_untracked())));
        Effect::new(move |_| {
            shown.track();
            settle.poke();
        });
        Ctx {
            settings,
            page,
            lang,
            result,
            shown,
            field_errors: RwSignal::new(Vec::new()),
            url_errors: RwSignal::new(url_errors),
            settled,
        }
    }

    /// A control sets its key through the core's own parser: the same path as the URL.
    pub fn set(&self, key: &str, value: &str) {
        if tmath::planner::PLAN_KEYS.iter().any(|(k, _)| *k == key) {
            let mut plan = self.page.with_untracked(|p| p.plan.clone());
            let result = plan.set(key, value);
            self.record(key, result.clone());
            if result.is_ok() {
                self.page.update(|p| p.plan = plan);
            }
            return;
        }
        if key == "model" && value.is_empty() {
            self.settings.update(|s| s.model = None);
            return;
        }
        let mut next = self.settings.get_untracked();
        match next.set(key, value) {
            Ok(()) => {
                if matches!(key, "tp" | "pp" | "dp") {
                    // The page edits degrees; N follows them.
                    next.gpus = None;
                }
                self.record(key, Ok(()));
                self.settings.set(next);
            }
            Err(e) => self.record(key, Err(e)),
        }
    }

    /// Keeps the latest rejected entry per key, or clears it.
    fn record(&self, key: &str, result: Result<(), SettingError>) {
        self.field_errors.update(|errs| {
            errs.retain(|(k, _)| k != key);
            if let Err(e) = result {
                errs.push((key.to_string(), e));
            }
        });
    }

    /// The value a control shows for `key` (calculator or planner), tracked.
    pub fn value(&self, key: &str) -> String {
        self.settings.with(|s| s.value(key)).or_else(|| self.page.with(|p| p.plan.value(key))).unwrap_or_default()
    }

    /// Sets several keys at once (a planner layout): one recomputation, one URL write.
    pub fn set_all(&self, pairs: &[(&str, String)]) {
        let mut next = self.settings.get_untracked();
        for (k, v) in pairs {
            if next.set(k, v).is_err() {
                return;
            }
        }
        next.gpus = None;
        self.settings.set(next);
    }

    /// The byte unit the page writes sizes in (GB or GiB), tracked.
    pub fn units(&self) -> ByteUnit {
        self.page.with(|p| p.units)
    }

    /// Text in the page's language.
    pub fn t(&self, key: &str) -> &'static str {
        i18n::tr(self.lang.get(), key)
    }
}

pub fn use_ctx() -> Ctx {
    expect_context::<Ctx>()
}
