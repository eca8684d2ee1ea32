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
    /// What a person set: controls write here.
    pub settings: RwSignal<Settings>,
    /// The settings as this part of the page shows them: the same, or in a
    /// gated group of controls off screen, the last copy it was given.
    pub view: Memo<Settings>,
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
    settle: StoredValue<Debounce, LocalStorage>,
    /// The views of the full page that follow input only while on screen (see `gated`).
    gates: StoredValue<Vec<Gate>, LocalStorage>,
    /// The root's results, which a gate copies (a gated context's own `shown`
    /// and `result` are its copies).
    root: (Memo<Report>, Memo<Result<Report, ConfigError>>),
}

/// One view's copy of the results, written (never derived) from the root: a
/// memo that kept its old value while off screen missed later changes once back
/// on screen (Leptos 0.8.23, in the browser only), so the copies are plain
/// signals the root writes.
#[derive(Clone, Copy)]
struct Gate {
    live: RwSignal<bool>,
    shown: RwSignal<Report>,
    result: RwSignal<Result<Report, ConfigError>>,
    settings: RwSignal<Settings>,
}

impl Gate {
    /// Copies the current results in (untracked), writing only what differs.
    fn refresh(&self, shown: Memo<Report>, result: Memo<Result<Report, ConfigError>>, settings: RwSignal<Settings>) {
        settings.with_untracked(|next| copy_changed(next, self.settings));
        shown.with_untracked(|next| copy_changed(next, self.shown));
        result.with_untracked(|next| copy_changed(next, self.result));
    }
}

/// Writes `next` into `to` when it differs (a write wakes every reader).
fn copy_changed<T: PartialEq + Clone + Send + Sync + 'static>(next: &T, to: RwSignal<T>) {
    if to.with_untracked(|now| now != next) {
        to.set(next.clone());
    }
}

/// Copies the results into every gate on screen, or into all of them.
fn push(
    gates: StoredValue<Vec<Gate>, LocalStorage>,
    all: bool,
    shown: Memo<Report>,
    result: Memo<Result<Report, ConfigError>>,
    settings: RwSignal<Settings>,
) {
    gates.with_value(|gates| {
        for g in gates.iter().filter(|g| all || g.live.get_untracked()) {
            g.refresh(shown, result, settings);
        }
    });
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
        let gates = StoredValue::new_local(Vec::<Gate>::new());
        let settle = Debounce::new(SETTLE_MS, move || {
            settled.set(Some(shown.get_untracked()));
            push(gates, true, shown, result, settings);
        });
        let poke = settle.clone();
        Effect::new(move |_| {
            shown.track();
            result.track();
            settings.track();
            poke.poke();
            push(gates, false, shown, result, settings);
        });
        Ctx {
            settings,
            view: Memo::new(move |_| settings.get()),
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
            settle: StoredValue::new_local(settle),
            gates,
            root: (shown, result),
        }
    }

    /// Settles now if input is pending (see `settled`): a scroll is about to show
    /// views that waited for the pause.
    pub fn settle_now(&self) {
        self.settle.with_value(Debounce::flush);
    }

    /// This context for one view of the full page: while `live` is false (the
    /// view is off screen) its results stay as they were and follow only the
    /// settled result; when it comes into view they catch up (call `revealed`).
    /// A slider step so updates what the screen holds, and the rest once input pauses.
    pub fn gated(self, live: RwSignal<bool>) -> Ctx {
        let gate = Gate {
            live,
            shown: RwSignal::new(self.shown.get_untracked()),
            result: RwSignal::new(self.result.get_untracked()),
            settings: RwSignal::new(self.settings.get_untracked()),
        };
        self.gates.update_value(|g| g.push(gate));
        on_cleanup(move || {
            self.gates.try_update_value(|g| g.retain(|x| x.shown != gate.shown));
        });
        // Memos over the copies, as the root's are: one type for every reader
        // (a `Signal` here cost 6 KB of wasm in its readers' code).
        Ctx {
            shown: Memo::new(move |_| gate.shown.get()),
            result: Memo::new(move |_| gate.result.get()),
            view: Memo::new(move |_| gate.settings.get()),
            ..self
        }
    }

    /// A gated view came on screen: its results catch up at once, from the
    /// root's (this may be called on the gated context itself).
    pub fn revealed(&self, live: RwSignal<bool>) {
        let ((shown, result), settings) = (self.root, self.settings);
        self.gates.with_value(|gates| {
            for g in gates.iter().filter(|g| g.live == live) {
                g.refresh(shown, result, settings);
            }
        });
    }

    /// The whole state, as the link writes it (untracked).
    pub fn state(&self) -> State {
        let mut page = self.page.get_untracked();
        page.units = self.units.get_untracked();
        page.fp = self.fp.get_untracked();
        State { settings: self.settings.get_untracked(), plan: self.plan.get_untracked(), page }
    }

    /// Puts a whole state in place (a deck entered or left, Back): each signal
    /// is written only where it differs, so what did not change stays still.
    pub fn load(&self, state: State) {
        let State { settings, plan, page } = state;
        copy_changed(&settings, self.settings);
        copy_changed(&plan, self.plan);
        copy_changed(&page.units, self.units);
        copy_changed(&page.fp, self.fp);
        copy_changed(&page, self.page);
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
            Access::Calc { .. } => self.view.with(|s| k.row().shown_in(s)),
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

/// The view a figure or a slide shows, whose section's warnings its controls'
/// notes keep to; `None` on the full page, which shows them all. Read from the
/// page's options, not a context: a slide's context would outlive its deck.
pub fn topic(page: &PageOptions) -> Option<tmath::page::View> {
    if page.embed {
        Some(page.view.unwrap_or(tmath::page::View::Memory))
    } else if page.present {
        Some(crate::shell::slides::view_of(page))
    } else {
        None
    }
}
