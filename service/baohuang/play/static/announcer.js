// The table's live region (WAI-ARIA role="log"): what a screen reader says as the table moves —
// each play, pass, trick won, seat finished, the deal's end, and whose turn it is — in the
// page's language. It lives outside the part of the page that is drawn again on every change,
// so that each line is announced once, as it is added. state.js and words.js choose the lines.

const KEPT = 30; // lines kept: a reader may go back over the last few

export class Announcer {
  constructor(label) {
    this.region =
      document.getElementById("announcer") ??
      document.body.appendChild(Object.assign(document.createElement("div"), { id: "announcer" }));
    this.region.className = "sr-only";
    this.region.setAttribute("role", "log");
    this.region.setAttribute("aria-live", "polite");
    this.label(label);
    this.turnTimer = null;
    this.lastTurn = null;
  }

  /** The region's name, in the page's language. */
  label(text) {
    this.region.setAttribute("aria-label", text);
  }

  /** Add a line: read out by a screen reader, shown to nobody else. After a line about the
   *  table, the turn is said again even when it is the same seat's. */
  say(text, { turn = false } = {}) {
    if (!turn) this.lastTurn = null;
    const line = document.createElement("p");
    line.textContent = text;
    this.region.append(line);
    while (this.region.childElementCount > KEPT) this.region.firstElementChild.remove();
  }

  /** Whose turn it is (`key` names it), said after the events of the write that led there
   *  (they arrive one by one, and the view after them may come first); said once until
   *  something else is said. */
  turn(text, key) {
    clearTimeout(this.turnTimer);
    this.turnTimer = setTimeout(() => {
      if (key === this.lastTurn) return;
      this.lastTurn = key;
      this.say(text, { turn: true });
    }, 150);
  }
}
