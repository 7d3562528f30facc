# Run by test/e2e/metrics.test.ts with Debian's python3-prometheus-client: parses the exposition
# text on standard input with Prometheus's own Python parser (which raises on anything malformed)
# and prints each family's type, help text and samples as one JSON document.
import json
import math
import sys

from prometheus_client.parser import text_string_to_metric_families



def finite(value):
    # NaN and the infinities are valid sample values (an empty summary's quantiles); JSON has none.
    return value if math.isfinite(value) else str(value)


families = {}
for family in text_string_to_metric_families(sys.stdin.read()):
    families[family.name] = {
        "type": family.type,
        "help": family.documentation,
        "samples": [
            {"name": s.name, "labels": s.labels, "value": finite(s.value)} for s in family.samples
        ],
    }
json.dump(families, sys.stdout)
