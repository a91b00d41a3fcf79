"""The schema tells API clients which error statuses each community endpoint answers."""

import pytest
from drf_spectacular.generators import SchemaGenerator

EXPECTED_ERRORS = {
    ("/api/ratings/", "post"): {"400"},
    ("/api/comments/", "post"): {"400", "404", "429"},
    ("/api/comments/{comment_id}/report/", "post"): {"400", "404", "429"},
    ("/api/bug-reports/", "post"): {"400", "429"},
    ("/api/moderation/comments/", "get"): {"400", "401", "403"},
    ("/api/moderation/comments/{comment_id}/hide/", "post"): {"400", "401", "403", "404", "409"},
    ("/api/moderation/bug-reports/", "get"): {"400", "401", "403"},
    ("/api/moderation/bug-reports/{bug_report_id}/resolve/", "post"): {
        "400",
        "401",
        "403",
        "404",
        "409",
    },
    ("/api/moderation/bug-reports/{bug_report_id}/note/", "post"): {"400", "401", "403", "404"},
    ("/api/moderation/log/", "get"): {"401", "403"},
}


@pytest.fixture(scope="module")
def schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


@pytest.mark.parametrize(("path", "method"), sorted(EXPECTED_ERRORS))
def test_error_statuses_are_documented_with_the_error_shape(
    schema: dict, path: str, method: str
) -> None:
    responses = schema["paths"][path][method]["responses"]
    assert EXPECTED_ERRORS[(path, method)] <= set(responses)
    for status in EXPECTED_ERRORS[(path, method)]:
        body = responses[status]["content"]["application/json"]["schema"]
        assert body == {"$ref": "#/components/schemas/Error"}


def test_the_error_component_has_code_message_and_field(schema: dict) -> None:
    components = schema["components"]["schemas"]
    assert components["Error"]["properties"]["error"] == {
        "$ref": "#/components/schemas/ErrorDetail"
    }
    detail = components["ErrorDetail"]
    assert set(detail["properties"]) == {"code", "message", "field"}
    assert detail["properties"]["field"]["nullable"] is True
