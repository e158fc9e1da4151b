"""cuda.core 0.x's `system` object."""

from cuda.core import Device
from cuda.core import system as _system


class System:
    """The driver's version and the devices present."""

    @property
    def driver_version(self) -> tuple[int, int]:
        return _system.get_user_mode_driver_version()

    @property
    def num_devices(self) -> int:
        return _system.get_num_devices()

    @property
    def devices(self) -> tuple:
        return Device.get_all_devices()

    def get_driver_version(self) -> tuple[int, int]:
        return self.driver_version

    def get_num_devices(self) -> int:
        return self.num_devices
