// One table, as a seat, a spectator or an operator sees it.
//
// The loop is the simplest correct client of docs/clients.md:
//   1. follow the table's stream; its first frame (`snapshot`) is the caller's view: render it;
//   2. for each event: note it (the trick's plays, the log, the clock), and when the event is
//      newer than the view, read the table again (GET /v1/tables/{id}) and render that;
//   3. a move is POSTed with the version the page saw and an Idempotency-Key; 409 means someone
//      moved first (read again), 422 is the table's verdict, shown with its reason.
// Whatever a caller may not see never reaches it: the service cuts every answer to the caller.

import { Api, follow } from "./api.js";
import { beforePlayActions, callable, playActions, rulesetSpec } from "./actions.js";
import { byRank, cardElement, cardRow, keyed } from "./cards.js";
import { fill, h } from "./dom.js";
import { eventName, t } from "./i18n.js";

const PLACES = ["place1", "place2", "place3", "place4", "place5"];
const SHORTCUTS = { p: "play", s: "pass", y: "yield", j: "jiefeng" };

export async function openTable(root, tableId, credential) {
  const api = new Api(credential);
  const path = `v1/tables/${encodeURIComponent(tableId)}`;
  const state = {
    answer: null, // the last table answer: {id, instance, version, view, last_seq, table?}
    role: null, // "seat", "spectator" or "operator", from the view's shape
    defaults: [], // GET /v1/rulesets
    selected: new Set(), // keys ("7S#2") of the selected cards of the own hand
    feedback: null, // what /v1/combos/* say of the selection
    verdict: null, // the table's last refusal, or a note
    plays: {}, // this trick: seat → the cards it played last
    trickOver: false, // a trick was just won: its plays stay shown until the next lead
    log: [], // the events seen, oldest first
    deadline: null, // unix seconds by which the seat to act must act (clocks only)
    scores: null, // the finished deal's scores
    connection: "connecting",
    busy: false, // a move is on its way
    callCard: null, // the card chosen to call (G-2)
  };

  // ---- reading -------------------------------------------------------------------------------

  /** Take a table answer (a read, a stream's opening, a move answer) unless it is older. */
  function accept(answer) {
    if (state.answer && answer.version < state.answer.version && answer.instance === state.answer.instance)
      return;
    const view = answer.view;
    state.role = view.hands ? "operator" : view.seat !== undefined ? "seat" : "spectator";
    state.answer = answer;
    if (answer.table) state.deadline = answer.table.deadline ?? null;
    if (!view.over) state.scores = null;
    else if (!state.scores) loadScores();
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
    const page = await api.get(`${path}/events?after=${Math.max(0, lastSeq - 300)}&limit=300`);
    state.plays = {};
    state.trickOver = false;
    state.log = [];
    if (!page.ok) return;
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
    const answer = await api.post("v1/scores", body);
    if (answer.ok && answer.body.final) {
      state.scores = answer.body.scores;
      render();
    }
  }

  /** Note an event: the trick's plays, the clock, the log. */
  function note(event) {
    state.log.push(event);
    if (state.log.length > 300) state.log.shift();
    if (event.type === "played") {
      if (state.trickOver) state.plays = {};
      state.trickOver = false;
      state.plays[event.seat] = event.cards;
    } else if (event.type === "trick_won") state.trickOver = true;
    else if (event.type === "clock") state.deadline = event.deadline;
    else if (event.type === "deal_started" || event.type === "phase") state.plays = {};
  }

  // ---- moving --------------------------------------------------------------------------------

  /** POST a move (or a clock route) for this table and take its answer. */
  async function send(route, body) {
    state.busy = true;
    state.verdict = null;
    render();
    try {
      const answer = await api.write(`${path}${route}`, { ...body, version: state.answer.version });
      if (answer.ok) {
        state.selected.clear();
        state.feedback = null;
        const { version, instance, view, table } = answer.body;
        if (view) accept({ ...state.answer, version, instance, view, table: table ?? state.answer.table });
        else await reread();
      } else if (answer.status === 409) {
        state.verdict = { note: t("conflict") }; // someone moved first: look again
        await reread();
      } else {
        const error = answer.body?.errors?.[0] ?? {};
        state.verdict = {
          code: error.code ?? answer.status,
          rule: error.rule,
          message: error.message ?? answer.body?.detail,
        };
      }
    } catch (error) {
      state.verdict = { code: "NETWORK", message: String(error) };
    } finally {
      state.busy = false;
      render();
    }
  }

  function move(action, extra = {}) {
    const seat = state.answer.view.seat;
    if (action === "play") extra = { cards: selectedCodes() };
    return send("/moves", { move: { seat, action, ...extra } });
  }

  function selectedCodes() {
    return hand()
      .filter((card) => state.selected.has(card.key))
      .map((card) => card.code);
  }

  const hand = () => keyed(state.answer?.view.hand ?? []);

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
    const answer = top
      ? await api.post("v1/combos/compare", { previous: top.cards, candidate: cards, ruleset: view.ruleset })
      : await api.post("v1/combos/classify", { cards, ruleset: view.ruleset });
    if (asked !== judging) return;
    state.feedback = answer.ok
      ? { top: Boolean(top), ...answer.body }
      : { problem: answer.body?.errors?.[0] };
    renderControls();
  }

  function toggle(key) {
    if (state.selected.has(key)) state.selected.delete(key);
    else state.selected.add(key);
    state.verdict = null; // a new selection: the last refusal was about another
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

  // ---- rendering ---------------------------------------------------------------------------

  /** Re-draw the feedback, the verdict and the buttons under the hand, keeping the focus. */
  function renderControls() {
    const controls = root.querySelector(".controls");
    if (!controls) return;
    const focused = document.activeElement?.dataset?.focus;
    const { view } = state.answer;
    controls.replaceWith(renderOwnControls(view, rulesetSpec(view.ruleset, state.defaults)));
    if (focused) root.querySelector(`[data-focus="${CSS.escape(focused)}"]`)?.focus();
  }

  function render() {
    if (!state.answer) return;
    const focused = document.activeElement?.dataset?.focus;
    const { view } = state.answer;
    const spec = rulesetSpec(view.ruleset, state.defaults);
    fill(
      root,
      renderStatus(view, spec),
      h(
        "div",
        { class: "seats" },
        seatOrder(view).map((seat) => renderSeat(view, seat)),
      ),
      renderCrown(view),
      state.role === "seat" ? renderOwn(view) : null,
      renderOver(view),
      renderLog(),
    );
    root.dataset.version = state.answer.version; // tests wait for the version they expect
    if (focused) root.querySelector(`[data-focus="${CSS.escape(focused)}"]`)?.focus();
    tick();
  }

  /** A seat sees the others in playing order after it, itself last (next to its hand). */
  function seatOrder(view) {
    const first = state.role === "seat" ? view.seat + 1 : 0;
    return [0, 1, 2, 3, 4].map((step) => (first + step) % 5);
  }

  function renderStatus(view, spec) {
    const options = [
      spec.kaopai && t("kaopai"),
      spec.bie6 && t("bie6"),
      spec.deck === "short" && t("deck_short"),
    ];
    const whose = view.over
      ? t("over")
      : view.turn === view.seat
        ? t("yourTurn")
        : `${t("waiting")} ${view.turn}`;
    const role = { seat: `${t("seat")} ${view.seat}`, spectator: t("spectator"), operator: t("operator") }[
      state.role
    ];
    return h(
      "header",
      { class: "status" },
      h("span", { class: "who" }, role),
      h("span", {}, `${state.answer.id} · ${spec.base}`, ...options.filter(Boolean).map((o) => ` · ${o}`)),
      h(
        "span",
        {},
        t(`phase_${view.phase}`),
        view.crown?.stage ? ` · ${t(`stage_${view.crown.stage}`)}` : "",
        view.mode !== "team" ? ` · ${t(`mode_${view.mode}`)}` : "", // 暗独 shows only to the emperor
      ),
      h("strong", { class: view.turn === view.seat && !view.over ? "your-turn" : "" }, whose),
      h("span", { class: "countdown", id: "countdown", hidden: true }),
      h("span", { class: `connection ${state.connection}` }, t(state.connection)),
      h("span", { class: "version" }, `${t("version")} ${state.answer.version}`),
    );
  }

  /** Role badges, as far as this caller may know them: the view names the guard only when it is
   *  shown (明保), to the guard itself, or once the deal is over (G-8). */
  function badges(view, seat) {
    const list = [];
    const seats = state.answer.table?.seats;
    if (view.phase === "crown") {
      if (seat === view.emperor) list.push(["crown", t("crownHolder")]);
    } else if (seat === view.emperor) list.push(["emperor", t("emperor")]);
    if (view.guard === seat && view.guard !== view.emperor) {
      list.push([
        "guard",
        view.guard_revealed || view.over || state.role !== "seat" || view.seat !== seat
          ? t("guard")
          : t("hiddenGuard"),
      ]);
    }
    if (rebel(view, seat)) list.push(["rebel", t("rebel")]);
    if (view.rebellion.includes(seat)) list.push(["rebel", t("rebelled")]);
    if (seats?.[seat]?.trustee) list.push(["trustee", t("trustee")]);
    if (seats?.[seat]?.left) list.push(["left", t("left")]);
    const place = view.positions ? view.positions[seat] - 1 : view.finished.indexOf(seat);
    if (place >= 0) list.push(["place", t(PLACES[place])]);
    return list.map(([kind, label]) => h("span", { class: `badge ${kind}` }, label));
  }

  /** Whether ``seat`` is known to this caller as a rebel (革命党): once roles are settled, every
   *  seat but the emperor in a game without a guard, every seat but a known guard, and a seat
   *  itself when its view names no guard (the guard always sees itself, G-8). */
  function rebel(view, seat) {
    if (view.phase !== "play" || seat === view.emperor) return false;
    if (view.mode !== "team") return true;
    if (view.guard !== null) return seat !== view.guard;
    return seat === view.seat;
  }

  function renderSeat(view, seat) {
    const trick = view.trick;
    const played = state.plays[seat] ?? (trick.top?.seat === seat ? trick.top.cards : null);
    const marks = [
      trick.passed.includes(seat) && t("passed"),
      trick.yielded.includes(seat) && t("yielded"),
      trick.jiefeng === seat && t("jiefeng"),
    ].filter(Boolean);
    const total = state.answer.table?.totals?.[seat];
    return h(
      "article",
      {
        class: `seat${seat === view.seat ? " me" : ""}${seat === view.turn && !view.over ? " turn" : ""}${trick.top?.seat === seat ? " top" : ""}`,
        "data-seat": seat,
        "aria-current": seat === view.turn && !view.over ? "true" : null,
      },
      h("h2", {}, `${t("seat")} ${seat}`, seat === view.seat ? ` (${t("you")})` : ""),
      h("div", { class: "badges" }, badges(view, seat)),
      h(
        "p",
        { class: "count" },
        `${view.counts?.[seat] ?? view.hands[seat].length} ${t("cards")}`, // a platform's view has hands
        total !== undefined ? ` · ${t("total")} ${total}` : "",
      ),
      h(
        "div",
        { class: `play${state.trickOver ? " done" : ""}` },
        played ? h("span", { "data-play": played.join(" ") }, cardRow(played, { small: true })) : null,
        marks.map((mark) => h("span", { class: "mark" }, mark)),
      ),
      state.role === "operator"
        ? h("div", { class: "full-hand", "data-hand": seat }, cardRow(view.hands[seat], { small: true }))
        : null,
    );
  }

  /** Before play: the crown's hand-ons and the cards travelling with it; the called card. */
  function renderCrown(view) {
    if (view.phase === "play" && !view.called) return null;
    const crown = view.crown;
    return h(
      "section",
      { class: "crown-info" },
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

  function renderOwn(view) {
    return h(
      "section",
      { class: "own", "aria-label": t("hand") },
      h("h2", {}, t("hand"), ` · ${view.hand.length} ${t("cards")}`),
      h(
        "div",
        { class: "hand", "data-region": "hand" },
        byRank(hand()).map((group) =>
          h(
            "div",
            { class: "group" },
            group.map((card) =>
              cardElement(card.code, { button: true, key: card.key, selected: state.selected.has(card.key) }),
            ),
          ),
        ),
      ),
      renderOwnControls(view, rulesetSpec(view.ruleset, state.defaults)),
    );
  }

  /** What the seat may do now, and what the referee said of its selection or its last move. */
  function renderOwnControls(view, spec) {
    const actions =
      view.phase === "play" ? playActions(view, view.seat, spec) : beforePlayActions(view, view.seat, spec);
    const seats = state.answer.table?.seats;
    return h(
      "div",
      { class: "controls" },
      renderFeedback(),
      state.verdict ? renderVerdict(state.verdict) : null,
      h(
        "div",
        { class: "actions" },
        actions.map((action) => actionButton(action, view)),
        actions.includes("play") ? button("clear", t("clear"), clearSelection, "Esc") : null,
        seats ? renderSeatClock(view, seats[view.seat]) : null,
      ),
      actions.includes("play") ? h("p", { class: "hint" }, t("shortcuts")) : null,
    );
  }

  function button(name, label, onclick, key = null, disabled = false) {
    return h(
      "button",
      {
        type: "button",
        class: `action ${name}`,
        "data-action": name,
        "data-focus": `action:${name}`,
        onclick,
        disabled: disabled || state.busy,
      },
      label,
      key ? h("kbd", {}, key) : null,
    );
  }

  function actionButton(action, view) {
    const key = Object.keys(SHORTCUTS)
      .find((k) => SHORTCUTS[k] === action)
      ?.toUpperCase();
    if (action === "play")
      return button("play", t("play"), () => move("play"), key, state.selected.size === 0);
    if (action === "call") {
      const options = keyed(callable(view.hand)).map(({ code }) =>
        h("option", { value: code, selected: code === state.callCard }, code),
      );
      const select = h(
        "select",
        {
          class: "call-card",
          "data-focus": "call-card",
          "aria-label": t("called"),
          onchange: () => (state.callCard = select.value), // kept across renders
        },
        options,
      );
      return h(
        "span",
        { class: "call" },
        select,
        button("call", t("call"), () => move("call", { card: select.value }), null, !options.length),
      );
    }
    const label = action === "decline" && view.phase === "crown" ? t("declineCrown") : t(action);
    return button(action, label, () => move(action), key);
  }

  /** 托管 and leaving, where the table keeps clocks (T-11, S-9). */
  function renderSeatClock(view, mine) {
    if (!mine || view.over) return null;
    const seat = view.seat;
    return [
      button("trustee", mine.trustee ? t("trusteeOff") : t("trusteeOn"), () =>
        send(`/seats/${seat}/trustee`, { on: !mine.trustee }),
      ),
      mine.left
        ? null
        : button("leave", t("leave"), () => confirm(t("leaveSure")) && send(`/seats/${seat}/leave`, {})),
    ];
  }

  function renderFeedback() {
    const f = state.feedback;
    if (!f) return h("p", { class: "feedback", "aria-live": "polite" });
    if (f.problem)
      return h(
        "p",
        { class: "feedback bad", "aria-live": "polite" },
        `${f.problem.code}: ${f.problem.message}`,
      );
    const good = f.top ? f.beats : f.valid;
    const what = f.top ? (f.beats ? t("beats") : t("doesNotBeat")) : f.valid ? t("combo") : t("notCombo");
    return h(
      "p",
      { class: `feedback ${good ? "good" : "bad"}`, "aria-live": "polite" },
      good ? "✓ " : "✗ ",
      what,
      f.reason ? ` — ${f.reason.code} (${f.reason.rule}): ${f.reason.message}` : "",
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

  function renderVerdict(verdict) {
    if (verdict.note) return h("p", { class: "verdict note", role: "status" }, verdict.note);
    return h(
      "p",
      { class: "verdict", role: "alert" },
      h("strong", {}, `${t("refused")}: `),
      h("code", { class: "reason" }, verdict.code),
      verdict.rule ? ` (${verdict.rule})` : "",
      ` ${verdict.message ?? ""}`,
    );
  }

  function renderOver(view) {
    if (!view.over) return null;
    const next =
      state.role === "operator" && state.answer.table
        ? button("next-deal", t("nextDeal"), () => send("/deals", {}))
        : null;
    if (view.void) return h("section", { class: "over" }, h("h2", {}, t("void")), next);
    const rows = [0, 1, 2, 3, 4].map((seat) =>
      h(
        "tr",
        {},
        h("th", {}, `${t("seat")} ${seat}`),
        h("td", {}, view.positions ? t(PLACES[view.positions[seat] - 1]) : ""),
        h("td", { class: "score" }, state.scores ? String(state.scores[seat]) : ""),
      ),
    );
    return h(
      "section",
      { class: "over" },
      h("h2", {}, t("over")),
      h(
        "table",
        {},
        h("thead", {}, h("tr", {}, h("th", {}), h("th", {}, t("positions")), h("th", {}, t("score")))),
        h("tbody", {}, rows),
      ),
      next,
    );
  }

  function describe(event) {
    const seat = event.seat !== undefined && event.seat !== null ? `${t("seat")} ${event.seat} ` : "";
    const cards = event.cards ?? (event.card ? [event.card] : event.added ? [event.added] : null);
    return [
      `#${event.seq} ${seat}${eventName(event.type)}`,
      cards?.length
        ? h("span", { "data-play": cards.join(" ") }, " ", cardRow(cards, { small: true }))
        : null,
    ];
  }

  function renderLog() {
    const items = state.log
      .slice(-60)
      .reverse()
      .map((event) => h("li", {}, describe(event)));
    return h(
      "details",
      { class: "log", open: state.role !== "seat" },
      h("summary", {}, t("log")),
      h("ol", {}, items),
    );
  }

  /** The countdown of the seat to act, where the table keeps a clock; every 250 ms. */
  function tick() {
    const element = document.getElementById("countdown");
    if (!element) return;
    const left = state.deadline === null ? null : state.deadline - (Date.now() / 1000 + api.skew);
    element.hidden = left === null || state.answer.view.over;
    if (left !== null) element.textContent = `⏱ ${Math.max(0, Math.ceil(left))} ${t("seconds")}`;
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
    const action = SHORTCUTS[event.key.toLowerCase()];
    if (action) root.querySelector(`button[data-action="${action}"]:not([disabled])`)?.click();
  });
  document.addEventListener("languagechange", render);

  // ---- start: the rulesets, then the stream ------------------------------------------------

  fill(root, h("p", {}, t("connecting")));
  const rulesets = await api.get("v1/rulesets");
  state.defaults = rulesets.ok ? rulesets.body : [];
  follow(api, tableId, {
    async onOpen(table) {
      await loadTrick(table.last_seq);
      accept(table); // the snapshot frame: render from the view
    },
    async onEvent(event) {
      note(event);
      if (event.version > state.answer.version) await reread();
      else render();
    },
    onStatus(status) {
      // back after a drop: the stream resumes after the last event it gave, and the table is
      // read again in case an event arrived while a read could not be made
      if (status === "live" && state.connection === "retrying") reread();
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
