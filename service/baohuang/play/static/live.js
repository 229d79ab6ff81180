// Keeping every tab of a table live under the browser's connection limit.
//
// A stream is a long-lived HTTP/1.1 connection, and Chromium allows six per host: seven tabs of
// one table (five seats, the spectator, the operator), each with its own stream, leave the
// seventh on "connecting…" and every other request of the origin queued behind them. So the
// tabs of one browser share one stream per table:
//
//   - the tabs elect a leader with the Web Locks API (one lock per table): the tab holding the
//     lock follows the table's stream with its own credential, as a lone tab would;
//   - on a BroadcastChannel it tells the other tabs only *that* the table moved — the seq and
//     version of each event, a beat per chunk read, the stream's status — never what the event
//     says, since its events are cut to its own credential and may hold what others may not see;
//   - each other tab then reads the events after its last seq with its *own* credential
//     (GET /v1/tables/{id}/events?after=SEQ): short requests, which share the other connections;
//   - when the leader tab closes, its lock is released and a waiting tab takes over, resuming
//     the stream with Last-Event-ID from what it already holds.
//
// Where Web Locks are missing (pages served over plain http to another host are no secure
// context), every tab follows its own stream, and gives it back while hidden: it resumes from
// Last-Event-ID when shown again, so only the visible tabs hold connections.
//
// The handlers are those of api.js's follow(): onOpen, onEvent, onStatus, onEnd.

import { follow } from "./api.js";

const SILENCE_MS = 45000; // three heartbeats: a follower not hearing the leader for this long is not live

/** Follow `tableId` for this tab, sharing one stream with the browser's other tabs of it. */
export function watch(api, tableId, handlers, { share = "locks" in navigator && "BroadcastChannel" in window } = {}) {
  if (!share) return followWhileVisible(api, tableId, handlers);
  const name = `baohuang-table:${new URL("../", import.meta.url).href}:${tableId}`;
  const channel = new BroadcastChannel(name);
  let lastSeq = null; // the seq of the last event this tab holds (to drop one read twice)
  let position = null; // where this tab stands in the log: the id the service gave, sent back as is
  let ended = false;
  let leading = false;

  const end = (reason) => {
    if (ended) return;
    ended = true;
    channel.close();
    handlers.onEnd(reason);
  };
  const opened = async (table) => {
    lastSeq = table.last_seq;
    position = table.last_event_id ?? String(table.last_seq);
    await handlers.onOpen(table);
  };
  const delivered = async (event, id = null) => {
    if (lastSeq !== null && event.seq <= lastSeq) return; // read already (a poll met the stream)
    lastSeq = event.seq;
    position = id ?? String(event.seq);
    await handlers.onEvent(event);
  };

  // ---- a follower: hears the leader, reads with its own credential ------------------------

  let silence = null;
  let status = "connecting";
  const say = (next) => {
    if (next !== status) handlers.onStatus((status = next));
  };
  const heard = () => {
    clearTimeout(silence);
    silence = setTimeout(() => say("retrying"), SILENCE_MS);
  };

  let polling = null;
  let pollAgain = false;
  /** The events after this tab's position, with its own credential; polls asked for meanwhile
   *  coalesce. */
  function poll() {
    if (polling) {
      pollAgain = true;
      return polling;
    }
    polling = (async () => {
      do {
        pollAgain = false;
        const path = `v1/tables/${encodeURIComponent(tableId)}`;
        try {
          if (lastSeq === null) {
            const answer = await api.get(path);
            if (answer.status === 404) return end("deleted");
            if (answer.status === 401 || answer.status === 403) return end("unauthorized");
            if (answer.ok) await opened(answer.body);
            continue;
          }
          const page = await api.get(`${path}/events?after=${encodeURIComponent(position)}&limit=500`);
          if (page.status === 404) return end("deleted");
          if (page.status === 401 || page.status === 403) return end("unauthorized");
          if (!page.ok) continue;
          if (page.body.reset) {
            // the log no longer holds this tab's position (a failover rolled it back): read the
            // table again, as it now is, and poll on from that answer
            lastSeq = null;
            pollAgain = true;
            continue;
          }
          for (const event of page.body.events) await delivered(event);
          // events this caller may not see leave gaps: it holds everything up to last_seq
          lastSeq = Math.max(lastSeq, page.body.last_seq);
          position = page.body.last_event_id ?? String(lastSeq);
          if (page.body.events.length >= 500) pollAgain = true;
        } catch {
          // no answer (a timeout, the network): the next beat of the leader asks again
        }
      } while (pollAgain && !ended && !leading);
    })().finally(() => (polling = null));
    return polling;
  }

  channel.onmessage = ({ data }) => {
    if (leading || ended) return;
    if (data.kind === "hello") return;
    heard();
    if (data.kind === "status") say(data.status);
    else if (data.kind === "end") end(data.reason);
    // a new event, or one logged again at a seq this tab already holds (the log was rolled back
    // by a failover: its id names another write), or a reset the leader's stream received
    else if (data.kind === "event" && (lastSeq === null || data.seq > lastSeq || data.id !== position))
      poll();
    else if (data.kind === "reset") poll();
    else if (data.kind === "beat") {
      say("live");
      if (lastSeq === null) poll();
    }
  };

  // ---- the leader: follows the stream, tells the others ----------------------------------

  let leaderStatus = "connecting";
  const lead = async () => {
    leading = true;
    clearTimeout(silence);
    await polling; // a poll on its way finishes first: the stream resumes after what it read
    const stop = new AbortController();
    const tell = (message) => channel.postMessage(message);
    channel.onmessage = ({ data }) => {
      if (data.kind === "hello") tell({ kind: "status", status: leaderStatus });
    };
    await follow(
      api,
      tableId,
      {
        async onOpen(table) {
          // the stream's opening, or a reset after a rollback: the others check their position
          tell({ kind: "reset" });
          await opened(table);
        },
        async onEvent(event, id) {
          tell({ kind: "event", seq: event.seq, version: event.version, id });
          await delivered(event, id);
        },
        onStatus(next) {
          leaderStatus = next;
          tell({ kind: "status", status: next });
          handlers.onStatus(next);
        },
        onBeat: () => tell({ kind: "beat" }),
        onEnd(reason) {
          // a deleted or replaced table is everyone's; an old or revoked token (401,
          // token_revoked) is this tab's matter: the other tabs hold tokens of their own
          if (reason === "deleted" || reason === "replaced") tell({ kind: "end", reason });
          end(reason);
          stop.abort();
        },
      },
      { silenceMs: SILENCE_MS, after: position, signal: stop.signal },
    );
  };

  // Ask the lock; while waiting, this tab is a follower. The lock is held until the tab goes.
  navigator.locks.request(name, () => lead());
  channel.postMessage({ kind: "hello" }); // a leader answers with its stream's status
  poll(); // the table as it is now, with this tab's own credential
}

/** Without shared locks: this tab's own stream, given back while the tab is hidden. */
function followWhileVisible(api, tableId, handlers) {
  let position = null; // the id of the last event this tab holds, as the service gave it
  let stop = null;
  let ended = false;
  const start = () => {
    if (ended || stop) return;
    stop = new AbortController();
    follow(
      api,
      tableId,
      {
        onOpen: async (table) => {
          position = table.last_event_id ?? String(table.last_seq);
          await handlers.onOpen(table);
        },
        onEvent: async (event, id) => {
          position = id ?? String(event.seq);
          await handlers.onEvent(event);
        },
        onStatus: handlers.onStatus,
        onEnd: (reason) => {
          ended = true;
          handlers.onEnd(reason);
        },
      },
      { silenceMs: SILENCE_MS, after: position, signal: stop.signal },
    );
  };
  document.addEventListener("visibilitychange", () => {
    if (document.hidden && stop) {
      stop.abort(); // the connection goes back to the browser's pool
      stop = null;
      handlers.onStatus("paused");
    } else if (!document.hidden) start();
  });
  start();
}
