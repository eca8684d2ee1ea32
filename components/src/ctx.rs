//! The state every component reads: one context, signals only at this level,
//! each as fine as what changes together. The calculation, the planner's
//! assumptions, the byte unit, the float explorer's value and the rest of the
//! page options are signals of their own: a keystroke in the float explorer
//! re-derives neither the sweeps nor the planner.

use crate::debounce::Debounce;
use crate::i18n;
use leptos::prelude::*;
use tmath::keys::{Access, SettingError, State, K};
use tmath::page::{Lang, PageOptions};
use tmath::planner::PlanOptions;
use tmath::units::ByteUnit;
use tmath::{evaluate, ConfigError, Report, Settings};

/// Shared by all components (Leptos context).
#[derive(Clone, Copy)]
pub struct Ctx {
    pub settings: RwSignal<Settings>,
    pub plan: RwSignal<PlanOptions>,
    /// The page's options but the unit and the float explorer's value (see below).
    pub page: RwSignal<PageOptions>,
    pub units: RwSignal<ByteUnit>,
    pub fp: RwSignal<Option<String>>,
    pub lang: Memo<Lang>,
    /// The core's result, or why the combination is impossible.
    pub result: Memo<Result<Report, ConfigError>>,
    /// The last valid result: what the charts show while a combination is impossible.
    pub shown: Memo<Report>,
    /// A rejected entry per control key, in the page's language.
    pub field_errors: RwSignal<Vec<(K, SettingError)>>,
    /// Keys the loaded URL could not take.
    pub url_errors: RwSignal<Vec<SettingError>>,
    /// `shown` once input has paused: the heavy panels (planner, sweeps) follow
    /// it, so a slider step repaints only the bars. `None` until the first pause.
    pub settled: RwSignal<Option<Report>>,
}

/// How long input must pause before the planner and the sweeps recompute.
const SETTLE_MS: u32 = 120;

impl Ctx {
    pub fn new(state: State, browser_lang: Lang, url_errors: Vec<SettingError>) -> Ctx {
        let State { settings, plan, page } = state;
        let units = RwSignal::new(page.units);
        let fp = RwSignal::new(page.fp.clone());
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
            plan: RwSignal::new(plan),
            page,
            units,
            fp,
            lang,
            result,
            shown,
            field_errors: RwSignal::new(Vec::new()),
            url_errors: RwSignal::new(url_errors),
            settled,
        }
    }

    /// The whole state, as the link writes it (untracked).
    pub fn state(&self) -> State {
        let mut page = self.page.get_untracked();
        page.units = self.units.get_untracked();
        page.fp = self.fp.get_untracked();
        State { settings: self.settings.get_untracked(), plan: self.plan.get_untracked(), page }
    }

    /// Tracks every signal the link is made of.
    pub fn track_state(&self) {
        self.settings.track();
        self.plan.track();
        self.page.track();
        self.units.track();
        self.fp.track();
    }

    /// A control sets its key through the core's own parser: the same path as the URL.
    pub fn set(&self, k: K, text: &str) {
        let row = k.row();
        let value = match row.parse(text) {
            Ok(v) => v,
            Err(e) => return self.record(k, Err(e)),
        };
        self.record(k, Ok(()));
        match row.access {
            Access::Calc { set, .. } => self.settings.update(|s| {
                set(s, &value);
                // The page edits N or d, never both: the other follows (N = t·p·d).
                match k {
                    K::Gpus => s.dp = None,
                    K::Dp => s.gpus = None,
                    _ => {}
                }
            }),
            Access::Plan { set, .. } => self.plan.update(|o| set(o, &value)),
            Access::Page { set, .. } => {
                let mut page = self.page.get_untracked();
                page.units = self.units.get_untracked();
                page.fp = self.fp.get_untracked();
                set(&mut page, &value);
                // Only the signal that holds the key changes.
                match k {
                    K::Units => self.units.set(page.units),
                    K::Fp => self.fp.set(page.fp),
                    _ => self.page.set(page),
                }
            }
        }
    }

    /// Keeps the latest rejected entry per key, or clears it.
    fn record(&self, k: K, result: Result<(), SettingError>) {
        let had = self.field_errors.with_untracked(|errs| errs.iter().any(|(e, _)| *e == k));
        if result.is_ok() && !had {
            return;
        }
        self.field_errors.update(|errs| {
            errs.retain(|(e, _)| *e != k);
            if let Err(e) = result {
                errs.push((k, e));
            }
        });
    }

    /// Whether the last entry of `k` was rejected, tracked.
    pub fn has_error(&self, k: K) -> bool {
        self.field_errors.with(|errs| errs.iter().any(|(e, _)| *e == k))
            || self.result.with(|r| r.as_ref().err().is_some_and(|e| e.key() == k))
    }

    /// Whether the numbers on screen are not those of the controls (a rejected
    /// entry or an impossible combination), tracked.
    pub fn stale(&self) -> bool {
        self.field_errors.with(|e| !e.is_empty()) || self.result.with(|r| r.is_err())
    }

    /// The value a control shows for `k`, tracked on the one signal that holds it.
    pub fn value(&self, k: K) -> String {
        let name = k.name();
        let of = |settings, plan, page| State { settings, plan, page }.value(name).unwrap_or_default();
        match k.row().access {
            Access::Calc { .. } => {
                self.settings.with(|s| of(s.clone(), PlanOptions::default(), PageOptions::default()))
            }
            Access::Plan { .. } => self.plan.with(|o| of(Settings::default(), o.clone(), PageOptions::default())),
            // The language a menu shows is the page's, also when it follows the browser.
            Access::Page { .. } if k == K::Lang => self.lang.get().as_str().to_string(),
            Access::Page { .. } => {
                let page = match k {
                    K::Units => PageOptions { units: self.units.get(), ..PageOptions::default() },
                    K::Fp => PageOptions { fp: self.fp.get(), ..PageOptions::default() },
                    _ => self.page.get(),
                };
                of(Settings::default(), PlanOptions::default(), page)
            }
        }
    }

    /// Sets several calculation keys at once (a planner layout, a slide): one
    /// recomputation, one URL write.
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
        self.units.get()
    }

    /// Text in the page's language.
    pub fn t(&self, key: &str) -> &'static str {
        i18n::tr(self.lang.get(), key)
    }
}

pub fn use_ctx() -> Ctx {
    expect_context::<Ctx>()
}
