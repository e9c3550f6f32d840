//! `memory.suppressionEnabled` of a YAML config file, as River Review's
//! loader reads it (`js-yaml` 4 `load`, default schema).
//!
//! The first document is read into a small tree whose aliases stay
//! references to their anchors (never expanded, so an alias bomb costs no
//! more than its text), and the setting is looked up through them the way
//! `js-yaml` builds the value:
//! - an alias is its anchored node (`memory: *m`, `suppressionEnabled: *off`);
//! - a plain `<<` key merges a mapping or a sequence of mappings: keys the
//!   mapping writes itself win, and among merged mappings the first one that
//!   has the key wins;
//! - the booleans are plain `true`/`True`/`TRUE`/`false`/`False`/`FALSE`, or
//!   any scalar tagged `!!bool` that spells one; a quoted or `!!str` scalar
//!   is a string, which River's `=== false` does not match.
//!
//! `js-yaml` refuses a document with a repeated key in any mapping, a second
//! document, an unknown tag or a top level that is not a mapping, and River
//! then fails to load its configuration; each of those reads as not set
//! here, as does anything the parser cannot read.

use std::collections::HashMap;
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::TScalarStyle;

/// At most this many parser events are read from one file.
const MAX_EVENTS: usize = 100_000;

/// How deep nodes may nest, and how many aliases or merges a look-up follows.
const MAX_DEPTH: usize = 64;

/// One node; children are indexes into [`Tree::nodes`].
enum Node {
    Scalar {
        value: String,
        plain: bool,
        tag: Option<Tag>,
    },
    Map(Vec<(usize, usize)>),
    Seq(Vec<usize>),
    /// An alias: the anchor id it refers to.
    Alias(usize),
}

/// The first document's nodes and its anchors (anchor id to node).
struct Tree {
    nodes: Vec<Node>,
    anchors: HashMap<usize, usize>,
}

/// Reads events, at most [`MAX_EVENTS`]; `None` on a syntax error.
struct Events<'a> {
    parser: Parser<std::str::Chars<'a>>,
    left: usize,
}

impl Events<'_> {
    fn next(&mut self) -> Option<Event> {
        self.left = self.left.checked_sub(1)?;
        self.parser.next_token().ok().map(|(event, _)| event)
    }
}

impl Tree {
    /// Reads the node `first` starts (and its children); its index.
    fn node(&mut self, events: &mut Events<'_>, first: Event, depth: usize) -> Option<usize> {
        if depth > MAX_DEPTH {
            return None;
        }
        let tag = match &first {
            Event::Scalar(_, _, _, tag) | Event::SequenceStart(_, tag) | Event::MappingStart(_, tag) => tag.as_ref(),
            _ => None,
        };
        if tag.is_some_and(|t| !is_core_handle(t)) {
            // A local tag (`!name`): js-yaml knows none and refuses the document.
            return None;
        }
        let (node, anchor) = match first {
            Event::Scalar(value, style, anchor, tag) => (
                Node::Scalar {
                    value,
                    plain: style == TScalarStyle::Plain,
                    tag,
                },
                anchor,
            ),
            Event::Alias(id) => (Node::Alias(id), 0),
            Event::SequenceStart(anchor, _) => {
                let mut items = Vec::new();
                loop {
                    match events.next()? {
                        Event::SequenceEnd => break,
                        event => items.push(self.node(events, event, depth + 1)?),
                    }
                }
                (Node::Seq(items), anchor)
            }
            Event::MappingStart(anchor, _) => {
                let mut pairs = Vec::new();
                loop {
                    match events.next()? {
                        Event::MappingEnd => break,
                        event => {
                            let key = self.node(events, event, depth + 1)?;
                            let value = events.next()?;
                            let value = self.node(events, value, depth + 1)?;
                            pairs.push((key, value));
                        }
                    }
                }
                self.refuse_repeated_keys(&pairs)?;
                (Node::Map(pairs), anchor)
            }
            _ => return None,
        };
        self.nodes.push(node);
        let index = self.nodes.len() - 1;
        if anchor != 0 {
            self.anchors.insert(anchor, index);
        }
        Some(index)
    }

    /// `None` when two keys of one mapping are the same text (`js-yaml`
    /// refuses the document); merge keys are not counted.
    fn refuse_repeated_keys(&self, pairs: &[(usize, usize)]) -> Option<()> {
        let mut seen = std::collections::HashSet::new();
        for &(key, _) in pairs {
            if let Node::Scalar { value, plain, .. } = &self.nodes[key]
                && !(*plain && value == "<<")
                && !seen.insert(value.as_str())
            {
                return None;
            }
        }
        Some(())
    }

    /// The node `index` is, through aliases.
    fn target(&self, mut index: usize) -> Option<usize> {
        for _ in 0..MAX_DEPTH {
            match &self.nodes[index] {
                Node::Alias(id) => index = *self.anchors.get(id)?,
                _ => return Some(index),
            }
        }
        None
    }

    /// The value of `key` in the mapping `map` (through aliases and merges).
    fn get(&self, map: usize, key: &str, depth: usize) -> Option<usize> {
        if depth > MAX_DEPTH {
            return None;
        }
        let Node::Map(pairs) = &self.nodes[self.target(map)?] else {
            return None;
        };
        // Only a plain `<<` is a merge key; `key` is never one.
        let own = pairs
            .iter()
            .find(|(k, _)| matches!(&self.nodes[*k], Node::Scalar { value, .. } if value == key));
        if let Some(&(_, value)) = own {
            return Some(value);
        }
        pairs
            .iter()
            .filter(|(k, _)| matches!(&self.nodes[*k], Node::Scalar { value, plain: true, .. } if value == "<<"))
            .flat_map(|&(_, merged)| self.merged_maps(merged))
            .find_map(|m| self.get(m, key, depth + 1))
    }

    /// The mappings a merge key's value names: one mapping, or a sequence
    /// of them.
    fn merged_maps(&self, value: usize) -> Vec<usize> {
        match self.target(value).map(|v| (v, &self.nodes[v])) {
            Some((_, Node::Seq(items))) => items.iter().filter_map(|&i| self.target(i)).collect(),
            Some((v, Node::Map(_))) => vec![v],
            _ => Vec::new(),
        }
    }

    /// The boolean a node is, if it is one.
    fn boolean(&self, index: usize) -> Option<bool> {
        let Node::Scalar { value, plain, tag } = &self.nodes[self.target(index)?] else {
            return None;
        };
        match tag {
            None if *plain => yaml_bool(value),
            None => None,
            Some(tag) if is_core(tag, "bool") => yaml_bool(value),
            Some(_) => None,
        }
    }
}

/// Whether `tag` is one of YAML's own (`!!name`, however the parser spells
/// the handle).
fn is_core_handle(tag: &Tag) -> bool {
    matches!(tag.handle.as_str(), "!!" | "tag:yaml.org,2002:")
}

/// Whether `tag` is `!!NAME`.
fn is_core(tag: &Tag, name: &str) -> bool {
    is_core_handle(tag) && tag.suffix == name
}

/// YAML's booleans under `js-yaml`'s default schema.
fn yaml_bool(s: &str) -> Option<bool> {
    match s {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// `memory.suppressionEnabled` of a YAML document, when it is a boolean.
pub(super) fn setting(text: &str) -> Option<bool> {
    let mut events = Events {
        parser: Parser::new_from_str(text),
        left: MAX_EVENTS,
    };
    let first = loop {
        match events.next()? {
            Event::StreamStart | Event::DocumentStart => {}
            event => break event,
        }
    };
    let mut tree = Tree {
        nodes: Vec::new(),
        anchors: HashMap::new(),
    };
    let root = tree.node(&mut events, first, 0)?;
    // A second document makes `js-yaml`'s `load` throw.
    loop {
        match events.next()? {
            Event::DocumentEnd => {}
            Event::StreamEnd => break,
            _ => return None,
        }
    }
    let memory = tree.get(root, "memory", 0)?;
    let enabled = tree.get(memory, "suppressionEnabled", 0)?;
    tree.boolean(enabled)
}
