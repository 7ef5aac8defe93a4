"""A loopback stand-in for SNS's Publish (Query API, as Alertmanager's SNS notifier calls it) and for
a webhook receiver. Each Publish is kept as the event SNS would give a subscribed Lambda function."""

import datetime
import json
import threading
import urllib.parse
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PLACEHOLDER = "EXAMPLE"


def _attributes(form: dict) -> dict:
    """MessageAttributes.entry.N.{Name,Value.DataType,Value.StringValue} -> Lambda's {Name: {Type, Value}}."""
    out = {}
    n = 1
    while f"MessageAttributes.entry.{n}.Name" in form:
        prefix = f"MessageAttributes.entry.{n}"
        out[form[f"{prefix}.Name"]] = {
            "Type": form[f"{prefix}.Value.DataType"],
            "Value": form.get(f"{prefix}.Value.StringValue", ""),
        }
        n += 1
    return out


def lambda_event(form: dict) -> dict:
    """The Lambda SNS event for one Publish, as AWS documents it (Records[].Sns)."""
    topic = form["TopicArn"]
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return {
        "Records": [
            {
                "EventSource": "aws:sns",
                "EventVersion": "1.0",
                "EventSubscriptionArn": f"{topic}:{uuid.uuid4()}",
                "Sns": {
                    "Type": "Notification",
                    "MessageId": str(uuid.uuid4()),
                    "TopicArn": topic,
                    "Subject": form.get("Subject"),
                    "Message": form["Message"],
                    "Timestamp": now,
                    "SignatureVersion": "1",
                    "Signature": PLACEHOLDER,
                    "SigningCertUrl": PLACEHOLDER,
                    "UnsubscribeUrl": PLACEHOLDER,
                    "MessageAttributes": _attributes(form),
                },
            }
        ]
    }


class Recorder(ThreadingHTTPServer):
    records: list


class Handler(BaseHTTPRequestHandler):
    server: Recorder

    def log_message(self, *args) -> None:
        pass

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"])).decode()
        if self.path.startswith("/sns/"):
            form = {k: v[0] for k, v in urllib.parse.parse_qs(body, keep_blank_values=True).items()}
            status = "resolved" if form.get("Subject", "").startswith("[RESOLVED") else "firing"
            self.server.records.append(
                {"via": f"sns-{self.path.strip('/').split('/')[1]}", "status": status, "raw": form["Message"], "document": lambda_event(form)}
            )
            reply = (
                '<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult>'
                f"<MessageId>{uuid.uuid4()}</MessageId></PublishResult><ResponseMetadata>"
                f"<RequestId>{uuid.uuid4()}</RequestId></ResponseMetadata></PublishResponse>"
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/xml")
        else:
            document = json.loads(body)
            self.server.records.append({"via": "webhook", "status": document["status"], "raw": body, "document": document})
            reply = b""
            self.send_response(200)
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)


def serve() -> Recorder:
    server = Recorder(("127.0.0.1", 0), Handler)
    server.records = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
