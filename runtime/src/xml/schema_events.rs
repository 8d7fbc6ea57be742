//! DTOs of `<Events>` (user events of a time-stepping or event-driven run) mirroring
//! `schemas/saltus-model.xsd`; re-exported by [`super::schema`].
#![allow(missing_docs)] // the fields are the XML vocabulary, documented in the XSD.

use super::schema::is_none;
use serde::{Deserialize, Serialize};

/// `<Events>`: one or more `<Event>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventsSpec {
    #[serde(rename = "Event")]
    pub events: Vec<EventSpec>,
}

/// `<Event name ds direction discrete_zero window unit action>` with its trigger and reset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventSpec {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@ds")]
    pub ds: String,
    #[serde(rename = "@direction", default, skip_serializing_if = "is_none")]
    pub direction: Option<DirectionSpec>,
    #[serde(rename = "@discrete_zero", default, skip_serializing_if = "is_none")]
    pub discrete_zero: Option<bool>,
    #[serde(rename = "@window", default, skip_serializing_if = "is_none")]
    pub window: Option<f64>,
    #[serde(rename = "@unit", default, skip_serializing_if = "is_none")]
    pub unit: Option<f64>,
    #[serde(rename = "@action", default, skip_serializing_if = "is_none")]
    pub action: Option<ActionSpec>,
    #[serde(rename = "$value", default)]
    pub items: Vec<EventItem>,
}

/// Declared transitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DirectionSpec {
    Rising,
    Falling,
    Both,
}

/// What the event does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ActionSpec {
    Record,
    Stop,
    Reset,
}

/// The children of `<Event>`: the trigger (`<Linear>` or `<Function>`) and an optional `<Reset>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum EventItem {
    Linear(LinearEventSpec),
    Function(EventPluginSpec),
    Reset(EventPluginSpec),
}

/// `<Linear a="…" b="…"/>`: `g = a·s + b`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinearEventSpec {
    #[serde(rename = "@a")]
    pub a: String,
    #[serde(rename = "@b", default, skip_serializing_if = "is_none")]
    pub b: Option<f64>,
}

/// `<Function>` / `<Reset>`: a vector-field plugin function.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventPluginSpec {
    #[serde(rename = "@library")]
    pub library: String,
    #[serde(rename = "@function")]
    pub function: String,
    #[serde(rename = "@params", default, skip_serializing_if = "is_none")]
    pub params: Option<String>,
}
