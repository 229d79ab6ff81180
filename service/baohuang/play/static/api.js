// The public HTTP API, as any client uses it (docs/clients.md): JSON requests with the caller's
// credential as a bearer token, idempotent moves, and a table's Server-Sent Events stream.

// The service root: this module is served at <root>/play/api.js, so the API is at <root>/v1/….
const ROOT = new URL("../", import.meta.url);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a request may take before the page gives up on it and says so. A referee answers in
 *  milliseconds; a request still open after this is held by a proxy or a full connection pool
 *  (six per host in Chromium), and a page that waits for it silently looks frozen. */
export const REQUEST_TIMEOUT_MS = 4000;

/** How far an answer's Date header may lag the server's clock: its rounding down to the
 *  second, and a header the server refreshes once a second. */
const DATE_LAG_MS = 2000;

/** A request that got no answer in time: the page shows it and the player may try again. */
export class TimeoutError extends Error {
  constructor(path) {
    super(`no answer from ${path} in ${REQUEST_TIMEOUT_MS / 1000} s`);
    this.name = "TimeoutError";
  }
}

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
    this.skew = 0; // the server's clock minus ours, in seconds, from the Date header (checkClock)
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

  /** fetch() whose whole exchange, body included, must end within REQUEST_TIMEOUT_MS: the
   *  AbortController cuts it otherwise, and the caller gets a TimeoutError. */
  async timed(path, init) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), REQUEST_TIMEOUT_MS);
    try {
      const response = await this.fetch(path, { ...init, signal: abort.signal });
      return { response, text: await response.text() };
    } catch (error) {
      throw abort.signal.aborted ? new TimeoutError(path) : error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A JSON request: {status, ok, body}. The body is the answer or a problem document (RFC 9457,
   *  whose `errors[0]` carries `code`, `rule`, `message`). Network errors and timeouts throw. */
  async request(method, path, body = undefined, headers = {}) {
    const init = { method, headers: { Accept: "application/json", ...headers } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
    const sent = Date.now();
    const { response, text } = await this.timed(path, init);
    this.checkClock(Date.parse(response.headers.get("Date") ?? ""), sent, Date.now());
    return { status: response.status, ok: response.ok, body: text ? JSON.parse(text) : null };
  }

  /** The server's clock against ours, from an answer's Date header (`date`) and when its
   *  request was sent and answered: the server wrote the header in between. The header counts
   *  whole seconds, and servers refresh it about once a second (uvicorn does), so it may lag
   *  the server's clock by up to DATE_LAG_MS: the server's clock less ours lies between
   *  date − received and date + DATE_LAG_MS − sent. Only an answer that came back within a
   *  second says anything (a slow one's Date may be seconds old); a clock is off only when that
   *  whole interval is, and then by about its middle. */
  checkClock(date, sent, received) {
    if (!date || received - sent > 1000) return;
    const low = date - received;
    const high = date + DATE_LAG_MS - sent;
    this.skew = low > 0 || high < 0 ? (low + high) / 2000 : 0;
  }

  get(path) {
    return this.request("GET", path);
  }

  post(path, body, headers) {
    return this.request("POST", path, body, headers);
  }

  /** POST a write that may be retried: one Idempotency-Key for every attempt, so an answer lost
   *  on the way back (a dropped connection, a 503) can be asked again without moving twice. A
   *  timeout is not retried: the player is told at once, and a second click is a new request
   *  (409 if the first one did land after all). */
  async write(path, body) {
    const key = newKey();
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await this.post(path, body, { "Idempotency-Key": key });
        if (answer.status !== 503 || attempt >= 2) return answer;
      } catch (error) {
        if (attempt >= 2 || error instanceof TimeoutError) throw error;
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

/** Follow a table's stream for as long as the table lives, or until `signal` aborts.
 *
 *  The first frame is `snapshot` (what GET /v1/tables/{id} answers); then one frame per event,
 *  whose `id` is `<seq>.<token>`. When the connection drops, reconnect with `Last-Event-ID`: the service
 *  resumes right after that event, with no gap and no duplicate (and no second `snapshot`).
 *  `after` (an event id) starts there at once: a page that already holds the table up to it.
 *  A `reset` frame (a failover rolled the log back) carries the table as it now is, like
 *  `snapshot`: it goes to onOpen again.
 *  "live" is said only once the service answered, and a connection silent for three heartbeats
 *  (15 s each by default) is treated as dropped: "live" never outlasts the heartbeats.
 *
 *  handlers: onOpen(table) and onEvent(event, id), awaited in order; onStatus("live" | "retrying");
 *  onBeat() on every chunk read, heartbeats included; onEnd(reason): "deleted", "replaced" or
 *  "token_revoked" (a `closed` event), or "unauthorized" (401: the token belongs to an old instance of the table)
 *  — then following stops. */
export async function follow(api, tableId, handlers, { silenceMs = 45000, after = null, signal = null } = {}) {
  let lastId = after;
  for (let attempt = 0; !signal?.aborted; attempt++) {
    const abort = new AbortController();
    const stop = () => abort.abort();
    signal?.addEventListener("abort", stop);
    let timer = null;
    const alive = () => {
      clearTimeout(timer);
      timer = setTimeout(stop, silenceMs);
      handlers.onBeat?.();
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
            // an event id is opaque to a client: send back what the service gave
            lastId = frame.data.last_event_id ?? String(frame.data.last_seq);
            await handlers.onOpen(frame.data);
          } else if (frame.event === "closed") {
            handlers.onEnd(frame.data.reason);
            return;
          } else {
            lastId = frame.id;
            await handlers.onEvent(frame.data, frame.id);
          }
        }
      }
    } catch {
      // the connection dropped (or went silent, or was given back): reconnect below
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", stop);
    }
    if (signal?.aborted) return;
    handlers.onStatus("retrying");
    await sleep(Math.min(5000, 200 * 2 ** attempt));
  }
}
