// @ts-check
// HTTP calls to the server. Errors come back as ApiError with the server's own message.

export class ApiError extends Error {
  /** `body`: the refusal's whole JSON body, for the fields some refusals add (a table's id). */
  constructor(status, code, message, body = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

function explain(body, status) {
  // FastAPI gives {"detail": "..."} or {"detail": [{msg, loc}]}; our server {"code", "message"}.
  if (!body) return { code: `http_${status}`, message: `HTTP ${status}` };
  if (body.message) return { code: body.code || `http_${status}`, message: body.message };
  const detail = body.detail ?? body.error;
  if (typeof detail === "string") return { code: body.code || `http_${status}`, message: detail };
  if (detail && typeof detail === "object" && !Array.isArray(detail)) {
    return { code: detail.code || `http_${status}`, message: detail.message || JSON.stringify(detail) };
  }
  if (Array.isArray(detail)) {
    return { code: "invalid", message: detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ") };
  }
  return { code: `http_${status}`, message: `HTTP ${status}` };
}

export async function api(method, path, body, headers = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, "network", error.message || "network error");
  }
  let data = null;
  const text = await response.text();
  try { data = text ? JSON.parse(text) : null; } catch { data = { message: text }; }
  if (!response.ok) {
    const { code, message } = explain(data, response.status);
    throw new ApiError(response.status, code, message, data);
  }
  return data;
}

export const get = (path, headers = {}) => api("GET", path, undefined, headers);
export const post = (path, body = {}) => api("POST", path, body);
