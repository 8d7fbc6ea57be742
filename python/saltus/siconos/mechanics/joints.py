"""``siconos.mechanics.joints`` on Saltus: the joint classes Saltus has, as names for
``MechanicsHdf5Runner.add_joint(joint_class=...)``; stepping them directly from Python is not
supported (``saltus.mechanics.Scene.add_joint`` builds them)."""

from saltus.siconos._unsupported import module_getattr, unsupported

_WHY = "Saltus builds joints through MechanicsHdf5Runner.add_joint or saltus.mechanics.Scene.add_joint"
KneeJointR = unsupported("siconos.mechanics.joints.KneeJointR", _WHY)
PivotJointR = unsupported("siconos.mechanics.joints.PivotJointR", _WHY)
PrismaticJointR = unsupported("siconos.mechanics.joints.PrismaticJointR", _WHY)
CylindricalJointR = unsupported("siconos.mechanics.joints.CylindricalJointR", _WHY)
FixedJointR = unsupported("siconos.mechanics.joints.FixedJointR", _WHY)
CouplerJointR = unsupported("siconos.mechanics.joints.CouplerJointR",
                            "Saltus builds couplers through MechanicsHdf5Runner.add_joint(..., coupled=...) or "
                            "saltus.mechanics.Scene.add_joint_coupler")

__getattr__ = module_getattr("siconos.mechanics.joints")
