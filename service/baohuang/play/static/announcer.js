// The table's live region (WAI-ARIA role="log"): what a screen reader says as the table moves —
// each play, pass, trick won, seat finished, the deal's end, and whose turn it is — in the
// page's language. It lives outside the part of the page that is drawn again on every change,
// so that each line is announced once, as it is added. state.js and words.js choose the lines.

const KEPT = 30; // lines kept: a reader may go back over the last few
const QUIET_MS = 150; // a write's events arrive one by one: what follows them waits this long

export class Announcer {
  constructor(label) {
    this.region =
      document.getElementById("announcer") ??
      document.body.appendChild(Object.assign(document.createElement("div"), { id: "announcer" }));
    this.region.className = "sr-only";
    this.region.setAttribute("role", "log");
    this.region.setAttribute("aria-live", "polite");
    this.label(label);
    this.standing = null; // {text, key, timer}: where the table stands, said once events stop
    this.lastStanding = null; // the key of the last such line said
  }

  /** The region's name, in the page's language. */
  label(text) {
    this.region.setAttribute("aria-label", text);
  }

  /** An event, said at once. A line about where the table stands waits until events stop. */
  say(text) {
    this.add(text);
    this.lastStanding = null; // after an event, the turn is said again, even the same seat's
    if (this.standing) this.wait();
  }

  /** Where the table now stands — whose turn it is, or the deal's end — said once the events
   *  of the write that led there are said (the view after a write may come before its last
   *  events). `key` names it: the same line is not said twice in a row. */
  after(text, key) {
    clearTimeout(this.standing?.timer);
    this.standing = { text, key };
    this.wait();
  }

  wait() {
    clearTimeout(this.standing.timer);
    this.standing.timer = setTimeout(() => {
      const { text, key } = this.standing;
      this.standing = null;
      if (key === this.lastStanding) return;
      this.lastStanding = key;
      this.add(text);
    }, QUIET_MS);
  }

  add(text) {
    const line = document.createElement("p");
    line.textContent = text;
    this.region.append(line);
    while (this.region.childElementCount > KEPT) this.region.firstElementChild.remove();
  }
}
