//! Megatron-LM's pipeline layout string (`--pipeline-model-parallel-layout`,
//! `megatron/core/transformer/pipeline_parallel_layer_layout.py`): which
//! layers each virtual pipeline stage builds. `E` is the input embedding, `t`
//! a transformer layer, `m` a multi-token prediction module, `L` the output
//! layer and the loss; `|` ends a virtual stage; `x*n` and `(…)*n` repeat;
//! commas and spaces are ignored. DeepSeek-V3 on 16 stages of 2 virtual stages:
//! `Et*3|(tt|)*29m|L`. Virtual stage k is model chunk ⌊k/p⌋ of pipeline rank
//! k mod p, so a layout of p·v stages places every layer.

use std::fmt;

/// One virtual stage: what it builds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VirtualStage {
    pub embedding: bool,
    pub layers: u64,
    pub mtp: u64,
    pub loss: bool,
}

/// A parsed layout: its virtual stages in order, and its spelling as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PpLayout {
    pub stages: Vec<VirtualStage>,
    /// As given, spaces and commas taken out.
    pub text: String,
}

/// Why a layout string does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// A character the grammar does not have.
    Symbol(char),
    /// `*` not followed by a whole count of at least 1.
    Count,
    /// A `(` without its `)`, or the reverse.
    Parenthesis,
    /// Repeats that expand past the limit (a typo such as `t*99999999`).
    TooLong,
    /// No virtual stage, or one that builds nothing.
    EmptyStage,
    /// The virtual stages are not p·v (v = `vpp`, or any whole v when it is 1).
    Stages { stages: u64, pp: u64, vpp: u64 },
    /// Its `t`s are not the model's layers.
    Layers { given: u64, model: u64 },
    /// Its `m`s are not the model's MTP modules.
    Mtp { given: u64, model: u64 },
    /// `E` is not in the first virtual stage alone, or `L` not in the last alone.
    Ends,
    /// Given with `pp-first-layers` or `pp-last-layers`, which it replaces.
    WithFirstLast,
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutError::Symbol(c) => write!(f, "'{c}' is not one of E, t, m, L, |, (, ), *"),
            LayoutError::Count => f.write_str("'*' needs a whole count of at least 1 after it"),
            LayoutError::Parenthesis => f.write_str("a parenthesis is not closed"),
            LayoutError::TooLong => f.write_str("the repeats expand to more than 100,000 symbols"),
            LayoutError::EmptyStage => f.write_str("a stage between two '|' holds nothing"),
            LayoutError::Stages { stages, pp, vpp: 1 } => {
                write!(f, "its {stages} stages are not a multiple of pp {pp}")
            }
            LayoutError::Stages { stages, pp, vpp } => {
                write!(f, "its {stages} stages are not pp·vpp = {pp}·{vpp} = {}", pp * vpp)
            }
            LayoutError::Layers { given, model } => write!(f, "it places {given} layers, the model has {model}"),
            LayoutError::Mtp { given, model } => write!(f, "it places {given} MTP modules, mtp-layers is {model}"),
            LayoutError::Ends => f.write_str("E belongs to the first stage and L to the last, once each"),
            LayoutError::WithFirstLast => {
                f.write_str("it replaces pp-first-layers and pp-last-layers: give one or the other")
            }
        }
    }
}

/// Symbols a layout may expand to: more stages or layers than any model has.
const MAX_SYMBOLS: usize = 100_000;

impl PpLayout {
    /// Reads a layout string.
    pub fn parse(text: &str) -> Result<PpLayout, LayoutError> {
        let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace() && *c != ',').collect();
        let mut at = 0;
        let expanded = expand(&chars, &mut at, 0)?;
        if at != chars.len() {
            return Err(LayoutError::Parenthesis);
        }
        let mut stages = vec![VirtualStage::default()];
        for c in expanded {
            let st = stages.last_mut().expect("one stage at least");
            match c {
                'E' => st.embedding = true,
                't' => st.layers += 1,
                'm' => st.mtp += 1,
                'L' => st.loss = true,
                '|' => stages.push(VirtualStage::default()),
                other => return Err(LayoutError::Symbol(other)),
            }
        }
        // A trailing '|' closes the last stage rather than opening an empty one.
        if stages.len() > 1 && stages.last() == Some(&VirtualStage::default()) {
            stages.pop();
        }
        if stages.iter().any(|s| *s == VirtualStage::default()) {
            return Err(LayoutError::EmptyStage);
        }
        Ok(PpLayout { stages, text: chars.iter().collect() })
    }

    /// Checks the layout against a model and its pipeline, and returns its
    /// virtual stages per rank: Megatron-LM reads v from the layout, so with
    /// `vpp` 1 any multiple of p stages is taken, else exactly p·vpp.
    pub fn fits(&self, pp: u64, vpp: u64, layers: u64, mtp: u64) -> Result<u64, LayoutError> {
        let n = self.stages.len() as u64;
        let pp = pp.max(1);
        let v = match vpp {
            0 | 1 if n.is_multiple_of(pp) => n / pp,
            v if n == pp * v => v,
            _ => return Err(LayoutError::Stages { stages: n, pp, vpp: vpp.max(1) }),
        };
        if self.layers() != layers {
            return Err(LayoutError::Layers { given: self.layers(), model: layers });
        }
        if self.mtp() != mtp {
            return Err(LayoutError::Mtp { given: self.mtp(), model: mtp });
        }
        let last = self.stages.len() - 1;
        let ends_in_place =
            self.stages.iter().enumerate().all(|(i, s)| s.embedding == (i == 0) && s.loss == (i == last));
        if !ends_in_place {
            return Err(LayoutError::Ends);
        }
        Ok(v)
    }

    /// Transformer layers in all.
    pub fn layers(&self) -> u64 {
        self.stages.iter().map(|s| s.layers).sum()
    }

    /// MTP modules in all.
    pub fn mtp(&self) -> u64 {
        self.stages.iter().map(|s| s.mtp).sum()
    }

    /// The virtual stages of pipeline rank `rank` of `p`, chunk by chunk.
    pub fn of_rank(&self, p: u64, rank: u64) -> impl Iterator<Item = &VirtualStage> + '_ {
        self.stages.iter().skip(rank as usize).step_by(p.max(1) as usize)
    }
}

/// Expands repeats from `at` to the end or to the `)` that closes `depth`.
fn expand(chars: &[char], at: &mut usize, depth: u32) -> Result<Vec<char>, LayoutError> {
    let mut out: Vec<char> = Vec::new();
    while *at < chars.len() {
        let c = chars[*at];
        *at += 1;
        let unit = match c {
            '(' => {
                let inner = expand(chars, at, depth + 1)?;
                if chars.get(*at - 1) != Some(&')') {
                    return Err(LayoutError::Parenthesis);
                }
                inner
            }
            ')' if depth > 0 => return Ok(out),
            ')' => return Err(LayoutError::Parenthesis),
            '*' => return Err(LayoutError::Count),
            'E' | 't' | 'm' | 'L' | '|' => vec![c],
            other => return Err(LayoutError::Symbol(other)),
        };
        let times = if chars.get(*at) == Some(&'*') {
            *at += 1;
            let start = *at;
            while chars.get(*at).is_some_and(|c| c.is_ascii_digit()) {
                *at += 1;
            }
            let digits: String = chars[start..*at].iter().collect();
            match digits.parse::<usize>() {
                Ok(n) if n >= 1 => n,
                _ => return Err(LayoutError::Count),
            }
        } else {
            1
        };
        if out.len() + unit.len().saturating_mul(times) > MAX_SYMBOLS {
            return Err(LayoutError::TooLong);
        }
        for _ in 0..times {
            out.extend_from_slice(&unit);
        }
    }
    if depth > 0 {
        return Err(LayoutError::Parenthesis);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DeepSeek-V3's layout on 16 ranks of 2 chunks: 61 layers, one MTP module, 32 virtual stages.
    #[test]
    fn deepseek_v3() {
        let l = PpLayout::parse("Et*3|(tt|)*29,m|L").unwrap();
        assert_eq!((l.stages.len(), l.layers(), l.mtp()), (32, 61, 1));
        assert_eq!(l.stages[0], VirtualStage { embedding: true, layers: 3, mtp: 0, loss: false });
        // Rank 0 holds chunk 0 (E + 3 layers) and chunk 1 (stage 16: 2 layers); rank 14's second chunk is the MTP.
        let r0: Vec<_> = l.of_rank(16, 0).collect();
        assert_eq!((r0.len(), r0[0].layers + r0[1].layers), (2, 5));
        assert_eq!(l.of_rank(16, 14).nth(1).unwrap().mtp, 1);
        assert!(l.of_rank(16, 15).nth(1).unwrap().loss);
    }

    #[test]
    fn nested_repeats_and_a_trailing_bar() {
        let l = PpLayout::parse("E((t|)*2)*2L|").unwrap();
        assert_eq!(l.stages.len(), 5);
        assert_eq!(l.layers(), 4);
        assert!(l.stages[4].loss && l.stages[0].embedding);
    }

    #[test]
    fn it_fits_a_pipeline_or_says_why() {
        let l = PpLayout::parse("Et*3|(tt|)*29,m|L").unwrap();
        assert_eq!(l.fits(16, 1, 61, 1), Ok(2));
        assert_eq!(l.fits(16, 2, 61, 1), Ok(2));
        assert_eq!(l.fits(16, 4, 61, 1), Err(LayoutError::Stages { stages: 32, pp: 16, vpp: 4 }));
        assert_eq!(l.fits(5, 1, 61, 1), Err(LayoutError::Stages { stages: 32, pp: 5, vpp: 1 }));
        assert_eq!(l.fits(16, 1, 60, 1), Err(LayoutError::Layers { given: 61, model: 60 }));
        assert_eq!(l.fits(16, 1, 61, 0), Err(LayoutError::Mtp { given: 1, model: 0 }));
        assert_eq!(PpLayout::parse("t|EtL").unwrap().fits(2, 1, 2, 0), Err(LayoutError::Ends));
    }

    #[test]
    fn bad_strings_say_why() {
        assert_eq!(PpLayout::parse("Etx"), Err(LayoutError::Symbol('x')));
        assert_eq!(PpLayout::parse("Et*"), Err(LayoutError::Count));
        assert_eq!(PpLayout::parse("Et*0"), Err(LayoutError::Count));
        assert_eq!(PpLayout::parse("E(tt|"), Err(LayoutError::Parenthesis));
        assert_eq!(PpLayout::parse("Ett)|L"), Err(LayoutError::Parenthesis));
        assert_eq!(PpLayout::parse("Et||tL"), Err(LayoutError::EmptyStage));
        assert_eq!(PpLayout::parse(""), Err(LayoutError::EmptyStage));
        assert_eq!(PpLayout::parse("(t*1000)*1000"), Err(LayoutError::TooLong));
    }
}
