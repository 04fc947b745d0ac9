// Tiny DOM helpers: h() builds elements, toast() shows a short message.

/**
 * h("button.primary", {onclick, "data-x": 1}, "text", child...)
 * The tag may carry .classes and a #id. Attributes starting with "on" become listeners;
 * `class` may be a string or an object {name: bool}; null/false children are skipped.
 */
const SVG_TAGS = new Set(["svg", "use", "path", "g", "polyline", "line", "circle", "text", "rect"]);

export function h(tag, attrs, ...children) {
  if (attrs === null || typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs)) {
    if (attrs !== undefined && attrs !== null) children.unshift(attrs);
    attrs = {};
  }
  const m = tag.match(/^([a-z0-9-]+)?((?:[.#][\w-]+)*)$/i);
  const name = (m && m[1]) || "div";
  const svg = SVG_TAGS.has(name);
  const el = svg ? document.createElementNS("http://www.w3.org/2000/svg", name) : document.createElement(name);
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === ".") el.classList.add(part.slice(1));
      else el.id = part.slice(1);
    }
  }
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      if (typeof value === "string") {
        for (const c of value.split(/\s+/).filter(Boolean)) el.classList.add(c);
      } else {
        for (const [c, on] of Object.entries(value)) if (on) el.classList.add(c);
      }
    } else if (key === "style") {
      // Through the CSSOM, property by property: the Content-Security-Policy refuses a style
      // attribute, and a custom property (--sand) is only set with setProperty.
      if (typeof value !== "object") throw new TypeError("h(): give style as an object of properties");
      for (const [prop, v] of Object.entries(value)) {
        if (prop.startsWith("--")) el.style.setProperty(prop, String(v));
        else el.style[prop] = v;
      }
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replace everything inside `el` with `children`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A reference to an icon of the inline SVG sprite (see icons.js). */
export function icon(name, cls = "") {
  const svg = h("svg", { class: `icon ${cls}`.trim(), "aria-hidden": "true", focusable: "false" });
  const use = h("use");
  use.setAttribute("href", `#i-${name}`);
  svg.append(use);
  return svg;
}

let toastBox = null;

/** A short message at the bottom of the screen; kind = "error" | "info". A `key` (an error's
 * code) names what it is about: a message with the key of one shown replaces its text. */
export function toast(text, kind = "info", ms = 4000, key = null) {
  if (!toastBox) {
    toastBox = h("div.toasts", { role: "status", "aria-live": "polite" });
    document.body.append(toastBox);
  }
  // The same message again (a refusal repeated, whose "try again in N s" has moved on) is not
  // stacked: the one shown says the new text and stays longer, and one already fading out comes
  // back rather than leave beside its twin.
  const words = text instanceof Node ? text.textContent : String(text);
  const same = [...toastBox.children].find((el) => el.classList.contains(`toast-${kind}`)
    && (key !== null ? el.dataset.key === key : el.textContent === words));
  const item = same || h(`div.toast.toast-${kind}`, { role: kind === "error" ? "alert" : null }, text);
  if (same) {
    same.classList.remove("leaving");
    if (same.textContent !== words) same.replaceChildren(text);
  } else {
    if (key !== null) item.dataset.key = key;
    toastBox.append(item);
  }
  clearTimeout(item.leaveTimer);
  clearTimeout(item.removeTimer);
  item.leaveTimer = setTimeout(() => item.classList.add("leaving"), ms);
  item.removeTimer = setTimeout(() => item.remove(), ms + 400);
  return item;
}

/** Copy text to the clipboard; falls back to a selected text field on plain-HTTP pages. */
export async function copyText(text, field) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall through */
  }
  if (field) {
    field.focus();
    field.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
  return false;
}

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

let openModal = null;

/**
 * A dialog over the page: modal(title, bodyNodes, [{label, primary, onClick, href}]).
 * Esc or any button closes it; returns a function that closes it. One at a time.
 */
export function modal(title, body, buttons = [], opts = {}) {
  if (openModal) openModal();
  const titleId = `modal-title-${Math.random().toString(36).slice(2, 8)}`;
  const before = document.activeElement;
  let close;
  const actions = buttons.map((b) => {
    const attrs = {
      class: { btn: true, primary: !!b.primary },
      onclick: () => {
        if (b.onClick) b.onClick();
        close();
      },
    };
    if (b.href) return h("a", { ...attrs, href: b.href, target: b.target || null, download: b.download || null }, b.label);
    return h("button", { type: "button", ...attrs }, b.label);
  });
  const box = h(
    `div.modal${opts.cls ? `.${opts.cls}` : ""}`,
    { role: "dialog", "aria-modal": "true", "aria-labelledby": titleId },
    h("h2", { id: titleId }, title),
    h("div.modal-body", body),
    h("div.modal-actions", actions),
  );
  const backdrop = h("div.modal-backdrop", box);
  const onKey = (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === "Tab") {
      // A modal dialog keeps the keyboard: Tab and Shift+Tab go round its own controls.
      const stops = [...box.querySelectorAll("a[href], button:not([disabled]), input, select, textarea, [tabindex]")]
        .filter((el) => el.tabIndex >= 0 && !el.hidden);
      if (!stops.length) return;
      const first = stops[0];
      const last = stops[stops.length - 1];
      const inside = box.contains(document.activeElement);
      if (e.shiftKey && (document.activeElement === first || !inside)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
        e.preventDefault();
        first.focus();
      }
    }
  };
  close = () => {
    if (!backdrop.isConnected) return;
    backdrop.remove();
    document.removeEventListener("keydown", onKey, true);
    if (openModal === close) openModal = null;
    if (opts.onClose) opts.onClose(); // however it was closed: a button, Escape or a click outside
    if (before && before.isConnected && typeof before.focus === "function") before.focus();
  };
  backdrop.addEventListener("click", (e) => {
    if (e.target === backdrop) close();
  });
  document.addEventListener("keydown", onKey, true);
  document.body.append(backdrop);
  openModal = close;
  const focus = box.querySelector(".btn.primary") || box.querySelector("button, a");
  // Focused without scrolling to it: the buttons are at the foot, and a long dialog (the rules)
  // must open at its top, where its title and first lines are.
  if (focus) focus.focus({ preventScroll: true });
  box.scrollTop = 0;
  return close;
}

export const modalOpen = () => openModal !== null;
