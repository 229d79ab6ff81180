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
// screen reader follows), hand.js (the hand's layout), replay.js (a finished deal stepped
// through), and this file: the controller and the view. Roles: "seat", "spectator", "operator",
// and "hotseat" — one page playing all five seats with the development service's platform view,
// showing only the hand of the seat to act (pass the device).

import { Api, REQUEST_TIMEOUT_MS } from "./api.js";
import { beforePlayActions, callable, playActions, rulesetSpec } from "./actions.js";
import { Announcer } from "./announcer.js";
import { cardElement, cardRow, keyed, spokenCards } from "./cards.js";
import { fill, h } from "./dom.js";
import { fitHand } from "./hand.js";
import { reasonText, seatName, t } from "./i18n.js";
import { watch } from "./live.js";
import { replayView } from "./replay.js";
import { announcement, emptyState, eventCards, logLine, note as noteEvent, replaySteps } from "./state.js";
import { outcome, problemOf, settle, troubleOf } from "./words.js";

const PLACES = ["place1", "place2", "place3", "place4", "place5"];
const SHORTCUTS = { p: "play", s: "pass", y: "yield", j: "jiefeng" };
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

  /** Read the deal's events from the log and replay them. */
  async function openReplay() {
    const events = [];
    for (let after = 0; ; ) {
      const page = await api.get(`${path}/events?after=${after}&limit=1000`).catch(() => null);
      if (!page?.ok) return;
      events.push(...page.body.events);
      if (!page.body.events.length || page.body.last_seq <= page.body.events.at(-1).seq) break;
      after = page.body.events.at(-1).seq;
    }
    const view = state.answer.view;
    // the hands this caller may see: every hand (operator, hot-seat), its own (a seat), none
    const finals = view.hands ? Object.fromEntries(view.hands.map((cards, seat) => [seat, cards])) : {};
    if (view.hand) finals[view.seat] = view.hand;
    startReplay(events, finals);
  }

  /** Replay a finished deal from its events and the final hands this caller may see. */
  function startReplay(events, finals) {
    state.replay = { steps: replaySteps(events, finals), at: 0 };
    render();
  }

  function renderReplay() {
    return replayView(state.replay, {
      nameOf,
      describe,
      own: ownSeat(),
      button,
      go(to) {
        state.replay.at = Math.max(0, Math.min(state.replay.steps.length - 1, to));
        render();
      },
      close() {
        state.replay = null;
        render();
      },
    });
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
    const view = ownView();
    controls.replaceWith(renderOwnControls(view, rulesetSpec(view.ruleset, state.defaults)));
    if (focused) root.querySelector(`[data-focus="${CSS.escape(focused)}"]`)?.focus();
  }

  function render() {
    if (!state.answer) return;
    const focused = document.activeElement?.dataset?.focus;
    const scrolled = root.querySelector(".board")?.scrollTop ?? 0;
    const { view } = state.answer;
    const spec = rulesetSpec(view.ruleset, state.defaults);
    const own = playing() ? ownView() : null;
    // the board scrolls in its own box; the hand and its actions sit below it, never over it
    fill(
      root,
      h(
        "div",
        { class: "board" },
        renderStatus(view, spec),
        h(
          "div",
          { class: "seats" },
          seatOrder(view).map((seat) => renderSeat(view, seat)),
        ),
        renderTrick(view),
        renderCrown(view),
        renderOver(view),
        state.replay ? renderReplay() : null,
        renderLog(),
        // 托管 and leaving are rare: below the log, out of the way of the actions of every turn
        state.role === "seat" && state.answer.table?.seats
          ? h("div", { class: "actions seat-menu" }, renderSeatClock(view, state.answer.table.seats[view.seat]))
          : null,
      ),
      // hot-seat: none once over; a seat that is out, or a finished deal: nothing to act on
      own && !state.replay && !view.over && own.hand?.length ? renderOwn(own) : null,
    );
    root.classList.add("table");
    root.querySelector(".board").scrollTop = scrolled;
    const handElement = root.querySelector(".hand");
    if (handElement) fitHand(handElement);
    root.dataset.version = state.answer.version; // tests wait for the version they expect
    root.dataset.role = state.role;
    if (focused) root.querySelector(`[data-focus="${CSS.escape(focused)}"]`)?.focus();
    tick();
  }

  const playing = () => state.role === "seat" || state.role === "hotseat";

  /** A seat sees the others in playing order after it, itself last (next to its hand). */
  function seatOrder(view) {
    const own = ownSeat();
    const first = own === null ? 0 : own + 1;
    return [0, 1, 2, 3, 4].map((step) => (first + step) % 5);
  }

  function renderStatus(view, spec) {
    const options = [
      spec.kaopai && t("kaopai"),
      spec.bie6 && t("bie6"),
      spec.deck === "short" && t("deck_short"),
    ];
    const own = ownSeat();
    const whose = view.over
      ? t("over")
      : view.turn === own
        ? state.role === "hotseat"
          ? `${seatName(own)} · ${t("yourTurn")}`
          : t("yourTurn")
        : t("waiting", { seat: nameOf(view.turn) });
    const role = {
      seat: seatName(view.seat),
      spectator: t("spectator"),
      operator: t("operator"),
      hotseat: t("hotseatTitle"),
    }[state.role];
    return h(
      "header",
      { class: "status" },
      h("span", { class: "who" }, role),
      h("strong", { class: view.turn === own && !view.over ? "your-turn" : "", "data-region": "to-act" }, whose),
      h("span", { class: "countdown", id: "countdown", hidden: true }),
      h(
        "span",
        { class: `connection ${state.connection}`, "data-connection": state.connection },
        t(state.connection),
      ),
      h(
        "span",
        { class: "about" },
        `${state.answer.id} · ${t(`ruleset_${spec.base}`)}`,
        ...options.filter(Boolean).map((o) => ` · ${o}`),
        " · ",
        t(`phase_${view.phase}`),
        view.crown?.stage ? ` · ${t(`stage_${view.crown.stage}`)}` : "",
        view.mode !== "team" ? ` · ${t(`mode_${view.mode}`)}` : "", // 暗独 shows only to the emperor
        h("span", { class: "version", title: `${t("version")} ${state.answer.version}` }, ` · v${state.answer.version}`),
      ),
    );
  }

  /** Role badges, as far as this caller may know them: the view names the guard only when it is
   *  shown (明保), to the guard itself, or once the deal is over (G-8). A bot seat says so. */
  function badges(view, seat) {
    const list = [];
    const seats = state.answer.table?.seats;
    if (view.phase === "crown") {
      if (seat === view.emperor) list.push(["crown", t("crownHolder")]);
    } else if (seat === view.emperor) list.push(["emperor", t("emperor")]);
    const own = ownSeat();
    if (view.guard === seat && view.guard !== view.emperor) {
      list.push([
        "guard",
        view.guard_revealed || view.over || own === null || own !== seat ? t("guard") : t("hiddenGuard"),
      ]);
    }
    // the role 革命党, and apart from it the action 造反 for a seat that declared it
    if (rebel(view, seat)) list.push(["rebel", t("roleRebel")]);
    if (view.rebellion.includes(seat)) list.push(["rebelled", t("rebelled")]);
    if (botOf(seat)) list.push(["bot", t("bot"), t(`level_${botOf(seat)}`)]);
    if (seats?.[seat]?.trustee) list.push(["trustee", t("trustee")]);
    if (seats?.[seat]?.left) list.push(["left", t("left")]);
    const place = view.positions ? view.positions[seat] - 1 : view.finished.indexOf(seat);
    if (place >= 0) list.push(["place", t(PLACES[place])]);
    return list.map(([kind, label, title]) =>
      h("span", { class: `badge ${kind}`, "data-badge": kind, title: title ?? null }, label),
    );
  }

  /** Whether ``seat`` is known to this caller as a rebel (革命党): once roles are settled, every
   *  seat but the emperor in a game without a guard, every seat but a known guard, and a seat
   *  itself when its view names no guard (the guard always sees itself, G-8). */
  function rebel(view, seat) {
    if (view.phase !== "play" || seat === view.emperor) return false;
    if (view.mode !== "team") return true;
    if (view.guard !== null) return seat !== view.guard;
    return seat === ownSeat();
  }

  function renderSeat(view, seat) {
    const trick = view.trick;
    const played = state.trick.plays[seat] ?? (trick.top?.seat === seat ? trick.top.cards : null);
    const marks = [
      trick.passed.includes(seat) && t("passed"),
      trick.yielded.includes(seat) && t("yielded"),
      trick.jiefeng === seat && t("jiefeng"),
    ].filter(Boolean);
    const total = state.answer.table?.totals?.[seat];
    const count = view.counts?.[seat] ?? view.hands[seat].length; // a platform's view has hands
    const own = ownSeat();
    const cards = `${count} ${t("cards")}`;
    return h(
      "article",
      {
        class: `seat${seat === own ? " me" : ""}${seat === view.turn && !view.over ? " turn" : ""}${trick.top?.seat === seat ? " top" : ""}`,
        "data-seat": seat,
        "aria-current": seat === view.turn && !view.over ? "true" : null,
      },
      h(
        "h2",
        {},
        h("span", { class: "name" }, seatName(seat, state.role === "seat" ? own : null)),
        // the count as a small stack of cards: read out as "33 cards"
        h("span", { class: "count", title: cards, "aria-label": cards }, String(count)),
      ),
      h(
        "div",
        { class: "badges" },
        badges(view, seat),
        total !== undefined ? h("span", { class: "total" }, `${t("total")} ${total}`) : null,
      ),
      h(
        "div",
        { class: `play${state.trick.over ? " done" : ""}` },
        played ? h("span", { "data-play": played.join(" ") }, cardRow(played, { small: true })) : null,
        marks.map((mark) => h("span", { class: "mark" }, mark)),
      ),
      state.role === "operator"
        ? h("div", { class: "full-hand", "data-hand": seat }, cardRow(view.hands[seat], { small: true }))
        : null,
    );
  }

  /** The trick in the middle of the table: the play to beat and who made it, or who leads. */
  function renderTrick(view) {
    if (view.phase !== "play" || view.over) return null;
    const top = view.trick.top;
    return h(
      "section",
      { class: "trick", "data-region": "trick", "aria-label": t("trick") },
      h("span", { class: "label" }, t("trick")),
      top
        ? [
            h("span", {}, t("topPlay", { seat: nameOf(top.seat) })),
            h("span", { "data-play": top.cards.join(" ") }, cardRow(top.cards)),
          ]
        : h("span", {}, t("toLead", { seat: nameOf(view.turn) })),
    );
  }

  /** Before play: the crown's hand-ons and the cards travelling with it; the called card. */
  function renderCrown(view) {
    if (view.phase === "play" && !view.called) return null;
    const crown = view.crown;
    return h(
      "section",
      { class: "crown-info", "data-region": "trick" },
      view.called
        ? h("span", { "data-play": view.called }, `${t("called")}: `, cardRow([view.called], { small: true }))
        : null,
      crown ? h("span", {}, `${t("passes")}: ${crown.passes}`) : null,
      crown?.pile.length
        ? h(
            "span",
            {},
            `${t("pile")}: `,
            h("span", { "data-play": crown.pile.join(" ") }, cardRow(crown.pile, { small: true })),
          )
        : null,
    );
  }

  /** The hand and what the seat may do with it: below the board, every card on screen. */
  function renderOwn(view) {
    return h(
      "section",
      { class: "own", "aria-label": t("hand"), "data-own-seat": view.seat },
      renderOwnControls(view, rulesetSpec(view.ruleset, state.defaults)),
      h("h2", {}, state.role === "hotseat" ? `${seatName(view.seat)} · ` : "", t("hand"), ` · ${view.hand.length} ${t("cards")}`),
      h(
        "div",
        { class: "hand", "data-region": "hand" },
        hand().map((card) =>
          cardElement(card.code, { button: true, key: card.key, selected: state.selected.has(card.key) }),
        ),
      ),
    );
  }

  /** What the seat may do now, and what the referee said of its selection or its last move. */
  function renderOwnControls(view, spec) {
    const actions =
      view.phase === "play" ? playActions(view, view.seat, spec) : beforePlayActions(view, view.seat, spec);
    const call = actions.includes("call") ? renderCallPicker(view) : null;
    const seatState = state.answer.table?.seats?.[view.seat];
    const ruled = state.notice?.kind === "rule"; // the table's verdict says it: no second refusal
    return h(
      "div",
      { class: "controls", "data-region": "actions" },
      seatState?.trustee && state.role === "seat"
        ? h("p", { class: "note", "data-trustee-note": "" }, t(seatState.entered > 3 ? "ownTrusteeLocked" : "ownTrustee"))
        : null,
      call,
      h(
        "div",
        { class: "actions" },
        actions.map((action) => actionButton(action, view)),
        actions.includes("play") && state.hintRoute ? button("hint", t("hint"), hint, "H") : null,
        actions.includes("play") ? button("clear", t("clear"), clearSelection, "Esc") : null,
      ),
      ruled ? null : renderFeedback(),
      state.notice ? renderNotice(state.notice) : null,
      actions.includes("play") ? h("p", { class: "hint keys" }, t("shortcuts")) : null,
    );
  }

  function button(name, label, onclick, key = null, disabled = false, describedBy = null) {
    return h(
      "button",
      {
        type: "button",
        class: `action ${name}`,
        "data-action": name,
        "data-focus": `action:${name}`,
        onclick,
        disabled: disabled || state.busy,
        "aria-describedby": describedBy,
      },
      label,
      key ? h("kbd", {}, key) : null,
    );
  }

  /** The cards that may be called (G-2), drawn as cards: pressing one chooses it. With none, the
   *  reason the Call button is disabled. */
  function renderCallPicker(view) {
    const options = keyed(callable(view.hand));
    if (!options.some(({ code }) => code === state.callCard)) state.callCard = options[0]?.code ?? null;
    if (!options.length) return h("p", { class: "note", id: "call-none", "data-region": "call" }, t("callNone"));
    return h(
      "div",
      // the seat's own cards (G-2: a card it holds three of), drawn as cards
      { class: "call-picker", role: "radiogroup", "aria-label": t("called"), "data-region": "call" },
      h("span", { class: "label" }, `${t("called")}: `),
      options.map(({ code }) => {
        const card = cardElement(code, { small: true });
        return h(
          "button",
          {
            type: "button",
            class: "call-card",
            role: "radio",
            "data-call-card": code,
            "data-focus": `call:${code}`,
            "aria-checked": String(code === state.callCard),
            onclick: () => {
              state.callCard = code;
              renderControls();
            },
          },
          card,
        );
      }),
    );
  }

  function actionButton(action, view) {
    const key = Object.keys(SHORTCUTS)
      .find((k) => SHORTCUTS[k] === action)
      ?.toUpperCase();
    if (action === "play") {
      // disabled until a selection, and for one the referee already said cannot be played
      const refused = selectionRefused();
      return button("play", t("play"), () => move("play"), key, state.selected.size === 0 || refused, refused ? "feedback" : null);
    }
    if (action === "call")
      return button(
        "call",
        t("call"),
        () => move("call", { card: state.callCard }),
        null,
        !state.callCard,
        state.callCard ? null : "call-none",
      );
    const label = action === "decline" && view.phase === "crown" ? t("declineCrown") : t(action);
    return button(action, label, () => move(action), key);
  }

  /** 托管 and leaving, where the table keeps clocks (T-11, S-9). */
  function renderSeatClock(view, mine) {
    if (!mine || view.over) return null;
    const seat = view.seat;
    return [
      button("trustee", mine.trustee ? t("trusteeOff") : t("trusteeOn"), () =>
        send(`/seats/${seat}/trustee`, { on: !mine.trustee }, { seat, action: "trustee", on: !mine.trustee }),
      ),
      mine.left
        ? null
        : button(
            "leave",
            t("leave"),
            () => confirm(t("leaveSure")) && send(`/seats/${seat}/leave`, {}, { seat, action: "leave" }),
          ),
    ];
  }

  /** A reason as a player reads it: the sentence its code picks; code and rule on hover. */
  function reason(code, rule) {
    return h("span", { class: "reason", "data-code": code, title: rule ? `${code} (${rule})` : code }, reasonText(code));
  }

  function renderFeedback() {
    const f = state.feedback;
    const at = { id: "feedback", "aria-live": "polite" };
    if (!f) return h("p", { class: "feedback", ...at });
    if (f.problem) return h("p", { class: "feedback bad", ...at }, reason(f.problem.code, f.problem.rule));
    const good = f.top ? f.beats : f.valid;
    const what = f.top ? (f.beats ? t("beats") : t("doesNotBeat")) : f.valid ? t("combo") : t("notCombo");
    return h(
      "p",
      { class: `feedback ${good ? "good" : "bad"}`, ...at },
      good ? "✓ " : "✗ ",
      what,
      f.reason ? [" — ", reason(f.reason.code, f.reason.rule)] : "",
      // 烤牌 (K-6): which cards of the selection cover which card of the top play
      f.cover?.some((item) => item.by.length > 1)
        ? h(
            "span",
            { class: "cover" },
            ` ${t("cover")}: `,
            f.cover.map((item) =>
              h(
                "span",
                { class: "covered" },
                cardRow(item.by, { small: true }),
                " → ",
                cardRow([item.card], { small: true }),
              ),
            ),
          )
        : null,
    );
  }

  /** The notice, worded by its kind (words.js): a rule's verdict with its reason; a request
   *  that failed, with what to do; a note. */
  function renderNotice(notice) {
    const kind = notice.kind;
    if (kind === "rule")
      return h(
        "p",
        { class: "verdict", role: "alert", "data-kind": kind },
        h("strong", {}, `${t("refused")}: `),
        reason(String(notice.code), notice.rule),
      );
    if (kind === "conflict" || kind === "landed" || kind === "missed" || kind === "noHint") {
      const key = { conflict: "conflict", noHint: "noHint" }[kind] ?? kind;
      return h("p", { class: "verdict note", role: "status", "data-kind": kind }, t(key));
    }
    const key = kind === "timeout" && !notice.move ? "trouble_timeout_read" : `trouble_${kind}`;
    return h(
      "p",
      { class: "verdict trouble", role: "alert", "data-kind": kind },
      t(key, { n: REQUEST_TIMEOUT_MS / 1000 }),
    );
  }

  /** The end of the deal: what happened, in words (words.js), the places and scores, and the
   *  cards a seat still held. */
  function renderOver(view) {
    if (!view.over) return null;
    const next =
      (state.role === "operator" || state.role === "hotseat") && state.answer.table
        ? button("next-deal", t("nextDeal"), () => send("/deals", {}, { action: "next-deal" }))
        : null;
    const replay = state.replay ? null : button("replay", t("replay"), openReplay);
    const end = outcome(view, state.answer.table, state);
    const rows = [0, 1, 2, 3, 4].map((seat) =>
      h(
        "tr",
        {},
        h("th", {}, nameOf(seat)),
        h("td", {}, view.positions ? t(PLACES[view.positions[seat] - 1]) : ""),
        h("td", { class: "score" }, state.scores ? String(state.scores[seat]) : ""),
      ),
    );
    const left = state.role === "seat" ? view.hand : null; // what the seat did not get to play
    return h(
      "section",
      { class: "over", "data-outcome": end.title },
      h("h2", {}, t(end.title)),
      end.lines.map((line) => h("p", { class: "why" }, sentence(line))),
      view.void
        ? null
        : h(
            "table",
            {},
            h("thead", {}, h("tr", {}, h("th", {}), h("th", {}, t("positions")), h("th", {}, t("score")))),
            h("tbody", {}, rows),
          ),
      left?.length
        ? h("p", { class: "left-hand" }, `${t("handLeft")}: `, h("span", { "data-region": "hand" }, cardRow(left, { small: true })))
        : null,
      h("div", { class: "actions" }, replay, next),
    );
  }

  /** A sentence of state.js or words.js ({key, seats, seatLists, causes, places, params}) in
   *  the page's words: seats named, causes and places as labels. */
  function sentence(line) {
    const params = { ...line.params };
    for (const [name, seat] of Object.entries(line.seats ?? {})) params[name] = nameOf(seat);
    for (const [name, seats] of Object.entries(line.seatLists ?? {}))
      params[name] = seats.map((seat) => nameOf(seat)).join(t("and"));
    for (const [name, cause] of Object.entries(line.causes ?? {})) params[name] = t(`cause_${cause}`);
    for (const [name, place] of Object.entries(line.places ?? {})) params[name] = t(PLACES[place - 1]);
    return t(line.key, params);
  }

  /** A log line: the sentence of its event (state.js picks the label), and its cards. */
  function describe(entry) {
    const cards = eventCards(entry);
    return [
      h("span", {}, sentence(logLine(entry))),
      cards.length ? h("span", { "data-play": cards.join(" ") }, " ", cardRow(cards, { small: true })) : null,
    ];
  }

  function renderLog() {
    const items = state.log
      .slice(-60)
      .reverse()
      .map((entry) => h("li", { "data-seq": entry.seqs.join(" ") }, describe(entry)));
    // open by default for those who only watch; a player's choice is kept across renders
    const open = state.logOpen ?? (state.role === "operator" || state.role === "spectator");
    const details = h("details", { class: "log", open: open || null }, h("summary", {}, t("log")), h("ol", {}, items));
    details.addEventListener("toggle", () => (state.logOpen = details.open));
    return details;
  }

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
