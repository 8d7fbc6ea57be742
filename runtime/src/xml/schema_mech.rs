//! DTOs of `<Mechanics>` (rigid bodies with collision detection) mirroring
//! `schemas/saltus-model.xsd`; re-exported by [`super::schema`]. Lists of numbers stay text until
//! [`super::convert_mech`] parses them with the element path in every error.
#![allow(missing_docs)] // the fields are the XML vocabulary, documented in the XSD.

use super::schema::is_none;
use saltus_mechanics::shape::{Primitive, PrimitiveDecl};
use serde::{de, ser, Deserialize, Serialize};

/// `<Mechanics gravity=".." margin="..">`: shapes, contact laws and bodies, in any order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MechanicsSpec {
    #[serde(rename = "@gravity", default, skip_serializing_if = "is_none")]
    pub gravity: Option<String>,
    #[serde(rename = "@margin")]
    pub margin: f64,
    #[serde(rename = "$value", default)]
    pub items: Vec<MechItem>,
}

/// One child of `<Mechanics>`: a shape, a contact law, a body or a joint. The primitive shapes
/// are the registered ones of `saltus_mechanics::shape` ([`Primitive::DECLS`]): their elements
/// and attributes come from the registration, so this type has no variant per primitive.
#[derive(Debug, Clone, PartialEq)]
pub enum MechItem {
    Primitive(PrimitiveSpec),
    Convex(PointListSpec),
    Mesh(MeshSpec),
    HalfSpace(HalfSpaceSpec),
    HeightMap(HeightMapSpec),
    ConvexPolygon(PointListSpec),
    NewtonImpactFrictionNSL(MechLawSpec),
    FremondImpactFrictionNSL(MechLawSpec),
    NewtonImpactRollingFrictionNSL(MechRollingLawSpec),
    RigidBody(RigidBodySpec),
    Joint(JointSpec),
    /// `<ContactHook library=".." function=".." params=".."/>`: the scene's contact hook from a
    /// plugin (see `convert_mech_loads::contact_hook`).
    ContactHook(BodyForceSpec),
}

/// The element names of the children of `<Mechanics>` other than the primitives, in the order
/// of [`MechItem`]'s variants.
const OTHER_ITEMS: [&str; 11] = [
    "Convex",
    "Mesh",
    "HalfSpace",
    "HeightMap",
    "ConvexPolygon",
    "NewtonImpactFrictionNSL",
    "FremondImpactFrictionNSL",
    "NewtonImpactRollingFrictionNSL",
    "RigidBody",
    "Joint",
    "ContactHook",
];

impl MechItem {
    /// The element name and the `name` attribute of a shape declaration (`None` for laws and
    /// bodies).
    pub fn shape_name(&self) -> Option<(&'static str, &str)> {
        Some(match self {
            MechItem::Primitive(s) => (s.decl.element, &s.name),
            MechItem::Convex(s) => ("Convex", &s.name),
            MechItem::Mesh(s) => ("Mesh", &s.name),
            MechItem::HalfSpace(s) => ("HalfSpace", &s.name),
            MechItem::HeightMap(s) => ("HeightMap", &s.name),
            MechItem::ConvexPolygon(s) => ("ConvexPolygon", &s.name),
            MechItem::NewtonImpactFrictionNSL(_)
            | MechItem::FremondImpactFrictionNSL(_)
            | MechItem::NewtonImpactRollingFrictionNSL(_)
            | MechItem::RigidBody(_)
            | MechItem::Joint(_)
            | MechItem::ContactHook(_) => return None,
        })
    }

    /// Every child element name of `<Mechanics>`: the registered primitives, then the others.
    pub fn element_names() -> &'static [&'static str] {
        static NAMES: std::sync::LazyLock<Vec<&'static str>> =
            std::sync::LazyLock::new(|| Primitive::DECLS.iter().map(|d| d.element).chain(OTHER_ITEMS).collect());
        &NAMES
    }
}

/// A registered primitive shape element, `<Sphere name=".." radius=".."/>`: its declaration,
/// its name and the text of each parameter's attribute (in the declaration's order; numbers are
/// read by [`super::convert_mech`], with the element path in every error).
#[derive(Debug, Clone)]
pub struct PrimitiveSpec {
    pub decl: &'static PrimitiveDecl,
    pub name: String,
    pub values: Vec<String>,
}

impl PartialEq for PrimitiveSpec {
    fn eq(&self, other: &Self) -> bool {
        (self.decl.element, &self.name, &self.values) == (other.decl.element, &other.name, &other.values)
    }
}

impl<'de> Deserialize<'de> for MechItem {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_enum("MechItem", MechItem::element_names(), ItemVisitor)
    }
}

struct ItemVisitor;

impl<'de> de::Visitor<'de> for ItemVisitor {
    type Value = MechItem;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a shape, a contact law, a body or a joint")
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<MechItem, A::Error> {
        use de::VariantAccess;
        let (tag, v): (String, _) = data.variant()?;
        if let Some(decl) = Primitive::DECLS.iter().find(|d| d.element == tag) {
            return v.newtype_variant_seed(PrimitiveSeed(decl)).map(MechItem::Primitive);
        }
        Ok(match tag.as_str() {
            "Convex" => MechItem::Convex(v.newtype_variant()?),
            "Mesh" => MechItem::Mesh(v.newtype_variant()?),
            "HalfSpace" => MechItem::HalfSpace(v.newtype_variant()?),
            "HeightMap" => MechItem::HeightMap(v.newtype_variant()?),
            "ConvexPolygon" => MechItem::ConvexPolygon(v.newtype_variant()?),
            "NewtonImpactFrictionNSL" => MechItem::NewtonImpactFrictionNSL(v.newtype_variant()?),
            "FremondImpactFrictionNSL" => MechItem::FremondImpactFrictionNSL(v.newtype_variant()?),
            "NewtonImpactRollingFrictionNSL" => MechItem::NewtonImpactRollingFrictionNSL(v.newtype_variant()?),
            "RigidBody" => MechItem::RigidBody(v.newtype_variant()?),
            "Joint" => MechItem::Joint(v.newtype_variant()?),
            "ContactHook" => MechItem::ContactHook(v.newtype_variant()?),
            other => return Err(de::Error::unknown_variant(other, MechItem::element_names())),
        })
    }
}

/// Reads the attributes of a primitive's element: `name` and each declared parameter, exactly.
struct PrimitiveSeed(&'static PrimitiveDecl);

impl<'de> de::DeserializeSeed<'de> for PrimitiveSeed {
    type Value = PrimitiveSpec;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<PrimitiveSpec, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> de::Visitor<'de> for PrimitiveSeed {
    type Value = PrimitiveSpec;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "the attributes of <{}>", self.0.element)
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<PrimitiveSpec, A::Error> {
        let decl = self.0;
        let mut name = None;
        let mut values: Vec<Option<String>> = vec![None; decl.params.len()];
        while let Some(key) = map.next_key::<String>()? {
            let attr = key.strip_prefix('@').unwrap_or(&key);
            let slot = match decl.params.iter().position(|p| p.attr == attr) {
                Some(i) if key.starts_with('@') => &mut values[i],
                _ if key == "@name" => &mut name,
                _ => return Err(de::Error::unknown_field(&key, &[])),
            };
            if slot.is_some() {
                return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
            }
            *slot = Some(map.next_value::<String>()?);
        }
        let name = name.ok_or_else(|| de::Error::custom("missing field `@name`"))?;
        let values = values
            .into_iter()
            .zip(decl.params)
            .map(|(v, p)| v.ok_or_else(|| de::Error::custom(format_args!("missing field `@{}`", p.attr))))
            .collect::<Result<_, _>>()?;
        Ok(PrimitiveSpec { decl, name, values })
    }
}

impl Serialize for MechItem {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let other = |k: usize| (Primitive::DECLS.len() + k) as u32;
        match self {
            MechItem::Primitive(p) => {
                let k = Primitive::DECLS.iter().position(|d| d.element == p.decl.element).unwrap_or(0) as u32;
                s.serialize_newtype_variant("MechItem", k, p.decl.element, p)
            }
            MechItem::Convex(x) => s.serialize_newtype_variant("MechItem", other(0), OTHER_ITEMS[0], x),
            MechItem::Mesh(x) => s.serialize_newtype_variant("MechItem", other(1), OTHER_ITEMS[1], x),
            MechItem::HalfSpace(x) => s.serialize_newtype_variant("MechItem", other(2), OTHER_ITEMS[2], x),
            MechItem::HeightMap(x) => s.serialize_newtype_variant("MechItem", other(3), OTHER_ITEMS[3], x),
            MechItem::ConvexPolygon(x) => s.serialize_newtype_variant("MechItem", other(4), OTHER_ITEMS[4], x),
            MechItem::NewtonImpactFrictionNSL(x) => {
                s.serialize_newtype_variant("MechItem", other(5), OTHER_ITEMS[5], x)
            }
            MechItem::FremondImpactFrictionNSL(x) => {
                s.serialize_newtype_variant("MechItem", other(6), OTHER_ITEMS[6], x)
            }
            MechItem::NewtonImpactRollingFrictionNSL(x) => {
                s.serialize_newtype_variant("MechItem", other(7), OTHER_ITEMS[7], x)
            }
            MechItem::RigidBody(x) => s.serialize_newtype_variant("MechItem", other(8), OTHER_ITEMS[8], x),
            MechItem::Joint(x) => s.serialize_newtype_variant("MechItem", other(9), OTHER_ITEMS[9], x),
            MechItem::ContactHook(x) => s.serialize_newtype_variant("MechItem", other(10), OTHER_ITEMS[10], x),
        }
    }
}

/// The attributes `name` and the parameters, as a map of `@`-keys (attributes for quick-xml).
impl Serialize for PrimitiveSpec {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use ser::SerializeMap;
        let mut m = s.serialize_map(Some(1 + self.values.len()))?;
        m.serialize_entry("@name", &self.name)?;
        for (p, v) in self.decl.params.iter().zip(&self.values) {
            m.serialize_entry(&format!("@{}", p.attr), v)?;
        }
        m.end()
    }
}

/// `<Convex name="..">x y z ...</Convex>` (or `file="..."`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PointListSpec {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@file", default, skip_serializing_if = "is_none")]
    pub file: Option<String>,
    #[serde(rename = "@scale", default, skip_serializing_if = "is_none")]
    pub scale: Option<f64>,
    #[serde(rename = "$text", default, skip_serializing_if = "is_none")]
    pub text: Option<String>,
}

/// Numbers inline (row-major) or from a file.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataMatrixSpec {
    #[serde(rename = "@rows", default, skip_serializing_if = "is_none")]
    pub rows: Option<usize>,
    #[serde(rename = "@cols", default, skip_serializing_if = "is_none")]
    pub cols: Option<usize>,
    #[serde(rename = "@file", default, skip_serializing_if = "is_none")]
    pub file: Option<String>,
    #[serde(rename = "$text", default, skip_serializing_if = "is_none")]
    pub text: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshSpec {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@file", default, skip_serializing_if = "is_none")]
    pub file: Option<String>,
    #[serde(rename = "@scale", default, skip_serializing_if = "is_none")]
    pub scale: Option<f64>,
    #[serde(default, skip_serializing_if = "is_none")]
    pub vertices: Option<DataMatrixSpec>,
    #[serde(default, skip_serializing_if = "is_none")]
    pub triangles: Option<DataMatrixSpec>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HalfSpaceSpec {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@normal")]
    pub normal: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeightMapSpec {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@size")]
    pub size: String,
    pub heights: DataMatrixSpec,
}

/// `<NewtonImpactFrictionNSL en et mu group1 group2>` of `<Mechanics>`, and
/// `<FremondImpactFrictionNSL en mu group1 group2>` (no `et` in the schema).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MechLawSpec {
    #[serde(rename = "@en")]
    pub en: f64,
    #[serde(rename = "@et", default, skip_serializing_if = "is_none")]
    pub et: Option<f64>,
    #[serde(rename = "@mu")]
    pub mu: f64,
    #[serde(rename = "@group1", default, skip_serializing_if = "is_none")]
    pub group1: Option<u32>,
    #[serde(rename = "@group2", default, skip_serializing_if = "is_none")]
    pub group2: Option<u32>,
}

/// `<NewtonImpactRollingFrictionNSL en et mu mu_r group1 group2>` of `<Mechanics>` (Siconos
/// `NewtonImpactRollingFrictionNSL`: Coulomb friction plus the rolling resistance `μ_r`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MechRollingLawSpec {
    #[serde(rename = "@en")]
    pub en: f64,
    #[serde(rename = "@et", default, skip_serializing_if = "is_none")]
    pub et: Option<f64>,
    #[serde(rename = "@mu")]
    pub mu: f64,
    #[serde(rename = "@mu_r")]
    pub mu_r: f64,
    #[serde(rename = "@group1", default, skip_serializing_if = "is_none")]
    pub group1: Option<u32>,
    #[serde(rename = "@group2", default, skip_serializing_if = "is_none")]
    pub group2: Option<u32>,
}

/// `kind` of a rigid body (read from the attribute's text by [`BodyKindSpec::parse`], so that a
/// wrong word gets a message naming the allowed ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKindSpec {
    Dynamic,
    Static,
    Kinematic,
}

impl BodyKindSpec {
    /// `dynamic`, `static` or `kinematic`.
    pub fn parse(s: &str) -> Result<BodyKindSpec, String> {
        match s {
            "dynamic" => Ok(BodyKindSpec::Dynamic),
            "static" => Ok(BodyKindSpec::Static),
            "kinematic" => Ok(BodyKindSpec::Kinematic),
            _ => Err(format!("`kind` must be dynamic, static or kinematic, got `{s}`")),
        }
    }
}

/// `<RigidBody>` (Siconos `add_object`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RigidBodySpec {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@kind", default, skip_serializing_if = "is_none")]
    pub kind: Option<String>,
    #[serde(rename = "@group", default, skip_serializing_if = "is_none")]
    pub group: Option<u32>,
    #[serde(rename = "@mass", default, skip_serializing_if = "is_none")]
    pub mass: Option<f64>,
    #[serde(rename = "@inertia", default, skip_serializing_if = "is_none")]
    pub inertia: Option<String>,
    #[serde(rename = "@density", default, skip_serializing_if = "is_none")]
    pub density: Option<f64>,
    #[serde(rename = "@translation", default, skip_serializing_if = "is_none")]
    pub translation: Option<String>,
    #[serde(rename = "@orientation", default, skip_serializing_if = "is_none")]
    pub orientation: Option<String>,
    #[serde(rename = "@velocity", default, skip_serializing_if = "is_none")]
    pub velocity: Option<String>,
    #[serde(rename = "@force", default, skip_serializing_if = "is_none")]
    pub force: Option<String>,
    #[serde(rename = "@torque", default, skip_serializing_if = "is_none")]
    pub torque: Option<String>,
    #[serde(rename = "@birth", default, skip_serializing_if = "is_none")]
    pub birth: Option<f64>,
    #[serde(rename = "@death", default, skip_serializing_if = "is_none")]
    pub death: Option<f64>,
    #[serde(rename = "Contactor")]
    pub contactors: Vec<ContactorSpec>,
    #[serde(rename = "Oscillation", default, skip_serializing_if = "is_none")]
    pub oscillation: Option<OscillationSpec>,
    #[serde(rename = "ExternalForce", default, skip_serializing_if = "is_none")]
    pub external_force: Option<Box<BodyForceSpec>>,
    #[serde(rename = "BoundaryCondition", default, skip_serializing_if = "is_none")]
    pub boundary_condition: Option<Box<BoundaryConditionSpec>>,
}

/// `<ExternalForce library=".." function=".." params=".."/>`: a user force and torque of
/// `(t, pose, twist)`, and `<ContactHook>`'s plugin function (see `convert_mech_loads`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyForceSpec {
    #[serde(rename = "@library")]
    pub library: String,
    #[serde(rename = "@function")]
    pub function: String,
    #[serde(rename = "@params", default, skip_serializing_if = "is_none")]
    pub params: Option<String>,
}

/// `<BoundaryCondition indices=".." type="FixedBC|BoundaryCondition|HarmonicBC|Function" ../>`:
/// prescribed velocity of some twist components (see `convert_mech_loads`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundaryConditionSpec {
    #[serde(rename = "@indices")]
    pub indices: String,
    #[serde(rename = "@type")]
    pub kind: String,
    #[serde(rename = "@velocity", default, skip_serializing_if = "is_none")]
    pub velocity: Option<String>,
    #[serde(rename = "@a", default, skip_serializing_if = "is_none")]
    pub a: Option<String>,
    #[serde(rename = "@b", default, skip_serializing_if = "is_none")]
    pub b: Option<String>,
    #[serde(rename = "@omega", default, skip_serializing_if = "is_none")]
    pub omega: Option<String>,
    #[serde(rename = "@phi", default, skip_serializing_if = "is_none")]
    pub phi: Option<String>,
    #[serde(rename = "@library", default, skip_serializing_if = "is_none")]
    pub library: Option<String>,
    #[serde(rename = "@function", default, skip_serializing_if = "is_none")]
    pub function: Option<String>,
    #[serde(rename = "@params", default, skip_serializing_if = "is_none")]
    pub params: Option<String>,
}

/// `<Contactor shape=".." translation=".." orientation=".."/>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContactorSpec {
    #[serde(rename = "@shape")]
    pub shape: String,
    #[serde(rename = "@translation", default, skip_serializing_if = "is_none")]
    pub translation: Option<String>,
    #[serde(rename = "@orientation", default, skip_serializing_if = "is_none")]
    pub orientation: Option<String>,
    /// Collision group of this contactor (default: the body's `group`).
    #[serde(rename = "@group", default, skip_serializing_if = "is_none")]
    pub group: Option<u32>,
}

/// `<Oscillation amplitude=".." frequency=".." phase=".."/>` of a kinematic body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OscillationSpec {
    #[serde(rename = "@amplitude")]
    pub amplitude: String,
    #[serde(rename = "@frequency")]
    pub frequency: f64,
    #[serde(rename = "@phase", default, skip_serializing_if = "is_none")]
    pub phase: Option<f64>,
}

/// `<Joint name=".." type="PivotJointR" body1=".." body2=".." point=".." axis=".."/>` (Siconos
/// `mechanics.joints`; `body2` absent: the world). Point and axis in the world frame at the
/// initial poses. Children: `<JointStopR>` and `<JointFrictionR>` on a coordinate of the joint,
/// `<CouplerJointR>` tying a coordinate of the joint to one of another joint (or its own).
/// `allow_self_collide="true"`: the two bodies still collide.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JointSpec {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@type")]
    pub kind: String,
    #[serde(rename = "@body1")]
    pub body1: String,
    #[serde(rename = "@body2", default, skip_serializing_if = "is_none")]
    pub body2: Option<String>,
    #[serde(rename = "@point", default, skip_serializing_if = "is_none")]
    pub point: Option<String>,
    #[serde(rename = "@axis", default, skip_serializing_if = "is_none")]
    pub axis: Option<String>,
    /// `true`: the two bodies collide with each other (Siconos `allow_self_collide`); default
    /// `false`, jointed bodies do not collide.
    #[serde(rename = "@allow_self_collide", default, skip_serializing_if = "is_none")]
    pub allow_self_collide: Option<bool>,
    #[serde(rename = "$value", default, skip_serializing_if = "Vec::is_empty")]
    pub limits: Vec<JointLimitSpec>,
}

/// One child of `<Joint>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum JointLimitSpec {
    JointStopR(JointStopSpec),
    JointFrictionR(JointFrictionSpec),
    CouplerJointR(CouplerSpec),
}

/// `<CouplerJointR dof1=".." dof2=".." ratio=".." joint1=".."/>` (Siconos `CouplerJointR`):
/// coordinate `dof2` of the enclosing joint equals `ratio` times coordinate `dof1` of `joint1`
/// (default: the enclosing joint, e.g. a screw), plus its value at the initial poses; the first
/// bodies of the two joints no longer collide unless `allow_self_collide="true"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CouplerSpec {
    #[serde(rename = "@joint1", default, skip_serializing_if = "is_none")]
    pub joint1: Option<String>,
    #[serde(rename = "@dof1", default, skip_serializing_if = "is_none")]
    pub dof1: Option<usize>,
    #[serde(rename = "@dof2", default, skip_serializing_if = "is_none")]
    pub dof2: Option<usize>,
    #[serde(rename = "@ratio")]
    pub ratio: f64,
    /// `true`: the first bodies of the two joints still collide (Siconos `allow_self_collide`);
    /// default `false`, the coupler keeps them apart as a joint does.
    #[serde(rename = "@allow_self_collide", default, skip_serializing_if = "is_none")]
    pub allow_self_collide: Option<bool>,
}

/// `<JointStopR dof=".." lower=".." upper=".." e=".."/>` (Siconos `JointStopR`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JointStopSpec {
    #[serde(rename = "@dof", default, skip_serializing_if = "is_none")]
    pub dof: Option<usize>,
    #[serde(rename = "@lower", default, skip_serializing_if = "is_none")]
    pub lower: Option<f64>,
    #[serde(rename = "@upper", default, skip_serializing_if = "is_none")]
    pub upper: Option<f64>,
    #[serde(rename = "@e", default, skip_serializing_if = "is_none")]
    pub e: Option<f64>,
}

/// `<JointFrictionR dof=".." max=".."/>` (Siconos `JointFrictionR`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JointFrictionSpec {
    #[serde(rename = "@dof", default, skip_serializing_if = "is_none")]
    pub dof: Option<usize>,
    #[serde(rename = "@max")]
    pub max: f64,
}
