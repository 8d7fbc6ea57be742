"""``siconos.mechanics.collision.bullet`` on Saltus: ``SiconosBulletOptions`` is accepted as an
options record (Saltus's collision detection is parry3d, not Bullet; ``MechanicsHdf5Runner``
reads the fields it maps, e.g. the contact margin); the Bullet classes themselves are not
provided."""

from saltus.siconos._unsupported import module_getattr

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


__getattr__ = module_getattr("siconos.mechanics.collision.bullet")
