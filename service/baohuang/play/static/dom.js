// A tiny element builder. Text is always set as text, never parsed as HTML, so nothing a
// server or another player sends can inject markup into the page.

/** h("button", {class: "x", onclick: f}, "text", child, …) */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** Replace what `element` holds with `children`. */
export function fill(element, ...children) {
  element.replaceChildren();
  for (const child of children.flat()) if (child) element.append(child);
  return element;
}
