//! Runs an action once input has paused. A slider step only moves a deadline
//! (no timer is created or cancelled per step: each cost a JS call and a closure);
//! the one pending timer re-arms itself until the deadline has passed. `flush`
//! runs a pending action at once (a scroll reveals views that waited for it).

use gloo_timers::callback::Timeout;
use std::cell::Cell;
use std::rc::Rc;

struct Inner {
    delay_ms: f64,
    deadline: Cell<f64>,
    armed: Cell<bool>,
    /// Poked since the action last ran.
    pending: Cell<bool>,
    action: Box<dyn Fn()>,
}

#[derive(Clone)]
pub struct Debounce(Rc<Inner>);

fn now() -> f64 {
    js_sys::Date::now()
}

fn arm(inner: Rc<Inner>, ms: f64) {
    Timeout::new(ms.ceil().max(0.0) as u32, move || {
        let left = inner.deadline.get() - now();
        if left > 0.0 {
            arm(inner.clone(), left);
        } else {
            inner.armed.set(false);
            if inner.pending.replace(false) {
                (inner.action)();
            }
        }
    })
    .forget();
}

impl Debounce {
    pub fn new(delay_ms: u32, action: impl Fn() + 'static) -> Debounce {
        Debounce(Rc::new(Inner {
            delay_ms: delay_ms as f64,
            deadline: Cell::new(0.0),
            armed: Cell::new(false),
            pending: Cell::new(false),
            action: Box::new(action),
        }))
    }

    /// Runs the action `delay_ms` after the last call.
    pub fn poke(&self) {
        let inner = &self.0;
        inner.deadline.set(now() + inner.delay_ms);
        inner.pending.set(true);
        if !inner.armed.replace(true) {
            arm(inner.clone(), inner.delay_ms);
        }
    }

    /// Runs the action now if a poke is pending (the timer then finds nothing to do).
    pub fn flush(&self) {
        if self.0.pending.replace(false) {
            (self.0.action)();
        }
    }
}
