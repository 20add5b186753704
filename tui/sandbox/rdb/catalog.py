"""What the sandbox's relational-database product offers: engines with their versions and settings,
and node types with their volume types (spec 2 §4.3; spec/4 "Relational databases")."""

from __future__ import annotations

from typing import Any

REGIONS = ("fr-par", "nl-ams", "pl-waw")
GB = 1_000_000_000


def _int(name: str, default: int, lo: int, hi: int, unit: str = "", hot: bool = True, what: str = "") -> dict[str, Any]:
    return {
        "name": name,
        "default_value": str(default),
        "hot_configurable": hot,
        "description": what,
        "property_type": "INT",
        "unit": unit or None,
        "string_constraint": None,
        "int_min": lo,
        "int_max": hi,
        "float_min": None,
        "float_max": None,
    }


def _str(name: str, default: str, constraint: str | None = None, hot: bool = True, what: str = "") -> dict[str, Any]:
    return {
        "name": name,
        "default_value": default,
        "hot_configurable": hot,
        "description": what,
        "property_type": "STRING",
        "unit": None,
        "string_constraint": constraint,
        "int_min": None,
        "int_max": None,
        "float_min": None,
        "float_max": None,
    }


def _bool(name: str, default: bool, what: str = "") -> dict[str, Any]:
    return {
        "name": name,
        "default_value": "true" if default else "false",
        "hot_configurable": True,
        "description": what,
        "property_type": "BOOLEAN",
        "unit": None,
        "string_constraint": None,
        "int_min": None,
        "int_max": None,
        "float_min": None,
        "float_max": None,
    }


def _float(name: str, default: float, lo: float, hi: float, what: str = "") -> dict[str, Any]:
    return {
        "name": name,
        "default_value": str(default),
        "hot_configurable": True,
        "description": what,
        "property_type": "FLOAT",
        "unit": None,
        "string_constraint": None,
        "int_min": None,
        "int_max": None,
        "float_min": lo,
        "float_max": hi,
    }


PG_SETTINGS = [
    _int("max_connections", 100, 50, 10_000, hot=False, what="most concurrent connections (restart)"),
    _int("work_mem", 4, 1, 1024, "MB", what="memory per sort or hash"),
    _int("maintenance_work_mem", 64, 1, 4096, "MB"),
    _int("log_min_duration_statement", -1, -1, 3_600_000, "ms", what="log statements slower than this (-1: never)"),
    _str("synchronous_commit", "on", "^(on|off|local|remote_write|remote_apply)$"),
    _str("timezone", "UTC"),
    _bool("autovacuum", True),
    _float("random_page_cost", 4.0, 0.1, 100.0),
]
PG_INIT = [
    _str("lc_collate", "en_US.UTF8", hot=False, what="set when the engine starts (init only)"),
    _str("lc_ctype", "en_US.UTF8", hot=False, what="set when the engine starts (init only)"),
]
MYSQL_SETTINGS = [
    _int("max_connections", 151, 10, 10_000, hot=False),
    _int("wait_timeout", 28_800, 1, 31_536_000, "s"),
    _str("sql_mode", "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES"),
    _bool("slow_query_log", False),
]
MYSQL_INIT = [_int("lower_case_table_names", 0, 0, 1, hot=False, what="set when the engine starts (init only)")]

# engine, version, disabled, beta, end of life
VERSIONS = [
    ("PostgreSQL", "11", True, False, "2023-11-09T00:00:00Z"),
    ("PostgreSQL", "12", False, False, "2024-11-14T00:00:00Z"),
    ("PostgreSQL", "13", False, False, "2025-11-13T00:00:00Z"),
    ("PostgreSQL", "14", False, False, "2026-11-12T00:00:00Z"),
    ("PostgreSQL", "15", False, False, "2027-11-11T00:00:00Z"),
    ("MySQL", "8", False, False, "2026-04-30T00:00:00Z"),
]


def engines(region: str) -> list[dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for engine, version, disabled, beta, eol in VERSIONS:
        pg = engine == "PostgreSQL"
        e = out.setdefault(engine, {"name": engine, "logo_url": "", "versions": [], "region": region})
        e["versions"].append(
            {
                "version": version,
                "name": f"{engine}-{version}",
                "end_of_life": eol,
                "disabled": disabled,
                "beta": beta,
                "available_settings": PG_SETTINGS if pg else MYSQL_SETTINGS,
                "available_init_settings": PG_INIT if pg else MYSQL_INIT,
            }
        )
    return list(out.values())


def port_of(engine: object) -> int:
    """The port an engine listens on: a MySQL instance's endpoints are on 3306, PostgreSQL's on 5432."""
    return 3306 if str(engine).startswith("MySQL") else 5432


def version(region: str, name: object) -> dict[str, Any] | None:
    return next((v for e in engines(region) for v in e["versions"] if v["name"] == name), None)


def _volumes(bssd: bool) -> list[dict[str, Any]]:
    out = [
        {
            "type": "lssd",
            "description": "Local SSD",
            "min_size": 5 * GB,
            "max_size": 100 * GB,
            "chunk_size": 5 * GB,
            "class": "lssd",
        }
    ]
    if bssd:
        out.append(
            {
                "type": "bssd",
                "description": "Block SSD",
                "min_size": 5 * GB,
                "max_size": 10_000 * GB,
                "chunk_size": 5 * GB,
                "class": "bssd",
            }
        )
    return out


# name, stock, vCPUs, memory GB, HA required, disabled, beta, block volumes
NODE_TYPES = [
    ("DB-DEV-S", "available", 2, 2, False, False, False, True),
    ("DB-DEV-M", "available", 3, 4, False, False, False, True),
    ("DB-GP-XS", "low_stock", 4, 16, False, False, False, True),
    ("DB-PRO2-M", "available", 8, 32, True, False, False, True),
    ("DB-GP-L", "out_of_stock", 16, 64, False, False, False, True),
    ("DB-POP2-2C-8G", "available", 2, 8, False, False, True, True),
    ("DB-DEV-XS", "available", 1, 1, False, True, False, False),
]


def node_types(region: str) -> list[dict[str, Any]]:
    return [
        {
            "name": n,
            "stock_status": stock,
            "description": f"{cpu} vCPUs, {mem} GB",
            "vcpus": cpu,
            "memory": mem * GB,
            "volume_constraint": {"min_size": 5 * GB, "max_size": 100 * GB},
            "is_bssd_compatible": bssd,
            "disabled": disabled,
            "beta": beta,
            "available_volume_types": _volumes(bssd),
            "is_ha_required": ha,
            "generation": "generation_v1",
            "instance_range": "",
            "region": region,
        }
        for n, stock, cpu, mem, ha, disabled, beta, bssd in NODE_TYPES
    ]


def node_type(region: str, name: object) -> dict[str, Any] | None:
    return next((n for n in node_types(region) if n["name"] == name), None)


METRICS = {  # name: (base, swing, high)
    "cpu_usage_percent": (22.0, 15.0, 100.0),
    "mem_usage_percent": (48.0, 10.0, 100.0),
    "disk_usage_percent": (35.0, 2.0, 100.0),
    "total_connections": (24.0, 16.0, 10_000.0),
}
# A synchronous standby takes no client connections: its one connection is the main node's replication.
STANDBY = {"total_connections": (1.0, 0.0)}
