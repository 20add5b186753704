"""The sandbox against spec 1 §2.2–2.3, §4 and spec/4 "Instance": bodies, codes, states, rules."""

import httpx
import pytest

from helpers import args
from tui.sandbox import DEMO_PROJECT_ID

pytestmark = pytest.mark.anyio
Z = "/instance/v1/zones/fr-par-1"
GB = 1_000_000_000


def server_body(**kw):
    body = {"name": "web-9", "project": DEMO_PROJECT_ID, "commercial_type": "PRO2-XS", "image": "ubuntu_noble"}
    body.update(kw)
    return body


async def create(http, **kw) -> dict:
    r = await http.post(f"{Z}/servers", json=server_body(**kw))
    assert r.status_code == 201, r.text
    return r.json()["server"]


# ---- auth and listing ----------------------------------------------------------------------------
async def test_missing_or_wrong_key_gives_the_spec_401(sandbox):
    async with httpx.AsyncClient(transport=httpx.ASGITransport(sandbox.app), base_url="http://sb") as anon:
        for headers in ({}, {"X-Auth-Token": "nope"}):
            r = await anon.get(f"{Z}/servers", headers=headers)
            assert r.status_code == 401
            assert r.json() == {
                "type": "denied_authentication",
                "message": "authentication is denied",
                "method": "api_key",
                "reason": "not_found",
            }


async def test_pagination_headers_and_limits(http):
    r = await http.get(f"{Z}/servers", params={"per_page": 3, "page": 2})
    assert r.status_code == 200 and r.headers["X-Total-Count"] == "8"
    assert list(r.json()) == ["servers"] and len(r.json()["servers"]) == 3
    assert 'rel="next"' in r.headers["Link"] and 'rel="last"' in r.headers["Link"]
    assert len((await http.get(f"{Z}/servers")).json()["servers"]) == 8  # default per_page 50
    too_big = await http.get(f"{Z}/servers", params={"per_page": 101})
    assert too_big.status_code == 400 and args(too_big) == {"per_page": "constraint"}
    assert (await http.get(f"{Z}/servers", params={"page": 0})).status_code == 400
    # its own time to answer, for the benchmark to tell apart from the console's (tests/bench.py)
    timing = r.headers["Server-Timing"]
    assert timing.startswith("app;dur=") and float(timing.removeprefix("app;dur=")) >= 0


async def test_filters(http):
    names = lambda r: sorted(s["name"] for s in r.json()["servers"])  # noqa: E731
    assert names(await http.get(f"{Z}/servers", params={"name": "WEB"})) == ["staging-web", "web-01", "web-02"]
    assert names(await http.get(f"{Z}/servers", params={"state": "stopped"})) == ["worker-batch-2"]
    assert names(await http.get(f"{Z}/servers", params={"tags": "web,prod"})) == ["web-01", "web-02"]


async def test_zones_are_separate_and_unknown_zone_is_refused(http):
    r = await http.get("/instance/v1/zones/nl-ams-1/servers")
    assert {s["zone"] for s in r.json()["servers"]} == {"nl-ams-1"}
    assert (await http.get("/instance/v1/zones/xx-yyy-9/servers")).status_code == 400


async def test_products_servers_is_a_map_with_constraints(http):
    types = (await http.get(f"{Z}/products/servers")).json()["servers"]
    dev = types["DEV1-S"]
    assert {"ncpus", "ram", "arch", "hourly_price", "volumes_constraint", "per_volume_constraint"} <= set(dev)
    assert dev["per_volume_constraint"]["l_ssd"]["max_size"] == 20 * GB
    assert types["PRO2-XS"]["per_volume_constraint"] == {}


# ---- create validation ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "body, expected",
    [
        ({"name": "bad_name!"}, {"name": "format"}),
        ({"commercial_type": None}, {"commercial_type": "required"}),
        ({"commercial_type": "NOPE-1"}, {"commercial_type": "constraint"}),
        ({"project": "not-a-uuid"}, {"project": "format"}),
        ({"image": "no_such_image"}, {"image": "constraint"}),
        ({"enable_ipv6": "yes"}, {"enable_ipv6": "format"}),
        ({"surprise": 1}, {"surprise": "unknown"}),
        ({"volumes": {"1": {"volume_type": "b_ssd", "size": 20 * GB}}}, {"volumes": "format"}),
        ({"volumes": {"0": {"volume_type": "l_ssd", "size": 20 * GB}}}, {"volumes.0.volume_type": "constraint"}),
        (
            {
                "volumes": {
                    "0": {"volume_type": "b_ssd", "size": 20 * GB},
                    "1": {"volume_type": "b_ssd", "name": "data"},
                }
            },
            {"volumes.1.size": "required"},
        ),
        (
            {
                "volumes": {
                    "0": {"volume_type": "b_ssd", "size": 20 * GB},
                    "1": {"volume_type": "b_ssd", "base_snapshot": "x"},
                }
            },
            {"volumes.1.base_snapshot": "format", "volumes.1.name": "required"},
        ),
        ({"volumes": {"0": {"volume_type": "tape", "size": 1}}}, {"volumes.0.volume_type": "constraint"}),
    ],
)
async def test_create_validation_names_the_field(http, body, expected):
    payload = server_body(**body)
    payload = {k: v for k, v in payload.items() if v is not None}
    r = await http.post(f"{Z}/servers", json=payload)
    assert r.status_code == 400, r.text
    assert r.json()["type"] == "invalid_arguments"
    assert args(r) == expected


# ---- an ill-typed id in a body --------------------------------------------------------------------
# Where a body's value is looked up as an id or a name (in Instance, and in the bare-metal products next
# to it), a list or an object there is an invalid argument named by its field, not a 500.
FIP = "/flexible-ip/v1alpha1/zones/fr-par-2"
SOME_ID = "00000000-0000-4000-8000-000000000001"


async def ill_typed_paths(http) -> dict[str, str]:
    """Where each case is sent: a new server, the project's own image, a bare-metal server, an IP."""
    image = (await http.get(f"{Z}/images", params={"name": "gateway-golden", "public": "False"})).json()["images"][0]
    bm = (await http.get("/baremetal/v1alpha1/zones/fr-par-1/servers")).json()["servers"]
    edge = next(s["id"] for s in bm if s["name"] == "edge-par")
    fip = (await http.get(f"{FIP}/fips")).json()["flexible_ips"][0]["id"]
    return {
        "servers": f"{Z}/servers",
        "server": f"{Z}/servers/{(await create(http))['id']}",
        "images": f"{Z}/images",
        "image": f"{Z}/images/{image['id']}",
        "networks": f"/baremetal/v2/zones/fr-par-1/servers/{edge}/private-networks",
        "fips": f"{FIP}/fips",
        "attach": f"{FIP}/fips/attach",
        "move": f"{FIP}/fips/{fip}/mac/move",
        "duplicate": f"{FIP}/fips/{fip}/mac/duplicate",
    }


@pytest.mark.parametrize(
    "method, where, body, field",
    [
        pytest.param("POST", "servers", {"commercial_type": ["PRO2-XS"]}, "commercial_type", id="create-type-list"),
        pytest.param("POST", "servers", {"commercial_type": {"n": 1}}, "commercial_type", id="create-type-object"),
        pytest.param("POST", "servers", {"security_group": ["x"]}, "security_group", id="create-sg-list"),
        pytest.param("POST", "servers", {"security_group": {"id": {}}}, "security_group", id="create-sg-id-object"),
        pytest.param("POST", "servers", {"placement_group": ["x"]}, "placement_group", id="create-pg-list"),
        pytest.param("POST", "servers", {"placement_group": {"id": []}}, "placement_group", id="create-pg-id-list"),
        pytest.param("PATCH", "server", {"commercial_type": ["PRO2-S"]}, "commercial_type", id="patch-type-list"),
        pytest.param("PATCH", "server", {"security_group": {"id": ["x"]}}, "security_group", id="patch-sg-id-list"),
        pytest.param("PATCH", "server", {"security_group": [{"id": "x"}]}, "security_group", id="patch-sg-list"),
        pytest.param("PATCH", "server", {"placement_group": ["x"]}, "placement_group", id="patch-pg-list"),
        pytest.param("PATCH", "server", {"placement_group": {"id": ["x"]}}, "placement_group", id="patch-pg-id-list"),
        pytest.param("POST", "images", {"extra_volumes": {"1": {"id": ["x"]}}}, "extra_volumes", id="image-extra"),
        pytest.param("PATCH", "image", {"extra_volumes": {"1": {"id": {}}}}, "extra_volumes", id="patch-image-extra"),
        pytest.param("POST", "networks", {"private_network_id": ["x"]}, "private_network_id", id="bm-pn-list"),
        pytest.param("POST", "networks", {"private_network_id": {"a": 1}}, "private_network_id", id="bm-pn-object"),
        pytest.param("POST", "fips", {"project_id": DEMO_PROJECT_ID, "server_id": ["x"]}, "server_id", id="fip-server"),
        pytest.param("POST", "attach", {"fips_ids": [SOME_ID], "server_id": {"id": "x"}}, "server_id", id="attach"),
        pytest.param("POST", "move", {"dst_fip_id": ["x"]}, "dst_fip_id", id="mac-move"),
        pytest.param("POST", "duplicate", {"duplicate_from_fip_id": {"a": 1}}, "duplicate_from_fip_id", id="mac-dup"),
    ],
)
async def test_an_ill_typed_id_is_a_400_naming_its_field_not_a_500(http, method, where, body, field):
    if where == "servers":
        body = server_body(**body)
    r = await http.request(method, (await ill_typed_paths(http))[where], json=body)
    assert r.status_code == 400, r.text
    assert r.json()["type"] == "invalid_arguments" and field in args(r), r.text


async def test_local_volume_sizes_follow_the_type_constraints(http):
    r = await http.post(
        f"{Z}/servers",
        json=server_body(commercial_type="DEV1-S", volumes={"0": {"volume_type": "l_ssd", "size": 30 * GB}}),
    )
    assert args(r) == {"volumes.0.size": "constraint"}
    r = await http.post(
        f"{Z}/servers",
        json=server_body(
            commercial_type="DEV1-S",
            volumes={
                "0": {"volume_type": "l_ssd", "size": 15 * GB},
                "1": {"volume_type": "l_ssd", "size": 10 * GB, "name": "data"},
            },
        ),
    )
    assert args(r) == {"volumes": "constraint"}  # 25 GB of local storage on a 20 GB type


async def test_other_project_is_forbidden(http):
    r = await http.post(f"{Z}/servers", json=server_body(project="11111111-1111-4111-8111-111111111111"))
    assert r.status_code == 403 and r.json()["type"] == "permissions_denied"


async def test_arch_mismatch_is_refused(http):
    r = await http.post(f"{Z}/servers", json=server_body(commercial_type="COPARM1-2C-8G"))
    assert r.status_code == 400 and "arch" in r.json()["message"]


async def test_default_volumes_follow_the_spec(http, sandbox):
    by_label = await create(http, image="ubuntu_noble")
    assert [(v["volume_type"], v["size"]) for v in by_label["volumes"].values()] == [("sbs_volume", 10 * GB)]
    image_id = sandbox.instance.labels["fr-par-1"]["debian_bookworm"]
    on_local = await create(http, image=image_id, commercial_type="DEV1-M")
    assert [(v["volume_type"], v["size"]) for v in on_local["volumes"].values()] == [("l_ssd", 40 * GB)]
    block_only = await create(http, image=image_id, commercial_type="PRO2-XXS")
    assert [(v["volume_type"], v["size"]) for v in block_only["volumes"].values()] == [("b_ssd", 10 * GB)]


async def test_created_server_has_the_wire_keys(http):
    server = await create(http, tags=["a"])
    wire_keys = {
        "id",
        "name",
        "organization",
        "project",
        "allowed_actions",
        "tags",
        "commercial_type",
        "creation_date",
        "modification_date",
        "dynamic_ip_required",
        "enable_ipv6",
        "hostname",
        "image",
        "protected",
        "public_ip",
        "public_ips",
        "private_ip",
        "mac_address",
        "state",
        "state_detail",
        "boot_type",
        "arch",
        "volumes",
        "security_group",
        "placement_group",
        "private_nics",
        "maintenances",
        "ipv6",
        "zone",
    }
    assert wire_keys <= set(server)
    assert server["state"] == "stopped" and server["allowed_actions"] == ["poweron", "backup"]


# ---- states and actions --------------------------------------------------------------------------
async def act(http, sid, action, status=202):
    r = await http.post(f"{Z}/servers/{sid}/action", json={"action": action})
    assert r.status_code == status, r.text
    return r.json()


async def state(http, sid):
    r = await http.get(f"{Z}/servers/{sid}")
    return r.json()["server"]["state"] if r.status_code == 200 else r.status_code


async def test_poweron_starts_then_runs_with_time(http, clock):
    sid = (await create(http))["id"]
    task = (await act(http, sid, "poweron"))["task"]
    assert task["status"] == "pending" and task["href_result"] == f"/servers/{sid}"
    server = (await http.get(f"{Z}/servers/{sid}")).json()["server"]
    assert server["state"] == "starting" and server["allowed_actions"] == ["stop_in_place", "backup"]
    assert server["state_detail"] == "provisioning node"
    clock.advance(10)
    server = (await http.get(f"{Z}/servers/{sid}")).json()["server"]
    assert server["state"] == "running"
    assert server["allowed_actions"] == ["poweroff", "terminate", "reboot", "stop_in_place", "backup"]
    assert server["public_ip"]["address"]


async def test_actions_not_allowed_in_the_state_are_refused(http):
    sid = (await create(http))["id"]
    r = await http.post(f"{Z}/servers/{sid}/action", json={"action": "poweroff"})
    assert r.status_code == 400 and r.json() == {"type": "invalid_request_error", "message": "server should be running"}
    r = await http.post(f"{Z}/servers/{sid}/action", json={"action": "explode"})
    assert r.status_code == 400 and args(r) == {"action": "constraint"}
    assert (await http.get(f"{Z}/servers/{sid}/action")).json() == {"actions": ["poweron", "backup"]}


async def test_reboot_poweroff_and_stop_in_place_sequences(http, clock):
    sid = (await create(http, dynamic_ip_required=True))["id"]
    await act(http, sid, "poweron")
    clock.advance(10)
    address = (await http.get(f"{Z}/servers/{sid}")).json()["server"]["public_ip"]["address"]
    await act(http, sid, "reboot")
    assert await state(http, sid) == "stopping"
    clock.advance(2)
    assert await state(http, sid) == "starting"
    clock.advance(3)
    assert await state(http, sid) == "running"
    assert (await http.get(f"{Z}/servers/{sid}")).json()["server"]["public_ip"]["address"] == address  # kept
    await act(http, sid, "stop_in_place")
    clock.advance(5)
    assert await state(http, sid) == "stopped in place"
    await act(http, sid, "poweroff")
    assert await state(http, sid) == "stopping"
    clock.advance(5)
    assert await state(http, sid) == "stopped"


async def test_delete_needs_a_stopped_server(http, clock):
    sid = (await create(http))["id"]
    await act(http, sid, "poweron")
    r = await http.delete(f"{Z}/servers/{sid}")
    assert r.status_code == 400 and r.json() == {
        "type": "invalid_request_error",
        "message": "instance should be powered off",
    }
    clock.advance(10)
    await act(http, sid, "poweroff")
    clock.advance(10)
    r = await http.delete(f"{Z}/servers/{sid}")
    assert r.status_code == 204 and r.content == b""
    r = await http.get(f"{Z}/servers/{sid}")
    assert r.status_code == 404 and r.json()["type"] == "not_found" and r.json()["resource_id"] == sid


async def test_terminate_goes_through_stopping_then_gone(http, clock):
    sid = (await create(http))["id"]
    await act(http, sid, "poweron")
    clock.advance(10)
    await act(http, sid, "terminate")
    assert await state(http, sid) == "stopping"
    clock.advance(5)
    assert await state(http, sid) == 404


async def test_patch_rules(http, clock):
    sid = (await create(http))["id"]
    r = await http.patch(f"{Z}/servers/{sid}", json={"name": "renamed", "tags": ["x"]})
    assert r.status_code == 200 and r.json()["server"]["name"] == "renamed"
    assert args(await http.patch(f"{Z}/servers/{sid}", json={"name": "no_underscores"})) == {"name": "format"}
    await act(http, sid, "poweron")
    r = await http.patch(f"{Z}/servers/{sid}", json={"commercial_type": "PRO2-S"})
    assert r.status_code == 400 and "powered off" in r.json()["message"]


async def test_rate_limit_fault_has_an_empty_body(http, sandbox):
    sandbox.inject(429, "/servers", times=1)
    r = await http.get(f"{Z}/servers")
    assert r.status_code == 429 and r.content == b"" and r.headers["X-Envoy-Ratelimited"] == "true"
