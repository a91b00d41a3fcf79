// A small fetch wrapper for the REST API: JSON in and out, CSRF header, typed errors.

/** An error answer of the API: `{"error": {"code", "message", "field"}}`. */
export class ApiError extends Error {
  constructor(status, code, message, field) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/** Call the API; resolve to the decoded JSON body, reject with ApiError on a non-2xx answer. */
export async function api(method, path, body) {
  const options = {
    method,
    credentials: "same-origin",
    headers: { Accept: "application/json" },
  };
  if (method !== "GET") {
    options.headers["Content-Type"] = "application/json";
    options.headers["X-CSRFToken"] = csrfToken();
    options.body = JSON.stringify(body ?? {});
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new ApiError(0, "network", error.message, null);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    const message = error.message || (data && data.detail) || `HTTP ${response.status}`;
    throw new ApiError(response.status, error.code || "http", message, error.field || null);
  }
  return data;
}
