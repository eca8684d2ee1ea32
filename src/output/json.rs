//! The one JSON and CSV writer, of the command line and of the page's
//! exports: the `Serialize` impls write into a small tree, which prints as
//! JSON (as serde_json prints it: a test holds the two together) or flattens
//! to CSV rows. Not serde_json itself: its serializer, value type and float
//! printer were 10.7 KiB of the page's gzipped wasm (measured); this is a fraction.

use crate::keys::State;
use crate::report::Report;
use serde::ser::{self, Serialize};
use std::fmt::{self, Display, Write};

/// A JSON value; objects keep their fields in serialization order.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Null,
    Bool(bool),
    /// A number, already printed (shortest form that reads back the same).
    Num(String),
    Str(String),
    List(Vec<Node>),
    Map(Vec<(String, Node)>),
}

#[derive(Debug)]
pub struct Error(String);

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

/// The tree of any serializable value.
pub fn to_tree<T: Serialize + ?Sized>(value: &T) -> Result<Node, Error> {
    value.serialize(Tree)
}

/// Pretty JSON, two-space indents (as `serde_json::to_string_pretty`).
pub fn to_json(node: &Node) -> String {
    let mut out = String::new();
    write_json(node, Some(0), &mut out);
    out
}

/// One-line JSON.
pub fn to_compact_json(node: &Node) -> String {
    let mut out = String::new();
    write_json(node, None, &mut out);
    out
}

fn write_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn write_json(node: &Node, indent: Option<usize>, out: &mut String) {
    let newline = |out: &mut String, level: usize| {
        if indent.is_some() {
            out.push('\n');
            out.extend(std::iter::repeat_n("  ", level));
        }
    };
    let inner = indent.map(|i| i + 1);
    match node {
        Node::Null => out.push_str("null"),
        Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Node::Num(n) => out.push_str(n),
        Node::Str(s) => write_str(s, out),
        Node::List(items) if items.is_empty() => out.push_str("[]"),
        Node::Map(fields) if fields.is_empty() => out.push_str("{}"),
        Node::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, inner.unwrap_or(0));
                write_json(item, inner, out);
            }
            newline(out, indent.unwrap_or(0));
            out.push(']');
        }
        Node::Map(fields) => {
            out.push('{');
            for (i, (k, v)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, inner.unwrap_or(0));
                write_str(k, out);
                out.push_str(if indent.is_some() { ": " } else { ":" });
                write_json(v, inner, out);
            }
            newline(out, indent.unwrap_or(0));
            out.push('}');
        }
    }
}

struct Tree;

fn num(x: impl Display) -> Result<Node, Error> {
    Ok(Node::Num(x.to_string()))
}

fn float(x: f64) -> Result<Node, Error> {
    // JSON has no NaN or infinity: serde_json writes null.
    if !x.is_finite() {
        return Ok(Node::Null);
    }
    // The shortest digits that read back as `x`; a whole number keeps its ".0",
    // as serde_json writes it, so that readers keep it a float.
    let mut s = format!("{x}");
    if !s.contains(['.', 'e']) {
        s.push_str(".0");
    }
    Ok(Node::Num(s))
}

impl ser::Serializer for Tree {
    type Ok = Node;
    type Error = Error;
    type SerializeSeq = Seq;
    type SerializeTuple = Seq;
    type SerializeTupleStruct = Seq;
    type SerializeTupleVariant = Seq;
    type SerializeMap = Fields;
    type SerializeStruct = Fields;
    type SerializeStructVariant = Fields;

    fn serialize_bool(self, v: bool) -> Result<Node, Error> {
        Ok(Node::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Node, Error> {
        num(v)
    }
    fn serialize_i16(self, v: i16) -> Result<Node, Error> {
        num(v)
    }
    fn serialize_i32(self, v: i32) -> Result<Node, Error> {
        num(v)
    }
    fn serialize_i64(self, v: i64) -> Result<Node, Error> {
        num(v)
    }
    fn serialize_u8(self, v: u8) -> Result<Node, Error> {
        num(v)
    }
    fn serialize_u16(self, v: u16) -> Result<Node, Error> {
        num(v)
    }
    fn serialize_u32(self, v: u32) -> Result<Node, Error> {
        num(v)
    }
    fn serialize_u64(self, v: u64) -> Result<Node, Error> {
        num(v)
    }
    fn serialize_f32(self, v: f32) -> Result<Node, Error> {
        float(v as f64)
    }
    fn serialize_f64(self, v: f64) -> Result<Node, Error> {
        float(v)
    }
    fn serialize_char(self, v: char) -> Result<Node, Error> {
        Ok(Node::Str(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Node, Error> {
        Ok(Node::Str(v.to_string()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Node, Error> {
        Ok(Node::List(v.iter().map(|b| Node::Num(b.to_string())).collect()))
    }
    fn serialize_none(self) -> Result<Node, Error> {
        Ok(Node::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<Node, Error> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Node, Error> {
        Ok(Node::Null)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Node, Error> {
        Ok(Node::Null)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<Node, Error> {
        Ok(Node::Str(variant.to_string()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<Node, Error> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<Node, Error> {
        Ok(Node::Map(vec![(variant.to_string(), v.serialize(Tree)?)]))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Seq, Error> {
        Ok(Seq { items: Vec::with_capacity(len.unwrap_or(0)), variant: None })
    }
    fn serialize_tuple(self, len: usize) -> Result<Seq, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Seq, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, variant: &'static str, len: usize) -> Result<Seq, Error> {
        Ok(Seq { items: Vec::with_capacity(len), variant: Some(variant) })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Fields, Error> {
        Ok(Fields { fields: Vec::new(), key: None, variant: None })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fields, Error> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Fields, Error> {
        Ok(Fields { fields: Vec::new(), key: None, variant: Some(variant) })
    }
}

/// An enum variant with data is an object of one field, the variant's name (as serde_json writes it).
fn tagged(variant: Option<&'static str>, node: Node) -> Node {
    match variant {
        Some(name) => Node::Map(vec![(name.to_string(), node)]),
        None => node,
    }
}

pub struct Seq {
    items: Vec<Node>,
    variant: Option<&'static str>,
}

impl Seq {
    fn push<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.items.push(v.serialize(Tree)?);
        Ok(())
    }
}

/// serde's four sequence traits differ only in their method's name.
macro_rules! seq_impl {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for Seq {
            type Ok = Node;
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
                self.push(v)
            }
            fn end(self) -> Result<Node, Error> {
                Ok(tagged(self.variant, Node::List(self.items)))
            }
        }
    )*};
}

seq_impl!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

pub struct Fields {
    fields: Vec<(String, Node)>,
    key: Option<String>,
    variant: Option<&'static str>,
}

impl Fields {
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, v: &T) -> Result<(), Error> {
        self.fields.push((key.to_string(), v.serialize(Tree)?));
        Ok(())
    }
}

impl ser::SerializeMap for Fields {
    type Ok = Node;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        // Object keys are strings in JSON; numbers are written as their text.
        self.key = Some(match key.serialize(Tree)? {
            Node::Str(s) | Node::Num(s) => s,
            _ => return Err(Error("a map key must be a string or a number".into())),
        });
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        let key = self.key.take().ok_or_else(|| Error("a map value without a key".into()))?;
        self.field(&key, v)
    }
    fn end(self) -> Result<Node, Error> {
        Ok(Node::Map(self.fields))
    }
}

/// A struct and a struct variant both write named fields (a variant's, tagged).
macro_rules! struct_impl {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Fields {
            type Ok = Node;
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<(), Error> {
                self.field(key, v)
            }
            fn end(self) -> Result<Node, Error> {
                Ok(tagged(self.variant, Node::Map(self.fields)))
            }
        }
    )*};
}

struct_impl!(SerializeStruct, SerializeStructVariant);

/// What an export holds: the share link, every key's value (the page's own
/// language and unit among them), and the result (`tmath --json`'s object).
pub fn export(state: &State, report: &Report) -> Node {
    let keys =
        crate::keys::KEYS.iter().map(|k| (k.name.to_string(), Node::Str(state.value(k.name).unwrap_or_default())));
    Node::Map(vec![
        ("query".into(), Node::Str(crate::link::query(state))),
        ("state".into(), Node::Map(keys.collect())),
        ("result".into(), to_tree(report).unwrap_or(Node::Null)),
    ])
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// An export as `key,value` rows, each key once: the state's keys in their
/// link spelling, then the result's fields (nested ones as `a.b`) that do not
/// repeat a key of the state (`active_params` is `active-params`).
pub fn to_csv(export: &Node) -> String {
    let mut out = String::from("key,value\n");
    let Node::Map(parts) = export else { return out };
    let part = |name: &str| parts.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    let mut seen = std::collections::HashSet::new();
    if let Some(Node::Map(state)) = part("state") {
        for (k, v) in state {
            if let Node::Str(v) = v {
                seen.insert(k.replace('-', "_"));
                out.push_str(&format!("{k},{}\n", csv_field(v)));
            }
        }
    }
    let mut row = |k: String, v: &Node| {
        if seen.insert(k.clone()) {
            let text = match v {
                Node::Str(s) => s.clone(),
                Node::List(items) => items
                    .iter()
                    .map(|i| if let Node::Str(s) = i { s.clone() } else { to_compact_json(i) })
                    .collect::<Vec<_>>()
                    .join("; "),
                other => to_compact_json(other),
            };
            out.push_str(&format!("{k},{}\n", csv_field(&text)));
        }
    };
    if let Some(Node::Map(result)) = part("result") {
        for (k, v) in result {
            match v {
                Node::Map(inner) => inner.iter().for_each(|(k2, v2)| row(format!("{k}.{k2}"), v2)),
                other => row(k.clone(), other),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree prints what serde_json prints, value for value.
    #[test]
    fn json_reads_back_as_serde_json_writes_it() {
        #[derive(serde::Serialize)]
        enum E {
            Unit,
            New(u8),
            Pair(u8, bool),
            Named { a: u8 },
        }
        #[derive(serde::Serialize)]
        struct S {
            text: &'static str,
            n: u64,
            neg: i32,
            x: f64,
            big: f64,
            tiny: f64,
            nan: f64,
            none: Option<u8>,
            list: Vec<&'static str>,
            empty: Vec<u8>,
            unit: E,
            new: E,
            pair: E,
            named: E,
            map: std::collections::BTreeMap<u32, bool>,
        }
        let s = S {
            text: "quote \" backslash \\ newline \n tab \t bell \u{7} 한국어",
            n: u64::MAX,
            neg: -3,
            x: 0.1,
            big: 3.14e23,
            tiny: 6e-8,
            nan: f64::NAN,
            none: None,
            list: vec!["a", "b"],
            empty: vec![],
            unit: E::Unit,
            new: E::New(7),
            pair: E::Pair(1, true),
            named: E::Named { a: 2 },
            map: [(1, true), (2, false)].into_iter().collect(),
        };
        let tree = to_tree(&s).unwrap();
        let expected = serde_json::to_value(&s).unwrap();
        for text in [to_json(&tree), to_compact_json(&tree)] {
            assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), expected, "{text}");
        }
        assert_eq!(to_json(&Node::List(vec![])), "[]");
    }

    #[test]
    fn exports_carry_the_state_and_the_result_each_key_once() {
        let (state, _) = crate::link::load("params=7B&lang=ko&units=gib");
        let r = crate::evaluate(&state.settings.resolve().unwrap());
        let e = export(&state, &r);
        let j: serde_json::Value = serde_json::from_str(&to_json(&e)).unwrap();
        assert_eq!(j["result"], serde_json::to_value(&r).unwrap(), "tmath --json's object");
        assert_eq!(j["result"]["per_gpu_bytes"]["optimizer"], 84e9);
        assert_eq!((&j["state"]["lang"], &j["state"]["units"]), (&"ko".into(), &"gib".into()));
        assert_eq!(j["query"], "?params=7000000000&lang=ko&units=gib");
        let csv = to_csv(&e);
        assert!(csv.contains("per_gpu_bytes.optimizer,84000000000.0\n"), "{csv}");
        assert!(csv.contains("params,7000000000\n") && csv.contains("lang,ko\n"));
        let keys: Vec<&str> = csv.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
        let mut unique = keys.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(keys.len(), unique.len(), "each key once");
        assert!(!keys.contains(&"active_params"), "active-params is already a key");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
    }
}
