"""``siconos.mechanics.collision.tools`` on Saltus: ``Contactor`` (a named shape placed on a
body, in a collision group) with Siconos 4.4's constructor."""

import math

import numpy as np

from saltus.siconos._unsupported import module_getattr


def quaternion_get(orientation):
    """A unit quaternion ``(w, x, y, z)`` from a quaternion or an ``(axis, angle)`` pair."""
    if len(orientation) == 2:
        axis = np.asarray(orientation[0], dtype=float)
        angle = float(orientation[1])
        s = math.sin(angle / 2.0) / np.linalg.norm(axis)
        return [math.cos(angle / 2.0), axis[0] * s, axis[1] * s, axis[2] * s]
    if len(orientation) != 4:
        raise ValueError(f"an orientation is a quaternion (w, x, y, z) or (axis, angle), got {orientation!r}")
    return [float(x) for x in orientation]


class Contactor:
    """Siconos ``Contactor(shape_name, shape_data=None, instance_name=None, collision_group=0,
    parameters=None, contact_type=None, contact_index=None, relative_translation=[0, 0, 0],
    relative_orientation=[1, 0, 0, 0])``: the shape called ``shape_name`` placed in the body
    frame (orientation: quaternion ``(w, x, y, z)`` or ``(axis, angle)``)."""

    def __init__(self, shape_name, shape_data=None, instance_name=None, collision_group=0, parameters=None,
                 contact_type=None, contact_index=None, relative_translation=(0, 0, 0),
                 relative_orientation=(1, 0, 0, 0)):
        self.shape_name = shape_name
        self.shape_data = shape_data
        self.instance_name = instance_name
        self.group = int(collision_group)
        self.parameters = parameters
        self.contact_type = contact_type
        self.contact_index = contact_index
        self.translation = [float(x) for x in relative_translation]
        self.orientation = relative_orientation


__getattr__ = module_getattr("siconos.mechanics.collision.tools")
