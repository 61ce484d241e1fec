//! The JSON Schema of the variant YAML, for editors (`sandtable schema`).
//!
//! Generated from the serde structs the loader reads ([`super::raw`]), so a
//! key the loader gains is in the schema too; each key's description is its
//! doc comment there. Changes only if the schema's framing (title, draft)
//! changes: the keys change in `raw.rs`.

use schemars::JsonSchema;

use super::raw::{Param, RawOption, RawOptionDecl, RawVariant};

/// Where the repository keeps the generated schema (the variants' modelines
/// point there; a test keeps it equal to [`schema_json`]).
pub const SCHEMA_PATH: &str = "schema/variant.schema.json";

/// The schema (JSON Schema draft-07, the draft yaml-language-server supports
/// fully) as pretty-printed JSON with a final
/// newline: strict like the loader (an unknown key is refused), with
/// `$name` accepted wherever an option may be named.
pub fn schema_json() -> String {
    let mut schema = schemars::generate::SchemaSettings::draft07()
        .for_deserialize()
        .into_generator()
        .into_root_schema_for::<RawVariant>();
    schema.insert("title".into(), "sandtable variant".into());
    schema.insert(
        "description".into(),
        "A sandtable variant file (YAML): board, pieces, declared movement, options, \
         turn flow and declared actions. Every key is optional in a file that `extends` \
         another; `sandtable check` tells what a whole variant still lacks."
            .into(),
    );
    let mut value = schema.to_value();
    unwrap_descriptions(&mut value);
    drop_raw_prefix(&mut value);
    if let Some(m) = value.pointer_mut("/definitions/Move") {
        *m = tagged_move(m);
    }
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

/// Doc comments come with their line breaks: a paragraph is one line in the
/// schema (editors show descriptions as Markdown, wrapped to their width).
fn unwrap_descriptions(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                match value {
                    serde_json::Value::String(s) if key == "description" => {
                        *s = s
                            .split("\n\n")
                            .map(|para| para.split('\n').collect::<Vec<_>>().join(" "))
                            .collect::<Vec<_>>()
                            .join("\n\n");
                    }
                    _ => unwrap_descriptions(value),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(unwrap_descriptions),
        _ => {}
    }
}

/// The definitions are named after the raw structs (`RawPiece`); editors
/// show them as `Piece`.
fn drop_raw_prefix(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(map) => {
            if let Some(serde_json::Value::Object(defs)) = map.get_mut("definitions") {
                *defs = std::mem::take(defs)
                    .into_iter()
                    .map(|(k, v)| (k.strip_prefix("Raw").unwrap_or(&k).to_string(), v))
                    .collect();
            }
            for (key, value) in map.iter_mut() {
                match value {
                    serde_json::Value::String(s) if key == "$ref" => {
                        *s = s.replace("#/definitions/Raw", "#/definitions/");
                    }
                    _ => drop_raw_prefix(value),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(drop_raw_prefix),
        _ => {}
    }
}

/// A move as the loader reads it: one form per way of travelling, each
/// with only its own keys (`FORMS`), from the flat struct's properties.
fn tagged_move(flat: &serde_json::Value) -> serde_json::Value {
    let props = flat.get("properties").cloned().unwrap_or_default();
    let forms: Vec<serde_json::Value> = super::validate::FORMS
        .iter()
        .map(|(way, keys)| {
            let mut own = serde_json::Map::new();
            for k in std::iter::once(way).chain(keys.iter()) {
                if let Some(p) = props.get(*k) {
                    own.insert(k.to_string(), p.clone());
                }
            }
            serde_json::json!({
                "title": way,
                "type": "object",
                "properties": own,
                "required": [way],
                "additionalProperties": false
            })
        })
        .collect();
    serde_json::json!({
        "description": "One way of travelling (`step`, `slide`, `path`, `place`, `jump` or \
                        `race`) with that way's keys only.",
        "oneOf": forms
    })
}

/// An option's name as a value: `$name`.
pub(super) const OPTION_REF: &str = r"^\$.";

/// A literal of `T`, or `$name` (the untagged enum would admit any string;
/// `check` refuses one without the `$`, and so does the schema).
impl<T: JsonSchema> JsonSchema for Param<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("Param_{}", T::schema_name()).into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let lit = g.subschema_for::<T>();
        schemars::json_schema!({
            "anyOf": [lit, { "type": "string", "pattern": OPTION_REF }]
        })
    }
}

/// `closes:` also takes `!$name`, the boolean option's negation.
pub(super) fn closes_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let lit = g.subschema_for::<Option<bool>>();
    schemars::json_schema!({
        "anyOf": [lit, { "type": "string", "pattern": r"^!?\$." }]
    })
}

/// A name (of a zone, a parameter, a kind, ...).
fn name_schema() -> serde_json::Value {
    serde_json::json!({ "type": "string", "pattern": r"^\S+$" })
}

/// One map of a single key `key` whose value follows `value`.
fn single(key: &str, value: serde_json::Value) -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "properties": { key: value },
        "required": [key],
        "additionalProperties": false
    })
}

/// A source of cells: `own_pieces`, `near_own`, `cells`, `sight`, `{ zone:
/// NAME }`, `{ own_zone: NAME }`, `{ first_zone: [NAME, ...] }`, `{ next_to: PARAM }`, `{ flood:
/// PARAM, through: TERRAIN }`.
fn source_value() -> serde_json::Value {
    let name = name_schema();
    serde_json::json!({
        "description": "Where the cells come from.",
        "anyOf": [
            { "enum": ["own_pieces", "near_own", "cells", "sight"] },
            single("zone", name.clone()),
            single("own_zone", name.clone()),
            single("first_zone", serde_json::json!({ "type": "array", "items": name, "minItems": 1 })),
            single("next_to", name.clone()),
            {
                "type": "object",
                "properties": { "flood": name, "through": name },
                "required": ["flood", "through"],
                "additionalProperties": false
            }
        ]
    })
}

pub(super) fn source_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::Schema::try_from(source_value()).expect("an object")
}

pub(super) fn optional_source_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::Schema::try_from(serde_json::json!({ "anyOf": [source_value(), { "type": "null" }] }))
        .expect("an object")
}

/// A list of conditions on a cell (`Condition` in the schema's
/// definitions: it refers to itself through `not`).
pub(super) fn conditions_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let name = name_schema();
    let cond = serde_json::json!({ "$ref": "#/definitions/Condition" });
    g.definitions_mut().insert(
        "Condition".into(),
        serde_json::json!({
            "description": "A condition on a cell.",
            "anyOf": [
                { "enum": ["empty", "enemy", "own", "not_own", "frozen"] },
                single("terrain", name.clone()),
                single("mark", serde_json::json!({ "anyOf": [
                    name.clone(),
                    { "type": "object", "minProperties": 1, "maxProperties": 1,
                      "additionalProperties": { "type": ["string", "integer", "boolean"] } }
                ] })),
                single("attr", name.clone()),
                single("counter", name.clone()),
                single("zone", name.clone()),
                single("kind", serde_json::json!({ "anyOf": [
                    name.clone(), { "type": "array", "items": name, "minItems": 1 }
                ] })),
                single("not", cond.clone())
            ]
        }),
    );
    schemars::Schema::try_from(serde_json::json!({ "type": "array", "items": cond }))
        .expect("an object")
}

/// Either form: `{ default, doc }`, or a plain value (a boolean, a number
/// or a text: lists and maps are declared with `default:`).
impl JsonSchema for RawOption {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RawOption".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let decl = g.subschema_for::<RawOptionDecl>();
        schemars::json_schema!({
            "description": "An option: `{ default: VALUE, doc: TEXT }` declares it; a plain value (in a variant that `extends` another) sets the default of an option the base declares.",
            "anyOf": [decl, { "type": ["boolean", "integer", "number", "string"] }]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_refuses_unknown_keys_at_the_top() {
        let v: serde_json::Value = serde_json::from_str(&schema_json()).unwrap();
        assert_eq!(v["additionalProperties"], serde_json::json!(false));
        assert!(v["properties"]["pieces"].is_object());
        assert_eq!(v["definitions"]["Piece"]["additionalProperties"], false);
        assert!(!schema_json().contains("definitions/Raw"));
    }
}
