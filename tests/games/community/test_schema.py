"""The community endpoints are in the OpenAPI schema, with their request bodies."""

from drf_spectacular.generators import SchemaGenerator

COMMUNITY_PATHS = {
    "/api/site/": {"get"},
    "/api/ratings/": {"post"},
    "/api/comments/": {"get", "post"},
    "/api/comments/{comment_id}/report/": {"post"},
    "/api/bug-reports/": {"post"},
    "/api/moderation/comments/": {"get"},
    "/api/moderation/comments/{comment_id}/hide/": {"post"},
    "/api/moderation/comments/{comment_id}/delete/": {"post"},
    "/api/moderation/comments/{comment_id}/restore/": {"post"},
    "/api/moderation/comments/{comment_id}/dismiss/": {"post"},
    "/api/moderation/bug-reports/": {"get"},
    "/api/moderation/bug-reports/{bug_report_id}/resolve/": {"post"},
    "/api/moderation/bug-reports/{bug_report_id}/note/": {"post"},
    "/api/moderation/refused/": {"get"},
    "/api/moderation/log/": {"get"},
}


def test_schema_contains_every_community_endpoint() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path, methods in COMMUNITY_PATHS.items():
        assert path in schema["paths"], path
        assert methods <= set(schema["paths"][path]), path
    operation_ids = [
        operation["operationId"] for item in schema["paths"].values() for operation in item.values()
    ]
    assert len(operation_ids) == len(set(operation_ids))


def test_schema_describes_comment_input_and_site_output() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    assert set(components["CommentInput"]["properties"]) == {"text", "parent"}
    assert set(components["Site"]["properties"]) >= {"version", "commit", "counters", "ratings"}
    params = schema["paths"]["/api/moderation/comments/"]["get"]["parameters"]
    queue = next(p for p in params if p["name"] == "queue")
    assert set(queue["schema"]["enum"]) == {"reported", "recent", "hidden", "deleted"}
