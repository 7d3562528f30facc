# Run by test/e2e/python-client.test.ts with Debian's python3-kubernetes: loads the client
# configuration it is given (a service account's bearer token), lists namespaces and asks who it is
# with a SelfSubjectReview, and prints what it saw as one JSON line. A refusal prints its status and
# reason instead, so the test reads both outcomes the same way.
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException


def self_subject_review(api_client):
    auth = client.AuthenticationV1Api(api_client)
    body = {"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"}
    if hasattr(auth, "create_self_subject_review"):
        info = auth.create_self_subject_review(body).status.user_info
        return {"via": "typed", "username": info.username, "groups": info.groups}
    # Clients older than 1.28's API (Debian bookworm has 22.6) lack the typed call: the same POST
    # through the generated client's own request path, with its bearer token.
    review = api_client.call_api(
        "/apis/authentication.k8s.io/v1/selfsubjectreviews",
        "POST",
        header_params={"Accept": "application/json", "Content-Type": "application/json"},
        body=body,
        response_type="object",
        auth_settings=["BearerToken"],
        _return_http_data_only=True,
    )
    info = review["status"]["userInfo"]
    return {"via": "call_api", "username": info["username"], "groups": info.get("groups")}


def main():
    api_client = config.new_client_from_config(config_file=sys.argv[1])
    try:
        namespaces = [n.metadata.name for n in client.CoreV1Api(api_client).list_namespace().items]
        out = {"namespaces": namespaces, **self_subject_review(api_client)}
    except ApiException as err:
        out = {"status": err.status, "body": json.loads(err.body) if err.body else None}
    print(json.dumps(out))


main()
