"""``siconos.mechanics.collision.bullet`` on Saltus: ``SiconosBulletOptions`` is accepted as an
options record (Saltus's collision detection is parry3d, not Bullet; ``MechanicsHdf5Runner``
reads the fields it maps, e.g. the contact margin), and ``SiconosBulletCollisionManager`` is the
interaction manager a kernel-level ``TimeStepping`` of ``RigidBodyDS`` bodies inserts: its laws
between collision groups, its static bodies, its statistics and queries, over parry's collision
detection in Saltus's mechanics engine. Bullet's own classes (``BulletR``, the collision world)
are not provided."""

from saltus.siconos._unsupported import module_getattr
from saltus.siconos.io._hooks import CollisionQueries

SICONOS_BULLET_3D = 0
SICONOS_BULLET_2D = 1


class SiconosBulletOptions:
    """Siconos's Bullet options as a plain record with Siconos 4.4's defaults."""

    def __init__(self):
        self.dimension = SICONOS_BULLET_3D
        self.contactBreakingThreshold = 0.02
        self.contactProcessingThreshold = 0.03
        self.worldScale = 1.0
        self.useAxisSweep3 = False
        self.clearOverlappingPairCache = False
        self.perturbationIterations = 3
        self.minimumPointsPerturbationThreshold = 3
        self.enableSatConvex = False
        self.enablePolyhedralContactClipping = False
        self.Depth2D = 0.1


class _Statistics:
    """Siconos's ``SiconosCollisionManager::statistics()`` of the last step: the contacts the
    detection found (``new_interactions_created`` counts them all: Saltus keeps no Siconos
    interactions between steps)."""

    def __init__(self, n_contacts: int = 0):
        self.new_interactions_created = int(n_contacts)
        self.existing_interactions_processed = 0
        self.interaction_warnings = 0


class SiconosBulletCollisionManager(CollisionQueries):
    """Siconos ``SiconosBulletCollisionManager(options=None)``: the laws between collision
    groups (``insertNonSmoothLaw(law, group1, group2)``, a ``NewtonImpactFrictionNSL``), the
    static bodies (``addStaticBody(contactors, offset)``), and after each step ``statistics()``
    and the geometric queries (``lineIntersectionQuery``, ``inSphereQuery``, ``inBoxQuery``:
    ``body`` is the ``RigidBodyDS``, ``None`` for a static body). The collision margin is the
    options' ``contactBreakingThreshold × worldScale``."""

    def __init__(self, options=None):
        self.options = SiconosBulletOptions() if options is None else options
        self.laws = []
        self.statics = []
        self._core = None

    def insertNonSmoothLaw(self, nslaw, group1: int, group2: int) -> None:
        self.laws.append((nslaw, int(group1), int(group2)))

    def addStaticBody(self, contactors, offset=None, number: int = 0):
        from ._bodies import SiconosContactorSet

        pose = (0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0) if offset is None else tuple(float(x) for x in offset)
        self.statics.append((SiconosContactorSet(contactors), pose))
        return len(self.statics) - 1

    def statistics(self) -> _Statistics:
        core = self._core
        return _Statistics(0 if core is None or core.last is None else len(core.last["gap"]))

    def _query_sim(self):
        if self._core is None:
            raise RuntimeError("SiconosBulletCollisionManager: the queries need a built simulation")
        return self._core.sim

    def _query_body(self, index: int):
        return self._core.system_of(index)


def cast_BulletR(relation):
    """Siconos ``cast_BulletR``: the ``BulletR`` view of a run hook's contact (``_nsds.interaction(k)
    .relation()``)."""
    from saltus.siconos.io._hooks import BulletRView

    if not isinstance(relation, BulletRView):
        raise TypeError(f"cast_BulletR: a contact's relation, got {type(relation).__name__}")
    return relation


__getattr__ = module_getattr("siconos.mechanics.collision.bullet")
