"""``siconos.mechanics.joints`` on Saltus: the joint classes Saltus has, as names for
``MechanicsHdf5Runner.add_joint(joint_class=...)``; stepping them directly from Python is not
supported (``saltus.mechanics.Scene.add_joint`` builds them). The ``cast_*`` functions return the
joints that a ``MechanicsHdf5Runner.run(controller=...)`` reaches (see ``io/_controller.py``)."""

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



def _cast(kind: str):
    def cast(relation):
        from saltus.siconos.io._controller import LiveJoint

        if not isinstance(relation, LiveJoint):
            unsupported(f"siconos.mechanics.joints.cast_{kind} of {type(relation).__name__}",
                        "joints of a running MechanicsHdf5Runner controller (topology().getInteraction(name)"
                        ".relation()) only")()
        return relation

    cast.__name__ = f"cast_{kind}"
    cast.__doc__ = (f"Siconos ``cast_{kind}``: the joint of a ``MechanicsHdf5Runner.run(controller=...)`` "
                    "(``io._nsds.topology().getInteraction(name).relation()``) as it is.")
    return cast


cast_NewtonEulerJointR = _cast("NewtonEulerJointR")
cast_KneeJointR = _cast("KneeJointR")
cast_PivotJointR = _cast("PivotJointR")
cast_PrismaticJointR = _cast("PrismaticJointR")
cast_CylindricalJointR = _cast("CylindricalJointR")
cast_FixedJointR = _cast("FixedJointR")

__getattr__ = module_getattr("siconos.mechanics.joints")
