//! Bundles every JSON Schema in `schemas/` that a validator is built from
//! into one self-contained, minified document in `OUT_DIR`, embedded by
//! `src/model/schema.rs`.
//!
//! The files in `schemas/` stay the source of truth (they are what a reader
//! of the formats reads, and what the tests check against the draft 2020-12
//! meta-schema); the bundle is what a running process compiles. For each
//! entry file it holds:
//! - the entry's root schema, without `$id` and `$defs`, with a `$ref`
//!   replaced by the definition it names (of any file), merged with the
//!   keywords beside the `$ref`, where that is cheaper to compile and means
//!   the same: the definition is plain assertions only or is named by that
//!   one reference, it is not being expanded already (a recursive one stays
//!   a reference), and the keywords beside it are plain assertions it does
//!   not contradict;
//! - under `$defs`, the definitions still referred to, named by the order
//!   they were first referred to in: `d0`, `d1` ..., and every such `$ref`
//!   rewritten to `#/$defs/<that name>`;
//! - no annotation keyword (`title`, `description`, `examples`, `$comment`,
//!   `default`): they never change a verdict or a message.
//!
//! So the compiler sees one resource with local references only, and few of
//! those: a `$ref` costs the compiler a resolver lookup and several location
//! joins, more than compiling a small definition once more, while a large
//! definition used in several places is best compiled once. No registry of
//! several documents to crawl, no base URI to resolve against, and about
//! half of the text to parse. A keyword the bundler does not know stops
//! the build, so a schema can never be bundled by guesswork.

use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::error::Error;
use std::path::{Path, PathBuf};

/// The schema files validators are built from (all but the shared definitions).
const ENTRIES: [&str; 8] = [
    "reviewgate-agent-result-v1.schema.json",
    "reviewgate-review-output-v3.schema.json",
    "reviewgate-review-output-legacy.schema.json",
    "reviewgate-agent-dispositions-v1.schema.json",
    "river-review-artifact.schema.json",
    "river-output.schema.json",
    "river-suppression-context.schema.json",
    "riverbed-entry.schema.json",
];

/// Keywords whose value is an object of schemas (its keys are names).
const SCHEMA_MAPS: [&str; 3] = ["properties", "patternProperties", "dependentSchemas"];

/// Keywords whose value is one schema.
const SCHEMAS: [&str; 10] = [
    "items",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
];

/// Keywords whose value is an array of schemas.
const SCHEMA_LISTS: [&str; 4] = ["allOf", "anyOf", "oneOf", "prefixItems"];

/// Keywords whose value is data, kept as it is.
const DATA: [&str; 20] = [
    "type",
    "enum",
    "const",
    "required",
    "dependentRequired",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "contentEncoding",
];

/// Keywords dropped: annotations only.
const ANNOTATIONS: [&str; 5] = ["title", "description", "examples", "$comment", "default"];

type Result<T> = std::result::Result<T, Box<dyn Error>>;

fn main() -> Result<()> {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?).join("schemas");
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    println!("cargo::rerun-if-changed=schemas");
    for entry in ENTRIES {
        let bundle = Bundler::new(&dir).bundle(entry)?;
        std::fs::write(out.join(entry), serde_json::to_string(&bundle)?)?;
    }
    Ok(())
}

/// Builds the bundle of one entry file.
struct Bundler<'d> {
    dir: &'d Path,
    /// Definitions referred to, as (file, name), not yet copied.
    pending: Vec<(String, String)>,
    /// Every definition referred to so far, with its name in the bundle.
    seen: BTreeMap<(String, String), String>,
    /// The definitions being inlined, outermost first.
    inlining: Vec<(String, String)>,
    /// How many references name each definition reachable from the entry.
    uses: BTreeMap<(String, String), usize>,
}

impl<'d> Bundler<'d> {
    fn new(dir: &'d Path) -> Self {
        Bundler {
            dir,
            pending: Vec::new(),
            seen: BTreeMap::new(),
            inlining: Vec::new(),
            uses: BTreeMap::new(),
        }
    }

    fn bundle(mut self, entry: &'static str) -> Result<Value> {
        let Value::Object(mut root) = self.read(entry)? else {
            return Err(format!("{entry}: not an object").into());
        };
        for member in ["$id", "$defs"] {
            root.remove(member);
        }
        let dialect = root.remove("$schema").ok_or_else(|| format!("{entry}: no $schema"))?;
        let root = Value::Object(root);
        self.count_uses(entry, &root)?;
        let Value::Object(mut out) = self.schema(entry, &root, "")? else {
            return Err(format!("{entry}: not an object").into());
        };
        out.insert("$schema".to_string(), dialect);
        let mut defs = Map::new();
        while let Some((file, name)) = self.pending.pop() {
            let doc = self.read(&file)?;
            let def = doc
                .get("$defs")
                .and_then(|d| d.get(&name))
                .ok_or_else(|| format!("{file}: no definition `{name}`"))?;
            let at = format!("#/$defs/{name}");
            let rewritten = self.schema(&file, def, &at)?;
            let local = self.seen.get(&(file, name)).cloned().unwrap_or_default();
            defs.insert(local, rewritten);
        }
        if !defs.is_empty() {
            out.insert("$defs".to_string(), Value::Object(defs));
        }
        Ok(Value::Object(out))
    }

    fn read(&self, file: &str) -> Result<Value> {
        let text = std::fs::read_to_string(self.dir.join(file)).map_err(|e| format!("{file}: {e}"))?;
        Ok(serde_json::from_str(&text).map_err(|e| format!("{file}: {e}"))?)
    }

    /// `schema` (found in `file`, at `at` for messages) with its references
    /// rewritten and its annotations dropped.
    fn schema(&mut self, file: &str, schema: &Value, at: &str) -> Result<Value> {
        let map = match schema {
            Value::Bool(_) => return Ok(schema.clone()),
            Value::Object(map) => map,
            _ => return Err(format!("{file}{at}: a schema must be an object or a boolean").into()),
        };
        if let Some(inlined) = self.inlined(file, map, at)? {
            return Ok(inlined);
        }
        let mut out = Map::new();
        for (keyword, value) in map {
            let here = format!("{at}/{keyword}");
            let kept = match keyword.as_str() {
                k if ANNOTATIONS.contains(&k) => continue,
                "$ref" => Value::String(self.reference(file, value, &here)?),
                k if SCHEMAS.contains(&k) => self.schema(file, value, &here)?,
                k if SCHEMA_MAPS.contains(&k) => {
                    let Value::Object(members) = value else {
                        return Err(format!("{file}{here}: not an object").into());
                    };
                    let mut rewritten = Map::new();
                    for (name, sub) in members {
                        rewritten.insert(name.clone(), self.schema(file, sub, &format!("{here}/{name}"))?);
                    }
                    Value::Object(rewritten)
                }
                k if SCHEMA_LISTS.contains(&k) => {
                    let Value::Array(items) = value else {
                        return Err(format!("{file}{here}: not an array").into());
                    };
                    let mut rewritten = Vec::new();
                    for (i, sub) in items.iter().enumerate() {
                        rewritten.push(self.schema(file, sub, &format!("{here}/{i}"))?);
                    }
                    Value::Array(rewritten)
                }
                k if DATA.contains(&k) => value.clone(),
                other => return Err(format!("{file}{at}: keyword `{other}` is not known to the bundler").into()),
            };
            out.insert(keyword.clone(), kept);
        }
        Ok(Value::Object(out))
    }

    /// A schema with a `$ref` as the definition it names with the schema's
    /// other keywords beside it, when that is cheaper to compile and means
    /// the same: the definition holds plain assertions only (see [`DATA`])
    /// or is named by this one reference (a larger definition used in
    /// several places is compiled once, as a reference); it is not being
    /// inlined already (a recursive one stays a reference); and every other
    /// keyword is a plain assertion the definition has not, or has with the
    /// same value.
    fn inlined(&mut self, file: &str, map: &Map<String, Value>, at: &str) -> Result<Option<Value>> {
        let Some(value) = map.get("$ref") else {
            return Ok(None);
        };
        let key = self.target(file, value, at)?;
        if self.inlining.contains(&key) {
            return Ok(None);
        }
        let doc = self.read(&key.0)?;
        let Some(Value::Object(def)) = doc.get("$defs").and_then(|d| d.get(&key.1)) else {
            return Ok(None);
        };
        let siblings = map
            .iter()
            .filter(|(k, _)| *k != "$ref" && !ANNOTATIONS.contains(&k.as_str()));
        let mut rest = Map::new();
        for (keyword, value) in siblings {
            let plain = DATA.contains(&keyword.as_str());
            if !plain || def.get(keyword).is_some_and(|own| own != value) {
                return Ok(None);
            }
            rest.insert(keyword.clone(), value.clone());
        }
        let leaf = def
            .keys()
            .all(|k| DATA.contains(&k.as_str()) || ANNOTATIONS.contains(&k.as_str()));
        if !leaf && self.uses.get(&key) != Some(&1) {
            return Ok(None);
        }
        self.inlining.push(key.clone());
        let inlined = self.schema(&key.0, &Value::Object(def.clone()), &format!("#/$defs/{}", key.1));
        self.inlining.pop();
        let Value::Object(mut out) = inlined? else {
            return Ok(None);
        };
        out.extend(rest);
        Ok(Some(Value::Object(out)))
    }

    /// Counts the references to every definition reachable from `schema`
    /// (found in `file`), each definition's own counted once.
    fn count_uses(&mut self, file: &str, schema: &Value) -> Result<()> {
        let Value::Object(map) = schema else {
            return Ok(());
        };
        for (keyword, value) in map {
            match keyword.as_str() {
                "$ref" => {
                    let key = self.target(file, value, "")?;
                    let uses = self.uses.entry(key.clone()).or_insert(0);
                    *uses += 1;
                    if *uses == 1 {
                        let doc = self.read(&key.0)?;
                        if let Some(def) = doc.get("$defs").and_then(|d| d.get(&key.1)) {
                            self.count_uses(&key.0, def)?;
                        }
                    }
                }
                k if SCHEMAS.contains(&k) => self.count_uses(file, value)?,
                k if SCHEMA_MAPS.contains(&k) => {
                    for sub in value.as_object().into_iter().flat_map(Map::values) {
                        self.count_uses(file, sub)?;
                    }
                }
                k if SCHEMA_LISTS.contains(&k) => {
                    for sub in value.as_array().into_iter().flatten() {
                        self.count_uses(file, sub)?;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The (file, definition name) a `$ref` written in `file` names.
    fn target(&self, file: &str, value: &Value, at: &str) -> Result<(String, String)> {
        let text = value.as_str().ok_or_else(|| format!("{file}{at}: not a string"))?;
        let (target, fragment) = text.split_once('#').ok_or_else(|| format!("{file}{at}: no fragment"))?;
        let name = fragment
            .strip_prefix("/$defs/")
            .filter(|n| !n.is_empty() && !n.contains(['/', '~', '%']))
            .ok_or_else(|| format!("{file}{at}: `{text}` does not name a definition"))?;
        let target = if target.is_empty() { file } else { target };
        Ok((target.to_string(), name.to_string()))
    }

    /// The bundle's `$ref` for a reference written in `file`.
    fn reference(&mut self, file: &str, value: &Value, at: &str) -> Result<String> {
        let key = self.target(file, value, at)?;
        let next = format!("d{}", self.seen.len());
        let local = self.seen.entry(key.clone()).or_insert_with(|| {
            self.pending.push(key);
            next
        });
        Ok(format!("#/$defs/{local}"))
    }
}
