"""schemathesis against the published ``/openapi.json``: requests generated from the schema — valid and
invalid bodies, query strings and path parameters — never get a 500, and every reply conforms to the
document: its status is documented for that operation, its content type and body match the schema
documented for that status (every refusal is the ``Refusal`` shape), its documented headers are there.

Every request carries the GM token of a real fight and names that fight, so the generated bodies reach
the endpoints' own checks rather than stopping at 401/404. The event stream is left out (it does not
end). A few examples per operation run in ``make test``; ``make test-slow`` (the ``slow`` marker) runs
many more.
"""

from __future__ import annotations

from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis (kassen[webtest]) is not installed")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis.checks import (  # noqa: E402
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.generation import GenerationMode  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from kassen.web.app import create_app  # noqa: E402
from kassen.web.settings import Settings  # noqa: E402

_SETTINGS: dict[str, Any] = {
    "deadline": None,
    "suppress_health_check": list(HealthCheck),
    "derandomize": True,
}


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server's app with one fight under way, its schema, and a strategy of requests over every
    operation (valid and invalid ones)."""
    db = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    app = create_app(Settings(db=f"sqlite:///{db}", allowed_hosts=("testserver", "localhost")))
    with TestClient(app) as c:
        made = c.post("/api/fights", json={"scenario": "sengoku/count-example", "seed": 3}).json()
        c.post(
            f"/api/fights/{made['id']}/actions",
            json={"state_id": made["state_id"], "auto": True},
            headers={"Authorization": f"Bearer {made['gm_token']}"},
        )
    loaded = schemathesis.openapi.from_asgi("/openapi.json", app).exclude(path_regex=r"/stream$")
    operations = [result.ok() for result in loaded.get_all_operations()]
    assert len(operations) >= 10
    cases = st.sampled_from(operations).flatmap(
        lambda op: st.one_of(op.as_strategy(GenerationMode.POSITIVE), op.as_strategy(GenerationMode.NEGATIVE))
    )
    return made, cases


#: Not only the status: the reply's status, type, body and headers against the document.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]


def _check(made: dict[str, Any], case: Any) -> None:
    if case.path_parameters and "fight_id" in case.path_parameters:
        case.path_parameters["fight_id"] = made["id"]
    response = case.call(headers={"Authorization": f"Bearer {made['gm_token']}"})
    assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.text[:500]}"
    case.validate_response(response, checks=CHECKS)
    if response.status_code >= 400:  # every refusal is the one JSON shape, in words
        body = response.json()
        assert isinstance(body.get("detail"), str) and body["detail"] and body.get("code"), body


def _run(fuzzed: Any, examples: int) -> None:
    made, cases = fuzzed

    @settings(max_examples=examples, **_SETTINGS)
    @given(case=cases)
    def check(case: Any) -> None:
        _check(made, case)

    check()


def test_generated_requests_never_get_a_500_and_every_reply_conforms(fuzzed: Any) -> None:
    _run(fuzzed, 150)


def test_every_refusal_is_documented_in_one_shape(tmp_path: Any) -> None:
    # the replies the layers in front of the endpoints give are in the document too
    import json

    from kassen.web.app import create_app
    from kassen.web.settings import Settings

    schema = create_app(Settings(db=f"sqlite:///{tmp_path / 'k.db'}")).openapi()
    assert "HTTPValidationError" not in json.dumps(schema)
    operations = [(p, m, op) for p, ops in schema["paths"].items() for m, op in ops.items()]
    assert len(operations) >= 10
    for path, method, op in operations:
        codes = set(op["responses"])
        assert {"400", "422", "429", "500", "503"} <= codes, (path, method)
        if "{fight_id}" in path:
            assert {"401", "403", "404"} <= codes, (path, method)
        if method == "post":
            assert {"403", "408", "413", "415", "507"} <= codes, (path, method)
        for code, reply in op["responses"].items():
            if code >= "400":
                ref = reply["content"]["application/json"]["schema"]["$ref"]
                assert ref == "#/components/schemas/Refusal", (path, method, code)


@pytest.mark.slow
def test_many_generated_requests_never_get_a_500_and_every_reply_conforms(fuzzed: Any) -> None:
    _run(fuzzed, 3000)
