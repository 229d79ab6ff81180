// The public HTTP API, as any client uses it (docs/clients.md): JSON requests with the caller's
// credential as a bearer token, idempotent moves, and a table's Server-Sent Events stream.

// The service root: this module is served at <root>/play/api.js, so the API is at <root>/v1/….
const ROOT = new URL("../", import.meta.url);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh Idempotency-Key. crypto.randomUUID exists only in secure contexts (https, localhost);
 *  elsewhere the same 122 random bits are drawn from crypto.getRandomValues. */
export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export class Api {
  /** `credential`: a seat or spectator token, a platform key, or null (a development service). */
  constructor(credential = null) {
    this.credential = credential;
    this.skew = 0; // the server's clock minus ours, in seconds, from the Date header
  }

  headers(extra = {}) {
    const headers = { ...extra };
    if (this.credential) headers.Authorization = `Bearer ${this.credential}`;
    return headers;
  }

  /** fetch() on a path of the API with the credential. */
  fetch(path, init = {}) {
    return fetch(new URL(path, ROOT), { ...init, headers: this.headers(init.headers) });
  }

  /** A JSON request: {status, ok, body}. The body is the answer or a problem document (RFC 9457,
   *  whose `errors[0]` carries `code`, `rule`, `message`). Network errors throw. */
  async request(method, path, body = undefined, headers = {}) {
    const init = { method, headers: { Accept: "application/json", ...headers } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
    const response = await this.fetch(path, init);
    const date = Date.parse(response.headers.get("Date") ?? "");
    // the header counts whole seconds: only a larger difference is a clock that is off
    if (date) this.skew = Math.abs(date - Date.now()) > 2000 ? (date - Date.now()) / 1000 : 0;
    const text = await response.text();
    return { status: response.status, ok: response.ok, body: text ? JSON.parse(text) : null };
  }

  get(path) {
    return this.request("GET", path);
  }

  post(path, body, headers) {
    return this.request("POST", path, body, headers);
  }

  /** POST a write that may be retried: one Idempotency-Key for every attempt, so an answer lost
   *  on the way back (a dropped connection, a 503) can be asked again without moving twice. */
  async write(path, body) {
    const key = newKey();
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await this.post(path, body, { "Idempotency-Key": key });
        if (answer.status !== 503 || attempt >= 2) return answer;
      } catch (error) {
        if (attempt >= 2) throw error;
      }
      await sleep(300 * 2 ** attempt);
    }
  }
}

/** The frames of a Server-Sent Events body: {event, id, data} with `data` parsed as JSON.
 *  Comment lines (": heartbeat") only call `onBytes`, which every chunk read does. */
export async function* sseFrames(body, onBytes = () => {}) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onBytes();
      // lines may end in CRLF (as this service sends them), LF or CR; a CR that ends the chunk
      // waits for the next one, which may begin with its LF
      buffer = (buffer + value).replace(/\r\n|\r(?!$)/g, "\n");
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const frame = { event: "message", id: null, data: [] };
        for (const line of block.split("\n")) {
          if (!line || line.startsWith(":")) continue; // a comment: the heartbeat
          const colon = line.indexOf(":");
          const name = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (name === "data") frame.data.push(value);
          else frame[name] = value;
        }
        if (frame.data.length) yield { ...frame, data: JSON.parse(frame.data.join("\n")) };
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** Follow a table's stream for as long as the table lives.
 *
 *  The first frame is `snapshot` (what GET /v1/tables/{id} answers); then one frame per event,
 *  whose `id` is `<seq>.<token>`. When the connection drops, reconnect with `Last-Event-ID`: the
 *  service resumes right after that event, with no gap and no duplicate (and no second
 *  `snapshot`). A `reset` frame (a failover rolled the log back) carries the table as it now is,
 *  like `snapshot`: it is handed to onOpen again, and the stream goes on from there.
 *  A connection silent for three heartbeats (15 s each by default) is treated as dropped.
 *
 *  handlers: onOpen(table) and onEvent(event), awaited in order; onStatus("live" | "retrying");
 *  onEnd(reason): "deleted" or "replaced" (a `closed` event), or "unauthorized" (401: the token
 *  belongs to an old instance of the table) — then following stops. */
export async function follow(api, tableId, handlers, { silenceMs = 45000 } = {}) {
  let lastId = null;
  for (let attempt = 0; ; attempt++) {
    const abort = new AbortController();
    let timer = null;
    const alive = () => {
      clearTimeout(timer);
      timer = setTimeout(() => abort.abort(), silenceMs);
    };
    try {
      const headers = { Accept: "text/event-stream" };
      if (lastId !== null) headers["Last-Event-ID"] = String(lastId);
      const response = await api.fetch(`v1/tables/${encodeURIComponent(tableId)}/events`, {
        headers,
        signal: abort.signal,
      });
      if (response.status === 401 || response.status === 403 || response.status === 404) {
        handlers.onEnd(response.status === 404 ? "deleted" : "unauthorized");
        return;
      }
      if (response.ok) {
        handlers.onStatus("live");
        attempt = 0;
        alive();
        for await (const frame of sseFrames(response.body, alive)) {
          if (frame.event === "snapshot" || frame.event === "reset") {
            lastId = frame.data.last_event_id ?? String(frame.data.last_seq);
            await handlers.onOpen(frame.data);
          } else if (frame.event === "closed") {
            handlers.onEnd(frame.data.reason);
            return;
          } else {
            lastId = frame.id;
            await handlers.onEvent(frame.data);
          }
        }
      }
    } catch {
      // the connection dropped (or went silent): reconnect below
    } finally {
      clearTimeout(timer);
    }
    handlers.onStatus("retrying");
    await sleep(Math.min(5000, 200 * 2 ** attempt));
  }
}
