"""``siconos.mechanics.collision.bullet`` on Saltus: ``SiconosBulletOptions`` is accepted as an
options record (Saltus's collision detection is parry3d, not Bullet; ``MechanicsHdf5Runner``
reads the fields it maps, e.g. the contact margin), and ``SiconosBulletCollisionManager`` is the
interaction manager a kernel-level ``TimeStepping`` of ``RigidBodyDS`` bodies inserts: its laws
between collision groups, its static bodies, its statistics and queries, over parry's collision
detection in Saltus's mechanics engine. ``BulletR`` is the contact relation a manager subclass
makes in ``makeBulletR``: subclassing it and overriding ``updateContactPointsFromManifoldPoint``
changes the contact normals (``setRelNc``), through Saltus's contact hook. Bullet's own classes
(manifolds, the collision world) are not provided."""

import numpy as np

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

    def makeBulletR(self, ds1, shape1, ds2, shape2, manifoldpoint, flip=False, y_correction_A=0, y_correction_B=0,
                    scaling=1):
        """The relation of a new contact (Siconos's factory): a ``BulletR``; a subclass returns its
        own ``BulletR`` subclass to change the contact normals."""
        return BulletR()


class BulletR:
    """Siconos ``BulletR``: a contact relation made by the manager's ``makeBulletR`` for each new
    contact and kept while the contact lasts. Each step the manager calls
    ``updateContactPointsFromManifoldPoint(manifold, point, flip, scaling, ds1, ds2)``, which sets
    the detected normal (``relNc``, from ``ds2`` towards ``ds1``: in ``ds2``'s frame when ``ds2`` is
    a body, in the world frame otherwise); a subclass may then change it with ``setRelNc``, and
    the step uses the normal it leaves. ``ds1`` is the moving body (its ``velocity()`` is its
    twist, ``q()`` its pose), ``ds2`` the other one or ``None`` for a static object; ``manifold``
    and ``point`` (Bullet's) are ``None``."""

    def __init__(self, *args, **kwargs):
        self._detected = np.array([0.0, 0.0, 1.0])
        self._rel = self._detected.copy()
        self._contact = None

    def updateContactPointsFromManifoldPoint(self, manifold, point, flip=False, scaling=1.0, ds1=None, ds2=None):
        self._rel = self._detected.copy()

    def relNc(self) -> np.ndarray:
        return self._rel.copy()

    def setRelNc(self, n) -> None:
        self._rel = np.asarray(n, dtype=float).reshape(3).copy()

    def contactDistance(self) -> float:
        return float(self._contact["gap"]) if self._contact is not None else 0.0

    def preDelete(self) -> None:
        """Called when the contact is gone (Siconos: before the interaction is removed)."""


class _Body:
    """The ``ds1``/``ds2`` a ``BulletR`` sees: a body's twist (``velocity()``: v world, ω body)
    and pose (``q()``: x, y, z, qw, qx, qy, qz) at the step's start."""

    def __init__(self, name: str, x):
        self._name, self._x = name, np.asarray(x, dtype=float)

    def velocity(self) -> np.ndarray:
        return self._x[7:13].copy()

    def q(self) -> np.ndarray:
        return self._x[:7].copy()

    def name(self) -> str:
        return self._name


def _rotation(q) -> np.ndarray:
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _makes_relations(manager) -> bool:
    """Whether the manager (class or instance) overrides ``makeBulletR``."""
    cls = manager if isinstance(manager, type) else type(manager)
    return getattr(cls, "makeBulletR", None) is not getattr(SiconosBulletCollisionManager, "makeBulletR")


class ContactNormalHook:
    """Saltus's contact hook (``Scene.set_contact_hook``) running a manager's ``BulletR``s: one
    relation per contact (by its key) from ``makeBulletR(ds1, shape1, ds2, shape2, None)``, its
    ``updateContactPointsFromManifoldPoint`` each step, its normal back to the step;
    ``preDelete`` when the contact is gone (at the next step's first contact, or at the end)."""

    def __init__(self, manager, dynamic):
        self.manager, self.dynamic = manager, dynamic
        self.relations, self.seen, self.t = {}, set(), None

    def _forget(self, keys) -> None:
        for key in keys:
            self.relations.pop(key).preDelete()

    def close(self) -> None:
        self._forget(list(self.relations))

    def __call__(self, t, c):
        if t != self.t:
            self._forget([k for k in self.relations if k not in self.seen])
            self.seen, self.t = set(), t
        key = c["key"]
        self.seen.add(key)
        # ds1 the moving body; the normal from ds2 towards ds1 (Bullet's normal on B)
        first = c["body1"] in self.dynamic
        ds1 = _Body(c["body1"], c["x1"]) if first else _Body(c["body2"], c["x2"])
        other = (c["body2"], c["x2"]) if first else (c["body1"], c["x1"])
        ds2 = _Body(*other) if other[0] in self.dynamic else None
        n_world = -np.asarray(c["normal"]) if first else np.asarray(c["normal"])
        rot = None if ds2 is None else _rotation(ds2.q()[3:7])
        r = self.relations.get(key)
        if r is None:
            r = self.manager.makeBulletR(ds1, None, ds2, None, None)
            if not isinstance(r, BulletR):
                raise TypeError(f"makeBulletR returned {type(r).__name__}, not a BulletR")
            self.relations[key] = r
        r._contact = c
        r._detected = n_world if rot is None else rot.T @ n_world
        r.updateContactPointsFromManifoldPoint(None, None, False, 1.0, ds1, ds2)
        n = r._rel if rot is None else rot @ r._rel
        return -n if first else n


def cast_BulletR(relation):
    """Siconos ``cast_BulletR``: the ``BulletR`` view of a run hook's contact (``_nsds.interaction(k)
    .relation()``)."""
    from saltus.siconos.io._hooks import BulletRView

    if not isinstance(relation, BulletRView):
        raise TypeError(f"cast_BulletR: a contact's relation, got {type(relation).__name__}")
    return relation


__getattr__ = module_getattr("siconos.mechanics.collision.bullet")
