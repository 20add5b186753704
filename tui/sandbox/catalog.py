"""Static catalogue of the sandbox's Instance platform: commercial types, public images, volume types
and the platform's default security rules."""

from __future__ import annotations

from typing import Any

GB = 1_000_000_000

# name: (ncpus, ram GB, arch, gpu, hourly €, max local storage GB or 0 for block-only)
_TYPES: dict[str, tuple[int, int, str, int, float, int]] = {
    "PLAY2-NANO": (1, 2, "x86_64", 0, 0.014, 0),
    "PLAY2-MICRO": (2, 4, "x86_64", 0, 0.028, 0),
    "DEV1-S": (2, 2, "x86_64", 0, 0.0088, 20),
    "DEV1-M": (3, 4, "x86_64", 0, 0.0198, 40),
    "DEV1-L": (4, 8, "x86_64", 0, 0.042, 80),
    "GP1-XS": (4, 16, "x86_64", 0, 0.091, 150),
    "GP1-S": (8, 32, "x86_64", 0, 0.187, 300),
    "PRO2-XXS": (2, 8, "x86_64", 0, 0.055, 0),
    "PRO2-XS": (4, 16, "x86_64", 0, 0.11, 0),
    "PRO2-S": (8, 32, "x86_64", 0, 0.219, 0),
    "COPARM1-2C-8G": (2, 8, "arm64", 0, 0.0426, 0),
    "GPU-3070-S": (8, 16, "x86_64", 1, 0.98, 0),
}


def commercial_types() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name, (cpus, ram, arch, gpu, hourly, local) in _TYPES.items():
        entry: dict[str, Any] = {
            "alt_names": [],
            "arch": arch,
            "ncpus": cpus,
            "ram": ram * GB,
            "gpu": gpu,
            "hourly_price": hourly,
            "monthly_price": round(hourly * 730, 2),
            "volumes_constraint": {"min_size": 0, "max_size": local * GB},
            "per_volume_constraint": {"l_ssd": {"min_size": 1 * GB, "max_size": local * GB}} if local else {},
            "baremetal": False,
            "network": {"sum_internal_bandwidth": 400_000_000 * cpus, "ipv6_support": True},
        }
        out[name] = entry
    return out


def supports_local(type_: dict[str, Any]) -> bool:
    return bool(type_.get("per_volume_constraint", {}).get("l_ssd"))


# label, name, arch, root size GB
IMAGES: list[tuple[str, str, str, int]] = [
    ("ubuntu_noble", "Ubuntu 24.04 Noble Numbat", "x86_64", 10),
    ("ubuntu_jammy", "Ubuntu 22.04 Jammy Jellyfish", "x86_64", 10),
    ("debian_bookworm", "Debian 12 (Bookworm)", "x86_64", 10),
    ("rockylinux_9", "Rocky Linux 9", "x86_64", 10),
    ("fedora_41", "Fedora 41", "x86_64", 10),
    ("docker", "Docker on Ubuntu 24.04", "x86_64", 20),
    ("ubuntu_noble_arm", "Ubuntu 24.04 Noble Numbat (arm64)", "arm64", 10),
]

BLOCK_MIN = 1 * GB
BLOCK_MAX = 10_000 * GB

# Volume types of /products/volumes, and the project quota on the total size of each.
VOLUME_TYPES: dict[str, dict[str, Any]] = {
    "l_ssd": {
        "display_name": "Local SSD",
        "capabilities": {"snapshot": True, "block_migration": False},
        "constraints": {"min": 1 * GB, "max": 800 * GB},
    },
    "b_ssd": {
        "display_name": "Block SSD",
        "capabilities": {"snapshot": True, "block_migration": True},
        "constraints": {"min": 1 * GB, "max": 10_000 * GB},
    },
    "sbs_volume": {
        "display_name": "Block Storage",
        "capabilities": {"snapshot": False, "block_migration": False},
        "constraints": {"min": 1 * GB, "max": 10_000 * GB},
    },
}
QUOTA_BYTES = {"l_ssd": 4_000 * GB, "b_ssd": 20_000 * GB, "sbs_volume": 20_000 * GB}

# The platform's own rules, applied before every group's (GET /security_groups/default/rules).
DEFAULT_RULES = [
    {
        "protocol": "TCP",
        "direction": "outbound",
        "action": "drop",
        "ip_range": "0.0.0.0/0",
        "dest_port_from": p,
        "dest_port_to": None,
    }
    for p in (25, 465, 587)
]
