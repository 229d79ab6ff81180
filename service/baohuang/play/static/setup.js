// Start a table on a development service (no BAOHUANG_API_KEYS): deal with POST /v1/deal, store
// the snapshot with PUT /v1/tables/{id}, and then one of three ways to play it:
//   - hot-seat: this page plays all five seats (#table=ID&hotseat), the way to try a game alone;
//   - practice: this page is seat 0, and bots of the level chosen play the four others (the
//     `bots` of PUT; docs/clients.md "Bots"), a second or so a move so that a player can follow;
//   - links: one per seat, the spectator and the operator, to hand out.
// The page never holds a platform key: on a service with keys, PUT needs one, so tables come
// from the platform and this form only says so.
//
// The clock. A clock given at PUT runs from the PUT. Hot-seat and practice open in this very
// page at once, so they PUT with the clock when the player asks to play. Links are opened one
// by one: the table is created without a clock, and the operator (this page holds the platform
// role on a development service) presses "Start the clock" once every seat is there, which
// sets the form's clock with POST /v1/tables/{id}/clock: the first deadline runs from then.

import { Api } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";

const CLOCKS = [0, 15, 20, 30, 60]; // seconds a turn; 0: no clock
const OPTIONS = ["kaopai", "bie6", "grab"];
/** The bot levels a practice table offers (docs/clients.md "Bots"), the first by default. */
const LEVELS = ["heuristic", "search"];
const PRACTICE_SEAT = 0;

/** A link to this page for a table: a seat or spectator token, or the operator's key prompt.
 *  The token rides in the fragment (#…), which the browser never sends to a server. */
function link(tableId, token) {
  const fragment = token
    ? `table=${encodeURIComponent(tableId)}&token=${encodeURIComponent(token)}`
    : `table=${encodeURIComponent(tableId)}&key`;
  return new URL(`#${fragment}`, location.href).href;
}

/** The ruleset as a request names it: the base's name, or {base, …} with the options changed. */
function rulesetOf(form, defaults) {
  const base = defaults.find((spec) => spec.base === form.base.value);
  const changed = { base: base.base };
  for (const option of OPTIONS)
    if (form[option].checked !== base[option]) changed[option] = form[option].checked;
  if (form.deck.value !== base.deck) changed.deck = form.deck.value;
  return Object.keys(changed).length === 1 ? base.base : changed;
}

export async function startPage(root) {
  const api = new Api(); // no credential: on a development service the caller counts as a platform
  // Detect by trying: reading a table that does not exist answers 404 on an open service and
  // 401 where platform keys are configured.
  const probe = await api.get(`v1/tables/probe-${Date.now()}`);
  if (probe.status === 401) return fill(root, h("p", { class: "note" }, t("needsKey")));
  const defaults = (await api.get("v1/rulesets")).body;

  const output = h("section", { class: "links", "aria-live": "polite" });
  const heading = h("h2", {});
  let form = h("form");
  const draw = () => {
    heading.textContent = t("start");
    const fresh = startForm(defaults);
    fresh.addEventListener("submit", (event) => {
      event.preventDefault();
      // no answer in time (or no network): say so; the form stays, and the next try is new
      start(api, fresh, defaults, output, event.submitter?.value ?? "links").catch((error) =>
        fill(output, h("p", { class: "verdict", role: "alert" }, t(error.name === "TimeoutError" ? "timeout" : "network"))),
      );
    });
    for (const field of form.elements) {
      // what was chosen stays chosen in the other language
      const twin = fresh.elements.namedItem(field.name);
      if (twin && field.type === "checkbox") twin.checked = field.checked;
      else if (twin) twin.value = field.value;
    }
    form.replaceWith(fresh);
    form = fresh;
  };
  fill(root, heading, form, output);
  draw();
  document.addEventListener("languagechange", draw);
}

/** The form: a ruleset and its options (the base's defaults first), a seed, a dealer, an id. */
function startForm(defaults) {
  const checkbox = (name) =>
    h("label", {}, h("input", { type: "checkbox", name }), ` ${t(name === "grab" ? "grabOption" : name)}`);
  const form = h(
    "form",
    { class: "start" },
    h(
      "label",
      {},
      `${t("ruleset")} `,
      h(
        "select",
        { name: "base" },
        defaults.map((spec) => h("option", { value: spec.base }, t(`ruleset_${spec.base}`))),
      ),
    ),
    h(
      "fieldset",
      {},
      OPTIONS.map(checkbox),
      h(
        "label",
        {},
        `${t("deck")} `,
        h(
          "select",
          { name: "deck" },
          h("option", { value: "full" }, t("deck_full")),
          h("option", { value: "short" }, t("deck_short")),
        ),
      ),
    ),
    h(
      "label",
      {},
      `${t("seed")} `,
      h("input", { name: "seed", type: "number", value: Math.floor(Math.random() * 1e9), required: true }),
    ),
    h(
      "label",
      {},
      `${t("dealer")} `,
      h(
        "select",
        { name: "dealer" },
        [0, 1, 2, 3, 4].map((s) => h("option", { value: s }, s)),
      ),
    ),
    h(
      "label",
      {},
      `${t("tableId")} `,
      h("input", {
        name: "table",
        value: `table-${Math.random().toString(36).slice(2, 8)}`,
        required: true,
        pattern: "[A-Za-z0-9_.:\\-]{1,128}",
      }),
    ),
    h(
      "label",
      {},
      `${t("clock")} `,
      h(
        "select",
        { name: "clock" },
        CLOCKS.map((n) => h("option", { value: n }, n ? t("clockSeconds", { n }) : t("clockNone"))),
      ),
    ),
    h("p", { class: "hint" }, t("clockNote")),
    h(
      "label",
      {},
      `${t("botLevel")} `,
      h(
        "select",
        { name: "level" },
        LEVELS.map((level) => h("option", { value: level }, t(`level_${level}`))),
      ),
    ),
    h(
      "div",
      { class: "start-buttons" },
      h("button", { type: "submit", name: "how", value: "hotseat", class: "primary" }, t("hotseat")),
      h("button", { type: "submit", name: "how", value: "practice" }, t("practice")),
      h("button", { type: "submit", name: "how", value: "links" }, t("linksButton")),
    ),
  );
  const showDefaults = () => {
    const base = defaults.find((spec) => spec.base === form.base.value);
    for (const option of OPTIONS) form[option].checked = base[option];
    form.deck.value = base.deck;
  };
  form.base.addEventListener("change", showDefaults);
  showDefaults();
  return form;
}

async function start(api, form, defaults, output, how) {
  const tableId = form.table.value;
  const ruleset = rulesetOf(form, defaults);
  const dealt = await api.post("v1/deal", {
    ruleset,
    seed: Number(form.seed.value),
    dealer: Number(form.dealer.value),
  });
  if (!dealt.ok)
    return fill(output, h("p", { class: "verdict", role: "alert" }, dealt.body?.detail ?? dealt.status));
  const put = (body) => api.request("PUT", `v1/tables/${encodeURIComponent(tableId)}`, body);
  const seconds = Number(form.clock.value);
  const chosen = seconds ? { turn_seconds: seconds, before_play_seconds: seconds } : null;
  // practice: bots of the chosen level at every seat but the player's
  const bots =
    how === "practice"
      ? [0, 1, 2, 3, 4].filter((seat) => seat !== PRACTICE_SEAT).map((seat) => ({ seat, level: form.level.value }))
      : null;
  const table = bots ? { snapshot: dealt.body.snapshot, bots } : { snapshot: dealt.body.snapshot };
  // Ask for a clock; a service without clocks refuses the unknown field with 400: then without.
  // Links: no clock at PUT; the operator starts it below once the players are there.
  let created = await put(
    seconds && how !== "links" ? { ...table, clock: { turn_seconds: seconds, before_play_seconds: seconds } } : table,
  );
  let clock = true;
  if (seconds && how !== "links" && created.status === 400 && JSON.stringify(created.body).includes("clock")) {
    created = await put(table);
    clock = false;
  }
  if (created.status === 401) return fill(output, h("p", { class: "note" }, t("needsKey")));
  if (!created.ok)
    return fill(output, h("p", { class: "verdict", role: "alert" }, created.body?.detail ?? created.status));
  const { seat_tokens: seats, spectator_token: spectator } = created.body;
  if (how === "hotseat") {
    location.hash = `table=${encodeURIComponent(tableId)}&hotseat`; // main.js opens it
    return;
  }
  if (how === "practice") {
    location.href = link(tableId, seats[PRACTICE_SEAT]); // the bots move on their own
    return;
  }
  fill(
    output,
    h("h2", {}, `${t("links")} · ${tableId}`),
    clock ? null : h("p", { class: "note" }, t("noClock")),
    chosen ? clockStarter(api, tableId, chosen) : null,
    h(
      "ul",
      {},
      seats.map((token, seat) =>
        h(
          "li",
          {},
          h(
            "a",
            { href: link(tableId, token), target: "_blank", "data-seat-link": seat },
            `${t("seatLink")} ${seat}`,
          ),
        ),
      ),
      h(
        "li",
        {},
        h(
          "a",
          { href: link(tableId, spectator), target: "_blank", "data-spectator-link": "" },
          t("spectatorLink"),
        ),
      ),
      h(
        "li",
        {},
        h("a", { href: link(tableId, null), target: "_blank", "data-operator-link": "" }, t("operatorLink")),
      ),
    ),
  );
}

/** "Start the clock", shown until it is started: sets the clock chosen in the form on the
 *  table (POST /v1/tables/{id}/clock, at the table's current version), so the first deadline
 *  runs from this press rather than from the PUT. */
function clockStarter(api, tableId, clock) {
  const note = h("p", { class: "hint" }, t("clockWaiting", { n: clock.turn_seconds }));
  const button = h("button", { type: "button", class: "primary", "data-start-clock": "" }, t("startClock"));
  const box = h("div", { class: "clock-start" }, note, button);
  button.addEventListener("click", async () => {
    button.disabled = true;
    let answer = null;
    try {
      answer = await api.post(`v1/tables/${encodeURIComponent(tableId)}/clock`, { clock });
    } catch (error) {
      note.textContent = t(error.name === "TimeoutError" ? "timeout" : "network");
    }
    if (answer?.ok) {
      fill(box, h("p", { class: "note", "data-clock-started": "" }, t("clockStarted", { n: clock.turn_seconds })));
      return;
    }
    // a service without the route (404/405) or without clocks (400): say so in words
    if (answer) note.textContent = t("clockNotStarted");
    button.disabled = false;
  });
  return box;
}

/** The operator's entry (#table=ID&key): the platform key is typed here and kept in memory only,
 *  never in a URL or in storage. On a development service it may stay empty. */
export function keyPrompt(root, tableId, open) {
  const input = h("input", {
    type: "password",
    name: "key",
    autocomplete: "off",
    "aria-label": t("platformKey"),
  });
  const form = h(
    "form",
    { class: "key" },
    h("label", {}, `${t("platformKey")} `, input),
    h("button", { type: "submit" }, t("open")),
    h("p", { class: "hint" }, t("keyNote")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const key = input.value || null;
    input.value = "";
    open(root, tableId, key);
  });
  fill(root, h("h2", {}, `${t("operator")} · ${tableId}`), form);
  input.focus();
}
