//! Floating-point explorer: bit layouts of fp32, fp16, bf16 and fp8, a value
//! rounded into each, the ranges, and why fp16 needs loss scaling and bf16 does not.

use super::Mode;
use crate::ctx::use_ctx;
use crate::fields::Field;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::fp::{Class, Format, BF16, FORMATS, FP16};
use tmath::keys::K;
use tmath::units::parse_number;

/// Scientific notation short enough for a table cell.
fn sci(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    if (1e-3..1e6).contains(&x.abs()) {
        let s = format!("{x:.6}");
        return s.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    format!("{x:.4e}")
}

/// A range's bound, short enough for a phone's table: three significant digits
/// in scientific notation (3.40e38), plainly between 10⁻³ and 10⁶.
fn short(x: f64) -> String {
    if x == 0.0 || !x.is_finite() || (x.fract() == 0.0 && x.abs() < 1e6) {
        return sci(x);
    }
    if (1e-3..1e6).contains(&x.abs()) {
        // Three significant digits, as the exponent form has: 0.00781, not 0.0078125.
        return tmath::units::format_sig(x);
    }
    format!("{x:.2e}")
}

fn class_key(c: Class) -> &'static str {
    match c {
        Class::Zero => "fp-zero",
        Class::Normal => "fp-normal",
        Class::Subnormal => "fp-subnormal",
        Class::Overflow => "fp-overflow",
        Class::Underflow => "fp-underflow",
        Class::NotANumber => "fp-nan",
        Class::Infinite => "fp-inf",
    }
}

/// A stored value and its class: "0.099976 (정규수)", "0 (언더플로)".
fn stored(ctx: crate::ctx::Ctx, e: tmath::fp::Encoded) -> impl IntoView {
    view! { {sci(e.value)} " " <span class="fp-class">{format!("({})", ctx.t(class_key(e.class)))}</span> }
}

/// The gradient of the demonstration and its loss scale (2¹⁰, a common static scale).
const GRAD: f64 = 1e-8;
const SCALE: f64 = 1024.0;

fn bits(f: Format, x: f64, lang: tmath::page::Lang) -> impl IntoView {
    let e = f.encode(x);
    let exp = format!("{:0width$b}", e.exponent_field, width = f.exponent_bits as usize);
    let man = format!("{:0width$b}", e.mantissa_field, width = f.mantissa_bits as usize);
    view! {
        <span
            class="bits"
            aria-label=format!(
                "{} {} {} {exp} {} {man}",
                crate::i18n::tr(lang, "fp-sign"),
                e.sign as u8,
                crate::i18n::tr(lang, "fp-exponent"),
                crate::i18n::tr(lang, "fp-mantissa")
            )
        >
            <span class="b-sign">{(e.sign as u8).to_string()}</span>
            <span class="b-exp">{exp.clone()}</span>
            <span class="b-man">{man.clone()}</span>
        </span>
    }
}

#[component]
pub fn FpView(
    /// Where the view is drawn (a figure shows the value's control itself, from the layout table).
    mode: Mode,
) -> impl IntoView {
    let ctx = use_ctx();
    // The value lives in a signal of its own, so a link restores it (`?fp=1e-8`)
    // and a keystroke here re-derives nothing else.
    let text = Signal::derive(move || ctx.fp.get().unwrap_or_else(|| "0.1".to_string()));
    // Signs are allowed here, unlike sizes.
    let value = Memo::new(move |_| {
        let t = text.get();
        let (neg, body) = t.trim().strip_prefix('-').map_or((false, t.trim()), |b| (true, b));
        parse_number(body).ok().map(|x| if neg { -x } else { x })
    });
    let demo = move |f: Format, x: f64, id: &'static str| {
        let e = f.encode(x);
        view! {
            <td data-testid=id data-class=e.class.as_str() data-value=e.value.to_string()>
                {stored(ctx, e)}
            </td>
        }
    };
    view! {
        {(mode == Mode::Page).then(|| view! { <Field key=K::Fp /> })}
        <Show when=move || value.get().is_none()>
            <p class="notes error" role="alert"><Tr key="fp-bad-value" /></p>
        </Show>
            <div class="table-wrap">
                <table class="fp-table fp-values">
                    <thead>
                        <tr>
                            <th scope="col"><Tr key="fp-format" /></th>
                            <th scope="col"><Tr key="fp-bits" /></th>
                            <th scope="col"><Tr key="fp-stored" /></th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            value
                                .get()
                                .map(|x| {
                                    FORMATS
                                        .iter()
                                        .map(|&f| {
                                            let e = f.encode(x);
                                            view! {
                                                <tr data-testid=format!("fp-{}", f.name) data-value=e.value.to_string()>
                                                    <th scope="row">{f.name}</th>
                                                    <td>{bits(f, x, ctx.lang.get())}</td>
                                                    <td data-label=ctx.t("fp-stored")>{stored(ctx, e)}</td>
                                                </tr>
                                            }
                                        })
                                        .collect_view()
                                })
                        }}
                    </tbody>
                </table>
            </div>
            <h3><Tr key="fp-ranges" /></h3>
            <div class="table-wrap">
                <table class="fp-table fp-ranges">
                    <thead>
                        <tr>
                            <th scope="col"><Tr key="fp-format" /></th>
                            <th scope="col"><Tr key="fp-exp-man" /></th>
                            <th scope="col"><Tr key="fp-max" /></th>
                            <th scope="col"><Tr key="fp-min-normal" /></th>
                            <th scope="col"><Tr key="fp-min-subnormal" /></th>
                            <th scope="col">"ε"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {FORMATS
                            .iter()
                            .map(|f| {
                                view! {
                                    <tr>
                                        <th scope="row">{f.name}</th>
                                        <td data-label=ctx.t("fp-exp-man")>{format!("{} / {}", f.exponent_bits, f.mantissa_bits)}</td>
                                        <td data-label=ctx.t("fp-max") data-testid=format!("fp-max-{}", f.name) data-value=f.max().to_string()>
                                            {short(f.max())}
                                        </td>
                                        <td data-label=ctx.t("fp-min-normal")>{short(f.min_normal())}</td>
                                        <td data-label=ctx.t("fp-min-subnormal")>{short(f.min_subnormal())}</td>
                                        <td data-label="ε">{short(f.epsilon())}</td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
            <h3><Tr key="fp-loss-scaling" /></h3>
            <div class="table-wrap">
            <table class="fp-table fp-scaling">
                <tbody>
                    <tr>
                        <th scope="row">{format!("fp16({GRAD:e})")}</th>
                        {demo(FP16, GRAD, "underflow-fp16")}
                    </tr>
                    <tr>
                        <th scope="row">{format!("fp16({GRAD:e} × {SCALE}) ÷ {SCALE}")}</th>
                        <td data-testid="scaled-fp16" data-value=(FP16.encode(GRAD * SCALE).value / SCALE).to_string()>
                            {sci(FP16.encode(GRAD * SCALE).value / SCALE)}
                        </td>
                    </tr>
                    <tr>
                        <th scope="row">{format!("bf16({GRAD:e})")}</th>
                        {demo(BF16, GRAD, "underflow-bf16")}
                    </tr>
                </tbody>
            </table>
            </div>
            <p class="detail"><Tr key="fp-loss-scaling-note" /></p>
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sci_is_short() {
        assert_eq!(super::sci(65504.0), "65504");
        assert_eq!(super::sci(0.1), "0.1");
        assert_eq!(super::sci(5.960464477539063e-8), "5.9605e-8");
        assert_eq!(super::short(3.4028234663852886e38), "3.40e38");
        assert_eq!(super::short(65504.0), "65504");
        assert_eq!(super::short(0.0078125), "0.00781");
        assert_eq!(super::short(0.125), "0.125");
    }
}
