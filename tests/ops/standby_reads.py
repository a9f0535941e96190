"""The funnel page's answer from orchestrator 1 (reading the standby) and orchestrator 2 (reading
the primary), as an analyst signed in through the API: tests/ops/standby_reads.sh.

  standby_reads.py paused|resumed EMAIL PASSWORD STANDBY_PORTAL PRIMARY_PORTAL
"""
import json
import sys
import time
import urllib.request

mode, email, password, standby_portal, primary_portal = sys.argv[1:6]


def call(base, path, body=None, cookie=None):
    request = urllib.request.Request(base + path, method="POST" if body else "GET",
                                     data=json.dumps(body).encode() if body else None)
    request.add_header("content-type", "application/json")
    if cookie:
        request.add_header("cookie", cookie)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer, json.load(answer)


answer, _ = call(primary_portal, "/api/staff/session", {"email": email, "password": password})
cookie = "; ".join(c.split(";")[0] for c in answer.headers.get_all("set-cookie"))


def funnel(base):
    """Attempts in today's cloud funnel, and how far behind the answer says its database is."""
    _, reply = call(base, "/api/analytics/funnel?flow=cloud", cookie=cookie)
    return sum(g["attempts"] for g in reply["groups"]), reply["read_lag_seconds"]


def poll(done):
    deadline = time.time() + 30
    while True:
        standby, primary = funnel(standby_portal), funnel(primary_portal)
        if done(standby, primary) or time.time() > deadline:
            return standby, primary
        time.sleep(0.3)


if mode == "paused":
    # The standby's lag is the age of its last replayed transaction: past a second soon after.
    (on_standby, lag), (on_primary, primary_lag) = poll(lambda s, p: s[1] > 1)
    print(f"paused: standby {on_standby} attempts, {lag} s behind; primary {on_primary} attempts, {primary_lag} s")
    assert lag > 1, f"the standby's answer says it is {lag} s behind, not more than a second"
    assert primary_lag == 0, f"the primary's answer says it is {primary_lag} s behind"
    assert on_primary == on_standby + 1, \
        "the row committed on the primary is in both answers: orchestrator 1 did not read the standby"
else:
    (on_standby, lag), (on_primary, _) = poll(lambda s, p: s[0] == p[0] and s[1] <= 1)
    print(f"resumed: standby {on_standby} attempts, {lag} s behind; primary {on_primary} attempts")
    assert on_standby == on_primary and lag <= 1, "the standby did not catch up"
