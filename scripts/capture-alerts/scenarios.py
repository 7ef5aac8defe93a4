"""The alerts the kit posts to Alertmanager's v2 API, as Prometheus posts them (startsAt, endsAt,
generatorURL), one alert name per scenario so each group is its own notification."""

import datetime
import re

PROMETHEUS = "http://prometheus.monitoring:9090/graph?g0.expr=cilium_endpoint&g0.tab=1"
# alertname -> scenario
SCENARIOS = {
    "CiliumUnmanagedPods": "single",
    "CiliumClusterIPUnreachable": "grouped",
    "CiliumPolicyDeniedDrops": "quote",
    "CiliumUnreachableNodes": "big",
}
# A real group of 1,200 alerts (about 1 MB through the webhook): past SNS's 256 KB, so truncated.
BIG = 1200


def _time(t: datetime.datetime) -> str:
    return t.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _alert(name: str, labels: dict, annotations: dict, starts: datetime.datetime, ends: datetime.datetime) -> dict:
    return {
        "labels": {"alertname": name, "cluster": "prod-eu", **labels},
        "annotations": annotations,
        "startsAt": _time(starts),
        "endsAt": _time(ends),
        "generatorURL": PROMETHEUS,
    }


def alerts(starts: datetime.datetime, phase: str) -> list[dict]:
    """Firing: endsAt ahead, as Prometheus sends it (4 x its resend delay). Resolved: endsAt just past.
    `starts` is when the alerts started firing: fresh, as Prometheus sends a rule that starts firing
    (Alertmanager flushes a new group at once when its first alert started over group_wait ago)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ends = now + datetime.timedelta(minutes=4) if phase == "firing" else now - datetime.timedelta(seconds=1)
    out = [
        _alert(
            "CiliumUnmanagedPods",
            {"node": "ip-10-0-1-17.eu-west-1.compute.internal", "severity": "warning"},
            {"summary": "Pods on ip-10-0-1-17.eu-west-1.compute.internal run without a CiliumEndpoint"},
            starts,
            ends,
        ),
        *(
            _alert(
                "CiliumClusterIPUnreachable",
                {"namespace": "monitoring", "probe": f"clusterip-{zone}", "severity": "critical"},
                {"summary": f"ClusterIP probe from {zone} fails while pod IPs answer"},
                starts,
                ends,
            )
            for zone in ("eu-west-1a", "eu-west-1b", "eu-west-1c")
        ),
        _alert(
            "CiliumPolicyDeniedDrops",
            {"namespace": "payments", "pod": "api-7d9f8b6c5d-x2x9z", "severity": "warning"},
            # What an engineer writes in a rule: a quote and a newline, which AWS's template does not escape.
            {"description": 'Drops "Policy denied" from host to payments/api.\nCheck install-iptables-rules.'},
            starts,
            ends,
        ),
    ]
    if phase == "firing":
        out += [
            _alert(
                "CiliumUnreachableNodes",
                {
                    "node": f"ip-10-{i // 250}-{i % 250}-{(i * 7) % 250}.eu-west-1.compute.internal",
                    "instance": f"10.{i // 250}.{i % 250}.{(i * 7) % 250}:9962",
                    "job": "cilium-agent",
                    "container": "cilium-agent",
                    "endpoint": "metrics",
                    "service": "cilium-agent",
                    "prometheus": "monitoring/kube-prometheus-stack-prometheus",
                    "namespace": "kube-system",
                    "pod": f"cilium-{i:05x}",
                    "severity": "critical",
                },
                {
                    "summary": "cilium-health reports nodes this agent cannot reach",
                    "description": (
                        "The agent's health probes to other nodes fail (ICMP or 4240/tcp). Check the node "
                        "security groups allow the tunnel port, 4240/tcp and ICMP between node groups."
                    ),
                },
                starts,
                ends,
            )
            for i in range(BIG)
        ]
    return out


def scenario_of(record: dict) -> str:
    text = record["raw"]
    match = re.search(r'"alertname": ?"(\w+)"', text) or re.search(r" - alertname = (\w+)", text)
    return SCENARIOS[match.group(1)]
