/** JSON responses. Response.json is JSON.stringify, which writes own `__proto__` keys like any other. */
export function json(data: unknown, status = 200, headers?: HeadersInit): Response {
  return Response.json(data, { status, headers });
}

/** The error shape of ADK's API server (FastAPI's HTTPException): `{"detail": "..."}`. */
export function detailResponse(status: number, detail: string, headers?: HeadersInit): Response {
  return json({ detail }, status, headers);
}
