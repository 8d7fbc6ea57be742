//! Solver elements read from the solvers' declarations in `numerics` instead of mirror DTOs:
//! `<FrictionContact>`'s solver (`<NsgsAc tol=".." …/>`, one element per
//! [`fc::FC_SOLVERS`] entry, its attributes the options' [`SetByName::NAMES`]),
//! `<GlobalFrictionContact>`'s (`<NsgsWr>`, `<Nsgs>`: NSGS's options), the LCP solvers of
//! `<LCP>` and of event driven's impact and acceleration problems ([`lcp::LCP_SOLVERS`]), and
//! those of `<Relay>`, `<AVI>`, `<MLCP>` and `<GenericMechanical>` ([`relay::RELAY_SOLVERS`],
//! [`avi::AVI_SOLVERS`], [`mlcp::MLCP_SOLVERS`], [`gmp::GMP_SOLVERS`]). The attributes are kept
//! as text, checked against the declaration while reading (an unknown one is reported on its
//! element), and set on the solver's typed options by [`super::convert_fc`].

use saltus_numerics::by_name::SetByName;
use saltus_numerics::by_name::SolverDecl;
use saltus_numerics::fc::{self, NsgsOptions};
use saltus_numerics::{avi, gmp, lcp, mlcp, relay};
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
    /// The text of the attribute `name`, when written.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
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

    fn of(what: &'static str, decls: &'static [SolverDecl]) -> Family {
        Family::new(what, decls.iter().map(|d| (d.element, d.options)).collect())
    }
}

static FC: LazyLock<Family> = LazyLock::new(|| {
    Family::new("a friction-contact solver", fc::FC_SOLVERS.iter().map(|d| (d.element, d.options)).collect())
});

static GFC: LazyLock<Family> = LazyLock::new(|| {
    Family::new("a global friction-contact solver", GFC_ELEMENTS.iter().map(|e| (e.0, NsgsOptions::NAMES)).collect())
});

static LCP: LazyLock<Family> = LazyLock::new(|| Family::of("an LCP solver", lcp::LCP_SOLVERS));
static RELAY: LazyLock<Family> = LazyLock::new(|| Family::of("a relay solver", relay::RELAY_SOLVERS));
static AVI: LazyLock<Family> = LazyLock::new(|| Family::of("an AVI solver", avi::AVI_SOLVERS));
static MLCP: LazyLock<Family> = LazyLock::new(|| Family::of("an MLCP solver", mlcp::MLCP_SOLVERS));
static GMP: LazyLock<Family> = LazyLock::new(|| Family::of("a generic mechanical solver", gmp::GMP_SOLVERS));

/// A solver element of the model files, as the declarations give it: the problem element it is
/// a child of, its name, what it does and the attributes it takes (its options' names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolverElement {
    /// The one-step problem element (`LCP`; the LCP solvers are also the children of
    /// `<ImpactProblem>` and `<AccelerationProblem>`).
    pub problem: &'static str,
    /// The solver element (`Lemke`).
    pub element: &'static str,
    /// One line.
    pub description: &'static str,
    /// Its attributes.
    pub options: &'static [&'static str],
}

/// The global friction-contact problem's solver elements (NSGS's options, two assemblies).
const GFC_ELEMENTS: [(&str, &str); 2] = [
    ("NsgsWr", "condense W = H^T M^-1 H, then NSGS with the Alart-Curnier local solver (Siconos GFC3D_NSGS_WR)"),
    ("Nsgs", "NSGS on the global problem without forming W (Siconos GFC3D_NSGS)"),
];

/// Every solver element of the model files, problem by problem, in declaration order: what
/// `saltus solvers --elements` lists and Python's problem classes document and check.
pub fn solver_elements() -> Vec<SolverElement> {
    let of = |problem: &'static str, decls: &'static [SolverDecl]| {
        decls.iter().map(move |d| SolverElement {
            problem,
            element: d.element,
            description: d.description,
            options: d.options,
        })
    };
    let fc = fc::FC_SOLVERS.iter().map(|d| SolverElement {
        problem: "FrictionContact",
        element: d.element,
        description: d.description,
        options: d.options,
    });
    let gfc = GFC_ELEMENTS.iter().map(|&(element, description)| SolverElement {
        problem: "GlobalFrictionContact",
        element,
        description,
        options: NsgsOptions::NAMES,
    });
    of("LCP", lcp::LCP_SOLVERS)
        .chain(of("MLCP", mlcp::MLCP_SOLVERS))
        .chain(of("Relay", relay::RELAY_SOLVERS))
        .chain(of("AVI", avi::AVI_SOLVERS))
        .chain(fc)
        .chain(gfc)
        .chain(of("GenericMechanical", gmp::GMP_SOLVERS))
        .collect()
}

/// A solver element of one family: `$spec(SolverSpec)`, read and written against `$family`.
macro_rules! solver_spec {
    ($($(#[$m:meta])* $spec:ident => $family:ident;)*) => {$(
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $spec(pub SolverSpec);

        impl std::ops::Deref for $spec {
            type Target = SolverSpec;
            fn deref(&self) -> &SolverSpec {
                &self.0
            }
        }

        impl<'de> Deserialize<'de> for $spec {
            fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                deserialize_in(d, &$family).map($spec)
            }
        }

        impl Serialize for $spec {
            fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                serialize_in(s, &self.0, &$family)
            }
        }
    )*};
}

solver_spec! {
    /// The solver element of `<FrictionContact>`.
    FcSolverSpec => FC;
    /// The solver element of `<GlobalFrictionContact>`.
    GfcSolverSpec => GFC;
    /// The solver element of an LCP (`<LCP>`, `<ImpactProblem>`, `<AccelerationProblem>`).
    LcpSolverSpec => LCP;
    /// The solver element of `<Relay>`.
    RelaySolverSpec => RELAY;
    /// The solver element of `<AVI>`.
    AviSolverSpec => AVI;
    /// The solver element of `<MLCP>`.
    MlcpSolverSpec => MLCP;
    /// The solver element of `<GenericMechanical>`.
    GmpSolverSpec => GMP;
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
