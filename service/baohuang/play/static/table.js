// One table, as a seat, a spectator or an operator sees it.
//
// The loop is the simplest correct client of docs/clients.md:
//   1. follow the table's stream; its first frame (`snapshot`) is the caller's view: render it;
//   2. for each event: note it (the trick's plays, the log, the clock), and when the event is
//      newer than the view, read the table again (GET /v1/tables/{id}) and render that;
//   3. a move is POSTed with the version the page saw and an Idempotency-Key; 409 means someone
//      moved first (read again), 422 is the table's verdict, shown with its reason.
// Whatever a caller may not see never reaches it: the service cuts every answer to the caller.

// The pieces: api.js (requests with timeouts, the stream reader), live.js (one stream shared by
// the browser's tabs of a table), state.js (what the events mean, as data), words.js (what the
// page says of what happened, as data: both tested in node), announcer.js (the live region a
// screen reader follows), hand.js (the hand's layout), record.js (a deal's record as the
// replay's steps), replay.js (a finished deal stepped through), view.js and controls.js (the
// board, and the hand with its actions, drawn from this file's state), and this file: the
// controller — what the page holds, what it asks the table, what it does on each answer. Roles: "seat", "spectator", "operator", and "hotseat" — one page
// playing all five seats with the development service's platform view, showing only the hand of
// the seat to act (pass the device).

import { Api } from "./api.js";
import { Announcer } from "./announcer.js";
import { keyed, spokenCards } from "./cards.js";
import { controlsView, handPanel, SHORTCUTS } from "./controls.js";
import { fill, h } from "./dom.js";
import { fitHand } from "./hand.js";
import { seatName, t } from "./i18n.js";
import { watch } from "./live.js";
import { openRecord } from "./record.js";
import { announcement, emptyState, note as noteEvent } from "./state.js";
import { boardView, sentence as sentenceOf } from "./view.js";
import { outcome, problemOf, settle, troubleOf } from "./words.js";

const URGENT_SECONDS = 10; // the countdown turns red from here on

/** Open a table. `hotseat`: this page plays every seat (a development service, no credential). */
export async function openTable(root, tableId, credential, { hotseat = false } = {}) {
  const api = new Api(credential);
  const path = `v1/tables/${encodeURIComponent(tableId)}`;
  const state = {
    ...emptyState(), // trick, log, deadline, recent events, timed-out seats: kept by state.js
    answer: null, // the last table answer: {id, instance, version, view, last_seq, table?}
    role: null, // "seat", "spectator" or "operator", from the view's shape
    defaults: [], // GET /v1/rulesets
    selected: new Set(), // keys ("7S#2") of the selected cards of the own hand
    feedback: null, // what /v1/combos/* say of the selection
    notice: null, // the line under the actions: a verdict, a failed request or a note (words.js)
    unanswered: null, // the last write sent that got no answer: {version, seat, action, …}
    scores: null, // the finished deal's scores
    connection: "connecting",
    busy: false, // a move is on its way
    callCard: null, // the card chosen to call (G-2)
    hints: null, // the seat's legal moves that are plays, from GET …/legal-moves; null: not asked
    hintAt: -1, // which of them the hint button showed last
    hintRoute: true, // false once the service answered that it has no legal-moves route
    replay: null, // {steps, at}: a finished deal stepped through
    actor: null, // hot-seat: the seat whose hand is shown
    logOpen: null, // whether the player opened the log (null: the role's default)
  };
  const announcer = new Announcer(t("announcer"));

  // ---- reading -------------------------------------------------------------------------------

  /** Take a table answer (a read, a stream's opening, a move answer) unless it is older. */
  function accept(answer) {
    const before = state.answer;
    if (before && answer.version < before.version && answer.instance === before.instance) return;
    const view = answer.view;
    state.role = hotseat ? "hotseat" : view.hands ? "operator" : view.seat !== undefined ? "seat" : "spectator";
    if (hotseat && state.actor !== view.turn) {
      state.actor = view.turn; // another seat's turn: its hand, a fresh selection
      state.selected.clear();
      state.feedback = null;
    }
    const moved = answer.version !== before?.version;
    if (moved) {
      state.hints = null; // the top play changed: ask again
      state.hintAt = -1;
    }
    state.answer = answer;
    // what was said of an earlier table goes; a write that got no answer is settled
    Object.assign(state, settle(state, answer.version, state.recent));
    if (answer.table) state.deadline = answer.table.deadline ?? null;
    if (!view.over) state.scores = null;
    else if (!state.scores) loadScores();
    if (moved && state.selected.size) judgeSelection(); // does it still beat what is on top now?
    announceView(before?.view);
    render();
  }

  let reading = null;
  let readAgain = false;
  /** GET the table; reads asked for while one is on its way coalesce into one more. A read that
   *  fails (the network is gone) is left for the stream's reconnection, which reads again. */
  function reread() {
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = (async () => {
      do {
        readAgain = false;
        const answer = await api.get(path).catch(() => null);
        if (answer?.ok) accept(answer.body);
      } while (readAgain);
    })().finally(() => (reading = null));
    return reading;
  }

  /** The trick so far, from the recent log (after a reload the view holds only the top play). */
  async function loadTrick(lastSeq) {
    let page = await api.get(`${path}/events?after=${Math.max(0, lastSeq - 300)}&limit=300`).catch(() => null);
    if (page?.ok && page.body.reset) {
      // the log starts after that seq (the deal before's events left it): read it from its start
      page = await api.get(`${path}/events?after=0&limit=300`).catch(() => null);
    }
    Object.assign(state, emptyState());
    if (!page?.ok) return;
    for (const event of page.body.events) if (event.seq <= lastSeq) note(event);
  }

  /** The finished deal's scores: from the table's results when it keeps them, else from the
   *  stateless POST /v1/scores with the roles the view shows once the deal is over. */
  async function loadScores() {
    const view = state.answer.view;
    const results = state.answer.table?.results;
    if (results?.length) {
      state.scores = results.at(-1).score?.scores ?? null;
      return;
    }
    if (view.void) return;
    const body = view.hands
      ? { snapshot: view }
      : {
          ruleset: view.ruleset,
          mode: view.mode,
          emperor: view.emperor,
          guard: view.guard,
          guard_revealed: view.guard_revealed,
          rebellion: view.rebellion,
          finished: view.finished,
        };
    const answer = await api.post("v1/scores", body).catch(() => null);
    if (answer?.ok && answer.body.final) {
      state.scores = answer.body.scores;
      render();
    }
  }

  /** Note an event: the trick's plays, the clock, the log (state.js). */
  const note = (event) => noteEvent(state, event);

  /** The view as the seat that acts here sees it: a seat's own, or in hot-seat the platform's
   *  view cut down to the seat to act (its hand only, the others' counts). */
  function ownView() {
    const view = state.answer.view;
    if (state.role !== "hotseat") return view;
    const seat = state.actor;
    return { ...view, seat, hand: view.hands[seat], counts: view.hands.map((hand) => hand.length) };
  }

  // ---- the live region: what a screen reader hears ------------------------------------------

  const sentence = (line) => sentenceOf(face, line);

  /** An event as it happens, in words (state.js picks them). */
  function announceEvent(event) {
    const line = announcement(event);
    if (!line) return;
    const text = sentence(line);
    announcer.say(line.cards ? text.replace("{cards}", spokenCards(line.cards)) : text);
  }

  /** Whose turn it is now, and the deal's end when it just ended. */
  function announceView(before) {
    const view = state.answer.view;
    if (view.over) {
      if (before && !before.over) {
        const end = outcome(view, state.answer.table, state);
        announcer.after([t(end.title), ...end.lines.map((line) => sentence(line))].join(" "), "over");
      }
      return;
    }
    const text =
      view.turn === youSeat() || state.role === "hotseat"
        ? state.role === "hotseat"
          ? `${nameOf(view.turn)}: ${t("yourTurn")}`
          : t("yourTurn")
        : t("say_turn", { seat: nameOf(view.turn) });
    announcer.after(text, view.turn);
  }

  // ---- moving --------------------------------------------------------------------------------

  /** POST a write (a move, 托管, leaving, the next deal) for this table and take its answer.
   *  `sent` says what it does ({seat, action, cards?, …}), to tell whether it landed when its
   *  answer does not come (words.js). */
  async function send(route, body, sent) {
    const version = state.answer.version;
    state.busy = true;
    state.notice = null;
    render();
    try {
      const answer = await api.write(`${path}${route}`, { ...body, version });
      if (answer.ok) {
        state.selected.clear();
        state.feedback = null;
        state.unanswered = null; // whatever was sent before, this one is in
        const { version: after, instance, view, table } = answer.body;
        if (view) accept({ ...state.answer, version: after, instance, view, table: table ?? state.answer.table });
        else await reread();
      } else if (answer.status === 409) {
        await reread(); // someone moved first: look again (or an earlier try of ours landed)
        if (state.notice?.kind !== "landed") state.notice = { kind: "conflict", version: state.answer.version };
      } else {
        state.notice = { ...problemOf(answer), version: state.answer.version };
      }
    } catch (error) {
      // no answer in time, or no network: the write may have landed all the same; the table
      // moving on says which (settle), and the buttons come back meanwhile
      state.notice = { ...troubleOf(error), version, move: true };
      state.unanswered = { version, ...sent };
      Object.assign(state, settle(state, state.answer.version, state.recent));
    } finally {
      state.busy = false;
      render();
    }
  }

  function move(action, extra = {}) {
    const seat = ownView().seat;
    if (action === "play") extra = { cards: selectedCodes() };
    return send("/moves", { move: { seat, action, ...extra } }, { seat, action, ...extra });
  }

  function selectedCodes() {
    return hand()
      .filter((card) => state.selected.has(card.key))
      .map((card) => card.code);
  }

  const hand = () => keyed(state.answer ? (ownView().hand ?? []) : []);

  // ---- judging a selection: the stateless combo routes ------------------------------------

  let judging = 0;
  /** Is the selection a combo (classify), and does it beat the top play (compare, with the
   *  烤牌 cover where the ruleset has it)? Only the latest question's answer is shown. */
  async function judgeSelection() {
    const asked = ++judging;
    const cards = selectedCodes();
    const view = state.answer.view;
    if (!cards.length) {
      state.feedback = null;
      return renderControls();
    }
    const top = view.trick.top;
    const answer = await (
      top
        ? api.post("v1/combos/compare", { previous: top.cards, candidate: cards, ruleset: view.ruleset })
        : api.post("v1/combos/classify", { cards, ruleset: view.ruleset })
    ).catch(() => null);
    if (asked !== judging) return;
    if (!answer) return; // no answer: the table still judges the move itself
    state.feedback = answer.ok
      ? { top: Boolean(top), ...answer.body }
      : { problem: answer.body?.errors?.[0] };
    renderControls();
  }

  /** Whether the referee already said the selection cannot be played: Play stays disabled. */
  function selectionRefused() {
    const f = state.feedback;
    return Boolean(f && (f.problem || (f.top ? !f.beats : !f.valid)));
  }

  function toggle(key) {
    if (state.selected.has(key)) state.selected.delete(key);
    else state.selected.add(key);
    state.notice = null; // a new selection: the last refusal was about another
    // only the card and the controls change: the hand stays as it is, and so does the focus
    root
      .querySelector(`button[data-key="${CSS.escape(key)}"]`)
      ?.setAttribute("aria-pressed", String(state.selected.has(key)));
    renderControls();
    judgeSelection();
  }

  function clearSelection() {
    state.selected.clear();
    for (const card of root.querySelectorAll('button[data-key][aria-pressed="true"]'))
      card.setAttribute("aria-pressed", "false");
    judgeSelection();
  }

  // ---- hints: the seat's legal moves (GET …/legal-moves) ----------------------------------

  /** Select the next play of the seat's legal moves, cheapest first, round again after the last.
   *  With a top play these are exactly the plays that beat it. */
  async function hint() {
    const version = state.answer.version;
    if (state.hints === null) {
      const answer = await api.get(`${path}/legal-moves`).catch((error) => ({ error }));
      if (answer.error) {
        state.notice = { ...troubleOf(answer.error), version };
        return renderControls();
      }
      if (answer.status === 404 && !answer.body?.errors?.some((e) => e.code === "TABLE_NOT_FOUND")) {
        state.hintRoute = false; // a service without the route: no hint button from now on
        return renderControls();
      }
      if (!answer.ok) return;
      state.hints = answer.body.moves.filter((move) => move.action === "play");
      state.hintAt = -1;
    }
    state.selected.clear();
    if (!state.hints.length) {
      state.notice = { kind: "noHint", version };
      return render();
    }
    state.hintAt = (state.hintAt + 1) % state.hints.length;
    const cards = [...state.hints[state.hintAt].cards];
    for (const card of hand()) {
      const at = cards.indexOf(card.code);
      if (at >= 0) {
        cards.splice(at, 1);
        state.selected.add(card.key);
      }
    }
    state.notice = null;
    render();
    root.querySelector('[data-region=hand] [aria-pressed="true"]')?.scrollIntoView({ block: "nearest" });
    judgeSelection();
  }

  // ---- replay: a finished deal, step by step or trick by trick --------------------------------

  /** Open the deal's record, as this caller may see it (record.js), and replay it. */
  async function openReplay() {
    const steps = await openRecord(api, path, state.answer.table.deal);
    if (!steps) return;
    state.replay = { steps, at: 0 };
    render();
  }

  // ---- rendering ---------------------------------------------------------------------------

  /** The seat this page plays (its own, or in hot-seat the seat to act), or null. */
  const ownSeat = () => (state.role === "seat" || state.role === "hotseat" ? ownView().seat : null);
  /** The seat that is "you" in names: a seat's own (in hot-seat every seat is someone's). */
  const youSeat = () => (state.role === "seat" ? state.answer.view.seat : null);
  /** A seat as sentences name it: "Seat 2", "Seat 0 (you)", "Seat 3 (bot)". */
  const nameOf = (seat) => seatName(seat, youSeat(), { bot: Boolean(botOf(seat)) });
  const botOf = (seat) => state.answer.table?.seats?.[seat]?.bot ?? null;

  /** Re-draw the feedback, the notice and the buttons above the hand, keeping the focus. */
  function renderControls() {
    const controls = root.querySelector(".controls");
    if (!controls) return;
    const focused = document.activeElement?.dataset?.focus;
    controls.replaceWith(controlsView(face));
    if (focused) root.querySelector(`[data-focus="${CSS.escape(focused)}"]`)?.focus();
  }

  /** Draw the table again (view.js): the board scrolls in its own box, keeping its place; the
   *  hand and its actions sit below it, never over it; the focus stays where it was. */
  function render() {
    if (!state.answer) return;
    const focused = document.activeElement?.dataset?.focus;
    const scrolled = root.querySelector(".board")?.scrollTop ?? 0;
    fill(root, boardView(face), handPanel(face));
    root.classList.add("table");
    root.querySelector(".board").scrollTop = scrolled;
    const handElement = root.querySelector(".hand");
    if (handElement) fitHand(handElement);
    root.dataset.version = state.answer.version; // tests wait for the version they expect
    root.dataset.role = state.role;
    if (focused) root.querySelector(`[data-focus="${CSS.escape(focused)}"]`)?.focus();
    tick();
  }

  /** What the view may read and do (view.js). */
  const face = {
    state,
    seatView: ownView,
    hand,
    ownSeat,
    youSeat,
    nameOf,
    botOf,
    playing: () => state.role === "seat" || state.role === "hotseat",
    selectionRefused,
    act: {
      move,
      send,
      hint,
      clear: clearSelection,
      replay: openReplay,
      goReplay(to) {
        state.replay.at = Math.max(0, Math.min(state.replay.steps.length - 1, to));
        render();
      },
      closeReplay() {
        state.replay = null;
        render();
      },
      chooseCall(code) {
        state.callCard = code;
        renderControls();
      },
    },
  };

  /** The countdown of the seat to act, where the table keeps a clock; every 250 ms. Red only
   *  in the last seconds: a countdown that is red from its start says nothing. */
  function tick() {
    const element = document.getElementById("countdown");
    if (!element) return;
    const left = state.deadline === null ? null : state.deadline - (Date.now() / 1000 + api.skew);
    element.hidden = left === null || state.answer.view.over;
    if (left === null) return;
    const seconds = Math.max(0, Math.ceil(left));
    // no ⏱: an emoji is an empty box where the system has no emoji font
    element.textContent = t("timeLeft", { n: seconds });
    element.classList.toggle("urgent", seconds <= URGENT_SECONDS);
  }
  setInterval(tick, 250);

  // ---- keyboard: cards are buttons (Enter and Space press them); letters act ---------------

  root.addEventListener("click", (event) => {
    const card = event.target.closest("button[data-key]");
    if (card && root.contains(card)) toggle(card.dataset.key);
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest?.("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey)
      return;
    if (event.key === "Escape") return clearSelection();
    const action = event.key.toLowerCase() === "h" ? "hint" : SHORTCUTS[event.key.toLowerCase()];
    if (action) root.querySelector(`button[data-action="${action}"]:not([disabled])`)?.click();
  });
  document.addEventListener("languagechange", () => {
    announcer.label(t("announcer"));
    render();
  });

  // ---- start: the rulesets, then the stream ------------------------------------------------

  fill(root, h("p", {}, t("connecting")));
  const rulesets = await api.get("v1/rulesets").catch(() => null);
  state.defaults = rulesets?.ok ? rulesets.body : [];
  watch(api, tableId, {
    async onOpen(table) {
      await loadTrick(table.last_seq);
      accept(table); // the snapshot frame: render from the view
    },
    async onEvent(event) {
      note(event);
      announceEvent(event);
      if (event.version > state.answer.version) await reread();
      else render();
    },
    onStatus(status) {
      // back after a drop: the stream resumes after the last event it gave, and the table is
      // read again in case an event arrived while a read could not be made
      if (status === "live" && (state.connection === "retrying" || state.connection === "paused")) reread();
      state.connection = status;
      render();
    },
    onEnd(reason) {
      state.connection = "closed";
      if (!state.answer) fill(root, h("p", { class: "verdict", role: "alert" }, t("badLink")));
      else render();
      root.dataset.ended = reason;
    },
  });
}
