"""The monitoring product of the sandbox (`/monitoring/v1beta1`, `X-Auth-Token`): spec 2 §2.2, §3.2,
§4.2, §5, §7, §8 and spec/4 "Monitoring". Paths, bodies and query parameters are those the public
client library (the v1beta1 monitoring API of the platform's Python SDK) sends.

Served: activate, get (`/cockpit?project_id=`), deactivate, reset-dashboard, enable/disable managed
alerts, trigger-test-alert, contact points (list, create, delete), tokens (list, create, get,
delete), dashboard users (list, create, delete, reset-password), and `GET /cockpit/metrics`
(`start_date`, `end_date`, `metric_name`: the instance's own series, as the client library reads
them).

Choices where the spec is silent:
- `project_id` left out of a body or a query is the key's own project (the client library leaves
  it out when its caller gives none); a value that is not a UUID is refused (400, format). Any
  project UUID may hold an instance: the sandbox does not check which projects a key may reach.
- Activation answers 200 with the instance (`creating`, `ready` 5 s later on the sandbox clock)
  plus `dashboard_url`, `dashboard_username`, `dashboard_password`; so does reset-dashboard (a new
  password; `ready` only, else 409 transient_state). Those three fields are in no other answer.
- Activating twice: 409 already_exists (resource `monitoring`); while it is being deleted: 409
  transient_state.
- Deactivation answers the instance `deleting` (200); it is gone 3 s later, with its tokens,
  users and contact points. A second deactivation while deleting answers the same.
- Without an instance: `GET /cockpit`, `/cockpit/metrics`, deactivate and reset-dashboard answer 404
  not_found (`resource: monitoring`, `resource_id`: the project); every other route answers 412
  precondition_failed (`precondition: monitoring_not_activated`). A token is found by its id in
  whichever instance holds it (404 `token` otherwise).
- Listings work in any state of the instance; every write needs it `ready` (409 transient_state
  with `current_state` while `creating` or `deleting`), as spec 2 §3.2 says `ready` is usable.
- Enabling or disabling managed alerts is immediate and idempotent (204 each time).
- A test alert needs at least one contact point (412 precondition_failed `no_contact_point`
  otherwise); each one sent is recorded in `store.alerts_sent` with the addresses it went to.
- Contact points: `{"email": {"to": address}}` is the only variant (any other key: 400 unknown);
  the address must look like one (400 format); the same address twice is 409 already_exists;
  deleting one that is not there is 404 `contact_point`. `has_additional_receivers` and
  `has_additional_contact_points` are false unless a test sets them on the store.
- Tokens: a name of 1 to 100 characters, unique in the instance (a duplicate is invalid, spec 2
  §7.2: 400 invalid_arguments, `name`/constraint). `scopes` is an object of the seven booleans
  (others: 400 unknown; left out: false). `secret_key` (64 letters and digits) is in the creation
  answer only; later reads answer it "". Deleting answers 204.
- Dashboard users: integer ids from 1 in each instance; a login of 2 to 32 letters, digits, `.`,
  `_`, `-` starting with a letter, unique (409 already_exists); `role` editor or viewer
  (`unknown_role` is refused). `password` is in the creation and reset-password answers only;
  listings answer it null. An id that is not an integer, or unknown, is 404 `dashboard_user`. The
  instance's admin login (from activation) is not a listed user.
- Seeds: the demo leaves the monitoring absent, so a walk can activate it; `--scale N` activates it
  (ready) and makes N tokens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..registry import SandboxProduct
from .routes import routes
from .store import SCOPES, MonitoringStore, Timings

if TYPE_CHECKING:
    import random

__all__ = ["PRODUCT", "MonitoringStore", "SCOPES", "Timings"]


def seed_scale(store: MonitoringStore, rng: random.Random, count: int) -> None:
    found, _ = store.activate(store.project_id)
    store.timeline.cancel(found.obj)
    found.obj["status"] = "ready"
    for n in range(count):
        store.add_token(
            found, f"token-{n:05d}", {"write_metrics": n % 2 == 0, "write_logs": n % 3 == 0, "query_metrics": True}
        )


PRODUCT = SandboxProduct("monitoring", "/monitoring/", MonitoringStore, routes, seed_scale=seed_scale)
