// What openapi-fetch cannot do from the document, by hand, named as in the Python SDK
// (baohuang_client_live): a table's stream (Server-Sent Events or NDJSON, which the document
// describes in words since a stream is not one JSON body) with reconnection and resume after the
// last item (as the stream names it: the SSE `id:`, an event's `id` or `seq`), a move retried
// under one Idempotency-Key, and an error answer as a typed `ProblemError`.
import type { Referee, Schemas } from "./index.js";

/** One event of the table's log: the event with its `seq`, `version`, `at` and `id`. */
export type LoggedEvent = Schemas["EventsPage"]["events"][number];

/** A stream's items, as Python's `Opening`, `Reset`, `Logged` and `Closed`: `opening` the
 * caller's table (its view) where the stream starts; `reset` the table as it now is after a Redis
 * failover rolled the log back past what the stream had sent (events from there on follow it);
 * `logged` one event; `closed` the stream's end (`deleted`, `replaced` or `token_revoked`). */
export type StreamItem =
  | { kind: "opening" | "reset"; table: Schemas["Table"] }
  | { kind: "logged"; seq: number; id: string; type: LoggedEvent["type"]; event: LoggedEvent }
  | { kind: "closed"; reason: string };

/** An error answer (an RFC 9457 problem document), thrown by `follow` and `ok` as Python's
 * `ProblemError` is raised. */
export class ProblemError extends Error {
  readonly problem: Schemas["ProblemDocument"];

  constructor(problem: Schemas["ProblemDocument"]) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.name = "ProblemError";
    this.problem = problem;
  }

  get status(): number {
    return this.problem.status;
  }
}

/** A call's answer as its data, or its problem document thrown as a `ProblemError` (Python's
 * `ok`): `ok(await client.GET("/v1/tables/{table_id}", …))`. */
export function ok<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data !== undefined) return answer.data;
  throw new ProblemError(asProblem(answer.response, answer.error));
}

function isProblem(body: unknown): body is Schemas["ProblemDocument"] {
  return (
    typeof body === "object" &&
    body !== null &&
    "type" in body &&
    "title" in body &&
    "status" in body &&
    "detail" in body
  );
}

/** The problem document of an error answer; one the service did not write (a proxy's page, an
 * empty body) becomes one with its status and text. */
function asProblem(response: Response, body: unknown): Schemas["ProblemDocument"] {
  if (isProblem(body)) return body;
  const detail = typeof body === "string" ? body : body === undefined ? "" : JSON.stringify(body);
  return { type: "about:blank", title: response.statusText, status: response.status, detail };
}

export interface FollowOptions {
  baseUrl: string;
  token?: string;
  after?: number | string;
  media?: "sse" | "ndjson";
  reconnects?: number;
  /** Seconds to wait after the first failure in a row (twice that after the second, …). */
  backoff?: number;
  signal?: AbortSignal;
}

const sleep = (seconds: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000));

/** The table's stream as the token's caller may see it, until the table is closed; a dropped
 * connection is reopened (up to `reconnects` times in a row) after the last item received
 * (`Last-Event-ID`), so nothing is lost or seen twice. Without `after` (an event's id or seq) it
 * opens with the caller's view. An error answer is thrown as a `ProblemError`. */
export async function* follow(tableId: string, options: FollowOptions): AsyncGenerator<StreamItem> {
  const { baseUrl, token, media = "sse", reconnects = 5, backoff = 0.2, signal } = options;
  let last = options.after === undefined ? undefined : String(options.after);
  let failures = 0;
  const url = `${baseUrl}/v1/tables/${encodeURIComponent(tableId)}/events`;
  for (;;) {
    const headers: Record<string, string> = {
      Accept: media === "sse" ? "text/event-stream" : "application/x-ndjson",
    };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (last !== undefined) headers["Last-Event-ID"] = String(last);
    try {
      const query = last === undefined ? "" : `?after=${encodeURIComponent(last)}`;
      const response = await fetch(url + query, { headers, signal });
      if (response.status !== 200 || response.body === null) {
        const text = await response.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: asProblem keeps the text
        }
        throw new ProblemError(asProblem(response, body));
      }
      const messages = media === "sse" ? sse(lines(response.body)) : ndjson(lines(response.body));
      for await (const [item, at] of messages) {
        failures = 0;
        last = at ?? last;
        yield item;
        if (item.kind === "closed") return;
      }
    } catch (error) {
      if (signal?.aborted || !(error instanceof TypeError) || ++failures > reconnects) throw error;
      await sleep(backoff * failures); // fetch's TypeError: the connection failed or dropped
    }
  }
}

async function* lines(body: NonNullable<Response["body"]>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffered.indexOf("\n")) >= 0) {
        yield buffered.slice(0, end).replace(/\r$/, "");
        buffered = buffered.slice(end + 1);
      }
    }
  } finally {
    await reader.cancel(); // a reader that stops early closes the connection
  }
}

type Positioned = [StreamItem, string | undefined];

// Where an item leaves the stream, for a resume: a table's `last_event_id` (else `last_seq`),
// an event's `id` (else `seq`).
function position(kind: string, data: Record<string, unknown>): string | undefined {
  const names = kind === "snapshot" || kind === "reset" ? ["last_event_id", "last_seq"] : ["id", "seq"];
  for (const name of names) {
    const value = data[name];
    if (typeof value === "string" || typeof value === "number") return String(value);
  }
  return undefined;
}

// JSON.parse's `any` takes the type the document gives each item (no cast needed). On the wire
// the stream opens with `snapshot`; the item is an `opening`, as in Python.
function item(kind: string, data: string): Positioned | undefined {
  const fields: Record<string, unknown> = JSON.parse(data);
  const at = position(kind, fields);
  if (kind === "snapshot" || kind === "reset") {
    const table: Schemas["Table"] = JSON.parse(data);
    return [{ kind: kind === "snapshot" ? "opening" : "reset", table }, at];
  }
  if (kind === "closed") {
    const closed: { reason: string } = JSON.parse(data);
    return [{ kind, reason: closed.reason }, at];
  }
  if (kind === "heartbeat") return undefined;
  const event: LoggedEvent = JSON.parse(data);
  return [{ kind: "logged", seq: event.seq, id: event.id, type: event.type, event }, at];
}

async function* sse(source: AsyncIterable<string>): AsyncGenerator<Positioned> {
  let kind = "message";
  let data: string[] = [];
  let id: string | undefined;
  for await (const line of source) {
    if (line === "") {
      const parsed = data.length ? item(kind, data.join("\n")) : undefined;
      if (parsed) yield [parsed[0], id ?? parsed[1]];
      kind = "message";
      data = [];
      id = undefined;
    } else if (!line.startsWith(":")) {
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") kind = value;
      if (field === "data") data.push(value);
      if (field === "id") id = value;
    }
  }
}

async function* ndjson(source: AsyncIterable<string>): AsyncGenerator<Positioned> {
  for await (const line of source) {
    if (!line.trim()) continue;
    const object: { type: string } = JSON.parse(line);
    const parsed = item(object.type, line);
    if (parsed) yield parsed;
  }
}

// A fresh key per move: a UUID where the runtime has Web Crypto (browsers, Node 19+).
const newKey = () =>
  globalThis.crypto?.randomUUID?.() ??
  `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;

export interface PostMoveOptions {
  /** The request's Idempotency-Key (default: a fresh one), as Python's `idempotency_key`. */
  idempotencyKey?: string;
  attempts?: number;
  /** Seconds to wait before the second attempt (twice that before the third, …) when the
   * answer names no `Retry-After`. */
  backoff?: number;
}

/** `POST /v1/tables/{id}/moves` applied at most once: every attempt carries the same
 * Idempotency-Key, so a retry after a 503 (STORE_UNAVAILABLE, OVERLOADED) or a dropped
 * connection gets the original answer. Any other answer is returned as it is. */
export async function postMove(
  client: Referee,
  tableId: string,
  body: Schemas["PostMove"],
  { idempotencyKey = newKey(), attempts = 5, backoff = 0.2 }: PostMoveOptions = {},
) {
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await client.POST("/v1/tables/{table_id}/moves", {
        params: { path: { table_id: tableId }, header: { "Idempotency-Key": idempotencyKey } },
        body,
      });
      if (answer.response.status !== 503 || attempt >= attempts) return answer;
      const retryAfter = Number(answer.response.headers.get("Retry-After"));
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : backoff * attempt);
    } catch (error) {
      if (!(error instanceof TypeError) || attempt >= attempts) throw error;
      await sleep(backoff * attempt);
    }
  }
}
