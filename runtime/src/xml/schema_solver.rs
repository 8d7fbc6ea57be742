//! Solver elements read from the solvers' declarations in `numerics` instead of mirror DTOs:
//! `<FrictionContact>`'s solver (`<NsgsAc tol=".." …/>`, one element per
//! [`fc::FC_SOLVERS`] entry, its attributes the options' [`SetByName::NAMES`]) and
//! `<GlobalFrictionContact>`'s (`<NsgsWr>`, `<Nsgs>`: NSGS's options) and the LCP solvers of
//! `<LCP>` and of event driven's impact and acceleration problems ([`lcp::LCP_SOLVERS`]). The
//! attributes are kept as
//! text, checked against the declaration while reading (an unknown one is reported on its
//! element), and set on the solver's typed options by [`super::convert_fc`].

use saltus_numerics::by_name::SetByName;
use saltus_numerics::fc::{self, NsgsOptions};
use saltus_numerics::lcp;
use serde::{de, ser, Deserialize, Serialize};
use std::sync::LazyLock;

/// A solver element as written: its name and its attributes, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct SolverSpec {
    /// The element name (`NsgsAc`).
    pub element: &'static str,
    /// The attributes as written: name (no `@`) and text.
    pub attributes: Vec<(String, String)>,
}

impl SolverSpec {
    /// XML element name.
    pub fn kind_name(&self) -> &'static str {
        self.element
    }
}

/// The elements of a family of solvers and the attributes each takes.
struct Family {
    what: &'static str,
    elements: Vec<(&'static str, &'static [&'static str])>,
    names: Vec<&'static str>,
}

impl Family {
    fn new(what: &'static str, elements: Vec<(&'static str, &'static [&'static str])>) -> Family {
        let names = elements.iter().map(|e| e.0).collect();
        Family { what, elements, names }
    }
}

static FC: LazyLock<Family> = LazyLock::new(|| {
    Family::new("a friction-contact solver", fc::FC_SOLVERS.iter().map(|d| (d.element, d.options)).collect())
});

static GFC: LazyLock<Family> = LazyLock::new(|| {
    Family::new("a global friction-contact solver", vec![("NsgsWr", NsgsOptions::NAMES), ("Nsgs", NsgsOptions::NAMES)])
});

static LCP: LazyLock<Family> =
    LazyLock::new(|| Family::new("an LCP solver", lcp::LCP_SOLVERS.iter().map(|d| (d.element, d.options)).collect()));

/// The solver element of an LCP (`<LCP>`, `<ImpactProblem>`, `<AccelerationProblem>`).
#[derive(Debug, Clone, PartialEq)]
pub struct LcpSolverSpec(pub SolverSpec);

impl std::ops::Deref for LcpSolverSpec {
    type Target = SolverSpec;
    fn deref(&self) -> &SolverSpec {
        &self.0
    }
}

impl<'de> Deserialize<'de> for LcpSolverSpec {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_in(d, &LCP).map(LcpSolverSpec)
    }
}

impl Serialize for LcpSolverSpec {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_in(s, &self.0, &LCP)
    }
}

/// The solver element of `<FrictionContact>`.
#[derive(Debug, Clone, PartialEq)]
pub struct FcSolverSpec(pub SolverSpec);

/// The solver element of `<GlobalFrictionContact>`.
#[derive(Debug, Clone, PartialEq)]
pub struct GfcSolverSpec(pub SolverSpec);

impl std::ops::Deref for FcSolverSpec {
    type Target = SolverSpec;
    fn deref(&self) -> &SolverSpec {
        &self.0
    }
}

impl std::ops::Deref for GfcSolverSpec {
    type Target = SolverSpec;
    fn deref(&self) -> &SolverSpec {
        &self.0
    }
}

/// Reads one solver element of `family`.
struct ElementVisitor(&'static Family);

impl<'de> de::Visitor<'de> for ElementVisitor {
    type Value = SolverSpec;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.0.what)
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<SolverSpec, A::Error> {
        use de::VariantAccess;
        let (tag, v): (String, _) = data.variant()?;
        let Some(&(element, names)) = self.0.elements.iter().find(|e| e.0 == tag) else {
            return Err(de::Error::unknown_variant(&tag, &self.0.names));
        };
        let attributes = v.newtype_variant_seed(Attributes(names))?;
        Ok(SolverSpec { element, attributes })
    }
}

/// Reads the attributes of a solver element: each one of `names`, at most once.
struct Attributes(&'static [&'static str]);

impl<'de> de::DeserializeSeed<'de> for Attributes {
    type Value = Vec<(String, String)>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> de::Visitor<'de> for Attributes {
    type Value = Vec<(String, String)>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("the solver's options as attributes")
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out: Vec<(String, String)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let name = match key.strip_prefix('@') {
                Some(n) if self.0.contains(&n) => n.to_string(),
                _ => return Err(de::Error::unknown_field(&key, &[])),
            };
            if out.iter().any(|(k, _)| *k == name) {
                return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
            }
            out.push((name, map.next_value::<String>()?));
        }
        Ok(out)
    }
}

fn deserialize_in<'de, D: de::Deserializer<'de>>(d: D, family: &'static Family) -> Result<SolverSpec, D::Error> {
    d.deserialize_enum("Solver", &family.names, ElementVisitor(family))
}

impl<'de> Deserialize<'de> for FcSolverSpec {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_in(d, &FC).map(FcSolverSpec)
    }
}

impl<'de> Deserialize<'de> for GfcSolverSpec {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_in(d, &GFC).map(GfcSolverSpec)
    }
}

/// The element with its attributes (`@`-keys: attributes for quick-xml).
fn serialize_in<S: ser::Serializer>(s: S, spec: &SolverSpec, family: &Family) -> Result<S::Ok, S::Error> {
    let k = family.names.iter().position(|n| *n == spec.element).unwrap_or(0) as u32;
    s.serialize_newtype_variant("Solver", k, spec.element, &AttributeMap(&spec.attributes))
}

struct AttributeMap<'a>(&'a [(String, String)]);

impl Serialize for AttributeMap<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(&format!("@{k}"), v)?;
        }
        m.end()
    }
}

impl Serialize for FcSolverSpec {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_in(s, &self.0, &FC)
    }
}

impl Serialize for GfcSolverSpec {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_in(s, &self.0, &GFC)
    }
}
