//! The serving planner (`tmath plan --serve`): for a model, a GPU type, the
//! request lengths, the users to serve and the targets (time per output token,
//! time to first token), every replica of serve-tp × serve-pp GPUs in each
//! weight format, with the most users one replica serves within the targets,
//! the replicas the users need, and the dollars per million output tokens:
//! those that meet the targets first, cheapest first.
//!
//! Every figure is the ordinary calculation's ([`crate::serving::evaluate`])
//! on the settings with the replica's keys set: nothing here computes a
//! serving number of its own.

use crate::config::InferenceDtype;
use crate::keys::K;
use crate::planner::PlanOptions;
use crate::serving::{evaluate, ServingReport};
use crate::settings::Settings;
use serde::Serialize;

/// Why a replica cannot serve even one user within the targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Miss {
    /// The weights and the engine's reserve leave no room for one request's KV cache.
    Memory,
    /// One user's time per output token is above the target.
    Tpot,
    /// One user's time to first token is above the target.
    Ttft,
}

/// One replica shape in one weight format, at the most users it serves.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Replica {
    pub serve_tp: u64,
    pub serve_pp: u64,
    pub format: InferenceDtype,
    /// Concurrent users one replica serves within the targets and its KV pool (0 where none).
    pub users_per_replica: u64,
    /// Replicas the users need: ⌈users / users_per_replica⌉ (0 where none serves).
    pub replicas: u64,
    /// GPUs in all: replicas × serve-tp × serve-pp.
    pub gpus: u64,
    /// The replica's serving figures at `users_per_replica` (at one user where it serves none).
    pub serving: ServingReport,
    /// `None`: it meets every target.
    pub miss: Option<Miss>,
}

impl Replica {
    /// The calculator keys that set this replica and its batch (the page applies them).
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        [
            (K::ServeTp, self.serve_tp.to_string()),
            (K::ServePp, self.serve_pp.to_string()),
            (K::InferenceDtype, self.format.as_str().to_string()),
            (K::Batch, self.users_per_replica.max(1).to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.name(), v))
        .collect()
    }
}

/// `tmath plan --serve`'s answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ServePlanReport {
    /// Users to serve at once: the settings' `batch`.
    pub users: u64,
    pub max_tpot_seconds: Option<f64>,
    pub max_ttft_seconds: Option<f64>,
    /// Those that meet the targets, cheapest per million output tokens first, then the rest.
    pub replicas: Vec<Replica>,
}

/// The weight formats tried: the settings' own (16-bit as given, or any
/// other), then FP8, INT8 and INT4 (nominal bytes per weight).
fn formats(s: &Settings) -> Vec<InferenceDtype> {
    let mut out = vec![s.inference_dtype];
    for f in [InferenceDtype::Fp8, InferenceDtype::Int8, InferenceDtype::Int4] {
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// Tensor-parallel degrees tried: powers of two within a node (beyond it with
/// `tp-cross-node`, up to 64); the settings refuse those that do not divide the heads.
fn tp_choices(s: &Settings, o: &PlanOptions) -> Vec<u64> {
    let limit = if o.tp_cross_node { 64 } else { s.gpus_per_node.clamp(1, 64) };
    (0..7).map(|k| 1u64 << k).take_while(|&t| t <= limit).collect()
}

/// Pipeline stages tried: 1 to 16 (a replica beyond a node is the pipeline's case).
const MAX_SERVE_PP: u64 = 16;

/// The replica's serving figures at `users` concurrent users, or the settings' refusal.
fn at(s: &Settings, users: u64) -> Option<ServingReport> {
    let mut s = s.clone();
    s.batch = users;
    s.resolve().ok().map(|c| evaluate(&c))
}

/// What keeps `r` from serving its users within the targets, if anything.
fn miss(r: &ServingReport, o: &PlanOptions) -> Option<Miss> {
    if !r.fits {
        Some(Miss::Memory)
    } else if o.max_tpot_ms.is_some_and(|t| r.tpot_seconds * 1e3 > t) {
        Some(Miss::Tpot)
    } else if o.max_ttft_ms.is_some_and(|t| r.ttft_seconds * 1e3 > t) {
        Some(Miss::Ttft)
    } else {
        None
    }
}

/// One replica: the most users (up to the settings' batch) it serves within the
/// targets, found by bisection (the KV cache, the time per token and the time
/// to first token all grow with the users).
fn replica(s: &Settings, o: &PlanOptions, users: u64) -> Option<Replica> {
    let one = at(s, 1)?;
    let shape = |users_per_replica: u64, serving: ServingReport, miss: Option<Miss>| {
        let replicas = if users_per_replica == 0 { 0 } else { users.div_ceil(users_per_replica) };
        Replica {
            serve_tp: s.serve_tp,
            serve_pp: s.serve_pp,
            format: s.inference_dtype,
            users_per_replica,
            replicas,
            gpus: replicas * s.serve_tp * s.serve_pp,
            serving,
            miss,
        }
    };
    if let Some(m) = miss(&one, o) {
        return Some(shape(0, one, Some(m)));
    }
    // lo serves, hi (if above users) does not.
    let (mut lo, mut hi) = (1u64, users + 1);
    let mut best = one;
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        match at(s, mid) {
            Some(r) if miss(&r, o).is_none() => {
                lo = mid;
                best = r;
            }
            _ => hi = mid,
        }
    }
    Some(shape(lo, best, None))
}

/// Every replica shape and format, evaluated: those that meet the targets
/// first, cheapest per million output tokens first (then the fewest GPUs),
/// then the rest by the fewest GPUs a replica needs.
pub fn plan(settings: &Settings, o: &PlanOptions) -> ServePlanReport {
    let users = settings.batch.max(1);
    let mut out = Vec::new();
    'tp: for t in tp_choices(settings, o) {
        for p in 1..=MAX_SERVE_PP {
            for f in formats(settings) {
                let s = Settings { serve_tp: t, serve_pp: p, inference_dtype: f, ..settings.clone() };
                match replica(&s, o, users) {
                    Some(r) => out.push(r),
                    // Refused: serve-tp does not divide the heads, or serve-pp is above
                    // the layers; neither changes with the format or a larger p.
                    None => continue 'tp,
                }
            }
        }
    }
    out.sort_by(|a, b| {
        let cost = |r: &Replica| match r.miss {
            None => r.serving.usd_per_million_output_tokens,
            Some(_) => f64::INFINITY,
        };
        a.miss
            .is_some()
            .cmp(&b.miss.is_some())
            .then(cost(a).total_cmp(&cost(b)))
            .then((a.serve_tp * a.serve_pp).cmp(&(b.serve_tp * b.serve_pp)))
            .then(a.gpus.cmp(&b.gpus))
    });
    ServePlanReport {
        users,
        max_tpot_seconds: o.max_tpot_ms.map(|x| x / 1e3),
        max_ttft_seconds: o.max_ttft_ms.map(|x| x / 1e3),
        replicas: out,
    }
}
