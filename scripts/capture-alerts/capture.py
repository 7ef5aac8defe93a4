"""npm run capture:alerts: what a real Alertmanager sends through an SNS receiver (as Amazon Managed
Service for Prometheus does) and through a webhook, for the same alerts, written under
test/fixtures/triggers/amp/ with a manifest. Loopback only; see README.md."""

import datetime
import gzip
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import recorder
import scenarios

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(REPO, "test", "fixtures", "triggers", "amp")
STAGING = f"{OUT}.partial"
HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = "prometheus-alertmanager"
TOPIC = "arn:aws:sns:eu-west-1:123456789012:amp-alerts"
# Alertmanager's SNS notifier signs with sigv4; the recorder does not check it.
SIGV4 = {"region": "eu-west-1", "access_key": "AKIDEXAMPLE", "secret_key": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"}
# Past this size a capture is stored gzipped.
GZIP_FROM = 64 * 1024


def fail(message: str) -> None:
    print(f"capture:alerts: {message}", file=sys.stderr)
    sys.exit(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def config(kind: str, recorder_url: str) -> dict:
    """kind "json": AWS's JSON template as sns.default.message, plus a webhook for the same groups.
    kind "text": no template: Alertmanager's default SNS text."""
    sns = {"name": "amp-sns", "sns_configs": [{"api_url": f"{recorder_url}/sns/{kind}", "topic_arn": TOPIC, "sigv4": SIGV4}]}
    routes = [{"receiver": "amp-sns", "continue": True}]
    receivers = [sns]
    if kind == "json":
        routes.append({"receiver": "webhook"})
        receivers.append({"name": "webhook", "webhook_configs": [{"url": f"{recorder_url}/webhook", "max_alerts": 0}]})
    return {
        "route": {
            "receiver": "amp-sns",
            "group_by": ["alertname", "cluster"],
            "group_wait": "10s",
            "group_interval": "5s",
            "repeat_interval": "24h",
            "routes": routes,
        },
        "receivers": receivers,
        **({"templates": [os.path.join(HERE, "aws-json-template.tmpl")]} if kind == "json" else {}),
    }


def start(kind: str, recorder_url: str, work: str) -> tuple[subprocess.Popen, str]:
    path = os.path.join(work, f"{kind}.yml")
    with open(path, "w") as f:
        json.dump(config(kind, recorder_url), f)  # YAML is a superset of JSON
    port = free_port()
    proc = subprocess.Popen(
        [
            BINARY,
            f"--config.file={path}",
            f"--storage.path={os.path.join(work, kind)}",
            f"--web.listen-address=127.0.0.1:{port}",
            "--cluster.listen-address=",
            "--log.level=warn",
        ],
        stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(work, f"{kind}.log"), "wb"),
    )
    api = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(f"{api}/-/ready", timeout=1)
            return proc, api
        except OSError:
            time.sleep(0.1)
    proc.kill()
    fail(f"alertmanager ({kind}) did not become ready; see {work}/{kind}.log")


def post_alerts(api: str, alerts: list[dict]) -> None:
    request = urllib.request.Request(
        f"{api}/api/v2/alerts", data=json.dumps(alerts).encode(), headers={"Content-Type": "application/json"}
    )
    urllib.request.urlopen(request, timeout=10)


def write(rel: str, record: dict) -> str:
    """A webhook body byte for byte as Alertmanager sent it; an SNS Publish as its Lambda event."""
    if record["via"] == "webhook":
        data = record["raw"].encode()
    else:
        data = json.dumps(record["document"], indent=2, ensure_ascii=False).encode() + b"\n"
    if len(data) >= GZIP_FROM:
        rel += ".gz"
        data = gzip.compress(data, mtime=0)
    with open(os.path.join(STAGING, rel), "wb") as f:
        f.write(data)
    return rel


def main() -> None:
    if shutil.which(BINARY) is None:
        fail(f"missing {BINARY} (apt-get install -y prometheus-alertmanager)")
    started = time.monotonic()
    shutil.rmtree(STAGING, ignore_errors=True)
    os.makedirs(STAGING)
    work = tempfile.mkdtemp(prefix="capture-alerts-")
    server = recorder.serve()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    procs = []
    try:
        apis = {}
        for kind in ("json", "text"):
            proc, apis[kind] = start(kind, url, work)
            procs.append(proc)
        now = datetime.datetime.now(datetime.timezone.utc)
        # Firing groups go out after group_wait (10 s), resolved ones at the next group_interval (5 s).
        for phase, wait in (("firing", 14), ("resolved", 10)):
            alerts = scenarios.alerts(now, phase)
            for api in apis.values():
                post_alerts(api, alerts)
            time.sleep(wait)
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(10)
        server.shutdown()
    entries = []
    for record in server.records:
        scenario = scenarios.scenario_of(record)
        name = f"{record['via']}-{scenario}-{record['status']}.json"
        if any(e["name"] == name for e in entries):
            fail(f"two notifications for {name}: a group was split (raise group_wait)")
        rel = write(name, record)
        entries.append({"name": name, "file": rel, "scenario": scenario, "via": record["via"], "status": record["status"]})
    entries.sort(key=lambda e: e["file"])
    for entry in entries:
        del entry["name"]
    manifest = {
        "capturedAt": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "alertmanager": subprocess.run([BINARY, "--version"], capture_output=True, text=True).stdout.splitlines()[0],
        "topicArn": TOPIC,
        "lambdaEnvelope": (
            "each SNS Publish the recorder answered is wrapped into the event SNS gives a subscribed Lambda "
            "function (Records[].Sns with MessageAttributes as {Type, Value}); Signature, SigningCertUrl and "
            "UnsubscribeUrl are placeholders, as only SNS can make them"
        ),
        "wallSeconds": round(time.monotonic() - started, 1),
        "captures": entries,
    }
    with open(os.path.join(STAGING, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    shutil.rmtree(OUT, ignore_errors=True)
    os.rename(STAGING, OUT)
    shutil.rmtree(work, ignore_errors=True)
    print(f"capture:alerts: {len(entries)} captures in {manifest['wallSeconds']}s under {os.path.relpath(OUT, REPO)}/")


if __name__ == "__main__":
    main()
